//! The page's two SVG plots, drawn on one frame (similarity or threshold on x from 0 to 1, axis
//! titles, ticks): the threshold sweep (accuracy and kappa) and the histogram of similarities
//! stacked by group, each with the default threshold (and the sweep the best one) marked.
//!
//! Owns the drawing only: which pairs and thresholds go in is the views' (`views`); the
//! figures at each threshold are `evaluation`'s.

use super::html::escape;
use crate::evaluation::{self as figures, Stats};
use std::fmt::Write as _;

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
pub(super) fn sweep_svg(scored: &[(bool, f64)], default: Option<f64>, best: Option<f64>) -> String {
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
pub(super) struct Group<'a> {
    pub(super) name: &'a str,
    pub(super) color: &'a str,
    pub(super) scores: Vec<f64>,
}

/// Similarities in 20 bins of 0.05, stacked by group (by label; by verdict when no pair is
/// labelled), the default threshold marked. Scores below 0 count in the first bin.
pub(super) fn histogram_svg(groups: &[Group<'_>], default: Option<f64>, by: &str) -> String {
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
