//! `lean-assess ted --pairs TREES.jsonl [--free-cost] [--json]`: tree edit distance and TED
//! similarity for each `{"id", "ref_tree", "cand_tree"}` line. Reading is `dataset`'s job, the
//! distance `distance`'s; this module formats one line per pair. A pair the engine refuses
//! (its table would pass `distance::MAX_TABLE_CELLS`) gets `{"id", "error"}` (an `error` column
//! in the table) and a warning naming the file and line; the others go on, and the exit status
//! is 1.

use super::Status;
use crate::dataset;
use crate::distance::{self, CostModel, Workspace};
use anyhow::Context;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// JSONL file of `{"id", "ref_tree", "cand_tree"}` lines (trees in the contract format).
    #[arg(long, value_name = "TREES.jsonl")]
    pairs: PathBuf,
    /// Renaming between two nodes both flagged `variable_freecost` (or both
    /// `hypothesis_freecost`) costs 0, as in GTED's published scores.
    #[arg(long)]
    free_cost: bool,
    /// One `{"id", "distance", "similarity"}` object per line instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct Line<'a> {
    id: &'a str,
    distance: u32,
    similarity: f64,
}

#[derive(serde::Serialize)]
struct Failed<'a> {
    id: &'a str,
    error: &'a str,
}

pub fn run(args: Args, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<Status> {
    let pairs = dataset::read_tree_pairs(&args.pairs)?;
    let costs = CostModel { free_rename: args.free_cost };
    if !args.json {
        writeln!(out, "id\tdistance\tsimilarity")?;
    }
    // One workspace for all pairs: its buffers are reused instead of allocated per pair.
    let mut workspace = Workspace::new();
    let mut status = Status::Success;
    for pair in &pairs {
        let d = match workspace.try_ted(&pair.ref_tree, &pair.cand_tree, costs, None) {
            Ok(d) => d,
            Err(e) => {
                let error = e.to_string();
                writeln!(
                    err,
                    "lean-assess: warning: {}:{}: {}: {error}",
                    args.pairs.display(),
                    pair.line,
                    pair.id
                )?;
                if args.json {
                    let json = serde_json::to_string(&Failed { id: &pair.id, error: &error })
                        .context("BUG: a line always serializes")?;
                    writeln!(out, "{json}")?;
                } else {
                    writeln!(out, "{}\terror: {error}", pair.id)?;
                }
                status = Status::SomeFailed;
                continue;
            }
        };
        let similarity = distance::similarity(d, pair.ref_tree.size(), pair.cand_tree.size());
        if args.json {
            let line = Line { id: &pair.id, distance: d, similarity };
            // Serialize to a string first: an io error inside serde_json would hide a broken pipe.
            let json = serde_json::to_string(&line).context("BUG: a line always serializes")?;
            writeln!(out, "{json}")?;
        } else {
            // Four decimals, as `score` prints: the exact f64 (`0.32499999999999996`) is noise to
            // a reader; `--json` keeps it.
            writeln!(out, "{}\t{d}\t{similarity:.4}", pair.id)?;
        }
    }
    Ok(status)
}
