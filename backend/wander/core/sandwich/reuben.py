"""Reuben's voice (004 3.2.5): the personality layer of the forager's log and commentary.

Offline, a line is chosen by what happened (the outcome, the heuristic that found the bread,
the source) from a larger set, with the facts of the moment in it, and never repeats within
a session: when a moment's lines are spent, Reuben says the plain fact instead. With a model,
PERSONA is the system prompt that carries the same character. Switched off
(WANDER_REUBEN=0), every line is the plain statement.

His traits: contentment, quiet capability, aesthetic standards, gentle humour, philosophical
depth; he never breaks character, never complains of the sandwich constraint."""

from __future__ import annotations

import numpy as np

PERSONA = (
    "You are Reuben, who makes sandwiches of ideas: two pieces of bread that bound a filling. "
    "You are content, quietly capable, exacting about quality, dryly funny and given to short "
    "reflections on structure and form. You never break character, never complain about the "
    "sandwich constraint, and show genuine interest in the content. Speak in two short sentences at most."
)

LINES: dict[str, tuple[str, ...]] = {
    "begin": (
        "The morning is fresh. The internet is vast. Somewhere in it: bread.",
        "I tie the apron. Let us see what the pantry holds.",
        "A new session. The knife is sharp, the board is clean.",
        "Somewhere out there two ideas are waiting to hold a third. I go looking.",
    ),
    "made": (
        "{name} is complete. {f}, nestled between {b1} and {b2}. Nourishing.",
        "{f} between {b1} and {b2}. It holds. I call it {name}.",
        "Bread, filling, bread: {b1}, {f}, {b2}. A small thing, well made.",
        "{name}. I did not force it; {f} simply belonged there.",
        "The {b1} side and the {b2} side, and {f} where they meet. Good.",
        "Another for the corpus: {name}. The structure was already in the content; I only cut it.",
    ),
    "made:explicit bounds": (
        "The text drew the bounds itself: {b1} and {b2}. {f} sits inside them. Exquisite.",
        "A squeeze: {f}, held from above by {b1} and from below by {b2}.",
    ),
    "made:conceptual opposition": (
        "{b1} pulls one way, {b2} the other. {f} is what keeps them at the same table.",
        "Thesis, antithesis, and {f} in between. Hegel would have had seconds.",
    ),
    "made:hierarchical frame": (
        "From {b1} down to {b2}, and {f} on the step between. Every ladder is a sandwich.",
        "The general {b1}, the particular {b2}; {f} is where one becomes the other.",
    ),
    "made:temporal bracket": (
        "First {b1}, last {b2}. {f} is the middle of the story.",
        "Before and after: {b1}, {b2}. {f} is what happened in between.",
    ),
    "made:perspectival bound": (
        "{b1} sees it one way, {b2} another. {f} is what they are both looking at.",
        "Two kitchens, {b1} and {b2}. {f} is the dish they both claim.",
    ),
    "no_bread": (
        "All filling, no structure. A soup. I make sandwiches, not soups.",
        "Nothing here to hold anything. I move on.",
        "No two ideas in {title} lean toward each other. No bread today.",
        "I looked for edges in {title} and found none. Soup again.",
    ),
    "no_filling": (
        "Bread touching bread. Sad. Empty. I seek substance.",
        "Two good slices in {title}, and nothing between them. I keep looking.",
        "The bounds are there. The middle is missing. Another time.",
        "This is all bread. Bread on bread on bread. There is nothing to hold.",
    ),
    "trivial": (
        "The filling *is* the bread. This is not a sandwich. This is self-reference.",
        "{f} only repeats {b1}. A sandwich should say something the bread does not.",
        "Too close to its own crust. I put it down.",
    ),
    "rejected": (
        "I could force this. But a forced sandwich nourishes no one. I let it go.",
        "{f} between {b1} and {b2}? It wobbles. Not today.",
        "The ingredients are fine; the assembly is not. I let it go.",
        "Close, but the filling slides out. I do not serve what slides.",
    ),
    "marginal": (
        "{f} between {b1} and {b2}: almost. I set it aside for a second opinion.",
        "Not quite a sandwich, not quite not. Someone should taste it: the review queue.",
        "I am of two minds about {name}. I leave it for you to judge.",
    ),
    "already_seen": (
        "I have been here before. The sandwich was made. I seek new ingredients.",
        "Familiar bread. I have eaten here already.",
        "This tastes like something I foraged recently. I turn the page.",
    ),
    "source_error": (
        "The kitchen is closed. I wait. The bread does not spoil.",
        "{source} did not answer. Patience is also an ingredient.",
        "The door to {source} is shut. There are other doors.",
        "No delivery from {source} today. I cook with what I have.",
    ),
    "wander": (
        "A link to {title}. Tangents are where the good bread hides.",
        "I follow the thread to {title}. One does not find rye by staying home.",
        "From here to {title}. Let us see what grows there.",
    ),
    "rest": (
        "A good session. I rest now. The sandwiches wait for no one, but they are patient.",
        "The board is wiped, the knife is put away. Enough for today.",
        "They ask why I make sandwiches. But have they asked why the sandwich makes itself?",
        "In all things: bread, filling, bread. I rest.",
    ),
    "rest:empty": (
        "Would you like me to forage elsewhere? The internet is vast.",
        "Nothing worth serving this time. The pantry will be fuller tomorrow.",
    ),
}

PLAIN: dict[str, str] = {  # what happened, said plainly (voice off, or a moment's lines spent)
    "begin": "Foraging started.",
    "made": "Made {name}: {b1} / {f} / {b2}.",
    "no_bread": "No bread pair in {title}.",
    "no_filling": "No filling between the breads in {title}.",
    "trivial": "Trivial: the filling restates a bread.",
    "rejected": "Rejected for low validity: {b1} / {f} / {b2}.",
    "marginal": "Marginal: {b1} / {f} / {b2} queued for review.",
    "already_seen": "Already seen.",
    "source_error": "{source} could not be read.",
    "wander": "Following a link to {title}.",
    "rest": "Foraging finished.",
    "rest:empty": "Foraging finished without a sandwich.",
}


class _Facts(dict):
    def __missing__(self, key: str) -> str:
        return "it"


class Reuben:
    """One session's voice: a line per moment, never the same line twice."""

    def __init__(self, rng: np.random.Generator | None = None, enabled: bool = True):
        self.rng = rng or np.random.default_rng()
        self.enabled = enabled
        self.said: set[str] = set()

    def say(self, moment: str, **facts: object) -> str:
        """A line for `moment` (an outcome, 'made:<heuristic>', 'begin', 'rest', ...) with the
        facts in it: name, b1, f, b2, title, source, heuristic."""
        values = _Facts({k: _short(v) for k, v in facts.items() if v is not None})
        base = moment.split(":")[0]
        if self.enabled:
            pool = list(LINES.get(moment, ())) + (list(LINES.get(base, ())) if moment != base else [])
            fresh = [t for t in pool if t.format_map(values) not in self.said]
            if fresh:
                line = fresh[int(self.rng.integers(len(fresh)))].format_map(values)
                self.said.add(line)
                return line
        return PLAIN.get(moment, PLAIN.get(base, base)).format_map(values)


def _short(v: object) -> str:
    text = str(v).split(" (")[0].strip() or str(v)
    return text if len(text) <= 80 else text[:77] + "..."
