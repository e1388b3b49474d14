//! Notation family: one constant or function written two ways (Mathlib notations, names an
//! `open` abbreviates, GTED's labels), and ascriptions that change nothing. Canonical, always
//! towards the form on the right. Declared as data (`declare`) for the matcher (`table`); owns nothing else.

use super::carriers::Carriers;
use super::declare::*;
use super::elab;
use super::leaf_casts;
use super::shapes::named_binder;
use super::shapes::{
    app_head, binder_kind, is_leaf, node2, BinderKind, EQ, FORALL, FRESH_BOUND, GE, GT, IMP, LE,
    LT, NE,
};
use super::statement::polynomial;
use super::typed;
use crate::trees::Tree;

#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    rw("Real.sqrt", "prefix:100 \"√\" => Real.sqrt", "Real.sqrt ?x", "√?x")
        .ex(&[("(x : ℝ) : Real.sqrt x = 2", "(x : ℝ) : √x = 2")])
        .non(&["(n : ℕ) : Nat.sqrt n = 2"]),
    // Mathlib/Data/Set/Defs.lean: `infixl:80 " '' " => image`, `infixl:80 " ⁻¹' " => preimage`.
    rw("Set.image", "infixl:80 \" '' \" => Set.image", "Set.image ?f ?s", "?f '' ?s")
        .ex(&[("(f : ℝ → ℝ) (s : Set ℝ) : IsOpen (Set.image f s)", "(f : ℝ → ℝ) (s : Set ℝ) : IsOpen (f '' s)")])
        .non(&["(f : ℕ → ℕ) (s : Finset ℕ) : (Finset.image f s).card = 1"]),
    rw("Set.preimage", "infixl:80 \" ⁻¹' \" => Set.preimage", "Set.preimage ?f ?s", "?f ⁻¹' ?s")
        .ex(&[("(f : ℝ → ℝ) (s : Set ℝ) : IsOpen (Set.preimage f s)", "(f : ℝ → ℝ) (s : Set ℝ) : IsOpen (f ⁻¹' s)")])
        .non(&["(f : ℕ → ℕ) (s : Finset ℕ) (h : Set.InjOn f (f ⁻¹' s)) : (Finset.preimage s f h).card = 1"]),
    rw("Int.floor", "notation \"⌊\" a \"⌋\" => Int.floor a", "Int.floor ?x", "⌊?x⌋")
        .ex(&[("(x : ℝ) : Int.floor x = 2", "(x : ℝ) : ⌊x⌋ = 2")])
        .non(&["(x : ℝ) : Nat.floor x = 2"]),
    rw("Int.ceil", "notation \"⌈\" a \"⌉\" => Int.ceil a", "Int.ceil ?x", "⌈?x⌉")
        .ex(&[("(x : ℝ) : Int.ceil x = 2", "(x : ℝ) : ⌈x⌉ = 2")])
        .non(&["(x : ℝ) : Nat.ceil x = 2"]),
    rw("Nat.factorial", "notation:10000 n \"!\" => Nat.factorial n", "Nat.factorial ?n", "?n !")
        .ex(&[("(n : ℕ) : Nat.factorial n = 2", "(n : ℕ) : n ! = 2")])
        .non(&["(n : ℕ) : Nat.choose n 2 = 2"]),
    code("Π is ∀", "Π x : α, β is ∀ x : α, β (one pi type)", |t, _| (t.label == "Π _ , _ " && t.children.len() >= 2).then(|| ("Π is ∀", Tree::node(FORALL, t.children.clone()))))
        .ex(&[(": Π n : ℕ, n = n", ": ∀ n : ℕ, n = n")])
        .non(&[": ∀ n : ℕ, n = n"]),
    // Lean 4's `depArrow` (`bracketedBinder → term`, Lean/Parser/Term.lean) is the pi type
    // `∀ x : α, β`; a parenthesized ascription `(e : α) → β` is parsed as this binder, never
    // as a term (`depArrow` is tried first).
    code("(x : α) → β is ∀", "(x : α) → β is ∀ x : α, β (depArrow: one pi type)", |t, _| match (t.label.as_str(), t.children.as_slice()) {
        (" _ → _ ", [b, body]) if b.label == " _ : _ " && b.children.len() == 2 && b.children[0].children.is_empty() => Some(("(x : α) → β is ∀", Tree::node(FORALL, vec![b.clone(), body.clone()]))),
        _ => None,
    })
        .ex(&[("{ι : Type*} {X : ι → Type*} (f : (i : ι) → X i) : True", "{ι : Type*} {X : ι → Type*} (f : ∀ i : ι, X i) : True")])
        // A plain arrow; a type ascription `((e : α)) → β` is a term, not a binder.
        .non(&["(f : ℕ → ℕ) : True", "(n : ℕ) (h : (n : ℤ) = 1 → n = 1) : True"]),
    code("Function.comp_apply", "(f ∘ g) x = f (g x), for named f, g", comp_apply)
        .ex(&[("(f g : ℝ → ℝ) (x : ℝ) : (f ∘ g) x = 0", "(f g : ℝ → ℝ) (x : ℝ) : f (g x) = 0")])
        .non(&["(f g : ℝ → ℝ) (x : ℝ) : (f ∘ (g ∘ f)) x = 0", "(f : ℝ → ℝ) (g : ℕ → ℕ) (x : ℕ) : (f ∘ g) x = 0"]),
    code("Function.comp_def", "f ∘ g = fun x => f (g x), for named f, g whose types meet", comp_unapplied)
        .ex(&[("(f : ℝ → ℝ) (x : ℕ → ℝ) : Continuous (f ∘ x)", "(f : ℝ → ℝ) (x : ℕ → ℝ) : Continuous (fun x✝ => f (x x✝))")])
        .non(&["(f : ℝ → ℝ) (x : ℕ → ℕ) : Continuous (f ∘ x)", "(f : ℝ → ℝ) : Continuous (f ∘ g)", "(f : ℝ → ℝ) (g : ℝ → ℝ → ℝ) : Continuous (f ∘ g)"]),
    // Mathlib/Order/SetNotation.lean: `⋃ i, s i` is `notation3` for `iUnion fun i => s i`.
    code("Set.iUnion (notation, η)", "⋃ i, f i is Set.iUnion f (⋂: Set.iInter), for a function name f : ι → Set α and i : ι", indexed_union)
        .ex(&[("(U : ℕ → Set ℝ) : IsOpen (⋃ i, U i)", "(U : ℕ → Set ℝ) : IsOpen (Set.iUnion U)"), ("(U : ℕ → Set ℝ) : IsClosed (⋂ i : ℕ, U i)", "(U : ℕ → Set ℝ) : IsClosed (Set.iInter U)")])
        // A binder of another type (a coercion), a function of finsets (coerced inside the `fun`
        // only), more than the index applied, an unknown function, the index in the function.
        .non(&["(U : ℤ → Set ℝ) : IsOpen (⋃ i : ℕ, U i)", "(U : ℕ → Finset ℝ) : IsOpen (⋃ i, (U i : Set ℝ))", "(U : ℕ → Finset ℝ) : (⋃ i, U i) = ∅",
               "(U : ℕ → ℕ → Set ℝ) : IsOpen (⋃ i, U i i)", "(U : α) : IsOpen (⋃ i, U i)"]),
    code("η-reduction", "fun x => f x is f (definitionally), for a function name f : α → β and x : α", eta)
        .ex(&[("(f : ℝ → ℝ) : Continuous (fun x => f x)", "(f : ℝ → ℝ) : Continuous f"), ("(f : ℝ → ℝ) : Continuous (fun (x : ℝ) => f x)", "(f : ℝ → ℝ) : Continuous f")])
        .non(&["(f : ℝ → ℝ) : Continuous (fun (x : ℕ) => f x)", "(f : ℝ → ℝ) : Continuous (fun x => f (x + 1))", "(f : ℝ → ℝ → ℝ) : Continuous (fun x => f x x)", "(g : ℝ) : Continuous (fun x => g x)", // At an expected type that coerces: `(fun x => f x) ∈ S` is `fun x => ↑(f x)` for S : Set (ℕ → ℝ).
 "(f : ℕ → ℕ) (S : Set (ℕ → ℝ)) : (fun x => f x) ∈ S", "(f : ℕ → ℕ) (P : (ℕ → ℝ) → Prop) : P (fun x => f x)"]),
    code("numeral (leading zeros)", "020 is the numeral 20", leading_zeros)
        .ex(&[("(n : ℕ) : n = 020", "(n : ℕ) : n = 20")])
        .non(&["(n : ℕ) : n = 20", "(n : ℕ) : n = 0"]),
    rw("abs", "macro:max atomic(\"|\" noWs) a:term noWs \"|\" : term => `(abs $a)", "abs ?a", "|?a|")
        .ex(&[("(x : ℝ) : abs x = 2", "(x : ℝ) : |x| = 2")])
        .non(&["(x : ℝ) : Nat.abs x = 2"]),
    // Mathlib/Analysis/Normed/Group/Basic.lean: `class Norm (E) where norm : E → ℝ`, `export
    // Norm (norm)`, `notation "‖" e "‖" => norm e`.
    rw("norm", "notation \"‖\" e \"‖\" => norm e", "norm ?a", "‖?a‖")
        .ex(&[("(x y : ℂ) : norm (x - y) = 2", "(x y : ℂ) : ‖x - y‖ = 2")])
        .non(&["(x : ℂ) : Complex.norm x = 2", "(x : ℝ) : nnnorm x = 2"]),
    rw("Real.log_div_log", "Real.log x / Real.log b = Real.logb b x", "Real.log ?x / Real.log ?b", "Real.logb ?b ?x")
        .ex(&[("(x : ℝ) : Real.log x / Real.log 2 = 3", "(x : ℝ) : Real.logb 2 x = 3")])
        .non(&["(x : ℝ) : Real.log x / 2 = 3"]),
    rw("Nat.ModEq", "Nat.ModEq n a b is a % n = b % n (its definition)", "?a ≡ ?b [MOD ?n]", "?a % ?n = ?b % ?n").when(&[on(&["?a", "?b", "?n"], &NAT)])
        .ex(&[("(a : ℕ) : a ≡ 1 [MOD 3]", "(a : ℕ) : a % 3 = 1 % 3")])
        .non(&["(a : ℝ) : a ≡ 1 [MOD 3]"]),
    code("Int.natCast_modEq_iff", "↑a ≡ ↑b [ZMOD ↑n] ↔ a ≡ b [MOD n] (a b n : ℕ)", zmod_of_naturals)
        .ex(&[("(n : ℕ) : Nat.factorial (n - 1) ≡ 0 [ZMOD n]", "(n : ℕ) : Nat.factorial (n - 1) ≡ 0 [MOD n]"), (": 5 ^ 30 ≡ 1 [ZMOD 7]", ": 5 ^ 30 ≡ 1 [MOD 7]")])
        .non(&["(a b : ℕ) : a - b ≡ 0 [ZMOD 3]", "(a : ℤ) : a ≡ 0 [ZMOD 3]", ": 2 - 3 ≡ 4 [ZMOD 5]", "(x : α) : x ≡ 0 [ZMOD 3]",
               // The sum and `|·|` take ℤ from the relation before their operands.
               "(n : ℕ) (f : ℕ → ℕ) : ∑ i ∈ Finset.range n, (f i - 1) ≡ 0 [ZMOD 3]", "(n : ℕ) : |n - 1| ≡ 2 [ZMOD 3]"]),
    // `[ZMOD n]` elaborates its operands at ℤ (`↑a - ↑b` for naturals `a b`); `%` elaborates
    // them at their own type: only where that is ℤ already.
    rw("Int.ModEq", "Int.ModEq n a b is a % n = b % n (its definition)", "?a ≡ ?b [ZMOD ?n]", "?a % ?n = ?b % ?n").when(&[on(&["?a", "?b", "?n"], &INT)])
        .ex(&[("(a : ℤ) : a ≡ 1 [ZMOD 3]", "(a : ℤ) : a % 3 = 1 % 3")])
        .non(&["(a b : ℕ) : a - b ≡ 0 [ZMOD 3]", ": 2 - 3 ≡ 4 [ZMOD 5]"]),
    rw("Nat.prime_iff", "Nat.Prime p ↔ _root_.Prime p (Mathlib/Data/Nat/Prime/Basic.lean)", "Prime ?p", "Nat.Prime ?p").when(&[on(&["?p"], &NAT)])
        .ex(&[("(p : ℕ) : Prime p", "(p : ℕ) : Nat.Prime p")])
        .non(&["(p : ℤ) : Prime p", "(p : α) : Prime p", "(p : ℕ) : Prime (p : ℤ)"]),
    code("dot notation", "x.f is T.f x for x : T … (generalized field notation)", |t, ctx| typed::dot_notation(t, ctx.carriers).map(|new| ("dot notation", new)))
        .ex(&[("(p : ℕ) : p.Prime", "(p : ℕ) : Nat.Prime p"), ("(s : Finset ℕ) : s.Nonempty", "(s : Finset ℕ) : Finset.Nonempty s"),
              ("{G : Type*} [Group G] (b : G) : (orderOf b).Prime", "{G : Type*} [Group G] (b : G) : Nat.Prime (orderOf b)"),
              ("{X : Type*} (A C : Set X) : (C ∩ Aᶜ).Nonempty", "{X : Type*} (A C : Set X) : Set.Nonempty (C ∩ Aᶜ)"),
              ("{X Y : Type*} (f : X → Y) (s : Set X) : (f '' s).Nonempty", "{X Y : Type*} (f : X → Y) (s : Set X) : Set.Nonempty (f '' s)"),
              ("{X : Type*} [TopologicalSpace X] (A C : Set X) : (C ∩ frontier A).Nonempty", "{X : Type*} [TopologicalSpace X] (A C : Set X) : Set.Nonempty (C ∩ frontier A)"),
              ("{G H : Type*} [Group G] [Group H] (φ : G →* H) (N : Subgroup G) : (N.map φ).Normal", "{G H : Type*} [Group G] [Group H] (φ : G →* H) (N : Subgroup G) : (Subgroup.map φ N).Normal"),
              // An ascribed receiver has its ascription's type.
              (": (12 : ℕ).lcm 18 = 36", ": Nat.lcm (12 : ℕ) 18 = 36")])
        .non(&["(p : α) : p.Prime", ": (12 : α).lcm 18 = 36", "(x : ℤ) : x.floor = 2", "(x : ℕ) : (x : ℤ).ceil = 2",
               // Receivers of two namespaces; a function variable named orderOf into α.
               "{X : Type*} (A : Set X) (C : Finset X) : (C ∩ Aᶜ).Nonempty", "{G : Type*} (orderOf : G → α) (b : G) : (orderOf b).Prime",
               // Not a subobject map of the table: the receiver's place is not known.
               "{G : Type*} [Group G] (N : Subgroup G) (g : G) : (N.foo g).Normal"]),
    code("Function.Injective (definition)", "Injective f := ∀ ⦃a₁ a₂⦄, f a₁ = f a₂ → a₁ = a₂ (Mathlib/Logic/Function/Defs.lean)", injective_unfolded)
        .ex(&[("(f : ℕ → ℕ) : Function.Injective f", "(f : ℕ → ℕ) : ∀ a✝₁, ∀ a✝₂, f a✝₁ = f a✝₂ → a✝₁ = a✝₂"),
              ("(a : ℝ) : Function.Injective (fun x : ℝ => a * x)", "(a : ℝ) : ∀ a✝₁ : ℝ, ∀ a✝₂ : ℝ, a * a✝₁ = a * a✝₂ → a✝₁ = a✝₂")])
        // Surjective; a `fun` with no written type that its body does not type (its domain is the
        // context's).
        .non(&["(f : ℕ → ℕ) : Function.Surjective f", "(a : ℝ) : Function.Injective (fun x => a * x)"]),
    code("Differentiable (definition)", "Differentiable 𝕜 f := ∀ x, DifferentiableAt 𝕜 f x (Mathlib/Analysis/Calculus/FDeriv/Defs.lean)", differentiable_unfolded)
        .ex(&[("(f : ℝ → ℝ) : Differentiable ℝ f", "(f : ℝ → ℝ) : ∀ x✝ : ℝ, DifferentiableAt ℝ f x✝")])
        // On a set; at a point; `DifferentiableAt` bound by the statement.
        .non(&["(f : ℝ → ℝ) (s : Set ℝ) : DifferentiableOn ℝ f s", "(f : ℝ → ℝ) : DifferentiableAt ℝ f 0",
               "(DifferentiableAt : Type → (ℝ → ℝ) → ℝ → Prop) (f : ℝ → ℝ) : Differentiable ℝ f"]),
    code("Odd (definition)", "Odd n := ∃ m, n = 2 * m + 1 (Mathlib/Algebra/Group/Even.lean … Algebra/Ring/Parity.lean)", odd_unfolded)
        .ex(&[("(n : ℤ) : Odd n", "(n : ℤ) : ∃ m✝, n = 2 * m✝ + 1")])
        .non(&["(n : ℤ) : Even n", "(n : ℤ) : Nat.Odd n"]),
    rw("Function.Bijective (definition)", "Bijective f := Injective f ∧ Surjective f (Mathlib/Logic/Function/Defs.lean)", "Function.Bijective ?f", "Function.Injective ?f ∧ Function.Surjective ?f")
        .ex(&[("(f : ℕ → ℕ) : Function.Bijective f", "(f : ℕ → ℕ) : Function.Injective f ∧ Function.Surjective f")])
        .non(&["(f : ℕ → ℕ) : Function.Injective f", "(f : ℕ → ℕ) : Set.BijOn f s t"]),
    code("Function.Surjective (definition)", "Surjective f := ∀ b, ∃ a, f a = b (Mathlib/Logic/Function/Defs.lean)", surjective_unfolded)
        .ex(&[("(f : ℕ → ℕ) : Function.Surjective f", "(f : ℕ → ℕ) : ∀ b✝, ∃ a✝, f a✝ = b✝")])
        .non(&["(f : ℕ → ℕ) : Function.Injective f", "(f : ℕ → ℕ) : Function.Surjective (f ∘ f)"]),
    code("ExistsUnique (definition)", "ExistsUnique p := ∃ x, p x ∧ ∀ y, p y → y = x (Mathlib/Logic/ExistsUnique.lean)", exists_unique_unfolded)
        .ex(&[(": ∃! x : ℕ, x + 1 = 2", ": ∃ x : ℕ, x + 1 = 2 ∧ ∀ y✝ : ℕ, y✝ + 1 = 2 → y✝ = x"), (": ∃! x, x + 1 = 2", ": ∃ x, x + 1 = 2 ∧ ∀ y✝, y✝ + 1 = 2 → y✝ = x")])
        // `∃! x y, p` is `∃! x, ∃! y, p`, not one uniqueness of the pair; `∃! x > 0, p` puts
        // the bound inside the uniqueness: neither is the one-binder definition.
        .non(&[": ∃! x y : ℕ, x + y = 2", ": ∃! x > 0, x + 1 = 2", ": ∃ x : ℕ, x + 1 = 2"]),
    code("Even (definition)", "Even n := ∃ r, n = r + r (Mathlib/Algebra/Group/Even.lean)", even_folded)
        .ex(&[("(n : ℤ) : ∃ r, n = r + r", "(n : ℤ) : Even n"), ("(n : ℤ) : ∃ k : ℤ, n = k + k", "(n : ℤ) : Even n")])
        .non(&["(n : ℤ) : ∃ r, n = r + 1", "(n : ℤ) : ∃ r : ℕ, n = r + r", "(n : ℤ) : ∃ r, r = r + r", "(n : ℤ) (m : ℤ) : ∃ r, n = r + m"]),
    rw("Int.ModEq (notation)", "notation:50 a \" ≡ \" b \" [ZMOD \" n \"]\" => Int.ModEq n a b", "Int.ModEq ?n ?a ?b", "?a ≡ ?b [ZMOD ?n]")
        .ex(&[("(a b : ℤ) : Int.ModEq 3 a b", "(a b : ℤ) : a ≡ b [ZMOD 3]")])
        .non(&["(a b : ℕ) : Nat.ModEq 3 a b"]),
    rw("Nat.ModEq (notation)", "notation:50 a \" ≡ \" b \" [MOD \" n \"]\" => Nat.ModEq n a b", "Nat.ModEq ?n ?a ?b", "?a ≡ ?b [MOD ?n]")
        .ex(&[("(a b : ℕ) : Nat.ModEq 3 a b", "(a b : ℕ) : a ≡ b [MOD 3]")])
        .non(&["(a b : ℤ) : Int.ModEq 3 a b"]),
    code("Finset.sum (notation) / Finset.prod (notation)", "∑ x ∈ s, f x is notation for Finset.sum s (fun x ↦ f x) (Mathlib/Algebra/BigOperators/Group/Finset.lean); likewise ∏", big_operator_notation)
        .ex(&[("(n : ℕ) : Finset.sum (Finset.range n) (fun i => i ^ 2) = 0", "(n : ℕ) : ∑ i ∈ Finset.range n, i ^ 2 = 0"), ("(n : ℕ) (f : ℕ → ℕ) : Finset.prod (Finset.range n) f = 0", "(n : ℕ) (f : ℕ → ℕ) : ∏ x✝ ∈ Finset.range n, f x✝ = 0"), ("(n : ℕ) : Finset.sum (Finset.range n) id = 0", "(n : ℕ) : ∑ x✝ ∈ Finset.range n, x✝ = 0")])
        // A typed binder may cast the elements; a function that is not a name or a `fun` is
        // left as written.
        .non(&["(n : ℕ) : Finset.sum (Finset.range n) (fun (i : ℝ) => i) = 0", "(n : ℕ) (g : ℕ → ℕ → ℕ) : Finset.sum (Finset.range n) (g 1) = 0", "(n : ℕ) : Set.sum (Finset.range n) (fun i => i) = 0"]),
    rw("Set.image", "infixl:80 \" '' \" => Set.image", "Set.image ?f ?s", "?f '' ?s")
        .ex(&[("(f : ℝ → ℝ) (s : Set ℝ) : Set.image f s = s", "(f : ℝ → ℝ) (s : Set ℝ) : f '' s = s")])
        .non(&["(f : ℕ → ℕ) (s : Finset ℕ) : Finset.image f s = s", "(f : ℝ → ℝ) : Set.image f = Set.image f", "(f : ℝ → ℝ) (s : Set ℝ) : Set.preimage f s = s"]),
    rw("Set.preimage", "infixl:80 \" ⁻¹' \" => Set.preimage", "Set.preimage ?f ?s", "?f ⁻¹' ?s")
        .ex(&[("(f : ℝ → ℝ) (s : Set ℝ) : Set.preimage f s = s", "(f : ℝ → ℝ) (s : Set ℝ) : f ⁻¹' s = s")])
        .non(&["(f : ℝ → ℝ) : Set.preimage f = Set.preimage f", "(f : ℝ → ℝ) (s : Set ℝ) : Set.image f s = s"]),
    rw("type ascription (already that type)", "(e : T) elaborates to e when e : T already", "(?x : ?T)", "?x").when(&[has_type(&["?x", "?T"])])
        .ex(&[("(x : ℝ) : (x : ℝ) + 1 = 2", "(x : ℝ) : x + 1 = 2")])
        .non(&["(x : ℕ) : (x : ℝ) + 1 = 2", ": (2 : ℝ) + 1 = 3", "(x : ℕ) : (↑x : ℝ) = 2", "(x : α) : (x : ℝ) = 2", // Compound: the ascription is the type `-` elaborates at (`↑(y - 3)` is not `↑y - 3`).
 "(y : ℕ) : ((y - 3 : ℕ) : ℝ) ≥ 0"]),
    // `{x : T | p}` is `setOf fun x : T => p : Set T` (Mathlib/Order/SetNotation.lean's
    // binder-predicate set builder; Mathlib/Data/Set/Defs.lean, `setOf`): already a `Set T`.
    code("type ascription (set-builder of its type)", "({x : T | p} : Set T) is {x : T | p}: setOf gives Set T", |t, ctx| set_builder_ascription(t, ctx.carriers).map(|new| ("type ascription (set-builder of its type)", new)))
        .ex(&[(": ({n : ℕ | n > 0 ∧ n ^ 2 < 50} : Set ℕ).ncard = 7", ": {n : ℕ | n > 0 ∧ n ^ 2 < 50}.ncard = 7")])
        // An untyped binder (the ascription decides it), another element type, a `Finset`.
        .non(&[": ({n | n > 0} : Set ℕ).ncard = 7", ": ({n : ℕ | n > 0} : Set ℤ) = ∅", ": ({n : ℕ | n > 0} : Finset ℕ) = ∅"]),
    code("type ascription (numeral to variable)", "(k : T) / x is k / (x : T) for a numeral k and x of a smaller number type: binop% casts every leaf to the tree's largest type, T either way (Lean's Elab/Extra.lean)", |t, ctx| leaf_casts::numeral_ascription_to_variable(t, ctx.carriers).map(|new| ("type ascription (numeral to variable)", new)))
        .ex(&[("(n : ℕ) : (1 : ℝ) / n < 1", "(n : ℕ) : 1 / (n : ℝ) < 1"), ("(n : ℕ) : n * (2 : ℤ) = 4", "(n : ℕ) : (n : ℤ) * 2 = 4")])
        // A larger variable, a compound operand (its own ℕ truncation), a power (the exponent
        // is elaborated alone), a variable of unknown type.
        .non(&["(x : ℝ) : (1 : ℕ) + x = 2", "(n m : ℕ) : (1 : ℝ) / (n - m) < 1", "(n : ℕ) : (2 : ℝ) ^ n = 1", "(y : α) : (1 : ℝ) / y = 1"]),
    code("type ascription (beside its type)", "(x : T) * e is x * e where another leaf of the arithmetic tree has type T: binop% casts x to T either way (Lean's Elab/Extra.lean)", |t, ctx| leaf_casts::leaf_ascription_beside_its_type(t, ctx.carriers).map(|new| ("type ascription (beside its type)", new)))
        .ex(&[("(z : ℂ) (i : ℕ) : (i : ℂ) * z ^ i = 0", "(z : ℂ) (i : ℕ) : i * z ^ i = 0"), ("(x : ℝ) : (2 : ℝ) * x = 1", "(x : ℝ) : 2 * x = 1"),
              // Beside another ascription of its type, deeper in the tree.
              ("(n : ℕ) : (n : ℝ) / ((n : ℝ) + 1) = 1", "(n : ℕ) : (n : ℝ) / (n + 1) = 1"),
              // `Finset.range n : Finset ℕ` gives the sum's binder its type (`Carriers`).
              ("(z : ℂ) (n : ℕ) : ∑ i ∈ Finset.range n, (i : ℂ) * z ^ i = 0", "(z : ℂ) (n : ℕ) : ∑ i ∈ Finset.range n, i * z ^ i = 0")])
        // Beside ℕ only (ℕ division), beside another type, on a compound term.
        .non(&["(n m : ℕ) : (n : ℝ) / m = 1", "(n : ℕ) (f : ℕ → ℝ) : (n : ℤ) - f n = 0", "(n m : ℕ) (x : ℝ) : (n - m : ℝ) + x = 0"]),
    code("type ascription (of numerals, beside their type)", "(e : T) * x is e * x for numerals e and a field T another leaf of the arithmetic tree has: e's numerals join the tree, elaborated at its largest type, and the casts ℚ → ℝ → ℂ keep every operation of e (Lean's Elab/Extra.lean; Rat.cast_div); t is a relation's arithmetic, whose whole tree is typed", |t, ctx| leaf_casts::numerals_ascription_beside_its_type(t, ctx.carriers, ctx.numeral_type).map(|new| ("type ascription (of numerals, beside their type)", new)))
        .ex(&[("(x : ℝ) : (1 / 2 : ℝ) * x = 3", "(x : ℝ) : 1 / 2 * x = 3"), ("(q : ℚ) (x : ℝ) : (1 / 3 : ℚ) * q + x = 0", "(q : ℚ) (x : ℝ) : 1 / 3 * q + x = 0")])
        // ℕ (and ℤ) division; `%`; no leaf of the field beside it; a leaf of unknown type.
        .non(&["(n : ℕ) (x : ℝ) : (7 / 2 : ℕ) * n + x = 0", "(k : ℤ) (x : ℝ) : (7 / 2 : ℤ) * k + x = 0", "(q : ℚ) : (7 % 2 : ℚ) * q = 1",
               "(z : ℂ) : (1 / 2 : ℚ) * z = 0", "(y : α) : (1 / 2 : ℝ) * y = 0",
               "(x : ℝ) (A : Matrix (Fin 2) (Fin 2) ℝ) : (1 / 2 : ℝ) * x * A = A", "(x : ℝ) (f : ℝ → ℝ) : f ((1 / 2 : ℝ) * x) = 0",
               // A wrapping type (`ZMod 5`: numerals wrap), a field only in characteristic p.
               "(x : ZMod 5) : (1 / 2 : ZMod 5) * x = 3", "(n : ℕ) (x : ℝ) : (7 / 2 : ℕ) * n = x"]),
    code("type ascription (beside its type, across a relation)", "(x : T) ∘ a R e is x ∘ a R e where another leaf of the relation has type T and none is larger: binrel% analyses both operands as one tree and casts x to T either way (Lean's Elab/Extra.lean, elabBinRelCore)", |t, ctx| leaf_casts::leaf_ascription_beside_its_type_in_relation(t, ctx.carriers).map(|new| ("type ascription (beside its type, across a relation)", new)))
        .ex(&[("(n : ℕ) (q : ℚ) : q = (n : ℚ) * (n + 1) / 2", "(n : ℕ) (q : ℚ) : q = n * (n + 1) / 2"),
              ("(n : ℕ) : ∑ i ∈ Finset.range n, (i : ℚ) = (n : ℚ) / 2", "(n : ℕ) : ∑ i ∈ Finset.range n, (i : ℚ) = n / 2")])
        // A larger leaf (the relation's type is then ℝ, not the ascription's); a leaf of
        // unknown type; the only leaf of its type (ℕ division without it); `∣` (no binrel%).
        .non(&["(n : ℕ) (x : ℝ) (q : ℚ) : x = (n : ℚ) + q", "(n : ℕ) (y : α) (q : ℚ) : q = (n : ℚ) / 2 + y", "(n m : ℕ) : m = (n : ℚ) / 2",
               "(n m : ℕ) (k : ℤ) : (n : ℤ) ∣ k * m",
               // The ascription decides the elided `x` (real); without it `y` would (natural).
               "(y : ℕ) (x : _) (q : ℝ) (h : (y : ℝ) < x + q) : y + 1 ≤ x"]),
    code("type ascription (of a tree, into its relation)", "(a ∘ b : T) R e is (a : T) ∘ b R e where no leaf of the relation is larger than T: the ascribed tree is elaborated at T (analyze starts from the expected type), and without it the relation's tree has largest type T, held by (a : T) (Lean's Elab/Extra.lean)", |t, ctx| leaf_casts::tree_ascription_into_relation(t, ctx.carriers).map(|new| ("type ascription (of a tree, into its relation)", new)))
        .ex(&[("(a b : ℕ) : (a + b : ℝ) / 2 = 5", "(a b : ℕ) : ((a : ℝ) + b) / 2 = 5"),
              ("(a b : ℕ) (x : ℝ) : x = (a - b : ℝ)", "(a b : ℕ) (x : ℝ) : x = (a : ℝ) - b"),
              ("(n : ℕ) (q : ℚ) : ((n : ℚ) * (n + 1) / 2 : ℚ) = q", "(n : ℕ) (q : ℚ) : (n : ℚ) * (n + 1) / 2 = q")])
        // A larger leaf beside it (ℤ division kept inside); a leaf of unknown type; an inner
        // leaf that is no variable (its own arithmetic: `f` may be anything); `∣` (no binrel%).
        .non(&["(a b : ℕ) (x : ℝ) : x = (a / b : ℤ)", "(a b : ℕ) (y : α) : y = (a - b : ℤ)", "(a b : ℕ) (f : ℕ → ℕ) : (f a - b : ℤ) = 0",
               "(a b : ℕ) (k : ℤ) : (a - b : ℤ) ∣ k",
               // Numerals alone (`norm_num` reads them as one value).
               "(x : ℝ) : (1 / 2 : ℝ) * x = 3"]),
    code("type ascription (to the first variable)", "a - (b : T) is (a : T) - b for variables a b of smaller number types: binop% casts every leaf to the tree's largest type, T either way (Lean's Elab/Extra.lean)", |t, ctx| leaf_casts::ascription_to_first_variable(t, ctx.carriers).map(|new| ("type ascription (to the first variable)", new)))
        .ex(&[("(a b : ℕ) : a - (b : ℤ) = 1", "(a b : ℕ) : (a : ℤ) - b = 1"), ("(a b c : ℕ) : a * b + (c : ℝ) = 1", "(a b c : ℕ) : (a : ℝ) * b + c = 1")])
        // A leaf of unknown type, a larger leaf, a compound ascribed term, two ascriptions.
        .non(&["(a : α) (b : ℕ) : a - (b : ℤ) = 1", "(a : ℝ) (b : ℕ) : a - (b : ℤ) = 1", "(a b c : ℕ) : a + ((b - c : ℕ) : ℤ) = 1", "(a b c : ℕ) : a + (b : ℤ) * (c : ℝ) = 1"]),
    code("type ascription (of a coercion)", "(↑x : T) is (x : T) for x of a smaller number type: both coerce x to the expected type T", |t, ctx| leaf_casts::coercion_under_ascription(t, ctx.carriers).map(|new| ("type ascription (of a coercion)", new)))
        .ex(&[("(n : ℕ) : (↑n : ℝ) + 1 = 2", "(n : ℕ) : (n : ℝ) + 1 = 2"), ("(n : ℕ) : ∑ i ∈ Finset.range n, (↑i : ℝ) = 2", "(n : ℕ) : ∑ i ∈ Finset.range n, (i : ℝ) = 2")])
        // A type no smaller, unknown, or a compound coerced term (its own ℕ arithmetic).
        .non(&["(x : ℝ) : (↑x : ℕ) = 2", "(x : α) : (↑x : ℝ) = 2", "(a b : ℕ) : (↑(a - b) : ℝ) = 2"]),
    code("type ascription (beside its type, decided binder)", "fun n => … (n : T) ∘ e … is fun n => … n ∘ e … where n's first use decides its type and e has a leaf of type T: binop% casts n to T either way (Lean's Elab/Extra.lean)", |t, ctx| leaf_casts::ascription_beside_its_type_under_binder(t, ctx.carriers).map(|new| ("type ascription (beside its type, decided binder)", new)))
        .ex(&[("(a : ℕ → ℝ) : Filter.Tendsto (fun n => a n / (n : ℝ)) Filter.atTop (nhds 0)", "(a : ℕ → ℝ) : Filter.Tendsto (fun n => a n / n) Filter.atTop (nhds 0)")])
        // First use is the ascription itself (then `n : ℝ`), a type no use decides, the name
        // bound again inside, beside ℕ only (ℕ division).
        .non(&["(a : ℕ → ℝ) : Filter.Tendsto (fun n => (n : ℝ) / 2 + a n) Filter.atTop (nhds 0)", "(a : ℕ → ℝ) : Filter.Tendsto (fun n => a 0 / (n : ℝ)) Filter.atTop (nhds 0)", "(a : ℕ → ℝ) (s : Finset ℕ) : Filter.Tendsto (fun n => a n + ∑ n ∈ s, a n / (n : ℝ)) Filter.atTop (nhds 0)", "(a : ℕ → ℕ) : Filter.Tendsto (fun n => a n / (n : ℝ)) Filter.atTop (nhds 0)",
               // Beside a numeral only: ℕ division without the ascription.
               "(n : ℕ) : ∑ i ∈ Finset.range n, (i : ℝ) / 2 = 0"]),
    code("type ascription (under its parameter's type)", "f (… (x : T) ∘ e …) is f (… x ∘ e …) where f's explicit parameter has type T: binop% starts its largest type from the expected type, so a smaller leaf is cast to T either way (Lean's Elab/Extra.lean, analyze)", |t, ctx| leaf_casts::ascription_under_its_parameter(t, ctx.carriers).map(|new| ("type ascription (under its parameter's type)", new)))
        .ex(&[("(n a : ℤ) : √((n : ℝ) ^ 3 + a * n) = 2", "(n a : ℤ) : √(n ^ 3 + a * n) = 2"), ("(x : ℕ) : Real.log ((x : ℝ) + 1) = 0", "(x : ℕ) : Real.log (x + 1) = 0")])
        // The ascription is what makes the tree real elsewhere: a relation (no parameter), a
        // compound ascribed term (ℕ subtraction inside), another type than the parameter's, a
        // function the statement binds.
        .non(&["(n : ℕ) : (n : ℝ) - 1 < 2", "(a b : ℕ) : √(((a - b : ℕ) : ℝ) + 1) = 1", "(n : ℕ) : √((n : ℤ) - 5) = 0", "(n : ℕ) (f : ℕ → ℝ) : f ((n : ℝ) + 1) = 0", "(n : ℕ) : Nat.Prime ((n : ℤ).natAbs + 1)"]),
    code("type ascription (at its parameter's type)", "f (e : T) is f e where f's explicit parameter has type T: an argument is elaborated against its parameter's type as an ascription is (elabTermEnsuringType)", |t, ctx| leaf_casts::ascription_at_its_parameter(t, ctx.carriers).map(|new| ("type ascription (at its parameter's type)", new)))
        .ex(&[("(n : ℕ) : Nat.Prime (2 ^ n + 1 : ℕ)", "(n : ℕ) : Nat.Prime (2 ^ n + 1)"), ("(x : ℝ) : Real.sqrt (x + 1 : ℝ) = 2", "(x : ℝ) : Real.sqrt (x + 1) = 2")])
        // Another type (a cast of the whole value), a generic parameter, a rebound name.
        .non(&["(n m : ℕ) : Real.sqrt (n - m : ℕ) = 2", "(x : ℝ) : IsPrimitiveRoot (x : ℝ) 3", "(Nat.Prime : ℝ → Prop) (x : ℝ) : Nat.Prime (x : ℝ)"]),
    code("type ascription (interval integral end)", "∫ x in (a : ℝ)..b, r is ∫ x in a..b, r: intervalIntegral (f : ℝ → E) (a b : ℝ) elaborates each end against ℝ (Mathlib/MeasureTheory/Integral/IntervalIntegral/Basic.lean)", |t, ctx| leaf_casts::ascription_at_interval_end(t, ctx.carriers).map(|new| ("type ascription (interval integral end)", new)))
        .ex(&[(": ∫ x in (0 : ℝ)..(1 : ℝ), x = 1 / 2", ": ∫ x in 0..(1 : ℝ), x = 1 / 2"), ("(n : ℕ) : ∫ x in 0..(n : ℝ), x = 0", "(n : ℕ) : ∫ x in 0..n, x = 0")])
        // Another type's ascription (ℕ subtraction inside), a set integral, a rebound `ℝ`.
        .non(&["(a b : ℕ) : ∫ x in 0..(a - b : ℕ), x = 0", "(s : Set ℝ) : ∫ x in s, (x : ℝ) = 0", "(Real : Type) : ∫ x in 0..(1 : Real), x = 0"]),
    code("type ascription (at its relation's type)", "(e : T) = b is e = b when the relation is elaborated at T either way (binrel%)", ascription_at_relation)
        .ex(&[("(n : ℕ) : (n + 1 : ℕ) = 3", "(n : ℕ) : n + 1 = 3"), ("(x : ℝ) : (2 - x : ℝ) < x", "(x : ℝ) : 2 - x < x"), ("(x : ℝ) : (3 : ℝ) ≤ x", "(x : ℝ) : 3 ≤ x")])
        .non(&["(a b : ℕ) (c : ℤ) : ((a - b : ℕ) : ℤ) = c", "(x : ℝ) (n : ℕ) : x = (n - 5 + 1 : ℕ)", ": (2 - 3 : ℤ) < 0",
               // The ascription decides `x`'s type where its binder's `ℝ` is not written.
               "(x : _) (h : (0 : ℝ) < x) : 1 ≤ x", ": ∀ x : ℝ, x ∈ Set.Ioi (0 : ℝ) → 1 ≤ x"]),
    moves_code("type ascription (to the other operand)", "(a : T) ≠ b is a ≠ (b : T) for numerals a b: binrel% elaborates both operands at T either way (Lean's Elab/Extra.lean); so =, <, ≤", ascription_to_other_operand)
        .ex(&[(": (1 : ℝ) ≠ 0", ": 1 ≠ (0 : ℝ)"), (": (2 : ℤ) < 3 + 1", ": 2 < (3 + 1 : ℤ)")])
        // A name's own type decides (`x < (2 : ℝ)` casts a natural x); `∣` is no binrel%.
        .non(&["(x : ℕ) : x < (2 : ℝ)", ": 2 ∣ (4 : ℤ)", "(x : ℕ) : (x : ℝ) - 3 = 1"]),
    rw("coe_sort (↥S in a type is S)", "a set or subobject in a type position is coerced: (x : S) is (x : ↥S)", "(?x : ↥?S)", "(?x : ?S)")
        .ex(&[("(S : Set ℝ) (y : ↥S) : (y : ↥S) = y", "(S : Set ℝ) (y : ↥S) : (y : S) = y")])
        .non(&["(S : Set ℝ) (y : S) : (y : ℝ) = y", "(S : Set ℝ) (y : S) : (y : S) = y"]),
    code("coe_sort (↥S in a type is S)", "a binder type `↥S` is `S`: a set or subobject where a type is expected is coerced (CoeSort)", coe_sort_binder)
        .ex(&[("(S : Set ℝ) (y : ↥S) : y = y", "(S : Set ℝ) (y : S) : y = y")])
        .non(&["(S : Set ℝ) (y : ℝ) : y ∈ S", "(S : Set ℝ) : ∀ y ∈ S, y = y"]),
    canonical("Polynomial (notation R[X])", "scoped[Polynomial] notation:9000 R \"[X]\" => Polynomial R", Action::Notation(polynomial))
        .ex(&[("(p : ℚ[X]) : p = p", "(p : Polynomial ℚ) : p = p")])
        .non(&["(X : ℕ) (f : ℕ → ℕ) : f X = 1"]),
];

