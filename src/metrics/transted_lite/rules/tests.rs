//! End-to-end tests of the rules: statements in canonical form meet or stay apart, and the moves
//! offered on a statement. Tests of one module's internals are next to that module.

use super::binder_moves::binder_reorder;
use super::shapes::{binder_list, binder_name, mentions, ADD, EQ};
use super::*;
use crate::distance::{ted, CostModel};
use crate::trees::parse::{parse_statement, Header};
use crate::trees::Tree;

fn tree(text: &str) -> Tree {
    parse_statement(text, &Header::default())
        .unwrap_or_else(|e| panic!("test statement does not parse: {e}: {text}"))
        .tree
}

fn canon(text: &str) -> Tree {
    canonicalize(&tree(text)).0
}

/// The canonical form of `text` has `binders` binders.
fn assert_canonical_arity(text: &str, binders: usize) {
    let t = canon(text);
    assert_eq!(binder_list_arity(&t.children[0].label), Some(binders), "{t:?}");
}

fn rules_used(text: &str) -> Vec<&'static str> {
    canonicalize(&tree(text)).1.iter().map(|a| a.rule).collect()
}

fn free(a: &Tree, b: &Tree) -> u32 {
    ted(a, b, CostModel { free_rename: true })
}

/// Both statements have the same canonical form.
fn same(a: &str, b: &str) {
    let (ca, cb) = (canon(a), canon(b));
    assert_eq!(free(&ca, &cb), 0, "expected equal canonical forms:\n{a}\n{b}");
}

/// The canonical forms still differ.
fn differ(a: &str, b: &str) {
    let (ca, cb) = (canon(a), canon(b));
    assert!(free(&ca, &cb) > 0, "must stay apart:\n{a}\n{b}");
}

/// The rules of every move available on `text` (any `other` side).
fn move_rules(text: &str) -> Vec<(&'static str, String)> {
    let t = canon(text);
    let mut out = Vec::new();
    let mut d = |a: &Tree, b: &Tree| free(a, b);
    moves(&t, &t, Commutativity::of(&t), &Carriers::of(&t), &mut d, &mut out);
    out.into_iter().map(|r| (r.applied.rule, r.applied.at)).collect()
}

/// The moves at `text` include each of `present`.
fn assert_moves_include(text: &str, present: &[&str]) {
    let moves = move_rules(text);
    for rule in present {
        assert!(moves.iter().any(|(r, _)| r == rule), "{rule} missing at {text}: {moves:?}");
    }
}

/// The moves at `text` include none of `absent`.
fn assert_moves_avoid(text: &str, absent: &[&str]) {
    let moves = move_rules(text);
    assert!(moves.iter().all(|(r, _)| !absent.contains(r)), "{absent:?} at {text}: {moves:?}");
}

#[test]
fn gt_ge_become_lt_le_with_operands_swapped() {
    same("theorem t (x : ℝ) (h : x > 0) : x ≥ 1", "theorem t (x : ℝ) (h : 0 < x) : 1 ≤ x");
    assert_eq!(rules_used("theorem t (x : ℝ) : x > 0"), ["gt_iff_lt"], "one rewrite");
    // `<` is not symmetric: `x < 0` is not `0 < x`.
    differ("theorem t (x : ℝ) : x > 0", "theorem t (x : ℝ) : x < 0");
    differ("theorem t (x : ℝ) : x ≥ 1", "theorem t (x : ℝ) : x ≤ 1");
}

#[test]
fn not_eq_is_ne() {
    same("theorem t (x : ℤ) : ¬ (x = 2)", "theorem t (x : ℤ) : x ≠ 2");
    differ("theorem t (x : ℤ) : ¬ (x < 2)", "theorem t (x : ℤ) : x ≠ 2");
}

#[test]
fn conjunctive_premises_are_curried() {
    same(
        "theorem t (x : ℝ) (h : 0 < x ∧ x < 1) : x ^ 2 < 1",
        "theorem t (x : ℝ) (h₀ : 0 < x) (h₁ : x < 1) : x ^ 2 < 1",
    );
    same(
        "theorem t (f : ℕ → ℕ) (h : ∀ n, 0 < n ∧ n < 5 → f n = 0) : f 1 = 0",
        "theorem t (f : ℕ → ℕ) (h : ∀ n, 0 < n → n < 5 → f n = 0) : f 1 = 0",
    );
    // `∨` premises are not split, and a conjunction in a conclusion stays.
    differ(
        "theorem t (x : ℝ) (h : 0 < x ∨ x < 1) : x = 1",
        "theorem t (x : ℝ) (h₀ : 0 < x) (h₁ : x < 1) : x = 1",
    );
    differ("theorem t (x : ℝ) : 0 < x ∧ x < 1", "theorem t (x : ℝ) : 0 < x → x < 1");
}

#[test]
fn hypothesis_named_later_is_not_split() {
    // `h` is mentioned by the conclusion (`h.1`), so splitting it would lose a name.
    assert_canonical_arity("theorem t (p q : Prop) (h : p ∧ q) : h.1 = h.1", 3);
}

#[test]
fn binders_and_premises_and_leading_foralls_are_one_form() {
    same("theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2", "theorem t : ∀ x : ℝ, 0 < x → 0 < x ^ 2");
    same("theorem t (a b : ℕ) : a + b = b + a", "theorem t : ∀ (a : ℕ) (b : ℕ), a + b = b + a");
    same("theorem t {n : ℕ} : n = n", "theorem t (n : ℕ) : n = n");
    // `→` is not commutative: premise and conclusion do not trade places.
    differ("theorem t (x : ℝ) : 0 < x → x ≠ 0", "theorem t (x : ℝ) : x ≠ 0 → 0 < x");
}

