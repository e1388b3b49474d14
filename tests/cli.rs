//! The `lean-assess` binary end to end: every command on fixture inputs, every bad-input case
//! with its message and exit status (0 ok, 1 some items failed, 2 bad input or usage).

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(rel: &str) -> String {
    root().join("fixtures").join(rel).display().to_string()
}

/// `bench DATASET --json --out DIR/pred.jsonl`: the run and the predictions' path.
fn bench_json(dataset: &str, dir: &Path) -> (Run, String) {
    let out = dir.join("pred.jsonl").display().to_string();
    let run = lean_assess(&["bench", dataset, "--json", "--out", &out]);
    (run, out)
}

/// The bundled pair's two files (`fixtures/cli`), absolute.
fn bundled_pair() -> (String, String) {
    (
        fixture("cli/reference.lean::mathd_algebra_10"),
        fixture("cli/candidate.lean::my_favorite_theorem"),
    )
}

fn lean_assess(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_lean-assess"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("BUG: the binary runs");
    Run {
        code: output.status.code().expect("BUG: exited, not killed"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// A fatal error: status 2, nothing on stdout, exactly one line on stderr, containing `want`.
fn assert_fails(args: &[&str], want: &str) {
    let run = lean_assess(args);
    assert_eq!(run.code, 2, "{args:?}: stderr {}", run.stderr);
    assert_eq!(run.stdout, "", "{args:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    assert!(run.stderr.starts_with("lean-assess: error: "), "{args:?}: {}", run.stderr);
    assert!(run.stderr.contains(want), "{args:?}: want {want:?} in {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.display().to_string()
}

// ---------------------------------------------------------------------------------------- tree

#[test]
fn tree_prints_text_json_and_dot() {
    let input = fixture("cli/reference.lean::amc12_sum");
    let json = lean_assess(&["tree", "--format", "json", &input]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let tree: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(tree["label"], "theorem");
    let text = json.stdout;
    assert!(text.contains('∑'), "{text}");

    let plain = lean_assess(&["tree", &input]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert!(plain.stdout.lines().count() > 5, "{}", plain.stdout);
    assert!(plain.stdout.contains("theorem"));

    let dot = lean_assess(&["tree", "--format", "dot", &input]);
    assert_eq!(dot.code, 0, "{}", dot.stderr);
    assert!(dot.stdout.trim_start().starts_with("digraph"), "{}", dot.stdout);
}

#[test]
fn tree_of_a_file_needs_a_name_among_several_and_reads_the_header() {
    // Three statements and no name: one error listing them, never the first taken silently
    // (it may be a helper lemma, not the statement meant).
    assert_fails(
        &["tree", "--format", "json", &fixture("cli/reference.lean")],
        "holds 3 statements (mathd_algebra_10, amc12_sum, sq_nonneg')",
    );
    assert_fails(
        &[
            "score",
            "--ref-text",
            "example : True\ntheorem a : True",
            "--cand-text",
            "theorem a : True",
        ],
        "--ref-text: holds 2 statements (example, a); give the one to compare alone",
    );
    let named = lean_assess(&[
        "tree",
        "--format",
        "json",
        &fixture("cli/reference.lean::mathd_algebra_10"),
    ]);
    assert_eq!(named.code, 0, "{}", named.stderr);

    let header = lean_assess(&["tree", "--format", "json", &fixture("cli/header.lean")]);
    assert_eq!(header.code, 0, "{}", header.stderr);
    let tree: Value = serde_json::from_str(&header.stdout).unwrap();
    assert_eq!(tree["label"], "theorem");
}

#[test]
fn tree_of_literal_text_equals_tree_of_the_same_text_in_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let statement = "theorem t (a b : ℝ) (h : a < b) : ∃ c, a < c ∧ c < b := by sorry";
    let file = write(dir.path(), "t.lean", statement.as_bytes());
    let from_text = lean_assess(&["tree", "--format", "json", "--text", statement]);
    let from_file = lean_assess(&["tree", "--format", "json", &file]);
    assert_eq!(from_text.code, 0, "{}", from_text.stderr);
    assert_eq!(from_text.stdout, from_file.stdout);
}

// ----------------------------------------------------------------------------------------- ted

#[test]
fn ted_pairs_reproduces_gteds_unit_and_free_cost_distances() {
    for name in ["gted-minif2f", "gted-proofnet"] {
        let file = fixture(&format!("bench/{name}.trees.jsonl"));
        let expected: Vec<Value> = std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        for (flag, field, sim_field) in
            [(None, "ted_unit", "sim_unit"), (Some("--free-cost"), "ted_freecost", "sim_freecost")]
        {
            let mut args = vec!["ted", "--pairs", &file, "--json"];
            args.extend(flag);
            let run = lean_assess(&args);
            assert_eq!(run.code, 0, "{}", run.stderr);
            let got: Vec<Value> =
                run.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
            assert_eq!(got.len(), expected.len());
            for (g, e) in got.iter().zip(&expected) {
                assert_eq!(g["id"], e["id"]);
                assert_eq!(g["distance"], e[field], "{name} {} {field}", e["id"]);
                // GTED stores similarities rounded to 4 places.
                let sim = g["similarity"].as_f64().unwrap();
                let want = e[sim_field].as_f64().unwrap();
                assert!((sim - want).abs() < 5e-5, "{} {sim} vs {want}", e["id"]);
            }
        }
    }
}

#[test]
fn ted_pairs_prints_a_table_without_json() {
    let run = lean_assess(&["ted", "--pairs", &fixture("bench/gted-proofnet.trees.jsonl")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut lines = run.stdout.lines();
    assert_eq!(lines.next(), Some("id\tdistance\tsimilarity"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 93);
    // Fixed precision, no float noise such as `0.32499999999999996`.
    for row in rows {
        let similarity = row.rsplit('\t').next().unwrap();
        let decimals = similarity.split_once('.').map_or(0, |(_, d)| d.len());
        assert_eq!(decimals, 4, "{row}");
    }
}

// --------------------------------------------------------------------------------------- score

#[test]
fn score_renames_cost_one_by_default_and_nothing_with_free_cost() {
    let reference = fixture("cli/reference.lean::mathd_algebra_10");
    let candidate = fixture("cli/candidate.lean::my_favorite_theorem");
    let free = lean_assess(&["score", "--json", "--free-cost", &reference, &candidate]);
    assert_eq!(free.code, 0, "{}", free.stderr);
    let v: Value = serde_json::from_str(&free.stdout).unwrap();
    let ted = &v["metrics"][0];
    assert_eq!(ted["metric"], "ted");
    assert_eq!(ted["score"], 1.0, "{ted}");
    assert_eq!(ted["distance"], 0);

    // The two named theorems are the same problem.
    let (reference, candidate) = bundled_pair();
    let unit = lean_assess(&["score", "--json", &reference, &candidate]);
    assert_eq!(unit.code, 0, "{}", unit.stderr);
    let v: Value = serde_json::from_str(&unit.stdout).unwrap();
    let d = v["metrics"][0]["distance"].as_u64().unwrap();
    assert!(d >= 4, "x→y three times, h₀→hy: {d}");
    assert!(v["metrics"][0]["score"].as_f64().unwrap() < 1.0);
}

#[test]
fn score_text_output_and_literal_inputs() {
    let run = lean_assess(&[
        "score",
        "--ref-text",
        "theorem r (n : ℕ) (h : 0 < n) : n ^ 2 = n * n := by sorry",
        "--cand-text",
        "theorem c (n : ℕ) : n + 2 = 2 * n := by sorry",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("reference: --ref-text"), "{}", run.stdout);
    let line = run.stdout.lines().find(|l| l.starts_with("ted")).unwrap();
    assert!(line.contains("TED"), "{line}");

    let mixed = lean_assess(&[
        "score",
        "--free-cost",
        "--ref-text",
        "theorem r (x : ℝ) (h₀ : 2 * x + 3 = 7) : x = 2 := by sorry",
        &fixture("cli/candidate.lean::my_favorite_theorem"),
    ]);
    assert_eq!(mixed.code, 0, "{}", mixed.stderr);
    assert!(mixed.stdout.contains("1.0000"), "{}", mixed.stdout);
}

#[test]
fn score_leads_each_metric_with_its_verdict() {
    let reference = fixture("cli/reference.lean::amc12_sum");
    let candidate = fixture("cli/candidate.lean::sum_odd");
    let run = lean_assess(&["score", "--metric", "ted,transted-lite", &reference, &candidate]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line = |m: &str| {
        run.stdout
            .lines()
            .find(|l| l.starts_with(&format!("{m} ")))
            .unwrap_or_else(|| panic!("no {m} line in {}", run.stdout))
            .to_string()
    };
    // `n > 0` against `0 < n` and `n * n` against `n ^ 2`: rewrites show it, plain TED does not.
    let lite = line("transted-lite");
    assert!(lite.split_whitespace().nth(1) == Some("equivalent"), "{lite}");
    assert!(run.stdout.contains("evidence: the rewrites listed"), "{}", run.stdout);
    let ted = line("ted");
    assert!(ted.starts_with("ted           not shown   similarity 0.6667"), "{ted}");
    assert!(ted.contains("TED 8, unit cost"), "{ted}");
    // Something showed equivalence: no "what still differs" list.
    assert!(!run.stdout.contains("still differs"), "{}", run.stdout);

    let json = lean_assess(&[
        "score",
        "--json",
        "--metric",
        "ted,transted-lite,beq",
        &reference,
        &candidate,
    ]);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["metrics"][0]["verdict"], "not shown");
    assert_eq!(v["metrics"][1]["verdict"], "equivalent");
    assert!(v["metrics"][1]["evidence"].is_string());
    // A failure is never a verdict.
    assert_eq!(v["metrics"][2]["verdict"], "error");
    assert!(v.get("differences").is_none(), "{v}");
}

/// GTED's free renaming prices each name alone, so it maps `t \ s` onto `s \ t` for nothing; the
/// explanation must still name what differs, not say that nothing does (`\` does not commute,
/// so no rewrite closes the pair).
#[test]
fn a_renaming_the_binders_do_not_allow_is_shown_as_a_difference() {
    let run = lean_assess(&[
        "score",
        "--metric",
        "ted,transted-lite",
        "--ref-text",
        "theorem a (s t : Set ℕ) : s \\ t = t \\ s := sorry",
        "--cand-text",
        "theorem a (s t : Set ℕ) : s \\ t = s \\ t := sorry",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let (_, differs) = run
        .stdout
        .split_once("What still differs (candidate against reference):\n")
        .unwrap_or_else(|| panic!("{}", run.stdout));
    assert!(differs.contains("conclusion: `s \\ t` where the reference has `t \\ s`"), "{differs}");
}

#[test]
fn score_not_shown_says_what_still_differs_in_lean_text() {
    let run = lean_assess(&[
        "score",
        "--metric",
        "ted,path,transted-lite",
        "--ref-text",
        "theorem a (x y : ℝ) (h₀ : ¬ x < 0) (h₁ : ∀ ε > 0, x < ε) : x < y",
        "--cand-text",
        "theorem a (x y : ℝ) (h₀ : 0 ≤ x) (h₁ : ∀ ε > 1, x < ε) : y > x ∧ (0 : ℝ) < 1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for m in ["ted ", "path ", "transted-lite "] {
        let l = run.stdout.lines().find(|l| l.starts_with(m)).unwrap();
        assert!(l.contains(" not shown "), "{l}");
    }
    let (_, differs) = run
        .stdout
        .split_once("What still differs (candidate against reference):\n")
        .unwrap_or_else(|| panic!("{}", run.stdout));
    assert!(differs.contains("(0 : ℝ) < 1`"), "{differs}");
    assert!(differs.contains("hypothesis `h₁`: `1` where the reference has `0`"), "{differs}");
    // The user's words, never the trees' labels or the path metric's internal paths.
    for internal in [" _ ", "_(", "((", "[not,", "_ < _"] {
        assert!(!run.stdout.contains(internal), "{internal:?} in {}", run.stdout);
    }
    let json = lean_assess(&[
        "score",
        "--json",
        "--ref-text",
        "theorem a (x : ℝ) : x < 1",
        "--cand-text",
        "theorem a (x : ℝ) : x ≤ 1",
    ]);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["metrics"][0]["verdict"], "not shown");
    assert_eq!(
        v["differences"],
        serde_json::json!(["conclusion: `≤` where the reference has `<`"])
    );
    // Text before the keyword (a header, a doc comment) does not shift the quoted text: spans
    // are offsets into the whole text, the statement starts later.
    let json = lean_assess(&[
        "score",
        "--json",
        "--ref-text",
        "import Mathlib\nopen Real\ntheorem a (x : ℝ) : x < 1",
        "--cand-text",
        "import Mathlib\n/-- A doc comment. -/\ntheorem a (x : ℝ) (h : 0 ≤ x) : x < 1",
    ]);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        v["differences"],
        serde_json::json!(["extra hypothesis `h : 0 ≤ x` (not in the reference)"])
    );
}

#[test]
fn score_with_a_lean_metric_says_it_needs_lean_and_gives_no_score() {
    let (reference, candidate) = bundled_pair();
    let run = lean_assess(&["score", "--metric", "ted,beq", "--json", &reference, &candidate]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(v["metrics"][0]["score"].is_number());
    let beq = &v["metrics"][1];
    assert_eq!(beq["metric"], "beq");
    assert!(beq.get("score").is_none() && beq.get("equivalent").is_none());
    assert!(beq["error"].as_str().unwrap().contains("needs a Lean server"));

    for metric in ["transted", "defeq"] {
        let run = lean_assess(&["score", "--metric", metric, &reference, &candidate]);
        assert_eq!(run.code, 1);
        assert!(run.stdout.contains("needs a Lean server"), "{}", run.stdout);
    }
}

// --------------------------------------------------------------------------------------- bench

#[test]
fn bench_reports_the_figures_and_writes_predictions() {
    let dir = tempfile::tempdir().unwrap();
    let dataset = fixture("bench/gted-minif2f.jsonl");
    let (run, out) = bench_json(&dataset, dir.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "dataset",
            "metric",
            "cost",
            "fields",
            "pairs",
            "labelled",
            "scored",
            "failed",
            "seconds",
            "shown_equivalent",
            "failures",
            "similarity",
            "problems",
            "best",
            "sweep",
            "verdict_view",
            "default_threshold",
            "best_cut",
            "score_range",
            "published_gted",
        ]
    );
    assert_eq!(v["metric"], "ted");
    assert_eq!(v["pairs"], 205);
    assert_eq!(v["failed"], 0);
    assert_eq!(v["sweep"].as_array().unwrap().len(), 10);
    for key in ["threshold", "precision", "recall", "accuracy", "kappa"] {
        assert!(v["best"][key].is_number(), "{key}");
    }
    let predictions = std::fs::read_to_string(&out).unwrap();
    assert_eq!(predictions.lines().count(), 205);
    let first: Value = serde_json::from_str(predictions.lines().next().unwrap()).unwrap();
    assert_eq!(first["id"], "gted-minif2f/mathd_algebra_478");
    assert!(first["score"].is_number());

    let text = lean_assess(&["bench", &dataset, "--jobs", "1"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("best threshold"), "{}", text.stdout);
    assert!(text.stdout.contains("t=0.95"), "{}", text.stdout);
}

#[test]
fn bench_prints_the_verdict_view_and_the_threshold_view_with_a_fixed_default() {
    let dir = tempfile::tempdir().unwrap();
    let pair = |id: &str, r: &str, c: &str, label: bool| {
        serde_json::json!({"id": id, "ref_header": "", "ref_statement": r,
                           "cand_header": "", "cand_statement": c, "label": label})
        .to_string()
    };
    let lines = [
        // Shown equivalent by a rewrite (`>` is `<` flipped), labelled so.
        pair("flip", "theorem a (n : ℕ) : n > 0", "theorem a (n : ℕ) : 0 < n", true),
        // Renamed bound names only.
        pair(
            "rename",
            "theorem a (x : ℝ) (h : 0 < x) : x ≠ 0",
            "theorem b (y : ℝ) (hy : 0 < y) : y ≠ 0",
            true,
        ),
        // Different statements, labelled so.
        pair("other", "theorem a (n : ℕ) : n > 0", "theorem a (n : ℕ) : n > 1", false),
        // Labelled equivalent, but nothing here shows it.
        pair("unshown", "theorem a (x : ℝ) : x ^ 2 ≥ 0", "theorem a (x : ℝ) : 0 ≤ x * x + 0", true),
    ];
    let dataset = write(dir.path(), "tiny.jsonl", (lines.join("\n") + "\n").as_bytes());
    let run = lean_assess(&["bench", &dataset, "--metric", "transted-lite", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let verdicts = &v["verdict_view"];
    assert_eq!(verdicts["true_positive"], 2, "{v}");
    assert_eq!(verdicts["false_positive"], 0, "{v}");
    assert_eq!(verdicts["true_negative"], 1, "{v}");
    assert_eq!(verdicts["false_negative"], 1, "{v}");
    assert_eq!(verdicts["precision"], 1.0);
    assert_eq!(v["default_threshold"]["threshold"], 0.807);
    assert!(v["default_threshold"]["accuracy"].is_number());
    // Not one of GTED's sets: no published figure to compare with.
    assert!(v["published_gted"].is_null(), "{v}");

    let text = lean_assess(&["bench", &dataset, "--metric", "transted-lite"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let t = &text.stdout;
    for want in [
        "Verdict view:",
        "shown equivalent: 2 of 4 pairs",
        "precision 100.00%",
        "Threshold view:",
        "A threshold t calls a pair equivalent when its similarity is at least t",
        "below 0 when the edits outnumber",
        "default threshold 0.807 (fixed in advance",
        "best cut over distinct scores (the same search, but trying each similarity",
        "t=0.95",
    ] {
        assert!(t.contains(want), "{want:?} not in\n{t}");
    }
    assert!(!t.contains("GTED's published"), "{t}");

    // One of GTED's sets, recognised by its file name: the published figure beside ours.
    let gted = lean_assess(&["bench", &fixture("bench/gted-proofnet.jsonl"), "--metric", "ted"]);
    assert_eq!(gted.code, 0, "{}", gted.stderr);
    assert!(
        gted.stdout.contains("GTED's published figure on ProofNet")
            && gted.stdout.contains("accuracy 69.89%, kappa 0.402"),
        "{}",
        gted.stdout
    );
}

#[test]
fn bench_one_bad_pair_warns_with_its_line_and_the_run_continues() {
    let dir = tempfile::tempdir().unwrap();
    let dataset = fixture("cli/small.jsonl");
    let (run, out) = bench_json(&dataset, dir.path());
    assert_eq!(run.code, 1, "{}", run.stderr);
    let warning = format!(
        "lean-assess: warning: {dataset}:4: pair 'small/broken': cand_statement: line 1, column "
    );
    assert!(run.stderr.starts_with(&warning), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        (v["pairs"].as_u64(), v["scored"].as_u64(), v["failed"].as_u64()),
        (Some(5), Some(4), Some(1))
    );
    let predictions: Vec<Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(predictions.len(), 5);
    assert_eq!(predictions[3]["id"], "small/broken");
    assert!(predictions[3]["error"].is_string());
    assert!(predictions[3].get("score").is_none());
    assert!(predictions.iter().filter(|p| p["score"].is_number()).count() == 4);
}

/// A statement field holding a helper lemma before the statement is a failed pair that names
/// both, not a verdict on the helper: both sides' first statements agree here, the second ones
/// do not.
#[test]
fn bench_a_field_of_two_statements_is_a_failed_pair() {
    let dir = tempfile::tempdir().unwrap();
    let row = serde_json::json!({
        "id": "two",
        "ref_statement": "theorem helper : True := trivial\ntheorem t (x : ℕ) (h : x = 1) : x = 1",
        "cand_statement": "theorem helper : True := trivial\ntheorem t (x : ℕ) (h : x = 2) : x = 1",
        "label": false
    });
    let dataset = write(dir.path(), "two.jsonl", format!("{row}\n").as_bytes());
    let (run, out) = bench_json(&dataset, dir.path());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("ref_statement: holds 2 statements (helper, t)"), "{}", run.stderr);
    let prediction: Value =
        serde_json::from_str(std::fs::read_to_string(&out).unwrap().trim()).unwrap();
    assert!(prediction["error"].is_string() && prediction.get("score").is_none(), "{prediction}");
}

#[test]
fn bench_lean_metrics_need_lean() {
    let dataset = fixture("cli/small.jsonl");
    assert_fails(&["bench", &dataset, "--metric", "beq"], "metric 'beq' needs a Lean server");
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().display().to_string();
    assert_fails(
        &[
            "bench",
            &dataset,
            "--metric",
            "defeq",
            "--lean-project",
            &project,
            "--server-command",
            "/nonexistent/lake serve --",
        ],
        "cannot start the Lean server `/nonexistent/lake serve -- -Dserver.reportDelayMs=0`",
    );
    assert_fails(
        &["bench", &dataset, "--lean-project", "/nonexistent/project"],
        "--lean-project /nonexistent/project: not a directory",
    );
}

// -------------------------------------------------------------------------------- bad input

#[test]
fn missing_files_are_named() {
    assert_fails(&["tree", "nope.lean"], "cannot read nope.lean: ");
    assert_fails(&["bench", "nope.jsonl"], "nope.jsonl: ");
    assert_fails(&["ted", "--pairs", "nope.jsonl"], "nope.jsonl: ");
    assert_fails(&["score", "nope.lean", &fixture("cli/candidate.lean")], "cannot read nope.lean");
    assert_fails(&["bench", "fixtures"], "fixtures: is a directory");
}

#[test]
fn invalid_utf8_is_named_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let lean = write(dir.path(), "bad.lean", b"import Mathlib\ntheorem t : \xff = 1 := rfl\n");
    assert_fails(&["tree", &lean], &format!("{lean}:2: not valid UTF-8"));
    let jsonl = write(dir.path(), "bad.jsonl", b"\n\n{\"id\": \"\xfe\"}\n");
    assert_fails(&["bench", &jsonl], &format!("{jsonl}:3: not valid UTF-8"));
}

#[test]
fn malformed_jsonl_lines_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read_to_string(fixture("cli/small.jsonl")).unwrap();
    let first = good.lines().next().unwrap();
    let bad = write(dir.path(), "bad.jsonl", format!("{first}\n{{\"id\": 1,\n").as_bytes());
    assert_fails(&["bench", &bad], &format!("{bad}:2: malformed JSON"));
    let missing =
        write(dir.path(), "missing.jsonl", br#"{"id": "x", "ref_statement": "theorem a : 1 = 1"}"#);
    assert_fails(
        &["bench", &missing],
        &format!(
            "{missing}:1: missing field: the candidate statement (looked for 'cand_statement'"
        ),
    );
    // Every missing part is named at once, with the flag that names it.
    let none = write(dir.path(), "none.jsonl", br#"{"statement": "theorem a : 1 = 1"}"#);
    assert_fails(
        &["bench", &none],
        &format!(
            "{none}:1: missing fields: the id (looked for 'id', 'name', 'problem_id'; name it with \
             --id-field); the reference statement (looked for 'ref_statement', 'formal_statement', \
             'lean4_formalization', 'reference'; name it with --ref-field); the candidate statement"
        ),
    );
    let trees = write(dir.path(), "trees.jsonl", b"{\"id\": \"x\", \"ref_tree\": []}\n");
    assert_fails(
        &["ted", "--pairs", &trees],
        &format!("{trees}:1: field 'ref_tree' is not a tree"),
    );
}

#[test]
fn empty_datasets_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write(dir.path(), "empty.jsonl", b"\n\n");
    assert_fails(&["bench", &empty], &format!("{empty}: no records"));
    assert_fails(&["ted", "--pairs", &empty], &format!("{empty}: no records"));
}

#[test]
fn unknown_theorem_names_list_the_known_ones() {
    assert_fails(
        &["tree", &fixture("cli/reference.lean::nope")],
        "no theorem named 'nope' (theorems here: mathd_algebra_10, amc12_sum, sq_nonneg')",
    );
    let dir = tempfile::tempdir().unwrap();
    let none = write(dir.path(), "none.lean", b"import Mathlib\n\ndef f := 1\n");
    assert_fails(&["tree", &none], "no theorem, lemma or example found");
}

#[test]
fn unparsable_statements_give_file_line_and_column() {
    let file = fixture("cli/broken.lean");
    assert_fails(&["tree", &file], &format!("{file}: line 3, column "));
    assert_fails(
        &["score", &file, &fixture("cli/candidate.lean")],
        &format!("{file}: line 3, column "),
    );
}

#[test]
fn usage_errors_exit_2_with_clap_message() {
    for args in [
        vec!["bogus"],
        vec!["tree"],
        vec!["tree", "--format", "svg", "x.lean"],
        vec!["bench"],
        vec!["bench", "x.jsonl", "--jobs", "0"],
    ] {
        let run = lean_assess(&args);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.starts_with("error: "), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty());
    }
    assert_fails(
        &["score", "--metric", "tedd", "a.lean", "b.lean"],
        "--metric: unknown metric 'tedd'",
    );
    assert_fails(&["score", &fixture("cli/reference.lean::amc12_sum")], "missing the candidate");
    let help = lean_assess(&["--help"]);
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("Exit status"));
    // The usage lines name the Lean flags of score and bench.
    let usage: Vec<&str> = help.stdout.lines().collect();
    for command in ["score", "bench"] {
        let at = usage
            .iter()
            .position(|l| l.trim_start().starts_with(&format!("lean-assess {command}")))
            .unwrap_or_else(|| panic!("no usage line for {command}: {}", help.stdout));
        assert!(
            usage[at + 1].contains("[--lean-project DIR [--server-command CMD] [--config FILE]]"),
            "{}",
            help.stdout
        );
    }
    for command in ["score", "bench"] {
        let help = lean_assess(&[command, "--help"]);
        assert_eq!(help.code, 0);
        for flag in ["--lean-project <DIR>", "--server-command <COMMAND>", "--config <FILE>"] {
            assert!(help.stdout.contains(flag), "{command} --help: {}", help.stdout);
        }
    }
}

/// `score` options that only make sense with a Lean server: a missing project directory and a
/// malformed `--config` are one-line usage errors (status 2); `--config` without a Lean metric
/// is still checked.
#[test]
fn score_lean_options_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let (reference, candidate) = bundled_pair();
    let missing = dir.path().join("no-such-project");
    let run = lean_assess(&[
        "score",
        "--metric",
        "transted",
        "--lean-project",
        missing.to_str().unwrap(),
        &reference,
        &candidate,
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("no-such-project: not a directory"), "{}", run.stderr);
    let bad = write(dir.path(), "bad.toml", b"[metrics]\nlens = [\"teed\"]\n");
    let run = lean_assess(&["score", "--config", &bad, &reference, &candidate]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("bad.toml:2: [metrics] lens: unknown metric \"teed\""),
        "{}",
        run.stderr
    );
}

#[test]
fn a_closed_stdout_pipe_ends_quietly_with_status_0() {
    // Enough output (well over a pipe buffer) that the writer is still busy when we hang up.
    let dir = tempfile::tempdir().unwrap();
    let pairs = std::fs::read_to_string(fixture("bench/gted-proofnet.trees.jsonl")).unwrap();
    let mut big = String::new();
    for round in 0..40 {
        for line in pairs.lines() {
            let mut v: Value = serde_json::from_str(line).unwrap();
            v["id"] = Value::from(format!("{round}/{}", v["id"].as_str().unwrap()));
            big.push_str(&v.to_string());
            big.push('\n');
        }
    }
    let file = write(dir.path(), "big.jsonl", big.as_bytes());
    let mut child = Command::new(env!("CARGO_BIN_EXE_lean-assess"))
        .args(["ted", "--pairs", &file, "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.starts_with("{\"id\""));
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    let _ = std::io::stderr().flush();
}

#[test]
fn bench_predictions_do_not_depend_on_the_number_of_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let dataset = fixture("bench/gted-proofnet.jsonl");
    let mut outputs = Vec::new();
    for jobs in ["1", "3"] {
        let out = dir.path().join(format!("pred{jobs}.jsonl"));
        let out = out.display().to_string();
        let run = lean_assess(&["bench", &dataset, "--jobs", jobs, "--out", &out]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        outputs.push(std::fs::read_to_string(&out).unwrap());
    }
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn bench_without_labels_writes_predictions_and_evaluates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let line = r#"{"id":"u","ref_header":"","ref_statement":"theorem a (x : ℕ) : x + 0 = x := by sorry","cand_header":"","cand_statement":"theorem b (y : ℕ) : y = y + 0 := by sorry"}"#;
    let dataset = write(dir.path(), "unlabelled.jsonl", format!("{line}\n").as_bytes());
    let (run, out) = bench_json(&dataset, dir.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["scored"], 1);
    assert!(v["best"].is_null());
    assert_eq!(v["sweep"], Value::Array(Vec::new()));
    let prediction: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(prediction["score"].is_number());
    let text = lean_assess(&["bench", &dataset]);
    // A summary without labels: the verdicts and the distribution, and why no threshold view.
    for want in [
        "fields: id 'id', reference 'ref_statement' (header 'ref_header'), candidate \
         'cand_statement' (header 'cand_header'), label none",
        "shown equivalent: 0 of 1 pairs (0.00%)",
        "not shown: 1",
        "median",
        "No labels (no 'label' or 'correct' field; --label-field names another)",
    ] {
        assert!(text.stdout.contains(want), "{want:?} not in\n{}", text.stdout);
    }
}

/// A statement file that is a FIFO is refused at once (before: the read waited for a writer).
#[cfg(unix)]
#[test]
fn a_fifo_statement_file_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.lean");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let fifo = fifo.display().to_string();
    assert_fails(&["tree", &fifo], "not a regular file");
}
