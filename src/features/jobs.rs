//! Metric jobs: for one document version, find its theorems, their references, parse both sides,
//! run the lens metrics (bounded in time, cached), and compute the differences.
//!
//! Owns [`DocAnalysis`] (what the lens, hover and actions show), [`MetricState`], and the
//! [`ResultCache`] keyed by (metric, reference, candidate, headers, toolchain); the first phase,
//! [`prepare`], is `prepare`'s (with `resolve` and `reuse`). Runs off the forwarding path: the
//! CPU work goes through `spawn_blocking` behind a semaphore, each metric under a time limit;
//! the caller aborts the task when the document changes. Building LSP JSON is left to `views`;
//! sending anything is left to the features' `rounds`.

mod prepare;
mod resolve;
mod reuse;

pub use prepare::{prepare, Prepared};

use super::cache::{JobCaches, RefFile};
use super::engine::{self, Decl};
use crate::config::Config;
use crate::differences::{self, Difference};
use crate::documents::Document;
use crate::files::FileError;
use crate::metrics::{MetricReport, Pair, Verdict};
use crate::trees::Statement;
use lsp_types::Position;
use std::collections::{HashMap, VecDeque};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where one metric stands for one theorem.
#[derive(Clone, Debug, PartialEq)]
pub enum MetricState {
    Pending,
    Running,
    Done(MetricReport),
    Failed(String),
    TimedOut(Duration),
    /// Needs something this build or session lacks (a Lean-backed metric, for now).
    Unavailable(String),
}

impl MetricState {
    /// Short text for the lens: the value when done, else the state.
    pub fn short(&self) -> String {
        match self {
            MetricState::Pending => "pending".into(),
            MetricState::Running => "running…".into(),
            MetricState::Done(r) => match r.verdict {
                Verdict::Score(s) => format!("{s:.2}"),
                Verdict::Equivalent(true) => "equivalent".into(),
                Verdict::Equivalent(false) => "not equivalent".into(),
            },
            MetricState::Failed(_) => "failed".into(),
            MetricState::TimedOut(_) => "timed out".into(),
            MetricState::Unavailable(_) => "n/a".into(),
        }
    }

    /// The state's name: pending / running / done / failed / timed out / unavailable.
    pub fn name(&self) -> &'static str {
        match self {
            MetricState::Pending => "pending",
            MetricState::Running => "running",
            MetricState::Done(_) => "done",
            MetricState::Failed(_) => "failed",
            MetricState::TimedOut(_) => "timed out",
            MetricState::Unavailable(_) => "unavailable",
        }
    }
}

/// A resolved reference statement.
#[derive(Clone, Debug, PartialEq)]
pub struct RefView {
    pub origin: String,
    pub name: Option<String>,
    pub text: String,
    pub header: String,
    pub statement: Option<Arc<Statement>>,
    /// URI of the reference document when it is a file (for elaborated trees).
    pub file: Option<PathBuf>,
}

/// One theorem of the analysed document: where it is in this version, and what was judged of
/// it ([`TheoremCore`], shared with the previous version's view when the theorem's text and
/// reference did not change: an edit elsewhere moves a theorem without copying its results).
/// Reads and writes of the core's fields go through `Deref`/`DerefMut` (a write copies a
/// shared core first).
#[derive(Clone, Debug, PartialEq)]
pub struct TheoremView {
    pub decl: Decl,
    /// Byte offset of the candidate statement text in the document.
    pub candidate_offset: usize,
    /// The LSP position of `decl.start` in this version (where its lens stands). A view is
    /// taken as it is only at the same position, so the lens answer may key on the view.
    pub at: Position,
    /// Written only through `DerefMut` and [`TheoremView::core_mut`], which forget `judged`.
    core: Arc<TheoremCore>,
    judged: JudgedMemo,
    /// What the job read to find this theorem's reference, when the next job may take the
    /// view from it without reading it again ([`Made`]).
    pub made: Option<Made>,
}

