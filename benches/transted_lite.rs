//! `transted-lite` against its deadline, and its search speed with and without reuse between
//! neighbouring states.
//!
//! 1. Deadline: `lean-assess score --metric transted-lite` (a child process of the real binary,
//!    default 500 ms limit) on generated pairs of about 100, 457, 877 and 1,000 nodes (the
//!    metric's size limit) in two wide shapes: "comm" (the slow shape: one typed variable
//!    binder per variable, 3 of 4 hypotheses `(hᵢ : xᵢ + xᵢ₊₁ ≤ i)` or `*`, the rest with `-`;
//!    the candidate lists the hypotheses in reverse order with the commutative operands
//!    swapped, so the search has work at every hypothesis) and "auto" (`benches/common/wide.rs`,
//!    the limits bench's wide shape: `(hᵢ : aᵢ + bᵢ = bᵢ + aᵢ)`, variables auto-bound, hypotheses reversed). Each
//!    row: the outcome (a score, or the refusal's first words), wall time, wall time ÷ the
//!    500 ms deadline, and peak RSS (the child's `ru_maxrss`, read by this bench re-executed as
//!    a wrapper with `--measure`). `--before PATH` runs a second binary (an older build) on the
//!    same files in the same run, for before/after columns.
//! 2. States per second: in-process, one thread, every pair of the bundled GTED datasets and
//!    generated "comm" pairs of 100 and 457 nodes, judged with a 60 s limit (so the node
//!    budget, not the clock, ends each search) with [`Config::reuse`] on (incremental distances
//!    against the reference, `distance::Incremental`) and off (every distance from scratch),
//!    alternating, several runs each; evaluated states ÷ judging time, and the ratio on/off.
//!    Every pair's distance and path must be the same with reuse on and off (checked, the bench
//!    panics otherwise).
//!
//! Run: `cargo bench --bench transted_lite [-- --before PATH] [--runs N]
//! [--only deadline|states]`. Prints Markdown. `-- --mode on|off [--set TEXT]` runs only one
//! mode (on the sets whose name contains TEXT) and prints its rate, for a profiler.

use lean_assess::dataset;
use lean_assess::elab::resolve::resolve_tree;
use lean_assess::elab::scope::Scope;
use lean_assess::metrics::transted_lite::{Config, TransTedLite};
use lean_assess::metrics::Metric;
use lean_assess::trees::parse::{parse_statement, Header};
use lean_assess::trees::{Statement, Tree};
use std::io::Write;
use std::process::Command;
use std::time::{Duration, Instant};

#[path = "common/child_usage.rs"]
mod child_usage;
#[path = "common/wide.rs"]
mod wide;
use child_usage::measure;

/// Wall seconds and peak MiB of `binary args`, measured through the wrapper.
fn run(binary: &str, args: &[&str]) -> (f64, f64) {
    let me = std::env::current_exe().expect("own path");
    let started = Instant::now();
    let out =
        Command::new(me).arg("--measure").arg(binary).args(args).output().expect("run the wrapper");
    let seconds = started.elapsed().as_secs_f64();
    let text = String::from_utf8_lossy(&out.stdout);
    let peak_kib: f64 = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(-1.0);
    (seconds, peak_kib / 1024.0)
}

/// The metric's outcome on stdout: the similarity, or the refusal's first words.
fn outcome(binary: &str, args: &[&str]) -> String {
    let out = Command::new(binary).args(args).output().expect("run lean-assess");
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.starts_with("transted-lite")).unwrap_or("");
    if let Some((_, why)) = line.split_once("not scored: ") {
        why.split(':').next().unwrap_or(why).to_string()
    } else if let Some((_, s)) = line.split_once("similarity ") {
        format!("score {}", s.split_whitespace().next().unwrap_or("?"))
    } else {
        "?".to_string()
    }
}

/// A generated statement: (hypotheses, candidate side?) → text.
type Shape = fn(usize, bool) -> String;

