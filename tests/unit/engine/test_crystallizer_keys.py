"""A bread locus whose key is missing from the corpus is not concept 0."""

from wander.core.engine.crystallizer import are_opposites

KEYS = {"light": 0, "dark": 1, "lamp": 2}
ANTONYMS = {0: [1], 1: [0], 2: []}


class Corpus:
    """Concept 0 'light' is the opposite of concept 1 'dark'."""

    def index_of(self, key):
        return KEYS.get(key)

    def opposites(self, index):
        return ANTONYMS[index]


def test_missing_key_is_not_concept_zero():
    kb = Corpus()
    assert are_opposites(kb, "light", "dark") and are_opposites(kb, "dark", "light")
    assert not are_opposites(kb, "not-in-corpus", "dark")  # the old fallback read concept 0's antonyms
    assert not are_opposites(kb, None, "dark") and not are_opposites(kb, "light", None)
    assert not are_opposites(kb, "lamp", "dark")
