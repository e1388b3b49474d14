//! Statement integrity: did a proof keep the task's statement? (LeanCat's "Valid Proof
//! Criteria".)
//!
//! Owns the offline check of one solution file against its task file: which declarations are
//! targets ([`Task::load`]: every `theorem`/`lemma` whose proof in the task uses `sorry`, or the
//! ones named), and for each target
//! - **statement**: the solution declares the same full name and its statement tree is
//!   alpha-equivalent to the task's (`rules::alpha_equivalent`, the engine's own check; a
//!   statement rewritten into an equivalent form is *changed*, with the `transted-lite` distance
//!   beside it for information);
//! - **header**: imports (a new one is a new dependency unless allowed), the `open`s,
//!   `variable`s and `universe`s in scope at the target, and the definitions, notations,
//!   instances, macros and syntax before it: a task definition changed or removed, a new
//!   notation/instance/macro/syntax, or a new definition whose name could capture a name the
//!   statement uses (`def Nat.Prime` inside a namespace) is reported with its line;
//! - **forbidden**: `sorry`, `admit`, `axiom`, `unsafe`, `implemented_by`, `extern`,
//!   `native_decide` (unless allowed), `debug.skipKernelTC`, `debug.byAsSorry`, `local
//!   instance`/`attribute [instance]` anywhere in the solution that the task does not have,
//!   in code only (comments and string literals are masked by [`scan`]).
//!
//! The Lean-backed part (elaboration and `#print axioms`) is [`lean`]; the command line is
//! `crate::cli::integrity`, the editor hook `crate::features::integrity`. Nothing here does I/O.
//!
//! Layout: this module holds the verdict types, [`Task::load`] and [`Task::check`]; `parsed`
//! reads a file once into a [`Parsed`]; the criteria are `statements`, `context` (the header)
//! and `forbidden`, each an `impl Task` block or a function of its own.
//!
//! Trust: the static checks are a filter in front of Lean, not a replacement: they catch the
//! cheats that compile (a weakened statement, a shadowing definition, an `open` that changes a
//! name) and the obvious bypasses, but only the kernel's `#print axioms` sees through every
//! obfuscation. A target passes offline only when no check found anything.

pub mod lean;
pub mod scan;

mod context;
mod forbidden;
mod parsed;
mod statements;

use crate::trees::lean_syntax::DEFINITION_KEYWORDS;
use crate::trees::{Span, Statement};
use context::{signature, SolutionDefinitions};
use forbidden::forbidden;
pub use parsed::Parsed;
use parsed::{is_theorem, proof_uses_sorry};
use scan::ScanError;
pub use statements::first_difference;
use std::collections::HashSet;

/// The axioms a valid proof may use (Lean's standard three).
pub const STANDARD_AXIOMS: [&str; 3] = ["propext", "Classical.choice", "Quot.sound"];

/// Which criterion a finding breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Criterion {
    /// The target's statement differs from the task's.
    Statement,
    /// The target is not in the solution (deleted or renamed).
    Missing,
    /// Imports, opens, variables, universes, definitions or notations before the target changed.
    Header,
    /// `sorry`, `axiom`, `unsafe`, … in the solution.
    Forbidden,
    /// The solution could not be read (not UTF-8, unterminated comment or string).
    Unreadable,
    /// Lean reported an error (or a `sorry`) elaborating the solution.
    Elaboration,
    /// `#print axioms` of the target lists an axiom beyond the standard three (or no answer).
    Axioms,
    /// Lean did not finish within the verification timeout.
    Timeout,
}

impl Criterion {
    /// The name used in output and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Statement => "statement",
            Criterion::Missing => "missing",
            Criterion::Header => "header",
            Criterion::Forbidden => "forbidden",
            Criterion::Unreadable => "unreadable",
            Criterion::Elaboration => "elaboration",
            Criterion::Axioms => "axioms",
            Criterion::Timeout => "timeout",
        }
    }

    /// Every criterion, in report order.
    pub const ALL: [Criterion; 8] = [
        Criterion::Statement,
        Criterion::Missing,
        Criterion::Header,
        Criterion::Forbidden,
        Criterion::Unreadable,
        Criterion::Elaboration,
        Criterion::Axioms,
        Criterion::Timeout,
    ];
}

