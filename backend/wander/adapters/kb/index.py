"""The Knowledge port in memory: every concept's unit embedding in one float32 matrix.

A wander step scores the whole knowledge base against the current locus; one matrix
product over ~15k x 384 floats takes a few milliseconds, far less than a round trip to
pgvector per candidate. Postgres (with its HNSW index) stays the store of record and
serves the search endpoints.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from wander.adapters.kb import corpus
from wander.adapters.kb.concept_table import ConceptTable, ListConcepts
from wander.core.domain.geometry import top_k
from wander.core.engine.ports import ConceptRelations, KnowledgeConcept, RelatedConcept

# Similarity rows kept (56 KB each over 14k concepts): the current locus's and those of the
# walk's last few loci, which the analogy strategy combines instead of scanning again.
RECENT_ROWS = 32

# The source name of the shipped corpus's concepts: only they have WordNet relations.
WORDNET_SOURCE = "wordnet"

# How a noun stands to its derivationally related verbs, by its lexicographer file
# (WordNet's morphosemantic link types are not part of its database files).
VERB_ROLES: dict[str, str] = {
    **dict.fromkeys(("person", "animal", "group"), "agent"),
    **dict.fromkeys(("artifact", "food", "substance", "body", "plant", "object", "possession"), "instrument"),
    **dict.fromkeys(("act", "event", "process", "phenomenon", "communication", "cognition", "feeling", "state"), "act"),
}


class KnowledgeIndex:
    _concepts: Sequence[KnowledgeConcept] | ConceptTable
    _by_key: Mapping[str, int] | _Lookup
    _by_label: Mapping[str, int] | _Lookup

    def __init__(
        self,
        concepts: Sequence[KnowledgeConcept],
        matrix: np.ndarray,
        relations: corpus.CorpusRelations | None = None,
    ):
        """RELATIONS: WordNet's relations by key (the shipped file's, read on first use, when
        not given)."""
        if len(concepts) != len(matrix):
            raise ValueError("concepts and matrix rows differ in number")
        table = ListConcepts(concepts)
        self._use_table(table, relations)
        self._concepts = table.concepts  # the list itself: read on every step
        self._by_key = table.by_key
        self._by_label = table.by_label
        self._matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        self.dim = int(self._matrix.shape[1]) if len(self._matrix) else 0
        self._membership = np.zeros((len(table.domain_names), len(table)), dtype=bool)
        for d in range(len(table.domain_names)):
            self._membership[d, table.members(d)] = True
        # The last few vectors' similarity rows: one step asks for the current locus's row
        # from several strategies; each row is computed once (read-only, shared).
        self._recent: OrderedDict[bytes, np.ndarray] = OrderedDict()

    def _use_table(self, table: ConceptTable, relations: corpus.CorpusRelations | None) -> None:
        """The concept side of the index: the table's lookups, and the caches filled on use."""
        self._table = table
        self._concepts = table
        self._by_key = _Lookup(table.index_of)
        self._by_label = _Lookup(table.find_label)
        self._domain_ids = {name: i for i, name in enumerate(table.domain_names)}
        self._primary = table.primary
        self._counts = table.counts
        self._centroids: dict[str, np.ndarray | None] = {}
        self._neighbours: dict[tuple[int, float], tuple[tuple[str, int, float], ...]] = {}
        self._reach: np.ndarray | None = None  # per concept x primary domain: best similarity
        self._reach_counts: dict[float, np.ndarray] = {}  # domain_reach per threshold
        self._members: dict[int, np.ndarray] = {}  # concept indices per primary domain
        self._content_key: str | None = None
        self._reach_domains: np.ndarray | None = None
        self._reach_lock = threading.Lock()
        self._graph = relations
        self._relations: dict[int, ConceptRelations] = {}
        self._linked: dict[int, list[tuple[str, int]]] = {}
        self._ancestors: dict[tuple[int, int], dict[str, int]] = {}
        self._lemma_groups: dict[str, list[int]] | None = None

    # ---- corpus relations ----------------------------------------------------------------

    def broader(self, index: int) -> list[int]:
        return [j for key in self._concepts[index].broader if (j := self._by_key.get(key)) is not None]

    def narrower(self, index: int) -> list[int]:
        return self._table.narrower(index)

    def opposites(self, index: int) -> list[int]:
        """Corpus antonyms of a concept that are themselves in the knowledge base."""
        return [j for name in self._concepts[index].opposites if (j := self.find_label(name)) is not None]

    # ---- WordNet's other relations (read from the shipped file on first use) -------------

    def _wordnet(self) -> corpus.CorpusRelations:
        if self._graph is None:
            self._graph = corpus.shipped_relations()
        return self._graph

    def _record(self, index: int) -> dict | None:
        c = self._concepts[index]
        return self._wordnet().get(c.key) if c.source == WORDNET_SOURCE else None

    def _lemma(self, index: int) -> str:
        return self._concepts[index].label.split(" (")[0]

    def _target(self, text: str) -> RelatedConcept:
        key, _, word = text.partition("|")
        j = self._by_key.get(key)
        if j is not None:
            return RelatedConcept(key, word or self._lemma(j), j)
        node = self._wordnet().get(key) or {}
        frames = tuple(corpus.VERB_FRAMES[n - 1] for n in node.get("frames", ()) if 0 < n <= len(corpus.VERB_FRAMES))
        lemma = word or str(node.get("lemma", key))
        return RelatedConcept(key, lemma, None, node.get("gloss", ""), node.get("lexname", ""), frames)

    def relations(self, index: int) -> ConceptRelations:
        """WordNet's relations of a concept beyond its hypernyms, and every lemma of it."""
        rel = self._relations.get(index)
        if rel is None:
            rec = self._record(index)
            if rec is None:
                rel = ConceptRelations()
            else:
                fields = {kind: tuple(self._target(t) for t in rec.get(kind, ())) for kind in corpus.RELATION_KINDS}
                role = VERB_ROLES.get(self._concepts[index].domains[0], "related") if fields["verbs"] else ""
                rel = ConceptRelations(lemmas=tuple(rec.get("lemmas", ())), verb_role=role, **fields)
            self._relations[index] = rel
        return rel

    def linked(self, index: int) -> list[tuple[str, int]]:
        """(kind, concept index) for every relation target that is a concept here."""
        found = self._linked.get(index)
        if found is None:
            found = [(kind, t.index) for kind, t in self.relations(index).linked() if t.index is not None]
            self._linked[index] = found
        return list(found)

    def relations_between(self, index: int, other: int) -> list[str]:
        """The relation kinds by which OTHER is a target of INDEX ("parts": OTHER is a part of
        INDEX); hypernymy is broader/narrower."""
        return [kind for kind, j in self.linked(index) if j == other]

    def _broader_keys(self, key: str) -> tuple[str, ...]:
        j = self._by_key.get(key)
        return self._concepts[j].broader if j is not None else self._wordnet().broader(key)

    def ancestors(self, index: int, levels: int) -> dict[str, int]:
        """Hypernym keys up to LEVELS above a concept, in the corpus or not -> distance (1 = direct)."""
        found = self._ancestors.get((index, levels))
        if found is None:
            own = self._concepts[index].key
            found, frontier = {}, [own]
            for depth in range(1, levels + 1):
                frontier = [b for k in frontier for b in self._broader_keys(k) if b not in found and b != own]
                for b in frontier:
                    found.setdefault(b, depth)
            self._ancestors[(index, levels)] = found
        return dict(found)

    def lemma_of(self, key: str) -> str | None:
        j = self._by_key.get(key)
        if j is not None:
            return self._lemma(j)
        node = self._wordnet().get(key)
        return str(node["lemma"]) if node and "lemma" in node else None

    def sharing_lemma(self, index: int) -> list[int]:
        """Other concepts with a lemma in common (case-folded): another sense of one of its words."""
        if self._lemma_groups is None:
            groups: dict[str, list[int]] = {}
            for i in range(len(self._concepts)):
                rec = self._record(i)
                for lemma in {w.casefold() for w in (rec or {}).get("lemmas", ())}:
                    groups.setdefault(lemma, []).append(i)
            self._lemma_groups = groups
        rec = self._record(index)
        words = {w.casefold() for w in (rec or {}).get("lemmas", ())}
        return sorted({j for w in words for j in self._lemma_groups.get(w, ()) if j != index})

    # ---- per-domain neighbourhoods (bridging) --------------------------------------------

    def prepare_domain_reach(self) -> None:
        """Compute the per-domain neighbourhoods now (a server's warm-up), not in a first step."""
        self._domain_reach()

    def _domain_reach(self) -> tuple[np.ndarray, np.ndarray]:
        """For every concept, its best similarity to any concept of each primary domain: one
        neighbourhood per domain, computed once (chunked matrix products, ~2 s for 14k; a
        second thread asking meanwhile waits for it)."""
        if self._reach is None:
            with self._reach_lock:
                if self._reach is None:
                    self._compute_domain_reach()
        return self._reach, self._reach_domains  # type: ignore[return-value]

    def _compute_domain_reach(self) -> None:
        order = np.argsort(self._primary, kind="stable")
        doms = self._primary[order]
        starts = np.flatnonzero(np.r_[True, doms[1:] != doms[:-1]])
        sorted_matrix = self._matrix[order]
        position = np.empty_like(order)
        position[order] = np.arange(len(order))
        reach = np.empty((len(self._concepts), len(starts)), dtype=np.float32)
        for s in range(0, len(self._concepts), 1024):
            sims = self._matrix[s : s + 1024] @ sorted_matrix.T
            rows = np.arange(s, min(s + 1024, len(self._concepts)))
            sims[rows - s, position[rows]] = -1.0  # a concept is not its own neighbour
            reach[s : s + 1024] = np.maximum.reduceat(sims, starts, axis=1)
        self._reach_domains, self._reach = doms[starts], reach

    def content_key(self) -> str:
        """A digest of what the derived tables depend on: the vectors and primary domains."""
        if self._content_key is None:
            h = hashlib.sha1(self._matrix.tobytes())
            h.update(self._primary.tobytes())
            h.update("\n".join(self._domain_ids).encode())
            self._content_key = h.hexdigest()
        return self._content_key

    def domain_reach_table(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The per-domain neighbourhoods, if computed already (wiring keeps them on disk)."""
        return None if self._reach is None or self._reach_domains is None else (self._reach, self._reach_domains)

    def adopt_domain_reach(self, reach: np.ndarray, domains: np.ndarray) -> None:
        """Take neighbourhoods computed by an earlier process over the same content_key()."""
        if reach.shape != (len(self._concepts), len(domains)):
            raise ValueError(f"reach table of shape {reach.shape} for {len(self._concepts)} concepts")
        self._reach, self._reach_domains = reach.astype(np.float32, copy=False), domains
        self._reach_counts.clear()

    def domain_reach(self, threshold: float) -> np.ndarray:
        """Per concept: how many primary domains other than its own hold a concept at least
        `threshold` similar to it (a bridge spans several such neighbourhoods)."""
        if threshold not in self._reach_counts:  # the bridging strategy asks every step
            reach, doms = self._domain_reach()
            near = reach >= threshold
            own = doms[None, :] == self._primary[:, None]
            counts = (near & ~own).sum(axis=1)
            counts.flags.writeable = False
            self._reach_counts[threshold] = counts
        return self._reach_counts[threshold]

    def domain_neighbours(self, index: int, threshold: float) -> list[tuple[str, int, float]]:
        """(domain, nearest concept of that domain, similarity) for each other domain reached."""
        cached = self._neighbours.get((index, threshold))
        if cached is not None:
            return list(cached)
        reach, doms = self._domain_reach()
        names = {v: k for k, v in self._domain_ids.items()}
        out = []
        v = self._matrix[index]
        for col in np.flatnonzero(reach[index] >= threshold):
            d = int(doms[col])
            if d == self._primary[index]:
                continue
            if d not in self._members:
                self._members[d] = np.flatnonzero(self._primary == d)
            members = self._members[d]
            members = members[members != index]
            sims = self._matrix[members] @ v  # only this domain's members, not the whole corpus
            best = int(members[np.argmax(sims)])
            out.append((names[d], best, float(sims.max())))
        out.sort(key=lambda t: -t[2])
        self._neighbours[(index, threshold)] = tuple(out)  # fixed for the index's lifetime
        return out

    def __len__(self) -> int:
        return len(self._concepts)

    def domains(self) -> set[str]:
        return set(self._domain_ids)

    def concept(self, index: int) -> KnowledgeConcept:
        return self._concepts[index]

    def vector(self, index: int) -> np.ndarray:
        return self._matrix[index]

    def vectors(self, indices: np.ndarray) -> np.ndarray:
        return self._matrix[indices]

    def index_of(self, key: str) -> int | None:
        return self._by_key.get(key)

    def find_label(self, text: str) -> int | None:
        return self._by_label.get(" ".join(text.lower().split()))

    def similarities(self, v: np.ndarray) -> np.ndarray:
        """Cosine similarity of v to every concept (read-only; copy before changing it). A
        matrix of column vectors gives one column per vector."""
        v = np.asarray(v, dtype=np.float32)
        if v.ndim != 1:
            return self._matrix @ v
        key = v.tobytes()
        row = self._recent.get(key)
        if row is None:
            row = self._matrix @ v
            row.flags.writeable = False
            self._recent[key] = row
            while len(self._recent) > RECENT_ROWS:
                try:
                    self._recent.popitem(last=False)
                except KeyError:
                    break
        else:
            try:
                self._recent.move_to_end(key)  # least recently used goes first
            except KeyError:
                pass  # dropped by another thread meanwhile: the row is still good
        return row

    def unit_similarities(self, v: np.ndarray) -> np.ndarray:
        v = np.asarray(v, dtype=np.float32)
        norm = float(np.sqrt(v @ v))
        return self.similarities(v) / norm if norm > 0 else np.zeros(len(self._concepts), dtype=np.float32)

    def primary_domain_ids(self) -> np.ndarray:
        return self._primary

    def domain_counts(self) -> np.ndarray:
        return self._counts

    def domain_id(self, name: str) -> int:
        return self._domain_ids.get(name, -2)

    def domain_centroid(self, name: str) -> np.ndarray | None:
        """Mean embedding of a domain's concepts (cached: the tension strategy asks every step)."""
        if name not in self._centroids:
            d = self._domain_ids.get(name)
            members = np.flatnonzero(self._membership[d]) if d is not None else np.zeros(0, dtype=int)
            self._centroids[name] = self._matrix[members].mean(axis=0) if len(members) else None
        return self._centroids[name]

    def domain_mask(self, allowed: Sequence[str], forbidden: Sequence[str]) -> np.ndarray:
        mask: np.ndarray = np.ones(len(self._concepts), dtype=bool)
        known_allowed = [self._domain_ids[d] for d in allowed if d in self._domain_ids]
        if allowed:
            mask = np.asarray(self._membership[known_allowed].any(axis=0) if known_allowed else ~mask)
        for d in forbidden:
            if d in self._domain_ids:
                mask &= ~self._membership[self._domain_ids[d]]
        return mask

    def nearest(self, v: np.ndarray, k: int, exclude: Sequence[int] = ()) -> list[tuple[int, float]]:
        return top_k(self.similarities(v), k, exclude)


class _Lookup:
    """A table's lookup (by key, by label) read like a dictionary's get."""

    def __init__(self, find: Callable[[str], int | None]):
        self._find = find

    def get(self, text: str, default: int | None = None) -> int | None:
        found = self._find(text)
        return default if found is None else found
