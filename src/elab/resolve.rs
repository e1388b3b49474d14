//! Each free name of a statement written as the declaration it denotes under its header.
//!
//! Owns [`resolve_tree`] (the per-statement pass every rewrite of `transted-lite` starts from)
//! and [`same_meaning`] (whether two statements' names mean the same under their two headers,
//! which every offline verdict asks). A name the statement binds is left alone: in Lean the local
//! context comes before any global (`(π : ℕ)` is a variable, whatever `open Real` says).
//!
//! After the pass, a free name reads as:
//! - the full name of the declaration it resolves to (`sqrt` under `open Real` is `Real.sqrt`,
//!   `π` with `Real`'s notation active is `Real.pi`, `Even` inside `namespace Foo` whose header
//!   declares `Foo.Even` is `Foo.Even`), so that a rule written over `Real.sqrt` fires on it and
//!   on nothing else;
//! - itself with [`UNKNOWN_MARK`] after it when the table cannot tell (`sqrt` under
//!   `open Real Nat`), so that no rule written over a constant matches it;
//! - a factorial `n !` whose `Nat` notation is not in scope is an opaque node (Lean does not read
//!   it as a factorial).

use super::mathlib_names::{ACCEPTS, SIGNATURES};
use super::scope::{Meaning, Scope};
use crate::trees::Tree;
use std::collections::{BTreeSet, HashSet};

/// Appended to a name whose meaning the table cannot tell: no rule's constant matches it.
pub const UNKNOWN_MARK: &str = "⁇";

/// Appended to a name the header declares: no rule's constant matches it, even where the header
/// declares a name Mathlib also has (`def Monotone … := True` at the root, which Lean rejects as
/// already declared): the rules' lemmas are about Mathlib's declarations only.
pub const HEADER_MARK: &str = "†";

/// The label of a factorial node whose notation is not in scope.
pub const UNSCOPED_FACTORIAL: &str = "! (notation not in scope)";

/// The label of an `R[X]` node whose notation is not in scope: without `open Polynomial` (or
/// `open scoped Polynomial`) `ℚ[X]` is indexing `ℚ` by an auto-bound `X`, which does not
/// elaborate, so no rule may read it as `Polynomial ℚ`.
pub const UNSCOPED_POLYNOMIAL: &str = " _ [X] (notation not in scope)";

/// A statement after [`resolve_tree`].
#[derive(Clone, Debug)]
pub struct Resolved {
    pub tree: Tree,
    /// Each name resolved, as written and as read (`sqrt` → `Real.sqrt`), first occurrence order.
    pub resolved: Vec<(String, String)>,
    /// Names whose meaning the table cannot tell, as written.
    pub unknown: BTreeSet<String>,
    /// Names the header declares (full names), and `variable`s of the header the statement uses.
    pub from_header: BTreeSet<String>,
    /// Names a namespace in scope may hold although no table lists them there
    /// ([`Scope::may_be_unlisted`]), as written.
    pub unlisted: BTreeSet<String>,
}

/// The number type elaboration-lite gives a term (`"ℝ"`), when it knows one.
pub type ArgumentType<'a> = &'a dyn Fn(&Tree) -> Option<&'static str>;

/// Resolve every free name of `tree` under `scope`, with no argument types (an overloaded
/// name stays unknown).
pub fn resolve_tree(tree: &Tree, scope: &Scope) -> Resolved {
    resolve_tree_typed(tree, scope, &|_| None)
}

/// Resolve every free name of `tree` under `scope`. An application of a name with several
/// readings (`sqrt x` under `open Real Nat`) is read as the one overload whose argument types
/// can take the arguments, as Lean's overload resolution keeps only the readings that
/// elaborate: with `x : ℝ`, `Nat.sqrt x` does not (there is no coercion from ℝ to ℕ).
pub fn resolve_tree_typed(tree: &Tree, scope: &Scope, argument_type: ArgumentType<'_>) -> Resolved {
    let mut bound = HashSet::new();
    collect_bound(tree, &mut bound);
    let variables = scope.variable_names();
    let mut out = Resolved {
        tree: tree.clone(),
        resolved: Vec::new(),
        unknown: BTreeSet::new(),
        from_header: BTreeSet::new(),
        unlisted: BTreeSet::new(),
    };
    let mut walk = Walk {
        scope,
        argument_type,
        bound: &bound,
        variables: &variables,
        resolved: &mut out.resolved,
        unknown: &mut out.unknown,
        from_header: &mut out.from_header,
    };
    walk.children_first(&mut out.tree, 0);
    out.unlisted = unlisted_names(tree, scope, &bound, &variables);
    out
}

