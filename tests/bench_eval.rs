//! Evaluating a model's own outputs with `bench`, `merge` and `compare`, as a new user would:
//! files without labels, k candidates per problem, the field's dataset shapes and field names,
//! two models side by side, and the summary's and merge's messages, read word for word. The inputs are
//! built from the bundled GTED sets (labels dropped, candidates grouped), not written for the
//! code under test.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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

/// A fatal error: status 2, nothing on stdout, one line on stderr containing `want`.
fn assert_fails(args: &[&str], want: &str) {
    let run = lean_assess(args);
    assert_eq!(run.code, 2, "{args:?}: stderr {}", run.stderr);
    assert_eq!(run.stdout, "", "{args:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    assert!(run.stderr.contains(want), "{args:?}: want {want:?} in {}", run.stderr);
}

fn contains_all(text: &str, wants: &[&str]) {
    for want in wants {
        assert!(text.contains(want), "{want:?} not in\n{text}");
    }
}

fn gted(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(root().join("fixtures/bench").join(name)).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn write_lines(dir: &Path, name: &str, rows: &[Value]) -> String {
    let path = dir.join(name);
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// 200 pairs without labels: the first 107 of miniF2F and all 93 of ProofNet.
fn unlabelled_200(dir: &Path) -> String {
    let mut rows: Vec<Value> = gted("gted-minif2f.jsonl").into_iter().take(107).collect();
    rows.extend(gted("gted-proofnet.jsonl"));
    for r in &mut rows {
        r.as_object_mut().unwrap().remove("label");
    }
    assert_eq!(rows.len(), 200);
    write_lines(dir, "unlabelled.jsonl", &rows)
}

/// 50 problems in the miniF2F release shape (`name`, `header`, `formal_statement`) with 4
/// candidates each: the pair's own candidate and three other pairs' candidates.
fn four_candidates(dir: &Path) -> String {
    let all = gted("gted-minif2f.jsonl");
    let rows: Vec<Value> = (0..50)
        .map(|i| {
            let r = &all[i];
            let others = [60, 61, 62].map(|j| all[(i + j) % all.len()]["cand_statement"].clone());
            json!({"name": r["id"], "header": r["ref_header"], "formal_statement": r["ref_statement"],
                   "candidates": [r["cand_statement"], others[0], others[1], others[2]]})
        })
        .collect();
    write_lines(dir, "k4.jsonl", &rows)
}

fn predictions(path: &str) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn two_hundred_unlabelled_pairs_get_a_summary_in_text_json_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let data = unlabelled_200(dir.path());
    let html = dir.path().join("u.html").display().to_string();
    let text = lean_assess(&["bench", &data, "--metric", "ted", "--html", &html]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    contains_all(
        &text.stdout,
        &[
            "fields: id 'id', reference 'ref_statement' (header 'ref_header'), candidate \
             'cand_statement' (header 'cand_header'), label none",
            "pairs: 200 (0 labelled, 0 labelled equivalent); scored 200, failed 0",
            "Verdict: a pair counts as \"equivalent\" only when the metric shows it",
            "of them: the same up to renaming of bound names (renaming)",
            "Similarity (1 - distance / size of the larger tree; 1 = identical) of the 200 judged pairs:",
            "median",
            "[0.9, 1.0]",
            "No labels (no 'label' or 'correct' field; --label-field names another)",
        ],
    );
    assert!(!text.stdout.contains("nothing to evaluate"), "{}", text.stdout);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("gted-minif2f/mathd_algebra_478"), "the report lists the pairs");

    let run = lean_assess(&["bench", &data, "--metric", "ted", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["labelled"], 0);
    assert_eq!(v["fields"]["label"], Value::Null);
    let shown = v["shown_equivalent"]["count"].as_u64().unwrap();
    assert!(shown > 0, "{v}");
    assert_eq!(v["shown_equivalent"]["by_evidence"]["renaming"], shown);
    // The text says the same numbers as the JSON.
    assert!(text.stdout.contains(&format!("shown equivalent: {shown} of 200 pairs")));
    let sim = &v["similarity"];
    assert_eq!(sim["count"], 200);
    let histogram: u64 =
        sim["histogram"].as_array().unwrap().iter().map(|b| b["count"].as_u64().unwrap()).sum();
    assert_eq!(histogram, 200);
    let q = |k: &str| sim[k].as_f64().unwrap();
    assert!(
        q("min") <= q("p25")
            && q("p25") <= q("median")
            && q("median") <= q("p75")
            && q("p75") <= q("max")
    );
    assert!(v["best"].is_null() && v["verdict_view"].is_null());
}

#[test]
fn a_parse_failure_is_named_in_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let row = |id: &str, cand: &str| json!({"id": id, "ref_statement": "theorem a (n : ℕ) : n > 0", "cand_statement": cand});
    let data = write_lines(
        dir.path(),
        "broken.jsonl",
        &[row("good", "theorem b (m : ℕ) : 0 < m"), row("bad", "theorem b (m : ℕ) : (0 <")],
    );
    let run = lean_assess(&["bench", &data, "--metric", "transted-lite"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    contains_all(
        &run.stdout,
        &[
            "shown equivalent: 1 of 2 pairs (50.00%)",
            "1 of them: sound rewrites make them the same up to renaming (rewrites)",
            "failed: 1 (not judged; each also warned about on stderr)",
            "    bad (line 2): cand_statement: ",
        ],
    );
    let v: Value = serde_json::from_str(
        &lean_assess(&["bench", &data, "--metric", "transted-lite", "--json"]).stdout,
    )
    .unwrap();
    assert_eq!(v["failures"][0]["id"], "bad");
    assert_eq!(v["failures"][0]["line"], 2);
    assert_eq!(v["shown_equivalent"]["by_evidence"], json!({"rewrites": 1}));
}

#[test]
fn four_candidates_per_problem_give_any_of_k_and_the_best_candidate() {
    let dir = tempfile::tempdir().unwrap();
    let data = four_candidates(dir.path());
    let out = dir.path().join("pred.jsonl").display().to_string();
    let html = dir.path().join("k4.html").display().to_string();
    let run = lean_assess(&["bench", &data, "--metric", "ted", "--out", &out, "--html", &html]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let p = predictions(&out);
    assert_eq!(p.len(), 200);
    assert_eq!(p[0]["id"], format!("{}#1", p[0]["problem"].as_str().unwrap()));
    // One best candidate per problem; a problem with a candidate shown equivalent has its best
    // among those.
    let mut problems: std::collections::BTreeMap<String, Vec<&Value>> = Default::default();
    for line in &p {
        problems.entry(line["problem"].as_str().unwrap().to_string()).or_default().push(line);
    }
    assert_eq!(problems.len(), 50);
    let mut any = 0;
    for (problem, lines) in &problems {
        assert_eq!(lines.len(), 4, "{problem}");
        let best: Vec<&&Value> = lines.iter().filter(|l| l["best"] == true).collect();
        assert_eq!(best.len(), 1, "{problem}");
        let top = lines.iter().map(|l| l["score"].as_f64().unwrap()).fold(f64::MIN, f64::max);
        if lines.iter().any(|l| l["verdict"] == "equivalent") {
            any += 1;
            assert_eq!(best[0]["verdict"], "equivalent", "{problem}");
        } else {
            assert_eq!(best[0]["score"].as_f64().unwrap(), top, "{problem}");
        }
    }
    let shown = p.iter().filter(|l| l["verdict"] == "equivalent").count();
    contains_all(
        &run.stdout,
        &[
            "fields: id 'name', reference 'formal_statement' (header 'header'), candidate \
             'candidates' (header the reference's), label none",
            "Problems: 50 with 4 candidates each (200 candidates).",
            &format!("any of the k shown equivalent (@4): {any} of 50 problems"),
            &format!("per candidate: {shown} of 200 shown equivalent"),
        ],
    );
    assert!(std::fs::metadata(&html).unwrap().len() > 0);
    let v: Value =
        serde_json::from_str(&lean_assess(&["bench", &data, "--metric", "ted", "--json"]).stdout)
            .unwrap();
    assert_eq!(
        v["problems"],
        json!({"count": 50, "candidates_min": 4, "candidates_max": 4, "any_shown_equivalent": any})
    );

    // The same candidates as four lines per problem sharing an id: the same figures.
    let all = gted("gted-minif2f.jsonl");
    let mut lines = Vec::new();
    for i in 0..50 {
        for j in [0, 60, 61, 62] {
            let c = &all[(i + j) % all.len()];
            lines.push(json!({"id": all[i]["id"], "ref_header": all[i]["ref_header"],
                              "ref_statement": all[i]["ref_statement"],
                              "cand_header": all[i]["ref_header"], "cand_statement": c["cand_statement"]}));
        }
    }
    let shared = write_lines(dir.path(), "shared.jsonl", &lines);
    let w: Value =
        serde_json::from_str(&lean_assess(&["bench", &shared, "--metric", "ted", "--json"]).stdout)
            .unwrap();
    assert_eq!(w["problems"], v["problems"]);
    assert_eq!(w["shown_equivalent"]["count"], v["shown_equivalent"]["count"]);
}

#[test]
fn compare_lists_the_problems_two_models_disagree_on() {
    // Model A: four candidates per problem, the pair's own among them; model B: the same
    // problems with the three others only. `ted` (deterministic, no time budget) judges both.
    let dir = tempfile::tempdir().unwrap();
    let data_a = four_candidates(dir.path());
    let rows_b: Vec<Value> = std::fs::read_to_string(&data_a)
        .unwrap()
        .lines()
        .map(|l| {
            let mut r: Value = serde_json::from_str(l).unwrap();
            r["candidates"].as_array_mut().unwrap().remove(0);
            r
        })
        .collect();
    let data_b = write_lines(dir.path(), "k3.jsonl", &rows_b);
    let a = dir.path().join("a.jsonl").display().to_string();
    let b = dir.path().join("b.jsonl").display().to_string();
    assert_eq!(lean_assess(&["bench", &data_a, "--metric", "ted", "--out", &a]).code, 0);
    assert_eq!(lean_assess(&["bench", &data_b, "--metric", "ted", "--out", &b]).code, 0);
    let html = dir.path().join("cmp.html").display().to_string();
    let run = lean_assess(&["compare", &a, &b, "--html", &html]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json_run = lean_assess(&["compare", &a, &b, "--json"]);
    let v: Value = serde_json::from_str(&json_run.stdout).unwrap();
    let count = |k: &str| v[k].as_u64().unwrap();
    assert_eq!(count("problems"), 50);
    assert_eq!(
        count("both") + count("neither") + count("a_only_count") + count("b_only_count"),
        50
    );
    // A's candidates include B's: B never shows what A does not, and A shows more.
    assert!(count("a_only_count") > 0, "{v}");
    assert_eq!(count("b_only_count"), 0, "{v}");
    assert_eq!(
        (v["a"]["candidates_max"].as_u64(), v["b"]["candidates_max"].as_u64()),
        (Some(4), Some(3))
    );
    let first = v["a_only"][0]["problem"].as_str().unwrap();
    contains_all(
        &run.stdout,
        &[
            &format!(
                "both {}, A only {}, B only 0, neither {} (of 50 problems)",
                count("both"),
                count("a_only_count"),
                count("neither")
            ),
            &format!("Shown equivalent by A, not by B ({}):", count("a_only_count")),
            &format!("  {first}\n    A: equivalent (renaming), similarity "),
            "[best of 4]\n    B: not shown, similarity ",
            "Shown equivalent by B, not by A (0):\n  none",
        ],
    );
    assert!(!run.stdout.contains("different metrics"), "{}", run.stdout);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains(&format!("<code>{first}</code>")), "the page lists the disagreement");

    // Two metrics on the same problems: compared, with a note that says so.
    let x = write_lines(
        dir.path(),
        "x.jsonl",
        &[
            json!({"id": "p", "score": 1.0, "verdict": "equivalent", "metric": "transted-lite", "evidence": "rewrites"}),
        ],
    );
    let y = write_lines(
        dir.path(),
        "y.jsonl",
        &[
            json!({"id": "p", "score": 0.8, "verdict": "not shown", "metric": "ted", "cost": "unit"}),
        ],
    );
    let run = lean_assess(&["compare", &x, &y]);
    contains_all(
        &run.stdout,
        &[
            "  p\n    A: equivalent (rewrites), similarity 1.0000\n    B: not shown, similarity 0.8000",
            "note: the two files come from different metrics (transted-lite and ted)",
        ],
    );

    // Not the same problems: named, not compared.
    let other = dir.path().join("other.jsonl").display().to_string();
    std::fs::write(&other, "{\"id\":\"x\",\"score\":0.5}\n").unwrap();
    assert_fails(
        &["compare", &a, &other],
        "the two files are not predictions for the same problems: 50 problem(s) only in",
    );
}

#[test]
fn the_fields_shapes_and_a_statement_with_its_own_imports() {
    let dir = tempfile::tempdir().unwrap();
    // BEq's ProofNetVerif names, labelled (`correct`).
    let beq = write_lines(
        dir.path(),
        "beq.jsonl",
        &[json!({"id": "e1", "lean4_src_header": "import Mathlib\n",
                 "lean4_formalization": "theorem t (n : ℕ) : n > 0",
                 "lean4_prediction": "theorem u (m : ℕ) : 0 < m", "correct": true})],
    );
    let run = lean_assess(&["bench", &beq, "--metric", "transted-lite"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    contains_all(
        &run.stdout,
        &[
            "fields: id 'id', reference 'lean4_formalization' (header 'lean4_src_header'), \
             candidate 'lean4_prediction' (header the reference's), label 'correct'",
            "shown equivalent: 1 of 1 pairs",
        ],
    );
    // Any names, given with the flags.
    let own = write_lines(
        dir.path(),
        "own.jsonl",
        &[
            json!({"key": "k", "gold": "theorem t (n : ℕ) : n > 0", "model": "theorem u (m : ℕ) : 0 < m",
                 "ok": true, "imports": "import Mathlib\n"}),
        ],
    );
    let run = lean_assess(&[
        "bench",
        &own,
        "--id-field",
        "key",
        "--ref-field",
        "gold",
        "--cand-field",
        "model",
        "--label-field",
        "ok",
        "--header-field",
        "imports",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["fields"]["candidate"], "model");
    assert_eq!(v["labelled"], 1);
    assert_fails(
        &["bench", &own, "--cand-field", "output", "--label-field", "verdict"],
        "missing fields: the id (looked for 'id', 'name', 'problem_id'; name it with --id-field); \
         the reference statement (looked for",
    );

    // A statement that brings its own imports: bench reads it as `score --ref-text` does.
    let reference = "import Mathlib\nopen Real\n\ntheorem t (x : ℝ) (h : 0 < x) : log x ≤ x - 1";
    let candidate = "theorem u (y : ℝ) (hy : y > 0) : Real.log y ≤ y - 1";
    let data = write_lines(
        dir.path(),
        "imports.jsonl",
        &[json!({"id": "i", "ref_statement": reference, "cand_statement": candidate})],
    );
    let run = lean_assess(&["bench", &data, "--metric", "transted-lite", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let score = lean_assess(&[
        "score",
        "--metric",
        "transted-lite",
        "--json",
        "--ref-text",
        reference,
        "--cand-text",
        candidate,
    ]);
    assert_eq!(score.code, 0, "{}", score.stderr);
    let s: Value = serde_json::from_str(&score.stdout).unwrap();
    let verdict = s.to_string().contains("\"verdict\":\"equivalent\"");
    assert!(verdict, "score shows it: {s}");
    assert_eq!(v["shown_equivalent"]["count"], 1, "bench shows it too: {v}");
    let text = lean_assess(&["bench", &data, "--metric", "transted-lite"]);
    contains_all(
        &text.stdout,
        &[
            "note: 1 statement(s) start with their own header (imports, `open`, ...): read as part \
             of the header, as `score --ref-text` reads it",
            "(header none (no header field: read as empty unless a statement starts with its own imports)",
        ],
    );
}

#[test]
fn merge_takes_the_metric_and_cost_from_the_predictions() {
    let dir = tempfile::tempdir().unwrap();
    let data = root().join("fixtures/bench/gted-proofnet.jsonl").display().to_string();
    let shard = |k: u32, metric: &str, extra: &[&str]| {
        let out = dir.path().join(format!("{metric}{k}.jsonl")).display().to_string();
        let mut args = vec!["bench", &data, "--metric", metric, "--shard"];
        let part = format!("{k}/2");
        args.push(&part);
        args.extend_from_slice(&["--out", &out]);
        args.extend_from_slice(extra);
        let run = lean_assess(&args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        out
    };
    let (p1, p2) = (shard(1, "path", &[]), shard(2, "path", &[]));
    assert!(predictions(&p1).iter().all(|l| l["metric"] == "path"));
    let run = lean_assess(&["merge", "--dataset", &data, &p1, &p2]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("metric: path"), "{}", run.stdout);
    assert!(run.stdout.contains("default threshold 0.737"), "path's, not ted's: {}", run.stdout);
    // The cost model too: ted's free-renaming threshold, not its unit one.
    let (f1, f2) = (shard(1, "ted", &["--free-cost"]), shard(2, "ted", &["--free-cost"]));
    let run = lean_assess(&["merge", "--dataset", &data, &f1, &f2]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    contains_all(&run.stdout, &["metric: ted (free-renaming cost)", "default threshold 0.501"]);
    // A conflict between files is an error, and so is a --metric the files contradict.
    let t2 = shard(2, "ted", &[]);
    assert_fails(
        &["merge", "--dataset", &data, &p1, &t2],
        "the predictions disagree on the metric: ",
    );
    assert_fails(
        &["merge", "--dataset", &data, &f1, &t2],
        "the predictions disagree on the cost model: ",
    );
    assert_fails(
        &["merge", "--dataset", &data, "--metric", "ted", &p1, &p2],
        "--metric ted, but the predictions say they came from 'path'",
    );
    // The same file twice is said to be given twice, not "a duplicate of itself".
    assert_fails(
        &["merge", "--dataset", &data, &p1, &p2, &p1],
        &format!("{p1} was given twice (prediction files 1 and 3): name each shard's file once"),
    );
}

#[test]
fn a_lean_decision_with_nothing_shown_says_n_a_once() {
    // Predictions of a Lean decision metric (as `bench --metric beq` writes them) that decided
    // nothing equivalent, merged offline.
    let dir = tempfile::tempdir().unwrap();
    let data = root().join("fixtures/cli/small.jsonl").display().to_string();
    let ids: Vec<String> = std::fs::read_to_string(&data)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].as_str().unwrap().to_string())
        .collect();
    let rows: Vec<Value> = ids
        .iter()
        .map(|id| json!({"id": id, "equivalent": false, "verdict": "not shown", "metric": "beq"}))
        .collect();
    let pred = write_lines(dir.path(), "beq.jsonl", &rows);
    let run = lean_assess(&["merge", "--dataset", &data, &pred]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("precision n/a (nothing shown)"), "{}", run.stdout);
    assert!(!run.stdout.contains("precision 0.00%"), "{}", run.stdout);
    assert!(
        !run.stdout.contains("decisions:"),
        "printed once, as the verdict view: {}",
        run.stdout
    );
}

#[test]
fn free_cost_is_refused_where_no_metric_takes_it() {
    let data = root().join("fixtures/cli/small.jsonl").display().to_string();
    for metric in ["path", "transted-lite"] {
        assert_fails(
            &["bench", &data, "--metric", metric, "--free-cost"],
            &format!("--free-cost changes `ted` only, not `{metric}`"),
        );
        assert_fails(
            &[
                "score",
                "--metric",
                metric,
                "--free-cost",
                "--ref-text",
                "theorem a : 1 = 1",
                "--cand-text",
                "theorem b : 1 = 1",
            ],
            &format!("--free-cost changes `ted` only, not `{metric}`"),
        );
    }
    // With `ted` among them it applies to `ted`, and the others are named.
    let run = lean_assess(&[
        "score",
        "--metric",
        "ted,path",
        "--free-cost",
        "--ref-text",
        "theorem a : 1 = 1",
        "--cand-text",
        "theorem b : 1 = 1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("note: --free-cost applies to `ted` only; `path` keep their own cost model"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_ted_bench_that_shows_nothing_says_why() {
    let data = root().join("fixtures/bench/gted-proofnet.jsonl").display().to_string();
    let run = lean_assess(&["bench", &data, "--metric", "ted"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    contains_all(
        &run.stdout,
        &[
            "shown equivalent: 0 of 93 pairs",
            "why none: `ted` shows a pair equivalent only when its two statements are already the \
             same up to renaming of bound names, and no pair here is; it applies no rewrites \
             (`--metric transted-lite` does)",
        ],
    );
    let v: Value =
        serde_json::from_str(&lean_assess(&["bench", &data, "--metric", "ted", "--json"]).stdout)
            .unwrap();
    assert!(v["shown_equivalent"]["why_none"].as_str().unwrap().starts_with("`ted` shows"));
}

/// The README's example: `fixtures/cli/samples.jsonl` (a release shape with candidates lists,
/// a null header, statements with their own imports) gives the lines the README shows.
#[test]
fn the_readme_samples_example_prints_what_the_readme_says() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let run = lean_assess(&["bench", "fixtures/cli/samples.jsonl", "--metric", "transted-lite"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for line in [
        "fields: id 'name', reference 'formal_statement' (header 'header'), candidate 'candidates' (header the reference's), label none",
        "Problems: 3 with 2 to 3 candidates each (7 candidates).",
        "  any of the k shown equivalent (@3): 3 of 3 problems (100.00%)",
        "  per candidate: 4 of 7 shown equivalent (57.14%)",
    ] {
        assert!(readme.contains(line), "README lacks {line:?}");
        assert!(run.stdout.contains(line), "{line:?} not in\n{}", run.stdout);
    }
    contains_all(
        &run.stdout,
        &[
            "note: 1 line(s) have no value in the header field: read without a header",
            "note: 2 statement(s) start with their own header",
        ],
    );
}

/// `bench --json` and the library's `bench_json` (what the Python binding calls) give the same
/// document: the CLI prints what the one function builds.
#[test]
fn the_library_builds_the_same_json_as_the_cli() {
    let data = root().join("fixtures/cli/samples.jsonl");
    let data = data.to_str().unwrap();
    let args = lean_assess::cli::bench::Args::parse_from([
        data,
        "--metric",
        "transted-lite",
        "--jobs",
        "1",
    ])
    .unwrap();
    let mut err = Vec::new();
    let mut library = lean_assess::cli::bench::bench_json(&args, &mut err).unwrap();
    let run = lean_assess(&["bench", data, "--metric", "transted-lite", "--jobs", "1", "--json"]);
    let mut cli: Value = serde_json::from_str(&run.stdout).unwrap();
    for v in [&mut library, &mut cli] {
        v.as_object_mut().unwrap().remove("seconds");
    }
    assert_eq!(library, cli);
    // A bad argument is clap's message, as on the command line.
    let e = lean_assess::cli::bench::Args::parse_from([data, "--jobs", "0"]).unwrap_err();
    assert!(e.to_string().contains("--jobs"), "{e}");
}
