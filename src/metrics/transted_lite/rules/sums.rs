//! Sums family: `∑`/`∏` over an interval of naturals put in one form, so that restatements
//! that index the same terms differently meet: every interval as `Finset.Ico lo hi`
//! (`Finset.range hi` when `lo` is 0, `Nat.Ico_zero_eq_range`), an index written `i + c`
//! throughout shifted away (`Finset.sum_Ico_add'`), and a first term that vanishes at 0 dropped
//! (`Finset.sum_eq_sum_Ico_succ_bot`). Fires only where the index is known to be a natural:
//! `Finset.range`, an end of type ℕ, or numeral ends with a body that makes the index one.
//! Declared as data (`declare`) for the matcher (`table`); owns nothing else (membership in
//! intervals is `sets`').

use super::carriers::interval_element;
use super::declare::*;
use super::elab::{self, Num, Ty};
use super::shapes::{binds_inside, is_leaf, literal, mentions, node2, ADD, DIV, MUL, NEG, POW};
use super::typed::{infer_binder_type, Deciders};
use crate::trees::Tree;

#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    // Mathlib/Order/Interval/Finset/Nat.lean: `Nat.Ico_succ_right : Ico a b.succ = Icc a b`,
    // `Nat.Ico_succ_succ : Ico a.succ b.succ = Ioc a b`, `Nat.Ico_succ_left : Ico a.succ b =
    // Ioo a b`, `Nat.Ico_zero_eq_range : Ico 0 = range`.
    code("Nat.Ico_succ_right / Nat.Ico_succ_succ / Nat.Ico_succ_left / Nat.Ico_zero_eq_range", "over ℕ: Icc a b = Ico a (b + 1), Ioc a b = Ico (a + 1) (b + 1), Ioo a b = Ico (a + 1) b, and Ico 0 b = range b (Mathlib/Order/Interval/Finset/Nat.lean), as the domain of ∑ / ∏", as_ico)
        .ex(&[("(n : ℕ) : ∑ i ∈ Finset.Icc 1 n, i = n", "(n : ℕ) : ∑ i ∈ Finset.Ico 1 (n + 1), i = n"),
              ("(n : ℕ) : ∏ i ∈ Finset.Ioc 0 n, i = n", "(n : ℕ) : ∏ i ∈ Finset.Ico 1 (n + 1), i = n"),
              ("(n : ℕ) : ∑ i ∈ Finset.Icc 0 (n + 1), i = n", "(n : ℕ) : ∑ i ∈ Finset.range (n + 2), i = n"),
              ("(f : ℕ → ℝ) : ∑ i ∈ Finset.Icc 1 100, f i = 0", "(f : ℕ → ℝ) : ∑ i ∈ Finset.Ico 1 101, f i = 0")])
        // Ends of another type (`b + 1` wraps in `Fin 5`; ℝ has no finite intervals), a body
        // that makes numeral ends' index another type, a bound `Finset`.
        .non(&["(n : Fin 5) : ∑ i ∈ Finset.Icc 1 n, i = n",
               "(f : Fin 5 → ℝ) : ∑ i ∈ Finset.Icc 1 4, f i = 0",
               ": ∑ i ∈ Finset.Icc 1 4, i = (2 : Fin 5)",
               "(n : ℤ) : ∑ i ∈ Finset.Icc 1 n, i = n",
               "(n : ℕ) (Finset : ℕ) : Finset = n"]),
    // Mathlib/Algebra/BigOperators/Intervals.lean: `Finset.sum_Ico_add' : ∑ x ∈ Ico a b, f (x +
    // c) = ∑ x ∈ Ico (a + c) (b + c), f x` (`prod_Ico_add'`), with `range b = Ico 0 b`.
    code("Finset.sum_Ico_add' / Finset.prod_Ico_add'", "∑ x ∈ Ico a b, f (x + c) = ∑ x ∈ Ico (a + c) (b + c), f x over ℕ (Mathlib/Algebra/BigOperators/Intervals.lean): an index written x + c at every use shifted away", shifted)
        .ex(&[("(n : ℕ) : ∏ i ∈ Finset.range n, (i + 1) = n", "(n : ℕ) : ∏ i ∈ Finset.Ico 1 (n + 1), i = n"),
              ("(n : ℕ) (f : ℕ → ℝ) : ∑ k ∈ Finset.Ico 2 n, f (k + 2) * (k + 2) = 0", "(n : ℕ) (f : ℕ → ℝ) : ∑ k ∈ Finset.Ico 4 (n + 2), f k * k = 0"),
              // Offsets that differ: by the least.
              (": ∑ k ∈ Finset.range 9, (1 : ℚ) / ((k + 1) * (k + 2)) = 9 / 10", ": ∑ k ∈ Finset.Ico 1 10, (1 : ℚ) / (k * (k + 1)) = 9 / 10")])
        // An index used alone beside `i + 1`, `i + 1` under a binder of `i`, an index of
        // integers.
        .non(&["(n : ℕ) : ∑ i ∈ Finset.range n, (i + 1) * i = n",
               "(n : ℕ) : ∑ i ∈ Finset.range n, ∑ i ∈ Finset.range (i + 1), i = n",
               "(n : ℤ) : ∑ i ∈ Finset.Ico 0 n, (i + 1) = n"]),
    // Mathlib/Algebra/BigOperators/Basic.lean: `Finset.sum_eq_sum_Ico_succ_bot : a < b → ∑ k ∈
    // Ico a b, f k = f a + ∑ k ∈ Ico (a + 1) b, f k`; where `b ≤ a` both are empty
    // (`Finset.Ico_eq_empty_of_le`). With `f 0 = 0` (`mul_zero`, `zero_mul`, `zero_pow`,
    // `zero_div`, `neg_zero`, `add_zero`, `Nat.cast_zero`) the first term goes.
    code("Finset.sum_eq_sum_Ico_succ_bot", "∑ k ∈ Ico 0 b, f k = ∑ k ∈ Ico 1 b, f k when f 0 = 0 (Mathlib/Algebra/BigOperators/Basic.lean; both empty when b = 0)", zero_term_dropped)
        .ex(&[("(n : ℕ) : ∑ i ∈ Finset.range (n + 1), i = n", "(n : ℕ) : ∑ i ∈ Finset.Ico 1 (n + 1), i = n"),
              ("(n : ℕ) : ∑ i ∈ Finset.range n, (i : ℝ) ^ 2 / 2 = n", "(n : ℕ) : ∑ i ∈ Finset.Ico 1 n, (i : ℝ) ^ 2 / 2 = n")])
        // A term that does not vanish at 0 (`0 ^ 0 = 1`, `0 + 1`, a function's value, ℕ's
        // `0 - 1 = 0` left alone), a product (its first factor is not 1), a lower end of 1.
        .non(&["(n : ℕ) : ∑ i ∈ Finset.range n, i ^ 0 = n",
               "(n : ℕ) : ∑ i ∈ Finset.range n, (i + 1) * 2 = n",
               "(n : ℕ) (f : ℕ → ℕ) : ∑ i ∈ Finset.range n, f i = n",
               "(n : ℕ) : ∑ i ∈ Finset.range n, (i - 1) = n",
               "(n : ℕ) : ∏ i ∈ Finset.range n, i = n",
               "(n : ℕ) : ∑ i ∈ Finset.Ico 1 n, (i - 1) = n"]),
];