/// The free names of `tree` that [`Scope::may_be_unlisted`] counts.
fn unlisted_names(
    tree: &Tree,
    scope: &Scope,
    bound: &HashSet<String>,
    variables: &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![tree];
    while let Some(t) = stack.pop() {
        stack.extend(t.children.iter());
        if t.variable_freecost || t.hypothesis_freecost {
            continue;
        }
        let Some((name, _)) = name_part(t) else { continue };
        let first = name.split('.').next().unwrap_or(name);
        let free = !bound.contains(name) && !bound.contains(first) && !variables.contains(first);
        // A scoped notation (`𝓝` under `open Topology`) is read by the table of notations.
        let notation = scope.notation(name).is_some();
        if free && !notation && is_identifier(name) && scope.may_be_unlisted(name) {
            out.insert(name.to_string());
        }
    }
    out
}

/// What resolving one tree reads and records.
struct Walk<'a> {
    scope: &'a Scope,
    argument_type: ArgumentType<'a>,
    bound: &'a HashSet<String>,
    variables: &'a BTreeSet<String>,
    resolved: &'a mut Vec<(String, String)>,
    unknown: &'a mut BTreeSet<String>,
    from_header: &'a mut BTreeSet<String>,
}

impl Walk<'_> {
    /// Resolve `t`'s children before `t`, so that an overloaded name applied to them reads
    /// their resolved names (`abs (exp z)` under `open Complex`: `exp` is `Complex.exp`, of
    /// type ℂ, before `abs` is chosen). Below [`CHILDREN_FIRST_DEPTH`] (a degenerate chain such
    /// as `1 + 1 + … + 1`), the rest is resolved parents first, with no recursion.
    fn children_first(&mut self, t: &mut Tree, depth: usize) {
        if depth >= CHILDREN_FIRST_DEPTH {
            let mut stack: Vec<&mut Tree> = vec![t];
            while let Some(t) = stack.pop() {
                self.node(t);
                stack.extend(t.children.iter_mut());
            }
            return;
        }
        for c in &mut t.children {
            self.children_first(c, depth + 1);
        }
        self.node(t);
    }

    fn node(&mut self, t: &mut Tree) {
        if !(t.variable_freecost || t.hypothesis_freecost) {
            relabel(
                t,
                self.scope,
                self.argument_type,
                self.bound,
                self.variables,
                self.resolved,
                self.unknown,
                self.from_header,
            );
        }
    }
}

/// How deep [`Walk::children_first`] recurses: far beyond a real statement's depth, far below
/// what a thread's stack holds.
const CHILDREN_FIRST_DEPTH: usize = 256;

