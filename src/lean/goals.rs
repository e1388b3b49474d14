//! A theorem's elaborated statement, read from Lean's interactive goals, as an operator tree.
//!
//! Owns the RPC session per document (`$/lean/rpc/connect`, `$/lean/rpc/call` of
//! `Lean.Widget.getInteractiveGoals`, `$/lean/rpc/keepAlive`, `$/lean/rpc/release`), the
//! [`SessionTracker`] that keeps alive sessions other code opens (the oracles', in batch and
//! behind the editor), and the
//! conversion of `TaggedText SubexprInfo` (CodeWithInfos) into a [`Tree`]. Message shapes follow
//! `lean-protocol/README.md` §7–§8 and §11 ("Elaborated statement as a tree, one round trip")
//! and the recorded results `examples/interactiveGoals*.result.json`
//! (lean4 `tests/server_interactive/Diff.lean.out.expected` @ad06d2da); the TaggedText encoding
//! is lean4 `src/Lean/Widget/TaggedText.lean`. Deciding when to ask (and what to do with the
//! tree) is left to the features.
//!
//! Conversion rule: every tagged subexpression is one node; its label is its text with each
//! tagged sub-subexpression replaced by ` _ `, untagged text trimmed and whitespace-collapsed —
//! which reproduces GTED's labels (`" _ = _ "`, `"Real.log _ "`, `"∀ _ , _ "`) from the printed
//! text. A tag whose whole content is one other tag adds no node. A goal becomes the statement
//! tree `theorem` → ` _  … _ : _ ` (one ` _ ` per hypothesis) → binders ` _ : _ ` [name, type]
//! and the goal's type, as the source-text parser shapes statements.

use super::LeanError;
use crate::trees::Tree;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Why no elaborated tree could be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GoalsError {
    #[error("interactive goals for {uri}: {source}")]
    Lean { uri: String, source: LeanError },
    #[error("interactive goals for {uri}: unexpected JSON shape: {what}")]
    Shape { uri: String, what: String },
    #[error("interactive goals for {uri}: no goal at that position")]
    NoGoal { uri: String },
}

/// TaggedText (lean4 `Widget/TaggedText.lean`): `{"text"}`, `{"append":[..]}`, `{"tag":[α, t]}`.
#[derive(Clone, Debug, PartialEq)]
pub enum TaggedText {
    Text(String),
    Append(Vec<TaggedText>),
    Tag(Value, Box<TaggedText>),
}

impl TaggedText {
    /// Read the JSON encoding; `None` when it is not TaggedText. Iterative depth is bounded by
    /// the JSON nesting serde_json already accepted (its recursion limit is 128).
    pub fn from_json(v: &Value) -> Option<TaggedText> {
        let o = v.as_object()?;
        if let Some(t) = o.get("text") {
            return Some(TaggedText::Text(t.as_str()?.to_string()));
        }
        if let Some(a) = o.get("append") {
            let items = a.as_array()?;
            return items
                .iter()
                .map(TaggedText::from_json)
                .collect::<Option<Vec<_>>>()
                .map(TaggedText::Append);
        }
        if let Some(t) = o.get("tag") {
            let pair = t.as_array()?;
            if pair.len() != 2 {
                return None;
            }
            return Some(TaggedText::Tag(
                pair[0].clone(),
                Box::new(TaggedText::from_json(&pair[1])?),
            ));
        }
        None
    }

    /// All text leaves concatenated: what the user sees.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.push_text(&mut out);
        out
    }

    fn push_text(&self, out: &mut String) {
        match self {
            TaggedText::Text(t) => out.push_str(t),
            TaggedText::Append(items) => items.iter().for_each(|i| i.push_text(out)),
            TaggedText::Tag(_, t) => t.push_text(out),
        }
    }
}

/// Collapse whitespace runs to one space and trim.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Label pieces and child nodes of the content of one node.
fn gather(t: &TaggedText, label: &mut String, children: &mut Vec<Tree>) {
    match t {
        TaggedText::Text(s) => label.push_str(&collapse(s)),
        TaggedText::Append(items) => items.iter().for_each(|i| gather(i, label, children)),
        TaggedText::Tag(_, inner) => {
            label.push_str(" _ ");
            children.push(node_of(inner));
        }
    }
}

