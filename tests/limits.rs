//! Bounded on any input: the real binary on inputs that drive recursion, time or memory without
//! bound when unchecked, and the engine's limits through the library.
//!
//! The CLI runs under a 2 MiB stack (`ulimit -s 2048`), the size of the proxy's worker threads,
//! where the same parser, tree code and metrics run: recursion once per tree level overflows it
//! on the inputs below unless it is bounded. Inputs are generated here, sized to keep
//! each test to a few seconds in a debug build; `benches/limits.rs` runs the large sizes.

mod common;

use lean_assess::distance::{
    self, Algorithm, CostModel, DistanceError, FlatTree, LabelInterner, Workspace, MAX_TABLE_CELLS,
};
use lean_assess::metrics::transted_lite::{Config, TransTedLite};
use lean_assess::metrics::{Metric, Pair};
use lean_assess::trees::parse::{parse_statement, Header};
use lean_assess::trees::{json, Tree};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_lean-assess");

/// Run the binary with `args` under a 2 MiB stack, in `dir`.
fn run(dir: &Path, args: &[&str]) -> Output {
    let mut script = String::from("ulimit -s 2048 && exec \"$0\"");
    for i in 1..=args.len() {
        script.push_str(&format!(" \"${i}\""));
    }
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run lean-assess")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `theorem t (x : ℕ) : x OP x OP … OP x = 0` with `n` terms.
fn chain_statement(op: &str, n: usize) -> String {
    let terms = vec!["x"; n].join(&format!(" {op} "));
    format!("theorem t (x : ℕ) : {terms} = 0 := sorry\n")
}

/// Ended normally (not by a signal such as SIGABRT from a stack overflow).
fn assert_no_crash(out: &Output, what: &str) {
    assert!(
        out.status.code().is_some(),
        "{what}: killed by a signal ({:?}); stderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked") && !stderr.contains("overflow"), "{what}: {stderr}");
}

/// Long chains: 20,000-term sums, 20,000-factor products, `x⁻¹⁻¹…` 10,000 deep.
fn long_chains() -> Vec<(&'static str, String)> {
    vec![
        ("sum.lean", chain_statement("+", 20_000)),
        ("product.lean", chain_statement("*", 20_000)),
        ("inverse.lean", format!("theorem t (x : ℝ) : x{} = x := sorry\n", "⁻¹".repeat(10_000))),
    ]
}

#[test]
fn tree_prints_long_chains_without_crashing() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in long_chains() {
        write(dir.path(), name, &text);
        for format in ["text", "json", "dot"] {
            let out = run(dir.path(), &["tree", "--format", format, name]);
            assert_no_crash(&out, &format!("tree --format {format} {name}"));
            assert_eq!(out.status.code(), Some(0), "{name} {format}");
            assert!(!out.stdout.is_empty());
        }
    }
}

#[test]
fn score_refuses_what_each_metric_cannot_bound_and_never_crashes() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "small.lean", &chain_statement("+", 3));
    for (name, text) in long_chains() {
        write(dir.path(), name, &text);
        let out =
            run(dir.path(), &["score", "--metric", "ted,path,transted-lite", name, "small.lean"]);
        assert_no_crash(&out, &format!("score {name}"));
        let stdout = String::from_utf8_lossy(&out.stdout);
        // `ted` fits its table (20,000 × 8 cells) and scores; the recursive metrics refuse with
        // the measure and the limit; one failed metric makes the exit status 1.
        assert!(stdout.contains("ted           not shown   similarity 0."), "{stdout}");
        for metric in ["path", "transted-lite"] {
            let line = stdout
                .lines()
                .find(|l| l.starts_with(metric) && l[metric.len()..].starts_with(' '))
                .unwrap_or_else(|| panic!("no {metric} line in {stdout}"));
            assert!(
                line.contains("not scored: too large") || line.contains("not scored: too deep"),
                "{line}"
            );
            assert!(line.contains("(limit "), "{line}");
        }
        assert_eq!(out.status.code(), Some(1), "{stdout}");
    }
}

