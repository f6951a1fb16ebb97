"""The WebSocket bridge: backlog from the outbox, then live, no gap and no duplicate."""

import asyncio
import json

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.api.conftest import API, create, start_server, wait_idle
from wander.faces.api.app import ApiSettings


async def collect(ws, until_seq: int, timeout: float = 60) -> list[dict]:
    """Frames until both the caught_up frame and the event with until_seq have arrived."""
    frames = []
    async with asyncio.timeout(timeout):
        while True:
            frame = json.loads(await ws.recv())
            frames.append(frame)
            done = any(f["type"] == "caught_up" for f in frames) and until_seq in seqs(frames)
            if done:
                return frames


def seqs(frames):
    return [f["event"]["seq"] for f in frames if f["type"] == "event"]


async def test_backlog_then_live_without_gap_or_duplicate(client, server):
    s = await create(client, max_steps=30, random_seed=8)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 10})
    await asyncio.sleep(0.2)  # connect while the run is under way: part backlog, part live
    async with websockets.connect(f"ws://{server}/ws/sessions/{sid}?after_seq=0") as ws:
        await wait_idle(client, sid)
        last = (await client.get(f"{API}/{sid}")).json()["last_event_seq"]
        frames = await collect(ws, last)
    assert any(f["type"] == "caught_up" for f in frames)
    assert seqs(frames) == list(range(1, last + 1))
    subjects = [f["event"]["subject"] for f in frames if f["type"] == "event"]
    assert subjects.count("wander.step.completed") == 10


async def test_after_seq_resumes_where_the_client_left(client, server):
    s = await create(client, max_steps=8, random_seed=9)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 4})
    await wait_idle(client, sid)
    async with websockets.connect(f"ws://{server}/ws/sessions/{sid}?after_seq=0") as ws:
        first = (await client.get(f"{API}/{sid}")).json()["last_event_seq"]
        got = seqs(await collect(ws, first))
    # Disconnected: the wander goes on; reconnecting with after_seq gets exactly the rest.
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 4})
    await wait_idle(client, sid)
    last = (await client.get(f"{API}/{sid}")).json()["last_event_seq"]
    async with websockets.connect(f"ws://{server}/ws/sessions/{sid}?after_seq={got[-1]}") as ws:
        rest = seqs(await collect(ws, last))
    # no gap and no duplicate; a background event (the projection refit after completion) may
    # already follow `last`
    assert len(got) + len(rest) >= last
    assert got + rest == list(range(1, len(got) + len(rest) + 1))


def batched_seqs(frames):
    """Seqs of `event` and `events` frames, in the order they came."""
    out = []
    for f in frames:
        if f["type"] == "event":
            out.append(f["event"]["seq"])
        elif f["type"] == "events":
            out.extend(e["seq"] for e in f["events"])
    return out


async def collect_batched(ws, until_seq: int, timeout: float = 60) -> list[dict]:
    frames = []
    async with asyncio.timeout(timeout):
        while not (any(f["type"] == "caught_up" for f in frames) and until_seq in batched_seqs(frames)):
            frames.append(json.loads(await ws.recv()))
    return frames


async def test_batched_backlog_then_live_without_gap_or_duplicate(client, server):
    """batch=1: the backlog comes in `events` frames (each one a WsFrame of the contract),
    then caught_up, then live `event` frames; no gap and no duplicate across the hand-over."""
    from shared_schemas.events import WsFrame

    s = await create(client, max_steps=30, random_seed=8)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 3})
    await wait_idle(client, sid)
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 8})
    await asyncio.sleep(0.2)  # connect while the run is under way: part backlog, part live
    async with websockets.connect(f"ws://{server}/ws/sessions/{sid}?batch=1&after_seq=2") as ws:
        await wait_idle(client, sid)
        last = (await client.get(f"{API}/{sid}")).json()["last_event_seq"]
        frames = await collect_batched(ws, last)
    caught = next(i for i, f in enumerate(frames) if f["type"] == "caught_up")
    assert frames[0]["type"] == "events" and all(f["type"] == "events" for f in frames[:caught])
    # live: one frame per event and heartbeats, and (batch=1) an `events` frame where the
    # socket fills a hole from the outbox (ws.py: an event that came before the one before it)
    assert all(f["type"] in ("event", "events", "heartbeat") for f in frames[caught + 1 :])
    assert batched_seqs(frames) == list(range(3, last + 1))
    assert frames[caught]["last_seq"] == batched_seqs(frames[:caught])[-1]
    for f in frames:
        WsFrame.model_validate(f)


