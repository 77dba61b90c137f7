"""``python -m unotable`` runs the ``uno`` command."""

import sys

from unotable.cli import main

sys.exit(main())
