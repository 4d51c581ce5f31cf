"""From a file's bytes to its features: decode, strip HTML, normalise, tokenize."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.decode import decode_bytes
from simdup_gui.engine.html import html_to_text, looks_like_html
from simdup_gui.engine.shingles import sketch_codes
from simdup_gui.engine.simhash import Features
from simdup_gui.engine.text import all_stopwords, normalize
from simdup_gui.engine.tokens import (
    TOKENIZERS,
    code_points,
    count_hashes,
    span_hashes,
    spans,
    token_hash,
)

HTML_EXTENSIONS = (".htm", ".html", ".xhtml", ".xml")
WEIGHTINGS = ("tf", "tf1.5", "tfidf")  # term frequency, its 1.5th power, TF-IDF
PIPELINE_VERSION = 6  # bump when any step below changes what a fingerprint is


@dataclass(frozen=True)
class TextSettings:
    """Everything that changes a fingerprint (and so keys the cache)."""

    tokenizer: str = "words"
    stopwords: bool = True
    weighting: str = "tf1.5"
    boilerplate: bool = True

    def __post_init__(self) -> None:
        """Reject unknown tokenizers and weightings."""
        if self.tokenizer not in TOKENIZERS:
            raise ValueError(
                f"tokenizer must be one of {sorted(TOKENIZERS)}, not {self.tokenizer!r}"
            )
        if self.weighting not in WEIGHTINGS:
            raise ValueError(f"weighting must be one of {WEIGHTINGS}, not {self.weighting!r}")

    @property
    def tf_power(self) -> float:
        """The power term frequencies are raised to for the simhash weights."""
        return 1.5 if self.weighting == "tf1.5" else 1.0

    @property
    def version(self) -> str:
        """A short digest of the settings and the pipeline version."""
        text = repr((PIPELINE_VERSION, sorted(asdict(self).items())))
        return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


@dataclass(frozen=True)
class Extracted:
    """A document's plain text and how it was read."""

    text: str
    encoding: str
    encoding_method: str
    replaced: int
    boilerplate_share: float = 0.0  # of an HTML page's text, dropped as site template


def extract_text(data: bytes, path: str, *, boilerplate: bool = True) -> Extracted:
    """Decode bytes and strip HTML when the file is HTML (by extension or content)."""
    decoded = decode_bytes(data)
    text = decoded.text
    if not (path.lower().endswith(HTML_EXTENSIONS) or looks_like_html(text)):
        return Extracted(text, decoded.encoding, decoded.method, decoded.replaced)
    page = html_to_text(text, boilerplate=boilerplate)
    return Extracted(
        page.text, decoded.encoding, decoded.method, decoded.replaced, page.removed_share
    )


LEAD_CHARS = 300  # the opening a truncated copy keeps: its own fingerprint finds truncations


@dataclass(frozen=True)
class Analysis:
    """What fingerprinting needs from a text, from one normalising and tokenizing pass."""

    features: Features
    sketch: bytes  # bottom-k shingle sketch, little-endian uint64s
    lead: Features  # features of the words within the opening LEAD_CHARS characters


def analyze(text: str, settings: TextSettings) -> Analysis:
    """A plain text's weighted features, shingle sketch and opening's features."""
    normalized = normalize(text)
    codes = code_points(normalized)
    starts, ends = spans(settings.tokenizer, normalized, codes)
    hashes = span_hashes(codes, starts, ends)
    if settings.stopwords:
        stop = stopword_hashes()
        keep = stop[np.searchsorted(stop, hashes) % len(stop)] != hashes
        hashes, ends = hashes[keep], ends[keep]
    return Analysis(
        Features(*count_hashes(hashes)),
        sketch_codes(codes).astype("<u8").tobytes(),
        Features(*count_hashes(hashes[ends <= LEAD_CHARS])),
    )


def text_features(text: str, settings: TextSettings) -> Features:
    """The weighted features of a plain text: its words (less stopwords) and their counts."""
    return analyze(text, settings).features


@cache
def stopword_hashes() -> npt.NDArray[np.uint64]:
    """The token hashes of the Chinese and English stopwords, sorted."""
    return np.unique(np.array([token_hash(w) for w in all_stopwords()], dtype=np.uint64))
