//! The LLM client: an OpenAI-compatible chat-completions endpoint, BEq's transformation function.
//!
//! Owns the HTTP exchange (`POST {base_url}/chat/completions`), the API key (read from the
//! environment variable named in `[llm] api_key_env`, kept out of `Debug`, logs and errors),
//! timeouts, and retries with exponential backoff on 429, 5xx, timeouts and connection errors.
//! It knows nothing about Lean or BEq prompts (`metrics::beq::prompt` builds those).
//!
//! Who may send what: [`permission`] decides from where each `[llm]` key came from
//! ([`crate::config::Origin`]). An endpoint from the user's own settings is used; one from a
//! project file alone is only a request, used after the user confirmed it for that workspace
//! (remembered in [`TrustStore`], in the user's state directory, never in the workspace); the
//! key's variable name is taken from the user's settings only; plain `http` goes to loopback
//! hosts only ([`check_endpoint`], also enforced on every send).
//!
//! HTTP goes through `ureq` (blocking, rustls): async callers use [`LlmClient::complete_async`],
//! which runs the blocking exchange on tokio's blocking pool.

use crate::config::{Config, LlmConfig, MAX_LLM_SAMPLES};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// One chat message (`role` is `system`, `user` or `assistant`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ChatMessage {
    pub role: String,
    pub content: String,
}

impl ChatMessage {
    pub fn user(content: impl Into<String>) -> ChatMessage {
        ChatMessage { role: "user".to_string(), content: content.into() }
    }
}

/// Everything the client needs besides the key.
#[derive(Clone, Debug, PartialEq)]
pub struct LlmSettings {
    /// Base URL up to the API version, e.g. `http://127.0.0.1:8000/v1` (no trailing slash needed).
    pub base_url: String,
    pub model: String,
    /// Name of the environment variable holding the API key; `None` sends no `Authorization`.
    pub api_key_env: Option<String>,
    /// K: how many answers one BEq direction asks for.
    pub samples: usize,
    pub temperature: f64,
    /// Bound on one HTTP exchange (connect + send + receive).
    pub timeout: Duration,
    /// Retries after the first attempt, on 429, 5xx, timeouts and connection errors.
    pub max_retries: u32,
    /// Delay before the first retry; doubled each time, capped at [`LlmSettings::max_backoff`].
    pub initial_backoff: Duration,
    pub max_backoff: Duration,
}

impl LlmSettings {
    /// Settings from the `[llm]` table, with defaults for what the contract leaves out: the
    /// paper's K = 8 and temperature 0, 60 s per request, 3 retries from 500 ms.
    pub fn from_config(config: &LlmConfig) -> LlmSettings {
        LlmSettings {
            base_url: config.base_url.clone(),
            model: config.model.clone(),
            api_key_env: config.api_key_env.clone(),
            samples: config.samples.map_or(8, |k| k.min(MAX_LLM_SAMPLES) as usize),
            temperature: 0.0,
            timeout: Duration::from_secs(60),
            max_retries: 3,
            initial_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(8),
        }
    }

    fn endpoint(&self) -> String {
        format!("{}/chat/completions", self.base_url.trim_end_matches('/'))
    }
}

/// Why a completion failed. No variant ever carries the API key: server-provided text is
/// redacted before it is stored.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error(
        "no API key for the LLM endpoint: environment variable '{env_var}' is not set or empty"
    )]
    MissingKey { env_var: String },
    #[error("LLM endpoint {url} is unreachable after {attempts} attempt(s): {detail}")]
    Unreachable { url: String, attempts: u32, detail: String },
    #[error("LLM endpoint {url} did not answer within {timeout:?} ({attempts} attempt(s))")]
    Timeout { url: String, timeout: Duration, attempts: u32 },
    #[error("LLM endpoint {url} answered HTTP {status} after {attempts} attempt(s): {body}")]
    Http {
        url: String,
        status: u16,
        attempts: u32,
        /// The start of the response body, redacted.
        body: String,
    },
    #[error("LLM endpoint {url} sent an answer that is not a chat completion: {detail}")]
    Malformed { url: String, detail: String },
    #[error("LLM endpoint {url} refused: {reason}")]
    Refused { url: String, reason: String },
    #[error("LLM requests to {url} stopped: the judgement ended (deadline or cancellation)")]
    Cancelled { url: String },
}

