//! `lean-assess bench --metric transted|beq|defeq --lean-project DIR` against the scripted Lean
//! stand-in (`--server-command`): transted closing one pair by `rfl` and failing another, BEq with
//! a scripted `exact?`, a server crash in the middle of a run (the remaining pairs get errors
//! naming it, exit 1, no hang) and resuming that run (judged pairs skipped, lines appended).
//! Goal types are TaggedText in the shape of `interactiveGoals-rw-nested.result.json`, code
//! actions in the shape of `codeAction.try-this.result.json`.

mod common;

use common::{tagged, PROXY as BIN, STANDIN};
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn goal_after(tactics: &[&str], decl: &str, ty: &str) -> Value {
    json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
           "tactics": tactics, "declContains": decl,
           "result": {"goals": [{"type": tagged(ty), "mvarId": "_uniq.1", "hyps": [],
                                 "goalPrefix": "⊢ ", "ctx": {"__rpcref": "0"}}]}})
}

fn closed_after(tactics: &[&str], decl: &str) -> Value {
    json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
           "tactics": tactics, "declContains": decl, "result": {"goals": []}})
}

fn dataset_line(id: &str, reference: &str, candidate: &str, label: bool) -> String {
    json!({"id": id, "ref_header": "", "ref_statement": reference,
           "cand_header": "", "cand_statement": candidate, "label": label})
    .to_string()
}

struct Setup {
    dir: tempfile::TempDir,
}

impl Setup {
    fn new(rules: &[Value], dataset: &[String]) -> Setup {
        let dir = tempfile::tempdir().expect("temp dir");
        let script: String = rules.iter().map(|r| format!("{r}\n")).collect();
        std::fs::write(dir.path().join("script.jsonl"), script).expect("script");
        std::fs::write(dir.path().join("data.jsonl"), dataset.join("\n") + "\n").expect("data");
        std::fs::create_dir(dir.path().join("project")).expect("project dir");
        Setup { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }

    /// `bench data.jsonl --metric M --lean-project project --server-command SERVER ARGS...`.
    fn bench(&self, metric: &str, server: &str, extra: &[&str]) -> Output {
        let started = Instant::now();
        let out = Command::new(BIN)
            .args(["bench", &self.path("data.jsonl"), "--metric", metric])
            .args(["--lean-project", &self.path("project")])
            .args(["--server-command", server])
            .args(extra)
            .env("LEAN_STANDIN_SCRIPT", self.path("script.jsonl"))
            .output()
            .expect("run lean-assess");
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "bench took {:?}",
            started.elapsed()
        );
        out
    }

