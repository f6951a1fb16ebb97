"""Crystals in the Wheeler memory, POST /api/v1/wander/recall, and the Open WebUI pipeline
(docker/openwebui/wander_pipeline.py) run against a live `wander serve` in this test."""

from __future__ import annotations

import importlib.util
import json
import logging
import threading
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import ClassVar

import pytest

from shared_schemas.events import Subject
from tests.api.conftest import API, create, free_port, wait_idle
from tests.conftest import REPO
from wander.core.domain.models import Event

RECALL = "/api/v1/wander/recall"
CRYSTAL_FORMED = str(Subject.CRYSTAL_FORMED)
INSIGHTS = [
    "trust is the bridge that lets markets work despite information asymmetry",
    "a river delta spreads sediment the way a branching network spreads load",
    "price signals reveal hidden quality to buyers who cannot inspect the goods",
]


def load_pipeline_module():
    spec = importlib.util.spec_from_file_location("wander_pipeline", REPO / "docker/openwebui/wander_pipeline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def form_crystals(app, texts):
    """What the crystallizer publishes when a crystal forms, on the app's real bus."""
    now = datetime.now(UTC)
    await app.bus.publish(
        [
            Event(
                "00000000-0000-0000-0000-000000000001",
                i + 1,
                CRYSTAL_FORMED,
                now,
                {"crystal": {"id": f"c{i}", "insight": t}},
            )
            for i, t in enumerate(texts)
        ]
    )


async def test_crystals_formed_by_a_wander_are_in_the_wheeler_memory(app, client):
    s = await create(client, seed_concept="information asymmetry", attractor="economic opportunity", max_steps=40)
    r = await client.post(f"{API}/{s['id']}/wander", json={"n_steps": 40})
    assert r.status_code == 202
    await wait_idle(client, s["id"], timeout=600)
    crystals = (await client.get(f"{API}/{s['id']}/crystals")).json()
    formed = {c["insight"] for c in crystals if c["status"] != "invalidated"}
    assert formed, "40 steps from this seed form at least one crystal"
    stored = {e.text for e in app.crystal_memory.memory.entries()}
    assert formed <= stored


async def test_recall_endpoint_warms_and_caps(app, client):
    await form_crystals(app, INSIGHTS)
    body = {
        "query": "why do buyers trust markets they cannot inspect",
        "top_k": 2,
        "alpha": 0.3,
        "min_similarity": -1.0,
    }
    first = (await client.post(RECALL, json=body)).json()
    assert len(first["hits"]) == 2 and first["hits"][0]["text"] in (INSIGHTS[0], INSIGHTS[2])
    assert first["context"].startswith("[Wander Memory") and first["hits"][0]["text"] in first["context"]
    second = (await client.post(RECALL, json=body)).json()
    assert second["hits"][0]["id"] == first["hits"][0]["id"]
    assert second["hits"][0]["temperature"] > first["hits"][0]["temperature"]  # recall warms it
    assert second["hits"][0]["hits"] == first["hits"][0]["hits"] + 1
    # the caps: top_k, min_similarity, max_context_length
    capped = (await client.post(RECALL, json=body | {"top_k": 3, "max_context_length": 150})).json()
    assert len(capped["context"]) <= 150 + 10 and capped["context"].count('"') <= 2
    none = (await client.post(RECALL, json=body | {"min_similarity": 0.99})).json()
    assert none["hits"] == [] and none["context"] == ""


@pytest.mark.parametrize(
    "field, value", [("query", ""), ("top_k", 0), ("alpha", 1.5), ("min_similarity", 2), ("max_context_length", 5)]
)
async def test_recall_bad_input_names_the_field(client, field, value):
    body = {"query": "trust"} | {field: value}
    r = await client.post(RECALL, json=body)
    assert r.status_code in (400, 422) and field in r.text


async def test_pipeline_injects_context_from_live_wander(app, server, caplog):
    await form_crystals(app, INSIGHTS)
    pipeline = load_pipeline_module().Pipeline()
    pipeline.valves = pipeline.Valves(
        wander_url=f"http://{server}", top_k=2, min_similarity=-1.0, max_context_length=2000
    )
    body = {
        "model": "m",
        "messages": [
            {"role": "system", "content": "You are helpful."},
            {"role": "user", "content": "why do buyers trust a market?"},
        ],
    }
    out = await pipeline.inlet(body, user={"id": "u"})
    system = out["messages"][0]
    assert system["role"] == "system" and system["content"].startswith("[Wander Memory")
    assert system["content"].endswith("You are helpful.")
    assert sum(1 for t in INSIGHTS if t in system["content"]) == 2  # top_k
    assert out["messages"][1] == body["messages"][1] and body["messages"][0]["content"] == "You are helpful."
    # no system message: one is inserted first
    bare = await pipeline.inlet({"messages": [{"role": "user", "content": "trust and markets"}]})
    assert bare["messages"][0]["role"] == "system" and len(bare["messages"]) == 2
    # the cap on characters
    pipeline.valves = pipeline.valves.model_copy(update={"max_context_length": 150, "top_k": 3})
    small = await pipeline.inlet({"messages": [{"role": "user", "content": "trust and markets"}]})
    assert len(small["messages"][0]["content"]) <= 160


async def test_pipeline_with_wander_down_chats_on_with_one_warning(caplog):
    pipeline = load_pipeline_module().Pipeline()
    pipeline.valves = pipeline.Valves(wander_url=f"http://127.0.0.1:{free_port()}", timeout_s=2)
    body = {"messages": [{"role": "user", "content": "hello"}]}
    with caplog.at_level(logging.WARNING, logger="wander_pipeline"):
        for _ in range(3):
            assert await pipeline.inlet(body) == body
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "without context" in warnings[0].getMessage()


class _Upstream(BaseHTTPRequestHandler):
    """An OpenAI-compatible chat endpoint that answers with the system message it got."""

    seen: ClassVar[list[dict]] = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Upstream.seen.append(body)
        system = next((m["content"] for m in body["messages"] if m["role"] == "system"), "")
        data = json.dumps({"choices": [{"message": {"role": "assistant", "content": f"ok:{len(system)}"}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


async def test_pipe_forwards_with_context_and_without_when_wander_is_down(app, server):
    import asyncio

    await form_crystals(app, INSIGHTS)
    upstream = HTTPServer(("127.0.0.1", 0), _Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    try:
        pipeline = load_pipeline_module().Pipeline()
        url = f"http://127.0.0.1:{upstream.server_address[1]}/v1"
        pipeline.valves = pipeline.Valves(wander_url=f"http://{server}", upstream_url=url, min_similarity=-1.0)
        messages = [{"role": "user", "content": "why trust markets?"}]
        answer = await asyncio.to_thread(pipeline.pipe, "why trust markets?", "m", messages, {})
        assert answer.startswith("ok:") and int(answer[3:]) > 50
        assert _Upstream.seen[-1]["messages"][0]["content"].startswith("[Wander Memory")
        pipeline.valves = pipeline.valves.model_copy(update={"wander_url": f"http://127.0.0.1:{free_port()}"})
        answer = await asyncio.to_thread(pipeline.pipe, "why trust markets?", "m", messages, {})
        assert answer == "ok:0" and _Upstream.seen[-1]["messages"] == messages
    finally:
        upstream.shutdown()
