"""WordNet's relations beyond hypernyms, shipped beside the concepts (data/relations.jsonl.gz),
and the knowledge index's accessors for them, on the real shipped corpus."""

from __future__ import annotations

import gzip
import hashlib
import json

import numpy as np
import pytest

from wander.adapters.kb import corpus
from wander.adapters.kb.index import KnowledgeIndex
from wander.core.engine.ports import RELATION_KINDS, ConceptRelations, KnowledgeConcept


@pytest.fixture(scope="module")
def concepts() -> list[corpus.CorpusConcept]:
    return corpus.load_corpus()


@pytest.fixture(scope="module")
def graph() -> corpus.CorpusRelations:
    return corpus.load_relations()


@pytest.fixture(scope="module")
def kb(concepts, graph) -> KnowledgeIndex:
    kcs = [
        KnowledgeConcept(c.key, c.label, c.gloss, c.domains, c.path, c.opposites, "wordnet", c.broader)
        for c in concepts
    ]
    matrix = np.zeros((len(kcs), 4), dtype=np.float32)
    return KnowledgeIndex(kcs, matrix, graph)


def idx(kb: KnowledgeIndex, key: str) -> int:
    i = kb.index_of(key)
    assert i is not None, key
    return i


def keys(targets) -> set[str]:
    return {t.key for t in targets}


def test_the_concepts_existing_fields_are_unchanged(concepts):
    """The texts the embeddings are made from (and every other field) stay as they were
    shipped: a digest of every record's fields in file order."""
    h = hashlib.sha256()
    for c in concepts:
        row = [c.key, c.lemma, c.label, c.gloss, list(c.domains), list(c.broader), list(c.path), list(c.opposites)]
        h.update(json.dumps([*row, c.freq], ensure_ascii=False).encode() + b"\n")
    assert h.hexdigest() == "4247e76c717ae793ca20bd11320d793218a09840b6d8641092d02d7677fd65d2"


def test_relation_kinds_agree(graph):
    assert corpus.RELATION_KINDS == RELATION_KINDS
    assert set(RELATION_KINDS) <= {f.name for f in ConceptRelations.__dataclass_fields__.values()}


def test_file_is_compact_and_in_step_with_the_concepts(concepts, graph):
    assert corpus.RELATIONS_FILE.stat().st_size < 2_000_000
    with gzip.open(corpus.RELATIONS_FILE, "rt", encoding="utf-8") as fh:
        lines = [json.loads(line) for line in fh]
    head = lines[: len(concepts)]
    assert [d["key"] for d in head] == [c.key for c in concepts]
    assert all(tuple(d["broader"]) == c.broader for d, c in zip(head, concepts, strict=True))
    tail = [d["key"] for d in lines[len(concepts) :]]
    assert tail == sorted(tail) and not set(tail) & {c.key for c in concepts}
    assert len(graph) == len(lines)


def test_every_target_and_ancestor_is_known(concepts, graph):
    """Every key a line names is a concept or has a line of its own (with a lemma): nothing
    is cited that the file cannot name, and every hypernym chain reaches the root."""
    inside = {c.key for c in concepts}
    for key in graph:  # every line, not only the concepts'
        rec = graph.get(key)
        assert rec is not None
        named = list(rec.get("broader", ()))
        for kind in RELATION_KINDS:
            named += [t.split("|")[0] for t in rec.get(kind, ())]
        for k in named:
            assert k in inside or (graph.get(k) or {}).get("lemma"), (key, k)
    for c in concepts:
        if c.key != "entity.n.01":
            assert "entity.n.01" in graph.ancestors(c.key, 25), c.key


def test_lemmas_hold_every_word_of_the_synset(kb, concepts):
    car = kb.relations(idx(kb, "car.n.01"))
    assert {"car", "auto", "automobile", "motorcar"} <= set(car.lemmas)
    for i, c in enumerate(concepts):
        assert c.lemma in kb.relations(i).lemmas, c.key
        assert kb.lemma_of(c.key) == c.lemma


def test_parts_and_wholes(kb):
    wheel = kb.relations(idx(kb, "car_wheel.n.01"))
    assert "motor_vehicle.n.01" in keys(wheel.part_of)
    assert "car_wheel.n.01" in keys(kb.relations(idx(kb, "motor_vehicle.n.01")).parts)
    assert "wheeled_vehicle.n.01" in keys(kb.relations(idx(kb, "wheel.n.01")).part_of)
    car = kb.relations(idx(kb, "car.n.01"))
    fender = next(t for t in car.parts if t.key == "fender.n.01")
    assert fender.index == kb.index_of("fender.n.01") and fender.lemma == "fender"
    finger, hand = idx(kb, "finger.n.01"), idx(kb, "hand.n.01")
    assert ("part_of", hand) in kb.linked(finger) and ("parts", finger) in kb.linked(hand)


def test_relations_between_reads_from_the_first_concept(kb):
    finger, hand, car = idx(kb, "finger.n.01"), idx(kb, "hand.n.01"), idx(kb, "car.n.01")
    assert kb.relations_between(finger, hand) == ["part_of"]
    assert kb.relations_between(hand, finger) == ["parts"]
    assert kb.relations_between(finger, car) == []


def test_the_shipped_file_is_read_once_per_process():
    assert corpus.shipped_relations() is corpus.shipped_relations()
    assert "car.n.01" in corpus.shipped_relations()


def test_members_and_substances(kb):
    assert "tree.n.01" in keys(kb.relations(idx(kb, "forest.n.01")).members)
    assert "forest.n.01" in keys(kb.relations(idx(kb, "tree.n.01")).member_of)
    water = kb.relations(idx(kb, "water.n.01"))
    assert {"hydrogen.n.01", "oxygen.n.01"} <= keys(water.substances)
    assert "ice.n.01" in keys(water.substance_of)


