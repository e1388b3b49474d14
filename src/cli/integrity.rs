//! `lean-assess integrity TASK.lean SOLUTION.lean` and `integrity --tasks DIR --solutions DIR`:
//! did each solution keep its task's statement (LeanCat's valid proof criteria)?
//!
//! Owns reading the files (the batch pairs same-named `.lean` files, subdirectories included),
//! the optional Lean pass (`--lean-project DIR`: one server for the whole run, through
//! `crate::lean::batch`'s server and `crate::integrity::lean::verify`), and the output: one block
//! per solution with every failure as `FILE:LINE: CRITERION: message`, then the summary in raw
//! counts and percentages (LeanCat's "Recommended Reporting"), or one JSON object with `--json`.
//! The checks themselves are `crate::integrity`'s.
//!
//! Exit status: 0 when every target of every task passes; 1 when some fail (a missing or
//! unreadable solution fails its task); 2 for bad input: an unreadable task, a task without a
//! `sorry`, an unknown `--theorem`, a missing solution file in the two-file form, bad flags.
//! In the batch, a bad task is one line on stderr and the run goes on (exit 2 at the end).

use super::Status;
use crate::integrity::{self, Criterion, Options, Parsed, Report, StatementVerdict, Task};
use crate::lean::batch::{self, LeanServer};
use crate::lean::oracle::{Oracle, OracleConfig};
use anyhow::{bail, Context};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// TASK.lean then SOLUTION.lean (or use --tasks/--solutions).
    #[arg(value_name = "FILE.lean")]
    files: Vec<PathBuf>,
    /// Directory of task files (with --solutions: same-named files are paired).
    #[arg(long, value_name = "DIR", requires = "solutions")]
    tasks: Option<PathBuf>,
    /// Directory of solution files.
    #[arg(long, value_name = "DIR", requires = "tasks")]
    solutions: Option<PathBuf>,
    /// Only these targets (default: every theorem/lemma whose proof in the task is `sorry`).
    #[arg(long = "theorem", value_name = "NAME")]
    theorems: Vec<String>,
    /// A module the solution may import beyond the task's imports (repeatable).
    #[arg(long = "allow-import", value_name = "MODULE")]
    allow_imports: Vec<String>,
    /// Allow `native_decide` (it trusts the compiler: Lean.ofReduceBool).
    #[arg(long)]
    allow_native_decide: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// A Lake project whose toolchain and imports fit the files: also elaborate each solution
    /// that passes the offline checks and `#print axioms` its targets.
    #[arg(long, value_name = "DIR")]
    lean_project: Option<PathBuf>,
    /// With --lean-project: the server command (default: env `LEAN_ASSESS_SERVER`, else `lake
    /// serve --`).
    #[arg(long, value_name = "COMMAND")]
    server_command: Option<String>,
    /// With --lean-project: the verification timeout per solution, in seconds (LeanCat: 300).
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    timeout: u64,
    /// The offline check's time limit per solution, in seconds: targets not reached by then
    /// are not checked and the solution fails (timeout).
    #[arg(long, value_name = "SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    offline_timeout: u64,
}

/// One task/solution pair of the run.
struct Job {
    task: PathBuf,
    solution: PathBuf,
}

/// What the run found for one task.
enum Outcome {
    Checked(Box<Report>, Option<Box<Parsed>>),
    /// Bad task (already reported on stderr).
    BadTask(String, String),
}

