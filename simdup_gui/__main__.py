"""``python -m simdup_gui`` opens the desktop app."""

from __future__ import annotations

import sys

from simdup_gui.app import main

sys.exit(main())
