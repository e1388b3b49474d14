//! Fuzz target: the distance engine (every algorithm, distances and mappings) against the
//! Zhang–Shasha oracle on two trees decoded from the input bytes. Crash inputs belong in
//! `fixtures/` as regression tests.
#![no_main]

use lean_assess::distance::{naive, Algorithm, CostModel, FlatTree, LabelInterner, Workspace};
use lean_assess::trees::Tree;
use libfuzzer_sys::fuzz_target;

/// Largest tree decoded, so one input stays fast against the O(n⁴) oracle.
const MAX_NODES: usize = 48;

/// Decodes a tree from bytes in preorder: each node takes one byte — low 2 bits the label
/// (from 4), next 2 bits the free-rename flag (none / variable / hypothesis), high 4 bits its
/// number of children (capped by what is left).
fn decode(bytes: &mut std::slice::Iter<'_, u8>, budget: &mut usize, depth: usize) -> Tree {
    let b = bytes.next().copied().unwrap_or(0);
    *budget = budget.saturating_sub(1);
    let mut t = Tree::leaf(["a", "b", "c", "d"][usize::from(b & 3)]);
    t.variable_freecost = (b >> 2) & 3 == 1;
    t.hypothesis_freecost = (b >> 2) & 3 == 2;
    let mut arity = usize::from(b >> 4);
    // Deep chains are worth fuzzing too, but keep the recursion of this decoder bounded.
    if depth > 64 {
        arity = 0;
    }
    for _ in 0..arity {
        if *budget == 0 {
            break;
        }
        t.children.push(decode(bytes, budget, depth + 1));
    }
    t
}

fuzz_target!(|data: &[u8]| {
    let (first, second) = data.split_at(data.len() / 2);
    let (mut budget_a, mut budget_b) = (MAX_NODES, MAX_NODES);
    let a = decode(&mut first.iter(), &mut budget_a, 0);
    let b = decode(&mut second.iter(), &mut budget_b, 0);
    let mut interner = LabelInterner::new();
    let (fa, fb) = (FlatTree::new(&a, &mut interner), FlatTree::new(&b, &mut interner));
    let mut workspace = Workspace::new();
    for costs in [CostModel { free_rename: false }, CostModel { free_rename: true }] {
        let expected = naive::ted(&a, &b, costs);
        for algorithm in [Algorithm::Auto, Algorithm::Apted, Algorithm::LeftRight] {
            let got = workspace.ted_flat_with(&fa, &fb, costs, algorithm, None);
            assert_eq!(got, Ok(expected), "{algorithm:?} {costs:?}\n{a:?}\n{b:?}");
            let mapping = workspace.mapping_flat_with(&fa, &fb, costs, algorithm);
            assert_eq!(mapping.distance, expected);
            let cost = naive::mapping_cost(&a, &b, &mapping.ops, costs);
            assert_eq!(cost, Some(expected), "{algorithm:?} mapping {costs:?}\n{a:?}\n{b:?}");
        }
    }
});
