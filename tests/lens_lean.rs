//! The Lean-backed lens metrics end to end: `lean-assess serve -- lean-standin` with
//! `[metrics] lens = ["ted", "defeq", "transted", "beq"]`. The stand-in is scripted so that the
//! merged goal `(type_of% @P) = (type_of% @Q)` is an equality `rfl` closes (defeq: equivalent;
//! transted: closed at stage 0, score 1.00, a witness), and BEq's checks stall (its lens ends
//! "timed out" after `beq_timeout_ms`). "Show proof path" opens the transted witness. Goal types
//! are TaggedText in the shape of `interactiveGoals-rw-nested.result.json`. Also: the lens
//! oracle's RPC session kept alive while it judges and not after `shutdown`, with the editor's
//! traffic unaffected (the stand-in's record, `LEAN_STANDIN_RECORD`); BEq's `[llm]` `samples`
//! honoured (a local HTTP stand-in of the chat-completions endpoint).

mod common;

use common::{beq_plus_rules, llm_stand_in, one_goal_tagged, uri_of, Editor};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const REFERENCE: &str = "theorem pair_a (n : Nat) : n + 0 = n := by\n  sorry\n";
const CANDIDATE: &str = "theorem pair_a (m : Nat) : m + 0 = m := by\n  sorry\n";

/// `[(A) = (B)]` with A and B tagged: the merged goal's shape.
fn equality_goal() -> Value {
    let side = |v: &str| {
        json!({"tag": [{"subexprPos": format!("/{v}"), "info": {"__rpcref": v}},
                       {"append": [{"text": "∀ (n : Nat), n + 0 = n"}]}]})
    };
    json!({"tag": [{"subexprPos": "/", "info": {"__rpcref": "9"}},
                   {"append": [{"text": "("}, side("1"), {"text": ") = ("}, side("2"), {"text": ")"}]}]})
}

#[test]
fn lean_metrics_in_the_lens_and_the_witness_as_proof_path() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let rules = [
        // Answered after 300 ms: long enough for a lens request to see `transted` running even
        // when the test machine is busy (the stand-in otherwise answers in a millisecond).
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["skip"], "declContains": "type_of%", "times": 1, "delayMs": 300,
               "result": one_goal_tagged(equality_goal())}),
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["rfl"], "declContains": "type_of%", "times": 2, "result": {"goals": []}}),
        // BEq's checks (their `:= by` line is the goal theorem's) never answer.
        json!({"method": "textDocument/waitForDiagnostics", "textContains": "thm_Q",
               "stall": true}),
        witness_axioms_clean(),
    ];
    let (mut ed, init) = start(
        root,
        "lens = [\"ted\", \"defeq\", \"transted\", \"beq\"]\ntransted_timeout_ms = 10000\nbeq_timeout_ms = 1000\n",
        &rules,
    );
    let commands: Vec<String> = init["result"]["capabilities"]["executeCommandProvider"]
        ["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    let cand_uri = uri_of(&root.join("Cand.lean"));
    ed.open_document(&cand_uri, CANDIDATE);

    let mut id = 10;
    let (title, seen) = settle(&mut ed, &cand_uri, &mut id);
    assert!(seen.iter().any(|t| t.contains("transted running…")), "{seen:?}");
    assert!(title.contains("defeq equivalent"), "{title}");
    assert!(title.contains("transted 1.00"), "{title}");
    assert!(title.contains("beq timed out"), "{title}");

    // "Show proof path": the witness example, in a read-only file.
    let proof_cmd = commands.iter().find(|c| c.ends_with(".showProofPath")).unwrap();
    let done = ed.request(
        json!(99),
        "workspace/executeCommand",
        json!({"command": proof_cmd, "arguments": [cand_uri, "pair_a"]}),
    );
    assert_eq!(done.get("error"), None, "{done}");
    let show = ed.recv_matching(|m| m["method"] == "window/showDocument");
    let shown = lean_assess::files::uri_to_path(show["params"]["uri"].as_str().unwrap()).unwrap();
    let text = std::fs::read_to_string(&shown).unwrap();
    assert!(text.contains("theorem transted_witness"), "{text}");
    assert!(text.contains("  rfl\n"), "{text}");
    ed.send(&json!({"jsonrpc": "2.0", "id": show["id"], "result": {"success": true}}));

    // An edit elsewhere in the file: the same (reference, candidate, headers, toolchain), so
    // defeq and transted come from the cache — the script's goal rules are used up (`times`),
    // a new Lean judgement would not close the goal. BEq timed out: not cached, judged again.
    ed.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": cand_uri, "version": 2},
               "contentChanges": [{"text": format!("{CANDIDATE}\n-- a comment\n")}]}),
    );
    let (again, _) = settle(&mut ed, &cand_uri, &mut id);
    assert!(again.contains("defeq equivalent"), "{again}");
    assert!(again.contains("transted 1.00"), "{again}");
}