#[allow(clippy::too_many_arguments)]
fn relabel(
    t: &mut Tree,
    scope: &Scope,
    argument_type: ArgumentType<'_>,
    bound: &HashSet<String>,
    variables: &BTreeSet<String>,
    resolved: &mut Vec<(String, String)>,
    unknown: &mut BTreeSet<String>,
    from_header: &mut BTreeSet<String>,
) {
    if t.label == "!" && t.children.len() == 1 {
        // `notation:10000 n "!" => Nat.factorial n` is scoped in `Nat`
        // (Mathlib/Data/Nat/Factorial/Basic.lean).
        if scope.notation("!") != Some("Nat.factorial") {
            t.label = UNSCOPED_FACTORIAL.to_string();
        }
        return;
    }
    if t.label == "ᵀ" && t.children.len() == 1 {
        // `scoped postfix:1024 "ᵀ" => Matrix.transpose` (Mathlib/LinearAlgebra/Matrix/Defs.lean):
        // under `open Matrix` it is the transpose, written out so that it meets
        // `Matrix.transpose A` and `A.transpose`; elsewhere it is left as the token it is.
        if scope.is_modelled() && scope.notation("ᵀ") == Some("Matrix.transpose") {
            t.label = "Matrix.transpose _ ".to_string();
        }
        return;
    }
    if t.label == " _ [X]" && t.children.len() == 1 {
        // `scoped[Polynomial] notation:9000 R "[X]" => Polynomial R`
        // (Mathlib/Algebra/Polynomial/Basic.lean).
        if scope.notation("R[X]") != Some("Polynomial") {
            t.label = UNSCOPED_POLYNOMIAL.to_string();
        }
        return;
    }
    let (name, rest) = match name_part(t) {
        Some(split) => split,
        None => return,
    };
    let first = name.split('.').next().unwrap_or(name);
    if bound.contains(name) || bound.contains(first) {
        // A bound name, or field notation on one (`h.le`, `s.card`).
        return;
    }
    if variables.contains(name) || variables.contains(first) {
        // A `variable` of the header: its type is in the header, which no rule reads, and it is
        // not the statement's to bind (autoImplicit) or substitute.
        from_header.insert(first.to_string());
        t.label = format!("{name}{UNKNOWN_MARK}{rest}");
        return;
    }
    if !scope.is_modelled() && (is_identifier(name) || scope.notation(name).is_some()) {
        // A header construct elaboration-lite does not model (`export`, `alias`, a notation or
        // macro making `sqrt` a token) may give any name another reading: none is read, so that
        // only the same text under the same header compares equal.
        unknown.insert(name.to_string());
        t.label = format!("{name}{UNKNOWN_MARK}{rest}");
        return;
    }
    if scope.namespace_unlisted() && is_identifier(name) && !name.contains('.') {
        // Inside a namespace no table lists in full (`namespace Algebra`, `theorem
        // SimpleGraph.t`), a short name is that namespace's declaration when it has one, before
        // the root and every `open` (lean4 src/Lean/ResolveName.lean, `resolveUsingNamespace`):
        // `norm` may be `Algebra.norm`, `dist` `SimpleGraph.dist`. No rule may read it as the
        // root's; the same text still compares equal under the same header.
        unknown.insert(name.to_string());
        t.label = format!("{name}{UNKNOWN_MARK}{rest}");
        return;
    }
    let meaning = match scope.notation(name) {
        Some(target) => Meaning::Constant(target.to_string()),
        None if is_identifier(name) => match scope.resolve(name) {
            Meaning::Unknown if !t.children.is_empty() => {
                overload_by_arguments(scope, name, &t.children, argument_type)
                    .map_or(Meaning::Unknown, Meaning::Constant)
            }
            meaning => meaning,
        },
        None => return,
    };
    let header = matches!(meaning, Meaning::Header(_));
    let new_name = match meaning {
        Meaning::Constant(full) => full,
        Meaning::Header(full) => {
            from_header.insert(full.clone());
            format!("{full}{HEADER_MARK}")
        }
        Meaning::Unknown => {
            unknown.insert(name.to_string());
            format!("{name}{UNKNOWN_MARK}")
        }
    };
    if new_name != name {
        // The mark is no reading of the name: a name the header declares is listed only when it
        // is written short (`f` for `Foo.f` under `open Foo`).
        let read = new_name.strip_suffix(HEADER_MARK).filter(|_| header).unwrap_or(&new_name);
        if read != name && !resolved.iter().any(|(w, _)| w == name) {
            resolved.push((name.to_string(), read.to_string()));
        }
        t.label = format!("{new_name}{rest}");
    }
}

