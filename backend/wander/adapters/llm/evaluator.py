"""The model evaluator of the action layer (001, phase 8): the Evaluator port on the same
ChatModels, retry policy, structured output and JSON repair as the dwellers.

Budget rules, as the router's for dwellings: a cloud call is estimated first (an upper
bound: the prompt estimated high plus the maximum output tokens at the price table) and
that estimate is held on the wander session's cloud budget before the call is made
(CloudBudget.reserve, one conditional UPDATE, so concurrent proposals cannot overrun it);
when the session cannot cover it the call is not made. After the call the hold is
replaced by the cost the usage says (settle). A local model costs nothing and is counted
as a local call.

Order: the cloud model (when a key is set), then the local one, then the offline rules.
A model that cannot be had, or whose answer cannot be repaired after one corrective
retry, passes to the next; the offline rules always answer. The evaluation says which
evaluator made it and, when models were passed over, why (`model_fallback`).

The model proposes the action, the cost, p(success), the payoff multiple, the
tractability and the worst-case loss; the figures are bounded here, not trusted: the cost
is capped at the wallet's max_stake, the worst-case loss is never below what the declared
stop loss implies (cost x stop_loss) nor above the cost, and the expected value is
computed from the model's p and multiple by the offline evaluator's formula."""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from wander.adapters.llm import prompts
from wander.adapters.llm.base import ChatModel, Completion, ModelUnavailable, RetryPolicy
from wander.adapters.llm.output import OutputError, extract_json
from wander.core.action.assets import Assets
from wander.core.action.evaluator import OfflineEvaluator
from wander.core.action.ports import CloudBudget, CrystalContext
from wander.core.domain.pii import scrub_pii

log = logging.getLogger(__name__)

FIELDS = (
    "action",
    "asset",
    "recommendation",
    "cost_cents",
    "p_success",
    "payoff_multiple",
    "tractability",
    "worst_case_loss_cents",
    "rationale",
)
EVALUATION_SCHEMA = (
    '{"action": "one concrete, reversible step (a sentence)", "asset": "what the position is on '
    '(a short name)", "recommendation": "act" or "watch", "cost_cents": whole number, '
    '"p_success": number 0..1, "payoff_multiple": number 0..10 (payoff on success / cost), '
    '"tractability": number 0..1, "worst_case_loss_cents": whole number, '
    '"rationale": "why, in two sentences"}'
)
EVALUATION_JSON_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "action": {"type": "string"},
        "asset": {"type": "string"},
        "recommendation": {"type": "string", "enum": ["act", "watch"]},
        "cost_cents": {"type": "integer"},
        "p_success": {"type": "number"},
        "payoff_multiple": {"type": "number"},
        "tractability": {"type": "number"},
        "worst_case_loss_cents": {"type": "integer"},
        "rationale": {"type": "string"},
    },
    "required": list(FIELDS),
}
MAX_MULTIPLE = 10.0


class _Unusable(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool):
        raise OutputError(f"{name} must be a number")
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(-?\d+(?:\.\d+)?)\s*(%?)\s*", value)
        if not m:
            raise OutputError(f"{name} must be a number (got {value!r})")
        return float(m.group(1)) / (100 if m.group(2) else 1)
    if isinstance(value, (int, float)) and math.isfinite(value):
        return float(value)
    raise OutputError(f"{name} must be a number (got {value!r})")


