//! `bench --html`: the report opened in headless Chromium (`chromium --dump-dom`, the DOM after
//! the page's script ran) and clicked through with playwright-core. Chromium, node and
//! playwright-core are installed by scripts/install-test-deps.sh; without them the tests fail
//! naming what is missing.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// One test of this file at a time: each runs `bench` (transted-lite's per-pair clock is 500 ms)
/// and a browser, and two at once on a 2-core machine can push a search past its clock.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `lean-assess ARGS` run in `dir`; it must succeed.
fn bench(dir: &Path, args: &[&str]) {
    let run = Command::new(env!("CARGO_BIN_EXE_lean-assess"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
}

/// `lean-assess ARGS` run in `dir`; it may leave some pairs failed (status 1: on a loaded
/// machine transted-lite's clock may cut a search), nothing worse.
fn bench_some_may_fail(dir: &Path, args: &[&str]) {
    let run = Command::new(env!("CARGO_BIN_EXE_lean-assess"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(matches!(run.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&run.stderr));
}

/// Chromium under any of its names; panics naming it when it is not installed.
fn chromium() -> PathBuf {
    common::require_any_tool(&["chromium", "chromium-browser", "google-chrome"])
}

/// The page's DOM after its script ran, from headless chromium (`--dump-dom`), with the flags
/// a machine without a network needs and a fresh profile.
fn dump_dom(page: &Path, profile: &Path) -> String {
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The table as chromium shows it: the header's cells, then each pair row's cells (text).
fn table(dom: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let cells = |row: &str, tag: &str| -> Vec<String> {
        let open = format!("<{tag}");
        let close = format!("</{tag}>");
        row.split(&open)
            .skip(1)
            .filter_map(|c| {
                let body = c.split_once('>')?.1;
                let text = body.split(&close).next()?;
                Some(unescape(text).trim().to_string())
            })
            .collect()
    };
    let head = dom.split("<thead>").nth(1).and_then(|h| h.split("</thead>").next());
    let header = cells(head.expect("the table has a header"), "th");
    let rows = dom
        .split("<tr class=\"pair\">")
        .skip(1)
        .map(|r| cells(r.split("</tr>").next().unwrap_or(""), "td"))
        .collect();
    (header, rows)
}

/// The "done when": the report's verdict column says what `bench --out`'s `"verdict"`
/// says, on every pair of both bundled sets (transted-lite, whose verdict shows 63 and 22
/// pairs equivalent there, and ted). A pair `--out` gives no `"verdict"` is "not shown" (a
/// failed pair, with its `"error"`, has an empty verdict cell). The threshold decision is its
/// own column, named for the default threshold.
#[test]
fn the_verdict_column_agrees_with_the_predictions_on_both_bundled_sets() {
    let _serial = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench");
    chromium();
    for set in ["gted-minif2f", "gted-proofnet"] {
        for (metric, threshold) in [("transted-lite", "0.807"), ("ted", "0.465")] {
            let data = fixtures.join(format!("{set}.jsonl"));
            let out = dir.path().join(format!("{set}-{metric}.jsonl"));
            let page = dir.path().join(format!("{set}-{metric}.html"));
            bench_some_may_fail(
                dir.path(),
                &[
                    "bench",
                    data.to_str().unwrap(),
                    "--metric",
                    metric,
                    "--out",
                    out.to_str().unwrap(),
                    "--html",
                    page.to_str().unwrap(),
                ],
            );
            let dom = dump_dom(&page, &dir.path().join(format!("profile-{set}-{metric}")));
            let (header, rows) = table(&dom);
            assert_eq!(
                header,
                ["id", "label", "score", "verdict", &format!("score ≥ {threshold}"), "error"],
                "{set} {metric}"
            );
            let predictions: Vec<serde_json::Value> = std::fs::read_to_string(&out)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert_eq!(rows.len(), predictions.len(), "{set} {metric}: one row per pair");
            let mut shown = 0;
            let by_id: std::collections::HashMap<&str, &Vec<String>> =
                rows.iter().map(|r| (r[0].as_str(), r)).collect();
            for p in &predictions {
                let id = p["id"].as_str().unwrap();
                let row = by_id.get(id).unwrap_or_else(|| panic!("{set}: no row for {id}"));
                let expected = match (p.get("error"), p["verdict"].as_str()) {
                    (Some(_), _) => "",
                    (None, Some(v)) => v,
                    (None, None) => "not shown",
                };
                assert_eq!(row[3], expected, "{set} {metric} {id}: {p}");
                shown += usize::from(expected == "equivalent");
                // The threshold column is the decision at the default threshold, nothing else.
                let t: f64 = threshold.parse().unwrap();
                if let Some(s) = p["score"].as_f64() {
                    assert_eq!(row[4], if s >= t { "yes" } else { "no" }, "{set} {id}");
                }
            }
            // The headline leads with the same count.
            assert!(
                dom.contains(&format!(
                    "<dd id=\"shown-equivalent\">{shown} of {} judged pairs</dd>",
                    predictions.iter().filter(|p| p.get("error").is_none()).count()
                )),
                "{set} {metric}: the headline's count is not {shown}"
            );
            if metric == "transted-lite" {
                assert!(shown > 0, "{set}: transted-lite shows no pair equivalent");
            }
        }
    }
}

#[test]
fn the_report_renders_in_headless_chromium() {
    let _serial = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.html");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench/gted-minif2f.jsonl");
    bench(dir.path(), &["bench", data.to_str().unwrap(), "--html", report.to_str().unwrap()]);
    let page = std::fs::read_to_string(&report).unwrap();
    // Self-contained: nothing is fetched when it is viewed.
    for remote in ["src=\"http", "href=\"http", "@import", "<link"] {
        assert!(!page.contains(remote), "the report refers to {remote}");
    }
    let dom = dump_dom(&report, &dir.path().join("profile"));
    // The headline leads with the verdict view, then the default threshold, then the best one
    // marked optimistic, in that order.
    let at = |needle: &str| dom.find(needle).unwrap_or_else(|| panic!("no {needle}"));
    assert!(at("<dl id=\"headline\">") < at("<dl id=\"verdict-figures\">"));
    assert!(at("<dl id=\"verdict-figures\">") < at("At this metric's default threshold 0.465"));
    assert!(
        at("At this metric's default threshold 0.465")
            < at("At the best threshold for this dataset, 0.685 (optimistic)")
    );
    // The plots: the sweep with both axis titles and the default threshold marked, and the
    // histogram of similarities by label.
    assert!(dom.contains("class=\"accuracy\"") && dom.contains("class=\"kappa\""), "no sweep plot");
    assert!(dom.contains("threshold t (a pair is called equivalent when its similarity ≥ t)"));
    assert!(dom.contains("accuracy, kappa</text>"), "no y axis title");
    assert!(dom.contains(">default 0.465</text>"), "the default threshold is not marked");
    assert!(dom.contains("<svg id=\"histogram\""), "no histogram");
    assert!(dom.contains("labelled equivalent (122)") && dom.contains("labelled not (83)"));
    assert!(dom.contains("<table id=\"confusion\""), "no confusion matrix");
    assert!(dom.contains("<table id=\"confusion-verdict\""), "no verdict confusion matrix");
    // The rows exist only if the page's script ran: one per pair, all shown.
    assert_eq!(dom.matches("<tr class=\"pair\">").count(), 205);
    assert!(dom.contains("205 of 205 pairs"), "the filter line is missing");
}

/// `node` with playwright-core installed in tests/html, and the chromium it launches; panics
/// naming what is missing.
fn require_playwright() {
    common::require_tool("node");
    common::require_installed(
        "tests/html/node_modules/playwright-core/package.json",
        "playwright-core",
        "npm ci --prefix tests/html",
    );
    chromium();
}

/// The dataset lines whose id is in `ids`, and the first `first` others, into `to`; returns how
/// many pairs and how many of them are labelled false.
fn subset(from: &Path, to: &Path, ids: &[&str], first: usize) -> (usize, usize) {
    let text = std::fs::read_to_string(from).unwrap();
    let mut kept = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let id = v["id"].as_str().unwrap_or_default();
        if i < first || ids.contains(&id) {
            kept.push(v);
        }
    }
    let lines: Vec<String> = kept.iter().map(|v| v.to_string()).collect();
    std::fs::write(to, lines.join("\n") + "\n").unwrap();
    let false_labels = kept.iter().filter(|v| v["label"] == false).count();
    (kept.len(), false_labels)
}

/// Clicks in headless chromium (tests/html/click.mjs, playwright-core): a header click sorts by
/// score both ways, the label and error filters keep the right rows, an expanded pair shows both
/// statements side by side with exactly the differing subterms marked (`ℝ` against `ℚ`, the
/// binder's type, and nothing else) and the hover's difference; with transted-lite, its rewrite
/// path (`one_mul` on the candidate's `1 * x`); with ted, no path. The verdict filter keeps the
/// pairs `--out` says are shown equivalent, and the threshold column is named for the default
/// threshold. With env
/// `HTML_REPORT_SCREENSHOT=FILE.png`, the transted-lite page is saved there (the README's).
#[test]
fn clicks_sort_filter_and_expand_in_chromium() {
    let _serial = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench");
    let marked = "gted-minif2f/amc12b_2021_p3";
    let with_path = "gted-minif2f/mathd_algebra_160";
    let shown = "gted-minif2f/mathd_numbertheory_353";
    let data = dir.path().join("gted-minif2f-subset.jsonl");
    let (pairs, labelled_false) =
        subset(&fixtures.join("gted-minif2f.jsonl"), &data, &[marked, with_path, shown], 40);
    require_playwright();
    for (metric, path, default_threshold) in [
        ("ted", serde_json::Value::Null, "0.465"),
        (
            "transted-lite",
            serde_json::json!({"id": with_path, "step": "one_mul (candidate): 1 * x"}),
            "0.807",
        ),
    ] {
        let out = dir.path().join(format!("{metric}.jsonl"));
        let report = dir.path().join(format!("{metric}.html"));
        bench(
            dir.path(),
            &[
                "bench",
                "gted-minif2f-subset.jsonl",
                "--metric",
                metric,
                "--out",
                out.to_str().unwrap(),
                "--html",
                report.to_str().unwrap(),
            ],
        );
        // How many pairs `bench --out` says are shown equivalent: the verdict filter's count.
        let shown_equivalent = std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .filter(|l| l.contains("\"verdict\":\"equivalent\""))
            .count();
        let expect = serde_json::json!({
            "shown_equivalent": shown_equivalent,
            "default_threshold": default_threshold,
            "pairs": pairs,
            "labelled_false": labelled_false,
            "pair": {"id": marked, "ref_marks": ["ℝ"], "cand_marks": ["ℚ"],
                     "difference": "variable `x`: `ℚ` where the reference has `ℝ`"},
            "path": path,
            "screenshot_id": shown,
        });
        let expect_file = dir.path().join(format!("{metric}.expect.json"));
        std::fs::write(&expect_file, expect.to_string()).unwrap();
        let mut node = Command::new("node");
        node.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/html/click.mjs"))
            .arg(&report)
            .arg(&expect_file);
        if let (Some(png), "transted-lite") = (std::env::var_os("HTML_REPORT_SCREENSHOT"), metric) {
            node.arg(png);
        }
        let out = node.output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.starts_with("OK: "),
            "{metric}: {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
