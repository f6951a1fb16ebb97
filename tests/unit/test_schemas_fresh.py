"""The generated wire contract (JSON Schema and TypeScript) matches the Python models, and
the event contract is whole: every subject has one payload model and an envelope."""

import json
import re

import pytest
from pydantic import ValidationError

from shared_schemas import events, generate, models


def test_generated_files_are_up_to_date():
    for path, text in generate.rendered().items():
        assert path.exists(), f"{path} is missing: run `make schemas`"
        assert path.read_text() == text, f"{path} is stale: run `make schemas`"


def test_the_drift_check_fails_on_a_changed_contract(tmp_path, monkeypatch):
    stale = tmp_path / "types.gen.ts"
    stale.write_text(generate.TS_FILE.read_text().replace('"wander.step.completed"', '"wander.step.done"'))
    monkeypatch.setattr(generate, "TS_FILE", stale)
    monkeypatch.setattr(generate, "SCHEMA_FILE", generate.SCHEMA_FILE)
    assert generate.main(["--check"]) == 1


def test_every_subject_has_exactly_one_payload_and_an_envelope():
    assert set(events.PAYLOADS) == set(events.Subject)
    assert set(events.ENVELOPES) == set(events.Subject)
    for subject, payload in events.PAYLOADS.items():
        assert payload.subject is subject
        assert "session_id" in payload.model_fields


def test_the_typescript_union_is_discriminated_on_subject():
    ts = generate.TS_FILE.read_text()
    union = ts[ts.index("export type EventOut =") :]
    union = union[: union.index(";") + 1]
    for subject, payload in events.PAYLOADS.items():
        name = payload.__name__.removesuffix("Payload") + "Event"
        assert f"export interface {name} {{" in ts
        assert f'  subject: "{subject.value}";\n  payload: {payload.__name__};' in ts
        assert re.search(rf"^  \| {name}[;\n]", union, re.M), name


def test_a_second_payload_for_one_subject_is_refused():
    with pytest.raises(TypeError, match="already has a payload model"):

        class Again(events.EventPayload):  # noqa: F841
            subject = events.Subject.STEP_STARTED


def test_schema_names_every_exported_model():
    schema = json.loads(generate.SCHEMA_FILE.read_text())
    assert {m.__name__ for m in (*models.EXPORTED, *events.EXPORTED)} <= set(schema["$defs"])


def test_the_envelope_parses_by_subject_and_refuses_a_wrong_payload():
    base = {"session_id": "s", "seq": 1, "ts": "2026-01-01T00:00:00Z"}
    ok = events.EventOut.model_validate(
        {
            **base,
            "subject": "wander.step.started",
            "payload": {"session_id": "s", "step_number": 1, "from_locus_id": "l"},
        }
    )
    assert isinstance(ok.root.payload, events.StepStartedPayload)
    with pytest.raises(ValidationError):
        events.EventOut.model_validate({**base, "subject": "wander.step.started", "payload": {"session_id": "s"}})
    with pytest.raises(ValidationError):
        events.EventOut.model_validate({**base, "subject": "wander.no.such", "payload": {"session_id": "s"}})


def test_engine_payloads_validate_against_the_contract():
    """A payload the engine builds parses as the model the frontend is typed against."""
    import numpy as np

    from wander.core.domain.models import Candidate, Locus, Residue, Scores, SourceType
    from wander.core.engine import events as ev

    lo = Locus(id="l1", session_id="s", concept="a", embedding=np.zeros(3), source_type=SourceType.SEED, domains=["x"])
    r = Residue("c", "t", "b", "s", "p", ["th"], 0.5, 0.2, "offline")
    c = Candidate("b", np.zeros(3), ["y"], "distance_band", "why", 0.4, scores=Scores(0.1, 0.2, 0.3, 0.4, 0.5))
    drafts = [
        ev.draft(
            events.StepCompletedPayload(
                session_id="s",
                step_number=1,
                from_locus=ev.locus_summary(lo),
                to_locus=ev.locus_summary(lo),
                trace_id="t",
                residue=ev.residue_summary(r),
                selection_reason="x",
                resonances_detected=0,
            )
        ),
        ev.draft(
            events.AdjacenciesFoundPayload(
                session_id="s", step_number=1, from_locus_id="l1", candidates=[ev.candidate_summary(c, 0.3)]
            )
        ),
        ev.draft(events.LocusVisitedPayload(session_id="s", step_number=0, locus=ev.locus_summary(lo), new=True)),
    ]
    for seq, d in enumerate(drafts, 1):
        out = events.EventOut.model_validate(
            {"session_id": "s", "seq": seq, "ts": "2026-01-01T00:00:00Z", "subject": d.subject, "payload": d.payload}
        )
        assert out.root.payload.model_dump(mode="json") == d.payload


def test_the_websocket_frame_parses_as_the_contract():
    from datetime import UTC, datetime

    from wander.core.domain.models import Event
    from wander.faces.api.ws import event_frame

    payload = {"session_id": "s", "step_number": 1, "from_locus_id": "l"}
    frame = events.EventFrame.model_validate_json(
        event_frame(Event(session_id="s", seq=1, subject="wander.step.started", ts=datetime.now(UTC), payload=payload))
    )
    assert isinstance(frame.event.root.payload, events.StepStartedPayload)
