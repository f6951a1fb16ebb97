"""WordNet 3.0's database files, parsed directly (wndb(5), cntlist(5), lexnames(5)).

Used by scripts/build_kb.py and scripts/kb_relations.py; developer-only, like them."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

# lexnames(5): file number -> name.  Only the noun files (03..28) matter here.
NOUN_LEXFILES = {
    3: "Tops",
    4: "act",
    5: "animal",
    6: "artifact",
    7: "attribute",
    8: "body",
    9: "cognition",
    10: "communication",
    11: "event",
    12: "feeling",
    13: "food",
    14: "group",
    15: "location",
    16: "motive",
    17: "object",
    18: "person",
    19: "phenomenon",
    20: "plant",
    21: "possession",
    22: "process",
    23: "quantity",
    24: "relation",
    25: "shape",
    26: "state",
    27: "substance",
    28: "time",
}


@dataclass
class Pointer:
    symbol: str
    offset: int
    pos: str
    source: int  # 1-based word number in this synset, 0 = whole synset
    target: int  # 1-based word number in the target synset, 0 = whole synset


@dataclass
class Synset:
    offset: int
    lexfile: int
    words: list[str]  # as written in the data file (case preserved, underscores)
    lex_ids: list[int]
    pointers: list[Pointer]
    gloss: str  # definition only, example sentences removed
    # filled in later
    senses: list[int] = field(default_factory=list)  # sense number of each word (1-based)
    tags: list[int] = field(default_factory=list)  # SemCor tag count of each word sense

    @property
    def hypernyms(self) -> list[int]:
        return [p.offset for p in self.pointers if p.symbol in ("@", "@i") and p.pos == "n"]

    @property
    def is_instance(self) -> bool:
        return any(p.symbol == "@i" for p in self.pointers)


_INLINE_QUOTE = re.compile(
    r"(?:phrase|expression|as in|e\.g\.,?|i\.e\.,?|term|expressed as|called|word|words|as)\s*$",
    re.I,
)


def _split_gloss(raw: str) -> str:
    """Definition only: WordNet glosses are 'definition; "example"; "example"'.

    Examples are the ';'-separated parts that start with a quote, or a quotation that
    ends a part after ':' / ',' / a space; quotes inside a definition ("in the phrase
    \"make strides\"") are kept.
    """
    parts, buf, in_quote = [], [], False
    for ch in raw.strip():
        if ch == '"':
            in_quote = not in_quote
        if ch == ";" and not in_quote:
            parts.append("".join(buf))
            buf = []
        else:
            buf.append(ch)
    parts.append("".join(buf))
    keep = []
    for part in parts:
        text = part.strip()
        if not text or text.startswith('"'):
            continue
        m = re.search(r'(\s*[:,]\s*|\s+)"[^"]*"?\s*$', text)
        if m and (m.group(1).strip() or not _INLINE_QUOTE.search(text[: m.start()])):
            text = text[: m.start()]
        if text.count('"') % 2:
            text = text.replace('"', "")
        keep.append(text.strip().rstrip(";:,").strip())
    return "; ".join(k for k in keep if k)


def parse_data(path: Path) -> dict[int, Synset]:
    out: dict[int, Synset] = {}
    with path.open(encoding="latin-1") as fh:
        for line in fh:
            if line.startswith("  "):
                continue  # license header
            head, _, gloss = line.partition(" | ")
            parts = head.split()
            offset = int(parts[0])
            lexfile = int(parts[1])
            w_cnt = int(parts[3], 16)
            i = 4
            words, lex_ids = [], []
            for _ in range(w_cnt):
                w = parts[i]
                w = re.sub(r"\([a-z]+\)$", "", w)  # adjective markers (a)/(p)/(ip)
                words.append(w)
                lex_ids.append(int(parts[i + 1], 16))
                i += 2
            p_cnt = int(parts[i])
            i += 1
            ptrs = []
            for _ in range(p_cnt):
                sym, off, pos, st = parts[i : i + 4]
                ptrs.append(Pointer(sym, int(off), pos, int(st[:2], 16), int(st[2:], 16)))
                i += 4
            out[offset] = Synset(offset, lexfile, words, lex_ids, ptrs, _split_gloss(gloss))
    return out


def parse_index(path: Path) -> dict[str, list[int]]:
    """lemma (lower case, underscores) -> synset offsets in WordNet sense order."""
    out: dict[str, list[int]] = {}
    with path.open(encoding="latin-1") as fh:
        for line in fh:
            if line.startswith("  "):
                continue
            parts = line.split()
            lemma = parts[0]
            synset_cnt = int(parts[2])
            p_cnt = int(parts[3])
            offsets = parts[4 + p_cnt + 2 :]
            assert len(offsets) == synset_cnt, line
            out[lemma] = [int(o) for o in offsets]
    return out


def parse_cntlist(path: Path) -> dict[str, int]:
    """sense_key -> SemCor tag count (cntlist.rev: 'sense_key sense_number tag_cnt')."""
    out: dict[str, int] = {}
    if not path.exists():
        return out
    with path.open(encoding="latin-1") as fh:
        for line in fh:
            key, _num, cnt = line.split()
            out[key] = int(cnt)
    return out


def lemma_pos_tags(cntlist: dict[str, int]) -> dict[str, Counter]:
    """lemma -> Counter(ss_type digit -> total tag count), for the noun/verb/adj balance."""
    out: dict[str, Counter] = defaultdict(Counter)
    for key, cnt in cntlist.items():
        lemma, _, rest = key.partition("%")
        ss = rest[0]
        if ss == "5":
            ss = "3"  # adjective satellite counts as adjective
        out[lemma][ss] += cnt
    return out


def phrase_counts(wn: Path, max_n: int = 4) -> tuple[Counter, Counter]:
    """Counts of 1..max_n-grams over every gloss and example sentence in WordNet.

    Returns (lower-cased counts, counts of n-grams that start with a capital letter); the
    second one tells how often a name is mentioned as a name.
    """
    counts: Counter = Counter()
    caps: Counter = Counter()
    for pos in ("noun", "verb", "adj", "adv"):
        with (wn / f"data.{pos}").open(encoding="latin-1") as fh:
            for line in fh:
                if line.startswith("  "):
                    continue
                text = line.partition(" | ")[2]
                for chunk in re.split(r"[;:,.()\"!?]+", text):
                    toks = re.findall(r"[A-Za-z0-9'-]+", chunk)
                    low = [t.lower() for t in toks]
                    for n in range(1, max_n + 1):
                        for i in range(len(toks) - n + 1):
                            counts[" ".join(low[i : i + n])] += 1
                            if toks[i][0].isupper():
                                caps[" ".join(toks[i : i + n])] += 1
    return counts, caps


def parse_lemmas(path: Path) -> set[str]:
    if not path.exists():
        return set()
    with path.open(encoding="latin-1") as fh:
        return {line.split(" ", 1)[0] for line in fh if not line.startswith("  ")}


def display(word: str) -> str:
    return word.replace("_", " ")