/// `a ≡ b [ZMOD n]` whose operands are natural numbers cast to ℤ as a whole: ℕ-typed terms
/// (elaboration-lite) whose arithmetic down to their atoms has no `-` (binop% pushes the cast to
/// the leaves, and `↑(a + b) = ↑a + ↑b`, `↑(a / b) = ↑a / ↑b`, `↑(a % b) = ↑a % ↑b` hold while
/// `↑(a - b) = ↑a - ↑b` does not), numerals included. Then `Int.natCast_modEq_iff`
/// (Mathlib/Data/Int/ModEq.lean) makes it `[MOD n]`.
fn zmod_of_naturals(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    fn cast_as_whole(t: &Tree, c: &Carriers) -> bool {
        match (t.label.as_str(), t.children.as_slice()) {
            (" _ - _ ", _) | ("-", _) => false,
            (" _ + _ " | " _ * _ " | " _ / _ " | " _ % _ ", [a, b]) => {
                cast_as_whole(a, c) && cast_as_whole(b, c)
            }
            (" _ ^ _ ", [base, _]) => cast_as_whole(base, c),
            // `(e : ℕ)` is elaborated at ℕ whatever surrounds it.
            ("( _ : _ )", [_, ty]) => elab::num_of_type(ty) == Some(elab::Num::Nat),
            // `n !` is `Nat.factorial n` (Mathlib/Data/Nat/Factorial/Basic.lean).
            ("!", [_]) => true,
            // A leaf, or a function whose result is ℕ whatever is expected: a bound function
            // with codomain ℕ or a Mathlib function of fixed result (`Nat.factorial`). Any
            // other node may take ℤ from `[ZMOD n]` before its operands (`∑ i ∈ s, (f i - 1)`
            // is `Finset.sum s fun i => (f i : ℤ) - 1`, `|n - 1|` is `|(n : ℤ) - 1|`).
            _ if is_leaf(t)
                || app_head(t)
                    .is_some_and(|f| c.binds(f) || super::result_types::fixed_result(f)) =>
            {
                matches!(elab::type_of(t, c), elab::Ty::Num(elab::Num::Nat) | elab::Ty::Numeral)
            }
            _ => false,
        }
    }
    if t.label != " _ ≡ _ [ZMOD _ ]" || t.children.len() != 3 {
        return None;
    }
    t.children
        .iter()
        .all(|x| cast_as_whole(x, ctx.carriers))
        .then(|| ("Int.natCast_modEq_iff", Tree::node(" _ ≡ _ [MOD _ ]", t.children.clone())))
}

