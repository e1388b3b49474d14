//! `lean-standin`: a scripted stand-in for the Lean language server (`lake serve`), for tests
//! and benchmarks. No Lean exists on this machine; this speaks the message shapes recorded in
//! `fixtures/lean-protocol/examples/` (see `fixtures/lean-protocol/README.md`), nothing invented
//! beyond the `standin/*` control methods below.
//!
//! # Default behaviour (recorded shapes)
//! - `initialize` → the result of `wire.initialize-response.json`; `initialized` → the request
//!   `client/registerCapability` with id `"register_lean_watcher"`
//!   (`wire.register-capability-request.json`).
//! - `textDocument/didOpen` / `didChange` → `$/lean/fileProgress` processing 0..EOF
//!   (`wire.fileProgress-processing.json`), `textDocument/publishDiagnostics` (one warning
//!   "declaration uses 'sorry'" per line containing `sorry`, shape of
//!   `wire.publishDiagnostics-with-code.json`; a `didChange` applies its full or ranged
//!   changes as Lean does, `edits.rs`), then `$/lean/fileProgress` with
//!   `processing: []` (`wire.fileProgress-done.json`). `didClose` → `publishDiagnostics` with
//!   `diagnostics: []` (README §3).
//! - `textDocument/waitForDiagnostics` → `{}` (`wire.empty-object-response.json`), after the
//!   version's diagnostics (README §4); for a closed file `-32801`.
//! - `textDocument/hover` → `{range, contents:{kind:"markdown", value:"```lean\n<word>\n```"}}`
//!   (`hover.*.result.json`), `null` off a word.
//! - `textDocument/codeAction` → the "Try this" action of `codeAction.try-this.result.json`
//!   with the request's URI; `codeAction/resolve` → `codeAction.try-this.resolve-result.json`.
//! - `$/lean/rpc/connect {uri}` → `{"sessionId":"<n>"}` (a decimal string, README §7);
//!   `$/lean/rpc/call` with `method: "Lean.Widget.getInteractiveGoals"` →
//!   `interactiveGoals.result.json`; unknown session → `-32900`; `Lean.Widget.getInteractiveDiagnostics` → see below; other RPC methods → `-32601`
//!   "No RPC method 'X' found"; `$/lean/rpc/keepAlive` / `release` → nothing.
//! - `$/lean/plainGoal` → `plainGoal.result.json`.
//! - `shutdown` → `null`; later requests → `-32600`; `exit` → exit 0 after `shutdown`, else 1.
//! - other requests → `-32601`; EOF on stdin → exit 0 after `shutdown`, else 1.
//!
//! # Script (env `LEAN_STANDIN_SCRIPT=FILE`, one JSON rule per line, or the notification
//! `standin/script {"rules":[...]}`)
//! A rule matches a request by `method` (and, for `$/lean/rpc/call`, optionally `rpcMethod`;
//! optionally `uri`, compared with `params.textDocument.uri` or `params.uri`). The first
//! matching rule wins. Fields:
//! - `"result": <json>` or `"error": {"code", "message"}`: the reply;
//! - `"send": [<message>, ...]`: messages written (verbatim) before the reply;
//! - `"delayMs": n`: sleep first; `"stall": true`: never reply, until `$/cancelRequest` for
//!   its id, which gets `-32800`;
//! - `"times": n`: the rule is used n times then dropped (default: forever). Rules with
//!   `times: 1` in sequence script goal transitions, e.g. successive `getInteractiveGoals`.
//! - `"tactics": ["t1", ...]` (added for the Lean oracle): the rule matches only when the
//!   request's position (`params.position`, or `params.range.start` for code actions) is in a
//!   `by` block of the current text of its document whose tactic lines — from the line after the
//!   one ending in `:= by` through the position's line, trimmed, a final `all_goals sorry`
//!   sentinel left out — are exactly these. So a goal query at a block's sentinel matches the
//!   block's path plus tactic, and a code action at a tactic line matches the path up to it.
//! - `"declContains": "text"`: with `tactics`, the block's `:= by` line must contain the text
//!   (tells apart blocks with the same tactics on different goals).
//! - `"headerContains": "text"`: with `tactics`, the block's header — its `:= by` line and the
//!   `… in` lines right above it (`set_option … in`, `universe u in`) — must contain the text.
//! - `"version": n`: matches only while the document is at that version.
//! - `"textContains": "text"`: matches only while the document's current text contains it
//!   (tells apart scratch documents whose file names are not known in advance); with
//!   `standin/diagnostic` rules also `"textLacks": "text"` (only while it does not), which tells
//!   apart successive versions of one document.
//! - `"distinctGoal": true` (for `getInteractiveGoals`): the result is one goal `g<h> = <n>`
//!   distinct for every distinct block (`h` a hash of the block, `n` its tactic count) — an
//!   endless search space for the oracle bench.
//!
//! # Diagnostics through RPC (added for the Lean oracle)
//! `$/lean/rpc/call` of `Lean.Widget.getInteractiveDiagnostics` (with no rule matching it)
//! answers with the diagnostics of the document's current text in the shape of
//! `interactiveDiagnostics.result.json` (message `{"append":[{"tag":[{"expr":{"text":m}},
//! {"text":""}]}]}`, `range` = `fullRange` on one line): one per line matched by a script rule
//! with `"method": "standin/diagnostic"` and either `"tactics": [...]` (the line is the last of
//! those tactic lines, as above) or `"lineContains": "text"`, with `"message"` and
//! `"severity"` (default 1). Only lines inside `params.lineRange` count.
//!
//! A rule `{"method": "standin/universes", "name": "c", "arity": n}` plays Lean's check on
//! explicit universe levels (`Lean.Elab.Term.mkConst`, src/Lean/Elab/Term.lean): every
//! `@c.{l₁, …, lₖ}` with `k > n` on a line gives that line the error "too many explicit universe
//! levels for 'c'"; fewer levels than `n` are fine (Lean fills them with level metavariables).
//!
//! # `rw?` and unsolved goals
//! A `getInteractiveGoals` at a block whose last tactic is `rw?` and which no rule answers is
//! answered as Lean's `rw?` behaves: it rewrites with its first result and then runs `try rfl`
//! (`evalExact`, src/Lean/Elab/Tactic/Rewrites.lean), so the answer is the goals rule for the
//! block's tactics with the `rw?` line replaced by the first suggestion of the `tryThis` rule
//! scripted at that line, then `try rfl`. And a `theorem … := by` whose whole tactic block has
//! a goals rule with goals left gets "unsolved goals" on its `:= by` line in the interactive
//! diagnostics (`Term.reportUnsolvedGoals`, src/Lean/Elab/Tactic/Basic.lean).
//!
//! # Command scopes (src/Lean/Elab/BuiltinCommand.lean)
//! The interactive diagnostics also carry the errors of a model of Lean's command scopes
//! (`scope_errors`): `namespace A.B` and `[noncomputable] section [A.B]` push one scope per name
//! component (`elabNamespace`, `elabSection`, `addScopes`); `end [name]` is checked as the newest
//! `elabEnd` checks it, with its messages ("Invalid `end`: There is no current scope to end",
//! "Missing name after `end`: Expected the current scope name `A`", "Invalid name after `end`:
//! Expected `A`, but found `B`", "Unexpected name `B` after `end`: The current section is
//! unnamed", "… contains too many components"), on the `end` line, and a failing `end` drops no
//! scope (the checks throw before `popScopes`); `open A` adds to the innermost scope
//! (`elabOpen`); `cmd₁ in cmd₂` is a scope around both (`expandInCmd`), so `open A in` reaches
//! the next command only. A rule `{"method": "standin/needsOpen", "ident": "x", "namespace":
//! "A"}` makes every line of an ordinary command that uses the identifier `x` where `A` is
//! neither open nor the current namespace (or a prefix of it) carry the error "Unknown
//! identifier `x`" (the text of `wire.publishDiagnostics-with-code.json`). Only the interactive
//! diagnostics (what the oracle reads) carry these errors.
//!
//! # Failure shapes of a real Lean, each from Lean's source
//! - Header errors: a rule `{"method": "standin/header", "kind": K}` makes every document's
//!   interactive diagnostics carry one error at 0:0–0:0 (severity 1), as a real worker reports a
//!   header it could not process (`diagnosticsOfHeaderError`, src/Lean/Server/FileWorker.lean
//!   `setupImports`; vscode-lean4's `isImportsOutdatedError` checks exactly 0:0–0:0). `K`:
//!   `"outOfDate"` → "Imports are out of date and must be rebuilt; use the \"Restart File\"
//!   command in your editor." (FileWorker.lean, `.importsOutOfDate`); `"setupFailed"` →
//!   "`lake setup-file <path> <imports>` failed:…" (FileWorker/SetupFile.lean, exit code other
//!   than 0/2/3); `"unknownImport"` → "unknown module prefix '<M>'\n\nNo directory '<M>' or file
//!   '<M>.olean' in the search path entries:…" (src/Lean/Util/Path.lean `findOLean`, logged at
//!   the header's start by `Lean.Elab.processHeader`), `<M>` the first import's root. With
//!   `"textContains"`, only while the document's text contains it. With `"searchPathBlocks":
//!   true`, as a worker whose `setupImports` never resolves `srcSearchPathPromise` after a
//!   header error (src/Lean/Server/FileWorker.lean), every request on the document except
//!   `$/lean/rpc/connect` and the RPC `getInteractiveDiagnostics` (answered by `handleRequest`
//!   without the search path) is never answered (until `$/cancelRequest`).
//! - Named errors in rules: `"errorKind"` instead of `"error"`: `"fileChanged"` → -32801
//!   "File changed." (`RequestError.fileChanged`, src/Lean/Server/Requests.lean);
//!   `"closedFile"` → -32801 "Cannot process request to closed file '<uri>'" (Watchdog.lean
//!   `handleRequest`); `"terminated"` → -32801 "The file worker for <uri> has been terminated."
//!   (Watchdog.lean); `"outdatedRpc"` → -32900 "Outdated RPC session" (Server/Rpc/…,
//!   README §7); `"workerExited"` / `"workerCrashed"` → -32901 / -32902 "Server process for
//!   <uri> crashed, see stderr for exception." / "…, likely due to a stack overflow or a bug."
//!   (Watchdog.lean, worker exit code 1 / other).
//! - Worker crash: notification `standin/crashWorker {"uri", "exitCode"}` → `$/lean/fileProgress`
//!   with kind 2 (fatal error) from 0 to EOF (`publishProgressAtPos … fatalError`,
//!   Watchdog.lean), and every request on that URI gets -32901 (exit code 1) / -32902 with the
//!   message above until the next `didChange`/`didOpen` restarts the worker.
//! - Named messages in `standin/diagnostic` rules: `"messageKind"` instead of `"message"`:
//!   `"heartbeats"` → "(deterministic) timeout at `whnf`, maximum number of heartbeats (200000)
//!   has been reached…" (src/Lean/CoreM.lean `throwMaxHeartbeat`); `"exactFailed"` → "`exact?`
//!   could not close the goal. Try `apply?` to see partial suggestions." (src/Lean/Elab/Tactic/
//!   LibrarySearch.lean); `"rwFailed"` → "Could not find any lemmas which can rewrite the goal"
//!   (src/Lean/Elab/Tactic/Rewrites.lean); `"ranOutOfTime"` (severity 3) → "`exact?` stopped
//!   because it was running out of time.\nYou may get better results using `set_option
//!   maxHeartbeats 0`." (src/Lean/Util/Heartbeats.lean `reportOutOfHeartbeats`);
//!   `"axiomsSorry"` / `"axiomsNone"` (severity 3) → "'<c>' depends on axioms: [sorryAx]" /
//!   "'<c>' does not depend on any axioms" for the `#print axioms <c>` on that line
//!   (src/Lean/Elab/Print.lean); "too many explicit universe levels" is `standin/universes`.
//! - "Try this" code actions: a rule `{"method": "textDocument/codeAction", "tryThis":
//!   ["s1", "s2", …]}` answers one quickfix per suggestion in the shape of
//!   `codeAction.try-this.result.json` (title "Try this: <s>", `kind: "quickfix"`, the first
//!   `isPreferred`, an edit whose range starts on the requested line), as `rw?` does with
//!   several suggestions (src/Lean/Meta/Tactic/TryThis.lean `addSuggestions`); `exact?` gives
//!   one, which recent Lean may wrap as `(expose_names; exact h)` when it uses inaccessible
//!   names (src/Lean/Meta/Tactic/TryThis.lean, `expose_names`). `"titlePrefix"` replaces "Try
//!   this: " in the titles (Lean's `codeActionPrefix?`).
//! - Every advertised method is answered: `textDocument/inlayHint`, `documentSymbol`,
//!   `foldingRange`, `documentColor`, `documentHighlight` → `[]`; `semanticTokens/full` and
//!   `/range` → `{"data": []}`; RPC `Lean.Widget.getInteractiveTermGoal` → `null` (Lean's answer
//!   off a term, src/Lean/Server/FileWorker/WidgetRequests.lean).
//!
//! # Control methods (for tests)
//! - request `standin/echo` → `{"received": <the whole request exactly as received>}`;
//! - notification `standin/emit {"messages":[...]}` → each written as a frame, in order
//!   (server→client requests with string or numeric ids, notifications, anything);
//! - notification `standin/emitRaw {"bodies":["...", ...]}` → raw bodies (e.g. not JSON);
//! - notification `standin/badHeader` → writes `Content-Length: oops` (a bad frame header);
//! - notification `standin/crash {"code": n, "stderr": ["line", ...]}` → those lines on
//!   stderr, then exit with status n;
//! - notification `standin/stall {"ms": n}` → stop reading for n ms;
//! - notification `standin/huge {"bytes": n}` → a notification `standin/huge` carrying an
//!   n-byte string; `standin/flood {"count": c, "bytes": n}` → c such notifications
//!   (`standin/flood`), then `standin/floodDone`;
//! - a reply from the client to any server→client request → notification
//!   `standin/replyReceived {"reply": <the reply exactly as received>}`;
//! - env `LEAN_STANDIN_ECHO=1`: every other notification is echoed back as
//!   `standin/echoed {"received": <it exactly as received>}`;
//! - request `standin/pid` → `{"pid": n}`; env `LEAN_STANDIN_IGNORE_EXIT=1`: `exit` and EOF
//!   are ignored and the process hangs (to test the proxy's kill after the grace period);
//! - env `LEAN_STANDIN_RECORD=FILE`: every received body is appended to FILE, one per line.

