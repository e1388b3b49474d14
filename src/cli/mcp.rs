//! `lean-assess mcp [--lean-project DIR [--server-command CMD] [--config FILE]]`: the judge as
//! an MCP server over stdio, for agents (Claude Code, Codex, Cursor).
//!
//! Owns the MCP surface only: the tool list with its input schemas, turning a tool call's JSON
//! arguments into the same library calls `score`, `tree` and the editor's reference lookup make,
//! and turning their results (or their one-line error messages) into tool results. The protocol
//! itself (JSON-RPC framing, initialize, capability negotiation) is the `rmcp` crate's. It must
//! not print anything on stdout besides MCP messages: stdout is the channel.
//!
//! Errors in a call (unreadable file, unknown theorem, unknown metric, an argument the tool does
//! not declare) are tool results with `isError: true` and one line phrased for an agent: the
//! argument at fault, or how the server must be started (never a shell command to run); a metric
//! that needs Lean on a server without `--lean-project` is that metric's `error` entry. Protocol
//! errors (unknown tool) are JSON-RPC errors. Every tool declares its output schema (MCP
//! 2025-06-18 `outputSchema`) and answers with `structuredContent` matching it.

use super::cost_model;
use super::statement::{self, Loaded};
use crate::config::Config;
use crate::lean::batch;
use crate::metrics::registry;
use crate::metrics::{MetricError, Pair};
use crate::references;
use crate::trees::{parse, render};
use anyhow::{bail, Context};
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, Implementation, JsonObject,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities,
    ServerInfo, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServiceExt};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// With --lean-project: the wall-time limit of one `compare_statements` call that runs Lean
    /// metrics (server start included), in seconds; the metrics' own limits apply inside it.
    /// When it passes, the Lean server is killed (with its process group) and the metrics not
    /// finished report the timeout as their error.
    #[arg(long, value_name = "SECONDS", default_value_t = 600,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    lean_call_timeout: u64,
    #[command(flatten)]
    lean: super::lean_options::LeanOptions,
}

/// What a call needs from the command line; shared by every call.
struct Server {
    lean: Option<LeanSetup>,
    /// Where the files a call names may be read from: the server's working directory and the
    /// `--lean-project` (an agent's arguments are no wider a door than the editor's).
    roots: crate::config::ReadableRoots,
    /// Calls running now; one more than [`MAX_CONCURRENT_CALLS`] is refused, not queued.
    slots: Arc<tokio::sync::Semaphore>,
}

/// Tool calls that run at once (each on its own thread; a Lean call also has a Lean server).
/// A call beyond them gets a JSON-RPC error at once, so a flood of calls cannot grow threads
/// and memory without bound or delay `tools/list`.
const MAX_CONCURRENT_CALLS: usize = 4;

/// The deepest tree `operator_tree` returns as nested JSON: serializing the reply recurses
/// once per level (the text format has no such limit).
const MAX_JSON_TREE_DEPTH: usize = 1000;

struct LeanSetup {
    project: PathBuf,
    server_command: Option<String>,
    settings: batch::LeanSettings,
    call_timeout: Duration,
}