pub fn run(args: Args, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<Status> {
    let options = Options {
        theorems: args.theorems.clone(),
        allow_imports: args.allow_imports.clone(),
        allow_native_decide: args.allow_native_decide,
        skip_transted_lite: false,
        offline_limit: Some(Duration::from_secs(args.offline_timeout)),
    };
    if let Some(dir) = &args.lean_project {
        if !dir.is_dir() {
            bail!("--lean-project {}: not a directory", dir.display());
        }
    }
    if args.timeout == 0 {
        bail!("--timeout: must be at least 1 second");
    }
    let (jobs, single) = match (&args.tasks, &args.solutions, args.files.as_slice()) {
        (Some(tasks), Some(solutions), []) => (batch_jobs(tasks, solutions)?, false),
        (Some(_), _, [_, ..]) => {
            bail!("give either TASK SOLUTION or --tasks/--solutions, not both")
        }
        (None, None, [task, solution]) => {
            // In the two-file form a solution path that does not exist is a usage error.
            if !solution.is_file() {
                bail!("{}: no such file", solution.display());
            }
            (vec![Job { task: task.clone(), solution: solution.clone() }], true)
        }
        _ => bail!("give TASK.lean SOLUTION.lean, or --tasks DIR --solutions DIR"),
    };
    let started = Instant::now();
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(jobs.len());
    for job in &jobs {
        let task_name = job.task.display().to_string();
        let task_text = match read_text(&job.task) {
            Ok(t) => t,
            Err(e) if single => bail!("{e}"),
            Err(e) => {
                writeln!(err, "lean-assess: error: {e}")?;
                outcomes.push(Outcome::BadTask(task_name, e));
                continue;
            }
        };
        let task = match Task::load(&task_name, &task_text, &options) {
            Ok(t) => t,
            Err(e) if single => return Err(e.into()),
            Err(e) => {
                writeln!(err, "lean-assess: error: {e}")?;
                outcomes.push(Outcome::BadTask(task_name, e.to_string()));
                continue;
            }
        };
        let solution_name = job.solution.display().to_string();
        let solution_text = read_text(&job.solution);
        let report = task.check(
            &solution_name,
            solution_text
                .as_deref()
                .map_err(|e| e.split_once(": ").map_or(e.clone(), |(_, m)| m.to_string())),
            &options,
        );
        let parsed =
            solution_text.ok().and_then(|t| Parsed::new(&solution_name, &t).ok()).map(Box::new);
        outcomes.push(Outcome::Checked(Box::new(report), parsed));
    }
    let offline_seconds = started.elapsed().as_secs_f64();
    if let Some(project) = &args.lean_project {
        verify_with_lean(&args, project, &mut outcomes, err)?;
    }
    let bad_tasks = outcomes.iter().filter(|o| matches!(o, Outcome::BadTask(..))).count();
    let reports: Vec<&Report> = outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Checked(r, _) => Some(r.as_ref()),
            Outcome::BadTask(..) => None,
        })
        .collect();
    let summary = Summary::of(&reports, bad_tasks);
    let setting = match &args.lean_project {
        Some(p) => format!(
            "Lean project {} (elaboration + #print axioms), verification timeout {} s",
            p.display(),
            args.timeout
        ),
        None => {
            "offline checks only (no --lean-project: not elaborated, axioms not printed)".into()
        }
    };
    if args.json {
        let errors: Vec<Value> = outcomes
            .iter()
            .filter_map(|o| match o {
                Outcome::BadTask(task, e) => Some(json!({"task": task, "error": e})),
                Outcome::Checked(..) => None,
            })
            .collect();
        let object = json!({
            "reports": reports.iter().map(|r| report_json(r)).collect::<Vec<_>>(),
            "errors": errors,
            "summary": summary.json(),
            "lean": args.lean_project.is_some(),
            "timeout_seconds": args.lean_project.as_ref().map(|_| args.timeout),
            "offline_seconds": offline_seconds,
        });
        let text = serde_json::to_string_pretty(&object).context("BUG: JSON values serialize")?;
        writeln!(out, "{text}")?;
    } else {
        for r in &reports {
            write_report(r, out)?;
        }
        summary.write(out, &setting)?;
    }
    if bad_tasks > 0 {
        bail!("{bad_tasks} task(s) could not be used (each named above)");
    }
    Ok(if summary.targets_failed == 0 { Status::Success } else { Status::SomeFailed })
}

/// Read a regular file of bounded size as UTF-8; the error names the file (and the line of the
/// first bad byte). A FIFO or device given as a task or solution is refused, never waited on.
fn read_text(path: &Path) -> Result<String, String> {
    crate::files::read_regular_file(path, crate::files::MAX_SOURCE_BYTES)
}

