//! The compiled rule tables of `transted-lite`, and the one generic matcher and instantiator that
//! applies them.
//!
//! Owns the compiled index of every family's table ([`super::families`]) and the entry points
//! the canonical pass and the search call: [`canonical_at`] and [`moves_at`] at each node,
//! [`list_at`] at the theorem's binder list, [`notation`], [`statement`] and
//! [`statement_moves`] on the whole statement. It does not decide where in a statement these
//! run (that is `driver` and `moves`) and holds no rule itself.
//!
//! A pattern is Lean text parsed once by the project's own parser ([`crate::trees`]) into a
//! tree whose leaves `?a` are metavariables: a metavariable matches any subterm, a repeated one
//! equal subterms; a numeral matches the same number (`0` and `00`); any other node matches
//! its own label (outer spaces ignored, and GTED's spelling of a few notations accepted, see
//! [`GTED_LABELS`]) with as many children, never an unparsed span. The replacement is the
//! pattern's instantiation. A side condition names terms the same way (`?a`, `?a - ?b`) and
//! reads their type from elaboration-lite ([`elab`]); an unknown type makes it false, so the
//! rule does not fire. Compiling a table checks that every metavariable a replacement or a
//! condition names is bound by the pattern.
//!
//! Order: at a node, the first canonical rule that fires, in table order (families in the order
//! of [`super::families`]), is applied; binding procedures come before every other rule at
//! their node, and rules with different root labels never compete. Every move that fires is
//! offered, in table order.

use super::carriers::{
    of_one_class_type, variable_type_of_class, Carriers, MONOID_CLASSES, UNITAL_RING_CLASSES,
};
use super::commutativity::{commutes_by_class, number_valued_arithmetic, opaque_or_matrix};
use super::declare::{
    Action, BinderCode, Check, Cond, Ctx, Direction, ListCode, Rule, StatementCode, StatementMoves,
    FIELD, NUMBERS,
};
use super::elab::{self, Num, Ty};
use super::families::families;
use super::rewrite::Rewrite;
use super::shapes::{is_leaf, leaves, literal, ADD, MUL, SUB};
use crate::metrics::transted_lite::clock::Clock;
use crate::trees::lean_syntax::concat;
use crate::trees::Tree;
use std::collections::HashMap;
use std::sync::OnceLock;

/// GTED's labels for notations the parser labels otherwise (bench data in GTED's format).
const GTED_LABELS: [(&str, &str); 2] = [("||", "abs _"), ("_ ≡ _  _ [MOD _ ]", "_ ≡ _ [MOD _ ]")];

