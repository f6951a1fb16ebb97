"""Every relation kind of 004 between sandwiches (wander.core.sandwich.relations), on constructed
vectors: each one found where it holds and not where it does not."""

from __future__ import annotations

import numpy as np

from wander.core.sandwich.relations import KINDS, SandwichFacts, lineage, relate

DIM = 32
BASIS = np.linalg.qr(np.random.default_rng(3).normal(size=(DIM, DIM)))[0].T.astype(np.float32)


def v(*parts: tuple[int, float]) -> np.ndarray:
    out = np.zeros(DIM, dtype=np.float32)
    for i, w in parts:
        out += w * BASIS[i]
    return out


def facts(sid, top, filling, bottom, vectors, stype="Bound", domains=("math",), lineage_=None, embedding=None):
    vecs = dict(zip(("bread_top", "filling", "bread_bottom"), vectors))
    emb = embedding if embedding is not None else sum(vecs.values())
    return SandwichFacts(
        sid,
        {"bread_top": top, "filling": filling, "bread_bottom": bottom},
        vecs,
        emb,
        stype,
        tuple(domains),
        {k: tuple(x) for k, x in (lineage_ or {}).items()},
    )


def kinds(rels, a=None, b=None):
    return {r.relation_type for r in rels if (a is None or r.sandwich_a == a) and (b is None or r.sandwich_b == b)}


def test_similar_needs_close_sandwich_embeddings():
    a = facts("a", "x", "y", "z", [v((0, 1)), v((1, 1)), v((2, 1))], embedding=v((5, 1)))
    near = facts("b", "p", "q", "r", [v((6, 1)), v((7, 1)), v((8, 1))], embedding=v((5, 1), (9, 0.3)))
    far = facts("c", "s", "t", "u", [v((10, 1)), v((11, 1)), v((12, 1))], embedding=v((5, 1), (9, 1.5)))
    rels = relate(a, [near, far])
    assert kinds(rels, "a", "b") == {"similar"} and kinds(rels, "a", "c") == set()
    sim = next(r for r in rels if r.relation_type == "similar")
    assert 0.8 <= sim.similarity_score <= 1 and "cosine" in sim.rationale


def test_same_bread_and_same_filling():
    a = facts("a", "heat", "entropy", "cold", [v((0, 1)), v((1, 1)), v((2, 1))], embedding=v((20, 1)))
    b = facts("b", "cold", "memory", "order", [v((2, 1)), v((3, 1)), v((4, 1))], embedding=v((21, 1)))
    c = facts("c", "light", "entropy", "dark", [v((5, 1)), v((1, 1)), v((6, 1))], embedding=v((22, 1)))
    rels = relate(a, [b, c])
    assert kinds(rels, "a", "b") == {"same_bread"} and "cold" in next(r.rationale for r in rels if r.sandwich_b == "b")
    assert kinds(rels, "a", "c") == {"same_filling"}


def test_inverse_is_the_same_breads_in_opposite_roles():
    top, bottom = v((0, 1)), v((2, 1))
    a = facts("a", "thesis", "synthesis", "antithesis", [top, v((1, 1)), bottom], embedding=v((20, 1)))
    swapped = facts("b", "antithesis", "compromise", "thesis", [bottom, v((3, 1)), top], embedding=v((21, 1)))
    # by embeddings alone: other labels, the same concepts
    near_swapped = facts(
        "c",
        "counter-thesis",
        "middle",
        "the thesis",
        [bottom + 0.05 * v((9, 1)), v((4, 1)), top + 0.05 * v((10, 1))],
        embedding=v((22, 1)),
    )
    same_order = facts("d", "thesis", "other", "antithesis", [top, v((5, 1)), bottom], embedding=v((23, 1)))
    rels = relate(a, [swapped, near_swapped, same_order])
    assert "inverse" in kinds(rels, "a", "b") and "inverse" in kinds(rels, "a", "c")
    assert "inverse" not in kinds(rels, "a", "d")
    # a stored sandwich without bread embeddings relates by label only
    unembedded = facts("e", "antithesis-ish", "x", "thesis", [None, v((6, 1)), None], embedding=v((24, 1)))
    assert "inverse" not in kinds(relate(a, [unembedded]))


