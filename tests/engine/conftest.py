"""What the engine's tests share: families of texts that share a template."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

WORDS = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动"
    "同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自"
    "二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日"
    "那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变"
    "条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总"
    "次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指"
    "几九区强放决西被干做必战先回则任取据处理"
)
HEADER = ["\\$1\t\\\\$2\\\t(\\$3)", "\\L'|\\n(^yu-1v'\\l'\\n(^lu+3n'", "STANDARD OPTIONS"]
HEADER += ["See the \\options manual entry for details on the standard options."]
FOOTER = [
    "[中文版维护人]",
    "寒蝉退士",
    "《中国 Linux 论坛 man 手册页翻译计划》:",
    "http://cmpp.linuxforum.net",
]
FOOTER += [
    "本页面中文版由中文 man 手册页计划提供。",
    "中文 man 手册页计划：https://github.com/man-pages-zh/manpages-zh",
]


def _sentence(rng: random.Random, length: int = 40) -> str:
    return "".join(rng.choice(WORDS) for _ in range(length)) + "。"


def _write_family(folder: Path, rng: random.Random) -> dict[str, str]:
    """A manual's family: pages sharing a header and footer, a stub, and copies of some."""
    texts = {}
    for page in range(8):
        own = [_sentence(rng, rng.randint(30, 80)) for _ in range(rng.randint(6, 14))]
        texts[f"page{page}"] = "\n".join([*HEADER, f"NAME\npage{page}", *own, *FOOTER])
    stub = [f"NAME\ncd - {_sentence(rng, 8)}", f"SYNOPSIS\ncd ?{_sentence(rng, 6)}?"]
    texts["stub"] = "\n".join([*HEADER, *stub, *FOOTER])
    texts["stub-copy"] = "\n".join(["转载自某论坛", *HEADER, *stub, *FOOTER])
    texts["page0-copy"] = "来源：网络\n" + texts["page0"]
    texts["page1-copy"] = texts["page1"].replace("。", "。 ", 3)
    for name, text in texts.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return texts


@pytest.fixture
def sentence() -> Callable[[random.Random, int], str]:
    """A random sentence of Chinese characters, of a length, from a random source."""
    return _sentence


@pytest.fixture
def write_family() -> Callable[[Path, random.Random], dict[str, str]]:
    """Write a manual's family of pages into a folder (see ``_write_family``)."""
    return _write_family