/// The label a node is matched by: outer spaces dropped, GTED's spellings mapped.
fn key(label: &str) -> &str {
    let trimmed = label.trim();
    GTED_LABELS.iter().find(|(gted, _)| *gted == trimmed).map_or(trimmed, |(_, ours)| ours)
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

/// A side condition with its terms parsed.
struct CompiledCond {
    check: Check,
    terms: Vec<Tree>,
}

struct Compiled {
    rule: &'static Rule,
    /// For rewrites: the pattern and the replacement.
    pattern: Option<(Tree, Tree)>,
    /// The names the pattern and the replacement write that are not metavariables (`Fact`,
    /// `Nat.Prime`): Mathlib's constants.
    constants: Vec<String>,
    conds: Vec<CompiledCond>,
}

/// One step of the binder-list rules: a procedure on the whole list, or the per-binder
/// procedures tried together, binder by binder.
enum ListStep {
    Whole(ListCode),
    EachBinder(Vec<BinderCode>),
}

/// The rules of one direction. Node rules are indexed by their pattern's root label; rules
/// without a pattern (procedures) are tried at every node, in their place in the order.
struct Index {
    rules: Vec<Compiled>,
    by_label: HashMap<String, Vec<usize>>,
    anywhere: Vec<usize>,
    binding: Vec<usize>,
    list: Vec<ListStep>,
    notation: Vec<StatementCode>,
    statement: Vec<StatementCode>,
    statement_moves: Vec<StatementMoves>,
    errors: Vec<String>,
}

fn compile(direction: Direction) -> Index {
    let mut ix = Index {
        rules: Vec::new(),
        by_label: HashMap::new(),
        anywhere: Vec::new(),
        binding: Vec::new(),
        list: Vec::new(),
        notation: Vec::new(),
        statement: Vec::new(),
        statement_moves: Vec::new(),
        errors: Vec::new(),
    };
    let mut binder_group_closed = false;
    for (_, table) in families() {
        for rule in table.iter().filter(|r| r.direction == direction) {
            let c = match compile_rule(rule) {
                Ok(c) => c,
                Err(e) => {
                    ix.errors.push(format!("{}: {e}", rule.name));
                    continue;
                }
            };
            let i = ix.rules.len();
            match (&c.pattern, rule.action) {
                (Some((p, _)), _) => {
                    ix.by_label.entry(key(&p.label).to_owned()).or_default().push(i)
                }
                (None, Action::Code(_) | Action::Moves(_)) => ix.anywhere.push(i),
                (None, Action::Binding(_)) => ix.binding.push(i),
                (None, Action::List(f)) => {
                    binder_group_closed |= matches!(ix.list.last(), Some(ListStep::EachBinder(_)));
                    ix.list.push(ListStep::Whole(f));
                }
                (None, Action::Binder(f)) => match ix.list.last_mut() {
                    Some(ListStep::EachBinder(group)) => group.push(f),
                    _ if binder_group_closed => ix
                        .errors
                        .push(format!("{}: per-binder rules must be declared together", rule.name)),
                    _ => ix.list.push(ListStep::EachBinder(vec![f])),
                },
                (None, Action::Notation(f)) => ix.notation.push(f),
                (None, Action::Statement(f)) => ix.statement.push(f),
                (None, Action::StatementMoves(f)) => ix.statement_moves.push(f),
                (None, Action::Rewrite(..)) => {}
            }
            ix.rules.push(c);
        }
    }
    // Procedures run at every node, in their place among the patterns.
    let anywhere = ix.anywhere.clone();
    for list in ix.by_label.values_mut() {
        list.extend(&anywhere);
        list.sort_unstable();
    }
    ix
}

fn compile_rule(rule: &'static Rule) -> Result<Compiled, String> {
    let mut bound = Vec::new();
    let pattern = match rule.action {
        Action::Rewrite(lhs, rhs) => {
            let (p, r) = (parse_pattern(lhs)?, parse_pattern(rhs)?);
            if is_metavariable(&p) {
                return Err(format!("pattern `{lhs}` is a bare metavariable"));
            }
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
    let conds =
        rule.when.iter().map(|c| compile_cond(c, &bound)).collect::<Result<Vec<_>, String>>()?;
    let mut constants = Vec::new();
    if let Some((p, r)) = &pattern {
        names(p, &mut constants);
        names(r, &mut constants);
    }
    constants.retain(|n| !n.starts_with('?') && literal(&Tree::leaf(n.as_str())).is_none());
    Ok(Compiled { rule, pattern, constants, conds })
}

/// A condition's terms parsed, each metavariable checked against those the pattern binds
/// (`bound`; none for a procedure).
fn compile_cond(cond: &Cond, bound: &[String]) -> Result<CompiledCond, String> {
    let mut terms = Vec::new();
    for text in cond.terms {
        let term = parse_pattern(text)?;
        let mut used = Vec::new();
        metavariables(&term, &mut used);
        if let Some(m) = used.iter().find(|m| !bound.contains(m)) {
            return Err(format!(
                "condition {:?} names {m}, which the pattern does not bind",
                cond.check
            ));
        }
        terms.push(term);
    }
    Ok(CompiledCond { check: cond.check, terms })
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

/// Rules whose pattern or condition does not compile (they never fire; the test fails on any).
#[cfg(test)]
fn compile_errors() -> Vec<String> {
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
        && p.children.iter().zip(&t.children).all(|(pc, tc)| matches(pc, tc, b))
}

/// The pattern `p` with its metavariables replaced.
fn instantiate(p: &Tree, b: &Bindings) -> Tree {
    if is_metavariable(p) {
        if let Some((_, t)) = b.iter().find(|(m, _)| *m == p.label) {
            return (*t).clone();
        }
    }
    Tree::node(p.label.clone(), p.children.iter().map(|c| instantiate(c, b)).collect())
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

/// The factors of a product `a * b * …` (the term itself when it is no product).
/// Is `x` built by `+ * -` from numerals and names of one type variable with a ring class
/// and no other operator class beside it (`(a + b) * (a + b)` over `[CommRing R]`)? Every
/// operation is then that ring's (`binop%`: leaves of one type, no coercion), and the ring is
/// a monoid. `-` needs a ring, not a semiring.
fn ring_polynomial(x: &Tree, c: &Carriers) -> bool {
    const RINGS: [&str; 4] = ["Ring", "CommRing", "Field", "DivisionRing"];
    let mut leaves = Vec::new();
    let mut subtracts = false;
    if !ring_leaves(x, &mut leaves, &mut subtracts, 0) {
        return false;
    }
    let names: Vec<&Tree> = leaves.into_iter().filter(|l| literal(l).is_none()).collect();
    let types: Option<Vec<&Tree>> = names.iter().map(|n| c.name_type(&n.label)).collect();
    let Some(ty) = types.as_ref().and_then(|t| t.first()) else {
        return false;
    };
    let classes: &[&str] = if subtracts { &RINGS } else { &UNITAL_RING_CLASSES };
    types.as_ref().is_some_and(|t| t.iter().all(|u| u == ty))
        && is_leaf(ty)
        && variable_type_of_class(&ty.label, classes, c)
}

/// The leaves of `x` under `+ * -`; false where a leaf is neither a numeral nor a name.
fn ring_leaves<'a>(
    x: &'a Tree,
    out: &mut Vec<&'a Tree>,
    subtracts: &mut bool,
    depth: usize,
) -> bool {
    match (x.label.as_str(), x.children.as_slice()) {
        _ if depth > 64 => false,
        (ADD | MUL | SUB, [a, b]) => {
            *subtracts |= x.label == SUB;
            ring_leaves(a, out, subtracts, depth + 1) && ring_leaves(b, out, subtracts, depth + 1)
        }
        _ if is_leaf(x) => {
            out.push(x);
            true
        }
        _ => false,
    }
}

fn product_leaves<'a>(t: &'a Tree, out: &mut Vec<&'a Tree>) {
    match (t.label.as_str(), t.children.as_slice()) {
        (MUL, [a, b]) => {
            product_leaves(a, out);
            product_leaves(b, out);
        }
        _ => out.push(t),
    }
}

fn holds(cond: &CompiledCond, b: &Bindings, t: &Tree, ctx: &Ctx) -> bool {
    let c = ctx.carriers;
    let terms: Vec<_> = cond.terms.iter().map(|x| term(x, b)).collect();
    let refs: Vec<&Tree> = terms.iter().map(|x| x.as_ref()).collect();
    match cond.check {
        Check::Carrier(among) => elab::carrier(&refs, c).is_some_and(|n| among.contains(&n)),
        Check::NumeralsAt(among) => {
            elab::numerals_only(t, 0) && ctx.numeral_type.is_some_and(|n| among.contains(&n))
        }
        Check::Number => c.ordered_operand(refs[0]),
        Check::NotNumeral => literal(refs[0]).is_none(),
        Check::Distinct => refs[0] != refs[1],
        Check::Commutes { add } => ctx.at.is_some_and(|(root, path, comm)| {
            !opaque_or_matrix(t)
                && (((if add { comm.add } else { comm.mul })
                    && (elab::commutes_at(root, path, c)
                        || commutes_by_class(root, path, t, add, c)))
                    || number_valued_arithmetic(t, c))
        }),
        Check::HasType => {
            let (x, want) = (refs[0], elab::num_of_type(refs[1]));
            is_leaf(x)
                && x.label.parse::<u128>().is_err()
                && want.is_some()
                && elab::type_of(x, c) == Ty::Num(want.unwrap_or(Num::Nat))
        }
        Check::Monoid => {
            let x = refs[0];
            if elab::carrier(&[x], c).is_some_and(|n| NUMBERS.contains(&n)) && c.ordered_operand(x)
            {
                return true;
            }
            // A product of names, all of one monoid type (`(a * b) * (a * b)`): `*` there is
            // that monoid's, since `binop%` inserts no coercion between leaves of one type.
            let mut names = Vec::new();
            product_leaves(x, &mut names);
            let types: Option<Vec<&Tree>> = names
                .iter()
                .map(|n| if is_leaf(n) { c.name_type(&n.label) } else { None })
                .collect();
            let product = types.is_some_and(|types| {
                types.windows(2).all(|w| w[0] == w[1])
                    && types.first().is_some_and(|ty| {
                        (is_leaf(ty) && c.has_instance(&MONOID_CLASSES, &ty.label))
                            || square_number_matrix(ty)
                    })
            });
            product || ring_polynomial(x, c)
        }
        Check::NotZeroNorDifference => literal(refs[0]) != Some(0) && refs[0].label != SUB,
        // A group with no bare `Div`/`Inv`/`Mul`/`One` beside it (a local instance comes
        // first: `1 / b` would be that `Div`'s).
        Check::Group => of_one_class_type(&refs[..1], &["Group", "CommGroup"], c),
        Check::NaturalElement => {
            let x = refs[0];
            elab::carrier(&[x], c) == Some(Num::Nat) || (is_leaf(x) && c.untyped_only(&x.label))
        }
        Check::OneTypeOrNumbers => {
            let mut leaves = Vec::new();
            for side in &refs {
                elab::arithmetic_leaves(side, &mut leaves, 0);
            }
            // Each leaf's type: a number type, a name's written type, or unknown (`None`).
            // A name bound without a type has none yet: `binrel%` gives it the other leaves'
            // (`isDefEq` assigns it), whatever their order. Left out, as numerals are, and so
            // are the names a rule's unfolding binds (`N✝`, read by the rule that wrote it).
            let untyped =
                |l: &Tree| is_leaf(l) && (c.untyped_or_number(&l.label) || l.label.contains('✝'));
            let types: Vec<Option<String>> = leaves
                .iter()
                .filter(|l| literal(l).is_none() && !untyped(l))
                .map(|l| match elab::type_of(l, c) {
                    Ty::Num(n) => Some(elab::type_name(n).to_owned()),
                    // `dist : α → α → ℝ`, `‖·‖ : E → ℝ` (Mathlib/Topology/MetricSpace/Pseudo/Defs.lean,
                    // Analysis/Normed/Group/Basic.lean).
                    _ if l.label == "‖ _ ‖" || super::shapes::app_head(l) == Some("dist") => {
                        Some("ℝ".to_owned())
                    }
                    _ => (is_leaf(l))
                        .then(|| c.name_type(&l.label).map(super::render::render))
                        .flatten(),
                })
                .collect();
            let number = |t: &String| elab::num_of_type(&Tree::leaf(t.as_str())).is_some();
            let known: Vec<&String> = types.iter().flatten().collect();
            let other_known = known.iter().any(|t| !number(t));
            let two_known = known.windows(2).any(|w| w[0] != w[1]);
            // A leaf of unknown type may be of a type numerals wrap in (`Fin.last 4`), beside a
            // number: only where the statement has such a type at all.
            // A leaf of unknown type may be of a type numerals wrap in (`Fin.last 4`, a header's
            // `variable (b : Fin 5)`), beside a number.
            let unknown_beside_number =
                known.len() < types.len() && known.iter().any(|t| number(t));
            let two_way = two_known && other_known;
            !(two_way || unknown_beside_number)
        }
        Check::UnitalRing => {
            let x = refs[0];
            is_leaf(x)
                && c.name_type(&x.label).is_some_and(|ty| {
                    is_leaf(ty) && c.has_instance(&UNITAL_RING_CLASSES, &ty.label)
                })
        }
        Check::Associative { add } => {
            if elab::carrier(&refs, c).is_some_and(|n| NUMBERS.contains(&n))
                && refs.iter().all(|x| c.ordered_operand(x))
            {
                return true;
            }
            let classes: &[&str] = if add { &ADD_SEMIGROUP_CLASSES } else { &SEMIGROUP_CLASSES };
            of_one_class_type(&refs, classes, c)
        }
        Check::DivInv => {
            let x = refs[0];
            if elab::carrier(&[x], c).is_some_and(|n| FIELD.contains(&n)) && c.ordered_operand(x) {
                return true;
            }
            of_one_class_type(&[x], &DIV_INV_CLASSES, c)
        }
        Check::Prop => elab::is_prop(refs[0], c),
        Check::ElementFits => element_fits(refs[0], c),
        Check::Settled => settled(refs[0], c),
        Check::SameCollection => {
            let of = |t: &Tree| super::collections::collection(t, c);
            match (of(refs[0]), of(refs[1])) {
                (Some(a), Some(b)) => {
                    a.kind == b.kind && a.element == b.element && a.has_lattice_operations()
                }
                _ => false,
            }
        }
    }
}

/// `Matrix (Fin k) (Fin k) R` with `R` a number type: a monoid under `*` (`Matrix.semiring`,
/// Mathlib/Data/Matrix/Mul.lean, for a finite index with decidable equality and a semiring `R`).
fn square_number_matrix(ty: &Tree) -> bool {
    let ("Matrix _  _  _ ", [rows, cols, entries]) = (ty.label.as_str(), ty.children.as_slice())
    else {
        return false;
    };
    rows == cols && rows.label == "Fin _ " && elab::num_of_type(entries).is_some()
}

/// [`Check::Settled`]: every leaf is a numeral, a constant of a number type or a name of a fixed
/// written type.
fn settled(t: &Tree, c: &Carriers) -> bool {
    let mut names = Vec::new();
    super::shapes::leaves(t, &mut names);
    // A name the carriers do not bind may be one a rule bound (`ε✝`): a constant must have a
    // known number type (`Real.pi`).
    names.iter().all(|n| {
        literal(&Tree::leaf(n)).is_some()
            || c.fixed_number_type(n).is_some()
            || (!c.binds(n) && matches!(elab::type_of(&Tree::leaf(n), c), elab::Ty::Num(_)))
    })
}

/// [`Check::ElementFits`] of a membership `x ∈ S b…`.
fn element_fits(membership: &Tree, c: &Carriers) -> bool {
    let [x, set] = membership.children.as_slice() else {
        return false;
    };
    let bounds: Vec<&Tree> = set.children.iter().filter(|b| literal(b).is_none()).collect();
    let x_type = elab::type_of(x, c);
    if bounds.is_empty() {
        // The interval's type is `x`'s, whatever that is.
        return matches!(x_type, Ty::Num(_))
            || (is_leaf(x) && (c.untyped_only(&x.label) || c.name_type(&x.label).is_some()));
    }
    if let Ty::Num(n) = x_type {
        // A bound of numerals (`-1`, `1 / 2`) takes the interval's type, `x`'s: it means the
        // same in `l < x`, where `binrel%` gives it `x`'s type too. Only where every operation
        // on numerals elaborates (not `-1 : ℕ`, `2⁻¹ : ℤ`).
        let numerals_fit = |b: &Tree| {
            elab::numerals_only(b, 0)
                && match n {
                    Num::Rat | Num::Real => true,
                    Num::Int => !super::shapes::has_label(b, "⁻¹"),
                    _ => false,
                }
        };
        return bounds.iter().all(|b| elab::type_of(b, c) == Ty::Num(n) || numerals_fit(b));
    }
    // Names of one written type that is not a number type (`(x a b : α)`).
    let written = |t: &Tree| if is_leaf(t) { c.name_type(&t.label) } else { None };
    written(x).is_some_and(|ty| elab::num_of_type(ty).is_none())
        && bounds.iter().all(|b| written(b) == written(x))
}

/// The associative (semi)ring classes (Mathlib/Algebra/Ring/Defs.lean: `NonUnitalSemiring
/// extends … SemigroupWithZero` and `NonUnitalNonAssocSemiring`, so both `Semigroup` and
/// `AddSemigroup`; every `Semiring`/`Ring` above it; Mathlib/Algebra/Field/Defs.lean).
const RING_CLASSES: [&str; 15] = [
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

/// Classes extending `Semigroup` (Mathlib/Algebra/Group/Defs.lean: `Monoid extends Semigroup`),
/// and [`RING_CLASSES`]. Not `Mul`, `MulOneClass`, `NonUnitalNonAssocSemiring`,
/// `NonUnitalNonAssocRing`, `NonAssocSemiring`, `NonAssocRing`.
const SEMIGROUP_CLASSES: [&str; 21] = concat(&[
    &["Semigroup", "CommSemigroup", "Monoid", "CommMonoid", "Group", "CommGroup"],
    &RING_CLASSES,
]);

/// Classes extending `AddSemigroup` (Mathlib/Algebra/Group/Defs.lean: `AddMonoid extends
/// AddSemigroup`; Mathlib/Algebra/Ring/Defs.lean: `NonUnitalNonAssocSemiring extends
/// AddCommMonoid`, so every (semi)ring class, associative or not, [`RING_CLASSES`] among them).
/// Not `Add`, `AddZeroClass`.
const ADD_SEMIGROUP_CLASSES: [&str; 29] = concat(&[
    &[
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
        "OrderedAddCommGroup",
        "OrderedAddCommMonoid",
        "LinearOrderedAddCommGroup",
        "NormedAddCommGroup",
    ],
    &RING_CLASSES,
]);

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
    // The pattern's constants are Mathlib's: one the statement binds is a variable there
    // (`(Fact : Prop → Prop)`), and the lemma says nothing of it.
    if r.constants.iter().any(|name| ctx.carriers.binds(name)) {
        return None;
    }
    r.conds.iter().all(|cond| holds(cond, &b, t, ctx)).then(|| (r.rule.name, instantiate(rhs, &b)))
}

fn candidates<'i>(ix: &'i Index, t: &Tree) -> &'i [usize] {
    ix.by_label.get(key(&t.label)).map_or(ix.anywhere.as_slice(), Vec::as_slice)
}

/// Compiled rule `r` at `t`, as the node rules run: a procedure or the pattern.
fn fire(r: &Compiled, t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let fired = match r.rule.action {
        Action::Code(f) | Action::Binding(f) => f(t, ctx),
        _ => apply(r, t, ctx),
    };
    fired.filter(|(_, new)| !captures(t, new, ctx.carriers))
}

/// Does the rewrite `old → new` write a name the statement binds (`Even n` under a binder
/// `(Even : ℕ → Prop)`)? The lemma is about Mathlib's `Even`; the statement's name is a
/// variable, so the rewrite would change what the term says. Names the rewrite only carries
/// over from `old` are the statement's own and stay.
fn captures(old: &Tree, new: &Tree, c: &Carriers) -> bool {
    let mut before = Vec::new();
    names(old, &mut before);
    let mut after = Vec::new();
    names(new, &mut after);
    after.iter().any(|n| !before.contains(n) && c.binds(n))
        || before.iter().any(|n| PROCEDURE_READS.contains(&n.as_str()) && c.binds(n))
}

/// Mathlib's names the procedures (`Code`, `Binding`, list rules) read by name: one the
/// statement binds (`(nhds : ℝ → Filter ℝ)`) is a variable there, and no lemma is about it.
/// (A pattern's constants are checked from the pattern itself.)
const PROCEDURE_READS: [&str; 26] = [
    "nhds",
    "Filter.Tendsto",
    "Filter.atTop",
    "Continuous",
    "ContinuousAt",
    "ContinuousOn",
    "Odd",
    "Even",
    "Function.Injective",
    "Function.Surjective",
    "deriv",
    "Finset.sum",
    "Finset.prod",
    "Set.univ",
    "Prime",
    "Nat.Prime",
    "abs",
    "id",
    "Real.sqrt",
    "Int.ModEq",
    "Nat.ModEq",
    "Fact",
    "Set.Nonempty",
    "Finset.Nonempty",
    "Function.comp",
    "CauchySeq",
];

/// The names a term writes: its leaves and the heads of its applications (`f _ _`).
fn names(t: &Tree, out: &mut Vec<String>) {
    if is_leaf(t) {
        out.push(t.label.clone());
    } else if let Some(head) = super::shapes::app_head(t) {
        out.push(head.to_owned());
    }
    for ch in &t.children {
        names(ch, out);
    }
}

/// The first canonical rule of the tables that fires at the root of `t`: the binding
/// procedures, then the node rules.
pub fn canonical_at(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ix = index(Direction::Canonical);
    ix.binding.iter().chain(candidates(ix, t)).find_map(|&i| fire(&ix.rules[i], t, ctx))
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
    out.retain(|(_, new)| !captures(t, new, ctx.carriers));
    out
}

/// The first binder-list rule that fires on the theorem's binder list `list`
/// (`(b₁) … (bₖ) : concl`): the lemma, the text of what it rewrote and the new list.
pub fn list_at(list: &Tree, carriers: &Carriers) -> Option<(&'static str, String, Tree)> {
    let (concl, binders) = list.children.split_last()?;
    index(Direction::Canonical).list.iter().find_map(|step| {
        list_step(step, binders, concl, carriers)
            .filter(|(_, _, new)| !captures(list, new, carriers))
    })
}

fn list_step(
    step: &ListStep,
    binders: &[Tree],
    concl: &Tree,
    carriers: &Carriers,
) -> Option<(&'static str, String, Tree)> {
    match step {
        ListStep::Whole(f) => f(binders, concl, carriers),
        ListStep::EachBinder(group) => (0..binders.len())
            .find_map(|i| group.iter().find_map(|f| f(binders, i, concl, carriers))),
    }
}

/// The notations of the tables unfolded over the whole statement, in table order: the
/// rewrites made (rule, text) and the statement after them.
pub fn notation(tree: &Tree) -> (Vec<(&'static str, String)>, Tree) {
    whole(&index(Direction::Canonical).notation, tree)
}

/// The statement procedures of the tables, in table order, as [`notation`].
pub fn statement(tree: &Tree) -> (Vec<(&'static str, String)>, Tree) {
    whole(&index(Direction::Canonical).statement, tree)
}

fn whole(procedures: &[StatementCode], tree: &Tree) -> (Vec<(&'static str, String)>, Tree) {
    let mut log = Vec::new();
    let mut t = tree.clone();
    for f in procedures {
        if let Some((steps, new)) = f(&t) {
            log.extend(steps);
            t = new;
        }
    }
    (log, t)
}

/// The statement moves of the tables, in table order, appended to `out`.
pub fn statement_moves(
    tree: &Tree,
    other: &Tree,
    distance: &mut dyn FnMut(&Tree, &Tree) -> u32,
    clock: Clock,
    out: &mut Vec<Rewrite>,
) {
    for f in &index(Direction::Move).statement_moves {
        f(tree, other, distance, clock, out);
    }
}

#[cfg(test)]
/// Is `a` the declaration `b`? By what it says, not by address: a `const` table may be
/// instantiated more than once (an optimised build is free to copy a promoted constant), so
/// two references to one declared rule need not be equal pointers.
fn same_rule(a: &Rule, b: &Rule) -> bool {
    let patterns = |r: &Rule| match r.action {
        Action::Rewrite(lhs, rhs) => Some((lhs, rhs)),
        _ => None,
    };
    a.name == b.name
        && a.lemma == b.lemma
        && a.examples == b.examples
        && a.non_examples == b.non_examples
        && patterns(a) == patterns(b)
}

/// One rule alone at the root of `t`, at the place it runs (for the tests: "this example is
/// rewritten by exactly that rule"): a node, the binder list (`t` is the list), or the whole
/// statement. Statement moves need the other side: [`statement_moves`].
#[cfg(test)]
fn apply_one(rule: &'static Rule, t: &Tree, ctx: &Ctx) -> Vec<(&'static str, Tree)> {
    let ix = index(rule.direction);
    let Some(r) = ix.rules.iter().find(|c| same_rule(c.rule, rule)) else {
        return Vec::new();
    };
    let list = || t.children.split_last();
    match r.rule.action {
        Action::Code(f) | Action::Binding(f) => f(t, ctx).into_iter().collect(),
        Action::Moves(f) => f(t, ctx),
        Action::Rewrite(..) => apply(r, t, ctx).into_iter().collect(),
        Action::List(f) => list()
            .and_then(|(concl, binders)| f(binders, concl, ctx.carriers))
            .map(|(name, _, new)| (name, new))
            .into_iter()
            .collect(),
        Action::Binder(f) => list()
            .and_then(|(concl, binders)| {
                (0..binders.len()).find_map(|i| f(binders, i, concl, ctx.carriers))
            })
            .map(|(name, _, new)| (name, new))
            .into_iter()
            .collect(),
        Action::Notation(f) | Action::Statement(f) => f(t)
            .into_iter()
            .flat_map(|(steps, new)| steps.into_iter().map(move |(name, _)| (name, new.clone())))
            .collect(),
        Action::StatementMoves(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::commutativity::Commutativity;
    use super::super::declare::{number, rw};
    use super::super::shapes::{binder_list, replace_at};
    use super::*;
    use crate::distance::{ted, CostModel};
    use crate::trees::parse::{parse_statement, Header};

    /// An example: Lean text after `theorem t`, or (starting with `{"`) a tree in the contract
    /// JSON form, for shapes GTED's data may have and the parser never makes.
    fn statement(text: &str) -> Tree {
        if text.starts_with("{\"") {
            return crate::trees::json::parse(text)
                .unwrap_or_else(|e| panic!("example tree does not read: {e}: {text}"));
        }
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

    /// Every result of `rule` alone on `tree`, as the whole rewritten tree: at any node, at the
    /// binder list, or on the whole statement, where the rule runs. Statement moves move
    /// towards `other`.
    fn rewrites(rule: &'static Rule, tree: &Tree, other: &Tree) -> Vec<(&'static str, Tree)> {
        let carriers = Carriers::of(tree);
        let comm = Commutativity::of(tree);
        let paths: Vec<Vec<usize>> = match rule.action {
            Action::List(_) | Action::Binder(_) => {
                binder_list(tree).map(|(_, p)| p).into_iter().collect()
            }
            Action::Notation(_) | Action::Statement(_) => vec![Vec::new()],
            Action::StatementMoves(f) => {
                let mut out = Vec::new();
                let mut d = |a: &Tree, b: &Tree| ted(a, b, CostModel { free_rename: true });
                f(tree, other, &mut d, Clock::unlimited(), &mut out);
                return out.into_iter().map(|r| (r.applied.rule, r.tree)).collect();
            }
            _ => {
                let mut all = Vec::new();
                let mut stack: Vec<Vec<usize>> = vec![Vec::new()];
                while let Some(path) = stack.pop() {
                    let Some(node) = path.iter().try_fold(tree, |t, &i| t.children.get(i)) else {
                        continue;
                    };
                    for i in 0..node.children.len() {
                        let mut p = path.clone();
                        p.push(i);
                        stack.push(p);
                    }
                    all.push(path);
                }
                all
            }
        };
        let mut out = Vec::new();
        for path in paths {
            let Some(node) = path.iter().try_fold(tree, |t, &i| t.children.get(i)) else {
                continue;
            };
            let numeral_type = elab::numeral_context(tree, &path, &carriers);
            let ctx = Ctx { carriers: &carriers, at: Some((tree, &path, comm)), numeral_type };
            for (name, new) in apply_one(rule, node, &ctx) {
                out.push((name, replace_at(tree, &path, new)));
            }
        }
        out
    }

    /// What `rule` alone makes of `tree`: each one-step result and, for a canonical rule, what
    /// applying it again makes of those, a few steps deep (a procedure may need more than one
    /// step to reach a form Lean text can write).
    fn results(rule: &'static Rule, tree: &Tree, other: &Tree) -> Vec<(&'static str, Tree)> {
        let mut all = rewrites(rule, tree, other);
        if rule.direction == Direction::Canonical {
            let mut frontier = all.clone();
            for _ in 0..3 {
                frontier = frontier.iter().flat_map(|(_, t)| rewrites(rule, t, other)).collect();
                all.extend(frontier.iter().cloned());
            }
        }
        all
    }

    fn names(rule: &Rule) -> Vec<&'static str> {
        rule.name.split(" / ").collect()
    }

    #[test]
    fn every_pattern_and_condition_compiles() {
        assert_eq!(compile_errors(), Vec::<String>::new());
    }

    /// A condition naming a metavariable its pattern does not bind is an error when the table
    /// is compiled, not a condition that silently never holds.
    #[test]
    fn a_condition_on_a_metavariable_the_pattern_does_not_bind_does_not_compile() {
        static UNBOUND: Rule =
            rw("add_comm", "a + b = b + a", "?a + ?b", "?b + ?a").when(&[number(&["?c"])]);
        let error = compile_rule(&UNBOUND).err().unwrap_or_default();
        assert!(error.contains("?c"), "expected an error naming ?c, got `{error}`");
        static BOUND: Rule =
            rw("add_comm", "a + b = b + a", "?a + ?b", "?b + ?a").when(&[number(&["?a"])]);
        assert!(compile_rule(&BOUND).is_ok());
    }

    /// Each declared rule: every example is rewritten by exactly that rule alone to the stated
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
                    let got = results(rule, &statement(input), &want);
                    if !got
                        .iter()
                        .any(|(name, t)| names(rule).contains(name) && shape(t) == shape(&want))
                    {
                        let got: Vec<String> =
                            got.iter().map(|(n, t)| format!("{n}: {}", shape(t))).collect();
                        failures.push(format!(
                            "{family}/{}: `{input}` ⇏ `{output}` ({})\n  want {}\n  got {got:?}",
                            rule.name,
                            rule.lemma,
                            shape(&want)
                        ));
                    }
                }
                for input in rule.non_examples {
                    non_examples += 1;
                    let tree = statement(input);
                    if !rewrites(rule, &tree, &tree).is_empty() {
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

    /// Every rule says what it does on at least one example.
    #[test]
    fn every_rule_has_an_example() {
        let missing: Vec<&str> = families()
            .iter()
            .flat_map(|(_, t)| t.iter())
            .filter(|r| r.examples.is_empty())
            .map(|r| r.name)
            .collect();
        assert!(missing.is_empty(), "rules without an example: {missing:?}");
    }

    /// Every rule says where it does not fire on at least one non-example.
    #[test]
    fn every_rule_has_a_non_example() {
        let missing: Vec<&str> = families()
            .iter()
            .flat_map(|(_, t)| t.iter())
            .filter(|r| r.non_examples.is_empty())
            .map(|r| r.name)
            .collect();
        assert!(missing.is_empty(), "rules without a non-example: {missing:?}");
    }
}
