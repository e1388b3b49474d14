//! The Lean oracle: run tactics on goals in hidden scratch documents and classify the result.
//!
//! Owns: the scratch documents (one per import set; the import header never changes after
//! `didOpen`, so imports load once) and their sessions, the batches of tactic blocks (one
//! full-text `didChange` + one `textDocument/waitForDiagnostics` per batch), the classification
//! of each block (error / closed / one goal / several goals), the bounds (heartbeats per block,
//! a wall-clock deadline, clearing the active region on expiry) and recovery when the worker
//! stalls or dies (reopen and replay once; a `-32801` "File changed." is asked again instead),
//! header errors (after every barrier an error on an import line or at 0:0 ends the batch:
//! [`OracleError::Header`], sticky; a barrier Lean does not answer is waited for in slices with
//! a header check between them), the scratch files on disk (`super::scratch`, when the config
//! names a directory) and the first open of an import set outside any pair's time
//! ([`Oracle::warm_up`]). Counters of versions and round trips are exposed for the numbers the
//! design asks for.
//!
//! Its parts: `batch` (what a batch asks and answers, the block layout), `declarations` (the
//! registry of hidden statements and their universe arity), `messages` (reading Lean's answers),
//! `direct` ([`connect_direct`]: a [`LeanClient`] over a server's stdio without the router).
//!
//! Leaves to others: what to run (the metrics in `crate::metrics::transted`, `defeq`), how a
//! goal's TaggedText becomes a tree (`super::goals`), the editor-facing proxy (`crate::router`).
//!
//! Message shapes (every one follows a recorded example in `fixtures/lean-protocol/examples/`
//! or the Lean source named in `fixtures/lean-protocol/README.md`):
//! - `textDocument/didOpen` / `didChange` (full text, `contentChanges: [{text}]`): README §3;
//! - `textDocument/waitForDiagnostics {uri, version}` → `{}`
//!   (`wire.empty-object-response.json`, README §4; `-32801` for a closed file);
//! - `$/lean/rpc/connect {uri}` → `{sessionId}` (README §7), `-32900` → reconnect;
//! - `$/lean/rpc/call` of `Lean.Widget.getInteractiveDiagnostics {lineRange}`
//!   (`interactiveDiagnostics.params.json` / `.result.json`): diagnostics of a hidden document
//!   are read through RPC because the router consumes every notification about hidden URIs;
//! - `$/lean/rpc/call` of `Lean.Widget.getInteractiveGoals` at the sentinel line
//!   (`interactiveGoals*.result.json`, `-two-goals` for several goals; README §8);
//! - `textDocument/codeAction` at the suggesting tactic (`codeAction.try-this.params.json`,
//!   `.result.json`: `edit.documentChanges[0].edits[0].newText`; README §9);
//! - worker crash: pending requests get `-32901` / `-32902` (README §4).

mod batch;
mod declarations;
mod direct;
mod messages;

pub use batch::{check_tactic_text, Block, BlockResult, Command, CommandResult, Goal, Outcome};
pub use declarations::{Declaration, Declared, UniverseArity, MAX_UNIVERSE_ARITY};
pub use direct::{connect_direct, initialize};
pub use messages::{message_text, two_sides};

use super::goals::{release_refs, rpc_call_params, session_id, LeanRpc, RPC_NEEDS_RECONNECT};
use super::{LeanClient, LeanError};
use declarations::RegistryEntry;
use messages::{
    file_changed, header_error, outcome_of_goals, suggestion_of, worker_lost, LineDiagnostics,
};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a request answered "File changed." is sent again before it counts as failed.
const FILE_CHANGED_RETRIES: usize = 3;

/// The first line of a scratch document without imports. Lean reports a header it could not
/// process at 0:0 (`diagnosticsOfHeaderError`, src/Lean/Server/FileWorker.lean `setupImports`);
/// without an import line there the document's first command would start at 0:0 too, and its
/// own error would be taken for a header error. A comment there leaves 0:0 to the header.
const NO_IMPORTS: &str = "-- lean-assess scratch document (no imports)\n";

