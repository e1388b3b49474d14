//! `lean-assess integrity` over the corpus in `fixtures/integrity/`: every honest solution passes,
//! every cheat is caught by the criterion its `-- expect:` line names; the batch form, `--json`
//! and the summary; bad input (one line each, exit 2) and unreadable solutions (a failure, exit
//! 1); and the Lean-backed path against the scripted stand-in (`--lean-project` with
//! `--server-command lean-standin`).
//!
//! What the stand-in tests cover: the stand-in has no Lean in it, so its `#print axioms` answers
//! are scripted diagnostics (severity 3) whose text has the shape of Lean's `printAxiomsOf`
//! (lean4 `src/Lean/Elab/Print.lean`). They test the plumbing (the solution's commands and the
//! `#print axioms` lines reach the server in one document, errors and answers come back to the
//! right target and line, a timeout is a failure), not what a real Lean would answer.

mod common;

use common::{PROXY as BIN, STANDIN};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/integrity")
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).arg("integrity").args(args).output().expect("run lean-assess")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn lean_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("corpus dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "lean"))
        .collect();
    files.sort();
    files
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {}\nstderr: {}", text(&out.stdout), text(&out.stderr))
    })
}

/// Every criterion named by a finding of the (single) report.
fn criteria(report: &Value) -> Vec<String> {
    let mut out: Vec<String> = report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(
            report["targets"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|t| t["findings"].as_array().into_iter().flatten()),
        )
        .map(|f| f["criterion"].as_str().unwrap_or("?").to_string())
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn every_honest_solution_passes_in_the_batch_and_the_two_file_form() {
    let c = corpus();
    let out = run(&[
        "--tasks",
        &c.join("tasks").display().to_string(),
        "--solutions",
        &c.join("honest").display().to_string(),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let v = json_of(&out);
    let tasks = lean_files(&c.join("tasks")).len();
    assert_eq!(v["summary"]["tasks"], json!(tasks));
    assert_eq!(v["summary"]["tasks_passed"], json!(tasks));
    assert_eq!(v["summary"]["targets"], json!(6), "{v}");
    assert_eq!(v["summary"]["tasks_passed_percent"], json!(100.0));
    assert_eq!(v["lean"], json!(false));
    for r in v["reports"].as_array().unwrap() {
        for t in r["targets"].as_array().unwrap() {
            assert_eq!(t["statement"], "unchanged", "{t}");
        }
    }
    let alternatives = lean_files(&c.join("honest-alt"));
    assert!(alternatives.len() >= 3);
    for sol in alternatives {
        let task = c.join("tasks").join(sol.file_name().unwrap());
        let out = run(&[&task.display().to_string(), &sol.display().to_string()]);
        assert_eq!(out.status.code(), Some(0), "{}: {}", sol.display(), text(&out.stdout));
        assert!(text(&out.stdout).starts_with("PASS "), "{}", text(&out.stdout));
    }
}

#[test]
fn every_cheat_is_caught_by_the_criterion_it_expects_with_a_line() {
    let c = corpus();
    let cheats = lean_files(&c.join("cheats"));
    assert!(cheats.len() >= 20, "{} cheats", cheats.len());
    let mut kinds = std::collections::BTreeSet::new();
    for sol in cheats {
        let name = sol.file_name().unwrap().to_string_lossy().into_owned();
        let (task_name, kind) = name.split_once("--").expect("TASK--KIND.lean");
        kinds.insert(kind.trim_end_matches(".lean").to_string());
        let task = c.join("tasks").join(format!("{task_name}.lean"));
        let source = std::fs::read_to_string(&sol).unwrap();
        let expected: Vec<&str> = source
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("-- expect: "))
            .expect("first line: -- expect: CRITERION[, CRITERION]")
            .split(", ")
            .collect();
        let out = run(&[&task.display().to_string(), &sol.display().to_string(), "--json"]);
        assert_eq!(out.status.code(), Some(1), "{name} not caught: {}", text(&out.stdout));
        let v = json_of(&out);
        let report = &v["reports"][0];
        assert_eq!(report["passed"], json!(false), "{name}");
        let found = criteria(report);
        for e in &expected {
            assert!(found.iter().any(|f| f == e), "{name}: expected {e}, found {found:?}");
        }
        // Every finding names the solution and (except a missing target) a line.
        let plain = run(&[&task.display().to_string(), &sol.display().to_string()]);
        let stdout = text(&plain.stdout);
        let finding_lines: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("  pass") && !l.starts_with("  fail"))
            .collect();
        assert!(!finding_lines.is_empty(), "{name}: {stdout}");
        for l in finding_lines {
            let l = l.trim_start();
            let sol_shown = sol.display().to_string();
            assert!(l.starts_with(&sol_shown), "{name}: {l}");
            if !l.contains(": missing: ") {
                let rest = &l[sol_shown.len()..];
                let line: String = rest[1..].chars().take_while(char::is_ascii_digit).collect();
                assert!(!line.is_empty(), "{name}: no line in {l}");
            }
        }
    }
    for kind in [
        "weakened",
        "hypothesis-added",
        "type-changed",
        "sorry-in-have",
        "axiom-added",
        "shadowed-definition",
        "import-added",
        "open-changes-a-name",
        "equivalent-rewrite",
        "local-notation",
        "local-instance",
        "decoy-in-quotation",
        "quote-in-escaped-name",
        "comment-in-escaped-name",
        "char-in-interpolation",
        "exit-before-target",
        "namespace-around-root-name",
        "include-hypothesis",
        "scoped-instance",
        "run-cmd",
        "eval-with-effects",
        "initialize",
        "deriving-instance",
        "auto-implicit",
    ] {
        assert!(kinds.contains(kind), "the corpus lacks a `{kind}` cheat");
    }
}

#[test]
fn an_equivalent_rewrite_is_changed_with_the_transted_lite_distance_beside_it() {
    let c = corpus();
    let out = run(&[
        &c.join("tasks/amc12_2000_p5.lean").display().to_string(),
        &c.join("cheats/amc12_2000_p5--equivalent-rewrite.lean").display().to_string(),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let t = &json_of(&out)["reports"][0]["targets"][0];
    assert_eq!(t["statement"], "changed");
    assert_eq!(t["transted_lite_distance"], json!(0));
}

#[test]
fn batch_summary_counts_and_percentages_and_a_missing_solution_fails_its_task() {
    let c = corpus();
    let sols = tempfile::tempdir().unwrap();
    // Two honest solutions, one cheat under a task's name, and no file for the others.
    for (from, to) in [
        ("honest/odd_prime.lean", "odd_prime.lean"),
        ("honest/group_exercises.lean", "group_exercises.lean"),
        ("cheats/mathd_algebra_10--sorry-in-have.lean", "mathd_algebra_10.lean"),
    ] {
        std::fs::copy(c.join(from), sols.path().join(to)).unwrap();
    }
    let tasks = c.join("tasks").display().to_string();
    let out = run(&["--tasks", &tasks, "--solutions", &sols.path().display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("tasks: 5 checked, 2 passed (40.0%), 3 failed (60.0%)"), "{stdout}");
    assert!(stdout.contains("targets: 6 checked, 3 passed (50.0%), 3 failed (50.0%)"), "{stdout}");
    assert!(stdout.contains("failed targets by criterion: forbidden 1, unreadable 2"), "{stdout}");
    assert!(stdout.contains("cannot read"), "{stdout}");
    assert!(stdout.contains("setting: offline checks only"), "{stdout}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, body: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, body).unwrap();
        p.display().to_string()
    };
    let no_sorry = write("no_sorry.lean", b"theorem a : True := trivial\n");
    let unclosed =
        write("unclosed.lean", b"import Mathlib\n\n/- never closed\ntheorem a : True := sorry\n");
    let good_task = write("task.lean", b"theorem a : 1 = 1 := by\n  sorry\n");
    let good_sol = write("sol.lean", b"theorem a : 1 = 1 := by\n  rfl\n");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![no_sorry.clone(), good_sol.clone()], "no target"),
        (vec![unclosed.clone(), good_sol.clone()], "line 3: unterminated comment"),
        (
            vec![good_task.clone(), good_sol.clone(), "--theorem".into(), "b".into()],
            "no theorem named 'b' (theorems here: a)",
        ),
        (
            vec![good_task.clone(), dir.path().join("nope.lean").display().to_string()],
            "no such file",
        ),
        (vec![good_task.clone()], "give TASK.lean SOLUTION.lean"),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(needle), "{needle}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // The same task works with a good solution.
    assert_eq!(run(&[&good_task, &good_sol]).status.code(), Some(0));
}

#[test]
fn unreadable_solutions_fail_with_file_and_line_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let task = dir.path().join("task.lean");
    std::fs::write(&task, "theorem a : 1 = 1 := by\n  sorry\n").unwrap();
    for (body, needle) in [
        (
            &b"theorem a : 1 = 1 := by\n  rfl\n/- unclosed\n"[..],
            ":3: unreadable: unterminated comment",
        ),
        (&b"theorem a : 1 = 1 := by\n  exact \"\xff\"\n"[..], "line 2: not valid UTF-8"),
        (
            &b"theorem a : 1 = 1 := by\n  rfl\n#eval \"open\n"[..],
            ":3: unreadable: unterminated string",
        ),
    ] {
        let sol = dir.path().join("sol.lean");
        std::fs::write(&sol, body).unwrap();
        let out = run(&[&task.display().to_string(), &sol.display().to_string()]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
        assert!(text(&out.stdout).contains(needle), "{needle}: {}", text(&out.stdout));
    }
}

#[test]
fn a_bad_task_in_a_batch_is_one_line_and_the_rest_is_still_checked() {
    let tasks = tempfile::tempdir().unwrap();
    let sols = tempfile::tempdir().unwrap();
    std::fs::write(tasks.path().join("a.lean"), "theorem a : 1 = 1 := by\n  sorry\n").unwrap();
    std::fs::write(tasks.path().join("b.lean"), "theorem b : 1 = 1 := rfl\n").unwrap();
    std::fs::write(sols.path().join("a.lean"), "theorem a : 1 = 1 := by\n  rfl\n").unwrap();
    std::fs::write(sols.path().join("b.lean"), "theorem b : 1 = 1 := rfl\n").unwrap();
    let out = run(&[
        "--tasks",
        &tasks.path().display().to_string(),
        "--solutions",
        &sols.path().display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    assert!(stderr.contains("b.lean: no target"), "{stderr}");
    assert!(stderr.contains("1 task(s) could not be used"), "{stderr}");
    assert!(text(&out.stdout).contains("PASS "), "{}", text(&out.stdout));
}

#[test]
fn allow_flags_let_an_import_and_native_decide_through() {
    let c = corpus();
    let task = c.join("tasks/mathd_algebra_10.lean").display().to_string();
    let import = c.join("cheats/mathd_algebra_10--import-added.lean").display().to_string();
    assert_eq!(run(&[&task, &import]).status.code(), Some(1));
    assert_eq!(
        run(&[&task, &import, "--allow-import", "Cheats.AllTheAnswers"]).status.code(),
        Some(0)
    );
    let native = c.join("cheats/mathd_algebra_10--native-decide.lean").display().to_string();
    assert_eq!(run(&[&task, &native, "--allow-native-decide"]).status.code(), Some(0));
}

// ---------------------------------------------------------------------------------------------
// The Lean-backed path, against the scripted stand-in.

struct LeanRun {
    dir: tempfile::TempDir,
}

impl LeanRun {
    fn new(rules: &[Value]) -> LeanRun {
        let dir = tempfile::tempdir().unwrap();
        let script: String = rules.iter().map(|r| format!("{r}\n")).collect();
        std::fs::write(dir.path().join("script.jsonl"), script).unwrap();
        std::fs::create_dir(dir.path().join("project")).unwrap();
        LeanRun { dir }
    }

    fn run(&self, task: &Path, sol: &Path, extra: &[&str]) -> Output {
        Command::new(BIN)
            .arg("integrity")
            .arg(task)
            .arg(sol)
            .arg("--json")
            .args(["--lean-project", &self.dir.path().join("project").display().to_string()])
            .args(["--server-command", STANDIN])
            .args(extra)
            .env("LEAN_STANDIN_SCRIPT", self.dir.path().join("script.jsonl"))
            .output()
            .expect("run lean-assess")
    }
}

fn axioms_rule(name: &str, axioms: &str) -> Value {
    json!({"method": "standin/diagnostic", "lineContains": format!("#print axioms {name}"),
           "severity": 3, "message": format!("'{name}' depends on axioms: [{axioms}]")})
}

#[test]
fn lean_path_passes_standard_axioms_and_fails_sorry_ax_errors_and_silence() {
    let c = corpus();
    let task = c.join("tasks/odd_prime.lean");
    let sol = c.join("honest/odd_prime.lean");

    let ok = LeanRun::new(&[axioms_rule("odd_prime", "propext, Classical.choice, Quot.sound")]);
    let out = ok.run(&task, &sol, &[]);
    assert_eq!(out.status.code(), Some(0), "{}\n{}", text(&out.stdout), text(&out.stderr));
    let v = json_of(&out);
    assert_eq!(v["lean"], json!(true));
    assert_eq!(v["timeout_seconds"], json!(300));

    let sorry = LeanRun::new(&[axioms_rule("odd_prime", "propext, sorryAx")]);
    let out = sorry.run(&task, &sol, &[]);
    assert_eq!(out.status.code(), Some(1));
    let f = &json_of(&out)["reports"][0]["targets"][0]["findings"][0];
    assert_eq!(f["criterion"], "axioms");
    assert!(f["message"].as_str().unwrap().contains("sorryAx"), "{f}");
    assert_eq!(f["line"], json!(9));

    // An elaboration error names the line where its command starts in the solution.
    let error = LeanRun::new(&[
        axioms_rule("odd_prime", "propext"),
        json!({"method": "standin/diagnostic", "lineContains": "odd_of_ne_two",
               "severity": 1, "message": "unknown constant 'Nat.Prime.odd_of_ne_two'"}),
    ]);
    let out = error.run(&task, &sol, &[]);
    assert_eq!(out.status.code(), Some(1));
    let f = &json_of(&out)["reports"][0]["findings"][0];
    assert_eq!(f["criterion"], "elaboration");
    assert_eq!(f["line"], json!(9));
    assert!(f["message"].as_str().unwrap().contains("unknown constant"), "{f}");

    // No answer to `#print axioms` is a failure, never a pass.
    let silent = LeanRun::new(&[]);
    let out = silent.run(&task, &sol, &[]);
    assert_eq!(out.status.code(), Some(1));
    let f = &json_of(&out)["reports"][0]["targets"][0]["findings"][0];
    assert!(f["message"].as_str().unwrap().contains("gave no answer"), "{f}");
}

#[test]
fn lean_path_timeout_is_a_failure_and_static_failures_are_not_elaborated() {
    let c = corpus();
    let task = c.join("tasks/odd_prime.lean");
    let stall =
        LeanRun::new(&[json!({"method": "textDocument/waitForDiagnostics", "stall": true})]);
    let started = std::time::Instant::now();
    let out = stall.run(&task, &c.join("honest/odd_prime.lean"), &["--timeout", "1"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(1));
    let f = &json_of(&out)["reports"][0]["findings"][0];
    assert_eq!(f["criterion"], "timeout", "{f}");
    // A cheat caught offline is not sent to Lean (the stall would otherwise time it out).
    let out = stall.run(&task, &c.join("cheats/odd_prime--axiom-added.lean"), &["--timeout", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(criteria(&json_of(&out)["reports"][0]), ["forbidden"]);
}

/// A solution that is a FIFO (or any non-regular file) fails its task at once; the batch goes
/// on to the next task instead of waiting on the pipe for ever.
#[cfg(unix)]
#[test]
fn a_fifo_solution_fails_its_task_without_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = dir.path().join("tasks");
    let solutions = dir.path().join("solutions");
    std::fs::create_dir_all(&tasks).unwrap();
    std::fs::create_dir_all(&solutions).unwrap();
    for name in ["a", "b"] {
        std::fs::write(tasks.join(format!("{name}.lean")), "theorem t : 1 = 1 := by\n  sorry\n")
            .unwrap();
    }
    std::fs::write(solutions.join("b.lean"), "theorem t : 1 = 1 := by\n  rfl\n").unwrap();
    let fifo = solutions.join("a.lean");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let mut child = Command::new(BIN)
        .args(["integrity", "--tasks"])
        .arg(&tasks)
        .arg("--solutions")
        .arg(&solutions)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the batch waited on the FIFO");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    assert_eq!(status.code(), Some(1), "{out}");
    assert!(out.contains("not a regular file"), "{out}");
    assert!(out.contains("PASS") && out.contains("b.lean"), "{out}");
}

/// The Lean pass checks the elaborated target against the task's statement: right after the
/// target, `example : ∀ BINDERS, TYPE` (the task's) is proved from it. When Lean rejects that
/// (a target whose elaborated type is not the task's), the target fails even though its own
/// command elaborated and its axioms are the standard ones.
#[test]
fn lean_path_fails_a_target_whose_elaborated_type_does_not_give_the_tasks() {
    let c = corpus();
    let task = c.join("tasks/odd_prime.lean");
    let sol = c.join("honest/odd_prime.lean");
    let check_line = "example : ∀ (p : ℕ) (h₀ : Nat.Prime p) (h₁ : 2 < p), Odd p := by";
    let run = LeanRun::new(&[
        axioms_rule("odd_prime", "propext, Classical.choice, Quot.sound"),
        json!({"method": "standin/diagnostic", "lineContains": check_line, "severity": 1,
               "message": "type mismatch\n  odd_prime p h₀ h₁\nhas type True"}),
    ]);
    let out = run.run(&task, &sol, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let v = json_of(&out);
    let target = &v["reports"][0]["targets"][0];
    let findings = target["findings"].as_array().unwrap();
    assert!(
        findings.iter().any(|f| f["criterion"] == "statement"
            && f["message"]
                .as_str()
                .unwrap()
                .contains("does not follow from `odd_prime` as elaborated: type mismatch")),
        "{findings:?}"
    );
}
