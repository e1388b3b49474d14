//! Metric `beq+`: BEq without an LLM (Poiroux et al., "Improving Autoformalization using Type
//! Checking", ProofNetVerif, arXiv 2406.07222, §BEq+), as LeanInteract's `examples/beq_plus.py`
//! defines it: BEq's driver with a fixed list of attempts instead of the scripts and the LLM
//! samples.
//!
//! Owns the metric's names, its BEq settings and its report (BEq's, renamed `beq+`, with the
//! attempts listed). The attempt texts are `super::beq::plus_attempts`; the search,
//! admissibility (`super::beq::tactics`, under the `All` set: the attempts are ours, still
//! rejected if they use `sorry`, `native_decide` or never name `thm_P`), the checks through
//! Lean (`crate::lean::beq_checker`) and the report are BEq's (`super::beq`), which must not
//! import this module.

pub use super::beq::plus_attempts::{PlusAttempts, PlusPlan, PRELUDE};
use super::beq::{AttemptResult, Beq, BeqReport, BeqSettings, BeqSide, ProofChecker};
use super::MetricReport;
use std::time::Duration;

/// The metric's name in the CLI, the config and reports.
pub const NAME: &str = "beq+";
/// BEq+ with the optional `grind [thm_P]` attempt (Lean ≥ 4.22; on an older Lean the attempt
/// is a parse error, i.e. one more failed attempt). A name of its own, so a prediction file or
/// a report says which attempt set produced it.
pub const NAME_WITH_GRIND: &str = "beq+grind";

/// Whether `metric` is BEq+ and whether it includes `grind`.
pub fn variant(metric: &str) -> Option<bool> {
    match metric {
        NAME => Some(false),
        NAME_WITH_GRIND => Some(true),
        _ => None,
    }
}

/// BEq's settings for `beq+`: no LLM, the fixed attempts, `deadline` for the pair.
pub fn settings(deadline: Duration, grind: bool) -> BeqSettings {
    BeqSettings {
        deadline,
        samples: 0,
        plus: Some(PlusAttempts { grind }),
        ..BeqSettings::default()
    }
}

/// Judge a pair with BEq+ over `checker`.
pub async fn judge<C: ProofChecker>(
    checker: C,
    deadline: Duration,
    grind: bool,
    reference: BeqSide<'_>,
    candidate: BeqSide<'_>,
) -> BeqReport {
    Beq { checker, sampler: None, settings: settings(deadline, grind) }
        .judge(reference, candidate)
        .await
}

/// The metric-level report of a BEq+ judgement (BEq's, renamed, with the attempt set named).
pub fn to_metric_report(
    report: &BeqReport,
    grind: bool,
    reference_size: usize,
    candidate_size: usize,
) -> MetricReport {
    let mut r = report.to_metric_report(reference_size, candidate_size);
    r.metric = if grind { NAME_WITH_GRIND } else { NAME };
    // BEq's "no [llm]" note does not apply: BEq+ has no LLM step.
    r.notes.retain(|n| !n.contains("LLM"));
    r.notes.push(if grind {
        "attempts (LeanInteract's BEq+): exact?, assumption (not counted), apply thm_P + closers, have + closers (unless the closers need no thm_P), convert using 0..4, grind (enabled)".into()
    } else {
        "attempts (LeanInteract's BEq+): exact?, assumption (not counted), apply thm_P + closers, have + closers (unless the closers need no thm_P), convert using 0..4 (grind off)"
            .into()
    });
    for d in &report.directions {
        for a in &d.attempts {
            r.notes.push(format!(
                "{}: {} → {}",
                d.direction.label(),
                if a.proof.is_empty() { "exact?".to_string() } else { a.proof.replace('\n', "; ") },
                attempt_result(&a.result)
            ));
        }
    }
    r
}

fn attempt_result(r: &AttemptResult) -> String {
    use AttemptResult as R;
    match r {
        R::Proved => "proved".into(),
        R::Failed { errors } => {
            format!("failed ({})", errors.first().map(String::as_str).unwrap_or("no message"))
        }
        R::Rejected(why) => format!("rejected ({why})"),
        R::NoSuggestion { .. } => "no suggestion".into(),
        R::ClosedWithout => "closed without thm_P (skips what follows it, proves nothing)".into(),
        R::Timeout => "timed out".into(),
        R::CheckError(e) => format!("Lean error ({e})"),
    }
}
