//! JSONL inputs of the batch commands: statement pairs (`bench`, `merge`) and tree pairs
//! (`ted --pairs`), in the formats of docs/file-formats.md.
//!
//! Owns reading and validating those files, with errors that name the file and the 1-based line
//! (blank lines are skipped but counted, as score.py counts them); for statement pairs also which
//! field plays which part (the crate's names, the field's datasets' names, or the user's
//! `--*-field` choice: [`Mapping`]), k candidates per problem (a list, or lines sharing an id),
//! and a statement that starts with its own header. Parsing statements, judging
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

/// Which field of a dataset line plays which part. [`FieldChoice`] is what the user asked for
/// (`--id-field`, ...); [`Mapping`] is what was used, resolved on the file's first record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldChoice {
    pub id: Option<String>,
    pub reference: Option<String>,
    pub candidate: Option<String>,
    pub label: Option<String>,
    /// The reference's header (and the candidates', when the file has no `cand_header`).
    pub header: Option<String>,
}

/// The names looked for, in order, for each part, when the user did not name the field: this
/// crate's own shape first, then the field's datasets (miniF2F/ProofNet releases and GTED's
/// `label.jsonl`: `name`, `formal_statement`, `header`; ProofNet-lean4: `src_header`; BEq's
/// ProofNetVerif: `lean4_formalization`, `lean4_prediction`, `lean4_src_header`, `correct`).
const ID_NAMES: &[&str] = &["id", "name", "problem_id"];
const REFERENCE_NAMES: &[&str] =
    &["ref_statement", "formal_statement", "lean4_formalization", "reference"];
const REF_HEADER_NAMES: &[&str] = &["ref_header", "header", "src_header", "lean4_src_header"];
const CANDIDATE_NAMES: &[&str] =
    &["cand_statement", "candidates", "lean4_prediction", "prediction", "autoformalization"];
const CAND_HEADER_NAMES: &[&str] = &["cand_header"];
const LABEL_NAMES: &[&str] = &["label", "correct"];

/// The fields used for each part of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    pub id: String,
    pub reference: String,
    /// `None`: the file has no header field; statements are read with an empty header unless
    /// they start with their own imports (the stated default, see [`Mapping::describe`]).
    pub ref_header: Option<String>,
    pub candidate: String,
    /// `None`: candidates are read under the reference's header.
    pub cand_header: Option<String>,
    pub label: Option<String>,
}

impl Mapping {
    /// The crate's own shape (`id`, `ref_header`, `ref_statement`, `cand_header`,
    /// `cand_statement`, `label`).
    pub fn native() -> Mapping {
        Mapping {
            id: "id".into(),
            reference: "ref_statement".into(),
            ref_header: Some("ref_header".into()),
            candidate: "cand_statement".into(),
            cand_header: Some("cand_header".into()),
            label: Some("label".into()),
        }
    }

    /// One line saying which field plays which part, and what stands in for an absent one.
    pub fn describe(&self) -> String {
        let quote = |s: &str| format!("'{s}'");
        let ref_header = self.ref_header.as_deref().map_or_else(
            || "none (no header field: read as empty unless a statement starts with its own imports)".to_string(),
            quote,
        );
        let cand_header = match (&self.cand_header, &self.ref_header) {
            (Some(h), _) => quote(h),
            (None, Some(_)) => "the reference's".to_string(),
            (None, None) => "none".to_string(),
        };
        let label = self.label.as_deref().map_or_else(|| "none".to_string(), quote);
        format!(
            "id {}, reference {} (header {ref_header}), candidate {} (header {cand_header}), label {label}",
            quote(&self.id),
            quote(&self.reference),
            quote(&self.candidate),
        )
    }

    /// The mapping as JSON (`bench --json`'s `"fields"`).
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "id": self.id,
            "reference": self.reference,
            "ref_header": self.ref_header,
            "candidate": self.candidate,
            "cand_header": self.cand_header,
            "label": self.label,
        })
    }
}

/// A dataset read with its mapping: the pairs (one per candidate) and, beside each, the problem
/// it answers (its id; a problem with k candidates has k pairs `ID#1` … `ID#k`).
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    pub pairs: Vec<DatasetPair>,
    /// `problems[i]` is the problem id of `pairs[i]`.
    pub problems: Vec<String>,
    pub mapping: Mapping,
    /// How many lines had no value in the header field(s) (read as empty), when some had one.
    pub headers_missing: usize,
    /// Statements that started with their own header (imports, `open`), moved to the header.
    pub own_headers: usize,
}

