//! Best-first search over transformations, guided by a distance (ASSESS Algorithm 1, Appendix B).
//!
//! Owns the search: [`Frontier`] (the open list and its ordering, duplicate detection, the best
//! node, the counts a budget is checked against and the reconstruction of paths) and
//! [`best_first`], the synchronous loop that drives it within a node budget and a deadline. What
//! a state is, which steps lead out of it and how far it is from "proved" are the caller's,
//! through [`StepProvider`]: `transted-lite` rewrites operator trees with rules (no Lean). The
//! Lean-backed `transted` awaits Lean for every expansion, so it drives a [`Frontier`] from its
//! own async loop (same ordering, one place).
//!
//! Algorithm: a min-heap of evaluated states ordered by `(distance, depth, sequence number)`.
//! The start state is evaluated first; each expansion asks the provider for the successors of
//! the popped state, drops the ones already seen (by `Eq + Hash`), evaluates the others and
//! pushes them. The search stops when a state at distance 0 is found (`Stop::Closed`), the open
//! list is empty (`Stop::Exhausted`), the node budget is spent (`Stop::NodeBudget`) or the
//! deadline passed (`Stop::Deadline`). The answer is the smallest distance evaluated and the
//! steps leading to the first state that had it.
//!
//! Bounds: at most `max_nodes` distance evaluations (the start counts as one), each followed by a
//! heap push, so time is `O(max_nodes · (cost of one evaluation + log max_nodes))` plus the
//! provider's step generation, and space holds `max_nodes` states.
//!
//! Determinism: the order of the heap is total (ties broken by depth, then by the order in which
//! states were evaluated, which follows the order the provider returns steps in), so the same
//! provider gives the same answer every run whenever the node budget (not the clock) stops the
//! search. The deadline is checked before and after every successor generation and before every
//! evaluation (a provider may also read it inside both).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::time::Instant;

/// FNV-1a: the seen-set hashes whole states (trees) on every insert and lookup, and SipHash's
/// DoS resistance buys nothing here (states come from the caller's own rules).
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// The problem being searched: states, the steps out of them, and the distance to the goal.
pub trait StepProvider {
    /// A node of the search (for `transted-lite`, the two current trees).
    type State: Clone + Eq + Hash;
    /// What turned one state into the next (a rule or tactic, with where it applied).
    type Step: Clone;

    /// The successors of `state`, appended to `out` in a deterministic order.
    fn steps(&mut self, state: &Self::State, out: &mut Vec<(Self::Step, Self::State)>);

    /// The heuristic: 0 means the goal is reached (the two sides are identical).
    fn distance(&mut self, state: &Self::State) -> u32;
}

/// Limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Most distance evaluations (states visited), the start state included. At least 1 is used.
    pub max_nodes: usize,
    /// Wall-clock limit; `None` leaves only the node budget (fully deterministic).
    pub deadline: Option<Instant>,
}

/// Receives the best path whenever it improves, so a front end can show progress.
pub trait PathSink<S> {
    /// A state at `distance`, reached by `path` from the start, is the best seen so far.
    fn improved(&mut self, distance: u32, path: &[S]);
}

/// The sink that ignores progress.
impl<S> PathSink<S> for () {
    fn improved(&mut self, _distance: u32, _path: &[S]) {}
}

/// Why the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A state at distance 0 was found.
    Closed,
    /// Every reachable state was visited.
    Exhausted,
    /// `max_nodes` evaluations were spent.
    NodeBudget,
    /// The deadline passed.
    Deadline,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome<S, T> {
    /// The smallest distance among the evaluated states.
    pub distance: u32,
    /// Steps from the start to the first state with that distance.
    pub path: Vec<S>,
    /// That state.
    pub best: T,
    /// Distance evaluations made (states visited).
    pub evaluated: usize,
    /// States whose successors were generated.
    pub expanded: usize,
    pub stop: Stop,
}

/// One visited state: how it was reached (for the path), its depth and what it looked like.
struct Visited<S, T> {
    parent: Option<usize>,
    step: Option<S>,
    depth: u32,
    state: T,
}

