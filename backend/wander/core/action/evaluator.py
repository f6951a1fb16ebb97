"""The offline evaluator: plain rules over the crystal's scores and the declared assets.
Every figure in its output says which inputs it came from, so a reader can check it.

    tractability = max over assets of strength x (domain overlap share + 0.5 if a keyword
                   appears in the insight or its loci), capped at 1
    p(success)   = 0.1 + 0.6 x (0.5 confidence + 0.5 V) x (0.4 + 0.6 tractability)
    cost         = max_stake x (0.25 + 0.75 actionability) x (0.5 + 0.5 tractability)
    payoff       = cost x (1.5 + 2 novelty + actionability) on success, 0 otherwise
    EV           = p x payoff - cost
    worst-case loss = cost x stop_loss (assets.toml; 1.0 by default: a paper position can go to 0)
    risk         = 1 - p
"""

from __future__ import annotations

from typing import Any

from wander.core.action.assets import Assets
from wander.core.action.ports import CrystalContext


def _r(x: float) -> float:
    return round(float(x), 4)


class OfflineEvaluator:
    name = "offline-rules"

    def __init__(self, assets: Assets):
        self.assets = assets

    def _tractability(self, ctx: CrystalContext) -> tuple[float, list[str]]:
        c = ctx.crystal
        text = " ".join([c.insight, *ctx.loci.values()]).lower()
        best, used = 0.0, []
        for a in self.assets.assets:
            overlap = len(set(a.domains) & set(c.domains)) / len(c.domains) if c.domains else 0.0
            keyword = 0.5 if any(k in text for k in a.keywords) else 0.0
            score = min(1.0, a.strength * (overlap + keyword))
            if score > 0:
                used.append(a.name)
            best = max(best, score)
        return best, used

    async def evaluate(self, ctx: CrystalContext) -> dict[str, Any]:
        c = ctx.crystal
        v = float(c.validity.get("V", c.confidence))
        novelty = float(c.validity.get("novelty", 0.5))
        tract, used = self._tractability(ctx)
        p = 0.1 + 0.6 * (0.5 * c.confidence + 0.5 * v) * (0.4 + 0.6 * tract)
        cost = round(self.assets.max_stake_cents * (0.25 + 0.75 * c.actionability) * (0.5 + 0.5 * tract))
        multiple = 1.5 + 2 * novelty + c.actionability
        ev = round(p * cost * multiple - cost)
        subject = str(c.validity.get("filling") or c.insight)[:60]
        verdict = "act" if ev > 0 and tract >= 0.3 else "watch"
        return {
            "action": f"Open a paper position of {cost / 100:.2f} on '{subject}' to test: {c.insight}",
            "asset": subject,
            "recommendation": verdict,
            "expected_value_cents": ev,
            "cost_cents": cost,
            "worst_case_loss_cents": self.assets.worst_case_loss(cost),
            "p_success": _r(p),
            "risk": _r(1 - p),
            "tractability": _r(tract),
            "assets_used": used,
            "inputs": {
                "confidence": _r(c.confidence),
                "V": _r(v),
                "novelty": _r(novelty),
                "actionability": _r(c.actionability),
                "payoff_multiple": _r(multiple),
                "max_stake_cents": self.assets.max_stake_cents,
                "stop_loss": self.assets.stop_loss,
            },
            "evidence": evidence_chain(ctx),
        }


def evidence_chain(ctx: CrystalContext) -> dict[str, Any]:
    """Back from the proposal to the crystal, its loci, the residues that reached them and
    the rumination's findings."""
    c = ctx.crystal
    return {
        "crystal": {
            "id": c.id,
            "insight": c.insight,
            "type": c.structural_type,
            "verdict": c.validity.get("verdict"),
            "V": c.validity.get("V"),
            "confidence": _r(c.confidence),
            "domains": c.domains,
        },
        "loci": [{"id": k, "concept": v} for k, v in ctx.loci.items()],
        "resonance_id": c.source_resonance_id,
        "residues": ctx.residues[:6],
        "findings": [
            {"lens": s.get("lens"), "finding": s.get("finding") or s.get("summary")}
            for s in c.rumination
            if s.get("finding") or s.get("summary")
        ][:8],
    }
