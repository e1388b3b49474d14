//! `lean-assess mcp` driven by a real MCP client: PyPI's `mcp` package (tests/mcp/client.py),
//! which lists the tools and calls each one, asserting on the results.
//! With `--lean-project`, the Lean-backed metrics run against the project's scripted Lean
//! stand-in (`lean-standin`): a successful compare with its progress notifications, and a call
//! that hits `--lean-call-timeout` (failures, never scores; the stand-in process is gone after),
//! and a call the client abandons (the SDK's `notifications/cancelled`: the stand-in is killed).
//! python3 and its `mcp` package are installed by scripts/install-test-deps.sh; without them the
//! test fails naming what is missing.

mod common;

use common::renamed_pair_proved_rules;
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

/// Every goal query stalls (never answered): only --lean-call-timeout ends the call.
fn stall_script() -> Vec<Value> {
    vec![json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
                "stall": true})]
}

fn write_script(path: &Path, rules: &[Value]) {
    let text: String = rules.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(path, text).expect("write a stand-in script");
}

const CANDIDATE: &str = "\
import Mathlib

-- Candidate autoformalizations of the same problems.
theorem my_favorite_theorem (y : ℝ) (hy : 2 * y + 3 = 7) : y = 2 := by
  sorry

theorem sum_odd (n : ℕ) (hn : n > 0) : ∑ i in Finset.range n, (2 * i + 1) = n * n := by
  sorry

-- @reference theorem r (a b : ℝ) : 0 ≤ (a - b) ^ 2
lemma square_nonneg (a b : ℝ) : (a - b) ^ 2 ≥ 0 := by
  sorry
";

const CONFIG: &str = "\
[reference]
file = \"Reference.lean\"

[[reference.pair]]
candidate = \"Candidate.lean::my_favorite_theorem\"
reference = \"Reference.lean::mathd_algebra_10\"
";

#[test]
fn the_pypi_mcp_client_lists_and_calls_every_tool() {
    let work = tempfile::tempdir().expect("temp dir");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cli");
    std::fs::copy(fixtures.join("reference.lean"), work.path().join("Reference.lean"))
        .expect("copy the reference fixture");
    std::fs::write(work.path().join("Candidate.lean"), CANDIDATE).expect("write the candidate");
    std::fs::write(work.path().join("lean-assess.toml"), CONFIG).expect("write the config");
    write_script(&work.path().join("success.jsonl"), &renamed_pair_proved_rules());
    write_script(&work.path().join("stall.jsonl"), &stall_script());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client.py");
    let output = Command::new(common::require_tool("python3"))
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_lean-assess"))
        .arg(work.path())
        .arg(env!("CARGO_BIN_EXE_lean-standin"))
        .output()
        .expect("run the MCP client");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The client's exit status 77: python's `mcp` package is missing.
    assert_ne!(
        output.status.code(),
        Some(77),
        "this test needs python's `mcp` package ({}): install it with `python3 -m pip install -r tests/mcp/requirements.txt` or {}",
        stdout.trim(),
        common::INSTALL_TEST_DEPS
    );
    assert!(
        output.status.success()
            && stdout.contains("OK: lean-assess mcp passed")
            && stdout.contains("lean-backed: 5 progress notifications")
            && stdout.contains("a cancelled call's Lean server"),
        "the MCP client failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
}