#[test]
fn binder_predicates_unfold() {
    same("theorem t (S : Set ℝ) : ∀ x ∈ S, x ≠ 2", "theorem t (S : Set ℝ) : ∀ x, x ∈ S → x ≠ 2");
    same("theorem t : ∃ n > 0, n ^ 2 = 4", "theorem t : ∃ n, 0 < n ∧ n ^ 2 = 4");
    // ∃ unfolds with `∧`, not `→`.
    differ("theorem t : ∃ n > 0, n ^ 2 = 4", "theorem t : ∃ n, 0 < n → n ^ 2 = 4");
}

#[test]
fn let_is_inlined() {
    // `let y := 3; y + x = 5` (the parser does not build `let` nodes yet: built by hand).
    let body = Tree::node(
        EQ,
        vec![Tree::node(ADD, vec![Tree::leaf("y"), Tree::leaf("x")]), Tree::leaf("5")],
    );
    let with_let = Tree::node("let _  := _ ; _ ", vec![Tree::leaf("y"), Tree::leaf("3"), body]);
    let (t, log) = canonicalize(&with_let);
    assert_eq!(log[0].rule, "zeta");
    let expected = Tree::node(
        EQ,
        vec![Tree::node(ADD, vec![Tree::leaf("3"), Tree::leaf("x")]), Tree::leaf("5")],
    );
    assert_eq!(t, expected);
}

#[test]
fn coercions_and_ascriptions_are_never_erased() {
    differ("theorem t : (1 : ℝ) / 3 = 1 / 3", "theorem t : 1 / 3 = 1 / 3");
    differ("theorem t (n : ℕ) : (↑n : ℝ) = 2", "theorem t (n : ℕ) : n = 2");
    // The canonical form clears the denominator (`eq_div_iff`: `(1 : ℝ) / 3 * 3 = 1`), keeping
    // the ascription; the only moves left swap sides or factors.
    let rules = move_rules("theorem t : (1 : ℝ) / 3 = 1 / 3");
    assert!(rules.iter().all(|(r, _)| ["eq_comm", "mul_comm"].contains(r)), "{rules:?}");
    assert!(rules.iter().all(|(_, at)| at.contains("(1 : ℝ)")), "{rules:?}");
}

#[test]
fn symmetric_relations_and_connectives_commute() {
    assert_moves_include(
        "theorem t (x : ℝ) (h : x = 1 ∨ x ≠ 2) : (x = 1 ∧ x < 3) ↔ x = 1",
        &["eq_comm", "ne_comm", "or_comm", "and_comm", "iff_comm"],
    );
}

#[test]
fn non_commutative_operators_never_commute() {
    let rules = move_rules(
        "theorem t (a b : ℝ) (h : a < b) (h' : a ≤ b) (f : ℝ → ℝ) (hf : a ∣ b) : a - b / a ^ b = f a",
    );
    for (r, at) in &rules {
        // A `+` another move writes (`a - x = y` as `y + x = a`) commutes on ℝ.
        let made_sum = *r == "add_comm" && !at.contains(" - ");
        assert!(
            ["eq_comm", "binder_reorder", "forall_swap"].contains(r) || made_sum,
            "unexpected move {r} at {at}"
        );
    }
}

#[test]
fn add_and_mul_commute_on_type_variables_of_commutative_classes() {
    // `commutativity::commutes_by_class`: a ring's `+` commutes, its `*` only when commutative.
    assert_moves_include("theorem t {R : Type*} [Ring R] (x : R) : IsUnit (1 + x)", &["add_comm"]);
    assert_moves_include(
        "theorem t {R : Type*} [CommRing R] (x : R) : IsUnit (2 * x)",
        &["mul_comm"],
    );
    assert_moves_avoid("theorem t {R : Type*} [Ring R] (x y : R) : IsUnit (x * y)", &["mul_comm"]);
    assert_moves_avoid(
        "theorem t {R : Type*} [Ring R] [Add R] (x : R) : IsUnit (1 + x)",
        &["add_comm"],
    );
    assert_moves_avoid(
        "theorem t {R : Type*} [CommRing R] [Mul R] (x y : R) : x * y = 1",
        &["mul_comm"],
    );
    assert_moves_avoid("theorem t {G : Type*} [AddGroup G] (a b : G) : a + b = 0", &["add_comm"]);
    assert_moves_avoid(
        "theorem t {G : Type*} [AddGroup G] [Ring G] (a b : G) : a + b = 0",
        &["add_comm"],
    );
    assert_moves_avoid("theorem t {M : Type*} [Monoid M] (a b : M) : a * b = 1", &["mul_comm"]);
    assert_moves_avoid("theorem t {M : Type*} [Add M] (a b : M) : a + b = a", &["add_comm"]);
    assert_moves_avoid("theorem t (a : Ordinal) : 1 + a = a", &["add_comm"]);
    assert_moves_avoid("theorem t {R : Type*} [Ring R] (x : R) (n : ℕ) : x + n = 1", &["add_comm"]);
    // Under an ascription to a polynomial ring over a number type.
    assert_moves_include("theorem t : Irreducible (X ^ 2 + 1 : Polynomial ℤ)", &["add_comm"]);
    assert_moves_avoid(
        "theorem t (p : Polynomial (Matrix (Fin 2) (Fin 2) ℝ)) : (p * X : Polynomial (Matrix (Fin 2) (Fin 2) ℝ)) = 1",
        &["mul_comm"],
    );
    assert_moves_avoid("theorem t (f : ℤ → ℤ) : (f (X + 1) : Polynomial ℤ) = 1", &["add_comm"]);
    // Norms are real whatever their argument; what is inside them keeps its order.
    assert_moves_include(
        "theorem t (x y : EuclideanSpace ℝ (Fin 2)) : ‖x + y‖ ^ 2 + ‖x‖ = 2",
        &["add_comm"],
    );
    assert_moves_avoid("theorem t (A B : Matrix (Fin 2) (Fin 2) ℝ) : ‖A * B‖ = 1", &["mul_comm"]);
    assert_moves_avoid("theorem t (x y : EuclideanSpace ℝ (Fin 2)) : ‖x + y‖ = 1", &["add_comm"]);
}

