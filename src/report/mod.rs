//! `bench --html REPORT.html`: one self-contained HTML file (inline CSS, JS and SVG; nothing is
//! fetched when it is viewed) with the headline figures, the threshold sweep as an SVG plot, the
//! confusion matrix, and a table of pairs sortable by score and filterable by label, verdict and
//! error, each row expandable to the two statements side by side with the differing subterms
//! highlighted, the differences in words and (for `transted-lite`) the rewrite path; beside the
//! headline, GTED's published figures when the dataset is one of its sets.
//!
//! Owns the page only: the figures come from `evaluation`, the pairs and their outcomes from the
//! caller, the differences from the TED mapping read by `features::differences` (the list the
//! editor's hover shows) and the rewrite path from the metric itself. Every dataset string goes through [`escape`]; the pairs are embedded as JSON inside a
//! `<script type="application/json">` block with `<` escaped, so no statement can end it.

pub mod compare;

use crate::dataset::DatasetPair;
use crate::distance::{self, CostModel, EditOp, Mapping};
use crate::evaluation::{self as figures, Evaluation, Stats};
use crate::metrics::{self, Pair, Verdict};
use crate::predictions::Outcome;
use crate::trees::parse::{self, Header};
use crate::trees::{Statement, Tree};
use anyhow::Context;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::Path;

/// How many differences a pair's detail lists (as the editor's hover and `score`).
const MAX_DIFFERENCES: usize = 12;

/// One pair's outcome as the report shows it.
pub enum PairResult<'a> {
    Score(f64),
    Equivalent(bool),
    Error(&'a str),
}

/// What the page shows.
pub struct Report<'a> {
    pub dataset: &'a str,
    pub metric: &'a str,
    pub seconds: f64,
    pub pairs: &'a [DatasetPair],
    pub results: Vec<PairResult<'a>>,
    pub evaluation: Option<&'a Evaluation>,
    pub decisions: Option<&'a Stats>,
}

/// HTML-escape text for element content and quoted attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

