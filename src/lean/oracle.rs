//! The Lean oracle: run tactics on goals in hidden scratch documents and classify the result.
//!
//! Owns: the scratch documents (one per import set; the import header never changes after
//! `didOpen`, so imports load once), the registry of hidden statement declarations (each in its
//! own `section` with its own preamble, the scopes that preamble opens closed before the
//! section's `end` (`super::scopes`), an error on those wrapping lines a failure of the run:
//! [`OracleError::Preamble`]; on request, their universe arity from `#check` probes
//! in the declaring version, read from error diagnostics only), the batches of tactic blocks
//! (one full-text `didChange` + one `textDocument/waitForDiagnostics` per batch), the
//! classification of each block (error / closed / one goal / several goals), the bounds
//! (heartbeats per block, a wall-clock deadline, clearing the active region on expiry) and
//! recovery when the worker stalls or dies (reopen and replay once; a `-32801` "File changed."
//! is asked again instead), header errors (after every barrier an error on an import line or at
//! 0:0 ends the batch: [`OracleError::Header`], sticky; a barrier Lean does not answer is
//! waited for in slices with a header check between them), the scratch files on disk
//! (`super::scratch`, when the config names a directory) and the first open of an import set
//! outside any pair's time ([`Oracle::warm_up`]). Counters of versions and round trips are exposed for the
//! numbers the design asks for. Also owns [`connect_direct`], a [`LeanClient`] over a spawned
//! server's stdio without the editor router (batch use and tests).
//!
//! Leaves to others: what to run (the metrics in `crate::metrics::transted`, `defeq`), how a
//! goal's TaggedText becomes a tree (`super::goals`), the editor-facing proxy (`crate::router`).
//!
//! Message shapes (every one follows a recorded example in `fixtures/lean-protocol/examples/`
//! or the Lean source named in `fixtures/lean-protocol/README.md`):
//! - `textDocument/didOpen` / `didChange` (full text, `contentChanges: [{text}]`): README §3;
//! - `textDocument/waitForDiagnostics {uri, version}` → `{}`
//!   (`wire.empty-object-response.json`, README §4; `-32801` for a closed file);
//! - `$/lean/rpc/connect {uri}` → `{sessionId}` (README §7), `-32900` → reconnect;
//! - `$/lean/rpc/call` of `Lean.Widget.getInteractiveDiagnostics {lineRange}`
//!   (`interactiveDiagnostics.params.json` / `.result.json`): diagnostics of a hidden document
//!   are read through RPC because the router consumes every notification about hidden URIs;
//! - `$/lean/rpc/call` of `Lean.Widget.getInteractiveGoals` at the sentinel line
//!   (`interactiveGoals*.result.json`, `-two-goals` for several goals; README §8);
//! - `textDocument/codeAction` at the suggesting tactic (`codeAction.try-this.params.json`,
//!   `.result.json`: `edit.documentChanges[0].edits[0].newText`; README §9);
//! - worker crash: pending requests get `-32901` / `-32902` (README §4).
//!
//! Block layout (design §7.4): `set_option maxHeartbeats H in` / (`universe u in` when the goal
//! instantiates universe parameters) / `example : GOAL := by` / the
//! path lines / the tactic / `all_goals sorry` (the sentinel: at its first column Lean shows the
//! state *before* it, i.e. after the tactic, README §8 / design §5.4). Errors in the block's
//! lines are checked before goals (a term error is recovered with a synthetic `sorry` that
//! closes the goal, design §5.7).

use super::goals::{tree_of, LeanRpc, TaggedText};
use super::scopes::HeaderScopes;
use super::{LeanClient, LeanError};
use crate::pending::{OwnId, PendingTable, Reply};
use crate::trees::Tree;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufRead, AsyncWrite};
use tokio::sync::mpsc;

/// `-32900` rpcNeedsReconnect (README §7).
const RPC_NEEDS_RECONNECT: i64 = -32900;
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
/// How often a request answered [`FILE_CHANGED`] is sent again before it counts as failed.
const FILE_CHANGED_RETRIES: usize = 3;
/// The `-32801` texts meaning the worker is gone (reopen, a full re-import):
/// `s!"Cannot process request to closed file '{uri}'"` (Watchdog.lean, `handleRequest`) and
/// `s!"The file worker for {uri} has been terminated."` (Watchdog.lean, pending
/// `$/lean/waitForILeans` of a terminated worker).
const CLOSED_FILE: &str = "Cannot process request to closed file";
const TERMINATED: &str = "has been terminated";

/// The first line of a scratch document without imports. Lean reports a header it could not
/// process at 0:0 (`diagnosticsOfHeaderError`, src/Lean/Server/FileWorker.lean `setupImports`);
/// without an import line there the document's first command would start at 0:0 too, and its
/// own error would be taken for a header error. A comment there leaves 0:0 to the header.
const NO_IMPORTS: &str = "-- lean-assess scratch document (no imports)\n";

/// Bound on the header check made while a barrier is not answered.
const HEADER_PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a batch could not be judged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OracleError {
    #[error("scratch document {uri}: {source}")]
    Lean { uri: String, source: LeanError },
    #[error("scratch document {uri}: the deadline passed before Lean finished the batch")]
    Deadline { uri: String },
    #[error("scratch document {uri}: the Lean worker died twice in a row ({source})")]
    WorkerLost { uri: String, source: LeanError },
    #[error("scratch document {uri}: unexpected JSON shape: {what}")]
    Shape { uri: String, what: String },
    #[error("tactic text rejected (would escape its block): {text:?}")]
    UnsafeText { text: String },
    /// Lean reported an error on the scratch document's header (an import line, or 0:0: a failed
    /// `lake setup-file`, "Imports are out of date and must be rebuilt…", an unknown import).
    /// Nothing after the header is elaborated, so no result of this document means anything:
    /// the batch ends here (sticky: every later batch on the same imports gets it at once).
    #[error("scratch document {uri}: Lean could not process the imports: {message}")]
    Header { uri: String, message: String },
    /// Lean reported an error on the lines wrapping a statement (its header's `open`s,
    /// `variable`s, scopes), or the header closes a scope it did not open: the statement's
    /// context could not be set up, so nothing about it is judged.
    #[error("the header's non-import lines failed in Lean: {message}")]
    Preamble { message: String },
    /// The scratch file could not be written inside the workspace.
    #[error("scratch document {path}: cannot write it: {error}")]
    Scratch { path: String, error: String },
}

/// Limits and placement of the oracle's work.
#[derive(Clone, Debug)]
pub struct OracleConfig {
    /// `set_option maxHeartbeats N in` on every block (design §7.8); never 0.
    pub heartbeats: u64,
    /// Upper bound on one request's wait (the deadline may cut it shorter).
    pub request_timeout: Duration,
    /// Directory URI of the scratch documents when they are not written to disk
    /// (`scratch_dir` unset: tests against the stand-in); must not be covered by a `lean_lib`
    /// glob.
    pub scratch_dir_uri: String,
    /// Directory on disk for the scratch files (see [`super::scratch`]); when set, every
    /// scratch document is a real file there, written before its `didOpen` and removed when it
    /// is closed or the oracle is dropped, and `scratch_dir_uri` is ignored.
    pub scratch_dir: Option<std::path::PathBuf>,
    /// Bound on a first open ([`Oracle::warm_up`]): importing Mathlib, building dependencies,
    /// the first `exact?`/`rw?` index. Not part of any pair's time limit.
    pub load_timeout: Duration,
    /// How long one wait for a barrier lasts before the header is checked for an error
    /// (a worker whose header failed may never answer the barrier).
    pub barrier_slice: Duration,
}

