"""The application core: what the app knows and decides, with no Qt (like dupeGuru's core/app.py).

The Qt layer (``simdup_gui/ui``) shows the core's state and forwards the user's commands; the
core asks its questions through :class:`~simdup_gui.core.session.Questions`, which the window
answers with dialogs and tests answer directly.
"""
