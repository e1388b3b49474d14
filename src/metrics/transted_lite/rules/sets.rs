//! Sets family: membership in intervals, ranges and set-builder sets unfolded, nonemptiness,
//! cardinalities, and equations of tuples and functions taken componentwise/pointwise.
//! Declared as data (`declare`) for the matcher (`table`); owns nothing else.

use super::collections::{collection, Kind};
use super::declare::*;
use super::set_membership;
use super::shapes::{is_leaf, mentions, node2, EXPLICIT, FORALL, FRESH_BOUND, IMP, MEM};
use super::typed;
use crate::trees::Tree;

/// `Set.mem_X`/`Finset.mem_X` for one interval, written `Set.X` and `Finset.X` (a short `X` is
/// resolved under the header's `open`s before any rule reads it: left short, it is not Mathlib's
/// interval); each does not fire on membership in the interval `Y` with the other ends (`not
/// Y`), nor on a non-membership `∉`.
macro_rules! interval {
    ($set:literal, $fin:literal, $lemma:literal, $qualified:literal, $finset:literal => $rhs:literal;
     ex $qualified_ex:literal, $finset_ex:literal => $rhs_ex:literal;
     not $other_qualified:literal, $other_finset:literal; $not_qualified:literal, $not_finset:literal) => {
        [
            rw($set, $lemma, $qualified, $rhs)
                .when(&[element_fits(&[$qualified])])
                .ex(&[(concat!("(x l u : ℝ) : ", $qualified_ex), concat!("(x l u : ℝ) : ", $rhs_ex))])
                .non(&[
                    concat!("(x l u : ℝ) : ", $other_qualified),
                    concat!("(x l u : ℝ) : ", $not_qualified),
                    concat!("(x : ℕ) (l u : ℝ) : ", $qualified_ex),
                ]),
            rw($fin, $lemma, $finset, $rhs)
                .when(&[element_fits(&[$finset]), on(&["?x"], &DISCRETE)])
                .ex(&[(concat!("(x l u : ℕ) : ", $finset_ex), concat!("(x l u : ℕ) : ", $rhs_ex))])
                .non(&[
                    concat!("(x l u : ℕ) : ", $other_finset),
                    concat!("(x l u : ℕ) : ", $not_finset),
                    // `Finset.Icc` needs a `LocallyFiniteOrder`: ℕ has one
                    // (Mathlib/Order/Interval/Finset/Nat.lean), ℤ too
                    // (Mathlib/Data/Int/Interval.lean); ℝ has none, so this does not elaborate.
                    concat!("(x l u : ℝ) : ", $finset_ex),
                ]),
        ]
    };
}

const ICC: [Rule; 2] = interval!("Set.mem_Icc", "Finset.mem_Icc", "a ∈ Icc l u ↔ l ≤ a ∧ a ≤ u",
    "?x ∈ Set.Icc ?l ?u", "?x ∈ Finset.Icc ?l ?u" => "?l ≤ ?x ∧ ?x ≤ ?u";
    ex "x ∈ Set.Icc l u", "x ∈ Finset.Icc l u" => "l ≤ x ∧ x ≤ u";
    not "x ∈ Set.Ioo l u", "x ∈ Finset.Ioo l u"; "x ∉ Set.Icc l u", "x ∉ Finset.Icc l u");
const IOO: [Rule; 2] = interval!("Set.mem_Ioo", "Finset.mem_Ioo", "a ∈ Ioo l u ↔ l < a ∧ a < u",
    "?x ∈ Set.Ioo ?l ?u", "?x ∈ Finset.Ioo ?l ?u" => "?l < ?x ∧ ?x < ?u";
    ex "x ∈ Set.Ioo l u", "x ∈ Finset.Ioo l u" => "l < x ∧ x < u";
    not "x ∈ Set.Icc l u", "x ∈ Finset.Icc l u"; "x ∉ Set.Ioo l u", "x ∉ Finset.Ioo l u");
const ICO: [Rule; 2] = interval!("Set.mem_Ico", "Finset.mem_Ico", "a ∈ Ico l u ↔ l ≤ a ∧ a < u",
    "?x ∈ Set.Ico ?l ?u", "?x ∈ Finset.Ico ?l ?u" => "?l ≤ ?x ∧ ?x < ?u";
    ex "x ∈ Set.Ico l u", "x ∈ Finset.Ico l u" => "l ≤ x ∧ x < u";
    not "x ∈ Set.Ioc l u", "x ∈ Finset.Ioc l u"; "x ∉ Set.Ico l u", "x ∉ Finset.Ico l u");
const IOC: [Rule; 2] = interval!("Set.mem_Ioc", "Finset.mem_Ioc", "a ∈ Ioc l u ↔ l < a ∧ a ≤ u",
    "?x ∈ Set.Ioc ?l ?u", "?x ∈ Finset.Ioc ?l ?u" => "?l < ?x ∧ ?x ≤ ?u";
    ex "x ∈ Set.Ioc l u", "x ∈ Finset.Ioc l u" => "l < x ∧ x ≤ u";
    not "x ∈ Set.Ico l u", "x ∈ Finset.Ico l u"; "x ∉ Set.Ioc l u", "x ∉ Finset.Ioc l u");
