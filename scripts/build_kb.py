#!/usr/bin/env python3
"""Build Wander's concept knowledge base (backend/wander/adapters/kb/data/concepts.jsonl.gz) from WordNet 3.0.

Developer-only tool; never run at runtime or in tests.  Requirements:

    apt-get install -y wordnet-base          # WordNet 3.0 database in /usr/share/wordnet
    .venv/bin/pip install wordfreq           # word frequencies for filtering (build-time only)
    .venv/bin/python scripts/build_kb.py [--wordnet-dir DIR] [--out FILE]

The WordNet database files (data.noun, index.noun, cntlist.rev, data.verb/adj/adv for the
part-of-speech balance) are parsed directly; the format is documented in wndb(5) and
cntlist(5).  The output is deterministic for a given WordNet + wordfreq version.
wordnet_db.py parses the database, kb_scoring.py scores the noun senses, this file chooses
the concepts and writes their records; kb_relations.py writes the relations file.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

from kb_relations import KINDS, RelationBuilder
from kb_scoring import Scored, Scorer
from wordnet_db import NOUN_LEXFILES, display, parse_data, parse_index

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "backend" / "wander" / "adapters" / "kb" / "data" / "concepts.jsonl.gz"
RELATIONS_NAME = "relations.jsonl.gz"  # written next to the concepts file

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


def report_concepts(builder: Builder, chosen: list[int], recs: list[dict], out: Path) -> None:
    """What the concepts file holds: per lexicographer file, topics, opposites, labels."""
    lex = Counter(d["domains"][0] for d in recs)
    topics = Counter(t for d in recs for t in d["domains"][1:])
    print(f"wrote {len(recs)} concepts to {out} ({out.stat().st_size / 1e6:.2f} MB)")
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


def report_relations(rel: RelationBuilder, rel_lines: list[dict], n_concepts: int, rel_out: Path) -> None:
    """What the relations file holds: lemmas, and per kind of relation its concepts and links."""
    print(f"wrote {len(rel_lines)} relation lines to {rel_out} ({rel_out.stat().st_size / 1e6:.2f} MB)")
    print(f"with more than one lemma: {sum(1 for d in rel_lines[:n_concepts] if len(d['lemmas']) > 1)}")
    for kind in KINDS:
        print(
            f"  {kind:<16}{rel.counts[kind]:>6} concepts {rel.counts[kind + ' links']:>7} links"
            f" {rel.counts[kind + ' to concepts']:>6} to concepts"
        )
    for what in ("outside nouns", "outside verbs", "outside adjectives"):
        print(f"{what}: {rel.counts[what]}")


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
    report_concepts(builder, chosen, recs, args.out)
    report_relations(rel, rel_lines, len(recs), rel_out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
