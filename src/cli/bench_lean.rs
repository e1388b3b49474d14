//! `bench --metric transted|beq|defeq --lean-project DIR`: the batch loop of the metrics that
//! need Lean, without an editor.
//!
//! Owns: choosing the server command (`--server-command "PROG ARGS..."`, split on whitespace,
//! else env `LEAN_ASSESS_SERVER`, else `lake serve --`), spawning it in DIR, `initialize`, one
//! [`Oracle`] per concurrent job over the one server (an oracle has one active region, so
//! `--jobs N` means N oracles with their own scratch documents under `DIR/.scratch/jobK/`),
//! the progress line, the resumable prediction file, and turning a server crash into an error
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
//! Leaves to others: the evaluation and report (`super::bench`), the metrics themselves
//! (`crate::metrics::{transted, defeq, beq}`), the Lean messages (`crate::lean::oracle`).

use super::bench::Outcome;
use crate::dataset::DatasetPair;
use crate::lean::beq_checker::OracleProofChecker;
use crate::lean::oracle::{connect_direct, initialize, Oracle, OracleConfig};
use crate::lean::process::LeanProcess;
use crate::lean::LeanClient;
use crate::metrics::beq::{Beq, BeqSettings, BeqSide};
use crate::metrics::defeq::DefEq;
use crate::metrics::lean_backed::LeanMetric;
use crate::metrics::transted::TransTed;
use crate::metrics::{Pair, Verdict};
use crate::trees::parse::{self, Header};
use anyhow::{bail, Context};
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;
use tokio::io::BufReader;
use tokio::sync::{mpsc, watch};

/// The default server command (as `serve`'s).
const DEFAULT_SERVER: [&str; 3] = ["lake", "serve", "--"];
/// Env variable naming the server command when `--server-command` is not given.
pub const SERVER_ENV: &str = "LEAN_ASSESS_SERVER";
/// `initialize` waits this long (a cold `lake serve` may build the project first).
const INITIALIZE_TIMEOUT: Duration = Duration::from_secs(600);
/// How long a failed pair waits for news of a server exit before its own error stands.
const CRASH_GRACE: Duration = Duration::from_millis(500);
/// Beyond a metric's own time limit, how long a pair may take before it is abandoned.
const GUARD_SLACK: Duration = Duration::from_secs(30);

/// What the Lean-backed run needs from the command line.
pub struct LeanRun<'a> {
    pub metric: &'a str,
    pub project: &'a Path,
    pub server_command: Option<&'a str>,
    pub jobs: usize,
    pub out: Option<&'a Path>,
}

/// The server command: `--server-command`, else `$LEAN_ASSESS_SERVER`, else `lake serve --`.
pub fn server_command(flag: Option<&str>) -> anyhow::Result<Vec<String>> {
    let text = match flag {
        Some(t) => Some(t.to_string()),
        None => std::env::var(SERVER_ENV)
            .ok()
            .filter(|s| !s.trim().is_empty()),
    };
    let command: Vec<String> = match text {
        Some(t) => t.split_whitespace().map(String::from).collect(),
        None => DEFAULT_SERVER.iter().map(|s| s.to_string()).collect(),
    };
    if command.is_empty() {
        bail!("--server-command: empty command");
    }
    Ok(command)
}

/// Predictions already in `path` that need no new judgement (id → outcome), in file order.
/// A missing file is an empty map; a malformed line is fatal (it names the line).
pub fn read_done(path: &Path) -> anyhow::Result<HashMap<String, Outcome>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let mut done = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line)
            .with_context(|| format!("{}:{}: not a JSON prediction", path.display(), n + 1))?;
        let Some(id) = v.get("id").and_then(Value::as_str) else {
            bail!(
                "{}:{}: prediction without a string id",
                path.display(),
                n + 1
            );
        };
        if let Some(s) = v.get("score").and_then(Value::as_f64) {
            done.insert(id.to_string(), Outcome::Judged(Verdict::Score(s)));
        } else if let Some(e) = v.get("equivalent").and_then(Value::as_bool) {
            done.insert(id.to_string(), Outcome::Judged(Verdict::Equivalent(e)));
        } else {
            // An error line: judge the pair again.
            done.remove(id);
        }
    }
    Ok(done)
}

/// One job's judge: an oracle of its own (BEq's checker holds it).
enum Judge {
    TransTed(TransTed, Oracle<LeanClient>),
    DefEq(DefEq, Oracle<LeanClient>),
    Beq(Box<Beq<OracleProofChecker<LeanClient>>>),
}

impl Judge {
    fn new(metric: &str, oracle: Oracle<LeanClient>) -> anyhow::Result<Judge> {
        Ok(match metric {
            "transted" => Judge::TransTed(TransTed::default(), oracle),
            "defeq" => Judge::DefEq(DefEq::default(), oracle),
            "beq" => {
                let settings = BeqSettings::default();
                Judge::Beq(Box::new(Beq {
                    checker: OracleProofChecker::new(oracle, settings.deadline),
                    // No `[llm]` here: bench reads no config file; BEq runs its fixed attempts.
                    sampler: None,
                    settings,
                }))
            }
            other => bail!("BUG: '{other}' is not a Lean metric"),
        })
    }

