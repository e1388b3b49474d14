//! Tree edit distance between operator trees.
//!
//! Owns the cost model (unit costs, optionally GTED's free renaming of flagged nodes), the public
//! entry points and the TED similarity formula. `apted` is the engine used everywhere (flattened
//! trees, interned labels, a reusable [`Workspace`]; APTED, or Zhang–Shasha along left/right
//! paths when that is cheaper — see [`Algorithm`]); `naive` (plain Zhang–Shasha) is the oracle
//! for tests and fuzzing. Knows nothing of Lean or parsing.
//!
//! Which entry point to use:
//! - one pair: [`ted`] / [`ted_mapping`];
//! - many pairs: one [`Workspace`], [`Workspace::ted`];
//! - one tree against many variants (search loops): one [`LabelInterner`], a [`FlatTree`] per
//!   tree, [`Workspace::ted_flat`] (or [`Workspace::ted_flat_within`] with a deadline);
//! - a mapping: [`ted_mapping`], [`Workspace::ted_mapping`], [`Workspace::mapping_flat`];
//! - a chosen algorithm (measurements, cross-checks): [`Workspace::ted_flat_with`];
//! - one fixed tree against many trees that differ from each other in a few subtrees (search
//!   states): [`Incremental`], which reuses the distances of subtrees it has already measured.

pub mod apted;
pub mod incremental;
pub mod naive;
mod zhang_shasha;

pub use apted::{
    Algorithm, DistanceError, FlatTree, LabelInterner, Workspace, AUTO_LEFT_RIGHT_FACTOR,
    MAX_TABLE_CELLS,
};
pub use incremental::{Incremental, IncrementalStats};

use crate::trees::Tree;

/// Edit costs: insert and delete cost 1; a rename costs 0 for equal labels, else 1 — or 0 when
/// `free_rename` is set and both nodes are flagged `variable_freecost` (or both
/// `hypothesis_freecost`), as GTED's published scores do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CostModel {
    pub free_rename: bool,
}

/// One step of an optimal edit script. Node ids are preorder indices ([`Tree::preorder`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EditOp {
    /// `a` maps to `b` with the same label (or a free rename).
    Keep { a: usize, b: usize },
    /// `a` maps to `b` with a different label, at cost 1.
    Rename { a: usize, b: usize },
    /// `a` is deleted from the first tree.
    Delete { a: usize },
    /// `b` is inserted into the second tree.
    Insert { b: usize },
}

/// An optimal edit mapping and its cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    pub distance: u32,
    pub ops: Vec<EditOp>,
}

/// Tree edit distance between `a` and `b` under `costs`. Panics on a pair beyond
/// [`MAX_TABLE_CELLS`]: inputs of unknown size go through [`try_ted`].
pub fn ted(a: &Tree, b: &Tree, costs: CostModel) -> u32 {
    Workspace::new().ted(a, b, costs)
}

/// As [`ted`], refusing a pair beyond [`MAX_TABLE_CELLS`] and giving up at `deadline`.
pub fn try_ted(
    a: &Tree,
    b: &Tree,
    costs: CostModel,
    deadline: Option<std::time::Instant>,
) -> Result<u32, DistanceError> {
    Workspace::new().try_ted(a, b, costs, deadline)
}

/// As [`ted_mapping`], refusing a pair beyond [`MAX_TABLE_CELLS`].
pub fn try_ted_mapping(a: &Tree, b: &Tree, costs: CostModel) -> Result<Mapping, DistanceError> {
    Workspace::new().try_ted_mapping(a, b, costs)
}

/// An optimal edit mapping from `a` to `b`: every node of `a` is kept, renamed or deleted, every
/// node of `b` kept, renamed or inserted, each exactly once, with preorder ids as
/// [`Tree::preorder`] gives them. The ops' cost under `costs` equals `distance`. Panics on a
/// pair beyond [`MAX_TABLE_CELLS`] (see [`try_ted_mapping`]).
pub fn ted_mapping(a: &Tree, b: &Tree, costs: CostModel) -> Mapping {
    Workspace::new().ted_mapping(a, b, costs)
}

/// TED similarity (ASSESS §3.2.2): `1 - d / max(|T1|, |T2|)`. Can be negative.
pub fn similarity(distance: u32, size_a: usize, size_b: usize) -> f64 {
    let max = size_a.max(size_b).max(1) as f64;
    1.0 - f64::from(distance) / max
}
