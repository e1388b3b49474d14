//! Forwarding through `lean-assess serve -- lean-standin`, driven over pipes as an editor does:
//! recorded Lean shapes pass JSON-equal and in order both ways, server→client requests round
//! trip, `$/cancelRequest` passes, 10 MB messages pass, and a property test over random
//! interleavings of editor and server traffic checks exactness and order.

mod common;

use common::{example, Editor};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::time::Duration;

/// Every capability Lean advertises reaches the editor unchanged (the features may add theirs).
fn assert_keeps_lean_capabilities(got: &Value, recorded: &Value) {
    let got = got["capabilities"].as_object().expect("capabilities");
    for (k, v) in recorded["capabilities"].as_object().expect("recorded capabilities") {
        assert_eq!(got.get(k), Some(v), "capability {k}");
    }
}

#[test]
fn recorded_lean_session_passes_through() {
    let mut ed = Editor::proxy(&[]);
    let init = ed.initialize();
    let recorded = example("wire.initialize-response.json");
    assert_eq!(init["id"], 0);
    assert_keeps_lean_capabilities(&init["result"], &recorded["result"]);
    assert_eq!(init["result"]["serverInfo"], recorded["result"]["serverInfo"]);

    // After `initialized`: Lean's register_lean_watcher request, JSON-equal to the recording.
    let register = ed.recv();
    assert_eq!(register, example("wire.register-capability-request.json"));
    ed.send(&json!({"jsonrpc": "2.0", "id": "register_lean_watcher", "result": null}));
    let got = ed.recv();
    assert_eq!(got["method"], "standin/replyReceived");
    assert_eq!(
        got["params"]["reply"],
        json!({"jsonrpc": "2.0", "id": "register_lean_watcher", "result": null})
    );

    // didOpen: progress, diagnostics, done, in that order, with Lean's extra fields.
    let uri = "file:///work/Probe.lean";
    ed.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "lean4", "version": 1,
            "text": "theorem t (x : ℕ) : x = x := by\n  sorry\n"}, "dependencyBuildMode": "never"}),
    );
    let progress = ed.recv();
    assert_eq!(progress["method"], "$/lean/fileProgress");
    assert_eq!(progress["params"]["processing"][0]["kind"], 1);
    let diags = ed.recv();
    assert_eq!(diags["method"], "textDocument/publishDiagnostics");
    assert_eq!(diags["params"]["uri"], uri);
    let lean: Vec<&Value> = diags["params"]["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["source"] == "Lean 4")
        .collect();
    assert_eq!(lean.len(), 1);
    assert_eq!(lean[0]["fullRange"]["start"], json!({"character": 2, "line": 1}));
    let done = ed.recv();
    assert_eq!(done["params"]["processing"], json!([]));
    assert_eq!(done["params"]["textDocument"], json!({"uri": uri, "version": 1}));

    let wait =
        ed.request(json!(2), "textDocument/waitForDiagnostics", json!({"uri": uri, "version": 1}));
    assert_eq!(wait, example("wire.empty-object-response.json"));

    // RPC: connect, getInteractiveGoals (the recorded result), keepAlive passes silently.
    let connect = ed.request(json!(3), "$/lean/rpc/connect", json!({"uri": uri}));
    let session = connect["result"]["sessionId"].as_str().expect("string session id").to_string();
    let goals = ed.request(
        json!(4),
        "$/lean/rpc/call",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 31},
               "sessionId": session, "method": "Lean.Widget.getInteractiveGoals",
               "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 31}}}),
    );
    assert_eq!(goals["result"], example("interactiveGoals.result.json"));
    ed.notify("$/lean/rpc/keepAlive", json!({"uri": uri, "sessionId": session}));
    let plain = ed.request(
        json!("five"),
        "$/lean/plainGoal",
        json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}}),
    );
    assert_eq!(plain["result"], example("plainGoal.result.json"));

    // Server→client requests with numeric ids (refresh) round trip with the id unchanged.
    let refresh = example("wire.semanticTokens-refresh-request.json");
    let inlay = example("wire.inlayHint-refresh-request.json");
    ed.notify("standin/emit", json!({"messages": [refresh.clone(), inlay.clone()]}));
    assert_eq!(ed.recv(), refresh);
    assert_eq!(ed.recv(), inlay);
    ed.send(&json!({"jsonrpc": "2.0", "id": 4, "result": null}));
    ed.send(&json!({"jsonrpc": "2.0", "id": 0, "result": null}));
    assert_eq!(ed.recv()["params"]["reply"]["id"], 4);
    assert_eq!(ed.recv()["params"]["reply"]["id"], 0);

    // Hover and code actions answer with Lean's content (the features may append theirs).
    let hover = ed.request(
        json!(6),
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 8}}),
    );
    let value = hover["result"]["contents"]["value"].as_str().expect("hover text");
    assert!(value.starts_with("```lean\nt\n```"), "{value}");
    let actions = ed.code_actions(json!(7), uri, 1, 2);
    let first = &actions["result"][0];
    assert!(first["title"].as_str().expect("title").starts_with("Try this: "));
    assert_eq!(first["edit"]["documentChanges"][0]["textDocument"]["uri"], uri);

    // didClose: the empty publishDiagnostics for the URI.
    ed.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
    let cleared = ed.recv_matching(|m| m["method"] == "textDocument/publishDiagnostics");
    assert_eq!(cleared["params"]["uri"], uri);

    // shutdown / exit pass; the proxy exits with Lean's status 0.
    ed.shutdown_and_exit(json!(8));
}

