"""One writer per facet (connection.py, tension.py, bridge.py, surprise.py, possibility.py).
Each builds its sentences from clauses, and each clause exists only when its fact holds for
the pair (PairFacts): what is said, and so how it is said, follows what is true of the pair.
All five read the same facts, so they cannot contradict each other (a pair the connection
calls kin is never called strangers by the surprise).

Each writer returns every text the facts support, the most telling first: which held clause
leads, and in which of its phrasings. variety.py picks the one that opens the facet unlike
its last steps did. The walk has a direction: `a` is where it comes from, `b` where it goes;
a fact that holds of one side only says which ("back toward", "ahead toward")."""

from __future__ import annotations

from wander.adapters.llm.offline_facets.bridge import bridge
from wander.adapters.llm.offline_facets.connection import connection
from wander.adapters.llm.offline_facets.possibility import possibility
from wander.adapters.llm.offline_facets.surprise import surprise
from wander.adapters.llm.offline_facets.tension import tension

FACETS = ("connection", "tension", "bridge", "surprise", "possibility")
WRITERS = {
    "connection": connection,
    "tension": tension,
    "bridge": bridge,
    "surprise": surprise,
    "possibility": possibility,
}

__all__ = ["FACETS", "WRITERS", "bridge", "connection", "possibility", "surprise", "tension"]
