"""What the source clients share: an API answer that is not a success as a SourceError."""

from __future__ import annotations

import html
import re

from wander.adapters.sources.fetch import Response
from wander.core.sandwich.ports import SourceError

TAG = re.compile(r"<[^>]+>")


def plain(fragment: str) -> str:
    """HTML (a snippet, a question body) as plain text."""
    return " ".join(html.unescape(TAG.sub(" ", fragment or "")).split())


def require_ok(r: Response, source: str) -> None:
    if r.status >= 400:
        raise SourceError(f"{source}: {r.url} answered HTTP {r.status}")