/// Bound on the header check made while a barrier is not answered.
const HEADER_PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a batch could not be judged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OracleError {
    #[error("scratch document {uri}: {source}")]
    Lean { uri: String, source: LeanError },
    #[error("scratch document {uri}: the deadline passed before Lean finished the batch")]
    Deadline { uri: String },
    #[error("scratch document {uri}: the Lean worker died twice in a row ({source})")]
    WorkerLost { uri: String, source: LeanError },
    #[error("scratch document {uri}: unexpected JSON shape: {what}")]
    Shape { uri: String, what: String },
    #[error("tactic text rejected (would escape its block): {text:?}")]
    UnsafeText { text: String },
    /// Lean reported an error on the scratch document's header (an import line, or 0:0: a failed
    /// `lake setup-file`, "Imports are out of date and must be rebuilt…", an unknown import).
    /// Nothing after the header is elaborated, so no result of this document means anything:
    /// the batch ends here (sticky: every later batch on the same imports gets it at once).
    #[error("scratch document {uri}: Lean could not process the imports: {message}")]
    Header { uri: String, message: String },
    /// Lean reported an error on the lines wrapping a statement (its header's `open`s,
    /// `variable`s, scopes), or the header closes a scope it did not open: the statement's
    /// context could not be set up, so nothing about it is judged.
    #[error("the header's non-import lines failed in Lean: {message}")]
    Preamble { message: String },
    /// The scratch file could not be written inside the workspace.
    #[error("scratch document {path}: cannot write it: {error}")]
    Scratch { path: String, error: String },
}

impl OracleError {
    /// A Lean answer on the scratch document `uri` that is not of the expected shape.
    fn shape(uri: &str, what: impl Into<String>) -> OracleError {
        OracleError::Shape { uri: uri.to_string(), what: what.into() }
    }
}

/// Limits and placement of the oracle's work.
#[derive(Clone, Debug)]
pub struct OracleConfig {
    /// `set_option maxHeartbeats N in` on every block (design §7.8); never 0.
    pub heartbeats: u64,
    /// Upper bound on one request's wait (the deadline may cut it shorter).
    pub request_timeout: Duration,
    /// Directory URI of the scratch documents when they are not written to disk
    /// (`scratch_dir` unset: tests against the stand-in); must not be covered by a `lean_lib`
    /// glob.
    pub scratch_dir_uri: String,
    /// Directory on disk for the scratch files (see [`super::scratch`]); when set, every
    /// scratch document is a real file there, written before its `didOpen` and removed when it
    /// is closed or the oracle is dropped, and `scratch_dir_uri` is ignored.
    pub scratch_dir: Option<std::path::PathBuf>,
    /// Bound on a first open ([`Oracle::warm_up`]): importing Mathlib, building dependencies,
    /// the first `exact?`/`rw?` index. Not part of any pair's time limit.
    pub load_timeout: Duration,
    /// How long one wait for a barrier lasts before the header is checked for an error
    /// (a worker whose header failed may never answer the barrier).
    pub barrier_slice: Duration,
}

impl Default for OracleConfig {
    fn default() -> Self {
        OracleConfig {
            heartbeats: 200_000,
            request_timeout: Duration::from_secs(60),
            scratch_dir_uri: "file:///lean-assess/.scratch".into(),
            scratch_dir: None,
            load_timeout: load_timeout(),
            barrier_slice: Duration::from_secs(10),
        }
    }
}

/// Env variable bounding a first open in milliseconds (default [`DEFAULT_LOAD_TIMEOUT`]); for
/// tests, and for machines where Mathlib takes longer.
pub const LOAD_TIMEOUT_ENV: &str = "LEAN_ASSESS_LOAD_TIMEOUT_MS";
/// A first open of Mathlib (and a dependency build) may take minutes: 20 by default.
pub const DEFAULT_LOAD_TIMEOUT: Duration = Duration::from_secs(1200);

