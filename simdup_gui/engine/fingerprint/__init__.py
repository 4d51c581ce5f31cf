"""Fingerprints: simhash and shingle sketches of texts, and of files from their bytes."""