impl Default for OracleConfig {
    fn default() -> Self {
        OracleConfig {
            heartbeats: 200_000,
            request_timeout: Duration::from_secs(60),
            scratch_dir_uri: "file:///lean-assess/.scratch".into(),
            scratch_dir: None,
            load_timeout: load_timeout(),
            barrier_slice: Duration::from_secs(10),
        }
    }
}

/// Env variable bounding a first open in milliseconds (default [`DEFAULT_LOAD_TIMEOUT`]); for
/// tests, and for machines where Mathlib takes longer.
pub const LOAD_TIMEOUT_ENV: &str = "LEAN_ASSESS_LOAD_TIMEOUT_MS";
/// A first open of Mathlib (and a dependency build) may take minutes: 20 by default.
pub const DEFAULT_LOAD_TIMEOUT: Duration = Duration::from_secs(1200);

/// The load timeout: [`LOAD_TIMEOUT_ENV`] when it is a positive number, else the default
/// (an unreadable value is logged and ignored: it must not stop the proxy).
fn load_timeout() -> Duration {
    match std::env::var(LOAD_TIMEOUT_ENV) {
        Ok(t) => match t.trim().parse::<u64>() {
            Ok(ms) if ms > 0 => Duration::from_millis(ms),
            _ => {
                tracing::warn!(value = %t, "{LOAD_TIMEOUT_ENV}: not a positive number of milliseconds; using the default");
                DEFAULT_LOAD_TIMEOUT
            }
        },
        Err(_) => DEFAULT_LOAD_TIMEOUT,
    }
}

/// Counts of what the oracle sent, for "versions / round trips per expanded node".
#[derive(Debug, Default)]
pub struct Counters {
    versions: AtomicU64,
    round_trips: AtomicU64,
    blocks: AtomicU64,
    reopens: AtomicU64,
}

/// A copy of the counters at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CounterSnapshot {
    /// Document versions sent (`didOpen` and `didChange`).
    pub versions: u64,
    /// Requests answered or timed out (notifications are not round trips).
    pub round_trips: u64,
    /// Tactic blocks classified.
    pub blocks: u64,
    /// Times a scratch document was closed and reopened after a worker failure.
    pub reopens: u64,
}

impl CounterSnapshot {
    /// `self - earlier`, field by field.
    pub fn since(&self, earlier: &CounterSnapshot) -> CounterSnapshot {
        CounterSnapshot {
            versions: self.versions - earlier.versions,
            round_trips: self.round_trips - earlier.round_trips,
            blocks: self.blocks - earlier.blocks,
            reopens: self.reopens - earlier.reopens,
        }
    }
}

impl Counters {
    pub fn snapshot(&self) -> CounterSnapshot {
        CounterSnapshot {
            versions: self.versions.load(Ordering::Relaxed),
            round_trips: self.round_trips.load(Ordering::Relaxed),
            blocks: self.blocks.load(Ordering::Relaxed),
            reopens: self.reopens.load(Ordering::Relaxed),
        }
    }
}

/// One tactic to try on a goal: `example : goal := by <path> <tactic>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The proposition to prove (Lean term text).
    pub goal: String,
    /// Tactic lines already applied (the node's path from the root).
    pub path: Vec<String>,
    /// The tactic being tried (may span several lines).
    pub tactic: String,
    /// Ask for "Try this" code actions at the tactic's first line (`rw?`, `exact?`).
    pub suggestions: bool,
    /// Universe level names `goal` mentions, declared for the block by a `universe … in` line
    /// (an `example` cannot take `.{u}`); empty for most goals.
    pub universes: Vec<String>,
}

/// A top-level command checked for errors and messages only (`#print axioms`, a witness).
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    pub text: String,
    /// Ask for "Try this" code actions at this line of `text` (0-based, column 2), e.g. an
    /// `exact?` line of a proof.
    pub suggest_line: Option<u32>,
}

impl Command {
    /// A command checked for diagnostics only.
    pub fn new(text: impl Into<String>) -> Command {
        Command {
            text: text.into(),
            suggest_line: None,
        }
    }
}

/// The one goal left after a tactic.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// The goal's type as displayed (whitespace collapsed): the dedup key.
    pub text: String,
    /// Its operator tree ([`tree_of`] of the goal type).
    pub tree: Tree,
    /// The two sides when the goal is an `=` or `↔` with exactly two tagged sides.
    pub sides: Option<(Tree, Tree)>,
}

/// How a tactic ended (classified in this order: errors first, then goals).
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// An error diagnostic in the block's lines (first message).
    Error(String),
    /// No goals after the tactic.
    Closed,
    /// Exactly one goal.
    Open(Goal),
    /// Several goals (an invalid search node).
    Several(usize),
    /// No goal information at the sentinel and no error (logged; treated as a failure).
    NoInfo,
}

/// A block's outcome and, when asked for, its "Try this" suggestions.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockResult {
    pub outcome: Outcome,
    pub suggestions: Vec<String>,
}

/// A command's diagnostics (severity, message text).
#[derive(Clone, Debug, PartialEq)]
pub struct CommandResult {
    pub errors: Vec<String>,
    /// The same errors with their line, counted from the command's first line.
    pub error_lines: Vec<(u32, String)>,
    pub messages: Vec<(u64, String)>,
    /// "Try this" suggestions at `Command::suggest_line`.
    pub suggestions: Vec<String>,
}

/// A statement declared in a scratch document under a hidden name.
#[derive(Clone, Debug, PartialEq)]
pub struct Declared {
    /// `_tt.S<k>._stmt`: a component starting with `_` keeps it out of `exact?`/`rw?`
    /// candidates (design §7.2; `allowCompletion` rejects internal names).
    pub name: String,
    /// The statement's own errors (it does not typecheck) — empty when it does.
    pub errors: Vec<String>,
    /// It typechecks only with auto-bound implicits (fails under `autoImplicit false`).
    pub autobound: bool,
    /// How many universe parameters the hidden axiom has, when asked for.
    pub universes: UniverseArity,
}

/// Most universe parameters [`Oracle::declare_probing`] tells apart; a statement with more is
/// [`UniverseArity::Unknown`].
pub const MAX_UNIVERSE_ARITY: usize = 4;

/// The number of universe parameters of a declared statement, from its probes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UniverseArity {
    /// No probe was asked for.
    NotProbed,
    /// Exactly this many.
    Known(usize),
    /// The probes did not tell (why).
    Unknown(String),
}

/// A statement to declare under a hidden name.
#[derive(Clone, Copy, Debug)]
pub struct Declaration<'a> {
    /// Its header's non-import lines (`open`, `variable`, …).
    pub preamble: &'a str,
    /// Its signature (`binders : type`).
    pub signature: &'a str,
    /// Also probe the number of its universe parameters (in the same version).
    pub probe_universes: bool,
}

