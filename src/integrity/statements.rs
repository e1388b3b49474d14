//! The **statement** criterion: each target is declared once in the solution, under its full
//! name, with a statement tree alpha-equivalent to the task's.
//!
//! Owns `Task::check_target`, `Task::check_declared_once` and the comparison of two statement
//! trees ([`first_difference`] for the place shown); the header around a target is `context`'s.

use super::context::SolutionDefinitions;
use super::parsed::Parsed;
use super::{Criterion, Finding, StatementVerdict, Target, TargetReport, Task};
use crate::metrics::transted_lite::{rules, TransTedLite};
use crate::trees::{Span, Statement, Tree};

pub(super) fn compare_statements(
    target: &Target,
    solution: Option<&Statement>,
    solution_text: &str,
    transted_lite: bool,
) -> StatementVerdict {
    if !target.statement_text.is_empty() && target.statement_text == solution_text {
        return StatementVerdict::Unchanged;
    }
    match (&target.statement, solution) {
        (Some(task), Some(sol)) => {
            // Unparsed spans stand as opaque nodes labelled with their text: equal text, equal
            // node, so this stays strict for what the parser could not read.
            if rules::alpha_equivalent(&task.tree, &sol.tree) {
                return StatementVerdict::Unchanged;
            }
            // A search the clock cut has no distance (transted-lite's "out of time").
            let distance = transted_lite
                .then(|| TransTedLite::default().judge_trees(&task.tree, &sol.tree))
                .filter(|j| j.stop != crate::search::Stop::Deadline)
                .map(|j| j.distance);
            StatementVerdict::Changed {
                transted_lite: distance,
                first_difference: first_difference(&task.tree, &sol.tree),
            }
        }
        _ => StatementVerdict::Changed { transted_lite: None, first_difference: None },
    }
}

/// The span (in the solution) of the first subterm, in preorder, where the trees differ, bound
/// names compared up to renaming (a renamed binder is not a change).
pub fn first_difference(task: &Tree, sol: &Tree) -> Option<Span> {
    fn walk(a: &Tree, b: &Tree, depth: usize) -> Option<Option<Span>> {
        let bound_leaves = a.children.is_empty()
            && b.children.is_empty()
            && ((a.variable_freecost && b.variable_freecost)
                || (a.hypothesis_freecost && b.hypothesis_freecost));
        if bound_leaves {
            return None;
        }
        if a.label != b.label || a.children.len() != b.children.len() || depth > 256 {
            return Some(b.span);
        }
        for (x, y) in a.children.iter().zip(&b.children) {
            if let Some(found) = walk(x, y, depth + 1) {
                // A node without a span (synthesised) points at its parent instead.
                return Some(found.or(b.span));
            }
        }
        None
    }
    walk(task, sol, 0).flatten()
}

