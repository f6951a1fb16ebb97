#!/usr/bin/env python3
"""Build Wander's concept knowledge base (backend/wander/adapters/kb/data/concepts.jsonl.gz) from WordNet 3.0.

Developer-only tool; never run at runtime or in tests.  Requirements:

    apt-get install -y wordnet-base          # WordNet 3.0 database in /usr/share/wordnet
    .venv/bin/pip install wordfreq           # word frequencies for filtering (build-time only)
    .venv/bin/python scripts/build_kb.py [--wordnet-dir DIR] [--out FILE]

The WordNet database files (data.noun, index.noun, cntlist.rev, data.verb/adj/adv for the
part-of-speech balance) are parsed directly; the format is documented in wndb(5) and
cntlist(5).  The output is deterministic for a given WordNet + wordfreq version.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import math
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from kb_relations import KINDS, RelationBuilder

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "backend" / "wander" / "kb" / "data" / "concepts.jsonl.gz"
RELATIONS_NAME = "relations.jsonl.gz"  # written next to the concepts file

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

# Target size of the knowledge base and per-lexfile shaping (see select()).
TARGET_TOTAL = 14_000
# Multiplier on the per-lexfile score threshold offset: abstract domains get a bonus so
# that concepts like "information", "opportunity", "asymmetry" are well covered, while
# long taxonomic tails (animals, plants, artifacts, people) are trimmed harder.
LEXFILE_BONUS = {
    "Tops": 0.6,
    "act": 0.2,
    "attribute": 0.4,
    "cognition": 0.45,
    "communication": 0.2,
    "event": 0.3,
    "feeling": 0.45,
    "motive": 0.6,
    "phenomenon": 0.35,
    "possession": 0.4,
    "process": 0.35,
    "relation": 0.5,
    "state": 0.3,
    "group": 0.1,
    "time": 0.1,
    "quantity": 0.05,
    "shape": 0.3,
    "substance": 0.1,
    "food": 0.1,
    "body": 0.15,
    "location": 0.0,
    "object": 0.1,
    "artifact": 0.0,
    "person": -0.1,
    "animal": 0.1,
    "plant": 0.0,
}

# Function words and other tokens whose corpus frequency says nothing about a noun sense
# ("he" = helium, "in" = inch/indium, "may" = the month, "will" = volition ...).
STOPWORDS = set(
    """
