//! The whole offline pipeline on a dataset: parse both statements of every pair (with their
//! headers) into operator trees, judge them with one offline metric (`ted` with default costs
//! unless `--metric=NAME` picks another, e.g. `transted-lite`), then the evaluation (best
//! threshold on GTED's grid + sweep). One thread, as `bench --jobs 1`. File reading is timed
//! separately. Prints the median of several runs.
//!
//!     cargo bench --bench pipeline                              # both bundled datasets, ted
//!     cargo bench --bench pipeline -- --metric=transted-lite    # the same, transted-lite
//!     cargo bench --bench pipeline -- FILE.jsonl [RUNS]

use lean_assess::dataset;
use lean_assess::evaluation;
use lean_assess::metrics::{self, Metric, Pair, Verdict};
use lean_assess::trees::parse::{parse_statement, Header};
use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// One pass: parse, judge, evaluate. Returns how many pairs got a score.
fn pipeline(pairs: &[dataset::DatasetPair], metric: &dyn Metric) -> usize {
    let mut scored = Vec::with_capacity(pairs.len());
    for pair in pairs {
        let reference = parse_statement(&pair.ref_statement, &Header::parse(&pair.ref_header));
        let candidate = parse_statement(&pair.cand_statement, &Header::parse(&pair.cand_header));
        let (Ok(reference), Ok(candidate)) = (reference, candidate) else {
            continue;
        };
        let report = metric.judge(&Pair {
            reference: &reference,
            candidate: &candidate,
            reference_header: &pair.ref_header,
            candidate_header: &pair.cand_header,
        });
        if let (Ok(report), Some(label)) = (report, pair.label) {
            if let Verdict::Score(s) = report.verdict {
                scored.push((label, s));
            }
        }
    }
    black_box(evaluation::evaluate(&scored));
    scored.len()
}

/// Parsing alone (both statements of every pair), to see what share of the pipeline it takes.
fn parse_only(pairs: &[dataset::DatasetPair]) -> usize {
    pairs
        .iter()
        .filter(|pair| {
            let r = parse_statement(&pair.ref_statement, &Header::parse(&pair.ref_header));
            let c = parse_statement(&pair.cand_statement, &Header::parse(&pair.cand_header));
            black_box((r, c)).0.is_ok()
        })
        .count()
}

/// CPU time (user + system) this process has used, from /proc (Linux; clock ticks of 10 ms).
/// Wall-clock medians suffer when other jobs share the 2 cores; CPU time much less so.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; without it (`cargo test --all-targets`) this is a smoke
    // run of 3 passes. Anything not starting with `-` is ours.
    let benching = std::env::args().any(|a| a == "--bench");
    let default_runs = if benching { 31 } else { 3 };
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let (files, runs) = match args.first() {
        Some(file) => (
            vec![PathBuf::from(file)],
            args.get(1).and_then(|r| r.parse().ok()).unwrap_or(default_runs),
        ),
        None => (
            vec![
                root.join("fixtures/bench/gted-minif2f.jsonl"),
                root.join("fixtures/bench/gted-proofnet.jsonl"),
            ],
            default_runs,
        ),
    };
    let name = std::env::args()
        .find_map(|a| a.strip_prefix("--metric=").map(str::to_owned))
        .unwrap_or_else(|| "ted".to_owned());
    let metric = match metrics::by_name(&name) {
        Ok(m) => m,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "pipeline: --metric={name}: {e}");
            std::process::exit(2);
        }
    };
    let mut out = std::io::stdout().lock();
    for file in files {
        let start = Instant::now();
        let pairs = match dataset::read_pairs(&file) {
            Ok(pairs) => pairs,
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "pipeline: {e}");
                std::process::exit(2);
            }
        };
        let load = start.elapsed();
        let scored = pipeline(&pairs, &*metric); // warm-up
        let cpu_before = cpu_time();
        let times: Vec<Duration> = (0..runs)
            .map(|_| {
                let start = Instant::now();
                black_box(pipeline(&pairs, &*metric));
                start.elapsed()
            })
            .collect();
        let cpu = cpu_before.zip(cpu_time()).map(|(before, after)| {
            (after.saturating_sub(before)).as_secs_f64() * 1e3 / runs as f64
        });
        let parse_times: Vec<Duration> = (0..runs)
            .map(|_| {
                let start = Instant::now();
                black_box(parse_only(&pairs));
                start.elapsed()
            })
            .collect();
        let (min, max) = (
            *times.iter().min().expect("BUG: runs > 0"),
            *times.iter().max().expect("BUG: runs > 0"),
        );
        let _ = writeln!(
            out,
            "{}: {} pairs ({} scored): parse + tree + {} + scoring median {:.2} ms \
             (min {:.2}, max {:.2}, {} runs; CPU time per run {}); parsing alone median {:.2} ms; \
             file load {:.2} ms",
            file.display(),
            pairs.len(),
            scored,
            name,
            median(times).as_secs_f64() * 1e3,
            min.as_secs_f64() * 1e3,
            max.as_secs_f64() * 1e3,
            runs,
            cpu.map_or_else(|| "n/a".to_string(), |ms| format!("{ms:.1} ms")),
            median(parse_times).as_secs_f64() * 1e3,
            load.as_secs_f64() * 1e3,
        );
    }
}
