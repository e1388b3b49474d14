//! Statement integrity in the editor: a theorem whose reference is a *task* gets a code lens
//! "statement unchanged ✓" (or "statement changed ✗" with an error diagnostic on the first
//! changed subterm), errors on header changes before it, and warnings on every `sorry`, `axiom`
//! and other forbidden construct the document adds.
//!
//! A theorem's task comes from a directive on the `--` lines directly above it,
//! `-- @task Task.lean::name` (or `-- @task Task.lean` for the same name; relative to the
//! document), or from `lean-assess.toml`: `[integrity] tasks = "DIR"` (relative to the config
//! file) makes `DIR/<document file name>` the task of every same-named theorem in the document.
//!
//! Owns [`IntegrityState`] (one [`DocIntegrity`] per open document: lenses and diagnostics at
//! byte offsets of the version they were computed for) and turning them into LSP JSON. The
//! check is `crate::integrity`'s (offline only: no Lean, no `transted-lite` search, a few
//! milliseconds per document); `super` calls [`IntegrityState::update`] at the start of each
//! document job and merges [`IntegrityState::diagnostics`] / [`IntegrityState::lenses`] into
//! what it publishes. Problems finding a task (unreadable file, unknown name) are one warning
//! on the directive's line; nothing here can stop the proxy.

use super::jobs::JobInput;
use super::JsonText;
use crate::config::ReadableRoots;
use crate::documents::Document;
use crate::files::{read_regular_file, MAX_SOURCE_BYTES};
use crate::integrity::{Criterion, Options, Parsed, StatementVerdict, Task};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const DIRECTIVE: &str = "@task";

/// What the integrity check shows for one document version.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DocIntegrity {
    pub version: i32,
    /// (byte offset of the declaration, title).
    pub lenses: Vec<(usize, String)>,
    /// (start, end byte offsets, LSP severity, message).
    pub diagnostics: Vec<(usize, usize, u8, String)>,
}

/// Per open document, the last integrity result.
#[derive(Debug, Default)]
pub struct IntegrityState {
    docs: Mutex<HashMap<String, Arc<DocIntegrity>>>,
}

impl IntegrityState {
    /// Recompute for the job's document. `true` when the diagnostics or lenses changed (the
    /// caller then publishes and refreshes).
    pub fn update(&self, input: &JobInput, limit: Duration) -> bool {
        let fresh = analyze(input, limit);
        let mut docs = self.docs.lock().unwrap_or_else(|p| p.into_inner());
        let uri = input.doc.uri.clone();
        let old = docs.get(&uri).cloned();
        let changed = match (&old, &fresh) {
            (None, None) => false,
            (Some(o), Some(n)) => o.lenses != n.lenses || o.diagnostics != n.diagnostics,
            _ => true,
        };
        match fresh {
            Some(f) => docs.insert(uri, Arc::new(f)),
            None => docs.remove(&uri),
        };
        changed
    }

    fn current(&self, uri: &str, doc: &Document) -> Option<Arc<DocIntegrity>> {
        let docs = self.docs.lock().unwrap_or_else(|p| p.into_inner());
        // Offsets of another version would point at the wrong text: the next job recomputes.
        docs.get(uri).filter(|d| d.version == doc.version).cloned()
    }

    /// Our integrity diagnostics for `uri` (merged into every publish of the document).
    pub fn diagnostics(&self, uri: &str, doc: Option<Arc<Document>>) -> Vec<Value> {
        let Some(doc) = doc else { return Vec::new() };
        let Some(d) = self.current(uri, &doc) else {
            return Vec::new();
        };
        d.diagnostics
            .iter()
            .map(|(s, e, severity, message)| {
                json!({
                    "range": doc.range_of(*s, *e),
                    "severity": severity,
                    "source": "lean-assess integrity",
                    "message": super::views::plain_text(message),
                })
            })
            .collect()
    }

    /// `result` (the other lenses of a `textDocument/codeLens` reply, JSON text) with ours
    /// appended: the other lenses' text is copied, not parsed.
    pub fn with_lenses(
        &self,
        params: &Value,
        doc: Option<Arc<Document>>,
        result: JsonText,
    ) -> JsonText {
        let (Some(uri), Some(doc)) = (params["textDocument"]["uri"].as_str(), doc) else {
            return result;
        };
        let Some(d) = self.current(uri, &doc) else {
            return result;
        };
        if d.lenses.is_empty() {
            return result;
        }
        let ours: Vec<String> = d
            .lenses
            .iter()
            .map(|(offset, title)| {
                let p = doc.position_of(*offset);
                // An empty command id: a label, nothing to run (LSP `Command.command`).
                json!({"range": {"start": p, "end": p},
                       "command": {"title": title, "command": ""}})
                .to_string()
            })
            .collect();
        let ours = ours.join(",");
        let theirs = result.get().trim();
        let text = match theirs.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            Some(inner) if !inner.trim().is_empty() => format!("[{inner},{ours}]"),
            _ => format!("[{ours}]"),
        };
        JsonText::joined(Arc::new(text))
    }
}

