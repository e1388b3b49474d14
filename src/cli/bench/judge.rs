//! The offline metrics' batch loop: each pair's two statements parsed with their own headers
//! and judged on `jobs` worker threads, in dataset order, a panic caught as that pair's failure.
//!
//! Owns judging only: the Lean metrics' loop is `lean::batch`'s, and what the outcomes add up
//! to is the summary's (`evaluate`).

use super::Judged;
use crate::dataset::DatasetPair;
use crate::metrics::{self, Metric};
use crate::predictions::Outcome;
use crate::trees::parse::{self, Header};

pub(super) fn judge_all(pairs: &[DatasetPair], judge: &dyn Metric, jobs: usize) -> Vec<Judged> {
    let chunk = pairs.len().div_ceil(jobs.max(1)).max(1);
    if jobs <= 1 || pairs.len() <= 1 {
        return pairs.iter().map(|p| judge_one(p, judge)).collect();
    }
    std::thread::scope(|scope| {
        let workers: Vec<_> = pairs
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || part.iter().map(|p| judge_one(p, judge)).collect::<Vec<_>>())
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| match w.join() {
                Ok(results) => results,
                // judge_one catches panics, so a worker can only die of something else (e.g.
                // out of memory); pass it on rather than lose pairs silently.
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}

/// Judge one pair. A panic inside the parser or a metric is a bug; it is reported as this pair's
/// failure (the panic message is already on stderr) so that the rest of the run still counts.
fn judge_one(pair: &DatasetPair, judge: &dyn Metric) -> Judged {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| judge_one_unguarded(pair, judge)))
        .unwrap_or_else(|_| {
            let message = format!("internal error (a bug) while judging with {}", judge.name());
            failed(message)
        })
}

fn failed(message: String) -> Judged {
    Judged {
        outcome: Outcome::Failed(message),
        unparsed: 0,
        shown_equivalent: false,
        evidence: None,
    }
}

fn judge_one_unguarded(pair: &DatasetPair, judge: &dyn Metric) -> Judged {
    for (field, text) in
        [("ref_statement", &pair.ref_statement), ("cand_statement", &pair.cand_statement)]
    {
        if let Some(names) = parse::several_statements(text) {
            return failed(format!(
                "{field}: holds {} statements ({}); a field must hold the one statement to compare",
                names.len(),
                names.join(", ")
            ));
        }
    }
    let reference = parse::parse_statement(&pair.ref_statement, &Header::parse(&pair.ref_header));
    let candidate = parse::parse_statement(&pair.cand_statement, &Header::parse(&pair.cand_header));
    let (reference, candidate) = match (reference, candidate) {
        (Ok(r), Ok(c)) => (r, c),
        (Err(e), _) => return failed(format!("ref_statement: {e}")),
        (_, Err(e)) => return failed(format!("cand_statement: {e}")),
    };
    let unparsed =
        usize::from(!reference.unparsed.is_empty()) + usize::from(!candidate.unparsed.is_empty());
    let judged_pair = crate::metrics::Pair {
        reference: &reference,
        candidate: &candidate,
        reference_header: &pair.ref_header,
        candidate_header: &pair.cand_header,
    };
    match judge.judge(&judged_pair) {
        Ok(report) => {
            let shown = metrics::equivalence(&report, &judged_pair).is_equivalent();
            let evidence = shown.then_some(match report.metric {
                "transted-lite" if !report.path.is_empty() => "rewrites",
                "transted" => "lean-goal",
                "defeq" => "defeq",
                "beq" | "beq+" | "beq+grind" => "lean-proof",
                _ => "renaming",
            });
            Judged {
                shown_equivalent: shown,
                evidence,
                outcome: Outcome::Judged(report.verdict),
                unparsed,
            }
        }
        Err(e) => Judged { unparsed, ..failed(format!("{}: {e}", judge.name())) },
    }
}
