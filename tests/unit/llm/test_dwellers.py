"""OllamaDweller and AnthropicDweller through the official clients against local servers:
what they send, what they make of the answers, and how they take errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from wander.adapters.embed.ollama import EmbeddingUnavailable, OllamaEmbedder
from wander.adapters.llm.anthropic import AnthropicDweller
from wander.adapters.llm.base import ModelUnavailable, RetryPolicy
from wander.adapters.llm.dwelling_answer import DWELLING_JSON_SCHEMA
from wander.adapters.llm.ollama import OllamaDweller
from wander.adapters.llm.pricing import PriceTable, parse_prices

from .answers import dwelling, in_prose, truncated, wrong_types
from .conftest import UnitEmbedder, make_request
from .servers import Reply, anthropic_error, ollama_error


def _anthropic(server, retry, **kw) -> AnthropicDweller:
    return AnthropicDweller(server.api_key, base_url=server.url, retry=retry, **kw)


async def test_ollama_request_carries_model_loci_themes_and_resonances(ollama_server, retry):
    d = OllamaDweller(ollama_server.url, "llama3.2:3b", retry=retry, embedder=UnitEmbedder())
    r = await d.dwell(
        make_request(themes=["signalling", "trust", "maritime safety"], resonances=["hidden knowledge, disclosure"])
    )
    (call,) = ollama_server.calls("/api/chat")
    body = call.body
    assert body["model"] == "llama3.2:3b" and body["format"] == DWELLING_JSON_SCHEMA and body["stream"] is False
    assert body["options"]["num_predict"] == 800
    prompt = body["messages"][-1]["content"]
    assert body["messages"][0]["role"] == "system"
    for text in (
        "CURRENT LOCUS:\ninformation asymmetry",
        "ENCOUNTERED LOCUS:\nlighthouse keeper",
        "Domains: economics, cognition",
        "Abstraction level: 0.80",
        "Abstraction level: 0.20",
        "signalling, trust, maritime safety",
        "- hidden knowledge, disclosure",
        "Respond in JSON format",
    ):
        assert text in prompt, text
    assert not r.failed and r.route == "local" and r.model_used == "llama3.2:3b" and r.cost_cents == 0
    _, status, sent = ollama_server.responses[-1]
    assert status == 200 and r.tokens_used == sent["prompt_eval_count"] + sent["eval_count"] > 0
    assert "lighthouse keeper" in r.connection and r.themes[:3] == ["signalling", "disclosure", "trust"]
    assert r.themes_embedding is not None and r.themes_embedding.shape == (384,)
    assert r.details["repairs"] == [] and r.raw_output is None


async def test_anthropic_request_usage_and_cost(anthropic_server, retry):
    d = _anthropic(anthropic_server, retry)
    r = await d.dwell(make_request(bridge=0.9))
    (call,) = anthropic_server.calls("/v1/messages")
    body = call.body
    assert body["model"] == "claude-sonnet-4-6" and body["max_tokens"] == 800 and "JSON" in body["system"]
    assert body["tool_choice"] == {"type": "tool", "name": "answer"}  # structured output: forced tool use
    assert body["tools"][0]["input_schema"] == DWELLING_JSON_SCHEMA
    prompt = body["messages"][0]["content"]
    assert "information asymmetry" in prompt and "lighthouse keeper" in prompt
    assert "signalling, trust, maritime safety" in prompt and "hidden knowledge, disclosure" in prompt
    assert r.route == "cloud" and r.model_used == "claude-sonnet-4-6" and not r.failed
    assert r.details["served_model"] == "claude-sonnet-4-6-20250929"
    inp, out = r.details["input_tokens"], r.details["output_tokens"]
    usage = anthropic_server.responses[-1][2]["usage"]
    assert (inp, out) == (usage["input_tokens"], usage["output_tokens"]) and inp + out == r.tokens_used
    assert r.cost_cents == math.ceil((inp * 3 + out * 15) / 1_000_000 * 100) == 1
    assert r.cost_cents <= d.estimate_cents(make_request())


async def test_anthropic_tool_use_answer_is_the_dwelling(anthropic_server, retry):
    answer = dwelling("CURRENT LOCUS:\ninformation asymmetry\nENCOUNTERED LOCUS:\nlighthouse keeper\n")
    anthropic_server.push(
        "/v1/messages",
        Reply(
            200,
            {
                "id": "msg_01Tool",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-6",
                "content": [{"type": "tool_use", "id": "toolu_01", "name": "answer", "input": answer}],
                "stop_reason": "tool_use",
                "stop_sequence": None,
                "usage": {
                    "input_tokens": 900,
                    "output_tokens": 200,
                    "cache_creation_input_tokens": 0,
                    "cache_read_input_tokens": 0,
                },
            },
        ),
    )
    r = await _anthropic(anthropic_server, retry).dwell(make_request())
    assert not r.failed and r.details["repairs"] == [] and r.connection == answer["connection"]
    assert r.themes == answer["themes"] and r.interestingness == 0.72 and r.tokens_used == 1100


@pytest.mark.parametrize(
    "answer, repair",
    [
        (in_prose, "code fence"),
        (wrong_types, "themes split from text"),
        (lambda p: truncated(p, 0.8), "truncated JSON closed"),
    ],
)
async def test_prose_wrong_types_and_truncation_are_repaired(ollama_server, retry, answer, repair):
    ollama_server.push("/api/chat", Reply(text=answer("CURRENT LOCUS:\nx\nENCOUNTERED LOCUS:\ny\n")))
    r = await OllamaDweller(ollama_server.url, retry=retry).dwell(make_request())
    assert not r.failed and repair in r.details["repairs"]
    assert r.raw_output is not None  # a repaired answer keeps its raw text
    assert len(ollama_server.calls("/api/chat")) == 1


async def test_unusable_answer_is_retried_once_with_the_reason(ollama_server, retry):
    ollama_server.push("/api/chat", Reply(text="I'd rather not reflect on this."))
    r = await OllamaDweller(ollama_server.url, retry=retry).dwell(make_request())
    calls = ollama_server.calls("/api/chat")
    assert len(calls) == 2 and not r.failed and r.details["retried"]
    retry_msgs = calls[1].body["messages"]
    assert retry_msgs[-2] == {"role": "assistant", "content": "I'd rather not reflect on this."}
    assert "could not be used: no JSON object in the answer" in retry_msgs[-1]["content"]
    assert r.tokens_used > 0 and r.details["attempts"] == 2


async def test_twice_unusable_is_a_failed_dwell_with_raw_output(anthropic_server, retry):
    anthropic_server.push("/v1/messages", Reply(text="no."), Reply(text='{"connection": "only this"}'))
    r = await _anthropic(anthropic_server, retry).dwell(make_request())
    assert r.failed and r.route == "cloud" and r.cost_cents >= 2  # both calls were paid for
    assert "after a retry" in r.connection and "answer 2" in r.raw_output and "only this" in r.raw_output
    assert r.themes == [] and r.interestingness == 0.5


async def test_ollama_429_and_500_retried_with_backoff(ollama_server, retry, sleeps):
    ollama_server.push("/api/chat", ollama_error(429), ollama_error(500))
    r = await OllamaDweller(ollama_server.url, retry=retry).dwell(make_request())
    assert not r.failed and len(ollama_server.calls("/api/chat")) == 3
    assert sleeps.delays == [0.5, 1.0]


async def test_anthropic_429_honours_retry_after(anthropic_server, retry, sleeps):
    anthropic_server.push("/v1/messages", anthropic_error(429, retry_after=7), anthropic_error(529))
    r = await _anthropic(anthropic_server, retry).dwell(make_request())
    assert not r.failed and sleeps.delays == [7.0, 1.0]


async def test_past_the_retry_limit_try_dwell_raises_and_dwell_does_not(anthropic_server, retry, sleeps):
    d = _anthropic(anthropic_server, retry)
    anthropic_server.push("/v1/messages", *[anthropic_error(500)] * 3)
    with pytest.raises(ModelUnavailable, match="gave up after 3 attempts"):
        await d.try_dwell(make_request())
    anthropic_server.push("/v1/messages", *[anthropic_error(429, retry_after=1)] * 3)
    r = await d.dwell(make_request())
    assert r.failed and "unavailable" in r.connection and r.cost_cents == 0
    assert len(anthropic_server.calls("/v1/messages")) == 6


async def test_a_retry_after_too_long_is_not_waited_for(anthropic_server, retry, sleeps):
    anthropic_server.push("/v1/messages", anthropic_error(429, retry_after=3600))
    with pytest.raises(ModelUnavailable, match="too long to wait"):
        await _anthropic(anthropic_server, retry).try_dwell(make_request())
    assert sleeps.delays == []


async def test_timeouts_are_retried_then_give_up(ollama_server, sleeps):
    retry = RetryPolicy(retries=1, base_delay=0.01, jitter=0.0, sleep=sleeps)
    ollama_server.push("/api/chat", Reply(delay=1.0), Reply(delay=1.0))
    d = OllamaDweller(ollama_server.url, timeout=0.2, retry=retry)
    with pytest.raises(ModelUnavailable, match="did not answer within 0.2s"):
        await d.try_dwell(make_request())
    assert len(sleeps.delays) == 1


async def test_permanent_errors_are_not_retried(ollama_server, anthropic_server, retry, sleeps):
    with pytest.raises(ModelUnavailable, match=r"ollama pull qwen2.5:7b"):
        await OllamaDweller(ollama_server.url, "qwen2.5:7b", retry=retry).try_dwell(make_request())
    bad_key = AnthropicDweller("sk-ant-wrong", base_url=anthropic_server.url, retry=retry)
    with pytest.raises(ModelUnavailable, match="refused the key"):
        await bad_key.try_dwell(make_request())
    with pytest.raises(ModelUnavailable, match="nothing answers"):
        await OllamaDweller("http://127.0.0.1:9", retry=retry).try_dwell(make_request())
    assert sleeps.delays == []


def test_prices_and_overrides():
    t = PriceTable()
    assert t.cents("claude-sonnet-4-6", 1_000_000, 0) == 300
    assert t.cents("claude-sonnet-4-6-20260101", 1000, 1000) == 2  # 0.3 + 1.5 = 1.8 -> 2
    assert t.cents("claude-opus-4-6", 1, 1) == 1  # any use costs at least a cent
    assert t.cents("claude-sonnet-4-6", 0, 0) == 0
    assert t.cents("claude-unknown-9", 1_000_000, 0) == 1500  # priced high when unknown
    t = PriceTable.from_json('{"claude-unknown-9": {"input": 1, "output": 2}, "x": [0.5, 1]}')
    assert t.cents("claude-unknown-9", 1_000_000, 1_000_000) == 300 and t.cents("x-1", 2_000_000, 0) == 100
    for bad in ("{", "[1]", '{"m": {"input": 1}}', '{"m": [-1, 2]}'):
        with pytest.raises(Exception, match="WANDER_PRICES"):
            parse_prices(bad)


def test_ollama_embedder(ollama_server):
    e = OllamaEmbedder(ollama_server.url, "nomic-embed-text", batch_size=64)
    assert e.dim == 768 and e.name == "ollama:nomic-embed-text"
    seen = []
    out = e.embed([f"concept {i}" for i in range(130)], progress=seen.append)
    assert out.shape == (130, 768) and out.dtype == np.float32 and seen == [64, 64, 2]
    assert np.allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-5)
    assert np.allclose(e.embed(["concept 3"])[0], out[3], atol=1e-6)
    calls = ollama_server.calls("/api/embed")
    assert calls[0].body["model"] == "nomic-embed-text" and len(calls[0].body["input"]) == 64
    assert e.embed([]).shape == (0, 768)
    small = OllamaEmbedder(ollama_server.url, "nomic-embed-text", dim=384)
    assert small.embed(["a", "b"]).shape == (2, 384) and small.dim == 384
    assert ollama_server.calls("/api/embed")[-1].body["dimensions"] == 384


def test_ollama_embedder_errors(ollama_server):
    with pytest.raises(EmbeddingUnavailable, match="ollama pull mxbai"):
        OllamaEmbedder(ollama_server.url, "mxbai-embed-large").embed(["x"])
    with pytest.raises(EmbeddingUnavailable, match="nothing answers"):
        OllamaEmbedder("http://127.0.0.1:9", "nomic-embed-text").embed(["x"])
