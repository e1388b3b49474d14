//! `lean-assess mcp [--lean-project DIR [--server-command CMD] [--config FILE]]`: the judge as
//! an MCP server over stdio, for agents (Claude Code, Codex, Cursor).
//!
//! Owns the MCP surface only: the tool list with its input schemas, turning a tool call's JSON
//! arguments into the same library calls `score`, `tree` and the editor's reference lookup make,
//! and turning their results (or their one-line error messages) into tool results. The protocol
//! itself (JSON-RPC framing, initialize, capability negotiation) is the `rmcp` crate's. It must
//! not print anything on stdout besides MCP messages: stdout is the channel.
//!
//! Errors in a call (unreadable file, unknown theorem, unknown metric, an argument the tool does
//! not declare) are tool results with `isError: true` and one line phrased for an agent: the
//! argument at fault, or how the server must be started (never a shell command to run); a metric
//! that needs Lean on a server without `--lean-project` is that metric's `error` entry. Protocol
//! errors (unknown tool) are JSON-RPC errors. Every tool declares its output schema (MCP
//! 2025-06-18 `outputSchema`) and answers with `structuredContent` matching it.
//!
//! Here: the command's arguments and starting the server (its Lean setup, the roots files are
//! read from, the async runtime, the JSON-RPC check in front of it); the parts live beside it:
//! - `handler`: the protocol side, a call's lifetime on its worker thread;
//! - `worker`: progress steps and the stop signal between a call and its worker;
//! - `tools`: what the tools declare (names, descriptions, schemas, limits);
//! - `arguments`: a call's arguments checked and read;
//! - `compare`, `tree`, `files`: the tools themselves.

mod arguments;
mod compare;
mod files;
mod handler;
mod tools;
mod tree;
mod worker;

use crate::lean::batch;
use crate::metrics::registry;
use anyhow::{bail, Context};
use handler::Handler;
use rmcp::ServiceExt;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// With --lean-project: the wall-time limit of one `compare_statements` call that runs Lean
    /// metrics (server start included), in seconds; the metrics' own limits apply inside it.
    /// When it passes, the Lean server is killed (with its process group) and the metrics not
    /// finished report the timeout as their error.
    #[arg(long, value_name = "SECONDS", default_value_t = 600,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    lean_call_timeout: u64,
    #[command(flatten)]
    lean: crate::cli::lean_options::LeanOptions,
}

/// What a call needs from the command line; shared by every call.
struct Server {
    lean: Option<LeanSetup>,
    /// Where the files a call names may be read from: the server's working directory and the
    /// `--lean-project` (an agent's arguments are no wider a door than the editor's).
    roots: crate::config::ReadableRoots,
    /// Calls running now; one more than [`MAX_CONCURRENT_CALLS`] is refused, not queued.
    slots: Arc<tokio::sync::Semaphore>,
}

/// Tool calls that run at once (each on its own thread; a Lean call also has a Lean server).
/// A call beyond them gets a JSON-RPC error at once, so a flood of calls cannot grow threads
/// and memory without bound or delay `tools/list`.
const MAX_CONCURRENT_CALLS: usize = 4;

struct LeanSetup {
    project: PathBuf,
    server_command: Option<String>,
    settings: batch::LeanSettings,
    call_timeout: Duration,
}

/// Run the server on stdin/stdout until the client closes the channel.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let lean = match &args.lean.lean_project {
        Some(dir) => {
            if !dir.is_dir() {
                bail!("--lean-project {}: not a directory", dir.display());
            }
            let config = batch::load_config(args.lean.config.as_deref(), Some(dir))?;
            let names: Vec<&str> = registry::lean_names().collect();
            Some(LeanSetup {
                project: dir.clone(),
                server_command: args.lean.server_command.clone(),
                settings: batch::LeanSettings::new(config.as_ref(), &names)?,
                call_timeout: Duration::from_secs(args.lean_call_timeout),
            })
        }
        None => {
            if args.lean.config.is_some() {
                batch::load_config(args.lean.config.as_deref(), None)?;
            }
            None
        }
    };
    let mut extra = vec![std::env::current_dir().context("cannot read the working directory")?];
    if let Some(l) = &lean {
        extra.push(std::path::absolute(&l.project).unwrap_or_else(|_| l.project.clone()));
    }
    let server = Arc::new(Server {
        lean,
        roots: crate::config::ReadableRoots::for_document(None, None, &extra),
        slots: Arc::new(tokio::sync::Semaphore::new(MAX_CONCURRENT_CALLS)),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        // The library talks to the client through the JSON-RPC check (`mcp_guard`), which
        // answers invalid messages itself.
        let (library_in, guard_to_library) = tokio::io::duplex(1 << 20);
        let (guard_from_library, library_out) = tokio::io::duplex(1 << 20);
        let guard = tokio::spawn(crate::cli::mcp_guard::run(
            tokio::io::stdin(),
            tokio::io::stdout(),
            guard_to_library,
            guard_from_library,
        ));
        let service = Handler(server)
            .serve((library_in, library_out))
            .await
            .context("MCP initialization failed")?;
        service.waiting().await.context("MCP server task failed")?;
        let _ = guard.await;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
