//! `lean-assess bench DATASET.jsonl [--metric M] [--out PRED.jsonl] [--json] [--html FILE]
//! [--lean-project DIR [--server-command CMD] [--config FILE]] [--jobs N] [--*-field NAME]`: run
//! one metric over a dataset, labelled or not, with one or k candidates per problem, and
//! summarize: the verdicts with their evidence, the failures, the similarity distribution, the
//! any-of-k figure, and with labels the judgement quality with the figures of
//! `fixtures/bench/score.py`.
//!
//! Owns the batch loop: parse both statements of each pair with their own headers, judge, write
//! predictions, evaluate, and the summary in text and as the `--json` document ([`bench_json`],
//! the one place it is built: the CLI and the Python binding print the same). One bad pair never
//! stops the run (ripgrep's model): it gets an `{"id", "error"}` prediction, a warning naming
//! `dataset:line` and a line in the summary, and the run exits with status 1. Bad input as a
//! whole (unreadable or malformed dataset, unknown metric, `--free-cost` for a metric without
//! it) is fatal (status 2).
//!
//! The arithmetic is `evaluation`'s; reading the dataset (shapes, field names, k candidates) is
//! `dataset`'s. Here: checking a run's arguments and running it; the parts live beside it:
//! - `args`: the flags (`Args`, the dataset's `FieldArgs`);
//! - `judge`: the offline metrics' loop over the pairs;
//! - `evaluate`: outcomes → [`summary::Summary`], the `--out` predictions, the `--html` hand-off;
//! - `problems`: k candidates per problem, the best one, the @k figure;
//! - `similarity`: the similarity distribution;
//! - `text` and `json`: the summary printed, as text or as the `--json` document.

mod args;
mod evaluate;
mod json;
mod judge;
mod problems;
mod similarity;
mod summary;
mod text;

pub use args::{Args, FieldArgs};
pub(super) use evaluate::Evaluated;
use summary::Summary;

use super::Status;
use super::{check_metric_names, cost_model};
use crate::dataset;
use crate::lean::batch;
use crate::metrics::registry;
use crate::metrics::{Metric, MetricError};
use crate::predictions::{self, Outcome};
use anyhow::{bail, Context};
use serde_json::Value;
use std::io::Write;
use std::time::Instant;

/// One pair's outcome, how many of its statements kept unparsed spans, and whether the metric
/// showed it equivalent (`metrics::equivalence`: evidence, not a threshold) and with what kind of
/// evidence ([`EVIDENCE_KINDS`]).
pub(super) struct Judged {
    pub(super) outcome: Outcome,
    pub(super) unparsed: usize,
    pub(super) shown_equivalent: bool,
    pub(super) evidence: Option<&'static str>,
}

/// The kinds of evidence a verdict `equivalent` rests on: (key, what it means).
pub const EVIDENCE_KINDS: &[(&str, &str)] = &[
    ("renaming", "the same up to renaming of bound names"),
    ("rewrites", "sound rewrites make them the same up to renaming"),
    ("lean-goal", "Lean closed `reference ↔ candidate` along a rewrite path"),
    ("lean-proof", "Lean proved each from the other"),
    ("defeq", "Lean checked them definitionally equal"),
];

/// The evidence kind of a Lean-backed verdict (its report is not kept, only the prediction).
pub(super) fn lean_evidence(metric: &str, shown: bool) -> Option<&'static str> {
    shown.then_some(match metric {
        "defeq" => "defeq",
        "transted" => "lean-goal",
        _ => "lean-proof",
    })
}

/// `--free-cost` is `ted`'s: refused for a metric that would ignore it.
pub(super) fn check_free_cost(metrics: &[&str]) -> anyhow::Result<()> {
    if metrics.contains(&"ted") {
        return Ok(());
    }
    bail!(
        "--free-cost changes `ted` only, not {}: `transted-lite` already charges nothing for \
         renaming bound names, `path` compares root-to-leaf paths (no edits to charge), and the \
         Lean metrics do not count edits; drop --free-cost, or use it with `ted`",
        metrics.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ")
    )
}

