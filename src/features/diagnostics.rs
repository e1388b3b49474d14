//! The diagnostics the proxy adds to Lean's: "show differences" results, reference problems
//! and integrity findings, merged into Lean's `textDocument/publishDiagnostics`, and the copy of
//! Lean's last list per URI that a republish of ours must carry (a publish replaces the
//! editor's list). Owns [`Diagnostics`]; computing differences or problems is the jobs' and
//! `integrity`'s, writing frames the router's.

use super::{lock, views, Features, ToEditor};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Mutex;

/// Most bytes of Lean diagnostics kept per URI (a real file's list is far smaller; a publish
/// beyond it is forwarded as usual, only not kept).
pub(super) const MAX_LEAN_DIAGNOSTIC_BYTES: usize = 8 << 20;

/// Lean's diagnostics last published for a URI (accumulated when incremental), kept only to
/// republish them with ours ([`Features::publish`]).
/// Each diagnostic is kept as the JSON text Lean wrote, not parsed (a `Value` costs several
/// times its text), appended in O(its size) — no copy of what is stored already, so `n`
/// incremental publishes cost O(n), not O(n²). Bounded by [`MAX_LEAN_DIAGNOSTIC_BYTES`] per
/// URI; freed when the editor closes the URI.
#[derive(Debug, Default)]
pub(super) struct LeanDiagnostics {
    /// The raw JSON of `version` (`null` when absent).
    pub(super) version: String,
    pub(super) diagnostics: Vec<Box<RawValue>>,
    pub(super) bytes: usize,
    /// More than the bound was published for this version: nothing kept, and no republish
    /// (it would replace Lean's list in the editor with a part of it).
    pub(super) overflow: bool,
}

/// The parts of Lean's `textDocument/publishDiagnostics` the store needs, borrowed from the
/// message body (shape: `fixtures/lean-protocol/examples/wire.publishDiagnostics-with-code.json`;
/// `isIncremental` is Lean's extension, lean4 `src/Lean/Data/Lsp/Diagnostics.lean`).
#[derive(serde::Deserialize)]
struct PublishBody<'a> {
    #[serde(borrow)]
    params: PublishParams<'a>,
}

#[derive(serde::Deserialize)]
struct PublishParams<'a> {
    #[serde(borrow)]
    uri: std::borrow::Cow<'a, str>,
    #[serde(borrow, default)]
    version: Option<&'a RawValue>,
    #[serde(borrow, default)]
    diagnostics: Vec<&'a RawValue>,
    #[serde(default, rename = "isIncremental")]
    is_incremental: Option<bool>,
}

/// Lean's last list for a URI, parsed for a republish.
pub(super) enum LeanList {
    /// Lean published nothing for the URI (or it was closed since).
    Unknown,
    /// Lean's list was beyond [`MAX_LEAN_DIAGNOSTIC_BYTES`]: not kept.
    Overflow,
    Kept {
        version: Value,
        diagnostics: Vec<Value>,
    },
}

/// The diagnostics state, by URI: ours shown on a command, and Lean's last list.
#[derive(Default)]
pub(super) struct Diagnostics {
    /// "Show differences" diagnostics currently shown (cleared on edit).
    shown: Mutex<HashMap<String, Vec<Value>>>,
    pub(super) lean: Mutex<HashMap<String, LeanDiagnostics>>,
}

impl Diagnostics {
    /// Note Lean's `publishDiagnostics` (the whole message body, read without building a
    /// `Value` of it). The URI when ours are to be added to it: not when the body is not a
    /// publish, nor when it is an incremental message of a version whose first message had
    /// ours already (incremental messages append to what the editor holds).
    pub(super) fn note_lean(&self, body: &[u8]) -> Option<String> {
        let PublishBody { params: p } = serde_json::from_slice::<PublishBody<'_>>(body).ok()?;
        let uri = p.uri.into_owned();
        let version = p.version.map_or("null", RawValue::get);
        let incremental = p.is_incremental == Some(true);
        let mut ld = lock(&self.lean);
        let same_version = ld.get(&uri).is_some_and(|d| d.version == version);
        let appended = incremental && same_version;
        if !appended {
            ld.insert(
                uri.clone(),
                LeanDiagnostics { version: version.to_string(), ..LeanDiagnostics::default() },
            );
        }
        let stored = ld.get_mut(&uri).expect("BUG: the entry was just found or inserted");
        let added: usize = p.diagnostics.iter().map(|d| d.get().len()).sum();
        if !stored.overflow {
            if stored.bytes + added > MAX_LEAN_DIAGNOSTIC_BYTES {
                tracing::warn!(%uri, bytes = stored.bytes + added, "Lean's diagnostics for this file exceed what lean-assess keeps; ours will not be republished with them");
                *stored = LeanDiagnostics {
                    version: version.to_string(),
                    overflow: true,
                    ..LeanDiagnostics::default()
                };
            } else {
                stored.diagnostics.extend(p.diagnostics.iter().map(|d| (*d).to_owned()));
                stored.bytes += added;
            }
        }
        drop(ld);
        (!appended).then_some(uri)
    }

