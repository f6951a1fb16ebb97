"""Why each step was chosen reaches the API: the trace's selection scores, the locus that the
step reached (arrived_why, what the map's locus panel shows) and the adjacencies event."""

from tests.api.conftest import API, create

WHYS = {"toward the attractor", "bridge", "analogy", "tension", "novelty"}


async def test_each_step_says_why_in_the_trace_and_on_its_locus(client):
    s = await create(client, seed_concept="sailing", attractor="epidemiology", max_steps=12, random_seed=3)
    sid = s["id"]
    reached = []
    for _ in range(6):
        r = await client.post(f"{API}/{sid}/step")
        assert r.status_code == 200, r.text
        reached.append(r.json()["to_locus"]["id"])
    trace = (await client.get(f"{API}/{sid}/trace")).json()
    assert len(trace) == 6
    for step in trace:
        scores = step["selection_scores"]
        assert scores["why"] in WHYS, scores
        assert step["selection_reason"].startswith(f"{scores['why']} ({scores['strategy']})")
    first = {}
    for step in trace:
        first.setdefault(step["to_locus_id"], step)
    for locus_id in set(reached):
        detail = (await client.get(f"{API}/{sid}/loci/{locus_id}")).json()
        scores = first[locus_id]["selection_scores"]
        assert detail["arrived_why"].startswith(scores["why"]), (detail["arrived_why"], scores)
        assert scores["strategy"] in detail["arrived_why"] or detail["arrived_why"] == scores["strategy"]
