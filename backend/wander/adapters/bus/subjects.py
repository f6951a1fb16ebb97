"""NATS subject scheme for Wander's events and run queue.

Events
------
Every event subject of 000 ("NATS Event Subjects": ``wander.session.created``,
``wander.step.completed``, ...) is published on NATS with the session id inserted as the
second token::

    wander.<event>                    ->  wander.<session_id>.<event>
    wander.step.completed             ->  wander.3f0c...e1.step.completed
    wander.resonance.strengthened     ->  wander.3f0c...e1.resonance.strengthened

so a subscriber takes

    one session:            wander.<session_id>.>
    every session:          wander.>
    one kind, all sessions: wander.*.step.completed

The message body is the event as JSON (``session_id``, ``seq``, ``subject`` in the 000 form,
``ts``, ``payload``), the same shape the WebSocket sends; the header ``Nats-Msg-Id`` is
``<session_id>:<seq>``, which JetStream uses to drop a re-publish (stream WANDER_EVENTS over
``wander.>``), so the outbox relay may publish an event twice after a crash, harmlessly.

Forage events
-------------
SANDWICH foraging (004) numbers its events per foraging run (table forage_events) with
subjects ``sandwich.forage.started``, ``sandwich.forage.attempt``, ``sandwich.made`` and
``sandwich.forage.finished``. On NATS they go under ``wander.forage.<run_id>.`` with the
``sandwich.`` prefix dropped, in the same stream WANDER_EVENTS::

    sandwich.made of run R            ->  wander.forage.R.made
    sandwich.forage.attempt of run R  ->  wander.forage.R.forage.attempt

so ``wander.forage.>`` takes every run's events, ``wander.forage.<run_id>.>`` one run's,
and ``wander.>`` still takes everything (a session id is a UUID, never ``forage``). The
header ``Nats-Msg-Id`` is ``forage:<run_id>:<seq>``. They are published when the forager
publishes them (not through the outbox relay): with NATS away they stay in forage_events,
which GET /api/v1/sandwich/runs/{id}/events replays.

Run queue
---------
Run requests (start or continue a wander up to a target step) go on
``wander_runs.<session_id>`` in the work-queue stream WANDER_RUNS (a subject outside
``wander.>``, so event subscribers never see them), pulled by ``wander worker`` processes
through the durable consumer ``wander-workers``.
"""

from __future__ import annotations

import re

EVENTS_STREAM = "WANDER_EVENTS"
EVENTS_ALL = "wander.>"
RUNS_STREAM = "WANDER_RUNS"
RUNS_ALL = "wander_runs.>"
RUNS_CONSUMER = "wander-workers"

_PREFIX = "wander."
FORAGE_PREFIX = "sandwich."  # forage events (004), numbered per foraging run
FORAGE_ALL = "wander.forage.>"
_TOKEN = re.compile(r"^[A-Za-z0-9_-]+$")  # a session id may not contain '.', '*', '>' or spaces


def _check_session(session_id: str) -> str:
    if not _TOKEN.match(session_id or ""):
        raise ValueError(f"session id not usable as a NATS subject token: {session_id!r}")
    return session_id


def is_forage(subject: str) -> bool:
    return subject.startswith(FORAGE_PREFIX) and len(subject) > len(FORAGE_PREFIX)


def event_subject(subject: str, session_id: str) -> str:
    """``wander.step.completed`` of session S -> ``wander.S.step.completed``;
    ``sandwich.made`` of foraging run R -> ``wander.forage.R.made``."""
    if is_forage(subject):
        return f"{_PREFIX}forage.{_check_session(session_id)}.{subject[len(FORAGE_PREFIX) :]}"
    if not subject.startswith(_PREFIX) or len(subject) <= len(_PREFIX):
        raise ValueError(f"not a wander event subject: {subject!r}")
    return f"{_PREFIX}{_check_session(session_id)}.{subject[len(_PREFIX) :]}"


def session_filter(session_id: str | None = None) -> str:
    """What to subscribe to for one session's events, or for every session's."""
    return EVENTS_ALL if session_id is None else f"{_PREFIX}{_check_session(session_id)}.>"


def parse_event_subject(nats_subject: str) -> tuple[str, str]:
    """``wander.S.step.completed`` -> (S, ``wander.step.completed``)."""
    parts = nats_subject.split(".")
    if len(parts) < 3 or parts[0] != "wander":
        raise ValueError(f"not a wander event subject on NATS: {nats_subject!r}")
    if parts[1] == "forage":
        if len(parts) < 4:
            raise ValueError(f"not a forage event subject on NATS: {nats_subject!r}")
        return parts[2], FORAGE_PREFIX + ".".join(parts[3:])
    return parts[1], "wander." + ".".join(parts[2:])


def message_id(session_id: str, seq: int, subject: str | None = None) -> str:
    """JetStream de-duplication id of an event: one per (session, seq), or per (run, seq)
    for a forage event."""
    return f"forage:{session_id}:{seq}" if subject is not None and is_forage(subject) else f"{session_id}:{seq}"


def run_subject(session_id: str) -> str:
    return f"wander_runs.{_check_session(session_id)}"


def run_message_id(session_id: str, target_step: int) -> str:
    """A run request asked twice (two API processes resuming the same crash) is one request."""
    return f"run:{session_id}:{target_step}"
