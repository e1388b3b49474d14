//! Metric jobs: for one document version, find its theorems, their references, parse both sides,
//! run the lens metrics (bounded in time, cached), and compute the differences.
//!
//! Owns [`DocAnalysis`] (what the lens, hover and actions show), [`MetricState`], and the
//! [`ResultCache`] keyed by (metric, reference, candidate, headers, toolchain). Runs off the
//! forwarding path: the CPU work goes through `spawn_blocking` behind a semaphore, each metric
//! under a time limit; the caller aborts the task when the document changes. Building LSP JSON is
//! left to `views`; sending anything is left to `mod.rs`.

use super::cache::{CancelToken, JobCaches, RefFile, Stamp};
use super::engine::{self, Decl};
use crate::config::Config;
use crate::config::ReadableRoots;
use crate::differences::{self, Difference};
use crate::documents::{Document, Unedited};
use crate::files::FileError;
use crate::metrics::{MetricReport, Pair, Verdict};
use crate::references::{
    directive_above_at, directive_block_start, source_for, Dataset, ReferenceSource,
};
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
                && self
                    .reference
                    .as_ref()
                    .is_some_and(|r| r.statement.is_some());
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
        (
            &self.toolchain,
            &self.extra_roots,
            &self.path,
            &self.result_names,
        )
            .hash(&mut h);
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

fn read_text(path: &Path, open: &HashMap<PathBuf, Arc<Document>>) -> Result<String, String> {
    if let Some(d) = open.get(path) {
        return Ok(d.text().to_string());
    }
    crate::files::read_regular_file(path, crate::files::MAX_SOURCE_BYTES)
}

/// Files and datasets used during one job: each looked up (and its stamp taken) once per job;
/// read and scanned only when [`JobCaches`] has no entry for its current stamp.
struct Reads<'c> {
    caches: &'c JobCaches,
    files: HashMap<PathBuf, Result<Arc<RefFile>, String>>,
    datasets: HashMap<PathBuf, Arc<Result<Dataset, String>>>,
    /// [`ReadableRoots::check`] by path: it resolves links (system calls), once per job.
    checked: HashMap<PathBuf, Result<(), String>>,
    /// Files found readable and current (their cached `Arc`) in this job, by identity.
    current: Vec<Arc<RefFile>>,
}

