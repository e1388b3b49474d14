//! Binder types of the ε–N and ε–δ forms that elaboration gives anyway: `∀ ε : ℝ, ε > 0 → …`,
//! `∀ ε > (0 : ℝ), …` and `∃ δ : ℝ, δ > 0 ∧ …` are the untyped forms the limits unfoldings write
//! (`limits.rs`) when the first use of `ε` after `0 < ε` is `|e| < ε` (or `≤`) with `|e|` of
//! that type by itself, or `‖e‖ < ε` (a norm is real).
//!
//! Why only these shapes: `0 < ε` alone decides nothing (`binrel%` with numerals and a name of
//! unknown type only unifies; numerals default to ℕ only at the end), so the type comes from the
//! next use, and a comparison with `|e|` makes `ε` the type of `|e|` (`binrel%` unifies the
//! leaf `ε` with the maximum type of its operands). `|e|`'s type is read here by itself, as
//! `binop%` elaborates `e`: the largest known type of its leaves on ℕ ℤ ℚ ℝ, names of no written
//! type unified with it (so only where that maximum is ℝ, the top of the ladder `|·|` lives on:
//! a name decided earlier could not raise it without leaving the lattice-ordered groups), and
//! not numerals alone. A written type other than that one stays (`∀ ε : ℚ`, `∀ ε : ℕ`: ε is
//! coerced, another statement), and so does any type when `ε` is used otherwise first.
//!
//! Declared as data (`declare`) for the matcher (`table`); the binder at a quantifier
//! ([`positive_bound_type`]) and in the theorem's binder list after `intro`
//! ([`positive_hypothesis_type`]).

use super::carriers::Carriers;
use super::declare::*;
use super::elab::{self, Num, Ty};
use super::shapes::{
    auto_bound_binder, binder_name, is_binding_node, is_leaf, literal, mentions_head, node2,
    quantifier, rebuild_list, AND, EXISTS, EXPLICIT, FORALL, IMP, LE, LT, UNKNOWN_TYPE,
};
use super::typed::{infer_binder_type, Deciders};
use crate::trees::Tree;
use Action::{Binding, List};

const NAME: &str = "binder type (elaboration)";

