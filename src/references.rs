//! Where a theorem's reference statement comes from: the `-- @reference` directive written
//! directly above a theorem, the reference dataset (JSONL with `name`, `formal_statement`,
//! optional `header`), and the rule deciding which source applies to a theorem. Every error names
//! a file and a line ([`FileError`]); none of them stops anything — the features turn them into
//! diagnostics or messages. Reading a reference theorem out of a `.lean` file (parsing) is left to
//! the features; the configuration itself is `crate::config`.
//!
//! Precedence for one theorem: its directive, then an explicit `[[reference.pair]]`, then a
//! dataset entry with the same name, then a same-named theorem in `[reference] file`.

use crate::config::{Config, Target};
use crate::files::{line_of, read_regular_file, same_file, FileError, MAX_DATASET_BYTES};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::Path;

/// What a `-- @reference` directive points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectiveSpec {
    /// `-- @reference Reference.lean::name`.
    Theorem(Target),
    /// `-- @reference theorem ref (x : ℕ) : ...` (continued on following `--` lines).
    Inline(String),
    /// `-- @reference name`: an entry of the configured dataset or reference file.
    Name(String),
}

/// A directive found above a theorem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    /// 0-based line of the `-- @reference` comment in the document.
    pub line: usize,
    pub spec: DirectiveSpec,
}

const DIRECTIVE: &str = "@reference";

/// The directive in the block of `--` comment lines directly above the declaration that starts at
/// byte `decl_start`, if any. `doc_dir` resolves relative files; `doc_path` names errors.
pub fn directive_above(
    text: &str,
    decl_start: usize,
    doc_path: &Path,
    doc_dir: &Path,
) -> Option<Result<Directive, FileError>> {
    let decl_line = line_of(text, decl_start) - 1;
    directive_above_at(text, decl_start, decl_line, doc_path, doc_dir)
}

/// [`directive_above`] for a caller that knows the declaration's 0-based line (from a line
/// index): nothing here scans the text before the comment block, so finding the directives of
/// every declaration of a file is linear, not quadratic, in its size.
pub fn directive_above_at(
    text: &str,
    decl_start: usize,
    decl_line: usize,
    doc_path: &Path,
    doc_dir: &Path,
) -> Option<Result<Directive, FileError>> {
    let decl_start = decl_start.min(text.len());
    let before = text.get(..decl_start)?;
    // Lines strictly above the declaration's line, nearest first.
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    if !before[line_start..].trim().is_empty() {
        return None; // something precedes the declaration on its own line
    }
    let above = &before[..line_start];
    let mut block: Vec<&str> = Vec::new();
    for l in above.lines().rev() {
        let t = l.trim();
        if let Some(c) = t.strip_prefix("--") {
            block.push(c);
        } else {
            break;
        }
    }
    block.reverse();
    let first_line = decl_line.saturating_sub(block.len());
    let at = block.iter().position(|c| c.trim_start().starts_with(DIRECTIVE))?;
    let line = first_line + at;
    let head = block[at].trim_start()[DIRECTIVE.len()..].trim();
    let mut body = head.to_string();
    for c in &block[at + 1..] {
        if c.trim_start().starts_with('@') {
            break;
        }
        body.push('\n');
        body.push_str(c.strip_prefix(' ').unwrap_or(c));
    }
    let body = body.trim();
    let err = |m: String| Some(Err(FileError::new(doc_path, line + 1, m)));
    if body.is_empty() {
        return err("`-- @reference` needs FILE.lean::NAME, NAME, or a `theorem ...`".into());
    }
    let first_word = body.split_whitespace().next().unwrap_or("");
    let spec = if matches!(first_word, "theorem" | "lemma" | "example") {
        DirectiveSpec::Inline(body.to_string())
    } else if body.contains("::") || first_word.ends_with(".lean") {
        if body.split_whitespace().count() > 1 {
            return err(format!("`-- @reference {body}`: expected one FILE.lean::NAME"));
        }
        match Target::parse(body, doc_dir) {
            Some(t) => DirectiveSpec::Theorem(t),
            None => return err(format!("`-- @reference {body}`: expected FILE.lean::NAME")),
        }
    } else if body.split_whitespace().count() == 1 {
        DirectiveSpec::Name(body.to_string())
    } else {
        return err(format!(
            "`-- @reference {}`: expected FILE.lean::NAME, NAME, or `theorem ...`",
            body.lines().next().unwrap_or("")
        ));
    };
    Some(Ok(Directive { line, spec }))
}