/// The load timeout: [`LOAD_TIMEOUT_ENV`] when it is a positive number, else the default
/// (an unreadable value is logged and ignored: it must not stop the proxy).
fn load_timeout() -> Duration {
    match std::env::var(LOAD_TIMEOUT_ENV) {
        Ok(t) => match t.trim().parse::<u64>() {
            Ok(ms) if ms > 0 => Duration::from_millis(ms),
            _ => {
                tracing::warn!(value = %t, "{LOAD_TIMEOUT_ENV}: not a positive number of milliseconds; using the default");
                DEFAULT_LOAD_TIMEOUT
            }
        },
        Err(_) => DEFAULT_LOAD_TIMEOUT,
    }
}

/// Counts of what the oracle sent, for "versions / round trips per expanded node".
#[derive(Debug, Default)]
pub struct Counters {
    versions: AtomicU64,
    round_trips: AtomicU64,
    blocks: AtomicU64,
    reopens: AtomicU64,
}

/// A copy of the counters at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CounterSnapshot {
    /// Document versions sent (`didOpen` and `didChange`).
    pub versions: u64,
    /// Requests answered or timed out (notifications are not round trips).
    pub round_trips: u64,
    /// Tactic blocks classified.
    pub blocks: u64,
    /// Times a scratch document was closed and reopened after a worker failure.
    pub reopens: u64,
}

impl CounterSnapshot {
    /// `self - earlier`, field by field.
    pub fn since(&self, earlier: &CounterSnapshot) -> CounterSnapshot {
        CounterSnapshot {
            versions: self.versions - earlier.versions,
            round_trips: self.round_trips - earlier.round_trips,
            blocks: self.blocks - earlier.blocks,
            reopens: self.reopens - earlier.reopens,
        }
    }
}

impl Counters {
    pub fn snapshot(&self) -> CounterSnapshot {
        CounterSnapshot {
            versions: self.versions.load(Ordering::Relaxed),
            round_trips: self.round_trips.load(Ordering::Relaxed),
            blocks: self.blocks.load(Ordering::Relaxed),
            reopens: self.reopens.load(Ordering::Relaxed),
        }
    }
}

struct ScratchDoc {
    uri: String,
    /// The file on disk behind `uri` (when the config names a scratch directory).
    path: Option<std::path::PathBuf>,
    /// Lean's header error, once seen: the document is unusable (see [`OracleError::Header`]).
    header_error: Option<String>,
    /// [`Oracle::warm_up`] has loaded the imports / built the search indexes.
    warm: bool,
    indexed: bool,
    header: String,
    registry: String,
    entries: Vec<RegistryEntry>,
    version: i64,
    opened: bool,
    session: Option<String>,
    active: String,
}

impl ScratchDoc {
    fn text(&self) -> String {
        format!("{}{}{}", self.header, self.registry, self.active)
    }
    fn registry_end_line(&self) -> u32 {
        line_count(&self.header) + line_count(&self.registry)
    }
}

fn line_count(s: &str) -> u32 {
    u32::try_from(s.matches('\n').count()).unwrap_or(u32::MAX)
}

/// Registers a URI as hidden from the editor.
type HideFn = Box<dyn Fn(&str) + Send + Sync>;

/// The oracle over one Lean client. Methods take `&mut self`: one batch at a time per oracle
/// (a scratch document has one active region).
pub struct Oracle<L: LeanRpc> {
    lean: Arc<L>,
    config: OracleConfig,
    docs: HashMap<String, ScratchDoc>,
    counters: Arc<Counters>,
    next_statement: u64,
    /// Behind the editor proxy: registers each scratch URI as hidden before its `didOpen`, so
    /// the router consumes Lean's notifications about it (`LeanClient::hide_uri`).
    hide: Option<HideFn>,
}

impl<L: LeanRpc> Oracle<L> {
    pub fn new(lean: Arc<L>, config: OracleConfig) -> Oracle<L> {
        Oracle {
            lean,
            config,
            docs: HashMap::new(),
            counters: Arc::new(Counters::default()),
            next_statement: 1,
            hide: None,
        }
    }

