"""The `wander` command for tests: `wander` runs it in this process (typer's CliRunner) and
answers as a finished process would (stdout, stderr, return code); `wander_process` starts
the real command. A real start costs 5-7 s of CPU (the interpreter, torch, the model) that
an in-process run pays once per pytest worker, so tests start the real process only where
the process itself is what they test (the entry point, a kill midway, exit codes).

In process, what a real process would write to its stderr lands in `stderr` too: log records
at the configured level, the warnings Python shows by default, and the traceback of an error
the command lets escape (return code 1, as Python's own)."""

from __future__ import annotations

import gc
import logging
import os
import subprocess
import sys
import traceback
import warnings
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor

from typer.testing import CliRunner

WANDER = [sys.executable, "-m", "wander.faces.cli"]

# A fresh interpreter's warning filters (the `warnings` module's documentation), last first.
_DEFAULT_FILTERS = (ResourceWarning, ImportWarning, PendingDeprecationWarning, DeprecationWarning)


def wander_process(args: Sequence[str], env: Mapping[str, str], timeout: float = 300) -> subprocess.CompletedProcess:
    """The real command in a subprocess."""
    return subprocess.run([*WANDER, *args], env=dict(env), capture_output=True, text=True, timeout=timeout)


def wander(args: Sequence[str], env: Mapping[str, str], timeout: float = 300) -> subprocess.CompletedProcess:
    """The command in this process, seeing ENV as its whole environment. On a thread of its
    own: the commands call asyncio.run, which an async test's running loop would refuse."""
    with ThreadPoolExecutor(1, thread_name_prefix="wander-cli") as pool:
        return pool.submit(_invoke, list(args), dict(env)).result(timeout=timeout)


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Python's own display of a warning, on the current sys.stderr (pytest records them instead)."""
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


class _CurrentStderr(logging.StreamHandler):
    """Writes to whatever sys.stderr is when a record comes (the runner's, during a run)."""

    @property  # type: ignore[override]
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, _value) -> None:
        pass


def _invoke(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    from wander.faces.cli import app

    # The runner sets ENV's variables and unsets this process's others for the run.
    environment: dict[str, str | None] = {name: None for name in os.environ if name not in env}
    environment.update(env)
    # The command's logging.basicConfig does nothing under pytest (whose handlers the root
    # logger already has): this handler and level stand in for it.
    root, handler, level = logging.getLogger(), _CurrentStderr(), logging.getLogger().level
    handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT))
    with warnings.catch_warnings():
        warnings.resetwarnings()
        warnings.showwarning = _show_warning
        for category in _DEFAULT_FILTERS:
            warnings.simplefilter("ignore", category)
        warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")
        root.addHandler(handler)
        root.setLevel(env.get("WANDER_LOG_LEVEL", "WARNING").upper())
        try:
            result = CliRunner(env=environment).invoke(app, args, prog_name="wander", color=False)
            # What a process's exit does: the run's objects die here, on this thread with no
            # event loop running. Collected later, on a thread whose loop runs (a test's, the
            # next run's), an SDK client's __del__ schedules its aclose() on that loop, over
            # sockets of this run's closed loop, and logs the error into another run's stderr.
            gc.collect()
        finally:
            root.removeHandler(handler)
            root.setLevel(level)
    stderr, code = result.stderr, result.exit_code
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(result.exception))
        code = 1
    return subprocess.CompletedProcess([*WANDER, *args], code, result.stdout, stderr)
