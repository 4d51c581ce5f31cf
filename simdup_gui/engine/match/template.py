r"""Template: the lines many texts of a scan share that are not otherwise copies of each other.

A line (``fingerprint/lines.py``) found in TEMPLATE_TEXTS or more texts of a scan is shared
material when those texts are not copies of each other: a site's header or footer, a manual's
macro residue and translator's credits, a legal notice, a quoted passage. Texts linked by a
pair at least the floor alike count as one (a story and its reposts share its lines, and those
are its own), so what counts is how many different texts hold the line, as a search engine
counts a word's documents. Shared lines count for nothing when two texts are compared: a text
that is TEMPLATE_SHARE or more of them is measured by its own lines (``default_measure``).

>>> from simdup_gui.engine.fingerprint.lines import lines_of
>>> from simdup_gui.engine.text.tokens import Batch
>>> pages = [f"Site header\nStory {n} of its own.\nSite footer" for n in range(3)]
>>> lines = lines_of(Batch.normalized([*pages, "Site header\nA stub."]))
>>> template = shared_lines(lines, Pairs.empty())
>>> len(template), template_shares(lines, template).round(2).tolist()
(2, [0.57, 0.57, 0.57, 0.62])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.fingerprint.lines import line_hashes, line_lengths, line_values
from simdup_gui.engine.match.groups import components
from simdup_gui.engine.records import Pairs

TEMPLATE_TEXTS = 3  # a line in this many different texts (copies counted once) is template
TEMPLATE_SHARE = 0.1  # a text this much template is measured by its own lines
U64 = npt.NDArray[np.uint64]


def shared_lines(lines: Sequence[bytes], copies: Pairs) -> U64:
    """The hashes of the lines in TEMPLATE_TEXTS or more different texts, sorted.

    ``lines`` are each text's line values (a record's ``lines``), ``copies`` the pairs of texts
    (by position) that are copies of each other: a set of copies counts as one text.
    """
    label = np.arange(len(lines), dtype=np.int64)
    for part in components(len(lines), copies):
        label[part] = part[0]
    values = [line_hashes(line_values(kept)) for kept in lines]
    counts = np.fromiter(map(len, values), np.int64, len(values))
    if not counts.sum():
        return np.empty(0, np.uint64)
    return counted_lines(np.concatenate(values), np.repeat(label, counts))


def counted_lines(hashes: U64, owners: npt.NDArray[np.int64]) -> U64:
    """The ``hashes`` found with TEMPLATE_TEXTS or more ``owners`` (labels of texts), sorted."""
    order = np.lexsort((owners, hashes))
    hashes, owners = hashes[order], owners[order]
    new = np.concatenate(([True], (hashes[1:] != hashes[:-1]) | (owners[1:] != owners[:-1])))
    hashes = hashes[new]  # each line once per text
    starts = np.flatnonzero(np.concatenate(([True], hashes[1:] != hashes[:-1])))
    texts = np.diff(np.append(starts, len(hashes)))
    return hashes[starts[texts >= TEMPLATE_TEXTS]]


def template_shares(lines: Sequence[bytes], template: U64) -> npt.NDArray[np.float64]:
    """The share of each text's characters (of its lines kept) in ``template`` lines."""
    if not len(template) or not lines:
        return np.zeros(len(lines), np.float64)
    values = line_values(b"".join(lines))
    ends = np.cumsum([len(kept) // 8 for kept in lines])
    starts = ends - [len(kept) // 8 for kept in lines]
    lengths = np.concatenate(([0], np.cumsum(line_lengths(values))))
    shared = np.where(np.isin(line_hashes(values), template), line_lengths(values), 0)
    held = np.concatenate(([0], np.cumsum(shared)))
    whole = (lengths[ends] - lengths[starts]).astype(np.float64)
    inside = (held[ends] - held[starts]).astype(np.float64)
    return np.divide(inside, whole, out=np.zeros(len(lines)), where=whole > 0)
