//! Algebra family: standard Mathlib equivalences of groups, lattices of sets, ideals and
//! congruences that a restatement uses in place of the reference's form (`Subgroup.closure {g}`
//! for `Subgroup.zpowers g`, `s ∩ t = ∅` for `Disjoint s t`, `a ≡ 0 [MOD n]` for `n ∣ a`,
//! `I + J` for `I ⊔ J`). Each rule fires only where the carrier is known to be the lemma's
//! (a `Set`/`Finset`, an `Ideal`, ℕ or ℤ). Declared as data (`declare`) for the matcher
//! (`table`); owns nothing else (commutativity is `commutativity`'s, sets' membership `sets`').

use super::carriers::variable_type_of_class;
use super::carriers::Carriers;
use super::collections::collection;
use super::commutativity::number_valued_arithmetic;
use super::declare::*;
use super::elab::{self, Ty};
use super::shapes::{app_head, is_leaf, literal, node2, ADD, EQ, FORALL, FRESH_BOUND, IMP, MUL};
use super::shapes::{guarded_forall, GuardedForall};
use crate::trees::Tree;

#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    // `Subgroup.closure` and `Subgroup.zpowers` exist only on a `Group` (`Subgroup G` needs
    // `[Group G]`), where the lemma holds: nothing more to check. In a monoid the closure of
    // `{g}` is `Submonoid.closure`, which this pattern does not name.
    rw("Subgroup.zpowers_eq_closure", "Subgroup.zpowers g = Subgroup.closure {g} ([Group G], Mathlib/Algebra/Group/Subgroup/ZPowers/Basic.lean)", "Subgroup.closure {?g}", "Subgroup.zpowers ?g")
        .ex(&[("{G : Type*} [Group G] (A : Subgroup G) (b : G) : A ⊓ Subgroup.closure {b} = ⊥", "{G : Type*} [Group G] (A : Subgroup G) (b : G) : A ⊓ Subgroup.zpowers b = ⊥")])
        .non(&[
            // The closure of two elements, of a set, and the monoid closure are other subgroups.
            "{G : Type*} [Group G] (a b : G) : Subgroup.closure {a, b} = ⊤",
            "{G : Type*} [Group G] (s : Set G) : Subgroup.closure s = ⊤",
            "{M : Type*} [Monoid M] (b : M) : Submonoid.closure {b} = ⊤",
            // Unqualified `closure` is the topological closure unless a header opens `Subgroup`.
            "{G : Type*} [Group G] [TopologicalSpace G] (b : G) : closure {b} = Set.univ",
        ]),
    rw("AddSubgroup.zmultiples_eq_closure", "AddSubgroup.zmultiples a = AddSubgroup.closure {a} ([AddGroup A], Mathlib/Algebra/Group/Subgroup/ZPowers/Basic.lean, to_additive)", "AddSubgroup.closure {?g}", "AddSubgroup.zmultiples ?g")
        .ex(&[("{A : Type*} [AddGroup A] (b : A) : AddSubgroup.closure {b} = ⊤", "{A : Type*} [AddGroup A] (b : A) : AddSubgroup.zmultiples b = ⊤")])
        .non(&["{A : Type*} [AddMonoid A] (b : A) : AddSubmonoid.closure {b} = ⊤", "{A : Type*} [AddGroup A] (a b : A) : AddSubgroup.closure {a, b} = ⊤"]),
    // `range_eq_top [RingHomSurjective τ₁₂] {f : F} : range f = ⊤ ↔ Surjective f`
    // (Mathlib/Algebra/Module/Submodule/Range.lean); a linear map `M →ₗ[R] M₂` is over
    // `RingHom.id R`, which is `RingHomSurjective` (`RingHomSurjective.ids`). A semilinear map
    // `M →ₛₗ[σ] M₂` need not be.
    code("LinearMap.range_eq_top", "LinearMap.range f = ⊤ ↔ Function.Surjective f for f : M →ₗ[R] M₂ (Mathlib/Algebra/Module/Submodule/Range.lean)", range_eq_top)
        .ex(&[("{K V : Type*} [Field K] [AddCommGroup V] [Module K V] (T : V →ₗ[K] V) : LinearMap.range T = ⊤", "{K V : Type*} [Field K] [AddCommGroup V] [Module K V] (T : V →ₗ[K] V) : Function.Surjective T")])
        // A semilinear map, a map of unknown type, a subgroup's `⊤` of another range, a
        // rebound `⊤`.
        .non(&["{K V : Type*} [Field K] [AddCommGroup V] [Module K V] (σ : K →+* K) (T : V →ₛₗ[σ] V) : LinearMap.range T = ⊤",
               "(T : α) : LinearMap.range T = ⊤",
               "{G : Type*} [Group G] (f : G →* G) : MonoidHom.range f = ⊤",
               "{K V : Type*} [Field K] [AddCommGroup V] [Module K V] (T : V →ₗ[K] V) (ε : Submodule K V) : LinearMap.range T = ε"]),
    // Mathlib/Algebra/Group/Subgroup/Ker.lean: `MonoidHom.ker_eq_bot_iff (f : G →* M) : f.ker =
    // ⊥ ↔ Function.Injective f` under `[Group G] [MulOneClass M]`, and its `to_additive`
    // `AddMonoidHom.ker_eq_bot_iff` under `[AddGroup G]`. `ker` exists only on a group's
    // morphisms (a monoid's is `mker`), and the domain's group must be the only operator class
    // on it.
    code("MonoidHom.ker_eq_bot_iff / AddMonoidHom.ker_eq_bot_iff", "f.ker = ⊥ ↔ Function.Injective f for f : G →* M, [Group G]; AddMonoidHom.ker_eq_bot_iff for →+, [AddGroup G] (Mathlib/Algebra/Group/Subgroup/Ker.lean)", ker_eq_bot_iff)
        .ex(&[("{G H : Type*} [Group G] [Group H] (f : G →* H) : MonoidHom.ker f = ⊥", "{G H : Type*} [Group G] [Group H] (f : G →* H) : Function.Injective f"),
              ("{A B : Type*} [AddCommGroup A] [AddGroup B] (f : A →+ B) : ⊥ = AddMonoidHom.ker f", "{A B : Type*} [AddCommGroup A] [AddGroup B] (f : A →+ B) : Function.Injective f")])
        // A monoid domain (no `ker`), a second operator class on the domain, a map of unknown
        // type, a plain function, a linear map (its own lemma), another subgroup than `⊥`.
        .non(&["{G H : Type*} [Monoid G] [Group H] (f : G →* H) : MonoidHom.ker f = ⊥",
               "{G H : Type*} [Group G] [DivisionMonoid G] [Group H] (f : G →* H) : MonoidHom.ker f = ⊥",
               "{G : Type*} [Group G] (f : α) : MonoidHom.ker f = ⊥",
               "{G : Type*} [Group G] (f : G → G) : MonoidHom.ker f = ⊥",
               "{G H : Type*} [Group G] [Group H] (f : G →* H) (K : Subgroup G) : MonoidHom.ker f = K",
               "{G H : Type*} [Group G] [Group H] (f : G →* H) : MonoidHom.ker f = ⊤"]),
    // Mathlib/Algebra/Module/Submodule/Ker.lean, section `AddCommMonoid` (any semiring):
    // `LinearMap.ker_eq_bot' {f : F} : ker f = ⊥ ↔ ∀ m, f m = 0 → m = 0`. Only with a group
    // domain does that become `Injective f` (`injective_iff_map_eq_zero`, below).
    code("LinearMap.ker_eq_bot'", "LinearMap.ker f = ⊥ ↔ ∀ m, f m = 0 → m = 0 for f : M →ₗ[R] M₂ over a semiring (Mathlib/Algebra/Module/Submodule/Ker.lean)", ker_eq_bot_forall)
        .ex(&[("{R M N : Type*} [Semiring R] [AddCommMonoid M] [AddCommMonoid N] [Module R M] [Module R N] (T : M →ₗ[R] N) : LinearMap.ker T = ⊥", "{R M N : Type*} [Semiring R] [AddCommMonoid M] [AddCommMonoid N] [Module R M] [Module R N] (T : M →ₗ[R] N) : ∀ x✝, T x✝ = 0 → x✝ = 0")])
        // A semilinear map (its `0` and kernel are over `σ`; not this rule's shape), an
        // unknown `T`, the range, `⊤`.
        .non(&["{K V : Type*} [Field K] [AddCommGroup V] [Module K V] (σ : K →+* K) (T : V →ₛₗ[σ] V) : LinearMap.ker T = ⊥",
               "(T : α) : LinearMap.ker T = ⊥",
               "{K V : Type*} [Field K] [AddCommGroup V] [Module K V] (T : V →ₗ[K] V) : LinearMap.range T = ⊥",
               "{K V : Type*} [Field K] [AddCommGroup V] [Module K V] (T : V →ₗ[K] V) : LinearMap.ker T = ⊤"]),
    // Mathlib/Algebra/Group/Hom/Basic.lean: `injective_iff_map_eq_one [Group G] [MulOneClass H]
    // [MonoidHomClass F G H] (f : F) : Function.Injective f ↔ ∀ a, f a = 1 → a = 1`, and its
    // `to_additive` `injective_iff_map_eq_zero` (`[AddGroup G]`), which a linear map is
    // (`SemilinearMapClass` gives `AddMonoidHomClass`). On a monoid domain the trivial kernel
    // does not make the map injective.
    code("injective_iff_map_eq_one / injective_iff_map_eq_zero", "Function.Injective f ↔ ∀ a, f a = 1 → a = 1 for f : G →* H, [Group G]; with 0 for f : G →+ H or G →ₗ[R] H, [AddGroup G] (Mathlib/Algebra/Group/Hom/Basic.lean)", injective_of_trivial_kernel)
        .ex(&[("{G H : Type*} [Group G] [Group H] (f : G →* H) : ∀ g, f g = 1 → g = 1", "{G H : Type*} [Group G] [Group H] (f : G →* H) : Function.Injective f"),
              ("{G H : Type*} [Group G] [Group H] (f : G →* H) : ∀ g, 1 = f g → 1 = g", "{G H : Type*} [Group G] [Group H] (f : G →* H) : Function.Injective f"),
              ("{K V W : Type*} [Field K] [AddCommGroup V] [Module K V] [AddCommGroup W] [Module K W] (T : V →ₗ[K] W) : ∀ v : V, T v = 0 → v = 0", "{K V W : Type*} [Field K] [AddCommGroup V] [Module K V] [AddCommGroup W] [Module K W] (T : V →ₗ[K] W) : Function.Injective T")])
        // A monoid domain, or a module that is only a monoid (a trivial kernel does not make
        // such a map injective), a plain function, `1` against `0`, a binder of another type,
        // a point other than the bound one, a second operator class on the domain, `∧`.
        .non(&["{M H : Type*} [Monoid M] [Group H] (f : M →* H) : ∀ g, f g = 1 → g = 1",
               "{R M N : Type*} [Semiring R] [AddCommMonoid M] [AddCommMonoid N] [Module R M] [Module R N] (T : M →ₗ[R] N) : ∀ m, T m = 0 → m = 0",
               "(f : ℤ → ℤ) : ∀ x, f x = 0 → x = 0",
               "{G H : Type*} [AddGroup G] [AddGroup H] (f : G →+ H) : ∀ g, f g = 1 → g = 1",
               "{G H : Type*} [Group G] [Group H] (f : G →* H) (a : G) : ∀ g, f g = 1 → a = 1",
               "{G H : Type*} [Group G] [Group H] (f : G →* H) : ∀ g : H, f g = 1 → g = 1",
               "{G H : Type*} [Group G] [Mul G] [Group H] (f : G →* H) : ∀ g, f g = 1 → g = 1",
               "{G H : Type*} [Group G] [Group H] (f : G →* H) : ∀ g, f g = 1 ∧ g = 1",
               // `f` bound again inside, as a plain function.
               "{G H : Type*} [Group G] [Group H] (f : G →* H) : ∀ f : G → H, (∀ x, f x = 1 → x = 1) → True"]),
    code("Set.disjoint_iff_inter_eq_empty / Finset.disjoint_iff_inter_eq_empty", "Disjoint s t ↔ s ∩ t = ∅ for s t : Set α (Mathlib/Data/Set/Disjoint.lean) and for Finset α (Mathlib/Data/Finset/Lattice/Basic.lean)", disjoint_of_inter_empty)
        .ex(&[
            ("(f : ℕ → Set ℝ) (h : ∀ n m, n ≠ m → f n ∩ f m = ∅) : True", "(f : ℕ → Set ℝ) (h : ∀ n m, n ≠ m → Disjoint (f n) (f m)) : True"),
            ("(s t : Finset ℕ) : s ∩ t = ∅", "(s t : Finset ℕ) : Disjoint s t"),
            ("(s t : Set ℕ) : ∅ = s ∩ t", "(s t : Set ℕ) : Disjoint s t"),
        ])
        .non(&[
            // `∩` on a type no binder says is a set (a `Multiset`, an unknown `α`) is another
            // lattice's, whose `Disjoint` may not be this.
            "(s t : Multiset ℕ) : s ∩ t = ∅",
            "{α : Type*} [Inter α] [EmptyCollection α] (s t : α) : s ∩ t = ∅",
            "(s t : Set ℕ) : s ∩ t = {0}",
            // A local order or bottom on the sets (`Disjoint` reads the order's `⊥`).
            "(s t : Set ℕ) [OrderBot (Set ℕ)] : s ∩ t = ∅",
            "(s t u : Set ℕ) : s ∩ t = u",
            "(s t : Set ℕ) : s ∩ t ≠ ∅",
        ]),
    // `a ≡ b [MOD n]` is read as its definition `a % n = b % n` (`notation`), so the lemma is
    // written on that form. `%` and `∣` elaborate both operands at one type, which must be ℕ
    // (resp. ℤ): a `Fin 5` or a mix (`Unknown`) stays.
    rw("Nat.modEq_zero_iff_dvd", "a ≡ 0 [MOD n] ↔ n ∣ a, i.e. a % n = 0 % n ↔ n ∣ a (Mathlib/Data/Nat/ModEq.lean)", "?a % ?n = 0 % ?n", "?n ∣ ?a")
        .when(&[on(&["?a", "?n"], &NAT)])
        .ex(&[("(n : ℕ) : Nat.factorial (n - 1) % n = 0 % n", "(n : ℕ) : n ∣ Nat.factorial (n - 1)")])
        .non(&["(a : ℕ) : a % 3 = 1 % 3", "(a : Fin 5) : a % 3 = 0 % 3", "(a : ℕ) (n : ℤ) : a % n = 0 % n", "(a : ℕ) : a % 3 = 0 % 4"]),
    rw("Nat.modEq_zero_iff_dvd", "0 ≡ a [MOD n] ↔ n ∣ a (Nat.ModEq.comm; Mathlib/Data/Nat/ModEq.lean)", "0 % ?n = ?a % ?n", "?n ∣ ?a")
        .when(&[on(&["?a", "?n"], &NAT)])
        .ex(&[("(n : ℕ) : 0 % 3 = (n + 1) % 3", "(n : ℕ) : 3 ∣ n + 1")])
        .non(&["(a : Fin 5) : 0 % 3 = a % 3", "(a : ℕ) : 1 % 3 = a % 3"]),
    rw("Int.modEq_zero_iff_dvd", "a ≡ 0 [ZMOD n] ↔ n ∣ a, i.e. a % n = 0 % n ↔ n ∣ a (Mathlib/Data/Int/ModEq.lean)", "?a % ?n = 0 % ?n", "?n ∣ ?a")
        .when(&[on(&["?a", "?n"], &INT)])
        .ex(&[("(a n : ℤ) : a % n = 0 % n", "(a n : ℤ) : n ∣ a")])
        .non(&["(a : ℤ) : a % 3 = 2 % 3", "{R : Type*} [EuclideanDomain R] (a n : R) : a % n = 0 % n"]),
    rw("Int.modEq_zero_iff_dvd", "0 ≡ a [ZMOD n] ↔ n ∣ a (Int.ModEq.comm; Mathlib/Data/Int/ModEq.lean)", "0 % ?n = ?a % ?n", "?n ∣ ?a")
        .when(&[on(&["?a", "?n"], &INT)])
        .ex(&[("(a n : ℤ) : 0 % n = a % n", "(a n : ℤ) : n ∣ a")])
        .non(&["(a : ℤ) (n : ℕ) : 0 % n = a % 5"]),
    // Mathlib/Data/Int/ModEq.lean: `Int.modEq_iff_dvd : a ≡ b [ZMOD n] ↔ n ∣ b - a`, on the
    // definition's form. Not on ℕ: `2 % 5 = 1 % 5` is false while `5 ∣ 1 - 2 = 0` holds.
    rw("Int.modEq_iff_dvd", "a ≡ b [ZMOD n] ↔ n ∣ b - a, i.e. a % n = b % n ↔ n ∣ b - a (Mathlib/Data/Int/ModEq.lean)", "?a % ?n = ?b % ?n", "?n ∣ ?b - ?a")
        .when(&[on(&["?a", "?b", "?n"], &INT)])
        .ex(&[("(a b n : ℤ) : a % n = b % n", "(a b n : ℤ) : n ∣ b - a")])
        .non(&["(a b n : ℕ) : a % n = b % n", "(a b : ℤ) (n : ℕ) : a % n = b % n", "(a b : Fin 5) : a % 3 = b % 3", "(a b n : ℤ) : a % n = b % (n + 1)"]),
    // The same once `norm_num` has folded `b % n` to `b` (numerals `0 < b < n`: `b % n = b`).
    code("Int.modEq_iff_dvd", "a % n = b ↔ n ∣ b - a for numerals 0 < b < n, i.e. a ≡ b [ZMOD n] (Mathlib/Data/Int/ModEq.lean; Int.emod_eq_of_lt)", residue_as_dvd)
        .ex(&[("(a : ℤ) : a ^ 2 % 8 = 1", "(a : ℤ) : 8 ∣ 1 - a ^ 2"), ("(a : ℤ) : 3 = a % 4", "(a : ℤ) : 4 ∣ 3 - a")])
        // ℕ (truncating `-`); a residue not below the modulus (never equal); zero (its own rule).
        .non(&["(a : ℕ) : a % 8 = 1", "(a : ℤ) : a % 8 = 9", "(a : ℤ) : a % 8 = 0", "(a : ℤ) (n : ℕ) : a % n = 1"]),
    // `0 ≡ a [MOD 6]` reads `0 % 6 = a % 6`, and `norm_num` folds the numeral `0 % 6` first.
    rw("Nat.dvd_iff_mod_eq_zero", "a ∣ b ↔ b % a = 0 (ℕ; Mathlib's Nat/Dvd), with eq_comm", "0 = ?a % ?n", "?n ∣ ?a")
        .when(&[on(&["?a % ?n", "0"], &NAT)])
        .ex(&[("(a : ℕ) : 0 = a % 6", "(a : ℕ) : 6 ∣ a")])
        .non(&["(a : ℕ) : 1 = a % 6", "(a : ℤ) (n : ℕ) : 0 = a % n", "(a : Fin 7) : 0 = a % 6"]),
    rw("Int.dvd_iff_emod_eq_zero", "a ∣ b ↔ b % a = 0 (ℤ; Mathlib/Data/Int/Basic), with eq_comm", "0 = ?a % ?n", "?n ∣ ?a")
        .when(&[on(&["?a % ?n", "0"], &INT)])
        .ex(&[("(a : ℤ) : 0 = (a ^ 3 - a) % 6", "(a : ℤ) : 6 ∣ a ^ 3 - a")])
        .non(&["(a : ℤ) : 2 = a % 6", "{R : Type*} [EuclideanDomain R] (a n : R) : 0 = a % n"]),
    code("Submodule.add_eq_sup", "p + p' = p ⊔ p' for submodules, so for `Ideal R = Submodule R R` (Mathlib/Algebra/Module/Submodule/Lattice.lean; Ideal.add_eq_sup)", ideal_sup_of_add)
        .ex(&[("{R : Type*} [CommRing R] (I J : Ideal R) : I + J = ⊤", "{R : Type*} [CommRing R] (I J : Ideal R) : I ⊔ J = ⊤")])
        .non(&[
            // The product of ideals stays; numbers and sets add pointwise.
            "{R : Type*} [CommRing R] (I J : Ideal R) : I * J = ⊤",
            "(a b : ℕ) : a + b = 1",
            "(s t : Set ℕ) : s + t = s",
            "{R : Type*} [CommRing R] (I : Ideal R) (x : R) : I + x = I",
        ]),
    // `Polynomial.C : R →+* R[X]` is a ring hom, and a ring hom maps numerals to numerals
    // (`map_ofNat`, Mathlib/Data/Nat/Cast/Basic.lean; `map_zero`, `map_one`): `C 3 = 3` in
    // `R[X]`. Only where the numeral is elaborated at `R[X]` without `C`: beside a leaf of
    // polynomial type in its arithmetic tree (`binop%`). Alone, `3` would be a natural.
    code("Polynomial.C_ofNat (map_ofNat C)", "C k = k in R[X] for a numeral k, beside a polynomial in one arithmetic tree (Mathlib/Data/Nat/Cast/Basic.lean map_ofNat; Polynomial.C_0, C_1)", polynomial_numeral)
        .ex(&[(": Irreducible (Polynomial.X ^ 3 + Polynomial.C 3 * Polynomial.X + Polynomial.C 2 : Polynomial ℚ)", ": Irreducible (Polynomial.X ^ 3 + 3 * Polynomial.X + Polynomial.C 2 : Polynomial ℚ)"),
              ("(p : Polynomial ℤ) : p * Polynomial.C 1 = p", "(p : Polynomial ℤ) : p * 1 = p")])
        // No polynomial beside it (`C 2 ≠ C 3` is false in `(ZMod 1)[X]`, `2 ≠ 3` is ℕ's);
        // `C a` of a variable; a `C` the statement binds.
        .non(&[": Polynomial.C (2 : ZMod 1) ≠ Polynomial.C 3", "(a : ℚ) (p : Polynomial ℚ) : p + Polynomial.C a = p", "(C : ℕ → Polynomial ℚ) (p : Polynomial ℚ) : p + C 3 = p"]),
    // `smul_eq_C_mul (a : R) : a • p = C a * p` ([Semiring R], Mathlib/Algebra/Polynomial/Basic.lean):
    // a scalar of the coefficient ring itself, as its binder writes it.
    code("Polynomial.smul_eq_C_mul", "a • p = C a * p for a : R and p : R[X] (Mathlib/Algebra/Polynomial/Basic.lean)", polynomial_smul)
        .ex(&[("{R : Type*} [Ring R] (p : Polynomial R) (b : R) : b • p = 0", "{R : Type*} [Ring R] (p : Polynomial R) (b : R) : Polynomial.C b * p = 0")])
        // A scalar of another ring (ℤ acting on ℚ[X] is `zsmul`, not `C`), a numeral, an
        // untyped scalar.
        .non(&["(p : Polynomial ℚ) (b : ℤ) : b • p = 0", "(p : Polynomial ℚ) : 2 • p = 0", "(p : Polynomial ℚ) : ∀ b, b • p = 0"]),
    // `lt_top_iff_ne_top [PartialOrder α] [OrderTop α] : a < ⊤ ↔ a ≠ ⊤`
    // (Mathlib/Order/BoundedOrder/Basic.lean): every lattice of subobjects below is complete.
    code("lt_top_iff_ne_top", "H < ⊤ ↔ H ≠ ⊤ in a complete lattice of subobjects or of sets (Mathlib/Order/BoundedOrder/Basic.lean)", lt_top_of_subobject)
        .ex(&[("{G : Type*} [Group G] (H : Subgroup G) (h : H < ⊤) : H = H", "{G : Type*} [Group G] (H : Subgroup G) (h : H ≠ ⊤) : H = H")])
        // A preorder with a top (numbers have none; a type variable may be any preorder), a
        // name of unknown type.
        .non(&["{α : Type*} [Preorder α] [OrderTop α] (a : α) (h : a < ⊤) : a = a", "(H : _) (h : H < ⊤) : H = H"]),
    // `le_inf_iff [SemilatticeInf α] : a ≤ b ⊓ c ↔ a ≤ b ∧ a ≤ c` (Mathlib/Order/Lattice.lean):
    // `b` and `c` bound at one lattice of subobjects.
    code("le_inf_iff", "a ≤ b ⊓ c ↔ a ≤ b ∧ a ≤ c in a lattice of subobjects or of sets (Mathlib/Order/Lattice.lean)", le_inf_of_subobjects)
        .ex(&[("{R : Type*} [CommRing R] (I J : Ideal R) : I * J ≤ I ⊓ J", "{R : Type*} [CommRing R] (I J : Ideal R) : I * J ≤ I ∧ I * J ≤ J")])
        // Numbers (a linear order: `⊓` is `min`, the same lemma, but left to the number rules),
        // a type variable of unknown order, names of unknown type.
        .non(&["(a b c : ℝ) : a ≤ b ⊓ c", "{α : Type*} [Min α] [LE α] (a b c : α) : a ≤ b ⊓ c", "(a b c : _) : a ≤ b ⊓ c"]),
    // Moves.
    // `sup_comm`/`inf_comm` (Mathlib/Order/Lattice.lean, any `SemilatticeSup`/`SemilatticeInf`):
    // subgroups, ideals, submodules, subrings and subfields are complete lattices.
    moves_code("sup_comm / inf_comm", "a ⊔ b = b ⊔ a and a ⊓ b = b ⊓ a (Mathlib/Order/Lattice.lean), on two substructures of one written type", lattice_comm)
        .ex(&[("{R : Type*} [CommRing R] (I J : Ideal R) (h : I ⊔ J = ⊤) : I * J = ⊥", "{R : Type*} [CommRing R] (I J : Ideal R) (h : J ⊔ I = ⊤) : I * J = ⊥")])
        // Two types, an unknown type, a local lattice structure, a `Max` of its own.
        .non(&["{G : Type*} [Group G] (H : Subgroup G) (K : Subgroup (G × G)) : H ⊔ H = ⊤ ∧ K ⊔ K = ⊤",
               "(a b : α) : a ⊔ b = b",
               "{G : Type*} [Group G] (H K : Subgroup G) [Lattice (Subgroup G)] : H ⊔ K = ⊤",
               "{G : Type*} [Group G] (H K : Subgroup G) [Max (Subgroup G)] : H ⊔ K = ⊤"]),
    moves_code("mul_add / add_mul / ← mul_add / ← add_mul", "a * (b + c) = a * b + a * c and (a + b) * c = a * c + b * c (Mathlib/Algebra/Ring/Defs.lean: left_distrib, right_distrib), on ℕ ℤ ℚ ℝ ℂ", distributed)
        .ex(&[
            ("(a b : ℝ) : a + b ≤ 2 * (a + b)", "(a b : ℝ) : a + b ≤ 2 * a + 2 * b"),
            ("(a b : ℝ) : a + b ≤ 2 * a + 2 * b", "(a b : ℝ) : a + b ≤ 2 * (a + b)"),
            ("(x : ℕ) : (x + 1) * 3 = 6", "(x : ℕ) : x * 3 + 1 * 3 = 6"),
            ("(x y : EuclideanSpace ℝ (Fin 2)) : 2 * ‖x‖ ^ 2 + 2 * ‖y‖ ^ 2 = 1", "(x y : EuclideanSpace ℝ (Fin 2)) : 2 * (‖x‖ ^ 2 + ‖y‖ ^ 2) = 1"),
        ])
        .non(&[
            // Floats round; a type variable may have no distributive law; matrices are left
            // to their own lemmas; numerals alone take their type from the context.
            "(a b : Float) : 2 * (a + b) = 1",
            "{M : Type*} [Mul M] [Add M] (a b c : M) : a * (b + c) = a",
            "(A B C : Matrix (Fin 2) (Fin 2) ℝ) : A * (B + C) = A",
            "(A B : Matrix (Fin 2) (Fin 2) ℝ) : ‖A‖ * (B + 1) = A",
            "(f g : ℕ → ℝ) : 2 * (f + g) = f",
            "(a b : ℝ) : 2 * a + 3 * b = 1",
            ": 2 * (3 + 4) = 14",
        ]),
];

