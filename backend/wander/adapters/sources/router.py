"""The forager's SourceReader: a source spec to contents.

    https://...          a web page (web.py)
    NAME:QUERY           an online source searched for QUERY (wikipedia:entropy, arxiv:bounds)
    NAME:                the source's own pick (a random article, recent papers, hot questions)
    wikipedia:page:T     one Wikipedia page by title (what wandering follows)
    feed:URL             one RSS/Atom feed
    anything else        a local file or folder (sources.files)

Sources are one file each in this folder; they are synchronous and the forager runs them in
a worker thread."""

from __future__ import annotations

import re
from typing import Protocol

from wander.adapters.sources.files import FileReader
from wander.adapters.sources.web import WebPage
from wander.core.sandwich.model import Content
from wander.core.sandwich.ports import SourceError

URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
SPEC = re.compile(r"^([a-z]+):(?!//)(.*)$", re.IGNORECASE | re.DOTALL)


class Source(Protocol):
    name: str

    def read(self, query: str) -> list[Content]:
        """Contents for `query` ('' for the source's own pick); SourceError when it cannot."""
        ...


class SourceRouter:
    def __init__(self, web: WebPage, sources: dict[str, Source], files: FileReader | None = None):
        self.web = web
        self.sources = sources
        self.files = files or FileReader()

    def read(self, target: str) -> list[Content]:
        target = target.strip()
        if not target:
            raise SourceError("from: must not be empty")
        if URL.match(target):
            return self.web.read(target)
        spec = SPEC.match(target)
        if spec and len(spec.group(1)) > 1:  # one letter: a Windows drive
            name, query = spec.group(1).lower(), spec.group(2).strip()
            source = self.sources.get(name)
            if source is None:
                known = ", ".join(sorted(self.sources))
                raise SourceError(f"from: no source named '{name}' (known: {known}; or a URL, or a path)")
            return source.read(query)
        return self.files.read(target)