/// Where a theorem's task is, and the name there.
struct Link {
    task: PathBuf,
    name: String,
    /// Byte range of the directive line (for problems), when there is one.
    directive: Option<(usize, usize)>,
}

/// The `-- @task SPEC` among the comment lines directly above byte `start` (a doc comment
/// between it and the declaration is fine): its SPEC and the directive's byte range. `masked`
/// is `text` with comments blanked ([`crate::integrity::scan::mask`]): a comment line is blank
/// there but not in `text`.
fn directive_above(text: &str, masked: &str, start: usize) -> Option<(String, (usize, usize))> {
    let before = text.get(..start)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let mut end = line_start;
    for line in before[..line_start].lines().rev() {
        let begin = end.saturating_sub(line.len() + 1);
        let code = masked.get(begin..begin + line.len()).unwrap_or(line);
        if line.trim().is_empty() || !code.trim().is_empty() {
            break;
        }
        if let Some(spec) =
            line.trim().strip_prefix("--").and_then(|c| c.trim().strip_prefix(DIRECTIVE))
        {
            return Some((spec.trim().to_string(), (begin, begin + line.len())));
        }
        end = begin;
    }
    None
}

/// `[integrity] tasks` of the config file, resolved against its directory.
fn tasks_dir(input: &JobInput) -> Option<PathBuf> {
    let config = input.config.as_ref()?.as_ref().ok()?;
    let text = read_regular_file(&config.path, MAX_SOURCE_BYTES).ok()?;
    let table: toml::Table = toml::from_str(&text).ok()?;
    let dir = table.get("integrity")?.get("tasks")?.as_str()?;
    Some(config.path.parent().unwrap_or(Path::new(".")).join(dir))
}

/// Where a workspace may make the proxy read a task: the references' roots (the config's
/// folder, the Lake project, the editor's workspace folders), so `-- @task ../outside/x.lean`
/// or a `tasks` directory outside is refused, not read and quoted.
fn readable_roots(input: &JobInput) -> ReadableRoots {
    let config = input.config.as_ref().and_then(|c| c.as_ref().ok());
    ReadableRoots::for_document(
        input.path.as_deref(),
        config.map(|c| c.as_ref()),
        &input.extra_roots,
    )
}

/// A task's text: the editor's buffer when it is open, else a regular file of bounded size
/// inside the readable roots.
fn read_task(input: &JobInput, roots: &ReadableRoots, path: &Path) -> Result<String, String> {
    roots.check(path).map_err(|e| format!("task not read: {e}"))?;
    if let Some(open) = input.open_texts.get(path) {
        return Ok(open.text().to_string());
    }
    read_regular_file(path, MAX_SOURCE_BYTES).map_err(|e| format!("cannot read task {e}"))
}

/// `limit`: the time limit of each task's offline check (the config's `offline_timeout_ms`).
fn analyze(input: &JobInput, limit: Duration) -> Option<DocIntegrity> {
    let path = input.path.as_ref()?;
    let text = input.doc.text();
    let implicit = tasks_dir(input).and_then(|d| {
        let task = d.join(path.file_name()?);
        (task != *path && task.is_file()).then_some(task)
    });
    // No task for the document and no `@task` anywhere in it: nothing can link a theorem to a
    // task, so nothing is shown, and the whole-file parse below (the largest part of an
    // edit's job in a long file) is skipped.
    if implicit.is_none() && !text.contains(DIRECTIVE) {
        return None;
    }
    let doc = Parsed::new(&path.display().to_string(), text).ok()?;
    let roots = readable_roots(input);
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut out = DocIntegrity { version: input.doc.version, ..DocIntegrity::default() };
    let links = links_of(&doc, text, dir, implicit.as_ref(), &mut out);
    if links.is_empty() && out.diagnostics.is_empty() {
        return None;
    }
    let mut by_task: BTreeMap<PathBuf, Vec<&Link>> = BTreeMap::new();
    for l in &links {
        by_task.entry(l.task.clone()).or_default().push(l);
    }
    for (task_path, links) in by_task {
        check_task(input, &roots, &doc, &task_path, &links, limit, &mut out);
    }
    out.lenses.sort();
    out.lenses.dedup();
    Some(out)
}

/// The links from the document's theorems to their tasks: by a `-- @task` directive above a
/// theorem, else by the implicit task file of the document; a malformed directive is a
/// diagnostic in `out`.
fn links_of(
    doc: &Parsed,
    text: &str,
    dir: &Path,
    implicit: Option<&PathBuf>,
    out: &mut DocIntegrity,
) -> Vec<Link> {
    let mut links: Vec<Link> = Vec::new();
    for c in &doc.commands {
        if !(c.keyword == "theorem" || c.keyword == "lemma") {
            continue;
        }
        let Some(full) = c.full_name.clone() else {
            continue;
        };
        // The directive sits above the declaration's doc comment and attributes too: look
        // above the command's first line.
        if let Some((spec, range)) = directive_above(text, &doc.masked, c.start) {
            let (file, name) = match spec.rsplit_once("::") {
                Some((f, n)) => (f.to_string(), n.to_string()),
                None => (spec.clone(), full.clone()),
            };
            if file.is_empty() || !file.ends_with(".lean") {
                out.diagnostics.push((
                    range.0,
                    range.1,
                    2,
                    format!("`-- @task {spec}`: expected Task.lean::NAME or Task.lean"),
                ));
                continue;
            }
            links.push(Link { task: dir.join(file), name, directive: Some(range) });
        } else if let Some(task) = implicit {
            links.push(Link { task: task.clone(), name: full, directive: None });
        }
    }
    links
}

