"""`python -m wander.cli`."""

import sys

from wander.cli import main

sys.exit(main())
