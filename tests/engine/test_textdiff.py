"""Differences between two texts: what is left outside the passages is the same on both sides."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simdup_gui.engine.text import textdiff
from simdup_gui.engine.text.textdiff import _units, diff_hunks

SENTENCES = st.sampled_from(
    [
        "春运期间将增开列车。",
        "旅客可以网上购票！",
        "The lamp is lit.",
        "Tickets cost five dollars?",
        "\n",
    ]
)


def _outside(text: str, spans: list[tuple[int, int]]) -> list[str]:
    """The text's units outside the given ranges."""
    kept, at = [], 0
    for lo, hi in sorted(spans):
        kept.append(text[at:lo])
        at = max(at, hi)
    kept.append(text[at:])
    return _units(" ".join(kept))[0]


@pytest.mark.parametrize("limit", [textdiff.UNIT_LIMIT, 4])  # whole texts, and sentence by sentence
@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(SENTENCES, max_size=30), st.lists(SENTENCES, max_size=30))
def test_text_outside_the_passages_is_the_same(
    monkeypatch: pytest.MonkeyPatch, limit: int, a_parts: list[str], b_parts: list[str]
) -> None:
    monkeypatch.setattr(textdiff, "UNIT_LIMIT", limit)
    a, b = "".join(a_parts), "".join(b_parts)
    hunks = diff_hunks(a, b)
    for (l0, l1), (r0, r1) in hunks:
        assert 0 <= l0 <= l1 <= len(a)
        assert 0 <= r0 <= r1 <= len(b)
    assert _outside(a, [h[0] for h in hunks]) == _outside(b, [h[1] for h in hunks])
    assert [h[0] for h in hunks] == sorted(h[0] for h in hunks)


def test_a_long_text_is_diffed_sentence_by_sentence() -> None:
    sentences = [f"第{n}句话讲了春运期间增开的第{n}趟列车。" for n in range(3000)]
    a = "".join(sentences)
    b = "".join(s.replace("列车", "火车") if n % 500 == 0 else s for n, s in enumerate(sentences))
    hunks = diff_hunks(a, b)
    assert len(hunks) == 6
    assert all(a[l0:l1] == "列" and b[r0:r1] == "火" for (l0, l1), (r0, r1) in hunks)