/// With the real features: lenses answered by the proxy, the features' own requests into Lean
/// (RPC goals) answered by the stand-in and consumed, the editor's replies to the proxy's own
/// server→client requests consumed — none of that traffic crosses to the other side.
#[test]
fn own_traffic_never_crosses() {
    let ws = tempfile::tempdir().expect("workspace");
    std::fs::write(ws.path().join("lean-assess.toml"), "[reference]\nfile = \"Reference.lean\"\n")
        .expect("config");
    let reference = "theorem foo (x : ℕ) (h : 0 < x) : x + 0 = x := by\n  sorry\n";
    let candidate = "theorem foo (x : ℕ) (h : 0 ≤ x) : 0 + x = x := by\n  sorry\n";
    std::fs::write(ws.path().join("Reference.lean"), reference).expect("reference");
    std::fs::write(ws.path().join("Cand.lean"), candidate).expect("candidate");
    let record = ws.path().join("received.jsonl");
    let record_s = record.to_string_lossy().into_owned();
    let mut ed = Editor::proxy_in(ws.path(), &[("LEAN_STANDIN_RECORD", record_s.as_str())]);
    let root = format!("file://{}", ws.path().canonicalize().expect("root").display());
    let init = ed.request(
        json!(0),
        "initialize",
        json!({"processId": null, "rootUri": root, "capabilities": {
            "workspace": {"codeLens": {"refreshSupport": true}, "applyEdit": true},
            "window": {"showDocument": {"support": true}}}}),
    );
    assert!(init["result"]["capabilities"].get("codeLensProvider").is_some());
    ed.notify("initialized", json!({}));
    for (name, text) in [("Reference.lean", reference), ("Cand.lean", candidate)] {
        ed.notify(
            "textDocument/didOpen",
            json!({"textDocument": {
            "uri": format!("{root}/{name}"), "languageId": "lean4", "version": 1, "text": text}}),
        );
    }
    let cand = format!("{root}/Cand.lean");
    let mut seen = ed.drain(Duration::from_millis(1500));
    let lens =
        ed.request(json!(50), "textDocument/codeLens", json!({"textDocument": {"uri": cand}}));
    let title = lens["result"][0]["command"]["title"].as_str().unwrap_or_default().to_string();
    assert!(title.starts_with("lean-assess:"), "{lens}");
    seen.extend(ed.drain(Duration::from_millis(1500)));
    // Answer every request the proxy (or Lean) sent the editor.
    for m in seen.iter().filter(|m| m.get("method").is_some() && m.get("id").is_some()) {
        ed.send(&json!({"jsonrpc": "2.0", "id": m["id"], "result": null}));
    }
    seen.extend(ed.drain(Duration::from_millis(500)));
    let own = |m: &Value| m["id"].as_str().is_some_and(|i| i.starts_with("lean-assess:"));
    for m in &seen {
        assert!(
            !(own(m) && m.get("method").is_none()),
            "a reply to an own request reached the editor: {m}"
        );
    }
    let received: Vec<Value> = std::fs::read_to_string(&record)
        .expect("record")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    for m in &received {
        assert!(
            !(own(m) && m.get("method").is_none()),
            "the editor's reply to an own request reached Lean: {m}"
        );
    }
    // The checks above are not vacuous: there was own traffic both ways (RPC goals into Lean,
    // lens refresh requests to the editor).
    let own_requests = received.iter().filter(|m| own(m) && m.get("method").is_some()).count();
    let own_to_editor = seen.iter().filter(|m| own(m)).count();
    assert!(
        own_requests > 0 && own_to_editor > 0,
        "{own_requests} own requests into Lean, {own_to_editor} to the editor"
    );
}

