//! Metric `beq+`: BEq without an LLM (Poiroux et al., "Improving Autoformalization using Type
//! Checking", ProofNetVerif, arXiv 2406.07222, §BEq+; LeanInteract's `examples/beq_plus.py`
//! describes the same idea). Per direction (assume `thm_P`, prove `thm_Q`), fixed attempts in
//! this order, the first that Lean accepts and that uses `thm_P` proves the direction:
//!
//! 1. `exact?` (its suggestion, re-checked as a proof; BEq's own first step);
//! 2. `apply thm_P`, then every remaining goal closed by the first of the closers
//!    (`tauto`, `simp_all_arith!`, `noncomm_ring`, `exact?`), and the same closers run one
//!    after the other on all goals (they can combine);
//! 3. a `have` of the assumed statement (`have h := @thm_P`), then the closers (`exact?`
//!    first: with `h` in context it finds the instance of `thm_P` the goal needs);
//! 4. `convert thm_P _ … _ using k` (an `_` per explicit binder of `thm_P`) for k = 0..4, the
//!    side goals closed by the closers;
//! 5. only when enabled (off by default: it changes what the metric means, and `grind` exists
//!    from Lean 4.22), `grind [thm_P]`, named in the report.
//!
//! Without a Mathlib import the Mathlib closers (`tauto`, `noncomm_ring`) are left out (an
//! unknown tactic would make the whole attempt a parse error).
//!
//! Owns the attempt list only. The search, admissibility (`super::beq::tactics`, under the `All`
//! set: the attempts are ours, still rejected if they use `sorry`, `native_decide` or never name
//! `thm_P`), the checks through Lean (`crate::lean::beq_checker`) and the report are BEq's
//! (`super::beq`); a report's `metric` is renamed `beq+`.

use super::beq::{Beq, BeqReport, BeqSettings, BeqSide, ProofChecker};
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

/// The closers tried on each goal left by `apply` / `have` / `convert`. `true`: needs Mathlib.
const CLOSERS: [(&str, bool); 4] = [
    ("tauto", true),
    ("simp_all_arith!", false),
    ("noncomm_ring", true),
    ("exact?", false),
];

/// Most `using` depth of the `convert` attempts.
const MAX_CONVERT_DEPTH: usize = 4;

/// BEq+'s fixed attempts (after `exact?`), and whether `grind` is one of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlusAttempts {
    /// Also try `grind [thm_P]` (Lean ≥ 4.22); off by default.
    pub grind: bool,
}

impl PlusAttempts {
    /// The proof scripts for a direction whose assumed statement has `explicit` explicit
    /// binders; `mathlib`: the headers import Mathlib.
    pub fn scripts(&self, explicit: usize, mathlib: bool) -> Vec<String> {
        let closers: Vec<&str> = CLOSERS
            .iter()
            .filter(|(_, needs_mathlib)| mathlib || !needs_mathlib)
            .map(|(c, _)| *c)
            .collect();
        let first = format!("all_goals first | {}", closers.join(" | "));
        let each: Vec<String> = closers
            .iter()
            .map(|c| format!("all_goals try {c}"))
            .collect();
        let mut out = vec![
            format!("intros\napply thm_P\n{first}"),
            format!("intros\napply thm_P\n{}", each.join("\n")),
            format!("intros\nhave h := @thm_P\n{first}"),
        ];
        let holes = vec!["_"; explicit].join(" ");
        let applied = if holes.is_empty() {
            "thm_P".to_string()
        } else {
            format!("thm_P {holes}")
        };
        for k in 0..=MAX_CONVERT_DEPTH {
            out.push(format!("intros\nconvert {applied} using {k}\n{first}"));
        }
        if self.grind {
            out.push("intros\ngrind [thm_P]".to_string());
        }
        out
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
    Beq {
        checker,
        sampler: None,
        settings: settings(deadline, grind),
    }
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
        "attempts: exact?, apply thm_P + closers, have + closers, convert using 0..4, grind (enabled)".into()
    } else {
        "attempts: exact?, apply thm_P + closers, have + closers, convert using 0..4 (grind off)"
            .into()
    });
    for d in &report.directions {
        for a in &d.attempts {
            r.notes.push(format!(
                "{}: {} → {}",
                d.direction.label(),
                if a.proof.is_empty() {
                    "exact?".to_string()
                } else {
                    a.proof.replace('\n', "; ")
                },
                attempt_result(&a.result)
            ));
        }
    }
    r
}

fn attempt_result(r: &super::beq::AttemptResult) -> String {
    use super::beq::AttemptResult as R;
    match r {
        R::Proved => "proved".into(),
        R::Failed { errors } => format!(
            "failed ({})",
            errors.first().map(String::as_str).unwrap_or("no message")
        ),
        R::Rejected(why) => format!("rejected ({why})"),
        R::NoSuggestion { .. } => "no suggestion".into(),
        R::Timeout => "timed out".into(),
        R::CheckError(e) => format!("Lean error ({e})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::beq::tactics::{check_proof, ProofRules, TacticSet};

    #[test]
    fn attempts_follow_the_beq_plus_order_and_are_admissible() {
        let s = PlusAttempts::default().scripts(2, true);
        assert_eq!(
            s[0],
            "intros\napply thm_P\nall_goals first | tauto | simp_all_arith! | noncomm_ring | exact?"
        );
        assert!(s[2].contains("have h := @thm_P"));
        assert_eq!(
            s[3],
            "intros\nconvert thm_P _ _ using 0\nall_goals first | tauto | simp_all_arith! | noncomm_ring | exact?"
        );
        assert!(s.last().is_some_and(|l| l.contains("using 4")));
        assert!(!s.iter().any(|l| l.contains("grind")));
        let rules = ProofRules {
            set: TacticSet::All,
            assumed_name: "thm_P",
            goal_name: Some("thm_Q"),
        };
        for script in (PlusAttempts { grind: true }).scripts(0, false) {
            assert!(
                !script.contains("tauto") && !script.contains("noncomm_ring"),
                "{script}"
            );
            check_proof(&script, &rules).unwrap_or_else(|e| panic!("{script}: {e}"));
        }
        for script in PlusAttempts::default().scripts(3, true) {
            check_proof(&script, &rules).unwrap_or_else(|e| panic!("{script}: {e}"));
        }
    }
}
