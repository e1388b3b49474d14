//! False "equivalent"s, each a non-example of `transted-lite`: the two
//! statements differ in meaning, so the rewrites must not make them identical (distance > 0).
//! Beside them, examples that must still close, so that a fix by refusing everything would fail.

mod common;

use common::{assert_equivalent, assert_not_equivalent, judge_lite as judge};

#[test]
fn order_rules_on_naturals_do_not_fire_on_real_functions_written_short() {
    for f in ["exp", "sqrt", "log", "cos", "sin"] {
        assert_not_equivalent(
            &format!("open Real\ntheorem a : {f} 1 < 3"),
            &format!("open Real\ntheorem a : {f} 1 ≤ 2"),
        );
        assert_not_equivalent(
            &format!("open Real\ntheorem a (x : ℕ) (h : {f} x < 3) : x = 0"),
            &format!("open Real\ntheorem a (x : ℕ) (h : {f} x ≤ 2) : x = 0"),
        );
    }
    assert_not_equivalent("open Real\ntheorem a : sqrt 8 < 3", "open Real\ntheorem a : sqrt 8 ≤ 2");
    // Written in full, the function's type is known: still not ℕ.
    assert_not_equivalent("theorem a : Real.exp 1 < 3", "theorem a : Real.exp 1 ≤ 2");
    // On ℕ the shift is sound and still found.
    assert_equivalent(
        "theorem a (n : ℕ) (h : n < 3) : n = 0",
        "theorem a (n : ℕ) (h : n ≤ 2) : n = 0",
    );
    assert_equivalent(
        "theorem a (n : ℕ) : Nat.factorial n < 3",
        "theorem a (n : ℕ) : Nat.factorial n ≤ 2",
    );
}

#[test]
fn a_substituted_variable_keeps_its_type() {
    assert_not_equivalent(
        "theorem a (x : ℕ) (h : x = 1) : x / 2 = 0",
        "theorem a (x : ℚ) (h : x = 1) : x / 2 = 0",
    );
    assert_not_equivalent(
        "theorem a (x : ℕ) (h : x = 2) : x - 3 + 1 = 1",
        "theorem a (x : ℤ) (h : x = 2) : x - 3 + 1 = 1",
    );
    // A function known at one point keeps its codomain too.
    assert_not_equivalent(
        "theorem a (f : ℕ → ℕ) (h : f 1 = 2) : f 1 - 3 + 1 = 1",
        "theorem a (f : ℕ → ℤ) (h : f 1 = 2) : f 1 - 3 + 1 = 1",
    );
    // Same type on both sides: still the same statement.
    assert_equivalent(
        "theorem a (x : ℝ) (h : x = 2) : x + 3 = 5",
        "theorem a (y : ℝ) (h₀ : y = 2) : y + 3 = 5",
    );
}

#[test]
fn universes_are_not_erased() {
    assert_not_equivalent(
        "theorem a {α : Type} (x : α) : x = x",
        "theorem a {α : Type*} (x : α) : x = x",
    );
    assert_not_equivalent(
        "theorem a {α : Type u} (x : α) : x = x",
        "theorem a {α : Sort u} (x : α) : x = x",
    );
    assert_not_equivalent(
        "theorem a {α : Type} (x : α) : x = x",
        "theorem a {α : Type u} (x : α) : x = x",
    );
    // One shared universe is not two fresh ones.
    assert_not_equivalent(
        "theorem a {α β : Type u} (f : α → β) : f = f",
        "theorem a {α β : Type*} (f : α → β) : f = f",
    );
    // One fresh universe per binder, however written.
    assert_equivalent(
        "theorem a {α : Type u} (x : α) : x = x",
        "theorem a {α : Type*} (x : α) : x = x",
    );
    assert_equivalent(
        "theorem a {G : Type*} [Group G] (x : G) : x * x⁻¹ = 1",
        "theorem a [Group G] (x : G) : x * x⁻¹ = 1",
    );
}