impl Dataset {
    /// How many candidates the problems have: (fewest, most); (1, 1) for one pair per problem.
    pub fn samples_per_problem(&self) -> (usize, usize) {
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for p in &self.problems {
            *counts.entry(p.as_str()).or_default() += 1;
        }
        let min = counts.values().copied().min().unwrap_or(0);
        let max = counts.values().copied().max().unwrap_or(0);
        (min, max)
    }

    /// The number of distinct problems.
    pub fn problem_count(&self) -> usize {
        self.problems.iter().collect::<std::collections::HashSet<_>>().len()
    }
}

/// Read a dataset file of labelled statement pairs in the crate's own shape (or any shape the
/// names of [`FieldChoice::default`] find).
pub fn read_pairs(path: &Path) -> Result<Vec<DatasetPair>, DatasetError> {
    Ok(read_dataset(path, &FieldChoice::default())?.pairs)
}

/// Read a dataset file, its fields named by `choice` or found by their usual names.
pub fn read_dataset(path: &Path, choice: &FieldChoice) -> Result<Dataset, DatasetError> {
    let bytes = read(path)?;
    parse_dataset(path, &bytes, choice)
}

/// Parse dataset bytes in the crate's own shape; `path` is only used in messages.
pub fn parse_pairs(path: &Path, bytes: &[u8]) -> Result<Vec<DatasetPair>, DatasetError> {
    Ok(parse_dataset(path, bytes, &FieldChoice::default())?.pairs)
}

/// One part of a line: its name in messages, the user's choice and the names looked for.
struct Part<'a> {
    what: &'static str,
    flag: &'static str,
    chosen: Option<&'a str>,
    names: &'static [&'static str],
}

impl Part<'_> {
    /// The field for this part in `object` (the file's first record).
    fn find(&self, object: &Map<String, Value>) -> Option<String> {
        self.find_in(std::slice::from_ref(&object))
    }

    /// The field for this part in any of `records` (an optional part: a file whose first lines
    /// are unlabelled may label later ones).
    fn find_in(&self, records: &[&Map<String, Value>]) -> Option<String> {
        let has = |name: &str| records.iter().any(|r| r.contains_key(name));
        match self.chosen {
            Some(name) => has(name).then(|| name.to_string()),
            None => self.names.iter().find(|n| has(n)).map(|n| n.to_string()),
        }
    }

    /// What was looked for, for a message about a missing field.
    fn missing(&self) -> String {
        match self.chosen {
            Some(name) => format!("'{name}' (the {}, given with {})", self.what, self.flag),
            None => {
                let names: Vec<String> = self.names.iter().map(|n| format!("'{n}'")).collect();
                format!(
                    "the {} (looked for {}; name it with {})",
                    self.what,
                    names.join(", "),
                    self.flag
                )
            }
        }
    }
}

/// Resolve the mapping on the first record; every required part missing is named together.
fn resolve(
    path: &Path,
    line: usize,
    records: &[&Map<String, Value>],
    choice: &FieldChoice,
) -> Result<Mapping, DatasetError> {
    let object = records[0];
    fn part<'a>(
        what: &'static str,
        flag: &'static str,
        chosen: &'a Option<String>,
        names: &'static [&'static str],
    ) -> Part<'a> {
        Part { what, flag, chosen: chosen.as_deref(), names }
    }
    let id = part("id", "--id-field", &choice.id, ID_NAMES);
    let reference = part("reference statement", "--ref-field", &choice.reference, REFERENCE_NAMES);
    let candidate = part("candidate statement", "--cand-field", &choice.candidate, CANDIDATE_NAMES);
    let label = part("label", "--label-field", &choice.label, LABEL_NAMES);
    let header = part("header", "--header-field", &choice.header, REF_HEADER_NAMES);
    let mut missing = Vec::new();
    let mut found = |p: &Part<'_>| {
        let f = p.find(object);
        if f.is_none() {
            missing.push(p.missing());
        }
        f.unwrap_or_default()
    };
    let (id_field, reference_field, candidate_field) =
        (found(&id), found(&reference), found(&candidate));
    // Optional parts: a field the user named must be there; an unnamed one may be absent.
    for optional in [&label, &header] {
        if optional.chosen.is_some() && optional.find_in(records).is_none() {
            missing.push(optional.missing());
        }
    }
    if !missing.is_empty() {
        let s = if missing.len() == 1 { "" } else { "s" };
        return Err(DatasetError::BadField {
            path: path.to_owned(),
            line,
            problem: format!("missing field{s}: {}", missing.join("; ")),
        });
    }
    let cand_header = CAND_HEADER_NAMES
        .iter()
        .find(|n| records.iter().any(|r| r.contains_key(**n)))
        .map(|n| n.to_string());
    Ok(Mapping {
        id: id_field,
        reference: reference_field,
        ref_header: header.find_in(records),
        candidate: candidate_field,
        cand_header,
        label: label.find_in(records),
    })
}

