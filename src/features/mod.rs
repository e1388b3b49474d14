//! Editor features behind the proxy: code lenses, the hover section, code actions, our commands
//! and diagnostics, for every theorem of an open document that has a reference.
//!
//! Owns [`Features`], the router's interface (`tasks/proxy-interface.md`): the router calls the
//! `observe_*`/`augment_*`/`merge_*` hooks on the forwarding path — they only update state and
//! spawn or cancel jobs — and runs `own_request` futures on spawned tasks. State: the document
//! mirror (`documents`), one analysis per document (`jobs`), a bounded result cache, the
//! diagnostics we add per URI, and the RPC sessions the proxy opens — its own goal queries' and
//! the lens oracles' — noted by one [`SessionTracker`] over the proxy's Lean client and kept
//! alive by its `$/lean/rpc/keepAlive` ticker (every 10 s; Lean drops a session after 30 s
//! without one) from the start until the `shutdown` that ends the session
//! ([`Features::on_shutdown`], which also stops the jobs: after `shutdown` Lean takes nothing but
//! `exit`).
//! Framing, ids and forwarding are the router's; metrics and parsing are the engine's.
//!
//! A job per document: on didOpen/didChange the previous job is aborted and a new one spawned;
//! it resolves references, parses, then runs each lens metric (in `spawn_blocking`, under a
//! semaphore, within the configured time limit, cached), storing the analysis after each round
//! and asking the editor to refresh its lenses (`workspace/codeLens/refresh`, when the client
//! advertised `workspace.codeLens.refreshSupport`).

pub mod cache;
pub mod engine;
pub mod integrity;
pub mod jobs;
pub mod lean_lens;
pub mod views;

use crate::config::Config;
use crate::documents::{Document, DocumentMirror, MirrorEvent};
use crate::files::{path_to_uri, uri_to_path};
use crate::lean::goals::{self, KeepAliveTicker, SessionTracker, KEEP_ALIVE_EVERY};
use crate::lean::LeanClient;
use crate::metrics::registry;
use cache::{CancelOnDrop, CancelToken, JobCaches};
use jobs::{DocAnalysis, JobInput, MetricState, ResultCache, SharedCache, TheoremView};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};
use tokio::sync::{mpsc, Semaphore};
use views::Commands;

/// What `serve` hands the features: the config file (`--config`; `LEAN_ASSESS_CONFIG` is read
/// here when absent) and the workspace root the server runs in.
#[derive(Debug, Clone, Default)]
pub struct FeaturesConfig {
    pub config_path: Option<PathBuf>,
    pub workspace_root: Option<PathBuf>,
}

/// Messages the features want delivered to the editor (the router writes them as frames).
#[derive(Debug, Clone, PartialEq)]
pub enum ToEditor {
    /// A notification, e.g. textDocument/publishDiagnostics (merged), window/showMessage.
    Notification { method: String, params: Value },
    /// A server→client request. The router mints an own id and consumes the editor's reply.
    Request { method: String, params: Value },
    /// A server→client request whose answer the features wait for (`window/showMessageRequest`):
    /// the router sends the editor's `result` (`null` on an error or a closed stream) to `reply`.
    Ask {
        method: String,
        params: Value,
        reply: AnswerSlot,
    },
}

/// Where the router delivers the answer to a [`ToEditor::Ask`] (taken once).
#[derive(Clone, Debug)]
pub struct AnswerSlot(Arc<Mutex<Option<tokio::sync::oneshot::Sender<Value>>>>);

impl AnswerSlot {
    pub fn new() -> (AnswerSlot, tokio::sync::oneshot::Receiver<Value>) {
        let (tx, rx) = tokio::sync::oneshot::channel();
        (AnswerSlot(Arc::new(Mutex::new(Some(tx)))), rx)
    }

    /// Deliver the answer (later calls do nothing; a waiter that gave up is not an error).
    pub fn send(&self, answer: Value) {
        if let Some(tx) = lock(&self.0).take() {
            let _ = tx.send(answer);
        }
    }
}

impl PartialEq for AnswerSlot {
    fn eq(&self, other: &AnswerSlot) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A JSON-RPC error the features answer one of their own requests with.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnError {
    pub code: i64,
    pub message: String,
}

/// The future of an own request, run by the router on a spawned task. Its answer is JSON text:
/// the code lens answer is put together from per-theorem texts, never built as a `Value`.
pub type OwnFuture = Pin<Box<dyn Future<Output = Result<JsonText, OwnError>> + Send>>;

/// JSON text this program made: serialized by `serde_json`, or joined from such texts (the
/// code lens answer's items, `views::lenses_with`). Written to the editor as it is, never
/// parsed again (a 1,000-lens answer is 260 KB: `RawValue::from_string` would parse it all).
/// Made only where it is known to be valid; debug builds (the tests) check it.
#[derive(Clone, Debug)]
pub struct JsonText(Arc<String>);

impl JsonText {
    /// `v` as JSON text.
    pub fn of(v: &Value) -> JsonText {
        JsonText(Arc::new(v.to_string()))
    }

    /// `text`, joined from JSON texts by the caller into one JSON value.
    pub(crate) fn joined(text: Arc<String>) -> JsonText {
        debug_assert!(
            serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok(),
            "BUG: joined JSON text is not JSON: {text}"
        );
        JsonText(text)
    }

    pub fn get(&self) -> &str {
        &self.0
    }
}

/// The "allow" answer of the `[llm]` confirmation.
const LLM_ALLOW: &str = "Allow";
/// JSON-RPC InvalidParams.
const INVALID_PARAMS: i64 = -32602;
/// LSP ContentModified: the request was computed for an outdated document version.
const CONTENT_MODIFIED: i64 = -32801;
/// At most this many distinct messages are remembered as already shown.
const TOLD_CAPACITY: usize = 256;

/// What the editor said it supports (from `initialize` params).
#[derive(Debug, Default, Clone)]
struct ClientInfo {
    root: Option<PathBuf>,
    /// `rootUri`/`rootPath` and every `workspaceFolders` entry: where references may be read.
    folders: Vec<PathBuf>,
    lens_refresh: bool,
    show_document: bool,
    apply_edit: bool,
}

/// Lean's diagnostics last published for a URI (accumulated when incremental), kept only to
/// republish them with ours ([`Features::publish`]: a publish replaces the editor's list).
/// Each diagnostic is kept as the JSON text Lean wrote, not parsed (a `Value` costs several
/// times its text), appended in O(its size) — no copy of what is stored already, so `n`
/// incremental publishes cost O(n), not O(n²) (issue 17 §5, §6). Bounded by
/// [`MAX_LEAN_DIAGNOSTIC_BYTES`] per URI; freed when the editor closes the URI.
#[derive(Debug, Default)]
struct LeanDiagnostics {
    /// The raw JSON of `version` (`null` when absent).
    version: String,
    diagnostics: Vec<Box<RawValue>>,
    bytes: usize,
    /// More than the bound was published for this version: nothing kept, and no republish
    /// (it would replace Lean's list in the editor with a part of it).
    overflow: bool,
}

/// Documents larger than this are mirrored (and forwarded) but not judged: the analysis lexes
/// the whole text, at about ten times its size in memory (issue 17 §6: a 50 MB `didOpen` held
/// 490 MiB). Mathlib's largest files are well under 1 MiB.
const MAX_JUDGED_DOCUMENT_BYTES: usize = 8 << 20;

/// Most bytes of Lean diagnostics kept per URI (a real file's list is far smaller; a publish
/// beyond it is forwarded as usual, only not kept).
const MAX_LEAN_DIAGNOSTIC_BYTES: usize = 8 << 20;

/// The parts of Lean's `textDocument/publishDiagnostics` the store needs, borrowed from the
/// message body (shape: `fixtures/lean-protocol/examples/wire.publishDiagnostics-with-code.json`;
/// `isIncremental` is Lean's extension, lean4 `src/Lean/Data/Lsp/Diagnostics.lean`).
#[derive(serde::Deserialize)]
struct PublishBody<'a> {
    #[serde(borrow)]
    params: PublishParams<'a>,
}

#[derive(serde::Deserialize)]
struct PublishParams<'a> {
    #[serde(borrow)]
    uri: std::borrow::Cow<'a, str>,
    #[serde(borrow, default)]
    version: Option<&'a RawValue>,
    #[serde(borrow, default)]
    diagnostics: Vec<&'a RawValue>,
    #[serde(default, rename = "isIncremental")]
    is_incremental: Option<bool>,
}

/// A layered config as last read: each layer's modification time and size, and what they
/// parsed to.
type ConfigEntry = (
    Vec<Option<(SystemTime, u64)>>,
    Result<Arc<Config>, crate::files::FileError>,
);

struct Inner {
    cfg: FeaturesConfig,
    env_config: Option<PathBuf>,
    to_editor: mpsc::Sender<ToEditor>,
    docs: DocumentMirror,
    commands: Commands,
    client: Mutex<ClientInfo>,
    analyses: Mutex<HashMap<String, Arc<DocAnalysis>>>,
    jobs: Mutex<HashMap<String, JobSlot>>,
    /// Jobs that got past their debounce and started running (`jobs_run`).
    jobs_run: std::sync::atomic::AtomicU64,
    /// How long an edited document must be quiet before its job starts ([`JOB_QUIET`]).
    job_quiet: Duration,
    cache: SharedCache,
    /// Reference files, parses and explanations kept across document versions.
    job_caches: Arc<JobCaches>,
    /// "Show differences" diagnostics currently shown, by URI (cleared on edit).
    shown: Mutex<HashMap<String, Vec<Value>>>,
    lean_diags: Mutex<HashMap<String, LeanDiagnostics>>,
    /// (workspace, endpoint) pairs whose `[llm]` confirmation was asked this session.
    llm_asked: Mutex<std::collections::HashSet<(PathBuf, String)>>,
    /// Layered configs read, by their layers' paths (lowest first).
    configs: Mutex<HashMap<Vec<PathBuf>, ConfigEntry>>,
    /// Messages already shown with window/showMessage (each once).
    told: Mutex<std::collections::HashSet<String>>,
    cpu: Arc<Semaphore>,
    /// `lean` noting every RPC session opened through it (goal queries, lens oracles).
    rpc: Arc<lean_lens::Rpc>,
    /// The keep-alive of `rpc`'s sessions; `None` once shut down (or without a runtime).
    keep_alive: Mutex<Option<KeepAliveTicker>>,
    /// Set by `shutdown`: no new jobs.
    shut_down: std::sync::atomic::AtomicBool,
    toolchain: Mutex<Option<String>>,
    /// The Lean-backed lens metrics' oracles and witnesses.
    lean_lens: lean_lens::LeanLens,
    /// Statement integrity against task files (`integrity`).
    integrity: integrity::IntegrityState,
    /// Per document, the lens titles last answered (an unchanged theorem's is reused).
    lens_titles: Mutex<HashMap<String, views::LensTitles>>,
}