/// Run the server on stdin/stdout until the client closes the channel.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let lean = match &args.lean.lean_project {
        Some(dir) => {
            if !dir.is_dir() {
                bail!("--lean-project {}: not a directory", dir.display());
            }
            let config = batch::load_config(args.lean.config.as_deref(), Some(dir))?;
            let names: Vec<&str> = registry::lean_names().collect();
            Some(LeanSetup {
                project: dir.clone(),
                server_command: args.lean.server_command.clone(),
                settings: batch::LeanSettings::new(config.as_ref(), &names)?,
                call_timeout: Duration::from_secs(args.lean_call_timeout),
            })
        }
        None => {
            if args.lean.config.is_some() {
                batch::load_config(args.lean.config.as_deref(), None)?;
            }
            None
        }
    };
    let mut extra = vec![std::env::current_dir().context("cannot read the working directory")?];
    if let Some(l) = &lean {
        extra.push(std::path::absolute(&l.project).unwrap_or_else(|_| l.project.clone()));
    }
    let server = Arc::new(Server {
        lean,
        roots: crate::config::ReadableRoots::for_document(None, None, &extra),
        slots: Arc::new(tokio::sync::Semaphore::new(MAX_CONCURRENT_CALLS)),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        // The library talks to the client through the JSON-RPC check (`mcp_guard`), which
        // answers invalid messages itself.
        let (library_in, guard_to_library) = tokio::io::duplex(1 << 20);
        let (guard_from_library, library_out) = tokio::io::duplex(1 << 20);
        let guard = tokio::spawn(super::mcp_guard::run(
            tokio::io::stdin(),
            tokio::io::stdout(),
            guard_to_library,
            guard_from_library,
        ));
        let service = Handler(server)
            .serve((library_in, library_out))
            .await
            .context("MCP initialization failed")?;
        service.waiting().await.context("MCP server task failed")?;
        let _ = guard.await;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

#[derive(Clone)]
struct Handler(Arc<Server>);

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("lean-assess", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Judge a Lean 4 formalization against a reference: compare_statements gives the \
                 verdict (transted-lite and ted by default), similarity, differences and rewrites; \
                 compare_many judges many candidates (say, k samples) against one reference; \
                 operator_tree shows how a \
                 statement is read; list_references shows which reference each theorem of a \
                 file is judged against.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools(self.0.lean.is_some())))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        let server = Arc::clone(&self.0);
        let name = request.name.to_string();
        if !TOOLS.contains(&name.as_str()) {
            return Err(ErrorData::invalid_params(
                format!("unknown tool '{name}' (this server's tools: {})", TOOLS.join(", ")),
                None,
            ));
        }
        // The work is synchronous (and the Lean metrics start a runtime of their own), so it
        // runs on a plain thread. It reports steps on `progress` (forwarded as MCP progress
        // notifications when the client asked for them with a progressToken) and stops its
        // Lean server when the client cancels the request (`cancel`) or --lean-call-timeout
        // passes (inside the worker, so the server is killed, not just no longer awaited).
        let Ok(slot) = Arc::clone(&server.slots).try_acquire_owned() else {
            return Err(ErrorData::new(
                rmcp::model::ErrorCode(-32000),
                format!(
                    "server busy: {MAX_CONCURRENT_CALLS} calls are running; try again when one has answered"
                ),
                None,
            ));
        };
        let (progress, mut steps) = tokio::sync::mpsc::unbounded_channel();
        let (cancel_tx, cancel) = tokio::sync::watch::channel(false);
        let (send, receive) = tokio::sync::oneshot::channel();
        std::thread::spawn(move || {
            let call_context = CallContext { progress, cancel };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                call(&server, &name, &arguments, &call_context)
            }))
            .unwrap_or_else(|_| Err(anyhow::anyhow!("internal error (a bug) in {name}")));
            drop(slot);
            let _ = send.send(result);
        });
        let token = context.meta.get_progress_token();
        let notify = |step: Step| {
            let peer = context.peer.clone();
            let token = token.clone();
            async move {
                if let Some(token) = token {
                    let param = ProgressNotificationParam::new(token, step.progress)
                        .with_total(step.total)
                        .with_message(step.message);
                    let _ = peer.notify_progress(param).await;
                }
            }
        };
        tokio::pin!(receive);
        let result = loop {
            tokio::select! {
                r = &mut receive => break r,
                Some(step) = steps.recv() => notify(step).await,
                () = context.ct.cancelled(), if !*cancel_tx.borrow() => {
                    let _ = cancel_tx.send(true);
                }
            }
        };
        while let Ok(step) = steps.try_recv() {
            notify(step).await;
        }
        Ok(match result {
            Ok(Ok(value)) => CallToolResult::structured(value),
            Ok(Err(e)) => error_result(super::one_line(&e)),
            Err(_) => error_result("internal error (a bug): the call's worker vanished".into()),
        })
    }
}

/// One step of a call, for a progress notification.
struct Step {
    progress: f64,
    total: f64,
    message: String,
}

/// What a call's worker thread gets besides its arguments.
struct CallContext {
    progress: tokio::sync::mpsc::UnboundedSender<Step>,
    /// Becomes true when the client cancels the request.
    cancel: tokio::sync::watch::Receiver<bool>,
}

impl CallContext {
    fn step(&self, progress: usize, total: usize, message: String) {
        let _ =
            self.progress.send(Step { progress: progress as f64, total: total as f64, message });
    }