#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    canonical(NAME, "∀ ε : T, 0 < ε → p and ∃ δ : T, 0 < δ ∧ p are ∀ ε, 0 < ε → p and ∃ δ, 0 < δ ∧ p when p's first use of ε is |e| < ε (or ≤) with |e| of type T by itself, or ‖e‖ < ε with T = ℝ (binrel% unifies ε with it; `0 < ε` only unifies); `(0 : T) < ε` is `0 < ε` then too", Binding(positive_bound_type))
        .ex(&[
            ("(f : ℝ → ℝ) (c : ℝ) : ∃ δ : ℝ, 0 < δ ∧ ∀ x : ℝ, |x - c| < δ → |f x - f c| < 1", "(f : ℝ → ℝ) (c : ℝ) : ∃ δ, 0 < δ ∧ ∀ x : ℝ, |x - c| < δ → |f x - f c| < 1"),
            ("(u : ℕ → ℝ) (h : ∀ ε : ℝ, 0 < ε → ∃ N, ∀ n, N ≤ n → |u n| < ε) : u 0 = 0", "(u : ℕ → ℝ) (h : ∀ ε, 0 < ε → ∃ N, ∀ n, N ≤ n → |u n| < ε) : u 0 = 0"),
            ("(u : ℕ → ℝ) (h : ∀ ε, (0 : ℝ) < ε → ∃ N, ∀ n, N ≤ n → |u n| < ε) : u 0 = 0", "(u : ℕ → ℝ) (h : ∀ ε, 0 < ε → ∃ N, ∀ n, N ≤ n → |u n| < ε) : u 0 = 0"),
            ("(u : ℕ → ℂ) (h : ∀ ε : ℝ, 0 < ε → ∃ N, ∀ n, N ≤ n → ‖u n‖ < ε) : u 0 = 0", "(u : ℕ → ℂ) (h : ∀ ε, 0 < ε → ∃ N, ∀ n, N ≤ n → ‖u n‖ < ε) : u 0 = 0"),
            ("{X : Type*} [MetricSpace X] (K : Set X) : ∃ δ : ℝ, 0 < δ ∧ ∀ p q : X, p ∈ K → δ ≤ dist p q", "{X : Type*} [MetricSpace X] (K : Set X) : ∃ δ, 0 < δ ∧ ∀ p q : X, p ∈ K → δ ≤ dist p q"),
        ])
        .non(&[
            // Another written type: ε is rational and `|u n| < ε` casts it.
            "(u : ℕ → ℝ) (h : ∀ ε : ℚ, 0 < ε → ∃ N, ∀ n, N ≤ n → |u n| < ε) : u 0 = 0",
            "(u : ℕ → ℝ) (h : ∀ ε : ℕ, 0 < ε → ∃ N, ∀ n, N ≤ n → |u n| < ε) : u 0 = 0",
            // A natural point: the ascription `(0 : ℝ)` is what makes ε real, and `|x - k|` would be natural.
            "(k : ℕ) : ∀ ε, (0 : ℝ) < ε → ∃ x, |x - k| < ε",
            // ε used first elsewhere: `f ε` decides its type before `|u n| < ε`.
            "(u : ℕ → ℝ) (f : ℚ → ℝ) (h : ∀ ε : ℚ, 0 < ε → f ε < 1 ∧ |u 0| < ε) : u 0 = 0",
            // Nothing types `|x|` by itself (x has no written type): the untyped form would be ℕ.
            ": ∃ δ : ℝ, 0 < δ ∧ ∀ x, |x| < δ → x < 1",
            // A rational difference: ε would be rational.
            "(q : ℚ) (h : ∀ ε : ℝ, 0 < ε → |q - 1| < ε) : q = 1",
            // Numerals alone.
            ": ∀ ε : ℝ, 0 < ε → |2 - 3| < ε",
            // Not after `0 < ε`.
            "(u : ℕ → ℝ) (h : ∀ ε : ℝ, ∃ N, ∀ n, N ≤ n → |u n| < ε) : u 0 = 0",
            // A rational δ is cast to compare with a distance; `nndist` is `ℝ≥0`; a bound name `dist` is no distance.
            "{X : Type*} [MetricSpace X] : ∃ δ : ℚ, 0 < δ ∧ ∀ p q : X, δ ≤ dist p q",
            "{X : Type*} [MetricSpace X] : ∃ δ : ℝ, 0 < δ ∧ ∀ p q : X, δ ≤ nndist p q",
            "(dist : ℕ → ℕ → ℕ) : ∃ δ : ℝ, 0 < δ ∧ ∀ p q : ℕ, δ ≤ dist p q",
            // δ on both sides decides nothing.
            ": ∃ δ : ℝ, 0 < δ ∧ δ ≤ δ",
        ]),
    canonical(NAME, "(ε : T) (h : 0 < ε) : p is (ε : _) (h : 0 < ε) : p, as at ∀ (the binders `intro` made of ∀ ε > 0), and (h : (0 : T) < ε) is (h : 0 < ε) where ε's written type or p's first use gives T", List(positive_hypothesis_type))
        .ex(&[
            ("(u : ℕ → ℝ) (a : ℝ) (ε : ℝ) (h : 0 < ε) : ∃ N, ∀ n, N ≤ n → |u n - a| < ε", "(u : ℕ → ℝ) (a : ℝ) (ε : _) (h : 0 < ε) : ∃ N, ∀ n, N ≤ n → |u n - a| < ε"),
            ("(u : ℕ → ℝ) (a : ℝ) (ε : _) (h : (0 : ℝ) < ε) : ∃ N, ∀ n, N ≤ n → |u n - a| < ε", "(u : ℕ → ℝ) (a : ℝ) (ε : _) (h : 0 < ε) : ∃ N, ∀ n, N ≤ n → |u n - a| < ε"),
            ("(ε : ℚ) (h : (0 : ℚ) < ε) : ε ≠ 0", "(ε : ℚ) (h : 0 < ε) : ε ≠ 0"),
        ])
        .non(&[
            "(u : ℕ → ℝ) (a : ℝ) (ε : ℚ) (h : 0 < ε) : ∃ N, ∀ n, N ≤ n → |u n - a| < ε",
            "(u : ℕ → ℕ) (a : ℕ) (ε : ℕ) (h : 0 < ε) : ∃ N, ∀ n, N ≤ n → |u n - a| < ε",
            // Another ascription than the written type: `(0 : ℝ) < ε` casts a rational ε.
            "(ε : ℚ) (h : (0 : ℝ) < ε) : ε ≠ 0",
            // No use decides ε: the ascription is what makes it real.
            "(ε : _) (h : (0 : ℝ) < ε) : ε ≠ 0",
        ]),
    canonical(NAME, "∃ N : T, ∀ m, ∀ n, N ≤ m → N ≤ n → p is ∃ N, ∀ m, ∀ n, N ≤ m → N ≤ n → p when p's first uses of m and of n both decide T (N ≤ m and N ≤ n only unify the three types; p does not name N): the threshold of Metric.cauchySeq_iff's two indices", Binding(two_index_threshold_type))
        .ex(&[
            ("(u : ℕ → ℝ) : ∃ N : ℕ, ∀ m, ∀ n, N ≤ m → N ≤ n → |u m - u n| < 1", "(u : ℕ → ℝ) : ∃ N, ∀ m, ∀ n, N ≤ m → N ≤ n → |u m - u n| < 1"),
        ])
        .non(&[
            // `N : ℝ` makes the indices real first (`u m` is then ill-typed or cast).
            "(u : ℕ → ℝ) : ∃ N : ℝ, ∀ m, ∀ n, N ≤ m → N ≤ n → |u m - u n| < 1",
            // Nothing but N types the indices.
            ": ∃ N : ℕ, ∀ m, ∀ n, N ≤ m → N ≤ n → m + n ≠ 1",
            // p names N: its use could come first.
            "(u : ℕ → ℝ) (f : ℝ → ℝ) : ∃ N : ℕ, ∀ m, ∀ n, N ≤ m → N ≤ n → f N < u m - u n",
            // One index typed by p, the other by nothing.
            "(u : ℕ → ℝ) : ∃ N : ℕ, ∀ m, ∀ n, N ≤ m → N ≤ n → |u m| < 1",
        ]),
];

