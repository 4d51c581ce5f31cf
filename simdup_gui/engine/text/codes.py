"""How text is coded for the token kernels: character classes and the token hash's constants."""

from __future__ import annotations

import numpy as np

WORD, IDEOGRAPH, SPACE = np.uint8(1), np.uint8(2), np.uint8(4)  # bits of tokens.char_flags()
TOKEN_BASE = 0x100000001B3  # the token hash's polynomial base (odd)
GOLDEN = 0x9E3779B97F4A7C15  # mixes the token's length in
MIXERS = (0xBF58476D1CE4E5B9, 0x94D049BB133111EB)  # SplitMix64's multipliers
