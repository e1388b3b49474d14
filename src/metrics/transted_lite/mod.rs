//! Metric `transted-lite`: ASSESS's TransTED (Algorithm 1, Appendix B) with tree rewrite rules
//! in place of Lean tactics, so it needs no Lean.
//!
//! Owns the metric, its configuration and the search problem over pairs of trees; the rules are
//! in [`rules`], the pair-level name resolution in [`names`], the generic best-first loop in
//! [`crate::search`]. Does no I/O.
//!
//! How a pair is judged:
//! 0. Each side's free names are written as the declarations they denote under its own header
//!    ([`crate::elab`]: `sqrt` under `open Real` is `Real.sqrt`; a name the table cannot tell is
//!    marked so that no rule's constant matches it). A header construct elaboration-lite does
//!    not model allows no rewrite at all: the trees are compared as they are.
//! 1. Both trees are put in canonical form ([`rules::canonicalize`]: `>`→`<`, `¬ =`→`≠`,
//!    `a ∧ b → c`→`a → b → c`, leading `∀`/`→` of the conclusion → binders, binder predicates
//!    unfolded, `let` inlined, ...). These steps open the path.
//! 2. Best-first search from the pair of canonical trees: a state is the pair of current trees,
//!    its successors are the rule moves ([`rules::moves`]) on the candidate (or on both sides with
//!    [`Config::both_sides`]; every move has its inverse, so one side suffices to close a pair),
//!    its heuristic is the tree edit distance between the two trees with free renaming of bound
//!    variables and hypothesis names (GTED's cost model; `distance::Incremental` against the
//!    reference, which reuses the distances of candidate subtrees earlier states measured, or
//!    `distance::Workspace` from scratch; both exact), except
//!    that a TED of 0 between trees that are not alpha-equivalent ([`rules::alpha_equivalent`])
//!    counts 1 (free renaming prices each leaf alone). Distance 0 ends the search: the rewrites prove
//!    the statements equivalent. Otherwise the answer is the smallest distance seen within the
//!    node budget (`max_nodes` states evaluated). A search that reaches `time_limit` first is
//!    an "out of time" failure, not a score.
//! 3. A pair closed at distance 0 is kept at 1, with a note, where the path does not show the
//!    statements equivalent: names that may mean different things under the two headers
//!    ([`crate::elab::resolve::same_meaning`]), different closed facts that `norm_num` evaluates
//!    alike ([`guards`]). The distance of the statements as written is kept when it is smaller
//!    (the empty transformation sequence), so the score is never below TED's.
//! 4. Similarity `1 − d / max(|T₁|, |T₂|)` with the sizes of the ORIGINAL trees, like TED
//!    similarity, so that canonical forms that grow a tree do not flatter a score (floored at
//!    0 for the rare distance above the larger original size).
//!
//! Determinism: the search order is total (see [`crate::search`]), so when the node budget ends
//! the search (the default on these statement sizes) the result is the same every run. A search
//! cut by `time_limit` would depend on the machine's speed, so it gives no result at all.
//!
//! Deadline: `time_limit` holds at any input size. The clock ([`clock::Clock`]) is read before
//! each node's canonical rule attempt, at each node of successor generation, before each binder
//! pair `binder_reorder` measures and each binder swap, and inside every distance (the TED
//! engine checks it every few thousand table cells), so the work past the deadline is one such
//! step. Measured in `benches/transted_lite.rs` (README, "transted-lite against its deadline").

pub mod clock;
pub mod guards;
pub mod ill_typed;
pub mod rules;

use super::{Metric, MetricError, MetricReport, Pair, PairNames, PathStep, Verdict};
use crate::distance::{
    self, CostModel, DistanceError, FlatTree, Incremental, LabelInterner, Workspace,
};
use crate::search::{self, Budget, StepProvider, Stop};
use crate::trees::Tree;
use clock::Clock;
use rules::{Applied, Carriers, Commutativity};
use std::collections::HashMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Limits of one judgement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// States (pairs of trees) whose distance is computed, the start included.
    pub max_nodes: usize,
    /// Wall-clock limit for the search of one pair.
    pub time_limit: Duration,
    /// Search moves on both trees (`true`) or on the candidate only. Every move has its inverse
    /// among the moves, so rewriting the reference to `X` and the candidate to `X` can also be
    /// done on the candidate alone (to `X`, then back along the reference's path): closing a
    /// pair never needs both sides. The canonical rules always apply to both.
    pub both_sides: bool,
    /// The heuristic's cost model: renaming one bound variable (or hypothesis name) to another
    /// costs nothing (`true`, GTED's choice and the default) or 1 like any other rename.
    pub free_rename: bool,
    /// Reuse work between neighbouring search states (`true`, the default): a state's
    /// distance is computed incrementally against the start's reference tree
    /// ([`distance::Incremental`]: the subtree distances of every candidate subtree already
    /// measured are kept, so a state costs the keyroots on the path from its rewrite to the
    /// root, each resumed from the last checkpoint before the rewrite), and the binder-pair
    /// distances `binder_reorder` aligns by are remembered across expansions (binders a
    /// rewrite did not touch are measured once per search). Exact: the results are the same
    /// either way; `false` (every distance from scratch) exists to measure what it saves
    /// (`benches/transted_lite.rs`).
    pub reuse: bool,
}

