"""The egress policy and the fetcher: internal addresses refused (every address of a name, at
every redirect), robots.txt, the per-host rate limit, 429 with Retry-After, the size cap,
timeouts, and a fast clear failure without network."""

from __future__ import annotations

import socket
import time

import pytest

from tests.unit.forage.protocol_server import as_text, serve, silent_server
from wander.adapters.sources.egress import EgressPolicy, Refused, Unreachable
from wander.adapters.sources.fetch import Fetcher, HostLimiter, RateLimited
from wander.bootstrap.settings import load_settings
from wander.core.sandwich.ports import SourceError


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("127.8.9.10", "loopback"),
        ("::1", "loopback"),
        ("::ffff:127.0.0.1", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("192.168.1.1", "private"),
        ("fd00::1", "private"),
        ("169.254.169.254", "link-local"),
        ("fe80::1", "link-local"),
        ("0.0.0.0", "private"),
        ("100.64.0.1", "non-global"),
        ("224.0.0.1", "multicast"),
    ],
)
def test_internal_addresses_are_refused_by_default(address, kind):
    with pytest.raises(Refused, match=f"a {kind} address"):
        EgressPolicy().resolve(address, 80)


def test_a_public_address_passes_and_an_allowed_network_opens_only_itself():
    assert EgressPolicy().resolve("93.184.216.34", 443) == ["93.184.216.34"]
    allowed = EgressPolicy.from_settings(["127.0.0.1/32", "10.9.0.0/16"])
    assert allowed.resolve("127.0.0.1", 80) == ["127.0.0.1"]
    assert allowed.resolve("10.9.3.4", 80) == ["10.9.3.4"]
    for other in ("127.0.0.2", "10.8.0.1", "169.254.169.254"):
        with pytest.raises(Refused):
            allowed.resolve(other, 80)


def test_a_server_bound_beyond_loopback_ignores_what_is_allowed():
    policy = EgressPolicy.from_settings(["127.0.0.0/8", "10.0.0.0/8"], beyond_loopback=True)
    with pytest.raises(Refused):
        policy.resolve("127.0.0.1", 80)
    with pytest.raises(Refused):
        policy.resolve("10.0.0.1", 80)


def test_every_address_of_a_name_is_checked():
    """A name with one public and one internal address is refused whole."""
    names = {"mixed.example": ["93.184.216.34", "10.0.0.7"], "public.example": ["93.184.216.34"]}
    policy = EgressPolicy(resolver=lambda host, port: names[host])
    assert policy.resolve("public.example", 80) == ["93.184.216.34"]
    with pytest.raises(Refused, match="mixed.example resolves to 10.0.0.7, a private address"):
        policy.resolve("mixed.example", 80)


def test_the_fetcher_connects_to_the_address_it_checked(fetcher):
    """A name is resolved once, checked and connected to by address (no second lookup that
    could answer otherwise); the request still carries the name as its Host."""
    calls: list[str] = []

    def resolver(host: str, port: int) -> list[str]:
        calls.append(host)
        return ["127.0.0.1"]

    with serve({"/page": lambda s: as_text(s.headers["host"])}) as srv:
        f = Fetcher(
            EgressPolicy.from_settings(["127.0.0.1/32"], resolver=resolver), limiter=HostLimiter(0.0), timeout_s=3
        )
        r = f.get(f"http://notes.example:{srv.port}/page")
        f.close()
    assert calls == ["notes.example"] and r.text() == f"notes.example:{srv.port}"


def test_a_redirect_to_an_internal_address_is_refused():
    """Only the first host is public; its redirect to a loopback address is checked again."""
    with serve({}) as internal:
        names = {"public.example": ["127.0.0.1"]}
        policy = EgressPolicy.from_settings(["127.0.0.1/32"], resolver=lambda h, p: names[h])
        # public.example is allowed here only through the allowed network; the redirect target
        # is a literal loopback address that this policy, built without it, refuses.
        with serve({"/go": lambda s: (302, {"Location": internal.url("/secret")}, b"")}) as redirector:
            strict = EgressPolicy(resolver=lambda h, p: names[h])
            f = Fetcher(policy, limiter=HostLimiter(0.0), timeout_s=3)
            assert f.get(redirector.url("/go")).status == 404  # allowed: followed to the internal 404
            f.close()
            g = Fetcher(strict, limiter=HostLimiter(0.0), timeout_s=3)
            with pytest.raises(Refused, match="loopback"):
                g.get(redirector.url("/go"))
            g.close()
    assert internal.paths() == ["/secret"]  # the strict fetcher never reached it


