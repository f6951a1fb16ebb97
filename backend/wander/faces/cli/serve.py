"""`wander serve` (the API, the live WebSocket and the mind map) and `wander worker`
(runs from the NATS work queue)."""

from __future__ import annotations

import logging
import signal
import sys
import time
from typing import Optional

import typer

from wander.faces.cli.common import RichProgress, err, fail, quiet_libraries, run_async


def show_start_phases() -> None:
    """Print what a start is doing and how long each part took (wander.bootstrap.warmup.START), at any
    WANDER_LOG_LEVEL: a first start on a new machine does work worth a word."""
    started = time.monotonic()

    class Elapsed(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            return f"[{time.monotonic() - started:5.1f} s] {record.getMessage()}"

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(Elapsed())
    start = logging.getLogger("wander.start")
    start.addHandler(handler)
    start.setLevel(logging.INFO)
    start.propagate = False


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (non-loopback needs WANDER_API_TOKEN)."),
    port: int = typer.Option(8765, help="Port to listen on."),
) -> None:
    """Serve the API, the live WebSocket and the VISLZR mind map."""
    quiet_libraries()
    show_start_phases()
    import uvicorn

    from wander.bootstrap.settings import load_section
    from wander.faces.api.app import ApiSettings, create_app
    from wander.faces.api.security import check_bind

    if not 0 < port < 65536:
        fail(f"port: must be between 1 and 65535 (got {port})")
    api = ApiSettings.from_env(host=host)  # beyond loopback: rate limits (WANDER_API_RATE_LIMIT)
    check_bind(host, api.token)
    shown = f"[{host}]" if ":" in host else host
    err.print(f"Wander on http://{shown}:{port}/  (API docs at /schema; Ctrl+C to stop)", highlight=False)
    # uvicorn re-raises the signal that stopped it; for SIGTERM the default action would kill
    # the process before the embedded Postgres is stopped at exit, so exit cleanly instead.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    # ws_max_size: a client's oversized WebSocket message is refused (1009) before it is buffered whole.
    uvicorn.run(
        create_app(api=api, progress=RichProgress()),
        host=host,
        port=port,
        log_level="warning",
        ws_ping_interval=20,
        ws_max_size=load_section("api").ws_max_message,
    )


def worker(
    concurrency: Optional[int] = typer.Option(None, help="Runs at a time (default WANDER_WORKER_CONCURRENCY or 1)."),
    worker_id: Optional[str] = typer.Option(None, "--id", help="Recorded on every step (default host-pid-random)."),
) -> None:
    """Run wanders from the NATS JetStream work queue (needs WANDER_NATS_URL); start as many as you like."""
    quiet_libraries()
    from dataclasses import replace

    from wander.bootstrap.settings import load_section
    from wander.bootstrap.worker import WorkerSettings, run_worker

    if load_section("nats").url is None:
        fail("WANDER_NATS_URL: not set (the NATS server to pull runs from, e.g. nats://127.0.0.1:4222)")
    ws = WorkerSettings.from_section(load_section("worker"))
    if concurrency is not None:
        if concurrency < 1:
            fail(f"concurrency: must be at least 1 (got {concurrency})")
        ws = replace(ws, concurrency=concurrency)
    if worker_id:
        ws = replace(ws, worker_id=worker_id)

    def ready(w) -> None:
        err.print(f"worker {ws.worker_id} ready (concurrency {ws.concurrency})", highlight=False)

    done = run_async(lambda: run_worker(worker=ws, ready=ready))
    err.print(f"worker {ws.worker_id} stopped after {done} runs", highlight=False)
