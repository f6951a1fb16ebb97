"""Offline sandwich names that say something: what the heuristic found (a bound, an opposition,
a hierarchy, a passage of time, two viewpoints) and the two breads around the filling. The
template is chosen by the ingredients, so one sandwich always gets the same name. (004 3.2.3:
evocative, occasionally punny, sometimes a classic sandwich when the structure fits.)"""

from __future__ import annotations

import hashlib

from wander.core.sandwich.heuristics import EXPLICIT_BOUNDS, HIERARCHY, OPPOSITION, PERSPECTIVAL, TEMPORAL

TEMPLATES = {
    EXPLICIT_BOUNDS: (
        "{F}, Squeezed Between {A} and {B}",
        "The {A}-to-{B} Squeeze: {F}",
        "{F} Within the Bounds of {A} and {B}",
    ),
    OPPOSITION: (
        "{F}: Where {A} Meets {B}",
        "{A} Against {B}, Held Together by {F}",
        "The {A}/{B} Club, with {F} in the Middle",
    ),
    HIERARCHY: (
        "{F}, from {A} Down to {B}",
        "The {A} > {F} > {B} Stack",
        "{F}: Between the General {A} and the Particular {B}",
    ),
    TEMPORAL: (
        "{F}: After {A}, Before {B}",
        "From {A} to {B}, by Way of {F}",
        "The {A}-then-{B} Wrap of {F}",
    ),
    PERSPECTIVAL: (
        "{F} as {A} and {B} See It",
        "The {DA}-{DB} Panini: {F}",
        "{F}, Between the {A} View and the {B} View",
    ),
}


def _title(label: str) -> str:
    """'duration (time period)' -> 'Duration': the sense note is for the corpus, not the name."""
    label = label.split(" (")[0].strip() or label
    small = {"of", "and", "the", "a", "an", "in", "on", "to", "for", "by"}
    words = label.split()
    return " ".join(
        w if w.isupper() else (w if i and w in small else w[:1].upper() + w[1:]) for i, w in enumerate(words)
    )


def name(heuristic: str, bread_a: str, filling: str, bread_b: str, domains: tuple[str, str] = ("", "")) -> str:
    templates: tuple[str, ...] = TEMPLATES.get(heuristic, ("{F} Between {A} and {B}",))
    if heuristic == PERSPECTIVAL and not all(domains):
        templates = tuple(t for t in templates if "{DA}" not in t)
    key = hashlib.sha256(f"{bread_a}|{filling}|{bread_b}".encode()).digest()[0]
    template = templates[key % len(templates)]
    return template.format(
        F=_title(filling), A=_title(bread_a), B=_title(bread_b), DA=_title(domains[0]), DB=_title(domains[1])
    )[:255]
