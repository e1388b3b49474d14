//! End-to-end tests of the typed rules (`typed`): statements whose canonical forms meet only on
//! the carriers a lemma holds on, and the numeral-bound moves.

use super::canonicalize;
use super::typed::bound_shifts;
use super::Carriers;
use crate::distance::{ted, CostModel};
use crate::trees::parse::{parse_statement, Header};
use crate::trees::Tree;

fn canon(text: &str) -> (Tree, Vec<&'static str>) {
    let t = parse_statement(text, &Header::default())
        .unwrap_or_else(|e| panic!("test statement does not parse: {e}: {text}"))
        .tree;
    let (c, log) = canonicalize(&t);
    (c, log.iter().map(|a| a.rule).collect())
}

fn distance(a: &str, b: &str) -> u32 {
    ted(&canon(a).0, &canon(b).0, CostModel { free_rename: true })
}

fn same(a: &str, b: &str) {
    assert_eq!(distance(a, b), 0, "expected equal canonical forms:\n{a}\n{b}");
}

fn differ(a: &str, b: &str) {
    assert!(distance(a, b) > 0, "must stay apart:\n{a}\n{b}");
}

fn uses(text: &str, rule: &str) -> bool {
    canon(text).1.contains(&rule)
}

#[test]
fn negated_orders_flip_on_linear_orders_only() {
    same("theorem t (x : ℝ) : ¬ (x < 2)", "theorem t (x : ℝ) : 2 ≤ x");
    same("theorem t (n : ℤ) : ¬ (n ≤ 2)", "theorem t (n : ℤ) : 2 < n");
    same("theorem t (x : ℚ) (h : ¬ x ≥ 1) : x = 0", "theorem t (x : ℚ) (h : x < 1) : x = 0");
    // Sets, complex numbers, type variables and functions are only partially ordered.
    assert!(!uses("theorem t (A B : Set ℕ) : ¬ (A < B)", "not_lt"));
    assert!(!uses("theorem t (z : ℂ) : ¬ (z ≤ 1)", "not_le"));
    assert!(!uses("theorem t (α : Type*) [Preorder α] (a b : α) : ¬ (a < b)", "not_lt"));
    assert!(!uses("theorem t (f g : ℕ → ℝ) : ¬ (f ≤ g)", "not_le"));
    // The values of a function are in its codomain: fine.
    assert!(uses("theorem t (f : ℕ → ℝ) : ¬ (f 1 ≤ 2)", "not_le"));
    // Sets built inline are not numbers, whatever the binders say.
    assert!(!uses("theorem t (n : ℕ) : ¬ (Finset.range n < Finset.range 4)", "not_lt"));
    assert!(!uses("theorem t (n : ℕ) : Nat.divisors n ≠ 0", "Nat.pos_iff_ne_zero"));
    assert!(uses("theorem t (n : ℕ) : ¬ ((Finset.range n).card + Nat.gcd n 2 < 4)", "not_lt"));
    // `¬ a < b` is not `a ≥ b` turned around.
    differ("theorem t (x : ℝ) : ¬ (x < 2)", "theorem t (x : ℝ) : x ≤ 2");
}

#[test]
fn strict_and_weak_bounds_meet_on_naturals_and_integers_only() {
    same("theorem t (n : ℕ) (h : 0 < n) : n = n", "theorem t (n : ℕ) (h : n ≠ 0) : n = n");
    same("theorem t (n : ℕ) (h : n ≥ 1) : n = n", "theorem t (n : ℕ) (h : n > 0) : n = n");
    same("theorem t (a b : ℤ) : a + 1 ≤ b", "theorem t (a b : ℤ) : a < b");
    same("theorem t (a b : ℕ) : a < b + 1", "theorem t (a b : ℕ) : a ≤ b");
    same("theorem t (n : ℕ) : ¬ (n = 0)", "theorem t (n : ℕ) : 0 < n");
    // On ℤ, `n ≠ 0` is not `0 < n`; on ℝ, `1 ≤ x` is not `0 < x`.
    differ("theorem t (n : ℤ) : n ≠ 0", "theorem t (n : ℤ) : 0 < n");
    differ("theorem t (x : ℝ) : 1 ≤ x", "theorem t (x : ℝ) : 0 < x");
    differ("theorem t (x : ℝ) : x ≤ 9", "theorem t (x : ℝ) : x < 10");
    differ("theorem t (x : ℚ) : x + 1 ≤ y", "theorem t (x : ℚ) : x < y");
    // Per subterm: `n ≠ 0` is about a natural even where the statement also mentions ℝ.
    assert!(uses("theorem t (n : ℕ) (x : ℝ) : n ≠ 0", "Nat.pos_iff_ne_zero"));
    assert!(!uses("theorem t (n : ℕ) : 1 ≤ (n : ℝ)", "Nat.succ_le_iff"));
    assert!(!uses("theorem t (n : ℕ) : 1 ≤ ↑n", "Nat.succ_le_iff"));
    // ℕ subtraction and numerals: `a - b = 0` is not `a = b` there.
    assert!(!uses("theorem t (a b : ℕ) : a - b = 0", "sub_eq_zero"));
    // Numerals alone are natural numbers.
    assert!(uses("theorem t : ¬ (2 = 0)", "Nat.pos_iff_ne_zero"));
}