    /// Behind the router: hide every scratch URI through `client` before opening it.
    pub fn hiding_through(mut self, client: Arc<LeanClient>) -> Oracle<L> {
        self.hide = Some(Box::new(move |uri| client.hide_uri(uri)));
        self
    }

    /// A fresh name `<prefix><n>` (unique per oracle), for namespaces of BEq attempts.
    pub fn fresh_name(&mut self, prefix: &str) -> String {
        let n = self.next_statement;
        self.next_statement += 1;
        format!("{prefix}{n}")
    }

    /// The counters (shared; snapshot them before and after a piece of work).
    pub fn counters(&self) -> Arc<Counters> {
        self.counters.clone()
    }

    /// The scratch document key, which is also its import header: each header's import lines
    /// in that header's own order (the order decides instance and notation priority ties), the
    /// headers taken in a fixed order (so both directions of a pair share one document), later
    /// headers adding only the imports not seen yet.
    pub fn import_key(headers: &[&str]) -> String {
        let mut headers = headers.to_vec();
        headers.sort_unstable();
        let mut imports: Vec<&str> = Vec::new();
        for line in headers.iter().flat_map(|h| h.lines()).map(str::trim) {
            if line.starts_with("import ") && !imports.contains(&line) {
                imports.push(line);
            }
        }
        imports.iter().map(|l| format!("{l}\n")).collect()
    }

    fn doc(&mut self, key: &str) -> &mut ScratchDoc {
        let n = self.docs.len();
        let dir = self.config.scratch_dir_uri.trim_end_matches('/').to_string();
        let on_disk = self.config.scratch_dir.clone();
        self.docs.entry(key.to_string()).or_insert_with(|| {
            let (uri, path) = match on_disk {
                Some(dir) => {
                    let path = super::scratch::new_path(&dir);
                    (super::scratch::file_uri(&path), Some(path))
                }
                None => (format!("{dir}/scratch{n}.lean"), None),
            };
            ScratchDoc {
                uri,
                path,
                header_error: None,
                warm: false,
                indexed: false,
                header: if key.is_empty() { NO_IMPORTS.to_string() } else { key.to_string() },
                registry: String::new(),
                entries: Vec::new(),
                version: 0,
                opened: false,
                session: None,
                active: String::new(),
            }
        })
    }

    /// The URI of the scratch document for `key` (created lazily).
    pub fn uri_of(&mut self, key: &str) -> String {
        self.doc(key).uri.clone()
    }

    fn timeout(&self, deadline: Instant) -> Duration {
        deadline.saturating_duration_since(Instant::now()).min(self.config.request_timeout)
    }

    async fn request(
        &self,
        method: &str,
        params: Value,
        deadline: Instant,
    ) -> Result<Value, LeanError> {
        let mut tries = 0;
        loop {
            self.counters.round_trips.fetch_add(1, Ordering::Relaxed);
            match self.lean.request(method, params.clone(), self.timeout(deadline)).await {
                Err(e) if file_changed(&e) && tries < FILE_CHANGED_RETRIES => {
                    tries += 1;
                    tracing::debug!(method, "Lean answered \"File changed.\"; asking again");
                }
                other => return other,
            }
        }
    }

    /// Run one batch: every block as its own `example`, every command as top-level text, in one
    /// document version. Results in the order given.
    pub async fn run(
        &mut self,
        key: &str,
        blocks: &[Block],
        commands: &[Command],
        deadline: Instant,
    ) -> Result<(Vec<BlockResult>, Vec<CommandResult>), OracleError> {
        let doc = self.doc(key);
        if let Some(message) = doc.header_error.clone() {
            return Err(OracleError::Header { uri: doc.uri.clone(), message });
        }
        for b in blocks {
            check_tactic_text(&b.tactic)?;
            for p in &b.path {
                check_tactic_text(p)?;
            }
        }
        match self.run_once(key, blocks, commands, deadline).await {
            Err(OracleError::Lean { source, .. }) if worker_lost(&source) => {
                // The worker died or lost the file: reopen (replays the registry) and retry once.
                self.counters.reopens.fetch_add(1, Ordering::Relaxed);
                let doc = self.doc(key);
                doc.opened = false;
                doc.session = None;
                let uri = doc.uri.clone();
                tracing::warn!(%uri, %source, "Lean worker lost; reopening the scratch document");
                close_document(&*self.lean, &uri).await;
                match self.run_once(key, blocks, commands, deadline).await {
                    Err(OracleError::Lean { uri, source }) if worker_lost(&source) => {
                        Err(OracleError::WorkerLost { uri, source })
                    }
                    other => other,
                }
            }
            other => other,
        }
    }

