"""The Protocols the engine depends on. Adapters implement them; the engine imports only these."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

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


class Clock(Protocol):
    def now(self) -> datetime: ...


class Embedder(Protocol):
    name: str

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-normalised float32 rows, one per text."""
        ...


@dataclass(frozen=True)
class KnowledgeConcept:
    key: str
    label: str
    gloss: str
    domains: tuple[str, ...]
    path: tuple[str, ...] = ()
    opposites: tuple[str, ...] = ()
    source: str = "wordnet"
    broader: tuple[str, ...] = ()

    @property
    def abstraction_level(self) -> float:
        """Shallow in the hypernym tree = abstract (1.0); deep = concrete (0.0)."""
        if not self.path:
            return 0.5
        return float(min(1.0, max(0.0, 1.0 - (len(self.path) - 3) / 10)))


@dataclass(frozen=True)
class RelatedConcept:
    """One target of a WordNet relation of a concept."""

    key: str  # WordNet key: "car.n.01", "teach.v.01", "large.a.01" (an adjective satellite: ".s.")
    lemma: str  # display text: the linked word where the pointer names one ("instruct"), else the synset's lemma
    index: int | None = None  # the target's index when it is one of the knowledge base's concepts
    gloss: str = ""  # verbs and adjectives: their WordNet definition
    lexname: str = ""  # verbs: their lexicographer file without "verb." ("communication", "contact", ...)
    frames: tuple[str, ...] = ()  # verbs: WordNet's sentence frames ("Somebody ----s something")

    @property
    def pos(self) -> str:
        """n, v, a or s (adjective satellite)."""
        return self.key.rsplit(".", 2)[1]


@dataclass(frozen=True)
class ConceptRelations:
    """What WordNet says of a concept beyond its hypernyms (empty for an imported note).

    Noun relations: a target in the knowledge base has its index, one outside it only its
    key and lemma (say it, do not walk to it)."""

    lemmas: tuple[str, ...] = ()  # every word of the synset, the display lemma among them
    antonyms: tuple[RelatedConcept, ...] = ()
    parts: tuple[RelatedConcept, ...] = ()  # its parts (meronyms): car -> bumper
    part_of: tuple[RelatedConcept, ...] = ()  # what it is a part of (holonyms): wheel -> wheeled vehicle
    members: tuple[RelatedConcept, ...] = ()  # its members: fleet -> ship
    member_of: tuple[RelatedConcept, ...] = ()  # what it is a member of: tree -> forest
    substances: tuple[RelatedConcept, ...] = ()  # what it is made of: water -> hydrogen, oxygen
    substance_of: tuple[RelatedConcept, ...] = ()  # what it is the stuff of: water -> ice
    attributes: tuple[RelatedConcept, ...] = ()  # the adjectives it is the attribute of: size -> large, small
    derivations: tuple[RelatedConcept, ...] = ()  # derivationally related nouns and adjectives
    verbs: tuple[RelatedConcept, ...] = ()  # derivationally related verbs: teacher -> teach
    # How the concept stands to its verbs, from its lexicographer file (a heuristic): "agent"
    # (what it does: person, animal, group), "instrument" (what is done with it: artifact,
    # food, substance, body, plant, object, possession), "act" (it is the doing: act, event,
    # process, phenomenon, communication, cognition, feeling, state), "related" otherwise.
    verb_role: str = ""
    topics: tuple[RelatedConcept, ...] = ()  # topic domains: its own (";c" pointers)
    topic_members: tuple[RelatedConcept, ...] = ()  # what belongs to this topic (nouns, verbs, adjectives)
    usages: tuple[RelatedConcept, ...] = ()  # usage domains: "colloquialism", "plural" ...
    usage_members: tuple[RelatedConcept, ...] = ()
    regions: tuple[RelatedConcept, ...] = ()  # region domains: "France", "United States" ...
    region_members: tuple[RelatedConcept, ...] = ()

    def of_kind(self, kind: str) -> tuple[RelatedConcept, ...]:
        """The targets of one of RELATION_KINDS; a clear error for any other name."""
        if kind not in RELATION_KINDS:
            raise ValueError(f"kind: {kind!r} is not one of {', '.join(RELATION_KINDS)}")
        targets: tuple[RelatedConcept, ...] = getattr(self, kind)
        return targets

    def linked(self) -> list[tuple[str, RelatedConcept]]:
        """(kind, target) for every target of every kind, in RELATION_KINDS order."""
        return [(kind, t) for kind in RELATION_KINDS for t in getattr(self, kind)]


# ConceptRelations' relation fields, in the order ConceptRelations.linked gives them.
RELATION_KINDS: tuple[str, ...] = (
    "antonyms",
    "parts",
    "part_of",
    "members",
    "member_of",
    "substances",
    "substance_of",
    "attributes",
    "derivations",
    "verbs",
    "topics",
    "topic_members",
    "usages",
    "usage_members",
    "regions",
    "region_members",
)


