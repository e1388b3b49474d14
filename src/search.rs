//! Best-first search over transformations, guided by a distance (ASSESS Algorithm 1, Appendix B).
//!
//! Owns the search loop only: the open list, duplicate detection, the node budget, the deadline
//! and the reconstruction of the path to the best node. What a state is, which steps lead out of
//! it and how far it is from "proved" are the caller's, through [`StepProvider`]: `transted-lite`
//! rewrites operator trees with rules (no Lean), the Lean-backed `transted` runs tactics.
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
//! search. The deadline is checked before every expansion and every
//! [`DEADLINE_CHECK_INTERVAL`] evaluations.

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
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// How often (in evaluations) the deadline is looked at inside one expansion.
pub const DEADLINE_CHECK_INTERVAL: usize = 32;

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

/// One visited state: how it was reached (for the path) and what it looked like.
struct Visited<S, T> {
    parent: Option<usize>,
    step: Option<S>,
    state: T,
}

/// Run the best-first search from `start` within `budget`, reporting improvements to `sink`.
pub fn best_first<P: StepProvider>(
    provider: &mut P,
    start: P::State,
    budget: Budget,
    sink: &mut dyn PathSink<P::Step>,
) -> Outcome<P::Step, P::State> {
    let max_nodes = budget.max_nodes.max(1);
    let mut arena: Vec<Visited<P::Step, P::State>> = Vec::new();
    let mut seen: HashSet<P::State, BuildHasherDefault<Fnv>> = HashSet::default();
    // (distance, depth, arena index): the arena index is the evaluation order, so ties are FIFO.
    let mut open: BinaryHeap<Reverse<(u32, u32, usize)>> = BinaryHeap::new();

    let h0 = provider.distance(&start);
    seen.insert(start.clone());
    arena.push(Visited {
        parent: None,
        step: None,
        state: start,
    });
    let mut best = (h0, 0usize);
    let mut expanded = 0usize;
    sink.improved(h0, &[]);

    let past_deadline = |d: Option<Instant>| d.is_some_and(|d| Instant::now() >= d);
    let stop = if h0 == 0 {
        Stop::Closed
    } else {
        open.push(Reverse((h0, 0, 0)));
        let mut successors = Vec::new();
        'search: loop {
            if arena.len() >= max_nodes {
                break 'search Stop::NodeBudget;
            }
            if past_deadline(budget.deadline) {
                break 'search Stop::Deadline;
            }
            let Some(Reverse((_, depth, index))) = open.pop() else {
                break 'search Stop::Exhausted;
            };
            expanded += 1;
            successors.clear();
            provider.steps(&arena[index].state, &mut successors);
            for (step, state) in successors.drain(..) {
                if seen.contains(&state) {
                    continue;
                }
                if arena.len() >= max_nodes {
                    break 'search Stop::NodeBudget;
                }
                if arena.len() % DEADLINE_CHECK_INTERVAL == 0 && past_deadline(budget.deadline) {
                    break 'search Stop::Deadline;
                }
                let h = provider.distance(&state);
                seen.insert(state.clone());
                let child = arena.len();
                arena.push(Visited {
                    parent: Some(index),
                    step: Some(step),
                    state,
                });
                if h < best.0 {
                    best = (h, child);
                    sink.improved(h, &path_to(&arena, child));
                }
                if h == 0 {
                    break 'search Stop::Closed;
                }
                open.push(Reverse((h, depth + 1, child)));
            }
        }
    };

    let path = path_to(&arena, best.1);
    let evaluated = arena.len();
    let best_state = arena.swap_remove(best.1).state;
    Outcome {
        distance: best.0,
        path,
        best: best_state,
        evaluated,
        expanded,
        stop,
    }
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

    fn budget(n: usize) -> Budget {
        Budget {
            max_nodes: n,
            deadline: None,
        }
    }

    #[test]
    fn finds_the_goal_and_the_path_that_reaches_it() {
        let mut w = Walk {
            target: 7,
            evaluations: 0,
        };
        let out = best_first(&mut w, 0, budget(1000), &mut ());
        assert_eq!(out.stop, Stop::Closed);
        assert_eq!(out.distance, 0);
        assert_eq!(out.best, 7);
        let end: i64 = out
            .path
            .iter()
            .map(|s| if *s == "+3" { 3 } else { -2 })
            .sum();
        assert_eq!(end, 7);
    }

    #[test]
    fn start_at_goal_evaluates_once() {
        let mut w = Walk {
            target: 0,
            evaluations: 0,
        };
        let out = best_first(&mut w, 0, budget(1000), &mut ());
        assert_eq!(
            (out.stop, out.distance, out.evaluated),
            (Stop::Closed, 0, 1)
        );
        assert!(out.path.is_empty());
    }

    #[test]
    fn node_budget_bounds_evaluations_and_keeps_the_best_seen() {
        let mut w = Walk {
            target: 1000,
            evaluations: 0,
        };
        let out = best_first(&mut w, 0, budget(10), &mut ());
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
            let mut w = Walk {
                target: 301,
                evaluations: 0,
            };
            let o = best_first(&mut w, 5, budget(57), &mut ());
            (o.distance, o.path, o.evaluated, o.expanded)
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn a_past_deadline_stops_before_expanding() {
        let mut w = Walk {
            target: 50,
            evaluations: 0,
        };
        let past = Instant::now()
            .checked_sub(Duration::from_millis(1))
            .unwrap_or_else(Instant::now);
        let out = best_first(
            &mut w,
            0,
            Budget {
                max_nodes: 1000,
                deadline: Some(past),
            },
            &mut (),
        );
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
        let mut w = Walk {
            target: 9,
            evaluations: 0,
        };
        best_first(&mut w, 0, budget(100), &mut log);
        assert_eq!(log.0.first(), Some(&9));
        assert_eq!(log.0.last(), Some(&0));
        assert!(log.0.windows(2).all(|p| p[1] < p[0]));
    }
}
