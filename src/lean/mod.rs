//! The proxy's own client of the Lean server: own requests, notifications, hidden documents.
//!
//! Owns: [`LeanClient`], the handle the features use (off the forwarding path) to talk to Lean
//! through the same ordered writer the router forwards the editor's messages on. Requests get
//! ids `"lean-assess:<n>"` registered in a [`PendingTable`] before the frame is queued; a timeout
//! removes the entry and sends `$/cancelRequest` (helix `call_with_timeout`, plus the cancel
//! helix leaves out); when Lean's stream ends the router drains the table so every waiter gets
//! [`LeanError::Closed`]. Hidden URIs: notifications from Lean about them are consumed by the
//! router (README §3: "filter out all notifications for its private URIs", including the empty
//! diagnostics sent on close).
//!
//! Leaves to others: spawning the server (`process`), routing replies (`router`), what to ask
//! (`features`).

pub mod batch;
pub mod beq_checker;
pub mod goals;
pub mod oracle;
pub mod process;
pub mod scopes;
pub mod scratch;

use crate::pending::{OwnId, PendingTable, Reply};
use dashmap::DashSet;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// Why an own request into Lean gave no result.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LeanError {
    #[error("request {id} ({method}) to the Lean server timed out")]
    Timeout { id: String, method: String },
    #[error("the Lean server's stream is closed")]
    Closed,
    /// Lean answered with a JSON-RPC error (e.g. `-32801` file changed, `-32900` RPC session
    /// outdated: README §7).
    #[error("the Lean server answered {method} with error {code}: {message}")]
    Response { method: String, code: i64, message: String },
}

/// A frame body queued for Lean's stdin, in order with the editor's forwarded messages.
pub type ToLean = mpsc::Sender<Vec<u8>>;

/// Handle for the proxy's own traffic into Lean. Cheap to share (`Arc`).
pub struct LeanClient {
    to_lean: ToLean,
    pending: Arc<PendingTable>,
    hidden: DashSet<String>,
}

impl LeanClient {
    /// `to_lean`: the router's writer queue into Lean's stdin; `pending`: the table the router
    /// completes when a reply with an own id comes back.
    pub fn new(to_lean: ToLean, pending: Arc<PendingTable>) -> LeanClient {
        LeanClient { to_lean, pending, hidden: DashSet::new() }
    }

    /// A client with no server behind it: every call fails at once with [`LeanError::Closed`],
    /// which the features treat as "Lean absent" (source-text trees). For tests and offline use.
    pub fn disconnected() -> LeanClient {
        let (to_lean, _closed) = mpsc::channel(1);
        LeanClient::new(to_lean, Arc::new(PendingTable::new()))
    }

