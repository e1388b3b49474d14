//! `lean-assess score [--metric M[,M...]] [--json] [--lean-project DIR [--server-command CMD]
//! [--config FILE]] REF CAND`: judge one candidate against one reference with one or more
//! metrics.
//!
//! Owns resolving the two inputs (`FILE.lean`, `FILE.lean::NAME`, `--ref-text`, `--cand-text`),
//! building the metrics and formatting their reports (with `transted`'s proof path as a
//! standalone `example`). The metrics that need Lean run through a spawned server with
//! `--lean-project`, exactly as `bench` runs them (`crate::lean::batch`); without it each is
//! reported as needing Lean (no placeholder score) and makes the exit status 1. An unknown name
//! is a usage error.

use super::statement::{self, Loaded};
use super::Status;
use super::{check_metric_names, cost_model};
use crate::lean::batch;
use crate::metrics::registry::{self, CostModel};
use crate::metrics::{self, EquivalenceVerdict, MetricError, MetricReport, Pair, Verdict};
use anyhow::{bail, Context};
use serde_json::json;
use std::io::Write;

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
    /// REF then CAND: `FILE.lean` (its one theorem) or `FILE.lean::NAME` (as many as are not
    /// given with --ref-text / --cand-text).
    #[arg(value_name = "FILE.lean[::NAME]")]
    inputs: Vec<String>,
    #[command(flatten)]
    lean: super::lean_options::LeanOptions,
}

/// One metric's result: its report and, for `transted`, the proof path (a standalone `example`).
struct Scored<'a> {
    name: &'a str,
    result: Result<MetricReport, MetricError>,
    proof: Option<String>,
}

/// One metric's result for the pair: the Lean layer's judgement when it ran the metric, else the
/// offline metric's; with `transted`'s proof path when there is one.
pub(super) fn result_of(
    name: &str,
    lean_results: &[(&str, Result<batch::Judged, String>)],
    pair: &Pair<'_>,
    cost: CostModel,
) -> (Result<MetricReport, MetricError>, Option<String>) {
    match lean_results.iter().find(|(n, _)| *n == name).map(|(_, r)| r) {
        Some(Ok(judged)) => (Ok(judged.report.clone()), judged.proof.clone()),
        Some(Err(e)) => (Err(MetricError::Failed(e.clone())), None),
        None => (registry::build(name, cost).and_then(|m| m.judge(pair)), None),
    }
}