const ICI: [Rule; 2] = interval!("Set.mem_Ici", "Finset.mem_Ici", "a ∈ Ici l ↔ l ≤ a",
    "?x ∈ Set.Ici ?l", "?x ∈ Finset.Ici ?l" => "?l ≤ ?x";
    ex "x ∈ Set.Ici l", "x ∈ Finset.Ici l" => "l ≤ x";
    not "x ∈ Set.Ioi l", "x ∈ Finset.Ioi l"; "x ∉ Set.Ici l", "x ∉ Finset.Ici l");
const IOI: [Rule; 2] = interval!("Set.mem_Ioi", "Finset.mem_Ioi", "a ∈ Ioi l ↔ l < a",
    "?x ∈ Set.Ioi ?l", "?x ∈ Finset.Ioi ?l" => "?l < ?x";
    ex "x ∈ Set.Ioi l", "x ∈ Finset.Ioi l" => "l < x";
    not "x ∈ Set.Ici l", "x ∈ Finset.Ici l"; "x ∉ Set.Ioi l", "x ∉ Finset.Ioi l");
const IIC: [Rule; 2] = interval!("Set.mem_Iic", "Finset.mem_Iic", "a ∈ Iic u ↔ a ≤ u",
    "?x ∈ Set.Iic ?u", "?x ∈ Finset.Iic ?u" => "?x ≤ ?u";
    ex "x ∈ Set.Iic u", "x ∈ Finset.Iic u" => "x ≤ u";
    not "x ∈ Set.Iio u", "x ∈ Finset.Iio u"; "x ∉ Set.Iic u", "x ∉ Finset.Iic u");
const IIO: [Rule; 2] = interval!("Set.mem_Iio", "Finset.mem_Iio", "a ∈ Iio u ↔ a < u",
    "?x ∈ Set.Iio ?u", "?x ∈ Finset.Iio ?u" => "?x < ?u";
    ex "x ∈ Set.Iio u", "x ∈ Finset.Iio u" => "x < u";
    not "x ∈ Set.Iic u", "x ∈ Finset.Iic u"; "x ∉ Set.Iio u", "x ∉ Finset.Iio u");