/// The node for a tagged subexpression whose content is `content`.
fn node_of(content: &TaggedText) -> Tree {
    // A tag wrapping exactly one tag (no text of its own) is the same subterm printed once.
    if let TaggedText::Tag(_, inner) = content {
        return node_of(inner);
    }
    let mut label = String::new();
    let mut children = Vec::new();
    gather(content, &mut label, &mut children);
    Tree::node(label, children)
}

/// TaggedText → operator tree (the root need not be tagged).
pub fn tree_of(t: &TaggedText) -> Tree {
    match t {
        TaggedText::Tag(_, inner) => node_of(inner),
        other => node_of(other),
    }
}

/// One `InteractiveGoal` JSON (README §8) → the statement tree.
pub fn goal_statement_tree(goal: &Value) -> Option<Tree> {
    let ty = TaggedText::from_json(goal.get("type")?)?;
    let conclusion = tree_of(&ty);
    let mut binders = Vec::new();
    for h in goal.get("hyps").and_then(Value::as_array).into_iter().flatten() {
        let Some(t) = h.get("type").and_then(TaggedText::from_json) else {
            continue;
        };
        let ty = tree_of(&t);
        // Same rule as the source-text parser, so both kinds of tree flag names alike.
        let prop = crate::trees::parse::is_proposition(&ty);
        for name in h.get("names").and_then(Value::as_array).into_iter().flatten() {
            let mut n = Tree::leaf(name.as_str().unwrap_or("[anonymous]"));
            n.variable_freecost = !prop;
            n.hypothesis_freecost = prop;
            binders.push(Tree::node(" _ : _ ", vec![n, ty.clone()]));
        }
    }
    let label = format!("{}: _ ", " _ ".repeat(binders.len()));
    binders.push(conclusion);
    Some(Tree::node("theorem", vec![Tree::node(label, binders)]))
}

/// `getInteractiveGoals` result → the first goal's statement tree (`None`: no goals / `null`).
pub fn statement_tree_of_result(result: &Value) -> Option<Tree> {
    let goal = result.get("goals")?.as_array()?.first()?;
    goal_statement_tree(goal)
}

/// Every RPC reference in a result (`{"p": ..}` in wire format v0, `{"__rpcref": ..}` in v1),
/// to release them afterwards (README §7: refs are reference-counted per session).
pub fn rpc_refs(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Object(o) => {
            if o.len() == 1 && (o.contains_key("p") || o.contains_key("__rpcref")) {
                out.push(v.clone());
                return;
            }
            o.values().for_each(|x| rpc_refs(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| rpc_refs(x, out)),
        _ => {}
    }
}

/// The params of a `$/lean/rpc/call` of `method` in `session` at `position` of `uri`
/// (README §7).
pub fn rpc_call_params(
    uri: &str,
    position: &Value,
    session: &str,
    method: &str,
    params: Value,
) -> Value {
    json!({
        "textDocument": {"uri": uri},
        "position": position,
        "sessionId": session,
        "method": method,
        "params": params,
    })
}

/// The `sessionId` of a `$/lean/rpc/connect` result (README §7).
pub fn session_id(connect_result: &Value) -> Option<String> {
    connect_result.get("sessionId").and_then(Value::as_str).map(str::to_string)
}

/// Release the RPC references in `result` (`$/lean/rpc/release`, README §7); nothing is sent
/// when it holds none, and a failure to send is ignored (the session expires anyway).
pub async fn release_refs<L: LeanRpc>(lean: &L, uri: &str, session: &str, result: &Value) {
    let mut refs = Vec::new();
    rpc_refs(result, &mut refs);
    if !refs.is_empty() {
        let _ = lean
            .notify("$/lean/rpc/release", json!({"uri": uri, "sessionId": session, "refs": refs}))
            .await;
    }
}

/// What the goals code needs from the Lean client (implemented by `LeanClient`; a scripted fake
/// in tests).
pub trait LeanRpc: Send + Sync {
    fn request(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> impl Future<Output = Result<Value, LeanError>> + Send;
    fn notify(
        &self,
        method: &str,
        params: Value,
    ) -> impl Future<Output = Result<(), LeanError>> + Send;
}

impl LeanRpc for super::LeanClient {
    fn request(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> impl Future<Output = Result<Value, LeanError>> + Send {
        super::LeanClient::request(self, method, params, timeout)
    }
    fn notify(
        &self,
        method: &str,
        params: Value,
    ) -> impl Future<Output = Result<(), LeanError>> + Send {
        super::LeanClient::notify(self, method, params)
    }
}

/// A [`LeanRpc`] that notes every RPC session opened through it, so that sessions opened by code
/// that keeps them private (the oracle's scratch documents) can be kept alive from outside.
///
/// It watches the two messages that start and end a session's life: the result of
/// `$/lean/rpc/connect {uri}` → `{sessionId}` (README §7) records (or, after a `-32900`
/// reconnect, replaces) the document's session; `textDocument/didClose` forgets it (Lean drops
/// the session with the worker). Everything else passes through unchanged.
pub struct SessionTracker<L> {
    lean: Arc<L>,
    sessions: RpcSessions,
}

impl<L: LeanRpc + 'static> SessionTracker<L> {
    pub fn new(lean: Arc<L>) -> SessionTracker<L> {
        SessionTracker { lean, sessions: RpcSessions::default() }
    }

    /// The sessions seen so far.
    pub fn sessions(&self) -> &RpcSessions {
        &self.sessions
    }

    /// Send `$/lean/rpc/keepAlive` for every tracked session every `every` (the first tick
    /// after one interval) until the returned ticker is stopped or dropped.
    pub fn keep_alive_every(self: &Arc<Self>, every: Duration) -> KeepAliveTicker {
        let tracker = Arc::downgrade(self);
        let task = tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            // A tick that is late (a busy runtime) is not made up for by a burst.
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            tick.tick().await;
            loop {
                tick.tick().await;
                let Some(tracker) = tracker.upgrade() else {
                    break;
                };
                tracker.sessions.keep_alive(&*tracker.lean).await;
            }
        });
        KeepAliveTicker(task)
    }
}

