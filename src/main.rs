//! Entry point: argv → `cli::run` → exit status. The only place that prints a fatal error: once,
//! with its whole cause chain on one line (`{:#}`). Exit statuses are documented in `cli`:
//! 0 ok, 1 some items failed, 2 bad input or usage; a closed stdout pipe ends quietly with 0.

use lean_assess::cli;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // The shim (invoked as `lake`) and `serve` own stdin/stdout: hand over before locking them.
    if let Some(code) = cli::run_standalone(&argv, &mut std::io::stderr()) {
        return code;
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let result = cli::run(argv, &mut out, &mut err)
        .and_then(|status| out.flush().map(|()| status).map_err(Into::into));
    match result {
        Ok(status) => status.into(),
        Err(e) if cli::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // Show what was written before the failure; a broken pipe here changes nothing.
            let _ = out.flush();
            match e.downcast_ref::<clap::Error>() {
                // clap's text already starts with `error:` and ends with the usage.
                Some(usage) => {
                    let _ = write!(err, "{}", usage.render());
                }
                None => {
                    let _ = writeln!(err, "lean-assess: error: {}", cli::one_line(&e));
                }
            }
            ExitCode::from(cli::EXIT_BAD_INPUT)
        }
    }
}