/// The message `Lean.Elab.Term.mkConst` (src/Lean/Elab/Term.lean) throws when a constant is
/// given more explicit universe levels than it has: "too many explicit universe levels for
/// '<c>'" (older versions quote with `'…'`, newer ones with backticks; the prefix is stable).
const TOO_MANY_LEVELS: &str = "too many explicit universe levels";

/// The universe probe with `k` levels for the hidden constant `name` (design §7.2 step 3):
/// `universe u in #check @name.{u, …, u}`. `#check` of a term that is not a bare identifier
/// elaborates it with `Term.elabTerm`, whose constant case goes through `mkConst`: more levels
/// than the constant has throw [`TOO_MANY_LEVELS`]; fewer are filled with fresh level
/// metavariables, which `#check` turns into parameters (`Term.levelMVarToParam` in
/// `Lean.Elab.Command.elabCheckCore`, src/Lean/Elab/BuiltinCommand.lean) — no error. `@` keeps
/// implicit and instance arguments out, so this elaborates for any axiom. Hence the arity is
/// the largest `k` whose probe has no error.
fn universe_probe(name: &str, k: usize) -> String {
    format!(
        "universe u in #check @{name}.{{{}}}",
        vec!["u"; k].join(", ")
    )
}

/// The arity from the errors of the probes `k = 1, 2, …` (in order): probes without errors,
/// then probes failing with [`TOO_MANY_LEVELS`]; anything else is [`UniverseArity::Unknown`].
fn arity_from_probes(errors: &[Option<&String>]) -> UniverseArity {
    let mut arity = 0;
    for (i, e) in errors.iter().enumerate() {
        let k = i + 1;
        match e {
            None if arity == i => arity = k,
            None => {
                return UniverseArity::Unknown(format!(
                    "the probe with {k} universe level(s) elaborated after one with fewer failed"
                ))
            }
            Some(m) if m.contains(TOO_MANY_LEVELS) => {}
            Some(m) => {
                return UniverseArity::Unknown(format!(
                    "the probe with {k} universe level(s) failed: {m}"
                ))
            }
        }
    }
    if arity == errors.len() {
        UniverseArity::Unknown(format!(
            "more than {} universe parameters",
            errors.len().saturating_sub(1)
        ))
    } else {
        UniverseArity::Known(arity)
    }
}

/// Lines `[start, end)` of a declaration's two probes in the registry.
#[derive(Clone, Debug)]
struct RegistryEntry {
    stmt_line: u32,
    strict_line: u32,
    lines: (u32, u32),
    checked: Option<Declared>,
    /// The first error on the entry's lines outside its statement (its preamble, `section`,
    /// `end`s): Lean could not set up the statement's context.
    outside: Option<String>,
    name: String,
}

struct ScratchDoc {
    uri: String,
    /// The file on disk behind `uri` (when the config names a scratch directory).
    path: Option<std::path::PathBuf>,
    /// Lean's header error, once seen: the document is unusable (see [`OracleError::Header`]).
    header_error: Option<String>,
    /// [`Oracle::warm_up`] has loaded the imports / built the search indexes.
    warm: bool,
    indexed: bool,
    header: String,
    registry: String,
    entries: Vec<RegistryEntry>,
    version: i64,
    opened: bool,
    session: Option<String>,
    active: String,
}

impl ScratchDoc {
    fn text(&self) -> String {
        format!("{}{}{}", self.header, self.registry, self.active)
    }
    fn registry_end_line(&self) -> u32 {
        line_count(&self.header) + line_count(&self.registry)
    }
}

fn line_count(s: &str) -> u32 {
    u32::try_from(s.matches('\n').count()).unwrap_or(u32::MAX)
}

/// Registers a URI as hidden from the editor.
type HideFn = Box<dyn Fn(&str) + Send + Sync>;

/// The oracle over one Lean client. Methods take `&mut self`: one batch at a time per oracle
/// (a scratch document has one active region).
pub struct Oracle<L: LeanRpc> {
    lean: Arc<L>,
    config: OracleConfig,
    docs: HashMap<String, ScratchDoc>,
    counters: Arc<Counters>,
    next_statement: u64,
    /// Behind the editor proxy: registers each scratch URI as hidden before its `didOpen`, so
    /// the router consumes Lean's notifications about it (`LeanClient::hide_uri`).
    hide: Option<HideFn>,
}

/// Words that start a command: a tactic line starting with one would end the `by` block.
const COMMAND_WORDS: [&str; 14] = [
    "theorem",
    "lemma",
    "example",
    "def",
    "axiom",
    "end",
    "import",
    "namespace",
    "section",
    "open",
    "instance",
    "structure",
    "variable",
    "universe",
];

/// Reject tactic text that could escape its block (design §7.6 "sanitize untrusted text").
pub fn check_tactic_text(text: &str) -> Result<(), OracleError> {
    let bad = text.lines().any(|l| {
        let t = l.trim_start();
        t.starts_with('#')
            || COMMAND_WORDS.iter().any(|w| {
                t.strip_prefix(w)
                    .is_some_and(|r| r.is_empty() || r.starts_with(' '))
            })
    }) || text.matches("/-").count() != text.matches("-/").count()
        || text.matches('"').count() % 2 == 1;
    if bad {
        Err(OracleError::UnsafeText { text: text.into() })
    } else {
        Ok(())
    }
}

/// Indent every line of `text` by `n` spaces (continuation lines keep their own indentation).
fn indent(text: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    text.lines()
        .map(|l| format!("{pad}{}", l.trim_end()))
        .collect::<Vec<_>>()
        .join("\n")
}

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
            out.push_str(
                &TaggedText::from_json(expr)
                    .map(|t| t.text())
                    .unwrap_or_default(),
            );
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
    let shape: String = tree
        .label
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '(' && *c != ')')
        .collect();
    if (shape == "_=_" || shape == "_↔_") && tree.children.len() == 2 {
        Some((tree.children[0].clone(), tree.children[1].clone()))
    } else {
        None
    }
}

/// Collapse whitespace (goal dedup key, display).
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Position-free line of a diagnostic (`fullRange` preferred, README §5).
fn diagnostic_line(d: &Value) -> Option<u64> {
    d.pointer("/fullRange/start/line")
        .or_else(|| d.pointer("/range/start/line"))
        .and_then(Value::as_u64)
}

