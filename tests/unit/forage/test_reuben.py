"""Reuben's voice: a line chosen by what happened, with the facts in it, never the same line
twice in a session; plain statements when switched off or when a moment's lines are spent."""

from __future__ import annotations

import numpy as np

from wander.core.sandwich.heuristics import HEURISTICS
from wander.core.sandwich.reuben import LINES, PERSONA, PLAIN, Reuben

FACTS = {"name": "Shore, Squeezed Between Sea and Land", "b1": "sea", "f": "shore", "b2": "land (real property)"}


def test_lines_follow_what_happened_and_carry_its_facts():
    r = Reuben(np.random.default_rng(1))
    made = r.say("made:explicit bounds", **FACTS)
    pool = {t.format(**{**FACTS, "b2": "land"}) for t in LINES["made:explicit bounds"] + LINES["made"]}
    assert made in pool and "(real property)" not in made
    assert r.say("source_error", source="https://en.wikipedia.invalid") in {
        t.format(source="https://en.wikipedia.invalid") for t in LINES["source_error"]
    }
    assert r.say("no_bread", title="Tides") in {t.format(title="Tides") for t in LINES["no_bread"]}


def test_no_line_repeats_within_a_session_then_the_plain_fact():
    r = Reuben(np.random.default_rng(2))
    said = [r.say("rejected", **FACTS) for _ in range(len(LINES["rejected"]) + 3)]
    voiced = said[: len(LINES["rejected"])]
    assert len(set(voiced)) == len(voiced)
    assert said[-1] == PLAIN["rejected"].format(b1="sea", f="shore", b2="land")
    facts = {**FACTS, "title": "t", "source": "s"}
    plain = {Reuben(enabled=False).say(m, **facts) for m in LINES}
    voiced = [x for x in (r.say(m, **facts) for m in LINES for _ in range(3)) if x not in plain]
    assert len(voiced) == len(set(voiced)) > 30


def test_every_heuristic_has_its_own_lines_and_a_new_session_starts_fresh():
    assert all(f"made:{h}" in LINES for h in HEURISTICS)
    a = [Reuben(np.random.default_rng(3)).say("begin") for _ in range(2)]
    assert a[0] == a[1]  # same seed, same first line: a new session may say it again


def test_switched_off_reuben_states_the_facts():
    r = Reuben(enabled=False)
    assert r.say("made:temporal bracket", **FACTS) == "Made Shore, Squeezed Between Sea and Land: sea / shore / land."
    assert r.say("already_seen") == "Already seen."
    assert "Reuben" in PERSONA and "never break character" in PERSONA
