//! Command line: raw arguments → validated commands → runs.
//!
//! Owns argument parsing (clap), the command list and the exit-status contract. Each command
//! lives in its own module and writes only to the `out` / `err` handles it is given (stdout is
//! not touched directly: in `serve` it is the LSP channel). Fatal errors travel up as
//! `anyhow::Error` and `main.rs` prints them once; non-fatal ones (one bad pair in `bench`) are
//! written to `err` as warnings by the command and turn into [`Status::SomeFailed`].
//!
//! Exit status (as ripgrep documents its own):
//! - 0: success (also when stdout is a closed pipe: `lean-assess bench … | head` is fine);
//! - 1: the command ran, but some items failed (pairs that did not parse, metrics that need Lean);
//! - 2: bad input or usage: missing or unreadable file, invalid UTF-8, malformed JSONL,
//!   unknown theorem name, unparsable statement, empty dataset, unknown metric or flag.
//!
//! `serve` and the `lake` shim own stdin/stdout themselves (stdout is the LSP channel), so
//! `main.rs` hands them over through [`run_standalone`] before it locks stdout.
//!
//! Adding a command: one variant in [`Command`] and one arm in [`run`].

pub mod bench;
mod compare;
mod integrity;
mod lean_options;
mod mcp;
mod mcp_guard;
mod merge;
mod score;
mod serve;
mod shim;
pub mod statement;
mod ted;
mod tree;

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

/// How a command that did not fail fatally ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Everything asked for was done.
    Success,
    /// The run finished, but some items could not be handled (each reported on `err`).
    SomeFailed,
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        match status {
            Status::Success => ExitCode::SUCCESS,
            Status::SomeFailed => ExitCode::from(1),
        }
    }
}

/// Exit status for bad input or usage.
pub const EXIT_BAD_INPUT: u8 = 2;

/// The commands at a glance (as the design's "Command line" lists them), after `--help`.
const USAGE_LINES: &str = "\
Usage lines:
  lean-assess score [--metric M[,M...]] [--free-cost] [--json] REF CAND
                    [--lean-project DIR [--server-command CMD] [--config FILE]]
      REF, CAND: FILE.lean (its one theorem), FILE.lean::NAME, or --ref-text/--cand-text \"theorem ...\"
  lean-assess tree  [--format text|json|dot] FILE.lean[::NAME] | --text \"theorem ...\"
  lean-assess ted   --pairs TREES.jsonl [--free-cost] [--json]
  lean-assess bench DATASET.jsonl [--metric M] [--free-cost] [--out PRED.jsonl] [--json] [--jobs N]
                    [--lean-project DIR [--server-command CMD] [--config FILE]] [--shard K/N] [--html FILE]
                    [--id-field F] [--ref-field F] [--cand-field F] [--label-field F] [--header-field F]
  lean-assess serve [--config FILE] [--log FILE] [-- SERVER_COMMAND ARGS...]   (default: lake serve --)
  lean-assess shim  [DIR]
  lean-assess integrity TASK.lean SOLUTION.lean | --tasks DIR --solutions DIR [--json]
                    [--theorem NAME] [--allow-import M] [--allow-native-decide]
                    [--lean-project DIR [--server-command CMD] [--timeout SECONDS]]
  lean-assess merge --dataset DATASET.jsonl [--out PRED.jsonl] [--json] [--html FILE] PRED.jsonl...
  lean-assess compare A.jsonl B.jsonl [--json] [--html FILE]   (two models' bench --out files)
  lean-assess mcp   [--lean-project DIR [--server-command CMD] [--config FILE]]   (MCP server on stdio)

Metrics: ted, path, transted-lite (offline); transted, beq, beq+, beq+grind, defeq (need Lean:
--lean-project DIR, a Lake project; the server is `lake serve --` there, or --server-command / $LEAN_ASSESS_SERVER).
The config (--config, else DIR/lean-assess.toml) gives [metrics] transted_timeout_ms and
beq_timeout_ms, and BEq's LLM sampler [llm].

Exit status: 0 ok, 1 some pairs or metrics failed (each one reported), 2 bad input or usage.";

#[derive(Debug, Parser)]
#[command(
    name = "lean-assess",
    version,
    about = "Judge Lean 4 autoformalizations against a reference formalization",
    after_help = USAGE_LINES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Compare a candidate statement with a reference statement.
    Score(score::Args),
    /// Print a statement's operator tree.
    Tree(tree::Args),
    /// Tree edit distance for pairs of trees given as JSON.
    Ted(ted::Args),
    /// Run a metric over a labelled dataset and report its judgement quality.
    Bench(bench::Args),
    /// Run the LSP proxy in front of a Lean server (default `lake serve --`) on stdin/stdout.
    Serve(serve::Args),
    /// Join the predictions of `bench --shard` runs and score them as one run.
    Merge(merge::Args),
    /// Two models' predictions for the same problems side by side: where they disagree.
    Compare(compare::Args),
    /// Serve the judge to agents as an MCP server on stdin/stdout.
    Mcp(mcp::Args),
    /// Install the `lake` and `lean` shim in DIR and print the editor settings that use it.
    Shim(shim::Args),
    /// Did a solution keep its task's statement? (LeanCat's valid proof criteria)
    Integrity(integrity::Args),
}