/// Every `.lean` file under `tasks` (sorted), paired with the same relative path under
/// `solutions`.
fn batch_jobs(tasks: &Path, solutions: &Path) -> anyhow::Result<Vec<Job>> {
    for (flag, dir) in [("--tasks", tasks), ("--solutions", solutions)] {
        if !dir.is_dir() {
            bail!("{flag} {}: not a directory", dir.display());
        }
    }
    let mut found = Vec::new();
    let mut stack = vec![tasks.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries =
            std::fs::read_dir(&dir).with_context(|| format!("cannot read {}", dir.display()))?;
        for entry in entries {
            let path = entry.with_context(|| format!("cannot read {}", dir.display()))?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "lean") {
                found.push(path);
            }
        }
    }
    found.sort();
    if found.is_empty() {
        bail!("--tasks {}: no .lean files", tasks.display());
    }
    Ok(found
        .into_iter()
        .map(|task| {
            let relative = task.strip_prefix(tasks).unwrap_or(&task).to_path_buf();
            Job { solution: solutions.join(relative), task }
        })
        .collect())
}

/// Elaborate every solution that passed the offline checks, through one server.
fn verify_with_lean(
    args: &Args,
    project: &Path,
    outcomes: &mut [Outcome],
    err: &mut dyn Write,
) -> anyhow::Result<()> {
    let todo: Vec<usize> = (0..outcomes.len())
        .filter(|&i| matches!(&outcomes[i], Outcome::Checked(r, Some(_)) if r.passed()))
        .collect();
    if todo.is_empty() {
        return Ok(());
    }
    let command = batch::server_command(args.server_command.as_deref())?;
    let project =
        project.canonicalize().with_context(|| format!("--lean-project {}", project.display()))?;
    let timeout = Duration::from_secs(args.timeout);
    let runtime = batch::runtime()?;
    let total = todo.len();
    runtime.block_on(async {
        let server = LeanServer::start(&command, &project).await?;
        let mut oracle = Oracle::new(
            server.rpc.clone(),
            OracleConfig {
                // Real files in the project's hidden scratch directory (a missing file or one
                // outside the root is a header error on a real Lake; see lean::scratch).
                scratch_dir: Some(crate::lean::scratch::dir_of(&server.project)),
                request_timeout: timeout,
                ..OracleConfig::default()
            },
        );
        for (k, &i) in todo.iter().enumerate() {
            if let Outcome::Checked(report, Some(parsed)) = &mut outcomes[i] {
                integrity::lean::verify(&mut oracle, parsed, report, timeout).await;
                let verdict = if report.passed() { "pass" } else { "fail" };
                writeln!(err, "[{}/{total}] {}: {verdict}", k + 1, report.solution)?;
            }
        }
        oracle.close_all().await;
        server.shutdown().await;
        anyhow::Ok(())
    })?;
    runtime.shutdown_timeout(Duration::from_millis(200));
    Ok(())
}

fn statement_text(s: &StatementVerdict) -> String {
    match s {
        StatementVerdict::Unchanged => "statement unchanged".into(),
        StatementVerdict::Changed { transted_lite: Some(0), .. } => {
            "statement changed (an equivalent rewrite: transted-lite distance 0)".into()
        }
        StatementVerdict::Changed { transted_lite: Some(d), .. } => {
            format!("statement changed (transted-lite distance {d})")
        }
        StatementVerdict::Changed { .. } => "statement changed".into(),
        StatementVerdict::Missing => "missing".into(),
        StatementVerdict::NotChecked => "not checked".into(),
    }
}

fn statement_name(s: &StatementVerdict) -> &'static str {
    match s {
        StatementVerdict::Unchanged => "unchanged",
        StatementVerdict::Changed { .. } => "changed",
        StatementVerdict::Missing => "missing",
        StatementVerdict::NotChecked => "not checked",
    }
}

fn write_report(r: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    let verdict = if r.passed() { "PASS" } else { "FAIL" };
    writeln!(out, "{verdict} {} (task {})", r.solution, r.task)?;
    for t in &r.targets {
        let mark = if r.target_passed(t) { "pass" } else { "fail" };
        writeln!(out, "  {mark}  {}: {}", t.name, statement_text(&t.statement))?;
    }
    let mut findings: Vec<_> = r.all_findings().collect();
    findings.sort_by_key(|f| (f.line.unwrap_or(0), f.criterion));
    findings.dedup();
    for f in findings {
        writeln!(out, "  {f}")?;
    }
    Ok(())
}

fn finding_json(f: &integrity::Finding) -> Value {
    json!({"file": f.file, "line": f.line, "criterion": f.criterion.name(), "message": f.message})
}

