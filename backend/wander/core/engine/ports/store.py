"""The engine's store, by aggregate (a wander's life, its steps, loci, controls, crystals,
the rumination's evidence), what a step reads and writes, and what the faces read."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from wander.core.domain.models import (
    CompostItem,
    Crystal,
    Event,
    EventDraft,
    FenceAnchor,
    HotItem,
    Locus,
    Residue,
    Resonance,
    Session,
    SessionStatus,
    Trace,
    WarmMemory,
)
from wander.core.domain.views import EvidenceItem, SimilarItem, StepView

# A change to a wander's fence, made under the session's lock: the fence as it is -> the new
# fence and the events that report it.
FenceChange = Callable[[list[FenceAnchor]], tuple[list[FenceAnchor], list[EventDraft]]]

# A change to a wander's pending forced injection, made under the session's lock: the
# pending injection as it is (None when none is) -> the new one and the events that report it.
InjectionChange = Callable[[dict | None], tuple[dict | None, list[EventDraft]]]


@dataclass
class StepCommit:
    """Everything one step writes, committed in one transaction with its events."""

    session: Session  # with step_count, current_locus_id, status etc. already advanced
    expected_step_count: int  # the step count the step started from (optimistic check)
    usage: dict[str, int]  # added to the session's local_calls, cloud_calls, cloud_spent_cents
    new_loci: list[Locus]
    visited_locus: Locus  # the locus walked to (new or existing), visit counts updated
    trace: Trace
    residue: Residue
    residue_id: str
    events: list[EventDraft]
    resonances: list[Resonance] = field(default_factory=list)  # created or changed
    warm_new: list[WarmMemory] = field(default_factory=list)
    warm_updated: list[WarmMemory] = field(default_factory=list)
    warm_to_compost: list[tuple[str, CompostItem]] = field(default_factory=list)
    crystal: Crystal | None = None
    consumed_injection: dict | None = None  # the pending injection this step took, cleared only if still pending
    # per changed resonance that existed before: its (occurrences, status, last_reinforced_at)
    # as the step read it; the commit refuses (ResonanceMoved) if the stored one moved on
    resonance_bases: dict[str, tuple] = field(default_factory=dict)


@dataclass
class SessionControls:
    """What a person may change while a wander runs, read afresh before every step."""

    status: str
    allowed_domains: list[str]
    forbidden_domains: list[str]
    temperature: float
    max_steps: int
    fence: list
    pending_injection: dict | None
    cloud_budget_cents: int

    def merged_into(self, s: Session) -> Session:
        out = copy.copy(s)
        out.status = SessionStatus(self.status)
        out.allowed_domains, out.forbidden_domains = list(self.allowed_domains), list(self.forbidden_domains)
        out.temperature, out.max_steps, out.cloud_budget_cents = (
            self.temperature,
            self.max_steps,
            self.cloud_budget_cents,
        )
        out.fence, out.pending_injection = list(self.fence), self.pending_injection
        return out


@dataclass
class WalkState:
    """What the engine needs to take the next step, loaded from the store."""

    session: Session
    loci: list[Locus]
    recent_themes: list[str]
    relations: list[tuple[str, str]] = field(default_factory=list)  # (from, to) locus ids, step order
    hot: list[HotItem] = field(default_factory=list)  # the most recent encounters, oldest first
    compost: list[CompostItem] = field(default_factory=list)
    resonances: list[Resonance] = field(default_factory=list)  # the project's, not invalidated
    warm: list[WarmMemory] = field(default_factory=list)
    last_crystal_step: int = 0  # the step of the wander's latest crystal (the throttle)


class SessionStore(Protocol):
    """A wander's life: created (a sub-wander with its parent's budget), read, its status and run target changed."""

    async def create_session(
        self, session: Session, seed_loci: list[Locus], events: list[EventDraft]
    ) -> list[Event]: ...

    async def get_session(self, session_id: str) -> Session | None: ...

    async def set_status(
        self,
        session_id: str,
        status: str,
        reason: str | None,
        events: list[EventDraft],
        allowed_from: Iterable[str] | None = None,
    ) -> list[Event]: ...

    async def set_run_target(self, session_id: str, run_until_step: int | None) -> None: ...

    async def interrupted_runs(self) -> list[Session]: ...

    async def create_subwander(
        self, child: Session, seed_loci: list[Locus], events: list[EventDraft], parent_events: list[EventDraft]
    ) -> list[Event]:
        """The child session (as create_session) with the parent's budget less the child's and
        the parent's events, in one transaction; the child's events, then the parent's."""
        ...


