"""Reading JSON out of a model's answer (000 "Scope & Verification", layer 3).

Strict JSON first. What models commonly get wrong is repaired by the maintained
`json-repair` library; a light scan of the text names each kind of repair so that a
residue says what was done to it (prose or code fences around the JSON, trailing or
missing commas, single or curly quotes, comments, Python literals, unquoted keys, JSON
cut off at the token limit, whose last string is then marked with an ellipsis). What
cannot be read raises OutputError with the reason, which the caller sends back to the
model once, then records as a failed dwell. Every text that may be stored is scrubbed."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import json_repair

from wander.core.domain.models import Residue
from wander.core.domain.pii import scrub_pii

RAW_MAX_CHARS = 8000
DEFAULT_INTERESTINGNESS = 0.5  # the wander_loci column defaults (000 schema)
DEFAULT_ACTIONABILITY = 0.0
LIST_SCHEMA = '["concept", "concept", ...] (a JSON array of strings)'

_FENCE = re.compile(r"```[A-Za-z0-9_+-]*[ \t]*\n?(.*?)(?:```|$)", re.S)
_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019"}
_LITERALS = {"None", "True", "False", "NaN", "nan", "Infinity", "undefined"}
# A single-quoted string: it ends at a quote followed by , : } or ] (so apostrophes inside stay).
_SINGLE = re.compile(r"""(?<=[{\[,:])(\s*)'((?:[^'\\]|\\.|'(?!\s*[,:}\]]))*)'(?=\s*[,:}\]])""")


class OutputError(ValueError):
    """Model output that could not be repaired; `reason` says why, in words a model can act on."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Parsed:
    value: Any
    repairs: list[str]


@dataclass
class _Scan:
    end: int  # just past the value that starts the scan (len(text) when it never closes)
    truncated: bool = False
    notes: set[str] = field(default_factory=set)


def _scan(s: str, start: int) -> _Scan:
    """Walk the value that starts at s[start] (an object or array) without parsing it:
    where it ends, whether it was cut off, and which repairs it will need."""
    out = _Scan(len(s))
    depth, i, n = 0, start, len(s)
    last = ""  # the last significant character outside strings
    while i < n:
        c = s[i]
        if c in _QUOTES:
            end = _string_end(s, i, last, out.notes)
            if end is None:
                out.truncated = True
                return out
            i, last = end, '"'
        elif c.isspace():
            i += 1
        elif s.startswith("//", i) or s.startswith("/*", i) or (c == "#" and last in "{[,"):
            out.notes.add("comments")
            close = "*/" if s.startswith("/*", i) else "\n"
            j = s.find(close, i + 2)
            i = n if j < 0 else j + len(close)
        elif c.isalpha() or c == "_":
            i, last = _word_end(s, i, last, out.notes), "w"
        else:
            if c in "{[":
                depth += 1
            elif c in "}]":
                if last == ",":
                    out.notes.add("trailing commas")
                depth -= 1
                if depth <= 0:
                    out.end = i + 1
                    return out
            last = c if c in "{}[],:" else "v"
            i += 1
    out.truncated = depth > 0
    return out


def _string_end(s: str, i: int, last: str, notes: set[str]) -> int | None:
    """Just past the string that opens at s[i] (None when it never closes), noting its quotes
    and a comma missing before it."""
    c = s[i]
    if last in ('"', "v", "w"):
        notes.add("missing commas")
    if c != '"':
        notes.add("single quotes" if c == "'" else "curly quotes")
    closers = {_QUOTES[c], c, "\u201d"} if c in "\u201c\u201d" else {_QUOTES[c]}
    j, n = i + 1, len(s)
    while j < n and s[j] not in closers:
        j += 2 if s[j] == "\\" else 1
    return None if j >= n else j + 1


