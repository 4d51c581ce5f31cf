from __future__ import annotations

import unicodedata

import numpy as np
import opencc
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from simdup_gui.engine.text.normalize import (
    _QUOTES,
    PHRASE_ONLY,
    _char_table,
    _to_simplified,
    has_cjk,
    local_forms,
    normalize,
)
from simdup_gui.engine.text.tokens import Batch


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


JOINING = st.sampled_from(
    [
        *("鐵路", "後來", "乾燥", "Ｂ超", "ＡＢ型", "髮型", "「引號」", "中文ß", "ΣΑΣ中", "歷史"),
        *("沈默", "反覆", "瞭解", "打坏", "藉口", "英哩", "甦醒", "衹得", "沈", "覆", "乾隆"),
        *("\u0b47\u0b3e", "\u0bc6\u0bbe", "\u0cc6\u0cc2", "\u0d46\u0d3e", "\u0dd9\u0dcf"),
        *("\u1025\u102e", "\u1b05\u1b35", "\u3131\u314f", "\u11a8", "\u1161", "\u0345"),
        *("…", "ς", "Σ", "İ", "ﬅ", "㍱", "\u2f00", "\u2033", "\x1c", "\u2028", "\xa0"),
    ]
)


@given(
    st.lists(
        st.lists(st.one_of(PIECES, JOINING, st.text(max_size=8)), max_size=10).map("".join),
        max_size=6,
    )
)
@example(["\u0b47\u0b3e", " ＡＢＣ ", "\u3000x\u3000", ""])
def test_character_forms_give_the_same_batch_as_normalize(texts: list[str]) -> None:
    """The compiled pass over each character's form equals normalize, text by text."""
    batch = Batch.normalized(texts)
    expected = Batch.of([normalize(text).strip() for text in texts])
    assert batch.codes.tolist() == expected.codes.tolist()
    assert batch.bounds.tolist() == expected.bounds.tolist()
    assert batch.flags.tolist() == expected.flags.tolist()


def test_every_character_form_is_its_normal_form() -> None:
    forms, lengths, traditional = local_forms()
    for code in np.flatnonzero(lengths[0]).tolist():
        folded, plain = ("".join(map(chr, forms[t, code, : lengths[t, code]])) for t in (0, 1))
        assert folded == normalize(chr(code)) or traditional[code], hex(code)
        assert folded == plain.casefold(), hex(code)
        assert not traditional[code] or has_cjk(plain), hex(code)
    # the compiled pass counts ASCII without looking: each character's form is one character
    assert (lengths[:, :128] == 1).all()
    assert not traditional[:128].any()


def test_every_ideograph_opencc_may_change_sends_its_text_to_opencc() -> None:
    """Those it changes alone, and those it changes in a phrase only; no other."""
    forms, lengths, traditional = local_forms()
    made = np.flatnonzero(lengths[1]).tolist()
    plain = {code: "".join(map(chr, forms[1, code, : lengths[1, code]])) for code in made}
    codes = [code for code in made if has_cjk(plain[code])]
    alone = [_to_simplified()(plain[code]) for code in codes]
    phrase_only = PHRASE_ONLY.get(opencc.__version__)
    if phrase_only is None:  # an OpenCC whose phrases are not known: every text converted
        assert traditional[codes].all()
        return
    changes = [
        plain[code] != after or bool(set(plain[code]) & set(phrase_only))
        for code, after in zip(codes, alone, strict=True)
    ]
    assert traditional[codes].tolist() == changes
    assert sum(changes) > 2_000  # (the traditional characters: some thousands)
    assert np.count_nonzero(traditional) == sum(changes)  # and no character but ideographs


PHRASES = ["沈默寡言", "反覆", "一目瞭然", "找藉口", "英哩", "甦醒", "衹得"]


@pytest.mark.parametrize("phrase", PHRASES)
def test_a_phrase_opencc_converts_though_its_characters_alone_stay(phrase: str) -> None:
    assert all(_to_simplified()(char) == char for char in phrase)
    assert _to_simplified()(phrase) != phrase  # (a phrase of its dictionary)
    texts = [f"他说：{phrase}。", "他说：沉默。"]
    batch = Batch.normalized(texts)
    assert batch.codes.tolist() == Batch.of([normalize(text) for text in texts]).codes.tolist()
    assert _to_simplified()(phrase) in normalize(texts[0])


def test_the_character_table_is_each_characters_own_nfkc_form() -> None:
    table = _char_table()
    for code in range(0x10000):
        form = "" if 0xD800 <= code < 0xE000 else unicodedata.normalize("NFKC", chr(code))
        one = code >= 0x80 and len(form) == 1
        assert table[code] == (ord(_QUOTES.get(form, form)) if one else code), hex(code)
