//! The LLM client against a local HTTP stand-in (a std TcpListener answering scripted replies):
//! success, `n` ignored by the server, retries then success, 401, timeout, garbage body,
//! unreachable endpoint, missing key, and that the key appears in no error and no log line.

mod common;

use common::{completion, read_http_request, write_http_reply, HttpRequest};
use lean_assess::llm::{ChatMessage, LlmClient, LlmError, LlmSettings};
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

const KEY: &str = "sk-test-7f3a9c1e-do-not-leak";

/// One scripted reply: status, body, and a delay before answering.
#[derive(Clone)]
struct Reply {
    status: u16,
    body: String,
    delay: Duration,
}

fn reply(status: u16, body: &str) -> Reply {
    Reply { status, body: body.to_string(), delay: Duration::ZERO }
}

/// A request as the server saw it.
type Seen = HttpRequest;

struct StandIn {
    base_url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

/// Serve `replies` in order, one per connection (`Connection: close`); after the script runs
/// out, answer 500.
fn stand_in(replies: Vec<Reply>) -> StandIn {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen_by_server = Arc::clone(&seen);
    thread::spawn(move || {
        let mut script = replies.into_iter();
        for stream in listener.incoming() {
            let Ok(stream) = stream else { break };
            let r = script.next().unwrap_or_else(|| reply(500, "script exhausted"));
            let seen = Arc::clone(&seen_by_server);
            thread::spawn(move || serve_one(stream, r, &seen));
        }
    });
    StandIn { base_url: format!("http://{addr}/v1"), seen }
}

fn serve_one(stream: TcpStream, r: Reply, seen: &Mutex<Vec<Seen>>) {
    let Some(request) = read_http_request(&stream) else {
        return;
    };
    seen.lock().expect("lock").push(request);
    thread::sleep(r.delay);
    write_http_reply(stream, r.status, &r.body);
}

fn settings(base_url: &str) -> LlmSettings {
    LlmSettings {
        base_url: base_url.to_string(),
        model: "test-model".to_string(),
        api_key_env: Some("LEAN_ASSESS_TEST_KEY".to_string()),
        samples: 2,
        temperature: 0.0,
        timeout: Duration::from_secs(5),
        max_retries: 3,
        initial_backoff: Duration::from_millis(10),
        max_backoff: Duration::from_millis(40),
    }
}

fn client(s: LlmSettings) -> LlmClient {
    LlmClient::with_api_key(s, Some(KEY.to_string()))
}

fn ask(c: &LlmClient, samples: usize) -> Result<Vec<String>, LlmError> {
    c.complete(&[ChatMessage::user("prove thm_Q with thm_P")], samples)
}

fn assert_no_key(err: &LlmError) {
    assert!(!err.to_string().contains(KEY), "key leaked: {err}");
    assert!(!format!("{err:?}").contains(KEY), "key leaked: {err:?}");
}

#[test]
fn success_sends_the_contract_request() {
    let server =
        stand_in(vec![reply(200, &completion(&["exact thm_P", "intro x\nexact thm_P x"]))]);
    let answers = ask(&client(settings(&server.base_url)), 2).expect("answers");
    assert_eq!(answers, vec!["exact thm_P", "intro x\nexact thm_P x"]);
    let seen = server.seen.lock().expect("lock").clone();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].request_line, "POST /v1/chat/completions HTTP/1.1");
    let auth = seen[0].headers.iter().find(|(k, _)| k == "authorization");
    assert_eq!(auth.map(|(_, v)| v.as_str()), Some(format!("Bearer {KEY}").as_str()));
    let body = &seen[0].body;
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["n"], 2);
    assert_eq!(body["temperature"], 0.0);
    assert_eq!(body["messages"][0]["role"], "user");
    assert_eq!(body["messages"][0]["content"], "prove thm_Q with thm_P");
}

