"""Reading files: walk a folder, read bytes, decode them, turn HTML into text."""