/// Whether `base_url` may receive requests: `https://` anywhere, plain `http://` only to a
/// loopback host (`localhost`, `127.0.0.0/8`, `[::1]`), nothing else. Credentials in the URL
/// (`user:pass@`) are refused too: they would travel in every request.
pub fn check_endpoint(base_url: &str) -> Result<(), String> {
    let url = base_url.trim();
    let lower = url.to_ascii_lowercase();
    let (https, rest) = if let Some(r) = lower.strip_prefix("https://") {
        (true, r)
    } else if let Some(r) = lower.strip_prefix("http://") {
        (false, r)
    } else {
        return Err(format!(
            "{url:?} is not an http(s) URL (expected https://… or http://127.0.0.1:PORT/…)"
        ));
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return Err(format!("{url:?} carries credentials in the URL"));
    }
    if authority.is_empty() {
        return Err(format!("{url:?} has no host"));
    }
    if https {
        return Ok(());
    }
    let host = if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        authority.split(':').next().unwrap_or("")
    };
    let loopback =
        host == "localhost" || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    if loopback {
        Ok(())
    } else {
        Err(format!(
            "{url:?}: plain http is allowed only to this machine (localhost, 127.0.0.1, [::1]); use https"
        ))
    }
}

/// What BEq may do with the `[llm]` of a config, for one workspace.
#[derive(Clone, Debug, PartialEq)]
pub enum LlmPermission {
    /// No `[llm]`: BEq's fixed attempts only.
    NotConfigured,
    /// Use these settings (the key's variable, if any, named by the user).
    Allowed(LlmSettings),
    /// The endpoint comes from a project file: nothing is sent until the user confirms this
    /// endpoint for this workspace ([`TrustStore::remember`]).
    NeedsConfirmation { project_file: PathBuf, base_url: String, model: String },
    /// Never usable as configured (e.g. plain http to another machine).
    Refused(String),
}

/// Decide what BEq may send, from where each `[llm]` key came from (see the module doc).
/// `workspace`: the folder the confirmation is remembered for.
pub fn permission(config: &Config, workspace: &Path, trust: &TrustStore) -> LlmPermission {
    let Some(llm) = &config.llm else {
        return LlmPermission::NotConfigured;
    };
    if let Err(reason) = check_endpoint(&llm.base_url) {
        return LlmPermission::Refused(reason);
    }
    let from_user = |key: &str| config.origin(key).is_some_and(|o| o.is_user());
    let mut settings = LlmSettings::from_config(llm);
    // The key's variable name only ever comes from the user: a project naming
    // `AWS_SECRET_ACCESS_KEY` gets no key at all.
    if !from_user("llm.api_key_env") {
        if let Some(var) = settings.api_key_env.take() {
            tracing::warn!(
                var,
                "[llm] api_key_env from a project file is ignored; set it in your own settings"
            );
        }
    }
    // How many requests a judgement sends is the user's to choose (each one costs): a project's
    // `samples` is ignored, as its key variable is.
    if !from_user("llm.samples") {
        if let Some(k) = llm.samples {
            tracing::warn!(
                samples = k,
                "[llm] samples from a project file is ignored; set it in your own settings"
            );
        }
        settings.samples =
            LlmSettings::from_config(&LlmConfig { samples: None, ..llm.clone() }).samples;
    }
    if from_user("llm.base_url") {
        // The user's endpoint (and key) with a model a project chose would spend the user's
        // budget on the project's choice.
        if !from_user("llm.model") {
            return LlmPermission::Refused(format!(
                "[llm] model = {:?} comes from a project file ({}) but base_url is yours: set the model in your own settings",
                llm.model,
                config
                    .origin("llm.model")
                    .map_or_else(|| config.path.display().to_string(), |o| o.path().display().to_string())
            ));
        }
        return LlmPermission::Allowed(settings);
    }
    if trust.is_trusted(workspace, &llm.base_url) {
        return LlmPermission::Allowed(settings);
    }
    LlmPermission::NeedsConfirmation {
        project_file: config
            .origin("llm.base_url")
            .map_or_else(|| config.path.clone(), |o| o.path().to_path_buf()),
        base_url: llm.base_url.clone(),
        model: llm.model.clone(),
    }
}

