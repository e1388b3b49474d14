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
//!   `"register_lean_watcher"`, the refresh requests with numeric ids; README §10) and their
//!   replies with the id unchanged (Lean's watchdog maps them back itself). Only `id` and
//!   `method` are parsed to route ([`crate::wire::peek`]).
//! - Re-serialized, keeping every other field of Lean's JSON: the `initialize` result
//!   (capabilities added by the features), replies to the requests the features augment
//!   (hover, codeAction), and `textDocument/publishDiagnostics` when the features have
//!   diagnostics of their own to add (merged in, since a second publish for a URI would replace
//!   Lean's: architecture.md); without any, it is forwarded as its bytes.
//! - Own traffic never reaches the editor: replies to ids `"lean-assess:<nonce>:<n>"` (the
//!   nonce random per process, [`crate::pending::own_id_prefix`]) go to the
//!   [`PendingTable`], and Lean's notifications about hidden URIs are dropped (README §3).
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

use crate::features::{Features, JsonText, OwnFuture, ToEditor};
use crate::lean::LeanClient;
use crate::pending::{OwnId, PendingTable, Reply};
use crate::wire::{self, FrameReader, Peek, RequestId};
use dashmap::DashMap;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufRead, AsyncWrite};
use tokio::sync::{mpsc, watch};
use tokio::task::{AbortHandle, JoinHandle};

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
    let lean = Arc::new(LeanClient::new(
        lean_writer.tx.clone(),
        lean_pending.clone(),
    ));
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
    let mut editor_task = tokio::spawn(editor_loop(
        FrameReader::new(editor_in, "editor→proxy"),
        shared.clone(),
    ));
    let mut lean_task = tokio::spawn(lean_loop(
        FrameReader::new(lean_in, "lean→proxy"),
        shared.clone(),
    ));

    let mut lean_stream_error = None;
    let mut lean_died_mid_frame = false;
    let mut failed_requests = 0;
    let reason = tokio::select! {
        _ = &mut editor_task => {
            if !shared.exit_forwarded.load(Ordering::Acquire) {
                // The editor left without `exit`: end Lean the way an editor would (README §2).
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
    let mut ids: Vec<RequestId> = shared
        .editor_waiting
        .iter()
        .map(|e| e.key().clone())
        .collect();
    shared.editor_waiting.clear();
    // Whoever removes an own request's entry answers it (the task itself, the cancel path, or
    // this): one reply each, never two.
    let own: Vec<RequestId> = shared
        .own_inflight
        .iter()
        .map(|e| e.key().clone())
        .collect();
    for id in own {
        if let Some((_, task)) = shared.own_inflight.remove(&id) {
            task.abort();
            ids.push(id);
        }
    }
    for id in &ids {
        tracing::warn!(%id, "the Lean server went away before answering; failing the request");
        let reply = response_body(
            id,
            Err((
                codes::REQUEST_FAILED,
                "lean-assess: the Lean server stopped before answering this request".into(),
            )),
        );
        forward(&shared.to_editor, reply, "proxy→editor").await;
    }
    ids.len()
}

#[derive(Deserialize)]
struct ParamsOnly {
    #[serde(default)]
    params: Value,
}

/// The `params` of a message (`Null` when absent or unreadable).
fn params_of(bytes: &[u8]) -> Value {
    serde_json::from_slice::<ParamsOnly>(bytes)
        .map(|p| p.params)
        .unwrap_or(Value::Null)
}

#[derive(Deserialize)]
struct OpenBody<'a> {
    #[serde(borrow)]
    params: OpenParamsRaw<'a>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OpenParamsRaw<'a> {
    #[serde(borrow)]
    text_document: OpenItemRaw<'a>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OpenItemRaw<'a> {
    uri: Value,
    #[serde(default)]
    language_id: Value,
    version: Value,
    #[serde(borrow)]
    text: &'a RawValue,
}

/// A `didOpen`'s params with the text decoded straight into one string of the right size.
/// serde_json decodes an escaped string (every line break of a file is `\n`) through a scratch
/// buffer grown by doubling, then copies it: up to three times the text at once on top of the
/// frame. `None` when the message is not of that shape (the caller parses it the usual way).
fn did_open_params(bytes: &[u8]) -> Option<Value> {
    let body: OpenBody<'_> = serde_json::from_slice(bytes).ok()?;
    let item = body.params.text_document;
    let text = unescape_json_string(item.text.get())?;
    Some(json!({"textDocument": {
        "uri": item.uri,
        "languageId": item.language_id,
        "version": item.version,
        "text": Value::String(text),
    }}))
}

/// The string a JSON string literal (quotes included, already validated by serde_json) stands
/// for (RFC 8259 §7). `None` on anything else, e.g. a lone surrogate (which serde_json rejects
/// too).
fn unescape_json_string(literal: &str) -> Option<String> {
    let inner = literal.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    let hex4 = |s: &str| -> Option<u32> {
        let h = s.get(..4)?;
        h.bytes()
            .all(|b| b.is_ascii_hexdigit())
            .then(|| u32::from_str_radix(h, 16).ok())
            .flatten()
    };
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let esc = *rest.as_bytes().get(i + 1)?;
        rest = rest.get(i + 2..)?;
        match esc {
            b'"' => out.push('"'),
            b'\\' => out.push('\\'),
            b'/' => out.push('/'),
            b'b' => out.push('\u{8}'),
            b'f' => out.push('\u{c}'),
            b'n' => out.push('\n'),
            b'r' => out.push('\r'),
            b't' => out.push('\t'),
            b'u' => {
                let hi = hex4(rest)?;
                rest = &rest[4..];
                let c = if (0xD800..0xDC00).contains(&hi) {
                    let lo = rest.strip_prefix("\\u").and_then(hex4)?;
                    if !(0xDC00..0xE000).contains(&lo) {
                        return None;
                    }
                    rest = &rest[6..];
                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))?
                } else {
                    char::from_u32(hi)?
                };
                out.push(c);
            }
            _ => return None,
        }
    }
    out.push_str(rest);
    Some(out)
}

