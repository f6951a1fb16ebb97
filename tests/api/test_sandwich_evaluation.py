"""8.2's human evaluation over HTTP and the CLI: a blind sample of sandwiches, crystals and
marginal sandwiches, judgments checked field by field and stored with the subject's own V,
the calibration report on constructed judgments (agreement before and after), and 8.3's
failure table."""

from __future__ import annotations

import json
import uuid

from tests.api.test_sandwich_data_model import corpus, make, v
from tests.wander_cli import wander
from wander.core.sandwich.model import DUPLICATE, NO_BREAD, REJECTED, Attempt, Content

E = "/api/v1/sandwich/evaluation"


async def subjects(app) -> None:
    """The data model test's six sandwiches (V 0.71-0.86), a crystal (V 0.9), a marginal
    sandwich in the review queue (V 0.6), and one attempt of each other failure."""
    await corpus(app)
    crystal = make("Q", "tide", "moon", "shore", (v((20, 1)), v((21, 1)), v((22, 1))), "Temporal", 0.9, ["sea"])
    crystal.origin = "crystal"
    await app.sandwiches.store_crystal(str(uuid.uuid4()), crystal)
    run_id, _ = await app.sandwiches.start_run("autonomous", None, 3)
    marginal = make("M", "hope", "plan", "fear", (v((23, 1)), v((24, 1)), v((25, 1))), "Dialectic", 0.6, ["mind"])
    page = Content("a page about hope and fear", "topic", "hope", "Hope", "mind")
    await app.sandwiches.record_attempt(
        run_id, Attempt("what of hope?", REJECTED, "V = 0.600 < 0.7, marginal", page, review=marginal), v((30, 1)), []
    )
    bare = Content("nothing to bound here", "topic", "void", "Void", "none")
    await app.sandwiches.record_attempt(
        run_id, Attempt("the void?", NO_BREAD, "no bread: one concept", bare), v((31, 1)), []
    )
    await app.sandwiches.record_attempt(run_id, Attempt("again?", DUPLICATE, "seen before", bare), v((32, 1)), [])


def judgment(s: dict, valid: bool, **over) -> dict:
    return {
        "subject_kind": s["subject_kind"],
        "subject_id": s["subject_id"],
        "judge": "ada",
        "valid": valid,
        "quality": 4 if valid else 2,
        "creativity": 3,
        "clarity": 4,
        "name_quality": 2,
        **over,
    }


async def test_sample_is_blind_and_mixes_every_kind(app, client):
    await subjects(app)
    every = (await client.get(f"{E}/sample", params={"n": 50})).json()
    assert len(every) == 8 and {s["subject_kind"] for s in every} == {"sandwich", "crystal", "review"}
    assert all("validity_score" not in s and "V" not in s for s in every)
    assert {s["name"] for s in every} == {"A", "B", "C", "D", "E", "F", "Q", "M"}
    three = (await client.get(f"{E}/sample", params={"n": 3})).json()
    assert sorted(s["subject_kind"] for s in three) == ["crystal", "review", "sandwich"]  # each kind takes its turn
    assert (await client.get(f"{E}/sample", params={"n": 0})).status_code == 422


