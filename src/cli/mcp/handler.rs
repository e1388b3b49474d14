//! The MCP server's side of the protocol (`rmcp`'s `ServerHandler`): the server's
//! instructions, `tools/list`, and `tools/call`, which runs each call on a worker thread (at
//! most [`MAX_CONCURRENT_CALLS`] at once, one more refused at once), forwards its progress,
//! passes a cancel on, and turns its result or its one-line error into the tool result.
//!
//! Owns dispatching a call to its tool and the call's lifetime; the tools are their own modules'.

use super::arguments::check_arguments;
use super::tools::{tools, TOOLS};
use super::worker::{CallContext, Step};
use super::{compare, files, tree, Server, MAX_CONCURRENT_CALLS};
use anyhow::bail;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, Implementation, JsonObject,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities,
    ServerInfo,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::ErrorData;
use serde_json::Value;
use std::sync::Arc;

/// The server as `rmcp` drives it; every call shares the one [`Server`].
#[derive(Clone)]
pub(super) struct Handler(pub(super) Arc<Server>);

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
            Ok(Err(e)) => error_result(crate::cli::one_line(&e)),
            Err(_) => error_result("internal error (a bug): the call's worker vanished".into()),
        })
    }
}

/// A tool result that is an error: one line for the agent.
fn error_result(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

/// Run one tool call on the worker thread: its arguments checked against the tool's schema,
/// then the tool.
fn call(
    server: &Server,
    name: &str,
    arguments: &JsonObject,
    context: &CallContext,
) -> anyhow::Result<Value> {
    check_arguments(server, name, arguments)?;
    match name {
        "compare_statements" => compare::compare_statements(server, arguments, context),
        "compare_many" => compare::compare_many(server, arguments, context),
        "operator_tree" => tree::operator_tree(server, arguments),
        "list_references" => files::list_references(server, arguments),
        "check_integrity" => files::check_integrity(server, arguments),
        _ => bail!("unknown tool '{name}'"),
    }
}
