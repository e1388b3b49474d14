#!/usr/bin/env python3
"""Score the adversarial pairs and their controls (fixtures/adversarial/), and the project's own
labelled restatements (fixtures/restatements/), with one or more lean-assess binaries, through
the CLI a user runs (`score --json --ref-text … --cand-text …`), and print per binary: how many
trap pairs each offline metric calls equivalent (must be 0), how many controls `transted-lite`
shows equivalent, and its recall on the restatements with the label-different pairs it calls
equivalent (must be 0).

Usage: scripts/adversarial-score.py BINARY [BINARY ...]
  e.g. scripts/adversarial-score.py /path/to/old/lean-assess target/release/lean-assess
"""
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
METRICS = ["ted", "path", "transted-lite"]


def cases(name):
    out, current = [], None
    for line in (ROOT / "fixtures" / name).read_text().splitlines():
        if line == "#" or line.startswith("# "):
            continue  # a fixture comment; Lean's own `#check` lines are case text
        if line.startswith("=== "):
            if current:
                out.append(current)
            current = {"title": line[4:], "ref": [], "cand": [], "sep": False}
        elif current is None:
            continue
        elif line == "---":
            current["sep"] = True
        else:
            current["cand" if current["sep"] else "ref"].append(line)
    if current:
        out.append(current)
    return out


def verdicts(binary, case):
    cmd = [binary, "score", "--metric", ",".join(METRICS), "--json",
           "--ref-text", "\n".join(case["ref"]).strip(),
           "--cand-text", "\n".join(case["cand"]).strip()]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if run.returncode != 0 and not run.stdout.strip():
        return {m: "error" for m in METRICS}
    report = json.loads(run.stdout)
    return {m["metric"]: m.get("verdict", "error") for m in report["metrics"]}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    traps, controls = cases("adversarial/not-equivalent.txt"), cases("adversarial/equivalent.txt")
    own_sets = [
        ("own restatements",
         cases("restatements/equivalent.txt"), cases("restatements/different.txt")),
        ("textbook restatements",
         cases("restatements/textbook.txt"), cases("restatements/textbook-different.txt")),
        ("blind restatements",
         cases("restatements/blind.txt"), cases("restatements/blind-different.txt")),
        ("second blind restatements",
         cases("restatements/blind2.txt"), cases("restatements/blind2-different.txt")),
        ("third blind restatements",
         cases("restatements/blind3.txt"), cases("restatements/blind3-different.txt")),
        ("fourth blind restatements",
         cases("restatements/blind4.txt"), cases("restatements/blind4-different.txt")),
        ("fifth blind restatements",
         cases("restatements/blind5.txt"), cases("restatements/blind5-different.txt")),
        ("sixth blind restatements",
         cases("restatements/blind6.txt"), cases("restatements/blind6-different.txt")),
        ("seventh blind restatements",
         cases("restatements/blind7.txt"), cases("restatements/blind7-different.txt")),
        ("eighth blind restatements",
         cases("restatements/blind8.txt"), cases("restatements/blind8-different.txt")),
        ("ninth blind restatements",
         cases("restatements/blind9.txt"), cases("restatements/blind9-different.txt")),
        ("tenth blind restatements",
         cases("restatements/blind10.txt"), cases("restatements/blind10-different.txt")),
        ("eleventh blind restatements",
         cases("restatements/blind11.txt"), cases("restatements/blind11-different.txt")),
        ("twelfth blind restatements",
         cases("restatements/blind12.txt"), cases("restatements/blind12-different.txt")),
        ("thirteenth blind restatements",
         cases("restatements/blind13.txt"), cases("restatements/blind13-different.txt")),
    ]
    for binary in sys.argv[1:]:
        fooled = {m: 0 for m in METRICS}
        for case in traps:
            for m, v in verdicts(binary, case).items():
                fooled[m] += v == "equivalent"
        shown = sum(verdicts(binary, c).get("transted-lite") == "equivalent" for c in controls)
        print(f"{binary}:")
        print(f"  traps ({len(traps)} pairs) called equivalent: "
              + ", ".join(f"{m} {fooled[m]}" for m in METRICS))
        print(f"  controls ({len(controls)} pairs) shown equivalent by transted-lite: {shown}"
              f" (recall {100.0 * shown / len(controls):.1f}%)")
        for name, same, different in own_sets:
            shown = sum(verdicts(binary, c).get("transted-lite") == "equivalent" for c in same)
            wrong = sum(any(v == "equivalent" for v in verdicts(binary, c).values())
                        for c in different)
            print(f"  {name} ({len(same)} pairs) shown equivalent by transted-lite: {shown}"
                  f" (recall {100.0 * shown / len(same):.1f}%); label-different pairs"
                  f" ({len(different)}) called equivalent by any metric: {wrong}")


if __name__ == "__main__":
    main()
