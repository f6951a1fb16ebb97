"""The router: the 001 rule, the cloud budget, the fallback chain and its one-time notice;
and a property test over 1,000 random steps with random costs."""

from __future__ import annotations

import asyncio
import logging
import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wander.adapters.llm.anthropic import AnthropicDweller
from wander.adapters.llm.base import Completion, RetryPolicy, TransientModelError, estimate_tokens
from wander.adapters.llm.dwelling import ModelDweller
from wander.adapters.llm.ollama import OllamaDweller
from wander.adapters.llm.pricing import Price, PriceTable
from wander.adapters.llm.router import RouterDweller, RoutingRule

from .answers import well_formed
from .conftest import StubOffline, make_request, make_session
from .servers import Reply, anthropic_error


def _router(ollama_server, anthropic_server, retry, **kw):
    local = OllamaDweller(ollama_server.url, retry=retry) if ollama_server else None
    cloud = (
        AnthropicDweller(anthropic_server.api_key, base_url=anthropic_server.url, retry=retry)
        if anthropic_server
        else None
    )
    offline = StubOffline()
    return RouterDweller(offline=offline, local=local, cloud=cloud, **kw), offline


def test_the_001_rule():
    rule = RoutingRule()
    assert rule.wants_cloud(make_request(bridge=0.71))
    assert not rule.wants_cloud(make_request(bridge=0.7))
    assert rule.wants_cloud(make_request(proximity=0.81))
    assert not rule.wants_cloud(make_request(proximity=0.8))
    assert rule.wants_cloud(make_request(crystallization=True))
    assert not rule.wants_cloud(make_request())


async def test_routes_by_the_rule(ollama_server, anthropic_server, retry):
    router, offline = _router(ollama_server, anthropic_server, retry)
    cloud = await router.dwell(make_request(bridge=0.9))
    local = await router.dwell(make_request(bridge=0.2))
    assert (cloud.route, cloud.model_used) == ("cloud", "claude-sonnet-4-6") and cloud.cost_cents > 0
    assert (local.route, local.model_used, local.cost_cents) == ("local", "llama3.2:3b", 0)
    assert cloud.details["route_reason"] == "bridge_score 0.90 > 0.7"
    assert len(anthropic_server.calls("/v1/messages")) == 1 and len(ollama_server.calls("/api/chat")) == 1
    assert router.fallback_notice is None and offline.calls == 0


async def test_a_call_that_could_exceed_the_budget_is_not_made(ollama_server, anthropic_server, retry, caplog):
    router, _ = _router(ollama_server, anthropic_server, retry)
    session = make_session(budget=5, spent=4)  # 1 cent left; a dwelling is estimated at 2
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            r = await router.dwell(make_request(session, bridge=0.95))
            assert r.route == "local"
    assert anthropic_server.calls("/v1/messages") == []
    assert "skipped" in r.details and "estimate 2c > 1c left" in r.details["skipped"][0]
    assert len(router.notices) == 1 and "cannot cover another claude-sonnet-4-6 call" in router.notices[0]
    assert sum("cannot cover" in rec.getMessage() for rec in caplog.records) == 1


async def test_spend_is_reconciled_with_real_usage(anthropic_server, retry):
    router, _ = _router(None, anthropic_server, retry, mode="cloud")
    session = make_session(budget=3)  # estimate 2, real 1: two calls fit, the third could overrun
    routes = []
    for _ in range(3):
        r = await router.dwell(make_request(session))
        routes.append(r.route)
        # the engine adds what the residue says it cost (step.py)
        session.cloud_spent_cents += r.cost_cents if r.route == "cloud" else 0
    assert routes == ["cloud", "cloud", "offline"] and session.cloud_spent_cents == 2
    # The router's own tally also protects a caller that forgets to record the spend.
    router2, _ = _router(None, anthropic_server, retry, mode="cloud")
    fixed = make_session(budget=3, sid="00000000-0000-0000-0000-000000000002")
    assert [(await router2.dwell(make_request(fixed))).route for _ in range(3)] == ["cloud", "cloud", "offline"]


