//! `lean-assess mcp` spoken to in raw JSON-RPC lines (no SDK, so malformed input can be sent):
//! JSON-RPC's error rules for bad messages, a bound on concurrent calls that refuses the
//! excess at once while `tools/list` still answers, `operator_tree`'s nested JSON for a deep
//! tree, and file arguments limited to the server's roots.

mod common;

use common::{PROXY as BIN, STANDIN};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

struct Mcp {
    child: Child,
    stdin: ChildStdin,
    /// Lines as sent; parsed by [`Mcp::next`] (a reply too deep for serde_json's parser
    /// stays a string: see [`nesting`]).
    lines: mpsc::Receiver<String>,
}

/// The deepest nesting of objects and arrays in a JSON text (outside strings).
fn nesting(text: &str) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for c in text.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '{' | '[' if !in_string => {
                depth += 1;
                max = max.max(depth);
            }
            '}' | ']' if !in_string => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

impl Mcp {
    fn start(dir: &Path, args: &[&str], envs: &[(&str, &Path)]) -> Mcp {
        let mut cmd = Command::new(BIN);
        cmd.arg("mcp")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("start lean-assess mcp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let mut mcp = Mcp { child, stdin, lines: common::lines_of(stdout) };
        mcp.send_line(&json!({"jsonrpc":"2.0","id":"init","method":"initialize","params":{
            "protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}})
        .to_string());
        mcp.answer_to(&json!("init"));
        mcp.send_line(&json!({"jsonrpc":"2.0","method":"notifications/initialized"}).to_string());
        mcp
    }

    fn send_line(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    fn next_line(&mut self) -> String {
        self.lines.recv_timeout(Duration::from_secs(20)).expect("an answer within 20 s")
    }

    fn next(&mut self) -> Value {
        let line = self.next_line();
        serde_json::from_str(&line).unwrap_or(Value::String(line))
    }

    /// The next message answering `id` (others are skipped).
    fn answer_to(&mut self, id: &Value) -> Value {
        loop {
            let m = self.next();
            if &m["id"] == id {
                return m;
            }
        }
    }

    fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        self.send_line(
            &json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
                    "params":{"name":tool,"arguments":arguments}})
            .to_string(),
        );
        self.answer_to(&json!(id))
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn bad_messages_get_json_rpcs_errors_and_the_session_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut mcp = Mcp::start(dir.path(), &[], &[]);
    mcp.send_line("not json");
    let v = mcp.next();
    assert_eq!((v["id"].clone(), v["error"]["code"].clone()), (Value::Null, json!(-32700)), "{v}");
    mcp.send_line("[1,2,3]");
    let v = mcp.next();
    let items = v.as_array().unwrap_or_else(|| panic!("an array: {v}"));
    assert_eq!(items.len(), 3);
    assert!(items.iter().all(|e| e["error"]["code"] == -32600 && e["id"].is_null()), "{v}");
    mcp.send_line(r#"{"jsonrpc":"2.0","id":5}"#);
    let v = mcp.next();
    assert_eq!((v["id"].clone(), v["error"]["code"].clone()), (json!(5), json!(-32600)), "{v}");
    mcp.send_line(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}"#);
    let v = mcp.next();
    assert_eq!((v["id"].clone(), v["error"]["code"].clone()), (Value::Null, json!(-32600)), "{v}");
    mcp.send_line(r#"{"jsonrpc":"2.0","id":6,"method":"tools/list"}"#);
    assert!(mcp.answer_to(&json!(6))["result"]["tools"].is_array());
}

#[test]
fn operator_tree_gives_nested_json_for_a_deep_sum() {
    let dir = tempfile::tempdir().unwrap();
    let mut mcp = Mcp::start(dir.path(), &[], &[]);
    let sum: Vec<String> = (0..64).map(|k| format!("x{k}")).collect();
    let statement = format!("theorem t ({} : ℕ) : {} = 0", sum.join(" "), sum.join(" + "));
    mcp.send_line(
        &json!({"jsonrpc":"2.0","id":1,"method":"tools/call",
                "params":{"name":"operator_tree","arguments":{"statement": statement, "format": "json"}}})
        .to_string(),
    );
    let line = mcp.next_line();
    assert!(line.starts_with(r#"{"jsonrpc":"2.0","id":1,"result":"#), "{line}");
    assert!(!line.contains("\"isError\":true"), "{line}");
    // Each tree level is an object and its `children` array.
    assert!(nesting(&line) >= 2 * 64, "nesting {}: {line}", nesting(&line));
}

#[test]
fn file_arguments_outside_the_servers_roots_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    let secret = dir.path().join("secret.lean");
    std::fs::write(&secret, "theorem SECRET_MARKER : True := trivial\n").unwrap();
    std::fs::write(ws.join("A.lean"), "theorem a : True := trivial\n").unwrap();
    let mut mcp = Mcp::start(&ws, &[], &[]);
    for (k, (tool, args)) in [
        ("list_references", json!({"file": secret})),
        ("list_references", json!({"file": "../secret.lean"})),
        ("operator_tree", json!({"statement": "../secret.lean::SECRET_MARKER"})),
        ("check_integrity", json!({"task": "../secret.lean", "solution": "A.lean"})),
    ]
    .into_iter()
    .enumerate()
    {
        let v = mcp.call(k as u64 + 1, tool, args);
        let text = v.to_string();
        assert_eq!(v["result"]["isError"], json!(true), "{tool}: {text}");
        assert!(text.contains("outside the workspace"), "{tool}: {text}");
        assert!(!text.contains("SECRET_MARKER : True"), "{tool}: {text}");
    }
    let v = mcp.call(9, "list_references", json!({"file": "A.lean"}));
    assert_ne!(v["result"]["isError"], json!(true), "{v}");
}

/// Calls beyond the bound are refused at once with an error; `tools/list` answers at once while
/// the bound's calls run (each here waits on a Lean stand-in whose goal queries never answer).
#[test]
fn concurrent_calls_beyond_the_bound_are_refused_and_tools_list_stays_quick() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let script = dir.path().join("stall.jsonl");
    std::fs::write(
        &script,
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "stall": true})
        .to_string()
            + "\n",
    )
    .unwrap();
    let mut mcp = Mcp::start(
        dir.path(),
        &[
            "--lean-project",
            project.to_str().unwrap(),
            "--server-command",
            STANDIN,
            "--lean-call-timeout",
            "5",
        ],
        &[("LEAN_STANDIN_SCRIPT", &script)],
    );
    let calls = 24u64;
    for id in 1..=calls {
        mcp.send_line(
            &json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":"compare_statements",
                "arguments":{"reference":"theorem r (n : ℕ) : n + 0 = n",
                             "candidate":"theorem c (m : ℕ) : m + 0 = m","metrics":["transted"]}}})
            .to_string(),
        );
    }
    let started = Instant::now();
    mcp.send_line(r#"{"jsonrpc":"2.0","id":"list","method":"tools/list"}"#);
    let mut busy = 0;
    let mut answered = 0;
    let mut listed = None;
    // Every call is answered (the running ones when --lean-call-timeout passes), and
    // `tools/list` meanwhile, at once.
    while answered < calls || listed.is_none() {
        let m = mcp.next();
        if m["id"] == "list" {
            listed = Some(started.elapsed());
            continue;
        }
        if m["id"].is_u64() {
            answered += 1;
            if m["error"]["code"] == -32000 {
                assert!(m["error"]["message"].as_str().unwrap().contains("busy"), "{m}");
                busy += 1;
            }
        }
    }
    let listed = listed.unwrap_or_default();
    assert!(listed < Duration::from_secs(3), "tools/list took {listed:?}");
    assert!(busy >= calls - 4, "{busy} of {calls} refused");
}
