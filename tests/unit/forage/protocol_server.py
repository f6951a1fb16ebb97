"""A local HTTP server (127.0.0.1 only) that a test teaches a protocol: routes from a path to a
function of the request giving (status, headers, body). Every request is recorded."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

Answer = tuple[int, dict[str, str], bytes]


@dataclass
class Seen:
    path: str
    query: dict[str, str]
    headers: dict[str, str]


@dataclass
class ProtocolServer:
    routes: dict[str, Callable[[Seen], Answer]]
    seen: list[Seen] = field(default_factory=list)
    port: int = 0

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def paths(self) -> list[str]:
        return [s.path for s in self.seen]


def as_json(doc: Any, status: int = 200, headers: dict[str, str] | None = None) -> Answer:
    return status, {"Content-Type": "application/json; charset=utf-8", **(headers or {})}, json.dumps(doc).encode()


def as_text(text: str, ctype: str = "text/plain; charset=utf-8", status: int = 200) -> Answer:
    return status, {"Content-Type": ctype}, text.encode()


def not_found(_: Seen) -> Answer:
    return as_text("not found", status=404)


@contextmanager
def serve(routes: dict[str, Callable[[Seen], Answer]]) -> Iterator[ProtocolServer]:
    server = ProtocolServer(routes)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            parts = urlsplit(self.path)
            query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
            seen = Seen(parts.path, query, {k.lower(): v for k, v in self.headers.items()})
            server.seen.append(seen)
            status, headers, body = server.routes.get(parts.path, not_found)(seen)
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextmanager
def silent_server() -> Iterator[tuple[int, list[socket.socket]]]:
    """A TCP server on loopback that accepts every connection and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(conn)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1], held
    finally:
        stop.set()
        thread.join(timeout=2)
        for c in held:
            c.close()
        listener.close()