def test_antonyms_attributes_derivations_and_verbs(kb):
    assert "disadvantage.n.01" in keys(kb.relations(idx(kb, "advantage.n.01")).antonyms)
    size = kb.relations(idx(kb, "size.n.01"))
    large = next(t for t in size.attributes if t.key == "large.a.01")
    assert large.index is None and large.lemma == "large" and large.pos == "a" and "size" in large.gloss
    assert "small.a.01" in keys(size.attributes)
    assert "musician.n.01" in keys(kb.relations(idx(kb, "music.n.01")).derivations)
    teacher = kb.relations(idx(kb, "teacher.n.01"))
    teach = next(t for t in teacher.verbs if t.key == "teach.v.01")
    assert teach.lemma == "teach" and teach.lexname == "communication" and teach.gloss
    assert "Somebody ----s somebody something" in teach.frames
    assert teacher.verb_role == "agent"
    hammer = kb.relations(idx(kb, "hammer.n.02"))
    assert "hammer.v.01" in keys(hammer.verbs) and hammer.verb_role == "instrument"
    # a pointer to another word of the target synset names that word, not the synset's lemma
    assert any(t.key == "forge.v.01" and t.lemma == "hammer" for t in hammer.verbs)


def test_antonyms_name_the_words_opposites_name(kb, concepts):
    """The keyed antonyms and the shipped `opposites` text agree: the link from the display
    word is the one kept."""
    with_opposites = [(i, c) for i, c in enumerate(concepts) if c.opposites]
    for i, c in with_opposites:
        assert set(c.opposites) & {t.lemma for t in kb.relations(i).antonyms}, c.key
    assert len(with_opposites) >= 600


def test_domains_both_ways(kb):
    cs = kb.relations(idx(kb, "computer_science.n.01"))
    assert "computer.n.01" in keys(cs.topics)
    assert len(cs.topic_members) >= 20
    france = kb.relations(idx(kb, "france.n.01"))
    assert "paris.n.01" in keys(france.parts) and france.region_members


def test_of_kind_names_the_bad_kind(kb):
    rel = kb.relations(idx(kb, "car.n.01"))
    assert rel.of_kind("parts") == rel.parts
    assert [k for k, _ in rel.linked()] == sorted((k for k, _ in rel.linked()), key=RELATION_KINDS.index)
    with pytest.raises(ValueError, match="kind"):
        rel.of_kind("hypernyms")


def test_every_key_typed_target_is_a_concept(kb):
    n = 0
    for i in range(len(kb)):
        for kind, j in kb.linked(i):
            assert kind in RELATION_KINDS and 0 <= j < len(kb) and j != i, (i, kind, j)
            n += 1
        for _kind, t in kb.relations(i).linked():
            assert (t.index is not None) == (kb.index_of(t.key) is not None)
    assert n >= 3000


def test_ancestors_within_levels(kb):
    car = idx(kb, "car.n.01")
    up2 = kb.ancestors(car, 2)
    assert up2 == {"motor_vehicle.n.01": 1, "self-propelled_vehicle.n.01": 2}
    assert kb.lemma_of("self-propelled_vehicle.n.01") == "self-propelled vehicle"  # outside the corpus
    assert kb.index_of("self-propelled_vehicle.n.01") is None
    deep = kb.ancestors(car, 30)
    assert deep["entity.n.01"] == max(deep.values())
    assert kb.ancestors(car, 0) == {}
    water = kb.ancestors(idx(kb, "water.n.01"), 1)
    assert set(water) == {"binary_compound.n.01", "liquid.n.03"}  # every hypernym, not only the first


def test_sharing_lemma_finds_other_senses(kb):
    banks = {kb.concept(j).label for j in kb.sharing_lemma(idx(kb, "bank.n.01"))}
    assert "bank (financial institution)" in banks
    car = idx(kb, "car.n.01")
    shared = kb.sharing_lemma(car)
    assert car not in shared and kb.index_of("machine.n.01") in shared  # car's synonym "machine"


def test_imported_notes_have_no_relations(graph):
    notes = [KnowledgeConcept("car.n.01", "car", "a note", ("notes",), source="import:/x")]
    kb = KnowledgeIndex(notes, np.zeros((1, 4), dtype=np.float32), graph)
    assert kb.relations(0) == ConceptRelations()
    assert kb.linked(0) == [] and kb.sharing_lemma(0) == []


def test_load_relations_from_explicit_paths(tmp_path):
    lines = [
        {"key": "a.n.01", "lemmas": ["a", "b"], "broader": ["x.n.01"], "parts": ["c.n.01|see"]},
        {"key": "x.n.01", "lemma": "ex", "broader": ["y.n.01"]},
        {"key": "y.n.01", "lemma": "why"},
    ]
    plain = tmp_path / "r.jsonl"
    plain.write_text("\n".join(json.dumps(d) for d in lines) + "\n\n", encoding="utf-8")
    gz = tmp_path / "r.jsonl.gz"
    gz.write_bytes(gzip.compress(plain.read_bytes()))
    for p in (plain, gz):
        g = corpus.load_relations(p)
        assert len(g) == 3 and "x.n.01" in g and "c.n.01" not in g
        assert g.get("a.n.01")["parts"] == ["c.n.01|see"]
        assert g.ancestors("a.n.01", 5) == {"x.n.01": 1, "y.n.01": 2}
        assert g.get("nope.n.01") is None and g.broader("nope.n.01") == ()
