"""The forager's section: where it looks, and how politely."""

from __future__ import annotations

import ipaddress
from typing import Any

from pydantic import field_validator

from wander.bootstrap.settings.fields import Section
from wander.bootstrap.settings.fields import csv as _csv
from wander.bootstrap.settings.fields import var as _var

FORAGE_SOURCES = ("corpus", "wikipedia", "arxiv", "feeds", "stackexchange", "gutenberg", "ckan", "search")


class ForageSettings(Section):
    sources: tuple[str, ...] = _var(
        "WANDER_FORAGE_SOURCES",
        ("corpus",),
        "where the autonomous forager looks (comma-separated): `corpus` (the concept corpus and imported notes, "
        "offline), `wikipedia`, `arxiv`, `feeds`, `stackexchange`, `gutenberg`, `ckan`, `search`; directed "
        "foraging names its source (`wikipedia:entropy`, `arxiv:`, `feed:URL`, a URL, a path)",
        shown="`corpus`",
    )
    allow_networks: tuple[str, ...] = _var(
        "WANDER_FORAGE_ALLOW_NETWORKS",
        (),
        "private, loopback or link-local networks (comma-separated, e.g. `10.1.0.0/16,127.0.0.1/32`) that "
        "foraged URLs may reach; every other such address is refused, after resolving the name and at "
        "every redirect. A server bound beyond loopback ignores it and never reaches them",
        shown="unset: none",
    )
    timeout_s: float = _var(
        "WANDER_FORAGE_TIMEOUT_S", 10.0, "seconds a foraged source may take to connect, and to send each part", gt=0
    )
    max_bytes: int = _var(
        "WANDER_FORAGE_MAX_BYTES", 5_000_000, "largest response in bytes a source may send (larger: refused)", ge=1024
    )
    host_interval_s: float = _var(
        "WANDER_FORAGE_HOST_INTERVAL_S",
        1.0,
        "least seconds between two requests to one host (a 429's Retry-After or an API's backoff waits longer)",
        ge=0,
    )
    max_retry_after_s: float = _var(
        "WANDER_FORAGE_MAX_RETRY_AFTER_S",
        30.0,
        "longest Retry-After or backoff the forager waits out; a longer one is a source error",
        ge=0,
    )
    user_agent: str = _var(
        "WANDER_FORAGE_USER_AGENT",
        "wander-forager/0.1 (SANDWICH forager of Wander)",
        "the User-Agent of every foraging request and the name robots.txt is read for",
    )
    mediawiki_url: str = _var(
        "WANDER_MEDIAWIKI_URL", "https://en.wikipedia.org/w/api.php", "the MediaWiki API of the `wikipedia` source"
    )
    arxiv_url: str = _var("WANDER_ARXIV_URL", "https://export.arxiv.org/api/query", "the arXiv API (Atom)")
    feeds: tuple[str, ...] = _var(
        "WANDER_FEEDS", (), "RSS/Atom feed URLs (comma-separated) of the `feeds` source", shown="unset: none"
    )
    stackexchange_url: str = _var(
        "WANDER_STACKEXCHANGE_URL", "https://api.stackexchange.com/2.3", "the Stack Exchange API"
    )
    stackexchange_site: str = _var("WANDER_STACKEXCHANGE_SITE", "stackoverflow", "the Stack Exchange site foraged")
    stackexchange_key: str | None = _var(
        "WANDER_STACKEXCHANGE_KEY", None, "a Stack Exchange app key (a larger daily quota)", shown="unset"
    )
    gutenberg_url: str = _var(
        "WANDER_GUTENBERG_URL", "https://gutendex.com/books", "the Project Gutenberg catalogue (Gutendex JSON API)"
    )
    ckan_url: str = _var(
        "WANDER_CKAN_URL", "https://catalog.data.gov/api/3/action", "the CKAN catalogue API (open government data)"
    )
    searx_url: str | None = _var(
        "WANDER_SEARX_URL",
        None,
        "a SearxNG instance's search URL (`https://host/search`, JSON format on) for the `search` source "
        "(random word -> search)",
        shown="unset: `search` off",
    )
    wander_depth: int = _var(
        "WANDER_FORAGE_DEPTH", 1, "wandering mode: how many links deep the forager follows from a page", ge=0, le=5
    )
    wander_pages: int = _var(
        "WANDER_FORAGE_PAGES", 8, "wandering mode: pages one foraged source may lead to, in all", ge=1, le=200
    )
    voice: bool = _var(
        "WANDER_REUBEN",
        True,
        "Reuben's voice in the foraging log, the sandwiches' commentary and the farewell: lines chosen by what "
        "happened, never repeated within a run (`0`: plain statements)",
        shown="`1`",
    )

    @field_validator("sources", "allow_networks", "feeds", mode="before")
    @classmethod
    def _split(cls, v: Any) -> Any:
        return _csv(v)

    @field_validator("sources")
    @classmethod
    def _known(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        bad = [s for s in v if s not in FORAGE_SOURCES]
        if bad or not v:
            raise ValueError(f"must name sources among {', '.join(FORAGE_SOURCES)}")
        return v

    @field_validator("allow_networks")
    @classmethod
    def _networks(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for n in v:
            ipaddress.ip_network(n, strict=False)  # ValueError names the bad one
        return v
