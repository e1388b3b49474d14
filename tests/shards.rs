//! `bench --shard K/N` + `merge`: four shards merged give the single run's predictions byte for
//! byte and the same figures; the merge refuses duplicate, missing and unknown ids. Also run
//! through GNU `parallel` (installed by scripts/install-test-deps.sh). The metric is `ted`:
//! `transted-lite` has a wall-time budget per pair, so under load (tests run in parallel) two
//! runs of it, sharded or not, may differ on a pair that hits the budget.

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const SHARDS: u32 = 4;

fn dataset() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench/gted-minif2f.jsonl")
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn lean_assess(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_lean-assess"))
        .args(args)
        .output()
        .expect("run lean-assess");
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// `lean-assess bench DATASET ARGS`.
fn bench(args: &[&str]) -> Run {
    let data = dataset();
    let mut all = vec!["bench", data.to_str().unwrap()];
    all.extend_from_slice(args);
    lean_assess(&all)
}

/// The summary JSON without its wall time (the only figure two runs cannot share).
fn figures(stdout: &str) -> Value {
    let mut v: Value = serde_json::from_str(stdout).expect("bench --json prints JSON");
    v.as_object_mut().expect("an object").remove("seconds");
    v
}

fn single_run(dir: &Path) -> (Vec<u8>, Value) {
    let single = dir.join("single.jsonl");
    let run = bench(&["--metric", "ted", "--json", "--out", single.to_str().unwrap()]);
    assert_eq!(run.code, Some(0), "single run: {}", run.stderr);
    (std::fs::read(&single).unwrap(), figures(&run.stdout))
}

fn merge(dir: &Path, shards: &[PathBuf]) -> (Run, PathBuf) {
    let data = dataset();
    let merged = dir.join("merged.jsonl");
    let mut args = vec![
        "merge".to_string(),
        "--dataset".into(),
        data.display().to_string(),
        "--metric".into(),
        "ted".into(),
        "--json".into(),
        "--out".into(),
        merged.display().to_string(),
    ];
    args.extend(shards.iter().map(|p| p.display().to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    (lean_assess(&refs), merged)
}

#[test]
fn four_shards_merged_equal_the_single_run_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let (single, single_figures) = single_run(dir.path());
    let mut shards = Vec::new();
    let mut sizes = Vec::new();
    for k in 1..=SHARDS {
        let path = dir.path().join(format!("shard{k}.jsonl"));
        let run = bench(&[
            "--metric",
            "ted",
            "--shard",
            &format!("{k}/{SHARDS}"),
            "--out",
            path.to_str().unwrap(),
        ]);
        assert_eq!(run.code, Some(0), "shard {k}: {}", run.stderr);
        sizes.push(std::fs::read_to_string(&path).unwrap().lines().count());
        shards.push(path);
    }
    // Every shard has work (205 ids over 4 shards) and together they hold each pair once.
    assert!(sizes.iter().all(|&n| n > 20), "shard sizes {sizes:?}");
    assert_eq!(sizes.iter().sum::<usize>(), 205);
    // Shards given in any order merge to the same result.
    shards.reverse();
    let (run, merged) = merge(dir.path(), &shards);
    assert_eq!(run.code, Some(0), "merge: {}", run.stderr);
    assert!(
        std::fs::read(&merged).unwrap() == single,
        "merged predictions differ from the single run's"
    );
    assert_eq!(figures(&run.stdout), single_figures);
}

#[test]
fn the_split_is_the_same_on_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let once = |name: &str| {
        let path = dir.path().join(name);
        let run = bench(&["--shard", "3/4", "--out", path.to_str().unwrap()]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        std::fs::read(path).unwrap()
    };
    assert_eq!(once("a.jsonl"), once("b.jsonl"));
}

#[test]
fn merge_refuses_duplicate_missing_and_unknown_ids() {
    let dir = tempfile::tempdir().unwrap();
    let (single, _) = single_run(dir.path());
    let text = String::from_utf8(single).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let write = |name: &str, lines: &[&str]| {
        let path = dir.path().join(name);
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        path
    };
    let first = write("first.jsonl", &lines[..100]);
    let rest = write("rest.jsonl", &lines[100..]);
    let overlap = write("overlap.jsonl", &lines[99..]);
    let short = write("short.jsonl", &lines[100..lines.len() - 1]);
    let unknown_line = r#"{"id":"not/in/the/dataset","score":0.5}"#;
    let mut with_unknown: Vec<&str> = lines[100..].to_vec();
    with_unknown.push(unknown_line);
    let stranger = write("stranger.jsonl", &with_unknown);

    let (run, _) = merge(dir.path(), &[first.clone(), rest.clone()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);

    let (run, _) = merge(dir.path(), &[first.clone(), overlap.clone()]);
    assert_eq!(run.code, Some(2));
    let id = serde_json::from_str::<Value>(lines[99]).unwrap()["id"].as_str().unwrap().to_string();
    assert!(
        run.stderr.contains(&format!("duplicate id '{id}'"))
            && run.stderr.contains("first.jsonl:100")
            && run.stderr.contains("overlap.jsonl:1"),
        "{}",
        run.stderr
    );

    let (run, _) = merge(dir.path(), &[first.clone(), short]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("1 of 205 pair(s)") && run.stderr.contains("no prediction"),
        "{}",
        run.stderr
    );

    let (run, _) = merge(dir.path(), &[first, stranger]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("stranger.jsonl:106: id not in"), "{}", run.stderr);
}

#[test]
fn a_resumed_shard_keeps_its_last_line_per_id() {
    let dir = tempfile::tempdir().unwrap();
    let (single, _) = single_run(dir.path());
    let text = String::from_utf8(single.clone()).unwrap();
    let first_id = serde_json::from_str::<Value>(text.lines().next().unwrap()).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    // An interrupted run's error line, then the whole run appended after it (as a resume does).
    let resumed = dir.path().join("resumed.jsonl");
    let error = serde_json::json!({"id": first_id, "error": "transted: timed out"}).to_string();
    std::fs::write(&resumed, format!("{error}\n{text}")).unwrap();
    let (run, merged) = merge(dir.path(), &[resumed]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(std::fs::read(merged).unwrap() == single);
}

#[test]
fn gnu_parallel_runs_the_shards() {
    let parallel = common::require_tool("parallel");
    let dir = tempfile::tempdir().unwrap();
    let (single, _) = single_run(dir.path());
    let status = Command::new(parallel)
        .current_dir(dir.path())
        .args([
            "--will-cite",
            env!("CARGO_BIN_EXE_lean-assess"),
            "bench",
            dataset().to_str().unwrap(),
            "--metric",
            "ted",
            "--shard",
            "{}/4",
            "--out",
            "shard{}.jsonl",
            ":::",
            "1",
            "2",
            "3",
            "4",
        ])
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run parallel");
    assert!(status.success());
    let shards: Vec<PathBuf> =
        (1..=4).map(|k| dir.path().join(format!("shard{k}.jsonl"))).collect();
    let (run, merged) = merge(dir.path(), &shards);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(std::fs::read(merged).unwrap() == single);
}