/// The sweep (accuracy and kappa against the threshold) as an inline SVG line plot.
fn sweep_svg(evaluation: &Evaluation) -> String {
    let (w, h, pad) = (480.0, 240.0, 36.0);
    let points = &evaluation.sweep;
    if points.is_empty() {
        return String::new();
    }
    let t_min = points.first().map_or(0.0, |p| p.threshold);
    let t_max = points.last().map_or(1.0, |p| p.threshold);
    let span = (t_max - t_min).max(1e-9);
    let x = |t: f64| pad + (t - t_min) / span * (w - 2.0 * pad);
    // One axis from 0 to 1 for both: a negative kappa (worse than chance) is drawn on the axis.
    let y = |v: f64| h - pad - v.clamp(0.0, 1.0) * (h - 2.0 * pad);
    let line = |f: &dyn Fn(&crate::evaluation::AtThreshold) -> f64| {
        points
            .iter()
            .map(|p| format!("{:.1},{:.1}", x(p.threshold), y(f(p))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut svg = format!(
        "<svg id=\"sweep\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" \
         width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"threshold sweep\">"
    );
    let _ = write!(
        svg,
        "<line x1=\"{pad}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"#888\"/>\
         <line x1=\"{pad}\" y1=\"{pad}\" x2=\"{pad}\" y2=\"{b}\" stroke=\"#888\"/>",
        b = h - pad,
        r = w - pad
    );
    for v in [0.0, 0.5, 1.0] {
        let _ = write!(svg, "<text x=\"4\" y=\"{:.1}\" font-size=\"10\">{v:.1}</text>", y(v) + 3.0);
    }
    for p in points.iter().step_by(2) {
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\">{:.2}</text>",
            x(p.threshold),
            h - pad + 14.0,
            p.threshold
        );
    }
    let _ = write!(
        svg,
        "<polyline class=\"accuracy\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" \
         points=\"{}\"/><polyline class=\"kappa\" fill=\"none\" stroke=\"#d62728\" \
         stroke-width=\"2\" points=\"{}\"/>\
         <text x=\"{:.1}\" y=\"14\" font-size=\"11\" fill=\"#1f77b4\">accuracy</text>\
         <text x=\"{:.1}\" y=\"28\" font-size=\"11\" fill=\"#d62728\">kappa</text></svg>",
        line(&|p| p.stats.accuracy),
        line(&|p| p.stats.kappa),
        w - pad - 60.0,
        w - pad - 60.0
    );
    svg
}

fn confusion(title: &str, s: &Stats) -> String {
    format!(
        "<table id=\"confusion\" class=\"confusion\"><caption>{}</caption>\
         <tr><th></th><th>predicted equivalent</th><th>predicted not</th></tr>\
         <tr><th>labelled equivalent</th><td class=\"tp\">{}</td><td class=\"fn\">{}</td></tr>\
         <tr><th>labelled not</th><td class=\"fp\">{}</td><td class=\"tn\">{}</td></tr></table>",
        escape(title),
        s.true_positive,
        s.false_negative,
        s.false_positive,
        s.true_negative
    )
}

fn headline(s: &Stats, threshold: Option<f64>) -> String {
    let mut out = String::from("<dl id=\"headline\">");
    if let Some(t) = threshold {
        let _ = write!(out, "<dt>best threshold</dt><dd>{t:.3}</dd>");
    }
    let _ = write!(
        out,
        "<dt>accuracy</dt><dd id=\"accuracy\">{}</dd><dt>kappa</dt><dd>{:.4}</dd>\
         <dt>precision</dt><dd>{}</dd><dt>recall</dt><dd>{}</dd></dl>",
        pct(s.accuracy),
        s.kappa,
        pct(s.precision),
        pct(s.recall)
    );
    out
}

/// This run's figures beside GTED's published ones (best threshold, free-cost TED over
/// Lean-elaborated trees) when the dataset's file name says it is one of GTED's two sets. BEq
/// publishes no figures on these sets, so none are shown for it.
fn baselines(report: &Report<'_>, best: &Stats) -> String {
    let file_name = std::path::Path::new(report.dataset)
        .file_name()
        .map_or(String::new(), |f| f.to_string_lossy().into_owned());
    let Some((set, accuracy, kappa)) = figures::published_gted(&file_name) else {
        return String::new();
    };
    format!(
        "<table id=\"baselines\"><caption>Beside the published baseline on {set} (accuracy / \
         kappa at each one's best threshold)</caption><tr><th>this run: {}</th>\
         <td class=\"ours\">{} / {:.3}</td></tr><tr><th>GTED published (free-cost TED over \
         Lean-elaborated trees; arXiv:2507.07399)</th><td class=\"published\">{} / {:.3}</td>\
         </tr></table>",
        escape(report.metric),
        pct(best.accuracy),
        best.kappa,
        pct(accuracy),
        kappa
    )
}

/// A statement split for the page: even entries plain text, odd entries a differing part.
type Segments = Vec<String>;

/// What a row shows when it is expanded, computed for each pair that parses.
struct Detail {
    reference: Segments,
    candidate: Segments,
    differences: Vec<String>,
    path: Vec<String>,
}

/// The pair's detail: both statements with the nodes an optimal TED mapping (free renaming of
/// bound names, as the hover) renames, deletes or inserts highlighted, the hover's list of
/// differences, and the rewrite path when `metric` has one (`transted-lite`; recomputed here,
/// it is deterministic). Else why there is nothing to show (the row says it).
fn detail(pair: &DatasetPair, metric: &str) -> Result<Detail, String> {
    let reference = parse::parse_statement(&pair.ref_statement, &Header::parse(&pair.ref_header))
        .map_err(|e| format!("ref_statement does not parse: {e}"))?;
    let candidate = parse::parse_statement(&pair.cand_statement, &Header::parse(&pair.cand_header))
        .map_err(|e| format!("cand_statement does not parse: {e}"))?;
    let mapping = distance::try_ted_mapping(
        &reference.tree,
        &candidate.tree,
        CostModel { free_rename: true },
    )
    .map_err(|e| format!("no differences shown: {e}"))?;
    let (mapping, differences) =
        crate::differences::read(&reference, &candidate, mapping, MAX_DIFFERENCES);
    let (changed_ref, changed_cand) = changed_nodes(&mapping, &reference.tree, &candidate.tree);
    let differences = differences.into_iter().map(|d| d.message).collect();
    let path = if metric == "transted-lite" {
        rewrite_path(metric, pair, &reference, &candidate)
    } else {
        Vec::new()
    };
    Ok(Detail {
        reference: segments(&reference, &changed_ref),
        candidate: segments(&candidate, &changed_cand),
        differences,
        path,
    })
}

/// Which preorder nodes of each tree the mapping does not keep as they are.
fn changed_nodes(mapping: &Mapping, a: &Tree, b: &Tree) -> (Vec<bool>, Vec<bool>) {
    let mut in_a = vec![false; a.size()];
    let mut in_b = vec![false; b.size()];
    for op in &mapping.ops {
        let (x, y) = match *op {
            EditOp::Keep { .. } => continue,
            EditOp::Rename { a, b } => (Some(a), Some(b)),
            EditOp::Delete { a } => (Some(a), None),
            EditOp::Insert { b } => (None, Some(b)),
        };
        if let Some(flag) = x.and_then(|x| in_a.get_mut(x)) {
            *flag = true;
        }
        if let Some(flag) = y.and_then(|y| in_b.get_mut(y)) {
            *flag = true;
        }
    }
    (in_a, in_b)
}

/// The statement's text cut into plain and differing runs: a changed node marks its own text
/// (its span minus its children's spans: for `a < b` renamed to `a ≤ b`, the `<` only), so a
/// deleted subtree is marked whole and a renamed operator only where it is written. Spaces are
/// never marked; nodes without a span (none from text) mark nothing.
fn segments(statement: &Statement, changed: &[bool]) -> Segments {
    let source = statement.source.as_str();
    let mut marked = vec![false; source.len()];
    // The declaration and its signature (` _ … : _ `, whose label counts the binders) are the
    // statement's frame: their own text is `theorem name`, the binders' brackets and the colon,
    // which a missing or extra binder "renames". Their parts carry the differences.
    let frame = match statement.tree.children.as_slice() {
        [_] if matches!(statement.tree.label.as_str(), "theorem" | "lemma" | "example") => 2,
        _ => 1,
    };
    for (node, _) in
        statement.tree.preorder().into_iter().zip(changed).skip(frame).filter(|(_, c)| **c)
    {
        let Some(span) = node.span else { continue };
        let (start, end) = (span.start as usize, (span.end as usize).min(source.len()));
        let mut own: Vec<(usize, usize)> = vec![(start, end)];
        for child in node.children.iter().filter_map(|c| c.span) {
            let (cs, ce) = (child.start as usize, child.end as usize);
            own = own
                .into_iter()
                .flat_map(|(s, e)| {
                    if ce <= s || cs >= e {
                        vec![(s, e)]
                    } else {
                        vec![(s, cs.max(s)), (ce.min(e), e)]
                    }
                })
                .filter(|(s, e)| s < e)
                .collect();
        }
        for (s, e) in own {
            for flag in marked.iter_mut().take(e).skip(s) {
                *flag = true;
            }
        }
    }
    // Per character: marked text, and whitespace inside a marked run (`(h : x ≠ 0)` is one
    // mark), never whitespace at a run's edge.
    let chars: Vec<(usize, char)> = source.char_indices().collect();
    let mut mark: Vec<bool> = chars
        .iter()
        .map(|&(i, c)| !c.is_whitespace() && marked.get(i).copied().unwrap_or(false))
        .collect();
    let mut k = 0;
    while k < chars.len() {
        if !chars[k].1.is_whitespace() {
            k += 1;
            continue;
        }
        let start = k;
        while k < chars.len() && chars[k].1.is_whitespace() {
            k += 1;
        }
        let inside = start > 0 && mark[start - 1] && k < chars.len() && mark[k];
        for m in &mut mark[start..k] {
            *m = inside;
        }
    }
    let mut out: Segments = vec![String::new()];
    for (&(_, c), &mark) in chars.iter().zip(&mark) {
        // Odd entries are marked: start a new entry when the run changes.
        if mark != out.len().is_multiple_of(2) {
            out.push(String::new());
        }
        if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out
}

/// The metric's rewrite path for the pair, each step as "rule (side): where".
fn rewrite_path(
    metric: &str,
    pair: &DatasetPair,
    reference: &Statement,
    candidate: &Statement,
) -> Vec<String> {
    let Ok(m) = metrics::by_name(metric) else {
        return Vec::new();
    };
    let judged = m.judge(&Pair {
        reference,
        candidate,
        reference_header: &pair.ref_header,
        candidate_header: &pair.cand_header,
    });
    judged.map_or_else(
        |_| Vec::new(),
        |r| {
            r.path
                .iter()
                .map(|s| match s.readable_at() {
                    Some(at) => format!("{} ({}): {at}", s.rule, s.side),
                    None => format!("{} ({})", s.rule, s.side),
                })
                .collect()
        },
    )
}

/// The pairs as JSON for the page's script, `{"headers": [...], "pairs": [...]}` (a dataset
/// repeats a few headers over thousands of pairs: each is written once, pairs index them); `<`
/// is escaped so no text can close the block.
fn pairs_json<'a>(report: &Report<'a>) -> String {
    let threshold = report.evaluation.map(|e| e.best.threshold);
    let mut headers: Vec<&str> = Vec::new();
    let mut header_index: std::collections::HashMap<&str, usize> = Default::default();
    let mut header = |text: &'a str| -> usize {
        *header_index.entry(text).or_insert_with(|| {
            headers.push(text);
            headers.len() - 1
        })
    };
    let rows: Vec<Value> = report
        .pairs
        .iter()
        .zip(&report.results)
        .map(|(p, r)| {
            let (score, verdict, error) = match r {
                PairResult::Score(s) => {
                    let v = threshold.map(|t| if *s >= t { "equivalent" } else { "not" });
                    (Some(*s), v, None)
                }
                PairResult::Equivalent(e) => {
                    (None, Some(if *e { "equivalent" } else { "not" }), None)
                }
                PairResult::Error(m) => (None, None, Some(*m)),
            };
            let mut row = json!({
                "id": p.id,
                "label": p.label,
                "score": score,
                "verdict": verdict,
                "error": error,
                "rh": header(&p.ref_header),
                "ch": header(&p.cand_header),
            });
            match detail(p, report.metric) {
                Ok(d) => {
                    row["rs"] = json!(d.reference);
                    row["cs"] = json!(d.candidate);
                    row["d"] = json!(d.differences);
                    if !d.path.is_empty() {
                        row["p"] = json!(d.path);
                    }
                }
                Err(why) => {
                    row["rs"] = json!([p.ref_statement]);
                    row["cs"] = json!([p.cand_statement]);
                    row["why"] = json!(why);
                }
            }
            row
        })
        .collect();
    json!({"headers": headers, "pairs": rows}).to_string().replace('<', "\\u003c")
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}\
#pairs th{cursor:pointer;background:#f3f3f3}dl{display:grid;grid-template-columns:max-content \
auto;gap:2px 12px}dd{margin:0;font-weight:bold}.confusion td{text-align:right;min-width:4em}\
tr.detail pre{white-space:pre-wrap;margin:0;font-size:12px}tr.detail td{background:#fafafa}\
.sides{display:grid;grid-template-columns:1fr 1fr;gap:8px}.err{color:#b00}\
#filters label{margin-right:1em}pre.header{color:#888}mark.diff{background:#ffd76e;\
border-radius:2px}#baselines{margin:.8em 0}#baselines td{font-weight:bold}\
th.sorted-1::after{content:\" \\25B2\"}th.sorted--1::after{content:\" \\25BC\"}\
ul.differences,ol.path{margin:.3em 0;font-size:12px}";

/// The table's behaviour: build rows from the JSON, sort on header click, filter, expand.
const SCRIPT: &str = r#"
const LIMIT = 1000;
const payload = JSON.parse(document.getElementById('pair-data').textContent);
const headers = payload.headers, data = payload.pairs;
const body = document.querySelector('#pairs tbody');
let sortKey = 'id', sortDir = 1;
function text(v) { return v === null || v === undefined ? '' : String(v); }
function render() {
  const label = document.getElementById('f-label').value;
  const verdict = document.getElementById('f-verdict').value;
  const error = document.getElementById('f-error').value;
  const query = document.getElementById('f-id').value.toLowerCase();
  const rows = data.filter(p =>
    (label === 'any' || text(p.label) === label) &&
    (verdict === 'any' || text(p.verdict) === verdict) &&
    (error === 'any' || (error === 'yes') === (p.error !== null)) &&
    (query === '' || p.id.toLowerCase().includes(query)));
  rows.sort((a, b) => {
    const x = a[sortKey], y = b[sortKey];
    if (x === y) return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return (x < y ? -1 : 1) * sortDir;
  });
  body.replaceChildren();
  // Large datasets: build at most LIMIT rows (sorting and filtering still see every pair).
  for (const p of rows.slice(0, LIMIT)) {
    const tr = document.createElement('tr');
    tr.className = 'pair';
    for (const v of [p.id, text(p.label), p.score === null ? '' : p.score.toFixed(4),
                     text(p.verdict), text(p.error)]) {
      const td = document.createElement('td'); td.textContent = v; tr.appendChild(td);
    }
    if (p.error !== null) tr.lastChild.className = 'err';
    tr.addEventListener('click', () => {
      const next = tr.nextSibling;
      if (next && next.classList.contains('detail')) { next.remove(); return; }
      const d = document.createElement('tr'); d.className = 'detail';
      const td = document.createElement('td'); td.colSpan = 5;
      const sides = document.createElement('div'); sides.className = 'sides';
      for (const [title, header, segments] of [['reference', headers[p.rh], p.rs],
                                               ['candidate', headers[p.ch], p.cs]]) {
        const div = document.createElement('div'); div.className = title;
        const h = document.createElement('b'); h.textContent = title;
        const head = document.createElement('pre'); head.className = 'header';
        head.textContent = header;
        // Odd segments are the subterms the tree edit renames, deletes or inserts.
        const pre = document.createElement('pre'); pre.className = 'statement';
        segments.forEach((t, i) => {
          if (i % 2 === 0) { pre.append(t); return; }
          const m = document.createElement('mark'); m.className = 'diff'; m.textContent = t;
          pre.appendChild(m);
        });
        div.append(h, head, pre); sides.appendChild(div);
      }
      td.appendChild(sides);
      const list = (tag, cls, title, items) => {
        const b = document.createElement('b'); b.textContent = title;
        const l = document.createElement(tag); l.className = cls;
        for (const x of items) {
          const li = document.createElement('li'); li.textContent = x; l.appendChild(li);
        }
        td.append(b, l);
      };
      if (p.d === undefined) {
        const note = document.createElement('p'); note.className = 'unparsed';
        note.textContent = p.why;
        td.appendChild(note);
      } else if (p.d.length) {
        list('ul', 'differences', 'Differences', p.d);
      } else {
        const note = document.createElement('p'); note.className = 'no-differences';
        note.textContent = 'Same operator tree (up to names of bound variables).';
        td.appendChild(note);
      }
      if (p.p) list('ol', 'path', 'Rewrite path', p.p);
      d.appendChild(td); tr.after(d);
    });
    body.appendChild(tr);
  }
  document.getElementById('shown').textContent = rows.length + ' of ' + data.length + ' pairs' +
    (rows.length > LIMIT ? ' (the first ' + LIMIT + ' listed: sort or filter to see others)' : '');
}
for (const th of document.querySelectorAll('#pairs th')) {
  th.addEventListener('click', () => {
    const key = th.dataset.key;
    sortDir = key === sortKey ? -sortDir : 1; sortKey = key;
    for (const other of document.querySelectorAll('#pairs th')) other.className = '';
    th.className = 'sorted-' + sortDir;
    render();
  });
}
for (const id of ['f-label', 'f-verdict', 'f-error', 'f-id']) {
  document.getElementById(id).addEventListener('input', render);
}
render();
"#;

/// The whole page.
pub fn render(report: &Report<'_>) -> String {
    let mut html = String::new();
    let title = format!("lean-assess bench: {} on {}", report.metric, report.dataset);
    let _ = write!(
        html,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{}</title><style>{STYLE}</style></head><body><h1>{}</h1>",
        escape(&title),
        escape(&title)
    );
    let failed = report.results.iter().filter(|r| matches!(r, PairResult::Error(_))).count();
    let _ = write!(
        html,
        "<p id=\"counts\">{} pairs ({} labelled), {} failed; {:.3} s</p>",
        report.pairs.len(),
        report.pairs.iter().filter(|p| p.label.is_some()).count(),
        failed,
        report.seconds
    );
    match (report.evaluation, report.decisions) {
        (Some(e), _) => {
            html.push_str(&headline(&e.best.stats, Some(e.best.threshold)));
            html.push_str(&baselines(report, &e.best.stats));
            html.push_str("<h2>Threshold sweep</h2>");
            html.push_str(&sweep_svg(e));
            html.push_str(&confusion(
                &format!("at the best threshold {:.3}", e.best.threshold),
                &e.best.stats,
            ));
        }
        (None, Some(d)) => {
            html.push_str(&headline(d, None));
            html.push_str(&confusion("decisions", d));
        }
        (None, None) => html.push_str("<p>No labelled pair was scored: nothing to evaluate.</p>"),
    }
    html.push_str(
        "<h2>Pairs</h2><div id=\"filters\">\
         <label>label <select id=\"f-label\"><option>any</option><option>true</option>\
         <option>false</option></select></label>\
         <label>verdict <select id=\"f-verdict\"><option>any</option><option>equivalent</option>\
         <option>not</option></select></label>\
         <label>error <select id=\"f-error\"><option>any</option><option>yes</option>\
         <option>no</option></select></label>\
         <label>id <input id=\"f-id\" type=\"search\"></label> <span id=\"shown\"></span></div>\
         <p>Click a column to sort, a row to see both statements side by side: the subterms \
         an optimal tree edit changes are highlighted, the differences listed, and the \
         rewrite path shown when the metric has one. The verdict of a score is taken at the \
         best threshold.</p>\
         <table id=\"pairs\"><thead><tr><th data-key=\"id\">id</th><th data-key=\"label\">label\
         </th><th data-key=\"score\">score</th><th data-key=\"verdict\">verdict</th>\
         <th data-key=\"error\">error</th></tr></thead><tbody></tbody></table>",
    );
    let _ = writeln!(
        html,
        "<script type=\"application/json\" id=\"pair-data\">{}</script><script>{SCRIPT}</script>\
         </body></html>",
        pairs_json(report)
    );
    html
}

/// `bench --html` / `merge --html`: hand the judged pairs to `report`.
#[allow(clippy::too_many_arguments)]
pub fn write_html(
    path: &Path,
    dataset: &str,
    metric: &str,
    seconds: f64,
    pairs: &[DatasetPair],
    outcomes: &[(&Outcome, usize)],
    evaluation: Option<&crate::evaluation::Evaluation>,
    decisions: Option<&crate::evaluation::Stats>,
) -> anyhow::Result<()> {
    let results = outcomes
        .iter()
        .map(|(o, _)| match *o {
            Outcome::Judged(Verdict::Score(s)) => PairResult::Score(*s),
            Outcome::Judged(Verdict::Equivalent(e)) => PairResult::Equivalent(*e),
            Outcome::Failed(m) => PairResult::Error(m),
        })
        .collect();
    let page = render(&Report { dataset, metric, seconds, pairs, results, evaluation, decisions });
    std::fs::write(path, page).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_cannot_break_out_of_the_page() {
        let pair = DatasetPair {
            id: "x<script>".into(),
            ref_header: String::new(),
            ref_statement: "theorem a : 1 < 2 </script><b>".into(),
            cand_header: String::new(),
            cand_statement: "theorem b : True".into(),
            label: Some(true),
            line: 1,
        };
        let report = Report {
            dataset: "d<i>",
            metric: "ted",
            seconds: 0.0,
            pairs: std::slice::from_ref(&pair),
            results: vec![PairResult::Score(0.5)],
            evaluation: None,
            decisions: None,
        };
        let page = render(&report);
        assert!(!page.contains("</script><b>"));
        assert!(!page.contains("x<script>"));
        assert!(page.contains("d&lt;i&gt;"));
        assert_eq!(page.matches("</script>").count(), 2);
    }

    fn marks(reference: &str, candidate: &str) -> (Vec<String>, Vec<String>, Vec<String>) {
        let pair = DatasetPair {
            id: "p".into(),
            ref_header: String::new(),
            ref_statement: reference.into(),
            cand_header: String::new(),
            cand_statement: candidate.into(),
            label: None,
            line: 1,
        };
        let d = detail(&pair, "ted").expect("both parse");
        assert!(d.path.is_empty(), "ted has no rewrite path");
        let odd = |s: Segments| s.into_iter().skip(1).step_by(2).collect::<Vec<_>>();
        (odd(d.reference), odd(d.candidate), d.differences)
    }

    #[test]
    fn a_renamed_operator_is_marked_where_it_is_written_only() {
        let (r, c, d) = marks(
            "theorem a (x : ℝ) (h : 0 < x) : x < 1 := by sorry",
            "theorem b (y : ℝ) (h : 0 < y) : y ≤ 1 := by sorry",
        );
        // The bound name (free renaming) and the theorem's name are not differences.
        assert_eq!((r, c), (vec!["<".to_string()], vec!["≤".to_string()]));
        assert_eq!(d.len(), 1, "{d:?}");
    }

    #[test]
    fn a_missing_hypothesis_is_marked_whole_and_the_text_is_kept_exactly() {
        let reference = "theorem a (x : ℕ) (h : x ≠ 0) : 0 < x := by sorry";
        let (r, c, d) = marks(reference, "theorem b (x : ℕ) : 0 < x := by sorry");
        assert_eq!(r, vec!["(h : x ≠ 0)"]);
        assert!(c.is_empty(), "{c:?}");
        assert!(d.iter().any(|m| m.contains("missing")), "{d:?}");
        let pair = DatasetPair {
            id: "p".into(),
            ref_header: String::new(),
            ref_statement: reference.into(),
            cand_header: String::new(),
            cand_statement: "theorem b (x : ℕ) : 0 < x := by sorry".into(),
            label: None,
            line: 1,
        };
        let whole: String = detail(&pair, "ted").unwrap().reference.concat();
        assert!(reference.starts_with(&whole), "{whole}");
    }

    #[test]
    fn a_statement_that_does_not_parse_says_so_in_its_row() {
        let pair = DatasetPair {
            id: "p".into(),
            ref_header: String::new(),
            ref_statement: "theorem a : (1 = 1".into(),
            cand_header: String::new(),
            cand_statement: "theorem b : 1 = 1".into(),
            label: None,
            line: 1,
        };
        let why = detail(&pair, "ted").err().expect("no detail");
        assert!(why.starts_with("ref_statement does not parse"), "{why}");
    }
}
