"""One file, or a batch of them, from its bytes to its record: read, decode, strip, analyse.

Whatever goes wrong with a file (it vanished, it is binary, a library chokes on its text)
becomes that file's error in its record; the batch goes on.
"""

from __future__ import annotations

import logging
import os
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import partial
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.fingerprint.codes import SKETCH
from simdup_gui.engine.fingerprint.lines import without_lines
from simdup_gui.engine.fingerprint.pipeline import (
    Analysis,
    Extracted,
    analyze_many,
    extract_text,
    named_html,
)
from simdup_gui.engine.fingerprint.repeats import (
    Fingerprinted,
    Key,
    Known,
    Repeats,
    as_copy,
    content_key,
)
from simdup_gui.engine.fingerprint.shingles import Sketch, shingle_set, sketches_of
from simdup_gui.engine.fingerprint.titles import clean_title, text_title
from simdup_gui.engine.methods import Signed
from simdup_gui.engine.options import ReadOptions, TextSettings
from simdup_gui.engine.read.decode import DecodeError, refused_early
from simdup_gui.engine.read.documents import document_kind
from simdup_gui.engine.read.html import PageTooComplex, html_to_text
from simdup_gui.engine.read.reader import ReadError, read_prefix
from simdup_gui.engine.read.walk import Entry, display_path, unchanged
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.text.codes import SPACE
from simdup_gui.engine.text.telltales import telltales
from simdup_gui.engine.text.tokens import Batch, forget_line_cuts

log = logging.getLogger(__name__)
REPEATS = Repeats()  # this process's outcomes by their bytes: a copy is not read twice


def forget_what_was_read() -> None:
    """Forget the outcomes and line cuts this process keeps: the next scan reads as a first one.

    For a benchmark timing a first reading in a process that has read the folder before.
    """
    REPEATS.clear()
    forget_line_cuts()


def fingerprint_file(entry: Entry, options: ReadOptions) -> Fingerprinted:
    """Read, decode, strip and fingerprint one file; errors become part of the record.

    Returns the record and, with TF-IDF weighting, the features (the fingerprint needs the
    whole folder's document frequencies first).
    """
    return fingerprint_batch([entry], options)[0]


def fingerprint_batch(entries: list[Entry], options: ReadOptions) -> list[Fingerprinted]:
    """:func:`fingerprint_file` over a few files, their texts analysed together.

    numpy's per-call cost is paid once per batch, and a worker process gets one task. A file
    whose bytes this process analysed before, in this batch or an earlier one, takes that
    outcome (``repeats.py``).
    """
    read = [_read_entry(entry, options) for entry in entries]
    first: dict[Key, int] = {}  # each text's first file in the batch
    texts = [
        item.text
        for n, item in enumerate(read)
        if item.text is not None and first.setdefault(item.key, n) == n
    ]
    analyses = iter(_analyses(texts, options.text))
    done: dict[Key, Known] = {}
    outcomes: list[Fingerprinted] = []
    for n, item in enumerate(read):
        if item.known is not None:
            outcomes.append(as_copy(item.known, item.record, item.notes))
        elif item.text is None:
            outcomes.append((item.record._replace(notes=tuple(item.notes)), None))
        elif first[item.key] == n:
            record, features = _fingerprinted(item.record, next(analyses), item.notes, options)
            done[item.key] = Known(record, record.notes[item.own :], features)
            if not record.error:
                REPEATS.put(item.key, done[item.key])
            outcomes.append((record, features))
        else:
            outcomes.append(as_copy(done[item.key], item.record, item.notes[: item.own]))
    return outcomes


def _analyze(texts: list[str], settings: TextSettings) -> list[Analysis] | list[Signed]:
    """The texts' analyses, or their signatures under a method of their own."""
    if settings.method.words:
        return analyze_many(texts, settings)
    return settings.method.signatures(texts)


