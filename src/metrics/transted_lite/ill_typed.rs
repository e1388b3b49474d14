//! Terms Lean rejects that elaboration-lite can see: a side with one does not elaborate, and
//! a side that does not elaborate is never equivalent (docs/soundness.md), whatever rewrites
//! make of it. Untyped rules (`eq_comm`, `add_comm`) would otherwise close two such sides.
//!
//! Owns [`rejected`]: numerals outside their relation's type (`-1` among naturals, `2.5` among
//! integers), casts down the number tower (`(x : ℕ)` with `x : ℝ`), real functions of complex
//! numbers, orders and `|·|`, `⌊·⌋` where the type has none, number functions given a larger
//! number than their parameter, a `Set` where a `Finset` is needed, and a filter whose predicate
//! binds another type than its finset's. Only clear cases: an unknown type rejects nothing.
//! Reads trees only; rewrites nothing.

use super::rules;
use super::rules::elab::{self, Num, Ty};
use super::rules::Carriers;
use crate::elab::scope::Scope;
use crate::trees::Tree;

/// What a statement's header opens that this module reads: `ComplexOrder`, whose scoped
/// instances order ℂ (Mathlib/Analysis/Complex/Order.lean), and `Nat`, whose scoped notation
/// is `n !`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Opened {
    pub complex_order: bool,
    pub nat: bool,
}

impl Opened {
    /// Read from a header's scope: the namespaces whose scoped instances and notations are
    /// active (`open X`, `open scoped X`; [`Scope::scoped`]).
    pub fn of(scope: &Scope) -> Opened {
        let active = |ns: &str| scope.scoped.iter().any(|s| s == ns);
        Opened { complex_order: active("ComplexOrder"), nat: active("Nat") }
    }
}

/// Why Lean rejects `tree`, if elaboration-lite can see it.
pub fn rejected(tree: &Tree, opened: Opened) -> Option<String> {
    let carriers = Carriers::of(tree);
    let mut found = None;
    outside_at(tree, &carriers, &mut found, 0);
    if found.is_none() {
        rejected_at(tree, &carriers, opened, &mut found, 0);
    }
    found.map(|what| format!("{what}: that side does not elaborate, so it is never equivalent"))
}

/// A scoped notation used where its namespace is not open, in a tree as written (name
/// resolution reads the notation as its function): `n !` is `Nat.factorial`'s notation, scoped
/// to `Nat` (Mathlib/Data/Nat/Factorial/Basic.lean), and does not parse without `open Nat`.
pub fn unopened_notation(tree: &Tree, opened: Opened) -> Option<String> {
    fn find(t: &Tree, depth: usize) -> Option<&Tree> {
        if depth > 400 {
            return None;
        }
        if t.label == "!" && t.children.len() == 1 {
            return Some(t);
        }
        t.children.iter().find_map(|ch| find(ch, depth + 1))
    }
    let at = find(tree, 0).filter(|_| !opened.nat)?;
    Some(format!(
        "`{}`: the `!` notation needs `open Nat`: that side does not elaborate, so it is never equivalent",
        rules::render(at)
    ))
}

