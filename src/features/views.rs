//! LSP JSON for what the features show: code lenses, the hover section, code actions, our
//! diagnostics. Pure functions of a [`DocAnalysis`] and the [`Document`] positions; no state, no
//! sending (that is `protocol`'s `Outbox`, used by the concerns behind the `Features` facade).
//!
//! Shapes: LSP 3.17 `CodeLens {range, command}`, `Command {title, command, arguments}`,
//! `CodeAction {title, kind, command}`, `Diagnostic {range, severity, source, message}`; the hover
//! keeps Lean's `{range, contents: {kind: "markdown", value}}` (lean-protocol README §9,
//! `examples/hover.*`) and appends `\n\n***\n\n` and our section to `value`.

use super::jobs::{DocAnalysis, MetricState, TheoremView};
use crate::documents::Document;
use crate::metrics::{self, EquivalenceVerdict, MetricReport, Pair, Verdict};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

/// Our command names, made unique per process by the prefix (two proxies in one editor).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commands {
    pub show_details: String,
    pub show_differences: String,
    pub show_proof_path: String,
    pub use_as_reference: String,
}

impl Commands {
    pub fn new(prefix: &str) -> Commands {
        Commands {
            show_details: format!("{prefix}.showDetails"),
            show_differences: format!("{prefix}.showDifferences"),
            show_proof_path: format!("{prefix}.showProofPath"),
            use_as_reference: format!("{prefix}.useAsReference"),
        }
    }

    pub fn all(&self) -> [&str; 4] {
        [&self.show_details, &self.show_differences, &self.show_proof_path, &self.use_as_reference]
    }
}

/// The pair a theorem's metrics judged, when both sides parsed.
fn pair_of<'a>(t: &'a TheoremView, candidate_header: &'a str) -> Option<Pair<'a>> {
    let r = t.reference.as_ref()?;
    Some(Pair {
        reference: r.statement.as_deref()?,
        candidate: t.candidate.as_deref()?,
        reference_header: &r.header,
        candidate_header,
    })
}

/// Each metric's verdict where it is done (`None` while pending, failed, ...).
fn verdicts(t: &TheoremView, candidate_header: &str) -> Vec<Option<EquivalenceVerdict>> {
    let pair = pair_of(t, candidate_header);
    t.metrics
        .iter()
        .map(|(_, st)| match (st, &pair) {
            (MetricState::Done(r), Some(p)) => Some(metrics::equivalence(r, p)),
            _ => None,
        })
        .collect()
}

/// The verdict over all metrics: `Some(Equivalent)` as soon as one shows it (a proof is final),
/// `Some(NotShown)` once every metric has settled without one, `None` while some still run.
pub(super) fn overall(
    t: &TheoremView,
    candidate_header: &str,
) -> Option<(EquivalenceVerdict, String)> {
    let vs = verdicts(t, candidate_header);
    if let Some((v, (m, _))) = vs
        .iter()
        .zip(&t.metrics)
        .find(|(v, _)| v.as_ref().is_some_and(EquivalenceVerdict::is_equivalent))
    {
        return Some((v.clone().expect("BUG: found Some"), m.clone()));
    }
    let settled =
        t.metrics.iter().all(|(_, st)| !matches!(st, MetricState::Pending | MetricState::Running));
    settled.then(|| (EquivalenceVerdict::NotShown, String::new()))
}

/// A metric's figure for the lens: the similarity to two decimals, a Lean decision as
/// `equivalent` / `not shown` (a failed proof search is not a disproof), else the state.
fn figure(st: &MetricState) -> String {
    match st {
        MetricState::Done(r) => match r.verdict {
            Verdict::Score(s) => format!("{s:.2}"),
            Verdict::Equivalent(true) => "equivalent".into(),
            Verdict::Equivalent(false) => "not shown".into(),
        },
        other => other.short(),
    }
}

