//! End-to-end tests of the features through their facade: a workspace with a reference file
//! and a config, a candidate opened, edited and closed, and what the editor is sent. Tests of one
//! concern alone live with it.

use super::diagnostics::MAX_LEAN_DIAGNOSTIC_BYTES;
use super::jobs::{MetricState, TheoremCore};
use super::scheduling::MAX_JUDGED_DOCUMENT_BYTES;
use super::*;
use crate::files::{path_to_uri, uri_to_path};
use std::path::Path;
use std::time::Instant;

/// Features over a disconnected Lean serving the workspace `root` (none: no workspace), and
/// what they send the editor (a queue of `queue` messages).
fn features_in(root: Option<&Path>, queue: usize) -> (Features, mpsc::Receiver<ToEditor>) {
    let (tx, rx) = mpsc::channel(queue);
    let f = Features::new(
        FeaturesConfig { config_path: None, workspace_root: root.map(Path::to_path_buf) },
        tx,
        Arc::new(LeanClient::disconnected()),
    );
    (f, rx)
}

fn bare_features() -> (Features, mpsc::Receiver<ToEditor>) {
    features_in(None, 16)
}

fn publish_body(uri: &str, version: i64, incremental: bool, diags: &[Value]) -> Vec<u8> {
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
        "params": {"uri": uri, "version": version, "diagnostics": diags, "isIncremental": incremental}}))
    .unwrap()
}

#[test]
fn incremental_lean_diagnostics_accumulate_in_linear_time() {
    let (f, mut rx) = bare_features();
    let uri = "file:///w/A.lean";
    let n = 20_000;
    let started = Instant::now();
    for i in 0..n {
        let d = json!({"range": {"start": {"line": i, "character": 0}, "end": {"line": i, "character": 1}},
            "message": format!("m{i}"), "severity": 2});
        assert!(f.lean_diagnostics(&publish_body(uri, 3, i > 0, &[d])).is_empty());
    }
    // The quadratic store (a copy of the whole list per message) took minutes for this.
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    {
        let ld = lock(&f.inner.diagnostics.lean);
        assert_eq!(ld[uri].diagnostics.len(), n as usize);
        assert_eq!(ld[uri].version, "3");
    }
    // A republish carries them all, in order.
    f.publish(uri);
    let Ok(ToEditor::Notification { params, .. }) = rx.try_recv() else { panic!("no publish") };
    let list = params["diagnostics"].as_array().unwrap();
    assert_eq!(list.len(), n as usize);
    assert_eq!(list[n as usize - 1]["message"], format!("m{}", n - 1));
    assert_eq!(params["version"], 3);
    // A new version replaces; closing the document frees the entry.
    f.lean_diagnostics(&publish_body(uri, 4, true, &[json!({"message": "x"})]));
    assert_eq!(lock(&f.inner.diagnostics.lean)[uri].diagnostics.len(), 1);
    f.observe_client_notification(
        "textDocument/didOpen",
        &json!({"textDocument": {"uri": uri, "languageId": "lean4", "version": 4, "text": ""}}),
    );
    f.observe_client_notification("textDocument/didClose", &json!({"textDocument": {"uri": uri}}));
    assert!(lock(&f.inner.diagnostics.lean).get(uri).is_none());
}

#[test]
fn lean_diagnostics_beyond_the_bound_are_not_kept_nor_clobbered() {
    let (f, mut rx) = bare_features();
    let uri = "file:///w/Big.lean";
    let big = "x".repeat(MAX_LEAN_DIAGNOSTIC_BYTES);
    f.lean_diagnostics(&publish_body(uri, 1, false, &[json!({"message": big})]));
    {
        let ld = lock(&f.inner.diagnostics.lean);
        assert!(ld[uri].overflow);
        assert!(ld[uri].diagnostics.is_empty());
        assert_eq!(ld[uri].bytes, 0);
    }
    // No republish that would replace Lean's list by a part of it: a message instead.
    f.publish(uri);
    match rx.try_recv() {
        Ok(ToEditor::Notification { method, params }) => {
            assert_eq!(method, "window/showMessage");
            assert!(params["message"].as_str().unwrap().contains("too many"));
        }
        other => panic!("{other:?}"),
    }
    // The next version within the bound is kept again.
    f.lean_diagnostics(&publish_body(uri, 2, false, &[json!({"message": "small"})]));
    assert!(!lock(&f.inner.diagnostics.lean)[uri].overflow);
}