def _text(value: Any, name: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise OutputError(f"{name} must be a non-empty string")
    s = scrub_pii(re.sub(r"\s+", " ", value).strip())
    return s if len(s) <= limit else s[: limit - 1] + "…"


@dataclass
class ModelFigures:
    action: str
    asset: str
    recommendation: str
    cost_cents: int
    p_success: float
    payoff_multiple: float
    tractability: float
    worst_case_loss_cents: int
    rationale: str
    adjusted: list[str]


def read_evaluation(text: str | None, assets: Assets) -> tuple[ModelFigures, list[str]]:
    """The model's answer as bounded figures, with the JSON repairs it needed; OutputError
    when it cannot be read or lacks a field."""
    parsed = extract_json(text, dict, accept=lambda d: all(k in d for k in FIELDS[:-1]))
    d = parsed.value
    adjusted: list[str] = []

    def unit(name: str) -> float:
        x = _number(d[name], name)
        if not 0 <= x <= 1:
            adjusted.append(f"{name} {x:g} clamped to 0..1")
        return min(1.0, max(0.0, x))

    cost = int(round(_number(d["cost_cents"], "cost_cents")))
    if cost < 1:
        raise OutputError("cost_cents must be at least 1")
    if cost > assets.max_stake_cents:
        adjusted.append(f"cost {cost} capped at max_stake {assets.max_stake_cents}")
        cost = assets.max_stake_cents
    multiple = _number(d["payoff_multiple"], "payoff_multiple")
    if not 0 <= multiple <= MAX_MULTIPLE:
        adjusted.append(f"payoff_multiple {multiple:g} clamped to 0..{MAX_MULTIPLE:g}")
        multiple = min(MAX_MULTIPLE, max(0.0, multiple))
    claimed_loss = int(round(_number(d["worst_case_loss_cents"], "worst_case_loss_cents")))
    floor = assets.worst_case_loss(cost)
    loss = min(cost, max(claimed_loss, floor))
    if loss != claimed_loss:
        adjusted.append(
            f"worst-case loss {claimed_loss} set to {loss} (stop loss {assets.stop_loss:g} of the cost, "
            "never above the cost)"
        )
    rec = str(d.get("recommendation", "watch")).strip().lower()
    figures = ModelFigures(
        action=_text(d["action"], "action", 400),
        asset=_text(d["asset"], "asset", 60),
        recommendation=rec if rec in ("act", "watch") else "watch",
        cost_cents=cost,
        p_success=unit("p_success"),
        payoff_multiple=multiple,
        tractability=unit("tractability"),
        worst_case_loss_cents=loss,
        rationale=_text(d.get("rationale") or "(none given)", "rationale", 600),
        adjusted=adjusted,
    )
    return figures, parsed.repairs


def evaluation_prompt(ctx: CrystalContext, assets: Assets, rule: dict[str, Any]) -> str:
    c = ctx.crystal
    loci = "\n".join(f"- {concept}" for concept in ctx.loci.values()) or "(none recorded)"
    residues = (
        "\n".join(f"- {r.get('from')} -> {r.get('to')}: {r.get('connection')}" for r in ctx.residues[:6]) or "(none)"
    )
    owned = (
        "\n".join(
            f"- {a.name} (strength {a.strength:g}; domains {', '.join(a.domains) or '-'}; "
            f"keywords {', '.join(a.keywords) or '-'})"
            for a in assets.assets
        )
        or "(none declared)"
    )
    inputs = rule.get("inputs", {})
    return prompts.prompt(
        "evaluation",
        insight=c.insight,
        structural_type=c.structural_type or "-",
        confidence=f"{c.confidence:.2f}",
        validity=c.validity.get("V", "-"),
        novelty=c.validity.get("novelty", "-"),
        actionability=f"{c.actionability:.2f}",
        domains=", ".join(c.domains) or "-",
        loci=loci,
        residues=residues,
        assets=owned,
        max_stake_cents=assets.max_stake_cents,
        stop_loss_pct=f"{assets.stop_loss:.0%}",
        rule_cost=rule["cost_cents"],
        rule_p=rule["p_success"],
        rule_multiple=inputs.get("payoff_multiple"),
        rule_tractability=rule["tractability"],
        schema=EVALUATION_SCHEMA,
    )


class ModelEvaluator:
    """The Evaluator port on ChatModels (cloud first, then local), falling back to the rules."""

    def __init__(
        self,
        chats: Sequence[ChatModel],
        offline: OfflineEvaluator,
        budget: CloudBudget,
        *,
        retry: RetryPolicy | None = None,
        max_tokens: int = 600,
    ):
        self.chats = list(chats)
        self.offline = offline
        self.assets = offline.assets
        self.budget = budget
        self.retry = retry or RetryPolicy()
        self.max_tokens = max_tokens
        self.system = prompts.load("evaluation_system")
        self.name = "model:" + "+".join(f"{c.name}/{c.model}" for c in self.chats)

    async def _call(self, chat: ChatModel, session_id: str | None, messages: list[dict[str, str]]) -> Completion:
        """One call within the budget rules; BudgetRefused-like _Unusable when it may not be made."""
        estimate = chat.estimate_cents(messages, system=self.system, max_tokens=self.max_tokens)
        held = 0
        if chat.route == "cloud":
            if session_id is None:
                raise _Unusable("a cloud evaluation needs a wander session's budget; this crystal has none")
            if not await self.budget.reserve(session_id, estimate):
                raise _Unusable(
                    f"the cloud budget of wander {session_id} cannot cover a {chat.model} evaluation "
                    f"({estimate} cents estimated)"
                )
            held = estimate
        try:
            c = await self.retry.call(
                lambda: chat.complete(
                    messages,
                    system=self.system,
                    max_tokens=self.max_tokens,
                    json_mode=True,
                    schema=EVALUATION_JSON_SCHEMA,
                ),
                what=f"{chat.name} evaluation",
            )
        except ModelUnavailable:
            if session_id is not None and held:
                await self.budget.settle(session_id, held, 0, chat.route)
            raise
        if session_id is not None:
            await self.budget.settle(session_id, held, c.cost_cents if chat.route == "cloud" else 0, chat.route)
        return c

    async def _ask(self, chat: ChatModel, ctx: CrystalContext, rule: dict[str, Any]) -> dict[str, Any]:
        sid = ctx.crystal.session_id
        messages = [{"role": "user", "content": evaluation_prompt(ctx, self.assets, rule)}]
        calls: list[Completion] = [await self._call(chat, sid, messages)]
        try:
            figures, repairs = read_evaluation(calls[0].text, self.assets)
        except OutputError as exc:
            retry = [
                *messages,
                {"role": "assistant", "content": calls[0].text or "(empty)"},
                {"role": "user", "content": prompts.prompt("repair", reason=exc.reason, schema=EVALUATION_SCHEMA)},
            ]
            try:
                calls.append(await self._call(chat, sid, retry))
                figures, repairs = read_evaluation(calls[1].text, self.assets)
            except OutputError as exc2:
                raise _Unusable(f"unusable answers ({exc.reason}; after a retry: {exc2.reason})") from exc2
            except _Unusable as exc2:
                raise _Unusable(f"unusable answer ({exc.reason}); no retry: {exc2.reason}") from exc2
            repairs = [f"retried: {exc.reason}", *repairs]
        return self._evaluation(chat, figures, repairs, calls, rule)

    def _evaluation(
        self, chat: ChatModel, f: ModelFigures, repairs: list[str], calls: list[Completion], rule: dict[str, Any]
    ) -> dict[str, Any]:
        ev = round(f.p_success * f.cost_cents * f.payoff_multiple - f.cost_cents)
        verdict = "act" if f.recommendation == "act" and ev > 0 else "watch"
        r4 = lambda x: round(float(x), 4)  # noqa: E731
        return {
            "action": f.action,
            "asset": f.asset,
            "recommendation": verdict,
            "expected_value_cents": ev,
            "cost_cents": f.cost_cents,
            "worst_case_loss_cents": f.worst_case_loss_cents,
            "p_success": r4(f.p_success),
            "risk": r4(1 - f.p_success),
            "tractability": r4(f.tractability),
            "assets_used": rule["assets_used"],
            "rationale": f.rationale,
            "inputs": {**rule["inputs"], "payoff_multiple": r4(f.payoff_multiple)},
            "evidence": rule["evidence"],
            "evaluator": f"model:{chat.name}/{chat.model}",
            "model": {
                "provider": chat.name,
                "route": chat.route,
                "model": chat.model,
                "calls": len(calls),
                "tokens": sum(c.tokens for c in calls),
                "cost_cents": sum(c.cost_cents for c in calls),
                "repairs": repairs,
                "adjusted": f.adjusted,
            },
            "rules_reference": {
                k: rule[k] for k in ("cost_cents", "expected_value_cents", "p_success", "tractability")
            },
        }

    async def evaluate(self, ctx: CrystalContext) -> dict[str, Any]:
        rule = await self.offline.evaluate(ctx)
        passed: list[str] = []
        for chat in self.chats:
            try:
                out = await self._ask(chat, ctx, rule)
                return {**out, "model_fallback": passed} if passed else out
            except ModelUnavailable as exc:
                passed.append(f"{chat.name} ({chat.model}): unavailable: {exc.reason}")
            except _Unusable as exc:
                passed.append(f"{chat.name} ({chat.model}): {exc.reason}")
            except Exception as exc:  # an adapter bug must not stop a proposal: the rules still answer
                log.exception("the %s evaluation failed unexpectedly", chat.name)
                passed.append(f"{chat.name} ({chat.model}): unexpected {type(exc).__name__}: {exc}")
        if passed:
            log.warning("model evaluation fell back to the offline rules: %s", "; ".join(passed))
        return {**rule, "evaluator": self.offline.name, "model_fallback": passed}


__all__ = ["EVALUATION_JSON_SCHEMA", "ModelEvaluator", "read_evaluation"]
