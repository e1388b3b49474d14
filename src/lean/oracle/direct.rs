//! A [`LeanClient`] over a spawned server's own stdio, without the editor router: for batch
//! runs, benches and tests. Owns the reader and writer tasks of that connection and the LSP
//! `initialize` handshake; must not know about scratch documents (the oracle does).

use crate::lean::{LeanClient, LeanError};
use crate::pending::{OwnId, PendingTable, Reply};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufRead, AsyncWrite};
use tokio::sync::mpsc;

/// A [`LeanClient`] talking straight to a server's stdio (no editor, no router): a writer task
/// frames queued bodies, a reader task completes own requests, answers server→client requests
/// with `null` (e.g. `client/registerCapability`, `wire.register-capability-request.json`) and
/// drops notifications. When the server's output ends every waiter gets `Closed`.
pub fn connect_direct<R, W>(reader: R, mut writer: W) -> Arc<LeanClient>
where
    R: AsyncBufRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (to_lean, mut queue) = mpsc::channel::<Vec<u8>>(256);
    let pending = Arc::new(PendingTable::new());
    let client = Arc::new(LeanClient::new(to_lean.clone(), pending.clone()));
    tokio::spawn(async move {
        while let Some(body) = queue.recv().await {
            if crate::wire::write_frame(&mut writer, &body).await.is_err() {
                break;
            }
        }
    });
    tokio::spawn(async move {
        let mut frames = crate::wire::FrameReader::new(reader, "lean→oracle");
        while let Ok(Some(frame)) = frames.read_frame().await {
            let Ok(msg) = serde_json::from_slice::<Value>(&frame.bytes) else {
                continue;
            };
            let id = msg.get("id");
            match (id, msg.get("method")) {
                (Some(id), Some(_)) => {
                    let reply = json!({"jsonrpc": "2.0", "id": id, "result": null});
                    if let Ok(bytes) = serde_json::to_vec(&reply) {
                        let _ = to_lean.send(bytes).await;
                    }
                }
                (Some(id), None) => {
                    let Some(own) = id.as_str().and_then(OwnId::parse) else {
                        continue;
                    };
                    let reply = match msg.get("error") {
                        Some(e) => Reply::Error {
                            code: e.get("code").and_then(Value::as_i64).unwrap_or(0),
                            message: e
                                .get("message")
                                .and_then(Value::as_str)
                                .unwrap_or_default()
                                .to_string(),
                            data: e.get("data").cloned(),
                        },
                        None => Reply::Result(msg.get("result").cloned().unwrap_or(Value::Null)),
                    };
                    pending.complete(&own, reply);
                }
                _ => {}
            }
        }
        pending.drain();
    });
    client
}

/// `initialize` + `initialized` for a direct connection (LSP; Lean answers with
/// `wire.initialize-response.json`).
pub async fn initialize(
    client: &LeanClient,
    root_uri: Option<&str>,
    timeout: Duration,
) -> Result<Value, LeanError> {
    let r = client
        .request(
            "initialize",
            json!({"processId": std::process::id(), "rootUri": root_uri, "capabilities": {}}),
            timeout,
        )
        .await?;
    client.notify("initialized", json!({})).await?;
    Ok(r)
}
