//! Metric `transted-lite`: ASSESS's TransTED (Algorithm 1, Appendix B) with tree rewrite rules
//! in place of Lean tactics, so it needs no Lean.
//!
//! Owns the metric, its configuration and the search problem over pairs of trees; the rules are
//! in [`rules`], the generic best-first loop in [`crate::search`]. Does no I/O.
//!
//! How a pair is judged:
//! 1. Both trees are put in canonical form ([`rules::canonicalize`]: `>`→`<`, `¬ =`→`≠`,
//!    `a ∧ b → c`→`a → b → c`, leading `∀`/`→` of the conclusion → binders, binder predicates
//!    unfolded, `let` inlined, ...). These steps open the path.
//! 2. Best-first search from the pair of canonical trees: a state is the pair of current trees,
//!    its successors are the rule moves ([`rules::moves`]) on either side, its heuristic is the
//!    tree edit distance between the two trees with free renaming of bound variables and
//!    hypothesis names (GTED's cost model). Distance 0 ends the search: the rewrites prove the
//!    statements equivalent. Otherwise the answer is the smallest distance seen within the
//!    budget (`max_nodes` states evaluated, `time_limit` wall clock).
//! 3. Similarity `1 − d / max(|T₁|, |T₂|)` with the sizes of the ORIGINAL trees, like TED
//!    similarity, so that canonical forms that grow a tree do not flatter a score.
//!
//! Determinism: the search order is total (see [`crate::search`]), so when the node budget ends
//! the search (the default on these statement sizes) the result is the same every run; only a
//! search cut by `time_limit` can depend on the machine's speed, and the report says so.

pub mod rules;

use super::{Metric, MetricError, MetricReport, Pair, PathStep, Verdict};
use crate::distance::{self, CostModel, FlatTree, LabelInterner, Workspace};
use crate::search::{self, Budget, Stop, StepProvider};
use crate::trees::Tree;
use rules::{Applied, Commutativity};
use std::time::{Duration, Instant};

/// Limits of one judgement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// States (pairs of trees) whose distance is computed, the start included.
    pub max_nodes: usize,
    /// Wall-clock limit for the search of one pair.
    pub time_limit: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_nodes: 2000,
            time_limit: Duration::from_millis(200),
        }
    }
}

/// The `transted-lite` metric.
#[derive(Clone, Copy, Debug, Default)]
pub struct TransTedLite {
    pub config: Config,
}

/// Which tree a rewrite applied to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Reference,
    Candidate,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Reference => "reference",
            Side::Candidate => "candidate",
        }
    }
}

/// One step of the path: a rule applied on one side.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub side: Side,
    pub applied: Applied,
}

impl Step {
    fn to_path_step(&self) -> PathStep {
        PathStep {
            rule: self.applied.rule.to_string(),
            side: self.side.name().to_string(),
            at: self.applied.at.clone(),
        }
    }
}

/// What the search found for one pair of trees.
#[derive(Clone, Debug)]
pub struct Judgement {
    /// Smallest distance reached (0: proved equivalent by the rules).
    pub distance: u32,
    /// `1 − distance / max(|reference|, |candidate|)` over the original trees.
    pub similarity: f64,
    /// Canonicalisation steps, then the search's steps to the best pair.
    pub path: Vec<Step>,
    /// The two trees at the end of the path.
    pub reference: Tree,
    pub candidate: Tree,
    pub evaluated: usize,
    pub expanded: usize,
    pub stop: Stop,
}

/// The search problem: pairs of trees, rule moves on either side, TED between them.
struct TreePairs {
    comm: [Commutativity; 2],
    heuristic: Heuristic,
}

/// Tree edit distance with free renaming of flagged names: one APTED workspace and one label
/// table reused for every evaluation of a search.
struct Heuristic {
    workspace: Workspace,
    labels: LabelInterner,
}

const HEURISTIC_COSTS: CostModel = CostModel { free_rename: true };

impl Heuristic {
    fn new() -> Heuristic {
        Heuristic {
            workspace: Workspace::new(),
            labels: LabelInterner::new(),
        }
    }

    fn ted(&mut self, a: &Tree, b: &Tree) -> u32 {
        let fa = FlatTree::new(a, &mut self.labels);
        let fb = FlatTree::new(b, &mut self.labels);
        self.workspace.ted_flat(&fa, &fb, HEURISTIC_COSTS)
    }
}