    /// Lean's last list for `uri`, parsed (on a user's command, not on the forwarding path).
    fn lean_list(&self, uri: &str) -> LeanList {
        match lock(&self.lean).get(uri) {
            None => LeanList::Unknown,
            Some(d) if d.overflow => LeanList::Overflow,
            Some(d) => LeanList::Kept {
                version: serde_json::from_str(&d.version).unwrap_or(Value::Null),
                diagnostics: d
                    .diagnostics
                    .iter()
                    .filter_map(|r| serde_json::from_str(r.get()).ok())
                    .collect(),
            },
        }
    }

    /// The "show differences" diagnostics shown for `uri`.
    fn shown(&self, uri: &str) -> Vec<Value> {
        lock(&self.shown).get(uri).cloned().unwrap_or_default()
    }

    /// Show `diagnostics` as `uri`'s differences (replacing those shown).
    pub(super) fn show(&self, uri: &str, diagnostics: Vec<Value>) {
        lock(&self.shown).insert(uri.to_string(), diagnostics);
    }

    /// Stop showing `uri`'s differences; whether there were any.
    pub(super) fn clear_shown(&self, uri: &str) -> bool {
        lock(&self.shown).remove(uri).is_some()
    }

    /// Forget everything of `uri` (the editor closed it).
    pub(super) fn forget(&self, uri: &str) {
        lock(&self.shown).remove(uri);
        lock(&self.lean).remove(uri);
    }
}

impl Features {
    /// Ours for `uri`: the differences shown, integrity findings, reference problems.
    pub(super) fn our_diagnostics(&self, uri: &str) -> Vec<Value> {
        let mut out = self.inner.diagnostics.shown(uri);
        out.extend(self.inner.integrity.diagnostics(uri, self.inner.docs.get(uri)));
        if let (Some(a), Some(doc)) = (self.analysis(uri), self.inner.docs.get(uri)) {
            for p in &a.problems {
                let pos = lsp_types::Position { line: p.line as u32, character: 0 };
                let end =
                    doc.offset_of(lsp_types::Position { line: p.line as u32, character: u32::MAX });
                let r = json!({"start": pos, "end": doc.position_of(end)});
                out.push(views::diagnostic(r, &p.message, 2));
            }
        }
        out
    }

    /// Send a full publishDiagnostics for `uri`: Lean's last list plus ours.
    pub(super) fn publish(&self, uri: &str) {
        let (version, list) = match self.inner.diagnostics.lean_list(uri) {
            LeanList::Overflow => {
                self.inner.outbox.show_message(
                    2,
                    "lean-assess: Lean's diagnostics for this file are too many to republish with ours; ours are not shown".into(),
                );
                return;
            }
            LeanList::Kept { version, diagnostics } => (version, diagnostics),
            LeanList::Unknown => {
                (self.inner.docs.get(uri).map_or(Value::Null, |d| json!(d.version)), Vec::new())
            }
        };
        let mut params = json!({"uri": uri, "version": version, "diagnostics": list});
        if let Some(o) = params.as_object_mut() {
            o.insert("isIncremental".into(), json!(false));
            if o.get("version") == Some(&Value::Null) {
                o.remove("version");
            }
        }
        let ours = self.our_diagnostics(uri);
        if let Some(list) = params["diagnostics"].as_array_mut() {
            list.extend(ours);
        }
        self.inner.outbox.send(ToEditor::Notification {
            method: "textDocument/publishDiagnostics".into(),
            params,
        });
    }
}
