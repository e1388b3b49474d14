//! The metrics that need Lean (`transted`, `beq`, `beq+`, `defeq`) from the command line, without an
//! editor: `bench --metric M --lean-project DIR` over a dataset and `score --lean-project DIR`
//! for one pair share everything here.
//!
//! Owns: choosing the server command (`--server-command "PROG ARGS..."`, split on whitespace,
//! else env `LEAN_ASSESS_SERVER`, else `lake serve --`), spawning it in DIR, `initialize`, the
//! configuration (`--config FILE`, else `DIR/lean-assess.toml` when present: `[metrics]
//! transted_timeout_ms` / `beq_timeout_ms` and BEq's `[llm]` sampler), the RPC keep-alive of the
//! oracles' sessions (every 10 s while the run lasts; Lean drops a session after 30 s without
//! one), one [`Oracle`] per concurrent job over the one server (an oracle has one active region,
//! so `--jobs N` means N oracles with their own scratch files in `DIR/.lean-assess-scratch/`,
//! removed on exit or signal, stale ones of dead runs removed at start), loading each import
//! set before a pair's clock starts (`Oracle::warm_up`), ending the run with one error on a
//! header error, the progress line, the resumable prediction file, and turning a server crash into an error
//! for every pair not yet judged (no hang: each pair races the server's exit).
//!
//! Progress: one line `[k/n] ID: RESULT` on stderr per finished pair, always (also when stderr
//! is not a terminal: a log of a long batch run is the point).
//!
//! Resume: with `--out` naming an existing file, every id there with a `score` or `equivalent`
//! is kept and not judged again; ids with only an `error` line are judged again (a crash or a
//! timeout is usually what a resume is for). New lines are appended and flushed one by one, so
//! an interrupted run loses at most the pairs in flight. When an id occurs several times, its
//! last line counts.
//!
//! Leaves to others: the evaluation and report (`super::bench`, `super::score`), the metrics
//! themselves (`crate::metrics::{transted, defeq, beq}`), the Lean messages
//! (`crate::lean::oracle`), parsing the config file (`crate::config::Config`, shared with the
//! editor), the keep-alive message (`crate::lean::goals::SessionTracker`).

use crate::config::{Config, CONFIG_FILE_NAME};
use crate::dataset::DatasetPair;
use crate::lean::beq_checker::OracleProofChecker;
use crate::lean::goals::{self, KeepAliveTicker, SessionTracker};
use crate::lean::oracle::{connect_direct, initialize, Oracle, OracleConfig, OracleError};
use crate::lean::process::LeanProcess;
use crate::lean::scratch;
use crate::lean::LeanClient;
use crate::llm::{LlmClient, LlmPermission};
use crate::metrics::beq::{Beq, BeqSettings, BeqSide, ProofSampler};
use crate::metrics::beq_plus;
use crate::metrics::defeq::DefEq;
use crate::metrics::lean_backed::LeanMetric;
use crate::metrics::transted::{TransTed, TransTedConfig};
use crate::metrics::{MetricReport, Pair, Verdict};
use crate::predictions::{self, Outcome};
use crate::trees::parse::{self, Header};
use crate::trees::Statement;
use anyhow::{bail, Context};
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;
use tokio::io::BufReader;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

/// The default server command: `serve`'s, with the workers' reporting delay at 0. The worker's
/// reporter waits `server.reportDelayMs` (default 200 ms) before it publishes anything, and
/// every oracle barrier waits for it; the option is read only from the command line
/// (`register_builtin_option server.reportDelayMs`, src/Lean/Server/FileWorker.lean), and the
/// watchdog passes its `-D` arguments on to each `lean --worker`.
const DEFAULT_SERVER: [&str; 4] = ["lake", "serve", "--", REPORT_DELAY_ZERO];
/// The option that turns the reporting delay off.
const REPORT_DELAY_ZERO: &str = "-Dserver.reportDelayMs=0";
/// Env variable naming the server command when `--server-command` is not given.
pub const SERVER_ENV: &str = "LEAN_ASSESS_SERVER";
/// `initialize` waits this long (a cold `lake serve` may build the project first).
const INITIALIZE_TIMEOUT: Duration = Duration::from_secs(600);
/// How long a failed pair waits for news of a server exit before its own error stands.
const CRASH_GRACE: Duration = Duration::from_millis(500);
/// Beyond a metric's own time limit, how long a pair may take before it is abandoned.
const GUARD_SLACK: Duration = Duration::from_secs(30);

/// How the note on a first open of a pair's imports starts (batch prints it on its own line).
const LOADED_NOTE: &str = "Lean loaded the imports in";

/// The client every oracle talks through: notes their RPC sessions for the keep-alive ticker.
pub type Rpc = SessionTracker<LeanClient>;

