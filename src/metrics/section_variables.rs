//! The header's `variable`s Lean makes binders of a theorem, written into its statement.
//!
//! Owns [`close_over`]: a `theorem` (or `lemma`) under `variable {G : Type*} [Group G]` is, in
//! Lean, `∀ {G : Type*} [Group G], …` for the variables it takes, so a statement written with its
//! binders and one written under `variable`s compare as the one statement they are. Which
//! variables a theorem takes is lean4 `src/Lean/Elab/MutualDef.lean`, `withHeaderSecVars`
//! (applied to the final closure of every theorem unless `deprecated.oldSectionVars` is set):
//! - the variables its header references;
//! - those `include`d (a command elaboration-lite does not model, so a header with one is never
//!   closed over here);
//! - the variables the types of those reference, transitively;
//! - each instance-implicit variable whose type references only variables already taken, in
//!   order (`[Group G]` goes with `G`; `[Mul ℕ]`, referencing none, goes always).
//!
//! A hypothesis variable the statement does not name (`variable (hx : 0 < x)`) is not taken,
//! however much the statement needs it. The binders come first, in their declaration order.
//! `example`s take the variables their elaborated header and proof use (`withUsed`), which a
//! statement's text cannot tell: they are left alone.
//!
//! Where the text cannot show what Lean references, nothing is closed over and the header's
//! variables stay a header difference (the caller's guard): a variable name bound again inside
//! the statement or a variable's type, a name a variable's type leaves to auto-binding, a
//! binder update (`variable {G}`), a default value, a proof term, a notation, an `open` or
//! `namespace` after a `variable` (its types were read under other names), a command
//! elaboration-lite does not model.
//!
//! Reads statements and header text; does not resolve names (that is `elab::resolve`, run after)
//! and touches no other header command.

use super::has_proof_term;
use super::transted_lite::rules;
use crate::elab::scope::{variable_shaped, Letters, Scope};
use crate::trees::parse::{parse_statement, Header};
use crate::trees::{Statement, Tree};
use std::collections::BTreeSet;

/// One binder of a `variable` command: `(x : ℝ)`, `{G : Type*}`, `[Group G]`, `[h : Fact p]`.
#[derive(Clone, Debug, PartialEq)]
struct VariableBinder {
    /// The bracket it was written in: `(`, `{`, `⦃` or `[`.
    open: char,
    /// The name it binds (`None` for an anonymous instance `[Group G]`).
    name: Option<String>,
    /// Its type as written.
    ty: String,
}

impl VariableBinder {
    fn is_instance(&self) -> bool {
        self.open == '['
    }

    fn text(&self) -> String {
        let close = match self.open {
            '(' => ')',
            '{' => '}',
            '⦃' => '⦄',
            _ => ']',
        };
        match &self.name {
            Some(name) => format!("{}{name} : {}{close}", self.open, self.ty),
            None => format!("{}{}{close}", self.open, self.ty),
        }
    }
}

/// What [`close_over`] made of a statement.
#[derive(Debug)]
pub enum Closed {
    /// The header has no `variable` in force.
    NoVariables,
    /// The statement with the variables Lean takes written as its first binders (its spans
    /// dropped: it is for judging, not for pointing at text), and those binders as written.
    Closed { statement: Statement, binders: Vec<String> },
    /// Why the variables cannot be written in: they stay the header's.
    Refused(String),
}

/// The statement Lean elaborates from `statement` under the header `header_text` (read as
/// `scope`): see the module doc.
pub fn close_over(statement: &Statement, scope: &Scope, header_text: &str) -> Closed {
    if scope.variables.is_empty() {
        return Closed::NoVariables;
    }
    match closed_statement(statement, scope, header_text) {
        Ok((statement, binders)) => Closed::Closed { statement, binders },
        Err(why) => Closed::Refused(why),
    }
}