/// The lens title, verdict first so that it survives a narrow window (Neovim draws lenses as
/// end-of-line text, cut at the window's edge): `lean-assess: ≡ equivalent · ted 0.68 · …` or
/// `lean-assess: not shown · ted 0.68 · transted-lite 0.91`; while metrics still run there is
/// no verdict yet, only their figures (`ted 0.68 · transted-lite running…`). The verdict always
/// fits in 40 columns, and so does the first figure when the first lens metric's name has at
/// most 10 characters (`ted`, `path`, `transted`, `beq`, `defeq`: the default `lens = ["ted",
/// "transted-lite"]` ends its first figure at column 33); the rest is in the hover.
pub fn lens_title(t: &TheoremView, candidate_header: &str) -> String {
    let parts: Vec<String> = t.metrics.iter().map(|(m, s)| format!("{m} {}", figure(s))).collect();
    let mut title = String::from("lean-assess: ");
    match overall(t, candidate_header) {
        Some((EquivalenceVerdict::Equivalent { .. }, _)) => title.push_str("≡ equivalent · "),
        Some((EquivalenceVerdict::NotShown, _)) if !parts.is_empty() => {
            title.push_str("not shown · ")
        }
        _ => {}
    }
    title.push_str(&parts.join(" · "));
    if t.problem.is_some() {
        title.push_str(" (problem: see hover)");
    }
    title
}

/// Code lenses for every theorem with a reference, above the declaration's first line.
pub fn lenses(a: &DocAnalysis, doc: &Document, cmds: &Commands) -> Value {
    let out: Vec<Value> = a
        .theorems
        .iter()
        .map(|t| {
            let p = doc.position_of(t.decl.start);
            json!({"range": {"start": p, "end": p}, "command": lens_command(a, t, cmds)})
        })
        .collect();
    Value::Array(out)
}

/// The command of theorem `t`'s lens: its title, and "show details" of the theorem.
fn lens_command(a: &DocAnalysis, t: &TheoremView, cmds: &Commands) -> Value {
    json!({
        "title": lens_title(t, &a.candidate_header),
        "command": cmds.show_details,
        "arguments": [a.uri, t.name()],
    })
}

/// One document's lenses as last answered: the answer's text and, for each lens in it, the
/// view it was made for. The editor asks for every lens after each `codeLens/refresh`:
/// - a view that is the same `Arc` as last time (taken as it was: same place, same results)
///   has its text copied from the last answer, without looking at the view;
/// - a view whose core is the same `Arc` (moved by an edit elsewhere; a write copies a shared
///   core) keeps its command, and only its range is written anew;
/// - any other lens is made anew.
///
/// The views are held, so their addresses (and their cores') are never another's while they
/// are compared.
#[derive(Debug, Default)]
pub struct LensTitles {
    header: String,
    uri: String,
    /// Shared with the answer sent (it is not copied).
    answer: Arc<String>,
    last: Vec<AnsweredLens>,
}

#[derive(Debug)]
struct AnsweredLens {
    view: Arc<TheoremView>,
    /// `{"title":…,"command":…,"arguments":[uri,name]}`.
    command: String,
    /// Its JSON text in the answer.
    span: std::ops::Range<usize>,
}

/// Hashes an address (a `usize` key) by one multiplication: the lens cache is looked up once
/// per theorem and answer.
#[derive(Default)]
struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64 ^ (n as u64 >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A lens's JSON text: `command` (an object's text) at one position.
fn lens_text(line: u32, character: u32, command: &str) -> String {
    format!(
        r#"{{"range":{{"start":{{"line":{line},"character":{character}}},"end":{{"line":{line},"character":{character}}}}},"command":{command}}}"#
    )
}