/// Parse `argv` (including the program name) and run the command.
///
/// `--help` / `--version` go to `out`. A usage error comes back as an error holding the
/// `clap::Error` (its text already says `error: …` and shows the usage).
pub fn run(
    argv: impl IntoIterator<Item = OsString>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<Status> {
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            write!(out, "{}", e.render())?;
            return Ok(Status::Success);
        }
        Err(e) => return Err(e.into()),
    };
    match cli.command {
        Command::Score(args) => score::run(args, out, err),
        Command::Tree(args) => tree::run(args, out, err),
        Command::Ted(args) => ted::run(args, out, err),
        Command::Bench(args) => bench::run(args, out, err),
        Command::Merge(args) => merge::run(args, out, err),
        Command::Compare(args) => compare::run(args, out, err),
        Command::Shim(args) => shim::run(args, out).map(|()| Status::Success),
        Command::Integrity(args) => integrity::run(args, out, err),
        // `serve` owns stdin/stdout, so `main` hands it over through `run_standalone` before it
        // locks stdout; reaching this arm means a caller skipped that step.
        Command::Serve(_) | Command::Mcp(_) => {
            anyhow::bail!("`serve` must be started through `run_standalone`")
        }
    }
}

/// `score` or `bench` for library callers (the Python package): the document `--json` prints,
/// from the same run. `args` are the command's arguments as on the command line, starting with
/// the command's name and without `--json`; what the command writes to stderr (warnings,
/// progress) goes to `err`. An error is the one the command line reports with exit status 2
/// ([`error_message`] gives its text).
pub fn json_document(
    args: &[String],
    err: &mut dyn Write,
) -> anyhow::Result<(serde_json::Value, Status)> {
    let command = args.first().map(String::as_str);
    if !matches!(command, Some("score" | "bench")) {
        anyhow::bail!(
            "only `score` and `bench` print one JSON document; got {}",
            command.map_or_else(|| "no command".to_string(), |c| format!("`{c}`"))
        );
    }
    let argv = ["lean-assess", &args[0], "--json"]
        .into_iter()
        .chain(args[1..].iter().map(String::as_str))
        .map(OsString::from);
    let mut out = Vec::new();
    let status = run(argv, &mut out, err)?;
    match serde_json::from_slice(&out) {
        Ok(document) => Ok((document, status)),
        // `--help` and `--version` print text and succeed.
        Err(_) => anyhow::bail!(
            "`{}` printed no JSON document: {}",
            args.join(" "),
            String::from_utf8_lossy(&out).lines().next().unwrap_or("")
        ),
    }
}

/// A fatal error's text as `main` prints it: clap's own for a usage error (it starts with
/// `error:` and ends with the usage), else the causes on one line ([`one_line`]).
pub fn error_message(error: &anyhow::Error) -> String {
    match error.downcast_ref::<clap::Error>() {
        Some(usage) => usage.render().to_string().trim_end().to_string(),
        None => one_line(error),
    }
}

/// Reject unknown metric names up front: a typo is a usage error, not a failed pair.
fn check_metric_names<S: AsRef<str>>(names: &[S]) -> anyhow::Result<()> {
    crate::metrics::registry::check_names(names).map_err(|e| anyhow::anyhow!("--metric: {e}"))
}

