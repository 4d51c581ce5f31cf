from __future__ import annotations

import codecs
import random

import pytest

from simdup_gui.engine.read.decode import DecodeError, decode_bytes

ZH = "春运首日铁路发送旅客三百万人次，各地火车站提前增开售票窗口。" * 4
ZH_TRAD = "春運首日鐵路發送旅客三百萬人次，各地火車站提前增開售票窗口。" * 4


@pytest.mark.parametrize(
    ("data", "encoding", "method"),
    [
        (ZH.encode("utf-8"), "utf-8", "utf-8"),
        (codecs.BOM_UTF8 + ZH.encode("utf-8"), "utf-8-sig", "bom"),
        (ZH.encode("gbk"), "gb18030", "gb18030"),
        ("𠀀𠀁 GB18030 四字节字符 ".encode("gb18030") + ZH.encode("gb18030"), "gb18030", "gb18030"),
        (ZH_TRAD.encode("big5"), "big5", None),
        (ZH.encode("utf-16"), "utf-16", "bom"),
        (ZH.encode("utf-16-le"), "utf-16-le", "utf-16 without BOM"),
        ("plain english text\n".encode("utf-16-be") * 5, "utf-16-be", "utf-16 without BOM"),
        (codecs.BOM_UTF32_LE + ZH.encode("utf-32-le"), "utf-32", "bom"),
    ],
    ids=[
        "utf-8",
        "utf-8-bom",
        "gbk",
        "gb18030-4byte",
        "big5",
        "utf-16-bom",
        "utf-16-le",
        "utf-16-be",
        "utf-32-bom",
    ],
)
def test_encodings(data: bytes, encoding: str, method: str | None) -> None:
    decoded = decode_bytes(data)
    assert decoded.encoding == encoding
    assert "春" in decoded.text or "english" in decoded.text or "GB18030" in decoded.text
    if method:
        assert decoded.method == method


def test_meta_charset_is_used_when_the_bytes_agree() -> None:
    page = f'<html><head><meta charset="gb2312"></head><body><p>{ZH}</p></body></html>'
    decoded = decode_bytes(page.encode("gbk"))
    assert (decoded.encoding, decoded.method) == ("gb18030", "declared")


def test_mislabelled_meta_charset_is_overruled() -> None:
    page = f'<html><head><meta charset="gbk"></head><body><p>{ZH}</p></body></html>'
    decoded = decode_bytes(page.encode("utf-8"))
    assert decoded.encoding == "utf-8"
    assert ZH in decoded.text


def test_line_endings_are_normalised() -> None:
    assert decode_bytes(b"a\r\nb\rc\n").text == "a\nb\nc\n"


def test_a_few_bad_bytes_are_replaced_and_counted() -> None:
    data = ("English text " * 200).encode() + b"\xff\xfe\xfa" + b" more text"
    decoded = decode_bytes(data)
    assert decoded.replaced >= 1
    assert decoded.text.startswith("English text")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty file"),
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "PNG image"),
        (b"abc\x00def\x00\x01\x02" * 100, "NUL"),
        (bytes(range(128, 256)) * 50, "undecodable"),
        (random.Random(1).randbytes(8192), "binary|undecodable"),
        (b"hello\x00world " * 100, "NUL"),
    ],
    ids=["empty", "png", "nul", "high-bytes", "random", "text-with-nul"],
)
def test_bad_bytes_raise_a_clear_error(data: bytes, message: str) -> None:
    with pytest.raises(DecodeError, match=message):
        decode_bytes(data)


@pytest.mark.parametrize(
    "codec", ["punycode", "rot13", "base64", "zlib_codec", "uu", "idna", "nonsense"]
)
def test_a_page_naming_a_codec_that_is_no_text_encoding_is_still_read(codec: str) -> None:
    from simdup_gui.engine.fingerprint.pipeline import extract_text

    page = f'<html><head><meta charset="{codec}"></head><body><p>hello 文章</p></body></html>'
    assert "hello 文章" in extract_text(page.encode(), "a.html").text


def test_a_tag_with_a_hundred_thousand_attributes_is_read_in_linear_time() -> None:
    from simdup_gui.engine.read.html import html_to_text

    attributes = " ".join(f'a{n}="v{n}"' for n in range(100_000))
    page = f"<html><body><div {attributes}>the article</div><p>more</p></body></html>"
    assert html_to_text(page).text.split() == ["the", "article", "more"]
    html_to_text(page[: len(page) // 2])  # a read cut short inside the tag: no hang either


def test_a_nul_past_the_sample_is_dropped_not_a_reason_to_guess_another_encoding() -> None:
    from simdup_gui.engine.read.decode import SAMPLE_BYTES

    text = ("An English line of an article. " * 3000)[: SAMPLE_BYTES + 100]
    decoded = decode_bytes(text.encode() + b"\x00tail" + "，中文".encode())
    assert decoded.encoding == "utf-8"
    assert decoded.text == text + "tail，中文"
    assert decoded.replaced == 1
