"""The hallucination check of model dwellings (layer 3): a facet naming a concept absent from
the corpus and from the pair, or a relation the corpus does not hold, is flagged, and no
theme is taken from what it made up. Through the router, with the real Ollama client
against the local protocol server."""

from __future__ import annotations

import json
from dataclasses import dataclass

from wander.adapters.llm.grounding import Grounding, named_terms
from wander.adapters.llm.ollama import OllamaDweller
from wander.adapters.llm.router import RouterDweller
from wander.bootstrap.llm_factory import build_dweller
from wander.bootstrap.settings import ModelsSettings
from wander.core.domain.models import Residue

from .answers import dwelling
from .conftest import StubOffline, make_request
from .servers import Reply


@dataclass
class C:
    label: str


class FakeKnowledge:
    """A corpus of seven concepts: a dog is a kind of animal (two levels), war and peace are opposites."""

    LABELS = ["signalling", "trust", "animal", "canine", "dog", "peace", "war", "cat"]
    BROADER = {4: [3], 3: [2], 7: [2]}
    OPPOSITES = {5: [6], 6: [5]}

    def find_label(self, text: str) -> int | None:
        return self.LABELS.index(text.lower()) if text.lower() in self.LABELS else None

    def concept(self, i: int) -> C:
        return C(self.LABELS[i])

    def broader(self, i: int) -> list[int]:
        return self.BROADER.get(i, [])

    def opposites(self, i: int) -> list[int]:
        return self.OPPOSITES.get(i, [])


def residue(**facets) -> Residue:
    base = {f: "plain words, nothing named" for f in ("connection", "tension", "bridge", "surprise", "possibility")}
    return Residue(
        **(base | facets),
        themes=["trust", "zorblax field", "signalling"],
        interestingness=0.5,
        actionability=0.5,
        model_used="llama3.2:3b",
        route="local",
    )


def test_named_terms_are_the_quoted_ones():
    text = "The seller's 'edge' meets \"the lighthouse keeper\" and ‘trust’; it's 'x' or '42'."
    assert named_terms(text) == ["edge", "lighthouse keeper", "trust"]


def test_a_made_up_concept_is_flagged_and_not_a_theme():
    g = Grounding(FakeKnowledge())
    r = g.check(
        residue(connection="'trust' links them", bridge="'zorblax field' carries 'lighthouse keeper' to 'dog'"),
        make_request(),
    )
    assert r.details["hallucination"] == {"bridge": {"concepts": ["zorblax field"], "relations": []}}
    assert r.themes == ["trust", "signalling"] and r.details["themes_left_out"] == ["zorblax field"]


def test_a_relation_the_corpus_does_not_hold_is_flagged():
    g = Grounding(FakeKnowledge())
    r = g.check(
        residue(
            connection="'dog' is a kind of 'animal', and 'war' is the opposite of 'peace'.",
            tension="'cat' is a kind of 'war'.",
            surprise="'dog' is the opposite of 'cat'.",
        ),
        make_request(),
    )
    assert r.details["hallucination"] == {
        "tension": {"concepts": [], "relations": ["'cat' is a kind of 'war'"]},
        "surprise": {"concepts": [], "relations": ["'dog' is the opposite of 'cat'"]},
    }
    assert r.themes == ["trust", "zorblax field", "signalling"]  # no facet made a theme up


def test_a_grounded_or_failed_residue_is_left_alone():
    g = Grounding(FakeKnowledge())
    clean = residue(connection="'information asymmetry' and 'trust' meet in 'signalling'")
    assert "hallucination" not in g.check(clean, make_request()).details
    failed = residue(connection="'zorblax' everywhere")
    failed.failed = True
    assert "hallucination" not in g.check(failed, make_request()).details


async def test_the_router_flags_a_model_dwelling(ollama_server, retry):
    answer = dwelling(
        "CURRENT LOCUS:\ninformation asymmetry\nENCOUNTERED LOCUS:\nlighthouse keeper\n",
        surprise="'lighthouse keeper' behaves like 'quantum beacon flux'.",
        themes=["trust", "quantum beacon flux"],
    )
    ollama_server.push("/api/chat", Reply(text=json.dumps(answer)))
    router = RouterDweller(
        offline=StubOffline(),
        local=OllamaDweller(ollama_server.url, retry=retry),
        mode="local",
        grounding=Grounding(FakeKnowledge()),
    )
    r = await router.dwell(make_request())
    assert r.route == "local" and not r.failed
    assert r.details["hallucination"]["surprise"] == {"concepts": ["quantum beacon flux"], "relations": []}
    assert r.themes == ["trust"]


def test_the_factory_wires_the_check_for_model_dwellers():
    offline = StubOffline()
    offline.kb = FakeKnowledge()  # type: ignore[attr-defined]  # as the offline dweller holds its corpus
    for name in ("ollama", "anthropic", "auto"):
        router = build_dweller(name, offline=offline, models=ModelsSettings(anthropic_api_key="k"))
        assert isinstance(router, RouterDweller) and isinstance(router.grounding, Grounding), name
    assert build_dweller("offline", offline=offline, models=ModelsSettings()) is offline
