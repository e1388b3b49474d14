//! Arithmetic family: literal arithmetic (`norm_num`), ring and field identities, parity and
//! divisibility, norms and absolute values, each on the number types its lemma holds on (read
//! from elaboration-lite at the rewritten terms; unknown ⇒ the rule does not fire), and the
//! commutative and associative moves of `+` and `*`. Declared as data (`declare`) for the
//! matcher (`table`); owns only the procedures no other module needs.

use super::carriers::Carriers;
use super::declare::*;
use super::elab;
use super::norm_num::norm_num;
use super::shapes::{is_leaf, literal, mentions, node2, quantifier, Quant, EQ, EXPLICIT, MUL};
use crate::trees::Tree;

#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    code("norm_num", "arithmetic on natural literals at the type a relation or ascription fixes \
          (ℕ ℤ ℚ ℝ ℂ; `-` and `/` only where exact, `%` on ℕ ℤ only)", |t, ctx| norm_num(t, ctx.carriers).map(|new| ("norm_num", new)))
        .ex(&[("(x : ℝ) : x = 2 + 3", "(x : ℝ) : x = 5"), ("(x : ℕ) : x = 7 - 2", "(x : ℕ) : x = 5"), ("(x : ℕ) : x = 7 % 3", "(x : ℕ) : x = 1"), ("(x : ℝ) : x = ((5 - 3 : ℕ) : ℝ)", "(x : ℝ) : x = ((2 : ℕ) : ℝ)")])
        .non(&["(x : ℕ) : x = 2 - 3", "(x : ℕ) : x = 7 / 2", "(x : ℝ) : x = 2 - 3", "(x : ℝ) : x = 7 / 2", "(x : ℝ) : x = 7 % 3", "(x : ℚ) : x = 5 % 2", "(x : ZMod 5) : x = 7 - 2", "(x : ZMod 3) : x = 4 / 2", "(x : Fin 5) : x = 8 / 2", "(x : UInt8) : x = 300 / 2", "(x : Float) : x = 2 ^ 60 + 1", "(K : Type*) [Field K] (a : K) : a = 2 / 2", "{R : Type*} [Ring R] (a : R) : a = 2 + 3", "(f : ℕ → ℝ) : f (2 + 3) = 1"]),
    code("Dvd.dvd (definition)", "a ∣ b is ∃ c, b = a * c (ℕ: Nat.instDvdNat; ℤ: Int.instDvdInt; c * a by mul_comm)", dvd_of_exists)
        .ex(&[("(a b : ℕ) : ∃ c, b = a * c", "(a b : ℕ) : a ∣ b"), ("(n : ℤ) : ∃ k : ℤ, n = k * 2", "(n : ℤ) : 2 ∣ n")])
        .non(&["(a b : ℝ) : ∃ c, b = a * c", "(a b : ℕ) : ∃ c : ℤ, b = a * c", "(a : ℕ) : ∃ c, c = a * c", "{M : Type*} [Monoid M] (a b : M) : ∃ c, b = c * a"]),
    rw("inv_eq_one_div", "a⁻¹ = 1 / a (DivInvMonoid)", "?a⁻¹", "1 / ?a").when(&[div_inv(&["?a"])])
        .ex(&[("(x : ℝ) : x⁻¹ = 2", "(x : ℝ) : 1 / x = 2"), ("{G : Type*} [Group G] (a : G) : a⁻¹ = a", "{G : Type*} [Group G] (a : G) : 1 / a = a")])
        .non(&["{G : Type*} [Inv G] [Div G] [One G] (a : G) : a⁻¹ = a", "(A : Matrix (Fin 2) (Fin 2) ℝ) : A⁻¹ = A", "(x : α) : x⁻¹ = x",
               // A division bound explicitly is a local instance too.
               "{K : Type*} [Field K] (d : Div K) (x : K) : x⁻¹ = 2"]),
    // Mathlib/Algebra/Group/Basic.lean: `eq_inv_iff_mul_eq_one : a = b⁻¹ ↔ a * b = 1` in a
    // `Group` (`b⁻¹` read `1 / b` by `inv_eq_one_div`); `b⁻¹ = a` is read through `eq_comm` the
    // same way, so that both sides of one equation meet. Not in a `GroupWithZero`: `0 = 0⁻¹`
    // holds and `0 * 0 = 1` does not.
    rw("eq_inv_iff_mul_eq_one", "a = b⁻¹ ↔ a * b = 1 (Group)", "?a = 1 / ?b", "?a * ?b = 1").when(&[group(&["?a"]), group(&["?b"])])
        .ex(&[("{G : Type*} [Group G] (a : G) : a = 1 / a", "{G : Type*} [Group G] (a : G) : a * a = 1")])
        .non(&["(x : ℝ) : x = 1 / x", "{K : Type*} [Field K] (a : K) : a = 1 / a", "{G : Type*} [Monoid G] (a : G) : a = 1 / a",
               // A local division beside the group (local instances come first), a Mathlib type.
               "{G : Type*} [Group G] [Div G] (a b : G) : a = 1 / b", "{G : Type*} [Group G] (d : Div G) (a b : G) : a = 1 / b", "[Group NNReal] (a b : NNReal) : a = 1 / b",
               // A second structure: `⁻¹` and `*` may come from the division monoid, `*` from the
               // `Distrib`, `1` from a local numeral.
               "{G : Type*} [Group G] [DivisionMonoid G] (a b : G) : a = 1 / b", "{G : Type*} [Group G] [Distrib G] (a b : G) : a = 1 / b",
               "{G : Type*} [Group G] [OfNat G 1] (a b : G) : a = 1 / b"]),
    rw("eq_inv_iff_mul_eq_one (after eq_comm)", "b⁻¹ = a ↔ a = b⁻¹ ↔ a * b = 1 (Group)", "1 / ?b = ?a", "?a * ?b = 1").when(&[group(&["?a"]), group(&["?b"])])
        .ex(&[("{G : Type*} [Group G] (a b : G) : 1 / b = a", "{G : Type*} [Group G] (a b : G) : a * b = 1")])
        .non(&["(x y : ℝ) : 1 / x = y", "{G : Type*} [GroupWithZero G] (a b : G) : 1 / a = b"]),
    rw("Nat.coprime_iff_gcd_eq_one", "Nat.Coprime m n ↔ Nat.gcd m n = 1 (Iff.rfl)", "Nat.Coprime ?a ?b", "Nat.gcd ?a ?b = 1")
        .ex(&[("(a b : ℕ) : Nat.Coprime a b", "(a b : ℕ) : Nat.gcd a b = 1")])
        .non(&["(a b : ℤ) : IsCoprime a b"]),
    // `Nat.succ n` is one ℕ-typed leaf of the arithmetic around it, cast as a whole; `n + 1`
    // would be cast at its leaves (`binop%`). The ascription keeps it one ℕ term; it goes where
    // the surrounding arithmetic is ℕ anyway ("type ascription (at its relation's type)").
    rw("Nat.succ_eq_add_one", "n.succ = n + 1", "Nat.succ ?n", "(?n + 1 : ℕ)")
        .ex(&[("(n : ℕ) : Nat.succ n = 3", "(n : ℕ) : (n + 1 : ℕ) = 3"), ("(a b : ℕ) : (Nat.succ (a - b) : ℤ) = 1", "(a b : ℕ) : ((a - b + 1 : ℕ) : ℤ) = 1")])
        .non(&["(n : ℤ) : Int.succ n = 3", "(n : ℕ) : Nat.pred n = 3"]),
    rw("Nat.even_iff", "Even n ↔ n % 2 = 0 (ℕ)", "?n % 2 = 0", "Even ?n").when(&[on(&["?n % 2", "0"], &NAT)])
        .ex(&[("(n : ℕ) : n % 2 = 0", "(n : ℕ) : Even n")])
        .non(&["(x : ℝ) : x % 2 = 0"]),
    rw("Int.even_iff", "Even n ↔ n % 2 = 0 (ℤ)", "?n % 2 = 0", "Even ?n").when(&[on(&["?n % 2", "0"], &INT)])
        .ex(&[("(n : ℤ) : n % 2 = 0", "(n : ℤ) : Even n")])
        .non(&["(n : ℕ) : n % 2 = 0", "(x : ℝ) : x % 2 = 0", "(n : ℤ) : n % 3 = 0"]),
    rw("Nat.odd_iff", "Odd n ↔ n % 2 = 1 (ℕ)", "?n % 2 = 1", "Odd ?n").when(&[on(&["?n % 2", "1"], &NAT)])
        .ex(&[("(n : ℕ) : n % 2 = 1", "(n : ℕ) : Odd n")])
        .non(&["(x : ℚ) : x % 2 = 1"]),
    rw("Int.odd_iff", "Odd n ↔ n % 2 = 1 (ℤ)", "?n % 2 = 1", "Odd ?n").when(&[on(&["?n % 2", "1"], &INT)])
        .ex(&[("(n : ℤ) : n % 2 = 1", "(n : ℤ) : Odd n")])
        .non(&["(n : ℕ) : n % 2 = 1", "(x : ℝ) : x % 2 = 1", "(n : ℤ) : n % 2 = -1", "(n : ℤ) : n % 3 = 1"]),
    rw("Nat.dvd_iff_mod_eq_zero", "a ∣ b ↔ b % a = 0 (ℕ)", "?n % ?m = 0", "?m ∣ ?n").when(&[on(&["?n % ?m", "0"], &NAT)])
        .ex(&[("(n : ℕ) : n % 3 = 0", "(n : ℕ) : 3 ∣ n")])
        .non(&["(x : ℝ) : x % 3 = 0"]),
    // Mathlib/Data/Nat/ModEq.lean: `Nat.modEq_iff_dvd' (h : c ≤ b) : c ≡ b [MOD n] ↔ n ∣ b - c`,
    // and `c ≡ b [MOD n]` is `c % n = b % n`, `1 % n = 1` for `n ≥ 2`; `1 ≤ m ^ e` for `m ≥ 1`
    // (`Nat.one_le_pow`). Moduli from 3 up: `b % 2 = 1` is `Nat.odd_iff`'s.
    code("Nat.modEq_iff_dvd'", "b % n = 1 ↔ n ∣ b - 1 over ℕ, for b = m ^ e with a numeral m ≥ 1 (so 1 ≤ b) and a numeral n ≥ 3 (Mathlib/Data/Nat/ModEq.lean, Nat.one_le_pow)", remainder_one_as_dvd)
        .ex(&[("(n : ℕ) : 2 ^ n % 7 = 1", "(n : ℕ) : 7 ∣ 2 ^ n - 1"), ("(n : ℕ) : 1 = 3 ^ (2 * n) % 8", "(n : ℕ) : 8 ∣ 3 ^ (2 * n) - 1")])
        // A base that may be 0 (`0 ^ n - 1 = 0` in ℕ while `0 ^ n % 7 = 0`), modulus 1 (`b % 1 =
        // 0`), a remainder other than 1, integers, a type variable's numerals.
        .non(&["(n : ℕ) : 0 ^ n % 7 = 1", "(m n : ℕ) : m ^ n % 7 = 1", "(n : ℕ) : 2 ^ n % 1 = 1", "(n : ℕ) : 2 ^ n % 7 = 2",
               "(n : ℕ) : (2 : ℤ) ^ n % 7 = 1", "{α : Type*} (n : ℕ) : 2 ^ n % 7 = 1"]),
    // Mathlib/Algebra/Order/Field/Basic.lean (`le_div_iff₀ (hc : 0 < c) : a ≤ b / c ↔ a * c ≤
    // b`, `div_le_iff₀`, `lt_div_iff₀`, `div_lt_iff₀`) in an ordered field, and
    // Mathlib/Algebra/Group/Basic.lean (`eq_div_iff (hc : c ≠ 0) : a = b / c ↔ a * c = b`,
    // `div_eq_iff`) in a field: a positive numeral denominator at the top of a side is cleared.
    code("le_div_iff₀ / div_le_iff₀ / lt_div_iff₀ / div_lt_iff₀ / eq_div_iff / div_eq_iff", "a ≤ b / c ↔ a * c ≤ b and b / c ≤ a ↔ b ≤ a * c (so <) for a numeral c > 0 in ℚ or ℝ; a = b / c ↔ a * c = b (so ≠) in ℚ, ℝ or ℂ", denominator_cleared)
        .ex(&[("(a b : ℝ) : a * b ≤ 1 / 4", "(a b : ℝ) : a * b * 4 ≤ 1"), ("(x : ℚ) : x / 3 < x", "(x : ℚ) : x < x * 3"),
              ("(z : ℂ) : z = (z + 1) / 2", "(z : ℂ) : z * 2 = z + 1")])
        // ℕ and ℤ (`/` rounds), numerals alone (ℕ), a denominator of 0 or not a numeral, ℂ's
        // order.
        .non(&["(n : ℕ) : n ≤ 7 / 2", "(n : ℤ) : n ≤ 7 / 2", ": 1 ≤ 7 / 2", "(x : ℝ) : x ≤ 1 / 0", "(x y : ℝ) : x ≤ 1 / y",
               "(z : ℂ) : z ≤ 1 / 2"]),
    rw("Int.dvd_iff_emod_eq_zero", "a ∣ b ↔ b % a = 0 (ℤ)", "?n % ?m = 0", "?m ∣ ?n").when(&[on(&["?n % ?m", "0"], &INT)])
        .ex(&[("(n : ℤ) : n % 3 = 0", "(n : ℤ) : 3 ∣ n")])
        .non(&["(n : ℕ) : n % 3 = 0", "(x : ℝ) : x % 3 = 0", "(n : ℤ) : n % 3 = 1"]),
    rw("even_iff_two_dvd", "Even n ↔ 2 ∣ n (ℕ, ℤ)", "2 ∣ ?n", "Even ?n").when(&[on(&["2", "?n"], &DISCRETE)])
        .ex(&[("(n : ℤ) : 2 ∣ n", "(n : ℤ) : Even n")])
        .non(&["(x : ℝ) : 2 ∣ x"]),
    rw("Nat.not_even_iff_odd", "¬Even n ↔ Odd n (ℕ)", "¬ Even ?n", "Odd ?n").when(&[on(&["?n"], &NAT)])
        .ex(&[("(n : ℕ) : ¬ Even n", "(n : ℕ) : Odd n")])
        .non(&["(x : ℝ) : ¬ Even x"]),
    rw("Int.not_even_iff_odd", "¬Even n ↔ Odd n (ℤ)", "¬ Even ?n", "Odd ?n").when(&[on(&["?n"], &INT)])
        .ex(&[("(n : ℤ) : ¬ Even n", "(n : ℤ) : Odd n")])
        .non(&["(x : ℝ) : ¬ Even x", "(n : ℕ) : ¬ Even n", "(n : ℤ) : ¬ Odd n"]),
    rw("Nat.not_odd_iff_even", "¬Odd n ↔ Even n (ℕ)", "¬ Odd ?n", "Even ?n").when(&[on(&["?n"], &NAT)])
        .ex(&[("(n : ℕ) : ¬ Odd n", "(n : ℕ) : Even n")])
        .non(&["(x : ℝ) : ¬ Odd x", "(n : ℤ) : ¬ Odd n", "(n : ℕ) : ¬ Even n"]),
    rw("Int.not_odd_iff_even", "¬Odd n ↔ Even n (ℤ)", "¬ Odd ?n", "Even ?n").when(&[on(&["?n"], &INT)])
        .ex(&[("(n : ℤ) : ¬ Odd n", "(n : ℤ) : Even n")])
        .non(&["(x : ℝ) : ¬ Odd x", "(n : ℕ) : ¬ Odd n", "(n : ℤ) : ¬ Even n"]),
    // `Complex.abs : AbsoluteValue ℂ ℝ` elaborates its argument against ℂ, `‖·‖` against
    // nothing: `Complex.abs (n / 2)` with `(n : ℤ)` is `‖(↑n : ℂ) / 2‖`, `‖n / 2‖` floor
    // division's norm. Only an argument of type ℂ by itself.
    rw("Complex.norm_eq_abs", "‖z‖ = Complex.abs z", "Complex.abs ?z", "‖?z‖").when(&[on(&["?z"], &[elab::Num::Complex]), number(&["?z"])])
        .ex(&[("(z : ℂ) : Complex.abs z = 1", "(z : ℂ) : ‖z‖ = 1"), ("(f : ℂ → ℂ) (z : ℂ) : Complex.abs (f z) ≤ 1", "(f : ℂ → ℂ) (z : ℂ) : ‖f z‖ ≤ 1")])
        .non(&["(z : ℂ) : Complex.arg z = 1", "(x : ℝ) : abs x = 1", "(n : ℤ) : Complex.abs (n / 2) = 1", "(x : ℝ) : Complex.abs x = 1"]),
    rw("Real.norm_eq_abs", "‖r‖ = |r| (ℝ)", "‖?x‖", "|?x|").when(&[on(&["?x"], &REAL), number(&["?x"])])
        .ex(&[("(x : ℝ) : ‖x‖ = 1", "(x : ℝ) : |x| = 1")])
        .non(&["(z : ℂ) : ‖z‖ = 1", "(v : ℝ × ℝ) : ‖v‖ = 1", "(f : ℕ → ℝ) : ‖f‖ = 1"]),
    rw("neg_neg", "- -a = a (additive group)", "- -?a", "?a").when(&[on(&["-?a"], &GROUP), number(&["-?a"])])
        .ex(&[("(x : ℤ) : - -x = 1", "(x : ℤ) : x = 1")])
        .non(&[": - -1 = 1"]),
    rw("sub_eq_zero", "a - b = 0 ↔ a = b (additive group)", "?a - ?b = 0", "?a = ?b").when(&[on(&["?a - ?b", "0"], &GROUP), number(&["?a"]), number(&["?b"])])
        .ex(&[("(a b : ℝ) : a - b = 0", "(a b : ℝ) : a = b")])
        .non(&["(a b : ℕ) : a - b = 0", "(a b : ℝ) : a - b = 1"]),
    rw("sub_eq_zero", "a - b = 0 ↔ a = b (additive group)", "0 = ?a - ?b", "?a = ?b").when(&[on(&["0", "?a - ?b"], &GROUP), number(&["?a"]), number(&["?b"])])
        .ex(&[("(a b : ℝ) : 0 = a - b", "(a b : ℝ) : a = b")])
        .non(&["(a b : ℕ) : 0 = a - b", "(a b : ℝ) : 1 = a - b"]),
    // Mathlib/Algebra/Group/Basic.lean: `sub_eq_iff_eq_add : a - b = c ↔ a = c + b` and
    // `eq_sub_iff_add_eq : a = b - c ↔ a + c = b` in an additive group (not ℕ, where `-`
    // truncates); Mathlib/Algebra/Order/Group/Defs.lean: `sub_le_iff_le_add`,
    // `sub_lt_iff_lt_add` in an ordered one. A subtraction at the top of a side moves to the
    // other side as an addition; `0` is left to `sub_eq_zero`.
    rw("sub_eq_iff_eq_add", "a - b = c ↔ a = c + b (additive group)", "?a - ?b = ?c", "?a = ?c + ?b").when(&[on(&["?a - ?b", "?c"], &GROUP), number(&["?a"]), number(&["?b"]), no_zero_nor_difference(&["?c"])])
        .ex(&[("(x y : ℤ) : y ^ 2 - 3 * x ^ 2 = 2", "(x y : ℤ) : y ^ 2 = 2 + 3 * x ^ 2")])
        .non(&["(x y : ℕ) : y - x = 2", "(x y : ℝ) : y - x = 0", "(x p : ℝ) : x - p = 2 - 2 * p"]),
    rw("eq_sub_iff_add_eq", "a = b - c ↔ a + c = b (additive group)", "?a = ?b - ?c", "?a + ?c = ?b").when(&[on(&["?a", "?b - ?c"], &GROUP), number(&["?b"]), number(&["?c"]), no_zero_nor_difference(&["?a"])])
        .ex(&[("(x y : ℤ) : 2 = y ^ 2 - 3 * x ^ 2", "(x y : ℤ) : 2 + 3 * x ^ 2 = y ^ 2")])
        .non(&["(x y : ℕ) : 2 = y - x", "(x y : ℝ) : 0 = y - x", "(x p : ℝ) : 2 - 2 * p = x - p"]),
    rw("sub_eq_iff_eq_add (≠)", "a - b ≠ c ↔ a ≠ c + b (additive group)", "?a - ?b ≠ ?c", "?a ≠ ?c + ?b").when(&[on(&["?a - ?b", "?c"], &GROUP), number(&["?a"]), number(&["?b"]), no_zero_nor_difference(&["?c"])])
        .ex(&[("(x y : ℤ) : y ^ 2 - 3 * x ^ 2 ≠ 2", "(x y : ℤ) : y ^ 2 ≠ 2 + 3 * x ^ 2")])
        .non(&["(x y : ℕ) : y - x ≠ 2"]),
    rw("eq_sub_iff_add_eq (≠)", "a ≠ b - c ↔ a + c ≠ b (additive group)", "?a ≠ ?b - ?c", "?a + ?c ≠ ?b").when(&[on(&["?a", "?b - ?c"], &GROUP), number(&["?b"]), number(&["?c"]), no_zero_nor_difference(&["?a"])])
        .ex(&[("(x y : ℤ) : 2 ≠ y ^ 2 - 3 * x ^ 2", "(x y : ℤ) : 2 + 3 * x ^ 2 ≠ y ^ 2")])
        .non(&["(x y : ℕ) : 2 ≠ y - x"]),
    rw("sub_ne_zero", "a - b ≠ 0 ↔ a ≠ b (additive group)", "?a - ?b ≠ 0", "?a ≠ ?b").when(&[on(&["?a - ?b", "0"], &GROUP), number(&["?a"]), number(&["?b"])])
        .ex(&[("(a b : ℂ) : a - b ≠ 0", "(a b : ℂ) : a ≠ b")])
        .non(&["(a b : ℕ) : a - b ≠ 0", "(a b : ℂ) : a - b ≠ 1"]),
    rw("sub_ne_zero", "a - b ≠ 0 ↔ a ≠ b (additive group)", "0 ≠ ?a - ?b", "?a ≠ ?b").when(&[on(&["0", "?a - ?b"], &GROUP), number(&["?a"]), number(&["?b"])])
        .ex(&[("(a b : ℂ) : 0 ≠ a - b", "(a b : ℂ) : a ≠ b")])
        .non(&["(a b : ℕ) : 0 ≠ a - b", "(a b : ℂ) : 1 ≠ a - b"]),
    rw("sub_eq_add_neg", "a - b = a + -b (additive group)", "?a + -?b", "?a - ?b").when(&[on(&["?a", "-?b"], &GROUP), number(&["?a"]), number(&["-?b"])])
        .ex(&[("(a b : ℝ) : a + -b = 1", "(a b : ℝ) : a - b = 1")])
        .non(&["(a b : ℕ) : a + -b = 1", "(a : ℝ) : a + -1 = 1"]),
    rw("sub_eq_neg_add", "a - b = -b + a (additive commutative group)", "-?b + ?a", "?a - ?b").when(&[on(&["-?b", "?a"], &GROUP), number(&["?a"]), number(&["-?b"])])
        .ex(&[("(a b : ℝ) : -b + a = 1", "(a b : ℝ) : a - b = 1"), ("(x y : ℚ) : -y + x < 0", "(x y : ℚ) : x - y < 0")])
        .non(&["(a b : ℕ) : -b + a = 1", "(a : ℝ) : -1 + a = 1", "(M : Matrix (Fin 2) (Fin 2) ℝ) (N : Matrix (Fin 2) (Fin 2) ℝ) : -N + M = 1"]),
    rw("two_mul", "2 * a = a + a (numbers)", "?a + ?a", "2 * ?a").when(&[on(&["?a", "?a"], &NUMBERS), number(&["?a"])])
        .ex(&[("(x : ℝ) : x + x = 1", "(x : ℝ) : 2 * x = 1")])
        .non(&["(f : ℕ → ℕ) : f + f = f", "(x : α) : x + x = x"]),
    // `two_mul [NonAssocSemiring α] : 2 * a = a + a` (Mathlib/Algebra/Ring/Defs.lean); a unital
    // (semi)ring instance gives it, and `2 : R` through `OfNat R 2` (`NatCast R`).
    rw("two_mul", "2 * a = a + a ([NonAssocSemiring α], Mathlib/Algebra/Ring/Defs.lean)", "?a + ?a", "2 * ?a").when(&[unital_ring(&["?a"])])
        .ex(&[("{R : Type*} [Ring R] (x : R) : x + x = 0", "{R : Type*} [Ring R] (x : R) : 2 * x = 0")])
        // An additive group (no `2`), a monoid, no instance, a compound term.
        .non(&["{G : Type*} [AddGroup G] (x : G) : x + x = 0", "{M : Type*} [Monoid M] (x : M) : x + x = x", "(x : α) : x + x = x", "{R : Type*} [Ring R] (x y : R) : x * y + x * y = 0"]),
    rw("one_mul", "1 * a = a (numbers)", "1 * ?b", "?b").when(&[on(&["1", "?b"], &NUMBERS), number(&["?b"]), not_numeral(&["?b"])])
        .ex(&[("(x : ℝ) : 1 * x = 2", "(x : ℝ) : x = 2")])
        .non(&["(A : Matrix (Fin 2) (Fin 2) ℝ) : 1 * A = A", ": 1 * 3 = 3"]),
    rw("mul_one", "a * 1 = a (numbers)", "?a * 1", "?a").when(&[on(&["?a", "1"], &NUMBERS), number(&["?a"]), not_numeral(&["?a"])])
        .ex(&[("(x : ℝ) : x * 1 = 2", "(x : ℝ) : x = 2")])
        .non(&["(x : ℝ) : 1 * x = 2", "(x : ℝ) : x * 2 = 2", "(x : ℝ) : x + 1 = 2"]),
    rw("sq", "a ^ 2 = a * a (any monoid)", "?a * ?a", "?a ^ 2").when(&[monoid(&["?a"])])
        .ex(&[("(x : ℝ) : x * x = 2", "(x : ℝ) : x ^ 2 = 2"), ("(G : Type*) [Group G] (x : G) : x * x = 1", "(G : Type*) [Group G] (x : G) : x ^ 2 = 1"),
              ("(A : Matrix (Fin 2) (Fin 2) ℝ) : A * A = 1", "(A : Matrix (Fin 2) (Fin 2) ℝ) : A ^ 2 = 1"),
              ("(G : Type*) [Group G] (a b : G) : a * b * (a * b) = 1", "(G : Type*) [Group G] (a b : G) : (a * b) ^ 2 = 1"),
              ("{R : Type*} [CommRing R] (a b : R) : (a + b) * (a + b) = a * a", "{R : Type*} [CommRing R] (a b : R) : (a + b) ^ 2 = a ^ 2"),
              ("{R : Type*} [Ring R] (a : R) : (a - 1) * (a - 1) = 0", "{R : Type*} [Ring R] (a : R) : (a - 1) ^ 2 = 0")])
        // A bare `[Mul G]`, an unknown type, functions, a matrix over an index of unknown
        // finiteness or of two indices.
        .non(&["(G : Type*) [Mul G] (x : G) : x * x = x", "(x : α) : x * x = x", "(f : ℕ → ℕ) : f * f = f",
               "(ι : Type) (A : Matrix ι ι ℝ) : A * A = 1", "(A : Matrix (Fin 2) (Fin 3) ℝ) : A * A = A",
               // A product over a bare `[Mul G]`, or with a factor of unknown type.
               "(G : Type*) [Mul G] (a b : G) : a * b * (a * b) = a", "(G : Type*) [Group G] (a : G) (b : α) : a * b * (a * b) = a",
               // A sum where `+` may be another class's, or `-` is none (a semiring), or of
               // two types; a sum in a group (no ring).
               "{R : Type*} [CommRing R] [Add R] (a b : R) : (a + b) * (a + b) = a", "{R : Type*} [Semiring R] (a b : R) : (a - b) * (a - b) = a",
               "{R S : Type*} [CommRing R] [CommRing S] (a : R) (b : S) : (a + b) * (a + b) = a", "(G : Type*) [AddGroup G] [Mul G] (a b : G) : (a + b) * (a + b) = a"]),
    // `pow_succ (a : M) (n : ℕ) : a ^ (n + 1) = a ^ n * a` and `pow_succ' : a ^ (n + 1) = a * a ^ n`
    // (Mathlib/Algebra/Group/Defs.lean), for the numeral exponents `sq` leaves.
    rw("pow_succ", "a ^ 2 * a = a ^ 3 (any monoid)", "?a ^ 2 * ?a", "?a ^ 3").when(&[monoid(&["?a"])])
        .ex(&[("(x : ℝ) (h : x ^ 2 * x = 27) : x = 3", "(x : ℝ) (h : x ^ 3 = 27) : x = 3")])
        .non(&["(G : Type*) [Mul G] [Pow G ℕ] (x : G) : x ^ 2 * x = x", "(x : α) : x ^ 2 * x = x"]),
    rw("pow_succ'", "a * a ^ 2 = a ^ 3 (any monoid)", "?a * ?a ^ 2", "?a ^ 3").when(&[monoid(&["?a"])])
        .ex(&[("(x : ℤ) : x * x ^ 2 = 8", "(x : ℤ) : x ^ 3 = 8")])
        .non(&["(G : Type*) [Mul G] [Pow G ℕ] (x : G) : x * x ^ 2 = x"]),
    rw("pow_succ", "a ^ 3 * a = a ^ 4 (any monoid)", "?a ^ 3 * ?a", "?a ^ 4").when(&[monoid(&["?a"])])
        .ex(&[("(x : ℚ) : x ^ 3 * x = 16", "(x : ℚ) : x ^ 4 = 16")])
        .non(&["(x : α) : x ^ 3 * x = x"]),
    // Numerals alone are of the type their relation gives them (`elab::numeral_context`).
    rw("inv_eq_one_div", "a⁻¹ = 1 / a (numerals, at the field type of their relation)", "?a⁻¹", "1 / ?a").when(&[numerals_at(&FIELD)])
        .ex(&[("(q : ℚ) : q = 2 * 3⁻¹", "(q : ℚ) : q = 2 * (1 / 3)"), ("(x : ℝ) (h : 2⁻¹ < x) : x < 1", "(x : ℝ) (h : 1 / 2 < x) : x < 1")])
        .non(&["(n : ℕ) : n = 3⁻¹", "(x : ℝ) (f : ℝ → ℝ) : f 3⁻¹ = x", "(x : ℝ) : x ^ 2⁻¹ = x", ": 2 = 3⁻¹ * 6",
               "(A : Matrix (Fin 2) (Fin 2) ℝ) : A = 3⁻¹",
               // Wrapping types: `ZMod 4` is no field, and `2⁻¹` there is not `1 / 2`'s inverse.
               "(x : ZMod 4) : x = 2 * 3⁻¹", "(x : Fin 5) : x = 3⁻¹"]),
    rw("div_eq_mul_inv", "a / b = a * b⁻¹ (numerals, at the field type of their relation; b⁻¹ written 1 / b)", "?a * (1 / ?b)", "?a / ?b").when(&[numerals_at(&FIELD)])
        .ex(&[("(q : ℚ) : q = 2 * (1 / 3)", "(q : ℚ) : q = 2 / 3")])
        .non(&["(n : ℕ) : n = 2 * (1 / 3)", "(x : ℝ) (f : ℝ → ℝ) : f (2 * (1 / 3)) = x", ": 2 * (1 / 3) = 0",
               "(k : ℤ) : k = 2 * (1 / 3)", "(x : ZMod 7) : x = 2 * (1 / 3)"]),
    rw("div_eq_mul_inv", "a / b = a * b⁻¹ (field; b⁻¹ written 1 / b)", "?a * (1 / ?b)", "?a / ?b").when(&[on(&["?a", "1 / ?b"], &FIELD), number(&["?a"]), number(&["1 / ?b"])])
        .ex(&[("(a b : ℝ) : a * (1 / b) = 1", "(a b : ℝ) : a / b = 1")])
        .non(&["(a b : ℤ) : a * (1 / b) = 1"]),
    rw("div_eq_inv_mul", "a / b = b⁻¹ * a (field; b⁻¹ written 1 / b)", "1 / ?b * ?a", "?a / ?b").when(&[on(&["1 / ?b", "?a"], &FIELD), number(&["?a"]), number(&["1 / ?b"])])
        .ex(&[("(a b : ℚ) : 1 / b * a = 1", "(a b : ℚ) : a / b = 1")])
        .non(&["(a b : ℕ) : 1 / b * a = 1"]),
    // Moves.
    // Each argument is elaborated against the parameter's type, in order: both of a known type,
    // so that swapping them changes no binder's first use (Nat.gcd_comm, Nat.lcm_comm in core's
    // Nat/Gcd.lean and Nat/Lcm.lean; Int.gcd_comm, Int.lcm_comm in Int/Gcd.lean).
    mv("Nat.gcd_comm", "Nat.gcd m n = Nat.gcd n m", "Nat.gcd ?a ?b", "Nat.gcd ?b ?a").when(&[on(&["?a", "?b"], &NAT), distinct(&["?a", "?b"])])
        .ex(&[(": Nat.gcd 180 168 = 12", ": Nat.gcd 168 180 = 12")])
        .non(&["(f : ℤ → ℕ) : ∀ x, Nat.gcd x (f x) = 1", "(a b : ℤ) : Nat.gcd a.natAbs b = 1"]),
    mv("Nat.lcm_comm", "Nat.lcm m n = Nat.lcm n m", "Nat.lcm ?a ?b", "Nat.lcm ?b ?a").when(&[on(&["?a", "?b"], &NAT), distinct(&["?a", "?b"])])
        .ex(&[("(a b : ℕ) : Nat.lcm a b = 12", "(a b : ℕ) : Nat.lcm b a = 12")])
        .non(&["(f : ℤ → ℕ) : ∀ x, Nat.lcm x (f x) = 1"]),
    mv("Int.gcd_comm", "Int.gcd m n = Int.gcd n m", "Int.gcd ?a ?b", "Int.gcd ?b ?a").when(&[on(&["?a", "?b"], &INT), distinct(&["?a", "?b"])])
        .ex(&[("(a b : ℤ) : Int.gcd a b = 1", "(a b : ℤ) : Int.gcd b a = 1")])
        .non(&["(f : ℕ → ℤ) : ∀ x, Int.gcd x (f x) = 1"]),
    mv("add_comm", "a + b = b + a (commutative: ℕ ℤ ℚ ℝ ℂ at this node)", "?a + ?b", "?b + ?a").when(&[commutes(true), distinct(&["?a", "?b"])])
        .ex(&[("(x y : ℝ) : x + y = 1", "(x y : ℝ) : y + x = 1")])
        .non(&["(A B : Matrix (Fin 2) (Fin 2) ℝ) : A + B = 1", "(x y : α) : x + y = 1"]),
    mv("mul_comm", "a * b = b * a (commutative: ℕ ℤ ℚ ℝ ℂ at this node)", "?a * ?b", "?b * ?a").when(&[commutes(false), distinct(&["?a", "?b"])])
        .ex(&[("(x y : ℕ) : x * y = 1", "(x y : ℕ) : y * x = 1"), ("(x : ℝ) (y : ℚ) : x * y = 1", "(x : ℝ) (y : ℚ) : y * x = 1"),
              // Naturals whatever the group (Mathlib/GroupTheory/Index.lean: `index : ℕ`).
              ("(G : Type*) [Group G] (H K : Subgroup G) : Subgroup.index H * Subgroup.index K = 2", "(G : Type*) [Group G] (H K : Subgroup G) : Subgroup.index K * Subgroup.index H = 2")])
        .non(&["(A B : Matrix (Fin 2) (Fin 2) ℝ) : A * B = 1", "(G : Type*) [Group G] (a b : G) : a * b = 1", ": !![1, 2; 3, 4] * !![5, 0; 0, 1] = 1",
               // A bound name shadows the declaration.
               "(G : Type*) [Group G] (orderOf : G → G) (a b : G) : orderOf a * orderOf b = 1",
               // One operand of a number type, the other of a type variable: no known carrier.
               "{M : Type*} [Mul M] [Coe ℕ M] (a : M) (n : ℕ) : a * n = a"]),
    mv("add_assoc", "a + b + c = a + (b + c) (AddSemigroup)", "(?a + ?b) + ?c", "?a + (?b + ?c)").when(&[associative(&["?a", "?b", "?c"], true)])
        .non(&["(a b c : Float) : a + b + c = 0", "{M : Type*} [Add M] (a b c : M) : a + b + c = a"])
        .ex(&[("(x y z : ℝ) : x + y + z = 1", "(x y z : ℝ) : x + (y + z) = 1")]),
    mv("← add_assoc", "a + (b + c) = a + b + c (AddSemigroup)", "?a + (?b + ?c)", "(?a + ?b) + ?c").when(&[associative(&["?a", "?b", "?c"], true)])
        .non(&["(a b c : Float) : a + (b + c) = 0"])
        .ex(&[("(x y z : ℝ) : x + (y + z) = 1", "(x y z : ℝ) : x + y + z = 1")]),
    mv("mul_assoc", "a * b * c = a * (b * c) (Semigroup)", "(?a * ?b) * ?c", "?a * (?b * ?c)").when(&[associative(&["?a", "?b", "?c"], false)])
        .non(&["(a b c : Float) : a * b * c = 1", "{M : Type*} [Mul M] (a b c : M) : a * b * c = a", "{R : Type*} [NonUnitalNonAssocRing R] (a b c : R) : a * b * c = 0", "{R : Type*} [Semiring R] [Mul R] (a b c : R) : a * b * c = 0"])
        .ex(&[("(x y z : ℝ) : x * y * z = 1", "(x y z : ℝ) : x * (y * z) = 1")]),
    mv("← mul_assoc", "a * (b * c) = a * b * c (Semigroup)", "?a * (?b * ?c)", "(?a * ?b) * ?c").when(&[associative(&["?a", "?b", "?c"], false)])
        .non(&["{R : Type*} [NonUnitalNonAssocRing R] (a b c : R) : a * (b * c) = 0"])
        .ex(&[("(x y z : ℝ) : x * (y * z) = 1", "(x y z : ℝ) : x * y * z = 1")]),
];