/// The rules and results of the numeral-bound moves on the conclusion of `text`.
fn shifts(text: &str) -> Vec<(&'static str, Tree)> {
    let (t, _) = canon(text);
    let list = &t.children[0];
    let concl = list.children.last().expect("a conclusion");
    bound_shifts(concl, &Carriers::of(&t))
}

#[test]
fn numeral_bounds_shift_by_one_as_moves_on_naturals_and_integers() {
    let target = |text: &str| canon(text).0.children[0].children.last().cloned();
    let two_le = shifts("theorem t (n : ℤ) : 2 ≤ n");
    assert_eq!(two_le.len(), 1, "{two_le:?}");
    assert_eq!(two_le[0].0, "Int.lt_iff_add_one_le");
    assert_eq!(Some(two_le[0].1.clone()), target("theorem t (n : ℤ) : 1 < n"));
    let le_nine = shifts("theorem t (n : ℕ) : n ≤ 9");
    assert_eq!(le_nine[0].0, "Nat.lt_add_one_iff");
    assert_eq!(Some(le_nine[0].1.clone()), target("theorem t (n : ℕ) : n < 10"));
    // Every shift has its inverse.
    let back = shifts("theorem t (n : ℕ) : n < 10");
    assert!(back.iter().any(|(_, t)| Some(t.clone()) == target("theorem t (n : ℕ) : n ≤ 9")));
    // Not on ℝ or ℚ (`x ≤ 9` is not `x < 10`), not `x < 0` to `x ≤ -1`.
    assert!(shifts("theorem t (x : ℝ) : x ≤ 9").is_empty());
    assert!(shifts("theorem t (x : ℚ) : 2 ≤ x").is_empty());
    assert!(shifts("theorem t (n : ℕ) : n < 0").is_empty());
}

#[test]
fn differences_compare_as_their_operands_in_groups_not_on_naturals() {
    same("theorem t (a b : ℝ) : 0 ≤ a - b", "theorem t (a b : ℝ) : b ≤ a");
    same("theorem t (a b : ℤ) : 0 < a - b", "theorem t (a b : ℤ) : b < a");
    same("theorem t (a b : ℚ) : a - b ≤ 0", "theorem t (a b : ℚ) : a ≤ b");
    same("theorem t (a b : ℝ) : a - b < 0", "theorem t (a b : ℝ) : a < b");
    same("theorem t (a b : ℂ) : a - b = 0", "theorem t (a b : ℂ) : a = b");
    same("theorem t (a b : ℝ) : a - b ≠ 0", "theorem t (a b : ℝ) : a ≠ b");
    // ℕ subtraction truncates: `0 ≤ a - b` always holds, `a - b = 0` is `a ≤ b`.
    differ("theorem t (a b : ℕ) : 0 ≤ a - b", "theorem t (a b : ℕ) : b ≤ a");
    differ("theorem t (a b : ℕ) : a - b = 0", "theorem t (a b : ℕ) : a = b");
    // ℂ is not linearly ordered.
    assert!(!uses("theorem t (a b : ℂ) : 0 ≤ a - b", "sub_nonneg"));
    // Not the other operand order (a numeral, since bound names rename freely).
    same("theorem t (a : ℝ) : 0 ≤ a - 2", "theorem t (a : ℝ) : 2 ≤ a");
    differ("theorem t (a : ℝ) : 0 ≤ a - 2", "theorem t (a : ℝ) : a ≤ 2");
}

#[test]
fn ring_identities_on_numbers() {
    same("theorem t (x : ℝ) : x * x = 4", "theorem t (x : ℝ) : x ^ 2 = 4");
    same("theorem t (n : ℕ) : n + n = 4", "theorem t (n : ℕ) : 2 * n = 4");
    same("theorem t (a b : ℤ) : a + -b = 4", "theorem t (a b : ℤ) : a - b = 4");
    same("theorem t (a : ℝ) : - -a = 4", "theorem t (a : ℝ) : a = 4");
    same("theorem t (a b : ℝ) : a * b⁻¹ = 4", "theorem t (a b : ℝ) : a / b = 4");
    same("theorem t (a b : ℚ) : b⁻¹ * a = 4", "theorem t (a b : ℚ) : a / b = 4");
    // ℕ and ℤ division is floor division: `a * (1 / b)` is not `a / b`.
    differ("theorem t (a b : ℕ) : a * (1 / b) = 4", "theorem t (a b : ℕ) : a / b = 4");
    differ("theorem t (a b : ℤ) : a * (1 / b) = 4", "theorem t (a b : ℤ) : a / b = 4");
    // Different operands are not squared; `x ^ 3` is not `x * x`.
    differ("theorem t (x y : ℝ) : x * y = 4", "theorem t (x y : ℝ) : x ^ 2 = 4");
    differ("theorem t (x : ℝ) : x * x = 4", "theorem t (x : ℝ) : x ^ 3 = 4");
    // Matrices and other types keep what they wrote.
    assert!(!uses("theorem t (A : Matrix (Fin 2) (Fin 2) ℝ) : A + A = 0", "two_mul"));
    // Sets built inline: `s + s` is not `2 * s` pointwise.
    assert!(!uses(
        "theorem t (n : ℕ) : Finset.range n + Finset.range n = Finset.range n",
        "two_mul"
    ));
}

