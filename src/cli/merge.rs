//! Batch runs beyond one machine: `bench --shard K/N` picks a stable part of a dataset, and
//! `lean-assess merge --dataset DATASET.jsonl PRED.jsonl...` joins the shards' predictions and
//! scores the union exactly as one `bench` run would.
//!
//! Owns the shard split (a hash of the pair id, so the split does not depend on the dataset's
//! order, the machine or the run) and the merge checks (an id judged in two files, an id of the
//! dataset judged nowhere, an id not in the dataset). Scoring and printing are `bench`'s
//! ([`super::bench::report`]); reading prediction lines follows `bench_lean::read_done`'s format.

use super::bench::{self, Outcome};
use super::Status;
use crate::dataset::{self, DatasetPair};
use crate::metrics::Verdict;
use anyhow::{bail, Context};
use serde_json::Value;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// `K/N` with 1 ≤ K ≤ N (clap value parser).
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("'{text}': expected K/N with 1 <= K <= N (e.g. 2/4)");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let index: u64 = k.trim().parse().map_err(|_| bad())?;
    let count: u64 = n.trim().parse().map_err(|_| bad())?;
    if count == 0 || index == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// FNV-1a (64 bit) of the id's UTF-8 bytes: fixed by its published constants, so every machine
/// and every version of this program splits a dataset the same way (std's hasher is not stable).
fn id_hash(id: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in id.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The shard (1-based) a pair id belongs to among `count`.
pub fn shard_of(id: &str, count: u64) -> u64 {
    id_hash(id) % count.max(1) + 1
}

/// The pairs of `shard` (all of them without one), in dataset order.
pub fn select_shard(pairs: Vec<DatasetPair>, shard: Option<Shard>) -> Vec<DatasetPair> {
    match shard {
        None => pairs,
        Some(s) => pairs
            .into_iter()
            .filter(|p| shard_of(&p.id, s.count) == s.index)
            .collect(),
    }
}

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
    super::score::check_names(std::slice::from_ref(&args.metric))?;
    let pairs = dataset::read_pairs(&args.dataset)?;
    let mut found: HashMap<String, Found> = HashMap::new();
    for (file_index, path) in args.predictions.iter().enumerate() {
        read_predictions(path, file_index, &args.predictions, &mut found)?;
    }
    let known: HashMap<&str, &DatasetPair> = pairs.iter().map(|p| (p.id.as_str(), p)).collect();
    let mut strangers: Vec<&Found> = found
        .iter()
        .filter(|(id, _)| !known.contains_key(id.as_str()))
        .map(|(_, f)| f)
        .collect();
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
    let missing: Vec<&str> = pairs
        .iter()
        .filter(|p| !found.contains_key(&p.id))
        .map(|p| p.id.as_str())
        .collect();
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
                shown_equivalent: shown || bench::lean_shown_equivalent(&args.metric, &outcome),
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
        if line.trim().is_empty() {
            continue;
        }
        let at = || format!("{}:{}", path.display(), n + 1);
        let value: Value = serde_json::from_str(line)
            .with_context(|| format!("{}: not a JSON prediction", at()))?;
        let Some(id) = value.get("id").and_then(Value::as_str) else {
            bail!("{}: prediction without a string id", at());
        };
        let outcome = if let Some(s) = value.get("score").and_then(Value::as_f64) {
            Outcome::Judged(Verdict::Score(s))
        } else if let Some(e) = value.get("equivalent").and_then(Value::as_bool) {
            Outcome::Judged(Verdict::Equivalent(e))
        } else if let Some(m) = value.get("error").and_then(Value::as_str) {
            Outcome::Failed(m.to_string())
        } else {
            bail!(
                "{}: prediction without \"score\", \"equivalent\" or \"error\"",
                at()
            );
        };
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
                        shown: value.get("verdict").and_then(Value::as_str) == Some("equivalent"),
                    },
                );
            }
        }
    }
    Ok(())
}

/// `bench --html` / `merge --html`: hand the judged pairs to `report`.
#[allow(clippy::too_many_arguments)]
pub(super) fn write_html(
    path: &Path,
    dataset: &str,
    metric: &str,
    seconds: f64,
    pairs: &[DatasetPair],
    outcomes: &[(&Outcome, usize)],
    evaluation: Option<&crate::evaluation::Evaluation>,
    decisions: Option<&crate::evaluation::Stats>,
) -> anyhow::Result<()> {
    use crate::report::{self, PairResult};
    let results = outcomes
        .iter()
        .map(|(o, _)| match *o {
            Outcome::Judged(Verdict::Score(s)) => PairResult::Score(*s),
            Outcome::Judged(Verdict::Equivalent(e)) => PairResult::Equivalent(*e),
            Outcome::Failed(m) => PairResult::Error(m),
        })
        .collect();
    let page = report::render(&report::Report {
        dataset,
        metric,
        seconds,
        pairs,
        results,
        evaluation,
        decisions,
    });
    std::fs::write(path, page).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parsing_accepts_k_of_n_and_names_what_is_wrong() {
        assert_eq!(parse_shard("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "x/2", "3", ""] {
            let e = parse_shard(bad).unwrap_err();
            assert!(e.contains("expected K/N"), "{bad}: {e}");
        }
    }

    /// 0xaf63dc4c8601ec8c mod 3, plus one.
    const SHARD_A_OF_3: u64 = 2;

    #[test]
    fn the_split_is_fixed_by_the_id_alone() {
        // FNV-1a's published test vector: the hash, hence the split, is the same everywhere.
        assert_eq!(id_hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!((shard_of("a", 4), shard_of("a", 3)), (1, SHARD_A_OF_3));
        // Every id lands in exactly one shard in 1..=N.
        for id in ["x", "minif2f/1", "ünïcode", ""] {
            let s = shard_of(id, 7);
            assert!((1..=7).contains(&s), "{id}: {s}");
        }
    }
}
