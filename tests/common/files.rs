//! The shim's surroundings as a test lays them out: executable shell scripts that stand in for
//! other programs (a "real" `lake` or `lean` further down PATH), the check that a shim entry is
//! a link, and a program run under a PATH and HOME of the test's choosing. It writes only
//! where the test says.

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

/// An executable `#!/bin/sh` script at `path` running `body`.
pub fn write_shell_script(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).expect("write");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// Panics unless `path` is a symbolic link (not followed).
pub fn assert_symlink(path: &Path) {
    let meta =
        std::fs::symlink_metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(meta.file_type().is_symlink(), "{} is not a link", path.display());
}

/// `program ARGS` run with this PATH and HOME (the rest of the environment inherited).
pub fn run_with_path(
    program: &Path,
    args: &[&str],
    path: impl AsRef<OsStr>,
    home: &Path,
) -> Output {
    Command::new(program)
        .args(args)
        .env("PATH", path)
        .env("HOME", home)
        .output()
        .unwrap_or_else(|e| panic!("run {}: {e}", program.display()))
}