/// The bookkeeping of a best-first search, shared by the synchronous [`best_first`] and
/// drivers that must await each expansion (the Lean-backed `transted`): the open list and its
/// ordering, duplicate detection, the best state so far and the counts a budget is checked
/// against. It never calls the problem: the driver evaluates states and decides when to stop.
///
/// Ordering: the open list pops the smallest `(distance, depth, insertion order)`, so ties go to
/// the shallower state, then to the state evaluated first (FIFO). States are deduplicated by
/// `Eq + Hash` on the state itself; the start state counts as seen.
pub struct Frontier<S, T> {
    arena: Vec<Visited<S, T>>,
    seen: HashSet<T, BuildHasherDefault<Fnv>>,
    // (distance, depth, arena index): the arena index is the evaluation order, so ties are FIFO.
    open: BinaryHeap<Reverse<(u32, u32, usize)>>,
    /// (distance, arena index) of the first state with the smallest distance.
    best: (u32, usize),
    expanded: usize,
}

impl<S: Clone, T: Clone + Eq + Hash> Frontier<S, T> {
    /// A frontier holding the evaluated start state (depth 0, open).
    pub fn new(start: T, distance: u32) -> Frontier<S, T> {
        let mut seen = HashSet::default();
        seen.insert(start.clone());
        let mut open = BinaryHeap::new();
        open.push(Reverse((distance, 0, 0)));
        Frontier {
            arena: vec![Visited { parent: None, step: None, depth: 0, state: start }],
            seen,
            open,
            best: (distance, 0),
            expanded: 0,
        }
    }

    /// Whether `state` was already evaluated (a driver skips evaluating it again).
    pub fn contains(&self, state: &T) -> bool {
        self.seen.contains(state)
    }

    /// Record an evaluated successor of node `parent` reached by `step` and open it (even at
    /// distance 0: whether that ends the search is the driver's call — for `transted` a TED of 0
    /// is not a proof). Returns its index and whether it is the new best (strictly smaller
    /// distance than every earlier state), or `None` for a duplicate.
    pub fn push(
        &mut self,
        parent: usize,
        step: S,
        state: T,
        distance: u32,
    ) -> Option<(usize, bool)> {
        if !self.seen.insert(state.clone()) {
            return None;
        }
        let depth = self.arena[parent].depth + 1;
        let index = self.arena.len();
        self.arena.push(Visited { parent: Some(parent), step: Some(step), depth, state });
        self.open.push(Reverse((distance, depth, index)));
        let improved = distance < self.best.0;
        if improved {
            self.best = (distance, index);
        }
        Some((index, improved))
    }

    /// The next node to expand (counted as an expansion), `None` when the open list is empty.
    pub fn pop(&mut self) -> Option<usize> {
        let Reverse((_, _, index)) = self.open.pop()?;
        self.expanded += 1;
        Some(index)
    }

    /// The state of node `index`.
    pub fn state(&self, index: usize) -> &T {
        &self.arena[index].state
    }

    /// The depth of node `index` (steps from the start).
    pub fn depth(&self, index: usize) -> u32 {
        self.arena[index].depth
    }

    /// The steps from the start to node `index`, in order.
    pub fn path_to(&self, index: usize) -> Vec<S> {
        path_to(&self.arena, index)
    }

    /// `(distance, index)` of the first state evaluated with the smallest distance.
    pub fn best(&self) -> (u32, usize) {
        self.best
    }

    /// States evaluated (the start included).
    pub fn evaluated(&self) -> usize {
        self.arena.len()
    }

    /// Nodes popped for expansion.
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// Nodes waiting in the open list.
    pub fn open_len(&self) -> usize {
        self.open.len()
    }

    /// The search's answer: the best state, the path to it and the counts.
    pub fn into_outcome(mut self, stop: Stop) -> Outcome<S, T> {
        let (distance, index) = self.best;
        let path = self.path_to(index);
        let evaluated = self.arena.len();
        let best = self.arena.swap_remove(index).state;
        Outcome { distance, path, best, evaluated, expanded: self.expanded, stop }
    }
}

