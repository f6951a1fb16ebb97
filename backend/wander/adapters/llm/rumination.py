"""Rumination with a model (003): the continuation prompt built from a RuminationTurn, and
the model's reply parsed into finding, monologue, cited ids and the [CONTINUE] /
[CRYSTALLIZE] signal (with the insight when crystallizing).

The hallucination guard of 003 is applied to every reply: an id the reply cites that is
not among the turn's evidence ids is dropped, and the reply says how many were (the
`dropped_citations` field, and a line in the monologue). The heavy model is used when
the chat has one (Anthropic: WANDER_ANTHROPIC_HEAVY_MODEL).

The reply is asked for in 003's sections (## Finding, ## Cited, ## Internal Monologue,
## Gap Update, ## Signal, ## Insight); a JSON object with those keys is read too."""

from __future__ import annotations

import logging
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from wander.adapters.llm import prompts
from wander.adapters.llm.base import ChatModel, Completion, ModelUnavailable, ModelUsage, RetryPolicy
from wander.adapters.llm.output import OutputError, clip_raw, extract_json
from wander.core.domain.pii import scrub_pii
from wander.core.domain.views import EvidenceItem
from wander.core.engine.ports import RuminationReply, RuminationTurn

log = logging.getLogger(__name__)

CONTINUE, CRYSTALLIZE = "CONTINUE", "CRYSTALLIZE"
MONOLOGUE_TAIL = 600  # 003: the last 600 characters of the internal state go into the next prompt
MAX_EVIDENCE = 30
_SIGNAL = re.compile(r"\[\s*(CONTINUE|CRYSTALL?I[SZ]E)\s*\]", re.I)
_BARE_SIGNAL = re.compile(r"\b(CONTINUE|CRYSTALL?I[SZ]E)\b", re.I)
_BRACKET = re.compile(r"\[([^\[\]\s]{1,80})\]")
_NAMES = (
    r"finding|findings|cited(?: evidence)?(?: ids)?|citations|sources|internal monologue|monologue|"
    r"gap update|updated gap analysis|signal|insight"
)
# "## Finding", "## Finding: Partnership", "**Signal:** [CONTINUE]", "Insight: ..." (not "Insight into ...:")
_HEADING = re.compile(r"^\s*(?:#{1,6}\s*)?(?:\*\*)?\s*(" + _NAMES + r")\s*(?:\*\*)?\s*(?::\s*(?:\*\*)?\s*(.*)|$)", re.I)
_NOT_IDS = {"and", "or", "none", "the", "id", "ids", "evidence", "see", "also", "n/a", "nothing", "cited"}
_SECTION = {
    "finding": "finding",
    "findings": "finding",
    "citations": "cited",
    "sources": "cited",
    "internal monologue": "monologue",
    "monologue": "monologue",
    "gap update": "gap",
    "updated gap analysis": "gap",
    "signal": "signal",
    "insight": "insight",
}


@dataclass
class ModelRuminationReply(RuminationReply):
    """RuminationReply with what the guard dropped and what the call cost."""

    dropped_citations: int = 0
    dropped_ids: list[str] = field(default_factory=list)
    gap_update: str = ""
    model_used: str = ""
    route: str = ""
    tokens_used: int = 0
    cost_cents: int = 0
    failed: bool = False
    raw_output: str | None = None


def _evidence_lines(evidence: list[EvidenceItem]) -> str:
    if not evidence:
        return (
            "Nothing. The query returned no evidence for this lens. That is data: the graph does not have "
            "this perspective here. Do not invent it."
        )
    lines = []
    for e in evidence[:MAX_EVIDENCE]:
        summary = re.sub(r"\s+", " ", e.summary).strip()
        lines.append(f"- [{e.id}] ({e.type}, cos {e.sim:.2f}) {summary[:400]}")
    if len(evidence) > MAX_EVIDENCE:
        lines.append(f"- ... and {len(evidence) - MAX_EVIDENCE} more not shown")
    return "\n".join(lines)


def build_continuation_prompt(seed: str, turn: RuminationTurn, monologue: str = "") -> str:
    findings = [f for f in turn.findings_so_far if f and f.strip()]
    if findings:
        shown = "".join("- " + re.sub(r"\s+", " ", f).strip()[:160] + "\n" for f in findings[-12:])
        findings_block = f"So far you've explored:\n{shown}\n"
    else:
        findings_block = ""
    monologue = (monologue or getattr(turn, "monologue_so_far", "") or "").strip()
    state = monologue[-MONOLOGUE_TAIL:] if monologue else "(nothing yet: this is where the rumination begins)"
    gap = (turn.gap or "").strip() or "Something is missing."
    if turn.coverage >= 1.0 and not turn.evidence:
        gap += (
            " All lenses have been explored. But is there still tension? Is something pulling at you that "
            "deserves deeper exploration? Or has the picture stabilized enough to crystallize?"
        )
    return prompts.prompt(
        "continuation",
        stimulus_summary=seed.strip(),
        findings_so_far=findings_block,
        internal_monologue=state,
        coverage=f"{max(0.0, min(1.0, turn.coverage)):.0%}",
        step=turn.step,
        lens=turn.lens or "(unnamed)",
        gap_description=gap,
        evidence=_evidence_lines(turn.evidence),
    )


