//! Mirror of the documents the editor has open: the text the editor sees, at the version it sees.
//!
//! Owns [`Document`] (text + line index + version) and [`DocumentMirror`] (URI → document), fed by
//! `textDocument/didOpen`, `didChange` (full and incremental) and `didClose` exactly as the router
//! forwards them to Lean, plus the LSP position ↔ byte offset conversions. LSP positions count
//! UTF-16 code units within a line (LSP 3.17 `PositionEncodingKind` default, which is what the
//! Lean server uses: `utf8PosToLspPos` / `lspPosToUtf8Pos`, lean-protocol README §1), so `ℝ` is
//! one unit and `𝔽` (outside the BMP) two. Lines end at `\n`, `\r\n` or a lone `\r`, as LSP says.
//!
//! Knows nothing of theorems, references or metrics; the features read snapshots from here.

use lsp_types::{Position, Range};
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// Why a document notification could not be applied to the mirror.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DocumentError {
    #[error("{method}: params do not have the LSP shape: {reason}")]
    BadParams { method: String, reason: String },
    #[error("didChange for '{uri}', which is not open")]
    NotOpen { uri: String },
}

/// One open document: its URI, the editor's version, its full text and a line index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    pub uri: String,
    pub version: i32,
    text: String,
    /// Byte offset where each line starts; `line_starts[0] == 0`.
    line_starts: Vec<usize>,
}

impl Document {
    pub fn new(uri: impl Into<String>, version: i32, text: impl Into<String>) -> Document {
        let text = text.into();
        let line_starts = line_starts(&text);
        Document { uri: uri.into(), version, text, line_starts }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte range of line `line` without its terminator (empty range past the last line).
    fn line_content(&self, line: usize) -> (usize, usize) {
        let Some(&start) = self.line_starts.get(line) else {
            return (self.text.len(), self.text.len());
        };
        let mut end = self.line_starts.get(line + 1).copied().unwrap_or(self.text.len());
        let bytes = self.text.as_bytes();
        if end > start && bytes[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        (start, end)
    }

    /// The byte offset of an LSP position. Out-of-range positions are clamped as LSP asks: a
    /// character past the line's end means the line's end, a line past the end means the end of
    /// the text; a character in the middle of a surrogate pair means the start of that char.
    pub fn offset_of(&self, pos: Position) -> usize {
        let line = pos.line as usize;
        if line >= self.line_starts.len() {
            return self.text.len();
        }
        let (start, end) = self.line_content(line);
        let mut units = 0u32;
        for (i, c) in self.text[start..end].char_indices() {
            let next = units + c.len_utf16() as u32;
            if next > pos.character {
                return start + i;
            }
            units = next;
        }
        end
    }

    /// The LSP position of a byte offset (clamped to the text, and down to a char boundary).
    pub fn position_of(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        let (start, end) = self.line_content(line);
        let upto = offset.min(end).max(start);
        let character = self.text[start..upto].chars().map(|c| c.len_utf16() as u32).sum();
        Position { line: line as u32, character }
    }

    /// The LSP range of a byte range.
    pub fn range_of(&self, start: usize, end: usize) -> Range {
        Range { start: self.position_of(start), end: self.position_of(end) }
    }

    /// Apply one `contentChanges` entry: a full replacement when `range` is absent, else the
    /// replacement of that range (`rangeLength` is deprecated in LSP and ignored: the range is
    /// authoritative).
    ///
    /// A ranged change updates the line index in place: only the line starts the replaced bytes
    /// decide are recomputed, the later ones shifted (a `didChange` with thousands of small edits
    /// must not rescan the whole file per edit: it runs on the editor→Lean reader).
    pub fn apply_change(&mut self, range: Option<Range>, new_text: &str) {
        let Some(r) = range else {
            self.text = new_text.to_string();
            self.line_starts = line_starts(&self.text);
            return;
        };
        let start = self.offset_of(r.start);
        let end = self.offset_of(r.end).max(start);
        self.text.replace_range(start..end, new_text);
        // A line start `s` is decided by the bytes at `s - 1` and `s` (`\n`, or `\r` not
        // followed by `\n`), so the old starts in `start..=end` may change; later ones shift.
        let bytes = self.text.as_bytes();
        let new_end = start + new_text.len();
        let is_start = |p: usize| {
            p == 0
                || match bytes[p - 1] {
                    b'\n' => true,
                    b'\r' => bytes.get(p) != Some(&b'\n'),
                    _ => false,
                }
        };
        let fresh: Vec<usize> = (start..=new_end).filter(|&p| is_start(p)).collect();
        let lo = self.line_starts.partition_point(|&s| s < start);
        let hi = self.line_starts.partition_point(|&s| s <= end);
        let added = fresh.len();
        self.line_starts.splice(lo..hi, fresh);
        if new_end != end {
            for s in &mut self.line_starts[lo + added..] {
                *s = *s + new_end - end;
            }
        }
    }
}

/// What the edits between two versions of a text left alone: the bytes before `start` are the
/// same in both, and so is everything after the changed bytes, from the first line start there
/// on ([`Tail`]). Found by comparing the two texts (prefix and suffix, memcmp), so it holds
/// whatever changes came in between; costs the texts' comparison and the changed lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unedited {
    pub start: usize,
    /// The length of the common suffix (within what the prefix leaves).
    pub suffix: usize,
    /// `None` when no line start after the changed bytes is left alone.
    pub tail: Option<Tail>,
}

/// The unchanged end of a text: the old text from `old_start` (just after a `\n` both versions
/// share, so a line start in both) on is the new text from `old_start + shift` on,
/// `line_shift` LSP lines further down; columns there are unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tail {
    pub old_start: usize,
    pub shift: isize,
    pub line_shift: isize,
}