/// Run the best-first search from `start` within `budget`, reporting improvements to `sink`.
pub fn best_first<P: StepProvider>(
    provider: &mut P,
    start: P::State,
    budget: Budget,
    sink: &mut dyn PathSink<P::Step>,
) -> Outcome<P::Step, P::State> {
    let max_nodes = budget.max_nodes.max(1);
    let h0 = provider.distance(&start);
    let mut frontier = Frontier::new(start, h0);
    sink.improved(h0, &[]);

    let past_deadline = |d: Option<Instant>| d.is_some_and(|d| Instant::now() >= d);
    let stop = if h0 == 0 {
        Stop::Closed
    } else {
        let mut successors = Vec::new();
        'search: loop {
            if frontier.evaluated() >= max_nodes {
                break 'search Stop::NodeBudget;
            }
            if past_deadline(budget.deadline) {
                break 'search Stop::Deadline;
            }
            let Some(index) = frontier.pop() else {
                break 'search Stop::Exhausted;
            };
            successors.clear();
            provider.steps(frontier.state(index), &mut successors);
            // Successor generation may itself have run into the deadline (a provider that reads
            // the clock inside it stops there): measure none of what it returned.
            if past_deadline(budget.deadline) {
                break 'search Stop::Deadline;
            }
            for (step, state) in successors.drain(..) {
                if frontier.contains(&state) {
                    continue;
                }
                if frontier.evaluated() >= max_nodes {
                    break 'search Stop::NodeBudget;
                }
                if past_deadline(budget.deadline) {
                    break 'search Stop::Deadline;
                }
                let h = provider.distance(&state);
                let Some((child, improved)) = frontier.push(index, step, state, h) else {
                    continue;
                };
                if improved {
                    sink.improved(h, &frontier.path_to(child));
                }
                if h == 0 {
                    break 'search Stop::Closed;
                }
            }
        }
    };
    frontier.into_outcome(stop)
}

