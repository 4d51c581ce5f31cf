"""The engine on a Dask cluster: a LocalCluster of two workers, started and stopped by the tests.

The cluster's pairs against ``all_pairs``, ``scan --dask`` and ``table`` against the plain scan,
and bad input: one-line errors, exit 2, nothing left running.
"""

from __future__ import annotations

import csv
import io
import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import psutil
import pytest

from simdup_gui.cli import main
from simdup_gui.engine.cluster import client as cluster
from simdup_gui.engine.cluster import table as cluster_table
from simdup_gui.engine.cluster.client import cluster_client
from simdup_gui.engine.cluster.components import cluster_components
from simdup_gui.engine.cluster.grouping import cluster_groups
from simdup_gui.engine.cluster.pairs import cluster_all_pairs, scatter_parts
from simdup_gui.engine.cluster.table import scan_table_on_cluster
from simdup_gui.engine.fingerprint.file_records import read_text
from simdup_gui.engine.match.groups import components
from simdup_gui.engine.match.index import all_pairs
from simdup_gui.engine.options import RunOptions, ScanOptions
from simdup_gui.engine.read import tables
from simdup_gui.engine.records import Pairs
from simdup_gui.engine.resources import resource
from simdup_gui.engine.table_scan import scan_table

pytest.importorskip("distributed", exc_type=ImportError)  # (no fcntl: SIMDUP_POSIXLESS)
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

SAMPLE = resource("sample")


@pytest.fixture(scope="module")
def client() -> Iterator[object]:
    with cluster_client("local:2") as started:
        yield started
    assert not workers_left()  # the workers are gone


def children() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


def workers_left(before: set[int] = frozenset()) -> list[psutil.Process]:  # type: ignore[assignment]
    """Children not in ``before`` alive 10 s on (multiprocessing's tracker excepted)."""
    children = [
        p
        for p in psutil.Process().children(recursive=True)
        if p.pid not in before and "resource_tracker" not in " ".join(p.cmdline())
    ]
    _, alive = psutil.wait_procs(children, timeout=10)
    return [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out, err), out.getvalue(), err.getvalue()