async def test_cloud_then_local_then_offline_said_once(ollama_server, anthropic_server, sleeps, caplog):
    retry = RetryPolicy(retries=2, base_delay=0.5, jitter=0.0, sleep=sleeps)
    router, offline = _router(ollama_server, anthropic_server, retry, cooldown=3)
    anthropic_server.push("/v1/messages", *[anthropic_error(429, retry_after=1)] * 3)
    with caplog.at_level(logging.WARNING):
        r = await router.dwell(make_request(bridge=0.9))
        assert r.route == "local" and "cloud: Anthropic answered 429" in r.details["skipped"][0]
        assert sleeps.delays == [1.0, 1.0]
        for _ in range(2):  # within the cooldown the cloud is not asked again
            assert (await router.dwell(make_request(bridge=0.9))).route == "local"
        assert len(anthropic_server.calls("/v1/messages")) == 3
        # Now Ollama goes away too: offline, and that is said once as well.
        ollama_server.push("/api/chat", *[Reply(500, {"error": "llama runner process has terminated"})] * 3)
        r = await router.dwell(make_request(bridge=0.9))  # cooldown over: cloud tried, and it answers
        assert r.route == "cloud"
        r = await router.dwell(make_request(bridge=0.1))
        assert r.route == "offline" and offline.calls == 1
        for _ in range(3):
            await router.dwell(make_request(bridge=0.1))
    assert len(router.notices) == 2, router.notices
    assert (
        "anthropic (cloud model claude-sonnet-4-6" in router.notices[0]
        and "Falling back to ollama" in router.notices[0]
    )
    assert "ollama (local model llama3.2:3b" in router.notices[1] and "the offline dweller" in router.notices[1]
    warnings = [rec.getMessage() for rec in caplog.records if rec.levelno == logging.WARNING]
    assert len(warnings) == 2 and router.fallback_notice == "\n".join(router.notices)


async def test_unreachable_servers_fall_back_at_once_and_never_raise(retry, sleeps):
    router = RouterDweller(
        offline=StubOffline(),
        local=OllamaDweller("http://127.0.0.1:9", retry=retry),
        cloud=AnthropicDweller("k", base_url="http://127.0.0.1:9", retry=retry),
        cooldown=2,
    )
    routes = [(await router.dwell(make_request(bridge=0.9 if i % 2 else 0.1))).route for i in range(8)]
    assert routes == ["offline"] * 8 and sleeps.delays == []
    assert len(router.notices) == 2 and all("nothing answers" in n for n in router.notices)


async def test_timeouts_fall_back_to_local(ollama_server, anthropic_server, sleeps):
    retry = RetryPolicy(retries=1, base_delay=0.01, jitter=0.0, sleep=sleeps)
    cloud = AnthropicDweller(anthropic_server.api_key, base_url=anthropic_server.url, timeout=0.2, retry=retry)
    router = RouterDweller(offline=StubOffline(), local=OllamaDweller(ollama_server.url, retry=retry), cloud=cloud)
    anthropic_server.push("/v1/messages", Reply(delay=1.0), Reply(delay=1.0))
    r = await router.dwell(make_request(bridge=0.9))
    assert r.route == "local" and "did not answer within 0.2s" in router.notices[0]


async def test_a_model_that_keeps_answering_badly_is_set_aside(ollama_server, retry):
    router, offline = _router(ollama_server, None, retry, max_failed_outputs=3, cooldown=5)
    ollama_server.push("/api/chat", *[Reply(text="nope")] * 6)
    routes = [(await router.dwell(make_request())) for _ in range(5)]
    assert [r.failed for r in routes[:3]] == [True] * 3 and all(r.route == "local" for r in routes[:3])
    assert [r.route for r in routes[3:]] == ["offline", "offline"]
    assert "3 unusable answers in a row" in router.notices[0]


async def test_dwell_never_raises_even_when_offline_breaks(retry):
    class Broken:
        name = "offline"

        async def dwell(self, request):
            raise RuntimeError("boom")

    router = RouterDweller(offline=Broken(), local=OllamaDweller("http://127.0.0.1:9", retry=retry))
    r = await router.dwell(make_request())
    assert r.failed and r.route == "offline" and "boom" in r.connection


# ---- property: 1,000 random steps with random costs -------------------------------------------


