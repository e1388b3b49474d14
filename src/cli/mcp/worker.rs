//! A tool call's worker thread and the handler that waits for it: the steps it reports (sent
//! on as MCP progress notifications) and the signal that stops its Lean work (the client
//! cancelled the request, or --lean-call-timeout passed).
//!
//! Owns the channel between the two only; what a step says is the tool's.

use std::time::Duration;

/// One step of a call, for a progress notification.
pub(super) struct Step {
    pub(super) progress: f64,
    pub(super) total: f64,
    pub(super) message: String,
}

/// What a call's worker thread gets besides its arguments.
pub(super) struct CallContext {
    pub(super) progress: tokio::sync::mpsc::UnboundedSender<Step>,
    /// Becomes true when the client cancels the request.
    pub(super) cancel: tokio::sync::watch::Receiver<bool>,
}

impl CallContext {
    pub(super) fn step(&self, progress: usize, total: usize, message: String) {
        let _ =
            self.progress.send(Step { progress: progress as f64, total: total as f64, message });
    }

    /// Resolves with the reason when the Lean work of this call must stop: the client
    /// cancelled it, or `limit` passed.
    pub(super) fn stop(
        &self,
        limit: Duration,
    ) -> impl std::future::Future<Output = String> + use<> {
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
