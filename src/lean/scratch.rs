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
    LIVE.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
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
    crate::files::path_to_uri(path)
}

/// Keeps the scratch directory out of `git status` while it exists.
const GITIGNORE: &str = ".gitignore";

/// Write `text` at `path` (creating the directory, with a `.gitignore` of `*`) and register it
/// for removal.
///
/// The workspace is untrusted: a committed `.lean-assess-scratch` may be a symbolic link to any
/// directory, or hold a link named like a file written here. So the directory must be a real
/// directory owned by this user (created here when absent, mode 0700), and every file is
/// created anew with `O_CREAT | O_EXCL | O_NOFOLLOW`, never opened through a link or over
/// someone else's file. The text's leading `import` lines (copied from documents) must name Lean
/// modules and nothing else ([`check_imports`]).
pub fn write(path: &Path, text: &str) -> std::io::Result<()> {
    check_imports(text)?;
    if let Some(dir) = path.parent() {
        ensure_private_dir(dir)?;
        match create_new(&dir.join(GITIGNORE)) {
            Ok(mut f) => std::io::Write::write_all(&mut f, b"*\n")?,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    // A file this process made and still owns (a reopened document) is rewritten in place,
    // still never through a link; any other path must be new.
    let ours = live().as_ref().is_some_and(|s| s.contains(path));
    let mut file = if ours { open_own(path)? } else { create_new(path)? };
    live().get_or_insert_with(HashSet::new).insert(path.to_path_buf());
    std::io::Write::write_all(&mut file, text.as_bytes())
}

fn refused(what: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::PermissionDenied, what)
}

/// A new file at `path`: fails when anything (a file, a link, a dangling link) is there already.
fn create_new(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW).mode(0o600);
    }
    options.open(path)
}

/// This process's own scratch file, truncated, not through a link (recreated if it is gone).
fn open_own(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    match options.open(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => create_new(path),
        other => other,
    }
}

/// `dir` exists as a real directory (not a link) owned by this user, creating it if absent.
fn ensure_private_dir(dir: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            {
                use std::os::unix::fs::DirBuilderExt;
                builder.mode(0o700);
            }
            match builder.create(dir) {
                Ok(()) => {}
                // Another process of this user made it meanwhile: check it like any other.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
            check_dir(dir, &std::fs::symlink_metadata(dir)?)
        }
        Err(e) => Err(e),
        Ok(meta) => check_dir(dir, &meta),
    }
}

/// Refuse a scratch directory that is a link, not a directory, or someone else's.
fn check_dir(dir: &Path, meta: &std::fs::Metadata) -> std::io::Result<()> {
    if meta.file_type().is_symlink() {
        return Err(refused(format!(
            "{} is a symbolic link; scratch files are written only in a real directory of the workspace",
            dir.display()
        )));
    }
    if !meta.is_dir() {
        return Err(refused(format!("{} is not a directory", dir.display())));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me {
            return Err(refused(format!(
                "{} is owned by user {}, not by this user ({me})",
                dir.display(),
                meta.uid()
            )));
        }
    }
    Ok(())
}

/// The leading `import` lines of a scratch text must be `import` and Lean module names
/// (identifiers joined by `.`; `«…»` parts of letters, digits, `_`, `-` and `'`), so no text a
/// document chose (`import Mathlib $(…)`) is ever written to disk as a header.
pub fn check_imports(text: &str) -> std::io::Result<()> {
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        let Some(rest) = t.strip_prefix("import") else {
            break;
        };
        let modules: Vec<&str> = rest.split_whitespace().collect();
        let ok = rest.starts_with(char::is_whitespace)
            && !modules.is_empty()
            && modules.iter().all(|m| is_module_name(m));
        if !ok {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "line {}: `{}` is not an import of Lean module names",
                    n + 1,
                    t.chars().take(80).collect::<String>()
                ),
            ));
        }
    }
    Ok(())
}

/// `Mathlib.Data.Nat`, `«my-lib».Basic`, `all` (of `import all M`): a dotted Lean name.
fn is_module_name(name: &str) -> bool {
    let mut rest = name;
    loop {
        let part_len = if let Some(inner) = rest.strip_prefix('«') {
            let Some(close) = inner.find('»') else {
                return false;
            };
            let body = &inner[..close];
            if body.is_empty()
                || !body.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '\''))
            {
                return false;
            }
            '«'.len_utf8() + close + '»'.len_utf8()
        } else {
            let mut chars = rest.char_indices();
            match chars.next() {
                Some((_, c)) if c.is_alphabetic() || c == '_' => {}
                _ => return false,
            }
            chars
                .find(|(_, c)| !(c.is_alphanumeric() || matches!(c, '_' | '\'' | '!' | '?')))
                .map_or(rest.len(), |(k, _)| k)
        };
        rest = &rest[part_len..];
        if rest.is_empty() {
            return true;
        }
        match rest.strip_prefix('.') {
            Some(r) if !r.is_empty() => rest = r,
            _ => return false,
        }
    }
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
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if check_dir(dir, &meta).is_ok() => {}
        _ => return,
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let others = entries.flatten().any(|e| e.file_name().to_str() != Some(GITIGNORE));
    if !others {
        let _ = std::fs::remove_file(dir.join(GITIGNORE));
        let _ = std::fs::remove_dir(dir);
    }
}

