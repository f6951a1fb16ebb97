"""Model-made adjacencies (000 strategies 3 and 4): the ConceptProposer port on any ChatModel.

"X is to Y as A is to ?" and "what stands in productive tension with A?" are asked for a
JSON list of concept names; the answer is repaired like a dwelling (output.extract_json),
retried once with what was wrong, and cleaned: numbering, bullets, quotes and glosses
stripped, duplicates, the asked concepts themselves, sentences and anything PII-like
dropped. A model that cannot be had gives [] (and says so once in the log): the
strategies then have nothing from the model, and the wander goes on.

Each answer is a Proposals list that says what it cost ((route, calls, cents) per model
asked), which the step charges to the session (engine.model_spend); spending is also kept
in `usage` (take() reads and resets it). A `budget_cents` keyword refuses a call whose
estimate exceeds it. ChainProposer tries several proposers in order (auto: local first,
the cloud model within what the local one left of the budget)."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from wander.adapters.llm import prompts
from wander.adapters.llm.base import ChatModel, Completion, ModelUnavailable, ModelUsage, RetryPolicy
from wander.adapters.llm.output import LIST_SCHEMA, OutputError, extract_json
from wander.core.domain.pii import scrub_pii
from wander.core.engine.model_spend import Proposals
from wander.core.engine.ports import ConceptProposer

log = logging.getLogger(__name__)

MAX_WORDS = 6
MAX_CHARS = 60


def clean_concepts(items: Any, *, exclude: tuple[str, ...] = (), n: int = 5) -> list[str]:
    """Short concept names from whatever list a model gave; at most n, in its order."""
    if not isinstance(items, list):
        return []
    banned = {e.strip().lower() for e in exclude if e}
    out: list[str] = []
    seen: set[str] = set()
    for it in items:
        if isinstance(it, dict):
            it = next(
                (it[k] for k in ("concept", "name", "answer", "term", "d", "label") if isinstance(it.get(k), str)),
                next((v for v in it.values() if isinstance(v, str)), None),
            )
        if not isinstance(it, str):
            continue
        s = it.strip()
        s = re.sub(r"^\s*(?:[-*\u2022]|\(?\d+[.):]|[a-z][.)])\s+", "", s)  # 1. / - / a)
        s = re.split(r"\s+[-\u2013\u2014:]\s+|\s*\(", s, maxsplit=1)[0]  # "term - gloss", "term (gloss)"
        prev = None
        while prev != s:
            prev, s = s, s.strip().strip("\"'`\u201c\u201d\u2018\u2019*_").rstrip(".,;:!?")
        s = re.sub(r"\s+", " ", s)
        if not s or not re.search(r"[A-Za-z]", s) or len(s) > MAX_CHARS or len(s.split()) > MAX_WORDS:
            continue
        if scrub_pii(s) != s or s.lower() in banned or s.lower() in seen:
            continue
        seen.add(s.lower())
        out.append(s)
        if len(out) == n:
            break
    return out


class ModelProposer:
    """The ConceptProposer port on a ChatModel."""

    def __init__(self, chat: ChatModel, *, retry: RetryPolicy | None = None, max_tokens: int = 300, cooldown: int = 0):
        self.chat = chat
        self.name = chat.name
        self.route = chat.route
        self.model = chat.model
        self.where = chat.where
        self.retry = retry or RetryPolicy()
        self.max_tokens = max_tokens
        self.system = prompts.load("proposer_system")
        self.usage = ModelUsage(chat.route, chat.model)
        self.last_error: str | None = None
        self._warned = False
        self.cooldown = cooldown  # asks skipped after the model was found unreachable
        self._down = 0

    async def _call(self, messages: list[dict[str, str]]) -> Completion:
        c = await self.retry.call(
            lambda: self.chat.complete(messages, system=self.system, max_tokens=self.max_tokens, json_mode=False),
            what=f"{self.name} proposer",
        )
        self.usage.add(c)
        return c

    def _allowed(self, messages: list[dict[str, str]], budget_cents: int | None, spent: int = 0) -> bool:
        if budget_cents is None:
            return True
        return (
            spent + self.chat.estimate_cents(messages, system=self.system, max_tokens=self.max_tokens) <= budget_cents
        )

    def _answer(self, names: list[str], done: list[Completion]) -> Proposals:
        return Proposals(names, [(self.route, len(done), sum(c.cost_cents for c in done))] if done else [])

    async def ask(self, prompt: str, *, exclude: tuple[str, ...], n: int, budget_cents: int | None = None) -> Proposals:
        """Concept names for the prompt ([] when the model cannot help), with what the calls
        cost. Never raises."""
        messages = [{"role": "user", "content": prompt}]
        self.last_error = None
        done: list[Completion] = []
        if self._down > 0:
            self._down -= 1
            self.last_error = "unavailable a moment ago"
            return self._answer([], done)
        if not self._allowed(messages, budget_cents):
            self.last_error = "over budget"
            return self._answer([], done)
        try:
            first = await self._call(messages)
            done.append(first)
        except ModelUnavailable as exc:
            self.last_error = exc.reason
            self._down = self.cooldown
            if not self._warned:
                self._warned = True
                log.warning("%s proposer unavailable (%s): model-made adjacencies are skipped", self.name, exc.reason)
            return self._answer([], done)
        try:
            names = clean_concepts(extract_json(first.text, list).value, exclude=exclude, n=n)
            if names:
                return self._answer(names, done)
            reason = "the list held no usable concept names (short noun phrases, 1 to 4 words)"
        except OutputError as exc:
            reason = exc.reason
        retry = [
            *messages,
            {"role": "assistant", "content": first.text or "(empty)"},
            {"role": "user", "content": prompts.prompt("repair", reason=reason, schema=LIST_SCHEMA)},
        ]
        if not self._allowed(retry, budget_cents, first.cost_cents):
            self.last_error = f"{reason}; no budget for a retry"
            return self._answer([], done)
        try:
            second = await self._call(retry)
            done.append(second)
            return self._answer(clean_concepts(extract_json(second.text, list).value, exclude=exclude, n=n), done)
        except (ModelUnavailable, OutputError) as exc:
            self.last_error = f"{reason}; after a retry: {exc.reason}"
            return self._answer([], done)

    def take_usage(self) -> list[ModelUsage]:
        """What was spent since the last call (calls, tokens, cents), then reset."""
        return [self.usage.take()]

    async def propose_analogies(
        self, a: str, b: str, c: str, n: int = 5, *, budget_cents: int | None = None
    ) -> Proposals:
        p = prompts.prompt("analogy", a=a, b=b, c=c, n=n)
        return await self.ask(p, exclude=(a, b, c), n=n, budget_cents=budget_cents)

    async def propose_tensions(self, concept: str, n: int = 5, *, budget_cents: int | None = None) -> Proposals:
        p = prompts.prompt("tension", concept=concept, n=n)
        return await self.ask(p, exclude=(concept,), n=n, budget_cents=budget_cents)


class ChainProposer:
    """Several proposers, first that answers wins (e.g. local Ollama, then Anthropic); the
    answer says what every proposer asked cost, and each is given the budget the ones
    before it left."""

    def __init__(self, proposers: list[ConceptProposer]):
        self.proposers = proposers
        self.name = "+".join(getattr(p, "name", "?") for p in proposers)

    def take_usage(self) -> list[ModelUsage]:
        return [u for p in self.proposers for u in getattr(p, "take_usage", lambda: [])()]

    async def _first(
        self, ask: Callable[[ConceptProposer, int | None], Awaitable[list[str]]], budget_cents: int | None
    ) -> Proposals:
        spent: list[tuple[str, int, int]] = []
        for p in self.proposers:
            left = None if budget_cents is None else max(0, budget_cents - sum(c for r, _, c in spent if r == "cloud"))
            out = await ask(p, left)
            spent += getattr(out, "spent", [])
            if out:
                return Proposals(out, spent)
        return Proposals([], spent)

    async def propose_analogies(
        self, a: str, b: str, c: str, n: int = 5, *, budget_cents: int | None = None
    ) -> Proposals:
        return await self._first(lambda p, left: p.propose_analogies(a, b, c, n, budget_cents=left), budget_cents)

    async def propose_tensions(self, concept: str, n: int = 5, *, budget_cents: int | None = None) -> Proposals:
        return await self._first(lambda p, left: p.propose_tensions(concept, n, budget_cents=left), budget_cents)
