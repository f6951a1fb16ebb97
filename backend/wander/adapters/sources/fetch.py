"""The foragers' one way out: an HTTP GET under the egress policy (egress.py), a per-host rate
limit, robots.txt for page fetches, a size cap and timeouts.

Every hop (the first request and each redirect) resolves its host through the policy and
connects to an address it returned, the request carrying the real Host header and TLS name.
A 429 (or a 503 with Retry-After) is waited out when it asks for at most max_retry_after_s,
up to `retries` times; an API's own backoff (Stack Exchange's `backoff`) is held the same way.
It is synchronous on purpose: the forager runs it in a worker thread, never on the event loop."""

from __future__ import annotations

import email.utils
import json
import ssl
import threading
import time
import urllib.robotparser
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from wander.adapters.sources.egress import EgressPolicy, Refused, Unreachable
from wander.core.sandwich.ports import SourceError

MAX_REDIRECTS = 5
ROBOTS_TTL_S = 3600.0
STAY_OUT = ["User-agent: *", "Disallow: /"]


class RateLimited(SourceError):
    """The source asked the forager to wait longer than it will (429 / backoff)."""


@dataclass
class Response:
    url: str
    status: int
    headers: httpx.Headers
    body: bytes

    def text(self) -> str:
        ctype = self.headers.get("content-type", "")
        charset = "utf-8"
        if "charset=" in ctype:
            charset = ctype.split("charset=")[1].split(";")[0].strip().strip('"') or "utf-8"
        try:
            return self.body.decode(charset, errors="replace")
        except LookupError:
            return self.body.decode("utf-8", errors="replace")

    def json(self, source: str) -> Any:
        try:
            return json.loads(self.body)
        except ValueError as exc:
            raise SourceError(f"{source}: {self.url} answered HTTP {self.status} with no JSON") from exc

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()


@dataclass
class HostLimiter:
    """At least `interval` seconds between two requests to one host, and any hold a source
    asked for (Retry-After, backoff). Thread-safe; clock and sleep can be a test's."""

    interval: float = 1.0
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    _next: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def wait(self, host: str) -> float:
        """Blocks until `host` may be asked again and books the next slot; the seconds waited."""
        with self._lock:
            now = self.clock()
            at = max(now, self._next.get(host, now))
            self._next[host] = at + self.interval
        if at > now:
            self.sleep(at - now)
        return at - now

    def hold(self, host: str, seconds: float) -> None:
        with self._lock:
            self._next[host] = max(self._next.get(host, 0.0), self.clock() + seconds)


