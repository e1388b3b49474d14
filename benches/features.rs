//! From `didChange` to a refreshed code lens with the offline metrics (target: < 50 ms).
//!
//! `cargo bench --bench features [-- --theorems N --edits M --mode one|all|comment --change
//! ranged|full]` builds a workspace in a temp dir: `Reference.lean` with N reference theorems
//! and `Cand.lean` with their N candidates from `fixtures/bench/gted-minif2f.jsonl` (cycled past
//! its 205 pairs, names made unique), each under a `-- @reference Reference.lean::NAME`
//! directive. It opens `Cand.lean` in a [`Features`] (as the router would), then M times edits
//! (ranged `didChange`s, as editors send them, or full-text ones with `--change full`) and times, from the `observe_client_notification`
//! call, (1) the first `workspace/codeLens/refresh` (the `ted` round done for every theorem)
//! and (2) the last one (every offline lens metric done), then answers the editor's
//! `textDocument/codeLens` request as it would after the refresh. Prints p50/p90/p99/max.
//! `--mode one` (default) edits inside the first theorem's statement (its metrics recomputed,
//! the others' cached; mostly the same length), `--mode typing` types one more character there
//! each time (every later theorem moves), `--mode all` inside every theorem (nothing cached), `--mode comment`
//! outside every theorem (everything cached; ranged: a comment line inserted above every theorem
//! and removed again, so every theorem moves).
//!
//! `--sizes 10,200,1000` runs those sizes in one process, taking turns edit by edit (so that
//! the machine's load falls on each alike), and prints each size's all-lenses-answered p50 and
//! p99 against the first size's ("flatness"). The lens answer is the JSON text the router
//! sends; every 10th edit (and the last) it is checked equal to the uncached lens path. The
//! floor runs on a blocking-pool thread, as the job's metric work does.
//!
//! Before that it times the document mirror alone on a `didChange` of 2,000 one-character
//! ranged edits on a 580 KB file (what the editor→Lean reader does with it), against the floor of
//! deserializing that notification's params (which the reader does anyway).

#[path = "../tests/common/lean_text.rs"]
mod lean_text;

use lean_assess::features::{engine, views, Features, FeaturesConfig, ToEditor};
use lean_assess::files::path_to_uri;
use lean_assess::lean::LeanClient;
use lean_assess::metrics::Pair;
use serde_json::{json, Value};
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Both files' header (what precedes their first theorem).
const HEADER: &str = "import Mathlib\n\n";

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
/// Polls every `poll` until no job runs on `uri`; panics after `limit`.
async fn wait_until_idle(f: &Features, uri: &str, limit: Duration, poll: Duration) {
    let quiet_since = Instant::now();
    while f.job_busy(uri) {
        assert!(quiet_since.elapsed() < limit, "the job on {uri} still runs after {limit:?}");
        tokio::time::sleep(poll).await;
    }
}

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

/// The mirror's cost for 2,000 ranged edits on a 580 KB document vs. deserializing them.
fn burst() {
    let mut text = String::new();
    let mut i = 0;
    while text.len() < 580 * 1024 {
        text.push_str(&format!(
            "theorem t{i} (x y : ℝ) (h₀ : 0 < x ∧ 0 < y) (h₁ : x + y ≤ {i}) :\n    x * y ≤ ({i} : ℝ) ^ 2 / 4 := by\n  sorry\n\n"
        ));
        i += 1;
    }
    let lines = text.lines().count();
    let uri = "file:///bench/Burst.lean";
    let changes: Vec<Value> = (0..2000)
        .map(|i| {
            let line = (i * 7919) % lines;
            json!({"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 1}}, "text": "t"})
        })
        .collect();
    let params = json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": changes});
    let raw = serde_json::to_string(&params).expect("json");
    let mut mirror_times = Vec::new();
    let mut parse_times = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let v: Value = serde_json::from_str(&raw).expect("json");
        parse_times.push(t.elapsed());
        let m = lean_assess::documents::DocumentMirror::new();
        m.observe(
            "textDocument/didOpen",
            &json!({"textDocument": {"uri": uri, "languageId": "lean4", "version": 1, "text": text}}),
        )
        .expect("open");
        let t = Instant::now();
        m.observe("textDocument/didChange", &v).expect("change");
        mirror_times.push(t.elapsed());
    }
    mirror_times.sort();
    parse_times.sort();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "document mirror, didChange with 2,000 ranged edits on a {} KB file ({lines} lines): {:.2} ms (median of 5); deserializing its params: {:.2} ms → {:.1}×",
        text.len() / 1024,
        mirror_times[2].as_secs_f64() * 1e3,
        parse_times[2].as_secs_f64() * 1e3,
        mirror_times[2].as_secs_f64() / parse_times[2].as_secs_f64()
    );
}

