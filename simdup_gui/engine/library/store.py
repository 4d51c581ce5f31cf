"""A library on disk: a folder of immutable generations, one of them current.

::

    LIB/library.json        format, the fingerprint settings, the current generation
    LIB/.lock               held by the one writer (readers never wait)
    LIB/gen-000007/         one generation, never changed once written:
        contents.json       its articles and imported fingerprint files
        records.bin         the articles' records (a folder snapshot, ``store/snapshot.py``)
        template.npy        the hashes of the lines that are template among the articles
                            (``match/template.py``: the library's own counts)
        passages.npy, passage_owners.npy  the articles' passage fingerprints (a quarter of
                            them: ``reuse/passages.py``), sorted, and each one's article;
                            passage_counts.npy how many each article has, passage_fences.npy
                            every FENCE-th fingerprint (a lookup reads one block of the index)
        files.npy, paths.bin  each article's size and time, and its path (NUL after each):
                            an article's file is found without reading every record
        fingerprints.npy    every fingerprint: the articles', then the imported ones
        index-k3/, index-k8/  the permutations of two indexes (``match/index.py``): one for
                            k up to 3 (long prefixes, few rows to check), one for k up to 8

        checksums.json      every file's size and CRC-32: a file is checked when first read
                            (the largest by size; ``Library.verify`` reads them all)

A writer builds a new generation beside the current one, flushes it to disk, and then replaces
``library.json`` in one rename: a reader, or a writer killed at any moment, sees the library as
it was before or after, never half of it. The generation it replaced stays until the next write
(a reader that opened it keeps reading it); older ones, and whatever a failed or killed writer
left, are removed under the lock. A folder holding only such leftovers (a first add that never
finished) is a library not yet made: the next add starts it anew.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import threading
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.match.index import FingerprintIndex
from simdup_gui.engine.options import GroupOptions, TextSettings
from simdup_gui.engine.output.outputs import new_temp_file
from simdup_gui.engine.progress import Progress, ProgressEvent, no_progress
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.store.snapshot import pack, unpack

FORMAT = "simdup library"
VERSION = 1
MAX_K = 8  # the largest k a library answers by default (``max_k``: fewer permutations on disk)
SMALL_K = 3  # an index for k up to this too: few permutations with long prefixes, fast queries


def index_ks(max_k: int) -> tuple[int, ...]:
    """The indexes a library answering k up to ``max_k`` keeps: one for small k, one up to it."""
    return tuple(sorted({min(SMALL_K, max_k), max_k}))


GENERATION = re.compile(r"gen-\d{6}")  # a generation's name (a copy a file manager made is not)
CHECKSUMS = "checksums.json"
CHECKED_ON_OPEN = 64 << 20  # files up to this size are checksummed when first read
WAIT_SAID_S = 1.0  # a writer waiting longer than this for another says so
FENCE = 4096  # the passage index's fences: every FENCE-th fingerprint (16 KB of it apart)
PERMUTATION_BUDGET = (
    64  # bytes of permutations per fingerprint at most, per index (its plan's budget)
)
META = "library.json"


class LibraryError(ValueError):
    """A library that cannot be used as asked (a one-line reason)."""


@dataclass(frozen=True)
class Imported:
    """A file of precomputed fingerprints added to the library.

    Its entries are named ``source#id``: the file's ``ids`` (a Parquet id column), or the row
    numbers from 1.
    """

    source: str
    count: int
    ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Contents:
    """What a generation holds: article records, then imported fingerprints."""

    articles: tuple[FileRecord, ...]
    imported: tuple[Imported, ...]
    imported_fingerprints: npt.NDArray[np.uint64]

    @classmethod
    def empty(cls) -> Contents:
        """A new library's: nothing."""
        return cls((), (), np.empty(0, np.uint64))

    def without_imported(self, drop: Callable[[Imported], bool]) -> Contents:
        """The same contents without the imported files ``drop`` names (and their rows)."""
        parts, arrays, start = [], [np.empty(0, np.uint64)], 0
        for part in self.imported:
            if not drop(part):
                parts.append(part)
                arrays.append(self.imported_fingerprints[start : start + part.count])
            start += part.count
        return Contents(self.articles, tuple(parts), np.concatenate(arrays))

    @property
    def fingerprints(self) -> npt.NDArray[np.uint64]:
        """Every fingerprint: the articles' (in order), then the imported ones."""
        own = np.array([r.fingerprint for r in self.articles], dtype=np.uint64)
        return np.concatenate([own, self.imported_fingerprints.astype(np.uint64)])


