//! Distances on GTED's own trees: exactly the published `ted_unit` (unit costs) and `ted_freecost`
//! (free renaming of flagged variables/hypotheses) for every pair of both tree files, from the
//! engine and from the Zhang–Shasha oracle, and every mapping costs exactly its distance.

mod common;

use common::flatten_pairs;
use lean_assess::distance::{
    self, naive, Algorithm, CostModel, FlatTree, LabelInterner, Workspace,
};
use lean_assess::trees::Tree;
use serde::Deserialize;

#[derive(Deserialize)]
struct TreePair {
    id: String,
    ref_size: usize,
    cand_size: usize,
    ted_unit: u32,
    ted_freecost: u32,
    ref_tree: Tree,
    cand_tree: Tree,
}

fn load(name: &str) -> Vec<TreePair> {
    let path = format!("{}/fixtures/bench/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let pairs: Vec<TreePair> = text
        .lines()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{path}:{}: {e}", i + 1))
        })
        .collect();
    assert!(!pairs.is_empty(), "{path} has no pairs");
    pairs
}

const UNIT: CostModel = CostModel { free_rename: false };
const FREE: CostModel = CostModel { free_rename: true };

fn check_file(name: &str, expected_pairs: usize) {
    let pairs = load(name);
    assert_eq!(pairs.len(), expected_pairs, "{name}");
    let mut workspace = Workspace::new();
    for p in &pairs {
        assert_eq!(p.ref_tree.size(), p.ref_size, "{}: ref size", p.id);
        assert_eq!(p.cand_tree.size(), p.cand_size, "{}: cand size", p.id);
        for (costs, expected) in [(UNIT, p.ted_unit), (FREE, p.ted_freecost)] {
            let got = distance::ted(&p.ref_tree, &p.cand_tree, costs);
            assert_eq!(got, expected, "{}: {costs:?}", p.id);
            assert_eq!(workspace.ted(&p.ref_tree, &p.cand_tree, costs), expected);
            assert_eq!(naive::ted(&p.ref_tree, &p.cand_tree, costs), expected, "{}: naive", p.id);

            let mapping = distance::ted_mapping(&p.ref_tree, &p.cand_tree, costs);
            assert_eq!(mapping.distance, expected, "{}: mapping distance", p.id);
            let cost = naive::mapping_cost(&p.ref_tree, &p.cand_tree, &mapping.ops, costs);
            assert_eq!(cost, Some(expected), "{}: mapping cost {costs:?}", p.id);
            assert_eq!(
                mapping.ops.len(),
                p.ref_size + p.cand_size - count_pairs(&mapping.ops),
                "{}: every node appears once",
                p.id
            );
            // Each algorithm on its own, whichever `Auto` would pick for this pair.
            let mut interner = LabelInterner::new();
            let fa = FlatTree::new(&p.ref_tree, &mut interner);
            let fb = FlatTree::new(&p.cand_tree, &mut interner);
            for algorithm in [Algorithm::Apted, Algorithm::LeftRight] {
                let got = workspace.ted_flat_with(&fa, &fb, costs, algorithm, None);
                assert_eq!(got, Ok(expected), "{}: {algorithm:?} {costs:?}", p.id);
                let m = workspace.mapping_flat_with(&fa, &fb, costs, algorithm);
                let cost = naive::mapping_cost(&p.ref_tree, &p.cand_tree, &m.ops, costs);
                assert_eq!(cost, Some(expected), "{}: {algorithm:?} mapping", p.id);
            }
        }
    }
}

fn count_pairs(ops: &[distance::EditOp]) -> usize {
    ops.iter()
        .filter(|op| matches!(op, distance::EditOp::Keep { .. } | distance::EditOp::Rename { .. }))
        .count()
}

#[test]
fn minif2f_pairs_match_published_distances() {
    check_file("gted-minif2f.trees.jsonl", 205);
}

#[test]
fn proofnet_pairs_match_published_distances() {
    check_file("gted-proofnet.trees.jsonl", 93);
}

#[test]
fn flat_trees_reused_across_calls_give_the_same_distances() {
    let pairs = load("gted-proofnet.trees.jsonl");
    let mut interner = LabelInterner::new();
    let flat = flatten_pairs(pairs.iter().map(|p| (&p.ref_tree, &p.cand_tree)), &mut interner);
    let mut workspace = Workspace::new();
    for _ in 0..2 {
        for (p, (a, b)) in pairs.iter().zip(&flat) {
            assert_eq!(workspace.ted_flat(a, b, UNIT), p.ted_unit, "{}", p.id);
            assert_eq!(workspace.ted_flat(a, b, FREE), p.ted_freecost, "{}", p.id);
        }
    }
    // Reference trees of different pairs compared with each other: still agrees with the oracle.
    for w in flat.windows(2).zip(pairs.windows(2)).take(20) {
        let ((a, b), (pa, pb)) = ((&w.0[0].0, &w.0[1].1), (&w.1[0], &w.1[1]));
        assert_eq!(workspace.ted_flat(a, b, UNIT), naive::ted(&pa.ref_tree, &pb.cand_tree, UNIT));
    }
}
