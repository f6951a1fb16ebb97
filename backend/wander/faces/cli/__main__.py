"""`python -m wander.faces.cli`."""

from wander.faces.cli import main

main()
