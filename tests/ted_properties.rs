//! Properties of the distance engine on random trees: it agrees with the Zhang–Shasha oracle,
//! its mappings are valid edit mappings that cost exactly the distance, and the distance is a
//! metric (identity, symmetry, bounds, triangle inequality).

mod common;

use lean_assess::distance::{
    self, naive, Algorithm, CostModel, EditOp, FlatTree, LabelInterner, Workspace,
};
use lean_assess::trees::Tree;
use proptest::prelude::*;

/// Small trees over a small alphabet, so that equal labels (and free renames) are common.
fn tree() -> impl Strategy<Value = Tree> {
    let leaf = (0..4u8, 0..4u8).prop_map(|(label, flag)| node(label, flag, Vec::new()));
    leaf.prop_recursive(4, 16, 4, |inner| {
        (0..4u8, 0..4u8, prop::collection::vec(inner, 0..4))
            .prop_map(|(label, flag, children)| node(label, flag, children))
    })
}

fn node(label: u8, flag: u8, children: Vec<Tree>) -> Tree {
    let mut t = Tree::node(["a", "b", "c", "d"][label as usize], children);
    // Half the nodes unflagged; the others flagged as variables or hypotheses.
    t.variable_freecost = flag == 1;
    t.hypothesis_freecost = flag == 2;
    t
}

const UNIT: CostModel = CostModel { free_rename: false };
const FREE: CostModel = CostModel { free_rename: true };

/// Preorder intervals, for checking that a mapping is a valid TED mapping.
struct Shape {
    /// `end[i]`: one past the last preorder id in the subtree of `i`.
    end: Vec<usize>,
}

impl Shape {
    fn of(t: &Tree) -> Shape {
        let end = t.preorder().iter().enumerate().map(|(id, n)| id + n.size()).collect();
        Shape { end }
    }
    fn is_ancestor(&self, x: usize, y: usize) -> bool {
        x < y && y < self.end[x]
    }
    fn is_left_of(&self, x: usize, y: usize) -> bool {
        self.end[x] <= y
    }
}