/// The keep-alive interval ([`goals::keep_alive_interval`]). A bad value is logged and Lean's
/// rhythm kept: the proxy must come up for the editor whatever its environment.
fn keep_alive_interval() -> Duration {
    goals::keep_alive_interval().unwrap_or_else(|e| {
        tracing::warn!("{e}; keeping {}s", KEEP_ALIVE_EVERY.as_secs());
        KEEP_ALIVE_EVERY
    })
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic in another holder cannot leave these maps half-updated in a way that matters
    // more than losing the features; keep serving.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A document's job: its task, when the wait for a quiet document began, and whether the
/// job got past that wait.
struct JobSlot {
    handle: tokio::task::AbortHandle,
    pending_since: tokio::time::Instant,
    started: Arc<std::sync::atomic::AtomicBool>,
}

/// A document edited while its previous job is still waiting or running starts its next job
/// only once it has been quiet this long (a newer edit restarts the wait): while the editor
/// types faster than the metrics finish, each edit would otherwise abort half-done work and
/// start it anew, taking the cores the forwarding needs. An edit to a quiet document (its last
/// job done) starts at once, so a single edit's lenses come as fast as before.
/// `LEAN_ASSESS_JOB_QUIET_MS` sets it (`0`: every edit starts its job at once, the behaviour
/// before the wait; the load benchmark compares both).
pub const JOB_QUIET: Duration = Duration::from_millis(200);
/// The variable setting [`JOB_QUIET`], in milliseconds.
pub const JOB_QUIET_ENV: &str = "LEAN_ASSESS_JOB_QUIET_MS";
/// The longest a job waits for quiet: during continuous typing the lenses still refresh this
/// often (the job started then still stops at the next edit, as every job does).
pub const JOB_MAX_WAIT: Duration = Duration::from_millis(1500);

/// [`JOB_QUIET`] or its variable; a bad value is logged and the default kept (the proxy must
/// come up whatever its environment).
fn job_quiet() -> Duration {
    let Some(text) = std::env::var_os(JOB_QUIET_ENV) else {
        return JOB_QUIET;
    };
    match text.to_str().and_then(|t| t.trim().parse::<u64>().ok()) {
        Some(ms) => Duration::from_millis(ms),
        None => {
            tracing::warn!(
                "{JOB_QUIET_ENV}={text:?}: expected a number of milliseconds; keeping {} ms",
                JOB_QUIET.as_millis()
            );
            JOB_QUIET
        }
    }
}

/// When the job for an edit at `now` may start, given the document's previous job (aborted by
/// this edit) and the quiet interval: `(pending_since, start_at)`.
fn debounce(
    old: Option<&JobSlot>,
    now: tokio::time::Instant,
    quiet: Duration,
) -> (tokio::time::Instant, tokio::time::Instant) {
    match old {
        Some(o) if !quiet.is_zero() && !o.handle.is_finished() => {
            let since = if o.started.load(std::sync::atomic::Ordering::Acquire) {
                now // it was running: a new wait begins
            } else {
                o.pending_since // still waiting: keep the bound on the whole wait
            };
            (since, (now + quiet).min(since + JOB_MAX_WAIT))
        }
        _ => (now, now),
    }
}

/// The editor features; cheap to share (all state behind one `Arc`).
#[derive(Clone)]
pub struct Features {
    inner: Arc<Inner>,
}

impl Features {
    /// `to_editor`: where `ToEditor` messages go; `lean`: the proxy's own Lean client.
    pub fn new(
        cfg: FeaturesConfig,
        to_editor: mpsc::Sender<ToEditor>,
        lean: Arc<LeanClient>,
    ) -> Features {
        let env_config = std::env::var_os(crate::config::CONFIG_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        let rpc = Arc::new(SessionTracker::new(lean.clone()));
        let inner = Arc::new(Inner {
            cfg,
            env_config,
            to_editor,
            docs: DocumentMirror::new(),
            commands: Commands::new(&format!("lean-assess.{}", std::process::id())),
            client: Mutex::default(),
            analyses: Mutex::default(),
            jobs: Mutex::default(),
            jobs_run: std::sync::atomic::AtomicU64::new(0),
            job_quiet: job_quiet(),
            cache: Arc::new(Mutex::new(ResultCache::default())),
            job_caches: Arc::new(JobCaches::default()),
            shown: Mutex::default(),
            lean_diags: Mutex::default(),
            configs: Mutex::default(),
            llm_asked: Mutex::default(),
            told: Mutex::default(),
            cpu: Arc::new(Semaphore::new(2)),
            rpc: rpc.clone(),
            // Outside a runtime (unit tests of the router's hooks) there is nothing to tick on.
            keep_alive: Mutex::new(
                tokio::runtime::Handle::try_current()
                    .is_ok()
                    .then(|| rpc.keep_alive_every(keep_alive_interval())),
            ),
            shut_down: std::sync::atomic::AtomicBool::new(false),
            toolchain: Mutex::new(None),
            lean_lens: lean_lens::LeanLens::new(lean.clone(), rpc),
            integrity: integrity::IntegrityState::default(),
            lens_titles: Mutex::new(HashMap::new()),
        });
        Features { inner }
    }

    /// The editor (or the router, for an editor that left) is about to send `shutdown`: stop
    /// the keep-alive and the jobs, since Lean's watchdog takes nothing but `exit` after it
    /// (lean4 `src/Lean/Server/Watchdog.lean`, `initAndRunWatchdogAux`: any other message is
    /// "Got `shutdown` request, expected an `exit` notification", a failed exit). A tick
    /// already being written on another worker thread may still land next to `shutdown`; the
    /// window is that one write.
    pub fn on_shutdown(&self) {
        self.inner
            .shut_down
            .store(true, std::sync::atomic::Ordering::Release);
        if let Some(ticker) = lock(&self.inner.keep_alive).take() {
            ticker.stop();
        }
        for (_, job) in lock(&self.inner.jobs).drain() {
            job.handle.abort();
        }
    }

    /// How many document jobs have started running (past their debounce) since the start: a
    /// burst of edits counts once.
    pub fn jobs_run(&self) -> u64 {
        self.inner
            .jobs_run
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether `uri`'s job is still waiting or running: an edit now would wait for quiet
    /// ([`JOB_QUIET`]) before its job starts. Benchmarks of a single edit wait for this first.
    pub fn job_busy(&self, uri: &str) -> bool {
        lock(&self.inner.jobs)
            .get(uri)
            .is_some_and(|j| !j.handle.is_finished())
    }

    /// Our command names (unique per process).
    pub fn command_names(&self) -> Vec<String> {
        self.inner
            .commands
            .all()
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    /// The document mirror (read-only use by tests and benches).
    pub fn documents(&self) -> &DocumentMirror {
        &self.inner.docs
    }

    /// What the jobs keep across versions (read and hit counters for tests and benches).
    pub fn job_caches(&self) -> &JobCaches {
        &self.inner.job_caches
    }

    /// The current analysis of a document, if any.
    pub fn analysis(&self, uri: &str) -> Option<Arc<DocAnalysis>> {
        lock(&self.inner.analyses).get(uri).cloned()
    }

    /// The editor's `initialize` params: workspace root and client capabilities.
    pub fn on_initialize_request(&self, params: &Value) {
        let caps = &params["capabilities"];
        let root = params
            .get("rootUri")
            .and_then(Value::as_str)
            .or_else(|| params["workspaceFolders"][0]["uri"].as_str())
            .and_then(uri_to_path)
            .or_else(|| {
                params
                    .get("rootPath")
                    .and_then(Value::as_str)
                    .map(PathBuf::from)
            });
        let mut folders: Vec<PathBuf> = params["workspaceFolders"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f["uri"].as_str().and_then(uri_to_path))
            .collect();
        folders.extend(root.clone());
        let mut c = lock(&self.inner.client);
        c.root = root;
        c.folders = folders;
        c.lens_refresh = caps["workspace"]["codeLens"]["refreshSupport"].as_bool() == Some(true);
        c.show_document = caps["window"]["showDocument"]["support"].as_bool() == Some(true);
        c.apply_edit = caps["workspace"]["applyEdit"].as_bool() == Some(true);
    }

    /// Lean's `initialize` result with `codeLensProvider` and `executeCommandProvider` added.
    pub fn augment_initialize_result(&self, mut result: Value) -> Value {
        if !result.is_object() {
            return result;
        }
        if !result["capabilities"].is_object() {
            result["capabilities"] = json!({});
        }
        let caps = &mut result["capabilities"];
        caps["codeLensProvider"] = json!({"resolveProvider": false});
        let mut commands: Vec<Value> = caps["executeCommandProvider"]["commands"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        commands.extend(self.command_names().into_iter().map(Value::String));
        caps["executeCommandProvider"] = json!({"commands": commands});
        result
    }

    /// The client→server notifications [`Features::observe_client_notification`] acts on; the
    /// router parses no others.
    pub const OBSERVED_NOTIFICATIONS: &'static [&'static str] = &[
        "textDocument/didOpen",
        "textDocument/didChange",
        "textDocument/didClose",
        "textDocument/didSave",
        "workspace/didChangeWatchedFiles",
        "exit",
    ];

    /// Client→server notifications, before forwarding: mirror update, cancel and spawn jobs.
    pub fn observe_client_notification(&self, method: &str, params: &Value) {
        self.on_mirror_event(method, self.inner.docs.observe(method, params));
    }

    /// As [`Features::observe_client_notification`], the params by value (the router's way: a
    /// `didOpen`'s text moves into the mirror, not copied).
    pub fn observe_client_notification_owned(&self, method: &str, params: Value) {
        self.on_mirror_event(method, self.inner.docs.observe_owned(method, params));
    }

    fn on_mirror_event(
        &self,
        method: &str,
        event: Result<MirrorEvent, crate::documents::DocumentError>,
    ) {
        match event {
            Ok(MirrorEvent::Opened { uri }) => self.restart_job(&uri),
            Ok(MirrorEvent::Changed { uri }) => {
                let had = lock(&self.inner.shown).remove(&uri).is_some();
                if had {
                    self.publish(&uri);
                }
                self.restart_job(&uri);
            }
            Ok(MirrorEvent::Closed { uri }) => {
                if let Some(h) = lock(&self.inner.jobs).remove(&uri) {
                    h.handle.abort();
                }
                lock(&self.inner.analyses).remove(&uri);
                lock(&self.inner.shown).remove(&uri);
                lock(&self.inner.lean_diags).remove(&uri);
                self.inner.job_caches.forget(&uri);
                lock(&self.inner.lens_titles).remove(&uri);
                self.inner.rpc.sessions().forget(&uri);
            }
            Ok(MirrorEvent::Unrelated) => {
                if method == "exit" {
                    // Without a `shutdown` first (a client that skips it): stop all the same.
                    self.on_shutdown();
                } else if method == "textDocument/didSave"
                    || method == "workspace/didChangeWatchedFiles"
                {
                    // A reference file or config may have changed on disk: re-judge open docs.
                    for uri in self.inner.docs.uris() {
                        self.restart_job(&uri);
                    }
                }
            }
            Err(e) => tracing::warn!(%e, "document mirror"),
        }
    }

    /// The request methods [`Features::own_request`] may claim: the router parses the params of
    /// these (and of augmented replies) only, every other request costs a peek.
    pub const OWN_METHODS: [&'static str; 4] = [
        "textDocument/codeLens",
        "codeLens/resolve",
        "codeAction/resolve",
        "workspace/executeCommand",
    ];

    /// Requests the proxy answers itself; `None` = not ours. Called for every editor request on
    /// the forwarding path, so nothing is cloned until a request is known to be ours.
    pub fn own_request(&self, method: &str, params: &Value) -> Option<OwnFuture> {
        let is_ours =
            |cmd: Option<&str>| cmd.is_some_and(|c| self.inner.commands.all().contains(&c));
        match method {
            "textDocument/codeLens" => {
                let (this, params) = (self.clone(), params.clone());
                Some(Box::pin(async move {
                    let doc = this
                        .inner
                        .docs
                        .get(params["textDocument"]["uri"].as_str().unwrap_or(""));
                    Ok(this
                        .inner
                        .integrity
                        .with_lenses(&params, doc, this.code_lenses(&params)))
                }))
            }
            "codeLens/resolve" => {
                let params = JsonText::of(params);
                Some(Box::pin(async move { Ok(params) }))
            }
            // Lean advertises `codeAction.resolveProvider`, so clients (Neovim 0.11's
            // `vim.lsp.buf.code_action`) resolve edit-less actions before running them. Ours are
            // complete already: answer with the action itself instead of forwarding it to Lean,
            // which does not know it.
            "codeAction/resolve" if is_ours(params["command"]["command"].as_str()) => {
                let params = JsonText::of(params);
                Some(Box::pin(async move { Ok(params) }))
            }
            "workspace/executeCommand" if is_ours(params["command"].as_str()) => {
                let (this, params) = (self.clone(), params.clone());
                Some(Box::pin(async move {
                    this.execute(&params).await.map(|v| JsonText::of(&v))
                }))
            }
            _ => None,
        }
    }

    /// Whether the reply to a forwarded request of this method goes through `augment_response`.
    pub fn wants_response(&self, method: &str) -> bool {
        matches!(method, "textDocument/hover" | "textDocument/codeAction")
    }

    /// Lean's reply to a forwarded hover / codeAction with our part added. Cheap: reads the
    /// stored analysis only.
    pub fn augment_response(&self, method: &str, request_params: &Value, result: Value) -> Value {
        let Some(uri) = request_params["textDocument"]["uri"].as_str() else {
            return result;
        };
        let (Some(doc), Some(a)) = (self.inner.docs.get(uri), self.analysis(uri)) else {
            return result;
        };
        if a.version != doc.version {
            return result; // stale: the lens says pending; don't show old numbers here
        }
        match method {
            "textDocument/hover" => {
                let Ok(pos) = serde_json::from_value(request_params["position"].clone()) else {
                    return result;
                };
                let off = doc.offset_of(pos);
                let Some(t) = a
                    .theorems
                    .iter()
                    .find(|t| t.decl.name_range.is_some_and(|(s, e)| s <= off && off <= e))
                else {
                    return result;
                };
                let (s, e) = t.decl.name_range.unwrap_or((off, off));
                let ours = views::hover_section(t, &a.candidate_header);
                views::augment_hover(result, &ours, json!(doc.range_of(s, e)))
            }
            "textDocument/codeAction" => {
                if !views::kind_wanted(request_params) {
                    return result;
                }
                let Ok(range) =
                    serde_json::from_value::<lsp_types::Range>(request_params["range"].clone())
                else {
                    return result;
                };
                let (s, e) = (doc.offset_of(range.start), doc.offset_of(range.end));
                let mut ours = Vec::new();
                for t in &a.theorems {
                    if t.reference.is_some() && t.decl.start <= e && s <= t.decl.end {
                        ours.extend(views::actions(&a, t, &self.inner.commands));
                    }
                }
                if ours.is_empty() {
                    return result;
                }
                match result {
                    Value::Array(mut v) => {
                        v.extend(ours);
                        Value::Array(v)
                    }
                    Value::Null => Value::Array(ours),
                    other => other,
                }
            }
            _ => result,
        }
    }

    /// Lean's publishDiagnostics params with ours (differences shown, reference problems) added.
    /// (The router calls [`Features::lean_diagnostics`] on the message body instead.)
    pub fn merge_diagnostics(&self, mut params: Value) -> Value {
        let body = serde_json::to_vec(&json!({ "params": &params }))
            .expect("BUG: a JSON value always serializes");
        let ours = self.lean_diagnostics(&body);
        if let Some(list) = params["diagnostics"].as_array_mut() {
            list.extend(ours);
        }
        params
    }

    /// Note Lean's `publishDiagnostics` (the whole message body, read without building a
    /// `Value` of it) and return our diagnostics to add to it: empty when there are none, or
    /// when it is an incremental message of a version whose first message had ours already
    /// (incremental messages append to what the editor holds).
    pub fn lean_diagnostics(&self, body: &[u8]) -> Vec<Value> {
        let Ok(PublishBody { params: p }) = serde_json::from_slice::<PublishBody<'_>>(body) else {
            return Vec::new();
        };
        let uri = p.uri.into_owned();
        let version = p.version.map_or("null", RawValue::get);
        let incremental = p.is_incremental == Some(true);
        let appended = {
            let mut ld = lock(&self.inner.lean_diags);
            let same_version = ld.get(&uri).is_some_and(|d| d.version == version);
            let appended = incremental && same_version;
            if !appended {
                ld.insert(
                    uri.clone(),
                    LeanDiagnostics {
                        version: version.to_string(),
                        ..LeanDiagnostics::default()
                    },
                );
            }
            let stored = ld
                .get_mut(&uri)
                .expect("BUG: the entry was just found or inserted");
            let added: usize = p.diagnostics.iter().map(|d| d.get().len()).sum();
            if !stored.overflow {
                if stored.bytes + added > MAX_LEAN_DIAGNOSTIC_BYTES {
                    tracing::warn!(%uri, bytes = stored.bytes + added, "Lean's diagnostics for this file exceed what lean-assess keeps; ours will not be republished with them");
                    *stored = LeanDiagnostics {
                        version: version.to_string(),
                        overflow: true,
                        ..LeanDiagnostics::default()
                    };
                } else {
                    stored
                        .diagnostics
                        .extend(p.diagnostics.iter().map(|d| (*d).to_owned()));
                    stored.bytes += added;
                }
            }
            appended
        };
        if appended {
            return Vec::new();
        }
        self.our_diagnostics(&uri)
    }

    fn our_diagnostics(&self, uri: &str) -> Vec<Value> {
        let mut out = lock(&self.inner.shown)
            .get(uri)
            .cloned()
            .unwrap_or_default();
        out.extend(
            self.inner
                .integrity
                .diagnostics(uri, self.inner.docs.get(uri)),
        );
        if let (Some(a), Some(doc)) = (self.analysis(uri), self.inner.docs.get(uri)) {
            for p in &a.problems {
                let pos = lsp_types::Position {
                    line: p.line as u32,
                    character: 0,
                };
                let end = doc.offset_of(lsp_types::Position {
                    line: p.line as u32,
                    character: u32::MAX,
                });
                let r = json!({"start": pos, "end": doc.position_of(end)});
                out.push(views::diagnostic(r, &p.message, 2));
            }
        }
        out
    }

    /// Send a full publishDiagnostics for `uri`: Lean's last list plus ours.
    fn publish(&self, uri: &str) {
        // Parsed here, on a user's command, not on the forwarding path.
        let base = lock(&self.inner.lean_diags).get(uri).map(|d| {
            let version: Value = serde_json::from_str(&d.version).unwrap_or(Value::Null);
            let list: Vec<Value> = d
                .diagnostics
                .iter()
                .filter_map(|r| serde_json::from_str(r.get()).ok())
                .collect();
            (version, list, d.overflow)
        });
        if let Some((_, _, true)) = base {
            self.show_message(
                2,
                "lean-assess: Lean's diagnostics for this file are too many to republish with ours; ours are not shown".into(),
            );
            return;
        }
        let (version, list) = match base {
            Some((version, list, _)) => (version, list),
            None => (
                self.inner
                    .docs
                    .get(uri)
                    .map_or(Value::Null, |d| json!(d.version)),
                Vec::new(),
            ),
        };
        let mut params = json!({"uri": uri, "version": version, "diagnostics": list});
        if let Some(o) = params.as_object_mut() {
            o.insert("isIncremental".into(), json!(false));
            if o.get("version") == Some(&Value::Null) {
                o.remove("version");
            }
        }
        let ours = self.our_diagnostics(uri);
        if let Some(list) = params["diagnostics"].as_array_mut() {
            list.extend(ours);
        }
        self.send(ToEditor::Notification {
            method: "textDocument/publishDiagnostics".into(),
            params,
        });
    }

    fn send(&self, m: ToEditor) {
        // Never block the caller: a full queue drops the message (the editor will ask again).
        if let Err(e) = self.inner.to_editor.try_send(m) {
            tracing::warn!(%e, "to-editor queue full or closed; dropped a features message");
        }
    }

    fn show_message(&self, kind: u8, message: String) {
        let fresh = {
            let mut told = lock(&self.inner.told);
            if told.len() >= TOLD_CAPACITY {
                told.clear();
            }
            told.insert(message.clone())
        };
        if fresh {
            self.send(ToEditor::Notification {
                method: "window/showMessage".into(),
                params: json!({"type": kind, "message": message}),
            });
        }
    }

    fn refresh_lenses(&self) {
        if lock(&self.inner.client).lens_refresh {
            self.send(ToEditor::Request {
                method: "workspace/codeLens/refresh".into(),
                params: Value::Null,
            });
        }
    }

    fn workspace_root(&self) -> Option<PathBuf> {
        self.inner
            .cfg
            .workspace_root
            .clone()
            .or_else(|| lock(&self.inner.client).root.clone())
    }

    fn toolchain(&self) -> String {
        let mut t = lock(&self.inner.toolchain);
        if let Some(t) = &*t {
            return t.clone();
        }
        let v = self
            .workspace_root()
            .and_then(|r| std::fs::read_to_string(r.join("lean-toolchain")).ok())
            .map(|s| s.trim().to_string())
            .unwrap_or_default();
        *t = Some(v.clone());
        v
    }

    /// The config for a document (explicit, env, or found by walking up), re-read when changed.
    fn config_for(
        &self,
        doc_path: Option<&Path>,
    ) -> Option<Result<Arc<Config>, crate::files::FileError>> {
        let root = self.workspace_root();
        let user_file = crate::config::user_config_file();
        let layers = crate::config::config_layers(
            self.inner.cfg.config_path.as_deref(),
            self.inner.env_config.as_deref(),
            user_file.as_deref(),
            doc_path.unwrap_or(Path::new("/")),
            root.as_deref(),
        );
        if layers.is_empty() {
            return None;
        }
        // Modification time and size of every layer: coarse-mtime filesystems still see most
        // rewrites.
        let stamp: Vec<_> = layers
            .iter()
            .map(|l| {
                std::fs::metadata(&l.path)
                    .and_then(|m| Ok((m.modified()?, m.len())))
                    .ok()
            })
            .collect();
        let key: Vec<PathBuf> = layers.iter().map(|l| l.path.clone()).collect();
        let mut cache = lock(&self.inner.configs);
        if let Some((t, c)) = cache.get(&key) {
            if *t == stamp && stamp.iter().all(Option::is_some) {
                return Some(c.clone());
            }
        }
        let c = Config::load_layers(&layers).map(Arc::new);
        match &c {
            Ok(cfg) => tracing::info!(
                layers = ?key,
                "config for {}: {}",
                doc_path.map_or(String::new(), |p| p.display().to_string()),
                cfg.describe().join("; ")
            ),
            Err(e) => tracing::warn!(%e, "config"),
        }
        cache.insert(key, (stamp, c.clone()));
        Some(c)
    }

    /// A project file asks for an LLM the user has not allowed for this workspace: ask once per
    /// session (`window/showMessageRequest`); "Allow" is remembered in the user's state
    /// ([`crate::llm::TrustStore`]) and every open document is judged again. Until then BEq
    /// runs without the LLM and nothing is sent (issue 17.1).
    fn ask_llm_consent(&self, config: &Config) {
        let root = self.workspace_root();
        let crate::llm::LlmPermission::NeedsConfirmation {
            project_file,
            base_url,
            model,
        } = lean_lens::llm_permission(config, root.as_deref())
        else {
            return;
        };
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let ws = root.unwrap_or_else(|| PathBuf::from("/"));
        if !lock(&self.inner.llm_asked).insert((ws.clone(), base_url.clone())) {
            return;
        }
        let (reply, answer) = AnswerSlot::new();
        let message = format!(
            "lean-assess: {} asks to send this workspace's theorems to the LLM endpoint {base_url} \
             (model {model}) for BEq. No API key is sent unless your own settings name one \
             (leanAssess.llm.apiKeyEnv). Allow for {}?",
            project_file.display(),
            ws.display()
        );
        tracing::info!(%base_url, workspace = %ws.display(), "asking the user to allow the project's [llm]");
        self.send(ToEditor::Ask {
            method: "window/showMessageRequest".into(),
            params: json!({"type": 2, "message": message,
                           "actions": [{"title": LLM_ALLOW}, {"title": "Not now"}]}),
            reply,
        });
        let this = self.clone();
        rt.spawn(async move {
            let Ok(answer) = answer.await else { return };
            if answer.get("title").and_then(Value::as_str) != Some(LLM_ALLOW) {
                tracing::info!(%base_url, "the user did not allow the project's [llm] (asked again next session)");
                return;
            }
            match crate::llm::TrustStore::user().remember(&ws, &base_url) {
                Ok(()) => {
                    tracing::info!(%base_url, workspace = %ws.display(), "the user allowed the project's [llm]");
                    for uri in this.inner.docs.uris() {
                        this.restart_job(&uri);
                    }
                }
                Err(e) => this.show_message(
                    1,
                    format!("lean-assess: cannot remember the LLM permission: {e}"),
                ),
            }
        });
    }

    fn restart_job(&self, uri: &str) {
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return; // no runtime (plain unit tests): nothing to spawn on
        };
        if self
            .inner
            .shut_down
            .load(std::sync::atomic::Ordering::Acquire)
        {
            return;
        }
        let size = self.inner.docs.get(uri).map_or(0, |d| d.text().len());
        if size > MAX_JUDGED_DOCUMENT_BYTES {
            // Lexing the whole file costs ~10× its size; no real Lean file comes near this.
            if let Some(old) = lock(&self.inner.jobs).remove(uri) {
                old.handle.abort();
            }
            lock(&self.inner.analyses).remove(uri);
            tracing::warn!(%uri, size, "document too large to judge");
            self.show_message(
                2,
                format!(
                    "lean-assess: documents over {} MiB are not judged ({uri} is {:.1} MiB)",
                    MAX_JUDGED_DOCUMENT_BYTES >> 20,
                    size as f64 / (1 << 20) as f64
                ),
            );
            return;
        }
        let mut jobs = lock(&self.inner.jobs);
        let now = tokio::time::Instant::now();
        let old = jobs.remove(uri);
        if let Some(o) = &old {
            o.handle.abort();
        }
        let (pending_since, start_at) = debounce(old.as_ref(), now, self.inner.job_quiet);
        let started = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let this = self.clone();
        let u = uri.to_string();
        let flag = started.clone();
        let task = rt.spawn(async move {
            // Not through the timer when there is nothing to wait for: its wheel ticks by the
            // millisecond, which a single edit's job would wait for (1.1 ms measured).
            if start_at > tokio::time::Instant::now() {
                tokio::time::sleep_until(start_at).await;
            }
            flag.store(true, std::sync::atomic::Ordering::Release);
            this.inner
                .jobs_run
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            this.run_job(&u).await
        });
        jobs.insert(
            uri.to_string(),
            JobSlot {
                handle: task.abort_handle(),
                pending_since,
                started,
            },
        );
    }

    fn job_input(&self, doc: Arc<Document>) -> JobInput {
        let uri = doc.uri.clone();
        let path = uri_to_path(&doc.uri);
        let config = self.config_for(path.as_deref());
        let result_names = {
            let default;
            let cfg = match &config {
                Some(Ok(c)) => c.as_ref(),
                _ => {
                    default = Config::default();
                    &default
                }
            };
            let root = self.workspace_root();
            cfg.lens
                .iter()
                .map(|m| lean_lens::cache_name(m, cfg, root.as_deref()))
                .collect()
        };
        let mut open_texts = HashMap::new();
        for u in self.inner.docs.uris() {
            if let (Some(p), Some(d)) = (uri_to_path(&u), self.inner.docs.get(&u)) {
                open_texts.insert(p, d);
            }
        }
        JobInput {
            doc,
            path,
            config,
            open_texts,
            toolchain: self.toolchain(),
            extra_roots: self
                .inner
                .cfg
                .workspace_root
                .iter()
                .cloned()
                .chain(lock(&self.inner.client).folders.iter().cloned())
                .collect(),
            previous: self.analysis(&uri),
            result_names,
        }
    }

    fn store(&self, a: &DocAnalysis) {
        lock(&self.inner.analyses).insert(a.uri.clone(), Arc::new(a.clone()));
    }

    /// One document version: prepare, then each metric round, storing and refreshing after each.
    async fn run_job(&self, uri: &str) {
        let Some(doc) = self.inner.docs.get(uri) else {
            return;
        };
        let input = Arc::new(self.job_input(doc));
        let config: Arc<Config> = match &input.config {
            Some(Ok(c)) => c.clone(),
            _ => Arc::new(Config::default()),
        };
        // Integrity reads and checks whole files: on the blocking pool under a CPU permit and
        // the offline time limit, never on the runtime's threads that forward and answer the
        // editor's other requests.
        let integrity_permit = self.inner.cpu.clone().acquire_owned().await;
        let (features, integrity_input) = (self.clone(), input.clone());
        let limit = config.offline_timeout;
        let integrity_changed = tokio::task::spawn_blocking(move || {
            let changed = features.inner.integrity.update(&integrity_input, limit);
            drop(integrity_permit);
            changed
        })
        .await
        .unwrap_or(false);
        if integrity_changed {
            self.publish(uri);
            self.refresh_lenses();
        }
        if let Some(Err(e)) = &input.config {
            self.show_message(2, format!("lean-assess: {e}"));
        }
        let toolchain = input.toolchain.clone();
        // Dropped with this future: an edit that aborts the job stops its blocking work too.
        let cancel_on_drop = CancelOnDrop::default();
        let cancel = cancel_on_drop.token();
        let permit = self.inner.cpu.clone().acquire_owned().await;
        let caches = self.inner.job_caches.clone();
        let prepare_cancel = cancel.clone();
        let prepared = tokio::task::spawn_blocking(move || {
            let a = jobs::prepare(&input, &caches, &prepare_cancel);
            drop(permit);
            a
        })
        .await;
        let Ok(Some(jobs::Prepared {
            analysis: mut a,
            work,
        })) = prepared
        else {
            return;
        };
        let old = self.analysis(uri);
        let had_problems = old.as_ref().is_some_and(|o| !o.problems.is_empty());
        let had_lenses = old.as_ref().is_some_and(|o| !o.theorems.is_empty());
        let metric_names: Vec<String> = a
            .theorems
            .first()
            .map(|t| t.metrics.iter().map(|(m, _)| m.clone()).collect())
            .unwrap_or_default();
        // Results known for the same texts are filled in before anything is shown: only the
        // theorems an edit touched are left running (the views are not shared yet: no copies).
        let root = self.workspace_root();
        let cache_names: Vec<String> = metric_names
            .iter()
            .map(|m| lean_lens::cache_name(m, &config, root.as_deref()))
            .collect();
        // The theorems this job may still change (`prepare`'s work list): a metric to run or an
        // explanation missing. The rounds below visit these only (in a large document, touching
        // every theorem's state is what an edit costs beyond the edited theorem).
        {
            let cache = lock(&self.inner.cache);
            for &ti in &work {
                let t = &mut a.theorems[ti];
                // A core reused from the last version has nothing pending: left shared.
                if !t.metrics.iter().any(|(_, s)| *s == MetricState::Pending) {
                    continue;
                }
                let t = Arc::make_mut(Arc::make_mut(t).core_mut());
                let cand_text = t.candidate.as_ref().map(|c| c.source.as_str());
                for (mi, (_, s)) in t.metrics.iter_mut().enumerate() {
                    if *s != MetricState::Pending {
                        continue;
                    }
                    let hit = match (t.reference.as_ref(), cand_text) {
                        (Some(rv), Some(ct)) if rv.statement.is_some() => {
                            cache.get(ResultCache::key(
                                &cache_names[mi],
                                rv,
                                ct,
                                &a.candidate_header,
                                &toolchain,
                            ))
                        }
                        _ => None,
                    };
                    *s = match hit {
                        Some(Ok(rep)) => MetricState::Done(rep),
                        Some(Err(e)) => MetricState::Failed(e),
                        None => MetricState::Running,
                    };
                }
            }
        }
        self.store(&a);
        if had_problems || !a.problems.is_empty() {
            self.publish(uri);
        }
        for (mi, metric) in metric_names.iter().enumerate() {
            // Only these can be running: the others had nothing pending.
            for &ti in &work {
                if a.theorems[ti].metrics.get(mi).map(|(_, s)| s) != Some(&MetricState::Running) {
                    continue;
                }
                let state = self
                    .judge_one(&a, ti, metric, &config, &toolchain, &cancel)
                    .await;
                // Copies this one theorem (the stored analysis shares it), not the document.
                Arc::make_mut(&mut a.theorems[ti]).metrics[mi].1 = state;
            }
            if mi == 0 && !self.explain_missing(&mut a, &work, &cancel).await {
                return;
            }
            self.store(&a);
            self.refresh_lenses();
        }
        if metric_names.is_empty() {
            // Nothing to judge here: refresh only to remove lenses the editor still shows.
            if had_lenses {
                self.refresh_lenses();
            }
            return;
        }
        if self.elaborate(&mut a).await {
            for (mi, metric) in metric_names.iter().enumerate() {
                for ti in 0..a.theorems.len() {
                    let t = &a.theorems[ti];
                    // Lean-backed metrics read the statements' text, not their trees: the
                    // elaborated trees change nothing for them.
                    if !t.elaborated
                        || matches!(t.metrics[mi].1, MetricState::Unavailable(_))
                        || registry::needs_lean(metric)
                    {
                        continue;
                    }
                    let state = self
                        .judge_one(&a, ti, metric, &config, &toolchain, &cancel)
                        .await;
                    Arc::make_mut(&mut a.theorems[ti]).metrics[mi].1 = state;
                }
            }
            for t in a.theorems.iter_mut().filter(|t| t.elaborated) {
                jobs::explain(Arc::make_mut(t));
            }
            self.store(&a);
            self.refresh_lenses();
        }
    }

    /// The TED explanations not found in the cache (theorems whose texts changed), computed off
    /// the async workers (APTED is cubic in the worst case) under a CPU permit, stopping at an
    /// edit. `false` when the job is to end (cancelled, or the blocking task failed).
    /// `among`: the indices of the theorems that may lack one (every other is explained).
    async fn explain_missing(
        &self,
        a: &mut DocAnalysis,
        among: &[usize],
        cancel: &CancelToken,
    ) -> bool {
        let todo: Vec<(usize, Arc<TheoremView>)> = among
            .iter()
            .map(|&i| (i, &a.theorems[i]))
            .filter(|(_, t)| jobs::explainable(t))
            .map(|(i, t)| (i, t.clone()))
            .collect();
        if todo.is_empty() {
            return true;
        }
        let permit = self.inner.cpu.clone().acquire_owned().await;
        let caches = self.inner.job_caches.clone();
        let header = a.candidate_header.clone();
        let cancel = cancel.clone();
        let explained = tokio::task::spawn_blocking(move || {
            let mut out = Vec::new();
            for (i, t) in todo {
                if cancel.is_cancelled() {
                    return None;
                }
                if let Some(e) = jobs::explanation_cached(&t, &header, &caches) {
                    out.push((i, e));
                }
            }
            drop(permit);
            Some(out)
        })
        .await;
        let Ok(Some(explained)) = explained else {
            return false;
        };
        for (i, (distance, differences)) in explained {
            let view = Arc::make_mut(&mut a.theorems[i]);
            view.distance = Some(distance);
            view.differences = differences;
        }
        true
    }

    /// The elaborated statement tree at `pos`, asked on a task of its own: when an edit aborts
    /// the job, the request still ends by Lean's reply (`-32801` on a changed file) or by the
    /// client's timeout, which sends `$/cancelRequest` — never left pending.
    async fn goal_tree(
        &self,
        uri: &str,
        pos: lsp_types::Position,
    ) -> Result<crate::trees::Tree, crate::lean::goals::GoalsError> {
        const ELABORATION_WAIT: Duration = Duration::from_secs(3);
        let inner = self.inner.clone();
        let u = uri.to_string();
        let task = tokio::spawn(async move {
            inner
                .rpc
                .sessions()
                .statement_tree(&*inner.rpc, &u, json!(pos), ELABORATION_WAIT)
                .await
        });
        task.await.unwrap_or_else(|_| {
            Err(crate::lean::goals::GoalsError::Lean {
                uri: uri.to_string(),
                source: crate::lean::LeanError::Closed,
            })
        })
    }

    /// Replace both trees of each theorem by Lean's elaborated ones where Lean can give both:
    /// the candidate, and the reference when it is a theorem of a document open in the editor
    /// (a reference elsewhere would need a hidden document and a full import; not done). Lean
    /// busy (timeout) or absent: the source-text trees stay. Returns whether any changed.
    async fn elaborate(&self, a: &mut DocAnalysis) -> bool {
        let Some(doc) = self.inner.docs.get(&a.uri) else {
            return false;
        };
        if doc.version != a.version {
            return false;
        }
        // No reference file open: nothing to elaborate, and no theorem is looked at.
        if !a
            .reference_files
            .iter()
            .any(|p| self.inner.docs.get(&path_to_uri(p)).is_some())
        {
            return false;
        }
        let mut changed = false;
        let mut ref_decls_by_uri: HashMap<String, Vec<engine::Decl>> = HashMap::new();
        let mut ref_docs: HashMap<PathBuf, (String, Option<Arc<Document>>)> = HashMap::new();
        // The reference file of the last theorem, when it is not open in the editor.
        let mut last_closed: Option<PathBuf> = None;
        for t in a.theorems.iter_mut() {
            let (Some(cand), Some(r)) = (t.candidate.clone(), t.reference.as_ref()) else {
                continue;
            };
            let (Some(ref_stmt), Some(ref_file)) = (r.statement.as_ref(), r.file.as_ref()) else {
                continue;
            };
            // Once per reference file and job: most theorems share one, and most references
            // are not open (nothing is copied for those). The last file asked first: theorems
            // of one file mostly follow each other.
            if last_closed.as_deref() == Some(ref_file.as_path()) {
                continue;
            }
            if !ref_docs.contains_key(ref_file) {
                let u = path_to_uri(ref_file);
                let d = self.inner.docs.get(&u);
                ref_docs.insert(ref_file.clone(), (u, d));
            }
            let Some((ref_uri, Some(ref_doc))) = ref_docs.get(ref_file).cloned() else {
                last_closed = Some(ref_file.clone());
                continue;
            };
            let ref_stmt = ref_stmt.clone();
            // Once per reference document and job, not once per theorem.
            let ref_decls = ref_decls_by_uri
                .entry(ref_uri.clone())
                .or_insert_with(|| engine::declarations(ref_doc.text()));
            let Some(ref_decl) = ref_decls
                .iter()
                .find(|d| d.name.as_deref() == r.name.as_deref())
            else {
                continue;
            };
            let (Some(cp), Some(rp)) = (
                proof_position(&doc, t.decl.statement_end),
                proof_position(&ref_doc, ref_decl.statement_end),
            ) else {
                continue;
            };
            let c_tree = match self.goal_tree(&a.uri, cp).await {
                Ok(tree) => tree,
                Err(e) => {
                    tracing::debug!(%e, "no elaborated candidate tree; source text it is");
                    if matches!(
                        e,
                        crate::lean::goals::GoalsError::Lean {
                            source: crate::lean::LeanError::Closed,
                            ..
                        }
                    ) {
                        return changed; // no Lean at all: stop asking
                    }
                    continue;
                }
            };
            let r_tree = match self.goal_tree(&ref_uri, rp).await {
                Ok(tree) => tree,
                Err(e) => {
                    tracing::debug!(%e, "no elaborated reference tree; source text it is");
                    continue;
                }
            };
            let t = Arc::make_mut(t);
            t.candidate = Some(Arc::new(crate::trees::Statement {
                tree: c_tree,
                ..(*cand).clone()
            }));
            if let Some(r) = t.reference.as_mut() {
                r.statement = Some(Arc::new(crate::trees::Statement {
                    tree: r_tree,
                    ..(*ref_stmt).clone()
                }));
                // Elaborated results are cached apart from the source-text ones.
                r.header.push_str("\n-- lean-assess: elaborated");
            }
            t.elaborated = true;
            changed = true;
        }
        changed
    }

    async fn judge_one(
        &self,
        a: &DocAnalysis,
        ti: usize,
        metric: &str,
        config: &Config,
        toolchain: &str,
        cancel: &CancelToken,
    ) -> MetricState {
        let timeout = config.offline_timeout;
        let Some((r, c, r_header, _)) = jobs::statements(a, ti) else {
            return MetricState::Failed("no parsed pair".into());
        };
        let t = &a.theorems[ti];
        let Some(rv) = t.reference.as_ref() else {
            return MetricState::Failed("no reference".into());
        };
        let cand_text = c.source.clone();
        let cand_header = a.candidate_header.clone();
        let key = ResultCache::key(
            &lean_lens::cache_name(metric, config, self.workspace_root().as_deref()),
            rv,
            &cand_text,
            &cand_header,
            toolchain,
        );
        if let Some(hit) = lock(&self.inner.cache).get(key) {
            return match hit {
                Ok(rep) => MetricState::Done(rep),
                Err(e) => MetricState::Failed(e),
            };
        }
        if metric == "beq" {
            self.ask_llm_consent(config);
        }
        if registry::needs_lean(metric) {
            let pair = crate::metrics::Pair {
                reference: &r,
                candidate: &c,
                reference_header: &r_header,
                candidate_header: &cand_header,
            };
            let root = self.workspace_root();
            let outcome = self
                .inner
                .lean_lens
                .judge(metric, &pair, config, root.as_deref(), key)
                .await;
            return match outcome {
                lean_lens::LensOutcome::Done(rep) => {
                    lock(&self.inner.cache).put(key, Ok(rep.clone()));
                    MetricState::Done(rep)
                }
                // Lean errors are not cached: the server may be back (or less busy) next time.
                lean_lens::LensOutcome::Failed(e) => MetricState::Failed(e),
                lean_lens::LensOutcome::TimedOut(d) => MetricState::TimedOut(d),
            };
        }
        let permit = self.inner.cpu.clone().acquire_owned().await;
        let m = metric.to_string();
        let started = Instant::now();
        // The metric's own clock stops it by the time limit (it holds a CPU permit until it
        // returns); a job aborted while this waited for the permit does not start it at all.
        let deadline = started + timeout;
        let cancel = cancel.clone();
        let job = tokio::task::spawn_blocking(move || {
            let out = (!cancel.is_cancelled())
                .then(|| jobs::run_metric(&m, &r, &c, &r_header, &cand_header, deadline));
            drop(permit);
            out
        });
        match tokio::time::timeout(timeout, job).await {
            Ok(Ok(Some(res))) => {
                lock(&self.inner.cache).put(key, res.clone());
                match res {
                    Ok(rep) => MetricState::Done(rep),
                    Err(e) => MetricState::Failed(e),
                }
            }
            Ok(Ok(None)) => MetricState::Failed("cancelled by an edit".into()),
            Ok(Err(join)) => MetricState::Failed(format!("metric job ended: {join}")),
            Err(_) => MetricState::TimedOut(started.elapsed()),
        }
    }

    /// `textDocument/codeLens`: from the analysis when current, else "pending" lenses at the
    /// current positions of the theorems that had a reference.
    fn code_lenses(&self, params: &Value) -> JsonText {
        let none = || JsonText::of(&json!([]));
        let Some(uri) = params["textDocument"]["uri"].as_str() else {
            return none();
        };
        let Some(doc) = self.inner.docs.get(uri) else {
            return none();
        };
        let Some(a) = self.analysis(uri) else {
            return none();
        };
        if a.version == doc.version {
            let mut titles = lock(&self.inner.lens_titles);
            let titles = titles.entry(uri.to_string()).or_default();
            let text = views::lenses_with(&a, &self.inner.commands, titles);
            return JsonText::joined(text);
        }
        let mut pending = DocAnalysis {
            uri: a.uri.clone(),
            version: doc.version,
            theorems: Vec::new(),
            problems: Vec::new(),
            candidate_header: a.candidate_header.clone(),
            inputs: a.inputs,
            reference_files: Vec::new(),
            scan: 0,
        };
        // By name, first in document order as before, without a scan per declaration.
        let mut by_name: HashMap<&Option<Arc<str>>, &Arc<TheoremView>> = HashMap::new();
        for t in &a.theorems {
            by_name.entry(&t.decl.name).or_insert(t);
        }
        for d in engine::declarations(doc.text()) {
            if let Some(old) = by_name.get(&d.name) {
                let mut t = TheoremView::clone(old);
                t.at = doc.position_of(d.start);
                t.decl = d;
                for (_, s) in t.metrics.iter_mut() {
                    if !matches!(s, MetricState::Unavailable(_)) {
                        *s = MetricState::Pending;
                    }
                }
                pending.theorems.push(Arc::new(t));
            }
        }
        JsonText::of(&views::lenses(&pending, &doc, &self.inner.commands))
    }

    fn theorem(&self, args: &Value) -> Result<(Arc<Document>, Arc<DocAnalysis>, usize), OwnError> {
        let bad = |m: &str| OwnError {
            code: INVALID_PARAMS,
            message: m.to_string(),
        };
        let uri = args[0]
            .as_str()
            .ok_or_else(|| bad("arguments: [uri, name]"))?;
        let name = args[1].as_str();
        let doc = self
            .inner
            .docs
            .get(uri)
            .ok_or_else(|| bad("document is not open"))?;
        let a = self
            .analysis(uri)
            .ok_or_else(|| bad("document not analysed yet"))?;
        if a.version != doc.version {
            // Offsets in the analysis belong to another text: refuse rather than misplace edits.
            return Err(OwnError {
                code: CONTENT_MODIFIED,
                message: "the document changed; lean-assess is judging the new version".into(),
            });
        }
        let i = a
            .theorems
            .iter()
            .position(|t| t.name() == name)
            .ok_or_else(|| bad("no such theorem with a reference"))?;
        Ok((doc, a, i))
    }

    async fn execute(&self, params: &Value) -> Result<Value, OwnError> {
        let cmd = params["command"].as_str().unwrap_or("");
        let args = &params["arguments"];
        let (doc, mut a, mut i) = self.theorem(args)?;
        // Asked while the first round still runs: wait (bounded) for the differences.
        let deadline = Instant::now() + Duration::from_secs(5);
        while a.theorems[i].distance.is_none()
            && a.theorems[i].problem.is_none()
            && Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
            (_, a, i) = self.theorem(args)?;
        }
        let t = &a.theorems[i];
        let c = &self.inner.commands;
        if cmd == c.show_differences {
            let diags = views::difference_diagnostics(&doc, t);
            if diags.is_empty() {
                self.show_message(
                    3,
                    format!(
                        "lean-assess: `{}` has no differences to show ({})",
                        t.name().unwrap_or(""),
                        t.problem
                            .clone()
                            .unwrap_or_else(|| "same tree as the reference".into())
                    ),
                );
            }
            lock(&self.inner.shown).insert(a.uri.clone(), diags);
            self.publish(&a.uri);
        } else if cmd == c.show_details {
            let text = details_markdown(t, &a.candidate_header);
            self.show_view(&doc.uri, t, "details", &text);
        } else if cmd == c.show_proof_path {
            let text = self.proof_path(&a, i).await;
            self.show_view(&doc.uri, t, "proof-path", &text);
        } else if cmd == c.use_as_reference {
            self.use_as_reference(&doc, t)?;
        }
        Ok(Value::Null)
    }

    async fn proof_path(&self, a: &DocAnalysis, i: usize) -> String {
        let t = &a.theorems[i];
        let mut s = format!(
            "# Proof path for `{}`\n\nReference: `{}` ({})\n\n",
            t.name().unwrap_or(""),
            t.reference
                .as_ref()
                .and_then(|r| r.name.as_deref())
                .unwrap_or("?"),
            t.reference.as_ref().map_or("", |r| r.origin.as_str()),
        );
        // The Lean-backed `transted` when the lens has it (its path checks in Lean, and its
        // witness is the standalone example), else `transted-lite`.
        let lean_done = t.metrics.iter().find_map(|(m, st)| match st {
            MetricState::Done(r) if m == "transted" => Some(Ok(r.clone())),
            _ => None,
        });
        let witness = match (&lean_done, &t.reference, &t.candidate) {
            (Some(_), Some(rv), Some(c)) => self.inner.lean_lens.witness(ResultCache::key(
                "transted",
                rv,
                &c.source,
                &a.candidate_header,
                &self.toolchain(),
            )),
            _ => None,
        };
        let existing = lean_done.or_else(|| {
            t.metrics.iter().find_map(|(m, st)| match st {
                MetricState::Done(r) if m == "transted-lite" => Some(Ok(r.clone())),
                _ => None,
            })
        });
        let report = match existing {
            Some(r) => r,
            None => match jobs::statements(a, i) {
                None => Err(t.problem.clone().unwrap_or_else(|| "no parsed pair".into())),
                Some((r, c, h, _)) => {
                    let timeout = Config::default().offline_timeout * 5;
                    let ch = a.candidate_header.clone();
                    let deadline = Instant::now() + timeout;
                    let job = tokio::task::spawn_blocking(move || {
                        jobs::run_metric("transted-lite", &r, &c, &h, &ch, deadline)
                    });
                    match tokio::time::timeout(timeout, job).await {
                        Ok(Ok(r)) => r,
                        Ok(Err(e)) => Err(e.to_string()),
                        Err(_) => Err(format!("timed out after {timeout:?}")),
                    }
                }
            },
        };
        match report {
            Ok(r) => {
                if r.path.is_empty() {
                    s.push_str("No transformation brought the pair closer: the path is empty.\n");
                }
                for (k, step) in r.path.iter().enumerate() {
                    s.push_str(&format!(
                        "{}. `{}` on the {} at `{}`\n",
                        k + 1,
                        step.rule,
                        step.side,
                        step.at
                    ));
                }
                s.push_str(&format!(
                    "\nFinal: {}, in {}.\n",
                    views::described(r.metric, &r),
                    views::fmt_ms(r.elapsed)
                ));
                for n in &r.notes {
                    s.push_str(&format!("\n- {n}"));
                }
            }
            Err(e) => s.push_str(&format!("No path: {e}\n")),
        }
        if let Some(w) = witness {
            s.push_str(&format!(
                "\n\n## Witness (checks on its own in Lean)\n\n```lean\n{}\n```\n",
                w.trim_end()
            ));
        }
        s
    }

    /// Write a read-only markdown view under the cache dir and open it (window/showDocument),
    /// or show a message when the editor cannot open documents for us.
    fn show_view(&self, uri: &str, t: &TheoremView, kind: &str, text: &str) {
        let supports = lock(&self.inner.client).show_document;
        let file = write_view(uri, t.name().unwrap_or("example"), kind, text);
        match (supports, file) {
            (true, Ok(path)) => self.send(ToEditor::Request {
                method: "window/showDocument".into(),
                params: json!({"uri": path_to_uri(&path), "takeFocus": true}),
            }),
            (_, Err(e)) => {
                tracing::warn!(%e, "writing a view");
                self.send(ToEditor::Notification {
                    method: "window/showMessage".into(),
                    params: json!({"type": 3, "message": text}),
                });
            }
            (false, Ok(_)) => self.send(ToEditor::Notification {
                method: "window/showMessage".into(),
                params: json!({"type": 3, "message": text}),
            }),
        }
    }

    /// Write the reference down: a directive above the theorem when it came from the config,
    /// or a `[[reference.pair]]` in the config when it came from a directive naming a theorem.
    fn use_as_reference(&self, doc: &Document, t: &TheoremView) -> Result<(), OwnError> {
        let Some(r) = &t.reference else {
            return Err(OwnError {
                code: INVALID_PARAMS,
                message: "theorem has no reference".into(),
            });
        };
        let doc_path = uri_to_path(&doc.uri);
        let edit = if r.origin.starts_with("directive") {
            let (Some(file), Some(name), Some(dp), Some(cand)) =
                (&r.file, &r.name, &doc_path, t.name())
            else {
                self.show_message(
                    3,
                    format!(
                    "lean-assess: the reference of `{}` is written inline in its directive already",
                    t.name().unwrap_or("")
                ),
                );
                return Ok(());
            };
            let root = self
                .workspace_root()
                .or_else(|| dp.parent().map(Path::to_path_buf));
            let cfg_path = match self.config_for(Some(dp)) {
                Some(Ok(c)) => c.path.clone(),
                _ => root
                    .unwrap_or_default()
                    .join(crate::config::CONFIG_FILE_NAME),
            };
            let base = cfg_path.parent().unwrap_or(Path::new("/"));
            let rel = |p: &Path| p.strip_prefix(base).unwrap_or(p).display().to_string();
            let entry = pair_entry_toml(
                &format!("{}::{cand}", rel(dp)),
                &format!("{}::{name}", rel(file)),
            )
            .map_err(|e| OwnError {
                code: INVALID_PARAMS,
                message: format!("cannot write the reference pair as TOML: {e}"),
            })?;
            let existing = std::fs::read_to_string(&cfg_path).unwrap_or_default();
            let end = Document::new("", 0, existing.as_str()).position_of(existing.len());
            let cfg_uri = path_to_uri(&cfg_path);
            json!({"documentChanges": [
                {"kind": "create", "uri": cfg_uri, "options": {"ignoreIfExists": true}},
                {"textDocument": {"uri": cfg_uri, "version": null},
                 "edits": [{"range": {"start": end, "end": end}, "newText": entry}]}
            ]})
        } else {
            let spec = match (&r.file, &doc_path) {
                (Some(f), Some(dp)) => {
                    let dir = dp.parent().unwrap_or(Path::new("/"));
                    let rel = f.strip_prefix(dir).unwrap_or(f).display().to_string();
                    format!("{rel}::{}", r.name.as_deref().unwrap_or(""))
                }
                _ => r.name.clone().unwrap_or_default(),
            };
            // A line break in the spec would end the comment and put the rest into the
            // document as Lean code.
            if spec.chars().any(char::is_control) {
                return Err(OwnError {
                    code: INVALID_PARAMS,
                    message: format!(
                        "cannot write `-- @reference {}`: the reference has a control character",
                        spec.escape_default()
                    ),
                });
            }
            let line_start = doc.text()[..t.decl.start].rfind('\n').map_or(0, |i| i + 1);
            let p = doc.position_of(line_start);
            json!({"documentChanges": [
                {"textDocument": {"uri": doc.uri, "version": doc.version},
                 "edits": [{"range": {"start": p, "end": p},
                            "newText": format!("-- @reference {spec}\n")}]}
            ]})
        };
        if !lock(&self.inner.client).apply_edit {
            return Err(OwnError {
                code: INVALID_PARAMS,
                message: "the editor does not support workspace/applyEdit".into(),
            });
        }
        self.send(ToEditor::Request {
            method: "workspace/applyEdit".into(),
            params: json!({"label": "lean-assess: use as reference", "edit": edit}),
        });
        Ok(())
    }
}

/// One `[[reference.pair]]` entry, appended to a config: written by the `toml` serializer, so
/// any name (quotes, backslashes, control characters, any Unicode) comes out as valid TOML
/// that reads back as the same string. Rust's `{:?}` is not TOML (`\u{1b}` is not a TOML
/// escape; issue 17 §3).
fn pair_entry_toml(candidate: &str, reference: &str) -> Result<String, toml::ser::Error> {
    #[derive(serde::Serialize)]
    struct Pair<'a> {
        candidate: &'a str,
        reference: &'a str,
    }
    #[derive(serde::Serialize)]
    struct Reference<'a> {
        pair: [Pair<'a>; 1],
    }
    #[derive(serde::Serialize)]
    struct Entry<'a> {
        reference: Reference<'a>,
    }
    let entry = Entry {
        reference: Reference {
            pair: [Pair {
                candidate,
                reference,
            }],
        },
    };
    Ok(format!("\n{}", toml::to_string(&entry)?))
}

