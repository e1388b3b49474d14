//! Name resolution across a pair: `open N` makes `f` denote `N.f`.
//!
//! Owns the one pair-level step of `transted-lite`: an unqualified name on one side is written
//! out as `N.f` when that side's header opens `N` and the other side names `N.f` itself. Does not
//! rewrite anything else and reads nothing but the two trees and the two headers' `open`s.
//!
//! Why it is sound: the other side writing `N.f` shows that the constant `N.f` exists; under
//! `open N`, `f` is one reading of `f`. Lean keeps every reading (`_root_.f`, `M.f` for another
//! opened `M`) and lets elaboration choose by type, so `f` is `N.f` only where it is the one
//! reading there is: `f` is not a root-level Mathlib name ([`ROOT_NAMES`]: `closure s` under
//! `open Subgroup Set` may be the topological `closure`), and every other namespace the side
//! opens is either notation-only or one whose relevant contents are listed here
//! ([`NAMESPACE_NAMES`]) without `f` (`sqrt` under `open Real Nat` may be `Nat.sqrt`). A
//! namespace not listed may hold `f`: no resolution. Never touches a name the side binds.

use crate::trees::Tree;
use std::collections::HashSet;

/// One resolved name, for the rewrite path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The name as written.
    pub name: String,
    /// The constant it denotes.
    pub qualified: String,
}

/// Qualify the unqualified names of `tree` (whose header opens `opens`) that `other` writes
/// qualified. Returns the rewritten tree and what was resolved, in first-occurrence order.
pub fn resolve_opens(tree: &Tree, opens: &[String], other: &Tree) -> (Tree, Vec<Resolved>) {
    let mut resolved: Vec<Resolved> = Vec::new();
    if opens.is_empty() {
        return (tree.clone(), resolved);
    }
    let mut other_names = HashSet::new();
    collect_heads(other, &mut other_names);
    let mut bound = HashSet::new();
    collect_bound(tree, &mut bound);
    let mut names = Vec::new();
    collect_head_list(tree, &mut names);
    for name in names {
        if name.contains('.') || bound.contains(&name) {
            continue;
        }
        if ROOT_NAMES.contains(&name.as_str()) {
            continue;
        }
        let mut candidates = opens
            .iter()
            .filter(|n| other_names.contains(format!("{n}.{name}").as_str()));
        let (Some(chosen), None) = (candidates.next(), candidates.next()) else {
            continue;
        };
        let another_reading = opens
            .iter()
            .filter(|m| *m != chosen)
            .any(|m| may_hold(m, &name));
        if !another_reading {
            let qualified = format!("{chosen}.{name}");
            resolved.push(Resolved { name, qualified });
        }
    }
    let mut out = tree.clone();
    if !resolved.is_empty() {
        rename_heads(&mut out, &resolved);
    }
    (out, resolved)
}

/// Root-level Mathlib names also common inside namespaces: under an `open`, they stay
/// ambiguous.
const ROOT_NAMES: [&str; 14] = [
    "closure", "interior", "frontier", "deriv", "abs", "max", "min", "id", "gcd", "lcm", "span",
    "range", "card", "dist",
];

/// Namespaces that (in practice) bring only notation: they add no reading of a name.
const NOTATION_ONLY: [&str; 6] = [
    "BigOperators",
    "Topology",
    "Classical",
    "Pointwise",
    "scoped",
    "ComplexConjugate",
];