/// `s ∩ t = ∅` (either side) as `Disjoint s t`, where an operand is known to be a
/// `Set`/`Finset` (then so is the intersection, and `∅` is its bottom).
fn disjoint_of_inter_empty(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EQ, [l, r]) = (t.label.as_str(), t.children.as_slice()) else { return None };
    let inter = match (l.label.as_str(), r.label.as_str()) {
        (" _ ∩ _ ", "∅") if is_leaf(r) => l,
        ("∅", " _ ∩ _ ") if is_leaf(l) => r,
        _ => return None,
    };
    let [s, u] = inter.children.as_slice() else { return None };
    // A local instance behind `∩`, `∅` or the order `Disjoint` reads: not Mathlib's sets.
    if ctx.carriers.binds_set_class() {
        return None;
    }
    if !([s, u]
        .iter()
        .any(|x| collection(x, ctx.carriers).is_some_and(|k| k.has_lattice_operations())))
    {
        return None;
    }
    let lemma = if is_finset(s, ctx.carriers) || is_finset(u, ctx.carriers) {
        "Finset.disjoint_iff_inter_eq_empty"
    } else {
        "Set.disjoint_iff_inter_eq_empty"
    };
    Some((lemma, Tree::node("Disjoint _  _ ", vec![s.clone(), u.clone()])))
}

