"""The knowledge base the wander walks: its concepts, their WordNet relations, and the
queries the strategies ask of it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np


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
    strategies draw from its band instead of scoring every concept, and the walk reads its
    per-concept values by index (engine/walk_rows.py) instead of holding rows of them."""

    def sample_band(
        self, v: np.ndarray, low: float, high: float, k: int, seed: Sequence[int]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Up to K concept indices at cosine distance LOW-HIGH from V and their distances,
        after reading a bounded number of concepts; the same for the same SEED."""
        ...

    def opposite_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """Every pair (a, b) of concepts the corpus calls opposites, both ways, sorted."""
        ...
