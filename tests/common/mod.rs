//! What the integration tests and benches share, one concern a file: the LSP editor harness
//! around the proxy and the stand-in (`editor`), LSP framing (`frame`), a Lean server for the
//! library's own client (`lean_server`), the stand-in's script rules (`standin_script`), a
//! chat-completions stand-in (`llm`), `transted-lite` judged on literal text (`lite`), the
//! shim's surroundings (`files`), what a test needs from the machine (`tools`), tree builders
//! (`trees`) and generated Lean text (`lean_text`). Here: the binaries' paths, the recorded
//! protocol examples and processes read from /proc. Nothing here decides what a test expects.
// Each test and bench uses a part of what is shared here.
#![allow(dead_code, unused_imports)]

mod editor;
mod files;
mod frame;
mod lean_server;
mod lean_text;
mod lite;
mod llm;
mod standin_script;
mod tools;
mod trees;

pub use editor::*;
pub use files::*;
pub use frame::*;
pub use lean_server::*;
pub use lean_text::*;
pub use lite::*;
pub use llm::*;
pub use standin_script::*;
pub use tools::*;
pub use trees::*;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub const PROXY: &str = env!("CARGO_BIN_EXE_lean-assess");
pub const STANDIN: &str = env!("CARGO_BIN_EXE_lean-standin");
pub const WAIT: Duration = Duration::from_secs(20);

pub fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lean-protocol/examples")
}

pub fn example(name: &str) -> Value {
    let text = std::fs::read_to_string(examples_dir().join(name)).expect("recorded example");
    serde_json::from_str(&text).expect("example is JSON")
}

/// The `file://` URI of a path, as the proxy writes it.
pub fn uri_of(p: &Path) -> String {
    lean_assess::files::path_to_uri(p)
}

/// Is a process still running (not gone, not a zombie)?
pub fn is_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            // Field 3, after the parenthesized command name.
            let state = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next());
            !matches!(state, Some("Z") | Some("X") | None)
        }
    }
}

/// Resident memory of a process in KiB, from /proc (VmRSS).
pub fn vm_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}
