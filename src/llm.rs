//! The `[llm]` client: K completions from an OpenAI-compatible chat-completions endpoint (for
//! BEq's LLM attempts, BEq paper §3 / design §7.10).
//!
//! Owns one HTTP exchange (`POST <endpoint>/chat/completions`, JSON in and out), its timeout,
//! retries with exponential backoff (connection failures, timeouts, 429 and 5xx), and errors that
//! say what went wrong without ever containing the API key (it is read from the environment at
//! call time, sent only in the `Authorization` header, and not stored in [`LlmConfig`]).
//! Leaves to others: the prompt, checking the returned proofs (`crate::metrics::beq`).
//!
//! Plain `http://` only: no TLS stack is among the dependencies; a local or proxied endpoint
//! (vLLM, llama.cpp, an HTTPS-terminating proxy) works, `https://` is refused with a clear error.

use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Where and how to ask.
#[derive(Clone, Debug)]
pub struct LlmConfig {
    /// Base URL, e.g. `http://127.0.0.1:8000/v1`.
    pub endpoint: String,
    pub model: String,
    /// Environment variable holding the API key (`None`: no key sent).
    pub api_key_env: Option<String>,
    /// Per attempt (connect + request + response).
    pub timeout: Duration,
    /// Retries after the first attempt.
    pub retries: u32,
    /// First backoff; doubled after each retry.
    pub backoff: Duration,
    pub temperature: f64,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            endpoint: "http://127.0.0.1:8000/v1".into(),
            model: "default".into(),
            api_key_env: None,
            timeout: Duration::from_secs(120),
            retries: 2,
            backoff: Duration::from_millis(500),
            temperature: 0.0,
        }
    }
}

/// Why no completions came back. Never contains the API key.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    #[error("[llm] api key: environment variable {var} is not set")]
    MissingKey { var: String },
    #[error("[llm] endpoint {endpoint}: {why}")]
    BadEndpoint { endpoint: String, why: String },
    #[error("[llm] endpoint {endpoint} unreachable after {attempts} attempt(s): {why}")]
    Unreachable {
        endpoint: String,
        attempts: u32,
        why: String,
    },
    #[error("[llm] endpoint {endpoint} answered HTTP {status}: {body}")]
    Status {
        endpoint: String,
        status: u16,
        body: String,
    },
    #[error("[llm] endpoint {endpoint}: unexpected response: {what}")]
    Shape { endpoint: String, what: String },
}

/// `http://host[:port]/path` → (host, port, path).
fn split_url(endpoint: &str) -> Result<(String, u16, String), LlmError> {
    let bad = |why: &str| LlmError::BadEndpoint {
        endpoint: endpoint.into(),
        why: why.into(),
    };
    if endpoint.starts_with("https://") {
        return Err(bad(
            "https is not supported (no TLS); use http:// or a local proxy",
        ));
    }
    let rest = endpoint
        .strip_prefix("http://")
        .ok_or_else(|| bad("must start with http://"))?;
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) => (h, p.parse().map_err(|_| bad("bad port"))?),
        None => (authority, 80),
    };
    if host.is_empty() {
        return Err(bad("no host"));
    }
    Ok((
        host.into(),
        port,
        format!("/{}", path.trim_end_matches('/')),
    ))
}

/// Decode a `Transfer-Encoding: chunked` body.
fn dechunk(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = body.windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(&body[..line_end]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        body = &body[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(body.get(..size)?);
        body = body.get(size + 2..)?;
    }
}

/// One exchange: (status, body).
async fn exchange(host: &str, port: u16, request: &[u8]) -> Result<(u16, Vec<u8>), std::io::Error> {
    let mut stream = TcpStream::connect((host, port)).await?;
    stream.write_all(request).await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let invalid = |m: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, m.to_string());
    let head_end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| invalid("no end of headers"))?;
    let head = String::from_utf8_lossy(&raw[..head_end]).to_string();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| invalid("no status"))?;
    let body = &raw[head_end + 4..];
    let chunked = head.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    let body = if chunked {
        dechunk(body).ok_or_else(|| invalid("bad chunked body"))?
    } else {
        body.to_vec()
    };
    Ok((status, body))
}

