"""SANDWICH (seed 004) beside the wander engine: forager, identifier, assembler and validator
as services over ports (no SQL, no web), and the foraging loop with its patience."""
