"""The settings model over every section, read from the environment (or a mapping): the one
module of Wander that reads os.environ (tests/unit/test_config.py checks)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from wander.bootstrap.settings.fields import Section
from wander.bootstrap.settings.forage import ForageSettings
from wander.bootstrap.settings.local import ArchiveSettings, CaSettings, CoreSettings, default_home
from wander.bootstrap.settings.models import ModelsSettings
from wander.bootstrap.settings.server import (
    ApiSettingsSection,
    DatabaseSettings,
    NatsSettingsSection,
    WorkerSettingsSection,
)
from wander.core.domain.errors import InvalidInput

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
        for name, f in section_model(section_field).model_fields.items():
            raw = env.get(str(f.validation_alias), "")
            if raw.strip():
                values[name] = raw
        out[section] = values
    return out


def section_model(f: FieldInfo) -> type[Section]:
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
        return (self.core.home or default_home()).expanduser()

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
    model = section_model(Settings.model_fields[section])
    try:
        return model.model_validate(sections_from(os.environ if env is None else env)[section])
    except ValidationError as e:
        raise _invalid(e, section) from None


def _invalid(e: ValidationError, section: str | None = None) -> InvalidInput:
    err = e.errors()[0]
    loc = [str(x) for x in ([section, *err["loc"]] if section else err["loc"])]
    where, name = (loc + ["", ""])[:2]
    model = section_model(Settings.model_fields[where])
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
