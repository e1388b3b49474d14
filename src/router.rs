//! The router: forwards LSP traffic between the editor and Lean, both ways, in order.
//!
//! Owns: the two reader loops (editor→Lean, Lean→editor), the two ordered writer tasks, the
//! own-id routing and the calls into the features ([`Hooks`], implemented by
//! [`crate::features::Features`]), and the end of a session (editor gone → `shutdown`/`exit`
//! into Lean; Lean gone → report it to the caller). Before any `shutdown` reaches Lean the
//! features are told ([`Hooks::on_shutdown`]) so that their own traffic stops.
//!
//! Protocol handled, and why (ra-multiplex `src/lsp.rs` style):
//! - Every message the proxy does not own is forwarded as its original bytes, in arrival
//!   order, on one writer per direction: `$/lean/*`, `$/lean/rpc/*`, `$/cancelRequest`,
//!   `shutdown`/`exit`, server→client requests (`client/registerCapability` with id
//!   `"register_lean_watcher"`, the refresh requests with numeric ids; fixtures/lean-protocol/README §10) and their
//!   replies with the id unchanged (Lean's watchdog maps them back itself). Only `id` and
//!   `method` are parsed to route ([`crate::wire::peek`]).
//! - Re-serialized, keeping every other field of Lean's JSON: the `initialize` result
//!   (capabilities added by the features), replies to the requests the features augment
//!   (hover, codeAction), and `textDocument/publishDiagnostics` when the features have
//!   diagnostics of their own to add (merged in, since a second publish for a URI would replace
//!   Lean's: architecture.md); without any, it is forwarded as its bytes.
//! - Own traffic never reaches the editor: replies to ids `"lean-assess:<nonce>:<n>"` (the
//!   nonce random per process, [`crate::pending::own_id_prefix`]) go to the
//!   [`PendingTable`], and Lean's notifications about hidden URIs are dropped (fixtures/lean-protocol/README §3).
//!   Replies from the editor to our own server→client requests (`ToEditor::Request`) are
//!   consumed, never forwarded to Lean. A `workspace/semanticTokens/refresh` or
//!   `workspace/inlayHint/refresh` that only hidden documents' progress can have caused is
//!   answered `null` by the proxy instead of being forwarded (`Progress`).
//! - Requests the features answer themselves run on spawned tasks; `$/cancelRequest` for one
//!   of them aborts the task and answers `-32800` (RequestCancelled), since Lean never saw it.
//! - Lean gone (EOF, crash, bad frame): every editor request still waiting for it is answered
//!   `RequestFailed` ([`codes::REQUEST_FAILED`]); the caller reports how Lean ended.
//! - Bad input: a bad frame header ends that stream (it is out of step). A body that
//!   is not JSON is forwarded unchanged and logged; an editor request whose `method` is not a
//!   string is answered `-32600` (Invalid Request) and not forwarded.
//!
//! Open questions: batches (JSON arrays) are forwarded whole, not split (no Lean client sends
//! them); a null id is treated as no id.

use crate::features::{Features, OwnFuture, ToEditor};
use crate::lean::LeanClient;
use crate::pending::{OwnId, PendingTable, Reply};
use crate::wire::{self, FrameReader, Peek, RequestId};
use dashmap::DashMap;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufRead, AsyncWrite};
use tokio::sync::{mpsc, watch};
use tokio::task::{AbortHandle, JoinHandle};

mod bodies;
#[cfg(test)]
mod tests;

use bodies::{cancelled_id, did_open_params, params_of, reply_of, response_body, rewrite_field};

/// JSON-RPC error codes the router itself answers with.
pub mod codes {
    pub const INVALID_REQUEST: i64 = -32600;
    pub const REQUEST_CANCELLED: i64 = -32800;
    pub const INTERNAL_ERROR: i64 = -32603;
    /// LSP 3.17 `RequestFailed`: "the method name was known and the parameters were valid",
    /// the request failed anyway, the message says why. Answered to every editor request still
    /// waiting when the Lean server goes away (helix's `Transport` does the same for its own
    /// pending requests when the server's stream closes: each gets `StreamClosed`, so no
    /// caller waits for ever).
    pub const REQUEST_FAILED: i64 = -32803;
}

