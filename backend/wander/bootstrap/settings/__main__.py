"""`python -m wander.bootstrap.settings [--check]`: refill (or check) the README's settings tables."""

import sys

from wander.bootstrap.settings.readme import main

sys.exit(main(sys.argv[1:]))
