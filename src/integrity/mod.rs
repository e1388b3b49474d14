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
//! Trust: the static checks are a filter in front of Lean, not a replacement: they catch the
//! cheats that compile (a weakened statement, a shadowing definition, an `open` that changes a
//! name) and the obvious bypasses, but only the kernel's `#print axioms` sees through every
//! obfuscation. A target passes offline only when no check found anything.

pub mod lean;
pub mod scan;

use crate::metrics::transted_lite::{rules, TransTedLite};
use crate::trees::lean_syntax::{
    DEFINITION_KEYWORDS, MEANING_COMMANDS, SCOPED_CONTEXT_COMMANDS, STATEMENT_TEXT_KEYWORDS,
};
use crate::trees::parse::{self, Header};
use crate::trees::{Span, Statement, Tree};
use scan::{Command, ScanError};
use std::collections::{HashMap, HashSet};

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
        self.file_findings
            .iter()
            .chain(self.targets.iter().flat_map(|t| t.findings.iter()))
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
    UnknownTheorem {
        path: String,
        name: String,
        known: String,
    },
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

/// A file cut into commands, with its targets' statements parsed where they are declarations.
///
/// Everything a check looks up per target is indexed here once (one pass each), so checking
/// T targets in a file of C commands costs about T + C, not T × C: the theorems by name, the
/// commands that set the scoped context or define something, the line starts, and (on first
/// use) the engine's declarations of the whole file.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub path: String,
    pub text: String,
    pub masked: String,
    pub commands: Vec<Command>,
    /// Byte offset of each line's start.
    line_starts: Vec<usize>,
    /// The first theorem/lemma by full name, and by the name as written.
    theorems: HashMap<String, usize>,
    theorems_as_written: HashMap<String, usize>,
    /// Every declaring command by full name, in order.
    declarations: HashMap<String, Vec<usize>>,
    /// Commands that may be in scope at a later command ([`in_scope`]).
    context: Vec<usize>,
    /// Commands that define something or change meaning ([`DEFINITION_KEYWORDS`], [`MEANING_COMMANDS`]).
    relevant: Vec<usize>,
    /// `theorem NAME` / `lemma NAME` word pairs that are not a command's own name (inside a
    /// term), by the name's last component: (offset of the name, the name as written).
    nested_declarations: HashMap<String, Vec<(usize, String)>>,
    /// The engine's declarations of the whole text, found once when first needed.
    declarations_found: std::sync::OnceLock<Vec<parse::Declaration>>,
}

impl Parsed {
    /// Mask and split `text` (the file at `path`).
    pub fn new(path: &str, text: &str) -> Result<Parsed, ScanError> {
        let masked = scan::mask(text)?;
        let commands = scan::split(&masked);
        let mut line_starts = vec![0];
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        let mut theorems = HashMap::new();
        let mut theorems_as_written = HashMap::new();
        let mut declarations: HashMap<String, Vec<usize>> = HashMap::new();
        let mut context = Vec::new();
        let mut relevant = Vec::new();
        for (i, c) in commands.iter().enumerate() {
            if is_theorem(c) {
                if let Some(n) = &c.full_name {
                    theorems.entry(n.clone()).or_insert(i);
                }
                if let Some(n) = &c.name {
                    theorems_as_written.entry(n.clone()).or_insert(i);
                }
            }
            if let (Some(_), Some(full)) = (&c.name, &c.full_name) {
                declarations.entry(full.clone()).or_default().push(i);
            }
            if may_be_context(c) {
                context.push(i);
            }
            if DEFINITION_KEYWORDS.contains(&c.keyword.as_str())
                || MEANING_COMMANDS.contains(&c.keyword.as_str())
            {
                relevant.push(i);
            }
        }
        let nested_declarations = nested_declarations(&masked, &commands);
        Ok(Parsed {
            path: path.to_string(),
            text: text.to_string(),
            masked,
            commands,
            line_starts,
            theorems,
            theorems_as_written,
            declarations,
            context,
            relevant,
            nested_declarations,
            declarations_found: std::sync::OnceLock::new(),
        })
    }

    fn command_text(&self, c: &Command) -> &str {
        self.masked.get(c.start..c.end).unwrap_or_default()
    }

