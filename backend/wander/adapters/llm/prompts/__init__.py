"""Prompt texts for the model dwellers, proposers and rumination (000, 003), kept as
plain text files beside this module and filled by name: only the {placeholders} given
are replaced, so the JSON examples' braces in the texts stay as they are."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources


@cache
def load(name: str) -> str:
    """The text of prompts/<name>.txt."""
    return resources.files(__package__).joinpath(f"{name}.txt").read_text(encoding="utf-8").strip("\n")


def render(template: str, **values: object) -> str:
    """Replace {key} for the keys given (and only those) with their values."""
    if not values:
        return template
    pattern = re.compile(r"\{(" + "|".join(re.escape(k) for k in values) + r")\}")
    return pattern.sub(lambda m: str(values[m.group(1)]), template)


def prompt(name: str, **values: object) -> str:
    return render(load(name), **values)