fn closed_statement(
    statement: &Statement,
    scope: &Scope,
    header_text: &str,
) -> Result<(Statement, Vec<String>), String> {
    if !matches!(statement.keyword.as_str(), "theorem" | "lemma") {
        return Err(format!(
            "an `{}` takes the variables its proof uses, which the text cannot tell",
            statement.keyword
        ));
    }
    if !scope.is_modelled() {
        return Err("the header has a command elaboration-lite does not model".into());
    }
    if scope.options.iter().any(|o| o.contains("oldSectionVars")) {
        return Err("`deprecated.oldSectionVars` takes the variables the proof uses".into());
    }
    if !scope.variables_read_at_declaration() {
        return Err(
            "an `open` or `namespace` after a `variable` reads its types under other names".into(),
        );
    }
    if !Header::parse(header_text).notations.is_empty() {
        return Err("a header notation may name a variable".into());
    }
    if !statement.unparsed.is_empty()
        || has_proof_term(&statement.source)
        || statement.source.contains('‹')
    {
        return Err("the statement has text that may name a variable unseen".into());
    }
    // A pattern (`fun ⟨h, k⟩ => …`, `match`) binds its names where the tree does not show it:
    // a variable's name there is no use of the variable.
    if rules::has_pattern_binder(&statement.tree) {
        return Err("a pattern in the statement binds names the tree does not show".into());
    }
    // `«x»`, `@x` and a named argument's value `(a := x)` use a name in forms the tree does not
    // show as that name.
    if ["«", "@", ":="].iter().any(|s| statement.source.contains(s)) {
        return Err(
            "the statement writes a name in a form not read here (`«x»`, `@x`, `:=`)".into()
        );
    }
    let binders = variable_binders(&scope.variables)?;
    let names: Vec<&str> = binders.iter().filter_map(|b| b.name.as_deref()).collect();
    if names.iter().collect::<BTreeSet<_>>().len() != names.len() {
        return Err("a variable name is declared twice".into());
    }
    let dependent = dependent_binder_names(&statement.source);
    let bound = |n: &str| bound_in_text(&statement.source, n) || dependent.iter().any(|d| d == n);
    if let Some(name) = names.iter().find(|n| bound(n)) {
        return Err(format!("`{name}` may be bound in the statement by a form not read here"));
    }
    // The variables alone, parsed as one binder list: each binder's type tree.
    let all: Vec<String> = binders.iter().map(VariableBinder::text).collect();
    let parsed =
        parse_statement(&format!("theorem t {} : True", all.join(" ")), &Header::default())
            .map_err(|_| "a `variable` binder does not parse".to_string())?;
    let types = binder_types(&parsed.tree, binders.len())?;
    for (i, ty) in types.iter().enumerate() {
        let earlier: Vec<&str> = binders[..i].iter().filter_map(|b| b.name.as_deref()).collect();
        for used in names_in(ty) {
            let auto_bound = variable_shaped(&used, Letters::AsciiOrGreek)
                && !earlier.contains(&used.as_str())
                && !matches!(used.as_str(), "π" | "e" | "λ");
            if auto_bound {
                return Err(format!("`{used}` in a `variable` type may be auto-bound"));
            }
        }
    }
    if types.iter().any(rules::has_pattern_binder) {
        return Err("a pattern in a `variable` type binds names the tree does not show".into());
    }
    for name in &names {
        let inside = |t: &Tree| rules::binds_inside(t, name);
        if inside(&statement.tree) || types.iter().any(inside) {
            return Err(format!("the variable `{name}` is bound again inside the statement"));
        }
    }
    let taken = taken_variables(&binders, &types, &names_in(&statement.tree));
    if taken.iter().all(|t| !t) {
        return Ok((statement.clone(), Vec::new()));
    }
    let written: Vec<String> =
        binders.iter().zip(&taken).filter(|(_, t)| **t).map(|(b, _)| b.text()).collect();
    let at = after_declared_name(statement)
        .ok_or_else(|| "the statement's name is not where it was expected".to_string())?;
    let text =
        format!("{} {} {}", &statement.source[..at], written.join(" "), &statement.source[at..]);
    let mut closed = parse_statement(&text, &Header::default())
        .map_err(|_| "the statement with its variables does not parse".to_string())?;
    if !closed.unparsed.is_empty() {
        return Err("the statement with its variables has text the parser does not read".into());
    }
    drop_spans(&mut closed.tree);
    closed.source = text;
    Ok((closed, written))
}

/// Does `name` stand in `text` where a binder would (`x :` in `(x : ℕ) × Fin x`, `x //` in a
/// subtype, `| x ∈ s` or `| (x)` in a set-builder of an image)? Such a binder binds it anew in
/// forms the tree may not show as binders, and every theorem binder is one too.
fn bound_in_text(text: &str, name: &str) -> bool {
    let is_name_char = |c: char| c.is_alphanumeric() || "_'!?₀₁₂₃₄₅₆₇₈₉".contains(c);
    let mut from = 0;
    while let Some(found) = text[from..].find(name) {
        let start = from + found;
        let end = start + name.len();
        from = end;
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        if before.is_some_and(|c| is_name_char(c) || c == '.') || after.is_some_and(is_name_char) {
            continue;
        }
        let next = text[end..].trim_start();
        let previous = text[..start].trim_end();
        // `(x : T)` is an ascription (a use) unless a `×` or `→` follows it
        // ([`dependent_binder_names`]); `∀ x :`, `{x : T | …}`, `fun x :` bind.
        let group_after =
            |p: &str| p.strip_suffix('(').is_some_and(|p| p.trim_end().ends_with(['|', ')']));
        let ascribed = previous.ends_with('(') && !group_after(previous);
        let typed = next.starts_with(':') && !next.starts_with(":=") && !ascribed;
        let builder = previous.ends_with('|');
        let parenthesised = previous.ends_with('(') && next.starts_with(')');
        if typed || next.starts_with("//") || builder || parenthesised {
            return true;
        }
    }
    false
}

