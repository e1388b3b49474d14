//! Examples at binder level (`transted-lite`): statements that differ only by
//! a sound Lean/Mathlib equivalence must close at distance 0. The matching non-examples are in
//! tests/soundness_regressions.rs (a fix that closes everything fails there).

mod common;

use common::assert_equivalent;

#[test]
fn a_bound_function_renames_for_free() {
    assert_equivalent(
        "theorem a (f : ℝ → ℝ) (h : ∀ x, f x = 2*x) : f 1 = 2",
        "theorem a (g : ℝ → ℝ) (h : ∀ x, g x = 2*x) : g 1 = 2",
    );
    // Two functions, renamed together; a quantified one; one of two arguments.
    assert_equivalent(
        "theorem a (f g : ℕ → ℕ) (h : ∀ n, f (g n) = n) : g (f 0) = 0",
        "theorem a (u v : ℕ → ℕ) (h : ∀ n, u (v n) = n) : v (u 0) = 0",
    );
    assert_equivalent(
        "theorem a : ∀ f : ℕ → ℕ → ℕ, f 1 2 = f 1 2",
        "theorem a : ∀ g : ℕ → ℕ → ℕ, g 1 2 = g 1 2",
    );
}

#[test]
fn a_renamed_function_still_commutes_where_its_codomain_does() {
    // `add_comm` needs the type of `f x`: the codomain of the bound function.
    assert_equivalent("theorem a (f : ℝ → ℝ) : f 1 + 2 = 3", "theorem a (g : ℝ → ℝ) : 2 + g 1 = 3");
}

#[test]
fn let_functions_beta_reduce() {
    assert_equivalent(
        "theorem a (y : ℝ) : let f : ℝ → ℝ := fun x => 2 * x + 1; f y > 0",
        "theorem a (y : ℝ) : 2 * y + 1 > 0",
    );
    assert_equivalent(
        "theorem a (a b : ℕ) : let f : ℕ → ℕ → ℕ := fun x y => x + y; f a b = 3",
        "theorem a (a b : ℕ) : a + b = 3",
    );
}

#[test]
fn a_function_equation_meets_its_pointwise_form() {
    assert_equivalent(
        "theorem a (f : ℝ → ℝ) (hf : f = fun x => 2 * x) : f 3 = 6",
        "theorem a (g : ℝ → ℝ) (hg : ∀ y, g y = 2 * y) : g 3 = 6",
    );
}

#[test]
fn underscored_numerals_are_their_value() {
    assert_equivalent(
        "theorem a (n : ℕ) (h : n = 1_000_000) : n > 0",
        "theorem a (n : ℕ) (h : n = 1000000) : 0 < n",
    );
}

#[test]
fn a_truncating_value_substitutes_bare_where_no_cast_reaches_it() {
    // `x` is only used in a relation over ℕ: `y - 3` stands there as it is.
    assert_equivalent(
        "theorem a (y x : ℕ) (h : x = y - 3) : x ≥ 1",
        "theorem a (y : ℕ) : y - 3 ≥ 1",
    );
}

#[test]
fn matrix_literals_parse_as_one_term() {
    // `!![…]` is read as one term (not `!` of `!` of an unparsed span), so `eq_comm` applies.
    assert_equivalent(
        "theorem a (x : ℝ) : !![1, 2; 3, x] = !![x, 0; 0, 1]",
        "theorem a (y : ℝ) : !![y, 0; 0, 1] = !![1, 2; 3, y]",
    );
}

#[test]
fn binder_types_the_use_decides_are_elided_in_set_builders_unions_and_sums() {
    assert_equivalent(
        "theorem a (f : ℝ → ℝ) (S : Set ℝ) (h : S = {x : ℝ | f x > 0}) : S = S",
        "theorem a (f : ℝ → ℝ) (S : Set ℝ) (h : S = {x | f x > 0}) : S = S",
    );
    assert_equivalent(
        "theorem a (A : ℕ → Set ℝ) : ⋃ (n : ℕ), A n = Set.univ",
        "theorem a (A : ℕ → Set ℝ) : ⋃ n, A n = Set.univ",
    );
    assert_equivalent(
        "theorem a (f : ℕ → ℝ) (s : Finset ℕ) : ∑ i ∈ s, f i = 0",
        "theorem a (f : ℕ → ℝ) (s : Finset ℕ) : ∑ (i : ℕ) ∈ s, f i = 0",
    );
}

#[test]
fn field_notation_on_compound_receivers_of_known_type() {
    assert_equivalent(
        "theorem a (f : ℕ → ℤ) : (f 1).natAbs = 2",
        "theorem a (f : ℕ → ℤ) : Int.natAbs (f 1) = 2",
    );
    assert_equivalent(
        "theorem a (a b : ℕ) : (a + b).sqrt = 2",
        "theorem a (a b : ℕ) : Nat.sqrt (a + b) = 2",
    );
}
