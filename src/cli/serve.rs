//! `lean-assess serve [--config FILE] [--log FILE] [-- SERVER_COMMAND ...]`: the LSP proxy.
//!
//! Owns: turning the command line into a session — log file, Lean process, editor stdio, the
//! router run, and the exit status. stdout is the LSP channel and carries frames only; nothing
//! is printed to stderr while a session runs (editors show stderr as errors), everything goes to
//! the log file. Lean's own stderr is relayed unchanged by `lean::process`.
//!
//! Exit status: Lean's status when the session ended as the editor asked (`exit`, or the editor
//! closing its stream); 1 (or Lean's non-zero status) when Lean ended on its own — the editor
//! then got a `window/showMessage` (type 1) with the status and the last lines of Lean's stderr;
//! 1 when the server cannot be started (also reported with `window/showMessage`).

use crate::features::{Features, FeaturesConfig};
use crate::lean::process::LeanProcess;
use crate::router::{self, methods, EndReason, RouterConfig};
use crate::wire::{self, FrameReader, Peek};
use anyhow::Context;
use serde_json::json;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, BufReader};

/// Environment variable naming the config file when `--config` is not given.
pub const CONFIG_ENV: &str = "LEAN_ASSESS_CONFIG";
/// Environment variable with a `tracing` filter for the log (default `info`).
pub const LOG_FILTER_ENV: &str = "LEAN_ASSESS_LOG";

#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Config file for the editor features (default: $LEAN_ASSESS_CONFIG, else lean-assess.toml
    /// found from each document up to the workspace root).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Log file (default: $XDG_CACHE_HOME/lean-assess/serve-<pid>.log, else $TMPDIR).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Print the configuration that applies to DOCUMENT (its layers, and each key with the file
    /// it came from), then exit without starting a server. The editors' "show configuration"
    /// commands run this with the proxy's environment and working directory.
    #[arg(long, value_name = "DOCUMENT")]
    pub show_config: Option<PathBuf>,
    /// The Lean server command and its arguments (default: `lake serve --`), started in the
    /// current directory (the workspace root).
    #[arg(last = true, value_name = "SERVER_COMMAND")]
    pub server: Vec<String>,
}

/// Everything `serve` needs, validated.
pub struct ServeOptions {
    pub server: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub features: FeaturesConfig,
    pub log: PathBuf,
    /// Extra environment for the server (the shim passes the PATH without its directory).
    pub server_env: Vec<(String, String)>,
}

impl ServeOptions {
    pub fn from_args(args: Args) -> ServeOptions {
        let server = if args.server.is_empty() {
            vec!["lake".into(), "serve".into(), "--".into()]
        } else {
            args.server
        };
        let cwd = std::env::current_dir().ok();
        let config_path = args.config.or_else(|| std::env::var_os(CONFIG_ENV).map(PathBuf::from));
        ServeOptions {
            server,
            features: FeaturesConfig { config_path, workspace_root: cwd.clone() },
            cwd,
            log: args.log.unwrap_or_else(default_log_path),
            server_env: Vec::new(),
        }
    }
}

/// `$XDG_CACHE_HOME/lean-assess` or `~/.cache/lean-assess`, else the temp dir.
pub fn default_log_path() -> PathBuf {
    let file = format!("serve-{}.log", std::process::id());
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")));
    if let Some(dir) = cache.map(|c| c.join("lean-assess")) {
        if std::fs::create_dir_all(&dir).is_ok() {
            return dir.join(file);
        }
    }
    std::env::temp_dir().join(format!("lean-assess-{file}"))
}

/// `serve` from the command line.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(doc) = args.show_config.clone() {
        let mut out = std::io::stdout().lock();
        return show_config(ServeOptions::from_args(args), &doc, &mut out);
    }
    serve(ServeOptions::from_args(args))
}

