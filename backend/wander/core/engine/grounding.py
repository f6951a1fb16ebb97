"""Is a seed or attractor about anything the corpus knows? A text that matches nothing
('xqzvbnm plorf') would be walked from whatever concept happens to be nearest its
embedding, and the walk would mean nothing: such a text is refused, naming the field and the
nearest concepts as suggestions.

A text is grounded when one of its words is a word of the corpus (a label or a gloss word),
or when its meaning is: its nearest corpus concept is nearer to it than made-up words are.
A real word the corpus lacks ('smartphone', 'Bitcoin', 'Netflix') lands among concepts
about the same thing ('cellphone' at 0.59); a made-up one lands as near letter strings
made up the same way as any concept. So the text is compared with NONSENSE_COUNT such
strings (keyboard mash and invented syllables, seeded, none a corpus word): it is grounded
when its nearest concept beats the mean of its NONSENSE_K nearest made-up strings
(the margin). Measured on 28 real words the corpus lacks and 24 made-up texts (MiniLM):
24 of 28 real words pass (not 'Kubernetes', 'TikTok', 'Pokémon', 'Fortnite': the
embedding reads them as their word pieces, nearest 'kennel' and 'slate', and places them
nearer invented strings than any concept), 22 of 24 made-up texts are refused ('glorptastic'
and 'snorkwag fliddle' pass by 0.05 and 0.04). A plain similarity floor (0.40) did worse on
both sides: 22 of 28 real words and 21 of 24 made-up ones.

Without the made-up strings' embeddings (a caller without an embedder) the floor FLOOR
decides, as before."""

from __future__ import annotations

import re
import weakref
from typing import Any

import numpy as np

from wander.core.domain.errors import InvalidInput
from wander.core.engine.ports import Knowledge

FLOOR = 0.40  # without made-up references: the nearest concept at least this similar
CLEARLY = 0.55  # a nearest concept this similar is a meaning whatever the references say
NONSENSE_COUNT = 256
NONSENSE_K = 5
SUGGESTIONS = 3
_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
_VOCABULARY: Any = weakref.WeakKeyDictionary()
_CONSONANTS, _VOWELS, _LETTERS = "bcdfghjklmnpqrstvwxz", "aeiou", "abcdefghijklmnopqrstuvwxyz"


def words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def vocabulary(knowledge: Knowledge) -> frozenset[str]:
    """Every word of the corpus's labels and glosses (built once per knowledge base)."""
    try:
        found = _VOCABULARY.get(knowledge)
    except TypeError:  # not weakly referenceable
        found = None
    if found is None:
        vocab: set[str] = set()
        for i in range(len(knowledge)):
            c = knowledge.concept(i)
            vocab |= words(c.label)
            vocab |= words(c.gloss)
        found = frozenset(vocab)
        try:
            _VOCABULARY[knowledge] = found
        except TypeError:
            pass
    return found


def nonsense_texts(knowledge: Knowledge, count: int = NONSENSE_COUNT, seed: int = 30) -> list[str]:
    """`count` made-up texts, half keyboard mash ('qzmbegrj'), half invented syllables
    ('gisufek kogoter'), one or two words each, none of their words a corpus word: the same
    list every time."""
    rng = np.random.default_rng(seed)
    vocab = vocabulary(knowledge)

    def mash() -> str:
        return "".join(rng.choice(list(_LETTERS), int(rng.integers(4, 9))))

    def syllables() -> str:
        return "".join(
            str(rng.choice(list(_CONSONANTS)))
            + str(rng.choice(list(_VOWELS)))
            + (str(rng.choice(list(_CONSONANTS))) if rng.random() < 0.5 else "")
            for _ in range(int(rng.integers(2, 4)))
        )

    out: list[str] = []
    while len(out) < count:
        make = mash if len(out) % 2 else syllables
        text = make() + (" " + make() if rng.random() < 0.4 else "")
        if not words(text) & vocab:
            out.append(text)
    return out


def margin(vector: np.ndarray, best: float, nonsense: np.ndarray) -> float:
    """How much nearer the text's nearest concept (`best`) is than its NONSENSE_K nearest
    made-up strings are on average."""
    sims = np.asarray(nonsense, dtype=np.float32) @ np.asarray(vector, dtype=np.float32)
    k = min(NONSENSE_K, len(sims))
    return best - float(np.sort(sims)[-k:].mean()) if k else best


def check_grounded(
    field: str, text: str, vector: np.ndarray, knowledge: Knowledge, nonsense: np.ndarray | None = None
) -> None:
    """Raise InvalidInput(field) when `text` matches nothing in the corpus. `nonsense`: the
    embeddings of nonsense_texts(knowledge), one row each (None: the FLOOR decides)."""
    if len(knowledge) == 0:
        return
    if words(text) & vocabulary(knowledge):
        return
    near = knowledge.nearest(np.asarray(vector, dtype=np.float32), SUGGESTIONS)
    best = near[0][1] if near else 0.0
    if nonsense is None or not len(nonsense):
        if best >= FLOOR:
            return
        why = f"its nearest concept is {best:.2f} similar, below {FLOOR:.2f}"
    else:
        m = margin(vector, best, nonsense)
        if m >= 0.0 or best >= CLEARLY:
            return
        why = f"its nearest concept, {best:.2f} similar, is less so than made-up words are ({m:+.2f})"
    names = [knowledge.concept(i).label for i, _ in near]
    raise InvalidInput(
        field,
        f"'{text}' matches nothing in the corpus (none of its words is the corpus's, and {why}); "
        f"nearest concepts: {', '.join(repr(n) for n in names)}",
        suggestions=names,
    )
