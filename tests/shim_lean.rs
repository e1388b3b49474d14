//! The shim answering as `lean`: in a folder without a lakefile, both editors
//! start `lean --server`, which must run the proxy in front of the real `lean --server`; any other
//! `lean` call is handed over unchanged. And `shim --check` repairs a shim whose binary is gone.

mod common;

use common::{assert_symlink, run_with_path, write_shell_script, Editor, PROXY, STANDIN};
use serde_json::json;
use std::path::Path;
use std::process::Command;

#[test]
fn lean_server_runs_behind_the_proxy_and_other_lean_calls_are_handed_over() {
    let tmp = tempfile::tempdir().expect("tmp");
    let shim = tmp.path().join("shim");
    let home = tmp.path().join("home");
    let out = Command::new(PROXY)
        .arg("shim")
        .arg(&shim)
        .env("HOME", &home)
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("run shim");
    assert!(out.status.success(), "{out:?}");
    let lean = shim.join("lean");
    assert_symlink(&lean);

    // A "real" lean further down PATH: `--server` starts the stand-in, anything else echoes.
    let real = tmp.path().join("real");
    std::fs::create_dir_all(&real).expect("dir");
    let seen = tmp.path().join("seen-args");
    write_shell_script(
        &real.join("lean"),
        &format!(
            "echo \"$*\" > {seen}\nif [ \"$1\" = --server ]; then exec {STANDIN}; fi\necho \"real lean: $*\"; exit 3",
            seen = seen.display()
        ),
    );
    let path = format!("{}:{}:/usr/bin:/bin", shim.display(), real.display());
    let out = run_with_path(&lean, &["--version"], &path, &home);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "real lean: --version\n");

    // `lean --server` (what vscode-lean4 and lean.nvim start without a lakefile): the proxy in
    // front; the proxy's own capabilities (code lens) show it is there.
    let mut ed = Editor::shimmed(&lean, &["--server"], &path, &home, tmp.path());
    let init = ed.initialize();
    assert_eq!(init["result"]["serverInfo"]["name"], "Lean 4 Server");
    assert!(
        init["result"]["capabilities"]["codeLensProvider"].is_object(),
        "no proxy in front: {init}"
    );
    assert_eq!(std::fs::read_to_string(&seen).expect("real lean ran").trim(), "--server");
    ed.shutdown_and_exit(json!(1));

    // `lean +tc --server` with a real lean that is not elan's and no elan: one clear error.
    let out = run_with_path(&lean, &["+leanprover/lean4:v4.30.0", "--version"], &path, &home);
    assert_eq!(out.status.code(), Some(127));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs elan"), "{out:?}");
}

#[test]
fn shim_check_repairs_links_to_a_removed_binary() {
    let tmp = tempfile::tempdir().expect("tmp");
    let shim = tmp.path().join("shim");
    std::fs::create_dir_all(&shim).expect("dir");
    // A shim left pointing into a build directory that `cargo clean` removed.
    std::os::unix::fs::symlink(
        tmp.path().join("gone/target/release/lean-assess"),
        shim.join("lake"),
    )
    .expect("link");
    let run = || {
        Command::new(PROXY)
            .args(["shim", "--check"])
            .arg(&shim)
            .env("HOME", tmp.path().join("home"))
            .env("PATH", "/usr/bin:/bin")
            .output()
            .expect("run")
    };
    let out = run();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(text.contains("does not exist"), "{text}");
    assert!(text.contains("lean is missing"), "{text}");
    assert!(text.contains("repaired"), "{text}");
    let want = Path::new(PROXY).canonicalize().expect("bin");
    for tool in ["lake", "lean"] {
        assert_eq!(shim.join(tool).canonicalize().expect("link"), want);
    }
    let out = run();
    assert!(String::from_utf8_lossy(&out.stdout).contains("shim ok"), "{out:?}");
}