/// What the Lean-backed run needs from the command line.
pub struct LeanRun<'a> {
    pub metric: &'a str,
    pub project: &'a Path,
    pub server_command: Option<&'a str>,
    pub jobs: usize,
    pub out: Option<&'a Path>,
    pub settings: &'a LeanSettings,
}

/// The server command: `--server-command`, else `$LEAN_ASSESS_SERVER`, else `lake serve --`.
pub fn server_command(flag: Option<&str>) -> anyhow::Result<Vec<String>> {
    let text = match flag {
        Some(t) => Some(t.to_string()),
        None => std::env::var(SERVER_ENV).ok().filter(|s| !s.trim().is_empty()),
    };
    let mut command: Vec<String> = match text {
        Some(t) => t.split_whitespace().map(String::from).collect(),
        None => DEFAULT_SERVER.iter().map(|s| s.to_string()).collect(),
    };
    if command.is_empty() {
        bail!("--server-command: empty command");
    }
    // A Lean server command of the usual shapes gets the option too, unless it sets it itself.
    let lean_server =
        command.last().is_some_and(|w| w == "--") || command.iter().any(|w| w == "--server");
    if lean_server && !command.iter().any(|w| w.starts_with("-Dserver.reportDelayMs")) {
        command.push(REPORT_DELAY_ZERO.to_string());
    }
    Ok(command)
}

/// The config of a command-line run: `lean-assess.toml` in the `--lean-project` directory when
/// there is one, with `--config FILE` (the user's own) layered over it. A malformed file is an
/// error naming its line.
pub fn load_config(flag: Option<&Path>, project: Option<&Path>) -> anyhow::Result<Option<Config>> {
    let mut layers = Vec::new();
    if let Some(p) = project.map(|dir| dir.join(CONFIG_FILE_NAME)).filter(|p| p.is_file()) {
        layers.push(crate::config::Layer { path: p, user: false });
    }
    if let Some(p) = flag {
        // A `--config` that is not there is the user's typo, not a config error at line 1.
        if !p.exists() {
            anyhow::bail!("{}: no such file", p.display());
        }
        if p.is_dir() {
            anyhow::bail!("{}: is a directory, not a file", p.display());
        }
        layers.push(crate::config::Layer { path: p.to_path_buf(), user: true });
    }
    if layers.is_empty() {
        return Ok(None);
    }
    Config::load_layers(&layers).map(Some).map_err(anyhow::Error::from)
}

/// How the Lean metrics run, from the config file (when there is one).
#[derive(Clone, Default)]
pub struct LeanSettings {
    /// `[metrics] transted_timeout_ms` (for `transted` and `defeq`, as in the editor); `None`:
    /// the metric's own default.
    pub transted_timeout: Option<Duration>,
    /// `[metrics] beq_timeout_ms`; `None`: BEq's own default.
    pub beq_timeout: Option<Duration>,
    /// BEq's LLM sampler from `[llm]`.
    pub llm: Option<Arc<LlmClient>>,
}

impl LeanSettings {
    /// Settings for a run of `metrics`. `[llm]` becomes a client only when `beq` is among them,
    /// and then a missing key is an error (in batch nobody would see a warning in time).
    pub fn new(config: Option<&Config>, metrics: &[&str]) -> anyhow::Result<LeanSettings> {
        let Some(config) = config else {
            return Ok(LeanSettings::default());
        };
        let llm = if metrics.contains(&"beq") {
            // A project file alone never sends anything: its endpoint is used once
            // the user allowed it for this project in the editor, or named in `--config`.
            let project = config.path.parent().unwrap_or(Path::new("."));
            match crate::llm::permission(config, project, &crate::llm::TrustStore::user()) {
                LlmPermission::NotConfigured => None,
                LlmPermission::Allowed(s) => Some(Arc::new(
                    LlmClient::from_env(s)
                        .with_context(|| format!("{}: [llm]", config.path.display()))?,
                )),
                LlmPermission::NeedsConfirmation { project_file, base_url, .. } => bail!(
                    "{}: [llm] base_url = {base_url:?} comes from the project file only and is not used by itself: \
                     put [llm] (base_url, model, api_key_env) in your own file and pass --config FILE",
                    project_file.display()
                ),
                LlmPermission::Refused(reason) => {
                    bail!("{}: [llm]: {reason}", config.path.display())
                }
            }
        } else {
            None
        };
        Ok(LeanSettings {
            transted_timeout: Some(config.transted_timeout),
            beq_timeout: Some(config.beq_timeout),
            llm,
        })
    }
}

