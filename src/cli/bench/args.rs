//! `bench`'s command-line arguments: the flags and their help, the dataset field names
//! (shared with `merge`), and parsing them without the CLI (the Python binding).
//!
//! Owns the raw arguments only: what they mean for a run is checked where the run starts
//! (`bench`'s `run_bench`), never here.

use crate::dataset::{self, FieldChoice};
use std::path::PathBuf;

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
    pub lean: crate::cli::lean_options::LeanOptions,
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
