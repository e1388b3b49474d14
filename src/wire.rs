//! Content-Length framing of LSP messages, and a cheap peek at a body's `id` and `method`.
//!
//! Owns: reading and writing frames (`Content-Length: N\r\n\r\n` + N bytes) and the read-only
//! peek the router routes on. It never re-serializes a body: a [`Frame`] carries the original
//! bytes, and the router forwards those. Rewriting messages (initialize, hover, diagnostics) is
//! the router's business, not this module's.
//!
//! Framing follows Lean's reader (`src/Lean/Data/Lsp/Communication.lean`, see
//! `fixtures/lean-protocol/README` §1) and rust-analyzer's `lsp-server` `read_msg_text`: header
//! names match case-insensitively, unknown headers are ignored, `Content-Length` is required,
//! a clean EOF before a header is `Ok(None)`. A header that cannot be parsed is a
//! [`FrameError`]: the stream is out of step after it, so callers end that stream.
//! Like helix's transport, blank-less stray lines before the first header (wrapper scripts
//! printing to stdout) are skipped rather than fatal, as long as they are not `Name: value`
//! lines; after a frame, such a line means the stream is out of step and ends it.

use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Largest body accepted. A bogus `Content-Length` must not make the proxy allocate gigabytes;
/// real Lean messages (whole-file didOpen of a big Mathlib file) stay far below this.
pub const MAX_FRAME_BYTES: usize = 512 * 1024 * 1024;

/// Longest header line accepted (real ones are ~30 bytes).
const MAX_HEADER_LINE: usize = 8192;

/// One LSP message body exactly as it was on the wire (the header is not kept).
#[derive(Clone, PartialEq, Eq)]
pub struct Frame {
    pub bytes: Vec<u8>,
}

impl fmt::Debug for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Frame({})", excerpt(&self.bytes))
    }
}

/// The first ~512 bytes of a body, for logs (bodies can be megabytes).
pub fn excerpt(bytes: &[u8]) -> String {
    const MAX: usize = 512;
    if bytes.len() <= MAX {
        String::from_utf8_lossy(bytes).into_owned()
    } else {
        format!("{}… ({} bytes)", String::from_utf8_lossy(&bytes[..MAX]), bytes.len())
    }
}