/// One metric's judge with its own oracle (BEq's checker holds it).
pub enum Judge {
    TransTed(TransTed, Oracle<Rpc>),
    DefEq(DefEq, Oracle<Rpc>),
    Beq(Box<Beq<OracleProofChecker<Rpc>>>),
    /// BEq+ (`crate::metrics::beq_plus`): BEq's driver with the fixed attempts; `true`: with
    /// `grind`.
    BeqPlus(Box<Beq<OracleProofChecker<Rpc>>>, bool),
}

/// A judgement: the report, and for `transted` the proof path as a standalone `example`.
pub struct Judged {
    pub report: MetricReport,
    pub proof: Option<String>,
}

impl Judge {
    pub fn new(
        metric: &str,
        settings: &LeanSettings,
        oracle: Oracle<Rpc>,
    ) -> anyhow::Result<Judge> {
        Ok(match metric {
            "transted" => {
                let mut config = TransTedConfig::default();
                if let Some(limit) = settings.transted_timeout {
                    config.time_limit = limit;
                }
                Judge::TransTed(TransTed { config }, oracle)
            }
            "defeq" => {
                let mut defeq = DefEq::default();
                if let Some(limit) = settings.transted_timeout {
                    defeq.time_limit = limit;
                }
                Judge::DefEq(defeq, oracle)
            }
            "beq" => {
                let mut beq = BeqSettings::default();
                if let Some(limit) = settings.beq_timeout {
                    beq.deadline = limit;
                }
                if let Some(llm) = &settings.llm {
                    beq.samples = llm.settings().samples;
                }
                Judge::Beq(Box::new(Beq {
                    checker: OracleProofChecker::new(oracle, beq.deadline),
                    sampler: settings.llm.clone().map(|c| Box::new(c) as Box<dyn ProofSampler>),
                    settings: beq,
                }))
            }
            plus if beq_plus::variant(plus).is_some() => {
                let grind = beq_plus::variant(plus) == Some(true);
                let deadline = settings.beq_timeout.unwrap_or(BeqSettings::default().deadline);
                Judge::BeqPlus(
                    Box::new(Beq {
                        checker: OracleProofChecker::new(oracle, deadline),
                        sampler: None,
                        settings: beq_plus::settings(deadline, grind),
                    }),
                    grind,
                )
            }
            other => bail!("BUG: '{other}' is not a Lean metric"),
        })
    }

    /// Load the pair's imports (and, for the metrics that search with `exact?`/`rw?`, build
    /// their indexes) before the pair's clock starts; the time it took (zero when warm).
    async fn warm_up(&mut self, pair: &Pair<'_>) -> Result<Duration, OracleError> {
        let headers = [pair.reference_header, pair.candidate_header];
        match self {
            Judge::TransTed(_, oracle) => {
                oracle.warm_up(&Oracle::<Rpc>::import_key(&headers), true).await
            }
            Judge::DefEq(_, oracle) => {
                oracle.warm_up(&Oracle::<Rpc>::import_key(&headers), false).await
            }
            Judge::Beq(b) | Judge::BeqPlus(b, _) => b.checker.warm_up(headers[0], headers[1]).await,
        }
    }

    /// The header error this judge's oracle has seen (the batch ends on it).
    async fn header_failure(&self) -> Option<String> {
        match self {
            Judge::TransTed(_, oracle) | Judge::DefEq(_, oracle) => oracle.header_failure(),
            Judge::Beq(b) | Judge::BeqPlus(b, _) => b.checker.header_failure().await,
        }
        .map(|e| e.to_string())
    }

    /// The oracle back, for the next metric of the same run (BEq's checker keeps its own).
    fn into_oracle(self) -> Option<Oracle<Rpc>> {
        match self {
            Judge::TransTed(_, oracle) | Judge::DefEq(_, oracle) => Some(oracle),
            Judge::Beq(_) | Judge::BeqPlus(..) => None,
        }
    }

    /// The metric's own bound plus slack: past it the pair is abandoned as timed out.
    fn guard(&self) -> Duration {
        GUARD_SLACK
            + match self {
                Judge::TransTed(t, _) => t.config.time_limit,
                Judge::DefEq(d, _) => d.time_limit,
                Judge::Beq(b) | Judge::BeqPlus(b, _) => b.settings.deadline,
            }
    }

