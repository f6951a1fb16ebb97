"""Fixtures of the model adapter tests: local Ollama and Anthropic servers, requests
without a database, a sleep that records instead of waiting."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from wander.adapters.llm.base import RetryPolicy
from wander.core.domain.models import Locus, Residue, Session, SourceType
from wander.core.engine.ports import DwellRequest

from .servers import AnthropicServer, OllamaServer


@pytest.fixture
def ollama_server():
    with OllamaServer() as s:
        yield s


@pytest.fixture
def anthropic_server():
    with AnthropicServer() as s:
        yield s


@dataclass
class Sleeps:
    """An injectable sleep: records the delays asked for, waits for none."""

    delays: list[float] = field(default_factory=list)

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def retry(sleeps) -> RetryPolicy:
    return RetryPolicy(retries=2, base_delay=0.5, max_delay=4.0, jitter=0.0, sleep=sleeps)


def _vec(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(384).astype(np.float32)
    return v / np.linalg.norm(v)


def make_session(budget: int = 500, spent: int = 0, sid: str = "00000000-0000-0000-0000-000000000001") -> Session:
    return Session(
        id=sid,
        project_id="p",
        name="test",
        seed_concept="information asymmetry",
        seed_embedding=_vec(0),
        cloud_budget_cents=budget,
        cloud_spent_cents=spent,
    )


def make_request(
    session: Session | None = None,
    *,
    current: str = "information asymmetry",
    encountered: str = "lighthouse keeper",
    themes: list[str] | None = None,
    resonances: list[str] | None = None,
    bridge: float = 0.0,
    proximity: float = 0.0,
    crystallization: bool = False,
) -> DwellRequest:
    session = session or make_session()
    a = Locus(
        id="a",
        session_id=session.id,
        concept=current,
        embedding=_vec(1),
        source_type=SourceType.SEED,
        domains=["economics", "cognition"],
        abstraction_level=0.8,
    )
    b = Locus(
        id="b",
        session_id=session.id,
        concept=encountered,
        embedding=_vec(2),
        source_type=SourceType.ADJACENT,
        domains=["person", "artifact"],
        abstraction_level=0.2,
    )
    return DwellRequest(
        session=session,
        current=a,
        encountered=b,
        recent_themes=themes if themes is not None else ["signalling", "trust", "maritime safety"],
        active_resonances=resonances if resonances is not None else ["hidden knowledge, disclosure"],
        bridge_score=bridge,
        resonance_proximity=proximity,
        crystallization_candidate=crystallization,
    )


class StubOffline:
    """Stands in for the offline dweller (which needs the knowledge base)."""

    name = "offline"

    def __init__(self) -> None:
        self.calls = 0

    async def dwell(self, request: DwellRequest) -> Residue:
        self.calls += 1
        return Residue(
            connection="c",
            tension="t",
            bridge="b",
            surprise="s",
            possibility="p",
            themes=["offline"],
            interestingness=0.5,
            actionability=0.1,
            model_used="offline",
        )


class UnitEmbedder:
    name = "test-embedder"
    dim = 384

    def embed(self, texts):
        return np.stack([_vec(abs(hash(t)) % 10_000) for t in texts]) if texts else np.zeros((0, 384), np.float32)