def _analyses(texts: list[str], settings: TextSettings) -> list[Analysis | Signed | Exception]:
    """The texts' analyses; should the batch fail, each text alone, its failure its own."""
    try:
        return list(_analyze(texts, settings))
    except Exception:  # any text the libraries choke on stays one file's error
        out: list[Analysis | Signed | Exception] = []
        for text in texts:
            try:
                out.append(_analyze([text], settings)[0])
            except Exception as exc:
                log.warning("a text could not be fingerprinted", exc_info=True)
                out.append(exc)
        return out


class _Read(NamedTuple):
    """A file read: its record so far, its text to analyse (None: none) and its notes."""

    record: FileRecord
    text: str | None
    notes: list[str]
    key: Key | None = None  # its bytes' content_key, once read
    own: int = 0  # how many notes are the file's own (its name's, its read's), not its bytes'
    known: Known | None = None  # what the same bytes gave before (then no text to analyse)


def _read_entry(entry: Entry, options: ReadOptions) -> _Read:
    """Read, decode and strip one file, unless its bytes were analysed before.

    Returns its record so far, its text (None when there is nothing to fingerprint: the record
    says why, or the same bytes' outcome is known) and notes about it.
    """
    record = FileRecord(entry.path, entry.size, entry.mtime_ns, error=entry.error)
    notes: list[str] = []
    if record.error:
        return _Read(record, None, notes)
    if display_path(entry.path) != entry.path:
        notes.append("file name is not valid UTF-8")
    if options.skip_oversize and entry.size > options.max_bytes:
        return _Read(
            record._replace(error=f"larger than {options.max_bytes} bytes, skipped"), None, notes
        )
    try:
        document = document_kind(entry.path)
        refuse = None if document else refused_early  # a document's bytes are no text
        data, truncated = read_prefix(entry.path, options.max_bytes, refuse)
        if truncated:
            notes.append(f"only the first {options.max_bytes} bytes read")
        html_name = named_html(entry.path)
        key = content_key(
            data, cut=truncated, html_name=html_name, settings=options.text, document=document
        )
        known = REPEATS.get(key)
        if known is not None:
            record = record._replace(size=max(record.size, len(data)))
            return _Read(record, None, notes, key, len(notes), known)
        own = len(notes)
        extracted = extract_text(
            data, entry.path, boilerplate=options.text.boilerplate, cut=truncated
        )
    except (ReadError, DecodeError, PageTooComplex) as exc:
        return _Read(record._replace(error=str(exc)), None, notes)
    except Exception as exc:  # a library choking on one file stays that file's error
        log.warning("%s could not be read", display_path(entry.path), exc_info=True)
        error = f"could not be read: {type(exc).__name__}: {exc}"
        return _Read(record._replace(error=error), None, notes)
    record, text, notes = _with_text(record, extracted, data, notes)
    return _Read(record, text, notes, key, own)


def _with_text(
    record: FileRecord, extracted: Extracted, data: bytes, notes: list[str]
) -> tuple[FileRecord, str | None, list[str]]:
    """The record with what its text says, the text (None if there is none), and notes."""
    if extracted.replaced:
        notes.append(f"{extracted.replaced} undecodable bytes replaced")
    if extracted.template_kept:
        notes.append("page kept whole: what looked like site template was most of it")
    record = record._replace(
        size=max(record.size, len(data)),
        encoding=extracted.encoding,
        encoding_method=extracted.encoding_method,
        boilerplate=round(extracted.boilerplate_share, 3),
        title=extracted.title or text_title(extracted.text),
        **telltales(extracted.text)._asdict(),
    )
    if not extracted.text.strip():
        return record._replace(error="no text"), None, notes
    return record, extracted.text, notes


