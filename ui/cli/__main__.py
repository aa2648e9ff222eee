"""``python -m ui.cli``: the ``boardbank`` command."""

import sys

from ui.cli.console import main

sys.exit(main())
