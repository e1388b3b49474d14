//! `lean-assess bench --metric transted|beq|defeq --lean-project DIR` and `score --lean-project
//! DIR` against the scripted Lean stand-in (`--server-command`): transted closing one pair by
//! `rfl` and failing another, BEq with a scripted `exact?`, a server crash in the middle of a run
//! (the remaining pairs get errors naming it, exit 1, no hang) and resuming that run (judged pairs
//! skipped, lines appended); the config (`[llm]` gives BEq its sampler, served by a local HTTP
//! stand-in; `[metrics]` limits; bad files and a missing key are one-line errors); the RPC
//! keep-alive of the oracles' sessions during a run, also across a `-32900` reconnect; `score`
//! with the three Lean metrics and transted's proof path.
//! Goal types are TaggedText in the shape of `interactiveGoals-rw-nested.result.json`, code
//! actions in the shape of `codeAction.try-this.result.json`.

mod common;

use common::{
    beq_plus_rules, closed_after_in, goal_after_in, llm_stand_in, renamed_pair_proved_rules,
    PROXY as BIN, STANDIN,
};
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Pair `a`: `n = n` against its renaming, labelled equivalent.
fn renamed_identity_line() -> String {
    dataset_line(
        "a",
        "theorem a (n : ℕ) : n = n := by sorry",
        "theorem a' (m : ℕ) : m = m := by sorry",
        true,
    )
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
        self.bench_env(metric, server, extra, &[])
    }

    fn bench_env(
        &self,
        metric: &str,
        server: &str,
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> Output {
        let mut args: Vec<String> =
            vec!["bench".into(), self.path("data.jsonl"), "--metric".into(), metric.into()];
        args.extend(extra.iter().map(|a| a.to_string()));
        self.run(&args, server, env)
    }

    /// `lean-assess ARGS... --lean-project project --server-command SERVER` with the script.
    fn run(&self, args: &[String], server: &str, env: &[(&str, &str)]) -> Output {
        let started = Instant::now();
        let out = Command::new(BIN)
            .args(args)
            .args(["--lean-project", &self.path("project")])
            .args(["--server-command", server])
            .env("LEAN_STANDIN_SCRIPT", self.path("script.jsonl"))
            .envs(env.iter().copied())
            .output()
            .expect("run lean-assess");
        assert!(started.elapsed() < Duration::from_secs(60), "bench took {:?}", started.elapsed());
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
            goal_after_in(
                &["skip"],
                "_tt.S1.",
                "[([∀ ([n] : [ℕ]), [[[n] + [0]] = [n]]]) = ([∀ ([m] : [ℕ]), [[[m] + [0]] = [m]]])]",
            ),
            closed_after_in(&["rfl"], "_tt.S1."),
            goal_after_in(
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
    let out =
        s.bench("transted", STANDIN, &["--out", &s.path("pred.jsonl"), "--jobs", "1", "--json"]);
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
    // Progress lines say the verdict's words, never "equivalent false".
    assert!(stderr.contains("[1/2] same: equivalent (similarity 1.0000)"), "stderr: {stderr}");
    assert!(stderr.contains("[2/2] other: not shown (similarity"), "stderr: {stderr}");
    assert!(!stderr.contains("equivalent false"), "stderr: {stderr}");
    // Each prediction records its metric and verdict, so `merge` needs no --metric.
    assert!(p.iter().all(|v| v["metric"] == "transted"), "{p:?}");
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
                   "tryThis": ["exact h"]}),
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
    // A decision metric's decisions are its verdicts: one view, not the same figures twice.
    assert!(report.contains("shown equivalent: 1 of 2 pairs"), "report: {report}");
    assert!(report.contains("precision 100.00%"), "report: {report}");
    assert!(!report.contains("decisions:"), "report: {report}");
    // Progress lines say the verdict's words.
    assert!(stderr.contains("] eq: equivalent\n"), "stderr: {stderr}");
    assert!(stderr.contains("] neq: not shown\n"), "stderr: {stderr}");
}