struct Setup {
    _dir: tempfile::TempDir,
    features: Features,
    rx: mpsc::Receiver<ToEditor>,
    uri: String,
}

const REFERENCE: &str = "import Mathlib\n\ntheorem mathd_algebra_478 (b h v : ℝ) (h₀ : 0 < b ∧ 0 < h ∧ 0 < v) (h₁ : v = 1 / 3 * (b * h)) (h₂ : b = 30) (h₃ : h = 13 / 2) : v = 65 := by sorry\n\ntheorem same_name (x : ℕ) (h₁ : x ≤ 3) : x + 1 ≤ 4 := by omega\n";
const CANDIDATE: &str = "import Mathlib\n\n-- @reference Reference.lean::mathd_algebra_478\ntheorem cone (b h v : ℝ) (h₀ : 0 < b ∧ 0 < h ∧ 0 < v) (h₁ : v = 1 / 3 * (b * h)) (h₃ : h = 13 / 2) : v = 65 := by sorry\n\ntheorem same_name (x : ℕ) (h₁ : x < 3) : 1 + x ≤ 4 := by omega\n";

async fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    std::fs::write(root.join("Reference.lean"), REFERENCE).unwrap();
    std::fs::write(root.join("lean-assess.toml"), "[reference]\nfile = \"Reference.lean\"\n")
        .unwrap();
    let (features, rx) = features_in(Some(&root), 64);
    features.on_initialize_request(&json!({
        "rootUri": path_to_uri(&root),
        "capabilities": {"workspace": {"codeLens": {"refreshSupport": true}, "applyEdit": true},
                         "window": {"showDocument": {"support": true}}}
    }));
    let uri = path_to_uri(&root.join("Cand.lean"));
    Setup { _dir: dir, features, rx, uri }
}

/// Wait until the job for the current version has finished every round, then drop what it
/// sent (refreshes) so the test sees only what follows.
async fn settle(f: &Features, uri: &str, rx: &mut mpsc::Receiver<ToEditor>) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let doc_version = f.documents().get(uri).map(|d| d.version);
        let done = f.analysis(uri).is_some_and(|a| {
            Some(a.version) == doc_version
                && a.theorems.iter().all(|t| {
                    t.metrics
                        .iter()
                        .all(|(_, s)| !matches!(s, MetricState::Pending | MetricState::Running))
                })
        });
        if done {
            break;
        }
        assert!(Instant::now() < deadline, "job did not finish");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    drain(rx);
}

async fn next_refresh(rx: &mut mpsc::Receiver<ToEditor>) {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(20), rx.recv())
            .await
            .expect("a message within 20 s")
            .expect("channel open");
        if matches!(&m, ToEditor::Request { method, .. } if method == "workspace/codeLens/refresh")
        {
            return;
        }
    }
}

/// Until the document's job has ended (polling its task's state; the messages it sends
/// meanwhile are dropped).
async fn job_done(s: &mut Setup) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        while s.rx.try_recv().is_ok() {}
        let done = lock(&s.features.inner.scheduler.jobs)
            .get(&s.uri)
            .is_none_or(|j| j.handle.is_finished());
        if done {
            return;
        }
        assert!(Instant::now() < deadline, "the job did not end within 20 s");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

fn change(s: &Setup, version: i64) {
    // Alternating texts: each edit is a real change of the candidate.
    let text = CANDIDATE.replace("v = 65", if version % 2 == 0 { "v = 66" } else { "v = 65" });
    s.features.observe_client_notification(
        "textDocument/didChange",
        &json!({"textDocument": {"uri": s.uri, "version": version}, "contentChanges": [{"text": text}]}),
    );
}

