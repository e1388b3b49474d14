//! Everything `bench` (and `merge`) reports about a run, computed once by `evaluate`:
//! the counts, the failures, the similarity distribution, the problems' @k figure and the
//! figures against the labels; printed as text (`text`) or as the `--json` document (`json`).
//!
//! Owns the summary's fields, the exit status they imply and the one explanation both outputs
//! share (why nothing was shown equivalent); it computes no figure itself.

use super::problems::Problems;
use super::similarity::Similarity;
use crate::cli::Status;
use crate::dataset;
use crate::evaluation::{self, Stats};
use anyhow::Context;
use std::io::Write;

/// Everything `bench` reports, computed once; printed as text or as the `--json` document.
pub(in crate::cli) struct Summary {
    pub(super) dataset: String,
    pub(super) metric: String,
    pub(super) cost: Option<&'static str>,
    pub(super) fields: dataset::Mapping,
    pub(super) headers_missing: usize,
    pub(super) own_headers: usize,
    pub(super) pairs: usize,
    pub(super) labelled: usize,
    pub(super) positives: usize,
    pub(super) shown_equivalent: usize,
    pub(super) by_evidence: Vec<(&'static str, usize)>,
    /// `(id, line, message)` of every pair that could not be judged.
    pub(super) failures: Vec<(String, usize, String)>,
    pub(super) unparsed: usize,
    pub(super) seconds: f64,
    pub(super) similarity: Option<Similarity>,
    pub(super) problems: Problems,
    /// Threshold view: GTED's best threshold, the exhaustive cut, the sweep.
    pub(super) evaluation: Option<evaluation::Evaluation>,
    /// A Lean metric's yes/no decisions against the labels.
    pub(super) binary: Option<Stats>,
    /// Verdict view: "equivalent" shown (with evidence) against the labels.
    pub(super) verdicts: Option<Stats>,
    /// The metric's fixed default threshold and the figures there.
    pub(super) default: Option<evaluation::AtThreshold>,
    /// GTED's published figure when the dataset is one of its sets: (name, accuracy, kappa).
    pub(super) published: Option<(&'static str, f64, f64)>,
}

impl Summary {
    pub(in crate::cli) fn status(&self) -> Status {
        if self.failures.is_empty() {
            Status::Success
        } else {
            Status::SomeFailed
        }
    }

    pub(in crate::cli) fn print(&self, json: bool, out: &mut dyn Write) -> anyhow::Result<()> {
        if json {
            let text = serde_json::to_string_pretty(&self.to_json())
                .context("BUG: JSON values serialize")?;
            writeln!(out, "{text}")?;
            Ok(())
        } else {
            self.write_text(out)
        }
    }

    /// Why a run shows nothing equivalent, when the metric explains it.
    pub(super) fn why_none_shown(&self) -> Option<String> {
        if self.shown_equivalent > 0 || self.failures.len() == self.pairs {
            return None;
        }
        match self.metric.as_str() {
            m @ ("ted" | "path") => Some(format!(
                "`{m}` shows a pair equivalent only when its two statements are already the same \
                 up to renaming of bound names, and no pair here is; it applies no rewrites \
                 (`--metric transted-lite` does)"
            )),
            "transted-lite" => Some(
                "no pair here became the same up to renaming of bound names by the sound rewrites \
                 `transted-lite` knows; a Lean metric (`--metric beq+ --lean-project DIR`) may show more"
                    .to_string(),
            ),
            _ => None,
        }
    }
}
