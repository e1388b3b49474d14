"""lean-assess from Python: judge Lean 4 autoformalizations against reference statements.

``score`` and ``bench`` run the same code as ``lean-assess score --json`` and
``lean-assess bench --json`` and return the document they print, as a dict. Keyword arguments
are the commands' flags (``free_cost=True`` is ``--free-cost``, ``lean_project="DIR"`` is
``--lean-project DIR``; docs/cli.md lists them all). A run the command line would refuse (exit
status 2) raises :class:`Error` with the command line's message; what the command reports on
stderr comes as :class:`Warning` (``lean-assess: warning: ...`` lines) or goes to
``sys.stderr`` (progress). The GIL is released while a run works.
"""

import json
import os
import sys
import tempfile
import warnings

from ._native import Error, run_json

__all__ = ["Error", "Warning", "score", "bench"]


class Warning(UserWarning):  # noqa: A001 (lean_assess.Warning, as lean_assess.Error)
    """A pair or metric lean-assess could not handle: the run went on without it (exit status 1
    on the command line)."""


_WARNING_PREFIX = "lean-assess: warning: "


def _flags(options):
    """Keyword arguments as command-line flags, in the order given: ``name=value`` is
    ``--name VALUE`` (underscores become dashes), ``True`` a bare flag, ``False``/``None``
    nothing, a list or tuple one comma-separated value."""
    argv = []
    for name, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + name.replace("_", "-")
        if value is True:
            argv.append(flag)
        elif isinstance(value, (list, tuple)):
            argv += [flag, ",".join(str(v) for v in value)]
        else:
            argv += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return argv


def _run(argv, rename=None):
    """Run one command; ``rename`` maps a temporary file's path to the name shown instead."""
    rename = rename or {}
    try:
        document, stderr = run_json(argv)
    except Error as e:
        message = str(e)
        for path, shown in rename.items():
            message = message.replace(path, shown)
        raise Error(message) from None
    for path, shown in rename.items():
        document = document.replace(json.dumps(path)[1:-1], json.dumps(shown)[1:-1])
        stderr = stderr.replace(path, shown)
    for line in stderr.splitlines():
        if line.startswith(_WARNING_PREFIX):
            warnings.warn(line[len(_WARNING_PREFIX) :], Warning, stacklevel=3)
        elif line:
            print(line, file=sys.stderr)
    return json.loads(document)


def _statement(name, value):
    """A statement's arguments: text (``str``, e.g. ``"theorem t : 1 = 1 := by sorry"``, its own
    ``import`` lines allowed) or a file (``pathlib.Path``; ``"FILE.lean::NAME"`` names a theorem
    in it, as on the command line)."""
    if isinstance(value, os.PathLike):
        return [], [os.fspath(value)]
    if isinstance(value, str):
        return [f"--{name}-text", value], []
    raise TypeError(
        f"score: {name} is a statement's text (str) or a .lean file (pathlib.Path), "
        f"not {type(value).__name__}"
    )


def score(ref, cand, metrics=("ted",), **options):
    """Judge ``cand`` against ``ref`` with each metric; the dict ``lean-assess score --json``
    prints: ``{"reference", "candidate", "metrics": [{"metric", "verdict", "score", ...}],
    "differences"?}``.

    ``ref``/``cand``: statement text (``str``) or a ``pathlib.Path`` to a ``.lean`` file (its
    first theorem; ``Path("F.lean::name")`` for another). ``metrics``: names, a list or one
    comma-separated string. Other options: ``free_cost=True``, ``lean_project=DIR``,
    ``server_command=CMD``, ``config=FILE``, and any other flag of ``score`` by name.
    """
    ref_flags, ref_files = _statement("ref", ref)
    cand_flags, cand_files = _statement("cand", cand)
    argv = ["score", *_flags({"metric": metrics, **options}), *ref_flags, *cand_flags]
    files = ref_files + cand_files
    if files:
        argv += ["--", *files]
    return _run(argv)


def bench(rows_or_path, metric="ted", **options):
    """Run one metric over a dataset; the dict ``lean-assess bench --json`` prints (pairs,
    scored, failed, the verdict view, the threshold views).

    ``rows_or_path``: a dataset file (JSONL, as on the command line) or the rows themselves, an
    iterable of dicts with the dataset's fields (``id``, ``ref_header``, ``ref_statement``,
    ``cand_header``, ``cand_statement``, ``label``...); rows are written to a temporary JSONL
    file, shown as ``<rows>`` in the result and the warnings. Other options: ``free_cost=True``,
    ``out=PRED.jsonl``, ``html=REPORT.html``, ``jobs=N``, ``shard="K/N"``, ``lean_project=DIR``,
    and any other flag of ``bench`` by name.
    """
    flags = _flags({"metric": metric, **options})
    if isinstance(rows_or_path, (str, os.PathLike)):
        return _run(["bench", *flags, "--", os.fspath(rows_or_path)])
    if isinstance(rows_or_path, (bytes, dict)):
        kind = type(rows_or_path).__name__
        raise TypeError(f"bench: a dataset path or an iterable of row dicts, not {kind}")
    with tempfile.TemporaryDirectory(prefix="lean-assess-") as tmp:
        path = os.path.join(tmp, "rows.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for k, row in enumerate(rows_or_path):
                if not isinstance(row, dict):
                    raise TypeError(f"bench: row {k} is a {type(row).__name__}, not a dict")
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        return _run(["bench", *flags, "--", path], rename={path: "<rows>"})