/// The names of the groups `(x y : T)` a `×` or `→` follows: binders of a sigma or pi type
/// (`(x : ℕ) × Fin x`, `(n : ℕ) → Fin n`), whatever the tree makes of them.
fn dependent_binder_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut open = Vec::new();
    for (at, c) in text.char_indices() {
        match c {
            '(' => open.push(at),
            ')' => {
                let Some(start) = open.pop() else { continue };
                let after = text[at + 1..].trim_start();
                if !["×", "→", "->"].iter().any(|a| after.starts_with(a)) {
                    continue;
                }
                if let Some((left, _)) = text[start + 1..at].split_once(':') {
                    names.extend(left.split_whitespace().map(str::to_string));
                }
            }
            _ => {}
        }
    }
    names
}

/// Which of `binders` Lean's `withHeaderSecVars` takes, given the names the statement uses.
fn taken_variables(
    binders: &[VariableBinder],
    types: &[Tree],
    used: &BTreeSet<String>,
) -> Vec<bool> {
    let named = |b: &VariableBinder, set: &BTreeSet<String>| {
        b.name.as_ref().is_some_and(|n| set.contains(n))
    };
    let mut taken: Vec<bool> = binders.iter().map(|b| named(b, used)).collect();
    // Transitively: the variables a taken variable's type references.
    loop {
        let referenced: BTreeSet<String> = types
            .iter()
            .zip(&taken)
            .filter(|(_, t)| **t)
            .flat_map(|(ty, _)| names_in(ty))
            .collect();
        let before = taken.clone();
        for (b, t) in binders.iter().zip(taken.iter_mut()) {
            *t = *t || named(b, &referenced);
        }
        if taken == before {
            break;
        }
    }
    // Instances whose type references only taken variables, in order.
    let variable_names: BTreeSet<String> = binders.iter().filter_map(|b| b.name.clone()).collect();
    for i in 0..binders.len() {
        if taken[i] || !binders[i].is_instance() {
            continue;
        }
        let takes = names_in(&types[i])
            .iter()
            .filter(|n| variable_names.contains(*n))
            .all(|n| binders.iter().zip(&taken).any(|(b, t)| *t && b.name.as_ref() == Some(n)));
        taken[i] = takes;
    }
    taken
}

/// The binders of `variable` commands, one per name (`(x y : ℝ)` is `(x : ℝ) (y : ℝ)`).
fn variable_binders(commands: &[String]) -> Result<Vec<VariableBinder>, String> {
    let mut out = Vec::new();
    for command in commands {
        let body = command
            .strip_prefix("variable")
            .filter(|rest| rest.starts_with(char::is_whitespace))
            .ok_or_else(|| format!("`{command}` is not a `variable` command read here"))?;
        if ["\"", "--", "/-", ":="].iter().any(|s| body.contains(s)) {
            return Err(format!("`{command}` has a form not read here"));
        }
        for (open, inner) in groups(body).ok_or_else(|| format!("`{command}`: unread binders"))? {
            let (names, ty) = match split_type(&inner) {
                Some((names, ty)) => (names, ty),
                None if open == '[' => (String::new(), inner.trim().to_string()),
                // `variable {G}`: updates a binder's brackets, which is not modelled.
                None => return Err(format!("`{command}` updates a binder")),
            };
            let names: Vec<&str> = names.split_whitespace().collect();
            if open == '[' {
                if names.len() > 1 {
                    return Err(format!("`{command}`: unread instance binder"));
                }
                out.push(VariableBinder { open, name: names.first().map(|n| n.to_string()), ty });
            } else {
                if names.is_empty() {
                    return Err(format!("`{command}`: a binder without a name"));
                }
                for name in names {
                    out.push(VariableBinder { open, name: Some(name.to_string()), ty: ty.clone() });
                }
            }
        }
    }
    Ok(out)
}

