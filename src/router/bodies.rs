//! Reading and writing message bodies without building a `Value` of the whole message where
//! that matters: a message's `params`, a `didOpen`'s text decoded straight into one string, a
//! field rewritten keeping Lean's other fields, our responses written around their JSON text,
//! a cancelled id, a reply to one of our requests. Routing is the router's; the frames are
//! `wire`'s.

use super::codes;
use crate::features::JsonText;
use crate::pending::Reply;
use crate::wire::RequestId;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

#[derive(Deserialize)]
struct ParamsOnly {
    #[serde(default)]
    params: Value,
}

/// The `params` of a message (`Null` when absent or unreadable).
pub(super) fn params_of(bytes: &[u8]) -> Value {
    serde_json::from_slice::<ParamsOnly>(bytes).map(|p| p.params).unwrap_or(Value::Null)
}

#[derive(Deserialize)]
struct OpenBody<'a> {
    #[serde(borrow)]
    params: OpenParamsRaw<'a>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OpenParamsRaw<'a> {
    #[serde(borrow)]
    text_document: OpenItemRaw<'a>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OpenItemRaw<'a> {
    uri: Value,
    #[serde(default)]
    language_id: Value,
    version: Value,
    #[serde(borrow)]
    text: &'a RawValue,
}

/// A `didOpen`'s params with the text decoded straight into one string of the right size.
/// serde_json decodes an escaped string (every line break of a file is `\n`) through a scratch
/// buffer grown by doubling, then copies it: up to three times the text at once on top of the
/// frame. `None` when the message is not of that shape (the caller parses it the usual way).
pub(super) fn did_open_params(bytes: &[u8]) -> Option<Value> {
    let body: OpenBody<'_> = serde_json::from_slice(bytes).ok()?;
    let item = body.params.text_document;
    let text = unescape_json_string(item.text.get())?;
    Some(json!({"textDocument": {
        "uri": item.uri,
        "languageId": item.language_id,
        "version": item.version,
        "text": Value::String(text),
    }}))
}

/// The string a JSON string literal (quotes included, already validated by serde_json) stands
/// for (RFC 8259 §7). `None` on anything else, e.g. a lone surrogate (which serde_json rejects
/// too).
fn unescape_json_string(literal: &str) -> Option<String> {
    let inner = literal.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    let hex4 = |s: &str| -> Option<u32> {
        let h = s.get(..4)?;
        h.bytes().all(|b| b.is_ascii_hexdigit()).then(|| u32::from_str_radix(h, 16).ok()).flatten()
    };
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let esc = *rest.as_bytes().get(i + 1)?;
        rest = rest.get(i + 2..)?;
        match esc {
            b'"' => out.push('"'),
            b'\\' => out.push('\\'),
            b'/' => out.push('/'),
            b'b' => out.push('\u{8}'),
            b'f' => out.push('\u{c}'),
            b'n' => out.push('\n'),
            b'r' => out.push('\r'),
            b't' => out.push('\t'),
            b'u' => {
                let hi = hex4(rest)?;
                rest = &rest[4..];
                let c = if (0xD800..0xDC00).contains(&hi) {
                    let lo = rest.strip_prefix("\\u").and_then(hex4)?;
                    if !(0xDC00..0xE000).contains(&lo) {
                        return None;
                    }
                    rest = &rest[6..];
                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))?
                } else {
                    char::from_u32(hi)?
                };
                out.push(c);
            }
            _ => return None,
        }
    }
    out.push_str(rest);
    Some(out)
}

/// Re-serialize `bytes` with `field` replaced by `f(old)`, keeping every other field and the
/// key order (serde_json `preserve_order`). Unparseable input is returned unchanged.
pub(super) fn rewrite_field(
    bytes: Vec<u8>,
    field: &str,
    f: impl FnOnce(Value) -> Value,
) -> Vec<u8> {
    let Ok(mut object) = serde_json::from_slice::<Map<String, Value>>(&bytes) else {
        return bytes;
    };
    let Some(old) = object.get_mut(field) else {
        return bytes;
    };
    let new = f(old.take());
    *old = new;
    serde_json::to_vec(&object).unwrap_or(bytes)
}

