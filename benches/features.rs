//! From `didChange` to a refreshed code lens with the offline metrics (target: < 50 ms).
//!
//! `cargo bench --bench features [-- --theorems N --edits M]` builds a workspace in a temp dir:
//! `Reference.lean` with N reference theorems and `Cand.lean` with their N candidates from
//! `fixtures/bench/gted-minif2f.jsonl`, each under a `-- @reference Reference.lean::NAME`
//! directive. It opens `Cand.lean` in a [`Features`] (as the router would), then M times edits
//! one character (a full-text `didChange`) and times, from the `observe_client_notification`
//! call, (1) the first `workspace/codeLens/refresh` (the `ted` round done for every theorem)
//! and (2) the last one (every offline lens metric done), then answers the editor's
//! `textDocument/codeLens` request as it would after the refresh. Prints p50/p90/p99/max.
//! `--mode one` (default) edits inside the first theorem's statement (its metrics recomputed,
//! the others' cached), `--mode all` inside every theorem (nothing cached), `--mode comment`
//! outside every theorem (everything cached).

use lean_assess::features::{Features, FeaturesConfig, ToEditor};
use lean_assess::lean::LeanClient;
use lean_assess::references::path_to_uri;
use serde_json::{json, Value};
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1e3
}

/// Wait for `k` lens refreshes; their times since `t0`.
async fn wait_refreshes(rx: &mut mpsc::Receiver<ToEditor>, k: usize, t0: Instant) -> Vec<Duration> {
    let mut times = Vec::new();
    while times.len() < k {
        match tokio::time::timeout(Duration::from_secs(30), rx.recv()).await {
            Ok(Some(ToEditor::Request { method, .. }))
                if method == "workspace/codeLens/refresh" =>
            {
                times.push(t0.elapsed())
            }
            Ok(Some(_)) => {}
            _ => panic!("no refresh within 30 s"),
        }
    }
    times
}

fn main() {
    let n = arg("--theorems", 10);
    let args: Vec<String> = std::env::args().collect();
    let mode = args
        .iter()
        .position(|a| a == "--mode")
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| "one".into());
    let edits = arg("--edits", 200);
    let data = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/bench/gted-minif2f.jsonl"
    ))
    .expect("fixtures/bench/gted-minif2f.jsonl");
    let mut reference = String::from("import Mathlib\n\n");
    let mut candidate = String::from("import Mathlib\n\n");
    for (i, line) in data.lines().take(n).enumerate() {
        let v: Value = serde_json::from_str(line).expect("dataset line");
        let strip = |s: &str| s.split(":= by").next().unwrap_or(s).trim().to_string();
        let rs = strip(v["ref_statement"].as_str().unwrap_or(""));
        let cs = strip(v["cand_statement"].as_str().unwrap_or(""));
        // Unique names: the same reference can appear twice in the dataset.
        let rname = format!("ref_{i}");
        let rs = rs.replacen(v["ref_name"].as_str().unwrap_or("?"), &rname, 1);
        let cs = cs.replacen(
            v["cand_name"].as_str().unwrap_or("?"),
            &format!("cand_{i}"),
            1,
        );
        reference.push_str(&format!("{rs} := by sorry\n\n"));
        // `EDIT` marks where an edit goes (in each name, so a metric cache hit is impossible).
        let cs = cs.replacen(&format!("cand_{i}"), &format!("cand_{i}EDIT"), 1);
        candidate.push_str(&format!(
            "-- @reference Reference.lean::{rname}\n{cs} := by sorry\n\n"
        ));
    }
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("Reference.lean"), &reference).expect("write");
    let uri = path_to_uri(&dir.path().join("Cand.lean"));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let (first, last) = rt.block_on(async {
        let (tx, mut rx) = mpsc::channel(1024);
        let f = Features::new(
            FeaturesConfig {
                config_path: None,
                workspace_root: Some(dir.path().to_path_buf()),
            },
            tx,
            Arc::new(LeanClient::disconnected()),
        );
        f.on_initialize_request(&json!({"capabilities": {"workspace": {"codeLens": {"refreshSupport": true}}}}));
        f.observe_client_notification(
            "textDocument/didOpen",
            &json!({"textDocument": {"uri": uri, "languageId": "lean4", "version": 0,
                     "text": candidate.replace("EDIT", "")}}),
        );
        // One refresh per lens metric round (default lens: ted, transted-lite).
        let rounds = 2;
        wait_refreshes(&mut rx, rounds, Instant::now()).await;
        let mut first = Vec::new();
        let mut last = Vec::new();
        let mut lens_titles = String::new();
        for v in 1..=edits {
            while rx.try_recv().is_ok() {}
            let text = match mode.as_str() {
                // Outside every theorem: every metric result comes from the cache.
                "comment" => format!("{}-- edit {}\n", candidate.replace("EDIT", ""), v % 2),
                // Inside the first theorem only (as when typing in one statement).
                "one" => candidate
                    .replacen("EDIT", &format!("_{v}"), 1)
                    .replace("EDIT", ""),
                // Inside every theorem: nothing cached.
                _ => candidate.replace("EDIT", &format!("_{v}")),
            };
            let t0 = Instant::now();
            f.observe_client_notification(
                "textDocument/didChange",
                &json!({"textDocument": {"uri": uri, "version": v}, "contentChanges": [{"text": text}]}),
            );
            let times = wait_refreshes(&mut rx, rounds, t0).await;
            let lenses = f
                .own_request("textDocument/codeLens", &json!({"textDocument": {"uri": uri}}))
                .expect("codeLens is ours")
                .await
                .expect("lenses");
            last.push(t0.elapsed());
            first.push(times[0]);
            lens_titles = lenses[0]["command"]["title"].as_str().unwrap_or("").to_string();
        }
        let a = f.analysis(&uri).expect("analysed");
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "mode {mode}: theorems with a reference: {}",
            a.theorems.len()
        );
        let _ = writeln!(out, "first lens after the last edit: {lens_titles}");
        (first, last)
    });
    let mut out = std::io::stdout().lock();
    for (what, mut v) in [
        ("didChange → first codeLens/refresh (ted round)", first),
        (
            "didChange → last refresh + codeLens answered (all offline lens metrics)",
            last,
        ),
    ] {
        v.sort();
        let _ = writeln!(
            out,
            "{what}: n={} p50={:.2} ms p90={:.2} ms p99={:.2} ms max={:.2} ms",
            v.len(),
            pct(&v, 0.5),
            pct(&v, 0.9),
            pct(&v, 0.99),
            pct(&v, 1.0)
        );
    }
}