#[test]
fn add_and_mul_commute_only_on_known_commutative_types() {
    // Operands that are not both bound names (swapping two of those changes nothing).
    assert_moves_include("theorem t (a b : ℝ) : a * 3 + 1 = 2", &["mul_comm", "add_comm"]);
    assert_moves_avoid("theorem t (G : Type*) [Group G] (a : G) : a * e = a", &["mul_comm"]);
    // A type known only through a class instance is unknown to elaboration-lite: no swap
    // (sound, if incomplete).
    assert_moves_avoid("theorem t (G : Type*) [CommGroup G] (a : G) : a * e = a", &["mul_comm"]);
    assert_moves_avoid("theorem t (x y : _) : x * (y + 1) = 1", &["mul_comm", "add_comm"]);
    assert_moves_avoid("theorem t (p q : ℍ) : p * (q + 1) = 1", &["mul_comm"]);
    // Numerals take the type of the relation they sit in: here a matrix product.
    assert_moves_avoid("theorem t (A : Matrix (Fin 2) (Fin 2) ℝ) : A * (2 * 3) = A", &["mul_comm"]);
    assert_moves_avoid(
        "theorem t (A B : Matrix (Fin 2) (Fin 2) ℝ) : A * C + A ^ 2 = B",
        &["mul_comm", "add_comm"],
    );
    // Pointwise products of functions: the function type is unknown to elaboration-lite.
    assert_moves_avoid("theorem t (f g : ℕ → ℝ) : f * (g + 1) = g", &["mul_comm"]);
}

#[test]
fn not_is_implication_to_false() {
    // not_iff_imp_false: `¬p` is defined as `p → False`.
    same("theorem t (p q : Prop) (h : p → False) : q", "theorem t (p q : Prop) (h : ¬p) : q");
    same("theorem t (x : ℝ) : x = 1 → False", "theorem t (x : ℝ) : ¬ x = 1");
    // Non-examples: another consequent, or `False` as the premise.
    differ("theorem t (x : ℝ) : x = 1 → False", "theorem t (x : ℝ) : x = 1 → True");
    differ("theorem t (p q : Prop) (h : False → p) : q", "theorem t (p q : Prop) (h : ¬p) : q");
}

#[test]
fn pi_is_forall() {
    same("theorem t : Π n : ℕ, n + 0 = n", "theorem t : ∀ n : ℕ, n + 0 = n");
    // Non-example: the binder type still counts.
    differ("theorem t : Π n : ℕ, n + 0 = n", "theorem t : ∀ n : ℤ, n + 0 = n");
}

#[test]
fn coprime_is_gcd_one() {
    // Nat.coprime_iff_gcd_eq_one: `Nat.Coprime m n` is defined as `Nat.gcd m n = 1`.
    same(
        "theorem t (a b : ℕ) (h : Nat.Coprime a b) : a ≠ b",
        "theorem t (a b : ℕ) (h : Nat.gcd a b = 1) : a ≠ b",
    );
    same(
        "theorem t (a b : ℕ) (h : a.Coprime b) : a ≠ b",
        "theorem t (a b : ℕ) (h : Nat.gcd a b = 1) : a ≠ b",
    );
    // Non-examples: another gcd, and `IsCoprime` (a different notion, on rings).
    differ(
        "theorem t (a b : ℕ) (h : Nat.Coprime a b) : a ≠ b",
        "theorem t (a b : ℕ) (h : Nat.gcd a b = 2) : a ≠ b",
    );
    differ(
        "theorem t (a b : ℤ) (h : IsCoprime a b) : a ≠ b",
        "theorem t (a b : ℤ) (h : Int.gcd a b = 1) : a ≠ b",
    );
}

#[test]
fn nhds_and_polynomial_notations() {
    // `𝓝` is `scoped[Topology]`: it is `nhds` only where the header opens `Topology`, which
    // name resolution writes out before any rule (`elab::resolve`); here it is a name.
    differ(
        "theorem t (f : ℕ → ℝ) : Tendsto f atTop (𝓝 0)",
        "theorem t (f : ℕ → ℝ) : Tendsto f atTop (nhds 0)",
    );
    // Non-example: `𝓝[s] x` (`nhdsWithin`) is not `nhds x`.
    differ(
        "theorem t (f : ℝ → ℝ) (s : Set ℝ) : Tendsto f (𝓝[s] 0) (𝓝 0)",
        "theorem t (f : ℝ → ℝ) (s : Set ℝ) : Tendsto f (nhds 0) (nhds 0)",
    );
    same("theorem t (p : ℚ[X]) : p.degree = 2", "theorem t (p : Polynomial ℚ) : p.degree = 2");
    // Non-examples: another ring; and indexing by a bound variable `X` is not `R[X]`.
    differ("theorem t (p : ℚ[X]) : p.degree = 2", "theorem t (p : Polynomial ℤ) : p.degree = 2");
    let indexing = canon("theorem t (X : ℕ) (l : List ℕ) (h : X < l.length) : l[X] = 0");
    assert!(!format!("{indexing:?}").contains("Polynomial"), "{indexing:?}");
}