const SUM: &str = "∑ _  _ , _ ";
const PROD: &str = "∏ _  _ , _ ";

/// A big operator over a domain `i ∈ s`: the operator's label, the index (a name), `s` and the
/// body, where no binder in the body binds the index again.
fn big_operator(t: &Tree) -> Option<(&Tree, &Tree, &Tree)> {
    if ![SUM, PROD].contains(&t.label.as_str()) {
        return None;
    }
    let [index, domain, body] = t.children.as_slice() else {
        return None;
    };
    let ("∈ _ ", [set]) = (domain.label.as_str(), domain.children.as_slice()) else {
        return None;
    };
    (is_leaf(index) && !binds_inside(body, &index.label)).then_some((index, set, body))
}

/// `s` as the naturals `[lo, hi)`, where its elements are known to be naturals: `Finset.range
/// n`, or an interval whose ends are naturals, or numerals whose index the body makes a
/// natural (a function `ℕ → β` applied to it; the numerals alone would leave it to the
/// expected type of the whole sum). The ends as written, and which interval it was.
fn natural_interval(
    s: &Tree,
    index: &Tree,
    body: &Tree,
    ctx: &Ctx,
) -> Option<(&'static str, Tree, Tree)> {
    let c = ctx.carriers;
    let head = super::shapes::app_head(s)?;
    if c.binds(head) || c.binds("Finset") {
        return None;
    }
    let [a, b] = match (head, s.children.as_slice()) {
        ("Finset.range", [n]) => return Some(("range", Tree::leaf("0"), n.clone())),
        ("Finset.Icc" | "Finset.Ico" | "Finset.Ioc" | "Finset.Ioo", [a, b]) => [a, b],
        _ => return None,
    };
    let natural = |e: &Tree| elab::type_of(e, c) == Ty::Num(Num::Nat);
    let numeral = |e: &Tree| elab::type_of(e, c) == Ty::Numeral;
    let nat = Tree::leaf("ℕ");
    let known = interval_element(s, c).is_some_and(|ty| ty == nat)
        || ((natural(a) || numeral(a)) && (natural(b) || numeral(b)) && (natural(a) || natural(b)))
        || (numeral(a)
            && numeral(b)
            && infer_binder_type(&index.label, body, c, Deciders::TheoremBinders) == Some(nat));
    let kind = head.trim_start_matches("Finset.");
    let kind = ["Icc", "Ico", "Ioc", "Ioo"].into_iter().find(|k| *k == kind)?;
    known.then(|| (kind, a.clone(), b.clone()))
}

