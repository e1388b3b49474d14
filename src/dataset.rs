//! JSONL inputs of the batch commands: labelled statement pairs (`bench`) and tree pairs
//! (`ted --pairs`), in the contract's formats (`/work/shared/design/architecture.md`, "File
//! formats").
//!
//! Owns reading and validating those files, with errors that name the file and the 1-based line
//! (blank lines are skipped but counted, as score.py counts them). Parsing statements, judging
//! and printing are other modules' jobs. Nothing here panics on any input: JSON nesting is bounded
//! by serde_json's recursion limit, every field is checked before use. Trees are the exception
//! to the limit: `tree --format json` writes trees of any depth, so a tree-pairs line is first
//! split into raw fields (serde_json's skipper is iterative) and each tree read by
//! `trees::json::parse`, which keeps its pending nodes on the heap.

use crate::trees::{json as tree_json, Tree};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One labelled pair of a dataset file (`id`, `ref_header`, `ref_statement`, `cand_header`,
/// `cand_statement`, optional `label`; other fields are ignored).
#[derive(Clone, Debug, PartialEq)]
pub struct DatasetPair {
    pub id: String,
    /// 1-based line in the file, for messages.
    pub line: usize,
    pub ref_header: String,
    pub ref_statement: String,
    pub cand_header: String,
    pub cand_statement: String,
    /// `true` = the candidate is a faithful formalization of the reference.
    pub label: Option<bool>,
}

/// One line of a tree-pairs file (`id`, `ref_tree`, `cand_tree`).
#[derive(Clone, Debug, PartialEq)]
pub struct TreePair {
    pub id: String,
    /// 1-based line in the file, for messages.
    pub line: usize,
    pub ref_tree: Tree,
    pub cand_tree: Tree,
}

/// Why a JSONL input could not be read. Every variant names the file, and the line when there
/// is one.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}:{line}: not valid UTF-8 (at byte {byte} of the line)")]
    NotUtf8 { path: PathBuf, line: usize, byte: usize },
    #[error("{path}:{line}: malformed JSON ({message})")]
    Malformed { path: PathBuf, line: usize, message: String },
    #[error("{path}:{line}: {problem}")]
    BadField { path: PathBuf, line: usize, problem: String },
    #[error("{path}:{line}: duplicate id {id:?}")]
    DuplicateId { path: PathBuf, line: usize, id: String },
    #[error("{path}: no records (the file is empty)")]
    Empty { path: PathBuf },
}

/// Read a dataset file of labelled statement pairs.
pub fn read_pairs(path: &Path) -> Result<Vec<DatasetPair>, DatasetError> {
    let bytes = read(path)?;
    parse_pairs(path, &bytes)
}

/// Parse dataset bytes; `path` is only used in messages.
pub fn parse_pairs(path: &Path, bytes: &[u8]) -> Result<Vec<DatasetPair>, DatasetError> {
    let mut ids = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (line, object) in objects(path, bytes) {
        let mut object = object?;
        let field = Fields { path, line, object: &mut object };
        let pair = DatasetPair {
            id: field.id()?,
            line,
            ref_header: field.string_or_empty("ref_header")?,
            ref_statement: field.string("ref_statement")?,
            cand_header: field.string_or_empty("cand_header")?,
            cand_statement: field.string("cand_statement")?,
            label: field.label()?,
        };
        if !ids.insert(pair.id.clone()) {
            return Err(DatasetError::DuplicateId { path: path.to_owned(), line, id: pair.id });
        }
        out.push(pair);
    }
    if out.is_empty() {
        return Err(DatasetError::Empty { path: path.to_owned() });
    }
    Ok(out)
}

/// Read a tree-pairs file (`ted --pairs` input).
pub fn read_tree_pairs(path: &Path) -> Result<Vec<TreePair>, DatasetError> {
    let bytes = read(path)?;
    parse_tree_pairs(path, &bytes)
}

/// Parse tree-pairs bytes; `path` is only used in messages.
pub fn parse_tree_pairs(path: &Path, bytes: &[u8]) -> Result<Vec<TreePair>, DatasetError> {
    let mut out = Vec::new();
    for (line, raw) in lines(path, bytes) {
        let raw = raw?;
        let malformed =
            |message: String| DatasetError::Malformed { path: path.to_owned(), line, message };
        let fields: HashMap<String, Box<RawValue>> = match raw.get().trim_start().as_bytes() {
            [b'{', ..] => serde_json::from_str(raw.get())
                .map_err(|e| malformed(format!("{} at column {}", classify(&e), e.column())))?,
            _ => {
                let value: Value = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
                return Err(malformed(format!("expected a JSON object, got {}", kind(&value))));
            }
        };
        // `id` (a small field) through the shared checks; a value too deep for serde_json's
        // limit is reported as the wrong kind of value.
        let mut id_object = Map::new();
        if let Some(id) = fields.get("id") {
            let value = serde_json::from_str(id.get()).unwrap_or(Value::Null);
            id_object.insert("id".to_string(), value);
        }
        let field = Fields { path, line, object: &mut id_object };
        let id = field.id()?;
        let tree = |name: &str| -> Result<Tree, DatasetError> {
            let raw =
                fields.get(name).ok_or_else(|| field.bad(format!("missing field '{name}'")))?;
            tree_json::parse(raw.get())
                .map_err(|e| field.bad(format!("field '{name}' is not a tree: {e}")))
        };
        let ref_tree = tree("ref_tree")?;
        let cand_tree = tree("cand_tree")?;
        out.push(TreePair { id, line, ref_tree, cand_tree });
    }
    if out.is_empty() {
        return Err(DatasetError::Empty { path: path.to_owned() });
    }
    Ok(out)
}

