"""A WebSocket's catch-up sends the stored events as Postgres keeps their payload's JSON
(event_texts_after): the same EventOut, field for field, as the events decoded and encoded
again (api/ws.py's event_json)."""

from __future__ import annotations

import json

from tests.api.conftest import API, create
from wander.faces.api.ws import event_json


async def test_event_texts_are_the_events_as_event_json_writes_them(client, app):
    s = await create(client, seed_concept="sailing", attractor="epidemiology", max_steps=6, random_seed=2)
    sid = s["id"]
    for _ in range(3):
        assert (await client.post(f"{API}/{sid}/step")).status_code == 200
    events = await app.store.events_after(sid)
    texts = await app.store.event_texts_after(sid)
    assert [seq for seq, _ in texts] == [e.seq for e in events]
    assert [json.loads(t) for _, t in texts] == [json.loads(event_json(e)) for e in events]
    # a page after a seq, as the catch-up asks for them
    page = await app.queries.event_texts_after(sid, 2, limit=3)
    assert [seq for seq, _ in page] == [3, 4, 5]
