"""Every setting Wander reads, in one pydantic-settings model.

Each setting is one environment variable (its `validation_alias`, almost always WANDER_*),
grouped in sections: database, api, models, nats, worker, ca (and the top-level home and
log level). Nothing else in wander reads os.environ (tests/unit/test_config.py checks);
the README's settings tables are generated from this model (`python -m wander.bootstrap.settings`,
tests/unit/test_config.py fails when they are stale).

Adding a setting: add a field to its section with `_var("WANDER_NAME", default, "what it
does")`, read it as `load_settings().<section>.<field>`, run `python -m wander.bootstrap.settings`."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from wander.core import model_defaults as defaults
from wander.core.domain.errors import InvalidInput

DWELLERS = ("offline", "ollama", "anthropic", "auto")
EMBEDDERS = ("minilm", "ollama")


def _var(name: str, default: Any, doc: str, *, shown: str | None = None, **kw: Any) -> Any:
    """A field read from the environment variable `name`; `shown` is the README's default."""
    extra: Any = {"shown": shown} if shown is not None else None
    return Field(default, validation_alias=name, description=doc, json_schema_extra=extra, **kw)


class Section(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="ignore")


class DatabaseSettings(Section):
    url: str | None = _var(
        "WANDER_DATABASE_URL",
        None,
        "any Postgres with pgvector, `postgresql://user:pass@host:5432/db`",
        shown="unset: embedded Postgres in `WANDER_HOME/pg`",
    )
    embed_dim: int = _var(
        "WANDER_EMBED_DIM",
        384,
        "the embedding dimension of the vector columns (follows the embedder; checked against it when the app opens)",
        ge=1,
    )


RATE_PERIODS = {"second": 1.0, "minute": 60.0, "hour": 3600.0}


def parse_rate(text: str) -> tuple[int, float] | None:
    """`N/second|minute|hour` as (N, period in seconds); `0` (or `0/...`) as None: no limit."""
    count, _, unit = text.strip().lower().partition("/")
    unit = unit.strip() or ("minute" if count.strip() == "0" else "")
    if not count.strip().isdigit() or unit not in RATE_PERIODS:
        raise ValueError("must be N/second, N/minute or N/hour, or 0 for no limit")
    n = int(count)
    return (n, RATE_PERIODS[unit]) if n > 0 else None


class ApiSettingsSection(Section):
    token: str | None = _var(
        "WANDER_API_TOKEN", None, "bearer token the API requires; mandatory to bind beyond loopback", shown="unset"
    )
    allowed_origins: tuple[str, ...] = _var(
        "WANDER_ALLOWED_ORIGINS",
        (),
        "extra browser origins (comma-separated) allowed on the WebSocket and by CORS",
        shown="unset",
    )
    ws_heartbeat_s: float = _var(
        "WANDER_WS_HEARTBEAT_S", 15.0, "seconds between WebSocket heartbeats when no event flows", gt=0
    )
    ws_max_buffer: int = _var(
        "WANDER_WS_MAX_BUFFER",
        1024,
        "events held for one WebSocket client that does not read; when full the client is dropped "
        "with close code 4408 (it reconnects with `after_seq` and loses nothing)",
        ge=1,
    )
    ws_max_message: int = _var(
        "WANDER_WS_MAX_MESSAGE",
        65_536,
        "largest message in bytes a client may send on the WebSocket (it only listens; "
        "a larger one closes the socket with 1009)",
        ge=1,
    )

    max_body_bytes: int = _var(
        "WANDER_API_MAX_BODY_BYTES",
        1_048_576,
        "largest request body in bytes; a larger one is answered 413 before it is read whole",
        ge=1,
    )
    rate_limit: str = _var(
        "WANDER_API_RATE_LIMIT",
        "60/minute",
        "session creates, steps, runs and forage runs per client address when the server binds beyond "
        "loopback: `N/second`, `N/minute` or `N/hour` (`0`: off); over it a client gets 429 with "
        "Retry-After. Never applied on loopback",
    )
    forage_roots: tuple[Path, ...] = _var(
        "WANDER_FORAGE_ROOTS",
        (),
        "folders (separated by `:`) the API's `POST /api/v1/sandwich/forage` may read a `source` path from; "
        "paths elsewhere, with `..`, or through a symbolic link leading out are refused (the CLI is not confined)",
        shown="`WANDER_HOME/forage`",
    )

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split(cls, v: Any) -> Any:
        return tuple(o.strip() for o in v.split(",") if o.strip()) if isinstance(v, str) else v

    @field_validator("forage_roots", mode="before")
    @classmethod
    def _paths(cls, v: Any) -> Any:
        return tuple(Path(p.strip()) for p in v.split(os.pathsep) if p.strip()) if isinstance(v, str) else v

    @field_validator("rate_limit")
    @classmethod
    def _rate(cls, v: str) -> str:
        parse_rate(v)  # raises ValueError naming the form
        return v.strip().lower()