fn rejected_at(t: &Tree, c: &Carriers, opened: Opened, found: &mut Option<String>, depth: usize) {
    if found.is_some() || depth > 400 {
        return;
    }
    let ty = |e: &Tree| elab::type_of(e, c);
    let render = |e: &Tree| rules::render(e);
    let complex_order = opened.complex_order;
    let label = t.label.as_str();
    match (label, t.children.as_slice()) {
        // No coercion goes down the tower ℕ ⊂ ℤ ⊂ ℚ ⊂ ℝ ⊂ ℂ.
        ("( _ : _ )", [e, target]) => {
            if let (Some(to), Ty::Num(from)) = (elab::num_of_type(target), ty(e)) {
                if elab::rank(from) > elab::rank(to) {
                    *found =
                        Some(format!("`{}` casts a {from:?} number down to {to:?}", render(t)));
                }
            }
        }
        // `|·|` needs a lattice and a negation (`abs`, Mathlib/Algebra/Order/Group/Abs.lean):
        // ℕ has no `Neg`, ℂ no lattice; `⌊·⌋`/`⌈·⌉` need a `FloorRing`, which ℂ is not.
        ("| _ |", [e])
            if matches!(ty(e), Ty::Num(Num::Nat | Num::Complex)) && !is_numeral_only(e) =>
        {
            *found = Some(format!("`{}`: no absolute value at that type", render(t)));
        }
        // `√` is `Real.sqrt` (Mathlib/Data/Real/Sqrt.lean, `prefix:max "√" => Real.sqrt`).
        ("√", [e]) if ty(e) == Ty::Num(Num::Complex) => {
            *found = Some(format!("`{}`: Real.sqrt takes a real, not a complex number", render(t)));
        }
        // `Finset.filter (p : α → Prop) (s : Finset α)`: a predicate on another type.
        ("Finset.filter _  _ ", [f, s]) => {
            if let ("fun _ => _ ", [binder, _]) = (f.label.as_str(), f.children.as_slice()) {
                if let (" _ : _ ", [_, written]) =
                    (binder.label.as_str(), binder.children.as_slice())
                {
                    let differs = |element: Tree| match (
                        elab::num_of_type(&element),
                        elab::num_of_type(written),
                    ) {
                        (Some(a), Some(b)) => a != b,
                        _ => element != *written,
                    };
                    if rules::element_type(s, c).is_some_and(differs) {
                        *found = Some(format!(
                            "`{}`: the predicate's type is not the finset's elements'",
                            render(t)
                        ));
                    }
                }
            }
        }
        // `max`/`min` need a linear order (`Max ℂ` is none); `Fintype` of an infinite number
        // type and `Finset` intervals off ℕ/ℤ (`LocallyFiniteOrder`) do not exist.
        ("max _  _ " | "min _  _ ", [a, b])
            if elab::carrier(&[a, b], c) == Some(Num::Complex)
                && !c.binds(label.split(' ').next().unwrap_or_default()) =>
        {
            *found = Some(format!("`{}`: ℂ has no linear order", render(t)));
        }
        ("Fintype.card _ ", [ty_arg])
            if elab::num_of_type(ty_arg).is_some() && !c.binds("Fintype.card") =>
        {
            *found = Some(format!("`{}`: an infinite type has no `Fintype`", render(t)));
        }
        (
            "Finset.Icc _  _ " | "Finset.Ico _  _ " | "Finset.Ioc _  _ " | "Finset.Ioo _  _ ",
            [_, _],
        ) if rules::element_type(t, c).is_some_and(|e| {
            matches!(elab::num_of_type(&e), Some(Num::Rat | Num::Real | Num::Complex))
        }) =>
        {
            *found = Some(format!("`{}`: no finite intervals on that type", render(t)));
        }
        // `a ≡ b [MOD n]` is `Nat.ModEq n a b` (Mathlib/Data/Nat/ModEq.lean): naturals only.
        (" _ ≡ _ [MOD _ ]", args)
            if args.iter().any(|a| matches!(ty(a), Ty::Num(n) if n != Num::Nat)) =>
        {
            *found = Some(format!("`{}`: `[MOD n]` compares naturals", render(t)));
        }
        ("⌊ _ ⌋" | "⌈ _ ⌉", [e]) if ty(e) == Ty::Num(Num::Complex) => {
            *found = Some(format!("`{}`: ℂ has no floor or ceiling", render(t)));
        }
        // A name of a bare type variable against a number: no coercion either way.
        (" _ = _ " | " _ ≠ _ ", [a, b])
            if [(a, b), (b, a)].iter().any(|(x, n)| {
                x.children.is_empty()
                    && c.name_type(&x.label)
                        .is_some_and(|ty| ty.children.is_empty() && c.bare_type_variable(&ty.label))
                    && matches!(ty(n), Ty::Num(_))
            }) =>
        {
            *found = Some(format!("`{}`: a term of a bare type against a number", render(t)));
        }
        // ℂ is ordered only under `open ComplexOrder`.
        (" _ < _ " | " _ ≤ _ " | " _ > _ " | " _ ≥ _ ", [a, b])
            if !complex_order && elab::carrier(&[a, b], c) == Some(Num::Complex) =>
        {
            *found = Some(format!("`{}`: ℂ has no order", render(t)));
        }
        _ => {
            if let Some(head) = rules::app_head(t).filter(|h| !c.binds(h)) {
                for (i, arg) in t.children.iter().enumerate() {
                    let (Some(want), Ty::Num(got)) = (elab::parameter_type(head, i), ty(arg))
                    else {
                        continue;
                    };
                    if elab::rank(got) > elab::rank(want) {
                        *found = Some(format!(
                            "`{}`: {head} takes a {want:?} number, not a {got:?} one",
                            render(t)
                        ));
                    }
                }
                // A `Set` where a `Finset` is asked for: no coercion.
                if ["Finset.card", "Finset.sum", "Finset.prod"].contains(&head)
                    && t.children.first().is_some_and(|s| written_set(s, c))
                {
                    *found = Some(format!("`{}`: a `Set` is no `Finset`", render(t)));
                }
            }
            if (label.starts_with('∑') || label.starts_with('∏')) && t.children.len() == 3 {
                if let ("∈ _ ", [s]) =
                    (t.children[1].label.as_str(), t.children[1].children.as_slice())
                {
                    if written_set(s, c) {
                        *found = Some(format!("`{}`: a big operator over a `Set`", render(t)));
                    }
                }
            }
        }
    }
    for ch in &t.children {
        rejected_at(ch, c, opened, found, depth + 1);
    }
}

