//! Command line: raw arguments → validated commands → runs.
//!
//! (Proxy branch: only `serve` and `shim` here; the cli helper owns the rest of this file.)
//! `serve` and the `lake` shim own stdin/stdout themselves (stdout is the LSP channel), so
//! `main.rs` hands them over through [`run_standalone`] before it locks stdout.

mod serve;
mod shim;

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(name = "lean-assess", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the LSP proxy in front of a Lean server (default `lake serve --`) on stdin/stdout.
    Serve(serve::Args),
    /// Install the `lake` shim in DIR and print the editor settings that use it.
    Shim(shim::Args),
}

/// Commands that must run before `main` touches stdout: the binary invoked as `lake` (the
/// shim), and `serve`. `None`: not one of these, go on with [`main`]'s normal path.
pub fn run_standalone(argv: &[OsString], err: &mut dyn Write) -> Option<ExitCode> {
    if shim::invoked_as_lake(argv.first().map(OsString::as_os_str)) {
        return Some(shim::run_as_lake(argv.to_vec(), err));
    }
    match argv.get(1) {
        Some(command) if command == "serve" => {}
        _ => return None,
    }
    // `serve --help` and usage errors go the normal way (printed by main).
    let Ok(Cli {
        command: Command::Serve(args),
    }) = Cli::try_parse_from(argv)
    else {
        return None;
    };
    Some(match serve::run(args) {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(err, "lean-assess: error: {e:#}");
            ExitCode::from(1)
        }
    })
}

/// Parse argv, run the command, print a fatal error once.
pub fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let mut err = std::io::stderr();
    if let Some(code) = run_standalone(&argv, &mut err) {
        return code;
    }
    let mut out = std::io::stdout();
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = write!(out, "{}", e.render());
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let _ = write!(err, "{}", e.render());
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::Shim(args) => shim::run(args, &mut out).map(|()| ExitCode::SUCCESS),
    };
    result.unwrap_or_else(|e| {
        let _ = writeln!(err, "lean-assess: error: {e:#}");
        ExitCode::from(2)
    })
}
