//! Binders family: rules about binder lists, quantifiers, `let` and the theorem's hypotheses.
//! Most need procedure (binder lists of any length, freeness and capture side conditions,
//! substitution): each is declared here with its lemma and examples, its procedure referenced
//! by function from the module that owns it (`binder_list`, `quantifiers`, `substitution`,
//! `statement`, `binders_elided`, `binder_moves`). Declared as data for the matcher (`table`);
//! owns only the quantifier swap.

use super::binder_list::{
    anonymous_instance, ascription_beside_binder, ascription_binder_type, binder_split,
    decided_binder_type, duplicate_hypothesis, explicit_class_hypothesis, filled_binder_type,
    function_value, implicit_binder, instance_binder, intro, split_conjunction,
    type_variable_in_front, unused_trivial_hypothesis, unused_type_variable, variable_definition,
};
use super::binder_moves::{
    existential_definition, exists_hypotheses, reorder_binders, swap_binders,
};
use super::binders_elided::{
    ascription_decides_binder, ascription_to_binder, binder_type_elided, quantifier_binder_type,
};
use super::carriers::Carriers;
use super::declare::*;
use super::elab;
use super::quantifiers::{prenex, quantifier_binders};
use super::shapes::{binder_name, mentions_outside_name, node2, quantifier, Quant, AND, IMP};
use super::statement::auto_implicit;
use super::substitution::inline_let;
use super::typed;
use crate::trees::Tree;
use Action::{Binder, Binding, List, Statement, StatementMoves};

