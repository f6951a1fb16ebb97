"""Rumination with a model (003): the continuation prompt, reply parsing, the
hallucination guard; and the model proposer's cleaned concept names."""

from __future__ import annotations

import json

from wander.adapters.llm.anthropic import AnthropicChat
from wander.adapters.llm.ollama import OllamaChat
from wander.adapters.llm.proposer import ChainProposer, ModelProposer, clean_concepts
from wander.adapters.llm.rumination import ModelRumination, build_continuation_prompt, parse_rumination_reply
from wander.core.domain.views import EvidenceItem
from wander.core.engine.ports import RuminationTurn

from .answers import rumination_answer
from .servers import Reply

EVIDENCE = [
    EvidenceItem("res-0001-aa", "residue", "disclosure as a priced good", 0.62),
    EvidenceItem("loc-0002-bb", "locus", "lighthouse keeper (person, artifact)", 0.48),
    EvidenceItem("rsn-0003-cc", "resonance", "signalling, trust (4 occurrences)", 0.31),
]


def _turn(step: int = 2, evidence=EVIDENCE, coverage: float = 0.375) -> RuminationTurn:
    return RuminationTurn(
        step=step,
        lens="failed paths",
        gap="You have loci and residues but no failed paths.",
        evidence=list(evidence),
        findings_so_far=["residues: disclosure keeps coming back"],
        coverage=coverage,
    )


def test_continuation_prompt_follows_003():
    p = build_continuation_prompt("disclosure as a market", _turn(), "I keep circling trust.")
    assert p.startswith("[DREAMER CONTINUATION]")
    for text in (
        '"disclosure as a market"',
        "So far you've explored:\n- residues: disclosure keeps coming back",
        "Your current internal state:\nI keep circling trust.",
        "38% of the lenses explored (step 2)",
        "The lens being followed now: failed paths",
        "There's tension here. You have loci and residues",
        "- [res-0001-aa] (residue, cos 0.62) disclosure as a priced good",
        "## Signal",
        "[CRYSTALLIZE] if stabilized",
    ):
        assert text in p, text


def test_empty_evidence_is_data_not_an_invitation_to_invent():
    p = build_continuation_prompt("x", _turn(evidence=[]))
    assert "returned no evidence" in p and "Do not invent it" in p


def test_reply_parsed_and_hallucinated_ids_dropped():
    text = rumination_answer(build_continuation_prompt("x", _turn()), extra_ids=("loc-999-fake", "res-4242-zz"))
    reply = parse_rumination_reply(text, [e.id for e in EVIDENCE])
    assert reply.signal == "CONTINUE" and reply.insight is None
    assert reply.cited_ids == ["res-0001-aa", "loc-0002-bb"]
    assert reply.dropped_citations == 2 and reply.dropped_ids == ["loc-999-fake", "res-4242-zz"]
    assert "disclosure [res-0001-aa]" in reply.finding
    assert "[guard] 2 cited id(s) were not in this step's evidence" in reply.monologue
    assert reply.gap_update.startswith("Failed paths")


def test_inline_citation_outside_the_evidence_is_removed_from_the_text():
    text = (
        "## Finding\nTrust pulls [res-0001-aa] and so does [loc-7777-xx] [sic].\n## Cited\nres-0001-aa\n"
        "## Internal Monologue\nhm\n## Signal\n[CONTINUE]"
    )
    reply = parse_rumination_reply(text, {"res-0001-aa"})
    assert reply.cited_ids == ["res-0001-aa"] and reply.dropped_ids == ["loc-7777-xx"]
    assert "[loc-7777-xx]" not in reply.finding and "[unsupported citation removed]" in reply.finding
    assert "[sic]" in reply.finding  # not an id


def test_crystallize_with_and_without_insight():
    ids = [e.id for e in EVIDENCE]
    with_insight = parse_rumination_reply(rumination_answer(crystallize=True, extra_ids=()), ids)
    assert with_insight.signal == "CRYSTALLIZE"
    assert with_insight.insight == "Disclosure is a priced good: markets form where it is scarce."
    bare = parse_rumination_reply("**Finding:** the picture has settled.\n**Signal:** [CRYSTALLIZE]", ids)
    assert bare.signal == "CRYSTALLIZE" and bare.insight == "the picture has settled."
    assert parse_rumination_reply("Signal: CRYSTALLISE\nFinding: done", ids).signal == "CRYSTALLIZE"


def test_no_signal_means_continue_and_json_replies_are_read():
    ids = [e.id for e in EVIDENCE]
    assert parse_rumination_reply("I found nothing at all.", ids).signal == "CONTINUE"
    assert parse_rumination_reply("", ids).finding == ""
    reply = parse_rumination_reply(
        json.dumps(
            {
                "finding": "f [rsn-0003-cc]",
                "monologue": "m",
                "cited_ids": ["rsn-0003-cc", "bogus-id-1"],
                "signal": "[CRYSTALLIZE]",
                "insight": "write to a@b.com",
            }
        ),
        ids,
    )
    assert reply.signal == "CRYSTALLIZE" and reply.cited_ids == ["rsn-0003-cc"] and reply.dropped_citations == 1
    assert reply.insight == "write to [email]"