/// The one overload of `name` whose signature ([`SIGNATURES`]) can take `arguments`, when
/// every other one cannot: an argument of known number type `A` goes to a parameter of number
/// type `D` only when `A` coerces to `D` (ℕ → ℤ → ℚ → ℝ → ℂ). A reading with no known
/// signature, or an argument of unknown type, excludes nothing.
fn overload_by_arguments(
    scope: &Scope,
    name: &str,
    arguments: &[Tree],
    argument_type: ArgumentType<'_>,
) -> Option<String> {
    const LADDER: [&str; 5] = ["ℕ", "ℤ", "ℚ", "ℝ", "ℂ"];
    let rank = |t: &str| LADDER.iter().position(|l| *l == t);
    let candidates = scope.overloads(name)?;
    let types: Vec<Option<&str>> = arguments.iter().map(argument_type).collect();
    let viable: Vec<&String> = candidates
        .iter()
        .filter(|c| {
            if let Some((_, accepted)) = ACCEPTS.iter().find(|(n, _)| n == c) {
                return types.iter().all(|t| t.is_none_or(|t| accepted.contains(&t)));
            }
            let Some((_, signature)) = SIGNATURES.iter().find(|(n, _)| n == c) else {
                return true;
            };
            let domains: Vec<&str> = signature.split('→').map(str::trim).collect();
            types.iter().zip(&domains).all(|(arg, domain)| {
                match (arg.and_then(rank), rank(domain)) {
                    (Some(a), Some(d)) => a <= d,
                    _ => true,
                }
            })
        })
        .collect();
    match viable.as_slice() {
        [one] => Some(one.to_string()),
        _ => None,
    }
}

/// The name a node carries and the rest of its label: a leaf's whole label, or an
/// application's head (`"f _  _ "` is `f` and `" _  _ "`).
fn name_part(t: &Tree) -> Option<(&str, &str)> {
    if t.children.is_empty() {
        return Some((t.label.as_str(), ""));
    }
    let rest = " _ ".repeat(t.children.len());
    let head = t.label.strip_suffix(rest.as_str())?;
    (!head.is_empty() && !head.contains(char::is_whitespace))
        .then(|| (head, &t.label[head.len()..]))
}

/// A Lean name (`x`, `Real.sqrt`, `n!`), not a numeral, a symbol or a written type (`ℝ`).
fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|part| {
            let mut chars = part.chars();
            chars.next().is_some_and(|c| c == '_' || c.is_alphabetic() || c == '«')
        })
        && !matches!(s, "ℕ" | "ℤ" | "ℚ" | "ℝ" | "ℂ" | "Prop" | "Type" | "Sort" | "True" | "False")
        // A universe written `Type*`, `Sort _`, and keywords a span may leave as a leaf.
        && !s.contains(['*', ' '])
        && !matches!(s, "in" | "fun" | "at" | "from" | "then" | "else" | "if" | "let" | "have" | "show" | "by" | "do" | "with" | "match")
}

/// Names the statement binds (the parser flags every bound occurrence).
fn collect_bound(t: &Tree, out: &mut HashSet<String>) {
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        if t.children.is_empty() && (t.variable_freecost || t.hypothesis_freecost) {
            out.insert(t.label.clone());
        }
        stack.extend(t.children.iter());
    }
}

