//! The Lean-backed half of the integrity check: the solution elaborates without errors, and
//! `#print axioms` of each target lists only [`STANDARD_AXIOMS`](super::STANDARD_AXIOMS).
//!
//! Owns the text sent (the solution's commands, imports left to the scratch document's header,
//! then one `#print axioms FULL.NAME` per target, all in one document version through
//! `crate::lean::oracle::Oracle::run`, the same oracle as the Lean-backed metrics) and reading
//! the answers. Leaves the protocol, the document and the deadline handling to the oracle.
//!
//! The answer of `#print axioms` is the info message of `printAxiomsOf` in lean4
//! `src/Lean/Elab/Print.lean`: `'{constName}' depends on axioms: {axioms.qsort Name.lt |>.toList}`
//! or `'{constName}' does not depend on any axioms` (shape also in lean4
//! `tests/lean/run/collectAxioms.lean`: `'A2' depends on axioms: [A0, A1, A2]`). Newer Lean
//! versions may quote the name with backticks; [`parse_axioms`] takes either quote, and a list
//! broken over lines by the formatter.
//!
//! Each solution command is its own oracle command, so an error names the line where that
//! command starts in the solution (the oracle reports errors per command, not per line).
//!
//! The elaborated statement: right after each target (in its scope), an `example` whose type
//! is the task's statement as written (`∀ BINDERS, TYPE`) is proved by applying the target and
//! closing what is left by assumption ([`statement_check`]). An error there means the target,
//! as Lean elaborated it, does not give the task's statement (a weakened or decoy target that
//! the source-level checks were shown), whatever its own errors and axioms.

use super::scan::Command as ScannedCommand;
use super::{Criterion, Finding, Parsed, Report, STANDARD_AXIOMS};
use crate::lean::goals::LeanRpc;
use crate::lean::oracle::{Command, Oracle, OracleError};
use std::time::{Duration, Instant};

/// One `#print axioms` answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axioms {
    /// The constant as Lean printed it.
    pub constant: String,
    /// Its axioms, in Lean's order.
    pub axioms: Vec<String>,
}

/// Read a `#print axioms` info message (see the module doc); `None` for any other message.
pub fn parse_axioms(message: &str) -> Option<Axioms> {
    let message = message.trim();
    let unquote = |s: &str| -> String {
        s.trim()
            .trim_matches(|c| c == '\'' || c == '`')
            .trim_start_matches('«')
            .trim_end_matches('»')
            .to_string()
    };
    if let Some(name) = message.strip_suffix("does not depend on any axioms") {
        return Some(Axioms { constant: unquote(name), axioms: Vec::new() });
    }
    let (name, list) = message.split_once("depends on axioms:")?;
    let list = list.trim();
    let inner = list.strip_prefix('[')?.strip_suffix(']')?;
    let axioms = inner
        .split(',')
        .map(|a| a.split_whitespace().collect::<String>())
        .filter(|a| !a.is_empty())
        .collect();
    Some(Axioms { constant: unquote(name), axioms })
}

/// The axioms beyond the standard three (`sorryAx` among them means a `sorry`).
pub fn nonstandard(axioms: &Axioms) -> Vec<&str> {
    axioms.axioms.iter().map(String::as_str).filter(|a| !STANDARD_AXIOMS.contains(a)).collect()
}