#[test]
fn ted_refuses_a_pair_beyond_its_table_instead_of_allocating_it() {
    let dir = tempfile::tempdir().unwrap();
    // 8,001 × 8,001 nodes: 64 million cells, past MAX_TABLE_CELLS (16.7 million).
    write(dir.path(), "a.lean", &chain_statement("+", 4_000));
    let out = run(dir.path(), &["score", "--metric", "ted", "a.lean", "a.lean"]);
    assert_no_crash(&out, "score --metric ted");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!(
            "not scored: too large: 8006 × 8006 nodes need a distance table of 64096036 cells (limit {MAX_TABLE_CELLS})"
        )),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1));

    // The library refuses before allocating, whatever the algorithm.
    let big = parse_statement(&chain_statement("+", 5_000), &Header::default()).unwrap().tree;
    assert!(matches!(
        distance::try_ted(&big, &big, CostModel::default(), None),
        Err(DistanceError::TooLarge { .. })
    ));
    assert!(matches!(
        distance::try_ted_mapping(&big, &big, CostModel::default()),
        Err(DistanceError::TooLarge { .. })
    ));
}

#[test]
fn tree_text_output_is_linear_in_the_tree_not_quadratic_in_its_depth() {
    let dir = tempfile::tempdir().unwrap();
    // 5,000 terms: 10,006 nodes up to 5,002 levels deep. Indenting every level would print
    // about 50 MB; the output is bounded per line instead.
    write(dir.path(), "sum.lean", &chain_statement("+", 5_000));
    let out = run(dir.path(), &["tree", "sum.lean"]);
    assert_eq!(out.status.code(), Some(0));
    let lines = out.stdout.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(lines, 10_006);
    assert!(out.stdout.len() < 120 * lines, "{} bytes for {lines} lines", out.stdout.len());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[depth 5000] \"x\""), "deep lines name their level");
}

#[test]
fn ted_pairs_reads_back_every_tree_that_tree_json_writes() {
    let dir = tempfile::tempdir().unwrap();
    // 70 terms passed serde_json's recursion limit (128) before; 1,000 terms is 1,002 levels.
    for n in [70, 1_000] {
        write(dir.path(), "s.lean", &chain_statement("+", n));
        let out = run(dir.path(), &["tree", "--format", "json", "s.lean"]);
        assert_eq!(out.status.code(), Some(0));
        let tree = String::from_utf8(out.stdout).unwrap();
        let line = format!(
            "{{\"id\":\"p\",\"ref_tree\":{},\"cand_tree\":{}}}\n",
            tree.trim(),
            tree.trim()
        );
        write(dir.path(), "pairs.jsonl", &line);
        let out = run(dir.path(), &["ted", "--pairs", "pairs.jsonl", "--json"]);
        assert_no_crash(&out, "ted --pairs");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            r#"{"id":"p","distance":0,"similarity":1.0}"#,
            "{n} terms: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn ted_pairs_reports_a_pair_beyond_the_table_limit_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let big = json::to_string(
        &parse_statement(&chain_statement("+", 5_000), &Header::default()).unwrap().tree,
    );
    let lines = format!(
        "{{\"id\":\"big\",\"ref_tree\":{big},\"cand_tree\":{big}}}\n{{\"id\":\"small\",\"ref_tree\":{{\"label\":\"x\"}},\"cand_tree\":{{\"label\":\"y\"}}}}\n"
    );
    write(dir.path(), "pairs.jsonl", &lines);
    let out = run(dir.path(), &["ted", "--pairs", "pairs.jsonl", "--json"]);
    assert_no_crash(&out, "ted --pairs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stdout,
        "{\"id\":\"big\",\"error\":\"too large: 10006 × 10006 nodes need a distance table of 100120036 cells (limit 16777216)\"}\n{\"id\":\"small\",\"distance\":1,\"similarity\":0.0}\n"
    );
    assert_eq!(
        stderr.trim(),
        "lean-assess: warning: pairs.jsonl:1: big: too large: 10006 × 10006 nodes need a distance table of 100120036 cells (limit 16777216)"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn nested_parentheses_become_one_node_with_a_short_note() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        format!("theorem t (x : ℕ) : {}x{} = 0 := sorry\n", "(".repeat(50_000), ")".repeat(50_000));
    write(dir.path(), "p.lean", &text);
    let out = run(dir.path(), &["tree", "p.lean"]);
    assert_no_crash(&out, "tree");
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("could not parse `((((("), "{stderr}");
    assert!(stderr.contains("(99941 characters)"), "{stderr}");
    assert!(stderr.lines().all(|l| l.len() < 300), "{stderr}");
}