/// Is this error a sign that the worker died or the document is gone (reopen and retry)?
/// `-32901`/`-32902` always; `-32801` only with the texts of a gone worker ([`CLOSED_FILE`],
/// [`TERMINATED`]) — "File changed." is retried by [`Oracle::request`] instead.
fn worker_lost(e: &LeanError) -> bool {
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
fn file_changed(e: &LeanError) -> bool {
    matches!(e, LeanError::Response { code, message, .. }
        if *code == CONTENT_MODIFIED && message.trim() == FILE_CHANGED)
}

/// The suggestion of one code action, when it has the shape of a "Try this" at `line`: kind
/// `quickfix` (or none), and an edit of `uri` (`documentChanges[].edits[]`, or the older
/// `changes{uri: [..]}`) whose range starts on `line`; its `newText`, trimmed.
fn suggestion_of(action: &Value, uri: &str, line: u32) -> Option<String> {
    match action.get("kind").and_then(Value::as_str) {
        None | Some("quickfix") => {}
        Some(_) => return None,
    }
    let edit = action.get("edit")?;
    let mut edits: Vec<&Value> = Vec::new();
    for change in edit
        .get("documentChanges")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let same = change
            .pointer("/textDocument/uri")
            .and_then(Value::as_str)
            .is_none_or(|u| u == uri);
        if same {
            edits.extend(
                change
                    .get("edits")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten(),
            );
        }
    }
    if let Some(list) = edit
        .pointer("/changes")
        .and_then(|c| c.get(uri))
        .and_then(Value::as_array)
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
    let start = d
        .pointer("/fullRange/start")
        .or_else(|| d.pointer("/range/start"))?;
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
fn header_error(diagnostics: &[Value], header_lines: u32) -> Option<String> {
    diagnostics.iter().find_map(|d| {
        let (line, character) = diagnostic_start(d)?;
        let severity = d.get("severity").and_then(Value::as_u64).unwrap_or(1);
        let on_header = line < u64::from(header_lines) || (line == 0 && character == 0);
        (severity == 1 && on_header)
            .then(|| collapse(&message_text(d.get("message").unwrap_or(&Value::Null))))
    })
}

/// Where each block's lines are in the active region.
struct Placed {
    start: u32,
    end: u32,
    tactic_line: u32,
    sentinel_line: u32,
}

impl<L: LeanRpc> Oracle<L> {
    pub fn new(lean: Arc<L>, config: OracleConfig) -> Oracle<L> {
        Oracle {
            lean,
            config,
            docs: HashMap::new(),
            counters: Arc::new(Counters::default()),
            next_statement: 1,
            hide: None,
        }
    }

    /// Behind the router: hide every scratch URI through `client` before opening it.
    pub fn hiding_through(mut self, client: Arc<LeanClient>) -> Oracle<L> {
        self.hide = Some(Box::new(move |uri| client.hide_uri(uri)));
        self
    }

    /// A fresh name `<prefix><n>` (unique per oracle), for namespaces of BEq attempts.
    pub fn fresh_name(&mut self, prefix: &str) -> String {
        let n = self.next_statement;
        self.next_statement += 1;
        format!("{prefix}{n}")
    }

    /// The counters (shared; snapshot them before and after a piece of work).
    pub fn counters(&self) -> Arc<Counters> {
        self.counters.clone()
    }

    /// The scratch document key, which is also its import header: each header's import lines
    /// in that header's own order (the order decides instance and notation priority ties), the
    /// headers taken in a fixed order (so both directions of a pair share one document), later
    /// headers adding only the imports not seen yet.
    pub fn import_key(headers: &[&str]) -> String {
        let mut headers = headers.to_vec();
        headers.sort_unstable();
        let mut imports: Vec<&str> = Vec::new();
        for line in headers.iter().flat_map(|h| h.lines()).map(str::trim) {
            if line.starts_with("import ") && !imports.contains(&line) {
                imports.push(line);
            }
        }
        imports.iter().map(|l| format!("{l}\n")).collect()
    }

    fn doc(&mut self, key: &str) -> &mut ScratchDoc {
        let n = self.docs.len();
        let dir = self
            .config
            .scratch_dir_uri
            .trim_end_matches('/')
            .to_string();
        let on_disk = self.config.scratch_dir.clone();
        self.docs.entry(key.to_string()).or_insert_with(|| {
            let (uri, path) = match on_disk {
                Some(dir) => {
                    let path = super::scratch::new_path(&dir);
                    (super::scratch::file_uri(&path), Some(path))
                }
                None => (format!("{dir}/scratch{n}.lean"), None),
            };
            ScratchDoc {
                uri,
                path,
                header_error: None,
                warm: false,
                indexed: false,
                header: if key.is_empty() {
                    NO_IMPORTS.to_string()
                } else {
                    key.to_string()
                },
                registry: String::new(),
                entries: Vec::new(),
                version: 0,
                opened: false,
                session: None,
                active: String::new(),
            }
        })
    }

    /// The URI of the scratch document for `key` (created lazily).
    pub fn uri_of(&mut self, key: &str) -> String {
        self.doc(key).uri.clone()
    }

    fn timeout(&self, deadline: Instant) -> Duration {
        deadline
            .saturating_duration_since(Instant::now())
            .min(self.config.request_timeout)
    }

    async fn request(
        &self,
        method: &str,
        params: Value,
        deadline: Instant,
    ) -> Result<Value, LeanError> {
        let mut tries = 0;
        loop {
            self.counters.round_trips.fetch_add(1, Ordering::Relaxed);
            match self
                .lean
                .request(method, params.clone(), self.timeout(deadline))
                .await
            {
                Err(e) if file_changed(&e) && tries < FILE_CHANGED_RETRIES => {
                    tries += 1;
                    tracing::debug!(method, "Lean answered \"File changed.\"; asking again");
                }
                other => return other,
            }
        }
    }

    /// Declare statements (each `(preamble, signature)`) under hidden names in the scratch
    /// document for `key`, in one version, and report which typecheck and which need
    /// auto-bound implicits (a second probe under `set_option autoImplicit false in`, design
    /// §7.2 step 3).
    pub async fn declare(
        &mut self,
        key: &str,
        statements: &[(&str, &str)],
        deadline: Instant,
    ) -> Result<Vec<Declared>, OracleError> {
        let plain: Vec<Declaration<'_>> = statements
            .iter()
            .map(|(preamble, signature)| Declaration {
                preamble,
                signature,
                probe_universes: false,
            })
            .collect();
        self.declare_probing(key, &plain, deadline).await
    }

    /// [`Oracle::declare`], and for the statements that ask, their number of universe
    /// parameters: `MAX_UNIVERSE_ARITY + 1` probe commands each ([`universe_probe`]) in the
    /// active region of the same version (one version in all; the registry keeps only the
    /// declarations).
    pub async fn declare_probing(
        &mut self,
        key: &str,
        statements: &[Declaration<'_>],
        deadline: Instant,
    ) -> Result<Vec<Declared>, OracleError> {
        let numbers = self.next_statement..;
        self.next_statement += statements.len() as u64;
        let doc = self.doc(key);
        let mut indices = Vec::new();
        let mut probes = Vec::new();
        // Read every preamble before touching the registry: one that closes a scope it did not
        // open would close the registry's own section.
        let mut scoped = Vec::with_capacity(statements.len());
        for statement in statements {
            let preamble: String = statement
                .preamble
                .lines()
                .filter(|l| {
                    let t = l.trim();
                    !t.starts_with("import ") && !t.contains("maxHeartbeats")
                })
                .map(|l| format!("{l}\n"))
                .collect();
            let scopes = HeaderScopes::read(&preamble).map_err(|e| OracleError::Preamble {
                message: e.to_string(),
            })?;
            scoped.push(scopes);
        }
        for ((first, statement), scopes) in numbers.zip(statements).zip(&scoped) {
            let start = line_count(&doc.header) + line_count(&doc.registry);
            let preamble = scopes.text();
            let sig = statement.signature.replace('\n', " ");
            // Declared inside the namespace the preamble leaves open, so named with it.
            let name = scopes.qualify(&format!("_tt.S{first}._stmt"));
            let closing = scopes.closing();
            let text = format!(
                "section\n{preamble}axiom _tt.S{first}._stmt {sig}\nset_option autoImplicit false in\naxiom _tt.S{first}._strict {sig}\n{closing}end\n"
            );
            let stmt_line = start + 1 + line_count(preamble);
            doc.registry.push_str(&text);
            indices.push(doc.entries.len());
            if statement.probe_universes {
                probes.extend(
                    (1..=MAX_UNIVERSE_ARITY + 1).map(|k| Command::new(universe_probe(&name, k))),
                );
            }
            doc.entries.push(RegistryEntry {
                stmt_line,
                strict_line: stmt_line + 2,
                lines: (start, start + line_count(&text)),
                checked: None,
                outside: None,
                name,
            });
        }
        let (_, probed) = self.run(key, &[], &probes, deadline).await?;
        let mut probed = probed.chunks(MAX_UNIVERSE_ARITY + 1);
        let doc = self.doc(key);
        // An error in a registry entry's own wrapping (its preamble, its scopes) is no verdict
        // on the statement: the run fails.
        if let Some(message) = indices
            .iter()
            .find_map(|&i| doc.entries.get(i).and_then(|e| e.outside.clone()))
        {
            return Err(OracleError::Preamble { message });
        }
        let mut out = Vec::with_capacity(indices.len());
        for (i, statement) in indices.into_iter().zip(statements) {
            // Each probing statement's chunk is taken even when the entry is missing, so the
            // next statement reads its own probes.
            let arity = statement.probe_universes.then(|| {
                let errors: Vec<Option<&String>> = probed
                    .next()
                    .unwrap_or_default()
                    .iter()
                    .map(|r| r.errors.first())
                    .collect();
                arity_from_probes(&errors)
            });
            let Some(mut declared) = doc.entries.get(i).and_then(|e| e.checked.clone()) else {
                continue;
            };
            if let Some(arity) = arity {
                declared.universes = arity;
            }
            out.push(declared);
        }
        Ok(out)
    }

    /// The universe arity of already declared statements (by their hidden names), from
    /// [`universe_probe`]s in one version: for statements whose universe parameters only show
    /// after declaring them (auto-bound implicit names elaborate to `Sort u_1`).
    pub async fn probe_universes(
        &mut self,
        key: &str,
        names: &[&str],
        deadline: Instant,
    ) -> Result<Vec<UniverseArity>, OracleError> {
        let probes: Vec<Command> = names
            .iter()
            .flat_map(|n| {
                (1..=MAX_UNIVERSE_ARITY + 1).map(move |k| Command::new(universe_probe(n, k)))
            })
            .collect();
        let (_, probed) = self.run(key, &[], &probes, deadline).await?;
        Ok(probed
            .chunks(MAX_UNIVERSE_ARITY + 1)
            .map(|chunk| {
                let errors: Vec<Option<&String>> = chunk.iter().map(|r| r.errors.first()).collect();
                arity_from_probes(&errors)
            })
            .collect())
    }

    /// Run one batch: every block as its own `example`, every command as top-level text, in one
    /// document version. Results in the order given.
    pub async fn run(
        &mut self,
        key: &str,
        blocks: &[Block],
        commands: &[Command],
        deadline: Instant,
    ) -> Result<(Vec<BlockResult>, Vec<CommandResult>), OracleError> {
        let doc = self.doc(key);
        if let Some(message) = doc.header_error.clone() {
            return Err(OracleError::Header {
                uri: doc.uri.clone(),
                message,
            });
        }
        for b in blocks {
            check_tactic_text(&b.tactic)?;
            for p in &b.path {
                check_tactic_text(p)?;
            }
        }
        match self.run_once(key, blocks, commands, deadline).await {
            Err(OracleError::Lean { source, .. }) if worker_lost(&source) => {
                // The worker died or lost the file: reopen (replays the registry) and retry once.
                self.counters.reopens.fetch_add(1, Ordering::Relaxed);
                let doc = self.doc(key);
                doc.opened = false;
                doc.session = None;
                let uri = doc.uri.clone();
                tracing::warn!(%uri, %source, "Lean worker lost; reopening the scratch document");
                let _ = self
                    .lean
                    .notify(
                        "textDocument/didClose",
                        json!({"textDocument": {"uri": uri}}),
                    )
                    .await;
                match self.run_once(key, blocks, commands, deadline).await {
                    Err(OracleError::Lean { uri, source }) if worker_lost(&source) => {
                        Err(OracleError::WorkerLost { uri, source })
                    }
                    other => other,
                }
            }
            other => other,
        }
    }

    async fn run_once(
        &mut self,
        key: &str,
        blocks: &[Block],
        commands: &[Command],
        deadline: Instant,
    ) -> Result<(Vec<BlockResult>, Vec<CommandResult>), OracleError> {
        let heartbeats = self.config.heartbeats.max(1);
        let doc = self.doc(key);
        let base = doc.registry_end_line();
        let mut active = String::new();
        let mut placed = Vec::new();
        for b in blocks {
            let start = base + line_count(&active);
            let mut text = format!("set_option maxHeartbeats {heartbeats} in\n");
            if !b.universes.is_empty() {
                text.push_str(&format!("universe {} in\n", b.universes.join(" ")));
            }
            text.push_str(&format!("example : {} := by\n", b.goal.replace('\n', " ")));
            for p in &b.path {
                text.push_str(&indent(p, 2));
                text.push('\n');
            }
            let tactic_line = start + line_count(&text);
            text.push_str(&indent(&b.tactic, 2));
            text.push('\n');
            let sentinel_line = start + line_count(&text);
            text.push_str("  all_goals sorry\n\n");
            placed.push(Placed {
                start,
                end: start + line_count(&text),
                tactic_line,
                sentinel_line,
            });
            active.push_str(&text);
        }
        let mut command_lines = Vec::new();
        for c in commands {
            let start = base + line_count(&active);
            active.push_str(&c.text);
            active.push_str("\n\n");
            command_lines.push((start, base + line_count(&active)));
        }
        doc.active = active;
        let uri = doc.uri.clone();
        let lean_err = |source| OracleError::Lean {
            uri: uri.clone(),
            source,
        };

        self.ensure_file(key)?;
        let version = self.send_text(key).await.map_err(lean_err)?;
        // Barrier: all diagnostics of `version` are out (README §4). Waited for in slices: a
        // worker whose header failed may never answer it (src/Lean/Server/FileWorker.lean:
        // `handleRequest` binds it to `srcSearchPathTask`, and on some versions `setupImports`
        // resolves that promise only after a successful header), so between slices the header
        // is checked through `getInteractiveDiagnostics`, which `handleRequest` answers without
        // the search path.
        loop {
            let slice = deadline.min(Instant::now() + self.config.barrier_slice);
            match self
                .request(
                    "textDocument/waitForDiagnostics",
                    json!({"uri": uri, "version": version}),
                    slice,
                )
                .await
            {
                Ok(_) => break,
                Err(LeanError::Timeout { .. }) => {
                    if let Some(e) = self.header_error_now(key).await {
                        return Err(e);
                    }
                    if Instant::now() >= deadline {
                        self.abandon(key).await;
                        return Err(OracleError::Deadline { uri });
                    }
                }
                Err(e) => return Err(lean_err(e)),
            }
        }
        let total_lines = line_count(&self.doc(key).text()) + 1;
        let diagnostics = self
            .rpc(
                key,
                "Lean.Widget.getInteractiveDiagnostics",
                json!({"lineRange": {"start": 0, "end": total_lines}}),
                json!({"line": 0, "character": 0}),
                deadline,
            )
            .await?;
        self.check_header(key, &diagnostics)?;
        let diagnostics: Vec<(u64, u64, String)> = diagnostics
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
            .collect();
        let in_lines = |s: u32, e: u32| {
            diagnostics
                .iter()
                .filter(move |(l, _, _)| *l >= u64::from(s) && *l < u64::from(e))
        };

        // Registry entries not yet checked: their own errors and the strict probe.
        let entries: Vec<(usize, RegistryEntry)> = self
            .doc(key)
            .entries
            .iter()
            .cloned()
            .enumerate()
            .filter(|(_, e)| e.checked.is_none())
            .collect();
        for (i, e) in entries {
            let errors: Vec<String> = in_lines(e.stmt_line, e.stmt_line + 1)
                .filter(|(_, sev, _)| *sev == 1)
                .map(|(_, _, m)| m.clone())
                .collect();
            // The statement's two lines and the `set_option … in` between them are its own;
            // every other line of the entry is wrapping.
            let outside = in_lines(e.lines.0, e.lines.1)
                .find(|(l, sev, _)| {
                    *sev == 1 && (*l < u64::from(e.stmt_line) || *l > u64::from(e.strict_line))
                })
                .map(|(_, _, m)| m.clone());
            let strict_errors = in_lines(e.strict_line, e.strict_line + 1)
                .filter(|(_, sev, _)| *sev == 1)
                .count();
            let checked = Declared {
                name: e.name.clone(),
                autobound: errors.is_empty() && strict_errors > 0,
                errors,
                universes: UniverseArity::NotProbed,
            };
            if let Some(slot) = self.doc(key).entries.get_mut(i) {
                slot.checked = Some(checked);
                slot.outside = outside;
            }
        }

        let mut results = Vec::with_capacity(blocks.len());
        for (b, p) in blocks.iter().zip(&placed) {
            self.counters.blocks.fetch_add(1, Ordering::Relaxed);
            let first_error = in_lines(p.start, p.end)
                .find(|(_, sev, _)| *sev == 1)
                .map(|(_, _, m)| m.clone());
            let suggestions = if b.suggestions {
                self.suggestions(key, p.tactic_line, deadline).await?
            } else {
                Vec::new()
            };
            let outcome = match first_error {
                Some(m) => Outcome::Error(m),
                None => self.goal_at(key, p.sentinel_line, deadline).await?,
            };
            results.push(BlockResult {
                outcome,
                suggestions,
            });
        }
        let mut command_results = Vec::with_capacity(commands.len());
        for (c, (s, e)) in commands.iter().zip(&command_lines) {
            let suggestions = match c.suggest_line {
                Some(l) => self.suggestions(key, s + l, deadline).await?,
                None => Vec::new(),
            };
            command_results.push(CommandResult {
                errors: in_lines(*s, *e)
                    .filter(|(_, sev, _)| *sev == 1)
                    .map(|(_, _, m)| m.clone())
                    .collect(),
                error_lines: in_lines(*s, *e)
                    .filter(|(_, sev, _)| *sev == 1)
                    .map(|(l, _, m)| (u32::try_from(*l).unwrap_or(u32::MAX) - s, m.clone()))
                    .collect(),
                messages: in_lines(*s, *e)
                    .map(|(_, sev, m)| (*sev, m.clone()))
                    .collect(),
                suggestions,
            });
        }
        Ok((results, command_results))
    }

    /// The file behind a scratch document exists on disk before its `didOpen` (see
    /// [`super::scratch`]); a no-op for an open document or one without a file.
    fn ensure_file(&mut self, key: &str) -> Result<(), OracleError> {
        let doc = self.doc(key);
        if doc.opened {
            return Ok(());
        }
        let Some(path) = doc.path.clone() else {
            return Ok(());
        };
        let text = doc.text();
        super::scratch::write(&path, &text).map_err(|e| OracleError::Scratch {
            path: path.display().to_string(),
            error: e.to_string(),
        })
    }

    /// The header error Lean reports now, if any, read through `getInteractiveDiagnostics` with
    /// a short bound of its own (used while a barrier is not answered).
    async fn header_error_now(&mut self, key: &str) -> Option<OracleError> {
        let lines = line_count(&self.doc(key).header) + 1;
        let deadline = Instant::now() + HEADER_PROBE_TIMEOUT;
        let diagnostics = self
            .rpc(
                key,
                "Lean.Widget.getInteractiveDiagnostics",
                json!({"lineRange": {"start": 0, "end": lines}}),
                json!({"line": 0, "character": 0}),
                deadline,
            )
            .await
            .ok()?;
        self.check_header(key, &diagnostics).err()
    }

    /// After a barrier: a header error ends the batch (and every later one on these imports)
    /// with [`OracleError::Header`], never a result (issue 11 item 1).
    fn check_header(&mut self, key: &str, diagnostics: &Value) -> Result<(), OracleError> {
        let doc = self.doc(key);
        let header_lines = line_count(&doc.header);
        let list = diagnostics.as_array().map(Vec::as_slice).unwrap_or(&[]);
        match header_error(list, header_lines) {
            Some(message) => {
                tracing::warn!(uri = %doc.uri, %message, "Lean reported a header error");
                doc.header_error = Some(message.clone());
                Err(OracleError::Header {
                    uri: doc.uri.clone(),
                    message,
                })
            }
            None => Ok(()),
        }
    }

    /// Open the scratch document for `key` and wait until Lean has loaded its imports (and,
    /// with `index`, built the `exact?` / `rw?` indexes of the worker), bounded by the
    /// configured `load_timeout`, not by any pair's time limit: the first open imports Mathlib
    /// and may build dependencies, and the first `exact?`/`rw?` builds its lazy discrimination
    /// tree (src/Lean/Meta/LazyDiscrTree.lean; `exact?` and `rw?` each keep one per
    /// environment) outside the heartbeat limit. Returns the time it took (zero when already
    /// warm). A header error comes out here, as [`OracleError::Header`].
    pub async fn warm_up(&mut self, key: &str, index: bool) -> Result<Duration, OracleError> {
        let doc = self.doc(key);
        if doc.warm && (doc.indexed || !index) {
            return Ok(Duration::ZERO);
        }
        let start = Instant::now();
        let deadline = start + self.config.load_timeout;
        let mut commands = Vec::new();
        if index {
            // Goals `exact?` / `rw?` cannot close from local hypotheses, so each consults its
            // library index (core Lean has `Nat.add_comm`); their results are not read.
            commands.push(Command::new(
                "set_option maxHeartbeats 0 in
example (a b : Nat) : a + b = b + a := by
  exact?",
            ));
            commands.push(Command::new(
                "set_option maxHeartbeats 0 in
example (a b : Nat) : a + b = b + a := by
  rw?",
            ));
        }
        let saved = std::mem::replace(&mut self.config.request_timeout, self.config.load_timeout);
        let r = self.run(key, &[], &commands, deadline).await;
        self.config.request_timeout = saved;
        r?;
        let doc = self.doc(key);
        doc.warm = true;
        doc.indexed |= index;
        Ok(start.elapsed())
    }

    /// Close and forget the scratch documents whose header failed, so the next batch opens them
    /// afresh (a new worker runs `lake setup-file` again: the user may have rebuilt the imports
    /// meanwhile). For the editor; a batch run stops at the first header error instead.
    pub async fn discard_failed_headers(&mut self) {
        let failed: Vec<String> = self
            .docs
            .iter()
            .filter(|(_, d)| d.header_error.is_some())
            .map(|(k, _)| k.clone())
            .collect();
        for key in failed {
            let Some(doc) = self.docs.remove(&key) else {
                continue;
            };
            if doc.opened {
                let _ = self
                    .lean
                    .notify(
                        "textDocument/didClose",
                        json!({"textDocument": {"uri": doc.uri}}),
                    )
                    .await;
            }
            if let Some(path) = &doc.path {
                super::scratch::remove(path);
            }
        }
    }

    /// The header error seen on any scratch document, if any (batch runs stop on it).
    pub fn header_failure(&self) -> Option<OracleError> {
        self.docs.values().find_map(|d| {
            d.header_error.as_ref().map(|m| OracleError::Header {
                uri: d.uri.clone(),
                message: m.clone(),
            })
        })
    }

    /// Send the document's current text as a new version (didOpen the first time).
    async fn send_text(&mut self, key: &str) -> Result<i64, LeanError> {
        let doc = self.doc(key);
        doc.version += 1;
        let version = doc.version;
        let uri = doc.uri.clone();
        let text = doc.text();
        let opened = doc.opened;
        doc.opened = true;
        self.counters.versions.fetch_add(1, Ordering::Relaxed);
        if opened {
            self.lean
                .notify(
                    "textDocument/didChange",
                    json!({"textDocument": {"uri": uri, "version": version},
                           "contentChanges": [{"text": text}]}),
                )
                .await?;
        } else {
            if let Some(hide) = &self.hide {
                hide(&uri);
            }
            self.lean
                .notify(
                    "textDocument/didOpen",
                    json!({"textDocument": {"uri": uri, "languageId": "lean4",
                                            "version": version, "text": text}}),
                )
                .await?;
        }
        Ok(version)
    }

    /// Deadline passed: replace the active region with nothing, which supersedes (and so
    /// cancels) the running elaboration (design §7.8).
    async fn abandon(&mut self, key: &str) {
        self.doc(key).active.clear();
        let _ = self.send_text(key).await;
    }

    /// Cancel whatever the scratch document for `key` is elaborating (an edit supersedes it).
    pub async fn cancel(&mut self, key: &str) {
        if self.doc(key).opened {
            self.abandon(key).await;
        }
    }

    /// Close every scratch document (ends their workers).
    pub async fn close_all(&mut self) {
        for doc in self.docs.values_mut() {
            if doc.opened {
                let _ = self
                    .lean
                    .notify(
                        "textDocument/didClose",
                        json!({"textDocument": {"uri": doc.uri}}),
                    )
                    .await;
                doc.opened = false;
                doc.session = None;
            }
            if let Some(path) = &doc.path {
                super::scratch::remove(path);
            }
        }
    }

    /// One `$/lean/rpc/call`, connecting first and reconnecting once on `-32900`.
    async fn rpc(
        &mut self,
        key: &str,
        method: &str,
        params: Value,
        position: Value,
        deadline: Instant,
    ) -> Result<Value, OracleError> {
        let uri = self.doc(key).uri.clone();
        let lean_err = |source| OracleError::Lean {
            uri: uri.clone(),
            source,
        };
        let mut retried = false;
        loop {
            let session = match self.doc(key).session.clone() {
                Some(s) => s,
                None => {
                    let r = self
                        .request("$/lean/rpc/connect", json!({"uri": uri}), deadline)
                        .await
                        .map_err(lean_err)?;
                    let s = r
                        .get("sessionId")
                        .and_then(Value::as_str)
                        .ok_or_else(|| OracleError::Shape {
                            uri: uri.clone(),
                            what: format!("rpc/connect result {r}"),
                        })?
                        .to_string();
                    self.doc(key).session = Some(s.clone());
                    s
                }
            };
            let call = json!({
                "textDocument": {"uri": uri},
                "position": position,
                "sessionId": session,
                "method": method,
                "params": params,
            });
            match self.request("$/lean/rpc/call", call, deadline).await {
                Ok(v) => {
                    let mut refs = Vec::new();
                    super::goals::rpc_refs(&v, &mut refs);
                    if !refs.is_empty() {
                        let _ = self
                            .lean
                            .notify(
                                "$/lean/rpc/release",
                                json!({"uri": uri, "sessionId": session, "refs": refs}),
                            )
                            .await;
                    }
                    return Ok(v);
                }
                Err(LeanError::Response { code, .. })
                    if code == RPC_NEEDS_RECONNECT && !retried =>
                {
                    retried = true;
                    self.doc(key).session = None;
                }
                Err(LeanError::Timeout { .. }) => {
                    self.abandon(key).await;
                    return Err(OracleError::Deadline { uri });
                }
                Err(e) => return Err(lean_err(e)),
            }
        }
    }

    /// Goals at the sentinel: `[]` closed, one goal open, several invalid, `null` no info.
    async fn goal_at(
        &mut self,
        key: &str,
        line: u32,
        deadline: Instant,
    ) -> Result<Outcome, OracleError> {
        let uri = self.doc(key).uri.clone();
        let position = json!({"line": line, "character": 2});
        let r = self
            .rpc(
                key,
                "Lean.Widget.getInteractiveGoals",
                json!({"textDocument": {"uri": uri}, "position": position}),
                position.clone(),
                deadline,
            )
            .await?;
        if r.is_null() {
            tracing::warn!(%uri, line, "no goal information at the sentinel and no error");
            return Ok(Outcome::NoInfo);
        }
        let goals = r
            .get("goals")
            .and_then(Value::as_array)
            .ok_or_else(|| OracleError::Shape {
                uri: uri.clone(),
                what: "getInteractiveGoals result without `goals`".into(),
            })?;
        match goals.as_slice() {
            [] => Ok(Outcome::Closed),
            [g] => {
                let ty = g
                    .get("type")
                    .and_then(TaggedText::from_json)
                    .ok_or_else(|| OracleError::Shape {
                        uri: uri.clone(),
                        what: "goal without a TaggedText `type`".into(),
                    })?;
                let tree = tree_of(&ty);
                Ok(Outcome::Open(Goal {
                    text: collapse(&ty.text()),
                    sides: two_sides(&tree),
                    tree,
                }))
            }
            several => Ok(Outcome::Several(several.len())),
        }
    }

    /// "Try this" suggestions at `line` from code actions, taken by shape, not by title
    /// (titles are configurable, `codeActionPrefix?` in src/Lean/Meta/Tactic/TryThis.lean):
    /// quickfixes whose edit replaces a range starting on `line` (the suggesting tactic's
    /// span, `codeAction.try-this.result.json`); their `newText` is the suggestion.
    async fn suggestions(
        &mut self,
        key: &str,
        line: u32,
        deadline: Instant,
    ) -> Result<Vec<String>, OracleError> {
        let uri = self.doc(key).uri.clone();
        let at = json!({"line": line, "character": 2});
        let r = self
            .request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": uri}, "range": {"start": at, "end": at},
                       "context": {"diagnostics": []}}),
                deadline,
            )
            .await
            .map_err(|source| OracleError::Lean {
                uri: uri.clone(),
                source,
            })?;
        let mut out = Vec::new();
        for action in r.as_array().into_iter().flatten() {
            if let Some(text) = suggestion_of(action, &uri, line) {
                if !text.is_empty() && !out.contains(&text) {
                    out.push(text);
                }
            }
        }
        Ok(out)
    }
}