/// Where the text [`directive_above_at`] reads for the declaration at byte `decl_start` begins:
/// the first line of the `--` comment block directly above it (the declaration's own line when
/// there is none). The directive found depends only on `text[start..decl_start]` and the
/// declaration's line, so a job may reuse a theorem whose slice and line are unchanged.
pub fn directive_block_start(text: &str, decl_start: usize) -> usize {
    let decl_start = decl_start.min(text.len());
    let Some(before) = text.get(..decl_start) else {
        return decl_start;
    };
    let mut start = before.rfind('\n').map_or(0, |i| i + 1);
    // The same lines as `above.lines().rev()` there: each ends at a '\n' (a '\r' is trimmed).
    while start > 0 {
        let line_end = start - 1;
        let line_start = before[..line_end].rfind('\n').map_or(0, |i| i + 1);
        if !before[line_start..line_end].trim().starts_with("--") {
            break;
        }
        start = line_start;
    }
    start
}

/// One dataset entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetEntry {
    pub name: String,
    pub statement: String,
    pub header: String,
    /// 1-based line in the dataset file.
    pub line: usize,
}

#[derive(Deserialize)]
struct RawEntry {
    name: String,
    formal_statement: String,
    #[serde(default)]
    header: Option<String>,
}

/// A reference dataset: name → entry. Bad lines are reported and skipped, not fatal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dataset {
    pub entries: HashMap<String, DatasetEntry>,
}

impl Dataset {
    pub fn load(path: &Path) -> Result<(Dataset, Vec<FileError>), FileError> {
        let text = read_regular_file(path, MAX_DATASET_BYTES)
            .map_err(|e| FileError::new(path, 1, format!("cannot read dataset: {e}")))?;
        Ok(Dataset::parse(&text, path))
    }

    pub fn parse(text: &str, path: &Path) -> (Dataset, Vec<FileError>) {
        let mut ds = Dataset::default();
        let mut errors = Vec::new();
        for (i, l) in text.lines().enumerate() {
            if l.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<RawEntry>(l) {
                Ok(e) => {
                    ds.entries.insert(
                        e.name.clone(),
                        DatasetEntry {
                            name: e.name,
                            statement: e.formal_statement,
                            header: e.header.unwrap_or_default(),
                            line: i + 1,
                        },
                    );
                }
                Err(e) => errors.push(FileError::new(
                    path,
                    i + 1,
                    format!("not a dataset entry {{name, formal_statement, header?}}: {e}"),
                )),
            }
        }
        (ds, errors)
    }
}

/// Where the reference for one candidate theorem is, before reading any file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReferenceSource {
    /// A theorem in a `.lean` file (the candidate's own name when `name` is `None`).
    Theorem { target: Target, origin: String },
    /// Statement text given inline in a directive.
    Inline { text: String, origin: String },
    /// A theorem by name: the dataset first, then the config's reference file.
    Named { name: String, origin: String },
}

impl ReferenceSource {
    /// Where it came from, for hover text ("directive at C.lean:3", "lean-assess.toml:7").
    pub fn origin(&self) -> &str {
        match self {
            ReferenceSource::Theorem { origin, .. }
            | ReferenceSource::Inline { origin, .. }
            | ReferenceSource::Named { origin, .. } => origin,
        }
    }
}