/// The user's answers to "may this workspace's `[llm]` endpoint be used?": one JSON file in the
/// user's state directory (`$XDG_STATE_HOME/lean-assess/llm-trust.json`, else
/// `~/.local/state/…`), never inside a workspace. Entries are (canonical workspace path,
/// endpoint); a changed endpoint asks again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrustStore {
    file: Option<PathBuf>,
}

#[derive(serde::Serialize, serde::Deserialize, Default)]
struct TrustFile {
    #[serde(default)]
    allowed: Vec<TrustEntry>,
}

#[derive(serde::Serialize, serde::Deserialize, PartialEq, Eq)]
struct TrustEntry {
    workspace: PathBuf,
    base_url: String,
}

impl TrustStore {
    /// The store in the user's state directory (none when there is no home: nothing trusted).
    pub fn user() -> TrustStore {
        let dir = std::env::var_os("XDG_STATE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")));
        TrustStore { file: dir.map(|d| d.join("lean-assess").join("llm-trust.json")) }
    }

    /// A store kept in `file` (tests).
    pub fn at(file: PathBuf) -> TrustStore {
        TrustStore { file: Some(file) }
    }

    fn read(&self) -> TrustFile {
        self.file
            .as_ref()
            .and_then(|f| std::fs::read_to_string(f).ok())
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    fn entry(workspace: &Path, base_url: &str) -> TrustEntry {
        TrustEntry {
            workspace: workspace.canonicalize().unwrap_or_else(|_| workspace.to_path_buf()),
            base_url: base_url.trim().to_string(),
        }
    }

    pub fn is_trusted(&self, workspace: &Path, base_url: &str) -> bool {
        let want = TrustStore::entry(workspace, base_url);
        self.read().allowed.contains(&want)
    }

    /// Remember the user's "allow" for this workspace and endpoint (written atomically).
    pub fn remember(&self, workspace: &Path, base_url: &str) -> std::io::Result<()> {
        let Some(file) = &self.file else {
            return Err(std::io::Error::other("no home directory for the trust store"));
        };
        let mut data = self.read();
        let entry = TrustStore::entry(workspace, base_url);
        if !data.allowed.contains(&entry) {
            data.allowed.push(entry);
        }
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let tmp = file.with_extension("json.tmp");
        std::fs::write(&tmp, serde_json::to_vec_pretty(&data).map_err(std::io::Error::other)?)?;
        std::fs::rename(&tmp, file)
    }
}

/// An OpenAI-compatible chat-completions client.
pub struct LlmClient {
    settings: LlmSettings,
    api_key: Option<String>,
    agent: ureq::Agent,
}

impl std::fmt::Debug for LlmClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmClient")
            .field("settings", &self.settings)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

/// One failed exchange, before retry policy decides what to do with it.
enum Failure {
    Retryable(LastError, Option<Duration>),
    Final(LlmError),
}

enum LastError {
    Status(u16, String),
    Timeout,
    Connection(String),
}