class Knowledge(Protocol):
    """Concepts the wander can walk to, with their unit embeddings, answered in memory."""

    dim: int

    def __len__(self) -> int: ...

    def domains(self) -> set[str]: ...

    def concept(self, index: int) -> KnowledgeConcept: ...

    def vector(self, index: int) -> np.ndarray: ...

    def vectors(self, indices: np.ndarray) -> np.ndarray: ...

    def primary_domain_ids(self) -> np.ndarray:
        """Per concept, the id of its first domain (see domain_id)."""
        ...

    def domain_counts(self) -> np.ndarray:
        """Per concept, how many domains it belongs to."""
        ...

    def domain_id(self, name: str) -> int: ...

    def index_of(self, key: str) -> int | None: ...

    def find_label(self, text: str) -> int | None: ...

    def similarities(self, v: np.ndarray) -> np.ndarray:
        """Cosine similarity of v to every concept, in index order."""
        ...

    def unit_similarities(self, v: np.ndarray) -> np.ndarray:
        """Similarity of every concept to v's direction (v need not be unit length); zeros for
        a zero vector."""
        ...

    def domain_mask(self, allowed: Sequence[str], forbidden: Sequence[str]) -> np.ndarray:
        """Boolean mask over concepts: in an allowed domain (if any given), in no forbidden one."""
        ...

    def nearest(self, v: np.ndarray, k: int, exclude: Sequence[int] = ()) -> list[tuple[int, float]]: ...

    def broader(self, index: int) -> list[int]: ...

    def narrower(self, index: int) -> list[int]: ...

    def opposites(self, index: int) -> list[int]: ...

    def domain_reach(self, threshold: float) -> np.ndarray:
        """Per concept, how many other primary domains its per-domain neighbourhoods reach."""
        ...

    def domain_neighbours(self, index: int, threshold: float) -> list[tuple[str, int, float]]: ...

    def domain_centroid(self, name: str) -> np.ndarray | None: ...

    def relations(self, index: int) -> ConceptRelations:
        """WordNet's relations of a concept beyond its hypernyms, and every lemma of it."""
        ...

    def linked(self, index: int) -> list[tuple[str, int]]:
        """(kind, concept index) for every relation target that is a concept of the knowledge
        base (kinds as in RELATION_KINDS; hypernyms and hyponyms are broader/narrower)."""
        ...

    def relations_between(self, index: int, other: int) -> list[str]:
        """The kinds by which concept OTHER is a target of concept INDEX ("parts": OTHER is a
        part of INDEX), in RELATION_KINDS order; empty when none (hypernymy: broader/narrower)."""
        ...

    def ancestors(self, index: int, levels: int) -> dict[str, int]:
        """The keys of every hypernym (ordinary or instance) up to LEVELS above a concept,
        inside the knowledge base or not, mapped to their distance (1 = direct), nearest first."""
        ...

    def lemma_of(self, key: str) -> str | None:
        """The display lemma of any WordNet key the knowledge base knows of (a concept's, a
        relation target's or an ancestor's), None for an unknown key."""
        ...

    def sharing_lemma(self, index: int) -> list[int]:
        """The other concepts that share a lemma with this one (case-folded): one word with
        several senses, whose step from one sense to another is a pun."""
        ...