/// `--free-cost` as a cost model.
fn cost_model(free_cost: bool) -> crate::metrics::registry::CostModel {
    use crate::metrics::registry::CostModel;
    if free_cost {
        CostModel::FreeRenaming
    } else {
        CostModel::Unit
    }
}

/// The error and its causes on one line, like `{:#}`, but without a cause whose text the line
/// already holds: library errors such as `"{path}: {source}"` name their source in their own
/// message, and repeating it would print the same reason twice.
pub fn one_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// Is this error (anywhere in its chain) a write to a closed pipe? Such runs end quietly with 0.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Commands that must run before `main` touches stdout: the binary invoked as `lake` (the
/// shim), and `serve`. `None`: not one of these, go on with [`main`]'s normal path.
pub fn run_standalone(argv: &[OsString], err: &mut dyn Write) -> Option<ExitCode> {
    if let Some(tool) = shim::invoked_as(argv.first().map(OsString::as_os_str)) {
        return Some(shim::run_as_tool(tool, argv.to_vec(), err));
    }
    match argv.get(1) {
        Some(command) if command == "serve" || command == "mcp" => {}
        _ => return None,
    }
    // `serve --help` and usage errors go the normal way (printed by main).
    let result = match Cli::try_parse_from(argv) {
        Ok(Cli { command: Command::Serve(args) }) => serve::run(args),
        Ok(Cli { command: Command::Mcp(args) }) => mcp::run(args),
        _ => return None,
    };
    Some(match result {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(err, "lean-assess: error: {}", one_line(&e));
            ExitCode::from(1)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::{error_message, json_document, one_line, Status};

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn json_document_is_what_score_json_prints() {
        let given = ["--metric", "ted,beq", "--ref-text", "theorem t : 0 < 1 := by sorry"];
        let given = [&given[..], &["--cand-text", "theorem u : 1 > 0 := by sorry"]].concat();
        let mut err = Vec::new();
        let (document, status) =
            json_document(&args(&[&["score"], &given[..]].concat()), &mut err).expect("score runs");
        // `beq` needs Lean: the run goes on and says so, as on the command line (status 1).
        assert_eq!(status, Status::SomeFailed);
        let mut out = Vec::new();
        let argv = ["lean-assess", "score", "--json"].iter().chain(&given).map(Into::into);
        super::run(argv, &mut out, &mut Vec::new()).expect("score runs");
        let printed: serde_json::Value = serde_json::from_slice(&out).expect("one JSON document");
        let untimed = |mut v: serde_json::Value| {
            for m in v["metrics"].as_array_mut().expect("a metrics list") {
                m.as_object_mut().expect("an object").remove("seconds");
            }
            v
        };
        assert_eq!(untimed(document.clone()), untimed(printed));
        assert_eq!(document["metrics"][1]["verdict"], "error");
    }

    #[test]
    fn json_document_refuses_commands_without_one_and_reports_usage_errors_as_main_does() {
        let e = json_document(&args(&["tree", "--text", "theorem t : 0 < 1"]), &mut Vec::new())
            .expect_err("tree prints no JSON document");
        assert_eq!(
            error_message(&e),
            "only `score` and `bench` print one JSON document; got `tree`"
        );
        let e = json_document(&args(&["bench", "--no-such-flag", "d.jsonl"]), &mut Vec::new())
            .expect_err("an unknown flag is a usage error");
        let text = error_message(&e);
        assert!(text.starts_with("error: unexpected argument '--no-such-flag'"), "{text}");
        let e = json_document(&args(&["bench", "--help"]), &mut Vec::new())
            .expect_err("--help prints text");
        assert!(error_message(&e).starts_with("`bench --help` printed no JSON document: "));
    }

    #[test]
    fn one_line_does_not_repeat_a_cause_the_message_already_names() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let e = anyhow::Error::new(crate::dataset::DatasetError::Io {
            path: "data.jsonl".into(),
            source: io,
        })
        .context("reading the dataset");
        assert_eq!(one_line(&e), "reading the dataset: data.jsonl: No such file");
    }
}
