"""Matching: the permuted-table index, candidate pairs, groups around references."""