/// Method names the router treats specially.
pub mod methods {
    pub const INITIALIZE: &str = "initialize";
    pub const SHUTDOWN: &str = "shutdown";
    pub const EXIT: &str = "exit";
    pub const CANCEL_REQUEST: &str = "$/cancelRequest";
    pub const PUBLISH_DIAGNOSTICS: &str = "textDocument/publishDiagnostics";
    pub const SHOW_MESSAGE: &str = "window/showMessage";
    pub const DID_OPEN: &str = "textDocument/didOpen";
}

/// What the router asks of the editor features. [`Features`] implements it; router tests use
/// scripted implementations. Every method is called on the forwarding path and must be cheap.
pub trait Hooks: Send + Sync + 'static {
    fn on_initialize_request(&self, params: &Value);
    fn augment_initialize_result(&self, result: Value) -> Value;
    /// The params by value, so a big text can move into the features' state uncopied.
    fn observe_client_notification(&self, method: &str, params: Value);
    fn own_request(&self, method: &str, params: &Value) -> Option<OwnFuture>;
    fn wants_response(&self, method: &str) -> bool;
    fn augment_response(&self, method: &str, request_params: &Value, result: Value) -> Value;
    /// Lean's `publishDiagnostics` (the whole body, not parsed by the router): what of ours to
    /// append to its `diagnostics`. Empty (the common case) forwards the bytes unchanged.
    fn lean_diagnostics(&self, body: &[u8]) -> Vec<Value>;
    /// Whether `observe_client_notification` needs to see notifications of `method`. Only those
    /// get their params parsed on the forwarding path (bulk traffic such as `$/lean/rpc/*` or a
    /// client's custom notifications then costs a peek, not a parse).
    fn observes(&self, _method: &str) -> bool {
        true
    }
    /// Whether `own_request` may claim requests of `method` (same reason).
    fn may_own(&self, _method: &str) -> bool {
        true
    }
    /// A `shutdown` is about to go to Lean (the editor's, or the router's own when the editor
    /// left without one): after it Lean accepts only `exit` (lean4
    /// `Server/Watchdog.lean` `initAndRunWatchdogAux`), so own traffic must stop here.
    fn on_shutdown(&self) {}
}

impl Hooks for Features {
    /// Exactly the notifications `Features::observe_client_notification` acts on (the
    /// document mirror, didSave, didChangeWatchedFiles, exit). Every other notification costs
    /// a peek at its method, not a parse of its params: a client's bulk or custom notification
    /// must not be parsed whole.
    fn observes(&self, method: &str) -> bool {
        Features::OBSERVED_NOTIFICATIONS.contains(&method)
    }
    /// Exactly the methods `own_request` can claim, so other requests are not parsed.
    fn may_own(&self, method: &str) -> bool {
        Features::OWN_METHODS.contains(&method)
    }
    fn on_initialize_request(&self, params: &Value) {
        Features::on_initialize_request(self, params)
    }
    fn augment_initialize_result(&self, result: Value) -> Value {
        Features::augment_initialize_result(self, result)
    }
    fn observe_client_notification(&self, method: &str, params: Value) {
        Features::observe_client_notification_owned(self, method, params)
    }
    fn own_request(&self, method: &str, params: &Value) -> Option<OwnFuture> {
        Features::own_request(self, method, params)
    }
    fn wants_response(&self, method: &str) -> bool {
        Features::wants_response(self, method)
    }
    fn augment_response(&self, method: &str, request_params: &Value, result: Value) -> Value {
        Features::augment_response(self, method, request_params, result)
    }
    fn lean_diagnostics(&self, body: &[u8]) -> Vec<Value> {
        Features::lean_diagnostics(self, body)
    }
    fn on_shutdown(&self) {
        Features::on_shutdown(self)
    }
}