#[test]
fn memberships_unfold() {
    same(
        "theorem t (x : ℕ) (h : x ∈ Finset.Icc 1 9) : x = x",
        "theorem t (x : ℕ) (h₀ : 1 ≤ x) (h₁ : x ≤ 9) : x = x",
    );
    same("theorem t (x : ℝ) : x ∈ Set.Ioo 0 1", "theorem t (x : ℝ) : 0 < x ∧ x < 1");
    same("theorem t (x : ℝ) : x ∈ Set.Ico 0 1", "theorem t (x : ℝ) : 0 ≤ x ∧ x < 1");
    same("theorem t (x : ℝ) : x ∈ Set.Ioc 0 1", "theorem t (x : ℝ) : 0 < x ∧ x ≤ 1");
    // A short `Ioc` is Mathlib's only once a header's `open Set` resolves it.
    differ("theorem t (x : ℝ) : x ∈ Ioc 0 1", "theorem t (x : ℝ) : 0 < x ∧ x ≤ 1");
    // `n ∈ Set.Ico (0 : ℝ) 1` is `↑n ∈ …`: unfolded, `n < 1` would be read at ℕ.
    differ("theorem t (n : ℕ) : n ∈ Set.Ico (0 : ℝ) 1", "theorem t (n : ℕ) : (0 : ℝ) ≤ n ∧ n < 1");
    same("theorem t (x : ℝ) : x ∈ Set.Ioi 0", "theorem t (x : ℝ) : 0 < x");
    same("theorem t : ∀ n ∈ Finset.range 5, n ^ 2 < 30", "theorem t : ∀ n, n < 5 → n ^ 2 < 30");
    same(
        "theorem t (x : ℝ) : x ∈ {y : ℝ | 0 < y ∧ y ^ 2 = 2}",
        "theorem t (x : ℝ) : 0 < x ∧ x ^ 2 = 2",
    );
    // Open and closed ends differ; `range` of a function is an image, not `< n`.
    differ("theorem t (x : ℝ) : x ∈ Set.Icc 0 1", "theorem t (x : ℝ) : 0 < x ∧ x < 1");
    assert!(!uses("theorem t (f : ℕ → ℕ) (y : ℕ) : y ∈ range f", "Finset.mem_range"));
    // Substituting would capture the bound `k`.
    assert!(!uses("theorem t (k : ℕ) : k ∈ {n : ℕ | ∃ k, n = 2 * k + 1}", "Set.mem_setOf_eq"));
}

#[test]
fn tuple_equations_split_componentwise() {
    same("theorem t (x y : ℕ) : (x, y) = (1, 2)", "theorem t (x y : ℕ) : x = 1 ∧ y = 2");
    same(
        "theorem t (x y z : ℕ) : (x, y, z) = (1, 2, 3)",
        "theorem t (x y z : ℕ) : x = 1 ∧ y = 2 ∧ z = 3",
    );
    // Components pair up in order; tuples of other lengths are left alone.
    differ("theorem t (x y : ℕ) : (x, y) = (1, 2)", "theorem t (x y : ℕ) : x = 2 ∧ y = 1");
    assert!(!uses("theorem t (x y : ℕ) (p : ℕ × ℕ × ℕ) : (x, y) = p", "Prod.mk.injEq"));
}