impl Task {
    pub(super) fn check_target(
        &self,
        target: &Target,
        sol: &Parsed,
        si: Option<usize>,
        sol_statement: Option<(Option<Statement>, String)>,
        sol_definitions: &SolutionDefinitions,
    ) -> TargetReport {
        let task_command = &self.file.commands[target.command];
        let mut report = TargetReport {
            name: target.name.clone(),
            task_line: task_command.line,
            solution_line: None,
            statement: StatementVerdict::Missing,
            findings: Vec::new(),
            task_statement: target.statement_text.clone(),
        };
        let (Some(si), Some((sol_statement, sol_text))) = (si, sol_statement) else {
            report.findings.push(Finding {
                file: sol.path.clone(),
                line: None,
                criterion: Criterion::Missing,
                message: format!(
                    "target `{}` ({}:{}) is not declared (deleted, renamed or moved to another namespace)",
                    target.name, self.file.path, task_command.line
                ),
                span: None,
            });
            return report;
        };
        let sol_command = &sol.commands[si];
        report.solution_line = Some(sol_command.line);
        self.check_declared_once(target, sol, si, &mut report.findings);
        let (task_ns, sol_ns) = (&task_command.namespaces, &sol_command.namespaces);
        if task_ns != sol_ns {
            let shown_ns = |ns: &[String]| {
                if ns.is_empty() {
                    "at top level".to_string()
                } else {
                    format!("inside `namespace {}`", ns.join("."))
                }
            };
            report.findings.push(Finding {
                file: sol.path.clone(),
                line: Some(sol_command.line),
                criterion: Criterion::Header,
                message: format!(
                    "`{}` is declared {}, the task's {} ({}:{}): the statement's names resolve in another namespace",
                    target.name,
                    shown_ns(sol_ns),
                    shown_ns(task_ns),
                    self.file.path,
                    task_command.line
                ),
                span: Some(sol.line_span(sol_command)),
            });
        }
        report.statement =
            compare_statements(target, sol_statement.as_ref(), &sol_text, self.transted_lite);
        if let StatementVerdict::Changed { transted_lite, first_difference } = &report.statement {
            let info = match transted_lite {
                Some(0) => " (an equivalent rewrite by transted-lite, distance 0: still a changed statement)".to_string(),
                Some(d) => format!(" (transted-lite distance {d})"),
                None => String::new(),
            };
            let (line, span) = match first_difference {
                Some(s) => {
                    (sol.line_of(s.start as usize), Some((s.start as usize, s.end as usize)))
                }
                None => (sol_command.line, Some(sol.line_span(sol_command))),
            };
            report.findings.push(Finding {
                file: sol.path.clone(),
                line: Some(line),
                criterion: Criterion::Statement,
                message: format!(
                    "the statement of `{}` differs from the task's ({}:{}){info}",
                    target.name, self.file.path, task_command.line
                ),
                span,
            });
        }
        self.check_context(target, sol, si, &mut report.findings);
        self.check_definitions(
            target,
            sol_statement.as_ref(),
            sol,
            si,
            sol_definitions,
            &mut report.findings,
        );
        report
    }

    /// The target is declared once, as a command: a second command declaring its full name,
    /// or a `theorem NAME`/`lemma NAME` inside a term (a syntax quotation), is a decoy the
    /// checks could have read in its place.
    pub(super) fn check_declared_once(
        &self,
        target: &Target,
        sol: &Parsed,
        si: usize,
        out: &mut Vec<Finding>,
    ) {
        let short = target.name.rsplit('.').next().unwrap_or(&target.name);
        let target_line = sol.commands[si].line;
        for &k in sol.declarations.get(&target.name).into_iter().flatten() {
            if k == si {
                continue;
            }
            let c = &sol.commands[k];
            out.push(Finding {
                file: sol.path.clone(),
                line: Some(c.line),
                criterion: Criterion::Statement,
                message: format!(
                    "`{}` is declared again here (the target is at line {target_line}): a target is declared once",
                    target.name
                ),
                span: Some(sol.line_span(c)),
            });
        }
        for (offset, word) in sol.nested_declarations.get(short).into_iter().flatten() {
            out.push(Finding {
                file: sol.path.clone(),
                line: Some(sol.line_of(*offset)),
                criterion: Criterion::Statement,
                message: format!(
                    "`theorem {word}` inside a term (a decoy beside the target `{}` at line {target_line}): a target is declared once, as a command",
                    target.name
                ),
                span: Some((*offset, offset + word.len())),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trees::parse::{self, Header};

    #[test]
    fn first_difference_skips_renamed_binders() {
        let p = |s: &str| parse::parse_statement(s, &Header::default()).unwrap();
        let a = p("theorem t (x : ℕ) (h : 0 < x) : x + 1 > 1 := sorry");
        let b = p("theorem t (y : ℕ) (h : 0 < y) : y + 2 > 1 := sorry");
        let span = first_difference(&a.tree, &b.tree).expect("a difference");
        let text = "theorem t (y : ℕ) (h : 0 < y) : y + 2 > 1 := sorry";
        assert_eq!(&text[span.start as usize..span.end as usize], "2");
    }
}
