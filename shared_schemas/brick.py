"""Wire model of a Wheeler memory brick (002): the evolution of a memory, seed to attractor,
for the brick viewer (`/memory/...` in the mind map's app)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

CAStateName = Literal["CONVERGED", "OSCILLATING", "CHAOTIC"]
RotationOutcomeName = Literal["CONVERGED", "FAILED_ALL_ROTATIONS"]


class BrickOut(BaseModel):
    source: Literal["memory", "crystal", "text"] = Field(
        description="Where the brick comes from: a stored memory, a crystal's insight (the evolution its "
        "attractor picture shows) or a text evolved on request."
    )
    id: str = Field(description="The memory id, the crystal id, or the text's key (its SHA-256, 16 hex digits).")
    text: str
    state: CAStateName = Field(description="The CA state of the evolution kept (seed 002).")
    outcome: RotationOutcomeName = Field(
        description="The rotation retry's outcome: CONVERGED at some angle, or FAILED_ALL_ROTATIONS "
        "(the best failure is kept, and `state` says how it failed)."
    )
    ticks: int = Field(ge=0, description="Ticks run: the frames are ticks + 1, seed first.")
    angle: int = Field(description="The rotation (degrees) whose evolution was kept.")
    attempts: int = Field(ge=1, description="Angles tried.")
    cycle_period: int | None = Field(description="An OSCILLATING brick's cycle period in ticks.")
    divergence_tick: int | None = Field(
        description="The tick at which an oscillating brick's cycle began (Brick.find_divergence_point); "
        "null when it does not cycle."
    )
    height: int = Field(ge=1)
    width: int = Field(ge=1)
    frames: str = Field(
        description="Every frame, seed first, row-major, one byte a cell (base64): byte b is the value "
        "b / 127.5 - 1 in [-1, 1]."
    )


BRICK_MODELS: tuple[type[BaseModel], ...] = (BrickOut,)