    /// The 1-based line of byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset).max(1)
    }

    /// The theorem/lemma declaring `full_name`, if any (the first one).
    pub fn theorem(&self, full_name: &str) -> Option<usize> {
        self.theorems.get(full_name).copied()
    }

    /// The command containing byte `offset`, if any (commands are in order).
    fn command_at(&self, offset: usize) -> Option<&Command> {
        let k = self.commands.partition_point(|c| c.start <= offset);
        let c = self.commands.get(k.checked_sub(1)?)?;
        (offset < c.end.max(c.start + 1)).then_some(c)
    }

    /// The statements of the declarations that commands `indices` are (parsed with the engine's
    /// parser), and their masked text after the name; in the order of `indices`. One pass over
    /// the file's declarations, and its header read once, however many there are.
    fn statements(&self, indices: &[usize]) -> Vec<(Option<Statement>, String)> {
        let decls = self
            .declarations_found
            .get_or_init(|| parse::find_declarations(&self.text));
        let mut order: Vec<usize> = (0..indices.len()).collect();
        order.sort_by_key(|&k| self.commands[indices[k]].start);
        let mut out: Vec<(Option<Statement>, String)> = vec![(None, String::new()); indices.len()];
        let mut header = Header::default();
        let mut header_to = 0usize;
        let mut d = 0usize;
        for k in order {
            let c = &self.commands[indices[k]];
            while d < decls.len() && decls[d].end <= c.start {
                d += 1;
            }
            let found = decls[d..]
                .iter()
                .take_while(|x| x.start <= c.end)
                .find(|x| x.end > c.start && x.name.is_some());
            let Some(decl) = found else {
                continue;
            };
            let after_name = decl.name_range.map_or(decl.start, |(_, e)| e);
            let text = self
                .masked
                .get(after_name..decl.statement_end.max(after_name))
                .unwrap_or_default();
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            // The header of everything before the declaration, read on from where the last
            // one stopped (its lines only add imports, opens and notations).
            if decl.start > header_to {
                let more = Header::parse(self.text.get(header_to..decl.start).unwrap_or_default());
                header.imports.extend(more.imports);
                header.opens.extend(more.opens);
                header.scoped_opens.extend(more.scoped_opens);
                header.notations.extend(more.notations);
                header_to = decl.start;
            }
            let statement = parse::parse_declaration_in(&self.text, decl, &header).ok();
            out[k] = (statement, text);
        }
        out
    }

    fn line_span(&self, c: &Command) -> (usize, usize) {
        let first_line_end = self.text[c.start..]
            .find('\n')
            .map_or(self.text.len(), |n| c.start + n)
            .min(c.end.max(c.start));
        (c.start, first_line_end)
    }
}

/// `theorem NAME`/`lemma NAME` pairs of the masked text that are not the name of the command
/// they are in (a command's own name is the first such pair in it), by the name's last
/// component.
fn nested_declarations(
    masked: &str,
    commands: &[Command],
) -> HashMap<String, Vec<(usize, String)>> {
    let mut out: HashMap<String, Vec<(usize, String)>> = HashMap::new();
    let mut previous: Option<&str> = None;
    let mut command = 0;
    let mut first_pair_seen: Option<usize> = None;
    for (offset, word) in scan::words(masked) {
        let after_keyword = matches!(previous, Some("theorem" | "lemma"));
        previous = Some(word);
        if !after_keyword {
            continue;
        }
        while command + 1 < commands.len() && commands[command + 1].start <= offset {
            command += 1;
        }
        let c = commands.get(command).filter(|c| c.start <= offset);
        let first_in_command = c.is_some() && first_pair_seen != Some(command);
        if c.is_some() {
            first_pair_seen = Some(command);
        }
        if first_in_command && c.is_some_and(|c| c.name.as_deref() == Some(word)) {
            continue;
        }
        let written = word.strip_prefix("_root_.").unwrap_or(word);
        let last = written.rsplit('.').next().unwrap_or(written).to_string();
        out.entry(last)
            .or_default()
            .push((offset, word.to_string()));
    }
    out
}

fn is_theorem(c: &Command) -> bool {
    c.keyword == "theorem" || c.keyword == "lemma"
}

