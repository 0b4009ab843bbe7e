"""``python -m shared.worker``: see :mod:`shared.worker.loop`."""

import sys

from shared.worker.loop import main

if __name__ == "__main__":
    sys.exit(main())
