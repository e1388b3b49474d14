//! The declaration format of `transted-lite`'s rules: what a family table entry says.
//!
//! Owns [`Rule`] (a name, the lemma as Lean text, what the rule does, typed side conditions, a
//! direction, examples and non-examples), [`Action`] (a pattern and replacement with
//! metavariables `?a`, or a procedure, by the place it runs), [`Cond`] (a side condition: one
//! [`Check`] over terms) and the constructors the tables are written with. It imports no family
//! and no procedure: the families import it, and the matcher (`table`) reads what they declare.
//!
//! Adding a kind of side condition is one [`Check`] variant here and its test in `table`'s
//! `holds`; the metavariables its terms name are checked against the pattern when the table is
//! compiled.

use super::carriers::Carriers;
use super::commutativity::Commutativity;
use super::elab::Num;
use super::rewrite::Rewrite;
use crate::metrics::transted_lite::clock::Clock;
use crate::trees::Tree;

/// Canonical rules are applied eagerly, in their one direction; moves are tried by the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Canonical,
    Move,
}

/// A canonical procedure at one node: the lemma it used (one procedure may stand for a ℕ and a
/// ℤ version) and the new subterm.
pub type NodeCode = fn(&Tree, &Ctx) -> Option<(&'static str, Tree)>;
/// Moves found by a procedure at one node.
pub type NodeMoves = fn(&Tree, &Ctx) -> Vec<(&'static str, Tree)>;
/// A canonical procedure on the theorem's binder list (`binders`, conclusion): the lemma, the
/// text of what it rewrote (for the path) and the new binder list.
pub type ListCode = fn(&[Tree], &Tree, &Carriers) -> Option<(&'static str, String, Tree)>;
/// A canonical procedure at binder `i` of the theorem's binder list, as [`ListCode`].
pub type BinderCode = fn(&[Tree], usize, &Tree, &Carriers) -> Option<(&'static str, String, Tree)>;
/// A procedure on the whole statement: the rewrites it made, for the path, and the new
/// statement.
pub type StatementCode = fn(&Tree) -> Option<(Vec<(&'static str, String)>, Tree)>;
/// Moves of the whole statement towards `other` (measured with `distance`), appended to `out`;
/// stops once the clock has run out.
pub type StatementMoves = fn(
    tree: &Tree,
    other: &Tree,
    distance: &mut dyn FnMut(&Tree, &Tree) -> u32,
    clock: Clock,
    out: &mut Vec<Rewrite>,
);

/// What a rule does, and so where it runs.
#[derive(Clone, Copy)]
pub enum Action {
    /// `pattern => replacement`, Lean text with metavariables, at any node.
    Rewrite(&'static str, &'static str),
    /// A procedure at any node (a pattern cannot say it), in its place among the patterns.
    Code(NodeCode),
    /// Moves found by a procedure at any node.
    Moves(NodeMoves),
    /// A procedure at a binding node (a quantifier, `let`, `fun`, a set-builder), tried before
    /// every rule of the kinds above.
    Binding(NodeCode),
    /// A procedure on the theorem's binder list.
    List(ListCode),
    /// A procedure at one binder of the theorem's binder list. These rules are tried together,
    /// binder by binder (at each binder, in table order), where the first of them is declared.
    Binder(BinderCode),
    /// A notation unfolded over the whole statement before anything reads its binders.
    Notation(StatementCode),
    /// A procedure on the whole statement, once, after its binders are read (what Lean adds to
    /// a statement, not what it says).
    Statement(StatementCode),
    /// Moves of the whole statement, after every node's moves.
    StatementMoves(StatementMoves),
}

/// What a side condition checks of its terms (in [`Cond::terms`] order).
#[derive(Clone, Copy, Debug)]
pub enum Check {
    /// The terms, elaborated together (`binop%`), have one of these number types.
    Carrier(&'static [Num]),
    /// The node is numerals only, of a type among these from the relation around it.
    NumeralsAt(&'static [Num]),
    /// The term is a number, not a function, set or tuple (`f ≤ g` is pointwise).
    Number,
    /// The term is not a numeral.
    NotNumeral,
    /// The two terms differ (a swap of equal operands changes nothing).
    Distinct,
    /// The `+` (`true`) or `*` (`false`) at the node commutes: `elab::commutes_at` and the
    /// statement's [`Commutativity`]; moves only. No terms.
    Commutes { add: bool },
    /// The term is a name (a leaf, not a numeral) whose type is the number type the second
    /// term names (`(x : ℝ)` with `x : ℝ`). Only a name: on a compound term an ascription is the
    /// expected type its operators elaborate under (`((y - 3 : ℕ) : ℝ)` is `↑(y - 3)`,
    /// `(y - 3 : ℝ)` is `↑y - 3`), so dropping it can change the statement.
    HasType,
    /// The term is a name whose written type is a type variable `G` with an instance
    /// `[Monoid G]` (or a class extending it) in the statement, or a number.
    Monoid,
    /// The term is a name whose written type is a type variable `G` with an instance `[Group
    /// G]` or `[CommGroup G]`: every element has an inverse (not a `GroupWithZero`, where `0⁻¹ =
    /// 0`).
    Group,
    /// The term is not the numeral `0` (left to the rules about `0`), nor a subtraction (`a - b
    /// = c - d` stays, so that both of its sides' orders reach one form by `eq_comm`).
    NotZeroNorDifference,
    /// The term is a natural (a numeral, or of type ℕ), or a name bound only without a type,
    /// which its membership in a `Finset ℕ` makes a natural (`Membership`'s element type is an
    /// `outParam`).
    NaturalElement,
    /// The leaves of the two terms (`binrel%`'s operands) are not of two known types one of
    /// which is no number type, nor of a number type beside a leaf of unknown type where the
    /// statement has a type numerals wrap in: where two types coerce both ways (`ℕ` and `Fin
    /// n` under `open Fin.NatCast`, `ℤ` and `ZMod n`), `binrel%` elaborates at the first
    /// leaf's, so swapping the sides changes the relation.
    OneTypeOrNumbers,
    /// The term is a name whose written type is a type variable `R` with an instance of a unital
    /// (semi)ring class (`[Ring R]`, `[Field R]`, …), which gives `NonAssocSemiring R`.
    UnitalRing,
    /// `+` (`true`) or `*` (`false`) is associative on the terms: they are numbers of one
    /// known type (ℕ ℤ ℚ ℝ ℂ), or names of a type variable `G` with an instance of a class
    /// extending `AddSemigroup`/`Semigroup`. Not `Float` (IEEE rounding), not `[Mul M]`, not
    /// `NonUnitalNonAssocRing`.
    Associative { add: bool },
    /// The term has an inverse with `a⁻¹ = 1 / a` (`DivInvMonoid`): a number of ℚ ℝ ℂ, or a name
    /// of a type variable with an instance of a class extending `DivInvMonoid`.
    DivInv,
    /// The term is a membership `x ∈ S b…` whose element is not coerced into the set: the
    /// bounds `b…` are numerals (the set takes `x`'s type), or they and `x` have one known
    /// type. `n ∈ Set.Ico (0 : ℝ) (1 / 2)` with `(n : ℕ)` is `↑n ∈ …`; unfolded, `n < 1 / 2`
    /// would be read at ℕ.
    ElementFits,
    /// The term is a proposition (elaboration-lite: `elab::is_prop`), not a type: logic
    /// rules (`Imp.swap`, `and_imp`) hold for `Prop`s, not for `ℤ → ℕ → ℤ`.
    Prop,
    /// The two terms are collections of one known type, `Set T` or `Finset T` with `∩ ∪`
    /// (`collections::collection`): not a type variable's `Inter`, not a lattice's `⊓`.
    SameCollection,
    /// Every name in the term is a constant or a name whose written type no rule drops
    /// (`Carriers::fixed_number_type`): no binder's type is decided through it, so a rule may
    /// move it between uses without changing which use decides a type (`|x - a| < ε` is left to
    /// the ε-forms, whose `ε` takes its type from there).
    Settled,
}

/// A typed side condition: a [`Check`] of terms, Lean text over the pattern's metavariables.
#[derive(Clone, Copy, Debug)]
pub struct Cond {
    pub check: Check,
    pub terms: &'static [&'static str],
}

/// One declared rule.
#[derive(Clone, Copy)]
pub struct Rule {
    /// The rule's name in the rewrite path: the Mathlib lemma, or the reduction (`a / b` when
    /// one procedure stands for several lemmas).
    pub name: &'static str,
    /// The lemma as it reads in Lean (for procedures: a one-line statement). The rule's
    /// documentation: only the generic test reads it, to say which lemma an example failed.
    #[cfg_attr(not(test), allow(dead_code))]
    pub lemma: &'static str,
    pub action: Action,
    pub when: &'static [Cond],
    pub direction: Direction,
    /// Statements (`theorem t` is prefixed) and what the rule alone makes of them in one step.
    pub examples: &'static [(&'static str, &'static str)],
    /// Statements the rule must leave alone.
    pub non_examples: &'static [&'static str],
    /// A membership rule that keeps every use's place in deciding a name's type: it fires only
    /// where the element's type is already known, and what it writes still decides it the same
    /// way (`x ∈ s ∩ t` as `x ∈ s ∧ x ∈ t`). Other rules named as reordering or dropping uses
    /// (`metrics::reorders_uses`) are treated as doing so.
    pub keeps_decisions: bool,
}

impl Rule {
    pub const fn new(
        name: &'static str,
        lemma: &'static str,
        action: Action,
        d: Direction,
    ) -> Rule {
        Rule {
            name,
            lemma,
            action,
            when: &[],
            direction: d,
            examples: &[],
            non_examples: &[],
            keeps_decisions: false,
        }
    }
    pub const fn when(mut self, when: &'static [Cond]) -> Rule {
        self.when = when;
        self
    }
    pub const fn ex(mut self, examples: &'static [(&'static str, &'static str)]) -> Rule {
        self.examples = examples;
        self
    }
    pub const fn non(mut self, non_examples: &'static [&'static str]) -> Rule {
        self.non_examples = non_examples;
        self
    }
    /// See [`Rule::keeps_decisions`].
    pub const fn keeps_decisions(mut self) -> Rule {
        self.keeps_decisions = true;
        self
    }
}

/// A canonical rewrite `lhs => rhs`, justified by `lemma`.
pub const fn rw(
    name: &'static str,
    lemma: &'static str,
    lhs: &'static str,
    rhs: &'static str,
) -> Rule {
    Rule::new(name, lemma, Action::Rewrite(lhs, rhs), Direction::Canonical)
}

/// A search move `lhs => rhs` (its inverse is another move or the same one).
pub const fn mv(
    name: &'static str,
    lemma: &'static str,
    lhs: &'static str,
    rhs: &'static str,
) -> Rule {
    Rule::new(name, lemma, Action::Rewrite(lhs, rhs), Direction::Move)
}

/// A canonical rule written as a procedure at the node.
pub const fn code(name: &'static str, lemma: &'static str, f: NodeCode) -> Rule {
    Rule::new(name, lemma, Action::Code(f), Direction::Canonical)
}

/// Search moves written as a procedure at the node.
pub const fn moves_code(name: &'static str, lemma: &'static str, f: NodeMoves) -> Rule {
    Rule::new(name, lemma, Action::Moves(f), Direction::Move)
}

/// A canonical rule whose procedure runs where [`Action`] says.
pub const fn canonical(name: &'static str, lemma: &'static str, action: Action) -> Rule {
    Rule::new(name, lemma, action, Direction::Canonical)
}

/// Search moves whose procedure runs where [`Action`] says.
pub const fn moves_of(name: &'static str, lemma: &'static str, action: Action) -> Rule {
    Rule::new(name, lemma, action, Direction::Move)
}

const fn cond(check: Check, terms: &'static [&'static str]) -> Cond {
    Cond { check, terms }
}
pub const fn on(terms: &'static [&'static str], among: &'static [Num]) -> Cond {
    cond(Check::Carrier(among), terms)
}
/// The node is built from numerals only, and the relation around it gives it a type among
/// `among` (`3⁻¹` in `q = 3⁻¹` with `q : ℚ`).
pub const fn numerals_at(among: &'static [Num]) -> Cond {
    cond(Check::NumeralsAt(among), &[])
}
pub const fn number(term: &'static [&'static str; 1]) -> Cond {
    cond(Check::Number, term)
}
pub const fn not_numeral(term: &'static [&'static str; 1]) -> Cond {
    cond(Check::NotNumeral, term)
}
pub const fn distinct(terms: &'static [&'static str; 2]) -> Cond {
    cond(Check::Distinct, terms)
}
pub const fn commutes(add: bool) -> Cond {
    cond(Check::Commutes { add }, &[])
}
pub const fn has_type(terms: &'static [&'static str; 2]) -> Cond {
    cond(Check::HasType, terms)
}
pub const fn monoid(term: &'static [&'static str; 1]) -> Cond {
    cond(Check::Monoid, term)
}
pub const fn no_zero_nor_difference(term: &'static [&'static str; 1]) -> Cond {
    cond(Check::NotZeroNorDifference, term)
}
pub const fn group(term: &'static [&'static str; 1]) -> Cond {
    cond(Check::Group, term)
}
pub const fn natural_element(term: &'static [&'static str; 1]) -> Cond {
    cond(Check::NaturalElement, term)
}
pub const fn one_type_or_numbers(terms: &'static [&'static str; 2]) -> Cond {
    cond(Check::OneTypeOrNumbers, terms)
}
pub const fn unital_ring(term: &'static [&'static str; 1]) -> Cond {
    cond(Check::UnitalRing, term)
}
pub const fn associative(terms: &'static [&'static str], add: bool) -> Cond {
    cond(Check::Associative { add }, terms)
}
pub const fn div_inv(term: &'static [&'static str; 1]) -> Cond {
    cond(Check::DivInv, term)
}
pub const fn element_fits(term: &'static [&'static str; 1]) -> Cond {
    cond(Check::ElementFits, term)
}
pub const fn prop(term: &'static [&'static str; 1]) -> Cond {
    cond(Check::Prop, term)
}
pub const fn settled(term: &'static [&'static str; 1]) -> Cond {
    Cond { check: Check::Settled, terms: term }
}
pub const fn same_collection(terms: &'static [&'static str; 2]) -> Cond {
    cond(Check::SameCollection, terms)
}