impl<'c> Reads<'c> {
    fn new(caches: &'c JobCaches) -> Reads<'c> {
        Reads {
            caches,
            files: HashMap::new(),
            datasets: HashMap::new(),
            checked: HashMap::new(),
            current: Vec::new(),
        }
    }

    fn check(&mut self, readable: &ReadableRoots, path: &Path) -> Result<(), String> {
        if let Some(r) = self.checked.get(path) {
            return r.clone();
        }
        let r = readable.check(path);
        self.checked.insert(path.to_path_buf(), r.clone());
        r
    }

    fn file(
        &mut self,
        path: &Path,
        open: &HashMap<PathBuf, Arc<Document>>,
    ) -> Result<Arc<RefFile>, String> {
        if let Some(f) = self.files.get(path) {
            return f.clone();
        }
        // The editor's buffer first (what the user sees), else the file on disk.
        let stamp = match open.get(path) {
            Some(d) => Some(Stamp::Open {
                uri: d.uri.clone(),
                version: d.version,
            }),
            None => Stamp::of_disk(path),
        };
        let f = self.caches.file(path, stamp, || read_text(path, open));
        self.files.insert(path.to_path_buf(), f.clone());
        f
    }

    fn dataset(&mut self, path: &Path) -> Arc<Result<Dataset, String>> {
        let caches = self.caches;
        self.datasets
            .entry(path.to_path_buf())
            .or_insert_with(|| caches.dataset(path))
            .clone()
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
fn resolve(
    src: &ReferenceSource,
    cand_header: &str,
    config: Option<&Config>,
    reads: &mut Reads,
    input: &JobInput,
    readable: &ReadableRoots,
) -> Result<RefView, String> {
    let view =
        |name: Option<String>, text: String, header: String, file: Option<PathBuf>| RefView {
            origin: src.origin().to_string(),
            name,
            text,
            header,
            statement: None,
            file,
        };
    match src {
        ReferenceSource::Inline { text, .. } => {
            let name = text.split_whitespace().nth(1).map(str::to_string);
            Ok(view(name, text.clone(), cand_header.to_string(), None))
        }
        ReferenceSource::Theorem { target, origin } => {
            let name = target.name.clone().unwrap_or_default();
            reads
                .check(readable, &target.file)
                .map_err(|e| format!("{origin}: {e}"))?;
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
                reads
                    .check(readable, ds_path)
                    .map_err(|e| format!("{origin}: {e}"))?;
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
                reads
                    .check(readable, f)
                    .map_err(|e| format!("{origin}: {e}"))?;
                let file = reads.file(f, &input.open_texts)?;
                if let Some((stmt, header)) = theorem_in(&file, name) {
                    return Ok(view(Some(name.clone()), stmt, header, Some(f.clone())));
                }
            }
            Err(format!("{origin}: no reference named `{name}`"))
        }
    }
}

/// Phase 1 (cheap, blocking I/O on small files): theorems, references, parsed statements. Every
/// metric starts `Pending` (the Lean-backed ones too: they run through `super::lean_lens`).
/// Reference files and parses come from `caches` when their text is unchanged, so an edit
/// costs the theorems it touched. `None` when `cancel` was set (the job was aborted) before
/// the end: nothing more is read or parsed after that.
pub fn prepare(input: &JobInput, caches: &JobCaches, cancel: &CancelToken) -> Option<Prepared> {
    let doc = &input.doc;
    let text = doc.text();
    let (scan, since) = caches.declarations(&doc.uri, text);
    let decls = &scan.decls;
    let cand_header = engine::header_of(text, decls);
    let cand_header_shared: Arc<str> = cand_header.as_str().into();
    let mut problems = Vec::new();
    // A bad config is the config file's problem, not this document's: the job tells the user
    // once (`window/showMessage`, naming the file and line), and no diagnostic repeats it here.
    let config = match &input.config {
        Some(Ok(c)) => Some(c.as_ref()),
        Some(Err(_)) | None => None,
    };
    let lens: Vec<String> = config.map_or_else(|| Config::default().lens, |c| c.lens.clone());
    let doc_path = input
        .path
        .clone()
        .unwrap_or_else(|| PathBuf::from(&doc.uri));
    let doc_dir = doc_path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let mut reads = Reads::new(caches);
    let readable = ReadableRoots::for_document(input.path.as_deref(), config, &input.extra_roots);
    let mut ref_headers: HashMap<String, Arc<str>> = HashMap::new();
    let mut theorems = Vec::new();
    // The previous version's theorems by name (first in document order), when analysed with
    // the same header, config and toolchain: their cores may be reused.
    let inputs = input.inputs_key();
    let prev_theorems: &[Arc<TheoremView>] = input
        .previous
        .as_deref()
        .filter(|p| p.candidate_header == cand_header && p.inputs == inputs)
        .map_or(&[], |p| &p.theorems);
    let mut earlier = Earlier::new(prev_theorems);
    // What the edits since the previous version left alone: the theorems there are compared
    // by their positions, not their texts (an edit in one theorem costs that theorem).
    let unedited = since
        .filter(|(generation, _)| {
            !prev_theorems.is_empty()
                && input.previous.as_ref().map(|p| p.scan) == Some(*generation)
        })
        .map(|(_, u)| u);
    // The theorems whose views are not taken as they are: metrics to run, or an explanation
    // missing (a reused view whose explanation was cut short).
    let mut work = Vec::new();
    let lens_hash = names_hash(lens.iter().map(String::as_str));
    for d in decls.iter() {
        if cancel.is_cancelled() {
            return None;
        }
        let prev = d.name.as_ref().and_then(|n| earlier.get(n));
        // The declaration's inputs, once read ([`inputs_of`]).
        let mut read = None;
        // Made from the same inputs as in the previous version: taken as it is (moved).
        if let Some(prev) = prev {
            let same_inputs_at = match unedited.and_then(|u| at_if_unedited(&u, prev, d)) {
                Some(at) => settled(prev, lens_hash, &mut reads, input, &readable).map(|e| (at, e)),
                None => {
                    let (at, lead, stmt_text) = *read.insert(inputs_of(doc, d));
                    unchanged(prev, lead, stmt_text)
                        .then(|| settled(prev, lens_hash, &mut reads, input, &readable))
                        .flatten()
                        .map(|e| (at, e))
                }
            };
            if let Some((at, unexplained)) = same_inputs_at {
                let decl_line = at.line as usize;
                let m = prev.made.as_ref().expect("checked by `settled`");
                if m.line == decl_line {
                    if unexplained {
                        work.push(theorems.len());
                    }
                    theorems.push(if prev.decl == *d && prev.at == at {
                        prev.clone()
                    } else {
                        Arc::new(prev.moved(d.clone(), at, prev.made.clone()))
                    });
                    continue;
                }
                // On another line (lines inserted or removed above): the same directive and
                // reference, whose origin names the new line; the judged results are kept.
                let origin = match directive_above_at(text, d.start, decl_line, &doc_path, &doc_dir)
                {
                    Some(Ok(dir)) => source_for(&doc_path, d.name.as_deref(), Some(&dir), config)
                        .map(|src| src.origin().to_string()),
                    _ => None,
                };
                if let Some(origin) = origin {
                    if unexplained {
                        work.push(theorems.len());
                    }
                    let mut core = TheoremCore::clone(&prev.core);
                    if let Some(r) = core.reference.as_mut() {
                        r.origin = origin;
                    }
                    theorems.push(Arc::new(TheoremView::new(
                        d.clone(),
                        at,
                        Arc::new(core),
                        Some(Made {
                            line: decl_line,
                            ..m.clone()
                        }),
                    )));
                    continue;
                }
            }
        }
        let (at, lead, stmt_text) = read.unwrap_or_else(|| inputs_of(doc, d));
        let decl_line = at.line as usize;
        let directive = match directive_above_at(text, d.start, decl_line, &doc_path, &doc_dir) {
            Some(Ok(dir)) => Some(dir),
            Some(Err(e)) => {
                problems.push(Problem {
                    line: e.line.saturating_sub(1),
                    message: e.to_string(),
                });
                None
            }
            None => None,
        };
        let Some(src) = source_for(&doc_path, d.name.as_deref(), directive.as_ref(), config) else {
            continue;
        };
        let resolved = resolve(&src, &cand_header, config, &mut reads, input, &readable);
        // What the next job needs to take this view without resolving it again: a directive
        // naming a file's theorem or giving the statement inline, resolved.
        let made = match (&directive, &src, &resolved) {
            (Some(_), ReferenceSource::Theorem { target, .. }, Ok(_)) => reads
                .file(&target.file, &input.open_texts)
                .ok()
                .map(|f| Made {
                    lead: lead.into(),
                    line: decl_line,
                    file: Some((target.file.as_path().into(), f)),
                }),
            (Some(_), ReferenceSource::Inline { .. }, Ok(_)) => Some(Made {
                lead: lead.into(),
                line: decl_line,
                file: None,
            }),
            _ => None,
        };
        // The same theorem text against the same reference as in the previous version: its
        // judged core is taken as it is (results, parses, explanation), only moved.
        if let (Ok(r), Some(prev)) = (&resolved, prev) {
            if reusable(prev, r, stmt_text, &lens) {
                if explainable(prev) {
                    work.push(theorems.len());
                }
                theorems.push(if prev.decl == *d && prev.at == at && prev.made == made {
                    prev.clone()
                } else {
                    Arc::new(prev.moved(d.clone(), at, made))
                });
                continue;
            }
        }
        let mut view = TheoremView::new(
            d.clone(),
            at,
            Arc::new(TheoremCore {
                text: stmt_text.into(),
                reference: None,
                candidate: None,
                metrics: lens
                    .iter()
                    .map(|m| (m.clone(), MetricState::Pending))
                    .collect(),
                differences: Vec::new(),
                distance: None,
                problem: None,
                elaborated: false,
            }),
            None,
        );
        match resolved {
            Ok(mut r) => {
                let header = if r.header == cand_header {
                    cand_header_shared.clone()
                } else if let Some(h) = ref_headers.get(&r.header) {
                    h.clone()
                } else {
                    let h: Arc<str> = r.header.as_str().into();
                    ref_headers.insert(r.header.clone(), h.clone());
                    h
                };
                match caches.parse(&r.text, &header) {
                    Ok(s) => r.statement = Some(s),
                    Err(e) => view.problem = Some(format!("reference ({}): {e}", r.origin)),
                }
                view.reference = Some(r);
            }
            Err(e) => {
                // A by-name lookup that finds nothing is not a problem: most theorems of a file
                // need not have a reference.
                if matches!(src, ReferenceSource::Named { .. }) && directive.is_none() {
                    continue;
                }
                problems.push(Problem {
                    line: decl_line,
                    message: e.clone(),
                });
                view.problem = Some(e);
            }
        }
        match caches.parse(stmt_text, &cand_header_shared) {
            Ok(s) => view.candidate = Some(s),
            Err(e) => {
                view.problem.get_or_insert(format!("candidate: {e}"));
            }
        }
        // An explanation known for the same texts: only the edited theorems are explained.
        if let (Some(r), Some(c)) = (view.reference.as_ref(), view.candidate.as_ref()) {
            if r.statement.is_some() {
                let key = (
                    r.text.as_str(),
                    r.header.as_str(),
                    c.source.as_str(),
                    cand_header.as_str(),
                );
                if let Some(Some((distance, diffs))) = caches.explained(key) {
                    view.distance = Some(distance);
                    view.differences = diffs;
                }
            }
        }
        if let Some(problem) = view.problem.clone() {
            for (_, s) in view.metrics.iter_mut() {
                if *s == MetricState::Pending {
                    *s = MetricState::Failed(problem.clone());
                }
            }
        } else {
            view.made = made;
        }
        if view.metrics.iter().any(|(_, s)| *s == MetricState::Pending) || explainable(&view) {
            work.push(theorems.len());
        }
        theorems.push(Arc::new(view));
    }
    Some(Prepared {
        analysis: DocAnalysis {
            uri: doc.uri.clone(),
            version: doc.version,
            theorems,
            problems,
            candidate_header: cand_header,
            inputs,
            // Every file a view names was read (or found current) through `reads`.
            reference_files: reads.files.into_keys().collect(),
            scan: scan.generation,
        },
        work,
    })
}

/// What a declaration's view is made from in document `doc`: its position, the text above it
/// its directive is read from ([`directive_block_start`]), and its own text.
fn inputs_of<'d>(doc: &'d Document, d: &Decl) -> (Position, &'d str, &'d str) {
    let text = doc.text();
    (
        doc.position_of(d.start),
        text.get(directive_block_start(text, d.start)..d.start)
            .unwrap_or(""),
        text.get(d.start..d.end).unwrap_or(""),
    )
}

/// What [`prepare`] gives a job: the analysis, and the theorems in it the job still has to
/// judge or explain (every other view was taken from the previous version as it was).
pub struct Prepared {
    pub analysis: DocAnalysis,
    pub work: Vec<usize>,
}

/// Whether theorem `t` may lack its explanation: both sides parsed, no distance yet.
pub fn explainable(t: &TheoremView) -> bool {
    t.distance.is_none()
        && t.candidate.is_some()
        && t.reference.as_ref().is_some_and(|r| r.statement.is_some())
}

/// The position of declaration `d` when the edits `u` left the inputs of `prev` (the previous
/// version's theorem of its name) alone, so that they need not be compared: the declaration
/// is where `prev`'s was (moved by the edits' length when after them), and its text, its
/// directive block and the line above that block (which ends the block) all lie before the
/// changed bytes or all in the unchanged tail. `None`: not shown so; the texts are compared.
fn at_if_unedited(u: &Unedited, prev: &TheoremView, d: &Decl) -> Option<Position> {
    let m = prev.made.as_ref()?;
    let p = &prev.decl;
    if p.end <= u.start {
        return (p == d).then_some(prev.at);
    }
    let tail = u.tail?;
    // `block - 1` ends the line above the block: it too must be in the tail.
    let block = p.start.checked_sub(m.lead.len())?;
    if block > tail.old_start && engine::is_shifted(p, d, tail.shift) {
        return Some(Position {
            line: u32::try_from(i64::from(prev.at.line) + tail.line_shift as i64).ok()?,
            character: prev.at.character,
        });
    }
    None
}

/// Whether `prev` (a theorem of the previous version) judged exactly what theorem text
/// `stmt_text` against reference `r` with metrics `lens` would: same texts, same reference
/// (origin, file and header included), no elaborated trees (those are Lean's, redone per
/// version), and every metric done. Only done results: each is in the result cache, which a
/// new core would be filled from; a failure, a timeout or an unavailable Lean-backed metric
/// may go otherwise next time (Lean back, the LLM allowed) and is judged again.
fn reusable(prev: &TheoremView, r: &RefView, stmt_text: &str, lens: &[String]) -> bool {
    let same_reference = prev.reference.as_ref().is_some_and(|p| {
        p.text == r.text
            && p.header == r.header
            && p.origin == r.origin
            && p.name == r.name
            && p.file == r.file
            && p.statement.is_some()
    });
    same_reference && *prev.text == *stmt_text && judged_through(prev, lens)
}

/// Whether `prev`'s judgement is final for metrics `lens`: source trees only (elaborated ones
/// are Lean's, redone per version), no problem, the candidate parsed, and every metric done
/// (see [`reusable`] for why only done results count).
fn judged_through(prev: &TheoremView, lens: &[String]) -> bool {
    judged_final(prev) && prev.metrics.iter().map(|(m, _)| m).eq(lens)
}

/// [`judged_through`] whatever the metrics are named.
fn judged_final(t: &TheoremCore) -> bool {
    !t.elaborated
        && t.problem.is_none()
        && t.candidate.is_some()
        && t.metrics
            .iter()
            .all(|(_, s)| matches!(s, MetricState::Done(_)))
}

/// The previous version's theorems by name. Looked up in document order: while the names
/// follow the previous order, a cursor answers without hashing, and a name a few places
/// further on is found by looking there (a theorem added, removed or renamed by an edit costs
/// a few comparisons). After a few names not found so, a map of every name (the first theorem
/// of each) answers instead, and the cursor goes on from what it finds. Which theorem of a
/// repeated name is offered does not matter, nor that one found far away only by the map may
/// be missed before it is built: what is taken from a theorem is checked against the
/// declaration's own inputs, and a theorem not offered is judged anew (from the caches).
struct Earlier<'a> {
    theorems: &'a [Arc<TheoremView>],
    next: usize,
    misses: usize,
    by_name: Option<HashMap<&'a str, usize>>,
}

