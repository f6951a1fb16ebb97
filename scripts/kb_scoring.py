"""How common a WordNet noun sense is (an estimated zipf frequency from wordfreq, SemCor's
tag counts and WordNet's own glosses), and which senses are left out and why.

Used by scripts/build_kb.py; developer-only, like it."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from wordnet_db import Synset, lemma_pos_tags, parse_cntlist, parse_data, parse_index, parse_lemmas, phrase_counts

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

OFFENSIVE = re.compile(
    r"\bethnic slur\b|regarded as offensive|"
    r"\b(?:offensive|disparaging|derogatory|vulgar|obscene|slang)\s+(?:terms?|names?|words?|for)\b|"
    r"^\((?:[\w\s-]*\s)?slang\)|^slang\b",
    re.I,
)


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