#[test]
fn dot_notation_names_the_namespace_of_the_receivers_type() {
    same(
        "theorem t (p : ℕ) (hp : p.Prime) : p.gcd 4 = 1",
        "theorem t (p : ℕ) (hp : Nat.Prime p) : Nat.gcd p 4 = 1",
    );
    same(
        "theorem t (H : Subgroup G) (h : H.Normal) : H = H",
        "theorem t (H : Subgroup G) (h : Subgroup.Normal H) : H = H",
    );
    same(
        "theorem t (f : ℝ → ℝ) (h : f.Injective) : f 1 = 1",
        "theorem t (f : ℝ → ℝ) (h : Function.Injective f) : f 1 = 1",
    );
    // The namespace comes from the type: `p.Prime` on ℤ is `Int.Prime`, not `Nat.Prime`.
    differ(
        "theorem t (p : ℤ) (hp : p.Prime) : p = p",
        "theorem t (p : ℤ) (hp : Nat.Prime p) : p = p",
    );
    // Arguments after the receiver only on numbers: `s.image f` is `Set.image f s`.
    assert!(!uses("theorem t (s : Set ℕ) (f : ℕ → ℕ) : s.image f = s", "dot notation"));
    // A receiver of unknown type (a type variable, a compound term) is left alone.
    assert!(!uses("theorem t (a : G) : a.IsUnit", "dot notation"));
    // A receiver whose type is a known function's result.
    same(
        "theorem t (n : ℕ) : (Nat.digits 10 n).sum = 9",
        "theorem t (n : ℕ) : List.sum (Nat.digits 10 n) = 9",
    );
    same(
        "theorem t (n : ℕ) : (Finset.range n).sum (fun i => i) = 9",
        "theorem t (n : ℕ) : Finset.sum (Finset.range n) (fun i => i) = 9",
    );
    // `⊓`/`⊔` keep their operands' type; mixed operands say nothing.
    same(
        "theorem t (H K : Subgroup G) : (H ⊓ K).Normal",
        "theorem t (H K : Subgroup G) : Subgroup.Normal (H ⊓ K)",
    );
    assert!(!uses("theorem t (H : Subgroup G) (K : Ideal G) : (H ⊔ K).Normal", "dot notation"));
    // Polynomials and matrices stay polynomials and matrices under `+ - *` and `^`.
    same(
        "theorem t (p q : Polynomial ℝ) : (p * q + 1).natDegree = (p ^ 2).natDegree",
        "theorem t (p q : Polynomial ℝ) : Polynomial.natDegree (p * q + 1) = Polynomial.natDegree (p ^ 2)",
    );
    // A receiver-first function with its other arguments, and an ascribed receiver.
    same(
        "theorem t (G : Type*) [Group G] (H K : Subgroup G) : (H.subgroupOf K).Normal",
        "theorem t (G : Type*) [Group G] (H K : Subgroup G) : Subgroup.Normal (Subgroup.subgroupOf H K)",
    );
    same(
        "theorem t (p : Polynomial ℚ) : ((p * p : Polynomial ℚ).coeff 2) = 0",
        "theorem t (p : Polynomial ℚ) : Polynomial.coeff (p * p : Polynomial ℚ) 2 = 0",
    );
    // Bundled maps by their notation, where the namespace's functions take them: a linear map's
    // `range`, a group hom's `ker`; a monoid hom has `mrange`/`mker` instead.
    same(
        "theorem t (V W : Type*) [AddCommGroup V] [Module ℝ V] [AddCommGroup W] [Module ℝ W] (f : V →ₗ[ℝ] W) : f.range = ⊤",
        "theorem t (V W : Type*) [AddCommGroup V] [Module ℝ V] [AddCommGroup W] [Module ℝ W] (f : V →ₗ[ℝ] W) : LinearMap.range f = ⊤",
    );
    same(
        "theorem t (G H : Type*) [Group G] [Group H] (f : G →* H) : f.ker = ⊥",
        "theorem t (G H : Type*) [Group G] [Group H] (f : G →* H) : MonoidHom.ker f = ⊥",
    );
    assert!(!uses(
        "theorem t (M N : Type*) [Monoid M] [Monoid N] (f : M →* N) : f.range = ⊤",
        "dot notation"
    ));
    assert!(!uses(
        "theorem t (R S : Type*) [Semiring R] [Semiring S] (f : R →+* S) : f.range = ⊤",
        "dot notation"
    ));
    // `roots` needs a domain: read over ℝ, not over ℕ.
    same(
        "theorem t (p : Polynomial ℝ) : (Polynomial.roots p).card ≤ 2",
        "theorem t (p : Polynomial ℝ) : Multiset.card (Polynomial.roots p) ≤ 2",
    );
    assert!(!uses("theorem t (p : Polynomial ℕ) : (Polynomial.roots p).card ≤ 2", "dot notation"));
    // Over a field of the statement's own, and not over a ring with no domain class.
    same(
        "theorem t {K : Type*} [Field K] (p : Polynomial K) : (Polynomial.roots p).card ≤ 2",
        "theorem t {K : Type*} [Field K] (p : Polynomial K) : Multiset.card (Polynomial.roots p) ≤ 2",
    );
    assert!(!uses(
        "theorem t {R : Type*} [CommRing R] (p : Polynomial R) : (Polynomial.roots p).card ≤ 2",
        "dot notation"
    ));
    // `p.eval x` is `Polynomial.eval x p`: the receiver is not the first argument there.
    assert!(!uses("theorem t (p : Polynomial ℚ) (x : ℚ) : p.eval x = 0", "dot notation"));
    // Other namespaces are not read through arithmetic (`I * J` of ideals is a `Submodule`
    // product), nor a sum of two namespaces.
    assert!(!uses("theorem t (I J : Ideal R) : (I * J).IsPrime", "dot notation"));
    assert!(!uses(
        "theorem t (p : Polynomial ℝ) (A : Matrix (Fin 2) (Fin 2) ℝ) : (p * A).natDegree = 0",
        "dot notation"
    ));
}

