"""The README's settings tables, made from the model (`python -m wander.bootstrap.settings`;
`--check` fails when they are stale)."""

from __future__ import annotations

import sys
from pathlib import Path

from pydantic.fields import FieldInfo

from wander.bootstrap.settings.loading import Settings, section_model


def _shown(f: FieldInfo) -> str:
    extra = f.json_schema_extra if isinstance(f.json_schema_extra, dict) else {}
    if "shown" in extra:
        return str(extra["shown"])
    d = f.default
    return f"`{int(d)}`" if isinstance(d, float) and d == int(d) else f"`{d}`"


def settings_table(sections: list[str]) -> str:
    rows = ["| variable | default | meaning |", "|---|---|---|"]
    for section in sections:
        for f in section_model(Settings.model_fields[section]).model_fields.values():
            rows.append(f"| `{f.validation_alias}` | {_shown(f)} | {f.description} |")
    return "\n".join(rows)


README = Path(__file__).resolve().parents[4] / "README.md"
_BLOCK = "<!-- settings: "


def readme_with_tables(text: str) -> str:
    """The README with every `<!-- settings: a b -->` ... `<!-- /settings -->` block refilled."""
    out, rest = [], text
    while _BLOCK in rest:
        head, _, tail = rest.partition(_BLOCK)
        names, _, tail = tail.partition(" -->")
        _, _, tail = tail.partition("<!-- /settings -->")
        out.append(f"{head}{_BLOCK}{names} -->\n{settings_table(names.split())}\n<!-- /settings -->")
        rest = tail
    return "".join(out) + rest


def main(argv: list[str]) -> int:
    text = README.read_text()
    fresh = readme_with_tables(text)
    if "--check" in argv:
        if fresh != text:
            print("README.md settings tables are stale: run `python -m wander.bootstrap.settings`", file=sys.stderr)
            return 1
        return 0
    README.write_text(fresh)
    return 0