/// Decide where the reference of theorem `name` in the document at `doc_path` comes from.
/// `directive` is what [`directive_above`] found (errors were reported separately).
pub fn source_for(
    doc_path: &Path,
    name: Option<&str>,
    directive: Option<&Directive>,
    config: Option<&Config>,
) -> Option<ReferenceSource> {
    let file_name =
        doc_path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    if let Some(d) = directive {
        let origin = format!("directive at {file_name}:{}", d.line + 1);
        return Some(match &d.spec {
            DirectiveSpec::Theorem(t) => ReferenceSource::Theorem {
                target: Target {
                    file: t.file.clone(),
                    name: t.name.clone().or(name.map(str::to_string)),
                },
                origin,
            },
            DirectiveSpec::Inline(text) => ReferenceSource::Inline { text: text.clone(), origin },
            DirectiveSpec::Name(n) => ReferenceSource::Named { name: n.clone(), origin },
        });
    }
    let config = config?;
    let cfg_name =
        config.path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    if let Some(p) = config.pair_for(doc_path, name) {
        return Some(ReferenceSource::Theorem {
            target: Target {
                file: p.reference.file.clone(),
                name: p.reference.name.clone().or(name.map(str::to_string)),
            },
            origin: format!("{cfg_name}:{}", p.line),
        });
    }
    let name = name?;
    // A theorem is not its own reference: skip name matching inside the reference file itself.
    if let Some(f) = &config.reference_file {
        if config.dataset.is_none() && same_file(f, doc_path) {
            return None;
        }
    }
    if config.dataset.is_some() || config.reference_file.is_some() {
        return Some(ReferenceSource::Named {
            name: name.to_string(),
            origin: format!("{cfg_name} (by name)"),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::tests::GOOD;
    use crate::config::ReadableRoots;

    #[test]
    fn references_resolve_inside_the_workspace_only() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        let proj = tmp.path().join("proj");
        std::fs::create_dir_all(proj.join("A")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(proj.join("lakefile.toml"), "").unwrap();
        std::fs::write(proj.join("A/Ref.lean"), "theorem r : True := trivial").unwrap();
        std::fs::write(outside.join("secret.lean"), "theorem s : True := trivial").unwrap();
        std::os::unix::fs::symlink(outside.join("secret.lean"), proj.join("A/Link.lean")).unwrap();
        let doc = proj.join("A/Cand.lean");
        // No config, no editor roots: the Lake project is the workspace.
        let roots = ReadableRoots::for_document(Some(&doc), None, &[]);
        let target = |spec: &str| Target::parse(spec, doc.parent().unwrap()).unwrap().file;
        assert_eq!(roots.check(&target("Ref.lean::r")), Ok(()));
        assert_eq!(roots.check(&target("Missing.lean::r")), Ok(()));
        for bad in [
            "../../outside/secret.lean::s",
            "../../../../../../../../etc/passwd::root",
            "/etc/passwd::root",
            "Link.lean::s",
        ] {
            let e = roots.check(&target(bad)).expect_err(bad);
            assert!(e.contains("is outside the workspace"), "{e}");
        }
        // A configured root (the editor's workspace folder) widens it.
        let wider = ReadableRoots::for_document(Some(&doc), None, std::slice::from_ref(&outside));
        assert_eq!(wider.check(&target("../../outside/secret.lean::s")), Ok(()));
        // The directive itself is read as before; its target is what gets checked.
        let text =
            "-- @reference ../../../../../../../../etc/passwd::root\ntheorem c : True := trivial";
        let d = directive_above(text, text.find("theorem").unwrap(), &doc, doc.parent().unwrap())
            .unwrap()
            .unwrap();
        let DirectiveSpec::Theorem(t) = d.spec else { panic!("{:?}", d.spec) };
        assert!(roots.check(&t.file).is_err());
    }

    fn directive(text: &str) -> Option<Result<Directive, FileError>> {
        let start = text.find("theorem cand").unwrap();
        directive_above(text, start, Path::new("/w/C.lean"), Path::new("/w"))
    }

    #[test]
    fn directives_of_every_form() {
        let t = "import Mathlib\n\n-- @reference Reference.lean::mathd_algebra_142\ntheorem cand : True := trivial\n";
        assert_eq!(
            directive(t).unwrap().unwrap(),
            Directive {
                line: 2,
                spec: DirectiveSpec::Theorem(Target {
                    file: "/w/Reference.lean".into(),
                    name: Some("mathd_algebra_142".into())
                })
            }
        );
        let t = "-- some note\n-- @reference theorem ref (x : ℕ)\n--   (h : 0 < x) : x ≠ 0\ntheorem cand (x : ℕ) : x ≠ 0 := sorry";
        assert_eq!(
            directive(t).unwrap().unwrap(),
            Directive {
                line: 1,
                spec: DirectiveSpec::Inline("theorem ref (x : ℕ)\n  (h : 0 < x) : x ≠ 0".into())
            }
        );
        let t = "-- @reference mathd_algebra_142\ntheorem cand : True := trivial";
        assert_eq!(
            directive(t).unwrap().unwrap().spec,
            DirectiveSpec::Name("mathd_algebra_142".into())
        );
        // Not directly above: a blank line separates it.
        assert_eq!(directive("-- @reference R.lean::x\n\ntheorem cand : True := trivial"), None);
        assert_eq!(directive("theorem cand : True := trivial"), None);
    }

    #[test]
    fn bad_directives_name_file_and_line() {
        for (t, line) in [
            ("\n-- @reference\ntheorem cand : True := trivial", 2),
            ("\n\n-- @reference two words\ntheorem cand : True := trivial", 3),
            ("-- @reference R.lean:: \ntheorem cand : True := trivial", 1),
        ] {
            let e = directive(t).unwrap().unwrap_err();
            assert_eq!(e.line, line, "{t:?}");
            assert!(e.to_string().starts_with(&format!("/w/C.lean:{line}: ")), "{e}");
        }
    }

    #[test]
    fn dataset_bad_lines_are_reported_and_skipped() {
        let text = "{\"name\":\"a\",\"formal_statement\":\"theorem a : True := sorry\"}\n\nnot json\n{\"name\":\"b\"}\n";
        let (ds, errs) = Dataset::parse(text, Path::new("refs.jsonl"));
        assert_eq!(ds.entries.len(), 1);
        assert_eq!(ds.entries["a"].line, 1);
        let lines: Vec<usize> = errs.iter().map(|e| e.line).collect();
        assert_eq!(lines, [3, 4]);
        assert!(errs[1].to_string().starts_with("refs.jsonl:4: "));
    }

    #[test]
    fn precedence_directive_then_pair_then_name() {
        let cfg = Config::parse(GOOD, Path::new("/w/lean-assess.toml")).unwrap();
        let doc = Path::new("/w/Autoformalized.lean");
        let d = Directive { line: 4, spec: DirectiveSpec::Name("n".into()) };
        let s = source_for(doc, Some("my_favorite_theorem"), Some(&d), Some(&cfg)).unwrap();
        assert_eq!(s.origin(), "directive at Autoformalized.lean:5");
        let s = source_for(doc, Some("my_favorite_theorem"), None, Some(&cfg)).unwrap();
        assert!(matches!(&s, ReferenceSource::Theorem { target, .. }
            if target.name.as_deref() == Some("mathd_algebra_142")));
        assert_eq!(s.origin(), "lean-assess.toml:6");
        let s = source_for(doc, Some("other"), None, Some(&cfg)).unwrap();
        assert_eq!(
            s,
            ReferenceSource::Named {
                name: "other".into(),
                origin: "lean-assess.toml (by name)".into()
            }
        );
        assert_eq!(source_for(doc, Some("other"), None, None), None);
    }

    proptest::proptest! {
        /// Arbitrary config text, document text and offsets: an error or a value, never a panic.
        #[test]
        fn arbitrary_input_never_panics(
            cfg in "[\\[\\]a-z_=\"\\n .:0-9-]{0,80}",
            doc in "[-@a-z :ℝ𝔽\\n.]{0,80}",
            at in 0usize..100,
        ) {
            let _ = Config::parse(&cfg, Path::new("/w/lean-assess.toml"));
            let _ = directive_above(&doc, at, Path::new("/w/C.lean"), Path::new("/w"));
            let _ = Dataset::parse(&doc, Path::new("d.jsonl"));
            let _ = line_of(&doc, at);
        }
    }
}