impl LlmClient {
    /// A client whose key is read from the environment variable in `settings.api_key_env`.
    pub fn from_env(settings: LlmSettings) -> Result<LlmClient, LlmError> {
        check_endpoint(&settings.base_url)
            .map_err(|reason| LlmError::Refused { url: settings.base_url.clone(), reason })?;
        let api_key = match &settings.api_key_env {
            None => None,
            Some(var) => match std::env::var(var) {
                Ok(key) if !key.trim().is_empty() => Some(key.trim().to_string()),
                _ => return Err(LlmError::MissingKey { env_var: var.clone() }),
            },
        };
        Ok(LlmClient::with_api_key(settings, api_key))
    }

    /// A client with an explicit key (for callers that already hold it, and tests).
    pub fn with_api_key(settings: LlmSettings, api_key: Option<String>) -> LlmClient {
        let agent = ureq::AgentBuilder::new().timeout(settings.timeout).build();
        LlmClient { settings, api_key, agent }
    }

    pub fn settings(&self) -> &LlmSettings {
        &self.settings
    }

    /// `samples` answers to `messages`. Asks for all of them with `n`; servers that ignore `n`
    /// return fewer choices, and the rest are asked for in further calls. Blocking.
    pub fn complete(
        &self,
        messages: &[ChatMessage],
        samples: usize,
    ) -> Result<Vec<String>, LlmError> {
        self.complete_until(messages, samples, &AtomicBool::new(false))
    }

    /// [`LlmClient::complete`] that sends nothing more once `cancelled` is set (checked before
    /// every request and retry). `samples` above [`MAX_LLM_SAMPLES`] is cut to it, and answers
    /// are kept as they arrive (no allocation by the count asked for).
    pub fn complete_until(
        &self,
        messages: &[ChatMessage],
        samples: usize,
        cancelled: &AtomicBool,
    ) -> Result<Vec<String>, LlmError> {
        let samples = samples.min(MAX_LLM_SAMPLES as usize);
        let mut answers = Vec::new();
        while answers.len() < samples {
            let batch = self.exchange(messages, samples - answers.len(), cancelled)?;
            if batch.is_empty() {
                return Err(LlmError::Malformed {
                    url: self.settings.endpoint(),
                    detail: "the answer has no choices".to_string(),
                });
            }
            answers.extend(batch);
        }
        answers.truncate(samples);
        Ok(answers)
    }