/// A wrapper that kills the stand-in after `seconds` (a server crash in the middle of a run).
fn dying_server(dir: &Path, seconds: &str) -> String {
    let path = dir.join("dying-server.sh");
    std::fs::write(&path, format!("#!/bin/sh\nexec timeout -s KILL {seconds} {STANDIN}\n"))
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
    let rules =
        [json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["rfl"], "result": {"goals": []}})];
    let s = Setup::new(
        &rules,
        &[
            renamed_identity_line(),
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
    let out = s.bench("defeq", &server, &["--out", &s.path("pred.jsonl"), "--jobs", "1"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    let p = s.predictions();
    assert_eq!(p.len(), 3, "{p:?}");
    assert_eq!(
        p[0],
        json!({"id": "a", "equivalent": true, "verdict": "equivalent", "metric": "defeq"})
    );
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
    let out = s.bench("defeq", STANDIN, &["--out", &s.path("pred.jsonl"), "--jobs", "2"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    assert!(stderr.contains("resuming: 1 of 3 pair(s) already in the predictions"), "{stderr}");
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

/// A pair no fixed attempt proves: `exact?` finds nothing and every `exact` script fails; the
/// proof must come from the LLM (`rw [thm_P]`, in the Normal set). The axioms of every
/// error-free proof show the assumed statement's `sorryAx`.
fn beq_needing_the_llm() -> Setup {
    Setup::new(
        &[
            json!({"method": "textDocument/codeAction", "result": []}),
            json!({"method": "standin/diagnostic", "lineContains": "exact",
                   "message": "type mismatch"}),
            json!({"method": "standin/diagnostic", "lineContains": "#print axioms", "severity": 3,
                   "message": "'q' depends on axioms: [propext, sorryAx]"}),
        ],
        &[dataset_line(
            "sym",
            "theorem s_ref (a b : ℕ) (h : a = b) : b = a := by sorry",
            "theorem s_cand (a b : ℕ) (h : b = a) : a = b := by sorry",
            true,
        )],
    )
}

/// `[llm]` in `DIR/lean-assess.toml` gives BEq its sampler in batch: the HTTP stand-in sees the
/// paper's prompt (with the key from `api_key_env`, K from `samples`), and the sampled `rw`
/// proves both directions. Without the config the same run has no sampler and says so.
#[test]
fn beq_in_batch_samples_from_the_configured_llm() {
    let s = beq_needing_the_llm();
    // Three choices: the client's `n = 3` is met by one request per direction.
    let answer = "```lean\nrw [thm_P]\n```";
    let llm = llm_stand_in(&[answer, answer, answer]);
    let llm_table = format!(
        "[llm]\nbase_url = \"{}\"\nmodel = \"stand-in\"\n\
         api_key_env = \"LEAN_ASSESS_BENCH_TEST_KEY\"\nsamples = 3\n",
        llm.base_url
    );
    // In the project's file alone, `[llm]` is not used (a cloned project must not spend the user's key): one line saying so, and
    // nothing reaches the endpoint.
    std::fs::write(
        s.dir.path().join("project/lean-assess.toml"),
        format!("[metrics]\nbeq_timeout_ms = 20000\n\n{llm_table}"),
    )
    .expect("config");
    let out = s.bench_env(
        "beq",
        STANDIN,
        &["--out", &s.path("pred.jsonl")],
        &[("LEAN_ASSESS_BENCH_TEST_KEY", "sk-bench-test")],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(stderr.contains("comes from the project file only"), "{stderr}");
    assert!(llm.seen.lock().expect("lock").is_empty());
    // The user's own file (`--config`) layered over the project's: used.
    std::fs::write(
        s.dir.path().join("project/lean-assess.toml"),
        "[metrics]\nbeq_timeout_ms = 20000\n",
    )
    .expect("config");
    std::fs::write(s.path("user.toml"), &llm_table).expect("user config");
    let out = s.bench_env(
        "beq",
        STANDIN,
        &["--out", &s.path("pred.jsonl"), "--config", &s.path("user.toml")],
        &[("LEAN_ASSESS_BENCH_TEST_KEY", "sk-bench-test")],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    assert_eq!(
        s.predictions(),
        [json!({"id": "sym", "equivalent": true, "verdict": "equivalent", "metric": "beq"})]
    );
    let seen = llm.seen.lock().expect("lock").clone();
    assert_eq!(seen.len(), 2, "one request per direction");
    for (headers, body) in &seen {
        assert!(
            headers.iter().any(|(k, v)| k == "authorization" && v == "Bearer sk-bench-test"),
            "{headers:?}"
        );
        assert_eq!(body["model"], "stand-in");
        assert_eq!(body["n"], 3);
        let prompt = body["messages"][0]["content"].as_str().unwrap_or("");
        assert!(prompt.contains("thm_P") && prompt.contains("thm_Q"), "{prompt}");
    }

    // The same pair without a config: no sampler, not proved.
    std::fs::remove_file(s.dir.path().join("project/lean-assess.toml")).expect("rm");
    std::fs::remove_file(s.path("pred.jsonl")).expect("rm");
    let out = s.bench("beq", STANDIN, &["--out", &s.path("pred.jsonl")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        s.predictions(),
        [json!({"id": "sym", "equivalent": false, "verdict": "not shown", "metric": "beq"})]
    );
    assert_eq!(llm.seen.lock().expect("lock").len(), 2);
}

/// A config whose `[llm]` names a key variable that is not set: one line naming the file and
/// the variable, exit 2, before any server starts. A malformed config (`--config`): one line
/// naming the file and the line.
#[test]
fn missing_key_and_malformed_config_are_one_line_errors() {
    let s = beq_needing_the_llm();
    let config = s.dir.path().join("user.toml");
    std::fs::write(
        &config,
        "[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n\
         api_key_env = \"LEAN_ASSESS_BENCH_TEST_UNSET_KEY\"\n",
    )
    .expect("config");
    let record = s.path("record.jsonl");
    let out = s.bench_env(
        "beq",
        STANDIN,
        &["--config", &s.path("user.toml")],
        &[("LEAN_STANDIN_RECORD", record.as_str())],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("lean-assess: error: ")
            && stderr.contains(&format!("{}: [llm]", config.display()))
            && stderr.contains("'LEAN_ASSESS_BENCH_TEST_UNSET_KEY' is not set"),
        "{stderr}"
    );
    assert!(!Path::new(&record).exists(), "no server was started");
    // `[llm]` matters to beq only: transted runs with the same config.
    let out = s.bench("defeq", STANDIN, &[]);
    assert_ne!(out.status.code(), Some(2), "{}", text(&out.stderr));

    let bad = s.dir.path().join("bad.toml");
    std::fs::write(&bad, "[metrics]\ntransted_timeout_ms = \"soon\"\n").expect("bad config");
    for command in ["bench", "score"] {
        let args: Vec<String> = match command {
            "bench" => {
                vec!["bench".into(), s.path("data.jsonl"), "--metric".into(), "transted".into()]
            }
            _ => vec![
                "score".into(),
                "--metric".into(),
                "transted".into(),
                "--ref-text".into(),
                "theorem a : 1 = 1".into(),
                "--cand-text".into(),
                "theorem b : 1 = 1".into(),
            ],
        };
        let mut args = args;
        args.extend(["--config".to_string(), bad.display().to_string()]);
        let out = s.run(&args, STANDIN, &[]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{command}: {stderr}");
        assert!(stderr.contains(&format!("{}:2: ", bad.display())), "{command}: {stderr}");
    }
}

/// `[metrics] transted_timeout_ms` bounds a batch pair: the goal query is answered after 4 s
/// (the default limit, 60 s, would wait for it and judge the pair equivalent); the configured
/// 300 ms limit ends the pair at its deadline. (The stand-in sleeps on its one thread, so the
/// run as a whole still lasts until it wakes to answer `shutdown`.)
#[test]
fn configured_time_limit_bounds_a_pair() {
    let s = Setup::new(
        &[json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
                 "delayMs": 4000, "result": {"goals": []}})],
        &[dataset_line(
            "slow",
            "theorem a (n : ℕ) : n = n := by sorry",
            "theorem b (n : ℕ) : n = n := by sorry",
            true,
        )],
    );
    std::fs::write(s.path("limits.toml"), "[metrics]\ntransted_timeout_ms = 300\n")
        .expect("config");
    let out = s.bench(
        "defeq",
        STANDIN,
        &["--config", &s.path("limits.toml"), "--out", &s.path("pred.jsonl")],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let p = s.predictions();
    assert_eq!(p.len(), 1, "{p:?}");
    let error = p[0]["error"].as_str().unwrap_or_else(|| panic!("{p:?}"));
    assert!(error.contains("the deadline passed"), "{error}");
}

/// The `$/lean/rpc/keepAlive` notifications the stand-in received, as (uri, sessionId), and
/// the number of `$/lean/rpc/connect` requests, in the order received.
fn keep_alives(record: &str) -> (Vec<(String, String)>, usize) {
    let text = std::fs::read_to_string(record).expect("record");
    let mut alive = Vec::new();
    let mut connects = 0;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).expect("recorded JSON");
        match v["method"].as_str() {
            Some("$/lean/rpc/keepAlive") => alive.push((
                v["params"]["uri"].as_str().unwrap_or("").to_string(),
                v["params"]["sessionId"].as_str().unwrap_or("").to_string(),
            )),
            Some("$/lean/rpc/connect") => connects += 1,
            _ => {}
        }
    }
    (alive, connects)
}

/// Keep-alive in batch (interval shortened to 50 ms through `LEAN_ASSESS_KEEPALIVE_MS`): the
/// stand-in expires the oracle's first session (`-32900` after 300 ms) and answers the goal
/// query on the new session after another 300 ms. The oracle reconnects, the pair is judged,
/// and keepAlives name the scratch document with the first session, then only the second; none
/// after the run ends.
#[test]
fn keep_alive_ticks_during_a_run_and_follows_a_reconnect() {
    let s = Setup::new(
        &[
            json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
                   "times": 1, "delayMs": 300,
                   "error": {"code": -32900, "message": "Outdated RPC session"}}),
            json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
                   "tactics": ["rfl"], "delayMs": 300, "result": {"goals": []}}),
        ],
        &[renamed_identity_line()],
    );
    let record = s.path("record.jsonl");
    let started = Instant::now();
    let out = s.bench_env(
        "defeq",
        STANDIN,
        &["--out", &s.path("pred.jsonl")],
        &[("LEAN_ASSESS_KEEPALIVE_MS", "50"), ("LEAN_STANDIN_RECORD", record.as_str())],
    );
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        s.predictions(),
        [json!({"id": "a", "equivalent": true, "verdict": "equivalent", "metric": "defeq"})]
    );
    let (alive, connects) = keep_alives(&record);
    assert!(connects >= 2, "the oracle reconnected: {connects} connect(s)");
    assert!(alive.len() >= 4, "{} keepAlive(s) in ~0.6 s at 50 ms: {alive:?}", alive.len());
    assert!(
        alive.iter().all(|(uri, _)| uri.contains("/.lean-assess-scratch/lean_assess_scratch_")),
        "{alive:?}"
    );
    let first = &alive[0].1;
    let last = &alive[alive.len() - 1].1;
    assert_ne!(first, last, "the reconnect's session is kept alive: {alive:?}");
    let switch = alive.iter().position(|(_, id)| id != first).unwrap_or(0);
    assert!(alive[switch..].iter().all(|(_, id)| id == last), "{alive:?}");
    // The ticker stopped with the run: nothing was sent after `shutdown`.
    let recorded = std::fs::read_to_string(&record).expect("record");
    let after_shutdown = recorded
        .lines()
        .skip_while(|l| !l.contains("\"shutdown\""))
        .filter(|l| l.contains("keepAlive"))
        .count();
    assert_eq!(after_shutdown, 0, "{recorded}");

    // Without the shortened interval a short run sends none (Lean's rhythm is 10 s).
    std::fs::remove_file(&record).expect("rm");
    std::fs::remove_file(s.path("pred.jsonl")).expect("rm");
    let out = s.bench_env(
        "defeq",
        STANDIN,
        &["--out", &s.path("pred.jsonl")],
        &[("LEAN_STANDIN_RECORD", record.as_str())],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(keep_alives(&record).0.is_empty());
}

/// `score --lean-project`: transted, defeq and beq for one pair through one spawned server, as
/// bench runs them; transted closes by `rfl` and prints its proof path as an `example`. `--json`
/// carries the proof path too. Without --lean-project, the needs-Lean message stays.
#[test]
fn score_runs_the_lean_metrics_through_a_spawned_server() {
    let s = Setup::new(&renamed_pair_proved_rules(), &[]);
    let args = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "score",
            "--metric",
            "ted,transted,defeq,beq",
            "--ref-text",
            "theorem a (n : ℕ) : n + 0 = n",
            "--cand-text",
            "theorem b (m : ℕ) : m + 0 = m",
        ]
        .iter()
        .map(|x| x.to_string())
        .collect();
        a.extend(extra.iter().map(|x| x.to_string()));
        a
    };
    let out = s.run(&args(&[]), STANDIN, &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}\n{stdout}", text(&out.stderr));
    let line = |name: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} line: {stdout}"))
            .to_string()
    };
    assert!(line("transted ").contains("1.0000"), "{stdout}");
    assert!(line("defeq ").contains("equivalent"), "{stdout}");
    assert!(!line("defeq ").contains("not equivalent"), "{stdout}");
    assert!(line("beq ").ends_with(" equivalent"), "{stdout}");
    let path_at = stdout.find("proof path:").expect("proof path printed");
    // The standalone check of the path: the two statements, the closing tactic, the axioms.
    let example = &stdout[path_at..];
    assert!(example.contains("transted_witness"), "{stdout}");
    assert!(example.contains("\n                    rfl\n"), "{stdout}");
    assert!(!example.contains("sorry\n"), "{stdout}");

    let out = s.run(&args(&["--json"]), STANDIN, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("score --json");
    let metrics = v["metrics"].as_array().expect("metrics");
    let names: Vec<&str> = metrics.iter().filter_map(|m| m["metric"].as_str()).collect();
    assert_eq!(names, ["ted", "transted", "defeq", "beq"]);
    assert_eq!(metrics[1]["score"], 1.0);
    let proof = metrics[1]["proof_path"].as_str().expect("proof_path");
    assert!(proof.contains("#print axioms transted_witness"), "{proof}");
    assert_eq!(metrics[2]["equivalent"], true);
    assert_eq!(metrics[3]["equivalent"], true);
    assert!(metrics[0].get("proof_path").is_none());

    // Without --lean-project: the needs-Lean message, exit 1, no server.
    let out = Command::new(BIN).args(&args(&[])[..]).output().expect("run lean-assess");
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(line_of(&stdout, "transted ").contains("needs a Lean server"), "{stdout}");
}

