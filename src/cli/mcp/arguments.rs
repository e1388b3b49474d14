//! A tool call's arguments checked and read: no argument the tool does not declare (a
//! misspelt one is named, with the nearest declared one), each of the right JSON type, a
//! statement as Lean text or as a `.lean` file (inside the server's roots, bounded in size).
//!
//! Owns reading arguments only; every error is one line naming the argument at fault. What the
//! tools declare is `tools`'.

use super::tools::{tools, DEFAULT_METRICS, TOOLS};
use super::Server;
use crate::cli::statement::{self, Loaded};
use crate::metrics::registry;
use anyhow::bail;
use rmcp::model::JsonObject;
use serde_json::Value;
use std::path::Path;

/// Every argument a call passes must be one its tool declares: a misspelt optional argument
/// (`metric` for `metrics`) would otherwise be dropped without a word.
pub(super) fn check_arguments(
    server: &Server,
    name: &str,
    arguments: &JsonObject,
) -> anyhow::Result<()> {
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

/// A required string argument.
pub(super) fn string_arg<'a>(arguments: &'a JsonObject, key: &str) -> anyhow::Result<&'a str> {
    match arguments.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => bail!("argument '{key}': expected a string"),
        None => bail!("missing argument '{key}'"),
    }
}

/// A statement argument: a path ending in `.lean` (optionally `::NAME`) on one line is a file,
/// anything else is Lean text.
pub(super) fn load(server: &Server, flag: &str, value: &str) -> anyhow::Result<Loaded> {
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
pub(super) fn metric_names(arguments: &JsonObject) -> anyhow::Result<Vec<String>> {
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

/// The `free_cost` argument: false when left out.
pub(super) fn free_cost_arg(arguments: &JsonObject) -> anyhow::Result<bool> {
    match arguments.get("free_cost") {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => bail!("argument 'free_cost': expected true or false"),
    }
}

/// A file a call names must lie under the server's roots (its working directory, the
/// `--lean-project`); the error names the file and the roots.
pub(super) fn inside_roots(server: &Server, path: &Path) -> anyhow::Result<()> {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    server
        .roots
        .check(&absolute)
        .map_err(|e| anyhow::anyhow!("{}", e.replace("references are read", "files are read")))
}

/// A Lean file named in a tool's arguments: a regular file of bounded size (a FIFO or
/// `/dev/zero` is refused, not waited on or read without end).
pub(super) fn read_source(path: &Path) -> anyhow::Result<String> {
    crate::files::read_regular_file(path, crate::files::MAX_SOURCE_BYTES)
        .map_err(anyhow::Error::msg)
}
