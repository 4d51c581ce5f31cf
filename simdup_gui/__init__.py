"""simdup: find near-duplicate articles in a folder."""

__version__ = "0.1.0"