    /// One attempt at a batch: lay it out, send it as one version, wait for its diagnostics and
    /// classify each block and command.
    async fn run_once(
        &mut self,
        key: &str,
        blocks: &[Block],
        commands: &[Command],
        deadline: Instant,
    ) -> Result<(Vec<BlockResult>, Vec<CommandResult>), OracleError> {
        let heartbeats = self.config.heartbeats.max(1);
        let doc = self.doc(key);
        let region = batch::lay_out(blocks, commands, doc.registry_end_line(), heartbeats);
        doc.active = region.text;
        let uri = doc.uri.clone();
        self.ensure_file(key)?;
        let version =
            self.send_text(key).await.map_err(|source| OracleError::Lean { uri, source })?;
        self.barrier(key, version, deadline).await?;
        let total_lines = line_count(&self.doc(key).text()) + 1;
        let diagnostics = self
            .rpc(
                key,
                "Lean.Widget.getInteractiveDiagnostics",
                json!({"lineRange": {"start": 0, "end": total_lines}}),
                json!({"line": 0, "character": 0}),
                deadline,
            )
            .await?;
        self.check_header(key, &diagnostics)?;
        let diagnostics = LineDiagnostics::read(&diagnostics);
        self.record_entries(key, &diagnostics);

        let mut results = Vec::with_capacity(blocks.len());
        for (b, p) in blocks.iter().zip(&region.blocks) {
            self.counters.blocks.fetch_add(1, Ordering::Relaxed);
            let first_error = diagnostics.errors_in(p.start, p.end).next().map(|(_, m)| m.clone());
            let suggestions = if b.suggestions {
                self.suggestions(key, p.tactic_line, deadline).await?
            } else {
                Vec::new()
            };
            let outcome = match first_error {
                Some(m) => Outcome::Error(m),
                None => self.goal_at(key, p.sentinel_line, deadline).await?,
            };
            results.push(BlockResult { outcome, suggestions });
        }
        let mut command_results = Vec::with_capacity(commands.len());
        for (c, &(s, e)) in commands.iter().zip(&region.commands) {
            let suggestions = match c.suggest_line {
                Some(l) => self.suggestions(key, s + l, deadline).await?,
                None => Vec::new(),
            };
            command_results.push(CommandResult {
                errors: diagnostics.errors_in(s, e).map(|(_, m)| m.clone()).collect(),
                error_lines: diagnostics
                    .errors_in(s, e)
                    .map(|(l, m)| (u32::try_from(l).unwrap_or(u32::MAX) - s, m.clone()))
                    .collect(),
                messages: diagnostics.in_lines(s, e).map(|(_, sev, m)| (*sev, m.clone())).collect(),
                suggestions,
            });
        }
        Ok((results, command_results))
    }

