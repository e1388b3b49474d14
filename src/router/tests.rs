//! Tests of the router with scripted hooks and a scripted Lean: forwarding order, own ids,
//! augmented replies, cancellation, and the end of a session; and of the features' hooks as
//! the router calls them. The body helpers' tests live with them.

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
            self.lean.hide_uri(params["uri"].as_str().unwrap_or_default());
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
                .map_err(|e| OwnError { code: -32603, message: e.to_string() })?;
            Ok(crate::features::JsonText::of(&json!({"fromLean": r})))
        }))
    }
    fn wants_response(&self, method: &str) -> bool {
        method == "textDocument/hover"
    }
    fn augment_response(&self, _method: &str, request_params: &Value, mut result: Value) -> Value {
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
        RouterConfig { shutdown_grace: Duration::from_millis(300), ..RouterConfig::default() },
        |to_editor, lean| TestHooks { to_editor, lean, seen: Mutex::new(Vec::new()) },
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
    wire::write_frame(w, &serde_json::to_vec(&v).expect("json")).await.expect("write");
}

async fn recv<R: AsyncBufRead + Unpin>(r: &mut FrameReader<R>) -> Value {
    let f = tokio::time::timeout(Duration::from_secs(5), r.read_frame())
        .await
        .expect("in time")
        .expect("frame")
        .expect("not eof");
    serde_json::from_slice(&f.bytes).expect("json")
}

/// A request `id` of `method` with empty params.
fn request(id: impl serde::Serialize, method: &str) -> Value {
    json!({"jsonrpc":"2.0","id":id,"method":method,"params":{}})
}

/// The response to request `id` with a `null` result.
fn null_reply(id: impl serde::Serialize) -> Value {
    json!({"jsonrpc":"2.0","id":id,"result":null})
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
    send(&mut h.editor, json!({"jsonrpc":"2.0","id":2,"method":"test/own","params":{"ms":0}}))
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
    send(&mut h.lean, json!({"jsonrpc":"2.0","id":own_id,"result":{"goals":[]}})).await;
    let reply = recv(&mut h.editor_reader).await;
    assert_eq!(reply, json!({"jsonrpc":"2.0","id":2,"result":{"fromLean":{"goals":[]}}}));

    // Hover is augmented with the request params; diagnostics get ours merged.
    send(
        &mut h.editor,
        json!({"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"p":1}}),
    )
    .await;
    assert_eq!(recv(&mut h.lean_reader).await["id"], 3);
    send(&mut h.lean, json!({"jsonrpc":"2.0","id":3,"result":{"contents":"x","extra":true}})).await;
    assert_eq!(
        recv(&mut h.editor_reader).await["result"],
        json!({"contents":"x","extra":true,"ours":{"p":1}})
    );
    send(&mut h.lean, json!({"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///a.lean","diagnostics":[],"isIncremental":false}})).await;
    let d = recv(&mut h.editor_reader).await;
    assert_eq!(d["params"]["diagnostics"][0]["source"], "lean-assess");
    assert_eq!(d["params"]["isIncremental"], false);

    // Our own request to the editor: its reply is consumed, not forwarded to Lean.
    send(&mut h.editor, json!({"jsonrpc":"2.0","method":"test/askEditor","params":{}})).await;
    assert_eq!(recv(&mut h.lean_reader).await["method"], "test/askEditor");
    let ask = recv(&mut h.editor_reader).await;
    assert_eq!(ask["method"], "workspace/codeLens/refresh");
    send(&mut h.editor, null_reply(&ask["id"])).await;
    // Cancel of an own request in flight: answered -32800 by the proxy, Lean never sees it.
    send(
        &mut h.editor,
        json!({"jsonrpc":"2.0","id":"s4","method":"test/own","params":{"ms":10000}}),
    )
    .await;
    send(&mut h.editor, json!({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"s4"}}))
        .await;
    assert_eq!(recv(&mut h.editor_reader).await["error"]["code"], codes::REQUEST_CANCELLED);
    // Invalid request answered -32600.
    send(&mut h.editor, json!({"jsonrpc":"2.0","id":5,"method":7})).await;
    assert_eq!(recv(&mut h.editor_reader).await["error"]["code"], codes::INVALID_REQUEST);
    // A marker shows nothing else got to Lean in between.
    send(&mut h.editor, json!({"jsonrpc":"2.0","method":"marker","params":{}})).await;
    assert_eq!(recv(&mut h.lean_reader).await["method"], "marker");

    // The editor leaves without exit: shutdown (own id) then exit go to Lean.
    h.editor.shutdown().await.expect("close");
    let shutdown = recv(&mut h.lean_reader).await;
    assert_eq!(shutdown["method"], "shutdown");
    send(&mut h.lean, null_reply(&shutdown["id"])).await;
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
    assert_eq!(recv(&mut h.lean_reader).await, null_reply(4));
    send(&mut h.lean, progress("file:///a.lean")).await;
    assert_eq!(recv(&mut h.editor_reader).await["method"], "$/lean/fileProgress");
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
    send(&mut h.editor, json!({"jsonrpc":"2.0","id":1,"method":"test/own","params":{"ms":0}}))
        .await;
    let _asked = recv(&mut h.lean_reader).await;
    h.lean.shutdown().await.expect("close");
    let end = h.end.await.expect("join");
    assert_eq!(end.reason, EndReason::LeanClosed);
    assert_eq!(end.failed_requests, 1);
    end.notify_editor(methods::SHOW_MESSAGE, json!({"type":1,"message":"gone"})).await;
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
        send(&mut h.editor, request(&id, "textDocument/hover")).await;
        recv(&mut h.lean_reader).await;
    }
    // Lean answers one, then dies in the middle of the next frame.
    send(&mut h.lean, null_reply(1)).await;
    assert_eq!(recv(&mut h.editor_reader).await["id"], 1);
    h.lean.write_all(b"Content-Length: 100\r\n\r\n{\"jsonrpc\"").await.expect("write");
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
    send(&mut h.editor, request(&ours, "textDocument/definition")).await;
    let got = recv(&mut h.editor_reader).await;
    assert_eq!(got["id"], ours.as_str());
    assert_eq!(got["error"]["code"], codes::INVALID_REQUEST);
    // Lean never saw it: the next thing it gets is the editor's next request.
    send(&mut h.editor, request(7, "textDocument/definition")).await;
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
        send(&mut h.editor, request(&forged, "textDocument/definition")).await;
        let asked = recv(&mut h.lean_reader).await;
        assert_eq!(asked["id"], forged.as_str());
        send(&mut h.lean, json!({"jsonrpc":"2.0","id":forged,"result":[]})).await;
        let got = recv(&mut h.editor_reader).await;
        assert_eq!(got, json!({"jsonrpc":"2.0","id":forged,"result":[]}));
        // And the editor's reply to a server request with such an id reaches Lean.
        send(&mut h.lean, request(&forged, "workspace/configuration")).await;
        assert_eq!(recv(&mut h.editor_reader).await["id"], forged.as_str());
        send(&mut h.editor, json!({"jsonrpc":"2.0","id":forged,"result":[]})).await;
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
    for m in ["textDocument/didOpen", "textDocument/didChange", "workspace/didChangeWatchedFiles"] {
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