impl Default for Config {
    fn default() -> Self {
        // 50 states keep a 205-pair dataset at about half a second of CPU on this 2-core machine
        // (each state costs one APTED run on ~50-node trees plus its successors); 100 and 200
        // states judged no pair of the GTED sets differently.
        Config {
            max_nodes: 50,
            // Far above the ~2 ms of CPU a pair needs, so that on a loaded machine the node
            // budget, not the clock, still ends the search (and the result stays the same).
            time_limit: Duration::from_millis(500),
            both_sides: false,
            free_rename: true,
            reuse: true,
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
    /// Why the pair is kept open although the rewrites made the trees identical ([`guards`]);
    /// `distance` is then 1. Empty otherwise.
    pub refused: Vec<String>,
}

impl Judgement {
    /// Keep a closed pair open (distance 1) for `reason`: the rewrites do not show it.
    fn refuse(&mut self, reason: String, reference_size: usize, candidate_size: usize) {
        if self.distance == 0 {
            self.distance = 1;
            self.similarity = distance::similarity(1, reference_size, candidate_size).max(0.0);
        }
        self.refused.push(reason);
    }
}

/// The search problem: pairs of trees, rule moves on either side, TED between them.
struct TreePairs {
    comm: [Commutativity; 2],
    /// Each side's number systems, read from the original statements (canonical forms may
    /// have substituted a typed variable away).
    carriers: [Carriers; 2],
    heuristic: Heuristic,
    both_sides: bool,
    /// The judgement's deadline, read inside successor generation (every node, binder pair
    /// and swap) so that an expansion stops at most one rule attempt past it.
    clock: Clock,
}

/// Tree edit distance with free renaming of flagged names: one APTED workspace and one label
/// table reused for every evaluation of a search.
struct Heuristic {
    workspace: Workspace,
    labels: LabelInterner,
    costs: CostModel,
    /// The search's deadline, checked before and during every distance (the deadline hook: the
    /// rules' own `small` TEDs inside successor generation pass through here too).
    deadline: Option<Instant>,
    /// Work kept between states ([`Config::reuse`]); `None` recomputes everything.
    reuse: Option<Reuse>,
    /// Some distance was answered [`PAST_DEADLINE`]: the search saw the clock, whatever it
    /// stopped on afterwards (the node budget can be reached by unmeasured states).
    timed_out: bool,
}

/// What [`Heuristic`] keeps between neighbouring states. Every entry is keyed by the full tree
/// (compared for equality, not only by hash), so a reused value is exactly the value that would
/// be recomputed.
#[derive(Default)]
struct Reuse {
    /// The first tree of the search's start state, and the distances of every candidate
    /// subtree measured against it: in the default candidate-only search every state shares
    /// that tree, and neighbouring states share all but the rewritten subtree's path.
    incremental: Option<(Rc<Tree>, Incremental)>,
    /// The last other first tree of a state and its flattening (searches on both sides).
    first: Option<(Tree, FlatTree)>,
    /// Small trees (binders) measured by `binder_reorder`, numbered, with their flattening.
    small_ids: HashMap<Tree, usize>,
    small_flat: Vec<FlatTree>,
    /// Distance between two numbered small trees.
    small_pairs: HashMap<(usize, usize), u32>,
}

/// Most small trees [`Reuse`] remembers in one search (a few MB at binder sizes); past it the
/// tables are cleared and filled again.
const MAX_REUSED_SMALL_TREES: usize = 20_000;

/// The distance [`Heuristic::ted`] gives once the deadline has passed: larger than any real
/// one, so such a state is never the best, and the search stops at its next deadline check.
const PAST_DEADLINE: u32 = u32::MAX;

impl Heuristic {
    fn new(costs: CostModel, deadline: Option<Instant>, reuse: bool) -> Heuristic {
        Heuristic {
            workspace: Workspace::new(),
            labels: LabelInterner::new(),
            costs,
            deadline,
            reuse: reuse.then(Reuse::default),
            timed_out: false,
        }
    }

    /// The distance between the two trees of a state. Its first tree is compared with the
    /// incremental engine's by pointer first: the states of a candidate-only search share it.
    fn state_ted(&mut self, a: &Rc<Tree>, b: &Tree) -> u32 {
        self.ted(a, b, Some(a))
    }

    /// The distance between two trees; `shared`: the first as the state holds it.
    fn ted(&mut self, a: &Tree, b: &Tree, shared: Option<&Rc<Tree>>) -> u32 {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.timed_out = true;
            return PAST_DEADLINE;
        }
        let Some(reuse) = self.reuse.as_mut() else {
            let fa = FlatTree::new(a, &mut self.labels);
            let fb = FlatTree::new(b, &mut self.labels);
            return self.ted_flat(a, b, &fa, &fb);
        };
        // The first tree of the search's first state is the one every candidate-side state
        // shares: measured incrementally against it (`distance::Incremental`), each state
        // costs the subtrees its rewrite changed, not the whole pair.
        let incremental = reuse.incremental.get_or_insert_with(|| {
            let first = shared.map_or_else(|| Rc::new(a.clone()), Rc::clone);
            (first, Incremental::new(a, b, self.costs))
        });
        if shared.is_some_and(|s| Rc::ptr_eq(s, &incremental.0)) || *incremental.0 == *a {
            let d = incremental.1.ted(b, self.deadline);
            return self.adjust(a, b, d);
        }
        // A state whose first tree was rewritten (`Config::both_sides`): measured whole, the
        // last such first tree flattened once.
        let fb = FlatTree::new(b, &mut self.labels);
        let first = match reuse.first.take() {
            Some(kept) if kept.0 == *a => kept,
            _ => (a.clone(), FlatTree::new(a, &mut self.labels)),
        };
        let d = self.ted_flat(a, b, &first.1, &fb);
        if let Some(reuse) = self.reuse.as_mut() {
            reuse.first = Some(first);
        }
        d
    }

    /// The distance between two small trees (binders aligned by `binder_reorder`),
    /// remembered for the whole search when [`Config::reuse`] is on.
    fn small_ted(&mut self, a: &Tree, b: &Tree) -> u32 {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.timed_out = true;
            return PAST_DEADLINE;
        }
        let Some(mut reuse) = self.reuse.take() else {
            return self.ted(a, b, None);
        };
        let d = self.small_ted_reusing(&mut reuse, a, b);
        self.reuse = Some(reuse);
        d
    }

