//! Entry point: argv → `cli::run` → exit status. The only place that prints a fatal error.

use std::process::ExitCode;

fn main() -> ExitCode {
    lean_assess::cli::main()
}