/// Queue sizes and time limits of a session.
#[derive(Debug, Clone)]
pub struct RouterConfig {
    /// Frames queued per writer before a reader waits (bounded: backpressure, not memory).
    pub queue_frames: usize,
    /// Messages the features may queue for the editor.
    pub to_editor_queue: usize,
    /// After the editor left: how long to wait for Lean's `shutdown` reply, then for its exit.
    pub shutdown_grace: Duration,
}

impl Default for RouterConfig {
    fn default() -> Self {
        RouterConfig {
            queue_frames: 256,
            to_editor_queue: 64,
            shutdown_grace: Duration::from_secs(3),
        }
    }
}

/// Why a session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndReason {
    /// The editor closed its end (or sent a bad frame header, which ends its stream).
    EditorClosed,
    /// Lean's stdout ended (or carried a bad frame header).
    LeanClosed,
}

/// The end of a session, with the editor's writer still open so the caller can report.
pub struct RouterEnd {
    pub reason: EndReason,
    /// The editor sent `exit` (so Lean exiting is expected, not a crash).
    pub exit_forwarded: bool,
    /// The editor sent `shutdown` before.
    pub shutdown_forwarded: bool,
    /// Lean's stream ended on a bad frame (not at EOF): what was wrong.
    pub lean_stream_error: Option<String>,
    /// Lean's stream ended inside a frame (its header announced more bytes than came): the
    /// process most likely died while writing, so its exit status says why, not the frame.
    pub lean_died_mid_frame: bool,
    /// Editor requests that were still waiting for Lean (or for the features) when Lean's
    /// stream ended; each was answered [`codes::REQUEST_FAILED`].
    pub failed_requests: usize,
    editor: Writer,
}

impl RouterEnd {
    /// Send a notification to the editor (e.g. the crash `window/showMessage`).
    pub async fn notify_editor(&self, method: &str, params: Value) {
        let body = json!({"jsonrpc": "2.0", "method": method, "params": params});
        if let Ok(bytes) = serde_json::to_vec(&body) {
            let _ = self.editor.tx.send(bytes).await;
        }
    }

    /// Write everything queued for the editor, then stop its writer.
    pub async fn finish(self) {
        self.editor.close(Duration::from_secs(2)).await;
    }
}

/// One direction's ordered writer task.
struct Writer {
    tx: mpsc::Sender<Vec<u8>>,
    close: watch::Sender<bool>,
    task: JoinHandle<()>,
}

impl Writer {
    fn spawn<W: AsyncWrite + Unpin + Send + 'static>(
        out: W,
        capacity: usize,
        stream: &'static str,
    ) -> Writer {
        let (tx, rx) = mpsc::channel(capacity);
        let (close, close_rx) = watch::channel(false);
        let task = tokio::spawn(write_loop(out, rx, close_rx, stream));
        Writer { tx, close, task }
    }

    /// Flush what is queued, then end the task (bounded wait).
    async fn close(self, grace: Duration) {
        let _ = self.close.send(true);
        let _ = tokio::time::timeout(grace, self.task).await;
    }
}

async fn write_loop<W: AsyncWrite + Unpin>(
    mut out: W,
    mut rx: mpsc::Receiver<Vec<u8>>,
    mut close: watch::Receiver<bool>,
    stream: &'static str,
) {
    let mut broken = false;
    // Reused for every frame's header (and small body): no allocation per message.
    let mut scratch = Vec::new();
    loop {
        tokio::select! {
            biased;
            msg = rx.recv() => match msg {
                Some(bytes) => {
                    if !broken {
                        if let Err(e) = wire::write_frame_with(&mut out, &bytes, &mut scratch).await {
                            tracing::warn!(stream, error = %e, "cannot write; dropping further frames");
                            broken = true;
                        }
                    }
                }
                None => break,
            },
            changed = close.changed() => {
                if changed.is_err() || *close.borrow() {
                    while let Ok(bytes) = rx.try_recv() {
                        if broken { continue; }
                        if wire::write_frame_with(&mut out, &bytes, &mut scratch).await.is_err() {
                            broken = true;
                        }
                    }
                    break;
                }
            }
        }
    }
    // Dropping `out` closes the pipe (Lean sees EOF on stdin).
}

