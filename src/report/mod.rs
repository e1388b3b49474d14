//! `bench --html REPORT.html`: one self-contained HTML file (inline CSS, JS and SVG; nothing is
//! fetched when it is viewed) that leads with the verdict view (how many pairs the metric *shows*
//! equivalent, with evidence, and how that agrees with the labels), then the threshold view at
//! the metric's fixed default threshold, then the best threshold for the dataset (marked
//! optimistic); the threshold sweep and a histogram of similarities by label (by verdict when
//! unlabelled) as SVG plots with axis titles and the default threshold marked; the confusion
//! matrices; and a table of pairs sortable by score and filterable by label, verdict and error.
//! Its "verdict" column is the evidence-based verdict (`metrics::equivalence`, as `score`, MCP
//! and `bench --out`'s `"verdict"`); the threshold decision is its own column, named for its
//! threshold. Each row expands to the two statements side by side with the differing subterms
//! highlighted, the differences in words and (for `transted-lite`) the rewrite path; beside the
//! headline, GTED's published figures when the dataset is one of its sets.
//!
//! Owns the page only: the figures come from `evaluation`, the pairs and their outcomes from the
//! caller, the differences from the TED mapping read by `features::differences` (the list the
//! editor's hover shows) and the rewrite path from the metric itself. Every dataset string goes
//! through [`escape`]; the pairs are embedded as JSON inside a
//! `<script type="application/json">` block with `<` escaped, so no statement can end it.
//!
//! Here: the page's frame (title, counts, style sheet) and putting it together; the parts live
//! beside it:
//! - `verdicts`: each pair's evidence-based verdict and similarity (the verdict column);
//! - `views`: the headline (verdict view, threshold view, baselines, confusion matrices);
//! - `plots`: the SVG sweep and histogram;
//! - `table`: the pairs table, its JSON rows and its script; `detail`: an expanded row;
//! - `html`: escaping and number formats, shared with `compare` (the `compare --html` page).

pub mod compare;
mod detail;
mod html;
mod plots;
mod table;
mod verdicts;
mod views;

pub use html::escape;

use crate::dataset::DatasetPair;
use crate::evaluation::{Evaluation, Stats};
use crate::metrics::registry::{self, CostModel};
use crate::metrics::Verdict;
use crate::predictions::Outcome;
use anyhow::Context;
use std::fmt::Write as _;
use std::path::Path;
use table::pairs_section;
use verdicts::judge;
use views::headline;

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
    /// The cost model the metric ran under: it picks the default threshold (`ted`'s differs).
    pub cost: CostModel,
    pub seconds: f64,
    pub pairs: &'a [DatasetPair],
    pub results: Vec<PairResult<'a>>,
    pub evaluation: Option<&'a Evaluation>,
    pub decisions: Option<&'a Stats>,
}

/// The page's style sheet.
const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}\
#pairs th{cursor:pointer;background:#f3f3f3}dl{display:grid;grid-template-columns:max-content \
auto;gap:2px 12px}dd{margin:0;font-weight:bold}.confusion td{text-align:right;min-width:4em}\
tr.detail pre{white-space:pre-wrap;margin:0;font-size:12px}tr.detail td{background:#fafafa}\
.sides{display:grid;grid-template-columns:1fr 1fr;gap:8px}.err{color:#b00}\
#filters label{margin-right:1em}pre.header{color:#888}mark.diff{background:#ffd76e;\
border-radius:2px}#baselines{margin:.8em 0}#baselines td{font-weight:bold}\
th.sorted-1::after{content:\" \\25B2\"}th.sorted--1::after{content:\" \\25BC\"}\
ul.differences,ol.path{margin:.3em 0;font-size:12px}.plots{display:flex;flex-wrap:wrap;\
gap:16px}.confusions{display:flex;gap:24px;margin:.8em 0}section h3{font-size:1em;\
margin:.8em 0 .2em}section p{margin:.2em 0 .4em}td.v-equivalent{color:#176317;font-weight:bold}";

/// The whole page.
pub fn render(report: &Report<'_>) -> String {
    let judged = judge(report);
    let default = registry::default_threshold(report.metric, report.cost)
        .filter(|_| judged.iter().any(|j| j.score.is_some()));
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
    html.push_str(&headline(report, &judged, default));
    html.push_str(&pairs_section(report, &judged, default));
    html.push_str("</body></html>\n");
    html
}

/// `bench --html` / `merge --html`: hand the judged pairs to `report`, for a metric run under
/// `cost` (`ted --free-cost` has its own default threshold).
#[allow(clippy::too_many_arguments)]
pub fn write_html(
    path: &Path,
    dataset: &str,
    metric: &str,
    cost: CostModel,
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
    let page =
        render(&Report { dataset, metric, cost, seconds, pairs, results, evaluation, decisions });
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
            cost: CostModel::Unit,
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

    #[test]
    fn unlabelled_pairs_get_the_verdict_view_and_a_histogram_by_verdict() {
        let pair = |id: &str, cand: &str| DatasetPair {
            id: id.into(),
            ref_header: String::new(),
            ref_statement: "theorem a (n : ℕ) (h : 0 < n) : 1 ≤ n".into(),
            cand_header: String::new(),
            cand_statement: cand.into(),
            label: None,
            line: 1,
        };
        let pairs = [
            pair("same", "theorem b (m : ℕ) (h : m > 0) : m ≥ 1"),
            pair("other", "theorem b (m : ℕ) (h : m > 0) : m ≥ 2"),
            pair("broken", "theorem b : (1 = 1"),
        ];
        let report = Report {
            dataset: "unlabelled.jsonl",
            metric: "transted-lite",
            cost: CostModel::Unit,
            seconds: 0.0,
            pairs: &pairs,
            results: vec![
                PairResult::Score(1.0),
                PairResult::Score(0.9),
                PairResult::Error("cand_statement: does not parse"),
            ],
            evaluation: None,
            decisions: None,
        };
        let page = render(&report);
        assert!(page.contains("<dd id=\"shown-equivalent\">1 of 2 judged pairs</dd>"), "{page}");
        assert!(page.contains("No pair is labelled"), "{page}");
        assert!(page.contains("aria-label=\"similarities by verdict\""), "{page}");
        assert!(page.contains("shown equivalent (1)") && page.contains("not shown (1)"));
        assert!(page.contains("At this metric's default threshold 0.807"));
        assert!(!page.contains("id=\"sweep\""), "a sweep needs labels");
        // The rows: the evidence-based verdict, the default threshold's decision, no verdict
        // for the failed pair.
        assert!(page.contains("\"id\":\"same\",\"label\":null,\"score\":1.0,\"verdict\":\"equivalent\",\"t\":\"yes\""), "{page}");
        assert!(page.contains("\"id\":\"other\",\"label\":null,\"score\":0.9,\"verdict\":\"not shown\",\"t\":\"yes\""), "{page}");
        assert!(
            page.contains("\"id\":\"broken\",\"label\":null,\"score\":null,\"verdict\":null"),
            "{page}"
        );
    }
}
