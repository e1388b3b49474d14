//! The tools that read a project's `.lean` files: `list_references` (each theorem's reference
//! as the editor resolves it: a `-- @reference` directive, else the configuration's layers) and
//! `check_integrity` (the offline half of `lean-assess integrity`, the same report).
//!
//! Owns the tools' answers only; resolving references is `references`', the checks are
//! `integrity`'s.

use super::arguments::{inside_roots, read_source, string_arg};
use super::Server;
use crate::config::Config;
use crate::references;
use crate::trees::parse;
use anyhow::{bail, Context};
use rmcp::model::JsonObject;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `list_references`: each theorem of a file with the reference it is judged against, or the
/// problem with its directive.
pub(super) fn list_references(server: &Server, arguments: &JsonObject) -> anyhow::Result<Value> {
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
pub(super) fn check_integrity(server: &Server, arguments: &JsonObject) -> anyhow::Result<Value> {
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
    Ok(crate::cli::integrity::report_json(&report))
}
