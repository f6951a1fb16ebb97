"""A person's own notes as knowledge: Markdown and text files, a chunk per heading or
paragraph, domains from the folder names and #tags."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from wander.core.domain.errors import InvalidInput
from wander.core.sandwich import text_chunks
from wander.core.sandwich.text_chunks import MAX_CHUNK, NOTE_SUFFIXES

SUFFIXES = NOTE_SUFFIXES
TAG = re.compile(r"(?<![\w#])#([A-Za-z][\w-]{1,40})")


@dataclass(frozen=True)
class NoteChunk:
    key: str
    label: str
    text: str
    domains: tuple[str, ...]
    file: str


def _domain(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", name.lower()).strip()


def note_files(path: Path) -> list[Path]:
    if not path.exists():
        raise InvalidInput("path", f"'{path}' does not exist")
    if path.is_file():
        if path.suffix.lower() not in SUFFIXES:
            raise InvalidInput("path", f"'{path}' is not a Markdown or text file ({', '.join(sorted(SUFFIXES))})")
        return [path]
    # only what lies inside the folder the person named: a symbolic link (to a file or a
    # folder) that leads outside it is not followed
    root = path.resolve()
    files = sorted(
        p
        for p in path.rglob("*")
        if p.is_file()
        and p.suffix.lower() in SUFFIXES
        and not any(part.startswith(".") for part in p.relative_to(path).parts)
        and p.resolve().is_relative_to(root)
    )
    if not files:
        raise InvalidInput("path", f"'{path}' holds no Markdown or text files")
    return files


def read_notes(root: Path) -> list[NoteChunk]:
    root = root.expanduser().resolve()
    base = root if root.is_dir() else root.parent
    chunks: list[NoteChunk] = []
    for file in note_files(root):
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidInput("path", f"cannot read '{file}': {exc}") from exc
        rel = file.relative_to(base)
        folders = [_domain(p) for p in rel.parts[:-1] if _domain(p)]
        for n, (heading, body) in enumerate(text_chunks.chunks(text)):
            full = f"{heading}\n{body}".strip() if heading else body
            full = full[:MAX_CHUNK]
            tags = [_domain(t) for t in TAG.findall(full)]
            domains = tuple(dict.fromkeys(folders + tags)) or ("notes",)
            label = heading or " ".join(TAG.sub("", body).split()[:8])
            digest = hashlib.sha1(full.encode()).hexdigest()[:8]
            chunks.append(
                NoteChunk(
                    key=f"note:{rel.as_posix()}#{n}:{digest}",
                    label=label[:120],
                    text=full,
                    domains=domains,
                    file=rel.as_posix(),
                )
            )
    return chunks


def fingerprint(chunks: list[NoteChunk]) -> str:
    h = hashlib.sha256()
    for c in chunks:
        h.update(c.key.encode())
    return h.hexdigest()
