"""From a file's bytes to its features: decode, strip HTML, normalise, tokenize."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import asdict, dataclass

import numpy as np

from simdup_gui.engine.decode import decode_bytes
from simdup_gui.engine.html import html_to_text, looks_like_html
from simdup_gui.engine.shingles import sketch
from simdup_gui.engine.simhash import Features, token_hash
from simdup_gui.engine.text import TOKENIZERS, all_stopwords, is_word, normalize

HTML_EXTENSIONS = (".htm", ".html", ".xhtml", ".xml")
WEIGHTINGS = ("tf", "tf1.5", "tfidf")  # term frequency, its 1.5th power, TF-IDF
PIPELINE_VERSION = 5  # bump when any step below changes what a fingerprint is


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


_SKIP = 0  # stands for "not a feature" (punctuation, spaces, stopwords) in the token caches
_TOKEN_CACHES: dict[bool, dict[str, int]] = {False: {}, True: {}}  # keyed by "drop stopwords"
_TOKEN_CACHE_LIMIT = 1 << 20


def _feature_hash(token: str, stopwords: frozenset[str]) -> int:
    if token in stopwords or not is_word(token):
        return _SKIP
    return token_hash(token) or 1  # 0 is reserved for _SKIP (a 2**-64 chance)


LEAD_CHARS = 300  # the opening a truncated copy keeps: its own fingerprint finds truncations


@dataclass(frozen=True)
class Analysis:
    """What fingerprinting needs from a text, from one normalising pass."""

    features: Features
    sketch: bytes  # bottom-k shingle sketch, little-endian uint64s
    lead: Features  # features of the opening LEAD_CHARS characters


def analyze(text: str, settings: TextSettings) -> Analysis:
    """A plain text's weighted features, shingle sketch and opening's features."""
    normalized = normalize(text)
    return Analysis(
        _features(normalized, settings),
        sketch(normalized).astype("<u8").tobytes(),
        _features(normalized[:LEAD_CHARS], settings),
    )


def text_features(text: str, settings: TextSettings) -> Features:
    """The weighted features of a plain text: its words (less stopwords) and their counts."""
    return _features(normalize(text), settings)


def _features(normalized: str, settings: TextSettings) -> Features:
    """Features of normalised text.

    Tokens are counted first (in C); each distinct token's hash, or the fact that it is not a
    feature, is remembered across documents, since a folder's articles share most words.
    """
    counts = Counter(TOKENIZERS[settings.tokenizer](normalized))
    cache = _TOKEN_CACHES[settings.stopwords]
    missing = set(counts).difference(cache)  # looks each token up in the dict, in C
    if missing:
        if len(cache) + len(missing) > _TOKEN_CACHE_LIMIT:
            cache.clear()
            missing = set(counts)
        dropped = all_stopwords() if settings.stopwords else frozenset()
        cache.update((token, _feature_hash(token, dropped)) for token in missing)
    hashes = np.fromiter(map(cache.__getitem__, counts), dtype=np.uint64, count=len(counts))
    weights = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
    keep = hashes != _SKIP
    return Features(hashes[keep], weights[keep])