#[test]
fn matrix_literals_do_not_commute() {
    assert_not_equivalent(
        "theorem a (x : ℝ) : !![1, 2; 3, 4] * !![x, 0; 0, 1] = 0",
        "theorem a (x : ℝ) : !![x, 0; 0, 1] * !![1, 2; 3, 4] = 0",
    );
}

#[test]
fn header_definitions_are_compared() {
    assert_not_equivalent(
        "noncomputable def K (n : ℕ) : ℚ := 1 / n\ntheorem a : K 2 = 1",
        "noncomputable def K (n : ℕ) : ℚ := 1 / (n + 1)\ntheorem a : K 2 = 1",
    );
    // Defined on one side only.
    assert_not_equivalent("def K (n : ℕ) : ℕ := n + 1\ntheorem a : K 2 = 3", "theorem a : K 2 = 3");
    // The same definition on both sides.
    assert_equivalent(
        "def K (n : ℕ) : ℕ := n + 1\ntheorem a : K 2 = 3",
        "def K (n : ℕ) : ℕ :=\n  n + 1\ntheorem b : K 2 = 3",
    );
}

#[test]
fn an_ambiguous_opened_name_is_not_resolved() {
    assert_not_equivalent(
        "open Subgroup Set\ntheorem a (G : Type*) [Group G] (s : Set G) : closure s = ⊤",
        "theorem a (G : Type*) [Group G] (s : Set G) : Subgroup.closure s = ⊤",
    );
    // `Nat.sqrt` is another reading of `sqrt` under `open Real Nat`.
    assert_not_equivalent(
        "open Real Nat\ntheorem a (x : ℕ) : sqrt x = 2",
        "theorem a (x : ℕ) : Real.sqrt x = 2",
    );
    // One reading: resolved.
    assert_equivalent(
        "open Real Nat Topology\ntheorem a (x : ℝ) : exp x = 2",
        "theorem a (x : ℝ) : Real.exp x = 2",
    );
}

#[test]
fn different_closed_facts_are_not_called_equivalent() {
    let r = judge("theorem a : 2^8 % 5 = 1", "theorem a : 2003 % 11 = 1");
    assert!(r.distance.is_some_and(|d| d > 0), "{:?}", r.notes);
    assert!(r.notes.iter().any(|n| n.contains("different problems")), "{:?}", r.notes);
    // The same closed fact is the same problem.
    assert_equivalent("theorem a : 2^8 % 5 = 1", "theorem b : 2^8 % 5 = 1");
}

#[test]
fn coverage_numerals_and_units() {
    // `020` is twenty.
    assert_equivalent(
        "theorem a (x : ℝ) (h : x = 2) : x * 10 = 20",
        "theorem a (x : ℝ) (h : x = 2) : x * 10 = 020",
    );
    assert_not_equivalent(
        "theorem a (x : ℝ) (h : x = 2) : x * 10 = 20",
        "theorem a (x : ℝ) (h : x = 2) : x * 10 = 0200",
    );
    // one_mul / mul_one on numbers.
    assert_equivalent(
        "theorem a (n x : ℝ) (h₀ : n + x = 97) : n + 2 * x = 139",
        "theorem a (n x : ℝ) (h₀ : n + 1 * x = 97) : n + 2 * x = 139",
    );
    assert_equivalent("theorem a (x : ℕ) : x = 3", "theorem a (x : ℕ) : x * 1 = 3");
    // Not where the type is unknown, and `1 * x` is not `x + 1`.
    assert_not_equivalent("theorem a : 1 * A = B", "theorem a : A = B");
    assert_not_equivalent("theorem a (x : ℝ) : 1 * x = 3", "theorem a (x : ℝ) : x + 1 = 3");
}