#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    // `Inter`/`Union` of `Set α` (Mathlib/Data/Set/Defs.lean) and of `Finset α` with
    // `DecidableEq α` (Mathlib/Data/Finset/Lattice/Basic.lean) are commutative; an `Inter` a
    // type variable is given need not be.
    mv("Set.inter_comm", "s ∩ t = t ∩ s (Set.inter_comm, Finset.inter_comm)", "?a ∩ ?b", "?b ∩ ?a").when(&[distinct(&["?a", "?b"]), same_collection(&["?a", "?b"])])
        .ex(&[("(s t : Set ℝ) : IsOpen (s ∩ t)", "(s t : Set ℝ) : IsOpen (t ∩ s)"), ("(s t : Finset ℕ) : (s ∩ t).card = 1", "(s t : Finset ℕ) : (t ∩ s).card = 1")])
        .non(&["{α : Type*} [Inter α] (s t : α) : s ∩ t = s", "(s : Set ℝ) (t : Set ℕ) : s ∩ t = s", "(s t : Finset ℂ) : (s ∩ t).card = 1", "(s : Set ℝ) : s ∩ s = s"]),
    mv("Set.union_comm", "s ∪ t = t ∪ s (Set.union_comm, Finset.union_comm)", "?a ∪ ?b", "?b ∪ ?a").when(&[distinct(&["?a", "?b"]), same_collection(&["?a", "?b"])])
        .ex(&[("(s t : Set ℝ) : IsOpen (s ∪ t)", "(s t : Set ℝ) : IsOpen (t ∪ s)")])
        .non(&["{α : Type*} [Union α] (s t : α) : s ∪ t = s", "(s : Set ℝ) (t : Set ℕ) : s ∪ t = s"]),
    // `Set.le_eq_subset : ((· ≤ ·) : Set α → Set α → Prop) = (· ⊆ ·)` (Mathlib/Data/Set/Basic.lean),
    // `Finset.le_iff_subset` (Mathlib/Data/Finset/Defs.lean); `<` likewise `⊂`.
    rw("Set.le_eq_subset", "s ≤ t ↔ s ⊆ t on sets and finsets", "?a ≤ ?b", "?a ⊆ ?b").when(&[same_collection(&["?a", "?b"])])
        .ex(&[("(s t : Set ℝ) : s ≤ t", "(s t : Set ℝ) : s ⊆ t"), ("(f : ℕ → ℝ) (s t : Set ℕ) : f '' s ≤ f '' t", "(f : ℕ → ℝ) (s t : Set ℕ) : f '' s ⊆ f '' t")])
        .non(&["(x y : ℝ) : x ≤ y", "{α : Type*} [LE α] (s t : α) : s ≤ t", "(s : Set ℝ) (t : Set ℕ) : s ≤ t", "(f : ℕ → ℝ) (s : Set ℕ) (t : Set ℝ) : f '' s ≤ f ⁻¹' t"]),
    rw("Set.lt_eq_ssubset", "s < t ↔ s ⊂ t on sets and finsets", "?a < ?b", "?a ⊂ ?b").when(&[same_collection(&["?a", "?b"])])
        .ex(&[("(s t : Set ℝ) : s < t", "(s t : Set ℝ) : s ⊂ t")])
        .non(&["(x y : ℝ) : x < y", "(s : Set ℝ) (t : Set ℕ) : s < t"]),
    rw("Set.nonempty_iff_ne_empty", "s.Nonempty ↔ s ≠ ∅", "Set.Nonempty ?s", "?s ≠ ∅")
        .ex(&[("(s : Set ℝ) : Set.Nonempty s", "(s : Set ℝ) : s ≠ ∅")])
        .non(&["(α : Type) : Nonempty α", "(s : Set ℝ) : s = ∅"]),
    rw("Finset.nonempty_iff_ne_empty", "s.Nonempty ↔ s ≠ ∅ (Finset)", "Finset.Nonempty ?s", "?s ≠ ∅")
        .ex(&[("(s : Finset ℕ) : Finset.Nonempty s", "(s : Finset ℕ) : s ≠ ∅")])
        .non(&["(s : Finset ℕ) : s = ∅"]),
    ICC[0],
    ICC[1],
    IOO[0],
    IOO[1],
    ICO[0],
    ICO[1],
    IOC[0],
    IOC[1],
    ICI[0],
    ICI[1],
    IOI[0],
    IOI[1],
    IIC[0],
    IIC[1],
    IIO[0],
    IIO[1],
    code("Set.compl_eq_univ_diff", "sᶜ = univ \\ s (Mathlib/Data/Set/Basic.lean), for s written `Set α`", compl_of_univ_diff)
        .ex(&[("(U : Set ℝ) : IsClosed (Set.univ \\ U)", "(U : Set ℝ) : IsClosed Uᶜ")])
        // A `Finset` or a predicate is coerced to a set by `\`: its `ᶜ` is another thing.
        .non(&["(U V : Set ℝ) : IsClosed (V \\ U)", "(U : Finset ℕ) : Set.univ \\ U = ∅", "(U : ℕ → Prop) : Set.univ \\ U = ∅"]),
    // `Finset.range n : Finset ℕ` (Mathlib/Data/Finset/Range.lean): its elements are naturals;
    // an element of another type (`x : Fin 5`) makes `x < n` another relation.
    rw("Finset.mem_range", "m ∈ Finset.range n ↔ m < n", "?m ∈ Finset.range ?n", "?m < ?n").when(&[natural_element(&["?m"])])
        .ex(&[("(m n : ℕ) : m ∈ Finset.range n", "(m n : ℕ) : m < n")])
        // Unqualified `range` may be `Set.range f`, the image of a function; an element of `Fin 5`.
        .non(&["(m n : ℕ) : m ∈ range n", "(x : Fin 5) : x ∈ Finset.range 5"]),
    // `∈` into `∩ ∪ \ ᶜ` and literals: only where the set's type and the element's are known
    // to be `Set T`/`Finset T` and `T`, and no binder gives an instance of the classes behind
    // the notations (`set_membership`).
    // Mathlib/Order/Interval/Finset/Nat.lean: `Nat.Ico_zero_eq_range : Ico 0 = range`.
    code("Nat.Ico_zero_eq_range", "Finset.Ico 0 n = Finset.range n, for an end of written type ℕ, as the collection of `∈` or a binder's domain", ico_zero_of_nat)
        .ex(&[("(n : ℕ) : ∑ i ∈ Finset.Ico 0 n, i = n", "(n : ℕ) : ∑ i ∈ Finset.range n, i = n"), ("(n k : ℕ) : k ∈ Finset.Ico 0 n", "(n k : ℕ) : k ∈ Finset.range n")])
        // An end of another type (integers, reals: no `range`); a numeral end alone (the
        // elements' type is the uses' to decide); a lower end other than 0; `Set.Ico`; an
        // expected type that makes it an interval of integers (`n` cast).
        .non(&["(n : ℤ) : ∑ i ∈ Finset.Ico 0 n, i = n", "(n : ℕ) : ∑ i ∈ Finset.Ico 1 n, i = n", ": ∑ i ∈ Finset.Ico 0 5, (i : ℤ) = 10",
               "(n : ℕ) : Set.Ico 0 n = ∅", "(n : ℕ) (Finset : ℕ) : Finset = n",
               "(n : ℕ) : ∑ i ∈ (Finset.Ico 0 n : Finset ℤ), (i - 1) = 0", "(n : ℕ) (g : Finset ℤ → ℤ) : g (Finset.Ico 0 n) = 0",
               // An end of a wrapping type (`Fin 5`: no `range` there).
               "(n : Fin 5) : ∑ i ∈ Finset.Ico 0 n, i = n"]),
    code("Set.ext_iff", "s = t ↔ ∀ x, x ∈ s ↔ x ∈ t (Mathlib/Data/Set/Defs.lean), for identities of ∩ ∪ \\ ᶜ between sets of one known type", set_membership::ext)
        .ex(&[("{α : Type*} (A B : Set α) : (A ∪ B)ᶜ = Aᶜ ∩ Bᶜ", "{α : Type*} (A B : Set α) : ∀ x✝ : α, x✝ ∈ (A ∪ B)ᶜ ↔ x✝ ∈ Aᶜ ∩ Bᶜ"),
              // A solution set: the literal takes the set-builder's type.
              (": {x : ℝ | x ^ 2 = 4} = {2, -2}", ": ∀ x✝ : ℝ, x✝ ∈ {x : ℝ | x ^ 2 = 4} ↔ x✝ ∈ ({2, -2} : Set ℝ)"),
              (": Set.Icc (0 : ℝ) 1 = {x : ℝ | x ^ 2 ≤ x}", ": ∀ x✝ : ℝ, x✝ ∈ Set.Icc (0 : ℝ) 1 ↔ x✝ ∈ {x : ℝ | x ^ 2 ≤ x}")])
        // A side that is a name or `∅` (their own lemmas), finsets, sets of two types, a local
        // instance behind `∩`; a literal with nothing to give it a type; an untyped set-builder.
        .non(&["{α : Type*} (A B C : Set α) : A ∩ B = C",
               "(S : Set ℝ) : S = {x : ℝ | 0 < x}",
               ": ({1, 2} : Set ℕ) = {2, 1}",
               ": {x | x ^ 2 = 4} = ({2} : Set ℕ)",
               ": {x : ℝ | x ^ 2 = 4} = ({2, -2} : Finset ℝ)",
               "[Insert ℝ (Set ℝ)] : {x : ℝ | x ^ 2 = 4} = {2, -2}",
               "{α : Type*} (A B : Set α) : A ∩ B = ∅",
               "(A B : Finset ℕ) : (A ∪ B) \\ A = B \\ A",
               "(A : Set ℕ) (B : Set ℤ) : A ∩ A = B ∩ B",
               "{α : Type*} (A B : Set α) [Inter (Set α)] : A ∩ B = B ∩ A"]),
    code("Set.mem_inter_iff", "a ∈ s ∩ t ↔ a ∈ s ∧ a ∈ t (Set, Finset)", set_membership::inter)
        .keeps_decisions()
        .ex(&[("(s t : Set ℕ) (x : ℕ) : x ∈ s ∩ t", "(s t : Set ℕ) (x : ℕ) : x ∈ s ∧ x ∈ t"), ("(s t : Finset ℤ) : (3 : ℤ) ∈ s ∩ t", "(s t : Finset ℤ) : (3 : ℤ) ∈ s ∧ (3 : ℤ) ∈ t"),
              // A bound function applied to all its arguments is a set of its codomain's type.
              ("(f : ℕ → Set ℝ) (n : ℕ) (x : ℝ) : x ∈ f n ∩ f (n + 1)", "(f : ℕ → Set ℝ) (n : ℕ) (x : ℝ) : x ∈ f n ∧ x ∈ f (n + 1)")])
        // A local instance behind `∩` or `∈`; two set types; an element of another type
        // (coerced, or not elaborating); a set rebound without a type; a type variable's `∩`.
        .non(&["(s t : Set ℕ) (x : ℕ) [Inter (Set ℕ)] : x ∈ s ∩ t", "(s t : Set ℕ) (x : ℕ) (m : Membership ℕ (Set ℕ)) : x ∈ s ∩ t", "(s : Set ℕ) (t : Finset ℕ) (x : ℕ) : x ∈ s ∩ t", "(s t : Set ℤ) (x : ℕ) : x ∈ s ∩ t", "(s t : Set ℕ) (x : ℕ) : ∀ s, x ∈ s ∩ t", "{S : Type} [Inter S] [Membership ℕ S] (s t : S) (x : ℕ) : x ∈ s ∩ t",
               // A `Finset` of a type that may lack `DecidableEq` (no `∩` there).
               "{α : Type} (s t : Finset α) (x : α) : x ∈ s ∩ t",
               // A function applied to fewer arguments than give a set; two element types.
               "(f : ℕ → ℕ → Set ℝ) (n : ℕ) (x : ℝ) (s : Set ℝ) : x ∈ s ∩ f n", "(f : ℕ → Set ℤ) (g : ℕ → Set ℝ) (n : ℕ) (x : ℝ) : x ∈ g n ∩ f n"]),
    code("Set.mem_union", "a ∈ s ∪ t ↔ a ∈ s ∨ a ∈ t (Set, Finset)", set_membership::union)
        .keeps_decisions()
        .ex(&[("(s t : Set ℝ) (x : ℝ) : x ∈ s ∪ t", "(s t : Set ℝ) (x : ℝ) : x ∈ s ∨ x ∈ t")])
        .non(&["(s t : Set ℝ) (x : ℝ) [Union (Set ℝ)] : x ∈ s ∪ t", "(s t : Set ℝ) (x : ℕ) : x ∈ s ∪ t", "(s : Set ℝ) (t : Set ℕ) (x : ℝ) : x ∈ s ∪ t"]),
    code("Set.mem_diff", "a ∈ s \\ t ↔ a ∈ s ∧ a ∉ t (Set, Finset)", set_membership::diff)
        .keeps_decisions()
        .ex(&[("(s t : Set ℝ) (x : ℝ) : x ∈ s \\ t", "(s t : Set ℝ) (x : ℝ) : x ∈ s ∧ ¬ x ∈ t")])
        .non(&["(s t : Set ℝ) (x : ℝ) [SDiff (Set ℝ)] : x ∈ s \\ t", "(s t : ℕ) (x : ℕ) : x ∈ s \\ t"]),
    code("Set.mem_compl_iff", "a ∈ sᶜ ↔ a ∉ s (Set, Finset)", set_membership::compl)
        .keeps_decisions()
        .ex(&[("(s : Set ℝ) (x : ℝ) : x ∈ sᶜ", "(s : Set ℝ) (x : ℝ) : ¬ x ∈ s")])
        // A `Finset`'s `ᶜ` needs a `Fintype` of its elements.
        .non(&["(s : Set ℝ) (x : ℝ) [BooleanAlgebra (Set ℝ)] : x ∈ sᶜ", "(s : Set ℕ) (x : ℤ) : x ∈ sᶜ", "(s : Finset ℕ) (x : ℕ) : x ∈ sᶜ"]),
    code("Set.mem_insert_iff", "a ∈ {b, c} ↔ a = b ∨ a = c (Set.mem_singleton_iff, Finset.mem_insert, Finset.mem_singleton)", set_membership::literal)
        .keeps_decisions()
        .ex(&[("(x : ℕ) : x ∈ ({1, 5} : Set ℕ)", "(x : ℕ) : x = 1 ∨ x = 5"), ("(x : ℤ) : x ∈ ({2} : Finset ℤ)", "(x : ℤ) : x = 2"), ("(x a b : ℝ) : x ∈ ({a, b, 0} : Set ℝ)", "(x a b : ℝ) : x = a ∨ x = b ∨ x = 0")])
        // No ascription (the literal's type is not known here); an element of another type
        // than the set's; a local `Insert`; a multiset (not read).
        .non(&["(x : ℕ) : x ∈ {1, 5}", "(x : ℝ) (a : ℤ) : (x : ℤ) ∈ ({a, 5} : Set ℤ)", "(x : ℕ) (a : ℤ) : x ∈ ({a, 5} : Set ℕ)", "(x : ℕ) [Insert ℕ (Set ℕ)] : x ∈ ({1, 5} : Set ℕ)", "(x : ℕ) : x ∈ ({1, 5} : Multiset ℕ)",
               // An element of numerals only: `1 - 2 = 0` alone is read at ℕ, not at ℤ.
               ": (1 - 2) ∈ ({0} : Set ℤ)"]),
    code("Set.top_eq_univ", "(⊤ : Set α) = Set.univ (Mathlib/Order/SetNotation.lean), beside a set of known type", set_membership::top_as_univ)
        .ex(&[("(s : Set ℝ) : s = ⊤", "(s : Set ℝ) : s = Set.univ"), ("(s : Set ℕ) : ⊤ ≠ s", "(s : Set ℕ) : Set.univ ≠ s")])
        // A subgroup's `⊤` (a `Subgroup`, not a set); a finset (no `⊤` without a `Fintype`);
        // a local `Top`.
        .non(&["{G : Type*} [Group G] (H : Subgroup G) : H = ⊤", "(s : Finset ℕ) : s = ⊤", "(s : Set ℝ) [Top (Set ℝ)] : s = ⊤"]),
    code("Set.Elem (coercion)", "a set where a type is expected is its coercion ↥s (Set.Elem, Mathlib/Data/Set/Defs.lean), for Infinite, Finite, Countable of a set of known type", set_membership::coe_written)
        .ex(&[("(s : Set ℕ) : Infinite s", "(s : Set ℕ) : Infinite ↥s")])
        // A type; already the coercion; a finset; a set name rebound as a type.
        .non(&["(α : Type) : Infinite α", "(s : Set ℕ) : Infinite ↥s", "(s : Finset ℕ) : Finite s", "(s : Set ℕ) : ∃ s : Type, Infinite s"]),
    code("Set.mem_setOf_eq", "a ∈ {x | p x} = p a (no capture)", |t, ctx| typed::membership_set_of(t, ctx.carriers))
        .ex(&[("(a : ℕ) : a ∈ {x : ℕ | x < 3}", "(a : ℕ) : a < 3"),
              // A numeral is read at ℕ where it lands.
              (": 7 ∈ {n : ℕ | 0 < n ∧ n ∣ 14}", ": 0 < 7 ∧ 7 ∣ 14"),
              (": 4 ∈ {y : ℝ | ∃ x : ℝ, y = x + 1}", ": ∃ x : ℝ, 4 = x + 1"),
              // An untyped binder its uses decide (`f x`: ℕ), or that only numerals meet.
              ("(f : ℕ → ℕ) : 3 ∈ {x | f x = 0}", "(f : ℕ → ℕ) : f 3 = 0"),
              (": 2 - 3 ∈ {x | 0 < x}", ": 0 < 2 - 3")])
        // A numeral put where nothing makes it an integer (`3 - 5 < 0` is read in ℕ), or under
        // a type variable it could be read at.
        .non(&["(x : ℕ) : x + 1 ∈ {y : ℕ | ∃ x, y = x}",
               // An untyped binder that a later use types (ℤ, ℝ): `2 - 3` put in is `-1`, `1 / 2`
               // is a half, where alone they would be read in ℕ; a natural put in is cast.
               ": 2 - 3 ∈ {x | 0 < x ∧ x < (3 : ℤ)}",
               "(S : Set ℤ) : 2 - 3 ∈ {x | x ∈ S ∧ 0 < x}",
               "(p : ℤ → Prop) : 2 - 3 ∈ {x | 0 < x ∧ p x}",
               ": 1 / 4 ∈ {x | 0 < x ∧ Real.sqrt x = 1 / 2}",
               "(n : ℕ) : n ∈ {x | x - 1 < 0 ∧ x < (3 : ℤ)}",
               ": 3 ∈ {y : ℤ | y - 5 < 0}",
               ": 3 ∈ {y : ℝ | Real.sqrt y = 2}",
               // Beside a `Fin 5` or `ℕ+` operand the set casts that one up to ℕ, while the
               // numeral put in is read at `Fin 5` (`7 = 2`) or `ℕ+`.
               "(y : Fin 5) : 7 ∈ {x : ℕ | x ≠ y}",
               "(y : ℕ+) : 1 ∈ {x : ℕ | x - 2 = y - 1}",
               "(f : ℕ → Fin 5) : 7 ∈ {x : ℕ | x ≠ f 0}",
               // `g` bound again inside is another function than the theorem's.
               "(g : ℕ → ℕ) : 7 ∈ {x : ℕ | ∃ g : ℤ → ℕ, g x = 0}",
               "{G : Type*} [AddGroup G] [NatCast G] (g : G) : 7 ∈ {n : ℕ | (n : G) = g}"]),
    // The same lemma where the point is a binder the membership types: `∀ x, x ∈ {y : T | p y}
    // → q` elaborates `x` at `T` (untyped, or typed `T`).
    code("Set.mem_setOf_eq", "∀ x, x ∈ {y : T | p y} → q ↔ ∀ x : T, p x → q (no capture)", |t, ctx| typed::bound_point_set_of(t, ctx.carriers))
        .ex(&[(": ∀ m, m ∈ {n : ℕ | 0 < n} → 7 ≤ m", ": ∀ m : ℕ, 0 < m → 7 ≤ m")])
        // A binder of another type (coerced into the set), an untyped set-builder, `∉`.
        .non(&[": ∀ m : ℕ, m ∈ {n : ℤ | 0 < n} → 7 ≤ m", ": ∀ m, m ∈ {n | 0 < n} → 7 ≤ m", ": ∀ m, m ∉ {n : ℕ | 0 < n} → 7 ≤ m"]),
    code("Prod.mk.injEq", "((a, b) = (c, d)) = (a = c ∧ b = d)", |t, _| typed::tuple_rule(t))
        .ex(&[("(a b : ℝ) : (a, b) = (1, 2)", "(a b : ℝ) : a = 1 ∧ b = 2")])
        .non(&["(a b : ℝ) : (a, b, 1) = (1, 2)"]),
    code("funext_iff", "f = g ↔ ∀ x, f x = g x (then β-reduction of fun)", typed::funext_rule)
        .ex(&[("(f : ℝ → ℝ) : f = fun x => x + 1", "(f : ℝ → ℝ) : ∀ x, f x = x + 1"), ("(f : ℝ → ℝ) : deriv f = 0", "(f : ℝ → ℝ) : ∀ x✝, deriv f x✝ = 0"), ("(f : ℝ → ℝ) (g : ℝ → ℝ) : g ∘ f = id", "(f : ℝ → ℝ) (g : ℝ → ℝ) : ∀ x✝, (g ∘ f) x✝ = x✝")])
        // `x` is a number; `deriv (f x)` is not the derivative of a named function.
        .non(&["(x y : ℝ) : x = y", "(x : ℝ) : x = 0", "(f : ℝ → ℝ → ℝ) (x : ℝ) : deriv (f x) = 0", "(x : ℝ) : x = id"]),
    // "On the whole space" is the global property (each lemma is `@[simp]`, no class beyond
    // what states both sides).
    rw("continuousOn_univ", "ContinuousOn f univ ↔ Continuous f (Mathlib/Topology/ContinuousOn.lean)", "ContinuousOn ?f Set.univ", "Continuous ?f")
        .ex(&[("(f : ℝ → ℝ) : ContinuousOn f Set.univ", "(f : ℝ → ℝ) : Continuous f")])
        .non(&["(f : ℝ → ℝ) (s : Set ℝ) : ContinuousOn f s", "(f : ℝ → ℝ) : ContinuousOn f (Set.Icc 0 1)"]),
    rw("differentiableOn_univ", "DifferentiableOn 𝕜 f univ ↔ Differentiable 𝕜 f (Mathlib/Analysis/Calculus/FDeriv/Basic.lean)", "DifferentiableOn ?k ?f Set.univ", "Differentiable ?k ?f")
        .ex(&[("(f : ℝ → ℝ) : DifferentiableOn ℝ f Set.univ", "(f : ℝ → ℝ) : Differentiable ℝ f")])
        .non(&["(f : ℝ → ℝ) (s : Set ℝ) : DifferentiableOn ℝ f s"]),
    rw("monotoneOn_univ", "MonotoneOn f univ ↔ Monotone f (Mathlib/Order/Monotone/Basic.lean)", "MonotoneOn ?f Set.univ", "Monotone ?f")
        .ex(&[("(f : ℝ → ℝ) : MonotoneOn f Set.univ", "(f : ℝ → ℝ) : Monotone f")])
        .non(&["(f : ℝ → ℝ) : MonotoneOn f (Set.Ici 0)", "(f : ℝ → ℝ) : AntitoneOn f Set.univ"]),
    rw("antitoneOn_univ", "AntitoneOn f univ ↔ Antitone f (Mathlib/Order/Monotone/Basic.lean)", "AntitoneOn ?f Set.univ", "Antitone ?f")
        .ex(&[("(f : ℝ → ℝ) : AntitoneOn f Set.univ", "(f : ℝ → ℝ) : Antitone f")])
        .non(&["(f : ℝ → ℝ) : AntitoneOn f (Set.Ici 0)"]),
    rw("strictMonoOn_univ", "StrictMonoOn f univ ↔ StrictMono f (Mathlib/Order/Monotone/Basic.lean)", "StrictMonoOn ?f Set.univ", "StrictMono ?f")
        .ex(&[("(f : ℝ → ℝ) : StrictMonoOn f Set.univ", "(f : ℝ → ℝ) : StrictMono f")])
        .non(&["(f : ℝ → ℝ) : StrictMonoOn f (Set.Ici 0)", "(f : ℝ → ℝ) : MonotoneOn f Set.univ"]),
    rw("strictAntiOn_univ", "StrictAntiOn f univ ↔ StrictAnti f (Mathlib/Order/Monotone/Basic.lean)", "StrictAntiOn ?f Set.univ", "StrictAnti ?f")
        .ex(&[("(f : ℝ → ℝ) : StrictAntiOn f Set.univ", "(f : ℝ → ℝ) : StrictAnti f")])
        .non(&["(f : ℝ → ℝ) : StrictAntiOn f (Set.Ici 0)"]),
    rw("Set.injOn_univ", "InjOn f univ ↔ Injective f (Mathlib/Data/Set/Function.lean)", "Set.InjOn ?f Set.univ", "Function.Injective ?f")
        .ex(&[("(f : ℝ → ℝ) : Set.InjOn f Set.univ", "(f : ℝ → ℝ) : Function.Injective f")])
        .non(&["(f : ℝ → ℝ) (s : Set ℝ) : Set.InjOn f s", "(f : ℝ → ℝ) : Set.SurjOn f Set.univ Set.univ"]),
    rw("Set.image_univ", "f '' univ = range f (Mathlib/Data/Set/Image.lean)", "?f '' Set.univ", "Set.range ?f")
        .ex(&[("(f : ℝ → ℝ) : f '' Set.univ = {0}", "(f : ℝ → ℝ) : Set.range f = {0}")])
        .non(&["(f : ℝ → ℝ) (s : Set ℝ) : f '' s = {0}", "(f : ℝ → ℝ) : f ⁻¹' Set.univ = Set.univ"]),
    code("Set.subset_def / Finset.subset_iff", "s ⊆ t ↔ ∀ ⦃x⦄, x ∈ s → x ∈ t, for sets and finsets (the definition of ⊆ there)", subset_unfolded)
        .ex(&[("(s t : Set ℕ) : s ⊆ t", "(s t : Set ℕ) : ∀ x✝ : ℕ, x✝ ∈ s → x✝ ∈ t"), ("(s t : Finset ℕ) : s ⊆ t", "(s t : Finset ℕ) : ∀ x✝ : ℕ, x✝ ∈ s → x✝ ∈ t")])
        .non(&["(H K : Subgroup G) : H ≤ K", "(a b : α) : a ⊆ b", "(s t : Set ℕ) : s ⊂ t", // Two element types: it does not elaborate.
               "(s : Set ℕ) (t : Set ℝ) : s ⊆ t",
               // A local `⊆`; a set rebound without a type (of another type, then).
               "(s t : Set ℕ) [HasSubset (Set ℕ)] : s ⊆ t", "(s : Set ℕ) : ∀ s t, s ⊆ t"]),
    // Mathlib/SetTheory/Cardinal/Finite.lean: `Nat.card_eq_fintype_card [Fintype α] : Nat.card α
    // = Fintype.card α`. Without the instance `Fintype.card α` does not elaborate (`[Finite α]`
    // gives none: `Fintype.ofFinite` is a def), and `Nat.card α` does.
    code("Nat.card_eq_fintype_card", "Nat.card α = Fintype.card α for [Fintype α] (Mathlib/SetTheory/Cardinal/Finite.lean), α a type with such a binder or Fin n", fintype_card_as_nat_card)
        .ex(&[("(G : Type*) [Fintype G] : Fintype.card G = 4", "(G : Type*) [Fintype G] : Nat.card G = 4"), ("(n : ℕ) : Fintype.card (Fin n) = n", "(n : ℕ) : Nat.card (Fin n) = n")])
        // Already `Nat.card`, a finset, no instance, a set; the instance after a use of the
        // type, and an inner binder of the same name the instance is not about.
        .non(&["(G : Type*) [Fintype G] : Nat.card G = 4", "(s : Finset ℕ) : Finset.card s = 4", "(α : Type) [Finite α] : Fintype.card α = 3", "(s : Set ℕ) : Fintype.card s = 3", "(α : Type) (h : Fintype.card α = 3) [Fintype α] : True", "(α : Type) [Fintype α] : ∀ α : Type, Fintype.card α = 3"]),
    // Mathlib/Data/Set/Insert.lean `Set.insert_comm (a b : α) (s : Set α) : insert a (insert b
    // s) = insert b (insert a s)` (so `Set.pair_comm`), Mathlib/Data/Finset/Insert.lean
    // `Finset.insert_comm`: a set literal `{a, b, …}` lists its elements in any order.
    code("Set.insert_comm / Finset.insert_comm", "{a, b, …} lists a set's or finset's elements in any order (Mathlib/Data/Set/Insert.lean, Data/Finset/Insert.lean), the literal's type read from the other side of `=` or `≠`", literal_in_order)
        .ex(&[(": {x : ℝ | x ^ 2 = 4} = {2, -2}", ": {x : ℝ | x ^ 2 = 4} = {-2, 2}"),
              ("(s : Finset ℕ) : s ≠ {3, 1, 2}", "(s : Finset ℕ) : s ≠ {1, 2, 3}")])
        // A list (`insert` keeps the order), a literal of unknown type, two literals, a local
        // `Insert`.
        .non(&["(l : List ℕ) : l = {3, 1}", "(s : α) : s = {3, 1}", ": {3, 1} = {1, 3}",
               "(s : Set ℕ) [Insert ℕ (Set ℕ)] : s = {3, 1}"]),
];

