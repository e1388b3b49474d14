//! Binders without a written type whose meaning depends on the order of their uses.
//!
//! `(x)`, `{x}`, `(x : _)`, an auto-bound `x`, `∃ x,`, `{x | …}`, `⋃ x,` bind `x : ?α`, and Lean
//! fixes `?α` at the first use elaborated that decides it: `n ≤ x` with `n : ℕ` (binrel%
//! unifies the unknown leaf's type), `f x` with `f : ℕ → ℕ`, `(x : ℝ)`. Every later use is
//! then read at that type, with a coercion or not at all. A rewrite that swaps two uses
//! (`and_comm`, `binder_reorder`) or drops one (`forall_eq`) may change `?α` when the uses
//! would decide different types. Owns [`order_sensitive_binders`]: a name with two or more
//! deciding uses that elaboration-lite cannot show all decide one type. It rewrites nothing;
//! the verdict reads it (`metrics::equivalence`).

use super::carriers::Carriers;
use super::collections;
use super::elab::{self, rank, Ty};
use super::shapes::{
    app_head, binder_kind, binder_list, binder_name, is_binding_node, is_leaf, literal, mentions,
    quantifier, COMPARISONS, IMP, MEM, PREDICATE_RELATIONS, UNKNOWN_TYPE,
};
use super::statement::bind_free_variables;
use super::typed::{self, Deciders};
use crate::trees::Tree;

/// What a use of the name decides about its type.
#[derive(Clone, Debug, PartialEq)]
enum Decides {
    /// Nothing: numerals and the name only (`x > 0`, `2 * x + 1`).
    Nothing,
    /// This type (`f x` with `f : ℕ → ℝ`, `(x : ℝ)`, `n ≤ x` with `n : ℕ`).
    Type(Tree),
    /// Something elaboration-lite cannot name.
    Unknown,
    /// The same type as this other name without a written type (`x - y`): the two are read as
    /// one ([`order_sensitive_binders`]).
    Link(String),
}

/// One binder of a name without a written type: the name, its uses, and the binding node when
/// it is not the theorem's (whose scope is the whole statement).
struct Entry {
    name: String,
    uses: Vec<Decides>,
    within: Option<Tree>,
}

/// A name whose uses may decide different types ([`order_sensitive_binders`]), with the binding
/// node of each binder of its group: all `Some` when none is the theorem's own.
#[derive(Debug)]
pub struct OrderSensitive {
    pub name: String,
    pub within: Vec<Option<Tree>>,
}

/// Mathlib functions whose explicit arguments all have one type, which none of them fixes
/// alone: `dist`, `edist` (Mathlib/Topology/MetricSpace/Pseudo/Defs.lean, EMetricSpace/Defs.lean),
/// `max`, `min` (core `Max`/`Min`), `Disjoint` (Mathlib/Order/Disjoint.lean), `Commute`,
/// `IsConj` (Mathlib/Algebra/Group/Commute/Defs.lean, Algebra/Group/Conj.lean).
const HOMOGENEOUS: [&str; 7] = ["dist", "edist", "max", "min", "Disjoint", "Commute", "IsConj"];

const ARITHMETIC: [&str; 6] = [" _ + _ ", " _ - _ ", " _ * _ ", " _ / _ ", " _ % _ ", "-"];
const ASCRIPTION: &str = "( _ : _ )";