/// One broken criterion, at a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The file the line is in (the solution, or the task for something the solution lost).
    pub file: String,
    /// 1-based line; `None` when there is no line to point at (a missing file).
    pub line: Option<usize>,
    pub criterion: Criterion,
    pub message: String,
    /// Byte range in the solution text, for the editor (when the finding is in the solution).
    pub span: Option<(usize, usize)>,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: ", self.file)?,
            None => write!(f, "{}: ", self.file)?,
        }
        write!(f, "{}: {}", self.criterion.name(), self.message)
    }
}

/// What became of a target's statement.
#[derive(Clone, Debug, PartialEq)]
pub enum StatementVerdict {
    /// Same name, alpha-equivalent trees.
    Unchanged,
    /// Same name, different statement. `transted_lite`: the offline metric's distance after its
    /// sound rewrites (0: an equivalent rewrite, still a changed statement).
    Changed {
        transted_lite: Option<u32>,
        /// The first differing subterm in the solution (byte range), for the editor.
        first_difference: Option<Span>,
    },
    /// No declaration of that name in the solution.
    Missing,
    /// The solution could not be read at all.
    NotChecked,
}

/// The verdict on one target.
#[derive(Clone, Debug)]
pub struct TargetReport {
    /// Full name (with namespaces).
    pub name: String,
    /// 1-based lines of the declaration in the task and in the solution.
    pub task_line: usize,
    pub solution_line: Option<usize>,
    pub statement: StatementVerdict,
    /// Findings of this target (statement, header, Lean's per-target ones).
    pub findings: Vec<Finding>,
    /// The task's statement after the name (binders, `:`, type; whitespace collapsed), for the
    /// Lean pass's check that the elaborated target gives it ([`lean::verify`]).
    pub task_statement: String,
}

/// The verdict on one solution file.
#[derive(Clone, Debug)]
pub struct Report {
    pub task: String,
    pub solution: String,
    pub targets: Vec<TargetReport>,
    /// Findings about the whole file (forbidden constructs, imports, unreadable, elaboration):
    /// each one fails every target.
    pub file_findings: Vec<Finding>,
}

impl Report {
    /// Does this target pass (its own findings and the file's are empty)?
    pub fn target_passed(&self, target: &TargetReport) -> bool {
        target.findings.is_empty() && self.file_findings.is_empty()
    }

    /// Do all targets pass?
    pub fn passed(&self) -> bool {
        self.targets.iter().all(|t| self.target_passed(t))
    }

    /// Every finding, file-level first, in line order within each group.
    pub fn all_findings(&self) -> impl Iterator<Item = &Finding> {
        self.file_findings.iter().chain(self.targets.iter().flat_map(|t| t.findings.iter()))
    }
}

/// Why a task cannot be used (bad input: exit status 2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TaskError {
    #[error("{path}: {source}")]
    Unreadable { path: String, source: ScanError },
    #[error("{path}: no target: no theorem or lemma here has a proof with `sorry` (name targets with --theorem)")]
    NoTargets { path: String },
    #[error("{path}: no theorem named '{name}' (theorems here: {known})")]
    UnknownTheorem { path: String, name: String, known: String },
}

/// What the check may allow.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Targets by name (full or as written); empty: every declaration proved by `sorry`.
    pub theorems: Vec<String>,
    /// Modules the solution may import beyond the task's.
    pub allow_imports: Vec<String>,
    /// `native_decide` (and `decide +native`, `Lean.ofReduceBool`) allowed.
    pub allow_native_decide: bool,
    /// Leave out the `transted-lite` distance beside a changed statement (the editor: its
    /// search may take up to half a second, too long for every keystroke).
    pub skip_transted_lite: bool,
    /// Bound on the offline check of one solution: the targets not reached by then are not
    /// checked and the solution fails with [`Criterion::Timeout`]. `None`: no bound.
    pub offline_limit: Option<std::time::Duration>,
}