/// The bracket groups of a binder list at depth one, with their insides; `None` where text
/// stands outside every group or a bracket is not closed.
fn groups(body: &str) -> Option<Vec<(char, String)>> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut open = ' ';
    let mut inner = String::new();
    for c in body.chars() {
        match c {
            '(' | '{' | '[' | '⦃' => {
                if depth == 0 {
                    open = c;
                    inner.clear();
                    depth = 1;
                    continue;
                }
                depth += 1;
            }
            ')' | '}' | ']' | '⦄' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    let expected = match open {
                        '(' => ')',
                        '{' => '}',
                        '[' => ']',
                        _ => '⦄',
                    };
                    if c != expected {
                        return None;
                    }
                    out.push((open, std::mem::take(&mut inner)));
                    continue;
                }
            }
            _ if depth == 0 && !c.is_whitespace() => return None,
            _ => {}
        }
        inner.push(c);
    }
    (depth == 0).then_some(out)
}

/// `x y : T` split at its first `:` outside brackets; `None` without one.
fn split_type(inner: &str) -> Option<(String, String)> {
    let mut depth = 0i32;
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '{' | '[' | '⦃' => depth += 1,
            ')' | '}' | ']' | '⦄' => depth -= 1,
            ':' if depth == 0 => {
                return Some((inner[..i].to_string(), inner[i + 1..].trim().to_string()))
            }
            _ => {}
        }
    }
    None
}

/// The type trees of the `count` binders of a parsed `theorem t binders : True`.
fn binder_types(tree: &Tree, count: usize) -> Result<Vec<Tree>, String> {
    let unread = || "the `variable` binders are not read one by one".to_string();
    let [list] = tree.children.as_slice() else { return Err(unread()) };
    if list.children.len() != count + 1 {
        return Err(unread());
    }
    list.children[..count].iter().map(|b| b.children.last().cloned().ok_or_else(unread)).collect()
}

/// The names `t` uses: each leaf and each application's head, up to the first `.` (`x.succ`
/// uses `x`).
fn names_in(t: &Tree) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        stack.extend(t.children.iter());
        let head = if t.children.is_empty() { Some(t.label.as_str()) } else { rules::app_head(t) };
        if let Some(head) = head {
            let first = head.split('.').next().unwrap_or(head);
            if !first.is_empty() {
                out.insert(first.to_string());
            }
        }
    }
    out
}

/// The byte offset in `statement.source` just after its declared name.
fn after_declared_name(statement: &Statement) -> Option<usize> {
    let source = &statement.source;
    let name = statement.name.as_deref()?;
    let rest = source.strip_prefix(statement.keyword.as_str())?;
    let skipped = rest.len() - rest.trim_start().len();
    let at = statement.keyword.len() + skipped;
    let after = source[at..].strip_prefix(name)?;
    let next = after.chars().next();
    let plain = next.is_none_or(|c| c.is_whitespace() || "({[⦃:".contains(c));
    plain.then_some(at + name.len())
}

