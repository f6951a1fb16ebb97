"""What is true of a pair of loci, read off the corpus and the geometry once, so that every
facet speaks from the same facts and none contradicts another.

Lineage (hypernym paths), corpus opposites, domains, whether one's definition names the
other, the corpus relations between the two where the corpus has them, the concepts nearest
their midpoint, what characterises each side against the other (its lean), and where the
attractor lies relative to the step. Only cheap work: the two similarity rows the step
computes anyway, slices of them, and lookups."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from wander.core.domain.geometry import normalize, top_k
from wander.core.domain.models import Locus
from wander.core.engine.crystal_text import gloss_word
from wander.core.engine.ports import Knowledge, KnowledgeConcept

CLOSE, FAR = 0.45, 0.6  # cosine distance: close below, far above
LEAN_OWN = 0.45  # ... that are at least this near the side itself
MIDS = 12
RESONANT = 0.6  # b this near an active resonance lies near a theme the walk keeps returning to
TOWARD = 0.04  # a step this much nearer (or farther from) the attractor moves toward it (away)


@dataclass(frozen=True)
class Side:
    name: str  # the locus's own words
    index: int  # its corpus concept (its own entry, or the nearest one)
    concept: KnowledgeConcept
    own: bool

    @property
    def lemma(self) -> str:
        return lemma(self.concept)

    @property
    def line(self) -> list[str]:
        return [self.lemma, *self.concept.path]


@dataclass
class PairFacts:
    a: Side
    b: Side
    sim: float
    band: str  # close | middle | far
    kinship: str  # a_in_b | b_in_a | siblings | shared | broad | none
    shared: str | None = None  # the deepest broader concept both lineages hold
    depths: tuple[int, int] | None = None  # its levels above a and above b
    opposite: tuple[str, str] | None = None  # (concept, its opposite in the other lineage)
    gloss_link: tuple[Side, Side] | None = None  # (whose definition, names which)
    relations: list[tuple[str, str, str]] = field(default_factory=list)  # (from, relation, to)
    shared_target: tuple[str, str] | None = None  # (relation kind, what both point at)
    doing_a: tuple[str, str] | None = None  # (agent | instrument | act, verb)
    doing_b: tuple[str, str] | None = None
    filling_relation: tuple[str, str, str] | None = None  # a relation of the filling to a side
    middle_relation: tuple[str, str, str] | None = None  # a relation of the middle concept to a side
    middle_names: Side | None = None  # the side the middle concept's definition names
    realms: tuple[str, str] = ("", "")  # 'physical entity' | 'abstract entity' | ... of a and b
    middle_recurs: bool = False  # the middle concept is among the walk's recent themes
    kinds: tuple[str, str] | None = None  # a's and b's immediate kinds, when both are concepts
    kinds_sim: float | None = None  # their similarity (set against the pair's own)
    lean_ties: tuple[str | None, str | None] = (None, None)  # how each lean belongs to its side
    leans_sim: float | None = None
    middle_attractor: float | None = None  # the middle concept's similarity to the attractor minus the nearer side's
    resonant: bool = False  # b lies near one of the walk's active resonances
    filling_recurs: bool = False
    common_domains: list[str] = field(default_factory=list)
    only_a: list[str] = field(default_factory=list)
    only_b: list[str] = field(default_factory=list)
    mids: list[tuple[int, float]] = field(default_factory=list)
    middle: int = -1  # the concept nearest both (the highest of its two similarities' lower)
    middle_sims: tuple[float, float] = (0.0, 0.0)
    lean_a: int | None = None
    lean_b: int | None = None
    filling: int = -1
    filling_sims: tuple[float, float] = (0.0, 0.0)
    attractor_shift: float | None = None  # b's similarity to the attractor minus a's
    filling_attractor: float | None = None  # the filling's, minus the nearer of a's and b's
    revisits: int = 0
    gloss_word: str = ""  # a word both definitions use (not of either's name)
    back: tuple[str, str] | None = None  # (where the walk stood two steps back, 'toward' | 'away'): history.py
    recurring: list[str] | None = None  # the other themes of an active resonance that names b: history.py

    @property
    def kin(self) -> bool:
        return self.kinship in ("a_in_b", "b_in_a", "siblings", "shared")

    @property
    def turn(self) -> int:
        """Which of a clause's phrasings this pair takes where the clause follows the lead,
        and which the lead tries first (clauses.arrangements): the pair's own number, so a
        replayed step reads the same and other pairs read otherwise."""
        return (self.a.index * 7919 + self.b.index * 104729) % 9973

    @property
    def mediated(self) -> bool:
        """The middle concept is nearer each side than the sides are to each other."""
        return min(self.middle_sims) > self.sim

    @property
    def close_kin(self) -> bool:
        return self.kin and (self.depths is None or max(self.depths) <= 2)


def lemma(c: KnowledgeConcept) -> str:
    return c.label.split(" (")[0]


def names(text: str, word: str) -> bool:
    """The text uses the word (whole words, any case; a plural 's' allowed)."""
    if len(word) < 3:
        return False
    return re.search(r"(?<![\w-])" + re.escape(word.lower()) + r"(?:e?s)?(?![\w-])", text.lower()) is not None


def anchor(kb: Knowledge, locus: Locus) -> Side:
    if locus.kb_key:
        i = kb.index_of(locus.kb_key)
        if i is not None:
            return Side(locus.concept, i, kb.concept(i), True)
    i, _ = kb.nearest(locus.embedding, 1)[0]
    return Side(locus.concept, i, kb.concept(i), False)


LINEAGE = 20  # levels of hypernyms read for kinship (deeper than any WordNet noun)


def _kinship(
    a: Side, b: Side, degenerate: frozenset[str], kb: Knowledge | None = None
) -> tuple[str, str | None, tuple[int, int] | None]:
    """Kinship by the synsets of the two lineages (a word in both lineages is not enough:
    'work table' is a kind of 'table' the furniture, not of 'table (array)'); by the words
    of their first paths only where the knowledge base has no lineage to give."""
    if kb is not None and hasattr(kb, "ancestors") and a.index != b.index:
        up_a, up_b = kb.ancestors(a.index, LINEAGE), kb.ancestors(b.index, LINEAGE)
        if b.concept.key in up_a:
            return "a_in_b", b.lemma, (up_a[b.concept.key], 0)
        if a.concept.key in up_b:
            return "b_in_a", a.lemma, (0, up_b[a.concept.key])
        common = [(d + up_b[k], d, k) for k, d in up_a.items() if k in up_b]
        if not common:
            return "none", None, None
        _, _, key = min(common)
        name = kb.lemma_of(key) or key
        depths = (up_a[key], up_b[key])
        if name.lower() in degenerate:
            return "broad", name, depths
        return ("siblings" if depths == (1, 1) else "shared"), name, depths
    line_a, line_b = a.line, b.line
    if b.lemma in line_a[1:]:
        return "a_in_b", b.lemma, (line_a.index(b.lemma), 0)
    if a.lemma in line_b[1:]:
        return "b_in_a", a.lemma, (0, line_b.index(a.lemma))
    shared = next((x for x in line_a[1:] if x in line_b[1:]), None)
    if shared is None:
        return "none", None, None
    depths = (line_a.index(shared), line_b.index(shared))
    if shared.lower() in degenerate:
        return "broad", shared, depths
    return ("siblings" if depths == (1, 1) else "shared"), shared, depths


def _opposite(a: Side, b: Side) -> tuple[str, str] | None:
    for x, other in ((a, b), (b, a)):
        for o in x.concept.opposites:
            if o in other.line or o == other.concept.label:
                return (x.lemma, o)
    return None


def _gloss_link(a: Side, b: Side) -> tuple[Side, Side] | None:
    for x, y in ((a, b), (b, a)):
        if y.lemma.lower() != x.lemma.lower() and names(x.concept.gloss, y.lemma):
            return (x, y)
    return None


def _relations(kb: Knowledge, a: Side, b: Side) -> list[tuple[str, str, str]]:
    """The corpus's own relations between the two concepts (parts, members, substances,
    topics, derivations...), as (from, kind, to), where the knowledge base has them."""
    between = getattr(kb, "relations_between", None)
    if between is None:
        return []
    out = [(a.lemma, kind, b.lemma) for kind in between(a.index, b.index) if kind != "antonyms"]
    out += [(b.lemma, kind, a.lemma) for kind in between(b.index, a.index) if kind != "antonyms"]
    return out


SHARED_KINDS = ("topics", "usages", "regions", "part_of", "member_of", "substances", "parts", "attributes")


def _shared_target(kb: Knowledge, a: Side, b: Side) -> tuple[str, str] | None:
    """A target both concepts point at by the same relation: (kind, its lemma)."""
    rel = getattr(kb, "relations", None)
    if rel is None:
        return None
    ra, rb = rel(a.index), rel(b.index)
    for kind in SHARED_KINDS:
        keys_b = {t.key for t in rb.of_kind(kind)}
        for t in ra.of_kind(kind):
            if t.key in keys_b:
                return kind, t.lemma
    return None


def _doing(kb: Knowledge, s: Side) -> tuple[str, str] | None:
    """What the concept does, is used for, or is the doing of: (role, verb)."""
    rel = getattr(kb, "relations", None)
    if rel is None:
        return None
    r = rel(s.index)
    if not r.verbs or r.verb_role not in ("agent", "instrument", "act"):
        return None
    own = s.lemma.lower().replace("-", " ")  # 'cross-question' is the act of 'cross question'
    for v in r.verbs:  # 'milk' is what one uses to 'milk' says nothing: a verb of its own word is left out
        word = v.lemma.lower().replace("-", " ")
        if word != own and not own.startswith(word) and not word.startswith(own.split()[0]):
            return r.verb_role, v.lemma
    return None


def _related(kb: Knowledge, i: int, sides: tuple[Side, Side]) -> tuple[str, str, str] | None:
    """A corpus relation from concept i to one of the sides: (i's lemma, kind, side's lemma)."""
    between = getattr(kb, "relations_between", None)
    if between is None:
        return None
    for side in sides:
        kinds = [k for k in between(i, side.index) if k != "antonyms"]
        if kinds:
            return (lemma(kb.concept(i)), kinds[0], side.lemma)
    return None


def _tie(kb: Knowledge, lean: int | None, side: Side) -> str | None:
    """How a side's lean belongs to it: 'kind' (a kind of it), 'broader' (what it is a kind
    of), or a corpus relation kind from the side to the lean ('parts', 'members'...)."""
    if lean is None:
        return None
    c = kb.concept(lean)
    if side.lemma in c.path:
        return "kind"
    if lemma(c) in side.concept.path:
        return "broader"
    between = getattr(kb, "relations_between", None)
    if between is not None:
        kinds = [k for k in between(side.index, lean) if k != "antonyms"]
        if kinds:
            return kinds[0]
    return None


def _realm(c: KnowledgeConcept) -> str:
    """The top of a lineage below 'entity': physical or abstract, say."""
    path = [p for p in c.path if p != "entity"]
    return path[-1] if path else ""


def _lean(
    kb: Knowledge, own: np.ndarray, other: np.ndarray, exclude: set[int], words: set[str], at: Rows
) -> int | None:
    """What characterises a side against the other: among the concepts near the side (at
    least LEAN_OWN), the one nearest it for what the other side does not share."""
    score = np.where(own >= LEAN_OWN, own - 0.5 * other, -9.0)
    for p, s in top_k(score, 8, exclude=at.positions(exclude)):
        if s > -9.0 and lemma(kb.concept(at[p])).lower() not in words:
            return at[p]
    return None


class Rows:
    """Which concept each position of the similarity rows is: every concept in order, or a
    pool of them (a large knowledge base's concepts near the pair, the rest counted far)."""

    def __init__(self, pool: np.ndarray | None = None):
        self.pool = pool

    def __getitem__(self, position: int) -> int:
        return position if self.pool is None else int(self.pool[position])

    def positions(self, concepts: set[int]) -> list[int]:
        if self.pool is None:
            return list(concepts)
        return np.flatnonzero(np.isin(self.pool, list(concepts))).tolist()


def pair_facts(
    kb: Knowledge,
    a: Locus,
    b: Locus,
    s_a: np.ndarray,
    s_b: np.ndarray,
    degenerate: frozenset[str],
    attractor: np.ndarray | None,
    recent_themes: Sequence[str] = (),
    resonance_proximity: float = 0.0,
    pool: np.ndarray | None = None,
) -> PairFacts:
    """The facts of the pair; s_a and s_b are the corpus's similarity rows to a and b (to
    POOL's concepts only, when given: a large knowledge base's concepts near the pair)."""
    side_a, side_b = anchor(kb, a), anchor(kb, b)
    va, vb = normalize(a.embedding), normalize(b.embedding)
    sim = float(va @ vb)
    dist = 1.0 - sim
    band = "close" if dist < CLOSE else "far" if dist > FAR else "middle"
    kinship, shared, depths = _kinship(side_a, side_b, degenerate, kb)
    dom_a, dom_b = list(a.domains), list(b.domains)
    f = PairFacts(
        a=side_a,
        b=side_b,
        sim=sim,
        band=band,
        kinship=kinship,
        shared=shared,
        depths=depths,
        opposite=_opposite(side_a, side_b),
        gloss_link=_gloss_link(side_a, side_b),
        relations=_relations(kb, side_a, side_b),
        shared_target=_shared_target(kb, side_a, side_b),
        doing_a=_doing(kb, side_a),
        doing_b=_doing(kb, side_b),
        common_domains=[d for d in dom_a if d in dom_b],
        only_a=[d for d in dom_a if d not in dom_b],
        only_b=[d for d in dom_b if d not in dom_a],
        revisits=max(0, b.visit_count - 1),
    )
    words = {side_a.lemma.lower(), side_b.lemma.lower(), a.concept.lower(), b.concept.lower()}
    exclude = {side_a.index, side_b.index}
    # the midpoint's neighbours, by the higher of the two similarities' lower (nearest both)
    at = Rows(pool)
    both = np.minimum(s_a, s_b)
    mids = [
        (p, s)
        for p, s in top_k(s_a + s_b, MIDS + 4, exclude=at.positions(exclude))
        if lemma(kb.concept(at[p])).lower() not in words
    ][:MIDS] or top_k(s_a + s_b, MIDS, exclude=at.positions(exclude))
    f.mids = [(at[p], s) for p, s in mids]
    middle = max((p for p, _ in mids), key=lambda p: float(both[p]))
    f.middle = at[middle]
    f.middle_sims = (float(s_a[middle]), float(s_b[middle]))
    f.lean_a = _lean(kb, s_a, s_b, exclude | {f.middle}, words, at)
    f.lean_b = _lean(kb, s_b, s_a, exclude | {f.middle} | ({f.lean_a} if f.lean_a is not None else set()), words, at)
    # a filling: balanced between them, and not the middle already named
    filling = max([p for p, _ in mids if p != middle] or [middle], key=lambda p: float(both[p]))
    f.filling = at[filling]
    f.filling_sims = (float(s_a[filling]), float(s_b[filling]))
    f.filling_relation = _related(kb, f.filling, (side_a, side_b))
    f.middle_relation = _related(kb, f.middle, (side_a, side_b))
    m_gloss = kb.concept(f.middle).gloss
    f.middle_names = next((x for x in (side_a, side_b) if names(m_gloss, x.lemma)), None)
    f.realms = (_realm(side_a.concept), _realm(side_b.concept))
    own = {
        w.lower()
        for x in (a.concept, b.concept, side_a.concept.label, side_b.concept.label)
        for w in re.findall(r"[A-Za-z]+", x)
    }
    f.gloss_word = gloss_word(side_a.concept.gloss, side_b.concept.gloss, own)
    f.resonant = resonance_proximity >= RESONANT
    _kinds_and_ties(kb, f, side_a, side_b)
    recent = {t.lower() for t in recent_themes}
    f.middle_recurs = lemma(kb.concept(f.middle)).lower() in recent
    f.filling_recurs = lemma(kb.concept(f.filling)).lower() in recent
    if attractor is not None:
        _toward_attractor(kb, f, va, vb, normalize(attractor))
    return f


def _kinds_and_ties(kb: Knowledge, f: PairFacts, side_a: Side, side_b: Side) -> None:
    """The two sides' top kinds (when they differ), how alike their leans are, and what ties each lean to its side."""
    ka, kb_ = (kb.find_label(x.concept.path[0]) if x.concept.path else None for x in (side_a, side_b))
    if ka is not None and kb_ is not None and ka != kb_:
        f.kinds = (side_a.concept.path[0], side_b.concept.path[0])
        f.kinds_sim = float(normalize(kb.vector(ka)) @ normalize(kb.vector(kb_)))
    if f.lean_a is not None and f.lean_b is not None:
        f.leans_sim = float(normalize(kb.vector(f.lean_a)) @ normalize(kb.vector(f.lean_b)))
    f.lean_ties = (_tie(kb, f.lean_a, side_a), _tie(kb, f.lean_b, side_b))


def _toward_attractor(kb: Knowledge, f: PairFacts, va: np.ndarray, vb: np.ndarray, t: np.ndarray) -> None:
    """How the step, its filling and its middle move toward the attractor T (unit)."""
    ta, tb = float(va @ t), float(vb @ t)
    f.attractor_shift = tb - ta
    f.filling_attractor = float(normalize(kb.vector(f.filling)) @ t) - max(ta, tb)
    f.middle_attractor = float(normalize(kb.vector(f.middle)) @ t) - max(ta, tb)