/// A workspace (`Reference.lean`, `lean-toolchain`, `lean-assess.toml` with `[metrics]` lines)
/// and `serve -- lean-standin` scripted with `rules`, initialized.
fn start(root: &Path, metrics: &str, rules: &[Value]) -> (Editor, Value) {
    start_with(root, metrics, rules, &[])
}

/// As [`start`], with more environment for the proxy (and the stand-in it spawns).
fn start_with(
    root: &Path,
    metrics: &str,
    rules: &[Value],
    envs: &[(&str, &str)],
) -> (Editor, Value) {
    std::fs::write(root.join("Reference.lean"), REFERENCE).unwrap();
    std::fs::write(root.join("lean-toolchain"), "leanprover/lean4:v4.9.0\n").unwrap();
    let script: String = rules.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(root.join("script.jsonl"), script).unwrap();
    let script_path = root.join("script.jsonl").display().to_string();
    let mut all = vec![("LEAN_STANDIN_SCRIPT", script_path.as_str())];
    all.extend_from_slice(envs);
    let mut ed = Editor::proxy_in_project(
        root,
        &format!("[reference]\nfile = \"Reference.lean\"\n\n[metrics]\n{metrics}"),
        &all,
    );
    let init = ed.initialize_with(json!({"processId": null, "rootUri": uri_of(root),
               "capabilities": {"workspace": {"codeLens": {"refreshSupport": true}},
                                "window": {"showDocument": {"support": true}}}}));
    (ed, init)
}

/// A `ted` and `transted` lens (`transted` limited to `timeout_ms`) with the keep-alive every
/// 50 ms and the stand-in recorded (see [`start_recorded`]); returns once the lens shows
/// `transted` running (`ted`'s round comes first), with the last request id used.
fn transted_running(
    root: &Path,
    timeout_ms: u64,
    rules: &[Value],
) -> (Editor, PathBuf, String, i64) {
    let (mut ed, record, cand_uri) = start_recorded(
        root,
        &transted_lens(timeout_ms),
        rules,
        &[("LEAN_ASSESS_KEEPALIVE_MS", "50")],
    );
    let mut id = 10;
    wait_for_title(&mut ed, &cand_uri, &mut id, "transted running…");
    (ed, record, cand_uri, id)
}

/// The `[metrics]` lines of a `ted` and `transted` lens, `transted` limited to `timeout_ms`.
fn transted_lens(timeout_ms: u64) -> String {
    format!("lens = [\"ted\", \"transted\"]\ntransted_timeout_ms = {timeout_ms}\n")
}

/// The merged goal's `rfl` closes it.
fn rfl_closes() -> Value {
    json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
           "tactics": ["rfl"], "declContains": "type_of%", "result": {"goals": []}})
}

/// The witness depends on no `sorryAx`.
fn witness_axioms_clean() -> Value {
    json!({"method": "standin/diagnostic", "lineContains": "#print axioms", "severity": 3,
           "message": "'transted_witness' depends on axioms: [propext]"})
}

