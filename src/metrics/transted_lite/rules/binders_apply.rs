//! Applications of bound function variables: renamable like the variable itself.
//!
//! Owns [`flag_bound_head`]: the parser writes `f x` as one node labelled `"f _ "` (GTED's
//! convention: a function name in head position is part of the label), which would hide a
//! *bound* function (`(f : ℝ → ℝ)`, `∀ g : ℕ → ℕ, …`) from free renaming: `(f : ℝ → ℝ) … f 1`
//! against the same statement with `g` would cost a relabel at every use. The node of an
//! application whose head is a bound variable is flagged `variable_freecost`, so the tree edit
//! distance renames `f _ ` to `g _ ` for free (the label and the tree's shape stay, so sizes and
//! the other rules see the same tree); [`super::alpha_equivalent`] then checks the head like a
//! bound leaf: one bijection of bound names, never a bound name against a constant. A constant
//! head (`Real.exp x`, `Nat.gcd a b`) is not flagged: renaming it is another statement.

use super::shapes::app_head;
use crate::trees::Tree;

/// Flag `t` when it is an application `"f _ …"` whose head `f` is among the `bound` variable
/// names (not hypotheses). Returns whether it did.
pub(super) fn flag_bound_head(t: &mut Tree, bound: &[String]) -> bool {
    let bound_head = app_head(t).is_some_and(|head| bound.iter().any(|b| b == head));
    if bound_head {
        t.variable_freecost = true;
    }
    bound_head
}

/// The head name of a flagged application (`"f _ "` → `f`); `None` for anything else.
pub(super) fn flagged_head(t: &Tree) -> Option<&str> {
    if t.children.is_empty() || !t.variable_freecost {
        return None;
    }
    app_head(t)
}