/// For namespaces often opened beside another, the short names they hold that a statement
/// may write (so that `sqrt` under `open Real Nat` is known ambiguous, `exp` not).
const NAMESPACE_NAMES: [(&str, &[&str]); 7] = [
    (
        "Nat",
        &[
            "sqrt",
            "log",
            "factorial",
            "choose",
            "gcd",
            "lcm",
            "succ",
            "pred",
            "digits",
            "divisors",
            "properDivisors",
            "primeFactors",
            "primeFactorsList",
            "factors",
            "Prime",
            "Coprime",
            "totient",
            "fib",
            "floor",
            "ceil",
            "cast",
            "card",
            "dist",
            "find",
            "min",
            "max",
            "pow",
            "add",
            "sub",
            "mul",
            "div",
            "mod",
            "ModEq",
            "sum",
            "count",
            "nth",
            "clog",
            "size",
            "descFactorial",
            "ascFactorial",
            "Even",
            "Odd",
            "le",
            "lt",
            "ofNat",
            "toFinset",
            "range",
            "Perfect",
            "Primes",
            "sInf",
            "sSup",
            "iterate",
        ],
    ),
    (
        "Real",
        &[
            "sqrt",
            "exp",
            "log",
            "logb",
            "cos",
            "sin",
            "tan",
            "cot",
            "arctan",
            "arcsin",
            "arccos",
            "cosh",
            "sinh",
            "tanh",
            "pi",
            "rpow",
            "nnabs",
            "toNNReal",
            "sign",
            "goldenRatio",
            "cast",
            "sInf",
            "sSup",
            "iInf",
            "iSup",
        ],
    ),
    (
        "Rat",
        &[
            "num",
            "den",
            "floor",
            "ceil",
            "cast",
            "sqrt",
            "divInt",
            "add",
            "mul",
            "inv",
            "sub",
            "div",
            "normalize",
            "ofInt",
            "le",
            "lt",
        ],
    ),
    (
        "Int",
        &[
            "floor", "ceil", "fract", "natAbs", "toNat", "gcd", "lcm", "sqrt", "log", "emod",
            "ediv", "sign", "cast", "ModEq", "Prime", "Even", "Odd", "negSucc", "ofNat", "div",
            "mod", "fdiv", "fmod", "add", "sub", "mul", "pow", "le", "lt", "natMod",
        ],
    ),
    (
        "Complex",
        &[
            "exp",
            "log",
            "abs",
            "re",
            "im",
            "I",
            "cos",
            "sin",
            "tan",
            "cpow",
            "arg",
            "ofReal",
            "normSq",
            "cosh",
            "sinh",
            "conj",
            "cast",
            "sqrt",
            "equivRealProd",
        ],
    ),
    (
        "Finset",
        &[
            "card", "sum", "prod", "range", "filter", "image", "Icc", "Ico", "Ioc", "Ioo",
            "Nonempty", "max", "min", "sup", "inf", "map", "univ", "powerset", "erase", "insert",
            "biUnion", "product", "Iic", "Iio", "Ici", "Ioi",
        ],
    ),
    (
        "Fintype",
        &["card", "elems", "ofFinset", "ofList", "ofEquiv", "complete"],
    ),
];

/// May the opened namespace `m` hold `name`? Notation-only namespaces do not; listed ones
/// only if listed with it; any other may.
fn may_hold(m: &str, name: &str) -> bool {
    if NOTATION_ONLY.contains(&m) {
        return false;
    }
    match NAMESPACE_NAMES.iter().find(|(n, _)| *n == m) {
        Some((_, names)) => names.contains(&name),
        None => true,
    }
}

/// The head name of a label: a leaf's name, or the function of an application `"f _  _ "`.
/// Operator shapes (`" _ + _ "`, `"∀ _ , _ "`) have none.
fn head(t: &Tree) -> Option<&str> {
    let name = if t.children.is_empty() {
        t.label.as_str()
    } else {
        super::rules::app_head(t)?
    };
    let first = name.chars().next()?;
    (first.is_alphabetic()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "._'".contains(c)))
    .then_some(name)
}

fn collect_heads<'t>(t: &'t Tree, out: &mut HashSet<&'t str>) {
    if let Some(h) = head(t) {
        out.insert(h);
    }
    for c in &t.children {
        collect_heads(c, out);
    }
}

fn collect_head_list(t: &Tree, out: &mut Vec<String>) {
    if let Some(h) = head(t) {
        if !t.variable_freecost && !t.hypothesis_freecost && !out.iter().any(|n| n == h) {
            out.push(h.to_owned());
        }
    }
    for c in &t.children {
        collect_head_list(c, out);
    }
}

/// Names the statement binds (the parser flags every bound occurrence).
fn collect_bound(t: &Tree, out: &mut HashSet<String>) {
    if t.children.is_empty() && (t.variable_freecost || t.hypothesis_freecost) {
        out.insert(t.label.clone());
    }
    for c in &t.children {
        collect_bound(c, out);
    }
}

