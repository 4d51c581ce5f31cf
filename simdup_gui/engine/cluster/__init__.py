"""Running the engine on a Dask cluster (the optional ``simdup[dask]`` extra)."""