fn read(path: &Path) -> Result<Vec<u8>, DatasetError> {
    let io = |source| DatasetError::Io { path: path.to_owned(), source };
    if path.is_dir() {
        return Err(io(std::io::Error::other("is a directory, not a file")));
    }
    std::fs::read(path).map_err(io)
}

/// The non-blank lines of a JSONL file as UTF-8 text, with their 1-based line numbers.
fn text_lines<'a>(
    path: &'a Path,
    bytes: &'a [u8],
) -> impl Iterator<Item = (usize, Result<&'a str, DatasetError>)> + 'a {
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, raw)| (i + 1, raw))
        .filter(|(_, raw)| !raw.iter().all(u8::is_ascii_whitespace))
        .map(move |(line, raw)| {
            let text = std::str::from_utf8(raw).map_err(|e| DatasetError::NotUtf8 {
                path: path.to_owned(),
                line,
                byte: e.valid_up_to(),
            });
            (line, text)
        })
}

/// A line that is not JSON, with serde_json's message. Its own text ends in "at line 1 column
/// C"; the column is what matters, the line is ours.
fn malformed(path: &Path, line: usize, e: &serde_json::Error) -> DatasetError {
    DatasetError::Malformed {
        path: path.to_owned(),
        line,
        message: format!("{} at column {}", classify(e), e.column()),
    }
}

/// The non-blank lines of a JSONL file as raw (validated, not yet parsed) JSON values, with
/// their 1-based line numbers. Validation is serde_json's iterative skipper: any depth.
fn lines<'a>(
    path: &'a Path,
    bytes: &'a [u8],
) -> impl Iterator<Item = (usize, Result<Box<RawValue>, DatasetError>)> + 'a {
    text_lines(path, bytes).map(move |(line, text)| {
        let value = text.and_then(|text| {
            serde_json::from_str::<Box<RawValue>>(text).map_err(|e| malformed(path, line, &e))
        });
        (line, value)
    })
}

/// The non-blank lines of a JSONL file as JSON objects, with their 1-based line numbers.
fn objects<'a>(
    path: &'a Path,
    bytes: &'a [u8],
) -> impl Iterator<Item = (usize, Result<Map<String, Value>, DatasetError>)> + 'a {
    text_lines(path, bytes).map(move |(line, text)| {
        let object = text.and_then(|text| match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => Ok(map),
            Ok(other) => Err(DatasetError::Malformed {
                path: path.to_owned(),
                line,
                message: format!("expected a JSON object, got {}", kind(&other)),
            }),
            Err(e) => Err(malformed(path, line, &e)),
        });
        (line, object)
    })
}

fn classify(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Field access on one line's object, with errors naming file, line and field.
struct Fields<'a> {
    path: &'a Path,
    line: usize,
    object: &'a mut Map<String, Value>,
}

impl Fields<'_> {
    fn bad(&self, problem: String) -> DatasetError {
        DatasetError::BadField { path: self.path.to_owned(), line: self.line, problem }
    }

    fn id(&self) -> Result<String, DatasetError> {
        match self.object.get("id") {
            Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
            Some(other) => {
                Err(self.bad(format!("field 'id' must be a non-empty string, got {other}")))
            }
            None => Err(self.bad("missing field 'id'".into())),
        }
    }

    fn string(&self, name: &str) -> Result<String, DatasetError> {
        match self.object.get(name) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => {
                Err(self.bad(format!("field '{name}' must be a string, got {}", kind(other))))
            }
            None => Err(self.bad(format!("missing field '{name}'"))),
        }
    }

    /// Headers may be absent or null (no imports, no `open`).
    fn string_or_empty(&self, name: &str) -> Result<String, DatasetError> {
        match self.object.get(name) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(_) => self.string(name),
        }
    }

    fn label(&self) -> Result<Option<bool>, DatasetError> {
        match self.object.get("label") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => {
                Err(self.bad(format!("field 'label' must be true or false, got {other}")))
            }
        }
    }
}

/// Shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// `K/N` with 1 ≤ K ≤ N (clap value parser).
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("'{text}': expected K/N with 1 <= K <= N (e.g. 2/4)");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let index: u64 = k.trim().parse().map_err(|_| bad())?;
    let count: u64 = n.trim().parse().map_err(|_| bad())?;
    if count == 0 || index == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// FNV-1a (64 bit) of the id's UTF-8 bytes: fixed by its published constants, so every machine
