//! The features' side of the router interface: what they send the editor ([`ToEditor`], through
//! the non-blocking [`Outbox`]), and what their own requests answer ([`JsonText`], [`OwnError`]).
//! Framing, ids and writing frames are the router's; nothing here reads documents or analyses.

use super::lock;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// Messages the features want delivered to the editor (the router writes them as frames).
#[derive(Debug, Clone, PartialEq)]
pub enum ToEditor {
    /// A notification, e.g. textDocument/publishDiagnostics (merged), window/showMessage.
    Notification { method: String, params: Value },
    /// A server→client request. The router mints an own id and consumes the editor's reply.
    Request { method: String, params: Value },
    /// A server→client request whose answer the features wait for (`window/showMessageRequest`):
    /// the router sends the editor's `result` (`null` on an error or a closed stream) to `reply`.
    Ask { method: String, params: Value, reply: AnswerSlot },
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

/// At most this many distinct messages are remembered as already shown.
const TOLD_CAPACITY: usize = 256;

/// The queue of messages to the editor, and the messages already shown with
/// `window/showMessage` (each once).
pub(super) struct Outbox {
    to_editor: mpsc::Sender<ToEditor>,
    told: Mutex<HashSet<String>>,
}

impl Outbox {
    pub(super) fn new(to_editor: mpsc::Sender<ToEditor>) -> Outbox {
        Outbox { to_editor, told: Mutex::default() }
    }

    pub(super) fn send(&self, m: ToEditor) {
        // Never block the caller: a full queue drops the message (the editor will ask again).
        if let Err(e) = self.to_editor.try_send(m) {
            tracing::warn!(%e, "to-editor queue full or closed; dropped a features message");
        }
    }

    /// `window/showMessage` of `message`, unless it was shown already.
    pub(super) fn show_message(&self, kind: u8, message: String) {
        let fresh = {
            let mut told = lock(&self.told);
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
}