/// An operand `(e : T)` of a binary relation whose operands are elaborated together
/// (`binrel%`) at `T` with the ascription and without it: the ascription changes nothing.
/// Only where `e` alone is of type `T`, or the other operand is no term whose one name the
/// relation decides the type of (`(5 : ℤ) ∣ b - a`): an ascribed numeral (`(0 : ℝ) < x`) is
/// what decides an `x` bound without a type, and `binder type (elaboration)` leaves out `x`'s
/// written `ℝ` on that ground; dropping the ascription after it would leave `∀ x, 0 < x`, at ℕ.
fn ascription_at_relation(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    if !matches!(t.label.as_str(), EQ | NE | LT | LE | GT | GE | " _ ∣ _ ") || t.children.len() != 2
    {
        return None;
    }
    for i in 0..2 {
        let ("( _ : _ )", [e, ty]) =
            (t.children[i].label.as_str(), t.children[i].children.as_slice())
        else {
            continue;
        };
        let Some(n) = elab::num_of_type(ty) else {
            continue;
        };
        let other = &t.children[1 - i];
        let with = elab::carrier(&[&t.children[i], other], ctx.carriers);
        let alone = elab::carrier(&[e], ctx.carriers);
        let without = elab::carrier(&[e, other], ctx.carriers);
        let decides_other = typed::decided_by_relation(other);
        // A theorem binder still of its written type `n` (`(x : ℝ) … (3 : ℝ) ≤ x`): an ascribed
        // numeral decides no binder's type (`typed::anchored_type`), so `x` keeps `ℝ` after.
        let written_other = is_leaf(other)
            && ctx.carriers.name_type(&other.label).and_then(elab::num_of_type) == Some(n);
        let kept = !decides_other || written_other;
        if with == Some(n) && (alone == Some(n) || (without == Some(n) && kept)) {
            let mut out = t.clone();
            out.children[i] = e.clone();
            return Some(("type ascription (at its relation's type)", out));
        }
    }
    None
}

