"""The per-byte loops of reading HTML, compiled by numba.

The rule for kernel modules is written once, in ``text/token_kernels.py``.

:func:`break_before_tags` runs on the markup as written, before it is parsed.
:func:`read_page` runs on the markup Lexbor writes back from the parsed tree (its ``html``),
which is regular: every element that is not void is closed, in order; text is escaped as
``&amp; &lt; &gt; &nbsp;``; attribute values are double-quoted, with ``&quot;`` and the same
escapes; comments are ``<!--…-->``; only raw-text elements (``xmp``, ``noembed`` …) hold
unescaped text, up to their end tag. So one scan reads every element's text and attributes
as the tree holds them, and the tree is never walked from Python. (One thing the markup does
not tell: a MathML element named like a void HTML element, such as ``<source>``, is read as
void, so its text counts as its parent's. The page's text is the same.)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from simdup_gui.engine.arrays import Bytes, Flags, Index
from simdup_gui.engine.read.html_codes import HIDDEN, RAW, VOID, words

Index2D = npt.NDArray[np.int64]

# The columns of read_page's table of elements
TAG, PARENT, LAST, START, END, TOTAL, LINKED, LINKS, NAME_AT, NAME, NAME_END = range(11)
COLUMNS = 11

_SLOTS = 256  # of the hash table of tag names
_LT, _GT, _AMP, _SLASH, _BANG, _QUOTE, _EQUALS, _DASH = 60, 62, 38, 47, 33, 34, 61, 45
_NBSP = 160
_JIT = {"cache": True, "nogil": True}
_ESCAPES = words("amp;", "lt;", "gt;", "quot;", "nbsp;")  # the names after "&"
_ESCAPED = np.array([_AMP, _LT, _GT, _QUOTE, _NBSP], np.int64)
_CLASS_AND_ID = words("class", "id")


@njit(**_JIT)
def _same(
    data: Bytes, start: int, end: int, other: Bytes, other_start: int, other_end: int
) -> bool:
    """Whether ``data[start:end]`` is ``other[other_start:other_end]`` (compared in place)."""
    if end - start != other_end - other_start or end > len(data):
        return False
    for offset in range(end - start):  # noqa: SIM110 (a loop numba compiles)
        if data[start + offset] != other[other_start + offset]:
            return False
    return True


@njit(**_JIT)
def _is_word(data: Bytes, start: int, end: int, table: tuple[Bytes, Index], word: int) -> bool:
    """Whether ``data[start:end]`` is the ``word``-th of a table of words (``html.words``)."""
    spelled, bounds = table
    return _same(data, start, end, spelled, bounds[word], bounds[word + 1])


@njit(**_JIT)
def _slot(data: Bytes, start: int, end: int) -> int:
    """Where a name starts looking in the hash table of :func:`_hash_table`."""
    if end <= start:
        return 0
    return (31 * (end - start) + 7 * int(data[start]) + int(data[end - 1])) % _SLOTS


@njit(**_JIT)
def _hash_table(spelled: Bytes, bounds: Index) -> Index:
    """A hash table of words (open addressing; -1 marks an empty slot)."""
    table = np.full(_SLOTS, -1, np.int64)
    for word in range(len(bounds) - 1):
        slot = _slot(spelled, bounds[word], bounds[word + 1])
        while table[slot] >= 0:
            slot = (slot + 1) % _SLOTS
        table[slot] = word
    return table


@njit(**_JIT)
def _word_index(
    data: Bytes, start: int, end: int, spelled: Bytes, bounds: Index, table: Index
) -> int:
    """Which of the words ``data[start:end]`` is, or -1."""
    slot = _slot(data, start, end)
    while table[slot] >= 0:
        word = table[slot]
        if _same(data, start, end, spelled, bounds[word], bounds[word + 1]):
            return word
        slot = (slot + 1) % _SLOTS
    return -1


@njit(**_JIT)
def _names_tag(
    data: Bytes, at: int, spelled: Bytes, bounds: Index, table: Index, name: Bytes
) -> bool:
    """Whether the tag opening or closing at ``data[at]`` (a ``<``) is one of the words.

    Its name (letters and digits, any case) must be followed by whitespace, ``/`` or ``>``.
    ``name`` is room for the name in lower case, as long as the longest word.
    """
    start = at + 1
    if start < len(data) and data[start] == _SLASH:
        start += 1
    end = start
    while end < len(data):
        char = int(data[end])
        if 65 <= char <= 90:
            char += 32
        elif not (48 <= char <= 57 or 97 <= char <= 122):
            break
        if end - start == len(name):
            return False  # longer than any of the words
        name[end - start] = char
        end += 1
    if end == start or end >= len(data):
        return False
    after = data[end]
    if not (after == 32 or 9 <= after <= 13 or after == 47 or after == 62):  # "/", ">"
        return False
    return _word_index(name, 0, end - start, spelled, bounds, table) >= 0


@njit(**_JIT)
def break_before_tags(data: Bytes, spelled: Bytes, bounds: Index) -> Bytes:
    """UTF-8 markup with a line break put before every tag named by the words (lower case)."""
    table = _hash_table(spelled, bounds)
    name = np.empty(np.max(bounds[1:] - bounds[:-1]), np.uint8)
    breaks = np.empty(len(data), np.int64)
    count = 0
    for at in range(len(data)):
        if data[at] == _LT and _names_tag(data, at, spelled, bounds, table, name):
            breaks[count] = at
            count += 1
    out = np.empty(len(data) + count, np.uint8)
    done = 0
    for index in range(count):
        at = breaks[index]
        out[done + index : at + index] = data[done:at]
        out[at + index] = 10  # "\n"
        done = at
    out[done + count :] = data[done:]
    return out


@njit(**_JIT)
def _find(data: Bytes, at: int, byte: int) -> int:
    """Where ``byte`` next occurs from ``at``, or the end of the data."""
    while at < len(data) and data[at] != byte:
        at += 1
    return at


@njit(**_JIT)
def _ends_name(byte: int) -> bool:
    """Whether a tag's or attribute's name ends before ``byte``: space, "/" or ">"."""
    return byte == 32 or 9 <= byte <= 13 or byte == 47 or byte == 62


@njit(**_JIT)
def _escape(data: Bytes, at: int) -> tuple[int, int]:
    """The character the escape at ``data[at]`` (a ``&``) stands for, and its length."""
    spelled, bounds = _ESCAPES
    for escape in range(len(_ESCAPED)):
        length = bounds[escape + 1] - bounds[escape]
        if _same(data, at + 1, at + 1 + length, spelled, bounds[escape], bounds[escape + 1]):
            return _ESCAPED[escape], 1 + length
    return _AMP, 1


@njit(**_JIT)
def _copy_text(
    data: Bytes, at: int, stop: int, unescape: bool, out: Bytes, done: int
) -> tuple[int, int, int]:
    """Copy ``data[at:stop]`` to ``out[done:]``, escapes decoded if asked.

    Returns where the copy ends in ``out``, its characters, and its visible characters:
    those that are not spaces, tabs, line breaks or no-break spaces.
    """
    chars = visible = 0
    while at < stop:
        byte, length = np.int64(data[at]), 1
        if unescape and byte == _AMP:
            byte, length = _escape(data, at)
        at += length
        if byte == _NBSP and length > 1:
            out[done], out[done + 1] = 0xC2, 0xA0
            done += 2
            chars += 1
            continue
        out[done] = byte
        done += 1
        if byte & 0xC0 == 0x80:
            continue  # inside a character
        chars += 1
        space = byte == 32 or byte == 10 or byte == 9
        if not (space or (byte == 0xC2 and at < stop and data[at] == 0xA0)):
            visible += 1
    return done, chars, visible


@njit(**_JIT)
def _raw_text_end(data: Bytes, at: int, name: int, name_end: int) -> int:
    """Where the raw text from ``at`` ends: at the end tag named ``data[name:name_end]``."""
    while True:
        at = _find(data, at, _LT)
        end = at + 2 + name_end - name
        if end >= len(data):
            return len(data)
        if (
            data[at + 1] == _SLASH
            and _same(data, at + 2, end, data, name, name_end)
            and _ends_name(data[end])
        ):
            return at
        at += 1


@njit(**_JIT)
def _close(elements: Index2D, element: int, chars: int, count: int, anchor: int) -> None:
    """End an element: its text and its descendants are known; add its sums to its parent's."""
    elements[element, END], elements[element, LAST] = chars, count - 1
    parent = elements[element, PARENT]
    if parent < 0:
        return
    total = elements[element, TOTAL]
    elements[parent, TOTAL] += total
    elements[parent, LINKED] += elements[element, LINKED]
    elements[parent, LINKS] += elements[element, LINKS]
    if elements[element, TAG] == anchor and total > 0:
        elements[parent, LINKED] += total
        elements[parent, LINKS] += 1