    /// [`LlmClient::complete`] on tokio's blocking pool. Dropping the future (the judgement's
    /// deadline passed, the job was cancelled) stops the requests: the blocking loop sees the
    /// flag before its next request instead of running to the end unobserved.
    pub async fn complete_async(
        self: &Arc<Self>,
        messages: Vec<ChatMessage>,
        samples: usize,
    ) -> Result<Vec<String>, LlmError> {
        struct CancelOnDrop(Arc<AtomicBool>);
        impl Drop for CancelOnDrop {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let cancelled = Arc::new(AtomicBool::new(false));
        let _guard = CancelOnDrop(Arc::clone(&cancelled));
        let client = Arc::clone(self);
        let url = self.settings.endpoint();
        tokio::task::spawn_blocking(move || client.complete_until(&messages, samples, &cancelled))
            .await
            .unwrap_or_else(|join| {
                Err(LlmError::Unreachable {
                    url,
                    attempts: 0,
                    detail: format!("the request task ended abnormally: {join}"),
                })
            })
    }

    /// One logical request with retries.
    fn exchange(
        &self,
        messages: &[ChatMessage],
        n: usize,
        cancelled: &AtomicBool,
    ) -> Result<Vec<String>, LlmError> {
        let url = self.settings.endpoint();
        // Every send, whatever built the client: no plain http beyond this machine.
        if let Err(reason) = check_endpoint(&self.settings.base_url) {
            return Err(LlmError::Refused { url, reason });
        }
        let body = json!({
            "model": self.settings.model,
            "messages": messages,
            "n": n,
            "temperature": self.settings.temperature,
        });
        let mut attempt: u32 = 0;
        loop {
            if cancelled.load(Ordering::Relaxed) {
                return Err(LlmError::Cancelled { url });
            }
            attempt += 1;
            tracing::debug!(%url, model = %self.settings.model, n, attempt, "chat completion request");
            let failure = match self.send_once(&url, &body) {
                Ok(answers) => return Ok(answers),
                Err(f) => f,
            };
            let (last, retry_after) = match failure {
                Failure::Final(e) => return Err(e),
                Failure::Retryable(last, retry_after) => (last, retry_after),
            };
            if attempt > self.settings.max_retries {
                return Err(self.give_up(&url, last, attempt));
            }
            let backoff = self
                .settings
                .initial_backoff
                .saturating_mul(1u32 << (attempt - 1).min(16))
                .min(self.settings.max_backoff);
            let wait =
                retry_after.map_or(backoff, |r| r.min(self.settings.max_backoff)).max(backoff);
            tracing::debug!(%url, attempt, ?wait, "chat completion failed; retrying");
            std::thread::sleep(wait);
        }
    }

    fn give_up(&self, url: &str, last: LastError, attempts: u32) -> LlmError {
        match last {
            LastError::Status(status, body) => {
                LlmError::Http { url: url.to_string(), status, attempts, body }
            }
            LastError::Timeout => {
                LlmError::Timeout { url: url.to_string(), timeout: self.settings.timeout, attempts }
            }
            LastError::Connection(detail) => {
                LlmError::Unreachable { url: url.to_string(), attempts, detail }
            }
        }
    }

    fn send_once(&self, url: &str, body: &Value) -> Result<Vec<String>, Failure> {
        let mut request = self.agent.post(url).set("Content-Type", "application/json");
        if let Some(key) = &self.api_key {
            request = request.set("Authorization", &format!("Bearer {key}"));
        }
        let payload = body.to_string();
        match request.send_string(&payload) {
            Ok(response) => {
                let text = response.into_string().map_err(|e| {
                    if is_timeout(&e) {
                        Failure::Retryable(LastError::Timeout, None)
                    } else {
                        Failure::Retryable(LastError::Connection(self.redact(&e.to_string())), None)
                    }
                })?;
                parse_choices(&text).map_err(|detail| {
                    Failure::Final(LlmError::Malformed {
                        url: url.to_string(),
                        detail: self.redact(&detail),
                    })
                })
            }
            Err(ureq::Error::Status(status, response)) => {
                let retry_after = response
                    .header("Retry-After")
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .map(Duration::from_secs);
                let text = response.into_string().unwrap_or_default();
                let excerpt: String = self.redact(&text).chars().take(300).collect();
                let last = LastError::Status(status, excerpt);
                if status == 429 || (500..600).contains(&status) {
                    Err(Failure::Retryable(last, retry_after))
                } else {
                    Err(Failure::Final(self.give_up(url, last, 1)))
                }
            }
            Err(ureq::Error::Transport(transport)) => {
                if is_timeout(&transport) {
                    Err(Failure::Retryable(LastError::Timeout, None))
                } else {
                    Err(Failure::Retryable(
                        LastError::Connection(self.redact(&transport.to_string())),
                        None,
                    ))
                }
            }
        }
    }

    /// Server text may echo request headers; the key never leaves this client.
    fn redact(&self, text: &str) -> String {
        match &self.api_key {
            Some(key) if !key.is_empty() => text.replace(key.as_str(), "<redacted>"),
            _ => text.to_string(),
        }
    }
}

/// Whether an error (or anything in its source chain) is an I/O timeout.
fn is_timeout(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = cur {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if matches!(io.kind(), std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock) {
                return true;
            }
        }
        cur = e.source();
    }
    false
}

