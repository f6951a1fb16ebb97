"""The walk's tables by the short names its statements are written with (S sessions, L loci,
T traces, R residues, RS resonances, C crystals, W warm memory, CP compost, E events)."""

from __future__ import annotations

from wander.adapters.postgres.tables import (
    WanderCompost,
    WanderCrystal,
    WanderEvent,
    WanderLocus,
    WanderResidue,
    WanderResonance,
    WanderSession,
    WanderTrace,
    WanderWarmMemory,
)

S = WanderSession.__table__
L = WanderLocus.__table__
T = WanderTrace.__table__
R = WanderResidue.__table__
RS = WanderResonance.__table__
C = WanderCrystal.__table__
W = WanderWarmMemory.__table__
CP = WanderCompost.__table__
E = WanderEvent.__table__