/// `∃ c, b = a * c` (or `c * a`) is `a ∣ b` on ℕ and ℤ, where `Dvd.dvd a b` is defined as
/// exactly that existential and multiplication commutes: `c` must not occur in `a` or `b`, their
/// type must be ℕ or ℤ (elaboration-lite), and a written type of `c` must be that type too.
fn dvd_of_exists(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    dvd_folded(t, ctx.carriers).map(|new| ("Dvd.dvd (definition)", new))
}

/// `a ∣ b` where `t` is `∃ c, b = a * c` on ℕ or ℤ ([`dvd_of_exists`]): a hypothesis of this
/// form is folded, not curried into a witness (`exists_imp, then forall_eq` waits for it).
pub(super) fn dvd_folded(t: &Tree, carriers: &Carriers) -> Option<Tree> {
    if quantifier(t) != Some(Quant::Exists) || t.children.len() != 2 {
        return None;
    }
    let (binder, body) = (&t.children[0], &t.children[1]);
    let (c, written) = match (binder.label.as_str(), binder.children.as_slice()) {
        (EXPLICIT, [name, ty]) if is_leaf(name) => (name, Some(ty)),
        _ if is_leaf(binder) => (binder, None),
        _ => return None,
    };
    let (EQ, [b, product]) = (body.label.as_str(), body.children.as_slice()) else {
        return None;
    };
    let (MUL, [x, y]) = (product.label.as_str(), product.children.as_slice()) else {
        return None;
    };
    let a = if is_leaf(y) && y.label == c.label {
        x
    } else if is_leaf(x) && x.label == c.label {
        y
    } else {
        return None;
    };
    if mentions(a, &c.label) || mentions(b, &c.label) {
        return None;
    }
    let num = elab::carrier(&[a, b], carriers)?;
    if !DISCRETE.contains(&num) {
        return None;
    }
    if written.is_some_and(|ty| elab::num_of_type(ty) != Some(num)) {
        return None;
    }
    Some(node2(" _ ∣ _ ", a.clone(), b.clone()))
}