/// The type `p`'s first use of `x` gives it, in the shapes above: `|e| < x` or `|e| ≤ x` with
/// `|e|` of a type of its own ([`abs_type`]), or `‖e‖ < x` (ℝ). `None` for anything else, or
/// when a binder inside `p` binds `x` again.
fn decided_by_first_use(x: &str, p: &Tree, c: &Carriers) -> Option<Num> {
    if rebinds(p, x) {
        return None;
    }
    let parent = first_use(p, x)?;
    let ([a, b], true) = (parent.children.as_slice(), [LT, LE].contains(&parent.label.as_str()))
    else {
        return None;
    };
    // `x` on either side: `binrel%` unifies the leaf `x` with the other operand's type alike
    // (`δ ≤ dist p q` is `dist p q ≥ δ` turned around).
    let is_x = |t: &Tree| is_leaf(t) && t.label == x;
    let other = match (is_x(a), is_x(b)) {
        (false, true) => a,
        (true, false) => b,
        _ => return None,
    };
    if mentions_head(other, x) {
        return None;
    }
    match (other.label.as_str(), other.children.as_slice()) {
        ("‖ _ ‖", [_]) => Some(Num::Real),
        // `Dist.dist : α → α → ℝ` (Mathlib/Topology/MetricSpace/Pseudo/Defs.lean), whatever α.
        (_, [_, _]) if super::shapes::app_head(other) == Some("dist") && !c.binds("dist") => {
            Some(Num::Real)
        }
        ("| _ |", [e]) => {
            // A name of no written type is unified with the maximum only if nothing typed it
            // before: it is bound inside `p` and first used here.
            let first_here = |y: &str| {
                rebinds(p, y) && first_use_in_body(p, y).is_some_and(|u| within(parent, u))
            };
            abs_type(e, c, &first_here)
        }
        _ => None,
    }
}

