"""Forage events (sandwich.*) on NATS: wander.forage.<run_id>.<event>, reversible, with
their own de-duplication ids; wander events keep their scheme."""

import pytest

from wander.adapters.bus import subjects

RUN = "7b0c2f7e-1111-4a2b-9c3d-000000000001"


@pytest.mark.parametrize(
    "subject, expected",
    [
        ("sandwich.made", f"wander.forage.{RUN}.made"),
        ("sandwich.forage.attempt", f"wander.forage.{RUN}.forage.attempt"),
    ],
)
def test_forage_subjects_round_trip(subject, expected):
    assert subjects.is_forage(subject)
    assert subjects.event_subject(subject, RUN) == expected
    assert subjects.parse_event_subject(expected) == (RUN, subject)
    assert subjects.message_id(RUN, 3, subject) == f"forage:{RUN}:3"


def test_wander_subjects_unchanged_and_bad_forage_subjects_refused():
    assert not subjects.is_forage("wander.step.completed") and not subjects.is_forage("sandwich.")
    assert subjects.event_subject("wander.step.completed", RUN) == f"wander.{RUN}.step.completed"
    assert subjects.message_id(RUN, 3, "wander.step.completed") == f"{RUN}:3" == subjects.message_id(RUN, 3)
    with pytest.raises(ValueError):
        subjects.event_subject("sandwich.made", "a.b")
    with pytest.raises(ValueError):
        subjects.parse_event_subject("wander.forage.only")