    /// The metric's own bound plus slack: past it the pair is abandoned as timed out.
    fn guard(&self) -> Duration {
        GUARD_SLACK
            + match self {
                Judge::TransTed(t, _) => t.config.time_limit,
                Judge::DefEq(d, _) => d.time_limit,
                Judge::Beq(b) => b.settings.deadline,
            }
    }

    /// Judge one pair; the second value counts statements that kept unparsed spans.
    async fn judge(&mut self, pair: &DatasetPair) -> (Outcome, usize) {
        let reference =
            parse::parse_statement(&pair.ref_statement, &Header::parse(&pair.ref_header));
        let candidate =
            parse::parse_statement(&pair.cand_statement, &Header::parse(&pair.cand_header));
        let (reference, candidate) = match (reference, candidate) {
            (Ok(r), Ok(c)) => (r, c),
            (Err(e), _) => return (Outcome::Failed(format!("ref_statement: {e}")), 0),
            (_, Err(e)) => return (Outcome::Failed(format!("cand_statement: {e}")), 0),
        };
        let unparsed = usize::from(!reference.unparsed.is_empty())
            + usize::from(!candidate.unparsed.is_empty());
        let metric_pair = Pair {
            reference: &reference,
            candidate: &candidate,
            reference_header: &pair.ref_header,
            candidate_header: &pair.cand_header,
        };
        let result = match self {
            Judge::TransTed(t, oracle) => t
                .judge(oracle, &metric_pair)
                .await
                .map(|j| j.report.verdict)
                .map_err(|e| format!("transted: {e}")),
            Judge::DefEq(d, oracle) => d
                .judge(oracle, &metric_pair)
                .await
                .map(|j| j.report.verdict)
                .map_err(|e| format!("defeq: {e}")),
            Judge::Beq(b) => {
                let report = b
                    .judge(
                        BeqSide {
                            header: &pair.ref_header,
                            declaration: &pair.ref_statement,
                        },
                        BeqSide {
                            header: &pair.cand_header,
                            declaration: &pair.cand_statement,
                        },
                    )
                    .await;
                Ok(report
                    .to_metric_report(reference.tree.size(), candidate.tree.size())
                    .verdict)
            }
        };
        let outcome = match result {
            Ok(v) => Outcome::Judged(v),
            Err(e) => Outcome::Failed(e),
        };
        (outcome, unparsed)
    }
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
        Some(p) => read_done(p)?,
        None => HashMap::new(),
    };
    let mut results: Vec<Option<(Outcome, usize)>> = pairs
        .iter()
        .map(|p| done.remove(&p.id).map(|o| (o, 0)))
        .collect();
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
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .context("cannot start the async runtime")?;
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
            |k, index, outcome| -> anyhow::Result<()> {
                let pair = &pairs[index];
                let shown = match outcome {
                    Outcome::Judged(Verdict::Score(s)) => format!("score {s:.4}"),
                    Outcome::Judged(Verdict::Equivalent(e)) => format!("equivalent {e}"),
                    Outcome::Failed(m) => format!("error: {m}"),
                };
                writeln!(err, "[{}/{total}] {}: {shown}", skipped + k, pair.id)?;
                if let Some(file) = sink.as_mut() {
                    writeln!(file, "{}", prediction(&pair.id, outcome))?;
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
            r.unwrap_or_else(|| {
                (
                    Outcome::Failed("BUG: pair neither judged nor resumed".into()),
                    0,
                )
            })
        })
        .collect())
}

/// One prediction line (the contract's format).
pub fn prediction(id: &str, outcome: &Outcome) -> Value {
    match outcome {
        Outcome::Judged(Verdict::Score(s)) => json!({"id": id, "score": s}),
        Outcome::Judged(Verdict::Equivalent(e)) => json!({"id": id, "equivalent": e}),
        Outcome::Failed(message) => json!({"id": id, "error": message}),
    }
}

