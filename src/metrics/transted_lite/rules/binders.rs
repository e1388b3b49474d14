//! Binders family: rules about binder lists, quantifiers and the theorem's hypotheses. These
//! need procedure (binder lists of any length, freeness and capture side conditions,
//! substitution), so they stay code in the parent module; they are registered here with their
//! lemma and examples so that the generic test covers them. Only `prenex` and the quantifier
//! swap run from the table (code at one node).

use super::quantifiers::prenex;
use super::shapes::{binder_name, mentions_outside_name, node2, quantifier, Quant, AND, IMP};
use super::table::*;
use super::typed::Carriers;
use crate::trees::Tree;
use Direction::{Canonical, Move};

pub const RULES: &[Rule] = &[
    code(
        "exists_and_left / exists_and_right / imp_forall_iff",
        "p ∧ ∃ x, q ↔ ∃ x, p ∧ q; p → ∀ x, q ↔ ∀ x, p → q (x not free in p)",
        |t, _| {
            if t.label != AND && t.label != IMP {
                return None;
            }
            prenex(t).map(|(applied, new)| (applied.rule, new))
        },
    )
    .ex(&[
        (
            "(y : ℕ) : y = 1 ∧ ∃ x : ℕ, x < y",
            "(y : ℕ) : ∃ x : ℕ, y = 1 ∧ x < y",
        ),
        (
            "(y : ℕ) : y = 1 → ∀ x : ℕ, x < y",
            "(y : ℕ) : ∀ x : ℕ, y = 1 → x < y",
        ),
    ])
    .non(&["(x : ℕ) : x = 1 ∧ ∃ x : ℕ, x < 2"]),
    moves_code(
        "forall_swap / exists_swap",
        "(∀ x y, p x y) ↔ ∀ y x, p x y (types independent)",
        |t, ctx| quantifier_swap(t, ctx.carriers).into_iter().collect(),
    )
    .ex(&[(": ∀ x : ℕ, ∀ y : ℤ, x = y", ": ∀ y : ℤ, ∀ x : ℕ, x = y")])
    .non(&[
        ": ∀ n : ℕ, ∀ x : Fin n, x = x",
        ": ∀ x : ℕ, ∃ y : ℤ, x = y",
        "(f : ∀ n : ℕ, ∀ m : ℤ, Fin 3) : f = f",
    ]),
    elsewhere(
        "binder_split",
        "∀ x y, p is ∀ x, ∀ y, p; (a b : T) is (a : T) (b : T)",
        Canonical,
    )
    .ex(&[(": ∀ x y : ℕ, x = y", ": ∀ x : ℕ, ∀ y : ℕ, x = y")]),
    elsewhere(
        "implicit_binder",
        "{x : T} and ⦃x : T⦄ are (x : T) (fun x => h)",
        Canonical,
    )
    .ex(&[("{x : ℕ} : x = x", "(x : ℕ) : x = x")]),
    elsewhere(
        "binder_pred",
        "∀ x ∈ s, p is ∀ x, x ∈ s → p; ∃ x > 0, p is ∃ x, x > 0 ∧ p",
        Canonical,
    )
    .ex(&[(
        "(s : Set ℕ) : ∀ x ∈ s, x = 1",
        "(s : Set ℕ) : ∀ x, x ∈ s → x = 1",
    )]),
    elsewhere(
        "intro",
        "a theorem's binders and the leading ∀/→ of its type are one Π-type",
        Canonical,
    )
    .ex(&[(": ∀ x : ℕ, x = x", "(x : ℕ) : x = x")]),
    elsewhere(
        "zeta",
        "let x := v; b is b[v/x] (definitionally)",
        Canonical,
    )
    .ex(&[("(y : ℕ) : let x := y + 1; x = 2", "(y : ℕ) : y + 1 = 2")]),
    elsewhere(
        "autoImplicit",
        "a name used but never bound is bound by Lean: (x : _) in front",
        Canonical,
    )
    .ex(&[(": x + 1 = 2", "(x : _) : x + 1 = 2")])
    .non(&["(x : ℕ) : x + 1 = 2", ": π > 3"]),
    elsewhere(
        "binder type (elaboration)",
        "∀ x : ℝ, f x = c is ∀ x, f x = c for (f : ℝ → ℝ)",
        Canonical,
    )
    .ex(&[(
        "(f : ℝ → ℝ) : ∀ x : ℝ, f x = 0",
        "(f : ℝ → ℝ) : ∀ x, f x = 0",
    )])
    .non(&["(f : ℝ → ℝ) : ∀ x : ℕ, f x = 0"]),
    elsewhere(
        "instance binder (binder info)",
        "[N.Normal], an instance about terms, is (h✝ : N.Normal)",
        Canonical,
    )
    .ex(&[(
        "(G : Type*) [Group G] (N : Subgroup G) [N.Normal] : N = N",
        "(G : Type*) [Group G] (N : Subgroup G) (h : N.Normal) : N = N",
    )]),
    elsewhere(
        "and_self",
        "a hypothesis stated twice counts once",
        Canonical,
    )
    .ex(&[(
        "(p : ℕ) (h : p = 2) (h' : p = 2) : p = p",
        "(p : ℕ) (h : p = 2) : p = p",
    )]),
    elsewhere(
        "forall_eq",
        "(x : T) (h : x = e) : p x ↔ p e (x not in e, h unused); `e` keeps the ascription `(e : T)` where a cast could move into it (ℕ/ℤ `-`, `/`, `%`)",
        Canonical,
    )
    .ex(&[
        ("(x y : ℕ) (h : x = y + 1) : x < 3", "(y : ℕ) : y + 1 < 3"),
        (
            "(x y : ℕ) (h : x = y - 3) : (x : ℝ) ≥ 0",
            "(y : ℕ) : ((y - 3 : ℕ) : ℝ) ≥ 0",
        ),
    ]),
    elsewhere("imp (non-dependent ∀)", "∀ (_ : p), q is p → q", Canonical),
    elsewhere(
        "type variable in front",
        "a type variable binder moves before the binders that do not mention it",
        Canonical,
    ),
    elsewhere(
        "Nat.zero_le",
        "an unused hypothesis (h : 0 ≤ n) on ℕ is dropped",
        Canonical,
    )
    .ex(&[("(n : ℕ) (h : 0 ≤ n) : n = n", "(n : ℕ) : n = n")]),
    elsewhere(
        "binder_reorder",
        "the theorem's binders permuted, none before one it mentions",
        Move,
    ),
    elsewhere(
        "forall_swap",
        "two adjacent independent variable binders of the theorem swap",
        Move,
    )
    .ex(&[("(a : ℕ) (b : ℤ) : a = b", "(b : ℤ) (a : ℕ) : a = b")]),
];

