"""The PySide6 desktop app: a thin layer over the engine."""
