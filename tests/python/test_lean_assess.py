"""The Python package against the CLI: `lean_assess.score`/`bench` return the document
`lean-assess score --json`/`bench --json` prints for the same input (every field but the
timings), raise `lean_assess.Error` with the CLI's message where the CLI exits with status 2, and
release the GIL while they work.

Run by tests/python/run.sh after `pip install .` in a fresh virtual environment; the CLI is
$LEAN_ASSESS_CLI (run.sh: target/debug/lean-assess).
"""

import json
import os
import pathlib
import subprocess
import threading
import time
import warnings

import pytest

import lean_assess

ROOT = pathlib.Path(__file__).resolve().parents[2]
MINIF2F = ROOT / "fixtures" / "bench" / "gted-minif2f.jsonl"
PROOFNET = ROOT / "fixtures" / "bench" / "gted-proofnet.jsonl"
SMALL = ROOT / "fixtures" / "cli" / "small.jsonl"
REFERENCE = ROOT / "fixtures" / "cli" / "reference.lean"
CANDIDATE = ROOT / "fixtures" / "cli" / "candidate.lean"

RENAMED_REF = "theorem t (n : ℕ) (h : 0 < n) : 1 ≤ n := by sorry"
RENAMED_CAND = "theorem u (m : ℕ) (hm : 0 < m) : 1 ≤ m := by sorry"
FLIPPED_CAND = "theorem u (m : ℕ) (hm : m > 0) : m ≥ 1 := by sorry"
DIFFERENT_CAND = "theorem u (m : ℕ) (hm : 0 < m) : 2 ≤ m := by sorry"


def cli_path():
    path = os.environ.get("LEAN_ASSESS_CLI") or str(ROOT / "target" / "debug" / "lean-assess")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no CLI to compare with at {path}: cargo build, or set LEAN_ASSESS_CLI")
    return path


