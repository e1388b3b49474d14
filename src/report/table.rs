//! The page's table of pairs: its filters and head, the pairs as JSON inside a
//! `<script type="application/json">` block (`<` escaped, so no statement can end it; each
//! header written once), and the script that builds, sorts, filters and expands the rows.
//!
//! Owns the table only: the verdicts are `verdicts`', an expanded row's content `detail`'s.

use super::detail::detail;
use super::verdicts::Judged;
use super::{PairResult, Report};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// The pairs section: the filters, the table's head (the threshold column when the metric
/// scores), the pairs as JSON and the script that builds the rows from them.
pub(super) fn pairs_section(
    report: &Report<'_>,
    judged: &[Judged],
    default: Option<f64>,
) -> String {
    let threshold_column = default.map_or(String::new(), |t| {
        format!(
            "<th data-key=\"t\" title=\"the threshold view's decision at the default \
             threshold {t:.3}: not a verdict\">score ≥ {t:.3}</th>"
        )
    });
    let threshold_note = default.map_or(String::new(), |t| {
        format!(
            " The column \"score ≥ {t:.3}\" is the threshold view's decision at the default \
             threshold, not a verdict."
        )
    });
    let mut html = String::new();
    let _ = write!(
        html,
        "<h2>Pairs</h2><div id=\"filters\">\
         <label>label <select id=\"f-label\"><option>any</option><option>true</option>\
         <option>false</option></select></label>\
         <label>verdict <select id=\"f-verdict\"><option>any</option><option>equivalent</option>\
         <option>not shown</option></select></label>\
         <label>error <select id=\"f-error\"><option>any</option><option>yes</option>\
         <option>no</option></select></label>\
         <label>id <input id=\"f-id\" type=\"search\"></label> <span id=\"shown\"></span></div>\
         <p>Click a column to sort, a row to see both statements side by side: the subterms \
         an optimal tree edit changes are highlighted, the differences listed, and the \
         rewrite path shown when the metric has one. The verdict is the evidence-based one \
         (as in <code>bench --out</code>'s \"verdict\"): equivalent only when the metric shows \
         it.{threshold_note}</p>\
         <table id=\"pairs\"><thead><tr><th data-key=\"id\">id</th><th data-key=\"label\">label\
         </th><th data-key=\"score\">score</th><th data-key=\"verdict\">verdict</th>\
         {threshold_column}<th data-key=\"error\">error</th></tr></thead><tbody></tbody></table>",
    );
    let _ = write!(
        html,
        "<script type=\"application/json\" id=\"pair-data\">{}</script><script>{SCRIPT}</script>",
        pairs_json(report, judged, default)
    );
    html
}

/// The pairs as JSON for the page's script, `{"headers": [...], "pairs": [...]}` (a dataset
/// repeats a few headers over thousands of pairs: each is written once, pairs index them); `<`
/// is escaped so no text can close the block.
fn pairs_json<'a>(report: &Report<'a>, judged: &[Judged], default: Option<f64>) -> String {
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
        .zip(judged)
        .map(|((p, r), j)| {
            let error = match r {
                PairResult::Error(m) => Some(*m),
                _ => None,
            };
            // The evidence-based verdict, in `score`'s words; none for a failed pair.
            let verdict = j.shown.map(|s| if s { "equivalent" } else { "not shown" });
            // The threshold decision, its own column: at the fixed default threshold.
            let at_default = default.zip(j.score).map(|(t, s)| if s >= t { "yes" } else { "no" });
            let mut row = json!({
                "id": p.id,
                "label": p.label,
                "score": j.score,
                "verdict": verdict,
                "t": at_default,
                "error": error,
                "rh": header(&p.ref_header),
                "ch": header(&p.cand_header),
            });
            match detail(p, j.report.as_ref()) {
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

/// The table's behaviour: build rows from the JSON, sort on header click, filter, expand.
const SCRIPT: &str = r#"
const LIMIT = 1000;
const payload = JSON.parse(document.getElementById('pair-data').textContent);
const headers = payload.headers, data = payload.pairs;
const body = document.querySelector('#pairs tbody');
let sortKey = 'id', sortDir = 1;
// The table's columns, from its header (the threshold column exists for a score metric only).
const COLUMNS = [...document.querySelectorAll('#pairs th')].map(th => th.dataset.key);
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
    for (const key of COLUMNS) {
      const td = document.createElement('td');
      const v = p[key];
      td.textContent = key === 'score' && v !== null ? v.toFixed(4) : text(v);
      if (key === 'error' && v !== null) td.className = 'err';
      if (key === 'verdict' && v === 'equivalent') td.className = 'v-equivalent';
      tr.appendChild(td);
    }
    tr.addEventListener('click', () => {
      const next = tr.nextSibling;
      if (next && next.classList.contains('detail')) { next.remove(); return; }
      const d = document.createElement('tr'); d.className = 'detail';
      const td = document.createElement('td'); td.colSpan = COLUMNS.length;
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
