"""``python -m analysis.cli``."""

import sys

from . import main

sys.exit(main())
