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
//! editor's hover shows) and the rewrite path from the metric itself. Every dataset string goes through [`escape`]; the pairs are embedded as JSON inside a
//! `<script type="application/json">` block with `<` escaped, so no statement can end it.

pub mod compare;

use crate::dataset::DatasetPair;
use crate::distance::{self, EditOp, Mapping};
use crate::evaluation::{self as figures, Evaluation, Stats};
use crate::metrics::registry::{self, CostModel};
use crate::metrics::{self, MetricReport, Pair, Verdict};
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
    /// The cost model the metric ran under: it picks the default threshold (`ted`'s differs).
    pub cost: CostModel,
    pub seconds: f64,
    pub pairs: &'a [DatasetPair],
    pub results: Vec<PairResult<'a>>,
    pub evaluation: Option<&'a Evaluation>,
    pub decisions: Option<&'a Stats>,
}

/// Each pair as the page reads it: its evidence-based verdict (`None` for a failed pair), its
/// similarity, and, for an offline metric that ran, its report (the rewrite path).
struct Judged {
    shown: Option<bool>,
    score: Option<f64>,
    report: Option<MetricReport>,
}

/// The evidence-based verdict of each pair, as `bench` decides it for `--out`'s `"verdict"`
/// (`metrics::equivalence` on the metric's report; for a Lean metric
/// `predictions::lean_shown_equivalent`, as a resumed run reads it). `bench` hands the report
/// only the outcomes, so an offline metric's report is recomputed here: the metrics are
/// deterministic, and the verdict of `ted`, `path` and `transted-lite` does not depend on the
/// cost model.
fn judge(report: &Report<'_>) -> Vec<Judged> {
    report
        .pairs
        .iter()
        .zip(&report.results)
        .map(|(pair, result)| match result {
            PairResult::Error(_) => Judged { shown: None, score: None, report: None },
            PairResult::Equivalent(e) => Judged { shown: Some(*e), score: None, report: None },
            PairResult::Score(s) if registry::needs_lean(report.metric) => Judged {
                shown: Some(crate::predictions::lean_shown_equivalent(
                    report.metric,
                    &crate::predictions::Outcome::Judged(Verdict::Score(*s)),
                )),
                score: Some(*s),
                report: None,
            },
            PairResult::Score(s) => {
                let judged = offline_report(report.metric, report.cost, pair);
                Judged {
                    shown: Some(judged.as_ref().is_some_and(|(_, shown)| *shown)),
                    score: Some(*s),
                    report: judged.map(|(r, _)| r),
                }
            }
        })
        .collect()
}

/// The offline metric's report on the pair and whether it shows the pair equivalent.
fn offline_report(
    metric: &str,
    cost: CostModel,
    pair: &DatasetPair,
) -> Option<(MetricReport, bool)> {
    let reference =
        parse::parse_statement(&pair.ref_statement, &Header::parse(&pair.ref_header)).ok()?;
    let candidate =
        parse::parse_statement(&pair.cand_statement, &Header::parse(&pair.cand_header)).ok()?;
    let judged_pair = Pair {
        reference: &reference,
        candidate: &candidate,
        reference_header: &pair.ref_header,
        candidate_header: &pair.cand_header,
    };
    // transted-lite's node budget, not its clock, ends a search that `bench` saw end; a clock
    // far beyond bench's keeps a page written on a loaded machine from cutting one short (a pair
    // bench's clock cut is a failed pair, not judged here).
    let m: Box<dyn metrics::Metric> = if metric == "transted-lite" {
        Box::new(metrics::transted_lite::TransTedLite::new(metrics::transted_lite::Config {
            time_limit: std::time::Duration::from_secs(60),
            ..Default::default()
        }))
    } else {
        registry::build(metric, cost).ok()?
    };
    // `bench` catches a metric's panic as the pair's failure; such a pair is an error here
    // and never judged again, so none is expected, but one must not take the page down.
    let judged = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        m.judge(&judged_pair).ok().map(|r| {
            let shown = metrics::equivalence(&r, &judged_pair).is_equivalent();
            (r, shown)
        })
    }));
    judged.ok().flatten()
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

/// Precision, or "n/a" when nothing was predicted equivalent (0 of 0 is no figure).
fn precision(s: &Stats) -> String {
    if s.true_positive + s.false_positive == 0 {
        "n/a".into()
    } else {
        pct(s.precision)
    }
}

/// Recall, or "n/a" when no pair is labelled equivalent.
fn recall(s: &Stats) -> String {
    if s.true_positive + s.false_negative == 0 {
        "n/a".into()
    } else {
        pct(s.recall)
    }
}