/// The change that turns `from` into `to` as one ranged edit (common prefix and suffix kept).
fn ranged(from: &str, to: &str) -> Value {
    let doc = lean_assess::documents::Document::new("u", 0, from);
    let p = from.bytes().zip(to.bytes()).take_while(|(a, b)| a == b).count();
    let mut p = p;
    while !from.is_char_boundary(p) || !to.is_char_boundary(p) {
        p -= 1;
    }
    let max_suffix = (from.len() - p).min(to.len() - p);
    let mut q = from
        .bytes()
        .rev()
        .zip(to.bytes().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    while !from.is_char_boundary(from.len() - q) || !to.is_char_boundary(to.len() - q) {
        q -= 1;
    }
    json!({"range": doc.range_of(p, from.len() - q), "text": &to[p..to.len() - q]})
}

/// One size's figures (ms, sorted) and what its lenses said.
struct Run {
    /// What the run says of itself (theorem count, last title, checks, jobs).
    notes: String,
    first: Vec<Duration>,
    last: Vec<Duration>,
    floor: Vec<Duration>,
    ratio: Vec<f64>,
}

fn main() {
    if !std::env::args().any(|a| a == "--no-burst") {
        burst();
    }
    let args: Vec<String> = std::env::args().collect();
    let change = args
        .windows(2)
        .find(|w| w[0] == "--change")
        .map_or_else(|| "ranged".to_string(), |w| w[1].clone());
    let mode = args
        .iter()
        .position(|a| a == "--mode")
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| "one".into());
    let edits = arg("--edits", 200);
    // `--sizes 10,200,1000`: each size in turn in this process, then each against the first.
    let sizes: Vec<usize> = args
        .windows(2)
        .find(|w| w[0] == "--sizes")
        .map(|w| w[1].split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![arg("--theorems", 10)]);
    // One runtime; the sizes take turns edit by edit (a fair lock: first come, first served),
    // so that a change in the machine's load falls on every size alike.
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let results: Vec<Run> = rt.block_on(async {
        let baton = Arc::new(tokio::sync::Mutex::new(()));
        let tasks: Vec<_> = sizes
            .iter()
            .map(|&n| tokio::spawn(one_size(n, mode.clone(), change.clone(), edits, baton.clone())))
            .collect();
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await.expect("size task"));
        }
        out
    });
    let mut runs = Vec::new();
    for (n, run) in sizes.iter().copied().zip(results) {
        let _ = write!(std::io::stdout().lock(), "{}", run.notes);
        report(&run);
        runs.push((n, run));
    }
    if runs.len() > 1 {
        let mut out = std::io::stdout().lock();
        let (n0, base) = &runs[0];
        let mut b = base.last.clone();
        b.sort();
        for (n, run) in &runs[1..] {
            let mut v = run.last.clone();
            v.sort();
            let _ = writeln!(
                out,
                "flatness, all lenses answered at {n} theorems / at {n0}: p50 {:.2}×, p99 {:.2}× ({:.2} / {:.2} ms, {:.2} / {:.2} ms)",
                pct(&v, 0.5) / pct(&b, 0.5),
                pct(&v, 0.99) / pct(&b, 0.99),
                pct(&v, 0.5),
                pct(&b, 0.5),
                pct(&v, 0.99),
                pct(&b, 0.99),
            );
        }
    }
}

