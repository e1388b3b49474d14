//! `bench --html`: the report opened in headless Chromium (`chromium --dump-dom`, the DOM after
//! the page's script ran) and clicked through with playwright-core. Chromium, node and
//! playwright-core are installed by scripts/install-test-deps.sh; without them the tests fail
//! naming what is missing.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// `lean-assess ARGS` run in `dir`; it must succeed.
fn bench(dir: &Path, args: &[&str]) {
    let run = Command::new(env!("CARGO_BIN_EXE_lean-assess"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
}

/// Chromium under any of its names; panics naming it when it is not installed.
fn chromium() -> PathBuf {
    common::require_any_tool(&["chromium", "chromium-browser", "google-chrome"])
}

#[test]
fn the_report_renders_in_headless_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.html");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench/gted-minif2f.jsonl");
    bench(dir.path(), &["bench", data.to_str().unwrap(), "--html", report.to_str().unwrap()]);
    let page = std::fs::read_to_string(&report).unwrap();
    // Self-contained: nothing is fetched when it is viewed.
    for remote in ["src=\"http", "href=\"http", "@import", "<link"] {
        assert!(!page.contains(remote), "the report refers to {remote}");
    }
    let browser = chromium();
    let profile = dir.path().join("profile");
    let out = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", report.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains("<dl id=\"headline\">"), "no headline figures");
    assert!(dom.contains("<dd id=\"accuracy\">"), "no accuracy");
    assert!(dom.contains("class=\"accuracy\"") && dom.contains("class=\"kappa\""), "no sweep plot");
    assert!(dom.contains("<table id=\"confusion\""), "no confusion matrix");
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
/// path (`one_mul` on the candidate's `1 * x`); with ted, no path. With env
/// `HTML_REPORT_SCREENSHOT=FILE.png`, the transted-lite page is saved there (the README's).
#[test]
fn clicks_sort_filter_and_expand_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench");
    let marked = "gted-minif2f/amc12b_2021_p3";
    let with_path = "gted-minif2f/mathd_algebra_160";
    let shown = "gted-minif2f/mathd_numbertheory_353";
    let data = dir.path().join("gted-minif2f-subset.jsonl");
    let (pairs, labelled_false) =
        subset(&fixtures.join("gted-minif2f.jsonl"), &data, &[marked, with_path, shown], 40);
    require_playwright();
    for (metric, path) in [
        ("ted", serde_json::Value::Null),
        (
            "transted-lite",
            serde_json::json!({"id": with_path, "step": "one_mul (candidate): 1 * x"}),
        ),
    ] {
        let report = dir.path().join(format!("{metric}.html"));
        bench(
            dir.path(),
            &[
                "bench",
                "gted-minif2f-subset.jsonl",
                "--metric",
                metric,
                "--html",
                report.to_str().unwrap(),
            ],
        );
        let expect = serde_json::json!({
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