def _sections(text: str) -> dict[str, str]:
    out: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        m = _HEADING.match(line)
        if m:
            name = m.group(1).lower()
            current = "cited" if name.startswith("cited") else _SECTION.get(name, name)
            out.setdefault(current, [])
            rest = (m.group(2) or "").strip().strip("*").strip()
            if rest:
                out[current].append(rest)
            continue
        if current is not None:
            out[current].append(line)
    return {k: "\n".join(v).strip() for k, v in out.items()}


def _signal_of(sections: dict[str, str], text: str) -> str | None:
    for source in (sections.get("signal", ""), text):
        hits = _SIGNAL.findall(source)
        if hits:
            return CRYSTALLIZE if hits[-1 if source is text else 0].upper().startswith("CRYST") else CONTINUE
    bare = _BARE_SIGNAL.findall(sections.get("signal", ""))
    if bare:
        return CRYSTALLIZE if bare[0].upper().startswith("CRYST") else CONTINUE
    return None


def _looks_like_id(token: str, evidence_ids: set[str]) -> bool:
    if token in evidence_ids:
        return True
    if _BARE_SIGNAL.fullmatch(token):
        return False
    return len(token) >= 6 and bool(re.search(r"[\d\-:_]", token))


def _ids_from(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v).strip().strip("[]\"'`") for v in value if str(v).strip()]
    if isinstance(value, str):
        if value.strip().lower() in ("none", "-", "n/a", "nothing", ""):
            return []
        return [t.strip("[]\"'`().") for t in re.split(r"[,\s;]+", value) if t.strip("[]\"'`().")]
    return []


def parse_rumination_reply(text: str | None, evidence_ids: list[str] | set[str]) -> ModelRuminationReply:
    """A reply from a model's text, with the hallucination guard applied. Never raises."""
    text = (text or "").strip()
    ids = {str(i) for i in evidence_ids}
    data: dict[str, Any] = {}
    if text[:1] == "{" or text.startswith("```"):
        try:
            obj = extract_json(text, dict, accept=lambda d: any(k in d for k in ("finding", "signal", "monologue")))
            data = {str(k).lower().replace(" ", "_"): v for k, v in obj.value.items()}
        except OutputError:
            data = {}
    if data:
        sections = {
            "finding": str(data.get("finding") or ""),
            "monologue": str(data.get("monologue") or data.get("internal_monologue") or ""),
            "gap": str(data.get("gap_update") or ""),
            "insight": str(data.get("insight") or ""),
            "signal": str(data.get("signal") or ""),
        }
        cited_raw = _ids_from(data.get("cited_ids", data.get("cited", [])))
    else:
        sections = _sections(text)
        cited_raw = _ids_from(sections.get("cited", ""))
        if not sections.get("finding") and not sections.get("monologue"):
            sections["finding"] = _SIGNAL.sub("", text).strip()
    signal = _signal_of(sections, text) or CONTINUE
    body = " ".join(sections.get(k, "") for k in ("finding", "monologue", "insight"))
    inline = [t for t in _BRACKET.findall(body) if _looks_like_id(t, ids)]
    cited: list[str] = []
    dropped: list[str] = []
    cited_raw = [t for t in cited_raw if t in ids or t.lower() not in _NOT_IDS]
    for token in [*cited_raw, *inline]:  # inline brackets were kept only when they look like ids
        if token in ids:
            if token not in cited:
                cited.append(token)
        elif token not in dropped:
            dropped.append(token)

    def guard(s: str) -> str:
        for d in dropped:
            s = s.replace(f"[{d}]", "[unsupported citation removed]")
        return scrub_pii(_SIGNAL.sub("", s).strip())

    finding = guard(sections.get("finding", ""))
    monologue = guard(sections.get("monologue", ""))
    if dropped:
        monologue = (monologue + "\n\n" if monologue else "") + (
            f"[guard] {len(dropped)} cited id(s) were not in this step's evidence and were dropped: "
            f"{', '.join(dropped[:10])}."
        )
    insight = guard(sections.get("insight", "")) or None
    if signal == CRYSTALLIZE and not insight:
        insight = finding or None
    if signal != CRYSTALLIZE:
        insight = None
    return ModelRuminationReply(
        finding=finding,
        monologue=monologue,
        cited_ids=cited,
        signal=signal,
        insight=insight,
        dropped_citations=len(dropped),
        dropped_ids=dropped,
        gap_update=scrub_pii(sections.get("gap", "")),
    )


