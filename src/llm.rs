//! The LLM client: an OpenAI-compatible chat-completions endpoint, BEq's transformation function.
//!
//! Owns the HTTP exchange (`POST {base_url}/chat/completions`), the API key (read from the
//! environment variable named in `[llm] api_key_env`, kept out of `Debug`, logs and errors),
//! timeouts, and retries with exponential backoff on 429, 5xx, timeouts and connection errors.
//! It knows nothing about Lean or BEq prompts (`metrics::beq::prompt` builds those).
//!
//! HTTP goes through `ureq` (blocking, rustls): async callers use [`LlmClient::complete_async`],
//! which runs the blocking exchange on tokio's blocking pool.

use crate::references::LlmConfig;
use serde_json::{json, Value};
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
        ChatMessage {
            role: "user".to_string(),
            content: content.into(),
        }
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
            samples: config.samples.map_or(8, |k| k as usize),
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
    Unreachable {
        url: String,
        attempts: u32,
        detail: String,
    },
    #[error("LLM endpoint {url} did not answer within {timeout:?} ({attempts} attempt(s))")]
    Timeout {
        url: String,
        timeout: Duration,
        attempts: u32,
    },
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
        let api_key = match &settings.api_key_env {
            None => None,
            Some(var) => match std::env::var(var) {
                Ok(key) if !key.trim().is_empty() => Some(key.trim().to_string()),
                _ => {
                    return Err(LlmError::MissingKey {
                        env_var: var.clone(),
                    })
                }
            },
        };
        Ok(LlmClient::with_api_key(settings, api_key))
    }

    /// A client with an explicit key (for callers that already hold it, and tests).
    pub fn with_api_key(settings: LlmSettings, api_key: Option<String>) -> LlmClient {
        let agent = ureq::AgentBuilder::new().timeout(settings.timeout).build();
        LlmClient {
            settings,
            api_key,
            agent,
        }
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
        let mut answers = Vec::with_capacity(samples);
        while answers.len() < samples {
            let batch = self.exchange(messages, samples - answers.len())?;
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

    /// [`LlmClient::complete`] on tokio's blocking pool.
    pub async fn complete_async(
        self: &Arc<Self>,
        messages: Vec<ChatMessage>,
        samples: usize,
    ) -> Result<Vec<String>, LlmError> {
        let client = Arc::clone(self);
        let url = self.settings.endpoint();
        tokio::task::spawn_blocking(move || client.complete(&messages, samples))
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
    fn exchange(&self, messages: &[ChatMessage], n: usize) -> Result<Vec<String>, LlmError> {
        let url = self.settings.endpoint();
        let body = json!({
            "model": self.settings.model,
            "messages": messages,
            "n": n,
            "temperature": self.settings.temperature,
        });
        let mut attempt: u32 = 0;
        loop {
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
            let wait = retry_after
                .map_or(backoff, |r| r.min(self.settings.max_backoff))
                .max(backoff);
            tracing::debug!(%url, attempt, ?wait, "chat completion failed; retrying");
            std::thread::sleep(wait);
        }
    }

    fn give_up(&self, url: &str, last: LastError, attempts: u32) -> LlmError {
        match last {
            LastError::Status(status, body) => LlmError::Http {
                url: url.to_string(),
                status,
                attempts,
                body,
            },
            LastError::Timeout => LlmError::Timeout {
                url: url.to_string(),
                timeout: self.settings.timeout,
                attempts,
            },
            LastError::Connection(detail) => LlmError::Unreachable {
                url: url.to_string(),
                attempts,
                detail,
            },
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
            if matches!(
                io.kind(),
                std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
            ) {
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

    #[test]
    fn parses_choices_and_rejects_malformed_answers() {
        let ok = r#"{"choices":[{"message":{"role":"assistant","content":"a"}},{"message":{"content":"b"}}]}"#;
        assert_eq!(
            parse_choices(ok),
            Ok(vec!["a".to_string(), "b".to_string()])
        );
        assert!(parse_choices("<html>").unwrap_err().contains("not JSON"));
        assert!(parse_choices("{}").unwrap_err().contains("choices"));
        assert!(parse_choices(r#"{"choices":[{"text":"a"}]}"#)
            .unwrap_err()
            .contains("choice 0"));
    }

    #[test]
    fn debug_hides_the_key() {
        let settings = LlmSettings::from_config(&LlmConfig {
            base_url: "http://127.0.0.1:1/v1/".to_string(),
            model: "m".to_string(),
            api_key_env: None,
            samples: Some(3),
        });
        assert_eq!(
            settings.endpoint(),
            "http://127.0.0.1:1/v1/chat/completions"
        );
        assert_eq!(settings.samples, 3);
        let client = LlmClient::with_api_key(settings, Some("sk-very-secret".to_string()));
        assert!(!format!("{client:?}").contains("sk-very-secret"));
    }
}
