"""The API token is compared in constant time: every check goes through
hmac.compare_digest with the presented and the expected token, and a wrong token is refused
whether or not its length matches."""

from __future__ import annotations

import hmac

import pytest

from wander.faces.api import auth, security

TOKEN = "s3cret-token-0123456789"


class FakeConnection:
    def __init__(self, headers=None, query=None, cookies=None) -> None:
        self.headers = headers or {}
        self.query_params = query or {}
        self.cookies = cookies or {}
        self.scope = {"type": "http"}


@pytest.fixture
def spy(monkeypatch):
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def compare(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(security.hmac, "compare_digest", compare)
    monkeypatch.setattr(auth.hmac, "compare_digest", compare)
    return calls


@pytest.mark.parametrize(
    "conn",
    [
        FakeConnection(headers={"authorization": f"Bearer {TOKEN}"}),
        FakeConnection(query={"token": TOKEN}),
        FakeConnection(cookies={security.TOKEN_COOKIE: TOKEN}),
    ],
    ids=["bearer", "query", "cookie"],
)
def test_the_right_token_passes_through_compare_digest(spy, conn):
    assert security.token_ok(conn, TOKEN) is True
    assert spy == [(TOKEN.encode(), TOKEN.encode())]


@pytest.mark.parametrize(
    "wrong",
    [TOKEN[:-1] + "X", "short", TOKEN + "-and-more", ""],
    ids=["same length", "shorter", "longer", "empty"],
)
def test_a_wrong_token_is_refused_through_compare_digest(spy, wrong):
    assert len(TOKEN[:-1] + "X") == len(TOKEN)
    conn = FakeConnection(headers={"authorization": f"Bearer {wrong}"})
    assert security.token_ok(conn, TOKEN) is False
    assert spy == [(wrong.encode(), TOKEN.encode())]
    assert auth._matches(wrong, TOKEN) is False
    # the sign-in exchange compares the same way (an empty one is refused before comparing)
    assert spy[1:] == ([(wrong.encode(), TOKEN.encode())] if wrong else [])


def test_no_token_presented_is_refused(spy):
    assert security.token_ok(FakeConnection(), TOKEN) is False
    assert security.token_ok(FakeConnection(), None) is True  # loopback without a token: open
    assert spy == []


def test_the_guard_refuses_a_wrong_token(spy):
    from litestar.exceptions import NotAuthorizedException

    guard = security.make_token_guard(TOKEN)

    class Handler:
        opt: dict = {}

    with pytest.raises(NotAuthorizedException):
        guard(FakeConnection(headers={"authorization": "Bearer " + "x" * len(TOKEN)}), Handler())  # type: ignore[arg-type]
    guard(FakeConnection(headers={"authorization": f"Bearer {TOKEN}"}), Handler())  # type: ignore[arg-type]
    assert [a for a, _ in spy] == [b"x" * len(TOKEN), TOKEN.encode()]
