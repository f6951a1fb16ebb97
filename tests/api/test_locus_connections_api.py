"""A locus's connections through the API: GET .../loci/{id} gives what it bridges to and what
it contradicts, as the walk learned them (engine.connections), both ways."""

from tests.api.conftest import API, create, wait_idle


async def test_locus_detail_lists_bridges_and_contradictions(client):
    s = await create(client, max_steps=40, random_seed=5, human_checkpoint_frequency=0)
    sid = s["id"]
    await client.post(f"{API}/{sid}/wander", json={"n_steps": 40})
    await wait_idle(client, sid)
    loci = {lo["id"]: lo for lo in (await client.get(f"{API}/{sid}/loci")).json()}
    details = [(await client.get(f"{API}/{sid}/loci/{lid}")).json() for lid in loci]
    bridges = [(d, b) for d in details for b in d["bridges_to"]]
    assert bridges, "no bridge in 40 steps"
    for d, b in bridges:
        other = loci[b["locus_id"]]
        assert b["concept"] == other["concept"] and 0 <= b["strength"] <= 1
        if b["bridge_type"] == "near across domains":  # off the path: of other domains
            assert not set(other["domains"]) & set(d["domains"])
        else:  # the step that reached it (or that left it for the other): a path connection
            assert b["locus_id"] in {c["locus_id"] for c in d["connections"]}
    for d in details:
        for c in d["contradicts"]:
            assert c["concept"] == loci[c["locus_id"]]["concept"] and c["tension_description"]
    # a bridge or a contradiction holds both ways: the other locus lists it too, named by its end
    by_id = {d["id"]: d for d in details}
    for d, b in bridges:
        back = {x["locus_id"]: x for x in by_id[b["locus_id"]]["bridges_to"]}
        assert d["id"] in back and back[d["id"]]["concept"] == d["concept"]
    for d in details:
        for c in d["contradicts"]:
            assert d["id"] in {x["locus_id"] for x in by_id[c["locus_id"]]["contradicts"]}
    off = [(d, b) for d, b in bridges if b["bridge_type"] == "near across domains"]
    assert off, "no bridge off the path in 40 steps"
    d, b = off[0]
    back = next(x for x in by_id[b["locus_id"]]["bridges_to"] if x["locus_id"] == d["id"])
    assert back["bridge_type"] == b["bridge_type"] and back["domains"] == b["domains"][::-1]