/// Check the document against one task file, for the theorems `links` link to it: lenses
/// and diagnostics into `out`; a task that cannot be read or loaded is a problem on the
/// directives naming it.
fn check_task(
    input: &JobInput,
    roots: &ReadableRoots,
    doc: &Parsed,
    task_path: &Path,
    links: &[&Link],
    limit: Duration,
    out: &mut DocIntegrity,
) {
    let text = input.doc.text();
    let problem = |out: &mut DocIntegrity, message: String| {
        for l in links {
            if let Some((s, e)) = l.directive {
                out.diagnostics.push((s, e, 2, message.clone()));
            }
        }
    };
    let task_text = match read_task(input, roots, task_path) {
        Ok(t) => t,
        Err(e) => {
            problem(out, e);
            return;
        }
    };
    let task_name = task_path.display().to_string();
    // Implicit links name theorems that may not be in the task: keep those that are.
    let task_file = match Parsed::new(&task_name, &task_text) {
        Ok(p) => p,
        Err(e) => {
            problem(out, format!("{task_name}: {e}"));
            return;
        }
    };
    let mut names: Vec<String> = Vec::new();
    for l in links {
        if task_file.theorem(&l.name).is_some() {
            names.push(l.name.clone());
        } else if let Some((s, e)) = l.directive {
            // Only a directive names this theorem explicitly: say so on its line.
            out.diagnostics.push((s, e, 2, format!("{task_name}: no theorem named '{}'", l.name)));
        }
    }
    if names.is_empty() {
        return;
    }
    let options = Options {
        theorems: names,
        skip_transted_lite: true,
        offline_limit: Some(limit),
        ..Options::default()
    };
    let task = match Task::load(&task_name, &task_text, &options) {
        Ok(t) => t,
        Err(e) => {
            problem(out, e.to_string());
            return;
        }
    };
    let report = task.check(&doc.path, Ok(text), &options);
    for t in &report.targets {
        let Some(line) = t.solution_line else {
            // A directive whose theorem is not declared under the task's name.
            for l in links.iter().filter(|l| l.name == t.name) {
                if let Some((s, e)) = l.directive {
                    out.diagnostics.push((
                        s,
                        e,
                        1,
                        format!(
                            "integrity (missing): no theorem `{}` here: a solution keeps the task's name ({}:{})",
                            t.name, task_name, t.task_line
                        ),
                    ));
                }
            }
            continue;
        };
        let Some(c) = doc.commands.iter().find(|c| c.line == line) else {
            continue;
        };
        let title = match &t.statement {
            StatementVerdict::Unchanged => {
                format!("statement unchanged ✓ (task {}:{})", file_name(task_path), t.task_line)
            }
            _ => format!("statement changed ✗ (task {}:{})", file_name(task_path), t.task_line),
        };
        out.lenses.push((c.start, title));
    }
    for f in report.all_findings() {
        if f.file != doc.path {
            continue;
        }
        let (s, e) = match (f.span, f.line) {
            (Some(span), _) => span,
            (None, Some(line)) => line_range(text, line),
            (None, None) => continue,
        };
        let severity = match f.criterion {
            Criterion::Statement | Criterion::Missing | Criterion::Header => 1,
            _ => 2,
        };
        let entry = (s, e, severity, format!("integrity ({}): {}", f.criterion.name(), f.message));
        if !out.diagnostics.contains(&entry) {
            out.diagnostics.push(entry);
        }
    }
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// Byte range of 1-based `line` (without its newline).
fn line_range(text: &str, line: usize) -> (usize, usize) {
    let mut start = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return (start, start + l.trim_end_matches('\n').len());
        }
        start += l.len();
    }
    (text.len(), text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directive_is_read_from_the_comment_lines_above() {
        let text = "import Mathlib\n-- a note\n-- @task Task.lean::foo\n/-- doc -/\ntheorem foo : True := trivial\n";
        let masked = crate::integrity::scan::mask(text).unwrap();
        let start = text.find("theorem").unwrap();
        let (spec, (s, e)) = directive_above(text, &masked, start).unwrap();
        assert_eq!(spec, "Task.lean::foo");
        assert_eq!(&text[s..e], "-- @task Task.lean::foo");
        let plain = "-- @task T.lean\n\ntheorem foo : True := trivial\n";
        let masked = crate::integrity::scan::mask(plain).unwrap();
        assert!(directive_above(plain, &masked, plain.find("theorem").unwrap()).is_none());
    }

    #[test]
    fn line_ranges_are_one_based() {
        let text = "a\nbc\nd";
        assert_eq!(line_range(text, 2), (2, 4));
        assert_eq!(line_range(text, 3), (5, 6));
        assert_eq!(line_range(text, 9), (6, 6));
    }
}
