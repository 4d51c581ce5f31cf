"""The Qt-free engine: decode, strip, tokenize, fingerprint, index, group, report."""
