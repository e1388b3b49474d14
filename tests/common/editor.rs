//! The editor's side of the proxy tests and benches: an LSP client that spawns
//! `lean-assess serve -- lean-standin` (or the stand-in directly) over pipes, as an editor does,
//! with framing and id matching. It starts processes and talks to them; what the messages say is
//! each test's business.

use super::frame::{framed, read_frame};
use super::{PROXY, STANDIN, WAIT};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// `lean-assess serve --log DIR/serve.log -- SERVER…`, its log in `dir`.
fn serve_command(dir: &tempfile::TempDir, server: &[&str]) -> Command {
    let mut cmd = Command::new(PROXY);
    cmd.arg("serve").arg("--log").arg(dir.path().join("serve.log")).arg("--").args(server);
    cmd
}

/// Each line `reader` yields, from a thread of its own, until it ends or the receiver is gone.
pub fn lines_of(reader: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// An editor's connection to a spawned server: frames in arrival order, a backlog of those
/// passed over while waiting for another, the server's stderr lines, and a temporary directory
/// for its log (kept as long as the editor).
pub struct Editor {
    pub child: Child,
    stdin: Option<ChildStdin>,
    frames: mpsc::Receiver<Vec<u8>>,
    backlog: VecDeque<Vec<u8>>,
    stderr: mpsc::Receiver<String>,
    pub dir: tempfile::TempDir,
}

impl Editor {
    /// `lean-assess serve --log DIR/serve.log -- lean-standin`, with env for the stand-in.
    pub fn proxy(envs: &[(&str, &str)]) -> Editor {
        Editor::proxy_with(&[STANDIN], envs)
    }

    /// `lean-assess serve --log DIR/serve.log -- SERVER…`, with env for the server.
    pub fn proxy_with(server: &[&str], envs: &[(&str, &str)]) -> Editor {
        let dir = tempfile::tempdir().expect("tmp");
        let cmd = serve_command(&dir, server);
        Editor::spawn(cmd, envs, dir)
    }

    /// As [`Editor::proxy`], started in `workspace` (the workspace root, as editors do).
    pub fn proxy_in(workspace: &Path, envs: &[(&str, &str)]) -> Editor {
        let dir = tempfile::tempdir().expect("tmp");
        let mut cmd = serve_command(&dir, &[STANDIN]);
        cmd.current_dir(workspace);
        Editor::spawn(cmd, envs, dir)
    }

    /// As [`Editor::proxy_in`], in a project of its own: `config` written as `root`'s
    /// lean-assess.toml (the test run's `LEAN_ASSESS_CONFIG` removed, so that file is the one
    /// read) and the cache under `root/cache`.
    pub fn proxy_in_project(root: &Path, config: &str, envs: &[(&str, &str)]) -> Editor {
        std::fs::write(root.join("lean-assess.toml"), config).expect("write lean-assess.toml");
        let dir = tempfile::tempdir().expect("tmp");
        let mut cmd = serve_command(&dir, &[STANDIN]);
        cmd.current_dir(root)
            .env_remove("LEAN_ASSESS_CONFIG")
            .env("XDG_CACHE_HOME", root.join("cache"));
        Editor::spawn(cmd, envs, dir)
    }

    /// Every message that arrives within `quiet` of the previous one.
    pub fn drain(&mut self, quiet: Duration) -> Vec<Value> {
        let mut out = Vec::new();
        while let Some(body) = self.recv_raw(quiet) {
            out.push(serde_json::from_slice(&body).expect("JSON from the proxy"));
        }
        out
    }

    /// `program ARGS` (a shim entry standing in for `lake` or `lean`) started as an editor's
    /// server with this PATH and HOME, its cache under `cache`.
    pub fn shimmed(program: &Path, args: &[&str], path: &str, home: &Path, cache: &Path) -> Editor {
        let mut cmd = Command::new(program);
        cmd.args(args).env("PATH", path).env("HOME", home).env("XDG_CACHE_HOME", cache);
        Editor::spawn(cmd, &[], tempfile::tempdir().expect("tmp"))
    }

    /// The stand-in with no proxy in between (the baseline of the benches).
    pub fn direct(envs: &[(&str, &str)]) -> Editor {
        let dir = tempfile::tempdir().expect("tmp");
        Editor::spawn(Command::new(STANDIN), envs, dir)
    }

    pub fn spawn(mut cmd: Command, envs: &[(&str, &str)], dir: tempfile::TempDir) -> Editor {
        for (k, v) in envs {
            cmd.env(k, v);
        }
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("spawn");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, frames) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::with_capacity(1 << 16, stdout);
            while let Some(body) = read_frame(&mut r) {
                if tx.send(body).is_err() {
                    break;
                }
            }
        });
        let stderr_rx = lines_of(stderr);
        Editor { child, stdin, frames, backlog: VecDeque::new(), stderr: stderr_rx, dir }
    }

    pub fn send_raw(&mut self, body: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(&framed(body)).expect("write to proxy");
        stdin.flush().expect("flush");
    }

    /// Write bytes as they are (bad headers).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    pub fn send(&mut self, v: &Value) {
        self.send_raw(&serde_json::to_vec(v).expect("json"));
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Next frame body (backlog first), or `None` on timeout / EOF.
    pub fn recv_raw(&mut self, timeout: Duration) -> Option<Vec<u8>> {
        if let Some(b) = self.backlog.pop_front() {
            return Some(b);
        }
        self.frames.recv_timeout(timeout).ok()
    }

    pub fn recv(&mut self) -> Value {
        let body = self.recv_raw(WAIT).expect("a message in time");
        serde_json::from_slice(&body).expect("JSON from the proxy")
    }

    /// Next message matching `pred`; others are kept, in order, for later `recv`s.
    pub fn recv_matching(&mut self, pred: impl FnMut(&Value) -> bool) -> Value {
        self.recv_matching_within(WAIT, pred)
    }

    /// As [`Editor::recv_matching`], waiting up to `wait` (for messages of many megabytes).
    pub fn recv_matching_within(
        &mut self,
        wait: Duration,
        mut pred: impl FnMut(&Value) -> bool,
    ) -> Value {
        let deadline = Instant::now() + wait;
        let mut pos = 0;
        loop {
            let body = if pos < self.backlog.len() {
                pos += 1;
                self.backlog[pos - 1].clone()
            } else {
                let left = deadline.saturating_duration_since(Instant::now());
                let body = self.frames.recv_timeout(left).expect("a matching message in time");
                self.backlog.push_back(body.clone());
                pos = self.backlog.len();
                body
            };
            if let Ok(v) = serde_json::from_slice::<Value>(&body) {
                if pred(&v) {
                    self.backlog.remove(pos - 1);
                    return v;
                }
            }
        }
    }

    /// Send a request and wait for its response (other messages stay queued).
    pub fn request(&mut self, id: Value, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id.clone(), "method": method, "params": params}));
        self.recv_matching(|m| m.get("id") == Some(&id) && m.get("method").is_none())
    }

    /// `textDocument/codeAction` at one position (an empty range), with no diagnostics in the
    /// context; the response.
    pub fn code_actions(&mut self, id: Value, uri: &str, line: u32, character: u32) -> Value {
        let at = json!({"line": line, "character": character});
        self.request(
            id,
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": {"start": at, "end": at},
                   "context": {"diagnostics": []}}),
        )
    }

    /// `textDocument/didOpen` of a Lean document at version 1.
    pub fn open_document(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "lean4", "version": 1, "text": text}}),
        );
    }

    /// The next `publishDiagnostics` for `uri` with at least one diagnostic from `source`: its
    /// diagnostics (others are kept for later).
    pub fn recv_diagnostics_from(&mut self, uri: &str, source: &str) -> Vec<Value> {
        let m = self.recv_matching(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["diagnostics"]
                    .as_array()
                    .is_some_and(|d| d.iter().any(|x| x["source"] == source))
        });
        m["params"]["diagnostics"].as_array().expect("diagnostics").clone()
    }

    /// `workspace/executeCommand` of an LSP `Command` (a lens's or a code action's); the
    /// response, which must not be an error.
    pub fn execute(&mut self, id: Value, command: &Value) -> Value {
        let done = self.request(
            id,
            "workspace/executeCommand",
            json!({"command": command["command"], "arguments": command["arguments"]}),
        );
        assert_eq!(done.get("error"), None, "{done}");
        done
    }

    /// `initialize` with no workspace and no capabilities, then `initialized`.
    pub fn initialize(&mut self) -> Value {
        self.initialize_with(json!({"processId": null, "rootUri": null, "capabilities": {}}))
    }

    /// `initialize` (id 0) with these params, then `initialized`; the `initialize` response.
    pub fn initialize_with(&mut self, params: Value) -> Value {
        let r = self.request(json!(0), "initialize", params);
        self.notify("initialized", json!({}));
        r
    }

    /// `shutdown` (answered with `null`), then `exit`: the process ends with success.
    pub fn shutdown_and_exit(&mut self, id: Value) {
        assert_eq!(self.request(id, "shutdown", Value::Null)["result"], Value::Null);
        self.notify("exit", Value::Null);
        let status = self.wait(WAIT).expect("exits after exit");
        assert!(status.success(), "{status:?}");
    }

    pub fn close_stdin(&mut self) {
        self.stdin.take();
    }

    pub fn wait(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(s) = self.child.try_wait().expect("try_wait") {
                return Some(s);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Lines the process wrote to stderr so far.
    pub fn stderr_lines(&self) -> Vec<String> {
        self.stderr.try_iter().collect()
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("serve.log")).unwrap_or_default()
    }
}

impl Drop for Editor {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