    /// Wait until Lean has sent every diagnostic of `version` (`textDocument/waitForDiagnostics`,
    /// README §4), checking the header between slices; a deadline that passes clears the active
    /// region.
    async fn barrier(
        &mut self,
        key: &str,
        version: i64,
        deadline: Instant,
    ) -> Result<(), OracleError> {
        let uri = self.doc(key).uri.clone();
        // Waited for in slices: a worker whose header failed may never answer it (src/Lean/Server/FileWorker.lean:
        // `handleRequest` binds it to `srcSearchPathTask`, and on some versions `setupImports`
        // resolves that promise only after a successful header), so between slices the header
        // is checked through `getInteractiveDiagnostics`, which `handleRequest` answers without
        // the search path.
        loop {
            let slice = deadline.min(Instant::now() + self.config.barrier_slice);
            match self
                .request(
                    "textDocument/waitForDiagnostics",
                    json!({"uri": uri, "version": version}),
                    slice,
                )
                .await
            {
                Ok(_) => return Ok(()),
                Err(LeanError::Timeout { .. }) => {
                    if let Some(e) = self.header_error_now(key).await {
                        return Err(e);
                    }
                    if Instant::now() >= deadline {
                        self.abandon(key).await;
                        return Err(OracleError::Deadline { uri });
                    }
                }
                Err(source) => return Err(OracleError::Lean { uri, source }),
            }
        }
    }

    /// The file behind a scratch document exists on disk before its `didOpen` (see
    /// [`super::scratch`]); a no-op for an open document or one without a file.
    fn ensure_file(&mut self, key: &str) -> Result<(), OracleError> {
        let doc = self.doc(key);
        if doc.opened {
            return Ok(());
        }
        let Some(path) = doc.path.clone() else {
            return Ok(());
        };
        let text = doc.text();
        super::scratch::write(&path, &text).map_err(|e| OracleError::Scratch {
            path: path.display().to_string(),
            error: e.to_string(),
        })
    }

    /// The header error Lean reports now, if any, read through `getInteractiveDiagnostics` with
    /// a short bound of its own (used while a barrier is not answered).
    async fn header_error_now(&mut self, key: &str) -> Option<OracleError> {
        let lines = line_count(&self.doc(key).header) + 1;
        let deadline = Instant::now() + HEADER_PROBE_TIMEOUT;
        let diagnostics = self
            .rpc(
                key,
                "Lean.Widget.getInteractiveDiagnostics",
                json!({"lineRange": {"start": 0, "end": lines}}),
                json!({"line": 0, "character": 0}),
                deadline,
            )
            .await
            .ok()?;
        self.check_header(key, &diagnostics).err()
    }

    /// After a barrier: a header error ends the batch (and every later one on these imports)
    /// with [`OracleError::Header`], never a result.
    fn check_header(&mut self, key: &str, diagnostics: &Value) -> Result<(), OracleError> {
        let doc = self.doc(key);
        let header_lines = line_count(&doc.header);
        let list = diagnostics.as_array().map(Vec::as_slice).unwrap_or(&[]);
        match header_error(list, header_lines) {
            Some(message) => {
                tracing::warn!(uri = %doc.uri, %message, "Lean reported a header error");
                doc.header_error = Some(message.clone());
                Err(OracleError::Header { uri: doc.uri.clone(), message })
            }
            None => Ok(()),
        }
    }

    /// Open the scratch document for `key` and wait until Lean has loaded its imports (and,
    /// with `index`, built the `exact?` / `rw?` indexes of the worker), bounded by the
    /// configured `load_timeout`, not by any pair's time limit: the first open imports Mathlib
    /// and may build dependencies, and the first `exact?`/`rw?` builds its lazy discrimination
    /// tree (src/Lean/Meta/LazyDiscrTree.lean; `exact?` and `rw?` each keep one per
    /// environment) outside the heartbeat limit. Returns the time it took (zero when already
    /// warm). A header error comes out here, as [`OracleError::Header`].
    pub async fn warm_up(&mut self, key: &str, index: bool) -> Result<Duration, OracleError> {
        let doc = self.doc(key);
        if doc.warm && (doc.indexed || !index) {
            return Ok(Duration::ZERO);
        }
        let start = Instant::now();
        let deadline = start + self.config.load_timeout;
        let mut commands = Vec::new();
        if index {
            // Goals `exact?` / `rw?` cannot close from local hypotheses, so each consults its
            // library index (core Lean has `Nat.add_comm`); their results are not read.
            commands.push(Command::new(
                "set_option maxHeartbeats 0 in
example (a b : Nat) : a + b = b + a := by
  exact?",
            ));
            commands.push(Command::new(
                "set_option maxHeartbeats 0 in
example (a b : Nat) : a + b = b + a := by
  rw?",
            ));
        }
        let saved = std::mem::replace(&mut self.config.request_timeout, self.config.load_timeout);
        let r = self.run(key, &[], &commands, deadline).await;
        self.config.request_timeout = saved;
        r?;
        let doc = self.doc(key);
        doc.warm = true;
        doc.indexed |= index;
        Ok(start.elapsed())
    }

