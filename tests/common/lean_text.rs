//! Lean text for the size tests and benches: the bundled miniF2F pairs read as they are, and
//! generated task documents of many theorems with their honest solutions. Text only; the
//! benches include this file by path, so it uses nothing else of `tests/common`.
// Each bench that includes it uses one of its functions.
#![allow(dead_code)]

/// `fixtures/bench/gted-minif2f.jsonl`, one pair a line.
pub fn minif2f_lines() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/bench/gted-minif2f.jsonl"
    ))
    .expect("fixtures/bench/gted-minif2f.jsonl")
}

/// `task` (a header, maybe definitions) followed by `targets` theorems `t0`, `t1`, … each
/// ending in `sorry`, and the same with each proved by `omega` (the honest solution).
pub fn numbered_task_and_solution(mut task: String, targets: usize) -> (String, String) {
    let mut solution = task.clone();
    for k in 0..targets {
        let statement = format!("theorem t{k} (x : ℕ) (h : 0 < x) : x + {k} = {k} + x := by\n");
        task.push_str(&statement);
        task.push_str("  sorry\n\n");
        solution.push_str(&statement);
        solution.push_str("  omega\n\n");
    }
    (task, solution)
}
