//! Proxy numbers against the stand-in: added round-trip
//! latency vs. a direct connection and vs. a plain byte relay (p50/p99 over 10,000 requests of
//! mixed sizes), forwarded throughput both ways (proxy and relay), the editor→Lean reader's stall
//! behind a 2,000-edit `didChange` on a 580 KB file, a trivial request's round trip while 300
//! judged theorems are edited every 50 ms (metrics on vs. off), and resident memory of the proxy
//! with 50 open documents (VmRSS from /proc).
//!
//! The floor, measured in the same run: this bench binary re-executed as a byte relay
//! (`PROXY_BENCH_RELAY=<server>`): two threads copying stdin→server and server→stdout through a
//! 64 KiB buffer, no framing, no parsing. Whatever the proxy adds beyond it is its own cost.
//!
//! Run: `cargo bench --bench proxy` (plain `main`, harness = false; prints a report).
//! `PROXY_BENCH_REQUESTS=N` changes the request count; `PROXY_BENCH_ONLY=latency,throughput,
//! burst,load,memory` runs some parts only.

#![allow(clippy::print_stdout)] // The report on stdout is this bench's output.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{framed, read_frame_into, vm_rss_kib, Editor, STANDIN};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How the bench talks to the stand-in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Via {
    Direct,
    Relay,
    Proxy,
}

/// Relay mode: copy bytes both ways between our stdio and the server, nothing else.
fn relay(server: &str) -> ! {
    let mut command = server_command(server);
    let mut child = command
        .env_remove("PROXY_BENCH_RELAY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn the server behind the relay");
    let mut to_server = child.stdin.take().expect("stdin");
    let mut from_server = child.stdout.take().expect("stdout");
    let up = std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut buf = vec![0u8; 1 << 16];
        while let Ok(n) = stdin.read(&mut buf) {
            if n == 0 || to_server.write_all(&buf[..n]).is_err() {
                break;
            }
        }
    });
    std::thread::spawn(move || {
        let mut stdout = std::io::stdout().lock();
        let mut buf = vec![0u8; 1 << 16];
        while let Ok(n) = from_server.read(&mut buf) {
            if n == 0 || stdout.write_all(&buf[..n]).is_err() || stdout.flush().is_err() {
                break;
            }
        }
    });
    let _ = up.join();
    let _ = child.kill();
    std::process::exit(0)
}

/// The server to start: the stand-in's path, or `sink` (this bench binary as [`sink`]).
fn server_command(server: &str) -> Command {
    if server == SINK {
        let mut c = Command::new(std::env::current_exe().expect("own path"));
        c.env("PROXY_BENCH_SINK", "1");
        c
    } else {
        Command::new(server)
    }
}

const SINK: &str = "sink";

/// Sink mode: a server that reads frames as fast as it can and discards them, answering only
/// requests (`initialize`, the `standin/echo` barrier) with a null-ish result. Against it the
/// throughput measures the path in front of the server; against the stand-in, which parses
/// every message into a `serde_json::Value` and copies its params, the stand-in itself is the
/// slowest stage and every path in front of it measures its speed.
fn sink() -> ! {
    let mut input = std::io::BufReader::with_capacity(1 << 20, std::io::stdin().lock());
    let mut out = std::io::stdout().lock();
    let mut body = Vec::new();
    loop {
        if read_frame_into(&mut input, &mut body).is_none() {
            std::process::exit(0);
        }
        let length = body.len();
        // Only small messages can be requests worth answering here.
        if length > 4096 {
            continue;
        }
        let Ok(v) = serde_json::from_slice::<Value>(&body) else {
            continue;
        };
        if let (Some(id), Some(method)) = (v.get("id"), v["method"].as_str()) {
            let result =
                if method == "initialize" { json!({"capabilities": {}}) } else { Value::Null };
            let reply = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
            let _ = out.write_all(&framed(reply.as_bytes()));
            let _ = out.flush();
        }
        if v["method"] == "exit" {
            std::process::exit(0);
        }
    }
}

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

fn start(via: Via) -> Editor {
    let mut ed = match via {
        Via::Direct => Editor::direct(&[]),
        Via::Proxy => Editor::proxy(&[]),
        Via::Relay => {
            let mut cmd = Command::new(std::env::current_exe().expect("own path"));
            cmd.env("PROXY_BENCH_RELAY", STANDIN);
            Editor::spawn(cmd, &[], tempfile::tempdir().expect("tmp"))
        }
    };
    ed.initialize();
    ed.recv_matching(|m| m["id"] == "register_lean_watcher");
    ed
}