    /// Close and forget the scratch documents whose header failed, so the next batch opens them
    /// afresh (a new worker runs `lake setup-file` again: the user may have rebuilt the imports
    /// meanwhile). For the editor; a batch run stops at the first header error instead.
    pub async fn discard_failed_headers(&mut self) {
        let failed: Vec<String> = self
            .docs
            .iter()
            .filter(|(_, d)| d.header_error.is_some())
            .map(|(k, _)| k.clone())
            .collect();
        for key in failed {
            let Some(doc) = self.docs.remove(&key) else {
                continue;
            };
            if doc.opened {
                close_document(&*self.lean, &doc.uri).await;
            }
            if let Some(path) = &doc.path {
                super::scratch::remove(path);
            }
        }
    }

    /// The header error seen on any scratch document, if any (batch runs stop on it).
    pub fn header_failure(&self) -> Option<OracleError> {
        self.docs.values().find_map(|d| {
            d.header_error
                .as_ref()
                .map(|m| OracleError::Header { uri: d.uri.clone(), message: m.clone() })
        })
    }

    /// Send the document's current text as a new version (didOpen the first time).
    async fn send_text(&mut self, key: &str) -> Result<i64, LeanError> {
        let doc = self.doc(key);
        doc.version += 1;
        let version = doc.version;
        let uri = doc.uri.clone();
        let text = doc.text();
        let opened = doc.opened;
        doc.opened = true;
        self.counters.versions.fetch_add(1, Ordering::Relaxed);
        if opened {
            self.lean
                .notify(
                    "textDocument/didChange",
                    json!({"textDocument": {"uri": uri, "version": version},
                           "contentChanges": [{"text": text}]}),
                )
                .await?;
        } else {
            if let Some(hide) = &self.hide {
                hide(&uri);
            }
            self.lean
                .notify(
                    "textDocument/didOpen",
                    json!({"textDocument": {"uri": uri, "languageId": "lean4",
                                            "version": version, "text": text}}),
                )
                .await?;
        }
        Ok(version)
    }

    /// Deadline passed: replace the active region with nothing, which supersedes (and so
    /// cancels) the running elaboration (design §7.8).
    async fn abandon(&mut self, key: &str) {
        self.doc(key).active.clear();
        let _ = self.send_text(key).await;
    }

    /// Cancel whatever the scratch document for `key` is elaborating (an edit supersedes it).
    pub async fn cancel(&mut self, key: &str) {
        if self.doc(key).opened {
            self.abandon(key).await;
        }
    }

    /// Close every scratch document (ends their workers).
    pub async fn close_all(&mut self) {
        for doc in self.docs.values_mut() {
            if doc.opened {
                close_document(&*self.lean, &doc.uri).await;
                doc.opened = false;
                doc.session = None;
            }
            if let Some(path) = &doc.path {
                super::scratch::remove(path);
            }
        }
    }

