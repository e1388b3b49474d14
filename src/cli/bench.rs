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
//! `dataset`'s.

use super::Status;
use super::{check_metric_names, cost_model};
use crate::dataset::{self, Dataset, DatasetPair, FieldChoice};
use crate::evaluation::{self, Stats};
use crate::lean::batch;
use crate::metrics::registry;
use crate::metrics::{self, Metric, MetricError, Verdict};
use crate::predictions::{self, Outcome, Provenance};
use crate::trees::parse::{self, Header};
use anyhow::{bail, Context};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// Dataset JSONL: one line per problem, with a reference statement, a candidate (or a
    /// `candidates` list: k samples), optional headers and an optional label. The fields are
    /// found by their usual names (docs/file-formats.md) or named with the --*-field flags.
    #[arg(value_name = "DATASET.jsonl")]
    pub dataset: PathBuf,
    /// The metric: ted, path, transted-lite (offline); transted, beq, beq+, beq+grind, defeq
    /// (need Lean).
    #[arg(long, default_value = "ted")]
    pub metric: String,
    /// `ted` with GTED's free renaming of bound variables and hypotheses (rename between two
    /// flagged nodes costs 0) instead of unit costs. `ted` only: the other metrics have one cost
    /// model each, and asking another for it is an error.
    #[arg(long)]
    pub free_cost: bool,
    /// Write one prediction per candidate: `{"id", "score"}`, `{"id", "equivalent"}` or
    /// `{"id", "error"}` (the format `fixtures/bench/score.py` reads), with the verdict, the
    /// metric and its cost model; with k candidates per problem, the problem and `"best": true`
    /// on each problem's best candidate.
    #[arg(long, value_name = "PRED.jsonl")]
    pub out: Option<PathBuf>,
    /// Print one JSON object (the contract's `bench --json` object).
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: the number of CPUs); with a Lean metric, pairs judged at once
    /// through the one server (default 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// Judge only shard K of N (1 ≤ K ≤ N): the problems whose id hashes to K (stable across
    /// runs and machines); `lean-assess merge` joins the shards' --out files.
    #[arg(long, value_name = "K/N", value_parser = dataset::parse_shard)]
    pub shard: Option<dataset::Shard>,
    /// Also write a self-contained HTML report (figures, sweep plot, confusion matrix, pairs).
    #[arg(long, value_name = "REPORT.html")]
    pub html: Option<PathBuf>,
    #[command(flatten)]
    pub fields: FieldArgs,
    #[command(flatten)]
    pub lean: super::lean_options::LeanOptions,
}

/// Which dataset field plays which part (`bench`, `merge`); unnamed parts are found by their
/// usual names (docs/file-formats.md).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct FieldArgs {
    /// The field holding the reference statement (default: ref_statement, formal_statement, …).
    #[arg(long, value_name = "NAME")]
    pub ref_field: Option<String>,
    /// The field holding the candidate statement, or a list of candidates (default:
    /// cand_statement, candidates, …).
    #[arg(long, value_name = "NAME")]
    pub cand_field: Option<String>,
    /// The field holding the label, true or false (default: label, correct).
    #[arg(long, value_name = "NAME")]
    pub label_field: Option<String>,
    /// The field holding the problem id (default: id, name, problem_id).
    #[arg(long, value_name = "NAME")]
    pub id_field: Option<String>,
    /// The field holding the reference's header, also the candidates' when the file has no
    /// cand_header (default: ref_header, header, src_header, lean4_src_header).
    #[arg(long, value_name = "NAME")]
    pub header_field: Option<String>,
}

impl FieldArgs {
    pub fn choice(&self) -> FieldChoice {
        FieldChoice {
            id: self.id_field.clone(),
            reference: self.ref_field.clone(),
            candidate: self.cand_field.clone(),
            label: self.label_field.clone(),
            header: self.header_field.clone(),
        }
    }
}

impl Args {
    /// Parse `bench`'s arguments from `argv` (without the program and command names), as the
    /// command line does: for callers that build a run without the CLI (the Python binding).
    pub fn parse_from<I, T>(argv: I) -> Result<Args, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        use clap::{Args as _, FromArgMatches as _};
        let command = Args::augment_args(clap::Command::new("bench").no_binary_name(true));
        let matches = command.try_get_matches_from(argv)?;
        Args::from_arg_matches(&matches)
    }
}

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
            let judged = judge_all(&data.pairs, judge.as_ref(), jobs);
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

