//! Faults through `lean-assess serve`: the server crashing, hanging on exit, sending garbage;
//! the editor closing its stream or sending garbage; no server at all; the `lake` shim; and a
//! real `lake serve` when one is on PATH.

mod common;

use common::{
    assert_symlink, is_running, run_with_path, write_shell_script, Editor, PROXY, STANDIN, WAIT,
};
use serde_json::{json, Value};
use std::process::Command;
use std::time::{Duration, Instant};

/// The server's crash is shown to the user as an error naming its exit status `code` and
/// each of `fragments`, and the proxy exits with the same status.
fn assert_crash_shown(ed: &mut Editor, code: i32, fragments: &[&str]) {
    let shown = ed.recv_matching(|m| m["method"] == "window/showMessage");
    assert_eq!(shown["params"]["type"], 1);
    let text = shown["params"]["message"].as_str().expect("message");
    assert!(text.contains(&format!("exit status {code}")), "{text}");
    for fragment in fragments {
        assert!(text.contains(fragment), "{text}");
    }
    let status = ed.wait(WAIT).expect("the proxy exits");
    assert_eq!(status.code(), Some(code));
}

#[test]
fn crash_reports_status_and_stderr_and_exits_nonzero() {
    let mut ed = Editor::proxy(&[]);
    initialize(&mut ed);
    let pid = ed.request(json!(1), "standin/pid", Value::Null)["result"]["pid"]
        .as_u64()
        .expect("pid") as u32;
    ed.notify(
        "standin/crash",
        json!({"code": 3, "stderr": ["[file:///a.lean] stack overflow", "Watchdog error: worker crashed"]}),
    );
    assert_crash_shown(&mut ed, 3, &["Watchdog error: worker crashed", "stack overflow"]);
    assert!(!is_running(pid));
    // Lean's stderr went through unchanged to the proxy's stderr; the proxy added nothing.
    let lines = stderr_lines_until(&mut ed, 2);
    assert_eq!(lines, ["[file:///a.lean] stack overflow", "Watchdog error: worker crashed"]);
}

#[test]
fn editor_closing_stdin_shuts_lean_down() {
    let dir = tempfile::tempdir().expect("tmp");
    let record = dir.path().join("received.jsonl");
    let record_s = record.to_string_lossy().into_owned();
    let mut ed = Editor::proxy(&[("LEAN_STANDIN_RECORD", record_s.as_str())]);
    initialize(&mut ed);
    let pid = ed.request(json!(1), "standin/pid", Value::Null)["result"]["pid"]
        .as_u64()
        .expect("pid") as u32;
    ed.close_stdin();
    let status = ed.wait(WAIT).expect("the proxy exits");
    assert!(status.success(), "{status:?}");
    assert!(!is_running(pid));
    let received: Vec<Value> = std::fs::read_to_string(&record)
        .expect("record")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let n = received.len();
    assert!(n >= 2);
    assert_eq!(received[n - 2]["method"], "shutdown");
    assert!(received[n - 2]["id"].as_str().expect("own string id").starts_with("lean-assess:"));
    assert_eq!(received[n - 1]["method"], "exit");
    // The editor saw nothing of it (and nothing after the pid reply).
    assert!(ed.recv_raw(Duration::from_millis(100)).is_none());
}

#[test]
fn server_hanging_on_exit_is_killed_after_the_grace_period() {
    let mut ed = Editor::proxy(&[("LEAN_STANDIN_IGNORE_EXIT", "1")]);
    initialize(&mut ed);
    let pid = ed.request(json!(1), "standin/pid", Value::Null)["result"]["pid"]
        .as_u64()
        .expect("pid") as u32;
    let started = Instant::now();
    ed.close_stdin();
    ed.wait(Duration::from_secs(15)).expect("the proxy exits");
    assert!(started.elapsed() < Duration::from_secs(12), "{:?}", started.elapsed());
    assert!(!is_running(pid), "the stand-in was left running");
}