/// State both reader loops share.
struct Shared<H> {
    hooks: Arc<H>,
    lean: Arc<LeanClient>,
    /// Own requests into Lean.
    lean_pending: Arc<PendingTable>,
    /// Editor requests forwarded to Lean whose reply has not come back yet: answered with an
    /// error if Lean goes away first. An insert and a remove per request.
    editor_waiting: DashMap<RequestId, ()>,
    /// Own server→client requests into the editor (`ToEditor::Request`).
    editor_pending: PendingTable,
    to_lean: mpsc::Sender<Vec<u8>>,
    to_editor: mpsc::Sender<Vec<u8>>,
    initialize_id: Mutex<Option<RequestId>>,
    /// Editor requests whose Lean reply the features augment: id → (method, params).
    augmented: DashMap<RequestId, (String, Value)>,
    /// Editor requests the features answer: id → task, for `$/cancelRequest`.
    own_inflight: DashMap<RequestId, AbortHandle>,
    shutdown_forwarded: AtomicBool,
    exit_forwarded: AtomicBool,
    /// When Lean last reported progress on an editor document and on a hidden one.
    progress: Mutex<Progress>,
}

/// The last `$/lean/fileProgress` seen for editor documents and for hidden ones: a worker
/// sends `workspace/semanticTokens/refresh` (and inlay hint refreshes) after its processing
/// state changed (`runRefreshTask`, src/Lean/Server/FileWorker.lean: at most one every 2 s,
/// checked every 1 s), with no URI and an id the watchdog renumbers, so only the timing tells
/// whose work caused it.
#[derive(Default)]
struct Progress {
    visible: Option<std::time::Instant>,
    hidden: Option<std::time::Instant>,
}

/// How far back a progress report counts as the cause of a refresh request.
const REFRESH_CAUSE_WINDOW: std::time::Duration = std::time::Duration::from_millis(3500);

impl Progress {
    /// A refresh only the proxy's own documents can have caused (none of the editor's made
    /// progress lately, one of ours did).
    fn refresh_is_ours(&self, now: std::time::Instant) -> bool {
        let recent = |t: Option<std::time::Instant>| {
            t.is_some_and(|t| now.duration_since(t) <= REFRESH_CAUSE_WINDOW)
        };
        recent(self.hidden) && !recent(self.visible)
    }
}