/// A finished run (or merged shards) before it is summarized; shared with `merge`, which
/// scores shards' predictions exactly as one run would.
pub(super) struct Evaluated<'a> {
    pub(super) dataset_path: &'a std::path::Path,
    pub(super) data: &'a Dataset,
    pub(super) metric: &'a str,
    pub(super) free_cost: bool,
    pub(super) outcomes: &'a [Judged],
    pub(super) seconds: f64,
}

/// Failures named in the summary; the rest are counted ("and N more").
const FAILURES_SHOWN: usize = 10;

/// The similarity quantiles reported (as fractions) with their names.
const QUANTILES: &[(&str, f64)] =
    &[("p10", 0.1), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p90", 0.9)];

/// Width of the text histogram's longest bar.
const BAR_WIDTH: usize = 40;

impl Evaluated<'_> {
    /// Evaluate, write the predictions to `write_to` and the report to `html` (when given);
    /// every failed pair is a warning on `err`.
    pub(super) fn summarize(
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
        let problems = self.problems();
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

    /// Per problem: its candidates (indices into the pairs), whether any is shown equivalent,
    /// and its best candidate (shown equivalent first, then the highest similarity, then a
    /// Lean "yes", then the first; a failed one last).
    fn problems(&self) -> Problems {
        let mut order: Vec<&str> = Vec::new();
        let mut members: std::collections::HashMap<&str, Vec<usize>> = Default::default();
        for (i, p) in self.data.problems.iter().enumerate() {
            members
                .entry(p.as_str())
                .or_insert_with(|| {
                    order.push(p.as_str());
                    Vec::new()
                })
                .push(i);
        }
        let rank = |i: usize| -> (bool, bool, f64) {
            let j = &self.outcomes[i];
            let (ok, s) = match &j.outcome {
                Outcome::Judged(Verdict::Score(s)) if s.is_finite() => (true, *s),
                Outcome::Judged(Verdict::Score(_)) => (true, f64::NEG_INFINITY),
                Outcome::Judged(Verdict::Equivalent(e)) => (true, if *e { 1.0 } else { 0.0 }),
                Outcome::Failed(_) => (false, f64::NEG_INFINITY),
            };
            (j.shown_equivalent, ok, s)
        };
        let mut best = vec![false; self.outcomes.len()];
        let mut any_shown = 0usize;
        let (mut k_min, mut k_max) = (usize::MAX, 0usize);
        for p in &order {
            let m = &members[p];
            k_min = k_min.min(m.len());
            k_max = k_max.max(m.len());
            if m.iter().any(|&i| self.outcomes[i].shown_equivalent) {
                any_shown += 1;
            }
            // The first of the highest rank: `max_by` keeps the last of equals, so go backwards.
            let top = m.iter().rev().copied().max_by(|&a, &b| {
                let (ra, rb) = (rank(a), rank(b));
                (ra.0, ra.1).cmp(&(rb.0, rb.1)).then(ra.2.total_cmp(&rb.2))
            });
            if let Some(i) = top {
                best[i] = true;
            }
        }
        Problems { count: order.len(), k_min: k_min.min(k_max), k_max, any_shown, best }
    }

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

/// Problems and their k candidates.
pub(super) struct Problems {
    count: usize,
    k_min: usize,
    k_max: usize,
    /// Problems with at least one candidate shown equivalent (the @k figure).
    any_shown: usize,
    /// `best[i]`: pair i is its problem's best candidate.
    best: Vec<bool>,
}

/// The distribution of the similarities.
pub(super) struct Similarity {
    count: usize,
    min: f64,
    max: f64,
    mean: f64,
    quantiles: Vec<(&'static str, f64)>,
    /// `(from, to, count)`: `[from, to)`, the last bin `[0.9, 1]`; below 0 in one bin first.
    histogram: Vec<(f64, f64, usize)>,
}

impl Similarity {
    fn of(mut values: Vec<f64>) -> Option<Similarity> {
        if values.is_empty() {
            return None;
        }
        values.sort_by(f64::total_cmp);
        let n = values.len();
        // Linear interpolation between closest ranks (numpy's default, "type 7").
        let quantile = |q: f64| {
            let h = (n - 1) as f64 * q;
            let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
            values[lo] + (h - lo as f64) * (values[hi] - values[lo])
        };
        let mut histogram = Vec::new();
        let below = values.iter().filter(|v| **v < 0.0).count();
        if below > 0 {
            histogram.push((values[0], 0.0, below));
        }
        for b in 0..10 {
            let (from, to) = (b as f64 / 10.0, (b + 1) as f64 / 10.0);
            let count = values
                .iter()
                .filter(|v| **v >= from && (**v < to || (b == 9 && **v <= to)))
                .count();
            histogram.push((from, to, count));
        }
        Some(Similarity {
            count: n,
            min: values[0],
            max: values[n - 1],
            mean: values.iter().sum::<f64>() / n as f64,
            quantiles: QUANTILES.iter().map(|&(name, q)| (name, quantile(q))).collect(),
            histogram,
        })
    }

    fn to_json(&self) -> Value {
        let mut v =
            json!({"count": self.count, "min": self.min, "max": self.max, "mean": self.mean});
        for (name, q) in &self.quantiles {
            v[*name] = json!(q);
        }
        v["histogram"] = self
            .histogram
            .iter()
            .map(|(from, to, count)| json!({"from": from, "to": to, "count": count}))
            .collect();
        v
    }
}

/// Everything `bench` reports, computed once; printed as text or as the `--json` document.
pub(super) struct Summary {
    dataset: String,
    metric: String,
    cost: Option<&'static str>,
    fields: dataset::Mapping,
    headers_missing: usize,
    own_headers: usize,
    pairs: usize,
    labelled: usize,
    positives: usize,
    shown_equivalent: usize,
    by_evidence: Vec<(&'static str, usize)>,
    /// `(id, line, message)` of every pair that could not be judged.
    failures: Vec<(String, usize, String)>,
    unparsed: usize,
    seconds: f64,
    similarity: Option<Similarity>,
    problems: Problems,
    /// Threshold view: GTED's best threshold, the exhaustive cut, the sweep.
    evaluation: Option<evaluation::Evaluation>,
    /// A Lean metric's yes/no decisions against the labels.
    binary: Option<Stats>,
    /// Verdict view: "equivalent" shown (with evidence) against the labels.
    verdicts: Option<Stats>,
    /// The metric's fixed default threshold and the figures there.
    default: Option<evaluation::AtThreshold>,
    /// GTED's published figure when the dataset is one of its sets: (name, accuracy, kappa).
    published: Option<(&'static str, f64, f64)>,
}

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
    pub(super) fn status(&self) -> Status {
        if self.failures.is_empty() {
            Status::Success
        } else {
            Status::SomeFailed
        }
    }

    pub(super) fn print(&self, json: bool, out: &mut dyn Write) -> anyhow::Result<()> {
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
    fn why_none_shown(&self) -> Option<String> {
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
            "problems": {
                "count": self.problems.count,
                "candidates_min": self.problems.k_min,
                "candidates_max": self.problems.k_max,
                "any_shown_equivalent": self.problems.any_shown,
            },
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

    fn write_text(&self, out: &mut dyn Write) -> anyhow::Result<()> {
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
        let p = &self.problems;
        if p.k_max > 1 {
            let k = if p.k_min == p.k_max {
                format!("{}", p.k_max)
            } else {
                format!("{} to {}", p.k_min, p.k_max)
            };
            writeln!(out)?;
            writeln!(
                out,
                "Problems: {} with {k} candidates each ({} candidates).",
                p.count, self.pairs
            )?;
            writeln!(
                out,
                "  any of the k shown equivalent (@{}): {} of {} problems ({})",
                p.k_max,
                p.any_shown,
                p.count,
                pct(p.any_shown as f64 / p.count.max(1) as f64)
            )?;
            writeln!(
                out,
                "  per candidate: {} of {} shown equivalent ({})",
                self.shown_equivalent,
                self.pairs,
                pct(self.shown_equivalent as f64 / self.pairs.max(1) as f64)
            )?;
            writeln!(out, "  --out marks each problem's best candidate with \"best\": true")?;
        }
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
                self.similarity_lines(sim, out)?;
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

    fn similarity_lines(&self, sim: &Similarity, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out)?;
        writeln!(
            out,
            "Similarity (1 - distance / size of the larger tree; 1 = identical) of the {} judged pairs:",
            sim.count
        )?;
        let quantiles: Vec<String> =
            sim.quantiles.iter().map(|(name, q)| format!("{name} {q:.3}")).collect();
        writeln!(
            out,
            "  min {:.3}  {}  max {:.3}  mean {:.3}",
            sim.min,
            quantiles.join("  "),
            sim.max,
            sim.mean
        )?;
        let most = sim.histogram.iter().map(|h| h.2).max().unwrap_or(0).max(1);
        for (i, (from, to, count)) in sim.histogram.iter().enumerate() {
            let label = if *to <= 0.0 && *from < 0.0 {
                "     < 0   ".to_string()
            } else if i + 1 == sim.histogram.len() {
                format!("[{from:.1}, {to:.1}]")
            } else {
                format!("[{from:.1}, {to:.1})")
            };
            let bar = "#".repeat((count * BAR_WIDTH).div_ceil(most));
            writeln!(out, "  {label:<11} {count:>6}  {bar}")?;
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

fn judge_all(pairs: &[DatasetPair], judge: &dyn Metric, jobs: usize) -> Vec<Judged> {
    let chunk = pairs.len().div_ceil(jobs.max(1)).max(1);
    if jobs <= 1 || pairs.len() <= 1 {
        return pairs.iter().map(|p| judge_one(p, judge)).collect();
    }
    std::thread::scope(|scope| {
        let workers: Vec<_> = pairs
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || part.iter().map(|p| judge_one(p, judge)).collect::<Vec<_>>())
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| match w.join() {
                Ok(results) => results,
                // judge_one catches panics, so a worker can only die of something else (e.g.
                // out of memory); pass it on rather than lose pairs silently.
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}

/// Judge one pair. A panic inside the parser or a metric is a bug; it is reported as this pair's
/// failure (the panic message is already on stderr) so that the rest of the run still counts.
fn judge_one(pair: &DatasetPair, judge: &dyn Metric) -> Judged {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| judge_one_unguarded(pair, judge)))
        .unwrap_or_else(|_| {
            let message = format!("internal error (a bug) while judging with {}", judge.name());
            failed(message)
        })
}

fn failed(message: String) -> Judged {
    Judged {
        outcome: Outcome::Failed(message),
        unparsed: 0,
        shown_equivalent: false,
        evidence: None,
    }
}

fn judge_one_unguarded(pair: &DatasetPair, judge: &dyn Metric) -> Judged {
    let reference = parse::parse_statement(&pair.ref_statement, &Header::parse(&pair.ref_header));
    let candidate = parse::parse_statement(&pair.cand_statement, &Header::parse(&pair.cand_header));
    let (reference, candidate) = match (reference, candidate) {
        (Ok(r), Ok(c)) => (r, c),
        (Err(e), _) => return failed(format!("ref_statement: {e}")),
        (_, Err(e)) => return failed(format!("cand_statement: {e}")),
    };
    let unparsed =
        usize::from(!reference.unparsed.is_empty()) + usize::from(!candidate.unparsed.is_empty());
    let judged_pair = crate::metrics::Pair {
        reference: &reference,
        candidate: &candidate,
        reference_header: &pair.ref_header,
        candidate_header: &pair.cand_header,
    };
    match judge.judge(&judged_pair) {
        Ok(report) => {
            let shown = metrics::equivalence(&report, &judged_pair).is_equivalent();
            let evidence = shown.then_some(match report.metric {
                "transted-lite" if !report.path.is_empty() => "rewrites",
                "transted" => "lean-goal",
                "defeq" => "defeq",
                "beq" | "beq+" | "beq+grind" => "lean-proof",
                _ => "renaming",
            });
            Judged {
                shown_equivalent: shown,
                evidence,
                outcome: Outcome::Judged(report.verdict),
                unparsed,
            }
        }
        Err(e) => Judged { unparsed, ..failed(format!("{}: {e}", judge.name())) },
    }
}

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
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
