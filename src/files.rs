//! Reading the files a user names, safely: a regular file of bounded size, never a FIFO or a
//! device; a Lake project's root; `file://` URIs and paths; a byte offset's line; and the one
//! error shape every user-written file reports (`file:line: message`).
//!
//! Owns no policy about what a file means or which folders may be read: the config and the
//! readable roots are `crate::config`, directives and datasets `crate::references`.

use std::path::{Path, PathBuf};

/// A problem in a config file, directive or dataset, at `file:line` (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}: {message}", file.display())]
pub struct FileError {
    pub file: PathBuf,
    pub line: usize,
    pub message: String,
}

impl FileError {
    pub fn new(file: &Path, line: usize, message: impl Into<String>) -> FileError {
        FileError { file: file.to_path_buf(), line, message: message.into() }
    }
}

/// 1-based line of a byte offset in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset].iter().filter(|b| **b == b'\n').count() + 1
}

/// Files that mark a Lake project's root (lake `src/lake/Lake/Load/Config.lean` looks for
/// `lakefile.lean` / `lakefile.toml`; `lake-manifest.json` and `lean-toolchain` sit next to it).
const LAKE_ROOT_MARKERS: [&str; 4] =
    ["lakefile.lean", "lakefile.toml", "lake-manifest.json", "lean-toolchain"];

/// The largest Lean source file read from a workspace (a task, a reference file, a solution).
pub const MAX_SOURCE_BYTES: u64 = 8 << 20;
/// The largest config file read.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;
/// The largest reference dataset read.
pub const MAX_DATASET_BYTES: u64 = 256 << 20;

/// Read `path` as UTF-8 text when it is a regular file of at most `limit` bytes; a FIFO, a
/// device (`/dev/zero`), a directory or a larger file is refused with a message naming it,
/// without blocking (opened non-blocking, checked on the open handle) and without reading more
/// than `limit` + 1 bytes (a file that grows while read is refused too).
pub fn read_regular_file(path: &Path, limit: u64) -> Result<String, String> {
    let bytes = read_regular_bytes(path, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        format!("{}: line {line}: not valid UTF-8", path.display())
    })
}

/// [`read_regular_file`]'s bytes, not checked as UTF-8.
pub fn read_regular_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let meta = file.metadata().map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!(
            "{}: not a regular file (a directory, device or pipe is never read)",
            path.display()
        ));
    }
    let too_big = || format!("{}: larger than the limit of {} MiB", path.display(), limit >> 20);
    if meta.len() > limit {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if bytes.len() as u64 > limit {
        return Err(too_big());
    }
    Ok(bytes)
}

/// The nearest folder from `dir` up that holds a Lake project marker.
pub fn lake_root(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| LAKE_ROOT_MARKERS.iter().any(|m| d.join(m).is_file()))
        .map(Path::to_path_buf)
}

/// `a/./b/../c` → `a/c` without touching the file system (`..` at the root stays at the root).
pub fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `file:///a/b%20c.lean` → `/a/b c.lean`; `None` for other schemes.
pub fn uri_to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path` is not local; `file:///path` has an empty host.
    let path = if rest.starts_with('/') { rest } else { rest.strip_prefix("localhost")? };
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(v) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok().map(PathBuf::from)
}

/// `/a/b c.lean` → `file:///a/b%20c.lean` (RFC 3986: unreserved and `/` kept, rest escaped).
pub fn path_to_uri(path: &Path) -> String {
    let s = path.to_string_lossy();
    let mut out = String::from("file://");
    if !s.starts_with('/') {
        out.push('/');
    }
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

pub fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn only_bounded_regular_files_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_regular_file(Path::new("/dev/zero"), MAX_SOURCE_BYTES).unwrap_err();
        assert!(e.contains("/dev/zero: not a regular file"), "{e}");
        let e = read_regular_file(dir.path(), MAX_SOURCE_BYTES).unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let big = dir.path().join("big.lean");
        std::fs::write(&big, vec![b'a'; 2 << 20]).unwrap();
        let e = read_regular_file(&big, 1 << 20).unwrap_err();
        assert!(e.contains("big.lean: larger than the limit of 1 MiB"), "{e}");
        assert_eq!(read_regular_file(&big, 2 << 20).unwrap().len(), 2 << 20);
    }

    #[test]
    fn uris_and_paths_round_trip() {
        let p = Path::new("/home/u/My Proj/Ünïcode ℝ.lean");
        let uri = path_to_uri(p);
        assert_eq!(uri, "file:///home/u/My%20Proj/%C3%9Cn%C3%AFcode%20%E2%84%9D.lean");
        assert_eq!(uri_to_path(&uri).unwrap(), p);
        assert_eq!(uri_to_path("untitled:Untitled-1"), None);
        assert_eq!(uri_to_path("file:///bad%zz").unwrap(), Path::new("/bad%zz"));
        assert_eq!(uri_to_path("file:///trailing%4").unwrap(), Path::new("/trailing%4"));
    }
}
