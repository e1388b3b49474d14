//! Metrics: how similar (or whether equivalent) a candidate statement is to its reference.
//!
//! Owns the [`Metric`] trait, the result type every front end (CLI, bench, editor) shows, and the
//! registry of metric names from the contract (`ted`, `path`, `transted-lite`, `transted`, `beq`,
//! `defeq`). Each metric lives in its own module; none of them does I/O or talks to Lean directly.

use crate::trees::Statement;
use std::time::{Duration, Instant};

/// The pair being judged, already parsed.
#[derive(Clone, Copy, Debug)]
pub struct Pair<'a> {
    pub reference: &'a Statement,
    pub candidate: &'a Statement,
    pub reference_header: &'a str,
    pub candidate_header: &'a str,
}

/// What a metric concludes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// A similarity; higher means more alike, 1.0 identical (TED-based scores can be negative).
    Score(f64),
    /// A yes/no equivalence decision (`beq`, `defeq`).
    Equivalent(bool),
}

/// One rewrite (or tactic) on a path from the original pair to the closest pair found.
#[derive(Clone, Debug, PartialEq)]
pub struct PathStep {
    /// Rule or tactic name, named after the lemma that justifies it (`and_imp`, `eq_comm`, ...).
    pub rule: String,
    /// Which side it applied to: `"reference"` or `"candidate"` (or `"goal"` for Lean tactics).
    pub side: String,
    /// Where, in readable terms (the subterm rewritten).
    pub at: String,
}

/// A metric's full answer, with what the editor needs to explain it.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricReport {
    pub metric: &'static str,
    pub verdict: Verdict,
    /// Edit distance behind the score, where there is one.
    pub distance: Option<u32>,
    pub reference_size: usize,
    pub candidate_size: usize,
    /// Transformations applied before the final distance (empty for plain TED).
    pub path: Vec<PathStep>,
    /// Free-form remarks (budget exhausted, tactic skipped for lack of Mathlib, ...).
    pub notes: Vec<String>,
    pub elapsed: Duration,
}

/// Why a metric could not judge a pair.
#[derive(Debug, thiserror::Error)]
pub enum MetricError {
    #[error(
        "metric '{0}' needs a Lean server: run it with `score --lean-project DIR` (or `bench --lean-project DIR`, or in the editor)"
    )]
    NeedsLean(&'static str),
    #[error("unknown metric '{0}' (known: ted, path, transted-lite, transted, beq, defeq)")]
    Unknown(String),
    #[error("{0}")]
    Failed(String),
}

/// A way of comparing two statements.
pub trait Metric: Send + Sync {
    /// The contract name (`ted`, `path`, ...).
    fn name(&self) -> &'static str;
    /// Judge one pair. Must not panic on any input, and must respect its own time bounds.
    fn judge(&self, pair: &Pair<'_>) -> Result<MetricReport, MetricError>;
}

/// Names of the metrics that need a Lean server.
pub const LEAN_METRICS: [&str; 3] = ["transted", "beq", "defeq"];

/// Measure the wall time of `f`, for `MetricReport::elapsed`.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

pub mod beq;
pub mod defeq;
pub mod lean_backed;
pub mod limits;
pub mod path;
pub mod ted;
pub mod transted;
pub mod transted_lite;

/// The offline metrics by contract name; the Lean-backed ones are refused with a clear error.
pub fn by_name(name: &str) -> Result<Box<dyn Metric>, MetricError> {
    match name {
        "ted" => Ok(Box::new(ted::Ted::default())),
        "path" => Ok(Box::new(path::PathSim::default())),
        "transted-lite" => Ok(Box::new(transted_lite::TransTedLite::default())),
        n if LEAN_METRICS.contains(&n) => Err(MetricError::NeedsLean(
            LEAN_METRICS
                .iter()
                .find(|m| **m == n)
                .expect("BUG: matched above"),
        )),
        other => Err(MetricError::Unknown(other.to_string())),
    }
}