async def test_judgments_are_checked_stored_with_the_subjects_v_and_replaced(app, client):
    await subjects(app)
    every = (await client.get(f"{E}/sample", params={"n": 50})).json()
    a = next(s for s in every if s["name"] == "A")
    r = await client.post(f"{E}/judgments", json={**judgment(a, True), "auto_v": 0.1})  # V is not the client's
    assert r.status_code == 422 and r.json()["field"] == "auto_v"
    r = await client.post(f"{E}/judgments", json=judgment(a, True))
    assert r.status_code == 201, r.text
    stored = r.json()
    assert stored["auto_v"] == 0.86 and stored["auto_parts"]["containment"] == 0.86 and stored["name"] == "A"
    left = (await client.get(f"{E}/sample", params={"n": 50, "judge": "ada"})).json()
    assert a["subject_id"] not in {s["subject_id"] for s in left} and len(left) == 7
    assert len((await client.get(f"{E}/sample", params={"n": 50, "judge": "bob"})).json()) == 8
    again = await client.post(f"{E}/judgments", json=judgment(a, False, quality=1, note="on reflection, no"))
    assert again.status_code == 201 and again.json()["id"] == stored["id"] and again.json()["valid"] is False
    rows = (await client.get(f"{E}/judgments")).json()
    assert len(rows) == 1 and rows[0]["note"] == "on reflection, no" and rows[0]["quality"] == 1
    for bad, field in (
        ({"quality": 6}, "quality"),
        ({"clarity": 0}, "clarity"),
        ({"creativity": 2.5}, "creativity"),
        ({"name_quality": True}, "name_quality"),
        ({"valid": "yes"}, "valid"),
        ({"judge": "  "}, "judge"),
        ({"subject_kind": "poem"}, "subject_kind"),
        ({"subject_id": "nope"}, "subject_id"),
    ):
        r = await client.post(f"{E}/judgments", json={**judgment(a, True), **bad})
        assert r.status_code == 422 and r.json()["field"] == field, (bad, r.text)
    missing = judgment(a, True)
    del missing["quality"]
    assert (await client.post(f"{E}/judgments", json=missing)).json()["field"] == "quality"
    gone = judgment(a, True, subject_id=str(uuid.uuid4()))
    assert (await client.post(f"{E}/judgments", json=gone)).status_code == 404
    wrong_kind = judgment(a, True, subject_kind="review")  # A is a sandwich, not in the queue
    assert (await client.post(f"{E}/judgments", json=wrong_kind)).status_code == 404


async def test_calibration_fits_the_threshold_to_a_stricter_person(app, client, cli_env):
    empty = (await client.get(f"{E}/calibration")).json()
    assert empty["n"] == 0 and empty["fitted"] is False and empty["before"]["threshold"] == 0.7
    await subjects(app)
    every = (await client.get(f"{E}/sample", params={"n": 50})).json()
    v_of = {"A": 0.86, "B": 0.75, "C": 0.72, "D": 0.8, "E": 0.74, "F": 0.71, "Q": 0.9, "M": 0.6}
    for s in every:  # this person calls a sandwich valid only from V 0.78 on
        r = await client.post(f"{E}/judgments", json=judgment(s, v_of[s["name"]] >= 0.78))
        assert r.status_code == 201, r.text
    report = (await client.get(f"{E}/calibration")).json()
    assert report["n"] == 8 and report["valid"] == 3 and report["fitted"] is True
    # before: V >= 0.7 calls B, C, E and F valid, which the person does not
    assert report["before"]["agreement"] == 0.5
    assert report["threshold_only"]["agreement"] == 1.0 and 0.75 < report["threshold_only"]["threshold"] < 0.8
    assert report["after"]["agreement"] == 1.0 and report["held_out_agreement"] is None
    assert "50%" in report["summary"] and "100%" in report["summary"]
    failures = {f["failure"]: f for f in (await client.get(f"{E}/failures")).json()}
    assert list(failures) == ["no_ingredients", "low_validity", "human_disagrees", "duplicate"]
    assert failures["human_disagrees"]["count"] == 4
    assert {x["auto_v"] for x in failures["human_disagrees"]["examples"]} == {0.75, 0.72, 0.74, 0.71}
    assert failures["no_ingredients"]["count"] == 1
    assert failures["no_ingredients"]["examples"][0]["curiosity_prompt"] == "the void?"
    assert failures["no_ingredients"]["examples"][0]["source_content"] == "nothing to bound here"
    assert failures["low_validity"]["count"] == 1 and failures["low_validity"]["examples"][0]["review_name"] == "M"
    assert failures["duplicate"]["count"] == 1 and failures["duplicate"]["purpose"] == "Improve novelty detection"
    done = wander(["corpus", "calibrate", "--json"], cli_env)
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["calibration"] == report and [f["count"] for f in body["failures"]] == [1, 1, 4, 1]
    plain = wander(["corpus", "calibrate"], cli_env)
    assert plain.returncode == 0 and "Human disagrees" in plain.stdout and "threshold refitted" in plain.stdout
