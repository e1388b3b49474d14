//! Phase 1 of a job, [`prepare`]: the document's theorems, their references, the parsed
//! statements, and which theorems the job still has to judge or explain. Each declaration is
//! taken from the previous version when its inputs are the same (`reuse`), else its reference
//! is resolved (`resolve`) and a new view made, filled from the caches where the texts were
//! seen before. Running metrics is the job's rounds'.

use super::resolve::{resolve, Reads};
use super::reuse::{at_if_unedited, reusable, settled, unchanged, Earlier};
use super::{
    explainable, names_hash, DocAnalysis, JobInput, Made, MetricState, Problem, RefView,
    TheoremCore, TheoremView,
};
use crate::config::{Config, ReadableRoots};
use crate::documents::{Document, Unedited};
use crate::features::cache::{CancelToken, JobCaches};
use crate::features::engine::{self, Decl};
use crate::references::{
    directive_above_at, directive_block_start, source_for, Directive, ReferenceSource,
};
use lsp_types::Position;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What [`prepare`] gives a job: the analysis, and the theorems in it the job still has to
/// judge or explain (every other view was taken from the previous version as it was).
pub struct Prepared {
    pub analysis: DocAnalysis,
    pub work: Vec<usize>,
}

/// Phase 1 (cheap, blocking I/O on small files): theorems, references, parsed statements. Every
/// metric starts `Pending` (the Lean-backed ones too: they run through `super::lean_lens`).
/// Reference files and parses come from `caches` when their text is unchanged, so an edit
/// costs the theorems it touched. `None` when `cancel` was set (the job was aborted) before
/// the end: nothing more is read or parsed after that.
pub fn prepare(input: &JobInput, caches: &JobCaches, cancel: &CancelToken) -> Option<Prepared> {
    let (scan, since) = caches.declarations(&input.doc.uri, input.doc.text());
    let mut job = Preparation::new(input, caches, &scan.decls);
    // The previous version's theorems by name (first in document order), when analysed with
    // the same header, config and toolchain: their cores may be reused.
    let inputs = input.inputs_key();
    let prev_theorems: &[Arc<TheoremView>] = input
        .previous
        .as_deref()
        .filter(|p| p.candidate_header == job.cand_header && p.inputs == inputs)
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
    for d in scan.decls.iter() {
        if cancel.is_cancelled() {
            return None;
        }
        let prev = d.name.as_ref().and_then(|n| earlier.get(n));
        job.add(d, prev, unedited);
    }
    Some(job.finish(inputs, scan.generation))
}

/// What a declaration's view is made from: its position, the text above it its directive is
/// read from, and its own text ([`inputs_of`]).
type DeclInputs<'d> = (Position, &'d str, &'d str);

/// What a declaration's view is made from in document `doc`: its position, the text above it
/// its directive is read from ([`directive_block_start`]), and its own text.
fn inputs_of<'d>(doc: &'d Document, d: &Decl) -> DeclInputs<'d> {
    let text = doc.text();
    (
        doc.position_of(d.start),
        text.get(directive_block_start(text, d.start)..d.start).unwrap_or(""),
        text.get(d.start..d.end).unwrap_or(""),
    )
}

/// One [`prepare`]: what every declaration is judged against, and the views made so far.
struct Preparation<'a> {
    input: &'a JobInput,
    caches: &'a JobCaches,
    doc: &'a Document,
    /// `None` for a bad config as for none: a bad config is the config file's problem, not
    /// this document's; the job tells the user once (`window/showMessage`, naming the file and
    /// line), and no diagnostic repeats it here.
    config: Option<&'a Config>,
    lens: Vec<String>,
    /// [`names_hash`] of `lens`.
    lens_hash: u64,
    doc_path: PathBuf,
    doc_dir: PathBuf,
    reads: Reads<'a>,
    readable: ReadableRoots,
    /// The document's header, also shared with the parses of references that have the same.
    cand_header: String,
    cand_header_shared: Arc<str>,
    /// The other reference headers, each shared by the parses that have it.
    ref_headers: HashMap<String, Arc<str>>,
    theorems: Vec<Arc<TheoremView>>,
    problems: Vec<Problem>,
    /// The theorems whose views are not taken as they are: metrics to run, or an explanation
    /// missing (a reused view whose explanation was cut short).
    work: Vec<usize>,
}