/// One report as JSON (`--json`, and the MCP tool `check_integrity`).
pub(super) fn report_json(r: &Report) -> Value {
    json!({
        "task": r.task,
        "solution": r.solution,
        "passed": r.passed(),
        "findings": r.file_findings.iter().map(finding_json).collect::<Vec<_>>(),
        "targets": r.targets.iter().map(|t| {
            let mut o = json!({
                "name": t.name,
                "passed": r.target_passed(t),
                "task_line": t.task_line,
                "solution_line": t.solution_line,
                "statement": statement_name(&t.statement),
                "findings": t.findings.iter().map(finding_json).collect::<Vec<_>>(),
            });
            if let StatementVerdict::Changed { transted_lite: Some(d), .. } = t.statement {
                o["transted_lite_distance"] = json!(d);
            }
            o
        }).collect::<Vec<_>>(),
    })
}

/// Raw counts and percentages (LeanCat's "Recommended Reporting").
struct Summary {
    tasks: usize,
    tasks_passed: usize,
    bad_tasks: usize,
    targets: usize,
    targets_failed: usize,
    /// Targets failing each criterion (a target can fail several).
    by_criterion: Vec<(Criterion, usize)>,
}

impl Summary {
    fn of(reports: &[&Report], bad_tasks: usize) -> Summary {
        let targets: usize = reports.iter().map(|r| r.targets.len()).sum();
        let targets_failed =
            reports.iter().map(|r| r.targets.iter().filter(|t| !r.target_passed(t)).count()).sum();
        let by_criterion = Criterion::ALL
            .iter()
            .map(|&c| {
                let n = reports
                    .iter()
                    .map(|r| {
                        let file = r.file_findings.iter().any(|f| f.criterion == c);
                        r.targets
                            .iter()
                            .filter(|t| file || t.findings.iter().any(|f| f.criterion == c))
                            .count()
                    })
                    .sum();
                (c, n)
            })
            .filter(|(_, n)| *n > 0)
            .collect();
        Summary {
            tasks: reports.len(),
            tasks_passed: reports.iter().filter(|r| r.passed()).count(),
            bad_tasks,
            targets,
            targets_failed,
            by_criterion,
        }
    }

    fn write(&self, out: &mut dyn Write, setting: &str) -> std::io::Result<()> {
        let tasks_failed = self.tasks - self.tasks_passed;
        let targets_passed = self.targets - self.targets_failed;
        writeln!(
            out,
            "tasks: {} checked, {} passed ({}), {} failed ({})",
            self.tasks,
            self.tasks_passed,
            percent(self.tasks_passed, self.tasks),
            tasks_failed,
            percent(tasks_failed, self.tasks)
        )?;
        writeln!(
            out,
            "targets: {} checked, {} passed ({}), {} failed ({})",
            self.targets,
            targets_passed,
            percent(targets_passed, self.targets),
            self.targets_failed,
            percent(self.targets_failed, self.targets)
        )?;
        if !self.by_criterion.is_empty() {
            let parts: Vec<String> =
                self.by_criterion.iter().map(|(c, n)| format!("{} {n}", c.name())).collect();
            writeln!(out, "failed targets by criterion: {}", parts.join(", "))?;
        }
        if self.bad_tasks > 0 {
            writeln!(out, "tasks not usable (bad input): {}", self.bad_tasks)?;
        }
        writeln!(out, "setting: {setting}")
    }

    fn json(&self) -> Value {
        let pct = |n: usize, d: usize| {
            if d == 0 {
                Value::Null
            } else {
                json!((n as f64) * 100.0 / (d as f64))
            }
        };
        let by: serde_json::Map<String, Value> =
            self.by_criterion.iter().map(|(c, n)| (c.name().to_string(), json!(n))).collect();
        json!({
            "tasks": self.tasks,
            "tasks_passed": self.tasks_passed,
            "tasks_failed": self.tasks - self.tasks_passed,
            "tasks_passed_percent": pct(self.tasks_passed, self.tasks),
            "targets": self.targets,
            "targets_passed": self.targets - self.targets_failed,
            "targets_failed": self.targets_failed,
            "targets_passed_percent": pct(self.targets - self.targets_failed, self.targets),
            "failed_by_criterion": by,
            "bad_tasks": self.bad_tasks,
        })
    }
}

fn percent(n: usize, d: usize) -> String {
    if d == 0 {
        "-".into()
    } else {
        format!("{:.1}%", (n as f64) * 100.0 / (d as f64))
    }
}