/// Parse dataset bytes with `choice`; `path` is only used in messages.
pub fn parse_dataset(
    path: &Path,
    bytes: &[u8],
    choice: &FieldChoice,
) -> Result<Dataset, DatasetError> {
    let mut mapping: Option<Mapping> = None;
    let mut lines_read: Vec<(usize, Vec<DatasetPair>, String)> = Vec::new();
    let mut headers_missing = 0usize;
    let mut own_headers = 0usize;
    let mut records = Vec::new();
    for (line, object) in objects(path, bytes) {
        records.push((line, object?));
    }
    if let Some((first_line, _)) = records.first() {
        let all: Vec<&Map<String, Value>> = records.iter().map(|(_, o)| o).collect();
        mapping = Some(resolve(path, *first_line, &all, choice)?);
    }
    for (line, mut object) in records {
        let Some(map) = &mapping else {
            break;
        };
        let field = Fields { path, line, object: &mut object };
        let (problem, pairs, missing_header, own) = field.pairs(map)?;
        headers_missing += usize::from(missing_header);
        own_headers += own;
        lines_read.push((line, pairs, problem));
    }
    let Some(mapping) = mapping else {
        return Err(DatasetError::Empty { path: path.to_owned() });
    };
    // Lines sharing an id are k candidates for one problem: `ID#1` … `ID#k`, in file order.
    let mut per_problem: HashMap<String, usize> = HashMap::new();
    for (_, pairs, problem) in &lines_read {
        *per_problem.entry(problem.clone()).or_default() += pairs.len();
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut ids = std::collections::HashSet::new();
    let (mut out, mut problems) = (Vec::new(), Vec::new());
    for (line, pairs, problem) in lines_read {
        for mut pair in pairs {
            if per_problem[&problem] > 1 {
                let k = seen.entry(problem.clone()).or_default();
                *k += 1;
                pair.id = format!("{problem}#{k}");
            }
            if !ids.insert(pair.id.clone()) {
                return Err(DatasetError::DuplicateId { path: path.to_owned(), line, id: pair.id });
            }
            out.push(pair);
            problems.push(problem.clone());
        }
    }
    if out.is_empty() {
        return Err(DatasetError::Empty { path: path.to_owned() });
    }
    // A header field present on some lines only: count the others (they are read as empty).
    let headers_missing = if mapping.ref_header.is_some() { headers_missing } else { 0 };
    Ok(Dataset { pairs: out, problems, mapping, headers_missing, own_headers })
}

/// A statement that starts with its own header (`import Mathlib`, `open Real`, ... before the
/// theorem, as `score --ref-text` accepts it): that text becomes the header, so the statement is
/// the declaration alone. With imports it is a file's beginning and replaces `header` (imports
/// must come first in Lean); without, it is added after `header`. Returns whether anything moved.
pub fn split_own_header(header: &mut String, statement: &mut String) -> bool {
    let declarations = crate::trees::parse::find_declarations(statement);
    let Some(first) = declarations.first() else {
        return false;
    };
    let Some(own) = statement.get(..first.start) else {
        return false;
    };
    if own.trim().is_empty() {
        return false;
    }
    let imports = own.lines().any(|l| l.trim_start().starts_with("import "));
    if imports {
        header.clear();
    } else if !header.is_empty() && !header.ends_with('\n') {
        header.push('\n');
    }
    header.push_str(own);
    *statement = statement[first.start..].to_string();
    true
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
        self.id_named("id")
    }

    fn id_named(&self, name: &str) -> Result<String, DatasetError> {
        match self.object.get(name) {
            Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
            // Some releases number their problems.
            Some(Value::Number(n)) => Ok(n.to_string()),
            Some(other) => Err(self.bad(format!(
                "field '{name}' must be a non-empty string or a number, got {other}"
            ))),
            None => Err(self.bad(format!("missing field '{name}'"))),
        }
    }

    /// The line's pairs under `map`: (problem id, pairs, whether a header field was absent,
    /// how many statements brought their own header). Every required field missing on the line
    /// is named in one error.
    fn pairs(
        &self,
        map: &Mapping,
    ) -> Result<(String, Vec<DatasetPair>, bool, usize), DatasetError> {
        let missing: Vec<String> = [&map.id, &map.reference, &map.candidate]
            .into_iter()
            .filter(|name| !self.object.contains_key(name.as_str()))
            .map(|name| format!("'{name}'"))
            .collect();
        if !missing.is_empty() {
            let s = if missing.len() == 1 { "" } else { "s" };
            return Err(self.bad(format!(
                "missing field{s} {} (used as on the first record: {})",
                missing.join(", "),
                map.describe()
            )));
        }
        let problem = self.id_named(&map.id)?;
        let reference = self.string(&map.reference)?;
        let header_of = |name: &Option<String>| -> Result<(String, bool), DatasetError> {
            match name.as_deref().map(|n| (n, self.object.get(n))) {
                None => Ok((String::new(), false)),
                Some((_, None | Some(Value::Null))) => Ok((String::new(), true)),
                Some((n, Some(_))) => Ok((self.string(n)?, false)),
            }
        };
        let (ref_header, ref_missing) = header_of(&map.ref_header)?;
        let (cand_header, cand_missing) = match &map.cand_header {
            Some(_) => header_of(&map.cand_header)?,
            None => (ref_header.clone(), false),
        };
        let label = match &map.label {
            Some(name) => self.label_named(name, self.object.get(name.as_str()))?,
            None => None,
        };
        // The candidate: one statement, or a list (k samples): strings, or objects with a
        // `statement` and an optional `label`.
        let candidates: Vec<(String, Option<bool>)> = match self.object.get(map.candidate.as_str())
        {
            Some(Value::Array(items)) => {
                if items.is_empty() {
                    return Err(self.bad(format!("field '{}' is an empty list", map.candidate)));
                }
                let labels = match self.object.get(map.label.as_deref().unwrap_or("")) {
                    Some(Value::Array(l)) if l.len() != items.len() => {
                        return Err(self.bad(format!(
                            "field '{}' has {} labels for {} candidates",
                            map.label.as_deref().unwrap_or_default(),
                            l.len(),
                            items.len()
                        )))
                    }
                    Some(Value::Array(l)) => l.clone(),
                    _ => Vec::new(),
                };
                let mut out = Vec::new();
                for (k, item) in items.iter().enumerate() {
                    let at = format!("{}[{k}]", map.candidate);
                    let listed_label = match labels.get(k) {
                        Some(v) => self.label_named(
                            &format!("{}[{k}]", map.label.as_deref().unwrap_or_default()),
                            Some(v),
                        )?,
                        None => None,
                    };
                    match item {
                        Value::String(s) => out.push((s.clone(), listed_label.or(label))),
                        Value::Object(o) => {
                            let Some(Value::String(s)) =
                                o.get("statement").or_else(|| o.get("cand_statement"))
                            else {
                                return Err(self.bad(format!(
                                    "field '{at}' must be a string or an object with a string 'statement'"
                                )));
                            };
                            let own = self.label_named(&format!("{at}.label"), o.get("label"))?;
                            out.push((s.clone(), own.or(listed_label).or(label)));
                        }
                        other => {
                            return Err(self.bad(format!(
                                "field '{at}' must be a string, got {}",
                                kind(other)
                            )))
                        }
                    }
                }
                out
            }
            _ => vec![(self.string(&map.candidate)?, label)],
        };
        let listed = matches!(self.object.get(map.candidate.as_str()), Some(Value::Array(_)));
        let mut own_headers = 0usize;
        let mut ref_header = ref_header;
        let mut reference = reference;
        own_headers += usize::from(split_own_header(&mut ref_header, &mut reference));
        let mut pairs = Vec::new();
        for (k, (cand, label)) in candidates.into_iter().enumerate() {
            let (mut cand_header, mut cand) = (cand_header.clone(), cand);
            own_headers += usize::from(split_own_header(&mut cand_header, &mut cand));
            pairs.push(DatasetPair {
                id: if listed { format!("{problem}#{}", k + 1) } else { problem.clone() },
                line: self.line,
                ref_header: ref_header.clone(),
                ref_statement: reference.clone(),
                cand_header,
                cand_statement: cand,
                label,
            });
        }
        Ok((problem, pairs, ref_missing || cand_missing, own_headers))
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

    /// A label: `true`/`false` (or `null`/absent: unlabelled); a list is per candidate and
    /// handled by the caller.
    fn label_named(&self, name: &str, value: Option<&Value>) -> Result<Option<bool>, DatasetError> {
        match value {
            None | Some(Value::Null) | Some(Value::Array(_)) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => {
                Err(self.bad(format!("field '{name}' must be true or false, got {other}")))
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

/// The pairs of `shard` (all of them without one), in dataset order. The split is by problem,
/// so a problem's k candidates stay together.
pub fn select_shard(data: Dataset, shard: Option<Shard>) -> Dataset {
    let Some(s) = shard else {
        return data;
    };
    let Dataset { pairs, problems, mapping, headers_missing, own_headers } = data;
    let (pairs, problems) = pairs
        .into_iter()
        .zip(problems)
        .filter(|(_, problem)| shard_of(problem, s.count) == s.index)
        .unzip();
    Dataset { pairs, problems, mapping, headers_missing, own_headers }
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
            (
                r#"{"ref_statement":"t"}"#,
                "d.jsonl:1: missing fields: the id (looked for 'id', 'name', 'problem_id'; name it \
                 with --id-field); the candidate statement (looked for 'cand_statement', \
                 'candidates', 'lean4_prediction', 'prediction', 'autoformalization'; name it \
                 with --cand-field)",
            ),
            (
                r#"{"id":"a","ref_statement":"t"}"#,
                "d.jsonl:1: missing field: the candidate statement (looked for 'cand_statement', \
                 'candidates', 'lean4_prediction', 'prediction', 'autoformalization'; name it \
                 with --cand-field)",
            ),
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
        // Two lines with one id are two candidates of one problem, not a duplicate.
        let two = pairs(&format!("{GOOD}\n{GOOD}")).unwrap();
        assert_eq!((two[0].id.as_str(), two[1].id.as_str()), ("a#1", "a#2"));
    }

    fn dataset(text: &str, choice: &FieldChoice) -> Result<Dataset, String> {
        parse_dataset(Path::new("d.jsonl"), text.as_bytes(), choice).map_err(|e| e.to_string())
    }

    #[test]
    fn the_minif2f_release_shape_with_a_candidates_list_gives_k_pairs() {
        // `name`, `header`, `formal_statement` as miniF2F/ProofNet releases and GTED's
        // `label.jsonl` write them, with the model's k samples in a list.
        let line = r#"{"name":"p1","header":"import Mathlib\nopen Real\n","formal_statement":"theorem p1 (x : ℝ) : x = x := by sorry","candidates":["theorem a (y : ℝ) : y = y","theorem b (y : ℝ) : y = y + 0"]}"#;
        let d = dataset(line, &FieldChoice::default()).unwrap();
        assert_eq!(d.pairs.len(), 2);
        assert_eq!((d.pairs[0].id.as_str(), d.pairs[1].id.as_str()), ("p1#1", "p1#2"));
        assert_eq!(d.problems, ["p1", "p1"]);
        // Candidates are read under the reference's header (the file has no `cand_header`).
        assert_eq!(d.pairs[1].cand_header, "import Mathlib\nopen Real\n");
        assert_eq!(d.pairs[0].label, None);
        assert_eq!(d.samples_per_problem(), (2, 2));
        assert_eq!(
            d.mapping.describe(),
            "id 'name', reference 'formal_statement' (header 'header'), candidate 'candidates' \
             (header the reference's), label none"
        );
    }

    #[test]
    fn lines_sharing_an_id_are_k_candidates_of_one_problem() {
        let line = |c: &str| {
            format!(r#"{{"id":"q","ref_statement":"theorem t : 1 = 1","cand_statement":"{c}"}}"#)
        };
        let text =
            [line("theorem a : 1 = 1"), GOOD.to_string(), line("theorem b : 2 = 2")].join("\n");
        let d = dataset(&text, &FieldChoice::default()).unwrap();
        let ids: Vec<&str> = d.pairs.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["q#1", "a", "q#2"]);
        assert_eq!(d.problem_count(), 2);
        assert_eq!(d.samples_per_problem(), (1, 2));
    }

    #[test]
    fn beqs_proofnetverif_shape_is_read_by_its_names() {
        let line = r#"{"id":"ex1","lean4_src_header":"import Mathlib\n","lean4_formalization":"theorem t (n : ℕ) : n > 0","lean4_prediction":"theorem t (n : ℕ) : 0 < n","correct":true}"#;
        let d = dataset(line, &FieldChoice::default()).unwrap();
        assert_eq!(d.pairs[0].label, Some(true));
        assert_eq!(d.pairs[0].ref_header, "import Mathlib\n");
        assert_eq!(d.pairs[0].cand_header, "import Mathlib\n");
        assert_eq!(d.mapping.candidate, "lean4_prediction");
    }

    #[test]
    fn named_fields_override_the_usual_names_and_must_exist() {
        let line = r#"{"key":"k","gold":"theorem t : 1 = 1","out":"theorem u : 1 = 1","ok":false,"hdr":"open Nat\n"}"#;
        let choice = FieldChoice {
            id: Some("key".into()),
            reference: Some("gold".into()),
            candidate: Some("out".into()),
            label: Some("ok".into()),
            header: Some("hdr".into()),
        };
        let d = dataset(line, &choice).unwrap();
        assert_eq!((d.pairs[0].id.as_str(), d.pairs[0].label), ("k", Some(false)));
        assert_eq!(d.pairs[0].ref_header, "open Nat\n");
        let wrong = FieldChoice { label: Some("verdict".into()), ..choice };
        assert_eq!(
            dataset(line, &wrong).unwrap_err(),
            "d.jsonl:1: missing field: 'verdict' (the label, given with --label-field)"
        );
    }

    #[test]
    fn a_statement_with_its_own_imports_moves_them_to_the_header() {
        let line = r#"{"id":"i","ref_statement":"import Mathlib\nopen Real\n\ntheorem t (x : ℝ) : log x = log x","cand_statement":"theorem u (y : ℝ) : Real.log y = Real.log y"}"#;
        let d = dataset(line, &FieldChoice::default()).unwrap();
        assert_eq!(d.pairs[0].ref_header, "import Mathlib\nopen Real\n\n");
        assert_eq!(d.pairs[0].ref_statement, "theorem t (x : ℝ) : log x = log x");
        assert_eq!(d.own_headers, 1);
        // Imports replace the file's header (they must come first); `open`s alone add to it.
        let line = r#"{"id":"j","header":"import Mathlib\nopen Nat\n","formal_statement":"open Real\ntheorem t : 1 = 1","candidates":["import Mathlib\nopen Real\ntheorem u : 1 = 1"]}"#;
        let d = dataset(line, &FieldChoice::default()).unwrap();
        assert_eq!(d.pairs[0].ref_header, "import Mathlib\nopen Nat\nopen Real\n");
        assert_eq!(d.pairs[0].cand_header, "import Mathlib\nopen Real\n");
        assert_eq!(d.own_headers, 2);
    }

    #[test]
    fn a_missing_header_is_counted_not_silently_empty() {
        let with = r#"{"id":"a","ref_header":"open Real\n","ref_statement":"theorem t : 1 = 1","cand_statement":"theorem u : 1 = 1"}"#;
        let without = r#"{"id":"b","ref_statement":"theorem t : 1 = 1","cand_statement":"theorem u : 1 = 1"}"#;
        let d = dataset(&format!("{with}\n{without}"), &FieldChoice::default()).unwrap();
        assert_eq!(d.headers_missing, 1);
        // No header field in the file at all: the mapping says what stands in for it.
        let d = dataset(without, &FieldChoice::default()).unwrap();
        assert!(
            d.mapping.describe().contains("(header none (no header field: read as empty"),
            "{}",
            d.mapping.describe()
        );
    }

    #[test]
    fn a_label_on_a_later_line_only_is_still_read() {
        let unlabelled = r#"{"id":"u","ref_statement":"theorem t : 1 = 1","cand_statement":"theorem u : 1 = 1"}"#;
        let d = dataset(&format!("{unlabelled}\n{GOOD}"), &FieldChoice::default()).unwrap();
        assert_eq!((d.pairs[0].label, d.pairs[1].label), (None, Some(true)));
        assert_eq!(d.mapping, Mapping::native());
    }

    #[test]
    fn a_later_line_names_all_of_its_missing_fields() {
        let text = format!("{GOOD}\n{{\"label\":true}}");
        let e = dataset(&text, &FieldChoice::default()).unwrap_err();
        assert!(
            e.starts_with("d.jsonl:2: missing fields 'id', 'ref_statement', 'cand_statement'"),
            "{e}"
        );
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
