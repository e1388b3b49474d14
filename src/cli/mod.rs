//! Command line: raw arguments → validated commands → runs. (Being written.)

use std::process::ExitCode;

/// Parse argv, run the command, print a fatal error once.
pub fn main() -> ExitCode {
    ExitCode::SUCCESS
}