/// The node holding the first use of `y` in `t`, left to right, not counting the binder that
/// binds it (`∀ y, …` names `y` before any use).
fn first_use_in_body<'t>(t: &'t Tree, y: &str) -> Option<&'t Tree> {
    let n = t.children.len();
    for (i, ch) in t.children.iter().enumerate() {
        let binder = is_binding_node(&t.label) && i + 1 < n;
        if binder && binder_name(ch).is_some_and(|b| b.label == y) {
            if let Some(u) = ch.children.iter().skip(1).find_map(|ty| first_use_in_body(ty, y)) {
                return Some(u);
            }
            continue;
        }
        if is_leaf(ch) && ch.label == y {
            return Some(t);
        }
        if mentions_head(ch, y) {
            return if ch.label.starts_with(&format!("{y} ")) {
                Some(t)
            } else {
                first_use_in_body(ch, y)
            };
        }
    }
    None
}

/// Is `node` (by address) inside `tree`?
fn within(tree: &Tree, node: &Tree) -> bool {
    std::ptr::eq(tree, node) || tree.children.iter().any(|ch| within(ch, node))
}

/// The node whose child is the first occurrence of `x` (left to right, as a leaf or a head).
fn first_use<'t>(t: &'t Tree, x: &str) -> Option<&'t Tree> {
    for ch in &t.children {
        if is_leaf(ch) && ch.label == x {
            return Some(t);
        }
        if mentions_head(ch, x) {
            return if ch.label.starts_with(&format!("{x} ")) { Some(t) } else { first_use(ch, x) };
        }
    }
    None
}

/// Does a binding node inside `t` bind `x`?
fn rebinds(t: &Tree, x: &str) -> bool {
    let n = t.children.len();
    let here = is_binding_node(&t.label)
        && n >= 2
        && t.children[..n - 1].iter().any(|b| binder_name(b).is_some_and(|b| b.label == x));
    here || t.children.iter().any(|ch| rebinds(ch, x))
}

/// A leaf's place on the ladder `binop%` climbs, or a name of no written type (unified with the
/// maximum).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Leaf {
    Numeral,
    Free,
    Known(u8),
}

/// [`elab::rank`] on ℕ ℤ ℚ ℝ, the ordered ones `abs` reads here.
fn rank(n: Num) -> Option<u8> {
    (n != Num::Complex).then(|| elab::rank(n))
}

const LADDER: [Num; 4] = [Num::Nat, Num::Int, Num::Rat, Num::Real];

/// The type of `|e|` by itself: `e`'s arithmetic (`+ - * /`, unary `-`, a base under a numeral
/// exponent) over leaves of known types on ℕ ℤ ℚ ℝ (numerals, names with a written type,
/// typed functions applied), numerals and names of no written type; the maximum known type,
/// which must be ℤ ℚ or ℝ (`abs` needs an `AddGroup`), and ℝ when some name has no written
/// type. Such a name must be first used here (`first_here`): an earlier use may have given it a
/// type above ℝ (`Hyperreal`, with its coercion from ℝ), and then `|a - x|` is not real.
fn abs_type(e: &Tree, c: &Carriers, first_here: &dyn Fn(&str) -> bool) -> Option<Num> {
    let mut leaves = Vec::new();
    arithmetic_leaves(e, c, &mut leaves, 0, first_here)?;
    let top =
        leaves.iter().filter_map(|l| if let Leaf::Known(r) = l { Some(*r) } else { None }).max()?;
    let free = leaves.contains(&Leaf::Free);
    let n = LADDER[usize::from(top)];
    ((n == Num::Real || !free) && n != Num::Nat).then_some(n)
}