def test_robots_txt_is_obeyed_for_pages(fetcher):
    robots = "User-agent: *\nDisallow: /private/\n\nUser-agent: wander-forager\nDisallow: /no-wander/\n"
    routes = {
        "/robots.txt": lambda s: as_text(robots),
        "/private/page": lambda s: as_text("secret"),
        "/no-wander/page": lambda s: as_text("secret"),
        "/open/page": lambda s: as_text("open"),
    }
    with serve(routes) as srv:
        assert fetcher.get(srv.url("/open/page"), robots=True).text() == "open"
        with pytest.raises(SourceError, match="robots.txt"):
            fetcher.get(srv.url("/no-wander/page"), robots=True)
        # the group naming the forager replaces the `*` group, as robots.txt's rules say
        assert fetcher.get(srv.url("/private/page"), robots=True).text() == "secret"
        assert fetcher.get(srv.url("/no-wander/page"), robots=False).text() == "secret"  # an API call
    assert srv.paths().count("/robots.txt") == 1  # cached per origin
    assert srv.paths().count("/no-wander/page") == 1
    with serve({"/robots.txt": lambda s: as_text("User-agent: *\nDisallow: /\n")}) as srv:
        with pytest.raises(SourceError, match="robots.txt"):
            fetcher.get(srv.url("/anything"), robots=True)
    assert srv.paths() == ["/robots.txt"]


def test_robots_txt_that_errs_keeps_the_forager_out(fetcher):
    with serve({"/robots.txt": lambda s: as_text("down", status=503), "/p": lambda s: as_text("x")}) as srv:
        with pytest.raises(SourceError, match="robots.txt"):
            fetcher.get(srv.url("/p"), robots=True)
    with serve({"/p": lambda s: as_text("x")}) as srv:  # no robots.txt (404): everything allowed
        assert fetcher.get(srv.url("/p"), robots=True).text() == "x"


def test_the_per_host_rate_limit_spaces_requests():
    now = [100.0]
    slept: list[float] = []

    def sleep(s: float) -> None:
        slept.append(round(s, 3))
        now[0] += s

    limiter = HostLimiter(2.0, clock=lambda: now[0], sleep=sleep)
    assert limiter.wait("a.example") == 0
    assert limiter.wait("b.example") == 0  # another host: no wait
    now[0] += 0.5
    limiter.wait("a.example")
    limiter.wait("a.example")
    assert slept == [1.5, 2.0]
    limiter.hold("b.example", 10.0)
    limiter.wait("b.example")
    assert slept[-1] == 10.0


def test_a_429_is_waited_out_then_a_long_one_is_a_clear_error():
    answers = iter([(429, {"Retry-After": "1"}, b""), (200, {"Content-Type": "text/plain"}, b"fine")])
    slept: list[float] = []
    limiter = HostLimiter(0.0, sleep=slept.append)
    with serve({"/api": lambda s: next(answers)}) as srv:
        f = Fetcher(EgressPolicy.from_settings(["127.0.0.1/32"]), limiter=limiter, max_retry_after_s=5)
        assert f.get(srv.url("/api")).text() == "fine"
        assert slept and 0.5 <= slept[0] <= 1.0
        srv.routes["/api"] = lambda s: (429, {"Retry-After": "3600"}, b"")
        with pytest.raises(RateLimited, match="asks to wait 3600 s"):
            f.get(srv.url("/api"))
        f.close()


def test_the_size_cap_stops_a_large_answer(fetcher):
    big = "x" * 300_000
    with serve({"/big": lambda s: as_text(big)}) as srv:
        with pytest.raises(SourceError, match="cap of 200000"):
            fetcher.get(srv.url("/big"))


def test_a_source_that_never_answers_times_out_with_a_clear_error():
    with silent_server() as (port, _):
        f = Fetcher(EgressPolicy.from_settings(["127.0.0.1/32"]), timeout_s=0.5, limiter=HostLimiter(0.0))
        with pytest.raises(Unreachable, match="no answer from .* within 0.5 s"):
            f.get(f"http://127.0.0.1:{port}/hang")
        f.close()


def test_without_network_a_source_fails_fast_and_says_why(fetcher):
    """An unresolvable name (what every public host is without network) and a closed port."""
    started = time.monotonic()
    with pytest.raises(Unreachable, match="cannot resolve .*is the machine online"):
        fetcher.get("https://en.wikipedia.invalid/w/api.php")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    with pytest.raises(Unreachable, match="cannot reach"):
        fetcher.get(f"http://127.0.0.1:{closed}/")
    assert time.monotonic() - started < fetcher.timeout_s  # neither waited for a timeout


def test_only_http_is_foraged(fetcher):
    with pytest.raises(SourceError, match="only http"):
        fetcher.get("file:///etc/passwd")


def test_the_settings_name_the_egress_variables():
    s = load_settings(
        {"WANDER_FORAGE_ALLOW_NETWORKS": "127.0.0.1/32, 10.0.0.0/8", "WANDER_FORAGE_SOURCES": "corpus,arxiv"}
    )
    assert s.forage.allow_networks == ("127.0.0.1/32", "10.0.0.0/8") and s.forage.sources == ("corpus", "arxiv")
    from wander.core.domain.errors import InvalidInput

    with pytest.raises(InvalidInput, match="WANDER_FORAGE_ALLOW_NETWORKS"):
        load_settings({"WANDER_FORAGE_ALLOW_NETWORKS": "not-a-network"})
    with pytest.raises(InvalidInput, match="WANDER_FORAGE_SOURCES"):
        load_settings({"WANDER_FORAGE_SOURCES": "corpus,myspace"})