/// Options that bound resources only; a solution may add them.
const RESOURCE_OPTIONS: &[&str] = &["maxHeartbeats", "maxRecDepth", "synthInstance.max"];

/// Option prefixes that change only output or diagnostics, never what a statement elaborates
/// to: a solution may set them anywhere.
const HARMLESS_OPTIONS: &[&str] = &["linter.", "pp.", "trace.", "profiler"];

/// Options that change how a statement elaborates wherever they are set (auto-bound implicit
/// variables turn an unknown name into a new universally quantified one).
const ELABORATION_OPTIONS: &[&str] = &["autoImplicit", "relaxedAutoImplicit"];

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

/// A definition's text up to ` :=` (its signature), or all of it.
fn signature(norm: &str) -> &str {
    norm.split_once(" :=").map_or(norm, |(s, _)| s)
}

/// A solution's definitions (`Parsed::relevant`, by rank in it) by text, by signature and by
/// (full name, keyword): what the task's definitions are matched against, built once per
/// solution.
struct SolutionDefinitions {
    by_text: HashMap<String, Vec<usize>>,
    by_signature: HashMap<String, Vec<usize>>,
    by_name: HashMap<(String, String), Vec<usize>>,
}

impl SolutionDefinitions {
    fn new(sol: &Parsed) -> SolutionDefinitions {
        let mut d = SolutionDefinitions {
            by_text: HashMap::new(),
            by_signature: HashMap::new(),
            by_name: HashMap::new(),
        };
        for (rank, &i) in sol.relevant.iter().enumerate() {
            let c = &sol.commands[i];
            d.by_text.entry(c.norm.clone()).or_default().push(rank);
            d.by_signature
                .entry(signature(&c.norm).to_string())
                .or_default()
                .push(rank);
            if let Some(n) = &c.full_name {
                d.by_name
                    .entry((n.clone(), c.keyword.clone()))
                    .or_default()
                    .push(rank);
            }
        }
        d
    }
}

