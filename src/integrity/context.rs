//! The **header** criterion: imports, the scoped context at a target (`open`, `variable`,
//! `universe`, …) and the definitions, notations and instances before it.
//!
//! Owns `Task::check_imports`, `Task::check_context`, `Task::check_definitions` and the matching
//! of a task's definitions to a solution's. Statements themselves are `statements`'.

use super::parsed::{in_scope, shown, Parsed};
use super::scan;
use super::scan::Command;
use super::{Criterion, Finding, Options, Target, Task};
use crate::trees::lean_syntax::{MEANING_COMMANDS, STATEMENT_TEXT_KEYWORDS};
use crate::trees::{Statement, Tree};
use std::collections::{HashMap, HashSet};

/// A definition's text up to ` :=` (its signature), or all of it.
pub(super) fn signature(norm: &str) -> &str {
    norm.split_once(" :=").map_or(norm, |(s, _)| s)
}

/// A solution's definitions (`Parsed::relevant`, by rank in it) by text, by signature and by
/// (full name, keyword): what the task's definitions are matched against, built once per
/// solution.
pub(super) struct SolutionDefinitions {
    by_text: HashMap<String, Vec<usize>>,
    by_signature: HashMap<String, Vec<usize>>,
    by_name: HashMap<(String, String), Vec<usize>>,
}

impl SolutionDefinitions {
    pub(super) fn new(sol: &Parsed) -> SolutionDefinitions {
        let mut d = SolutionDefinitions {
            by_text: HashMap::new(),
            by_signature: HashMap::new(),
            by_name: HashMap::new(),
        };
        for (rank, &i) in sol.relevant.iter().enumerate() {
            let c = &sol.commands[i];
            d.by_text.entry(c.norm.clone()).or_default().push(rank);
            d.by_signature.entry(signature(&c.norm).to_string()).or_default().push(rank);
            if let Some(n) = &c.full_name {
                d.by_name.entry((n.clone(), c.keyword.clone())).or_default().push(rank);
            }
        }
        d
    }
}

