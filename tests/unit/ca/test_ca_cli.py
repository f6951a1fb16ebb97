"""`wander memory ...` through Typer's CliRunner, with WANDER_HOME in a temporary folder."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from wander.adapters.ca import rotation
from wander.adapters.ca.kernel import OSCILLATING, Evolution
from wander.adapters.ca.xp import active_backend
from wander.faces.cli.memory import memory_app


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.setenv("WANDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "200")
    runner = CliRunner()

    def _run(*args):
        return runner.invoke(memory_app, list(args))

    return _run


def _error_line(result) -> str:
    text = (result.stderr if hasattr(result, "stderr") else result.output).strip()
    assert "\n" not in text, text
    return text


def test_store_recall_temps_info(run, tmp_path):
    r = run("store", "fix the python debug error")
    assert r.exit_code == 0, r.output
    assert "code" in r.output and "CONVERGED" in r.output
    assert run("store", "buy groceries and schedule dentist").exit_code == 0
    r = run("recall", "fix the python debug error", "--top-k", "2")
    assert r.exit_code == 0, r.output
    assert "1.0000" in r.output and "fix the python debug error" in r.output
    assert "correlation" in r.output and "tier" in r.output
    r = run("temps")
    assert r.exit_code == 0 and "warm" in r.output
    r = run("info")
    assert r.exit_code == 0, r.output
    # rich wraps a long path (xdist workers have longer temp folders) at the terminal width
    assert str(tmp_path / "home" / "memory") in r.output.replace("\n", "")
    backend = active_backend()[0]  # numpy here, cupy on a machine with a CUDA device
    assert f"CA backend: {backend}" in r.output and "daily_tasks" in r.output and "rotation" in r.output
    assert (tmp_path / "home" / "memory" / "chunks" / "code" / "index.json").exists()


def test_scrub_gif_and_strip(run, tmp_path):
    gif = tmp_path / "brick.gif"
    r = run("scrub", "watch me settle", "--out", str(gif))
    assert r.exit_code == 0, r.output
    im = Image.open(io.BytesIO(gif.read_bytes()))
    assert im.format == "GIF" and im.n_frames > 1
    png = tmp_path / "brick.png"
    r = run("scrub", "watch me settle", "--out", str(png), "--frames", "5")
    assert r.exit_code == 0, r.output
    im = Image.open(png)
    assert im.format == "PNG" and im.width >= 5 * im.height  # five ticks side by side
    assert "CONVERGED after" in r.output and "no cycle" in r.output


def oscillating(frames, keep_history=False, **kw):
    """Every angle cycles (period 2 from the seed on): the retry fails at all four."""
    out = []
    for f in np.asarray(frames):
        history = np.stack([f, -f] * 30)
        out.append(Evolution(history[-1], OSCILLATING, 59, history=history, period=2, oscillating_cells=4096))
    return out


def test_failed_all_rotations_is_shown_by_store_brick_and_scrub(run, tmp_path, monkeypatch):
    monkeypatch.setattr(rotation, "evolve_batch", oscillating)
    r = run("store", "a thought that will not settle")
    assert r.exit_code == 0, r.output
    assert "FAILED_ALL_ROTATIONS (kept: OSCILLATING after 59 ticks at 0 degrees, 4 angles tried)" in r.output
    memory_id = r.output.split()[1]
    r = run("brick", memory_id)
    assert r.exit_code == 0, r.output
    assert "outcome: FAILED_ALL_ROTATIONS" in r.output and "a cycle of 2 ticks began at tick 0" in r.output
    assert f"/memory/{memory_id}" in r.output and "frames: 60 (64x64)" in r.output
    r = run("scrub", "a thought that will not settle", "--out", str(tmp_path / "s.png"))
    assert r.exit_code == 0 and "FAILED_ALL_ROTATIONS" in r.output and "a cycle of 2 ticks" in r.output
    r = run("brick", "0" * 16)
    assert r.exit_code == 2 and _error_line(r).startswith("error: id:")


def test_brick_of_a_memory_that_settled(run):
    r = run("store", "fix the python debug error")
    memory_id = r.output.split()[1]
    r = run("brick", memory_id)
    assert r.exit_code == 0, r.output
    assert "outcome: CONVERGED after" in r.output and "no cycle" in r.output


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("store", ""), "text:"),
        (("store", "   "), "text:"),
        (("recall", "x", "--top-k", "0"), "--top-k:"),
        (("recall", ""), "query:"),
        (("scrub", "x", "--out", "/nonexistent-folder/out.gif"), "--out:"),
    ],
)
def test_errors_are_one_line_with_exit_code_2(run, args, field):
    r = run(*args)
    assert r.exit_code == 2
    line = _error_line(r)
    assert line.startswith("error: " + field), line


def test_scrub_into_a_directory_is_refused(run, tmp_path):
    r = run("scrub", "x", "--out", str(tmp_path))
    assert r.exit_code == 2 and "--out" in _error_line(r)


def test_recall_on_an_empty_memory(run):
    r = run("recall", "anything")
    assert r.exit_code == 0 and "no memories" in r.output


def test_cupy_backend_without_a_gpu_is_a_one_line_error(run, monkeypatch):
    from wander.adapters.ca.xp import cupy_available

    if cupy_available():
        pytest.skip("CuPy with a CUDA device is present")
    monkeypatch.setenv("WANDER_CA_BACKEND", "cupy")
    r = run("info")
    assert r.exit_code == 2
    assert _error_line(r).startswith("error: WANDER_CA_BACKEND: 'cupy' was asked for")
