"""`python -m wander.cli`."""

from wander.cli import main

main()