    fn small_ted_reusing(&mut self, reuse: &mut Reuse, a: &Tree, b: &Tree) -> u32 {
        if reuse.small_flat.len() >= MAX_REUSED_SMALL_TREES {
            reuse.small_ids.clear();
            reuse.small_flat.clear();
            reuse.small_pairs.clear();
        }
        let mut id = |t: &Tree, labels: &mut LabelInterner| match reuse.small_ids.get(t) {
            Some(&i) => i,
            None => {
                let i = reuse.small_flat.len();
                reuse.small_flat.push(FlatTree::new(t, labels));
                reuse.small_ids.insert(t.clone(), i);
                i
            }
        };
        let (ia, ib) = (id(a, &mut self.labels), id(b, &mut self.labels));
        if let Some(&d) = reuse.small_pairs.get(&(ia, ib)) {
            return d;
        }
        let d = self.ted_flat(a, b, &reuse.small_flat[ia], &reuse.small_flat[ib]);
        if d != PAST_DEADLINE {
            reuse.small_pairs.insert((ia, ib), d);
        }
        d
    }

    /// The distance between `a` and `b`, flattened as `fa` and `fb`.
    fn ted_flat(&mut self, a: &Tree, b: &Tree, fa: &FlatTree, fb: &FlatTree) -> u32 {
        let d = self.workspace.ted_flat_within(fa, fb, self.costs, self.deadline);
        self.adjust(a, b, d)
    }

    /// The heuristic's value for a computed TED of `a` and `b`.
    fn adjust(&mut self, a: &Tree, b: &Tree, d: Result<u32, DistanceError>) -> u32 {
        let Ok(d) = d else {
            self.timed_out = true;
            return PAST_DEADLINE;
        };
        // Free renaming prices each leaf alone: a TED of 0 may pair `x` with `y` in one place
        // and with `x` in another (`(h : x < y) : x < y` against `(h : x < y) : y < x`). Only
        // a renaming that respects the binders makes the trees the same statement, so any
        // other still costs a step.
        if d == 0 && self.costs.free_rename && !rules::alpha_equivalent(a, b) {
            1
        } else {
            d
        }
    }
}

impl StepProvider for TreePairs {
    /// Shared trees: a successor shares the side its move did not touch with its parent, and
    /// the search's seen-set keeps a copy of every state, so copies are pointer copies.
    type State = (Rc<Tree>, Rc<Tree>);
    type Step = Step;

    fn steps(&mut self, state: &Self::State, out: &mut Vec<(Step, Self::State)>) {
        let mut rewrites = Vec::new();
        let heuristic = &mut self.heuristic;
        let mut small = |a: &Tree, b: &Tree| heuristic.small_ted(a, b);
        // Out of time, the moves found so far are still returned: the search stops at its
        // next deadline check, before measuring them.
        for side in [Side::Reference, Side::Candidate] {
            if side == Side::Reference && !self.both_sides {
                continue;
            }
            let (i, moved, other) = match side {
                Side::Reference => (0, &state.0, &state.1),
                Side::Candidate => (1, &state.1, &state.0),
            };
            rules::moves_within(
                moved,
                other,
                self.comm[i],
                &self.carriers[i],
                &mut small,
                self.clock,
                &mut rewrites,
            );
            for r in rewrites.drain(..) {
                let tree = Rc::new(r.tree);
                let pair = match side {
                    Side::Reference => (tree, Rc::clone(&state.1)),
                    Side::Candidate => (Rc::clone(&state.0), tree),
                };
                let step = Step { side, applied: r.applied };
                out.push((step, pair));
            }
        }
    }

    fn distance(&mut self, state: &Self::State) -> u32 {
        self.heuristic.state_ted(&state.0, &state.1)
    }
}

impl TransTedLite {
    /// A metric with the given limits.
    pub fn new(config: Config) -> TransTedLite {
        TransTedLite { config }
    }

