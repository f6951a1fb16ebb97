"""`wander mcp` driven by the official MCP SDK client, over streamable HTTP (the server in
this test's event loop on a free port, over the test database) and over stdio (the real
`wander mcp` command as a subprocess)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import httpx2
import uvicorn
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.api.conftest import free_port
from tests.conftest import REPO
from wander.core.engine.service import Interventions
from wander.faces.mcp.http import with_token
from wander.faces.mcp.server import build_server

TOOLS = {
    "wander_create_session",
    "wander_step",
    "wander_run",
    "wander_get_insights",
    "wander_inject",
}


def payload(result) -> dict:
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


def error_text(result) -> str:
    assert result.is_error, result.content
    text = result.content[0].text
    assert "Traceback" not in text and 'File "' not in text
    return text


async def exercise(client: Client, crystallize=None) -> dict:
    """create, run 5 steps, inject, step, read insights and resources; the bad arguments.
    crystallize(session_id), where the test can reach the engine, forces a crystal first."""
    sid = await run_and_inject(client)
    await read_insights(client, sid, crystallize)
    await refuse_bad_arguments(client, sid)
    return {"sid": sid}


async def run_and_inject(client: Client) -> str:
    """create, run 5 steps with progress, inject, step onto the injected concept; the id."""
    assert {t.name for t in (await client.list_tools()).tools} == TOOLS
    created = payload(
        await client.call_tool(
            "wander_create_session",
            {
                "name": "mcp test",
                "seed_concept": "information asymmetry",
                "attractor": "economic opportunity",
            },
        )
    )
    sid = created["id"]
    assert created["status"] == "active" and created["step_count"] == 0

    progress: list[float] = []

    async def on_progress(done, total, message):
        progress.append(done)

    ran = payload(
        await client.call_tool("wander_run", {"session_id": sid, "n_steps": 5}, progress_callback=on_progress)
    )
    assert ran["steps_completed"] == 5 and ran["step_count"] == 5 and len(ran["path"]) == 5
    # 000's answer to a run: the wander goes on, so no reason; a crystal per insight listed
    assert ran["stopped_reason"] is None and ran["crystals_formed"] == len(ran["new_crystals"])
    assert progress == [1, 2, 3, 4, 5]

    injected = payload(await client.call_tool("wander_inject", {"session_id": sid, "concept": "trust"}))
    assert injected["injected"] == "trust"
    stepped = payload(await client.call_tool("wander_step", {"session_id": sid}))
    assert stepped["step_number"] == 6 and stepped["to"]["concept"] == "trust"
    assert set(stepped["residue"]) >= {
        "connection",
        "tension",
        "bridge",
        "surprise",
        "possibility",
    }

    return sid


async def read_insights(client: Client, sid: str, crystallize) -> None:
    """the insights (strongest resonance first, crystals by confidence) and the resources."""
    if crystallize is not None:
        await crystallize(sid)
    insights = payload(await client.call_tool("wander_get_insights", {"session_id": sid, "min_confidence": 0.0}))
    assert insights["step_count"] == 6 and insights["min_confidence"] == 0.0
    assert insights["resonances"], "six steps leave candidate resonances"
    strengths = [r["strength"] for r in insights["resonances"]]
    assert strengths == sorted(strengths, reverse=True), "strongest resonance first"

    trace = json.loads((await client.read_resource(f"wander://sessions/{sid}/trace")).contents[0].text)
    assert [t["step_number"] for t in trace] == [1, 2, 3, 4, 5, 6] and trace[-1]["to_concept"] == "trust"
    crystals = json.loads((await client.read_resource(f"wander://sessions/{sid}/crystals")).contents[0].text)
    # at 0.0 every crystal of the wander is listed; the default 0.7 keeps those at least that confident
    every = {c["id"]: c["confidence"] for c in insights["crystals"]}
    assert set(every) == {c["id"] for c in crystals}
    assert every or crystallize is None, "the forced crystal is listed"
    strict = payload(await client.call_tool("wander_get_insights", {"session_id": sid}))
    assert strict["min_confidence"] == 0.7
    assert {c["id"] for c in strict["crystals"]} == {i for i, conf in every.items() if conf >= 0.7}


async def refuse_bad_arguments(client: Client, sid: str) -> None:
    """bad arguments: tool errors that name the field, nothing written."""
    unknown = "00000000-0000-0000-0000-00000000abcd"
    cases = [
        ("wander_create_session", {"name": "x", "seed_concept": "   "}, "seed_concept"),
        (
            "wander_create_session",
            {"name": "x", "seed_concept": "x", "allowed_domains": ["nope"]},
            "allowed_domains",
        ),
        ("wander_create_session", {"name": "x"}, "seed_concept"),
        ("wander_step", {}, "session_id"),
        ("wander_step", {"session_id": unknown}, "session_id"),
        ("wander_step", {"session_id": "not-a-uuid"}, "session_id"),
        ("wander_run", {"session_id": sid, "n_steps": 0}, "n_steps"),
        ("wander_run", {"session_id": sid, "n_steps": "many"}, "n_steps"),
        (
            "wander_get_insights",
            {"session_id": sid, "min_confidence": 2},
            "min_confidence",
        ),
        ("wander_inject", {"session_id": sid, "concept": ""}, "concept"),
        ("wander_inject", {"session_id": unknown, "concept": "x"}, "session_id"),
    ]
    for tool, args, field in cases:
        text = error_text(await client.call_tool(tool, args))
        assert field in text, (tool, args, text)
    after = payload(await client.call_tool("wander_get_insights", {"session_id": sid, "min_confidence": 0.0}))
    assert after["step_count"] == 6


async def test_mcp_over_streamable_http(app):
    port = free_port()
    asgi = build_server(app).streamable_http_app(host="127.0.0.1")
    server = uvicorn.Server(uvicorn.Config(asgi, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        assert not task.done()
        await asyncio.sleep(0.05)
    try:
        async with Client(f"http://127.0.0.1:{port}/mcp", cache=None, read_timeout_seconds=300) as client:
            await exercise(client, crystallize=Interventions(app.engine).crystallize)
    finally:
        server.should_exit = True
        await task


async def test_mcp_http_token(app):
    port = free_port()
    asgi = with_token(build_server(app).streamable_http_app(host="127.0.0.1"), "s3cret")
    server = uvicorn.Server(uvicorn.Config(asgi, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    try:
        async with httpx.AsyncClient() as h:
            r = await h.post(
                f"http://127.0.0.1:{port}/mcp",
                json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
            )
        assert r.status_code == 401 and "token" in r.text
        auth = httpx2.AsyncClient(headers={"Authorization": "Bearer s3cret"}, timeout=60)
        async with Client(streamable_transport(f"http://127.0.0.1:{port}/mcp", auth), cache=None) as client:
            assert {t.name for t in (await client.list_tools()).tools} == TOOLS
    finally:
        server.should_exit = True
        await task


def streamable_transport(url, http_client):
    return streamable_http_client(url, http_client=http_client)


def readme_config() -> dict:
    """The JSON block the README tells people to paste into Claude Code / Claude Desktop."""
    text = (REPO / "README.md").read_text()
    section = text.split("## Agents: the MCP server", 1)[1]
    block = section.split("```json", 1)[1].split("```", 1)[0]
    return json.loads(block.replace("/path/to/wander", str(REPO)))["mcpServers"]["wander"]


async def test_mcp_over_stdio_as_the_readme_configures_it(cli_env):
    """Launch the command the README's JSON names, with its args and env, like Claude does."""
    conf = readme_config()
    assert Path(conf["command"]).is_file()
    params = StdioServerParameters(command=conf["command"], args=conf["args"], env=cli_env | conf["env"])
    async with Client(params, cache=None, read_timeout_seconds=300) as client:
        await exercise(client)
