"""WordNet's relations around the shipped concepts: backend/wander/adapters/kb/data/relations.jsonl.gz.

Used by scripts/build_kb.py after it has chosen the concepts; developer-only, like it.
The concepts file keeps its bytes (its fingerprint keys every database's embedded corpus
and the machine's vector cache), so the relations ship in a file of their own, one JSON
object per line:

- first one line per concept, in the concepts file's order (sorted by key): its `lemmas`
  (every word of the synset), its `broader` keys again, and one list per relation kind;
- then one line per WordNet synset outside the concepts that those lines name (a relation
  target, or a hypernym up to the root), sorted by key: its display `lemma` and
  `broader` (nouns), its `lemma`, `gloss`, `lexname` and sentence `frames` (verbs), or its
  `lemma` and `gloss` (adjectives).

A target is a WordNet key (`car.n.01`, `teach.v.01`, `large.a.01`, `big.s.01`); where the
pointer links one word of the target synset that is not its display lemma, `|word` follows
the key ("instruct.v.01"'s synset is "teach, learn, instruct": `teach.v.01|instruct`).
Empty lists are left out. The format is documented in backend/wander/adapters/kb/data/README.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wander.adapters.kb.corpus import RELATION_KINDS

# wninput(5) pointer symbol of a noun synset -> the relation kind it adds to the concept.
NOUN_POINTERS: dict[str, str] = {
    "!": "antonyms",
    "%p": "parts",  # meronym: the target is a part of this concept
    "#p": "part_of",  # holonym: this concept is a part of the target
    "%m": "members",
    "#m": "member_of",
    "%s": "substances",
    "#s": "substance_of",
    "=": "attributes",  # noun -> the adjectives that are its values (size -> large, small)
    "+": "derivations",  # verbs among the targets go to "verbs"
    ";c": "topics",
    "-c": "topic_members",
    ";u": "usages",
    "-u": "usage_members",
    ";r": "regions",
    "-r": "region_members",
}
# Order of the fields in a concept line (after key, lemmas, broader): the corpus's own.
KINDS = RELATION_KINDS

# lexnames(5) for verbs.
VERB_LEXFILES = {
    29: "body",
    30: "change",
    31: "cognition",
    32: "communication",
    33: "competition",
    34: "consumption",
    35: "contact",
    36: "creation",
    37: "emotion",
    38: "motion",
    39: "perception",
    40: "possession",
    41: "social",
    42: "stative",
    43: "weather",
}

POS_NAMES = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}


class RelationBuilder:
    """Everything WordNet says about the chosen synsets beyond their hypernyms."""

    def __init__(
        self,
        wn: Path,
        nouns: dict[int, Any],
        noun_key: Callable[[int], str],
        noun_lemma: Callable[[int], str],
        parse_data: Callable[[Path], dict[int, Any]],
        parse_index: Callable[[Path], dict[str, list[int]]],
        display: Callable[[str], str],
    ) -> None:
        self.nouns = nouns
        self.noun_key = noun_key
        self.noun_lemma = noun_lemma
        self.display = display
        self.data: dict[str, dict[int, Any]] = {"n": nouns}
        self.index: dict[str, dict[str, list[int]]] = {}
        for pos in ("v", "a", "r"):
            self.data[pos] = parse_data(wn / f"data.{POS_NAMES[pos]}")
            self.index[pos] = parse_index(wn / f"index.{POS_NAMES[pos]}")
        self.ss_type = _ss_types(wn / "data.adj")
        self.frames = _verb_frames(wn / "data.verb")
        self.counts: Counter = Counter()
        self._where: dict[str, tuple[int, str]] = {}  # every key made so far -> (offset, pos)

    # ---- keys and nodes ------------------------------------------------------------------

    def _pos(self, pos: str) -> str:
        return "a" if pos == "s" else pos

    def key(self, offset: int, pos: str) -> str:
        pos = self._pos(pos)
        if pos == "n":
            key = self.noun_key(offset)
        else:
            s = self.data[pos][offset]
            senses = self.index[pos][s.words[0].lower()]
            letter = self.ss_type.get(offset, "a") if pos == "a" else pos
            key = f"{s.words[0].lower()}.{letter}.{senses.index(offset) + 1:02d}"
        self._where[key] = (offset, pos)
        return key

    def node_lemma(self, offset: int, pos: str) -> str:
        pos = self._pos(pos)
        if pos == "n":
            return self.noun_lemma(offset)
        return self.display(self.data[pos][offset].words[0])

    def target(self, p: Any) -> str:
        """A pointer's target as `key` or `key|word` (a lexical pointer to another word)."""
        key = self.key(p.offset, p.pos)
        if p.target:
            word = self.display(self.data[self._pos(p.pos)][p.offset].words[p.target - 1])
            if word != self.node_lemma(p.offset, p.pos):
                return f"{key}|{word}"
        return key

    # ---- lines ---------------------------------------------------------------------------

    def concept_line(self, offset: int) -> dict:
        s = self.nouns[offset]
        line: dict[str, Any] = {
            "key": self.noun_key(offset),
            "lemmas": list(dict.fromkeys(self.display(w) for w in s.words)),
            "broader": [self.key(h, "n") for h in s.hypernyms],
        }
        found: dict[str, list[tuple[str, bool]]] = {k: [] for k in KINDS}
        own = self.noun_lemma(offset)
        for p in s.pointers:
            kind = NOUN_POINTERS.get(p.symbol)
            if kind is None:
                continue
            if kind in ("antonyms", "parts", "part_of", "members", "member_of", "substances", "substance_of"):
                if p.pos != "n":
                    continue
            if kind == "derivations" and p.pos == "v":
                kind = "verbs"
            if p.pos == "r":
                continue  # a handful of adverb domain members: nothing to say with them
            if p.pos == "n" and p.offset == offset:
                continue  # a link between two words of this very synset ("bondage", "thrall")
            from_display = p.source == 0 or self.display(s.words[p.source - 1]) == own
            found[kind].append((self.target(p), from_display))
        for kind in KINDS:
            targets = _one_per_key(found[kind])
            if targets:
                line[kind] = targets
                self.counts[kind] += 1
                self.counts[f"{kind} links"] += len(targets)
        return line

    def lines(self, chosen: list[int]) -> list[dict]:
        """Concept lines (sorted by key), then the outside synsets they name (sorted by key)."""
        concept_lines = sorted((self.concept_line(o) for o in chosen), key=lambda d: d["key"])
        inside = {d["key"] for d in concept_lines}
        for d in concept_lines:
            for kind in KINDS:
                self.counts[f"{kind} to concepts"] += sum(1 for t in d.get(kind, ()) if t.split("|")[0] in inside)
        wanted: set[str] = set()
        for d in concept_lines:
            for kind in ("broader", *KINDS):
                for t in d.get(kind, ()):
                    wanted.add(t.split("|", 1)[0])
        outside: dict[str, dict] = {}
        todo = sorted(wanted - inside)
        while todo:
            key = todo.pop()
            if key in outside or key in inside:
                continue
            offset, pos = self._where[key]
            if pos == "n":
                s = self.nouns[offset]
                node: dict[str, Any] = {"key": key, "lemma": self.noun_lemma(offset)}
                broader = [self.key(h, "n") for h in s.hypernyms]
                if broader:
                    node["broader"] = broader
                    todo.extend(b for b in broader if b not in outside and b not in inside)
            else:
                s = self.data[pos][offset]
                node = {"key": key, "lemma": self.node_lemma(offset, pos), "gloss": s.gloss}
                if pos == "v":
                    node["lexname"] = VERB_LEXFILES[s.lexfile]
                    node["frames"] = self.frames.get(offset, [])
            outside[key] = node
        pos_of = Counter(k.rsplit(".", 2)[1] for k in outside)
        self.counts["outside nouns"] = pos_of["n"]
        self.counts["outside verbs"] = pos_of["v"]
        self.counts["outside adjectives"] = pos_of["a"] + pos_of["s"]
        return concept_lines + [outside[k] for k in sorted(outside)]


