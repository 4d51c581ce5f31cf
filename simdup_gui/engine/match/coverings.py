"""Plans found by search: fewer permutations than the halves of ``PermutationPlan.covering``.

A pair within ``k`` bits changes at most ``k`` of a plan's blocks. A *covering* is a family of
sets of ``r`` blocks such that whatever ``k`` blocks change, one of its sets is left intact: one
permutation per set then finds every pair (the all-pairs kernel reports each pair from the first
permutation it leaves intact). Taking every ``r``-set within each half of ``k + 2r - 1`` blocks is
one such family; a tabu search (``tools/find_coverings.py``) finds smaller ones, which these
are. Each set is written as a bit set in hex (bit ``b``: block ``b`` of the 64 bits split into
``count`` near-equal blocks); tests check that each family covers every way ``k`` blocks can
change.

At ``k = 8``: 86 sets of 4 of 15 blocks (17-18 bit prefixes) instead of the 105 of the halves,
or 71 sets of 4 of 16 blocks (16 bits); the all-pairs cost estimate chooses among them.
"""

from __future__ import annotations

_FOUND = {  # k: {count: the family's bit sets}
    8: {
        15: (
            "0069 00a9 00b2 00d4 0113 011c 0164 01c8 0234 0252 0286 02c8 02e0 0328 0348 040e "
            "0419 0461 0503 0505 0560 0590 0831 0846 0883 0922 0a05 0b80 0c28 0c48 0e10 1025 "
            "1051 1068 108c 1142 120a 1301 1430 1482 1604 1818 1860 1904 1c01 2023 204c 2091 "
            "2130 2182 2218 2304 2442 24a0 2601 280a 28a0 2901 2c04 3006 30c0 3500 3a00 4026 "
            "402c 4058 4085 4141 4203 4310 4403 4422 4444 4680 480a 4890 4d00 5009 5012 50a0 "
            "5240 6014 6088 6108 6220 6840"
        ),
        16: (
            "0036 005c 00e2 012a 0192 021a 02a8 02d0 030c 0431 0505 0609 0642 080b 0891 0921 "
            "0b40 0ca0 0d02 100d 1061 11a0 1230 1241 1448 1484 1806 1910 2043 2070 2184 2481 "
            "2848 2a04 2c10 3088 3202 3500 4015 4068 408a 4118 4181 4222 4424 4884 4a10 5300 "
            "5402 6044 6600 6880 7020 802c 8046 8150 8188 82a0 8412 8604 8a01 8c08 9003 9090 "
            "9840 a005 a018 a120 c041 d008 e002"
        ),
    },
}


def coverings(k: int) -> dict[int, tuple[int, ...]]:
    """The families found for ``k`` changed blocks, by their count of blocks."""
    return {
        count: tuple(int(word, 16) for word in family.split())
        for count, family in _FOUND.get(k, {}).items()
    }