#[test]
fn an_applied_composite_is_the_nested_application() {
    // Function.comp_apply: `(f ∘ g) x = f (g x)`.
    same(
        "theorem t (f g : ℕ → ℕ) (x : ℕ) : (f ∘ g) x = 0",
        "theorem t (f g : ℕ → ℕ) (x : ℕ) : f (g x) = 0",
    );
    same(
        "theorem t (x : ℕ) : (Nat.succ ∘ Nat.pred) x = x",
        "theorem t (x : ℕ) : Nat.succ (Nat.pred x) = x",
    );
    // Non-example: the order of composition matters (`succ (pred 0) = 1`,
    // `pred (succ 0) = 0`).
    differ(
        "theorem t (x : ℕ) : (Nat.succ ∘ Nat.pred) x = x",
        "theorem t (x : ℕ) : Nat.pred (Nat.succ x) = x",
    );
}

#[test]
fn swapping_two_bound_names_is_offered() {
    // Free renaming sees no difference, but `a + b` is `b + a` only by `add_comm`: without
    // the swap `(h : a < b) : a + 2 * b = 0` could not meet `(h : a < b) : 2 * b + a = 0`.
    assert_moves_include(
        "theorem t (a b : ℝ) (h : a ≠ b) : a + b < a * b",
        &["ne_comm", "add_comm", "mul_comm"],
    );
    // Identical operands do not swap.
    assert!(move_rules("theorem t (a : ℝ) : a = a").is_empty());
}

#[test]
fn a_function_on_matrices_keeps_their_product_in_order() {
    // `(A : M)` is dropped to `(A : _)` since `f A` decides it; `f`'s domain still says
    // the statement multiplies matrices.
    let text = "theorem t (f : Matrix (Fin 2) (Fin 2) ℝ → ℝ) \
                (A B : Matrix (Fin 2) (Fin 2) ℝ) (h : f A = f B) : f (A * B) = 0";
    assert!(rules_used(text).contains(&"binder type (elaboration)"));
    let t = canon(text);
    assert!(!Commutativity::of(&t).mul, "{t:?}");
    let products = canon("theorem t (f : ℝ × ℝ → ℝ) (x y : ℝ) : f (x, y) = x * y");
    assert!(Commutativity::of(&products).mul);
}

#[test]
fn alpha_equivalence_respects_binders() {
    let alpha = |a: &str, b: &str| alpha_equivalent(&canon(a), &canon(b));
    assert!(alpha(
        "theorem t (x y : ℝ) (h : x = y) : x + 1 = y + 1",
        "theorem t (a b : ℝ) (h2 : a = b) : a + 1 = b + 1",
    ));
    // A hypothesis used in a term is renamed with its binder like a variable.
    assert!(!alpha(
        "theorem t (p : Prop) (h : p) (h' : p) (f : p → ℕ) : f h = f h'",
        "theorem t (p : Prop) (h : p) (h' : p) (f : p → ℕ) : f h' = f h'",
    ));
    // One name in two scopes, each renamed its own way.
    assert!(alpha(
        "theorem t : (∀ x : ℕ, x = x) ∧ ∀ x : ℕ, x + 0 = x",
        "theorem t : (∀ y : ℕ, y = y) ∧ ∀ z : ℕ, z + 0 = z",
    ));
    // Free renaming (GTED) makes each of these distance 0; none is a renaming.
    for (a, b) in [
        ("theorem t (x y : ℕ) (h : x < y) : x < y", "theorem t (x y : ℕ) (h : x < y) : y < x"),
        ("theorem t : ∃ x : ℕ, ∀ y : ℕ, x ≤ y", "theorem t : ∃ y : ℕ, ∀ x : ℕ, x ≤ y"),
        (
            "theorem t {G : Type*} [Group G] (a b : G) : a * b * a = 1",
            "theorem t {G : Type*} [Group G] (a b : G) : b * a * a = 1",
        ),
        (
            "theorem t (f : ℕ → ℕ) (n : ℕ) : ∑ i in Finset.range n, f i = 0",
            "theorem t (f : ℕ → ℕ) (n : ℕ) : ∑ n in Finset.range n, f n = 0",
        ),
    ] {
        assert!(!alpha(a, b), "{a}\n{b}");
        assert_eq!(free(&canon(a), &canon(b)), 0, "GTED's free renaming: {a}");
    }
}

#[test]
fn quantifiers_swap_only_with_their_own_kind_and_when_independent() {
    assert_moves_include("theorem t : ∃ x : ℕ, ∃ y : ℕ, x < y", &["exists_swap"]);
    // ∃∀ is not ∀∃.
    assert_moves_avoid("theorem t : ∃ x : ℕ, ∀ y : ℕ, x ≤ y", &["exists_swap", "forall_swap"]);
    assert_moves_avoid("theorem t : ∃ n : ℕ, ∃ i : Fin n, i = i", &["exists_swap"]);
}

#[test]
fn premises_swap_in_chains_but_an_implication_does_not_turn_around() {
    assert_moves_include(
        "theorem t (f : ℕ → ℕ) (h : ∀ n, 0 < n → n < 5 → f n = 0) : True",
        &["Imp.swap"],
    );
    assert_moves_avoid("theorem t (f : ℕ → ℕ) (h : ∀ n, 0 < n → f n = 0) : True", &["Imp.swap"]);
}