/// Plot geometry shared by the two SVG plots: similarity (or threshold) on x from 0 to 1.
const PLOT_W: f64 = 500.0;
const PLOT_H: f64 = 260.0;
const PLOT_LEFT: f64 = 52.0;
const PLOT_RIGHT: f64 = 16.0;
const PLOT_TOP: f64 = 34.0;
const PLOT_BOTTOM: f64 = 44.0;

fn plot_x(t: f64) -> f64 {
    PLOT_LEFT + t.clamp(0.0, 1.0) * (PLOT_W - PLOT_LEFT - PLOT_RIGHT)
}

/// y of `v` in [0, 1] on the plot's vertical axis.
fn plot_y(v: f64) -> f64 {
    PLOT_H - PLOT_BOTTOM - v.clamp(0.0, 1.0) * (PLOT_H - PLOT_TOP - PLOT_BOTTOM)
}

/// The frame of a plot: both axes, x ticks every 0.1, the y ticks given, both axis titles.
fn plot_frame(
    id: &str,
    label: &str,
    x_title: &str,
    y_title: &str,
    y_ticks: &[(f64, String)],
) -> String {
    let (w, h, b) = (PLOT_W, PLOT_H, PLOT_H - PLOT_BOTTOM);
    let mut svg = format!(
        "<svg id=\"{id}\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" \
         width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"{}\">\
         <line x1=\"{PLOT_LEFT}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"#888\"/>\
         <line x1=\"{PLOT_LEFT}\" y1=\"{PLOT_TOP}\" x2=\"{PLOT_LEFT}\" y2=\"{b}\" stroke=\"#888\"/>",
        escape(label),
        r = w - PLOT_RIGHT
    );
    for k in 0..=10 {
        let t = f64::from(k) / 10.0;
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\">{t:.1}</text>",
            plot_x(t),
            b + 13.0
        );
    }
    for (v, text) in y_ticks {
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"end\">{}</text>",
            PLOT_LEFT - 4.0,
            plot_y(*v) + 3.0,
            escape(text)
        );
    }
    let _ = write!(
        svg,
        "<text class=\"axis-title x\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" \
         text-anchor=\"middle\">{}</text><text class=\"axis-title y\" font-size=\"11\" \
         text-anchor=\"middle\" transform=\"translate(13 {:.1}) rotate(-90)\">{}</text>",
        plot_x(0.5),
        h - 8.0,
        escape(x_title),
        plot_y(0.5),
        escape(y_title)
    );
    svg
}

/// A vertical marker at threshold `t`, labelled (the default threshold, the best one).
fn marker(class: &str, t: f64, text: &str, color: &str, dash: &str, row: f64) -> String {
    format!(
        "<line class=\"{class}\" x1=\"{x:.1}\" y1=\"{top:.1}\" x2=\"{x:.1}\" y2=\"{b:.1}\" \
         stroke=\"{color}\" stroke-width=\"1.5\" stroke-dasharray=\"{dash}\"/>\
         <text class=\"{class}\" x=\"{tx:.1}\" y=\"{ty:.1}\" font-size=\"10\" fill=\"{color}\" \
         text-anchor=\"{anchor}\">{}</text>",
        escape(text),
        x = plot_x(t),
        top = PLOT_TOP - 2.0,
        b = PLOT_H - PLOT_BOTTOM,
        tx = plot_x(t) + if t > 0.6 { -3.0 } else { 3.0 },
        ty = PLOT_TOP - 6.0 - row * 11.0,
        anchor = if t > 0.6 { "end" } else { "start" },
    )
}

