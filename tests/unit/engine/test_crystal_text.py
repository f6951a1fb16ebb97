"""The offline crystal's words: the breads' own relation comes first, before the filling, and
the text draws on what the rumination found (its best evidence from the walk's memory, and
the lenses that came back empty), never on a figure."""

import re
from collections import Counter
from types import SimpleNamespace

import numpy as np

from wander.core.engine.crystal_text import SENTENCE_END, bread_sentence, gloss_word, name_word, plain_insight
from wander.core.engine.text_openings import LIMIT, Masker


def unit(*xs):
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


ROWS = [  # label, vector, path, gloss
    ("violin", unit(1, 0, 0, 0), ("bowed instrument", "instrument"), "a bowed stringed instrument"),
    ("drum", unit(0.5, 0.86, 0, 0), ("percussion instrument", "instrument"), "a percussion instrument"),
    ("orchestra", unit(0.75, 0.6, 0.2, 0), ("musical organization", "group"), "a musical organization"),
    ("bow", unit(0.9, -0.3, 0.3, 0), ("implement",), "a stick strung with horsehair"),
    ("drumstick", unit(0.1, 0.9, -0.3, 0.2), ("stick",), "a stick used for playing a drum"),
]


class Corpus:
    def concept(self, i):
        label, _, path, gloss = ROWS[i]
        return SimpleNamespace(label=label, path=path, gloss=gloss)

    def vector(self, i):
        return ROWS[i][1]

    def nearest(self, v, k, exclude=()):
        sims = np.stack([r[1] for r in ROWS]) @ (v / np.linalg.norm(v))
        order = [int(i) for i in np.argsort(-sims, kind="stable") if int(i) not in exclude]
        return [(i, float(sims[i])) for i in order[:k]]


def bread(i):
    return SimpleNamespace(concept=ROWS[i][0], embedding=ROWS[i][1])


RUM = SimpleNamespace(
    steps=[
        {"lens": "constraints", "evidence_ids": ["budget"]},
        {"lens": "connection", "evidence_ids": ["r1#connection"]},
        {"lens": "resonances", "evidence_ids": ["res1"]},
        {"lens": "compost", "evidence_ids": []},
        {"lens": "crystals", "evidence_ids": ["c9"], "rejected": "cites ids the queries did not return"},
    ],
    evidence={
        "budget": {"summary": "cloud budget 0/100 cents, drift at most 0.8", "sim": 0.0},
        "r1#connection": {"summary": "'violin' and 'drum' meet in the orchestra pit", "sim": 0.9},
        "res1": {"summary": "percussion, strings, ensemble", "sim": 0.6},
        "c9": {"summary": "an invented crystal", "sim": 0.99},
    },
)


def test_the_bread_relation_comes_before_the_filling_and_the_findings_follow():
    text = plain_insight(Corpus(), bread(0), bread(1), 0, 1, 2, None, frozenset(), "kin:instrument", RUM)
    assert text.startswith("'violin' and 'drum' are both kinds of 'instrument'. Between them stands 'orchestra'")
    # a wander whose insights opened alike three times already says it another way, still
    # with the breads' tie before the filling
    said = frozenset(
        s
        for i in range(3)
        for s in (f"'x{i}' and 'y{i}' are both kinds of 'z{i}'.", f"Between them stands 'w{i}' (a thing).")
    )
    other = plain_insight(Corpus(), bread(0), bread(1), 0, 1, 2, None, said, "kin:instrument", RUM)
    assert not other.startswith("'violin' and 'drum' are both kinds of")
    assert other.index("'violin'") < other.index("'orchestra'") and "'instrument'" in other.split("'orchestra'")[0]
    assert text.index("'instrument'") < text.index("'orchestra'")
    # the walk's own memory (a resonance) before a facet; never the budget line's figures, nor
    # a rejected step's evidence; the empty lens is named
    assert 'Looking back through its resonances, the walk found "percussion, strings, ensemble"' in text
    assert "0.8" not in text and "invented" not in text
    assert "It found no compost near it." in text
    assert "Between them stands" not in other and "'orchestra' (a musical organization)" in other


