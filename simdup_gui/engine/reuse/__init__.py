"""The reuse report (查重): how much of an article was copied, from where, passage by passage.

``units`` cuts a text into units (a Chinese character, or a word of letters and digits) and
hashes runs of them; ``passages`` keeps a text's winnowed run hashes (its passage fingerprints,
in each record); ``align`` finds the exact copied spans of two texts; ``sources`` finds each
article's sources in a scan (and a library) and measures them.
"""
