//! The `bench --json` document (the contract's object), built from a [`Summary`]: the one
//! place it is built, for the CLI, `merge` and the Python binding.
//!
//! Owns the document's shape only: every figure in it is the summary's.

use super::similarity::Similarity;
use super::summary::Summary;
use crate::evaluation::Stats;
use serde_json::{json, Value};

/// A confusion matrix's figures (at `threshold`, when the figures have one) as JSON.
fn figures(threshold: Option<f64>, st: &Stats) -> Value {
    json!({
        "threshold": threshold,
        "precision": st.precision,
        "recall": st.recall,
        "accuracy": st.accuracy,
        "kappa": st.kappa,
        "true_positive": st.true_positive,
        "true_negative": st.true_negative,
        "false_positive": st.false_positive,
        "false_negative": st.false_negative,
        "total": st.total,
    })
}

impl Summary {
    /// The `bench --json` document.
    pub(super) fn to_json(&self) -> Value {
        let (best, sweep) = match (&self.evaluation, &self.binary) {
            (Some(e), _) => (
                figures(Some(e.best.threshold), &e.best.stats),
                e.sweep
                    .iter()
                    .map(|t| {
                        json!({"threshold": t.threshold, "accuracy": t.stats.accuracy, "kappa": t.stats.kappa})
                    })
                    .collect(),
            ),
            (None, Some(b)) => (figures(None, b), Vec::new()),
            (None, None) => (Value::Null, Vec::new()),
        };
        let failed = self.failures.len();
        let mut object = json!({
            "dataset": self.dataset,
            "metric": self.metric,
            "cost": self.cost,
            "fields": self.fields.to_json(),
            "pairs": self.pairs,
            "labelled": self.labelled,
            "scored": self.pairs - failed,
            "failed": failed,
            "seconds": self.seconds,
            "shown_equivalent": {
                "count": self.shown_equivalent,
                "of": self.pairs,
                "by_evidence": self.by_evidence.iter().map(|(k, n)| (k.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
                "why_none": self.why_none_shown(),
            },
            "failures": self.failures.iter().map(|(id, line, error)| json!({"id": id, "line": line, "error": error})).collect::<Vec<_>>(),
            "similarity": self.similarity.as_ref().map(Similarity::to_json),
            "problems": self.problems.to_json(),
            "best": best,
            "sweep": sweep,
            "verdict_view": self.verdicts.as_ref().map(|st| figures(None, st)),
            "default_threshold": self.default.as_ref().map(|d| figures(Some(d.threshold), &d.stats)),
        });
        if let Some(e) = &self.evaluation {
            let (t, x) = &e.best_exhaustive;
            object["best_cut"] = figures(*t, x);
            object["score_range"] = json!([e.score_min, e.score_max]);
        }
        if let Some((name, accuracy, kappa)) = self.published {
            object["published_gted"] =
                json!({"dataset": name, "accuracy": accuracy, "kappa": kappa});
        }
        object
    }
}