/// The inputs a theorem's view was made from besides its declaration text and the job's
/// (header, config, toolchain: `DocAnalysis::inputs`): the text its directive is read from,
/// its line, and the reference file by identity. Recorded only for views found through a
/// `-- @reference FILE::NAME` or inline directive, with no problem and every metric done:
/// the next job takes such a view as it is (moved) when all of these are unchanged, without
/// parsing the directive, resolving the reference or comparing reference texts: an edit in
/// one theorem costs that theorem, not the document.
#[derive(Clone)]
pub struct Made {
    /// `text[directive_block_start..decl.start]`: the `--` block above and the line's indent.
    pub lead: Arc<str>,
    /// 0-based line of the declaration (the directive's origin names a line).
    pub line: usize,
    /// The reference file (its path shared: a moved view copies pointers) and its content as
    /// cached (`None`: an inline reference). The `Arc` changes
    /// whenever the file's stamp does (`JobCaches::file`).
    pub file: Option<(Arc<Path>, Arc<RefFile>)>,
}

impl PartialEq for Made {
    fn eq(&self, other: &Made) -> bool {
        self.lead == other.lead
            && self.line == other.line
            && match (&self.file, &other.file) {
                (Some((p, a)), Some((q, b))) => p == q && Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

impl std::fmt::Debug for Made {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Made")
            .field("lead", &self.lead)
            .field("line", &self.line)
            .field("file", &self.file.as_ref().map(|(p, _)| p))
            .finish()
    }
}

/// Whether a view's judgement is final ([`judged_through`] but for the metric names, given as
/// their hash), kept while its core is not written: the next job's check of a theorem the edit
/// left alone reads the view, not its core and metrics. Not part of a view's value (equal
/// views may have it filled or not).
#[derive(Clone, Debug, Default)]
struct JudgedMemo(std::sync::OnceLock<Option<Judged>>);

/// What [`JudgedMemo`] keeps of a final judgement.
#[derive(Clone, Copy, Debug)]
struct Judged {
    /// [`names_hash`] of its metrics.
    names: u64,
    /// [`explainable`]: its explanation missing.
    explainable: bool,
}

impl PartialEq for JudgedMemo {
    fn eq(&self, _: &JudgedMemo) -> bool {
        true
    }
}

/// A hash of metric names in order (a job's lens metrics, or a core's).
fn names_hash<'n>(names: impl Iterator<Item = &'n str>) -> u64 {
    let mut h = DefaultHasher::new();
    for n in names {
        n.hash(&mut h);
    }
    h.finish()
}

impl TheoremView {
    pub fn new(decl: Decl, at: Position, core: Arc<TheoremCore>, made: Option<Made>) -> Self {
        TheoremView {
            candidate_offset: decl.start,
            decl,
            at,
            core,
            judged: JudgedMemo::default(),
            made,
        }
    }

    /// The same judgement as this view (its core, and what its memo knows of it) for a
    /// declaration elsewhere.
    pub fn moved(&self, decl: Decl, at: Position, made: Option<Made>) -> Self {
        TheoremView {
            judged: self.judged.clone(),
            ..TheoremView::new(decl, at, self.core.clone(), made)
        }
    }

    /// What was judged of the theorem (shared between versions while unchanged).
    pub fn core(&self) -> &Arc<TheoremCore> {
        &self.core
    }

    /// The shared core, to split borrows of its fields (`Arc::make_mut` it to write).
    pub fn core_mut(&mut self) -> &mut Arc<TheoremCore> {
        self.judged = JudgedMemo::default();
        &mut self.core
    }

    /// [`judged_through`] for metrics whose names hash to `lens` ([`names_hash`]), and then
    /// whether the explanation is missing ([`explainable`]), from the memo once known.
    fn judged_for(&self, lens: u64) -> Option<bool> {
        let known = self.judged.0.get_or_init(|| {
            let final_ = judged_final(self)
                && self.reference.as_ref().is_some_and(|r| r.statement.is_some());
            final_.then(|| Judged {
                names: names_hash(self.metrics.iter().map(|(m, _)| m.as_str())),
                explainable: explainable(self),
            })
        });
        known.filter(|j| j.names == lens).map(|j| j.explainable)
    }
}

impl std::ops::Deref for TheoremView {
    type Target = TheoremCore;
    fn deref(&self) -> &TheoremCore {
        &self.core
    }
}

impl std::ops::DerefMut for TheoremView {
    fn deref_mut(&mut self) -> &mut TheoremCore {
        Arc::make_mut(self.core_mut())
    }
}

/// What was judged of one theorem; independent of where it stands in the document.
#[derive(Clone, Debug, PartialEq)]
pub struct TheoremCore {
    /// The declaration's whole text (proof included) it was made from.
    pub text: Arc<str>,
    pub reference: Option<RefView>,
    pub candidate: Option<Arc<Statement>>,
    pub metrics: Vec<(String, MetricState)>,
    pub differences: Vec<Difference>,
    pub distance: Option<u32>,
    /// Why the theorem could not be judged (reference missing, parse error), file:line named.
    pub problem: Option<String>,
    /// `true` when the trees compared came from Lean's elaboration, not the source text.
    pub elaborated: bool,
}

impl TheoremView {
    pub fn name(&self) -> Option<&str> {
        self.decl.name.as_deref()
    }
}

/// A problem shown as a diagnostic in the analysed document at a 0-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub message: String,
}

