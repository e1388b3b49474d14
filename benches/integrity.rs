//! `lean-assess integrity` over the corpus in `fixtures/integrity/`: every task against its
//! honest solutions and every cheat (the offline checks: masking, commands, statement trees,
//! alpha-equivalence, header and forbidden checks, and `transted-lite` beside each changed
//! statement). Files are read once, outside the timing. Prints medians and, as the floor measured
//! in the same run, the time to only parse every target's statement in both files with the
//! engine's parser (what any statement comparison must do); then the batch command end to end
//! (`integrity --tasks … --solutions …`, a fresh process per run, as a user runs it).
//!
//! Then how the offline check scales: synthetic tasks of 1,000 and 10,000 targets and one of
//! 100,000 one-line definitions before a single target, each against its honest solution, as
//! time per target (per definition) beside the floor measured in the same run: masking and
//! cutting both files into commands and finding their declarations, the passes any check must
//! make over the text.
//!
//!     cargo bench --bench integrity [-- RUNS] [scale]   (`scale`: the scaling part only)

#[path = "../tests/common/lean_text.rs"]
mod lean_text;

use lean_assess::integrity::{scan, Options, Task};
use lean_assess::trees::parse::{self, Header};
use lean_text::numbered_task_and_solution;
use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

struct PairText {
    task: (String, String),
    solution: (String, String),
}

fn read(p: &Path) -> (String, String) {
    (p.display().to_string(), std::fs::read_to_string(p).expect("corpus file"))
}

fn corpus() -> Vec<PairText> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/integrity");
    let mut pairs = Vec::new();
    for dir in ["honest", "honest-alt", "cheats"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("corpus dir")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        for sol in files {
            let name = sol.file_name().unwrap().to_string_lossy().into_owned();
            let task_name = match name.split_once("--") {
                Some((t, _)) => format!("{t}.lean"),
                None => name.clone(),
            };
            pairs.push(PairText {
                task: read(&root.join("tasks").join(task_name)),
                solution: read(&sol),
            });
        }
    }
    pairs
}

/// The whole offline check of every pair; returns how many targets passed.
fn check_all(pairs: &[PairText]) -> usize {
    let options = Options::default();
    let mut passed = 0;
    for p in pairs {
        let task = Task::load(&p.task.0, &p.task.1, &options).expect("corpus task");
        let report = task.check(&p.solution.0, Ok(&p.solution.1), &options);
        passed += report.targets.iter().filter(|t| report.target_passed(t)).count();
    }
    passed
}

/// The floor: parse every theorem/lemma statement of both files with the engine's parser.
fn parse_only(pairs: &[PairText]) -> usize {
    let mut nodes = 0;
    for p in pairs {
        for (_, text) in [&p.task, &p.solution] {
            for d in parse::find_declarations(text) {
                let header = Header::parse(&text[..d.start]);
                if let Ok(s) = parse::parse_declaration_in(text, &d, &header) {
                    nodes += s.tree.size();
                }
            }
        }
    }
    nodes
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time(runs: usize, mut f: impl FnMut()) -> Duration {
    f(); // warm-up
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

/// A task of `targets` theorems (each `sorry`) after `definitions` one-line definitions, and
/// its honest solution.
fn synthetic(targets: usize, definitions: usize) -> (String, String) {
    let mut task = String::from("import Mathlib\n\nopen Nat\n\n");
    for k in 0..definitions {
        task.push_str(&format!("def d{k} : ℕ := {k}\n"));
    }
    numbered_task_and_solution(task, targets)
}

fn scaling(out: &mut impl Write, runs: usize) {
    for (targets, definitions) in [(1_000, 0), (10_000, 0), (1, 100_000)] {
        let (task_text, solution_text) = synthetic(targets, definitions);
        let options = Options::default();
        let runs = if targets * definitions.max(1) >= 10_000 { runs.min(5) } else { runs.min(11) };
        let check = time(runs, || {
            let task = Task::load("task.lean", &task_text, &options).expect("task");
            let report = task.check("sol.lean", Ok(&solution_text), &options);
            assert!(report.passed(), "the honest solution passes");
            black_box(report);
        });
        let floor = time(runs, || {
            for text in [&task_text, &solution_text] {
                let masked = scan::mask(text).expect("mask");
                black_box(scan::split(&masked));
                black_box(parse::find_declarations(text));
            }
        });
        let (unit, count) =
            if definitions > 0 { ("definition", definitions) } else { ("target", targets) };
        writeln!(
            out,
            "{targets} target(s) after {definitions} definition(s), median of {runs}: {:.1} ms, {:.2} µs per {unit}; floor {:.1} ms; check / floor = {:.1}x",
            check.as_secs_f64() * 1e3,
            check.as_secs_f64() * 1e6 / count as f64,
            floor.as_secs_f64() * 1e3,
            check.as_secs_f64() / floor.as_secs_f64().max(1e-9)
        )
        .expect("stdout");
    }
}

fn main() {
    let runs: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(31);
    let mut out = std::io::stdout().lock();
    if std::env::args().any(|a| a == "scale") {
        scaling(&mut out, runs);
        return;
    }
    let pairs = corpus();
    let targets: usize = pairs
        .iter()
        .map(|p| {
            Task::load(&p.task.0, &p.task.1, &Options::default()).map_or(0, |t| t.targets.len())
        })
        .sum();
    let check = time(runs, || {
        black_box(check_all(black_box(&pairs)));
    });
    let floor = time(runs, || {
        black_box(parse_only(black_box(&pairs)));
    });
    writeln!(
        out,
        "offline check, {} solution files ({targets} targets), median of {runs}: {:.2} ms",
        pairs.len(),
        check.as_secs_f64() * 1e3
    )
    .expect("stdout");
    writeln!(
        out,
        "floor (parse the statements only), median of {runs}: {:.2} ms; check / floor = {:.1}x",
        floor.as_secs_f64() * 1e3,
        check.as_secs_f64() / floor.as_secs_f64().max(1e-9)
    )
    .expect("stdout");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/integrity");
    let bin = env!("CARGO_BIN_EXE_lean-assess");
    let batch_runs = runs.min(11);
    let batch = time(batch_runs, || {
        let out = Command::new(bin)
            .arg("integrity")
            .arg("--tasks")
            .arg(root.join("tasks"))
            .arg("--solutions")
            .arg(root.join("honest"))
            .output()
            .expect("run lean-assess");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    });
    let version = time(batch_runs, || {
        let out = Command::new(bin).arg("--version").output().expect("run");
        assert!(out.status.success());
    });
    writeln!(
        out,
        "`lean-assess integrity --tasks … --solutions honest` end to end (process start included), median of {batch_runs}: {:.2} ms (`lean-assess --version`: {:.2} ms)",
        batch.as_secs_f64() * 1e3,
        version.as_secs_f64() * 1e3
    )
    .expect("stdout");
    scaling(&mut out, runs);
}