    /// Judge two trees (the reference's and the candidate's), their free names already written
    /// as the declarations they denote ([`crate::elab::resolve::resolve_tree`]).
    pub fn judge_trees(&self, reference: &Tree, candidate: &Tree) -> Judgement {
        let deadline = Instant::now() + self.config.time_limit;
        let clock = Clock::until(Some(deadline));
        let out_of_time = || Judgement {
            distance: PAST_DEADLINE,
            similarity: 0.0,
            path: Vec::new(),
            reference: reference.clone(),
            candidate: candidate.clone(),
            evaluated: 0,
            expanded: 0,
            stop: Stop::Deadline,
            refused: Vec::new(),
        };
        let Some((ref_canon, ref_log)) = rules::canonicalize_within(reference, clock) else {
            return out_of_time();
        };
        let Some((cand_canon, cand_log)) = rules::canonicalize_within(candidate, clock) else {
            return out_of_time();
        };
        let mut path: Vec<Step> = ref_log
            .into_iter()
            .map(|applied| Step { side: Side::Reference, applied })
            .chain(cand_log.into_iter().map(|applied| Step { side: Side::Candidate, applied }))
            .collect();
        let mut problem = TreePairs {
            comm: [Commutativity::of(&ref_canon), Commutativity::of(&cand_canon)],
            carriers: [Carriers::of(reference), Carriers::of(candidate)],
            heuristic: Heuristic::new(
                CostModel { free_rename: self.config.free_rename },
                Some(deadline),
                self.config.reuse,
            ),
            both_sides: self.config.both_sides,
            clock,
        };
        let budget = Budget { max_nodes: self.config.max_nodes, deadline: Some(deadline) };
        let mut out = search::best_first(
            &mut problem,
            (Rc::new(ref_canon), Rc::new(cand_canon)),
            budget,
            &mut (),
        );
        if problem.heuristic.timed_out && out.stop != Stop::Closed {
            // Some state went unmeasured: whatever ended the search, the clock decided it.
            out.stop = Stop::Deadline;
        }
        path.extend(out.path);
        let (reference_end, candidate_end) = out.best;
        let unshare = |t: Rc<Tree>| Rc::try_unwrap(t).unwrap_or_else(|shared| (*shared).clone());
        let (reference_end, candidate_end) = (unshare(reference_end), unshare(candidate_end));
        let mut judgement = Judgement {
            distance: out.distance,
            // Canonical forms can grow a tree past its original size (`autoImplicit` writes out
            // binders), so a distance can exceed the larger original size: floor at 0.
            similarity: distance::similarity(out.distance, reference.size(), candidate.size())
                .max(0.0),
            path,
            reference: reference_end,
            candidate: candidate_end,
            evaluated: out.evaluated,
            expanded: out.expanded,
            stop: out.stop,
            refused: Vec::new(),
        };
        if judgement.distance == 0 {
            if let Some(reason) = guards::closed_facts(reference, candidate) {
                judgement.refuse(reason, reference.size(), candidate.size());
            }
        }
        judgement
    }
}

impl TransTedLite {
    /// The distance between two trees with no rewrite at all (free renaming as configured): 0
    /// only when they are alpha-equivalent.
    fn compare_without_rewrites(
        &self,
        reference: &Tree,
        candidate: &Tree,
    ) -> Result<Judgement, MetricError> {
        let deadline = Instant::now() + self.config.time_limit;
        let costs = CostModel { free_rename: self.config.free_rename };
        let d = distance::try_ted(reference, candidate, costs, Some(deadline))
            .map_err(|e| MetricError::Failed(e.to_string()))?;
        let d = if d == 0 && !rules::alpha_equivalent(reference, candidate) { 1 } else { d };
        Ok(Judgement {
            distance: d,
            similarity: distance::similarity(d, reference.size(), candidate.size()).max(0.0),
            path: Vec::new(),
            reference: reference.clone(),
            candidate: candidate.clone(),
            evaluated: 1,
            expanded: 0,
            stop: Stop::Exhausted,
            refused: Vec::new(),
        })
    }
}

