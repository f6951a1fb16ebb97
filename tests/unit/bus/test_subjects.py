"""The NATS subject scheme: wander.<session>.<event> for every subject of 000."""

from datetime import UTC, datetime

import pytest

from shared_schemas.events import Subject
from wander.adapters.bus import subjects
from wander.adapters.bus.nats import decode_event, encode_event
from wander.bootstrap.scale import nats_settings
from wander.bootstrap.settings import load_settings
from wander.core.domain.models import Event

SID = "3f0c2a1e-8d4b-4c55-9a61-0b2f7d9e11aa"


@pytest.mark.parametrize("subject", list(Subject))
def test_every_000_subject_maps_and_parses_back(subject):
    nats_subject = subjects.event_subject(subject, SID)
    assert nats_subject == f"wander.{SID}.{subject.removeprefix('wander.')}"
    assert subjects.parse_event_subject(nats_subject) == (SID, subject)


def test_filters_select_one_session_or_all():
    assert subjects.session_filter(SID) == f"wander.{SID}.>"
    assert subjects.session_filter() == "wander.>"
    # Run requests live outside wander.> so event subscribers never see them.
    assert not subjects.run_subject(SID).startswith("wander.")


@pytest.mark.parametrize("bad", ["", "a.b", "a b", "*", ">", "x>"])
def test_session_ids_that_would_break_a_subject_are_refused(bad):
    with pytest.raises(ValueError):
        subjects.event_subject("wander.step.completed", bad)


@pytest.mark.parametrize("bad", ["step.completed", "wander.", "other.session.created"])
def test_non_wander_subjects_are_refused(bad):
    with pytest.raises(ValueError):
        subjects.event_subject(bad, SID)


def test_message_ids_are_one_per_session_and_seq():
    assert subjects.message_id(SID, 7) == f"{SID}:7"
    assert subjects.message_id(SID, 7) != subjects.message_id(SID, 8)


def test_event_body_round_trips():
    e = Event(
        session_id=SID,
        seq=12,
        subject="wander.step.completed",
        ts=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC),
        payload={"session_id": SID, "step_number": 3, "nested": {"x": [1, 2.5, None]}},
    )
    assert decode_event(encode_event(e)) == e


def test_settings_only_with_a_url():
    assert nats_settings(load_settings({}).nats) is None
    assert nats_settings(load_settings({"WANDER_NATS_URL": "  "}).nats) is None
    s = nats_settings(load_settings({"WANDER_NATS_URL": "nats://n:4222", "WANDER_RUN_ACK_WAIT_S": "7"}).nats)
    assert s.url == "nats://n:4222" and s.ack_wait_s == 7.0