/// The cost model a prediction records: `ted`'s, the one metric that has two.
pub(super) fn cost_name(metric: &str, free_cost: bool) -> Option<&'static str> {
    (metric == "ted").then_some(if free_cost { "free-renaming" } else { "unit" })
}

/// A fraction as every summary line writes it: `12.34%`.
fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

/// Run `bench` as `args` say (writing `--out` and `--html` when asked) and return the
/// `bench --json` document: the one place it is built, for the CLI and the Python binding.
/// Warnings (a pair that failed, the Lean run's progress) go to `err`.
pub fn bench_json(args: &Args, err: &mut dyn Write) -> anyhow::Result<Value> {
    let summary = run_bench(args, err)?;
    Ok(summary.to_json())
}

pub fn run(args: Args, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<Status> {
    let summary = run_bench(&args, err)?;
    summary.print(args.json, out)?;
    Ok(summary.status())
}

fn run_bench(args: &Args, err: &mut dyn Write) -> anyhow::Result<Summary> {
    check_metric_names(std::slice::from_ref(&args.metric))?;
    if let Some(dir) = &args.lean.lean_project {
        if !dir.is_dir() {
            bail!("--lean-project {}: not a directory", dir.display());
        }
    }
    let offline: Option<Box<dyn Metric>> =
        match registry::build(&args.metric, cost_model(args.free_cost)) {
            Ok(judge) => Some(judge),
            Err(MetricError::NeedsLean(_)) if args.lean.lean_project.is_some() => None,
            Err(e) => return Err(e.into()),
        };
    if offline.is_some() && args.lean.config.is_some() {
        // The offline metrics read nothing from it, but a broken file should not pass unnoticed.
        batch::load_config(args.lean.config.as_deref(), None)?;
    }
    if args.free_cost {
        check_free_cost(&[args.metric.as_str()])?;
    }
    let data = dataset::read_dataset(&args.dataset, &args.fields.choice())?;
    let data = dataset::select_shard(data, args.shard);

    let started = Instant::now();
    let (metric_name, outcomes) = match (&offline, &args.lean.lean_project) {
        (Some(judge), _) => {
            debug_assert!(!registry::needs_lean(judge.name()));
            let jobs = args.jobs.map_or_else(
                || std::thread::available_parallelism().map_or(1, usize::from),
                |n| n as usize,
            );
            let judged = judge::judge_all(&data.pairs, judge.as_ref(), jobs);
            (judge.name(), judged)
        }
        (None, Some(project)) => {
            let name = registry::lean_names()
                .find(|m| *m == args.metric)
                .context("BUG: a metric refused for needing Lean is one of the registry's")?;
            let config = batch::load_config(args.lean.config.as_deref(), Some(project))?;
            let settings = batch::LeanSettings::new(config.as_ref(), &[name])?;
            let run = batch::LeanRun {
                metric: name,
                project,
                server_command: args.lean.server_command.as_deref(),
                jobs: args.jobs.map_or(1, |n| n as usize),
                out: args.out.as_deref(),
                settings: &settings,
            };
            let judged = batch::judge_all(&run, &data.pairs, err)?
                .into_iter()
                .map(|(outcome, unparsed)| {
                    let shown = predictions::lean_shown_equivalent(name, &outcome);
                    Judged {
                        shown_equivalent: shown,
                        evidence: lean_evidence(name, shown),
                        outcome,
                        unparsed,
                    }
                })
                .collect::<Vec<_>>();
            (name, judged)
        }
        (None, None) => bail!("BUG: a Lean metric without --lean-project was refused above"),
    };
    // The Lean run appended its predictions as they came (resumable); the offline run writes
    // them all at once. With k candidates per problem the Lean run's file is rewritten at the
    // end, in dataset order, to mark each problem's best candidate.
    let write_to =
        args.out.as_deref().filter(|_| offline.is_some() || data.samples_per_problem().1 > 1);
    let seconds = started.elapsed().as_secs_f64();
    let run = Evaluated {
        dataset_path: &args.dataset,
        data: &data,
        metric: metric_name,
        free_cost: args.free_cost,
        outcomes: &outcomes,
        seconds,
    };
    run.summarize(write_to, args.html.as_deref(), err)
}