/// Why two statements, each resolved under its own header, may not mean the same even where
/// their trees are the same: empty when their names mean the same. Under headers that read every
/// text alike ([`Scope::same_as`]) nothing can differ; otherwise every name must resolve to a
/// declaration the table knows, a header declaration the other header makes in the same words,
/// and neither header may hold a construct elaboration-lite does not model.
pub fn same_meaning(
    reference: &Resolved,
    reference_scope: &Scope,
    candidate: &Resolved,
    candidate_scope: &Scope,
) -> Vec<String> {
    if reference_scope.same_as(candidate_scope) {
        return Vec::new();
    }
    let mut reasons = Vec::new();
    for (side, scope) in [("reference", reference_scope), ("candidate", candidate_scope)] {
        if let Some(command) = scope.unmodelled.first() {
            reasons.push(format!(
                "the {side}'s header has `{}`, which elaboration-lite does not model, and the headers differ",
                shorten(command)
            ));
        }
    }
    if reference_scope.variables_apart() != candidate_scope.variables_apart() {
        // A `variable [Add ℕ]` is a local instance of every declaration after it (Lean
        // includes instance variables whose own variables are included), whether or not the
        // statement names it: it may change what `+` means.
        let instance = reference_scope
            .variables_apart()
            .iter()
            .chain(candidate_scope.variables_apart())
            .find(|v| v.contains('['));
        if let Some(command) = instance {
            reasons.push(format!(
                "the headers differ, and `{}` may give a local instance to one statement only",
                shorten(command)
            ));
        } else {
            // Not written into the statement (`metrics::section_variables` refused): a use it
            // cannot see (inside `show … from x`) may be of either header's variable.
            let command = reference_scope
                .variables_apart()
                .iter()
                .chain(candidate_scope.variables_apart())
                .next();
            if let Some(command) = command {
                reasons.push(format!(
                    "the headers' `variable`s differ (`{}`) and could not be written into the statements",
                    shorten(command)
                ));
            }
        }
    }
    if reference_scope.options != candidate_scope.options {
        let all: Vec<&String> =
            reference_scope.options.iter().chain(&candidate_scope.options).collect();
        reasons.push(format!(
            "the headers set options that change elaboration differently (`{}`)",
            shorten(all[0])
        ));
    }
    let unlisted: BTreeSet<&String> =
        reference.unlisted.iter().chain(&candidate.unlisted).collect();
    if !unlisted.is_empty() {
        let names: Vec<String> = unlisted.iter().map(|n| format!("`{n}`")).collect();
        reasons.push(format!(
            "{} may be a declaration of a namespace a header opens or is in, which the table of Mathlib's names does not list in full",
            names.join(", ")
        ));
    }
    let unknown: BTreeSet<&String> = reference.unknown.iter().chain(&candidate.unknown).collect();
    if !unknown.is_empty() {
        let names: Vec<String> = unknown.iter().map(|n| format!("`{n}`")).collect();
        reasons.push(format!(
            "{} may mean different things under the two headers (the table of Mathlib's names cannot tell)",
            names.join(", ")
        ));
    }
    for (side, mine) in [("reference", reference), ("candidate", candidate)] {
        for name in &mine.from_header {
            // The headers differ, so even the same words may declare something else: what they
            // say depends on the `open`s, `variable`s and declarations before them.
            let reason = format!(
                "the {side}'s header declares `{name}`, which the statements use, and the headers differ"
            );
            if !reasons.contains(&reason) {
                reasons.push(reason);
            }
        }
    }
    reasons
}

