"""The event contract is imported from one module: shared_schemas.events names every payload."""

from shared_schemas import events
from shared_schemas.event_subjects import PAYLOADS, Subject


def test_every_payload_model_is_exported_by_the_events_module() -> None:
    missing = [m.__name__ for m in PAYLOADS.values() if getattr(events, m.__name__, None) is not m]
    assert missing == []
    assert set(events.__all__) >= {m.__name__ for m in PAYLOADS.values()}


def test_every_subject_has_an_envelope() -> None:
    assert set(events.ENVELOPES) == set(Subject)