/// A session with [`sink`] as the server, directly, through the relay or through the proxy.
fn start_sink(via: Via) -> Editor {
    let mut ed = match via {
        Via::Direct => Editor::spawn(server_command(SINK), &[], tempfile::tempdir().expect("tmp")),
        Via::Proxy => {
            let exe = std::env::current_exe().expect("own path");
            let exe = exe.to_str().expect("UTF-8 path");
            Editor::proxy_with(&[exe], &[("PROXY_BENCH_SINK", "1")])
        }
        Via::Relay => {
            let mut cmd = Command::new(std::env::current_exe().expect("own path"));
            cmd.env("PROXY_BENCH_RELAY", SINK);
            Editor::spawn(cmd, &[], tempfile::tempdir().expect("tmp"))
        }
    };
    ed.initialize();
    ed
}

/// Sorted round-trip times and their paired differences against the direct connection.
struct Latencies {
    direct: Vec<Duration>,
    relay: Vec<Duration>,
    proxy: Vec<Duration>,
    /// Per request: relay − direct and proxy − direct (µs), sorted.
    added_relay: Vec<f64>,
    added_proxy: Vec<f64>,
    /// Requests up to 16 KiB only (direct, relay, proxy).
    small: [Vec<Duration>; 3],
}

/// Round trips of `standin/echo` directly, through the relay and through the proxy, rotated
/// request by request so all three see the same machine load (this machine is shared).
fn latencies(n: usize) -> Latencies {
    let mut eds = [start(Via::Direct), start(Via::Relay), start(Via::Proxy)];
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
        for ed in eds.iter_mut() {
            round_trip(ed, i);
        }
    }
    let mut l = Latencies {
        direct: Vec::with_capacity(n),
        relay: Vec::with_capacity(n),
        proxy: Vec::with_capacity(n),
        added_relay: Vec::with_capacity(n),
        added_proxy: Vec::with_capacity(n),
        small: [Vec::new(), Vec::new(), Vec::new()],
    };
    for i in 0..n {
        let mut t = [Duration::ZERO; 3];
        for k in 0..3 {
            let which = (i + k) % 3;
            t[which] = round_trip(&mut eds[which], 1000 + i);
        }
        l.direct.push(t[0]);
        l.relay.push(t[1]);
        l.proxy.push(t[2]);
        l.added_relay.push(us(t[1]) - us(t[0]));
        l.added_proxy.push(us(t[2]) - us(t[0]));
        // The requests up to 16 KiB (the bulk of editor traffic), apart: the 32/64 KiB ones
        // are 10% of the mix, so they alone make the p99.
        if SIZES[(1000 + i) % SIZES.len()] <= 16384 {
            for (small, t) in l.small.iter_mut().zip(t) {
                small.push(t);
            }
        }
    }
    for v in [&mut l.direct, &mut l.relay, &mut l.proxy] {
        v.sort();
    }
    for v in l.small.iter_mut() {
        v.sort();
    }
    l.added_relay.sort_by(f64::total_cmp);
    l.added_proxy.sort_by(f64::total_cmp);
    l
}

