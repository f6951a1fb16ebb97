"""Which chunk of the Wheeler memory a text is stored in, and which chunks a query searches:
by keyword hits (a tie or no hit: ``general``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

GENERAL = "general"
MAX_RECALL_CHUNKS = 3

# Keyword routing: a chunk's score is the number of its keywords found in the text.
CHUNK_KEYWORDS: dict[str, tuple[str, ...]] = {
    "code": (
        "python",
        "rust",
        "javascript",
        "typescript",
        "java",
        "golang",
        "bug",
        "debug",
        "compile",
        "compiler",
        "git",
        "docker",
        "sql",
        "function",
        "api",
        "exception",
        "stack trace",
        "refactor",
        "unit test",
        "segfault",
        "library",
        "code",
        "script",
    ),
    "hardware": (
        "printer",
        "3d print",
        "solder",
        "gpio",
        "pcb",
        "arduino",
        "raspberry pi",
        "filament",
        "firmware",
        "voltage",
        "circuit",
        "sensor",
        "motor",
        "nozzle",
        "multimeter",
        "bambu",
        "resistor",
        "battery",
    ),
    "daily_tasks": (
        "grocery",
        "groceries",
        "dentist",
        "doctor",
        "schedule",
        "meeting",
        "errand",
        "laundry",
        "workout",
        "appointment",
        "chores",
        "dinner",
        "bills",
        "calendar",
        "todo",
        "shopping",
        "reminder",
    ),
    "science": (
        "physics",
        "equation",
        "quantum",
        "genome",
        "calculus",
        "theorem",
        "molecule",
        "chemistry",
        "biology",
        "entropy",
        "experiment",
        "hypothesis",
        "particle",
        "protein",
        "relativity",
        "neuron",
        "enzyme",
    ),
    "meta": (
        "wheeler",
        "attractor",
        "brick",
        "cellular automata",
        "cellular automaton",
        "rotation",
        "chunk",
        "memory system",
        "oscillation",
        "convergence",
    ),
}
CHUNKS = (*CHUNK_KEYWORDS, GENERAL)

_WORD = re.compile(r"[a-z0-9]+")


def _keyword_scores(text: str) -> dict[str, int]:
    words = _WORD.findall(text.lower())
    joined = " " + " ".join(words) + " "
    tokens = set(words)
    scores = {}
    for name, kws in CHUNK_KEYWORDS.items():
        n = 0
        for kw in kws:
            if " " in kw:
                n += joined.count(" " + kw + " ")
            elif kw in tokens:
                n += 1
        scores[name] = n
    return scores


def select_chunk(text: str) -> str:
    """The chunk a text is stored in: most keyword hits; a tie or no hit -> general."""
    scores = _keyword_scores(text)
    best = max(scores.values(), default=0)
    if best == 0:
        return GENERAL
    winners = [c for c, s in scores.items() if s == best]
    return winners[0] if len(winners) == 1 else GENERAL


def select_recall_chunks(query: str, on_disk: Iterable[str] = ()) -> list[str]:
    """Chunks to search for a query: up to 3 by keyword hits, general, then the rest."""
    scores = _keyword_scores(query)
    ranked = sorted((c for c, s in scores.items() if s > 0), key=lambda c: (-scores[c], c))
    chosen = ranked[:MAX_RECALL_CHUNKS] + [GENERAL]
    for c in sorted(on_disk):
        if c not in chosen:
            chosen.append(c)
    return chosen