/// Why a stream of frames cannot be read further.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("{stream}: bad frame header {line:?}: {reason}")]
    BadHeader { stream: &'static str, line: String, reason: &'static str },
    #[error("{stream}: frame of {length} bytes exceeds the limit of {MAX_FRAME_BYTES} bytes")]
    TooLarge { stream: &'static str, length: usize },
    #[error("{stream}: stream ended inside a frame")]
    Truncated { stream: &'static str },
    #[error("{stream}: {source}")]
    Io {
        stream: &'static str,
        #[source]
        source: std::io::Error,
    },
}

/// Reads frames from one direction, reusing its header buffer across messages.
pub struct FrameReader<R> {
    inner: R,
    /// Names the direction in errors and logs ("editor→proxy", "lean→proxy").
    stream: &'static str,
    line: String,
    /// A frame has been read: from then on a line that is not a header is the stream out of
    /// step (a body longer than its Content-Length), not a wrapper's start-up output.
    started: bool,
}

impl<R: AsyncBufRead + Unpin> FrameReader<R> {
    pub fn new(inner: R, stream: &'static str) -> FrameReader<R> {
        FrameReader { inner, stream, line: String::new(), started: false }
    }

    /// Next frame; `Ok(None)` on a clean end of stream (EOF, reset or broken pipe before a header).
    pub async fn read_frame(&mut self) -> Result<Option<Frame>, FrameError> {
        let stream = self.stream;
        let mut length: Option<usize> = None;
        let mut in_header = false;
        loop {
            self.line.clear();
            // Bounded: a stream of garbage without newlines must not grow the buffer forever.
            let mut limited = (&mut self.inner).take(MAX_HEADER_LINE as u64);
            let n = match limited.read_line(&mut self.line).await {
                Ok(n) => n,
                Err(e) if is_disconnect(&e) => 0,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    return Err(FrameError::BadHeader {
                        stream,
                        line: String::new(),
                        reason: "header is not UTF-8",
                    })
                }
                Err(source) => return Err(FrameError::Io { stream, source }),
            };
            if n == 0 {
                return if in_header { Err(FrameError::Truncated { stream }) } else { Ok(None) };
            }
            if n == MAX_HEADER_LINE && !self.line.ends_with('\n') {
                return Err(bad(stream, &self.line, "header line too long"));
            }
            let line = self.line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if !in_header {
                    // Blank line between frames: tolerated.
                    continue;
                }
                break;
            }
            let header = line.split_once(':').filter(|(name, _)| is_header_name(name.trim()));
            let Some((name, value)) = header else {
                if in_header {
                    return Err(bad(stream, line, "header line without ':'"));
                }
                if self.started {
                    // Bytes after a frame's body that are no header: every later frame would be
                    // read from the wrong offset.
                    return Err(bad(
                        stream,
                        line,
                        "bytes after a frame that are not a header (a body longer than its Content-Length?)",
                    ));
                }
                // helix: skip non-header lines a wrapper script printed before a frame. Say so:
                // it may be a message body written without a header.
                tracing::warn!(stream, line = %excerpt(line.as_bytes()), "skipped a line outside any frame (no Content-Length header before it)");
                continue;
            };
            in_header = true;
            if name.trim().eq_ignore_ascii_case("content-length") {
                let parsed: usize = value
                    .trim()
                    .parse()
                    .map_err(|_| bad(stream, line, "Content-Length is not a number"))?;
                if length.is_some() {
                    return Err(bad(stream, line, "two Content-Length headers"));
                }
                length = Some(parsed);
            }
        }
        let Some(length) = length else {
            return Err(bad(stream, "", "missing Content-Length"));
        };
        if length > MAX_FRAME_BYTES {
            return Err(FrameError::TooLarge { stream, length });
        }
        // Read straight into the spare capacity: no zero-fill of a buffer about to be
        // overwritten (a measurable share of forwarding a 1 MiB message), and no growth.
        let mut bytes = Vec::with_capacity(length);
        let mut body = (&mut self.inner).take(length as u64);
        while bytes.len() < length {
            match body.read_buf(&mut bytes).await {
                Ok(0) => return Err(FrameError::Truncated { stream }),
                Ok(_) => {}
                Err(e) if is_disconnect(&e) => return Err(FrameError::Truncated { stream }),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(source) => return Err(FrameError::Io { stream, source }),
            }
        }
        self.started = true;
        Ok(Some(Frame { bytes }))
    }
}

/// An RFC 7230 token (`Content-Length`, `Content-Type`): what a header name can be. A JSON body
/// line (`{"jsonrpc":…`) has a ':' but no such name before it.
fn is_header_name(name: &str) -> bool {
    !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn bad(stream: &'static str, line: &str, reason: &'static str) -> FrameError {
    let mut line = line.to_string();
    line.truncate(200);
    FrameError::BadHeader { stream, line, reason }
}

fn is_disconnect(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::BrokenPipe
            | std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::ConnectionAborted
    )
}

/// Bodies up to this size are written with their header in one `write` (one syscall, no
/// partial frame visible to the peer); larger ones are written in two parts to avoid a copy.
const COALESCE_BYTES: usize = 64 * 1024;

/// Write one frame (header + body) and flush it, so a message never waits in a buffer.
pub async fn write_frame<W: AsyncWrite + Unpin + ?Sized>(
    w: &mut W,
    body: &[u8],
) -> std::io::Result<()> {
    write_frame_with(w, body, &mut Vec::new()).await
}

/// [`write_frame`] with a buffer the caller keeps from frame to frame (the router's writers):
/// the header, and a small body with it, are put together there without an allocation. It
/// never holds more than a header and [`COALESCE_BYTES`].
pub async fn write_frame_with<W: AsyncWrite + Unpin + ?Sized>(
    w: &mut W,
    body: &[u8],
    scratch: &mut Vec<u8>,
) -> std::io::Result<()> {
    use std::io::Write as _;
    scratch.clear();
    // Writing to a Vec cannot fail.
    let _ = write!(scratch, "Content-Length: {}\r\n\r\n", body.len());
    if body.len() <= COALESCE_BYTES {
        scratch.extend_from_slice(body);
        w.write_all(scratch).await?;
    } else {
        w.write_all(scratch).await?;
        w.write_all(body).await?;
    }
    w.flush().await
}