#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    code("exists_and_left / exists_and_right / imp_forall_iff", "p ∧ ∃ x, q ↔ ∃ x, p ∧ q; p → ∀ x, q ↔ ∀ x, p → q (x not free in p)", |t, ctx| if t.label != AND && t.label != IMP || t.children.first().is_some_and(|p| elab::is_type(p, ctx.carriers)) { None } else { prenex(t).map(|(applied, new)| (applied.rule, new)) })
        .ex(&[("(y : ℕ) : y = 1 ∧ ∃ x : ℕ, x < y", "(y : ℕ) : ∃ x : ℕ, y = 1 ∧ x < y"), ("(y : ℕ) : y = 1 → ∀ x : ℕ, x < y", "(y : ℕ) : ∀ x : ℕ, y = 1 → x < y")])
        // A type, not a proposition: `ℕ → ∀ n, Fin (n + 1)` is a dependent function type.
        .non(&["(x : ℕ) : x = 1 ∧ ∃ x : ℕ, x < 2", "(f : ℕ → ∀ n : ℕ, Fin (n + 1)) : f 1 0 = 0"]),
    moves_code("forall_swap / exists_swap", "(∀ x y, p x y) ↔ ∀ y x, p x y (types independent)", |t, ctx| quantifier_swap(t, ctx.carriers).into_iter().collect())
        .ex(&[(": ∀ x : ℕ, ∀ y : ℤ, x = y", ": ∀ y : ℤ, ∀ x : ℕ, x = y")])
        .non(&[": ∀ n : ℕ, ∀ x : Fin n, x = x", ": ∀ x : ℕ, ∃ y : ℤ, x = y", "(f : ∀ n : ℕ, ∀ m : ℤ, Fin 3) : f = f"]),
    // At binding nodes, before every node rule.
    canonical("binder type (elaboration)", "∀ x : ℝ, f x = c is ∀ x, f x = c for (f : ℝ → ℝ)", Binding(quantifier_binder_type))
        .ex(&[("(f : ℝ → ℝ) : ∀ x : ℝ, f x = 0", "(f : ℝ → ℝ) : ∀ x, f x = 0"), ("(f : ℝ → ℝ) : ∃ c : ℝ, f 0 = c", "(f : ℝ → ℝ) : ∃ c, f 0 = c"), ("(y : ℝ) : |y| ≥ 0 ∧ ∃ d : ℝ, |y| < d", "(y : ℝ) : |y| ≥ 0 ∧ ∃ d, |y| < d"), ("(a : ℝ) : ∃ c : ℝ, a < c", "(a : ℝ) : ∃ c, a < c"), ("(f : ℝ → ℝ) : ∀ x : ℝ, f (x + 1) = 0", "(f : ℝ → ℝ) : ∀ x, f (x + 1) = 0"), ("(a : ℝ) : ∃ n : ℕ, n > 0 ∧ a ^ n = 1", "(a : ℝ) : ∃ n, n > 0 ∧ a ^ n = 1"),
              ("(s : ℕ → ℂ) : ∃ y : ℂ, Filter.Tendsto s Filter.atTop (nhds y)", "(s : ℕ → ℂ) : ∃ y, Filter.Tendsto s Filter.atTop (nhds y)"),
              ("(f : ℝ → ℝ) : ∀ x : ℝ, 0 < deriv f x", "(f : ℝ → ℝ) : ∀ x, 0 < deriv f x"),
              // Inside an argument: `f x` is elaborated against `g`'s domain, `x` against `f`'s.
              ("(f : ℕ → ℝ) (g : ℝ → ℝ) : ∀ x : ℕ, g (f x) = 0", "(f : ℕ → ℝ) (g : ℝ → ℝ) : ∀ x, g (f x) = 0"),
              // `Set.image f s : Set β`, `Set.preimage f t : Set α` (Mathlib/Data/Set/Defs.lean).
              ("{α β : Type*} (f : α → β) (A : Set α) : ∀ y : β, y ∈ f '' A → y = y", "{α β : Type*} (f : α → β) (A : Set α) : ∀ y, y ∈ f '' A → y = y"),
              ("{α β : Type*} (f : α → β) (B : Set β) : ∀ x : α, x ∈ f ⁻¹' B → x = x", "{α β : Type*} (f : α → β) (B : Set β) : ∀ x, x ∈ f ⁻¹' B → x = x")])
        .non(&["{α β : Type*} (f : α → β) (A : Set α) : ∀ y : α, y ∈ f '' A → y = y", "{α β : Type*} (f : α → β) (B : Set β) : ∀ x : β, x ∈ f ⁻¹' B → x = x",
               "(s : ℕ → ℂ) : ∃ y : ℝ, Filter.Tendsto s Filter.atTop (nhds y)", "(s : ℕ → ℂ) : ∃ y : ℂ, Filter.Tendsto (fun n => (s n).re) Filter.atTop (nhds y)", "(f : ℝ → ℝ) : ∀ x : ℕ, f x = 0", "(f : ℝ → ℝ) : ∃ c : ℤ, f 0 = c", ": ∃ c : ℝ, ∃ a, a < c", "(f : ℝ → ℝ) : ∀ x : ℕ, f (x + 1) = 0", "(f : ℝ → ℝ) : ∀ x : ℝ, ∀ y : ℂ, f (x + y) = 0", "(f : ℝ → ℝ) : ∀ k : ℝ, f (2 ^ k) = 0", "(f : ℝ → ℝ) : ∃ k : ℝ, 2 ^ k = f 1", "(f : ℝ → ℝ) : ∃ n : ℕ, (n : ℝ) = f 0", "(a : ℝ) (m : ℤ) : ∃ n : ℕ, a ^ n = 1 ∧ n ∣ m", "(a : ℝ) (f : ℝ → ℝ) : ∃ n : ℕ, a ^ n = f n", "(a : ℝ) : ∃ n : ℤ, a ^ n = 1", "(f : ℝ → ℝ) : ∀ x : ℕ, 0 < deriv f x",
               // Nested: the inner function's domain decides, not the outer's.
               "(f : ℕ → ℝ) (g : ℝ → ℝ) : ∀ x : ℝ, g (f x) = 0"]),
    // Declared here, before the quantifier forms, where it was always tried.
    canonical("Set.nonempty_def", "s.Nonempty is ∃ x, x ∈ s: (∃ x, x ∈ s) ↔ s ≠ ∅", Binding(|t, ctx| typed::exists_mem(t, ctx.carriers)))
        .ex(&[("(s : Set ℝ) : ∃ x, x ∈ s", "(s : Set ℝ) : s ≠ ∅")])
        .non(&["(s : Set ℝ) : ∃ n : ℕ, (n : ℝ) ∈ s"]),
    canonical("binder_pred / binder_split / implicit_binder / imp (non-dependent ∀) / exists_prop", "∀ x ∈ s, p is ∀ x, x ∈ s → p; ∃ x > 0, p is ∃ x, x > 0 ∧ p; ∀ x y, p is ∀ x, ∀ y, p; {x : T} is (x : T); ∀ (_ : p), q is p → q; (∃ (_ : p), q) ↔ p ∧ q", Binding(quantifier_binders))
        .ex(&[("(s : Set ℕ) : ∀ x ∈ s, x = 1", "(s : Set ℕ) : ∀ x, x ∈ s → x = 1"), (": ∃ n > 0, n = 1", ": ∃ n, n > 0 ∧ n = 1"), (": ∀ x y : ℕ, x = y", ": ∀ x : ℕ, ∀ y : ℕ, x = y"), (": ∀ {x : ℕ}, x = x", ": ∀ (x : ℕ), x = x"), (": ∀ (h : 1 = 1), 2 = 2", ": 1 = 1 → 2 = 2"), ("(n : ℕ) : ∃ (_ : n > 0), n = 1", "(n : ℕ) : n > 0 ∧ n = 1")])
        .non(&[": ∀ x : ℕ, x = x", ": ∀ (h : 1 = 1), h = h", ": ∃ (n : ℕ), n = 1", "(n : ℕ) : ∃ (h : n > 0), h = h", // `{n}` in a function's type decides its explicit arguments.
 "(f : ∀ {n : ℕ}, Fin (n + 1) → ℕ) : f (0 : Fin 3) = 0"]),
    canonical("binder type (ascription of its first use)", "∀ y, (y : ℝ) ^ 2 ≥ 0 is ∀ y : ℝ, y ^ 2 ≥ 0: the ascription decides the untyped y's type (elaboration unifies it with ℝ there), so every (y : ℝ) is y", Binding(ascription_decides_binder))
        .ex(&[(": ∀ y, (y : ℝ) ^ 2 + 1 ≥ 1", ": ∀ y : ℝ, y ^ 2 + 1 ≥ 1"), (": ∃ y, (y : ℤ) < 0 ∧ (y : ℤ) ^ 2 = 4", ": ∃ y : ℤ, y < 0 ∧ y ^ 2 = 4")])
        // Another use decides first (`f y` makes y a natural, `(y : ℝ)` is a cast); a written
        // type; y bound again inside; a non-number type.
        .non(&["(f : ℕ → ℕ) : ∀ y, f y = 0 → (y : ℝ) / 2 = 0", ": ∀ y : ℕ, (y : ℝ) / 2 = 0", ": ∀ y, (y : ℝ) > 0 ∧ ∀ y : ℕ, (y : ℝ) / 2 = 1", "{G : Type*} : ∀ y, (y : G) = y"]),
    canonical("binder type (ascription)", "∃ x, x ≠ (k : T) ∧ p is ∃ x : T, x ≠ k ∧ p (so ∀ … →, =, <, ≤): binrel% unifies the untyped x with T (Lean's Elab/Extra.lean), and the numeral k is at T either way", Binding(ascription_to_binder))
        .ex(&[("{R : Type*} [Ring R] (p : Polynomial R) : ∃ b, b ≠ (0 : R) ∧ b • p = 0", "{R : Type*} [Ring R] (p : Polynomial R) : ∃ b : R, b ≠ 0 ∧ b • p = 0"), (": ∀ x, (0 : ℝ) < x → x ^ 2 > 0", ": ∀ x : ℝ, 0 < x → x ^ 2 > 0"), (": ∃ x : ℤ, x = (3 : ℤ) ∧ x ^ 2 = 9", ": ∃ x : ℤ, x = 3 ∧ x ^ 2 = 9")])
        .non(&[
            // Another written type: x is coerced to ℝ.
            ": ∃ x : ℚ, x < (1 : ℝ) ∧ x > 0",
            // Not a numeral: `(n : ℝ)` is a cast of its own.
            "(n : ℕ) : ∃ x, x < (n : ℝ) ∧ x > 0",
            // Not the first use: `f x` decides x before the relation.
            "(f : ℚ → ℚ) : ∃ x, f x = 0 ∧ x < (1 : ℝ)",
            // Not a binrel% relation (∣ is application).
            ": ∃ x, x ∣ (6 : ℤ) ∧ x > 1",
        ]),
    canonical("binder type (elaboration)", "{x : ℝ | f x > 0} is {x | f x > 0} for (f : ℝ → ℝ); so in ⋃, ∑, fun", Binding(binder_type_elided))
        .ex(&[("(f : ℝ → ℝ) : {x : ℝ | f x > 0} = ∅", "(f : ℝ → ℝ) : {x | f x > 0} = ∅"), (": Filter.Tendsto (fun t : ℝ => ∫ x in (0 : ℝ)..t, x) Filter.atTop Filter.atTop", ": Filter.Tendsto (fun t => ∫ x in (0 : ℝ)..t, x) Filter.atTop Filter.atTop")])
        // An interval integral's endpoints are real, but a use in its integrand comes first.
        .non(&["(f : ℝ → ℝ) : {x : ℕ | f x > 0} = ∅", ": Filter.Tendsto (fun t : ℕ => ∫ x in (0 : ℝ)..t, x) Filter.atTop Filter.atTop", "(g : ℕ → ℝ → ℝ) : Filter.Tendsto (fun t : ℝ => ∫ x in (0 : ℝ)..t, g t x) Filter.atTop Filter.atTop"]),
    canonical("zeta", "let x := v; b is b[v/x] (definitionally)", Binding(inline_let))
        .ex(&[("(y : ℕ) : let x := y + 1; x = 2", "(y : ℕ) : y + 1 = 2")])
        .non(&["(y : ℕ) : let x := y + 1; ∀ y : ℕ, x = y", "(y : ℕ) : x = y + 1"]),
    // On the theorem's binder list, in this order.
    canonical("instance binder (binder info)", "[N.Normal], an instance about terms, is (h✝ : N.Normal)", List(instance_binder))
        .ex(&[("(G : Type*) [Group G] (N : Subgroup G) [N.Normal] : N = N", "(G : Type*) [Group G] (N : Subgroup G) (h✝ : N.Normal) : N = N")])
        .non(&["(G : Type*) [Group G] (a : G) : a = a", // Not a class: `[Nat.Prime p]` does not elaborate, so it is never `(h : Nat.Prime p)`.
 "(p : ℕ) [Nat.Prime p] : p = p"]),
    canonical("binder_split", "(a b : T) is (a : T) (b : T)", Binder(binder_split))
        .ex(&[(r#"{"label": "theorem", "children": [{"label": " _ : _ ", "children": [{"label": " _ : _ ", "children": [{"label": "a"}, {"label": "b"}, {"label": "ℕ"}]}, {"label": " _ = _ ", "children": [{"label": "a"}, {"label": "b"}]}]}]}"#, "(a : ℕ) (b : ℕ) : a = b")])
        .non(&["(a : ℕ) : a = a"]),
    canonical("instance binder (name)", "[h : C] is [C] when nothing names h (instances are found by type class resolution)", Binder(anonymous_instance))
        .ex(&[("{G : Type*} [hG : Group G] (a : G) : a = a", "{G : Type*} [Group G] (a : G) : a = a")])
        .non(&["{G : Type*} [hG : Group G] (a : G) : hG = hG", "{G : Type*} [hG : Group G] (h : hG = hG) : True", "{G : Type*} [Group G] (a : G) : a = a"]),
    canonical("instance binder (explicit)", "(hF : CharP F p) is [CharP F p] when nothing names hF: every local of class type is a local instance in Lean 4", Binder(explicit_class_hypothesis))
        .ex(&[("{p : ℕ} {F : Type*} [Field F] (hF : CharP F p) : (2 : F) = 2", "{p : ℕ} {F : Type*} [Field F] [CharP F p] : (2 : F) = 2")])
        // Named later; not a class of the list (Nat.Prime is no class).
        .non(&["{p : ℕ} {F : Type*} [Field F] (hF : CharP F p) (h : hF = hF) : True", "(p : ℕ) (hp : Nat.Prime p) : p = p"]),
    canonical("implicit_binder", "{x : T} and ⦃x : T⦄ are (x : T) (fun x => h)", Binder(implicit_binder))
        .ex(&[("{x : ℕ} : x = x", "(x : ℕ) : x = x")])
        .non(&["[Group G] : G = G"]),
    canonical("type variable in front", "a type variable binder moves before the binders that do not mention it", Binder(type_variable_in_front))
        .ex(&[("(x : ℕ) (α : Type*) : x = x", "(α : Type*) (x : ℕ) : x = x")])
        .non(&["(α : Type*) (x : ℕ) : x = x"]),
    canonical("forall_const", "a type variable nothing names is dropped (every universe is inhabited)", Binder(unused_type_variable))
        .ex(&[("(R : Type*) (n : ℤ) : n = n", "(n : ℤ) : n = n")])
        // Named by an instance, by another binder's type, or by the conclusion; a type whose name
        // only starts like a universe's (`List.Sorted` under `open List`, `TypeVec.Arrow`).
        .non(&["(R : Type*) [Ring R] : True", "(R : Type*) (x : R) : x = x", "(R : Type*) : R = R",
               "(h : Sorted (· < ·) [2, 1]) : False", "(α β : TypeVec 1) (f : TypeVec.Arrow α β) : False"]),
    canonical("Nat.zero_le", "an unused hypothesis (h : 0 ≤ n) on ℕ is dropped", Binder(unused_trivial_hypothesis))
        .ex(&[("(n : ℕ) (h : 0 ≤ n) : n = n", "(n : ℕ) : n = n")])
        .non(&["(n : ℤ) (h : 0 ≤ n) : n = n"]),
    canonical("and_imp", "(h : p ∧ q) is (h : p) (h : q) when nothing names h", Binder(split_conjunction))
        .ex(&[("(x : ℝ) (h : 0 < x ∧ x < 1) : x < 2", "(x : ℝ) (h : 0 < x) (h : x < 1) : x < 2")])
        .non(&["(p q : Prop) (h : p ∧ q) : h.1 = h.1"]),
    canonical("and_self", "a hypothesis stated twice counts once", List(duplicate_hypothesis))
        .ex(&[("(p : ℕ) (h : p = 2) (h' : p = 2) : p = p", "(p : ℕ) (h : p = 2) : p = p")])
        .non(&["(x : ℕ) (h : x = 1) (x : ℕ) (h2 : x = 1) : x = 1"]),
    canonical("forall_eq", "(x : T) (h : x = e) : p x ↔ p e (x not in e, h unused); `e` keeps the ascription `(e : T)` where a cast could move into it (ℕ/ℤ `-`, `/`, `%`)", List(variable_definition))
        .ex(&[("(x : ℕ) (y : ℕ) (h : x = y + 1) : x < 3", "(y : ℕ) : y + 1 < 3"), ("(x : ℕ) (y : ℕ) (h : x = y - 3) : (x : ℝ) ≥ 0", "(y : ℕ) : ((y - 3 : ℕ) : ℝ) ≥ 0"),
              ("(p : ℕ) (n : ℕ) (hp : 2 < p) (h : p = n + 1) : p ≠ 0", "(n : ℕ) (hp : 2 < n + 1) : n + 1 ≠ 0"),
              // At ℕ the ascription is how the sum elaborates alone (its numerals default to ℕ).
              ("(s : ℕ) (h : s = ∑ k ∈ Finset.Icc 1 9, k) : s % 3 = 0", ": (∑ k ∈ Finset.Icc 1 9, k : ℕ) % 3 = 0"),
              // Field notation on `p` is read at `p`'s type before `p` goes.
              ("(p : ℕ) (n : ℕ) (hp : p.Prime) (h : p = 2 ^ n + 1) : p ≠ 0", "(n : ℕ) (hp : Nat.Prime (2 ^ n + 1)) : 2 ^ n + 1 ≠ 0"),
              // A hypothesis on `x` before `y` is bound moves after `y`.
              ("(x : ℕ) (hx : 0 < x) (y : ℕ) (hy : y < 5) (h : x = y + 1) : x < 3", "(y : ℕ) (hy : y < 5) (hx : 0 < y + 1) : y + 1 < 3")])
        // A variable's binder between that uses `x` (`y`'s type would name `x`); a hypothesis
        // that mentions a name the binders between rebind (it would be captured).
        // The equation elaborated at a larger type than the variable's (`↑n = a` says `a` is a
        // natural): ℤ, ℝ, a set for a finset, `Fin 5` cast to ℕ.
        // A function defined by its value and applied (no β: `binrel%` elaborates the `fun`
        // alone, which β with the codomain's ascription would not be faithful to).
        .non(&["(f : ℕ → ℕ) (hf : f = fun x => f x + 1) : f 0 = 1",
               // A generic head beside `y`: elaborated alone (ℕ's `min`, truncating), cast up,
               // where `(min (a - b) 0 : ℝ)` would subtract in ℝ.
               "(a b : ℕ) (y : ℝ) (h : y = min (a - b) 0) : y = 0",
               "(n : ℕ) (y : ℤ) (h : y = ∑ i ∈ Finset.range n, (i - 1)) : 0 ≤ y",
               "(f : ℕ → ℝ) (hf : f = fun x => x / 2) : f 3 = 3 / 2", "(f : ℝ → ℝ) (hf : f = fun x => x ^ 2) : ∀ f : ℝ → ℝ, f 3 = 9", "(f : ℕ → _) (hf : f = fun x => x / 2) : f 3 = 1", "(f : ℝ → ℝ → ℝ) (hf : f = fun x => fun y => x) : f 1 2 = 1", "(x : ℝ) (h : x = x * x) : x = 1", "(x : ℕ) (s : Finset (Fin x)) (y : ℕ) (h : x = y + 1) : s.card < 3",
               "(y : ℕ) (x : ℕ) (hx : y < x) (y : ℕ) (h : x = y + 1) : x < 3",
               // Moving `hx` after a local instance would change the `<` it reads.
               "(x : ℕ) (hx : x < 3) (r : ℕ) (i : LT ℕ) (h : x = r + 1) : x ≤ 5",
               "(a : ℤ) (n : ℕ) (h : n = a * a) : False", "(y : ℝ) (n : ℕ) (h : n = y / 2) : 0 ≤ y",
               "(s : Set ℕ) (t : Finset ℕ) (h : t = s ∩ s) : False",
               "(m : ℕ) (x : Fin 5) (h : m + 1 = x) : m < 4",
               // A `Fact` that `fact_iff` unfolds goes first: substituted, `p` would be `Nat.card G`.
               "{G : Type*} [Group G] [Fintype G] (p : ℕ) [Fact p.Prime] (h : Fintype.card G = p) : IsCyclic G"]),
    canonical("exists_imp, then forall_eq", "(x : T) (h : ∃ r, x = e r) : p x ↔ (r) : p (e r): the witness becomes a binder ((∃ r, q r) → b ↔ ∀ r, q r → b, Init/PropLemmas.lean) and its equation defines x (forall_eq)", List(existential_definition))
        .ex(&[("(p : ℕ) (hp : p.Prime) (h : ∃ r : ℕ, p = 2 ^ r + 1) : p ≠ 0", "(r : _) (hp : Nat.Prime (2 ^ r + 1)) : 2 ^ r + 1 ≠ 0"),
              // Two witnesses, curried one after the other.
              ("(n : ℤ) (h : ∃ a : ℤ, ∃ b : ℤ, n = a ^ 2 + b ^ 2) : n % 4 ≠ 3", "(a : ℤ) (b : ℤ) : (a ^ 2 + b ^ 2) % 4 ≠ 3")])
        // The witness named after the hypothesis; an equation that does not define a variable
        // (both sides compound); a witness of a larger type than the variable's.
        .non(&["(p : ℕ) (h : ∃ r : ℕ, p = 2 ^ r + 1) : p ≠ r", "(p : ℕ) (h : ∃ r : ℕ, p + 1 = 2 ^ r + 1) : p ≠ 0",
               "(n : ℕ) (h : ∃ a : ℤ, n = a * a) : False",
               // The second witness named like a variable the conclusion reads.
               "(n b : ℤ) (h : ∃ a : ℤ, ∃ b : ℤ, n = a ^ 2 + b ^ 2) : n ≠ b"]),
    canonical("forall_eq (function used at one point)", "(f : α → β) (h : f x = e) : P (f x) ↔ P e (f used only at x)", List(function_value))
        .ex(&[("(x : ℝ) (f : ℝ → ℝ) (h : f x = x + 1) : f x > 0", "(x : ℝ) : x + 1 > 0")])
        .non(&["(x : ℝ) (f : ℝ → ℝ) (h : f x = x + 1) : f 0 ≤ f x", "(f : ℕ → ℕ) (y : ℝ) (h : f 0 = y / 2) : 0 ≤ y",
               "(a b : ℕ) (f : ℕ → ℤ) (h : f 0 = min (a - b) 0) : f 0 = 0"]),
    canonical("intro", "a theorem's binders and the leading ∀/→ of its type are one Π-type", List(intro))
        .ex(&[(": ∀ x : ℕ, x = x", "(x : ℕ) : x = x"), ("(x : ℕ) : x = 1 → x < 2", "(x : ℕ) (h✝ : x = 1) : x < 2")])
        .non(&["(x : ℕ) : x = 1 → False", "(x : ℕ) : x = 1 ∧ x < 2"]),
    canonical("binder type (ascription of its first use)", "(y : _) : (y : ℝ) ^ 2 ≥ 0 is (y : ℝ) : y ^ 2 ≥ 0: the first occurrence of y is the ascription, which unifies its type with ℝ", List(ascription_binder_type))
        .ex(&[("(y : _) : (y : ℝ) ^ 2 + 1 ≥ 1", "(y : ℝ) : y ^ 2 + 1 ≥ 1"), ("(y : _) (h : (y : ℤ) < 0) : (y : ℤ) ^ 2 > 0", "(y : ℤ) (h : y < 0) : y ^ 2 > 0")])
        // Another use first (`f y` makes y a natural); a written type; y bound again later.
        .non(&["(f : ℕ → ℕ) (y : _) (h : f y = 0) : (y : ℝ) / 2 = 0", "(y : ℕ) : (y : ℝ) / 2 = 0", "(y : _) (h : (y : ℝ) > 0) : ∀ y : ℕ, (y : ℝ) / 2 = 1", "{G : Type*} (y : _) : (y : G) = y"]),
    canonical("binder type (ascription)", "(n : _) (h : (2 : ℕ) ≤ n) is (n : ℕ) (h : 2 ≤ n): binrel% unifies the untyped n with ℕ at its first use (Lean's Elab/Extra.lean), and the numeral is at ℕ either way", List(ascription_beside_binder))
        .ex(&[("(n : _) (h : (2 : ℕ) ≤ n) : n + 1 < n ^ 2", "(n : ℕ) (h : 2 ≤ n) : n + 1 < n ^ 2"), ("(x : _) (h : x ≠ (0 : ℝ)) : x ^ 2 > 0", "(x : ℝ) (h : x ≠ 0) : x ^ 2 > 0")])
        // A use before the relation decides first; a written type (the numeral is cast); not a
        // numeral (its own type, a cast of n).
        .non(&["(f : ℤ → ℤ) (n : _) (h₀ : f n = 0) (h : (2 : ℕ) ≤ n) : n = n", "(n : ℤ) (h : (2 : ℕ) ≤ n) : n = n", "(m : ℕ) (n : _) (h : (m : ℝ) ≤ n) : n = n"]),
    canonical("binder type (elaboration)", "(x : ℝ) before (h : f x = 0) with (f : ℝ → ℝ) is (x : _)", List(decided_binder_type))
        .ex(&[("(f : ℝ → ℝ) (x : ℝ) (h : f x = 0) : x = x", "(f : ℝ → ℝ) (x : _) (h : f x = 0) : x = x")])
        .non(&["(f : ℝ → ℝ) (x : ℕ) (h : f x = 0) : x = x"]),
    canonical("binder type (elaboration, filled)", "(y : _) before ¬Tendsto s atTop (𝓝 y) with (s : ℕ → ℂ) is (y : ℂ)", List(filled_binder_type))
        .ex(&[("(s : ℕ → ℂ) (y : _) : ¬Filter.Tendsto s Filter.atTop (nhds y)", "(s : ℕ → ℂ) (y : ℂ) : ¬Filter.Tendsto s Filter.atTop (nhds y)")])
        // A numeral decides nothing (ℕ is only a default); a use of another type first decides it.
        .non(&["(y : _) : y + 1 = 2", "(s : ℕ → ℂ) (y : _) (h : y = (2 : ℝ)) : ¬Filter.Tendsto s Filter.atTop (nhds y)"]),
    // On the whole statement.
    canonical("autoImplicit", "a name used but never bound is bound by Lean: (x : _) in front", Statement(auto_implicit))
        .ex(&[(": x + 1 = 2", "(x : _) : x + 1 = 2")])
        .non(&["(x : ℕ) : x + 1 = 2", ": π > 3"]),
    moves_of("binder_reorder", "the theorem's binders permuted, none before one it mentions", StatementMoves(reorder_binders))
        .ex(&[("(x : ℕ) (y : ℤ) (h : x = 1) : x = y", "(y : ℤ) (x : ℕ) (h : x = 1) : x = y"),
              // A proof class on a type variable serves no substructure's type.
              ("(G : Type*) [Group G] (h : IsSolvable G) (H : Subgroup G) : IsSolvable H", "(G : Type*) [Group G] (H : Subgroup G) (h : IsSolvable G) : IsSolvable H")])
        .non(&["(x : ℕ) (h : x = 1) : x = x"]),
    moves_of("exists_imp", "((∃ x, p x) → b) ↔ ∀ x, p x → b (Init/PropLemmas.lean): (h : ∃ x : T, p x) and (x : T) (h : p x), when nothing names h or a free x after them and x is no instance", StatementMoves(exists_hypotheses))
        // Each binder's type as its canonical form writes it: left to elaboration where the
        // uses decide it (`g x ≤ M` makes `M` real).
        .ex(&[("(g : ℝ → ℝ) (h : ∃ M : ℝ, ∀ x, g x ≤ M) : g 0 ≤ g 1", "(g : ℝ → ℝ) (M : _) (h : ∀ x, g x ≤ M) : g 0 ≤ g 1"),
              ("(g : ℝ → ℝ) (M : ℝ) (h : ∀ x, g x ≤ M) : g 0 ≤ g 1", "(g : ℝ → ℝ) (h : ∃ M, ∀ x, g x ≤ M) : g 0 ≤ g 1")])
        // `h` used after; a free `M` after (a header constant, captured; or the curried `M`
        // used after `h`); a witness of a class (a local instance of everything after it); a
        // witness of unknown type; `∃!`.
        .non(&["(g : ℝ → ℝ) (h : ∃ M : ℝ, ∀ x, g x ≤ M) : h.choose = 0", "(g : ℝ → ℝ) (h : ∃ M : ℝ, ∀ x, g x ≤ M) : g 0 ≤ M",
               "(g : ℝ → ℝ) (M : ℝ) (h : ∀ x, g x ≤ M) : g 0 ≤ M",
               "{G : Type*} [Group G] (h : ∃ i : Fintype G, @Fintype.card G i = 4) : Nat.card G = 4",
               "{G : Type*} [Group G] (i : Fintype G) (h : @Fintype.card G i = 4) : Nat.card G = 4",
               "(P : α → Prop) (h : ∃ y, P y) : True", "(g : ℝ → ℝ) (h : ∃! M : ℝ, ∀ x, g x ≤ M) : g 0 ≤ g 1"]),
    moves_of("forall_swap", "two adjacent independent variable binders of the theorem swap", StatementMoves(swap_binders))
        .ex(&[("(a : ℕ) (b : ℤ) : a = b", "(b : ℤ) (a : ℕ) : a = b")])
        .non(&["(n : ℕ) (a : Fin n) : a = a"]),
];

/// `forall_swap`/`exists_swap` on adjacent single-binder quantifiers of one kind whose binder
/// types do not mention each other.
fn quantifier_swap(t: &Tree, carriers: &Carriers) -> Option<(&'static str, Tree)> {
    let q = quantifier(t)?;
    let [a, b] = t.children.as_slice() else {
        return None;
    };
    // `∀` over a type (`∀ n m : ℕ, Fin (n + m)`) is a Π-type: swapping makes another type.
    // Only a proposition's binders swap (`∃` always has a proposition for its body).
    if q == Quant::Forall && !b.children.last().is_some_and(|body| elab::is_prop(body, carriers)) {
        return None;
    }
    if quantifier(b) != Some(q) || b.children.len() != 2 || a == &b.children[0] {
        return None;
    }
    let inner_binder = &b.children[0];
    let independent = match (binder_name(a), binder_name(inner_binder)) {
        (Some(x), Some(y)) => {
            x.label != y.label
                && !mentions_outside_name(inner_binder, &x.label)
                && !mentions_outside_name(a, &y.label)
        }
        _ => false,
    };
    if !independent {
        return None;
    }
    let rule = if q == Quant::Forall { "forall_swap" } else { "exists_swap" };
    let new =
        node2(&t.label, inner_binder.clone(), node2(&b.label, a.clone(), b.children[1].clone()));
    Some((rule, new))
}
