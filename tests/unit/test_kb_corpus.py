"""The shipped concept knowledge base (backend/wander/adapters/kb/data/concepts.jsonl.gz) and its loader."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
import re
from collections import Counter

import pytest

from wander.adapters.kb.corpus import (
    DATA_FILE,
    LEXFILE_DOMAINS,
    CorpusConcept,
    corpus_fingerprint,
    load_corpus,
)

FIELDS = {"key", "lemma", "label", "gloss", "domains", "broader", "path", "opposites", "freq"}
KEY_RE = re.compile(r"^[^\s]+\.n\.\d{2}$")


@pytest.fixture(scope="module")
def corpus() -> list[CorpusConcept]:
    return load_corpus()


@pytest.fixture(scope="module")
def by_lemma(corpus) -> dict[str, list[CorpusConcept]]:
    out: dict[str, list[CorpusConcept]] = {}
    for c in corpus:
        out.setdefault(c.lemma.lower(), []).append(c)
    return out


def test_data_file_ships_and_is_compact():
    assert DATA_FILE.is_file()
    assert DATA_FILE.name == "concepts.jsonl.gz"
    assert DATA_FILE.stat().st_size < 3_000_000
    assert (DATA_FILE.parent / "WORDNET_LICENSE.txt").is_file()


def test_size(corpus):
    assert 10_000 <= len(corpus) <= 16_500


def test_raw_records_have_exactly_the_fields_and_are_sorted():
    with gzip.open(DATA_FILE, "rt", encoding="utf-8") as fh:
        raw = [json.loads(line) for line in fh]
    assert all(set(d) == FIELDS for d in raw)
    keys = [d["key"] for d in raw]
    assert keys == sorted(keys)


def test_keys_and_labels_unique(corpus):
    keys = [c.key for c in corpus]
    assert len(set(keys)) == len(keys)
    labels = [c.label for c in corpus]
    assert len(set(labels)) == len(labels)
    assert len({lab.casefold() for lab in labels}) == len(labels)
    assert all(KEY_RE.match(k) for k in keys)


def test_labels_disambiguate_repeated_lemmas(corpus):
    counts = Counter(c.lemma.casefold() for c in corpus)
    for c in corpus:
        if counts[c.lemma.casefold()] == 1:
            assert c.label == c.lemma
        else:
            assert c.label.startswith(f"{c.lemma} (") and c.label.endswith(")"), c


def test_every_record_is_complete(corpus):
    for c in corpus:
        assert c.lemma.strip() and c.gloss.strip(), c
        assert "_" not in c.lemma
        assert c.domains and c.domains[0] in LEXFILE_DOMAINS, c
        assert len(set(c.domains)) == len(c.domains)
        assert not c.gloss.startswith('"')
        if c.key == "entity.n.01":
            assert c.path == () and c.broader == ()
        else:
            assert c.path, c
            assert c.broader, c
            assert c.path[-1] == "entity", c
            assert all(KEY_RE.match(b) for b in c.broader)
        assert isinstance(c.freq, float) and c.freq >= 0.0


def test_root_is_present(corpus):
    assert any(c.key == "entity.n.01" for c in corpus)


@pytest.mark.parametrize(
    "lemma",
    [
        "dog",
        "money",
        "bank",
        "music",
        "information",
        "market",
        "risk",
        "opportunity",
        "economy",
        "knowledge",
        "trust",
        "love",
        "city",
        "tree",
        "water",
        "computer",
    ],
)
def test_well_known_concepts_exist(by_lemma, lemma):
    assert lemma in by_lemma


def test_ambiguous_word_keeps_a_few_senses(by_lemma):
    banks = by_lemma["bank"]
    assert 2 <= len(banks) <= 3
    assert any("financial" in c.gloss or "financial" in c.label for c in banks)
    assert any("slope" in c.gloss or "land" in c.gloss for c in banks)


def test_dog_hypernym_path(by_lemma):
    (dog,) = [c for c in by_lemma["dog"] if c.domains[0] == "animal"]
    assert dog.path[0] == "canine"
    assert "mammal" in dog.path
    assert dog.path[-1] == "entity"


def test_antonym_pairs(by_lemma):
    def opposites(word: str) -> set[str]:
        return {o for c in by_lemma[word] for o in c.opposites}

    assert "disadvantage" in opposites("advantage")
    assert "death" in opposites("birth")
    assert "uncertainty" in opposites("certainty")
    assert "presence" in opposites("absence")


def test_some_records_have_opposites_and_topics(corpus):
    assert sum(1 for c in corpus if c.opposites) >= 300
    assert sum(1 for c in corpus if len(c.domains) > 1) >= 1000


def test_domain_spread(corpus):
    lexfiles = Counter(c.domains[0] for c in corpus)
    assert len(lexfiles) >= 20
    assert len({d for c in corpus for d in c.domains}) >= 20
    # The abstract domains that wanders usually start from are well represented.
    for name in ("cognition", "communication", "act", "attribute", "state", "possession"):
        assert lexfiles[name] >= 400, name
    assert lexfiles["relation"] >= 100
    topics = {d for c in corpus for d in c.domains[1:]}
    assert {"law", "medicine", "computer science"} <= topics


def test_concept_dataclass():
    c = CorpusConcept(
        key="x.n.01",
        lemma="credit card",
        label="credit card",
        gloss="a card",
        domains=("possession",),
        broader=("card.n.01",),
        path=("card", "entity"),
        opposites=(),
        freq=4.2,
    )
    assert c.embed_text == "credit card: a card"
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.lemma = "other"  # type: ignore[misc]


def test_load_corpus_from_explicit_paths(tmp_path):
    rec = {
        "key": "a.n.01",
        "lemma": "a",
        "label": "a",
        "gloss": "g",
        "domains": ["act"],
        "broader": ["b.n.01"],
        "path": ["b"],
        "opposites": ["z"],
        "freq": 1,
    }
    plain = tmp_path / "c.jsonl"
    plain.write_text(json.dumps(rec) + "\n\n", encoding="utf-8")
    gz = tmp_path / "c.jsonl.gz"
    gz.write_bytes(gzip.compress(plain.read_bytes()))
    for p in (plain, gz):
        (c,) = load_corpus(p)
        assert c.key == "a.n.01" and c.domains == ("act",) and c.opposites == ("z",)
        assert c.freq == 1.0 and isinstance(c.freq, float)


def test_fingerprint(tmp_path):
    fp = corpus_fingerprint()
    assert re.fullmatch(r"[0-9a-f]{64}", fp)
    assert fp == corpus_fingerprint(DATA_FILE) == corpus_fingerprint()
    assert fp == hashlib.sha256(DATA_FILE.read_bytes()).hexdigest()
    other = tmp_path / "other.jsonl.gz"
    other.write_bytes(DATA_FILE.read_bytes() + b"\0")
    assert corpus_fingerprint(other) != fp
