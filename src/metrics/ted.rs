//! Metric `ted`: TED similarity (ASSESS §3.2.2) `1 - d / max(|T1|, |T2|)` between the operator
//! trees of the reference and the candidate, as the parser builds them from source text.
//!
//! Costs: unit costs (every insert, delete and rename costs 1) are the default; GTED's free
//! renaming of flagged nodes (a bound variable renamed to another bound variable, or a hypothesis
//! name to another, costs 0) is available through [`Ted::free_cost`] (`--free-cost`). Why unit
//! costs: free renaming is applied node by node, with no requirement that the renaming be
//! consistent, so swapping two variables (`a < b` vs `b < a`) costs nothing although it changes
//! the meaning; and unit costs judged better on both bundled GTED datasets, with our trees and
//! with GTED's own trees (docs/benchmarks.md: best-threshold accuracy/kappa 73.66%/0.449 vs
//! 70.73%/0.438 on GTED's miniF2F trees, 70.97%/0.418 vs 69.89%/0.402 on ProofNet).
//!
//! Owns only the score; distances are `distance`'s, trees `trees`'.

use super::{timed, Metric, MetricError, MetricReport, Pair, Verdict};
use crate::distance::{self, CostModel};
use std::time::{Duration, Instant};

/// How long one `ted` pair may run: statement-sized pairs take microseconds, and the engine's
/// table limit (`distance::MAX_TABLE_CELLS`) bounds memory; this bounds time on the largest
/// pairs the table admits (APTED is O(n³) on the worst shapes).
pub const TIME_LIMIT: Duration = Duration::from_secs(10);

/// TED similarity with a chosen cost model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ted {
    pub costs: CostModel,
    /// Wall-clock limit of one pair ("out of time" error past it).
    pub time_limit: Duration,
}

impl Default for Ted {
    /// Unit costs (see the module doc for why not GTED's free renaming).
    fn default() -> Ted {
        Ted::unit_cost()
    }
}

impl Ted {
    /// Renames between flagged variables (or flagged hypotheses) are free.
    pub fn free_cost() -> Ted {
        Ted { costs: CostModel { free_rename: true }, time_limit: TIME_LIMIT }
    }

    /// Every rename costs 1, flagged or not.
    pub fn unit_cost() -> Ted {
        Ted { costs: CostModel { free_rename: false }, time_limit: TIME_LIMIT }
    }
}

impl Metric for Ted {
    fn name(&self) -> &'static str {
        "ted"
    }

    fn judge(&self, pair: &Pair<'_>) -> Result<MetricReport, MetricError> {
        let (a, b) = (&pair.reference.tree, &pair.candidate.tree);
        let deadline = Instant::now() + self.time_limit;
        let (d, elapsed) = timed(|| distance::try_ted(a, b, self.costs, Some(deadline)));
        let d = d.map_err(|e| match e {
            distance::DistanceError::DeadlineExceeded { .. } => MetricError::Failed(format!(
                "out of time: {e} (limit {} s)",
                self.time_limit.as_secs_f64()
            )),
            e => MetricError::Failed(e.to_string()),
        })?;
        let (reference_size, candidate_size) = (a.size(), b.size());
        let mut notes = Vec::new();
        if self.costs.free_rename {
            notes.push("free cost: renaming a bound variable or hypothesis costs 0".to_string());
        }
        notes.extend(super::unparsed_notes(pair, "could not be parsed and count as one node each"));
        Ok(MetricReport {
            metric: "ted",
            verdict: Verdict::Score(distance::similarity(d, reference_size, candidate_size)),
            distance: Some(d),
            reference_size,
            candidate_size,
            path: Vec::new(),
            notes,
            elapsed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trees::{Statement, Tree};

    fn statement(tree: Tree) -> Statement {
        Statement::of_tree(tree)
    }

    fn var(name: &str) -> Tree {
        Tree::bound_variable(name)
    }

    fn judge(metric: Ted, a: Tree, b: Tree) -> MetricReport {
        let (a, b) = (statement(a), statement(b));
        metric
            .judge(&Pair {
                reference: &a,
                candidate: &b,
                reference_header: "",
                candidate_header: "",
            })
            .unwrap()
    }

    #[test]
    fn renaming_a_bound_variable_costs_one_by_default_and_nothing_with_free_cost() {
        let a = Tree::node(" _ < _ ", vec![Tree::leaf("0"), var("x")]);
        let b = Tree::node(" _ < _ ", vec![Tree::leaf("0"), var("y")]);
        assert_eq!(Ted::default(), Ted::unit_cost());
        let free = judge(Ted::free_cost(), a.clone(), b.clone());
        assert_eq!(free.distance, Some(0));
        assert_eq!(free.verdict, Verdict::Score(1.0));
        let unit = judge(Ted::default(), a, b);
        assert_eq!(unit.distance, Some(1));
        assert_eq!(unit.verdict, Verdict::Score(1.0 - 1.0 / 3.0));
        assert_eq!((unit.reference_size, unit.candidate_size), (3, 3));
    }

    #[test]
    fn free_cost_cannot_see_swapped_variables_unit_cost_can() {
        let a = Tree::node(" _ < _ ", vec![var("a"), var("b")]);
        let b = Tree::node(" _ < _ ", vec![var("b"), var("a")]);
        assert_eq!(judge(Ted::free_cost(), a.clone(), b.clone()).distance, Some(0));
        assert_eq!(judge(Ted::unit_cost(), a, b).distance, Some(2));
    }

    #[test]
    fn a_dropped_subtree_lowers_the_score_by_its_size_over_the_larger_tree() {
        let a =
            Tree::node(" _ ∧ _ ", vec![Tree::leaf("p"), Tree::node("¬ _ ", vec![Tree::leaf("q")])]);
        let b = Tree::node(" _ ∧ _ ", vec![Tree::leaf("p")]);
        let report = judge(Ted::default(), a, b);
        assert_eq!(report.distance, Some(2));
        assert_eq!(report.verdict, Verdict::Score(1.0 - 2.0 / 4.0));
    }
}
