//! The page's headline: the verdict view (how many pairs the metric shows equivalent and how
//! that agrees with the labels), the threshold view at the fixed default threshold and at the
//! best threshold for the dataset (marked optimistic, beside GTED's published figures on its
//! sets), the plots and the confusion matrices.
//!
//! Owns the figures' markup and which pairs each view counts; the arithmetic is `evaluation`'s,
//! the verdicts `verdicts`', the drawing `plots`'.

use super::html::{escape, pct, precision, recall};
use super::plots::{histogram_svg, sweep_svg, Group};
use super::verdicts::Judged;
use super::Report;
use crate::dataset::DatasetPair;
use crate::evaluation::{self as figures, Stats};
use std::fmt::Write as _;

/// A confusion matrix as a table: labels in rows, `predicted` in columns.
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

/// Figures against the labels as `<dt>`/`<dd>` pairs in a `<dl>` with the given `id`.
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
pub(super) fn headline(report: &Report<'_>, judged: &[Judged], default: Option<f64>) -> String {
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
