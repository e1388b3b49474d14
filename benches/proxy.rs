//! Proxy numbers against the stand-in (issue 4, "Numbers"): added round-trip latency vs. a
//! direct connection (p50/p99 over 10,000 requests of mixed sizes), forwarded throughput both
//! ways, and resident memory of the proxy with 50 open documents (VmRSS from /proc).
//!
//! Run: `cargo bench --bench proxy` (plain `main`, harness = false; prints a report).
//! `PROXY_BENCH_REQUESTS=N` changes the request count.

#![allow(clippy::print_stdout)] // The report on stdout is this bench's output.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{vm_rss_kib, Editor};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Payload sizes of the mixed workload, cycled: mostly small (hover/goal-sized), some
/// medium (a diagnostics batch), a few large (a whole-file didChange).
const SIZES: [usize; 20] = [
    64, 64, 128, 128, 256, 256, 512, 512, 64, 128, 1024, 1024, 2048, 2048, 4096, 4096, 8192, 16384,
    32768, 65536,
];

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn start(direct: bool) -> Editor {
    let mut ed = if direct {
        Editor::direct(&[])
    } else {
        Editor::proxy(&[])
    };
    ed.initialize();
    ed.recv_matching(|m| m["id"] == "register_lean_watcher");
    ed
}

/// Round trips of `standin/echo` to the stand-in directly and through the proxy, alternated
/// request by request so both see the same machine load (this machine is shared), sorted.
#[allow(clippy::type_complexity)]
fn latencies(
    n: usize,
) -> (
    Vec<Duration>,
    Vec<Duration>,
    Vec<f64>,
    (Vec<Duration>, Vec<Duration>),
) {
    let mut direct = start(true);
    let mut proxied = start(false);
    let payloads: Vec<String> = SIZES.iter().map(|&s| "x".repeat(s)).collect();
    let round_trip = |ed: &mut Editor, id: usize| {
        let params = json!({"data": payloads[id % SIZES.len()]});
        let t = Instant::now();
        let r = ed.request(json!(id), "standin/echo", params);
        let elapsed = t.elapsed();
        assert!(r.get("result").is_some());
        elapsed
    };
    // Warm up (page in, grow buffers).
    for i in 0..500 {
        round_trip(&mut direct, i);
        round_trip(&mut proxied, i);
    }
    let (mut d, mut p, mut added) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    // The requests up to 16 KiB (the bulk of editor traffic), apart: the 32/64 KiB ones are
    // 10% of the mix, so they alone make the p99.
    let (mut small_d, mut small_p) = (Vec::new(), Vec::new());
    for i in 0..n {
        let (a, b) = if i % 2 == 0 {
            let a = round_trip(&mut direct, 1000 + i);
            (a, round_trip(&mut proxied, 1000 + i))
        } else {
            let b = round_trip(&mut proxied, 1000 + i);
            (round_trip(&mut direct, 1000 + i), b)
        };
        d.push(a);
        p.push(b);
        added.push(us(b) - us(a));
        if SIZES[(1000 + i) % SIZES.len()] <= 16384 {
            small_d.push(a);
            small_p.push(b);
        }
    }
    d.sort();
    p.sort();
    added.sort_by(f64::total_cmp);
    small_d.sort();
    small_p.sort();
    (d, p, added, (small_d, small_p))
}

/// Lean → editor: `count` notifications of `bytes` each; MB/s from request to the last one.
fn throughput_to_editor(direct: bool, count: u64, bytes: u64) -> f64 {
    let mut ed = start(direct);
    let t = Instant::now();
    ed.notify("standin/flood", json!({"count": count, "bytes": bytes}));
    let mut seen = 0u64;
    let mut total = 0u64;
    loop {
        let body = ed.recv_raw(Duration::from_secs(60)).expect("flood frame");
        total += body.len() as u64;
        if body.windows(17).any(|w| w == b"standin/floodDone") && body.len() < 200 {
            break;
        }
        seen += 1;
    }
    assert_eq!(seen, count);
    total as f64 / t.elapsed().as_secs_f64() / 1e6
}

/// Editor → Lean: `count` notifications of `bytes` each, then an echo as a barrier.
fn throughput_to_lean(direct: bool, count: usize, bytes: usize) -> f64 {
    let mut ed = start(direct);
    let body = serde_json::to_vec(
        &json!({"jsonrpc": "2.0", "method": "custom/blob", "params": {"data": "x".repeat(bytes)}}),
    )
    .expect("json");
    let t = Instant::now();
    for _ in 0..count {
        ed.send_raw(&body);
    }
    ed.request(json!("barrier"), "standin/echo", Value::Null);
    (count * body.len()) as f64 / t.elapsed().as_secs_f64() / 1e6
}

/// A Lean file of about `lines` lines, Unicode-heavy like Mathlib statements.
fn lean_document(k: usize, lines: usize) -> String {
    let mut text = String::from("import Mathlib\n\nopen Real\n\n");
    for i in 0..lines / 4 {
        text.push_str(&format!(
            "theorem t{k}_{i} (x y : ℝ) (h₀ : 0 < x ∧ 0 < y) (h₁ : x + y ≤ {i}) :\n    x * y ≤ ({i} : ℝ) ^ 2 / 4 ∧ ∀ ε > 0, ∃ δ > 0, |x - y| < δ → x ≠ y + ε := by\n  sorry\n\n"
        ));
    }
    text
}

