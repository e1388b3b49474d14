//! A finished run (or `merge`'s joined shards) summarized: the outcomes set against the labels
//! (verdict view, threshold view, a Lean metric's decisions), the failures warned about, the
//! predictions written (`--out`) and the report handed to `report` (`--html`).
//!
//! Owns going from outcomes to a [`Summary`] and the prediction file; the arithmetic is
//! `evaluation`'s, the outputs are `text`'s and `json`'s, the page is `report`'s.

use super::problems::Problems;
use super::similarity::Similarity;
use super::summary::Summary;
use super::{cost_name, Judged, EVIDENCE_KINDS};
use crate::cli::cost_model;
use crate::dataset::Dataset;
use crate::evaluation;
use crate::metrics::registry;
use crate::metrics::Verdict;
use crate::predictions::{self, Outcome, Provenance};
use anyhow::Context;
use serde_json::json;
use std::io::Write;

/// A finished run (or merged shards) before it is summarized; shared with `merge`, which
/// scores shards' predictions exactly as one run would.
pub(in crate::cli) struct Evaluated<'a> {
    pub(in crate::cli) dataset_path: &'a std::path::Path,
    pub(in crate::cli) data: &'a Dataset,
    pub(in crate::cli) metric: &'a str,
    pub(in crate::cli) free_cost: bool,
    pub(in crate::cli) outcomes: &'a [Judged],
    pub(in crate::cli) seconds: f64,
}

impl Evaluated<'_> {
    /// Evaluate, write the predictions to `write_to` and the report to `html` (when given);
    /// every failed pair is a warning on `err`.
    pub(in crate::cli) fn summarize(
        &self,
        write_to: Option<&std::path::Path>,
        html: Option<&std::path::Path>,
        err: &mut dyn Write,
    ) -> anyhow::Result<Summary> {
        let dataset_name = self.dataset_path.display().to_string();
        let pairs = &self.data.pairs;
        let mut scored: Vec<(bool, f64)> = Vec::new();
        let mut decided: Vec<(bool, bool)> = Vec::new();
        let mut shown: Vec<(bool, bool)> = Vec::new();
        let mut similarities: Vec<f64> = Vec::new();
        let mut failures: Vec<(String, usize, String)> = Vec::new();
        let mut unparsed = 0usize;
        let mut by_evidence: Vec<(&'static str, usize)> = Vec::new();
        for (pair, judged) in pairs.iter().zip(self.outcomes) {
            let outcome = &judged.outcome;
            unparsed += judged.unparsed;
            if let (Outcome::Judged(_), Some(label)) = (outcome, pair.label) {
                shown.push((label, judged.shown_equivalent));
            }
            if judged.shown_equivalent {
                let kind = judged.evidence.unwrap_or("renaming");
                match by_evidence.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, n)) => *n += 1,
                    None => by_evidence.push((kind, 1)),
                }
            }
            if let Outcome::Judged(Verdict::Score(s)) = outcome {
                if s.is_finite() {
                    similarities.push(*s);
                }
            }
            match (outcome, pair.label) {
                (Outcome::Failed(message), _) => {
                    writeln!(
                        err,
                        "lean-assess: warning: {dataset_name}:{}: pair '{}': {message}",
                        pair.line, pair.id
                    )?;
                    failures.push((pair.id.clone(), pair.line, message.clone()));
                }
                (Outcome::Judged(Verdict::Score(s)), Some(label)) => scored.push((label, *s)),
                (Outcome::Judged(Verdict::Equivalent(e)), Some(label)) => decided.push((label, *e)),
                (Outcome::Judged(_), None) => {}
            }
        }
        by_evidence.sort_by_key(|(k, _)| EVIDENCE_KINDS.iter().position(|(e, _)| e == k));
        let evaluation = evaluation::evaluate(&scored);
        let binary = (!decided.is_empty()).then(|| evaluation::confusion(decided.iter().copied()));
        let verdicts = (!shown.is_empty()).then(|| evaluation::confusion(shown.iter().copied()));
        let default = registry::default_threshold(self.metric, cost_model(self.free_cost))
            .filter(|_| !scored.is_empty())
            .map(|t| evaluation::AtThreshold {
                threshold: t,
                stats: evaluation::at_threshold(&scored, t),
            });
        let file_name = self
            .dataset_path
            .file_name()
            .map_or(String::new(), |f| f.to_string_lossy().into_owned());
        let problems = Problems::of(&self.data.problems, self.outcomes);
        if let Some(path) = write_to {
            self.write_predictions(path, &problems)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        if let Some(path) = html {
            let plain: Vec<(&Outcome, usize)> =
                self.outcomes.iter().map(|j| (&j.outcome, j.unparsed)).collect();
            crate::report::write_html(
                path,
                &dataset_name,
                self.metric,
                cost_model(self.free_cost),
                self.seconds,
                pairs,
                &plain,
                evaluation.as_ref(),
                binary.as_ref(),
            )?;
        }
        Ok(Summary {
            dataset: dataset_name,
            metric: self.metric.to_string(),
            cost: cost_name(self.metric, self.free_cost),
            fields: self.data.mapping.clone(),
            headers_missing: self.data.headers_missing,
            own_headers: self.data.own_headers,
            pairs: pairs.len(),
            labelled: pairs.iter().filter(|p| p.label.is_some()).count(),
            positives: pairs.iter().filter(|p| p.label == Some(true)).count(),
            shown_equivalent: self.outcomes.iter().filter(|j| j.shown_equivalent).count(),
            by_evidence,
            failures,
            unparsed,
            seconds: self.seconds,
            similarity: Similarity::of(similarities),
            problems,
            evaluation,
            binary,
            verdicts,
            default,
            published: evaluation::published_gted(&file_name),
        })
    }

    /// One prediction line per candidate, in dataset order (with k candidates, its problem
    /// and whether it is the best), written whole.
    fn write_predictions(&self, path: &std::path::Path, problems: &Problems) -> anyhow::Result<()> {
        let provenance =
            Provenance { metric: self.metric, cost: cost_name(self.metric, self.free_cost) };
        let k = problems.k_max > 1;
        let mut text = String::new();
        for (i, (pair, judged)) in self.data.pairs.iter().zip(self.outcomes).enumerate() {
            let mut line = predictions::line_with(
                &pair.id,
                &judged.outcome,
                judged.shown_equivalent,
                &provenance,
            );
            if let Some(kind) = judged.evidence.filter(|_| judged.shown_equivalent) {
                line["evidence"] = json!(kind);
            }
            if k {
                line["problem"] = json!(self.data.problems[i]);
                line["best"] = json!(problems.best[i]);
            }
            text.push_str(&line.to_string());
            text.push('\n');
        }
        // Through a temporary file: a Lean run's appended predictions are replaced only whole.
        let tmp = path.with_extension("jsonl.tmp");
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    }
}
