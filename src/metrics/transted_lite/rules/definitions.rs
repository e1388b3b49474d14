//! Definitions family: a Mathlib predicate unfolded to its definition (or to the right side of
//! the `Iff` lemma that restates it), always in that one direction, so that a statement that
//! names the predicate and one that writes it out meet. Each unfolded form is written the way
//! the other rules leave the written-out form: strict-implicit binders `⦃a b⦄` as plain `∀`s
//! (they bind as `∀` does in a proposition), binder predicates `∀ x ∈ s` as `∀ x, x ∈ s → …`,
//! and bound names no source text can write (`a✝`), which rename freely.
//!
//! Owns only these rules; it touches no other family's names. A procedure here reads the
//! predicate by its resolved name and first checks that the statement does not bind that name
//! (a variable called `Monotone` is not Mathlib's); a pattern's constants are checked by the
//! matcher.

use super::carriers::Carriers;
use super::collections::{collection, Kind};
use super::declare::*;
use super::elab;
use super::shapes::named_binder;
use super::shapes::{
    app_head, binder_kind, binder_list, is_binding_node, is_leaf, literal, mentions, node2,
    quantifier, AND, EQ, EXISTS, EXPLICIT, FORALL, IMP, LE, LT, MEM, MUL, NOT,
};
use super::shapes::{guarded_forall, GuardedForall};
use super::typed;
use crate::elab::mathlib_names::SIGNATURES;
use crate::trees::Tree;