/// `e + k` for a natural `e`, with numerals added up (`n + 1 + 1` is `n + 2`, `100 + 1` is
/// `101`): the same natural.
fn plus(e: &Tree, k: u128) -> Tree {
    if k == 0 {
        return e.clone();
    }
    if let Some(n) = literal(e) {
        return Tree::leaf((n + k).to_string());
    }
    if let (ADD, [x, m]) = (e.label.as_str(), e.children.as_slice()) {
        if let Some(m) = literal(m) {
            return node2(ADD, x.clone(), Tree::leaf((m + k).to_string()));
        }
    }
    node2(ADD, e.clone(), Tree::leaf(k.to_string()))
}

/// The interval `[lo, hi)` of naturals written as Mathlib's normal form here: `Finset.range
/// hi` from 0, `Finset.Ico lo hi` otherwise.
fn ico(lo: Tree, hi: Tree) -> Tree {
    if literal(&lo) == Some(0) {
        Tree::node("Finset.range _ ", vec![hi])
    } else {
        Tree::node("Finset.Ico _  _ ", vec![lo, hi])
    }
}

fn with_domain(t: &Tree, set: Tree, body: Option<Tree>) -> Tree {
    let mut out = t.clone();
    out.children[1] = Tree::node("∈ _ ", vec![set]);
    if let Some(body) = body {
        out.children[2] = body;
    }
    out
}