impl Metric for TransTedLite {
    fn name(&self) -> &'static str {
        "transted-lite"
    }

    fn judge(&self, pair: &Pair<'_>) -> Result<MetricReport, MetricError> {
        // The rules recurse once per tree level and clone whole trees per rewrite: bound the
        // input before they run (`metrics::limits`).
        super::limits::check(pair, &super::limits::TRANSTED_LITE)?;
        let start = Instant::now();
        let reference = &pair.reference.tree;
        let candidate = &pair.candidate.tree;
        let names = PairNames::read(pair);
        let (scopes, resolved) = (&names.scopes, &names.resolved);
        let modelled = scopes.0.is_modelled() && scopes.1.is_modelled();
        // Names bound by pattern matching (`fun ⟨n, m⟩ => …`) shadow others at types the
        // rules do not read: no rule may assume what such a name is.
        let patterns = rules::has_pattern_binder(&resolved.0.tree)
            || rules::has_pattern_binder(&resolved.1.tree);
        // Also proof terms in the text, which the parser may keep only in part (`(show ℤ from
        // x)` as `ℤ` alone, `(by exact x : ℤ)` as `by`).
        let proof_terms = super::has_proof_term;
        let unparsed = rules::has_unparsed(&resolved.0.tree)
            || rules::has_unparsed(&resolved.1.tree)
            || proof_terms(&pair.reference.source)
            || proof_terms(&pair.candidate.source);
        let header_instances = guards::header_instances(pair.reference_header)
            .or_else(|| guards::header_instances(pair.candidate_header));
        let unread = guards::unread_binders(&resolved.0.tree)
            .or_else(|| guards::unread_binders(&resolved.1.tree))
            .or_else(|| guards::class_terms(&resolved.0.tree))
            .or_else(|| guards::class_terms(&resolved.1.tree))
            .or_else(|| guards::header_class_declarations(&scopes.0.declarations))
            .or_else(|| guards::header_class_declarations(&scopes.1.declarations))
            .or_else(|| guards::unread_variables(&scopes.0.variables))
            .or_else(|| guards::unread_variables(&scopes.1.variables));
        // With `autoImplicit` off a free name is an error, not a binder (lean4
        // `src/Lean/Elab/AutoBound.lean`): the `autoImplicit` rule would bind it.
        let no_auto_bound = [&scopes.0, &scopes.1]
            .iter()
            .any(|s| s.options.iter().any(|o| o.contains("utoImplicit") && !o.contains("true")));
        let mut j = if modelled
            && !patterns
            && !unparsed
            && !no_auto_bound
            && unread.is_none()
            && header_instances.is_none()
        {
            self.judge_trees(&resolved.0.tree, &resolved.1.tree)
        } else {
            // A header construct elaboration-lite does not model (a local instance, a notation,
            // a macro) may change what any rule's lemma says: no rewrite, only the trees as
            // they are.
            self.compare_without_rewrites(&resolved.0.tree, &resolved.1.tree)?
        };
        if j.stop == Stop::Deadline || j.distance == PAST_DEADLINE {
            // A search cut by the clock has no verdict: its smallest distance depends on the
            // machine's speed and load, so it is a failure, never a score.
            return Err(MetricError::Failed(format!(
                "out of time: the time limit ({} ms) passed after {} states evaluated, {} expanded; the search did not end",
                self.config.time_limit.as_millis(),
                j.evaluated,
                j.expanded
            )));
        }
        let resolution_steps = [(Side::Reference, &resolved.0), (Side::Candidate, &resolved.1)]
            .into_iter()
            .flat_map(|(side, r)| {
                r.resolved.iter().map(move |(written, read)| Step {
                    side,
                    applied: Applied {
                        rule: "name resolution (header)",
                        at: format!("{written} is {read}"),
                    },
                })
            });
        // The header `variable`s written in as binders come first: Lean's statement starts with
        // them.
        let variable_steps = [Side::Reference, Side::Candidate]
            .into_iter()
            .zip(&names.variables)
            .filter_map(|(side, written)| match written {
                Ok(binders) if !binders.is_empty() => Some(Step {
                    side,
                    applied: Applied { rule: "section variables (header)", at: binders.join(" ") },
                }),
                _ => None,
            });
        let steps: Vec<Step> = variable_steps.chain(resolution_steps).collect();
        j.path.splice(0..0, steps);
        let names_differ = names.differences();
        if j.distance == 0 {
            for reason in names_differ.iter().cloned() {
                j.refuse(reason, reference.size(), candidate.size());
            }
        }
        let mut notes = vec![format!("{} states evaluated, {} expanded", j.evaluated, j.expanded)];
        for (side, written) in ["reference", "candidate"].iter().zip(&names.variables) {
            if let Err(why) = written {
                notes.push(format!(
                    "the {side}'s header `variable`s are not written into its statement: {why}"
                ));
            }
        }
        notes.extend(unread);
        notes.extend(header_instances);
        if no_auto_bound {
            notes.push("a header turns `autoImplicit` off: a free name does not elaborate, so no rewrite is tried".into());
        }
        if unparsed {
            notes.push("a span the parser does not read (`by …`, a pattern set-builder) may name any binder: no rewrite is tried".into());
        }
        if patterns {
            notes.push(
                "a name is bound by pattern matching (`fun ⟨a, b⟩`, `match`): no rewrite is tried"
                    .into(),
            );
        }
        // TransTED is the smallest distance over transformation sequences, the empty one
        // included (ASSESS): the statements as written are one of them, so the score is never
        // below their own distance. Canonical forms are forced steps and can move a pair apart.
        let as_written = {
            let costs = CostModel { free_rename: self.config.free_rename };
            let deadline = Instant::now() + self.config.time_limit;
            let d = distance::try_ted(reference, candidate, costs, Some(deadline))
                .map_err(|e| MetricError::Failed(e.to_string()))?;
            let same = rules::alpha_equivalent(reference, candidate)
                && names.alpha_equivalent()
                && names_differ.is_empty();
            if d == 0 && !same {
                // Alike as written, yet not the same: say why where the names are the reason.
                for reason in &names_differ {
                    if !notes.contains(reason) {
                        notes.push(reason.clone());
                    }
                }
                1
            } else {
                d
            }
        };
        if as_written < j.distance {
            notes.push(format!(
                "the statements as written are closer (distance {as_written}) than any rewrite reached ({}): the empty rewrite is kept",
                j.distance
            ));
            j.distance = as_written;
            j.similarity =
                distance::similarity(as_written, reference.size(), candidate.size()).max(0.0);
            j.path.clear();
            j.refused.clear();
            if as_written == 0 {
                j.stop = Stop::Closed;
            }
        }
        // A side Lean rejects is never equivalent to anything (docs/soundness.md).
        if j.distance == 0 {
            let opened = (ill_typed::Opened::of(&scopes.0), ill_typed::Opened::of(&scopes.1));
            // As written too: name resolution may read a notation (`n !`) as its function.
            let outside = ill_typed::unopened_notation(reference, opened.0)
                .or_else(|| ill_typed::unopened_notation(candidate, opened.1))
                .or_else(|| ill_typed::rejected(&resolved.0.tree, opened.0))
                .or_else(|| ill_typed::rejected(&resolved.1.tree, opened.1));
            if let Some(reason) = outside {
                j.refuse(reason, reference.size(), candidate.size());
            }
        }
        match j.stop {
            Stop::Closed if !j.refused.is_empty() => {
                notes.push("the rewrites make the two trees identical, but that does not show the statements equivalent:".into());
                notes.extend(j.refused.iter().cloned());
            }
            Stop::Closed => notes.push("the rewrites make the two statements identical".into()),
            Stop::Exhausted => notes.push("every reachable rewrite was tried".into()),
            Stop::NodeBudget => notes.push(format!(
                "node budget ({}) reached: distance is the smallest seen",
                self.config.max_nodes
            )),
            // Returned as an "out of time" failure above.
            Stop::Deadline => {}
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trees::parse::{parse_statement, Header};
    use crate::trees::Statement;

    fn statement(text: &str) -> Statement {
        parse_statement(text, &Header::default())
            .unwrap_or_else(|e| panic!("test statement does not parse: {e}: {text}"))
    }

    fn judge(a: &str, b: &str) -> MetricReport {
        let (r, c) = (statement(a), statement(b));
        let pair =
            Pair { reference: &r, candidate: &c, reference_header: "", candidate_header: "" };
        TransTedLite::default().judge(&pair).unwrap_or_else(|e| panic!("judge failed: {e}"))
    }

    fn score(r: &MetricReport) -> f64 {
        match r.verdict {
            Verdict::Score(s) => s,
            Verdict::Equivalent(_) => panic!("transted-lite gives a score"),
        }
    }

    #[test]
    fn a_numeral_outside_its_type_is_never_equivalent() {
        // ℕ has no `Neg`, ℤ no `OfScientific`: Lean rejects both statements.
        for text in ["theorem a (x : ℕ) : x ≠ -1", "theorem a (a b : ℕ) : a - (b : ℤ) < 0.5"]
        {
            let r = judge(text, text);
            assert_eq!(r.distance, Some(1), "{text}: {:?}", r.notes);
            assert!(r.notes.iter().any(|n| n.contains("does not elaborate")), "{:?}", r.notes);
        }
        // At a type that has them, they are numerals like any other.
        let r = judge("theorem a (x : ℤ) : x ≠ -1", "theorem a (x : ℤ) : x ≠ -1");
        assert_eq!(r.distance, Some(0));
    }

    #[test]
    fn identical_statements_score_one_with_an_empty_path() {
        let r = judge(
            "theorem a (x : ℝ) (h : 0 < x) : 0 < x ^ 2",
            "theorem b (x : ℝ) (h : 0 < x) : 0 < x ^ 2",
        );
        assert_eq!((r.distance, score(&r)), (Some(0), 1.0));
        assert!(r.path.is_empty(), "{:?}", r.path);
    }

    #[test]
    fn equivalent_forms_reach_distance_zero_with_a_readable_path() {
        let r = judge(
            "theorem a (x : ℝ) (h₀ : x > 1 ∧ x ≠ 3) : x + 1 = 7",
            "theorem b : ∀ x : ℝ, 1 < x → ¬ (x = 3) → 7 = 1 + x",
        );
        assert_eq!(r.distance, Some(0), "{:?}", r.path);
        assert_eq!(score(&r), 1.0);
        let rules: Vec<&str> = r.path.iter().map(|s| s.rule.as_str()).collect();
        for rule in ["gt_iff_lt", "and_imp", "intro", "ne_eq", "eq_comm", "add_comm"] {
            assert!(rules.contains(&rule), "{rule} missing from {rules:?}");
        }
        assert!(r.path.iter().all(|s| s.side == "reference" || s.side == "candidate"));
        let comm = r.path.iter().find(|s| s.rule == "add_comm").expect("add_comm");
        assert!(comm.at == "1 + x" || comm.at == "x + 1", "{}", comm.at);
    }

    #[test]
    fn hypotheses_in_another_order_are_aligned() {
        let r = judge(
            "theorem a (x y : ℝ) (h₀ : x + y = 10) (h₁ : x - y = 2) : x = 6",
            "theorem b (x y : ℝ) (h₁ : x - y = 2) (h₀ : x + y = 10) : x = 6",
        );
        assert_eq!(r.distance, Some(0), "{:?}", r.path);
    }

    #[test]
    fn a_swap_of_bound_names_is_searched_for() {
        for (a, b) in [
            (
                // `∀ a b, P a b` is `∀ a b, P b a`: the binders swap, then rename.
                "theorem a (G : Type*) [Group G] (f : G → ℕ) (a b : G) : f (a * b) = 1",
                "theorem b (G : Type*) [Group G] (f : G → ℕ) (a b : G) : f (b * a) = 1",
            ),
            (
                "theorem a (a b : ℝ) (h : a < b) : a + 2 * b = 0",
                "theorem b (a b : ℝ) (h : a < b) : 2 * b + a = 0",
            ),
            (
                "theorem a (x y : ℝ) (h : x = y) : x + 1 = y + 1",
                "theorem b (x y : ℝ) (h : y = x) : x + 1 = y + 1",
            ),
        ] {
            let r = judge(a, b);
            assert_eq!(r.distance, Some(0), "{a}  vs  {b}: {:?}", r.path);
        }
    }

    #[test]
    fn different_statements_keep_a_positive_distance() {
        for (a, b) in [
            (
                "theorem a (x : ℝ) : x - 1 = 2",
                "theorem b (x : ℝ) : 1 - x = 2",
            ),
            (
                "theorem a (x : ℝ) : x / 2 = 1",
                "theorem b (x : ℝ) : 2 / x = 1",
            ),
            (
                "theorem a (x : ℕ) : x ^ 2 = 4",
                "theorem b (x : ℕ) : 2 ^ x = 4",
            ),
            ("theorem a (x : ℝ) : 1 < x", "theorem b (x : ℝ) : x < 1"),
            (
                "theorem a : ∃ x : ℕ, ∀ y : ℕ, x ≤ y",
                "theorem b : ∀ y : ℕ, ∃ x : ℕ, x ≤ y",
            ),
            (
                "theorem a : (1 : ℝ) / 3 = 1 / 3",
                "theorem b : 1 / 3 = 1 / 3",
            ),
            (
                // Free renaming maps each leaf alone; these are no renaming of each other.
                "theorem a (x y : ℕ) (h : x < y) : x < y",
                "theorem b (x y : ℕ) (h : x < y) : y < x",
            ),
            (
                "theorem a : ∃ x : ℕ, ∀ y : ℕ, x ≤ y",
                "theorem b : ∃ y : ℕ, ∀ x : ℕ, x ≤ y",
            ),
            (
                // Without `h` the two say the same (swap the names of `A` and `B`); with it not.
                "theorem a (A B C : Matrix (Fin 2) (Fin 2) ℝ) (h : A ≠ 0) : Matrix.trace (A * B * C) = 0",
                "theorem b (A B C : Matrix (Fin 2) (Fin 2) ℝ) (h : A ≠ 0) : Matrix.trace (B * A * C) = 0",
            ),
            (
                // `e` is not bound, so free renaming cannot swap it with `a`.
                "theorem a (G : Type*) [Group G] (a : G) : a * e = 1",
                "theorem b (G : Type*) [Group G] (a : G) : e * a = 1",
            ),
        ] {
            let r = judge(a, b);
            assert!(
                r.distance.is_some_and(|d| d > 0),
                "{a}  vs  {b}: {:?}",
                r.path
            );
            assert!(score(&r) < 1.0);
        }
    }

    #[test]
    fn similarity_is_normalised_by_the_original_sizes() {
        let (a, b) = (
            "theorem a (x : ℝ) (h : x > 0 ∧ x < 5) : x = 2",
            "theorem b (x : ℝ) (h : 0 < x) : x = 3",
        );
        let r = judge(a, b);
        let (ra, rb) = (statement(a).tree.size(), statement(b).tree.size());
        assert_eq!((r.reference_size, r.candidate_size), (ra, rb));
        let d = r.distance.expect("a distance");
        assert!(d > 0);
        assert_eq!(score(&r), distance::similarity(d, ra, rb));
    }

    #[test]
    fn the_node_budget_makes_the_result_deterministic() {
        let metric = TransTedLite::new(Config {
            max_nodes: 40,
            time_limit: Duration::from_secs(60),
            both_sides: true,
            free_rename: true,
            reuse: true,
        });
        let r = statement(
            "theorem a (a b c : ℝ) (h₀ : a + b = c) (h₁ : b * c = a) : a * b + c = b + a * c",
        );
        let c = statement(
            "theorem b (x y z : ℝ) (h₁ : z * y = x) (h₀ : y + x = z) : z + x * y = y * x + 2",
        );
        let first = metric.judge_trees(&r.tree, &c.tree);
        for _ in 0..3 {
            let again = metric.judge_trees(&r.tree, &c.tree);
            assert_eq!(again.distance, first.distance);
            assert_eq!(again.path, first.path);
            assert_eq!(again.evaluated, first.evaluated);
        }
        assert_eq!(first.stop, Stop::NodeBudget);
        assert_eq!(first.evaluated, 40);
    }

    /// A wide statement near the metric's size limit: 95 hypotheses `(hᵢ : xᵢ + xᵢ₊₁ ≤ i)` over
    /// typed real variables; the candidate lists them reversed with the operands swapped.
    fn wide_pair() -> (Statement, Statement) {
        let text = |candidate: bool| {
            let vars: Vec<String> = (0..=95).map(|i| format!("(x{i} : ℝ)")).collect();
            let mut hs: Vec<String> = (0..95)
                .map(|i| {
                    let (a, b) = (format!("x{i}"), format!("x{}", i + 1));
                    let (l, r) = if candidate { (b, a) } else { (a, b) };
                    format!("(h{i} : {l} + {r} ≤ {i})")
                })
                .collect();
            if candidate {
                hs.reverse();
            }
            format!("theorem t {} {} : x0 ≤ 1", vars.join(" "), hs.join(" "))
        };
        (statement(&text(false)), statement(&text(true)))
    }

    fn past() -> Clock {
        Clock::until(Some(
            Instant::now().checked_sub(Duration::from_millis(1)).unwrap_or_else(Instant::now),
        ))
    }

    #[test]
    fn canonical_rules_and_move_generation_stop_on_the_clock() {
        let (r, c) = wide_pair();
        assert!(rules::canonicalize_within(&r.tree, past()).is_none());
        let (canon, _) = rules::canonicalize_within(&r.tree, Clock::unlimited()).expect("no limit");
        let (other, _) = rules::canonicalize(&c.tree);
        let comm = Commutativity::of(&canon);
        let carriers = Carriers::of(&r.tree);
        let measured = std::cell::Cell::new(0);
        let mut distance = |_: &Tree, _: &Tree| {
            measured.set(measured.get() + 1);
            1
        };
        let mut out = Vec::new();
        let complete =
            rules::moves_within(&canon, &other, comm, &carriers, &mut distance, past(), &mut out);
        assert!(!complete);
        assert!(out.is_empty(), "{} moves generated past the deadline", out.len());
        assert_eq!(measured.get(), 0, "binder pairs measured past the deadline");
        // Without a deadline the same call lists every move (and aligns binders).
        let all = rules::moves_within(
            &canon,
            &other,
            comm,
            &carriers,
            &mut distance,
            Clock::unlimited(),
            &mut out,
        );
        assert!(all && out.len() > 150, "{}", out.len());
    }

    #[test]
    fn a_search_cut_by_the_clock_is_out_of_time_not_a_score() {
        let (r, c) = wide_pair();
        assert!((850..=1_000).contains(&r.tree.size()), "{}", r.tree.size());
        let metric = TransTedLite::new(Config {
            max_nodes: 1_000_000,
            time_limit: Duration::from_millis(200),
            ..Config::default()
        });
        let pair =
            Pair { reference: &r, candidate: &c, reference_header: "", candidate_header: "" };
        let started = Instant::now();
        let e = metric.judge(&pair).expect_err("no verdict past the deadline");
        let elapsed = started.elapsed();
        assert!(e.to_string().starts_with("out of time"), "{e}");
        // Before the rules read the clock, the first expansion alone ran for seconds here (about
        // 1 s in a release build, many in a debug one); now it stops one rule attempt past the
        // deadline. Generous, for debug builds on a loaded machine.
        assert!(elapsed < Duration::from_secs(3), "took {elapsed:?}");
    }

    #[test]
    fn incremental_distances_equal_the_from_scratch_ones_on_search_states() {
        let r = statement(
            "theorem a (a b c : ℝ) (h₀ : a + b = c) (h₁ : b * c = a) (h₂ : 0 < a * b) : a * b + c = b + a * c",
        );
        let c = statement(
            "theorem b (x y z : ℝ) (h₁ : z * y = x) (h₂ : 0 < y * x) (h₀ : y + x = z) : z + x * y = y * x + 2",
        );
        let (rc, _) = rules::canonicalize(&r.tree);
        let (cc, _) = rules::canonicalize(&c.tree);
        let problem = |reuse: bool| TreePairs {
            comm: [Commutativity::of(&rc), Commutativity::of(&cc)],
            carriers: [Carriers::of(&r.tree), Carriers::of(&c.tree)],
            heuristic: Heuristic::new(CostModel { free_rename: true }, None, reuse),
            both_sides: false,
            clock: Clock::unlimited(),
        };
        let (mut incremental, mut from_scratch) = (problem(true), problem(false));
        // Three levels of successors, as a search makes them (each one rewrite from its
        // parent), every one measured both ways.
        let mut level = vec![(Rc::new(rc.clone()), Rc::new(cc.clone()))];
        let mut checked = 0;
        for _ in 0..3 {
            let mut next = Vec::new();
            for state in &level {
                let mut out = Vec::new();
                incremental.steps(state, &mut out);
                for (_, successor) in out {
                    assert_eq!(
                        incremental.distance(&successor),
                        from_scratch.distance(&successor),
                        "{:?}",
                        successor.1
                    );
                    checked += 1;
                    next.push(successor);
                }
            }
            next.truncate(40);
            level = next;
        }
        assert!(checked > 60, "{checked} states");
        let stats = incremental
            .heuristic
            .reuse
            .as_ref()
            .and_then(|r| r.incremental.as_ref())
            .map(|(_, engine)| engine.stats())
            .expect("an incremental engine");
        assert!(stats.cells < stats.cells_from_scratch / 2, "{stats:?}");
    }

    #[test]
    fn reuse_between_states_changes_no_result() {
        for (a, b) in [
            (
                "theorem a (a b c : ℝ) (h₀ : a + b = c) (h₁ : b * c = a) : a * b + c = b + a * c",
                "theorem b (x y z : ℝ) (h₁ : z * y = x) (h₀ : y + x = z) : z + x * y = y * x + 2",
            ),
            (
                "theorem a (x y : ℝ) (h₀ : x + y = 10) (h₁ : x - y = 2) : x = 6",
                "theorem b (x y : ℝ) (h₁ : x - y = 2) (h₀ : x + y = 10) : x = 6",
            ),
        ] {
            let (r, c) = (statement(a), statement(b));
            let run = |reuse: bool, both_sides: bool| {
                let j = TransTedLite::new(Config {
                    max_nodes: 60,
                    time_limit: Duration::from_secs(60),
                    both_sides,
                    free_rename: true,
                    reuse,
                })
                .judge_trees(&r.tree, &c.tree);
                (j.distance, j.path, j.evaluated, j.expanded, j.stop)
            };
            for both_sides in [false, true] {
                assert_eq!(run(true, both_sides), run(false, both_sides), "{a} / {b}");
            }
        }
    }

    #[test]
    fn unparsable_input_shapes_do_not_panic() {
        let odd = Tree::node("theorem", vec![Tree::node(": _ ", vec![])]);
        let j = TransTedLite::default().judge_trees(&odd, &Tree::leaf("x"));
        assert!(j.similarity <= 1.0);
    }
}
