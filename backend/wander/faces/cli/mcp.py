"""`wander mcp`: the MCP server (wander.faces.mcp.server) over stdio (default; what Claude Code
and Claude Desktop launch) or streamable HTTP (`--http`, served at /mcp).

Mounted by wander.faces.cli as ``app.command("mcp")(mcp)``. On stdio, stdout carries the protocol
only: logs and progress go to stderr."""

from __future__ import annotations

import asyncio
import sys

import typer


def mcp(
    http: bool = typer.Option(
        False,
        "--http",
        help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio.",
    ),
    host: str = typer.Option(
        "127.0.0.1",
        help="Address for --http (loopback only unless WANDER_API_TOKEN is set).",
    ),
    port: int = typer.Option(8766, help="Port for --http."),
) -> None:
    """Serve the five Wander tools and the trace/crystal resources to MCP clients."""
    from wander.bootstrap.settings import load_settings
    from wander.faces.cli.common import quiet_libraries

    quiet_libraries()  # logs go to stderr: on stdio, stdout carries the protocol only
    token = load_settings().api.token
    if http:
        if not 0 < port < 65536:
            _fail(f"port: must be between 1 and 65535 (got {port})")
        from wander.faces.api.security import is_loopback

        if not is_loopback(host) and not token:
            _fail(f"host: set WANDER_API_TOKEN to bind beyond loopback (got {host})")
    asyncio.run(_serve(http, host, port, token))


def _fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(2)


async def _serve(http: bool, host: str, port: int, token: str | None) -> None:
    from wander.bootstrap.wiring import open_app
    from wander.faces.mcp.server import build_server

    async with open_app() as app:
        server = build_server(app)
        if http:
            import uvicorn

            from wander.faces.mcp.http import with_token

            asgi = with_token(
                server.streamable_http_app(host=host),
                token,
            )
            print(f"Wander MCP on http://{host}:{port}/mcp", file=sys.stderr)
            await uvicorn.Server(uvicorn.Config(asgi, host=host, port=port, log_level="warning")).serve()
        else:
            await server.run_stdio_async()