/// Everything known about one version of a document.
#[derive(Clone, Debug, PartialEq)]
pub struct DocAnalysis {
    pub uri: String,
    pub version: i32,
    /// Theorems that have a reference (or a problem finding it), in document order. Shared:
    /// storing the analysis after each metric round copies pointers, not theorems.
    pub theorems: Vec<Arc<TheoremView>>,
    pub problems: Vec<Problem>,
    /// The document's header (everything before its first declaration).
    pub candidate_header: String,
    /// [`JobInput::inputs_key`] of the job that made it: another config or toolchain judges
    /// anew.
    pub inputs: u64,
    /// The reference files its theorems name (each once; a superset of those a view names).
    pub reference_files: Vec<PathBuf>,
    /// The generation of the declaration scan it was made from (0: none;
    /// [`super::cache::DeclScan::generation`]): the next job learns from that scan what the
    /// edits since left alone.
    pub scan: u64,
}

/// What a job needs besides the document.
pub struct JobInput {
    pub doc: Arc<Document>,
    pub path: Option<PathBuf>,
    pub config: Option<Result<Arc<Config>, FileError>>,
    /// Texts of other open documents by path (references read from the editor's buffer first).
    pub open_texts: HashMap<PathBuf, Arc<Document>>,
    pub toolchain: String,
    /// Folders references may be read from besides the config's and the Lake project's (the
    /// editor's workspace folders, the server's working directory): `ReadableRoots`.
    pub extra_roots: Vec<PathBuf>,
    /// The document's last analysis, whose unchanged theorems are reused.
    pub previous: Option<Arc<DocAnalysis>>,
    /// The result-cache names of the lens metrics (`lean_lens::cache_name`: `beq` with the
    /// LLM allowed is another name than without): results under other names are not reused.
    pub result_names: Vec<String>,
}

impl JobInput {
    /// A hash of what a theorem's results depend on besides its texts and reference: the
    /// config (its lens and metric settings, by value), the toolchain, the readable roots and
    /// the metrics' result-cache names.
    pub fn inputs_key(&self) -> u64 {
        let mut h = DefaultHasher::new();
        match &self.config {
            Some(Ok(c)) => format!("{c:?}").hash(&mut h),
            Some(Err(e)) => e.to_string().hash(&mut h),
            None => 0u8.hash(&mut h),
        }
        (&self.toolchain, &self.extra_roots, &self.path, &self.result_names).hash(&mut h);
        h.finish()
    }
}

/// Upper bound on cached metric results (each holds a small report). Above the live results of
/// a large document (1,000 theorems × 2 lens metrics), or every edit there recomputes them all.
pub const CACHE_CAPACITY: usize = 4096;

/// Metric results by (metric, reference, candidate, headers, toolchain), least recent evicted.
#[derive(Debug, Default)]
pub struct ResultCache {
    map: HashMap<u64, Result<MetricReport, String>>,
    order: VecDeque<u64>,
}

impl ResultCache {
    pub fn key(metric: &str, r: &RefView, cand_text: &str, cand_header: &str, tc: &str) -> u64 {
        let mut h = DefaultHasher::new();
        (metric, &r.text, &r.header, cand_text, cand_header, tc).hash(&mut h);
        h.finish()
    }

    pub fn get(&self, k: u64) -> Option<Result<MetricReport, String>> {
        self.map.get(&k).cloned()
    }

