"""The WebSocket under hostile and slow clients: garbage and huge frames, a client
that never reads, many connect/disconnect cycles, and 20 clients on one wander. The server
is the real app under uvicorn over the test database; counts are asserted, never time."""

from __future__ import annotations

import asyncio
import json
import resource
import socket
from contextlib import asynccontextmanager

import httpx
import pytest
import uvicorn
import websockets
from websockets.exceptions import ConnectionClosed

from tests.api.conftest import API, create, free_port, wait_idle
from wander.bootstrap.settings import load_settings
from wander.bootstrap.wiring import open_app
from wander.faces.api.app import ApiSettings, create_app
from wander.faces.api.ws import CLOSE_TOO_BIG, CLOSE_TOO_SLOW, socket_stats


@asynccontextmanager
async def serve(db_url, tmp_path, embedder, knowledge, *, send_buffer: int | None = None, **env: str):
    """The app with WebSocket limits from `env`, served on a free port; yields (addr, app, wired).
    `send_buffer` shrinks the kernel send buffer of the accepted sockets (they inherit it
    from the listening socket), so a client that stops reading pushes back within kilobytes."""
    settings = load_settings({"WANDER_DATABASE_URL": db_url, "WANDER_HOME": str(tmp_path / "home"), **env})
    async with open_app(settings, embedder=embedder, knowledge=knowledge) as wired:
        app = create_app(api=ApiSettings(heartbeat_s=0.3, resume_interrupted=False), wired=wired)
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
        task = asyncio.create_task(server.serve())
        while not server.started:
            if task.done():
                task.result()
            await asyncio.sleep(0.02)
        if send_buffer is not None:
            for listener in server.servers:
                for sock in listener.sockets:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        try:
            yield f"127.0.0.1:{port}", app, wired
        finally:
            server.should_exit = True
            await task


def subscriptions(wired, session_id: str) -> int:
    """Handlers the bus holds for this wander (only WebSockets subscribe per wander)."""
    return sum(1 for sid, _ in wired.bus._handlers if sid == session_id)  # noqa: SLF001


def seqs(frames: list[dict]) -> list[int]:
    return [f["event"]["seq"] for f in frames if f["type"] == "event"]


async def read_until(ws, last_seq: int, timeout: float = 120) -> list[dict]:
    frames: list[dict] = []
    async with asyncio.timeout(timeout):
        while last_seq not in seqs(frames):
            frames.append(json.loads(await ws.recv()))
    return frames