/// Spawn the server, run the jobs, call `finished(k, index, outcome)` as pairs finish (k from
/// 1), shut the server down.
async fn drive(
    run: &LeanRun<'_>,
    command: &[String],
    project: &Path,
    pairs: &[DatasetPair],
    todo: VecDeque<usize>,
    mut finished: impl FnMut(usize, usize, &Outcome) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<(usize, (Outcome, usize))>> {
    let (mut process, stdin, stdout) = LeanProcess::spawn(command, Some(project), &[])?;
    let shown = process.command().to_string();
    let client = connect_direct(BufReader::new(stdout), stdin);
    let root = file_uri(project);
    // The crash message, once the server has exited on its own.
    let (crashed_tx, crashed) = watch::channel::<Option<String>>(None);
    let (stop_tx, stop) = tokio::sync::oneshot::channel::<()>();
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
            _ = stop => {
                let _ = process.wait_or_kill(Duration::from_secs(5)).await;
            }
        }
    });
    let init = tokio::select! {
        r = initialize(&client, Some(&root), INITIALIZE_TIMEOUT) => r.map_err(|e| e.to_string()),
        m = wait_crash(crashed.clone()) => Err(m),
    };
    if let Err(e) = init {
        let _ = stop_tx.send(());
        let _ = watcher.await;
        bail!(
            "cannot initialize the Lean server in {}: {e}",
            project.display()
        );
    }

    let queue = Arc::new(Mutex::new(todo));
    let (tx, mut rx) = mpsc::unbounded_channel::<(usize, (Outcome, usize))>();
    let jobs = run.jobs.max(1).min(pairs.len().max(1));
    let pairs: Arc<Vec<DatasetPair>> = Arc::new(pairs.to_vec());
    for job in 0..jobs {
        let (client, root) = (client.clone(), root.clone());
        let fresh = move |restarts: usize| {
            let dir = match restarts {
                0 => format!("{root}/.scratch/job{job}"),
                n => format!("{root}/.scratch/job{job}-{n}"),
            };
            Oracle::new(
                client.clone(),
                OracleConfig {
                    scratch_dir_uri: dir,
                    ..OracleConfig::default()
                },
            )
        };
        let metric = run.metric.to_string();
        let mut judge = Judge::new(&metric, fresh(0))?;
        let (queue, tx, pairs, crashed) =
            (queue.clone(), tx.clone(), pairs.clone(), crashed.clone());
        tokio::spawn(async move {
            let mut restarts = 0usize;
            let mut panicked = false;
            loop {
                let next = queue
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .pop_front();
                let Some(index) = next else { break };
                let pair = &pairs[index];
                let gone = crashed.borrow().clone();
                let result = if let Some(m) = gone {
                    (Outcome::Failed(m), 0)
                } else {
                    let guard = judge.guard();
                    tokio::select! {
                        r = tokio::time::timeout(guard, CatchPanic(Box::pin(judge.judge(pair)))) => match r {
                            Ok(Ok(judged)) => judged,
                            Ok(Err(())) => {
                                panicked = true;
                                (Outcome::Failed(format!("internal error (a bug) while judging with {metric}")), 0)
                            }
                            Err(_) => (Outcome::Failed(format!("no answer within {} s; abandoned", guard.as_secs())), 0),
                        },
                        m = wait_crash(crashed.clone()) => (Outcome::Failed(m), 0),
                    }
                };
                if std::mem::take(&mut panicked) {
                    // A bug (its message is already on stderr): this pair failed; the job goes
                    // on with a fresh oracle (the old one may be mid-batch).
                    restarts += 1;
                    match Judge::new(&metric, fresh(restarts)) {
                        Ok(j) => judge = j,
                        Err(_) => break,
                    }
                }
                // The oracle may see the closed stream before the watcher sees the exit: a
                // failure right before a crash is the crash's.
                let result = match result {
                    (Outcome::Failed(e), n) => {
                        match tokio::time::timeout(CRASH_GRACE, wait_crash(crashed.clone())).await {
                            Ok(m) => (Outcome::Failed(format!("{m} ({e})")), n),
                            Err(_) => (Outcome::Failed(e), n),
                        }
                    }
                    judged => judged,
                };
                if tx.send((index, result)).is_err() {
                    break;
                }
            }
        });
    }
    drop(tx);
    let mut judged = Vec::new();
    let mut failure = None;
    while let Some((index, result)) = rx.recv().await {
        if failure.is_none() {
            if let Err(e) = finished(judged.len() + 1, index, &result.0) {
                failure = Some(e);
            }
        }
        judged.push((index, result));
    }
    // Polite shutdown (LSP `shutdown` + `exit`), then wait or kill.
    let gone = crashed.borrow().is_some();
    if !gone {
        let _ = client
            .request("shutdown", Value::Null, Duration::from_secs(5))
            .await;
        let _ = client.notify("exit", Value::Null).await;
    }
    let _ = stop_tx.send(());
    let _ = watcher.await;
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
    }

    #[test]
    fn resume_keeps_judged_ids_and_retries_errors() {
        let dir = tempfile::tempdir().expect("dir");
        let p = dir.path().join("pred.jsonl");
        std::fs::write(
            &p,
            "{\"id\":\"a\",\"score\":0.5}\n{\"id\":\"b\",\"error\":\"crash\"}\n\
             {\"id\":\"c\",\"error\":\"x\"}\n{\"id\":\"c\",\"equivalent\":true}\n\
             {\"id\":\"a\",\"error\":\"later\"}\n{\"id\":\"d\",\"equivalent\":false}\n",
        )
        .expect("write");
        let done = read_done(&p).expect("read");
        let mut ids: Vec<&str> = done.keys().map(String::as_str).collect();
        ids.sort_unstable();
        assert_eq!(ids, ["c", "d"]);
        assert!(matches!(
            done.get("c"),
            Some(Outcome::Judged(Verdict::Equivalent(true)))
        ));
        assert!(read_done(&dir.path().join("missing.jsonl"))
            .expect("missing is empty")
            .is_empty());
        std::fs::write(&p, "not json\n").expect("write");
        assert!(read_done(&p).unwrap_err().to_string().contains(":1:"));
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