#[test]
fn the_unparsed_note_quotes_the_span_in_a_file_with_a_header() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "m.lean",
        "import Mathlib\ntheorem a (n : ℕ) : (match n with | 0 => 1 | _ => 2) = 1 := sorry\n",
    );
    let out = run(dir.path(), &["tree", "m.lean"]);
    assert_eq!(out.status.code(), Some(0));
    // `match` now parses: no note at all.
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\"match _ with | _ => _ | _ => _ \""), "{stdout}");
    write(
        dir.path(),
        "b.lean",
        "import Mathlib\nopen Real\ntheorem a (n : ℕ) : f (n ⊢⊢ :) = 1 := sorry\n",
    );
    let out = run(dir.path(), &["tree", "b.lean"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.trim(),
        "lean-assess: note: b.lean: could not parse `(n ⊢⊢ :)` (bytes 49..61); it stands as one node"
    );
}

#[test]
fn an_unclosed_parenthesis_is_the_same_error_in_binders_and_conclusion() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "b.lean", "theorem a (n : ℕ : n = 1 := sorry\n");
    write(dir.path(), "c.lean", "theorem a (n : ℕ) : (n = 1 := sorry\n");
    for (file, column) in [("b.lean", 11), ("c.lean", 21)] {
        let out = run(dir.path(), &["tree", file]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim(),
            format!("lean-assess: error: {file}: line 1, column {column}: `(` is never closed")
        );
    }
}

/// A zig-zag tree with side leaves `a`, `b`, `c` in turn.
fn zigzag(levels: usize) -> Tree {
    common::zigzag(levels, |i| ["a", "b", "c"][i % 3].to_string())
}

#[test]
fn apted_runs_on_tall_trees_on_a_small_stack() {
    // 3,000 levels, past the old 2,000-level cap that sent such pairs to Zhang–Shasha; on a
    // 2 MiB thread, as in the proxy.
    let worker = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let (a, b) = (zigzag(3_000), zigzag(2_990));
            let mut labels = LabelInterner::new();
            let (fa, fb) = (FlatTree::new(&a, &mut labels), FlatTree::new(&b, &mut labels));
            // The choice only (running 6,001 × 5,981 would pass the table limit).
            assert_eq!(Workspace::chosen_algorithm(&fa, &fb), Algorithm::Apted);
            let small = zigzag(40);
            let fs = FlatTree::new(&small, &mut labels);
            assert_eq!(Workspace::chosen_algorithm(&fa, &fs), Algorithm::Apted);
            // zigzag(40) is zigzag(3000)'s bottom: the distance is the 5,920 nodes above it.
            Workspace::new().ted_flat_with(&fa, &fs, CostModel::default(), Algorithm::Apted, None)
        })
        .unwrap();
    let apted = worker.join().expect("no stack overflow");
    assert_eq!(apted, Ok(5_920));
}