@njit(**_JIT)
def _after_comment(data: Bytes, at: int) -> int:
    """Where the comment (or other ``<!…>``) starting at ``data[at]`` ends."""
    at += 2
    if at + 1 < len(data) and data[at] == _DASH and data[at + 1] == _DASH:
        at += 2
        while at + 2 < len(data) and not (
            data[at] == _DASH and data[at + 1] == _DASH and data[at + 2] == _GT
        ):
            at += 1
        at += 2
    return _find(data, at, _GT) + 1


@njit(**_JIT)
def _name_end(data: Bytes, at: int) -> int:
    """Where the tag or attribute name from ``at`` ends."""
    while at < len(data) and not _ends_name(data[at]):
        at += 1
    return at


@njit(**_JIT)
def _attributes(data: Bytes, at: int) -> tuple[int, int, int, int, int]:
    """Where the start tag's attributes from ``at`` end, and its class and id values (or -1)."""
    class_at = class_end = id_at = id_end = -1
    while at < len(data) and data[at] != _GT:
        if _ends_name(data[at]):
            at += 1
            continue
        name = at
        at += 1  # a name is at least one character, even "="
        while at < len(data) and not _ends_name(data[at]) and data[at] != _EQUALS:
            at += 1
        name_end = at
        if at + 1 < len(data) and data[at] == _EQUALS and data[at + 1] == _QUOTE:
            value = at + 2
            at = _find(data, value, _QUOTE)
            if _is_word(data, name, name_end, _CLASS_AND_ID, 0):
                class_at, class_end = value, at
            elif _is_word(data, name, name_end, _CLASS_AND_ID, 1):
                id_at, id_end = value, at
            at += 1
    return at + 1, class_at, class_end, id_at, id_end


