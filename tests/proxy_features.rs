//! End to end: `lean-assess serve -- lean-standin` driven like an editor, over pipes.
//!
//! A workspace with `Reference.lean`, `lean-assess.toml` (`[reference] file`) and a candidate
//! with one theorem under a `-- @reference` directive and one matched by name through the
//! config. Checks: initialize gains lens + commands; a `workspace/codeLens/refresh` comes; the
//! lenses carry the TED value; hover = Lean's part, `***`, ours; codeAction = Lean's + our three;
//! "Show differences" → one publishDiagnostics with Lean's and ours; didChange → ours cleared and
//! the lens refreshed; with the reference open too, the elaborated trees come from the stand-in's
//! RPC goals; and none of the proxy's own traffic (its request ids, RPC replies) reaches the
//! editor.

mod common;

use common::{uri_of, Editor};
use serde_json::{json, Value};
use std::time::Duration;

const REFERENCE: &str = "import Mathlib\n\ntheorem mathd_algebra_478 (b h v : ℝ) (h₀ : 0 < b ∧ 0 < h ∧ 0 < v) (h₁ : v = 1 / 3 * (b * h)) (h₂ : b = 30) (h₃ : h = 13 / 2) : v = 65 := by\n  sorry\n\ntheorem same_name (x : ℕ) (h₁ : x ≤ 3) : x + 1 ≤ 4 := by\n  omega\n";
const CANDIDATE: &str = "import Mathlib\n\n-- @reference Reference.lean::mathd_algebra_478\ntheorem cone (b h v : ℝ) (h₀ : 0 < b ∧ 0 < h ∧ 0 < v) (h₁ : v = 1 / 3 * (b * h)) (h₃ : h = 13 / 2) : v = 65 := by\n  sorry\n\ntheorem same_name (x : ℕ) (h₁ : x < 3) : 1 + x ≤ 4 := by\n  omega\n";

fn start(dir: &tempfile::TempDir) -> Editor {
    let root = dir.path();
    std::fs::write(root.join("Reference.lean"), REFERENCE).unwrap();
    Editor::proxy_in_project(root, "[reference]\nfile = \"Reference.lean\"\n", &[])
}

fn is_own_id(m: &Value) -> bool {
    m.get("id").and_then(Value::as_str).is_some_and(|s| s.starts_with("lean-assess:"))
}

/// Wait for the proxy's `workspace/codeLens/refresh` request and answer it as an editor does.
fn await_refresh(ed: &mut Editor) {
    let r = ed.recv_matching(|m| m["method"] == "workspace/codeLens/refresh");
    assert!(r.get("id").is_some(), "a request: {r}");
    ed.send(&json!({"jsonrpc": "2.0", "id": r["id"], "result": null}));
}

/// Read everything the proxy has sent so far (and not yet consumed) and check that none of its
/// own traffic is among it: no reply to an own request, no `$/lean/rpc` message, and own ids
/// only on our server→client requests (which carry a method).
fn drain_checking(ed: &mut Editor) {
    while let Some(body) = ed.recv_raw(Duration::from_millis(300)) {
        let m: Value = serde_json::from_slice(&body).unwrap();
        if m.get("method").is_none() {
            assert!(!is_own_id(&m), "own reply leaked: {m}");
        }
        let method = m["method"].as_str().unwrap_or("");
        assert!(!method.starts_with("$/lean/rpc"), "own RPC traffic leaked: {m}");
        if is_own_id(&m) {
            assert!(
                method == "workspace/codeLens/refresh"
                    || method == "window/showDocument"
                    || method == "workspace/applyEdit",
                "{m}"
            );
        }
    }
}