/// A JSON-RPC id. Numbers and strings never compare equal (`92` ≠ `"92"`), as in
/// rust-analyzer's `RequestId`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RequestId {
    Num(i64),
    Str(String),
    /// Any other JSON (a float, null, an object): kept as its raw text so it can still be matched
    /// and echoed back in an error response.
    Other(String),
}

impl RequestId {
    /// The id as JSON, for building a response to it.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            RequestId::Num(n) => serde_json::Value::from(*n),
            RequestId::Str(s) => serde_json::Value::from(s.as_str()),
            RequestId::Other(raw) => serde_json::from_str(raw).unwrap_or(serde_json::Value::Null),
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            RequestId::Str(s) => Some(s),
            _ => None,
        }
    }

    /// From the raw JSON text of an id (valid JSON).
    fn from_raw(text: &str) -> RequestId {
        if let Ok(n) = serde_json::from_str::<i64>(text) {
            return RequestId::Num(n);
        }
        if let Ok(s) = serde_json::from_str::<String>(text) {
            return RequestId::Str(s);
        }
        RequestId::Other(text.to_string())
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Num(n) => write!(f, "{n}"),
            RequestId::Str(s) => write!(f, "{s:?}"),
            RequestId::Other(raw) => f.write_str(raw),
        }
    }
}

/// What kind of message a body is, by its `id` and `method` alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Peek {
    Request {
        id: RequestId,
        method: String,
    },
    Notification {
        method: String,
    },
    Response {
        id: RequestId,
    },
    /// A JSON object whose `method` is not a string: not a valid JSON-RPC message. `id` is kept
    /// so a request can be answered with `-32600`.
    Invalid {
        id: Option<RequestId>,
    },
    /// Valid JSON but neither of the above (a response with a null id, a batch, a scalar).
    Other,
    /// Not JSON at all.
    NotJson,
}

/// Peek at `id` and `method` by a scan of the body's top-level keys only.
///
/// Only the top-level object's keys are read (decoded when they contain escapes, so
/// `"\u0069d"` is `id`), in any order; the values of other keys (`params`, `result`: possibly
/// megabytes) are skipped by matching brackets and jumping over strings with `memchr`, never
/// decoded or copied. The `id` and `method` values themselves are validated with serde_json.
/// On every body that is valid JSON the answer equals that of deserializing the struct
/// `{id: Option<&RawValue>, method: Option<&RawValue>}` (the property test below holds it to
/// that); a body whose skipped values are malformed deep inside may be routed by its top-level
/// keys instead of being called `NotJson`. It is forwarded byte for byte either way.
pub fn peek(bytes: &[u8]) -> Peek {
    let start = skip_ws(bytes, 0);
    // Only objects are messages; anything else is classified by a full parse (rare).
    if bytes.get(start) != Some(&b'{') {
        return match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
            Ok(_) => Peek::Other,
            Err(_) => Peek::NotJson,
        };
    }
    let (id, method) = match top_level_id_and_method(bytes, start) {
        Ok(found) => found,
        Err(TopLevel::Duplicate) => return Peek::Other,
        Err(TopLevel::NotJson) => return Peek::NotJson,
    };
    // `null` deserializes to `None` for an `Option` field, for `method` as for `id`.
    let id = id.filter(|raw| *raw != "null").map(RequestId::from_raw);
    let method = match method.filter(|raw| *raw != "null") {
        None => None,
        Some(raw) => match serde_json::from_str::<String>(raw) {
            Ok(m) => Some(m),
            Err(_) => return Peek::Invalid { id },
        },
    };
    match (id, method) {
        (Some(id), Some(method)) => Peek::Request { id, method },
        (None, Some(method)) => Peek::Notification { method },
        (Some(id), None) => Peek::Response { id },
        (None, None) => Peek::Other,
    }
}

/// Why the top-level scan stopped.
enum TopLevel {
    /// A key given twice (serde's "duplicate field": valid JSON, not a message).
    Duplicate,
    NotJson,
}

/// JSON whitespace (RFC 8259 §2): space, tab, line feed, carriage return.
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// `b[i]` is an opening quote: the index just past the closing one.
fn string_end(b: &[u8], mut i: usize) -> Result<usize, TopLevel> {
    i += 1;
    loop {
        let at = i + memchr::memchr2(b'"', b'\\', &b[i..]).ok_or(TopLevel::NotJson)?;
        if b[at] == b'"' {
            return Ok(at + 1);
        }
        // A backslash escapes the next byte (`\"`, `\\`; `\uXXXX` has no quote in it).
        i = at + 2;
        if i > b.len() {
            return Err(TopLevel::NotJson);
        }
    }
}