/// As [`start_with`], the stand-in recording what it receives (`LEAN_STANDIN_RECORD`, the
/// returned path), and the candidate `Cand.lean` opened (its URI returned).
fn start_recorded(
    root: &Path,
    metrics: &str,
    rules: &[Value],
    envs: &[(&str, &str)],
) -> (Editor, PathBuf, String) {
    let record = root.join("record.jsonl");
    let record_text = record.display().to_string();
    let mut all = vec![("LEAN_STANDIN_RECORD", record_text.as_str())];
    all.extend_from_slice(envs);
    let (mut ed, _) = start_with(root, metrics, rules, &all);
    let cand_uri = uri_of(&root.join("Cand.lean"));
    ed.open_document(&cand_uri, CANDIDATE);
    (ed, record, cand_uri)
}

/// An edit while `transted` waits on Lean (its first goal query stalls; the limit is 60 s):
/// the old judgement is dropped with its job, and the new version's `transted` gets the oracle
/// at once and closes the goal.
/// The stall matches the first version's candidate only (`_tt.S2`, the oracle's second
/// declaration); the edit waits until that query has surely been sent.
#[test]
fn an_edit_cancels_the_running_lean_judgement() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let goal = one_goal_tagged(equality_goal());
    let rules = [
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["skip"], "declContains": "@_tt.S2._stmt)", "stall": true}),
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["skip"], "declContains": "type_of%", "result": goal}),
        rfl_closes(),
        witness_axioms_clean(),
    ];
    let (mut ed, record, cand_uri) = start_recorded(root, &transted_lens(60000), &rules, &[]);
    let mut id = 10;
    // The TED round is done and transted runs (stalled in Lean).
    loop {
        let t = next_refresh_title(&mut ed, &cand_uri, &mut id);
        if t.contains("transted running…") && t.contains("ted ") {
            break;
        }
    }
    // Wait for the event itself: the stand-in received the goal query that stalls.
    wait_for_goal_query(&record, "@_tt.S2._stmt)");
    let edited = Instant::now();
    ed.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": cand_uri, "version": 2},
               "contentChanges": [{"text": CANDIDATE.replace("(m : Nat) : m + 0 = m", "(k : Nat) : k + 0 = k")}]}),
    );
    let (title, _) = settle(&mut ed, &cand_uri, &mut id);
    assert!(title.contains("transted 1.00"), "{title}");
    assert!(
        edited.elapsed() < Duration::from_secs(20),
        "waited for the old judgement: {:?}",
        edited.elapsed()
    );
}

/// The bodies the stand-in received (`LEAN_STANDIN_RECORD`), one JSON text per line.
fn recorded(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path).unwrap().lines().map(String::from).collect()
}

