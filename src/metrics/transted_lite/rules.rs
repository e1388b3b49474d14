//! Rewrite rules of `transted-lite`: sound equivalences of Lean 4 + Mathlib, on operator trees.
//!
//! This module only declares its parts and what the rest of the crate uses of them; every rule
//! and every procedure is in one of the files below, and the search that chooses among the
//! rules is in the parent module. Nothing here computes a distance except through the closure
//! handed to [`moves`] (used only to align binder lists).
//!
//! The rules are declared as data, one table per family, each rule with its Lean lemma, what it
//! does (a pattern and replacement with metavariables `?a`, or a procedure), typed side
//! conditions, direction and examples/non-examples: `notation`, `logic`, `binders`, `order`,
//! `arithmetic`, `sets`, `definitions`, `limits`, `algebra` and `analysis` (listed in
//! `families`). The declaration format is in `declare`, the one matcher that applies the tables
//! in `table`; one test there checks every rule against its examples and non-examples.
//! - **Canonical** ([`canonicalize`], `driver`): applied eagerly, to a fixpoint, to both sides
//!   before the search, always in one direction.
//! - **Moves** ([`moves`], `moves`): equivalences with no preferred direction, tried by the search
//!   on either side.
//!
//! The procedures the tables reference, by concern: `statement` (`autoImplicit`, `R[X]`),
//! `binder_list` (the theorem's binders), `binder_moves` (`binder_reorder`, `forall_swap`),
//! `quantifiers` (binder forms, prenex), `substitution` (`forall_eq`, `zeta`), `norm_num`,
//! `typed` (rules gated by the carrier type), and the `binders_*` helpers. `carriers` and `elab`
//! say what types the statement's names and terms have; `commutativity` gates
//! `add_comm`/`mul_comm`; `alpha` decides alpha-equivalence; `shapes`, `render` and `rewrite`
//! are shared by all. No module imports one that imports it back: the families import only the
//! declaration format and the procedures, never the matcher or the passes that call it.
//!
//! What no rule does: commute `-`, `/`, `^`, `→`, `<`, `≤`, `∣`, `∈`, `⊆`, `•` or function
//! application; swap `∃` with `∀`; drop, add or move a coercion `↑` or a type ascription
//! (`(1 : ℝ) / 3` and `1 / 3 : ℕ` differ); use an order or algebra fact outside the carriers
//! it holds on (`¬ a < b` stays on sets and on `ℝ × ℝ`, `0 ≤ a - b` stays on ℕ, `a * (1 / b)`
//! stays on ℤ).

mod algebra;
mod alpha;
mod analysis;
mod arithmetic;
mod binder_list;
mod binder_moves;
mod binders;
mod binders_apply;
mod binders_beta;
mod binders_casts;
mod binders_elided;
mod carriers;
mod collections;
mod commutativity;
mod declare;
mod definitions;
mod driver;
pub mod elab;
mod families;
mod groups;
mod leaf_casts;
mod limits;
mod limits_binders;
mod logic;
mod moves;
mod norm_num;
mod notation;
mod order;
mod quantifiers;
mod render;
mod result_types;
mod rewrite;
mod set_membership;
mod sets;
mod shapes;
mod statement;
mod substitution;
mod sums;
mod table;
#[cfg(test)]
mod tests;
mod typed;
#[cfg(test)]
mod typed_tests;
mod untyped;

pub use alpha::alpha_equivalent;
pub use carriers::{names_wrapping_type, Carriers};
pub use commutativity::Commutativity;
pub use driver::{canonicalize, canonicalize_within};
pub use moves::{moves, moves_within};
pub use render::{render, render_exact};
pub use rewrite::{Applied, Rewrite};
pub(super) use shapes::COMPARISONS;
pub use shapes::{
    app_head, binder_kind, binder_list_arity, binds_inside, has_pattern_binder, has_unparsed,
    is_binding_node, is_universe as is_universe_type, literal as literal_value,
    mentions as mentions_name, replace_at, ANONYMOUS_HYPOTHESIS,
};
pub use untyped::{order_sensitive_binders, OrderSensitive};

/// The element type of a collection term (`s : Finset ℕ`, `Finset.range n`, `Set.Icc a b`),
/// where elaboration-lite knows it (`collections::collection`).
pub fn element_type(s: &crate::trees::Tree, c: &Carriers) -> Option<crate::trees::Tree> {
    collections::collection(s, c).map(|found| found.element)
}

/// Is `rule` declared as keeping every use's place in deciding a name's type
/// ([`declare::Rule::keeps_decisions`])?
pub fn keeps_decisions(rule: &str) -> bool {
    families::families()
        .iter()
        .flat_map(|(_, rules)| rules.iter())
        .any(|r| r.name == rule && r.keeps_decisions)
}