FORAGE_SOURCES = ("corpus", "wikipedia", "arxiv", "feeds", "stackexchange", "gutenberg", "ckan", "search")


def _csv(v: Any) -> Any:
    return tuple(x.strip() for x in v.split(",") if x.strip()) if isinstance(v, str) else v


class ForageSettings(Section):
    sources: tuple[str, ...] = _var(
        "WANDER_FORAGE_SOURCES",
        ("corpus",),
        "where the autonomous forager looks (comma-separated): `corpus` (the concept corpus and imported notes, "
        "offline), `wikipedia`, `arxiv`, `feeds`, `stackexchange`, `gutenberg`, `ckan`, `search`; directed "
        "foraging names its source (`wikipedia:entropy`, `arxiv:`, `feed:URL`, a URL, a path)",
        shown="`corpus`",
    )
    allow_networks: tuple[str, ...] = _var(
        "WANDER_FORAGE_ALLOW_NETWORKS",
        (),
        "private, loopback or link-local networks (comma-separated, e.g. `10.1.0.0/16,127.0.0.1/32`) that "
        "foraged URLs may reach; every other such address is refused, after resolving the name and at "
        "every redirect. A server bound beyond loopback ignores it and never reaches them",
        shown="unset: none",
    )
    timeout_s: float = _var(
        "WANDER_FORAGE_TIMEOUT_S", 10.0, "seconds a foraged source may take to connect, and to send each part", gt=0
    )
    max_bytes: int = _var(
        "WANDER_FORAGE_MAX_BYTES", 5_000_000, "largest response in bytes a source may send (larger: refused)", ge=1024
    )
    host_interval_s: float = _var(
        "WANDER_FORAGE_HOST_INTERVAL_S",
        1.0,
        "least seconds between two requests to one host (a 429's Retry-After or an API's backoff waits longer)",
        ge=0,
    )
    max_retry_after_s: float = _var(
        "WANDER_FORAGE_MAX_RETRY_AFTER_S",
        30.0,
        "longest Retry-After or backoff the forager waits out; a longer one is a source error",
        ge=0,
    )
    user_agent: str = _var(
        "WANDER_FORAGE_USER_AGENT",
        "wander-forager/0.1 (SANDWICH forager of Wander)",
        "the User-Agent of every foraging request and the name robots.txt is read for",
    )
    mediawiki_url: str = _var(
        "WANDER_MEDIAWIKI_URL", "https://en.wikipedia.org/w/api.php", "the MediaWiki API of the `wikipedia` source"
    )
    arxiv_url: str = _var("WANDER_ARXIV_URL", "https://export.arxiv.org/api/query", "the arXiv API (Atom)")
    feeds: tuple[str, ...] = _var(
        "WANDER_FEEDS", (), "RSS/Atom feed URLs (comma-separated) of the `feeds` source", shown="unset: none"
    )
    stackexchange_url: str = _var(
        "WANDER_STACKEXCHANGE_URL", "https://api.stackexchange.com/2.3", "the Stack Exchange API"
    )
    stackexchange_site: str = _var("WANDER_STACKEXCHANGE_SITE", "stackoverflow", "the Stack Exchange site foraged")
    stackexchange_key: str | None = _var(
        "WANDER_STACKEXCHANGE_KEY", None, "a Stack Exchange app key (a larger daily quota)", shown="unset"
    )
    gutenberg_url: str = _var(
        "WANDER_GUTENBERG_URL", "https://gutendex.com/books", "the Project Gutenberg catalogue (Gutendex JSON API)"
    )
    ckan_url: str = _var(
        "WANDER_CKAN_URL", "https://catalog.data.gov/api/3/action", "the CKAN catalogue API (open government data)"
    )
    searx_url: str | None = _var(
        "WANDER_SEARX_URL",
        None,
        "a SearxNG instance's search URL (`https://host/search`, JSON format on) for the `search` source "
        "(random word -> search)",
        shown="unset: `search` off",
    )
    wander_depth: int = _var(
        "WANDER_FORAGE_DEPTH", 1, "wandering mode: how many links deep the forager follows from a page", ge=0, le=5
    )
    wander_pages: int = _var(
        "WANDER_FORAGE_PAGES", 8, "wandering mode: pages one foraged source may lead to, in all", ge=1, le=200
    )
    voice: bool = _var(
        "WANDER_REUBEN",
        True,
        "Reuben's voice in the foraging log, the sandwiches' commentary and the farewell: lines chosen by what "
        "happened, never repeated within a run (`0`: plain statements)",
        shown="`1`",
    )

    @field_validator("sources", "allow_networks", "feeds", mode="before")
    @classmethod
    def _split(cls, v: Any) -> Any:
        return _csv(v)

    @field_validator("sources")
    @classmethod
    def _known(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        bad = [s for s in v if s not in FORAGE_SOURCES]
        if bad or not v:
            raise ValueError(f"must name sources among {', '.join(FORAGE_SOURCES)}")
        return v

    @field_validator("allow_networks")
    @classmethod
    def _networks(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        import ipaddress

        for n in v:
            ipaddress.ip_network(n, strict=False)  # ValueError names the bad one
        return v


class ModelsSettings(Section):
    dweller: Literal["offline", "ollama", "anthropic", "auto"] = _var(
        "WANDER_DWELLER",
        "offline",
        "who dwells: `offline`, `ollama`, `anthropic`, or `auto` (the 001 routing rule "
        "over both, falling back to offline)",
    )
    embedder: Literal["minilm", "ollama"] = _var(
        "WANDER_EMBEDDER", "minilm", "`minilm` (shipped, offline) or `ollama` (set `WANDER_EMBED_DIM` to its size)"
    )
    ollama_url: str = _var("WANDER_OLLAMA_URL", defaults.OLLAMA_URL, "the Ollama server")
    ollama_model: str = _var("WANDER_OLLAMA_MODEL", defaults.OLLAMA_MODEL, "the local dwelling model")
    ollama_timeout: float = _var("WANDER_OLLAMA_TIMEOUT", defaults.OLLAMA_TIMEOUT, "seconds per Ollama call", ge=0.01)
    ollama_embed_model: str = _var(
        "WANDER_OLLAMA_EMBED_MODEL",
        defaults.OLLAMA_EMBED_MODEL,
        "Ollama embedding model (for `WANDER_EMBEDDER=ollama`)",
    )
    ollama_embed_dim: int | None = _var(
        "WANDER_OLLAMA_EMBED_DIM", None, "truncate Ollama embeddings to this size", shown="model's own", ge=1
    )
    anthropic_api_key: str | None = _var("ANTHROPIC_API_KEY", None, "turns the cloud model on", shown="unset")
    anthropic_url: str | None = _var("WANDER_ANTHROPIC_URL", None, "another Anthropic endpoint", shown="SDK default")
    anthropic_model: str = _var("WANDER_ANTHROPIC_MODEL", defaults.ANTHROPIC_MODEL, "cloud dwelling model")
    anthropic_heavy_model: str = _var(
        "WANDER_ANTHROPIC_HEAVY_MODEL",
        defaults.ANTHROPIC_HEAVY_MODEL,
        "the heavy model: rumination before a crystal with `anthropic` or `auto`, when the session's cloud budget allows",
    )
    anthropic_timeout: float = _var(
        "WANDER_ANTHROPIC_TIMEOUT", defaults.ANTHROPIC_TIMEOUT, "seconds per Anthropic call", ge=0.01
    )
    prices: str | None = _var(
        "WANDER_PRICES",
        None,
        'JSON overrides, $ per million tokens: `{"model": {"input": 3, "output": 15}}`',
        shown="built-in table",
    )
    retries: int = _var("WANDER_MODEL_RETRIES", 3, "retries of 429, 5xx and timeouts", ge=0)
    retry_delay: float = _var("WANDER_MODEL_RETRY_DELAY", 1.0, "backoff base, seconds", ge=0)
    retry_max_delay: float = _var("WANDER_MODEL_RETRY_MAX_DELAY", 20.0, "backoff cap, seconds", ge=0)
    dwell_max_tokens: int = _var(
        "WANDER_DWELL_MAX_TOKENS", 800, "output cap per dwelling (also in the cost estimate)", ge=64
    )
    router_cooldown: int = _var(
        "WANDER_ROUTER_COOLDOWN", 10, "dwells a failing model is skipped before it is tried again", ge=1
    )
    helpers: bool = _var(
        "WANDER_MODEL_HELPERS",
        True,
        "the dweller's models also propose analogies/tensions and ruminate, routed like the dweller, "
        "cloud calls within the session's budget (`0`: off)",
        shown="`1`",
    )

    evaluator: Literal["offline", "model"] = _var(
        "WANDER_EVALUATOR",
        "offline",
        "who evaluates a crystal into an action proposal: `offline` (rules over the crystal's scores and "
        "the assets) or `model` (Anthropic when a key is set, within the wander's cloud budget, then "
        "Ollama, then the rules)",
    )
    evaluator_max_tokens: int = _var(
        "WANDER_EVALUATOR_MAX_TOKENS", 600, "output cap per evaluation call (also in the cost estimate)", ge=64
    )

    @field_validator("dweller", "embedder", "evaluator", mode="before")
    @classmethod
    def _lower(cls, v: Any) -> Any:
        return v.strip().lower() if isinstance(v, str) else v

    @field_validator("ollama_url")
    @classmethod
    def _no_slash(cls, v: str) -> str:
        return v.rstrip("/")


class NatsSettingsSection(Section):
    url: str | None = _var(
        "WANDER_NATS_URL", None, "turns on scale-out; unset keeps everything in-process", shown="unset"
    )
    run_ack_wait_s: float = _var(
        "WANDER_RUN_ACK_WAIT_S", 30.0, "a run that stops reporting progress this long goes to another worker", gt=0
    )
    events_max_age_s: float = _var(
        "WANDER_NATS_EVENTS_MAX_AGE_S", 86_400.0, "how long the event stream keeps events", gt=0
    )
    relay_sweep_s: float = _var(
        "WANDER_RELAY_SWEEP_S", 10.0, "how often each process looks for events a crashed process left unpublished", gt=0
    )
    relay_horizon_s: float = _var(
        "WANDER_RELAY_HORIZON_S", 86_400.0, "older unpublished events are never relayed", gt=0
    )

    @field_validator("url")
    @classmethod
    def _strip(cls, v: str | None) -> str | None:
        return (v or "").strip() or None


class WorkerSettingsSection(Section):
    id: str | None = _var("WANDER_WORKER_ID", None, "recorded on every step a worker runs", shown="host-pid-random")
    concurrency: int = _var("WANDER_WORKER_CONCURRENCY", 1, "runs per worker at a time")
    run_max_attempts: int = _var(
        "WANDER_RUN_MAX_ATTEMPTS",
        5,
        "deliveries of a failing run request before it is dropped (the target stays in the session row)",
    )
    threads: int = _var("WANDER_WORKER_THREADS", 1, "math threads per worker")
    health_file: Path | None = _var(
        "WANDER_WORKER_HEALTH_FILE",
        None,
        "a file the worker touches while alive (container health checks)",
        shown="unset",
    )


class CaSettings(Section):
    backend: str = _var(
        "WANDER_CA_BACKEND",
        "auto",
        "CA kernel array module: `auto` (CuPy on a CUDA device, else NumPy), `numpy`, `cupy` (checked by wander.adapters.ca.xp)",
    )
    memory_capacity: str = _var(
        "WANDER_MEMORY_CAPACITY",
        "",
        "Wheeler CA memories kept before the coldest 10% are evicted (checked by wander.adapters.ca.wheeler_memory)",
        shown="`1000`",
    )

    @field_validator("backend")
    @classmethod
    def _lower(cls, v: str) -> str:
        return v.lower()


class ArchiveSettings(Section):
    projection: str = _var(
        "WANDER_PROJECTION", "umap", "how loci are projected to 2-D: `umap` (umap-learn; PCA below 12 loci) or `pca`"
    )
    refit_every: int = _var(
        "WANDER_PROJECTION_REFIT_EVERY",
        25,
        "steps between background refits of a running wander's projection (0: only on pause and completion)",
        ge=0,
    )
    umap_warmup: bool = _var(
        "WANDER_UMAP_WARMUP",
        True,
        "`wander serve` compiles UMAP in the background at start (`0`: on first use)",
        shown="`1`",
    )

    @field_validator("projection")
    @classmethod
    def _method(cls, v: str) -> str:
        if v.lower() not in ("umap", "pca"):
            raise ValueError("must be umap or pca")
        return v.lower()


class CoreSettings(Section):
    home: Path | None = _var(
        "WANDER_HOME",
        None,
        "Wander's data folder: the embedded Postgres (`pg/`), the CA memory (`memory/`), caches",
        shown="`/var/lib/wander` as root, else the user data dir (`~/.local/share/wander`)",
    )
    log_level: str = _var("WANDER_LOG_LEVEL", "WARNING", "Python log level")
    cache: Path | None = _var(
        "WANDER_CACHE_DIR",
        None,
        "what Wander derives and keeps between runs (the corpus's domain neighbourhoods, compiled UMAP code); "
        "safe to delete",
        shown="`WANDER_HOME/cache`",
    )
    vector_cache: str | None = _var(
        "WANDER_VECTOR_CACHE",
        None,
        "where corpus vectors the shipped file lacks (another embedder, changed texts) are kept once per "
        "machine, shared by every `WANDER_HOME` (a new one reads them instead of embedding again); `off`: "
        "embed for each database",
        shown="the user cache dir (`~/.cache/wander/vectors`)",
    )

    @field_validator("log_level")
    @classmethod
    def _upper(cls, v: str) -> str:
        return v.upper()


def _default_home() -> Path:
    # As root, pgserver opens read permission on every parent of its data folder, so the
    # default must never sit under a home directory.
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return Path("/var/lib/wander")
    from platformdirs import user_data_dir

    return Path(user_data_dir("wander"))


# The mapping load_settings(env) reads instead of os.environ.
_ENV: ContextVar[Mapping[str, str] | None] = ContextVar("wander_settings_env", default=None)


class _FlatEnv(PydanticBaseSettingsSource):
    """Fills every section from its fields' own variables (WANDER_NATS_URL, not
    WANDER_NATS__URL: the names the README has always given). Empty values count as unset."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # unused: __call__ fills whole sections

    def __call__(self) -> dict[str, Any]:
        env = _ENV.get()
        return sections_from(os.environ if env is None else env)


def sections_from(env: Mapping[str, str]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for section, section_field in Settings.model_fields.items():
        values: dict[str, str] = {}
        for name, f in _section_model(section_field).model_fields.items():
            raw = env.get(str(f.validation_alias), "")
            if raw.strip():
                values[name] = raw
        out[section] = values
    return out


def _section_model(f: FieldInfo) -> type[Section]:
    assert isinstance(f.annotation, type) and issubclass(f.annotation, Section)
    return f.annotation


class Settings(BaseSettings):
    """All of Wander's settings. `load_settings()` reads the environment;
    `load_settings({...})` reads only the mapping given (tests, benchmarks)."""

    model_config = SettingsConfigDict(env_prefix="WANDER_", frozen=True, extra="ignore")

    core: CoreSettings = CoreSettings()
    database: DatabaseSettings = DatabaseSettings()
    api: ApiSettingsSection = ApiSettingsSection()
    models: ModelsSettings = ModelsSettings()
    nats: NatsSettingsSection = NatsSettingsSection()
    worker: WorkerSettingsSection = WorkerSettingsSection()
    ca: CaSettings = CaSettings()
    archive: ArchiveSettings = ArchiveSettings()
    forage: ForageSettings = ForageSettings()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, _FlatEnv(settings_cls)

    # ---- the names the rest of Wander has always used ----------------------------------

    @property
    def home(self) -> Path:
        return (self.core.home or _default_home()).expanduser()

    @property
    def log_level(self) -> str:
        return self.core.log_level

    @property
    def database_url(self) -> str | None:
        return self.database.url

    @property
    def embed_dim(self) -> int:
        return self.database.embed_dim

    @property
    def ca_backend(self) -> str:
        return self.ca.backend

    @property
    def pg_dir(self) -> Path:
        return self.home / "pg"

    @property
    def memory_dir(self) -> Path:
        return self.home / "memory"

    @property
    def cache_dir(self) -> Path:
        return (self.core.cache or self.home / "cache").expanduser()

    @property
    def vector_cache_dir(self) -> Path | None:
        """The machine's folder of corpus vectors (kb.vector_cache); None when `off`."""
        value = (self.core.vector_cache or "").strip()
        if value.lower() == "off":
            return None
        if value:
            return Path(value).expanduser()
        from platformdirs import user_cache_dir

        return Path(user_cache_dir("wander")) / "vectors"

    @property
    def forage_roots(self) -> tuple[Path, ...]:
        """The folders the API may forage a `source` path from (WANDER_FORAGE_ROOTS, else home/forage)."""
        return tuple(p.expanduser() for p in self.api.forage_roots) or (self.home / "forage",)


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """The settings from the environment (or only from `env`). A bad value raises
    InvalidInput naming its variable."""
    token = _ENV.set(env)
    try:
        return Settings()
    except ValidationError as e:
        raise _invalid(e) from None
    finally:
        _ENV.reset(token)


def load_section(section: str, env: Mapping[str, str] | None = None) -> Any:
    """One section alone (e.g. the vector size when the tables are defined), so that a bad
    value elsewhere does not stop a part that does not use it."""
    model = _section_model(Settings.model_fields[section])
    try:
        return model.model_validate(sections_from(os.environ if env is None else env)[section])
    except ValidationError as e:
        raise _invalid(e, section) from None


def _invalid(e: ValidationError, section: str | None = None) -> InvalidInput:
    err = e.errors()[0]
    loc = [str(x) for x in ([section, *err["loc"]] if section else err["loc"])]
    where, name = (loc + ["", ""])[:2]
    model = _section_model(Settings.model_fields[where])
    var = str(model.model_fields[str(name)].validation_alias)
    got = err.get("input")
    ctx = err.get("ctx") or {}
    if err["type"] == "literal_error":
        return InvalidInput(var, f"must be one of {ctx.get('expected', '').replace(' or ', ', ')} (got '{got}')")
    if err["type"] in ("greater_than_equal", "greater_than"):
        return InvalidInput(var, f"must be at least {ctx.get('ge', ctx.get('gt'))} (got {got})")
    if err["type"].startswith(("int_", "float_")):
        kind = "a whole number" if err["type"].startswith("int_") else "a number"
        return InvalidInput(var, f"must be {kind} (got '{got}')")
    return InvalidInput(var, f"{err['msg']} (got '{got}')")


# ---- the README's tables -------------------------------------------------------------------


def _shown(f: FieldInfo) -> str:
    extra = f.json_schema_extra if isinstance(f.json_schema_extra, dict) else {}
    if "shown" in extra:
        return str(extra["shown"])
    d = f.default
    return f"`{int(d)}`" if isinstance(d, float) and d == int(d) else f"`{d}`"


def settings_table(sections: list[str]) -> str:
    rows = ["| variable | default | meaning |", "|---|---|---|"]
    for section in sections:
        for f in _section_model(Settings.model_fields[section]).model_fields.values():
            rows.append(f"| `{f.validation_alias}` | {_shown(f)} | {f.description} |")
    return "\n".join(rows)


README = Path(__file__).resolve().parents[3] / "README.md"
_BLOCK = "<!-- settings: "


def readme_with_tables(text: str) -> str:
    """The README with every `<!-- settings: a b -->` ... `<!-- /settings -->` block refilled."""
    out, rest = [], text
    while _BLOCK in rest:
        head, _, tail = rest.partition(_BLOCK)
        names, _, tail = tail.partition(" -->")
        _, _, tail = tail.partition("<!-- /settings -->")
        out.append(f"{head}{_BLOCK}{names} -->\n{settings_table(names.split())}\n<!-- /settings -->")
        rest = tail
    return "".join(out) + rest


def main(argv: list[str]) -> int:
    text = README.read_text()
    fresh = readme_with_tables(text)
    if "--check" in argv:
        if fresh != text:
            print("README.md settings tables are stale: run `python -m wander.bootstrap.settings`", file=sys.stderr)
            return 1
        return 0
    README.write_text(fresh)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
