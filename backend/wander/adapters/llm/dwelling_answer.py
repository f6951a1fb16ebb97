"""The dwelling answer as a pydantic model: the JSON schema the providers are held to
(Ollama `format`, Anthropic forced tool use) and the lenient reading of what came back.

Reading names every repair: field names normalised, a nested object unwrapped, wrong
types coerced where that is safe (lists joined, numbers as text, "80%" as 0.8), scores
clamped to [0, 1], stated defaults for what is missing. Fewer than three facets is not a
dwelling (OutputError). Every text that may be stored is scrubbed of PII."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from wander.adapters.llm.output import DEFAULT_ACTIONABILITY, DEFAULT_INTERESTINGNESS, OutputError, extract_json
from wander.core.domain.pii import scrub_pii

FACETS = ("connection", "tension", "bridge", "surprise", "possibility")
MIN_FACETS = 3  # fewer facets than this is not a dwelling, whatever else came back
FACET_MAX_CHARS = 1500
THEME_MAX_CHARS = 60
MAX_THEMES = 8

_ALIASES = {
    "connections": "connection",
    "link": "connection",
    "links": "connection",
    "tensions": "tension",
    "conflict": "tension",
    "friction": "tension",
    "bridges": "bridge",
    "translation": "bridge",
    "surprises": "surprise",
    "unexpected": "surprise",
    "possibilities": "possibility",
    "new_concept": "possibility",
    "insight": "possibility",
    "theme": "themes",
    "keywords": "themes",
    "thematic_keywords": "themes",
    "tags": "themes",
    "interest": "interestingness",
    "interestingness_score": "interestingness",
    "interesting": "interestingness",
    "actionable": "actionability",
    "actionability_score": "actionability",
}
_WORD_SCORES = {"very low": 0.1, "low": 0.25, "medium": 0.5, "moderate": 0.5, "high": 0.75, "very high": 0.9}


def _repairs(info: ValidationInfo) -> list[str]:
    return info.context["repairs"] if isinstance(info.context, dict) else []


def _text(v: Any, repairs: list[str], what: str) -> str:
    """Text from what came: "" when there is none."""
    if v is None or isinstance(v, bool):
        return ""
    if isinstance(v, str):
        return v.strip()
    if isinstance(v, (int, float)):
        repairs.append(f"{what} coerced to text")
        return str(v)
    if isinstance(v, list):
        repairs.append(f"{what} list joined")
        return "; ".join(p for p in (_text(x, [], what) for x in v) if p)
    if isinstance(v, dict):
        repairs.append(f"{what} object flattened")
        return "; ".join(f"{k}: {t}" for k, x in v.items() if (t := _text(x, [], what)))
    return ""


def _number(v: Any) -> float | None:
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, list) and len(v) == 1:
        return _number(v[0])
    if not isinstance(v, str):
        return None
    t = v.strip().lower()
    pct = re.fullmatch(r"(-?\d+(?:\.\d+)?|\.\d+)\s*%", t)
    frac = re.fullmatch(r"(-?\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)", t)
    if pct:
        return float(pct.group(1)) / 100
    if frac and float(frac.group(2)) > 0:
        return float(frac.group(1)) / float(frac.group(2))
    if t in _WORD_SCORES:
        return _WORD_SCORES[t]
    num = re.match(r"-?(?:\d+(?:\.\d+)?|\.\d+)(?![\w.])", t)
    return float(num.group(0)) if num else None


def _score(v: Any, default: float, repairs: list[str], what: str) -> float:
    x = _number(v)
    if x is not None and isinstance(v, str):
        repairs.append(f"{what} coerced to a number")
    if x is None or math.isnan(x) or math.isinf(x):
        repairs.append(f"{what} missing or unreadable: default {default}")
        return default
    if not 0.0 <= x <= 1.0:
        repairs.append(f"{what} clamped to [0, 1]")
        x = min(1.0, max(0.0, x))
    return x


def clean_themes(v: Any, repairs: list[str]) -> list[str]:
    if v is None:
        repairs.append("themes missing: default []")
        return []
    if isinstance(v, str):
        items: list[Any] = list(re.split(r"[,;\n]|\s+/\s+", v))
        repairs.append("themes split from text")
    elif isinstance(v, list):
        items = v
    elif isinstance(v, dict):
        items = list(v.keys())
        repairs.append("themes taken from object keys")
    else:
        repairs.append("themes unreadable: default []")
        return []
    out: list[str] = []
    seen: set[str] = set()
    for t in items:
        if isinstance(t, dict):
            t = next((x for x in t.values() if isinstance(x, str)), None)
        if not isinstance(t, (str, int, float)) or isinstance(t, bool):
            continue
        s = re.sub(r"\s+", " ", scrub_pii(str(t))).strip().strip("\"'#*-.").strip()
        if s and len(s) <= THEME_MAX_CHARS and "[" not in s and s.lower() not in seen:
            seen.add(s.lower())
            out.append(s)
    if len(out) > MAX_THEMES:
        repairs.append(f"themes cut to {MAX_THEMES}")
    return out[:MAX_THEMES]


def _facet(description: str) -> Any:
    return Field(default="", description=description)


class DwellingAnswer(BaseModel):
    """What a model answers when it dwells on an encounter (the 000 dwelling prompt)."""

    model_config = ConfigDict(extra="ignore")

    connection: str = _facet("What links the two concepts, naming both.")
    tension: str = _facet("Where they pull against each other.")
    bridge: str = _facet("What carries one into the terms of the other.")
    surprise: str = _facet("What is unexpected about the encounter.")
    possibility: str = _facet("A new concept or use the encounter suggests.")
    themes: list[str] = Field(
        default=None, validate_default=True, max_length=MAX_THEMES, description="3 to 5 short thematic keywords."
    )
    interestingness: float = Field(default=None, validate_default=True, ge=0, le=1)
    actionability: float = Field(default=None, validate_default=True, ge=0, le=1)

    @field_validator(*FACETS, mode="before")
    @classmethod
    def _facet_text(cls, v: Any, info: ValidationInfo) -> str:
        text = scrub_pii(_text(v, _repairs(info), str(info.field_name)))
        if len(text) > FACET_MAX_CHARS:
            _repairs(info).append(f"{info.field_name} cut to {FACET_MAX_CHARS} characters")
            text = text[: FACET_MAX_CHARS - 1].rstrip() + "…"
        return text

    @field_validator("themes", mode="before")
    @classmethod
    def _themes(cls, v: Any, info: ValidationInfo) -> list[str]:
        return clean_themes(v, _repairs(info))

    @field_validator("interestingness", "actionability", mode="before")
    @classmethod
    def _scores(cls, v: Any, info: ValidationInfo) -> float:
        default = DEFAULT_INTERESTINGNESS if info.field_name == "interestingness" else DEFAULT_ACTIONABILITY
        return _score(v, default, _repairs(info), str(info.field_name))


def dwelling_json_schema() -> dict[str, Any]:
    """The schema the providers are held to: every field required, 3 to 5 themes."""
    schema = DwellingAnswer.model_json_schema()
    props = schema["properties"]
    for p in props.values():
        p.pop("default", None)
    props["themes"].update(minItems=3, maxItems=5)
    schema["required"] = list(props)
    schema["additionalProperties"] = False
    return schema


DWELLING_JSON_SCHEMA = dwelling_json_schema()
DWELLING_SCHEMA = (  # in words, for the repair prompt
    '{"connection": string, "tension": string, "bridge": string, "surprise": string, '
    '"possibility": string, "themes": [3 to 5 strings], "interestingness": number, "actionability": number}'
)


@dataclass
class Dwelling:
    facets: dict[str, str]
    themes: list[str]
    interestingness: float
    actionability: float
    repairs: list[str]


def _norm_key(k: str) -> str:
    k = re.sub(r"[^a-z0-9]+", "_", str(k).strip().lower()).strip("_")
    k = re.sub(r"^\d+_", "", k)  # "1_connection"
    return _ALIASES.get(k, k)


def _has_facets(d: Any) -> bool:
    return isinstance(d, dict) and any(_norm_key(k) in FACETS for k in d)


def _has_facets_deep(d: Any) -> bool:
    return _has_facets(d) or (isinstance(d, dict) and any(_has_facets(v) for v in d.values()))


def parse_dwelling(text: str | None) -> Dwelling:
    """The five facets, themes and scores from a model's answer; raises OutputError."""
    parsed = extract_json(text, dict, accept=_has_facets_deep)
    repairs = list(parsed.repairs)
    obj = parsed.value
    if not _has_facets(obj):
        inner = [v for v in obj.values() if _has_facets(v)]
        if len(inner) == 1:
            repairs.append("nested object unwrapped")
            obj = inner[0]
    data: dict[str, Any] = {}
    for k, v in obj.items():
        nk = _norm_key(k)
        if nk not in data or data[nk] in (None, ""):
            data[nk] = v
    if any(_norm_key(k) != str(k) for k in obj):
        repairs.append("field names normalised")
    answer = DwellingAnswer.model_validate(data, context={"repairs": repairs})
    facets = {f: getattr(answer, f) for f in FACETS if getattr(answer, f)}
    missing = [f for f in FACETS if f not in facets]
    if len(facets) < MIN_FACETS:
        raise OutputError(f"missing or empty fields: {', '.join(missing)}")
    for f in missing:
        facets[f] = f"(the model gave no {f})"
        repairs.append(f"{f} missing: default text")
    facets = {f: facets[f] for f in FACETS}
    return Dwelling(facets, answer.themes, answer.interestingness, answer.actionability, list(dict.fromkeys(repairs)))
