#!/usr/bin/env bash
# The `bench --html` report at 10,000 pairs: the time to write it, file size, time to first paint, time until the
# table's rows exist, and one sort click, in Debian's headless chromium (tests/html/paint.mjs,
# playwright-core: scripts/install-test-deps.sh), against a floor measured in the same run: a
# plain HTML table of the same 10,000 rows (id, label, score, verdict, error; no script).
# Usage: scripts/bench-html-report.sh [LEAN_ASSESS_BINARY] [RUNS]   (default: target/release if
# built, else target/debug; 5 runs per page, medians).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then
    if [ -x target/release/lean-assess ]; then bin=target/release/lean-assess; else bin=target/debug/lean-assess; fi
fi
runs=${2:-5}
[ -f tests/html/node_modules/playwright-core/package.json ] || {
    echo "bench-html-report: playwright-core is missing: run scripts/install-test-deps.sh" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# 10,000 pairs: gted-minif2f's 205 repeated with fresh ids (as the --jobs figures in README).
python3 - "$work/big.jsonl" <<'PY'
import json, sys
pairs = [json.loads(l) for l in open("fixtures/bench/gted-minif2f.jsonl")]
with open(sys.argv[1], "w") as out:
    for i in range(10000):
        p = dict(pairs[i % len(pairs)])
        p["id"] = f"{p['id']}#{i}"
        out.write(json.dumps(p, ensure_ascii=False) + "\n")
PY
# Writing the report against the same bench without it (the differences of every pair are
# computed for the page).
t0=$(date +%s.%N)
"$bin" bench "$work/big.jsonl" --metric ted > /dev/null
t1=$(date +%s.%N)
"$bin" bench "$work/big.jsonl" --metric ted --html "$work/report.html" > /dev/null
t2=$(date +%s.%N)
# The floor: the same rows as a static table.
python3 - "$work/report.html" "$work/table.html" <<'PY'
import html, json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
rows = json.loads(re.search(r"<script type=\"application/json\" id=\"pair-data\">(.*?)</script>", page, re.S).group(1))["pairs"]
cell = lambda v: "" if v is None else html.escape(str(v).lower() if isinstance(v, bool) else
                                                   (f"{v:.4f}" if isinstance(v, float) else str(v)))
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write('<!DOCTYPE html><html><head><meta charset="utf-8"><title>floor</title></head><body>'
              '<table id="pairs"><thead><tr><th>id</th><th>label</th><th>score</th><th>verdict</th>'
              '<th>error</th></tr></thead><tbody>')
    for r in rows:
        out.write("<tr>" + "".join(f"<td>{cell(r[k])}</td>" for k in
                  ("id", "label", "score", "verdict", "error")) + "</tr>")
    out.write("</tbody></table></body></html>")
PY
python3 -c "print(f'bench --metric ted on 10,000 pairs ($bin): {$t1 - $t0:.1f} s; with --html: {$t2 - $t1:.1f} s ({($t2 - $t1) / ($t1 - $t0):.1f}x)')"
node tests/html/paint.mjs "$runs" "report=$work/report.html" "plain-table=$work/table.html" | tee "$work/paint.jsonl"
python3 - "$work/paint.jsonl" <<'PY'
import json, sys
r = {j["name"]: j for j in map(json.loads, open(sys.argv[1]))}
a, f = r["report"], r["plain-table"]
print(f"ratio report / plain table: size {a['bytes'] / f['bytes']:.2f}x, first paint "
      f"{a['fcp_ms'] / max(f['fcp_ms'], 1):.2f}x, rows {a['rows_ms'] / max(f['rows_ms'], 1):.2f}x")
PY
