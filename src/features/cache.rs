//! What the metric jobs keep between document versions, so that an edit costs the edited
//! theorem and not the document: reference files (by path, modification time and length, or by
//! the editor's version when open), datasets (same), parsed statements (by text and header) and
//! TED explanations (by both sides' texts and headers).
//!
//! Owns [`JobCaches`] and the jobs' [`CancelToken`]. Every entry is keyed by the full texts it
//! was computed from (compared on lookup, not only hashed): a hash collision must never show one
//! theorem's result for another. Bounded: each map drops its oldest entries past its capacity.
//! Knows nothing of LSP or of the metric result cache (`jobs::ResultCache`).

use super::engine::{self, Decl};
use crate::differences::Difference;
use crate::documents::Unedited;
use crate::references::Dataset;
use crate::trees::Statement;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// Set when the job that owns it is dropped (aborted by an edit, or finished): blocking work
/// checks it between steps and stops.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }

    pub fn cancel(&self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Cancels its token when dropped: held by the async job, so aborting the job's task stops the
/// blocking work it spawned.
#[derive(Debug, Default)]
pub struct CancelOnDrop(CancelToken);

impl CancelOnDrop {
    pub fn token(&self) -> CancelToken {
        self.0.clone()
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// A bounded map from full keys to values, oldest dropped first.
#[derive(Debug)]
struct Bounded<K, V> {
    map: HashMap<K, V>,
    order: VecDeque<K>,
    capacity: usize,
}

impl<K: Hash + Eq + Clone, V: Clone> Bounded<K, V> {
    fn new(capacity: usize) -> Self {
        Bounded { map: HashMap::new(), order: VecDeque::new(), capacity }
    }

    fn get(&self, k: &K) -> Option<V> {
        self.map.get(k).cloned()
    }

    fn put(&mut self, k: K, v: V) {
        if self.map.insert(k.clone(), v).is_none() {
            self.order.push_back(k);
        }
        while self.map.len() > self.capacity {
            match self.order.pop_front() {
                Some(old) => {
                    self.map.remove(&old);
                }
                None => break,
            }
        }
    }

    /// The entry of `k`, to change in place (its place in the eviction order kept).
    fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        self.map.get_mut(k)
    }

    fn remove(&mut self, k: &K) {
        if self.map.remove(k).is_some() {
            self.order.retain(|o| o != k);
        }
    }

    fn len(&self) -> usize {
        self.map.len()
    }
}

/// How a file's content was identified: on disk by (modification time, length); open in the
/// editor by its document version.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stamp {
    Disk(SystemTime, u64),
    Open { uri: String, version: i32 },
}

impl Stamp {
    pub fn of_disk(path: &Path) -> Option<Stamp> {
        let m = std::fs::metadata(path).ok()?;
        Some(Stamp::Disk(m.modified().ok()?, m.len()))
    }
}

/// A reference file: its text, declarations, header and a name index.
#[derive(Debug)]
pub struct RefFile {
    pub text: String,
    pub decls: Vec<Decl>,
    pub header: Arc<str>,
    by_name: HashMap<String, usize>,
    by_last: HashMap<String, usize>,
}

impl RefFile {
    pub fn new(text: String) -> RefFile {
        let decls = engine::declarations(&text);
        let header: Arc<str> = engine::header_of(&text, &decls).into();
        let mut by_name = HashMap::new();
        let mut by_last = HashMap::new();
        for (i, d) in decls.iter().enumerate() {
            if let Some(n) = &d.name {
                by_name.entry(n.to_string()).or_insert(i);
                if let Some(last) = n.rsplit('.').next() {
                    by_last.entry(last.to_string()).or_insert(i);
                }
            }
        }
        RefFile { text, decls, header, by_name, by_last }
    }

    /// The declaration named `name` (exactly, else by its last dotted component), as the
    /// linear search it replaces did: the first in file order.
    pub fn find(&self, name: &str) -> Option<&Decl> {
        self.by_name.get(name).or_else(|| self.by_last.get(name)).and_then(|&i| self.decls.get(i))
    }
}

/// A dataset as loaded, or why it could not be.
pub type LoadedDataset = Arc<Result<Dataset, String>>;

/// A parse result: the statement, or why it did not parse.
pub type Parsed = Result<Arc<Statement>, String>;

/// A TED explanation: the distance and the differences shown.
pub type Explained = (u32, Vec<Difference>);

const PARSE_CAPACITY: usize = 8192;
const EXPLAIN_CAPACITY: usize = 4096;
const FILE_CAPACITY: usize = 64;
/// Documents whose last declaration scan is kept (each holds a copy of the text).
const SCAN_CAPACITY: usize = 16;

/// (statement text, header text).
type ParseKey = (Arc<str>, Arc<str>);
/// (reference text, reference header, candidate text, candidate header).
type ExplainKey = (Arc<str>, Arc<str>, Arc<str>, Arc<str>);

/// A document's text as last scanned for declarations, and what the scan found.
#[derive(Debug)]
pub struct DeclScan {
    /// Unique among the scans of one [`JobCaches`]: an analysis names the scan it was made
    /// from, and the next job knows from it what the edits since left alone.
    pub generation: u64,
    pub text: String,
    pub decls: Vec<Decl>,
}

/// The declarations of a document version, and what the edits since the scan before left
/// alone (with that scan's generation), when there was one.
pub type Scanned = (Arc<DeclScan>, Option<(u64, Unedited)>);

/// Everything the jobs of one [`super::Features`] share across document versions.
#[derive(Debug)]
pub struct JobCaches {
    /// Per document URI, its last declaration scan: the next version's scan re-lexes only
    /// what the edit changed ([`engine::declarations_after_edit`]).
    scans: Mutex<Bounded<String, Arc<DeclScan>>>,
    /// The last [`DeclScan::generation`] given.
    generations: AtomicU64,
    files: Mutex<Bounded<PathBuf, (Stamp, Arc<RefFile>)>>,
    datasets: Mutex<Bounded<PathBuf, (Stamp, LoadedDataset)>>,
    /// By the key's hash, the full key kept beside the value and compared on lookup: a lookup
    /// costs a hash, not copies of the texts.
    parsed: Mutex<Bounded<u64, (ParseKey, Parsed)>>,
    explained: Mutex<Bounded<u64, (ExplainKey, Option<Explained>)>>,
    /// Reference files and datasets read from disk or from an open document (tests count them).
    pub file_reads: AtomicUsize,
    /// Statements parsed (cache misses).
    pub parses: AtomicUsize,
    /// TED mappings computed (cache misses).
    pub mappings: AtomicUsize,
}

impl Default for JobCaches {
    fn default() -> Self {
        JobCaches {
            scans: Mutex::new(Bounded::new(SCAN_CAPACITY)),
            generations: AtomicU64::new(0),
            files: Mutex::new(Bounded::new(FILE_CAPACITY)),
            datasets: Mutex::new(Bounded::new(FILE_CAPACITY)),
            parsed: Mutex::new(Bounded::new(PARSE_CAPACITY)),
            explained: Mutex::new(Bounded::new(EXPLAIN_CAPACITY)),
            file_reads: AtomicUsize::new(0),
            parses: AtomicUsize::new(0),
            mappings: AtomicUsize::new(0),
        }
    }
}

fn hash_of<T: Hash + ?Sized>(t: &T) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl JobCaches {
    /// The declarations of document `uri` at `text`: from its last scan, only the region an
    /// edit changed is scanned again, in place when no job holds the last scan any more (the
    /// declarations outside the window are neither copied nor re-lexed, and only the changed
    /// bytes of the kept text are written).
    pub fn declarations(&self, uri: &str, text: &str) -> Scanned {
        let mut scans = lock(&self.scans);
        let Some(last) = scans.get_mut(&uri.to_string()) else {
            let scan = Arc::new(DeclScan {
                generation: self.generations.fetch_add(1, Ordering::Relaxed) + 1,
                text: text.to_string(),
                decls: engine::declarations(text),
            });
            scans.put(uri.to_string(), scan.clone());
            return (scan, None);
        };
        let unedited = Unedited::between(&last.text, text);
        let since = Some((last.generation, unedited));
        if unedited.start == text.len() && unedited.start == last.text.len() {
            return (last.clone(), since);
        }
        let generation = self.generations.fetch_add(1, Ordering::Relaxed) + 1;
        match Arc::get_mut(last) {
            Some(scan) => {
                engine::rescan(&scan.text, &mut scan.decls, text, &unedited);
                let old_end = scan.text.len() - unedited.suffix;
                let new_end = text.len() - unedited.suffix;
                scan.text.replace_range(unedited.start..old_end, &text[unedited.start..new_end]);
                scan.generation = generation;
            }
            None => {
                let mut decls = last.decls.clone();
                engine::rescan(&last.text, &mut decls, text, &unedited);
                *last = Arc::new(DeclScan { generation, text: text.to_string(), decls });
            }
        }
        (last.clone(), since)
    }

    /// Drop what is kept for document `uri` (closed in the editor).
    pub fn forget(&self, uri: &str) {
        lock(&self.scans).remove(&uri.to_string());
    }

    /// A reference file, read again only when its stamp changed. `read` gives the text.
    pub fn file(
        &self,
        path: &Path,
        stamp: Option<Stamp>,
        read: impl FnOnce() -> Result<String, String>,
    ) -> Result<Arc<RefFile>, String> {
        if let Some(stamp) = &stamp {
            if let Some((s, f)) = lock(&self.files).get(&path.to_path_buf()) {
                if s == *stamp {
                    return Ok(f);
                }
            }
        }
        self.file_reads.fetch_add(1, Ordering::Relaxed);
        let f = Arc::new(RefFile::new(read()?));
        // Without a stamp (no metadata) nothing is cached: the file is read each time.
        if let Some(stamp) = stamp {
            lock(&self.files).put(path.to_path_buf(), (stamp, f.clone()));
        }
        Ok(f)
    }

    /// A dataset, loaded again only when its file changed.
    pub fn dataset(&self, path: &Path) -> LoadedDataset {
        let stamp = Stamp::of_disk(path);
        if let Some(stamp) = &stamp {
            if let Some((s, d)) = lock(&self.datasets).get(&path.to_path_buf()) {
                if s == *stamp {
                    return d;
                }
            }
        }
        self.file_reads.fetch_add(1, Ordering::Relaxed);
        let d = Arc::new(Dataset::load(path).map(|(d, _)| d).map_err(|e| e.to_string()));
        if let Some(stamp) = stamp {
            lock(&self.datasets).put(path.to_path_buf(), (stamp, d.clone()));
        }
        d
    }

    /// A statement parsed with `header`, from the cache when the same text was parsed before.
    pub fn parse(&self, text: &str, header: &Arc<str>) -> Parsed {
        let h = hash_of(&(text, &**header));
        if let Some((k, hit)) = lock(&self.parsed).get(&h) {
            if &*k.0 == text && k.1 == *header {
                return hit;
            }
        }
        self.parses.fetch_add(1, Ordering::Relaxed);
        let parsed = engine::parse(text, header).map(Arc::new);
        let key: ParseKey = (text.into(), header.clone());
        lock(&self.parsed).put(h, (key, parsed.clone()));
        parsed
    }

    /// The TED explanation of a pair, computed by `compute` on a miss.
    pub fn explain(
        &self,
        key: (&str, &str, &str, &str),
        compute: impl FnOnce() -> Option<Explained>,
    ) -> Option<Explained> {
        if let Some(hit) = self.explained(key) {
            return hit;
        }
        self.mappings.fetch_add(1, Ordering::Relaxed);
        let v = compute();
        let full: ExplainKey = (key.0.into(), key.1.into(), key.2.into(), key.3.into());
        lock(&self.explained).put(hash_of(&key), (full, v.clone()));
        v
    }

    /// The TED explanation of a pair when cached (never computes).
    pub fn explained(&self, key: (&str, &str, &str, &str)) -> Option<Option<Explained>> {
        let (k, v) = lock(&self.explained).get(&hash_of(&key))?;
        (&*k.0 == key.0 && &*k.1 == key.1 && &*k.2 == key.2 && &*k.3 == key.3).then_some(v)
    }

    /// Entries held (parsed statements, explanations), for tests.
    pub fn sizes(&self) -> (usize, usize) {
        (lock(&self.parsed).len(), lock(&self.explained).len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Scanned version after version, in place or not (a job still holding the last scan),
        /// a document's declarations and kept text are a whole scan's.
        #[test]
        fn scans_after_edits_equal_a_whole_scan(
            edits in proptest::collection::vec(
                (0usize..2_000, 0usize..30, 0usize..6, proptest::bool::ANY), 1..12)
        ) {
            const TYPED: [&str; 6] = ["x", "\n", "theorem t (x : ℕ) : x = x := rfl\n", "-/", "/-", "\n\nlemma"];
            let caches = JobCaches::default();
            let mut text = String::from("import Mathlib\n\n");
            for i in 0..12 {
                text.push_str(&format!("-- @reference R.lean::r{i}\ntheorem c{i} (x : ℕ) : x + {i} = {i} + x := by\n  omega\n\n"));
            }
            let mut held = vec![caches.declarations("u", &text).0];
            let mut generations = vec![held[0].generation];
            for (at, len, k, hold) in edits {
                let mut at = at % (text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                let mut end = (at + len).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                let before = text.clone();
                text.replace_range(at..end, TYPED[k]);
                let (scan, since) = caches.declarations("u", &text);
                proptest::prop_assert_eq!(&scan.decls, &engine::declarations(&text));
                proptest::prop_assert_eq!(&scan.text, &text);
                proptest::prop_assert_eq!(since.map(|(g, _)| g), generations.last().copied());
                // A new generation, unless the text is the last scan's.
                let last = *generations.last().expect("one scan at least");
                proptest::prop_assert!(scan.generation == last || !generations.contains(&scan.generation));
                proptest::prop_assert_eq!(scan.generation == last, text == before);
                generations.push(scan.generation);
                held.clear();
                if hold {
                    held.push(scan);
                }
            }
        }
    }
}
