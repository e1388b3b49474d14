//! Resolving a theorem's reference source to the reference statement's text: from a file (the
//! editor's buffer first), a dataset, or inline, within the readable roots. Owns [`Reads`],
//! what one job looked up; the caches across jobs are `JobCaches`', parsing is `prepare`'s.

use super::super::cache::{JobCaches, RefFile, Stamp};
use super::{JobInput, RefView};
use crate::config::{Config, ReadableRoots};
use crate::documents::Document;
use crate::references::{Dataset, ReferenceSource};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The text of `path`: an open document's, else the regular file's (bounded).
fn read_text(path: &Path, open: &HashMap<PathBuf, Arc<Document>>) -> Result<String, String> {
    if let Some(d) = open.get(path) {
        return Ok(d.text().to_string());
    }
    crate::files::read_regular_file(path, crate::files::MAX_SOURCE_BYTES)
}

/// Files and datasets used during one job: each looked up (and its stamp taken) once per job;
/// read and scanned only when [`JobCaches`] has no entry for its current stamp.
pub(super) struct Reads<'c> {
    caches: &'c JobCaches,
    pub(super) files: HashMap<PathBuf, Result<Arc<RefFile>, String>>,
    datasets: HashMap<PathBuf, Arc<Result<Dataset, String>>>,
    /// [`ReadableRoots::check`] by path: it resolves links (system calls), once per job.
    checked: HashMap<PathBuf, Result<(), String>>,
    /// Files found readable and current (their cached `Arc`) in this job, by identity.
    pub(super) current: Vec<Arc<RefFile>>,
}

impl<'c> Reads<'c> {
    pub(super) fn new(caches: &'c JobCaches) -> Reads<'c> {
        Reads {
            caches,
            files: HashMap::new(),
            datasets: HashMap::new(),
            checked: HashMap::new(),
            current: Vec::new(),
        }
    }

    /// [`ReadableRoots::check`] of `path`, once per job.
    pub(super) fn check(&mut self, readable: &ReadableRoots, path: &Path) -> Result<(), String> {
        if let Some(r) = self.checked.get(path) {
            return r.clone();
        }
        let r = readable.check(path);
        self.checked.insert(path.to_path_buf(), r.clone());
        r
    }

    /// The reference file at `path` as this job reads it: the editor's buffer first, else the
    /// file on disk, from `JobCaches` while its stamp is unchanged.
    pub(super) fn file(
        &mut self,
        path: &Path,
        open: &HashMap<PathBuf, Arc<Document>>,
    ) -> Result<Arc<RefFile>, String> {
        if let Some(f) = self.files.get(path) {
            return f.clone();
        }
        // The editor's buffer first (what the user sees), else the file on disk.
        let stamp = match open.get(path) {
            Some(d) => Some(Stamp::Open { uri: d.uri.clone(), version: d.version }),
            None => Stamp::of_disk(path),
        };
        let f = self.caches.file(path, stamp, || read_text(path, open));
        self.files.insert(path.to_path_buf(), f.clone());
        f
    }

    fn dataset(&mut self, path: &Path) -> Arc<Result<Dataset, String>> {
        let caches = self.caches;
        self.datasets.entry(path.to_path_buf()).or_insert_with(|| caches.dataset(path)).clone()
    }
}

/// The statement text and header of theorem `name` in a file (a dotted name may be given by
/// its last component).
fn theorem_in(f: &RefFile, name: &str) -> Option<(String, String)> {
    let d = f.find(name)?;
    let stmt = f.text.get(d.start..d.end)?.to_string();
    Some((stmt, f.header.to_string()))
}

/// Resolve one source to a reference statement (reading files/datasets as needed).
pub(super) fn resolve(
    src: &ReferenceSource,
    cand_header: &str,
    config: Option<&Config>,
    reads: &mut Reads,
    input: &JobInput,
    readable: &ReadableRoots,
) -> Result<RefView, String> {
    let view = |name: Option<String>, text: String, header: String, file: Option<PathBuf>| {
        RefView { origin: src.origin().to_string(), name, text, header, statement: None, file }
    };
    match src {
        ReferenceSource::Inline { text, .. } => {
            let name = text.split_whitespace().nth(1).map(str::to_string);
            Ok(view(name, text.clone(), cand_header.to_string(), None))
        }
        ReferenceSource::Theorem { target, origin } => {
            let name = target.name.clone().unwrap_or_default();
            reads.check(readable, &target.file).map_err(|e| format!("{origin}: {e}"))?;
            let file = reads
                .file(&target.file, &input.open_texts)
                .map_err(|e| format!("{origin}: {e}"))?;
            let (stmt, header) = theorem_in(&file, &name).ok_or_else(|| {
                format!("{origin}: no theorem `{name}` in {}", target.file.display())
            })?;
            Ok(view(Some(name), stmt, header, Some(target.file.clone())))
        }
        ReferenceSource::Named { name, origin } => {
            let cfg = config.ok_or_else(|| match &input.config {
                // Said once, with the file and line, by the job's message.
                Some(Err(_)) => {
                    format!("{origin}: `{name}` is not looked up: lean-assess.toml has an error")
                }
                _ => format!(
                    "{origin}: `{name}` needs a [reference] file or dataset in lean-assess.toml"
                ),
            })?;
            if let Some(ds_path) = &cfg.dataset {
                reads.check(readable, ds_path).map_err(|e| format!("{origin}: {e}"))?;
                let ds = reads.dataset(ds_path);
                match &*ds {
                    Ok(ds) => {
                        if let Some(e) = ds.entries.get(name) {
                            return Ok(view(
                                Some(name.clone()),
                                e.statement.clone(),
                                e.header.clone(),
                                None,
                            ));
                        }
                    }
                    Err(e) => return Err(e.clone()),
                }
            }
            if let Some(f) = &cfg.reference_file {
                reads.check(readable, f).map_err(|e| format!("{origin}: {e}"))?;
                let file = reads.file(f, &input.open_texts)?;
                if let Some((stmt, header)) = theorem_in(&file, name) {
                    return Ok(view(Some(name.clone()), stmt, header, Some(f.clone())));
                }
            }
            Err(format!("{origin}: no reference named `{name}`"))
        }
    }
}
