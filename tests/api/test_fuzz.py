"""API fuzzing with schemathesis: every operation in the live app's /schema gets a
bounded number of generated requests (valid and invalid) against a real `wander serve` over a
copy of the test database. Checked on every response: no 5xx, the body conforms to the
documented schema, its status is a documented one, and every 4xx is a problem-details body
(type, title, status, detail).

`make fuzz` runs the same test with many more examples (WANDER_FUZZ_EXAMPLES)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from tests.api.conftest import free_port

EXAMPLES = int(os.environ.get("WANDER_FUZZ_EXAMPLES", "5"))
LONG_RUN = "WANDER_FUZZ_EXAMPLES" in os.environ
WANDER = [str(Path(sys.executable).with_name("wander"))]


@pytest.fixture(scope="module")
def live_url(pg_server, database_pool, tmp_path_factory):
    """`wander serve` on a free port over its own copy of the template database (from the
    pool, which retries the copy while another session reads the template)."""
    name = database_pool.take()
    home = tmp_path_factory.mktemp("fuzz-home")
    port = free_port()
    env = dict(os.environ, WANDER_DATABASE_URL=pg_server.get_uri(name), WANDER_HOME=str(home), WANDER_UMAP_WARMUP="0")
    log = open(home / "serve.log", "w")  # noqa: SIM115  (closed below)
    proc = subprocess.Popen([*WANDER, "serve", "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    # One client for the polls: each httpx.get builds a client with a TLS context (certifi's
    # bundle, ~0.03 s of CPU), four times a second while the server starts beside it.
    http = httpx.Client(timeout=2)
    try:
        for _ in range(1200):  # the first start loads the embedding model
            if proc.poll() is not None:
                raise AssertionError(f"wander serve exited: {(home / 'serve.log').read_text()[-2000:]}")
            try:
                if http.get(f"{url}/api/v1/health").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        else:
            raise AssertionError("wander serve did not come up")
        # Something to find: a wander with a few steps.
        new = {"seed_concept": "tide", "max_steps": 5}
        sid = http.post(f"{url}/api/v1/wander/sessions", json=new, timeout=60).json()["id"]
        http.post(f"{url}/api/v1/wander/sessions/{sid}/wander", json={"n_steps": 3}, timeout=60)
        yield url
    finally:
        http.close()
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        print(f"serve log tail:\n{(home / 'serve.log').read_text()[-3000:]}")
        database_pool.give_back(name)


@pytest.fixture(scope="module")
def api_schema(live_url):
    return schemathesis.openapi.from_url(f"{live_url}/schema/openapi.json")


def problem_details(ctx, response, case) -> bool | None:
    """Every 4xx answer is RFC 9457 problem details: type, title, status (the response's own)
    and detail; `field`, where present, is a string."""
    if not 400 <= response.status_code < 500:
        return None
    content_type = response.headers.get("content-type", [""])
    content_type = content_type[0] if isinstance(content_type, list) else content_type
    assert content_type.startswith("application/problem+json"), f"{response.status_code} as {content_type!r}"
    body = response.json()
    missing = [k for k in ("type", "title", "status", "detail") if k not in body]
    assert not missing, f"problem body lacks {missing}: {body}"
    assert body["status"] == response.status_code, body
    assert isinstance(body["detail"], str) and body["detail"], body
    assert isinstance(body.get("field", ""), str), body
    return True


# Every answer's status is documented (api/openapi_problems.py adds the problem answers),
# its body conforms to the documented schema, and every 4xx is a problem body.
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance, problem_details]


def fuzz_operation(operation, mode: GenerationMode, base_url: str) -> None:
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=not LONG_RUN,
        database=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate],
    )
    def run(case) -> None:
        case.call_and_validate(base_url=base_url, checks=CHECKS, timeout=60)

    run()


def nothing_to_break(operation) -> bool:
    """No request to OPERATION can break its schema: no body, no query, header or cookie
    parameter, and only path parameters that are strings without any constraint (every path
    segment is a string). Negative generation then has nothing to make: schemathesis rejects
    each candidate and hypothesis gives up (Unsatisfiable) only after ~460 of them, 0.7 s of
    CPU per operation for no request. `make fuzz` still tries them."""
    raw = operation.definition.raw
    if "requestBody" in raw:
        return False
    return all(p.get("in") == "path" and p.get("schema") == {"type": "string"} for p in raw.get("parameters", []))


def test_api_fuzz(api_schema, live_url):
    """Each operation, valid and invalid input; the failures of all operations reported together."""
    failures: list[str] = []
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) > 20
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            unbreakable = mode is GenerationMode.NEGATIVE and nothing_to_break(operation)
            if unbreakable and not LONG_RUN:
                continue
            try:
                fuzz_operation(operation, mode, live_url)
            except Unsatisfiable:
                continue  # no invalid input exists (no parameters, or only free-form strings)
            except BaseException as exc:  # noqa: BLE001  (schemathesis raises a BaseExceptionGroup; collected, reported)
                if isinstance(exc, KeyboardInterrupt | SystemExit):
                    raise
                failures.append(f"{operation.label} [{mode.value}]: {str(exc)[:1500]}")
            else:
                if unbreakable:
                    failures.append(f"{operation.label} [negative]: invalid requests made; nothing_to_break is wrong")
    print(f"fuzzed {len(operations)} operations, {EXAMPLES} examples per mode")
    assert not failures, "\n\n".join(failures)
