//! A small LSP client for the proxy tests and benches: spawns `lean-assess serve -- lean-standin`
//! (or the stand-in directly) over pipes, as an editor does, with framing and id matching.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

    pub fn proxy_with(server: &[&str], envs: &[(&str, &str)]) -> Editor {
        let dir = tempfile::tempdir().expect("tmp");
        let log = dir.path().join("serve.log");
        let mut cmd = Command::new(PROXY);
        cmd.arg("serve")
            .arg("--log")
            .arg(&log)
            .arg("--")
            .args(server);
        Editor::spawn(cmd, envs, dir)
    }

    /// As [`Editor::proxy`], started in `workspace` (the workspace root, as editors do).
    pub fn proxy_in(workspace: &Path, envs: &[(&str, &str)]) -> Editor {
        let dir = tempfile::tempdir().expect("tmp");
        let log = dir.path().join("serve.log");
        let mut cmd = Command::new(PROXY);
        cmd.arg("serve")
            .arg("--log")
            .arg(&log)
            .arg("--")
            .arg(STANDIN);
        cmd.current_dir(workspace);
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

    /// The stand-in with no proxy in between (the baseline of the benches).
    pub fn direct(envs: &[(&str, &str)]) -> Editor {
        let dir = tempfile::tempdir().expect("tmp");
        Editor::spawn(Command::new(STANDIN), envs, dir)
    }

    pub fn spawn(mut cmd: Command, envs: &[(&str, &str)], dir: tempfile::TempDir) -> Editor {
        for (k, v) in envs {
            cmd.env(k, v);
        }
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
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
        let (etx, stderr_rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if etx.send(line).is_err() {
                    break;
                }
            }
        });
        Editor {
            child,
            stdin,
            frames,
            backlog: VecDeque::new(),
            stderr: stderr_rx,
            dir,
        }
    }

    pub fn send_raw(&mut self, body: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        let mut buf = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        buf.extend_from_slice(body);
        stdin.write_all(&buf).expect("write to proxy");
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
    pub fn recv_matching(&mut self, mut pred: impl FnMut(&Value) -> bool) -> Value {
        let deadline = Instant::now() + WAIT;
        let mut pos = 0;
        loop {
            let body = if pos < self.backlog.len() {
                pos += 1;
                self.backlog[pos - 1].clone()
            } else {
                let left = deadline.saturating_duration_since(Instant::now());
                let body = self
                    .frames
                    .recv_timeout(left)
                    .expect("a matching message in time");
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

    pub fn initialize(&mut self) -> Value {
        let r = self.request(
            json!(0),
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        );
        self.notify("initialized", json!({}));
        r
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

pub fn read_frame(r: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut length = None;
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let t = line.trim_end();
        if t.is_empty() {
            if length.is_some() {
                break;
            }
            continue;
        }
        if let Some((name, value)) = t.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse::<usize>().ok();
            }
        }
    }
    let mut body = vec![0; length?];
    r.read_exact(&mut body).ok()?;
    Some(body)
}

/// Is a process still running (not gone, not a zombie)?
pub fn is_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            // Field 3, after the parenthesized command name.
            let state = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().next());
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

/// TaggedText from bracket notation: `[` … `]` is one tagged subexpression, other text is text.
/// Used to script goal types for the stand-in (shape of `interactiveGoals-rw-nested.result.json`).
pub fn tagged(s: &str) -> Value {
    fn parse(chars: &[char], i: &mut usize, next_ref: &mut u32) -> Vec<Value> {
        let mut items = Vec::new();
        let mut text = String::new();
        while *i < chars.len() {
            match chars[*i] {
                '[' => {
                    if !text.is_empty() {
                        items.push(json!({"text": std::mem::take(&mut text)}));
                    }
                    *i += 1;
                    let inner = parse(chars, i, next_ref);
                    *next_ref += 1;
                    let body = match inner.as_slice() {
                        [one] => one.clone(),
                        _ => json!({"append": inner}),
                    };
                    items.push(json!({"tag": [
                        {"subexprPos": format!("/{}", next_ref), "info": {"__rpcref": next_ref.to_string()}},
                        body
                    ]}));
                }
                ']' => {
                    *i += 1;
                    break;
                }
                c => {
                    text.push(c);
                    *i += 1;
                }
            }
        }
        if !text.is_empty() {
            items.push(json!({"text": text}));
        }
        items
    }
    let chars: Vec<char> = s.chars().collect();
    let mut items = parse(&chars, &mut 0, &mut 0);
    if items.len() == 1 {
        items.remove(0)
    } else {
        json!({"append": items})
    }
}

/// A local OpenAI-compatible chat-completions stand-in: answers every request with the same
/// completion (`Connection: close`) and keeps each request's headers and JSON body.
pub struct LlmStandIn {
    pub base_url: String,
    pub seen: Arc<Mutex<Vec<SeenRequest>>>,
}

/// A request's headers (names lower-cased) and JSON body.
pub type SeenRequest = (Vec<(String, String)>, Value);

pub fn llm_stand_in(answers: &[&str]) -> LlmStandIn {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    let choices: Vec<Value> = answers
        .iter()
        .enumerate()
        .map(|(i, c)| json!({"index": i, "message": {"role": "assistant", "content": c}}))
        .collect();
    let body = json!({"id": "x", "object": "chat.completion", "choices": choices}).to_string();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen_by_server = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { break };
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut headers = Vec::new();
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            loop {
                line.clear();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                    break;
                }
                if let Some((k, v)) = line.trim_end().split_once(':') {
                    headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
                }
            }
            let len = headers
                .iter()
                .find(|(k, _)| k == "content-length")
                .and_then(|(_, v)| v.parse::<usize>().ok())
                .unwrap_or(0);
            let mut request = vec![0u8; len];
            let _ = reader.read_exact(&mut request);
            let request = serde_json::from_slice(&request).unwrap_or(Value::Null);
            seen_by_server
                .lock()
                .expect("lock")
                .push((headers, request));
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.flush();
        }
    });
    LlmStandIn {
        base_url: format!("http://{addr}/v1"),
        seen,
    }
}