#[tokio::test]
async fn a_burst_of_edits_runs_one_job_after_the_document_is_quiet() {
    let mut s = setup().await;
    // Both CPU permits held: every job that starts stays running (as metric work under
    // load does), so without the wait each edit of the burst would start one.
    let held = s.features.inner.cpu.clone().acquire_many_owned(2).await.unwrap();
    open_document(&s, CANDIDATE);
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert_eq!(s.features.jobs_run(), 1, "the open's job starts at once");
    let quiet = s.features.inner.scheduler.quiet;
    // Ten edits 20 ms apart, each while the previous job runs or waits.
    let mut last_edit = Instant::now();
    for version in 2..=11 {
        change(&s, version);
        last_edit = Instant::now();
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(s.features.jobs_run(), 1, "no job started during the burst");
    drop(held);
    next_refresh(&mut s.rx).await;
    let waited = last_edit.elapsed();
    job_done(&mut s).await;
    assert_eq!(s.features.jobs_run(), 2, "one job for the whole burst");
    assert!(
        waited >= quiet,
        "the job started before the document was quiet for {quiet:?} ({waited:?})"
    );
    assert_eq!(s.features.analysis(&s.uri).unwrap().version, 11);

    // A single edit to the quiet document starts its job at once (by the rule tested in
    // `continuous_typing_still_starts_a_job_every_max_wait`; its timing is not asserted).
    change(&s, 12);
    next_refresh(&mut s.rx).await;
    job_done(&mut s).await;
    assert_eq!(s.features.jobs_run(), 3);
    assert_eq!(s.features.analysis(&s.uri).unwrap().version, 12);
}

#[tokio::test]
async fn a_document_too_large_to_judge_is_said_so_and_not_analysed() {
    let mut s = setup().await;
    let text = "-- filler line\n".repeat(MAX_JUDGED_DOCUMENT_BYTES / 15 + 1);
    open_document(&s, &text);
    match s.rx.recv().await {
        Some(ToEditor::Notification { method, params }) => {
            assert_eq!(method, "window/showMessage");
            assert!(params["message"].as_str().unwrap().contains("not judged"), "{params}");
        }
        other => panic!("{other:?}"),
    }
    assert!(s.features.analysis(&s.uri).is_none());
    assert!(lock(&s.features.inner.scheduler.jobs).is_empty());
}

#[tokio::test]
async fn a_reference_outside_the_workspace_is_not_read_and_says_why() {
    let mut s = setup().await;
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("Secret.lean");
    std::fs::write(&secret, "theorem s (x : ℕ) : x = x := rfl\n").unwrap();
    let text = format!(
        "-- @reference {}::s\ntheorem a (x : ℕ) : x = x := rfl\n\n-- @reference ../../../../../../../../../etc/passwd::root\ntheorem b : True := trivial\n",
        secret.display()
    );
    open_document(&s, &text);
    next_refresh(&mut s.rx).await;
    let a = s.features.analysis(&s.uri).unwrap();
    assert_eq!(a.theorems.len(), 2, "{a:#?}");
    for t in &a.theorems {
        assert!(t.reference.is_none(), "{t:#?}");
        let p = t.problem.as_deref().unwrap_or_default();
        assert!(p.contains("is outside the workspace"), "{p}");
    }
    let problems: Vec<&str> = a.problems.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[1].contains("/etc/passwd is outside the workspace"), "{problems:?}");
}

#[tokio::test]
async fn open_judges_both_theorems_and_explains_differences() {
    let mut s = setup().await;
    open_document(&s, CANDIDATE);
    next_refresh(&mut s.rx).await;
    let a = s.features.analysis(&s.uri).unwrap();
    let names: Vec<_> = a.theorems.iter().map(|t| t.name().unwrap()).collect();
    assert_eq!(names, ["cone", "same_name"]);
    let msgs = difference_messages(&a.theorems[0]);
    assert_eq!(msgs, ["missing hypothesis `h₂ : b = 30`"], "{:#?}", a.theorems[0]);
    let msgs = difference_messages(&a.theorems[1]);
    assert_eq!(
        msgs,
        [
            "hypothesis `h₁`: `<` where the reference has `≤`",
            "conclusion: `1 + x` where the reference has `x + 1`"
        ],
        "{:#?}",
        a.theorems[1]
    );
    let lenses = lens_answer(&s).await;
    assert_eq!(lenses.as_array().unwrap().len(), 2);
    assert!(lenses[0]["command"]["title"].as_str().unwrap().starts_with("lean-assess: ted "));
}

