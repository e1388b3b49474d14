//! Consent to a project's `[llm]`: a `lean-assess.toml` in the workspace may name an LLM
//! endpoint for BEq, which is used only once the user allowed it for that workspace. Owns
//! [`Consent`] (what was asked this session); the permission rule is `lean_lens`'s and
//! `crate::llm`'s, the remembered answers `crate::llm::TrustStore`'s.

use super::{lean_lens, lock, AnswerSlot, Features, ToEditor};
use crate::config::Config;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Mutex;

/// The "allow" answer of the `[llm]` confirmation.
const LLM_ALLOW: &str = "Allow";

/// The (workspace, endpoint) pairs whose `[llm]` confirmation was asked this session.
#[derive(Default)]
pub(super) struct Consent {
    asked: Mutex<HashSet<(PathBuf, String)>>,
}

impl Consent {
    /// Whether `endpoint` was not asked about for `workspace` yet (it is, from now on).
    fn first_ask(&self, workspace: PathBuf, endpoint: String) -> bool {
        lock(&self.asked).insert((workspace, endpoint))
    }
}

impl Features {
    /// A project file asks for an LLM the user has not allowed for this workspace: ask once per
    /// session (`window/showMessageRequest`); "Allow" is remembered in the user's state
    /// ([`crate::llm::TrustStore`]) and every open document is judged again. Until then BEq
    /// runs without the LLM and nothing is sent.
    pub(super) fn ask_llm_consent(&self, config: &Config) {
        let root = self.inner.settings.workspace_root();
        let crate::llm::LlmPermission::NeedsConfirmation { project_file, base_url, model } =
            lean_lens::llm_permission(config, root.as_deref())
        else {
            return;
        };
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let ws = root.unwrap_or_else(|| PathBuf::from("/"));
        if !self.inner.consent.first_ask(ws.clone(), base_url.clone()) {
            return;
        }
        let (reply, answer) = AnswerSlot::new();
        let message = format!(
            "lean-assess: {} asks to send this workspace's theorems to the LLM endpoint {base_url} \
             (model {model}) for BEq. No API key is sent unless your own settings name one \
             (leanAssess.llm.apiKeyEnv). Allow for {}?",
            project_file.display(),
            ws.display()
        );
        tracing::info!(%base_url, workspace = %ws.display(), "asking the user to allow the project's [llm]");
        self.inner.outbox.send(ToEditor::Ask {
            method: "window/showMessageRequest".into(),
            params: json!({"type": 2, "message": message,
                           "actions": [{"title": LLM_ALLOW}, {"title": "Not now"}]}),
            reply,
        });
        let this = self.clone();
        rt.spawn(async move {
            let Ok(answer) = answer.await else { return };
            if answer.get("title").and_then(Value::as_str) != Some(LLM_ALLOW) {
                tracing::info!(%base_url, "the user did not allow the project's [llm] (asked again next session)");
                return;
            }
            match crate::llm::TrustStore::user().remember(&ws, &base_url) {
                Ok(()) => {
                    tracing::info!(%base_url, workspace = %ws.display(), "the user allowed the project's [llm]");
                    for uri in this.inner.docs.uris() {
                        this.restart_job(&uri);
                    }
                }
                Err(e) => this.inner.outbox.show_message(
                    1,
                    format!("lean-assess: cannot remember the LLM permission: {e}"),
                ),
            }
        });
    }
}