/// Every group of names bound without a written type whose deciding uses may decide different
/// types (see the module doc; names an operation joins are one group). Auto-bound names count
/// as bound at the front.
pub fn order_sensitive_binders(tree: &Tree) -> Vec<OrderSensitive> {
    let mut bound = tree.clone();
    for _ in 0..64 {
        match bind_free_variables(&bound) {
            Some((_, next)) if next != bound => bound = next,
            _ => break,
        }
    }
    let bound = predicates_expanded(&bound, 0);
    let c = Carriers::of(&bound);
    let mut names: Vec<Entry> = Vec::new();
    if let Some((list, _)) = binder_list(&bound) {
        let n = list.children.len();
        for i in 0..n.saturating_sub(1) {
            if let Some(x) = untyped_name(&list.children[i]) {
                record(x, &list.children[i + 1..], None, &c, &mut names);
            }
        }
    }
    walk(&bound, &c, &mut names, 0);
    // Names an operation joins have one type: their uses are read together.
    let mut group: Vec<usize> = (0..names.len()).collect();
    for i in 0..names.len() {
        for d in &names[i].uses {
            let Decides::Link(y) = d else { continue };
            // Every binder of that name: which one the use sees is not tracked.
            for (j, other) in names.iter().enumerate() {
                if other.name == *y {
                    let (a, b) = (root(&mut group, i), root(&mut group, j));
                    group[a] = b;
                }
            }
        }
    }
    let mut found = Vec::new();
    for i in 0..names.len() {
        let r = root(&mut group, i);
        let mut deciding: Vec<&Decides> = Vec::new();
        let mut within = Vec::new();
        for (j, entry) in names.iter().enumerate() {
            if root(&mut group, j) == r {
                let decides = |d: &&Decides| matches!(d, Decides::Type(_) | Decides::Unknown);
                deciding.extend(entry.uses.iter().filter(decides));
                within.push(entry.within.clone());
            }
        }
        let unknown = deciding.contains(&&Decides::Unknown);
        let first_of_group = (0..i).all(|j| root(&mut group, j) != r);
        if first_of_group
            && deciding.len() >= 2
            && (unknown || deciding.windows(2).any(|w| w[0] != w[1]))
        {
            found.push(OrderSensitive { name: names[i].name.clone(), within });
        }
    }
    found
}

/// `t` with each binder predicate written as the relation it stands for (`∀ n ≥ N, p` has the
/// domain `≥ N`, which is `n ≥ N`), so that a domain reads as the use it is.
fn predicates_expanded(t: &Tree, depth: usize) -> Tree {
    let mut out = t.clone();
    if depth > 200 {
        return out;
    }
    out.children = t.children.iter().map(|ch| predicates_expanded(ch, depth + 1)).collect();
    let n = out.children.len();
    if (quantifier(t).is_some() || is_binding_node(&t.label)) && n == 3 {
        let x = binder_name(&out.children[0])
            .cloned()
            .or_else(|| (is_leaf(&out.children[0])).then(|| out.children[0].clone()));
        let domain = &out.children[1];
        let op = domain.label.strip_suffix(" _ ").map(str::trim);
        if let (Some(x), Some(op), [bound]) = (x, op, domain.children.as_slice()) {
            if PREDICATE_RELATIONS.contains(&op) {
                out.children[1] = Tree::node(format!(" _ {op} _ "), vec![x, bound.clone()]);
            }
        }
    }
    out
}

/// The representative of `i`'s group.
fn root(group: &mut [usize], mut i: usize) -> usize {
    while group[i] != i {
        group[i] = group[group[i]];
        i = group[i];
    }
    i
}

/// The uses of `x` in `scope`, one entry of `names` per binder.
fn record(x: &str, scope: &[Tree], within: Option<&Tree>, c: &Carriers, names: &mut Vec<Entry>) {
    let mut uses = Vec::new();
    for t in scope {
        uses_in(x, t, c, &mut uses, 0);
    }
    names.push(Entry { name: x.to_owned(), uses, within: within.cloned() });
}

/// The name a binder binds without a written type: a bare leaf, `(x)`, `{x}`, or `(x : _)` in
/// any brackets.
fn untyped_name(b: &Tree) -> Option<&str> {
    if is_leaf(b) {
        return (literal(b).is_none() && !b.hypothesis_freecost).then_some(b.label.as_str());
    }
    match (b.label.as_str(), binder_kind(&b.label), b.children.as_slice()) {
        (_, Some(_), [x, ty]) if is_leaf(x) && is_leaf(ty) && ty.label == UNKNOWN_TYPE => {
            Some(x.label.as_str())
        }
        ("( _ )" | "{ _ }" | "⦃ _ ⦄", _, [x]) if is_leaf(x) => Some(x.label.as_str()),
        _ => None,
    }
}