    /// Resolves with the reason when the Lean work of this call must stop: the client
    /// cancelled it, or `limit` passed.
    fn stop(&self, limit: Duration) -> impl std::future::Future<Output = String> + use<> {
        let mut cancel = self.cancel.clone();
        async move {
            let cancelled = async {
                // The handler drops the sender only after the worker ended: not a cancel.
                if cancel.wait_for(|c| *c).await.is_err() {
                    std::future::pending::<()>().await;
                }
            };
            tokio::select! {
                () = tokio::time::sleep(limit) => format!(
                    "timed out after {} s (--lean-call-timeout); the Lean server was stopped",
                    limit.as_secs()
                ),
                () = cancelled => "cancelled by the client; the Lean server was stopped".into(),
            }
        }
    }
}

fn error_result(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

/// The tools, by name.
const TOOLS: [&str; 5] =
    ["compare_statements", "compare_many", "operator_tree", "list_references", "check_integrity"];

/// The metrics `compare_statements` and `compare_many` run when the call names none: the
/// strongest offline one with its evidence-based verdict, then plain TED for the distance.
const DEFAULT_METRICS: [&str; 2] = ["transted-lite", "ted"];

/// The most candidates one `compare_many` call judges (each may run a rewrite search).
const MAX_CANDIDATES: usize = 64;

fn call(
    server: &Server,
    name: &str,
    arguments: &JsonObject,
    context: &CallContext,
) -> anyhow::Result<Value> {
    check_arguments(server, name, arguments)?;
    match name {
        "compare_statements" => compare_statements(server, arguments, context),
        "compare_many" => compare_many(server, arguments, context),
        "operator_tree" => operator_tree(server, arguments),
        "list_references" => list_references(server, arguments),
        "check_integrity" => check_integrity(server, arguments),
        _ => bail!("unknown tool '{name}'"),
    }
}

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
fn tools(with_lean: bool) -> Vec<Tool> {
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

/// Every argument a call passes must be one its tool declares: a misspelt optional argument
/// (`metric` for `metrics`) would otherwise be dropped without a word.
fn check_arguments(server: &Server, name: &str, arguments: &JsonObject) -> anyhow::Result<()> {
    let tools = tools(server.lean.is_some());
    let Some(tool) = tools.iter().find(|t| t.name == name) else {
        bail!("unknown tool '{name}' (this server's tools: {})", TOOLS.join(", "));
    };
    let known: Vec<&str> = tool
        .input_schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let unknown: Vec<&str> =
        arguments.keys().map(String::as_str).filter(|k| !known.contains(k)).collect();
    if let Some(first) = unknown.first() {
        let near = known.iter().find(|k| k.starts_with(first) || first.starts_with(**k));
        let hint = near.map_or(String::new(), |k| format!(" (did you mean '{k}'?)"));
        bail!(
            "{name}: unknown argument{} {}{hint}; its arguments are {}",
            if unknown.len() > 1 { "s" } else { "" },
            unknown.iter().map(|k| format!("'{k}'")).collect::<Vec<_>>().join(", "),
            known.join(", ")
        );
    }
    Ok(())
}

fn string_arg<'a>(arguments: &'a JsonObject, key: &str) -> anyhow::Result<&'a str> {
    match arguments.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => bail!("argument '{key}': expected a string"),
        None => bail!("missing argument '{key}'"),
    }
}

/// A statement argument: a path ending in `.lean` (optionally `::NAME`) on one line is a file,
/// anything else is Lean text.
fn load(server: &Server, flag: &str, value: &str) -> anyhow::Result<Loaded> {
    let value = value.trim();
    let path_part = value.rsplit_once("::").map_or(value, |(p, _)| p);
    if !value.contains('\n') && path_part.ends_with(".lean") {
        inside_roots(server, Path::new(path_part))?;
        statement::from_spec(value)
    } else {
        statement::from_literal(flag, value)
    }
}