#[test]
fn binder_reorder_respects_dependencies() {
    let a = canon("theorem t (x : ℝ) (y : ℝ) (h : 0 < x) (k : y < 2) : x = y");
    let b = canon("theorem t (y : ℝ) (k : y < 2) (x : ℝ) (h : 0 < x) : x = y");
    let mut d = |p: &Tree, q: &Tree| free(p, q);
    let r = binder_reorder(&a, &b, &mut d).expect("a reorder towards b exists");
    // Every hypothesis still comes after the variable it mentions.
    let list = &binder_list(&r.tree).expect("binder list").0.children;
    let pos = |n: &str| {
        list.iter()
            .position(|b| binder_name(b).is_some_and(|x| x.label == n))
            .expect("binder present")
    };
    assert!(pos("x") < pos("h") && pos("y") < pos("k"), "{}", r.applied.at);
    assert_eq!(free(&r.tree, &b), 0, "{}", r.applied.at);

    // `h` mentions `x`: it can never move in front of it.
    let c = canon("theorem t (x : ℝ) (h : 0 < x) : x = 1");
    let d2 = {
        let mut t = c.clone();
        t.children[0].children.swap(0, 1);
        t
    };
    let mut d = |p: &Tree, q: &Tree| free(p, q);
    assert!(binder_reorder(&c, &d2, &mut d).is_none());
}

#[test]
fn a_hypothesis_crosses_an_instance_only_where_no_use_takes_one() {
    let mut d = |p: &Tree, q: &Tree| free(p, q);
    // `Nat.card G` takes no instance: the hypothesis may stand before `[Group G]`.
    let a = canon(
        "theorem t {G : Type*} (hp : (Nat.card G).Prime) [Group G] (x : G) : x ^ Nat.card G = 1",
    );
    let b = canon(
        "theorem t {G : Type*} [Group G] (hp : (Nat.card G).Prime) (x : G) : x ^ Nat.card G = 1",
    );
    let r = binder_reorder(&a, &b, &mut d).expect("the hypothesis crosses the instance");
    assert_eq!(free(&r.tree, &b), 0, "{}", r.applied.at);
    // The centre is a subgroup only through `Group G`: that hypothesis stays after the instance.
    let a = canon("theorem t {G : Type*} [Group G] (hp : (Nat.card (Subgroup.center G)).Prime) (x : G) : x = x");
    let b = {
        let mut t = a.clone();
        t.children[0].children.swap(1, 2);
        t
    };
    assert!(binder_reorder(&a, &b, &mut d).is_none_or(|r| free(&r.tree, &b) != 0));
}

#[test]
fn modular_congruence_unfolds_to_its_definition() {
    same("theorem t : 2 ^ 2010 ≡ 4 [MOD 10]", "theorem t : 2 ^ 2010 % 10 = 4");
    same("theorem t (n : ℤ) : 2 * n ≡ 15 [ZMOD 47]", "theorem t (n : ℤ) : 2 * n % 47 = 15 % 47");
    // The modulus matters.
    differ("theorem t : 2 ^ 2010 ≡ 4 [MOD 10]", "theorem t : 2 ^ 2010 % 100 = 4");
}

#[test]
fn literal_arithmetic_is_evaluated_only_where_exact() {
    same("theorem t (x : ℕ) : 8 * 9 ^ 2 + 5 * 9 + 2 = x", "theorem t (x : ℕ) : 695 = x");
    same("theorem t (x : ℝ) : 6 / 3 = x", "theorem t (x : ℝ) : 2 = x");
    // Floor division and truncated subtraction are left as written, even on ℕ.
    differ("theorem t (x : ℕ) : 7 / 2 = x", "theorem t (x : ℕ) : 3 = x");
    differ("theorem t (x : ℕ) : 3 - 7 = x", "theorem t (x : ℕ) : 0 = x");
    same("theorem t (x : ℕ) : 7 % 3 = x", "theorem t (x : ℕ) : 1 = x");
    differ("theorem t (x : ℝ) : 7 / 2 = x", "theorem t (x : ℝ) : 3 = x");
    differ("theorem t (x : ℤ) : 3 - 7 = x", "theorem t (x : ℤ) : 0 = x");
    // An operand of unknown type (auto-bound `x`) fixes no type: nothing is evaluated.
    differ("theorem t : 6 / 3 = x", "theorem t : 2 = x");
    differ("theorem t (a : ZMod 5) : a = 6 - 2", "theorem t (a : ZMod 5) : a = 4");
    differ(
        "theorem t (F : Type*) [Field F] [CharP F 3] (a : F) : a = 6 / 3",
        "theorem t (F : Type*) [Field F] [CharP F 3] (a : F) : a = 2",
    );
    // Variables are not literals; ascribed literals are not bare literals.
    differ("theorem t (y : ℕ) : y + 1 = x", "theorem t (y : ℕ) : 1 = x");
    differ("theorem t : (2 : ℝ) + 1 = x", "theorem t : 3 = x");
    // Huge powers are left as written.
    let big = canon("theorem t : 2 ^ 2010 = x");
    assert!(big.preorder().iter().any(|n| n.label == " _ ^ _ "));
}

#[test]
fn log_quotients_and_notations_meet() {
    same(
        "theorem t (x : ℝ) : Real.log x / Real.log 2 = 3",
        "theorem t (x : ℝ) : Real.logb 2 x = 3",
    );
    same("theorem t : Real.sqrt 5 = abs y", "theorem t : √5 = |y|");
    same(
        "theorem t (x : ℝ) : Int.floor x + Nat.factorial 3 = Real.pi⁻¹",
        "theorem t (x : ℝ) : ⌊x⌋ + 3 ! = 1 / Real.pi",
    );
    differ("theorem t (x : ℝ) : ⌊x⌋ = 2", "theorem t (x : ℝ) : ⌈x⌉ = 2");
    // The argument order of `logb` is the base first.
    differ(
        "theorem t (x : ℝ) : Real.log x / Real.log 2 = 3",
        "theorem t (x : ℝ) : Real.logb x 2 = 3",
    );
    differ(
        "theorem t (x : ℝ) : Real.log x * Real.log 2 = 3",
        "theorem t (x : ℝ) : Real.logb 2 x = 3",
    );
}

