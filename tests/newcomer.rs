//! The newcomer's path: the README's test command, `scripts/test-all.sh`, installs
//! what the tests need or stops at once — before the long build — naming what is missing.
//! Here on a PATH without node/npm: with installing switched off it stops in seconds naming
//! them; with installing on and no apt-get it stops in seconds saying so.

mod common;

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn test_all_stops_at_once_when_a_tool_is_missing() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = tempfile::tempdir().expect("tmp");
    // A machine with bash, coreutils basics, cargo and python3, but no node, npm or apt-get.
    for tool in ["bash", "dirname", "id", "cargo", "python3", "env"] {
        symlink(common::require_tool(tool), bin.path().join(tool)).expect("link");
    }
    let run = |no_install: bool| {
        let started = Instant::now();
        let mut cmd = Command::new(bin.path().join("bash"));
        cmd.arg(repo.join("scripts/test-all.sh"))
            .env_clear()
            .env("PATH", bin.path())
            .env("HOME", bin.path());
        if no_install {
            cmd.env("LEAN_ASSESS_NO_INSTALL", "1");
        }
        let out = cmd.output().expect("run test-all.sh");
        (out, started.elapsed())
    };
    let (out, took) = run(true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(took < Duration::from_secs(30), "took {took:?}");
    assert!(
        stderr.contains("missing: ") && stderr.contains("nodejs npm"),
        "names what is missing: {stderr}"
    );
    assert!(stderr.contains("stopped before building"), "{stderr}");

    let (out, took) = run(false);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(took < Duration::from_secs(30), "took {took:?}");
    assert!(
        stderr.contains("nodejs npm")
            && (stderr.contains("apt-get is not available")
                || stderr.contains("no password-less sudo")),
        "says why it cannot install: {stderr}"
    );
}