pub const NAT: [Num; 1] = [Num::Nat];
pub const INT: [Num; 1] = [Num::Int];
pub const REAL: [Num; 1] = [Num::Real];
pub const DISCRETE: [Num; 2] = [Num::Nat, Num::Int];
pub const LINEAR: [Num; 4] = [Num::Nat, Num::Int, Num::Rat, Num::Real];
pub const ORDERED_GROUP: [Num; 3] = [Num::Int, Num::Rat, Num::Real];
pub const GROUP: [Num; 4] = [Num::Int, Num::Rat, Num::Real, Num::Complex];
pub const FIELD: [Num; 3] = [Num::Rat, Num::Real, Num::Complex];
pub const NUMBERS: [Num; 5] = [Num::Nat, Num::Int, Num::Rat, Num::Real, Num::Complex];

/// What a rule may read besides the node: the statement's binders, and for moves the node's
/// place in the whole tree.
pub struct Ctx<'a> {
    pub carriers: &'a Carriers,
    /// For moves: the whole tree, the node's path in it, and the statement's commutativity.
    pub at: Option<(&'a Tree, &'a [usize], Commutativity)>,
    /// The type the relation around the node gives it, where the node sits in its arithmetic
    /// (`elab::numeral_context`).
    pub numeral_type: Option<Num>,
}