@njit(**_JIT)
def read_page(
    data: Bytes,
    spelled: Bytes,
    bounds: Index,
    flags: Flags,
    named: npt.NDArray[np.bool_],
    anchor: int,
) -> tuple[Bytes, Index2D, Bytes]:
    """The text and elements of serialised markup (see the module's docstring).

    The tags of interest are words (see ``html.words``; the other tags are -1), with their
    ``flags`` (``VOID``, ``RAW``, ``HIDDEN``); for the ``named`` ones, the class and id are
    collected; ``anchor`` is the word ``a``. Returns the text (UTF-8), the table of elements
    in document order, and the collected names: a line ``class id`` for each element that
    has either.

    Each element's row holds its ``TAG``, its ``PARENT`` (-1 for the first), its ``LAST``
    descendant, the ``START`` and ``END`` of its text (in characters of the text), its
    ``TOTAL`` visible characters, those inside its links (``LINKED``), its ``LINKS`` with text
    and where its line of names starts (``NAME_AT``, in characters; -1 for none).
    """
    size, table = len(data), _hash_table(spelled, bounds)
    most = 1 + np.count_nonzero(data == _LT)
    elements = np.empty((most, COLUMNS), np.int64)
    stack = np.empty(most, np.int64)
    text, found = np.empty(size, np.uint8), np.empty(size + 2 * most, np.uint8)
    depth = count = done = chars = found_size = found_chars = 0
    hidden = -1  # the stack depth of the outermost open element that hides its content
    at = 0
    while at < size:
        if data[at] != _LT:  # text
            stop = _find(data, at, _LT)
            if hidden < 0:
                done, copied, visible = _copy_text(data, at, stop, True, text, done)
                chars += copied
                if depth:
                    elements[stack[depth - 1], TOTAL] += visible
            at = stop
        elif at + 1 < size and data[at + 1] == _BANG:
            at = _after_comment(data, at)
        elif at + 1 < size and data[at + 1] == _SLASH:  # an end tag: close up to its element
            start = at + 2
            at = _name_end(data, start)
            level = depth - 1
            while level >= 0 and not _same(
                data,
                start,
                at,
                data,
                elements[stack[level], NAME],
                elements[stack[level], NAME_END],
            ):
                level -= 1
            while level >= 0 and depth > level:  # an end tag of no open element is ignored
                depth -= 1
                _close(elements, stack[depth], chars, count, anchor)
            if depth <= hidden:
                hidden = -1
            at = _find(data, at, _GT) + 1
        else:  # a start tag
            element, start = count, at + 1
            count += 1
            at = _name_end(data, start)
            tag = _word_index(data, start, at, spelled, bounds, table)
            elements[element, TAG], elements[element, START] = tag, chars
            elements[element, NAME], elements[element, NAME_END] = start, at
            elements[element, PARENT] = stack[depth - 1] if depth else -1
            elements[element, TOTAL] = elements[element, LINKED] = elements[element, LINKS] = 0
            elements[element, NAME_AT] = -1
            name_end = at
            at, class_at, class_end, id_at, id_end = _attributes(data, at)
            tag_flags = flags[tag] if tag >= 0 else 0
            shown = hidden < 0 and not tag_flags & HIDDEN
            if shown and tag >= 0 and named[tag] and (class_at >= 0 or id_at >= 0):
                elements[element, NAME_AT] = found_chars
                found_size, copied, _ = _copy_text(
                    data, class_at, class_end, True, found, found_size
                )
                found[found_size] = 32  # "class id", a line each
                found_size, copied_id, _ = _copy_text(
                    data, id_at, id_end, True, found, found_size + 1
                )
                found[found_size] = 10
                found_size += 1
                found_chars += copied + copied_id + 2
            if tag_flags & RAW:
                stop = _raw_text_end(data, at, start, name_end)
                if shown:
                    done, copied, visible = _copy_text(data, at, stop, False, text, done)
                    chars += copied
                    elements[element, TOTAL] = visible
                at = stop if stop == size else _find(data, stop, _GT) + 1
            if tag_flags & (RAW | VOID):
                _close(elements, element, chars, count, anchor)
                continue
            if hidden < 0 and not shown:
                hidden = depth
            stack[depth] = element
            depth += 1
    while depth:  # unclosed at the end (never, in serialised markup)
        depth -= 1
        _close(elements, stack[depth], chars, count, anchor)
    return text[:done], elements[:count], found[:found_size]
