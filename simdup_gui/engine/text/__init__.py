"""Text: normalise it, cut it into tokens, measure what a repost left behind, diff two texts."""