/// Where to ask for the goal that is the statement itself: the first tactic after `:= by`
/// (README §11). Term-mode proofs have no tactic goal: `None`.
fn proof_position(doc: &Document, statement_end: usize) -> Option<lsp_types::Position> {
    let text = doc.text();
    let rest = text.get(statement_end..)?.strip_prefix(":=")?;
    let after = rest.trim_start();
    let tactics = after.strip_prefix("by")?;
    if tactics.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None; // an identifier such as `byContra`, not the `by` keyword
    }
    let first = tactics.trim_start();
    Some(doc.position_of(text.len() - first.len()))
}

/// The lens click's view: the hover section plus the candidate statement.
fn details_markdown(t: &TheoremView, candidate_header: &str) -> String {
    let mut s = format!("# lean-assess: `{}`\n\n", t.name().unwrap_or("example"));
    s.push_str(&views::hover_section(t, candidate_header));
    if let Some(c) = &t.candidate {
        s.push_str(&format!(
            "\nCandidate statement:\n```lean\n{}\n```\n",
            c.source.trim()
        ));
    }
    s
}

/// Where views are written: `$XDG_CACHE_HOME/lean-assess/views`, `~/.cache/...`, else the
/// temp dir.
fn views_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("lean-assess").join("views")
}

fn write_view(uri: &str, name: &str, kind: &str, text: &str) -> std::io::Result<PathBuf> {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let dir = views_dir();
    std::fs::create_dir_all(&dir)?;
    let mut h = DefaultHasher::new();
    (uri, name).hash(&mut h);
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = dir.join(format!("{safe}-{:08x}.{kind}.md", h.finish() as u32));
    // Read-only for the user: remove the old copy (its mode forbids writing), write, chmod.
    let _ = std::fs::remove_file(&path);
    std::fs::write(&path, text)?;
    let mut perm = std::fs::metadata(&path)?.permissions();
    perm.set_readonly(true);
    std::fs::set_permissions(&path, perm)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bare_features() -> (Features, mpsc::Receiver<ToEditor>) {
        let (tx, rx) = mpsc::channel(16);
        let f = Features::new(
            FeaturesConfig::default(),
            tx,
            Arc::new(LeanClient::disconnected()),
        );
        (f, rx)
    }

    fn publish_body(uri: &str, version: i64, incremental: bool, diags: &[Value]) -> Vec<u8> {
        serde_json::to_vec(&json!({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
            "params": {"uri": uri, "version": version, "diagnostics": diags, "isIncremental": incremental}}))
        .unwrap()
    }

    #[test]
    fn incremental_lean_diagnostics_accumulate_in_linear_time() {
        let (f, mut rx) = bare_features();
        let uri = "file:///w/A.lean";
        let n = 20_000;
        let started = Instant::now();
        for i in 0..n {
            let d = json!({"range": {"start": {"line": i, "character": 0}, "end": {"line": i, "character": 1}},
                "message": format!("m{i}"), "severity": 2});
            assert!(f
                .lean_diagnostics(&publish_body(uri, 3, i > 0, &[d]))
                .is_empty());
        }
        // The quadratic store (a copy of the whole list per message) took minutes for this.
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{:?}",
            started.elapsed()
        );
        {
            let ld = lock(&f.inner.lean_diags);
            assert_eq!(ld[uri].diagnostics.len(), n as usize);
            assert_eq!(ld[uri].version, "3");
        }
        // A republish carries them all, in order.
        f.publish(uri);
        let Ok(ToEditor::Notification { params, .. }) = rx.try_recv() else {
            panic!("no publish")
        };
        let list = params["diagnostics"].as_array().unwrap();
        assert_eq!(list.len(), n as usize);
        assert_eq!(list[n as usize - 1]["message"], format!("m{}", n - 1));
        assert_eq!(params["version"], 3);
        // A new version replaces; closing the document frees the entry.
        f.lean_diagnostics(&publish_body(uri, 4, true, &[json!({"message": "x"})]));
        assert_eq!(lock(&f.inner.lean_diags)[uri].diagnostics.len(), 1);
        f.observe_client_notification(
            "textDocument/didOpen",
            &json!({"textDocument": {"uri": uri, "languageId": "lean4", "version": 4, "text": ""}}),
        );
        f.observe_client_notification(
            "textDocument/didClose",
            &json!({"textDocument": {"uri": uri}}),
        );
        assert!(lock(&f.inner.lean_diags).get(uri).is_none());
    }

    #[test]
    fn lean_diagnostics_beyond_the_bound_are_not_kept_nor_clobbered() {
        let (f, mut rx) = bare_features();
        let uri = "file:///w/Big.lean";
        let big = "x".repeat(MAX_LEAN_DIAGNOSTIC_BYTES);
        f.lean_diagnostics(&publish_body(uri, 1, false, &[json!({"message": big})]));
        {
            let ld = lock(&f.inner.lean_diags);
            assert!(ld[uri].overflow);
            assert!(ld[uri].diagnostics.is_empty());
            assert_eq!(ld[uri].bytes, 0);
        }
        // No republish that would replace Lean's list by a part of it: a message instead.
        f.publish(uri);
        match rx.try_recv() {
            Ok(ToEditor::Notification { method, params }) => {
                assert_eq!(method, "window/showMessage");
                assert!(params["message"].as_str().unwrap().contains("too many"));
            }
            other => panic!("{other:?}"),
        }
        // The next version within the bound is kept again.
        f.lean_diagnostics(&publish_body(uri, 2, false, &[json!({"message": "small"})]));
        assert!(!lock(&f.inner.lean_diags)[uri].overflow);
    }

    #[test]
    fn use_as_reference_writes_valid_toml_for_any_name() {
        let nasty = "Ref \"q\" \\ \u{1b}[31m\u{0}\u{7f}\n\t''' \"\"\" ∀ «x» 🦀";
        let candidate = format!("Cand.lean::{nasty}");
        let reference = format!("R.lean::{nasty}x");
        let existing = "[reference]\nfile = \"R.lean\"\n";
        let text = format!(
            "{existing}{}",
            pair_entry_toml(&candidate, &reference).unwrap()
        );
        // Read back by the toml parser: the same strings.
        let v: toml::Value = toml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let pair = &v["reference"]["pair"][0];
        assert_eq!(pair["candidate"].as_str(), Some(candidate.as_str()));
        assert_eq!(pair["reference"].as_str(), Some(reference.as_str()));
        assert_eq!(v["reference"]["file"].as_str(), Some("R.lean"));
        // And by the config loader.
        let cfg = Config::parse(&text, Path::new("/w/lean-assess.toml")).expect("config");
        assert_eq!(cfg.pairs.len(), 1);
        let want = format!("{nasty}x");
        assert_eq!(cfg.pairs[0].reference.name.as_deref(), Some(want.trim()));
    }

    struct Setup {
        _dir: tempfile::TempDir,
        features: Features,
        rx: mpsc::Receiver<ToEditor>,
        uri: String,
    }

    const REFERENCE: &str = "import Mathlib\n\ntheorem mathd_algebra_478 (b h v : ℝ) (h₀ : 0 < b ∧ 0 < h ∧ 0 < v) (h₁ : v = 1 / 3 * (b * h)) (h₂ : b = 30) (h₃ : h = 13 / 2) : v = 65 := by sorry\n\ntheorem same_name (x : ℕ) (h₁ : x ≤ 3) : x + 1 ≤ 4 := by omega\n";
    const CANDIDATE: &str = "import Mathlib\n\n-- @reference Reference.lean::mathd_algebra_478\ntheorem cone (b h v : ℝ) (h₀ : 0 < b ∧ 0 < h ∧ 0 < v) (h₁ : v = 1 / 3 * (b * h)) (h₃ : h = 13 / 2) : v = 65 := by sorry\n\ntheorem same_name (x : ℕ) (h₁ : x < 3) : 1 + x ≤ 4 := by omega\n";

    async fn setup() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::write(root.join("Reference.lean"), REFERENCE).unwrap();
        std::fs::write(
            root.join("lean-assess.toml"),
            "[reference]\nfile = \"Reference.lean\"\n",
        )
        .unwrap();
        let (tx, rx) = mpsc::channel(64);
        let features = Features::new(
            FeaturesConfig {
                config_path: None,
                workspace_root: Some(root.clone()),
            },
            tx,
            Arc::new(LeanClient::disconnected()),
        );
        features.on_initialize_request(&json!({
            "rootUri": path_to_uri(&root),
            "capabilities": {"workspace": {"codeLens": {"refreshSupport": true}, "applyEdit": true},
                             "window": {"showDocument": {"support": true}}}
        }));
        let uri = path_to_uri(&root.join("Cand.lean"));
        Setup {
            _dir: dir,
            features,
            rx,
            uri,
        }
    }

    /// Wait until the job for the current version has finished every round, then drop what it
    /// sent (refreshes) so the test sees only what follows.
    async fn settle(f: &Features, uri: &str, rx: &mut mpsc::Receiver<ToEditor>) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let doc_version = f.documents().get(uri).map(|d| d.version);
            let done = f.analysis(uri).is_some_and(|a| {
                Some(a.version) == doc_version
                    && a.theorems.iter().all(|t| {
                        t.metrics
                            .iter()
                            .all(|(_, s)| !matches!(s, MetricState::Pending | MetricState::Running))
                    })
            });
            if done {
                break;
            }
            assert!(Instant::now() < deadline, "job did not finish");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        drain(rx);
    }

    async fn next_refresh(rx: &mut mpsc::Receiver<ToEditor>) {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(20), rx.recv())
                .await
                .expect("a message within 20 s")
                .expect("channel open");
            if matches!(&m, ToEditor::Request { method, .. } if method == "workspace/codeLens/refresh")
            {
                return;
            }
        }
    }

    /// Until the document's job has ended (polling its task's state; the messages it sends
    /// meanwhile are dropped).
    async fn job_done(s: &mut Setup) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            while s.rx.try_recv().is_ok() {}
            let done = lock(&s.features.inner.jobs)
                .get(&s.uri)
                .is_none_or(|j| j.handle.is_finished());
            if done {
                return;
            }
            assert!(Instant::now() < deadline, "the job did not end within 20 s");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    fn change(s: &Setup, version: i64) {
        // Alternating texts: each edit is a real change of the candidate.
        let text = CANDIDATE.replace("v = 65", if version % 2 == 0 { "v = 66" } else { "v = 65" });
        s.features.observe_client_notification(
            "textDocument/didChange",
            &json!({"textDocument": {"uri": s.uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    #[tokio::test]
    async fn a_burst_of_edits_runs_one_job_after_the_document_is_quiet() {
        let mut s = setup().await;
        // Both CPU permits held: every job that starts stays running (as metric work under
        // load does), so without the wait each edit of the burst would start one.
        let held = s
            .features
            .inner
            .cpu
            .clone()
            .acquire_many_owned(2)
            .await
            .unwrap();
        s.features.observe_client_notification(
            "textDocument/didOpen",
            &json!({"textDocument": {"uri": s.uri, "languageId": "lean4", "version": 1, "text": CANDIDATE}}),
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(s.features.jobs_run(), 1, "the open's job starts at once");
        let quiet = s.features.inner.job_quiet;
        // Ten edits 20 ms apart, each while the previous job runs or waits.
        let mut last_edit = Instant::now();
        for version in 2..=11 {
            change(&s, version);
            last_edit = Instant::now();
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(s.features.jobs_run(), 1, "no job started during the burst");
        drop(held);
        next_refresh(&mut s.rx).await;
        let waited = last_edit.elapsed();
        job_done(&mut s).await;
        assert_eq!(s.features.jobs_run(), 2, "one job for the whole burst");
        assert!(
            waited >= quiet,
            "the job started before the document was quiet for {quiet:?} ({waited:?})"
        );
        assert_eq!(s.features.analysis(&s.uri).unwrap().version, 11);

        // A single edit to the quiet document starts its job at once (by the rule tested in
        // `continuous_typing_still_starts_a_job_every_max_wait`; its timing is not asserted).
        change(&s, 12);
        next_refresh(&mut s.rx).await;
        job_done(&mut s).await;
        assert_eq!(s.features.jobs_run(), 3);
        assert_eq!(s.features.analysis(&s.uri).unwrap().version, 12);
    }

    #[tokio::test]
    async fn continuous_typing_still_starts_a_job_every_max_wait() {
        // The wait as a function of the previous job's state, at chosen instants.
        let quiet = Duration::from_millis(200);
        let t0 = tokio::time::Instant::now();
        let waiting = tokio::spawn(std::future::pending::<()>());
        let slot = |since, started: bool| JobSlot {
            handle: waiting.abort_handle(),
            pending_since: since,
            started: Arc::new(std::sync::atomic::AtomicBool::new(started)),
        };
        // A quiet document (no job, or its job ended): at once.
        assert_eq!(debounce(None, t0, quiet), (t0, t0));
        let done = tokio::spawn(async {});
        let ended = JobSlot {
            handle: done.abort_handle(),
            pending_since: t0,
            started: Arc::new(true.into()),
        };
        let _ = done.await;
        assert_eq!(debounce(Some(&ended), t0, quiet), (t0, t0));
        // Edits while the job waits: each pushes the start to quiet after it...
        let now = t0 + Duration::from_millis(50);
        assert_eq!(
            debounce(Some(&slot(t0, false)), now, quiet),
            (t0, now + quiet)
        );
        let now = t0 + Duration::from_millis(1200);
        assert_eq!(
            debounce(Some(&slot(t0, false)), now, quiet),
            (t0, now + quiet)
        );
        // ...but never past the max wait from the first one: typing every 50 ms still gets a
        // job every JOB_MAX_WAIT.
        let now = t0 + JOB_MAX_WAIT - Duration::from_millis(50);
        assert_eq!(
            debounce(Some(&slot(t0, false)), now, quiet),
            (t0, t0 + JOB_MAX_WAIT)
        );
        // An edit that aborts a job already running starts a new wait.
        let now = t0 + Duration::from_secs(2);
        assert_eq!(
            debounce(Some(&slot(t0, true)), now, quiet),
            (now, now + quiet)
        );
        // Quiet 0 (`LEAN_ASSESS_JOB_QUIET_MS=0`): every edit's job at once, as before the wait.
        assert_eq!(
            debounce(Some(&slot(t0, false)), now, Duration::ZERO),
            (now, now)
        );
        waiting.abort();
    }

    #[tokio::test]
    async fn a_document_too_large_to_judge_is_said_so_and_not_analysed() {
        let mut s = setup().await;
        let text = "-- filler line\n".repeat(MAX_JUDGED_DOCUMENT_BYTES / 15 + 1);
        s.features.observe_client_notification(
            "textDocument/didOpen",
            &json!({"textDocument": {"uri": s.uri, "languageId": "lean4", "version": 1, "text": text}}),
        );
        match s.rx.recv().await {
            Some(ToEditor::Notification { method, params }) => {
                assert_eq!(method, "window/showMessage");
                assert!(
                    params["message"].as_str().unwrap().contains("not judged"),
                    "{params}"
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(s.features.analysis(&s.uri).is_none());
        assert!(lock(&s.features.inner.jobs).is_empty());
    }

    #[tokio::test]
    async fn a_reference_outside_the_workspace_is_not_read_and_says_why() {
        let mut s = setup().await;
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("Secret.lean");
        std::fs::write(&secret, "theorem s (x : ℕ) : x = x := rfl\n").unwrap();
        let text = format!(
            "-- @reference {}::s\ntheorem a (x : ℕ) : x = x := rfl\n\n-- @reference ../../../../../../../../../etc/passwd::root\ntheorem b : True := trivial\n",
            secret.display()
        );
        s.features.observe_client_notification(
            "textDocument/didOpen",
            &json!({"textDocument": {"uri": s.uri, "languageId": "lean4", "version": 1, "text": text}}),
        );
        next_refresh(&mut s.rx).await;
        let a = s.features.analysis(&s.uri).unwrap();
        assert_eq!(a.theorems.len(), 2, "{a:#?}");
        for t in &a.theorems {
            assert!(t.reference.is_none(), "{t:#?}");
            let p = t.problem.as_deref().unwrap_or_default();
            assert!(p.contains("is outside the workspace"), "{p}");
        }
        let problems: Vec<&str> = a.problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[1].contains("/etc/passwd is outside the workspace"),
            "{problems:?}"
        );
    }

    #[tokio::test]
    async fn open_judges_both_theorems_and_explains_differences() {
        let mut s = setup().await;
        s.features.observe_client_notification(
            "textDocument/didOpen",
            &json!({"textDocument": {"uri": s.uri, "languageId": "lean4", "version": 1, "text": CANDIDATE}}),
        );
        next_refresh(&mut s.rx).await;
        let a = s.features.analysis(&s.uri).unwrap();
        let names: Vec<_> = a.theorems.iter().map(|t| t.name().unwrap()).collect();
        assert_eq!(names, ["cone", "same_name"]);
        let msgs: Vec<&str> = a.theorems[0]
            .differences
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            msgs,
            ["missing hypothesis `h₂ : b = 30`"],
            "{:#?}",
            a.theorems[0]
        );
        let msgs: Vec<&str> = a.theorems[1]
            .differences
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            msgs,
            [
                "hypothesis `h₁`: `<` where the reference has `≤`",
                "conclusion: `1 + x` where the reference has `x + 1`"
            ],
            "{:#?}",
            a.theorems[1]
        );
        let lenses = lens_answer(&s).await;
        assert_eq!(lenses.as_array().unwrap().len(), 2);
        assert!(lenses[0]["command"]["title"]
            .as_str()
            .unwrap()
            .starts_with("lean-assess: ted "));
    }

    /// The code lens answer as the editor gets it, checked against the uncached path.
    async fn lens_answer(s: &Setup) -> Value {
        let raw = s
            .features
            .own_request(
                "textDocument/codeLens",
                &json!({"textDocument": {"uri": s.uri}}),
            )
            .unwrap()
            .await
            .unwrap();
        let answer: Value = serde_json::from_str(raw.get()).unwrap();
        let a = s.features.analysis(&s.uri).unwrap();
        let doc = s.features.documents().get(&s.uri).unwrap();
        assert_eq!(
            answer,
            views::lenses(&a, &doc, &s.features.inner.commands),
            "the cached lens answer is the uncached one"
        );
        answer
    }

    #[tokio::test]
    async fn an_edit_to_a_theorem_or_its_reference_changes_that_lens_only() {
        let mut s = setup().await;
        s.features.observe_client_notification(
            "textDocument/didOpen",
            &json!({"textDocument": {"uri": s.uri, "languageId": "lean4", "version": 1, "text": CANDIDATE}}),
        );
        settle(&s.features, &s.uri, &mut s.rx).await;
        let title = |l: &Value, i: usize| l[i]["command"]["title"].as_str().unwrap().to_string();
        let first = lens_answer(&s).await;
        // The first theorem's statement changes: its lens does, the other's stays.
        let text = CANDIDATE.replace("v = 65", "v = 66");
        s.features.observe_client_notification(
            "textDocument/didChange",
            &json!({"textDocument": {"uri": s.uri, "version": 2}, "contentChanges": [{"text": text}]}),
        );
        settle(&s.features, &s.uri, &mut s.rx).await;
        let second = lens_answer(&s).await;
        assert_ne!(title(&first, 0), title(&second, 0), "{second}");
        assert_eq!(title(&first, 1), title(&second, 1));
        // A line inserted above both: both move, their titles stay.
        let text = text.replacen("\n\n", "\n\n\n", 1);
        s.features.observe_client_notification(
            "textDocument/didChange",
            &json!({"textDocument": {"uri": s.uri, "version": 3}, "contentChanges": [{"text": text}]}),
        );
        settle(&s.features, &s.uri, &mut s.rx).await;
        let third = lens_answer(&s).await;
        assert_eq!(
            third[0]["range"]["start"]["line"],
            second[0]["range"]["start"]["line"].as_u64().unwrap() + 1
        );
        assert_eq!(title(&second, 0), title(&third, 0));
        assert_eq!(title(&second, 1), title(&third, 1));
        // The first theorem's reference changes on disk (the editor says so): its lens changes.
        let root = uri_to_path(&s.uri).unwrap().parent().unwrap().to_path_buf();
        std::fs::write(
            root.join("Reference.lean"),
            REFERENCE.replace("v = 65", "v = 66 + 0"),
        )
        .unwrap();
        s.features.observe_client_notification(
            "workspace/didChangeWatchedFiles",
            &json!({"changes": [{"uri": path_to_uri(&root.join("Reference.lean")), "type": 2}]}),
        );
        // The job for the same document version: wait for its refresh, then for it to end.
        next_refresh(&mut s.rx).await;
        job_done(&mut s).await;
        let fourth = lens_answer(&s).await;
        assert_ne!(title(&third, 0), title(&fourth, 0), "{fourth}");
        assert_eq!(title(&third, 1), title(&fourth, 1));
    }

    fn drain(rx: &mut mpsc::Receiver<ToEditor>) -> Vec<ToEditor> {
        let mut out = Vec::new();
        while let Ok(m) = rx.try_recv() {
            out.push(m);
        }
        out
    }

    #[tokio::test]
    async fn hover_actions_differences_and_edits() {
        let mut s = setup().await;
        s.features.observe_client_notification(
            "textDocument/didOpen",
            &json!({"textDocument": {"uri": s.uri, "languageId": "lean4", "version": 1, "text": CANDIDATE}}),
        );
        next_refresh(&mut s.rx).await;
        settle(&s.features, &s.uri, &mut s.rx).await;
        // Lean's diagnostics pass with nothing of ours yet.
        let lean_diag = json!({"uri": s.uri, "version": 1, "diagnostics": [
            {"range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 7}},
             "severity": 2, "source": "Lean 4", "message": "declaration uses 'sorry'"}]});
        assert_eq!(s.features.merge_diagnostics(lean_diag.clone()), lean_diag);
        // Hover on `same_name` (line 5).
        let hp = json!({"textDocument": {"uri": s.uri}, "position": {"line": 5, "character": 10}});
        assert!(s.features.wants_response("textDocument/hover"));
        let lean_hover = json!({"range": {"start": {"line": 5, "character": 8}, "end": {"line": 5, "character": 17}},
                                "contents": {"kind": "markdown", "value": "```lean\nsame_name (x : ℕ) : x < 3 → 1 + x ≤ 4\n```"}});
        let h = s
            .features
            .augment_response("textDocument/hover", &hp, lean_hover);
        let v = h["contents"]["value"].as_str().unwrap();
        let (lean_part, ours) = v.split_once("\n\n***\n\n").unwrap();
        assert!(lean_part.starts_with("```lean\nsame_name"));
        assert!(
            ours.contains("Reference `same_name`, from lean-assess.toml (by name)."),
            "{ours}"
        );
        assert!(
            ours.contains("- hypothesis `h₁`: `<` where the reference has `≤`"),
            "{ours}"
        );
        // Code actions: Lean's kept, ours appended.
        let cp = json!({"textDocument": {"uri": s.uri},
                        "range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 0}},
                        "context": {"diagnostics": []}});
        let acts = s.features.augment_response(
            "textDocument/codeAction",
            &cp,
            json!([{"title": "Lean's"}]),
        );
        let titles: Vec<&str> = acts
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["title"].as_str().unwrap())
            .collect();
        assert_eq!(titles.len(), 4);
        assert_eq!(titles[0], "Lean's");
        // Resolving one of ours answers it unchanged; Lean's own actions still go to Lean.
        let resolved = s
            .features
            .own_request("codeAction/resolve", &acts[1])
            .expect("our action is resolved by the proxy")
            .await
            .unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(resolved.get()).unwrap(),
            acts[1]
        );
        assert!(s
            .features
            .own_request(
                "codeAction/resolve",
                &json!({"title": "Lean's", "data": {}})
            )
            .is_none());
        // Execute "Show differences": a merged publishDiagnostics with Lean's and ours.
        let cmd = acts[1]["command"].clone();
        s.features
            .own_request(
                "workspace/executeCommand",
                &json!({"command": cmd["command"], "arguments": cmd["arguments"]}),
            )
            .unwrap()
            .await
            .unwrap();
        let sent = drain(&mut s.rx);
        let ToEditor::Notification { method, params } = &sent[0] else {
            panic!("{sent:?}")
        };
        assert_eq!(method, "textDocument/publishDiagnostics");
        let diags = params["diagnostics"].as_array().unwrap();
        assert_eq!(diags[0]["source"], "Lean 4");
        let ours: Vec<&Value> = diags
            .iter()
            .filter(|d| d["source"] == "lean-assess")
            .collect();
        assert_eq!(ours.len(), 2);
        assert_eq!(ours[0]["severity"], 3);
        // `x < 3` in `theorem same_name (x : ℕ) (h₁ : x < 3)`: UTF-16 columns 32..37.
        assert_eq!(
            ours[0]["range"],
            json!({"start": {"line": 5, "character": 32}, "end": {"line": 5, "character": 37}})
        );
        // Lean republishes: ours stay merged in until an edit.
        let merged = s.features.merge_diagnostics(lean_diag.clone());
        assert_eq!(merged["diagnostics"].as_array().unwrap().len(), 3);
        // "Use as reference" on a config-by-name theorem: a directive via workspace/applyEdit.
        let use_ref = acts[3]["command"].clone();
        s.features
            .own_request(
                "workspace/executeCommand",
                &json!({"command": use_ref["command"], "arguments": use_ref["arguments"]}),
            )
            .unwrap()
            .await
            .unwrap();
        let sent = drain(&mut s.rx);
        let ToEditor::Request { method, params } = &sent[0] else {
            panic!("{sent:?}")
        };
        assert_eq!(method, "workspace/applyEdit");
        let edit = &params["edit"]["documentChanges"][0]["edits"][0];
        assert_eq!(edit["newText"], "-- @reference Reference.lean::same_name\n");
        assert_eq!(edit["range"]["start"], json!({"line": 5, "character": 0}));
        // "Show proof path": a read-only file opened with window/showDocument.
        let path_cmd = acts[2]["command"].clone();
        let cache = tempfile::tempdir().unwrap();
        std::env::set_var("XDG_CACHE_HOME", cache.path());
        s.features
            .own_request(
                "workspace/executeCommand",
                &json!({"command": path_cmd["command"], "arguments": path_cmd["arguments"]}),
            )
            .unwrap()
            .await
            .unwrap();
        let sent = drain(&mut s.rx);
        let ToEditor::Request { method, params } = &sent[0] else {
            panic!("{sent:?}")
        };
        assert_eq!(method, "window/showDocument");
        let file = uri_to_path(params["uri"].as_str().unwrap()).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.starts_with("# Proof path for `same_name`"), "{text}");
        // The time reads like the hover's (`1.2 ms`), not Debug's `1.155147ms`.
        let fin = text.lines().find(|l| l.starts_with("Final: ")).unwrap();
        assert!(fin.ends_with(" ms."), "{fin}");
        assert!(std::fs::metadata(&file).unwrap().permissions().readonly());
        // An edit clears our differences (republished without them) and re-judges.
        s.features.observe_client_notification(
            "textDocument/didChange",
            &json!({"textDocument": {"uri": s.uri, "version": 2},
                    "contentChanges": [{"range": {"start": {"line": 5, "character": 34}, "end": {"line": 5, "character": 35}}, "text": "≤"}]}),
        );
        let sent = drain(&mut s.rx);
        let ToEditor::Notification { params, .. } = &sent[0] else {
            panic!("{sent:?}")
        };
        assert_eq!(params["diagnostics"].as_array().unwrap().len(), 1);
        next_refresh(&mut s.rx).await;
        let a = s.features.analysis(&s.uri).unwrap();
        assert_eq!(a.version, 2);
        let msgs: Vec<&str> = a.theorems[1]
            .differences
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            msgs,
            ["conclusion: `1 + x` where the reference has `x + 1`"]
        );
    }

    #[tokio::test]
    async fn shutdown_stops_the_keep_alive_and_the_jobs() {
        let s = setup().await;
        let open = |version: i64| {
            json!({"textDocument": {"uri": s.uri, "languageId": "lean4", "version": version,
                                    "text": CANDIDATE}})
        };
        s.features
            .observe_client_notification("textDocument/didOpen", &open(1));
        assert!(lock(&s.features.inner.keep_alive).is_some());
        assert_eq!(lock(&s.features.inner.jobs).len(), 1);
        s.features.on_shutdown();
        assert!(lock(&s.features.inner.keep_alive).is_none());
        assert!(lock(&s.features.inner.jobs).is_empty());
        // An edit after `shutdown` (a misbehaving client) starts nothing that would talk to Lean.
        s.features.observe_client_notification(
            "textDocument/didChange",
            &json!({"textDocument": {"uri": s.uri, "version": 2},
                    "contentChanges": [{"text": format!("{CANDIDATE}\n")}]}),
        );
        assert!(lock(&s.features.inner.jobs).is_empty());
        // `exit` without `shutdown` stops them too.
        let s = setup().await;
        s.features
            .observe_client_notification("textDocument/didOpen", &open(1));
        s.features.observe_client_notification("exit", &Value::Null);
        assert!(lock(&s.features.inner.keep_alive).is_none());
        assert!(lock(&s.features.inner.jobs).is_empty());
    }

    #[test]
    fn initialize_result_gains_lens_and_commands_keeping_leans_fields() {
        let (tx, _rx) = mpsc::channel(1);
        let f = Features::new(
            FeaturesConfig::default(),
            tx,
            Arc::new(LeanClient::disconnected()),
        );
        let lean: Value = serde_json::from_str(include_str!(
            "../../fixtures/lean-protocol/examples/wire.initialize-response.json"
        ))
        .unwrap();
        let out = f.augment_initialize_result(lean["result"].clone());
        let caps = &out["capabilities"];
        assert_eq!(caps["codeLensProvider"], json!({"resolveProvider": false}));
        let cmds = caps["executeCommandProvider"]["commands"]
            .as_array()
            .unwrap();
        assert_eq!(cmds.len(), 4);
        assert!(cmds[0]
            .as_str()
            .unwrap()
            .starts_with(&format!("lean-assess.{}.", std::process::id())));
        // Every one of Lean's capabilities is still there, unchanged.
        for (k, v) in lean["result"]["capabilities"].as_object().unwrap() {
            assert_eq!(&caps[k], v, "{k}");
        }
        assert_eq!(out["serverInfo"], lean["result"]["serverInfo"]);
    }

    #[test]
    fn proof_position_is_the_first_tactic() {
        let d = Document::new("u", 0, "theorem t : 𝔽 := by\n  simp\n");
        let se = d.text().find(":=").unwrap();
        assert_eq!(
            proof_position(&d, se),
            Some(lsp_types::Position {
                line: 1,
                character: 2
            })
        );
        let d = Document::new("u", 0, "theorem t : True := trivial");
        assert_eq!(proof_position(&d, d.text().find(":=").unwrap()), None);
    }

    #[tokio::test]
    async fn a_bad_config_is_one_message_not_a_diagnostic_of_every_document() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::write(
            root.join("refs.jsonl"),
            "{\"name\": \"ds_ref\", \"formal_statement\": \"theorem ds_ref (n : ℕ) : n + 0 = n := by simp\"}\n",
        )
        .unwrap();
        std::fs::write(
            root.join("lean-assess.toml"),
            "[reference]\ndataset = \"refs.jsonl\"\n\n[metrics]\nlens = [\"ted\", \"tedd\"]\n",
        )
        .unwrap();
        let (tx, mut rx) = mpsc::channel(64);
        let f = Features::new(
            FeaturesConfig {
                config_path: None,
                workspace_root: Some(root.clone()),
            },
            tx,
            Arc::new(LeanClient::disconnected()),
        );
        let uri = path_to_uri(&root.join("C.lean"));
        let text =
            "import Mathlib\n\n-- @reference ds_ref\ntheorem c (n : ℕ) : 0 + n = n := by simp\n";
        f.observe_client_notification(
            "textDocument/didOpen",
            &json!({"textDocument": {"uri": uri, "languageId": "lean4", "version": 1, "text": text}}),
        );
        // Everything the job sends until the document is analysed, and a moment more.
        let mut messages = Vec::new();
        let mut diagnostics = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut quiet_after: Option<Instant> = None;
        loop {
            if quiet_after.is_none() && f.analysis(&uri).is_some() {
                quiet_after = Some(Instant::now() + Duration::from_millis(500));
            }
            let until = quiet_after.unwrap_or(deadline).min(deadline);
            let left = until.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left.min(Duration::from_millis(50)), rx.recv()).await {
                Ok(Some(ToEditor::Notification { method, params })) => match method.as_str() {
                    "window/showMessage" => messages.push(params),
                    "textDocument/publishDiagnostics" => diagnostics.push(params),
                    _ => {}
                },
                Ok(_) => {}
                Err(_) if Instant::now() >= until => break,
                Err(_) => {}
            }
        }
        assert!(f.analysis(&uri).is_some(), "the job never ended");
        let about_config: Vec<&str> = messages
            .iter()
            .filter_map(|m| m["message"].as_str())
            .filter(|m| m.contains("lean-assess.toml"))
            .collect();
        assert_eq!(about_config.len(), 1, "{messages:?}");
        assert!(
            about_config[0].contains("lean-assess.toml:5: "),
            "{about_config:?}"
        );
        assert!(
            about_config[0].contains("unknown metric \"tedd\""),
            "{about_config:?}"
        );
        // Not repeated, with another prefix, as a diagnostic of the document: the directive
        // it leaves unresolved only points at it.
        for d in &diagnostics {
            for m in d["diagnostics"].as_array().unwrap() {
                let m = m["message"].as_str().unwrap();
                assert!(!m.contains("unknown metric"), "{m}");
                assert!(!m.contains("lean-assess config"), "{m}");
            }
        }
        assert!(
            diagnostics.iter().any(|d| d
                .to_string()
                .contains("`ds_ref` is not looked up: lean-assess.toml has an error")),
            "{diagnostics:?}"
        );
        // A good config: the directive's NAME is found in the dataset.
        std::fs::write(
            root.join("lean-assess.toml"),
            "[reference]\ndataset = \"refs.jsonl\"\n",
        )
        .unwrap();
        f.observe_client_notification(
            "textDocument/didSave",
            &json!({"textDocument": {"uri": uri}}),
        );
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let ok = f.analysis(&uri).is_some_and(|a| {
                a.problems.is_empty()
                    && a.theorems.len() == 1
                    && matches!(a.theorems[0].metrics[0].1, MetricState::Done(_))
            });
            if ok {
                break;
            }
            assert!(Instant::now() < deadline, "{:#?}", f.analysis(&uri));
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let a = f.analysis(&uri).unwrap();
        let r = a.theorems[0].reference.as_ref().unwrap();
        assert_eq!(r.name.as_deref(), Some("ds_ref"));
        assert_eq!(r.origin, "directive at C.lean:3");
    }
}