/// Wait (bounded) until the stand-in has received a `getInteractiveGoals` query at a position
/// inside a `by` block whose `:= by` line contains `decl_contains` — in the text of that
/// document as last sent (the oracle sends full texts: `didOpen`, full-text `didChange`).
fn wait_for_goal_query(record: &Path, decl_contains: &str) {
    let started = Instant::now();
    loop {
        let mut texts: std::collections::HashMap<String, String> = Default::default();
        let mut found = false;
        for line in recorded(record) {
            let v: Value = serde_json::from_str(&line).unwrap();
            let p = &v["params"];
            let uri = p["textDocument"]["uri"].as_str().unwrap_or("").to_string();
            match v["method"].as_str().unwrap_or("") {
                "textDocument/didOpen" => {
                    texts.insert(uri, p["textDocument"]["text"].as_str().unwrap_or("").into());
                }
                "textDocument/didChange" => {
                    if let Some(t) = p["contentChanges"][0]["text"].as_str() {
                        texts.insert(uri, t.into());
                    }
                }
                "$/lean/rpc/call" if p["method"] == "Lean.Widget.getInteractiveGoals" => {
                    let at = p["params"]["position"]["line"]
                        .as_u64()
                        .or_else(|| p["position"]["line"].as_u64())
                        .unwrap_or(0) as usize;
                    let text = texts.get(&uri).map(String::as_str).unwrap_or("");
                    let lines: Vec<&str> = text.lines().collect();
                    let by_line = lines[..=at.min(lines.len().saturating_sub(1))]
                        .iter()
                        .rev()
                        .find(|l| l.trim_end().ends_with(":= by"));
                    found |= by_line.is_some_and(|l| l.contains(decl_contains));
                }
                _ => {}
            }
        }
        if found {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no goal query in a block containing {decl_contains:?} reached the stand-in"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn method_of(line: &str) -> String {
    let v: Value = serde_json::from_str(line).unwrap();
    v["method"].as_str().unwrap_or("").to_string()
}

/// The lens oracle's RPC session is kept alive while a `transted` judgement waits on Lean
/// (interval shortened to 50 ms through `LEAN_ASSESS_KEEPALIVE_MS`; the goal query is answered
/// after 1 s): keepAlives name the oracle's scratch document and the session Lean gave it, they
/// reach the stand-in between the oracle's first `rpc/connect` and its last query, the judgement
/// completes, and none follows the editor's `shutdown` (Lean's watchdog takes only `exit` then).
/// The editor's own traffic sent meanwhile reaches Lean byte for byte and in order, and its
/// requests are answered.
#[test]
fn the_lens_oracle_is_kept_alive_while_it_judges_and_not_after_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let goal = one_goal_tagged(equality_goal());
    let rules = [
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["skip"], "declContains": "type_of%", "times": 1, "delayMs": 1000,
               "result": goal}),
        rfl_closes(),
        witness_axioms_clean(),
    ];
    let (mut ed, record, cand_uri, mut id) = transted_running(root, 20000, &rules);
    // The editor's own traffic while the judgement waits on Lean (its delayed goal query is
    // out: waited for in the record): notifications Lean alone sees, and requests Lean answers
    // (`standin/echo` returns each exactly as received).
    wait_for_goal_query(&record, "type_of%");
    let mut sent = Vec::new();
    for n in 0..10 {
        let note =
            json!({"jsonrpc": "2.0", "method": "$/lean-assess-test/seq", "params": {"n": n}});
        ed.send(&note);
        sent.push(serde_json::to_string(&note).unwrap());
        let request = json!({"jsonrpc": "2.0", "id": 500 + n, "method": "standin/echo",
                             "params": {"n": n, "text": "∀ x, x = x"}});
        ed.send(&request);
        sent.push(serde_json::to_string(&request).unwrap());
        // Pacing, not synchronisation: spread over the keepAlive ticks (50 ms) to interleave.
        std::thread::sleep(Duration::from_millis(30));
    }
    for n in 0..10 {
        let reply = ed.recv_matching(|m| m["id"] == json!(500 + n) && m.get("method").is_none());
        assert_eq!(
            reply["result"]["received"],
            json!({"jsonrpc": "2.0", "id": 500 + n, "method": "standin/echo",
                   "params": {"n": n, "text": "∀ x, x = x"}}),
            "{reply}"
        );
    }
    let (title, _) = settle(&mut ed, &cand_uri, &mut id);
    assert!(title.contains("transted 1.00"), "{title}");

    let done = ed.request(json!(900), "shutdown", Value::Null);
    assert_eq!(done["result"], Value::Null, "{done}");
    // An observation window, not synchronisation: six ticks' worth, in which a ticker still
    // running would be seen (an absence has no event to wait for).
    std::thread::sleep(Duration::from_millis(300));
    ed.notify("exit", Value::Null);
    let status = ed.wait(Duration::from_secs(10)).expect("the proxy exits");
    assert!(status.success(), "{status:?}");

    let lines = recorded(&record);
    let methods: Vec<String> = lines.iter().map(|l| method_of(l)).collect();
    let first_connect =
        methods.iter().position(|m| m == "$/lean/rpc/connect").expect("the oracle connected");
    let connect: Value = serde_json::from_str(&lines[first_connect]).unwrap();
    let scratch = connect["params"]["uri"].as_str().unwrap().to_string();
    assert!(scratch.contains("/.lean-assess-scratch/lean_assess_scratch_"), "{scratch}");
    let last_query = methods.iter().rposition(|m| m == "$/lean/rpc/call").unwrap();
    let shutdown = methods.iter().position(|m| m == "shutdown").unwrap();
    let alive: Vec<(usize, Value)> = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| methods[*i] == "$/lean/rpc/keepAlive")
        .map(|(i, l)| (i, serde_json::from_str::<Value>(l).unwrap()))
        .collect();
    let during = alive.iter().filter(|(i, _)| *i > first_connect && *i < last_query).count();
    assert!(
        during >= 5,
        "{during} keepAlive(s) while the judgement ran (1 s at 50 ms): {methods:?}"
    );
    for (_, a) in &alive {
        assert_eq!(a["params"]["uri"], json!(scratch), "{a}");
        let session = a["params"]["sessionId"].as_str().unwrap_or("");
        assert!(session.parse::<u64>().is_ok(), "the stand-in's session id: {a}");
    }
    assert!(alive.iter().all(|(i, _)| *i < shutdown), "keepAlive after shutdown: {methods:?}");
    assert_eq!(methods.last().map(String::as_str), Some("exit"), "{methods:?}");
    // The editor's messages, as sent and in order, with keepAlive ticks written among them.
    let editor: Vec<usize> = (0..lines.len())
        .filter(|&i| methods[i] == "$/lean-assess-test/seq" || methods[i] == "standin/echo")
        .collect();
    let editor_lines: Vec<&String> = editor.iter().map(|&i| &lines[i]).collect();
    assert_eq!(editor_lines, sent.iter().collect::<Vec<_>>());
    let (first, last) = (editor[0], editor[editor.len() - 1]);
    assert!(
        alive.iter().any(|(i, _)| *i > first && *i < last),
        "no tick among the editor's messages: {methods:?}"
    );
}