impl<L: LeanRpc> LeanRpc for SessionTracker<L> {
    fn request(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> impl Future<Output = Result<Value, LeanError>> + Send {
        let connect_uri = (method == "$/lean/rpc/connect")
            .then(|| params.get("uri").and_then(Value::as_str).map(String::from))
            .flatten();
        let answer = self.lean.request(method, params, timeout);
        async move {
            let result = answer.await;
            if let (Some(uri), Ok(r)) = (connect_uri, &result) {
                if let Some(id) = r.get("sessionId").and_then(Value::as_str) {
                    self.sessions.set(&uri, id.to_string());
                }
            }
            result
        }
    }

    fn notify(
        &self,
        method: &str,
        params: Value,
    ) -> impl Future<Output = Result<(), LeanError>> + Send {
        if method == "textDocument/didClose" {
            if let Some(uri) = params.pointer("/textDocument/uri").and_then(Value::as_str) {
                self.sessions.forget(uri);
            }
        }
        self.lean.notify(method, params)
    }
}

/// The keep-alive task of a [`SessionTracker`]; stops when stopped or dropped.
pub struct KeepAliveTicker(tokio::task::JoinHandle<()>);

impl KeepAliveTicker {
    pub fn stop(self) {
        // Drop does it.
    }
}

impl Drop for KeepAliveTicker {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// `-32900` rpcNeedsReconnect (README §7).
pub const RPC_NEEDS_RECONNECT: i64 = -32900;
/// Lean expires a session after 30 s without keepAlive (README §7); vscode sends one every 10 s.
pub const KEEP_ALIVE_EVERY: Duration = Duration::from_secs(10);
/// Env variable setting the keep-alive interval in milliseconds. Internal: it lets the tests see
/// several ticks in well under a second; users have no reason to change Lean's 10 s rhythm.
pub const KEEP_ALIVE_ENV: &str = "LEAN_ASSESS_KEEPALIVE_MS";

/// The keep-alive interval: [`KEEP_ALIVE_EVERY`], or `$LEAN_ASSESS_KEEPALIVE_MS`; a value that
/// is not a positive number of milliseconds is an error naming the variable (the caller decides
/// whether that stops it).
pub fn keep_alive_interval() -> Result<Duration, String> {
    match std::env::var_os(KEEP_ALIVE_ENV) {
        None => Ok(KEEP_ALIVE_EVERY),
        Some(text) => match text.to_str().and_then(|t| t.trim().parse::<u64>().ok()) {
            Some(ms) if ms > 0 => Ok(Duration::from_millis(ms)),
            _ => Err(format!(
                "{KEEP_ALIVE_ENV}={text:?}: expected a positive number of milliseconds"
            )),
        },
    }
}

/// RPC sessions by document URI.
#[derive(Debug, Default)]
pub struct RpcSessions {
    sessions: Mutex<HashMap<String, (String, Instant)>>,
}

impl RpcSessions {
    fn get(&self, uri: &str) -> Option<String> {
        let s = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        s.get(uri).map(|(id, _)| id.clone())
    }