@runtime_checkable
class BandSampler(Protocol):
    """A knowledge base too large to scan every step (adapters/kb/approximate_index.py): the
    distance band strategy draws from it instead of scoring every concept."""

    def sample_band(
        self, v: np.ndarray, low: float, high: float, k: int, seed: Sequence[int]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Up to K concept indices at cosine distance LOW-HIGH from V and their distances,
        after reading a bounded number of concepts; the same for the same SEED."""
        ...


class CASignal(Protocol):
    @property
    def state(self) -> str: ...  # CONVERGED | OSCILLATING | CHAOTIC

    @property
    def adjustment(self) -> float: ...  # added to a locus's uncertainty

    @property
    def needs_rephrasing(self) -> bool: ...

    @property
    def outcome(self) -> str: ...  # the rotation retry's: CONVERGED | FAILED_ALL_ROTATIONS


class CAKernel(Protocol):
    """The Wheeler cellular automaton as an epistemic signal on a locus's text."""

    def signal(self, text: str, embedding: np.ndarray | None = None) -> CASignal: ...


@dataclass
class DwellRequest:
    session: Session  # carries the cloud budget and what has been spent of it
    current: Locus
    encountered: Locus
    recent_themes: list[str] = field(default_factory=list)
    active_resonances: list[str] = field(default_factory=list)
    # The routing rule's inputs (001 "Decision Logic").
    bridge_score: float = 0.0
    resonance_proximity: float = 0.0
    crystallization_candidate: bool = False


class Dweller(Protocol):
    name: str

    async def dwell(self, request: DwellRequest) -> Residue:
        """A residue; route, tokens_used and cost_cents say what it cost. Never raises for a
        bad model answer: that comes back as a residue with failed=True and raw_output."""
        ...


class ConceptProposer(Protocol):
    """A model asked for adjacencies: analogies and tensions (returns concept names; a
    model's answer is engine.model_spend.Proposals, saying what it cost). budget_cents:
    the cloud budget a call may spend (None: no limit given)."""

    async def propose_analogies(
        self, a: str, b: str, c: str, n: int = 5, *, budget_cents: int | None = None
    ) -> list[str]:
        """'a is to b as c is to ?'"""
        ...

    async def propose_tensions(self, concept: str, n: int = 5, *, budget_cents: int | None = None) -> list[str]:
        """What stands in productive tension with the concept?"""
        ...


@dataclass
class RuminationTurn:
    """One step of a rumination (003), as shown to a model: what the queries returned."""

    step: int
    lens: str  # the node type being explored (loci, residues, resonances, ...)
    gap: str  # what is missing, in words
    evidence: list[EvidenceItem]  # the store's answer to this step's query
    findings_so_far: list[str]
    coverage: float  # share of lenses explored


@dataclass
class RuminationReply:
    finding: str
    monologue: str
    cited_ids: list[str]
    signal: str  # CONTINUE | CRYSTALLIZE
    insight: str | None = None  # the proposed crystal text when signal is CRYSTALLIZE
    spent: list[tuple[str, int, int]] = field(default_factory=list)  # (route, calls, cents) per model asked


class RuminationModel(Protocol):
    """budget_cents: the cloud budget the turn may spend; the engine passes it only when it
    has one (a rumination outside a step has none: no cloud)."""

    async def ruminate(
        self, seed: str, turn: RuminationTurn, *, budget_cents: int | None = None
    ) -> RuminationReply: ...


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
        import copy

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


class Store(Protocol):
    async def create_session(
        self, session: Session, seed_loci: list[Locus], events: list[EventDraft]
    ) -> list[Event]: ...

    async def get_session(self, session_id: str) -> Session | None: ...

    async def load_walk(self, session_id: str, recent: int = 20, hot: int = 30) -> WalkState: ...

    async def commit_step(self, commit: StepCommit) -> list[Event]:
        """Write the step; raises StepAlreadyCommitted if the step number exists, and
        StoreUnavailable (nothing written) when the store cannot write."""
        ...

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

    async def lens_evidence(self, session: Session, lens: str, vector: np.ndarray, k: int) -> list[EvidenceItem]:
        """What the wander's graph holds for a rumination lens, nearest the vector first."""
        ...

    async def crystals(self, project_id: str) -> list[Crystal]:
        """The project's crystals that are not invalidated (novelty is judged against them)."""
        ...

    async def save_crystal(self, crystal: Crystal, events: list[EventDraft]) -> list[Event]: ...

    # ---- what the interventions write ------------------------------------------------

    async def set_controls(self, session_id: str, **values: Any) -> None:
        """fence (anchors). A pending injection is set by set_injection, with its event."""
        ...

    async def add_locus(self, session_id: str, locus: Locus, events: list[EventDraft]) -> list[Event]: ...

    async def set_budget(self, session_id: str, cloud_budget_cents: int) -> None: ...

    async def create_subwander(
        self, child: Session, seed_loci: list[Locus], events: list[EventDraft], parent_events: list[EventDraft]
    ) -> list[Event]:
        """The child session (as create_session) with the parent's budget less the child's and
        the parent's events, in one transaction; the child's events, then the parent's."""
        ...

    async def plant_locus(
        self, session_id: str, locus: Locus, make_events: Callable[[Locus], list[EventDraft]]
    ) -> tuple[Locus, list[Event]]:
        """Plant the locus unless the wander already has one of the same concept (compared
        case-insensitively), checked under the session's lock; then the events
        make_events gives for the locus planted or found. Returns that locus and the events."""
        ...

    async def locus(self, session_id: str, locus_id: str) -> Locus | None: ...

    async def start_step(self, session_id: str, events: list[EventDraft]) -> tuple[SessionControls, list[Event]]:
        """A step's start, in its own small transaction before the step's work: the controls
        a person may have changed meanwhile (fence, injection, temperature...) and the start
        events appended. Conflict when the wander is gone or not active."""
        ...

    async def set_fence(self, session_id: str, change: FenceChange) -> list[Event]:
        """Change the fence by `change`, applied to the fence as it is under the session's
        lock, with the events it gives; Conflict once the wander is finished."""
        ...

    async def set_injection(self, session_id: str, change: InjectionChange) -> list[Event]:
        """Set the pending forced injection by `change`, applied to the one pending under the
        session's lock, with the events it gives, in one transaction; Conflict once the
        wander is finished."""
        ...

    async def record_crystal_review(
        self, crystal_id: str, session_id: str | None, status: str, approved: bool, notes: str, events: list[EventDraft]
    ) -> list[Event]:
        """A person's verdict on a crystal (its status and notes) with its events, in one transaction."""
        ...


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


class EventBus(Protocol):
    async def publish(self, events: Sequence[Event]) -> None: ...

    def subscribe(
        self, handler: Callable[[Event], Awaitable[None]], session_id: str | None = None
    ) -> Callable[[], None]:
        """Register a handler; returns a function that unsubscribes it."""
        ...