def cli(*args):
    """Run the CLI; (exit status, stdout, stderr)."""
    done = subprocess.run([cli_path(), *args], capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout, done.stderr


def cli_json(*args, status=0):
    code, out, err = cli(*args, "--json")
    assert code == status, f"lean-assess {' '.join(args)} --json: status {code}, stderr {err}"
    return json.loads(out)


def untimed(value):
    """The document without its timings (`seconds`, anywhere), the one field two runs differ in."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def same_document(python_result, cli_result):
    assert "seconds" in json.dumps(cli_result), "the CLI's document has timings to leave out"
    assert untimed(python_result) == untimed(cli_result)


# score


@pytest.mark.parametrize(
    "cand, metrics",
    [
        (RENAMED_CAND, ["ted"]),
        (FLIPPED_CAND, ["ted", "path", "transted-lite"]),
        (DIFFERENT_CAND, ["transted-lite", "ted"]),
    ],
)
def test_score_returns_the_cli_json(cand, metrics):
    got = lean_assess.score(RENAMED_REF, cand, metrics=metrics)
    flags = ["--metric", ",".join(metrics), "--ref-text", RENAMED_REF, "--cand-text", cand]
    want = cli_json("score", *flags)
    same_document(got, want)
    assert [m["metric"] for m in got["metrics"]] == metrics


def test_score_verdicts_are_the_metrics_own():
    shown = lean_assess.score(RENAMED_REF, FLIPPED_CAND, metrics="transted-lite")
    assert shown["metrics"][0]["verdict"] == "equivalent"
    assert shown["metrics"][0]["evidence"]
    assert "differences" not in shown
    different = lean_assess.score(RENAMED_REF, DIFFERENT_CAND, metrics=["ted"])
    assert different["metrics"][0]["verdict"] == "not shown"
    assert different["metrics"][0]["score"] < 1
    assert different["differences"], "a pair not shown equivalent lists what differs"


def test_score_takes_a_statement_that_begins_with_its_own_imports():
    ref = "import Mathlib\nopen Real\n\n" + RENAMED_REF
    cand = "import Mathlib\n\n" + RENAMED_CAND
    got = lean_assess.score(ref, cand, metrics=["ted"])
    same_document(got, cli_json("score", "--ref-text", ref, "--cand-text", cand))
    assert got["metrics"][0]["verdict"] == "equivalent"


def test_score_options_are_the_cli_flags():
    got = lean_assess.score(RENAMED_REF, DIFFERENT_CAND, metrics="ted", free_cost=True)
    flags = ["--free-cost", "--ref-text", RENAMED_REF, "--cand-text", DIFFERENT_CAND]
    same_document(got, cli_json("score", *flags))


def test_score_reads_lean_files_given_as_paths():
    ref = pathlib.Path(f"{REFERENCE}::amc12_sum")
    cand = pathlib.Path(f"{CANDIDATE}::sum_odd")
    got = lean_assess.score(ref, cand, metrics=["ted", "path"])
    want = cli_json("score", "--metric", "ted,path", str(ref), str(cand))
    same_document(got, want)
    assert got["reference"].endswith("reference.lean::amc12_sum")
    # A file of several statements and no name: an error naming them, not the first one judged.
    with pytest.raises(lean_assess.Error) as raised:
        lean_assess.score(ref, CANDIDATE, metrics=["ted"])
    assert "holds 3 statements (my_favorite_theorem, sum_odd, square_nonneg)" in str(raised.value)


def test_score_a_metric_that_needs_lean_is_an_error_verdict_as_in_the_cli():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = lean_assess.score(RENAMED_REF, RENAMED_CAND, metrics=["ted", "beq"])
    flags = ["--metric", "ted,beq", "--ref-text", RENAMED_REF, "--cand-text", RENAMED_CAND]
    same_document(got, cli_json("score", *flags, status=1))
    assert got["metrics"][1]["verdict"] == "error"
    assert "--lean-project" in got["metrics"][1]["error"]


def cli_error(*args):
    code, out, err = cli(*args)
    assert code == 2 and out == "", f"lean-assess {' '.join(args)}: status {code}"
    return err.strip().removeprefix("lean-assess: error: ")


def test_score_an_unknown_metric_raises_the_cli_message():
    with pytest.raises(lean_assess.Error) as raised:
        lean_assess.score(RENAMED_REF, RENAMED_CAND, metrics=["ted", "tedd"])
    flags = ["--metric", "ted,tedd", "--ref-text", RENAMED_REF, "--cand-text", RENAMED_CAND]
    message = cli_error("score", "--json", *flags)
    assert str(raised.value) == message
    assert "tedd" in message


def test_score_an_unparsable_statement_raises_the_cli_message():
    broken = "theorem t (n : ℕ : n = n := by sorry"
    with pytest.raises(lean_assess.Error) as raised:
        lean_assess.score(broken, RENAMED_CAND)
    assert str(raised.value) == cli_error("score", "--ref-text", broken, "--cand-text", RENAMED_CAND)


def test_score_an_unknown_option_raises_the_cli_usage_error():
    with pytest.raises(lean_assess.Error) as raised:
        lean_assess.score(RENAMED_REF, RENAMED_CAND, no_such_flag=True)
    flags = ["--metric", "ted", "--no-such-flag", "--ref-text", RENAMED_REF]
    message = cli_error("score", "--json", *flags, "--cand-text", RENAMED_CAND)
    assert str(raised.value) == message
    assert "--no-such-flag" in message


def test_score_refuses_what_is_not_a_statement():
    with pytest.raises(TypeError, match="cand is a statement's text"):
        lean_assess.score(RENAMED_REF, 42)


def test_error_is_an_exception():
    assert issubclass(lean_assess.Error, Exception)
    assert issubclass(lean_assess.Warning, UserWarning)


# bench


# Whole-dataset comparisons use the metrics without a wall-clock limit that a loaded machine can
# reach (`ted`, `path`); `transted-lite` (500 ms a pair) is compared on the small file, whose
# pairs it settles in a few milliseconds.
@pytest.mark.parametrize(
    "dataset, metric, flags, status",
    [
        (MINIF2F, "ted", [], 0),
        (MINIF2F, "ted", ["--free-cost"], 0),
        (MINIF2F, "path", [], 0),
        (PROOFNET, "ted", [], 0),
        (SMALL, "transted-lite", [], 1),
    ],
)
def test_bench_over_a_file_returns_the_cli_json(dataset, metric, flags, status):
    options = {"free_cost": True} if "--free-cost" in flags else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lean_assess.Warning)
        got = lean_assess.bench(dataset, metric=metric, **options)
    want = cli_json("bench", "--metric", metric, *flags, str(dataset), status=status)
    same_document(got, want)
    lines = len(dataset.read_text(encoding="utf-8").splitlines())
    assert got["pairs"] == lines
    assert got["scored"] + got["failed"] == lines


def test_bench_takes_a_str_path_too():
    got = lean_assess.bench(str(PROOFNET), metric="ted", free_cost=True)
    same_document(got, cli_json("bench", "--metric", "ted", "--free-cost", str(PROOFNET)))


def test_bench_over_rows_is_bench_over_the_file_they_come_from():
    rows = [json.loads(line) for line in MINIF2F.read_text(encoding="utf-8").splitlines()]
    from_rows = lean_assess.bench(rows, metric="ted")
    from_file = lean_assess.bench(MINIF2F, metric="ted")
    assert from_rows["dataset"] == "<rows>"
    # The published GTED figure goes by the file's name, which rows do not have.
    assert "published_gted" in from_file
    for document in (from_rows, from_file):
        document.pop("dataset")
        document.pop("published_gted", None)
    assert untimed(from_rows) == untimed(from_file)


def test_bench_writes_out_and_html_as_the_cli(tmp_path):
    lean_assess.bench(MINIF2F, metric="ted", out=tmp_path / "py.jsonl", html=tmp_path / "py.html")
    cli("bench", "--metric", "ted", "--out", str(tmp_path / "cli.jsonl"), str(MINIF2F))
    assert (tmp_path / "py.jsonl").read_text() == (tmp_path / "cli.jsonl").read_text()
    assert len((tmp_path / "py.jsonl").read_text().splitlines()) == 205
    assert "<html" in (tmp_path / "py.html").read_text(encoding="utf-8").lower()


def test_bench_a_pair_that_fails_is_a_warning_and_counted_as_in_the_cli():
    # small.jsonl's fourth pair has a candidate that does not parse.
    code, out, err = cli("bench", "--json", str(SMALL))
    assert code == 1
    with pytest.warns(lean_assess.Warning) as caught:
        got = lean_assess.bench(SMALL)
    same_document(got, json.loads(out))
    assert got["failed"] == 1
    cli_warning = err.strip().removeprefix("lean-assess: warning: ")
    assert [str(w.message) for w in caught] == [cli_warning]
    assert cli_warning.startswith(f"{SMALL}:4: pair 'small/broken'")
    # The same rows given in memory: the warning names the row as `<rows>:LINE`.
    rows = [json.loads(line) for line in SMALL.read_text(encoding="utf-8").splitlines()]
    with pytest.warns(lean_assess.Warning) as caught:
        from_rows = lean_assess.bench(rows)
    assert [str(w.message) for w in caught] == [cli_warning.replace(str(SMALL), "<rows>")]
    assert from_rows["failed"] == 1


def test_bench_a_missing_file_raises_the_cli_message(tmp_path):
    missing = tmp_path / "missing.jsonl"
    with pytest.raises(lean_assess.Error) as raised:
        lean_assess.bench(missing)
    message = cli_error("bench", "--json", str(missing))
    assert str(raised.value) == message
    assert str(missing) in message


def test_bench_malformed_rows_raise_the_cli_message_naming_rows():
    with pytest.raises(lean_assess.Error) as raised:
        lean_assess.bench([{"id": "only-an-id"}])
    assert "<rows>" in str(raised.value)
    assert "lean-assess-" not in str(raised.value), "the temporary file's path is not shown"


def test_bench_refuses_what_is_not_rows():
    with pytest.raises(TypeError, match="row 1 is a str"):
        lean_assess.bench([{"id": "a"}, "not a row"])


# The GIL


def test_the_gil_is_released_while_bench_works(tmp_path):
    """A Python thread keeps running while another is inside `bench`: with the GIL held for the
    whole call, the main thread could not take a single step between the call's start and end.
    (The dataset is a file, so that the call's Python part is short.)"""
    rows = [json.loads(line) for line in MINIF2F.read_text(encoding="utf-8").splitlines()]
    for copies in (4, 16, 64):
        path = tmp_path / f"copies-{copies}.jsonl"
        with path.open("w", encoding="utf-8") as f:
            for k in range(copies):
                for row in rows:
                    f.write(json.dumps(dict(row, id=f"{row['id']}#{k}"), ensure_ascii=False) + "\n")
        span = {}

        def work():
            span["start"] = time.monotonic()
            lean_assess.bench(path, metric="transted-lite", jobs=1)
            span["end"] = time.monotonic()

        worker = threading.Thread(target=work)
        steps = []
        worker.start()
        while worker.is_alive():
            steps.append(time.monotonic())
            time.sleep(0.001)
        worker.join()
        if span["end"] - span["start"] >= 0.5:
            break
    duration = span["end"] - span["start"]
    pairs = copies * len(rows)
    assert duration >= 0.5, f"bench over {pairs} pairs took {duration:.3f} s: too short to tell"
    inside = [t for t in steps if span["start"] + 0.1 < t < span["end"] - 0.1]
    assert len(inside) >= 10, f"the main thread took {len(inside)} steps in a {duration:.2f} s bench"
