//! Membership in a set built with `∩ ∪ \ ᶜ`, or written as a literal `{a, b}`, unfolded to the
//! connectives (`Set.mem_inter_iff`, `Set.mem_insert_iff`, …), for `Set` and `Finset` alike;
//! `⊤` beside a set read as `Set.univ`, and a class of the set's type read as the set's own
//! predicate (`Infinite ↥s` as `s.Infinite`).
//!
//! Owns these procedures; the family table (`sets`) declares them, and `collections` reads a
//! set expression's type. Each fires only where the set's type is known to be
//! `Set T` or `Finset T` (a name bound with that written type, an ascription, or an operation
//! on such of one type), the element is known to be of type `T` (no coercion hides in `∈`), and
//! no binder of the statement gives an instance of a class these notations go through (a local
//! `[Membership α S]` or `[Inter (Set α)]` would make `∈`/`∩` another relation).

use super::carriers::Carriers;
use super::collections::{collection, Kind};
use super::declare::Ctx;
use super::elab::{self, Ty};
use super::shapes::{is_leaf, mentions, node2, AND, EQ, EXPLICIT, FORALL, MEM, NOT};
use crate::trees::Tree;

const OR: &str = " _ ∨ _ ";
const IFF: &str = " _ ↔ _ ";

/// Is `x` known to be of type `ty` as written (no coercion into the set's element type)? A
/// term of numerals only takes the set's type from the membership: accepted only where
/// `numerals` says the unfolded form keeps a membership that fixes it (`1 - 2 ∈ s ∩ t`), not
/// where it becomes an equation elaborated alone (`1 - 2 = 0` is read at ℕ).
fn of_type(x: &Tree, ty: &Tree, c: &Carriers, numerals: bool) -> bool {
    // `-2` has no type of its own (ℕ has no negation); where the type has one, the set's type
    // decides it as it does `2`'s.
    let negated_numeral =
        x.label == "-" && x.children.len() == 1 && elab::type_of(&x.children[0], c) == Ty::Numeral;
    match (elab::type_of(x, c), elab::num_of_type(ty)) {
        (Ty::Num(n), Some(m)) => n == m,
        (Ty::Numeral, Some(_)) => numerals,
        (Ty::Unknown, Some(m)) if negated_numeral => numerals && m != elab::Num::Nat,
        _ => is_leaf(x) && c.name_type(&x.label) == Some(ty),
    }
}

