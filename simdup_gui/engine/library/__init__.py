"""The archive library: stored, memory-mapped fingerprints that new articles are checked against."""