/// Ask for `n` completions of `messages` (`(role, content)` pairs).
pub async fn complete(
    config: &LlmConfig,
    messages: &[(&str, &str)],
    n: u32,
) -> Result<Vec<String>, LlmError> {
    let endpoint = config.endpoint.clone();
    let key = match &config.api_key_env {
        Some(var) => {
            Some(std::env::var(var).map_err(|_| LlmError::MissingKey { var: var.clone() })?)
        }
        None => None,
    };
    let (host, port, base) = split_url(&endpoint)?;
    let body = json!({
        "model": config.model,
        "messages": messages.iter().map(|(r, c)| json!({"role": r, "content": c})).collect::<Vec<_>>(),
        "n": n,
        "temperature": config.temperature,
    })
    .to_string();
    let mut request = format!(
        "POST {base}/chat/completions HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(k) = &key {
        request.push_str(&format!("Authorization: Bearer {k}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);

    let mut backoff = config.backoff;
    let mut last = String::new();
    for attempt in 0..=config.retries {
        if attempt > 0 {
            tokio::time::sleep(backoff).await;
            backoff *= 2;
        }
        match tokio::time::timeout(config.timeout, exchange(&host, port, request.as_bytes())).await
        {
            Err(_) => last = format!("timed out after {:?}", config.timeout),
            Ok(Err(e)) => last = e.to_string(),
            Ok(Ok((status, body))) if status == 429 || status >= 500 => {
                last = format!("HTTP {status}");
                let _ = body;
            }
            Ok(Ok((status, body))) if !(200..300).contains(&status) => {
                let text = String::from_utf8_lossy(&body);
                return Err(LlmError::Status {
                    endpoint,
                    status,
                    body: text.chars().take(300).collect(),
                });
            }
            Ok(Ok((_, body))) => {
                let v: Value = serde_json::from_slice(&body).map_err(|e| LlmError::Shape {
                    endpoint: endpoint.clone(),
                    what: format!("not JSON: {e}"),
                })?;
                let choices =
                    v.get("choices")
                        .and_then(Value::as_array)
                        .ok_or_else(|| LlmError::Shape {
                            endpoint: endpoint.clone(),
                            what: "no `choices` array".into(),
                        })?;
                return Ok(choices
                    .iter()
                    .filter_map(|c| c.pointer("/message/content").and_then(Value::as_str))
                    .map(String::from)
                    .collect());
            }
        }
        tracing::debug!(%endpoint, attempt, why = %last, "llm request failed; retrying");
    }
    Err(LlmError::Unreachable {
        endpoint,
        attempts: config.retries + 1,
        why: last,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::net::TcpListener;

    /// A local HTTP stand-in: answers each connection with the next canned response and
    /// records the requests.
    async fn server(responses: Vec<String>) -> (String, tokio::task::JoinHandle<Vec<String>>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let task = tokio::spawn(async move {
            let mut seen = Vec::new();
            for r in responses {
                let (mut s, _) = listener.accept().await.expect("accept");
                let mut buf = vec![0u8; 65536];
                let mut got = Vec::new();
                // Read headers and the announced body.
                loop {
                    let n = s.read(&mut buf).await.expect("read");
                    got.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&got).to_string();
                    if let Some(end) = text.find("\r\n\r\n") {
                        let len: usize = text
                            .lines()
                            .find_map(|l| l.strip_prefix("Content-Length: "))
                            .and_then(|v| v.trim().parse().ok())
                            .unwrap_or(0);
                        if got.len() >= end + 4 + len {
                            break;
                        }
                    }
                    if n == 0 {
                        break;
                    }
                }
                seen.push(String::from_utf8_lossy(&got).to_string());
                s.write_all(r.as_bytes()).await.expect("write");
            }
            seen
        });
        (format!("http://{addr}/v1"), task)
    }

    fn ok(body: &str) -> String {
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
    }

    #[tokio::test]
    async fn completions_after_a_retry_with_the_key_only_in_the_header() {
        std::env::set_var("LEAN_ASSESS_TEST_LLM_KEY", "sk-secret-123");
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        let body = r#"{"choices":[{"message":{"role":"assistant","content":"exact thm_P"}},{"message":{"content":"intro h\nexact thm_P h"}}]}"#;
        let chunked = format!("{chunked}{:x}\r\n{body}\r\n0\r\n\r\n", body.len());
        let (endpoint, task) = server(vec![
            "HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n".into(),
            chunked,
        ])
        .await;
        let config = LlmConfig {
            endpoint,
            api_key_env: Some("LEAN_ASSESS_TEST_LLM_KEY".into()),
            backoff: Duration::from_millis(10),
            timeout: Duration::from_secs(5),
            ..LlmConfig::default()
        };
        let out = complete(&config, &[("user", "prove it")], 2)
            .await
            .expect("completions");
        assert_eq!(out, ["exact thm_P", "intro h\nexact thm_P h"]);
        let seen = task.await.expect("server");
        assert_eq!(seen.len(), 2);
        assert!(seen[1].starts_with("POST /v1/chat/completions HTTP/1.1\r\n"));
        assert!(seen[1].contains("Authorization: Bearer sk-secret-123\r\n"));
        assert!(seen[1].contains(r#""n":2"#));
    }

    #[tokio::test]
    async fn clear_errors_without_the_key() {
        let missing = LlmConfig {
            api_key_env: Some("LEAN_ASSESS_TEST_LLM_NO_SUCH_VAR".into()),
            ..LlmConfig::default()
        };
        assert_eq!(
            complete(&missing, &[("user", "x")], 1).await,
            Err(LlmError::MissingKey {
                var: "LEAN_ASSESS_TEST_LLM_NO_SUCH_VAR".into()
            })
        );
        let tls = LlmConfig {
            endpoint: "https://api.example.com/v1".into(),
            ..LlmConfig::default()
        };
        assert!(matches!(
            complete(&tls, &[("user", "x")], 1).await,
            Err(LlmError::BadEndpoint { .. })
        ));
        // Nothing listens on the port of a dropped listener.
        let port = {
            let l = TcpListener::bind("127.0.0.1:0").await.expect("bind");
            l.local_addr().expect("addr").port()
        };
        std::env::set_var("LEAN_ASSESS_TEST_LLM_KEY2", "sk-never-shown");
        let down = LlmConfig {
            endpoint: format!("http://127.0.0.1:{port}/v1"),
            api_key_env: Some("LEAN_ASSESS_TEST_LLM_KEY2".into()),
            retries: 1,
            backoff: Duration::from_millis(5),
            timeout: Duration::from_secs(2),
            ..LlmConfig::default()
        };
        let err = complete(&down, &[("user", "x")], 1)
            .await
            .expect_err("unreachable");
        assert!(matches!(err, LlmError::Unreachable { attempts: 2, .. }));
        assert!(!err.to_string().contains("sk-never-shown"));
        let (endpoint, _task) = server(vec![
            "HTTP/1.1 401 Unauthorized\r\nContent-Length: 13\r\n\r\nbad api key!!".into(),
        ])
        .await;
        let denied = LlmConfig {
            endpoint,
            api_key_env: Some("LEAN_ASSESS_TEST_LLM_KEY2".into()),
            ..LlmConfig::default()
        };
        let err = complete(&denied, &[("user", "x")], 1)
            .await
            .expect_err("401");
        assert!(matches!(err, LlmError::Status { status: 401, .. }));
        assert!(!format!("{err:?}").contains("sk-never-shown"));
    }

    #[tokio::test]
    async fn plain_bodies_and_shape_errors() {
        let (endpoint, _task) = server(vec![
            ok(r#"{"choices":[{"message":{"content":"rfl"}}]}"#),
            ok("<html>not json</html>"),
            ok(r#"{"error":"no choices"}"#),
        ])
        .await;
        let config = LlmConfig {
            endpoint,
            ..LlmConfig::default()
        };
        assert_eq!(
            complete(&config, &[("user", "x")], 1).await,
            Ok(vec!["rfl".to_string()])
        );
        assert!(matches!(
            complete(&config, &[("user", "x")], 1).await,
            Err(LlmError::Shape { .. })
        ));
        assert!(matches!(
            complete(&config, &[("user", "x")], 1).await,
            Err(LlmError::Shape { .. })
        ));
    }
}