/// Binding nodes (`∃ x,`, `fun x =>`, `{x | …}`, `⋃ x,`) with an untyped binder.
fn walk(t: &Tree, c: &Carriers, names: &mut Vec<Entry>, depth: usize) {
    if depth > 200 {
        return;
    }
    let n = t.children.len();
    // `∑ i ∈ s, e` is `Finset.sum s (fun i => e)`: `s` is elaborated first, and a finset whose
    // element type is known (`Finset.range n`, an interval of one type, a typed name) fixes
    // `i`'s type before any use in `e`, which no rewrite of `e` can reorder.
    // (The domain reads `i ∈ s` here, [`predicates_expanded`].)
    let domain = match t.children.get(1).map(|d| (d.label.as_str(), d.children.as_slice())) {
        Some((MEM, [_, s])) => Some(s),
        _ => None,
    };
    let typed_domain = matches!(t.label.as_str(), "∑ _  _ , _ " | "∏ _  _ , _ ")
        && n == 3
        && domain.is_some_and(|s| {
            collections::collection(s, c).is_some()
                || typed::interval_element(s, c, &[], Deciders::TheoremBinders).is_some()
        });
    if (quantifier(t).is_some() || is_binding_node(&t.label)) && n >= 2 && !typed_domain {
        for i in 0..n - 1 {
            let b = &t.children[i];
            let name = untyped_name(b).or_else(|| {
                // `∃ x y, …` and binder predicates keep the names as leaves of a group.
                binder_name(b).filter(|_| b.children.len() == 1).map(|x| x.label.as_str())
            });
            if let Some(x) = name {
                record(x, &t.children[i + 1..], Some(t), c, names);
            }
        }
    }
    for ch in &t.children {
        walk(ch, c, names, depth + 1);
    }
}

/// The uses of `x` in `t` (not under a binder that binds `x` again), each with what it decides.
fn uses_in(x: &str, t: &Tree, c: &Carriers, out: &mut Vec<Decides>, depth: usize) {
    if depth > 200 {
        out.push(Decides::Unknown);
        return;
    }
    if is_leaf(t) {
        if t.label == x {
            out.push(Decides::Unknown);
        }
        return;
    }
    let n = t.children.len();
    if (quantifier(t).is_some() || is_binding_node(&t.label) || binder_kind(&t.label).is_some())
        && t.children[..n.saturating_sub(1)]
            .iter()
            .any(|b| binder_name(b).is_some_and(|y| y.label == x) || (is_leaf(b) && b.label == x))
    {
        // Rebound: only a binder's written type is about the outer `x`.
        for b in &t.children[..n - 1] {
            for ty in b.children.iter().skip(1) {
                uses_in(x, ty, c, out, depth + 1);
            }
        }
        return;
    }
    let label = t.label.as_str();
    if COMPARISONS.contains(&label)
        || ARITHMETIC.contains(&label)
        || label == " _ ^ _ "
        || label == "| _ |"
    {
        operands(x, t, c, out, depth);
        return;
    }
    if let (ASCRIPTION, [e, ty]) = (label, t.children.as_slice()) {
        if is_leaf(e) && e.label == x {
            out.push(Decides::Type(ty.clone()));
            uses_in(x, ty, c, out, depth + 1);
            return;
        }
    }
    // `‖x‖` takes any type with a norm, and is real: it decides nothing. (`|x|` has `x`'s own
    // type: it is read through, as part of the arithmetic around it, [`tree_leaves`].)
    if let ("‖ _ ‖", [e]) = (label, t.children.as_slice()) {
        if is_leaf(e) && e.label == x {
            out.push(Decides::Nothing);
            return;
        }
    }
    if let (MEM, [e, s]) = (label, t.children.as_slice()) {
        if is_leaf(e) && e.label == x {
            let element = collections::collection(s, c).map(|s| s.element).or_else(|| {
                typed::interval_element(s, c, &[], Deciders::TheoremBinders)
                    .map(|n| Tree::leaf(elab::type_name(n)))
            });
            out.push(element.map_or(Decides::Unknown, Decides::Type));
            uses_in(x, s, c, out, depth + 1);
            return;
        }
    }
    if app_head(t).is_some_and(|f| HOMOGENEOUS.contains(&f) && !c.binds(f)) {
        // `dist a b`: both arguments at one type, which the other argument's gives.
        for (i, arg) in t.children.iter().enumerate() {
            if !(is_leaf(arg) && arg.label == x) {
                uses_in(x, arg, c, out, depth + 1);
                continue;
            }
            let mut decided = false;
            for (j, other) in t.children.iter().enumerate() {
                if j == i || (is_leaf(other) && other.label == x) {
                    continue;
                }
                decided = true;
                out.push(match elab::type_of(other, c) {
                    Ty::Num(n) => Decides::Type(Tree::leaf(elab::type_name(n))),
                    _ if is_leaf(other) && c.name_type(&other.label).is_some() => Decides::Type(
                        c.name_type(&other.label).cloned().unwrap_or_else(|| other.clone()),
                    ),
                    _ if is_leaf(other) && c.binds(&other.label) => {
                        Decides::Link(other.label.clone())
                    }
                    _ => Decides::Unknown,
                });
            }
            if !decided {
                out.push(Decides::Nothing);
            }
        }
        return;
    }
    if let Some(f) = app_head(t) {
        let mut domain = c.name_type(f).filter(|_| c.binds(f));
        for (i, arg) in t.children.iter().enumerate() {
            let here = domain.filter(|d| d.label == IMP && d.children.len() == 2);
            if is_leaf(arg) && arg.label == x {
                let mathlib = || {
                    (!c.binds(f))
                        .then(|| elab::parameter_type(f, i))
                        .flatten()
                        .map(|n| Tree::leaf(elab::type_name(n)))
                };
                let ty = here.map(|d| d.children[0].clone()).or_else(mathlib);
                out.push(ty.map_or(Decides::Unknown, Decides::Type));
            } else {
                uses_in(x, arg, c, out, depth + 1);
            }
            domain = here.map(|d| &d.children[1]);
        }
        return;
    }
    for ch in &t.children {
        uses_in(x, ch, c, out, depth + 1);
    }
}