#[test]
fn lenses_hover_actions_differences_and_edits_through_the_proxy() {
    let dir = tempfile::tempdir().unwrap();
    let mut ed = start(&dir);
    let root = dir.path();
    let cand_uri = uri_of(&root.join("Cand.lean"));
    let ref_uri = uri_of(&root.join("Reference.lean"));

    let init = ed.request(
        json!(0),
        "initialize",
        json!({"processId": null, "rootUri": uri_of(root),
               "capabilities": {"workspace": {"codeLens": {"refreshSupport": true}, "applyEdit": true},
                                "window": {"showDocument": {"support": true}}}}),
    );
    let caps = &init["result"]["capabilities"];
    assert_eq!(caps["codeLensProvider"], json!({"resolveProvider": false}));
    let commands: Vec<String> = caps["executeCommandProvider"]["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    assert_eq!(commands.len(), 4);
    assert!(caps["hoverProvider"].as_bool().unwrap(), "Lean's capabilities kept");
    ed.notify("initialized", json!({}));
    let reg = ed.recv_matching(|m| m["method"] == "client/registerCapability");
    ed.send(&json!({"jsonrpc": "2.0", "id": reg["id"], "result": null}));

    // The reference open as well: the proxy then asks Lean (the stand-in) for elaborated goals.
    ed.open_document(&ref_uri, REFERENCE);
    ed.open_document(&cand_uri, CANDIDATE);
    // One refresh per lens-metric round, then again once the elaborated trees are in; the
    // editor asks for lenses again after each, until the TED values are there.
    let mut id = 10;
    let lenses = loop {
        await_refresh(&mut ed);
        id += 1;
        let l = ed.request(
            json!(id),
            "textDocument/codeLens",
            json!({"textDocument": {"uri": cand_uri}}),
        );
        let l = l["result"].as_array().cloned().unwrap_or_default();
        let ready = l.len() == 2
            && l.iter().all(|x| {
                let t = x["command"]["title"].as_str().unwrap_or("");
                t.starts_with("lean-assess: ") && (t.contains(" ted 0.") || t.contains(" ted 1."))
            });
        if ready {
            break l;
        }
    };
    assert_eq!(lenses.len(), 2, "{lenses:?}");
    for l in &lenses {
        let title = l["command"]["title"].as_str().unwrap();
        assert!(title.starts_with("lean-assess: "), "{title}");
        assert!(title.contains(" ted "), "{title}");
        assert!(commands.contains(&l["command"]["command"].as_str().unwrap().to_string()));
    }
    assert_eq!(lenses[0]["range"]["start"], json!({"line": 3, "character": 0}));
    assert_eq!(lenses[1]["range"]["start"], json!({"line": 6, "character": 0}));

    // Hover on `same_name` (line 6, columns 8..17): Lean's part, `***`, ours.
    let hover = ed.request(
        json!(20),
        "textDocument/hover",
        json!({"textDocument": {"uri": cand_uri}, "position": {"line": 6, "character": 10}}),
    );
    let value = hover["result"]["contents"]["value"].as_str().unwrap();
    let (lean_part, ours) = value.split_once("\n\n***\n\n").expect("a *** rule");
    assert!(lean_part.starts_with("```lean\n"), "{lean_part}");
    assert!(
        ours.starts_with("**lean-assess**: ") && ours.contains("Reference `same_name`"),
        "{ours}"
    );
    assert!(ours.contains("- ted: "), "{ours}");
    assert!(ours.contains("Reference statement:"), "{ours}");

    // Code actions on line 6: Lean's "Try this" kept, our three appended.
    let actions = ed.code_actions(json!(21), &cand_uri, 6, 0);
    let actions = actions["result"].as_array().unwrap().clone();
    let titles: Vec<&str> = actions.iter().map(|a| a["title"].as_str().unwrap()).collect();
    assert!(titles[0].starts_with("Try this"), "{titles:?}");
    assert_eq!(titles.len(), 4, "{titles:?}");
    assert!(titles[1].contains("Show differences"));
    assert!(titles[2].contains("Show proof path"));
    assert!(titles[3].contains("Use as reference"));

    // Execute "Show differences": a publishDiagnostics merging Lean's with ours.
    let done = ed.execute(json!(22), &actions[1]["command"]);
    assert_eq!(done["result"], Value::Null, "{done}");
    let list = ed.recv_diagnostics_from(&cand_uri, "lean-assess");
    assert!(list.iter().any(|d| d["source"] != "lean-assess"), "Lean's diagnostics kept: {list:?}");
    let ours: Vec<&Value> = list.iter().filter(|d| d["source"] == "lean-assess").collect();
    assert!(ours.iter().all(|d| d["severity"] == 3));
    assert!(ours
        .iter()
        .any(|d| d["message"].as_str().unwrap().contains("'<' where the reference has '≤'")));

    // Clicking the lens shows the details: a read-only markdown file opened via
    // window/showDocument (the editor's reply is consumed by the proxy).
    ed.execute(json!(23), &lenses[1]["command"]);
    let show = ed.recv_matching(|m| m["method"] == "window/showDocument");
    let shown = lean_assess::files::uri_to_path(show["params"]["uri"].as_str().unwrap()).unwrap();
    let details = std::fs::read_to_string(&shown).unwrap();
    assert!(details.starts_with("# lean-assess: `same_name`"), "{details}");
    assert!(shown.starts_with(root.join("cache")), "{}", shown.display());
    ed.send(&json!({"jsonrpc": "2.0", "id": show["id"], "result": {"success": true}}));

    // "Use as reference" on the directive-based theorem: a [[reference.pair]] appended to
    // lean-assess.toml through workspace/applyEdit.
    let acts = ed.code_actions(json!(24), &cand_uri, 3, 0);
    let use_ref = acts["result"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"].as_str().unwrap_or("").contains("Use as reference"))
        .unwrap()["command"]
        .clone();
    ed.request(
        json!(25),
        "workspace/executeCommand",
        json!({"command": use_ref["command"], "arguments": use_ref["arguments"]}),
    );
    let apply = ed.recv_matching(|m| m["method"] == "workspace/applyEdit");
    let changes = &apply["params"]["edit"]["documentChanges"];
    assert_eq!(changes[1]["textDocument"]["uri"], uri_of(&root.join("lean-assess.toml")));
    assert_eq!(
        changes[1]["edits"][0]["newText"],
        "\n[[reference.pair]]\ncandidate = \"Cand.lean::cone\"\nreference = \"Reference.lean::mathd_algebra_478\"\n"
    );
    ed.send(&json!({"jsonrpc": "2.0", "id": apply["id"], "result": {"applied": true}}));

    // An edit clears our diagnostics and refreshes the lens: the first publishDiagnostics for
    // the candidate after the edit has none of ours.
    drain_checking(&mut ed);
    ed.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": cand_uri, "version": 2},
               "contentChanges": [{"range": {"start": {"line": 6, "character": 34}, "end": {"line": 6, "character": 35}}, "text": "≤"}]}),
    );
    let cleared = ed.recv_matching(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == cand_uri
    });
    assert!(
        cleared["params"]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["source"] != "lean-assess"),
        "{cleared}"
    );
    await_refresh(&mut ed);

    // With both documents open, the proxy reads the elaborated trees from Lean's RPC goals
    // (the stand-in answers with the recorded `interactiveGoals.result.json`) and says so.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let mut id = 100;
    loop {
        id += 1;
        let hover = ed.request(
            json!(id),
            "textDocument/hover",
            json!({"textDocument": {"uri": cand_uri}, "position": {"line": 6, "character": 10}}),
        );
        let v = hover["result"]["contents"]["value"].as_str().unwrap_or("").to_string();
        if v.contains("trees elaborated by Lean") {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no elaborated trees: {v}");
        std::thread::sleep(Duration::from_millis(50));
    }

    drain_checking(&mut ed);
    ed.close_stdin();
    assert!(ed.wait(Duration::from_secs(10)).is_some(), "proxy exits");
}