/// The messages of a theorem's differences, in order.
fn difference_messages(t: &TheoremCore) -> Vec<&str> {
    t.differences.iter().map(|d| d.message.as_str()).collect()
}

/// The code lens answer as the editor gets it, checked against the uncached path.
async fn lens_answer(s: &Setup) -> Value {
    let raw = s
        .features
        .own_request("textDocument/codeLens", &json!({"textDocument": {"uri": s.uri}}))
        .unwrap()
        .await
        .unwrap();
    let answer: Value = serde_json::from_str(raw.get()).unwrap();
    let a = s.features.analysis(&s.uri).unwrap();
    let doc = s.features.documents().get(&s.uri).unwrap();
    assert_eq!(
        answer,
        views::lenses(&a, &doc, &s.features.inner.commands),
        "the cached lens answer is the uncached one"
    );
    answer
}

#[tokio::test]
async fn an_edit_to_a_theorem_or_its_reference_changes_that_lens_only() {
    let mut s = setup().await;
    open_document(&s, CANDIDATE);
    settle(&s.features, &s.uri, &mut s.rx).await;
    let title = |l: &Value, i: usize| l[i]["command"]["title"].as_str().unwrap().to_string();
    let first = lens_answer(&s).await;
    // The first theorem's statement changes: its lens does, the other's stays.
    let text = CANDIDATE.replace("v = 65", "v = 66");
    s.features.observe_client_notification(
        "textDocument/didChange",
        &json!({"textDocument": {"uri": s.uri, "version": 2}, "contentChanges": [{"text": text}]}),
    );
    settle(&s.features, &s.uri, &mut s.rx).await;
    let second = lens_answer(&s).await;
    assert_ne!(title(&first, 0), title(&second, 0), "{second}");
    assert_eq!(title(&first, 1), title(&second, 1));
    // A line inserted above both: both move, their titles stay.
    let text = text.replacen("\n\n", "\n\n\n", 1);
    s.features.observe_client_notification(
        "textDocument/didChange",
        &json!({"textDocument": {"uri": s.uri, "version": 3}, "contentChanges": [{"text": text}]}),
    );
    settle(&s.features, &s.uri, &mut s.rx).await;
    let third = lens_answer(&s).await;
    assert_eq!(
        third[0]["range"]["start"]["line"],
        second[0]["range"]["start"]["line"].as_u64().unwrap() + 1
    );
    assert_eq!(title(&second, 0), title(&third, 0));
    assert_eq!(title(&second, 1), title(&third, 1));
    // The first theorem's reference changes on disk (the editor says so): its lens changes.
    let root = uri_to_path(&s.uri).unwrap().parent().unwrap().to_path_buf();
    std::fs::write(root.join("Reference.lean"), REFERENCE.replace("v = 65", "v = 66 + 0")).unwrap();
    s.features.observe_client_notification(
        "workspace/didChangeWatchedFiles",
        &json!({"changes": [{"uri": path_to_uri(&root.join("Reference.lean")), "type": 2}]}),
    );
    // The job for the same document version: wait for its refresh, then for it to end.
    next_refresh(&mut s.rx).await;
    job_done(&mut s).await;
    let fourth = lens_answer(&s).await;
    assert_ne!(title(&third, 0), title(&fourth, 0), "{fourth}");
    assert_eq!(title(&third, 1), title(&fourth, 1));
}

