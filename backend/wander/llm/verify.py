"""Verification of model output (000 "Scope & Verification", layer 3).

JSON is parsed strictly first. What models commonly get wrong is then repaired, and each
repair is named so that a residue says what was done to it: prose or code fences around
the JSON, trailing or missing commas, single or curly quotes, comments, Python literals,
unquoted keys, unescaped quotes inside strings, and JSON cut off at the token limit
(strings and brackets closed, a dangling key dropped). Missing fields get stated defaults,
wrong types are coerced where that is safe, and scores are clamped to [0, 1]. What cannot
be repaired raises OutputError with the reason, which the caller sends back to the model
once, then records as a failed dwell. Every text that may be stored is scrubbed of PII."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wander.domain.models import Residue
from wander.domain.pii import scrub_pii

FACETS = ("connection", "tension", "bridge", "surprise", "possibility")
MIN_FACETS = 3  # fewer facets than this is not a dwelling, whatever else came back
FACET_MAX_CHARS = 1500
THEME_MAX_CHARS = 60
MAX_THEMES = 8
RAW_MAX_CHARS = 8000
DEFAULT_INTERESTINGNESS = 0.5  # the wander_loci column defaults (000 schema)
DEFAULT_ACTIONABILITY = 0.0

DWELLING_SCHEMA = (
    '{"connection": string, "tension": string, "bridge": string, "surprise": string, '
    '"possibility": string, "themes": [3 to 5 strings], "interestingness": number, "actionability": number}'
)
LIST_SCHEMA = '["concept", "concept", ...] (a JSON array of strings)'

_ALIASES = {
    "connections": "connection", "link": "connection", "links": "connection",
    "tensions": "tension", "conflict": "tension", "friction": "tension",
    "bridges": "bridge", "translation": "bridge",
    "surprises": "surprise", "unexpected": "surprise",
    "possibilities": "possibility", "new_concept": "possibility", "insight": "possibility",
    "theme": "themes", "keywords": "themes", "thematic_keywords": "themes", "tags": "themes",
    "interest": "interestingness", "interestingness_score": "interestingness", "interesting": "interestingness",
    "actionable": "actionability", "actionability_score": "actionability",
}  # fmt: skip
_WORD_SCORES = {"very low": 0.1, "low": 0.25, "medium": 0.5, "moderate": 0.5, "high": 0.75, "very high": 0.9}


class OutputError(ValueError):
    """Model output that could not be repaired; `reason` says why, in words a model can act on."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Parsed:
    value: Any
    repairs: list[str]


# ---- lenient JSON ---------------------------------------------------------------------

_PUNCT = set("{}[]:,")
_OPEN_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u201d": "\u201d", "\u2018": "\u2019", "\u2019": "\u2019"}
_CLOSE_QUOTES = {'"': '"\u201d\u201c', "'": "'\u2019\u2018", "\u201d": "\u201d\u201c\"", "\u2019": "\u2019\u2018'"}
_LITERALS = {"true": True, "false": False, "null": None, "True": True, "False": False, "None": None,
             "NaN": None, "nan": None, "Infinity": None, "-Infinity": None, "undefined": None}  # fmt: skip
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


class _Tok:
    __slots__ = ("kind", "value", "pos")

    def __init__(self, kind: str, value: Any, pos: int):
        self.kind = kind  # punct | str | num | lit | word | eof
        self.value = value
        self.pos = pos


