//! Order family: negated and shifted inequalities, each on the number types its lemma holds
//! on (read from elaboration-lite at the rewritten terms; unknown ⇒ the rule does not fire).
//! Declared as data (`declare`) for the matcher (`table`); owns nothing else.

use super::declare::*;
use super::typed;

#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    rw("not_lt", "¬a < b ↔ b ≤ a (linear order)", "¬ ?a < ?b", "?b ≤ ?a").when(&[on(&["?a", "?b"], &LINEAR), number(&["?a"]), number(&["?b"])])
        .ex(&[("(x : ℝ) : ¬ (x < 2)", "(x : ℝ) : 2 ≤ x")])
        .non(&["(A B : Set ℕ) : ¬ (A < B)", "(α : Type*) [Preorder α] (a b : α) : ¬ (a < b)", "(n : ℕ) : ¬ (Finset.range n < Finset.range 4)", "(p : ℝ × ℝ) : ¬ (p < p)", ": ¬ (exp 1 < 3)"]),
    rw("not_le", "¬a ≤ b ↔ b < a (linear order)", "¬ ?a ≤ ?b", "?b < ?a").when(&[on(&["?a", "?b"], &LINEAR), number(&["?a"]), number(&["?b"])])
        .ex(&[("(n : ℤ) : ¬ (n ≤ 2)", "(n : ℤ) : 2 < n"), ("(f : ℕ → ℝ) : ¬ (f 1 ≤ 2)", "(f : ℕ → ℝ) : 2 < f 1")])
        .non(&["(z : ℂ) : ¬ (z ≤ 1)", "(f g : ℕ → ℝ) : ¬ (f ≤ g)"]),
    rw("sub_nonneg", "0 ≤ a - b ↔ b ≤ a (ordered group)", "0 ≤ ?a - ?b", "?b ≤ ?a").when(&[on(&["0", "?a - ?b"], &ORDERED_GROUP), number(&["?a"]), number(&["?b"])])
        .ex(&[("(a b : ℝ) : 0 ≤ a - b", "(a b : ℝ) : b ≤ a")])
        .non(&["(a b : ℕ) : 0 ≤ a - b", "(a b : ℂ) : 0 ≤ a - b"]),
    rw("sub_pos", "0 < a - b ↔ b < a (ordered group)", "0 < ?a - ?b", "?b < ?a").when(&[on(&["0", "?a - ?b"], &ORDERED_GROUP), number(&["?a"]), number(&["?b"])])
        .ex(&[("(a b : ℤ) : 0 < a - b", "(a b : ℤ) : b < a")])
        .non(&["(a b : ℕ) : 0 < a - b"]),
    rw("sub_nonpos", "a - b ≤ 0 ↔ a ≤ b (ordered group)", "?a - ?b ≤ 0", "?a ≤ ?b").when(&[on(&["?a - ?b", "0"], &ORDERED_GROUP), number(&["?a"]), number(&["?b"])])
        .ex(&[("(a b : ℚ) : a - b ≤ 0", "(a b : ℚ) : a ≤ b")])
        .non(&["(a b : ℕ) : a - b ≤ 0"]),
    rw("sub_neg", "a - b < 0 ↔ a < b (ordered group)", "?a - ?b < 0", "?a < ?b").when(&[on(&["?a - ?b", "0"], &ORDERED_GROUP), number(&["?a"]), number(&["?b"])])
        .ex(&[("(a b : ℝ) : a - b < 0", "(a b : ℝ) : a < b")])
        .non(&["(a b : ℕ) : a - b < 0"]),
    rw("Nat.lt_add_one_iff", "a < b + 1 ↔ a ≤ b (ℕ)", "?a < ?b + 1", "?a ≤ ?b").when(&[on(&["?a", "?b + 1"], &NAT), not_numeral(&["?b"]), number(&["?a"]), number(&["?b"])])
        .ex(&[("(a b : ℕ) : a < b + 1", "(a b : ℕ) : a ≤ b")])
        .non(&["(a b : ℝ) : a < b + 1", "(a : ℕ) : a < 2 + 1", ": exp 1 < exp 2 + 1"]),
    rw("Int.lt_add_one_iff", "a < b + 1 ↔ a ≤ b (ℤ)", "?a < ?b + 1", "?a ≤ ?b").when(&[on(&["?a", "?b + 1"], &INT), not_numeral(&["?b"]), number(&["?a"]), number(&["?b"])])
        .ex(&[("(a b : ℤ) : a < b + 1", "(a b : ℤ) : a ≤ b")])
        .non(&["(a b : ℚ) : a < b + 1"]),
    rw("Nat.lt_iff_add_one_le", "a < b ↔ a + 1 ≤ b (ℕ)", "?a + 1 ≤ ?b", "?a < ?b").when(&[on(&["?a + 1", "?b"], &NAT), not_numeral(&["?a"]), number(&["?a"]), number(&["?b"])])
        .ex(&[("(a b : ℕ) : a + 1 ≤ b", "(a b : ℕ) : a < b")])
        .non(&["(a b : ℝ) : a + 1 ≤ b"]),
    rw("Int.lt_iff_add_one_le", "a < b ↔ a + 1 ≤ b (ℤ)", "?a + 1 ≤ ?b", "?a < ?b").when(&[on(&["?a + 1", "?b"], &INT), not_numeral(&["?a"]), number(&["?a"]), number(&["?b"])])
        .ex(&[("(a b : ℤ) : a + 1 ≤ b", "(a b : ℤ) : a < b")])
        .non(&["(a b : ℝ) : a + 1 ≤ b", "(a b : ℚ) : a + 1 ≤ b", "(a b : ℕ) : a + 1 ≤ b", "(a b : ℤ) : a + 2 ≤ b"]),
    rw("Nat.succ_le_iff", "1 ≤ n ↔ 0 < n (ℕ: succ 0 ≤ n)", "1 ≤ ?b", "0 < ?b").when(&[on(&["1", "?b"], &NAT), number(&["?b"])])
        .ex(&[("(n : ℕ) : 1 ≤ n", "(n : ℕ) : 0 < n")])
        .non(&["(x : ℝ) : 1 ≤ x", "(x : ℕ) : 2 ≤ x"]),
    rw("Int.pos_iff_one_le", "0 < n ↔ 1 ≤ n (ℤ)", "1 ≤ ?b", "0 < ?b").when(&[on(&["1", "?b"], &INT), number(&["?b"])])
        .ex(&[("(n : ℤ) : 1 ≤ n", "(n : ℤ) : 0 < n")])
        .non(&["(x : ℝ) : 1 ≤ x", "(x : ℚ) : 1 ≤ x", "(n : ℤ) : 2 ≤ n", "(n : ℤ) : n ≤ 1"]),
    rw("Nat.pos_iff_ne_zero", "0 < n ↔ n ≠ 0 (ℕ)", "?n ≠ 0", "0 < ?n").when(&[on(&["?n", "0"], &NAT), number(&["?n"])])
        .ex(&[("(n : ℕ) : n ≠ 0", "(n : ℕ) : 0 < n")])
        .non(&["(n : ℤ) : n ≠ 0", "(n : ℕ) : Nat.divisors n ≠ 0"]),
    rw("Nat.pos_iff_ne_zero", "0 < n ↔ n ≠ 0 (ℕ)", "0 ≠ ?n", "0 < ?n").when(&[on(&["0", "?n"], &NAT), number(&["?n"])])
        .ex(&[("(n : ℕ) : 0 ≠ n", "(n : ℕ) : 0 < n")])
        .non(&["(n : ℤ) : 0 ≠ n", "(x : ℝ) : 0 ≠ x", "(n : ℕ) : 1 ≠ n"]),
    rw("Nat.zero_le", "0 ≤ n on ℕ, so 0 ≤ n ∧ p ↔ p (true_and)", "0 ≤ ?n ∧ ?q", "?q").when(&[on(&["?n"], &NAT), number(&["?n"])])
        .ex(&[("(n : ℕ) : 0 ≤ n ∧ n < 3", "(n : ℕ) : n < 3")])
        .non(&["(n : ℤ) : 0 ≤ n ∧ n < 3"]),
    rw("Nat.zero_le", "0 ≤ n on ℕ, so p ∧ 0 ≤ n ↔ p (and_true)", "?p ∧ 0 ≤ ?n", "?p").when(&[on(&["?n"], &NAT), number(&["?n"])])
        .ex(&[("(n : ℕ) : n < 3 ∧ 0 ≤ n", "(n : ℕ) : n < 3")])
        .non(&["(x : ℝ) : x < 3 ∧ 0 ≤ x"]),
    // `|·|` is Mathlib's `abs` only on an additive lattice group (ℕ has none, ℂ no lattice);
    // the split needs a linear order (Mathlib/Algebra/Order/Group/Abs.lean, `abs_lt`/`abs_le`).
    rw("abs_lt", "|a| < b ↔ -b < a ∧ a < b (linear ordered additive group)", "|?a| < ?b", "-?b < ?a ∧ ?a < ?b").when(&[on(&["?a"], &ORDERED_GROUP), number(&["?a"]), settled(&["?b"])])
        .ex(&[("(r : ℝ) (h : |r| < 1) : r ^ 2 < 1", "(r : ℝ) (h : -1 < r ∧ r < 1) : r ^ 2 < 1"), ("(n : ℤ) : |n - 2| < 3", "(n : ℤ) : -3 < n - 2 ∧ n - 2 < 3")])
        .non(&["(n : ℕ) : |n| < 3", "(z : ℂ) : |z| < 3", "(x : ℝ) : |x| ≤ 3", "(f : ℕ → ℝ) : |f| < 1", "(u : ℕ → ℝ) (a : ℝ) : ∀ ε > 0, ∃ N, ∀ n ≥ N, |u n - a| < ε"]),
    rw("abs_le", "|a| ≤ b ↔ -b ≤ a ∧ a ≤ b (linear ordered additive group)", "|?a| ≤ ?b", "-?b ≤ ?a ∧ ?a ≤ ?b").when(&[on(&["?a"], &ORDERED_GROUP), number(&["?a"]), settled(&["?b"])])
        .ex(&[("(x : ℚ) : |x| ≤ 2", "(x : ℚ) : -2 ≤ x ∧ x ≤ 2")])
        .non(&["(n : ℕ) : |n| ≤ 3", "(x : ℝ) : |x| < 3", "(f : ℕ → ℝ) : |f| ≤ 1"]),
    moves_code("Nat.lt_iff_add_one_le / Nat.lt_add_one_iff / Int.lt_iff_add_one_le / Int.lt_add_one_iff", "k ≤ b ↔ k - 1 < b, a ≤ k ↔ a < k + 1 with the numeral added up (ℕ, ℤ)", |t, ctx| typed::bound_shifts(t, ctx.carriers))
        .ex(&[("(n : ℕ) : 2 ≤ n", "(n : ℕ) : 1 < n"), ("(n : ℤ) : n < 5", "(n : ℤ) : n ≤ 4")])
        .non(&["(x : ℝ) : 2 ≤ x", ": exp 1 < 3"]),
];