async def eventually(check, what: str, timeout: float = 60) -> None:
    """Poll `check()` until true; the bound only turns a hang into a failure naming `what`."""
    for _ in range(int(timeout / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


async def test_garbage_and_binary_frames_are_ignored(db_url, tmp_path, embedder, knowledge):
    async with serve(db_url, tmp_path, embedder, knowledge) as (addr, app, _):
        async with httpx.AsyncClient(base_url=f"http://{addr}", timeout=30) as client:
            sid = (await create(client, max_steps=3))["id"]
            async with websockets.connect(f"ws://{addr}/ws/sessions/{sid}?after_seq=0") as ws:
                first = json.loads(await ws.recv())
                for junk in ("not json", "{", '{"type": "event", "seq": -1}', "\x00" * 100, "é" * 1000):
                    await ws.send(junk)
                await ws.send(b"\xff\xfe\x00 binary garbage")
                await ws.send(bytes(range(256)) * 8)
                # Still served: heartbeats keep coming and carry the last seq.
                beat = None
                async with asyncio.timeout(30):
                    while beat is None:
                        frame = json.loads(await ws.recv())
                        beat = frame if frame["type"] == "heartbeat" else None
            assert first["type"] == "event" and beat["last_seq"] == 2
            assert (await client.get(f"{API}/{sid}")).status_code == 200
        await eventually(lambda: socket_stats(app).open == 0, "the socket handler ended")


async def test_a_huge_frame_closes_with_1009_and_the_server_goes_on(db_url, tmp_path, embedder, knowledge):
    async with serve(db_url, tmp_path, embedder, knowledge, WANDER_WS_MAX_MESSAGE="4096") as (addr, app, _):
        async with httpx.AsyncClient(base_url=f"http://{addr}", timeout=30) as client:
            sid = (await create(client, max_steps=3))["id"]
            for huge in ("x" * 1_000_000, b"\x00" * 5000):
                async with websockets.connect(f"ws://{addr}/ws/sessions/{sid}", max_size=None) as ws:
                    await ws.recv()
                    await ws.send(huge)
                    with pytest.raises(ConnectionClosed) as closed:
                        while True:
                            await ws.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_TOO_BIG
            assert socket_stats(app).closed_too_big == 2
            # A message just under the limit is fine, and the server still serves.
            async with websockets.connect(f"ws://{addr}/ws/sessions/{sid}") as ws:
                await ws.send("y" * 4000)
                assert seqs(await read_until(ws, 2)) == [1, 2]
            assert (await client.get(f"{API}/{sid}")).status_code == 200


def tiny_receive_socket(addr: str) -> socket.socket:
    """A client socket with a small receive window, so a client that stops reading pushes back
    on the server after a few kilobytes instead of megabytes of kernel buffers."""
    host, port = addr.rsplit(":", 1)
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((host, int(port)))
    s.setblocking(False)
    return s


async def collector(ws, into: list[dict]) -> None:
    """Append every frame from `ws` to `into` until the socket closes or the task is cancelled."""
    try:
        while True:
            into.append(json.loads(await ws.recv()))
    except ConnectionClosed:
        pass


async def test_a_client_that_never_reads_is_dropped_without_stalling_others(db_url, tmp_path, embedder, knowledge):
    async with serve(db_url, tmp_path, embedder, knowledge, send_buffer=4096, WANDER_WS_MAX_BUFFER="8") as (
        addr,
        app,
        wired,
    ):
        async with httpx.AsyncClient(base_url=f"http://{addr}", timeout=30) as client:
            steps = 60
            sid = (await create(client, max_steps=steps, random_seed=15, human_checkpoint_frequency=0))["id"]
            stats = socket_stats(app)
            # Never reads: a tiny receive window and one message of client-side queue.
            slow = await websockets.connect(
                f"ws://{addr}/ws/sessions/{sid}?after_seq=0", sock=tiny_receive_socket(addr), max_queue=1
            )
            fast = await websockets.connect(f"ws://{addr}/ws/sessions/{sid}?after_seq=0")
            fast_frames: list[dict] = []
            reader = asyncio.create_task(collector(fast, fast_frames))
            try:
                await eventually(lambda: stats.open == 2, "both sockets open")
                assert (await client.post(f"{API}/{sid}/wander", json={"n_steps": steps})).status_code < 300
                await eventually(lambda: stats.dropped_slow == 1, "the slow client was dropped", timeout=300)
                # Dropped: its subscription is gone at once; the fast one stays.
                assert stats.subscribed == 1 and subscriptions(wired, sid) == 1
                # The slow client now reads: a gapless prefix of the events, then the close code.
                got: list[dict] = []
                with pytest.raises(ConnectionClosed) as closed:
                    async with asyncio.timeout(60):
                        while True:
                            got.append(json.loads(await slow.recv()))
                assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_TOO_SLOW
                prefix = seqs(got)
                assert prefix and prefix == list(range(1, len(prefix) + 1))
                session = await wait_idle(client, sid, timeout=600)
                last = session["last_event_seq"]
                await eventually(lambda: last in seqs(fast_frames), "the fast client got the last event")
            finally:
                reader.cancel()
                await asyncio.gather(reader, return_exceptions=True)
                await slow.close()
                await fast.close()
            # The engine was never held up: the walk ran to its end, and the reader got every
            # event in order, with no gap and no duplicate.
            print({k: session.get(k) for k in ("status", "step_count", "stop_reason", "running")})
            assert session["step_count"] == steps
            assert seqs(fast_frames) == list(range(1, last + 1))
            assert last > len(prefix)
            print(f"slow client: {len(prefix)} of {last} events before the drop")
            # Reconnecting with after_seq resumes after the drop without a gap.
            async with websockets.connect(f"ws://{addr}/ws/sessions/{sid}?after_seq={prefix[-1]}") as again:
                rest = seqs(await read_until(again, last))
            assert prefix + rest == list(range(1, last + 1))
        await eventually(lambda: stats.open == 0, "every socket handler ended")
        assert stats.subscribed == 0 and subscriptions(wired, sid) == 0  # no subscription left behind


def rss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


async def test_200_connect_disconnect_cycles_leave_nothing_behind(db_url, tmp_path, embedder, knowledge):
    async with serve(db_url, tmp_path, embedder, knowledge) as (addr, app, wired):
        async with httpx.AsyncClient(base_url=f"http://{addr}", timeout=30) as client:
            sid = (await create(client, max_steps=3))["id"]
            stats = socket_stats(app)

            async def cycle(i: int) -> None:
                ws = await websockets.connect(f"ws://{addr}/ws/sessions/{sid}?after_seq={i % 3}")
                if i % 5 == 0:
                    await ws.send("hello?")
                if i % 2 == 0:
                    await ws.recv()  # some leave at once, some after a frame
                if i % 4 == 3:
                    ws.transport.abort()  # gone without a close frame
                else:
                    await ws.close()

            await cycle(0)
            await eventually(lambda: stats.open == 0, "the warm-up socket ended")
            tasks_before = len(asyncio.all_tasks())
            handlers_before = len(wired.bus._handlers)  # noqa: SLF001
            rss_before = rss_kib()
            for i in range(200):
                await cycle(i)
            await eventually(lambda: stats.open == 0, "all 200 socket handlers ended")
            assert stats.subscribed == 0
            await eventually(lambda: len(asyncio.all_tasks()) <= tasks_before, "the task count is back to baseline")
            assert len(wired.bus._handlers) == handlers_before  # noqa: SLF001
            assert subscriptions(wired, sid) == 0
            assert stats.accepted == 201
            print(f"max RSS before {rss_before} KiB, after 200 cycles {rss_kib()} KiB")
            # Still serving, HTTP and sockets alike.
            assert (await client.get(f"{API}/{sid}")).status_code == 200
            async with websockets.connect(f"ws://{addr}/ws/sessions/{sid}?after_seq=0") as ws:
                assert seqs(await read_until(ws, 2)) == [1, 2]


async def test_20_clients_each_get_every_event_in_order(db_url, tmp_path, embedder, knowledge):
    async with serve(db_url, tmp_path, embedder, knowledge) as (addr, app, _):
        async with httpx.AsyncClient(base_url=f"http://{addr}", timeout=30) as client:
            steps = 20
            sid = (await create(client, max_steps=steps, random_seed=20))["id"]  # step_delay_ms 0
            sockets = [await websockets.connect(f"ws://{addr}/ws/sessions/{sid}?after_seq=0") for _ in range(20)]
            frames: list[list[dict]] = [[] for _ in sockets]
            readers = [asyncio.create_task(collector(ws, into)) for ws, into in zip(sockets, frames)]
            try:
                await eventually(lambda: socket_stats(app).open == 20, "20 sockets open")
                assert (await client.post(f"{API}/{sid}/wander", json={"n_steps": steps})).status_code < 300
                session = await wait_idle(client, sid, timeout=600)
                last = session["last_event_seq"]
                await eventually(lambda: all(last in seqs(f) for f in frames), "every client got the last event")
            finally:
                for r in readers:
                    r.cancel()
                await asyncio.gather(*readers, return_exceptions=True)
                for ws in sockets:
                    await ws.close()
            assert session["step_count"] == steps
            for got in frames:
                assert seqs(got) == list(range(1, last + 1))
            assert socket_stats(app).dropped_slow == 0
