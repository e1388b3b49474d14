//! Applications of bound function variables, with the function as a child.
//!
//! Owns [`expose_bound_head`]: the parser writes `f x` as one node labelled `"f _ "` (GTED's
//! convention: a function name in head position is part of the label). For a function *bound*
//! by the statement (`(f : ℝ → ℝ)`, `∀ g : ℕ → ℕ, …`) that hides the name from free renaming,
//! so `(f : ℝ → ℝ) … f 1` against the same statement with `g` costs a relabel at every use.
//! Written as Lean's `Expr.app` (the head a term like any other), `f x` is `" _  _ "` with the
//! leaf `f` as first child, and that leaf is flagged and renamed like every other occurrence of
//! `f`; [`super::alpha_equivalent`] then checks the renaming is one bijection of bound names.
//! A constant head (`Real.exp x`, `Nat.gcd a b`) stays in the label: renaming it would be a
//! different statement. Must not touch anything but application nodes whose head is bound.

use super::app_head;
use crate::trees::Tree;

/// The label of an application whose head is its first child: one `" _ "` per child.
pub(crate) fn head_child_label(children: usize) -> String {
    " _ ".repeat(children)
}

/// If `t` is `"f _ …"` with `f` among the `bound` variable names, rewrite it in place to
/// `" _  _ …"[f, args…]`. Returns whether it did.
pub(super) fn expose_bound_head(t: &mut Tree, bound: &[String]) -> bool {
    let Some(head) = app_head(t) else {
        return false;
    };
    if !bound.iter().any(|b| b == head) {
        return false;
    }
    let mut leaf = Tree::leaf(head);
    leaf.variable_freecost = true;
    leaf.span = t.span;
    let mut children = Vec::with_capacity(t.children.len() + 1);
    children.push(leaf);
    children.append(&mut t.children);
    t.label = head_child_label(children.len());
    t.children = children;
    true
}

/// The head and arguments of an application whose head is a leaf child (`" _  _ "[f, x]`).
pub(crate) fn head_child_application(t: &Tree) -> Option<(&Tree, &[Tree])> {
    let (head, args) = t.children.split_first()?;
    (!args.is_empty() && head.children.is_empty() && t.label == head_child_label(t.children.len()))
        .then_some((head, args))
}