/// The sweep: accuracy and kappa against the threshold over [0, 1] (every 0.01), the default
/// threshold and the best one marked. `scored` holds `(label, similarity)` of labelled pairs.
fn sweep_svg(scored: &[(bool, f64)], default: Option<f64>, best: Option<f64>) -> String {
    if scored.is_empty() {
        return String::new();
    }
    let grid: Vec<(f64, Stats)> = (0..=100)
        .map(|k| {
            let t = f64::from(k) / 100.0;
            (t, figures::at_threshold(scored, t))
        })
        .collect();
    let line = |f: &dyn Fn(&Stats) -> f64| {
        grid.iter()
            .map(|(t, s)| format!("{:.1},{:.1}", plot_x(*t), plot_y(f(s))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let ticks: Vec<(f64, String)> =
        [0.0, 0.25, 0.5, 0.75, 1.0].iter().map(|v| (*v, format!("{v:.2}"))).collect();
    let mut svg = plot_frame(
        "sweep",
        "threshold sweep",
        "threshold t (a pair is called equivalent when its similarity ≥ t)",
        "accuracy, kappa",
        &ticks,
    );
    // A negative kappa (worse than chance) is drawn on the axis.
    let _ = write!(
        svg,
        "<polyline class=\"accuracy\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" \
         points=\"{}\"/><polyline class=\"kappa\" fill=\"none\" stroke=\"#d62728\" \
         stroke-width=\"2\" points=\"{}\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#1f77b4\">— accuracy</text>\
         <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#d62728\">— kappa</text>",
        line(&|s| s.accuracy),
        line(&|s| s.kappa),
        PLOT_LEFT + 6.0,
        PLOT_TOP + 10.0,
        PLOT_LEFT + 80.0,
        PLOT_TOP + 10.0,
    );
    if let Some(t) = default {
        svg.push_str(&marker("default", t, &format!("default {t:.3}"), "#222", "5 3", 0.0));
    }
    if let Some(t) = best {
        svg.push_str(&marker("best", t, &format!("best {t:.3} (optimistic)"), "#777", "2 2", 1.0));
    }
    svg.push_str("</svg>");
    svg
}

/// One histogram group: its name, colour and similarities.
struct Group<'a> {
    name: &'a str,
    color: &'a str,
    scores: Vec<f64>,
}

/// Similarities in 20 bins of 0.05, stacked by group (by label; by verdict when no pair is
/// labelled), the default threshold marked. Scores below 0 count in the first bin.
fn histogram_svg(groups: &[Group<'_>], default: Option<f64>, by: &str) -> String {
    const BINS: usize = 20;
    let bin = |s: f64| ((s.clamp(0.0, 1.0) * BINS as f64) as usize).min(BINS - 1);
    let mut counts = vec![vec![0usize; BINS]; groups.len()];
    for (g, group) in groups.iter().enumerate() {
        for s in &group.scores {
            counts[g][bin(*s)] += 1;
        }
    }
    let tallest = (0..BINS).map(|b| counts.iter().map(|c| c[b]).sum::<usize>()).max().unwrap_or(0);
    if tallest == 0 {
        return String::new();
    }
    let ticks: Vec<(f64, String)> = [0.0, 0.5, 1.0]
        .iter()
        .map(|f| (*f, format!("{}", (f * tallest as f64).round() as usize)))
        .collect();
    let mut svg = plot_frame(
        "histogram",
        &format!("similarities by {by}"),
        "similarity (below 0 counted at 0)",
        "pairs",
        &ticks,
    );
    let width = plot_x(1.0 / BINS as f64) - plot_x(0.0);
    for b in 0..BINS {
        let mut below = 0usize;
        for (group, count) in groups.iter().zip(&counts) {
            let n = count[b];
            if n == 0 {
                continue;
            }
            let (y_top, y_bottom) = (
                plot_y((below + n) as f64 / tallest as f64),
                plot_y(below as f64 / tallest as f64),
            );
            let _ = write!(
                svg,
                "<rect class=\"bar\" data-group=\"{}\" x=\"{:.1}\" y=\"{y_top:.1}\" \
                 width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"><title>{}: {n} pairs in \
                 [{:.2}, {:.2})</title></rect>",
                escape(group.name),
                plot_x(b as f64 / BINS as f64) + 0.5,
                width - 1.0,
                y_bottom - y_top,
                group.color,
                escape(group.name),
                b as f64 / BINS as f64,
                (b + 1) as f64 / BINS as f64
            );
            below += n;
        }
    }
    let mut x = PLOT_LEFT + 6.0;
    for group in groups.iter().filter(|g| !g.scores.is_empty()) {
        let _ = write!(
            svg,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"9\" height=\"9\" fill=\"{}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">{} ({})</text>",
            PLOT_TOP + 2.0,
            group.color,
            x + 12.0,
            PLOT_TOP + 10.0,
            escape(group.name),
            group.scores.len()
        );
        x += 12.0 + 6.5 * (group.name.len() as f64 + 6.0);
    }
    if let Some(t) = default {
        svg.push_str(&marker("default", t, &format!("default {t:.3}"), "#222", "5 3", 0.0));
    }
    svg.push_str("</svg>");
    svg
}

fn confusion(id: &str, title: &str, predicted: &str, s: &Stats) -> String {
    format!(
        "<table id=\"{id}\" class=\"confusion\"><caption>{}</caption>\
         <tr><th></th><th>{p} equivalent</th><th>{p} not</th></tr>\
         <tr><th>labelled equivalent</th><td class=\"tp\">{}</td><td class=\"fn\">{}</td></tr>\
         <tr><th>labelled not</th><td class=\"fp\">{}</td><td class=\"tn\">{}</td></tr></table>",
        escape(title),
        s.true_positive,
        s.false_negative,
        s.false_positive,
        s.true_negative,
        p = escape(predicted),
    )
}

/// Figures against the labels as `<dt>`/`<dd>` pairs; `id_prefix` names the accuracy's `<dd>`.
fn figures_dl(id: &str, s: &Stats) -> String {
    format!(
        "<dl id=\"{id}\"><dt>precision</dt><dd>{}</dd><dt>recall</dt><dd>{}</dd>\
         <dt>accuracy</dt><dd class=\"accuracy\">{}</dd><dt>kappa</dt><dd>{:.3}</dd></dl>",
        precision(s),
        recall(s),
        pct(s.accuracy),
        s.kappa
    )
}

/// The headline: the verdict view first (what the metric shows, with evidence, and how the
/// labels agree), then the threshold view at the fixed default threshold, then the best
/// threshold for this dataset, marked optimistic.
fn headline(report: &Report<'_>, judged: &[Judged], default: Option<f64>) -> String {
    let verdicts: Vec<(Option<bool>, bool)> = report
        .pairs
        .iter()
        .zip(judged)
        .filter_map(|(p, j)| j.shown.map(|shown| (p.label, shown)))
        .collect();
    let shown = verdicts.iter().filter(|(_, s)| *s).count();
    let labelled: Vec<(bool, bool)> =
        verdicts.iter().filter_map(|(l, s)| l.map(|l| (l, *s))).collect();
    let mut out = String::from(
        "<section id=\"verdict-view\"><h2>Verdict view</h2><p>A pair is <b>equivalent</b> only \
         when the metric shows it (a path of sound rewrites after which the two statements are \
         the same up to renaming of bound names, or a Lean proof); every other pair is <b>not \
         shown</b>. This is the table's verdict column.</p>",
    );
    let _ = write!(
        out,
        "<dl id=\"headline\"><dt>shown equivalent</dt><dd id=\"shown-equivalent\">{shown} of {} \
         judged pairs</dd></dl>",
        verdicts.len()
    );
    let mut confusions = String::new();
    if !labelled.is_empty() {
        let stats = figures::confusion(labelled.iter().copied());
        out.push_str(&figures_dl("verdict-figures", &stats));
        confusions.push_str(&confusion("confusion-verdict", "verdict view", "shown", &stats));
    }
    out.push_str("</section>");
    let scored: Vec<(bool, f64)> =
        report.pairs.iter().zip(judged).filter_map(|(p, j)| Some((p.label?, j.score?))).collect();
    let any_score = judged.iter().any(|j| j.score.is_some());
    if any_score {
        out.push_str(
            "<section id=\"threshold-view\"><h2>Threshold view</h2><p>The metric's similarity \
             (1 − distance / size of the larger tree) decides instead: a threshold t calls a \
             pair equivalent when its similarity is at least t.</p>",
        );
        if let Some(t) = default {
            let above = judged.iter().filter(|j| j.score.is_some_and(|s| s >= t)).count();
            let _ = write!(
                out,
                "<h3 id=\"at-default-title\">At this metric's default threshold {t:.3}</h3>\
                 <p>Fixed in advance for every dataset (chosen once on the two bundled GTED sets \
                 together): {above} of {} scored pairs at or above it.</p>",
                judged.iter().filter(|j| j.score.is_some()).count()
            );
            if !scored.is_empty() {
                let stats = figures::at_threshold(&scored, t);
                out.push_str(&figures_dl("at-default", &stats));
                confusions.push_str(&confusion(
                    "confusion",
                    &format!("at the default threshold {t:.3}"),
                    "predicted",
                    &stats,
                ));
            }
        }
        if let Some(e) = report.evaluation {
            let _ = write!(
                out,
                "<h3 id=\"at-best-title\">At the best threshold for this dataset, {:.3} \
                 (optimistic)</h3><p>GTED's method: every t in 0, 0.001, …, 1 tried, the highest \
                 kappa kept. Optimistic, since t is chosen on the pairs it scores.</p>",
                e.best.threshold
            );
            out.push_str(&figures_dl("at-best", &e.best.stats));
            out.push_str(&baselines(report, &e.best.stats));
        }
        out.push_str("</section>");
    }
    if let (None, Some(d)) = (report.evaluation, report.decisions) {
        // A Lean metric decides by itself: its decisions are its verdicts.
        if labelled.is_empty() {
            out.push_str(&figures_dl("decisions", d));
        }
    }
    if report.pairs.iter().all(|p| p.label.is_none()) {
        out.push_str("<p id=\"unlabelled\">No pair is labelled: the figures against labels are not shown.</p>");
    }
    // The plots: the sweep (labelled pairs) and the histogram (every scored pair).
    let mut plots = String::new();
    let best = report.evaluation.map(|e| e.best.threshold);
    plots.push_str(&sweep_svg(&scored, default, best));
    if any_score {
        let any_label = report.pairs.iter().any(|p| p.label.is_some());
        let pick = |f: &dyn Fn(&DatasetPair, &Judged) -> bool| -> Vec<f64> {
            report
                .pairs
                .iter()
                .zip(judged)
                .filter(|(p, j)| f(p, j))
                .filter_map(|(_, j)| j.score)
                .collect()
        };
        let (groups, by) = if any_label {
            (
                vec![
                    Group {
                        name: "labelled equivalent",
                        color: "#2ca02c",
                        scores: pick(&|p, _| p.label == Some(true)),
                    },
                    Group {
                        name: "labelled not",
                        color: "#ff7f0e",
                        scores: pick(&|p, _| p.label == Some(false)),
                    },
                    Group {
                        name: "unlabelled",
                        color: "#bbb",
                        scores: pick(&|p, _| p.label.is_none()),
                    },
                ],
                "label",
            )
        } else {
            (
                vec![
                    Group {
                        name: "shown equivalent",
                        color: "#2ca02c",
                        scores: pick(&|_, j| j.shown == Some(true)),
                    },
                    Group {
                        name: "not shown",
                        color: "#9467bd",
                        scores: pick(&|_, j| j.shown == Some(false)),
                    },
                ],
                "verdict",
            )
        };
        plots.push_str(&histogram_svg(&groups, default, by));
    }
    if !plots.is_empty() {
        let _ = write!(out, "<h2>Plots</h2><div class=\"plots\">{plots}</div>");
    }
    if let (None, Some(d)) = (report.evaluation, report.decisions) {
        if labelled.is_empty() {
            confusions.push_str(&confusion("confusion", "decisions", "predicted", d));
        }
    }
    if !confusions.is_empty() {
        let _ = write!(out, "<div class=\"confusions\">{confusions}</div>");
    }
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
/// differences, and the rewrite path of the metric's `report` when it has one
/// (`transted-lite`). Else why there is nothing to show (the row says it).
fn detail(pair: &DatasetPair, report: Option<&MetricReport>) -> Result<Detail, String> {
    let reference = parse::parse_statement(&pair.ref_statement, &Header::parse(&pair.ref_header))
        .map_err(|e| format!("ref_statement does not parse: {e}"))?;
    let candidate = parse::parse_statement(&pair.cand_statement, &Header::parse(&pair.cand_header))
        .map_err(|e| format!("cand_statement does not parse: {e}"))?;
    let mapping = distance::try_ted_mapping(
        &reference.tree,
        &candidate.tree,
        distance::CostModel { free_rename: true },
    )
    .map_err(|e| format!("no differences shown: {e}"))?;
    let (mapping, differences) =
        crate::differences::read(&reference, &candidate, mapping, MAX_DIFFERENCES);
    let (changed_ref, changed_cand) = changed_nodes(&mapping, &reference.tree, &candidate.tree);
    let differences = differences.into_iter().map(|d| d.message).collect();
    let path = report.map_or_else(Vec::new, |r| {
        r.path
            .iter()
            .map(|s| match s.readable_at() {
                Some(at) => format!("{} ({}): {at}", s.rule, s.side),
                None => format!("{} ({})", s.rule, s.side),
            })
            .collect()
    });
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
    let _ = writeln!(
        html,
        "<script type=\"application/json\" id=\"pair-data\">{}</script><script>{SCRIPT}</script>\
         </body></html>",
        pairs_json(report, &judged, default)
    );
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
        let d = detail(&pair, None).expect("both parse");
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
        let whole: String = detail(&pair, None).unwrap().reference.concat();
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
        let why = detail(&pair, None).err().expect("no detail");
        assert!(why.starts_with("ref_statement does not parse"), "{why}");
    }
}