def retry_after(headers: httpx.Headers) -> float | None:
    raw = headers.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    if raw.isdigit():
        return float(raw)
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class Fetcher:
    def __init__(
        self,
        policy: EgressPolicy,
        *,
        timeout_s: float = 10.0,
        max_bytes: int = 5_000_000,
        user_agent: str = "wander-forager/0.1",
        limiter: HostLimiter | None = None,
        max_retry_after_s: float = 30.0,
        retries: int = 2,
        verify: ssl.SSLContext | bool = True,
    ):
        """verify: the TLS trust (True: the system's certificate authorities)."""
        self.policy = policy
        self.timeout_s = timeout_s
        self.max_bytes = max_bytes
        self.user_agent = user_agent
        self.limiter = limiter or HostLimiter()
        self.max_retry_after_s = max_retry_after_s
        self.retries = retries
        self._robots: dict[str, tuple[float, urllib.robotparser.RobotFileParser]] = {}
        self._robots_lock = threading.Lock()
        self.client = httpx.Client(
            trust_env=False,  # a proxy from the environment would connect where the policy did not look
            follow_redirects=False,
            timeout=httpx.Timeout(timeout_s),
            headers={"User-Agent": user_agent},
            verify=verify,
        )

    def close(self) -> None:
        self.client.close()

    # ---- robots.txt ---------------------------------------------------------------------------

    def allowed_by_robots(self, url: str) -> bool:
        u = httpx.URL(url)
        origin = f"{u.scheme}://{u.netloc.decode('ascii')}"
        with self._robots_lock:
            cached = self._robots.get(origin)
        if cached is None or cached[0] < time.monotonic():
            parser = urllib.robotparser.RobotFileParser()
            try:
                r = self.get(f"{origin}/robots.txt", robots=False)
            except (Unreachable, Refused):
                raise
            except SourceError:
                parser.parse(STAY_OUT)  # robots.txt that cannot be read: stay out
            else:
                if r.status in (401, 403) or r.status >= 500:
                    parser.parse(STAY_OUT)
                elif r.status >= 400:
                    parser.parse([])  # no robots.txt: everything allowed
                else:
                    parser.parse(r.text().splitlines())
            cached = (time.monotonic() + ROBOTS_TTL_S, parser)
            with self._robots_lock:
                self._robots[origin] = cached
        return cached[1].can_fetch(self.user_agent, url)

    # ---- one GET --------------------------------------------------------------------------------

    def get(
        self,
        url: str,
        params: Mapping[str, Any] | None = None,
        *,
        robots: bool = False,
        accept: str | None = None,
    ) -> Response:
        """The response to GET url (any status but a 429 waited out); SourceError when the
        policy refuses, robots.txt disallows, the answer is too large or too slow, or nothing
        answers."""
        u = httpx.URL(url, params=params) if params else httpx.URL(url)
        if robots and not self.allowed_by_robots(str(u)):
            raise SourceError(f"robots.txt of {u.host} disallows {u.path} for {self.user_agent.split()[0]}")
        for _ in range(MAX_REDIRECTS + 1):
            r = self._hop(u, accept)
            location = r.headers.get("location")
            if r.status in (301, 302, 303, 307, 308) and location:
                u = u.join(location)
                if robots and not self.allowed_by_robots(str(u)):
                    raise SourceError(f"robots.txt of {u.host} disallows {u.path}")
                continue
            return r
        raise SourceError(f"{url}: more than {MAX_REDIRECTS} redirects")

    def _hop(self, u: httpx.URL, accept: str | None) -> Response:
        if u.scheme not in ("http", "https"):
            raise SourceError(f"only http(s) can be foraged (got '{u.scheme}:' in {u})")
        host = u.raw_host.decode("ascii")
        port = u.port or (443 if u.scheme == "https" else 80)
        for attempt in range(self.retries + 1):
            address = self.policy.resolve(host, port)[0]  # every address checked
            self.limiter.wait(host)
            pinned = u.copy_with(host=address, userinfo=b"")
            headers = {"Host": u.netloc.decode("ascii").rpartition("@")[2]}
            if accept:
                headers["Accept"] = accept
            extensions = {"sni_hostname": host} if u.scheme == "https" else {}
            r = self._send(pinned, headers, extensions, str(u))
            if r.status in (429, 503):
                wait = retry_after(r.headers)
                if r.status == 503 and wait is None:
                    return r
                wait = 2.0**attempt if wait is None else wait
                if wait > self.max_retry_after_s or attempt == self.retries:
                    raise RateLimited(
                        f"{host} answered HTTP {r.status} (rate limited) and asks to wait {wait:.0f} s; "
                        "the forager will try later"
                    )
                self.limiter.hold(host, wait)
                continue
            return r
        raise AssertionError("unreachable")

    def _send(self, pinned: httpx.URL, headers: dict[str, str], extensions: dict[str, Any], shown: str) -> Response:
        deadline = time.monotonic() + 3 * self.timeout_s
        try:
            with self.client.stream("GET", pinned, headers=headers, extensions=extensions) as resp:
                declared = resp.headers.get("content-length")
                if declared and declared.isdigit() and int(declared) > self.max_bytes:
                    raise SourceError(f"{shown} is {int(declared)} bytes, more than the cap of {self.max_bytes}")
                chunks: list[bytes] = []
                size = 0
                for chunk in resp.iter_bytes():
                    size += len(chunk)
                    if size > self.max_bytes:
                        raise SourceError(f"{shown} sends more than the cap of {self.max_bytes} bytes")
                    if time.monotonic() > deadline:
                        raise Unreachable(f"{shown} took more than {3 * self.timeout_s:.0f} s to send its answer")
                    chunks.append(chunk)
                return Response(shown, resp.status_code, resp.headers, b"".join(chunks))
        except httpx.TimeoutException as exc:
            raise Unreachable(f"no answer from {shown} within {self.timeout_s:g} s") from exc
        except httpx.HTTPError as exc:
            raise Unreachable(f"cannot reach {shown} ({exc}); is the machine online?") from exc
