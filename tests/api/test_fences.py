"""Fences on the wire: added and removed as events, listed on the session, refused once the
wander has stopped."""

import json

import websockets

from tests.api.conftest import API, create


async def test_fences_are_events_listed_and_removable(client):
    s = await create(client, max_steps=5, random_seed=2)
    sid, seq = s["id"], s["last_event_seq"]
    assert s["fence"] == []
    r = await client.post(f"{API}/{sid}/fence", json={"concept": "weapon", "action": "exclude"})
    assert r.status_code == 200 and r.json()["fence"] == [{"concept": "weapon", "action": "exclude"}]
    await client.post(f"{API}/{sid}/fence", json={"concept": "harbour", "action": "include"})
    r = await client.delete(f"{API}/{sid}/fence", params={"concept": "weapon"})
    assert r.status_code == 200 and r.json()["fence"] == [{"concept": "harbour", "action": "include"}]
    missing = await client.delete(f"{API}/{sid}/fence", params={"concept": "weapon"})
    assert missing.status_code == 422 and missing.json()["field"] == "concept"
    events = (await client.get(f"{API}/{sid}")).json()["last_event_seq"]
    assert events == seq + 3
    async with websockets.connect(
        f"ws://{client.base_url.host}:{client.base_url.port}/ws/sessions/{sid}?after_seq={seq}"
    ) as ws:
        frames = [json.loads(await ws.recv()) for _ in range(3)]
    assert [f["event"]["subject"] for f in frames] == [
        "wander.fence.added",
        "wander.fence.added",
        "wander.fence.removed",
    ]
    assert frames[2]["event"]["payload"]["fence"] == [{"concept": "harbour", "action": "include"}]

    await client.post(f"{API}/{sid}/stop")
    late = await client.post(f"{API}/{sid}/fence", json={"concept": "sea", "action": "exclude"})
    assert late.status_code == 409
    assert (await client.delete(f"{API}/{sid}/fence", params={"concept": "harbour"})).status_code == 409
