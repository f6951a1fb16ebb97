"""The concept knowledge base that ships with Wander (built from WordNet 3.0).

``data/concepts.jsonl.gz`` holds one JSON object per line, sorted by key; see
``data/README.md`` for the fields and ``scripts/build_kb.py`` for how it is made.
Pure standard library: nothing here imports the rest of Wander.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "DATA_FILE",
    "LEXFILE_DOMAINS",
    "CorpusConcept",
    "corpus_fingerprint",
    "load_corpus",
]

DATA_FILE: Path = Path(__file__).resolve().parent / "data" / "concepts.jsonl.gz"

# WordNet's 26 noun lexicographer files without the "noun." prefix: the first entry of
# every concept's ``domains``.
LEXFILE_DOMAINS: tuple[str, ...] = (
    "Tops",
    "act",
    "animal",
    "artifact",
    "attribute",
    "body",
    "cognition",
    "communication",
    "event",
    "feeling",
    "food",
    "group",
    "location",
    "motive",
    "object",
    "person",
    "phenomenon",
    "plant",
    "possession",
    "process",
    "quantity",
    "relation",
    "shape",
    "state",
    "substance",
    "time",
)


@dataclass(frozen=True, slots=True)
class CorpusConcept:
    key: str  # stable id, e.g. "bank.n.01"
    lemma: str  # display word, e.g. "credit card"
    label: str  # unique display label, e.g. "bank (slope)"
    gloss: str  # definition without examples
    domains: tuple[str, ...]  # lexfile name first, then topic domains
    broader: tuple[str, ...]  # keys of direct hypernyms (may be absent from the corpus)
    path: tuple[str, ...]  # hypernym lemmas from the direct hypernym up to "entity"
    opposites: tuple[str, ...]  # antonym lemmas
    freq: float  # ranking weight, higher = more common (about a zipf frequency)

    @property
    def embed_text(self) -> str:
        return f"{self.lemma}: {self.gloss}"

    @classmethod
    def from_dict(cls, d: dict) -> CorpusConcept:
        return cls(
            key=str(d["key"]),
            lemma=str(d["lemma"]),
            label=str(d["label"]),
            gloss=str(d["gloss"]),
            domains=tuple(d.get("domains", ())),
            broader=tuple(d.get("broader", ())),
            path=tuple(d.get("path", ())),
            opposites=tuple(d.get("opposites", ())),
            freq=float(d.get("freq", 0.0)),
        )


def load_corpus(path: Path | None = None) -> list[CorpusConcept]:
    """All concepts, in file order (sorted by key). Accepts plain or gzipped JSONL."""
    p = Path(path) if path is not None else DATA_FILE
    opener = gzip.open if p.suffix == ".gz" else open
    out: list[CorpusConcept] = []
    with opener(p, "rt", encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line:
                out.append(CorpusConcept.from_dict(json.loads(line)))
    return out


def corpus_fingerprint(path: Path | None = None) -> str:
    """SHA-256 hex digest of the data file's bytes: tells whether a loaded KB is current."""
    p = Path(path) if path is not None else DATA_FILE
    h = hashlib.sha256()
    with open(p, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