def _tokenize(s: str, start: int, notes: set[str]) -> list[_Tok]:
    toks: list[_Tok] = []
    i, n = start, len(s)
    depth = 0
    while i < n:
        c = s[i]
        if c.isspace():
            i += 1
            continue
        if s.startswith("//", i) or c == "#":
            j = s.find("\n", i)
            i = n if j < 0 else j + 1
            notes.add("comments")
            continue
        if s.startswith("/*", i):
            j = s.find("*/", i + 2)
            i = n if j < 0 else j + 2
            notes.add("comments")
            continue
        if c in _PUNCT:
            toks.append(_Tok("punct", c, i))
            depth += 1 if c in "{[" else -1 if c in "}]" else 0
            i += 1
            if depth <= 0 and c in "}]":
                break  # the first complete value is all we read
            continue
        if c == "=":  # "key" = "value"
            toks.append(_Tok("punct", ":", i))
            notes.add("'=' for ':'")
            i += 1
            continue
        if c in _OPEN_QUOTES:
            if c != '"':
                notes.add("single quotes" if c == "'" else "curly quotes")
            closers = _CLOSE_QUOTES.get(c, c)
            buf: list[str] = []
            j = i + 1
            closed = False
            while j < n:
                ch = s[j]
                if ch == "\\" and j + 1 < n:
                    nxt = s[j + 1]
                    if nxt in _ESCAPES:
                        buf.append(_ESCAPES[nxt])
                        j += 2
                    elif nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", s[j + 2 : j + 6] or ""):
                        buf.append(chr(int(s[j + 2 : j + 6], 16)))
                        j += 6
                    else:  # \' and other escapes JSON does not have
                        buf.append(nxt)
                        j += 2
                    continue
                if ch in closers:
                    k = j + 1
                    while k < n and s[k] in " \t\r":
                        k += 1
                    if k >= n or s[k] in ",:}]\n":
                        closed = True
                        j += 1
                        break
                    notes.add("unescaped quotes in strings")
                if ch in "\n\r\t":
                    notes.add("control characters in strings")
                buf.append(ch)
                j += 1
            if not closed:
                notes.add("truncated JSON closed")
                text = "".join(buf).rstrip()
                toks.append(_Tok("str", text + ("…" if text else ""), i))
            else:
                toks.append(_Tok("str", "".join(buf), i))
            i = j
            continue
        m = _NUMBER.match(s, i)
        if m and not (m.end() < n and (s[m.end()].isalpha() or s[m.end()] == "_")):
            toks.append(_Tok("num", m.group(0), i))
            i = m.end()
            continue
        # A bare word: a key before ':', or a value up to the next , } ] or line end.
        j = i
        while j < n and s[j] not in ",:{}[]\n\"" and not s.startswith("//", j):
            j += 1
        word = s[i:j].strip()
        if not word:
            i = j + 1 if j < n and s[j] not in _PUNCT else j
            notes.add("stray characters")
            continue
        if word in _LITERALS:
            if word not in ("true", "false", "null"):
                notes.add("non-JSON literals")
            toks.append(_Tok("lit", _LITERALS[word], i))
        else:
            toks.append(_Tok("word", word, i))
        i = j
    return toks