/// The steps from the start to `index`, in order.
fn path_to<S: Clone, T>(arena: &[Visited<S, T>], mut index: usize) -> Vec<S> {
    let mut steps = Vec::new();
    while let Some(parent) = arena[index].parent {
        if let Some(step) = &arena[index].step {
            steps.push(step.clone());
        }
        index = parent;
    }
    steps.reverse();
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// States are integers; steps add 3 or subtract 2; the goal is a target number.
    struct Walk {
        target: i64,
        evaluations: usize,
    }

    impl StepProvider for Walk {
        type State = i64;
        type Step = &'static str;
        fn steps(&mut self, s: &i64, out: &mut Vec<(&'static str, i64)>) {
            out.push(("+3", s + 3));
            out.push(("-2", s - 2));
        }
        fn distance(&mut self, s: &i64) -> u32 {
            self.evaluations += 1;
            u32::try_from((self.target - s).unsigned_abs()).unwrap_or(u32::MAX)
        }
    }

    fn walk(target: i64) -> Walk {
        Walk { target, evaluations: 0 }
    }

    /// The search from 0 for `target` under a node budget, and the walk after it.
    fn walk_from_0(target: i64, max_nodes: usize) -> (Outcome<&'static str, i64>, Walk) {
        let mut w = walk(target);
        let out = best_first(&mut w, 0, budget(max_nodes), &mut ());
        (out, w)
    }

    fn budget(n: usize) -> Budget {
        Budget { max_nodes: n, deadline: None }
    }

    #[test]
    fn finds_the_goal_and_the_path_that_reaches_it() {
        let (out, _) = walk_from_0(7, 1000);
        assert_eq!(out.stop, Stop::Closed);
        assert_eq!(out.distance, 0);
        assert_eq!(out.best, 7);
        let end: i64 = out.path.iter().map(|s| if *s == "+3" { 3 } else { -2 }).sum();
        assert_eq!(end, 7);
    }

    #[test]
    fn start_at_goal_evaluates_once() {
        let (out, _) = walk_from_0(0, 1000);
        assert_eq!((out.stop, out.distance, out.evaluated), (Stop::Closed, 0, 1));
        assert!(out.path.is_empty());
    }

    #[test]
    fn node_budget_bounds_evaluations_and_keeps_the_best_seen() {
        let (out, w) = walk_from_0(1000, 10);
        assert_eq!(out.stop, Stop::NodeBudget);
        assert_eq!(out.evaluated, 10);
        assert_eq!(w.evaluations, 10);
        // Greedy: the best of 10 evaluations moves +3 each expansion from 0.
        assert!(out.distance < 1000);
        assert_eq!(i64::from(out.distance), 1000 - out.best);
    }

    #[test]
    fn same_answer_every_run_under_a_node_budget() {
        let run = || {
            let mut w = walk(301);
            let o = best_first(&mut w, 5, budget(57), &mut ());
            (o.distance, o.path, o.evaluated, o.expanded)
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn a_past_deadline_stops_before_expanding() {
        let mut w = walk(50);
        let past =
            Instant::now().checked_sub(Duration::from_millis(1)).unwrap_or_else(Instant::now);
        let out = best_first(&mut w, 0, Budget { max_nodes: 1000, deadline: Some(past) }, &mut ());
        assert_eq!(out.stop, Stop::Deadline);
        assert_eq!(out.evaluated, 1);
        assert_eq!(out.distance, 50);
    }

    #[test]
    fn finite_space_is_exhausted_without_revisiting() {
        /// Three states in a cycle, none at distance 0.
        struct Cycle;
        impl StepProvider for Cycle {
            type State = u8;
            type Step = u8;
            fn steps(&mut self, s: &u8, out: &mut Vec<(u8, u8)>) {
                out.push((1, (s + 1) % 3));
            }
            fn distance(&mut self, s: &u8) -> u32 {
                u32::from(*s) + 1
            }
        }
        let out = best_first(&mut Cycle, 2, budget(100), &mut ());
        assert_eq!(out.stop, Stop::Exhausted);
        assert_eq!(out.evaluated, 3);
        assert_eq!((out.distance, out.best, out.path.len()), (1, 0, 1));
    }

    #[test]
    fn sink_sees_each_improvement_in_order() {
        struct Log(Vec<u32>);
        impl PathSink<&'static str> for Log {
            fn improved(&mut self, d: u32, _path: &[&'static str]) {
                self.0.push(d);
            }
        }
        let mut log = Log(Vec::new());
        let mut w = walk(9);
        best_first(&mut w, 0, budget(100), &mut log);
        assert_eq!(log.0.first(), Some(&9));
        assert_eq!(log.0.last(), Some(&0));
        assert!(log.0.windows(2).all(|p| p[1] < p[0]));
    }
    #[test]
    fn frontier_orders_by_distance_then_depth_then_insertion_and_drops_duplicates() {
        let mut f: Frontier<&'static str, &'static str> = Frontier::new("root", 5);
        assert_eq!(f.pop(), Some(0));
        let a = f.push(0, "a", "A", 3).map(|x| x.0);
        let b = f.push(0, "b", "B", 3).map(|x| x.0);
        assert_eq!(f.push(0, "again", "A", 1), None, "a duplicate is dropped");
        assert_eq!(f.push(0, "root", "root", 1), None, "the start counts as seen");
        let (c, improved) = f.push(0, "c", "C", 4).expect("new");
        assert!(!improved);
        // Equal distance and depth: the one inserted first.
        assert_eq!(f.pop(), a);
        let (d, improved) = f.push(1, "d", "D", 2).expect("new");
        assert!(improved);
        assert_eq!(f.depth(d), 2);
        assert_eq!(f.path_to(d), ["a", "d"]);
        assert_eq!(f.pop(), Some(d));
        assert_eq!(f.pop(), b);
        assert_eq!(f.pop(), Some(c));
        assert_eq!(f.pop(), None);
        assert_eq!((f.expanded(), f.evaluated(), f.best()), (5, 5, (2, d)));
        // A state at distance 0 is the best; it is opened like any other.
        let (z, _) = f.push(d, "z", "Z", 0).expect("new");
        assert_eq!((f.open_len(), f.best()), (1, (0, z)));
        let out = f.into_outcome(Stop::Closed);
        assert_eq!((out.distance, out.best, out.path), (0, "Z", vec!["a", "d", "z"]));
    }
}