#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    // Mathlib/Order/Monotone/Defs.lean, `[Preorder α] [Preorder β] (f : α → β)`.
    // The definition written with untyped points, `∀ a b, a ≤ b → f a ≤ f b`: `a ≤ b` gives
    // `a` and `b` one type, and `f a` makes it `f`'s domain, so this is `Monotone f` exactly
    // when the definition's unfolding (below, points typed) gives it back with the types.
    code("Monotone (definition)", "∀ a b, a ≤ b → f a ≤ f b is Monotone f (and kin), the points' type being f's domain (Mathlib/Order/Monotone/Defs.lean)", monotone_folded)
        .ex(&[("(f : ℕ → ℝ) : ∀ m, ∀ n, m ≤ n → f m ≤ f n", "(f : ℕ → ℝ) : Monotone f"),
              ("(f : ℝ → ℝ) : ∀ x, ∀ y, x < y → f y < f x", "(f : ℝ → ℝ) : StrictAnti f")])
        // Typed points (the unfolding's own form), a point of another type, a function of
        // unknown type or into a non-preorder, the relation between other terms.
        .non(&["(f : ℕ → ℝ) : ∀ m : ℕ, ∀ n : ℕ, m ≤ n → f m ≤ f n",
               "(f : α → ℝ) : ∀ m, ∀ n, m ≤ n → f m ≤ f n",
               "(f : ℝ → ℂ) : ∀ m, ∀ n, m ≤ n → f m ≤ f n",
               "(f : ℕ → ℝ) : ∀ m, ∀ n, m ≤ n + 1 → f m ≤ f n",
               "(f : ℕ → ℝ) : ∀ m, ∀ n, m ≤ n → f m ≤ f m",
               // `f` bound again inside as a function of integers.
               "(f : ℕ → ℝ) : ∀ f : ℤ → ℝ, ∀ m, ∀ n, m ≤ n → f m ≤ f n"]),
    code("Monotone (definition)", "Monotone f := ∀ ⦃a b⦄, a ≤ b → f a ≤ f b (Mathlib/Order/Monotone/Defs.lean)", monotone_unfolded)
        .ex(&[("(f : ℝ → ℝ) : Monotone f", "(f : ℝ → ℝ) : ∀ a✝ : ℝ, ∀ b✝ : ℝ, a✝ ≤ b✝ → f a✝ ≤ f b✝"),
              ("(f : ℕ → ℝ) : Antitone f", "(f : ℕ → ℝ) : ∀ a✝ : ℕ, ∀ b✝ : ℕ, a✝ ≤ b✝ → f b✝ ≤ f a✝"),
              ("(f : ℝ → ℝ) : StrictMono f", "(f : ℝ → ℝ) : ∀ a✝ : ℝ, ∀ b✝ : ℝ, a✝ < b✝ → f a✝ < f b✝"),
              (": StrictMono (fun x : ℝ => x ^ 3)", ": ∀ a✝ : ℝ, ∀ b✝ : ℝ, a✝ < b✝ → a✝ ^ 3 < b✝ ^ 3"),
              ("(f : ℝ → ℝ) : StrictAnti f", "(f : ℝ → ℝ) : ∀ a✝ : ℝ, ∀ b✝ : ℝ, a✝ < b✝ → f b✝ < f a✝"),
              ("(f : ℕ → Set ℝ) : Monotone f", "(f : ℕ → Set ℝ) : ∀ a✝ : ℕ, ∀ b✝ : ℕ, a✝ ≤ b✝ → f a✝ ≤ f b✝"),
              // A Mathlib function of the signature table.
              (": StrictMono Real.exp", ": ∀ a✝ : ℝ, ∀ b✝ : ℝ, a✝ < b✝ → Real.exp a✝ < Real.exp b✝")])
        // A compound function would need β-reduction; a statement binding `Monotone` names
        // its own predicate.
        .non(&["(f : ℝ → ℝ) : Monotone (f ∘ f)", "(Monotone : (ℝ → ℝ) → Prop) (f : ℝ → ℝ) : Monotone f", "(f : ℝ → ℝ) : MonotoneOn f (Set.Icc 0 1) ∧ Monotone.foo f", // Only `[LE α]`: `Monotone` needs preorders and does not elaborate.
 "{α β : Type*} [LE α] [LE β] (f : α → β) : Monotone f", "(f : OrderHom ℝ ℝ) : Monotone f",
 // A `fun`: an untyped or complex domain, a complex or unknown value, a body rebinding `x`.
 ": StrictMono (fun x => x ^ 3)", ": Monotone (fun x : ℂ => x)", "(f : ℝ → ℂ) : Monotone (fun x : ℝ => f x)", "(g : ℝ → α) : Monotone (fun x : ℝ => g x)",
 "(s : Finset ℕ) : Monotone (fun x : ℕ => ∑ x ∈ s, x)",
 // A complex function; a name the statement binds (untyped); one no table lists.
 ": Monotone Complex.exp", "(exp : ℝ → ℂ) : Monotone exp", ": Monotone Real.foo"]),
    code("MonotoneOn (definition)", "MonotoneOn f s := ∀ ⦃a⦄ (_ : a ∈ s) ⦃b⦄ (_ : b ∈ s), a ≤ b → f a ≤ f b (Mathlib/Order/Monotone/Defs.lean)", monotone_on_unfolded)
        .ex(&[("(f : ℝ → ℝ) (s : Set ℝ) : MonotoneOn f s", "(f : ℝ → ℝ) (s : Set ℝ) : ∀ a✝, a✝ ∈ s → ∀ b✝, b✝ ∈ s → a✝ ≤ b✝ → f a✝ ≤ f b✝"),
              ("(f : ℝ → ℝ) (s : Set ℝ) : StrictAntiOn f s", "(f : ℝ → ℝ) (s : Set ℝ) : ∀ a✝, a✝ ∈ s → ∀ b✝, b✝ ∈ s → a✝ < b✝ → f b✝ < f a✝")])
        .non(&["(f : ℝ → ℝ) (s : Set ℝ) : MonotoneOn (f ∘ f) s", "{α β : Type*} [LE α] [LE β] (f : α → β) (s : Set α) : MonotoneOn f s", "(MonotoneOn : (ℝ → ℝ) → Set ℝ → Prop) (f : ℝ → ℝ) (s : Set ℝ) : MonotoneOn f s"]),
    // Mathlib/Data/Set/Operations.lean: `EqOn (f₁ f₂ : α → β) (s : Set α) : Prop := ∀ ⦃x⦄, x ∈ s → f₁ x = f₂ x`.
    code("Set.EqOn (definition)", "EqOn f₁ f₂ s := ∀ ⦃x⦄, x ∈ s → f₁ x = f₂ x (Mathlib/Data/Set/Operations.lean)", eq_on_unfolded)
        .ex(&[("(f g : ℝ → ℝ) (s : Set ℝ) : Set.EqOn f g s", "(f g : ℝ → ℝ) (s : Set ℝ) : ∀ x✝, x✝ ∈ s → f x✝ = g x✝")])
        .non(&["(f g : ℝ → ℝ) (s : Set ℝ) : Set.EqOn (f ∘ g) g s", "(f g : ℝ → ℝ) (s : Set ℝ) : EqOn f g s", "(f : ℕ → ℝ) (g : ℕ → ℕ) (s : Set ℕ) : Set.EqOn f g s"]),
    // Mathlib/Algebra/Periodic.lean: `protected def Periodic [Add α] (f : α → β) (c : α) : Prop := ∀ x : α, f (x + c) = f x`.
    code("Function.Periodic (definition)", "Periodic f c := ∀ x, f (x + c) = f x (Mathlib/Algebra/Periodic.lean)", periodic_unfolded)
        .ex(&[("(f : ℝ → ℝ) (c : ℝ) : Function.Periodic f c", "(f : ℝ → ℝ) (c : ℝ) : ∀ x✝ : ℝ, f (x✝ + c) = f x✝")])
        .non(&["(f : ℝ → ℝ) (c : ℝ) : Function.Antiperiodic f c", "(f : ℝ → ℝ) (c : ℝ) : Periodic f c"]),
    // Mathlib/Logic/IsEmpty.lean: `theorem not_nonempty_iff : ¬Nonempty α ↔ IsEmpty α` (`α :
    // Sort*`, no condition); neither name may be the statement's own.
    code("not_nonempty_iff", "IsEmpty α ↔ ¬Nonempty α (Mathlib/Logic/IsEmpty.lean)", is_empty_as_not_nonempty)
        .ex(&[("(n : ℕ) : IsEmpty (Fin n)", "(n : ℕ) : ¬ Nonempty (Fin n)")])
        .non(&["(IsEmpty : Type → Prop) : IsEmpty ℕ", "(Nonempty : Type → Prop) : IsEmpty ℕ", "(n : ℕ) : Nonempty (Fin n)"]),
    // Mathlib/Topology/Defs/Basic.lean: `def IsClopen (s : Set X) : Prop := IsClosed s ∧ IsOpen s`
    // (no condition: both sides need the same `TopologicalSpace`).
    rw("IsClopen (definition)", "IsClopen s := IsClosed s ∧ IsOpen s (Mathlib/Topology/Defs/Basic.lean)", "IsClopen ?s", "IsClosed ?s ∧ IsOpen ?s")
        .ex(&[("(s : Set ℝ) : IsClopen s", "(s : Set ℝ) : IsClosed s ∧ IsOpen s")])
        .non(&["(s : Set ℝ) : IsClosed s", "(IsClopen : Set ℝ → Prop) (s : Set ℝ) : IsClopen s"]),
    // Mathlib/Topology/Closure.lean: `closure_eq_iff_isClosed : closure s = s ↔ IsClosed s`, for
    // any topology (both sides find the same `TopologicalSpace` instance).
    code("closure_eq_iff_isClosed", "closure s = s ↔ IsClosed s (Mathlib/Topology/Closure.lean), for s of known type Set X", closure_eq_self)
        .ex(&[("{X : Type*} [TopologicalSpace X] (K : Set X) : closure K = K", "{X : Type*} [TopologicalSpace X] (K : Set X) : IsClosed K"),
              ("(s : Set ℝ) : s = closure s", "(s : Set ℝ) : IsClosed s")])
        // Another set; the interior; a finset (no `closure`); a subgroup's closure; a local
        // `closure` or `IsClosed`.
        .non(&["(s t : Set ℝ) : closure s = t",
               "(s : Set ℝ) : interior s = s",
               "{G : Type*} [Group G] (s : Set G) : Subgroup.closure s = s",
               "(closure : Set ℝ → Set ℝ) (s : Set ℝ) : closure s = s",
               "(IsClosed : Set ℝ → Prop) (s : Set ℝ) : closure s = s",
               "(s : α) : closure s = s"]),
    // Mathlib/Topology/Basic.lean (Defs/Basic): `isOpen_compl_iff : IsOpen sᶜ ↔ IsClosed s`,
    // `isClosed_compl_iff : IsClosed sᶜ ↔ IsOpen s`; the complement-free form is canonical.
    rw("isOpen_compl_iff", "IsOpen sᶜ ↔ IsClosed s (Mathlib/Topology/Basic.lean)", "IsOpen ?sᶜ", "IsClosed ?s")
        .ex(&[("(s : Set ℝ) : IsOpen sᶜ", "(s : Set ℝ) : IsClosed s")])
        .non(&["(s : Set ℝ) : IsOpen s", "(s : Set ℝ) : IsOpen (interior sᶜ)", "(s : Set ℝ) : IsClosed (closure s)"]),
    rw("isClosed_compl_iff", "IsClosed sᶜ ↔ IsOpen s (Mathlib/Topology/Basic.lean)", "IsClosed ?sᶜ", "IsOpen ?s")
        .ex(&[("(s : Set ℝ) : IsClosed sᶜ", "(s : Set ℝ) : IsOpen s")])
        .non(&["(s : Set ℝ) : IsClosed s", "(s : Set ℝ) : IsCompact sᶜ"]),
    // `HasCompl.compl : α → α`: an ascription of the complement is one of its operand. Only a
    // set's: on `Opens X` the complement is Heyting's (the interior of the set complement).
    rw("isOpen_compl_iff", "IsOpen sᶜ ↔ IsClosed s (Mathlib/Topology/Basic.lean), with (sᶜ : Set X) = ((s : Set X))ᶜ", "IsOpen (?sᶜ : Set ?X)", "IsClosed (?s : Set ?X)")
        .ex(&[("{X : Type*} [TopologicalSpace X] (x : X) : IsOpen ({x}ᶜ : Set X)", "{X : Type*} [TopologicalSpace X] (x : X) : IsClosed ({x} : Set X)")])
        .non(&["{X : Type*} [TopologicalSpace X] (x : X) : IsOpen ({x} : Set X)", "{X : Type*} [TopologicalSpace X] (s : Set X) : IsOpen (interior sᶜ : Set X)"]),
    rw("isClosed_compl_iff", "IsClosed sᶜ ↔ IsOpen s (Mathlib/Topology/Basic.lean), with (sᶜ : Set X) = ((s : Set X))ᶜ", "IsClosed (?sᶜ : Set ?X)", "IsOpen (?s : Set ?X)")
        .ex(&[("{X : Type*} [TopologicalSpace X] (x : X) : IsClosed ({x}ᶜ : Set X)", "{X : Type*} [TopologicalSpace X] (x : X) : IsOpen ({x} : Set X)")])
        .non(&["{X : Type*} [TopologicalSpace X] (x : X) : IsClosed ({x} : Set X)", "(s : TopologicalSpace.Opens ℝ) : IsClosed (sᶜ : TopologicalSpace.Opens ℝ)"]),
    // Mathlib/Topology/Compactness/Compact.lean: `isCompact_univ_iff : IsCompact (univ : Set X)
    // ↔ CompactSpace X`; Mathlib/Data/Finite/Defs.lean: `not_finite_iff_infinite : ¬Finite α ↔
    // Infinite α`. Each side of these is a class on one side only: as the type of a binder (a
    // hypothesis, an arrow's antecedent, or a conjunct `and_imp` may make one) the class is a
    // local instance of everything after it, the proposition is not. So only outside every
    // binder type.
    moves_code("isCompact_univ_iff / not_finite_iff_infinite / Set.infinite_coe_iff / Set.finite_coe_iff / Set.countable_coe_iff", "IsCompact (univ : Set X) ↔ CompactSpace X (Mathlib/Topology/Compactness/Compact.lean); ¬Finite α ↔ Infinite α (Mathlib/Data/Finite/Defs.lean); Infinite ↥s ↔ s.Infinite, Finite ↥s ↔ s.Finite (Mathlib/Data/Set/Finite/Basic.lean), Countable ↥s ↔ s.Countable (Mathlib/Data/Set/Countable.lean) for s a set of known type; outside binder types", class_as_proposition)
        .ex(&[("{X : Type*} [TopologicalSpace X] : IsCompact (Set.univ : Set X)", "{X : Type*} [TopologicalSpace X] : CompactSpace X"),
              ("(s : Set ℕ) : Countable ↥s", "(s : Set ℕ) : Set.Countable s"), ("(s : Set ℝ) : Set.Finite s", "(s : Set ℝ) : Finite ↥s"),
              ("{X : Type*} [TopologicalSpace X] : CompactSpace X", "{X : Type*} [TopologicalSpace X] : IsCompact (Set.univ : Set X)"),
              ("(α : Type) : ¬Finite α", "(α : Type) : Infinite α"), ("(α : Type) : Infinite α ∧ True", "(α : Type) : ¬Finite α ∧ True")])
        // In a binder type (the class would be a local instance of what follows; so is an
        // `if`'s condition), a rebound name, another set.
        .non(&["(α : Type) (h : ¬Finite α) : True", "(α : Type) : (if ¬Finite α then 1 else 0) = 1", "(α : Type) : ¬Finite α ∧ True → True", "(α : Type) : ∀ (_ : Infinite α), True",
               "{X : Type*} [TopologicalSpace X] (h : IsCompact (Set.univ : Set X)) : True", "(Finite : Type → Prop) (α : Type) : ¬Finite α",
               "{X : Type*} [TopologicalSpace X] (s : Set X) : IsCompact s",
               // A hypothesis `Infinite ↥s` is a local instance of what follows; a finset.
               "(s : Set ℕ) (h : Infinite ↥s) : True", "(s : Finset ℕ) : Finite s"]),
    // Mathlib/Data/Set/Finite/Defs.lean: `protected def Set.Infinite (s : Set α) : Prop := ¬s.Finite`.
    rw("Set.Infinite (definition)", "s.Infinite := ¬s.Finite (Mathlib/Data/Set/Finite/Defs.lean)", "¬Set.Finite ?s", "Set.Infinite ?s")
        .ex(&[("(s : Set ℕ) : ¬Set.Finite s", "(s : Set ℕ) : Set.Infinite s")])
        .non(&["(s : Set ℕ) : Set.Finite s", "(s : Set ℕ) : ¬Set.Countable s"]),
    // Mathlib/Logic/Function/Defs.lean: `def LeftInverse (g : β → α) (f : α → β) : Prop := ∀ x,
    // g (f x) = x` (no instance). `g ∘ f = id` meets it through `funext_iff` and `comp_apply`.
    code("Function.LeftInverse (definition)", "LeftInverse g f := ∀ x, g (f x) = x (Mathlib/Logic/Function/Defs.lean)", left_inverse_unfolded)
        .ex(&[("(f : ℕ → ℤ) (g : ℤ → ℕ) : Function.LeftInverse f g", "(f : ℕ → ℤ) (g : ℤ → ℕ) : ∀ x✝, f (g x✝) = x✝")])
        .non(&["(f g : ℕ → ℕ) : Function.RightInverse f g", "(f g : ℕ → ℕ) : Function.LeftInverse (f ∘ g) g",
               // Types that do not compose: unfolded, `g (f x) = x` would cast.
               "(f : ℕ → ℕ) (g : ℤ → ℕ) : Function.LeftInverse g f", "(f : α → β) (g : γ → α) : Function.LeftInverse g f", "(LeftInverse : (ℕ → ℕ) → (ℕ → ℕ) → Prop) (f g : ℕ → ℕ) : LeftInverse f g"]),
    // Mathlib/RingTheory/Nilpotent/Defs.lean: `def IsNilpotent [Zero R] [Pow R ℕ] (x : R) : Prop
    // := ∃ n : ℕ, x ^ n = 0`: the `^` and `0` unfolded are found as the definition's are.
    // Mathlib/Topology/Connected/Basic.lean: `def IsConnected (s : Set α) : Prop := s.Nonempty ∧
    // IsPreconnected s`.
    rw("IsConnected (definition)", "IsConnected s := s.Nonempty ∧ IsPreconnected s (Mathlib/Topology/Connected/Basic.lean)", "IsConnected ?s", "Set.Nonempty ?s ∧ IsPreconnected ?s")
        .ex(&[("{X : Type*} [TopologicalSpace X] (s : Set X) : IsConnected s", "{X : Type*} [TopologicalSpace X] (s : Set X) : Set.Nonempty s ∧ IsPreconnected s")])
        .non(&["{X : Type*} [TopologicalSpace X] (s : Set X) : IsPreconnected s", "(IsConnected : Set ℝ → Prop) (s : Set ℝ) : IsConnected s"]),
    // Mathlib/Data/Real/Irrational.lean: `def Irrational (x : ℝ) := x ∉ Set.range ((↑) : ℚ → ℝ)`,
    // and `Set.mem_range : x ∈ range f ↔ ∃ y, f y = x` (Mathlib/Data/Set/Operations.lean).
    code("Irrational (definition)", "Irrational x := x ∉ Set.range ((↑) : ℚ → ℝ), with Set.mem_range: ¬∃ q : ℚ, (q : ℝ) = x (Mathlib/Data/Real/Irrational.lean)", irrational_unfolded)
        .ex(&[("(x : ℝ) : Irrational x", "(x : ℝ) : ¬∃ q✝ : ℚ, (q✝ : ℝ) = x")])
        .non(&["(x : ℝ) : Transcendental ℚ x", "(Irrational : ℝ → Prop) (x : ℝ) : Irrational x"]),
    // Mathlib/Algebra/Group/Units/Defs.lean: `isUnit_iff_exists [Monoid M] : IsUnit x ↔ ∃ b, x *
    // b = 1 ∧ b * x = 1`, `isUnit_iff_exists_inv [CommMonoid M] : IsUnit a ↔ ∃ b, a * b = 1`.
    code("IsUnit (definition)", "IsUnit x ↔ ∃ b, x * b = 1 (commutative monoid), ∃ b, x * b = 1 ∧ b * x = 1 (monoid) (Mathlib/Algebra/Group/Units/Defs.lean)", is_unit_unfolded)
        .ex(&[("(u : ℤ) : IsUnit u", "(u : ℤ) : ∃ b✝ : ℤ, u * b✝ = 1"), ("{R : Type*} [Ring R] (u : R) : IsUnit (-u)", "{R : Type*} [Ring R] (u : R) : ∃ b✝ : R, -u * b✝ = 1 ∧ b✝ * -u = 1"),
              ("(n a : ℕ) : IsUnit (a : ZMod n)", "(n a : ℕ) : ∃ b✝ : ZMod n, (a : ZMod n) * b✝ = 1")])
        // A bare `Mul` beside the ring, a type of unknown structure, a matrix (no commutativity
        // known), `IsUnit` bound by the statement.
        .non(&["{R : Type*} [CommRing R] [Mul R] (u : R) : IsUnit u", "(u : α) : IsUnit u", "{M : Type*} [CommMonoid M] (u : M) : IsUnit (-u)", "(u : ℕ) : IsUnit (-u)", "(A : Matrix (Fin 2) (Fin 2) ℝ) : IsUnit A", "(IsUnit : ℤ → Prop) (u : ℤ) : IsUnit u",
               "[Mul ℝ] (u : ℝ) : IsUnit u", "{M : Type*} [Group M] [DivisionMonoid M] (u : M) : IsUnit u"]),
    code("IsNilpotent (definition)", "IsNilpotent x := ∃ n : ℕ, x ^ n = 0 (Mathlib/RingTheory/Nilpotent/Defs.lean)", nilpotent_unfolded)
        .ex(&[("{R : Type*} [Ring R] (x : R) : IsNilpotent x", "{R : Type*} [Ring R] (x : R) : ∃ n✝ : ℕ, x ^ n✝ = 0")])
        .non(&["{R : Type*} [Ring R] (x : R) : IsUnit x", "(IsNilpotent : ℕ → Prop) : IsNilpotent 2"]),
    // Mathlib/Algebra/Group/Commute/Defs.lean: `def Commute [Mul S] (a b : S) : Prop :=
    // SemiconjBy a b b`, and Mathlib/Algebra/Group/Semiconj/Defs.lean: `SemiconjBy [Mul M]
    // (a x y : M) : Prop := a * x = y * a`. Only `Mul`: no commutativity is assumed.
    code("Commute (definition)", "Commute a b := SemiconjBy a b b := a * b = b * a (Mathlib/Algebra/Group/Commute/Defs.lean), for a and b of one type", commute_unfolded)
        .ex(&[("{G : Type*} [Group G] (a b : G) : Commute a b", "{G : Type*} [Group G] (a b : G) : a * b = b * a"),
              ("(A B : Matrix (Fin 2) (Fin 2) ℝ) : Commute A B", "(A B : Matrix (Fin 2) (Fin 2) ℝ) : A * B = B * A")])
        // `Commute a b` takes both at `a`'s type (`b : ℤ` does not fit ℕ), while `a * b` would
        // cast `a`; a compound operand of unknown type may be such a cast.
        .non(&["{G : Type*} [Group G] (a b : G) : AddCommute a b", "(a : ℕ) (b : ℤ) : Commute a b", "{G : Type*} [Group G] (a b c : G) : Commute (a * c) b", "(Commute : ℕ → ℕ → Prop) (a b : ℕ) : Commute a b"]),
    code("SemiconjBy (definition)", "SemiconjBy a x y := a * x = y * a (Mathlib/Algebra/Group/Semiconj/Defs.lean), for a, x, y of one type", semiconj_unfolded)
        .ex(&[("{G : Type*} [Group G] (a x y : G) : SemiconjBy a x y", "{G : Type*} [Group G] (a x y : G) : a * x = y * a")])
        .non(&["{G : Type*} [Group G] (a x y : G) : AddSemiconjBy a x y", "(a x : ℕ) (y : ℤ) : SemiconjBy a x y"]),
    // Mathlib/Algebra/Group/Idempotent.lean: `def IsIdempotentElem [Mul M] (p : M) : Prop := p * p = p`.
    rw("IsIdempotentElem (definition)", "IsIdempotentElem p := p * p = p (Mathlib/Algebra/Group/Idempotent.lean)", "IsIdempotentElem ?p", "?p * ?p = ?p")
        .ex(&[("{R : Type*} [Ring R] (x : R) : IsIdempotentElem x", "{R : Type*} [Ring R] (x : R) : x * x = x")])
        .non(&["{R : Type*} [Ring R] (x : R) : IsNilpotent x"]),
    // Mathlib/Algebra/Polynomial/Eval/Defs.lean: `def IsRoot (p : R[X]) (a : R) : Prop :=
    // p.eval a = 0` (`Polynomial.IsRoot.def`), `eval (x : R) (p : R[X]) : R`.
    code("Polynomial.IsRoot.def", "IsRoot p a ↔ p.eval a = 0 (Mathlib/Algebra/Polynomial/Eval/Defs.lean), for p written `Polynomial R` and a of type R (or a numeral)", is_root_unfolded)
        .ex(&[("(p : Polynomial ℚ) (a : ℚ) : Polynomial.IsRoot p a", "(p : Polynomial ℚ) (a : ℚ) : Polynomial.eval a p = 0"),
              ("(p : Polynomial ℚ) : Polynomial.IsRoot p 2", "(p : Polynomial ℚ) : Polynomial.eval 2 p = 0")])
        // `IsRoot p a` with `a : ℕ` casts `a` into ℚ; `eval a p` elaborates `a` first (at ℕ).
        .non(&["(p : Polynomial ℚ) (a : ℚ) : IsRoot p a", "(p : Polynomial ℚ) (a : ℕ) : Polynomial.IsRoot p a", "(IsRoot : Polynomial ℚ → ℚ → Prop) (p : Polynomial ℚ) (a : ℚ) : IsRoot p a"]),
    code("Polynomial.IsRoot (dot notation) / Polynomial.eval (dot notation)", "p.IsRoot a is Polynomial.IsRoot p a, p.eval a is Polynomial.eval a p (the receiver is the `R[X]` argument), for p written `Polynomial R`", polynomial_dot)
        .ex(&[("(p : Polynomial ℚ) (a : ℚ) : p.IsRoot a", "(p : Polynomial ℚ) (a : ℚ) : Polynomial.IsRoot p a"),
              ("(p : Polynomial ℚ) (a : ℚ) : p.eval a = 0", "(p : Polynomial ℚ) (a : ℚ) : Polynomial.eval a p = 0")])
        // Not a polynomial: another `eval`.
        .non(&["(p : ℚ) (a : ℚ) : p.eval a = 0", "{α : Type*} (p : α) (a : ℚ) : p.IsRoot a", "(p : Polynomial ℚ) (a : ℕ) : p.eval a = 0"]),
    // Mathlib/Order/Bounds/Defs.lean: `IsLUB s := IsLeast (upperBounds s)`, `IsGLB s :=
    // IsGreatest (lowerBounds s)`, `IsLeast s a := a ∈ s ∧ a ∈ lowerBounds s`, `IsGreatest s a
    // := a ∈ s ∧ a ∈ upperBounds s` (each needs only `LE α`, as `upperBounds` does).
    rw("IsLUB (definition)", "IsLUB s := IsLeast (upperBounds s) (Mathlib/Order/Bounds/Defs.lean)", "IsLUB ?s ?a", "IsLeast (upperBounds ?s) ?a")
        .ex(&[("(s : Set ℝ) (a : ℝ) : IsLUB s a", "(s : Set ℝ) (a : ℝ) : IsLeast (upperBounds s) a")])
        .non(&["(s : Set ℝ) (a : ℝ) : IsGLB s a"]),
    rw("IsGLB (definition)", "IsGLB s := IsGreatest (lowerBounds s) (Mathlib/Order/Bounds/Defs.lean)", "IsGLB ?s ?a", "IsGreatest (lowerBounds ?s) ?a")
        .ex(&[("(s : Set ℝ) (a : ℝ) : IsGLB s a", "(s : Set ℝ) (a : ℝ) : IsGreatest (lowerBounds s) a")])
        .non(&["(s : Set ℝ) (a : ℝ) : IsLUB s a"]),
    rw("IsLeast (definition)", "IsLeast s a := a ∈ s ∧ a ∈ lowerBounds s (Mathlib/Order/Bounds/Defs.lean)", "IsLeast ?s ?a", "?a ∈ ?s ∧ ?a ∈ lowerBounds ?s")
        .ex(&[("(s : Set ℝ) (a : ℝ) : IsLeast s a", "(s : Set ℝ) (a : ℝ) : a ∈ s ∧ a ∈ lowerBounds s")])
        .non(&["(s : Set ℝ) (a : ℝ) : IsGreatest s a", "(s : Set ℝ) (a : ℝ) : IsLeast.foo s a"]),
    rw("IsGreatest (definition)", "IsGreatest s a := a ∈ s ∧ a ∈ upperBounds s (Mathlib/Order/Bounds/Defs.lean)", "IsGreatest ?s ?a", "?a ∈ ?s ∧ ?a ∈ upperBounds ?s")
        .ex(&[("(s : Set ℝ) (a : ℝ) : IsGreatest s a", "(s : Set ℝ) (a : ℝ) : a ∈ s ∧ a ∈ upperBounds s")])
        .non(&["(s : Set ℝ) (a : ℝ) : IsLeast s a"]),
    // Mathlib/Topology/MetricSpace/Pseudo/ (its basics): `Metric.tendsto_atTop [Nonempty β]
    // [SemilatticeSup β] {u : β → α} {a : α} : Tendsto u atTop (𝓝 a) ↔ ∀ ε > 0, ∃ N, ∀ n ≥ N,
    // dist (u n) a < ε` in a pseudometric space α.
    code("Metric.tendsto_atTop", "Tendsto u atTop (𝓝 a) ↔ ∀ ε > 0, ∃ N, ∀ n ≥ N, dist (u n) a < ε, for a sequence u : ℕ → α into ℝ or a type variable whose one structure is [MetricSpace α] / [PseudoMetricSpace α]", tendsto_at_top_unfolded)
        .ex(&[("(u : ℕ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)", "(u : ℕ → ℝ) (a : ℝ) : ∀ ε✝ : ℝ, 0 < ε✝ → ∃ N✝ : ℕ, ∀ n✝ : ℕ, N✝ ≤ n✝ → dist (u n✝) a < ε✝"),
              ("{X : Type*} [MetricSpace X] (u : ℕ → X) (a : X) : Filter.Tendsto u Filter.atTop (nhds a)", "{X : Type*} [MetricSpace X] (u : ℕ → X) (a : X) : ∀ ε✝ : ℝ, 0 < ε✝ → ∃ N✝ : ℕ, ∀ n✝ : ℕ, N✝ ≤ n✝ → dist (u n✝) a < ε✝"),
              ("(p : ℕ → ℝ) (a : ℝ) : Filter.Tendsto (fun n => p n + 1) Filter.atTop (nhds a)", "(p : ℕ → ℝ) (a : ℝ) : ∀ ε✝ : ℝ, 0 < ε✝ → ∃ N✝ : ℕ, ∀ n✝ : ℕ, N✝ ≤ n✝ → dist (p n✝ + 1) a < ε✝")])
        // A sequence on ℝ (its atTop has real N), a topology beside the metric (its 𝓝 is the
        // local one), a type with only a topology, a local metric on ℝ, another filter.
        .non(&["(u : ℝ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)",
               "{X : Type*} [MetricSpace X] [TopologicalSpace X] (u : ℕ → X) (a : X) : Filter.Tendsto u Filter.atTop (nhds a)",
               "{X : Type*} [TopologicalSpace X] (u : ℕ → X) (a : X) : Filter.Tendsto u Filter.atTop (nhds a)",
               "[MetricSpace ℝ] (u : ℕ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)",
               "(u : ℕ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atBot (nhds a)",
               // A `fun` whose binder nothing types (the context's ℕ or ℝ would).
               "(a : ℝ) : Filter.Tendsto (fun n => 1 / n) Filter.atTop (nhds a)"]),
    code("mem_upperBounds / mem_lowerBounds", "a ∈ upperBounds s ↔ ∀ x ∈ s, x ≤ a; a ∈ lowerBounds s ↔ ∀ x ∈ s, a ≤ x (Mathlib/Order/Bounds/Basic.lean), for s written `Set T` and a of type T (or a numeral)", bounds_unfolded)
        .ex(&[("(s : Set ℝ) (a : ℝ) : a ∈ upperBounds s", "(s : Set ℝ) (a : ℝ) : ∀ x✝, x✝ ∈ s → x✝ ≤ a"),
              ("(f : ℕ → ℝ) (a : ℝ) : a ∈ upperBounds (Set.range f)", "(f : ℕ → ℝ) (a : ℝ) : ∀ x✝, x✝ ∈ Set.range f → x✝ ≤ a"),
              ("(s : Set ℝ) : 3 ∈ lowerBounds s", "(s : Set ℝ) : ∀ x✝, x✝ ∈ s → 3 ≤ x✝")])
        // `a : ℕ` in a `Set ℝ`'s bounds is `↑a`: the bare `a` would be read at ℕ.
        .non(&["(s : Set ℝ) (a : ℕ) : a ∈ upperBounds s", "(s : Set ℝ) (a : ℝ) : a ∉ upperBounds s", "(f : α) (a : ℝ) : a ∈ upperBounds (Set.range f)"]),
    // The same lemmas where the point is a binder whose type the membership decides: `∀ b, b ∈
    // upperBounds s → P b` (`∀ b ∈ upperBounds s, P b`) with `b` untyped, or typed at the
    // elements' type, elaborates `b` at that type, whatever `s` is a set of.
    code("mem_upperBounds / mem_lowerBounds", "∀ b, b ∈ upperBounds s → P b ↔ ∀ b, (∀ x ∈ s, x ≤ b) → P b (Mathlib/Order/Bounds/Basic.lean), b of the elements' type", bound_point_unfolded)
        .ex(&[("(s : Set ℝ) : ∀ b, b ∈ upperBounds s → 0 ≤ b", "(s : Set ℝ) : ∀ b : ℝ, (∀ x✝, x✝ ∈ s → x✝ ≤ b) → 0 ≤ b"),
              ("(s : Set ℝ) : ∀ b : ℝ, b ∈ lowerBounds s → b ≤ 1", "(s : Set ℝ) : ∀ b : ℝ, (∀ x✝, x✝ ∈ s → b ≤ x✝) → b ≤ 1")])
        // `b` typed at another type (coerced into the set's), a set of unknown type, `∉`, a
        // conjunction instead of the implication.
        .non(&["(s : Set ℝ) : ∀ b : ℕ, b ∈ upperBounds s → 0 ≤ b",
               "(s : α) : ∀ b, b ∈ upperBounds s → 0 ≤ b",
               "(s : Set ℝ) : ∀ b, b ∉ upperBounds s → 0 ≤ b",
               "(s : Set ℝ) : ∀ b, b ∈ upperBounds s ∧ 0 ≤ b"]),
    // Mathlib/Order/Bounds/Basic.lean: `bddAbove_def : BddAbove s ↔ ∃ x, ∀ y ∈ s, y ≤ x`,
    // `bddBelow_def : BddBelow s ↔ ∃ x, ∀ y ∈ s, x ≤ y`; the bound is of the elements' type.
    // Of a range, `Set.forall_mem_range` (Mathlib/Data/Set/Operations.lean: `(∀ x ∈ range f, p
    // x) ↔ ∀ i, p (f i)`) is applied at once, for `f` a name of written type `ι → α`.
    code("bddAbove_def / bddBelow_def", "BddAbove s ↔ ∃ x, ∀ y ∈ s, y ≤ x; BddBelow s ↔ ∃ x, ∀ y ∈ s, x ≤ y (Mathlib/Order/Bounds/Basic.lean), for s of known type Set T; of Set.range f, ∀ i, f i ≤ x (Set.forall_mem_range)", bdd_unfolded)
        .ex(&[("(s : Set ℝ) : BddAbove s", "(s : Set ℝ) : ∃ x✝ : ℝ, ∀ y✝, y✝ ∈ s → y✝ ≤ x✝"),
              ("(f : ℕ → ℤ) : BddBelow (Set.range f)", "(f : ℕ → ℤ) : ∃ x✝ : ℤ, ∀ y✝ : ℕ, x✝ ≤ f y✝")])
        // A set of unknown type, a finset (its own `BddAbove` through the coercion), a local
        // `BddAbove`.
        .non(&["(s : α) : BddAbove s", "(s : Finset ℕ) : BddAbove s", "(BddAbove : Set ℝ → Prop) (s : Set ℝ) : BddAbove s"]),
    // Mathlib/Data/Set/Defs.lean: `def preimage (f : α → β) (s : Set β) : Set α := {x | f x ∈ s}`;
    // membership in it is then `Set.mem_setOf_eq` (`Set.mem_preimage`).
    code("Set.preimage (definition)", "f ⁻¹' s := {x | f x ∈ s} (Mathlib/Data/Set/Defs.lean)", preimage_unfolded)
        .ex(&[("(f : ℝ → ℝ) (s : Set ℝ) : IsOpen (f ⁻¹' s)", "(f : ℝ → ℝ) (s : Set ℝ) : IsOpen {x✝ | f x✝ ∈ s}")])
        .non(&["(f : ℝ → ℝ) (s : Set ℝ) : IsOpen ((f ∘ f) ⁻¹' s)", "(f : ℝ → ℝ) (s : Set ℝ) : IsOpen (f '' s)"]),
    // Mathlib/Algebra/Module/Submodule/Ker.lean: `LinearMap.mem_ker : y ∈ ker f ↔ f y = 0`
    // (any `SemilinearMapClass`; the `0` is the codomain's).
    code("LinearMap.mem_ker", "y ∈ LinearMap.ker f ↔ f y = 0 (Mathlib/Algebra/Module/Submodule/Ker.lean)", mem_ker_unfolded)
        .ex(&[("{V : Type*} [AddCommGroup V] [Module ℝ V] (T : V →ₗ[ℝ] V) (v : V) : v ∈ LinearMap.ker T", "{V : Type*} [AddCommGroup V] [Module ℝ V] (T : V →ₗ[ℝ] V) (v : V) : T v = 0")])
        // `RingHom.ker`/`MonoidHom.ker` have their own lemmas (`f x = 1` for a monoid hom).
        .non(&["{G : Type*} [Group G] (f : G →* G) (v : G) : v ∈ MonoidHom.ker f", "(f : ℝ → ℝ) (v : ℝ) : v ∈ LinearMap.ker f", "(f : ℝ →* ℝ) (v : ℝ) : v ∈ LinearMap.ker f", "{V : Type*} [AddCommGroup V] [Module ℝ V] (T : V →ₗ[ℝ] V) (v : V) : v ∈ LinearMap.range T"]),
    // Mathlib/Logic/Equiv/Defs.lean: `abbrev Equiv.Perm (α : Sort*) := Equiv α α`.
    rw("Equiv.Perm (definition)", "abbrev Perm (α : Sort*) := Equiv α α (Mathlib/Logic/Equiv/Defs.lean)", "Equiv.Perm ?a", "?a ≃ ?a")
        .ex(&[(": Infinite (Equiv.Perm ℕ)", ": Infinite (ℕ ≃ ℕ)")])
        .non(&[": Infinite (ℕ ≃ ℤ)", "(Perm : Type → Type) : Infinite (Perm ℕ)"]),
    // Mathlib/Order/Interval/Set/Defs.lean: `def Ioo (a b : α) := {x | a < x ∧ x < b}` and the
    // other seven; the set-builder is folded into the interval, whose membership rules exist.
    code("Set.Ioo / Set.Icc / Set.Ico / Set.Ioc / Set.Ioi / Set.Ici / Set.Iio / Set.Iic", "Set.Ioo a b := {x | a < x ∧ x < b}, … (Mathlib/Order/Interval/Set/Defs.lean), when the bounds fix the element type", interval_folded)
        .ex(&[("(a b : ℝ) : IsOpen {x : ℝ | a < x ∧ x < b}", "(a b : ℝ) : IsOpen (Set.Ioo a b)"), (": IsOpen {x | 0 < x ∧ x < 1}", ": IsOpen (Set.Ioo 0 1)"),
              ("(a b : ℝ) : IsCompact {x : ℝ | a ≤ x ∧ x ≤ b}", "(a b : ℝ) : IsCompact (Set.Icc a b)"),
              ("(a : ℝ) : IsOpen {x : ℝ | x < a}", "(a : ℝ) : IsOpen (Set.Iio a)"),
              ("(a : ℝ) : IsClosed {x : ℝ | a ≤ x}", "(a : ℝ) : IsClosed (Set.Ici a)")])
        // A written element type other than the bounds' casts them (`{x : ℝ | a < x}` with
        // `a : ℕ` is not `Set.Ioi a : Set ℕ`); numerals alone do not fix the type; bounds of two
        // types do not make one interval; the bound variable in a bound is not an interval.
        .non(&["(a b : ℕ) : IsOpen {x : ℝ | a < x ∧ x < b}", ": IsOpen {x : ℝ | 0 < x ∧ x < 1}",
               "(a : ℕ) (b : ℝ) : IsOpen {x | a < x ∧ x < b}", "(a b : ℝ) : IsOpen {x : ℝ | a < x ∧ b < x}",
               "(a : ℝ) : IsOpen {x : ℝ | x < x + a}", "(a b : ℝ) : IsOpen {x : ℝ | x < b ∧ a < x}", "(a b : ℕ) (S : Set ℝ) : S = {x | a < x ∧ x < b}", // Only `[LT α]`: `Set.Ioo` needs a preorder.
 "{α : Type*} [LT α] (a b : α) (S : Set α) : {x : α | a < x ∧ x < b} = S", "{α : Type*} [LT α] [Zero α] [One α] (S : Set α) : S = {x | 0 < x ∧ x < 1}"]),
];

