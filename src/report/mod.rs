//! `bench --html REPORT.html`: one self-contained HTML file (inline CSS, JS and SVG; nothing is
//! fetched when it is viewed) with the headline figures, the threshold sweep as an SVG plot, the
//! confusion matrix, and a table of pairs sortable by score and filterable by label, verdict and
//! error, each row expandable to the two statements side by side.
//!
//! Owns the page only: the figures come from `evaluation`, the pairs and their outcomes from the
//! caller. Every dataset string goes through [`escape`]; the pairs are embedded as JSON inside a
//! `<script type="application/json">` block with `<` escaped, so no statement can end it.

use crate::dataset::DatasetPair;
use crate::evaluation::{Evaluation, Stats};
use serde_json::{json, Value};
use std::fmt::Write as _;

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
        let _ = write!(
            svg,
            "<text x=\"4\" y=\"{:.1}\" font-size=\"10\">{v:.1}</text>",
            y(v) + 3.0
        );
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

/// The pairs as JSON for the page's script; `<` is escaped so no text can close the block.
fn pairs_json(report: &Report<'_>) -> String {
    let threshold = report.evaluation.map(|e| e.best.threshold);
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
            json!({
                "id": p.id,
                "label": p.label,
                "score": score,
                "verdict": verdict,
                "error": error,
                "ref": format!("{}{}", p.ref_header, p.ref_statement),
                "cand": format!("{}{}", p.cand_header, p.cand_statement),
            })
        })
        .collect();
    Value::Array(rows).to_string().replace('<', "\\u003c")
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}\
#pairs th{cursor:pointer;background:#f3f3f3}dl{display:grid;grid-template-columns:max-content \
auto;gap:2px 12px}dd{margin:0;font-weight:bold}.confusion td{text-align:right;min-width:4em}\
tr.detail pre{white-space:pre-wrap;margin:0;font-size:12px}tr.detail td{background:#fafafa}\
.sides{display:grid;grid-template-columns:1fr 1fr;gap:8px}.err{color:#b00}\
#filters label{margin-right:1em}";

/// The table's behaviour: build rows from the JSON, sort on header click, filter, expand.
const SCRIPT: &str = r#"
const LIMIT = 1000;
const data = JSON.parse(document.getElementById('pair-data').textContent);
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
      for (const [title, s] of [['reference', p.ref], ['candidate', p.cand]]) {
        const div = document.createElement('div');
        const h = document.createElement('b'); h.textContent = title;
        const pre = document.createElement('pre'); pre.textContent = s;
        div.append(h, pre); sides.appendChild(div);
      }
      td.appendChild(sides); d.appendChild(td); tr.after(d);
    });
    body.appendChild(tr);
  }
  document.getElementById('shown').textContent = rows.length + ' of ' + data.length + ' pairs' +
    (rows.length > LIMIT ? ' (the first ' + LIMIT + ' listed: sort or filter to see others)' : '');
}
for (const th of document.querySelectorAll('#pairs th')) {
  th.addEventListener('click', () => {
    const key = th.dataset.key;
    sortDir = key === sortKey ? -sortDir : 1; sortKey = key; render();
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
    let failed = report
        .results
        .iter()
        .filter(|r| matches!(r, PairResult::Error(_)))
        .count();
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
         <p>Click a column to sort, a row to see both statements. The verdict of a score is \
         taken at the best threshold.</p>\
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
}