mod edits;
#[path = "../common/frame.rs"]
mod frame;

use frame::{framed, read_frame};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::io::{BufReader, Write};
use std::time::Duration;

const INITIALIZE: &str =
    include_str!("../../fixtures/lean-protocol/examples/wire.initialize-response.json");
const REGISTER: &str =
    include_str!("../../fixtures/lean-protocol/examples/wire.register-capability-request.json");
const PROGRESS_PROCESSING: &str =
    include_str!("../../fixtures/lean-protocol/examples/wire.fileProgress-processing.json");
const PROGRESS_DONE: &str =
    include_str!("../../fixtures/lean-protocol/examples/wire.fileProgress-done.json");
const DIAGNOSTICS: &str =
    include_str!("../../fixtures/lean-protocol/examples/wire.publishDiagnostics-with-code.json");
const CODE_ACTION: &str =
    include_str!("../../fixtures/lean-protocol/examples/codeAction.try-this.result.json");
const CODE_ACTION_RESOLVE: &str =
    include_str!("../../fixtures/lean-protocol/examples/codeAction.try-this.resolve-result.json");
const GOALS: &str =
    include_str!("../../fixtures/lean-protocol/examples/interactiveGoals.result.json");
const PLAIN_GOAL: &str =
    include_str!("../../fixtures/lean-protocol/examples/plainGoal.result.json");