/// One target of a task.
#[derive(Clone, Debug)]
pub struct Target {
    pub name: String,
    /// Index into [`Parsed::commands`].
    pub command: usize,
    pub statement: Option<Statement>,
    /// Masked statement text after the name, whitespace collapsed (fallback comparison when a
    /// statement does not parse).
    pub statement_text: String,
}

/// A task: its file and its targets.
#[derive(Clone, Debug)]
pub struct Task {
    pub file: Parsed,
    pub targets: Vec<Target>,
    /// Judge a changed statement with `transted-lite` too (from [`Options`]).
    transted_lite: bool,
    /// Per definition of the task (`Parsed::relevant` order): whether it is a blank to fill
    /// (`def … := sorry`, only its signature must stay) and the text a solution's must equal.
    definition_keys: Vec<(bool, String)>,
}

impl Task {
    /// Read a task and find its targets (see the module doc). A task without targets, or a
    /// named target that does not exist, is bad input.
    pub fn load(path: &str, text: &str, options: &Options) -> Result<Task, TaskError> {
        let file = Parsed::new(path, text)
            .map_err(|source| TaskError::Unreadable { path: path.to_string(), source })?;
        let mut chosen: Vec<usize> = Vec::new();
        if options.theorems.is_empty() {
            for (i, c) in file.commands.iter().enumerate() {
                if is_theorem(c) && c.full_name.is_some() && proof_uses_sorry(&file, i) {
                    chosen.push(i);
                }
            }
            if chosen.is_empty() {
                return Err(TaskError::NoTargets { path: path.to_string() });
            }
        } else {
            let mut seen = HashSet::new();
            for name in &options.theorems {
                // The first theorem declaring it under its full name or as written.
                let found = match (
                    file.theorems.get(name.as_str()),
                    file.theorems_as_written.get(name.as_str()),
                ) {
                    (Some(&a), Some(&b)) => Some(a.min(b)),
                    (a, b) => a.or(b).copied(),
                };
                match found {
                    Some(i) if seen.insert(i) => chosen.push(i),
                    Some(_) => {}
                    None => {
                        let known: Vec<&str> = file
                            .commands
                            .iter()
                            .filter(|c| is_theorem(c))
                            .filter_map(|c| c.full_name.as_deref())
                            .collect();
                        return Err(TaskError::UnknownTheorem {
                            path: path.to_string(),
                            name: name.clone(),
                            known: if known.is_empty() { "none".into() } else { known.join(", ") },
                        });
                    }
                }
            }
        }
        let statements = file.statements(&chosen);
        let targets = chosen
            .into_iter()
            .zip(statements)
            .map(|(i, (statement, statement_text))| Target {
                name: file.commands[i].full_name.clone().unwrap_or_default(),
                command: i,
                statement,
                statement_text,
            })
            .collect();
        let definition_keys = file
            .relevant
            .iter()
            .map(|&i| {
                let c = &file.commands[i];
                let fill = DEFINITION_KEYWORDS.contains(&c.keyword.as_str())
                    && scan::words(file.command_text(c)).any(|(_, w)| w == "sorry");
                let key = if fill { signature(&c.norm) } else { &c.norm };
                (fill, key.to_string())
            })
            .collect();
        Ok(Task { file, targets, transted_lite: !options.skip_transted_lite, definition_keys })
    }