/// and every version of this program splits a dataset the same way (std's hasher is not stable).
fn id_hash(id: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in id.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The shard (1-based) a pair id belongs to among `count`.
pub fn shard_of(id: &str, count: u64) -> u64 {
    id_hash(id) % count.max(1) + 1
}

/// The pairs of `shard` (all of them without one), in dataset order.
pub fn select_shard(pairs: Vec<DatasetPair>, shard: Option<Shard>) -> Vec<DatasetPair> {
    match shard {
        None => pairs,
        Some(s) => pairs.into_iter().filter(|p| shard_of(&p.id, s.count) == s.index).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parsing_accepts_k_of_n_and_names_what_is_wrong() {
        assert_eq!(parse_shard("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "x/2", "3", ""] {
            let e = parse_shard(bad).unwrap_err();
            assert!(e.contains("expected K/N"), "{bad}: {e}");
        }
    }

    /// 0xaf63dc4c8601ec8c mod 3, plus one.
    const SHARD_A_OF_3: u64 = 2;

    #[test]
    fn the_split_is_fixed_by_the_id_alone() {
        // FNV-1a's published test vector: the hash, hence the split, is the same everywhere.
        assert_eq!(id_hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!((shard_of("a", 4), shard_of("a", 3)), (1, SHARD_A_OF_3));
        // Every id lands in exactly one shard in 1..=N.
        for id in ["x", "minif2f/1", "ünïcode", ""] {
            let s = shard_of(id, 7);
            assert!((1..=7).contains(&s), "{id}: {s}");
        }
    }

    fn pairs(text: &str) -> Result<Vec<DatasetPair>, String> {
        parse_pairs(Path::new("d.jsonl"), text.as_bytes()).map_err(|e| e.to_string())
    }

    const GOOD: &str = r#"{"id":"a","ref_header":"import Mathlib\n","ref_statement":"theorem x : 1 = 1 := rfl","cand_header":"","cand_statement":"theorem y : 1 = 1 := rfl","label":true,"extra":3}"#;

    #[test]
    fn reads_pairs_and_counts_blank_lines() {
        let got = pairs(&format!("\n{GOOD}\n\n")).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].line, 2);
        assert_eq!(got[0].label, Some(true));
        assert_eq!(got[0].ref_header, "import Mathlib\n");
    }

    #[test]
    fn errors_name_file_and_line() {
        let cases: &[(&str, &str)] = &[
            ("", "d.jsonl: no records (the file is empty)"),
            ("\n  \n", "d.jsonl: no records (the file is empty)"),
            ("{oops", "d.jsonl:1: malformed JSON (key must be a string at column 2)"),
            ("[1]", "d.jsonl:1: malformed JSON (expected a JSON object, got an array)"),
            (r#"{"ref_statement":"t"}"#, "d.jsonl:1: missing field 'id'"),
            (r#"{"id":"a","ref_statement":"t"}"#, "d.jsonl:1: missing field 'cand_statement'"),
            (
                r#"{"id":"a","ref_statement":"t","cand_statement":1}"#,
                "d.jsonl:1: field 'cand_statement' must be a string, got a number",
            ),
            (
                r#"{"id":"a","ref_statement":"t","cand_statement":"c","label":"yes"}"#,
                "d.jsonl:1: field 'label' must be true or false, got \"yes\"",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(pairs(input).unwrap_err(), *want, "input {input:?}");
        }
        assert_eq!(pairs(&format!("{GOOD}\n{GOOD}")).unwrap_err(), "d.jsonl:2: duplicate id \"a\"");
    }

    #[test]
    fn invalid_utf8_names_the_line() {
        let mut bytes = format!("{GOOD}\n").into_bytes();
        bytes.extend_from_slice(b"{\"id\": \"\xff\"}\n");
        let err = parse_pairs(Path::new("d.jsonl"), &bytes).unwrap_err();
        assert_eq!(err.to_string(), "d.jsonl:2: not valid UTF-8 (at byte 8 of the line)");
    }

    #[test]
    fn reads_tree_pairs_in_the_contract_format() {
        let text = r#"{"id":"p","ref_tree":{"label":"x","children":[],"variable_freecost":true},"cand_tree":{"label":"y"}}"#;
        let got = parse_tree_pairs(Path::new("t.jsonl"), text.as_bytes()).unwrap();
        assert!(got[0].ref_tree.variable_freecost);
        assert_eq!(got[0].cand_tree, Tree::leaf("y"));
        let err = parse_tree_pairs(Path::new("t.jsonl"), br#"{"id":"p","ref_tree":3}"#)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("t.jsonl:1: field 'ref_tree' is not a tree"), "{err}");
    }

    #[test]
    fn deeply_nested_json_is_an_error_not_a_crash() {
        let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let err = pairs(&text).unwrap_err();
        assert!(err.starts_with("d.jsonl:1: malformed JSON (recursion limit"), "{err}");
    }

    #[test]
    fn bundled_datasets_load() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench");
        assert_eq!(read_pairs(&dir.join("gted-minif2f.jsonl")).unwrap().len(), 205);
        assert_eq!(read_tree_pairs(&dir.join("gted-proofnet.trees.jsonl")).unwrap().len(), 93);
    }
}
