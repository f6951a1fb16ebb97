"""What the fake model servers answer by default, and the answers tests script: dwellings
well-formed and broken, concept lists, rumination turns, each made from the prompt sent."""

from __future__ import annotations

import json
import re
from typing import Any


def loci_of(prompt: str) -> tuple[str, str]:
    cur = re.search(r"CURRENT LOCUS:\n(.+)", prompt)
    enc = re.search(r"ENCOUNTERED LOCUS:\n(.+)", prompt)
    return (cur.group(1).strip() if cur else "a"), (enc.group(1).strip() if enc else "b")


def dwelling(prompt: str = "", **override: Any) -> dict[str, Any]:
    a, b = loci_of(prompt)
    d = {
        "connection": f"'{a}' and '{b}' both turn on who knows what, and when.",
        "tension": f"'{a}' rewards hidden knowledge where '{b}' pushes it into the open.",
        "bridge": f"Signalling carries '{a}' into the terms of '{b}'.",
        "surprise": f"'{b}' behaves like a market for '{a}'.",
        "possibility": f"A ledger of disclosed knowledge, between '{a}' and '{b}'.",
        "themes": ["signalling", "disclosure", "trust", f"{b[:20]}"],
        "interestingness": 0.72,
        "actionability": 0.41,
    }
    d.update(override)
    return d


def well_formed(prompt: str = "", **override: Any) -> str:
    return json.dumps(dwelling(prompt, **override))


def in_prose(prompt: str = "") -> str:
    return f"Here is my reflection on the encounter:\n```json\n{well_formed(prompt)}\n```\nI hope this helps!"


def truncated(prompt: str = "", keep: float = 0.55) -> str:
    text = well_formed(prompt)
    return text[: int(len(text) * keep)]


def wrong_types(prompt: str = "") -> str:
    d = dwelling(
        prompt,
        themes="signalling, disclosure; trust",
        interestingness="0.8",
        actionability="75%",
        surprise=["one", "two"],
        bridge=3,
    )
    return json.dumps(d)


def hopeless(prompt: str = "") -> str:
    return "I'd rather not reflect on this one."


def concept_list(prompt: str = "") -> str:
    if "productive tension" in prompt:
        return json.dumps(["transparency", "1. disclosure mandates", "- open books", "transparency"])
    return json.dumps(
        ["price signal", "credential", "warranty (a promise)", "a very long sentence that is not a concept name at all"]
    )


def rumination_answer(
    prompt: str = "", extra_ids: tuple[str, ...] = ("loc-999-fake",), crystallize: bool = False
) -> str:
    ids = re.findall(r"^- \[([^\]]+)\]", prompt, re.M)
    cited = ids[:2] + list(extra_ids)
    signal = "[CRYSTALLIZE]" if crystallize else "[CONTINUE]"
    return (
        "## Finding\n"
        f"The residues keep returning to disclosure [{cited[0] if cited else 'none'}] and signalling.\n\n"
        "## Cited\n" + ", ".join(cited) + "\n\n"
        "## Internal Monologue\nThere is a pull toward trust here, and I do not yet see what the failed paths say.\n\n"
        "## Gap Update\nFailed paths, compost.\n\n"
        f"## Signal\n{signal}\nGap score 0.4.\n\n"
        + ("## Insight\nDisclosure is a priced good: markets form where it is scarce.\n" if crystallize else "")
    )


def default_text(prompt: str) -> str:
    if "[DREAMER CONTINUATION]" in prompt:
        return rumination_answer(prompt)
    if "is to" in prompt and "as" in prompt and "JSON array" in prompt or "productive tension" in prompt:
        return concept_list(prompt)
    return well_formed(prompt)
