"""``python -m cli``: the same as the ``casino-audit`` script."""

import sys

from cli.main import main

sys.exit(main())
