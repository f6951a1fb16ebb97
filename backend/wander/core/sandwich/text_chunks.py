"""Text cut into chunks, a chunk per heading section or paragraph: the one chunker of a
person's notes (the knowledge base's importer) and of what the forager reads (files, pages).
Pure text policy: reading the files and fetching the pages are the adapters' part."""

from __future__ import annotations

import dataclasses
import re

from wander.core.sandwich.model import Content

NOTE_SUFFIXES = {".md", ".markdown", ".txt", ".text"}
HEADING = re.compile(r"^(#{1,6})\s+(.*\S)\s*$")
MAX_CHUNK = 1500
MIN_CHUNK_CHARS = 80  # shorter paragraphs are merged into the next


def chunks(text: str) -> list[tuple[str | None, str]]:
    """(heading, body) per heading section; sections without headings split by paragraph."""
    sections: list[tuple[str | None, list[str]]] = [(None, [])]
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            sections.append((m.group(2).strip(), []))
        else:
            sections[-1][1].append(line)
    out: list[tuple[str | None, str]] = []
    for heading, lines in sections:
        body = "\n".join(lines).strip()
        if heading is None:
            for para in re.split(r"\n\s*\n", body):
                if para.strip():
                    out.append((None, para.strip()))
        elif body or heading:
            out.append((heading, body))
    return out


def to_contents(
    text: str, kind: str, ref: str, title: str, domain: str, links: tuple[str, ...] = (), content_type: str = "article"
) -> list[Content]:
    """The chunker over the text; short paragraphs merged into the next. The links (where
    wandering may go from this text) ride on its first chunk."""
    out: list[Content] = []
    pending = ""
    for heading, body in chunks(text):
        chunk = f"{heading}\n{body}".strip() if heading else body
        chunk = (pending + "\n" + chunk).strip() if pending else chunk
        if len(chunk) < MIN_CHUNK_CHARS:
            pending = chunk
            continue
        pending = ""
        out.append(Content(chunk[:MAX_CHUNK], kind, f"{ref}#{len(out)}", heading or title, domain, content_type))
    if pending:
        out.append(Content(pending, kind, f"{ref}#{len(out)}", title, domain, content_type))
    if out and links:
        out[0] = dataclasses.replace(out[0], links=links)
    return out