/// Every node appears once, and matched pairs keep ancestry and left-to-right order.
fn assert_valid_mapping(a: &Tree, b: &Tree, ops: &[EditOp]) {
    let (sa, sb) = (Shape::of(a), Shape::of(b));
    let mut seen_a = vec![0; a.size()];
    let mut seen_b = vec![0; b.size()];
    let mut pairs = Vec::new();
    for op in ops {
        match *op {
            EditOp::Keep { a, b } | EditOp::Rename { a, b } => {
                seen_a[a] += 1;
                seen_b[b] += 1;
                pairs.push((a, b));
            }
            EditOp::Delete { a } => seen_a[a] += 1,
            EditOp::Insert { b } => seen_b[b] += 1,
        }
    }
    assert!(seen_a.iter().chain(&seen_b).all(|&n| n == 1), "{ops:?}");
    for &(x1, y1) in &pairs {
        for &(x2, y2) in &pairs {
            assert_eq!(sa.is_ancestor(x1, x2), sb.is_ancestor(y1, y2), "{ops:?}");
            assert_eq!(sa.is_left_of(x1, x2), sb.is_left_of(y1, y2), "{ops:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

    #[test]
    fn engine_equals_zhang_shasha(a in tree(), b in tree()) {
        for costs in [UNIT, FREE] {
            let expected = naive::ted(&a, &b, costs);
            prop_assert_eq!(distance::ted(&a, &b, costs), expected);
            let mapping = distance::ted_mapping(&a, &b, costs);
            prop_assert_eq!(mapping.distance, expected);
            prop_assert_eq!(naive::mapping_cost(&a, &b, &mapping.ops, costs), Some(expected));
            assert_valid_mapping(&a, &b, &mapping.ops);
            // Both algorithms of the engine, distance and mapping, through the flat API.
            let mut interner = LabelInterner::new();
            let (fa, fb) = (FlatTree::new(&a, &mut interner), FlatTree::new(&b, &mut interner));
            let mut w = Workspace::new();
            for algorithm in [Algorithm::Auto, Algorithm::Apted, Algorithm::LeftRight] {
                prop_assert_eq!(w.ted_flat_with(&fa, &fb, costs, algorithm, None), Ok(expected));
                let m = w.mapping_flat_with(&fa, &fb, costs, algorithm);
                prop_assert_eq!(m.distance, expected);
                prop_assert_eq!(naive::mapping_cost(&a, &b, &m.ops, costs), Some(expected));
                assert_valid_mapping(&a, &b, &m.ops);
            }
            let oracle = naive::ted_mapping(&a, &b, costs);
            prop_assert_eq!(oracle.distance, expected);
            prop_assert_eq!(naive::mapping_cost(&a, &b, &oracle.ops, costs), Some(expected));
        }
    }
}

/// Larger and deeper trees over two labels: long inner paths, where APTED's spfA does its work.
fn deep_tree() -> impl Strategy<Value = Tree> {
    let leaf = (0..2u8, 0..4u8).prop_map(|(label, flag)| node(label, flag, Vec::new()));
    leaf.prop_recursive(10, 60, 3, |inner| {
        (0..2u8, 0..4u8, prop::collection::vec(inner, 1..4))
            .prop_map(|(label, flag, children)| node(label, flag, children))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn apted_equals_zhang_shasha_on_larger_deeper_trees(a in deep_tree(), b in deep_tree()) {
        let mut interner = LabelInterner::new();
        let (fa, fb) = (FlatTree::new(&a, &mut interner), FlatTree::new(&b, &mut interner));
        let mut w = Workspace::new();
        for costs in [UNIT, FREE] {
            let expected = naive::ted(&a, &b, costs);
            prop_assert_eq!(w.ted_flat_with(&fa, &fb, costs, Algorithm::Apted, None), Ok(expected));
            let m = w.mapping_flat_with(&fa, &fb, costs, Algorithm::Apted);
            prop_assert_eq!(naive::mapping_cost(&a, &b, &m.ops, costs), Some(expected));
            assert_valid_mapping(&a, &b, &m.ops);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_000, ..ProptestConfig::default() })]

    #[test]
    fn distance_to_itself_is_zero(a in tree()) {
        prop_assert_eq!(distance::ted(&a, &a, UNIT), 0);
        prop_assert_eq!(distance::ted(&a, &a, FREE), 0);
        let mapping = distance::ted_mapping(&a, &a, UNIT);
        let all_kept = mapping.ops.iter().all(|op| matches!(op, EditOp::Keep { .. }));
        prop_assert!(all_kept);
    }

    #[test]
    fn symmetric_and_bounded(a in tree(), b in tree()) {
        let d = distance::ted(&a, &b, UNIT);
        prop_assert_eq!(d, distance::ted(&b, &a, UNIT));
        prop_assert!(d as usize <= a.size() + b.size());
        prop_assert!(d as usize >= a.size().abs_diff(b.size()));
        prop_assert!(distance::ted(&a, &b, FREE) <= d);
    }

    #[test]
    fn triangle_inequality(a in tree(), b in tree(), c in tree()) {
        let mut w = Workspace::new();
        let ab = w.ted(&a, &b, UNIT);
        let bc = w.ted(&b, &c, UNIT);
        let ac = w.ted(&a, &c, UNIT);
        prop_assert!(ac <= ab + bc, "d(a,c)={} > d(a,b)={} + d(b,c)={}", ac, ab, bc);
    }

    #[test]
    fn one_workspace_and_interner_for_many_pairs(trees in prop::collection::vec(tree(), 2..6)) {
        let mut interner = LabelInterner::new();
        let flat: Vec<FlatTree> = trees.iter().map(|t| FlatTree::new(t, &mut interner)).collect();
        let mut w = Workspace::new();
        for (i, a) in trees.iter().enumerate() {
            for (j, b) in trees.iter().enumerate() {
                prop_assert_eq!(w.ted_flat(&flat[i], &flat[j], FREE), naive::ted(a, b, FREE));
            }
        }
    }
}

#[test]
fn trees_from_different_interners_are_refused() {
    let t = Tree::node("a", vec![Tree::leaf("b")]);
    let (mut i1, mut i2) = (LabelInterner::new(), LabelInterner::new());
    let (a, b) = (FlatTree::new(&t, &mut i1), FlatTree::new(&t, &mut i2));
    let err = Workspace::new().ted_flat_within(&a, &b, UNIT, None);
    assert!(matches!(err, Err(distance::DistanceError::ForeignInterner { .. })));
}

#[test]
fn a_past_deadline_stops_a_large_computation() {
    // A comb of 600 nodes against its mirror: ~10^8 table cells, far more than one check interval.
    let comb = |n: usize, mirrored: bool| {
        let mut t = Tree::leaf("x");
        for i in 0..n {
            let mut children = vec![t, Tree::leaf(format!("l{i}"))];
            if mirrored {
                children.reverse();
            }
            t = Tree::node("+", children);
        }
        t
    };
    let (a, b) = (comb(300, false), comb(300, true));
    let mut interner = LabelInterner::new();
    let (fa, fb) = (FlatTree::new(&a, &mut interner), FlatTree::new(&b, &mut interner));
    let past = std::time::Instant::now();
    let mut w = Workspace::new();
    for algorithm in [Algorithm::Auto, Algorithm::Apted, Algorithm::LeftRight] {
        let err = w.ted_flat_with(&fa, &fb, UNIT, algorithm, Some(past));
        assert!(
            matches!(err, Err(distance::DistanceError::DeadlineExceeded { .. })),
            "{algorithm:?}: {err:?}"
        );
    }
    // The workspace is still usable afterwards, and a generous deadline changes nothing.
    let small = (
        FlatTree::new(&comb(5, false), &mut interner),
        FlatTree::new(&comb(5, true), &mut interner),
    );
    let later = std::time::Instant::now() + std::time::Duration::from_secs(60);
    assert_eq!(
        w.ted_flat_within(&small.0, &small.1, UNIT, Some(later)),
        Ok(naive::ted(&comb(5, false), &comb(5, true), UNIT))
    );
}

#[test]
fn deep_trees_do_not_overflow_the_stack() {
    // 100,000 levels: both engines are iterative, and so is the tree type.
    let mut t = Tree::leaf("x");
    for _ in 0..100_000 {
        t = Tree::node("¬ _ ", vec![t]);
    }
    let mut interner = LabelInterner::new();
    let flat = FlatTree::new(&t, &mut interner);
    assert_eq!(flat.size(), 100_001);
    let leaf = FlatTree::new(&Tree::leaf("x"), &mut interner);
    assert_eq!(Workspace::new().ted_flat(&flat, &leaf, UNIT), 100_000);
    assert_eq!(
        Workspace::new().ted_flat_with(&flat, &leaf, UNIT, Algorithm::Apted, None),
        Ok(100_000)
    );
    drop(t);
}

/// A zig-zag tree with side leaves from `labels` in turn.
fn zigzag(n: usize, labels: &[&str]) -> Tree {
    common::zigzag(n, |i| labels[i % labels.len()].to_string())
}

#[test]
fn zigzag_trees_agree_across_algorithms() {
    let a = zigzag(30, &["a", "b", "c"]);
    let b = zigzag(27, &["b", "a"]);
    let mut interner = LabelInterner::new();
    let (fa, fb) = (FlatTree::new(&a, &mut interner), FlatTree::new(&b, &mut interner));
    let expected = naive::ted(&a, &b, UNIT);
    let mut w = Workspace::new();
    for algorithm in [Algorithm::Auto, Algorithm::Apted, Algorithm::LeftRight] {
        assert_eq!(w.ted_flat_with(&fa, &fb, UNIT, algorithm, None), Ok(expected));
        let m = w.mapping_flat_with(&fa, &fb, UNIT, algorithm);
        assert_eq!(naive::mapping_cost(&a, &b, &m.ops, UNIT), Some(expected));
        assert_valid_mapping(&a, &b, &m.ops);
    }
}