    fn set(&self, uri: &str, id: String) {
        let mut s = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        s.insert(uri.to_string(), (id, Instant::now()));
    }

    /// Forget a document's session (on didClose; Lean drops it with the worker).
    pub fn forget(&self, uri: &str) {
        let mut s = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        s.remove(uri);
    }

    /// `(uri, sessionId)` of every session, for the keepAlive ticker.
    pub fn all(&self) -> Vec<(String, String)> {
        let s = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        s.iter().map(|(u, (id, _))| (u.clone(), id.clone())).collect()
    }

    /// Send `$/lean/rpc/keepAlive {uri, sessionId}` for every session.
    pub async fn keep_alive<L: LeanRpc>(&self, lean: &L) {
        for (uri, session) in self.all() {
            let _ = lean
                .notify("$/lean/rpc/keepAlive", json!({"uri": uri, "sessionId": session}))
                .await;
        }
    }

    async fn connect<L: LeanRpc>(
        &self,
        lean: &L,
        uri: &str,
        timeout: Duration,
    ) -> Result<String, GoalsError> {
        let r = lean
            .request("$/lean/rpc/connect", json!({"uri": uri}), timeout)
            .await
            .map_err(|source| GoalsError::Lean { uri: uri.into(), source })?;
        let id = session_id(&r).ok_or_else(|| GoalsError::Shape {
            uri: uri.into(),
            what: format!("rpc/connect result {r}"),
        })?;
        self.set(uri, id.clone());
        Ok(id)
    }