def with_copies(seed: int, n: int) -> np.ndarray:
    """``n`` fingerprints: random ones, near copies of them, and exact copies."""
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 2**64, max(1, n // 3), dtype=np.uint64)
    flips = np.zeros(len(base), np.uint64)
    for _ in range(int(rng.integers(1, 9))):
        flips |= np.uint64(1) << rng.integers(0, 64, len(base)).astype(np.uint64)
    return rng.permutation(np.concatenate([base, base ^ flips, base]))[:n]


def assert_same(got, want) -> None:  # type: ignore[no-untyped-def]
    assert np.array_equal(got.i, want.i)
    assert np.array_equal(got.j, want.j)
    assert np.array_equal(got.distance, want.distance)


@pytest.mark.parametrize("n", [0, 1, 2])
@pytest.mark.parametrize("k", range(9))
def test_the_clusters_pairs_of_none_one_or_two(client, n: int, k: int) -> None:  # type: ignore[no-untyped-def]
    fps = np.array([5, 5 ^ 0b111][:n], np.uint64)
    assert_same(cluster_all_pairs(client, scatter_parts(client, fps, 2), n, k), all_pairs(fps, k))


# Random cases from numpy, not Hypothesis: the cluster's threads in this process draw from
# ``random`` while a strategy would, which Hypothesis takes for the strategy's own use (a flaky
# deprecation error).
@pytest.mark.parametrize("case", range(25))
def test_the_clusters_pairs_are_all_pairs(client, case: int) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(case)
    n, k, parts = int(rng.integers(3, 401)), int(rng.integers(0, 9)), int(rng.integers(1, 6))
    fps = with_copies(int(rng.integers(0, 2**32)), n)
    got = cluster_all_pairs(client, scatter_parts(client, fps, parts), len(fps), k)
    assert_same(got, all_pairs(fps, k))


def test_the_clusters_pairs_of_many_fingerprints(client) -> None:  # type: ignore[no-untyped-def]
    fps = with_copies(1, 600_000)  # several reducers per table group
    for k in (3, 8):
        got = cluster_all_pairs(client, scatter_parts(client, fps, 3), len(fps), k)
        assert_same(got, all_pairs(fps, k))


@pytest.mark.parametrize("case", range(20))
def test_the_clusters_components_are_the_single_machines(client, case: int) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(case)
    n, reducers = int(rng.integers(1, 301)), int(rng.integers(1, 5))
    edges = rng.integers(0, 300, (int(rng.integers(1, 401)) if case else 0, 2)).tolist()
    i = np.array([a % n for a, b in edges if a % n != b % n], np.int64)
    j = np.array([b % n for a, b in edges if a % n != b % n], np.int64)
    a, b = np.minimum(i, j), np.maximum(i, j)
    wanted = np.arange(n)
    for part in components(n, Pairs(a, b, np.zeros(len(a), np.uint8))):
        wanted[part] = min(part)
    cut = max(1, len(a) // 2)
    parts = client.scatter([(a[:cut], b[:cut]), (a[cut:], b[cut:])], hash=False)
    assert np.array_equal(cluster_components(client, parts, n, reducers), wanted)


def generated_folder(root: Path) -> Path:
    folder = root / "articles"
    shutil.copytree(SAMPLE, folder)
    rng = np.random.default_rng(3)
    words = ["春运", "返乡", "火车", "river", "lighthouse", "茶园", "新闻", "编辑", "记者"]
    for n in range(80):
        story = "，".join(rng.choice(words, 120)) + "。"
        (folder / f"s{n}.txt").write_text(story, encoding="utf-8")
        if n % 4 == 0:
            (folder / f"s{n}-copy.txt").write_text(story.replace("春运", "春节", 1), "utf-8")
    return folder


@pytest.mark.parametrize("method", ["default", "minhash"])
def test_scan_on_the_cluster_is_the_plain_scan(tmp_path: Path, method: str) -> None:
    folder = generated_folder(tmp_path)
    before = children()
    plain = run("scan", str(folder), "--no-cache", "--method", method)
    on_cluster = run("scan", str(folder), "--no-cache", "--method", method, "--dask", "local:2")
    assert plain[0] == on_cluster[0] == 0
    assert on_cluster[1] == plain[1]  # the same report, byte for byte
    assert "groups" in on_cluster[2]
    assert not workers_left(before)


def test_a_folder_with_more_files_than_the_client_takes_is_grouped_on_the_cluster(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster_table, "CLIENT_RECORDS", 10)  # the sample's 13 are too many
    monkeypatch.setattr(cluster_table, "GROUPING_ROWS", 40)  # and parts of 40 files
    folder = generated_folder(tmp_path)
    grouped = []
    monkeypatch.setattr(
        cluster_table, "cluster_groups", lambda *a: grouped.append(1) or cluster_groups(*a)
    )
    plain = run("scan", str(folder), "--no-cache", "--reference", str(folder / "zh"))
    on_cluster = run(
        "scan", str(folder), "--no-cache", "--reference", str(folder / "zh"), "--dask", "local:2"
    )
    assert grouped == [1]
    assert on_cluster[0] == plain[0] == 0
    assert on_cluster[1] == plain[1]


def texts_table(folder: Path, target: Path) -> None:
    files = sorted(p for p in folder.rglob("*.*") if p.is_file())
    table = pa.table(
        {
            "id": [str(p.relative_to(folder)) for p in files],
            "text": [read_text(str(p)) for p in files],
        }
    )
    pq.write_table(table, target)


def groups_by_id(report: str) -> set[frozenset[str]]:
    groups: dict[str, set[str]] = {}
    for row in csv.DictReader(report.splitlines()):
        if row["group_id"]:
            groups.setdefault(row["group_id"], set()).add(row["path"])
    return {frozenset(g) for g in groups.values()}


def test_a_table_of_a_folders_texts_groups_as_the_folder_does(tmp_path: Path) -> None:
    folder = generated_folder(tmp_path)
    texts_table(folder, tmp_path / "texts.parquet")
    code, folder_report, _ = run("scan", str(folder), "--no-cache", "--jobs", "1")
    assert code == 0
    as_paths = {
        frozenset(str(Path(p).relative_to(folder)) for p in g) for g in groups_by_id(folder_report)
    }
    table = ("table", str(tmp_path / "texts.parquet"), "--text-column", "text", "--id-column", "id")
    code, local, _ = run(*table)
    assert code == 0
    assert groups_by_id(local) == as_paths
    code, on_cluster, err = run(*table, "--dask", "local:2", "--parquet", str(tmp_path / "out"))
    assert code == 0, err
    assert on_cluster == local
    groups = pq.read_table(tmp_path / "out" / "groups.parquet").to_pylist()
    assert {
        frozenset(r["id"] for r in groups if r["group_id"] == g)
        for g in {r["group_id"] for r in groups}
    } == as_paths
    records = pq.read_table(tmp_path / "out" / "records.parquet")
    assert records.num_rows == len(list(folder.rglob("*.*")))
    assert pq.read_table(tmp_path / "out" / "pairs.parquet").column_names == ["a", "b", "distance"]


def test_grouping_on_the_cluster_gives_the_single_machines_groups(  # type: ignore[no-untyped-def]
    client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write_family
) -> None:
    monkeypatch.setattr(tables, "ROWS_PER_BATCH", 16)  # several parts, so every shuffle moves
    monkeypatch.setattr(cluster_table, "ROWS_PER_BATCH", 16)
    monkeypatch.setattr(cluster_table, "GROUPING_ROWS", 48)
    folder = generated_folder(tmp_path)
    (folder / "family").mkdir()  # and a family of pages with a stub: template to count
    write_family(folder / "family", random.Random(42))
    for n in range(40):  # and many near copies of one story: runs longer than the window
        story = "春运返乡的旅客在火车站排队，记者报道了现场的情况。" * 20
        (folder / f"many{n}.txt").write_text(story + f"第{n}次转载。", encoding="utf-8")
    texts_table(folder, tmp_path / "texts.parquet")
    table = [str(tmp_path / "texts.parquet")]
    here = scan_table(table, "text", ScanOptions(run=RunOptions(jobs=1)), id_column="id")
    there = scan_table_on_cluster(client, table, "text", id_column="id", group_on_cluster=True)

    def shown(result) -> list[list[tuple[object, ...]]]:  # type: ignore[no-untyped-def]
        return [
            [
                (result.files[m.file].path, m.distance, round(m.similarity, 9), m.contained)
                for m in g.members
            ]
            for g in result.groups
        ]

    assert shown(there) == shown(here)
    assert len(there.groups) >= 3
    assert max(len(g) for g in there.groups) >= 40
    assert all(not f.sketch for f in there.files)  # the client kept light records only


def test_json_lines_tables_and_globs(tmp_path: Path) -> None:
    rows = ['{"text": "同一篇文章，讲春运返乡的故事。" }'] * 2 + [
        '{"text": null}',
        '{"text": "别的"}',
    ]
    (tmp_path / "a.jsonl").write_text("\n".join(rows[:2]) + "\n", encoding="utf-8")
    (tmp_path / "b.jsonl").write_text("\n".join(rows[2:]) + "\n", encoding="utf-8")
    code, out, err = run("table", str(tmp_path / "*.jsonl"), "--text-column", "text")
    assert code == 0, err
    rows_out = list(csv.DictReader(out.splitlines()))
    assert {r["path"] for r in rows_out if r["group_id"] == "1"} == {"a.jsonl#0", "a.jsonl#1"}
    assert [r["error"] for r in rows_out if r["path"] == "b.jsonl#0"] == ["no text"]
    assert ": 1 group, 1 duplicate, 1 without text (" in err.splitlines()[-1]


def test_binary_texts_are_decoded_as_files_are(tmp_path: Path) -> None:
    story = "春运返乡的旅客在火车站排队，记者报道了现场的情况。" * 8
    table = pa.table(
        {"text": pa.array([story.encode("gbk"), story.encode("utf-8"), b"\x00\x01"], pa.binary())}
    )
    pq.write_table(table, tmp_path / "t.parquet")
    code, out, _ = run("table", str(tmp_path / "t.parquet"), "--text-column", "text")
    assert code == 0
    rows = {r["path"]: r for r in csv.DictReader(out.splitlines())}
    assert rows["t.parquet#0"]["group_id"] == rows["t.parquet#1"]["group_id"] == "1"
    assert rows["t.parquet#2"]["error"] == "no text"
    assert rows["t.parquet#0"]["encoding"].lower() in ("gbk", "gb18030")  # as it came
    assert rows["t.parquet#1"]["encoding"] == "utf-8"


def test_a_tables_ids_are_checked_and_written_safely(tmp_path: Path) -> None:
    """A BOM is allowed; a missing or repeated id is refused; a NUL in an id is escaped."""
    story = "春运返乡的旅客在火车站排队，记者报道了现场的情况。" * 8
    lines = [json.dumps({"id": f"a\x00{n}", "text": story}) for n in range(2)]
    (tmp_path / "t.jsonl").write_text("\ufeff" + "\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(
        "table", str(tmp_path / "t.jsonl"), "--text-column", "text", "--id-column", "id"
    )
    assert code == 0, err
    paths = {r["path"] for r in csv.DictReader(out.splitlines())}
    assert paths == {"a\\x000", "a\\x001"}
    assert "\x00" not in out
    for rows, message in (
        ([{"id": "x", "text": "a"}, {"id": "x", "text": "b"}], "the id 'x' is given to two rows"),
        ([{"id": None, "text": "a"}], "line 1 has no id"),
        ([{"id": "", "text": "a"}], "line 1 has no id"),
    ):
        (tmp_path / "t.jsonl").write_text("\n".join(map(json.dumps, rows)), encoding="utf-8")
        code, _, err = run(
            "table", str(tmp_path / "t.jsonl"), "--text-column", "text", "--id-column", "id"
        )
        assert code == 2
        assert message in err
        assert err.count("\n") == 1


def test_a_tables_cell_is_read_up_to_max_mb(tmp_path: Path) -> None:
    """A cell longer than --max-mb is cut there, with the note a file gets."""
    story = "春运返乡的旅客在火车站排队，记者报道了现场的情况。"
    rows = [{"text": story * 40_000}, {"text": story * 40_000 + "尾声"}]  # 3 MB each
    (tmp_path / "t.jsonl").write_text("\n".join(map(json.dumps, rows)), encoding="utf-8")
    code, out, err = run(
        "table", str(tmp_path / "t.jsonl"), "--text-column", "text", "--max-mb", "1"
    )
    assert code == 0, err
    found = list(csv.DictReader(out.splitlines()))
    assert all(r["notes"].startswith("only the first 1048576 bytes read") for r in found), found
    assert all(int(r["chars"]) <= 1048576 // 3 + 1 for r in found)
    assert found[0]["group_id"] == found[1]["group_id"] == "1"


@pytest.mark.parametrize(
    ("make", "argv", "message"),
    [
        (None, ["table", "{d}/t.parquet", "--text-column", "body"], "no column 'body'"),
        ("garbage", ["table", "{d}/t.parquet", "--text-column", "text"], "not a Parquet file"),
        ("empty", ["table", "{d}/t.parquet", "--text-column", "text"], "no rows"),
        (None, ["table", "{d}/t.csv", "--text-column", "text"], "not a Parquet or JSON Lines"),
        (None, ["table", "{d}/none*.jsonl", "--text-column", "text"], "no file matches"),
        (None, ["scan", "{d}", "--dask", "local:0"], "local:N takes 1 to 256 workers"),
        (None, ["scan", "{d}", "--dask", "host:1"], "not local:N nor a scheduler address"),
        (None, ["scan", "{d}", "--dask", "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler"),
        (None, ["scan", "{d}", "--dask", "tcp://localhost:abc"], "not a scheduler address"),
        (None, ["scan", "{d}", "--dask", "tcp://[::1"], "not a scheduler address"),
        (
            None,
            ["table", "{d}/t.parquet", "--text-column", "text", "--dask", "tcp://127.0.0.1:9"],
            "cannot reach",
        ),
    ],
)
def test_bad_input_is_a_one_line_error_and_leaves_nothing_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: str | None, argv: list[str], message: str
) -> None:
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    before = children()
    table = tmp_path / "t.parquet"
    if make == "garbage":
        table.write_bytes(b"not parquet at all")
    elif make == "empty":
        pq.write_table(pa.table({"text": pa.array([], pa.string())}), table)
    else:
        pq.write_table(pa.table({"text": ["一篇文章"]}), table)
    (tmp_path / "t.csv").write_text("text\n", encoding="utf-8")
    code, out, err = run(*(a.format(d=tmp_path) for a in argv))
    assert code == 2
    assert message in err
    assert err.count("\n") == 1
    assert out == ""
    assert not workers_left(before)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (None, "no Dask scheduler answered"),  # it reads the handshake and says nothing
        (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", "not a Dask scheduler"),
    ],
)
def test_a_port_that_answers_but_is_no_scheduler_is_said_within_the_connect_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: bytes | None, message: str
) -> None:
    """The dashboard's port for the scheduler's: never a wait without limit."""
    import socket
    import threading

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    server = socket.create_server(("127.0.0.1", 0))
    done = threading.Event()

    def serve() -> None:
        peer, _ = server.accept()
        with peer:
            peer.recv(4096)
            if answer is not None:
                peer.sendall(answer)
            done.wait(30)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        code, _, err = run("scan", str(tmp_path), "--dask", address)
    finally:
        done.set()
        thread.join(5)
        server.close()
    assert code == 2
    assert message in err
    assert err.count("\n") == 1