@pytest.mark.parametrize("first", [3, None])
async def test_backlog_in_pages_read_ahead_has_no_gap_or_duplicate(client, server, monkeypatch, first):
    """A backlog of many pages (the next one read while one is sent): every event once, in
    order, then caught_up with the last seq; also when the last page is exactly full."""
    from wander.faces.api import ws as ws_module

    s = await create(client, max_steps=30, random_seed=8)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 4})
    await wait_idle(client, sid)
    last = (await client.get(f"{API}/{sid}")).json()["last_event_seq"]
    # pages of 3, 6, then 8 each; or (None) a first page that holds exactly the backlog
    monkeypatch.setattr(ws_module, "FIRST_PAGE", first or last)
    monkeypatch.setattr(ws_module, "CATCH_UP_PAGE", 8)
    for batch in ("0", "1"):
        async with websockets.connect(f"ws://{server}/ws/sessions/{sid}?batch={batch}&after_seq=0") as ws:
            frames = await collect_batched(ws, last)
        caught = next(i for i, f in enumerate(frames) if f["type"] == "caught_up")
        assert batched_seqs(frames[:caught]) == list(range(1, last + 1))
        assert frames[caught]["last_seq"] == last


def test_events_frames_split_in_order(monkeypatch):
    from datetime import UTC, datetime

    from shared_schemas.events import EventsFrame
    from wander.core.domain.models import Event
    from wander.faces.api import ws as ws_module

    def ev(seq: int) -> Event:
        payload = {"session_id": "s", "step_number": seq, "from_locus_id": "l"}
        return Event(session_id="s", seq=seq, subject="wander.step.started", ts=datetime.now(UTC), payload=payload)

    monkeypatch.setattr(ws_module, "BATCH_EVENTS", 4)
    frames = ws_module.events_frames([ev(i) for i in range(1, 11)])
    parsed = [EventsFrame.model_validate_json(f) for f in frames]
    assert [len(f.events) for f in parsed] == [4, 4, 2]
    assert [e.root.seq for f in parsed for e in f.events] == list(range(1, 11))
    monkeypatch.setattr(ws_module, "BATCH_BYTES", 1)  # every event passes it: one a frame
    assert len(ws_module.events_frames([ev(i) for i in range(1, 4)])) == 3
    assert ws_module.events_frames([]) == []


async def test_heartbeat_and_caught_up_carry_last_seq(client, server):
    s = await create(client, max_steps=3)
    async with websockets.connect(f"ws://{server}/ws/sessions/{s['id']}?after_seq=0") as ws:
        frames = [json.loads(await ws.recv()) for _ in range(4)]
    caught = next(f for f in frames if f["type"] == "caught_up")
    beat = next(f for f in frames if f["type"] == "heartbeat")
    assert caught["last_seq"] == 2 and beat["last_seq"] == 2


@pytest.mark.parametrize(
    "path, headers, code",
    [
        ("/ws/sessions/00000000-0000-0000-0000-0000000000aa", {}, 4404),
        ("/ws/sessions/not-a-uuid", {}, 4404),
        ("/ws/sessions/{sid}?after_seq=-1", {}, 4400),
        ("/ws/sessions/{sid}?after_seq=abc", {}, 4400),
        ("/ws/sessions/{sid}?after_seq=0&batch=yes", {}, 4400),
        ("/ws/sessions/{sid}", {"Origin": "http://evil.example"}, 4403),
    ],
)
async def test_refusals_have_clear_close_codes(client, server, path, headers, code):
    s = await create(client, max_steps=3)
    async with websockets.connect(f"ws://{server}{path.format(sid=s['id'])}", additional_headers=headers) as ws:
        with pytest.raises(ConnectionClosed) as closed:
            await ws.recv()
    assert closed.value.rcvd.code == code


async def test_loopback_origin_is_accepted(client, server):
    s = await create(client, max_steps=3)
    port = server.rsplit(":", 1)[1]
    async with websockets.connect(
        f"ws://{server}/ws/sessions/{s['id']}", additional_headers={"Origin": f"http://localhost:{port}"}
    ) as ws:
        assert json.loads(await ws.recv())["type"] == "event"


async def test_token_is_required_when_configured(app):
    srv, task, addr = await start_server(app, ApiSettings(token="s3cret", heartbeat_s=0.3, resume_interrupted=False))
    try:
        import httpx

        async with httpx.AsyncClient(base_url=f"http://{addr}") as c:
            r = await c.get(API)
            assert r.status_code == 401 and r.json()["status"] == 401
            assert (await c.get(API, headers={"Authorization": "Bearer wrong"})).status_code == 401
            ok = await c.post(API, json={"seed_concept": "tide"}, headers={"Authorization": "Bearer s3cret"})
            assert ok.status_code == 201
            sid = ok.json()["id"]
        async with websockets.connect(f"ws://{addr}/ws/sessions/{sid}") as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
        assert closed.value.rcvd.code == 4401
        async with websockets.connect(f"ws://{addr}/ws/sessions/{sid}?token=s3cret") as ws:
            assert json.loads(await ws.recv())["type"] == "event"
    finally:
        srv.should_exit = True
        await task


def test_non_loopback_bind_needs_a_token():
    from wander.faces.api.security import check_bind

    check_bind("127.0.0.1", None)
    check_bind("::1", None)
    with pytest.raises(SystemExit, match="WANDER_API_TOKEN"):
        check_bind("0.0.0.0", None)
    check_bind("0.0.0.0", "token")