/// Open the setup's document (version 1) with `text`.
fn open_document(s: &Setup, text: &str) {
    s.features.observe_client_notification(
        "textDocument/didOpen",
        &json!({"textDocument": {"uri": s.uri, "languageId": "lean4", "version": 1, "text": text}}),
    );
}

/// Run the command of our code action `action` and what it sent the editor.
async fn run_action(s: &mut Setup, action: &Value) -> Vec<ToEditor> {
    let cmd = &action["command"];
    s.features
        .own_request(
            "workspace/executeCommand",
            &json!({"command": cmd["command"], "arguments": cmd["arguments"]}),
        )
        .unwrap()
        .await
        .unwrap();
    drain(&mut s.rx)
}

fn drain(rx: &mut mpsc::Receiver<ToEditor>) -> Vec<ToEditor> {
    let mut out = Vec::new();
    while let Ok(m) = rx.try_recv() {
        out.push(m);
    }
    out
}

#[tokio::test]
async fn hover_actions_differences_and_edits() {
    let mut s = setup().await;
    open_document(&s, CANDIDATE);
    next_refresh(&mut s.rx).await;
    settle(&s.features, &s.uri, &mut s.rx).await;
    // Lean's diagnostics pass with nothing of ours yet.
    let lean_diag = json!({"uri": s.uri, "version": 1, "diagnostics": [
        {"range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 7}},
         "severity": 2, "source": "Lean 4", "message": "declaration uses 'sorry'"}]});
    assert_eq!(s.features.merge_diagnostics(lean_diag.clone()), lean_diag);
    // Hover on `same_name` (line 5).
    let hp = json!({"textDocument": {"uri": s.uri}, "position": {"line": 5, "character": 10}});
    assert!(s.features.wants_response("textDocument/hover"));
    let lean_hover = json!({"range": {"start": {"line": 5, "character": 8}, "end": {"line": 5, "character": 17}},
                            "contents": {"kind": "markdown", "value": "```lean\nsame_name (x : ℕ) : x < 3 → 1 + x ≤ 4\n```"}});
    let h = s.features.augment_response("textDocument/hover", &hp, lean_hover);
    let v = h["contents"]["value"].as_str().unwrap();
    let (lean_part, ours) = v.split_once("\n\n***\n\n").unwrap();
    assert!(lean_part.starts_with("```lean\nsame_name"));
    assert!(ours.contains("Reference `same_name`, from lean-assess.toml (by name)."), "{ours}");
    assert!(ours.contains("- hypothesis `h₁`: `<` where the reference has `≤`"), "{ours}");
    // Code actions: Lean's kept, ours appended.
    let cp = json!({"textDocument": {"uri": s.uri},
                    "range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 0}},
                    "context": {"diagnostics": []}});
    let acts =
        s.features.augment_response("textDocument/codeAction", &cp, json!([{"title": "Lean's"}]));
    let titles: Vec<&str> =
        acts.as_array().unwrap().iter().map(|a| a["title"].as_str().unwrap()).collect();
    assert_eq!(titles.len(), 4);
    assert_eq!(titles[0], "Lean's");
    // Resolving one of ours answers it unchanged; Lean's own actions still go to Lean.
    let resolved = s
        .features
        .own_request("codeAction/resolve", &acts[1])
        .expect("our action is resolved by the proxy")
        .await
        .unwrap();
    assert_eq!(serde_json::from_str::<Value>(resolved.get()).unwrap(), acts[1]);
    assert!(s
        .features
        .own_request("codeAction/resolve", &json!({"title": "Lean's", "data": {}}))
        .is_none());
    // Execute "Show differences": a merged publishDiagnostics with Lean's and ours.
    let sent = run_action(&mut s, &acts[1]).await;
    let ToEditor::Notification { method, params } = &sent[0] else { panic!("{sent:?}") };
    assert_eq!(method, "textDocument/publishDiagnostics");
    let diags = params["diagnostics"].as_array().unwrap();
    assert_eq!(diags[0]["source"], "Lean 4");
    let ours: Vec<&Value> = diags.iter().filter(|d| d["source"] == "lean-assess").collect();
    assert_eq!(ours.len(), 2);
    assert_eq!(ours[0]["severity"], 3);
    // Plain text, as editors show diagnostics (the Problems panel, lean.nvim's infoview): no
    // markdown code spans; quoted as Lean quotes names in its own messages.
    for d in &ours {
        let m = d["message"].as_str().unwrap();
        assert!(!m.contains('`'), "{m}");
    }
    assert!(ours.iter().any(|d| d["message"]
        .as_str()
        .unwrap()
        .contains("hypothesis 'h₁': '<' where the reference has '≤'")));
    // `x < 3` in `theorem same_name (x : ℕ) (h₁ : x < 3)`: UTF-16 columns 32..37.
    assert_eq!(
        ours[0]["range"],
        json!({"start": {"line": 5, "character": 32}, "end": {"line": 5, "character": 37}})
    );
    // Lean republishes: ours stay merged in until an edit.
    let merged = s.features.merge_diagnostics(lean_diag.clone());
    assert_eq!(merged["diagnostics"].as_array().unwrap().len(), 3);
    // "Use as reference" on a config-by-name theorem: a directive via workspace/applyEdit.
    let sent = run_action(&mut s, &acts[3]).await;
    let ToEditor::Request { method, params } = &sent[0] else { panic!("{sent:?}") };
    assert_eq!(method, "workspace/applyEdit");
    let edit = &params["edit"]["documentChanges"][0]["edits"][0];
    assert_eq!(edit["newText"], "-- @reference Reference.lean::same_name\n");
    assert_eq!(edit["range"]["start"], json!({"line": 5, "character": 0}));
    // "Show proof path": a read-only file opened with window/showDocument.
    let cache = tempfile::tempdir().unwrap();
    std::env::set_var("XDG_CACHE_HOME", cache.path());
    let sent = run_action(&mut s, &acts[2]).await;
    let ToEditor::Request { method, params } = &sent[0] else { panic!("{sent:?}") };
    assert_eq!(method, "window/showDocument");
    let file = uri_to_path(params["uri"].as_str().unwrap()).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("# Proof path for `same_name`"), "{text}");
    // The time reads like the hover's (`1.2 ms`), not Debug's `1.155147ms`.
    let fin = text.lines().find(|l| l.starts_with("Final: ")).unwrap();
    assert!(fin.ends_with(" ms."), "{fin}");
    assert!(std::fs::metadata(&file).unwrap().permissions().readonly());
    // An edit clears our differences (republished without them) and re-judges.
    s.features.observe_client_notification(
        "textDocument/didChange",
        &json!({"textDocument": {"uri": s.uri, "version": 2},
                "contentChanges": [{"range": {"start": {"line": 5, "character": 34}, "end": {"line": 5, "character": 35}}, "text": "≤"}]}),
    );
    let sent = drain(&mut s.rx);
    let ToEditor::Notification { params, .. } = &sent[0] else { panic!("{sent:?}") };
    assert_eq!(params["diagnostics"].as_array().unwrap().len(), 1);
    next_refresh(&mut s.rx).await;
    let a = s.features.analysis(&s.uri).unwrap();
    assert_eq!(a.version, 2);
    let msgs = difference_messages(&a.theorems[1]);
    assert_eq!(msgs, ["conclusion: `1 + x` where the reference has `x + 1`"]);
}