/// `serve --show-config DOCUMENT`: the layers the proxy would read for DOCUMENT and every key
/// with its origin (exit 1 on a bad file, naming its line).
pub fn show_config(
    options: ServeOptions,
    doc: &Path,
    out: &mut dyn std::io::Write,
) -> anyhow::Result<ExitCode> {
    use crate::config::{config_layers, user_config_file, Config};
    let root = options.features.workspace_root.clone();
    let doc = if doc.is_absolute() {
        doc.to_path_buf()
    } else {
        root.clone().unwrap_or_default().join(doc)
    };
    let env =
        std::env::var_os(crate::config::CONFIG_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
    let explicit = options.features.config_path.clone();
    let user_file = user_config_file();
    let layers = config_layers(
        explicit.as_deref().filter(|p| Some(*p) != env.as_deref()),
        env.as_deref(),
        user_file.as_deref(),
        &doc,
        root.as_deref(),
    );
    writeln!(out, "lean-assess configuration for {}", doc.display())?;
    if layers.is_empty() {
        writeln!(out, "no config file: built-in defaults (no lean-assess.toml from the document up to the workspace root {}, no user settings)", root.as_deref().map_or("?".into(), |r| r.display().to_string()))?;
        return Ok(ExitCode::SUCCESS);
    }
    for (i, l) in layers.iter().enumerate() {
        let kind = if l.user { "user settings" } else { "project file" };
        writeln!(out, "layer {}: {kind} {}", i + 1, l.path.display())?;
    }
    match Config::load_layers(&layers) {
        Ok(cfg) => {
            let lines = cfg.describe();
            if lines.is_empty() {
                writeln!(out, "every key at its default")?;
            }
            for l in lines {
                writeln!(out, "  {l}")?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            writeln!(out, "error: {e}")?;
            Ok(ExitCode::from(1))
        }
    }
}

/// Run one proxy session on this process's stdin/stdout.
pub fn serve(options: ServeOptions) -> anyhow::Result<ExitCode> {
    init_log(&options.log)?;
    // Two workers: forwarding never waits behind a features task (measured: a current-thread
    // runtime was no faster on the latency bench).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let code = runtime.block_on(session(options));
    // A blocking read of stdin (tokio's fallback reader) must not keep the process alive.
    runtime.shutdown_timeout(Duration::from_millis(100));
    Ok(code)
}

fn init_log(path: &Path) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the log directory {}", dir.display()))?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open the log file {}", path.display()))?;
    let filter = tracing_subscriber::EnvFilter::try_from_env(LOG_FILTER_ENV)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Already initialized (tests calling serve twice in one process): keep the first.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init();
    Ok(())
}

async fn session(options: ServeOptions) -> ExitCode {
    let editor_in = BufReader::with_capacity(1 << 16, editor_stdin());
    let editor_out = editor_stdout();
    tracing::info!(server = ?options.server, cwd = ?options.cwd, "lean-assess serve starting");
    let spawned = LeanProcess::spawn(&options.server, options.cwd.as_deref(), &options.server_env);
    let (mut process, lean_stdin, lean_stdout) = match spawned {
        Ok(parts) => parts,
        Err(e) => {
            tracing::error!(error = %e, "cannot start the Lean server");
            // The one line serve writes to stderr: no session ever started, so this is a
            // command-line failure (the editor's log shows stderr), not LSP traffic noise.
            {
                use std::io::Write as _;
                let _ = writeln!(std::io::stderr(), "lean-assess: error: {e}");
            }
            refuse_session(editor_in, editor_out, &e.to_string()).await;
            return ExitCode::from(1);
        }
    };
    let config = RouterConfig::default();
    let grace = config.shutdown_grace;
    let features = options.features;
    let end = router::run(
        editor_in,
        editor_out,
        BufReader::with_capacity(1 << 16, lean_stdout),
        lean_stdin,
        config,
        move |to_editor, lean| Features::new(features, to_editor, lean),
    )
    .await;
    // Lean's output is out of step after a bad frame: nothing more can be read, stop it now.
    // A frame cut short is different: the server most likely died writing it, so wait for its
    // exit status, which says why.
    let wait = if end.lean_stream_error.is_some() && !end.lean_died_mid_frame {
        Duration::ZERO
    } else {
        grace
    };
    let status = process.wait_or_kill(wait).await;
    tracing::info!(reason = ?end.reason, ?status, "session ended");
    let code = match (&end.reason, &status) {
        (EndReason::LeanClosed, _) if !end.exit_forwarded => {
            let tail = process.stderr_tail().await;
            let note = match &end.lean_stream_error {
                Some(e) if end.lean_died_mid_frame => {
                    format!(" It stopped in the middle of a message ({e}).")
                }
                Some(e) => format!(
                    " It had written something that is not an LSP frame ({e}), so lean-assess stopped it."
                ),
                None => String::new(),
            };
            let message = crash_message(process.command(), &status, &note, &tail);
            tracing::error!("{message}");
            end.notify_editor(methods::SHOW_MESSAGE, json!({"type": 1, "message": message})).await;
            match &status {
                Ok(s) if s.code().is_some_and(|c| c != 0) => {
                    ExitCode::from(s.code().map_or(1, |c| u8::try_from(c).unwrap_or(1)))
                }
                _ => ExitCode::from(1),
            }
        }
        (_, Ok(s)) if s.success() => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    };
    end.finish().await;
    code
}

