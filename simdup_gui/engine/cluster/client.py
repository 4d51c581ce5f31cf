"""A Dask cluster to run on: a scheduler at an address, or a ``LocalCluster`` started here.

``local:N`` starts N worker processes (one thread each) for the length of a ``with`` block and
stops them at its end, however it ends (an error, Ctrl+C): nothing started here outlives it.
A scheduler at ``tcp://host:port`` is only connected to; its workers must see the files a
folder scan reads (a shared file system), as a table's rows travel with the work.
"""

from __future__ import annotations

import logging
import re
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from distributed import Client

CONNECT_SECONDS = 10  # how long a scheduler has to answer
MAX_LOCAL_WORKERS = 256
_LOCAL = re.compile(r"local:(\d+)")


class ClusterError(Exception):
    """No cluster to run on (one line): the extra is missing, or the scheduler cannot be reached."""


def check_address(address: str) -> str:
    """``address`` if it names a cluster (``local:N`` or a scheduler's address), else raise."""
    local = _LOCAL.fullmatch(address)
    if local and not 1 <= int(local[1]) <= MAX_LOCAL_WORKERS:
        raise ClusterError(f"local:N takes 1 to {MAX_LOCAL_WORKERS} workers, not {local[1]}")
    if not local and not re.fullmatch(r"(tcp|tls|ucx|inproc)://\S+", address):
        raise ClusterError(f"{address}: not local:N nor a scheduler address like tcp://host:8786")
    return address


@contextmanager
def cluster_client(address: str) -> Iterator[Client]:
    """A client of the cluster at ``address``; a local cluster is stopped when the block ends.

    Raises:
        ClusterError: Dask is not installed, or nothing answers at the address.
    """
    check_address(address)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("--dask needs the dask extra: pip install 'simdup[dask]'") from None
    local = _LOCAL.fullmatch(address)
    cluster = None
    try:
        if local:
            with _interrupt_after():  # a cluster half started cannot be stopped
                cluster = LocalCluster(
                    n_workers=int(local[1]),
                    threads_per_worker=1,  # fingerprinting holds the GIL: a process a core
                    processes=True,
                    dashboard_address=":0",  # any free port: several clusters may run
                    silence_logs=logging.ERROR,
                )
            client = Client(cluster)
        else:
            _probe(address)
            client = Client(address, timeout=CONNECT_SECONDS)
    except KeyboardInterrupt:
        if cluster is not None:
            cluster.close()
        raise
    except (OSError, RuntimeError) as exc:  # nothing answers; a local cluster did not start
        if cluster is not None:
            cluster.close()
        if local:
            raise ClusterError(f"the local Dask cluster did not start: {exc}") from None
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _probe(address: str) -> None:
    """Connect and shake hands once, each within ``CONNECT_SECONDS``.

    Dask's client waits without limit for the handshake of whatever answers at the port (the
    dashboard's port given for the scheduler's is enough); this bounds it.

    Raises:
        ClusterError: nothing answers, or what answers is not a Dask scheduler.
    """
    import asyncio

    from distributed.comm import connect
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except (ValueError, TypeError) as exc:  # no host, no port number
        raise ClusterError(f"{address}: not a scheduler address ({exc})") from None

    async def handshake() -> None:
        comm = await connect(address, timeout=CONNECT_SECONDS)
        await comm.close()

    try:
        asyncio.run(asyncio.wait_for(handshake(), 2 * CONNECT_SECONDS))  # connect, then shake
    except TimeoutError:
        raise ClusterError(
            f"no Dask scheduler answered at {address} within {2 * CONNECT_SECONDS} s"
        ) from None
    except OSError as exc:  # nothing answers (dask says so as an OSError of its own)
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    except Exception as exc:  # what answers may send anything back
        raise ClusterError(f"{address}: not a Dask scheduler ({type(exc).__name__})") from None


@contextmanager
def _interrupt_after() -> Iterator[None]:
    """Hold a Ctrl+C back until the block is done, then raise it (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: pressed.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed:
        raise KeyboardInterrupt


class ClusterPool:
    """A cluster's workers as a scan's pool (``run.workers.Pool``): batches run there."""

    def __init__(self, client: Client) -> None:
        self.client = client

    @property
    def threads(self) -> int:
        """How many batches the cluster runs at once."""
        return max(1, sum(self.client.nthreads().values()))

    def executor(self, jobs: int) -> Executor:
        """The cluster as a ``concurrent.futures`` executor."""
        return self.client.get_executor()

    def shutdown(self, *, wait: bool = True) -> None:
        """Nothing: the cluster is its caller's to stop."""
