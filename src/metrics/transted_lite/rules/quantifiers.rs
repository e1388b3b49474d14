//! Canonical rules at a quantifier: the binder forms of `∀`/`∃` (`binder_pred`, `binder_split`,
//! `implicit_binder`, `imp (non-dependent ∀)`: [`quantifier_rule`]) and prenex form
//! ([`prenex`]: `exists_and_left`, `exists_and_right`, `imp_forall_iff`).
//!
//! Owns only these shapes; the quantifier rules that need types are in `typed`.

use super::declare::Ctx;
use super::render::render;
use super::rewrite::Applied;
use super::shapes::{
    binder_kind, binder_name, infix_op, is_leaf, is_prop_shaped, mentions, node2, quant_label,
    quantifier, BinderKind, Quant, AND, EXPLICIT, IMP, PREDICATE_RELATIONS,
};
use crate::trees::Tree;

/// Prenex form, one quantifier over a variable at a time, outwards:
/// `exists_and_left` (`p ∧ ∃ x, q` → `∃ x, p ∧ q`), `exists_and_right` (`(∃ x, p) ∧ q` →
/// `∃ x, p ∧ q`) and `imp_forall_iff` (`p → ∀ x, q` → `∀ x, p → q`), each only when the other
/// operand does not mention `x`. So `∃ a ∈ A, ∃ b ∈ B, …` and `∃ a b, a ∈ A ∧ b ∈ B ∧ …` meet.
/// Only binders of variables move: a `∀ (h : p), q` is an implication, and moving it would
/// reorder hypotheses against statements that write them with `→`.
pub(super) fn prenex(t: &Tree) -> Option<(Applied, Tree)> {
    let [a, b] = t.children.as_slice() else {
        return None;
    };
    let movable = |q: &Tree, want: Quant| -> Option<(Tree, Tree, String)> {
        if quantifier(q) != Some(want) || q.children.len() != 2 {
            return None;
        }
        let binder = &q.children[0];
        let name = binder_name(binder)?;
        let variable = if is_leaf(binder) {
            binder.variable_freecost
        } else {
            binder.label == EXPLICIT
                && binder.children.len() == 2
                && !name.hypothesis_freecost
                && !is_prop_shaped(&binder.children[1])
        };
        variable.then(|| (binder.clone(), q.children[1].clone(), name.label.clone()))
    };
    let (rule, quant, binder, inner) = if t.label == AND {
        if let Some((binder, body, _)) = movable(b, Quant::Exists).filter(|m| !mentions(a, &m.2)) {
            ("exists_and_left", Quant::Exists, binder, node2(AND, a.clone(), body))
        } else if let Some((binder, body, _)) =
            movable(a, Quant::Exists).filter(|m| !mentions(b, &m.2))
        {
            ("exists_and_right", Quant::Exists, binder, node2(AND, body, b.clone()))
        } else {
            return None;
        }
    } else {
        let (binder, body, _) = movable(b, Quant::Forall).filter(|m| !mentions(a, &m.2))?;
        ("imp_forall_iff", Quant::Forall, binder, node2(IMP, a.clone(), body))
    };
    let applied = Applied { rule, at: render(t) };
    Some((applied, node2(quant_label(quant), binder, inner)))
}

/// A quantifier's binder, recognised.
pub(super) enum QBinder<'a> {
    /// `x` or `(x : T)`: one name, with its type when given.
    Plain,
    /// `(x y : T)`, split into one binder per name.
    Several(&'a Tree),
    /// `{x : T}` / `⦃x : T⦄`.
    Implicit(&'a Tree),
    /// `x ∈ s` as one node `" _ ∈ _ "[x, s]`.
    Predicate { name: &'a Tree, relation: String, bound: &'a Tree },
}

pub(super) fn classify_qbinder(b: &Tree) -> Option<QBinder<'_>> {
    if is_leaf(b) {
        return Some(QBinder::Plain);
    }
    match binder_kind(&b.label) {
        Some(BinderKind::Explicit) if b.children.len() == 2 => return Some(QBinder::Plain),
        Some(BinderKind::Implicit | BinderKind::Strict) if b.children.len() == 2 => {
            return Some(QBinder::Implicit(b))
        }
        Some(_) if b.children.len() > 2 => return Some(QBinder::Several(b)),
        Some(_) => return None,
        None => {}
    }
    let op = infix_op(&b.label)?;
    if PREDICATE_RELATIONS.contains(&op) && b.children.len() == 2 && is_leaf(&b.children[0]) {
        return Some(QBinder::Predicate {
            name: &b.children[0],
            relation: b.label.clone(),
            bound: &b.children[1],
        });
    }
    None
}

