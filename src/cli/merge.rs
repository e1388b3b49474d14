//! Batch runs beyond one machine: `bench --shard K/N` picks a stable part of a dataset, and
//! `lean-assess merge --dataset DATASET.jsonl PRED.jsonl...` joins the shards' predictions and
//! scores the union exactly as one `bench` run would.
//!
//! Owns the shard split (a hash of the pair id, so the split does not depend on the dataset's
//! order, the machine or the run) and the merge checks (an id judged in two files, an id of the
//! dataset judged nowhere, an id not in the dataset, one file given twice) and which metric and
//! cost model the predictions came from (each line records them; files that disagree are an
//! error). Scoring and printing are `bench`'s ([`super::bench::Evaluated`]); reading prediction
//! lines is `predictions`'.

use super::bench;
use super::Status;
use crate::dataset::{self, DatasetPair};
use crate::metrics::registry;
use crate::predictions::{self, Outcome};
use anyhow::{bail, Context};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The dataset the shards were cut from (every id must be judged exactly once).
    #[arg(long, value_name = "DATASET.jsonl")]
    dataset: PathBuf,
    /// The metric the predictions came from. Not needed: each prediction records its metric
    /// and cost model; given, it must agree with them (for files written before they did, it
    /// is required).
    #[arg(long)]
    metric: Option<String>,
    /// Write the merged predictions here, in dataset order (as one `bench --out` run writes).
    #[arg(long, value_name = "PRED.jsonl")]
    out: Option<PathBuf>,
    /// Also write a self-contained HTML report (as `bench --html`).
    #[arg(long, value_name = "REPORT.html")]
    html: Option<PathBuf>,
    /// Print one JSON object (as `bench --json`).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    fields: bench::FieldArgs,
    /// The shards' prediction files (`bench --shard K/N --out ...`).
    #[arg(value_name = "PRED.jsonl", required = true)]
    predictions: Vec<PathBuf>,
}

/// Where an id's prediction was found, for messages.
struct Found {
    file: usize,
    line: usize,
    outcome: Outcome,
    /// The prediction says `"verdict": "equivalent"`.
    shown: bool,
    evidence: Option<&'static str>,
}

/// The metric and cost model the predictions say they came from, with the first place each
/// was read (for a message about a conflict).
#[derive(Default)]
struct Provenance {
    metric: Option<(String, String)>,
    cost: Option<(String, String)>,
}

impl Provenance {
    fn record(&mut self, key: &str, value: Option<String>, at: String) -> anyhow::Result<()> {
        let Some(value) = value else {
            return Ok(());
        };
        let slot = if key == "metric" { &mut self.metric } else { &mut self.cost };
        match slot {
            Some((first, where_first)) if *first != value => bail!(
                "the predictions disagree on the {key}: {where_first} says '{first}', {at} says \
                 '{value}'; merge the shards of one run only"
            ),
            Some(_) => Ok(()),
            None => {
                *slot = Some((value, at));
                Ok(())
            }
        }
    }
}