#[test]
fn absolute_values_and_norms_by_carrier() {
    same(
        "theorem t (z : ℂ) (h : Complex.abs z = 1) : Complex.abs (1 + z) ^ 2 + Complex.abs (1 - z) ^ 2 = 4",
        "theorem t (z : ℂ) (h : ‖z‖ = 1) : ‖1 + z‖ ^ 2 + ‖1 - z‖ ^ 2 = 4",
    );
    // `|z|` needs a lattice, which ℂ has not: it does not elaborate, and is not the norm.
    differ("theorem t (z : ℂ) : |z| = 1", "theorem t (z : ℂ) : ‖z‖ = 1");
    same("theorem t (x : ℝ) : ‖x‖ = 2", "theorem t (x : ℝ) : |x| = 2");
    same("theorem t (z : ℂ) : Complex.abs z = 1", "theorem t (z : ℂ) : ‖z‖ = 1");
    // Mixed or other carriers: the operand's type is unknown, nothing changes.
    differ("theorem t (x : ℝ) (n : ℤ) : ‖n‖ = x", "theorem t (x : ℝ) (n : ℤ) : |n| = x");
    differ("theorem t (v : E) : ‖v‖ = 1", "theorem t (v : E) : |v| = 1");
    // Sup norm against the componentwise absolute value (`|(x, 2 * x)| = 1` is false).
    for v in ["(x, 2 * x)", "![x, 2 * x]"] {
        differ(
            &format!("theorem t (x : ℝ) : ‖{v}‖ = 1"),
            &format!("theorem t (x : ℝ) : |{v}| = 1"),
        );
    }
    differ("theorem t (x : ℝ × ℝ) : ‖x‖ = 1", "theorem t (x : ℝ × ℝ) : |x| = 1");
    differ(
        "theorem t (f : Fin 2 → ℝ) (g : ℝ → ℝ) : ‖f‖ = 1 ∧ g = g",
        "theorem t (f : Fin 2 → ℝ) (g : ℝ → ℝ) : |f| = 1 ∧ g = g",
    );
    differ("theorem t (f : ℝ → ℝ) : ‖f‖ = 1", "theorem t (f : ℝ → ℝ) : |f| = 1");
}

#[test]
fn products_are_not_linearly_ordered() {
    // `(1, 0)` and `(0, 1)`: neither `<` nor `≤` between them.
    differ("theorem t (x y : ℝ × ℝ) : ¬ x < y", "theorem t (x y : ℝ × ℝ) : y ≤ x");
    differ("theorem t (f : ℝ → ℝ × ℝ) : ¬ f 1 < f 2", "theorem t (f : ℝ → ℝ × ℝ) : f 2 ≤ f 1");
    // `1 = (1, 1)`: `(0, 1)` is positive but not above it.
    differ("theorem t (x : ℕ × ℕ) : 1 ≤ x", "theorem t (x : ℕ × ℕ) : 0 < x");
    // A product domain: the values are numbers.
    same(
        "theorem t (f : ℝ × ℝ → ℝ) (a : ℝ) : ¬ a < 0",
        "theorem t (f : ℝ × ℝ → ℝ) (a : ℝ) : 0 ≤ a",
    );
}

#[test]
fn an_element_of_a_set_is_its_nonemptiness() {
    same("theorem t (A C : Set X) : ∃ x, x ∈ C ∩ A", "theorem t (A C : Set X) : C ∩ A ≠ ∅");
    same("theorem t (s : Finset ℕ) : ∃ x, x ∈ s", "theorem t (s : Finset ℕ) : s.Nonempty");
    // Not a set (a list), or the set mentions the variable: stays.
    differ("theorem t (l : List ℕ) : ∃ x, x ∈ l", "theorem t (l : List ℕ) : l ≠ ∅");
    assert!(!uses("theorem t (f : ℕ → Set ℕ) : ∃ x, x ∈ f x", "Set.nonempty_def"));
    // A written binder type: the element type is nonemptiness, another one (a coercion
    // into the set) is not.
    same("theorem t (s : Set ℝ) : ∃ x : ℝ, x ∈ s", "theorem t (s : Set ℝ) : s ≠ ∅");
    differ("theorem t (s : Set ℝ) : ∃ n : ℕ, n ∈ s", "theorem t (s : Set ℝ) : s ≠ ∅");
    differ("theorem t (s : Set ℝ) : ∃ n : ℕ, n ∈ s", "theorem t (s : Set ℝ) : ∃ n : ℝ, n ∈ s");
}