/// Does the statement bind `name` (a variable, not Mathlib's constant)?
fn bound_by_statement(ctx: &Ctx, name: &str) -> bool {
    ctx.carriers.binds(name)
}

/// `f x` for a function name `f`.
fn apply(f: &Tree, x: &Tree) -> Tree {
    Tree::node(format!("{} _ ", f.label), vec![x.clone()])
}

/// A function argument the unfolding can apply: a name, not one of the bound names it
/// introduces.
fn plain_function(f: &Tree, fresh: &[&str]) -> bool {
    is_leaf(f) && literal(f).is_none() && !fresh.contains(&f.label.as_str())
}

/// A name bound with a written function type `α → β`: its domain `α`.
fn domain<'c>(f: &Tree, ctx: &Ctx<'c>) -> Option<&'c Tree> {
    let ty = ctx.carriers.name_type(&f.label).filter(|_| is_leaf(f))?;
    (ty.label == IMP && ty.children.len() == 2).then(|| &ty.children[0])
}

/// `Filter.Tendsto u Filter.atTop (nhds a)` as `∀ ε > 0, ∃ N, ∀ n ≥ N, dist (u n) a < ε`
/// (`Metric.tendsto_atTop`), for `u` a name of written type `ℕ → α` or a `fun (n : ℕ) => e`
/// with `e` real, and `α` ℝ with no local instance on it, or a type variable of the theorem
/// whose instances are one metric structure and properties of it: another topology beside it
/// would be the one `nhds` reads (local instances first).
fn tendsto_at_top_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Filter.Tendsto _  _  _ ", [u, at_top, near]) = (t.label.as_str(), t.children.as_slice())
    else {
        return None;
    };
    let ("nhds _ ", [a]) = (near.label.as_str(), near.children.as_slice()) else {
        return None;
    };
    let c = ctx.carriers;
    let names = ["Filter.Tendsto", "Filter.atTop", "nhds", "dist"];
    if at_top.label != "Filter.atTop" || !is_leaf(at_top) || names.iter().any(|n| c.binds(n)) {
        return None;
    }
    let n = Tree::bound_variable("n✝");
    let (applied, space) = if is_leaf(u) {
        let ty = c.name_type(&u.label)?;
        let (IMP, [from, to]) = (ty.label.as_str(), ty.children.as_slice()) else {
            return None;
        };
        (from.label == "ℕ" && is_leaf(from)).then_some(())?;
        (apply(u, &n), to.clone())
    } else {
        // A binder with no written type counts where the body's uses decide it (`fun n => p (f
        // n)` with `(f : ℕ → ℕ)`).
        let (x, e, from) = typed::lambda_with_domain(u, c)?;
        let real = elab::type_of(e, c) == elab::Ty::Num(elab::Num::Real);
        if from.label != "ℕ" || !is_leaf(&from) || !real {
            return None;
        }
        if !super::substitution::substitutable(&x.label, &n, &[e], None) {
            return None;
        }
        (super::substitution::substitute(e, &x.label, &n), Tree::leaf("ℝ"))
    };
    if !metric_space(&space, c) {
        return None;
    }
    let eps = Tree::bound_variable("ε✝");
    let big_n = Tree::bound_variable("N✝");
    let typed = |x: &Tree, ty: &str| node2(" _ : _ ", x.clone(), Tree::leaf(ty));
    let close = node2(LT, Tree::node("dist _  _ ", vec![applied, a.clone()]), eps.clone());
    let late = node2(IMP, node2(LE, big_n.clone(), n.clone()), close);
    let exists =
        node2(super::shapes::EXISTS, typed(&big_n, "ℕ"), node2(FORALL, typed(&n, "ℕ"), late));
    let body = node2(IMP, node2(LT, Tree::leaf("0"), eps.clone()), exists);
    Some(("Metric.tendsto_atTop", node2(FORALL, typed(&eps, "ℝ"), body)))
}