#[test]
fn cancel_request_reaches_lean() {
    let mut ed = Editor::proxy(&[]);
    ed.initialize();
    ed.notify("standin/script", json!({"rules": [{"method": "custom/slow", "stall": true}]}));
    ed.send(&json!({"jsonrpc": "2.0", "id": 41, "method": "custom/slow", "params": {}}));
    ed.notify("$/cancelRequest", json!({"id": 41}));
    // Only the stand-in answers -32800, and only when the cancel arrived with the same id.
    let reply = ed.recv_matching(|m| m["id"] == 41);
    assert_eq!(reply["error"]["code"], -32800);
}

#[test]
fn ten_megabyte_messages_pass_both_ways() {
    let mut ed = Editor::proxy(&[]);
    ed.initialize();
    let big = "ℕ".repeat(10 * 1024 * 1024 / 3 + 1);
    let reply = ed.request(json!(1), "standin/echo", json!({"text": big}));
    assert_eq!(
        reply["result"]["received"]["params"]["text"].as_str().map(str::len),
        Some(big.len())
    );
    ed.notify("standin/huge", json!({"bytes": 10 * 1024 * 1024}));
    let huge = ed.recv_matching(|m| m["method"] == "standin/huge");
    assert_eq!(huge["params"]["data"].as_str().map(str::len), Some(10 * 1024 * 1024));
}

/// The editor's pipes are driven by epoll, so the proxy must hold them non-blocking: a
/// blocking read with nothing to read keeps a runtime worker in the syscall, and the writer
/// task woken last on it waits too (under a burst of editor traffic, a request was then never
/// forwarded). `O_NONBLOCK` is on the pipe's open file description, which fd 0 and fd 1 share
/// with the proxy's duplicates of them, so /proc shows it on 0 and 1.
#[test]
fn editor_pipes_are_non_blocking() {
    let mut ed = Editor::proxy(&[]);
    ed.initialize();
    let pid = ed.child.id();
    for fd in [0, 1] {
        let info = std::fs::read_to_string(format!("/proc/{pid}/fdinfo/{fd}")).expect("fdinfo");
        let flags = info
            .lines()
            .find_map(|l| l.strip_prefix("flags:"))
            .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
            .expect("flags in fdinfo");
        const O_NONBLOCK: u32 = 0o4000;
        assert_ne!(flags & O_NONBLOCK, 0, "fd {fd} of the proxy is blocking: flags {flags:o}");
    }
}

/// One step of a random session.
#[derive(Debug, Clone)]
enum Step {
    /// Editor notification, echoed back by the stand-in (`LEAN_STANDIN_ECHO=1`).
    Notify(Value),
    /// Editor request `standin/echo`; the reply carries the request as received.
    Echo(Value),
    /// Server messages (notifications, requests with string/numeric ids) emitted in order.
    Emit(Vec<Value>),
    /// Editor reply to a server→client request; the stand-in reports it as received.
    Reply(Value),
}

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[a-zA-Z0-9 ℕ∀→⊢αβ\\\\\"\n\t{}:,]{0,24}".prop_map(Value::from),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
            proptest::collection::btree_map("[a-zA-Z_$/]{1,10}", inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn id() -> impl Strategy<Value = Value> {
    prop_oneof![(0i64..1_000_000).prop_map(Value::from), "[a-z_]{1,12}".prop_map(Value::from),]
}

/// Methods that the proxy forwards untouched whatever the features do.
fn method() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("$/lean/fileProgress".to_string()),
        Just("$/lean/rpc/keepAlive".to_string()),
        Just("$/lean/rpc/release".to_string()),
        Just("$/lean/staleDependency".to_string()),
        Just("window/logMessage".to_string()),
        Just("workspace/semanticTokens/refresh".to_string()),
        Just("client/registerCapability".to_string()),
        "custom/[a-z]{1,8}",
    ]
}