fn is_finset(s: &Tree, c: &Carriers) -> bool {
    is_leaf(s) && c.name_type(&s.label).is_some_and(|ty| ty.label == "Finset _ ")
}

/// `a ⊔ b` as `b ⊔ a` (and `⊓`) for two names bound with one substructure type
/// (`Subgroup G`, `Ideal R`, …), where no binder gives a lattice class of its own.
fn lattice_comm(t: &Tree, ctx: &Ctx) -> Vec<(&'static str, Tree)> {
    let (" _ ⊔ _ " | " _ ⊓ _ ", [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return Vec::new();
    };
    let c = ctx.carriers;
    let ty = |x: &Tree| is_leaf(x).then(|| c.name_type(&x.label)).flatten();
    let substructure = ty(a).is_some_and(|ty| {
        app_head(ty).is_some_and(|h| super::carriers::STRUCTURE_TYPES.contains(&h))
            && !["Equiv.Perm", "Sylow"].contains(&app_head(ty).unwrap_or_default())
    });
    if a == b || !substructure || ty(a) != ty(b) || c.binds_set_class() {
        return Vec::new();
    }
    let rule = if t.label == " _ ⊔ _ " { "sup_comm" } else { "inf_comm" };
    vec![(rule, node2(&t.label, b.clone(), a.clone()))]
}

/// `I + J` as `I ⊔ J` for two names bound as ideals or submodules.
fn ideal_sup_of_add(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (" _ + _ ", [i, j]) = (t.label.as_str(), t.children.as_slice()) else { return None };
    let submodule = |x: &Tree| {
        is_leaf(x)
            && ctx
                .carriers
                .name_type(&x.label)
                .is_some_and(|ty| ["Ideal _ ", "Submodule _  _ "].contains(&ty.label.as_str()))
    };
    (submodule(i) && submodule(j))
        .then(|| ("Submodule.add_eq_sup", node2(" _ ⊔ _ ", i.clone(), j.clone())))
}

/// `a * (b + c)` and `(a + b) * c` distributed, and `a * b + a * c` / `a * c + b * c` (the
/// same `a`, the same `c`) factored, where the operands are numbers of one known type (ℕ ℤ ℚ ℝ
/// ℂ, each a semiring) and not all numerals (those take the type of their context), or norms
/// and numerals (reals: `commutativity::number_valued_arithmetic`).
fn distributed(t: &Tree, ctx: &Ctx) -> Vec<(&'static str, Tree)> {
    let c = ctx.carriers;
    let fits = |terms: &[&Tree]| {
        let numbers = elab::carrier(terms, c).is_some_and(|n| NUMBERS.contains(&n))
            && terms.iter().all(|x| c.ordered_operand(x))
            && terms.iter().any(|x| matches!(elab::type_of(x, c), Ty::Num(_)));
        // Arithmetic of norms and numerals is real whatever the normed space.
        let norms = terms.iter().all(|x| number_valued_arithmetic(x, c) || literal(x).is_some())
            && terms.iter().any(|x| number_valued_arithmetic(x, c));
        numbers || norms
    };
    let mut out = Vec::new();
    fn sum(s: &Tree) -> Option<&[Tree]> {
        (s.label == ADD && s.children.len() == 2).then_some(&s.children[..])
    }
    if let (MUL, [l, r]) = (t.label.as_str(), t.children.as_slice()) {
        if let Some([b, d]) = sum(r) {
            if fits(&[l, b, d]) {
                out.push((
                    "mul_add",
                    node2(ADD, node2(MUL, l.clone(), b.clone()), node2(MUL, l.clone(), d.clone())),
                ));
            }
        }
        if let Some([a, b]) = sum(l) {
            if fits(&[a, b, r]) {
                out.push((
                    "add_mul",
                    node2(ADD, node2(MUL, a.clone(), r.clone()), node2(MUL, b.clone(), r.clone())),
                ));
            }
        }
    }
    if let (ADD, [l, r]) = (t.label.as_str(), t.children.as_slice()) {
        if let ((MUL, [a, b]), (MUL, [a2, d])) =
            ((l.label.as_str(), l.children.as_slice()), (r.label.as_str(), r.children.as_slice()))
        {
            if a == a2 && fits(&[a, b, d]) {
                out.push(("← mul_add", node2(MUL, a.clone(), node2(ADD, b.clone(), d.clone()))));
            }
            let (a, d, b, d2) = (&l.children[0], &l.children[1], &r.children[0], &r.children[1]);
            if d == d2 && fits(&[a, b, d]) {
                out.push(("← add_mul", node2(MUL, node2(ADD, a.clone(), b.clone()), d.clone())));
            }
        }
    }
    out
}

/// `LinearMap.range f = ⊤` (either side) as `Function.Surjective f`, for a name `f` written with
/// a linear map's type `M →ₗ[R] M₂`.
fn range_eq_top(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EQ, [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (range, top) = if is_leaf(b) { (a, b) } else { (b, a) };
    let c = ctx.carriers;
    let ("LinearMap.range _ ", [f]) = (range.label.as_str(), range.children.as_slice()) else {
        return None;
    };
    let linear = is_leaf(f) && c.name_type(&f.label).is_some_and(|ty| ty.label == " _ →ₗ[ _ ] _ ");
    let mathlib = !["LinearMap.range", "Function.Surjective", "⊤"].iter().any(|n| c.binds(n));
    (linear && mathlib && is_leaf(top) && top.label == "⊤")
        .then(|| ("LinearMap.range_eq_top", Tree::node("Function.Surjective _ ", vec![f.clone()])))
}

/// The morphism kinds whose trivial kernel the rules below read: the type's label, the
/// classes that make its domain a group, and the kernel's name and unit.
const KERNELS: [(&str, &[&str], &str, &str); 3] = [
    (" _ →* _ ", &["Group", "CommGroup"], "MonoidHom.ker", "1"),
    (" _ →+ _ ", &["AddGroup", "AddCommGroup"], "AddMonoidHom.ker", "0"),
    (" _ →ₗ[ _ ] _ ", &["AddGroup", "AddCommGroup"], "LinearMap.ker", "0"),
];

/// For a name `f` bound at a morphism type of [`KERNELS`]: its domain (the type's first
/// argument), whether that domain is a group with no other operator class beside it
/// ([`variable_type_of_class`]), the kernel's name and its unit.
fn morphism<'c>(f: &Tree, c: &'c Carriers) -> Option<(&'c str, bool, &'static str, &'static str)> {
    let ty = c.name_type(&f.label).filter(|_| is_leaf(f) && literal(f).is_none())?;
    let &(_, groups, ker, unit) = KERNELS.iter().find(|(label, ..)| ty.label == *label)?;
    let domain = ty.children.first().filter(|d| is_leaf(d) && c.names_one_type(ty))?;
    let group = variable_type_of_class(&domain.label, groups, c);
    Some((domain.label.as_str(), group, ker, unit))
}

/// `MonoidHom.ker f = ⊥` or `AddMonoidHom.ker f = ⊥` (either side) as `Function.Injective f`,
/// for `f` bound at `G →* H` (`G →+ H`) with `G` a group.
fn ker_eq_bot_iff(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EQ, [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (ker, bot) = if is_leaf(b) { (a, b) } else { (b, a) };
    let c = ctx.carriers;
    let [f] = ker.children.as_slice() else {
        return None;
    };
    let (_, group, name, _) = morphism(f, c)?;
    let kind = ker.label.strip_suffix(" _ ")?;
    let mathlib = ![kind, "Function.Injective", "⊥"].iter().any(|n| c.binds(n));
    (group
        && kind == name
        && kind != "LinearMap.ker"
        && mathlib
        && bot.label == "⊥"
        && is_leaf(bot))
    .then(|| {
        let lemma = if name == "MonoidHom.ker" {
            "MonoidHom.ker_eq_bot_iff"
        } else {
            "AddMonoidHom.ker_eq_bot_iff"
        };
        (lemma, Tree::node("Function.Injective _ ", vec![f.clone()]))
    })
}

/// `LinearMap.ker f = ⊥` (either side) as `∀ m, f m = 0 → m = 0`, for `f` bound at `M →ₗ[R]
/// M₂`.
fn ker_eq_bot_forall(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EQ, [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (ker, bot) = if is_leaf(b) { (a, b) } else { (b, a) };
    let c = ctx.carriers;
    let ("LinearMap.ker _ ", [f]) = (ker.label.as_str(), ker.children.as_slice()) else {
        return None;
    };
    let (_, _, "LinearMap.ker", _) = morphism(f, c)? else {
        return None;
    };
    let mathlib = !["LinearMap.ker", "⊥", "0"].iter().any(|n| c.binds(n));
    if !mathlib || bot.label != "⊥" || !is_leaf(bot) {
        return None;
    }
    let m = || Tree::bound_variable(FRESH_BOUND);
    let applied = Tree::node(format!("{} _ ", f.label), vec![m()]);
    let body = node2(IMP, node2(EQ, applied, Tree::leaf("0")), node2(EQ, m(), Tree::leaf("0")));
    Some(("LinearMap.ker_eq_bot'", node2(FORALL, m(), body)))
}

/// `∀ a, f a = 1 → a = 1` (`0` for an additive or linear map) as `Function.Injective f`, for
/// `f` bound at a morphism type of [`KERNELS`] whose domain is a group. The bound name may be
/// typed only at the domain; either equation may be written either way round.
fn injective_of_trivial_kernel(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let GuardedForall { name: x, written, premise, rest: conclusion, .. } = guarded_forall(t)?;
    // `e = u` or `u = e`, for a leaf `u` and `e` of the shape asked for.
    let sides =
        |e: &Tree, other: &dyn Fn(&Tree) -> bool| match (e.label.as_str(), e.children.as_slice()) {
            (EQ, [l, r]) if is_leaf(r) && other(l) => Some((l.clone(), r.label.clone())),
            (EQ, [l, r]) if is_leaf(l) && other(r) => Some((r.clone(), l.label.clone())),
            _ => None,
        };
    let (applied, unit) = sides(premise, &|e| !is_leaf(e))?;
    let (point, unit2) = sides(conclusion, &|e| is_leaf(e) && e.label == x.label)?;
    let [arg] = applied.children.as_slice() else {
        return None;
    };
    let f_label = app_head(&applied)?;
    let f = Tree::leaf(f_label);
    let c = ctx.carriers;
    let (domain, group, _, kernel_unit) = morphism(&f, c)?;
    let at_domain = written.is_none_or(|ty| is_leaf(ty) && ty.label == domain);
    let same_point =
        is_leaf(arg) && arg.label == x.label && point.label == x.label && is_leaf(&point);
    let mathlib = !["Function.Injective", kernel_unit].iter().any(|n| c.binds(n));
    (group
        && at_domain
        && same_point
        && unit == kernel_unit
        && unit2 == kernel_unit
        && x.label != f.label
        && mathlib)
        .then(|| {
            let name =
                if unit == "1" { "injective_iff_map_eq_one" } else { "injective_iff_map_eq_zero" };
            (name, Tree::node("Function.Injective _ ", vec![f]))
        })
}

/// Is `x` a leaf of polynomial type: `Polynomial.X`, `Polynomial.C a`, or a name bound at
/// `Polynomial R`?
fn polynomial_leaf(x: &Tree, c: &Carriers) -> bool {
    x.label == "Polynomial.X"
        || (app_head(x) == Some("Polynomial.C") && !c.binds("Polynomial.C"))
        || (is_leaf(x) && c.name_type(&x.label).is_some_and(|ty| ty.label == "Polynomial _ "))
}

/// `C k` → `k` for a numeral `k`, the first such leaf of the arithmetic tree `t` that has
/// another leaf of polynomial type (see the rule).
fn polynomial_numeral(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    elab::same_tree_operands(t)?;
    let c = ctx.carriers;
    let mut leaves = Vec::new();
    elab::arithmetic_leaves(t, &mut leaves, 0);
    let numeral_c = |x: &Tree| {
        app_head(x) == Some("Polynomial.C")
            && !c.binds("Polynomial.C")
            && matches!(x.children.as_slice(), [k] if literal(k).is_some())
    };
    let k = leaves.iter().position(|x| numeral_c(x))?;
    if !leaves.iter().enumerate().any(|(j, x)| j != k && polynomial_leaf(x, c)) {
        return None;
    }
    let mut index = 0;
    Some(("Polynomial.C_ofNat (map_ofNat C)", replace_leaf(t, k, &mut index)))
}

/// `t` with its `k`-th arithmetic leaf (pre-order), `C n`, written `n`.
fn replace_leaf(t: &Tree, k: usize, index: &mut usize) -> Tree {
    let Some(operands) = elab::same_tree_operands(t) else {
        let here = *index == k;
        *index += 1;
        return if here { t.children[0].clone() } else { t.clone() };
    };
    let mut out = t.clone();
    for i in 0..operands.len() {
        out.children[i] = replace_leaf(&t.children[i], k, index);
    }
    out
}

/// `b • p` → `C b * p` for `b` bound at `R` and `p` bound at `Polynomial R`.
fn polynomial_smul(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (" _ • _ ", [b, p]) = (t.label.as_str(), t.children.as_slice()) else { return None };
    let c = ctx.carriers;
    if !is_leaf(b) || !is_leaf(p) || c.binds("Polynomial.C") {
        return None;
    }
    let (Some(scalar), Some(poly)) = (c.name_type(&b.label), c.name_type(&p.label)) else {
        return None;
    };
    if poly.label != "Polynomial _ " || poly.children.first() != Some(scalar) {
        return None;
    }
    let coefficient = Tree::node("Polynomial.C _ ", vec![b.clone()]);
    Some(("Polynomial.smul_eq_C_mul", node2(MUL, coefficient, p.clone())))
}

/// Types whose values form a complete lattice (each `CompleteLattice` in Mathlib: subgroups,
/// ideals and submodules, subrings, subfields, intermediate fields, subalgebras, submonoids, sets).
const SUBOBJECT_LATTICES: [&str; 11] = [
    "Subgroup _ ",
    "AddSubgroup _ ",
    "Ideal _ ",
    "Submodule _  _ ",
    "Subring _ ",
    "Subfield _ ",
    "IntermediateField _  _ ",
    "Subalgebra _  _ ",
    "Submonoid _ ",
    "AddSubmonoid _ ",
    "Set _ ",
];

/// `a ≤ b ⊓ c` → `a ≤ b ∧ a ≤ c` for `b`, `c` bound at one [`SUBOBJECT_LATTICES`] type.
fn le_inf_of_subobjects(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (" _ ≤ _ ", [a, inf]) = (t.label.as_str(), t.children.as_slice()) else { return None };
    let (" _ ⊓ _ ", [b, c]) = (inf.label.as_str(), inf.children.as_slice()) else { return None };
    let lattice = |x: &Tree| {
        is_leaf(x)
            .then(|| ctx.carriers.name_type(&x.label))
            .flatten()
            .filter(|ty| SUBOBJECT_LATTICES.contains(&ty.label.as_str()))
    };
    let (tb, tc) = (lattice(b)?, lattice(c)?);
    (tb == tc).then(|| {
        let le = |x: &Tree| node2(" _ ≤ _ ", a.clone(), x.clone());
        ("le_inf_iff", node2(" _ ∧ _ ", le(b), le(c)))
    })
}

/// `H < ⊤` → `H ≠ ⊤` for `H` bound at a [`SUBOBJECT_LATTICES`] type.
fn lt_top_of_subobject(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (" _ < _ ", [h, top]) = (t.label.as_str(), t.children.as_slice()) else { return None };
    if !is_leaf(h) || top.label != "⊤" || !top.children.is_empty() {
        return None;
    }
    let ty = ctx.carriers.name_type(&h.label)?;
    SUBOBJECT_LATTICES
        .contains(&ty.label.as_str())
        .then(|| ("lt_top_iff_ne_top", node2(" _ ≠ _ ", h.clone(), top.clone())))
}

/// `a % n = b` (either side first) → `n ∣ b - a`, on ℤ, for numerals `0 < b < n`: then `b % n =
/// b`, so this is `a ≡ b [ZMOD n]`'s definition read through `Int.modEq_iff_dvd`.
fn residue_as_dvd(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EQ, [l, r]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (modulo, b) = if l.label == " _ % _ " { (l, r) } else { (r, l) };
    let (" _ % _ ", [a, n]) = (modulo.label.as_str(), modulo.children.as_slice()) else {
        return None;
    };
    let (Some(bv), Some(nv)) = (literal(b), literal(n)) else {
        return None;
    };
    let integers = elab::carrier(&[a], ctx.carriers) == Some(elab::Num::Int);
    if !(integers && 0 < bv && bv < nv) {
        return None;
    }
    let difference = node2(" _ - _ ", b.clone(), a.clone());
    Some(("Int.modEq_iff_dvd", node2(" _ ∣ _ ", n.clone(), difference)))
}