/// Places after the cursor [`Earlier`] looks at before its map is built.
const NEAR: usize = 4;
/// Names [`Earlier`] does not find near the cursor before it builds its map.
const MISSES_BEFORE_MAP: usize = 8;

impl<'a> Earlier<'a> {
    fn new(theorems: &'a [Arc<TheoremView>]) -> Earlier<'a> {
        Earlier {
            theorems,
            next: 0,
            misses: 0,
            by_name: None,
        }
    }

    fn get(&mut self, name: &Arc<str>) -> Option<&'a Arc<TheoremView>> {
        let theorems = self.theorems;
        // Mostly the same shared name (declaration scans keep them): no text compared.
        let named = |t: &TheoremView| {
            t.decl
                .name
                .as_ref()
                .is_some_and(|n| Arc::ptr_eq(n, name) || **n == **name)
        };
        let near = if self.by_name.is_some() { 1 } else { NEAR };
        let end = (self.next + near).min(theorems.len());
        if let Some(i) = (self.next..end).find(|&i| named(&theorems[i])) {
            self.next = i + 1;
            return theorems.get(i);
        }
        if self.by_name.is_none() {
            self.misses += 1;
            if self.misses <= MISSES_BEFORE_MAP {
                return None;
            }
        }
        let m = self.by_name.get_or_insert_with(|| {
            let mut m = HashMap::with_capacity(theorems.len());
            for (i, t) in theorems.iter().enumerate() {
                if let Some(n) = t.name() {
                    m.entry(n).or_insert(i);
                }
            }
            m
        });
        let &i = m.get(&**name)?;
        self.next = i + 1;
        theorems.get(i)
    }
}

