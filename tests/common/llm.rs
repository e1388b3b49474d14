//! Local stand-ins for an OpenAI-compatible chat-completions endpoint: the HTTP request read as
//! a server sees it, a reply written with `Connection: close`, and a server answering every
//! request with the same completion. Plain std TCP; nothing here knows what a test expects.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// A chat-completions response body with one choice per content, in order.
pub fn completion(contents: &[&str]) -> String {
    let choices: Vec<Value> = contents
        .iter()
        .enumerate()
        .map(|(i, c)| json!({"index": i, "message": {"role": "assistant", "content": c}}))
        .collect();
    json!({"id": "x", "object": "chat.completion", "choices": choices}).to_string()
}

/// An HTTP request as the server read it: its first line, its headers (names lower-cased) and
/// its body as JSON (`null` when it is not).
#[derive(Clone, Debug)]
pub struct HttpRequest {
    pub request_line: String,
    pub headers: Vec<(String, String)>,
    pub body: Value,
}

/// The request on `stream` (its body by `Content-Length`); `None` when not even its first line
/// can be read.
pub fn read_http_request(stream: &TcpStream) -> Option<HttpRequest> {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut request_line = String::new();
    reader.read_line(&mut request_line).ok()?;
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = line.trim_end().split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let len = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    let _ = reader.read_exact(&mut body);
    Some(HttpRequest {
        request_line: request_line.trim_end().to_string(),
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    })
}

/// A JSON reply with this status, then the connection closes.
pub fn write_http_reply(mut stream: TcpStream, status: u16, body: &str) {
    let _ = write!(
        stream,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.flush();
}

/// A local chat-completions stand-in that answers every request with the same completion and
/// keeps each request's headers and JSON body.
pub struct LlmStandIn {
    pub base_url: String,
    pub seen: Arc<Mutex<Vec<SeenRequest>>>,
}

/// A request's headers (names lower-cased) and JSON body.
pub type SeenRequest = (Vec<(String, String)>, Value);

/// Serves `answers` as the choices of every completion, one connection at a time.
pub fn llm_stand_in(answers: &[&str]) -> LlmStandIn {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    let body = completion(answers);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen_by_server = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { break };
            let Some(request) = read_http_request(&stream) else {
                continue;
            };
            seen_by_server.lock().expect("lock").push((request.headers, request.body));
            write_http_reply(stream, 200, &body);
        }
    });
    LlmStandIn { base_url: format!("http://{addr}/v1"), seen }
}
