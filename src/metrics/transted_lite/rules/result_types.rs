//! The Mathlib functions whose result is a number of one type whatever their arguments
//! (`Subgroup.index`, `Real.sqrt`), and the number types themselves. A table only: it reads no
//! statement and imports no other rule module, so that the carriers, the commutativity gate
//! and elaboration-lite can all consult it.

/// The number systems the typed rules know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Num {
    Nat,
    Int,
    Rat,
    Real,
    Complex,
}

/// Mathlib functions (full names) and notations whose result is a number of a fixed type,
/// whatever their arguments.
pub(super) const RESULT_TYPES: [(&str, Num); 52] = [
    ("Real.exp", Num::Real),
    ("Real.log", Num::Real),
    ("Real.logb", Num::Real),
    ("Real.sqrt", Num::Real),
    ("√", Num::Real),
    ("Real.cos", Num::Real),
    ("Real.sin", Num::Real),
    ("Real.tan", Num::Real),
    ("Real.arctan", Num::Real),
    ("Real.arcsin", Num::Real),
    ("Real.arccos", Num::Real),
    ("Real.cosh", Num::Real),
    ("Real.sinh", Num::Real),
    ("Real.pi", Num::Real),
    // Mathlib/Analysis/SpecialFunctions/Pow/Real.lean (`noncomputable def rpow (x y : ℝ) : ℝ`).
    ("Real.rpow", Num::Real),
    ("Complex.exp", Num::Complex),
    ("Complex.I", Num::Complex),
    ("Complex.abs", Num::Real),
    ("Complex.re", Num::Real),
    ("Complex.im", Num::Real),
    ("Nat.factorial", Num::Nat),
    ("!", Num::Nat),
    ("Nat.choose", Num::Nat),
    ("Nat.gcd", Num::Nat),
    ("Nat.lcm", Num::Nat),
    ("Nat.sqrt", Num::Nat),
    ("Nat.totient", Num::Nat),
    ("Nat.fib", Num::Nat),
    ("Nat.succ", Num::Nat),
    ("Nat.pred", Num::Nat),
    ("Nat.log", Num::Nat),
    ("Nat.card", Num::Nat),
    ("Finset.card", Num::Nat),
    ("Fintype.card", Num::Nat),
    ("Int.natAbs", Num::Nat),
    ("Int.toNat", Num::Nat),
    ("Int.gcd", Num::Nat),
    ("Int.floor", Num::Int),
    ("Int.ceil", Num::Int),
    ("⌊ _ ⌋", Num::Int),
    ("⌈ _ ⌉", Num::Int),
    ("Int.sign", Num::Int),
    // Mathlib/LinearAlgebra/Dimension/Finrank.lean (`finrank (R M : Type*) … : ℕ`; the old
    // `FiniteDimensional.finrank` a deprecated alias of it).
    ("Module.finrank", Num::Nat),
    ("FiniteDimensional.finrank", Num::Nat),
    // Mathlib/Algebra/Polynomial/Degree/Defs.lean (`natDegree (p : R[X]) : ℕ`).
    ("Polynomial.natDegree", Num::Nat),
    // Mathlib/GroupTheory/OrderOfElement.lean (`orderOf (x : G) : ℕ`, `addOrderOf` its additive form).
    ("orderOf", Num::Nat),
    ("addOrderOf", Num::Nat),
    // Mathlib/GroupTheory/Index.lean (`index : ℕ := Nat.card (G ⧸ H)`, `AddSubgroup.index` by to_additive).
    ("Subgroup.index", Num::Nat),
    ("AddSubgroup.index", Num::Nat),
    // Mathlib/GroupTheory/Index.lean (`relindex : ℕ := (H.subgroupOf K).index`, renamed
    // `relIndex` later, the old name a deprecated alias).
    ("Subgroup.relindex", Num::Nat),
    ("Subgroup.relIndex", Num::Nat),
    // Lean core, src/Init/Prelude.lean (`List.length : List α → Nat`).
    ("List.length", Num::Nat),
];

/// Is `f` (a full name the statement does not bind) a Mathlib function whose result is a number
/// of one type whatever its arguments and the expected type ([`RESULT_TYPES`])?
pub fn fixed_result(f: &str) -> bool {
    known_result(f).is_some()
}

/// The number type of `name`'s result ([`RESULT_TYPES`]), if it is one of them.
pub(super) fn known_result(name: &str) -> Option<Num> {
    RESULT_TYPES.iter().find(|(f, _)| *f == name).map(|&(_, n)| n)
}
