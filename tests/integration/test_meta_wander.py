"""The first use case of 001 end to end, offline: resonances confirm and a crystal forms."""

from wander.core.engine.presets import PRESETS
from wander.core.engine.service import NewWander


async def test_300_step_meta_wander_confirms_resonances_and_crystallizes(app):
    p = PRESETS["meta-wander"]
    session = await app.engine.create(
        NewWander(
            seed_concept=p.seed_concept,
            attractor=p.attractor,
            max_steps=300,
            random_seed=1,
            human_checkpoint_frequency=0,
            other_seeds=list(p.other_seeds),
        )
    )
    outcome = await app.engine.run(session.id)
    assert outcome.steps_completed == 300, outcome
    resonances = await app.store.find_resonances(session_id=session.id)
    confirmed = [r for r in resonances if r.status == "confirmed"]
    crystals = await app.store.session_crystals(session.id)
    accepted = [c for c in crystals if c.validity["V"] >= 0.7]
    print(
        f"resonances {len(resonances)}, confirmed {len(confirmed)}, crystals {len(crystals)}, "
        f"accepted {len(accepted)}: {[round(c.validity['V'], 3) for c in crystals]}"
    )
    assert len(confirmed) >= 3
    assert accepted, "no crystal reached V >= 0.7"
    c = accepted[0]
    assert c.structural_type and c.bread_a_locus_id and c.bread_b_locus_id
    assert len(c.rumination) >= 8 and all("lens" in s for s in c.rumination)
    for part in ("bread_compat", "containment", "non_triviality", "novelty"):
        assert 0.0 <= c.validity[part] <= 1.0