/// Run a session until one side ends. `make_hooks` builds the features from the channel they
/// talk to the editor on and the proxy's Lean client.
pub async fn run<H, EI, EO, LI, LO, F>(
    editor_in: EI,
    editor_out: EO,
    lean_in: LI,
    lean_out: LO,
    config: RouterConfig,
    make_hooks: F,
) -> RouterEnd
where
    H: Hooks,
    EI: AsyncBufRead + Unpin + Send + 'static,
    EO: AsyncWrite + Unpin + Send + 'static,
    LI: AsyncBufRead + Unpin + Send + 'static,
    LO: AsyncWrite + Unpin + Send + 'static,
    F: FnOnce(mpsc::Sender<ToEditor>, Arc<LeanClient>) -> H,
{
    let editor = Writer::spawn(editor_out, config.queue_frames, "proxy→editor");
    let lean_writer = Writer::spawn(lean_out, config.queue_frames, "proxy→lean");
    let lean_pending = Arc::new(PendingTable::new());
    let lean = Arc::new(LeanClient::new(lean_writer.tx.clone(), lean_pending.clone()));
    let (features_tx, features_rx) = mpsc::channel(config.to_editor_queue);
    let hooks = Arc::new(make_hooks(features_tx, lean.clone()));
    let shared = Arc::new(Shared {
        hooks,
        lean: lean.clone(),
        lean_pending: lean_pending.clone(),
        editor_waiting: DashMap::new(),
        editor_pending: PendingTable::new(),
        to_lean: lean_writer.tx.clone(),
        to_editor: editor.tx.clone(),
        initialize_id: Mutex::new(None),
        augmented: DashMap::new(),
        own_inflight: DashMap::new(),
        shutdown_forwarded: AtomicBool::new(false),
        progress: Mutex::new(Progress::default()),
        exit_forwarded: AtomicBool::new(false),
    });

    let features_task = tokio::spawn(to_editor_loop(features_rx, shared.clone()));
    let mut editor_task =
        tokio::spawn(editor_loop(FrameReader::new(editor_in, "editor→proxy"), shared.clone()));
    let mut lean_task =
        tokio::spawn(lean_loop(FrameReader::new(lean_in, "lean→proxy"), shared.clone()));

    let mut lean_stream_error = None;
    let mut lean_died_mid_frame = false;
    let mut failed_requests = 0;
    let reason = tokio::select! {
        _ = &mut editor_task => {
            if !shared.exit_forwarded.load(Ordering::Acquire) {
                // The editor left without `exit`: end Lean the way an editor would (fixtures/lean-protocol/README §2).
                tracing::info!("the editor closed its stream; shutting the Lean server down");
                if !shared.shutdown_forwarded.load(Ordering::Acquire) {
                    shared.hooks.on_shutdown();
                    if let Err(e) = lean.request(methods::SHUTDOWN, Value::Null, config.shutdown_grace).await {
                        tracing::warn!(error = %e, "no reply to shutdown");
                    }
                }
                let _ = lean.notify(methods::EXIT, Value::Null).await;
            }
            lean_writer.close(config.shutdown_grace).await;
            if tokio::time::timeout(config.shutdown_grace, &mut lean_task).await.is_err() {
                lean_task.abort();
            }
            EndReason::EditorClosed
        }
        ended = &mut lean_task => {
            if let Ok(Some(e)) = ended {
                lean_died_mid_frame = matches!(e, wire::FrameError::Truncated { .. });
                lean_stream_error = Some(e.to_string());
            }
            editor_task.abort();
            lean_writer.close(Duration::from_millis(200)).await;
            // Fail the waiting requests before waking the features' waiters (the drain below),
            // so an own request gets this answer, not a race between two.
            failed_requests = fail_waiting_requests(&shared).await;
            EndReason::LeanClosed
        }
    };
    lean_pending.drain();
    features_task.abort();
    for entry in shared.own_inflight.iter() {
        entry.value().abort();
    }
    RouterEnd {
        reason,
        exit_forwarded: shared.exit_forwarded.load(Ordering::Acquire),
        shutdown_forwarded: shared.shutdown_forwarded.load(Ordering::Acquire),
        lean_stream_error,
        lean_died_mid_frame,
        failed_requests,
        editor,
    }
}

/// Lean is gone: answer every editor request still waiting for it, and every request the
/// features were answering (their tasks are aborted next), with [`codes::REQUEST_FAILED`].
/// The editor's reader is stopped already, so no new request can slip in behind this.
async fn fail_waiting_requests<H: Hooks>(shared: &Shared<H>) -> usize {
    let mut ids: Vec<RequestId> = shared.editor_waiting.iter().map(|e| e.key().clone()).collect();
    shared.editor_waiting.clear();
    // Whoever removes an own request's entry answers it (the task itself, the cancel path, or
    // this): one reply each, never two.
    let own: Vec<RequestId> = shared.own_inflight.iter().map(|e| e.key().clone()).collect();
    for id in own {
        if let Some((_, task)) = shared.own_inflight.remove(&id) {
            task.abort();
            ids.push(id);
        }
    }
    for id in &ids {
        tracing::warn!(%id, "the Lean server went away before answering; failing the request");
        reply_error(
            &shared.to_editor,
            id,
            codes::REQUEST_FAILED,
            "lean-assess: the Lean server stopped before answering this request",
        )
        .await;
    }
    ids.len()
}