#[test]
fn server_ignoring_n_gets_further_calls() {
    let server = stand_in(vec![
        reply(200, &completion(&["a"])),
        reply(200, &completion(&["b"])),
        reply(200, &completion(&["c"])),
    ]);
    let answers = ask(&client(settings(&server.base_url)), 3).expect("answers");
    assert_eq!(answers, vec!["a", "b", "c"]);
    let ns: Vec<_> =
        server.seen.lock().expect("lock").iter().map(|s| s.body["n"].clone()).collect();
    assert_eq!(ns, vec![3, 2, 1]);
}

#[test]
fn retries_on_429_and_5xx_then_succeeds() {
    let server = stand_in(vec![
        reply(429, r#"{"error":"slow down"}"#),
        reply(503, "overloaded"),
        reply(200, &completion(&["exact thm_P"])),
    ]);
    let answers = ask(&client(settings(&server.base_url)), 1).expect("answers");
    assert_eq!(answers, vec!["exact thm_P"]);
    assert_eq!(server.seen.lock().expect("lock").len(), 3);
}

#[test]
fn retries_are_bounded() {
    let server = stand_in(vec![reply(502, "bad gateway"); 10]);
    let mut s = settings(&server.base_url);
    s.max_retries = 2;
    let err = ask(&client(s), 1).expect_err("must fail");
    assert!(matches!(err, LlmError::Http { status: 502, attempts: 3, .. }), "{err:?}");
    assert_eq!(server.seen.lock().expect("lock").len(), 3);
}

#[test]
fn unauthorized_is_not_retried_and_does_not_echo_the_key() {
    // A server that echoes the Authorization header back in its error body.
    let server = stand_in(vec![reply(401, &format!(r#"{{"error":"invalid key Bearer {KEY}"}}"#))]);
    let err = ask(&client(settings(&server.base_url)), 1).expect_err("must fail");
    assert!(matches!(err, LlmError::Http { status: 401, attempts: 1, .. }), "{err:?}");
    assert!(err.to_string().contains("<redacted>"), "{err}");
    assert_no_key(&err);
    assert_eq!(server.seen.lock().expect("lock").len(), 1);
}

#[test]
fn timeout_is_reported_after_retries() {
    let slow = Reply { delay: Duration::from_millis(800), ..reply(200, &completion(&["late"])) };
    let server = stand_in(vec![slow.clone(), slow]);
    let mut s = settings(&server.base_url);
    s.timeout = Duration::from_millis(200);
    s.max_retries = 1;
    let started = std::time::Instant::now();
    let err = ask(&client(s), 1).expect_err("must time out");
    assert!(matches!(err, LlmError::Timeout { attempts: 2, .. }), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    assert_no_key(&err);
}

#[test]
fn garbage_body_is_malformed() {
    for body in
        ["<html>502 Bad Gateway</html>", "{\"choices\": 3}", "{\"choices\":[{\"message\":{}}]}"]
    {
        let server = stand_in(vec![reply(200, body)]);
        let err = ask(&client(settings(&server.base_url)), 1).expect_err("must fail");
        assert!(matches!(err, LlmError::Malformed { .. }), "{body}: {err:?}");
        assert_no_key(&err);
    }
    let server = stand_in(vec![reply(200, &completion(&[]))]);
    let err = ask(&client(settings(&server.base_url)), 1).expect_err("no choices");
    assert!(err.to_string().contains("no choices"), "{err}");
}

#[test]
fn unreachable_endpoint_is_clear() {
    // A port that was just free: nothing listens there.
    let port = TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port();
    let mut s = settings(&format!("http://127.0.0.1:{port}/v1"));
    s.max_retries = 1;
    let err = ask(&client(s), 1).expect_err("must fail");
    assert!(matches!(err, LlmError::Unreachable { attempts: 2, .. }), "{err:?}");
    assert!(err.to_string().contains(&format!("127.0.0.1:{port}")), "{err}");
    assert_no_key(&err);
}

#[test]
fn missing_key_names_the_variable() {
    let mut s = settings("http://127.0.0.1:9/v1");
    s.api_key_env = Some("LEAN_ASSESS_SURELY_UNSET_KEY_VAR".to_string());
    let err = LlmClient::from_env(s).expect_err("must fail");
    assert!(matches!(err, LlmError::MissingKey { .. }));
    assert!(err.to_string().contains("LEAN_ASSESS_SURELY_UNSET_KEY_VAR"), "{err}");
    // No `api_key_env`: no key needed (local servers), and no Authorization header sent.
    let server = stand_in(vec![reply(200, &completion(&["exact thm_P"]))]);
    let mut s = settings(&server.base_url);
    s.api_key_env = None;
    let c = LlmClient::from_env(s).expect("no key needed");
    assert_eq!(ask(&c, 1).expect("answer"), vec!["exact thm_P"]);
    let seen = server.seen.lock().expect("lock").clone();
    assert!(seen[0].headers.iter().all(|(k, _)| k != "authorization"));
}

/// A `tracing` writer that keeps everything in memory.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("lock").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn the_key_never_appears_in_logs() {
    let server = stand_in(vec![
        reply(500, &format!("echo {KEY}")),
        reply(200, &completion(&["exact thm_P"])),
    ]);
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::with_default(subscriber, || {
        ask(&client(settings(&server.base_url)), 1).expect("answer after retry");
    });
    let log = String::from_utf8(captured.0.lock().expect("lock").clone()).expect("utf8");
    assert!(log.contains("chat completion request"), "nothing logged: {log}");
    assert!(log.contains("retrying"), "{log}");
    assert!(!log.contains(KEY), "key in logs: {log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_wrapper_runs_off_the_runtime_threads() {
    let server = stand_in(vec![reply(200, &completion(&["exact thm_P"]))]);
    let c = Arc::new(client(settings(&server.base_url)));
    let answers = c.complete_async(vec![ChatMessage::user("q")], 1).await.expect("answer");
    assert_eq!(answers, vec!["exact thm_P"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_is_beqs_proof_sampler() {
    use lean_assess::metrics::beq::ProofSampler;
    let server = stand_in(vec![reply(
        200,
        &completion(&["```lean\nexact thm_P\n```", "```lean\nintro x\nexact thm_P x\n```"]),
    )]);
    let sampler = Arc::new(client(settings(&server.base_url)));
    let answers =
        sampler.sample("Given two Lean 4 theorems, ...".to_string(), 2).await.expect("answers");
    assert_eq!(answers.len(), 2);
    let seen = server.seen.lock().expect("lock").clone();
    assert_eq!(seen[0].body["messages"][0]["content"], "Given two Lean 4 theorems, ...");
    assert_eq!(seen[0].body["n"], 2);
}

/// A judgement whose deadline passes drops the sampling future: no request is sent after
/// that (a loop must not run on to `samples` unobserved), and a huge `samples` is
/// neither allocated up front nor sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sampling_stops_when_the_judgement_is_dropped() {
    // One answer per request, 40 ms each, for as long as it is asked.
    let slow =
        Reply { delay: Duration::from_millis(40), ..reply(200, &completion(&["exact thm_P"])) };
    let server = stand_in(vec![slow; 1000]);
    let mut s = settings(&server.base_url);
    s.samples = usize::MAX;
    let c = Arc::new(client(s));
    let asked = tokio::time::timeout(
        Duration::from_millis(300),
        c.complete_async(vec![ChatMessage::user("q")], usize::MAX),
    )
    .await;
    assert!(asked.is_err(), "the deadline passed first");
    // At most the request in flight at the deadline is still answered.
    tokio::time::sleep(Duration::from_millis(150)).await;
    let at_deadline = server.seen.lock().expect("lock").len();
    tokio::time::sleep(Duration::from_millis(600)).await;
    let later = server.seen.lock().expect("lock").len();
    assert_eq!(later, at_deadline, "requests went on after the deadline");
    let first = server.seen.lock().expect("lock")[0].body["n"].clone();
    assert_eq!(first, 64, "n beyond the bound was sent");
}
