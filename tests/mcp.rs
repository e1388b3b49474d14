//! `lean-assess mcp` driven by a real MCP client: PyPI's `mcp` package (tests/mcp/client.py),
//! which lists the tools and calls each one, asserting on the results. When python3 or its `mcp`
//! package is missing the test says so plainly and passes without checking anything
//! (install with `python3 -m pip install -r tests/mcp/requirements.txt`).

// A test that cannot run says so plainly on stderr.
#![allow(clippy::print_stderr)]

use std::path::Path;
use std::process::Command;

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
    std::fs::copy(
        fixtures.join("reference.lean"),
        work.path().join("Reference.lean"),
    )
    .expect("copy the reference fixture");
    std::fs::write(work.path().join("Candidate.lean"), CANDIDATE).expect("write the candidate");
    std::fs::write(work.path().join("lean-assess.toml"), CONFIG).expect("write the config");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client.py");
    let output = match Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_lean-assess"))
        .arg(work.path())
        .output()
    {
        Ok(output) => output,
        Err(e) => {
            eprintln!("SKIPPED: the MCP client test needs python3 ({e})");
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(77) {
        eprintln!("SKIPPED: {}", stdout.trim());
        return;
    }
    assert!(
        output.status.success() && stdout.contains("OK: lean-assess mcp passed"),
        "the MCP client failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
}
