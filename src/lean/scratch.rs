//! Scratch files on disk: where the oracle's hidden documents live inside the workspace, and how
//! they are never left behind.
//!
//! Why on disk: some Lake versions resolve a document's module with `realPath` (which fails for
//! a file that does not exist, giving a header error), and a URI outside the server's root is
//! refused ("must be contained in root directory"). So each scratch document is a real file in a
//! dedicated hidden directory of the Lake project (`<project>/.lean-assess-scratch/`), named
//! `lean_assess_scratch_<pid>_<n>.lean` (a valid module name component; the pid says which
//! process owns it), written before its `didOpen` and removed when it is closed.
//!
//! Never left behind: every live file is in a process-wide registry; the oracle removes its
//! files on close and on drop, [`remove_all_live`] is what a signal handler calls
//! ([`remove_on_signal`] installs one for batch runs), and [`clean_stale`] removes, at start, the
//! files of processes that are gone (killed with SIGKILL, power loss).
//!
//! Leaves to others: the documents' text and protocol (`super::oracle`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The hidden directory of a project that holds the scratch files.
pub const DIR_NAME: &str = ".lean-assess-scratch";
/// Every scratch file name starts with this.
const PREFIX: &str = "lean_assess_scratch_";

static NEXT: AtomicU64 = AtomicU64::new(0);
static LIVE: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

fn live() -> std::sync::MutexGuard<'static, Option<HashSet<PathBuf>>> {
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The scratch directory of a project.
pub fn dir_of(project: &Path) -> PathBuf {
    project.join(DIR_NAME)
}

/// A fresh path in `dir` owned by this process (unique within it).
pub fn new_path(dir: &Path) -> PathBuf {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    dir.join(format!("{PREFIX}{}_{n}.lean", std::process::id()))
}

/// `file://` URI of a path (percent-encoding what is not unreserved).
pub fn file_uri(path: &Path) -> String {
    crate::references::path_to_uri(path)
}

/// Keeps the scratch directory out of `git status` while it exists.
const GITIGNORE: &str = ".gitignore";

/// Write `text` at `path` (creating the directory, with a `.gitignore` of `*`) and register it
/// for removal.
pub fn write(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
        let ignore = dir.join(GITIGNORE);
        if !ignore.exists() {
            std::fs::write(ignore, "*\n")?;
        }
    }
    live()
        .get_or_insert_with(HashSet::new)
        .insert(path.to_path_buf());
    std::fs::write(path, text)
}

/// Remove `path` (if it exists) and forget it.
pub fn remove(path: &Path) {
    if let Some(set) = live().as_mut() {
        set.remove(path);
    }
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => tracing::warn!(path = %path.display(), %e, "cannot remove a scratch file"),
    }
    if let Some(dir) = path.parent() {
        remove_dir_if_unused(dir);
    }
}

/// The directory goes when nothing but its `.gitignore` is left (`remove_dir` refuses a
/// non-empty one, so a user's file there keeps it).
fn remove_dir_if_unused(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let others = entries
        .flatten()
        .any(|e| e.file_name().to_str() != Some(GITIGNORE));
    if !others {
        let _ = std::fs::remove_file(dir.join(GITIGNORE));
        let _ = std::fs::remove_dir(dir);
    }
}

/// Remove every scratch file this process still has (for a signal handler).
pub fn remove_all_live() {
    let paths: Vec<PathBuf> = live()
        .as_ref()
        .map(|s| s.iter().cloned().collect())
        .unwrap_or_default();
    for p in paths {
        remove(&p);
    }
}

/// The scratch files this process has on disk now.
pub fn live_paths() -> Vec<PathBuf> {
    live()
        .as_ref()
        .map(|s| s.iter().cloned().collect())
        .unwrap_or_default()
}

/// The owner pid in a scratch file name (`None`: not a scratch file).
fn owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(PREFIX)?.strip_suffix(".lean")?;
    let (pid, n) = rest.split_once('_')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// Whether a process with this pid is running (Linux: `/proc/<pid>`; elsewhere unknown, so
/// assumed running and its files are kept).
fn running(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let proc = Path::new("/proc");
    if proc.join("self").exists() {
        proc.join(pid.to_string()).exists()
    } else {
        true
    }
}

/// Remove the scratch files in `dir` whose owner process is gone; returns how many.
pub fn clean_stale(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name.to_str().and_then(owner) else {
            continue;
        };
        if !running(pid) && std::fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    remove_dir_if_unused(dir);
    removed
}

/// On SIGINT / SIGTERM: remove this process's scratch files, then exit with 128 + the signal
/// (batch runs; the proxy's own shutdown path drops its oracles). Needs a tokio runtime.
pub fn remove_on_signal() {
    tokio::spawn(async {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let (Ok(mut int), Ok(mut term)) = (
                signal(SignalKind::interrupt()),
                signal(SignalKind::terminate()),
            ) else {
                return;
            };
            let code = tokio::select! {
                _ = int.recv() => 130,
                _ = term.recv() => 143,
            };
            remove_all_live();
            std::process::exit(code);
        }
        #[cfg(not(unix))]
        {
            if tokio::signal::ctrl_c().await.is_ok() {
                remove_all_live();
                std::process::exit(130);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_the_owner_pid() {
        let p = new_path(Path::new("/w/.lean-assess-scratch"));
        let name = p.file_name().and_then(|n| n.to_str()).expect("name");
        assert_eq!(owner(name), Some(std::process::id()));
        assert_eq!(owner("Main.lean"), None);
        assert_eq!(owner("lean_assess_scratch_x_1.lean"), None);
    }

    #[test]
    fn stale_files_of_dead_processes_are_removed_live_ones_kept() {
        let dir = tempfile::tempdir().expect("tmp");
        let d = dir.path().join(DIR_NAME);
        let mine = new_path(&d);
        write(&mine, "import Lean\n").expect("write");
        // A pid that cannot be running (above Linux's pid_max of 2^22).
        let dead = d.join(format!("{PREFIX}4294967_0.lean"));
        std::fs::write(&dead, "x").expect("write");
        let user = d.join("Notes.lean");
        std::fs::write(&user, "x").expect("write");
        let removed = clean_stale(&d);
        if Path::new("/proc/self").exists() {
            assert_eq!(removed, 1);
            assert!(!dead.exists());
        }
        assert!(mine.exists() && user.exists());
        remove(&mine);
        assert!(!mine.exists());
        assert!(!live_paths().contains(&mine));
    }
}
