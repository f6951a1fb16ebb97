"""A crystal's novelty is measured against the accepted crystals only, by what the sandwiches
are about (their breads and filling), not by the phrasing their insights share."""

import asyncio
from types import SimpleNamespace

import numpy as np
import pytest

from wander.adapters.memory.inmemory_store import InMemoryStore
from wander.core.engine.crystallizer import Crystallizer, accepted_crystals

LABELS = ["hound", "tabby", "between", "reef", "harbour", "tide"]


def unit(*xs):
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


VECTORS = {
    "hound": unit(1, 0, 0, 0),
    "tabby": unit(0.5, 0.866, 0, 0),
    "between": unit(0.7, 0.55, 0.45, 0),
    "reef": unit(0, 0, 0.2, 1),
    "harbour": unit(0, 0.3, 0, 1),
    "tide": unit(0.1, 0, 0.5, 1),
}


class Corpus:
    def find_label(self, text):
        return LABELS.index(text) if text in LABELS else None

    def vector(self, i):
        return VECTORS[LABELS[i]]


def locus(lid, label):
    return SimpleNamespace(id=lid, embedding=VECTORS[label])


def crystal(cid, session_id, a, b, filling, insight, verdict="accepted", human_approved=False):
    return SimpleNamespace(
        id=cid,
        session_id=session_id,
        bread_a_locus_id=a,
        bread_b_locus_id=b,
        validity={"filling": filling, "verdict": verdict},
        embedding=insight,
        human_approved=human_approved,
    )


def setup(store_loci=None):
    here = {
        lo.id: lo for lo in (locus("l1", "hound"), locus("l2", "tabby"), locus("l3", "reef"), locus("l4", "harbour"))
    }
    walk = SimpleNamespace(knowledge=Corpus(), by_id=here, session=SimpleNamespace(id="s1"))
    store = InMemoryStore()
    for (session_id, locus_id), lo in (store_loci or {}).items():
        store.loci.setdefault(session_id, {})[locus_id] = lo
    cz = Crystallizer(store, embedder=None, ruminator=None, clock=None)
    return cz, walk, here


def novelty(cz, walk, b1, filling, b2, insight, accepted):
    return asyncio.run(cz.substances.novelty(walk, b1, LABELS.index(filling), b2, insight, accepted))


def test_the_same_sandwich_in_other_words_is_not_novel_and_another_is():
    cz, walk, lo = setup()
    phrasing = unit(1, 1, 1, 1)  # both insights worded alike
    old = crystal("c1", "s1", "l1", "l2", "between", phrasing)
    assert novelty(cz, walk, lo["l1"], "between", lo["l2"], unit(0, 0, 0, 1), [old]) == pytest.approx(0.0, abs=1e-5)
    # another sandwich, though its insight is phrased exactly like the accepted one's
    other = novelty(cz, walk, lo["l3"], "tide", lo["l4"], phrasing, [old])
    assert other > 0.6
    assert novelty(cz, walk, lo["l3"], "tide", lo["l4"], phrasing, []) == 1.0


def test_a_crystal_of_another_wander_is_rebuilt_from_the_store_or_compared_by_text():
    far = {("s0", "x1"): locus("x1", "reef"), ("s0", "x2"): locus("x2", "harbour")}
    cz, walk, lo = setup(far)
    rebuilt = crystal("c2", "s0", "x1", "x2", "tide", unit(1, 0, 0, 0))
    assert novelty(cz, walk, lo["l3"], "tide", lo["l4"], unit(0, 1, 0, 0), [rebuilt]) == pytest.approx(0.0, abs=1e-5)
    # its bread locus is gone: its insight's text is what there is to compare with
    gone = crystal("c3", "s0", "x1", "missing", "tide", unit(0, 1, 0, 0))
    assert novelty(cz, walk, lo["l1"], "between", lo["l2"], unit(0, 1, 0, 0), [gone]) == pytest.approx(0.0, abs=1e-5)
    assert novelty(cz, walk, lo["l1"], "between", lo["l2"], unit(0, 0, 1, 0), [gone]) == pytest.approx(1.0, abs=1e-5)


def test_only_accepted_crystals_are_what_novelty_is_measured_against():
    v = unit(1, 0, 0, 0)
    crystals = [
        crystal("a", "s1", "l1", "l2", "between", v, verdict="accepted"),
        crystal("r", "s1", "l1", "l2", "between", v, verdict="review"),
        crystal("h", "s1", "l1", "l2", "between", v, verdict="review", human_approved=True),
    ]
    assert [c.id for c in accepted_crystals(crystals)] == ["a", "h"]