/// A message with extra top-level fields besides the JSON-RPC ones.
fn with_extra(mut base: Value, extra: Value) -> Value {
    if let (Some(b), Some(e)) = (base.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            if !matches!(k.as_str(), "id" | "method" | "params" | "result" | "error" | "jsonrpc") {
                b.insert(format!("x_{k}"), v.clone());
            }
        }
    }
    base
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (method(), json_value(), json_value()).prop_map(|(m, p, x)| Step::Notify(with_extra(
            json!({"jsonrpc": "2.0", "method": m, "params": p}),
            x
        ))),
        (id(), json_value(), json_value()).prop_map(|(i, p, x)| Step::Echo(with_extra(
            json!({"jsonrpc": "2.0", "id": i, "method": "standin/echo", "params": p}),
            x
        ))),
        proptest::collection::vec(
            prop_oneof![
                (method(), json_value())
                    .prop_map(|(m, p)| json!({"jsonrpc": "2.0", "method": m, "params": p})),
                (id(), method(), json_value(), json_value()).prop_map(|(i, m, p, x)| with_extra(
                    json!({"id": i, "jsonrpc": "2.0", "method": m, "params": p}),
                    x
                )),
            ],
            1..4
        )
        .prop_map(Step::Emit),
        (id(), json_value())
            .prop_map(|(i, r)| Step::Reply(json!({"jsonrpc": "2.0", "id": i, "result": r}))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Whatever the interleaving, the editor sees exactly the stand-in's output, in order, and
    /// the stand-in sees exactly the editor's messages (JSON-equal, extra fields kept).
    #[test]
    fn forwarding_is_exact_and_ordered(steps in proptest::collection::vec(step(), 1..25)) {
        let mut ed = Editor::proxy(&[("LEAN_STANDIN_ECHO", "1")]);
        let mut expected = Vec::new();
        for s in &steps {
            match s {
                Step::Notify(m) => {
                    ed.send(m);
                    expected.push(json!({"jsonrpc": "2.0", "method": "standin/echoed", "params": {"received": m}}));
                }
                Step::Echo(m) => {
                    ed.send(m);
                    expected.push(json!({"id": m["id"], "jsonrpc": "2.0", "result": {"received": m}}));
                }
                Step::Emit(ms) => {
                    ed.notify("standin/emit", json!({"messages": ms}));
                    expected.extend(ms.iter().cloned());
                }
                Step::Reply(r) => {
                    ed.send(r);
                    expected.push(json!({"jsonrpc": "2.0", "method": "standin/replyReceived", "params": {"reply": r}}));
                }
            }
        }
        for want in expected {
            let got = ed.recv();
            prop_assert_eq!(got, want);
        }
        // Nothing else arrives.
        prop_assert!(ed.recv_raw(std::time::Duration::from_millis(50)).is_none());
    }
}

/// The stand-in's script format (its module doc): rules from `LEAN_STANDIN_SCRIPT`, used in
/// order with `times`, matched on `rpcMethod`, with messages sent before the reply.
#[test]
fn standin_script_sequences_goal_transitions() {
    let dir = tempfile::tempdir().expect("tmp");
    let script = dir.path().join("script.jsonl");
    let rpc = "Lean.Widget.getInteractiveGoals";
    let two = example("interactiveGoals-two-goals.result.json");
    let nested = example("interactiveGoals-rw-nested.result.json");
    std::fs::write(
        &script,
        format!(
            "{}\n{}\n",
            json!({"method": "$/lean/rpc/call", "rpcMethod": rpc, "result": two, "times": 1,
                   "send": [{"jsonrpc": "2.0", "method": "$/lean/fileProgress", "params": {"processing": [], "textDocument": {"uri": "file:///s.lean", "version": 2}}}]}),
            json!({"method": "$/lean/rpc/call", "rpcMethod": rpc, "result": nested, "times": 1}),
        ),
    )
    .expect("script");
    let script_s = script.to_string_lossy().into_owned();
    let mut ed = Editor::proxy(&[("LEAN_STANDIN_SCRIPT", script_s.as_str())]);
    ed.initialize();
    let uri = "file:///s.lean";
    let session = ed.request(json!(1), "$/lean/rpc/connect", json!({"uri": uri}))["result"]
        ["sessionId"]
        .clone();
    let call = |id: i64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "$/lean/rpc/call", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 0, "character": 0},
            "sessionId": session, "method": rpc, "params": {}}})
    };
    ed.send(&call(2));
    let progress = ed.recv_matching(|m| m["method"] == "$/lean/fileProgress");
    assert_eq!(progress["params"]["textDocument"]["version"], 2);
    assert_eq!(ed.recv_matching(|m| m["id"] == 2)["result"], two);
    ed.send(&call(3));
    assert_eq!(ed.recv_matching(|m| m["id"] == 3)["result"], nested);
    // Script used up: the default recorded goals.
    ed.send(&call(4));
    assert_eq!(
        ed.recv_matching(|m| m["id"] == 4)["result"],
        example("interactiveGoals.result.json")
    );
}