/// `m ^ e % n = 1` (either way round) as `n ∣ m ^ e - 1`, at ℕ, for numerals `m ≥ 1`, `n ≥ 3`.
fn remainder_one_as_dvd(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EQ, [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let one = |x: &Tree| literal(x) == Some(1);
    let rem = match (one(a), one(b)) {
        (false, true) => a,
        (true, false) => b,
        _ => return None,
    };
    let (" _ % _ ", [power, n]) = (rem.label.as_str(), rem.children.as_slice()) else {
        return None;
    };
    let (" _ ^ _ ", [m, _]) = (power.label.as_str(), power.children.as_slice()) else {
        return None;
    };
    let numerals = literal(m).is_some_and(|m| m >= 1) && literal(n).is_some_and(|n| n >= 3);
    if !numerals || elab::carrier(&[rem, a, b], ctx.carriers) != Some(elab::Num::Nat) {
        return None;
    }
    let less_one = node2(" _ - _ ", power.clone(), Tree::leaf("1"));
    Some(("Nat.modEq_iff_dvd'", node2(" _ ∣ _ ", n.clone(), less_one)))
}

/// [`RULES`]' `le_div_iff₀` and kin: `a REL b / c` as `a * c REL b`, `b / c REL a` as `b REL a *
/// c`, for a numeral `c ≥ 1` at the top of one side.
fn denominator_cleared(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    use elab::Num::{Complex, Rat, Real};
    let (relation, [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let fields: &[elab::Num] = match relation {
        " _ ≤ _ " | " _ < _ " => &[Rat, Real],
        " _ = _ " | " _ ≠ _ " => &[Rat, Real, Complex],
        _ => return None,
    };
    if !elab::carrier(&[a, b], ctx.carriers).is_some_and(|n| fields.contains(&n)) {
        return None;
    }
    let quotient = |e: &Tree| match (e.label.as_str(), e.children.as_slice()) {
        (" _ / _ ", [x, c]) if literal(c).is_some_and(|c| c >= 1) => Some((x.clone(), c.clone())),
        _ => None,
    };
    let times = |e: &Tree, c: Tree| node2(MUL, e.clone(), c);
    let name = |right: bool| match (relation, right) {
        (" _ ≤ _ ", true) => "le_div_iff₀",
        (" _ ≤ _ ", false) => "div_le_iff₀",
        (" _ < _ ", true) => "lt_div_iff₀",
        (" _ < _ ", false) => "div_lt_iff₀",
        (_, true) => "eq_div_iff",
        (_, false) => "div_eq_iff",
    };
    if let Some((x, c)) = quotient(b) {
        return Some((name(true), node2(relation, times(a, c), x)));
    }
    let (x, c) = quotient(a)?;
    Some((name(false), node2(relation, x, times(b, c))))
}
