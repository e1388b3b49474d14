//! Metric `path`: seed 004's path-based similarity over DNF-like trees.
//!
//! Seed 004 ("A Similarity Metric for Evaluating Natural Language to Logic Translation", §4)
//! compares two formulas by turning each into a DNF-like tree (OR of AND groups of possibly
//! negated atoms, atoms as operator trees), then comparing every root-to-leaf path of one tree
//! with the paths of the other: level-by-level node similarity, penalised per node (α = 5) and
//! for length differences (harmonic sum), divided by reuse of the best-matching path, averaged
//! over paths, in both directions, keeping the minimum; AND groups are matched between the trees
//! so that the best pairing counts.
//!
//! Here the formula is the propositional skeleton of a Lean statement ([`Skeleton`]): hypotheses
//! (and, by default, typing binders such as `x : ℝ`, since Lean's logic is typed and the paper's
//! is not) conjoined and implying the conclusion, quantifiers removed (the paper's logic has
//! none).
//!
//! **The node similarity is lexical, not semantic.** The paper compares predicate and argument
//! nodes with SBERT embeddings; the default here, [`LexicalSimilarity`], compares identifier
//! subtokens (`Nat.Prime` ≈ `Prime`), operator symbols by equality, and atoms as a whole by a
//! label-token Dice coefficient (see [`LexicalSimilarity`]). A semantic similarity can be plugged in
//! through the [`NodeSimilarity`] trait ([`PathSim::with_node_similarity`]).
//!
//! Submodules: `skeleton` (tree → DNF-like tree → paths), `score` (Eqs. 1–5 and AND matching),
//! `lexical` (the default node similarity). Work is bounded on every input (clause, path and
//! matching limits; see each module), and nothing here panics, recurses without a depth bound or
//! does I/O.

mod lexical;
mod score;
mod skeleton;

pub use lexical::{LexicalSimilarity, NodeSimilarity};
pub use score::{compare, Comparison, PathMatch, ScoreOptions};
pub use skeleton::{Literal, PathNode, Skeleton, SkeletonOptions, TermNode};

use super::{timed, Metric, MetricError, MetricReport, Pair, Verdict};
use crate::trees::Tree;
use std::sync::Arc;

/// The `path` metric: seed 004's `Sim` (Eq. 1) between the DNF-like trees of the two statements.
#[derive(Clone, Debug)]
pub struct PathSim {
    pub skeleton: SkeletonOptions,
    pub scoring: ScoreOptions,
    node_similarity: Arc<dyn NodeSimilarity>,
}

impl Default for PathSim {
    fn default() -> Self {
        PathSim {
            skeleton: SkeletonOptions::default(),
            scoring: ScoreOptions::default(),
            node_similarity: Arc::new(LexicalSimilarity::default()),
        }
    }
}

/// The result of [`PathSim::compare`], with what explains it.
#[derive(Clone, Debug)]
pub struct PathComparison {
    pub comparison: Comparison,
    pub reference: Skeleton,
    pub candidate: Skeleton,
}

impl PathSim {
    /// The same metric with another node similarity (for instance an embedding-based one).
    pub fn with_node_similarity(mut self, node_similarity: Arc<dyn NodeSimilarity>) -> Self {
        self.node_similarity = node_similarity;
        self
    }

    /// Compare two operator trees (statement trees with a `theorem` root, or bare propositions).
    pub fn compare(&self, reference: &Tree, candidate: &Tree) -> PathComparison {
        let r = Skeleton::of_statement(reference, self.skeleton);
        let c = Skeleton::of_statement(candidate, self.skeleton);
        let comparison = compare(&r, &c, self.node_similarity.as_ref(), &self.scoring);
        PathComparison { comparison, reference: r, candidate: c }
    }

    /// The similarity alone, in [0, 1].
    pub fn similarity(&self, reference: &Tree, candidate: &Tree) -> f64 {
        self.compare(reference, candidate).comparison.similarity
    }
}

impl Metric for PathSim {
    fn name(&self) -> &'static str {
        "path"
    }

    fn judge(&self, pair: &Pair<'_>) -> Result<MetricReport, MetricError> {
        // Bounded input is this metric's time bound (see `metrics::limits`).
        super::limits::check(pair, &super::limits::PATH)?;
        let (result, elapsed) = timed(|| self.compare(&pair.reference.tree, &pair.candidate.tree));
        let cmp = &result.comparison;
        let mut notes = vec![
            format!(
                "{} reference paths in {} clauses, {} candidate paths in {} clauses",
                result.reference.paths.len(),
                result.reference.clauses.len(),
                result.candidate.paths.len(),
                result.candidate.clauses.len()
            ),
            format!(
                "TreeSim reference→candidate {:.4}, candidate→reference {:.4}",
                cmp.forward, cmp.backward
            ),
        ];
        if result.reference.and_groups + result.candidate.and_groups > 0 {
            notes.push(format!(
                "AND matching {} ({} matching(s) tried): {:?}",
                if cmp.exhaustive {
                    "exhaustive"
                } else {
                    "searched (too many to try all: best-affinity start, then hill climbing)"
                },
                cmp.evaluated,
                cmp.matching
            ));
        }
        notes.extend(weakest_paths(
            "reference",
            &result.reference,
            &result.candidate,
            &cmp.forward_matches,
        ));
        notes.extend(weakest_paths(
            "candidate",
            &result.candidate,
            &result.reference,
            &cmp.backward_matches,
        ));
        notes.extend(result.reference.notes.iter().map(|n| format!("reference: {n}")));
        notes.extend(result.candidate.notes.iter().map(|n| format!("candidate: {n}")));
        notes.extend(super::unparsed_notes(
            pair,
            "the parser could not read, compared as opaque text",
        ));
        Ok(MetricReport {
            metric: "path",
            verdict: Verdict::Score(cmp.similarity),
            distance: None,
            reference_size: pair.reference.tree.size(),
            candidate_size: pair.candidate.tree.size(),
            path: Vec::new(),
            notes,
            elapsed,
        })
    }
}

/// How many of each side's worst-matched paths the report names.
const WEAKEST_SHOWN: usize = 3;

/// Notes naming the paths of `side` that found the poorest match in the other tree: where the two
/// statements differ.
fn weakest_paths(
    side: &str,
    own: &Skeleton,
    other: &Skeleton,
    matches: &[PathMatch],
) -> Vec<String> {
    let mut order: Vec<usize> = (0..matches.len()).collect();
    order.sort_by(|&x, &y| matches[x].score.total_cmp(&matches[y].score).then(x.cmp(&y)));
    order
        .into_iter()
        .take(WEAKEST_SHOWN)
        .filter(|&i| matches[i].score < 1.0 - 1e-9)
        .filter_map(|i| {
            let m = matches[i];
            let path = own.render_path(own.paths.get(i)?);
            let best = other.render_path(other.paths.get(m.best)?);
            Some(format!(
                "weak {side} path {path}: best match {best} (PathSim {:.3}, shared by {}) → {:.3}",
                m.path_sim, m.reuse, m.score
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests;
