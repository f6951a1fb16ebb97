"""The forager's sources, one file per source, each a client of the source's public protocol,
all through one Fetcher (fetch.py: the egress policy, robots.txt, per-host rate limits, size
cap, timeouts). router.py turns a source spec into contents."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from wander.adapters.sources.arxiv import Arxiv
from wander.adapters.sources.ckan import Ckan
from wander.adapters.sources.egress import EgressPolicy
from wander.adapters.sources.feeds import Feeds
from wander.adapters.sources.fetch import Fetcher, HostLimiter
from wander.adapters.sources.gutenberg import Gutenberg
from wander.adapters.sources.mediawiki import MediaWiki
from wander.adapters.sources.router import Source, SourceRouter
from wander.adapters.sources.stackexchange import StackExchange
from wander.adapters.sources.web import WebPage
from wander.adapters.sources.websearch import WebSearch

_FETCHERS: dict[tuple[Any, ...], Fetcher] = {}
_LOCK = threading.Lock()


def shared_fetcher(settings: Any, policy: EgressPolicy) -> Fetcher:
    """One Fetcher (and so one per-host rate limit and robots cache) per policy and limits in a
    process, shared by every run."""
    key = (
        policy,
        settings.timeout_s,
        settings.max_bytes,
        settings.user_agent,
        settings.host_interval_s,
        settings.max_retry_after_s,
    )
    with _LOCK:
        if key not in _FETCHERS:
            _FETCHERS[key] = Fetcher(
                policy,
                timeout_s=settings.timeout_s,
                max_bytes=settings.max_bytes,
                user_agent=settings.user_agent,
                limiter=HostLimiter(settings.host_interval_s),
                max_retry_after_s=settings.max_retry_after_s,
            )
        return _FETCHERS[key]


def build_router(
    settings: Any, fetcher: Fetcher, rng: np.random.Generator, random_word: Callable[[], str]
) -> SourceRouter:
    """settings: config.ForageSettings. random_word: a word for `search:` (the corpus's)."""
    web = WebPage(fetcher)
    feeds = Feeds(fetcher, settings.feeds, rng)
    sources: dict[str, Source] = {
        "wikipedia": MediaWiki(fetcher, settings.mediawiki_url),
        "arxiv": Arxiv(fetcher, settings.arxiv_url, rng),
        "feeds": feeds,
        "feed": feeds,
        "stackexchange": StackExchange(
            fetcher, settings.stackexchange_url, settings.stackexchange_site, settings.stackexchange_key
        ),
        "gutenberg": Gutenberg(fetcher, settings.gutenberg_url, rng),
        "ckan": Ckan(fetcher, settings.ckan_url, rng),
        "search": WebSearch(fetcher, settings.searx_url, random_word),
    }
    return SourceRouter(web, sources)
