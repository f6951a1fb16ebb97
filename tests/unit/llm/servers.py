"""Local HTTP servers that speak the Ollama and Anthropic protocols, for the real SDK
clients to talk to in tests: the endpoints the clients call, the real response shapes
(usage included) and the real error shapes, scriptable per request.

A server answers each request with the next scripted Reply for its path if there is one,
else with its default (a well-formed answer made from the prompt it was sent). Every
request is recorded (path, headers, JSON body) so tests can assert on what was sent."""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

from .answers import default_text

# ---- the server --------------------------------------------------------------------------------


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # dict (sent as JSON), bytes/str (sent raw), or None for the default
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering (past the client's timeout = a timeout)
    text: str | None = None  # model text for a 200: wrapped in the provider's response shape


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


class FakeServer:
    """A ThreadingHTTPServer on 127.0.0.1 with a free port, in a daemon thread."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.responses: list[tuple[str, int, Any]] = []  # (path, status, body) as sent
        self.scripts: dict[str, deque[Reply | Callable[[Recorded], Reply]]] = {}
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # else headers and body wait on delayed ACKs (40 ms a call)

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _handle(self) -> None:
                n = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(n) if n else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                path = self.path.split("?")[0]
                rec = Recorded(self.command, path, {k.lower(): v for k, v in self.headers.items()}, body)
                with owner.lock:
                    owner.requests.append(rec)
                    queue = owner.scripts.get(path)
                    scripted = queue.popleft() if queue else None
                reply = scripted(rec) if callable(scripted) else scripted
                reply = owner.respond(rec, reply)
                with owner.lock:
                    owner.responses.append((path, reply.status, reply.body))
                if reply.delay:
                    time.sleep(reply.delay)
                payload = reply.body
                if isinstance(payload, (dict, list)):
                    data = json.dumps(payload).encode()
                    ctype = "application/json"
                else:
                    data = (payload or b"") if isinstance(payload, bytes) else str(payload or "").encode()
                    ctype = "text/plain"
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", ctype)
                    self.send_header("content-length", str(len(data)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout): that is the point of a slow reply

            do_GET = do_POST = do_DELETE = _handle

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    def push(self, path: str, *replies: Reply | Callable[[Recorded], Reply]) -> None:
        with self.lock:
            self.scripts.setdefault(path, deque()).extend(replies)

    def calls(self, path: str) -> list[Recorded]:
        with self.lock:
            return [r for r in self.requests if r.path == path]

    def respond(self, rec: Recorded, reply: Reply | None) -> Reply:
        raise NotImplementedError

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> FakeServer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def fake_embedding(text: str, dim: int) -> list[float]:
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    v = np.random.default_rng(seed).standard_normal(dim)
    return [float(x) * 3.0 for x in v]  # deliberately not unit length: the embedder normalises


class OllamaServer(FakeServer):
    """POST /api/chat, POST /api/embed, GET /api/tags, as Ollama answers them."""

    def __init__(self, models: tuple[str, ...] = ("llama3.2:3b", "nomic-embed-text:latest"), embed_dim: int = 768):
        self.models = list(models)
        self.embed_dim = embed_dim
        super().__init__()

    @staticmethod
    def prompt_of(rec: Recorded) -> str:
        msgs = (rec.body or {}).get("messages") or []
        return "\n".join(m.get("content", "") for m in msgs if m.get("role") == "user")

    def chat_body(self, rec: Recorded, text: str) -> dict[str, Any]:
        model = (rec.body or {}).get("model", "?")
        prompt = self.prompt_of(rec)
        return {
            "model": model,
            "created_at": "2026-01-02T10:00:00.000000Z",
            "message": {"role": "assistant", "content": text},
            "done": True,
            "done_reason": "stop",
            "total_duration": 1_200_000_000,
            "load_duration": 20_000_000,
            "prompt_eval_count": max(1, len(prompt) // 4),
            "prompt_eval_duration": 300_000_000,
            "eval_count": max(1, len(text) // 4),
            "eval_duration": 800_000_000,
        }

    def respond(self, rec: Recorded, reply: Reply | None) -> Reply:
        if reply is not None and (reply.status != 200 or reply.body is not None):
            return reply
        delay = reply.delay if reply else 0.0
        if rec.path == "/api/chat":
            model = (rec.body or {}).get("model")
            if model not in self.models and f"{model}:latest" not in self.models:
                return Reply(404, {"error": f'model "{model}" not found, try pulling it first'})
            text = reply.text if reply and reply.text is not None else default_text(self.prompt_of(rec))
            return Reply(200, self.chat_body(rec, text), delay=delay)
        if rec.path == "/api/embed":
            body = rec.body or {}
            model = body.get("model")
            if model not in self.models and f"{model}:latest" not in self.models:
                return Reply(404, {"error": f'model "{model}" not found, try pulling it first'})
            inputs = body.get("input")
            inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
            dim = int(body.get("dimensions") or self.embed_dim)
            return Reply(
                200,
                {
                    "model": body.get("model"),
                    "embeddings": [fake_embedding(t, dim) for t in inputs],
                    "total_duration": 1000,
                    "load_duration": 10,
                    "prompt_eval_count": len(inputs),
                },
                delay=delay,
            )
        if rec.path == "/api/tags":
            return Reply(
                200,
                {
                    "models": [
                        {
                            "name": m,
                            "model": m,
                            "modified_at": "2026-01-01T00:00:00Z",
                            "size": 2019393189,
                            "digest": "a80c4f17acd5" * 4,
                            "details": {
                                "parent_model": "",
                                "format": "gguf",
                                "family": "llama",
                                "families": ["llama"],
                                "parameter_size": "3.2B",
                                "quantization_level": "Q4_K_M",
                            },
                        }
                        for m in self.models
                    ]
                },
                delay=delay,
            )
        return Reply(404, "404 page not found")


def ollama_error(status: int, message: str = "") -> Reply:
    return Reply(
        status,
        {
            "error": message
            or {429: "too many requests", 500: "llama runner process has terminated", 503: "server busy"}.get(
                status, "error"
            )
        },
    )


ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
    503: "api_error",
}


def anthropic_error(status: int, message: str = "", retry_after: float | None = None) -> Reply:
    kind = ANTHROPIC_ERROR_TYPES.get(status, "api_error")
    headers = {"request-id": f"req_{status}test", "x-should-retry": "true" if status in (429, 500, 529) else "false"}
    if retry_after is not None:
        headers["retry-after"] = f"{retry_after:g}"
    return Reply(
        status,
        {
            "type": "error",
            "error": {"type": kind, "message": message or kind.replace("_", " ")},
            "request_id": headers["request-id"],
        },
        headers=headers,
    )


class AnthropicServer(FakeServer):
    """POST /v1/messages and GET /v1/models/{id}, as the Anthropic API answers them."""

    def __init__(
        self,
        api_key: str = "sk-ant-test-key-0000000000000000",
        models: tuple[str, ...] = ("claude-sonnet-4-6", "claude-opus-4-6"),
    ):
        self.api_key = api_key
        self.models = list(models)
        self.counter = 0
        super().__init__()

    @staticmethod
    def prompt_of(rec: Recorded) -> str:
        msgs = (rec.body or {}).get("messages") or []
        out = []
        for m in msgs:
            if m.get("role") != "user":
                continue
            c = m.get("content")
            out.append(c if isinstance(c, str) else " ".join(b.get("text", "") for b in c or []))
        return "\n".join(out)

    def message_body(self, rec: Recorded, text: str) -> dict[str, Any]:
        body = rec.body or {}
        prompt = self.prompt_of(rec) + str(body.get("system") or "")
        self.counter += 1
        out_tokens = min(int(body.get("max_tokens") or 800), max(1, len(text) // 4))
        return {
            "id": f"msg_01Test{self.counter:06d}",
            "type": "message",
            "role": "assistant",
            "model": f"{body.get('model')}-20250929",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn" if out_tokens < int(body.get("max_tokens") or 800) else "max_tokens",
            "stop_sequence": None,
            "usage": {
                "input_tokens": max(1, len(prompt) // 4),
                "output_tokens": out_tokens,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
                "service_tier": "standard",
            },
        }

    def respond(self, rec: Recorded, reply: Reply | None) -> Reply:
        auth = rec.headers.get("authorization", "")
        key = rec.headers.get("x-api-key") or (auth[7:] if auth.lower().startswith("bearer ") else None)
        if key != self.api_key:
            return anthropic_error(401, "invalid x-api-key")
        if reply is not None and (reply.status != 200 or reply.body is not None):
            return reply
        delay = reply.delay if reply else 0.0
        if rec.path == "/v1/messages":
            model = (rec.body or {}).get("model")
            if model not in self.models:
                return anthropic_error(404, f"model: {model}")
            text = reply.text if reply and reply.text is not None else default_text(self.prompt_of(rec))
            return Reply(200, self.message_body(rec, text), headers={"request-id": "req_ok"}, delay=delay)
        m = re.fullmatch(r"/v1/models/(.+)", rec.path)
        if m:
            if m.group(1) not in self.models:
                return anthropic_error(404, f"model: {m.group(1)}")
            return Reply(
                200,
                {
                    "type": "model",
                    "id": m.group(1),
                    "display_name": m.group(1).replace("-", " ").title(),
                    "created_at": "2025-09-29T00:00:00Z",
                    "lifecycle": "active",
                },
            )
        return anthropic_error(404, "not found")
