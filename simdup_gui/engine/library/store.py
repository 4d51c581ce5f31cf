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
        index-k3/, index-k8/  the permuted tables of two indexes (``match/index.py``): one for
                            k up to 3 (long prefixes, few rows to check), one for k up to 8

A writer builds a new generation beside the current one, flushes it to disk, and then replaces
``library.json`` in one rename: a reader, or a writer killed at any moment, sees the library as
it was before or after, never half of it. Old generations are removed after the swap (a reader
that has one open keeps reading it: its files stay until closed).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.match.index import FingerprintIndex
from simdup_gui.engine.options import GroupOptions, TextSettings
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.store.snapshot import pack, unpack

FORMAT = "simdup library"
VERSION = 1
MAX_K = 8  # the largest k a library answers by default (``max_k``: fewer tables on disk)
SMALL_K = 3  # an index for k up to this too: few tables with long prefixes, fast queries


def index_ks(max_k: int) -> tuple[int, ...]:
    """The indexes a library answering k up to ``max_k`` keeps: one for small k, one up to it."""
    return tuple(sorted({min(SMALL_K, max_k), max_k}))


FENCE = 4096  # the passage index's fences: every FENCE-th fingerprint (16 KB of it apart)
TABLE_BUDGET = 64  # bytes of tables per fingerprint at most, per index (its plan's budget)
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


def _sync_folder(folder: Path) -> None:
    """Put a folder's files and entries on disk."""
    for path in folder.iterdir():
        if path.is_file():
            with open(path, "rb") as stream:
                os.fsync(stream.fileno())
    _sync_folder_entry(folder)


class Library:
    """A library opened for reading: its settings, contents and index (memory-mapped)."""

    def __init__(self, folder: Path, meta: dict[str, object]) -> None:
        """Use :meth:`open`."""
        self.folder = folder
        self.meta = meta
        self.generation = folder / str(meta["generation"])
        described = json.loads((self.generation / "contents.json").read_text(encoding="utf-8"))
        self.article_count = int(described["articles"])
        self.imported = tuple(
            Imported(str(s), int(c), tuple(ids) if ids else ())
            for s, c, *rest in described["imported"]
            for ids in [rest[0] if rest else ()]
        )
        self.fingerprints = np.load(self.generation / "fingerprints.npy", mmap_mode="r")
        template = self.generation / "template.npy"  # a generation written before has none
        self.template = np.load(template) if template.is_file() else np.empty(0, np.uint64)
        passages = self.generation / "passages.npy"
        self.passages, self.passage_owners = (
            (OnDisk(passages), OnDisk(self.generation / "passage_owners.npy"))
            if passages.is_file()
            else (np.empty(0, np.uint32), np.empty(0, np.uint32))
        )
        counts = self.generation / "passage_counts.npy"
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
            data = (self.generation / "records.bin").read_bytes()
            self._articles = unpack(data) if data else ()
            if len(self._articles) != self.article_count:
                raise LibraryError(f"{self.folder}: damaged library (records do not fit)")
        return self._articles

    def index(self, k: int) -> FingerprintIndex:
        """The index that answers ``k`` with the fewest rows to check, its tables memory-mapped."""
        if k > self.max_k:
            raise LibraryError(f"{self.folder}: answers k up to {self.max_k}, not {k}")
        limit = min(stored for stored in index_ks(self.max_k) if stored >= k)
        if limit not in self._indexes:
            budget = TABLE_BUDGET * max(len(self.fingerprints), 1)
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
            fences = self.generation / "passage_fences.npy"
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

    def article_file(self, entry: int) -> tuple[str, int, int]:
        """An article's path, size and modification time (ns), as the library took it."""
        if self._articles is None and (self.generation / "files.npy").is_file():
            if self._files is None:
                self._files = (
                    np.load(self.generation / "files.npy", mmap_mode="r"),
                    np.load(self.generation / "path_ends.npy", mmap_mode="r"),
                    np.memmap(self.generation / "paths.bin", np.uint8, "r"),
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
    folder: str | os.PathLike[str], settings: TextSettings | None
) -> Iterator[Library | None]:
    """Hold the library's writer lock; yield it (None when it is new) to build the next one.

    Creates the folder if missing; refuses a folder that holds anything else, and a library
    built with other fingerprint settings (``settings`` None: whatever the library's are; it
    must exist). A second writer waits for the first.

    Raises:
        LibraryError: the folder cannot be a library, or has other settings.
    """
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise LibraryError(f"{folder}: not a folder")
    if path.is_dir() and any(path.iterdir()) and not (path / META).exists():
        raise LibraryError(f"{folder}: not a simdup library (it holds other files: not touched)")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LibraryError(f"{folder}: {exc.strerror or exc}") from None
    from filelock import FileLock  # its import costs 40 ms: only a writer pays it

    with FileLock(path / ".lock"):
        current = Library.open(path) if (path / META).exists() or settings is None else None
        if current is not None:
            current.refuse_if_stale()
        if current is not None and settings is not None and current.settings != settings:
            raise LibraryError(
                f"{folder}: built with other fingerprint settings ({current.settings.version},"
                f" not {settings.version}): give the library's settings"
            )
        yield current


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
    number = 1 + max((int(p.name[4:]) for p in path.glob("gen-[0-9]*")), default=0)
    generation = path / f"gen-{number:06d}"
    generation.mkdir()
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
    budget = TABLE_BUDGET * max(len(fingerprints), 1)
    for k in index_ks(max_k):
        (generation / f"index-k{k}").mkdir()
        FingerprintIndex(fingerprints, k, memory_budget=budget).save(generation / f"index-k{k}")
        _sync_folder(generation / f"index-k{k}")
    _sync_folder(generation)
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "settings": settings.to_dict(),
        "settings_version": settings.version,
        "generation": generation.name,
        "max_k": max_k,
        "updated": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    temp = path / (META + ".tmp")
    with open(temp, "w", encoding="utf-8") as stream:
        json.dump(meta, stream, indent=1)
        stream.flush()
        os.fsync(stream.fileno())
    os.replace(temp, path / META)
    _sync_folder_entry(path)
    for old in path.glob("gen-[0-9]*"):
        if old != generation:
            shutil.rmtree(old, ignore_errors=True)
    return generation


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
        """The array's dtype and length, from its header (the data is read when sliced)."""
        self.path = path
        with open(path, "rb") as stream:
            version = np.lib.format.read_magic(stream)
            read_header = (
                np.lib.format.read_array_header_1_0
                if version == (1, 0)
                else np.lib.format.read_array_header_2_0
            )
            shape, fortran, self.dtype = read_header(stream)
            self.offset = stream.tell()
        if len(shape) != 1 or fortran or self.dtype.hasobject:
            raise ValueError(f"{path}: not a flat array")
        self.length = int(shape[0])

    def __len__(self) -> int:
        """How many values it holds."""
        return self.length

    def __getitem__(self, where: slice) -> np.ndarray:
        """The values of a slice (steps of 1 only), read from the file."""
        start, stop, step = where.indices(self.length)
        if step != 1:
            raise ValueError("OnDisk reads runs of values only")
        count = max(stop - start, 0)
        with open(self.path, "rb") as stream:  # opened per read: nothing held open
            stream.seek(self.offset + start * self.dtype.itemsize)
            data = stream.read(count * self.dtype.itemsize)
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