def _word_end(s: str, i: int, last: str, notes: set[str]) -> int:
    """Just past the bare word at s[i], noting a literal JSON lacks, an unquoted key, or a
    comma missing before it."""
    word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", s[i:])
    w = word.group(0) if word else s[i]
    if last == '"' or (last and last not in "{[,:"):
        notes.add("missing commas")
    if w in _LITERALS:
        notes.add("non-JSON literals")
    elif re.match(r"\s*:", s[i + len(w) :]) and last in "{,":
        notes.add("unquoted keys")
    return i + len(w)


def _strict(s: str) -> tuple[bool, Any]:
    try:
        return True, json.loads(s)
    except (json.JSONDecodeError, RecursionError):
        return False, None


def _mark_cut(value: Any) -> Any:
    """The last string of a value cut off at the token limit, marked as cut."""
    if isinstance(value, dict) and value:
        key = list(value)[-1]
        value[key] = _mark_cut(value[key])
    elif isinstance(value, list) and value:
        value[-1] = _mark_cut(value[-1])
    elif isinstance(value, str) and value.strip():
        return value.rstrip() + "…"
    return value


def _repair(s: str, start: int) -> tuple[Any, list[str]]:
    """The JSON value starting at s[start], repaired by json-repair; the repairs named."""
    scan = _scan(s, start)
    notes = set(scan.notes)
    if scan.truncated:
        notes.add("truncated JSON closed")
    text = s[start : scan.end]
    if "single quotes" in notes:  # json-repair takes an apostrophe inside such a string for its end
        text = _SINGLE.sub(lambda m: m.group(1) + json.dumps(m.group(2).replace("\\'", "'")), text)
    try:
        value = json_repair.loads(text, skip_json_loads=True)
    except (RecursionError, ValueError, TypeError, IndexError) as exc:
        raise OutputError(f"unreadable JSON ({type(exc).__name__})") from exc
    if scan.truncated:
        value = _mark_cut(value)
    return value, sorted(notes)


def _list_from_lines(text: str) -> list[str] | None:
    """A list given as bullet or numbered lines, or as one short comma-separated line."""
    marker = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
    lines = [ln for ln in text.splitlines() if ln.strip()]
    marked = [marker.sub("", ln).strip() for ln in lines if marker.match(ln)]
    if len(marked) >= 2 and all(len(x.split()) <= 8 for x in marked):
        return marked
    if len(lines) >= 2 and all(len(ln.split()) <= 4 and not ln.rstrip().endswith(":") for ln in lines):
        return [ln.strip() for ln in lines]
    parts = [p.strip() for p in text.split(",")]
    if (
        len(lines) == 1
        and len(parts) >= 3
        and not re.search(r"[.!?:;]", text)
        and all(0 < len(p.split()) <= 4 for p in parts)
    ):
        return parts
    return None


def _unwrapped(value: Any, expect: type, repairs: list[str]) -> Any:
    if expect is list and isinstance(value, dict):
        lists = [v for v in value.values() if isinstance(v, list)]
        if len(lists) == 1:
            repairs.append("list wrapped in an object")
            return lists[0]
    if expect is dict and isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
        repairs.append("object wrapped in a list")
        return value[0]
    return value