/// `{a, b, …}` with its elements sorted (by their text), at `s = {…}` or `s ≠ {…}` where `s` is
/// a set-builder set or of a known `Set`/`Finset` type, which the literal is elaborated at.
fn literal_in_order(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (" _ = _ " | " _ ≠ _ ", [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let c = ctx.carriers;
    let is_literal = |x: &Tree| {
        x.children.len() >= 2
            && x.label == format!("{{{}}}", vec![" _ "; x.children.len()].join(","))
    };
    let typed = |x: &Tree| x.label == "{ _ | _ }" || collection(x, c).is_some();
    let i = match (is_literal(a), is_literal(b)) {
        (false, true) if typed(a) => 1,
        (true, false) if typed(b) => 0,
        _ => return None,
    };
    if c.binds_set_class() {
        return None;
    }
    let literal = &t.children[i];
    let mut elements = literal.children.clone();
    elements.sort_by_cached_key(super::render::render_exact);
    if elements == literal.children {
        return None;
    }
    let mut out = t.clone();
    out.children[i] = Tree::node(literal.label.clone(), elements);
    let rule = if collection(&t.children[1 - i], c).is_some_and(|s| matches!(s.kind, Kind::Finset))
    {
        "Finset.insert_comm"
    } else {
        "Set.insert_comm"
    };
    Some((rule, out))
}

/// `Set.subset_def`/`Finset.subset_iff`: `s ⊆ t` is `∀ x, x ∈ s → x ∈ t` when an operand is a
/// name bound as a `Set`/`Finset` (the strict-implicit `⦃x⦄` of the definition binds as `∀ x`
/// does in a proposition). Elsewhere `⊆` may be another order's (`HasSubset` on any type), so
/// it stays. Operands naming the new bound name would be captured: they stay too.
fn subset_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (" _ ⊆ _ ", [s, u]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let c = ctx.carriers;
    if c.binds_set_class() {
        return None;
    }
    // Two known element types must agree: `Set ℕ ⊆ Set ℝ` does not elaborate (no coercion
    // between the set types), so it is no membership of casts.
    let (s_type, u_type) = (collection(s, c), collection(u, c));
    let element = match (&s_type, &u_type) {
        (Some(a), Some(b)) if a.element != b.element => return None,
        (a, b) => a.as_ref().or(b.as_ref())?.element.clone(),
    };
    if mentions(s, FRESH_BOUND) || mentions(u, FRESH_BOUND) {
        return None;
    }
    let x = Tree::bound_variable(FRESH_BOUND);
    let member = |set: &Tree| node2(MEM, x.clone(), set.clone());
    let body = node2(IMP, member(s), member(u));
    // The bound name's type is the collection's element type (`⦃a : α⦄` in the definition), so
    // that the rules on `x ∈ Finset.range n` read it.
    let x = node2(EXPLICIT, x, element);
    let finset = [s_type, u_type].iter().flatten().any(|t| t.kind == Kind::Finset);
    let lemma = if finset { "Finset.subset_iff" } else { "Set.subset_def" };
    Some((lemma, node2(FORALL, x.clone(), body)))
}

/// `Set.univ \ s` as `sᶜ` (`Set.compl_eq_univ_diff`), for a name `s` written `Set α`.
fn compl_of_univ_diff(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (" _ \\ _ ", [univ, s]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let written_set =
        is_leaf(s) && ctx.carriers.name_type(&s.label).is_some_and(|ty| ty.label == "Set _ ");
    (univ.label == "Set.univ" && is_leaf(univ) && written_set)
        .then(|| ("Set.compl_eq_univ_diff", Tree::node("ᶜ", vec![s.clone()])))
}

/// `Nat.card_eq_fintype_card` read right to left, where the `Fintype` instance is known: a type
/// variable with a `[Fintype α]` binder in scope at every use (`Carriers::fintype_in_scope`), or `Fin n` (`Fin.fintype`, Mathlib/Data/Fintype/Basic.lean).
fn fintype_card_as_nat_card(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Fintype.card _ ", [ty]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let known = if is_leaf(ty) {
        ctx.carriers.fintype_in_scope(&ty.label)
    } else {
        ty.label == "Fin _ " && !ctx.carriers.binds("Fin")
    };
    known.then(|| ("Nat.card_eq_fintype_card", Tree::node("Nat.card _ ", vec![ty.clone()])))
}

/// `Finset.Ico 0 n` as `Finset.range n`, as the collection of `x ∈ s` / `x ∉ s` or the domain of
/// a binder (`∑ i ∈ s`, `∀ x ∈ s`), where `interval_element` reads the ends as naturals (`n` of
/// written type ℕ). There the interval is elaborated with no expected type (`Membership.mem s
/// x` elaborates `s` first; `Finset.sum s f` fixes `β`, not `s`'s `α`); elsewhere an expected
/// type (`(Finset.Ico 0 n : Finset ℤ)`, an argument `Finset ℤ`) makes it an interval of
/// integers, `n` cast, and elsewhere still its numerals' type is left to its elements' uses.
fn ico_zero_of_nat(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let slot = match (t.label.as_str(), t.children.len()) {
        ("∈ _ ", 1) => 0,
        (MEM | " _ ∉ _ ", 2) => 1,
        _ => return None,
    };
    let ico = &t.children[slot];
    let ("Finset.Ico _  _ ", [zero, n]) = (ico.label.as_str(), ico.children.as_slice()) else {
        return None;
    };
    let natural = super::carriers::interval_element(ico, ctx.carriers)?;
    if !(is_leaf(zero) && zero.label == "0" && is_leaf(&natural) && natural.label == "ℕ") {
        return None;
    }
    let mut out = t.clone();
    out.children[slot] = Tree::node("Finset.range _ ", vec![n.clone()]);
    Some(("Nat.Ico_zero_eq_range", out))
}