def fingerprint_rows(
    rows: list[tuple[str, str, str]], options: ReadOptions, html: bool
) -> list[Fingerprinted]:
    """:func:`fingerprint_batch` for a table's rows: (id, text, encoding), HTML if ``html``.

    Each record's ``path`` is the row's id; its size, the text's UTF-8 bytes. A text longer
    than ``options.max_bytes`` (in UTF-8) is cut there, with a note, as a file would be (or
    skipped with ``skip_oversize``).
    """
    read = []
    for key, text, encoding in rows:
        data = text.encode("utf-8", "surrogatepass")
        record = FileRecord(key, len(data))
        notes: list[str] = []
        if len(data) > options.max_bytes:
            if options.skip_oversize:
                error = f"larger than {options.max_bytes} bytes, skipped"
                read.append((record._replace(error=error), None, notes))
                continue
            data = data[: options.max_bytes]
            text = data.decode("utf-8", "ignore")  # a character cut in two is left out
            notes.append(f"only the first {options.max_bytes} bytes read")
        try:
            extracted = _row_text(text, encoding or "utf-8", html, options.text.boilerplate)
        except Exception as exc:  # a page the parser chokes on stays that row's error
            why = str(exc) if isinstance(exc, PageTooComplex) else f"{type(exc).__name__}: {exc}"
            read.append((record._replace(error=f"could not be read: {why}"), None, notes))
            continue
        read.append(_with_text(record, extracted, data, notes))
    analyses = iter(_analyses([text for _, text, _ in read if text is not None], options.text))
    return [
        _fingerprinted(record, next(analyses), notes, options)
        if text is not None
        else (record._replace(notes=tuple(notes), error=record.error or "no text"), None)
        for record, text, notes in read
    ]


def _row_text(text: str, encoding: str, html: bool, boilerplate: bool) -> Extracted:
    """A row's text as a file's would be extracted (already decoded from ``encoding``)."""
    if not html:
        return Extracted(text, encoding, "table", 0)
    page = html_to_text(text, boilerplate=boilerplate)
    return Extracted(
        page.text,
        encoding,
        "table",
        0,
        page.removed_share,
        page.kept_template,
        clean_title(page.title),
    )


def _fingerprinted(
    record: FileRecord,
    analysis: Analysis | Signed | Exception,
    notes: list[str],
    options: ReadOptions,
) -> Fingerprinted:
    """The record completed from the text's analysis (or the reason it failed)."""
    if isinstance(analysis, Exception):
        error = f"text could not be fingerprinted: {type(analysis).__name__}: {analysis}"
        return record._replace(error=error, notes=tuple(notes)), None
    if isinstance(analysis, Signed):
        signed = record._replace(
            features=analysis.items,
            notes=tuple(notes),
            signature=analysis.signature,
            fingerprint=analysis.fingerprint,
        )
        return signed, None
    features = analysis.features
    if features.is_short:
        notes.append(f"short text: {len(features)} distinct words")
    tfidf = options.text.whole_folder
    record = record._replace(
        features=len(features),
        notes=tuple(notes),
        sketch=analysis.sketch,
        lead=analysis.lead_fingerprint,
        lines=analysis.lines,
        passages=analysis.passages,
        terms=analysis.terms,
        fingerprint=None if tfidf else analysis.fingerprint,
    )
    return record, features if tfidf else None


def read_text(path: str, options: ReadOptions | None = None) -> str:
    """A file's plain text as the scan saw it (decoded, stripped), for showing it to a person.

    Raises:
        ReadError: the file cannot be read.
        DecodeError: the bytes are not text.
    """
    options = options or ReadOptions()
    data, cut = read_prefix(path, options.max_bytes)
    return extract_text(data, path, boilerplate=options.text.boilerplate, cut=cut).text


def fingerprint_now(options: ReadOptions) -> Callable[[str], int | None] | None:
    """How to take a file's fingerprint again as a scan with ``options`` did.

    For re-checking a file before acting on it. None with TF-IDF weights: a fingerprint then
    depends on the whole folder.
    """
    if options.text.whole_folder:
        return None

    def fingerprint(path: str) -> int | None:
        info = os.stat(path)
        return fingerprint_file(Entry(path, info.st_size, info.st_mtime_ns), options)[0].fingerprint

    return fingerprint


EXACT_CHARS = 200_000  # a longer text keeps its estimate: building its whole shingle set
# takes about 100 bytes a character (22 MB for 200,000; 1 GB for a 10 MB text)