/// Is `ty` a (pseudo)metric space whose `dist` and topology are Mathlib's: ℝ with no local
/// instance on it, or a type variable of the theorem with one `[MetricSpace α]` /
/// `[PseudoMetricSpace α]` and otherwise only properties of that structure.
fn metric_space(ty: &Tree, c: &Carriers) -> bool {
    const METRIC: [&str; 2] = ["MetricSpace", "PseudoMetricSpace"];
    const PROPERTIES: [&str; 5] =
        ["CompleteSpace", "ProperSpace", "Nonempty", "Inhabited", "SeparableSpace"];
    if !is_leaf(ty) {
        return false;
    }
    let on_ty: Vec<&str> = c.instances_on(&ty.label).collect();
    if ty.label == "ℝ" {
        return on_ty.is_empty();
    }
    let metrics = on_ty.iter().filter(|k| METRIC.contains(k)).count();
    c.theorem_binder(&ty.label)
        && c.has_instance(&METRIC, &ty.label)
        && metrics == 1
        && on_ty.iter().all(|k| METRIC.contains(k) || PROPERTIES.contains(k))
}

/// A name bound with a written function type `α → β` whose two sides are preorders
/// `Monotone` and its kin need (`[Preorder α] [Preorder β]`): ℕ ℤ ℚ ℝ or a `Set`. With only
/// `[LE α]` the predicate does not elaborate while its unfolded form does.
///
/// A Mathlib function of one number argument (`Real.exp : ℝ → ℝ`, the signature table of
/// `elab::mathlib_names`) counts too, where the statement does not bind its name.
fn between_preorders(f: &Tree, ctx: &Ctx<'_>) -> Option<Tree> {
    if !is_leaf(f) {
        return None;
    }
    const ORDERED: [&str; 4] = ["ℕ", "ℤ", "ℚ", "ℝ"];
    if !ctx.carriers.binds(&f.label) {
        let (_, signature) = SIGNATURES.iter().find(|(name, _)| *name == f.label)?;
        let (from, to) = signature.split_once(" → ")?;
        return (ORDERED.contains(&from) && ORDERED.contains(&to)).then(|| Tree::leaf(from));
    }
    let ty = ctx.carriers.name_type(&f.label)?;
    let (IMP, [from, to]) = (ty.label.as_str(), ty.children.as_slice()) else {
        return None;
    };
    let preorder = |t: &Tree| ORDERED.contains(&t.label.as_str()) || t.label == "Set _ ";
    (preorder(from) && preorder(to)).then(|| from.clone())
}

