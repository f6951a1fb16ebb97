"""Every setting Wander reads, in one pydantic-settings model, a module per group of sections.

Each setting is one environment variable (its `validation_alias`, almost always WANDER_*),
grouped in sections: core (home, caches, log level), database, api, models, nats, worker, ca,
archive, forage. Nothing else in wander reads os.environ (loading.py does; tests/unit/test_config.py
checks); the README's settings tables are generated from this model (`python -m wander.bootstrap.settings`,
tests/unit/test_config.py fails when they are stale).

Adding a setting: add a field to its section with `var("WANDER_NAME", default, "what it does")`
(fields.py), read it as `load_settings().<section>.<field>`, run `python -m wander.bootstrap.settings`."""

from wander.bootstrap.settings.fields import Section
from wander.bootstrap.settings.forage import FORAGE_SOURCES, ForageSettings
from wander.bootstrap.settings.loading import Settings, load_section, load_settings, sections_from
from wander.bootstrap.settings.local import ArchiveSettings, CaSettings, CoreSettings
from wander.bootstrap.settings.models import DWELLERS, EMBEDDERS, ModelsSettings
from wander.bootstrap.settings.readme import README, readme_with_tables, settings_table
from wander.bootstrap.settings.server import (
    RATE_PERIODS,
    ApiSettingsSection,
    DatabaseSettings,
    NatsSettingsSection,
    WorkerSettingsSection,
    parse_rate,
)

__all__ = [
    "DWELLERS",
    "EMBEDDERS",
    "FORAGE_SOURCES",
    "RATE_PERIODS",
    "README",
    "ApiSettingsSection",
    "ArchiveSettings",
    "CaSettings",
    "CoreSettings",
    "DatabaseSettings",
    "ForageSettings",
    "ModelsSettings",
    "NatsSettingsSection",
    "Section",
    "Settings",
    "WorkerSettingsSection",
    "load_section",
    "load_settings",
    "parse_rate",
    "readme_with_tables",
    "sections_from",
    "settings_table",
]
