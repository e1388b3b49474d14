//! JSON-RPC's error rules in front of the MCP library: every line from the client is checked
//! before `rmcp` sees it, and a line that is not a valid message gets the response JSON-RPC 2.0
//! specifies (§5.1, and the examples in §7) instead of silence or an error without an `id`:
//!
//! - not JSON (or longer than [`MAX_LINE_BYTES`]): `-32700` Parse error, `"id": null`;
//! - an array (a batch; MCP has no batches since 2025-06-18): one `-32600` per element, in an
//!   array (`[]` itself: one `-32600`), each with the element's id when it has a valid one;
//! - an object that is neither a request/notification (`method` a string) nor a response
//!   (`result` or `error`), whose `jsonrpc` is not `"2.0"`, or whose `id` is not a string, a
//!   number or null: `-32600` Invalid Request, with its id when that is valid, else `null`.
//!
//! Owns only this check and the plumbing: stdin → check → `rmcp`'s reader; `rmcp`'s writer and
//! the error responses → stdout, one whole line at a time.

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// The longest message line read; a longer one is answered as a parse error and skipped.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// What to do with one line from the client.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// A message for the MCP library.
    Pass,
    /// Blank: nothing to do.
    Skip,
    /// Not a valid message: this response goes back instead.
    Answer(Value),
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn valid_id(id: &Value) -> bool {
    id.is_string() || id.is_null() || id.as_i64().is_some() || id.as_u64().is_some()
}

/// The response for an invalid message object, or `None` when it is valid.
fn invalid_object(message: &serde_json::Map<String, Value>) -> Option<Value> {
    let id = message.get("id");
    let id_ok = id.is_none_or(valid_id);
    let reply_id = if id_ok { id.cloned().unwrap_or(Value::Null) } else { Value::Null };
    let invalid = |why: &str| Some(error(reply_id.clone(), -32600, why));
    if message.get("jsonrpc") != Some(&Value::String("2.0".into())) {
        return invalid("Invalid Request: `jsonrpc` must be \"2.0\"");
    }
    if !id_ok {
        return invalid("Invalid Request: `id` must be a string, a number or null");
    }
    match message.get("method") {
        Some(Value::String(_)) => None,
        Some(_) => invalid("Invalid Request: `method` must be a string"),
        None if id.is_some()
            && (message.contains_key("result") || message.contains_key("error")) =>
        {
            None
        }
        None => invalid("Invalid Request: no `method` (and not a response)"),
    }
}

/// Check one line from the client.
pub fn check(line: &[u8]) -> Verdict {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Skip;
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => return Verdict::Answer(error(Value::Null, -32700, &format!("Parse error: {e}"))),
    };
    match value {
        Value::Object(map) => match invalid_object(&map) {
            None => Verdict::Pass,
            Some(reply) => Verdict::Answer(reply),
        },
        Value::Array(items) if items.is_empty() => {
            Verdict::Answer(error(Value::Null, -32600, "Invalid Request: an empty batch"))
        }
        Value::Array(items) => Verdict::Answer(Value::Array(
            items
                .iter()
                .map(|item| {
                    let id =
                        item.get("id").filter(|id| valid_id(id)).cloned().unwrap_or(Value::Null);
                    error(id, -32600, "Invalid Request: batches are not supported")
                })
                .collect(),
        )),
        _ => Verdict::Answer(error(
            Value::Null,
            -32600,
            "Invalid Request: a message is a JSON object",
        )),
    }
}

/// Run the check between `input`/`output` (stdin/stdout) and the library's ends: valid lines go
/// to `to_library`; the library's lines (read from `from_library`) and the error responses go to
/// `output`. Returns when the client's input and the library's output have both ended.
pub async fn run(
    input: impl AsyncRead + Unpin + Send + 'static,
    mut output: impl AsyncWrite + Unpin + Send + 'static,
    mut to_library: impl AsyncWrite + Unpin + Send + 'static,
    from_library: impl AsyncRead + Unpin + Send + 'static,
) {
    let (lines, mut outgoing) = mpsc::channel::<Vec<u8>>(64);
    let answers = lines.clone();
    let reader = tokio::spawn(async move {
        let mut input = BufReader::new(input);
        let mut line = Vec::new();
        loop {
            line.clear();
            let mut limited = (&mut input).take(MAX_LINE_BYTES as u64 + 1);
            match limited.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let verdict = if line.len() > MAX_LINE_BYTES && !line.ends_with(b"\n") {
                // Skip the rest of the oversized line.
                let mut rest = Vec::new();
                let _ = input.read_until(b'\n', &mut rest).await;
                Verdict::Answer(error(
                    Value::Null,
                    -32700,
                    &format!("Parse error: a message longer than {MAX_LINE_BYTES} bytes"),
                ))
            } else {
                check(&line)
            };
            match verdict {
                Verdict::Pass => {
                    if to_library.write_all(&line).await.is_err() {
                        break;
                    }
                    if !line.ends_with(b"\n") && to_library.write_all(b"\n").await.is_err() {
                        break;
                    }
                    let _ = to_library.flush().await;
                }
                Verdict::Skip => {}
                Verdict::Answer(reply) => {
                    let mut bytes = reply.to_string().into_bytes();
                    bytes.push(b'\n');
                    if answers.send(bytes).await.is_err() {
                        break;
                    }
                }
            }
        }
        // The client is gone: the library sees the end of its input.
        let _ = to_library.shutdown().await;
    });
    let forward = tokio::spawn(async move {
        let mut from_library = BufReader::new(from_library);
        loop {
            let mut line = Vec::new();
            match from_library.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if lines.send(line).await.is_err() {
                        break;
                    }
                }
            }
        }
    });
    while let Some(line) = outgoing.recv().await {
        if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
            break;
        }
    }
    let _ = forward.await;
    reader.abort();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> Value {
        match check(line.as_bytes()) {
            Verdict::Answer(v) => v,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn each_bad_message_gets_the_specified_error() {
        let v = answer("not json");
        assert_eq!((v["id"].clone(), v["error"]["code"].clone()), (Value::Null, json!(-32700)));
        let v = answer("[1,2,3]");
        assert_eq!(v.as_array().map(Vec::len), Some(3));
        assert!(v
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["error"]["code"] == -32600 && e["id"].is_null()));
        let v = answer("[]");
        assert_eq!(v["error"]["code"], -32600);
        let v = answer(r#"{"jsonrpc":"2.0","id":5}"#);
        assert_eq!((v["id"].clone(), v["error"]["code"].clone()), (json!(5), json!(-32600)));
        let v = answer(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}"#);
        assert_eq!((v["id"].clone(), v["error"]["code"].clone()), (Value::Null, json!(-32600)));
        let v = answer(r#"{"jsonrpc":"1.0","id":2,"method":"tools/list"}"#);
        assert_eq!((v["id"].clone(), v["error"]["code"].clone()), (json!(2), json!(-32600)));
        let v = answer(r#"{"jsonrpc":"2.0","id":3,"method":7}"#);
        assert_eq!(v["error"]["code"], -32600);
        let v = answer("42");
        assert_eq!(v["error"]["code"], -32600);
        assert!(v.as_object().unwrap().contains_key("id"));
    }

    #[test]
    fn requests_notifications_and_responses_pass() {
        for ok in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":0,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":0,"error":{"code":1,"message":"x"}}"#,
        ] {
            assert_eq!(check(ok.as_bytes()), Verdict::Pass, "{ok}");
        }
        assert_eq!(check(b"  \n"), Verdict::Skip);
    }
}