/// The `metrics` argument: the names given (each one the registry knows), or
/// [`DEFAULT_METRICS`].
fn metric_names(arguments: &JsonObject) -> anyhow::Result<Vec<String>> {
    let names: Vec<String> = match arguments.get("metrics") {
        None | Some(Value::Null) => DEFAULT_METRICS.iter().map(|m| m.to_string()).collect(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.clone()),
                _ => bail!("argument 'metrics': expected a list of metric names"),
            })
            .collect::<anyhow::Result<_>>()?,
        Some(_) => bail!("argument 'metrics': expected a list of metric names"),
    };
    if names.is_empty() {
        bail!("argument 'metrics': give at least one metric, or leave it out for the default");
    }
    registry::check_names(&names).map_err(|e| anyhow::anyhow!("argument 'metrics': {e}"))?;
    Ok(names)
}

fn free_cost_arg(arguments: &JsonObject) -> anyhow::Result<bool> {
    match arguments.get("free_cost") {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => bail!("argument 'free_cost': expected true or false"),
    }
}

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
        other => super::score::metric_error_json(name, other),
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
                super::score::result_of(name, lean_results, &pair, cost_model(free_cost));
            match &result {
                Ok(report) => super::score::metric_json(name, report, &pair, proof.as_deref()),
                Err(e) => metric_error(name, e),
            }
        })
        .collect();
    // As `score --json`: what still differs, in the user's words, unless a metric showed the
    // two equivalent.
    let any_equivalent = results.iter().any(|m| m["verdict"] == "equivalent");
    let differences =
        if any_equivalent { Vec::new() } else { super::score::differences(reference, candidate) };
    json!({
        "reference": reference.origin,
        "candidate": candidate.origin,
        "verdict": if any_equivalent { "equivalent" } else { "not shown" },
        "metrics": results,
        "differences": differences,
        "unparsed": {"reference": unparsed(reference), "candidate": unparsed(candidate)},
    })
}