/// Remove every scratch file this process still has (for a signal handler).
pub fn remove_all_live() {
    let paths: Vec<PathBuf> =
        live().as_ref().map(|s| s.iter().cloned().collect()).unwrap_or_default();
    for p in paths {
        remove(&p);
    }
}

/// The scratch files this process has on disk now.
pub fn live_paths() -> Vec<PathBuf> {
    live().as_ref().map(|s| s.iter().cloned().collect()).unwrap_or_default()
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
    // Never follow a committed link: its target is not ours to clean.
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if check_dir(dir, &meta).is_ok() => {}
        _ => return 0,
    }
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
            let (Ok(mut int), Ok(mut term)) =
                (signal(SignalKind::interrupt()), signal(SignalKind::terminate()))
            else {
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

    #[cfg(unix)]
    #[test]
    fn a_linked_scratch_directory_is_refused_and_nothing_is_written_through_it() {
        let tmp = tempfile::tempdir().expect("tmp");
        let outside = tmp.path().join("outside");
        std::fs::create_dir(&outside).expect("mkdir");
        let project = tmp.path().join("project");
        std::fs::create_dir(&project).expect("mkdir");
        std::os::unix::fs::symlink(&outside, dir_of(&project)).expect("link");
        let path = new_path(&dir_of(&project));
        let e = write(&path, "import Mathlib\n").expect_err("a linked directory");
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert_eq!(std::fs::read_dir(&outside).expect("ls").count(), 0);
        assert!(!live_paths().contains(&path));
        // Cleaning never follows the link either.
        std::fs::write(outside.join(format!("{PREFIX}4294967_0.lean")), "x").expect("write");
        assert_eq!(clean_stale(&dir_of(&project)), 0);
        assert_eq!(std::fs::read_dir(&outside).expect("ls").count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_gitignore_link_creates_nothing_outside() {
        let tmp = tempfile::tempdir().expect("tmp");
        let project = tmp.path().join("project");
        let dir = dir_of(&project);
        std::fs::create_dir_all(&dir).expect("mkdir");
        let target = tmp.path().join("created-outside");
        std::os::unix::fs::symlink(&target, dir.join(GITIGNORE)).expect("link");
        let path = new_path(&dir);
        write(&path, "import Mathlib\n").expect("the scratch file itself is fine");
        assert!(!target.exists(), "the link was followed");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "import Mathlib\n");
        // A link planted at the scratch file's own name is not written through either.
        let planted = new_path(&dir);
        let victim = tmp.path().join("victim");
        std::os::unix::fs::symlink(&victim, &planted).expect("link");
        assert!(write(&planted, "import Mathlib\n").is_err());
        assert!(!victim.exists());
        remove(&path);
    }

    #[test]
    fn a_reopened_scratch_file_of_this_process_is_rewritten() {
        let tmp = tempfile::tempdir().expect("tmp");
        let path = new_path(&dir_of(tmp.path()));
        write(&path, "import A\n").expect("first");
        write(&path, "import B\n").expect("again");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "import B\n");
        remove(&path);
    }

    #[test]
    fn only_module_names_are_written_as_imports() {
        for good in [
            "import Mathlib\nimport Aesop\ntheorem t : True := trivial\n",
            "import Mathlib.Data.Nat.Basic «my-lib».Basic\n",
            "import all Foo.Bar\n\nimport x\n",
        ] {
            assert!(check_imports(good).is_ok(), "{good}");
        }
        for bad in [
            "import Mathlib $(touch /tmp/pwned)\n",
            "import Mathlib\nimport `whoami`\n",
            "import Foo.\n",
            "import «a b»\n",
            "import\n",
            "importX\n",
        ] {
            let e = check_imports(bad).expect_err(bad);
            assert!(e.to_string().contains("not an import"), "{e}");
        }
        let tmp = tempfile::tempdir().expect("tmp");
        let path = new_path(&dir_of(tmp.path()));
        assert!(write(&path, "import Mathlib ; rm -rf ~\n").is_err());
        assert!(!path.exists());
    }
}
