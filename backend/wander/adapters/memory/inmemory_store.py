"""The Store port in plain Python: one process, no database. For benchmarks and fast
property tests that run many wanders; Postgres stays the store of record everywhere else.

It keeps the same contract as the Postgres store where the engine can tell the difference:
a step number is written once (StepAlreadyCommitted), event seqs are gapless per session,
load_walk rebuilds what the engine needs, lens_evidence ranks by cosine."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from datetime import UTC, datetime

import numpy as np

from wander.core.domain.errors import Conflict, ResonanceMoved, StepAlreadyCommitted
from wander.core.domain.models import (
    FINISHED,
    CompostItem,
    Crystal,
    Event,
    EventDraft,
    HotItem,
    Locus,
    Residue,
    Resonance,
    Session,
    SessionStatus,
    Trace,
    WarmMemory,
)
from wander.core.domain.views import EvidenceItem
from wander.core.engine.ports import InjectionChange, SessionControls, StepCommit, WalkState

FACETS = ("connection", "tension", "bridge", "surprise", "possibility")


class InMemoryStore:
    def __init__(self) -> None:
        self.sessions: dict[str, Session] = {}
        self.loci: dict[str, dict[str, Locus]] = {}
        self.traces: dict[str, list[Trace]] = {}
        self.residues: dict[str, list[tuple[str, Residue]]] = {}
        self.resonances: dict[str, Resonance] = {}
        self.crystals_by_id: dict[str, Crystal] = {}
        self.warm: dict[str, WarmMemory] = {}
        self.compost: dict[str, list[CompostItem]] = {}
        self.events: dict[str, list[Event]] = {}

    # ---- writing -------------------------------------------------------------------------

    def _emit(self, session_id: str, drafts: list[EventDraft]) -> list[Event]:
        log = self.events.setdefault(session_id, [])
        now = datetime.now(UTC)
        out = [Event(session_id, len(log) + 1 + i, d.subject, now, dict(d.payload)) for i, d in enumerate(drafts)]
        log.extend(out)
        if session_id in self.sessions:
            self.sessions[session_id].event_seq = len(log)
        return out

    async def create_session(self, session: Session, seed_loci: list[Locus], events: list[EventDraft]) -> list[Event]:
        self.sessions[session.id] = copy.copy(session)
        self.loci[session.id] = {lo.id: copy.copy(lo) for lo in seed_loci}
        self.traces[session.id], self.residues[session.id], self.compost[session.id] = (
            [],
            [],
            [],
        )
        return self._emit(session.id, events)

    async def commit_step(self, commit: StepCommit) -> list[Event]:
        s = commit.session
        stored = self.sessions.get(s.id)
        if stored is None:
            raise Conflict(f"session {s.id} no longer exists")
        if any(t.step_number == commit.trace.step_number for t in self.traces[s.id]):
            raise StepAlreadyCommitted(f"step {commit.trace.step_number} of {s.id} is already committed")
        if stored.step_count != commit.expected_step_count:
            raise Conflict(f"session {s.id} moved on to step {stored.step_count}")
        for rid, base in commit.resonance_bases.items():
            held = self.resonances.get(rid)
            if held is None or (held.occurrences, str(held.status), held.last_reinforced_at) != base:
                raise ResonanceMoved(f"resonance {rid} changed while step {commit.trace.step_number} was taken")
        loci = self.loci[s.id]
        for lo in commit.new_loci:
            loci[lo.id] = copy.copy(lo)
        loci[commit.visited_locus.id] = copy.copy(commit.visited_locus)
        self.traces[s.id].append(commit.trace)
        self.residues[s.id].append((commit.residue_id, commit.residue))
        for r in commit.resonances:
            self.resonances[r.id] = copy.copy(r)
        for w in [*commit.warm_new, *commit.warm_updated]:
            self.warm[w.id] = copy.copy(w)
        for wid, item in commit.warm_to_compost:
            self.warm.pop(wid, None)
            self.compost[s.id].append(item)
        if commit.crystal is not None:
            self.crystals_by_id[commit.crystal.id] = commit.crystal
        pending = self.sessions[s.id].pending_injection
        self.sessions[s.id] = copy.copy(s)
        # Only the injection this step took: one made while it ran is the next step's.
        self.sessions[s.id].pending_injection = None if pending == commit.consumed_injection else pending
        return self._emit(s.id, commit.events)

    async def start_step(self, session_id: str, events: list[EventDraft]) -> tuple[SessionControls, list[Event]]:
        s = self.sessions.get(session_id)
        if s is None:
            raise Conflict(f"session {session_id} no longer exists")
        if s.status != SessionStatus.ACTIVE:
            raise Conflict(f"session {session_id} is {s.status}")
        controls = SessionControls(
            str(s.status),
            list(s.allowed_domains),
            list(s.forbidden_domains),
            s.temperature,
            s.max_steps,
            list(s.fence),
            s.pending_injection,
            s.cloud_budget_cents,
        )
        return controls, self._emit(session_id, events)

    async def set_status(
        self,
        session_id: str,
        status: str,
        reason: str | None,
        events: list[EventDraft],
        allowed_from: Iterable[str] | None = None,
    ) -> list[Event]:
        s = self.sessions[session_id]
        if allowed_from is not None and str(s.status) not in set(allowed_from):
            raise Conflict(f"session {session_id} is {s.status}")
        s.status, s.stopped_reason = SessionStatus(status), reason
        return self._emit(session_id, events)

    async def set_injection(self, session_id: str, change: InjectionChange) -> list[Event]:
        """The pending forced injection by `change` and its events, together (as Postgres does
        in one transaction); refused once the wander is finished."""
        s = self.sessions.get(session_id)
        if s is None:
            raise Conflict(f"session {session_id} no longer exists")
        if s.status in FINISHED:
            raise Conflict(f"session {session_id} is {s.status}; nothing can be injected")
        pending, events = change(copy.deepcopy(s.pending_injection))
        s.pending_injection = pending
        return self._emit(session_id, events)

    async def set_run_target(self, session_id: str, run_until_step: int | None) -> None:
        self.sessions[session_id].run_until_step = run_until_step

    async def save_crystal(self, crystal: Crystal, events: list[EventDraft]) -> list[Event]:
        self.crystals_by_id[crystal.id] = crystal
        return self._emit(crystal.session_id, events) if crystal.session_id else []

    # ---- reading -------------------------------------------------------------------------

    async def get_session(self, session_id: str) -> Session | None:
        s = self.sessions.get(session_id)
        return copy.copy(s) if s is not None else None

    async def interrupted_runs(self) -> list[Session]:
        return []

    async def locus(self, session_id: str, locus_id: str) -> Locus | None:
        lo = self.loci.get(session_id, {}).get(locus_id)
        return copy.copy(lo) if lo is not None else None

    async def load_walk(self, session_id: str, recent: int = 20, hot: int = 30) -> WalkState:
        s = self.sessions[session_id]
        loci = [copy.copy(lo) for lo in self.loci[session_id].values()]
        traces = sorted(self.traces[session_id], key=lambda t: t.step_number)
        residues = self.residues[session_id]
        themes = [t for _, r in residues[-recent:] for t in r.themes]
        by_id = {lo.id: lo for lo in loci}
        hot_items = []
        for t, (rid, r) in list(zip(traces, residues))[len(traces) - hot if hot else len(traces) :]:
            to = by_id[t.to_locus_id]
            frm = by_id.get(t.from_locus_id or "")
            v = r.themes_embedding if r.themes_embedding is not None else to.embedding
            hot_items.append(
                HotItem(
                    t.step_number,
                    rid,
                    frm.concept if frm else "",
                    to.concept,
                    list(to.domains),
                    list(r.themes),
                    np.asarray(v, dtype=np.float32),
                    r.interestingness,
                    r.facets(),
                )
            )
        return WalkState(
            session=copy.copy(s),
            loci=loci,
            recent_themes=themes,
            relations=[(t.from_locus_id, t.to_locus_id) for t in traces if t.from_locus_id],
            hot=hot_items,
            compost=list(self.compost[session_id]),
            resonances=[
                copy.copy(r)
                for r in self.resonances.values()
                if r.project_id == s.project_id and r.status != "invalidated"
            ],
            warm=[copy.copy(w) for w in self.warm.values() if w.session_id == session_id],
            last_crystal_step=_last_crystal_step(
                traces, [c for c in self.crystals_by_id.values() if c.session_id == session_id]
            ),
        )

    async def crystals(self, project_id: str) -> list[Crystal]:
        return [c for c in self.crystals_by_id.values() if c.project_id == project_id and c.status != "invalidated"]

    async def lens_evidence(self, session: Session, lens: str, vector: np.ndarray, k: int) -> list[EvidenceItem]:
        v = np.asarray(vector, dtype=np.float32)
        sid = session.id
        if lens == "constraints":
            items = [
                EvidenceItem(f"fence:{i}", "constraint", f"fence {a.action}s '{a.concept}'", float(a.embedding @ v))
                for i, a in enumerate(session.fence)
            ]
            budget = (
                f"cloud budget {session.cloud_spent_cents}/{session.cloud_budget_cents} cents, "
                f"drift at most {session.max_drift_distance}"
            )
            items.append(EvidenceItem("budget", "constraint", budget, 0.0))
            return items
        rows: list[tuple[str, str, np.ndarray | None]]
        if lens == "loci":
            kind, rows = (
                "locus",
                [(lo.id, lo.concept, lo.embedding) for lo in self.loci.get(sid, {}).values()],
            )
        elif lens in FACETS:
            kind = f"residue.{lens}"
            rows = [(f"{rid}#{lens}", getattr(r, lens), r.themes_embedding) for rid, r in self.residues.get(sid, [])]
        elif lens == "resonances":
            kind = "resonance"
            rows = [
                (r.id, ", ".join(r.themes), r.embedding)
                for r in self.resonances.values()
                if r.project_id == session.project_id and r.status != "invalidated"
            ]
        elif lens == "crystals":
            kind = "crystal"
            rows = [(c.id, c.insight, c.embedding) for c in await self.crystals(session.project_id)]
        elif lens == "failed_paths":
            kind = "failed_path"
            rows = [
                (w.id, f"{w.content.get('from')} / {w.content.get('to')}", w.embedding)
                for w in self.warm.values()
                if w.session_id == sid and w.cluster_type == "failed_path"
            ]
        elif lens == "compost":
            kind, rows = (
                "compost",
                [(c.id, c.text, c.embedding) for c in self.compost.get(sid, [])],
            )
        else:
            raise ValueError(f"unknown lens {lens}")
        rows = [r for r in rows if r[2] is not None]
        if not rows:
            return []
        sims = np.stack([np.asarray(r[2], dtype=np.float32) for r in rows]) @ v
        order = np.argsort(-sims, kind="stable")[:k]
        return [EvidenceItem(rows[i][0], kind, (rows[i][1] or "")[:200], float(sims[i])) for i in order]


def _last_crystal_step(traces: list[Trace], crystals: list[Crystal]) -> int:
    """The step of the wander's latest crystal, as the Postgres store reads it back (a step's
    crystal carries the step's own timestamp): the crystallization throttle survives a reload."""
    made = [c.created_at for c in crystals if c.created_at is not None]
    if not made:
        return 0
    last = max(made)
    return max((t.step_number for t in traces if t.created_at is not None and t.created_at <= last), default=0)
