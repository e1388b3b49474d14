//! `bench`'s summary as text: the run's counts, the verdict view (what the metric shows
//! equivalent, with its evidence, against the labels), the failures, the decisions of a Lean
//! metric and the threshold view (default threshold, best threshold, sweep, GTED's published
//! figure).
//!
//! Owns the wording and layout only: every figure is the summary's; the similarity and the
//! @k sections are written by their own modules (`similarity`, `problems`).

use super::summary::Summary;
use super::{pct, EVIDENCE_KINDS};
use crate::evaluation::{self, Stats};
use std::io::Write;

/// Failures named in the summary; the rest are counted ("and N more").
const FAILURES_SHOWN: usize = 10;

impl Summary {
    /// The summary as text: the run, the verdict view, the failures, the similarity
    /// distribution (unlabelled runs), the decisions and the threshold view.
    pub(super) fn write_text(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        let failed = self.failures.len();
        match self.cost {
            Some(cost) => {
                writeln!(out, "dataset: {}   metric: {} ({cost} cost)", self.dataset, self.metric)?
            }
            None => writeln!(out, "dataset: {}   metric: {}", self.dataset, self.metric)?,
        }
        writeln!(out, "fields: {}", self.fields.describe())?;
        if self.headers_missing > 0 {
            writeln!(
                out,
                "note: {} line(s) have no value in the header field: read without a header (no \
                 imports, no `open`)",
                self.headers_missing
            )?;
        }
        if self.own_headers > 0 {
            writeln!(
                out,
                "note: {} statement(s) start with their own header (imports, `open`, ...): read as \
                 part of the header, as `score --ref-text` reads it",
                self.own_headers
            )?;
        }
        writeln!(
            out,
            "pairs: {} ({} labelled, {} labelled equivalent); scored {}, failed {}; {:.3} s",
            self.pairs,
            self.labelled,
            self.positives,
            self.pairs - failed,
            failed,
            self.seconds
        )?;
        if self.unparsed > 0 {
            writeln!(
                out,
                "note: {} statement(s) kept spans the parser could not read, as one node each",
                self.unparsed
            )?;
        }
        self.problems.write_text(self.pairs, self.shown_equivalent, out)?;
        writeln!(out)?;
        if let Some(st) = &self.verdicts {
            writeln!(
                out,
                "Verdict view: a pair counts as \"equivalent\" only when the metric shows it (the two"
            )?;
            writeln!(
                out,
                "statements are the same up to renaming of bound names, after sound rewrites or a Lean"
            )?;
            writeln!(out, "proof); every other pair is \"not shown\". Against the human labels:")?;
            writeln!(
                out,
                "  shown equivalent: {} of {} pairs",
                st.true_positive + st.false_positive,
                st.total
            )?;
            self.evidence_lines(out)?;
            if st.true_positive + st.false_positive == 0 {
                // score.py's convention prints precision 0 here; there is nothing to be precise about.
                writeln!(
                    out,
                    "  precision n/a (nothing shown)  recall 0.00%  accuracy {}  kappa {:.3}",
                    pct(st.accuracy),
                    st.kappa
                )?;
                writeln!(out, "  ({})", counts(st))?;
            } else {
                stats_lines(out, "  ", st)?;
            }
        } else {
            writeln!(
                out,
                "Verdict: a pair counts as \"equivalent\" only when the metric shows it (the two"
            )?;
            writeln!(
                out,
                "statements are the same up to renaming of bound names, after sound rewrites or a Lean"
            )?;
            writeln!(
                out,
                "proof); every other pair is \"not shown\" (no labels here to compare with)."
            )?;
            writeln!(
                out,
                "  shown equivalent: {} of {} pairs ({})",
                self.shown_equivalent,
                self.pairs,
                pct(self.shown_equivalent as f64 / self.pairs.max(1) as f64)
            )?;
            self.evidence_lines(out)?;
            writeln!(out, "  not shown: {}", self.pairs - failed - self.shown_equivalent)?;
        }
        if let Some(why) = self.why_none_shown() {
            writeln!(out, "  why none: {why}")?;
        }
        if failed > 0 {
            writeln!(out, "  failed: {failed} (not judged; each also warned about on stderr)")?;
            for (id, line, message) in self.failures.iter().take(FAILURES_SHOWN) {
                let message = message.lines().next().unwrap_or_default();
                writeln!(out, "    {id} (line {line}): {message}")?;
            }
            if failed > FAILURES_SHOWN {
                writeln!(out, "    and {} more", failed - FAILURES_SHOWN)?;
            }
        }
        if self.labelled == 0 {
            if let Some(sim) = &self.similarity {
                sim.write_text(out)?;
            }
        }
        if let Some(b) = &self.binary {
            // For a Lean decision metric the decisions are the verdicts: printed once, above.
            if self.verdicts.as_ref() != Some(b) {
                writeln!(out)?;
                let precision = if b.true_positive + b.false_positive == 0 {
                    "n/a (nothing decided equivalent)".to_string()
                } else {
                    pct(b.precision)
                };
                writeln!(
                    out,
                    "decisions: precision {precision}  recall {}  accuracy {}  kappa {:.4}  ({})",
                    pct(b.recall),
                    pct(b.accuracy),
                    b.kappa,
                    counts(b)
                )?;
            }
        }
        if let Some(e) = &self.evaluation {
            self.threshold_lines(e, out)?;
        }
        if self.evaluation.is_none() && self.binary.is_none() && self.labelled == 0 {
            writeln!(out)?;
            writeln!(
                out,
                "No labels ({}): the threshold view and the figures against labels need them.",
                self.fields.label.as_deref().map_or_else(
                    || "no 'label' or 'correct' field; --label-field names another".to_string(),
                    |l| format!("every '{l}' is null")
                )
            )?;
        }
        Ok(())
    }