def _checksum(path: Path) -> int:
    """A file's CRC-32, read a megabyte at a time."""
    value = 0
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            value = zlib.crc32(chunk, value)
    return value


def _write_checksums(generation: Path) -> None:
    """Every file of a generation but this list: its size and CRC-32, by its name inside it."""
    sums = {
        file.relative_to(generation).as_posix(): [file.stat().st_size, _checksum(file)]
        for file in sorted(generation.rglob("*"))
        if file.is_file() and file != generation / CHECKSUMS
    }
    (generation / CHECKSUMS).write_text(json.dumps(sums, indent=0), encoding="utf-8")


def _sync_folder(folder: Path) -> None:
    """Put a folder's files and entries on disk."""
    for path in folder.iterdir():
        if path.is_file():
            with open(path, "rb") as stream:
                os.fsync(stream.fileno())
    _sync_folder_entry(folder)


def _denied(folder: str | os.PathLike[str], exc: PermissionError) -> str:
    """A library's file this user may not read, said as such and named (no "damage")."""
    return f"{folder}: permission denied: {exc.filename or folder}"


class Library:
    """A library opened for reading: its settings, contents and index (memory-mapped)."""

    def __init__(self, folder: Path, meta: dict[str, object]) -> None:
        """Use :meth:`open`."""
        self.folder = folder
        self.meta = meta
        self.generation = folder / str(meta["generation"])
        sums = self.generation / CHECKSUMS  # a generation written before has none
        self._sums: dict[str, list[int]] = (
            json.loads(sums.read_text(encoding="utf-8")) if sums.is_file() else {}
        )
        self._checked: set[str] = set()
        for name in self._sums:
            if not (self.generation / name).is_file():
                raise LibraryError(f"{folder}: damaged library ({name} is missing)")
        described = json.loads(self._file("contents.json").read_text(encoding="utf-8"))
        self.article_count = int(described["articles"])
        self.imported = tuple(
            Imported(str(s), int(c), tuple(ids) if ids else ())
            for s, c, *rest in described["imported"]
            for ids in [rest[0] if rest else ()]
        )
        self.fingerprints = np.load(self._file("fingerprints.npy"), mmap_mode="r")
        template = self._file("template.npy")  # a generation written before has none
        self.template = np.load(template) if template.is_file() else np.empty(0, np.uint64)
        passages = self._file("passages.npy")
        self.passages, self.passage_owners = (
            (OnDisk(passages), OnDisk(self._file("passage_owners.npy")))
            if passages.is_file()
            else (np.empty(0, np.uint32), np.empty(0, np.uint32))
        )
        counts = self._file("passage_counts.npy")
        self.passage_counts = (
            np.load(counts, mmap_mode="r") if counts.is_file() else np.empty(0, np.uint32)
        )
        if len(self.passages) != len(self.passage_owners) or (
            len(self.passages) and len(self.passage_counts) != self.article_count
        ):
            raise LibraryError(f"{folder}: damaged library (passages do not fit)")
        total = self.article_count + sum(i.count for i in self.imported)
        if self.fingerprints.dtype != np.uint64 or self.fingerprints.shape != (total,):
            raise LibraryError(f"{folder}: damaged library (fingerprints do not fit)")
        self.max_k = int(meta.get("max_k", MAX_K))  # type: ignore[call-overload]
        self._articles: tuple[FileRecord, ...] | None = None
        self._files: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._fences: np.ndarray | None = None
        self._indexes: dict[int, FingerprintIndex] = {}

    def _file(self, name: str, *, whole: bool = False) -> Path:
        """A file of the generation, checked against its checksum the first time it is read.

        Its size always; its CRC-32 too when it is small (up to ``CHECKED_ON_OPEN``) or
        ``whole``. Raises LibraryError when it does not match.
        """
        path = self.generation / name
        if name in self._sums and name not in self._checked:
            size, crc = self._sums[name]
            try:
                found = path.stat().st_size
                if found != size or ((whole or size <= CHECKED_ON_OPEN) and _checksum(path) != crc):
                    raise LibraryError(f"{self.folder}: damaged library ({name} has changed)")
            except PermissionError as exc:
                raise LibraryError(_denied(self.folder, exc)) from None
            except OSError as exc:
                raise LibraryError(f"{self.folder}: damaged library ({name}: {exc})") from None
            if whole or size <= CHECKED_ON_OPEN:
                self._checked.add(name)
        return path

    def verify(self) -> int:
        """Check every file of the generation against its checksum; how many were checked.

        Raises:
            LibraryError: a file is missing or has changed since it was written.
        """
        for name in self._sums:
            self._file(name, whole=True)
        return len(self._sums)

    @classmethod
    def open(cls, folder: str | os.PathLike[str]) -> Library:
        """Open an existing library for reading.

        Raises:
            LibraryError: missing, not a library, damaged, or of a newer format.
        """
        path = Path(folder)
        if not path.is_dir():
            raise LibraryError(f"{folder}: no such library")
        try:
            meta = json.loads((path / META).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise LibraryError(f"{folder}: not a simdup library") from None
        except PermissionError as exc:
            raise LibraryError(_denied(folder, exc)) from None
        except (OSError, ValueError) as exc:
            raise LibraryError(f"{folder}: damaged library ({exc})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise LibraryError(f"{folder}: not a simdup library")
        if meta.get("version") != VERSION:
            raise LibraryError(
                f"{folder}: a library of format {meta.get('version')}, not {VERSION}"
            )
        try:
            return cls(path, meta)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            if isinstance(exc, LibraryError):
                raise
            if isinstance(exc, PermissionError):
                raise LibraryError(_denied(folder, exc)) from None
            raise LibraryError(f"{folder}: damaged library ({exc})") from None

    @property
    def settings(self) -> TextSettings:
        """The fingerprint settings the library was built with."""
        return TextSettings(**self.meta["settings"])  # type: ignore[arg-type]

    def refuse_if_stale(self) -> None:
        """Raise unless this simdup makes the fingerprints the library holds.

        A library records its settings and the fingerprint pipeline's version with them; a newer
        simdup whose pipeline changed (the same settings) would compare unlike fingerprints.

        Raises:
            LibraryError: the library was built by a simdup whose fingerprints differ.
        """
        if self.meta.get("settings_version") != self.settings.version:
            raise LibraryError(
                f"{self.folder}: built by a simdup whose fingerprints differ from this one's"
                f" ({self.meta.get('settings_version')}, now {self.settings.version}): build a new"
                " library from its folders"
            )

    @property
    def updated(self) -> str:
        """When the current generation was written (local time)."""
        return str(self.meta.get("updated", ""))

    def articles(self) -> tuple[FileRecord, ...]:
        """The articles' records (read on first use: a fingerprint query never needs them)."""
        if self._articles is None:
            data = self._file("records.bin").read_bytes()
            self._articles = unpack(data) if data else ()
            if len(self._articles) != self.article_count:
                raise LibraryError(f"{self.folder}: damaged library (records do not fit)")
        return self._articles

    def index(self, k: int) -> FingerprintIndex:
        """The index that answers ``k`` with the fewest rows to check, memory-mapped."""
        if k > self.max_k:
            raise LibraryError(f"{self.folder}: answers k up to {self.max_k}, not {k}")
        limit = min(stored for stored in index_ks(self.max_k) if stored >= k)
        if limit not in self._indexes:
            budget = PERMUTATION_BUDGET * max(len(self.fingerprints), 1)
            for name in self._sums:
                if name.startswith(f"index-k{limit}/"):
                    self._file(name)
            try:
                self._indexes[limit] = FingerprintIndex.load(
                    self.generation / f"index-k{limit}",
                    self.fingerprints,
                    limit,
                    memory_budget=budget,
                )
            except (OSError, ValueError) as exc:
                raise LibraryError(f"{self.folder}: damaged library ({exc})") from None
        return self._indexes[limit]

    def passage_ranges(
        self, values: npt.NDArray[np.uint32]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Where each of these fingerprints' run lies in the sorted ``passages``: (start, end).

        A search in the fences first (every FENCE-th fingerprint, in memory), then in the one
        block of the file it points at: a lookup reads a few kilobytes, not the whole index
        (numpy's search of a memory-mapped array maps all of it; see :class:`OnDisk`).
        """
        if self._fences is None:
            fences = self._file("passage_fences.npy")
            self._fences = np.load(fences) if fences.is_file() else self.passages[:][::FENCE].copy()
        starts = np.empty(len(values), np.int64)
        ends = np.empty(len(values), np.int64)
        total = len(self.passages)
        for n, value in enumerate(values.tolist()):
            block = max(int(np.searchsorted(self._fences, value, side="left")) - 1, 0) * FENCE
            piece = self.passages[block : block + 2 * FENCE]
            start = block + int(np.searchsorted(piece, value, side="left"))
            end = block + int(np.searchsorted(piece, value, side="right"))
            while end < total and end == block + len(piece):  # a run past the block
                block, piece = end, self.passages[end : end + FENCE]
                end = block + int(np.searchsorted(piece, value, side="right"))
            starts[n], ends[n] = start, end
        return starts, ends

    def check_lookups(self) -> None:
        """Open now, checked, what a copy check reads late: damage is said before any work.

        Every file's size (and the small ones' checksums), the passage fences and the articles'
        paths, each opened once and held, so that two writers finishing meanwhile (which
        remove this generation) change nothing for this reader. A library written before the
        checksums gets the structural checks: fences in order, paths' ends rising within them.

        Raises:
            LibraryError: a file is missing, damaged or does not fit the others.
        """
        try:
            for name in self._sums:
                self._file(name)
            if len(self.passages):
                self.passage_ranges(np.empty(0, np.uint32))  # loads the fences
                fences = np.asarray(self._fences)
                if np.any(fences[1:] < fences[:-1]):
                    raise LibraryError(f"{self.folder}: damaged library (fences out of order)")
            if self.article_count and (self.generation / "files.npy").is_file():
                self.article_file(0)  # maps the articles' files, ends and paths
                assert self._files is not None
                files, ends, paths = self._files
                if len(files) != self.article_count or len(ends) != self.article_count:
                    raise LibraryError(f"{self.folder}: damaged library (article files do not fit)")
                ends = np.asarray(ends, np.int64)
                if len(paths) != int(ends[-1]) or not np.array_equal(
                    np.flatnonzero(np.asarray(paths) == 0), ends - 1
                ):  # each path ends in a NUL, and holds none
                    raise LibraryError(f"{self.folder}: damaged library (paths do not fit)")
        except LibraryError:
            raise
        except (OSError, ValueError, IndexError, TypeError, UnicodeDecodeError) as exc:
            raise LibraryError(f"{self.folder}: damaged library ({exc})") from None

    def article_file(self, entry: int) -> tuple[str, int, int]:
        """An article's path, size and modification time (ns), as the library took it."""
        mapped = self._files is not None or (self.generation / "files.npy").is_file()
        if self._articles is None and mapped:
            if self._files is None:
                self._files = (
                    np.load(self._file("files.npy"), mmap_mode="r"),
                    np.load(self._file("path_ends.npy"), mmap_mode="r"),
                    np.memmap(self._file("paths.bin"), np.uint8, "r"),
                )
            files, ends, paths = self._files
            start = int(ends[entry - 1]) if entry else 0
            path = bytes(paths[start : int(ends[entry]) - 1]).decode("utf-8", "surrogateescape")
            return path, int(files[entry, 0]), int(files[entry, 1])
        record = self.articles()[entry]
        return record.path, record.size, record.mtime_ns

    def name_of(self, entry: int) -> str:
        """An entry's path (an article) or ``source#row`` (an imported fingerprint, from 1)."""
        if entry < self.article_count:
            return self.article_file(entry)[0]
        row = entry - self.article_count
        for part in self.imported:
            if row < part.count:
                return f"{part.source}#{part.ids[row] if part.ids else row + 1}"
            row -= part.count
        raise IndexError(entry)

    def contents(self) -> Contents:
        """Everything the library holds, to build the next generation from."""
        imported = np.asarray(self.fingerprints[self.article_count :], dtype=np.uint64)
        return Contents(self.articles(), self.imported, imported)


@contextlib.contextmanager
def writing(
    folder: str | os.PathLike[str],
    settings: TextSettings | None,
    progress: Progress = no_progress,
) -> Iterator[Library | None]:
    """Hold the library's writer lock; yield it (None when it is new) to build the next one.

    Creates the folder if missing (``settings`` given); refuses a folder that holds anything but
    a library or the leftovers of one never finished, and a library built with other fingerprint
    settings (``settings`` None: whatever the library's are; it must exist). A second writer
    waits for the first, and after a second says so (a ``waiting`` event to ``progress``).
    Leftovers of writers that failed or were killed are removed.

    Raises:
        LibraryError: the folder cannot be a library, or has other settings.
    """
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise LibraryError(f"{folder}: not a folder")
    if settings is None and not (path / META).exists():
        what = "not a simdup library" if path.is_dir() else "no such library"
        raise LibraryError(f"{folder}: {what}")
    if path.is_dir() and not (path / META).exists() and not _only_leftovers(path):
        raise LibraryError(f"{folder}: not a simdup library (it holds other files: not touched)")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LibraryError(f"{folder}: {exc.strerror or exc}") from None
    from filelock import FileLock, Timeout  # its import costs 40 ms: only a writer pays it

    lock = FileLock(path / ".lock")
    try:
        lock.acquire(timeout=WAIT_SAID_S)
    except Timeout:
        progress(ProgressEvent("waiting", 0, 0, current=str(path)))
        lock.acquire()
    try:
        current = Library.open(path) if (path / META).exists() else None
        if current is None:
            _remove_leftovers(path, set())  # a first write that never finished
        else:
            meta = current.meta
            _remove_leftovers(path, {str(meta["generation"]), str(meta.get("previous", ""))})
            current.refuse_if_stale()
        if current is not None and settings is not None and current.settings != settings:
            raise LibraryError(
                f"{folder}: built with other fingerprint settings ({current.settings.version},"
                f" not {settings.version}): give the library's settings"
            )
        yield current
    finally:
        lock.release()


def _leftover(entry: Path) -> bool:
    """A name only simdup writes in a library: its lock, a generation, a temporary file."""
    name = entry.name
    return (
        name == ".lock"
        or (GENERATION.fullmatch(name) is not None and entry.is_dir())
        or (name.startswith((META + ".", f".{META}.")) and name.endswith(".tmp"))
    )


def _only_leftovers(path: Path) -> bool:
    """Whether a folder without ``library.json`` holds only what a writer left (or nothing)."""
    return all(_leftover(entry) for entry in path.iterdir())


def _remove_leftovers(path: Path, kept: set[str]) -> None:
    """Remove generations not ``kept`` and temporary files (hold the lock)."""
    for entry in path.iterdir():
        if _leftover(entry) and entry.name != ".lock" and entry.name not in kept:
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)


def write_generation(
    folder: str | os.PathLike[str],
    contents: Contents,
    settings: TextSettings,
    max_k: int = MAX_K,
) -> Path:
    """Write ``contents`` as the library's next generation and make it current (hold the lock).

    Its indexes answer k up to ``max_k``. Returns the new generation's folder.
    """
    path = Path(folder)
    names = [p.name for p in path.iterdir() if GENERATION.fullmatch(p.name)]
    number = 1 + max((int(name[4:]) for name in names), default=0)
    generation = path / f"gen-{number:06d}"
    generation.mkdir()
    try:
        _write_files(generation, contents, max_k)
    except BaseException:  # a full disk, an interrupt: nothing of it stays
        shutil.rmtree(generation, ignore_errors=True)
        raise
    previous = json.loads((path / META).read_text("utf-8")) if (path / META).exists() else {}
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "settings": settings.to_dict(),
        "settings_version": settings.version,
        "generation": generation.name,
        "previous": previous.get("generation", ""),
        "max_k": max_k,
        "updated": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    handle, temp = new_temp_file(path, META)  # its mode the umask's, as the other files
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(meta, stream, indent=1)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, path / META)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        shutil.rmtree(generation, ignore_errors=True)
        raise
    _sync_folder_entry(path)
    _remove_leftovers(path, {generation.name, str(meta["previous"])})
    return generation


def _write_files(generation: Path, contents: Contents, max_k: int) -> None:
    """Write a generation's files, their checksums, and flush them to disk."""
    fingerprints = contents.fingerprints
    (generation / "records.bin").write_bytes(pack(contents.articles) if contents.articles else b"")
    np.save(generation / "fingerprints.npy", fingerprints)
    np.save(generation / "template.npy", library_template(contents.articles))
    passages, owners, counts = passage_index(contents.articles)
    np.save(generation / "passages.npy", passages)
    np.save(generation / "passage_owners.npy", owners)
    np.save(generation / "passage_counts.npy", counts)
    np.save(generation / "passage_fences.npy", passages[::FENCE])
    write_article_files(generation, contents.articles)
    described = {
        "articles": len(contents.articles),
        "imported": [[i.source, i.count, list(i.ids)] for i in contents.imported],
    }
    (generation / "contents.json").write_text(json.dumps(described), encoding="utf-8")
    budget = PERMUTATION_BUDGET * max(len(fingerprints), 1)
    for k in index_ks(max_k):
        (generation / f"index-k{k}").mkdir()
        FingerprintIndex(fingerprints, k, memory_budget=budget).save(generation / f"index-k{k}")
        _sync_folder(generation / f"index-k{k}")
    _write_checksums(generation)
    _sync_folder(generation)


def library_template(articles: tuple[FileRecord, ...]) -> npt.NDArray[np.uint64]:
    """The lines that are template among a library's articles (copies: within SMALL_K bits)."""
    from simdup_gui.engine.match.index import all_pairs
    from simdup_gui.engine.match.template import shared_lines

    fingerprints = np.array([r.fingerprint for r in articles], dtype=np.uint64)
    return shared_lines([r.lines for r in articles], all_pairs(fingerprints, SMALL_K))


class OnDisk:
    """A ``.npy`` array read a slice at a time from its file, for a few lookups in a large one.

    Read, not memory-mapped: a mapped array's lookups map the pages around each read into the
    process (with the large pages of a file just written, two megabytes a lookup: 440 MB for
    one article checked against 10^6), where a read leaves them to the system's cache.
    """

    def __init__(self, path: Path) -> None:
        """The array's dtype and length, from its header (the data is read when sliced).

        The file stays open: a generation two later writers removed meanwhile is still read.
        """
        self.path = path
        self._stream = open(path, "rb")  # noqa: SIM115 (held for the array's life)
        self._reading = threading.Lock()  # one seek-and-read at a time, whatever the thread
        try:
            version = np.lib.format.read_magic(self._stream)
            read_header = (
                np.lib.format.read_array_header_1_0
                if version == (1, 0)
                else np.lib.format.read_array_header_2_0
            )
            shape, fortran, self.dtype = read_header(self._stream)
            self.offset = self._stream.tell()
            if len(shape) != 1 or fortran or self.dtype.hasobject:
                raise ValueError(f"{path}: not a flat array")
        except BaseException:
            self._stream.close()
            raise
        self.length = int(shape[0])

    def __del__(self) -> None:
        stream = getattr(self, "_stream", None)
        if stream is not None:
            stream.close()

    def __len__(self) -> int:
        """How many values it holds."""
        return self.length

    def __getitem__(self, where: slice) -> np.ndarray:
        """The values of a slice (steps of 1 only), read from the file."""
        start, stop, step = where.indices(self.length)
        if step != 1:
            raise ValueError("OnDisk reads runs of values only")
        count = max(stop - start, 0)
        with self._reading:  # (each read opened the file anew before: as safe from threads)
            self._stream.seek(self.offset + start * self.dtype.itemsize)
            data = self._stream.read(count * self.dtype.itemsize)
        if len(data) != count * self.dtype.itemsize:
            raise OSError(f"{self.path}: shorter than its header says")
        return np.frombuffer(data, self.dtype)


def write_article_files(generation: Path, articles: tuple[FileRecord, ...]) -> None:
    """Each article's size and time (``files.npy``) and path (``paths.bin``, ``path_ends.npy``)."""
    rows = np.array([[r.size, r.mtime_ns] for r in articles], np.int64).reshape(-1, 2)
    np.save(generation / "files.npy", rows)
    names = [r.path.encode("utf-8", "surrogateescape") + b"\0" for r in articles]
    np.save(generation / "path_ends.npy", np.cumsum([len(n) for n in names], dtype=np.int64))
    (generation / "paths.bin").write_bytes(b"".join(names))


def passage_index(
    articles: tuple[FileRecord, ...],
) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32], npt.NDArray[np.uint32]]:
    """The articles' sampled passage fingerprints, sorted, each one's article, and their counts."""
    from simdup_gui.engine.reuse.passages import fingerprints, sampled

    kept = [sampled(fingerprints(record.passages)) for record in articles]
    values = np.concatenate(kept) if kept else np.empty(0, np.uint32)
    owners = np.repeat(np.arange(len(kept), dtype=np.uint32), [len(k) for k in kept])
    order = np.argsort(values, kind="stable")
    return values[order], owners[order], np.array([len(k) for k in kept], np.uint32)


