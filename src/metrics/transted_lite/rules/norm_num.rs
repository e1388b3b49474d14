//! `norm_num` on literals: [`norm_num`] evaluates natural-literal arithmetic at a node that fixes
//! the type it is elaborated at, with that type's operations only.
//!
//! Owns which operations give the same literal in every number type they may be read at;
//! decides nothing about where it runs (it is a code rule of the arithmetic table).

use super::carriers::Carriers;
use super::elab;
use super::shapes::{literal, node2, ADD, EQ, GE, GT, LE, LT, MUL, NE};
use crate::trees::Tree;

/// Largest literal `norm_num` writes: beyond it the arithmetic is left as written (a 40-digit
/// numeral helps no comparison).
pub(super) const MAX_LITERAL: u128 = 1 << 64;

/// `norm_num` on literals (ASSESS runs `norm_num1` on every pair first), at a node that fixes
/// the type its arithmetic is elaborated at: a relation whose operands elaboration-lite types
/// (`binop%`/`binrel%` unify them; numerals alone default to ℕ), `[MOD n]` (ℕ), `[ZMOD n]` (ℤ),
/// or an ascription `(e : T)` to a number type. Inside, natural literals are evaluated with
/// that type's operations only ([`literal_op`]); the walk stops at anything that is not
/// arithmetic of the same type (an application, a cast, another ascription). An unknown type
/// (a type variable, `Fin n`, `UInt8`, `Float`, a `variable` of the header) evaluates nothing.
pub(super) fn norm_num(t: &Tree, carriers: &Carriers) -> Option<Tree> {
    use elab::Num;
    let (num, operands): (Num, &[usize]) = match (t.label.as_str(), t.children.as_slice()) {
        ("( _ : _ )", [_, ty]) => (elab::num_of_type(ty)?, &[0]),
        (EQ | NE | LT | LE | GT | GE | " _ ∣ _ ", [a, b]) => {
            (elab::carrier(&[a, b], carriers)?, &[0, 1])
        }
        (" _ ≡ _ [MOD _ ]", [_, _, _]) => (Num::Nat, &[0, 1, 2]),
        (" _ ≡ _ [ZMOD _ ]", [_, _, _]) => (Num::Int, &[0, 1, 2]),
        _ => return None,
    };
    let mut out: Option<Tree> = None;
    for &i in operands {
        if let Some(new) = evaluate(&t.children[i], num) {
            out.get_or_insert_with(|| t.clone()).children[i] = new;
        }
    }
    out
}

/// Evaluate the literal arithmetic of `t`, elaborated at `num`; `None` when nothing changed.
fn evaluate(t: &Tree, num: elab::Num) -> Option<Tree> {
    use elab::Num;
    match (t.label.as_str(), t.children.as_slice()) {
        (ADD | MUL | " _ - _ " | " _ / _ " | " _ % _ " | " _ ^ _ ", [a, b]) => {
            // The exponent of `^` is elaborated on its own (`rightact%`), a natural numeral:
            // only the operations whose value is the same in every semiring.
            let exponent = t.label == " _ ^ _ ";
            let new_a = evaluate(a, num);
            let new_b = if exponent { evaluate_semiring(b) } else { evaluate(b, num) };
            let (a2, b2) = (new_a.as_ref().unwrap_or(a), new_b.as_ref().unwrap_or(b));
            match (literal(a2), literal(b2)) {
                (Some(x), Some(y)) => literal_op(&t.label, x, y, num)
                    .filter(|v| *v <= MAX_LITERAL)
                    .map(|v| Tree::leaf(v.to_string()))
                    .or_else(|| rebuilt(t, new_a, new_b)),
                _ => rebuilt(t, new_a, new_b),
            }
        }
        // `(e : T)` at the same type is the same region; at another it is a region of its own,
        // evaluated when the canonical pass reaches it.
        ("( _ : _ )", [e, ty]) if elab::num_of_type(ty) == Some(num) => {
            let new = evaluate(e, num)?;
            Some(node2("( _ : _ )", new, ty.clone()))
        }
        ("| _ |", [e]) if num != Num::Nat => {
            let new = evaluate(e, num)?;
            Some(Tree::node(&t.label, vec![new]))
        }
        _ => None,
    }
}

/// `evaluate` for `+`, `*`, `^` only: the same value in every semiring (`Nat.cast` is a ring
/// hom), whatever type the term is elaborated at.
fn evaluate_semiring(t: &Tree) -> Option<Tree> {
    match (t.label.as_str(), t.children.as_slice()) {
        (ADD | MUL | " _ ^ _ ", [a, b]) => {
            let (new_a, new_b) = (evaluate_semiring(a), evaluate_semiring(b));
            let (a2, b2) = (new_a.as_ref().unwrap_or(a), new_b.as_ref().unwrap_or(b));
            match (literal(a2), literal(b2)) {
                (Some(x), Some(y)) => literal_op(&t.label, x, y, elab::Num::Nat)
                    .filter(|v| *v <= MAX_LITERAL)
                    .map(|v| Tree::leaf(v.to_string()))
                    .or_else(|| rebuilt(t, new_a, new_b)),
                _ => rebuilt(t, new_a, new_b),
            }
        }
        _ => None,
    }
}

/// `t` with the children that changed replaced; `None` when none did.
fn rebuilt(t: &Tree, a: Option<Tree>, b: Option<Tree>) -> Option<Tree> {
    if a.is_none() && b.is_none() {
        return None;
    }
    let mut out = t.clone();
    if let Some(a) = a {
        out.children[0] = a;
    }
    if let Some(b) = b {
        out.children[1] = b;
    }
    Some(out)
}

/// `x op y` on natural literals at `num`, where the result is the same natural literal in every
/// one of ℕ ℤ ℚ ℝ ℂ that `num` could be:
/// - `+`, `*`, `^`: always;
/// - `-`: only when not negative (ℕ truncates, the others do not);
/// - `/`: only when exact (ℕ and ℤ round, the fields do not);
/// - `%`: on ℕ (`Nat.mod`) and ℤ (`Int.emod`) with a nonzero divisor; never on ℚ ℝ ℂ, where
///   `%` is the Euclidean remainder of a field (`Field.toEuclideanDomain`: `a % b = a - a * b /
///   b`, 0 for `b ≠ 0`), not the integer one.
///
/// Truncation and rounding are left as written even at ℕ: `(1 / 4 : ℕ)` is 0, and evaluating it
/// would make `n = 11 → (1 / 4) ^ (n + 1) = 1 / 4` and the same with 12 and `1 / 5` one trivial
/// fact, true but not the problem either states.
fn literal_op(op: &str, x: u128, y: u128, num: elab::Num) -> Option<u128> {
    use elab::Num;
    let discrete = matches!(num, Num::Nat | Num::Int);
    match op {
        ADD => x.checked_add(y),
        MUL => x.checked_mul(y),
        " _ ^ _ " => u32::try_from(y).ok().and_then(|e| x.checked_pow(e)),
        " _ - _ " => x.checked_sub(y),
        " _ / _ " if y != 0 && x.is_multiple_of(y) => Some(x / y),
        " _ % _ " if discrete && y != 0 => Some(x % y),
        _ => None,
    }
}