class OwnText(NamedTuple):
    """A text's own shingles (its template lines left out) and its characters then."""

    shingles: Sketch  # every distinct hash, sorted; only the smallest SKETCH if not ``whole``
    chars: int  # not whitespace
    whole: bool


class TextShingles:
    """Files' whole shingle sets, their texts read again as the scan read them.

    For an exact check of a pair whose sketches alone cannot tell (``match/exact.py``), and a
    text's own shingles, its template lines left out (:meth:`own`). Gives None for a file that
    no longer yields its record's sketch (changed or gone since, or no file at all: a table's
    row) or cannot be read; a whole set, for one of over EXACT_CHARS characters. Keeps the
    last ``keep`` files' whole sets.
    """

    def __init__(self, files: Sequence[FileRecord], options: ReadOptions, keep: int = 256):
        self._files, self._options, self._keep = files, options, keep
        self._known: OrderedDict[int, Sketch | None] = OrderedDict()

    def __call__(self, file: int) -> Sketch | None:
        """File ``file``'s (an index into the files) shingle hashes, or None."""
        if file in self._known:
            self._known.move_to_end(file)
            return self._known[file]
        found = self._read(self._files[file])
        self._known[file] = found
        if len(self._known) > self._keep:
            self._known.popitem(last=False)
        return found

    def own(self, file: int, template: npt.NDArray[np.uint64]) -> OwnText | None:
        """File ``file``'s own shingles: its text without the lines hashed in ``template``."""
        record = self._files[file]
        text = self._text(record)
        if text is None:
            return None
        batch = Batch.normalized([text])
        if sketches_of(batch)[0].astype("<u8").tobytes() != record.sketch:
            return None  # changed since it was scanned
        own = Batch.of(without_lines(batch, template))
        whole = len(own.codes) <= EXACT_CHARS
        shingles = sketches_of(own, size=max(1, len(own.codes)) if whole else SKETCH)[0]
        chars = int(np.count_nonzero((own.flags & SPACE) == 0))
        return OwnText(shingles, chars, whole)

    def reading(self, file: int) -> Callable[[], str | None] | None:
        """How to read file ``file``'s text again as the scan read it (in any process).

        A call (picklable) that gives the text, or None: changed since (its size or time is not
        the record's), gone, or unreadable. None for a record with no text to read.
        """
        record = self._files[file]
        if not record.sketch or record.error:
            return None
        return partial(text_again, record.path, record.size, record.mtime_ns, self._options)

    def version(self, file: int) -> tuple[str, int, int, str]:
        """What tells file ``file``'s text: its path, size and time, and the reading's key."""
        record = self._files[file]
        return record.path, record.size, record.mtime_ns, self._options.key

    def _read(self, record: FileRecord) -> Sketch | None:
        if record.chars > EXACT_CHARS:
            return None
        text = self._text(record)
        if text is None:
            return None
        hashes = shingle_set(text)
        if hashes[:SKETCH].astype("<u8").tobytes() != record.sketch:
            return None
        return hashes

    def _text(self, record: FileRecord) -> str | None:
        """The record's file's text as the scan read it, or None (never one: a table's row)."""
        if not record.sketch or record.error:
            return None
        return _read_again(record.path, self._options)


def text_again(path: str, size: int, mtime_ns: int, options: ReadOptions) -> str | None:
    """A file's text as a scan with ``options`` read it, or None: changed since, gone, unreadable.

    Changed: its ``size`` or time is not the scan's (or it is no file at all: a table's row).
    """
    if not unchanged(path, size, mtime_ns):
        return None
    return _read_again(path, options)


def _read_again(path: str, options: ReadOptions) -> str | None:
    try:
        return read_text(path, options)
    except (ReadError, DecodeError, PageTooComplex):  # gone, or no file: a table's row
        return None
    except Exception:  # as when scanning: one file's trouble is that file's alone
        log.warning("%s could not be read again", display_path(path), exc_info=True)
        return None