struct Rule {
    method: String,
    rpc_method: Option<String>,
    uri: Option<String>,
    result: Option<Value>,
    error: Option<Value>,
    send: Vec<Value>,
    delay_ms: u64,
    stall: bool,
    times: Option<u64>,
    tactics: Option<Vec<String>>,
    distinct_goal: bool,
    decl_contains: Option<String>,
    header_contains: Option<String>,
    version: Option<i64>,
    name: Option<String>,
    ident: Option<String>,
    namespace: Option<String>,
    arity: Option<u64>,
    line_contains: Option<String>,
    message: String,
    severity: u64,
    kind: Option<String>,
    error_kind: Option<String>,
    message_kind: Option<String>,
    try_this: Option<Vec<String>>,
    title_prefix: Option<String>,
    text_contains: Option<String>,
    text_lacks: Option<String>,
    search_path_blocks: bool,
}

impl Rule {
    fn parse(v: &Value) -> Option<Rule> {
        Some(Rule {
            method: v.get("method")?.as_str()?.to_string(),
            rpc_method: v.get("rpcMethod").and_then(Value::as_str).map(String::from),
            uri: v.get("uri").and_then(Value::as_str).map(String::from),
            result: v.get("result").cloned(),
            error: v.get("error").cloned(),
            send: v.get("send").and_then(Value::as_array).cloned().unwrap_or_default(),
            delay_ms: v.get("delayMs").and_then(Value::as_u64).unwrap_or(0),
            stall: v.get("stall").and_then(Value::as_bool).unwrap_or(false),
            times: v.get("times").and_then(Value::as_u64),
            tactics: v
                .get("tactics")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).map(String::from).collect()),
            distinct_goal: v.get("distinctGoal").and_then(Value::as_bool).unwrap_or(false),
            decl_contains: v.get("declContains").and_then(Value::as_str).map(String::from),
            header_contains: v.get("headerContains").and_then(Value::as_str).map(String::from),
            version: v.get("version").and_then(Value::as_i64),
            name: v.get("name").and_then(Value::as_str).map(String::from),
            ident: v.get("ident").and_then(Value::as_str).map(String::from),
            namespace: v.get("namespace").and_then(Value::as_str).map(String::from),
            arity: v.get("arity").and_then(Value::as_u64),
            line_contains: v.get("lineContains").and_then(Value::as_str).map(String::from),
            message: v.get("message").and_then(Value::as_str).unwrap_or("").to_string(),
            severity: v.get("severity").and_then(Value::as_u64).unwrap_or(1),
            kind: v.get("kind").and_then(Value::as_str).map(String::from),
            error_kind: v.get("errorKind").and_then(Value::as_str).map(String::from),
            message_kind: v.get("messageKind").and_then(Value::as_str).map(String::from),
            try_this: v
                .get("tryThis")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).map(String::from).collect()),
            title_prefix: v.get("titlePrefix").and_then(Value::as_str).map(String::from),
            text_contains: v.get("textContains").and_then(Value::as_str).map(String::from),
            text_lacks: v.get("textLacks").and_then(Value::as_str).map(String::from),
            search_path_blocks: v.get("searchPathBlocks").and_then(Value::as_bool).unwrap_or(false),
        })
    }

    /// Whether the document state satisfies the rule's `tactics` / `version` conditions.
    fn matches_document(&self, params: &Value, docs: &HashMap<String, Doc>) -> bool {
        if self.tactics.is_none() && self.version.is_none() && self.text_contains.is_none() {
            return true;
        }
        let Some(doc) = uri_of(params).and_then(|u| docs.get(&u)) else {
            return false;
        };
        if let Some(t) = &self.text_contains {
            if !doc.text.contains(t.as_str()) {
                return false;
            }
        }
        if self.version.is_some_and(|v| v != doc.version) {
            return false;
        }
        if let Some(want) = &self.tactics {
            let line = params
                .pointer("/position/line")
                .or_else(|| params.pointer("/range/start/line"))
                .and_then(Value::as_u64);
            let Some(line) = line else { return false };
            return self.block_matches(&doc.text, line as usize, want);
        }
        true
    }

    /// `tactics` (and `declContains`, `headerContains`) against the block around `line`.
    fn block_matches(&self, text: &str, line: usize, want: &[String]) -> bool {
        match tactics_at(text, line) {
            Some((decl, tactics)) => {
                tactics == want
                    && self.decl_contains.as_ref().is_none_or(|c| decl.contains(c.as_str()))
                    && self.header_contains.as_ref().is_none_or(|c| {
                        block_header(text, line).is_some_and(|h| h.contains(c.as_str()))
                    })
            }
            None => false,
        }
    }

    /// `standin/universes`: the "too many explicit universe levels" message for `line`, if it
    /// gives the rule's constant more levels than its arity.
    fn too_many_levels(&self, line: &str) -> Option<String> {
        let (name, arity) = (self.name.as_ref()?, self.arity?);
        let pattern = format!("@{name}.{{");
        let mut rest = line;
        while let Some(at) = rest.find(&pattern) {
            rest = &rest[at + pattern.len()..];
            let levels = rest.split('}').next().unwrap_or("").split(',').count() as u64;
            if levels > arity {
                return Some(format!("too many explicit universe levels for '{name}'"));
            }
        }
        None
    }

    fn matches(&self, method: &str, params: &Value) -> bool {
        if self.method != method {
            return false;
        }
        if let Some(rpc) = &self.rpc_method {
            if params.get("method").and_then(Value::as_str) != Some(rpc) {
                return false;
            }
        }
        if let Some(uri) = &self.uri {
            if uri_of(params).as_deref() != Some(uri) {
                return false;
            }
        }
        true
    }
}

/// The `:= by` line of the block around `line` and its tactic lines up to `line` (see the
/// module doc, `tactics`).
fn tactics_at(text: &str, line: usize) -> Option<(String, Vec<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let upto = lines.get(..=line)?;
    let start = upto.iter().rposition(|l| l.trim_end().ends_with(":= by"))?;
    let mut out: Vec<String> = upto[start + 1..].iter().map(|l| l.trim().to_string()).collect();
    if out.last().is_some_and(|l| l == "all_goals sorry") {
        out.pop();
    }
    Some((upto[start].to_string(), out))
}

/// The header of the block around `line`: its `:= by` line and the `… in` lines right above.
fn block_header(text: &str, line: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let upto = lines.get(..=line)?;
    let start = upto.iter().rposition(|l| l.trim_end().ends_with(":= by"))?;
    let first =
        upto[..start].iter().rposition(|l| !l.trim_end().ends_with(" in")).map_or(0, |i| i + 1);
    Some(upto[first..=start].join("\n"))
}

fn uri_of(params: &Value) -> Option<String> {
    params
        .pointer("/textDocument/uri")
        .or_else(|| params.get("uri"))
        .and_then(Value::as_str)
        .map(String::from)
}

/// One interactive diagnostic covering line `n` (shape of `interactiveDiagnostics.result.json`).
fn diagnostic_on(n: usize, text: &str, severity: u64, message: &str) -> Value {
    let r = json!({"start": {"line": n, "character": 0},
                   "end": {"line": n, "character": text.chars().count()}});
    json!({
        "source": "Lean 4",
        "severity": severity,
        "range": r,
        "message": {"append": [{"tag": [{"expr": {"text": message}}, {"text": ""}]}]},
        "fullRange": r,
    })
}

