//! `bench --html`: the report opened in headless Chromium (`chromium --dump-dom`, the DOM after
//! the page's script ran). Said plainly and skipped when no chromium is installed.

// A test that cannot run says so plainly on stderr.
#![allow(clippy::print_stderr)]

use std::path::Path;
use std::process::Command;

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

#[test]
fn the_report_renders_in_headless_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.html");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench/gted-minif2f.jsonl");
    let run = Command::new(env!("CARGO_BIN_EXE_lean-assess"))
        .args([
            "bench",
            data.to_str().unwrap(),
            "--html",
            report.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let page = std::fs::read_to_string(&report).unwrap();
    // Self-contained: nothing is fetched when it is viewed.
    for remote in ["src=\"http", "href=\"http", "@import", "<link"] {
        assert!(!page.contains(remote), "the report refers to {remote}");
    }
    let Some(browser) = chromium() else {
        eprintln!("SKIPPED: no chromium installed; the report was written but not opened");
        return;
    };
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
    assert!(
        dom.contains("class=\"accuracy\"") && dom.contains("class=\"kappa\""),
        "no sweep plot"
    );
    assert!(
        dom.contains("<table id=\"confusion\""),
        "no confusion matrix"
    );
    // The rows exist only if the page's script ran: one per pair, all shown.
    assert_eq!(dom.matches("<tr class=\"pair\">").count(), 205);
    assert!(
        dom.contains("205 of 205 pairs"),
        "the filter line is missing"
    );
}