/// `forall_swap`/`exists_swap` on adjacent single-binder quantifiers of one kind whose binder
/// types do not mention each other.
fn quantifier_swap(t: &Tree, carriers: &Carriers) -> Option<(&'static str, Tree)> {
    let q = quantifier(t)?;
    let [a, b] = t.children.as_slice() else {
        return None;
    };
    // `∀` over a type (`∀ n m : ℕ, Fin (n + m)`) is a Π-type: swapping makes another type.
    // Only a proposition's binders swap (`∃` always has a proposition for its body).
    if q == Quant::Forall
        && !b
            .children
            .last()
            .is_some_and(|body| super::elab::is_prop(body, carriers))
    {
        return None;
    }
    if quantifier(b) != Some(q) || b.children.len() != 2 || a == &b.children[0] {
        return None;
    }
    let inner_binder = &b.children[0];
    let independent = match (binder_name(a), binder_name(inner_binder)) {
        (Some(x), Some(y)) => {
            x.label != y.label
                && !mentions_outside_name(inner_binder, &x.label)
                && !mentions_outside_name(a, &y.label)
        }
        _ => false,
    };
    if !independent {
        return None;
    }
    let rule = if q == Quant::Forall {
        "forall_swap"
    } else {
        "exists_swap"
    };
    let new = node2(
        &t.label,
        inner_binder.clone(),
        node2(&b.label, a.clone(), b.children[1].clone()),
    );
    Some((rule, new))
}
