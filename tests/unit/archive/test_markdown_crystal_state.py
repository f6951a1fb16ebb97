"""The Markdown export says what became of each crystal: a person's verdict on one the gate
kept for review (accepted, rejected), not the gate's "review" for both, as the JSON has it."""

from __future__ import annotations

import copy

from tests.unit.archive.test_build import rows
from wander.core.archive.markdown import render_markdown


def _reviewed(r: dict, cid: str, human_approved: bool, status: str) -> dict:
    c = copy.deepcopy(r["crystals"][0])
    c.update(id=cid, human_approved=human_approved, status=status, insight=f"insight {cid}")
    c["validity"] = {**c["validity"], "verdict": "review", "V": 0.6}
    return c


def test_markdown_tells_a_crystal_a_person_accepted_from_one_a_person_rejected():
    r = rows()
    gate = r["crystals"][0]
    gate.update(human_approved=False, status="active")
    r["crystals"] = [
        gate,
        _reviewed(r, "C2", True, "active"),
        _reviewed(r, "C3", False, "invalidated"),
        _reviewed(r, "C4", False, "active"),
    ]
    heads = [line for line in render_markdown(r).splitlines() if line.startswith("### bridge: V")]
    assert heads == [
        "### bridge: V = 0.740 (accepted by the gate)",
        "### bridge: V = 0.600 (accepted by a person)",
        "### bridge: V = 0.600 (rejected by a person)",
        "### bridge: V = 0.600 (awaiting a person's review)",
    ]
