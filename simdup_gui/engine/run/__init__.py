"""Running the work: batches of files on threads or worker processes."""
