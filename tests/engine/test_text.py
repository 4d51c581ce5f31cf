from __future__ import annotations

import unicodedata

from hypothesis import example, given
from hypothesis import strategies as st

from simdup_gui.engine.text import _QUOTES, _to_simplified, has_cjk, normalize


def reference_normalize(text: str) -> str:
    """The definition: NFKC, then traditional to simplified, straight quotes, case folded."""
    text = unicodedata.normalize("NFKC", text)
    for curly, straight in _QUOTES.items():
        text = text.replace(curly, straight)
    if has_cjk(text):
        text = _to_simplified()(text)
    return text.casefold()


PIECES = st.sampled_from(
    [
        "ＡＢＣ",
        "，",
        "１２",
        "\u3000",
        "ﬁ",
        "①",
        "e\u0301",
        "\u0301",
        "가",
        "\u1100\u1161",
        "“鐵路”",
        "‘x’",
        "Å",
        "\u212b",
        "ß",
        "\U0001d400",
        "\U00020000",
        "\uf900",
        "½",
        " ",
        "abc",
    ]
)


@given(st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=12).map("".join))
@example("a\u0301\u0323")  # combining marks in non-canonical order
@example("\u1100\u1161\u11a8")  # Hangul jamo that compose into one syllable
def test_fast_normalize_equals_the_definition(text: str) -> None:
    assert normalize(text) == reference_normalize(text)


def test_normalize_folds_width_case_quotes_and_traditional_chinese() -> None:
    assert normalize("ＡＢＣ，１２３ “鐵路” ﬁne") == 'abc,123 "铁路" fine'