    /// The statement tree Lean elaborated for the goal at `position` (a `{line, character}`
    /// inside the proof, README §11), reconnecting once on `-32900`, releasing the refs after.
    pub async fn statement_tree<L: LeanRpc>(
        &self,
        lean: &L,
        uri: &str,
        position: Value,
        timeout: Duration,
    ) -> Result<Tree, GoalsError> {
        let mut session = match self.get(uri) {
            Some(s) => s,
            None => self.connect(lean, uri, timeout).await?,
        };
        let mut retried = false;
        let result = loop {
            let params = rpc_call_params(
                uri,
                &position,
                &session,
                "Lean.Widget.getInteractiveGoals",
                json!({"textDocument": {"uri": uri}, "position": position}),
            );
            match lean.request("$/lean/rpc/call", params, timeout).await {
                Ok(v) => break v,
                Err(LeanError::Response { code, .. })
                    if code == RPC_NEEDS_RECONNECT && !retried =>
                {
                    retried = true;
                    session = self.connect(lean, uri, timeout).await?;
                }
                Err(source) => return Err(GoalsError::Lean { uri: uri.into(), source }),
            }
        };
        release_refs(lean, uri, &session, &result).await;
        if result.is_null() {
            return Err(GoalsError::NoGoal { uri: uri.into() });
        }
        if result.get("goals").and_then(Value::as_array).is_none() {
            return Err(GoalsError::Shape {
                uri: uri.into(),
                what: "getInteractiveGoals result without `goals`".into(),
            });
        }
        statement_tree_of_result(&result).ok_or(GoalsError::NoGoal { uri: uri.into() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The recorded examples, copied verbatim into `fixtures/lean-protocol/examples/` from the shared lean-protocol notes.
    fn example(name: &str) -> Value {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/lean-protocol/examples")
            .join(name);
        serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
    }

    fn labels(t: &Tree) -> Vec<String> {
        t.preorder().iter().map(|n| n.label.clone()).collect()
    }

    #[test]
    fn implication_goal_with_inserted_hypothesis() {
        // Goal `x = x → True`, hyp `x : Nat` (Diff.lean (2,4)).
        let t = statement_tree_of_result(&example("interactiveGoals.result.json")).unwrap();
        assert_eq!(
            labels(&t),
            ["theorem", " _ : _ ", " _ : _ ", "x", "Nat", " _ → _ ", " _ = _ ", "x", "x", "True"]
        );
        let x = &t.children[0].children[0].children[0];
        assert!(x.variable_freecost && !x.hypothesis_freecost);
    }

    #[test]
    fn forall_goal_keeps_the_bound_name_as_a_child() {
        // `∀ (x : Nat), x = x → True`: the binder name is tagged "/" like the whole (README §8).
        let r = example("interactiveGoals-forall.result.json");
        let ty = TaggedText::from_json(&r["goals"][0]["type"]).unwrap();
        assert_eq!(ty.text(), "∀ (x : Nat), x = x → True");
        let t = statement_tree_of_result(&r).unwrap();
        assert_eq!(
            labels(&t),
            [
                "theorem",
                ": _ ",
                "∀ ( _ : _ ), _ ",
                "x",
                "Nat",
                " _ → _ ",
                " _ = _ ",
                "x",
                "x",
                "True"
            ]
        );
    }

    #[test]
    fn hypothesis_bundles_split_one_binder_per_name() {
        // hyps `x y z : Nat`, `h : y = x`; goal `x + z = z + y` (Diff.lean (33,6)).
        let t =
            statement_tree_of_result(&example("interactiveGoals-rw-nested.result.json")).unwrap();
        let top = &t.children[0];
        assert_eq!(top.label, " _  _  _  _ : _ ");
        assert_eq!(top.children.len(), 5);
        let names: Vec<&str> =
            top.children[..4].iter().map(|b| b.children[0].label.as_str()).collect();
        assert_eq!(names, ["x", "y", "z", "h"]);
        assert!(top.children[3].children[0].hypothesis_freecost);
        assert!(top.children[0].children[0].variable_freecost);
        assert_eq!(labels(&top.children[4]), [" _ = _ ", " _ + _ ", "x", "z", " _ + _ ", "z", "y"]);
    }

    #[test]
    fn two_goals_take_the_first_and_null_has_none() {
        let t =
            statement_tree_of_result(&example("interactiveGoals-two-goals.result.json")).unwrap();
        assert_eq!(labels(&t), ["theorem", ": _ ", "True"]);
        assert_eq!(statement_tree_of_result(&Value::Null), None);
        assert_eq!(statement_tree_of_result(&json!({"goals": []})), None);
    }

    #[test]
    fn every_recorded_example_converts_and_keeps_its_text() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lean-protocol/examples");
        let mut n = 0;
        for e in std::fs::read_dir(&dir).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if !(name.starts_with("interactiveGoals") && name.ends_with(".result.json")) {
                continue;
            }
            let r = example(&name);
            for g in r["goals"].as_array().unwrap() {
                let ty = TaggedText::from_json(&g["type"]).unwrap();
                let t = tree_of(&ty);
                // Every node's label has exactly one ` _ ` per child.
                for node in t.preorder() {
                    assert_eq!(node.label.matches(" _ ").count(), node.children.len(), "{name}");
                }
                assert!(goal_statement_tree(g).is_some(), "{name}");
            }
            let mut refs = Vec::new();
            rpc_refs(&r, &mut refs);
            assert!(!refs.is_empty(), "{name}");
            n += 1;
        }
        assert_eq!(n, 4, "all four recorded interactiveGoals results");
    }

    #[test]
    fn malformed_tagged_text_is_rejected_not_panicking() {
        for v in [json!(3), json!({"tag": [1]}), json!({"append": [{"text": 1}]}), json!({})] {
            assert_eq!(TaggedText::from_json(&v), None);
        }
        assert_eq!(goal_statement_tree(&json!({"hyps": []})), None);
    }

    /// A scripted Lean: answers connect, fails the first call with -32900, then returns the
    /// recorded goals; records every message.
    struct ScriptedLean {
        log: Mutex<Vec<(String, Value)>>,
        calls: Mutex<u32>,
        result: Value,
    }

    impl LeanRpc for ScriptedLean {
        fn request(
            &self,
            method: &str,
            params: Value,
            _t: Duration,
        ) -> impl Future<Output = Result<Value, LeanError>> + Send {
            self.log.lock().unwrap().push((method.into(), params));
            let out = match method {
                "$/lean/rpc/connect" => Ok(json!({"sessionId": "1234567890123"})),
                _ => {
                    let mut c = self.calls.lock().unwrap();
                    *c += 1;
                    if *c == 1 {
                        Err(LeanError::Response {
                            method: method.into(),
                            code: -32900,
                            message: "Outdated RPC session".into(),
                        })
                    } else {
                        Ok(self.result.clone())
                    }
                }
            };
            async move { out }
        }
        fn notify(
            &self,
            method: &str,
            params: Value,
        ) -> impl Future<Output = Result<(), LeanError>> + Send {
            self.log.lock().unwrap().push((method.into(), params));
            async { Ok(()) }
        }
    }

    #[tokio::test]
    async fn tracker_keeps_connected_sessions_alive_until_stopped_and_forgets_closed_ones() {
        let lean = Arc::new(ScriptedLean {
            log: Mutex::default(),
            calls: Mutex::default(),
            result: json!(null),
        });
        let tracker = Arc::new(SessionTracker::new(lean.clone()));
        let uri = "file:///.scratch/S.lean";
        tracker
            .request("$/lean/rpc/connect", json!({"uri": uri}), Duration::from_secs(1))
            .await
            .unwrap();
        assert_eq!(tracker.sessions().all(), [(uri.to_string(), "1234567890123".to_string())]);
        let keep_alives = || {
            let log = lean.log.lock().unwrap();
            log.iter()
                .filter(|(m, p)| {
                    m == "$/lean/rpc/keepAlive"
                        && *p == json!({"uri": uri, "sessionId": "1234567890123"})
                })
                .count()
        };
        let ticker = tracker.keep_alive_every(Duration::from_millis(20));
        tokio::time::sleep(Duration::from_millis(150)).await;
        ticker.stop();
        let sent = keep_alives();
        assert!(sent >= 2, "{sent} keepAlive(s) in 150 ms at 20 ms");
        tokio::time::sleep(Duration::from_millis(60)).await;
        assert_eq!(keep_alives(), sent, "the ticker stopped");
        tracker
            .notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}))
            .await
            .unwrap();
        assert!(tracker.sessions().all().is_empty());
        // Other messages pass through unchanged.
        let log = lean.log.lock().unwrap();
        assert_eq!(log[0], ("$/lean/rpc/connect".into(), json!({"uri": uri})));
        assert_eq!(log.last().unwrap().0, "textDocument/didClose");
    }

