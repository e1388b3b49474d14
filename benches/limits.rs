//! Time and peak memory of `lean-assess score` for each offline metric on generated statements of
//! about 100, 1,000, 10,000 and 100,000 nodes, in two shapes: a chain (`x + x + … + x = 0`,
//! as deep as it is long, the shape of degenerate model output) and a wide statement (one
//! hypothesis `(hᵢ : aᵢ + bᵢ = bᵢ + aᵢ)` per 9 nodes, a few levels deep). The candidate is the
//! same statement with its conclusion changed (chain) or its hypotheses reversed (wide).
//!
//! Each run is a child process of the real binary; its peak resident memory is the child's
//! `ru_maxrss` (read by a small wrapper process, this bench re-executed with `--measure`, so
//! that each figure belongs to one run). The floor is `lean-assess tree` on the same reference
//! (reading and parsing the input, nothing else), measured in the same run; figures are given
//! as is and as a ratio to it.
//!
//! Run: `cargo bench --bench limits` (release build of the binary). Prints a Markdown table.

use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

#[path = "common/child_usage.rs"]
mod child_usage;
#[path = "common/wide.rs"]
mod wide;
use child_usage::measure;
use wide::wide;

struct Run {
    seconds: f64,
    peak_kib: i64,
    exit: String,
}

fn run(args: &[&str]) -> Run {
    let me = std::env::current_exe().expect("own path");
    let started = Instant::now();
    let out = Command::new(me)
        .arg("--measure")
        .arg(env!("CARGO_BIN_EXE_lean-assess"))
        .args(args)
        .output()
        .expect("run the wrapper");
    let seconds = started.elapsed().as_secs_f64();
    let text = String::from_utf8_lossy(&out.stdout);
    let mut fields = text.split_whitespace();
    let exit = fields.next().unwrap_or("?").to_string();
    let peak_kib = fields.next().and_then(|s| s.parse().ok()).unwrap_or(-1);
    Run { seconds, peak_kib, exit }
}

/// The metric's outcome on stdout (score, or the refusal's first words), from a plain run.
fn outcome(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_lean-assess"))
        .args(args)
        .output()
        .expect("run lean-assess");
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().nth(2).unwrap_or("").to_string();
    let rest = line.split_once(' ').map_or("", |(_, r)| r).trim();
    if let Some(why) = rest.strip_prefix("not scored: ") {
        // "too large", "too deep", "out of time": the words before the details.
        why.split(':').next().unwrap_or(why).to_string()
    } else {
        rest.split_whitespace().next().unwrap_or("").to_string()
    }
}

fn chain(terms: usize, rhs: &str) -> String {
    format!("theorem t (x : ℕ) : {} = {rhs} := sorry\n", vec!["x"; terms].join(" + "))
}

fn nodes(path: &Path) -> usize {
    let out = Command::new(env!("CARGO_BIN_EXE_lean-assess"))
        .args(["tree", path.to_str().unwrap()])
        .output()
        .expect("tree");
    out.stdout.iter().filter(|&&b| b == b'\n').count()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--measure") {
        measure(&args[i + 1..]);
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "| shape | nodes | floor: `tree` s / MiB | metric | outcome | s | peak MiB | × floor time / memory |"
    )
    .unwrap();
    writeln!(stdout, "|---|---|---|---|---|---|---|---|").unwrap();
    for target in [100usize, 1_000, 10_000, 100_000] {
        let cases = [
            ("chain", chain(target / 2 - 3, "0"), chain(target / 2 - 3, "1")),
            ("wide", wide(target / 9 - 1, false), wide(target / 9 - 1, true)),
        ];
        for (shape, reference, candidate) in cases {
            let r = dir.path().join(format!("{shape}-{target}-r.lean"));
            let c = dir.path().join(format!("{shape}-{target}-c.lean"));
            std::fs::write(&r, reference).unwrap();
            std::fs::write(&c, candidate).unwrap();
            let (r, c) = (r.to_str().unwrap(), c.to_str().unwrap());
            let size = nodes(Path::new(r));
            let floor = run(&["tree", "--format", "json", r]);
            for metric in ["ted", "path", "transted-lite"] {
                let score = ["score", "--metric", metric, r, c];
                let m = run(&score);
                let what = outcome(&score);
                writeln!(
                    stdout,
                    "| {shape} | {size} | {:.3} / {:.1} | `{metric}` | {what} (exit {}) | {:.3} | {:.1} | {:.1} / {:.1} |",
                    floor.seconds,
                    floor.peak_kib as f64 / 1024.0,
                    m.exit,
                    m.seconds,
                    m.peak_kib as f64 / 1024.0,
                    m.seconds / floor.seconds,
                    m.peak_kib as f64 / floor.peak_kib as f64,
                )
                .unwrap();
            }
        }
    }
}