    /// One `$/lean/rpc/call`, connecting first and reconnecting once on `-32900`.
    async fn rpc(
        &mut self,
        key: &str,
        method: &str,
        params: Value,
        position: Value,
        deadline: Instant,
    ) -> Result<Value, OracleError> {
        let uri = self.doc(key).uri.clone();
        let lean_err = |source| OracleError::Lean { uri: uri.clone(), source };
        let mut retried = false;
        loop {
            let session = match self.doc(key).session.clone() {
                Some(s) => s,
                None => {
                    let r = self
                        .request("$/lean/rpc/connect", json!({"uri": uri}), deadline)
                        .await
                        .map_err(lean_err)?;
                    let s = session_id(&r).ok_or_else(|| {
                        OracleError::shape(&uri, format!("rpc/connect result {r}"))
                    })?;
                    self.doc(key).session = Some(s.clone());
                    s
                }
            };
            let call = rpc_call_params(&uri, &position, &session, method, params.clone());
            match self.request("$/lean/rpc/call", call, deadline).await {
                Ok(v) => {
                    release_refs(&*self.lean, &uri, &session, &v).await;
                    return Ok(v);
                }
                Err(LeanError::Response { code, .. })
                    if code == RPC_NEEDS_RECONNECT && !retried =>
                {
                    retried = true;
                    self.doc(key).session = None;
                }
                Err(LeanError::Timeout { .. }) => {
                    self.abandon(key).await;
                    return Err(OracleError::Deadline { uri });
                }
                Err(e) => return Err(lean_err(e)),
            }
        }
    }

    /// Goals at the sentinel: `[]` closed, one goal open, several invalid, `null` no info.
    async fn goal_at(
        &mut self,
        key: &str,
        line: u32,
        deadline: Instant,
    ) -> Result<Outcome, OracleError> {
        let uri = self.doc(key).uri.clone();
        let position = json!({"line": line, "character": 2});
        let r = self
            .rpc(
                key,
                "Lean.Widget.getInteractiveGoals",
                json!({"textDocument": {"uri": uri}, "position": position}),
                position.clone(),
                deadline,
            )
            .await?;
        if r.is_null() {
            tracing::warn!(%uri, line, "no goal information at the sentinel and no error");
            return Ok(Outcome::NoInfo);
        }
        outcome_of_goals(&r, &uri)
    }

    /// "Try this" suggestions at `line` from code actions, taken by shape, not by title
    /// (titles are configurable, `codeActionPrefix?` in src/Lean/Meta/Tactic/TryThis.lean):
    /// quickfixes whose edit replaces a range starting on `line` (the suggesting tactic's
    /// span, `codeAction.try-this.result.json`); their `newText` is the suggestion.
    async fn suggestions(
        &mut self,
        key: &str,
        line: u32,
        deadline: Instant,
    ) -> Result<Vec<String>, OracleError> {
        let uri = self.doc(key).uri.clone();
        let at = json!({"line": line, "character": 2});
        let r = self
            .request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": uri}, "range": {"start": at, "end": at},
                       "context": {"diagnostics": []}}),
                deadline,
            )
            .await
            .map_err(|source| OracleError::Lean { uri: uri.clone(), source })?;
        let mut out = Vec::new();
        for action in r.as_array().into_iter().flatten() {
            if let Some(text) = suggestion_of(action, &uri, line) {
                if !text.is_empty() && !out.contains(&text) {
                    out.push(text);
                }
            }
        }
        Ok(out)
    }
}

/// `textDocument/didClose` for a scratch document (its worker ends). A failure to send is
/// ignored: the document is forgotten or reopened either way.
async fn close_document<L: LeanRpc>(lean: &L, uri: &str) {
    let _ = lean.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}})).await;
}

impl<L: LeanRpc> Drop for Oracle<L> {
    /// The scratch files go with the oracle (a dying batch job or proxy leaves none behind;
    /// Lean's worker for a file that is gone is harmless and ends with the server).
    fn drop(&mut self) {
        for doc in self.docs.values() {
            if let Some(path) = &doc.path {
                super::scratch::remove(path);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn import_key_keeps_each_headers_order() {
        let a = "import Mathlib\nimport Aesop\nopen Real\n";
        let b = "import Mathlib\nimport Aesop\nimport Batteries\n";
        let k = Oracle::<LeanClient>::import_key(&[a, b]);
        assert_eq!(k, "import Mathlib\nimport Aesop\nimport Batteries\n");
        assert_eq!(Oracle::<LeanClient>::import_key(&[b, a]), k);
        assert_eq!(
            Oracle::<LeanClient>::import_key(&["import Z\nimport A\n"]),
            "import Z\nimport A\n"
        );
    }
}
