"""Open government data through a CKAN catalogue's Action API (Data.gov's by default):
`ckan:QUERY` is package_search; `ckan:` a random dataset (a count, then one row at a random
`start`). Every answer is {"help", "success", "result"|"error"}; an error ("success": false,
HTTP 400/404/409) names its __type and message."""

from __future__ import annotations

from typing import Any

import numpy as np

from wander.adapters.sources.common import plain
from wander.adapters.sources.fetch import Fetcher
from wander.core.sandwich.model import Content
from wander.core.sandwich.ports import SourceError

ROWS = 4


class Ckan:
    name = "ckan"

    def __init__(self, fetcher: Fetcher, action_url: str, rng: np.random.Generator):
        self.fetcher = fetcher
        self.api = action_url.rstrip("/")
        self.rng = rng

    def action(self, name: str, **params: Any) -> dict[str, Any]:
        r = self.fetcher.get(f"{self.api}/{name}", {k: str(v) for k, v in params.items()})
        doc = r.json("ckan")
        if not isinstance(doc, dict) or not doc.get("success"):
            error = (doc.get("error") if isinstance(doc, dict) else None) or {}
            detail = error.get("message") or "; ".join(
                f"{k}: {v}" for k, v in error.items() if k not in ("__type", "message")
            )
            raise SourceError(f"ckan: {name} failed (HTTP {r.status}): {error.get('__type', 'error')}: {detail}")
        return doc["result"]

    def read(self, query: str) -> list[Content]:
        if query:
            result = self.action("package_search", q=query, rows=ROWS, start=0)
        else:
            count = int(self.action("package_search", rows=0)["count"])
            if count == 0:
                raise SourceError("ckan: the catalogue is empty")
            result = self.action("package_search", rows=1, start=int(self.rng.integers(count)))
        out = []
        for d in result.get("results", []):
            title = " ".join(str(d.get("title") or d.get("name") or "").split())
            notes = plain(d.get("notes") or "")
            resources = "; ".join(
                plain(f"{x.get('name') or ''}: {x.get('description') or ''}").strip(": ")
                for x in d.get("resources", [])[:6]
            )
            tags = ", ".join(t.get("name", "") for t in d.get("tags", [])[:12])
            text = "\n\n".join(x for x in (title, notes, resources, f"Tags: {tags}" if tags else "") if x)
            if len(text) < 40:
                continue
            org = (d.get("organization") or {}).get("title") or "government data"
            ref = f"{self.api}/package_show?id={d.get('name') or d.get('id')}"
            out.append(Content(text[:4000], "ckan", ref, title, str(org)[:255], "dataset"))
        if not out:
            raise SourceError(f"ckan: no dataset for '{query or 'random'}' (count {result.get('count', 0)})")
        return out