/// `x` among the leaves of one `binop%`/`binrel%` tree: it is unified with the other leaves'
/// largest type (numerals decide nothing; a leaf of unknown type, nothing we can name). Uses
/// inside a leaf (`f x + 1`) are read on their own.
fn operands(x: &str, t: &Tree, c: &Carriers, out: &mut Vec<Decides>, depth: usize) {
    let (mut leaves, mut exponents) = (Vec::new(), Vec::new());
    tree_leaves(t, &mut leaves, &mut exponents, 0);
    // An exponent is elaborated alone, and a bare `x` there decides nothing (`Monoid.Pow` is a
    // default instance, tried last).
    for e in exponents.iter().filter(|e| !is_leaf(e)) {
        uses_in(x, e, c, out, depth + 1);
    }
    let mine = leaves.iter().filter(|l| is_leaf(l) && l.label == x).count();
    // `binop%` elaborates every leaf before it unifies an unknown leaf's type: a use of `x`
    // inside another leaf of the tree (`b i ^ 2 / i`) comes first, wherever it stands.
    let inside = leaves.iter().any(|l| !is_leaf(l) && mentions(l, x));
    if mine > 0 && !inside {
        let mut largest: Option<elab::Num> = None;
        let mut unknown = false;
        for l in leaves.iter().filter(|l| !(is_leaf(l) && l.label == x)) {
            if literal(l).is_some() {
                continue;
            }
            match elab::type_of(l, c) {
                Ty::Num(n) => {
                    largest = Some(largest.map_or(n, |m| if rank(n) > rank(m) { n } else { m }))
                }
                _ if is_leaf(l) && c.binds(&l.label) && c.name_type(&l.label).is_none() => {
                    out.push(Decides::Link(l.label.clone()))
                }
                _ => unknown = true,
            }
        }
        let decides = match (unknown, largest) {
            (true, _) => Decides::Unknown,
            (false, Some(n)) => Decides::Type(Tree::leaf(elab::type_name(n))),
            (false, None) => Decides::Nothing,
        };
        out.extend(std::iter::repeat_n(decides, mine));
    }
    for l in leaves.iter().filter(|l| !is_leaf(l)) {
        uses_in(x, l, c, out, depth + 1);
    }
}