/// The `window/showMessage` text for a Lean server that ended on its own.
/// `note` (a sentence with a leading space, or empty) says more about how it ended.
pub fn crash_message(
    command: &str,
    status: &std::io::Result<std::process::ExitStatus>,
    note: &str,
    stderr_tail: &[String],
) -> String {
    let status = match status {
        Ok(s) => describe_status(s),
        Err(e) => format!("an unknown status ({e})"),
    };
    let mut message =
        format!("lean-assess: the Lean server (`{command}`) stopped with {status}.{note}");
    if stderr_tail.is_empty() {
        message.push_str(" It wrote nothing to stderr.");
    } else {
        message.push_str(" Last lines of its stderr:\n");
        message.push_str(&stderr_tail.join("\n"));
    }
    message
}

fn describe_status(status: &std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(signal)) => format!("signal {signal}"),
        _ => status.to_string(),
    }
}

/// The server could not be started: tell the editor (showMessage, and an error reply to every
/// request, `initialize` included) until it sends `exit` or closes the stream.
async fn refuse_session<R, W>(editor_in: R, mut editor_out: W, reason: &str)
where
    R: tokio::io::AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let message = format!("lean-assess: {reason}");
    let show = json!({"jsonrpc": "2.0", "method": methods::SHOW_MESSAGE, "params": {"type": 1, "message": message}});
    let _ = wire::write_frame(&mut editor_out, show.to_string().as_bytes()).await;
    let mut reader = FrameReader::new(editor_in, "editor→proxy");
    while let Ok(Some(frame)) = reader.read_frame().await {
        match wire::peek(&frame.bytes) {
            Peek::Request { id, .. } => {
                let reply = json!({"jsonrpc": "2.0", "id": id.to_json(),
                    "error": {"code": router::codes::INTERNAL_ERROR, "message": message}});
                let _ = wire::write_frame(&mut editor_out, reply.to_string().as_bytes()).await;
            }
            Peek::Notification { method } if method == methods::EXIT => break,
            _ => {}
        }
    }
}

/// A duplicate of fd 0/1 if it is a pipe or socket (what editors give: Node and libuv use
/// socketpairs, tests use pipes), so it can be driven by epoll without tokio's blocking-thread
/// stdio and without the `std::io::Stdout` lock; `open` makes the tokio pipe end of it. `None`
/// (tokio's stdio is used) for anything else, or when `open` refuses it.
fn pollable<T>(
    fd: std::os::fd::BorrowedFd<'_>,
    name: &str,
    open: fn(OwnedFd) -> std::io::Result<T>,
) -> Option<T> {
    use std::os::unix::fs::FileTypeExt;
    let owned = fd.try_clone_to_owned().ok()?;
    let file = std::fs::File::from(owned);
    let kind = file.metadata().ok()?.file_type();
    if !(kind.is_fifo() || kind.is_socket()) {
        return None;
    }
    let owned = OwnedFd::from(file);
    if let Err(e) = set_nonblocking(&owned) {
        tracing::debug!(error = %e, "{name} cannot be made non-blocking; using tokio's {name}");
        return None;
    }
    open(owned)
        .inspect_err(|e| {
            tracing::debug!(error = %e, "{name} is not pollable; using tokio's {name}");
        })
        .ok()
}