def _one_per_key(targets: list[tuple[str, bool]]) -> list[str]:
    """One target per synset, in pointer order. Of several links to one synset, the one from
    the concept's display word wins (its `opposites` name the same words), then the one to
    the target's display word (a plain key), then the first."""
    out: dict[str, tuple[str, bool]] = {}
    for t, from_display in targets:
        key = t.split("|", 1)[0]
        have = out.get(key)
        if have is None or (from_display, t == key) > (have[1], have[0] == key):
            out[key] = (t, from_display)
    return [t for t, _ in out.values()]


def _verb_frames(path: Path) -> dict[int, list[int]]:
    """Verb synset offset -> the numbers of its sentence frames (wndb(5): `f_cnt + f_num w_num`
    after the pointers), for any of its words, in number order."""
    out: dict[int, list[int]] = {}
    with path.open(encoding="latin-1") as fh:
        for line in fh:
            if line.startswith("  "):
                continue
            parts = line.partition(" | ")[0].split()
            i = 4 + 2 * int(parts[3], 16)
            i += 1 + 4 * int(parts[i])
            if i < len(parts):
                count = int(parts[i])
                out[int(parts[0])] = sorted({int(parts[i + 2 + 3 * k]) for k in range(count)})
    return out


def _ss_types(path: Path) -> dict[int, str]:
    """Adjective synset offset -> 'a' (head) or 's' (satellite), the letter of its key."""
    out: dict[int, str] = {}
    with path.open(encoding="latin-1") as fh:
        for line in fh:
            if not line.startswith("  "):
                parts = line.split(" ", 3)
                out[int(parts[0])] = parts[2]
    return out