/// Re-serialize `bytes` with `field` replaced by `f(old)`, keeping every other field and the
/// key order (serde_json `preserve_order`). Unparseable input is returned unchanged.
fn rewrite_field(bytes: Vec<u8>, field: &str, f: impl FnOnce(Value) -> Value) -> Vec<u8> {
    let Ok(mut object) = serde_json::from_slice::<Map<String, Value>>(&bytes) else {
        return bytes;
    };
    let Some(old) = object.get_mut(field) else {
        return bytes;
    };
    let new = f(old.take());
    *old = new;
    serde_json::to_vec(&object).unwrap_or(bytes)
}

/// A JSON-RPC response: our own answer's JSON text is written as it is (the code lens answer is
/// put together from per-theorem texts, not parsed again).
fn response_body(id: &RequestId, result: Result<JsonText, (i64, String)>) -> Vec<u8> {
    match result {
        Ok(result) => {
            let text = result.get();
            let mut body = Vec::with_capacity(text.len() + 48);
            body.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
            serde_json::to_writer(&mut body, &id.to_json())
                .expect("BUG: a JSON value always serializes");
            body.extend_from_slice(br#","result":"#);
            body.extend_from_slice(text.as_bytes());
            body.push(b'}');
            body
        }
        Err((code, message)) => serde_json::to_vec(
            &json!({"jsonrpc": "2.0", "id": id.to_json(), "error": {"code": code, "message": message}}),
        )
        .expect("BUG: a JSON value always serializes"),
    }
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
                    let reply = response_body(
                        &id,
                        Err((
                            codes::INVALID_REQUEST,
                            "Invalid Request: ids starting with this proxy's own prefix are reserved; use another id".into(),
                        )),
                    );
                    forward(&shared.to_editor, reply, "proxy→editor").await;
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
                    let params = if may_own || wants {
                        params_of(&bytes)
                    } else {
                        Value::Null
                    };
                    if let Some(fut) = may_own
                        .then(|| shared.hooks.own_request(&method, &params))
                        .flatten()
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
                            let reply = response_body(
                                &id,
                                Err((codes::REQUEST_CANCELLED, "request cancelled".into())),
                            );
                            forward(&shared.to_editor, reply, "proxy→editor").await;
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
                let reply = response_body(
                    &id,
                    Err((
                        codes::INVALID_REQUEST,
                        "Invalid Request: `method` is not a string".into(),
                    )),
                );
                forward(&shared.to_editor, reply, "proxy→editor").await;
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

#[derive(Deserialize)]
struct CancelParams {
    params: CancelId,
}
#[derive(Deserialize)]
struct CancelId {
    id: Value,
}

fn cancelled_id(bytes: &[u8]) -> Option<RequestId> {
    let p: CancelParams = serde_json::from_slice(bytes).ok()?;
    Some(match p.params.id {
        Value::Number(n) if n.is_i64() => RequestId::Num(n.as_i64()?),
        Value::String(s) => RequestId::Str(s),
        other => RequestId::Other(other.to_string()),
    })
}

#[derive(Deserialize)]
struct ReplyBody {
    #[serde(default)]
    result: Option<Value>,
    #[serde(default)]
    error: Option<ReplyError>,
}
#[derive(Deserialize)]
struct ReplyError {
    code: i64,
    #[serde(default)]
    message: String,
    #[serde(default)]
    data: Option<Value>,
}

fn reply_of(bytes: &[u8]) -> Reply {
    match serde_json::from_slice::<ReplyBody>(bytes) {
        Ok(ReplyBody { error: Some(e), .. }) => Reply::Error {
            code: e.code,
            message: e.message,
            data: e.data,
        },
        Ok(ReplyBody { result, .. }) => Reply::Result(result.unwrap_or(Value::Null)),
        Err(e) => Reply::Error {
            code: codes::INTERNAL_ERROR,
            message: format!("unreadable reply: {e}"),
            data: None,
        },
    }
}

/// Lean → editor. Returns the frame error that ended the stream, if it did not end at EOF.
/// `$/lean/fileProgress` (README §5).
const FILE_PROGRESS: &str = "$/lean/fileProgress";
/// The refresh requests a worker sends on its own (README §10).
const REFRESHES: [&str; 2] = [
    "workspace/semanticTokens/refresh",
    "workspace/inlayHint/refresh",
];

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
                    let mut p = shared
                        .progress
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
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
            ToEditor::Ask {
                method,
                params,
                reply,
            } => {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::OwnError;
    use tokio::io::{AsyncWriteExt, BufReader, DuplexStream};

    /// Scripted hooks: owns `test/own` (answers after the params' `ms`), augments
    /// `textDocument/hover`, tags the initialize result and merged diagnostics.
    struct TestHooks {
        to_editor: mpsc::Sender<ToEditor>,
        lean: Arc<LeanClient>,
        seen: Mutex<Vec<String>>,
    }

    impl Hooks for TestHooks {
        fn on_initialize_request(&self, _params: &Value) {
            self.seen.lock().expect("lock").push("initialize".into());
        }
        fn augment_initialize_result(&self, mut result: Value) -> Value {
            result["capabilities"]["codeLensProvider"] = json!({"resolveProvider": false});
            result
        }
        fn observe_client_notification(&self, method: &str, params: Value) {
            self.seen.lock().expect("lock").push(method.to_string());
            if method == "test/hide" {
                self.lean
                    .hide_uri(params["uri"].as_str().unwrap_or_default());
            }
            if method == "test/askEditor" {
                let _ = self.to_editor.try_send(ToEditor::Request {
                    method: "workspace/codeLens/refresh".into(),
                    params: Value::Null,
                });
            }
        }
        fn own_request(&self, method: &str, params: &Value) -> Option<OwnFuture> {
            if method != "test/own" {
                return None;
            }
            let ms = params["ms"].as_u64().unwrap_or(0);
            let lean = self.lean.clone();
            Some(Box::pin(async move {
                tokio::time::sleep(Duration::from_millis(ms)).await;
                let r = lean
                    .request("$/lean/plainGoal", json!({}), Duration::from_secs(5))
                    .await
                    .map_err(|e| OwnError {
                        code: -32603,
                        message: e.to_string(),
                    })?;
                Ok(crate::features::JsonText::of(&json!({"fromLean": r})))
            }))
        }
        fn wants_response(&self, method: &str) -> bool {
            method == "textDocument/hover"
        }
        fn augment_response(
            &self,
            _method: &str,
            request_params: &Value,
            mut result: Value,
        ) -> Value {
            result["ours"] = request_params.clone();
            result
        }
        fn lean_diagnostics(&self, body: &[u8]) -> Vec<Value> {
            // Nothing of ours for incremental messages (as the features after the first).
            if body.windows(20).any(|w| w == br#""isIncremental":true"#) {
                return Vec::new();
            }
            vec![json!({"source": "lean-assess", "severity": 3})]
        }
    }

    type Half<T> = FrameReader<BufReader<tokio::io::ReadHalf<T>>>;

    struct Harness {
        editor: tokio::io::WriteHalf<DuplexStream>,
        editor_reader: Half<DuplexStream>,
        lean: tokio::io::WriteHalf<DuplexStream>,
        lean_reader: Half<DuplexStream>,
        end: JoinHandle<RouterEnd>,
    }

    fn harness() -> Harness {
        let (editor_side, proxy_editor) = tokio::io::duplex(1 << 16);
        let (lean_side, proxy_lean) = tokio::io::duplex(1 << 16);
        let (pe_r, pe_w) = tokio::io::split(proxy_editor);
        let (pl_r, pl_w) = tokio::io::split(proxy_lean);
        let end = tokio::spawn(run(
            BufReader::new(pe_r),
            pe_w,
            BufReader::new(pl_r),
            pl_w,
            RouterConfig {
                shutdown_grace: Duration::from_millis(300),
                ..RouterConfig::default()
            },
            |to_editor, lean| TestHooks {
                to_editor,
                lean,
                seen: Mutex::new(Vec::new()),
            },
        ));
        let (e_r, e_w) = tokio::io::split(editor_side);
        let (l_r, l_w) = tokio::io::split(lean_side);
        Harness {
            editor: e_w,
            editor_reader: FrameReader::new(BufReader::new(e_r), "editor"),
            lean: l_w,
            lean_reader: FrameReader::new(BufReader::new(l_r), "lean"),
            end,
        }
    }

    async fn send(w: &mut (impl AsyncWrite + Unpin), v: Value) {
        wire::write_frame(w, &serde_json::to_vec(&v).expect("json"))
            .await
            .expect("write");
    }

    async fn recv<R: AsyncBufRead + Unpin>(r: &mut FrameReader<R>) -> Value {
        let f = tokio::time::timeout(Duration::from_secs(5), r.read_frame())
            .await
            .expect("in time")
            .expect("frame")
            .expect("not eof");
        serde_json::from_slice(&f.bytes).expect("json")
    }

    #[tokio::test]
    async fn own_traffic_is_consumed_and_foreign_traffic_forwarded() {
        let mut h = harness();
        // initialize: forwarded, its result augmented with Lean's fields kept.
        send(
            &mut h.editor,
            json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}),
        )
        .await;
        assert_eq!(recv(&mut h.lean_reader).await["method"], "initialize");
        let init: Value = serde_json::from_slice(
            &std::fs::read("fixtures/lean-protocol/examples/wire.initialize-response.json")
                .expect("fixture"),
        )
        .expect("json");
        send(&mut h.lean, init.clone()).await;
        let got = recv(&mut h.editor_reader).await;
        assert_eq!(
            got["result"]["capabilities"]["codeLensProvider"],
            json!({"resolveProvider": false})
        );
        assert_eq!(got["result"]["capabilities"]["hoverProvider"], true);
        assert_eq!(got["result"]["serverInfo"], init["result"]["serverInfo"]);

        // An own request: the features ask Lean; Lean's reply is consumed, the editor gets ours.
        send(
            &mut h.editor,
            json!({"jsonrpc":"2.0","id":2,"method":"test/own","params":{"ms":0}}),
        )
        .await;
        let asked = recv(&mut h.lean_reader).await;
        assert_eq!(asked["method"], "$/lean/plainGoal");
        let own_id = asked["id"].as_str().expect("string id").to_string();
        assert!(own_id.starts_with("lean-assess:"));
        // Hide a document; Lean's notifications about it never reach the editor.
        send(
            &mut h.editor,
            json!({"jsonrpc":"2.0","method":"test/hide","params":{"uri":"file:///scratch.lean"}}),
        )
        .await;
        assert_eq!(recv(&mut h.lean_reader).await["method"], "test/hide");
        send(&mut h.lean, json!({"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///scratch.lean","diagnostics":[]}})).await;
        send(&mut h.lean, json!({"jsonrpc":"2.0","method":"$/lean/fileProgress","params":{"textDocument":{"uri":"file:///scratch.lean","version":1},"processing":[]}})).await;
        send(
            &mut h.lean,
            json!({"jsonrpc":"2.0","id":own_id,"result":{"goals":[]}}),
        )
        .await;
        let reply = recv(&mut h.editor_reader).await;
        assert_eq!(
            reply,
            json!({"jsonrpc":"2.0","id":2,"result":{"fromLean":{"goals":[]}}})
        );

        // Hover is augmented with the request params; diagnostics get ours merged.
        send(
            &mut h.editor,
            json!({"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"p":1}}),
        )
        .await;
        assert_eq!(recv(&mut h.lean_reader).await["id"], 3);
        send(
            &mut h.lean,
            json!({"jsonrpc":"2.0","id":3,"result":{"contents":"x","extra":true}}),
        )
        .await;
        assert_eq!(
            recv(&mut h.editor_reader).await["result"],
            json!({"contents":"x","extra":true,"ours":{"p":1}})
        );
        send(&mut h.lean, json!({"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///a.lean","diagnostics":[],"isIncremental":false}})).await;
        let d = recv(&mut h.editor_reader).await;
        assert_eq!(d["params"]["diagnostics"][0]["source"], "lean-assess");
        assert_eq!(d["params"]["isIncremental"], false);

        // Our own request to the editor: its reply is consumed, not forwarded to Lean.
        send(
            &mut h.editor,
            json!({"jsonrpc":"2.0","method":"test/askEditor","params":{}}),
        )
        .await;
        assert_eq!(recv(&mut h.lean_reader).await["method"], "test/askEditor");
        let ask = recv(&mut h.editor_reader).await;
        assert_eq!(ask["method"], "workspace/codeLens/refresh");
        send(
            &mut h.editor,
            json!({"jsonrpc":"2.0","id":ask["id"].clone(),"result":null}),
        )
        .await;
        // Cancel of an own request in flight: answered -32800 by the proxy, Lean never sees it.
        send(
            &mut h.editor,
            json!({"jsonrpc":"2.0","id":"s4","method":"test/own","params":{"ms":10000}}),
        )
        .await;
        send(
            &mut h.editor,
            json!({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"s4"}}),
        )
        .await;
        assert_eq!(
            recv(&mut h.editor_reader).await["error"]["code"],
            codes::REQUEST_CANCELLED
        );
        // Invalid request answered -32600.
        send(&mut h.editor, json!({"jsonrpc":"2.0","id":5,"method":7})).await;
        assert_eq!(
            recv(&mut h.editor_reader).await["error"]["code"],
            codes::INVALID_REQUEST
        );
        // A marker shows nothing else got to Lean in between.
        send(
            &mut h.editor,
            json!({"jsonrpc":"2.0","method":"marker","params":{}}),
        )
        .await;
        assert_eq!(recv(&mut h.lean_reader).await["method"], "marker");

        // The editor leaves without exit: shutdown (own id) then exit go to Lean.
        h.editor.shutdown().await.expect("close");
        let shutdown = recv(&mut h.lean_reader).await;
        assert_eq!(shutdown["method"], "shutdown");
        send(
            &mut h.lean,
            json!({"jsonrpc":"2.0","id":shutdown["id"].clone(),"result":null}),
        )
        .await;
        assert_eq!(recv(&mut h.lean_reader).await["method"], "exit");
        h.lean.shutdown().await.expect("close");
        let end = h.end.await.expect("join");
        assert_eq!(end.reason, EndReason::EditorClosed);
        assert!(!end.exit_forwarded);
    }

    /// A refresh right after progress on hidden documents only is answered by the proxy and
    /// never reaches the editor; after progress on an editor document it is forwarded.
    #[tokio::test]
    async fn refreshes_caused_by_hidden_documents_stay_in_the_proxy() {
        let mut h = harness();
        send(
            &mut h.editor,
            json!({"jsonrpc":"2.0","method":"test/hide","params":{"uri":"file:///scratch.lean"}}),
        )
        .await;
        assert_eq!(recv(&mut h.lean_reader).await["method"], "test/hide");
        let progress = |uri: &str| {
            json!({"jsonrpc":"2.0","method":"$/lean/fileProgress",
                   "params":{"textDocument":{"uri":uri,"version":1},"processing":[]}})
        };
        let refresh =
            |id: i64| json!({"id":id,"jsonrpc":"2.0","method":"workspace/semanticTokens/refresh"});
        send(&mut h.lean, progress("file:///scratch.lean")).await;
        send(&mut h.lean, refresh(4)).await;
        assert_eq!(
            recv(&mut h.lean_reader).await,
            json!({"jsonrpc":"2.0","id":4,"result":null})
        );
        send(&mut h.lean, progress("file:///a.lean")).await;
        assert_eq!(
            recv(&mut h.editor_reader).await["method"],
            "$/lean/fileProgress"
        );
        send(&mut h.lean, refresh(5)).await;
        assert_eq!(recv(&mut h.editor_reader).await, refresh(5));
    }

    #[tokio::test]
    async fn diagnostics_with_nothing_of_ours_pass_byte_exact() {
        let mut h = harness();
        // Odd spacing and a float Lean might write: re-serializing would change both.
        let body = br#"{"jsonrpc":"2.0", "method":"textDocument/publishDiagnostics","params":{"uri":"file:///a.lean","version":2,"diagnostics":[{"x":1.50}],"isIncremental":true}}"#;
        wire::write_frame(&mut h.lean, body).await.expect("write");
        let got = tokio::time::timeout(Duration::from_secs(5), h.editor_reader.read_frame())
            .await
            .expect("in time")
            .expect("frame")
            .expect("not eof");
        assert_eq!(got.bytes, body);
    }

    #[tokio::test]
    async fn lean_closing_ends_the_session_and_fails_waiters() {
        let mut h = harness();
        send(
            &mut h.editor,
            json!({"jsonrpc":"2.0","id":1,"method":"test/own","params":{"ms":0}}),
        )
        .await;
        let _asked = recv(&mut h.lean_reader).await;
        h.lean.shutdown().await.expect("close");
        let end = h.end.await.expect("join");
        assert_eq!(end.reason, EndReason::LeanClosed);
        assert_eq!(end.failed_requests, 1);
        end.notify_editor(methods::SHOW_MESSAGE, json!({"type":1,"message":"gone"}))
            .await;
        end.finish().await;
        // The own request still waiting for Lean is answered RequestFailed, before the message.
        let got = recv(&mut h.editor_reader).await;
        assert_eq!(got["id"], 1);
        assert_eq!(got["error"]["code"], codes::REQUEST_FAILED);
        let got = recv(&mut h.editor_reader).await;
        assert_eq!(got["params"]["message"], "gone");
    }

    #[tokio::test]
    async fn requests_waiting_for_a_dead_lean_get_an_error_reply() {
        let mut h = harness();
        for id in [json!(1), json!("two")] {
            send(
                &mut h.editor,
                json!({"jsonrpc":"2.0","id":id,"method":"textDocument/hover","params":{}}),
            )
            .await;
            recv(&mut h.lean_reader).await;
        }
        // Lean answers one, then dies in the middle of the next frame.
        send(&mut h.lean, json!({"jsonrpc":"2.0","id":1,"result":null})).await;
        assert_eq!(recv(&mut h.editor_reader).await["id"], 1);
        h.lean
            .write_all(b"Content-Length: 100\r\n\r\n{\"jsonrpc\"")
            .await
            .expect("write");
        h.lean.shutdown().await.expect("close");
        let end = h.end.await.expect("join");
        assert_eq!(end.reason, EndReason::LeanClosed);
        assert!(end.lean_died_mid_frame);
        assert_eq!(end.failed_requests, 1);
        end.finish().await;
        let got = recv(&mut h.editor_reader).await;
        assert_eq!(got["id"], "two");
        assert_eq!(got["error"]["code"], codes::REQUEST_FAILED);
    }

    #[tokio::test]
    async fn an_editor_request_with_exactly_our_id_is_refused_not_left_unanswered() {
        let mut h = harness();
        let ours = format!("{}1", crate::pending::own_id_prefix());
        send(
            &mut h.editor,
            json!({"jsonrpc":"2.0","id":ours,"method":"textDocument/definition","params":{}}),
        )
        .await;
        let got = recv(&mut h.editor_reader).await;
        assert_eq!(got["id"], ours.as_str());
        assert_eq!(got["error"]["code"], codes::INVALID_REQUEST);
        // Lean never saw it: the next thing it gets is the editor's next request.
        send(
            &mut h.editor,
            json!({"jsonrpc":"2.0","id":7,"method":"textDocument/definition","params":{}}),
        )
        .await;
        assert_eq!(recv(&mut h.lean_reader).await["id"], 7);
    }

    #[tokio::test]
    async fn an_editor_id_that_looks_like_ours_is_answered_not_swallowed() {
        let mut h = harness();
        // A second proxy in a chain, or any client, may use ids in the readable own space.
        for forged in [
            "lean-assess:1".to_string(),
            format!("{}1", crate::pending::OWN_ID_PREFIX),
            "lean-assess:0000000000000000:1".to_string(),
        ] {
            send(
                &mut h.editor,
                json!({"jsonrpc":"2.0","id":forged,"method":"textDocument/definition","params":{}}),
            )
            .await;
            let asked = recv(&mut h.lean_reader).await;
            assert_eq!(asked["id"], forged.as_str());
            send(
                &mut h.lean,
                json!({"jsonrpc":"2.0","id":forged,"result":[]}),
            )
            .await;
            let got = recv(&mut h.editor_reader).await;
            assert_eq!(got, json!({"jsonrpc":"2.0","id":forged,"result":[]}));
            // And the editor's reply to a server request with such an id reaches Lean.
            send(
                &mut h.lean,
                json!({"jsonrpc":"2.0","id":forged,"method":"workspace/configuration","params":{}}),
            )
            .await;
            assert_eq!(recv(&mut h.editor_reader).await["id"], forged.as_str());
            send(
                &mut h.editor,
                json!({"jsonrpc":"2.0","id":forged,"result":[]}),
            )
            .await;
            assert_eq!(recv(&mut h.lean_reader).await["id"], forged.as_str());
        }
    }

    #[test]
    fn the_features_see_the_methods_they_handle_and_no_others() {
        let (tx, _rx) = mpsc::channel(1);
        let f = Features::new(
            crate::features::FeaturesConfig::default(),
            tx,
            Arc::new(LeanClient::disconnected()),
        );
        for m in [
            "textDocument/codeLens",
            "codeLens/resolve",
            "codeAction/resolve",
            "workspace/executeCommand",
        ] {
            assert!(Hooks::may_own(&f, m), "{m}");
        }
        for m in [
            "textDocument/didOpen",
            "textDocument/didChange",
            "workspace/didChangeWatchedFiles",
        ] {
            assert!(Hooks::observes(&f, m), "{m}");
        }
        assert!(!Hooks::may_own(&f, "$/lean/rpc/call"));
        assert!(!Hooks::may_own(&f, "textDocument/semanticTokens/full"));
        assert!(!Hooks::observes(&f, "$/lean/rpc/keepAlive"));
        // Notifications the features do nothing with are not parsed.
        assert!(!Hooks::observes(&f, "initialized"));
        assert!(!Hooks::observes(&f, "custom/bulkUpload"));
        assert!(!Hooks::observes(&f, "workspace/didChangeConfiguration"));
    }

    #[test]
    fn did_open_text_is_decoded_as_serde_json_does() {
        let texts = [
            String::new(),
            "plain".to_string(),
            "import Mathlib\n\ttheorem t : \"∀ x, x = x\" := by\\ rfl\r\n".to_string(),
            "\u{0}\u{1f}\u{7f}\u{8}\u{c} / 🦀 \u{10ffff} ℝ".to_string(),
        ];
        for text in texts {
            let msg = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params":
                {"textDocument": {"uri": "file:///a.lean", "languageId": "lean4", "version": 3, "text": text}}});
            let bytes = serde_json::to_vec(&msg).expect("json");
            assert_eq!(did_open_params(&bytes), Some(msg["params"].clone()));
        }
        // Escapes serde_json writes only on request: \u forms, surrogate pairs, `\/`.
        let raw = r#""a\u00e9\/\ud83e\udd80\u2200""#;
        assert_eq!(
            unescape_json_string(raw),
            serde_json::from_str::<String>(raw).ok()
        );
        assert_eq!(unescape_json_string(r#""\ud83e""#), None);
        assert_eq!(unescape_json_string(r#""\ud83e\u0041""#), None);
        // Not the shape: the caller's usual parse decides.
        assert_eq!(
            did_open_params(br#"{"params":{"textDocument":{"uri":1}}}"#),
            None
        );
    }

    proptest::proptest! {
        #[test]
        fn any_string_round_trips_through_the_decoder(s in ".*") {
            let literal = serde_json::to_string(&s).expect("json");
            proptest::prop_assert_eq!(unescape_json_string(&literal), Some(s));
        }
    }

    #[test]
    fn rewrite_keeps_extra_fields_and_order() {
        let bytes = std::fs::read("fixtures/lean-protocol/examples/wire.initialize-response.json")
            .expect("fixture");
        let out = rewrite_field(bytes.clone(), "result", |mut r| {
            r["capabilities"]["codeLensProvider"] = json!({});
            r
        });
        let before: Value = serde_json::from_slice(&bytes).expect("json");
        let mut after: Value = serde_json::from_slice(&out).expect("json");
        assert_eq!(
            after["result"]["capabilities"]["codeLensProvider"],
            json!({})
        );
        after["result"]["capabilities"]
            .as_object_mut()
            .expect("obj")
            .remove("codeLensProvider");
        assert_eq!(before, after);
        // Key order of Lean's JSON is kept (preserve_order), so the bytes are equal too.
        assert_eq!(
            serde_json::to_vec(&after).expect("json"),
            bytes.trim_ascii_end()
        );
        assert_eq!(rewrite_field(b"nope".to_vec(), "result", |r| r), b"nope");
    }
}