/// Ask for lenses on every refresh until the title contains `wanted`.
fn wait_for_title(ed: &mut Editor, cand_uri: &str, id: &mut i64, wanted: &str) {
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < Duration::from_secs(20), "never saw {wanted:?}");
        if next_refresh_title(ed, cand_uri, id).contains(wanted) {
            return;
        }
    }
}

/// The first lens's title after the next `workspace/codeLens/refresh` (each refresh and
/// capability registration answered on the way), asked for with the next request id.
fn next_refresh_title(ed: &mut Editor, cand_uri: &str, id: &mut i64) -> String {
    loop {
        let m = ed.recv_matching(|m| {
            m["method"] == "workspace/codeLens/refresh"
                || m["method"] == "client/registerCapability"
        });
        ed.send(&json!({"jsonrpc": "2.0", "id": m["id"], "result": null}));
        if m["method"] == "workspace/codeLens/refresh" {
            break;
        }
    }
    *id += 1;
    let l =
        ed.request(json!(*id), "textDocument/codeLens", json!({"textDocument": {"uri": cand_uri}}));
    l["result"][0]["command"]["title"].as_str().unwrap_or("").to_string()
}

/// An editor that leaves without `shutdown` while a lens judgement waits on Lean (its goal
/// query never answered): the proxy sends Lean `shutdown` and `exit` itself, and the keep-alive
/// and the judgement stop before its `shutdown` — nothing but `exit` follows it. (Lean answers
/// `shutdown` after 200 ms here, four ticks' worth, so a ticker still running would be seen.)
#[test]
fn an_editor_leaving_mid_judgement_stops_the_keep_alive_before_the_proxys_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let rules = [
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["skip"], "declContains": "type_of%", "stall": true}),
        json!({"method": "shutdown", "delayMs": 200, "result": null}),
    ];
    let (mut ed, record, _, _) = transted_running(root, 60000, &rules);
    // The stalled query is out and the session is ticking (a stall does not stop the stand-in
    // reading, so the record is live).
    let started = Instant::now();
    while recorded(&record).iter().filter(|l| method_of(l) == "$/lean/rpc/keepAlive").count() < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no keepAlive while the judgement waits"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    ed.close_stdin();
    // (The scripted `shutdown` reply leaves the stand-in unaware of it: it exits 1 on `exit`.)
    ed.wait(Duration::from_secs(10)).expect("the proxy exits");

    let methods: Vec<String> = recorded(&record).iter().map(|l| method_of(l)).collect();
    let shutdown = methods.iter().position(|m| m == "shutdown").unwrap();
    assert_eq!(methods[shutdown..], ["shutdown", "exit"], "{methods:?}");
}