#[tokio::test]
async fn shutdown_stops_the_keep_alive_and_the_jobs() {
    let s = setup().await;
    let open = |version: i64| {
        json!({"textDocument": {"uri": s.uri, "languageId": "lean4", "version": version,
                                "text": CANDIDATE}})
    };
    s.features.observe_client_notification("textDocument/didOpen", &open(1));
    assert!(lock(&s.features.inner.keep_alive).is_some());
    assert_eq!(lock(&s.features.inner.scheduler.jobs).len(), 1);
    s.features.on_shutdown();
    assert!(lock(&s.features.inner.keep_alive).is_none());
    assert!(lock(&s.features.inner.scheduler.jobs).is_empty());
    // An edit after `shutdown` (a misbehaving client) starts nothing that would talk to Lean.
    s.features.observe_client_notification(
        "textDocument/didChange",
        &json!({"textDocument": {"uri": s.uri, "version": 2},
                "contentChanges": [{"text": format!("{CANDIDATE}\n")}]}),
    );
    assert!(lock(&s.features.inner.scheduler.jobs).is_empty());
    // `exit` without `shutdown` stops them too.
    let s = setup().await;
    s.features.observe_client_notification("textDocument/didOpen", &open(1));
    s.features.observe_client_notification("exit", &Value::Null);
    assert!(lock(&s.features.inner.keep_alive).is_none());
    assert!(lock(&s.features.inner.scheduler.jobs).is_empty());
}

