//! `lean-assess bench --json` and `python3 fixtures/bench/score.py DATASET PRED --json` agree to
//! the last digit on the same predictions (the ones `bench --out` wrote): best threshold on
//! GTED's grid with its precision, recall, accuracy and kappa, and the fixed-threshold sweep.
//! Floats are compared exactly. Needs `python3` (scripts/install-test-deps.sh installs it).

mod common;

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn json_of(command: &mut Command) -> Value {
    let output = command.current_dir(root()).output().expect("command runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(matches!(output.status.code(), Some(0 | 1)), "{command:?} failed: {stderr}");
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{command:?}: not JSON ({e}); stderr {stderr}"))
}

fn check(dataset: &str, extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let predictions = dir.path().join("pred.jsonl");
    let ours = json_of(
        Command::new(env!("CARGO_BIN_EXE_lean-assess"))
            .args(["bench", dataset, "--json", "--out"])
            .arg(&predictions)
            .args(extra),
    );
    let theirs = json_of(
        Command::new(common::require_tool("python3"))
            .args(["fixtures/bench/score.py", dataset])
            .arg(&predictions)
            .arg("--json"),
    );
    let what = format!("{dataset} {extra:?}");
    assert_eq!(ours["scored"], theirs["matched"], "{what}: pairs with a score");
    assert_eq!(ours["failed"], theirs["errored"], "{what}: failed pairs");
    let best = &theirs["continuous"]["best_grid"];
    for key in ["threshold", "precision", "recall", "accuracy", "kappa"] {
        let (a, b) = (ours["best"][key].as_f64(), best[key].as_f64());
        assert!(a.is_some(), "{what}: best.{key} missing");
        assert_eq!(a, b, "{what}: best.{key}");
    }
    let fixed = theirs["continuous"]["fixed_thresholds"].as_array().unwrap();
    let sweep = ours["sweep"].as_array().unwrap();
    assert_eq!(sweep.len(), fixed.len(), "{what}");
    for (a, b) in sweep.iter().zip(fixed) {
        for key in ["threshold", "accuracy", "kappa"] {
            assert_eq!(
                a[key].as_f64(),
                b[key].as_f64(),
                "{what}: sweep {key} at {}",
                b["threshold"]
            );
        }
    }
}

#[test]
fn bench_agrees_with_score_py_on_both_datasets_and_both_cost_models() {
    for dataset in ["fixtures/bench/gted-minif2f.jsonl", "fixtures/bench/gted-proofnet.jsonl"] {
        check(dataset, &[]);
        check(dataset, &["--free-cost"]);
    }
}

#[test]
fn bench_agrees_with_score_py_for_the_other_offline_metrics() {
    for dataset in ["fixtures/bench/gted-minif2f.jsonl", "fixtures/bench/gted-proofnet.jsonl"] {
        check(dataset, &["--metric", "path"]);
    }
    // transted-lite searches per pair (seconds per dataset in a debug build): one dataset is
    // enough to exercise its predictions through both scorers.
    check("fixtures/bench/gted-proofnet.jsonl", &["--metric", "transted-lite"]);
}

#[test]
fn bench_agrees_with_score_py_when_some_pairs_failed() {
    // One pair of this dataset does not parse: it is an `error` prediction that score.py skips,
    // as bench leaves it out of its figures.
    check("fixtures/cli/small.jsonl", &[]);
}