/// `add_comm`/`mul_comm` fire only where the subterm's type is a known number type
/// (elaboration-lite): a matrix, a quaternion or an auto-bound `(x : _)` does not commute.
#[test]
fn products_commute_only_at_known_commutative_types() {
    // Matrix multiplication: `A * B` and `B * A` are different matrices.
    assert_not_equivalent(
        "theorem a (A B : Matrix (Fin 2) (Fin 2) ℝ) (h : A * B = 1) : A ^ 2 = 1",
        "theorem a (A B : Matrix (Fin 2) (Fin 2) ℝ) (h : B * A = 1) : A ^ 2 = 1",
    );
    assert_not_equivalent(
        "theorem a (A B C : Matrix (Fin 2) (Fin 2) ℝ) : A * B * A = C",
        "theorem a (A B C : Matrix (Fin 2) (Fin 2) ℝ) : B * A * A = C",
    );
    // Auto-bound / elided types: unknown, so nothing commutes.
    assert_not_equivalent(
        "theorem a (x y : _) (h : x * y = 1) : y = y",
        "theorem a (x y : _) (h : y * x = 1) : y = y",
    );
    assert_not_equivalent(
        "theorem a (x y z : _) : x * y * z = z * y * x",
        "theorem a (x y z : _) : y * x * z = z * y * x",
    );
    // Quaternions are not commutative for `*`.
    assert_not_equivalent(
        "theorem a (p q : ℍ) (h : p * q = 1) : p = p",
        "theorem a (p q : ℍ) (h : q * p = 1) : p = p",
    );
    // A numeral product inside a matrix product takes the matrix type; the whole is unknown.
    assert_not_equivalent(
        "theorem a (A B : Matrix (Fin 2) (Fin 2) ℝ) : A * (B * 2) = 1",
        "theorem a (A B : Matrix (Fin 2) (Fin 2) ℝ) : A * (2 * B) = 1",
    );
    // A type known only through a class: not known here, so not commuted.
    assert_not_equivalent(
        "theorem a {G : Type*} [Group G] (a b : G) (h : a * b = 1) : a = a",
        "theorem a {G : Type*} [Group G] (a b : G) (h : b * a = 1) : a = a",
    );
    // Examples that must still close: number types and numerals defaulting to ℕ.
    assert_equivalent(
        "theorem a (x y : ℝ) (h : x * y = 1) : x + 2 * y = 3",
        "theorem a (x y : ℝ) (h : y * x = 1) : 2 * y + x = 3",
    );
    assert_equivalent(
        "theorem a (n m : ℕ) (h : n * m = 6) : n + m = 5",
        "theorem a (n m : ℕ) (h : m * n = 6) : m + n = 5",
    );
    assert_equivalent("theorem a : 2 * 3 + 1 = 7", "theorem a : 1 + 3 * 2 = 7");
}

// Binder-level coverage: each non-example pairs with an example in tests/coverage_binders.rs.

#[test]
fn a_bound_function_renames_only_consistently_and_never_into_a_constant() {
    // Into a free constant: `Real.exp` is not a variable.
    assert_not_equivalent(
        "theorem a (f : ℝ → ℝ) (h : ∀ x, f x = 2 * x) : f 1 = 2",
        "theorem a (f : ℝ → ℝ) (h : ∀ x, f x = 2 * x) : Real.exp 1 = 2",
    );
    // Two functions merged into one, or one split into two.
    assert_not_equivalent(
        "theorem a (f g : ℝ → ℝ) (h : ∀ x, f x = g x) : f 1 = 2",
        "theorem a (f g : ℝ → ℝ) (h : ∀ x, f x = f x) : g 1 = 2",
    );
    assert_not_equivalent(
        "theorem a (f : ℝ → ℝ) (h : ∀ x, f x = 2 * x) : f 1 = 2",
        "theorem a (f g : ℝ → ℝ) (h : ∀ x, f x = 2 * x) : g 1 = 2",
    );
    // Swapped roles of two bound functions.
    assert_not_equivalent(
        "theorem a (f g : ℕ → ℕ) (h : ∀ n, f (g n) = n) : g (f 0) = 0",
        "theorem a (f g : ℕ → ℕ) (h : ∀ n, g (f n) = n) : g (f 0) = 0",
    );
    // A quantified function against a theorem binder at another position.
    assert_not_equivalent(
        "theorem a (f : ℕ → ℕ) : ∀ g : ℕ → ℕ, f (g 0) = g (f 0)",
        "theorem a (f : ℕ → ℕ) : ∀ g : ℕ → ℕ, g (f 0) = g (f 0)",
    );
}

