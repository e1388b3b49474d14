//! The proxy under hostile input: time and memory, each as a ratio against
//! a peer measured in the same run.
//!
//! 1. Incremental diagnostics: N one-diagnostic `publishDiagnostics` with `isIncremental`
//!    from Lean through the proxy, against the same bytes under another method (which the
//!    proxy only peeks at). Ratio of the two times; target ≈ 1.
//! 2. Peak memory of the proxy (VmHWM from /proc) for one 50 MB message: a `didOpen` (which
//!    the features read), a client notification they do not read, and a Lean
//!    `publishDiagnostics`; the growth of the peak over the resident size before the message,
//!    divided by the message size. Target: under 3. And what stays resident after.
//!
//! Run: `cargo bench --bench proxy_hostile` (plain `main`; prints a report).
//! `HOSTILE_COUNTS=2000,20000` and `HOSTILE_MB=50` change the workloads.

#![allow(clippy::print_stdout)] // The report on stdout is this bench's output.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{vm_rss_kib, Editor};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn vm_hwm_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

fn started() -> Editor {
    let mut ed = Editor::proxy(&[]);
    ed.initialize();
    ed.recv_matching(|m| m["id"] == "register_lean_watcher");
    ed
}

/// Seconds for `count` one-diagnostic messages of `method` from Lean to reach the editor.
fn lean_burst(method: &str, count: usize) -> f64 {
    let mut ed = started();
    let mut messages: Vec<Value> = (0..count)
        .map(|i| {
            json!({"jsonrpc": "2.0", "method": method, "params": {
                "uri": "file:///bench/A.lean", "version": 1, "isIncremental": i > 0,
                "diagnostics": [{"range": {"start": {"line": i, "character": 0},
                    "end": {"line": i, "character": 5}}, "severity": 2,
                    "message": format!("declaration uses 'sorry' ({i})"), "source": "Lean 4"}]}})
        })
        .collect();
    messages.push(json!({"jsonrpc": "2.0", "method": "bench/done", "params": {}}));
    let t = Instant::now();
    ed.notify("standin/emit", json!({ "messages": messages }));
    ed.recv_matching(|m| m["method"] == "bench/done");
    let secs = t.elapsed().as_secs_f64();
    ed.close_stdin();
    ed.wait(Duration::from_secs(20));
    secs
}

struct Peak {
    before_rss_kib: u64,
    peak_kib: u64,
    after_rss_kib: u64,
}

/// Peak and resident memory of the proxy around one message, sent by `send`, done when
/// `done` matches a message the editor receives.
fn peak_around(send: impl FnOnce(&mut Editor), done: impl FnMut(&Value) -> bool) -> Peak {
    let mut ed = started();
    let pid = ed.child.id();
    let before_rss_kib = vm_rss_kib(pid).expect("VmRSS");
    send(&mut ed);
    // Tens of megabytes through the proxy and the stand-in: slow in a debug build under load.
    ed.recv_matching_within(Duration::from_secs(120), done);
    // Let the features' job on the document (if any) run its course, then read the peak.
    ed.request(json!("settle"), "standin/echo", json!({}));
    std::thread::sleep(Duration::from_millis(1500));
    let peak_kib = vm_hwm_kib(pid).expect("VmHWM");
    let after_rss_kib = vm_rss_kib(pid).expect("VmRSS");
    ed.close_stdin();
    ed.wait(Duration::from_secs(20));
    Peak { before_rss_kib, peak_kib, after_rss_kib }
}

fn report_peak(what: &str, bytes: usize, p: &Peak) {
    let size_kib = bytes as f64 / 1024.0;
    println!(
        "  {what:<40} before {:>7.1} MiB  peak {:>7.1} MiB  after {:>7.1} MiB  (peak - before) / size = {:.2}  kept / size = {:.2}",
        p.before_rss_kib as f64 / 1024.0,
        p.peak_kib as f64 / 1024.0,
        p.after_rss_kib as f64 / 1024.0,
        (p.peak_kib.saturating_sub(p.before_rss_kib)) as f64 / size_kib,
        (p.after_rss_kib.saturating_sub(p.before_rss_kib)) as f64 / size_kib,
    );
}

/// About `bytes` of Lean-looking text (no `sorry`: the stand-in's diagnostics stay small).
fn lean_text(bytes: usize) -> String {
    let line = "  have h : a + b = b + a := by exact Nat.add_comm a b -- filler 0123456789\n";
    let mut text = String::with_capacity(bytes + line.len());
    text.push_str("import Mathlib\n\ntheorem big (a b : ℕ) : True := by\n");
    while text.len() < bytes {
        text.push_str(line);
    }
    text.push_str("  trivial\n");
    text
}

fn main() {
    let counts: Vec<usize> = std::env::var("HOSTILE_COUNTS")
        .unwrap_or_else(|_| "2000,20000".into())
        .split(',')
        .filter_map(|c| c.trim().parse().ok())
        .collect();
    let mb: usize = std::env::var("HOSTILE_MB").ok().and_then(|v| v.parse().ok()).unwrap_or(50);

    println!("incremental diagnostics from Lean through the proxy (vs the same bytes under another method):");
    for &n in &counts {
        let other = lean_burst("bench/otherMethod", n);
        let incremental = lean_burst("textDocument/publishDiagnostics", n);
        println!(
            "  {n:>6} messages: publishDiagnostics {:>8.3} s   other method {:>8.3} s   ratio {:.2}",
            incremental,
            other,
            incremental / other
        );
    }

    let size = mb * 1024 * 1024;
    println!("peak memory of the proxy for one {mb} MB message (VmHWM):");
    let text = lean_text(size);
    let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///bench/Big.lean", "languageId": "lean4", "version": 1, "text": text}}});
    let open_bytes = serde_json::to_vec(&open).expect("json");
    let open_len = open_bytes.len();
    let p = peak_around(
        |ed| ed.send_raw(&open_bytes),
        |m| m["method"] == "$/lean/fileProgress" && m["params"]["processing"] == json!([]),
    );
    report_peak("textDocument/didOpen", open_len, &p);
    drop(open_bytes);

    let custom = json!({"jsonrpc": "2.0", "method": "custom/upload", "params": {"blob": text}});
    let custom_bytes = serde_json::to_vec(&custom).expect("json");
    let custom_len = custom_bytes.len();
    let p = peak_around(
        |ed| {
            ed.send_raw(&custom_bytes);
            ed.notify(
                "standin/emit",
                json!({"messages": [{"jsonrpc": "2.0", "method": "bench/done", "params": {}}]}),
            );
        },
        |m| m["method"] == "bench/done",
    );
    report_peak("a client notification nobody reads", custom_len, &p);
    drop(custom_bytes);

    // Lean's publish: many ordinary diagnostics adding up to the size.
    let one = json!({"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 5}},
        "severity": 1, "message": "unknown identifier 'foo' — filler 0123456789 0123456789", "source": "Lean 4"});
    let per = serde_json::to_vec(&one).expect("json").len() + 1;
    let diags: Vec<Value> = std::iter::repeat_n(one, size / per).collect();
    let publish = json!({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": {
        "uri": "file:///bench/Big.lean", "version": 1, "diagnostics": diags}});
    let publish_len = serde_json::to_vec(&publish).expect("json").len();
    let p = peak_around(
        |ed| ed.notify("standin/emit", json!({ "messages": [publish] })),
        |m| m["method"] == "textDocument/publishDiagnostics",
    );
    report_peak("Lean's publishDiagnostics (via emit)", publish_len, &p);
    println!("  (the emit request carrying the publish also crosses the proxy, unparsed: the peak covers both)");
}