/// Answers the editor's request `id` with an error of the proxy's own.
async fn reply_error(to_editor: &mpsc::Sender<Vec<u8>>, id: &RequestId, code: i64, message: &str) {
    let reply = response_body(id, Err((code, message.into())));
    forward(to_editor, reply, "proxy→editor").await;
}

async fn forward(tx: &mpsc::Sender<Vec<u8>>, bytes: Vec<u8>, stream: &'static str) {
    if tx.send(bytes).await.is_err() {
        tracing::debug!(stream, "writer gone; frame dropped");
    }
}

/// Editor → Lean.
async fn editor_loop<R: AsyncBufRead + Unpin, H: Hooks>(
    mut reader: FrameReader<R>,
    shared: Arc<Shared<H>>,
) {
    const TO: &str = "proxy→lean";
    loop {
        let frame = match reader.read_frame().await {
            Ok(Some(frame)) => frame,
            Ok(None) => return,
            Err(e) => {
                tracing::error!(error = %e, "ending the editor's stream");
                return;
            }
        };
        let bytes = frame.bytes;
        match wire::peek(&bytes) {
            Peek::Request { id, method } => {
                let span = tracing::debug_span!("editor request", %id, method = %method);
                let _guard = span.enter();
                // An id in this process's own id space (its nonce is seen by the editor in our
                // server→client requests): Lean's reply would be taken for one of ours and the
                // editor's request never answered. Refused before Lean sees it.
                if id.as_str().and_then(OwnId::parse).is_some() {
                    tracing::warn!(%id, "editor request with an id reserved by the proxy; refused");
                    reply_error(&shared.to_editor, &id, codes::INVALID_REQUEST, "Invalid Request: ids starting with this proxy's own prefix are reserved; use another id").await;
                    continue;
                }
                if method == methods::INITIALIZE {
                    shared.hooks.on_initialize_request(&params_of(&bytes));
                    *shared
                        .initialize_id
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(id.clone());
                } else if method == methods::SHUTDOWN {
                    shared.hooks.on_shutdown();
                    shared.shutdown_forwarded.store(true, Ordering::Release);
                } else {
                    let may_own = shared.hooks.may_own(&method);
                    let wants = shared.hooks.wants_response(&method);
                    let params = if may_own || wants { params_of(&bytes) } else { Value::Null };
                    if let Some(fut) =
                        may_own.then(|| shared.hooks.own_request(&method, &params)).flatten()
                    {
                        spawn_own_request(&shared, id, method, fut);
                        continue;
                    }
                    if wants {
                        shared.augmented.insert(id.clone(), (method, params));
                    }
                }
                shared.editor_waiting.insert(id, ());
                forward(&shared.to_lean, bytes, TO).await;
            }
            Peek::Notification { method } => {
                if method == methods::CANCEL_REQUEST {
                    if let Some(id) = cancelled_id(&bytes) {
                        if let Some((_, task)) = shared.own_inflight.remove(&id) {
                            task.abort();
                            reply_error(
                                &shared.to_editor,
                                &id,
                                codes::REQUEST_CANCELLED,
                                "request cancelled",
                            )
                            .await;
                            continue;
                        }
                    }
                } else if method == methods::EXIT {
                    shared.exit_forwarded.store(true, Ordering::Release);
                }
                if shared.hooks.observes(&method) {
                    let params = if method == methods::DID_OPEN {
                        did_open_params(&bytes).unwrap_or_else(|| params_of(&bytes))
                    } else {
                        params_of(&bytes)
                    };
                    shared.hooks.observe_client_notification(&method, params);
                }
                forward(&shared.to_lean, bytes, TO).await;
            }
            Peek::Response { id } => {
                if let Some(own) = id.as_str().and_then(OwnId::parse) {
                    // The editor's reply to one of our own server→client requests.
                    let method = shared.editor_pending.complete(&own, reply_of(&bytes));
                    tracing::debug!(%own, ?method, "editor replied to an own request");
                    continue;
                }
                forward(&shared.to_lean, bytes, TO).await;
            }
            Peek::Invalid { id: Some(id) } => {
                tracing::warn!(body = %wire::excerpt(&bytes), "invalid request from the editor");
                reply_error(
                    &shared.to_editor,
                    &id,
                    codes::INVALID_REQUEST,
                    "Invalid Request: `method` is not a string",
                )
                .await;
            }
            Peek::Invalid { id: None } | Peek::Other | Peek::NotJson => {
                tracing::warn!(body = %wire::excerpt(&bytes), "unroutable message from the editor; forwarded unchanged");
                forward(&shared.to_lean, bytes, TO).await;
            }
        }
    }
}