/// BEq in the lens asks the `[llm]` endpoint for `samples` proofs per direction (3 here, not
/// the default 8), as batch does: no fixed attempt proves the pair (`exact?` finds nothing,
/// every `exact` script fails), the sampled `rw [thm_P]` proves both directions.
/// The `[llm]` is the project file's, so nothing is sent before the user allows it
/// through `window/showMessageRequest`; "Allow" is remembered in the user's state directory
/// (not in the workspace), and the project's `api_key_env` is never read.
#[test]
fn beq_in_the_lens_asks_the_configured_number_of_samples() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let state = tempfile::tempdir().unwrap();
    let state_dir = state.path().display().to_string();
    let answer = "```lean\nrw [thm_P]\n```";
    let llm = llm_stand_in(&[answer, answer, answer]);
    let rules = [
        json!({"method": "textDocument/codeAction", "result": []}),
        json!({"method": "standin/diagnostic", "lineContains": "exact",
               "message": "type mismatch"}),
        json!({"method": "standin/diagnostic", "lineContains": "#print axioms", "severity": 3,
               "message": "'q' depends on axioms: [propext, sorryAx]"}),
    ];
    // K is the user's to set (each sample costs): a project's `samples` is ignored, so it is in
    // the user's settings here, and the project asks for 50.
    let user = state.path().join("user.toml");
    std::fs::write(&user, "[llm]\nsamples = 3\n").unwrap();
    let user = user.display().to_string();
    let (mut ed, _) = start_with(
        root,
        &format!(
            "lens = [\"beq\"]\nbeq_timeout_ms = 20000\n\n[llm]\nbase_url = \"{}\"\n\
             model = \"stand-in\"\napi_key_env = \"LEAN_ASSESS_LENS_TEST_KEY\"\nsamples = 50\n",
            llm.base_url
        ),
        &rules,
        &[
            ("LEAN_ASSESS_LENS_TEST_KEY", "sk-lens-test"),
            ("XDG_STATE_HOME", state_dir.as_str()),
            ("LEAN_ASSESS_CONFIG", user.as_str()),
        ],
    );
    let cand_uri = uri_of(&root.join("Cand.lean"));
    ed.open_document(&cand_uri, CANDIDATE);
    let mut id = 10;
    let (title, _) = settle(&mut ed, &cand_uri, &mut id);
    assert!(!title.contains("beq equivalent"), "{title}");
    assert!(llm.seen.lock().unwrap().is_empty(), "sent before the user allowed it");
    let ask = ed.recv_matching(|m| m["method"] == "window/showMessageRequest");
    let message = ask["params"]["message"].as_str().unwrap_or("");
    assert!(message.contains(&llm.base_url), "{message}");
    ed.send(&json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"title": "Allow"}}));
    let started = Instant::now();
    loop {
        let (title, _) = settle(&mut ed, &cand_uri, &mut id);
        if title.contains("beq equivalent") {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(40), "never re-judged: {title}");
    }
    let remembered = state.path().join("lean-assess/llm-trust.json");
    assert!(remembered.is_file(), "the answer is kept in the user's state");
    assert!(!root.join("llm-trust.json").exists());
    let seen = llm.seen.lock().unwrap().clone();
    // Three choices per answer: K = 3 is one request per direction (K = 8 would be three).
    let ks: Vec<&Value> = seen.iter().map(|(_, body)| &body["n"]).collect();
    assert_eq!(seen.len(), 2, "the `n` of each request: {ks:?}");
    for (headers, body) in &seen {
        assert_eq!(body["n"], 3, "{body}");
        assert_eq!(body["model"], "stand-in");
        assert!(
            !headers.iter().any(|(k, _)| k == "authorization"),
            "the project's api_key_env was read: {headers:?}"
        );
    }
}

/// Ask for lenses on every refresh until no metric is pending or running; returns the last
/// title and every title seen on the way.
fn settle(ed: &mut Editor, cand_uri: &str, id: &mut i64) -> (String, Vec<String>) {
    let started = Instant::now();
    let mut seen = Vec::new();
    let title = loop {
        assert!(started.elapsed() < Duration::from_secs(40), "lens never settled: {seen:?}");
        let t = next_refresh_title(ed, cand_uri, id);
        seen.push(t.clone());
        if !t.is_empty() && !t.contains("running") && !t.contains("pending") {
            break t;
        }
    };
    (title, seen)
}