impl StepProvider for TreePairs {
    type State = (Tree, Tree);
    type Step = Step;

    fn steps(&mut self, state: &(Tree, Tree), out: &mut Vec<(Step, (Tree, Tree))>) {
        let mut rewrites = Vec::new();
        let heuristic = &mut self.heuristic;
        let mut small = |a: &Tree, b: &Tree| heuristic.ted(a, b);
        rules::moves(&state.0, &state.1, self.comm[0], &mut small, &mut rewrites);
        for r in rewrites.drain(..) {
            let step = Step {
                side: Side::Reference,
                applied: r.applied,
            };
            out.push((step, (r.tree, state.1.clone())));
        }
        rules::moves(&state.1, &state.0, self.comm[1], &mut small, &mut rewrites);
        for r in rewrites.drain(..) {
            let step = Step {
                side: Side::Candidate,
                applied: r.applied,
            };
            out.push((step, (state.0.clone(), r.tree)));
        }
    }

    fn distance(&mut self, state: &(Tree, Tree)) -> u32 {
        self.heuristic.ted(&state.0, &state.1)
    }
}

impl TransTedLite {
    /// A metric with the given limits.
    pub fn new(config: Config) -> TransTedLite {
        TransTedLite { config }
    }

    /// Judge two trees (the reference's and the candidate's).
    pub fn judge_trees(&self, reference: &Tree, candidate: &Tree) -> Judgement {
        let deadline = Instant::now() + self.config.time_limit;
        let (ref_canon, ref_log) = rules::canonicalize(reference);
        let (cand_canon, cand_log) = rules::canonicalize(candidate);
        let mut path: Vec<Step> = ref_log
            .into_iter()
            .map(|applied| Step {
                side: Side::Reference,
                applied,
            })
            .chain(cand_log.into_iter().map(|applied| Step {
                side: Side::Candidate,
                applied,
            }))
            .collect();
        let mut problem = TreePairs {
            comm: [
                Commutativity::of(&ref_canon),
                Commutativity::of(&cand_canon),
            ],
            heuristic: Heuristic::new(),
        };
        let budget = Budget {
            max_nodes: self.config.max_nodes,
            deadline: Some(deadline),
        };
        let out = search::best_first(&mut problem, (ref_canon, cand_canon), budget, &mut ());
        path.extend(out.path);
        let (reference_end, candidate_end) = out.best;
        Judgement {
            distance: out.distance,
            similarity: distance::similarity(out.distance, reference.size(), candidate.size()),
            path,
            reference: reference_end,
            candidate: candidate_end,
            evaluated: out.evaluated,
            expanded: out.expanded,
            stop: out.stop,
        }
    }
}

impl Metric for TransTedLite {
    fn name(&self) -> &'static str {
        "transted-lite"
    }

    fn judge(&self, pair: &Pair<'_>) -> Result<MetricReport, MetricError> {
        let start = Instant::now();
        let reference = &pair.reference.tree;
        let candidate = &pair.candidate.tree;
        let j = self.judge_trees(reference, candidate);
        let mut notes = vec![format!(
            "{} states evaluated, {} expanded",
            j.evaluated, j.expanded
        )];
        match j.stop {
            Stop::Closed => notes.push("the rewrites make the two statements identical".into()),
            Stop::Exhausted => notes.push("every reachable rewrite was tried".into()),
            Stop::NodeBudget => notes.push(format!(
                "node budget ({}) reached: distance is the smallest seen",
                self.config.max_nodes
            )),
            Stop::Deadline => notes.push(format!(
                "time limit ({} ms) reached: distance is the smallest seen (may vary run to run)",
                self.config.time_limit.as_millis()
            )),
        }
        let unparsed = pair.reference.unparsed.len() + pair.candidate.unparsed.len();
        if unparsed > 0 {
            notes.push(format!("{unparsed} unparsed span(s) compared as opaque nodes"));
        }
        Ok(MetricReport {
            metric: "transted-lite",
            verdict: Verdict::Score(j.similarity),
            distance: Some(j.distance),
            reference_size: reference.size(),
            candidate_size: candidate.size(),
            path: j.path.iter().map(Step::to_path_step).collect(),
            notes,
            elapsed: start.elapsed(),
        })
    }
}
