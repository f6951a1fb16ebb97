"""The economic action layer (001, phase 8): crystal -> evaluate -> fractal encode -> human
gate -> execute on a paper wallet. Nothing reaches the executor without a recorded approval."""