impl<'a> Preparation<'a> {
    fn new(input: &'a JobInput, caches: &'a JobCaches, decls: &[Decl]) -> Preparation<'a> {
        let doc: &'a Document = &input.doc;
        let cand_header = engine::header_of(doc.text(), decls);
        let cand_header_shared: Arc<str> = cand_header.as_str().into();
        let config = match &input.config {
            Some(Ok(c)) => Some(c.as_ref()),
            Some(Err(_)) | None => None,
        };
        let lens: Vec<String> = config.map_or_else(|| Config::default().lens, |c| c.lens.clone());
        let doc_path = input.path.clone().unwrap_or_else(|| PathBuf::from(&doc.uri));
        let doc_dir = doc_path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let readable =
            ReadableRoots::for_document(input.path.as_deref(), config, &input.extra_roots);
        Preparation {
            input,
            caches,
            doc,
            config,
            lens_hash: names_hash(lens.iter().map(String::as_str)),
            lens,
            doc_path,
            doc_dir,
            reads: Reads::new(caches),
            readable,
            cand_header,
            cand_header_shared,
            ref_headers: HashMap::new(),
            theorems: Vec::new(),
            problems: Vec::new(),
            work: Vec::new(),
        }
    }

    /// The view of declaration `d`, whose previous version's theorem of the same name is
    /// `prev`, and whose surroundings the edits since that version may have left alone.
    fn add(&mut self, d: &Decl, prev: Option<&Arc<TheoremView>>, unedited: Option<Unedited>) {
        // The declaration's inputs, once read ([`inputs_of`]).
        let mut read = None;
        if let Some(prev) = prev {
            if self.take_as_made(d, prev, unedited, &mut read) {
                return;
            }
        }
        let doc = self.doc;
        let (at, lead, stmt_text) = read.unwrap_or_else(|| inputs_of(doc, d));
        let decl_line = at.line as usize;
        let directive = self.directive(d, decl_line);
        let Some(src) =
            source_for(&self.doc_path, d.name.as_deref(), directive.as_ref(), self.config)
        else {
            return;
        };
        let resolved = resolve(
            &src,
            &self.cand_header,
            self.config,
            &mut self.reads,
            self.input,
            &self.readable,
        );
        let made = self.made(directive.is_some(), &src, &resolved, lead, decl_line);
        // The same theorem text against the same reference as in the previous version: its
        // judged core is taken as it is (results, parses, explanation), only moved.
        if let (Ok(r), Some(prev)) = (&resolved, prev) {
            if reusable(prev, r, stmt_text, &self.lens) {
                let view = if prev.decl == *d && prev.at == at && prev.made == made {
                    prev.clone()
                } else {
                    Arc::new(prev.moved(d.clone(), at, made))
                };
                self.push(view, explainable(prev));
                return;
            }
        }
        // A by-name lookup that finds nothing is not a problem: most theorems of a file need
        // not have a reference.
        if resolved.is_err() && matches!(src, ReferenceSource::Named { .. }) && directive.is_none()
        {
            return;
        }
        let view = self.new_view(d, at, stmt_text, resolved, made);
        let to_work =
            view.metrics.iter().any(|(_, s)| *s == MetricState::Pending) || explainable(&view);
        self.push(Arc::new(view), to_work);
    }

    /// Append `view`, on the work list when `to_work`.
    fn push(&mut self, view: Arc<TheoremView>, to_work: bool) {
        if to_work {
            self.work.push(self.theorems.len());
        }
        self.theorems.push(view);
    }

    /// Take `prev` as it is (moved) when `d` is made from the same inputs as it was: `true`
    /// when taken. `read`: `d`'s inputs, when they had to be read to tell.
    fn take_as_made(
        &mut self,
        d: &Decl,
        prev: &Arc<TheoremView>,
        unedited: Option<Unedited>,
        read: &mut Option<DeclInputs<'a>>,
    ) -> bool {
        let doc = self.doc;
        let lens_hash = self.lens_hash;
        let same_inputs_at = match unedited.and_then(|u| at_if_unedited(&u, prev, d)) {
            Some(at) => settled(prev, lens_hash, &mut self.reads, self.input, &self.readable)
                .map(|e| (at, e)),
            None => {
                let (at, lead, stmt_text) = *read.insert(inputs_of(doc, d));
                unchanged(prev, lead, stmt_text)
                    .then(|| settled(prev, lens_hash, &mut self.reads, self.input, &self.readable))
                    .flatten()
                    .map(|e| (at, e))
            }
        };
        let Some((at, unexplained)) = same_inputs_at else {
            return false;
        };
        let decl_line = at.line as usize;
        let m = prev.made.as_ref().expect("checked by `settled`");
        if m.line == decl_line {
            let view = if prev.decl == *d && prev.at == at {
                prev.clone()
            } else {
                Arc::new(prev.moved(d.clone(), at, prev.made.clone()))
            };
            self.push(view, unexplained);
            return true;
        }
        // On another line (lines inserted or removed above): the same directive and
        // reference, whose origin names the new line; the judged results are kept.
        let origin =
            match directive_above_at(doc.text(), d.start, decl_line, &self.doc_path, &self.doc_dir)
            {
                Some(Ok(dir)) => {
                    source_for(&self.doc_path, d.name.as_deref(), Some(&dir), self.config)
                        .map(|src| src.origin().to_string())
                }
                _ => None,
            };
        let Some(origin) = origin else {
            return false;
        };
        let mut core = TheoremCore::clone(&prev.core);
        if let Some(r) = core.reference.as_mut() {
            r.origin = origin;
        }
        let made = Made { line: decl_line, ..m.clone() };
        let view = TheoremView::new(d.clone(), at, Arc::new(core), Some(made));
        self.push(Arc::new(view), unexplained);
        true
    }

    /// The directive above `d` (on line `decl_line`); a malformed one is a problem.
    fn directive(&mut self, d: &Decl, decl_line: usize) -> Option<Directive> {
        let text = self.doc.text();
        match directive_above_at(text, d.start, decl_line, &self.doc_path, &self.doc_dir) {
            Some(Ok(dir)) => Some(dir),
            Some(Err(e)) => {
                self.problems
                    .push(Problem { line: e.line.saturating_sub(1), message: e.to_string() });
                None
            }
            None => None,
        }
    }

    /// What the next job needs to take this view without resolving it again: a directive
    /// naming a file's theorem or giving the statement inline, resolved.
    fn made(
        &mut self,
        has_directive: bool,
        src: &ReferenceSource,
        resolved: &Result<RefView, String>,
        lead: &str,
        decl_line: usize,
    ) -> Option<Made> {
        match (has_directive, src, resolved) {
            (true, ReferenceSource::Theorem { target, .. }, Ok(_)) => {
                self.reads.file(&target.file, &self.input.open_texts).ok().map(|f| Made {
                    lead: lead.into(),
                    line: decl_line,
                    file: Some((target.file.as_path().into(), f)),
                })
            }
            (true, ReferenceSource::Inline { .. }, Ok(_)) => {
                Some(Made { lead: lead.into(), line: decl_line, file: None })
            }
            _ => None,
        }
    }

    /// A new view of `d`: both statements parsed (from the caches when seen before), the
    /// explanation when known for the same texts, every metric pending, or failed by the
    /// problem found; `made` kept only without a problem.
    fn new_view(
        &mut self,
        d: &Decl,
        at: Position,
        stmt_text: &str,
        resolved: Result<RefView, String>,
        made: Option<Made>,
    ) -> TheoremView {
        let core = TheoremCore {
            text: stmt_text.into(),
            reference: None,
            candidate: None,
            metrics: self.lens.iter().map(|m| (m.clone(), MetricState::Pending)).collect(),
            differences: Vec::new(),
            distance: None,
            problem: None,
            elaborated: false,
        };
        let mut view = TheoremView::new(d.clone(), at, Arc::new(core), None);
        match resolved {
            Ok(mut r) => {
                let header = self.shared_header(&r.header);
                match self.caches.parse(&r.text, &header) {
                    Ok(s) => r.statement = Some(s),
                    Err(e) => view.problem = Some(format!("reference ({}): {e}", r.origin)),
                }
                view.reference = Some(r);
            }
            Err(e) => {
                self.problems.push(Problem { line: at.line as usize, message: e.clone() });
                view.problem = Some(e);
            }
        }
        match self.caches.parse(stmt_text, &self.cand_header_shared) {
            Ok(s) => view.candidate = Some(s),
            Err(e) => {
                view.problem.get_or_insert(format!("candidate: {e}"));
            }
        }
        self.explain_from_cache(&mut view);
        if let Some(problem) = view.problem.clone() {
            for (_, s) in view.metrics.iter_mut() {
                if *s == MetricState::Pending {
                    *s = MetricState::Failed(problem.clone());
                }
            }
        } else {
            view.made = made;
        }
        view
    }

    /// `header` shared: the document's own, or the one shared by the references that have it.
    fn shared_header(&mut self, header: &str) -> Arc<str> {
        if header == self.cand_header {
            self.cand_header_shared.clone()
        } else if let Some(h) = self.ref_headers.get(header) {
            h.clone()
        } else {
            let h: Arc<str> = header.into();
            self.ref_headers.insert(header.to_string(), h.clone());
            h
        }
    }

    /// An explanation known for the same texts: only the edited theorems are explained.
    fn explain_from_cache(&self, view: &mut TheoremView) {
        let (Some(r), Some(c)) = (view.reference.as_ref(), view.candidate.as_ref()) else {
            return;
        };
        if r.statement.is_none() {
            return;
        }
        let key =
            (r.text.as_str(), r.header.as_str(), c.source.as_str(), self.cand_header.as_str());
        if let Some(Some((distance, diffs))) = self.caches.explained(key) {
            view.distance = Some(distance);
            view.differences = diffs;
        }
    }

    fn finish(self, inputs: u64, scan: u64) -> Prepared {
        Prepared {
            analysis: DocAnalysis {
                uri: self.doc.uri.clone(),
                version: self.doc.version,
                theorems: self.theorems,
                problems: self.problems,
                candidate_header: self.cand_header,
                inputs,
                // Every file a view names was read (or found current) through `reads`.
                reference_files: self.reads.files.into_keys().collect(),
                scan,
            },
            work: self.work,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{explain, explain_cached, run_metric};
    use super::*;
    use crate::trees::Statement;
    use std::time::{Duration, Instant};
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
        let config = Some(Config::load(&cfg_path).map(Arc::new));
        let input = input_for(root.join("Cand.lean"), 3, cand, config);
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
        assert_eq!(a.theorems[1].reference.as_ref().unwrap().origin, "lean-assess.toml (by name)");
        assert_eq!(a.problems.len(), 1);
        assert_eq!(a.problems[0].line, 9);
        assert!(a.problems[0].message.contains("Cand.lean:10: "), "{:?}", a.problems);
    }

    /// A workspace with `n` judged theorems (each under a directive) and its job input.
    fn workspace(n: usize) -> (tempfile::TempDir, JobInput) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let mut reference = String::from("import Mathlib\n\n");
        let mut cand = String::from("import Mathlib\n\n");
        for i in 0..n {
            reference
                .push_str(&format!("theorem r{i} (x : ℕ) : x + {i} = {i} + x := by omega\n\n"));
            cand.push_str(&format!(
                "-- @reference Reference.lean::r{i}\ntheorem c{i} (x : ℕ) : {i} + x = x + {i} := by omega\n\n"
            ));
        }
        std::fs::write(root.join("Reference.lean"), reference).unwrap();
        let input = input_for(root.join("Cand.lean"), 1, cand, None);
        (dir, input)
    }

    /// [`workspace`] with fresh caches and a token not cancelled.
    fn workspace_to_prepare(n: usize) -> (tempfile::TempDir, JobInput, JobCaches, CancelToken) {
        let (dir, input) = workspace(n);
        (dir, input, JobCaches::default(), CancelToken::default())
    }

    /// The job input of `text` as version `version` of the document at `path`, under `config`,
    /// with nothing else open and no previous analysis.
    fn input_for(
        path: PathBuf,
        version: i32,
        text: impl Into<String>,
        config: Option<Result<Arc<Config>, crate::files::FileError>>,
    ) -> JobInput {
        let doc = Arc::new(Document::new(crate::files::path_to_uri(&path), version, text));
        JobInput {
            doc,
            path: Some(path),
            config,
            open_texts: HashMap::new(),
            toolchain: String::new(),
            extra_roots: Vec::new(),
            previous: None,
            result_names: Vec::new(),
        }
    }

    #[test]
    fn an_unchanged_reference_file_is_read_and_parsed_once() {
        let (dir, mut input, caches, cancel) = workspace_to_prepare(20);
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
        assert_eq!(caches.file_reads.load(std::sync::atomic::Ordering::Relaxed), 1);
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
        assert_eq!(caches.file_reads.load(std::sync::atomic::Ordering::Relaxed), 2);
    }

    #[test]
    fn unchanged_theorems_keep_their_judged_core_and_only_move() {
        let (dir, mut input, caches, cancel) = workspace_to_prepare(6);
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
        let text = input.doc.text().replacen("theorem c2 (x : ℕ)", "theorem c2 (x y : ℕ)", 1);
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
        assert!(!Arc::ptr_eq(&second.theorems[1].core, &again.theorems[1].core));
        assert_eq!(again.theorems[1].metrics[0].1, MetricState::Pending);
        assert!(Arc::ptr_eq(&second.theorems[0].core, &again.theorems[0].core));
        // The reference file changes: nothing is reused, even for unchanged theorems.
        let r = dir.path().join("Reference.lean");
        let t = std::fs::read_to_string(&r)
            .unwrap()
            .replace("theorem r4 (x : ℕ) : x + 4", "theorem r4 (x : ℕ) : x + 5");
        std::fs::write(&r, t).unwrap();
        input.previous = Some(Arc::new(second));
        let third = prepare(&input, &caches, &cancel).unwrap().analysis;
        let prev = input.previous.as_ref().unwrap();
        assert!(!Arc::ptr_eq(&prev.theorems[4].core, &third.theorems[4].core));
        assert!(Arc::ptr_eq(&prev.theorems[5].core, &third.theorems[5].core));
        assert!(third.theorems[4].reference.as_ref().unwrap().text.contains("x + 5"));
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
                        (m.lead.to_string(), m.line, m.file.as_ref().map(|(p, _)| p.to_path_buf()))
                    }),
                )
            })
            .collect()
    }

    /// Every metric done, as the job leaves a theorem it judged (only those are taken again).
    fn settle(a: &mut DocAnalysis) {
        for t in a.theorems.iter_mut() {
            let (Some(r), Some(c)) =
                (t.reference.as_ref().and_then(|r| r.statement.clone()), t.candidate.clone())
            else {
                continue;
            };
            if t.metrics.iter().all(|(_, s)| matches!(s, MetricState::Done(_))) {
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
        let (_dir, mut input, caches, cancel) = workspace_to_prepare(3);
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
        let fresh = prepare(&input, &JobCaches::default(), &cancel).unwrap().analysis;
        assert_eq!(facts(&next), facts(&fresh), "after {typed:?}");
        assert_eq!(next.problems, fresh.problems, "after {typed:?}");
    }

    /// A view found final once (its memo filled) and then written is judged again: every write
    /// forgets the memo.
    #[test]
    fn a_view_written_after_its_check_is_not_taken_as_final() {
        let (_dir, mut input, caches, cancel) = workspace_to_prepare(3);
        let mut first = prepare(&input, &caches, &cancel).unwrap().analysis;
        settle(&mut first);
        input.previous = Some(Arc::new(first));
        // Taken as it was: the memo of every view is filled.
        let mut second = prepare(&input, &caches, &cancel).unwrap().analysis;
        let last = input.previous.take().unwrap();
        assert!(second.theorems.iter().zip(&last.theorems).all(|(a, b)| Arc::ptr_eq(a, b)));
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
            let (dir, mut input, caches, cancel) = workspace_to_prepare(6);
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
        let (_dir, input, caches, cancel) = workspace_to_prepare(5);
        cancel.cancel();
        assert!(prepare(&input, &caches, &cancel).is_none());
        assert_eq!(caches.file_reads.load(std::sync::atomic::Ordering::Relaxed), 0);
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
        let a = prepare(&input, &caches, &CancelToken::default()).unwrap().analysis;
        for _ in 0..2 {
            for t in &a.theorems {
                let mut t = TheoremView::clone(t);
                explain_cached(&mut t, &a.candidate_header, &caches);
                assert!(t.distance.is_some());
            }
        }
        assert_eq!(caches.mappings.load(std::sync::atomic::Ordering::Relaxed), 3);
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