    fn predictions(&self) -> Vec<Value> {
        std::fs::read_to_string(self.path("pred.jsonl"))
            .expect("predictions")
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON line"))
            .collect()
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Pair `same` closes at stage 0 (`rfl`, distance 0); pair `other` is an equality `rfl` cannot
/// close and no rewrite helps: a score below 1 from the best goal's sides.
#[test]
fn transted_closes_one_pair_and_fails_another() {
    let s = Setup::new(
        &[
            goal_after(
                &["skip"],
                "_tt.S1.",
                "[([∀ ([n] : [ℕ]), [[[n] + [0]] = [n]]]) = ([∀ ([m] : [ℕ]), [[[m] + [0]] = [m]]])]",
            ),
            closed_after(&["rfl"], "_tt.S1."),
            goal_after(
                &["skip"],
                "_tt.S3.",
                "[([∀ ([n] : [ℕ]), [[[n] + [1]] = [[1] + [n]]]]) = ([∀ ([n] : [ℕ]), [[[n] * [2]] = [[n] + [n]]]])]",
            ),
            json!({"method": "standin/diagnostic", "tactics": ["rfl"], "declContains": "_tt.S3.",
                   "message": "The rfl tactic failed."}),
            json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
                   "result": {"goals": []}, "tactics": ["apply congrArg"], "declContains": "_tt.S3."}),
            json!({"method": "standin/diagnostic", "lineContains": "apply", "message": "apply failed"}),
            json!({"method": "standin/diagnostic", "lineContains": "ext", "message": "no ext lemma"}),
            json!({"method": "textDocument/codeAction", "result": []}),
            json!({"method": "standin/diagnostic", "lineContains": "#print axioms", "severity": 3,
                   "message": "'transted_witness' depends on axioms: [propext]"}),
        ],
        &[
            dataset_line(
                "same",
                "theorem a (n : ℕ) : n + 0 = n := by sorry",
                "theorem b (m : ℕ) : m + 0 = m := by sorry",
                true,
            ),
            dataset_line(
                "other",
                "theorem c (n : ℕ) : n + 1 = 1 + n := by sorry",
                "theorem d (n : ℕ) : n * 2 = n + n := by sorry",
                false,
            ),
        ],
    );
    let out = s.bench(
        "transted",
        STANDIN,
        &["--out", &s.path("pred.jsonl"), "--jobs", "1", "--json"],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    let p = s.predictions();
    assert_eq!(p.len(), 2, "{p:?}");
    let score = |id: &str| {
        p.iter()
            .find(|v| v["id"] == id)
            .and_then(|v| v["score"].as_f64())
            .unwrap_or_else(|| panic!("no score for {id}: {p:?}"))
    };
    assert_eq!(score("same"), 1.0);
    assert!(score("other") < 1.0, "{p:?}");
    assert!(
        stderr.contains("[1/2] same: score 1.0000"),
        "stderr: {stderr}"
    );
    assert!(stderr.contains("[2/2] other: score"), "stderr: {stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).expect("bench --json");
    assert_eq!(report["metric"], "transted");
    assert_eq!(report["scored"], 2);
    assert_eq!(report["best"]["accuracy"], 1.0);
}

/// BEq: `exact?` suggests a proof in both directions of pair `eq` and the axioms show the
/// assumed statement's `sorryAx`; in pair `neq` the candidate's line has an error (it does not
/// elaborate), so neither direction is proved.
#[test]
fn beq_with_a_scripted_exact_query() {
    let s = Setup::new(
        &[
            json!({"method": "textDocument/codeAction", "tactics": ["exact?"],
                   "result": [{"title": "Try this: exact h", "kind": "quickfix",
                               "edit": {"documentChanges": [{"textDocument": {"version": 1, "uri": "file:///x"},
                                        "edits": [{"range": {"start": {"line": 0, "character": 2}, "end": {"line": 0, "character": 8}},
                                                   "newText": "exact h"}]}]}}]}),
            json!({"method": "textDocument/codeAction", "result": []}),
            json!({"method": "standin/diagnostic", "lineContains": "0 ≤ x",
                   "message": "failed to synthesize OfNat"}),
            json!({"method": "standin/diagnostic", "lineContains": "#print axioms", "severity": 3,
                   "message": "'p' depends on axioms: [propext, sorryAx]"}),
        ],
        &[
            dataset_line(
                "eq",
                "theorem p_ref (x : ℕ) (h : 0 < x) : 1 ≤ x := by sorry",
                "theorem p_cand (y : ℕ) (h : 0 < y) : 1 ≤ y := by sorry",
                true,
            ),
            dataset_line(
                "neq",
                "theorem q_ref (x : ℕ) : x ≤ x := by sorry",
                "theorem q_cand (x : ℕ) : 0 ≤ x := by sorry",
                false,
            ),
        ],
    );
    let out = s.bench("beq", STANDIN, &["--out", &s.path("pred.jsonl")]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    let p = s.predictions();
    let eq = |id: &str| {
        p.iter()
            .find(|v| v["id"] == id)
            .and_then(|v| v["equivalent"].as_bool())
            .unwrap_or_else(|| panic!("no decision for {id}: {p:?}"))
    };
    assert!(eq("eq"), "{p:?}");
    assert!(!eq("neq"), "{p:?}");
    let report = text(&out.stdout);
    assert!(
        report.contains("decisions: precision 100.00%"),
        "report: {report}"
    );
}

/// A wrapper that kills the stand-in after `seconds` (a server crash in the middle of a run).
fn dying_server(dir: &Path, seconds: &str) -> String {
    let path = dir.join("dying-server.sh");
    std::fs::write(
        &path,
        format!("#!/bin/sh\nexec timeout -s KILL {seconds} {STANDIN}\n"),
    )
    .expect("wrapper");
    let mut perms = std::fs::metadata(&path).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&path, perms).expect("chmod");
    path.display().to_string()
}

/// DefEq over three pairs; the second stalls (its diagnostics are delayed) and the server is
/// killed meanwhile: `a` is judged, `b` and `c` get errors naming the crash, exit status 1, no
/// hang. A second run with a healthy server skips `a` and appends `b` and `c`.
#[test]
fn crash_mid_run_then_resume() {
    let rules = [
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["rfl"], "result": {"goals": []}}),
    ];
    let s = Setup::new(
        &rules,
        &[
            dataset_line(
                "a",
                "theorem a (n : ℕ) : n = n := by sorry",
                "theorem a' (m : ℕ) : m = m := by sorry",
                true,
            ),
            dataset_line(
                "b",
                "theorem b (n : ℕ) : n + 0 = n := by sorry",
                "theorem b' (n : ℕ) : 0 + n = n := by sorry",
                true,
            ),
            dataset_line(
                "c",
                "theorem c (n : ℕ) : n ≤ n := by sorry",
                "theorem c' (n : ℕ) : n < n + 1 := by sorry",
                false,
            ),
        ],
    );
    // Pair `b`'s goal query (its statements are the oracle's third and fourth) stalls.
    let mut script = std::fs::read_to_string(s.path("script.jsonl")).expect("script");
    script = format!(
        "{}\n{script}",
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["rfl"], "declContains": "_tt.S3.", "delayMs": 30000, "result": {"goals": []}})
    );
    std::fs::write(s.path("script.jsonl"), &script).expect("script");
    let server = dying_server(s.dir.path(), "3");
    let out = s.bench(
        "defeq",
        &server,
        &["--out", &s.path("pred.jsonl"), "--jobs", "1"],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    let p = s.predictions();
    assert_eq!(p.len(), 3, "{p:?}");
    assert_eq!(p[0], json!({"id": "a", "equivalent": true}));
    for v in &p[1..] {
        let e = v["error"].as_str().unwrap_or_else(|| panic!("{v}"));
        assert!(e.contains("exited"), "{e}");
        assert!(e.contains("dying-server.sh"), "{e}");
    }

    // Resume with a healthy server: `a` is not judged again.
    std::fs::write(
        s.path("script.jsonl"),
        rules.iter().map(|r| format!("{r}\n")).collect::<String>(),
    )
    .expect("script");
    let out = s.bench(
        "defeq",
        STANDIN,
        &["--out", &s.path("pred.jsonl"), "--jobs", "2"],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    assert!(
        stderr.contains("resuming: 1 of 3 pair(s) already in the predictions"),
        "{stderr}"
    );
    assert!(!stderr.contains("] a:"), "{stderr}");
    let p = s.predictions();
    assert_eq!(p.len(), 5, "appended, not rewritten: {p:?}");
    let ids: Vec<&str> = p[3..].iter().filter_map(|v| v["id"].as_str()).collect();
    assert!(ids.contains(&"b") && ids.contains(&"c"), "{p:?}");
    assert!(p[3..].iter().all(|v| v["equivalent"] == true), "{p:?}");
    let report = text(&out.stdout);
    assert!(report.contains("pairs: 3"), "{report}");
    assert!(report.contains("scored 3, failed 0"), "{report}");
}