    /// Send a request with an own id, await the reply or time out (then remove the pending
    /// entry and send `$/cancelRequest`).
    #[tracing::instrument(skip_all, fields(method, id))]
    pub async fn request(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, LeanError> {
        let (id, reply) = self.pending.register(method);
        tracing::Span::current().record("method", method).record("id", id.as_str());
        let body = json!({"jsonrpc": "2.0", "id": id.as_str(), "method": method, "params": params});
        if self.send(&body).await.is_err() {
            self.pending.remove(&id);
            return Err(LeanError::Closed);
        }
        match tokio::time::timeout(timeout, reply).await {
            Ok(Ok(Reply::Result(value))) => Ok(value),
            Ok(Ok(Reply::Error { code, message, .. })) => {
                Err(LeanError::Response { method: method.to_string(), code, message })
            }
            Ok(Ok(Reply::Closed)) | Ok(Err(_)) => Err(LeanError::Closed),
            Err(_elapsed) => {
                self.cancel(&id).await;
                Err(LeanError::Timeout { id: id.to_string(), method: method.to_string() })
            }
        }
    }

    /// Stop waiting for `id` and tell Lean (no-op when the reply already came).
    async fn cancel(&self, id: &OwnId) {
        if self.pending.remove(id) {
            tracing::debug!(%id, "cancelling own request");
            let body = json!({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": id.as_str()}});
            let _ = self.send(&body).await;
        }
    }

    /// Send a notification into Lean (didOpen/didChange/didClose of hidden documents, keepAlive).
    pub async fn notify(&self, method: &str, params: Value) -> Result<(), LeanError> {
        let body = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.send(&body).await
    }

    /// From now on every server notification about `uri` is consumed, never forwarded.
    pub fn hide_uri(&self, uri: &str) {
        self.hidden.insert(uri.to_string());
    }

    pub fn unhide_uri(&self, uri: &str) {
        self.hidden.remove(uri);
    }

    pub fn is_hidden(&self, uri: &str) -> bool {
        self.hidden.contains(uri)
    }

    /// Whether any URI is hidden: lets the router skip the URI peek on the common path.
    pub fn has_hidden(&self) -> bool {
        !self.hidden.is_empty()
    }

    async fn send(&self, body: &Value) -> Result<(), LeanError> {
        let bytes = serde_json::to_vec(body).map_err(|_| LeanError::Closed)?;
        self.to_lean.send(bytes).await.map_err(|_| LeanError::Closed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client, its pending table, and the frames it writes to Lean.
    fn wired_client() -> (Arc<LeanClient>, Arc<PendingTable>, mpsc::Receiver<Vec<u8>>) {
        let (tx, rx) = mpsc::channel(8);
        let pending = Arc::new(PendingTable::new());
        let client = Arc::new(LeanClient::new(tx, pending.clone()));
        (client, pending, rx)
    }

    #[tokio::test]
    async fn request_registers_before_writing_and_times_out_with_cancel() {
        let (client, pending, mut rx) = wired_client();

        let c = client.clone();
        let task = tokio::spawn(async move {
            c.request("$/lean/plainGoal", json!({}), Duration::from_millis(50)).await
        });
        let sent: Value = serde_json::from_slice(&rx.recv().await.expect("frame")).expect("json");
        let id = sent["id"].as_str().expect("string id").to_string();
        assert!(id.starts_with("lean-assess:"));
        // Registered by the time the frame is visible to the writer.
        assert_eq!(pending.len(), 1);
        let err = task.await.expect("join").expect_err("timeout");
        assert!(matches!(err, LeanError::Timeout { .. }));
        let cancel: Value =
            serde_json::from_slice(&rx.recv().await.expect("cancel")).expect("json");
        assert_eq!(cancel["method"], "$/cancelRequest");
        assert_eq!(cancel["params"]["id"], Value::from(id));
        assert!(pending.is_empty());
    }

    #[tokio::test]
    async fn replies_and_close_reach_the_caller() {
        let (client, pending, mut rx) = wired_client();
        let c = client.clone();
        let ok = tokio::spawn(async move {
            c.request(
                "$/lean/rpc/connect",
                json!({"uri": "file:///a.lean"}),
                Duration::from_secs(5),
            )
            .await
        });
        let sent: Value = serde_json::from_slice(&rx.recv().await.expect("frame")).expect("json");
        let id = OwnId::parse(sent["id"].as_str().expect("id")).expect("own id");
        pending.complete(&id, Reply::Result(json!({"sessionId": "17"})));
        assert_eq!(ok.await.expect("join"), Ok(json!({"sessionId": "17"})));

        let c = client.clone();
        let closed =
            tokio::spawn(async move { c.request("x", json!(null), Duration::from_secs(5)).await });
        let _ = rx.recv().await;
        pending.drain();
        assert_eq!(closed.await.expect("join"), Err(LeanError::Closed));
    }

    #[tokio::test]
    async fn a_default_client_is_closed() {
        let client = LeanClient::disconnected();
        assert_eq!(
            client.request("x", Value::Null, Duration::from_secs(5)).await,
            Err(LeanError::Closed)
        );
        assert_eq!(client.notify("x", Value::Null).await, Err(LeanError::Closed));
    }

    #[test]
    fn hidden_uris() {
        let (tx, _rx) = mpsc::channel(1);
        let client = LeanClient::new(tx, Arc::new(PendingTable::new()));
        assert!(!client.has_hidden());
        client.hide_uri("file:///scratch.lean");
        assert!(client.is_hidden("file:///scratch.lean"));
        client.unhide_uri("file:///scratch.lean");
        assert!(!client.has_hidden());
    }
}