pub fn run(args: Args, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<Status> {
    check_metric_names(&args.metric)?;
    if args.free_cost {
        // `ted`'s alone: refused when no metric asked for takes it, said when some do not.
        let names: Vec<&str> = args.metric.iter().map(String::as_str).collect();
        super::bench::check_free_cost(&names)?;
        let others: Vec<String> =
            names.iter().filter(|m| **m != "ted").map(|m| format!("`{m}`")).collect();
        if !others.is_empty() {
            writeln!(
                err,
                "lean-assess: note: --free-cost applies to `ted` only; {} keep their own cost model",
                others.join(", ")
            )?;
        }
    }
    if let Some(dir) = &args.lean.lean_project {
        if !dir.is_dir() {
            bail!("--lean-project {}: not a directory", dir.display());
        }
    }
    let lean_names: Vec<&'static str> =
        registry::lean_names().filter(|m| args.metric.iter().any(|n| n == m)).collect();
    // Read the config before the inputs' work starts: a broken file fails fast.
    let settings = match &args.lean.lean_project {
        Some(dir) if !lean_names.is_empty() => {
            let config = batch::load_config(args.lean.config.as_deref(), Some(dir))?;
            Some(batch::LeanSettings::new(config.as_ref(), &lean_names)?)
        }
        _ => {
            if args.lean.config.is_some() {
                batch::load_config(args.lean.config.as_deref(), None)?;
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
    let mut lean_results: Vec<(&str, Result<batch::Judged, String>)> = Vec::new();
    if let (Some(project), Some(settings)) = (&args.lean.lean_project, &settings) {
        let judged = batch::judge_pair(
            project,
            args.lean.server_command.as_deref(),
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
            let (result, proof) = result_of(name, &lean_results, &pair, cost_model(args.free_cost));
            Scored { name: name.as_str(), result, proof }
        })
        .collect();
    let status =
        if results.iter().all(|r| r.result.is_ok()) { Status::Success } else { Status::SomeFailed };
    if args.json {
        write_json(&reference, &candidate, &results, out)?;
    } else {
        write_text(&reference, &candidate, &results, args.free_cost, out)?;
    }
    Ok(status)
}

/// Width of the metric-name column in the text output.
const NAME_COLUMN: usize = 14;

/// How many differences the text and JSON list (as the editor's hover).
const MAX_DIFFERENCES: usize = 12;

/// The differences between the two statements, in Lean-like text: the optimal TED mapping with
/// free renaming of bound names, read part by part (the same list the editor's hover shows).
pub(super) fn differences(reference: &Loaded, candidate: &Loaded) -> Vec<String> {
    crate::differences::between(&reference.statement, &candidate.statement, MAX_DIFFERENCES)
        .into_iter()
        .map(|d| d.message)
        .collect()
}

/// A metric's distance with the cost model behind it, named for the reader: `TED 8, unit cost`.
fn distance_text(name: &str, d: u32, free_cost: bool) -> String {
    match name {
        "ted" if free_cost => format!("TED {d}, free renaming of bound names"),
        "ted" => format!("TED {d}, unit cost"),
        "transted-lite" => format!("TED {d} after the rewrites, free renaming"),
        "transted" => format!("TED {d} after Lean's tactics"),
        _ => format!("distance {d}"),
    }
}

/// Notes worth a reader's time in the text output. `path`'s per-path matching notes quote the
/// metric's internal path labels (`[not, _ ≤ _, 0]`): they stay in `--json`.
fn readable_note(metric: &str, note: &str) -> bool {
    !(metric == "path" && (note.starts_with("weak ") || note.starts_with("AND matching")))
}

fn write_text(
    reference: &Loaded,
    candidate: &Loaded,
    results: &[Scored<'_>],
    free_cost: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let pair = pair_of(reference, candidate);
    writeln!(out, "reference: {}", reference.origin)?;
    writeln!(out, "candidate: {}", candidate.origin)?;
    let pad = " ".repeat(NAME_COLUMN + 2);
    let mut any_equivalent = false;
    let mut any_judged = false;
    for Scored { name, result, proof } in results {
        match result {
            Ok(report) => {
                any_judged = true;
                let verdict = metrics::equivalence(report, &pair);
                any_equivalent |= verdict.is_equivalent();
                let mut line = format!("{name:<NAME_COLUMN$}{:<11}", verdict.as_str());
                if let Verdict::Score(s) = report.verdict {
                    line.push_str(&format!(" similarity {s:.4}"));
                    if let Some(d) = report.distance {
                        line.push_str(&format!(
                            " ({}; tree sizes {} / {})",
                            distance_text(name, d, free_cost),
                            report.reference_size,
                            report.candidate_size
                        ));
                    }
                }
                writeln!(out, "{}", line.trim_end())?;
                if let EquivalenceVerdict::Equivalent { evidence } = &verdict {
                    writeln!(out, "{pad}evidence: {evidence}")?;
                }
                for (k, step) in report.path.iter().enumerate() {
                    let at = match step.readable_at() {
                        Some(at) => format!(", at {at}"),
                        None => String::new(),
                    };
                    writeln!(out, "{pad}{}. {} on the {}{at}", k + 1, step.rule, step.side)?;
                }
                for note in report.notes.iter().filter(|n| readable_note(name, n)) {
                    writeln!(out, "{pad}note: {note}")?;
                }
                if let Some(proof) = proof {
                    writeln!(out, "{pad}proof path:")?;
                    for line in proof.lines() {
                        writeln!(out, "{pad}  {line}")?;
                    }
                }
            }
            Err(e) => writeln!(out, "{name:<NAME_COLUMN$}not scored: {e}")?,
        }
    }
    if any_judged && !any_equivalent {
        let diffs = differences(reference, candidate);
        if diffs.is_empty() {
            let any_notes = results.iter().any(|r| {
                r.result.as_ref().is_ok_and(|m| m.notes.iter().any(|n| readable_note(r.name, n)))
            });
            writeln!(out, "{}", same_trees_message(&pair, any_notes))?;
        } else {
            writeln!(out, "What still differs (candidate against reference):")?;
            for d in diffs {
                writeln!(out, "  - {d}")?;
            }
        }
    }
    Ok(())
}

/// Why no metric showed two statements equivalent whose operator trees read the same (no
/// difference listed): the names the headers give them, else the metrics' notes when there are
/// any, else that nothing run here is evidence (a many-to-one renaming reads as the same tree).
fn same_trees_message(pair: &Pair<'_>, any_notes: bool) -> String {
    let lead = "The two operator trees are the same up to the names of bound variables";
    let names = metrics::PairNames::read(pair);
    // Names written alike that the two headers read differently (`sqrt`: Real.sqrt, Nat.sqrt).
    let (ours, theirs) = (&names.resolved.0.resolved, &names.resolved.1.resolved);
    let mut read_apart: Vec<String> = ours
        .iter()
        .filter_map(|(written, read)| {
            let (_, other) = theirs.iter().find(|(w, r)| w == written && r != read)?;
            Some(format!("`{written}` is {read} in the reference and {other} in the candidate"))
        })
        .collect();
    read_apart.dedup();
    let unclear = names.differences();
    if !read_apart.is_empty() {
        format!("{lead}, but their headers read the names differently: {}.", read_apart.join("; "))
    } else if !unclear.is_empty() {
        format!(
            "{lead}, but the names in them may not mean the same under the two headers: {}.",
            unclear.join("; ")
        )
    } else if any_notes {
        format!("{lead}, but nothing here proves the statements equivalent: see the notes above.")
    } else {
        format!(
            "{lead}, but no metric run here shows the statements equivalent (the bound names do \
             not correspond one to one, or a Lean metric did not prove it)."
        )
    }
}

fn pair_of<'a>(reference: &'a Loaded, candidate: &'a Loaded) -> Pair<'a> {
    Pair {
        reference: &reference.statement,
        candidate: &candidate.statement,
        reference_header: &reference.header,
        candidate_header: &candidate.header,
    }
}

fn write_json(
    reference: &Loaded,
    candidate: &Loaded,
    results: &[Scored<'_>],
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let pair = pair_of(reference, candidate);
    let mut any_equivalent = false;
    let metrics: Vec<serde_json::Value> = results
        .iter()
        .map(|Scored { name, result, proof }| match result {
            Ok(report) => {
                let object = metric_json(name, report, &pair, proof.as_deref());
                any_equivalent |= object["verdict"] == "equivalent";
                object
            }
            // A failure is never a verdict: the contract's "error", with the reason.
            Err(e) => metric_error_json(name, e),
        })
        .collect();
    let mut object = json!({
        "reference": reference.origin,
        "candidate": candidate.origin,
        "metrics": metrics,
    });
    if !any_equivalent {
        object["differences"] = json!(differences(reference, candidate));
    }
    let text = serde_json::to_string_pretty(&object).context("BUG: JSON values serialize")?;
    writeln!(out, "{text}")?;
    Ok(())
}

/// One metric's result as JSON (`score --json`, and the MCP tool `compare_statements`): the
/// verdict first (`metrics::equivalence`: "equivalent" only with evidence), then the figures.
pub(super) fn metric_json(
    name: &str,
    report: &MetricReport,
    pair: &Pair<'_>,
    proof: Option<&str>,
) -> serde_json::Value {
    let verdict = metrics::equivalence(report, pair);
    let mut object = json!({ "metric": name, "verdict": verdict.as_str() });
    if let EquivalenceVerdict::Equivalent { evidence } = &verdict {
        object["evidence"] = json!(evidence);
    }
    match report.verdict {
        Verdict::Score(s) => object["score"] = json!(s),
        Verdict::Equivalent(b) => object["equivalent"] = json!(b),
    }
    object["distance"] = json!(report.distance);
    object["reference_size"] = json!(report.reference_size);
    object["candidate_size"] = json!(report.candidate_size);
    // `rewrites`, not `path`: `path` is a metric's name.
    object["rewrites"] =
        report.path.iter().map(|s| json!({"rule": s.rule, "side": s.side, "at": s.at})).collect();
    object["notes"] = json!(report.notes);
    object["seconds"] = json!(report.elapsed.as_secs_f64());
    if let Some(proof) = proof {
        object["proof_path"] = json!(proof);
    }
    object
}

/// A metric that failed: never a verdict, the contract's "error" with the reason.
pub(super) fn metric_error_json(name: &str, e: &MetricError) -> serde_json::Value {
    json!({ "metric": name, "verdict": "error", "error": e.to_string() })
}

#[cfg(test)]
mod tests {
    /// `lean-assess ARGS` in-process: (stdout, stderr).
    fn score(args: &[&str]) -> (String, String) {
        let argv = std::iter::once("lean-assess").chain(args.iter().copied()).map(Into::into);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        super::super::run(argv, &mut out, &mut err).expect("the command runs");
        (String::from_utf8(out).expect("UTF-8"), String::from_utf8(err).expect("UTF-8"))
    }

    fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write a fixture");
        path.display().to_string()
    }

    #[test]
    fn same_trees_under_different_headers_name_the_headers_not_missing_notes() {
        // `sqrt` is Real.sqrt under one header and Nat.sqrt under the other: ted (no notes) sees
        // the same tree; the message says why that is not equivalence, and points at no notes.
        let dir = tempfile::tempdir().expect("dir");
        let r = write(dir.path(), "r.lean", "open Real\ntheorem a (x : ℝ) : sqrt x = x\n");
        let c = write(dir.path(), "c.lean", "open Nat\ntheorem b (y : ℝ) : sqrt y = y\n");
        let (out, _) = score(&["score", &r, &c]);
        assert!(out.contains("ted           not shown"), "{out}");
        assert!(!out.contains("note:") && !out.contains("see the notes"), "{out}");
        assert!(
            out.contains(
                "The two operator trees are the same up to the names of bound variables, but \
                 their headers read the names differently: `sqrt` is Real.sqrt in the reference \
                 and Nat.sqrt in the candidate."
            ),
            "{out}"
        );
        // With a metric that has notes, the notes are pointed at (they are above).
        let (out, _) = score(&["score", "--metric", "transted-lite", &r, &c]);
        assert!(out.contains("note: "), "{out}");
    }

    #[test]
    fn json_calls_the_rewrite_steps_rewrites_not_path() {
        let (out, _) = score(&[
            "score",
            "--json",
            "--metric",
            "transted-lite,path",
            "--ref-text",
            "theorem a (n : ℕ) (h : 0 < n) : 1 ≤ n",
            "--cand-text",
            "theorem b (n : ℕ) (h : n > 0) : n ≥ 1",
        ]);
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let lite = &v["metrics"][0];
        assert_eq!(lite["metric"], "transted-lite");
        let steps = lite["rewrites"].as_array().expect("rewrites");
        assert!(steps.iter().any(|s| s["rule"] == "gt_iff_lt"), "{lite}");
        for m in v["metrics"].as_array().expect("metrics") {
            assert!(m.get("path").is_none(), "{m}");
        }
        assert_eq!(v["metrics"][1]["metric"], "path");
    }

    #[test]
    fn the_help_of_score_and_bench_names_every_registered_metric() {
        for command in ["score", "bench"] {
            let (out, _) = score(&[command, "--help"]);
            for name in crate::metrics::registry::names() {
                let listed = out
                    .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
                    .any(|w| w == name);
                assert!(listed, "`{command} --help` does not name the metric {name}:\n{out}");
            }
        }
    }
}
