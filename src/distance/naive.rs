//! Plain Zhang–Shasha tree edit distance: the oracle that the fast engine is checked against.
//!
//! K. Zhang and D. Shasha, "Simple fast algorithms for the editing distance between trees and
//! related problems", SIAM J. Comput. 18(6), 1989. Time O(|T1| |T2| min(depth, leaves)²), space
//! O(|T1| |T2|).
//!
//! Owns nothing but this textbook algorithm, written as directly as possible from the paper:
//! string labels compared as strings, one left-path decomposition, fresh arrays on every call.
//! It deliberately shares no code with `apted` (no interning, no mirroring, no workspace), so the
//! property tests and the fuzz target compare two independent implementations. Used by tests,
//! fuzzing and `--check`; never on a hot path.

use super::{CostModel, EditOp, Mapping};
use crate::trees::Tree;

/// One node of a tree in left-to-right postorder, with what the recurrence needs.
struct PostorderNode<'t> {
    tree: &'t Tree,
    /// Postorder index of the leftmost leaf of this node's subtree (`l(i)` in the paper).
    leftmost_leaf: usize,
    /// This node's preorder id ([`Tree::preorder`]), for reporting mappings.
    preorder_id: usize,
}

/// Nodes of `tree` in postorder. Iterative, so deep trees cannot overflow the stack.
fn postorder(tree: &Tree) -> Vec<PostorderNode<'_>> {
    let mut out: Vec<PostorderNode<'_>> = Vec::new();
    let mut next_preorder_id = 0usize;
    // (node, its preorder id, index of the next child to visit, postorder index of first child)
    let mut stack: Vec<(&Tree, usize, usize, Option<usize>)> = vec![(tree, 0, 0, None)];
    next_preorder_id += 1;
    while let Some(top) = stack.last_mut() {
        let (node, preorder_id, next_child, first_child_post) = *top;
        if let Some(child) = node.children.get(next_child) {
            top.2 += 1;
            stack.push((child, next_preorder_id, 0, None));
            next_preorder_id += 1;
        } else {
            stack.pop();
            let index = out.len();
            let leftmost_leaf = first_child_post.map_or(index, |c| out[c].leftmost_leaf);
            out.push(PostorderNode { tree: node, leftmost_leaf, preorder_id });
            if let Some(parent) = stack.last_mut() {
                if parent.3.is_none() {
                    parent.3 = Some(index);
                }
            }
        }
    }
    out
}