/// The `choices[*].message.content` strings of a chat-completions answer.
fn parse_choices(text: &str) -> Result<Vec<String>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let start: String = text.chars().take(120).collect();
        format!("not JSON ({e}); it starts with {start:?}")
    })?;
    let choices = value
        .get("choices")
        .and_then(Value::as_array)
        .ok_or_else(|| "no `choices` array".to_string())?;
    choices
        .iter()
        .enumerate()
        .map(|(i, choice)| {
            choice
                .get("message")
                .and_then(|m| m.get("content"))
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| format!("choice {i} has no `message.content` string"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, Layer};

    /// A config layer read from `path`; `user`: from the user's own settings.
    fn layer(path: &Path, user: bool) -> Layer {
        Layer { path: path.to_path_buf(), user }
    }

    /// The settings of a permission that must be `Allowed`.
    fn allowed(permission: LlmPermission) -> LlmSettings {
        let LlmPermission::Allowed(settings) = permission else {
            panic!("{permission:?}");
        };
        settings
    }

    #[test]
    fn plain_http_only_to_loopback() {
        for ok in [
            "http://127.0.0.1:8000/v1",
            "http://localhost:1/v1",
            "HTTP://127.1.2.3/v1",
            "http://[::1]:80/v1",
            "https://api.example.com/v1",
        ] {
            assert_eq!(check_endpoint(ok), Ok(()), "{ok}");
        }
        for bad in [
            "http://evil.example/v1",
            "http://127.0.0.1.evil.example/v1",
            "http://10.0.0.1:8000/v1",
            "http://localhost@evil.example/v1",
            "https://user:pw@api.example.com/v1",
            "ftp://127.0.0.1/",
            "127.0.0.1:8000",
            "http:///v1",
        ] {
            assert!(check_endpoint(bad).is_err(), "{bad}");
        }
        // The client refuses too, before any request.
        let mut s = LlmSettings::from_config(&LlmConfig {
            base_url: "http://evil.example/v1".into(),
            model: "m".into(),
            api_key_env: None,
            samples: None,
        });
        assert!(matches!(LlmClient::from_env(s.clone()), Err(LlmError::Refused { .. })));
        s.max_retries = 0;
        let c = LlmClient::with_api_key(s, Some("secret".into()));
        assert!(matches!(c.complete(&[ChatMessage::user("x")], 1), Err(LlmError::Refused { .. })));
    }

    /// A workspace file alone names an endpoint and a secret's variable; nothing is
    /// allowed until the user confirms, the project's variable name is never used, and the
    /// confirmation is remembered outside the workspace.
    #[test]
    fn a_workspace_file_alone_never_sends_a_secret() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("ws");
        std::fs::create_dir_all(&ws).unwrap();
        let project = ws.join("lean-assess.toml");
        std::fs::write(
            &project,
            "[llm]\nbase_url = \"https://llm.example/v1\"\nmodel = \"m\"\napi_key_env = \"AWS_SECRET_ACCESS_KEY\"\n",
        )
        .unwrap();
        let trust = TrustStore::at(dir.path().join("state/llm-trust.json"));
        let cfg = Config::load_layers(&[layer(&project, false)]).unwrap();
        match permission(&cfg, &ws, &trust) {
            LlmPermission::NeedsConfirmation { project_file, base_url, .. } => {
                assert_eq!(project_file, project);
                assert_eq!(base_url, "https://llm.example/v1");
            }
            other => panic!("{other:?}"),
        }
        trust.remember(&ws, "https://llm.example/v1").unwrap();
        assert!(!ws.join("llm-trust.json").exists());
        assert_eq!(
            allowed(permission(&cfg, &ws, &trust)).api_key_env,
            None,
            "project's variable used"
        );
        // Another workspace, or another endpoint, asks again.
        let other = dir.path().join("other");
        std::fs::create_dir_all(&other).unwrap();
        assert!(matches!(
            permission(&cfg, &other, &trust),
            LlmPermission::NeedsConfirmation { .. }
        ));
        // The user's own settings: endpoint and key variable used without asking.
        let user = dir.path().join("user.toml");
        std::fs::write(
            &user,
            "[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\napi_key_env = \"MY_KEY\"\n",
        )
        .unwrap();
        let cfg = Config::load_layers(&[layer(&project, false), layer(&user, true)]).unwrap();
        assert_eq!(
            allowed(permission(&cfg, &other, &trust)).api_key_env.as_deref(),
            Some("MY_KEY")
        );
        // Plain http to another machine: refused whoever set it.
        std::fs::write(&user, "[llm]\nbase_url = \"http://10.1.1.1/v1\"\nmodel = \"m\"\n").unwrap();
        let cfg = Config::load_layers(&[layer(&user, true)]).unwrap();
        assert!(matches!(permission(&cfg, &other, &trust), LlmPermission::Refused(_)));
    }

    /// A project's `lean-assess.toml` cannot choose how many requests the user's endpoint and
    /// key get, nor the model they are spent on; the count is bounded whoever sets it.
    #[test]
    fn samples_and_model_are_the_users_and_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("ws");
        std::fs::create_dir_all(&ws).unwrap();
        let trust = TrustStore::at(dir.path().join("state/llm-trust.json"));
        let project = ws.join("lean-assess.toml");
        let user = dir.path().join("user.toml");
        std::fs::write(&project, "[llm]\nsamples = 50\n").unwrap();
        std::fs::write(&user, "[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n")
            .unwrap();
        let cfg = Config::load_layers(&[layer(&project, false), layer(&user, true)]).unwrap();
        assert_eq!(allowed(permission(&cfg, &ws, &trust)).samples, 8, "the project's samples used");
        // The user's own samples are used.
        std::fs::write(
            &user,
            "[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\nsamples = 3\n",
        )
        .unwrap();
        let cfg = Config::load_layers(&[layer(&project, false), layer(&user, true)]).unwrap();
        assert_eq!(allowed(permission(&cfg, &ws, &trust)).samples, 3);
        // A project's model on the user's endpoint is refused, naming the file.
        std::fs::write(&project, "[llm]\nmodel = \"very-expensive\"\n").unwrap();
        std::fs::write(&user, "[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\n").unwrap();
        let cfg = Config::load_layers(&[layer(&project, false), layer(&user, true)]).unwrap();
        match permission(&cfg, &ws, &trust) {
            LlmPermission::Refused(why) => {
                assert!(why.contains("very-expensive") && why.contains("lean-assess.toml"), "{why}")
            }
            other => panic!("{other:?}"),
        }
        // Beyond the bound: one message naming the file and the limit, whoever wrote it.
        for (file, user_layer) in [(&project, false), (&user, true)] {
            std::fs::write(
                file,
                "[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\nsamples = 4294967295\n",
            )
            .unwrap();
            let e = Config::load_layers(&[layer(file, user_layer)]).unwrap_err();
            assert!(e.to_string().contains("above the limit of 64"), "{e}");
        }
    }

    #[test]
    fn parses_choices_and_rejects_malformed_answers() {
        let ok = r#"{"choices":[{"message":{"role":"assistant","content":"a"}},{"message":{"content":"b"}}]}"#;
        assert_eq!(parse_choices(ok), Ok(vec!["a".to_string(), "b".to_string()]));
        assert!(parse_choices("<html>").unwrap_err().contains("not JSON"));
        assert!(parse_choices("{}").unwrap_err().contains("choices"));
        assert!(parse_choices(r#"{"choices":[{"text":"a"}]}"#).unwrap_err().contains("choice 0"));
    }

    #[test]
    fn debug_hides_the_key() {
        let settings = LlmSettings::from_config(&LlmConfig {
            base_url: "http://127.0.0.1:1/v1/".to_string(),
            model: "m".to_string(),
            api_key_env: None,
            samples: Some(3),
        });
        assert_eq!(settings.endpoint(), "http://127.0.0.1:1/v1/chat/completions");
        assert_eq!(settings.samples, 3);
        let client = LlmClient::with_api_key(settings, Some("sk-very-secret".to_string()));
        assert!(!format!("{client:?}").contains("sk-very-secret"));
    }
}