/// [`ascription_to_other_operand`]: `(a : T) R b` and `a R (b : T)` for `R` among `= ≠ < ≤ > ≥`
/// with `a` and `b` numerals and arithmetic of numerals (every leaf takes the relation's type).
fn ascription_to_other_operand(t: &Tree, _ctx: &Ctx) -> Vec<(&'static str, Tree)> {
    fn numerals(t: &Tree) -> bool {
        match (t.label.as_str(), t.children.as_slice()) {
            (_, []) => super::shapes::literal(t).is_some(),
            (" _ + _ " | " _ * _ " | " _ - _ " | " _ / _ ", [a, b]) => numerals(a) && numerals(b),
            _ => false,
        }
    }
    if !matches!(t.label.as_str(), EQ | NE | LT | LE | GT | GE) || t.children.len() != 2 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for i in 0..2 {
        let ("( _ : _ )", [e, ty]) =
            (t.children[i].label.as_str(), t.children[i].children.as_slice())
        else {
            continue;
        };
        let other = &t.children[1 - i];
        if !numerals(e) || !numerals(other) {
            continue;
        }
        let mut new = t.clone();
        new.children[i] = e.clone();
        new.children[1 - i] = Tree::node("( _ : _ )", vec![other.clone(), ty.clone()]);
        out.push(("type ascription (to the other operand)", new));
    }
    out
}

