//! Rules as data: the declaration format of `transted-lite`'s local rules, and the one generic
//! matcher and instantiator that applies them.
//!
//! Owns [`Rule`] (a name, the lemma as Lean text, a pattern and a replacement with
//! metavariables `?a`, typed side conditions, a direction, examples and non-examples), the
//! compiled index of every family's table, and [`canonical_at`]/[`moves_at`], which the
//! canonical pass and the search call at each node. It does not decide where in a statement
//! rules run (that is `canonical_pass`/`moves` in the parent) and holds no rule itself: the
//! rules are in the family files (`logic`, `order`, `arithmetic`, `sets`, `notation`,
//! `binders`).
//!
//! A pattern is Lean text parsed once by the project's own parser ([`crate::trees`]) into a
//! tree whose leaves `?a` are metavariables: a metavariable matches any subterm, a repeated one
//! equal subterms; a numeral matches the same number (`0` and `00`); any other node matches
//! its own label (outer spaces ignored, and GTED's spelling of a few notations accepted, see
//! [`GTED_LABELS`]) with as many children, never an unparsed span. The replacement is the
//! pattern's instantiation. A side condition names terms the same way (`?a`, `?a - ?b`) and
//! reads their type from elaboration-lite ([`elab`]); an unknown type makes it false, so the
//! rule does not fire.
//!
//! Rules a pattern cannot say (binder lists, capture-avoiding substitution, literal
//! arithmetic, variable arity) are [`Action::Code`] or [`Action::Elsewhere`]: they are listed in
//! the same tables, with the lemma and examples, so that the generic test covers them too.
//!
//! Order: at a node, the first canonical rule that fires, in table order (families in the order
//! of [`CANONICAL`]), is applied; rules with different root labels never compete, and where
//! two could fire at one node the tables keep the order the rules had when they were code.
//! Every move that fires is offered, in table order.

use super::commutativity::{opaque_or_matrix, Commutativity};
use super::elab::{self, Num, Ty};
use super::shapes::{is_leaf, leaves, literal};
use super::typed::Carriers;
use crate::trees::Tree;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Canonical rules are applied eagerly, in their one direction; moves are tried by the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Canonical,
    Move,
}

