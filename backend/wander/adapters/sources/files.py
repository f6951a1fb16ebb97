"""The forager's local files: Markdown/text/HTML/PDF files or folders (URLs and the online
sources go through wander.adapters.sources, under the egress policy).

Text is split by core.sandwich.text_chunks (a chunk per heading or paragraph); HTML is reduced to
its text first (headings kept as Markdown headings so the chunker sees them, links kept for
wandering), PDF through pypdf (a dependency)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from wander.core.sandwich.model import Content
from wander.core.sandwich.ports import SourceError
from wander.core.sandwich.text_chunks import NOTE_SUFFIXES, to_contents

SUFFIXES = {*NOTE_SUFFIXES, ".html", ".htm", ".pdf"}


class _Text(HTMLParser):
    SKIP = frozenset({"script", "style", "nav", "footer", "header", "noscript", "svg"})
    BLOCK = frozenset({"p", "div", "li", "br", "tr", "section", "article", "blockquote", "pre"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0
        self.title = ""
        self._in_title = False
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href and not self.skip:
                self.links.append(href)
        if tag in self.SKIP:
            self.skip += 1
        elif tag == "title":
            self._in_title = True
        elif re.fullmatch(r"h[1-6]", tag):
            self.out.append("\n\n" + "#" * int(tag[1]) + " ")
        elif tag in self.BLOCK:
            self.out.append("\n\n")

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.skip:
            self.skip -= 1
        elif tag == "title":
            self._in_title = False
        elif re.fullmatch(r"h[1-6]", tag):
            self.out.append("\n\n")

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        elif not self.skip:
            self.out.append(data)


def html_text(html: str) -> tuple[str, str]:
    title, text, _ = html_page(html)
    return title, text


def html_page(html: str) -> tuple[str, str, list[str]]:
    """(title, text with Markdown headings, the hrefs of its links in order)."""
    p = _Text()
    p.feed(html)
    text = re.sub(r"[ \t\r\f\v]+", " ", "".join(p.out))
    text = "\n".join(line.strip() for line in text.splitlines())
    return " ".join(p.title.split()), re.sub(r"\n{3,}", "\n\n", text).strip(), p.links


def pdf_text(path: Path) -> str:
    try:
        from pypdf import PdfReader
    except ImportError as exc:
        raise SourceError(f"from: reading PDF needs the pypdf package ({path})") from exc
    try:
        return "\n\n".join(page.extract_text() or "" for page in PdfReader(str(path)).pages)
    except Exception as exc:  # pypdf raises many kinds on a damaged file
        raise SourceError(f"from: cannot read PDF '{path}': {exc}") from exc


class FileReader:
    """Local files and folders (URLs and the online sources: wander.adapters.sources.router)."""

    def read(self, target: str) -> list[Content]:
        target = target.strip()
        if not target:
            raise SourceError("from: must not be empty")
        return self.read_path(Path(target).expanduser())

    def read_path(self, path: Path) -> list[Content]:
        if not path.exists():
            raise SourceError(f"from: '{path}' does not exist")
        if path.is_file():
            files = [path]
        else:
            files = sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and p.suffix.lower() in SUFFIXES
                and not any(x.startswith(".") for x in p.relative_to(path).parts)
            )
        files = [f for f in files if f.suffix.lower() in SUFFIXES]
        if not files:
            raise SourceError(f"from: '{path}' holds no Markdown, text, HTML or PDF files")
        out: list[Content] = []
        for f in files:
            suffix = f.suffix.lower()
            domain = f.parent.name.lower() or "notes"
            if suffix == ".pdf":
                text, title = pdf_text(f), f.stem
            else:
                try:
                    raw = f.read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError) as exc:
                    raise SourceError(f"from: cannot read '{f}': {exc}") from exc
                title, text = html_text(raw) if suffix in (".html", ".htm") else ("", raw)
                title = title or f.stem
            out += to_contents(text, "file", str(f), title, domain)
        if not out:
            raise SourceError(f"from: '{path}' has no text")
        return out