/// `Function.comp_apply : (f ∘ g) x = f (g x)` (by `rfl`), for named `f` and `g`: the applied
/// composite is written as the nested application the parser builds.
fn comp_apply(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (" _  _ ", [comp, x]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (" _ ∘ _ ", [f, g]) = (comp.label.as_str(), comp.children.as_slice()) else {
        return None;
    };
    if !is_leaf(f) || !is_leaf(g) {
        return None;
    }
    // Written types that do not meet: `f ∘ g` does not elaborate, `f (g x)` casts `g x`.
    if let (Some((f_domain, _)), Some((_, g_codomain))) =
        (function_type(f, ctx.carriers), function_type(g, ctx.carriers))
    {
        if f_domain != g_codomain {
            return None;
        }
    }
    let inner = Tree::node(format!("{} _ ", g.label), vec![x.clone()]);
    Some(("Function.comp_apply", Tree::node(format!("{} _ ", f.label), vec![inner])))
}

/// A name bound with a written function type `α → β`: its domain and codomain.
fn function_type<'c>(name: &Tree, c: &'c Carriers) -> Option<(&'c Tree, &'c Tree)> {
    if !is_leaf(name) {
        return None;
    }
    match c.name_type(&name.label)? {
        ty if ty.label == IMP && ty.children.len() == 2 => Some((&ty.children[0], &ty.children[1])),
        _ => None,
    }
}