struct Doc {
    version: i64,
    text: String,
}

/// One command scope of the scope model (src/Lean/Elab/BuiltinCommand.lean `addScope`): its
/// name component (`""` for an anonymous `section`), whether `namespace` opened it, and the
/// namespaces its `open`s added.
struct Scope {
    header: String,
    namespace: bool,
    opens: Vec<String>,
}

/// Name components (`A.B` → `A`, `B`).
fn name_parts(name: &str) -> Vec<String> {
    name.split('.').map(String::from).collect()
}

/// The namespaces an `open` line's arguments name (`open A B`, `open A (x)`, `open A hiding x`;
/// `open scoped A` only activates scoped syntax and opens no names).
fn opened_namespaces(args: &str) -> Vec<String> {
    let mut words = args.split_whitespace();
    let mut out = Vec::new();
    for w in words.by_ref() {
        if w == "scoped" && out.is_empty() {
            return Vec::new();
        }
        if w.starts_with('(') || ["hiding", "renaming", "in"].contains(&w) {
            break;
        }
        out.push(w.to_string());
    }
    out
}

/// `end [name]` against the scope stack, as the newest `elabEnd` (src/Lean/Elab/BuiltinCommand.lean)
/// checks it: every failure is thrown before the scopes are dropped, so a failing `end` drops
/// nothing. `Ok(n)`: drop `n` scopes.
fn end_command(name: Option<&str>, scopes: &[Scope]) -> Result<usize, String> {
    // `scopes` has the root scope first (Lean's list has it last).
    let num_scopes = scopes.len();
    if num_scopes == 1 {
        return Err("Invalid `end`: There is no current scope to end\n\nNote: Scopes are introduced using `namespace` and `section`".into());
    }
    // `nameOfScopes`: the innermost `n` headers, outermost first, cut at an anonymous one.
    let name_of = |n: usize| -> String {
        let mut parts = Vec::new();
        for s in scopes.iter().rev().take(n) {
            if s.header.is_empty() {
                break;
            }
            parts.push(s.header.clone());
        }
        parts.reverse();
        parts.join(".")
    };
    match name {
        None => {
            let innermost = &scopes[num_scopes - 1].header;
            if innermost.is_empty() {
                Ok(1)
            } else {
                Err(format!(
                    "Missing name after `end`: Expected the current scope name `{innermost}`"
                ))
            }
        }
        Some(header) => {
            let size = name_parts(header).len();
            if size >= num_scopes {
                return Err(format!(
                    "Invalid name after `end`: `{header}` contains too many components"
                ));
            }
            let found = name_of(size);
            if found == header {
                Ok(size)
            } else if found.is_empty() {
                Err(format!(
                    "Unexpected name `{header}` after `end`: The current section is unnamed"
                ))
            } else {
                Err(format!("Invalid name after `end`: Expected `{found}`, but found `{header}`"))
            }
        }
    }
}

/// The scope model's errors on a document (line, message): `end` commands that do not match
/// the scopes (`elabEnd`), and each `standin/needsOpen` identifier used where its namespace is
/// neither open nor current — "Unknown identifier `x`", the text recorded in
/// `wire.publishDiagnostics-with-code.json`. Commands start at column 0 and run to the next
/// line that does; `namespace` / `[noncomputable] section` push one scope per name component
/// (`elabNamespace`, `elabSection`); `open` adds to the innermost scope (`elabOpen`); `cmd₁ in
/// cmd₂` is a scope around the two (`expandInCmd`), so `open X in` reaches the next command
/// only (through a chain of `… in` lines). All from src/Lean/Elab/BuiltinCommand.lean.
fn scope_errors(text: &str, needs_open: &[(&str, &str)]) -> Vec<(usize, String)> {
    let mut scopes = vec![Scope { header: String::new(), namespace: false, opens: Vec::new() }];
    let mut out = Vec::new();
    let mut pending_in: Vec<String> = Vec::new();
    let mut command_opens: Vec<String> = Vec::new();
    // `mutual … end`: that `end` is part of the `mutual` syntax, not `elabEnd`'s.
    let mut mutual = 0usize;
    let is_word = |line: &str, w: &str| {
        line.match_indices(w).any(|(i, _)| {
            let before = line[..i].chars().next_back();
            let after = line[i + w.len()..].chars().next();
            let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '.' || c == '\'';
            !before.is_some_and(ident) && !after.is_some_and(ident)
        })
    };
    for (n, line) in text.lines().enumerate() {
        let code = line.split("--").next().unwrap_or("");
        let starts_command = code.chars().next().is_some_and(|c| !c.is_whitespace());
        if starts_command {
            let trimmed = code.trim_end();
            let (command, is_in) = match trimmed.strip_suffix(" in") {
                Some(c) => (c, true),
                None => (trimmed, false),
            };
            let words: Vec<&str> = command.split_whitespace().collect();
            let first = words
                .iter()
                .position(|w| !matches!(*w, "noncomputable" | "public" | "meta" | "@[expose]"))
                .unwrap_or(words.len());
            if is_in {
                if words.first() == Some(&"open") {
                    pending_in.extend(opened_namespaces(&command["open".len()..]));
                }
                continue;
            }
            command_opens = std::mem::take(&mut pending_in);
            match (words.get(first).copied(), words.get(first + 1).copied()) {
                (Some("namespace"), Some(name)) if first == 0 => {
                    for header in name_parts(name) {
                        scopes.push(Scope { header, namespace: true, opens: Vec::new() });
                    }
                    continue;
                }
                (Some("section"), name) => {
                    let headers = name.map_or(vec![String::new()], name_parts);
                    for header in headers {
                        scopes.push(Scope { header, namespace: false, opens: Vec::new() });
                    }
                    continue;
                }
                (Some("mutual"), _) if first == 0 => {
                    mutual += 1;
                    continue;
                }
                (Some("end"), None) if first == 0 && mutual > 0 => {
                    mutual -= 1;
                    continue;
                }
                (Some("end"), name) if first == 0 => {
                    match end_command(name, &scopes) {
                        Ok(k) => scopes.truncate(scopes.len() - k),
                        Err(m) => out.push((n, m)),
                    }
                    continue;
                }
                (Some("open"), _) if first == 0 => {
                    let opened = opened_namespaces(&command["open".len()..]);
                    if let Some(top) = scopes.last_mut() {
                        top.opens.extend(opened);
                    }
                    continue;
                }
                _ => {}
            }
        }
        // A line of an ordinary command: are its identifiers in reach?
        let current: Vec<&str> =
            scopes.iter().filter(|s| s.namespace).map(|s| s.header.as_str()).collect();
        let current = current.join(".");
        for (ident, ns) in needs_open {
            if !is_word(code, ident) {
                continue;
            }
            let reachable = current == *ns
                || current.starts_with(&format!("{ns}."))
                || scopes.iter().any(|s| s.opens.iter().any(|o| o == ns))
                || command_opens.iter().any(|o| o == ns);
            if !reachable {
                out.push((n, format!("Unknown identifier `{ident}`")));
            }
        }
    }
    out
}

/// The header error text of a `standin/header` rule's `kind` (sources in the module doc).
fn header_message(kind: &str, text: &str, uri: &str) -> String {
    let imports: Vec<&str> =
        text.lines().filter_map(|l| l.trim().strip_prefix("import ")).map(str::trim).collect();
    match kind {
        "outOfDate" => "Imports are out of date and must be rebuilt; use the \"Restart File\" command in your editor.".into(),
        "unknownImport" => {
            let root = imports
                .first()
                .and_then(|m| m.split('.').next())
                .unwrap_or("Foo");
            format!(
                "unknown module prefix '{root}'\n\nNo directory '{root}' or file '{root}.olean' in the search path entries:\n/w/.lake/build/lib/lean"
            )
        }
        _ => {
            let path = uri.strip_prefix("file://").unwrap_or(uri);
            format!(
                "`/usr/bin/lake setup-file {path} {}` failed:\n\nstderr:\nerror: no such file or directory (error code: 2)\n  file: {path}",
                imports.join(" ")
            )
        }
    }
}

