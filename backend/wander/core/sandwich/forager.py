"""FORAGER (004, 3.2.1) and the autonomous loop of 6.2: forage, identify, assemble, validate;
patience drops on every failure and resets on a sandwich. Every attempt is logged (with its
curiosity prompt, source, outcome and rationale) and emitted as events, like a wander's.

Sources: the concept corpus and the user's imported notes (the Knowledge port), local files
and folders, URLs and the online sources (the SourceReader port: sandwich/sources), or a topic.
Novelty threshold: content whose embedding is within NOVELTY_COS of something foraged
recently is skipped as already seen.

Wandering: from a page that was not already seen, the forager follows up to FANOUT of its
links, down to `wander_depth` links deep and `wander_pages` pages in all; every page reached
or not (robots.txt, the egress policy, an error) is an attempt in the log.

Nothing slow runs on the event loop: reading a source (network, files, parsing), embedding,
identifying and assembling go to a worker thread; only the store's calls are awaited here."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import numpy as np

from wander.core.domain import sandwich as sw
from wander.core.domain.errors import InvalidInput
from wander.core.domain.geometry import normalize
from wander.core.engine.ports import Embedder, EventBus, Knowledge
from wander.core.sandwich import validator
from wander.core.sandwich.assembler import Assembler
from wander.core.sandwich.identifier import Identifier
from wander.core.sandwich.model import (
    ATTEMPTED,
    DUPLICATE,
    MADE,
    MADE_SUBJECT,
    NO_BREAD,
    NO_FILLING,
    REJECTED,
    REST,
    SOURCE_ERROR,
    Attempt,
    Content,
    content_hash,
)
from wander.core.sandwich.ports import SandwichStore, SourceError, SourceReader
from wander.core.sandwich.relations import lineage
from wander.core.sandwich.reuben import Reuben
from wander.core.sandwich.run_state import RunState, RunSummary, check_run

log = logging.getLogger(__name__)
NOVELTY_COS = 0.93  # this close to recently foraged content: already seen
RECENT = 200  # how many recent contents the novelty threshold looks at
NEIGHBOURS = 7  # corpus foraging: a concept and this many neighbours in the wander band
MAX_ATTEMPTS = 200
FANOUT = 3  # links followed from one page while wandering
CHUNKS_PER_PAGE = 4  # of a page reached by wandering, the first chunks are attempted
KNOWN = ("corpus", "notes", "topic")  # content kinds already in the knowledge base (or a typed topic)


class Forager:
    def __init__(
        self,
        *,
        knowledge: Knowledge,
        embedder: Embedder,
        store: SandwichStore,
        bus: EventBus,
        reader: SourceReader,
        assembler: Assembler,
        seed: int | None = None,
        online: Sequence[str] = (),
        wander_depth: int = 0,
        wander_pages: int = 8,
        voice: bool = True,
        learn: Callable[[Content, np.ndarray], Awaitable[None]] | None = None,
    ):
        """online: the sources the autonomous forager may ask besides the corpus (names the
        reader knows); wander_depth/wander_pages: the wandering budget of one source; learn:
        given each new content from outside the knowledge base (a page, a file) and its
        vector, adds it to the knowledge base the wanders walk (wander.bootstrap.knowledge)."""
        self.learn = learn
        self.online = tuple(n for n in online if n != "corpus")
        self.voice = voice
        self._voice_seed = None if seed is None else seed + 7  # its own generator: the walk's draws stay as they were
        self.reuben = Reuben(np.random.default_rng(self._voice_seed), enabled=voice)
        self.wander_depth = wander_depth
        self.wander_pages = wander_pages
        self.knowledge = knowledge
        self.embedder = embedder
        self.store = store
        self.bus = bus
        self.reader = reader
        self.identifier = Identifier(knowledge, embed=embedder.embed)
        self.assembler = assembler
        self.rng = np.random.default_rng(seed)
        self._notes = [i for i in range(len(knowledge)) if knowledge.concept(i).source.startswith("import:")]

    async def _publish(self, events: list) -> None:
        """The events are stored (forage_events) before this; a bus that cannot carry them now
        (NATS away: they go to wander.forage.<run_id>.* when it is up) must not stop the foraging."""
        try:
            await self.bus.publish(events)
        except Exception as exc:  # noqa: BLE001
            log.warning("forage events not published on the bus: %s", exc)

    # ---- sources ------------------------------------------------------------------------

    def corpus_content(self, index: int) -> Content:
        """A concept and its neighbours at a productive distance (cosine 0.3 to 0.7): the
        corpus's own 'article' about it, glosses included."""
        c = self.knowledge.concept(index)
        sims = self.knowledge.similarities(self.knowledge.vector(index))
        band = np.flatnonzero((sims > 0.3) & (sims < 0.7))
        picks: list[int] = (
            [int(j) for j in self.rng.choice(band, size=min(NEIGHBOURS, len(band)), replace=False)] if len(band) else []
        )
        lines = [f"{c.label}: {c.gloss}"] + [
            f"{self.knowledge.concept(int(j)).label}: {self.knowledge.concept(int(j)).gloss}" for j in picks
        ]
        kind = "notes" if c.source.startswith("import:") else "corpus"
        return Content("\n".join(lines), kind, c.key, c.label, (c.domains or ("general",))[0])

    def topic_content(self, topic: str) -> Content:
        topic = " ".join(topic.split())
        if not topic:
            raise InvalidInput("topic", "must not be empty")
        near = self.knowledge.nearest(self.embedder.embed([topic])[0], NEIGHBOURS + 1)
        lines = [f"{topic}."] + [
            f"{self.knowledge.concept(i).label}: {self.knowledge.concept(i).gloss}" for i, _ in near
        ]
        domain = (self.knowledge.concept(near[0][0]).domains or ("general",))[0] if near else "general"
        return Content("\n".join(lines), "topic", topic, topic, domain)

    def curiosity(self) -> tuple[str, Content]:
        """Autonomous: a random concept of the corpus, or of the imported notes a third of the time."""
        if self._notes and self.rng.random() < 1 / 3:
            index = int(self.rng.choice(self._notes))
        else:
            index = int(self.rng.integers(len(self.knowledge)))
        content = self.corpus_content(index)
        return f"What is {content.title} bounded by, and what lies between?", content

    def online_curiosity(self) -> tuple[str, str] | None:
        """Autonomous with online sources: (prompt, source spec) asking one of them about a random
        concept of the corpus (or for its own pick, a quarter of the time); None: the corpus's turn."""
        if not self.online:
            return None
        pick = int(self.rng.integers(len(self.online) + 1))
        if pick == len(self.online):
            return None
        name = self.online[pick]
        if self.rng.random() < 0.25:
            return f"What does {name} offer today, and what does it bound?", f"{name}:"
        label = self.knowledge.concept(int(self.rng.integers(len(self.knowledge)))).label
        return f"Where does {label} sit between two things? Asking {name}.", f"{name}:{label}"

    async def read(self, spec: str) -> list[Content]:
        """The reader in a worker thread (network, files and parsing stay off the event loop)."""
        return await asyncio.to_thread(self.reader.read, spec)

    # ---- one attempt ----------------------------------------------------------------------

    async def attempt(self, prompt: str, content: Content) -> tuple[Attempt, np.ndarray]:
        vector = await asyncio.to_thread(lambda: normalize(self.embedder.embed([content.text[:4000]])[0]))
        if await self.store.seen_content(content_hash(content.text)):
            return Attempt(prompt, DUPLICATE, "this exact content was foraged before", content), vector
        recent = await self.store.recent_content_vectors(RECENT)
        if len(recent):
            closest = float(np.max(recent @ vector))
            if closest >= NOVELTY_COS:
                return Attempt(
                    prompt,
                    DUPLICATE,
                    f"too close to recently foraged content (cosine {closest:.3f} >= {NOVELTY_COS})",
                    content,
                ), vector
        found = await asyncio.to_thread(self.identifier.identify, content.text, vector)
        if not found.candidates:
            return Attempt(prompt, NO_FILLING if found.pairs else NO_BREAD, found.reason, content), vector
        existing = await self.store.filling_vectors()
        c, v = await asyncio.to_thread(self.assembler.best, found.candidates, existing)
        outcome, why = validator.verdict(v)
        where = f"{content.kind} '{content.title}'"
        named = (
            f"best of {len(found.candidates)} ({c.heuristic}, {c.evidence}): "
            f"{c.bread_top.label} / {c.filling.label} / {c.bread_bottom.label}: {why}"
        )
        if outcome != MADE:
            marginal = outcome == REJECTED and v.v >= sw.REVIEW
            review = await asyncio.to_thread(self.assembler.assemble, c, v, where) if marginal else None
            if review is not None:
                named += "; kept in the review queue"
            return Attempt(prompt, outcome, named, content, review=review), vector
        s = self.assembler.assemble(c, v, where)
        s.lineage = await asyncio.to_thread(
            lineage, self.knowledge, {"bread_top": s.bread_top, "filling": s.filling, "bread_bottom": s.bread_bottom}
        )
        s.commentary = self.reuben.say(
            f"made:{c.heuristic}", name=s.name, b1=c.bread_top.label, f=c.filling.label, b2=c.bread_bottom.label
        )
        return Attempt(prompt, MADE, f"{why} ({c.heuristic}, {c.evidence})", content, sandwich=s), vector

    def voice_of(self, attempt: Attempt) -> str:
        """Reuben's line on an attempt, by what happened (plain when the voice is off)."""
        made = attempt.sandwich or attempt.review
        facts: dict[str, object] = {}
        if made is not None:
            facts = {
                "name": made.name,
                "b1": made.bread_top.label,
                "f": made.filling.label,
                "b2": made.bread_bottom.label,
            }
        if attempt.content is not None:
            facts |= {"title": attempt.content.title, "source": attempt.content.ref.split("#")[0]}
        if attempt.sandwich is not None:
            return attempt.sandwich.commentary or self.reuben.say(MADE, **facts)
        if attempt.review is not None:
            return self.reuben.say("marginal", **facts)
        if attempt.curiosity_prompt.startswith("Wandering") and attempt.outcome != SOURCE_ERROR:
            return self.reuben.say("wander", **facts) + " " + self.reuben.say(attempt.outcome, **facts)
        return self.reuben.say(attempt.outcome, **facts)

    async def _record(self, run_id: str, attempt: Attempt, vector: np.ndarray | None, summary: RunSummary) -> None:
        payload: dict[str, Any] = {
            "run_id": run_id,
            "n": summary.attempts + 1,
            "outcome": attempt.outcome,
            "curiosity_prompt": attempt.curiosity_prompt,
            "rationale": attempt.rationale,
            "reuben": self.voice_of(attempt),
            "review": attempt.review is not None,
            "source": {"kind": attempt.content.kind, "ref": attempt.content.ref, "title": attempt.content.title}
            if attempt.content
            else None,
        }
        drafts = [{"subject": ATTEMPTED, "payload": payload}]
        if attempt.sandwich is not None:
            s = attempt.sandwich
            drafts.append(
                {
                    "subject": MADE_SUBJECT,
                    "payload": {
                        "run_id": run_id,
                        "name": s.name,
                        "bread_top": s.bread_top.label,
                        "filling": s.filling.label,
                        "bread_bottom": s.bread_bottom.label,
                        "structural_type": s.structural_type,
                        "heuristic": s.validity.get("heuristic"),
                        "V": s.validity["V"],
                    },
                }
            )
        sandwich_id, events = await self.store.record_attempt(run_id, attempt, vector, drafts)
        await self._publish(events)
        await self._learn(attempt, vector)
        summary.attempts += 1
        summary.outcomes[attempt.outcome] = summary.outcomes.get(attempt.outcome, 0) + 1
        if sandwich_id:
            summary.made += 1
            summary.sandwich_ids.append(sandwich_id)

    async def _learn(self, attempt: Attempt, vector: np.ndarray | None) -> None:
        """New content from outside the knowledge base joins it; its trouble never stops the foraging."""
        c = attempt.content
        if self.learn is None or c is None or vector is None or c.kind in KNOWN:
            return
        if attempt.outcome in (DUPLICATE, SOURCE_ERROR):
            return
        try:
            await self.learn(c, vector)
        except Exception as exc:  # noqa: BLE001
            log.warning("foraged content not added to the knowledge base: %s", exc)

    # ---- the loop ---------------------------------------------------------------------------

    async def run(
        self,
        *,
        patience: int = 5,
        source: str | None = None,
        topic: str | None = None,
        max_attempts: int = MAX_ATTEMPTS,
        on_attempt: Callable[[Attempt], Awaitable[None] | None] | None = None,
        depth: int | None = None,
        pages: int | None = None,
    ) -> RunSummary:
        """Autonomous without source/topic (until patience runs out or max_attempts); directed
        with a source spec (each chunk of it, and the pages wandering reaches from it: `depth`
        links deep, `pages` in all; the forager's defaults when None) or a topic (one attempt)."""
        max_depth, budget = check_run(
            patience,
            max_attempts,
            source,
            topic,
            self.wander_depth if depth is None else depth,
            self.wander_pages if pages is None else pages,
        )
        mode = "autonomous" if source is None and topic is None else "directed"
        target = source or topic
        frontier: deque[tuple[Content, int, str | None]] = deque()  # content, depth, why reached
        error: str | None = None
        if topic is not None:
            frontier.append((await asyncio.to_thread(self.topic_content, topic), 0, None))
        elif source is not None:
            try:
                frontier.extend((c, 0, None) for c in await self.read(source))
            except SourceError as exc:
                error = str(exc)
        self.reuben = Reuben(np.random.default_rng(self._voice_seed), enabled=self.voice)  # a session's voice
        run_id, events = await self.store.start_run(mode, target, patience)
        await self._publish(events)
        run = RunState(RunSummary(run_id, mode), patience, max_attempts, max_depth, budget, on_attempt, frontier)
        if error is not None:
            await self._record(
                run_id, Attempt(f"Make me a sandwich from {target}", SOURCE_ERROR, error), None, run.summary
            )
            run.summary.status, run.summary.farewell = "failed", self.reuben.say(SOURCE_ERROR, source=target)
        else:
            await self._loop(run)
        return await self._finish(run.summary)

    async def _loop(self, run: RunState) -> None:
        """Attempt after attempt: the frontier's next content, else (autonomous) an online
        source's answer or a random concept's; patience resets on a sandwich."""
        summary = run.summary
        while run.left > 0 and summary.attempts < run.max_attempts:
            if run.frontier:
                content, depth, why = run.frontier.popleft()
                prompt = why or f"Make me a sandwich from {content.kind} '{content.title}'"
            elif summary.mode == "directed":
                break
            elif (asked := self.online_curiosity()) is not None:
                await self._ask_online(run, *asked)
                continue
            else:
                (prompt, content), depth = await asyncio.to_thread(self.curiosity), 0
            attempt, vector = await self.attempt(prompt, content)
            await self._record(summary.run_id, attempt, vector, summary)
            run.left = run.patience if attempt.outcome == MADE else run.left - 1
            await run.report(attempt)
            if attempt.outcome == DUPLICATE or depth >= run.max_depth or not content.links:
                continue
            await self._wander_from(run, content, depth)

    async def _ask_online(self, run: RunState, prompt: str, spec: str) -> None:
        """An online source's answer joins the frontier; a source that fails costs patience."""
        try:
            contents = await self.read(spec)
        except SourceError as exc:
            failed = Attempt(prompt, SOURCE_ERROR, str(exc), Content("", "source", spec, spec, ""))
            await self._record(run.summary.run_id, failed, None, run.summary)
            run.left -= 1
            await run.report(failed)
            return
        run.frontier.extend((c, 0, prompt) for c in contents[:CHUNKS_PER_PAGE])

    async def _wander_from(self, run: RunState, content: Content, depth: int) -> None:
        """Follow up to FANOUT of a page's links not followed yet, within the pages left."""
        links = [x for x in content.links if x not in run.followed]
        picks = [links[int(k)] for k in self.rng.permutation(len(links))[:FANOUT]]
        for link in picks:
            if run.budget <= 0 or run.summary.attempts >= run.max_attempts:
                break
            run.followed.add(link)
            run.budget -= 1
            why = f"Wandering from {content.kind} '{content.title}' to {link} (depth {depth + 1})"
            try:
                reached = await self.read(link)
            except SourceError as exc:
                failed = Attempt(why, SOURCE_ERROR, str(exc), Content("", "link", link, link, ""))
                await self._record(run.summary.run_id, failed, None, run.summary)
                await run.report(failed)
                continue
            run.frontier.extend((c, depth + 1, why) for c in reached[:CHUNKS_PER_PAGE])

    async def _finish(self, summary: RunSummary) -> RunSummary:
        if summary.status != "failed" and summary.mode == "directed" and summary.made == 0:
            summary.farewell = self.reuben.say("rest:empty")
        if summary.farewell == REST:
            summary.farewell = self.reuben.say("rest")
        events = await self.store.finish_run(
            summary.run_id,
            summary.status,
            {
                "attempts": summary.attempts,
                "made": summary.made,
                "outcomes": summary.outcomes,
                "farewell": summary.farewell,
            },
        )
        await self._publish(events)
        return summary