fn line_of(text: &str, start: &str) -> String {
    text.lines().find(|l| l.starts_with(start)).unwrap_or_default().to_string()
}

// ---- What a real Lean does that the stand-in did not always do.

/// "Imports are out of date…" at 0:0 (a real worker's header error): every Lean metric ends
/// the batch with one error naming the scratch document and Lean's message, and
/// no pair gets a score or "not equivalent" (exit status 2: the run could not be done).
#[test]
fn a_header_error_ends_the_batch_with_one_error() {
    for metric in ["transted", "defeq", "beq"] {
        let s = Setup::new(
            &[json!({"method": "standin/header", "kind": "outOfDate"})],
            &[
                renamed_identity_line(),
                dataset_line(
                    "b",
                    "theorem b (n : ℕ) : n + 0 = n := by sorry",
                    "theorem b' (m : ℕ) : m = m + 0 := by sorry",
                    true,
                ),
            ],
        );
        let out = s.bench(metric, STANDIN, &["--out", &s.path("pred.jsonl")]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{metric}: {err}");
        let lines: Vec<&str> =
            err.lines().filter(|l| l.contains("Imports are out of date")).collect();
        assert_eq!(lines.len(), 1, "{metric}: one error: {err}");
        assert!(
            lines[0].contains("lean_assess_scratch_")
                && lines[0].contains("could not process the imports"),
            "{metric}: {err}"
        );
        let written = std::fs::read_to_string(s.path("pred.jsonl")).unwrap_or_default();
        assert!(
            !written.contains("score") && !written.contains("equivalent"),
            "{metric}: no verdict from a broken header: {written}"
        );
        // The scratch files went with the run.
        let scratch = s.dir.path().join("project/.lean-assess-scratch");
        assert!(
            !scratch.exists() || std::fs::read_dir(&scratch).expect("dir").next().is_none(),
            "{metric}: scratch files left behind"
        );
    }
}

/// Scratch files of a run that died without cleaning up (its pid gone) are removed when the
/// next run starts; a user's own file in that directory is kept.
#[test]
fn stale_scratch_files_of_dead_runs_are_removed_at_start() {
    let s = Setup::new(
        &[json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
                 "tactics": ["rfl"], "result": {"goals": []}})],
        &[renamed_identity_line()],
    );
    let scratch = s.dir.path().join("project/.lean-assess-scratch");
    std::fs::create_dir_all(&scratch).expect("dir");
    let stale = scratch.join("lean_assess_scratch_4294967_3.lean");
    std::fs::write(&stale, "import Mathlib\n").expect("write");
    let keep = scratch.join("Notes.lean");
    std::fs::write(&keep, "-- mine\n").expect("write");
    let out = s.bench("defeq", STANDIN, &["--out", &s.path("pred.jsonl")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The stale file's writer is known to be gone only through /proc.
    assert!(std::path::Path::new("/proc/self").exists(), "this test needs /proc (Linux)");
    assert!(!stale.exists());
    assert!(keep.exists());
}

/// `beq+` end to end in batch and in `score`: no LLM, the fixed attempts in order (exact?,
/// apply + closers, have + closers), each direction proved by the `have` attempt, the attempts
/// in the report.
#[test]
fn beq_plus_runs_end_to_end_in_batch_and_score() {
    let s = Setup::new(
        &beq_plus_rules(),
        &[dataset_line(
            "a",
            "theorem a (n : ℕ) (h : 0 < n) : 1 ≤ n := by sorry",
            "theorem a' (m : ℕ) (h : m ≠ 0) : 1 ≤ m := by sorry",
            true,
        )],
    );
    let out = s.bench("beq+", STANDIN, &["--out", &s.path("pred.jsonl")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        s.predictions(),
        [json!({"id": "a", "equivalent": true, "verdict": "equivalent", "metric": "beq+"})]
    );
    // The first open of the imports is reported apart from the pair's time.
    assert!(text(&out.stderr).contains("a: Lean loaded the imports in"), "{}", text(&out.stderr));

    let args: Vec<String> = [
        "score",
        "--metric",
        "beq+",
        "--json",
        "--ref-text",
        "theorem a (n : ℕ) (h : 0 < n) : 1 ≤ n",
        "--cand-text",
        "theorem b (m : ℕ) (h : m ≠ 0) : 1 ≤ m",
    ]
    .iter()
    .map(|x| x.to_string())
    .collect();
    let out = s.run(&args, STANDIN, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("score --json");
    let m = &v["metrics"][0];
    assert_eq!(m["metric"], "beq+", "{v}");
    assert_eq!(m["equivalent"], true, "{v}");
    let notes = m.to_string();
    assert!(notes.contains("grind off"), "{notes}");
    assert!(
        notes.contains("apply thm_P") && notes.contains("failed (`exact?` could not close"),
        "{notes}"
    );
    assert!(notes.contains("have : 1 ≤ m := by") && notes.contains("→ proved"), "{notes}");
}