/// Names the statement uses: identifiers of its text that are not bound in it (dotted names
/// whole; for field notation `p.Prime` on a bound `p`, the field `Prime`).
pub(super) fn statement_names(
    target: &Target,
    sol_statement: Option<&Statement>,
    masked: &str,
    sol_command: &Command,
) -> Vec<String> {
    let mut bound: HashSet<String> = HashSet::new();
    for st in [target.statement.as_ref(), sol_statement].into_iter().flatten() {
        collect_bound(&st.tree, &mut bound);
    }
    let mut out: Vec<String> = Vec::new();
    let texts = [
        target.statement_text.as_str(),
        masked.get(sol_command.start..sol_command.end).unwrap_or_default(),
    ];
    // The solution's command includes its proof: only its statement part (up to `:=`).
    let sol_statement_text = texts[1].split(":=").next().unwrap_or_default();
    for text in [texts[0], sol_statement_text] {
        for (_, w) in scan::words(text) {
            if w.chars().next().is_some_and(|c| c.is_ascii_digit())
                || STATEMENT_TEXT_KEYWORDS.contains(&w)
            {
                continue;
            }
            let name = match w.split_once('.') {
                Some((head, field)) if bound.contains(head) => field.to_string(),
                _ if bound.contains(w) => continue,
                _ => w.to_string(),
            };
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

pub(super) fn collect_bound(t: &Tree, out: &mut HashSet<String>) {
    if t.children.is_empty() && (t.variable_freecost || t.hypothesis_freecost) {
        out.insert(t.label.clone());
    }
    for c in &t.children {
        collect_bound(c, out);
    }
}

/// Can a new declaration named `declared` (full name) capture a name in `uses`? Lean resolves
/// `X` inside namespace `N` as `N.X` first, and with `open N` too: so `declared` captures `X`
/// when it is `X` or ends in `.X`.
pub(super) fn shadowed<'a>(declared: &str, uses: &'a [String]) -> Option<&'a str> {
    uses.iter()
        .find(|u| declared == u.as_str() || declared.ends_with(&format!(".{u}")))
        .map(String::as_str)
}

impl Task {
    pub(super) fn check_imports(&self, sol: &Parsed, options: &Options, out: &mut Vec<Finding>) {
        let imports = |p: &Parsed| -> Vec<(String, usize, (usize, usize))> {
            p.commands
                .iter()
                .filter(|c| c.keyword == "import")
                .flat_map(|c| {
                    let span = p.line_span(c);
                    c.norm
                        .split_whitespace()
                        .skip(1)
                        .map(move |m| (m.to_string(), c.line, span))
                        .collect::<Vec<_>>()
                })
                .collect()
        };
        let task = imports(&self.file);
        let sol_imports = imports(sol);
        let task_modules: HashSet<&str> = task.iter().map(|(m, _, _)| m.as_str()).collect();
        let sol_modules: HashSet<&str> = sol_imports.iter().map(|(m, _, _)| m.as_str()).collect();
        for (module, line, span) in &sol_imports {
            if !task_modules.contains(module.as_str())
                && !options.allow_imports.iter().any(|a| a == module)
            {
                out.push(Finding {
                    file: sol.path.clone(),
                    line: Some(*line),
                    criterion: Criterion::Header,
                    message: format!(
                        "new import `{module}` (a new dependency; allow it with --allow-import {module})"
                    ),
                    span: Some(*span),
                });
            }
        }
        for (module, line, _) in &task {
            if !sol_modules.contains(module.as_str()) {
                out.push(Finding {
                    file: sol.path.clone(),
                    line: Some(1),
                    criterion: Criterion::Header,
                    message: format!(
                        "the task's `import {module}` ({}:{line}) is missing",
                        self.file.path
                    ),
                    span: None,
                });
            }
        }
    }

    /// `open`, `variable`, `universe` in scope at the target: the same, as multisets.
    pub(super) fn check_context(
        &self,
        target: &Target,
        sol: &Parsed,
        si: usize,
        out: &mut Vec<Finding>,
    ) {
        let task_ctx = in_scope(&self.file, target.command);
        let sol_ctx = in_scope(sol, si);
        let mut unmatched: Vec<Option<&Command>> = task_ctx.iter().map(|c| Some(*c)).collect();
        for c in &sol_ctx {
            if let Some(slot) = unmatched.iter_mut().find(|s| s.is_some_and(|t| t.norm == c.norm)) {
                *slot = None;
                continue;
            }
            out.push(Finding {
                file: sol.path.clone(),
                line: Some(c.line),
                criterion: Criterion::Header,
                message: format!(
                    "`{}` in scope at `{}` is not in the task: it can change what the statement's names mean",
                    shown(sol, c),
                    target.name
                ),
                span: Some(sol.line_span(c)),
            });
        }
        for t in unmatched.into_iter().flatten() {
            out.push(self.task_command_absent(t, "is not in scope at", target, sol, si));
        }
    }

    /// The finding for the task's command `t` that the solution lacks at its target statement
    /// (command `si`, where it is reported): "the task's `t` (file:line) `absence` `target`".
    fn task_command_absent(
        &self,
        t: &Command,
        absence: &str,
        target: &Target,
        sol: &Parsed,
        si: usize,
    ) -> Finding {
        Finding {
            file: sol.path.clone(),
            line: Some(sol.commands[si].line),
            criterion: Criterion::Header,
            message: format!(
                "the task's `{}` ({}:{}) {absence} `{}`",
                shown(&self.file, t),
                self.file.path,
                t.line,
                target.name
            ),
            span: Some(sol.line_span(&sol.commands[si])),
        }
    }

    /// Definitions, notations, instances, macros before the target.
    pub(super) fn check_definitions(
        &self,
        target: &Target,
        sol_statement: Option<&Statement>,
        sol: &Parsed,
        si: usize,
        sol_definitions: &SolutionDefinitions,
        out: &mut Vec<Finding>,
    ) {
        let task_before =
            &self.file.relevant[..self.file.relevant.partition_point(|&i| i < target.command)];
        let sol_before: Vec<&Command> = sol.relevant[..sol.relevant.partition_point(|&i| i < si)]
            .iter()
            .map(|&i| &sol.commands[i])
            .collect();
        let first_before = |ranks: Option<&Vec<usize>>| {
            ranks.and_then(|r| r.first()).copied().filter(|&r| r < sol_before.len())
        };
        let mut matched_sol: HashSet<usize> = HashSet::new();
        for (rank, &ti) in task_before.iter().enumerate() {
            let t = &self.file.commands[ti];
            let (fill, task_key) = &self.definition_keys[rank];
            let same = if *fill {
                first_before(sol_definitions.by_signature.get(task_key))
            } else {
                first_before(sol_definitions.by_text.get(task_key))
            };
            if let Some(k) = same {
                matched_sol.insert(k);
                continue;
            }
            let renamed = t.full_name.as_ref().and_then(|n| {
                first_before(sol_definitions.by_name.get(&(n.clone(), t.keyword.clone())))
            });
            match renamed {
                Some(k) => {
                    matched_sol.insert(k);
                    let s = sol_before[k];
                    out.push(Finding {
                        file: sol.path.clone(),
                        line: Some(s.line),
                        criterion: Criterion::Header,
                        message: format!(
                            "`{} {}` differs from the task's ({}:{}), and `{}` comes after it",
                            s.keyword,
                            s.full_name.as_deref().unwrap_or("?"),
                            self.file.path,
                            t.line,
                            target.name
                        ),
                        span: Some(sol.line_span(s)),
                    });
                }
                None => out.push(self.task_command_absent(t, "is missing before", target, sol, si)),
            }
        }
        let uses = statement_names(target, sol_statement, &sol.masked, &sol.commands[si]);
        for (k, s) in sol_before.iter().enumerate() {
            if matched_sol.contains(&k) {
                continue;
            }
            let message = if MEANING_COMMANDS.contains(&s.keyword.as_str()) {
                Some(format!(
                    "`{}` is not in the task and comes before `{}`: it can change what the statement means",
                    shown(sol, s),
                    target.name
                ))
            } else {
                s.full_name
                    .as_deref()
                    .and_then(|n| shadowed(n, &uses))
                    .map(|used| {
                        format!(
                            "`{} {}` is not in the task and can capture `{used}`, which the statement of `{}` uses",
                            s.keyword,
                            s.full_name.as_deref().unwrap_or("?"),
                            target.name
                        )
                    })
            };
            if let Some(message) = message {
                out.push(Finding {
                    file: sol.path.clone(),
                    line: Some(s.line),
                    criterion: Criterion::Header,
                    message,
                    span: Some(sol.line_span(s)),
                });
            }
        }
    }
}
