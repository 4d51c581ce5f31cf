"""From a file's bytes to its features: decode, strip HTML, normalise, tokenize."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import asdict, dataclass

from simdup_gui.engine.decode import decode_bytes
from simdup_gui.engine.html import html_to_text, looks_like_html
from simdup_gui.engine.simhash import Features
from simdup_gui.engine.text import TOKENIZERS, all_stopwords, is_word, normalize

HTML_EXTENSIONS = (".htm", ".html", ".xhtml", ".xml")
WEIGHTINGS = ("tf", "tfidf")
PIPELINE_VERSION = 2  # bump when any step below changes what a fingerprint is


@dataclass(frozen=True)
class TextSettings:
    """Everything that changes a fingerprint (and so keys the cache)."""

    tokenizer: str = "words"
    stopwords: bool = True
    weighting: str = "tf"
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
    was_html: bool
    boilerplate_share: float = 0.0


def extract_text(data: bytes, path: str, *, boilerplate: bool = True) -> Extracted:
    """Decode bytes and strip HTML when the file is HTML (by extension or content)."""
    decoded = decode_bytes(data)
    text = decoded.text
    if not (path.lower().endswith(HTML_EXTENSIONS) or looks_like_html(text)):
        return Extracted(text, decoded.encoding, decoded.method, decoded.replaced, False)
    page = html_to_text(text, boilerplate=boilerplate)
    return Extracted(
        page.text, decoded.encoding, decoded.method, decoded.replaced, True, page.removed_share
    )


def text_features(text: str, settings: TextSettings) -> Features:
    """The weighted features of a plain text: its words (less stopwords) and their counts."""
    counts = Counter(TOKENIZERS[settings.tokenizer](normalize(text)))
    dropped = all_stopwords() if settings.stopwords else frozenset()
    for token in [t for t in counts if t in dropped or not is_word(t)]:
        del counts[token]
    return Features.from_counts(counts)
