"""From a file's bytes to its features: decode, strip HTML, normalise, tokenize, fingerprint.

Texts are analysed in batches (:func:`analyze_many`): one pass of numpy calls for all of them.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.arrays import distinct
from simdup_gui.engine.fingerprint.lines import lines_of
from simdup_gui.engine.fingerprint.shingles import sketches_of
from simdup_gui.engine.fingerprint.simhash import Features, simhash_many
from simdup_gui.engine.fingerprint.titles import clean_title
from simdup_gui.engine.options import TextSettings
from simdup_gui.engine.read.decode import decode_bytes
from simdup_gui.engine.read.documents import document_kind, read_document
from simdup_gui.engine.read.html import html_to_text, looks_like_html
from simdup_gui.engine.reuse.passages import passage_fingerprints
from simdup_gui.engine.reuse.retold import kept_terms
from simdup_gui.engine.text.normalize import all_stopwords
from simdup_gui.engine.text.telltales import telltales
from simdup_gui.engine.text.tokens import Batch, count_per_text, joined, span_hashes, spans, text_of

HTML_EXTENSIONS = (".htm", ".html", ".xhtml", ".xml")


@dataclass(frozen=True)
class Extracted:
    """A document's plain text and how it was read."""

    text: str
    encoding: str
    encoding_method: str
    replaced: int
    boilerplate_share: float = 0.0  # of an HTML page's text, dropped as site template
    template_kept: bool = False  # what looked like template was most of the page: kept
    title: str = ""  # a page's own title (a text's is its first line: ``titles.text_title``)


def named_html(path: str) -> bool:
    """Whether the file's name says it is HTML (its content may say so too)."""
    return path.lower().endswith(HTML_EXTENSIONS)


def extract_text(
    data: bytes, path: str, *, boilerplate: bool = True, cut: bool = False
) -> Extracted:
    """A file's text: decoded, HTML stripped; a document's by its reader.

    HTML by extension or content; Word, PDF, OpenDocument, EPUB and RTF documents by their
    endings (``read/documents.py``).

    ``cut``: the file's first bytes only (``decode.decode_bytes``).

    Raises:
        DecodeError: the bytes are no text; DocumentError: the document gives none.
    """
    kind = document_kind(path)
    if kind:
        document = read_document(data, kind, cut=cut)
        text, title = composed(document.text), clean_title(document.title)
        return Extracted(text, kind, document.reader, 0, title=title)
    decoded = decode_bytes(data, cut=cut)
    text = composed(decoded.text)
    if not (named_html(path) or looks_like_html(text)):
        return Extracted(text, decoded.encoding, decoded.method, decoded.replaced)
    page = html_to_text(text, boilerplate=boilerplate)
    return Extracted(
        composed(page.text),
        decoded.encoding,
        decoded.method,
        decoded.replaced,
        page.removed_share,
        page.kept_template,
        clean_title(page.title),
    )


def composed(text: str) -> str:
    """The text in Unicode's composed form (NFC): ``é`` one character however it was saved.

    A Mac's file names and some editors decompose accents (``e`` and a combining mark); the
    same words must be the same characters, or a share, a count, a choice would move.
    """
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


LEAD_CHARS = 150  # the opening a truncated copy keeps (its own fingerprint finds truncations):
# a short article cut to a third still holds it (300 found half of such cuts, 150 four in five)


@dataclass(frozen=True)
class Analysis:
    """What fingerprinting needs from a text, from one normalising and tokenizing pass."""

    features: Features
    sketch: bytes  # bottom-k shingle sketch, little-endian uint64s
    lead: Features  # features of the words within the opening LEAD_CHARS characters
    fingerprint: int  # simhash of the features with TF weights (to the settings' power)
    lead_fingerprint: int  # the same for the opening
    lines: bytes  # the text's lines by hash (``lines.py``)
    passages: bytes  # its passage fingerprints (``reuse/passages.py``)
    terms: bytes  # its terms (``reuse/retold.py``): who may have retold whom


def analyze(text: str, settings: TextSettings) -> Analysis:
    """A plain text's weighted features, shingle sketch and opening's features."""
    return analyze_many([text], settings)[0]


def analyze_many(texts: list[str], settings: TextSettings) -> list[Analysis]:
    """:func:`analyze` for a batch of texts, most of the work done once for all of them."""
    if not texts:
        return []
    batch = Batch.normalized(texts)
    starts, ends = spans(settings.tokenizer, batch)
    hashes, owners = span_hashes(batch.codes, starts, ends), text_of(batch.bounds, starts)
    opening = ends - batch.bounds[owners] <= LEAD_CHARS
    count, power = len(texts), settings.tf_power
    features = _features(hashes, owners, count, power, settings.stopwords)
    leads = _features(hashes[opening], owners[opening], count, power, settings.stopwords)
    return [
        Analysis(
            feats,
            sketch.astype("<u8").tobytes(),
            lead,
            fingerprint,
            lead_fingerprint,
            *kept,
        )
        for (feats, fingerprint), sketch, (lead, lead_fingerprint), *kept in zip(
            features,
            sketches_of(batch),
            leads,
            lines_of(batch),
            passage_fingerprints(batch),
            kept_terms(batch),
            strict=True,
        )
    ]


_WARM_UP_PAGE = (
    "<html><body><nav><a>首页</a></nav><p>Ｆｕｌｌ width, 鐵路 and “quotes”.</p></body></html>"
)


def warm_up(settings: TextSettings) -> None:
    """Load what reading and analysing need, so that no batch waits for it.

    That is the compiled kernels, jieba's dictionary, the traditional-to-simplified table and
    the width table: about a second in all, paid once per process (or before a fork).
    """
    text = extract_text(_WARM_UP_PAGE.encode(), "warm-up.html").text
    telltales(text)
    analyze_many([text], settings)


def _features(
    hashes: npt.NDArray[np.uint64],
    owners: npt.NDArray[np.int64],
    count: int,
    power: float,
    drop_stopwords: bool,
) -> list[tuple[Features, int]]:
    """Each text's features (distinct hashes and counts, stopwords dropped) and TF simhash."""
    dropped = stopword_hashes() if drop_stopwords else np.empty(0, np.uint64)
    distinct, counts, texts = count_per_text(hashes, owners, dropped)
    weights = counts if power == 1.0 else counts**power
    fingerprints = simhash_many(distinct, weights, texts, count).tolist()
    cuts = np.searchsorted(texts, np.arange(count + 1)).tolist()
    return [
        (Features(distinct[lo:hi], counts[lo:hi]), fingerprint)
        for lo, hi, fingerprint in zip(cuts[:-1], cuts[1:], fingerprints, strict=True)
    ]


def text_features(text: str, settings: TextSettings) -> Features:
    """The weighted features of a plain text: its words (less stopwords) and their counts."""
    return analyze(text, settings).features


@cache
def stopword_hashes() -> npt.NDArray[np.uint64]:
    """The token hashes of the Chinese and English stopwords, sorted (all in one call)."""
    codes, bounds = joined(sorted(all_stopwords()))
    return distinct(span_hashes(codes, bounds[:-1], bounds[1:]))