class _Parser:
    def __init__(self, toks: list[_Tok], notes: set[str]):
        self.toks = toks
        self.i = 0
        self.notes = notes

    def peek(self) -> _Tok:
        return self.toks[self.i] if self.i < len(self.toks) else _Tok("eof", None, -1)

    def next(self) -> _Tok:
        t = self.peek()
        self.i += 1
        return t

    def is_(self, value: str) -> bool:
        t = self.peek()
        return t.kind == "punct" and t.value == value

    def value(self) -> Any:
        t = self.next()
        if t.kind == "punct" and t.value == "{":
            return self.obj()
        if t.kind == "punct" and t.value == "[":
            return self.arr()
        if t.kind == "str":
            return t.value
        if t.kind == "num":
            v = float(t.value)
            return int(v) if re.fullmatch(r"-?\d+", t.value) else v
        if t.kind == "lit":
            return t.value
        if t.kind == "word":
            self.notes.add("unquoted values")
            return t.value
        if t.kind == "eof":
            self.notes.add("truncated JSON closed")
            return None
        self.notes.add("stray characters")
        return None

    def obj(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while True:
            t = self.peek()
            if t.kind == "eof":
                self.notes.add("truncated JSON closed")
                return out
            if t.kind == "punct" and t.value == "}":
                self.next()
                return out
            if t.kind == "punct" and t.value == ",":
                self.next()
                if self.is_("}"):
                    self.notes.add("trailing commas")
                elif not out:
                    self.notes.add("extra commas")
                continue
            if t.kind == "punct" and t.value in "[{":  # a value with no key: keep reading
                self.notes.add("stray characters")
                self.value()
                continue
            if t.kind == "punct" and t.value in "]:":
                self.next()
                self.notes.add("stray characters")
                continue
            self.next()
            key = str(t.value)
            if t.kind == "word":
                self.notes.add("unquoted keys")
            if self.is_(":"):
                self.next()
            else:
                nxt = self.peek()
                if nxt.kind == "eof" or (nxt.kind == "punct" and nxt.value in ",}"):
                    self.notes.add("truncated JSON closed" if nxt.kind == "eof" else "key without a value")
                    continue
                self.notes.add("missing colons")
            if self.peek().kind == "eof":
                self.notes.add("truncated JSON closed")  # "key": and then nothing: drop the key
                return out
            out[key] = self.value()
            nxt = self.peek()
            if nxt.kind == "punct" and nxt.value == ",":
                self.next()
                if self.is_("}"):
                    self.notes.add("trailing commas")
            elif nxt.kind in ("str", "word", "num", "lit"):
                self.notes.add("missing commas")

    def arr(self) -> list[Any]:
        out: list[Any] = []
        while True:
            t = self.peek()
            if t.kind == "eof":
                self.notes.add("truncated JSON closed")
                return out
            if t.kind == "punct" and t.value == "]":
                self.next()
                return out
            if t.kind == "punct" and t.value == ",":
                self.next()
                if self.is_("]"):
                    self.notes.add("trailing commas")
                continue
            if t.kind == "punct" and t.value in "}:":
                self.next()
                self.notes.add("stray characters")
                continue
            out.append(self.value())
            nxt = self.peek()
            if nxt.kind == "punct" and nxt.value == ",":
                self.next()
                if self.is_("]"):
                    self.notes.add("trailing commas")
            elif nxt.kind in ("str", "word", "num", "lit") or (nxt.kind == "punct" and nxt.value in "[{"):
                self.notes.add("missing commas")


def lenient_loads(s: str, start: int = 0) -> tuple[Any, list[str]]:
    """Parse the JSON value that starts at s[start], repairing as it goes."""
    notes: set[str] = set()
    toks = _tokenize(s, start, notes)
    if not toks:
        raise OutputError("no JSON value found")
    value = _Parser(toks, notes).value()
    return value, sorted(notes)


_FENCE = re.compile(r"```[A-Za-z0-9_+-]*[ \t]*\n?(.*?)(?:```|$)", re.S)


def _strict(s: str) -> tuple[bool, Any]:
    try:
        return True, json.loads(s)
    except (json.JSONDecodeError, RecursionError):
        return False, None


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
    if len(lines) == 1 and len(parts) >= 3 and not re.search(r"[.!?:;]", text) and all(
            0 < len(p.split()) <= 4 for p in parts):  # fmt: skip
        return parts
    return None


def extract_json(text: str | None, expect: type = dict, accept: Callable[[Any], bool] | None = None) -> Parsed:
    """The JSON value (an object, or a list when expect=list) in a model's answer, with the
    repairs it needed. Raises OutputError when there is none to be had."""
    if text is None or not text.strip():
        raise OutputError("the answer was empty")
    s = text.strip()
    ok, value = _strict(s)
    if ok and isinstance(value, str) and value.strip()[:1] in "{[":  # JSON inside a JSON string
        inner = extract_json(value, expect, accept)
        return Parsed(inner.value, ["double-encoded JSON", *inner.repairs])
    if ok and isinstance(value, expect) and (accept is None or accept(value)):
        return Parsed(value, [])
    if ok and expect is dict and isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
        return Parsed(value[0], ["object wrapped in a list"])
    if ok and expect is list and isinstance(value, dict):
        lists = [v for v in value.values() if isinstance(v, list)]
        if len(lists) == 1:
            return Parsed(lists[0], ["list wrapped in an object"])

    repairs: list[str] = []
    fence = _FENCE.search(s)
    if fence and fence.group(1).strip():
        if s[: fence.start()].strip() or s[fence.end() :].strip():
            repairs.append("prose around the JSON")
        repairs.append("code fence")
        s = fence.group(1).strip()
        ok, value = _strict(s)
        if ok and isinstance(value, expect) and (accept is None or accept(value)):
            return Parsed(value, repairs)

    opener = "{" if expect is dict else "["
    starts = [m.start() for m in re.finditer(re.escape(opener), s)][:4]
    if expect is list and not starts:
        starts = [m.start() for m in re.finditer(r"\{", s)][:2]
    tried: list[str] = []
    for start in starts:
        extra = list(repairs)
        if s[:start].strip() and "prose around the JSON" not in extra:
            extra.append("prose around the JSON")
        try:
            value, end = json.JSONDecoder(strict=False).raw_decode(s, start)
            if s[end:].strip() and "prose around the JSON" not in extra:
                extra.append("prose around the JSON")
        except (json.JSONDecodeError, RecursionError):
            try:
                value, notes = lenient_loads(s, start)
            except (OutputError, RecursionError) as exc:
                tried.append(str(exc))
                continue
            extra += notes
        if expect is list and isinstance(value, dict):
            lists = [v for v in value.values() if isinstance(v, list)]
            if len(lists) == 1:
                value, extra = lists[0], [*extra, "list wrapped in an object"]
        if expect is dict and isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
            value, extra = value[0], [*extra, "object wrapped in a list"]
        if isinstance(value, expect) and (accept is None or accept(value)):
            return Parsed(value, _dedupe(extra))
    if expect is dict and not starts and re.match(r'\s*["\']?[A-Za-z_]+["\']?\s*:', s):
        value, notes = lenient_loads("{" + s + "}")
        if isinstance(value, dict) and (accept is None or accept(value)):
            return Parsed(value, _dedupe([*repairs, "missing braces", *notes]))
    if expect is list:
        items = _list_from_lines(s)
        if items:
            return Parsed(items, _dedupe([*repairs, "list given as lines"]))
    if not starts:
        what = "JSON object" if expect is dict else "JSON array"
        raise OutputError(f"no {what} in the answer")
    raise OutputError("the JSON in the answer could not be read" + (f" ({tried[0]})" if tried else "")
                      + (" or lacked the expected fields" if accept else ""))  # fmt: skip


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


# ---- the dwelling ---------------------------------------------------------------------


def _norm_key(k: str) -> str:
    k = re.sub(r"[^a-z0-9]+", "_", str(k).strip().lower()).strip("_")
    k = re.sub(r"^\d+_", "", k)  # "1_connection"
    return _ALIASES.get(k, k)


def _has_facets(d: Any) -> bool:
    return isinstance(d, dict) and any(_norm_key(k) in FACETS for k in d)


def _has_facets_deep(d: Any) -> bool:
    return _has_facets(d) or (isinstance(d, dict) and any(_has_facets(v) for v in d.values()))


def _unwrap(d: dict[str, Any], repairs: list[str]) -> dict[str, Any]:
    if _has_facets(d):
        return d
    inner = [v for v in d.values() if _has_facets(v)]
    if len(inner) == 1:
        repairs.append("nested object unwrapped")
        return inner[0]
    return d


def _text(v: Any, repairs: list[str], what: str) -> str | None:
    if v is None:
        return None
    if isinstance(v, str):
        return v.strip() or None
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        repairs.append(f"{what} coerced to text")
        return str(v)
    if isinstance(v, list):
        parts = [p for p in (_text(x, [], what) for x in v) if p]
        repairs.append(f"{what} list joined")
        return "; ".join(parts) or None
    if isinstance(v, dict):
        parts = [f"{k}: {t}" for k, x in v.items() if (t := _text(x, [], what))]
        repairs.append(f"{what} object flattened")
        return "; ".join(parts) or None
    return None


def _score(v: Any, default: float, repairs: list[str], what: str) -> float:
    x: float | None = None
    if isinstance(v, bool) or v is None:
        x = None
    elif isinstance(v, (int, float)):
        x = float(v)
    elif isinstance(v, str):
        t = v.strip().lower()
        m = re.fullmatch(r"(-?\d+(?:\.\d+)?|\.\d+)\s*%", t)
        frac = re.fullmatch(r"(-?\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)", t)
        if m:
            x = float(m.group(1)) / 100
        elif frac and float(frac.group(2)) > 0:
            x = float(frac.group(1)) / float(frac.group(2))
        elif t in _WORD_SCORES:
            x = _WORD_SCORES[t]
        else:
            num = re.match(r"-?(?:\d+(?:\.\d+)?|\.\d+)(?![\w.])", t)
            x = float(num.group(0)) if num else None
        if x is not None:
            repairs.append(f"{what} coerced to a number")
    elif isinstance(v, list) and len(v) == 1:
        return _score(v[0], default, repairs, what)
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
        items: list[Any] = [t for t in re.split(r"[,;\n]|\s+/\s+", v)]
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
        if not s or len(s) > THEME_MAX_CHARS or "[" in s:
            continue
        if s.lower() not in seen:
            seen.add(s.lower())
            out.append(s)
    if len(out) > MAX_THEMES:
        repairs.append(f"themes cut to {MAX_THEMES}")
    return out[:MAX_THEMES]


@dataclass
class Dwelling:
    facets: dict[str, str]
    themes: list[str]
    interestingness: float
    actionability: float
    repairs: list[str]


def parse_dwelling(text: str | None) -> Dwelling:
    """The five facets, themes and scores from a model's answer; raises OutputError."""
    parsed = extract_json(text, dict, accept=_has_facets_deep)
    repairs = list(parsed.repairs)
    obj = _unwrap(parsed.value, repairs)
    data: dict[str, Any] = {}
    for k, v in obj.items():
        nk = _norm_key(k)
        if nk not in data or data[nk] in (None, ""):
            data[nk] = v
    if any(_norm_key(k) != str(k) for k in obj):
        repairs.append("field names normalised")
    facets: dict[str, str] = {}
    missing = []
    for f in FACETS:
        t = _text(data.get(f), repairs, f)
        if t is None:
            missing.append(f)
        else:
            t = scrub_pii(t)
            if len(t) > FACET_MAX_CHARS:
                t = t[: FACET_MAX_CHARS - 1].rstrip() + "…"
                repairs.append(f"{f} cut to {FACET_MAX_CHARS} characters")
            facets[f] = t
    if len(facets) < MIN_FACETS:
        raise OutputError(f"missing or empty fields: {', '.join(missing)}")
    for f in missing:
        facets[f] = f"(the model gave no {f})"
        repairs.append(f"{f} missing: default text")
    themes = clean_themes(data.get("themes"), repairs)
    interestingness = _score(data.get("interestingness"), DEFAULT_INTERESTINGNESS, repairs, "interestingness")
    actionability = _score(data.get("actionability"), DEFAULT_ACTIONABILITY, repairs, "actionability")
    return Dwelling(facets, themes, interestingness, actionability, _dedupe(repairs))


def clip_raw(raw: str | None) -> str | None:
    if raw is None:
        return None
    raw = scrub_pii(raw)
    return raw if len(raw) <= RAW_MAX_CHARS else raw[:RAW_MAX_CHARS] + f"… [{len(raw) - RAW_MAX_CHARS} more chars]"


def failed_residue(reason: str, raw: str | None, *, model: str, route: str, tokens: int = 0, cost_cents: int = 0,
                   details: dict[str, Any] | None = None) -> Residue:  # fmt: skip
    """A dwell that did not work, saying so in every facet; the raw answer is kept (scrubbed)."""
    reason = scrub_pii(reason)
    said = f"The dwell failed: {reason}."
    return Residue(
        connection=said, tension=f"No tension was drawn: {reason}.", bridge=f"No bridge was drawn: {reason}.",
        surprise=f"No surprise was drawn: {reason}.", possibility=f"No possibility was drawn: {reason}.",
        themes=[], interestingness=DEFAULT_INTERESTINGNESS, actionability=DEFAULT_ACTIONABILITY,
        model_used=model, route=route, tokens_used=tokens, cost_cents=cost_cents, failed=True,
        raw_output=clip_raw(raw), details={"route": route, "model": model, "failure": reason, **(details or {})},
    )  # fmt: skip
