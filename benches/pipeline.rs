//! The whole offline pipeline on a dataset: parse both statements of every pair (with their
//! headers) into operator trees, TED similarity (metric `ted`, default costs), then the
//! evaluation (best threshold on GTED's grid + sweep). One thread, as `bench --jobs 1`.
//! File reading is timed separately. Prints the median of several runs.
//!
//!     cargo bench --bench pipeline              # both bundled datasets
//!     cargo bench --bench pipeline -- FILE.jsonl [RUNS]

use lean_assess::dataset;
use lean_assess::evaluation;
use lean_assess::metrics::{ted::Ted, Metric, Pair, Verdict};
use lean_assess::trees::parse::{parse_statement, Header};
use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// One pass: parse, judge, evaluate. Returns how many pairs got a score.
fn pipeline(pairs: &[dataset::DatasetPair], metric: &Ted) -> usize {
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

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; without it (`cargo test --all-targets`) this is a smoke
    // run of 3 passes. Anything not starting with `-` is ours.
    let benching = std::env::args().any(|a| a == "--bench");
    let default_runs = if benching { 31 } else { 3 };
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let (files, runs) = match args.first() {
        Some(file) => (
            vec![PathBuf::from(file)],
            args.get(1)
                .and_then(|r| r.parse().ok())
                .unwrap_or(default_runs),
        ),
        None => (
            vec![
                root.join("fixtures/bench/gted-minif2f.jsonl"),
                root.join("fixtures/bench/gted-proofnet.jsonl"),
            ],
            default_runs,
        ),
    };
    let metric = Ted::default();
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
        let scored = pipeline(&pairs, &metric); // warm-up
        let times: Vec<Duration> = (0..runs)
            .map(|_| {
                let start = Instant::now();
                black_box(pipeline(&pairs, &metric));
                start.elapsed()
            })
            .collect();
        let (min, max) = (
            *times.iter().min().expect("BUG: runs > 0"),
            *times.iter().max().expect("BUG: runs > 0"),
        );
        let _ = writeln!(
            out,
            "{}: {} pairs ({} scored): parse + tree + TED + scoring median {:.2} ms \
             (min {:.2}, max {:.2}, {} runs); file load {:.2} ms",
            file.display(),
            pairs.len(),
            scored,
            median(times).as_secs_f64() * 1e3,
            min.as_secs_f64() * 1e3,
            max.as_secs_f64() * 1e3,
            runs,
            load.as_secs_f64() * 1e3,
        );
    }
}