class FakeChat:
    """A ChatModel behind the port: random real usage at most the estimate, random
    transient errors and random broken answers."""

    def __init__(self, route: str, rng: random.Random, prices: PriceTable, fail: float, broken: float):
        self.name = "fake-" + route
        self.route = route
        self.model = "claude-sonnet-4-6" if route == "cloud" else "llama3.2:3b"
        self.where = "memory"
        self.rng, self.prices, self.fail, self.broken = rng, prices, fail, broken
        self.calls = 0

    def estimate_cents(self, messages, *, system=None, max_tokens=800, model=None):
        if self.route != "cloud":
            return 0
        return self.prices.cents(
            model or self.model, estimate_tokens(system, *[m["content"] for m in messages]), max_tokens
        )

    async def complete(self, messages, *, system=None, max_tokens=800, json_mode=False, model=None, schema=None):
        self.calls += 1
        if self.rng.random() < self.fail:
            raise TransientModelError("fake 529", status=529)
        est_in = estimate_tokens(system, *[m["content"] for m in messages])
        inp, out = self.rng.randint(est_in // 3, est_in), self.rng.randint(1, max_tokens)
        text = "{'connection': 'cut" if self.rng.random() < self.broken else well_formed()
        cost = self.prices.cents(self.model, inp, out) if self.route == "cloud" else 0
        return Completion(text, self.model, inp, out, cost)


async def _simulate(seed: int, budget: int, price: Price, fail: float, broken: float, steps: int = 1000):
    rng = random.Random(seed)
    prices = PriceTable({"claude-sonnet-4-6": price})
    retry = RetryPolicy(retries=2, sleep=_no_sleep)
    cloud = ModelDweller(FakeChat("cloud", rng, prices, fail, broken), retry=retry)
    local = ModelDweller(FakeChat("local", rng, prices, 0.0, broken), retry=retry)
    router = RouterDweller(offline=StubOffline(), local=local, cloud=cloud, max_failed_outputs=10**6)
    session = make_session(budget=budget)
    wanted = affordable = 0
    for _ in range(steps):
        request = make_request(
            session, bridge=rng.random(), proximity=rng.random(), crystallization=rng.random() < 0.05
        )
        wants = router.rule.wants_cloud(request)
        fits = cloud.estimate_cents(request) <= session.cloud_budget_cents - session.cloud_spent_cents
        residue = await router.dwell(request)  # never raises
        wanted += wants
        affordable += wants and fits
        if residue.route == "cloud":
            assert wants and fits
            session.cloud_calls += 1
            session.cloud_spent_cents += residue.cost_cents
        elif residue.route == "local":
            session.local_calls += 1
        assert session.cloud_spent_cents <= session.cloud_budget_cents
    return session, wanted, affordable


async def _no_sleep(seconds: float) -> None:
    return None


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    budget=st.integers(0, 400),
    price_in=st.floats(0.1, 30),
    price_out=st.floats(0.5, 150),
    fail=st.sampled_from([0.0, 0.05, 0.3]),
    broken=st.sampled_from([0.0, 0.1, 0.4]),
)
def test_budget_is_never_exceeded_and_cloud_follows_the_rule(seed, budget, price_in, price_out, fail, broken):
    price = Price(Fraction(str(round(price_in, 3))), Fraction(str(round(price_out, 3))))
    session, wanted, affordable = asyncio.run(_simulate(seed, budget, price, fail, broken))
    assert session.cloud_spent_cents <= budget
    assert session.cloud_calls <= affordable <= wanted
    if fail == 0.0:  # nothing went down: every affordable cloud wish went to the cloud
        assert session.cloud_calls == affordable
    assert session.cloud_calls + session.local_calls <= 1000


def test_with_budget_to_spare_the_cloud_share_is_the_rules_share():
    price = Price(Fraction(3), Fraction(15))
    session, wanted, affordable = asyncio.run(_simulate(7, 10**6, price, 0.0, 0.0))
    share = session.cloud_calls / 1000
    print(f"\ncloud share {share:.3f}, rule share {wanted / 1000:.3f} (expected 1 - 0.7*0.8*0.95 = 0.468)")
    assert session.cloud_calls == wanted == affordable
    assert abs(share - (1 - 0.7 * 0.8 * 0.95)) < 0.05