/// The binder `x` or `x : α` (with the domain `α`, when written).
fn binder(x: &str, domain: Option<&Tree>) -> Tree {
    let x = Tree::bound_variable(x);
    match domain {
        Some(ty) => node2(" _ : _ ", x, ty.clone()),
        None => x,
    }
}

/// `(relation, reversed)` of `Monotone` and its kin: `≤` or `<` between the points, and
/// whether the images compare the other way.
fn monotone_kind(head: &str) -> Option<(&'static str, bool)> {
    match head {
        "Monotone" | "MonotoneOn" => Some((LE, false)),
        "Antitone" | "AntitoneOn" => Some((LE, true)),
        "StrictMono" | "StrictMonoOn" => Some((LT, false)),
        "StrictAnti" | "StrictAntiOn" => Some((LT, true)),
        _ => None,
    }
}

/// `a ≤ b → f a ≤ f b` (or its kin's), with `a✝`, `b✝`.
fn monotone_body(f: &Tree, rel: &str, reversed: bool) -> Tree {
    let (a, b) = (Tree::bound_variable("a✝"), Tree::bound_variable("b✝"));
    let images = if reversed {
        node2(rel, apply(f, &b), apply(f, &a))
    } else {
        node2(rel, apply(f, &a), apply(f, &b))
    };
    node2(IMP, node2(rel, a, b), images)
}

