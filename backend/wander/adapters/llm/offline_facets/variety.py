"""Which construction opens a facet. A writer offers every text the pair's facts support, in
the order the facts make them telling (a stated corpus relation before a shared domain, say);
the dweller takes the first whose opening this wander has not used for that facet LIMIT times
in its last WINDOW steps, as a writer who has just opened three paragraphs alike opens the
fourth another way. What each text says is true of the pair whichever opens; only which true
thing leads changes.

The memory is the dweller's own, per wander and by step number (a retried step replaces its
own entry). Replay holds: the same wander walked again from its start writes the same words.
A wander resumed in a fresh process starts with no memory of its last steps' openings, so its
first few steps there may lead with another true thing; the path never depends on the words."""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict

import numpy as np

from wander.core.engine.text_openings import LIMIT, Masker, choose, worn

WINDOW = LIMIT * 3  # the steps before this one that count

__all__ = ["LIMIT", "WINDOW", "Masker", "Openings", "choose", "worn"]

SESSIONS_KEPT = 512


class Openings:
    """Per wander, the openings each recent step's facets took."""

    def __init__(self) -> None:
        self._by_session: OrderedDict[str, dict[int, dict[str, list[str]]]] = OrderedDict()
        self._stood: dict[str, dict[int, tuple[str, np.ndarray]]] = {}  # where each step set out from
        self._lock = threading.Lock()

    def set_out(self, session: str | None, step: int, name: str, vector: np.ndarray) -> tuple[str, np.ndarray] | None:
        """Note where STEP set out from; where the step before it set out from (two steps
        back from where this one arrives), if this process saw that step."""
        if session is None:
            return None
        with self._lock:
            stood = self._stood.setdefault(session, {})
            stood[step] = (name, vector)
            for n in [n for n in stood if n < step - 1 or n > step]:
                del stood[n]
            if len(self._stood) > SESSIONS_KEPT:
                self._stood.pop(next(iter(self._stood)))
            return stood.get(step - 1)

    def used(self, session: str | None, step: int) -> dict[str, Counter[str]]:
        """Per facet, in how many of the WINDOW steps before STEP each sentence opening was used."""
        out: dict[str, Counter[str]] = {}
        if session is None:
            return out
        with self._lock:
            steps = self._by_session.get(session, {})
            for n in range(step - WINDOW, step):
                for facet, ops in steps.get(n, {}).items():
                    out.setdefault(facet, Counter()).update(set(ops))
        return out

    def record(self, session: str | None, step: int, openings: dict[str, list[str]]) -> None:
        if session is None:
            return
        with self._lock:
            steps = self._by_session.setdefault(session, {})
            self._by_session.move_to_end(session)
            steps[step] = openings
            for n in [n for n in steps if n < step - WINDOW or n > step]:  # a replayed stretch drops what followed
                del steps[n]
            while len(self._by_session) > SESSIONS_KEPT:
                self._by_session.popitem(last=False)
