"""docker/compose.yaml and docker/Dockerfile checked against the code: every WANDER_*
variable they name is read by the code, every command and option exists in the CLI,
ports and URLs agree with the services and the serve command, dependencies name real
services with health checks, NATS runs with JetStream. (No Docker engine needed.)"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import typer
import yaml

from wander.faces import cli

REPO = Path(__file__).resolve().parents[3]
DOCKER = REPO / "docker"
CODE = "\n".join(p.read_text() for p in (REPO / "backend" / "wander").rglob("*.py"))


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())


@pytest.fixture(scope="module")
def services(compose) -> dict:
    return compose["services"]


def env_of(service: dict) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {k: str(v) for k, v in env.items()}


def command_of(service: dict) -> list[str]:
    cmd = service.get("command") or []
    return shlex.split(cmd) if isinstance(cmd, str) else list(cmd)


def wander_services(services) -> dict[str, dict]:
    return {name: s for name, s in services.items() if "wander" in str(s.get("image", ""))}


def test_the_parts_are_all_there(services):
    assert {"postgres", "nats", "ollama", "api"} <= set(services)
    workers = [n for n, s in services.items() if command_of(s)[:2] == ["wander", "worker"]]
    assert len(workers) >= 2, workers
    assert "pgvector" in services["postgres"]["image"]


def test_every_wander_variable_named_is_read_by_the_code():
    text = (DOCKER / "compose.yaml").read_text() + (DOCKER / "Dockerfile").read_text()
    named = set(re.findall(r"\bWANDER_[A-Z0-9_]+\b", text))
    assert named, "compose names no WANDER_ variable?"
    # The Open WebUI pipeline runs in its own container and reads its own variables.
    readers = CODE + "".join(f.read_text() for f in sorted((DOCKER / "openwebui").glob("*.py")))
    unknown = sorted(v for v in named if not re.search(rf"[\"']{v}[\"']", readers))
    assert not unknown, f"not read anywhere in backend/wander or the pipeline: {unknown}"


def test_depends_on_names_real_services_and_waits_for_health(services):
    for name, s in services.items():
        deps = s.get("depends_on") or {}
        if isinstance(deps, list):
            deps = {d: {"condition": "service_started"} for d in deps}
        for dep, how in deps.items():
            assert dep in services, f"{name} depends on unknown service {dep}"
            cond = (how or {}).get("condition", "service_started")
            assert cond in ("service_started", "service_healthy", "service_completed_successfully")
            if cond == "service_healthy":
                assert "healthcheck" in services[dep], f"{name} waits for {dep} to be healthy; it has no check"
            if cond == "service_completed_successfully":
                assert services[dep].get("restart", "no") == "no", f"{dep} is one-shot; it must not restart"


def test_every_wander_command_and_option_exists_in_the_cli(services):
    root = typer.main.get_command(cli.app)
    for name, s in wander_services(services).items():
        cmd = command_of(s)
        if cmd[:2] == ["sh", "-c"]:
            parts = [shlex.split(p) for p in cmd[2].split("&&")]
        else:
            parts = [cmd]
        for argv in parts:
            assert argv[0] == "wander", f"{name}: {argv}"
            group, args = root, argv[1:]
            while args and hasattr(group, "commands") and args[0] in group.commands:
                group, args = group.commands[args[0]], args[1:]
            assert not hasattr(group, "commands"), f"{name}: no such command {argv}"
            options = {o for p in group.params for o in p.opts}
            for a in args:
                if a.startswith("--"):
                    assert a in options, f"{name}: `{' '.join(argv)}`: no option {a}"


def test_api_port_token_and_health(services):
    api = services["api"]
    cmd = command_of(api)
    assert cmd[:2] == ["wander", "serve"]
    host = cmd[cmd.index("--host") + 1]
    port = int(cmd[cmd.index("--port") + 1])
    assert host == "0.0.0.0"
    # Binding beyond loopback needs a token (wander.faces.api.security.check_bind).
    assert "WANDER_API_TOKEN" in env_of(api)
    published = [str(p) for p in api["ports"]]
    assert any(p.split(":")[-1] == str(port) for p in published), published
    health = " ".join(api["healthcheck"]["test"])
    assert f":{port}/api/v1/health" in health and "WANDER_API_TOKEN" in health
    assert f"EXPOSE {port}" in (DOCKER / "Dockerfile").read_text()


def test_nats_runs_jetstream_and_the_url_points_at_it(services):
    nats = services["nats"]
    cmd = command_of(nats)
    assert "-js" in cmd or "--jetstream" in cmd
    port = int(cmd[cmd.index("-p") + 1]) if "-p" in cmd else 4222
    for name, s in wander_services(services).items():
        url = env_of(s).get("WANDER_NATS_URL")
        if url is None:
            continue
        parts = urlsplit(url)
        assert parts.scheme == "nats" and parts.hostname == "nats" and (parts.port or 4222) == port, (name, url)
        assert "nats" in (s.get("depends_on") or {}), f"{name} uses NATS but does not wait for it"


def test_database_url_matches_the_postgres_service(services):
    pg_env = env_of(services["postgres"])
    for name, s in wander_services(services).items():
        url = env_of(s).get("WANDER_DATABASE_URL")
        assert url, f"{name} has no WANDER_DATABASE_URL"
        parts = urlsplit(url)
        assert parts.hostname == "postgres" and (parts.port or 5432) == 5432
        assert parts.username == pg_env["POSTGRES_USER"] and parts.password == pg_env["POSTGRES_PASSWORD"]
        assert parts.path.lstrip("/") == pg_env["POSTGRES_DB"]
        assert "postgres" in (s.get("depends_on") or {}), f"{name} uses Postgres but does not wait for it"


def test_workers_are_distinct_and_their_health_file_is_the_one_they_touch(services):
    ids = []
    for name, s in services.items():
        if command_of(s)[:2] != ["wander", "worker"]:
            continue
        env = env_of(s)
        assert env.get("WANDER_NATS_URL") and env.get("WANDER_DATABASE_URL")
        ids.append(env.get("WANDER_WORKER_ID"))
        health_file = env.get("WANDER_WORKER_HEALTH_FILE")
        assert health_file and health_file in " ".join(s["healthcheck"]["test"]), name
    assert len(set(ids)) == len(ids), f"worker ids repeat: {ids}"


def test_ollama_url_points_at_the_ollama_service(services):
    for name, s in wander_services(services).items():
        url = env_of(s).get("WANDER_OLLAMA_URL")
        if url:
            parts = urlsplit(url)
            assert parts.hostname == "ollama" and parts.port == 11434, (name, url)


def test_named_volumes_are_declared(compose, services):
    declared = set(compose.get("volumes") or {})
    for name, s in services.items():
        for v in s.get("volumes") or []:
            source = str(v).split(":")[0]
            if not source.startswith((".", "/")):
                assert source in declared, f"{name} mounts undeclared volume {source}"


def test_build_and_dockerfile(services):
    for s in wander_services(services).values():
        build = s.get("build")
        if build:
            context = (DOCKER / build["context"]).resolve()
            assert (context / build["dockerfile"]).is_file()
    text = (DOCKER / "Dockerfile").read_text()
    assert re.search(r"^FROM node:\S+ AS frontend", text, re.M)
    assert "npm run build --workspace frontend" in text
    assert "COPY --from=frontend /src/frontend/dist/ frontend/dist/" in text
    torch = text.index("torch==2.13.0")
    package = text.index("pip install -e .")
    assert torch < package, "torch (CPU) must be installed before the package"
    py = re.search(r"^FROM python:(\d+)\.(\d+)", text, re.M)
    assert py and (int(py[1]), int(py[2])) >= (3, 11)
    ignores = [(DOCKER / f).read_text() for f in (".dockerignore", "Dockerfile.dockerignore")]
    assert ignores[0] == ignores[1]
    assert "**/node_modules" in ignores[0] and "**/.venv" in ignores[0]