fn arithmetic_leaves(
    t: &Tree,
    c: &Carriers,
    out: &mut Vec<Leaf>,
    depth: usize,
    first_here: &dyn Fn(&str) -> bool,
) -> Option<()> {
    if depth > 64 || t.unparsed {
        return None;
    }
    match (t.label.as_str(), t.children.as_slice()) {
        (" _ + _ " | " _ - _ " | " _ * _ " | " _ / _ ", [a, b]) => {
            arithmetic_leaves(a, c, out, depth + 1, first_here)?;
            arithmetic_leaves(b, c, out, depth + 1, first_here)
        }
        ("-", [a]) => arithmetic_leaves(a, c, out, depth + 1, first_here),
        (" _ ^ _ ", [base, exponent]) if literal(exponent).is_some() => {
            arithmetic_leaves(base, c, out, depth + 1, first_here)
        }
        _ => {
            let leaf = match elab::type_of(t, c) {
                Ty::Numeral => Leaf::Numeral,
                Ty::Num(n) => Leaf::Known(rank(n)?),
                Ty::Unknown if untyped_name(t, c) && first_here(&t.label) => Leaf::Free,
                Ty::Unknown => return None,
            };
            out.push(leaf);
            Some(())
        }
    }
}

/// A name some binder binds with no written type, and none with one (a name bound twice with
/// two written types is not "untyped": its type here is not known).
fn untyped_name(t: &Tree, c: &Carriers) -> bool {
    is_leaf(t)
        && c.binds(&t.label)
        && c.name_type(&t.label).is_none()
        && !c.binder_types.iter().any(|(n, _)| *n == t.label)
}

/// `0 < x` with the numeral `0` alone (`Some(None)`) or ascribed `(0 : T)` (`Some(Some(T))`).
fn positivity<'t>(h: &'t Tree, x: &str) -> Option<Option<&'t Tree>> {
    let (LT, [zero, y]) = (h.label.as_str(), h.children.as_slice()) else {
        return None;
    };
    if !is_leaf(y) || y.label != x {
        return None;
    }
    match (zero.label.as_str(), zero.children.as_slice()) {
        (_, []) if literal(zero) == Some(0) => Some(None),
        ("( _ : _ )", [z, ty]) if literal(z) == Some(0) => Some(Some(ty)),
        _ => None,
    }
}

/// `0 < x` for `(0 : T) < x`.
fn plain_positivity(x: &Tree) -> Tree {
    node2(LT, Tree::leaf("0"), x.clone())
}

/// What to do with a binder `x` (written type `written`, if any) whose positivity `0 < x`
/// (ascribed `ascribed`, if) comes first and whose scope after it is `rest`: `Some(true)` drop
/// the ascription, `Some(false)` drop the written type.
fn elide(
    x: &str,
    written: Option<&Tree>,
    ascribed: Option<&Tree>,
    rest: &Tree,
    c: &Carriers,
) -> Option<bool> {
    match (written, ascribed) {
        // `(0 : T) < x` with `x : T` written: the ascription adds nothing.
        (Some(w), Some(a)) => (w == a && elab::num_of_type(w).is_some()).then_some(true),
        (None, Some(a)) => {
            let n = elab::num_of_type(a)?;
            (decided_by_first_use(x, rest, c)? == n).then_some(true)
        }
        (Some(w), None) => {
            let n = elab::num_of_type(w)?;
            (decided_by_first_use(x, rest, c)? == n).then_some(false)
        }
        (None, None) => None,
    }
}

/// [`elide`] at `∀ x : T, 0 < x → p` and `∃ x : T, 0 < x ∧ p`.
fn positive_bound_type(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    quantifier(t)?;
    let [binder, body] = t.children.as_slice() else {
        return None;
    };
    let (x, written) = match (binder.label.as_str(), binder.children.as_slice()) {
        (_, []) => (binder, None),
        (EXPLICIT, [x, ty]) if is_leaf(x) && ty.label != UNKNOWN_TYPE => (x, Some(ty)),
        _ => return None,
    };
    let ([h, rest], true) = (body.children.as_slice(), [IMP, AND].contains(&body.label.as_str()))
    else {
        return None;
    };
    let ascribed = positivity(h, &x.label)?;
    let new = if elide(&x.label, written, ascribed, rest, ctx.carriers)? {
        let body = node2(&body.label, plain_positivity(x), rest.clone());
        node2(&t.label, binder.clone(), body)
    } else {
        node2(&t.label, x.clone(), body.clone())
    };
    Some((NAME, new))
}