#[test]
fn substitution_keeps_casts_around_truncating_values() {
    // `↑(y - 3) ≥ 0` holds for every `y`; `(↑y - 3 : ℝ) ≥ 0` does not.
    assert_not_equivalent(
        "theorem a (y x : ℕ) (h : x = y - 3) : (x : ℝ) ≥ 0",
        "theorem a (y : ℕ) : (y - 3 : ℝ) ≥ 0",
    );
    // Against an integer, `x` is cast: `↑(y - 3) ≥ z` is not `↑y - 3 ≥ z`.
    assert_not_equivalent(
        "theorem a (y x : ℕ) (h : x = y - 3) (z : ℤ) : x ≥ z",
        "theorem a (y : ℕ) (z : ℤ) : y - 3 ≥ z",
    );
    // `let x : ℝ := y` is real: `2 * (x / 2) = x` holds, the natural `2 * (y / 2) = y` does not.
    assert_not_equivalent(
        "theorem a (y : ℕ) : let x : ℝ := y; 2 * (x / 2) = x",
        "theorem a (y : ℕ) : 2 * (y / 2) = y",
    );
}

#[test]
fn beta_reduction_keeps_the_function_types() {
    // The argument is a natural: `↑(y - 1) / 2`, not `(↑y - 1) / 2`.
    assert_not_equivalent(
        "theorem a (y : ℕ) : let f : ℕ → ℝ := fun x => x / 2; f (y - 1) ≥ 0",
        "theorem a (y : ℕ) : ((y : ℝ) - 1) / 2 ≥ 0",
    );
    // No written type: the value's own elaboration decides, so no β-step is taken.
    assert_not_equivalent(
        "theorem a : let f := fun x => x / 2; f 1 = 0",
        "theorem a : (1 : ℝ) / 2 = 0",
    );
    // Not the same body.
    assert_not_equivalent(
        "theorem a : let f : ℝ → ℝ := fun x => 2 * x; f 3 = 6",
        "theorem a : 3 * (3 : ℝ) = 6",
    );
}

#[test]
fn underscored_numerals_keep_their_value() {
    assert_not_equivalent(
        "theorem a (n : ℕ) (h : n = 1_000_000) : n > 0",
        "theorem a (n : ℕ) (h : n = 100_000) : n > 0",
    );
}

#[test]
fn matrix_literals_are_one_term_with_their_shape() {
    // A 2×2 matrix is not the 1×4 one with the same entries.
    assert_not_equivalent(
        "theorem a (x : ℝ) : !![1, 2; 3, x] = !![x, 0; 0, 1]",
        "theorem a (x : ℝ) : !![1, 2, 3, x] = !![x, 0; 0, 1]",
    );
    // Entries are compared in place: a transposed literal differs.
    assert_not_equivalent(
        "theorem a (x : ℝ) : !![1, 2; 3, x] = !![x, 0; 0, 1]",
        "theorem a (x : ℝ) : !![1, 3; 2, x] = !![x, 0; 0, 1]",
    );
}

