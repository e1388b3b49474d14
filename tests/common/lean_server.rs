//! A Lean server for the library's own client (`lean::oracle::connect_direct`), no proxy in
//! between: the scripted stand-in with its rules in a temporary file, or any command speaking
//! LSP on stdio (a real `lean --server`). It spawns, connects and initializes; the tests judge.

use super::STANDIN;
use lean_assess::lean::oracle::{connect_direct, initialize};
use lean_assess::lean::LeanClient;
use serde_json::Value;
use std::io::Write;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::BufReader;
use tokio::process::{Child, Command};

/// A connected, initialized server; the process is killed when this is dropped.
pub struct LeanServer {
    pub child: Child,
    pub client: Arc<LeanClient>,
    _script: Option<tempfile::NamedTempFile>,
}

/// `cmd` spawned with piped stdio, connected, and initialized with this workspace root
/// within `timeout`.
pub async fn connect_lean(
    mut cmd: Command,
    root_uri: Option<&str>,
    timeout: Duration,
) -> LeanServer {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {cmd:?}: {e}"));
    let client = connect_direct(
        BufReader::new(child.stdout.take().expect("stdout")),
        child.stdin.take().expect("stdin"),
    );
    initialize(&client, root_uri, timeout).await.expect("initialize");
    LeanServer { child, client, _script: None }
}

/// The stand-in scripted with `rules` (one JSON rule a line, `LEAN_STANDIN_SCRIPT`), connected
/// and initialized.
pub async fn standin_server(rules: &[Value]) -> LeanServer {
    let mut script = tempfile::NamedTempFile::new().expect("temp script");
    for r in rules {
        writeln!(script, "{r}").expect("write script");
    }
    let mut cmd = Command::new(STANDIN);
    cmd.env("LEAN_STANDIN_SCRIPT", script.path());
    let server = connect_lean(cmd, None, Duration::from_secs(10)).await;
    LeanServer { _script: Some(script), ..server }
}