    /// Judge one parsed pair.
    async fn judge(&mut self, pair: &Pair<'_>) -> Result<Judged, String> {
        match self {
            Judge::TransTed(t, oracle) => t
                .judge(oracle, pair)
                .await
                .map(|j| Judged { report: j.report, proof: j.proof })
                .map_err(|e| format!("transted: {e}")),
            Judge::DefEq(d, oracle) => d
                .judge(oracle, pair)
                .await
                .map(|j| Judged { report: j.report, proof: None })
                .map_err(|e| format!("defeq: {e}")),
            Judge::Beq(b) | Judge::BeqPlus(b, _) => {
                let (reference, candidate) = BeqSide::of_pair(pair);
                let report = b.judge(reference, candidate).await;
                let plus = match self {
                    Judge::BeqPlus(_, grind) => Some(*grind),
                    _ => None,
                };
                let name = match plus {
                    Some(true) => beq_plus::NAME_WITH_GRIND,
                    Some(false) => beq_plus::NAME,
                    None => "beq",
                };
                // Lean unusable in a direction is a failure, never "not equivalent".
                if let Some(e) = report.lean_error() {
                    return Err(format!("{name}: {e}"));
                }
                let (rs, cs) = (pair.reference.tree.size(), pair.candidate.tree.size());
                Ok(Judged {
                    report: match plus {
                        Some(grind) => beq_plus::to_metric_report(&report, grind, rs, cs),
                        None => report.to_metric_report(rs, cs),
                    },
                    proof: None,
                })
            }
        }
    }
}

/// How a guarded judgement ended.
enum Guarded {
    Judged(Judged),
    Failed(String),
    /// Lean could not process the imports of the scratch document: no pair on these imports
    /// can be judged; the run ends with this one error.
    Fatal(String),
    /// The metric panicked (a bug; its message is already on stderr): the judge's oracle may be
    /// mid-batch, so the caller replaces it.
    Panicked(String),
}

/// Judge `pair` within the judge's bound, racing the server's exit, catching a panic. A failure
/// right before a crash is the crash's (the oracle may see the closed stream before the watcher
/// sees the exit).
async fn judge_guarded(
    judge: &mut Judge,
    metric: &str,
    pair: &Pair<'_>,
    crashed: &watch::Receiver<Option<String>>,
) -> Guarded {
    let gone = crashed.borrow().clone();
    if let Some(m) = gone {
        return Guarded::Failed(m);
    }
    // The first open of an import set (Mathlib, a dependency build, the search indexes) is
    // not the pair's time: bounded by the oracle's own load timeout, reported in a note.
    let loaded = tokio::select! {
        r = judge.warm_up(pair) => match r {
            Ok(d) => d,
            Err(e @ OracleError::Header { .. }) => return Guarded::Fatal(e.to_string()),
            Err(OracleError::Deadline { uri }) => {
                return Guarded::Failed(format!(
                    "scratch document {uri}: Lean did not finish loading the imports within the load timeout"
                ))
            }
            Err(e) => return Guarded::Failed(e.to_string()),
        },
        m = wait_crash(crashed.clone()) => return Guarded::Failed(m),
    };
    let guard = judge.guard();
    let result = tokio::select! {
        r = tokio::time::timeout(guard, CatchPanic(Box::pin(judge.judge(pair)))) => match r {
            Ok(Ok(Ok(mut judged))) => {
                if !loaded.is_zero() {
                    judged.report.notes.push(format!(
                        "{LOADED_NOTE} {:.1} s before this pair (not counted in its time limit)",
                        loaded.as_secs_f64()
                    ));
                }
                return Guarded::Judged(judged);
            }
            Ok(Ok(Err(e))) => Guarded::Failed(e),
            Ok(Err(())) => Guarded::Panicked(format!("internal error (a bug) while judging with {metric}")),
            Err(_) => Guarded::Failed(format!("no answer within {} s; abandoned", guard.as_secs())),
        },
        m = wait_crash(crashed.clone()) => return Guarded::Failed(m),
    };
    if let Some(fatal) = judge.header_failure().await {
        return Guarded::Fatal(fatal);
    }
    match tokio::time::timeout(CRASH_GRACE, wait_crash(crashed.clone())).await {
        Ok(m) => match result {
            Guarded::Failed(e) => Guarded::Failed(format!("{m} ({e})")),
            Guarded::Panicked(e) => Guarded::Panicked(format!("{m} ({e})")),
            judged => judged,
        },
        Err(_) => result,
    }
}

/// Both statements of a dataset pair, parsed with their headers; the count of statements that
/// kept unparsed spans.
fn parse_pair(pair: &DatasetPair) -> Result<(Statement, Statement, usize), String> {
    let reference = parse::parse_statement(&pair.ref_statement, &Header::parse(&pair.ref_header))
        .map_err(|e| format!("ref_statement: {e}"))?;
    let candidate = parse::parse_statement(&pair.cand_statement, &Header::parse(&pair.cand_header))
        .map_err(|e| format!("cand_statement: {e}"))?;
    let unparsed =
        usize::from(!reference.unparsed.is_empty()) + usize::from(!candidate.unparsed.is_empty());
    Ok((reference, candidate, unparsed))
}