/// Elaborate `solution` and print the axioms of the report's targets (those the solution
/// declares), adding the findings to `report`. `timeout` bounds the whole check (LeanCat: 300 s).
pub async fn verify<L: LeanRpc>(
    oracle: &mut Oracle<L>,
    solution: &Parsed,
    report: &mut Report,
    timeout: Duration,
) {
    let deadline = Instant::now() + timeout;
    let key = Oracle::<L>::import_key(&[&import_lines(solution)]);
    let chunks: Vec<&ScannedCommand> =
        solution.commands.iter().filter(|c| c.keyword != "import").collect();
    let printed: Vec<usize> =
        (0..report.targets.len()).filter(|&i| report.targets[i].solution_line.is_some()).collect();
    // Each chunk, then (after a target's chunk) the check of its elaborated statement.
    let mut commands: Vec<Command> = Vec::new();
    let mut chunk_at: Vec<usize> = Vec::new();
    let mut checks: Vec<(usize, usize)> = Vec::new();
    for c in &chunks {
        chunk_at.push(commands.len());
        commands.push(Command::new(solution.text.get(c.start..c.end).unwrap_or_default()));
        for &i in &printed {
            let t = &report.targets[i];
            if c.full_name.as_deref() == Some(t.name.as_str())
                && matches!(c.keyword.as_str(), "theorem" | "lemma")
                && Some(c.line) == t.solution_line
            {
                if let Some(text) = statement_check(&t.name, &t.task_statement) {
                    checks.push((i, commands.len()));
                    commands.push(Command::new(text));
                }
            }
        }
    }
    let axioms_at = commands.len();
    for &i in &printed {
        commands.push(Command::new(format!("#print axioms {}", report.targets[i].name)));
    }
    let path = solution.path.clone();
    let finding = |line: Option<usize>, criterion, message: String| Finding {
        file: path.clone(),
        line,
        criterion,
        message,
        span: None,
    };
    let results = match oracle.run(&key, &[], &commands, deadline).await {
        Ok((_, results)) => results,
        Err(OracleError::Deadline { .. }) => {
            report.file_findings.push(finding(
                None,
                Criterion::Timeout,
                format!(
                    "Lean did not finish within the verification timeout ({} s)",
                    timeout.as_secs()
                ),
            ));
            return;
        }
        Err(e) => {
            report.file_findings.push(finding(
                None,
                Criterion::Elaboration,
                format!("could not be checked by Lean: {e}"),
            ));
            return;
        }
    };
    if results.len() != commands.len() {
        report.file_findings.push(finding(
            None,
            Criterion::Elaboration,
            "the Lean oracle lost a command's result".into(),
        ));
        return;
    }
    for &(i, at) in &checks {
        let target = &mut report.targets[i];
        if let Some(e) = results[at].errors.first() {
            let line = target.solution_line;
            target.findings.push(finding(
                line,
                Criterion::Statement,
                format!(
                    "Lean: the task's statement does not follow from `{}` as elaborated: {}",
                    target.name,
                    first_line(e)
                ),
            ));
        }
    }
    for (chunk, &k) in chunks.iter().zip(&chunk_at) {
        let result = &results[k];
        for e in &result.errors {
            report.file_findings.push(finding(
                Some(chunk.line),
                Criterion::Elaboration,
                format!("Lean: {}", first_line(e)),
            ));
        }
        for (severity, m) in &result.messages {
            if *severity == 2 && m.starts_with("declaration uses") && m.contains("sorry") {
                report.file_findings.push(finding(
                    Some(chunk.line),
                    Criterion::Elaboration,
                    format!("Lean: {}", first_line(m)),
                ));
            }
        }
    }
    for (k, &i) in printed.iter().enumerate() {
        let result = &results[axioms_at + k];
        let target = &mut report.targets[i];
        let line = target.solution_line;
        let answers: Vec<Axioms> =
            result.messages.iter().filter_map(|(_, m)| parse_axioms(m)).collect();
        if let Some(e) = result.errors.first() {
            target.findings.push(finding(
                line,
                Criterion::Axioms,
                format!("`#print axioms {}` failed: {}", target.name, first_line(e)),
            ));
            continue;
        }
        match answers.as_slice() {
            [] => target.findings.push(finding(
                line,
                Criterion::Axioms,
                format!(
                    "`#print axioms {}` gave no answer (messages: {})",
                    target.name,
                    result
                        .messages
                        .iter()
                        .map(|(_, m)| first_line(m))
                        .collect::<Vec<_>>()
                        .join(" | ")
                ),
            )),
            answers => {
                for a in answers {
                    let extra = nonstandard(a);
                    if !extra.is_empty() {
                        target.findings.push(finding(
                            line,
                            Criterion::Axioms,
                            format!(
                                "`{}` depends on {} beyond propext, Classical.choice, Quot.sound{}",
                                target.name,
                                extra.join(", "),
                                if extra.contains(&"sorryAx") { " (sorryAx: a sorry)" } else { "" }
                            ),
                        ));
                    }
                }
            }
        }
    }
}

