"""The standalone app's ``simdup`` command (built by ``tools/build_app.py``)."""

import multiprocessing

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a worker process started by this executable runs here
    from simdup_gui.cli import run

    run()
