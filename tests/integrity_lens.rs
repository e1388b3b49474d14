//! Statement integrity in the editor, end to end: `lean-assess serve -- lean-standin` driven like
//! an editor over pipes, in a workspace whose `lean-assess.toml` says `[integrity] tasks =
//! "tasks"` and where one theorem also has a `-- @task Other.lean::other_task` directive.
//! Checks: the lenses ("statement unchanged ✓" on the kept theorems, "statement changed ✗" on the
//! weakened one), an error diagnostic on the first changed subterm, a warning on the `sorry`
//! hidden in a `have`, all merged with Lean's diagnostics in one publish; an edit that restores
//! the statement clears the error; a `-- @task` naming a theorem the task does not have is a
//! warning on the directive's line.

mod common;

use common::{uri_of, Editor};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

const TASK: &str = "import Mathlib\n\ntheorem kept (x : ℕ) (h : 0 < x) : 1 ≤ x := by\n  sorry\n\ntheorem changed (x : ℕ) (h : 0 < x) : 1 ≤ x := by\n  sorry\n";
const OTHER: &str =
    "import Mathlib\n\ntheorem other_task (a b : ℕ) : a + b = b + a := by\n  sorry\n";
const INTEGRITY_CONFIG: &str = "[integrity]\ntasks = \"tasks\"\n";
const SOLUTION: &str = "import Mathlib\n\ntheorem kept (y : ℕ) (hy : 0 < y) : 1 ≤ y := by\n  omega\n\ntheorem changed (x : ℕ) (h : 0 < x) : 0 ≤ x := by\n  have : x = x := by sorry\n  omega\n\n-- @task Other.lean::other_task\ntheorem other_task (a b : ℕ) : a + b = b + a := by\n  omega\n\n-- @task Other.lean::not_there\ntheorem not_there : True := trivial\n";

fn start(root: &Path) -> Editor {
    std::fs::create_dir(root.join("tasks")).unwrap();
    std::fs::write(root.join("tasks/Sol.lean"), TASK).unwrap();
    std::fs::write(root.join("Other.lean"), OTHER).unwrap();
    Editor::proxy_in_project(root, INTEGRITY_CONFIG, &[])
}

/// The next publishDiagnostics for `uri` holding at least one integrity diagnostic.
/// The first publish of `uri` carrying both ours and Lean's diagnostics (either side may publish
/// first: the proxy's job and the stand-in's elaboration race).
fn integrity_publish(ed: &mut Editor, uri: &str) -> Vec<Value> {
    let m = ed.recv_matching(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri
            && m["params"]["diagnostics"].as_array().is_some_and(|d| {
                d.iter().any(|x| x["source"] == "lean-assess integrity")
                    && d.iter().any(|x| x["source"] != "lean-assess integrity")
            })
    });
    m["params"]["diagnostics"].as_array().unwrap().clone()
}

fn ours(diags: &[Value]) -> Vec<&Value> {
    diags.iter().filter(|d| d["source"] == "lean-assess integrity").collect()
}