/// A JSON-RPC response: our own answer's JSON text is written as it is (the code lens answer is
/// put together from per-theorem texts, not parsed again).
pub(super) fn response_body(id: &RequestId, result: Result<JsonText, (i64, String)>) -> Vec<u8> {
    match result {
        Ok(result) => {
            let text = result.get();
            let mut body = Vec::with_capacity(text.len() + 48);
            body.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
            serde_json::to_writer(&mut body, &id.to_json())
                .expect("BUG: a JSON value always serializes");
            body.extend_from_slice(br#","result":"#);
            body.extend_from_slice(text.as_bytes());
            body.push(b'}');
            body
        }
        Err((code, message)) => serde_json::to_vec(
            &json!({"jsonrpc": "2.0", "id": id.to_json(), "error": {"code": code, "message": message}}),
        )
        .expect("BUG: a JSON value always serializes"),
    }
}

#[derive(Deserialize)]
struct CancelParams {
    params: CancelId,
}
#[derive(Deserialize)]
struct CancelId {
    id: Value,
}

/// The id a `$/cancelRequest` names.
pub(super) fn cancelled_id(bytes: &[u8]) -> Option<RequestId> {
    let p: CancelParams = serde_json::from_slice(bytes).ok()?;
    Some(match p.params.id {
        Value::Number(n) if n.is_i64() => RequestId::Num(n.as_i64()?),
        Value::String(s) => RequestId::Str(s),
        other => RequestId::Other(other.to_string()),
    })
}

#[derive(Deserialize)]
struct ReplyBody {
    #[serde(default)]
    result: Option<Value>,
    #[serde(default)]
    error: Option<ReplyError>,
}
#[derive(Deserialize)]
struct ReplyError {
    code: i64,
    #[serde(default)]
    message: String,
    #[serde(default)]
    data: Option<Value>,
}

/// A reply to one of our requests, as the pending table takes it.
pub(super) fn reply_of(bytes: &[u8]) -> Reply {
    match serde_json::from_slice::<ReplyBody>(bytes) {
        Ok(ReplyBody { error: Some(e), .. }) => {
            Reply::Error { code: e.code, message: e.message, data: e.data }
        }
        Ok(ReplyBody { result, .. }) => Reply::Result(result.unwrap_or(Value::Null)),
        Err(e) => Reply::Error {
            code: codes::INTERNAL_ERROR,
            message: format!("unreadable reply: {e}"),
            data: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_open_text_is_decoded_as_serde_json_does() {
        let texts = [
            String::new(),
            "plain".to_string(),
            "import Mathlib\n\ttheorem t : \"∀ x, x = x\" := by\\ rfl\r\n".to_string(),
            "\u{0}\u{1f}\u{7f}\u{8}\u{c} / 🦀 \u{10ffff} ℝ".to_string(),
        ];
        for text in texts {
            let msg = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params":
                {"textDocument": {"uri": "file:///a.lean", "languageId": "lean4", "version": 3, "text": text}}});
            let bytes = serde_json::to_vec(&msg).expect("json");
            assert_eq!(did_open_params(&bytes), Some(msg["params"].clone()));
        }
        // Escapes serde_json writes only on request: \u forms, surrogate pairs, `\/`.
        let raw = r#""a\u00e9\/\ud83e\udd80\u2200""#;
        assert_eq!(unescape_json_string(raw), serde_json::from_str::<String>(raw).ok());
        assert_eq!(unescape_json_string(r#""\ud83e""#), None);
        assert_eq!(unescape_json_string(r#""\ud83e\u0041""#), None);
        // Not the shape: the caller's usual parse decides.
        assert_eq!(did_open_params(br#"{"params":{"textDocument":{"uri":1}}}"#), None);
    }

    proptest::proptest! {
        #[test]
        fn any_string_round_trips_through_the_decoder(s in ".*") {
            let literal = serde_json::to_string(&s).expect("json");
            proptest::prop_assert_eq!(unescape_json_string(&literal), Some(s));
        }
    }

    #[test]
    fn rewrite_keeps_extra_fields_and_order() {
        let bytes = std::fs::read("fixtures/lean-protocol/examples/wire.initialize-response.json")
            .expect("fixture");
        let out = rewrite_field(bytes.clone(), "result", |mut r| {
            r["capabilities"]["codeLensProvider"] = json!({});
            r
        });
        let before: Value = serde_json::from_slice(&bytes).expect("json");
        let mut after: Value = serde_json::from_slice(&out).expect("json");
        assert_eq!(after["result"]["capabilities"]["codeLensProvider"], json!({}));
        after["result"]["capabilities"].as_object_mut().expect("obj").remove("codeLensProvider");
        assert_eq!(before, after);
        // Key order of Lean's JSON is kept (preserve_order), so the bytes are equal too.
        assert_eq!(serde_json::to_vec(&after).expect("json"), bytes.trim_ascii_end());
        assert_eq!(rewrite_field(b"nope".to_vec(), "result", |r| r), b"nope");
    }
}