fn as_ico(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (index, set, body) = big_operator(t)?;
    let (kind, a, b) = natural_interval(set, index, body, ctx)?;
    let (name, lo, hi) = match kind {
        "Icc" => ("Nat.Ico_succ_right", a, plus(&b, 1)),
        "Ioc" => ("Nat.Ico_succ_succ", plus(&a, 1), plus(&b, 1)),
        "Ioo" => ("Nat.Ico_succ_left", plus(&a, 1), b),
        "Ico" if literal(&a) == Some(0) => ("Nat.Ico_zero_eq_range", a, b),
        _ => return None,
    };
    Some((name, with_domain(t, ico(lo, hi), None)))
}

/// The least offset `c` with which every use of `x` in `t` is some `x + c'`, `c' ≥ c ≥ 1`
/// (`Some(None)`: no use).
fn offset(t: &Tree, x: &str, depth: usize) -> Option<Option<u128>> {
    if depth > 200 {
        return None;
    }
    if let (ADD, [y, c]) = (t.label.as_str(), t.children.as_slice()) {
        if is_leaf(y) && y.label == x {
            return literal(c).filter(|c| *c > 0).map(Some);
        }
    }
    if is_leaf(t) {
        return (t.label != x).then_some(None);
    }
    let mut least: Option<u128> = None;
    for ch in &t.children {
        if let Some(c) = offset(ch, x, depth + 1)? {
            least = Some(least.map_or(c, |l| l.min(c)));
        }
    }
    Some(least)
}

/// `t` with every `x + c'` written `x + (c' - c)` (`x` where `c' = c`): `x` standing for the
/// old `x + c`.
fn unshifted(t: &Tree, x: &str, c: u128) -> Tree {
    if let (ADD, [y, k]) = (t.label.as_str(), t.children.as_slice()) {
        if let (true, Some(k)) = (is_leaf(y) && y.label == x, literal(k)) {
            return plus(y, k - c);
        }
    }
    let mut out = t.clone();
    out.children = t.children.iter().map(|ch| unshifted(ch, x, c)).collect();
    out
}

fn shifted(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (index, set, body) = big_operator(t)?;
    let (kind, a, b) = natural_interval(set, index, body, ctx)?;
    if !["range", "Ico"].contains(&kind) {
        return None;
    }
    let c = offset(body, &index.label, 0)??;
    let moved = ico(plus(&a, c), plus(&b, c));
    let name = if t.label == SUM { "Finset.sum_Ico_add'" } else { "Finset.prod_Ico_add'" };
    Some((name, with_domain(t, moved, Some(unshifted(body, &index.label, c)))))
}

/// Is `t` zero where `x` is 0, by the lemmas that make a term of `x` vanish there whatever the
/// (semi)ring: `x` itself or cast, a product with such a factor, a positive power or a
/// quotient of one, a negation, a sum of such.
fn vanishes_at_zero(t: &Tree, x: &str, depth: usize) -> bool {
    if depth > 200 {
        return false;
    }
    let sub = |e: &Tree| vanishes_at_zero(e, x, depth + 1);
    match (t.label.as_str(), t.children.as_slice()) {
        (_, []) => t.label == x,
        ("( _ : _ )", [e, _]) | ("↑", [e]) => sub(e),
        (MUL, [a, b]) => sub(a) || sub(b),
        (POW, [a, k]) => sub(a) && literal(k).is_some_and(|k| k > 0),
        (DIV, [a, _]) | (NEG, [a]) => sub(a),
        (ADD, [a, b]) => sub(a) && sub(b),
        _ => false,
    }
}

fn zero_term_dropped(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    if t.label != SUM {
        return None;
    }
    let (index, set, body) = big_operator(t)?;
    let (kind, a, b) = natural_interval(set, index, body, ctx)?;
    if !["range", "Ico"].contains(&kind) || literal(&a) != Some(0) || !mentions(body, &index.label)
    {
        return None;
    }
    if !vanishes_at_zero(body, &index.label, 0) {
        return None;
    }
    let rest = Tree::node("Finset.Ico _  _ ", vec![Tree::leaf("1"), b]);
    Some(("Finset.sum_eq_sum_Ico_succ_bot", with_domain(t, rest, None)))
}
