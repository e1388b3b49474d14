//! `lean-assess score [--metric M[,M...]] [--json] [--lean-project DIR [--server-command CMD]
//! [--config FILE]] REF CAND`: judge one candidate against one reference with one or more
//! metrics.
//!
//! Owns resolving the two inputs (`FILE.lean`, `FILE.lean::NAME`, `--ref-text`, `--cand-text`),
//! building the metrics and formatting their reports (with `transted`'s proof path as a
//! standalone `example`). The metrics that need Lean run through a spawned server with
//! `--lean-project`, exactly as `bench` runs them (`super::bench_lean`); without it each is
//! reported as needing Lean (no placeholder score) and makes the exit status 1. An unknown name
//! is a usage error.

use super::bench_lean;
use super::statement::{self, Loaded};
use super::Status;
use crate::metrics::{self, Metric, MetricError, MetricReport, Pair, Verdict, LEAN_METRICS};
use anyhow::{bail, Context};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Metrics to run, comma-separated: ted, path, transted-lite (offline); transted, beq, beq+,
    /// beq+grind, defeq (need Lean).
    #[arg(long, value_delimiter = ',', default_value = "ted")]
    metric: Vec<String>,
    /// `ted` with GTED's free renaming of bound variables and hypotheses (rename between two
    /// flagged nodes costs 0) instead of unit costs.
    #[arg(long)]
    free_cost: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// The reference statement as text instead of a file.
    #[arg(long, value_name = "STATEMENT")]
    ref_text: Option<String>,
    /// The candidate statement as text instead of a file.
    #[arg(long, value_name = "STATEMENT")]
    cand_text: Option<String>,
    /// A Lake project whose toolchain and imports fit the statements: runs transted, beq and
    /// defeq through a Lean server started there (as `bench --lean-project`).
    #[arg(long, value_name = "DIR")]
    lean_project: Option<PathBuf>,
    /// With --lean-project: the server command, split on whitespace (default: env
    /// `LEAN_ASSESS_SERVER`, else `lake serve --`).
    #[arg(long, value_name = "COMMAND")]
    server_command: Option<String>,
    /// With --lean-project: the config file for `[metrics] transted_timeout_ms` /
    /// `beq_timeout_ms` and BEq's `[llm]` (default: lean-assess.toml in the --lean-project
    /// directory, when present).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// REF then CAND: `FILE.lean` (its first theorem) or `FILE.lean::NAME` (as many as are not
    /// given with --ref-text / --cand-text).
    #[arg(value_name = "FILE.lean[::NAME]")]
    inputs: Vec<String>,
}

/// One metric's result: its report and, for `transted`, the proof path (a standalone `example`).
struct Scored<'a> {
    name: &'a str,
    result: Result<MetricReport, MetricError>,
    proof: Option<String>,
}

/// Build a metric by contract name; `free_cost` picks GTED's free renaming for `ted`.
pub(super) fn metric(name: &str, free_cost: bool) -> Result<Box<dyn Metric>, MetricError> {
    match name {
        "ted" if free_cost => Ok(Box::new(metrics::ted::Ted::free_cost())),
        _ => metrics::by_name(name),
    }
}

/// Reject unknown metric names up front: a typo is a usage error, not a failed pair.
pub(super) fn check_names(names: &[String]) -> anyhow::Result<()> {
    for name in names {
        if let Err(e @ MetricError::Unknown(_)) = metrics::by_name(name) {
            bail!("--metric: {e}");
        }
    }
    Ok(())
}