/// The command checking that target `name` gives the task's statement `statement` (the text
/// after the task's name: binders, then `:` and the type): `example : ∀ BINDERS, TYPE` proved by
/// `apply _root_.NAME` and assumptions. `None` when the statement has no top-level `:`.
pub fn statement_check(name: &str, statement: &str) -> Option<String> {
    let mut depth = 0i32;
    let mut colon = None;
    let chars: Vec<(usize, char)> = statement.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        match c {
            '(' | '[' | '{' | '⦃' | '⟨' => depth += 1,
            ')' | ']' | '}' | '⦄' | '⟩' => depth -= 1,
            ':' if depth == 0 && chars.get(k + 1).is_none_or(|(_, n)| *n != '=') => {
                colon = Some(i);
                break;
            }
            _ => {}
        }
    }
    let colon = colon?;
    let binders = statement[..colon].trim();
    let ty = statement[colon + 1..].trim();
    if ty.is_empty() {
        return None;
    }
    let goal = if binders.is_empty() { ty.to_string() } else { format!("∀ {binders}, {ty}") };
    Some(format!("example : {goal} := by\n  intros\n  apply _root_.{name} <;> assumption"))
}

fn import_lines(p: &Parsed) -> String {
    p.commands
        .iter()
        .filter(|c| c.keyword == "import")
        .flat_map(|c| {
            c.norm.split_whitespace().skip(1).map(|m| format!("import {m}\n")).collect::<Vec<_>>()
        })
        .collect()
}

fn first_line(m: &str) -> String {
    m.lines().next().unwrap_or_default().trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_statement_check_is_the_tasks_statement_as_a_pi_type() {
        assert_eq!(
            statement_check("odd_prime", "(p : ℕ) (h₀ : Nat.Prime p) (h₁ : 2 < p) : Odd p").as_deref(),
            Some("example : ∀ (p : ℕ) (h₀ : Nat.Prime p) (h₁ : 2 < p), Odd p := by\n  intros\n  apply _root_.odd_prime <;> assumption")
        );
        assert_eq!(
            statement_check("A.t", ": ∀ x : ℕ, x = x").as_deref(),
            Some("example : ∀ x : ℕ, x = x := by\n  intros\n  apply _root_.A.t <;> assumption")
        );
        assert_eq!(
            statement_check("t", "{α : Type} [inst : Group α] (f : α → α := id) : f = f").as_deref(),
            Some("example : ∀ {α : Type} [inst : Group α] (f : α → α := id), f = f := by\n  intros\n  apply _root_.t <;> assumption")
        );
        assert_eq!(statement_check("t", "(x : ℕ)"), None);
    }

    #[test]
    fn axioms_message_shapes_from_leans_print_elaborator() {
        // lean4 tests/lean/run/collectAxioms.lean
        assert_eq!(
            parse_axioms("'A2' depends on axioms: [A0, A1, A2]"),
            Some(Axioms {
                constant: "A2".into(),
                axioms: vec!["A0".into(), "A1".into(), "A2".into()]
            })
        );
        let native = parse_axioms(
            "'one_add_one' depends on axioms: [Lean.ofReduceBool, Lean.trustCompiler]",
        )
        .unwrap();
        assert_eq!(nonstandard(&native), ["Lean.ofReduceBool", "Lean.trustCompiler"]);
        // printAxiomsOf's other branch, backtick quoting, and a list broken over lines.
        assert_eq!(
            parse_axioms("`Foo.bar` does not depend on any axioms"),
            Some(Axioms { constant: "Foo.bar".into(), axioms: vec![] })
        );
        let wrapped =
            parse_axioms("'t' depends on axioms: [propext,\n Classical.choice,\n Quot.sound]")
                .unwrap();
        assert!(nonstandard(&wrapped).is_empty());
        let sorry = parse_axioms("'t' depends on axioms: [propext, sorryAx]").unwrap();
        assert_eq!(nonstandard(&sorry), ["sorryAx"]);
        assert_eq!(parse_axioms("unknown constant 't'"), None);
        assert_eq!(parse_axioms("'t' depends on axioms: propext"), None);
    }
}