/// `Function.comp_def : f ∘ g = fun x => f (g x)` (by `rfl`), unapplied (`(f ∘ g) x` is
/// [`comp_apply`]'s, tried first at the application above), for names `g : α → β` and
/// `f : β → γ` with written types: where the types do not meet, `f (g x)` would coerce `g x`
/// while `f ∘ g` would not elaborate, so the two are not the same term.
fn comp_unapplied(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (" _ ∘ _ ", [f, g]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let c = ctx.carriers;
    let ((f_domain, _), (_, g_codomain)) = (function_type(f, c)?, function_type(g, c)?);
    if f_domain != g_codomain || f.label == FRESH_BOUND || g.label == FRESH_BOUND {
        return None;
    }
    let x = Tree::bound_variable(FRESH_BOUND);
    let inner = Tree::node(format!("{} _ ", g.label), vec![x.clone()]);
    let body = Tree::node(format!("{} _ ", f.label), vec![inner]);
    Some(("Function.comp_def", node2("fun _ => _ ", x, body)))
}

/// Functions whose function argument has a type of free metavariables (`Continuous {α β}
/// (f : α → β)`): a lambda there is elaborated from its body, never at an expected type that
/// coerces it. Not `Tendsto`/`HasSum`/`HasDerivAt`, whose later arguments fix the codomain: a
/// postponed `fun n => f n` would be elaborated at that codomain, `↑(f n)`, while `f` alone would
/// not elaborate. Nor a bound predicate, nor `∈`/`=`, whose other side fixes the type.
const ETA_CONTEXTS: [&str; 16] = [
    "Continuous",
    "ContinuousAt",
    "ContinuousOn",
    "UniformContinuous",
    "Differentiable",
    "DifferentiableAt",
    "DifferentiableOn",
    "deriv",
    "Monotone",
    "Antitone",
    "StrictMono",
    "StrictAnti",
    "Function.Injective",
    "Function.Surjective",
    "Function.Bijective",
    "Summable",
];

/// η-reduction: `fun x => f x` is `f` (definitionally), for a name `f : α → β` with a written
/// type and `x` untyped or written `α`, as an argument of one of [`ETA_CONTEXTS`] (the rule sits
/// at that application, so that it sees where the lambda is elaborated). A function applied to
/// more than `x`, a binder of another type (which would coerce) or a name of no written function
/// type stays.
fn eta(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let head = app_head(t)?;
    if !ETA_CONTEXTS.contains(&head) {
        return None;
    }
    let (i, f) =
        t.children.iter().enumerate().find_map(|(i, c)| Some((i, eta_reduced(c, ctx)?)))?;
    let mut out = t.clone();
    out.children[i] = f;
    Some(("η-reduction", out))
}

/// `⋃ i, f i` (`⋂ i, f i`) as `Set.iUnion f` (`Set.iInter f`): the notation's `fun i => f i`
/// η-reduced ([`eta_reduced`]) where `f`'s written codomain is a `Set`, the type `iUnion`
/// expects of it (a function of finsets would be coerced inside the `fun` only).
fn indexed_union(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let head = match (t.label.as_str(), t.children.len()) {
        ("⋃ _ , _ ", 2) => "Set.iUnion _ ",
        ("⋂ _ , _ ", 2) => "Set.iInter _ ",
        _ => return None,
    };
    let lambda = Tree::node("fun _ => _ ", t.children.clone());
    let f = eta_reduced(&lambda, ctx)?;
    let (_, codomain) = function_type(&f, ctx.carriers)?;
    (codomain.label == "Set _ ").then(|| ("Set.iUnion (notation, η)", Tree::node(head, vec![f])))
}

/// `f` when `t` is `fun x => f x` with the conditions of [`eta`].
fn eta_reduced(t: &Tree, ctx: &Ctx) -> Option<Tree> {
    let ("fun _ => _ ", [binder, body]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (x, written) = named_binder(binder)?;
    let [arg] = body.children.as_slice() else {
        return None;
    };
    let f = Tree::leaf(body.label.strip_suffix(" _ ")?);
    if !is_leaf(arg) || arg.label != x.label || f.label == x.label || f.label.contains(' ') {
        return None;
    }
    let (domain, _) = function_type(&f, ctx.carriers)?;
    if written.is_some_and(|ty| ty != domain) {
        return None;
    }
    Some(f)
}

/// `Odd n` unfolded: its definition is `∃ m, n = 2 * m + 1` (in any semiring), so the two are
/// the same proposition wherever `Odd` elaborates. `n` naming the new bound name would be
/// captured: it stays.
fn odd_unfolded(t: &Tree, _: &Ctx) -> Option<(&'static str, Tree)> {
    const WITNESS: &str = "m✝";
    let ("Odd _ ", [n]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    if super::shapes::mentions(n, WITNESS) {
        return None;
    }
    let m = Tree::bound_variable(WITNESS);
    let two_m = node2(" _ * _ ", Tree::leaf("2"), m.clone());
    let body = node2(EQ, n.clone(), node2(" _ + _ ", two_m, Tree::leaf("1")));
    Some(("Odd (definition)", node2(super::shapes::EXISTS, m, body)))
}

/// A numeral written with leading zeros (`020`) is the decimal number (Lean 4 reads `0x`/`0b`/
/// `0o` prefixes only; `020` is twenty).
fn leading_zeros(t: &Tree, _: &Ctx) -> Option<(&'static str, Tree)> {
    let label = t.label.as_str();
    if !t.children.is_empty()
        || label.len() <= 1
        || !label.starts_with('0')
        || !label.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let digits = label.trim_start_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    Some(("numeral (leading zeros)", Tree::leaf(digits)))
}

/// A typed binder (not an instance binder, whose type is a class) whose type is `↥S`: the
/// type position coerces `S` itself, so `(y : ↥S)` and `(y : S)` elaborate to one binder.
fn coe_sort_binder(t: &Tree, _: &Ctx) -> Option<(&'static str, Tree)> {
    let kind = binder_kind(&t.label)?;
    if kind == BinderKind::Instance || t.children.len() < 2 {
        return None;
    }
    let ty = t.children.last()?;
    let ("↥", [s]) = (ty.label.as_str(), ty.children.as_slice()) else {
        return None;
    };
    let mut children = t.children.clone();
    let last = children.len() - 1;
    children[last] = s.clone();
    Some(("coe_sort (↥S in a type is S)", Tree::node(t.label.clone(), children)))
}

/// `Function.Injective f` unfolded to its definition, for a named `f` or a `fun (x : T) => e`
/// (β-reduced, the binders of type `T`), with bound names no statement writes (`a✝₁`, `a✝₂`:
/// renaming a bound name costs nothing, so they meet any).
fn injective_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Function.Injective _ ", [f]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let var = |name: &str| Tree::bound_variable(name);
    let names = ["a✝₁", "a✝₂"];
    let (applied, ty) = applied_at(f, &names, ctx.carriers)?;
    let bind = |name: &str| match &ty {
        Some(ty) => node2(" _ : _ ", var(name), ty.clone()),
        None => var(name),
    };
    let [left, right]: [Tree; 2] = applied.try_into().ok()?;
    let body = node2(IMP, node2(EQ, left, right), node2(EQ, var("a✝₁"), var("a✝₂")));
    let inner = node2(FORALL, bind("a✝₂"), body);
    Some(("Function.Injective (definition)", node2(FORALL, bind("a✝₁"), inner)))
}

/// `f` applied to each of `names` (bound names no statement writes): `f a` for a name `f`; for
/// `fun (x : T) => e`, `e[a/x]` (β), with `T` the type the new binders get. A `fun x => e` with
/// no written type counts where `e`'s uses of `x` decide its type (`fun x => g (f x)` with `(f :
/// α → β)`: `x : α`), as unification decides the lambda's domain; otherwise the context's
/// expected type would, which the unfolded binders do not have. Not [`super::binders_beta::beta`]:
/// the arguments here are fresh binders of type `T` (nothing to ascribe) and the body keeps the
/// type it was elaborated at, so no codomain need be known.
fn applied_at(f: &Tree, names: &[&str], c: &Carriers) -> Option<(Vec<Tree>, Option<Tree>)> {
    let var = |name: &str| Tree::bound_variable(name);
    if is_leaf(f) {
        let applied = names.iter().map(|a| Tree::node(format!("{} _ ", f.label), vec![var(a)]));
        return Some((applied.collect(), None));
    }
    let (x, e, ty) = typed::lambda_with_domain(f, c)?;
    let fresh: Vec<Tree> = names.iter().map(|a| var(a)).collect();
    if !is_leaf(x)
        || !fresh.iter().all(|a| super::substitution::substitutable(&x.label, a, &[e], None))
    {
        return None;
    }
    let applied = fresh.iter().map(|a| super::substitution::substitute(e, &x.label, a));
    Some((applied.collect(), Some(ty)))
}

/// `Function.Surjective f` unfolded to its definition, with bound names no statement writes (as
/// [`injective_unfolded`]).
fn surjective_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Function.Surjective _ ", [f]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (applied, ty) = applied_at(f, &["a✝"], ctx.carriers)?;
    let (a, b) = (Tree::bound_variable("a✝"), Tree::bound_variable("b✝"));
    let witness = match ty {
        Some(ty) => node2(" _ : _ ", a, ty),
        None => a,
    };
    let image = node2(EQ, applied.into_iter().next()?, b.clone());
    let exists = node2(super::shapes::EXISTS, witness, image);
    Some(("Function.Surjective (definition)", node2(FORALL, b, exists)))
}

/// `Differentiable 𝕜 f` unfolded to its definition, `∀ x, DifferentiableAt 𝕜 f x`, the binder
/// typed with `f`'s domain where `f` is a name of written type `α → β`, else left to `f`.
fn differentiable_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Differentiable _  _ ", [field, f]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    if ["Differentiable", "DifferentiableAt"].iter().any(|n| ctx.carriers.binds(n)) {
        return None;
    }
    let x = Tree::bound_variable("x✝");
    let domain = is_leaf(f)
        .then(|| ctx.carriers.name_type(&f.label))
        .flatten()
        .filter(|ty| ty.label == IMP && ty.children.len() == 2)
        .map(|ty| ty.children[0].clone());
    let binder = match domain {
        Some(ty) => node2(" _ : _ ", x.clone(), ty),
        None => x.clone(),
    };
    let at = Tree::node("DifferentiableAt _  _  _ ", vec![field.clone(), f.clone(), x]);
    Some(("Differentiable (definition)", node2(FORALL, binder, at)))
}