fn spawn_own_request<H: Hooks>(
    shared: &Arc<Shared<H>>,
    id: RequestId,
    method: String,
    fut: OwnFuture,
) {
    let shared_for_task = shared.clone();
    let task_id = id.clone();
    // The task starts only once its abort handle is registered, so a quick answer always finds
    // its entry and a cancel always finds the task.
    let (registered, wait_registered) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        if wait_registered.await.is_err() {
            return;
        }
        let result = fut.await.map_err(|e| (e.code, e.message));
        // Answer only if not cancelled meanwhile (the cancel path answered already).
        if shared_for_task.own_inflight.remove(&task_id).is_some() {
            tracing::debug!(id = %task_id, method = %method, "answered an own request");
            let body = response_body(&task_id, result);
            let _ = shared_for_task.to_editor.send(body).await;
        }
    });
    shared.own_inflight.insert(id, task.abort_handle());
    let _ = registered.send(());
}

/// `$/lean/fileProgress` (fixtures/lean-protocol/README §5).
const FILE_PROGRESS: &str = "$/lean/fileProgress";
/// The refresh requests a worker sends on its own (fixtures/lean-protocol/README §10).
const REFRESHES: [&str; 2] = ["workspace/semanticTokens/refresh", "workspace/inlayHint/refresh"];

