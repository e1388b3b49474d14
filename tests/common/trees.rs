//! Tree builders shared by the distance tests and benches: shapes chosen for what they cost
//! the algorithms, and pairs flattened for the engine. They build inputs; the tests assert.
//! The benches include this file by path, so it uses nothing else of `tests/common`.

use lean_assess::distance::{FlatTree, LabelInterner};
use lean_assess::trees::Tree;

/// A "zig-zag" tree: a spine of `levels` nodes whose heavy child alternates sides (`f` with the
/// spine on the left, `g` with it on the right) over a leaf `x`, the side leaf of level `i`
/// labelled `side_label(i)`. Bad for left and right paths alike (the shape behind Zhang–Shasha's
/// and RTED's worst cases), so `Auto` runs APTED's inner-path strategy on it.
pub fn zigzag(levels: usize, side_label: impl Fn(usize) -> String) -> Tree {
    let mut t = Tree::leaf("x");
    for i in 0..levels {
        let side = Tree::leaf(side_label(i));
        t = if i % 2 == 0 {
            Tree::node("f", vec![t, side])
        } else {
            Tree::node("g", vec![side, t])
        };
    }
    t
}

/// Each (reference, candidate) pair flattened, all labels in one interner.
pub fn flatten_pairs<'a>(
    pairs: impl IntoIterator<Item = (&'a Tree, &'a Tree)>,
    interner: &mut LabelInterner,
) -> Vec<(FlatTree, FlatTree)> {
    pairs
        .into_iter()
        .map(|(r, c)| (FlatTree::new(r, interner), FlatTree::new(c, interner)))
        .collect()
}