fn drop_spans(t: &mut Tree) {
    t.span = None;
    for c in &mut t.children {
        drop_spans(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(header: &str, statement: &str) -> Closed {
        let mut scope = Scope::read(header);
        scope.enter_declaration(statement);
        let parsed = parse_statement(statement, &Header::default()).expect("parses");
        close_over(&parsed, &scope, header)
    }

    fn closed_text(header: &str, statement: &str) -> String {
        match close(header, statement) {
            Closed::Closed { statement, .. } => {
                statement.source.split_whitespace().collect::<Vec<_>>().join(" ")
            }
            other => panic!("not closed: {other:?}"),
        }
    }

    #[test]
    fn a_theorem_takes_the_variables_it_names_and_their_instances() {
        let header = "variable {G : Type*} [Group G] (H : Subgroup G) [H.Normal]";
        assert_eq!(
            closed_text(header, "theorem t (x : G) : x * x⁻¹ = 1"),
            "theorem t {G : Type*} [Group G] (x : G) : x * x⁻¹ = 1"
        );
        assert_eq!(
            closed_text(header, "theorem t (x : G) (h : x ∈ H) : x⁻¹ ∈ H"),
            "theorem t {G : Type*} [Group G] (H : Subgroup G) [H.Normal] (x : G) (h : x ∈ H) : x⁻¹ ∈ H"
        );
    }

    #[test]
    fn an_ascribed_variable_is_a_use() {
        assert_eq!(
            closed_text("variable (n : ℕ)", "theorem t : (n : ℝ) ≥ 0"),
            "theorem t (n : ℕ) : (n : ℝ) ≥ 0"
        );
    }

    #[test]
    fn hypothesis_variables_the_statement_does_not_name_are_not_taken() {
        let header = "variable (x : ℝ) (hx : 0 < x) (y : ℝ)";
        assert_eq!(
            closed_text(header, "theorem t : Real.sqrt (x ^ 2) = x"),
            "theorem t (x : ℝ) : Real.sqrt (x ^ 2) = x"
        );
        assert_eq!(
            closed_text(header, "theorem t (h : hx = hx) : x = x"),
            "theorem t (x : ℝ) (hx : 0 < x) (h : hx = hx) : x = x"
        );
    }

    #[test]
    fn a_variable_type_brings_the_variables_it_names() {
        let header = "variable (n : ℕ) (f : Fin n → ℝ) [Fact (1 < n)]";
        assert_eq!(
            closed_text(header, "theorem t : f 0 = f 0"),
            "theorem t (n : ℕ) (f : Fin n → ℝ) [Fact (1 < n)] : f 0 = f 0"
        );
        // An instance referencing no variable goes with every theorem.
        assert_eq!(
            closed_text("variable (x : ℕ) [Fact (1 < 2)]", "theorem t : x = x"),
            "theorem t (x : ℕ) [Fact (1 < 2)] : x = x"
        );
    }

    #[test]
    fn what_the_text_cannot_show_is_refused() {
        for (header, statement) in [
            // `example` takes what its proof uses.
            ("variable (x : ℝ)", "example : x = x"),
            // Rebound inside: the inner `a` is not the variable.
            ("variable {α : Type*} (a : α)", "theorem t : ∃ a : α, True"),
            ("variable (x : ℝ)", "theorem t (x : ℕ) : x = x"),
            // Auto-bound in a variable's type.
            ("variable [Group G]", "theorem t (x : G) : x = x"),
            // A binder update.
            ("variable (G : Type*)\nvariable {G}", "theorem t (x : G) : x = x"),
            // Read under other names.
            ("variable (x : ℝ)\nopen Real", "theorem t : sqrt x = x"),
            // A proof term may name a hypothesis.
            ("variable (x : ℝ) (hx : 0 < x)", "theorem t (h : (by positivity : 0 < x)) : x = x"),
            ("variable (x : ℝ) (hx : 0 < x)", "theorem t (h : ‹0 < x› = ‹0 < x›) : x = x"),
            // A default value.
            ("variable (n : ℕ := 3)", "theorem t : n = n"),
            // A notation may name one.
            ("variable (x : ℝ)\nlocal notation \"X\" => x", "theorem t : X = X"),
            // `include`, `omit` and the old inclusion rule change what is taken.
            ("variable (x : ℝ) (hx : 0 < x)\ninclude hx", "theorem t : x = x"),
            ("variable (x : ℝ) [Fact (0 < x)]\nomit [Fact (0 < x)] in", "theorem t : x = x"),
            ("variable (x : ℝ)\nset_option deprecated.oldSectionVars true", "theorem t : x = x"),
            // A pattern binds its names anew.
            ("variable (h : False)", "theorem t : (fun (⟨h, k⟩ : ℕ × ℕ) => h + k) (0, 0) = 1"),
            ("variable (h : False)", "theorem t : (fun | (h, k) => h + k) ((0, 0) : ℕ × ℕ) = 1"),
            // Binders the tree may not show: a sigma type, a subtype, an image set-builder.
            ("variable (x : False)", "theorem t : Nonempty ((x : ℕ) × Fin x)"),
            ("variable (x : False)", "theorem t : Nonempty ((x y : ℕ) × Fin (x + y))"),
            ("variable (x : False)", "theorem t : Nonempty ((x : ℕ) → Fin (x + 1))"),
            ("variable (x : False)", "theorem t : Nonempty {x // x + 1 = (0 : ℕ)}"),
            ("variable (x : False)", "theorem t : {x * y | (x) (y) (_ : x < y)} = (∅ : Set ℕ)"),
            ("variable (x : False)", "theorem t : {x * 2 | x ∈ Finset.range 3} = (∅ : Set ℕ)"),
            ("variable (x : False)", "theorem t : {x + y | (x : ℕ) (y : ℕ)} = (∅ : Set ℕ)"),
            ("variable (x : False)", "theorem t : {y + x | (y : ℕ) (x : ℕ)} = (∅ : Set ℕ)"),
            // Uses the tree does not show as the name.
            ("variable (x : ℕ)", "theorem t : «x» = 0"),
            ("variable (x : ℕ)", "theorem t : @x = 0"),
            ("variable (x : ℕ)", "theorem t : id (a := x) = 0"),
        ] {
            assert!(
                matches!(close(header, statement), Closed::Refused(_)),
                "closed: {header} / {statement}"
            );
        }
        assert!(matches!(close("open Real", "theorem t : π = π"), Closed::NoVariables));
    }
}
