"""Small wording helpers: quoting a name, a short definition, a number, a list of domains."""

from __future__ import annotations

from wander.core.engine.crystal_text import RELATION_WORDS  # corpus relation kind -> "X <kind> Y"
from wander.core.engine.ports import KnowledgeConcept

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def q(name: str) -> str:
    return f"'{name}'"


def gloss(c: KnowledgeConcept, words: int = 12) -> str:
    """The concept's definition, cut to a few words, in double quotes."""
    parts = c.gloss.replace('"', "'").rstrip(". ;").split()
    return '"' + " ".join(parts[:words]) + ("..." if len(parts) > words else "") + '"'


def num(n: int) -> str:
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


REALMS = {"physical entity": "physical things", "abstract entity": "abstractions"}


def realm(top: str) -> str:
    """The top of a lineage in words: 'physical things', 'abstractions'."""
    return REALMS.get(top, f"the {top}s")


def times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{num(n)} times")


# WordNet's lexicographer files name a concept's broad domain in the singular ("act",
# "artifact"): "one is a matter of act" reads wrong, so they are said as a person would.
DOMAIN_WORDS = {
    "Tops": "top-level concepts",
    "act": "acts",
    "animal": "animals",
    "artifact": "artifacts",
    "attribute": "attributes",
    "body": "the body",
    "cognition": "thought",
    "event": "events",
    "feeling": "feelings",
    "group": "groups",
    "location": "places",
    "motive": "motives",
    "object": "natural objects",
    "person": "people",
    "phenomenon": "natural phenomena",
    "plant": "plants",
    "possession": "possessions",
    "process": "processes",
    "quantity": "quantities",
    "relation": "relations",
    "shape": "shapes",
    "state": "states",
    "substance": "substances",
}


def domains(names: list[str], most: int = 2) -> str:
    out = [DOMAIN_WORDS.get(d, d.replace("_", " ")) for d in names][:most] or ["no named domain"]
    return out[0] if len(out) == 1 else ", ".join(out[:-1]) + " and " + out[-1]


SHARED_WORDS = {  # a relation kind -> how "both <kind> Y" reads
    "topics": "both belong to the topic of {y}",
    "usages": "both are usages of {y}",
    "regions": "both belong to the region {y}",
    "part_of": "both are parts of {y}",
    "member_of": "both are members of {y}",
    "substances": "both are made in part of {y}",
    "parts": "both have {y} as a part",
    "attributes": "both are measured as {y}",
}
ROLE_WORDS = {  # verb role -> what the concept is to the verb
    "agent": "{x} is the agent of {v}",
    "instrument": "{x} is what one uses to {v}",
    "act": "{x} is the act of {v}",
}


def relation(x: str, rel: str, y: str) -> str:
    """'X has Y as a part'; an unknown relation name is said as it is."""
    pattern = RELATION_WORDS.get(rel, "is linked to {y} (" + rel.replace("_", " ") + ")")
    return q(x) + " " + pattern.format(y=q(y))


def shared(kind: str, y: str) -> str:
    return SHARED_WORDS.get(kind, "both are linked to {y}").format(y=q(y))


def role(x: str, doing: tuple[str, str]) -> str:
    return ROLE_WORDS[doing[0]].format(x=q(x), v=q(doing[1]))
