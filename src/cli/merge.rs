//! Batch runs beyond one machine: `bench --shard K/N` picks a stable part of a dataset, and
//! `lean-assess merge --dataset DATASET.jsonl PRED.jsonl...` joins the shards' predictions and
//! scores the union exactly as one `bench` run would.
//!
//! Owns the shard split (a hash of the pair id, so the split does not depend on the dataset's
//! order, the machine or the run) and the merge checks (an id judged in two files, an id of the
//! dataset judged nowhere, an id not in the dataset). Scoring and printing are `bench`'s
//! ([`super::bench::report`]); reading prediction lines follows `batch::read_done`'s format.

use super::bench;
use super::Status;
use crate::dataset::{self, DatasetPair};
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
    /// The metric the predictions came from (shown in the summary, as `bench --metric`).
    #[arg(long, default_value = "ted")]
    metric: String,
    /// Write the merged predictions here, in dataset order (as one `bench --out` run writes).
    #[arg(long, value_name = "PRED.jsonl")]
    out: Option<PathBuf>,
    /// Also write a self-contained HTML report (as `bench --html`).
    #[arg(long, value_name = "REPORT.html")]
    html: Option<PathBuf>,
    /// Print one JSON object (as `bench --json`).
    #[arg(long)]
    json: bool,
    /// The shards' prediction files (`bench --shard K/N --out ...`).
    #[arg(value_name = "PRED.jsonl", required = true)]
    predictions: Vec<PathBuf>,
}

/// Where an id's prediction was found, for messages.
struct Found {
    file: usize,
    line: usize,
    outcome: Outcome,
    /// The prediction says `"verdict": "equivalent"` (bench writes it for offline metrics).
    shown: bool,
}

pub fn run(args: Args, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<Status> {
    super::check_metric_names(std::slice::from_ref(&args.metric))?;
    let pairs = dataset::read_pairs(&args.dataset)?;
    let mut found: HashMap<String, Found> = HashMap::new();
    for (file_index, path) in args.predictions.iter().enumerate() {
        read_predictions(path, file_index, &args.predictions, &mut found)?;
    }
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
            let (outcome, shown) = found.remove(&p.id).map_or_else(
                || (Outcome::Failed("BUG: checked above".into()), false),
                |f| (f.outcome, f.shown),
            );
            bench::Judged {
                // A Lean metric's verdict follows from its prediction, as in `bench`.
                shown_equivalent: shown
                    || predictions::lean_shown_equivalent(&args.metric, &outcome),
                outcome,
                unparsed: 0,
            }
        })
        .collect();
    bench::report(
        &args.dataset,
        &args.metric,
        false,
        &pairs,
        &outcomes,
        args.out.as_deref(),
        args.html.as_deref(),
        0.0,
        args.json,
        out,
        err,
    )
}

/// Read one shard's predictions into `found`. Within a file a later line replaces an earlier one
/// for the same id (a resumed run appends its retries); the same id in two files is an error.
fn read_predictions(
    path: &Path,
    file_index: usize,
    files: &[PathBuf],
    found: &mut HashMap<String, Found>,
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
                    },
                );
            }
        }
    }
    Ok(())
}
