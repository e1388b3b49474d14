//! The Lean-backed lens metrics end to end: `lean-assess serve -- lean-standin` with
//! `[metrics] lens = ["ted", "defeq", "transted", "beq"]`. The stand-in is scripted so that the
//! merged goal `(type_of% @P) = (type_of% @Q)` is an equality `rfl` closes (defeq: equivalent;
//! transted: closed at stage 0, score 1.00, a witness), and BEq's checks stall (its lens ends
//! "timed out" after `beq_timeout_ms`). "Show proof path" opens the transted witness. Goal types
//! are TaggedText in the shape of `interactiveGoals-rw-nested.result.json`.

mod common;

use common::{Editor, PROXY, STANDIN};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const REFERENCE: &str = "theorem pair_a (n : Nat) : n + 0 = n := by\n  sorry\n";
const CANDIDATE: &str = "theorem pair_a (m : Nat) : m + 0 = m := by\n  sorry\n";

fn uri_of(p: &Path) -> String {
    lean_assess::references::path_to_uri(p)
}

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
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["skip"], "declContains": "type_of%", "times": 1,
               "result": {"goals": [{"type": equality_goal(), "mvarId": "_uniq.1", "hyps": [],
                                     "goalPrefix": "⊢ ", "ctx": {"__rpcref": "0"}}]}}),
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["rfl"], "declContains": "type_of%", "times": 2, "result": {"goals": []}}),
        // BEq's checks (their `:= by` line is the goal theorem's) never answer.
        json!({"method": "textDocument/waitForDiagnostics", "uri": uri_of(&root.join(".scratch/beq/scratch0.lean")),
               "stall": true}),
        json!({"method": "standin/diagnostic", "lineContains": "#print axioms", "severity": 3,
               "message": "'transted_witness' depends on axioms: [propext]"}),
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
    ed.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": cand_uri, "languageId": "lean4", "version": 1, "text": CANDIDATE}}),
    );

    let mut id = 10;
    let (title, seen) = settle(&mut ed, &cand_uri, &mut id);
    assert!(
        seen.iter().any(|t| t.contains("transted running…")),
        "{seen:?}"
    );
    assert!(title.contains("defeq equivalent"), "{title}");
    assert!(title.contains("transted 1.00"), "{title}");
    assert!(title.contains("beq timed out"), "{title}");

    // "Show proof path": the witness example, in a read-only file.
    let proof_cmd = commands
        .iter()
        .find(|c| c.ends_with(".showProofPath"))
        .unwrap();
    let done = ed.request(
        json!(99),
        "workspace/executeCommand",
        json!({"command": proof_cmd, "arguments": [cand_uri, "pair_a"]}),
    );
    assert_eq!(done.get("error"), None, "{done}");
    let show = ed.recv_matching(|m| m["method"] == "window/showDocument");
    let shown =
        lean_assess::references::uri_to_path(show["params"]["uri"].as_str().unwrap()).unwrap();
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
    std::fs::write(root.join("Reference.lean"), REFERENCE).unwrap();
    std::fs::write(root.join("lean-toolchain"), "leanprover/lean4:v4.9.0\n").unwrap();
    std::fs::write(
        root.join("lean-assess.toml"),
        format!("[reference]\nfile = \"Reference.lean\"\n\n[metrics]\n{metrics}"),
    )
    .unwrap();
    let script: String = rules.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(root.join("script.jsonl"), script).unwrap();
    let logs = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(PROXY);
    cmd.arg("serve")
        .arg("--log")
        .arg(logs.path().join("serve.log"))
        .arg("--")
        .arg(STANDIN)
        .current_dir(root)
        .env_remove("LEAN_ASSESS_CONFIG")
        .env("XDG_CACHE_HOME", root.join("cache"));
    let script_path = root.join("script.jsonl").display().to_string();
    let mut ed = Editor::spawn(cmd, &[("LEAN_STANDIN_SCRIPT", &script_path)], logs);
    let init = ed.request(
        json!(0),
        "initialize",
        json!({"processId": null, "rootUri": uri_of(root),
               "capabilities": {"workspace": {"codeLens": {"refreshSupport": true}},
                                "window": {"showDocument": {"support": true}}}}),
    );
    ed.notify("initialized", json!({}));
    (ed, init)
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
    let goal = json!({"goals": [{"type": equality_goal(), "mvarId": "_uniq.1", "hyps": [],
                                 "goalPrefix": "⊢ ", "ctx": {"__rpcref": "0"}}]});
    let rules = [
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["skip"], "declContains": "@_tt.S2._stmt)", "stall": true}),
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["skip"], "declContains": "type_of%", "result": goal}),
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["rfl"], "declContains": "type_of%", "result": {"goals": []}}),
        json!({"method": "standin/diagnostic", "lineContains": "#print axioms", "severity": 3,
               "message": "'transted_witness' depends on axioms: [propext]"}),
    ];
    let (mut ed, _) = start(
        root,
        "lens = [\"ted\", \"transted\"]\ntransted_timeout_ms = 60000\n",
        &rules,
    );
    let cand_uri = uri_of(&root.join("Cand.lean"));
    ed.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": cand_uri, "languageId": "lean4", "version": 1, "text": CANDIDATE}}),
    );
    let mut id = 10;
    // The TED round is done and transted runs (stalled in Lean).
    loop {
        let m = ed.recv_matching(|m| {
            m["method"] == "workspace/codeLens/refresh"
                || m["method"] == "client/registerCapability"
        });
        ed.send(&json!({"jsonrpc": "2.0", "id": m["id"], "result": null}));
        if m["method"] != "workspace/codeLens/refresh" {
            continue;
        }
        id += 1;
        let l = ed.request(
            json!(id),
            "textDocument/codeLens",
            json!({"textDocument": {"uri": cand_uri}}),
        );
        let t = l["result"][0]["command"]["title"].as_str().unwrap_or("");
        if t.contains("transted running…") && t.contains("ted ") {
            break;
        }
    }
    // The stand-in answers in milliseconds: by now the stalled goal query is out.
    std::thread::sleep(Duration::from_millis(1000));
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

/// Ask for lenses on every refresh until no metric is pending or running; returns the last
/// title and every title seen on the way.
fn settle(ed: &mut Editor, cand_uri: &str, id: &mut i64) -> (String, Vec<String>) {
    let started = Instant::now();
    let mut seen = Vec::new();
    let title = loop {
        assert!(
            started.elapsed() < Duration::from_secs(40),
            "lens never settled: {seen:?}"
        );
        let m = ed.recv_matching(|m| {
            m["method"] == "workspace/codeLens/refresh"
                || m["method"] == "client/registerCapability"
        });
        ed.send(&json!({"jsonrpc": "2.0", "id": m["id"], "result": null}));
        if m["method"] != "workspace/codeLens/refresh" {
            continue;
        }
        *id += 1;
        let l = ed.request(
            json!(*id),
            "textDocument/codeLens",
            json!({"textDocument": {"uri": cand_uri}}),
        );
        let t = l["result"][0]["command"]["title"]
            .as_str()
            .unwrap_or("")
            .to_string();
        seen.push(t.clone());
        if !t.is_empty() && !t.contains("running") && !t.contains("pending") {
            break t;
        }
    };
    (title, seen)
}
