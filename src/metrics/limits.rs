//! Input limits of the offline metrics: how large a pair each one takes, checked at the metric's
//! entry before any work, so that no input can exhaust memory or the stack, or run for minutes.
//!
//! Why at the entry: trees of any size are safe to hold (`trees::Tree` is iterative throughout)
//! and the TED engine refuses oversized tables itself, but `path` and `transted-lite` walk
//! trees recursively and their cost grows faster than linearly (`path` compares every
//! root-to-leaf path with every other; `transted-lite` rewrites and re-measures whole trees per
//! search state). A pair past a limit gets one clear error naming the side, the measure and the
//! limit (`too large: the candidate has 400006 nodes (limit 1000)`); front ends show it as any
//! other metric failure. The limits sit far above real statements (the bundled datasets' trees
//! have at most 152 nodes, 40 levels) and are measured in `benches/limits.rs` (docs/cli.md, "Limits").
//!
//! Owns the limits and the check; the metrics call it, nothing here judges.

use super::{MetricError, Pair};
use crate::trees::Tree;

/// How large a pair a metric accepts; each bound applies to either tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeLimits {
    /// Most nodes.
    pub max_nodes: usize,
    /// Most levels (a leaf is one level); walks that recurse once per level need this.
    pub max_height: usize,
    /// Most nodes over all root-to-leaf paths counted with repetition (the sum of the leaves'
    /// depths): what path-based comparison costs grow with.
    pub max_path_nodes: u64,
}

/// `path`: its cost grows with the product of the two trees' total path lengths (a 300-term
/// sum against another took 26 s in a debug build before this limit).
pub const PATH: SizeLimits =
    SizeLimits { max_nodes: 10_000, max_height: 256, max_path_nodes: 10_000 };

/// `transted-lite`: every search state re-measures and every rewrite clones whole trees, and
/// its rules recurse once per level. Its deadline holds at any size (the rules read the clock
/// at every node, `transted_lite::clock`); this limit bounds the memory one expansion's
/// successors take and keeps the recursion shallow. 1,000 nodes keeps the 877-node
/// editor case; at that size one search state's TED alone takes a large part of the 500 ms.
pub const TRANSTED_LITE: SizeLimits =
    SizeLimits { max_nodes: 1_000, max_height: 256, max_path_nodes: u64::MAX };

/// The editor features (`features`): differences and views walk statements recursively, and a
/// statement past this is refused once, at parsing, for every lens of its theorem (the proxy
/// runs this work on 2 MiB threads, and a crash there would end the editor's session).
pub const EDITOR: SizeLimits =
    SizeLimits { max_nodes: 10_000, max_height: 256, max_path_nodes: u64::MAX };

/// The measures [`SizeLimits`] bounds, taken in one iterative pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub nodes: usize,
    pub height: usize,
    pub path_nodes: u64,
}

impl Shape {
    pub fn of(tree: &Tree) -> Shape {
        let mut shape = Shape { nodes: 0, height: 0, path_nodes: 0 };
        let mut stack = vec![(tree, 1usize)];
        while let Some((t, depth)) = stack.pop() {
            shape.nodes += 1;
            shape.height = shape.height.max(depth);
            if t.children.is_empty() {
                shape.path_nodes = shape.path_nodes.saturating_add(depth as u64);
            }
            stack.extend(t.children.iter().map(|c| (c, depth + 1)));
        }
        shape
    }
}

/// `Ok` when both trees of `pair` are within `limits`, else the first bound exceeded as a
/// "too large" / "too deep" error.
pub fn check(pair: &Pair<'_>, limits: &SizeLimits) -> Result<(), MetricError> {
    check_tree("reference", &pair.reference.tree, limits).map_err(MetricError::Failed)?;
    check_tree("candidate", &pair.candidate.tree, limits).map_err(MetricError::Failed)
}

/// `Ok` when `tree` is within `limits`, else the first bound exceeded, naming `side`.
pub fn check_tree(side: &str, tree: &Tree, limits: &SizeLimits) -> Result<(), String> {
    let shape = Shape::of(tree);
    if shape.nodes > limits.max_nodes {
        Err(format!("too large: the {side} has {} nodes (limit {})", shape.nodes, limits.max_nodes))
    } else if shape.height > limits.max_height {
        Err(format!(
            "too deep: the {side} is {} levels deep (limit {})",
            shape.height, limits.max_height
        ))
    } else if shape.path_nodes > limits.max_path_nodes {
        Err(format!(
            "too large: the {side}'s root-to-leaf paths have {} nodes in all (limit {})",
            shape.path_nodes, limits.max_path_nodes
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trees::Statement;

    fn chain(n: usize) -> Tree {
        let mut t = Tree::leaf("x");
        for _ in 0..n {
            t = Tree::node(" _ + _ ", vec![t, Tree::leaf("x")]);
        }
        t
    }

    fn statement(tree: Tree) -> Statement {
        Statement::of_tree(tree)
    }

    fn check_pair(a: Tree, b: Tree, limits: &SizeLimits) -> Result<(), String> {
        let (a, b) = (statement(a), statement(b));
        check(
            &Pair { reference: &a, candidate: &b, reference_header: "", candidate_header: "" },
            limits,
        )
        .map_err(|e| e.to_string())
    }

    #[test]
    fn shape_counts_nodes_levels_and_path_nodes() {
        // x + x + x: root, inner +, three leaves at depths 3, 3, 2.
        assert_eq!(Shape::of(&chain(2)), Shape { nodes: 5, height: 3, path_nodes: 8 });
    }

    #[test]
    fn each_bound_is_named_with_its_side_and_limit() {
        let limits = SizeLimits { max_nodes: 20, max_height: 4, max_path_nodes: 9 };
        assert_eq!(check_pair(chain(1), chain(2), &limits), Ok(()));
        assert_eq!(
            check_pair(chain(1), chain(100_000), &limits).unwrap_err(),
            "too large: the candidate has 200001 nodes (limit 20)"
        );
        let wide = Tree::node("f", (0..5).map(|_| chain(1)).collect());
        assert_eq!(
            check_pair(wide, chain(1), &limits).unwrap_err(),
            "too large: the reference's root-to-leaf paths have 30 nodes in all (limit 9)"
        );
        assert_eq!(
            check_pair(chain(4), chain(1), &limits).unwrap_err(),
            "too deep: the reference is 5 levels deep (limit 4)"
        );
    }
}
