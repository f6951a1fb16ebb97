"""Is a seed or attractor about anything the corpus knows? A text that matches nothing
('xqzvbnm plorf') would be walked from whatever concept happens to be nearest its
embedding, and the walk would mean nothing: such a text is refused, naming the field and the
nearest concepts as suggestions.

A text matches nothing when none of its words is a word of the corpus (a label or a gloss
word) and no corpus concept is at least FLOOR similar to it: both the words and the meaning
must miss. Keyboard nonsense lands at 0.28-0.38 from its nearest concept ('blorp', near the
blues at 0.45, gets through); a short word the embedding barely knows ('x' at 0.29) is still
a word of the corpus; a name the corpus has never seen ('Kubernetes', nearest 'kennel' at
0.37) is refused with its nearest concepts, which is all the walk could start from."""

from __future__ import annotations

import re
import weakref
from typing import Any

import numpy as np

from wander.domain.errors import InvalidInput
from wander.engine.ports import Knowledge

FLOOR = 0.40
SUGGESTIONS = 3
_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
_VOCABULARY: Any = weakref.WeakKeyDictionary()


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


def check_grounded(field: str, text: str, vector: np.ndarray, knowledge: Knowledge) -> None:
    """Raise InvalidInput(field) when `text` matches nothing in the corpus."""
    if len(knowledge) == 0:
        return
    if words(text) & vocabulary(knowledge):
        return
    near = knowledge.nearest(np.asarray(vector, dtype=np.float32), SUGGESTIONS)
    if near and near[0][1] >= FLOOR:
        return
    names = [knowledge.concept(i).label for i, _ in near]
    best = near[0][1] if near else 0.0
    raise InvalidInput(
        field,
        f"'{text}' matches nothing in the corpus (none of its words is the corpus's, and its "
        f"nearest concept is {best:.2f} similar, below {FLOOR:.2f}); "
        f"nearest concepts: {', '.join(repr(n) for n in names)}",
        suggestions=names,
    )