    /// Check a solution. `solution`: its text, or why it could not be read (a failure of the
    /// solution, reported as [`Criterion::Unreadable`], not bad input).
    pub fn check(
        &self,
        solution_path: &str,
        solution: Result<&str, String>,
        options: &Options,
    ) -> Report {
        let not_checked = |message: String, line: Option<usize>| Report {
            task: self.file.path.clone(),
            solution: solution_path.to_string(),
            targets: self
                .targets
                .iter()
                .map(|t| TargetReport {
                    name: t.name.clone(),
                    task_line: self.file.commands[t.command].line,
                    solution_line: None,
                    statement: StatementVerdict::NotChecked,
                    findings: Vec::new(),
                    task_statement: t.statement_text.clone(),
                })
                .collect(),
            file_findings: vec![Finding {
                file: solution_path.to_string(),
                line,
                criterion: Criterion::Unreadable,
                message,
                span: None,
            }],
        };
        let text = match solution {
            Ok(text) => text,
            Err(message) => return not_checked(message, None),
        };
        let sol = match Parsed::new(solution_path, text) {
            Ok(p) => p,
            Err(e) => {
                let line = e.line();
                let message = e.to_string();
                let message =
                    message.split_once(": ").map_or(message.clone(), |(_, m)| m.to_string());
                return not_checked(message, Some(line));
            }
        };
        let mut file_findings = Vec::new();
        self.check_imports(&sol, options, &mut file_findings);
        forbidden(&self.file, &sol, options, &mut file_findings);
        let deadline = options.offline_limit.map(|l| std::time::Instant::now() + l);
        // The solution's statements of all targets in one pass over its declarations.
        let found: Vec<Option<usize>> = self.targets.iter().map(|t| sol.theorem(&t.name)).collect();
        let present: Vec<usize> = found.iter().flatten().copied().collect();
        let mut statements = sol.statements(&present).into_iter();
        let sol_before = SolutionDefinitions::new(&sol);
        let targets = self
            .targets
            .iter()
            .zip(&found)
            .map(|(t, si)| {
                let statement = si.and_then(|_| statements.next());
                if deadline.is_some_and(|d| std::time::Instant::now() > d) {
                    return TargetReport {
                        name: t.name.clone(),
                        task_line: self.file.commands[t.command].line,
                        solution_line: si.map(|i| sol.commands[i].line),
                        statement: StatementVerdict::NotChecked,
                        findings: Vec::new(),
                        task_statement: t.statement_text.clone(),
                    };
                }
                self.check_target(t, &sol, *si, statement, &sol_before)
            })
            .collect::<Vec<_>>();
        let unchecked =
            targets.iter().filter(|t| t.statement == StatementVerdict::NotChecked).count();
        if unchecked > 0 {
            file_findings.push(Finding {
                file: sol.path.clone(),
                line: None,
                criterion: Criterion::Timeout,
                message: format!(
                    "the offline check stopped at its time limit ({:.1} s): {unchecked} target(s) not checked",
                    options.offline_limit.unwrap_or_default().as_secs_f64()
                ),
                span: None,
            });
        }
        Report {
            task: self.file.path.clone(),
            solution: solution_path.to_string(),
            targets,
            file_findings,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(task: &str, sol: &str) -> Report {
        let options = Options::default();
        Task::load("task.lean", task, &options).expect("task").check("sol.lean", Ok(sol), &options)
    }

    const TASK: &str =
        "import Mathlib\n\nopen Real\n\ntheorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by\n  sorry\n";

    fn criteria_of(r: &Report) -> Vec<Criterion> {
        r.all_findings().map(|f| f.criterion).collect()
    }

    #[test]
    fn the_offline_check_stops_at_its_time_limit_and_fails() {
        let honest = "import Mathlib\n\nopen Real\n\ntheorem t (y : ℝ) (hy : 0 < y) : 0 < y ^ 2 := by\n  positivity\n";
        let options =
            Options { offline_limit: Some(std::time::Duration::ZERO), ..Options::default() };
        let r = Task::load("task.lean", TASK, &options).expect("task").check(
            "sol.lean",
            Ok(honest),
            &options,
        );
        assert!(!r.passed());
        assert_eq!(r.targets[0].statement, StatementVerdict::NotChecked);
        assert!(r.all_findings().any(|f| f.criterion == Criterion::Timeout), "{r:?}");
    }

    #[test]
    fn a_target_declared_twice_or_inside_a_term_fails() {
        let honest = "import Mathlib\n\nopen Real\n\ntheorem t (y : ℝ) (hy : 0 < y) : 0 < y ^ 2 := by\n  positivity\n";
        assert!(check(TASK, honest).passed());
        let twice =
            format!("{honest}\ntheorem t (y : ℝ) (hy : 0 < y) : 0 < y ^ 2 := by\n  positivity\n");
        let r = check(TASK, &twice);
        assert!(!r.passed());
        assert!(
            r.all_findings().any(|f| f.criterion == Criterion::Statement && f.line == Some(8)),
            "{r:?}"
        );
        // The exact statement in a quotation on one line, before a weakened target.
        let quoted = "import Mathlib\n\nopen Real\n\ndef d := `(command| theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by positivity)\ntheorem t (x : ℝ) : True := trivial\n";
        let r = check(TASK, quoted);
        assert!(
            r.all_findings().any(|f| f.line == Some(5) && f.message.contains("inside a term")),
            "{r:?}"
        );
    }

    #[test]
    fn include_namespace_and_global_options_change_what_is_checked() {
        let task =
            "import Mathlib\n\nvariable (h : 1 = 1)\n\ntheorem t (x : ℕ) : x = x := by\n  sorry\n";
        let honest = "import Mathlib\n\nvariable (h : 1 = 1)\n\nset_option linter.unusedVariables false\n\ntheorem t (x : ℕ) : x = x := by\n  rfl\n";
        assert!(check(task, honest).passed(), "{:?}", check(task, honest));
        let included = honest.replace("set_option linter.unusedVariables false", "include h");
        assert_eq!(criteria_of(&check(task, &included)), [Criterion::Header]);
        let global = honest.replace("linter.unusedVariables false", "autoImplicit true");
        let r = check(task, &global);
        assert!(criteria_of(&r).contains(&Criterion::Header), "{r:?}");
        let namespaced =
            honest.replace("theorem t", "namespace Nat\ntheorem _root_.t") + "end Nat\n";
        let r = check(task, &namespaced);
        assert!(r.all_findings().any(|f| f.message.contains("inside `namespace Nat`")), "{r:?}");
    }

    #[test]
    fn honest_solution_passes_and_renamed_binders_are_fine() {
        let r = check(TASK, "import Mathlib\n\nopen Real\n\ntheorem t (y : ℝ) (hy : 0 < y) : 0 < y ^ 2 := by\n  positivity\n");
        assert!(r.passed(), "{:?}", r.all_findings().collect::<Vec<_>>());
        assert_eq!(r.targets[0].statement, StatementVerdict::Unchanged);
    }

    #[test]
    fn an_equivalent_rewrite_is_changed_with_the_transted_lite_verdict() {
        let r = check(TASK, "import Mathlib\n\nopen Real\n\ntheorem t (x : ℝ) (h : 0 < x) : x ^ 2 > 0 := by\n  positivity\n");
        assert!(!r.passed());
        assert!(matches!(
            r.targets[0].statement,
            StatementVerdict::Changed { transted_lite: Some(0), .. }
        ));
        let f = &r.targets[0].findings[0];
        assert_eq!((f.criterion, f.line), (Criterion::Statement, Some(5)));
    }

    #[test]
    fn sorry_in_a_comment_or_string_is_not_code_but_a_hidden_one_is() {
        let r = check(TASK, "import Mathlib\n\nopen Real\n\n/- sorry /- nested -/ -/\ntheorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by\n  -- sorry\n  have : \"sorry\" = \"sorry\" := rfl\n  positivity\n");
        assert!(r.passed(), "{:?}", r.all_findings().collect::<Vec<_>>());
        let r = check(TASK, "import Mathlib\n\nopen Real\n\ntheorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by\n  have key : x * x > 0 := by sorry\n  positivity\n");
        let f: Vec<_> = r.all_findings().collect();
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!((f[0].criterion, f[0].line), (Criterion::Forbidden, Some(6)));
    }

    #[test]
    fn task_without_sorry_and_unknown_names_are_bad_input() {
        let o = Options::default();
        assert!(matches!(
            Task::load("t.lean", "theorem a : True := trivial\n", &o),
            Err(TaskError::NoTargets { .. })
        ));
        let named = Options { theorems: vec!["b".into()], ..Options::default() };
        let e = Task::load("t.lean", "theorem a : True := trivial\n", &named).unwrap_err();
        assert_eq!(e.to_string(), "t.lean: no theorem named 'b' (theorems here: a)");
        assert!(matches!(
            Task::load("t.lean", "/- open\ntheorem a : True := sorry\n", &o),
            Err(TaskError::Unreadable { .. })
        ));
    }

    #[test]
    fn shadowing_definition_in_a_namespace_is_caught() {
        let task = "import Mathlib\n\nnamespace P\n\ntheorem t (p : ℕ) (h : Nat.Prime p) : 2 ≤ p := by\n  sorry\n\nend P\n";
        let sol = "import Mathlib\n\nnamespace P\n\ndef Nat.Prime (_ : ℕ) : Prop := False\n\ntheorem t (p : ℕ) (h : Nat.Prime p) : 2 ≤ p := by\n  exact absurd h id\n\nend P\n";
        let r = check(task, sol);
        let f: Vec<_> = r.all_findings().collect();
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!((f[0].criterion, f[0].line), (Criterion::Header, Some(5)));
        assert!(f[0].message.contains("Nat.Prime"), "{}", f[0].message);
        // A helper lemma with an unrelated name is fine.
        let honest = "import Mathlib\n\nnamespace P\n\nlemma helper (p : ℕ) (h : Nat.Prime p) : 2 ≤ p := h.two_le\n\ntheorem t (p : ℕ) (h : Nat.Prime p) : 2 ≤ p := by\n  exact helper p h\n\nend P\n";
        assert!(check(task, honest).passed());
    }

    #[test]
    fn a_sorry_definition_is_a_blank_to_fill_but_its_signature_stays() {
        let task = "abbrev answer : ℕ := sorry\n\ntheorem t : answer = 4 := by\n  sorry\n";
        let filled = "abbrev answer : ℕ := 4\n\ntheorem t : answer = 4 := by\n  rfl\n";
        assert!(check(task, filled).passed());
        let retyped = "abbrev answer : ℤ := 4\n\ntheorem t : answer = 4 := by\n  rfl\n";
        let r = check(task, retyped);
        let f: Vec<_> = r.all_findings().collect();
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!((f[0].criterion, f[0].line), (Criterion::Header, Some(1)));
    }

    #[test]
    fn an_instance_attribute_on_its_own_line_is_a_trick() {
        let task = "theorem t : 2 + 2 = 4 := by\n  sorry\n";
        let sol =
            "@[instance]\ndef weird : Add ℕ := ⟨Nat.mul⟩\n\ntheorem t : 2 + 2 = 4 := by\n  rfl\n";
        let r = check(task, sol);
        let found: Vec<Criterion> = r.all_findings().map(|f| f.criterion).collect();
        assert!(found.contains(&Criterion::Forbidden), "{found:?}");
    }

    proptest::proptest! {
        /// Any text, as task or solution (comment and string openers, primes, Unicode, command
        /// words mixed at random): an error or a report, never a panic.
        #[test]
        fn arbitrary_text_never_panics(pieces in proptest::collection::vec(
            proptest::sample::select(vec![
                "theorem t (x : ℕ) : x = x := by\n", "  sorry\n", "/-", "-/", "--", "\"", "'",
                "x'", "'a'", "namespace A\n", "end A\n", "open Nat in ", "@[simp]\n", "def ",
                "axiom ", "\n", " ", "ℝ", "r#\"", "#\"", "\\", ":=", "(", ")", "lemma u : 1 = 1",
                "local notation \"+\" => 1\n", "section\n", "end\n", "x.Prime ", "∀ y, ",
            ]), 0..40)) {
            let text: String = pieces.concat();
            let options = Options::default();
            let _ = scan::mask(&text);
            if let Ok(task) = Task::load("t.lean", &text, &options) {
                let r = task.check("s.lean", Ok(&text), &options);
                let _ = r.passed();
                let reversed: String = pieces.iter().rev().copied().collect();
                let _ = task.check("s.lean", Ok(&reversed), &options);
            }
        }
    }
}