#[test]
fn garbage_bodies_pass_and_the_session_survives() {
    let mut ed = Editor::proxy(&[]);
    initialize(&mut ed);
    // From Lean: a body that is not JSON is forwarded as it is.
    ed.notify("standin/emitRaw", json!({"bodies": ["{not json", "[1,2]"]}));
    assert_eq!(ed.recv_raw(WAIT).expect("raw"), b"{not json");
    assert_eq!(ed.recv_raw(WAIT).expect("raw"), b"[1,2]");
    // From the editor: not JSON → forwarded (Lean decides); an invalid request → -32600.
    ed.send_raw(b"\x00\xffgarbage");
    ed.send(&json!({"jsonrpc": "2.0", "id": 9, "method": 17}));
    let invalid = ed.recv_matching(|m| m["id"] == 9);
    assert_eq!(invalid["error"]["code"], -32600);
    // Still alive both ways.
    let echo = ed.request(json!(10), "standin/echo", json!({"still": "alive"}));
    assert_eq!(echo["result"]["received"]["params"], json!({"still": "alive"}));
}

#[test]
fn bad_header_from_lean_ends_its_stream_and_is_reported() {
    let mut ed = Editor::proxy(&[]);
    initialize(&mut ed);
    ed.notify("standin/badHeader", Value::Null);
    let shown = ed.recv_matching(|m| m["method"] == "window/showMessage");
    assert_eq!(shown["params"]["type"], 1);
    let status = ed.wait(WAIT).expect("the proxy exits");
    assert!(!status.success());
    assert!(ed.log_text().contains("bad frame header"), "{}", ed.log_text());
}

#[test]
fn bad_header_from_the_editor_ends_the_session_cleanly() {
    let mut ed = Editor::proxy(&[]);
    initialize(&mut ed);
    ed.send_bytes(b"Content-Length: twelve\r\n\r\n{}");
    let status = ed.wait(WAIT).expect("the proxy exits");
    assert!(status.success(), "{status:?}");
    assert!(ed.log_text().contains("bad frame header"));
}

#[test]
fn missing_server_is_reported_to_the_editor() {
    let mut ed = Editor::proxy_with(&["/nonexistent/lake", "serve", "--"], &[]);
    let shown = ed.recv();
    assert_eq!(shown["method"], "window/showMessage");
    assert_eq!(shown["params"]["type"], 1);
    assert!(shown["params"]["message"]
        .as_str()
        .expect("text")
        .contains("/nonexistent/lake serve --"));
    let init = ed.request(json!(0), "initialize", json!({"capabilities": {}}));
    assert_eq!(init["error"]["code"], -32603);
    ed.close_stdin();
    let status = ed.wait(WAIT).expect("exits");
    assert_eq!(status.code(), Some(1));
}

/// The proxy's stderr lines, waiting (bounded) until `n` have arrived: the relay is
/// asynchronous, so the event waited for is the lines themselves, not a time.
fn stderr_lines_until(ed: &mut Editor, n: usize) -> Vec<String> {
    let deadline = Instant::now() + WAIT;
    let mut lines = Vec::new();
    while lines.len() < n && Instant::now() < deadline {
        lines.extend(ed.stderr_lines());
        std::thread::yield_now();
    }
    // Anything beyond `n` that is already there would be a line the proxy added: keep it so the
    // caller's comparison sees it.
    lines.extend(ed.stderr_lines());
    lines
}

#[test]
fn crash_mid_frame_fails_waiting_requests_and_reports_status_and_stderr() {
    // A "server" that dies while writing its first message, after saying why on stderr.
    let script = "read line; printf 'Content-Length: 100\r\n\r\n{\"jsonrpc\"'; \
                  echo 'INTERNAL PANIC: out of memory' >&2; exit 5";
    let mut ed = Editor::proxy_with(&["sh", "-c", script], &[]);
    ed.send(
        &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}),
    );
    // The request Lean never answered gets an error reply (LSP RequestFailed), not silence.
    let reply = ed.recv_matching(|m| m["id"] == 0);
    assert_eq!(reply["error"]["code"], -32803, "{reply}");
    assert_crash_shown(&mut ed, 5, &["middle of a message", "INTERNAL PANIC: out of memory"]);
    let log = ed.log_text();
    assert!(log.contains("exit status 5") && log.contains("INTERNAL PANIC"), "{log}");
}