fn compare_statements(
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
fn compare_many(
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
                "error": super::one_line(&e),
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

/// The spans of a statement the parser kept as one raw node each (as `score` notes them).
fn unparsed(l: &Loaded) -> Vec<String> {
    l.statement
        .unparsed
        .iter()
        .filter_map(|s| l.statement.source.get(s.start as usize..s.end as usize))
        .map(str::to_string)
        .collect()
}

fn operator_tree(server: &Server, arguments: &JsonObject) -> anyhow::Result<Value> {
    let loaded = load(server, "statement", string_arg(arguments, "statement")?)?;
    let format = match arguments.get("format") {
        None | Some(Value::Null) => "text",
        Some(Value::String(s)) if s == "text" || s == "json" => s.as_str(),
        Some(other) => bail!("argument 'format': expected \"text\" or \"json\", got {other}"),
    };
    let tree = &loaded.statement.tree;
    Ok(match format {
        "json" => json!({
            "statement": loaded.origin,
            "tree": tree_value(tree, MAX_JSON_TREE_DEPTH).with_context(|| format!(
                "the tree is deeper than {MAX_JSON_TREE_DEPTH} levels, too deep for nested JSON in a reply; call operator_tree with format \"text\""
            ))?,
            "unparsed": unparsed(&loaded),
        }),
        _ => json!({
            "statement": loaded.origin,
            "tree": render::to_text(tree),
            "unparsed": unparsed(&loaded),
        }),
    })
}

/// The tree as nested JSON in `render::to_json`'s shape, built directly (no text to parse
/// back, whose parser stops at 128 levels); `None` when deeper than `max_depth`.
fn tree_value(tree: &crate::trees::Tree, max_depth: usize) -> Option<Value> {
    if max_depth == 0 {
        return None;
    }
    let mut node = serde_json::Map::new();
    node.insert("label".into(), Value::String(tree.label.clone()));
    let children = tree
        .children
        .iter()
        .map(|c| tree_value(c, max_depth - 1))
        .collect::<Option<Vec<Value>>>()?;
    node.insert("children".into(), Value::Array(children));
    if tree.variable_freecost {
        node.insert("variable_freecost".into(), Value::Bool(true));
    }
    if tree.hypothesis_freecost {
        node.insert("hypothesis_freecost".into(), Value::Bool(true));
    }
    Some(Value::Object(node))
}

/// A file a call names must lie under the server's roots (its working directory, the
/// `--lean-project`); the error names the file and the roots.
fn inside_roots(server: &Server, path: &Path) -> anyhow::Result<()> {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    server
        .roots
        .check(&absolute)
        .map_err(|e| anyhow::anyhow!("{}", e.replace("references are read", "files are read")))
}

fn list_references(server: &Server, arguments: &JsonObject) -> anyhow::Result<Value> {
    let file = Path::new(string_arg(arguments, "file")?);
    inside_roots(server, file)?;
    let text = read_source(file)?;
    let absolute =
        file.canonicalize().with_context(|| format!("cannot read {}", file.display()))?;
    let env = std::env::var_os("LEAN_ASSESS_CONFIG").map(PathBuf::from);
    // The same layers the editor's proxy reads: the project file, the user's, the named one.
    let user = crate::config::user_config_file();
    let layers =
        crate::config::config_layers(None, env.as_deref(), user.as_deref(), &absolute, None);
    let config: Option<Config> = if layers.is_empty() {
        None
    } else {
        Some(Config::load_layers(&layers).map_err(anyhow::Error::from)?)
    };
    let dir = absolute.parent().unwrap_or(Path::new("/"));
    let theorems: Vec<Value> = parse::find_declarations(&text)
        .iter()
        .map(|d| {
            let name = d.name.as_deref();
            let directive = references::directive_above(&text, d.start, &absolute, dir);
            let line = crate::files::line_of(&text, d.start);
            let (directive, problem) = match directive {
                Some(Ok(dir)) => (Some(dir), None),
                Some(Err(e)) => (None, Some(e.to_string())),
                None => (None, None),
            };
            let source =
                references::source_for(&absolute, name, directive.as_ref(), config.as_ref());
            let reference = source.map(|s| match s {
                references::ReferenceSource::Theorem { target, origin } => json!({
                    "kind": "theorem",
                    "file": target.file.display().to_string(),
                    "name": target.name,
                    "origin": origin,
                }),
                references::ReferenceSource::Inline { text, origin } => {
                    json!({"kind": "inline", "text": text, "origin": origin})
                }
                references::ReferenceSource::Named { name, origin } => {
                    json!({"kind": "by name", "name": name, "origin": origin})
                }
            });
            json!({
                "theorem": name,
                "keyword": d.keyword,
                "line": line,
                "reference": reference,
                "problem": problem,
            })
        })
        .collect();
    Ok(json!({
        "file": file.display().to_string(),
        "config": layers
            .iter()
            .map(|l| l.path.display().to_string())
            .collect::<Vec<_>>(),
        "theorems": theorems,
    }))
}

/// `check_integrity`: the offline half of `lean-assess integrity TASK SOLUTION`, same report.
fn check_integrity(server: &Server, arguments: &JsonObject) -> anyhow::Result<Value> {
    let strings = |key: &str| -> anyhow::Result<Vec<String>> {
        match arguments.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    _ => bail!("argument '{key}': expected an array of strings"),
                })
                .collect(),
            Some(_) => bail!("argument '{key}': expected an array of strings"),
        }
    };
    let options = crate::integrity::Options {
        theorems: strings("theorems")?,
        allow_imports: strings("allow_imports")?,
        allow_native_decide: match arguments.get("allow_native_decide") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => bail!("argument 'allow_native_decide': expected a boolean"),
        },
        skip_transted_lite: false,
        offline_limit: Some(Duration::from_secs(60)),
    };
    let task_path = string_arg(arguments, "task")?;
    let solution_path = string_arg(arguments, "solution")?;
    inside_roots(server, Path::new(task_path))?;
    inside_roots(server, Path::new(solution_path))?;
    let task_text = read_source(Path::new(task_path))?;
    let task = crate::integrity::Task::load(task_path, &task_text, &options)?;
    // An unreadable solution fails its task (as in the CLI), it is not bad input.
    let solution =
        crate::files::read_regular_file(Path::new(solution_path), crate::files::MAX_SOURCE_BYTES);
    let report = task.check(solution_path, solution.as_deref().map_err(Clone::clone), &options);
    Ok(super::integrity::report_json(&report))
}

/// A Lean file named in a tool's arguments: a regular file of bounded size (a FIFO or
/// `/dev/zero` is refused, not waited on or read without end).
fn read_source(path: &Path) -> anyhow::Result<String> {
    crate::files::read_regular_file(path, crate::files::MAX_SOURCE_BYTES)
        .map_err(anyhow::Error::msg)
}
