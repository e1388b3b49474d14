//! `compare --html REPORT.html`: one self-contained page (inline CSS, nothing fetched) with two
//! models' totals, the both / only A / only B / neither counts, and every problem on which they
//! disagree, each with both sides' verdict, evidence and best similarity.
//!
//! Owns the page only, drawn from `compare --json`'s document (`cli::compare` builds it), so the
//! page and the JSON cannot tell different stories. Every string from the files is escaped.

use super::html::escape;
use anyhow::Context;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::Path;

fn text(v: &Value) -> String {
    escape(v.as_str().unwrap_or_default())
}

fn count(v: &Value) -> u64 {
    v.as_u64().unwrap_or(0)
}

/// One side of a row: verdict (with evidence), similarity, and an error when every candidate
/// failed.
fn cell(side: &Value) -> String {
    let verdict = side["verdict"].as_str().unwrap_or_default();
    let class = match verdict {
        "equivalent" => "eq",
        "failed" => "fail",
        _ => "ns",
    };
    let mut html = format!("<span class=\"{class}\">{}</span>", escape(verdict));
    if let Some(e) = side["evidence"].as_str() {
        let _ = write!(html, " <small>({})</small>", escape(e));
    }
    if let Some(s) = side["similarity"].as_f64() {
        let _ = write!(html, "<br><small>similarity {s:.4}</small>");
    }
    if count(&side["candidates"]) > 1 {
        let _ = write!(html, " <small>[best of {}]</small>", count(&side["candidates"]));
    }
    if let (Some(e), "failed") = (side["error"].as_str(), verdict) {
        let _ = write!(html, "<br><small>{}</small>", escape(e));
    }
    html
}

fn rows_table(title: &str, rows: &Value) -> String {
    let rows = rows.as_array().map(Vec::as_slice).unwrap_or_default();
    let mut html = format!("<h2>{} ({})</h2>", escape(title), rows.len());
    if rows.is_empty() {
        html.push_str("<p>none</p>");
        return html;
    }
    html.push_str("<table><thead><tr><th>problem</th><th>A</th><th>B</th></tr></thead><tbody>");
    for row in rows {
        let _ = write!(
            html,
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            text(&row["problem"]),
            cell(&row["a"]),
            cell(&row["b"])
        );
    }
    html.push_str("</tbody></table>");
    html
}

/// The page for `compare`'s JSON document.
pub fn render(doc: &Value) -> String {
    let n = count(&doc["problems"]);
    let pct = |x: u64| format!("{:.2}%", 100.0 * x as f64 / n.max(1) as f64);
    let side = |tag: &str, s: &Value| {
        let metric = s["metric"].as_str().map_or("metric not recorded".to_string(), escape);
        let shown = count(&s["shown_equivalent"]);
        format!(
            "<tr><th>{tag}</th><td><code>{}</code></td><td>{metric}</td><td>{shown} of {n} ({})</td><td>{}</td></tr>",
            text(&s["file"]),
            pct(shown),
            count(&s["failed"])
        )
    };
    let mut html = String::from(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>lean-assess compare</title><style>\
         body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}\
         table{border-collapse:collapse;margin:0.5em 0 1.5em}\
         td,th{border:1px solid #ccc;padding:0.3em 0.6em;text-align:left;vertical-align:top}\
         .eq{color:#176f2c;font-weight:600}.ns{color:#555}.fail{color:#a11}\
         .grid td{text-align:right;min-width:6em}</style></head><body>",
    );
    html.push_str("<h1>Two models side by side</h1>");
    html.push_str(
        "<p>A problem counts as shown equivalent when the metric shows one of its candidates \
         equivalent (with evidence: rewrites or renaming, or a Lean proof); “not shown” is not a \
         claim that it differs.</p>",
    );
    html.push_str(
        "<table><thead><tr><th></th><th>predictions</th><th>metric</th>\
         <th>shown equivalent</th><th>failed</th></tr></thead><tbody>",
    );
    html.push_str(&side("A", &doc["a"]));
    html.push_str(&side("B", &doc["b"]));
    html.push_str("</tbody></table>");
    let _ = write!(
        html,
        "<table class=\"grid\"><tr><th></th><th>B shown</th><th>B not shown</th></tr>\
         <tr><th>A shown</th><td>{}</td><td>{}</td></tr>\
         <tr><th>A not shown</th><td>{}</td><td>{}</td></tr></table>",
        count(&doc["both"]),
        count(&doc["a_only_count"]),
        count(&doc["b_only_count"]),
        count(&doc["neither"])
    );
    html.push_str(&rows_table("Shown equivalent by A, not by B", &doc["a_only"]));
    html.push_str(&rows_table("Shown equivalent by B, not by A", &doc["b_only"]));
    html.push_str("</body></html>\n");
    html
}

/// Write [`render`]'s page to `path`.
pub fn write_html(path: &Path, doc: &Value) -> anyhow::Result<()> {
    std::fs::write(path, render(doc)).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_page_lists_each_disagreement_and_escapes_what_the_files_say() {
        let doc = json!({
            "a": {"file": "a.jsonl", "metric": "transted-lite", "shown_equivalent": 1, "failed": 0},
            "b": {"file": "b<script>.jsonl", "metric": null, "shown_equivalent": 0, "failed": 1},
            "problems": 2, "both": 0, "neither": 1, "a_only_count": 1, "b_only_count": 0,
            "a_only": [{"problem": "p<1>",
                        "a": {"verdict": "equivalent", "evidence": "rewrites", "similarity": 1.0, "candidates": 4},
                        "b": {"verdict": "failed", "error": "cand_statement: <eof>", "candidates": 1}}],
            "b_only": [],
        });
        let page = render(&doc);
        assert!(page.contains("<code>p&lt;1&gt;</code>"), "{page}");
        assert!(page.contains("b&lt;script&gt;.jsonl"), "{page}");
        assert!(!page.contains("<script>"), "{page}");
        assert!(page.contains("<span class=\"eq\">equivalent</span> <small>(rewrites)</small>"));
        assert!(page.contains("[best of 4]"));
        assert!(page.contains("cand_statement: &lt;eof&gt;"));
        assert!(page.contains("Shown equivalent by B, not by A (0)</h2><p>none</p>"));
        assert!(page.contains("1 of 2 (50.00%)"));
    }
}
