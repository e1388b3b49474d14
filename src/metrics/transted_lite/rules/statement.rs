//! Rules on the whole statement, applied once before the canonical pass: `autoImplicit`
//! ([`bind_free_variables`]: a name used but never bound gets the binder Lean gives it) and the
//! `R[X]` notation ([`polynomial_notation`]).
//!
//! Owns the tests of which names are free variables and which one-letter names are constants.
//! Does not touch the binder list otherwise (that is `binder_list`).

use super::carriers::UNITAL_RING_CLASSES;
use super::render::render;
use super::rewrite::Applied;
use super::shapes::{
    app_head, auto_bound_binder, binder_list_label, binds_leaf, is_binder_list, is_leaf,
    is_universe, mentions_prefix, node2, EXPLICIT,
};
use crate::elab::scope::{variable_shaped, Letters};
use crate::trees::lean_syntax::concat;
use crate::trees::Tree;

/// autoImplicit: a name the statement uses but never binds is bound by Lean itself, as an
/// implicit binder in front of the others (`autoImplicit`/`relaxedAutoImplicit`, on outside
/// Mathlib). Writing that binder out — `(x : _)`, its type unknown here — makes `… (x : ℕ) …`
/// and a statement leaving `x` to auto-binding differ by the type alone, not by a binder.
/// Only names shaped like variables count (one letter, then digits, subscripts or primes), and
/// not the one-letter constants common `open`s bring in (`π`, `e`; `I`, `X`, `C` where the
/// statement is about complex numbers or polynomials): the parser flags every name it saw
/// bound, so an unflagged variable-shaped leaf is free.
pub(super) fn bind_free_variables(tree: &Tree) -> Option<(Applied, Tree)> {
    let [child] = tree.children.as_slice() else {
        return None;
    };
    let mut free: Vec<String> = Vec::new();
    collect_free_variables(child, &mut free);
    // `X`/`C` are `Polynomial.X`/`Polynomial.C` only about polynomials (`Polynomial R`, `R[X]`),
    // `I` is `Complex.I`
    // only about complex numbers; elsewhere they are the usual type and set variables.
    let constants: &[&str] = match (
        mentions_prefix(tree, "Polynomial") || mentions_prefix(tree, " _ [X]"),
        mentions_prefix(tree, "ℂ") || mentions_prefix(tree, "Complex"),
    ) {
        (true, true) => &["X", "C", "I"],
        (true, false) => &["X", "C"],
        (false, true) => &["I"],
        (false, false) => &[],
    };
    free.retain(|n| !constants.contains(&n.as_str()));
    if free.is_empty() {
        return None;
    }
    let (mut children, concl) = if is_binder_list(tree, child, true) {
        let k = child.children.len() - 1;
        (child.children[..k].to_vec(), child.children[k].clone())
    } else {
        (Vec::new(), child.clone())
    };
    // A name some binder types with a class on `Type u` (`[Group G]`) is a type in a fresh
    // universe, as `{G : Type*}` says; any other is `Sort u` or a term, unknown here.
    let new_binders: Vec<Tree> = free
        .iter()
        .map(|name| {
            if children.iter().any(|b| instance_on_types(b, name)) {
                node2(EXPLICIT, Tree::leaf(name.clone()), Tree::leaf("Type*"))
            } else {
                auto_bound_binder(Tree::leaf(name.clone()))
            }
        })
        .collect();
    children.splice(0..0, new_binders);
    children.push(concl);
    let list = Tree::node(binder_list_label(children.len() - 1), children);
    let applied = Applied { rule: "autoImplicit", at: free.join(" ") };
    Some((applied, Tree::node(tree.label.clone(), vec![list])))
}

/// Classes whose argument is a `Type u` (not a `Sort u`).
const TYPE_CLASSES: [&str; 24] = concat(&[
    &[
        "Group",
        "CommGroup",
        "AddGroup",
        "AddCommGroup",
        "Monoid",
        "CommMonoid",
        "AddMonoid",
        "AddCommMonoid",
    ],
    &UNITAL_RING_CLASSES,
    &[
        "IsDomain",
        "LinearOrder",
        "PartialOrder",
        "Preorder",
        "Lattice",
        "TopologicalSpace",
        "MetricSpace",
        "NormedAddCommGroup",
        "Fintype",
        "Finite",
    ],
]);

/// Is `binder` an instance binder `[C name]` of a class in [`TYPE_CLASSES`]?
fn instance_on_types(binder: &Tree, name: &str) -> bool {
    let ty = match (binder.label.as_str(), binder.children.as_slice()) {
        ("[ _ ]", [ty]) | ("[ _ : _ ]", [_, ty]) => ty,
        _ => return false,
    };
    app_head(ty).is_some_and(|c| TYPE_CLASSES.contains(&c))
        && ty.children.iter().any(|a| is_leaf(a) && a.label == name)
}

fn collect_free_variables(t: &Tree, out: &mut Vec<String>) {
    if is_leaf(t) {
        if !t.variable_freecost
            && !t.hypothesis_freecost
            && is_variable_shaped(&t.label)
            && !out.contains(&t.label)
        {
            out.push(t.label.clone());
        }
        return;
    }
    // `Type u`: a universe level, not a term.
    if is_universe(t) {
        return;
    }
    for c in &t.children {
        collect_free_variables(c, out);
    }
}

/// A variable's name ([`variable_shaped`]), not one Mathlib gives a constant (`π`, `e`, `λ`).
fn is_variable_shaped(name: &str) -> bool {
    const CONSTANTS: [&str; 3] = ["π", "e", "λ"];
    !CONSTANTS.contains(&name) && variable_shaped(name, Letters::AsciiOrGreek)
}

/// Mathlib: `scoped[Polynomial] notation:9000 R "[X]" => Polynomial R`. Called only when no
/// name `X` is bound in the statement, so that ` _ [X]` is not indexing by a variable `X`.
fn polynomial_notation(t: &Tree, log: &mut Vec<Applied>) -> Tree {
    let mut out = t.clone();
    out.children = t.children.iter().map(|c| polynomial_notation(c, log)).collect();
    if out.label == " _ [X]" && out.children.len() == 1 {
        log.push(Applied { rule: "Polynomial (notation R[X])", at: render(t) });
        out.label = "Polynomial _ ".to_string();
    }
    out
}

/// `autoImplicit` as a statement procedure ([`bind_free_variables`]).
pub(super) fn auto_implicit(tree: &Tree) -> Option<(Vec<(&'static str, String)>, Tree)> {
    let (applied, bound) = bind_free_variables(tree)?;
    Some((vec![(applied.rule, applied.at)], bound))
}

/// The `R[X]` notation unfolded over the whole statement ([`polynomial_notation`]), unless the
/// statement binds a name `X` (then ` _ [X]` is indexing by it).
pub(super) fn polynomial(tree: &Tree) -> Option<(Vec<(&'static str, String)>, Tree)> {
    if binds_leaf(tree, "X") {
        return None;
    }
    let mut log = Vec::new();
    let unfolded = polynomial_notation(tree, &mut log);
    let steps = log.into_iter().map(|a| (a.rule, a.at)).collect();
    Some((steps, unfolded))
}