/// What a rule does at a node.
#[derive(Clone, Copy)]
pub enum Action {
    /// `pattern => replacement`, Lean text with metavariables.
    Rewrite(&'static str, &'static str),
    /// Code that rewrites at the node (a pattern cannot say it); returns the name of the lemma
    /// it used (one procedure may stand for a ℕ and a ℤ version) and the new subterm.
    Code(fn(&Tree, &Ctx) -> Option<(&'static str, Tree)>),
    /// Moves found by code at the node.
    Moves(fn(&Tree, &Ctx) -> Vec<(&'static str, Tree)>),
    /// Code elsewhere (a binder list, a quantifier, the whole statement): named here for its
    /// lemma and examples; the test checks it through `canonicalize`/`moves`.
    Elsewhere,
}

/// A typed side condition. Terms are Lean text over the pattern's metavariables.
#[derive(Clone, Copy, Debug)]
pub enum Cond {
    /// The terms, elaborated together (`binop%`), have one of these number types.
    Carrier(&'static [&'static str], &'static [Num]),
    /// The term is a number, not a function, set or tuple (`f ≤ g` is pointwise).
    Number(&'static str),
    /// The term is not a numeral.
    NotNumeral(&'static str),
    /// The two terms differ (a swap of equal operands changes nothing).
    Distinct(&'static str, &'static str),
    /// The `+` (`true`) or `*` (`false`) at the node commutes: [`elab::commutes_at`] and the
    /// statement's [`Commutativity`]; moves only.
    Commutes { add: bool },
    /// The term is a name (a leaf, not a numeral) whose type is the number type the second
    /// term names (`(x : ℝ)` with `x : ℝ`). Only a name: on a compound term an ascription is the
    /// expected type its operators elaborate under (`((y - 3 : ℕ) : ℝ)` is `↑(y - 3)`,
    /// `(y - 3 : ℝ)` is `↑y - 3`), so dropping it can change the statement.
    HasType(&'static str, &'static str),
    /// The term is a name whose written type is a type variable `G` with an instance
    /// `[Monoid G]` (or a class extending it) in the statement, or a number.
    Monoid(&'static str),
    /// `+` (`true`) or `*` (`false`) is associative on the terms: they are numbers of one
    /// known type (ℕ ℤ ℚ ℝ ℂ), or names of a type variable `G` with an instance of a class
    /// extending `AddSemigroup`/`Semigroup` ([`ADD_SEMIGROUP_CLASSES`], [`SEMIGROUP_CLASSES`]).
    /// Not `Float` (IEEE rounding), not `[Mul M]`, not `NonUnitalNonAssocRing`.
    Associative(&'static [&'static str], bool),
    /// The term has an inverse with `a⁻¹ = 1 / a` (`DivInvMonoid`): a number of ℚ ℝ ℂ, or a name
    /// of a type variable with an instance of a class extending `DivInvMonoid`.
    DivInv(&'static str),
    /// The term is a proposition (elaboration-lite: [`elab::is_prop`]), not a type: logic
    /// rules (`Imp.swap`, `and_imp`) hold for `Prop`s, not for `ℤ → ℕ → ℤ`.
    Prop(&'static str),
}

/// One declared rule.
#[derive(Clone, Copy)]
pub struct Rule {
    /// The rule's name in the rewrite path: the Mathlib lemma, or the reduction.
    pub name: &'static str,
    /// The lemma as it reads in Lean (for code rules: a one-line statement).
    pub lemma: &'static str,
    pub action: Action,
    pub when: &'static [Cond],
    pub direction: Direction,
    /// Statements (`theorem t` is prefixed) and what the rule makes of them.
    pub examples: &'static [(&'static str, &'static str)],
    /// Statements the rule must leave alone.
    pub non_examples: &'static [&'static str],
}

impl Rule {
    const fn new(name: &'static str, lemma: &'static str, action: Action, d: Direction) -> Rule {
        Rule {
            name,
            lemma,
            action,
            when: &[],
            direction: d,
            examples: &[],
            non_examples: &[],
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

/// A canonical rule written as code at the node.
pub const fn code(
    name: &'static str,
    lemma: &'static str,
    f: fn(&Tree, &Ctx) -> Option<(&'static str, Tree)>,
) -> Rule {
    Rule::new(name, lemma, Action::Code(f), Direction::Canonical)
}

/// Search moves written as code at the node.
pub const fn moves_code(
    name: &'static str,
    lemma: &'static str,
    f: fn(&Tree, &Ctx) -> Vec<(&'static str, Tree)>,
) -> Rule {
    Rule::new(name, lemma, Action::Moves(f), Direction::Move)
}

/// A rule implemented elsewhere, registered for its lemma and examples.
pub const fn elsewhere(name: &'static str, lemma: &'static str, d: Direction) -> Rule {
    Rule::new(name, lemma, Action::Elsewhere, d)
}

pub const fn on(terms: &'static [&'static str], among: &'static [Num]) -> Cond {
    Cond::Carrier(terms, among)
}
pub const fn number(term: &'static str) -> Cond {
    Cond::Number(term)
}
pub const fn not_numeral(term: &'static str) -> Cond {
    Cond::NotNumeral(term)
}
pub const fn distinct(a: &'static str, b: &'static str) -> Cond {
    Cond::Distinct(a, b)
}

pub const NAT: [Num; 1] = [Num::Nat];
pub const INT: [Num; 1] = [Num::Int];
pub const REAL: [Num; 1] = [Num::Real];
pub const COMPLEX: [Num; 1] = [Num::Complex];
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
}

/// Every family's table, canonical rules first, in the order they are tried.
pub fn families() -> [(&'static str, &'static [Rule]); 6] {
    [
        ("notation", super::notation::RULES),
        ("logic", super::logic::RULES),
        ("binders", super::binders::RULES),
        ("order", super::order::RULES),
        ("arithmetic", super::arithmetic::RULES),
        ("sets", super::sets::RULES),
    ]
}

/// GTED's labels for notations the parser labels otherwise (bench data in GTED's format).
const GTED_LABELS: [(&str, &str); 2] = [("||", "abs _"), ("_ ≡ _  _ [MOD _ ]", "_ ≡ _ [MOD _ ]")];

/// The label a node is matched by: outer spaces dropped, GTED's spellings mapped.
fn key(label: &str) -> &str {
    let trimmed = label.trim();
    GTED_LABELS
        .iter()
        .find(|(gted, _)| *gted == trimmed)
        .map_or(trimmed, |(_, ours)| ours)
}

fn is_metavariable(t: &Tree) -> bool {
    t.children.is_empty() && t.label.len() > 1 && t.label.starts_with('?')
}

/// A pattern's text as a tree (`theorem t : TEXT`'s conclusion).
pub fn parse_pattern(text: &str) -> Result<Tree, String> {
    let statement = format!("theorem t : {text}");
    let parsed = crate::trees::parse::parse_statement(&statement, &Default::default())
        .map_err(|e| format!("pattern `{text}` does not parse: {e}"))?;
    let list = parsed.tree.children.first();
    match list.map(|l| (l.label.as_str(), l.children.as_slice())) {
        Some((": _ ", [p])) => Ok(p.clone()),
        _ => Err(format!("pattern `{text}` is not one term")),
    }
}

enum CompiledCond {
    Carrier(Vec<Tree>, &'static [Num]),
    Number(Tree),
    NotNumeral(Tree),
    Distinct(Tree, Tree),
    Commutes { add: bool },
    HasType(Tree, Tree),
    Monoid(Tree),
    Associative(Vec<Tree>, bool),
    DivInv(Tree),
    Prop(Tree),
}

struct Compiled {
    rule: &'static Rule,
    /// For rewrites: the pattern and the replacement.
    pattern: Option<(Tree, Tree)>,
    conds: Vec<CompiledCond>,
}

/// The rules of one direction, indexed by their pattern's root label. Rules without a pattern
/// (code) are tried at every node, in their place in the order.
struct Index {
    rules: Vec<Compiled>,
    by_label: HashMap<String, Vec<usize>>,
    anywhere: Vec<usize>,
    errors: Vec<String>,
}

fn compile(direction: Direction) -> Index {
    let mut rules = Vec::new();
    let mut errors = Vec::new();
    for (_, table) in families() {
        for rule in table.iter().filter(|r| r.direction == direction) {
            match compile_rule(rule) {
                Ok(c) => rules.push(c),
                Err(e) => errors.push(format!("{}: {e}", rule.name)),
            }
        }
    }
    let mut by_label: HashMap<String, Vec<usize>> = HashMap::new();
    let mut anywhere = Vec::new();
    for (i, c) in rules.iter().enumerate() {
        match (&c.pattern, c.rule.action) {
            (Some((p, _)), _) => by_label
                .entry(key(&p.label).to_owned())
                .or_default()
                .push(i),
            (None, Action::Code(_) | Action::Moves(_)) => anywhere.push(i),
            (None, _) => {}
        }
    }
    // Code runs at every node, in its place among the patterns.
    for list in by_label.values_mut() {
        list.extend(&anywhere);
        list.sort_unstable();
    }
    Index {
        rules,
        by_label,
        anywhere,
        errors,
    }
}

fn compile_rule(rule: &'static Rule) -> Result<Compiled, String> {
    let pattern = match rule.action {
        Action::Rewrite(lhs, rhs) => {
            let (p, r) = (parse_pattern(lhs)?, parse_pattern(rhs)?);
            if is_metavariable(&p) {
                return Err(format!("pattern `{lhs}` is a bare metavariable"));
            }
            let mut bound = Vec::new();
            metavariables(&p, &mut bound);
            let mut used = Vec::new();
            metavariables(&r, &mut used);
            if let Some(m) = used.iter().find(|m| !bound.contains(m)) {
                return Err(format!("`{rhs}` uses {m}, which `{lhs}` does not bind"));
            }
            Some((p, r))
        }
        _ => None,
    };
    let term = |text: &str| parse_pattern(text);
    let conds = rule
        .when
        .iter()
        .map(|c| {
            Ok(match *c {
                Cond::Carrier(ts, among) => CompiledCond::Carrier(
                    ts.iter().map(|t| term(t)).collect::<Result<_, String>>()?,
                    among,
                ),
                Cond::Number(t) => CompiledCond::Number(term(t)?),
                Cond::NotNumeral(t) => CompiledCond::NotNumeral(term(t)?),
                Cond::Distinct(a, b) => CompiledCond::Distinct(term(a)?, term(b)?),
                Cond::Commutes { add } => CompiledCond::Commutes { add },
                Cond::HasType(t, ty) => CompiledCond::HasType(term(t)?, term(ty)?),
                Cond::Monoid(t) => CompiledCond::Monoid(term(t)?),
                Cond::Associative(ts, add) => CompiledCond::Associative(
                    ts.iter().map(|t| term(t)).collect::<Result<_, String>>()?,
                    add,
                ),
                Cond::DivInv(t) => CompiledCond::DivInv(term(t)?),
                Cond::Prop(t) => CompiledCond::Prop(term(t)?),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Compiled {
        rule,
        pattern,
        conds,
    })
}

/// The distinct metavariables of a pattern, in order of first occurrence.
fn metavariables(t: &Tree, out: &mut Vec<String>) {
    let mut all = Vec::new();
    leaves(t, &mut all);
    for name in all {
        if name.len() > 1 && name.starts_with('?') && !out.contains(&name) {
            out.push(name);
        }
    }
}

fn index(direction: Direction) -> &'static Index {
    static CANONICAL: OnceLock<Index> = OnceLock::new();
    static MOVES: OnceLock<Index> = OnceLock::new();
    match direction {
        Direction::Canonical => CANONICAL.get_or_init(|| compile(Direction::Canonical)),
        Direction::Move => MOVES.get_or_init(|| compile(Direction::Move)),
    }
}

/// Rules whose pattern or condition does not parse (they never fire; the test fails on any).
pub fn compile_errors() -> Vec<String> {
    let mut out = index(Direction::Canonical).errors.clone();
    out.extend(index(Direction::Move).errors.iter().cloned());
    out
}

type Bindings<'p, 't> = Vec<(&'p str, &'t Tree)>;

/// Match `t` against pattern `p`, extending `b`.
fn matches<'p, 't>(p: &'p Tree, t: &'t Tree, b: &mut Bindings<'p, 't>) -> bool {
    if is_metavariable(p) {
        return match b.iter().find(|(m, _)| *m == p.label) {
            Some((_, seen)) => *seen == t,
            None => {
                b.push((&p.label, t));
                true
            }
        };
    }
    if p.children.is_empty() {
        return t.children.is_empty()
            && match literal(p) {
                Some(v) => literal(t) == Some(v),
                None => t.label == p.label,
            };
    }
    !t.unparsed
        && t.children.len() == p.children.len()
        && key(&t.label) == key(&p.label)
        && p.children
            .iter()
            .zip(&t.children)
            .all(|(pc, tc)| matches(pc, tc, b))
}

/// The pattern `p` with its metavariables replaced.
fn instantiate(p: &Tree, b: &Bindings) -> Tree {
    if is_metavariable(p) {
        if let Some((_, t)) = b.iter().find(|(m, _)| *m == p.label) {
            return (*t).clone();
        }
    }
    Tree::node(
        p.label.clone(),
        p.children.iter().map(|c| instantiate(c, b)).collect(),
    )
}

/// A condition's term: the bound subterm itself, or the instantiated text.
fn term<'a>(p: &Tree, b: &Bindings<'_, 'a>) -> std::borrow::Cow<'a, Tree> {
    if is_metavariable(p) {
        if let Some((_, t)) = b.iter().find(|(m, _)| *m == p.label) {
            return std::borrow::Cow::Borrowed(*t);
        }
    }
    std::borrow::Cow::Owned(instantiate(p, b))
}

/// Multiplicative classes whose instance on `G` makes `G` a monoid (`sq`, `pow_two`).
const MONOID_CLASSES: [&str; 14] = [
    "Monoid",
    "CommMonoid",
    "Group",
    "CommGroup",
    "Semiring",
    "CommSemiring",
    "Ring",
    "CommRing",
    "Field",
    "DivisionRing",
    "LinearOrderedField",
    "LinearOrderedRing",
    "LinearOrderedCommRing",
    "OrderedRing",
];

fn holds(cond: &CompiledCond, b: &Bindings, t: &Tree, ctx: &Ctx) -> bool {
    let c = ctx.carriers;
    match cond {
        CompiledCond::Carrier(ts, among) => {
            let terms: Vec<_> = ts.iter().map(|x| term(x, b)).collect();
            let refs: Vec<&Tree> = terms.iter().map(|x| x.as_ref()).collect();
            elab::carrier(&refs, c).is_some_and(|n| among.contains(&n))
        }
        CompiledCond::Number(x) => c.ordered_operand(&term(x, b)),
        CompiledCond::NotNumeral(x) => literal(&term(x, b)).is_none(),
        CompiledCond::Distinct(x, y) => term(x, b) != term(y, b),
        CompiledCond::Commutes { add } => ctx.at.is_some_and(|(root, path, comm)| {
            (if *add { comm.add } else { comm.mul })
                && !opaque_or_matrix(t)
                && elab::commutes_at(root, path, c)
        }),
        CompiledCond::HasType(x, ty) => {
            let x = term(x, b);
            let want = elab::num_of_type(&term(ty, b));
            is_leaf(&x)
                && x.label.parse::<u128>().is_err()
                && want.is_some()
                && elab::type_of(&x, c) == Ty::Num(want.unwrap_or(Num::Nat))
        }
        CompiledCond::Monoid(x) => {
            let x = term(x, b);
            if elab::carrier(&[&x], c).is_some_and(|n| NUMBERS.contains(&n))
                && c.ordered_operand(&x)
            {
                return true;
            }
            is_leaf(&x)
                && c.name_type(&x.label)
                    .is_some_and(|ty| is_leaf(ty) && c.has_instance(&MONOID_CLASSES, &ty.label))
        }
        CompiledCond::Associative(ts, add) => {
            let terms: Vec<_> = ts.iter().map(|x| term(x, b)).collect();
            let refs: Vec<&Tree> = terms.iter().map(|x| x.as_ref()).collect();
            if elab::carrier(&refs, c).is_some_and(|n| NUMBERS.contains(&n))
                && refs.iter().all(|x| c.ordered_operand(x))
            {
                return true;
            }
            let classes: &[&str] = if *add {
                &ADD_SEMIGROUP_CLASSES
            } else {
                &SEMIGROUP_CLASSES
            };
            of_one_class_type(&refs, classes, c)
        }
        CompiledCond::DivInv(x) => {
            let x = term(x, b);
            if elab::carrier(&[&x], c).is_some_and(|n| FIELD.contains(&n)) && c.ordered_operand(&x)
            {
                return true;
            }
            of_one_class_type(&[&x], &DIV_INV_CLASSES, c)
        }
        CompiledCond::Prop(x) => elab::is_prop(&term(x, b), c),
    }
}

/// Classes that provide an operator with no law: a second instance beside `[Semiring R]`
/// (`[Semiring R] [Mul R]`) may be the one `*` elaborates with (local instances are tried
/// newest first), so no law of the first class can be assumed for `*` on `R`.
const BARE_OPERATOR_CLASSES: [&str; 16] = [
    "Mul",
    "Add",
    "Sub",
    "Neg",
    "Inv",
    "Div",
    "One",
    "Zero",
    "Pow",
    "HMul",
    "HAdd",
    "HSub",
    "HDiv",
    "HPow",
    "MulOneClass",
    "AddZeroClass",
];

/// Are the terms all names of one type variable `G` (`(a b : G)`) with an instance `[C G]`,
/// `C` among `classes`, and no bare operator instance ([`BARE_OPERATOR_CLASSES`]) beside it?
fn of_one_class_type(terms: &[&Tree], classes: &[&str], c: &Carriers) -> bool {
    let mut ty: Option<&str> = None;
    terms.iter().all(|x| {
        let Some(t) = is_leaf(x).then(|| c.name_type(&x.label)).flatten() else {
            return false;
        };
        if !is_leaf(t) || ty.is_some_and(|seen| seen != t.label) {
            return false;
        }
        ty = Some(&t.label);
        c.has_instance(classes, &t.label) && !c.has_instance(&BARE_OPERATOR_CLASSES, &t.label)
    })
}

/// Classes extending `Semigroup` (Mathlib/Algebra/Group/Defs.lean: `Monoid extends Semigroup`;
/// Mathlib/Algebra/Ring/Defs.lean: `NonUnitalSemiring extends … SemigroupWithZero`, and every
/// `Semiring`/`Ring` above it; Mathlib/Algebra/Field/Defs.lean). Not `Mul`, `MulOneClass`,
/// `NonUnitalNonAssocSemiring`, `NonUnitalNonAssocRing`, `NonAssocSemiring`, `NonAssocRing`.
const SEMIGROUP_CLASSES: [&str; 21] = [
    "Semigroup",
    "CommSemigroup",
    "Monoid",
    "CommMonoid",
    "Group",
    "CommGroup",
    "NonUnitalSemiring",
    "NonUnitalCommSemiring",
    "NonUnitalRing",
    "NonUnitalCommRing",
    "Semiring",
    "CommSemiring",
    "Ring",
    "CommRing",
    "DivisionRing",
    "Field",
    "LinearOrderedField",
    "LinearOrderedRing",
    "LinearOrderedCommRing",
    "OrderedRing",
    "OrderedSemiring",
];

/// Classes extending `AddSemigroup` (Mathlib/Algebra/Group/Defs.lean: `AddMonoid extends
/// AddSemigroup`; Mathlib/Algebra/Ring/Defs.lean: `NonUnitalNonAssocSemiring extends
/// AddCommMonoid`, so every (semi)ring class, associative or not). Not `Add`, `AddZeroClass`.
const ADD_SEMIGROUP_CLASSES: [&str; 29] = [
    "AddSemigroup",
    "AddCommSemigroup",
    "AddMonoid",
    "AddCommMonoid",
    "AddGroup",
    "AddCommGroup",
    "NonUnitalNonAssocSemiring",
    "NonUnitalNonAssocRing",
    "NonAssocSemiring",
    "NonAssocRing",
    "NonUnitalSemiring",
    "NonUnitalCommSemiring",
    "NonUnitalRing",
    "NonUnitalCommRing",
    "Semiring",
    "CommSemiring",
    "Ring",
    "CommRing",
    "DivisionRing",
    "Field",
    "LinearOrderedField",
    "LinearOrderedRing",
    "LinearOrderedCommRing",
    "OrderedRing",
    "OrderedSemiring",
    "OrderedAddCommGroup",
    "OrderedAddCommMonoid",
    "LinearOrderedAddCommGroup",
    "NormedAddCommGroup",
];

/// Classes extending `DivInvMonoid` (Mathlib/Algebra/Group/Defs.lean: `Group extends
/// DivInvMonoid`; Mathlib/Algebra/GroupWithZero/Defs.lean: `GroupWithZero extends …
/// DivInvMonoid`; `DivisionRing`, `Field`). Not `Inv`, `Div`, `Monoid`.
const DIV_INV_CLASSES: [&str; 10] = [
    "DivInvMonoid",
    "DivisionMonoid",
    "DivisionCommMonoid",
    "Group",
    "CommGroup",
    "GroupWithZero",
    "CommGroupWithZero",
    "DivisionRing",
    "Field",
    "LinearOrderedField",
];

/// Try compiled rule `r` at `t`.
fn apply(r: &Compiled, t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (p, rhs) = r.pattern.as_ref()?;
    let mut b = Vec::new();
    if !matches(p, t, &mut b) {
        return None;
    }
    r.conds
        .iter()
        .all(|cond| holds(cond, &b, t, ctx))
        .then(|| (r.rule.name, instantiate(rhs, &b)))
}

fn candidates<'i>(ix: &'i Index, t: &Tree) -> &'i [usize] {
    ix.by_label
        .get(key(&t.label))
        .map_or(ix.anywhere.as_slice(), Vec::as_slice)
}

/// The first canonical rule of the tables that fires at the root of `t`.
pub fn canonical_at(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ix = index(Direction::Canonical);
    candidates(ix, t).iter().find_map(|&i| {
        let r = &ix.rules[i];
        match r.rule.action {
            Action::Code(f) => f(t, ctx),
            _ => apply(r, t, ctx),
        }
    })
}

/// Every move of the tables at the root of `t`, in table order.
pub fn moves_at(t: &Tree, ctx: &Ctx) -> Vec<(&'static str, Tree)> {
    let ix = index(Direction::Move);
    let mut out = Vec::new();
    for &i in candidates(ix, t) {
        let r = &ix.rules[i];
        match r.rule.action {
            Action::Moves(f) => out.extend(f(t, ctx)),
            _ => out.extend(apply(r, t, ctx)),
        }
    }
    out
}

/// One rule alone at the root of `t` (for the tests: "this example is rewritten by exactly
/// that rule").
pub fn apply_one(rule: &'static Rule, t: &Tree, ctx: &Ctx) -> Vec<(&'static str, Tree)> {
    let ix = index(rule.direction);
    let Some(r) = ix.rules.iter().find(|c| std::ptr::eq(c.rule, rule)) else {
        return Vec::new();
    };
    match r.rule.action {
        Action::Code(f) => f(t, ctx).into_iter().collect(),
        Action::Moves(f) => f(t, ctx),
        Action::Rewrite(..) => apply(r, t, ctx).into_iter().collect(),
        Action::Elsewhere => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::driver::canonicalize;
    use super::super::moves::moves;
    use super::super::shapes::replace_at;
    use super::*;
    use crate::trees::parse::{parse_statement, Header};

    fn statement(text: &str) -> Tree {
        let full = format!("theorem t {text}");
        parse_statement(&full, &Header::default())
            .unwrap_or_else(|e| panic!("example does not parse: {e}: {full}"))
            .tree
    }

    /// Labels and shape only (spans and flags differ between a rewrite and a parse).
    fn shape(t: &Tree) -> String {
        let mut out = t.label.clone();
        if !t.children.is_empty() {
            out.push('(');
            for c in &t.children {
                out.push_str(&shape(c));
                out.push(',');
            }
            out.push(')');
        }
        out
    }

    /// Every result of `rule` alone at any node of `tree`, as the whole rewritten tree.
    fn rewrites(rule: &'static Rule, tree: &Tree) -> Vec<(&'static str, Tree)> {
        let carriers = Carriers::of(tree);
        let comm = Commutativity::of(tree);
        let mut out = Vec::new();
        let mut stack: Vec<Vec<usize>> = vec![Vec::new()];
        while let Some(path) = stack.pop() {
            let Some(node) = path.iter().try_fold(tree, |t, &i| t.children.get(i)) else {
                continue;
            };
            let ctx = Ctx {
                carriers: &carriers,
                at: Some((tree, &path, comm)),
            };
            for (name, new) in apply_one(rule, node, &ctx) {
                out.push((name, replace_at(tree, &path, new)));
            }
            for i in 0..node.children.len() {
                let mut p = path.clone();
                p.push(i);
                stack.push(p);
            }
        }
        out
    }

    /// A rule implemented elsewhere: run the whole pipeline and read the path.
    /// Whether it fired, and the trees it gave: the canonical form, or each move's result.
    fn elsewhere_fires(rule: &Rule, text: &str) -> (bool, Vec<Tree>) {
        let (canon, log) = canonicalize(&statement(text));
        let mut fired = log.iter().any(|a| a.rule == rule.name);
        let mut results = vec![canon.clone()];
        if rule.direction == Direction::Move {
            let mut out = Vec::new();
            let mut d = |a: &Tree, b: &Tree| u32::from(a != b);
            moves(
                &canon,
                &canon,
                Commutativity::of(&canon),
                &Carriers::of(&canon),
                &mut d,
                &mut out,
            );
            out.retain(|r| r.applied.rule == rule.name);
            fired = !out.is_empty();
            results = out.into_iter().map(|r| r.tree).collect();
        }
        (fired, results)
    }

    fn names(rule: &Rule) -> Vec<&'static str> {
        rule.name.split(" / ").collect()
    }

    #[test]
    fn every_pattern_and_condition_parses() {
        assert_eq!(compile_errors(), Vec::<String>::new());
    }

    /// Each declared rule: every example is rewritten by exactly that rule to the stated
    /// result; every non-example is left alone by it.
    #[test]
    fn every_declared_rule_fires_on_its_examples_and_not_on_its_non_examples() {
        let mut failures = Vec::new();
        let (mut rules, mut examples, mut non_examples) = (0, 0, 0);
        for (family, table) in families() {
            for rule in table {
                rules += 1;
                for (input, output) in rule.examples {
                    examples += 1;
                    let want = statement(output);
                    let ok = if matches!(rule.action, Action::Elsewhere) {
                        let (fired, results) = elsewhere_fires(rule, input);
                        let (want_canon, _) = canonicalize(&want);
                        fired
                            && results.iter().any(|t| {
                                crate::distance::ted(
                                    t,
                                    &want_canon,
                                    crate::distance::CostModel { free_rename: true },
                                ) == 0
                            })
                    } else {
                        rewrites(rule, &statement(input))
                            .iter()
                            .any(|(name, t)| names(rule).contains(name) && shape(t) == shape(&want))
                    };
                    if !ok {
                        failures.push(format!("{family}/{}: `{input}` ⇏ `{output}`", rule.name));
                    }
                }
                for input in rule.non_examples {
                    non_examples += 1;
                    let fired = if matches!(rule.action, Action::Elsewhere) {
                        elsewhere_fires(rule, input).0
                    } else {
                        !rewrites(rule, &statement(input)).is_empty()
                    };
                    if fired {
                        failures.push(format!("{family}/{}: fires on `{input}`", rule.name));
                    }
                }
            }
        }
        // The count, for `--nocapture` (a test must say what it checked).
        #[allow(clippy::print_stdout)]
        {
            println!("{rules} rules, {examples} examples, {non_examples} non-examples checked");
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// Every rule that is not code elsewhere says what it does on at least one example.
    #[test]
    fn every_table_rule_has_an_example() {
        let missing: Vec<&str> = families()
            .iter()
            .flat_map(|(_, t)| t.iter())
            .filter(|r| !matches!(r.action, Action::Elsewhere) && r.examples.is_empty())
            .map(|r| r.name)
            .collect();
        assert!(missing.is_empty(), "rules without an example: {missing:?}");
    }
}