a an the and or but if then else of in on at by for with to from into onto upon as is
are was were be been being am do does did done have has had having i me my mine we us
our ours you your yours he him his she her hers it its they them their theirs this that
these those who whom whose which what when where why how all any both each few more most
other some such no nor not only own same so than too very can will just should now may
might must shall would could plus minus one two three four five six seven eight nine ten hundred
thousand million billion first second third up down out off over under again further
once here there also well still even back yet ok okay oh hi hey yes yeah la el de le les
di du da der die das en ii iii iv vi vii x o s t d m re ve ll get got go going went
""".split()
)


# --------------------------------------------------------------------------------------
# WordNet database parsing (wndb(5))
# --------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------
# Scoring and selection
# --------------------------------------------------------------------------------------

OFFENSIVE = re.compile(
    r"\bethnic slur\b|regarded as offensive|"
    r"\b(?:offensive|disparaging|derogatory|vulgar|obscene|slang)\s+(?:terms?|names?|words?|for)\b|"
    r"^\((?:[\w\s-]*\s)?slang\)|^slang\b",
    re.I,
)


def display(word: str) -> str:
    return word.replace("_", " ")


@dataclass
class Scored:
    synset: Synset
    score: float  # estimated zipf frequency of the concept (best word sense)
    word: int  # index of the display word
    rank: int  # WordNet sense number of the best word for this synset
    reason: str = ""  # why it was excluded ("" = eligible)


class Scorer:
    def __init__(self, wn: Path) -> None:
        from wordfreq import zipf_frequency  # build-time only dependency

        self._zipf = zipf_frequency
        self.synsets = parse_data(wn / "data.noun")
        self.index = parse_index(wn / "index.noun")
        self.cntlist = parse_cntlist(wn / "cntlist.rev")
        self.pos_tags = lemma_pos_tags(self.cntlist)
        self.verbs = parse_lemmas(wn / "index.verb")
        self.other_pos = set(self.verbs)
        for pos in ("adj", "adv"):
            self.other_pos |= parse_lemmas(wn / f"index.{pos}")
        self._zcache: dict[str, float] = {}
        self.inflected = set()  # inflected forms of verbs/adjectives ("saw", "longer")
        for pos in ("verb", "adj", "adv"):
            exc = wn / f"{pos}.exc"
            if exc.exists():
                for line in exc.read_text(encoding="latin-1").splitlines():
                    form, *bases = line.split()
                    if form not in bases:
                        self.inflected.add(form)
        self.phrases, self.names = phrase_counts(wn)
        # Given names ("Charlotte", "Nancy", "Pierre"): first words of people's full names.
        self.given_names = {
            w.split("_")[0].lower()
            for s in self.synsets.values()
            if s.lexfile == 18 and s.is_instance
            for w in s.words
            if "_" in w
        }
        self.surnames = {
            w.split("_")[-1].lower()
            for s in self.synsets.values()
            if s.lexfile == 18 and s.is_instance
            for w in s.words
            if "_" in w
        }
        # Single name -> two-word instance names ending in it ("zealand" -> "new_zealand").
        self.compound_names: dict[str, list[str]] = defaultdict(list)
        for s in self.synsets.values():
            if s.is_instance:
                for w in s.words:
                    parts = w.lower().split("_")
                    if len(parts) == 2:
                        self.compound_names[parts[1]].append(w.lower())

    def zipf(self, lemma: str) -> float:
        z = self._zcache.get(lemma)
        if z is None:
            z = self._zipf(lemma.replace("_", " "), "en")
            self._zcache[lemma] = z
        return z

    def verb_base(self, stem: str) -> bool:
        cands = {stem, stem + "e"}
        if len(stem) > 2 and stem[-1] == stem[-2]:
            cands.add(stem[:-1])
        return any(c in self.verbs for c in cands)

    def is_name(self, word: str) -> bool:
        """A word that is also a person's given name or surname ("mike", "mina")."""
        lw = word.lower()
        return lw in self.given_names or lw in self.surnames

    def tag_count(self, s: Synset, j: int) -> int:
        lw = s.words[j].lower()
        return self.cntlist.get(f"{lw}%1:{s.lexfile:02d}:{s.lex_ids[j]:02d}::", 0)

    def sense_rank(self, s: Synset, j: int) -> tuple[int, int]:
        senses = self.index[s.words[j].lower()]
        return senses.index(s.offset) + 1, len(senses)

    @staticmethod
    def scorable(word: str) -> bool:
        w = word.lower()
        bare = re.sub(r"[^a-z]", "", w)
        if len(bare) <= 1 or re.search(r"[0-9.]|n't", w):
            return False
        if w in STOPWORDS or bare in STOPWORDS:
            return False
        if len(bare) == 2 and w not in {"ox", "ax", "tv", "pc", "ai", "id", "ego", "dj"}:
            return False
        return True

    def pair_score(self, s: Synset, j: int) -> float:
        """Estimated zipf frequency of word j used in the sense of synset s."""
        word = s.words[j]
        if not self.scorable(word):
            return -9.0
        lw = word.lower()
        tokens = [t for t in re.split(r"[_\- ]+", lw) if t]
        if any(t in STOPWORDS for t in tokens) and len(tokens) > 1 and tokens[-1] in STOPWORDS:
            return -9.0
        z = self.zipf(lw)
        tag = self.tag_count(s, j)
        if len(tokens) > 1:
            # wordfreq has unigram data only: a multiword estimate is a blend of its parts
            # and says little about the phrase itself.  Discount it, and give back part of
            # the discount for phrases that WordNet's own glosses and examples use.
            mentions = self.phrases.get(" ".join(re.split(r"[_ ]+", lw)), 0)
            z -= 1.6 * (len(tokens) - 1)
            z += min(0.3 * math.log2(1 + mentions), 1.0) + (0.3 if tag else 0.0)
        if lw in self.inflected:
            z -= 1.0
        elif lw.endswith("ing") and "_" not in lw and self.verb_base(lw[:-3]):
            z -= 0.4  # "branding", "walking": the frequency mostly counts the verb
        # All-capital abbreviations collide with ordinary words (WHO, AIDS, US, IT ...).
        if word.isupper():
            z -= 0.6
        # Part-of-speech balance from SemCor ("walk" is mostly a verb).
        c = self.pos_tags.get(lw)
        if c:
            noun = c.get("1", 0)
            share = (noun + 0.5) / (sum(c.values()) + 0.5)
            z += max(math.log10(share), -2.0)
        # Sense balance within the noun senses: tag counts smoothed with a 1/rank prior.
        rank, n = self.sense_rank(s, j)
        prior = (1.0 / rank) / sum(1.0 / k for k in range(1, n + 1))
        noun_tags = c.get("1", 0) if c else 0
        share = (tag + 2.0 * prior) / (noun_tags + 2.0)
        z += max(math.log10(share), -2.0)
        # Prefer distinct concepts over the minor senses of a common word, and keep at most
        # the 3 most frequent senses of any word.
        z -= 0.3 * (rank - 1) if rank <= 3 else 5.0
        return z

    def score(self, s: Synset) -> Scored:
        scores = [self.pair_score(s, j) for j in range(len(s.words))]
        best = max(range(len(scores)), key=lambda j: scores[j])
        # Display word: WordNet's first word is the canonical one unless another word is
        # clearly more common in this sense.
        alts = [j for j in range(1, len(scores)) if scores[j] > -9.0 and not self.is_name(s.words[j])]
        alt = max(alts, key=lambda j: scores[j] - 0.3 * s.words[j].count("_"), default=None)
        disp = 0
        if alt is not None and (scores[0] <= -9.0 or scores[alt] >= scores[0] + 1.2):
            disp = alt
        rank, _ = self.sense_rank(s, best)
        out = Scored(s, scores[best], disp, rank)
        if scores[best] <= -9.0:
            out.reason = "unscorable"
        elif OFFENSIVE.search(s.gloss):
            out.reason = "offensive"
        elif not s.gloss:
            out.reason = "no gloss"
        elif s.is_instance:
            out.reason = self._instance_reason(s, best)
        return out

    def _instance_reason(self, s: Synset, best: int) -> str:
        """Named entities (instance hypernyms): keep only very well known ones."""
        if s.lexfile == 18:
            # People: WordNet derives words from the famous ones (Freudian, Marxist,
            # Shakespearean); require that plus an unambiguous, reasonably common name.
            if not any(p.symbol == "+" for p in s.pointers):
                return "instance: person"
            for w in s.words:
                lw = w.lower()
                if "_" in lw or lw in self.other_pos or self.zipf(lw) < 3.2:
                    continue
                rank, _ = self.sense_rank(s, s.words.index(w))
                if rank == 1:
                    return ""
            return "instance: person"
        word = s.words[best]
        lw = word.lower()
        rank, n = self.sense_rank(s, best)
        raw = self.zipf(lw)
        name = word.replace("_", " ")
        if rank != 1 or (n > 1 and lw in self.other_pos):
            return "instance"
        if lw.endswith("s") and self.zipf(lw[:-1]) > raw:
            return "instance"  # "Numbers", "Judges", "Tours": plural of a common noun
        if "_" in lw:
            # Multiword names: the unigram blend is meaningless, ask for a well connected
            # entity that glosses mention (New York, World War II, Middle East ...).
            if raw < 4.3 or self.names.get(name, 0) < 5 or len(s.pointers) < 4:
                return "instance"
        elif raw < 3.9 or self.names.get(name, 0) < 3:
            return "instance"
        elif lw in self.given_names and self.names.get(name, 0) < 10:
            return "instance"
        else:
            # "Zealand" (New Zealand), "Orleans" (New Orleans), "Jersey" (New Jersey)
            for other in self.compound_names.get(lw, ()):
                if self.zipf(other) >= raw - 0.3:
                    return "instance"
        return ""

    def famous_person_score(self, s: Synset) -> float:
        """Well-known people: rank them by how common their (unambiguous) name is."""
        return max(self.zipf(w.lower()) for w in s.words if "_" not in w) + 0.3

    def structure_bonus(self, s: Synset) -> float:
        hypo = sum(1 for p in s.pointers if p.symbol in ("~", "~i"))
        return min(0.12 * math.log2(1 + hypo), 0.5)