/// `(code, message)` of a rule's `errorKind` (sources in the module doc).
fn named_error(kind: &str, uri: &str) -> (i64, String) {
    match kind {
        "fileChanged" => (-32801, "File changed.".into()),
        "closedFile" => (-32801, format!("Cannot process request to closed file '{uri}'")),
        "terminated" => (-32801, format!("The file worker for {uri} has been terminated.")),
        "outdatedRpc" => (-32900, "Outdated RPC session".into()),
        "workerExited" => (-32901, crash_message(uri, 1)),
        _ => (-32902, crash_message(uri, 134)),
    }
}

/// The watchdog's message to a crashed worker's pending requests (Watchdog.lean).
fn crash_message(uri: &str, exit_code: i64) -> String {
    if exit_code == 1 {
        format!("Server process for {uri} crashed, see stderr for exception.")
    } else {
        format!("Server process for {uri} crashed, likely due to a stack overflow or a bug.")
    }
}

/// `(severity, text)` of a `standin/diagnostic` rule's `messageKind` on `line` (sources in the
/// module doc).
fn named_message(kind: &str, line: &str) -> (u64, String) {
    let printed = line.split("#print axioms").nth(1).map(str::trim).unwrap_or("thm");
    match kind {
        "heartbeats" => (1, "(deterministic) timeout at `whnf`, maximum number of heartbeats (200000) has been reached\nUse `set_option maxHeartbeats <num>` to set the limit.\n\nAdditional diagnostic information may be available using the `set_option diagnostics true` command.".into()),
        "exactFailed" => (1, "`exact?` could not close the goal. Try `apply?` to see partial suggestions.".into()),
        "rwFailed" => (1, "Could not find any lemmas which can rewrite the goal".into()),
        "ranOutOfTime" => (3, "`exact?` stopped because it was running out of time.\nYou may get better results using `set_option maxHeartbeats 0`.".into()),
        "axiomsSorry" => (3, format!("'{printed}' depends on axioms: [sorryAx]")),
        "axiomsNone" => (3, format!("'{printed}' does not depend on any axioms")),
        other => (1, format!("lean-standin: unknown messageKind {other}")),
    }
}

/// "Try this" quickfixes at `line` (shape of `codeAction.try-this.result.json`: one action per
/// suggestion, the first preferred, the edit's range starting on the requested line).
fn try_this_actions(
    uri: &str,
    version: i64,
    line: u64,
    suggestions: &[String],
    prefix: &str,
) -> Value {
    let actions: Vec<Value> = suggestions
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut a = json!({
                "title": format!("{prefix}{s}"),
                "kind": "quickfix",
                "edit": {"documentChanges": [{"textDocument": {"uri": uri, "version": version},
                    "edits": [{"range": {"start": {"line": line, "character": 2},
                                         "end": {"line": line, "character": 40}},
                               "newText": s}]}]}
            });
            if i == 0 {
                a["isPreferred"] = Value::Bool(true);
            }
            a
        })
        .collect();
    Value::Array(actions)
}

struct Standin {
    out: std::io::Stdout,
    rules: Vec<Rule>,
    docs: HashMap<String, Doc>,
    sessions: HashSet<String>,
    next_session: u64,
    stalled: HashSet<String>,
    /// Documents whose worker crashed (exit code), until the next didChange/didOpen.
    crashed: HashMap<String, i64>,
    shutdown: bool,
    echo: bool,
    ignore_exit: bool,
    record: Option<std::fs::File>,
}

fn main() {
    let mut standin = Standin {
        out: std::io::stdout(),
        rules: Vec::new(),
        docs: HashMap::new(),
        sessions: HashSet::new(),
        next_session: 1,
        stalled: HashSet::new(),
        crashed: HashMap::new(),
        shutdown: false,
        echo: std::env::var_os("LEAN_STANDIN_ECHO").is_some_and(|v| v == "1"),
        ignore_exit: std::env::var_os("LEAN_STANDIN_IGNORE_EXIT").is_some_and(|v| v == "1"),
        record: std::env::var_os("LEAN_STANDIN_RECORD")
            .and_then(|p| std::fs::OpenOptions::new().create(true).append(true).open(p).ok()),
    };
    if let Some(path) = std::env::var_os("LEAN_STANDIN_SCRIPT") {
        if let Ok(text) = std::fs::read_to_string(&path) {
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                match serde_json::from_str::<Value>(line).ok().as_ref().and_then(Rule::parse) {
                    Some(rule) => standin.rules.push(rule),
                    None => {
                        let _ =
                            writeln!(std::io::stderr(), "lean-standin: bad script line: {line}");
                    }
                }
            }
        }
    }
    let mut input = BufReader::with_capacity(1 << 16, std::io::stdin().lock());
    loop {
        match read_frame(&mut input) {
            Some(body) => standin.handle(body),
            None if standin.ignore_exit => loop {
                // A server that hangs on exit: the proxy must kill it.
                std::thread::sleep(Duration::from_secs(3600));
            },
            None => std::process::exit(if standin.shutdown { 0 } else { 1 }),
        }
    }
}

impl Standin {
    fn write_raw(&mut self, body: &[u8]) {
        // One write per frame (stdout is line-buffered: writing the header alone would flush it
        // on its own).
        let frame = framed(body);
        let mut out = self.out.lock();
        let _ = out.write_all(&frame);
        let _ = out.flush();
    }

