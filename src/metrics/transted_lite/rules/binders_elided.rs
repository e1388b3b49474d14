//! Binder types that the use decides, in binders other than `∀`/`∃`.
//!
//! Owns [`elide_decided_type`]: `{x : ℝ | f x > 0}`, `⋃ (n : ℕ), A n`, `∑ (i : ℕ) ∈ s, f i`,
//! `fun (x : ℝ) => f x` are the same terms with the type left out when the first use of the
//! variable decides it anyway (a typed function's argument, an element of a typed set or
//! finset: [`typed::infer_binder_type`]), and [`quantifier_binder_type`], the same at `∀`/`∃`.
//! A written type other than the decided one stays (it would coerce or fail), and so does every
//! type no use decides (numerals and arithmetic alone leave it open). Rewrites only binder types.

use super::carriers::Carriers;
use super::declare::Ctx;
use super::shapes::{is_binding_node, is_leaf, node2, quantifier, EXPLICIT};
use super::typed::{self, Deciders};
use crate::trees::Tree;

/// `t` with the written binder type dropped, or `None`.
fn elide_decided_type(t: &Tree, c: &Carriers) -> Option<Tree> {
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
        [_, body] => typed::infer_binder_type(&x.label, body, c, Deciders::TheoremBinders),
        // `∑ x ∈ s, body`: membership in `s` comes first.
        [_, mem, body] if mem.label == "∈ _ " && mem.children.len() == 1 => {
            let member = node2(" _ ∈ _ ", x.clone(), mem.children[0].clone());
            let scope = Tree::node("·", vec![member, body.clone()]);
            typed::infer_binder_type(&x.label, &scope, c, Deciders::TheoremBinders)
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

/// `binder type (elaboration)` at a binding node other than `∀`/`∃` ([`elide_decided_type`]).
pub(super) fn binder_type_elided(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    elide_decided_type(t, ctx.carriers).map(|new| ("binder type (elaboration)", new))
}

/// `binder type (elaboration)` at `∀`/`∃`: a binder type its use decides anyway is left to
/// elaboration: `∀ x : ℝ, f x = c` is `∀ x, f x = c` when `(f : ℝ → ℝ)`. (Dropping, not adding,
/// the type keeps a type difference counted once, at the binder of `f`, rather than at every
/// quantifier.)
pub(super) fn quantifier_binder_type(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    quantifier(t)?;
    let [b, body] = t.children.as_slice() else {
        return None;
    };
    if b.label != EXPLICIT || b.children.len() != 2 || !is_leaf(&b.children[0]) {
        return None;
    }
    let (x, ty) = (&b.children[0], &b.children[1]);
    let inferred = typed::infer_binder_type(&x.label, body, ctx.carriers, Deciders::TheoremBinders);
    (inferred.as_ref() == Some(ty))
        .then(|| ("binder type (elaboration)", node2(&t.label, x.clone(), body.clone())))
}