/// [`lenses`] as the JSON text of the answer, each unchanged lens's text copied from the last
/// answer (`titles`, which then holds this one): an answer for 1,000 theorems copies their
/// texts, and only the edited theorems' lenses are made anew (and the moved ones' ranges
/// written). Positions are the views' own (`TheoremView::at`).
pub fn lenses_with(a: &DocAnalysis, cmds: &Commands, titles: &mut LensTitles) -> Arc<String> {
    if titles.header != a.candidate_header || titles.uri != a.uri {
        titles.last.clear();
        titles.header.clone_from(&a.candidate_header);
        titles.uri.clone_from(&a.uri);
    }
    let last_answer = std::mem::take(&mut titles.answer);
    let mut last: Vec<Option<AnsweredLens>> =
        std::mem::take(&mut titles.last).into_iter().map(Some).collect();
    // By core address, built at the first view not found at the cursor.
    let mut by_core: Option<HashMap<usize, usize, BuildHasherDefault<AddressHasher>>> = None;
    let mut cursor = 0;
    let mut next = Vec::with_capacity(a.theorems.len());
    let mut out = String::with_capacity(last_answer.len() + 2);
    out.push('[');
    for (i, t) in a.theorems.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let start = out.len();
        // The same view as at the cursor: its lens text as it was.
        if let Some(Some(e)) = last.get_mut(cursor) {
            if Arc::ptr_eq(&e.view, t) {
                out.push_str(&last_answer[e.span.clone()]);
                let e = last[cursor].take().expect("looked at");
                cursor += 1;
                next.push(AnsweredLens { span: start..out.len(), ..e });
                continue;
            }
        }
        // Moved (the same core at the cursor, as after an edit above): its command kept.
        let at_cursor = last
            .get(cursor)
            .and_then(Option::as_ref)
            .is_some_and(|e| Arc::ptr_eq(e.view.core(), t.core()));
        let found = if at_cursor {
            Some(cursor)
        } else {
            let map = by_core.get_or_insert_with(|| {
                let mut m = HashMap::with_capacity_and_hasher(last.len(), Default::default());
                for (j, e) in last.iter().enumerate() {
                    if let Some(e) = e {
                        m.entry(Arc::as_ptr(e.view.core()) as usize).or_insert(j);
                    }
                }
                m
            });
            map.get(&(Arc::as_ptr(t.core()) as usize)).copied()
        }
        .and_then(|j| {
            let e = last[j].take()?;
            cursor = j + 1;
            Some(e)
        });
        let command = match found {
            // The same core under the same name: the same command, maybe elsewhere.
            Some(e) if e.view.decl.name == t.decl.name => {
                if e.view.at == t.at {
                    out.push_str(&last_answer[e.span.clone()]);
                } else {
                    out.push_str(&lens_text(t.at.line, t.at.character, &e.command));
                }
                e.command
            }
            _ => {
                let command = lens_command(a, t, cmds).to_string();
                out.push_str(&lens_text(t.at.line, t.at.character, &command));
                command
            }
        };
        next.push(AnsweredLens { view: t.clone(), command, span: start..out.len() });
    }
    out.push(']');
    titles.last = next;
    titles.answer = Arc::new(out);
    titles.answer.clone()
}

/// A duration as the hover and the proof-path view show it (`0.7 ms`, `26 ms`).
pub(crate) fn fmt_ms(d: std::time::Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{ms:.0} ms")
    }
}

/// Longest line of prose in the hover section: lean.nvim shows the section raw in a float.
const HOVER_WIDTH: usize = 60;

