//! Name resolution across a pair: `open N` makes `f` denote `N.f`.
//!
//! Owns the one pair-level step of `transted-lite`: an unqualified name on one side is written
//! out as `N.f` when that side's header opens `N` and the other side names `N.f` itself. Does not
//! rewrite anything else and reads nothing but the two trees and the two headers' `open`s.
//!
//! Why it is sound (up to Lean's overload resolution): both statements elaborate. The other side
//! writing `N.f` shows that the constant `N.f` exists; under `open N`, `f` then resolves to `N.f`
//! — a root `f` or another opened `M.f` that also fits would make `f` ambiguous, and the
//! statement would not elaborate. The step is skipped when two opened namespaces of the side
//! both qualify `f` on the other side (`card` against `Nat.card` and `Fintype.card`), and never
//! touches a name the side binds itself.

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
        let mut candidates = opens
            .iter()
            .map(|n| format!("{n}.{name}"))
            .filter(|q| other_names.contains(q.as_str()));
        if let (Some(qualified), None) = (candidates.next(), candidates.next()) {
            resolved.push(Resolved { name, qualified });
        }
    }
    let mut out = tree.clone();
    if !resolved.is_empty() {
        rename_heads(&mut out, &resolved);
    }
    (out, resolved)
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
