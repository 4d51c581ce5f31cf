"""Matching: the permutation index, candidate pairs, groups around references."""