/// A name bound with written type `Set _`.
fn written_set(s: &Tree, c: &Carriers) -> bool {
    s.children.is_empty() && c.name_type(&s.label).is_some_and(|ty| ty.label == "Set _ ")
}

fn is_numeral_only(t: &Tree) -> bool {
    if t.children.is_empty() {
        return rules::literal_value(t).is_some();
    }
    t.children.iter().all(is_numeral_only)
}

/// A relation whose arithmetic (`binop%`/`binrel%`, one tree with both operands) is elaborated
/// at ℕ by a leaf of written type ℕ, yet holds a negation (`-1`: ℕ has no `Neg`), or at ℕ or ℤ
/// and holds a decimal (`2.5`: no `OfScientific ℕ`/`ℤ`; Mathlib's instance needs a division
/// ring). Lean rejects that side, and a side that does not elaborate is never equivalent
/// (docs/soundness.md), whatever the rewrites show.
fn outside_at(t: &Tree, c: &Carriers, found: &mut Option<String>, depth: usize) {
    if found.is_some() || depth > 400 {
        return;
    }
    if let (true, [a, b]) = (rules::COMPARISONS.contains(&t.label.as_str()), t.children.as_slice())
    {
        let mut leaves = Vec::new();
        let mut negated = false;
        for side in [a, b] {
            tree_leaves(side, &mut leaves, &mut negated, 0);
        }
        let mut exponents = Vec::new();
        for side in [a, b] {
            tree_exponents(side, &mut exponents, 0);
        }
        // `binop%` elaborates the tree at the largest of its leaves' types.
        let written =
            leaves.iter().filter(|l| !is_decimal(l)).try_fold(Ty::Numeral, |acc, l| {
                match (acc, elab::type_of(l, c)) {
                    (Ty::Unknown, _) | (_, Ty::Unknown) => None,
                    (Ty::Num(m), Ty::Num(n)) => {
                        Some(Ty::Num(if elab::rank(n) > elab::rank(m) { n } else { m }))
                    }
                    (x, Ty::Numeral) | (Ty::Numeral, x) => Some(x),
                }
            });
        let written = written.unwrap_or(Ty::Unknown);
        let decimal = leaves.iter().find(|l| is_decimal(l));
        // `rightact%`: the base is at the relation's type, the exponent alone. A real or
        // complex exponent needs `Real.rpow`/`Complex.cpow`'s base (Mathlib/Analysis/
        // SpecialFunctions/Pow/Real.lean, Complex.lean); ℕ, ℤ and ℚ have no `HPow _ ℝ _`.
        let real_exponent = exponents
            .iter()
            .find(|e| matches!(elab::type_of(e, c), Ty::Num(Num::Real | Num::Complex)));
        match written {
            Ty::Num(n @ (Num::Nat | Num::Int | Num::Rat)) if real_exponent.is_some() => {
                *found = Some(format!(
                    "the power by `{}` in `{}`, a relation of {}",
                    real_exponent.map_or(String::new(), |e| rules::render(e)),
                    rules::render(t),
                    elab::type_name(n)
                ));
            }
            Ty::Num(Num::Nat) if negated => {
                *found =
                    Some(format!("a negation in `{}`, a relation of naturals", rules::render(t)));
            }
            Ty::Num(n @ (Num::Nat | Num::Int)) if decimal.is_some() => {
                let at = if n == Num::Nat { "naturals" } else { "integers" };
                *found = Some(format!(
                    "the decimal `{}` in `{}`, a relation of {at}",
                    decimal.map_or(String::new(), |d| d.label.clone()),
                    rules::render(t)
                ));
            }
            _ => {}
        }
    }
    for ch in &t.children {
        outside_at(ch, c, found, depth + 1);
    }
}

/// The leaves of the arithmetic tree `t` (`binop%`: `+ - * / %`, negation, a power's base),
/// noting whether a negation is among its nodes.
fn tree_leaves<'t>(t: &'t Tree, out: &mut Vec<&'t Tree>, negated: &mut bool, depth: usize) {
    let operands = match (t.label.as_str(), t.children.as_slice()) {
        (" _ % _ ", [_, _]) => Some(&t.children[..]),
        _ => elab::same_tree_operands(t),
    };
    match operands {
        Some(operands) if depth < 200 => {
            *negated |= t.label == "-" && t.children.len() == 1;
            for x in operands {
                tree_leaves(x, out, negated, depth + 1);
            }
        }
        _ => out.push(t),
    }
}