def test_each_bread_relation_reads_in_words():
    a, b = bread(0), bread(1)
    assert bread_sentence(a, b, "relation:parts") == "'violin' has 'drum' as a part"
    assert bread_sentence(a, b, "relation_back:parts") == "'drum' has 'violin' as a part"
    assert bread_sentence(a, b, "kind_of:second") == "'drum' is a kind of 'violin'"
    assert bread_sentence(a, b, "opposites") == "'violin' and 'drum' are opposites in the corpus"
    assert "without sharing a kind" in bread_sentence(a, b, "similar")
    assert "no tie of their own" in bread_sentence(a, b, None)


def test_words_two_glosses_or_two_names_share():
    assert gloss_word("a bowed stringed instrument", "a plucked stringed instrument", {"violin"}) == "stringed"
    assert gloss_word("a stick used for playing", "a person who is playing", set()) == "playing"
    assert gloss_word("a bowed instrument", "a percussion instrument", {"instrument"}) == ""  # a name's own word
    assert gloss_word("something used especially", "something used especially", set()) == ""  # common words
    assert name_word("chamber music", "rock music") == "music"
    assert name_word("side road (way)", "road") == "road" and name_word("violin", "drum") == ""


def test_a_second_crystal_on_the_same_breads_says_their_tie_another_way():
    first = plain_insight(Corpus(), bread(0), bread(1), 0, 1, 2, None, frozenset(), "kin:instrument", RUM)
    tie = first.split(". ")[0] + "."
    said = frozenset(s for s in re.split(r"(?<=[.!?])\s+", first))
    second = plain_insight(Corpus(), bread(0), bread(1), 0, 1, 3, None, said, "kin:instrument", RUM)
    assert tie in said and tie not in second
    assert second.index("'violin'") < second.index("'bow'")  # still the breads' tie first


class ManyCorpus(Corpus):
    """Sixteen sandwiches' concepts, each with a name of its own: breads 3k and 3k+1, filling 3k+2."""

    def __init__(self):
        rng = np.random.default_rng(7)
        self.rows = [
            (f"{kind}{k}", unit(*rng.normal(size=4)), (f"{kind}kind{k}", "thing"), f"a {kind} of sort {k}")
            for k in range(16)
            for kind in ("left", "right", "middle")
        ]

    def concept(self, i):
        label, _, path, gloss = self.rows[i]
        return SimpleNamespace(label=label, path=path, gloss=gloss)

    def vector(self, i):
        return self.rows[i][1]

    def nearest(self, v, k, exclude=()):
        sims = np.stack([r[1] for r in self.rows]) @ (v / np.linalg.norm(v))
        order = [int(i) for i in np.argsort(-sims, kind="stable") if int(i) not in exclude]
        return [(i, float(sims[i])) for i in order[:k]]


def test_a_wander_of_twelve_crystals_opens_no_four_of_ten_insights_alike():
    # a 300-step wander forms up to 12 crystals, most of breads that are near without a kind
    # in common, and a few reworked first tries said their words too: every sentence has
    # phrasings enough that none of the crystals' insights opens four of ten alike
    kb, said, texts = ManyCorpus(), set(), []
    masker = Masker()
    for k in range(16):
        b1, b2 = (SimpleNamespace(concept=kb.rows[i][0], embedding=kb.rows[i][1]) for i in (3 * k, 3 * k + 1))
        relation = "similar" if k % 3 else f"kin:kind{k}"
        text = plain_insight(kb, b1, b2, 3 * k, 3 * k + 1, 3 * k + 2, None, frozenset(said), relation, RUM)
        said.update(s for s in SENTENCE_END.split(text) if s.strip())
        if k % 4 != 3:  # every fourth was a first try, reworked into the next
            texts.append({masker.opening(s) for s in SENTENCE_END.split(text) if s.strip()})
    assert len(texts) == 12
    for i in range(len(texts) - 9):
        counts = Counter(o for t in texts[i : i + 10] for o in t)
        assert max(counts.values()) <= LIMIT, counts.most_common(3)
