//! Alpha-equivalence: [`alpha_equivalent`] says whether two trees are one statement up to
//! renaming bound variables, which the search asks before it takes a TED of 0 for a proof.
//!
//! Owns the scope walk over binders; rewrites nothing and computes no distance.

use super::binders_apply;
use super::shapes::{binder_list_arity, binder_name, is_binding_node, is_leaf};
use crate::trees::Tree;

/// Are `a` and `b` the same statement up to renaming bound variables (alpha-equivalence)?
/// Every bound leaf must be bound by the binder at the same position on both sides: `∀ x y,
/// x < y` and `∀ y x, x < y` differ, though GTED's free renaming, which prices each leaf alone,
/// makes them distance 0. Binders are the theorem's binder list and the nodes that bind in
/// their last child (`∀ ∃ ∑ fun {x | …}`); a flagged leaf no recognised binder binds must have
/// one counterpart throughout. Hypothesis names are compared the same way (`intro` names every
/// premise `h✝`; each is its own binder, and none is ever used).
pub fn alpha_equivalent(a: &Tree, b: &Tree) -> bool {
    let mut alpha = Alpha::default();
    if a.label != b.label || a.children.len() != b.children.len() {
        return false;
    }
    // The root (`theorem`) holds the binder list as its only child.
    a.children.iter().zip(&b.children).all(|(x, y)| alpha.walk(x, y, a.children.len() == 1))
}

#[derive(Default)]
struct Alpha<'t> {
    /// Binders in scope, innermost last: the name on each side.
    scope: Vec<(&'t str, &'t str)>,
    /// Names no recognised binder binds: one counterpart each way.
    forward: Vec<(&'t str, &'t str)>,
}

impl<'t> Alpha<'t> {
    fn walk(&mut self, a: &'t Tree, b: &'t Tree, root: bool) -> bool {
        if a.children.len() != b.children.len() {
            return false;
        }
        if is_leaf(a) {
            return self.leaf(a, b);
        }
        if a.variable_freecost != b.variable_freecost {
            // A bound function applied against a constant one (`f x` with `f` bound, `f x`
            // with `f` from the header).
            return false;
        }
        if let (Some(fa), Some(fb)) =
            (binders_apply::flagged_head(a), binders_apply::flagged_head(b))
        {
            // Bound function heads: checked as the bound leaves they are.
            return self.names(fa, fb, (true, false), (true, false))
                && a.children.iter().zip(&b.children).all(|(x, y)| self.walk(x, y, false));
        }
        if a.label != b.label {
            return false;
        }
        let n = a.children.len();
        // The theorem's binder list is the root's only child (an explicit binder has the same
        // label as a one-binder list).
        let scoping = n >= 2
            && ((root && binder_list_arity(&a.label).is_some_and(|k| k + 1 == n))
                || is_binding_node(&a.label));
        if !scoping {
            return a.children.iter().zip(&b.children).all(|(x, y)| self.walk(x, y, false));
        }
        let depth = self.scope.len();
        let mut ok = true;
        for (x, y) in a.children[..n - 1].iter().zip(&b.children[..n - 1]) {
            ok = ok && self.binder(x, y);
        }
        ok = ok && self.walk(&a.children[n - 1], &b.children[n - 1], false);
        self.scope.truncate(depth);
        ok
    }

    /// A binder: its type in the current scope, then its name in scope for what follows.
    fn binder(&mut self, x: &'t Tree, y: &'t Tree) -> bool {
        match (binder_name(x), binder_name(y)) {
            (Some(nx), Some(ny)) if is_leaf(x) && is_leaf(y) => {
                self.scope.push((&nx.label, &ny.label));
                true
            }
            (Some(nx), Some(ny)) if !is_leaf(x) && !is_leaf(y) => {
                if x.label != y.label || x.children.len() != y.children.len() {
                    return false;
                }
                let ok = x.children[1..]
                    .iter()
                    .zip(&y.children[1..])
                    .all(|(p, q)| self.walk(p, q, false));
                self.scope.push((&nx.label, &ny.label));
                ok
            }
            (None, None) => self.walk(x, y, false),
            _ => false,
        }
    }

    fn leaf(&mut self, a: &'t Tree, b: &'t Tree) -> bool {
        self.names(
            &a.label,
            &b.label,
            (a.variable_freecost, a.hypothesis_freecost),
            (b.variable_freecost, b.hypothesis_freecost),
        )
    }

    /// A name on each side (a leaf, or a bound function's head), with its flags
    /// (variable, hypothesis): bound at the same binder, or free with one counterpart.
    fn names(&mut self, la: &'t str, lb: &'t str, fa: (bool, bool), fb: (bool, bool)) -> bool {
        let bound_a = self.scope.iter().rposition(|(x, _)| *x == la);
        let bound_b = self.scope.iter().rposition(|(_, y)| *y == lb);
        match (bound_a, bound_b) {
            (Some(i), Some(j)) => i == j,
            (None, None) if (fa.0 && fb.0) || (fa.1 && fb.1) => {
                let clash = self.forward.iter().any(|&(x, y)| (x == la) != (y == lb));
                if !clash && !self.forward.contains(&(la, lb)) {
                    self.forward.push((la, lb));
                }
                !clash
            }
            (None, None) => la == lb && fa == fb,
            _ => false,
        }
    }
}