class ModelRumination:
    """The RuminationModel port on a ChatModel (its heavy model when it has one)."""

    def __init__(
        self, chat: ChatModel, *, model: str | None = None, retry: RetryPolicy | None = None, max_tokens: int = 1200
    ):
        self.chat = chat
        self.name = chat.name
        self.route = chat.route
        self.model = model or getattr(chat, "heavy_model", None) or chat.model
        self.where = chat.where
        self.retry = retry or RetryPolicy()
        self.max_tokens = max_tokens
        self.system = prompts.load("rumination_system")
        self.usage = ModelUsage(chat.route, self.model)
        self._monologues: OrderedDict[str, str] = OrderedDict()

    def _remember(self, seed: str, monologue: str) -> None:
        self._monologues[seed] = (self._monologues.get(seed, "") + "\n" + monologue).strip()[-4 * MONOLOGUE_TAIL :]
        self._monologues.move_to_end(seed)
        while len(self._monologues) > 64:
            self._monologues.popitem(last=False)

    async def _call(self, messages: list[dict[str, str]]) -> Completion:
        c = await self.retry.call(
            lambda: self.chat.complete(messages, system=self.system, max_tokens=self.max_tokens, model=self.model),
            what=f"{self.name} rumination",
        )
        self.usage.add(c)
        return c

    def estimate_cents(self, seed: str, turn: RuminationTurn) -> int:
        p = build_continuation_prompt(seed, turn, self._monologues.get(seed, ""))
        return self.chat.estimate_cents(
            [{"role": "user", "content": p}], system=self.system, max_tokens=self.max_tokens, model=self.model
        )

    def _failed(self, why: str, raw: str | None, tokens: int, cost: int, calls: int = 0) -> ModelRuminationReply:
        return ModelRuminationReply(
            finding="",
            monologue=f"[rumination model] {why}",
            cited_ids=[],
            signal=CONTINUE,
            insight=None,
            model_used=self.model,
            route=self.route,
            tokens_used=tokens,
            cost_cents=cost,
            failed=True,
            raw_output=clip_raw(raw),
            spent=[(self.route, calls, cost)] if calls else [],
        )

    async def ruminate(
        self, seed: str, turn: RuminationTurn, *, budget_cents: int | None = None
    ) -> ModelRuminationReply:
        if turn.step <= 1:
            self._monologues.pop(seed, None)
        prompt = build_continuation_prompt(seed, turn, self._monologues.get(seed, ""))
        messages = [{"role": "user", "content": prompt}]
        estimate = self.chat.estimate_cents(messages, system=self.system, max_tokens=self.max_tokens, model=self.model)
        if budget_cents is not None and estimate > budget_cents:
            return self._failed(f"not asked: the call could cost {estimate} cents, {budget_cents} left", None, 0, 0)
        try:
            c = await self._call(messages)
        except ModelUnavailable as exc:
            return self._failed(f"unavailable: {exc.reason}", None, 0, 0)
        tokens, cost, text, calls = c.tokens, c.cost_cents, c.text, 1
        if not text.strip():  # one retry for an empty answer, budget permitting
            messages += [
                {"role": "assistant", "content": "(empty)"},
                {"role": "user", "content": "Your answer was empty. Answer in the sections asked for."},
            ]
            if budget_cents is None or cost + estimate <= budget_cents:
                try:
                    c2 = await self._call(messages)
                    tokens, cost, text, calls = tokens + c2.tokens, cost + c2.cost_cents, c2.text, 2
                except ModelUnavailable as exc:
                    return self._failed(f"empty answer, and the retry failed: {exc.reason}", "", tokens, cost, calls)
            if not text.strip():
                return self._failed("the model gave an empty answer", text, tokens, cost, calls)
        evidence_ids = [e.id for e in turn.evidence]
        reply = parse_rumination_reply(text, evidence_ids)
        reply.model_used, reply.route, reply.tokens_used, reply.cost_cents = self.model, self.route, tokens, cost
        reply.spent = [(self.route, calls, cost)]
        if reply.dropped_citations:
            reply.raw_output = clip_raw(text)
            log.info("rumination step %d: %d unsupported citation(s) dropped", turn.step, reply.dropped_citations)
        self._remember(seed, reply.monologue)
        return reply