fn report(run: &Run) {
    let mut out = std::io::stdout().lock();
    if !run.floor.is_empty() {
        let mut r = run.ratio.clone();
        r.sort_by(f64::total_cmp);
        let pr = |p: f64| r[((r.len() as f64 - 1.0) * p).round() as usize];
        let _ = writeln!(
            out,
            "all lenses answered / the edited pair's own work (same edit, measured right after): p50 {:.1}×, p90 {:.1}×",
            pr(0.5),
            pr(0.9)
        );
    }
    for (what, v) in [
        ("floor: the edited pair alone (parse + ted + transted-lite + explanation)", &run.floor),
        ("didChange → first codeLens/refresh (ted round)", &run.first),
        ("didChange → last refresh + codeLens answered (all offline lens metrics)", &run.last),
    ] {
        if v.is_empty() {
            continue;
        }
        let mut v = v.clone();
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

async fn one_size(
    n: usize,
    mode: String,
    change: String,
    edits: usize,
    baton: Arc<tokio::sync::Mutex<()>>,
) -> Run {
    // Set up while no other size edits (the first judgement of 1,000 theorems takes seconds).
    let setup_turn = baton.lock().await;
    let data = lean_text::minif2f_lines();
    let mut reference = String::from("import Mathlib\n\n");
    let mut candidate = String::from("import Mathlib\n\n");
    // The first pair's texts (the one `--mode one` edits), for the floor.
    let mut first_pair: Option<(String, String)> = None;
    for (i, line) in data.lines().cycle().take(n).enumerate() {
        let v: Value = serde_json::from_str(line).expect("dataset line");
        let strip = |s: &str| s.split(":= by").next().unwrap_or(s).trim().to_string();
        let rs = strip(v["ref_statement"].as_str().unwrap_or(""));
        let cs = strip(v["cand_statement"].as_str().unwrap_or(""));
        // Unique names: the same reference can appear twice in the dataset.
        let rname = format!("ref_{i}");
        let rs = rs.replacen(v["ref_name"].as_str().unwrap_or("?"), &rname, 1);
        let cs = cs.replacen(v["cand_name"].as_str().unwrap_or("?"), &format!("cand_{i}"), 1);
        if first_pair.is_none() {
            first_pair = Some((
                format!("{rs} := by sorry"),
                format!("{} := by sorry", cs.replacen(&format!("cand_{i}"), "cand_0EDIT", 1)),
            ));
        }
        reference.push_str(&format!("{rs} := by sorry\n\n"));
        // `EDIT` marks where an edit goes (in each name, so a metric cache hit is impossible).
        let cs = cs.replacen(&format!("cand_{i}"), &format!("cand_{i}EDIT"), 1);
        candidate.push_str(&format!("-- @reference Reference.lean::{rname}\n{cs} := by sorry\n\n"));
    }
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("Reference.lean"), &reference).expect("write");
    let uri = path_to_uri(&dir.path().join("Cand.lean"));
    let (notes, first, last, floor, ratio) = async {
        let (tx, mut rx) = mpsc::channel(1024);
        let f = Features::new(
            FeaturesConfig { config_path: None, workspace_root: Some(dir.path().to_path_buf()) },
            tx,
            Arc::new(LeanClient::disconnected()),
        );
        f.on_initialize_request(
            &json!({"capabilities": {"workspace": {"codeLens": {"refreshSupport": true}}}}),
        );
        f.observe_client_notification(
            "textDocument/didOpen",
            &json!({"textDocument": {"uri": uri, "languageId": "lean4", "version": 0,
                     "text": candidate.replace("EDIT", "")}}),
        );
        // One refresh per lens metric round (default lens: ted, transted-lite).
        let rounds = 2;
        wait_refreshes(&mut rx, rounds, Instant::now()).await;
        wait_until_idle(&f, &uri, Duration::from_secs(60), Duration::from_millis(1)).await;
        drop(setup_turn);
        let jobs_before = f.jobs_run();
        let mut first = Vec::new();
        let mut last = Vec::new();
        let mut floor = Vec::new();
        let mut ratio: Vec<f64> = Vec::new();
        let r_stmt = engine::parse(&first_pair.as_ref().expect("one theorem at least").0, HEADER)
            .expect("reference parses");
        let mut lens_titles = String::new();
        let mut checked = 0;
        let mut current = candidate.replace("EDIT", "");
        for v in 1..=edits {
            let _turn = baton.lock().await;
            // Each edit is timed on a quiet document, as a single edit after a pause: an edit
            // while the last job still ends would wait `JOB_QUIET` for more edits first (the
            // job debounce; `PROXY_BENCH_ONLY=load cargo bench --bench proxy` measures that).
            let quiet_since = Instant::now();
            while f.job_busy(&uri) {
                if quiet_since.elapsed() > Duration::from_secs(30) {
                    panic!("the last edit's job still runs after 30 s");
                }
                tokio::time::sleep(Duration::from_micros(200)).await;
            }
            while rx.try_recv().is_ok() {}
            let text = match mode.as_str() {
                // Outside every theorem: every metric result comes from the cache. Ranged: a
                // comment line at the top, inserted and removed (every theorem moves).
                "comment" if change == "ranged" => {
                    let base = candidate.replace("EDIT", "");
                    if v % 2 == 1 {
                        base.replacen("\n\n", "\n-- edit\n\n", 1)
                    } else {
                        base
                    }
                }
                "comment" => format!("{}-- edit {}\n", candidate.replace("EDIT", ""), v % 2),
                // Inside the first theorem only (as when typing in one statement).
                "one" => candidate.replacen("EDIT", &format!("_{v}"), 1).replace("EDIT", ""),
                // One more character typed in the first theorem each time: every later
                // theorem moves by a byte.
                "typing" => candidate.replacen("EDIT", &"x".repeat(v), 1).replace("EDIT", ""),
                // Inside every theorem: nothing cached.
                _ => candidate.replace("EDIT", &format!("_{v}")),
            };
            // Ranged: one edit per theorem touched, as an editor sends them.
            let changes: Vec<Value> = if change == "ranged" {
                let mut changes = Vec::new();
                let mut from = current.clone();
                if mode == "all" {
                    // Theorem by theorem, each change on the text the previous one left.
                    for (a, b) in from.clone().split_inclusive('\n').zip(text.split_inclusive('\n'))
                    {
                        if a != b {
                            let next = from.replacen(a, b, 1);
                            changes.push(ranged(&from, &next));
                            from = next;
                        }
                    }
                } else {
                    changes.push(ranged(&from, &text));
                }
                changes
            } else {
                vec![json!({"text": text})]
            };
            current = text.clone();
            let t0 = Instant::now();
            f.observe_client_notification(
                "textDocument/didChange",
                &json!({"textDocument": {"uri": uri, "version": v}, "contentChanges": changes}),
            );
            let times = wait_refreshes(&mut rx, rounds, t0).await;
            let lenses = f
                .own_request("textDocument/codeLens", &json!({"textDocument": {"uri": uri}}))
                .expect("codeLens is ours")
                .await
                .expect("lenses");
            let elapsed = t0.elapsed();
            // Untimed, every 10th edit and the last: the answer (JSON text, as the router
            // sends it) is the uncached one.
            let lenses: Value = serde_json::from_str(lenses.get()).expect("lens JSON");
            if v % 10 == 0 || v == edits {
                let a = f.analysis(&uri).expect("analysed");
                let doc = f.documents().get(&uri).expect("open");
                let prefix = f.command_names()[0].trim_end_matches(".showDetails").to_string();
                let uncached = views::lenses(&a, &doc, &views::Commands::new(&prefix));
                assert_eq!(lenses, uncached, "cached lens answer differs from the uncached one");
                checked += 1;
            }
            last.push(elapsed);
            first.push(times[0]);
            // The floor, right after (same conditions): what the edited theorem itself needs
            // (its statement parsed, both lens metrics and the TED explanation), no document.
            if mode == "one" || mode == "typing" {
                let (_, c_text) = first_pair.as_ref().expect("one theorem at least");
                let typed = if mode == "one" { format!("_{v}") } else { "x".repeat(v) };
                let c_text = c_text.replace("EDIT", &typed);
                let r_stmt = r_stmt.clone();
                // On a blocking-pool thread, as the job's metric work runs.
                let f = tokio::task::spawn_blocking(move || {
                    let t = Instant::now();
                    let c = engine::parse(&c_text, HEADER).expect("candidate parses");
                    let far = Instant::now() + Duration::from_secs(60);
                    for m in ["ted", "transted-lite"] {
                        let pair = Pair {
                            reference: &r_stmt,
                            candidate: &c,
                            reference_header: HEADER,
                            candidate_header: HEADER,
                        };
                        let _ = std::hint::black_box(engine::judge_by(m, &pair, far));
                    }
                    let _ = std::hint::black_box(engine::mapping(&r_stmt.tree, &c.tree));
                    t.elapsed()
                })
                .await
                .expect("floor task");
                floor.push(f);
                ratio.push(elapsed.as_secs_f64() / f.as_secs_f64());
            }
            lens_titles = lenses[0]["command"]["title"].as_str().unwrap_or("").to_string();
            // The job's last steps end before another size's edit is timed.
            wait_until_idle(&f, &uri, Duration::from_secs(30), Duration::from_micros(200)).await;
        }
        let a = f.analysis(&uri).expect("analysed");
        let mut out = String::new();
        use std::fmt::Write as _;
        let _ = writeln!(out, "mode {mode}: theorems with a reference: {}", a.theorems.len());
        let _ = writeln!(out, "first lens after the last edit: {lens_titles}");
        let _ = writeln!(
            out,
            "lens answers equal to the uncached path: {checked} of {checked} checked"
        );
        let _ = writeln!(out, "changes sent as: {change}");
        // One job per edit: none was merged with the next by the debounce.
        let _ = writeln!(out, "jobs run for {edits} edits: {}", f.jobs_run() - jobs_before);
        (out, first, last, floor, ratio)
    }
    .await;
    Run { notes, first, last, floor, ratio }
}