/// `Monotone f` (`Antitone`, `StrictMono`, `StrictAnti`) unfolded: `∀ a✝, ∀ b✝, a✝ ≤ b✝ → f a✝ ≤
/// f b✝`, for a named `f`.
fn monotone_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let [f] = t.children.as_slice() else {
        return None;
    };
    let head = t.label.strip_suffix(" _ ")?;
    let (rel, reversed) = monotone_kind(head).filter(|_| !head.ends_with("On"))?;
    if bound_by_statement(ctx, head) {
        return None;
    }
    if let Some(unfolded) = monotone_lambda(f, rel, reversed, ctx) {
        return Some(("Monotone (definition)", unfolded));
    }
    if !plain_function(f, &["a✝", "b✝"]) {
        return None;
    }
    // The definition's `⦃a b⦄` have `f`'s domain as type, written, as the relation `a ≤ b`
    // of two bound names alone does not tell it.
    let ty = between_preorders(f, ctx)?;
    let body = monotone_body(f, rel, reversed);
    let inner = node2(FORALL, binder("b✝", Some(&ty)), body);
    Some(("Monotone (definition)", node2(FORALL, binder("a✝", Some(&ty)), inner)))
}

/// `∀ m, ∀ n, m ≤ n → f m ≤ f n` with untyped points → `Monotone f` (and kin), where
/// [`monotone_unfolded`] of the result gives the same statement with the points typed.
fn monotone_folded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (FORALL, [m, inner]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (FORALL, [n, body]) = (inner.label.as_str(), inner.children.as_slice()) else {
        return None;
    };
    let (IMP, [_, images]) = (body.label.as_str(), body.children.as_slice()) else {
        return None;
    };
    let f = Tree::leaf(app_head(images.children.first()?)?);
    let fresh = ["a✝", "b✝"];
    if !is_leaf(m) || !is_leaf(n) || m.label == n.label || fresh.iter().any(|x| mentions(body, x)) {
        return None;
    }
    if [&m.label, &n.label].contains(&&f.label) {
        return None;
    }
    let renamed = super::substitution::substitute(body, &m.label, &Tree::bound_variable("a✝"));
    let renamed = super::substitution::substitute(&renamed, &n.label, &Tree::bound_variable("b✝"));
    ["Monotone", "Antitone", "StrictMono", "StrictAnti"].into_iter().find_map(|head| {
        let folded = Tree::node(format!("{head} _ "), vec![f.clone()]);
        let (_, unfolded) = monotone_unfolded(&folded, ctx)?;
        let (FORALL, [_, typed_inner]) = (unfolded.label.as_str(), unfolded.children.as_slice())
        else {
            return None;
        };
        let (FORALL, [_, typed_body]) =
            (typed_inner.label.as_str(), typed_inner.children.as_slice())
        else {
            return None;
        };
        (*typed_body == renamed).then_some(("Monotone (definition)", folded))
    })
}

/// `Monotone (fun (x : α) => e)` and kin unfolded with the function applied (β): `∀ a✝ b✝ : α,
/// a✝ ≤ b✝ → e[a✝/x] ≤ e[b✝/x]`, where `α` is written and `e`'s type is known, both among the
/// preorders ℕ ℤ ℚ ℝ.
fn monotone_lambda(f: &Tree, rel: &'static str, reversed: bool, ctx: &Ctx) -> Option<Tree> {
    let ("fun _ => _ ", [binder_node, body]) = (f.label.as_str(), f.children.as_slice()) else {
        return None;
    };
    let (" _ : _ ", [x, ty]) = (binder_node.label.as_str(), binder_node.children.as_slice()) else {
        return None;
    };
    let preorder = |n: elab::Num| !matches!(n, elab::Num::Complex);
    let domain_ok = elab::num_of_type(ty).is_some_and(preorder);
    let codomain_ok = matches!(elab::type_of(body, ctx.carriers), elab::Ty::Num(n) if preorder(n));
    let rebound = super::shapes::binds_inside(body, &x.label);
    if !is_leaf(x)
        || !domain_ok
        || !codomain_ok
        || rebound
        || mentions(body, "a✝")
        || mentions(body, "b✝")
    {
        return None;
    }
    let (a, b) = (Tree::bound_variable("a✝"), Tree::bound_variable("b✝"));
    let at = |p: &Tree| super::substitution::substitute(body, &x.label, p);
    let images = if reversed { node2(rel, at(&b), at(&a)) } else { node2(rel, at(&a), at(&b)) };
    let body = node2(IMP, node2(rel, a, b), images);
    let inner = node2(FORALL, binder("b✝", Some(ty)), body);
    Some(node2(FORALL, binder("a✝", Some(ty)), inner))
}

/// `MonotoneOn f s` (and kin) unfolded: `∀ a✝, a✝ ∈ s → ∀ b✝, b✝ ∈ s → a✝ ≤ b✝ → f a✝ ≤ f b✝`.
fn monotone_on_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let [f, s] = t.children.as_slice() else {
        return None;
    };
    let head = t.label.strip_suffix(" _  _ ")?;
    let (rel, reversed) = monotone_kind(head).filter(|_| head.ends_with("On"))?;
    if !plain_function(f, &["a✝", "b✝"])
        || mentions(s, "a✝")
        || mentions(s, "b✝")
        || bound_by_statement(ctx, head)
        || between_preorders(f, ctx).is_none()
    {
        return None;
    }
    let (a, b) = (Tree::bound_variable("a✝"), Tree::bound_variable("b✝"));
    let body = monotone_body(f, rel, reversed);
    let inner = node2(FORALL, b.clone(), node2(IMP, node2(MEM, b, s.clone()), body));
    let outer = node2(FORALL, a.clone(), node2(IMP, node2(MEM, a, s.clone()), inner));
    Some(("MonotoneOn (definition)", outer))
}

/// `Function.LeftInverse g f` unfolded: `∀ x✝, g (f x✝) = x✝`, for named `g` and `f`.
fn left_inverse_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Function.LeftInverse _  _ ", [g, f]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let fresh = "x✝";
    if !plain_function(g, &[fresh])
        || !plain_function(f, &[fresh])
        || bound_by_statement(ctx, "Function.LeftInverse")
    {
        return None;
    }
    // `LeftInverse (g : β → α) (f : α → β)` takes both at matching types (functions are not
    // coerced); unfolded, `g (f x) = x` could cast `f x` or `x`.
    let arrow = |h: &Tree| {
        ctx.carriers.name_type(&h.label).filter(|ty| ty.label == IMP && ty.children.len() == 2)
    };
    let (Some(gt), Some(ft)) = (arrow(g), arrow(f)) else {
        return None;
    };
    if gt.children[0] != ft.children[1] || gt.children[1] != ft.children[0] {
        return None;
    }
    let x = Tree::bound_variable(fresh);
    let body = node2(EQ, apply(g, &apply(f, &x)), x.clone());
    Some(("Function.LeftInverse (definition)", node2(FORALL, x, body)))
}

/// `Irrational x` unfolded: `¬∃ q✝ : ℚ, (q✝ : ℝ) = x`. `Irrational` takes a real, so `x` is
/// elaborated at ℝ either way.
fn irrational_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Irrational _ ", [x]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    if bound_by_statement(ctx, "Irrational") || mentions(x, "q✝") {
        return None;
    }
    let q = Tree::bound_variable("q✝");
    let cast = node2("( _ : _ )", q.clone(), Tree::leaf("ℝ"));
    let exists = node2(
        super::shapes::EXISTS,
        node2(" _ : _ ", q, Tree::leaf("ℚ")),
        node2(EQ, cast, x.clone()),
    );
    Some(("Irrational (definition)", Tree::node("¬", vec![exists])))
}

/// `IsUnit x` unfolded: `∃ b✝ : M, x * b✝ = 1` in a commutative monoid `M`
/// (`isUnit_iff_exists_inv`), `∃ b✝ : M, x * b✝ = 1 ∧ b✝ * x = 1` in any other
/// (`isUnit_iff_exists`). `M` is read from `x`: a name's written type, an ascription, a negated
/// name.
fn is_unit_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("IsUnit _ ", [x]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    if bound_by_statement(ctx, "IsUnit") || mentions(x, "b✝") {
        return None;
    }
    let c = ctx.carriers;
    let named = |e: &Tree| is_leaf(e).then(|| c.name_type(&e.label)).flatten().cloned();
    // `-e` needs a `Neg`: a ring (ℤ ℚ ℝ ℂ, or a type variable with a unital ring class).
    let negatable = |ty: &Tree| {
        ["ℤ", "ℚ", "ℝ", "ℂ"].contains(&ty.label.as_str())
            || (is_leaf(ty) && c.has_instance(&super::carriers::UNITAL_RING_CLASSES, &ty.label))
    };
    let ty = match (x.label.as_str(), x.children.as_slice()) {
        ("( _ : _ )", [_, ty]) => Some(ty.clone()),
        ("-", [e]) => named(e).filter(negatable),
        _ => named(x),
    }?;
    let commutative = super::carriers::monoid_commutes(&ty, c)?;
    let b = Tree::bound_variable("b✝");
    let one = || Tree::leaf("1");
    let right = node2(EQ, node2(" _ * _ ", x.clone(), b.clone()), one());
    let body = if commutative {
        right
    } else {
        node2(" _ ∧ _ ", right, node2(EQ, node2(" _ * _ ", b.clone(), x.clone()), one()))
    };
    let exists = node2(super::shapes::EXISTS, node2(" _ : _ ", b, ty), body);
    Some(("IsUnit (definition)", exists))
}

/// `IsNilpotent x` unfolded: `∃ n✝ : ℕ, x ^ n✝ = 0`.
fn nilpotent_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("IsNilpotent _ ", [x]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    if bound_by_statement(ctx, "IsNilpotent") || mentions(x, "n✝") {
        return None;
    }
    let n = Tree::bound_variable("n✝");
    let power = node2(EQ, node2(" _ ^ _ ", x.clone(), n.clone()), Tree::leaf("0"));
    let exists = node2(super::shapes::EXISTS, node2(" _ : _ ", n, Tree::leaf("ℕ")), power);
    Some(("IsNilpotent (definition)", exists))
}