impl Task {
    /// Read a task and find its targets (see the module doc). A task without targets, or a
    /// named target that does not exist, is bad input.
    pub fn load(path: &str, text: &str, options: &Options) -> Result<Task, TaskError> {
        let file = Parsed::new(path, text).map_err(|source| TaskError::Unreadable {
            path: path.to_string(),
            source,
        })?;
        let mut chosen: Vec<usize> = Vec::new();
        if options.theorems.is_empty() {
            for (i, c) in file.commands.iter().enumerate() {
                if is_theorem(c) && c.full_name.is_some() && proof_uses_sorry(&file, i) {
                    chosen.push(i);
                }
            }
            if chosen.is_empty() {
                return Err(TaskError::NoTargets {
                    path: path.to_string(),
                });
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
                            known: if known.is_empty() {
                                "none".into()
                            } else {
                                known.join(", ")
                            },
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
        Ok(Task {
            file,
            targets,
            transted_lite: !options.skip_transted_lite,
            definition_keys,
        })
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
                let message = message
                    .split_once(": ")
                    .map_or(message.clone(), |(_, m)| m.to_string());
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
        let unchecked = targets
            .iter()
            .filter(|t| t.statement == StatementVerdict::NotChecked)
            .count();
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

    fn check_imports(&self, sol: &Parsed, options: &Options, out: &mut Vec<Finding>) {
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

    fn check_target(
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
        report.statement = compare_statements(
            target,
            sol_statement.as_ref(),
            &sol_text,
            self.transted_lite,
        );
        if let StatementVerdict::Changed {
            transted_lite,
            first_difference,
        } = &report.statement
        {
            let info = match transted_lite {
                Some(0) => " (an equivalent rewrite by transted-lite, distance 0: still a changed statement)".to_string(),
                Some(d) => format!(" (transted-lite distance {d})"),
                None => String::new(),
            };
            let (line, span) = match first_difference {
                Some(s) => (
                    sol.line_of(s.start as usize),
                    Some((s.start as usize, s.end as usize)),
                ),
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
    fn check_declared_once(
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

    /// `open`, `variable`, `universe` in scope at the target: the same, as multisets.
    fn check_context(&self, target: &Target, sol: &Parsed, si: usize, out: &mut Vec<Finding>) {
        let task_ctx = in_scope(&self.file, target.command);
        let sol_ctx = in_scope(sol, si);
        let mut unmatched: Vec<Option<&Command>> = task_ctx.iter().map(|c| Some(*c)).collect();
        for c in &sol_ctx {
            if let Some(slot) = unmatched
                .iter_mut()
                .find(|s| s.is_some_and(|t| t.norm == c.norm))
            {
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
            out.push(Finding {
                file: sol.path.clone(),
                line: Some(sol.commands[si].line),
                criterion: Criterion::Header,
                message: format!(
                    "the task's `{}` ({}:{}) is not in scope at `{}`",
                    shown(&self.file, t),
                    self.file.path,
                    t.line,
                    target.name
                ),
                span: Some(sol.line_span(&sol.commands[si])),
            });
        }
    }

    /// Definitions, notations, instances, macros before the target.
    fn check_definitions(
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
            ranks
                .and_then(|r| r.first())
                .copied()
                .filter(|&r| r < sol_before.len())
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
                None => out.push(Finding {
                    file: sol.path.clone(),
                    line: Some(sol.commands[si].line),
                    criterion: Criterion::Header,
                    message: format!(
                        "the task's `{}` ({}:{}) is missing before `{}`",
                        shown(&self.file, t),
                        self.file.path,
                        t.line,
                        target.name
                    ),
                    span: Some(sol.line_span(&sol.commands[si])),
                }),
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

/// A command as written (comments dropped, whitespace collapsed, cut at 80 chars), for messages.
fn shown(p: &Parsed, c: &Command) -> String {
    // At most 80 characters are shown: read no more than a few hundred bytes of the command.
    let mut end = c.end.min(c.start + 400);
    while !p.text.is_char_boundary(end) {
        end -= 1;
    }
    let original = p.text.get(c.start..end).unwrap_or_default();
    // Keep the source's characters where the mask kept code (string literals stay readable).
    let kept: String = original
        .char_indices()
        .map(|(i, ch)| {
            let masked = p.masked.as_bytes().get(c.start + i).copied();
            if masked == Some(b' ') && !ch.is_whitespace() && !in_string(original, i) {
                ' '
            } else {
                ch
            }
        })
        .collect();
    short(&kept.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Is byte `i` of `text` inside a `"…"` literal (counting unescaped quotes before it on its line)?
fn in_string(text: &str, i: usize) -> bool {
    let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
    let mut inside = false;
    let mut escaped = false;
    for ch in text[line_start..i].chars() {
        match ch {
            '\\' if inside && !escaped => escaped = true,
            '"' if !escaped => inside = !inside,
            _ => escaped = false,
        }
    }
    inside
}

/// The first 80 chars of a command's text, for messages.
fn short(norm: &str) -> String {
    let mut s: String = norm.chars().take(80).collect();
    if s.len() < norm.len() {
        s.push('…');
    }
    s
}

/// Does the task's proof of command `i` use `sorry` (after its statement's `:=`)?
fn proof_uses_sorry(file: &Parsed, i: usize) -> bool {
    let c = &file.commands[i];
    let text = file.command_text(c);
    // The proof starts at the first top-level `:=`; a `sorry` before it would be in the
    // statement, which no task does, so any `sorry` word in the command counts.
    scan::words(text).any(|(_, w)| w == "sorry" || w == "admit")
}

/// Scoped context commands in scope at command `at`: same scope chain prefix, before it; an
/// `open … in` / `set_option … in` only when it is right before `at`.
fn in_scope(file: &Parsed, at: usize) -> Vec<&Command> {
    let here = &file.commands[at].scope_ids;
    let mut out = Vec::new();
    let before = file.context.partition_point(|&i| i < at);
    for &i in &file.context[..before] {
        let c = &file.commands[i];
        if c.norm.ends_with(" in") {
            if i + 1 == at {
                out.push(c);
            }
            continue;
        }
        if c.scope_ids.len() <= here.len() && here.starts_with(&c.scope_ids) {
            out.push(c);
        }
    }
    out
}

/// Whether a command can be in the scoped context of a later one: `open`, `variable`,
/// `universe`, `export`, `include`, `omit`, and a `set_option` that is no resource limit and not
/// only about output (global or `… in`).
fn may_be_context(c: &Command) -> bool {
    // Resource limits (`set_option maxHeartbeats N in`) change no statement's meaning.
    let resource = RESOURCE_OPTIONS.iter().any(|o| c.norm.contains(o));
    let option = c.norm.split_whitespace().nth(1).unwrap_or_default();
    let harmless = HARMLESS_OPTIONS.iter().any(|h| option.starts_with(h));
    // A global `set_option` holds to the end of its section as an `open` does.
    SCOPED_CONTEXT_COMMANDS.contains(&c.keyword.as_str())
        || (c.keyword == "set_option" && !resource && !harmless)
}

/// Names the statement uses: identifiers of its text that are not bound in it (dotted names
/// whole; for field notation `p.Prime` on a bound `p`, the field `Prime`).
fn statement_names(
    target: &Target,
    sol_statement: Option<&Statement>,
    masked: &str,
    sol_command: &Command,
) -> Vec<String> {
    let mut bound: HashSet<String> = HashSet::new();
    for st in [target.statement.as_ref(), sol_statement]
        .into_iter()
        .flatten()
    {
        collect_bound(&st.tree, &mut bound);
    }
    let mut out: Vec<String> = Vec::new();
    let texts = [
        target.statement_text.as_str(),
        masked
            .get(sol_command.start..sol_command.end)
            .unwrap_or_default(),
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

fn collect_bound(t: &Tree, out: &mut HashSet<String>) {
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
fn shadowed<'a>(declared: &str, uses: &'a [String]) -> Option<&'a str> {
    uses.iter()
        .find(|u| declared == u.as_str() || declared.ends_with(&format!(".{u}")))
        .map(String::as_str)
}

fn compare_statements(
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
        _ => StatementVerdict::Changed {
            transted_lite: None,
            first_difference: None,
        },
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

/// Words that break the criteria wherever they occur in the solution's code, and why.
fn forbidden_word(word: &str, allow_native: bool) -> Option<&'static str> {
    let last = word.rsplit('.').next().unwrap_or(word);
    Some(match last {
        "sorry" | "sorryAx" => "`sorry`: an unproved goal",
        "admit" | "admitGoal" => "`admit`: an unproved goal",
        "axiom" => "`axiom`: a new assumption",
        "unsafe" => "`unsafe`: bypasses the kernel's checks",
        "implemented_by" => "`@[implemented_by]`: swaps in code the kernel never checks",
        "extern" => "`@[extern]`: swaps in code the kernel never checks",
        "skipKernelTC" => "`set_option debug.skipKernelTC`: the kernel does not check the proof",
        "byAsSorry" => "`set_option debug.byAsSorry`: every `by` block becomes `sorry`",
        "native_decide" | "ofReduceBool" | "ofReduceNat" if !allow_native => {
            "`native_decide`: trusts the compiler (allow with --allow-native-decide)"
        }
        _ => return None,
    })
}

/// Forbidden constructs anywhere in the solution's code that the task does not have.
fn forbidden(task: &Parsed, sol: &Parsed, options: &Options, out: &mut Vec<Finding>) {
    let task_commands: HashSet<&str> = task.commands.iter().map(|c| c.norm.as_str()).collect();
    let from_task = |offset: usize| {
        sol.command_at(offset)
            .is_some_and(|c| task_commands.contains(c.norm.as_str()))
    };
    let bytes = sol.masked.as_bytes();
    for (offset, word) in scan::words(&sol.masked) {
        let mut why = forbidden_word(word, options.allow_native_decide);
        // `decide +native` / `decide (config := { native := true })`.
        if word == "native" && !options.allow_native_decide {
            let before_plus = offset > 0 && bytes[offset - 1] == b'+';
            let after = sol.masked[offset + word.len()..].trim_start();
            if before_plus || after.starts_with(":= true") {
                why = Some(
                    "`decide +native`: trusts the compiler (allow with --allow-native-decide)",
                );
            }
        }
        let after_hash = offset > 0 && bytes[offset - 1] == b'#';
        why = why.or(match word {
            "exit" if after_hash => Some(
                "`#exit`: Lean stops reading the file here, so nothing after it is checked",
            ),
            "eval" if after_hash => {
                Some("`#eval`: runs code that can change the environment the target is checked in")
            }
            "run_cmd" | "run_elab" | "run_meta" => {
                Some("`run_cmd`: runs code that can change the environment the target is checked in")
            }
            "initialize" | "builtin_initialize" => {
                Some("`initialize`: runs code with effects when the file is loaded")
            }
            w if ELABORATION_OPTIONS.contains(&w) => Some(
                "`autoImplicit`: changes how the statement's unknown names elaborate (into new variables)",
            ),
            _ => None,
        });
        let Some(why) = why else { continue };
        let always = matches!(
            word.rsplit('.').next(),
            Some("sorry" | "admit" | "sorryAx" | "admitGoal")
        );
        if !always && from_task(offset) {
            continue;
        }
        out.push(Finding {
            file: sol.path.clone(),
            line: Some(sol.line_of(offset)),
            criterion: Criterion::Forbidden,
            message: why.to_string(),
            span: Some((offset, offset + word.len())),
        });
    }
    // Instance tricks: `local instance`, `scoped instance`, `attribute [instance]`,
    // `attribute [local instance]`, `@[instance]` / `@[local instance]` on a definition.
    for c in &sol.commands {
        if task_commands.contains(c.norm.as_str()) {
            continue;
        }
        let local =
            c.keyword == "instance" && c.modifiers.iter().any(|m| m == "local" || m == "scoped");
        let attribute = c.keyword == "attribute"
            && c.norm
                .split(']')
                .next()
                .is_some_and(|a| a.contains("instance"));
        let tagged = c
            .modifiers
            .iter()
            .any(|m| m.starts_with("@[") && m.contains("instance"));
        if local || attribute || tagged {
            out.push(Finding {
                file: sol.path.clone(),
                line: Some(c.line),
                criterion: Criterion::Forbidden,
                message: format!(
                    "`{}`: a local instance trick (changes which instance the statement's notation uses)",
                    shown(sol, c)
                ),
                span: Some(sol.line_span(c)),
            });
        }
    }
    out.sort_by_key(|f| f.line);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(task: &str, sol: &str) -> Report {
        let options = Options::default();
        Task::load("task.lean", task, &options)
            .expect("task")
            .check("sol.lean", Ok(sol), &options)
    }

    const TASK: &str =
        "import Mathlib\n\nopen Real\n\ntheorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by\n  sorry\n";

    fn criteria_of(r: &Report) -> Vec<Criterion> {
        r.all_findings().map(|f| f.criterion).collect()
    }

    #[test]
    fn the_offline_check_stops_at_its_time_limit_and_fails() {
        let honest = "import Mathlib\n\nopen Real\n\ntheorem t (y : ℝ) (hy : 0 < y) : 0 < y ^ 2 := by\n  positivity\n";
        let options = Options {
            offline_limit: Some(std::time::Duration::ZERO),
            ..Options::default()
        };
        let r = Task::load("task.lean", TASK, &options)
            .expect("task")
            .check("sol.lean", Ok(honest), &options);
        assert!(!r.passed());
        assert_eq!(r.targets[0].statement, StatementVerdict::NotChecked);
        assert!(
            r.all_findings().any(|f| f.criterion == Criterion::Timeout),
            "{r:?}"
        );
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
            r.all_findings()
                .any(|f| f.criterion == Criterion::Statement && f.line == Some(8)),
            "{r:?}"
        );
        // The exact statement in a quotation on one line, before a weakened target.
        let quoted = "import Mathlib\n\nopen Real\n\ndef d := `(command| theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by positivity)\ntheorem t (x : ℝ) : True := trivial\n";
        let r = check(TASK, quoted);
        assert!(
            r.all_findings()
                .any(|f| f.line == Some(5) && f.message.contains("inside a term")),
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
        assert!(
            r.all_findings()
                .any(|f| f.message.contains("inside `namespace Nat`")),
            "{r:?}"
        );
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
            StatementVerdict::Changed {
                transted_lite: Some(0),
                ..
            }
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
        let named = Options {
            theorems: vec!["b".into()],
            ..Options::default()
        };
        let e = Task::load("t.lean", "theorem a : True := trivial\n", &named).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.lean: no theorem named 'b' (theorems here: a)"
        );
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
