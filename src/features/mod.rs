//! Editor features behind the proxy: code lenses, the hover section, code actions, our commands
//! and diagnostics, for every theorem of an open document that has a reference.
//!
//! Owns [`Features`], the router's interface and a thin facade over the concerns below: the
//! router calls the `observe_*`/`augment_*`/`merge_*` hooks on the forwarding path — they only
//! update state and spawn or cancel jobs — and runs `own_request` futures on spawned tasks.
//! Each concern owns its state: the document mirror (`documents`), the jobs (`scheduling`, one
//! per document, run by `rounds`), the analyses and a bounded result cache, the diagnostics
//! merged into Lean's (`diagnostics`), the settings and configs (`settings`), the LLM consent
//! asked (`consent`), our commands (`actions`), the answers read from the analyses
//! (`answers`), and the RPC sessions the proxy opens — its own goal queries' and the lens
//! oracles' — noted by one [`SessionTracker`] over the proxy's Lean client and kept alive by its
//! `$/lean/rpc/keepAlive` ticker (every 10 s; Lean drops a session after 30 s without one) from
//! the start until the `shutdown` that ends the session ([`Features::on_shutdown`], which also
//! stops the jobs: after `shutdown` Lean takes nothing but `exit`).
//! Framing, ids and forwarding are the router's; metrics and parsing are the engine's.
//!
//! A job per document: on didOpen/didChange the previous job is aborted and a new one spawned;
//! it resolves references, parses, then runs each lens metric (in `spawn_blocking`, under a
//! semaphore, within the configured time limit, cached), storing the analysis after each round
//! and asking the editor to refresh its lenses (`workspace/codeLens/refresh`, when the client
//! advertised `workspace.codeLens.refreshSupport`).

mod actions;
mod answers;
pub mod cache;
mod consent;
mod diagnostics;
mod elaboration;
pub mod engine;
pub mod integrity;
pub mod jobs;
pub mod lean_lens;
mod protocol;
mod rounds;
mod scheduling;
mod settings;
pub mod views;

#[cfg(test)]
mod tests;

pub use protocol::{AnswerSlot, JsonText, OwnError, OwnFuture, ToEditor};
pub use scheduling::{JOB_MAX_WAIT, JOB_QUIET, JOB_QUIET_ENV};
pub use settings::FeaturesConfig;

use crate::documents::{DocumentMirror, MirrorEvent};
use crate::lean::goals::{self, KeepAliveTicker, SessionTracker, KEEP_ALIVE_EVERY};
use crate::lean::LeanClient;
use cache::JobCaches;
use consent::Consent;
use diagnostics::Diagnostics;
use jobs::{DocAnalysis, ResultCache, SharedCache};
use protocol::Outbox;
use scheduling::Scheduler;
use serde_json::{json, Value};
use settings::Settings;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{mpsc, Semaphore};
use views::Commands;

/// The state behind [`Features`], grouped by the concern that owns it.
struct Inner {
    /// What `serve` and the editor said, the configs read, the toolchain (`settings`).
    settings: Settings,
    /// The `[llm]` confirmations asked this session (`consent`).
    consent: Consent,
    /// Messages to the editor, never blocking (`protocol`).
    outbox: Outbox,
    docs: DocumentMirror,
    /// Our command names (unique per process).
    commands: Commands,
    /// The current analysis of each judged document.
    analyses: Mutex<HashMap<String, Arc<DocAnalysis>>>,
    /// The document jobs (`scheduling`).
    scheduler: Scheduler,
    /// Metric results by pair texts, metric and toolchain.
    cache: SharedCache,
    /// Reference files, parses and explanations kept across document versions.
    job_caches: Arc<JobCaches>,
    /// Ours and Lean's last diagnostics per URI (`diagnostics`).
    diagnostics: Diagnostics,
    /// Permits for CPU work off the runtime (prepare, metrics, explanations, integrity).
    cpu: Arc<Semaphore>,
    /// `lean` noting every RPC session opened through it (goal queries, lens oracles).
    rpc: Arc<lean_lens::Rpc>,
    /// The keep-alive of `rpc`'s sessions; `None` once shut down (or without a runtime).
    keep_alive: Mutex<Option<KeepAliveTicker>>,
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
        let rpc = Arc::new(SessionTracker::new(lean.clone()));
        let inner = Arc::new(Inner {
            settings: Settings::new(cfg),
            consent: Consent::default(),
            outbox: Outbox::new(to_editor),
            docs: DocumentMirror::new(),
            commands: Commands::new(&format!("lean-assess.{}", std::process::id())),
            analyses: Mutex::default(),
            scheduler: Scheduler::new(),
            cache: Arc::new(Mutex::new(ResultCache::default())),
            job_caches: Arc::new(JobCaches::default()),
            diagnostics: Diagnostics::default(),
            cpu: Arc::new(Semaphore::new(2)),
            rpc: rpc.clone(),
            // Outside a runtime (unit tests of the router's hooks) there is nothing to tick on.
            keep_alive: Mutex::new(
                tokio::runtime::Handle::try_current()
                    .is_ok()
                    .then(|| rpc.keep_alive_every(keep_alive_interval())),
            ),
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
        self.inner.scheduler.stop_new();
        if let Some(ticker) = lock(&self.inner.keep_alive).take() {
            ticker.stop();
        }
        self.inner.scheduler.abort_all();
    }

    /// How many document jobs have started running (past their debounce) since the start: a
    /// burst of edits counts once.
    pub fn jobs_run(&self) -> u64 {
        self.inner.scheduler.runs()
    }

    /// Whether `uri`'s job is still waiting or running: an edit now would wait for quiet
    /// ([`JOB_QUIET`]) before its job starts. Benchmarks of a single edit wait for this first.
    pub fn job_busy(&self, uri: &str) -> bool {
        self.inner.scheduler.busy(uri)
    }

    /// Our command names (unique per process).
    pub fn command_names(&self) -> Vec<String> {
        self.inner.commands.all().iter().map(|s| s.to_string()).collect()
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
        self.inner.settings.note_initialize(params);
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
        let mut commands: Vec<Value> =
            caps["executeCommandProvider"]["commands"].as_array().cloned().unwrap_or_default();
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
                if self.inner.diagnostics.clear_shown(&uri) {
                    self.publish(&uri);
                }
                self.restart_job(&uri);
            }
            Ok(MirrorEvent::Closed { uri }) => {
                self.inner.scheduler.cancel(&uri);
                lock(&self.inner.analyses).remove(&uri);
                self.inner.diagnostics.forget(&uri);
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
                    let doc =
                        this.inner.docs.get(params["textDocument"]["uri"].as_str().unwrap_or(""));
                    Ok(this.inner.integrity.with_lenses(&params, doc, this.code_lenses(&params)))
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
                Some(Box::pin(async move { this.execute(&params).await.map(|v| JsonText::of(&v)) }))
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
            "textDocument/hover" => self.augment_hover(request_params, &doc, &a, result),
            "textDocument/codeAction" => {
                self.augment_code_actions(request_params, &doc, &a, result)
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
        match self.inner.diagnostics.note_lean(body) {
            Some(uri) => self.our_diagnostics(&uri),
            None => Vec::new(),
        }
    }

    /// Ask the editor to refresh its lenses, when it can.
    fn refresh_lenses(&self) {
        if self.inner.settings.lens_refresh() {
            self.inner.outbox.send(ToEditor::Request {
                method: "workspace/codeLens/refresh".into(),
                params: Value::Null,
            });
        }
    }
}