# --------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------


class Builder:
    def __init__(self, scorer: Scorer) -> None:
        self.sc = scorer
        self.synsets = scorer.synsets
        self._scored: dict[int, Scored] = {}
        self._keys: dict[int, str] = {}

    def scored(self, offset: int) -> Scored:
        r = self._scored.get(offset)
        if r is None:
            r = self._scored[offset] = self.sc.score(self.synsets[offset])
        return r

    def key(self, offset: int) -> str:
        """NLTK-style name: first word, part of speech, sense number of that word."""
        k = self._keys.get(offset)
        if k is None:
            s = self.synsets[offset]
            rank, _ = self.sc.sense_rank(s, 0)
            k = self._keys[offset] = f"{s.words[0].lower()}.n.{rank:02d}"
        return k

    def lemma(self, offset: int) -> str:
        s = self.synsets[offset]
        return display(s.words[self.scored(offset).word])

    def final_score(self, r: Scored) -> float:
        s = r.synset
        if s.is_instance and s.lexfile == 18:
            base = self.sc.famous_person_score(s)
        else:
            base = r.score - (0.3 if s.is_instance else 0.0)
        return base + LEXFILE_BONUS[NOUN_LEXFILES[s.lexfile]] + self.sc.structure_bonus(s)

    def select(self, target: int) -> list[int]:
        eligible = [self.scored(o) for o in self.synsets]
        eligible = [r for r in eligible if not r.reason]
        eligible.sort(key=lambda r: (-self.final_score(r), r.synset.offset))
        chosen = [r.synset.offset for r in eligible[:target]]
        root = self.sc.index["entity"][0]
        if root not in chosen:
            chosen.append(root)
        return chosen

    def path(self, offset: int) -> list[str]:
        out: list[str] = []
        seen = {offset}
        s = self.synsets[offset]
        while s.hypernyms:
            nxt = s.hypernyms[0]
            if nxt in seen:
                break
            seen.add(nxt)
            out.append(self.lemma(nxt))
            s = self.synsets[nxt]
        return out

    def topics(self, offset: int) -> list[str]:
        """Topic domains (';c'), from the synset or else its nearest hypernyms (3 levels)."""
        frontier = [offset]
        for _depth in range(4):
            found: list[str] = []
            for o in frontier:
                for p in self.synsets[o].pointers:
                    if p.symbol == ";c" and p.pos == "n":
                        name = display(self.synsets[p.offset].words[0])
                        if name not in found:
                            found.append(name)
            if found:
                return found
            frontier = [h for o in frontier for h in self.synsets[o].hypernyms]
            if not frontier:
                break
        return []

    def opposites(self, offset: int) -> list[str]:
        """Antonyms ('!' pointers are between word senses) of the display word, else of
        the synset's first word; an antonym of another synonym can be misleading."""
        s = self.synsets[offset]
        by_source: dict[int, list[str]] = defaultdict(list)
        for p in s.pointers:
            if p.symbol == "!" and p.pos == "n":
                t = self.synsets[p.offset]
                word = display(t.words[p.target - 1]) if p.target else self.lemma(p.offset)
                src = p.source - 1 if p.source else -1
                if word not in by_source[src]:
                    by_source[src].append(word)
        disp = self.scored(offset).word
        return by_source.get(disp) or by_source.get(0) or by_source.get(-1) or []

    def records(self, chosen: list[int]) -> list[dict]:
        recs = []
        for o in chosen:
            s = self.synsets[o]
            r = self.scored(o)
            domains = [NOUN_LEXFILES[s.lexfile]]
            domains += [d for d in self.topics(o) if d not in domains]
            recs.append(
                {
                    "key": self.key(o),
                    "lemma": self.lemma(o),
                    "label": "",
                    "gloss": s.gloss,
                    "domains": domains,
                    "broader": [self.key(h) for h in s.hypernyms],
                    "path": self.path(o),
                    "opposites": self.opposites(o),
                    "freq": round(max(self.final_score(r) - LEXFILE_BONUS[NOUN_LEXFILES[s.lexfile]], 0.0), 2),
                    "_offset": o,
                }
            )
        self.assign_labels(recs)
        recs.sort(key=lambda d: d["key"])
        for d in recs:
            del d["_offset"]
        return recs

    def _disambiguators(self, rec: dict) -> list[str]:
        """Candidate parenthetical hints, best first."""
        s = self.synsets[rec["_offset"]]
        lemma = rec["lemma"].lower()
        cands: list[str] = []
        for h in s.hypernyms:
            hs = self.synsets[h]
            words = [self.lemma(h)] + [display(w) for w in hs.words]
            words = sorted(
                dict.fromkeys(words),
                key=lambda w: (
                    w != self.lemma(h),
                    -self.scored(h).score if w == self.lemma(h) else 0,
                ),
            )
            cands += words
            for hh in hs.hypernyms[:1]:
                cands.append(self.lemma(hh))
        cands += rec["domains"][1:]
        cands = [c for c in cands if c.lower() != lemma and lemma not in c.lower().split()]
        cands = [c for c in cands if len(c.split()) <= 3]
        # Gloss start: first words up to ~4 content words.
        words = re.findall(r"[\w'-]+", re.sub(r"^\([^)]*\)\s*", "", rec["gloss"]))
        words = [w for w in words if w.lower() not in {"a", "an", "the", "any", "of", "or"}]
        for n in (3, 4, 6):
            cands.append(" ".join(words[:n]))
        return [c for c in dict.fromkeys(cands) if c]

    def assign_labels(self, recs: list[dict]) -> None:
        groups: dict[str, list[dict]] = defaultdict(list)
        for d in recs:
            groups[d["lemma"].lower()].append(d)
        taken: set[str] = set()
        for group in groups.values():
            if len(group) == 1:
                group[0]["label"] = group[0]["lemma"]
                taken.add(group[0]["label"].lower())
        for _lemma, group in sorted(groups.items()):
            if len(group) == 1:
                continue
            group.sort(key=lambda d: (-d["freq"], d["key"]))
            used: set[str] = set()
            for d in group:
                label = None
                for c in self._disambiguators(d):
                    cand = f"{d['lemma']} ({c})"
                    if c.lower() not in used and cand.lower() not in taken:
                        label = cand
                        used.add(c.lower())
                        break
                if label is None:
                    label = f"{d['lemma']} ({d['key']})"
                d["label"] = label
                taken.add(label.lower())


