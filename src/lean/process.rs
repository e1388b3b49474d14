//! The Lean server process: spawn, stderr, exit, kill.
//!
//! Owns: starting the server command (default `lake serve --`) in the workspace root with piped
//! stdio, copying its stderr through unchanged to the proxy's own stderr (the editor would see
//! Lean's stderr without the proxy too; README §1: worker stderr lines are prefixed `[<uri>] `,
//! `Watchdog error: …` on a fatal error) while logging it and keeping the last lines for the
//! crash message, and ending the process: wait, then kill after a grace period, always reaping
//! it (`kill_on_drop` as a last resort) so no zombie is left.
//!
//! The server runs in a process group of its own (`lake serve` starts `lean --server`, which
//! starts one worker per file): a kill goes to the whole group, so a hung server's children do
//! not outlive it. Editors stop the proxy by closing its stdin or by signalling
//! its pid, not its group, so leaving the proxy's group loses nothing: Lean sees EOF on stdin
//! and the proxy ends it.
//!
//! Leaves to others: the LSP traffic on stdin/stdout (`router`), the `shutdown`/`exit` messages.

use std::collections::VecDeque;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::task::JoinHandle;

/// How many stderr lines the crash message quotes.
pub const STDERR_TAIL_LINES: usize = 20;

#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    #[error("cannot start the Lean server `{command}`: {source}")]
    Spawn {
        command: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the Lean server command is empty")]
    EmptyCommand,
}

/// A running Lean server.
pub struct LeanProcess {
    child: Child,
    /// The server's process group (= its pid, from `process_group(0)`).
    pgid: u32,
    command: String,
    tail: Arc<Mutex<VecDeque<String>>>,
    stderr_task: Option<JoinHandle<()>>,
}

impl LeanProcess {
    /// Start `command` (program + args) in `cwd`. Returns the process and its stdin/stdout.
    pub fn spawn(
        command: &[String],
        cwd: Option<&Path>,
        envs: &[(String, String)],
    ) -> Result<(LeanProcess, ChildStdin, ChildStdout), ProcessError> {
        let (program, args) = command.split_first().ok_or(ProcessError::EmptyCommand)?;
        let shown = command.join(" ");
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // pgid = the child's pid: see the module doc.
            .process_group(0)
            .kill_on_drop(true);
        for (k, v) in envs {
            cmd.env(k, v);
        }
        if let Some(cwd) = cwd {
            cmd.current_dir(cwd);
        }
        let mut child =
            cmd.spawn().map_err(|source| ProcessError::Spawn { command: shown.clone(), source })?;
        let stdin = child.stdin.take().expect("BUG: stdin was configured as piped");
        let stdout = child.stdout.take().expect("BUG: stdout was configured as piped");
        let stderr = child.stderr.take().expect("BUG: stderr was configured as piped");
        let pgid = child.id().expect("BUG: a child just spawned has a pid");
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_task = tokio::spawn(relay_stderr(stderr, tail.clone()));
        tracing::info!(command = %shown, pid = child.id(), "started the Lean server");
        Ok((
            LeanProcess { child, pgid, command: shown, tail, stderr_task: Some(stderr_task) },
            stdin,
            stdout,
        ))
    }

    pub fn command(&self) -> &str {
        &self.command
    }

    pub fn id(&self) -> Option<u32> {
        self.child.id()
    }

    /// Wait for the process to exit on its own.
    pub async fn wait(&mut self) -> std::io::Result<ExitStatus> {
        self.child.wait().await
    }

    /// Wait up to `grace` for the process to exit, then kill its process group; always reaps
    /// it. Whatever of its group is still alive afterwards (workers of a server that died) is
    /// killed too: nothing the server started outlives the session.
    pub async fn wait_or_kill(&mut self, grace: Duration) -> std::io::Result<ExitStatus> {
        let status = match tokio::time::timeout(grace, self.child.wait()).await {
            Ok(status) => status,
            Err(_) => {
                tracing::warn!(command = %self.command, "the Lean server did not exit in time; killing its process group");
                self.kill_group();
                // start_kill fails only if the process is already reaped; wait() tells us.
                let _ = self.child.start_kill();
                self.child.wait().await
            }
        };
        self.kill_group();
        status
    }

    /// SIGKILL to the server's process group. Safe after the leader was reaped: a pid is not
    /// reused while a process group of that id still has members, and with none left the call
    /// fails with ESRCH and does nothing.
    fn kill_group(&self) {
        // SAFETY: killpg has no memory effects; a bad pgid only makes it return an error.
        let sent = unsafe { libc::killpg(self.pgid as libc::pid_t, libc::SIGKILL) };
        if sent == 0 {
            tracing::info!(pgid = self.pgid, "killed the Lean server's process group");
        }
    }

