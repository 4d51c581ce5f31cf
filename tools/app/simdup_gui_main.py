"""The standalone app's ``simdup-gui`` (built by ``tools/build_app.py``)."""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a worker process started by this executable runs here
    from simdup_gui.app import main

    sys.exit(main())
