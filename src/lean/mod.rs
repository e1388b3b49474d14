//! The proxy's own client of the Lean server (owned by the proxy work item).
//!
//! LOCAL INTERIM COPY in the `features` branch: only the interface of
//! `tasks/proxy-interface.md`, so that the features compile before the proxy lands. It is not
//! connected to any server: every request fails with [`LeanError::Closed`], which the features
//! treat as "Lean absent" (source-text trees). The proxy branch's `src/lean/mod.rs` replaces this
//! file wholesale on merge; only the `pub mod goals;` line below must be kept.

pub mod goals;

use serde_json::Value;
use std::time::Duration;

/// Why an own request into Lean gave no result.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LeanError {
    #[error("request {id} ({method}) to the Lean server timed out")]
    Timeout { id: String, method: String },
    #[error("the Lean server's stream is closed")]
    Closed,
    #[error("the Lean server answered {method} with error {code}: {message}")]
    Response {
        method: String,
        code: i64,
        message: String,
    },
}

/// Handle for the proxy's own traffic into Lean (interim: not connected).
#[derive(Debug, Default)]
pub struct LeanClient {}

impl LeanClient {
    pub async fn request(
        &self,
        _method: &str,
        _params: Value,
        _timeout: Duration,
    ) -> Result<Value, LeanError> {
        Err(LeanError::Closed)
    }

    pub async fn notify(&self, _method: &str, _params: Value) -> Result<(), LeanError> {
        Err(LeanError::Closed)
    }

    pub fn hide_uri(&self, _uri: &str) {}

    pub fn unhide_uri(&self, _uri: &str) {}
}