#[test]
fn equations_defining_a_variable_are_substituted() {
    same(
        "theorem t (s : ℕ) (h₀ : s = ∑ k in Finset.Icc 1 9, k) : s % 9 = 0",
        // The sum's index has no written type: its value keeps the variable's.
        "theorem t : ((∑ k in Finset.Icc 1 9, k : ℕ)) % 9 = 0",
    );
    same(
        "theorem t (x y : ℝ) (h₀ : 2 * y = x) (h₁ : x + y = 3) : y = 1",
        "theorem t (y : ℝ) (h₁ : 2 * y + y = 3) : y = 1",
    );
    // `e` mentioning `x` (`x = x + 0`) is no definition.
    differ("theorem t (x : ℝ) (h : x = x * x) : x = 1", "theorem t : x * x = 1");
    // A hypothesis between the variable and its equation moves after the binders its value
    // needs; one that mentions a name they rebind (the outer `n`) would be captured: it blocks.
    assert_canonical_arity("theorem t (x : ℝ) (hx : 0 < x) (n : ℕ) (h : x = n + 1) : x < n + 2", 2);
    assert_canonical_arity(
        "theorem t (n : ℕ) (x : ℝ) (hx : n < x) (n : ℕ) (h : x = n + 1) : x < n + 2",
        5,
    );
}

#[test]
fn universe_binders_are_left_to_auto_binding() {
    same(
        "theorem t {G : Type*} [Group G] (x : G) : x * x⁻¹ = 1",
        "theorem t [Group G] (x : G) : x * x⁻¹ = 1",
    );
    // A binder of an ordinary type stays.
    differ("theorem t (x : ℝ) : x = x", "theorem t : x = x");
}

#[test]
fn free_variables_are_auto_bound_in_front() {
    // A value variable left to auto-binding differs from the written binder by its type only.
    let written = canon("theorem t (b : ℕ) (h : Nat.gcd 120 b = 8) : b = 248");
    let auto = canon("theorem t (h : Nat.gcd 120 x = 8) : x = 248");
    assert_eq!(free(&written, &auto), 1, "{auto:?}");
    assert!(rules_used("theorem t : x + 1 = 2").contains(&"autoImplicit"));
    assert_canonical_arity("theorem t : x + y = 2", 2);
    // Written with its type, a type variable is the same `(G : _)` as an unbound one.
    same(
        "theorem t {R : Type*} {x : R} [Ring R] (hx : IsNilpotent x) : IsUnit (1 + x)",
        "theorem t (x : R) [Ring R] (hx : IsNilpotent x) : IsUnit (1 + x)",
    );
}

#[test]
fn constants_levels_and_function_names_are_not_auto_bound() {
    for text in [
        "theorem t : Complex.abs I = 1",
        "theorem t : π > 3",
        "theorem t (p : Polynomial ℚ) : p = X",
        "theorem t (n : ℕ) : card (Fin n) = n",
        "theorem t (f : ℕ → ℕ) : f 0 = 0",
        "theorem t {G : Type u} [Group G] (a : G) : a = a",
        "theorem t : ∀ (n) (m : ℕ), n + m = m + n",
    ] {
        assert!(
            !rules_used(text).contains(&"autoImplicit")
                || text.contains("Type u") && !render(&canon(text)).contains("u :"),
            "{text}: {:?}",
            rules_used(text)
        );
    }
    // `Type u` keeps `u` out of the binders.
    let t = canon("theorem t {G : Type u} [Group G] (a : G) : a = a");
    assert!(!mentions(&t.children[0].children[0], "u"), "{t:?}");
}

#[test]
fn binder_types_elaboration_decides_are_dropped() {
    same(
        "theorem t (f : ℝ → ℝ) : ∃ c, ∀ x : ℝ, f x = c",
        "theorem t (f : ℝ → ℝ) : ∃ c, ∀ x, f x = c",
    );
    // Second argument of a curried function.
    same(
        "theorem t (g : ℕ → ℤ → ℤ) (h : ∀ y : ℤ, g 0 y = y) : True",
        "theorem t (g : ℕ → ℤ → ℤ) (h : ∀ y, g 0 y = y) : True",
    );
    // A type other than the one the use decides stays (it would be a coercion or an error).
    differ("theorem t (f : ℝ → ℝ) : ∀ x : ℕ, f x = 0", "theorem t (f : ℝ → ℝ) : ∀ x, f x = 0");
    // Membership in a typed set decides the element's type; in an untyped one it does not.
    same(
        "theorem t (S : Finset ℤ) : ∀ x : ℤ, x ∈ S → x > 0",
        "theorem t (S : Finset ℤ) : ∀ x, x ∈ S → x > 0",
    );
    differ("theorem t : ∀ x : ℤ, x ∈ S → x > 0", "theorem t : ∀ x, x ∈ S → x > 0");
    // No typed function use: the type says something (`∀ x, x ^ 2 ≥ 0` is about ℕ).
    differ("theorem t : ∀ x : ℝ, x ^ 2 ≥ 0", "theorem t : ∀ x, x ^ 2 ≥ 0");
    // Uses that disagree decide nothing.
    differ(
        "theorem t (f : ℝ → ℝ) (g : ℕ → ℕ) : ∀ x : ℝ, f x = g x",
        "theorem t (f : ℝ → ℝ) (g : ℕ → ℕ) : ∀ x, f x = g x",
    );
}