    /// `    by evidence: …` under the shown-equivalent count.
    fn evidence_lines(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for (kind, n) in &self.by_evidence {
            let what = EVIDENCE_KINDS.iter().find(|(k, _)| k == kind).map_or(*kind, |(_, w)| *w);
            writeln!(out, "    {n} of them: {what} ({kind})")?;
        }
        Ok(())
    }

    fn threshold_lines(
        &self,
        e: &evaluation::Evaluation,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        writeln!(out)?;
        writeln!(
            out,
            "Threshold view: the metric gives each pair a similarity, 1 - distance / size of the"
        )?;
        writeln!(
            out,
            "larger tree (1 = identical; below 0 when the edits outnumber the larger tree's"
        )?;
        writeln!(
            out,
            "nodes). A threshold t calls a pair equivalent when its similarity is at least t."
        )?;
        writeln!(out, "  similarities here range over [{:.4}, {:.4}]", e.score_min, e.score_max)?;
        if let Some(d) = self.default.as_ref() {
            writeln!(
                out,
                "  at this metric's default threshold {:.3} (fixed in advance for every dataset,",
                d.threshold
            )?;
            writeln!(
                out,
                "  chosen once on the two bundled GTED sets together; README \"Judgement quality\"):"
            )?;
            stats_lines(out, "    ", &d.stats)?;
        }
        writeln!(
            out,
            "  at the best threshold for this dataset, {:.3} (GTED's method: every t in 0, 0.001,",
            e.best.threshold
        )?;
        writeln!(
            out,
            "  …, 1 tried, highest kappa kept; optimistic, since t is chosen on the pairs it scores):"
        )?;
        stats_lines(out, "    ", &e.best.stats)?;
        let (t, x) = &e.best_exhaustive;
        let t = t.map_or_else(|| "above every score".to_string(), |t| format!("{t:.6}"));
        writeln!(
            out,
            "  best cut over distinct scores (the same search, but trying each similarity that"
        )?;
        writeln!(
            out,
            "  occurs as t instead of the 0.001 grid): t = {t}, accuracy {}, kappa {:.3}",
            pct(x.accuracy),
            x.kappa
        )?;
        writeln!(out, "  at fixed thresholds:")?;
        for at in &e.sweep {
            writeln!(
                out,
                "    t={:.2}  accuracy {:>7}  kappa {:6.3}  precision {:>7}  recall {:>7}",
                at.threshold,
                pct(at.stats.accuracy),
                at.stats.kappa,
                pct(at.stats.precision),
                pct(at.stats.recall)
            )?;
        }
        if let Some((name, accuracy, kappa)) = self.published {
            writeln!(out)?;
            writeln!(
                out,
                "GTED's published figure on {name} (free-cost TED over Lean-elaborated trees, its best"
            )?;
            writeln!(
                out,
                "threshold): accuracy {}, kappa {kappa:.3}. Here, by the same method: accuracy {}, kappa {:.3}",
                pct(accuracy),
                pct(e.best.stats.accuracy),
                e.best.stats.kappa
            )?;
            let diff = 100.0 * (e.best.stats.accuracy - accuracy);
            let word = if diff >= 0.0 { "above" } else { "below" };
            write!(out, "({:.2} points {word}", diff.abs())?;
            if let Some(d) = self.default.as_ref() {
                write!(
                    out,
                    "; at the default threshold: accuracy {}, kappa {:.3}",
                    pct(d.stats.accuracy),
                    d.stats.kappa
                )?;
            }
            writeln!(out, ").")?;
        }
        Ok(())
    }
}

fn counts(st: &Stats) -> String {
    format!(
        "TP {} TN {} FP {} FN {} of {}",
        st.true_positive, st.true_negative, st.false_positive, st.false_negative, st.total
    )
}

/// `precision … recall … accuracy … kappa …` and the counts, on two lines under `indent`.
fn stats_lines(out: &mut dyn Write, indent: &str, st: &Stats) -> std::io::Result<()> {
    writeln!(
        out,
        "{indent}precision {}  recall {}  accuracy {}  kappa {:.3}",
        pct(st.precision),
        pct(st.recall),
        pct(st.accuracy),
        st.kappa
    )?;
    writeln!(out, "{indent}({})", counts(st))
}