fn rename_heads(t: &mut Tree, resolved: &[Resolved]) {
    if !t.variable_freecost && !t.hypothesis_freecost {
        if let Some(h) = head(t).map(str::to_owned) {
            if let Some(r) = resolved.iter().find(|r| r.name == h) {
                t.label = format!("{}{}", r.qualified, &t.label[h.len()..]);
            }
        }
    }
    for c in &mut t.children {
        rename_heads(c, resolved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trees::parse::{parse_statement, Header};

    fn tree(text: &str) -> Tree {
        parse_statement(text, &Header::default()).unwrap().tree
    }

    fn opens(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn an_opened_name_the_other_side_qualifies_is_resolved() {
        let a =
            tree("theorem t (G : Type*) [Group G] (H : Subgroup G) [Normal H] : Normal (H ⊓ H)");
        let b = tree("theorem t (G : Type*) [Group G] (H : Subgroup G) [Subgroup.Normal H] : True");
        let (out, resolved) = resolve_opens(&a, &opens(&["Fintype", "Subgroup"]), &b);
        assert_eq!(
            resolved,
            vec![Resolved {
                name: "Normal".into(),
                qualified: "Subgroup.Normal".into()
            }]
        );
        assert_eq!(out, tree("theorem t (G : Type*) [Group G] (H : Subgroup G) [Subgroup.Normal H] : Subgroup.Normal (H ⊓ H)"));
        // A leaf constant too.
        let a = tree("theorem t : center G = ⊥");
        let b = tree("theorem t : Subgroup.center G = ⊥");
        let (out, _) = resolve_opens(&a, &opens(&["Subgroup"]), &b);
        assert_eq!(out, b);
    }

    #[test]
    fn unopened_ambiguous_and_bound_names_stay() {
        let b = tree("theorem t : Nat.card G = Fintype.card G");
        // `Nat` not opened: `card` may be `Fintype.card`.
        let a = tree("theorem t : card G = 1");
        assert!(resolve_opens(
            &a,
            &opens(&["Fintype"]),
            &tree("theorem t : Nat.card G = 1")
        )
        .1
        .is_empty());
        // Two opened namespaces both qualify `card` on the other side.
        assert!(resolve_opens(&a, &opens(&["Nat", "Fintype"]), &b)
            .1
            .is_empty());
        // Another reading: a root-level `closure` (topological) beside `Subgroup.closure`.
        let a = tree("theorem t (s : Set G) : closure s = ⊤");
        let b = tree("theorem t (s : Set G) : Subgroup.closure s = ⊤");
        assert!(resolve_opens(&a, &opens(&["Subgroup", "Set"]), &b)
            .1
            .is_empty());
        assert!(resolve_opens(&a, &opens(&["Subgroup"]), &b).1.is_empty());
        // Another opened namespace holds the name too (`Nat.sqrt`), or may (`Foo` unknown).
        let a = tree("theorem t (x : ℝ) : sqrt x = 2");
        let b = tree("theorem t (x : ℝ) : Real.sqrt x = 2");
        assert!(resolve_opens(&a, &opens(&["Real", "Nat"]), &b).1.is_empty());
        assert!(resolve_opens(&a, &opens(&["Real", "Foo"]), &b).1.is_empty());
        // One reading: `exp` is in `Real` only among `Real Nat Topology`.
        let a = tree("theorem t (x : ℝ) : exp x = 2");
        let b = tree("theorem t (x : ℝ) : Real.exp x = 2");
        let (out, _) = resolve_opens(&a, &opens(&["Real", "Nat", "Topology"]), &b);
        assert_eq!(out, b);
        // A name the side binds is its own.
        let a = tree("theorem t (f : ℕ → ℕ) : f 1 = 1");
        let b = tree("theorem t : Nat.f 1 = 1");
        assert!(resolve_opens(&a, &opens(&["Nat"]), &b).1.is_empty());
        // Already qualified names and operators are left alone.
        let a = tree("theorem t : Real.sqrt 4 + 1 = 3");
        assert!(resolve_opens(
            &a,
            &opens(&["Real"]),
            &tree("theorem t : Real.Real.sqrt 4 = 2")
        )
        .1
        .is_empty());
    }
}