#[test]
fn deep_trees_clone_compare_hash_print_and_drop_on_a_small_stack() {
    let worker = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let mut t = Tree::leaf("x");
            for _ in 0..200_000 {
                t = Tree::node("¬ _ ", vec![t]);
            }
            let copy = t.clone();
            assert_eq!(copy, t);
            assert_eq!(t.size(), 200_001);
            assert_eq!(t.height(), 200_001);
            let text = json::to_string(&t);
            assert_eq!(json::parse(&text).unwrap(), t);
            assert_eq!(serde_json::to_string(&t).unwrap(), text);
            let debug = format!("{t:?}");
            assert!(debug.starts_with("(\"¬ _ \" (\"¬ _ \""));
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            t.hash(&mut h);
            let _ = h.finish();
            drop(copy);
        })
        .unwrap();
    worker.join().expect("no stack overflow");
}

#[test]
fn transted_lite_gives_out_of_time_not_a_score_when_nothing_was_measured_in_time() {
    // A wide statement within the size limit (about 900 nodes, shallow). With a 1 ms limit the
    // canonical forms alone take longer, so the heuristic's deadline hook answers every
    // distance at once (no TED, no expansion), and the metric says "out of time" instead of
    // scoring an unmeasured pair.
    let hyps: Vec<String> =
        (0..70).map(|i| format!("(h{i} : a{i} + b{i} * c{i} = c{i} * b{i} + a{i})")).collect();
    let reference = format!("theorem r {} : a0 + b0 = b0 + a0 := sorry", hyps.join(" "));
    let candidate = format!("theorem c {} : b0 + a0 = a0 + b0 := sorry", hyps.join(" "));
    let header = Header::default();
    let (r, c) = (
        parse_statement(&reference, &header).unwrap(),
        parse_statement(&candidate, &header).unwrap(),
    );
    assert!((800..=1_000).contains(&r.tree.size()), "{}", r.tree.size());
    let metric = TransTedLite::new(Config {
        max_nodes: 1_000_000,
        time_limit: Duration::from_millis(1),
        ..Config::default()
    });
    let started = Instant::now();
    let result = metric.judge(&Pair {
        reference: &r,
        candidate: &c,
        reference_header: "",
        candidate_header: "",
    });
    let elapsed = started.elapsed();
    let e = result.expect_err("no distance was measured in time");
    assert!(e.to_string().starts_with("out of time"), "{e}");
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
}

#[test]
fn score_points_a_lean_metric_without_a_project_to_score_lean_project() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "s.lean", &chain_statement("+", 3));
    let out = run(dir.path(), &["score", "--metric", "transted", "s.lean", "s.lean"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("`score --lean-project DIR`"), "{stdout}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_missing_config_file_is_reported_as_missing() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "s.lean", &chain_statement("+", 3));
    std::fs::create_dir(dir.path().join("proj")).unwrap();
    let out = run(
        dir.path(),
        &[
            "score",
            "--metric",
            "transted",
            "--lean-project",
            "proj",
            "--config",
            "missing.toml",
            "s.lean",
            "s.lean",
        ],
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "lean-assess: error: missing.toml: no such file"
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn serve_with_a_server_that_cannot_start_says_so_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .args(["serve", "--", "/no/such/server"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("lean-assess: error: cannot start the Lean server `/no/such/server`"),
        "{stderr}"
    );
}

#[test]
fn a_statement_past_a_mebibyte_is_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    // 280,000 terms: 1.1 MB (a 5.9 MB statement must not crash `tree` or `score`).
    write(dir.path(), "huge.lean", &chain_statement("+", 280_000));
    write(dir.path(), "small.lean", &chain_statement("+", 3));
    for args in [
        &["tree", "huge.lean"][..],
        &["score", "--metric", "ted,path,transted-lite", "huge.lean", "small.lean"][..],
    ] {
        let out = run(dir.path(), args);
        assert_no_crash(&out, &args.join(" "));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim(),
            "lean-assess: error: huge.lean: line 1, column 1: statement too long: 1120024 bytes (limit 1048576)"
        );
    }
}