/// [`elide`] at `(x : T) (h : 0 < x)` in the theorem's binder list.
fn positive_hypothesis_type(
    binders: &[Tree],
    concl: &Tree,
    c: &Carriers,
) -> Option<(&'static str, String, Tree)> {
    for (i, pair) in binders.windows(2).enumerate() {
        let (EXPLICIT, [x, ty]) = (pair[0].label.as_str(), pair[0].children.as_slice()) else {
            continue;
        };
        let (EXPLICIT, [h, hyp]) = (pair[1].label.as_str(), pair[1].children.as_slice()) else {
            continue;
        };
        if !is_leaf(x) || !is_leaf(h) || h.label == x.label {
            continue;
        }
        let Some(ascribed) = positivity(hyp, &x.label) else {
            continue;
        };
        let written = (ty.label != UNKNOWN_TYPE || !is_leaf(ty)).then_some(ty);
        let mut rest: Vec<Tree> = binders[i + 2..].to_vec();
        rest.push(concl.clone());
        let scope = Tree::node("·", rest);
        let Some(ascription) = elide(&x.label, written, ascribed, &scope, c) else {
            continue;
        };
        let mut out = binders.to_vec();
        if ascription {
            out[i + 1] = node2(EXPLICIT, h.clone(), plain_positivity(x));
        } else {
            out[i] = auto_bound_binder(x.clone());
        }
        let text = super::render::render(&pair[usize::from(ascription)]);
        return Some((NAME, text, rebuild_list(out, concl.clone())));
    }
    None
}

/// [`NAME`] at `∃ N : T, ∀ m, ∀ n, N ≤ m → N ≤ n → p` (the canonical form of
/// `∃ N : T, ∀ m ≥ N, ∀ n ≥ N, p`): `N`'s written type dropped where `p` types both indices
/// `T` by their own first uses ([`infer_binder_type`]); `N ≤ m` and `N ≤ n` come first and
/// only unify, so `N` gets the indices' type either way.
fn two_index_threshold_type(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EXISTS, [binder, body]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (EXPLICIT, [n_name, ty]) = (binder.label.as_str(), binder.children.as_slice()) else {
        return None;
    };
    let (FORALL, [m, inner]) = (body.label.as_str(), body.children.as_slice()) else {
        return None;
    };
    let (FORALL, [n, step]) = (inner.label.as_str(), inner.children.as_slice()) else {
        return None;
    };
    let (IMP, [first, rest]) = (step.label.as_str(), step.children.as_slice()) else {
        return None;
    };
    let (IMP, [second, p]) = (rest.label.as_str(), rest.children.as_slice()) else {
        return None;
    };
    let names = [n_name, m, n];
    if names.iter().any(|x| !is_leaf(x))
        || n_name.label == m.label
        || n_name.label == n.label
        || m.label == n.label
        || !bounded_below(first, &n_name.label, &m.label)
        || !bounded_below(second, &n_name.label, &n.label)
        || mentions_head(p, &n_name.label)
        || rebinds(p, &m.label)
        || rebinds(p, &n.label)
    {
        return None;
    }
    elab::num_of_type(ty)?;
    let c = ctx.carriers;
    let decided = |x: &Tree| infer_binder_type(&x.label, p, c, Deciders::TheoremBinders);
    if decided(m).as_ref() != Some(ty) || decided(n).as_ref() != Some(ty) {
        return None;
    }
    Some((NAME, node2(EXISTS, n_name.clone(), body.clone())))
}

/// `lower ≤ x`, both names.
fn bounded_below(t: &Tree, lower: &str, x: &str) -> bool {
    matches!((t.label.as_str(), t.children.as_slice()),
        (LE, [a, b]) if is_leaf(a) && is_leaf(b) && a.label == lower && b.label == x)
}
