//! The moves of the search: [`moves`] lists every rewrite the search may take on one side, the
//! declared moves of the tables at each node, then `binder_reorder` and `forall_swap` on the
//! theorem's binders.
//!
//! Owns the move order (preorder positions, table order at each position, binder moves last)
//! and the deadline checks; the search that chooses among moves is in the parent module.

use super::carriers::Carriers;
use super::commutativity::Commutativity;
use super::declare::Ctx;
use super::render::render;
use super::rewrite::{Applied, Rewrite};
use super::shapes::replace_at;
use super::table;
use crate::metrics::transted_lite::clock::Clock;
use crate::trees::Tree;

// ---------------------------------------------------------------------------------------------
// Moves

/// Every move the search may take on `tree` (one side), given the `other` side (used only to
/// align binder lists) and a distance on small trees. Deterministic order: preorder positions,
/// rules in a fixed order at each position.
pub fn moves(
    tree: &Tree,
    other: &Tree,
    comm: Commutativity,
    carriers: &Carriers,
    distance: &mut dyn FnMut(&Tree, &Tree) -> u32,
    out: &mut Vec<Rewrite>,
) {
    let complete = moves_within(tree, other, comm, carriers, distance, Clock::unlimited(), out);
    debug_assert!(complete, "an unlimited clock never runs out");
}

/// [`moves`], stopping once `clock` has run out: it is read at every node visited, every
/// binder pair `binder_reorder` measures and every binder swap, so the overrun is one node's
/// rule attempts. Returns whether the list is complete (`false`: out of time, `out` holds a
/// prefix of the moves).
pub fn moves_within(
    tree: &Tree,
    other: &Tree,
    comm: Commutativity,
    carriers: &Carriers,
    distance: &mut dyn FnMut(&Tree, &Tree) -> u32,
    clock: Clock,
    out: &mut Vec<Rewrite>,
) -> bool {
    let mut path = Vec::new();
    // Numeral bounds shift only on ℕ/ℤ, judged at each relation.
    moves_in(tree, tree, &mut path, comm, carriers, clock, out);
    if clock.passed() {
        return false;
    }
    table::statement_moves(tree, other, distance, clock, out);
    !clock.passed()
}

fn moves_in(
    root: &Tree,
    t: &Tree,
    path: &mut Vec<usize>,
    comm: Commutativity,
    carriers: &Carriers,
    clock: Clock,
    out: &mut Vec<Rewrite>,
) {
    if clock.passed() {
        return;
    }
    let mut push = |rule: &'static str, new: Tree| {
        out.push(Rewrite {
            applied: Applied { rule, at: render(t) },
            tree: replace_at(root, path, new),
        });
    };
    // The moves are declared as data (`rules/table.rs` and the family tables).
    let numeral_type = super::elab::numeral_context(root, path, carriers);
    let ctx = Ctx { carriers, at: Some((root, path.as_slice(), comm)), numeral_type };
    for (rule, new) in table::moves_at(t, &ctx) {
        push(rule, new);
    }
    for (i, c) in t.children.iter().enumerate() {
        path.push(i);
        moves_in(root, c, path, comm, carriers, clock, out);
        path.pop();
    }
}
