//! Binder types that the use decides, in binders other than `∀`/`∃`.
//!
//! Owns [`elide_decided_type`]: `{x : ℝ | f x > 0}`, `⋃ (n : ℕ), A n`, `∑ (i : ℕ) ∈ s, f i`,
//! `fun (x : ℝ) => f x` are the same terms with the type left out when the first use of the
//! variable decides it anyway (a typed function's argument, an element of a typed set or
//! finset: [`typed::infer_binder_type`]), and [`quantifier_binder_type`], the same at `∀`/`∃`.
//! A written type other than the decided one stays (it would coerce or fail), and so does every
//! type no use decides (numerals and arithmetic alone leave it open). Also
//! [`ascription_decides_binder`]: an untyped `∀`/`∃` binder whose first use is an ascription
//! `(y : T)` takes `T` there. Rewrites only binder types and those ascriptions.

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

/// `binder type (ascription)` at `∃ x, x ≠ (k : T) ∧ p` and `∀ x, x ≠ (k : T) → p` (`∃ x ≠ (k :
/// T), p` unfolded; so for `=`, `<`, `≤` and the numeral on the left): `x` has no written type
/// (or `T`) and its first use is this relation, whose operands `binrel%` elaborates together
/// (Lean's `Elab/Extra.lean`): the leaf `x` of unknown type is unified with the maximum type
/// `T`, and the numeral `k` is `(k : T)` either way. So the statement is `∃ x : T, x ≠ k ∧ p`.
/// Only a numeral `k` (a term could carry a coercion of its own), and only a binder with no
/// written type or `T` itself (another written type coerces `x`).
pub(super) fn ascription_to_binder(t: &Tree, _ctx: &Ctx) -> Option<(&'static str, Tree)> {
    use super::shapes::{literal, AND, EQ, EXISTS, FORALL, IMP, LE, LT, NE, UNKNOWN_TYPE};
    let [binder, body] = t.children.as_slice() else {
        return None;
    };
    let connective = match t.label.as_str() {
        EXISTS => AND,
        FORALL => IMP,
        _ => return None,
    };
    let (x, written) = match (binder.label.as_str(), binder.children.as_slice()) {
        (_, []) => (binder, None),
        (EXPLICIT, [x, ty]) if is_leaf(x) && ty.label != UNKNOWN_TYPE => (x, Some(ty)),
        _ => return None,
    };
    let ([relation, rest], true) = (body.children.as_slice(), body.label == connective) else {
        return None;
    };
    let ([a, b], true) =
        (relation.children.as_slice(), [EQ, NE, LT, LE].contains(&relation.label.as_str()))
    else {
        return None;
    };
    let is_x = |e: &Tree| is_leaf(e) && e.label == x.label;
    let (slot, ascribed) = match (is_x(a), is_x(b)) {
        (true, false) => (1, b),
        (false, true) => (0, a),
        _ => return None,
    };
    let ("( _ : _ )", [k, ty]) = (ascribed.label.as_str(), ascribed.children.as_slice()) else {
        return None;
    };
    if literal(k).is_none() || written.is_some_and(|w| w != ty) {
        return None;
    }
    let mut relation = relation.clone();
    relation.children[slot] = k.clone();
    let typed = Tree::node(EXPLICIT, vec![x.clone(), ty.clone()]);
    let body = node2(connective, relation, rest.clone());
    Some(("binder type (ascription)", node2(&t.label, typed, body)))
}

/// `binder type (ascription of its first use)` at `∀`/`∃`: `∀ y, (y : ℝ) ^ 2 + 1 ≥ 1` is
/// `∀ y : ℝ, y ^ 2 + 1 ≥ 1` when the ascription is the first occurrence of `y` in elaboration
/// order ([`first_occurrence_ascribed`]): elaboration unifies the untyped `y` with `T` there,
/// so `y : T` throughout, and every `(y : T)` is `y` already of that type. Only a number type
/// `T`, and only a binder with no written type.
pub(super) fn ascription_decides_binder(t: &Tree, _ctx: &Ctx) -> Option<(&'static str, Tree)> {
    use super::shapes::UNKNOWN_TYPE;
    quantifier(t)?;
    let [b, body] = t.children.as_slice() else {
        return None;
    };
    let x = match (b.label.as_str(), b.children.as_slice()) {
        (_, []) => b,
        (EXPLICIT, [x, ty]) if is_leaf(x) && is_leaf(ty) && ty.label == UNKNOWN_TYPE => x,
        _ => return None,
    };
    // A `y` bound again inside is another variable, whose `(y : T)` may be a cast.
    if super::shapes::binds_inside(body, &x.label) {
        return None;
    }
    let ascribed = first_occurrence_ascribed(body, &x.label)?;
    let ty = ascribed.children[1].clone();
    super::elab::num_of_type(&ty)?;
    let body = super::shapes::replace(body, &ascribed, x);
    let binder = node2(EXPLICIT, x.clone(), ty);
    Some(("binder type (ascription of its first use)", node2(&t.label, binder, body)))
}

/// The ascription `(x : T)` that is the first occurrence of `x` in `t` in the order Lean
/// elaborates the subterms (`shapes::elaboration_order`: left to right, a membership's set
/// first), if it is one and stands under no binder.
pub(super) fn first_occurrence_ascribed(t: &Tree, x: &str) -> Option<Tree> {
    fn walk(t: &Tree, x: &str, depth: usize) -> Option<Option<Tree>> {
        if depth > 200 {
            return Some(None);
        }
        if let ("( _ : _ )", [e, _]) = (t.label.as_str(), t.children.as_slice()) {
            if is_leaf(e) && e.label == x {
                return Some(Some(t.clone()));
            }
        }
        if is_leaf(t) {
            return (t.label == x).then_some(None);
        }
        // `x` applied (`x a`) is an occurrence in the label. Under a binder (`fun z => …`,
        // `{z | …}`, `∀ z, …`) elaboration may be postponed past later uses: not read.
        let binding = is_binding_node(&t.label) || quantifier(t).is_some();
        if super::shapes::app_head(t) == Some(x) || (binding && super::shapes::mentions(t, x)) {
            return Some(None);
        }
        super::shapes::elaboration_order(t).into_iter().find_map(|c| walk(c, x, depth + 1))
    }
    walk(t, x, 0).flatten()
}
