"""The field helper every settings section uses: a field read from one environment variable."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


def var(name: str, default: Any, doc: str, *, shown: str | None = None, **kw: Any) -> Any:
    """A field read from the environment variable `name`; `shown` is the README's default."""
    extra: Any = {"shown": shown} if shown is not None else None
    return Field(default, validation_alias=name, description=doc, json_schema_extra=extra, **kw)


class Section(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="ignore")


def csv(v: Any) -> Any:
    return tuple(x.strip() for x in v.split(",") if x.strip()) if isinstance(v, str) else v