#[test]
fn a_hypothesis_about_a_rebound_name_is_not_a_duplicate() {
    same(
        "theorem t (p : ℕ) (hp : p.Prime) (h2 : p.Prime) : p > 1",
        "theorem t (p : ℕ) (hp : p.Prime) : p > 1",
    );
    // The second `x = 1` is about the second `x`: without it the statement is false.
    differ(
        "theorem t (x : ℕ) (h : x = 1) (x : ℕ) (h2 : x = 1) : x = 1",
        "theorem t (x : ℕ) (h : x = 1) (x : ℕ) : x = 1",
    );
}

#[test]
fn binder_types_stay_where_elaboration_would_choose_another() {
    // `x ≤ n` comes first and makes `x : ℕ` (then `f ↑x`): `∀ x, …` is about naturals.
    differ(
        "theorem t (n : ℕ) (f : ℝ → ℝ) : ∀ x, x ≤ n → f x = 0",
        "theorem t (n : ℕ) (f : ℝ → ℝ) : ∀ x : ℝ, x ≤ n → f x = 0",
    );
    differ(
        "theorem t (n : ℕ) (f : ℝ → ℝ) (x : ℝ) (h : x ≤ n) : f x = 0",
        "theorem t (n : ℕ) (f : ℝ → ℝ) (h : x ≤ n) : f x = 0",
    );
    // A relation with numerals only leaves the type open for the use after it.
    same(
        "theorem t (f : ℝ → ℝ) : ∀ x : ℝ, 0 < x → f x = 1",
        "theorem t (f : ℝ → ℝ) : ∀ x, 0 < x → f x = 1",
    );
    // `f x` under a binder that rebinds `x` is about another variable: `x : ℝ` from `≤`.
    for inner in [
        "(∑ x in Finset.range 2, f x) ≤ x",
        "(∏ x ∈ Finset.range 2, f x) ≤ x",
        "(fun x => f x) 1 ≤ x",
        "0 ∈ {x | f x = 0} ∧ 0 ≤ x",
    ] {
        differ(
            &format!("theorem t (f : ℕ → ℝ) : ∀ x, {inner}"),
            &format!("theorem t (f : ℕ → ℝ) : ∀ x : ℕ, {inner}"),
        );
    }
    // Auto-bound `x` (`x : ℝ` in Lean) against a theorem binder `(x : ℕ)`.
    differ(
        "theorem t (f : ℕ → ℝ) (x : ℕ) : (∑ x in Finset.range 2, f x) ≤ x",
        "theorem t (f : ℕ → ℝ) : (∑ x in Finset.range 2, f x) ≤ x",
    );
}

#[test]
fn quantifiers_over_variables_move_outwards() {
    same(
        "theorem t (A B : Set ℝ) : ∃ a ∈ A, ∃ b ∈ B, ∀ x ∈ A, ∀ y ∈ B, a - b ≤ x - y",
        "theorem t (A B : Set ℝ) : ∃ a b, a ∈ A ∧ b ∈ B ∧ ∀ x y, x ∈ A → y ∈ B → a - b ≤ x - y",
    );
    same("theorem t : (∃ n : ℕ, n > 3) ∧ 1 < 2", "theorem t : ∃ n : ℕ, n > 3 ∧ 1 < 2");
    // The other operand mentions the variable: nothing moves.
    differ(
        "theorem t (x : ℕ) : x = 1 ∧ ∃ x : ℕ, x = 2",
        "theorem t (x : ℕ) : ∃ x : ℕ, x = 1 ∧ x = 2",
    );
    // `∃` does not leave an implication's premise, and `∀` does not leave a conjunction.
    differ("theorem t : (∃ n : ℕ, n > 3) → 1 < 2", "theorem t : ∃ n : ℕ, n > 3 → 1 < 2");
    differ("theorem t : 1 < 2 ∧ ∀ n : ℕ, n ≥ 0", "theorem t : ∀ n : ℕ, 1 < 2 ∧ n ≥ 0");
    // A hypothesis binder is an implication and stays where it is.
    assert!(!rules_used("theorem t (p q r : Prop) : p → ∀ (h : q), r").contains(&"imp_forall_iff"));
}

#[test]
fn instance_binders_about_terms_are_hypotheses() {
    same(
        "theorem t (G : Type*) [Group G] (N : Subgroup G) [N.Normal] : True",
        "theorem t (G : Type*) [Group G] (N : Subgroup G) (hN : N.Normal) : True",
    );
    same(
        "theorem t (p : ℕ) [hp : Fact p.Prime] : p ≥ 2",
        "theorem t (p : ℕ) (h : Fact p.Prime) : p ≥ 2",
    );
    // Instances about types stay instances.
    for text in [
        "theorem t (G : Type*) [Group G] (a : G) : a = a",
        "theorem t [Field F] (p : ℕ) [CharP F p] : True",
    ] {
        let used = rules_used(text);
        assert!(!used.contains(&"instance binder (binder info)"), "{text}: {used:?}");
    }
}

#[test]
fn one_letter_constants_depend_on_the_subject() {
    // `X` is a type variable in topology, `Polynomial.X` about polynomials.
    assert!(
        rules_used("theorem t [TopologicalSpace X] (A : Set X) : A = A").contains(&"autoImplicit")
    );
    assert!(
        !rules_used("theorem t : Irreducible (X ^ 2 + 1 : Polynomial ℚ)").contains(&"autoImplicit")
    );
    assert!(!rules_used("theorem t : Irreducible (X ^ 2 + 1 : ℚ[X])").contains(&"autoImplicit"));
    assert!(!rules_used("theorem t : Complex.abs I = 1").contains(&"autoImplicit"));
}