/// The membership `x ∈ s` with `s`'s type and `x` of its element type, where no binder gives
/// an instance of a class the set notations elaborate through, and a `Finset`'s operations
/// exist (`ᶜ` on a `Finset` needs a `Fintype`, which none of the number types has: left alone).
fn membership<'a>(t: &'a Tree, c: &Carriers, numerals: bool) -> Option<(&'a Tree, &'a Tree)> {
    let (MEM, [x, s]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let set = collection(s, c)?;
    let finset = set.kind == Kind::Finset;
    if !set.has_lattice_operations() {
        return None;
    }
    if finset && s.label == "ᶜ" {
        return None;
    }
    (!c.binds_set_class() && of_type(x, &set.element, c, numerals)).then_some((x, s))
}

fn member(x: &Tree, s: &Tree) -> Tree {
    node2(MEM, x.clone(), s.clone())
}

/// `Set.mem_inter_iff` (Mathlib/Data/Set/Basic.lean), `Finset.mem_inter`
/// (Mathlib/Data/Finset/Lattice/Basic.lean): `a ∈ s ∩ t ↔ a ∈ s ∧ a ∈ t`.
pub(super) fn inter(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (x, s) = membership(t, ctx.carriers, true)?;
    let (" _ ∩ _ ", [a, b]) = (s.label.as_str(), s.children.as_slice()) else {
        return None;
    };
    Some(("Set.mem_inter_iff", node2(AND, member(x, a), member(x, b))))
}

/// `Set.mem_union`, `Finset.mem_union`: `a ∈ s ∪ t ↔ a ∈ s ∨ a ∈ t`.
pub(super) fn union(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (x, s) = membership(t, ctx.carriers, true)?;
    let (" _ ∪ _ ", [a, b]) = (s.label.as_str(), s.children.as_slice()) else {
        return None;
    };
    Some(("Set.mem_union", node2(OR, member(x, a), member(x, b))))
}

/// `Set.mem_diff`, `Finset.mem_sdiff`: `a ∈ s \ t ↔ a ∈ s ∧ a ∉ t`.
pub(super) fn diff(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (x, s) = membership(t, ctx.carriers, true)?;
    let (" _ \\ _ ", [a, b]) = (s.label.as_str(), s.children.as_slice()) else {
        return None;
    };
    let outside = Tree::node(NOT, vec![member(x, b)]);
    Some(("Set.mem_diff", node2(AND, member(x, a), outside)))
}

/// `Set.mem_compl_iff`, `Finset.mem_compl`: `a ∈ sᶜ ↔ a ∉ s`.
pub(super) fn compl(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (x, s) = membership(t, ctx.carriers, true)?;
    let ("ᶜ", [a]) = (s.label.as_str(), s.children.as_slice()) else {
        return None;
    };
    Some(("Set.mem_compl_iff", Tree::node(NOT, vec![member(x, a)])))
}

/// An identity of set algebra: a tree of `∩ ∪ \ ᶜ` over names (at least one operation), with
/// no local instance behind the notations.
fn set_algebra(t: &Tree, depth: usize) -> bool {
    if depth > 64 {
        return false;
    }
    match (t.label.as_str(), t.children.as_slice()) {
        (" _ ∩ _ " | " _ ∪ _ " | " _ \\ _ ", [a, b]) => {
            operand(a, depth + 1) && operand(b, depth + 1)
        }
        ("ᶜ", [a]) => operand(a, depth + 1),
        _ => false,
    }
}

fn operand(t: &Tree, depth: usize) -> bool {
    (is_leaf(t) && !t.label.is_empty()) || set_algebra(t, depth)
}

/// `Set.ext_iff` (Mathlib/Data/Set/Defs.lean): `s = t ↔ ∀ x, x ∈ s ↔ x ∈ t`, read pointwise
/// where both sides are read pointwise by their own lemmas ([`pointwise`]) and are sets of one
/// known type `Set T`. A literal `{a, b}` has no type of its own: the equation unifies it with
/// the other side's `Set T` (`Set.instInsert`, `Set.instSingletonSet`: the elements are then
/// elaborated at `T`), which its membership is written with. The point is bound at `T`, so
/// the memberships unfold (`Set.mem_union`, `Set.mem_setOf_eq`, `Set.mem_insert_iff`, …) on
/// both sides alike. Other set equations (`s ∩ t = ∅`, `closure s = s`, `S = {x | p x}` with a
/// name) keep their own lemmas.
pub(super) fn ext(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EQ, [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let c = ctx.carriers;
    if !pointwise(a, c) || !pointwise(b, c) || c.binds_set_class() {
        return None;
    }
    let element = match (collection(a, c), collection(b, c)) {
        (Some(sa), Some(sb)) if sa.kind == Kind::Set && sb == sa => sa.element,
        (Some(known), None) | (None, Some(known)) if known.kind == Kind::Set => known.element,
        _ => return None,
    };
    let set_type = Tree::node("Set _ ", vec![element.clone()]);
    let typed = |s: &Tree| match is_literal(s) {
        true => node2("( _ : _ )", s.clone(), set_type.clone()),
        false => s.clone(),
    };
    let fresh = ["x✝", "y✝", "z✝"].into_iter().find(|n| !mentions(a, n) && !mentions(b, n))?;
    let x = Tree::bound_variable(fresh);
    let body = node2(IFF, member(&x, &typed(a)), member(&x, &typed(b)));
    Some(("Set.ext_iff", node2(FORALL, node2(EXPLICIT, x, element), body)))
}

/// A set expression its membership lemmas read pointwise: set algebra ([`set_algebra`]), a
/// set-builder `{x : T | p}`, a literal `{a, b}`, an interval of known type (`Set.Icc a b`).
/// Not a name, `∅` or `Set.univ`: equations with those have their own lemmas.
fn pointwise(s: &Tree, c: &Carriers) -> bool {
    set_algebra(s, 0)
        || is_literal(s)
        || (s.label == "{ _ | _ }" && collection(s, c).is_some())
        || (s.label.starts_with("Set.I") && super::carriers::interval_element(s, c).is_some())
}

/// `{a, b, …}`: `insert a {b, …}` with no written type.
fn is_literal(s: &Tree) -> bool {
    let n = s.children.len();
    n > 0 && s.label == format!("{{{}}}", vec![" _ "; n].join(","))
}

/// `Set.mem_insert_iff` then `Set.mem_singleton_iff` (and `Finset.mem_insert`,
/// `Finset.mem_singleton`): `a ∈ ({b, c} : Set T) ↔ a = b ∨ a = c`. The literal's elements are
/// elaborated at `T`; each must be a numeral or known to be of type `T`, so that `a = b`,
/// elaborated alone, is read at `T` too.
pub(super) fn literal(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let c = ctx.carriers;
    let (x, s) = membership(t, c, false)?;
    let ("( _ : _ )", [lit, _]) = (s.label.as_str(), s.children.as_slice()) else {
        return None;
    };
    let element = collection(s, c)?.element;
    if !is_literal(lit) || !lit.children.iter().all(|e| of_type(e, &element, c, true)) {
        return None;
    }
    let mut equations = lit.children.iter().rev().map(|e| node2(EQ, x.clone(), e.clone()));
    let last = equations.next()?;
    Some(("Set.mem_insert_iff", equations.fold(last, |rest, eq| node2(OR, eq, rest))))
}

/// `Set.top_eq_univ : (⊤ : Set α) = univ` (Mathlib/Order/SetNotation.lean): `s = ⊤`, `⊤ = s`,
/// `s ≠ ⊤` with `s` a set (of a known `Set T` type) read with `Set.univ`.
pub(super) fn top_as_univ(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ([l, r], true) = (t.children.as_slice(), [EQ, " _ ≠ _ "].contains(&t.label.as_str()))
    else {
        return None;
    };
    let top = |x: &Tree| is_leaf(x) && x.label == "⊤";
    let set = match (top(l), top(r)) {
        (false, true) => l,
        (true, false) => r,
        _ => return None,
    };
    let c = ctx.carriers;
    if c.binds_set_class() || c.binds("Set.univ") || collection(set, c)?.kind != Kind::Set {
        return None;
    }
    let univ = Tree::leaf("Set.univ");
    let sides = if top(l) { vec![univ, r.clone()] } else { vec![l.clone(), univ] };
    Some(("Set.top_eq_univ", Tree::node(t.label.clone(), sides)))
}

/// `Set.infinite_coe_iff : Infinite ↥s ↔ s.Infinite`, `Set.finite_coe_iff : Finite ↥s ↔
/// s.Finite` (Mathlib/Data/Set/Finite/Basic.lean), `Set.countable_coe_iff : Countable ↥s ↔
/// s.Countable` (Mathlib/Data/Set/Countable.lean), for `s` a set of known type (written `↥s` or
/// `s`, which Lean coerces to the same type).
pub(super) fn coe_class(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (class, [arg]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (_, predicate, lemma) = COE_CLASSES.iter().find(|(k, _, _)| *k == class)?;
    let ("↥", [s]) = (arg.label.as_str(), arg.children.as_slice()) else {
        return None;
    };
    coe_class_applies(class, predicate, s, ctx)?;
    Some((lemma, Tree::node(*predicate, vec![s.clone()])))
}

/// [`coe_class`] read backwards (`s.Infinite` as `Infinite ↥s`): the search moves one side
/// towards the other, so both directions are moves.
pub(super) fn coe_class_back(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (predicate, [s]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (class, _, lemma) = COE_CLASSES.iter().find(|(_, p, _)| *p == predicate)?;
    coe_class_applies(class, predicate, s, ctx)?;
    Some((lemma, Tree::node(*class, vec![Tree::node("↥", vec![s.clone()])])))
}

/// The classes of a set's type and the set predicates they are, with the lemma.
const COE_CLASSES: [(&str, &str, &str); 3] = [
    ("Infinite _ ", "Set.Infinite _ ", "Set.infinite_coe_iff"),
    ("Finite _ ", "Set.Finite _ ", "Set.finite_coe_iff"),
    ("Countable _ ", "Set.Countable _ ", "Set.countable_coe_iff"),
];

/// Neither name is the statement's own, no set-notation instance is local, and `s` is a set of
/// known type.
fn coe_class_applies(class: &str, predicate: &str, s: &Tree, ctx: &Ctx) -> Option<()> {
    let c = ctx.carriers;
    let names = [class, predicate].map(|l| l.trim_end_matches(" _ "));
    let bound = names.iter().any(|n| c.binds(n)) || c.binds_set_class();
    (!bound && collection(s, c)?.kind == Kind::Set).then_some(())
}

/// `Infinite s` with `s` a set of known type is `Infinite ↥s`: Lean coerces the set to its
/// type (`Set.Elem`, Mathlib/Data/Set/Defs.lean), the same term written with the arrow.
pub(super) fn coe_written(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (class, [s]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (_, predicate, _) = COE_CLASSES.iter().find(|(k, _, _)| *k == class)?;
    if s.label == "↥" {
        return None;
    }
    coe_class_applies(class, predicate, s, ctx)?;
    Some(("Set.Elem (coercion)", Tree::node(class, vec![Tree::node("↥", vec![s.clone()])])))
}
