"""``python -m shared.worker``: see :mod:`shared.worker.loop`."""

from shared.worker.loop import main

if __name__ == "__main__":
    main()