/// Canonical rules at a `∀`/`∃` node: split multi-binder quantifiers, unfold binder predicates,
/// make binders explicit.
fn quantifier_rule(t: &Tree, q: Quant) -> Option<(&'static str, Tree)> {
    let label = quant_label(q);
    let n = t.children.len();
    let body = &t.children[n - 1];
    // GTED's form of `∀ x ∈ s, p`: children [x, "∈"[s], p].
    if n >= 3 && is_leaf(&t.children[0]) && t.children[1].children.len() == 1 {
        // GTED labels it `"∈"`, our parser `"∈ _ "`.
        let rel = t.children[1].label.trim().trim_end_matches('_').trim();
        if PREDICATE_RELATIONS.contains(&rel) {
            let pred = node2(
                &format!(" _ {rel} _ "),
                t.children[0].clone(),
                t.children[1].children[0].clone(),
            );
            let mut children = vec![pred];
            children.extend_from_slice(&t.children[2..]);
            return Some(("binder_pred", Tree::node(t.label.clone(), children)));
        }
    }
    if n > 2 {
        let inner = Tree::node(label, t.children[1..].to_vec());
        return Some(("binder_split", Tree::node(label, vec![t.children[0].clone(), inner])));
    }
    match classify_qbinder(&t.children[0])? {
        QBinder::Plain => {
            if t.label != label {
                return Some(("binder_split", Tree::node(label, t.children.clone())));
            }
            // `∀ (h : p), q` with `q` not mentioning `h` is the term `p → q` (a non-dependent
            // Π-type; `→` is its notation). Only for a proposition `p`: `∀ (x : ℝ), q` stays.
            // Likewise `∃ (h : p), q` is `p ∧ q` (`exists_prop`, Init/PropLemmas.lean): the
            // form `∃ (n : ℕ) (_ : n > 0), …` that `∃ n > 0, …` abbreviates.
            let b = &t.children[0];
            // A `∀` is a proposition only when its body is (`∀ n, Fin (n + 1)` is a type).
            let proposition = |p: &Tree| {
                is_prop_shaped(p)
                    && (quantifier(p) != Some(Quant::Forall)
                        || p.children.last().is_some_and(is_prop_shaped))
            };
            if binder_kind(&b.label) == Some(BinderKind::Explicit)
                && b.children.len() == 2
                && proposition(&b.children[1])
                && !mentions(body, &b.children[0].label)
            {
                let (rule, connective) = match q {
                    Quant::Forall => ("imp (non-dependent ∀)", IMP),
                    Quant::Exists => ("exists_prop", AND),
                };
                return Some((rule, node2(connective, b.children[1].clone(), body.clone())));
            }
            None
        }
        QBinder::Several(b) => {
            let (names, ty) = b.children.split_at(b.children.len() - 1);
            let mut acc = body.clone();
            for name in names.iter().rev() {
                let binder = Tree::node(b.label.clone(), vec![name.clone(), ty[0].clone()]);
                acc = node2(label, binder, acc);
            }
            Some(("binder_split", acc))
        }
        QBinder::Implicit(b) => Some((
            "implicit_binder",
            node2(label, Tree::node(EXPLICIT, b.children.clone()), body.clone()),
        )),
        QBinder::Predicate { name, relation, bound } => {
            let pred = node2(&relation, name.clone(), bound.clone());
            let connective = if q == Quant::Forall { IMP } else { AND };
            Some(("binder_pred", node2(label, name.clone(), node2(connective, pred, body.clone()))))
        }
    }
}

/// [`quantifier_rule`] at a `∀`/`∃` node.
///
/// `implicit_binder` only where the `∀` is a proposition: in the type of a function the
/// statement applies (`f : ∀ {n : ℕ}, Fin (n + 1) → ℕ`), `{n}` decides what `f`'s explicit
/// arguments are (`f (0 : Fin 3)` fills `n` by unification), so it is not `(n : ℕ)` there.
pub(super) fn quantifier_binders(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (rule, out) = quantifier_rule(t, quantifier(t)?)?;
    if rule == "implicit_binder" && !super::elab::is_prop(t, ctx.carriers) {
        return None;
    }
    Some((rule, out))
}