fn shorten(text: &str) -> String {
    let mut s: String = text.chars().take(60).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trees::parse::{parse_statement, Header};

    fn resolved(header: &str, text: &str) -> Resolved {
        let s = parse_statement(text, &Header::parse(header)).expect("parses");
        resolve_tree(&s.tree, &Scope::read(header))
    }

    fn labels(t: &Tree, out: &mut Vec<String>) {
        out.push(t.label.clone());
        for c in &t.children {
            labels(c, out);
        }
    }

    fn has_label(r: &Resolved, label: &str) -> bool {
        let mut all = Vec::new();
        labels(&r.tree, &mut all);
        all.iter().any(|l| l == label)
    }

    #[test]
    fn free_names_are_written_in_full_and_bound_ones_left_alone() {
        let r = resolved("open Real", "theorem t (x : ℝ) : sqrt x = 2 ∧ 3 < π");
        assert!(has_label(&r, "Real.sqrt _ "), "{:?}", r.tree);
        assert!(has_label(&r, "Real.pi"));
        // A binder named like a constant is a variable.
        let r = resolved("open Real", "theorem t (π : ℕ) (exp : ℕ → ℕ) : exp π = 3");
        assert!(has_label(&r, "π") && has_label(&r, "exp _ "), "{:?}", r.tree);
        assert!(!has_label(&r, "Real.pi") && !has_label(&r, "Real.exp _ "));
        // `π` without `Real`'s notation is a name like any other.
        let r = resolved("", "theorem t : 3 < π");
        assert!(!has_label(&r, "Real.pi"));
        // Ambiguous: marked, so no rule over `Real.sqrt` or `Nat.sqrt` matches.
        let r = resolved("open Real Nat", "theorem t (x : ℕ) : sqrt x = 2");
        assert!(has_label(&r, "sqrt⁇ _ "), "{:?}", r.tree);
        assert_eq!(r.unknown.iter().collect::<Vec<_>>(), ["sqrt"]);
    }

    #[test]
    fn an_overload_is_chosen_only_where_the_others_cannot_take_the_arguments() {
        let header = "open Real Nat";
        let s =
            parse_statement("theorem t (x : ℝ) (n : ℕ) : sqrt x = sqrt n", &Header::parse(header))
                .expect("parses");
        let types = |t: &Tree| match t.label.as_str() {
            "x" => Some("ℝ"),
            "n" => Some("ℕ"),
            _ => None,
        };
        let r = resolve_tree_typed(&s.tree, &Scope::read(header), &types);
        // `Nat.sqrt x` cannot elaborate with `x : ℝ`; both readings of `sqrt n` can.
        assert!(has_label(&r, "Real.sqrt _ "), "{:?}", r.tree);
        assert!(has_label(&r, "sqrt⁇ _ "), "{:?}", r.tree);
        // Without types, nothing is chosen.
        let r = resolve_tree(&s.tree, &Scope::read(header));
        assert!(!has_label(&r, "Real.sqrt _ "));
    }

    #[test]
    fn scoped_notations_are_read_only_where_opened() {
        let r = resolved("open Topology", "theorem t (f : ℕ → ℝ) : Tendsto f atTop (𝓝 0)");
        assert!(has_label(&r, "nhds _ "), "{:?}", r.tree);
        let r = resolved("", "theorem t (f : ℕ → ℝ) : Tendsto f atTop (𝓝 0)");
        assert!(!has_label(&r, "nhds _ "), "{:?}", r.tree);
        let r = resolved("open scoped Real", "theorem t : 3 < π");
        assert!(has_label(&r, "Real.pi"));
        let r = resolved("open scoped Nat", "theorem t : 3 < π");
        assert!(!has_label(&r, "Real.pi"));
    }

    #[test]
    fn factorial_notation_needs_open_nat() {
        let r = resolved("open Nat", "theorem t (n : ℕ) : n ! = 6");
        assert!(has_label(&r, "!"));
        let r = resolved("", "theorem t (n : ℕ) : n ! = 6");
        assert!(has_label(&r, UNSCOPED_FACTORIAL) && !has_label(&r, "!"));
    }

    #[test]
    fn transpose_notation_is_the_transpose_under_open_matrix() {
        let text = "theorem t (A : Matrix (Fin 2) (Fin 2) ℝ) : Aᵀ = A";
        assert!(has_label(&resolved("open Matrix", text), "Matrix.transpose _ "));
        let r = resolved("", text);
        assert!(has_label(&r, "ᵀ") && !has_label(&r, "Matrix.transpose _ "));
    }

    #[test]
    fn polynomial_notation_needs_open_polynomial() {
        for header in ["open Polynomial", "open scoped Polynomial", "open Real Polynomial"] {
            let r = resolved(header, "theorem t (p : ℚ[X]) : p = p");
            assert!(has_label(&r, " _ [X]"), "{header}");
        }
        let r = resolved("open Real", "theorem t (p : ℚ[X]) : p = p");
        assert!(has_label(&r, UNSCOPED_POLYNOMIAL) && !has_label(&r, " _ [X]"));
    }

    #[test]
    fn names_agree_when_they_resolve_alike() {
        let a = "open Real";
        let b = "open Nat";
        let (ra, rb) = (
            resolved(a, "theorem t (x : ℝ) : exp x = 1"),
            resolved(b, "theorem t (x : ℝ) : Real.exp x = 1"),
        );
        assert!(same_meaning(&ra, &Scope::read(a), &rb, &Scope::read(b)).is_empty());
        // Unknown under differing headers: a reason naming it.
        let c = "open Real Nat";
        let rc = resolved(c, "theorem t (x : ℕ) : sqrt x = 2");
        let reasons = same_meaning(&rc, &Scope::read(c), &rc, &Scope::read(b));
        assert!(reasons.iter().any(|r| r.contains("`sqrt`")), "{reasons:?}");
        // The same header: nothing can differ.
        assert!(same_meaning(&rc, &Scope::read(c), &rc, &Scope::read(c)).is_empty());
        // A header variable used on one side only.
        let v = "variable (x : ℝ)";
        let rv = resolved(v, "theorem t : x ^ 2 ≥ 0");
        let rn = resolved("", "theorem t : x ^ 2 ≥ 0");
        assert!(!same_meaning(&rv, &Scope::read(v), &rn, &Scope::read("")).is_empty());
    }
}