/// The paper's keyroots: the root and every node with a left sibling, in increasing order.
fn keyroots(nodes: &[PostorderNode<'_>]) -> Vec<usize> {
    let mut seen = vec![false; nodes.len()];
    let mut roots = Vec::new();
    for i in (0..nodes.len()).rev() {
        let l = nodes[i].leftmost_leaf;
        if !seen[l] {
            seen[l] = true;
            roots.push(i);
        }
    }
    roots.reverse();
    roots
}

/// Cost of turning node `a` into node `b` under `costs`.
fn rename_cost(a: &Tree, b: &Tree, costs: CostModel) -> u32 {
    let free = a.label == b.label
        || (costs.free_rename
            && ((a.variable_freecost && b.variable_freecost)
                || (a.hypothesis_freecost && b.hypothesis_freecost)));
    u32::from(!free)
}

/// Forest distances between the subforests `l(i)..=x` and `l(j)..=y`, filled into `fd`
/// (`fd[(x - l(i) + 1) * width + (y - l(j) + 1)]`), using subtree distances in `td`.
/// Stores `td[x][y]` for every pair of nodes on the leftmost paths of `i` and `j`.
fn forest_distance(
    a: &[PostorderNode<'_>],
    b: &[PostorderNode<'_>],
    i: usize,
    j: usize,
    costs: CostModel,
    td: &mut [u32],
    fd: &mut Vec<u32>,
) -> usize {
    let (li, lj) = (a[i].leftmost_leaf, b[j].leftmost_leaf);
    let rows = i - li + 2;
    let width = j - lj + 2;
    fd.clear();
    fd.resize(rows * width, 0);
    for x in 1..rows {
        fd[x * width] = fd[(x - 1) * width] + 1;
    }
    for y in 1..width {
        fd[y] = fd[y - 1] + 1;
    }
    for x in li..=i {
        let fx = x - li + 1;
        for y in lj..=j {
            let fy = y - lj + 1;
            let delete = fd[(fx - 1) * width + fy] + 1;
            let insert = fd[fx * width + fy - 1] + 1;
            if a[x].leftmost_leaf == li && b[y].leftmost_leaf == lj {
                let rename =
                    fd[(fx - 1) * width + fy - 1] + rename_cost(a[x].tree, b[y].tree, costs);
                let d = delete.min(insert).min(rename);
                fd[fx * width + fy] = d;
                td[x * b.len() + y] = d;
            } else {
                let px = a[x].leftmost_leaf - li;
                let py = b[y].leftmost_leaf - lj;
                let subtree = fd[px * width + py] + td[x * b.len() + y];
                fd[fx * width + fy] = delete.min(insert).min(subtree);
            }
        }
    }
    width
}

/// Subtree distances for every node pair (row-major, `td[x * |b| + y]`).
fn subtree_distances(
    a: &[PostorderNode<'_>],
    b: &[PostorderNode<'_>],
    costs: CostModel,
) -> Vec<u32> {
    let mut td = vec![0u32; a.len() * b.len()];
    let mut fd = Vec::new();
    for &i in &keyroots(a) {
        for &j in &keyroots(b) {
            forest_distance(a, b, i, j, costs, &mut td, &mut fd);
        }
    }
    td
}

/// Tree edit distance between `a` and `b` under `costs`.
pub fn ted(a: &Tree, b: &Tree, costs: CostModel) -> u32 {
    let (pa, pb) = (postorder(a), postorder(b));
    let td = subtree_distances(&pa, &pb, costs);
    td[pa.len() * pb.len() - 1]
}

/// An optimal edit mapping between `a` and `b`, recovered by walking back through the forest
/// distance tables (the classic Zhang–Shasha traceback). Its ops' cost equals its distance.
pub fn ted_mapping(a: &Tree, b: &Tree, costs: CostModel) -> Mapping {
    let (pa, pb) = (postorder(a), postorder(b));
    let mut td = subtree_distances(&pa, &pb, costs);
    let mut fd = Vec::new();
    let mut ops = Vec::new();
    let mut pending = vec![(pa.len() - 1, pb.len() - 1)];
    while let Some((i, j)) = pending.pop() {
        let width = forest_distance(&pa, &pb, i, j, costs, &mut td, &mut fd);
        let (li, lj) = (pa[i].leftmost_leaf, pb[j].leftmost_leaf);
        // Positions in `fd` are offsets: row fx stands for node li + fx - 1.
        let (mut fx, mut fy) = (i - li + 1, j - lj + 1);
        while fx > 0 || fy > 0 {
            let here = fd[fx * width + fy];
            if fx > 0 && fd[(fx - 1) * width + fy] + 1 == here {
                ops.push(EditOp::Delete { a: pa[li + fx - 1].preorder_id });
                fx -= 1;
            } else if fy > 0 && fd[fx * width + fy - 1] + 1 == here {
                ops.push(EditOp::Insert { b: pb[lj + fy - 1].preorder_id });
                fy -= 1;
            } else {
                let (x, y) = (li + fx - 1, lj + fy - 1);
                if pa[x].leftmost_leaf == li && pb[y].leftmost_leaf == lj {
                    let (ida, idb) = (pa[x].preorder_id, pb[y].preorder_id);
                    ops.push(if rename_cost(pa[x].tree, pb[y].tree, costs) == 0 {
                        EditOp::Keep { a: ida, b: idb }
                    } else {
                        EditOp::Rename { a: ida, b: idb }
                    });
                    fx -= 1;
                    fy -= 1;
                } else {
                    pending.push((x, y));
                    fx = pa[x].leftmost_leaf - li;
                    fy = pb[y].leftmost_leaf - lj;
                }
            }
        }
    }
    let distance = td[pa.len() * pb.len() - 1];
    Mapping { distance, ops }
}

/// The cost of a mapping's ops under `costs`, recomputed from the trees: what a mapping claims
/// must be what it costs. `None` when an op names a node id that is not in its tree.
pub fn mapping_cost(a: &Tree, b: &Tree, ops: &[EditOp], costs: CostModel) -> Option<u32> {
    let (na, nb) = (a.preorder(), b.preorder());
    let mut total = 0u32;
    for op in ops {
        total += match *op {
            EditOp::Keep { a: x, b: y } | EditOp::Rename { a: x, b: y } => {
                rename_cost(na.get(x)?, nb.get(y)?, costs)
            }
            EditOp::Delete { a: x } => {
                na.get(x)?;
                1
            }
            EditOp::Insert { b: y } => {
                nb.get(y)?;
                1
            }
        };
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(label: &str, children: Vec<Tree>) -> Tree {
        Tree::node(label, children)
    }
    fn l(label: &str) -> Tree {
        Tree::leaf(label)
    }

    #[test]
    fn textbook_distances() {
        // Zhang & Shasha's running example: f(d(a, c(b)), e) vs f(c(d(a, b)), e) has distance 2.
        let a = t("f", vec![t("d", vec![l("a"), t("c", vec![l("b")])]), l("e")]);
        let b = t("f", vec![t("c", vec![t("d", vec![l("a"), l("b")])]), l("e")]);
        let cases = [
            (l("a"), l("a"), 0),
            (l("a"), l("b"), 1),
            (l("a"), t("a", vec![l("b")]), 1),
            (t("+", vec![l("x"), l("y")]), t("+", vec![l("y"), l("x")]), 2),
            (a, b, 2),
        ];
        for (x, y, d) in cases {
            assert_eq!(ted(&x, &y, CostModel::default()), d, "{x:?} vs {y:?}");
            let m = ted_mapping(&x, &y, CostModel::default());
            assert_eq!(m.distance, d);
            assert_eq!(mapping_cost(&x, &y, &m.ops, CostModel::default()), Some(d));
        }
    }

    #[test]
    fn free_rename_only_between_like_flags() {
        let (x, y, h) =
            (Tree::bound_variable("x"), Tree::bound_variable("y"), Tree::hypothesis("h"));
        let free = CostModel { free_rename: true };
        assert_eq!(ted(&x, &y, free), 0);
        assert_eq!(ted(&x, &y, CostModel::default()), 1);
        assert_eq!(ted(&x, &h, free), 1);
    }

    #[test]
    fn mapping_covers_every_node_once() {
        let a = t("∀ _ , _ ", vec![l("x"), t(" _ + _ ", vec![l("x"), l("1")])]);
        let b = t(" _ + _ ", vec![l("1"), t("f", vec![l("x")])]);
        let m = ted_mapping(&a, &b, CostModel::default());
        let mut seen_a = vec![0; a.size()];
        let mut seen_b = vec![0; b.size()];
        for op in &m.ops {
            match *op {
                EditOp::Keep { a, b } | EditOp::Rename { a, b } => {
                    seen_a[a] += 1;
                    seen_b[b] += 1;
                }
                EditOp::Delete { a } => seen_a[a] += 1,
                EditOp::Insert { b } => seen_b[b] += 1,
            }
        }
        assert!(seen_a.iter().chain(&seen_b).all(|&n| n == 1));
        assert_eq!(mapping_cost(&a, &b, &m.ops, CostModel::default()), Some(m.distance));
    }
}