/// The exponents of the powers in the arithmetic tree `t` (each elaborated alone).
fn tree_exponents<'t>(t: &'t Tree, out: &mut Vec<&'t Tree>, depth: usize) {
    if depth > 200 {
        return;
    }
    if let (" _ ^ _ ", [_, exponent]) = (t.label.as_str(), t.children.as_slice()) {
        out.push(exponent);
    }
    let operands = match (t.label.as_str(), t.children.as_slice()) {
        (" _ % _ ", [_, _]) => Some(&t.children[..]),
        _ => elab::same_tree_operands(t),
    };
    for x in operands.unwrap_or_default() {
        tree_exponents(x, out, depth + 1);
    }
}

/// A scientific literal (`2.5`, `0.25`).
fn is_decimal(t: &Tree) -> bool {
    t.children.is_empty()
        && t.label.contains('.')
        && t.label.chars().all(|ch| ch.is_ascii_digit() || ch == '.')
        && t.label.chars().next().is_some_and(|ch| ch.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trees::parse::{parse_statement, Header};

    fn rejects(text: &str) -> bool {
        let tree = parse_statement(text, &Header::default()).expect("parses").tree;
        rejected(&tree, Opened::default()).is_some()
    }

    #[test]
    fn terms_lean_rejects_are_seen() {
        for text in [
            "theorem t (x : ℕ) : x ≠ -1",
            "theorem t (a b : ℕ) : a - (b : ℤ) < 0.5",
            "theorem t (x : ℝ) : (x : ℕ) + 1 = 2",
            "theorem t (z : ℂ) : Real.sqrt z = 1",
            "theorem t (z : ℂ) : √z + 1 = 2",
            "theorem t (z w : ℂ) : z < w",
            "theorem t (z : ℂ) : |z| = 1",
            "theorem t (a b : ℕ) : |a - b| = 1",
            "theorem t (x : ℝ) : Nat.gcd x 2 = 1",
            "theorem t (S : Set ℕ) : Finset.card S = 1",
            "theorem t (S : Set ℕ) : ∑ x ∈ S, x = 1",
            "theorem t : (Finset.filter (fun x : ℝ => x = 1) (Finset.range 10)).card = 1",
            "theorem t : Fintype.card ℝ = 1",
            "theorem t (z w : ℂ) : max z w = z",
            "theorem t : (Finset.Icc (0 : ℝ) 1).card = 1",
            "theorem t (a b : ℤ) : a ≡ b [MOD 3]",
            "theorem t (β : Type*) (y : β) : y = (0 : ℕ)",
            "theorem t (a b : ℕ) (r : ℝ) : (a : ℤ) - b = 2 ^ r",
        ] {
            assert!(rejects(text), "{text}");
        }
    }

    #[test]
    fn terms_lean_accepts_are_not() {
        for text in [
            "theorem t (x : ℤ) : x ≠ -1",
            "theorem t (x : ℝ) : x < 2.5",
            "theorem t (n : ℕ) : (n : ℝ) + 1 = 2",
            "theorem t (x : ℝ) : x % 2 = 0",
            "theorem t (z : ℂ) : Complex.abs z = 1",
            "theorem t (x : ℝ) : |x| = 1",
            "theorem t (n : ℕ) : Nat.gcd n 2 = 1",
            "theorem t (S : Finset ℕ) : Finset.card S = 1",
            "theorem t : (Finset.filter (fun x : ℕ => x = 1) (Finset.range 10)).card = 1",
            "theorem t : (Finset.filter (fun x : Nat => x = 1) (Finset.range 10)).card = 1",
            "theorem t (x y : ℝ) : max x y = x",
            "theorem t : (Finset.Icc (0 : ℤ) 1).card = 2",
            "theorem t (a b : ℕ) : a ≡ b [MOD 3]",
            "theorem t (β : Type*) [NatCast β] (y : β) : y = (0 : ℕ)",
            "theorem t (x r : ℝ) (n : ℕ) : x = 2 ^ r + n",
            "theorem t (n k : ℕ) : n = 2 ^ k",
        ] {
            assert!(!rejects(text), "{text}");
        }
        let tree = parse_statement("theorem t (z w : ℂ) : z < w", &Header::default())
            .expect("parses")
            .tree;
        let opened = Opened::of(&Scope::read("import Mathlib\nopen ComplexOrder"));
        assert!(rejected(&tree, opened).is_none(), "ordered under `open ComplexOrder`");
    }

    #[test]
    fn the_factorial_notation_needs_open_nat() {
        let tree = parse_statement("theorem t (n : ℕ) : n ! = 2", &Header::default())
            .expect("parses")
            .tree;
        assert!(unopened_notation(&tree, Opened::default()).is_some());
        assert!(unopened_notation(&tree, Opened::of(&Scope::read("open Real Nat"))).is_none());
        assert!(unopened_notation(&tree, Opened::of(&Scope::read("open scoped Nat"))).is_none());
    }
}