/// Lean → editor: `count` notifications of `bytes` each; MB/s from request to the last one.
fn throughput_to_editor(via: Via, count: u64, bytes: u64) -> f64 {
    let mut ed = start(via);
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

/// Editor → Lean: `count` notifications of `bytes` each, then an echo as a barrier. `sink`:
/// against [`sink`] instead of the stand-in.
fn throughput_to_lean(via: Via, count: usize, bytes: usize, sink: bool) -> f64 {
    let mut ed = if sink { start_sink(via) } else { start(via) };
    let body = serde_json::to_vec(
        &json!({"jsonrpc": "2.0", "method": "custom/blob", "params": {"data": "x".repeat(bytes)}}),
    )
    .expect("json");
    let t = Instant::now();
    for _ in 0..count {
        ed.send_raw(&body);
    }
    // The barrier's answer comes after every megabyte before it has gone through: under
    // `cargo test` (a debug build, on a loaded machine) that can take longer than `WAIT`.
    ed.send(&json!({"jsonrpc": "2.0", "id": "barrier", "method": "standin/echo", "params": null}));
    ed.recv_matching_within(Duration::from_secs(300), |m| {
        m.get("id") == Some(&json!("barrier")) && m.get("method").is_none()
    });
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
    let mut ed = start(Via::Proxy);
    let pid = ed.child.id();
    let before = vm_rss_kib(pid).unwrap_or(0);
    for k in 0..docs {
        let uri = format!("file:///bench/Doc{k}.lean");
        ed.open_document(&uri, &lean_document(k, 400));
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
        stream.extend_from_slice(&framed(&body));
    }
    let rt = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
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

/// Send a request as raw bytes and wait for its response, dropping everything else (a
/// backlog of diagnostics must not slow the client down while it measures).
fn raw_round_trip(ed: &mut Editor, id: &str) -> Duration {
    let body = format!(r#"{{"jsonrpc":"2.0","id":"{id}","method":"standin/echo","params":null}}"#);
    let want =
        lean_assess::wire::Peek::Response { id: lean_assess::wire::RequestId::Str(id.to_string()) };
    let t = Instant::now();
    ed.send_raw(body.as_bytes());
    loop {
        let got = ed.recv_raw(Duration::from_secs(60)).expect("echo reply");
        if lean_assess::wire::peek(&got) == want {
            return t.elapsed();
        }
    }
}

/// A 580 KB Lean file and one `didChange` with `edits` one-character ranged edits spread over
/// it (as a multi-cursor replace sends).
fn burst_change(uri: &str, edits: usize) -> (String, Vec<u8>) {
    let mut text = lean_document(0, 13_000);
    let mut cut = (580 * 1024).min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.truncate(cut);
    let lines = text.lines().count();
    let changes: Vec<Value> = (0..edits)
        .map(|i| {
            let line = (i * 7919) % lines;
            json!({"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 1}}, "text": "t"})
        })
        .collect();
    let body = serde_json::to_vec(&json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": changes}}))
    .expect("json");
    (text, body)
}

/// The editor→Lean reader behind a 2,000-edit didChange: an echo sent right after it, its
/// round trip (median of `rounds`), through `via`.
fn burst_stall(via: Via, rounds: usize) -> Duration {
    let mut times = Vec::new();
    for r in 0..rounds {
        let mut ed = start(via);
        let uri = format!("file:///bench/Burst{r}.lean");
        let (text, change) = burst_change(&uri, 2000);
        ed.open_document(&uri, &text);
        raw_round_trip(&mut ed, "before");
        let t = Instant::now();
        ed.send_raw(&change);
        raw_round_trip(&mut ed, "after");
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

/// A workspace with `n` judged theorems (candidates under `-- @reference` directives, from
/// `fixtures/bench/gted-minif2f.jsonl`, cycled) and `lens` as the lens metrics.
fn judged_workspace(n: usize, lens: &str) -> (tempfile::TempDir, String, Vec<(usize, usize)>) {
    let data = common::minif2f_lines();
    let mut reference = String::from("import Mathlib\n\n");
    let mut candidate = String::from("import Mathlib\n\n");
    // (line, column) of the character each edit flips: the last of the theorem's name.
    let mut spots = Vec::new();
    for (i, line) in data.lines().cycle().take(n).enumerate() {
        let v: Value = serde_json::from_str(line).expect("dataset line");
        let strip = |s: &str| {
            let s = s.split(":= by").next().unwrap_or(s).trim();
            s.split_whitespace().collect::<Vec<_>>().join(" ")
        };
        let rname = format!("ref_{i}");
        let rs = strip(v["ref_statement"].as_str().unwrap_or("")).replacen(
            v["ref_name"].as_str().unwrap_or("?"),
            &rname,
            1,
        );
        let cname = format!("cand_{i}a");
        let cs = strip(v["cand_statement"].as_str().unwrap_or("")).replacen(
            v["cand_name"].as_str().unwrap_or("?"),
            &cname,
            1,
        );
        reference.push_str(&format!("{rs} := by sorry\n\n"));
        candidate.push_str(&format!("-- @reference Reference.lean::{rname}\n"));
        let line_no = candidate.lines().count();
        let col = cs.find(&cname).map_or(0, |c| cs[..c].encode_utf16().count() + cname.len() - 1);
        spots.push((line_no, col));
        candidate.push_str(&format!("{cs} := by sorry\n\n"));
    }
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("Reference.lean"), reference).expect("write");
    std::fs::write(dir.path().join("lean-assess.toml"), format!("[metrics]\nlens = [{lens}]\n"))
        .expect("write");
    (dir, candidate, spots)
}

/// A trivial request's round trips while every theorem of a 300-theorem document is edited
/// every 50 ms (nothing cached: each edit starts all the metric work anew), for `secs`.
/// `envs`: the proxy's environment (`LEAN_ASSESS_JOB_QUIET_MS=0` for jobs started at every
/// edit, the behaviour before the debounce).
fn round_trip_under_edits(lens: &str, secs: u64, envs: &[(&str, &str)]) -> Vec<Duration> {
    let (dir, text, spots) = judged_workspace(300, lens);
    let mut ed = Editor::proxy_in(dir.path(), envs);
    ed.initialize();
    let uri = lean_assess::files::path_to_uri(&dir.path().join("Cand.lean"));
    ed.open_document(&uri, &text);
    let mut times = Vec::new();
    let mut version = 1;
    let mut next_edit = Instant::now();
    let end = Instant::now() + Duration::from_secs(secs);
    let mut k = 0usize;
    while Instant::now() < end {
        if Instant::now() >= next_edit {
            version += 1;
            let (old, new) = if version % 2 == 0 { ("a", "b") } else { ("b", "a") };
            debug_assert_ne!(old, new);
            let changes: Vec<Value> = spots
                .iter()
                .map(|&(line, col)| json!({"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}}, "text": new}))
                .collect();
            ed.notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
            );
            next_edit += Duration::from_millis(50);
        }
        k += 1;
        times.push(raw_round_trip(&mut ed, &format!("t{k}")));
        std::thread::sleep(Duration::from_millis(2));
    }
    times.sort();
    times
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    if let Ok(server) = std::env::var("PROXY_BENCH_RELAY") {
        relay(&server);
    }
    if std::env::var_os("PROXY_BENCH_SINK").is_some() {
        sink();
    }
    let n: usize =
        std::env::var("PROXY_BENCH_REQUESTS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let only = std::env::var("PROXY_BENCH_ONLY").unwrap_or_default();
    let run = |part: &str| only.is_empty() || only.split(',').any(|p| p == part);
    println!("lean-assess proxy bench (stand-in server; sizes cycle {SIZES:?} bytes)");

    if run("latency") {
        let l = latencies(n);
        let p = |v: &[Duration], q: f64| us(percentile(v, q));
        let paired = |v: &[f64], q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize];
        println!("round trip, {n} requests each (rotated), µs:         p50      p99");
        println!(
            "  direct to the stand-in                       {:8.1} {:8.1}",
            p(&l.direct, 0.5),
            p(&l.direct, 0.99)
        );
        println!(
            "  through the byte relay (floor)               {:8.1} {:8.1}",
            p(&l.relay, 0.5),
            p(&l.relay, 0.99)
        );
        println!(
            "  through lean-assess serve                    {:8.1} {:8.1}",
            p(&l.proxy, 0.5),
            p(&l.proxy, 0.99)
        );
        let (ar, ap) = (paired(&l.added_relay, 0.5), paired(&l.added_proxy, 0.5));
        println!(
            "  added (paired differences) p50: relay {ar:.1} µs, proxy {ap:.1} µs → proxy/relay {:.2}×   (target ≤ 2×)",
            ap / ar.max(0.1)
        );
        println!(
            "  added p99 (difference of percentiles): relay {:.1} µs, proxy {:.1} µs   (target proxy < 1000)",
            p(&l.relay, 0.99) - p(&l.direct, 0.99),
            p(&l.proxy, 0.99) - p(&l.direct, 0.99)
        );
        println!(
            "  requests ≤ 16 KiB only, p50 / p99 µs: direct {:.1} / {:.1}, relay {:.1} / {:.1}, proxy {:.1} / {:.1}",
            p(&l.small[0], 0.5), p(&l.small[0], 0.99),
            p(&l.small[1], 0.5), p(&l.small[1], 0.99),
            p(&l.small[2], 0.5), p(&l.small[2], 0.99)
        );
        if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
            let load: Vec<&str> = load.split_whitespace().take(3).collect();
            println!("  (load average after measuring: {}; 2 cores)", load.join(" "));
        }
    }

    if run("throughput") {
        println!(
            "in-process frame read + peek of 1 MiB notifications: {:.0} MB/s",
            routing_cost_mb_s()
        );
        let (count, bytes) = (200u64, 1u64 << 20);
        // Interleaved runs, best of three each: the machine is shared, the best run is the
        // one least disturbed.
        let mut best = [[0f64; 3]; 2];
        for _ in 0..3 {
            for (k, via) in [Via::Direct, Via::Relay, Via::Proxy].into_iter().enumerate() {
                best[0][k] = best[0][k].max(throughput_to_editor(via, count, bytes));
                best[1][k] =
                    best[1][k].max(throughput_to_lean(via, count as usize, bytes as usize, false));
            }
        }
        for (dir, b) in
            [("Lean → editor (stand-in)", best[0]), ("editor → Lean (stand-in)", best[1])]
        {
            println!(
                "{dir}, {count} × 1 MiB notifications (best of 3): direct {:.0} MB/s, relay {:.0} MB/s, proxy {:.0} MB/s → proxy/relay {:.2}×   (target ≥ 0.9×)",
                b[0], b[1], b[2], b[2] / b[1]
            );
        }
        // Against the sink, which discards what it reads: the path in front of the server is
        // the slowest stage. Every run's ratio, interleaved, not only the best.
        let mut ratios = Vec::new();
        let mut rates = [Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..5 {
            let r: Vec<f64> = [Via::Direct, Via::Relay, Via::Proxy]
                .into_iter()
                .map(|via| throughput_to_lean(via, count as usize, bytes as usize, true))
                .collect();
            for (k, v) in r.iter().enumerate() {
                rates[k].push(*v);
            }
            ratios.push(r[2] / r[1]);
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let shown: Vec<String> = ratios.iter().map(|r| format!("{r:.2}")).collect();
        println!(
            "editor → Lean (sink), {count} × 1 MiB notifications, 5 interleaved runs: median direct {:.0} MB/s, relay {:.0} MB/s, proxy {:.0} MB/s; proxy/relay per run {}×   (target ≥ 0.9×)",
            median(&mut rates[0]),
            median(&mut rates[1]),
            median(&mut rates[2]),
            shown.join(", ")
        );
    }

    if run("burst") {
        let relay = burst_stall(Via::Relay, 3);
        let proxy = burst_stall(Via::Proxy, 3);
        println!(
            "didChange with 2,000 ranged edits on a {} KB file, then an echo: round trip relay {:.1} ms, proxy {:.1} ms (median of 3)",
            burst_change("file:///x", 0).0.len() / 1024, ms(relay), ms(proxy)
        );
    }

    if run("load") {
        let secs = 8;
        let lens = "\"ted\", \"transted-lite\"";
        let no_wait = [(lean_assess::features::JOB_QUIET_ENV, "0")];
        let mut off = Vec::new();
        let mut on = Vec::new();
        let mut on_no_wait = Vec::new();
        // Interleaved, so the three see the same machine load.
        for _ in 0..2 {
            off.extend(round_trip_under_edits("", secs / 2, &[]));
            on.extend(round_trip_under_edits(lens, secs / 2, &[]));
            on_no_wait.extend(round_trip_under_edits(lens, secs / 2, &no_wait));
        }
        off.sort();
        on.sort();
        on_no_wait.sort();
        let p = |v: &[Duration], q: f64| ms(percentile(v, q));
        println!(
            "trivial request while 300 judged theorems are all edited every 50 ms ({} / {} / {} requests), p50 / p99 ms:",
            off.len(), on.len(), on_no_wait.len()
        );
        println!(
            "  metrics off (lens = [])                                    {:7.2} {:7.2}",
            p(&off, 0.5),
            p(&off, 0.99)
        );
        println!(
            "  metrics on, job at every edit ({}=0) {:7.2} {:7.2} → p99 on/off {:.2}×",
            lean_assess::features::JOB_QUIET_ENV,
            p(&on_no_wait, 0.5),
            p(&on_no_wait, 0.99),
            p(&on_no_wait, 0.99) / p(&off, 0.99)
        );
        println!(
            "  metrics on, job after {} ms quiet (default)                 {:7.2} {:7.2} → p99 on/off {:.2}×   (target ≤ 2×)",
            lean_assess::features::JOB_QUIET.as_millis(),
            p(&on, 0.5),
            p(&on, 0.99),
            p(&on, 0.99) / p(&off, 0.99)
        );
    }

    if run("memory") {
        let (before, after) = memory_with_documents(50);
        println!(
            "proxy VmRSS: {:.1} MiB after initialize, {:.1} MiB with 50 open documents (~{} KiB each, edited once)   (target < 40 MiB)",
            before as f64 / 1024.0,
            after as f64 / 1024.0,
            lean_document(0, 400).len() / 1024
        );
    }
}
