"""Which model ruminates before a crystal (001 model strategy: crystallization on the heavy
cloud model): the heavy cloud model when the turn's budget covers its estimate, else the
local model, else the offline ruminator; the same chain when a model is unreachable or
answers unusably (a model found unreachable is skipped for `cooldown` turns, then tried
again). Never raises.

The reply says what every model asked cost (`spent`, engine.model_spend), so a cloud
attempt that failed is charged too. Without a budget (a rumination outside a step) the
cloud model is not asked."""

from __future__ import annotations

import logging

from wander.adapters.llm.rumination import ModelRumination, ModelRuminationReply
from wander.core.engine.ports import RuminationModel, RuminationReply, RuminationTurn

log = logging.getLogger(__name__)

UNAVAILABLE = "[rumination model] unavailable"


class RoutedRumination:
    name = "routed rumination"

    def __init__(
        self,
        *,
        offline: RuminationModel,
        cloud: ModelRumination | None = None,
        local: ModelRumination | None = None,
        cooldown: int = 10,
    ):
        self.offline = offline
        self.cloud = cloud
        self.local = local
        self.cooldown = max(1, cooldown)
        self._down: dict[str, int] = {}  # route -> turns left to skip it
        self.routes: dict[str, int] = {"cloud": 0, "local": 0, "offline": 0}  # turns each answered

    def members(self) -> list[ModelRumination]:
        return [m for m in (self.cloud, self.local) if m is not None]

    async def ruminate(self, seed: str, turn: RuminationTurn, *, budget_cents: int | None = None) -> RuminationReply:
        spent: list[tuple[str, int, int]] = []
        skipped: list[str] = []
        for m in self.members():
            if self._down.get(m.route, 0) > 0:
                self._down[m.route] -= 1
                skipped.append(f"{m.route}: down")
                continue
            left = None
            if m.route == "cloud":
                left = None if budget_cents is None else budget_cents - sum(c for r, _, c in spent if r == "cloud")
                if left is None or m.estimate_cents(seed, turn) > left:
                    skipped.append(f"cloud: {'no budget' if left is None else f'estimate over the {left} cents left'}")
                    continue
            reply = await m.ruminate(seed, turn, budget_cents=left)
            spent += reply.spent
            if not getattr(reply, "failed", False):
                reply.spent = spent
                self.routes[m.route] += 1
                return reply
            if reply.monologue.startswith(UNAVAILABLE):
                self._down[m.route] = self.cooldown
                log.warning("%s rumination model %s is unavailable: %s", m.route, m.model, reply.monologue)
            skipped.append(f"{m.route}: {reply.monologue}")
        plain = await self.offline.ruminate(seed, turn)
        self.routes["offline"] += 1
        out = ModelRuminationReply(
            finding=plain.finding,
            monologue=plain.monologue,
            cited_ids=plain.cited_ids,
            signal=plain.signal,
            insight=plain.insight,
            model_used="offline",
            route="offline",
            spent=spent,
        )
        if skipped:
            log.debug("rumination turn %d offline (%s)", turn.step, "; ".join(skipped))
        return out