pub fn run(args: Args, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<Status> {
    check_names(&args.metric)?;
    if let Some(dir) = &args.lean_project {
        if !dir.is_dir() {
            bail!("--lean-project {}: not a directory", dir.display());
        }
    }
    let lean_names: Vec<&'static str> = LEAN_METRICS
        .iter()
        .copied()
        .filter(|m| args.metric.iter().any(|n| n == m))
        .collect();
    // Read the config before the inputs' work starts: a broken file fails fast.
    let settings = match &args.lean_project {
        Some(dir) if !lean_names.is_empty() => {
            let config = bench_lean::load_config(args.config.as_deref(), Some(dir))?;
            Some(bench_lean::LeanSettings::new(config.as_ref(), &lean_names)?)
        }
        _ => {
            if args.config.is_some() {
                bench_lean::load_config(args.config.as_deref(), None)?;
            }
            None
        }
    };
    let mut files = args.inputs.iter();
    let reference = match &args.ref_text {
        Some(text) => statement::from_literal("--ref-text", text)?,
        None => match files.next() {
            Some(spec) => statement::from_spec(spec)?,
            None => bail!("missing the reference: give REF CAND, or --ref-text"),
        },
    };
    let candidate = match &args.cand_text {
        Some(text) => statement::from_literal("--cand-text", text)?,
        None => match files.next() {
            Some(spec) => statement::from_spec(spec)?,
            None => bail!("missing the candidate: give REF CAND, or --cand-text"),
        },
    };
    if let Some(extra) = files.next() {
        bail!("unexpected extra input '{extra}' (give exactly one reference and one candidate)");
    }
    statement::note_unparsed(&reference, err)?;
    statement::note_unparsed(&candidate, err)?;
    let pair = Pair {
        reference: &reference.statement,
        candidate: &candidate.statement,
        reference_header: &reference.header,
        candidate_header: &candidate.header,
    };
    // The Lean metrics first, all through one server (each asked once, in the order given).
    let mut lean_results: Vec<(&str, Result<bench_lean::Judged, String>)> = Vec::new();
    if let (Some(project), Some(settings)) = (&args.lean_project, &settings) {
        let judged = bench_lean::judge_pair(
            project,
            args.server_command.as_deref(),
            settings,
            &lean_names,
            &pair,
        )?;
        lean_results = lean_names.iter().copied().zip(judged).collect();
    }
    let results: Vec<Scored<'_>> = args
        .metric
        .iter()
        .map(|name| {
            let lean = lean_results.iter().find(|(n, _)| n == name);
            let (result, proof) = match lean.map(|(_, r)| r) {
                Some(Ok(judged)) => (Ok(judged.report.clone()), judged.proof.clone()),
                Some(Err(e)) => (Err(MetricError::Failed(e.clone())), None),
                None => (
                    metric(name, args.free_cost).and_then(|m| m.judge(&pair)),
                    None,
                ),
            };
            Scored {
                name: name.as_str(),
                result,
                proof,
            }
        })
        .collect();
    let status = if results.iter().all(|r| r.result.is_ok()) {
        Status::Success
    } else {
        Status::SomeFailed
    };
    if args.json {
        write_json(&reference, &candidate, &results, out)?;
    } else {
        write_text(&reference, &candidate, &results, out)?;
    }
    Ok(status)
}

fn write_text(
    reference: &Loaded,
    candidate: &Loaded,
    results: &[Scored<'_>],
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(out, "reference: {}", reference.origin)?;
    writeln!(out, "candidate: {}", candidate.origin)?;
    for Scored {
        name,
        result,
        proof,
    } in results
    {
        match result {
            Ok(report) => {
                let verdict = match report.verdict {
                    Verdict::Score(s) => format!("{s:.4}"),
                    Verdict::Equivalent(true) => "equivalent".to_string(),
                    Verdict::Equivalent(false) => "not equivalent".to_string(),
                };
                let mut line = format!("{name:<14}{verdict}");
                if let Some(d) = report.distance {
                    line.push_str(&format!(
                        "  (distance {d}, tree sizes {} / {})",
                        report.reference_size, report.candidate_size
                    ));
                }
                writeln!(out, "{line}")?;
                for step in &report.path {
                    writeln!(
                        out,
                        "{:14}  {} on {} at {}",
                        "", step.rule, step.side, step.at
                    )?;
                }
                for note in &report.notes {
                    writeln!(out, "{:14}  note: {note}", "")?;
                }
                if let Some(proof) = proof {
                    writeln!(out, "{:14}  proof path:", "")?;
                    for line in proof.lines() {
                        writeln!(out, "{:14}    {line}", "")?;
                    }
                }
            }
            Err(e) => writeln!(out, "{name:<14}not scored: {e}")?,
        }
    }
    Ok(())
}

fn write_json(
    reference: &Loaded,
    candidate: &Loaded,
    results: &[Scored<'_>],
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let metrics: Vec<serde_json::Value> = results
        .iter()
        .map(
            |Scored {
                 name,
                 result,
                 proof,
             }| match result {
                Ok(report) => {
                    let mut object = json!({ "metric": name });
                    match report.verdict {
                        Verdict::Score(s) => object["score"] = json!(s),
                        Verdict::Equivalent(b) => object["equivalent"] = json!(b),
                    }
                    object["distance"] = json!(report.distance);
                    object["reference_size"] = json!(report.reference_size);
                    object["candidate_size"] = json!(report.candidate_size);
                    object["path"] = report
                        .path
                        .iter()
                        .map(|s| json!({"rule": s.rule, "side": s.side, "at": s.at}))
                        .collect();
                    object["notes"] = json!(report.notes);
                    object["seconds"] = json!(report.elapsed.as_secs_f64());
                    if let Some(proof) = proof {
                        object["proof_path"] = json!(proof);
                    }
                    object
                }
                Err(e) => json!({ "metric": name, "error": e.to_string() }),
            },
        )
        .collect();
    let object = json!({
        "reference": reference.origin,
        "candidate": candidate.origin,
        "metrics": metrics,
    });
    let text = serde_json::to_string_pretty(&object).context("BUG: JSON values serialize")?;
    writeln!(out, "{text}")?;
    Ok(())
}