/// `text` word-wrapped to [`HOVER_WIDTH`], continuation lines starting with `indent`.
fn wrap(text: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut line = 0usize;
    for word in text.split_whitespace() {
        let n = word.chars().count();
        if line > 0 && line + 1 + n > HOVER_WIDTH {
            out.push('\n');
            out.push_str(indent);
            line = indent.chars().count();
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += n;
    }
    out
}

/// One metric's figure with the cost model behind it, named: `TED 6 (unit cost) → similarity
/// 0.68`, `TED 0 after 2 rewrites (free renaming of bound names) → similarity 1.00`.
pub fn described(m: &str, r: &MetricReport) -> String {
    let sim = match r.verdict {
        Verdict::Score(s) => format!("similarity {s:.2}"),
        Verdict::Equivalent(true) => return "Lean proof found".into(),
        Verdict::Equivalent(false) => return "no Lean proof found".into(),
    };
    match (m, r.distance) {
        ("ted", Some(d)) => format!("TED {d} (unit cost) → {sim}"),
        ("transted-lite", Some(d)) => format!(
            "TED {d} after {} rewrite{} (free renaming of bound names) → {sim}",
            r.path.len(),
            if r.path.len() == 1 { "" } else { "s" }
        ),
        ("transted", Some(d)) => format!("TED {d} after Lean's tactics → {sim}"),
        ("path", _) => format!("path-based {sim}"),
        (_, Some(d)) => format!("distance {d} → {sim}"),
        (_, None) => sim,
    }
}

/// Our hover section (markdown) for one theorem: short lines, lists and an indented block
/// only, so that it reads the same rendered (VS Code) and raw (lean.nvim's float).
pub fn hover_section(t: &TheoremView, candidate_header: &str) -> String {
    let verdict = overall(t, candidate_header);
    let mut s = String::from("**lean-assess**: ");
    s.push_str(match &verdict {
        Some((EquivalenceVerdict::Equivalent { .. }, _)) => "≡ equivalent",
        Some((EquivalenceVerdict::NotShown, _)) => "equivalence not shown",
        None => "judging…",
    });
    if let Some((EquivalenceVerdict::Equivalent { .. }, m)) = &verdict {
        s.push_str(&format!(" (by {m})"));
    }
    s.push('\n');
    if let Some(r) = &t.reference {
        s.push_str(&format!(
            "\n{}\n",
            wrap(
                &format!("Reference `{}`, from {}.", r.name.as_deref().unwrap_or("?"), r.origin),
                ""
            )
        ));
    }
    s.push('\n');
    let vs = verdicts(t, candidate_header);
    for ((m, st), v) in t.metrics.iter().zip(&vs) {
        let line = match (st, v) {
            (MetricState::Done(r), Some(v)) => {
                format!("{m}: {}; {}, {}", v.as_str(), described(m, r), fmt_ms(r.elapsed))
            }
            (MetricState::Done(r), None) => format!("{m}: {}", described(m, r)),
            (MetricState::TimedOut(d), _) => format!("{m}: timed out after {}", fmt_ms(*d)),
            (MetricState::Failed(why), _) => format!("{m}: failed: {why}"),
            (MetricState::Unavailable(why), _) => format!("{m}: unavailable: {why}"),
            (other, _) => format!("{m}: {}", other.name()),
        };
        s.push_str(&format!("- {}\n", wrap(&line, "  ")));
    }
    if let Some(p) = &t.problem {
        s.push_str(&format!("\n{}\n", wrap(&format!("Problem: {p}"), "")));
    }
    match &verdict {
        Some((EquivalenceVerdict::Equivalent { evidence }, m)) => {
            s.push_str(&format!("\n{}\n", wrap(&format!("Why: {evidence}."), "")));
            let path = t.metrics.iter().find_map(|(name, st)| match st {
                MetricState::Done(r) if name == m => Some(&r.path),
                _ => None,
            });
            for (k, step) in path.into_iter().flatten().enumerate() {
                let at = step.readable_at().map(|a| format!(", at {a}")).unwrap_or_default();
                s.push_str(&format!(
                    "{}. {}\n",
                    k + 1,
                    wrap(&format!("{} on the {}{at}", step.rule, step.side), "   ")
                ));
            }
        }
        _ if !t.differences.is_empty() => {
            s.push_str("\nWhat still differs (candidate against reference):\n");
            for d in &t.differences {
                s.push_str(&format!("- {}\n", wrap(&d.message, "  ")));
            }
        }
        _ if t.distance == Some(0) => {
            s.push_str("\nSame operator tree as the reference, up to renaming.\n");
        }
        _ => {}
    }
    if let (Some(r), Some(c)) =
        (t.reference.as_ref().and_then(|r| r.statement.as_ref()), &t.candidate)
    {
        s.push_str(&format!(
            "\nTree sizes: reference {}, candidate {}\n({}).\n",
            r.tree.size(),
            c.tree.size(),
            if t.elaborated { "trees elaborated by Lean" } else { "trees from the source text" }
        ));
    }
    if let Some(r) = &t.reference {
        s.push_str("\nReference statement:\n\n");
        for line in r.text.trim().lines() {
            s.push_str(&format!("    {line}\n"));
        }
    }
    s
}

/// Lean's hover result with our section appended after a `***` rule (Lean's fields kept).
pub fn augment_hover(lean: Value, ours: &str, range: Value) -> Value {
    match lean {
        Value::Null => json!({"contents": {"kind": "markdown", "value": ours}, "range": range}),
        Value::Object(mut o) => {
            let joined = |v: &str| {
                if v.trim().is_empty() {
                    ours.to_string()
                } else {
                    format!("{v}\n\n***\n\n{ours}")
                }
            };
            let contents = o.remove("contents").unwrap_or(Value::Null);
            let new = match contents {
                Value::Object(mut c) if c.get("value").is_some_and(Value::is_string) => {
                    let v = c["value"].as_str().unwrap_or("").to_string();
                    c.insert("value".into(), Value::String(joined(&v)));
                    Value::Object(c)
                }
                Value::String(v) => Value::String(joined(&v)),
                Value::Array(mut items) => {
                    items.push(Value::String(format!("***\n\n{ours}")));
                    Value::Array(items)
                }
                _ => json!({"kind": "markdown", "value": ours}),
            };
            o.insert("contents".into(), new);
            Value::Object(o)
        }
        other => other,
    }
}

/// The code-action kind we use; listed by editors under refactorings.
pub const ACTION_KIND: &str = "refactor";

/// Our three actions for a theorem with a reference.
pub fn actions(a: &DocAnalysis, t: &TheoremView, cmds: &Commands) -> Vec<Value> {
    let name = t.name().unwrap_or("");
    let args = json!([a.uri, t.name()]);
    let action = |title: String, command: &str| {
        json!({
            "title": title,
            "kind": ACTION_KIND,
            "command": {"title": title, "command": command, "arguments": args},
        })
    };
    vec![
        action(
            format!("lean-assess: Show differences from the reference of `{name}`"),
            &cmds.show_differences,
        ),
        action(format!("lean-assess: Show proof path for `{name}`"), &cmds.show_proof_path),
        action(
            format!("lean-assess: Use as reference for `{name}` (write it down)"),
            &cmds.use_as_reference,
        ),
    ]
}

/// Whether the editor's `context.only` filter admits our kind.
pub fn kind_wanted(request_params: &Value) -> bool {
    match request_params.get("context").and_then(|c| c.get("only")).and_then(Value::as_array) {
        None => true,
        Some(only) => only
            .iter()
            .filter_map(Value::as_str)
            .any(|k| k == ACTION_KIND || ACTION_KIND.starts_with(&format!("{k}.")) || k.is_empty()),
    }
}

/// `message` as plain text, the way editors show a diagnostic (VS Code's Problems panel and
/// hover, lean.nvim's infoview and virtual text render no markdown): each code span (a run of
/// backticks up to the next run of the same length, CommonMark's rule) becomes the text in it
/// between single quotes, as Lean's own messages quote names ("declaration uses 'sorry'").
/// A backtick run that closes nothing is kept as text.
pub fn plain_text(message: &str) -> String {
    let run_at = |s: &str| s.bytes().take_while(|&b| b == b'`').count();
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(open) = rest.find('`') {
        out.push_str(&rest[..open]);
        let n = run_at(&rest[open..]);
        let body_start = open + n;
        // The next run of exactly `n` backticks closes the span.
        let mut close = None;
        let mut i = body_start;
        while let Some(k) = rest[i..].find('`') {
            let at = i + k;
            let m = run_at(&rest[at..]);
            if m == n {
                close = Some(at);
                break;
            }
            i = at + m;
        }
        match close {
            Some(c) => {
                let body = &rest[body_start..c];
                let padded = body.len() >= 2 && body.starts_with(' ') && body.ends_with(' ');
                let body =
                    if padded && body.trim() != "" { &body[1..body.len() - 1] } else { body };
                out.push('\'');
                out.push_str(body);
                out.push('\'');
                rest = &rest[c + n..];
            }
            None => {
                out.push_str(&rest[open..body_start]);
                rest = &rest[body_start..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// An information diagnostic of ours.
pub fn diagnostic(range: Value, message: &str, severity: u8) -> Value {
    json!({
        "range": range,
        "severity": severity,
        "source": "lean-assess",
        "message": plain_text(message),
    })
}

/// The "Show differences" diagnostics of one theorem (severity 3, on the candidate's subterms).
pub fn difference_diagnostics(doc: &Document, t: &TheoremView) -> Vec<Value> {
    let name_range = t.decl.name_range.map_or((t.decl.start, t.decl.start), |r| r);
    t.differences
        .iter()
        .map(|d| {
            let (s, e) = match d.candidate_span {
                Some(sp) => {
                    (t.candidate_offset + sp.start as usize, t.candidate_offset + sp.end as usize)
                }
                None => name_range,
            };
            let r = doc.range_of(s, e);
            diagnostic(json!(r), &format!("differs from the reference: {}", d.message), 3)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::differences::Difference;
    use crate::features::engine::Decl;
    use crate::features::jobs::{RefView, TheoremCore};
    use crate::metrics::{MetricReport, Verdict};
    use crate::trees::Span;
    use std::time::Duration;

    fn view() -> (DocAnalysis, Document) {
        let text = "import Mathlib\n\ntheorem 𝔽oo (x : ℝ) : x < 1 := by sorry\n";
        let start = text.find("theorem").unwrap();
        let ns = text.find("𝔽oo").unwrap();
        let t = TheoremView::new(
            Decl {
                keyword: "theorem",
                name: Some("𝔽oo".into()),
                start,
                end: text.len(),
                name_range: Some((ns, ns + "𝔽oo".len())),
                statement_end: text.find(":=").unwrap(),
            },
            lsp_types::Position { line: 2, character: 0 },
            std::sync::Arc::new(TheoremCore {
                text: text[start..].into(),
                reference: Some(RefView {
                    origin: "directive at C.lean:2".into(),
                    name: Some("r".into()),
                    text: "theorem r (x : ℝ) : x ≤ 1".into(),
                    header: String::new(),
                    statement: None,
                    file: None,
                }),
                candidate: None,
                metrics: vec![
                    (
                        "ted".into(),
                        MetricState::Done(MetricReport {
                            metric: "ted",
                            verdict: Verdict::Score(0.875),
                            distance: Some(1),
                            reference_size: 8,
                            candidate_size: 8,
                            path: vec![],
                            notes: vec![],
                            elapsed: Duration::from_micros(300),
                        }),
                    ),
                    ("transted-lite".into(), MetricState::Running),
                    ("beq".into(), MetricState::Unavailable("needs Lean".into())),
                ],
                differences: vec![Difference {
                    message: "conclusion: `<` where the reference has `≤`".into(),
                    candidate_span: Some(Span { start: 27, end: 32 }),
                }],
                distance: Some(1),
                problem: None,
                elaborated: false,
            }),
            None,
        );
        let doc = Document::new("file:///C.lean", 4, text);
        (
            DocAnalysis {
                uri: "file:///C.lean".into(),
                version: 4,
                theorems: vec![t.into()],
                problems: vec![],
                candidate_header: String::new(),
                inputs: 0,
                reference_files: Vec::new(),
                scan: 0,
            },
            doc,
        )
    }

    #[test]
    fn lens_json_shape() {
        let (a, doc) = view();
        let cmds = Commands::new("lean-assess.42");
        let l = lenses(&a, &doc, &cmds);
        assert_eq!(
            l,
            json!([{
                "range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 0}},
                "command": {
                    "title": "lean-assess: ted 0.88 · transted-lite running… · beq n/a",
                    "command": "lean-assess.42.showDetails",
                    "arguments": ["file:///C.lean", "𝔽oo"],
                }
            }])
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Answers from the lens cache, over any sequence of documents made of a few theorem
        /// cores (reordered, repeated, moved, renamed, a core's metric changed), are the
        /// uncached answers.
        #[test]
        fn cached_lens_answers_equal_uncached_ones(
            steps in proptest::collection::vec(
                proptest::collection::vec((0usize..4, 0usize..3, proptest::bool::ANY), 0..6),
                1..6,
            )
        ) {
            let (base, _) = view();
            let cores: Vec<TheoremView> = (0..4)
                .map(|i| {
                    let mut t = TheoremView::clone(&base.theorems[0]);
                    // A title of its own per core.
                    if let MetricState::Done(r) = &mut t.metrics[0].1 {
                        r.verdict = Verdict::Score(0.125 * i as f64);
                    }
                    t
                })
                .collect();
            let cmds = Commands::new("lean-assess.7");
            let mut titles = LensTitles::default();
            let mut last: Vec<Arc<TheoremView>> = Vec::new();
            for (v, step) in steps.into_iter().enumerate() {
                // Theorems on lines `2 * shift + k`, each a (shared) core, maybe renamed.
                let mut text = String::from("import Mathlib\n\n");
                let mut made = Vec::new();
                for (k, (core, shift, renamed)) in step.into_iter().enumerate() {
                    text.push_str(&"\n".repeat(shift));
                    let start = text.len();
                    let name = if renamed { format!("x{k}") } else { format!("t{core}") };
                    text.push_str(&format!("theorem {name} : True := trivial\n"));
                    made.push((core, start, name));
                }
                let doc = Document::new("file:///C.lean", v as i32, &text);
                let theorems: Vec<Arc<TheoremView>> = made
                    .into_iter()
                    .map(|(core, start, name)| {
                        let mut t = cores[core].clone();
                        t.decl.start = start;
                        t.at = doc.position_of(start);
                        t.decl.name = Some(name.into());
                        // The last version's view when it is that one (as `prepare` takes it).
                        last.iter()
                            .find(|o| Arc::ptr_eq(o.core(), t.core()) && o.decl == t.decl && o.at == t.at)
                            .cloned()
                            .unwrap_or_else(|| Arc::new(t))
                    })
                    .collect();
                last.clone_from(&theorems);
                let a = DocAnalysis {
                    uri: "file:///C.lean".into(),
                    version: v as i32,
                    theorems,
                    problems: vec![],
                    candidate_header: String::new(),
                    inputs: 0,
                    reference_files: Vec::new(),
                    scan: 0,
                };
                let cached: Value = serde_json::from_str(&lenses_with(&a, &cmds, &mut titles)).unwrap();
                proptest::prop_assert_eq!(cached, lenses(&a, &doc, &cmds));
            }
        }
    }

    #[test]
    fn hover_keeps_leans_fields_and_appends_after_rule() {
        let (a, _) = view();
        let ours = hover_section(&a.theorems[0], "");
        assert!(ours.contains("- ted: TED 1 (unit cost) → similarity 0.88"), "{ours}");
        assert!(ours.contains("- transted-lite: running"), "{ours}");
        assert!(ours.contains("- conclusion: `<` where the reference has `≤`"));
        assert!(ours.contains("Reference statement:\n\n    theorem r (x : ℝ) : x ≤ 1\n"));
        // Recorded Lean hover on a declaration name (examples/hover.declaration-name.result.json).
        let lean: Value = serde_json::from_str(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/fixtures/lean-protocol/examples/hover.declaration-name.result.json"
            ))
            .unwrap(),
        )
        .unwrap();
        let mut with_extra = lean.clone();
        with_extra["leanExtra"] = json!(1);
        let out = augment_hover(with_extra, &ours, json!(null));
        let v = out["contents"]["value"].as_str().unwrap();
        let lean_value = lean["contents"]["value"].as_str().unwrap();
        assert_eq!(v, format!("{lean_value}\n\n***\n\n{ours}"));
        assert_eq!(out["range"], lean["range"]);
        assert_eq!(out["leanExtra"], 1);
        assert_eq!(out["contents"]["kind"], "markdown");
        let r = json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}});
        let none = augment_hover(Value::Null, "ours", r.clone());
        assert_eq!(none, json!({"contents": {"kind": "markdown", "value": "ours"}, "range": r}));
    }

    /// A settled view of `theorem r (n : ℕ) : n > 0` against `theorem c (n : ℕ) : 0 < n`, with
    /// the metrics' real reports.
    fn settled(candidate: &str) -> TheoremView {
        let (mut a, _) = view();
        let mut t = std::sync::Arc::unwrap_or_clone(a.theorems.remove(0));
        let r = crate::features::engine::parse("theorem r (n : ℕ) : n > 0", "").unwrap();
        let c = crate::features::engine::parse(candidate, "").unwrap();
        let pair =
            Pair { reference: &r, candidate: &c, reference_header: "", candidate_header: "" };
        t.metrics = ["ted", "transted-lite"]
            .iter()
            .map(|m| {
                let report = crate::features::engine::judge(m, &pair).unwrap();
                (m.to_string(), MetricState::Done(report))
            })
            .collect();
        let rv = t.reference.as_mut().unwrap();
        rv.text = "theorem r (n : ℕ) : n > 0".into();
        rv.statement = Some(std::sync::Arc::new(r));
        t.candidate = Some(std::sync::Arc::new(c));
        crate::features::jobs::explain(&mut t);
        t
    }

    #[test]
    fn lens_leads_with_the_verdict_within_40_columns() {
        let eq = settled("theorem c (n : ℕ) : 0 < n");
        let title = lens_title(&eq, "");
        assert_eq!(title, "lean-assess: ≡ equivalent · ted 0.62 · transted-lite 1.00");
        let not = settled("theorem c (n : ℕ) : 1 < n");
        let title = lens_title(&not, "");
        assert!(title.starts_with("lean-assess: not shown · ted 0."), "{title}");
        // What a 40-column window keeps still has the verdict and the first figure.
        let cut: String = title.chars().take(40).collect();
        assert!(cut.contains("not shown") && cut.contains("ted 0."), "{cut}");
        let cut: String = lens_title(&eq, "").chars().take(40).collect();
        assert!(cut.contains("≡ equivalent"), "{cut}");
    }

    #[test]
    fn hover_names_one_cost_model_per_figure_and_reads_raw() {
        for cand in ["theorem c (n : ℕ) : 0 < n", "theorem c (n : ℕ) : 1 < n"] {
            let t = settled(cand);
            let h = hover_section(&t, "");
            // No markdown table, no fence: lean.nvim shows this raw.
            assert!(!h.contains("|---") && !h.contains("```"), "{h}");
            for line in h.lines().filter(|l| !l.starts_with("    ")) {
                assert!(line.chars().count() <= 62, "long line {line:?} in\n{h}");
            }
            assert!(h.contains("- ted: not shown; TED "), "{h}");
            assert!(h.contains(" (unit cost) → similarity 0."), "{h}");
            // The free-renaming distance behind the differences is not shown as a figure.
            assert!(!h.contains("distance"), "{h}");
            if cand.contains("0 <") {
                assert!(h.starts_with("**lean-assess**: ≡ equivalent (by transted-lite)"), "{h}");
                let flat = h.replace("\n  ", " ");
                assert!(flat.contains("- transted-lite: equivalent; TED 0 after 1 rewrite (free renaming of bound names) → similarity 1.00"), "{h}");
                assert!(
                    h.contains("1. gt_iff_lt on the candidate")
                        || h.contains("1. gt_iff_lt on the reference"),
                    "{h}"
                );
                assert!(!h.contains("still differs"), "{h}");
            } else {
                assert!(h.starts_with("**lean-assess**: equivalence not shown"), "{h}");
                assert!(h.contains("What still differs"), "{h}");
            }
        }
    }

    #[test]
    fn action_and_diagnostic_shapes() {
        let (a, doc) = view();
        let cmds = Commands::new("p");
        let acts = actions(&a, &a.theorems[0], &cmds);
        assert_eq!(acts.len(), 3);
        let cmd_names: Vec<&str> =
            acts.iter().map(|x| x["command"]["command"].as_str().unwrap()).collect();
        assert_eq!(cmd_names, ["p.showDifferences", "p.showProofPath", "p.useAsReference"]);
        assert_eq!(acts[0]["kind"], "refactor");
        assert_eq!(acts[0]["command"]["arguments"], json!(["file:///C.lean", "𝔽oo"]));
        let d = difference_diagnostics(&doc, &a.theorems[0]);
        // `x < 1` sits at UTF-16 columns 22..27: `𝔽` counts two units.
        assert_eq!(
            d,
            [json!({
                "range": {"start": {"line": 2, "character": 23}, "end": {"line": 2, "character": 28}},
                "severity": 3,
                "source": "lean-assess",
                "message": "differs from the reference: conclusion: '<' where the reference has '≤'",
            })]
        );
        assert!(kind_wanted(&json!({"context": {"diagnostics": []}})));
    }

    #[test]
    fn diagnostic_messages_are_plain_text() {
        // Code spans of any backtick run length become Lean's quotes; the text in them is kept
        // as it is (CommonMark: one space each side of a span that starts or ends with a
        // backtick is padding).
        assert_eq!(plain_text("`x < 1` where `≤`"), "'x < 1' where '≤'");
        assert_eq!(plain_text("the name `` `foo `` quoted"), "the name '`foo' quoted");
        assert_eq!(plain_text("`#print axioms c` failed: x"), "'#print axioms c' failed: x");
        // A lone backtick opens no span and stays (it is the text's, not markup).
        assert_eq!(plain_text("a ` b"), "a ` b");
        assert_eq!(plain_text("no markup"), "no markup");
        let d = diagnostic(json!(null), "inside `namespace A`", 2);
        assert_eq!(d["message"], "inside 'namespace A'");
        assert!(kind_wanted(&json!({"context": {"only": ["refactor"]}})));
        assert!(!kind_wanted(&json!({"context": {"only": ["quickfix"]}})));
    }
}