    #[tokio::test]
    async fn session_reconnects_on_32900_and_releases_refs() {
        let lean = ScriptedLean {
            log: Mutex::default(),
            calls: Mutex::default(),
            result: example("interactiveGoals.result.json"),
        };
        let sessions = RpcSessions::default();
        let pos = json!({"line": 2, "character": 4});
        let t = sessions
            .statement_tree(&lean, "file:///Diff.lean", pos, Duration::from_secs(1))
            .await
            .unwrap();
        assert_eq!(t.size(), 10);
        {
            let log = lean.log.lock().unwrap();
            let methods: Vec<&str> = log.iter().map(|(m, _)| m.as_str()).collect();
            assert_eq!(
                methods,
                [
                    "$/lean/rpc/connect",
                    "$/lean/rpc/call",
                    "$/lean/rpc/connect",
                    "$/lean/rpc/call",
                    "$/lean/rpc/release"
                ]
            );
            assert_eq!(log[0].1, json!({"uri": "file:///Diff.lean"}));
            let call = &log[3].1;
            assert_eq!(call["method"], "Lean.Widget.getInteractiveGoals");
            assert_eq!(call["sessionId"], "1234567890123");
            assert_eq!(call["params"]["textDocument"]["uri"], "file:///Diff.lean");
            assert_eq!(log[4].1["refs"].as_array().unwrap().len(), 7);
        }
        sessions.keep_alive(&lean).await;
        let log = lean.log.lock().unwrap();
        assert_eq!(
            log.last().unwrap(),
            &(
                "$/lean/rpc/keepAlive".to_string(),
                json!({"uri": "file:///Diff.lean", "sessionId": "1234567890123"})
            )
        );
    }
}
