//! What a test needs from the machine: a program on PATH or a package that
//! `scripts/install-test-deps.sh` installs. A missing one fails the test, naming it and the
//! command that installs it; nothing here lets a test pass without running. What can never be
//! installed here (a real Lean toolchain) is not asked for here: such tests are `#[ignore]`d
//! with the reason.

use std::path::{Path, PathBuf};

/// The script that installs every tool the tests need.
pub const INSTALL_TEST_DEPS: &str = "scripts/install-test-deps.sh";

/// The first of `dirs` holding an executable file `name`.
fn find_in(dirs: impl IntoIterator<Item = PathBuf>, name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    dirs.into_iter()
        .map(|d| d.join(name))
        .find(|p| p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
}

/// `name`'s path on PATH, if it is there.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    find_in(std::env::split_paths(&path), name)
}

/// `tool`'s path on PATH; panics naming the missing tool and how to install it.
pub fn require_tool(tool: &str) -> PathBuf {
    require_any_tool(&[tool])
}

/// The path of the first of `names` on PATH (one program under its names on different systems);
/// panics naming them and how to install them.
pub fn require_any_tool(names: &[&str]) -> PathBuf {
    names.iter().find_map(|name| on_path(name)).unwrap_or_else(|| {
        panic!(
            "this test needs `{}` on PATH: install the test dependencies with {INSTALL_TEST_DEPS}",
            names.join("` or `")
        )
    })
}

/// Panics unless `file` (relative to the repository) exists: a dependency installed into the
/// tree, named by `what` and installed by `install`.
pub fn require_installed(file: &str, what: &str, install: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    assert!(
        path.exists(),
        "this test needs {what} ({file} is missing): install it with `{install}` or {INSTALL_TEST_DEPS}"
    );
    path
}
