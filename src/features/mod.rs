//! Editor features (code lens, hover, code actions, commands): PLACEHOLDER from the proxy branch.
//!
//! The features helper owns this module; this version only fixes the interface of
//! `tasks/proxy-interface.md` so the router compiles and its tests run. Every hook passes
//! Lean's messages through unchanged and claims no request. The features helper's version
//! replaces this file wholesale.

use serde_json::Value;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use tokio::sync::mpsc;

/// What `serve` hands the features: the config file (`--config` or `LEAN_ASSESS_CONFIG`) and
/// the workspace root the server runs in.
#[derive(Debug, Clone, Default)]
pub struct FeaturesConfig {
    pub config_path: Option<PathBuf>,
    pub workspace_root: Option<PathBuf>,
}

/// Messages the features want delivered to the editor (the router writes them as frames).
#[derive(Debug, Clone, PartialEq)]
pub enum ToEditor {
    /// A notification, e.g. textDocument/publishDiagnostics (merged), window/showMessage.
    Notification { method: String, params: Value },
    /// A server→client request. The router mints an own id and consumes the editor's reply.
    Request { method: String, params: Value },
}

/// A JSON-RPC error the features answer one of their own requests with.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnError {
    pub code: i64,
    pub message: String,
}

/// The future of an own request, run by the router on a spawned task.
pub type OwnFuture = Pin<Box<dyn Future<Output = Result<Value, OwnError>> + Send>>;

pub struct Features {
    _to_editor: mpsc::Sender<ToEditor>,
    _lean: Arc<crate::lean::LeanClient>,
}

impl Features {
    pub fn new(
        _cfg: FeaturesConfig,
        to_editor: mpsc::Sender<ToEditor>,
        lean: Arc<crate::lean::LeanClient>,
    ) -> Features {
        Features {
            _to_editor: to_editor,
            _lean: lean,
        }
    }

    pub fn on_initialize_request(&self, _params: &Value) {}

    pub fn augment_initialize_result(&self, result: Value) -> Value {
        result
    }

    pub fn observe_client_notification(&self, _method: &str, _params: &Value) {}

    pub fn own_request(&self, _method: &str, _params: &Value) -> Option<OwnFuture> {
        None
    }

    pub fn wants_response(&self, _method: &str) -> bool {
        false
    }

    pub fn augment_response(&self, _method: &str, _request_params: &Value, result: Value) -> Value {
        result
    }

    pub fn merge_diagnostics(&self, params: Value) -> Value {
        params
    }
}
