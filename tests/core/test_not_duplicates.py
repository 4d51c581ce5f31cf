"""The not-duplicates list: merged under a lock, written whole, a damaged one refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.cli import main
from simdup_gui.core import not_duplicates
from simdup_gui.core.not_duplicates import NotDuplicatesError, change, load, pair_of


def test_a_change_is_merged_with_what_another_writer_saved(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    assert load(path) == set()  # none yet: empty
    mine = change(add=[("b", "a")], path=path)  # the app loaded the list, then ...
    theirs = change(add=[("c", "d")], path=path)  # ... the command line adds a pair
    assert mine == {("a", "b")}
    assert theirs == load(path) == {("a", "b"), ("c", "d")}
    assert change(remove=[("a", "b")], path=path) == {("c", "d")}  # a removal keeps the rest
    assert change(clear=True, path=path) == set() == load(path)
    assert [p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")] == ["list.json"]


@pytest.mark.parametrize(
    "damage",
    [b'[["a", "b"],]', b"{}", b'[["a"]]', b'[["a", 1]]', b"\xff\xfe", b'[["a", "b"]'],
)
def test_a_damaged_list_is_refused_and_left_as_it_is(tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / "list.json"
    path.write_bytes(damage)
    with pytest.raises(NotDuplicatesError, match="damaged") as caught:
        load(path)
    assert "\n" not in str(caught.value)
    with pytest.raises(NotDuplicatesError):
        change(add=[("x", "y")], path=path)  # never read as empty, so never overwritten
    assert path.read_bytes() == damage


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.text(max_size=6), st.text(max_size=6)), max_size=6),
    st.lists(st.tuples(st.text(max_size=6), st.text(max_size=6)), max_size=6),
)
def test_changes_agree_with_plain_set_arithmetic(
    tmp_path_factory: pytest.TempPathFactory,
    first: list[tuple[str, str]],
    then: list[tuple[str, str]],
) -> None:
    """Any names (surrogates of non-UTF-8 bytes too) come back as they went in."""
    path = tmp_path_factory.mktemp("list") / "list.json"
    change(add=first, path=path)
    expected = {pair_of(*p) for p in first} - {pair_of(*p) for p in then}
    assert change(remove=then, path=path) == expected == load(path)


def test_thirty_simdup_ignore_add_at_once_keep_all_thirty(tmp_path: Path) -> None:
    """Each command merges its pair with the others' under the lock: none is lost."""
    code = "import sys; from simdup_gui.cli import main; sys.exit(main(sys.argv[1:]))"
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", code, "ignore", "add", str(tmp_path / f"a{n}"), "b"],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for n in range(30)
    ]
    errors = [run.communicate()[1] for run in runs]
    assert [run.returncode for run in runs] == [0] * 30, errors
    assert len(load()) == 30
    assert [p.name for p in not_duplicates.default_path().parent.glob("*.tmp")] == []


def test_the_command_line_refuses_a_damaged_list_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = not_duplicates.default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[["/a", "/b"],]', encoding="utf-8")
    for argv in (
        ["ignore", "add", "/x", "/y"],
        ["ignore", "list"],
        ["scan", str(tmp_path)],
        ["reuse", str(tmp_path)],
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        assert "damaged" in err, err
    assert path.read_text(encoding="utf-8") == '[["/a", "/b"],]'
    os.replace(path, tmp_path / "aside.json")  # moved aside: a new list starts
    assert main(["ignore", "add", "/x", "/y"]) == 0
    assert json.loads(path.read_text(encoding="utf-8")) == [["/x", "/y"]]
