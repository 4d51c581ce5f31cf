from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.engine.kernels import plain_kernels
from simdup_gui.engine.text import telltales as telltales_module
from simdup_gui.engine.text.codes import NOTICE_WORDS, TELL_RARE
from simdup_gui.engine.text.telltales import (
    NOTICE_LINE,
    converted_chars,
    language_of,
    notice_chars,
    telltales,
)


def _ideograph(c: str) -> bool:
    code = ord(c)
    return (
        0x3400 <= code < 0x4DC0
        or 0x4E00 <= code < 0xA000
        or 0xF900 <= code < 0xFB00
        or 0x20000 <= code < 0x40000
    )


def _full_alnum(c: str) -> bool:
    return "\uff10" <= c <= "\uff19" or "\uff21" <= c <= "\uff3a" or "\uff41" <= c <= "\uff5a"


def _half_alnum(c: str) -> bool:
    return c.isascii() and c.isalnum()


def _plain_converted_chars(text: str) -> int:
    """The module's definition, one character at a time."""
    count = 0
    for n, c in enumerate(text):
        before = text[n - 1] if n else ""
        after = text[n + 1] if n + 1 < len(text) else ""
        if _ideograph(c):
            try:
                c.encode("gb2312")
            except UnicodeEncodeError:
                count += 1
        count += c == "\ufffd"
        count += c in ",;:!?" and (_ideograph(before or "a") or _ideograph(after or "a"))
        count += bool(before) and (
            (_full_alnum(c) and _half_alnum(before)) or (_half_alnum(c) and _full_alnum(before))
        )
    if sum(map(_ideograph, text)) < 0.05 * len(text):
        count += sum(c in "，；：！？。" for c in text)
    return count


_ALPHABET = st.sampled_from(
    [*"ab1 ,;:!?\n，；：！？。中国人铁鐵銂镕\ufffd", "\uff41", "\uff11", "\U00020001", "\ud800"]
)


@settings(max_examples=300, deadline=None)
@given(st.text(_ALPHABET, max_size=40), st.booleans())
def test_converted_chars_is_its_definition(text: str, plain: bool) -> None:
    """The compiled loop and its numpy twin (the plain form) both."""
    with plain_kernels(plain):
        assert converted_chars(text) == _plain_converted_chars(text)
        assert telltales(text) == (
            converted_chars(text),
            notice_chars(text),
            language_of(text),
            len("".join(text.split())),
        )


def _plain_language(text: str) -> str:
    """The module's definition of a text's language, one character at a time."""
    if not text:
        return ""
    ideographs = sum(map(_ideograph, text))
    ascii_letters = sum(c.isascii() and c.isalpha() for c in text)
    letters = ideographs + ascii_letters
    if letters and ideographs >= 0.1 * letters:
        return "zh"
    return "en" if ascii_letters and ascii_letters >= 0.5 * len(text.split()) else "other"


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        st.sampled_from(
            [*"ab1 ,中国\t\n\x0b\x0c\x1c\x1f\x85\xa0\u3000\u2028\u2003\u200b", "\U00020001"]
        ),
        max_size=40,
    )
)
def test_the_language_is_its_definition(text: str) -> None:
    """Its word count is ``str.split``'s, over every kind of whitespace (and ``\\u200b``, none)."""
    for plain in (False, True):
        with plain_kernels(plain):
            assert language_of(text) == _plain_language(text)
            assert telltales(text).chars == len("".join(text.split()))


def test_the_spaces_are_every_character_python_calls_whitespace() -> None:
    import sys

    spaces = {chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()}
    assert spaces == set(telltales_module._SPACES)


def test_the_rare_ideographs_are_those_gb2312_cannot_write() -> None:
    classes = telltales_module._classes()
    for code in range(0x10000):
        if not _ideograph(chr(code)):
            assert not classes[code] & TELL_RARE, hex(code)
            continue
        try:
            chr(code).encode("gb2312")
            rare = False
        except UnicodeEncodeError:
            rare = True
        assert bool(classes[code] & TELL_RARE) == rare, hex(code)


def test_the_notice_words_fold_is_each_characters_own_lower_case() -> None:
    fold = telltales_module._notice_words().fold
    for code in range(0x10000):
        lower = "" if 0xD800 <= code < 0xE000 else chr(code).lower()
        one = len(lower) == 1 and ord(lower) < 0x10000
        assert fold[code] == (ord(lower) if one else code), hex(code)
    assert fold[0x10000] == 0x10000  # other planes' entry


def test_what_a_conversion_leaves_is_counted_and_an_original_has_none() -> None:
    assert converted_chars("铁路部门今天表示，春运期间将增开列车。") == 0
    assert converted_chars("A plain English sentence, with commas; and 2026.") == 0
    assert converted_chars("鐵路部门") == 1  # a traditional form in simplified text
    assert converted_chars("铁路,部门") == 1  # ASCII comma against Chinese
    assert converted_chars("the ｆine print") == 1  # full-width letter in a word
    assert converted_chars("commas， in English") == 1
    assert converted_chars("two lines\nhere") == 0  # however the file ended its lines


def test_notices_are_short_lines_that_read_like_one() -> None:
    text = "\n".join(
        [
            "本文转载自《城市晚报》",
            "春运期间将增开列车，" * 20,  # article text, however long: not a notice
            "Copyright 2026 Example News. All rights reserved.",
            "来源：" + "很长的一段正文" * 30,  # a long line is article text
        ]
    )
    assert notice_chars(text) == len("本文转载自《城市晚报》") + len(
        "Copyright 2026 Example News. All rights reserved."
    )
    assert notice_chars("An article about trains.\nIt has two lines.") == 0
    reposted = "This article was reposted from the web. All rights belong to its author."
    assert notice_chars(f"An article about trains.\n{reposted}") == len(reposted)
    padded = "\u3000" * 4 + "Copyright " + "x" * (NOTICE_LINE - 10) + "  "  # stripped, 120
    assert notice_chars(f"text\n{padded}\nmore text") == len(padded)
    assert notice_chars(f"text\n{padded.strip()}y\nmore text") == 0  # 121: article text
    assert len("来源：" + "很长的一段正文" * 30) > NOTICE_LINE


LINE_BREAKS = st.sampled_from(["\n", "\n", "\n", "\r\n", "\r", "\x0b", "\x85", "\u2028"])


@settings(deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from(NOTICE_WORDS)
            | st.sampled_from(NOTICE_WORDS).map(str.title)
            | st.text("aBcXyZİ 中文，。:/\t\u3000\xa0\U00020001", max_size=24),
            max_size=12,
        ).map("".join),
        max_size=6,
    ),
    LINE_BREAKS,
    st.booleans(),
)
def test_notice_lines_are_those_the_words_match_in_any_case(
    lines: list[str], end: str, plain: bool
) -> None:
    """The compiled pass (and the plain form's) against the definition: the pattern, ignoring
    case, line by line (lines ended by any break ``str.splitlines`` knows; İ lower-cases to
    two characters; lines of up to 288 characters, so some are too long to count)."""
    text = end.join(lines)
    pattern = re.compile(telltales_module._NOTICE.pattern, re.IGNORECASE)
    wanted = sum(
        len(line)
        for line in text.splitlines()
        if len(line.strip()) <= NOTICE_LINE and pattern.search(line)
    )
    with plain_kernels(plain):
        assert notice_chars(text) == wanted