    fn write(&mut self, v: &Value) {
        let body = serde_json::to_vec(v).unwrap_or_default();
        self.write_raw(&body);
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.write(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn reply(&mut self, id: &Value, result: Value) {
        self.write(&json!({"id": id, "jsonrpc": "2.0", "result": result}));
    }

    fn error(&mut self, id: &Value, code: i64, message: &str) {
        self.write(
            &json!({"error": {"code": code, "message": message}, "id": id, "jsonrpc": "2.0"}),
        );
    }

    /// A message that embeds `raw` (a received body) exactly, as `key` of `params`/`result`.
    fn embed(&mut self, head: &str, key: &str, raw: &[u8]) {
        let mut body = Vec::with_capacity(raw.len() + head.len() + 32);
        body.extend_from_slice(head.as_bytes());
        body.extend_from_slice(format!("{{\"{key}\":").as_bytes());
        body.extend_from_slice(raw);
        body.extend_from_slice(b"}}");
        self.write_raw(&body);
    }

    fn handle(&mut self, body: Vec<u8>) {
        if let Some(f) = self.record.as_mut() {
            let _ = f.write_all(&body);
            let _ = f.write_all(b"\n");
        }
        let Ok(msg) = serde_json::from_slice::<Value>(&body) else {
            let _ = writeln!(std::io::stderr(), "lean-standin: not JSON ({} bytes)", body.len());
            return;
        };
        let method = msg.get("method").and_then(Value::as_str).map(String::from);
        let id = msg.get("id").cloned().filter(|i| !i.is_null());
        let params = msg.get("params").cloned().unwrap_or(Value::Null);
        match (method, id) {
            (Some(method), Some(id)) => self.request(&method, id, params, &body),
            (Some(method), None) => self.notification(&method, params, &body),
            (None, Some(_)) => self.embed(
                r#"{"jsonrpc":"2.0","method":"standin/replyReceived","params":"#,
                "reply",
                &body,
            ),
            (None, None) => {}
        }
    }

    fn request(&mut self, method: &str, id: Value, params: Value, body: &[u8]) {
        if method == "standin/pid" {
            return self.reply(&id, json!({"pid": std::process::id()}));
        }
        if method == "standin/echo" {
            let head = format!(r#"{{"id":{id},"jsonrpc":"2.0","result":"#);
            return self.embed(&head, "received", body);
        }
        if self.shutdown {
            return self.error(&id, -32600, "Request received after 'shutdown' request.");
        }
        if let Some(code) = uri_of(&params).and_then(|u| self.crashed.get(&u).copied()) {
            let uri = uri_of(&params).unwrap_or_default();
            let c = if code == 1 { -32901 } else { -32902 };
            return self.error(&id, c, &crash_message(&uri, code));
        }
        if self.search_path_blocked(method, &params) {
            self.stalled.insert(id.to_string());
            return;
        }
        let docs = &self.docs;
        if let Some(pos) = self
            .rules
            .iter()
            .position(|r| r.matches(method, &params) && r.matches_document(&params, docs))
        {
            if self.rules[pos].distinct_goal {
                let result = self.distinct_goal(&params);
                self.rules[pos].result = Some(result);
            }
            if let Some(suggestions) = self.rules[pos].try_this.clone() {
                let uri = uri_of(&params).unwrap_or_default();
                let version = self.docs.get(&uri).map_or(0, |d| d.version);
                let line = params.pointer("/range/start/line").and_then(Value::as_u64).unwrap_or(0);
                let prefix =
                    self.rules[pos].title_prefix.clone().unwrap_or_else(|| "Try this: ".into());
                self.rules[pos].result =
                    Some(try_this_actions(&uri, version, line, &suggestions, &prefix));
            }
            if let Some(kind) = self.rules[pos].error_kind.clone() {
                let (code, message) = named_error(&kind, &uri_of(&params).unwrap_or_default());
                self.rules[pos].error = Some(json!({"code": code, "message": message}));
            }
            return self.scripted(pos, id);
        }
        match method {
            "initialize" => {
                let recorded: Value = serde_json::from_str(INITIALIZE).unwrap_or(Value::Null);
                self.reply(&id, recorded["result"].clone());
            }
            "shutdown" => {
                self.shutdown = true;
                self.reply(&id, Value::Null);
            }
            "textDocument/waitForDiagnostics" => match uri_of(&params) {
                Some(uri) if self.docs.contains_key(&uri) => self.reply(&id, json!({})),
                _ => self.error(&id, -32801, "Cannot process request to closed file"),
            },
            "textDocument/hover" => {
                let result = self.hover(&params);
                self.reply(&id, result);
            }
            "textDocument/codeAction" => {
                let mut actions: Value = serde_json::from_str(CODE_ACTION).unwrap_or(json!([]));
                if let (Some(uri), Some(list)) = (uri_of(&params), actions.as_array_mut()) {
                    for action in list {
                        if let Some(doc) =
                            action.pointer_mut("/edit/documentChanges/0/textDocument/uri")
                        {
                            *doc = Value::from(uri.clone());
                        }
                        if let Some(p) = action.pointer_mut("/data/params") {
                            *p = params.clone();
                        }
                    }
                }
                self.reply(&id, actions);
            }
            "codeAction/resolve" => {
                let resolved: Value =
                    serde_json::from_str(CODE_ACTION_RESOLVE).unwrap_or(Value::Null);
                self.reply(&id, resolved);
            }
            "$/lean/rpc/connect" => {
                let session = self.next_session.to_string();
                self.next_session += 1;
                self.sessions.insert(session.clone());
                self.reply(&id, json!({"sessionId": session}));
            }
            "$/lean/rpc/call" => {
                let session = params.get("sessionId").and_then(Value::as_str).unwrap_or("");
                let rpc = params.get("method").and_then(Value::as_str).unwrap_or("").to_string();
                if !self.sessions.contains(session) {
                    self.error(&id, -32900, "Outdated RPC session");
                } else if rpc == "Lean.Widget.getInteractiveDiagnostics" {
                    let result = self.interactive_diagnostics(&params);
                    self.reply(&id, result);
                } else if rpc == "Lean.Widget.getInteractiveGoals" {
                    let goals = self
                        .rw_query_goals(&params)
                        .unwrap_or_else(|| serde_json::from_str(GOALS).unwrap_or(Value::Null));
                    self.reply(&id, goals);
                } else if rpc == "Lean.Widget.getInteractiveTermGoal" {
                    // Off a term Lean answers `null` (WidgetRequests.lean).
                    self.reply(&id, Value::Null);
                } else {
                    self.error(&id, -32601, &format!("No RPC method '{rpc}' found"));
                }
            }
            "$/lean/plainGoal" => {
                let goal: Value = serde_json::from_str(PLAIN_GOAL).unwrap_or(Value::Null);
                self.reply(&id, goal);
            }
            // Advertised in `wire.initialize-response.json`: answered empty, never -32601 (a
            // real client shows an error reply as an error).
            "textDocument/inlayHint"
            | "textDocument/documentSymbol"
            | "textDocument/foldingRange"
            | "textDocument/documentColor"
            | "textDocument/documentHighlight" => self.reply(&id, json!([])),
            "textDocument/semanticTokens/full" | "textDocument/semanticTokens/range" => {
                self.reply(&id, json!({"data": []}))
            }
            _ => self.error(&id, -32601, &format!("method not found: {method}")),
        }
    }

    /// A one-goal `getInteractiveGoals` result (shape of `interactiveGoals-rw-nested`) whose
    /// type `g<h> = <n>` is distinct for every distinct block (`h` hashes the block's `:= by`
    /// line and tactic lines; `n` is their count): an endless search space for benchmarks.
    fn distinct_goal(&self, params: &Value) -> Value {
        let line = params.pointer("/position/line").and_then(Value::as_u64);
        let block = uri_of(params)
            .and_then(|u| self.docs.get(&u))
            .zip(line)
            .and_then(|(d, l)| tactics_at(&d.text, l as usize));
        let Some((decl, tactics)) = block else {
            return Value::Null;
        };
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in decl.bytes().chain(tactics.iter().flat_map(|t| t.bytes())) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        let tag = |pos: &str, r: u64, inner: Value| json!({"tag": [{"subexprPos": pos, "info": {"__rpcref": r.to_string()}}, inner]});
        let ty = tag(
            "/",
            1,
            json!({"append": [
                tag("/0/1", 2, json!({"text": format!("g{}", h % 1_000_000)})),
                {"text": " = "},
                tag("/1", 3, json!({"text": tactics.len().to_string()})),
            ]}),
        );
        json!({"goals": [{"type": ty, "mvarId": "_uniq.1", "hyps": [], "goalPrefix": "⊢ ",
                          "ctx": {"__rpcref": "0"}}]})
    }

    /// The scripted `getInteractiveGoals` result for a block whose tactic lines are `tactics`
    /// (its `:= by` line `decl`), if a rule gives one.
    fn scripted_goals(&self, decl: &str, tactics: &[String]) -> Option<&Value> {
        self.rules
            .iter()
            .filter(|r| {
                r.method == "$/lean/rpc/call"
                    && r.rpc_method.as_deref() == Some("Lean.Widget.getInteractiveGoals")
                    && r.tactics.as_deref() == Some(tactics)
                    && r.decl_contains.as_ref().is_none_or(|c| decl.contains(c.as_str()))
            })
            .find_map(|r| r.result.as_ref())
    }

    /// `rw?` without a rule of its own: Lean rewrites with its first result and then runs
    /// `try rfl` (`evalExact`, src/Lean/Elab/Tactic/Rewrites.lean), so the goals after it are
    /// the scripted goals after the first "Try this" suggestion scripted for that `rw?` line
    /// followed by `try rfl`.
    fn rw_query_goals(&self, params: &Value) -> Option<Value> {
        let doc = uri_of(params).and_then(|u| self.docs.get(&u))?;
        let line = params.pointer("/position/line").and_then(Value::as_u64)? as usize;
        let (decl, tactics) = tactics_at(&doc.text, line)?;
        if !tactics.last()?.starts_with("rw?") {
            return None;
        }
        let first = self
            .rules
            .iter()
            .filter(|r| {
                r.method == "textDocument/codeAction" && r.tactics.as_ref() == Some(&tactics)
            })
            .find_map(|r| r.try_this.as_ref()?.first().cloned())?;
        let mut replayed = tactics[..tactics.len() - 1].to_vec();
        replayed.push(first);
        replayed.push("try rfl".into());
        self.scripted_goals(&decl, &replayed).cloned()
    }

    /// "unsolved goals" (`Term.reportUnsolvedGoals`, src/Lean/Elab/Tactic/Basic.lean) on the `:= by`
    /// line of each `theorem` whose whole tactic block has scripted goals left after it.
    fn unsolved_goals(&self, text: &str) -> Vec<(usize, String)> {
        let lines: Vec<&str> = text.lines().collect();
        let mut out = Vec::new();
        for (n, line) in lines.iter().enumerate() {
            if !(line.starts_with("theorem ") && line.trim_end().ends_with(":= by")) {
                continue;
            }
            let tactics: Vec<String> = lines[n + 1..]
                .iter()
                .take_while(|l| l.starts_with(' ') || l.starts_with('\t'))
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty())
                .collect();
            let left = self
                .scripted_goals(line, &tactics)
                .and_then(|g| g.get("goals"))
                .and_then(Value::as_array)
                .is_some_and(|g| !g.is_empty());
            if left {
                out.push((n, "unsolved goals".to_string()));
            }
        }
        out
    }

    /// Scripted `standin/diagnostic` rules applied to the document's current text.
    fn interactive_diagnostics(&self, params: &Value) -> Value {
        let Some(doc) = uri_of(params).and_then(|u| self.docs.get(&u)) else {
            return json!([]);
        };
        let range =
            |k: &str| params.pointer(&format!("/params/lineRange/{k}")).and_then(Value::as_u64);
        let (from, to) = (range("start").unwrap_or(0), range("end").unwrap_or(u64::MAX));
        let mut out = Vec::new();
        if from == 0 {
            let uri = uri_of(params).unwrap_or_default();
            for rule in self.rules.iter().filter(|r| {
                r.method == "standin/header"
                    && r.text_contains.as_ref().is_none_or(|t| doc.text.contains(t.as_str()))
            }) {
                let message = header_message(rule.kind.as_deref().unwrap_or(""), &doc.text, &uri);
                let mut d = diagnostic_on(0, "", 1, &message);
                d["range"]["end"]["character"] = json!(0);
                d["fullRange"]["end"]["character"] = json!(0);
                out.push(d);
            }
        }
        let needs_open: Vec<(&str, &str)> = self
            .rules
            .iter()
            .filter(|r| r.method == "standin/needsOpen")
            .filter_map(|r| Some((r.ident.as_deref()?, r.namespace.as_deref()?)))
            .collect();
        let lines: Vec<&str> = doc.text.lines().collect();
        let mut modelled = scope_errors(&doc.text, &needs_open);
        modelled.extend(self.unsolved_goals(&doc.text));
        for (n, message) in modelled {
            if (n as u64) >= from && (n as u64) < to {
                out.push(diagnostic_on(n, lines.get(n).unwrap_or(&""), 1, &message));
            }
        }
        for (n, text) in doc.text.lines().enumerate() {
            if (n as u64) < from || (n as u64) >= to {
                continue;
            }
            for rule in self.rules.iter().filter(|r| {
                r.method == "standin/diagnostic"
                    && r.text_contains.as_ref().is_none_or(|t| doc.text.contains(t.as_str()))
                    && r.text_lacks.as_ref().is_none_or(|t| !doc.text.contains(t.as_str()))
            }) {
                let hit = match (&rule.tactics, &rule.line_contains) {
                    (Some(t), _) => {
                        !text.trim().is_empty()
                            && text.trim() != "all_goals sorry"
                            && rule.block_matches(&doc.text, n, t)
                    }
                    (None, Some(c)) => text.contains(c.as_str()),
                    (None, None) => false,
                };
                if hit {
                    let (severity, message) = match &rule.message_kind {
                        Some(k) => named_message(k, text),
                        None => (rule.severity, rule.message.clone()),
                    };
                    out.push(diagnostic_on(n, text, severity, &message));
                }
            }
            for rule in self.rules.iter().filter(|r| r.method == "standin/universes") {
                if let Some(message) = rule.too_many_levels(text) {
                    out.push(diagnostic_on(n, text, 1, &message));
                }
            }
        }
        Value::Array(out)
    }

    /// A worker whose header failed never resolves its source search path, and every request
    /// but `$/lean/rpc/connect` and the RPC `getInteractiveDiagnostics` waits for it
    /// (src/Lean/Server/FileWorker.lean: `setupImports` resolves `srcSearchPathPromise` only
    /// after a successful setup; `handleRequest` binds other requests to `srcSearchPathTask`).
    fn search_path_blocked(&self, method: &str, params: &Value) -> bool {
        let Some(doc) = uri_of(params).and_then(|u| self.docs.get(&u)) else {
            return false;
        };
        let header_failed = self.rules.iter().any(|r| {
            r.method == "standin/header"
                && r.search_path_blocks
                && r.text_contains.as_ref().is_none_or(|t| doc.text.contains(t.as_str()))
        });
        let answered = method == "$/lean/rpc/connect"
            || (method == "$/lean/rpc/call"
                && params.get("method").and_then(Value::as_str)
                    == Some("Lean.Widget.getInteractiveDiagnostics"));
        header_failed && !answered
    }

    fn scripted(&mut self, pos: usize, id: Value) {
        let rule = &mut self.rules[pos];
        let send = rule.send.clone();
        let (result, error, delay, stall) =
            (rule.result.clone(), rule.error.clone(), rule.delay_ms, rule.stall);
        if let Some(times) = rule.times.as_mut() {
            *times = times.saturating_sub(1);
            if *times == 0 {
                self.rules.remove(pos);
            }
        }
        if delay > 0 {
            std::thread::sleep(Duration::from_millis(delay));
        }
        for m in &send {
            self.write(m);
        }
        if stall {
            self.stalled.insert(id.to_string());
            return;
        }
        match (result, error) {
            (_, Some(error)) => self.write(&json!({"error": error, "id": id, "jsonrpc": "2.0"})),
            (result, None) => self.reply(&id, result.unwrap_or(Value::Null)),
        }
    }

    fn notification(&mut self, method: &str, params: Value, body: &[u8]) {
        match method {
            "initialized" => {
                let register: Value = serde_json::from_str(REGISTER).unwrap_or(Value::Null);
                self.write(&register);
            }
            "exit" if self.ignore_exit => {}
            "exit" => std::process::exit(if self.shutdown { 0 } else { 1 }),
            "$/cancelRequest" => {
                let id = params.get("id").cloned().unwrap_or(Value::Null);
                if self.stalled.remove(&id.to_string()) {
                    self.error(&id, -32800, "Request cancelled");
                }
            }
            "textDocument/didOpen" => {
                let Some(uri) = uri_of(&params) else { return };
                let version =
                    params.pointer("/textDocument/version").and_then(Value::as_i64).unwrap_or(0);
                let text = params
                    .pointer("/textDocument/text")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                self.docs.insert(uri.clone(), Doc { version, text });
                self.crashed.remove(&uri);
                self.elaborate(&uri);
            }
            "textDocument/didChange" => {
                let Some(uri) = uri_of(&params) else { return };
                let version =
                    params.pointer("/textDocument/version").and_then(Value::as_i64).unwrap_or(0);
                self.crashed.remove(&uri);
                let Some(doc) = self.docs.get_mut(&uri) else {
                    return;
                };
                doc.version = version;
                for change in
                    params.get("contentChanges").and_then(Value::as_array).into_iter().flatten()
                {
                    // In order, each on the text the last one left, as Lean does (edits.rs).
                    edits::apply_change(&mut doc.text, change);
                }
                self.elaborate(&uri);
            }
            "textDocument/didClose" => {
                if let Some(uri) = uri_of(&params) {
                    self.docs.remove(&uri);
                    self.notify(
                        "textDocument/publishDiagnostics",
                        json!({"diagnostics": [], "uri": uri}),
                    );
                }
            }
            "standin/crashWorker" => {
                let Some(uri) = uri_of(&params) else { return };
                let code = params.get("exitCode").and_then(Value::as_i64).unwrap_or(134);
                self.crashed.insert(uri.clone(), code);
                let (version, end) = self.docs.get(&uri).map_or((0, (0, 0)), |d| {
                    let lines: Vec<&str> = d.text.split('\n').collect();
                    (
                        d.version,
                        (
                            lines.len().saturating_sub(1),
                            lines.last().map_or(0, |l| l.encode_utf16().count()),
                        ),
                    )
                });
                let mut progress: Value =
                    serde_json::from_str(PROGRESS_PROCESSING).unwrap_or(Value::Null);
                progress["params"]["processing"] = json!([{"kind": 2, "range": {"start": {"line": 0, "character": 0}, "end": {"line": end.0, "character": end.1}}}]);
                progress["params"]["textDocument"] = json!({"uri": uri, "version": version});
                self.write(&progress);
            }
            "standin/emit" => {
                for m in
                    params.get("messages").and_then(Value::as_array).cloned().unwrap_or_default()
                {
                    self.write(&m);
                }
            }
            "standin/emitRaw" => {
                for b in params.get("bodies").and_then(Value::as_array).cloned().unwrap_or_default()
                {
                    self.write_raw(b.as_str().unwrap_or("").as_bytes());
                }
            }
            "standin/badHeader" => {
                let mut out = self.out.lock();
                let _ = out.write_all(b"Content-Length: oops\r\n\r\n{}");
                let _ = out.flush();
            }
            "standin/crash" => {
                let mut err = std::io::stderr();
                for line in params.get("stderr").and_then(Value::as_array).into_iter().flatten() {
                    let _ = writeln!(err, "{}", line.as_str().unwrap_or(""));
                }
                let code = params.get("code").and_then(Value::as_i64).unwrap_or(1);
                std::process::exit(i32::try_from(code).unwrap_or(1));
            }
            "standin/stall" => {
                let ms = params.get("ms").and_then(Value::as_u64).unwrap_or(0);
                std::thread::sleep(Duration::from_millis(ms));
            }
            "standin/huge" => {
                let n = params.get("bytes").and_then(Value::as_u64).unwrap_or(0) as usize;
                self.notify("standin/huge", json!({"data": "x".repeat(n)}));
            }
            "standin/flood" => {
                let n = params.get("bytes").and_then(Value::as_u64).unwrap_or(0) as usize;
                let count = params.get("count").and_then(Value::as_u64).unwrap_or(0);
                let body = serde_json::to_vec(&json!({"jsonrpc": "2.0", "method": "standin/flood", "params": {"data": "x".repeat(n)}})).unwrap_or_default();
                for _ in 0..count {
                    self.write_raw(&body);
                }
                self.notify("standin/floodDone", json!({"count": count}));
            }
            "standin/script" => {
                for r in params.get("rules").and_then(Value::as_array).into_iter().flatten() {
                    if let Some(rule) = Rule::parse(r) {
                        self.rules.push(rule);
                    }
                }
            }
            _ if self.echo => self.embed(
                r#"{"jsonrpc":"2.0","method":"standin/echoed","params":"#,
                "received",
                body,
            ),
            _ => {}
        }
    }

    /// Progress, diagnostics, done — the order of one quick elaboration (README §4).
    fn elaborate(&mut self, uri: &str) {
        let Some(doc) = self.docs.get(uri) else {
            return;
        };
        let version = doc.version;
        let lines: Vec<&str> = doc.text.split('\n').collect();
        let last = lines.len().saturating_sub(1);
        let end_char = lines.last().map_or(0, |l| l.encode_utf16().count());
        let mut diagnostics = Vec::new();
        let template: Value = serde_json::from_str(DIAGNOSTICS).unwrap_or(Value::Null);
        for (n, line) in lines.iter().enumerate() {
            if let Some(col) = line.find("sorry") {
                let start = line[..col].encode_utf16().count();
                let range = json!({"end": {"character": start + 5, "line": n}, "start": {"character": start, "line": n}});
                let mut d = template.pointer("/params/diagnostics/0").cloned().unwrap_or(json!({}));
                if let Some(o) = d.as_object_mut() {
                    o.remove("code");
                    o.insert("fullRange".into(), range.clone());
                    o.insert("range".into(), range);
                    o.insert("message".into(), Value::from("declaration uses 'sorry'"));
                    o.insert("severity".into(), Value::from(2));
                }
                diagnostics.push(d);
            }
        }
        let mut processing: Value =
            serde_json::from_str(PROGRESS_PROCESSING).unwrap_or(Value::Null);
        processing["params"]["processing"] = json!([{"kind": 1, "range": {"end": {"character": end_char, "line": last}, "start": {"character": 0, "line": 0}}}]);
        processing["params"]["textDocument"] = json!({"uri": uri, "version": version});
        self.write(&processing);
        let mut published = template;
        published["params"] = json!({"diagnostics": diagnostics, "uri": uri, "version": version});
        self.write(&published);
        let mut done: Value = serde_json::from_str(PROGRESS_DONE).unwrap_or(Value::Null);
        done["params"]["textDocument"] = json!({"uri": uri, "version": version});
        self.write(&done);
    }

    fn hover(&self, params: &Value) -> Value {
        let (Some(uri), Some(line), Some(character)) = (
            uri_of(params),
            params.pointer("/position/line").and_then(Value::as_u64),
            params.pointer("/position/character").and_then(Value::as_u64),
        ) else {
            return Value::Null;
        };
        let Some(text) = self.docs.get(&uri).and_then(|d| d.text.split('\n').nth(line as usize))
        else {
            return Value::Null;
        };
        // UTF-16 column → the word around it.
        let chars: Vec<char> = text.chars().collect();
        let mut utf16 = 0u64;
        let mut at = None;
        for (i, c) in chars.iter().enumerate() {
            if utf16 >= character {
                at = Some(i);
                break;
            }
            utf16 += c.len_utf16() as u64;
        }
        let Some(at) = at else { return Value::Null };
        let word = |c: &char| c.is_alphanumeric() || *c == '_' || *c == '.' || *c == '\'';
        if !word(&chars[at]) {
            return Value::Null;
        }
        let start = (0..=at).rev().take_while(|&i| word(&chars[i])).last().unwrap_or(at);
        let end = (at..chars.len()).take_while(|&i| word(&chars[i])).last().unwrap_or(at) + 1;
        let u16_of = |i: usize| chars[..i].iter().map(|c| c.len_utf16()).sum::<usize>();
        let name: String = chars[start..end].iter().collect();
        json!({
            "contents": {"kind": "markdown", "value": format!("```lean\n{name}\n```")},
            "range": {"end": {"character": u16_of(end), "line": line}, "start": {"character": u16_of(start), "line": line}}
        })
    }
}
