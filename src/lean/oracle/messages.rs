//! Reading Lean's answers to the oracle: the text of interactive diagnostics, their lines, the
//! header errors among them, the goals at a sentinel, the "Try this" edits of code actions, and
//! which JSON-RPC errors mean a lost worker or a request to send again.
//!
//! Pure functions over `serde_json::Value`; must not send anything or hold document state (the
//! oracle in `super` does). Every shape follows a recorded message in
//! `fixtures/lean-protocol/examples/` or the Lean source cited at each item.

use super::batch::{Goal, Outcome};
use super::OracleError;
use crate::lean::goals::{tree_of, TaggedText};
use crate::lean::LeanError;
use crate::trees::Tree;
use serde_json::Value;

/// `-32801` content modified / file closed (README §4).
const CONTENT_MODIFIED: i64 = -32801;
/// `-32901` worker exited, `-32902` worker crashed (README §4).
const WORKER_EXITED: i64 = -32901;
const WORKER_CRASHED: i64 = -32902;
/// The `-32801` text of `RequestError.fileChanged` (src/Lean/Server/Requests.lean: `{ code :=
/// ErrorCode.contentModified, message := "File changed." }`), also sent by the watchdog to
/// requests queued behind an edit (src/Lean/Server/Watchdog.lean, `handleEdits`). The worker is
/// alive and the request can simply be sent again.
const FILE_CHANGED: &str = "File changed.";

/// The `-32801` texts meaning the worker is gone (reopen, a full re-import):
/// `s!"Cannot process request to closed file '{uri}'"` (Watchdog.lean, `handleRequest`) and
/// `s!"The file worker for {uri} has been terminated."` (Watchdog.lean, pending
/// `$/lean/waitForILeans` of a terminated worker).
const CLOSED_FILE: &str = "Cannot process request to closed file";
const TERMINATED: &str = "has been terminated";

/// The message text of an interactive diagnostic (`TaggedText MsgEmbed`, README §8 "Related
/// RPC methods"): embeds are tags whose info is `{"expr": CodeWithInfos}` / `{"goal": ..}`
/// wrapping `{"text": ""}`, so their text is taken from the embed, not from the wrapped subtree.
pub fn message_text(v: &Value) -> String {
    let mut out = String::new();
    push_message_text(v, &mut out);
    out
}

fn push_message_text(v: &Value, out: &mut String) {
    if let Some(s) = v.as_str() {
        out.push_str(s);
        return;
    }
    let Some(o) = v.as_object() else { return };
    if let Some(t) = o.get("text").and_then(Value::as_str) {
        out.push_str(t);
    } else if let Some(items) = o.get("append").and_then(Value::as_array) {
        items.iter().for_each(|i| push_message_text(i, out));
    } else if let Some(pair) = o.get("tag").and_then(Value::as_array) {
        let embed = pair.first().unwrap_or(&Value::Null);
        if let Some(expr) = embed.get("expr") {
            out.push_str(&TaggedText::from_json(expr).map(|t| t.text()).unwrap_or_default());
        } else if let Some(goal) = embed.get("goal") {
            let ty = goal.get("type").and_then(TaggedText::from_json);
            out.push_str(&ty.map(|t| t.text()).unwrap_or_default());
        } else if let Some(inner) = pair.get(1) {
            push_message_text(inner, out);
        }
    }
}

/// The two sides of an `=` / `↔` goal tree: the root's label, parentheses and spaces dropped,
/// is `_=_` or `_↔_` and it has exactly two children.
pub fn two_sides(tree: &Tree) -> Option<(Tree, Tree)> {
    let shape: String =
        tree.label.chars().filter(|c| !c.is_whitespace() && *c != '(' && *c != ')').collect();
    if (shape == "_=_" || shape == "_↔_") && tree.children.len() == 2 {
        Some((tree.children[0].clone(), tree.children[1].clone()))
    } else {
        None
    }
}

/// Collapse whitespace (goal dedup key, display).
pub(super) fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Position-free line of a diagnostic (`fullRange` preferred, README §5).
pub(super) fn diagnostic_line(d: &Value) -> Option<u64> {
    d.pointer("/fullRange/start/line")
        .or_else(|| d.pointer("/range/start/line"))
        .and_then(Value::as_u64)
}

/// Is this error a sign that the worker died or the document is gone (reopen and retry)?
/// `-32901`/`-32902` always; `-32801` only with the texts of a gone worker ([`CLOSED_FILE`],
/// [`TERMINATED`]) — "File changed." is retried by the oracle's `request` instead.
pub(super) fn worker_lost(e: &LeanError) -> bool {
    match e {
        LeanError::Response { code, message, .. } => {
            *code == WORKER_EXITED
                || *code == WORKER_CRASHED
                || (*code == CONTENT_MODIFIED
                    && (message.contains(CLOSED_FILE) || message.contains(TERMINATED)))
        }
        _ => false,
    }
}

/// Is this `-32801` the "File changed." of a live worker (send the request again)?
pub(super) fn file_changed(e: &LeanError) -> bool {
    matches!(e, LeanError::Response { code, message, .. }
        if *code == CONTENT_MODIFIED && message.trim() == FILE_CHANGED)
}