/// `O_NONBLOCK` on `fd`'s open file description: `from_owned_fd_unchecked` requires it. Left
/// blocking, a read with nothing to read holds a runtime worker inside the syscall, and the task
/// woken last on that worker (kept in its slot, which other workers do not steal: the writer
/// task that should forward what was just read) waits with it; the editor's request is then
/// never forwarded.
fn set_nonblocking(fd: &OwnedFd) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let raw = fd.as_raw_fd();
    // SAFETY: fcntl F_GETFL/F_SETFL on an fd we own only reads and sets its status flags.
    let flags = unsafe { libc::fcntl(raw, libc::F_GETFL) };
    if flags < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(raw, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

fn editor_stdin() -> Box<dyn AsyncRead + Unpin + Send> {
    let pipe = tokio::net::unix::pipe::Receiver::from_owned_fd_unchecked;
    match pollable(std::io::stdin().as_fd(), "stdin", pipe) {
        Some(r) => Box::new(r),
        None => Box::new(tokio::io::stdin()),
    }
}

fn editor_stdout() -> Box<dyn AsyncWrite + Unpin + Send> {
    let pipe = tokio::net::unix::pipe::Sender::from_owned_fd_unchecked;
    match pollable(std::io::stdout().as_fd(), "stdout", pipe) {
        Some(w) => Box::new(w),
        None => Box::new(tokio::io::stdout()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    #[test]
    fn crash_message_has_status_and_tail() {
        let status = Ok(std::process::ExitStatus::from_raw(3 << 8));
        let m = crash_message("lake serve --", &status, "", &["Watchdog error: boom".into()]);
        assert!(m.contains("`lake serve --`"));
        assert!(m.contains("exit status 3"));
        assert!(m.ends_with("Watchdog error: boom"));
        let killed = Ok(std::process::ExitStatus::from_raw(9));
        assert!(crash_message("x", &killed, "", &[]).contains("signal 9"));
    }

    #[test]
    fn default_command_is_lake_serve() {
        let o = ServeOptions::from_args(Args {
            config: None,
            log: Some("/tmp/x.log".into()),
            show_config: None,
            server: vec![],
        });
        assert_eq!(o.server, ["lake", "serve", "--"]);
    }

    /// `serve --show-config DOC` names every layer and each key's origin.
    #[test]
    fn show_config_names_layers_and_origins() {
        let tmp = tempfile::tempdir().expect("tmp");
        let ws = tmp.path().join("ws");
        std::fs::create_dir_all(&ws).expect("ws");
        std::fs::write(ws.join("lean-assess.toml"), "[reference]\nfile = \"R.lean\"\n")
            .expect("project");
        let settings = tmp.path().join("settings.toml");
        std::fs::write(&settings, "[metrics]\nlens = [\"ted\"]\n").expect("settings");
        let mut o = ServeOptions::from_args(Args {
            config: Some(settings.clone()),
            log: None,
            show_config: None,
            server: vec![],
        });
        o.features.workspace_root = Some(ws.clone());
        let mut out = Vec::new();
        let code = show_config(o, Path::new("A.lean"), &mut out).expect("show");
        let text = String::from_utf8(out).expect("utf8");
        assert_eq!(code, ExitCode::SUCCESS);
        assert!(
            text.contains(&format!(
                "layer 1: project file {}",
                ws.join("lean-assess.toml").display()
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "metrics.lens = ted  (from user settings {})",
                settings.display()
            )),
            "{text}"
        );
        assert!(text.contains("reference.file = "), "{text}");
    }
}
