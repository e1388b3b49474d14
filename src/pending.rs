//! The proxy's own outgoing requests that await a reply: own-id minting, id → waiter, drain.
//!
//! Owns: the `"lean-assess:<nonce>:<n>"` id space (one [`PendingTable`] per direction: into Lean, and
//! into the editor for `ToEditor::Request`), registration, completion and draining on close.
//! It does not write frames: callers register an id *and then* queue the frame on the single
//! ordered writer of that direction, so a reply can never arrive before its entry exists
//! (helix `transport.rs` registers inside `send_payload_to_server`; rust-analyzer
//! `req_queue.rs` `Outgoing::register` mints the id and records the entry in one call).
//! Timeouts and `$/cancelRequest` are the caller's (`lean::LeanClient::request`), which calls
//! [`PendingTable::remove`] before cancelling.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use tokio::sync::oneshot;

/// Start of every id the proxy mints. Editors use numbers, Lean's watchdog numbers (and
/// `"register_lean_watcher"`); see `fixtures/lean-protocol/README` §10. This readable part
/// alone does not make an id ours: another proxy in a chain, or any client, may send
/// `"lean-assess:7"`. Only [`own_id_prefix`] (with this process's random nonce) does.
pub const OWN_ID_PREFIX: &str = "lean-assess:";

/// This process's id prefix, `"lean-assess:<nonce>:"`, the nonce 64 random bits drawn once per
/// process. An editor request whose id merely looks like ours (another proxy's, a forged one)
/// is then not taken for ours, so its reply is forwarded rather than swallowed.
pub fn own_id_prefix() -> &'static str {
    static PREFIX: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PREFIX.get_or_init(|| format!("{OWN_ID_PREFIX}{:016x}:", process_nonce()))
}

/// 64 bits the rest of the world cannot guess: std's `RandomState` is seeded from the OS's
/// random source (getrandom) once per process; hashing the pid and the clock in on top costs
/// nothing. No new dependency for one number.
fn process_nonce() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.finish()
}

/// An id the proxy minted: `"lean-assess:<nonce>:<n>"` (string ids: Lean accepts them,
/// README §10).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OwnId(String);

impl OwnId {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `Some` when `id` is in this process's own id space (prefix and nonce both match).
    pub fn parse(id: &str) -> Option<OwnId> {
        id.starts_with(own_id_prefix()).then(|| OwnId(id.to_string()))
    }
}

impl fmt::Display for OwnId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How a reply to an own request ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Result(serde_json::Value),
    Error {
        code: i64,
        message: String,
        data: Option<serde_json::Value>,
    },
    /// The stream closed before a reply came.
    Closed,
}

struct Entry {
    method: String,
    waiter: oneshot::Sender<Reply>,
}

/// Own requests in flight, by id.
pub struct PendingTable {
    next: AtomicU64,
    entries: Mutex<HashMap<OwnId, Entry>>,
    closed: std::sync::atomic::AtomicBool,
}

impl Default for PendingTable {
    fn default() -> Self {
        PendingTable::new()
    }
}

impl PendingTable {
    pub fn new() -> PendingTable {
        PendingTable {
            next: AtomicU64::new(1),
            entries: Mutex::new(HashMap::new()),
            closed: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Mint a fresh id and register its waiter in one step. After [`PendingTable::drain`] the
    /// receiver resolves to [`Reply::Closed`] at once.
    pub fn register(&self, method: &str) -> (OwnId, oneshot::Receiver<Reply>) {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let id = OwnId(format!("{}{n}", own_id_prefix()));
        let (tx, rx) = oneshot::channel();
        if self.closed.load(Ordering::Acquire) {
            // Dropping the sender makes the receiver fail, which callers read as closed.
            let _ = tx.send(Reply::Closed);
            return (id, rx);
        }
        self.lock().insert(id.clone(), Entry { method: method.to_string(), waiter: tx });
        (id, rx)
    }

    /// Mint an id for a request whose reply nobody awaits (the editor's reply to a
    /// `ToEditor::Request` is consumed and only logged).
    pub fn mint(&self) -> OwnId {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        OwnId(format!("{}{n}", own_id_prefix()))
    }

    /// Deliver a reply. Returns the method of the request it answered, or `None` for an id
    /// that is not (or no longer) pending — e.g. a reply after its timeout.
    pub fn complete(&self, id: &OwnId, reply: Reply) -> Option<String> {
        let entry = self.lock().remove(id)?;
        // The waiter may have given up (dropped); that is not an error.
        let _ = entry.waiter.send(reply);
        Some(entry.method)
    }

    /// Forget an entry (timeout, caller dropped). Returns whether it was still pending.
    pub fn remove(&self, id: &OwnId) -> bool {
        self.lock().remove(id).is_some()
    }

    /// The stream closed: fail every waiter with [`Reply::Closed`] and refuse new entries.
    pub fn drain(&self) {
        self.closed.store(true, Ordering::Release);
        let entries: Vec<Entry> = self.lock().drain().map(|(_, e)| e).collect();
        for entry in entries {
            let _ = entry.waiter.send(Reply::Closed);
        }
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<OwnId, Entry>> {
        // A poisoned lock means a panic elsewhere while holding it; the map itself is still
        // consistent (every operation is a single insert/remove), so keep going.
        self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn register_complete_remove_drain() {
        let table = PendingTable::new();
        let (a, rx_a) = table.register("textDocument/hover");
        let (b, rx_b) = table.register("$/lean/rpc/connect");
        assert_ne!(a, b);
        assert!(a.as_str().starts_with(OWN_ID_PREFIX));
        assert_eq!(OwnId::parse(a.as_str()), Some(a.clone()));
        assert_eq!(OwnId::parse("register_lean_watcher"), None);
        // Looking like ours is not enough: the nonce must match too.
        assert_eq!(OwnId::parse("lean-assess:7"), None);
        assert_eq!(OwnId::parse(&format!("{OWN_ID_PREFIX}0000000000000000:1")), None);
        assert!(a.as_str().starts_with(own_id_prefix()));

        assert_eq!(
            table.complete(&a, Reply::Result(serde_json::json!({}))),
            Some("textDocument/hover".to_string())
        );
        assert_eq!(rx_a.await.expect("reply"), Reply::Result(serde_json::json!({})));
        // A second reply for the same id is unknown.
        assert_eq!(table.complete(&a, Reply::Closed), None);

        assert_eq!(table.len(), 1);
        table.drain();
        assert_eq!(rx_b.await.expect("reply"), Reply::Closed);
        assert!(table.is_empty());
        let (_c, rx_c) = table.register("x");
        assert_eq!(rx_c.await.expect("reply"), Reply::Closed);
        assert!(table.is_empty());
    }

    #[test]
    fn remove_forgets() {
        let table = PendingTable::new();
        let (a, _rx) = table.register("m");
        assert!(table.remove(&a));
        assert!(!table.remove(&a));
        assert_eq!(table.complete(&a, Reply::Closed), None);
    }
}