/// A header error at 0:0 ("Imports are out of date…", as a real worker reports it): every
/// Lean-backed lens metric says "failed" with Lean's message and the scratch document in the
/// hover — never a score, "not equivalent" or "timed out".
#[test]
fn a_header_error_fails_the_lean_lens_metrics_loudly() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let rules = [json!({"method": "standin/header", "kind": "outOfDate"})];
    let (mut ed, _) = start(
        root,
        "lens = [\"ted\", \"defeq\", \"transted\", \"beq\"]\ntransted_timeout_ms = 10000\nbeq_timeout_ms = 10000\n",
        &rules,
    );
    let cand_uri = uri_of(&root.join("Cand.lean"));
    ed.open_document(&cand_uri, CANDIDATE);
    let mut id = 10;
    let (title, seen) = settle(&mut ed, &cand_uri, &mut id);
    for m in ["defeq failed", "transted failed", "beq failed"] {
        assert!(title.contains(m), "{m}: {title} ({seen:?})");
    }
    let hover = ed.request(
        json!(900),
        "textDocument/hover",
        json!({"textDocument": {"uri": cand_uri}, "position": {"line": 0, "character": 9}}),
    );
    // The hover wraps long lines (lean.nvim shows it raw): compare with whitespace collapsed.
    let value = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    let text = value.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains("Imports are out of date and must be rebuilt")
            && text.contains("lean_assess_scratch_"),
        "{text}"
    );
    // The failed scratch documents were discarded (opened afresh next time): no file is left.
    assert!(!root.join(".lean-assess-scratch").exists());
}

/// `beq+` in the lens: no LLM, the fixed attempts (exact? finds nothing, `assumption` and
/// `apply thm_P` fail, the closers alone do not close the goal, the `have` attempt proves each
/// direction): "beq+ equivalent".
#[test]
fn beq_plus_in_the_lens() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let rules = beq_plus_rules();
    let (mut ed, _) = start(root, "lens = [\"ted\", \"beq+\"]\nbeq_timeout_ms = 10000\n", &rules);
    let cand_uri = uri_of(&root.join("Cand.lean"));
    ed.open_document(&cand_uri, CANDIDATE);
    let mut id = 10;
    let (title, seen) = settle(&mut ed, &cand_uri, &mut id);
    assert!(title.contains("beq+ equivalent"), "{title} ({seen:?})");
    assert!(!title.contains("not equivalent"), "{title}");
}

/// A first open that outlasts the load bound (`LEAN_ASSESS_LOAD_TIMEOUT_MS`, here 500 ms; the
/// stand-in never finishes the warm-up version): the lens says Lean is loading the imports —
/// not "timed out", not a score — while `ted` is unaffected.
#[test]
fn a_slow_first_open_says_lean_is_loading_not_timed_out() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let rules = [json!({"method": "textDocument/waitForDiagnostics",
                        "textContains": "example (a b : Nat)", "stall": true})];
    let (mut ed, _) =
        start_with(root, &transted_lens(60000), &rules, &[("LEAN_ASSESS_LOAD_TIMEOUT_MS", "500")]);
    let cand_uri = uri_of(&root.join("Cand.lean"));
    ed.open_document(&cand_uri, CANDIDATE);
    let mut id = 10;
    let (title, seen) = settle(&mut ed, &cand_uri, &mut id);
    assert!(title.contains("transted failed"), "{title} ({seen:?})");
    assert!(!title.contains("timed out"), "{title}");
    let hover = ed.request(
        json!(900),
        "textDocument/hover",
        json!({"textDocument": {"uri": cand_uri}, "position": {"line": 0, "character": 9}}),
    );
    let text = hover.to_string();
    assert!(
        text.contains("Lean is loading the imports")
            && text.contains("not the metric's time limit"),
        "{text}"
    );
}