/// Skip one value starting at `b[i]` (no leading whitespace): the index just past it. Containers
/// are skipped by bracket matching with an explicit stack (no recursion, whatever the depth).
fn skip_value(b: &[u8], i: usize) -> Result<usize, TopLevel> {
    let mut i = i;
    let mut closers: Vec<u8> = Vec::new();
    loop {
        match b.get(i) {
            None => return Err(TopLevel::NotJson),
            Some(b'"') => i = string_end(b, i)?,
            Some(b'{') => {
                closers.push(b'}');
                i += 1;
            }
            Some(b'[') => {
                closers.push(b']');
                i += 1;
            }
            Some(&c @ (b'}' | b']')) => {
                if closers.pop() != Some(c) {
                    return Err(TopLevel::NotJson);
                }
                i += 1;
            }
            Some(_) if closers.is_empty() => {
                // A scalar at the top of the value: up to the next delimiter.
                while let Some(&c) = b.get(i) {
                    if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    i += 1;
                }
                return Ok(i);
            }
            Some(_) => i += 1,
        }
        if closers.is_empty() {
            return Ok(i);
        }
    }
}

/// The raw texts of the top-level `id` and `method` of the object starting at `b[open]`.
fn top_level_id_and_method(
    b: &[u8],
    open: usize,
) -> Result<(Option<&str>, Option<&str>), TopLevel> {
    let (mut id, mut method) = (None, None);
    let mut i = skip_ws(b, open + 1);
    if b.get(i) == Some(&b'}') {
        i += 1;
    } else {
        loop {
            if b.get(i) != Some(&b'"') {
                return Err(TopLevel::NotJson);
            }
            let key_end = string_end(b, i)?;
            let key = &b[i..key_end];
            let slot = match key_name(key)? {
                KeyName::Id => Some(&mut id),
                KeyName::Method => Some(&mut method),
                KeyName::Other => None,
            };
            if slot.as_ref().is_some_and(|s| s.is_some()) {
                return Err(TopLevel::Duplicate);
            }
            i = skip_ws(b, key_end);
            if b.get(i) != Some(&b':') {
                return Err(TopLevel::NotJson);
            }
            let value_start = skip_ws(b, i + 1);
            let value_end = skip_value(b, value_start)?;
            let raw = &b[value_start..value_end];
            let scalar = !matches!(raw.first(), Some(b'"' | b'{' | b'['));
            // The values routed on, and top-level numbers and literals, are small: validate them
            // fully, as serde would.
            if (slot.is_some() || scalar)
                && serde_json::from_slice::<serde::de::IgnoredAny>(raw).is_err()
            {
                return Err(TopLevel::NotJson);
            }
            if let Some(slot) = slot {
                *slot = Some(std::str::from_utf8(raw).map_err(|_| TopLevel::NotJson)?);
            }
            i = skip_ws(b, value_end);
            match b.get(i) {
                Some(b',') => i = skip_ws(b, i + 1),
                Some(b'}') => {
                    i += 1;
                    break;
                }
                _ => return Err(TopLevel::NotJson),
            }
        }
    }
    if skip_ws(b, i) != b.len() {
        return Err(TopLevel::NotJson); // trailing characters
    }
    Ok((id, method))
}

enum KeyName {
    Id,
    Method,
    Other,
}

/// Which key a quoted key is, by its decoded text. Keys are short: escapes are decoded and the
/// text checked (UTF-8, no control characters) as serde does.
fn key_name(quoted: &[u8]) -> Result<KeyName, TopLevel> {
    let inner = &quoted[1..quoted.len() - 1];
    let decoded: std::borrow::Cow<'_, str> = if inner.contains(&b'\\') {
        serde_json::from_slice::<String>(quoted).map_err(|_| TopLevel::NotJson)?.into()
    } else {
        if inner.iter().any(|&c| c < 0x20) {
            return Err(TopLevel::NotJson);
        }
        std::str::from_utf8(inner).map_err(|_| TopLevel::NotJson)?.into()
    };
    Ok(match &*decoded {
        "id" => KeyName::Id,
        "method" => KeyName::Method,
        _ => KeyName::Other,
    })
}