fn memory_with_documents(docs: usize) -> (u64, u64) {
    let mut ed = start(false);
    let pid = ed.child.id();
    let before = vm_rss_kib(pid).unwrap_or(0);
    for k in 0..docs {
        let uri = format!("file:///bench/Doc{k}.lean");
        ed.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "lean4", "version": 1, "text": lean_document(k, 400)}}),
        );
        ed.request(
            json!(format!("w{k}")),
            "textDocument/waitForDiagnostics",
            json!({"uri": uri, "version": 1}),
        );
    }
    // A round of edits on every document, as typing would.
    for k in 0..docs {
        let uri = format!("file:///bench/Doc{k}.lean");
        ed.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2},
                   "contentChanges": [{"range": {"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 0}}, "text": "-- edited\n"}]}),
        );
        ed.request(
            json!(format!("v{k}")),
            "textDocument/waitForDiagnostics",
            json!({"uri": uri, "version": 2}),
        );
    }
    std::thread::sleep(Duration::from_millis(200));
    (before, vm_rss_kib(pid).unwrap_or(0))
}

/// In-process cost of routing one 1 MiB notification: the frame read from memory plus the
/// `id`/`method` peek (no pipes, no other process).
fn routing_cost_mb_s() -> f64 {
    let body = serde_json::to_vec(&json!({"jsonrpc": "2.0", "method": "custom/blob", "params": {"data": "x".repeat(1 << 20)}}))
        .expect("json");
    let mut stream = Vec::new();
    for _ in 0..100 {
        stream.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
        stream.extend_from_slice(&body);
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let t = Instant::now();
    let n = rt.block_on(async {
        let mut reader = lean_assess::wire::FrameReader::new(&stream[..], "bench");
        let mut n = 0;
        while let Some(frame) = reader.read_frame().await.expect("frame") {
            assert!(matches!(
                lean_assess::wire::peek(&frame.bytes),
                lean_assess::wire::Peek::Notification { .. }
            ));
            n += frame.bytes.len();
        }
        n
    });
    n as f64 / t.elapsed().as_secs_f64() / 1e6
}

fn main() {
    let n: usize = std::env::var("PROXY_BENCH_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    println!("lean-assess proxy bench (stand-in server; sizes cycle {SIZES:?} bytes)");

    let (direct, proxied, added, (small_d, small_p)) = latencies(n);
    let (d50, d99) = (percentile(&direct, 0.5), percentile(&direct, 0.99));
    let (p50, p99) = (percentile(&proxied, 0.5), percentile(&proxied, 0.99));
    let paired = |q: f64| added[((added.len() as f64 - 1.0) * q).round() as usize];
    println!("round trip, {n} requests each way (alternated), µs:   p50      p99");
    println!(
        "  direct to the stand-in                       {:8.1} {:8.1}",
        us(d50),
        us(d99)
    );
    println!(
        "  through lean-assess serve                    {:8.1} {:8.1}",
        us(p50),
        us(p99)
    );
    println!(
        "  added: difference of the percentiles         {:8.1} {:8.1}   (target p99 < 1000)",
        us(p50) - us(d50),
        us(p99) - us(d99)
    );
    println!(
        "  added: percentiles of paired differences     {:8.1} {:8.1}",
        paired(0.5),
        paired(0.99)
    );
    println!(
        "  requests ≤ 16 KiB only: direct {:.1} / {:.1}, through the proxy {:.1} / {:.1} (p50 / p99)",
        us(percentile(&small_d, 0.5)),
        us(percentile(&small_d, 0.99)),
        us(percentile(&small_p, 0.5)),
        us(percentile(&small_p, 0.99))
    );
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        let load: Vec<&str> = load.split_whitespace().take(3).collect();
        println!(
            "  (load average after measuring: {}; 2 cores)",
            load.join(" ")
        );
    }

    println!(
        "in-process frame read + peek of 1 MiB notifications: {:.0} MB/s",
        routing_cost_mb_s()
    );
    let (count, bytes) = (200u64, 1u64 << 20);
    let td = throughput_to_editor(true, count, bytes);
    let tp = throughput_to_editor(false, count, bytes);
    println!("Lean → editor, {count} × 1 MiB notifications: direct {td:.0} MB/s, through the proxy {tp:.0} MB/s   (target ≥ 200)");
    let ud = throughput_to_lean(true, count as usize, bytes as usize);
    let up = throughput_to_lean(false, count as usize, bytes as usize);
    println!("editor → Lean, {count} × 1 MiB notifications: direct {ud:.0} MB/s, through the proxy {up:.0} MB/s   (target ≥ 200)");

    let (before, after) = memory_with_documents(50);
    println!(
        "proxy VmRSS: {:.1} MiB after initialize, {:.1} MiB with 50 open documents (~{} KiB each, edited once)   (target < 40 MiB)",
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        lean_document(0, 400).len() / 1024
    );
}