#[test]
fn a_function_known_at_its_only_point_is_its_value() {
    same(
        "theorem t (x p : ℝ) (f : ℝ → ℝ) (h₀ : 0 < p) (h₂ : f x = |x - p| + 1) : 1 ≤ f x",
        "theorem t (x p : ℝ) (h₀ : 0 < p) : 1 ≤ |x - p| + 1",
    );
    // `f` used at another point too: its value there is unknown.
    differ(
        "theorem t (x : ℝ) (f : ℝ → ℝ) (h : f x = x + 1) : f 0 ≤ f x",
        "theorem t (x : ℝ) : f 0 ≤ x + 1",
    );
    assert!(!rules_used("theorem t (x : ℝ) (f : ℝ → ℝ) (h : f x = x + 1) : f 0 ≤ f x")
        .contains(&"forall_eq (function used at one point)"));
    // A recursive definition is not a value.
    assert!(!rules_used("theorem t (x : ℕ) (f : ℕ → ℕ) (h : f x = f 0 + 1) : f x = 1")
        .contains(&"forall_eq (function used at one point)"));
    // The conclusion's `f x` is about another `x`.
    assert!(!rules_used("theorem t (x : ℕ) (f : ℕ → ℕ) (h : f x = 2) : ∀ x : ℕ, f x > 0")
        .contains(&"forall_eq (function used at one point)"));
}

#[test]
fn a_hypothesis_stated_twice_counts_once() {
    same(
        "theorem t (p : ℕ) (hp : Nat.Prime p) (h : p > 2) (this : Fact (Nat.Prime p)) : Odd p",
        "theorem t (p : ℕ) (hp : Nat.Prime p) (h : p > 2) : Odd p",
    );
    same("theorem t (p : ℕ) [Fact p.Prime] : p ≥ 2", "theorem t (p : ℕ) (hp : p.Prime) : p ≥ 2");
    // Two different hypotheses both stay.
    differ(
        "theorem t (x : ℝ) (h₁ : 0 < x) (h₂ : x < 1) : x ^ 2 < 1",
        "theorem t (x : ℝ) (h₁ : 0 < x) : x ^ 2 < 1",
    );
}

#[test]
fn adjacent_independent_binders_swap() {
    let t = canon("theorem t (n : ℕ) (a b : Fin n) (h : a < b) : True");
    let swaps: Vec<String> = move_rules("theorem t (n : ℕ) (a b : Fin n) (h : a < b) : True")
        .into_iter()
        .filter(|(r, _)| *r == "forall_swap")
        .map(|(_, at)| at)
        .collect();
    // `a` and `b` swap; `n` and `a` do not (`Fin n` mentions `n`); `h` is a hypothesis.
    assert_eq!(swaps.len(), 1, "{swaps:?} in {t:?}");
    assert!(swaps[0].contains('a') && swaps[0].contains('b'), "{swaps:?}");
}

#[test]
fn canonical_form_is_a_fixpoint() {
    for text in [
        "theorem t (x : ℝ) (h : x > 0 ∧ x ≥ 1) : ∀ y ∈ S, ¬ (y = x) → y > 0",
        "theorem t : ∀ (a b : ℤ), (∃ i j, a = 2 * i ∧ b = 2 * j) ↔ ∃ k, a ^ 2 + b ^ 2 = 8 * k",
    ] {
        let once = canon(text);
        let (twice, log) = canonicalize(&once);
        assert_eq!(once, twice);
        assert!(log.is_empty(), "{log:?}");
    }
}

#[test]
fn bound_names_are_flagged_for_free_renaming() {
    let t = canon("theorem t : ∃ k : ℕ, k = 2");
    let leaves: Vec<&Tree> = t.preorder().into_iter().filter(|n| n.label == "k").collect();
    assert_eq!(leaves.len(), 2);
    assert!(leaves.iter().all(|n| n.variable_freecost));
    // A global name is not flagged.
    let g = canon("theorem t : π = π");
    assert!(g.preorder().iter().all(|n| !n.variable_freecost));
}

#[test]
fn render_fills_placeholders() {
    let t = tree("theorem t (x : ℝ) : (x + 1) * 2 = f x");
    let concl = &t.children[0].children[1];
    // Operator operands are parenthesised (no precedence table needed); applications inside
    // an infix operator are not: they bind tighter than any.
    assert_eq!(render_exact(concl), "((x + 1) * 2) = f x");
    // The path's text is Lean's: precedence decides the parentheses.
    assert_eq!(render(concl), "(x + 1) * 2 = f x");
}

#[test]
fn odd_trees_do_not_panic() {
    let odd = [
        Tree::node(" _ > _ ", vec![Tree::leaf("a")]),
        Tree::node("∀ _ , _ ", vec![Tree::leaf("x")]),
        Tree::node(": _ ", vec![]),
        Tree::node(" _ : _ ", vec![Tree::node(" _ ∧ _ ", vec![])]),
        Tree::node(
            "let",
            vec![Tree::node("x", vec![Tree::leaf("y")]), Tree::leaf("v"), Tree::leaf("b")],
        ),
        Tree::node("∃ _ , _ ", vec![Tree::leaf("x"), Tree::leaf("∈ _ "), Tree::leaf("p")]),
    ];
    for t in &odd {
        let (c, _) = canonicalize(t);
        let mut out = Vec::new();
        let mut d = |a: &Tree, b: &Tree| free(a, b);
        moves(&c, t, Commutativity::of(&c), &Carriers::of(&c), &mut d, &mut out);
        let _ = render(&c);
    }
}
