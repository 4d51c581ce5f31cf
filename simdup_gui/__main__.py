"""``python -m simdup_gui`` opens the desktop app."""

from __future__ import annotations

import sys

from simdup_gui.app import main

if __name__ == "__main__":  # large scans start worker processes, which re-import this module
    sys.exit(main())
