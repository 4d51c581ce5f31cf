"""What simdup writes and does: the CSV report, safe cells and paths, acting on duplicates."""
