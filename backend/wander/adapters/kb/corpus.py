"""The concept knowledge base that ships with Wander (built from WordNet 3.0).

``data/concepts.jsonl.gz`` holds one JSON object per line, sorted by key;
``data/relations.jsonl.gz`` holds WordNet's other relations around those concepts (parts,
members, substances, attributes, derivations, verbs, domains, every lemma of a synset, and
the hypernyms above the corpus). See ``data/README.md`` for the fields and
``scripts/build_kb.py`` for how they are made. Pure standard library: nothing here imports
the rest of Wander.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

# The relation lists a concept's line in RELATIONS_FILE may hold (README.md says what each
# means), in the order they are written: the port's ConceptRelations fields.
from wander.core.engine.ports import RELATION_KINDS

__all__ = [
    "DATA_FILE",
    "LEXFILE_DOMAINS",
    "RELATIONS_FILE",
    "RELATION_KINDS",
    "VERB_FRAMES",
    "CorpusConcept",
    "CorpusRelations",
    "corpus_fingerprint",
    "load_corpus",
    "load_relations",
    "shipped_relations",
]

DATA_FILE: Path = Path(__file__).resolve().parent / "data" / "concepts.jsonl.gz"
RELATIONS_FILE: Path = DATA_FILE.parent / "relations.jsonl.gz"


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
    """SHA-256 hex digest of the data file's bytes: tells whether a loaded KB is current.
    Kept per file as it is on disk (its inode, size and modification time), so a process
    that opens many databases (a test worker: one per test) hashes the shipped corpus and
    vectors (11 MB, ~11 ms of CPU) once, and a file written anew is hashed again."""
    p = Path(path) if path is not None else DATA_FILE
    st = p.stat()
    key = (str(p.resolve()), st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    found = _FINGERPRINTS.get(key)
    if found is None:
        h = hashlib.sha256()
        with open(p, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        found = _FINGERPRINTS[key] = h.hexdigest()
    return found


_FINGERPRINTS: dict[tuple[str, int, int, int, int], str] = {}


# WordNet's generic sentence frames (wninput(5)), frame number n at [n - 1]: a verb line's
# ``frames``.
VERB_FRAMES: tuple[str, ...] = (
    "Something ----s",
    "Somebody ----s",
    "It is ----ing",
    "Something is ----ing PP",
    "Something ----s something Adjective/Noun",
    "Something ----s Adjective/Noun",
    "Somebody ----s Adjective",
    "Somebody ----s something",
    "Somebody ----s somebody",
    "Something ----s somebody",
    "Something ----s something",
    "Something ----s to somebody",
    "Somebody ----s on something",
    "Somebody ----s somebody something",
    "Somebody ----s something to somebody",
    "Somebody ----s something from somebody",
    "Somebody ----s somebody with something",
    "Somebody ----s somebody of something",
    "Somebody ----s something on somebody",
    "Somebody ----s somebody PP",
    "Somebody ----s something PP",
    "Somebody ----s PP",
    "Somebody's (body part) ----s",
    "Somebody ----s somebody to INFINITIVE",
    "Somebody ----s somebody INFINITIVE",
    "Somebody ----s that CLAUSE",
    "Somebody ----s to somebody",
    "Somebody ----s to INFINITIVE",
    "Somebody ----s whether INFINITIVE",
    "Somebody ----s somebody into V-ing something",
    "Somebody ----s something with something",
    "Somebody ----s INFINITIVE",
    "Somebody ----s VERB-ing",
    "It ----s that CLAUSE",
    "Something ----s INFINITIVE",
)


class CorpusRelations:
    """The lines of RELATIONS_FILE by WordNet key, each parsed the first time it is asked for.

    A concept's line: ``key``, ``lemmas``, ``broader`` and the non-empty RELATION_KINDS
    lists, whose entries are ``key`` or ``key|word`` (the pointer links that word of the
    target synset). A synset outside the concepts that some line names: ``key``, ``lemma``,
    and ``broader`` (nouns) or ``gloss`` (verbs and adjectives), ``lexname`` and ``frames``
    (verbs: numbers into VERB_FRAMES).
    """

    def __init__(self, lines: dict[str, str]) -> None:
        self._lines = lines
        self._parsed: dict[str, dict] = {}

    def __len__(self) -> int:
        return len(self._lines)

    def __contains__(self, key: object) -> bool:
        return key in self._lines

    def __iter__(self) -> Iterator[str]:
        """Every key, in file order: the concepts' first, then the synsets outside them."""
        return iter(self._lines)

    def get(self, key: str) -> dict | None:
        """The parsed line of KEY (shared: do not change it), None if the file has none."""
        rec = self._parsed.get(key)
        if rec is None:
            line = self._lines.get(key)
            if line is None:
                return None
            rec = self._parsed[key] = json.loads(line)
        return rec

    def broader(self, key: str) -> tuple[str, ...]:
        rec = self.get(key)
        return tuple(rec.get("broader", ())) if rec else ()

    def ancestors(self, key: str, levels: int) -> dict[str, int]:
        """Every hypernym (ordinary or instance) of KEY up to LEVELS above it, inside the
        concepts or not, mapped to its distance (1 = a direct hypernym), nearest first."""
        out: dict[str, int] = {}
        frontier = [key]
        for depth in range(1, levels + 1):
            nxt = []
            for k in frontier:
                for b in self.broader(k):
                    if b not in out and b != key:
                        out[b] = depth
                        nxt.append(b)
            frontier = nxt
        return out


_shipped: CorpusRelations | None = None


def shipped_relations() -> CorpusRelations:
    """RELATIONS_FILE, loaded once per process (every knowledge index shares it)."""
    global _shipped
    if _shipped is None:
        _shipped = load_relations()
    return _shipped


def load_relations(path: Path | None = None) -> CorpusRelations:
    """RELATIONS_FILE (or PATH, plain or gzipped JSONL), split into lines by key; each line
    is parsed only when asked for, so loading costs a decompression and a split."""
    p = Path(path) if path is not None else RELATIONS_FILE
    raw = p.read_bytes()
    text = (gzip.decompress(raw) if p.suffix == ".gz" else raw).decode("utf-8")
    lines: dict[str, str] = {}
    prefix = '{"key":"'
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith(prefix):
            key = line[len(prefix) : line.index('"', len(prefix))]
        else:  # written by something other than build_kb.py: parse it for its key
            key = str(json.loads(line)["key"])
        lines[key] = line
    return CorpusRelations(lines)
