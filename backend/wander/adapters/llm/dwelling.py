"""A dweller on any ChatModel: the 000 dwelling prompt, verification and repair of the
answer, one retry that tells the model what was wrong, then a failed residue.

try_dwell() is what the router calls: it raises ModelUnavailable when the model cannot be
had (after the retry policy's attempts) and BudgetRefused when the call could cost more
than it may; dwell() is the Dweller port and never raises."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from wander.adapters.llm import prompts
from wander.adapters.llm.base import BudgetRefused, ChatModel, Completion, ModelUnavailable, RetryPolicy
from wander.adapters.llm.dwelling_answer import DWELLING_JSON_SCHEMA, DWELLING_SCHEMA, parse_dwelling
from wander.adapters.llm.output import OutputError, clip_raw, failed_residue
from wander.core.domain.models import Residue
from wander.core.engine.ports import DwellRequest, Embedder

log = logging.getLogger(__name__)

MAX_RECENT_THEMES = 12
MAX_RESONANCES = 8


def _recent(themes: list[str], k: int) -> list[str]:
    """The k most recent distinct themes, oldest first."""
    seen: set[str] = set()
    out: list[str] = []
    for t in reversed(themes):
        key = t.strip().lower()
        if key and key not in seen:
            seen.add(key)
            out.append(t.strip())
        if len(out) == k:
            break
    return list(reversed(out))


def dwelling_prompt(request: DwellRequest) -> str:
    c, e = request.current, request.encountered
    themes = _recent(list(request.recent_themes), MAX_RECENT_THEMES)
    resonances = [r.strip() for r in request.active_resonances if r and r.strip()][:MAX_RESONANCES]
    return prompts.prompt(
        "dwelling",
        current_concept=c.concept,
        current_domains=", ".join(c.domains) or "(none)",
        current_abstraction=f"{c.abstraction_level:.2f}",
        next_concept=e.concept,
        next_domains=", ".join(e.domains) or "(none)",
        next_abstraction=f"{e.abstraction_level:.2f}",
        recent_themes=", ".join(themes) if themes else "(none yet)",
        active_resonances="\n".join(f"- {r}" for r in resonances) if resonances else "(none yet)",
    )


class ModelDweller:
    """The Dweller port on a ChatModel (OllamaDweller and AnthropicDweller are this)."""

    def __init__(
        self,
        chat: ChatModel,
        *,
        embedder: Embedder | None = None,
        max_tokens: int = 800,
        retry: RetryPolicy | None = None,
    ):
        self.chat = chat
        self.name = chat.name
        self.route = chat.route
        self.model = chat.model
        self.where = chat.where
        self.embedder = embedder
        self.max_tokens = max_tokens
        self.retry = retry or RetryPolicy()
        self.system = prompts.load("dwelling_system")

    def messages(self, request: DwellRequest) -> list[dict[str, str]]:
        return [{"role": "user", "content": dwelling_prompt(request)}]

    def estimate_cents(self, request: DwellRequest) -> int:
        """An upper bound of one dwelling call (the retry, if needed, is checked on its own)."""
        return self.chat.estimate_cents(self.messages(request), system=self.system, max_tokens=self.max_tokens)

    async def _call(self, messages: list[dict[str, str]]) -> Completion:
        return await self.retry.call(
            lambda: self.chat.complete(
                messages, system=self.system, max_tokens=self.max_tokens, json_mode=True, schema=DWELLING_JSON_SCHEMA
            ),
            what=f"{self.name} dwell",
        )

    def _themes_embedding(self, themes: list[str]) -> np.ndarray | None:
        if self.embedder is None or not themes:
            return None
        try:
            return np.asarray(self.embedder.embed([", ".join(themes)])[0], dtype=np.float32)
        except Exception:  # an embedding is a nicety here; the residue stands without it
            log.warning("could not embed the themes of a %s dwelling", self.name, exc_info=True)
            return None

    async def try_dwell(self, request: DwellRequest, *, budget_cents: int | None = None) -> Residue:
        messages = self.messages(request)
        estimate = self.chat.estimate_cents(messages, system=self.system, max_tokens=self.max_tokens)
        if budget_cents is not None and estimate > budget_cents:
            raise BudgetRefused(f"a {self.model} dwelling could cost {estimate} cents; {budget_cents} left")
        first = await self._call(messages)  # ModelUnavailable goes up: the router falls back
        tokens, cost = first.tokens, first.cost_cents
        details: dict[str, Any] = {
            "route": self.route,
            "model": self.model,
            "attempts": 1,
            "input_tokens": first.input_tokens,
            "output_tokens": first.output_tokens,
            "estimate_cents": estimate,
        }
        if first.model and first.model != self.model:
            details["served_model"] = first.model
        try:
            d = parse_dwelling(first.text)
            return self._residue(d, tokens, cost, details, first.text)
        except OutputError as exc:
            reason = exc.reason
        # One retry that says what was wrong, if the budget allows a second call.
        retry_messages = [
            *messages,
            {"role": "assistant", "content": first.text or "(empty)"},
            {"role": "user", "content": prompts.prompt("repair", reason=reason, schema=DWELLING_SCHEMA)},
        ]
        details["retry_reason"] = reason
        estimate2 = self.chat.estimate_cents(retry_messages, system=self.system, max_tokens=self.max_tokens)
        if budget_cents is not None and cost + estimate2 > budget_cents:
            return failed_residue(
                f"{reason}; no budget left for a retry",
                first.text,
                model=self.model,
                route=self.route,
                tokens=tokens,
                cost_cents=cost,
                details=details,
            )
        try:
            second = await self._call(retry_messages)
        except ModelUnavailable as exc:
            return failed_residue(
                f"{reason}; the retry could not be made ({exc.reason})",
                first.text,
                model=self.model,
                route=self.route,
                tokens=tokens,
                cost_cents=cost,
                details=details,
            )
        tokens += second.tokens
        cost += second.cost_cents
        details.update(
            attempts=2,
            input_tokens=details["input_tokens"] + second.input_tokens,
            output_tokens=details["output_tokens"] + second.output_tokens,
            retried=True,
        )
        try:
            d = parse_dwelling(second.text)
            return self._residue(d, tokens, cost, details, None)
        except OutputError as exc2:
            raw = f"--- answer 1 ---\n{first.text}\n--- answer 2 (after the retry) ---\n{second.text}"
            return failed_residue(
                f"{reason}; after a retry: {exc2.reason}",
                raw,
                model=self.model,
                route=self.route,
                tokens=tokens,
                cost_cents=cost,
                details=details,
            )

    def _residue(self, d, tokens: int, cost: int, details: dict[str, Any], raw: str | None) -> Residue:
        details = {**details, "repairs": d.repairs}
        return Residue(
            **d.facets,
            themes=d.themes,
            interestingness=d.interestingness,
            actionability=d.actionability,
            model_used=self.model,
            themes_embedding=self._themes_embedding(d.themes),
            details=details,
            route=self.route,
            tokens_used=tokens,
            cost_cents=cost,
            raw_output=clip_raw(raw) if d.repairs else None,
        )

    async def dwell(self, request: DwellRequest) -> Residue:
        """The Dweller port: a residue whatever happens (failed=True when the model could not help)."""
        try:
            return await self.try_dwell(request)
        except (ModelUnavailable, BudgetRefused) as exc:
            return failed_residue(f"{self.name} unavailable: {exc.reason}", None, model=self.model, route=self.route)
        except Exception as exc:  # a bug must not stop the wander; it is logged and recorded
            log.exception("%s dwell failed unexpectedly", self.name)
            return failed_residue(
                f"unexpected error: {type(exc).__name__}: {exc}", None, model=self.model, route=self.route
            )