/// Lean → editor. Returns the frame error that ended the stream, if it did not end at EOF.
async fn lean_loop<R: AsyncBufRead + Unpin, H: Hooks>(
    mut reader: FrameReader<R>,
    shared: Arc<Shared<H>>,
) -> Option<wire::FrameError> {
    const TO: &str = "proxy→editor";
    let mut stream_error = None;
    loop {
        let frame = match reader.read_frame().await {
            Ok(Some(frame)) => frame,
            Ok(None) => {
                tracing::info!("the Lean server's stdout ended");
                break;
            }
            Err(e) => {
                tracing::error!(error = %e, "ending the Lean server's stream");
                stream_error = Some(e);
                break;
            }
        };
        let mut bytes = frame.bytes;
        match wire::peek(&bytes) {
            Peek::Response { id } => {
                if let Some(own) = id.as_str().and_then(OwnId::parse) {
                    let method = shared.lean_pending.complete(&own, reply_of(&bytes));
                    tracing::debug!(%own, ?method, "Lean replied to an own request");
                    continue;
                }
                shared.editor_waiting.remove(&id);
                let is_initialize = {
                    let mut init = shared
                        .initialize_id
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    if init.as_ref() == Some(&id) {
                        *init = None;
                        true
                    } else {
                        false
                    }
                };
                if is_initialize {
                    let hooks = &shared.hooks;
                    bytes = rewrite_field(bytes, "result", |r| hooks.augment_initialize_result(r));
                } else if let Some((_, (method, params))) = shared.augmented.remove(&id) {
                    let hooks = &shared.hooks;
                    bytes = rewrite_field(bytes, "result", |r| {
                        hooks.augment_response(&method, &params, r)
                    });
                }
                forward(&shared.to_editor, bytes, TO).await;
            }
            Peek::Notification { method } => {
                let hidden = shared.lean.has_hidden()
                    && wire::peek_uri(&bytes).is_some_and(|uri| shared.lean.is_hidden(&uri));
                if method == FILE_PROGRESS {
                    let mut p =
                        shared.progress.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    let now = Some(std::time::Instant::now());
                    if hidden {
                        p.hidden = now;
                    } else {
                        p.visible = now;
                    }
                }
                if hidden {
                    tracing::trace!(%method, "consumed a notification about a hidden document");
                    continue;
                }
                if method == methods::PUBLISH_DIAGNOSTICS {
                    let ours = shared.hooks.lean_diagnostics(&bytes);
                    if !ours.is_empty() {
                        bytes = rewrite_field(bytes, "params", |mut p| {
                            if let Some(list) = p["diagnostics"].as_array_mut() {
                                list.extend(ours);
                            }
                            p
                        });
                    }
                }
                forward(&shared.to_editor, bytes, TO).await;
            }
            Peek::Request { id, method } if REFRESHES.contains(&method.as_str()) => {
                let ours = shared
                    .progress
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .refresh_is_ours(std::time::Instant::now());
                if ours {
                    // Answered here (`null`, as the editor would): the editor would otherwise
                    // ask again for the tokens of every visible file.
                    tracing::debug!(%method, "refresh caused by hidden documents; answered, not forwarded");
                    let reply = json!({"jsonrpc": "2.0", "id": id.to_json(), "result": null});
                    let bytes =
                        serde_json::to_vec(&reply).expect("BUG: a JSON value always serializes");
                    forward(&shared.to_lean, bytes, "proxy→lean").await;
                } else {
                    forward(&shared.to_editor, bytes, TO).await;
                }
            }
            Peek::Request { .. } => forward(&shared.to_editor, bytes, TO).await,
            Peek::Invalid { .. } | Peek::Other | Peek::NotJson => {
                tracing::warn!(body = %wire::excerpt(&bytes), "unroutable message from Lean; forwarded unchanged");
                forward(&shared.to_editor, bytes, TO).await;
            }
        }
    }
    // The pending table is drained by `run` once the editor's waiting requests are answered.
    stream_error
}

/// Features → editor: notifications as they are, requests with a minted own id.
async fn to_editor_loop<H: Hooks>(mut rx: mpsc::Receiver<ToEditor>, shared: Arc<Shared<H>>) {
    while let Some(msg) = rx.recv().await {
        let body = match msg {
            ToEditor::Notification { method, params } => {
                json!({"jsonrpc": "2.0", "method": method, "params": params})
            }
            ToEditor::Request { method, params } => {
                // The receiver is dropped: nobody awaits the editor's reply, it is only logged.
                let (id, _reply) = shared.editor_pending.register(&method);
                json!({"jsonrpc": "2.0", "id": id.as_str(), "method": method, "params": params})
            }
            ToEditor::Ask { method, params, reply } => {
                let (id, answer) = shared.editor_pending.register(&method);
                tokio::spawn(async move {
                    reply.send(match answer.await {
                        Ok(Reply::Result(v)) => v,
                        _ => Value::Null,
                    });
                });
                json!({"jsonrpc": "2.0", "id": id.as_str(), "method": method, "params": params})
            }
        };
        let bytes = serde_json::to_vec(&body).expect("BUG: a JSON value always serializes");
        forward(&shared.to_editor, bytes, "proxy→editor").await;
    }
}
