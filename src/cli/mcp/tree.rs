//! `operator_tree`: the tree lean-assess reads from a statement, as indented text or nested
//! JSON (bounded in depth), with the spans the parser kept unparsed.
//!
//! Owns the tool's answer only; the tree is `trees`' and its text format `trees::render`'s.

use super::arguments::{load, string_arg};
use super::Server;
use crate::cli::statement::Loaded;
use crate::trees::render;
use anyhow::{bail, Context};
use rmcp::model::JsonObject;
use serde_json::{json, Value};

/// The deepest tree `operator_tree` returns as nested JSON: serializing the reply recurses
/// once per level (the text format has no such limit).
const MAX_JSON_TREE_DEPTH: usize = 1000;

/// The spans of a statement the parser kept as one raw node each (as `score` notes them).
pub(super) fn unparsed(l: &Loaded) -> Vec<String> {
    l.statement
        .unparsed
        .iter()
        .filter_map(|s| l.statement.source.get(s.start as usize..s.end as usize))
        .map(str::to_string)
        .collect()
}

/// `operator_tree`: the statement's tree as text (default) or nested JSON.
pub(super) fn operator_tree(server: &Server, arguments: &JsonObject) -> anyhow::Result<Value> {
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