#[test]
fn initialize_result_gains_lens_and_commands_keeping_leans_fields() {
    let (f, _rx) = features_in(None, 1);
    let lean: Value = serde_json::from_str(include_str!(
        "../../fixtures/lean-protocol/examples/wire.initialize-response.json"
    ))
    .unwrap();
    let out = f.augment_initialize_result(lean["result"].clone());
    let caps = &out["capabilities"];
    assert_eq!(caps["codeLensProvider"], json!({"resolveProvider": false}));
    let cmds = caps["executeCommandProvider"]["commands"].as_array().unwrap();
    assert_eq!(cmds.len(), 4);
    assert!(cmds[0].as_str().unwrap().starts_with(&format!("lean-assess.{}.", std::process::id())));
    // Every one of Lean's capabilities is still there, unchanged.
    for (k, v) in lean["result"]["capabilities"].as_object().unwrap() {
        assert_eq!(&caps[k], v, "{k}");
    }
    assert_eq!(out["serverInfo"], lean["result"]["serverInfo"]);
}

#[tokio::test]
async fn a_bad_config_is_one_message_not_a_diagnostic_of_every_document() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    std::fs::write(
        root.join("refs.jsonl"),
        "{\"name\": \"ds_ref\", \"formal_statement\": \"theorem ds_ref (n : ℕ) : n + 0 = n := by simp\"}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("lean-assess.toml"),
        "[reference]\ndataset = \"refs.jsonl\"\n\n[metrics]\nlens = [\"ted\", \"tedd\"]\n",
    )
    .unwrap();
    let (f, mut rx) = features_in(Some(&root), 64);
    let uri = path_to_uri(&root.join("C.lean"));
    let text = "import Mathlib\n\n-- @reference ds_ref\ntheorem c (n : ℕ) : 0 + n = n := by simp\n";
    f.observe_client_notification(
        "textDocument/didOpen",
        &json!({"textDocument": {"uri": uri, "languageId": "lean4", "version": 1, "text": text}}),
    );
    // Everything the job sends until the document is analysed, and a moment more.
    let mut messages = Vec::new();
    let mut diagnostics = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut quiet_after: Option<Instant> = None;
    loop {
        if quiet_after.is_none() && f.analysis(&uri).is_some() {
            quiet_after = Some(Instant::now() + Duration::from_millis(500));
        }
        let until = quiet_after.unwrap_or(deadline).min(deadline);
        let left = until.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left.min(Duration::from_millis(50)), rx.recv()).await {
            Ok(Some(ToEditor::Notification { method, params })) => match method.as_str() {
                "window/showMessage" => messages.push(params),
                "textDocument/publishDiagnostics" => diagnostics.push(params),
                _ => {}
            },
            Ok(_) => {}
            Err(_) if Instant::now() >= until => break,
            Err(_) => {}
        }
    }
    assert!(f.analysis(&uri).is_some(), "the job never ended");
    let about_config: Vec<&str> = messages
        .iter()
        .filter_map(|m| m["message"].as_str())
        .filter(|m| m.contains("lean-assess.toml"))
        .collect();
    assert_eq!(about_config.len(), 1, "{messages:?}");
    assert!(about_config[0].contains("lean-assess.toml:5: "), "{about_config:?}");
    assert!(about_config[0].contains("unknown metric \"tedd\""), "{about_config:?}");
    // Not repeated, with another prefix, as a diagnostic of the document: the directive
    // it leaves unresolved only points at it.
    for d in &diagnostics {
        for m in d["diagnostics"].as_array().unwrap() {
            let m = m["message"].as_str().unwrap();
            assert!(!m.contains("unknown metric"), "{m}");
            assert!(!m.contains("lean-assess config"), "{m}");
        }
    }
    assert!(
        diagnostics.iter().any(|d| d
            .to_string()
            .contains("'ds_ref' is not looked up: lean-assess.toml has an error")),
        "{diagnostics:?}"
    );
    // A good config: the directive's NAME is found in the dataset.
    std::fs::write(root.join("lean-assess.toml"), "[reference]\ndataset = \"refs.jsonl\"\n")
        .unwrap();
    f.observe_client_notification("textDocument/didSave", &json!({"textDocument": {"uri": uri}}));
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let ok = f.analysis(&uri).is_some_and(|a| {
            a.problems.is_empty()
                && a.theorems.len() == 1
                && matches!(a.theorems[0].metrics[0].1, MetricState::Done(_))
        });
        if ok {
            break;
        }
        assert!(Instant::now() < deadline, "{:#?}", f.analysis(&uri));
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let a = f.analysis(&uri).unwrap();
    let r = a.theorems[0].reference.as_ref().unwrap();
    assert_eq!(r.name.as_deref(), Some("ds_ref"));
    assert_eq!(r.origin, "directive at C.lean:3");
}