#[test]
fn parity_remainders_and_divisibility_on_integers() {
    same("theorem t (n : ℕ) (h : n % 2 = 1) : n ≠ 0", "theorem t (n : ℕ) (h : Odd n) : n ≠ 0");
    same("theorem t (n : ℤ) (h : 2 ∣ n) : n ≠ 1", "theorem t (n : ℤ) (h : n % 2 = 0) : n ≠ 1");
    same("theorem t (n : ℤ) (h : ¬ Even n) : n ≠ 0", "theorem t (n : ℤ) (h : Odd n) : n ≠ 0");
    same("theorem t (n : ℕ) : (3 * n) % 7 = 0", "theorem t (n : ℕ) : 7 ∣ 3 * n");
    same("theorem t (k : ℕ) : k.succ > 0", "theorem t (k : ℕ) : k + 1 > 0");
    // A statement with one binder: its binder list is not taken for a binder.
    same("theorem t (n : ℕ) : n % 3 = 0 → n > 2", "theorem t (n : ℕ) : 3 ∣ n → n > 2");
    // Not on ℝ (`%` there is not a remainder, `2 ∣ x` always holds).
    differ("theorem t (x : ℝ) : 2 ∣ x", "theorem t (x : ℝ) : Even x");
    differ("theorem t (x : ℝ) : x % 2 = 1", "theorem t (x : ℝ) : Odd x");
    // A non-zero remainder is not divisibility.
    differ("theorem t (n : ℕ) : n % 7 = 3", "theorem t (n : ℕ) : 7 ∣ n");
}

#[test]
fn function_equations_are_pointwise() {
    same(
        "theorem t (f : ℝ → ℝ) : ∃ c, f = fun x => c",
        "theorem t (f : ℝ → ℝ) : ∃ c, ∀ x, f x = c",
    );
    same(
        "theorem t (f : ℕ → ℕ) : (fun (n : ℕ) => n + 1) = f",
        "theorem t (f : ℕ → ℕ) : ∀ n : ℕ, n + 1 = f n",
    );
    // `f = fun x => c` is not `∃ x, f x = c`.
    differ(
        "theorem t (f : ℝ → ℝ) : ∃ c, f = fun x => c",
        "theorem t (f : ℝ → ℝ) : ∃ c, ∃ x, f x = c",
    );
    // The bound name must not be the function's own name.
    assert!(!uses("theorem t : f = fun f => f", "funext_iff"));
    // The `fun` alone must have `f`'s type: its body's (`⌊x⌋₊ : ℕ`), its binder's as written
    // or as its body decides it (`Real.sqrt x` makes `x` real).
    for text in [
        "theorem t (f : ℝ → ℝ) : f = fun x : ℝ => ⌊x⌋₊",
        "theorem t (f : ℤ → ℤ) : f = fun x : ℕ => (x : ℤ)",
        "theorem t (f : ℕ → ℝ) : f = fun x => Real.sqrt x",
        "theorem t (f : ℕ → Set ℤ) : f = fun n => {m : ℤ | m < n}",
        "theorem t (f : ℕ → ℝ) : f = fun x => x / 2",
    ] {
        assert!(!uses(text, "funext_iff"), "{text}");
    }
    assert!(uses("theorem t (f : ℂ → ℂ) (a b : ℂ) : f = fun z => a * z + b", "funext_iff"));
}

#[test]
fn functions_are_equal_when_equal_everywhere() {
    same(
        "theorem t (f g : ℝ → ℝ) (h : Continuous f) : f = g",
        "theorem t (f g : ℝ → ℝ) (h : Continuous f) : ∀ x, f x = g x",
    );
    // Not a value equation: `a = b` between numbers stays.
    assert!(!uses("theorem t (a b : ℝ) : a = b", "funext_iff"));
    differ("theorem t (f g : ℝ → ℝ) : f = g", "theorem t (f g : ℝ → ℝ) : ∃ x, f x = g x");
}

#[test]
fn nonempty_is_not_empty() {
    same(
        "theorem t (A : Set ℝ) (h : A.Nonempty) : A = A",
        "theorem t (A : Set ℝ) (h : A ≠ ∅) : A = A",
    );
    same(
        "theorem t (s : Finset ℕ) (h : Finset.Nonempty s) : s = s",
        "theorem t (s : Finset ℕ) (h : s ≠ ∅) : s = s",
    );
    differ(
        "theorem t (A : Set ℝ) (h : A.Nonempty) : A = A",
        "theorem t (A : Set ℝ) (h : A = ∅) : A = A",
    );
}