#[test]
fn lenses_and_diagnostics_for_theorems_whose_reference_is_a_task() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mut ed = start(root);
    let uri = uri_of(&root.join("Sol.lean"));
    ed.initialize_with(json!({"processId": null, "rootUri": uri_of(root),
               "capabilities": {"workspace": {"codeLens": {"refreshSupport": true}}}}));
    ed.open_document(&uri, SOLUTION);
    let diags = integrity_publish(&mut ed, &uri);
    let mine = ours(&diags);
    // The weakened conclusion: an error on `0` (line 5, the first changed subterm).
    let statement = mine
        .iter()
        .find(|d| d["message"].as_str().unwrap().starts_with("integrity (statement)"))
        .unwrap_or_else(|| panic!("no statement error in {mine:?}"));
    assert_eq!(statement["severity"], json!(1));
    assert_eq!(statement["range"]["start"], json!({"line": 5, "character": 38}));
    assert_eq!(statement["range"]["end"], json!({"line": 5, "character": 39}));
    // The sorry in the `have`: a warning on the word.
    let sorry = mine
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains("'sorry'"))
        .unwrap_or_else(|| panic!("no sorry warning in {mine:?}"));
    assert_eq!(sorry["severity"], json!(2));
    assert_eq!(sorry["range"]["start"], json!({"line": 6, "character": 21}));
    // The directive naming a theorem the document does not declare under that name.
    let missing = mine
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains("not_there"))
        .unwrap_or_else(|| panic!("no directive error in {mine:?}"));
    assert_eq!(missing["range"]["start"]["line"], json!(13));
    assert_eq!(missing["severity"], json!(2));
    assert_eq!(mine.len(), 3, "{mine:?}");
    // Lean's own diagnostics (the stand-in's sorry warning) are kept beside ours.
    assert!(diags.iter().any(|d| d["source"] != "lean-assess integrity"), "{diags:?}");

    let lenses =
        ed.request(json!(1), "textDocument/codeLens", json!({"textDocument": {"uri": uri}}));
    let mut titles: Vec<(u64, String)> = lenses["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["range"]["start"]["line"].as_u64().unwrap(),
                l["command"]["title"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    titles.sort();
    assert_eq!(
        titles,
        [
            (2, "statement unchanged ✓ (task Sol.lean:3)".to_string()),
            (5, "statement changed ✗ (task Sol.lean:6)".to_string()),
            (10, "statement unchanged ✓ (task Other.lean:3)".to_string()),
        ]
    );

    // Restore the statement and drop the sorry: the error and the warning go.
    let fixed = SOLUTION
        .replace(": 0 ≤ x := by\n  have : x = x := by sorry\n", ": 1 ≤ x := by\n")
        .replace("-- @task Other.lean::not_there\n", "");
    ed.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    let m = ed.recv_matching(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri
            && m["params"]["version"] == json!(2)
            && m["params"]["diagnostics"]
                .as_array()
                .is_some_and(|d| !d.iter().any(|x| x["source"] == "lean-assess integrity"))
    });
    assert!(m["params"]["diagnostics"].is_array());
    // Lean's publish of version 2 can reach the editor before the proxy's job has checked that
    // version; until it has, the integrity lenses of version 1 are withheld (their offsets are
    // stale). The editor asks again after `workspace/codeLens/refresh`; here: ask until they
    // come, within the usual bound.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut id = 2;
    let titles: Vec<String> = loop {
        let lenses =
            ed.request(json!(id), "textDocument/codeLens", json!({"textDocument": {"uri": uri}}));
        let titles: Vec<String> = lenses["result"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["command"]["title"].as_str().unwrap().to_string())
            .collect();
        if !titles.is_empty() || std::time::Instant::now() > deadline {
            break titles;
        }
        id += 1;
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(titles.len(), 3, "{titles:?}");
    assert!(titles.iter().all(|t| t.starts_with("statement unchanged ✓")), "{titles:?}");
}

/// A workspace names tasks outside itself (`-- @task ../outside/…`, `[integrity] tasks =
/// "../outside"`), a link to `/dev/zero` and a FIFO: none is read (nothing of the outside file
/// is quoted, the job neither stalls nor grows), and each directive gets one warning saying why.
#[cfg(unix)]
#[test]
fn tasks_outside_the_workspace_or_not_regular_files_are_never_read() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    let secret = "import SECRET_MARKER_OUTSIDE\n\ntheorem leak (x : ℕ) : x = x := by\n  sorry\n";
    std::fs::write(outside.join("secret.lean"), secret).unwrap();
    std::fs::write(outside.join("Sol.lean"), secret).unwrap();
    let root = dir.path().join("ws");
    std::fs::create_dir(&root).unwrap();
    std::os::unix::fs::symlink("/dev/zero", root.join("zero.lean")).unwrap();
    let fifo = root.join("fifo.lean");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let doc = "import Mathlib\n\ntheorem leak (x : ℕ) : True := trivial\n\n\
               -- @task ../outside/secret.lean::leak\ntheorem a (x : ℕ) : x = x := rfl\n\n\
               -- @task zero.lean::b\ntheorem b (x : ℕ) : x = x := rfl\n\n\
               -- @task fifo.lean::c\ntheorem c (x : ℕ) : x = x := rfl\n";
    let mut ed = Editor::proxy_in_project(&root, "[integrity]\ntasks = \"../outside\"\n", &[]);
    let uri = uri_of(&root.join("Sol.lean"));
    ed.initialize_with(json!({"processId": null, "rootUri": uri_of(&root), "capabilities": {}}));
    ed.open_document(&uri, doc);
    let diags = ed.recv_diagnostics_from(&uri, "lean-assess integrity");
    let mine = ours(&diags);
    let text = format!("{mine:?}");
    assert!(!text.contains("SECRET_MARKER"), "outside file quoted: {text}");
    let on_line = |line: u64| -> String {
        mine.iter()
            .find(|d| d["range"]["start"]["line"] == json!(line))
            .unwrap_or_else(|| panic!("no warning on line {line}: {text}"))["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(on_line(4).contains("outside the workspace"), "{text}");
    assert!(on_line(7).contains("outside the workspace"), "{text}");
    assert!(on_line(10).contains("not a regular file"), "{text}");
    assert_eq!(mine.len(), 3, "{text}");
    let lenses =
        ed.request(json!(1), "textDocument/codeLens", json!({"textDocument": {"uri": uri}}));
    let titles = lenses["result"].to_string();
    assert!(!titles.contains("statement"), "a task outside was judged: {titles}");
}

/// Integrity on a 2,000-theorem document (and its task) runs off the paths other documents
/// need: while it is checked after an open and two edits, a hover on another document is
/// answered as quickly as without it, and the lenses of the large document still come.
#[test]
fn a_hover_elsewhere_stays_quick_while_integrity_checks_two_thousand_theorems() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let n = 2000;
    let (task, solution) = common::numbered_task_and_solution("import Mathlib\n\n".into(), n);
    std::fs::create_dir(root.join("tasks")).unwrap();
    std::fs::write(root.join("tasks/Big.lean"), &task).unwrap();
    let mut ed = Editor::proxy_in_project(root, INTEGRITY_CONFIG, &[]);
    ed.initialize_with(json!({"processId": null, "rootUri": uri_of(root), "capabilities": {}}));
    let other = uri_of(&root.join("Other.lean"));
    ed.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": other, "languageId": "lean4", "version": 1,
                                "text": "theorem other : True := trivial\n"}}),
    );
    let hover = |ed: &mut Editor, id: i64| {
        let started = std::time::Instant::now();
        ed.request(
            json!(id),
            "textDocument/hover",
            json!({"textDocument": {"uri": other}, "position": {"line": 0, "character": 9}}),
        );
        started.elapsed()
    };
    // Without integrity work.
    let quiet: Vec<_> = (0..5).map(|k| hover(&mut ed, 100 + k)).collect();
    let big = uri_of(&root.join("Big.lean"));
    ed.open_document(&big, &solution);
    for v in 2..4 {
        let edited = solution.replace("omega\n\n", &format!("omega\n\n-- edit {v}\n"));
        ed.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": big, "version": v}, "contentChanges": [{"text": edited}]}),
        );
    }
    let busy: Vec<_> = (0..10).map(|k| hover(&mut ed, 200 + k)).collect();
    let slowest_busy = busy.iter().max().copied().unwrap_or_default();
    let slowest_quiet = quiet.iter().max().copied().unwrap_or_default();
    assert!(
        slowest_busy < std::time::Duration::from_millis(250).max(slowest_quiet * 5),
        "hovers while integrity runs: {busy:?} (without: {quiet:?})"
    );
    // The large document's lenses come, for the last version.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut id = 300;
    loop {
        let lenses =
            ed.request(json!(id), "textDocument/codeLens", json!({"textDocument": {"uri": big}}));
        let count = lenses["result"].as_array().map_or(0, |l| {
            l.iter()
                .filter(|x| {
                    x["command"]["title"]
                        .as_str()
                        .is_some_and(|t| t.starts_with("statement unchanged"))
                })
                .count()
        });
        if count == n {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{count} of {n} lenses");
        id += 1;
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}