class StepStore(Protocol):
    """A step: the walk it starts from, its start (the controls as they are now) and its commit."""

    async def load_walk(self, session_id: str, recent: int = 20, hot: int = 30) -> WalkState: ...

    async def start_step(self, session_id: str, events: list[EventDraft]) -> tuple[SessionControls, list[Event]]:
        """A step's start, in its own small transaction before the step's work: the controls
        a person may have changed meanwhile (fence, injection, temperature...) and the start
        events appended. Conflict when the wander is gone or not active."""
        ...

    async def commit_step(self, commit: StepCommit) -> list[Event]:
        """Write the step; raises StepAlreadyCommitted if the step number exists, and
        StoreUnavailable (nothing written) when the store cannot write."""
        ...


class LocusStore(Protocol):
    """A wander's loci, read and planted."""

    async def locus(self, session_id: str, locus_id: str) -> Locus | None: ...

    async def add_locus(self, session_id: str, locus: Locus, events: list[EventDraft]) -> list[Event]: ...

    async def plant_locus(
        self, session_id: str, locus: Locus, make_events: Callable[[Locus], list[EventDraft]]
    ) -> tuple[Locus, list[Event]]:
        """Plant the locus unless the wander already has one of the same concept (compared
        case-insensitively), checked under the session's lock; then the events
        make_events gives for the locus planted or found. Returns that locus and the events."""
        ...


class ControlStore(Protocol):
    """What a person changes while a wander runs: its fence, its forced injection, its budget."""

    async def set_controls(self, session_id: str, **values: Any) -> None:
        """fence (anchors). A pending injection is set by set_injection, with its event."""
        ...

    async def set_budget(self, session_id: str, cloud_budget_cents: int) -> None: ...

    async def set_fence(self, session_id: str, change: FenceChange) -> list[Event]:
        """Change the fence by `change`, applied to the fence as it is under the session's
        lock, with the events it gives; Conflict once the wander is finished."""
        ...

    async def set_injection(self, session_id: str, change: InjectionChange) -> list[Event]:
        """Set the pending forced injection by `change`, applied to the one pending under the
        session's lock, with the events it gives, in one transaction; Conflict once the
        wander is finished."""
        ...


class CrystalStore(Protocol):
    """A project's crystals: those that stand, a new one, a person's verdict on one."""

    async def crystals(self, project_id: str) -> list[Crystal]:
        """The project's crystals that are not invalidated (novelty is judged against them)."""
        ...

    async def save_crystal(self, crystal: Crystal, events: list[EventDraft]) -> list[Event]: ...

    async def record_crystal_review(
        self, crystal_id: str, session_id: str | None, status: str, approved: bool, notes: str, events: list[EventDraft]
    ) -> list[Event]:
        """A person's verdict on a crystal (its status and notes) with its events, in one transaction."""
        ...


class EvidenceStore(Protocol):
    """What a rumination's lenses find in the wander's graph."""

    async def lens_evidence(self, session: Session, lens: str, vector: np.ndarray, k: int) -> list[EvidenceItem]:
        """What the wander's graph holds for a rumination lens, nearest the vector first."""
        ...


class Store(SessionStore, StepStore, LocusStore, ControlStore, CrystalStore, EvidenceStore, Protocol):
    """The engine's whole store (an adapter implements it all); a function that needs one
    aggregate takes that one."""


class ReadStore(Protocol):
    """What the faces read (through engine.queries.Queries), and the settings they change."""

    async def get_session(self, session_id: str) -> Session | None: ...

    async def list_sessions(self, status: str | None = None, limit: int = 50, offset: int = 0) -> list[Session]: ...

    async def count_sessions(self, status: str | None = None) -> int: ...

    async def children(self, session_id: str) -> list[Session]: ...

    async def loci(
        self, session_id: str, visited: bool | None = None, min_interestingness: float | None = None
    ) -> list[Locus]: ...

    async def locus(self, session_id: str, locus_id: str) -> Locus | None: ...

    async def locus_steps(self, locus_id: str) -> list[StepView]: ...

    async def linked_to(self, session_id: str, locus_id: str) -> list[Locus]:
        """The session's loci whose bridges_to or contradicts name the locus."""
        ...

    async def trace(self, session_id: str) -> list[StepView]: ...

    async def find_resonances(self, session_id: str | None = None, status: str | None = None) -> list[Resonance]: ...

    async def find_crystals(
        self,
        session_id: str | None = None,
        status: str | None = None,
        min_confidence: float | None = None,
        crystal_id: str | None = None,
    ) -> list[Crystal]: ...

    async def search(self, project_id: str, vector: np.ndarray, types: list[str], limit: int) -> list[SimilarItem]: ...

    async def events_after(self, session_id: str, after_seq: int = 0, limit: int = 10_000) -> list[Event]: ...

    async def event_texts_after(
        self, session_id: str, after_seq: int = 0, limit: int = 10_000
    ) -> list[tuple[int, str]]:
        """events_after's events as (seq, their EventOut JSON)."""
        ...

    async def update_session(self, session_id: str, **values: Any) -> None: ...

    async def delete_session(self, session_id: str) -> bool: ...
