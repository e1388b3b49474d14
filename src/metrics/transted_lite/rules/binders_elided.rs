//! Binder types that the use decides, in binders other than `∀`/`∃`.
//!
//! Owns [`elide_decided_type`]: `{x : ℝ | f x > 0}`, `⋃ (n : ℕ), A n`, `∑ (i : ℕ) ∈ s, f i`,
//! `fun (x : ℝ) => f x` are the same terms with the type left out when the first use of the
//! variable decides it anyway (a typed function's argument, an element of a typed set or
//! finset: [`typed::infer_binder_type`], which the `∀`/`∃` rule in `canonical_at` also asks).
//! A written type other than the decided one stays (it would coerce or fail), and so does every
//! type no use decides (numerals and arithmetic alone leave it open). Must not touch `∀`/`∃`.

use super::shapes::{is_binding_node, is_leaf, node2, quantifier, EXPLICIT};
use super::typed::{self, Carriers};
use crate::trees::Tree;

/// `t` with the written binder type dropped, or `None`.
pub(super) fn elide_decided_type(t: &Tree, c: &Carriers) -> Option<Tree> {
    if quantifier(t).is_some() || !is_binding_node(&t.label) {
        return None;
    }
    let binder = t.children.first()?;
    let (EXPLICIT, [x, ty]) = (binder.label.as_str(), binder.children.as_slice()) else {
        return None;
    };
    if !is_leaf(x) {
        return None;
    }
    let decided = match t.children.as_slice() {
        [_, body] => typed::infer_binder_type(&x.label, body, c),
        // `∑ x ∈ s, body`: membership in `s` comes first.
        [_, mem, body] if mem.label == "∈ _ " && mem.children.len() == 1 => {
            let member = node2(" _ ∈ _ ", x.clone(), mem.children[0].clone());
            let scope = Tree::node("·", vec![member, body.clone()]);
            typed::infer_binder_type(&x.label, &scope, c)
        }
        _ => None,
    }?;
    if &decided != ty {
        return None;
    }
    let mut children = t.children.clone();
    children[0] = x.clone();
    Some(Tree::node(t.label.clone(), children))
}