pub fn run(args: Args, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<Status> {
    if let Some(metric) = &args.metric {
        super::check_metric_names(std::slice::from_ref(metric))?;
    }
    check_given_once(&args.predictions)?;
    let data = dataset::read_dataset(&args.dataset, &args.fields.choice())?;
    let mut found: HashMap<String, Found> = HashMap::new();
    let mut provenance = Provenance::default();
    for (file_index, path) in args.predictions.iter().enumerate() {
        read_predictions(path, file_index, &args.predictions, &mut found, &mut provenance)?;
    }
    let metric = match (&args.metric, &provenance.metric) {
        (Some(given), Some((recorded, at))) if given != recorded => {
            bail!("--metric {given}, but the predictions say they came from '{recorded}' ({at})")
        }
        (_, Some((recorded, _))) => recorded.clone(),
        (Some(given), None) => given.clone(),
        (None, None) => bail!(
            "the predictions do not say which metric they came from (written before predictions \
             recorded it): give --metric"
        ),
    };
    let metric: &'static str = registry::spec(&metric).map_err(anyhow::Error::from)?.name;
    let free_cost = match provenance.cost.as_ref().map(|(c, at)| (c.as_str(), at)) {
        None | Some(("unit", _)) => false,
        Some(("free-renaming", _)) => true,
        Some((other, at)) => bail!("{at}: unknown cost model '{other}' (unit or free-renaming)"),
    };
    let pairs = &data.pairs;
    let known: HashMap<&str, &DatasetPair> = pairs.iter().map(|p| (p.id.as_str(), p)).collect();
    let mut strangers: Vec<&Found> =
        found.iter().filter(|(id, _)| !known.contains_key(id.as_str())).map(|(_, f)| f).collect();
    if !strangers.is_empty() {
        strangers.sort_by_key(|f| (f.file, f.line));
        let first = strangers[0];
        bail!(
            "{}:{}: id not in {} ({} prediction(s) with unknown ids)",
            args.predictions[first.file].display(),
            first.line,
            args.dataset.display(),
            strangers.len()
        );
    }
    let missing: Vec<&str> =
        pairs.iter().filter(|p| !found.contains_key(&p.id)).map(|p| p.id.as_str()).collect();
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(5).map(|id| format!("'{id}'")).collect();
        bail!(
            "{} of {} pair(s) of {} have no prediction in the files given (first: {}); a shard \
             is missing or unfinished",
            missing.len(),
            pairs.len(),
            args.dataset.display(),
            shown.join(", ")
        );
    }
    let outcomes: Vec<bench::Judged> = pairs
        .iter()
        .map(|p| {
            let (outcome, shown, evidence) = found.remove(&p.id).map_or_else(
                || (Outcome::Failed("BUG: checked above".into()), false, None),
                |f| (f.outcome, f.shown, f.evidence),
            );
            // A Lean metric's verdict follows from its prediction, as in `bench`.
            let shown = shown || predictions::lean_shown_equivalent(metric, &outcome);
            bench::Judged {
                shown_equivalent: shown,
                evidence: evidence.or_else(|| bench::lean_evidence(metric, shown)),
                outcome,
                unparsed: 0,
            }
        })
        .collect();
    let evaluated = bench::Evaluated {
        dataset_path: &args.dataset,
        data: &data,
        metric,
        free_cost,
        outcomes: &outcomes,
        seconds: 0.0,
    };
    let summary = evaluated.summarize(args.out.as_deref(), args.html.as_deref(), err)?;
    summary.print(args.json, out)?;
    Ok(summary.status())
}

/// The same file named twice would be read twice, and every id in it would look judged twice.
fn check_given_once(files: &[PathBuf]) -> anyhow::Result<()> {
    let mut seen: Vec<(PathBuf, usize)> = Vec::new();
    for (i, path) in files.iter().enumerate() {
        let Ok(real) = std::fs::canonicalize(path) else {
            continue; // unreadable: reading it says so
        };
        if let Some((_, first)) = seen.iter().find(|(p, _)| *p == real) {
            bail!(
                "{} was given twice (prediction files {} and {}): name each shard's file once",
                path.display(),
                first + 1,
                i + 1
            );
        }
        seen.push((real, i));
    }
    Ok(())
}

/// Read one shard's predictions into `found`. Within a file a later line replaces an earlier one
/// for the same id (a resumed run appends its retries); the same id in two files is an error.
fn read_predictions(
    path: &Path,
    file_index: usize,
    files: &[PathBuf],
    found: &mut HashMap<String, Found>,
    provenance: &mut Provenance,
) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    for (n, line) in text.lines().enumerate() {
        let Some(prediction) = predictions::parse_line(path, n + 1, line)? else {
            continue;
        };
        let at = || format!("{}:{}", path.display(), n + 1);
        let Some(outcome) = prediction.outcome else {
            bail!("{}: prediction without \"score\", \"equivalent\" or \"error\"", at());
        };
        provenance.record("metric", prediction.metric.clone(), at())?;
        provenance.record("cost model", prediction.cost.clone(), at())?;
        let evidence = prediction
            .evidence
            .as_deref()
            .and_then(|e| bench::EVIDENCE_KINDS.iter().find(|(k, _)| *k == e).map(|(k, _)| *k));
        let id = prediction.id.as_str();
        match found.get(id) {
            Some(earlier) if earlier.file != file_index => bail!(
                "duplicate id '{id}': {}:{} and {}",
                files[earlier.file].display(),
                earlier.line,
                at()
            ),
            _ => {
                found.insert(
                    id.to_string(),
                    Found {
                        file: file_index,
                        line: n + 1,
                        outcome,
                        shown: prediction.shown_equivalent,
                        evidence,
                    },
                );
            }
        }
    }
    Ok(())
}