def extract_json(text: str | None, expect: type = dict, accept: Callable[[Any], bool] | None = None) -> Parsed:
    """The JSON value (an object, or a list when expect=list) in a model's answer, with the
    repairs it needed. Raises OutputError when there is none to be had."""
    if text is None or not text.strip():
        raise OutputError("the answer was empty")
    s = text.strip()

    def fits(v: Any) -> bool:
        return isinstance(v, expect) and (accept is None or accept(v))

    ok, value = _strict(s)
    if ok and isinstance(value, str) and value.strip()[:1] in "{[":  # JSON inside a JSON string
        inner = extract_json(value, expect, accept)
        return Parsed(inner.value, ["double-encoded JSON", *inner.repairs])
    if ok:
        repairs: list[str] = []
        value = _unwrapped(value, expect, repairs)
        if fits(value):
            return Parsed(value, repairs)

    repairs = []
    fence = _FENCE.search(s)
    if fence and fence.group(1).strip():
        if s[: fence.start()].strip() or s[fence.end() :].strip():
            repairs.append("prose around the JSON")
        repairs.append("code fence")
        s = fence.group(1).strip()
        ok, value = _strict(s)
        if ok and fits(value):
            return Parsed(value, repairs)

    opener = "{" if expect is dict else "["
    starts = [m.start() for m in re.finditer(re.escape(opener), s)][:4]
    if expect is list and not starts:
        starts = [m.start() for m in re.finditer(r"\{", s)][:2]
    tried: list[str] = []
    found = _at_starts(s, starts, repairs, expect, fits, tried)
    if found is None:
        found = _without_brackets(s, starts, repairs, expect, fits)
    if found is not None:
        return found
    if not starts:
        raise OutputError(f"no {'JSON object' if expect is dict else 'JSON array'} in the answer")
    raise OutputError(
        "the JSON in the answer could not be read"
        + (f" ({tried[0]})" if tried else "")
        + (" or lacked the expected fields" if accept else "")
    )


def _at_starts(
    s: str, starts: list[int], repairs: list[str], expect: type, fits: Callable[[Any], bool], tried: list[str]
) -> Parsed | None:
    """The first value that fits among those opening at `starts`, read as it is or repaired;
    why a repair failed is added to `tried`."""
    for start in starts:
        extra = list(repairs)
        if s[:start].strip():
            extra.append("prose around the JSON")
        try:
            value, end = json.JSONDecoder(strict=False).raw_decode(s, start)
            if s[end:].strip():
                extra.append("prose around the JSON")
        except (json.JSONDecodeError, RecursionError):
            try:
                value, notes = _repair(s, start)
            except OutputError as exc:
                tried.append(exc.reason)
                continue
            extra += notes
        value = _unwrapped(value, expect, extra)
        if fits(value):
            return Parsed(value, _dedupe(extra))
    return None


def _without_brackets(
    s: str, starts: list[int], repairs: list[str], expect: type, fits: Callable[[Any], bool]
) -> Parsed | None:
    """An object whose braces are missing ('key: value, ...'), or a list given as lines."""
    if expect is dict and not starts and re.match(r'\s*["\']?[A-Za-z_]+["\']?\s*:', s):
        value, notes = _repair("{" + s + "}", 0)
        if fits(value):
            return Parsed(value, _dedupe([*repairs, "missing braces", *notes]))
    if expect is list:
        items = _list_from_lines(s)
        if items:
            return Parsed(items, _dedupe([*repairs, "list given as lines"]))
    return None


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def clip_raw(raw: str | None) -> str | None:
    if raw is None:
        return None
    raw = scrub_pii(raw)
    return raw if len(raw) <= RAW_MAX_CHARS else raw[:RAW_MAX_CHARS] + f"… [{len(raw) - RAW_MAX_CHARS} more chars]"


def failed_residue(
    reason: str,
    raw: str | None,
    *,
    model: str,
    route: str,
    tokens: int = 0,
    cost_cents: int = 0,
    details: dict[str, Any] | None = None,
) -> Residue:
    """A dwell that did not work, saying so in every facet; the raw answer is kept (scrubbed)."""
    reason = scrub_pii(reason)
    said = f"The dwell failed: {reason}."
    return Residue(
        connection=said,
        tension=f"No tension was drawn: {reason}.",
        bridge=f"No bridge was drawn: {reason}.",
        surprise=f"No surprise was drawn: {reason}.",
        possibility=f"No possibility was drawn: {reason}.",
        themes=[],
        interestingness=DEFAULT_INTERESTINGNESS,
        actionability=DEFAULT_ACTIONABILITY,
        model_used=model,
        route=route,
        tokens_used=tokens,
        cost_cents=cost_cents,
        failed=True,
        raw_output=clip_raw(raw),
        details={"route": route, "model": model, "failure": reason, **(details or {})},
    )
