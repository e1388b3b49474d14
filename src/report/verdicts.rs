//! The page's verdict column: each pair's evidence-based verdict, its similarity and (for an
//! offline metric) the metric's report with the rewrite path, as `bench` decides the verdict
//! for `--out`'s `"verdict"`.
//!
//! Owns deciding the verdicts of the page's pairs only: how they are shown is the views' and
//! the table's; the metrics are the registry's.

use super::{PairResult, Report};
use crate::dataset::DatasetPair;
use crate::metrics::registry::{self, CostModel};
use crate::metrics::{self, MetricReport, Pair, Verdict};
use crate::trees::parse::{self, Header};

/// Each pair as the page reads it: its evidence-based verdict (`None` for a failed pair), its
/// similarity, and, for an offline metric that ran, its report (the rewrite path).
pub(super) struct Judged {
    pub(super) shown: Option<bool>,
    pub(super) score: Option<f64>,
    pub(super) report: Option<MetricReport>,
}

/// The evidence-based verdict of each pair, as `bench` decides it for `--out`'s `"verdict"`
/// (`metrics::equivalence` on the metric's report; for a Lean metric
/// `predictions::lean_shown_equivalent`, as a resumed run reads it). `bench` hands the report
/// only the outcomes, so an offline metric's report is recomputed here: the metrics are
/// deterministic, and the verdict of `ted`, `path` and `transted-lite` does not depend on the
/// cost model.
pub(super) fn judge(report: &Report<'_>) -> Vec<Judged> {
    report
        .pairs
        .iter()
        .zip(&report.results)
        .map(|(pair, result)| match result {
            PairResult::Error(_) => Judged { shown: None, score: None, report: None },
            PairResult::Equivalent(e) => Judged { shown: Some(*e), score: None, report: None },
            PairResult::Score(s) if registry::needs_lean(report.metric) => Judged {
                shown: Some(crate::predictions::lean_shown_equivalent(
                    report.metric,
                    &crate::predictions::Outcome::Judged(Verdict::Score(*s)),
                )),
                score: Some(*s),
                report: None,
            },
            PairResult::Score(s) => {
                let judged = offline_report(report.metric, report.cost, pair);
                Judged {
                    shown: Some(judged.as_ref().is_some_and(|(_, shown)| *shown)),
                    score: Some(*s),
                    report: judged.map(|(r, _)| r),
                }
            }
        })
        .collect()
}

/// The offline metric's report on the pair and whether it shows the pair equivalent.
fn offline_report(
    metric: &str,
    cost: CostModel,
    pair: &DatasetPair,
) -> Option<(MetricReport, bool)> {
    let reference =
        parse::parse_statement(&pair.ref_statement, &Header::parse(&pair.ref_header)).ok()?;
    let candidate =
        parse::parse_statement(&pair.cand_statement, &Header::parse(&pair.cand_header)).ok()?;
    let judged_pair = Pair {
        reference: &reference,
        candidate: &candidate,
        reference_header: &pair.ref_header,
        candidate_header: &pair.cand_header,
    };
    // transted-lite's node budget, not its clock, ends a search that `bench` saw end; a clock
    // far beyond bench's keeps a page written on a loaded machine from cutting one short (a pair
    // bench's clock cut is a failed pair, not judged here).
    let m: Box<dyn metrics::Metric> = if metric == "transted-lite" {
        Box::new(metrics::transted_lite::TransTedLite::new(metrics::transted_lite::Config {
            time_limit: std::time::Duration::from_secs(60),
            ..Default::default()
        }))
    } else {
        registry::build(metric, cost).ok()?
    };
    // `bench` catches a metric's panic as the pair's failure; such a pair is an error here
    // and never judged again, so none is expected, but one must not take the page down.
    let judged = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        m.judge(&judged_pair).ok().map(|r| {
            let shown = metrics::equivalence(&r, &judged_pair).is_equivalent();
            (r, shown)
        })
    }));
    judged.ok().flatten()
}