/// The slow shape: `hyps` hypotheses over typed real variables, 3 in 4 with a commutative
/// operator. The candidate has them in reverse order with the commutative operands swapped.
fn comm(hyps: usize, candidate: bool) -> String {
    let vars: Vec<String> = (0..=hyps).map(|i| format!("(x{i} : ℝ)")).collect();
    let mut hs: Vec<String> = (0..hyps)
        .map(|i| {
            let (a, b) = (format!("x{i}"), format!("x{}", i + 1));
            let op = ["+", "*", "+", "-"][i % 4];
            let (l, r) = if candidate && op != "-" { (b, a) } else { (a, b) };
            format!("(h{i} : {l} {op} {r} ≤ {i})")
        })
        .collect();
    if candidate {
        hs.reverse();
    }
    let concl = if candidate { "x1 + x0 ≤ 1" } else { "x0 + x1 ≤ 1" };
    format!("theorem t {} {} : {concl} := sorry\n", vars.join(" "), hs.join(" "))
}

fn parse(text: &str) -> Statement {
    parse_statement(text, &Header::default()).expect("generated statements parse")
}

/// The number of hypotheses that brings `shape`'s reference closest to `target` nodes without
/// passing it.
fn hyps_for(shape: Shape, target: usize) -> usize {
    let mut hyps = 1;
    while parse(&shape(hyps + 1, false)).tree.size() <= target {
        hyps += 1;
    }
    hyps
}

fn deadline_table(before: Option<&str>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let now = env!("CARGO_BIN_EXE_lean-assess");
    let mut out = std::io::stdout().lock();
    let mut header =
        "| shape | nodes | hyps | judge s (in-process) | past the deadline ms | outcome | process s | × deadline | peak MiB |"
            .to_string();
    let mut rule = "|---|---|---|---|---|---|---|---|---|".to_string();
    if before.is_some() {
        header.push_str(" before: outcome | s | × deadline | peak MiB |");
        rule.push_str("---|---|---|---|");
    }
    writeln!(out, "{header}\n{rule}").unwrap();
    let shapes: [(&str, Shape); 2] = [("comm", comm), ("auto", wide::wide)];
    for (name, shape) in shapes {
        for target in [100usize, 457, 877, 1_000] {
            let hyps = hyps_for(shape, target);
            let (r, c) = (shape(hyps, false), shape(hyps, true));
            let nodes = parse(&r).tree.size().max(parse(&c).tree.size());
            let rp = dir.path().join(format!("{name}-{target}-r.lean"));
            let cp = dir.path().join(format!("{name}-{target}-c.lean"));
            std::fs::write(&rp, r).unwrap();
            std::fs::write(&cp, c).unwrap();
            let args =
                ["score", "--metric", "transted-lite", rp.to_str().unwrap(), cp.to_str().unwrap()];
            let (judge_s, past_ms) =
                judge_in_process(&parse(&shape(hyps, false)), &parse(&shape(hyps, true)));
            let mut row = format!("| {name} | {nodes} | {hyps} | {judge_s:.3} | {past_ms} |");
            for binary in std::iter::once(now).chain(before) {
                let what = outcome(binary, &args);
                let (s, mib) = run(binary, &args);
                row.push_str(&format!(" {what} | {s:.3} | {:.2} | {mib:.1} |", s / 0.5));
            }
            writeln!(out, "{row}").unwrap();
        }
    }
}

/// The default metric's judging time in this process, and how far past its deadline it ended
/// (`-` when it ended before).
fn judge_in_process(reference: &Statement, candidate: &Statement) -> (f64, String) {
    let metric = TransTedLite::default();
    let started = Instant::now();
    let _ = metric.judge(&lean_assess::metrics::Pair {
        reference,
        candidate,
        reference_header: "",
        candidate_header: "",
    });
    let elapsed = started.elapsed();
    let past = elapsed
        .checked_sub(metric.config.time_limit)
        .map_or_else(|| "-".to_string(), |d| format!("{:.1}", d.as_secs_f64() * 1e3));
    (elapsed.as_secs_f64(), past)
}

/// Reference and candidate trees, their names resolved under their headers (as the metric's
/// `judge` does before its search).
struct Case {
    reference: Tree,
    candidate: Tree,
}

fn dataset_cases(path: &str) -> Vec<Case> {
    let pairs = dataset::read_pairs(std::path::Path::new(path)).expect("bundled dataset loads");
    pairs
        .iter()
        .filter_map(|p| {
            let (rh, ch) = (Header::parse(&p.ref_header), Header::parse(&p.cand_header));
            let reference = parse_statement(&p.ref_statement, &rh).ok()?;
            let candidate = parse_statement(&p.cand_statement, &ch).ok()?;
            Some(Case {
                reference: resolve_tree(&reference.tree, &Scope::read(&p.ref_header)).tree,
                candidate: resolve_tree(&candidate.tree, &Scope::read(&p.cand_header)).tree,
            })
        })
        .collect()
}