def test_generalization_points_from_the_specific_to_the_general():
    b1, b2 = v((0, 1)), v((2, 1))
    specific = facts(
        "s", "predator", "wolf", "prey", [b1, v((1, 1)), b2], lineage_={"filling": ["canine", "carnivore", "mammal"]}
    )
    general = facts("g", "predator", "carnivore", "prey", [b1, v((3, 1)), b2], lineage_={"filling": ["mammal"]})
    unrelated = facts("u", "predator", "sheep", "prey", [b1, v((4, 1)), b2], lineage_={"filling": ["mammal"]})
    other_breads = facts("o", "hunter", "carnivore", "forest", [v((5, 1)), v((3, 1)), v((6, 1))])
    rels = relate(specific, [general, unrelated, other_breads])
    gen = [r for r in rels if r.relation_type == "generalization"]
    assert [(r.sandwich_a, r.sandwich_b) for r in gen] == [("s", "g")]
    assert "carnivore is a broader concept of wolf" in gen[0].rationale
    # stored the other way round (the general one new): still from the specific to the general
    back = [r for r in relate(general, [specific]) if r.relation_type == "generalization"]
    assert [(r.sandwich_a, r.sandwich_b) for r in back] == [("s", "g")]


def test_domain_transfer_is_the_same_shape_in_other_domains():
    a = facts("a", "upper", "x", "lower", [v((0, 1)), v((1, 1)), v((2, 1))], domains=("math",), embedding=v((20, 1)))
    # its breads' offset (top - bottom) parallel to a's, in disjoint domains, same type
    moved = facts(
        "b",
        "ceiling",
        "y",
        "floor",
        [v((0, 1), (7, 1)), v((3, 1)), v((2, 1), (7, 1))],
        domains=("architecture",),
        embedding=v((21, 1)),
    )
    same_domain = facts(
        "c", "ceiling", "y", "floor", [v((0, 1), (7, 1)), v((3, 1)), v((2, 1), (7, 1))], domains=("math",)
    )
    other_type = facts(
        "d",
        "ceiling",
        "y",
        "floor",
        [v((0, 1), (7, 1)), v((3, 1)), v((2, 1), (7, 1))],
        stype="Temporal",
        domains=("architecture",),
    )
    other_shape = facts(
        "e", "red", "y", "blue", [v((8, 1)), v((3, 1)), v((9, 1))], domains=("art",), embedding=v((22, 1))
    )
    rels = relate(a, [moved, same_domain, other_type, other_shape])
    assert "domain_transfer" in kinds(rels, "a", "b")
    for other in "cde":
        assert "domain_transfer" not in kinds(rels, "a", other)
    dt = next(r for r in rels if r.relation_type == "domain_transfer")
    assert "math" in dt.rationale and "architecture" in dt.rationale and dt.similarity_score >= 0.5


def test_every_kind_is_covered_and_a_sandwich_is_not_related_to_itself():
    a = facts("a", "x", "y", "z", [v((0, 1)), v((1, 1)), v((2, 1))])
    assert relate(a, [a]) == []
    assert set(KINDS) == {"similar", "same_bread", "same_filling", "inverse", "generalization", "domain_transfer"}


def test_lineage_names_the_broader_concepts_nearest_first():
    class Kb:
        def ancestors(self, index, levels):
            return {"k.mammal": 2, "k.canine": 1, "k.unknown": 3}

        def lemma_of(self, key):
            return {"k.mammal": "mammal", "k.canine": "canine"}.get(key)

    class Ing:
        def __init__(self, index):
            self.index = index

    got = lineage(Kb(), {"filling": Ing(4), "bread_top": Ing(-1)})
    assert got == {"filling": ["canine", "mammal"]}