#[derive(Deserialize)]
struct UriCarrier<'a> {
    #[serde(borrow, default)]
    params: Option<UriParams<'a>>,
}

#[derive(Deserialize)]
struct UriParams<'a> {
    #[serde(borrow, default)]
    uri: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "textDocument")]
    text_document: Option<TextDocumentUri<'a>>,
}

#[derive(Deserialize)]
struct TextDocumentUri<'a> {
    #[serde(borrow, default)]
    uri: Option<Cow<'a, str>>,
}

/// `params.uri`, else `params.textDocument.uri`, of a message: the document a server
/// notification is about (`publishDiagnostics` uses the first, `$/lean/fileProgress` the second;
/// see `wire.publishDiagnostics-with-code.json` and `wire.fileProgress-done.json`).
pub fn peek_uri(bytes: &[u8]) -> Option<String> {
    let carrier: UriCarrier<'_> = serde_json::from_slice(bytes).ok()?;
    let params = carrier.params?;
    params.uri.or_else(|| params.text_document.and_then(|t| t.uri)).map(Cow::into_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn framed(bodies: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        for b in bodies {
            out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", b.len()).as_bytes());
            out.extend_from_slice(b);
        }
        out
    }

    async fn read_all(input: &[u8]) -> (Vec<Frame>, Option<String>) {
        let mut reader = FrameReader::new(input, "test");
        let mut frames = Vec::new();
        loop {
            match reader.read_frame().await {
                Ok(Some(f)) => frames.push(f),
                Ok(None) => return (frames, None),
                Err(e) => return (frames, Some(e.to_string())),
            }
        }
    }

    #[tokio::test]
    async fn reads_frames_with_extra_and_lowercase_headers() {
        let input = b"content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}Content-Length: 3\r\n\r\n[1]";
        let (frames, err) = read_all(input).await;
        assert_eq!(err, None);
        assert_eq!(frames.len(), 2);
        assert_eq!(frames[0].bytes, b"{}");
        assert_eq!(frames[1].bytes, b"[1]");
    }

    #[tokio::test]
    async fn bytes_after_a_body_end_the_stream() {
        let input = b"Content-Length: 2\r\n\r\n{}x}\r\nContent-Length: 2\r\n\r\n{}";
        let (frames, err) = read_all(input).await;
        assert_eq!(frames.len(), 1);
        assert!(err.expect("an error").contains("not a header"));
    }

    #[tokio::test]
    async fn bad_headers_end_the_stream() {
        for (input, expect) in [
            (&b"Content-Length: x\r\n\r\n{}"[..], "not a number"),
            (b"Content-Type: a\r\n\r\n{}", "missing Content-Length"),
            (b"Content-Length: 10\r\n\r\n{}", "ended inside a frame"),
            (b"Content-Length: 2\r\ngarbage\r\n\r\n{}", "without ':'"),
            (b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "two Content-Length"),
            (b"Content-Length: 99999999999\r\n\r\n", "exceeds"),
            (&[b'x'; 20000][..], "too long"),
        ] {
            let (frames, err) = read_all(input).await;
            assert!(frames.is_empty());
            let err = err.expect("an error");
            assert!(err.contains(expect), "{err} should mention {expect}");
        }
    }

    #[test]
    fn peek_routes_on_id_and_method_only() {
        assert_eq!(
            peek(br#"{"jsonrpc":"2.0","id":"register_lean_watcher","method":"client/registerCapability","params":{}}"#),
            Peek::Request { id: RequestId::Str("register_lean_watcher".into()), method: "client/registerCapability".into() }
        );
        assert_eq!(
            peek(br#"{"id":4,"jsonrpc":"2.0","method":"workspace/semanticTokens/refresh"}"#),
            Peek::Request {
                id: RequestId::Num(4),
                method: "workspace/semanticTokens/refresh".into()
            }
        );
        assert_eq!(
            peek(br#"{"id":2,"jsonrpc":"2.0","result":{}}"#),
            Peek::Response { id: RequestId::Num(2) }
        );
        assert_eq!(
            peek(br#"{"jsonrpc":"2.0","method":"$/lean/fileProgress","params":{"x":[1,2,{"y":"\u00e9"}]}}"#),
            Peek::Notification { method: "$/lean/fileProgress".into() }
        );
        assert_eq!(peek(br#"{"id":null,"error":{"code":-32700,"message":"x"}}"#), Peek::Other);
        assert_eq!(peek(br#"{"method":"a\"b"}"#), Peek::Notification { method: "a\"b".into() });
        assert_eq!(peek(br#"{"id":1,"method":3}"#), Peek::Invalid { id: Some(RequestId::Num(1)) });
        assert_eq!(peek(b"[1,2]"), Peek::Other);
        assert_eq!(peek(b"{not json"), Peek::NotJson);
        assert_eq!(peek(b""), Peek::NotJson);
        assert_ne!(RequestId::Num(92), RequestId::Str("92".into()));
    }

    #[test]
    fn peek_uri_reads_both_places() {
        let diag =
            std::fs::read("fixtures/lean-protocol/examples/wire.publishDiagnostics-with-code.json")
                .expect("fixture");
        assert!(peek_uri(&diag).is_some_and(|u| u.ends_with("Probe.lean")));
        let prog = std::fs::read("fixtures/lean-protocol/examples/wire.fileProgress-done.json")
            .expect("fixture");
        assert!(peek_uri(&prog).is_some_and(|u| u.ends_with("Probe.lean")));
        assert_eq!(peek_uri(br#"{"method":"x"}"#), None);
    }

    /// The previous `peek`: serde deserializes `{id, method}` as raw values (the oracle).
    fn peek_by_serde(bytes: &[u8]) -> Peek {
        #[derive(Deserialize)]
        struct Header<'a> {
            #[serde(borrow, default)]
            id: Option<&'a serde_json::value::RawValue>,
            #[serde(borrow, default)]
            method: Option<&'a serde_json::value::RawValue>,
        }
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
                Ok(_) => Peek::Other,
                Err(_) => Peek::NotJson,
            };
        }
        let header: Header<'_> = match serde_json::from_slice(bytes) {
            Ok(h) => h,
            Err(e) if e.is_data() => return Peek::Other,
            Err(_) => return Peek::NotJson,
        };
        let id =
            header.id.filter(|raw| raw.get() != "null").map(|raw| RequestId::from_raw(raw.get()));
        let method = match header.method {
            None => None,
            Some(raw) => match serde_json::from_str::<String>(raw.get()) {
                Ok(m) => Some(m),
                Err(_) => return Peek::Invalid { id },
            },
        };
        match (id, method) {
            (Some(id), Some(method)) => Peek::Request { id, method },
            (None, Some(method)) => Peek::Notification { method },
            (Some(id), None) => Peek::Response { id },
            (None, None) => Peek::Other,
        }
    }

    #[test]
    fn peek_reads_only_top_level_keys() {
        // `id`/`method` inside params, in strings, after params, escaped keys, nested quotes.
        let cases: [&[u8]; 12] = [
            br#"{"params":{"id":1,"method":"inner"},"method":"outer"}"#,
            br#"{"params":"\"id\":1, "method":"x"","id":7,"result":null}"#,
            br#"{"jsonrpc":"2.0","params":[{"method":"a"},["id"]],"id":"x"y","method":"m"}"#,
            br#"{"id":3,"method":"m"}"#,
            br#" { "id" : 1 , "method" : "m" } "#,
            br#"{"id":1,"id":2}"#,
            br#"{"method":null,"id":4}"#,
            br#"{"id":1,"method":"m"} x"#,
            br#"{"id":1,"method":"m",}"#,
            br#"{"a":,"id":1}"#,
            br#"{"params":{"x":"\"},"method":"m"}"#,
            br#"{"params":[[[{"]":"}"}]]],"method":"m"}"#,
        ];
        for c in cases {
            assert_eq!(peek(c), peek_by_serde(c), "{}", String::from_utf8_lossy(c));
        }
        assert_eq!(
            peek(br#"{"params":{"id":1,"method":"inner"},"method":"outer"}"#),
            Peek::Notification { method: "outer".into() }
        );
        assert_eq!(peek(br#"{"id":1,"id":2}"#), Peek::Other);
        // Deep nesting is skipped without recursion.
        let mut deep = b"{\"method\":\"m\",\"params\":".to_vec();
        deep.extend(std::iter::repeat_n(b'[', 1_000_000));
        deep.extend(std::iter::repeat_n(b']', 1_000_000));
        deep.push(b'}');
        assert_eq!(peek(&deep), Peek::Notification { method: "m".into() });
    }

    /// JSON values with the keys that matter, at any depth, and strings full of quotes,
    /// backslashes, escapes and brackets.
    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::Value;
        let key = prop_oneof![
            Just("id".to_string()),
            Just("method".to_string()),
            Just("params".to_string()),
            Just("result".to_string()),
            "[a-z\"\\\\{}\\[\\]:, é\u{1F600}\u{7}]{0,6}",
        ];
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
            "[a-z\"\\\\{}\\[\\]:, é\u{1F600}\u{7}\u{0}]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 48, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                proptest::collection::vec((key.clone(), inner), 0..5)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    /// Top-level members, as text, so keys may repeat and be escaped like a hostile sender would.
    fn message() -> impl Strategy<Value = Vec<u8>> {
        let key = prop_oneof![
            Just("\"id\"".to_string()),
            Just("\"method\"".to_string()),
            Just("\"\\u0069d\"".to_string()),
            Just("\"jsonrpc\"".to_string()),
            Just("\"params\"".to_string()),
            Just("\"result\"".to_string()),
        ];
        let ws = prop_oneof![Just(""), Just(" "), Just("\n\t "), Just("\r\n")];
        proptest::collection::vec((key, json_value(), ws.clone()), 0..5).prop_map(|members| {
            let mut out = String::from("{");
            for (i, (k, v, w)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(w);
                out.push_str(k);
                out.push_str(w);
                out.push(':');
                out.push_str(&serde_json::to_string(v).expect("json"));
            }
            out.push('}');
            out.into_bytes()
        })
    }

    proptest! {
        /// The top-level scan agrees with serde on every valid message, and on mutated (mostly
        /// invalid) ones either agrees or is the only one to route a body serde rejects.
        #[test]
        fn peek_agrees_with_serde(
            body in message(),
            cut in any::<proptest::sample::Index>(),
            byte in any::<u8>(),
            mutate in 0u8..4,
        ) {
            prop_assert_eq!(peek(&body), peek_by_serde(&body));
            let mut bad = body.clone();
            let at = cut.index(bad.len() + 1);
            match mutate {
                0 => bad.truncate(at),
                1 => bad.insert(at, byte),
                2 if at < bad.len() => bad[at] = byte,
                _ => { bad.remove(at.min(bad.len().saturating_sub(1)).min(bad.len())); }
            }
            let fast = peek(&bad);
            let oracle = peek_by_serde(&bad);
            if serde_json::from_slice::<serde::de::IgnoredAny>(&bad).is_ok() {
                prop_assert_eq!(fast, oracle);
            } else {
                prop_assert!(fast == oracle || oracle == Peek::NotJson, "{:?} vs {:?}", fast, oracle);
            }
        }

        /// Random bytes never panic the scan.
        #[test]
        fn peek_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let mut b = b"{".to_vec();
            b.extend(bytes);
            let _ = peek(&b);
        }
    }

    proptest! {
        /// Any split of a byte stream into chunks gives the same frames back.
        #[test]
        fn any_split_gives_same_frames(
            bodies in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..200), 0..8),
            cuts in proptest::collection::vec(1usize..50, 0..40),
        ) {
            let refs: Vec<&[u8]> = bodies.iter().map(|b| b.as_slice()).collect();
            let input = framed(&refs);
            let rt = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
            let frames = rt.block_on(async {
                let (client, mut server) = tokio::io::duplex(64);
                let writer = tokio::spawn(async move {
                    let mut rest = &input[..];
                    for cut in cuts {
                        let n = cut.min(rest.len());
                        server.write_all(&rest[..n]).await.expect("write");
                        rest = &rest[n..];
                    }
                    server.write_all(rest).await.expect("write");
                });
                let mut reader = FrameReader::new(tokio::io::BufReader::new(client), "test");
                let mut frames = Vec::new();
                while let Some(f) = reader.read_frame().await.expect("no frame error") {
                    frames.push(f.bytes);
                }
                writer.await.expect("writer");
                frames
            });
            prop_assert_eq!(frames, bodies);
        }
    }
}
