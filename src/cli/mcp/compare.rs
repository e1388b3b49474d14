//! The judging tools: `compare_statements` (one candidate, the offline metrics and, on a server
//! with `--lean-project`, the Lean ones with progress steps and a stop on cancel or timeout)
//! and `compare_many` (up to [`MAX_CANDIDATES`] candidates, offline metrics, the best one).
//!
//! Owns turning a call into `score`'s library calls and their results into the tool's answer;
//! the per-metric objects are `score --json`'s (`cli::score`).

use super::arguments::{free_cost_arg, load, metric_names, string_arg};
use super::tools::MAX_CANDIDATES;
use super::tree::unparsed;
use super::worker::CallContext;
use super::Server;
use crate::cli::cost_model;
use crate::cli::statement::Loaded;
use crate::lean::batch;
use crate::metrics::registry;
use crate::metrics::{MetricError, Pair};
use anyhow::{bail, Context};
use rmcp::model::JsonObject;
use serde_json::{json, Value};

/// A metric's failure, phrased for an agent: what the server can do, not what a shell user
/// would type.
fn metric_error(name: &str, error: &MetricError) -> Value {
    match error {
        MetricError::NeedsLean(metric) => json!({
            "metric": name,
            "verdict": "error",
            "error": format!(
                "metric '{metric}' needs a Lean server, and this MCP server was started without \
                 one: it runs the Lean metrics only when started as `lean-assess mcp \
                 --lean-project DIR` (DIR a Lake project with Mathlib); the offline metrics \
                 ({}) answer without it",
                registry::METRICS
                    .iter()
                    .filter(|m| !m.needs_lean)
                    .map(|m| m.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
        other => crate::cli::score::metric_error_json(name, other),
    }
}

/// Judge one candidate against the reference with `names` (the Lean ones in `lean_results`,
/// already run): the per-metric objects of `score --json`, the pair's verdict, and what still
/// differs unless a metric showed the two equivalent.
fn comparison(
    reference: &Loaded,
    candidate: &Loaded,
    names: &[String],
    lean_results: &[(&str, Result<batch::Judged, String>)],
    free_cost: bool,
) -> Value {
    let pair = Pair {
        reference: &reference.statement,
        candidate: &candidate.statement,
        reference_header: &reference.header,
        candidate_header: &candidate.header,
    };
    let results: Vec<Value> = names
        .iter()
        .map(|name| {
            let (result, proof) =
                crate::cli::score::result_of(name, lean_results, &pair, cost_model(free_cost));
            match &result {
                Ok(report) => crate::cli::score::metric_json(name, report, &pair, proof.as_deref()),
                Err(e) => metric_error(name, e),
            }
        })
        .collect();
    // As `score --json`: what still differs, in the user's words, unless a metric showed the
    // two equivalent.
    let any_equivalent = results.iter().any(|m| m["verdict"] == "equivalent");
    let differences = if any_equivalent {
        Vec::new()
    } else {
        crate::cli::score::differences(reference, candidate)
    };
    json!({
        "reference": reference.origin,
        "candidate": candidate.origin,
        "verdict": if any_equivalent { "equivalent" } else { "not shown" },
        "metrics": results,
        "differences": differences,
        "unparsed": {"reference": unparsed(reference), "candidate": unparsed(candidate)},
    })
}

/// `compare_statements`: one candidate against the reference; the Lean metrics (on a server
/// with `--lean-project`) run first, with a progress step each and a stop on cancel or timeout.
pub(super) fn compare_statements(
    server: &Server,
    arguments: &JsonObject,
    context: &CallContext,
) -> anyhow::Result<Value> {
    let names = metric_names(arguments)?;
    let free_cost = free_cost_arg(arguments)?;
    let reference = load(server, "reference", string_arg(arguments, "reference")?)?;
    let candidate = load(server, "candidate", string_arg(arguments, "candidate")?)?;
    let pair = Pair {
        reference: &reference.statement,
        candidate: &candidate.statement,
        reference_header: &reference.header,
        candidate_header: &candidate.header,
    };
    let lean_names: Vec<&'static str> =
        registry::lean_names().filter(|m| names.iter().any(|n| n == m)).collect();
    let mut lean_results: Vec<(&str, Result<batch::Judged, String>)> = Vec::new();
    if let (Some(lean), false) = (&server.lean, lean_names.is_empty()) {
        // Steps: the server started, each Lean metric, then the offline rest.
        let total = lean_names.len() + 2;
        let judged = batch::judge_pair_until(
            &lean.project,
            lean.server_command.as_deref(),
            &lean.settings,
            &lean_names,
            &pair,
            context.stop(lean.call_timeout),
            &mut |k, step| {
                let message = match step {
                    batch::PairStep::Started => "Lean server started".to_string(),
                    batch::PairStep::Judged(metric) => format!("{metric} finished"),
                };
                context.step(k, total, message);
            },
        )?;
        context.step(total, total, "offline metrics and differences".into());
        lean_results = lean_names.iter().copied().zip(judged).collect();
    }
    Ok(comparison(&reference, &candidate, &names, &lean_results, free_cost))
}

/// `compare_many`: one reference, up to [`MAX_CANDIDATES`] candidates, offline metrics; a
/// progress step per candidate, and a cancel stops between candidates.
pub(super) fn compare_many(
    server: &Server,
    arguments: &JsonObject,
    context: &CallContext,
) -> anyhow::Result<Value> {
    let names = metric_names(arguments)?;
    if let Some(lean) = names.iter().find(|n| registry::needs_lean(n)) {
        bail!(
            "argument 'metrics': compare_many runs the offline metrics only ({lean} needs a Lean \
             server per call): call compare_statements once per candidate for {lean}"
        );
    }
    let free_cost = free_cost_arg(arguments)?;
    let candidates: Vec<&str> = match arguments.get("candidates") {
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().context("argument 'candidates': expected a list of statements"))
            .collect::<anyhow::Result<_>>()?,
        Some(_) => bail!("argument 'candidates': expected a list of statements"),
        None => bail!("missing argument 'candidates' (a list of statements)"),
    };
    if candidates.is_empty() {
        bail!("argument 'candidates': give at least one candidate");
    }
    if candidates.len() > MAX_CANDIDATES {
        bail!(
            "argument 'candidates': {} candidates, at most {MAX_CANDIDATES} per call; split them \
             over several compare_many calls",
            candidates.len()
        );
    }
    let reference = load(server, "reference", string_arg(arguments, "reference")?)?;
    let mut entries = Vec::with_capacity(candidates.len());
    // (shown equivalent, similarity of the first metric that scores) of the best so far.
    let mut best: Option<(usize, bool, f64)> = None;
    for (index, text) in candidates.iter().enumerate() {
        if *context.cancel.borrow() {
            bail!("cancelled by the client after {index} of {} candidates", candidates.len());
        }
        let label = format!("candidates[{index}]");
        let mut entry = match load(server, &label, text) {
            Ok(candidate) => comparison(&reference, &candidate, &names, &[], free_cost),
            Err(e) => json!({
                "candidate": label,
                "verdict": "error",
                "error": crate::cli::one_line(&e),
            }),
        };
        if let Value::Object(map) = &mut entry {
            map.remove("reference");
        }
        entry["index"] = json!(index);
        if entry["verdict"] != "error" {
            let shown = entry["verdict"] == "equivalent";
            let score = entry["metrics"]
                .as_array()
                .and_then(|ms| ms.iter().find_map(|m| m["score"].as_f64()))
                .unwrap_or(0.0);
            if best.is_none_or(|(_, s, b)| (shown, score) > (s, b)) {
                best = Some((index, shown, score));
            }
        }
        entries.push(entry);
        context.step(
            index + 1,
            candidates.len(),
            format!("candidate {} of {}", index + 1, candidates.len()),
        );
    }
    let shown = entries.iter().filter(|e| e["verdict"] == "equivalent").count();
    Ok(json!({
        "reference": reference.origin,
        "metrics": names,
        "candidates": entries,
        "shown_equivalent": shown,
        "best": best.map(|(i, _, _)| i),
    }))
}