/// `Set.EqOn f g s` unfolded: `∀ x✝, x✝ ∈ s → f x✝ = g x✝`.
fn eq_on_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Set.EqOn _  _  _ ", [f, g, s]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let fresh = "x✝";
    if !plain_function(f, &[fresh]) || !plain_function(g, &[fresh]) || mentions(s, fresh) {
        return None;
    }
    // `EqOn (f₁ f₂ : α → β)` takes both at one type (functions are not coerced); unfolded,
    // `f x = g x` would cast one side.
    let written = |h: &Tree| ctx.carriers.name_type(&h.label);
    if bound_by_statement(ctx, "Set.EqOn") || written(f).is_none() || written(f) != written(g) {
        return None;
    }
    let x = Tree::bound_variable(fresh);
    let body = node2(IMP, node2(MEM, x.clone(), s.clone()), node2(EQ, apply(f, &x), apply(g, &x)));
    Some(("Set.EqOn (definition)", node2(FORALL, x, body)))
}

/// `Function.Periodic f c` unfolded: `∀ x✝, f (x✝ + c) = f x✝`.
fn periodic_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Function.Periodic _  _ ", [f, c]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let fresh = "x✝";
    if !plain_function(f, &[fresh])
        || mentions(c, fresh)
        || bound_by_statement(ctx, "Function.Periodic")
    {
        return None;
    }
    let x = Tree::bound_variable(fresh);
    let shifted = apply(f, &node2(" _ + _ ", x.clone(), c.clone()));
    let body = node2(EQ, shifted, apply(f, &x));
    Some(("Function.Periodic (definition)", node2(FORALL, binder(fresh, domain(f, ctx)), body)))
}

/// `p.IsRoot a` → `Polynomial.IsRoot p a` and `p.eval a` → `Polynomial.eval a p`, for a name
/// `p` written `Polynomial R` (or `R[X]`): generalized field notation puts the receiver at the
/// first explicit argument of type `Polynomial _`, which for `eval` is the second.
fn polynomial_dot(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let [p, a] = t.children.as_slice() else {
        return None;
    };
    coefficients(p, ctx)?;
    match t.label.as_str() {
        " _ .IsRoot _ " => Some((
            "Polynomial.IsRoot (dot notation)",
            Tree::node("Polynomial.IsRoot _  _ ", vec![p.clone(), a.clone()]),
        )),
        // `eval` takes the point first: one not of type `R` may elaborate otherwise.
        " _ .eval _ " if point_fits(p, a, ctx) => Some((
            "Polynomial.eval (dot notation)",
            Tree::node("Polynomial.eval _  _ ", vec![a.clone(), p.clone()]),
        )),
        _ => None,
    }
}

/// The coefficient ring `R` of a name `p` written `Polynomial R`.
fn coefficients<'c>(p: &Tree, ctx: &Ctx<'c>) -> Option<&'c Tree> {
    let ty = ctx.carriers.name_type(&p.label).filter(|_| is_leaf(p))?;
    let ("Polynomial _ ", [r]) = (ty.label.as_str(), ty.children.as_slice()) else {
        return None;
    };
    Some(r)
}

/// `p` is a name written `Polynomial R` and `a` a numeral or a term of type `R`: then
/// `IsRoot p a` and `eval a p` take `a` as written (no cast one side makes and the other
/// does not).
fn point_fits(p: &Tree, a: &Tree, ctx: &Ctx) -> bool {
    let Some(r) = coefficients(p, ctx) else {
        return false;
    };
    literal(a).is_some() || same_type(a, r, ctx)
}

/// Is `t`'s type the written type `ty`: a name written `ty`, or a term of number type `ty`?
fn same_type(t: &Tree, ty: &Tree, ctx: &Ctx) -> bool {
    if is_leaf(t) && ctx.carriers.name_type(&t.label) == Some(ty) {
        return true;
    }
    elab::num_of_type(ty).is_some_and(|n| elab::type_of(t, ctx.carriers) == elab::Ty::Num(n))
}

/// Do `terms` have one type, so that a function taking them all at one type (`Commute a b`)
/// casts none of them: numerals, and names of one written type or terms of one number type.
fn one_type(terms: &[&Tree], ctx: &Ctx) -> bool {
    let typed: Vec<&&Tree> = terms.iter().filter(|t| literal(t).is_none()).collect();
    let Some(first) = typed.first() else {
        return true;
    };
    if let Some(ty) = ctx.carriers.name_type(&first.label).filter(|_| is_leaf(first)) {
        return typed.iter().all(|t| is_leaf(t) && ctx.carriers.name_type(&t.label) == Some(ty));
    }
    match elab::type_of(first, ctx.carriers) {
        elab::Ty::Num(n) => {
            typed.iter().all(|t| elab::type_of(t, ctx.carriers) == elab::Ty::Num(n))
        }
        _ => false,
    }
}

/// `Commute a b` → `a * b = b * a`, for `a`, `b` of one type.
fn commute_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Commute _  _ ", [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    if !one_type(&[a, b], ctx) || bound_by_statement(ctx, "Commute") {
        return None;
    }
    let product = |x: &Tree, y: &Tree| node2(MUL, x.clone(), y.clone());
    Some(("Commute (definition)", node2(EQ, product(a, b), product(b, a))))
}

/// `SemiconjBy a x y` → `a * x = y * a`, for `a`, `x`, `y` of one type.
fn semiconj_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("SemiconjBy _  _  _ ", [a, x, y]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    if !one_type(&[a, x, y], ctx) || bound_by_statement(ctx, "SemiconjBy") {
        return None;
    }
    let product = |u: &Tree, v: &Tree| node2(MUL, u.clone(), v.clone());
    Some(("SemiconjBy (definition)", node2(EQ, product(a, x), product(y, a))))
}

/// `Polynomial.IsRoot p a` → `Polynomial.eval a p = 0`, when `a` fits `p`'s coefficients.
fn is_root_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Polynomial.IsRoot _  _ ", [p, a]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    if !point_fits(p, a, ctx) || bound_by_statement(ctx, "Polynomial.IsRoot") {
        return None;
    }
    let eval = Tree::node("Polynomial.eval _  _ ", vec![a.clone(), p.clone()]);
    Some(("Polynomial.IsRoot.def", node2(EQ, eval, Tree::leaf("0"))))
}

/// `a ∈ upperBounds s` → `∀ x✝, x✝ ∈ s → x✝ ≤ a` (`lowerBounds`: `a ≤ x✝`), for `s` a name
/// of known type `Set T` ([`collection`]) and `a` a numeral or a name of type `T` (otherwise `a` is coerced into `T`
/// by the membership, and the bare `a` would be read at its own type).
fn bounds_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (MEM, [a, bounds]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let [s] = bounds.children.as_slice() else {
        return None;
    };
    let upper = match bounds.label.as_str() {
        "upperBounds _ " => true,
        "lowerBounds _ " => false,
        _ => return None,
    };
    let fresh = "x✝";
    let c = ctx.carriers;
    let set = collection(s, c).filter(|set| set.kind == Kind::Set)?;
    let element = &set.element;
    let fits = literal(a).is_some() || (is_leaf(a) && c.name_type(&a.label) == Some(element));
    if !fits
        || a.label == fresh
        || bound_by_statement(ctx, if upper { "upperBounds" } else { "lowerBounds" })
    {
        return None;
    }
    let x = Tree::bound_variable(fresh);
    let order =
        if upper { node2(LE, x.clone(), a.clone()) } else { node2(LE, a.clone(), x.clone()) };
    let body = node2(IMP, node2(MEM, x.clone(), s.clone()), order);
    Some((if upper { "mem_upperBounds" } else { "mem_lowerBounds" }, node2(FORALL, x, body)))
}

/// `BddAbove s` → `∃ x✝ : T, ∀ y✝, y✝ ∈ s → y✝ ≤ x✝` (`BddBelow`: `x✝ ≤ y✝`), for `s` of known
/// type `Set T` ([`collection`]).
fn bdd_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (upper, [s]) = (
        match t.label.as_str() {
            "BddAbove _ " => true,
            "BddBelow _ " => false,
            _ => return None,
        },
        t.children.as_slice(),
    ) else {
        return None;
    };
    let c = ctx.carriers;
    let set = collection(s, c).filter(|set| set.kind == Kind::Set)?;
    if bound_by_statement(ctx, if upper { "BddAbove" } else { "BddBelow" })
        || ["x✝", "y✝"].iter().any(|n| mentions(s, n))
    {
        return None;
    }
    let (x, y) = (Tree::bound_variable("x✝"), Tree::bound_variable("y✝"));
    let compare = |e: Tree| if upper { node2(LE, e, x.clone()) } else { node2(LE, x.clone(), e) };
    let range = match (s.label.as_str(), s.children.as_slice()) {
        ("Set.range _ ", [f]) if is_leaf(f) && !c.binds("Set.range") => c
            .name_type(&f.label)
            .filter(|ty| ty.label == IMP && ty.children.len() == 2 && c.names_one_type(ty))
            .map(|ty| (f, &ty.children[0])),
        _ => None,
    };
    let bound = match range {
        Some((f, domain)) => {
            let point = node2(EXPLICIT, y.clone(), domain.clone());
            node2(FORALL, point, compare(apply(f, &y)))
        }
        None => node2(FORALL, y.clone(), node2(IMP, node2(MEM, y.clone(), s.clone()), compare(y))),
    };
    let name = if upper { "bddAbove_def" } else { "bddBelow_def" };
    Some((name, node2(EXISTS, node2(EXPLICIT, x, set.element), bound)))
}