fn generated_cases(target: usize, count: usize) -> Vec<Case> {
    let hyps = hyps_for(comm, target);
    (0..count)
        .map(|_| Case {
            reference: parse(&comm(hyps, false)).tree,
            candidate: parse(&comm(hyps, true)).tree,
        })
        .collect()
}

/// One pass over `cases`: states evaluated, judging time, and each pair's (distance, path).
fn judge_all(cases: &[Case], reuse: bool) -> (usize, Duration, Vec<(u32, String)>) {
    let metric = TransTedLite::new(Config {
        time_limit: Duration::from_secs(60),
        reuse,
        ..Config::default()
    });
    let mut states = 0;
    let mut results = Vec::with_capacity(cases.len());
    let started = Instant::now();
    for case in cases {
        let j = metric.judge_trees(&case.reference, &case.candidate);
        states += j.evaluated;
        results.push((j.distance, format!("{:?}", j.path)));
    }
    (states, started.elapsed(), results)
}

/// `--mode on|off [--set TEXT]`: only that mode (and the sets whose name contains TEXT),
/// several passes, for a profiler (no table).
fn one_mode(runs: usize, reuse: bool, set: Option<&str>) {
    let mut out = std::io::stdout().lock();
    for (name, cases) in state_sets() {
        if set.is_some_and(|s| !name.contains(s)) {
            continue;
        }
        let (mut states, mut time) = (0, Duration::ZERO);
        for _ in 0..runs {
            let (n, t, _) = judge_all(&cases, reuse);
            states += n;
            time += t;
        }
        let rate = states as f64 / time.as_secs_f64();
        writeln!(out, "{name}: reuse {reuse}: {rate:.0} states/s").unwrap();
    }
}

fn state_sets() -> [(&'static str, Vec<Case>); 4] {
    [
        ("miniF2F (205)", dataset_cases("fixtures/bench/gted-minif2f.jsonl")),
        ("ProofNet (93)", dataset_cases("fixtures/bench/gted-proofnet.jsonl")),
        ("comm ~100 nodes (×20)", generated_cases(100, 20)),
        ("comm ~457 nodes (×2)", generated_cases(457, 2)),
    ]
}

fn states_table(runs: usize) {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "\n| pairs | states per pass | reuse off: states/s | reuse on: states/s | on ÷ off |\n|---|---|---|---|---|"
    )
    .unwrap();
    for (name, cases) in state_sets() {
        let mut best = [Duration::MAX; 2];
        let mut states = [0usize; 2];
        let mut results: [Option<Vec<(u32, String)>>; 2] = [None, None];
        for _ in 0..runs {
            for (slot, reuse) in [(0, false), (1, true)] {
                let (n, t, r) = judge_all(&cases, reuse);
                best[slot] = best[slot].min(t);
                states[slot] = n;
                results[slot] = Some(r);
            }
        }
        assert_eq!(results[0], results[1], "{name}: reuse changed a distance or a path");
        assert_eq!(states[0], states[1], "{name}: reuse changed the search");
        let rate = |i: usize| states[i] as f64 / best[i].as_secs_f64();
        writeln!(
            out,
            "| {name} | {} | {:.0} | {:.0} | {:.2}× |",
            states[0],
            rate(0),
            rate(1),
            rate(1) / rate(0)
        )
        .unwrap();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--measure") {
        measure(&args[i + 1..]);
    }
    let value =
        |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    // `cargo test --all-targets` runs benches once without `--bench`: a short smoke run.
    let benching = args.iter().any(|a| a == "--bench");
    let runs = value("--runs").and_then(|r| r.parse().ok()).unwrap_or(if benching { 5 } else { 1 });
    if let Some(mode) = value("--mode") {
        one_mode(runs, mode == "on", value("--set").as_deref());
        return;
    }
    let before = value("--before");
    let only = value("--only");
    if only.as_deref() != Some("states") {
        deadline_table(before.as_deref());
    }
    if only.as_deref() != Some("deadline") {
        states_table(runs);
    }
}