impl<L: LeanRpc> Drop for Oracle<L> {
    /// The scratch files go with the oracle (a dying batch job or proxy leaves none behind;
    /// Lean's worker for a file that is gone is harmless and ends with the server).
    fn drop(&mut self) {
        for doc in self.docs.values() {
            if let Some(path) = &doc.path {
                super::scratch::remove(path);
            }
        }
    }
}

/// A [`LeanClient`] talking straight to a server's stdio (no editor, no router): a writer task
/// frames queued bodies, a reader task completes own requests, answers server→client requests
/// with `null` (e.g. `client/registerCapability`, `wire.register-capability-request.json`) and
/// drops notifications. When the server's output ends every waiter gets `Closed`.
pub fn connect_direct<R, W>(reader: R, mut writer: W) -> Arc<LeanClient>
where
    R: AsyncBufRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (to_lean, mut queue) = mpsc::channel::<Vec<u8>>(256);
    let pending = Arc::new(PendingTable::new());
    let client = Arc::new(LeanClient::new(to_lean.clone(), pending.clone()));
    tokio::spawn(async move {
        while let Some(body) = queue.recv().await {
            if crate::wire::write_frame(&mut writer, &body).await.is_err() {
                break;
            }
        }
    });
    tokio::spawn(async move {
        let mut frames = crate::wire::FrameReader::new(reader, "lean→oracle");
        while let Ok(Some(frame)) = frames.read_frame().await {
            let Ok(msg) = serde_json::from_slice::<Value>(&frame.bytes) else {
                continue;
            };
            let id = msg.get("id");
            match (id, msg.get("method")) {
                (Some(id), Some(_)) => {
                    let reply = json!({"jsonrpc": "2.0", "id": id, "result": null});
                    if let Ok(bytes) = serde_json::to_vec(&reply) {
                        let _ = to_lean.send(bytes).await;
                    }
                }
                (Some(id), None) => {
                    let Some(own) = id.as_str().and_then(OwnId::parse) else {
                        continue;
                    };
                    let reply = match msg.get("error") {
                        Some(e) => Reply::Error {
                            code: e.get("code").and_then(Value::as_i64).unwrap_or(0),
                            message: e
                                .get("message")
                                .and_then(Value::as_str)
                                .unwrap_or_default()
                                .to_string(),
                            data: e.get("data").cloned(),
                        },
                        None => Reply::Result(msg.get("result").cloned().unwrap_or(Value::Null)),
                    };
                    pending.complete(&own, reply);
                }
                _ => {}
            }
        }
        pending.drain();
    });
    client
}

