"""The router: one Dweller over the offline dweller, a local model and a cloud model.

Which model dwells (001 "Decision Logic"):

    use_cloud = (bridge_score > 0.7 OR resonance_proximity > 0.8 OR crystallization_candidate)
                AND the session's cloud budget left covers the estimated cost of the call

The estimate is an upper bound (prompt tokens estimated high, plus the maximum output
tokens, at the price table), so a call that could overrun the budget is never made; after
the call the real usage is what is recorded. A corrective retry is made only if the
budget left still covers it.

Fallback: cloud -> local -> offline. A model that is unreachable, refuses (bad key,
unknown model), stays in transient errors past the retry limit, or keeps returning
unusable answers is skipped for `cooldown` dwells (doubling while it keeps failing),
then tried again. Each such fall back is said once: a logged warning and a line in
`notices` (`fallback_notice` joins them) that a face can print. dwell() never raises."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from wander.adapters.llm.base import BudgetRefused, ModelUnavailable
from wander.adapters.llm.grounding import Grounding
from wander.adapters.llm.output import failed_residue
from wander.core.domain.models import Residue
from wander.core.engine.ports import Dweller, DwellRequest

log = logging.getLogger(__name__)

MODES = ("rule", "cloud", "local")  # auto (001 rule) | always cloud (budget permitting) | always local


class ModelMember(Protocol):
    """What the router needs of a model dweller (ModelDweller is one)."""

    name: str
    route: str  # local | cloud
    model: str
    where: str

    def estimate_cents(self, request: DwellRequest) -> int: ...

    async def try_dwell(self, request: DwellRequest, *, budget_cents: int | None = None) -> Residue: ...


@dataclass
class RoutingRule:
    bridge_threshold: float = 0.7
    resonance_threshold: float = 0.8

    def wants_cloud(self, request: DwellRequest) -> bool:
        return (
            request.bridge_score > self.bridge_threshold
            or request.resonance_proximity > self.resonance_threshold
            or bool(request.crystallization_candidate)
        )


@dataclass
class _Health:
    down_for: int = 0  # dwells left to skip this member
    strikes: int = 0  # consecutive times it went down
    failed_outputs: int = 0  # consecutive failed dwells (unusable answers)
    reason: str | None = None


@dataclass
class RouterStats:
    routes: dict[str, int] = field(default_factory=lambda: {"offline": 0, "local": 0, "cloud": 0})
    budget_refusals: int = 0
    fallbacks: int = 0
    failed: int = 0


class RouterDweller:
    name = "router"

    def __init__(
        self,
        *,
        offline: Dweller,
        local: ModelMember | None = None,
        cloud: ModelMember | None = None,
        mode: str = "rule",
        rule: RoutingRule | None = None,
        cooldown: int = 10,
        max_failed_outputs: int = 5,
        max_cooldown: int = 200,
        grounding: Grounding | None = None,
    ):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        self.offline = offline
        self.grounding = grounding  # the hallucination check of model residues (llm/grounding.py)
        self.local = local
        self.cloud = cloud
        self.mode = mode
        self.rule = rule or RoutingRule()
        self.cooldown = max(1, cooldown)
        self.max_cooldown = max_cooldown
        self.max_failed_outputs = max_failed_outputs
        self.notices: list[str] = []
        self._said: set[str] = set()
        self._health: dict[int, _Health] = {}
        self._spent: dict[str, int] = {}  # per session: cents known spent (session's own figure or more)
        self.stats = RouterStats()

    # ---- what happened, once --------------------------------------------------------

    @property
    def fallback_notice(self) -> str | None:
        return "\n".join(self.notices) if self.notices else None

    def _say(self, key: str, text: str) -> None:
        if key in self._said:
            return
        self._said.add(key)
        self.notices.append(text)
        log.warning("%s", text)

    # ---- planning ---------------------------------------------------------------------

    def members(self) -> list[ModelMember]:
        return [m for m in (self.cloud, self.local) if m is not None]

    def plan(self, request: DwellRequest) -> list[ModelMember]:
        """Model members to try, in order; the offline dweller always comes after them."""
        if self.mode == "cloud":
            chain = [self.cloud]
        elif self.mode == "local":
            chain = [self.local]
        else:
            chain = [self.cloud, self.local] if self.rule.wants_cloud(request) else [self.local]
        return [m for m in chain if m is not None]

    def spent(self, request: DwellRequest) -> int:
        s = request.session
        return max(int(s.cloud_spent_cents), self._spent.get(s.id, 0))

    def budget_left(self, request: DwellRequest) -> int:
        return max(0, int(request.session.cloud_budget_cents) - self.spent(request))

    def _health_of(self, m: ModelMember) -> _Health:
        return self._health.setdefault(id(m), _Health())

    def _next_label(self, chain: list[ModelMember], i: int) -> str:
        rest = [m for m in chain[i + 1 :] if self._health_of(m).down_for == 0]
        return f"{rest[0].name} ({rest[0].route})" if rest else "the offline dweller"

    def _down(self, m: ModelMember, reason: str, nxt: str) -> None:
        h = self._health_of(m)
        h.strikes += 1
        h.down_for = min(self.max_cooldown, self.cooldown * (2 ** (h.strikes - 1)))
        h.reason = reason
        self.stats.fallbacks += 1
        self._say(
            f"down:{m.name}",
            f"{m.name} ({m.route} model {m.model} at {m.where}) is unavailable: {reason}. "
            f"Falling back to {nxt}; it will be tried again now and then.",
        )

    # ---- the port -----------------------------------------------------------------------

    async def dwell(self, request: DwellRequest) -> Residue:
        chain = self.plan(request)
        skipped: list[str] = []
        for h in (self._health_of(m) for m in self.members()):
            if h.down_for > 0:
                h.down_for -= 1
        for i, m in enumerate(chain):
            h = self._health_of(m)
            if h.down_for > 0:
                skipped.append(f"{m.route}: down ({h.reason})")
                continue
            budget: int | None = None
            if m.route == "cloud":
                budget = self.budget_left(request)
                estimate = m.estimate_cents(request)
                if estimate > budget:
                    self.stats.budget_refusals += 1
                    skipped.append(f"cloud: estimate {estimate}c > {budget}c left")
                    s = request.session
                    self._say(
                        f"budget:{s.id}",
                        f"Cloud budget of wander {s.id} cannot cover another {m.model} call "
                        f"({self.spent(request)} of {s.cloud_budget_cents} cents spent, "
                        f"{estimate} estimated): cloud dwells go to "
                        f"{self._next_label(chain, i)}.",
                    )
                    continue
            try:
                residue = await m.try_dwell(request, budget_cents=budget)
            except BudgetRefused as exc:
                self.stats.budget_refusals += 1
                skipped.append(f"{m.route}: {exc.reason}")
                continue
            except ModelUnavailable as exc:
                self._down(m, exc.reason, self._next_label(chain, i))
                skipped.append(f"{m.route}: {exc.reason}")
                continue
            except Exception as exc:  # a bug in an adapter: log it, fall back, keep wandering
                log.exception("%s raised out of try_dwell", m.name)
                self._down(m, f"unexpected {type(exc).__name__}: {exc}", self._next_label(chain, i))
                skipped.append(f"{m.route}: error")
                continue
            return self._accept(m, request, residue, skipped, chain, i)
        return await self._offline(request, skipped)

    def _accept(
        self,
        m: ModelMember,
        request: DwellRequest,
        residue: Residue,
        skipped: list[str],
        chain: list[ModelMember],
        i: int,
    ) -> Residue:
        h = self._health_of(m)
        if h.strikes:
            log.info("%s (%s) answers again", m.name, m.route)
        h.strikes = 0
        h.reason = None
        residue.route = m.route
        if m.route != "cloud":
            residue.cost_cents = 0
        else:
            sid = request.session.id
            self._spent[sid] = self.spent(request) + residue.cost_cents
            estimate = residue.details.get("estimate_cents")
            if isinstance(estimate, int) and residue.cost_cents > estimate * 2:
                log.warning("a %s dwelling cost %d cents against %d estimated", m.model, residue.cost_cents, estimate)
        residue.details = {
            **residue.details,
            "route": m.route,
            "route_reason": self._reason(request, m),
            **({"skipped": skipped} if skipped else {}),
        }
        self.stats.routes[m.route] += 1
        if residue.failed:
            self.stats.failed += 1
            h.failed_outputs += 1
            if h.failed_outputs >= self.max_failed_outputs:
                h.failed_outputs = 0
                self._down(m, f"{self.max_failed_outputs} unusable answers in a row", self._next_label(chain, i))
        else:
            h.failed_outputs = 0
            if self.grounding is not None:
                residue = self.grounding.check(residue, request)
        return residue

    def _reason(self, request: DwellRequest, m: ModelMember) -> str:
        if self.mode != "rule":
            return f"--dweller {'anthropic' if self.mode == 'cloud' else 'ollama'}"
        if m.route == "local":
            return "routine dwelling" if not self.rule.wants_cloud(request) else "cloud unavailable or over budget"
        why = []
        if request.bridge_score > self.rule.bridge_threshold:
            why.append(f"bridge_score {request.bridge_score:.2f} > {self.rule.bridge_threshold}")
        if request.resonance_proximity > self.rule.resonance_threshold:
            why.append(f"resonance_proximity {request.resonance_proximity:.2f} > {self.rule.resonance_threshold}")
        if request.crystallization_candidate:
            why.append("crystallization candidate")
        return "; ".join(why)

    async def _offline(self, request: DwellRequest, skipped: Sequence[str]) -> Residue:
        try:
            residue = await self.offline.dwell(request)
        except Exception as exc:
            log.exception("the offline dweller failed")
            residue = failed_residue(
                f"offline dweller error: {type(exc).__name__}: {exc}",
                None,
                model=getattr(self.offline, "name", "offline"),
                route="offline",
            )
        residue.route = "offline"
        residue.cost_cents = 0
        if skipped:
            residue.details = {**residue.details, "route": "offline", "skipped": list(skipped)}
        self.stats.routes["offline"] += 1
        return residue
