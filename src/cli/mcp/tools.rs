//! The tool list an agent sees: each tool's name, description, input schema and output schema
//! (MCP 2025-06-18 `outputSchema`), the metric names from the registry (the Lean ones as this
//! server can or cannot run them), and the limits a call's arguments are held to.
//!
//! Owns what the tools declare only: checking a call against it is `arguments`', answering it
//! the tools' own modules'.

use crate::metrics::registry;
use rmcp::model::{JsonObject, Tool};
use serde_json::{json, Value};
use std::sync::Arc;

/// The tools, by name.
pub(super) const TOOLS: [&str; 5] =
    ["compare_statements", "compare_many", "operator_tree", "list_references", "check_integrity"];

/// The metrics `compare_statements` and `compare_many` run when the call names none: the
/// strongest offline one with its evidence-based verdict, then plain TED for the distance.
pub(super) const DEFAULT_METRICS: [&str; 2] = ["transted-lite", "ted"];

/// The most candidates one `compare_many` call judges (each may run a rewrite search).
pub(super) const MAX_CANDIDATES: usize = 64;

fn schema(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

/// The metric names for a tool description, from the registry: the offline ones, and the Lean
/// ones as this server can (or cannot) run them.
fn metrics_description(with_lean: bool) -> String {
    let offline: Vec<&str> =
        registry::METRICS.iter().filter(|m| !m.needs_lean).map(|m| m.name).collect();
    let lean: Vec<&str> = registry::lean_names().collect();
    let lean_part = if with_lean {
        format!("{} (Lean, enabled on this server)", lean.join(", "))
    } else {
        format!(
            "{} need Lean: this server was started without --lean-project DIR, so they are \
             unavailable here",
            lean.join(", ")
        )
    };
    format!(
        "Metrics to run (default {}): {} (offline); {lean_part}.",
        serde_json::to_string(&DEFAULT_METRICS).unwrap_or_default(),
        offline.join(", ")
    )
}

/// One metric's result, as `score --json` writes it (`score::metric_json`, `metric_error_json`).
fn metric_result_schema() -> Value {
    let names: Vec<&str> = registry::names().collect();
    json!({
        "type": "object",
        "required": ["metric", "verdict"],
        "properties": {
            "metric": {"type": "string", "enum": names},
            "verdict": {"type": "string", "enum": ["equivalent", "not shown", "error"],
                        "description": "'equivalent' only with evidence; 'error' when the \
                                        metric could not judge (see 'error')"},
            "evidence": {"type": "string"},
            "score": {"type": "number", "description": "similarity in [0, 1]"},
            "equivalent": {"type": "boolean", "description": "a Lean metric's decision"},
            "distance": {"type": ["integer", "null"]},
            "reference_size": {"type": "integer"},
            "candidate_size": {"type": "integer"},
            "rewrites": {"type": "array", "items": {
                "type": "object",
                "required": ["rule", "side", "at"],
                "properties": {"rule": {"type": "string"}, "side": {"type": "string"},
                               "at": {"type": "string"}}
            }},
            "notes": {"type": "array", "items": {"type": "string"}},
            "seconds": {"type": "number"},
            "proof_path": {"type": "string"},
            "error": {"type": "string"}
        }
    })
}

/// One comparison's result: `compare_statements`'s whole answer, one entry of `compare_many`'s.
fn comparison_schema() -> Value {
    let strings = json!({"type": "array", "items": {"type": "string"}});
    json!({
        "type": "object",
        "required": ["reference", "candidate", "verdict", "metrics", "differences", "unparsed"],
        "properties": {
            "reference": {"type": "string"},
            "candidate": {"type": "string"},
            "verdict": {"type": "string", "enum": ["equivalent", "not shown"],
                        "description": "'equivalent' when a metric showed it, with evidence"},
            "metrics": {"type": "array", "items": metric_result_schema()},
            "differences": strings,
            "unparsed": {"type": "object", "required": ["reference", "candidate"],
                         "properties": {"reference": strings, "candidate": strings}}
        }
    })
}

/// The tool list; the metric list names the Lean metrics only when they can run.
pub(super) fn tools(with_lean: bool) -> Vec<Tool> {
    let metrics = metrics_description(with_lean);
    let statement = |who: &str| {
        json!({
            "type": "string",
            "description": format!(
                "The {who}: Lean text (`theorem name ... : ...`, header lines such as \
                 `open Real` may come first), or `FILE.lean` / `FILE.lean::NAME` (a path \
                 ending in .lean, relative to the server's working directory)."
            )
        })
    };
    let free_cost = json!({
        "type": "boolean",
        "description": "ted with GTED's free renaming of bound variables."
    });
    let strings = json!({"type": "array", "items": {"type": "string"}});
    let finding = json!({"type": "object", "required": ["criterion"],
                         "properties": {"criterion": {"type": "string"}}});
    let mut many = comparison_schema();
    if let Some(required) = many["required"].as_array_mut() {
        required.retain(|r| r != "reference");
    }
    many["properties"]["index"] = json!({"type": "integer"});
    if let Some(required) = many["required"].as_array_mut() {
        required.push(json!("index"));
    }
    let failed_candidate = json!({
        "type": "object",
        "required": ["index", "candidate", "verdict", "error"],
        "properties": {"index": {"type": "integer"}, "candidate": {"type": "string"},
                       "verdict": {"const": "error"}, "error": {"type": "string"}}
    });
    vec![
        Tool::new(
            "compare_statements",
            "Judge a candidate Lean statement against a reference: per metric the verdict \
             ('equivalent' only with evidence: a sound rewrite path or a Lean proof; else 'not \
             shown') and the similarity score, the tree distance, the differences between \
             the two operator trees, and the rewrites the metric applied. By default \
             transted-lite (whose rewrites can show equivalence) and ted.",
            schema(json!({
                "type": "object",
                "properties": {
                    "reference": statement("reference"),
                    "candidate": statement("candidate"),
                    "metrics": {"type": "array", "items": {"type": "string"},
                                "description": metrics.clone()},
                    "free_cost": free_cost.clone()
                },
                "required": ["reference", "candidate"],
                "additionalProperties": false
            })),
        )
        .with_raw_output_schema(schema(comparison_schema())),
        Tool::new(
            "compare_many",
            format!(
                "Judge up to {MAX_CANDIDATES} candidates (say, k samples of a model) against one \
                 reference with the offline metrics: each candidate as compare_statements \
                 answers it, how many were shown equivalent, and the best one (the first shown \
                 equivalent, else the highest similarity of the first metric). A candidate \
                 that does not parse is an entry with 'error', not a failed call."
            ),
            schema(json!({
                "type": "object",
                "properties": {
                    "reference": statement("reference"),
                    "candidates": {"type": "array", "items": statement("candidate"),
                                   "minItems": 1, "maxItems": MAX_CANDIDATES},
                    "metrics": {"type": "array", "items": {"type": "string"},
                                "description": format!(
                                    "{} Lean metrics are not run here: call \
                                     compare_statements per candidate for them.",
                                    metrics_description(false).split(';').next().unwrap_or("")
                                )},
                    "free_cost": free_cost
                },
                "required": ["reference", "candidates"],
                "additionalProperties": false
            })),
        )
        .with_raw_output_schema(schema(json!({
            "type": "object",
            "required": ["reference", "metrics", "candidates", "shown_equivalent", "best"],
            "properties": {
                "reference": {"type": "string"},
                "metrics": strings.clone(),
                "candidates": {"type": "array", "items": {"oneOf": [many, failed_candidate]}},
                "shown_equivalent": {"type": "integer"},
                "best": {"type": ["integer", "null"],
                         "description": "index of the best candidate; null when none was judged"}
            }
        }))),
        Tool::new(
            "operator_tree",
            "The operator tree lean-assess reads from a statement (what the metrics compare).",
            schema(json!({
                "type": "object",
                "properties": {
                    "statement": statement("statement"),
                    "format": {"type": "string", "enum": ["text", "json"],
                               "description": "text (indented, default) or json"}
                },
                "required": ["statement"],
                "additionalProperties": false
            })),
        )
        .with_raw_output_schema(schema(json!({
            "type": "object",
            "required": ["statement", "tree", "unparsed"],
            "properties": {
                "statement": {"type": "string"},
                "tree": {"type": ["string", "object"],
                         "description": "indented text, or {label, children: [...]} nodes"},
                "unparsed": strings.clone()
            }
        }))),
        Tool::new(
            "check_integrity",
            "Did a proof keep its task's statement? (LeanCat's criteria, offline part): each \
             target (a theorem proved by `sorry` in the task, or those named) keeps its name and \
             statement up to renaming of bound names, the header keeps its imports, opens, \
             variables and definitions, and the solution adds no sorry, admit, axiom, unsafe, \
             native_decide or instance tricks. Every finding has file, line and criterion.",
            schema(json!({
                "type": "object",
                "properties": {
                    "task": {"type": "string", "description": "Path of the task .lean file."},
                    "solution": {"type": "string", "description": "Path of the solution .lean file."},
                    "theorems": {"type": "array", "items": {"type": "string"},
                                 "description": "Targets by name (default: every theorem proved by `sorry` in the task)."},
                    "allow_imports": {"type": "array", "items": {"type": "string"},
                                      "description": "Modules the solution may import beyond the task's."},
                    "allow_native_decide": {"type": "boolean"}
                },
                "required": ["task", "solution"],
                "additionalProperties": false
            })),
        )
        .with_raw_output_schema(schema(json!({
            "type": "object",
            "required": ["task", "solution", "passed", "findings", "targets"],
            "properties": {
                "task": {"type": "string"},
                "solution": {"type": "string"},
                "passed": {"type": "boolean"},
                "findings": {"type": "array", "items": finding.clone()},
                "targets": {"type": "array", "items": {
                    "type": "object",
                    "required": ["name", "passed", "findings"],
                    "properties": {"name": {"type": "string"}, "passed": {"type": "boolean"},
                                   "findings": {"type": "array", "items": finding}}
                }}
            }
        }))),
        Tool::new(
            "list_references",
            "For each theorem of a .lean file, the reference it is judged against as the \
             editor resolves it: a `-- @reference` directive above it, else lean-assess.toml \
             (nearest one up from the file, or $LEAN_ASSESS_CONFIG).",
            schema(json!({
                "type": "object",
                "properties": {
                    "file": {"type": "string", "description": "Path of the .lean file."}
                },
                "required": ["file"],
                "additionalProperties": false
            })),
        )
        .with_raw_output_schema(schema(json!({
            "type": "object",
            "required": ["file", "config", "theorems"],
            "properties": {
                "file": {"type": "string"},
                "config": strings,
                "theorems": {"type": "array", "items": {
                    "type": "object",
                    "required": ["theorem", "keyword", "line", "reference", "problem"],
                    "properties": {
                        "theorem": {"type": ["string", "null"]},
                        "keyword": {"type": "string"},
                        "line": {"type": "integer"},
                        "reference": {"type": ["object", "null"]},
                        "problem": {"type": ["string", "null"]}
                    }
                }}
            }
        }))),
    ]
}