/// `initialize` + `initialized` for a direct connection (LSP; Lean answers with
/// `wire.initialize-response.json`).
pub async fn initialize(
    client: &LeanClient,
    root_uri: Option<&str>,
    timeout: Duration,
) -> Result<Value, LeanError> {
    let r = client
        .request(
            "initialize",
            json!({"processId": std::process::id(), "rootUri": root_uri, "capabilities": {}}),
            timeout,
        )
        .await?;
    client.notify("initialized", json!({})).await?;
    Ok(r)
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
        assert_eq!(
            message_text(&r[0]["message"]),
            "mutable variable `x` cannot be shadowed"
        );
    }

    #[test]
    fn tactic_text_that_escapes_its_block_is_rejected() {
        assert!(check_tactic_text("rw [Nat.add_comm]").is_ok());
        assert!(check_tactic_text("apply forall_congr; intro x_1").is_ok());
        assert!(check_tactic_text("simp\ntheorem evil : False := sorry").is_err());
        assert!(check_tactic_text("#print axioms x").is_err());
        assert!(check_tactic_text("exact (by /- unterminated").is_err());
        assert!(check_tactic_text("endgame_tactic").is_ok());
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

    #[test]
    fn universe_arity_is_the_last_probe_without_error() {
        let too_many = "too many explicit universe levels for '_tt.S1._stmt'".to_string();
        let newer = "too many explicit universe levels for `_tt.S1._stmt`".to_string();
        let other = "unknown universe level 'u'".to_string();
        let arity = |e: &[Option<&String>]| arity_from_probes(e);
        assert_eq!(
            arity(&[Some(&too_many), Some(&too_many), Some(&too_many)]),
            UniverseArity::Known(0)
        );
        assert_eq!(
            arity(&[None, None, Some(&newer), Some(&newer)]),
            UniverseArity::Known(2)
        );
        assert!(matches!(
            arity(&[None, Some(&other), Some(&too_many)]),
            UniverseArity::Unknown(m) if m.contains("with 2 universe level(s) failed: unknown universe level")
        ));
        assert!(matches!(
            arity(&[None, Some(&too_many), None]),
            UniverseArity::Unknown(_)
        ));
        assert!(matches!(
            arity(&[None, None, None]),
            UniverseArity::Unknown(m) if m == "more than 2 universe parameters"
        ));
        assert_eq!(
            universe_probe("_tt.S3._stmt", 2),
            "universe u in #check @_tt.S3._stmt.{u, u}"
        );
    }

    #[test]
    fn import_key_keeps_each_headers_order() {
        let a = "import Mathlib\nimport Aesop\nopen Real\n";
        let b = "import Mathlib\nimport Aesop\nimport Batteries\n";
        let k = Oracle::<LeanClient>::import_key(&[a, b]);
        assert_eq!(k, "import Mathlib\nimport Aesop\nimport Batteries\n");
        assert_eq!(Oracle::<LeanClient>::import_key(&[b, a]), k);
        assert_eq!(
            Oracle::<LeanClient>::import_key(&["import Z\nimport A\n"]),
            "import Z\nimport A\n"
        );
    }
}