#[test]
fn nonnegativity_of_naturals_is_dropped() {
    same(
        "theorem t (a b : ℕ) (h₁ : 1 ≤ a ∧ a ≤ 9) (h₂ : 0 ≤ b ∧ b ≤ 9) : a + b = 16",
        "theorem t (a b : ℕ) (h₀ : 1 ≤ a ∧ a ≤ 9 ∧ b ≤ 9) : a + b = 16",
    );
    same("theorem t (n : ℕ) (h : 0 ≤ n) : n = n", "theorem t (n : ℕ) : n = n");
    // On ℤ and ℝ, `0 ≤ x` is a real hypothesis.
    differ("theorem t (n : ℤ) (h : 0 ≤ n) : n = n", "theorem t (n : ℤ) : n = n");
    differ(
        "theorem t (x : ℝ) (h : 0 ≤ x ∧ x ≤ 9) : x = x",
        "theorem t (x : ℝ) (h : x ≤ 9) : x = x",
    );
    // A hypothesis the conclusion mentions stays.
    assert!(!uses("theorem t (n : ℕ) (h : 0 ≤ n) : h = h", "Nat.zero_le"));
}

#[test]
fn anonymous_hypothesis_binders_are_premises() {
    same(
        "theorem t (f : ℕ → ℕ) (h : ∀ (n) (_ : n ≠ N), 0 < n → f n < f N) : f 1 = 1",
        "theorem t (f : ℕ → ℕ) (h : ∀ n ≠ N, 0 < n → f n < f N) : f 1 = 1",
    );
    // A binder of a type (not a proposition) stays a quantifier.
    assert!(!uses("theorem t (h : ∀ (x : ℝ), 0 < 1) : True", "imp (non-dependent ∀)"));
}

#[test]
fn image_and_preimage_are_notations() {
    same(
        "theorem t (f : ℝ → ℝ) (E : Set ℝ) : Set.image f E = E",
        "theorem t (f : ℝ → ℝ) (E : Set ℝ) : f '' E = E",
    );
    same(
        "theorem t (f : ℝ → ℝ) (E : Set ℝ) : Set.preimage f E = E",
        "theorem t (f : ℝ → ℝ) (E : Set ℝ) : f ⁻¹' E = E",
    );
    // Image and preimage differ.
    differ(
        "theorem t (f : ℝ → ℝ) (E : Set ℝ) : Set.image f E = E",
        "theorem t (f : ℝ → ℝ) (E : Set ℝ) : f ⁻¹' E = E",
    );
}

#[test]
fn negations_move_inwards() {
    same("theorem t : ¬ ∃ x : ℕ, x ^ 2 = 2", "theorem t : ∀ x : ℕ, x ^ 2 ≠ 2");
    same("theorem t (f : ℕ → ℕ) : ¬ ∀ x, f x = 0", "theorem t (f : ℕ → ℕ) : ∃ x, f x ≠ 0");
    same("theorem t (p q : Prop) : ¬ (p ∨ q)", "theorem t (p q : Prop) : ¬ p ∧ ¬ q");
    same("theorem t (p : Prop) : ¬ ¬ p", "theorem t (p : Prop) : p");
    // `¬ ∃` is not `∃ ¬`.
    differ("theorem t : ¬ ∃ x : ℕ, x ^ 2 = 2", "theorem t : ∃ x : ℕ, x ^ 2 ≠ 2");
    // `¬ (p ∧ q)` is left as written.
    differ("theorem t (p q : Prop) : ¬ (p ∧ q)", "theorem t (p q : Prop) : ¬ p ∧ ¬ q");
}

#[test]
fn membership_in_an_interval_decides_the_element_type() {
    let elided = "binder type (elaboration)";
    assert!(uses("theorem t (f : ℝ → ℝ) (a : ℝ) : ∃ c : ℝ, c ∈ Set.Icc a 1 ∧ f c = 0", elided));
    assert!(uses("theorem t (f : ℕ → ℝ) (n : ℕ) : ∃ i : ℕ, i ∈ Finset.range n ∧ f i = 0", elided));
    assert!(uses("theorem t (f : ℝ → ℝ) (a : ℝ) : ∃ c : ℝ, c ∉ Set.Icc a 1 ∧ f c = 0", elided));
    // An ascribed numeral decides nothing: unfolded (`(0 : ℝ) ≤ c`), its ascription goes.
    assert!(!uses("theorem t : ∃ c : ℝ, c ∈ Set.Icc (0 : ℝ) 1 ∧ c ^ 2 = c", elided));
    // A written type other than the interval's: the element is cast.
    assert!(!uses("theorem t (f : ℚ → ℝ) : ∃ c : ℚ, c ∈ Set.Icc (0 : ℝ) 1 ∧ f c = 0", elided));
    // Numerals alone decide nothing yet; endpoints of two types decide nothing here.
    assert!(!uses("theorem t : ∃ c : ℝ, c ∈ Set.Icc 0 1 ∧ c ^ 2 = c", elided));
    assert!(!uses("theorem t (a : ℕ) (b : ℤ) : ∃ c : ℤ, c ∈ Set.Icc a b ∧ c ^ 2 = c", elided));
    // An earlier use decides first: `g c` with `(g : ℚ → ℚ)`.
    assert!(!uses("theorem t (g : ℚ → ℚ) : ∃ c : ℚ, g 0 = c ∧ c ∈ Set.Icc (0 : ℝ) 1", elided));
}