    /// The last lines of stderr, after letting the relay finish reading (bounded wait: a
    /// grandchild could keep the pipe open).
    pub async fn stderr_tail(&mut self) -> Vec<String> {
        if let Some(task) = self.stderr_task.take() {
            let _ = tokio::time::timeout(Duration::from_millis(500), task).await;
        }
        self.tail
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .cloned()
            .collect()
    }
}

impl Drop for LeanProcess {
    /// `kill_on_drop` ends the server itself; its group (workers) must go too.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill_group();
        }
    }
}

/// Copy stderr through unchanged, log each line, keep the last [`STDERR_TAIL_LINES`].
async fn relay_stderr(mut stderr: tokio::process::ChildStderr, tail: Arc<Mutex<VecDeque<String>>>) {
    let mut out = tokio::io::stderr();
    let mut buf = vec![0u8; 8192];
    let mut partial: Vec<u8> = Vec::new();
    loop {
        let n = match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        // The editor would have shown Lean's stderr without the proxy; keep that behaviour. A
        // failed write (editor closed our stderr) must not stop the tail from being kept.
        let _ = out.write_all(&buf[..n]).await;
        let _ = out.flush().await;
        partial.extend_from_slice(&buf[..n]);
        while let Some(pos) = partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = partial.drain(..=pos).collect();
            push_line(&tail, &line);
        }
    }
    if !partial.is_empty() {
        push_line(&tail, &partial);
    }
}

fn push_line(tail: &Mutex<VecDeque<String>>, line: &[u8]) {
    let text = String::from_utf8_lossy(line).trim_end_matches(['\r', '\n']).to_string();
    tracing::info!(target: "lean_stderr", "{text}");
    let mut tail = tail.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if tail.len() == STDERR_TAIL_LINES {
        tail.pop_front();
    }
    tail.push_back(text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn keeps_the_stderr_tail_and_exit_status() {
        let script = "for i in $(seq 1 30); do echo line$i >&2; done; printf 'last' >&2; exit 3";
        let cmd = vec!["sh".to_string(), "-c".to_string(), script.to_string()];
        let (mut proc, _stdin, _stdout) = LeanProcess::spawn(&cmd, None, &[]).expect("spawn");
        let status = proc.wait_or_kill(Duration::from_secs(10)).await.expect("wait");
        assert_eq!(status.code(), Some(3));
        let tail = proc.stderr_tail().await;
        assert_eq!(tail.len(), STDERR_TAIL_LINES);
        assert_eq!(tail.last().map(String::as_str), Some("last"));
        assert_eq!(tail.first().map(String::as_str), Some("line12"));
    }

    #[tokio::test]
    async fn kills_after_the_grace_period() {
        let cmd = vec!["sleep".to_string(), "30".to_string()];
        let (mut proc, _stdin, _stdout) = LeanProcess::spawn(&cmd, None, &[]).expect("spawn");
        let started = std::time::Instant::now();
        let status = proc.wait_or_kill(Duration::from_millis(100)).await.expect("wait");
        assert!(!status.success());
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    /// Whether `pid` is a live process (a zombie counts as gone: it runs nothing).
    fn alive(pid: u32) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(stat) => {
                !stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z'))
            }
            Err(_) => false,
        }
    }

    #[tokio::test]
    async fn a_hung_servers_children_do_not_survive_the_kill() {
        // The "server" starts a child that would outlive it, says its pid, and hangs.
        let script = "sleep 300 & echo child $! >&2; wait";
        let cmd = vec!["sh".to_string(), "-c".to_string(), script.to_string()];
        let (mut proc, _stdin, _stdout) = LeanProcess::spawn(&cmd, None, &[]).expect("spawn");
        // Wait for the event (the pid line on stderr), bounded.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let child_pid = loop {
            let line = proc.tail.lock().expect("lock").front().cloned();
            if let Some(pid) = line.and_then(|l| l.strip_prefix("child ")?.parse::<u32>().ok()) {
                break pid;
            }
            assert!(std::time::Instant::now() < deadline, "no pid line");
            tokio::task::yield_now().await;
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        assert!(alive(child_pid));
        let status = proc.wait_or_kill(Duration::from_millis(100)).await.expect("wait");
        assert!(!status.success());
        // The orphan is reaped by init (or a subreaper) asynchronously: wait until it is gone.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while alive(child_pid) {
            assert!(
                std::time::Instant::now() < deadline,
                "the server's child {child_pid} survived the kill"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    #[test]
    fn missing_program_is_an_error_naming_it() {
        let rt =
            tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        rt.block_on(async {
            let cmd = vec!["/nonexistent/lake".to_string(), "serve".to_string()];
            let err = LeanProcess::spawn(&cmd, None, &[]).err().expect("error");
            assert!(err.to_string().contains("/nonexistent/lake serve"));
        });
    }
}