/// `closure s = s` (either way round) → `IsClosed s`, for `s` a name of known type `Set X`.
fn closure_eq_self(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EQ, [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (closure, s) = if a.label == "closure _ " { (a, b) } else { (b, a) };
    let ("closure _ ", [inner]) = (closure.label.as_str(), closure.children.as_slice()) else {
        return None;
    };
    let c = ctx.carriers;
    let set = is_leaf(s) && collection(s, c).is_some_and(|set| set.kind == Kind::Set);
    let mathlib = !["closure", "IsClosed"].iter().any(|n| c.binds(n));
    (inner == s && set && mathlib)
        .then(|| ("closure_eq_iff_isClosed", Tree::node("IsClosed _ ", vec![s.clone()])))
}

/// `∀ b, b ∈ upperBounds s → P` → `∀ b, (∀ x✝, x✝ ∈ s → x✝ ≤ b) → P` (`lowerBounds`: `b ≤
/// x✝`), for `s` of known type `Set T` ([`collection`]) and `b` untyped or typed `T`: the
/// membership then elaborates `b` at `T`. The inner name is one `s` and `b` do not use.
fn bound_point_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let GuardedForall { name, written, premise, rest } = guarded_forall(t)?;
    let (MEM, [b, bounds]) = (premise.label.as_str(), premise.children.as_slice()) else {
        return None;
    };
    let upper = match bounds.label.as_str() {
        "upperBounds _ " => true,
        "lowerBounds _ " => false,
        _ => return None,
    };
    let [s] = bounds.children.as_slice() else {
        return None;
    };
    let c = ctx.carriers;
    let set = collection(s, c).filter(|set| set.kind == Kind::Set)?;
    let fresh = ["x✝", "y✝", "z✝"].into_iter().find(|n| *n != name.label && !mentions(s, n))?;
    if !is_leaf(b)
        || b.label != name.label
        || written.is_some_and(|ty| *ty != set.element)
        || bound_by_statement(ctx, if upper { "upperBounds" } else { "lowerBounds" })
    {
        return None;
    }
    let x = Tree::bound_variable(fresh);
    let order =
        if upper { node2(LE, x.clone(), b.clone()) } else { node2(LE, b.clone(), x.clone()) };
    let bound = node2(FORALL, x.clone(), node2(IMP, node2(MEM, x, s.clone()), order));
    let lemma = if upper { "mem_upperBounds" } else { "mem_lowerBounds" };
    // The binder keeps the type the membership gave it: after the rewrite its first use is
    // `x✝ ≤ b`, which decides nothing.
    let typed = node2(EXPLICIT, name.clone(), set.element.clone());
    Some((lemma, node2(FORALL, typed, node2(IMP, bound, rest.clone()))))
}

/// `f ⁻¹' s` → `{x✝ | f x✝ ∈ s}`, for a named `f`.
fn preimage_unfolded(t: &Tree, _: &Ctx) -> Option<(&'static str, Tree)> {
    let (" _ ⁻¹' _ ", [f, s]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let fresh = "x✝";
    if !plain_function(f, &[fresh]) || mentions(s, fresh) {
        return None;
    }
    let x = Tree::bound_variable(fresh);
    Some((
        "Set.preimage (definition)",
        node2("{ _ | _ }", x.clone(), node2(MEM, apply(f, &x), s.clone())),
    ))
}

/// `v ∈ LinearMap.ker f` → `f v = 0`, for a named `f`.
fn mem_ker_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (MEM, [v, ker]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let ("LinearMap.ker _ ", [f]) = (ker.label.as_str(), ker.children.as_slice()) else {
        return None;
    };
    // `LinearMap.ker` needs a `SemilinearMapClass`: `f` written `M →ₗ[R] M₂` (a plain
    // function, a monoid hom or a matrix does not elaborate there).
    let linear = ctx.carriers.name_type(&f.label).is_some_and(|ty| ty.label.contains("→ₗ"));
    if !plain_function(f, &[]) || !linear || bound_by_statement(ctx, "LinearMap.ker") {
        return None;
    }
    Some(("LinearMap.mem_ker", node2(EQ, apply(f, v), Tree::leaf("0"))))
}

/// The interval a set-builder's body describes, with its bounds: `a < x ∧ x < b` is `Ioo a b`,
/// `a ≤ x` is `Ici a`, … (`x` the bound name, on the side the definition writes it).
fn interval_of<'t>(x: &str, body: &'t Tree) -> Option<(&'static str, Vec<&'t Tree>)> {
    let is_x = |t: &Tree| is_leaf(t) && t.label == x;
    // `l < x` / `l ≤ x`: the lower bound `l`, strict or not.
    let lower = |t: &'t Tree| -> Option<(bool, &'t Tree)> {
        let [l, y] = t.children.as_slice() else { return None };
        let strict = match t.label.as_str() {
            LT => true,
            LE => false,
            _ => return None,
        };
        is_x(y).then_some((strict, l))
    };
    let upper = |t: &'t Tree| -> Option<(bool, &'t Tree)> {
        let [y, u] = t.children.as_slice() else { return None };
        let strict = match t.label.as_str() {
            LT => true,
            LE => false,
            _ => return None,
        };
        is_x(y).then_some((strict, u))
    };
    if let (AND, [lo, up]) = (body.label.as_str(), body.children.as_slice()) {
        let ((ls, l), (us, u)) = (lower(lo)?, upper(up)?);
        let name = match (ls, us) {
            (true, true) => "Set.Ioo",
            (false, false) => "Set.Icc",
            (false, true) => "Set.Ico",
            (true, false) => "Set.Ioc",
        };
        return Some((name, vec![l, u]));
    }
    if let Some((strict, l)) = lower(body) {
        return Some((if strict { "Set.Ioi" } else { "Set.Ici" }, vec![l]));
    }
    let (strict, u) = upper(body)?;
    Some((if strict { "Set.Iio" } else { "Set.Iic" }, vec![u]))
}

/// `{x | a < x ∧ x < b}` → `Set.Ioo a b` (and the other seven intervals). Each bound is a
/// numeral or a name of written type, the names' types agree, and a written type of `x` is
/// theirs (a numeral-only interval with a written `x : T` would lose `T`).
fn interval_folded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("{ _ | _ }", [binder, body]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (x, written) = named_binder(binder)?;
    let (name, bounds) = interval_of(&x.label, body)?;
    let c = ctx.carriers;
    let mut bound_type: Option<&Tree> = None;
    for b in &bounds {
        if literal(b).is_some() {
            continue;
        }
        if !is_leaf(b) || b.label == x.label {
            return None;
        }
        let ty = c.name_type(&b.label)?;
        if bound_type.is_some_and(|seen| seen != ty) {
            return None;
        }
        bound_type = Some(ty);
    }
    // An untyped `x` takes the expected type where there is one (`S = {x | a < x}` with
    // `S : Set ℝ`, `a : ℕ` is a real interval), which this node cannot see: only numeral bounds
    // (polymorphic alike in both forms) or a written `x : T` of the bounds' type fold.
    match written {
        Some(ty) if bound_type != Some(ty) => return None,
        None if bound_type.is_some() => return None,
        _ => {}
    }
    // `Set.Ioo` needs `[Preorder α]`, the set-builder only `[LT α]`: the element type is a
    // number type, or numerals alone decide it with no type variable to take them.
    let ordered = |t: &Tree| ["ℕ", "ℤ", "ℚ", "ℝ"].contains(&t.label.as_str());
    match written {
        Some(ty) if !ordered(ty) => return None,
        None if c.binds_type_variable() => return None,
        _ => {}
    }
    if bound_by_statement(ctx, name) {
        return None;
    }
    let label = format!("{name}{}", " _ ".repeat(bounds.len()));
    Some((name, Tree::node(label, bounds.into_iter().cloned().collect())))
}

/// [`class_as_proposition`]'s pairs: a class and the proposition it is equivalent to, with the
/// lemma.
fn class_or_proposition(t: &Tree, c: &Carriers) -> Option<(&'static str, Tree)> {
    const FINITE: &str = "not_finite_iff_infinite";
    const COMPACT: &str = "isCompact_univ_iff";
    let unbound = |f: &str| !c.binds(f);
    match (t.label.as_str(), t.children.as_slice()) {
        ("¬", [inner]) if inner.label == "Finite _ " && unbound("Finite") => {
            Some((FINITE, Tree::node("Infinite _ ", inner.children.clone())))
        }
        ("Infinite _ ", [_]) if unbound("Infinite") => {
            Some((FINITE, Tree::node("¬", vec![Tree::node("Finite _ ", t.children.clone())])))
        }
        ("IsCompact _ ", [univ]) if unbound("IsCompact") => {
            let ("( _ : _ )", [set, ty]) = (univ.label.as_str(), univ.children.as_slice()) else {
                return None;
            };
            let ("Set _ ", [x]) = (ty.label.as_str(), ty.children.as_slice()) else {
                return None;
            };
            (set.label == "Set.univ" && is_leaf(set))
                .then(|| (COMPACT, Tree::node("CompactSpace _ ", vec![x.clone()])))
        }
        ("CompactSpace _ ", [x]) if unbound("CompactSpace") => {
            let univ = Tree::node(
                "( _ : _ )",
                vec![Tree::leaf("Set.univ"), Tree::node("Set _ ", vec![x.clone()])],
            );
            Some((COMPACT, Tree::node("IsCompact _ ", vec![univ])))
        }
        _ => None,
    }
}

/// `¬Finite α` ↔ `Infinite α` and `IsCompact (univ : Set X)` ↔ `CompactSpace X` where the node
/// is no binder's type: on the path from the statement's root, no binder (theorem binder,
/// quantifier binder, `fun` binder), no arrow's antecedent and no conjunction or disjunction
/// under one (`and_imp` makes a hypothesis of each conjunct).
fn class_as_proposition(t: &Tree, ctx: &Ctx) -> Vec<(&'static str, Tree)> {
    let Some((root, path, _)) = ctx.at else {
        return Vec::new();
    };
    // The theorem's binder list, the root's one child (labelled like a binder when it has one
    // binder): every child but the conclusion is a binder.
    let list_path = binder_list(root).map(|(_, path)| path);
    let mut node = root;
    for (depth, &i) in path.iter().enumerate() {
        let binder_type = if list_path.as_deref() == Some(&path[..depth]) {
            i + 1 < node.children.len()
        } else {
            binder_kind(&node.label).is_some()
                || (node.label == IMP && i == 0)
                // `if h : c then t else e` is `dite c (fun h => t) (fun h => e)`: `c` is the
                // type of a binder (the tree keeps no `h :`, so every condition counts).
                || (node.label == "if _ then _ else _ " && i == 0)
                || ((quantifier(node).is_some() || is_binding_node(&node.label))
                    && i + 1 < node.children.len())
        };
        if binder_type {
            return Vec::new();
        }
        let Some(next) = node.children.get(i) else {
            return Vec::new();
        };
        node = next;
    }
    let mut out: Vec<(&'static str, Tree)> =
        class_or_proposition(t, ctx.carriers).into_iter().collect();
    out.extend(super::set_membership::coe_class(t, ctx));
    out.extend(super::set_membership::coe_class_back(t, ctx));
    out
}

/// `IsEmpty α` → `¬ Nonempty α` (`not_nonempty_iff`), where the statement binds neither name.
fn is_empty_as_not_nonempty(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("IsEmpty _ ", [a]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    if ctx.carriers.binds("IsEmpty") || ctx.carriers.binds("Nonempty") {
        return None;
    }
    let nonempty = Tree::node("Nonempty _ ", vec![a.clone()]);
    Some(("not_nonempty_iff", Tree::node(NOT, vec![nonempty])))
}