/// Whether `prev` (the previous version's theorem of the same name) was made from the same
/// directive text and declaration text as the declaration at hand (its [`Made`] record's);
/// with [`settled`], whether the view may be taken as it is.
fn unchanged(prev: &TheoremView, lead: &str, stmt_text: &str) -> bool {
    prev.made
        .as_ref()
        .is_some_and(|m| *m.lead == *lead && *prev.text == *stmt_text)
}

/// For `prev`, made from the same texts as the declaration at hand: `Some(whether its
/// explanation is missing)` when it holds a final judgement from inputs that are still
/// current: a [`Made`] record whose reference file is the current one (by identity, its path
/// still readable), the reference parsed, and [`judged_through`] (what [`reusable`] checks
/// besides the texts, which the identical inputs make true). Costs a look at the view (its
/// memo) and, once per job and file, a stamp.
fn settled(
    prev: &TheoremView,
    lens: u64,
    reads: &mut Reads,
    input: &JobInput,
    readable: &ReadableRoots,
) -> Option<bool> {
    let m = prev.made.as_ref()?;
    if let Some((path, file)) = &m.file {
        // Most theorems name one file: once it is found current, a pointer comparison.
        if !reads.current.iter().any(|f| Arc::ptr_eq(f, file)) {
            if reads.check(readable, path).is_err() {
                return None;
            }
            match reads.file(path, &input.open_texts) {
                Ok(f) if Arc::ptr_eq(&f, file) => reads.current.push(f),
                _ => return None,
            }
        }
    }
    prev.judged_for(lens)
}

