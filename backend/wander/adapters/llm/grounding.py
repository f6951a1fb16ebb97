"""Layer 3 (001) beyond PII: a model's dwelling checked for hallucination against what Wander
knows. A facet that names (in quotes, as the dwelling prompt asks) a concept that is neither
in the corpus nor one of the pair, or states a relation between corpus concepts that the
corpus does not hold ('A' is a kind of 'B', 'A' is the opposite of 'B'), is flagged: the
residue's details say which facet and what it named, and no theme is taken from what it made
up. The offline dweller writes only from the corpus, so only model residues are checked."""

from __future__ import annotations

import logging
import re
from typing import Any

import numpy as np

from wander.core.domain.models import Residue
from wander.core.engine.ports import DwellRequest, Embedder, Knowledge

log = logging.getLogger(__name__)

FACETS = ("connection", "tension", "bridge", "surprise", "possibility")
_OPEN, _CLOSE = "'\"“‘`", "'\"”’`"
_TERM = rf"[{_OPEN}]([^{_OPEN}{_CLOSE}\n]{{2,60}}?)[{_CLOSE}]"
QUOTED = re.compile(rf"(?<![\w'’]){_TERM}(?!\w)")
KIND_OF = re.compile(rf"{_TERM}\s+is\s+(?:a|an)\s+(?:kind|type|sort|form)\s+of\s+{_TERM}", re.IGNORECASE)
OPPOSITE_OF = re.compile(rf"{_TERM}\s+is\s+the\s+opposite\s+of\s+{_TERM}", re.IGNORECASE)
KIND_LEVELS = 4  # 'a kind of' holds up to this many broader steps away
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)


def named_terms(text: str) -> list[str]:
    """The concepts a facet names: its quoted terms, in order, once each."""
    out: list[str] = []
    for m in QUOTED.finditer(text or ""):
        term = _ARTICLE.sub("", m.group(1).strip())
        if len(term) >= 3 and not term.replace(".", "").isdigit() and term not in out:
            out.append(term)
    return out


class Grounding:
    def __init__(self, knowledge: Knowledge, embedder: Embedder | None = None):
        self.knowledge = knowledge
        self.embedder = embedder

    def _index(self, term: str) -> int | None:
        i = self.knowledge.find_label(term)
        return self.knowledge.find_label(term.lower()) if i is None else i

    def grounded(self, term: str, pair: list[str]) -> bool:
        t = term.lower()
        if any(t in p or p in t for p in pair):
            return True
        return self._index(term) is not None

    def _is_kind(self, a: int, b: int) -> bool:
        frontier, seen = [a], {a}
        for _ in range(KIND_LEVELS):
            frontier = [j for i in frontier for j in self.knowledge.broader(i) if j not in seen]
            if b in frontier:
                return True
            seen.update(frontier)
        return False

    def _false_relations(self, text: str) -> list[str]:
        out = []
        for pattern, holds, words in (
            (KIND_OF, self._is_kind, "is a kind of"),
            (
                OPPOSITE_OF,
                lambda i, j: j in self.knowledge.opposites(i) or i in self.knowledge.opposites(j),
                "is the opposite of",
            ),
        ):
            for a, b in pattern.findall(text or ""):
                i, j = self._index(_ARTICLE.sub("", a.strip())), self._index(_ARTICLE.sub("", b.strip()))
                if i is not None and j is not None and not holds(i, j):
                    out.append(f"'{a}' {words} '{b}'")
        return out

    def check(self, residue: Residue, request: DwellRequest) -> Residue:
        """The residue with its unfounded facets flagged (details['hallucination']) and the
        themes they made up left out; unchanged when every facet is grounded."""
        if residue.failed:
            return residue
        pair = [request.current.concept.lower(), request.encountered.concept.lower()]
        flagged: dict[str, dict[str, list[str]]] = {}
        for facet in FACETS:
            text = getattr(residue, facet) or ""
            absent = [t for t in named_terms(text) if not self.grounded(t, pair)]
            relations = self._false_relations(text)
            if absent or relations:
                flagged[facet] = {"concepts": absent, "relations": relations}
        if not flagged:
            return residue
        made_up = {t.lower() for f in flagged.values() for t in f["concepts"]}
        themes = [t for t in residue.themes if t.strip().lower() not in made_up]
        details: dict[str, Any] = {**residue.details, "hallucination": flagged}
        if themes != residue.themes:
            details["themes_left_out"] = [t for t in residue.themes if t not in themes]
            residue.themes = themes
            residue.themes_embedding = self._embed(themes)
        residue.details = details
        return residue

    def _embed(self, themes: list[str]) -> np.ndarray | None:
        if self.embedder is None or not themes:
            return None
        try:
            return np.asarray(self.embedder.embed([", ".join(themes)])[0], dtype=np.float32)
        except Exception:  # the residue stands without it, as a model dwelling's does
            log.warning("could not embed the grounded themes", exc_info=True)
            return None
