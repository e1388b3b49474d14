#!/usr/bin/env python3
"""Compare lean-assess's tree edit distance with the reference Python `apted` package.

Runs, in one invocation and on the same machine:
  1. PyPI `apted` (the implementation GTED used) in-process over every tree pair of
     fixtures/bench/gted-{minif2f,proofnet}.trees.jsonl, at unit cost and with GTED's free
     renaming of flagged variables/hypotheses. Timing as in the bench README's "Performance
     anchor": trees are loaded first; the timed loop covers the distance of every pair plus the
     two size computations; median (and min) over --runs runs.
  2. Our bench binary: `cargo bench --bench ted_pairs -- --json` (optimised build), which times
     the same loop in Rust (default `Algorithm::Auto`, flattening included), and also reports
     APTED alone on pre-flattened trees, shown in the last column.
Then it checks that the distances are identical pair by pair and prints both timings and the
speed-up side by side.

Exit status: 0 when all distances agree and every speed-up is at least --target (default 100);
1 on any distance mismatch; 2 when `apted` is not installed or the bench cannot run; 3 when the
distances agree but a speed-up is below the target.

Usage: python3 scripts/compare_apted.py [--runs N] [--target X] [--bench-json FILE]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATASETS = ["gted-minif2f", "gted-proofnet"]
COSTS = ["unit", "freecost"]

try:
    from apted import APTED, Config
except ImportError:
    sys.stderr.write(
        "compare_apted.py: the Python package `apted` is not installed; "
        "install it with `pip install apted` (PyPI apted 1.0.3 is the GTED reference) and rerun\n"
    )
    sys.exit(2)


class Node:
    __slots__ = ("label", "children", "variable", "hypothesis")

    def __init__(self, obj):
        self.label = obj["label"]
        self.children = [Node(c) for c in obj.get("children", [])]
        self.variable = bool(obj.get("variable_freecost", False))
        self.hypothesis = bool(obj.get("hypothesis_freecost", False))


def size(node):
    return 1 + sum(size(c) for c in node.children)


class UnitConfig(Config):
    def delete(self, node):
        return 1

    def insert(self, node):
        return 1

    def rename(self, a, b):
        return 0 if a.label == b.label else 1

    def children(self, node):
        return node.children


class FreeCostConfig(UnitConfig):
    """GTED's published cost model: renaming between two flagged variables (or two flagged
    hypotheses) is free (bench README, "Cost model")."""

    def rename(self, a, b):
        if a.label == b.label or (a.variable and b.variable) or (a.hypothesis and b.hypothesis):
            return 0
        return 1


def load(name):
    path = os.path.join(ROOT, "fixtures", "bench", name + ".trees.jsonl")
    pairs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            obj = json.loads(line)
            pairs.append((obj["id"], Node(obj["ref_tree"]), Node(obj["cand_tree"])))
    return pairs


def run_python(pairs, config, runs):
    times, distances = [], None
    for _ in range(runs):
        start = time.perf_counter()
        out = []
        for _id, a, b in pairs:
            d = APTED(a, b, config).compute_edit_distance()
            size(a), size(b)
            out.append(int(d))
        times.append(time.perf_counter() - start)
        distances = out
    return statistics.median(times) * 1e3, min(times) * 1e3, distances


def run_rust(bench_json, runs):
    if bench_json:
        with open(bench_json, encoding="utf-8") as f:
            return json.load(f)
    cmd = ["cargo", "bench", "--quiet", "--bench", "ted_pairs", "--", "--json", "--runs", str(runs)]
    sys.stderr.write("running: " + " ".join(cmd) + "\n")
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        sys.stderr.write("compare_apted.py: `cargo` not found on PATH\n")
        sys.exit(2)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-2000:])
        sys.stderr.write("compare_apted.py: the Rust bench failed (status %d)\n" % proc.returncode)
        sys.exit(2)
    # The JSON object is the last line of stdout.
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="Python runs per dataset and cost (default 5)")
    ap.add_argument("--rust-runs", type=int, default=15, help="Rust runs (default 15)")
    ap.add_argument("--target", type=float, default=100.0, help="required speed-up (default 100)")
    ap.add_argument("--bench-json", help="use this saved `ted_pairs -- --json` output instead of running cargo")
    args = ap.parse_args()

    rust = {d["dataset"]: d for d in run_rust(args.bench_json, args.rust_runs)["datasets"]}
    mismatches, slow = 0, 0
    rows = []
    for name in DATASETS:
        pairs = load(name)
        ours = {p["id"]: p for p in rust[name]["distances"]}
        for cost, config in zip(COSTS, [UnitConfig(), FreeCostConfig()]):
            py_median, py_min, py_distances = run_python(pairs, config, args.runs)
            for (pid, _a, _b), d in zip(pairs, py_distances):
                got = ours.get(pid, {}).get(cost)
                if got != d:
                    mismatches += 1
                    print("MISMATCH %s %s: apted %s, lean-assess %s" % (name, cost, d, got))
            t = rust[name]["timings"][cost]
            speedup = py_median / t["median_ms"] if t["median_ms"] > 0 else float("inf")
            slow += speedup < args.target
            apted_only = t.get("preflattened_apted_median_ms", float("nan"))
            rows.append((name, cost, len(pairs), py_median, py_min, t["median_ms"], t["min_ms"], speedup,
                         apted_only))

    print("%-14s %-8s %5s  %22s  %22s  %9s  %s" % ("dataset", "cost", "pairs", "python apted median(min)",
                                                   "lean-assess median(min)", "speed-up",
                                                   "APTED forced, pre-flattened (speed-up)"))
    for name, cost, n, pm, pmin, rm, rmin, s, ap in rows:
        print("%-14s %-8s %5d  %11.1f ms (%6.1f)  %11.3f ms (%6.3f)  %8.0fx  %9.3f ms (%.0fx)"
              % (name, cost, n, pm, pmin, rm, rmin, s, ap, pm / ap if ap > 0 else float("inf")))
    total = sum(r[2] for r in rows)
    print("distances: %s over %d pair-costs" % ("identical" if mismatches == 0 else "%d MISMATCHES" % mismatches, total))
    print("python runs: %d, rust runs: %d; load+parse (once, not timed above): rust %s"
          % (args.runs, rust[DATASETS[0]]["runs"],
             ", ".join("%s %.2f ms" % (d, rust[d]["load_ms"]) for d in DATASETS)))
    if mismatches:
        return 1
    if slow:
        print("speed-up below the %gx target on %d row(s)" % (args.target, slow))
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