#[test]
fn a_binder_type_stays_where_the_use_coerces() {
    // `{x : ℕ | f x > 0}` has `f ↑x`; `{x | f x > 0}` is a set of reals.
    assert_not_equivalent(
        "theorem a (f : ℝ → ℝ) : {x : ℕ | f x > 0} = ∅",
        "theorem a (f : ℝ → ℝ) : {x | f x > 0} = ∅",
    );
    // `⋃ (n : ℤ)` ranges over the integers, `⋃ n` over what `n.toNat` leaves open.
    assert_not_equivalent(
        "theorem a (A : ℕ → Set ℝ) : ⋃ (n : ℤ), A n.toNat = Set.univ",
        "theorem a (A : ℕ → Set ℝ) : ⋃ n, A n.toNat = Set.univ",
    );
    // Arithmetic with numerals alone decides nothing: `fun (x : ℝ) => x / 2` stays typed.
    assert_not_equivalent(
        "theorem a : (fun (x : ℝ) => x / 2) 1 = 0",
        "theorem a : (fun x => x / 2) 1 = 0",
    );
}

#[test]
fn field_notation_follows_the_receivers_type() {
    // `(a + b).sqrt` on naturals is `Nat.sqrt`, not `Real.sqrt`.
    assert_not_equivalent(
        "theorem a (a b : ℕ) : (a + b).sqrt = 2",
        "theorem a (a b : ℕ) : Real.sqrt (a + b) = 2",
    );
    // A receiver of unknown type is not unfolded at all.
    assert_not_equivalent(
        "theorem a (f : ℕ → ℤ) : (g 1).natAbs = 2",
        "theorem a (f : ℕ → ℤ) : Int.natAbs (f 1) = 2",
    );
}

#[test]
fn an_ascribed_numeral_keeps_the_binder_type_it_fixes() {
    // `(x : _)` with numerals is ℕ: `1 ≤ x` follows from `0 < x` there, not over ℝ.
    assert_not_equivalent(
        "theorem a (x : _) (h : 0 < x) : 1 ≤ x",
        "theorem a (x : ℝ) (h : (0 : ℝ) < x) : 1 ≤ x",
    );
    assert_not_equivalent(
        "theorem a (x : _) (h : 0 < x) : 1 ≤ x",
        "theorem a (x : ℝ) (h : x ∈ Set.Ioi (0 : ℝ)) : 1 ≤ x",
    );
    assert_not_equivalent(
        "theorem a : ∀ x, 0 < x → 1 ≤ x",
        "theorem a : ∀ x : ℝ, (0 : ℝ) < x → 1 ≤ x",
    );
    // Where the binder's written type stays, the ascription changes nothing.
    assert_equivalent(
        "theorem a (x : ℝ) (h : 0 < x) : 1 ≤ x",
        "theorem a (x : ℝ) (h : (0 : ℝ) < x) : 1 ≤ x",
    );
    assert_equivalent(
        "theorem a (a b : ℤ) (h : a ≡ b [ZMOD 5]) : a ^ 2 ≡ b ^ 2 [ZMOD 5]",
        "theorem a (a b : ℤ) (h : (5 : ℤ) ∣ b - a) : (5 : ℤ) ∣ b ^ 2 - a ^ 2",
    );
}

#[test]
fn a_fact_found_by_unification_stays_an_instance() {
    // `ZMod (p + 0)` is a field through `[Fact p.Prime]` (`p + 0 =?= p` by `Nat` offsets); a
    // bare hypothesis gives no instance, so `/` there is not the field's.
    assert_not_equivalent(
        "theorem a (p : ℕ) [Fact p.Prime] (x : ZMod (p + 0)) (h : x ≠ 0) : x / x = 1",
        "theorem a (p : ℕ) (hp : p.Prime) (x : ZMod (p + 0)) (h : x ≠ 0) : x / x = 1",
    );
    // Where nothing takes the instance, it is the hypothesis it wraps, also after `forall_eq`.
    assert_equivalent(
        "theorem a {G : Type*} [Group G] [Fintype G] (p : ℕ) [Fact p.Prime] (h : Fintype.card G = p) : IsCyclic G",
        "theorem a {p : ℕ} (hp : p.Prime) {G : Type*} [Group G] [Fintype G] (h : Fintype.card G = p) : IsCyclic G",
    );
}