def _sync_folder_entry(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


@dataclass(frozen=True)
class Stats:
    """What a library holds."""

    articles: int
    article_bytes: int
    imported: int
    imported_files: int
    groups: int  # near-duplicate groups among the articles, at the defaults
    by_distance: tuple[int, ...]  # pairs of fingerprints within 8 bits, by distance 0..8
    encodings: tuple[tuple[str, int], ...]
    languages: tuple[tuple[str, int], ...]
    settings: str
    updated: str


def library_stats(library: Library) -> Stats:
    """Count what ``library`` holds (reads every record: seconds for a large library)."""
    from simdup_gui.engine.match.index import all_pairs
    from simdup_gui.engine.match.matching import group_files

    articles = library.articles()
    fingerprints = np.asarray(library.fingerprints)
    pairs = all_pairs(fingerprints, 8, jobs=2)
    groups = group_files(articles, GroupOptions())[1] if articles else ()
    return Stats(
        len(articles),
        sum(r.size for r in articles),
        len(fingerprints) - len(articles),
        len(library.imported),
        len(groups),
        tuple(np.bincount(pairs.distance, minlength=9).tolist()),
        tuple(Counter(r.encoding for r in articles).most_common()),
        tuple(Counter(r.language for r in articles).most_common()),
        library.settings.version,
        library.updated,
    )