/// The async runtime of a command-line Lean run (two cores is what the build machine has; the
/// work is waiting for Lean).
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// Judge `pairs` through a spawned Lean server; returns one outcome per pair (dataset order)
/// and writes progress to `err`. Outcomes of pairs found in `--out` are read back, not judged.
pub fn judge_all(
    run: &LeanRun<'_>,
    pairs: &[DatasetPair],
    err: &mut dyn Write,
) -> anyhow::Result<Vec<(Outcome, usize)>> {
    let command = server_command(run.server_command)?;
    let project = run
        .project
        .canonicalize()
        .with_context(|| format!("--lean-project {}", run.project.display()))?;
    let mut done = match run.out {
        Some(p) => predictions::read_done(p)?,
        None => HashMap::new(),
    };
    let mut results: Vec<Option<(Outcome, usize)>> =
        pairs.iter().map(|p| done.remove(&p.id).map(|o| (o, 0))).collect();
    let todo: VecDeque<usize> = (0..pairs.len()).filter(|&i| results[i].is_none()).collect();
    let mut sink = match run.out {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("cannot write {}", p.display()))?,
        ),
        None => None,
    };
    if !todo.is_empty() {
        let runtime = runtime()?;
        let total = pairs.len();
        let skipped = total - todo.len();
        if skipped > 0 {
            writeln!(
                err,
                "lean-assess: resuming: {skipped} of {total} pair(s) already in the predictions"
            )?;
        }
        let judged = runtime.block_on(drive(
            run,
            &command,
            &project,
            pairs,
            todo,
            |k, index, outcome, loaded| -> anyhow::Result<()> {
                let pair = &pairs[index];
                if let Some(note) = loaded {
                    writeln!(err, "lean-assess: {}: {note}", pair.id)?;
                }
                // The verdict's own words (`equivalent` / `not shown`), as `score` prints them.
                let equivalent = predictions::lean_shown_equivalent(run.metric, outcome);
                let word = if equivalent { "equivalent" } else { "not shown" };
                let shown = match outcome {
                    Outcome::Judged(Verdict::Score(s)) => format!("{word} (similarity {s:.4})"),
                    Outcome::Judged(Verdict::Equivalent(_)) => word.to_string(),
                    Outcome::Failed(m) => format!("error: {m}"),
                };
                writeln!(err, "[{}/{total}] {}: {shown}", skipped + k, pair.id)?;
                if let Some(file) = sink.as_mut() {
                    let provenance = predictions::Provenance { metric: run.metric, cost: None };
                    let line = predictions::line_with(&pair.id, outcome, equivalent, &provenance);
                    writeln!(file, "{line}")?;
                    file.flush()?;
                }
                Ok(())
            },
        ))?;
        runtime.shutdown_timeout(Duration::from_millis(200));
        for (index, result) in judged {
            results[index] = Some(result);
        }
    }
    Ok(results
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| (Outcome::Failed("BUG: pair neither judged nor resumed".into()), 0))
        })
        .collect())
}

/// Judge one pair with each of `metrics` (in order) through one spawned Lean server in
/// `project`, as `bench --lean-project` does; `transted` and `defeq` share one oracle. One
/// result per metric; a server that cannot start or initialize is an error for the whole run.
pub fn judge_pair(
    project: &Path,
    server_flag: Option<&str>,
    settings: &LeanSettings,
    metrics: &[&str],
    pair: &Pair<'_>,
) -> anyhow::Result<Vec<Result<Judged, String>>> {
    judge_pair_until(
        project,
        server_flag,
        settings,
        metrics,
        pair,
        std::future::pending(),
        &mut |_, _| {},
    )
}

/// What [`judge_pair_until`] reports as it goes (for progress notifications).
pub enum PairStep<'a> {
    /// The server is up and initialized.
    Started,
    /// A metric finished (its result is in the returned list too).
    Judged(&'a str),
}