/// `lens = ["ted", "path"]`: neither metric searches rewrites, so the lens cannot show that
/// `3 ≥ x` states `x ≤ 3` (it says "not shown · ted 0.80 · path 1.00"); "Show proof path"
/// runs `transted-lite`, which can. The view
/// must not read as a contradiction of the lens: it names the lens's metrics, says the path is
/// another metric's, and which one shows the equivalence (and how to have the lens show it).
#[tokio::test]
async fn the_proof_path_view_says_which_metric_shows_what_the_lens_does_not() {
    let mut s = setup().await;
    let root = uri_to_path(&s.uri).unwrap().parent().unwrap().to_path_buf();
    std::fs::write(
        root.join("lean-assess.toml"),
        "[reference]\nfile = \"Reference.lean\"\n\n[metrics]\nlens = [\"ted\", \"path\"]\n",
    )
    .unwrap();
    let text = CANDIDATE.replace("(h₁ : x < 3) : 1 + x ≤ 4", "(h₁ : 3 ≥ x) : x + 1 ≤ 4");
    open_document(&s, &text);
    settle(&s.features, &s.uri, &mut s.rx).await;
    let lenses = lens_answer(&s).await;
    let title = lenses[1]["command"]["title"].as_str().unwrap();
    assert!(title.starts_with("lean-assess: not shown · ted "), "{title}");
    assert!(title.contains(" · path "), "{title}");
    let cp = json!({"textDocument": {"uri": s.uri},
                    "range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 0}},
                    "context": {"diagnostics": []}});
    let acts = s.features.augment_response("textDocument/codeAction", &cp, json!([]));
    let path_action = acts
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"].as_str().unwrap().contains("Show proof path"))
        .unwrap()
        .clone();
    let cache = tempfile::tempdir().unwrap();
    std::env::set_var("XDG_CACHE_HOME", cache.path());
    let sent = run_action(&mut s, &path_action).await;
    let ToEditor::Request { params, .. } = &sent[0] else { panic!("{sent:?}") };
    let file = uri_to_path(params["uri"].as_str().unwrap()).unwrap();
    let view = std::fs::read_to_string(&file).unwrap();
    assert!(view.contains("The lens shows ted and path"), "{view}");
    assert!(view.contains("The path below is transted-lite's, which is not in the lens"), "{view}");
    assert!(
        view.contains(
            "transted-lite shows the two statements equivalent; the lens's metrics do not"
        ),
        "{view}"
    );
    assert!(view.contains("add \"transted-lite\" to `lens`"), "{view}");
}
