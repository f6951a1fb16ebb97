"""The generated wire contract (JSON Schema and TypeScript) matches the Python models."""

import json

from shared_schemas import generate, models


def test_generated_files_are_up_to_date():
    for path, text in generate.rendered().items():
        assert path.exists(), f"{path} is missing: run `make schemas`"
        assert path.read_text() == text, f"{path} is stale: run `make schemas`"


def test_every_event_subject_of_000_is_in_the_contract():
    from typing import get_args

    from wander.engine.events import ALL_SUBJECTS

    assert set(get_args(models.EventSubject)) == set(ALL_SUBJECTS)


def test_schema_names_every_exported_model():
    schema = json.loads(generate.SCHEMA_FILE.read_text())
    assert {m.__name__ for m in models.EXPORTED} <= set(schema["$defs"])


def test_engine_payloads_validate_against_the_contract():
    """A payload the engine builds parses as the model the frontend is typed against."""
    import numpy as np

    from wander.domain.models import Candidate, Locus, Residue, Scores, SourceType
    from wander.engine import events as ev

    lo = Locus(id="l1", session_id="s", concept="a", embedding=np.zeros(3), source_type=SourceType.SEED, domains=["x"])
    r = Residue("c", "t", "b", "s", "p", ["th"], 0.5, 0.2, "offline")
    c = Candidate("b", np.zeros(3), ["y"], "distance_band", "why", 0.4, scores=Scores(0.1, 0.2, 0.3, 0.4, 0.5))
    models.StepCompletedPayload.model_validate(ev.draft(ev.STEP_COMPLETED, "s", step_number=1,
        from_locus=ev.locus_summary(lo), to_locus=ev.locus_summary(lo), trace_id="t", residue=ev.residue_summary(r),
        selection_reason="x", resonances_detected=0).payload)  # fmt: skip
    models.AdjacenciesFoundPayload.model_validate(ev.draft(ev.ADJACENCIES_FOUND, "s", step_number=1,
        from_locus_id="l1", candidates=[ev.candidate_summary(c, 0.3)]).payload)  # fmt: skip
    models.LocusVisitedPayload.model_validate(ev.draft(ev.LOCUS_VISITED, "s", step_number=0,
        locus=ev.locus_summary(lo), new=True).payload)  # fmt: skip