/// [`judge_pair`] that stops when `stop` resolves (a deadline, a cancelled request): the Lean
/// server is killed at once (process group included, not just no longer awaited), the metric
/// that was running and those not started get `Err(reason)`, the finished ones keep their
/// results. `step(k, what)` is called after each step (`k` counts from 1).
pub fn judge_pair_until(
    project: &Path,
    server_flag: Option<&str>,
    settings: &LeanSettings,
    metrics: &[&str],
    pair: &Pair<'_>,
    stop: impl Future<Output = String>,
    step: &mut dyn FnMut(usize, PairStep<'_>),
) -> anyhow::Result<Vec<Result<Judged, String>>> {
    let command = server_command(server_flag)?;
    let project =
        project.canonicalize().with_context(|| format!("--lean-project {}", project.display()))?;
    let runtime = runtime()?;
    let results = runtime.block_on(async {
        tokio::pin!(stop);
        // A start that is abandoned leaves the process to its watcher task; the runtime's
        // shutdown below drops that task, and `LeanProcess`'s Drop (with `kill_on_drop`) kills
        // the process and its group.
        let server = tokio::select! {
            s = LeanServer::start(&command, &project) => s?,
            reason = &mut stop => {
                return anyhow::Ok(metrics.iter().map(|_| Err(reason.clone())).collect());
            }
        };
        step(1, PairStep::Started);
        let mut results = Vec::new();
        let work = judge_metrics(&server, settings, metrics, pair, &mut results, step);
        let stopped = tokio::select! {
            r = work => Ok(r),
            reason = &mut stop => Err(reason),
        };
        match stopped {
            Ok(Ok(())) => {
                server.shutdown().await;
                anyhow::Ok(results)
            }
            Ok(Err(fatal)) => {
                server.shutdown().await;
                Err(fatal)
            }
            Err(reason) => {
                // Not just stop waiting: the server (and whatever it started) goes now.
                server.kill().await;
                let done = results.len();
                results.extend(metrics[done..].iter().map(|_| Err(reason.clone())));
                anyhow::Ok(results)
            }
        }
    })?;
    runtime.shutdown_timeout(Duration::from_millis(200));
    Ok(results)
}

/// The metrics of [`judge_pair_until`], one after the other, pushing each result as it ends.
async fn judge_metrics(
    server: &LeanServer,
    settings: &LeanSettings,
    metrics: &[&str],
    pair: &Pair<'_>,
    results: &mut Vec<Result<Judged, String>>,
    step: &mut dyn FnMut(usize, PairStep<'_>),
) -> anyhow::Result<()> {
    let mut shared: Option<Oracle<Rpc>> = None;
    // Oracles made so far: each new one gets scratch documents of its own.
    let mut made = 0usize;
    let fresh = |made: &mut usize| {
        *made += 1;
        server.oracle(&format!("score{made}"))
    };
    for metric in metrics {
        let oracle = match (*metric, shared.take()) {
            (m, kept) if m == "beq" || beq_plus::variant(m).is_some() => {
                shared = kept;
                fresh(&mut made)
            }
            (_, Some(oracle)) => oracle,
            (_, None) => fresh(&mut made),
        };
        let mut judge = Judge::new(metric, settings, oracle)?;
        match judge_guarded(&mut judge, metric, pair, &server.crashed).await {
            Guarded::Judged(j) => {
                shared = shared.or_else(|| judge.into_oracle());
                results.push(Ok(j));
            }
            Guarded::Failed(e) => {
                shared = shared.or_else(|| judge.into_oracle());
                results.push(Err(e));
            }
            Guarded::Fatal(e) => bail!("{e}"),
            // The oracle may be mid-batch: the next metric starts a fresh one.
            Guarded::Panicked(e) => results.push(Err(e)),
        }
        step(results.len() + 1, PairStep::Judged(metric));
    }
    Ok(())
}

/// A spawned, initialized Lean server: its client, the watcher of its exit and the keep-alive
/// ticker of the oracles' RPC sessions. [`LeanServer::shutdown`] ends all three.
pub struct LeanServer {
    client: Arc<LeanClient>,
    pub rpc: Arc<Rpc>,
    /// The project directory (scratch files go in its hidden scratch directory).
    pub project: PathBuf,
    /// The crash message, once the server has exited on its own.
    crashed: watch::Receiver<Option<String>>,
    /// Ends the watcher, which then waits this long for the process to exit before killing it.
    stop: oneshot::Sender<Duration>,
    watcher: JoinHandle<()>,
    ticker: KeepAliveTicker,
}

impl LeanServer {
    /// Spawn `command` in `project`, watch its exit, `initialize` it, start the keep-alive.
    pub async fn start(command: &[String], project: &Path) -> anyhow::Result<LeanServer> {
        let every = goals::keep_alive_interval().map_err(anyhow::Error::msg)?;
        // Scratch files of runs that died (SIGKILL) go now; this run's go on exit or signal.
        let stale = scratch::clean_stale(&scratch::dir_of(project));
        if stale > 0 {
            tracing::info!(stale, "removed scratch files of processes that are gone");
        }
        scratch::remove_on_signal();
        let (mut process, stdin, stdout) = LeanProcess::spawn(command, Some(project), &[])?;
        let shown = process.command().to_string();
        let client = connect_direct(BufReader::new(stdout), stdin);
        let root = file_uri(project);
        let (crashed_tx, crashed) = watch::channel::<Option<String>>(None);
        let (stop, stopped) = oneshot::channel::<Duration>();
        let watcher = tokio::spawn(async move {
            tokio::select! {
                status = process.wait() => {
                    let tail = process.stderr_tail().await;
                    let status = status.map_or_else(|e| e.to_string(), |s| s.to_string());
                    let last = tail.last().map(|l| format!("; last stderr line: {l}")).unwrap_or_default();
                    let _ = crashed_tx.send(Some(format!(
                        "the Lean server `{shown}` exited ({status}){last}"
                    )));
                }
                grace = stopped => {
                    let grace = grace.unwrap_or(Duration::from_secs(5));
                    let _ = process.wait_or_kill(grace).await;
                }
            }
        });
        let init = tokio::select! {
            r = initialize(&client, Some(&root), INITIALIZE_TIMEOUT) => r.map_err(|e| e.to_string()),
            m = wait_crash(crashed.clone()) => Err(m),
        };
        if let Err(e) = init {
            let _ = stop.send(Duration::from_secs(5));
            let _ = watcher.await;
            bail!("cannot initialize the Lean server in {}: {e}", project.display());
        }
        let rpc = Arc::new(SessionTracker::new(client.clone()));
        let ticker = rpc.keep_alive_every(every);
        Ok(LeanServer {
            client,
            rpc,
            project: project.to_path_buf(),
            crashed,
            stop,
            watcher,
            ticker,
        })
    }

    /// A fresh oracle whose scratch documents are files in the project's scratch directory
    /// (`sub` names it in logs).
    fn oracle(&self, sub: &str) -> Oracle<Rpc> {
        scratch_oracle(&self.rpc, &self.project, sub)
    }

    /// Stop the keep-alive, then a polite shutdown (LSP `shutdown` + `exit`), then wait or kill.
    pub async fn shutdown(self) {
        self.ticker.stop();
        let gone = self.crashed.borrow().is_some();
        if !gone {
            let _ = self.client.request("shutdown", Value::Null, Duration::from_secs(5)).await;
            let _ = self.client.notify("exit", Value::Null).await;
        }
        let _ = self.stop.send(Duration::from_secs(5));
        let _ = self.watcher.await;
    }

    /// Kill the server and its process group now (no polite shutdown: it may be stuck in the
    /// work that is being abandoned) and reap it.
    pub async fn kill(self) {
        self.ticker.stop();
        let _ = self.stop.send(Duration::ZERO);
        let _ = self.watcher.await;
    }
}

/// A fresh oracle over `rpc` whose scratch documents are real files in `<project>/`
/// [`scratch::DIR_NAME`] (each named after this process and a counter, so jobs never share
/// one); `sub` names the job in logs.
fn scratch_oracle(rpc: &Arc<Rpc>, project: &Path, sub: &str) -> Oracle<Rpc> {
    tracing::debug!(job = sub, "new oracle");
    Oracle::new(
        rpc.clone(),
        OracleConfig { scratch_dir: Some(scratch::dir_of(project)), ..OracleConfig::default() },
    )
}

/// Spawn the server, run the jobs, call `finished(k, index, outcome, loaded)` as pairs finish
/// (k from 1; `loaded`: the note on a first open of the pair's imports, reported apart from
/// the pair's time), shut the server down.
async fn drive(
    run: &LeanRun<'_>,
    command: &[String],
    project: &Path,
    pairs: &[DatasetPair],
    todo: VecDeque<usize>,
    mut finished: impl FnMut(usize, usize, &Outcome, Option<&str>) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<(usize, (Outcome, usize))>> {
    let server = LeanServer::start(command, project).await?;
    let queue = Arc::new(Mutex::new(todo));
    // The first header error: every job stops taking pairs and the run ends with it.
    let fatal: Arc<Mutex<Option<String>>> = Arc::new(Mutex::new(None));
    type Finished = (usize, (Outcome, usize), Option<String>);
    let (tx, mut rx) = mpsc::unbounded_channel::<Finished>();
    let jobs = run.jobs.max(1).min(pairs.len().max(1));
    let pairs: Arc<Vec<DatasetPair>> = Arc::new(pairs.to_vec());
    for job in 0..jobs {
        let fresh = {
            let (rpc, project) = (server.rpc.clone(), server.project.clone());
            move |restarts: usize| match restarts {
                0 => scratch_oracle(&rpc, &project, &format!("job{job}")),
                n => scratch_oracle(&rpc, &project, &format!("job{job}-{n}")),
            }
        };
        let metric = run.metric.to_string();
        let settings = run.settings.clone();
        let mut judge = Judge::new(&metric, &settings, fresh(0))?;
        let (queue, tx, pairs, crashed, fatal) =
            (queue.clone(), tx.clone(), pairs.clone(), server.crashed.clone(), fatal.clone());
        tokio::spawn(async move {
            let mut restarts = 0usize;
            loop {
                let stop =
                    fatal.lock().unwrap_or_else(std::sync::PoisonError::into_inner).is_some();
                if stop {
                    break;
                }
                let next =
                    queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop_front();
                let Some(index) = next else { break };
                let (reference, candidate, unparsed) = match parse_pair(&pairs[index]) {
                    Ok(parsed) => parsed,
                    Err(e) => {
                        if tx.send((index, (Outcome::Failed(e), 0), None)).is_err() {
                            break;
                        }
                        continue;
                    }
                };
                let pair = Pair {
                    reference: &reference,
                    candidate: &candidate,
                    reference_header: &pairs[index].ref_header,
                    candidate_header: &pairs[index].cand_header,
                };
                let mut loaded = None;
                let outcome = match judge_guarded(&mut judge, &metric, &pair, &crashed).await {
                    Guarded::Judged(j) => {
                        loaded =
                            j.report.notes.iter().find(|n| n.starts_with(LOADED_NOTE)).cloned();
                        Outcome::Judged(j.report.verdict)
                    }
                    Guarded::Failed(e) => Outcome::Failed(e),
                    Guarded::Fatal(e) => {
                        fatal
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .get_or_insert(e);
                        break;
                    }
                    Guarded::Panicked(e) => {
                        // This pair failed; the job goes on with a fresh oracle.
                        restarts += 1;
                        match Judge::new(&metric, &settings, fresh(restarts)) {
                            Ok(j) => judge = j,
                            Err(_) => break,
                        }
                        Outcome::Failed(e)
                    }
                };
                if tx.send((index, (outcome, unparsed), loaded)).is_err() {
                    break;
                }
            }
        });
    }
    drop(tx);
    let mut judged = Vec::new();
    let mut failure = None;
    while let Some((index, result, loaded)) = rx.recv().await {
        if failure.is_none() {
            if let Err(e) = finished(judged.len() + 1, index, &result.0, loaded.as_deref()) {
                failure = Some(e);
            }
        }
        judged.push((index, result));
    }
    server.shutdown().await;
    let fatal = fatal.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
    if let Some(e) = fatal {
        bail!("{e}");
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(judged),
    }
}

/// A future's panic as `Err(())` (the metrics' futures are polled here; a panic in one pair
/// must not lose the job's other pairs).
struct CatchPanic<F>(F);

impl<F: Future + Unpin> Future for CatchPanic<F> {
    type Output = Result<F::Output, ()>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Ready(v)) => Poll::Ready(Ok(v)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(_) => Poll::Ready(Err(())),
        }
    }
}

/// Resolves with the crash message once the server has exited (never, if it does not).
async fn wait_crash(mut crashed: watch::Receiver<Option<String>>) -> String {
    loop {
        let gone = crashed.borrow().clone();
        if let Some(m) = gone {
            return m;
        }
        if crashed.changed().await.is_err() {
            // The watcher ended without a crash (a clean stop): never resolve.
            std::future::pending::<()>().await;
        }
    }
}

/// `file://` URI of an absolute path (percent-encoding the few characters that need it).
fn file_uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for c in path.display().to_string().chars() {
        match c {
            ' ' => out.push_str("%20"),
            '#' => out.push_str("%23"),
            '?' => out.push_str("%3F"),
            '%' => out.push_str("%25"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_command_from_flag_or_default() {
        assert_eq!(
            server_command(Some("lean-standin --x")).expect("command"),
            ["lean-standin", "--x"]
        );
        assert!(server_command(Some("  ")).is_err());
        assert_eq!(
            server_command(Some("lake serve --")).expect("command"),
            ["lake", "serve", "--", "-Dserver.reportDelayMs=0"]
        );
        assert_eq!(
            server_command(Some("lean --server -Dserver.reportDelayMs=50")).expect("command"),
            ["lean", "--server", "-Dserver.reportDelayMs=50"]
        );
    }

    #[tokio::test]
    async fn a_panic_in_one_judgement_is_an_error_not_a_lost_job() {
        let bad = CatchPanic(Box::pin(async {
            let v: Vec<u32> = std::hint::black_box(Vec::new());
            // An out-of-bounds index: a panic, as a metric's bug would be.
            v[0]
        }));
        assert_eq!(bad.await, Err(()));
        let good = CatchPanic(Box::pin(async { 7 }));
        assert_eq!(good.await, Ok(7));
    }

    #[test]
    fn file_uris_escape_spaces() {
        assert_eq!(file_uri(Path::new("/a b/c")), "file:///a%20b/c");
    }
}