/// `∃! x, p` unfolded to `ExistsUnique`'s definition, `∃ x, p ∧ ∀ y, p[y/x] → y = x`, for one
/// binder `x` or `(x : T)` (the new `y` gets the same written type). Several binders (`∃! x y`,
/// which nests) and binder predicates stay.
fn exists_unique_unfolded(t: &Tree, _: &Ctx) -> Option<(&'static str, Tree)> {
    const OTHER: &str = "y✝";
    let ("∃! _ , _ ", [binder, body]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (x, ty) = named_binder(binder)?;
    let y = Tree::bound_variable(OTHER);
    if !super::substitution::substitutable(&x.label, &y, &[body], None) {
        return None;
    }
    let typed = |name: &Tree| match ty {
        Some(ty) => node2(" _ : _ ", name.clone(), ty.clone()),
        None => name.clone(),
    };
    let other_holds = super::substitution::substitute(body, &x.label, &y);
    let unique = node2(FORALL, typed(&y), node2(IMP, other_holds, node2(EQ, y.clone(), x.clone())));
    let exists =
        node2(super::shapes::EXISTS, typed(x), node2(super::shapes::AND, body.clone(), unique));
    Some(("ExistsUnique (definition)", exists))
}

/// `∃ r, n = r + r` folded into `Even n`, its definition. `r` must not occur in `n`, and a
/// written type of `r` must be `n`'s (elaboration-lite's number type): `∃ r : ℕ, n = r + r`
/// with `n : ℤ` casts `r` and says less.
fn even_folded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (super::shapes::EXISTS, [binder, body]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (r, written) = named_binder(binder)?;
    let (EQ, [n, sum]) = (body.label.as_str(), body.children.as_slice()) else {
        return None;
    };
    let (" _ + _ ", [r1, r2]) = (sum.label.as_str(), sum.children.as_slice()) else {
        return None;
    };
    if r1.label != r.label || r2.label != r.label || !is_leaf(r1) || !is_leaf(r2) {
        return None;
    }
    if super::shapes::mentions(n, &r.label) {
        return None;
    }
    if let Some(ty) = written {
        let n_type = match elab::type_of(n, ctx.carriers) {
            elab::Ty::Num(num) => num,
            _ => return None,
        };
        if elab::num_of_type(ty) != Some(n_type) {
            return None;
        }
    }
    Some(("Even (definition)", Tree::node("Even _ ", vec![n.clone()])))
}

/// `Finset.sum s (fun x => b)` written as the big operator `∑ x ∈ s, b` it is notation for
/// (and `Finset.prod` as `∏`), with an untyped binder (its type is `s`'s elements' either way);
/// `Finset.sum s f` for a function name `f` as `∑ x ∈ s, f x` (η), with a fresh bound name.
fn big_operator_notation(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (symbol, [set, f]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (label, rule) = match symbol {
        "Finset.sum _  _ " => ("∑ _  _ , _ ", "Finset.sum (notation)"),
        "Finset.prod _  _ " => ("∏ _  _ , _ ", "Finset.prod (notation)"),
        _ => return None,
    };
    let (x, body) = match (f.label.as_str(), f.children.as_slice()) {
        ("fun _ => _ ", [x, body]) if is_leaf(x) => (x.clone(), body.clone()),
        // `id x` is `x` (core's `def id (a : α) : α := a`, unfolded by `rfl`).
        ("id", []) if !ctx.carriers.binds("id") => {
            if super::shapes::mentions(set, FRESH_BOUND) {
                return None;
            }
            let x = Tree::bound_variable(FRESH_BOUND);
            (x.clone(), x)
        }
        (_, []) if !f.label.contains(' ') && super::shapes::literal(f).is_none() => {
            if super::shapes::mentions(set, FRESH_BOUND) {
                return None;
            }
            let x = Tree::bound_variable(FRESH_BOUND);
            let applied = Tree::node(format!("{} _ ", f.label), vec![x.clone()]);
            (x, applied)
        }
        _ => return None,
    };
    let domain = Tree::node("∈ _ ", vec![set.clone()]);
    Some((rule, Tree::node(label, vec![x, domain, body])))
}

/// `({x : T | p} : Set T)` is `{x : T | p}`: a set-builder with a typed binder is a `Set T`
/// already, so the ascription changes nothing.
fn set_builder_ascription(t: &Tree, c: &Carriers) -> Option<Tree> {
    let ("( _ : _ )", [builder, ty]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let ("{ _ | _ }", [binder, body]) = (builder.label.as_str(), builder.children.as_slice())
    else {
        return None;
    };
    let ("Set _ ", [of]) = (ty.label.as_str(), ty.children.as_slice()) else {
        return None;
    };
    // The binder's type, written or decided by its first use (`{x | f x > 0}` with `f : ℝ → ℝ`,
    // the form `binder type (elaboration)` leaves).
    let element = match (binder.label.as_str(), binder.children.as_slice()) {
        (" _ : _ ", [x, element]) if is_leaf(x) => element.clone(),
        (_, []) => {
            typed::infer_binder_type(&binder.label, body, c, typed::Deciders::TheoremBinders)?
        }
        _ => return None,
    };
    (*of == element && !c.binds("Set")).then(|| builder.clone())
}