    pub fn put(&mut self, k: u64, v: Result<MetricReport, String>) {
        if self.map.insert(k, v).is_none() {
            self.order.push_back(k);
        }
        while self.map.len() > CACHE_CAPACITY {
            match self.order.pop_front() {
                Some(old) => {
                    self.map.remove(&old);
                }
                None => break,
            }
        }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// Whether theorem `t` may lack its explanation: both sides parsed, no distance yet.
pub fn explainable(t: &TheoremView) -> bool {
    t.distance.is_none()
        && t.candidate.is_some()
        && t.reference.as_ref().is_some_and(|r| r.statement.is_some())
}

/// [`judged_through`] whatever the metrics are named.
fn judged_final(t: &TheoremCore) -> bool {
    !t.elaborated
        && t.problem.is_none()
        && t.candidate.is_some()
        && t.metrics.iter().all(|(_, s)| matches!(s, MetricState::Done(_)))
}

/// The pair to judge for theorem `i`, when both sides parsed.
pub fn statements(
    a: &DocAnalysis,
    i: usize,
) -> Option<(Arc<Statement>, Arc<Statement>, String, String)> {
    let t = a.theorems.get(i)?;
    let r = t.reference.as_ref()?;
    Some((r.statement.clone()?, t.candidate.clone()?, r.header.clone(), r.text.clone()))
}

/// Run one metric on one pair (blocking; the caller bounds it in time). A metric with a clock
/// of its own is given `deadline`, so that it stops (and frees its CPU permit) by then.
pub fn run_metric(
    metric: &str,
    reference: &Statement,
    candidate: &Statement,
    ref_header: &str,
    cand_header: &str,
    deadline: Instant,
) -> Result<MetricReport, String> {
    let pair =
        Pair { reference, candidate, reference_header: ref_header, candidate_header: cand_header };
    engine::judge_by(metric, &pair, deadline).map_err(|e| e.to_string())
}

/// Differences and distance of theorem `t` from the TED mapping, uncached (elaborated trees).
pub fn explain(t: &mut TheoremView) {
    let (Some(r), Some(c)) =
        (t.reference.as_ref().and_then(|r| r.statement.clone()), t.candidate.clone())
    else {
        return;
    };
    if let Some((distance, diffs)) = explanation(&r, &c) {
        t.distance = Some(distance);
        t.differences = diffs;
    }
}

fn explanation(r: &Statement, c: &Statement) -> Option<(u32, Vec<Difference>)> {
    let m = engine::mapping(&r.tree, &c.tree)?;
    let distance = m.distance;
    Some((distance, differences::read(r, c, m, 12).1))
}

/// The explanation of `t`'s source-text trees, from `caches` when the pair's texts were
/// explained before (read-only on `t`: the caller decides whether to copy the view).
pub fn explanation_cached(
    t: &TheoremView,
    cand_header: &str,
    caches: &JobCaches,
) -> Option<(u32, Vec<Difference>)> {
    let (rv, c) = (t.reference.as_ref()?, t.candidate.as_ref()?);
    let r = rv.statement.as_ref()?;
    let key = (rv.text.as_str(), rv.header.as_str(), c.source.as_str(), cand_header);
    caches.explain(key, || explanation(r, c))
}

/// [`explain`] for the source-text trees, through [`explanation_cached`]. Returns whether `t`
/// changed.
pub fn explain_cached(t: &mut TheoremView, cand_header: &str, caches: &JobCaches) -> bool {
    let Some((distance, diffs)) = explanation_cached(t, cand_header, caches) else {
        return false;
    };
    if t.distance == Some(distance) && t.differences == diffs {
        return false;
    }
    t.distance = Some(distance);
    t.differences = diffs;
    true
}

/// Shared, bounded cache handle.
pub type SharedCache = Arc<Mutex<ResultCache>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_is_bounded_and_evicts_oldest() {
        let mut c = ResultCache::default();
        for k in 0..(CACHE_CAPACITY as u64 + 10) {
            c.put(k, Err("x".into()));
        }
        assert_eq!(c.len(), CACHE_CAPACITY);
        assert!(c.get(0).is_none());
        assert!(c.get(CACHE_CAPACITY as u64 + 9).is_some());
    }
}