/// The pair to judge for theorem `i`, when both sides parsed.
pub fn statements(
    a: &DocAnalysis,
    i: usize,
) -> Option<(Arc<Statement>, Arc<Statement>, String, String)> {
    let t = a.theorems.get(i)?;
    let r = t.reference.as_ref()?;
    Some((
        r.statement.clone()?,
        t.candidate.clone()?,
        r.header.clone(),
        r.text.clone(),
    ))
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
    let pair = Pair {
        reference,
        candidate,
        reference_header: ref_header,
        candidate_header: cand_header,
    };
    engine::judge_by(metric, &pair, deadline).map_err(|e| e.to_string())
}

/// Differences and distance of theorem `t` from the TED mapping, uncached (elaborated trees).
pub fn explain(t: &mut TheoremView) {
    let (Some(r), Some(c)) = (
        t.reference.as_ref().and_then(|r| r.statement.clone()),
        t.candidate.clone(),
    ) else {
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
    let key = (
        rv.text.as_str(),
        rv.header.as_str(),
        c.source.as_str(),
        cand_header,
    );
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

    #[test]
    fn prepare_finds_directive_and_config_references() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(
            root.join("Reference.lean"),
            "import Mathlib\n\ntheorem r1 (x : ℕ) : x + 0 = x := by simp\n\ntheorem same (a : ℕ) : a = a := rfl\n",
        )
        .unwrap();
        let cfg_path = root.join("lean-assess.toml");
        std::fs::write(&cfg_path, "[reference]\nfile = \"Reference.lean\"\n").unwrap();
        let cand = "import Mathlib\n\n-- @reference Reference.lean::r1\ntheorem c1 (x : ℕ) : 0 + x = x := by simp\n\ntheorem same (a : ℕ) : a = a := rfl\n\ntheorem lonely : True := trivial\n\n-- @reference\ntheorem broken : True := trivial\n";
        let path = root.join("Cand.lean");
        let doc = Arc::new(Document::new(crate::files::path_to_uri(&path), 3, cand));
        let input = JobInput {
            doc,
            path: Some(path),
            config: Some(Config::load(&cfg_path).map(Arc::new)),
            open_texts: HashMap::new(),
            toolchain: String::new(),
            extra_roots: Vec::new(),
            previous: None,
            result_names: Vec::new(),
        };
        let a = prepare(&input, &JobCaches::default(), &CancelToken::default())
            .expect("not cancelled")
            .analysis;
        assert_eq!(a.version, 3);
        let names: Vec<_> = a.theorems.iter().map(|t| t.name().unwrap_or("")).collect();
        assert_eq!(names, ["c1", "same"]);
        let r = a.theorems[0].reference.as_ref().unwrap();
        assert_eq!(r.name.as_deref(), Some("r1"));
        assert!(r.text.starts_with("theorem r1 (x : ℕ) : x + 0 = x"));
        assert_eq!(r.origin, "directive at Cand.lean:3");
        assert_eq!(
            a.theorems[1].reference.as_ref().unwrap().origin,
            "lean-assess.toml (by name)"
        );
        assert_eq!(a.problems.len(), 1);
        assert_eq!(a.problems[0].line, 9);
        assert!(
            a.problems[0].message.contains("Cand.lean:10: "),
            "{:?}",
            a.problems
        );
    }

    /// A workspace with `n` judged theorems (each under a directive) and its job input.
    fn workspace(n: usize) -> (tempfile::TempDir, JobInput) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let mut reference = String::from("import Mathlib\n\n");
        let mut cand = String::from("import Mathlib\n\n");
        for i in 0..n {
            reference.push_str(&format!(
                "theorem r{i} (x : ℕ) : x + {i} = {i} + x := by omega\n\n"
            ));
            cand.push_str(&format!(
                "-- @reference Reference.lean::r{i}\ntheorem c{i} (x : ℕ) : {i} + x = x + {i} := by omega\n\n"
            ));
        }
        std::fs::write(root.join("Reference.lean"), reference).unwrap();
        let path = root.join("Cand.lean");
        let doc = Arc::new(Document::new(crate::files::path_to_uri(&path), 1, cand));
        let input = JobInput {
            doc,
            path: Some(path),
            config: None,
            open_texts: HashMap::new(),
            toolchain: String::new(),
            extra_roots: Vec::new(),
            previous: None,
            result_names: Vec::new(),
        };
        (dir, input)
    }

    #[test]
    fn an_unchanged_reference_file_is_read_and_parsed_once() {
        let (dir, mut input) = workspace(20);
        let caches = JobCaches::default();
        let cancel = CancelToken::default();
        let first = prepare(&input, &caches, &cancel).unwrap().analysis;
        assert_eq!(first.theorems.len(), 20);
        let reads = caches.file_reads.load(std::sync::atomic::Ordering::Relaxed);
        let parses = caches.parses.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!((reads, parses), (1, 40));
        // An edit in one theorem: the reference file is not read again, one statement parsed.
        let text = input.doc.text().replacen(
            "theorem c3 (x : ℕ) : 3 + x",
            "theorem c3 (x : ℕ) : 3 + x + 0",
            1,
        );
        input.doc = Arc::new(Document::new(input.doc.uri.clone(), 2, text));
        let second = prepare(&input, &caches, &cancel).unwrap().analysis;
        assert_eq!(
            caches.file_reads.load(std::sync::atomic::Ordering::Relaxed),
            1
        );
        assert_eq!(caches.parses.load(std::sync::atomic::Ordering::Relaxed), 41);
        // Unchanged theorems share their parsed statements with the previous version.
        assert!(Arc::ptr_eq(
            first.theorems[0].candidate.as_ref().unwrap(),
            second.theorems[0].candidate.as_ref().unwrap()
        ));
        // The reference file changes on disk (another length): read again.
        let r = dir.path().join("Reference.lean");
        let mut t = std::fs::read_to_string(&r).unwrap();
        t.push_str("-- more\n");
        std::fs::write(&r, t).unwrap();
        prepare(&input, &caches, &cancel).unwrap();
        assert_eq!(
            caches.file_reads.load(std::sync::atomic::Ordering::Relaxed),
            2
        );
    }

    #[test]
    fn unchanged_theorems_keep_their_judged_core_and_only_move() {
        let (dir, mut input) = workspace(6);
        let caches = JobCaches::default();
        let cancel = CancelToken::default();
        let mut first = prepare(&input, &caches, &cancel).unwrap().analysis;
        // As the job leaves them: every metric done (only those are reused).
        for t in first.theorems.iter_mut() {
            let (r, c) = (
                t.reference.as_ref().unwrap().statement.clone().unwrap(),
                t.candidate.clone().unwrap(),
            );
            let t = Arc::make_mut(t);
            for (m, s) in t.metrics.iter_mut() {
                let far = Instant::now() + Duration::from_secs(60);
                *s = MetricState::Done(run_metric(m, &r, &c, "", "", far).unwrap());
            }
        }
        let first = Arc::new(first);
        // An edit inside c2 that shifts every later theorem by a few bytes (no new line).
        let text = input
            .doc
            .text()
            .replacen("theorem c2 (x : ℕ)", "theorem c2 (x y : ℕ)", 1);
        input.doc = Arc::new(Document::new(input.doc.uri.clone(), 2, text));
        input.previous = Some(first.clone());
        let second = prepare(&input, &caches, &cancel).unwrap().analysis;
        for (i, (a, b)) in first.theorems.iter().zip(&second.theorems).enumerate() {
            let shared = Arc::ptr_eq(&a.core, &b.core);
            assert_eq!(shared, i != 2, "theorem {i}");
            // Earlier theorems are the same view; later ones moved.
            assert_eq!(Arc::ptr_eq(a, b), i < 2, "theorem {i}");
            if i > 2 {
                assert_eq!(b.decl.start, a.decl.start + 2);
            }
        }
        // A theorem whose metric did not finish is judged again.
        let mut second = second;
        Arc::make_mut(&mut second.theorems[1]).metrics[0].1 =
            MetricState::Failed("Lean went away".into());
        input.previous = Some(Arc::new(second.clone()));
        let again = prepare(&input, &caches, &cancel).unwrap().analysis;
        assert!(!Arc::ptr_eq(
            &second.theorems[1].core,
            &again.theorems[1].core
        ));
        assert_eq!(again.theorems[1].metrics[0].1, MetricState::Pending);
        assert!(Arc::ptr_eq(
            &second.theorems[0].core,
            &again.theorems[0].core
        ));
        // The reference file changes: nothing is reused, even for unchanged theorems.
        let r = dir.path().join("Reference.lean");
        let t = std::fs::read_to_string(&r)
            .unwrap()
            .replace("theorem r4 (x : ℕ) : x + 4", "theorem r4 (x : ℕ) : x + 5");
        std::fs::write(&r, t).unwrap();
        input.previous = Some(Arc::new(second));
        let third = prepare(&input, &caches, &cancel).unwrap().analysis;
        let prev = input.previous.as_ref().unwrap();
        assert!(!Arc::ptr_eq(
            &prev.theorems[4].core,
            &third.theorems[4].core
        ));
        assert!(Arc::ptr_eq(&prev.theorems[5].core, &third.theorems[5].core));
        assert!(third.theorems[4]
            .reference
            .as_ref()
            .unwrap()
            .text
            .contains("x + 5"));
        // Another config: nothing is reused.
        input.toolchain = "leanprover/lean4:v9".into();
        input.previous = Some(Arc::new(third));
        let fourth = prepare(&input, &caches, &cancel).unwrap().analysis;
        let prev = input.previous.as_ref().unwrap();
        assert!(prev
            .theorems
            .iter()
            .zip(&fourth.theorems)
            .all(|(a, b)| !Arc::ptr_eq(&a.core, &b.core)));
    }

    /// What a view says of its theorem, apart from the judged results (a fresh job has them
    /// pending) and the reference file's identity (another cache holds another `Arc`).
    type Facts = (
        Decl,
        (usize, Position),
        Option<RefView>,
        String,
        Option<Arc<Statement>>,
        Option<String>,
        Option<(String, usize, Option<PathBuf>)>,
    );

    fn facts(a: &DocAnalysis) -> Vec<Facts> {
        a.theorems
            .iter()
            .map(|t| {
                (
                    t.decl.clone(),
                    (t.candidate_offset, t.at),
                    t.reference.clone(),
                    t.text.to_string(),
                    t.candidate.clone(),
                    t.problem.clone(),
                    t.made.as_ref().map(|m| {
                        (
                            m.lead.to_string(),
                            m.line,
                            m.file.as_ref().map(|(p, _)| p.to_path_buf()),
                        )
                    }),
                )
            })
            .collect()
    }

    /// Every metric done, as the job leaves a theorem it judged (only those are taken again).
    fn settle(a: &mut DocAnalysis) {
        for t in a.theorems.iter_mut() {
            let (Some(r), Some(c)) = (
                t.reference.as_ref().and_then(|r| r.statement.clone()),
                t.candidate.clone(),
            ) else {
                continue;
            };
            if t.metrics
                .iter()
                .all(|(_, s)| matches!(s, MetricState::Done(_)))
            {
                continue;
            }
            let t = Arc::make_mut(t);
            for (_, s) in t.metrics.iter_mut() {
                let far = Instant::now() + Duration::from_secs(60);
                *s = MetricState::Done(run_metric("ted", &r, &c, "", "", far).unwrap());
            }
        }
    }

    /// The edits `typed` (each a text replaced once) as the next version of the workspace's
    /// document: the job starting from the previous views against one from nothing.
    fn next_equals_fresh(typed: &[(&str, &str)]) {
        let (_dir, mut input) = workspace(3);
        let caches = JobCaches::default();
        let cancel = CancelToken::default();
        let mut prev = prepare(&input, &caches, &cancel).unwrap().analysis;
        settle(&mut prev);
        let mut text = input.doc.text().to_string();
        for (from, to) in typed {
            assert!(text.contains(from), "{from:?} not in the text");
            text = text.replacen(from, to, 1);
        }
        input.doc = Arc::new(Document::new(input.doc.uri.clone(), 2, text));
        input.previous = Some(Arc::new(prev));
        let next = prepare(&input, &caches, &cancel).unwrap().analysis;
        input.previous = None;
        let fresh = prepare(&input, &JobCaches::default(), &cancel)
            .unwrap()
            .analysis;
        assert_eq!(facts(&next), facts(&fresh), "after {typed:?}");
        assert_eq!(next.problems, fresh.problems, "after {typed:?}");
    }

    /// A view found final once (its memo filled) and then written is judged again: every write
    /// forgets the memo.
    #[test]
    fn a_view_written_after_its_check_is_not_taken_as_final() {
        let (_dir, mut input) = workspace(3);
        let caches = JobCaches::default();
        let cancel = CancelToken::default();
        let mut first = prepare(&input, &caches, &cancel).unwrap().analysis;
        settle(&mut first);
        input.previous = Some(Arc::new(first));
        // Taken as it was: the memo of every view is filled.
        let mut second = prepare(&input, &caches, &cancel).unwrap().analysis;
        let last = input.previous.take().unwrap();
        assert!(second
            .theorems
            .iter()
            .zip(&last.theorems)
            .all(|(a, b)| Arc::ptr_eq(a, b)));
        drop(last);
        // Written in place (the view and core are not shared any more), as a job's round does.
        Arc::make_mut(&mut second.theorems[1]).metrics[0].1 = MetricState::Failed("x".into());
        let kept = second.theorems.clone();
        input.previous = Some(Arc::new(second));
        let third = prepare(&input, &caches, &cancel).unwrap().analysis;
        assert_eq!(third.theorems[1].metrics[0].1, MetricState::Pending);
        assert!(!Arc::ptr_eq(third.theorems[1].core(), kept[1].core()));
        assert!(
            Arc::ptr_eq(&third.theorems[0], &kept[0]) && Arc::ptr_eq(&third.theorems[2], &kept[2])
        );
    }

    /// Edits at the edges of what `at_if_unedited` takes without comparing texts.
    #[test]
    fn edits_next_to_a_theorem_left_alone_reach_its_view() {
        let r1 = "omega\n\n-- @reference Reference.lean::r1";
        // The line above a directive block becomes a comment: the block grows upwards.
        next_equals_fresh(&[(r1, "omega\n-- c\n-- @reference Reference.lean::r1")]);
        // Typed at the end of the previous theorem, or joining the blank line to it.
        next_equals_fresh(&[(r1, "omega x\n\n-- @reference Reference.lean::r1")]);
        next_equals_fresh(&[(r1, "omega\n-- @reference Reference.lean::r1")]);
        // The same length: a digit overwritten inside a statement, and in a directive.
        next_equals_fresh(&[("1 + x = x + 1", "1 + x = x + 7")]);
        next_equals_fresh(&[("Reference.lean::r1", "Reference.lean::r2")]);
        // Lines inserted above: every later theorem moves, its origin's line too.
        next_equals_fresh(&[("import Mathlib\n", "import Mathlib\n\n\n")]);
        // A CR typed before a line feed, and alone (LSP counts a lone CR as a line break).
        next_equals_fresh(&[(r1, "omega\r\n\n-- @reference Reference.lean::r1")]);
        next_equals_fresh(&[(r1, "omega\n\r-- @reference Reference.lean::r1")]);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// After any sequence of edits — a statement, a directive's target, lines inserted
        /// above, a comment joining the directive's block, a broken or inline directive, the
        /// reference file changed on disk or opened in the editor — a job that starts from the
        /// previous version's views says what a job from nothing says, and it takes a view as
        /// it is only when that theorem's text and reference are unchanged.
        #[test]
        fn views_taken_from_the_last_version_equal_a_fresh_job(
            ops in proptest::collection::vec((0u8..11, 0usize..7, 0usize..100_000), 1..7)
        ) {
            let (dir, mut input) = workspace(6);
            let caches = JobCaches::default();
            let cancel = CancelToken::default();
            let mut prev = prepare(&input, &caches, &cancel).unwrap().analysis;
            settle(&mut prev);
            let ref_path = dir.path().join("Reference.lean");
            let mut version = 1;
            // Typed anywhere: before, inside or after theorems, directives and their blocks.
            const TYPED: [&str; 7] = ["x", "\n", "-- c\n", "\r", "/-", " := by\n", "-- c"];
            for (op, k, at) in ops {
                version += 1;
                let mut text = input.doc.text().to_string();
                let directive = format!("-- @reference Reference.lean::r{k}\n");
                match op {
                    0 => text = text.replacen(&format!("{k} + x ="), &format!("{k} + x + 0 ="), 1),
                    1 => text = text.replacen(
                        &directive,
                        &format!("-- @reference Reference.lean::r{}\n", (k + 1) % 6),
                        1,
                    ),
                    2 => text = text.replacen(&directive, &format!("\n{directive}"), 1),
                    3 => text = text.replacen(&directive, &format!("-- note\n{directive}"), 1),
                    4 => text = text.replacen(
                        &directive,
                        &format!("-- @reference Reference.lean::r{k} extra\n"),
                        1,
                    ),
                    5 => text = text.replacen(
                        &directive,
                        "-- @reference theorem q (x : ℕ) : x + 1 = 1 + x\n",
                        1,
                    ),
                    // An ASCII character overwritten: the text keeps its length.
                    10 => {
                        let at = at % text.len();
                        if text.as_bytes()[at].is_ascii_alphanumeric() {
                            let c = if text.as_bytes()[at] == b'7' { "8" } else { "7" };
                            text.replace_range(at..at + 1, c);
                        }
                    }
                    8 | 9 => {
                        let mut at = at % (text.len() + 1);
                        while !text.is_char_boundary(at) {
                            at -= 1;
                        }
                        // Every other time at a line start, where blocks and declarations begin.
                        if at % 2 == 0 {
                            at = text[..at].rfind('\n').map_or(0, |i| i + 1);
                        }
                        if op == 8 {
                            text.insert_str(at, TYPED[k]);
                        } else {
                            let mut end = (at + k * 7 + 1).min(text.len());
                            while !text.is_char_boundary(end) {
                                end += 1;
                            }
                            text.replace_range(at..end, "");
                        }
                    }
                    6 => {
                        let r = std::fs::read_to_string(&ref_path).unwrap().replacen(
                            &format!("x + {k} ="),
                            &format!("x + {k} + 0 ="),
                            1,
                        );
                        std::fs::write(&ref_path, r).unwrap();
                    }
                    _ => {
                        let r = std::fs::read_to_string(&ref_path)
                            .unwrap()
                            .replacen(&format!("x + {k} ="), &format!("x * 1 + {k} ="), 1);
                        input.open_texts.insert(
                            ref_path.clone(),
                            Arc::new(Document::new(
                                crate::files::path_to_uri(&ref_path),
                                version,
                                r,
                            )),
                        );
                    }
                }
                input.doc = Arc::new(Document::new(input.doc.uri.clone(), version, text));
                let last = Arc::new(prev);
                input.previous = Some(last.clone());
                let Prepared { analysis: mut next, work } = prepare(&input, &caches, &cancel).unwrap();
                // The work list names exactly the views with a metric to run or an explanation
                // missing.
                for (i, t) in next.theorems.iter().enumerate() {
                    let pending = t.metrics.iter().any(|(_, s)| *s == MetricState::Pending);
                    proptest::prop_assert_eq!(work.contains(&i), pending || explainable(t));
                }
                input.previous = None;
                let fresh = prepare(&input, &JobCaches::default(), &cancel).unwrap().analysis;
                proptest::prop_assert_eq!(facts(&next), facts(&fresh));
                proptest::prop_assert_eq!(&next.problems, &fresh.problems);
                for t in &next.theorems {
                    if let Some(old) = last.theorems.iter().find(|o| Arc::ptr_eq(&o.core, &t.core)) {
                        proptest::prop_assert_eq!(&old.text, &t.text);
                        proptest::prop_assert_eq!(&old.reference, &t.reference);
                    }
                }
                settle(&mut next);
                prev = next;
            }
        }
    }

    #[test]
    fn a_cancelled_job_stops_before_reading_or_parsing() {
        let (_dir, input) = workspace(5);
        let caches = JobCaches::default();
        let cancel = CancelToken::default();
        cancel.cancel();
        assert!(prepare(&input, &caches, &cancel).is_none());
        assert_eq!(
            caches.file_reads.load(std::sync::atomic::Ordering::Relaxed),
            0
        );
        assert_eq!(caches.parses.load(std::sync::atomic::Ordering::Relaxed), 0);
        // Dropping the guard a job holds cancels its token.
        let guard = crate::features::cache::CancelOnDrop::default();
        let token = guard.token();
        assert!(!token.is_cancelled());
        drop(guard);
        assert!(token.is_cancelled());
    }

    #[test]
    fn explanations_are_cached_by_the_pair_texts() {
        let (_dir, input) = workspace(3);
        let caches = JobCaches::default();
        let a = prepare(&input, &caches, &CancelToken::default())
            .unwrap()
            .analysis;
        for _ in 0..2 {
            for t in &a.theorems {
                let mut t = TheoremView::clone(t);
                explain_cached(&mut t, &a.candidate_header, &caches);
                assert!(t.distance.is_some());
            }
        }
        assert_eq!(
            caches.mappings.load(std::sync::atomic::Ordering::Relaxed),
            3
        );
        // The cached explanation equals a fresh one.
        let mut fresh = TheoremView::clone(&a.theorems[1]);
        explain(&mut fresh);
        let mut cached = TheoremView::clone(&a.theorems[1]);
        explain_cached(&mut cached, &a.candidate_header, &caches);
        assert_eq!(
            (fresh.distance, fresh.differences.clone()),
            (cached.distance, cached.differences.clone())
        );
    }
}