/// The leaves of the arithmetic and comparison tree `t`: through the operators, not into an
/// ascription or an application (each is one leaf, as `binop%` reads it); exponents apart.
fn tree_leaves<'t>(
    t: &'t Tree,
    out: &mut Vec<&'t Tree>,
    exponents: &mut Vec<&'t Tree>,
    depth: usize,
) {
    let label = t.label.as_str();
    // `|e|` is `abs e`, of `e`'s type: its type is unified with the tree's as `e`'s would be.
    let operator = COMPARISONS.contains(&label) || ARITHMETIC.contains(&label) || label == "| _ |";
    if depth < 200 && operator && !t.children.is_empty() {
        for ch in &t.children {
            tree_leaves(ch, out, exponents, depth + 1);
        }
    } else if let (true, " _ ^ _ ", [base, exponent]) = (depth < 200, label, t.children.as_slice())
    {
        tree_leaves(base, out, exponents, depth + 1);
        exponents.push(exponent);
    } else {
        out.push(t);
    }
}

#[cfg(test)]
mod tests {
    use super::order_sensitive_binders;
    use crate::trees::parse::{parse_statement, Header};

    fn sensitive(text: &str) -> Option<String> {
        let tree = parse_statement(text, &Header::default()).expect("parses").tree;
        order_sensitive_binders(&tree).into_iter().next().map(|s| s.name)
    }

    #[test]
    fn uses_deciding_two_types_are_order_sensitive() {
        for (text, name) in [
            ("theorem t (x) (n : ℕ) (h : n ≤ x) (h' : (x : ℝ) < 1) : True", "x"),
            ("theorem t (n : ℕ) (h : n = y) : (y : ℝ) ≠ 1 / 2", "y"),
            ("theorem t (n : ℕ) : ∃ x, 0 ≤ x + (0 : ℕ) ∧ (x : ℝ) = 1 / 2", "x"),
            ("theorem t (f : ℕ → ℕ) (g : ℤ → ℤ) : ∃ x, f x = 0 ∧ g x = 0", "x"),
            // Linked through `x - y`: one decides ℕ, the other ℝ.
            ("theorem t (n : ℕ) : ∃ x y, n ≤ x ∧ x - y = 0 ∧ (y : ℝ) < 1", "x"),
            // A finset of unknown element type fixes nothing first.
            ("theorem t (f : ℕ → ℕ) (g : ℤ → ℤ) : ∑ i ∈ s, (f i + g i) = 0", "i"),
        ] {
            assert_eq!(sensitive(text).as_deref(), Some(name), "{text}");
        }
    }

    #[test]
    fn uses_agreeing_or_deciding_nothing_are_not() {
        for text in [
            "theorem t (f : ℝ → ℝ) : ∀ x y, f x = f y",
            "theorem t (f : ℝ → ℝ) : ∀ ε > 0, ∃ δ > 0, ∀ x, |x| < δ → |f x| < ε",
            // `b i` is elaborated before `binop%` unifies the bare `i` with the tree's type.
            "theorem t (n : ℕ) (b : Fin n → ℝ) : ∑ i, b i ^ 2 / i = 0",
            "theorem t (x : ℕ → ℝ) (hx : ∀ n, x n = 1 / (n + 1)) : True",
            "theorem t (u : ℕ → ℝ) : ∃ N, ∀ n ≥ N, |u n| < 1",
            // The finset fixes `i : ℕ` before the body: `i * z` casts it.
            "theorem t (z : ℂ) (n : ℕ) : ∑ i ∈ Finset.range n, i * z ^ i = 0",
        ] {
            assert_eq!(sensitive(text), None, "{text}");
        }
    }
}
