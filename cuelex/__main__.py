"""``python -m cuelex``: the same command line as the ``cuelex`` script."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