#[test]
fn a_body_without_a_header_is_logged() {
    // One body with no header at all, then a proper frame.
    let script = "printf '{\"jsonrpc\":\"2.0\",\"method\":\"headless\"}\n'; \
                  printf 'Content-Length: 35\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"framed\"}'; \
                  cat >/dev/null";
    let mut ed = Editor::proxy_with(&["sh", "-c", script], &[]);
    assert_eq!(ed.recv()["method"], "framed");
    // The log is written as the line is skipped, before the next frame is forwarded.
    let log = ed.log_text();
    assert!(log.contains("skipped a line outside any frame") && log.contains("headless"), "{log}");
    ed.close_stdin();
    ed.wait(WAIT).expect("the proxy exits");
}

/// initialize + initialized, and Lean's register_lean_watcher request that follows.
fn initialize(ed: &mut Editor) {
    ed.initialize();
    ed.recv_matching(|m| m["id"] == "register_lean_watcher");
}

#[test]
fn shim_installs_and_dispatches() {
    let tmp = tempfile::tempdir().expect("tmp");
    let shim = tmp.path().join("shim");
    let out = Command::new(PROXY).arg("shim").arg(&shim).output().expect("run shim");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("utf8");
    let shim_c = shim.canonicalize().expect("dir");
    assert!(
        text.contains(&format!("\"lean4.envPathExtensions\": [\"{}\"]", shim_c.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("cmd_env = {{ PATH = '{}:' .. vim.env.PATH }}", shim_c.display())),
        "{text}"
    );
    let lake = shim.join("lake");
    assert_symlink(&lake);

    // A "real" lake further down PATH: other commands are handed over unchanged.
    let real = tmp.path().join("real");
    std::fs::create_dir_all(&real).expect("dir");
    write_shell_script(&real.join("lake"), &format!("if [ \"$1\" = serve ]; then exec {STANDIN}; fi\necho \"real lake: $*\"; echo \"err\" >&2; exit 7"));
    let path = format!("{}:{}", shim.display(), real.display());
    let home = tmp.path().join("home");
    let out = run_with_path(&lake, &["build", "My Lib", "--verbose"], &path, &home);
    assert_eq!(out.status.code(), Some(7));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "real lake: build My Lib --verbose\n");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "err\n");

    // `lake serve -- DIR` runs the proxy in front of the real `lake serve`.
    let mut ed = Editor::shimmed(&lake, &["serve", "--", "/ws"], &path, &home, tmp.path());
    let init = ed.initialize();
    assert_eq!(init["result"]["serverInfo"]["name"], "Lean 4 Server");
    ed.shutdown_and_exit(json!(1));

    // No real lake: a clear error.
    let out = run_with_path(&lake, &["build"], &shim, &home);
    assert_eq!(out.status.code(), Some(127));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no real `lake` found"));
}

/// `lean-assess serve` with no server named starts the real `lake serve` and initializes.
#[test]
#[ignore = "needs a real Lean toolchain (`lake` on PATH), which the tests cannot install"]
fn real_lake_serve_initializes() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut cmd = Command::new(PROXY);
    cmd.arg("serve").arg("--log").arg(tmp.path().join("log")).current_dir(tmp.path());
    let mut ed = Editor::spawn(cmd, &[], tmp);
    let init = ed.initialize();
    assert_eq!(init["result"]["capabilities"]["hoverProvider"], true);
    ed.shutdown_and_exit(json!(1));
}
