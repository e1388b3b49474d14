//! The Lean options of every command that can run the metrics that need Lean (`score`, `bench`,
//! `mcp`), declared once and flattened into each command's arguments.

use std::path::PathBuf;

#[derive(Clone, Debug, clap::Args)]
pub struct LeanOptions {
    /// A Lake project whose toolchain and imports fit the statements: the metrics that need Lean
    /// (transted, beq, beq+, beq+grind, defeq) run through a Lean server started there.
    #[arg(long, value_name = "DIR")]
    pub lean_project: Option<PathBuf>,
    /// With --lean-project: the server command, split on whitespace (default: env
    /// `LEAN_ASSESS_SERVER`, else `lake serve --`), started in the --lean-project directory.
    #[arg(long, value_name = "COMMAND")]
    pub server_command: Option<String>,
    /// The config file for `[metrics] transted_timeout_ms` / `beq_timeout_ms` and BEq's `[llm]`
    /// (default: lean-assess.toml in the --lean-project directory, when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}