/// The suggestion of one code action, when it has the shape of a "Try this" at `line`: kind
/// `quickfix` (or none), and an edit of `uri` (`documentChanges[].edits[]`, or the older
/// `changes{uri: [..]}`) whose range starts on `line`; its `newText`, trimmed.
pub(super) fn suggestion_of(action: &Value, uri: &str, line: u32) -> Option<String> {
    match action.get("kind").and_then(Value::as_str) {
        None | Some("quickfix") => {}
        Some(_) => return None,
    }
    let edit = action.get("edit")?;
    let mut edits: Vec<&Value> = Vec::new();
    for change in edit.get("documentChanges").and_then(Value::as_array).into_iter().flatten() {
        let same =
            change.pointer("/textDocument/uri").and_then(Value::as_str).is_none_or(|u| u == uri);
        if same {
            edits.extend(change.get("edits").and_then(Value::as_array).into_iter().flatten());
        }
    }
    if let Some(list) = edit.pointer("/changes").and_then(|c| c.get(uri)).and_then(Value::as_array)
    {
        edits.extend(list);
    }
    edits.into_iter().find_map(|e| {
        let start = e.pointer("/range/start/line").and_then(Value::as_u64)?;
        (start == u64::from(line))
            .then(|| e.get("newText").and_then(Value::as_str))
            .flatten()
            .map(|t| t.trim().to_string())
    })
}

/// Start position (line, UTF-16 character) of a diagnostic (`fullRange` preferred).
fn diagnostic_start(d: &Value) -> Option<(u64, u64)> {
    let start = d.pointer("/fullRange/start").or_else(|| d.pointer("/range/start"))?;
    Some((
        start.get("line").and_then(Value::as_u64)?,
        start.get("character").and_then(Value::as_u64).unwrap_or(0),
    ))
}

/// The first header error among a document's diagnostics: an error (severity 1) on one of the
/// `header_lines` import lines (an unknown import is reported at its own line by
/// `Lean.Elab.processHeader`), or at 0:0 (a failed `lake setup-file`, "Imports are out of date
/// and must be rebuilt…": `diagnosticsOfHeaderError`, src/Lean/Server/FileWorker.lean
/// `setupImports`, at position 0).
pub(super) fn header_error(diagnostics: &[Value], header_lines: u32) -> Option<String> {
    diagnostics.iter().find_map(|d| {
        let (line, character) = diagnostic_start(d)?;
        let severity = d.get("severity").and_then(Value::as_u64).unwrap_or(1);
        let on_header = line < u64::from(header_lines) || (line == 0 && character == 0);
        (severity == 1 && on_header)
            .then(|| collapse(&message_text(d.get("message").unwrap_or(&Value::Null))))
    })
}

/// A document's diagnostics as `(line, severity, message text)`, in Lean's order.
pub(super) struct LineDiagnostics(Vec<(u64, u64, String)>);

impl LineDiagnostics {
    /// From a `getInteractiveDiagnostics` result (diagnostics without a line are dropped).
    pub(super) fn read(diagnostics: &Value) -> LineDiagnostics {
        LineDiagnostics(
            diagnostics
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|d| {
                    Some((
                        diagnostic_line(d)?,
                        d.get("severity").and_then(Value::as_u64).unwrap_or(1),
                        message_text(d.get("message").unwrap_or(&Value::Null)),
                    ))
                })
                .collect(),
        )
    }

    /// The diagnostics on lines `[start, end)`.
    pub(super) fn in_lines(
        &self,
        start: u32,
        end: u32,
    ) -> impl Iterator<Item = &(u64, u64, String)> + '_ {
        self.0.iter().filter(move |(l, _, _)| *l >= u64::from(start) && *l < u64::from(end))
    }

    /// The errors (severity 1) on lines `[start, end)`, with their line.
    pub(super) fn errors_in(
        &self,
        start: u32,
        end: u32,
    ) -> impl Iterator<Item = (u64, &String)> + '_ {
        self.in_lines(start, end).filter(|(_, severity, _)| *severity == 1).map(|(l, _, m)| (*l, m))
    }
}

/// The outcome of a `getInteractiveGoals` result that is not `null`: `[]` closed, one goal
/// open (its type read as a tree), several an invalid node.
pub(super) fn outcome_of_goals(r: &Value, uri: &str) -> Result<Outcome, OracleError> {
    let goals = r
        .get("goals")
        .and_then(Value::as_array)
        .ok_or_else(|| OracleError::shape(uri, "getInteractiveGoals result without `goals`"))?;
    match goals.as_slice() {
        [] => Ok(Outcome::Closed),
        [g] => {
            let ty = g
                .get("type")
                .and_then(TaggedText::from_json)
                .ok_or_else(|| OracleError::shape(uri, "goal without a TaggedText `type`"))?;
            let tree = tree_of(&ty);
            Ok(Outcome::Open(Goal { text: collapse(&ty.text()), sides: two_sides(&tree), tree }))
        }
        several => Ok(Outcome::Several(several.len())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(name: &str) -> Value {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/lean-protocol/examples")
            .join(name);
        serde_json::from_str(&std::fs::read_to_string(p).expect("fixture")).expect("json")
    }

    #[test]
    fn interactive_diagnostic_text_reads_embeds() {
        let r = example("interactiveDiagnostics.result.json");
        assert_eq!(message_text(&r[0]["message"]), "mutable variable `x` cannot be shadowed");
    }

    #[test]
    fn sides_of_an_equality_goal() {
        let r = example("interactiveGoals-rw-nested.result.json");
        let ty = TaggedText::from_json(&r["goals"][0]["type"]).expect("tagged");
        let (l, rhs) = two_sides(&tree_of(&ty)).expect("two sides");
        assert_eq!(l.label, " _ + _ ");
        assert_eq!(rhs.label, " _ + _ ");
        let two = example("interactiveGoals-two-goals.result.json");
        let t = TaggedText::from_json(&two["goals"][0]["type"]).expect("tagged");
        assert!(two_sides(&tree_of(&t)).is_none());
    }
}