def write_jsonl_gz(recs: list[dict], out: Path) -> None:
    buf = io.BytesIO()
    # mtime=0 and no file name: byte-identical output for identical input.
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as gz:
        for d in recs:
            line = json.dumps(d, ensure_ascii=False, separators=(",", ":"))
            gz.write(line.encode("utf-8") + b"\n")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(buf.getvalue())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wordnet-dir", type=Path, default=Path("/usr/share/wordnet"))
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--target", type=int, default=TARGET_TOTAL)
    ap.add_argument("--relations-out", type=Path, default=None, help=f"default: {RELATIONS_NAME} beside --out")
    args = ap.parse_args(argv)
    if not (args.wordnet_dir / "data.noun").exists():
        print(
            f"WordNet not found in {args.wordnet_dir}: apt-get install wordnet-base",
            file=sys.stderr,
        )
        return 2
    builder = Builder(Scorer(args.wordnet_dir))
    chosen = builder.select(args.target)
    recs = builder.records(chosen)
    write_jsonl_gz(recs, args.out)
    rel = RelationBuilder(
        args.wordnet_dir, builder.synsets, builder.key, builder.lemma, parse_data, parse_index, display
    )
    rel_out = args.relations_out or args.out.parent / RELATIONS_NAME
    rel_lines = rel.lines(chosen)
    if [d["key"] for d in rel_lines[: len(recs)]] != [d["key"] for d in recs]:
        raise SystemExit("relations lines out of step with the concepts")
    write_jsonl_gz(rel_lines, rel_out)

    lex = Counter(d["domains"][0] for d in recs)
    topics = Counter(t for d in recs for t in d["domains"][1:])
    print(f"wrote {len(recs)} concepts to {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
    print("per lexicographer file:")
    for name, n in lex.most_common():
        print(f"  {name:<14}{n:>6}")
    print(
        f"with topic domains: {sum(1 for d in recs if len(d['domains']) > 1)} "
        f"({len(topics)} distinct; top: {', '.join(f'{t} {n}' for t, n in topics.most_common(12))})"
    )
    print(f"with opposites: {sum(1 for d in recs if d['opposites'])}")
    print(f"labels disambiguated: {sum(1 for d in recs if d['label'] != d['lemma'])}")
    print(f"instances (named entities): {sum(1 for o in chosen if builder.synsets[o].is_instance)}")
    print(f"wrote {len(rel_lines)} relation lines to {rel_out} ({rel_out.stat().st_size / 1e6:.2f} MB)")
    print(f"with more than one lemma: {sum(1 for d in rel_lines[: len(recs)] if len(d['lemmas']) > 1)}")
    for kind in KINDS:
        print(
            f"  {kind:<16}{rel.counts[kind]:>6} concepts {rel.counts[kind + ' links']:>7} links"
            f" {rel.counts[kind + ' to concepts']:>6} to concepts"
        )
    for what in ("outside nouns", "outside verbs", "outside adjectives"):
        print(f"{what}: {rel.counts[what]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