#[test]
fn a_collection_types_the_binders_it_decides() {
    // `x ∈ s` is the first use: `Membership`'s element type is an `outParam`.
    same(
        "theorem t (s : Finset ℕ) : ∀ x ∈ s, 3 ∣ x",
        "theorem t (s : Finset ℕ) : ∀ x ∈ s, x % 3 = 0",
    );
    same(
        "theorem t (n : ℕ) : ∃ x ∈ Finset.range n, 0 < x",
        "theorem t (n : ℕ) : ∃ x ∈ Finset.range n, x ≠ 0",
    );
    same(
        "theorem t : (Finset.filter (fun n => 3 ∣ n) (Finset.range 30)).card = 10",
        "theorem t : ((Finset.range 30).filter (fun n => n % 3 = 0)).card = 10",
    );
    // A substructure of a type it may not exist on (`Subgroup ℕ`, `AddSubgroup ℕ`).
    assert!(!uses("theorem t (H : AddSubgroup ℕ) : ∀ x ∈ H, 0 < x", "Nat.pos_iff_ne_zero"));
    // A filter whose predicate decides its binder first (`Finset.filter p s` elaborates `p`
    // before `s`), an interval of numerals only, a name bound twice.
    assert!(!uses(
        "theorem t (s : Finset ℕ) : Finset.filter (fun x => (x : ℤ) < 5 ∧ 0 < x) s = s",
        "Nat.pos_iff_ne_zero"
    ));
    assert!(!uses("theorem t : ∀ x ∈ Finset.Icc 1 10, 0 < x", "Nat.pos_iff_ne_zero"));
    assert!(!uses(
        "theorem t (s : Finset ℕ) (t : Finset ℤ) : (∀ x ∈ s, 0 < x) ∧ ∀ x ∈ t, 0 < x",
        "Nat.pos_iff_ne_zero"
    ));
    // The dot form keeps its order where the predicate decides first.
    assert!(!uses(
        "theorem t (s : Finset ℕ) : s.filter (fun x => (x : ℤ) < 0) = ∅",
        "dot notation"
    ));
}

#[test]
fn a_bundled_map_applied_decides_its_argument_and_its_value() {
    // `T x` coerces `T` to a function `V → V` (`FunLike`): `x : V`, and `T x = y` makes `y : V`.
    same(
        "theorem t {K V : Type*} [Field K] [AddCommGroup V] [Module K V] (T : V →ₗ[K] V) : ∀ x : V, ∀ y : V, T x = T y → x = y",
        "theorem t {K V : Type*} [Field K] [AddCommGroup V] [Module K V] (T : V →ₗ[K] V) : ∀ x, ∀ y, T x = T y → x = y",
    );
    same(
        "theorem t {G H : Type*} [Group G] [Group H] (f : G →* H) (y : H) : ∃ x, f x = y",
        "theorem t {G H : Type*} [Group G] [Group H] (f : G →* H) (y : _) : ∃ x, f x = y",
    );
    // A value of a number type is `relation_anchor`'s; a map into another type decides that one.
    differ(
        "theorem t {G H : Type*} [Group G] [Group H] (f : G →* H) (y : G) : ∃ x, f x = y",
        "theorem t {G H : Type*} [Group G] [Group H] (f : G →* H) (y : _) : ∃ x, f x = y",
    );
}

#[test]
fn an_interval_bound_of_numerals_takes_its_element_type() {
    // `-1` is elaborated at `x`'s type in `x ∈ Set.Ioo (-1) 5` and in `-1 < x` alike.
    same("theorem t (x : ℝ) : x ∈ Set.Ioo (-1) 5", "theorem t (x : ℝ) : -1 < x ∧ x < 5");
    same("theorem t (x : ℚ) : x ∈ Set.Icc (1 / 2) 3", "theorem t (x : ℚ) : 1 / 2 ≤ x ∧ x ≤ 3");
    // `-1 : ℕ` and `2⁻¹ : ℤ` do not elaborate: no rewrite reads them.
    assert!(!uses("theorem t (x : ℕ) : x ∈ Set.Ioo (-1) 5", "Set.mem_Ioo"));
    assert!(!uses("theorem t (x : ℤ) : x ∈ Set.Ioo 2⁻¹ 5", "Set.mem_Ioo"));
}