async def test_model_rumination_uses_the_heavy_model_and_carries_the_monologue(anthropic_server, retry):
    chat = AnthropicChat(anthropic_server.api_key, base_url=anthropic_server.url)
    model = ModelRumination(chat, retry=retry)
    first = await model.ruminate("disclosure as a market", _turn(step=1))
    assert first.model_used == "claude-opus-4-6" and first.route == "cloud" and first.cost_cents >= 1
    assert first.dropped_citations == 1 and first.cited_ids == ["res-0001-aa", "loc-0002-bb"]
    assert first.raw_output is not None and not first.failed
    second = await model.ruminate("disclosure as a market", _turn(step=2))
    calls = anthropic_server.calls("/v1/messages")
    assert [c.body["model"] for c in calls] == ["claude-opus-4-6"] * 2
    assert "Rumination Process" in calls[0].body["system"]
    assert "There is a pull toward trust here" in calls[1].body["messages"][0]["content"]
    assert model.usage.calls == 2 and model.usage.cost_cents == first.cost_cents + second.cost_cents


async def test_model_rumination_failures_come_back_as_replies(anthropic_server, retry):
    model = ModelRumination(AnthropicChat(anthropic_server.api_key, base_url=anthropic_server.url), retry=retry)
    refused = await model.ruminate("x", _turn(), budget_cents=0)
    assert refused.failed and "not asked" in refused.monologue and anthropic_server.calls("/v1/messages") == []
    anthropic_server.push("/v1/messages", Reply(text=""), Reply(text=""))
    empty = await model.ruminate("x", _turn())
    assert empty.failed and empty.signal == "CONTINUE" and "empty" in empty.monologue
    down = ModelRumination(OllamaChat("http://127.0.0.1:9"), retry=retry)
    r = await down.ruminate("x", _turn())
    assert r.failed and "unavailable" in r.monologue and r.model_used == "llama3.2:3b"


# ---- proposer -------------------------------------------------------------------------------------


def test_clean_concepts():
    raw = [
        "1. price signal",
        "- Credential",
        "warranty (a promise)",
        "Price signal",
        "a very long sentence that is not a concept name at all",
        "",
        42,
        {"concept": "escrow"},
        "**audit**.",
        "ops@example.com",
        "market",
        "moral hazard - when insured",
    ]
    assert clean_concepts(raw, exclude=("Market",), n=10) == [
        "price signal",
        "Credential",
        "warranty",
        "escrow",
        "audit",
        "moral hazard",
    ]
    assert clean_concepts("not a list") == []


async def test_proposer_asks_and_cleans(ollama_server, retry):
    p = ModelProposer(OllamaChat(ollama_server.url), retry=retry)
    assert await p.propose_analogies("market", "price", "information asymmetry", n=3) == [
        "price signal",
        "credential",
        "warranty",
    ]
    assert await p.propose_tensions("secrecy") == ["transparency", "disclosure mandates", "open books"]
    bodies = [c.body for c in ollama_server.calls("/api/chat")]
    assert '"market" is to "price" as "information asymmetry" is to ?' in bodies[0]["messages"][-1]["content"]
    assert "Give 3 different answers" in bodies[0]["messages"][-1]["content"]
    assert "productive tension" in bodies[1]["messages"][-1]["content"] and bodies[1]["model"] == "llama3.2:3b"
    assert p.usage.calls == 2 and p.usage.take().tokens > 0 and p.usage.calls == 0


async def test_proposer_repairs_retries_and_never_raises(ollama_server, anthropic_server, retry):
    p = ModelProposer(OllamaChat(ollama_server.url), retry=retry)
    ollama_server.push("/api/chat", Reply(text="Here you go:\n```json\n['escrow', 'audit',]\n```"))
    assert await p.propose_tensions("trust") == ["escrow", "audit"]
    ollama_server.push("/api/chat", Reply(text="I cannot think of any."), Reply(text='["verification"]'))
    assert await p.propose_tensions("trust") == ["verification"]
    assert "could not be used" in ollama_server.calls("/api/chat")[-1].body["messages"][-1]["content"]
    down = ModelProposer(OllamaChat("http://127.0.0.1:9"), retry=retry)
    assert await down.propose_tensions("trust") == [] and "nothing answers" in down.last_error
    cloud = ModelProposer(AnthropicChat(anthropic_server.api_key, base_url=anthropic_server.url), retry=retry)
    assert await cloud.propose_tensions("trust", budget_cents=0) == [] and cloud.last_error == "over budget"
    assert await ChainProposer([down, cloud]).propose_tensions("trust") == [
        "transparency",
        "disclosure mandates",
        "open books",
    ]
    assert cloud.usage.cost_cents >= 1 and cloud.usage.route == "cloud"
    spent = ChainProposer([down, cloud]).take_usage()
    assert [u.route for u in spent] == ["local", "cloud"] and spent[1].cost_cents >= 1 and cloud.usage.cost_cents == 0