impl Unedited {
    pub fn between(old: &str, new: &str) -> Unedited {
        let (o, n) = (old.as_bytes(), new.as_bytes());
        let start = common_prefix(o, n);
        let suffix = common_suffix(o, n, o.len().min(n.len()) - start);
        let changed_end = o.len() - suffix;
        let shift = n.len() as isize - o.len() as isize;
        let tail = o[changed_end..].iter().position(|&b| b == b'\n').map(|i| {
            let old_start = changed_end + i + 1;
            let new_start = old_start.wrapping_add_signed(shift);
            // Line starts before `start` are decided by bytes both texts share; those from
            // `start` on are counted in each text.
            Tail {
                old_start,
                shift,
                line_shift: line_starts_in(n, start, new_start) as isize
                    - line_starts_in(o, start, old_start) as isize,
            }
        });
        Unedited { start, suffix, tail }
    }
}

/// How many LSP line starts `bytes` has at positions `from..=to` (`line_starts`' rule).
fn line_starts_in(bytes: &[u8], from: usize, to: usize) -> usize {
    (from.max(1)..=to)
        .filter(|&p| match bytes[p - 1] {
            b'\n' => true,
            b'\r' => bytes.get(p) != Some(&b'\n'),
            _ => false,
        })
        .count()
}

/// Length of the common prefix of `a` and `b` (compared in blocks: memcmp, not byte by byte).
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 128;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// Length of the common suffix of `a` and `b`, at most `max`.
fn common_suffix(a: &[u8], b: &[u8], max: usize) -> usize {
    const BLOCK: usize = 128;
    let (la, lb) = (a.len(), b.len());
    let mut i = 0;
    while i + BLOCK <= max && a[la - i - BLOCK..la - i] == b[lb - i - BLOCK..lb - i] {
        i += BLOCK;
    }
    while i < max && a[la - i - 1] == b[lb - i - 1] {
        i += 1;
    }
    i
}

fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => starts.push(i + 1),
            b'\r' if bytes.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
            _ => {}
        }
        i += 1;
    }
    starts
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OpenParams {
    text_document: OpenItem,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OpenItem {
    uri: String,
    version: i32,
    text: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ChangeParams {
    text_document: VersionedId,
    content_changes: Vec<ContentChange>,
}

#[derive(Deserialize)]
struct VersionedId {
    uri: String,
    version: i32,
}

#[derive(Deserialize)]
struct ContentChange {
    range: Option<Range>,
    text: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CloseParams {
    text_document: UriOnly,
}

#[derive(Deserialize)]
struct UriOnly {
    uri: String,
}

/// What a notification did to the mirror, so the features know what to recompute or cancel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MirrorEvent {
    Opened {
        uri: String,
    },
    Changed {
        uri: String,
    },
    Closed {
        uri: String,
    },
    /// A notification that does not concern documents.
    Unrelated,
}

/// The open documents, keyed by URI as the editor spells it. Snapshots are cheap `Arc` clones.
#[derive(Debug, Default)]
pub struct DocumentMirror {
    docs: RwLock<HashMap<String, Arc<Document>>>,
}

fn bad(method: &str, e: serde_json::Error) -> DocumentError {
    DocumentError::BadParams { method: method.to_string(), reason: e.to_string() }
}

impl DocumentMirror {
    pub fn new() -> DocumentMirror {
        DocumentMirror::default()
    }

    /// A snapshot of the document at `uri`, if open.
    pub fn get(&self, uri: &str) -> Option<Arc<Document>> {
        self.read().get(uri).cloned()
    }

    /// URIs of every open document.
    pub fn uris(&self) -> Vec<String> {
        self.read().keys().cloned().collect()
    }

    pub fn len(&self) -> usize {
        self.read().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, Arc<Document>>> {
        // A poisoned lock means a panic while mutating a HashMap insert; the map itself is
        // still consistent, so keep serving.
        self.docs.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Arc<Document>>> {
        self.docs.write().unwrap_or_else(|p| p.into_inner())
    }

    /// Apply a client→server notification (`textDocument/didOpen|didChange|didClose`).
    /// As [`DocumentMirror::observe`], with the params by value: a `didOpen`'s text moves into
    /// the mirror instead of being copied (a 50 MB file must not be held three times over).
    pub fn observe_owned(&self, method: &str, params: Value) -> Result<MirrorEvent, DocumentError> {
        if method != "textDocument/didOpen" {
            return self.observe(method, &params);
        }
        let p = OpenParams::deserialize(params).map_err(|e| bad(method, e))?;
        let uri = p.text_document.uri;
        let doc = Document::new(uri.clone(), p.text_document.version, p.text_document.text);
        self.write().insert(uri.clone(), Arc::new(doc));
        Ok(MirrorEvent::Opened { uri })
    }

    pub fn observe(&self, method: &str, params: &Value) -> Result<MirrorEvent, DocumentError> {
        match method {
            "textDocument/didOpen" => {
                let p = OpenParams::deserialize(params).map_err(|e| bad(method, e))?;
                let uri = p.text_document.uri;
                let doc = Document::new(uri.clone(), p.text_document.version, p.text_document.text);
                self.write().insert(uri.clone(), Arc::new(doc));
                Ok(MirrorEvent::Opened { uri })
            }
            "textDocument/didChange" => {
                let p = ChangeParams::deserialize(params).map_err(|e| bad(method, e))?;
                let uri = p.text_document.uri;
                let mut docs = self.write();
                let Some(doc) = docs.get_mut(&uri) else {
                    return Err(DocumentError::NotOpen { uri });
                };
                let doc = Arc::make_mut(doc);
                for change in &p.content_changes {
                    doc.apply_change(change.range, &change.text);
                }
                doc.version = p.text_document.version;
                Ok(MirrorEvent::Changed { uri })
            }
            "textDocument/didClose" => {
                let p = CloseParams::deserialize(params).map_err(|e| bad(method, e))?;
                let uri = p.text_document.uri;
                self.write().remove(&uri);
                Ok(MirrorEvent::Closed { uri })
            }
            _ => Ok(MirrorEvent::Unrelated),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn utf16_columns_count_astral_chars_twice() {
        // `𝔽` is U+1D53D (4 UTF-8 bytes, 2 UTF-16 units); `ℝ` is U+211D (3 bytes, 1 unit).
        let d = Document::new("file:///a.lean", 1, "theorem t (x : 𝔽) (y : ℝ) : x = x\n");
        let x_off = d.text().find("𝔽").unwrap();
        assert_eq!(d.position_of(x_off), pos(0, 15));
        let after = x_off + '𝔽'.len_utf8();
        assert_eq!(d.position_of(after), pos(0, 17));
        assert_eq!(d.offset_of(pos(0, 17)), after);
        let r = d.text().find('ℝ').unwrap();
        assert_eq!(d.position_of(r), pos(0, 24));
        assert_eq!(d.position_of(r + 3), pos(0, 25));
        // Inside the surrogate pair: clamp to the char's start.
        assert_eq!(d.offset_of(pos(0, 16)), x_off);
    }

    #[test]
    fn round_trip_every_char_boundary() {
        let text = "α β\r\n∀ 𝔽𝕜, x ≤ y\rlast 😀 line\n";
        let d = Document::new("u", 0, text);
        for (i, _) in text.char_indices() {
            let p = d.position_of(i);
            // `\r` of `\r\n` sits at the line's end like `\n`; both map to the end position.
            if text[i..].starts_with('\n') && i > 0 && text.as_bytes()[i - 1] == b'\r' {
                continue;
            }
            assert_eq!(d.offset_of(p), i, "offset {i} → {p:?}");
        }
        assert_eq!(d.line_count(), 4);
    }

    #[test]
    fn clamps_out_of_range_positions() {
        let d = Document::new("u", 0, "ab\ncd");
        assert_eq!(d.offset_of(pos(0, 99)), 2);
        assert_eq!(d.offset_of(pos(7, 0)), 5);
        assert_eq!(d.position_of(999), pos(1, 2));
    }

    #[test]
    fn incremental_changes_with_astral_chars() {
        let m = DocumentMirror::new();
        m.observe(
            "textDocument/didOpen",
            &json!({"textDocument": {"uri": "file:///c.lean", "languageId": "lean4", "version": 1,
                     "text": "theorem t (x : 𝔽) : x = x := by\n  rfl\n"}}),
        )
        .unwrap();
        // Replace `𝔽` (columns 15..17) by `ℝ`, then insert `h : ` on line 1, then full text.
        m.observe(
            "textDocument/didChange",
            &json!({"textDocument": {"uri": "file:///c.lean", "version": 2},
                    "contentChanges": [
                        {"range": {"start": {"line": 0, "character": 15}, "end": {"line": 0, "character": 17}}, "text": "ℝ"},
                        {"range": {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 2}}, "rangeLength": 0, "text": "simp\n  "}
                    ]}),
        )
        .unwrap();
        let d = m.get("file:///c.lean").unwrap();
        assert_eq!(d.text(), "theorem t (x : ℝ) : x = x := by\n  simp\n  rfl\n");
        assert_eq!(d.version, 2);
        // Multi-line deletion across the astral-free text now.
        m.observe(
            "textDocument/didChange",
            &json!({"textDocument": {"uri": "file:///c.lean", "version": 3},
                    "contentChanges": [
                        {"range": {"start": {"line": 0, "character": 31}, "end": {"line": 2, "character": 5}}, "text": " rfl"}
                    ]}),
        )
        .unwrap();
        assert_eq!(
            m.get("file:///c.lean").unwrap().text(),
            "theorem t (x : ℝ) : x = x := by rfl\n"
        );
        m.observe(
            "textDocument/didChange",
            &json!({"textDocument": {"uri": "file:///c.lean", "version": 4},
                    "contentChanges": [{"text": "example : True := trivial"}]}),
        )
        .unwrap();
        assert_eq!(m.get("file:///c.lean").unwrap().text(), "example : True := trivial");
        assert_eq!(
            m.observe("textDocument/didClose", &json!({"textDocument": {"uri": "file:///c.lean"}}))
                .unwrap(),
            MirrorEvent::Closed { uri: "file:///c.lean".into() }
        );
        assert!(m.is_empty());
    }

    #[test]
    fn bad_params_and_unknown_documents_are_errors_not_panics() {
        let m = DocumentMirror::new();
        assert!(matches!(
            m.observe("textDocument/didOpen", &json!({"textDocument": 3})),
            Err(DocumentError::BadParams { .. })
        ));
        assert_eq!(
            m.observe(
                "textDocument/didChange",
                &json!({"textDocument": {"uri": "x", "version": 1}, "contentChanges": []})
            ),
            Err(DocumentError::NotOpen { uri: "x".into() })
        );
        assert_eq!(m.observe("$/lean/rpc/keepAlive", &json!({})).unwrap(), MirrorEvent::Unrelated);
    }

    proptest::proptest! {
        /// Edits addressed by LSP positions of char boundaries equal byte-range replacement, and
        /// arbitrary (out-of-range, mid-surrogate) positions never panic.
        #[test]
        fn edits_by_position_match_byte_edits(
            text in "[a\\n\\rℝ𝔽😀 ]{0,40}",
            a in 0usize..60, b in 0usize..60,
            ins in "[xℝ𝔽\\n]{0,5}",
            wild in proptest::collection::vec((0u32..8, 0u32..50), 2),
        ) {
            let mut d = Document::new("u", 0, text.clone());
            let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
            let (a, b) = (bounds[a % bounds.len()], bounds[b % bounds.len()]);
            let (a, b) = (a.min(b), a.max(b));
            // `\r\n` is one line break: an offset between them has no position of its own.
            let inside_crlf = |o: usize| o > 0 && text.as_bytes().get(o) == Some(&b'\n') && text.as_bytes()[o - 1] == b'\r';
            if !inside_crlf(a) && !inside_crlf(b) {
                let r = d.range_of(a, b);
                d.apply_change(Some(r), &ins);
                let mut expect = text.clone();
                expect.replace_range(a..b, &ins);
                proptest::prop_assert_eq!(d.text(), expect.as_str());
                proptest::prop_assert_eq!(&d.line_starts, &line_starts(d.text()));
            }
            let r = Range {
                start: Position { line: wild[0].0, character: wild[0].1 },
                end: Position { line: wild[1].0, character: wild[1].1 },
            };
            d.apply_change(Some(r), &ins);
            proptest::prop_assert_eq!(&d.line_starts, &line_starts(d.text()));
            let _ = d.position_of(usize::MAX);
        }

        /// The line index kept up to date edit by edit equals the one rebuilt from the text,
        /// whatever the edits do to `\r\n` pairs (split, joined, created at the edges).
        #[test]
        fn incremental_line_index_equals_rebuilt(
            text in "[a\n\r\r\nℝ]{0,30}",
            edits in proptest::collection::vec(((0u32..6, 0u32..6), (0u32..6, 0u32..6), "[x\r\nℝ]{0,4}"), 1..12),
        ) {
            let mut d = Document::new("u", 0, text);
            for ((l1, c1), (l2, c2), ins) in edits {
                let r = Range {
                    start: Position { line: l1, character: c1 },
                    end: Position { line: l2, character: c2 },
                };
                d.apply_change(Some(r), &ins);
                proptest::prop_assert_eq!(&d.line_starts, &line_starts(d.text()), "{:?}", d.text());
            }
        }

        /// What `Unedited::between` says is left alone is: the prefix and the tail are the same
        /// bytes in both texts, the tail starts a line in both, and its lines and columns are
        /// where the line index of each version puts them.
        #[test]
        fn unedited_is_what_both_versions_share(
            base in "[a-c\n\r]{0,40}",
            edits in proptest::collection::vec((0usize..60, 0usize..4, "[a-c\n\r]{0,4}"), 1..4)
        ) {
            let mut new = base.clone();
            for (at, len, text) in edits {
                let at = at.min(new.len());
                let end = (at + len).min(new.len());
                new.replace_range(at..end, &text);
            }
            let u = Unedited::between(&base, &new);
            let (o, n) = (Document::new("u", 0, base.clone()), Document::new("u", 1, new.clone()));
            proptest::prop_assert_eq!(&base[..u.start], &new[..u.start]);
            proptest::prop_assert_eq!(&base[base.len() - u.suffix..], &new[new.len() - u.suffix..]);
            if let Some(t) = u.tail {
                let new_start = t.old_start.wrapping_add_signed(t.shift);
                proptest::prop_assert_eq!(&base[t.old_start..], &new[new_start..]);
                proptest::prop_assert!(t.old_start >= base.len() - u.suffix);
                for p in t.old_start..=base.len() {
                    let (a, b) = (o.position_of(p), n.position_of(p.wrapping_add_signed(t.shift)));
                    proptest::prop_assert_eq!(a.line as isize + t.line_shift, b.line as isize);
                    proptest::prop_assert_eq!(a.character, b.character);
                }
            }
        }
    }
}
