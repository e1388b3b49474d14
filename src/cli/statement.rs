//! Where a command's statement comes from: `FILE.lean` (its one theorem), `FILE.lean::NAME`,
//! or literal text (`--text`, `--ref-text`, `--cand-text`).
//!
//! Owns reading the file, picking the declaration and cutting its header (the file's text
//! before the declaration: imports, `open`, `set_option`), then hands both to the parser. Errors
//! name the input and, where there is one, the line. Parsing itself is `trees::parse`'s job.

use crate::trees::parse::{self, Declaration, Header};
use crate::trees::Statement;
use anyhow::{bail, Context};
use std::path::Path;

/// A statement parsed from the command line's inputs, with what a metric needs besides it.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// How the user named it (`ref.lean::foo`, `--text`), for output and messages.
    pub origin: String,
    /// The text before the declaration (imports, `open ...`), given to metrics as the header.
    pub header: String,
    pub statement: Statement,
    /// The whole text the statement was read from (the file, or the literal text): its spans
    /// are offsets into this.
    pub text: String,
}

/// Tell the user (on `err`) which spans of the statement the parser kept as raw text nodes.
///
/// Spans are byte offsets into the file (or literal text), so the raw text is cut from there, not
/// from the statement's own source (which starts later in a file with a header). Long spans are
/// shortened to their two ends.
pub fn note_unparsed(loaded: &Loaded, err: &mut dyn std::io::Write) -> std::io::Result<()> {
    for span in &loaded.statement.unparsed {
        let raw = loaded.text.get(span.start as usize..span.end as usize).unwrap_or_default();
        writeln!(
            err,
            "lean-assess: note: {}: could not parse `{}` (bytes {}..{}); it stands as one node",
            loaded.origin,
            shorten(&raw.split_whitespace().collect::<Vec<_>>().join(" ")),
            span.start,
            span.end
        )?;
    }
    Ok(())
}

/// Characters kept from each end of a long span in a message.
const SPAN_END_CHARS: usize = 30;

/// `text`, or its first and last [`SPAN_END_CHARS`] characters around `…` with the count of
/// characters left out, so one message line stays short whatever the span.
fn shorten(text: &str) -> String {
    let n = text.chars().count();
    if n <= 3 * SPAN_END_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(SPAN_END_CHARS).collect();
    let tail: String = text.chars().skip(n - SPAN_END_CHARS).collect();
    format!("{head} … ({} characters) … {tail}", n - 2 * SPAN_END_CHARS)
}

/// Load `FILE.lean` or `FILE.lean::NAME`.
pub fn from_spec(spec: &str) -> anyhow::Result<Loaded> {
    let (path, name) = split_spec(spec);
    std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    // A regular file of bounded size: a FIFO or device named here is refused, not waited on.
    let bytes = crate::files::read_regular_bytes(path, crate::files::MAX_SOURCE_BYTES)
        .map_err(anyhow::Error::msg)?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
            bail!("{}:{line}: not valid UTF-8", path.display());
        }
    };
    from_text(&path.display().to_string(), spec, &text, name, false)
}

/// Load from literal text (`--text "theorem ..."`), which may start with header lines.
pub fn from_literal(flag: &str, text: &str) -> anyhow::Result<Loaded> {
    from_text(flag, flag, text, None, true)
}

/// `a/b.lean::foo` → (`a/b.lean`, Some(`foo`)). Lean names never contain `::`, so the last one
/// separates; a spec without it is a plain path.
fn split_spec(spec: &str) -> (&Path, Option<&str>) {
    match spec.rsplit_once("::") {
        Some((path, name)) if !path.is_empty() => (Path::new(path), Some(name)),
        _ => (Path::new(spec), None),
    }
}

fn from_text(
    input: &str,
    origin: &str,
    text: &str,
    name: Option<&str>,
    literal: bool,
) -> anyhow::Result<Loaded> {
    let declarations = parse::find_declarations(text);
    let declaration = pick(input, &declarations, name, text)?;
    let Some(declaration) = declaration else {
        if !literal {
            bail!("{input}: no theorem, lemma or example found");
        }
        // No declaration found at all: let the parser say what is wrong with the text.
        let statement = parse::parse_statement(text, &Header::default())
            .map_err(|e| anyhow::anyhow!("{input}: {e}"))?;
        return Ok(Loaded {
            origin: origin.to_string(),
            header: String::new(),
            statement,
            text: text.to_string(),
        });
    };
    let header_text = text.get(..declaration.start).unwrap_or_default();
    let header = Header::parse(header_text);
    let statement = parse::parse_declaration_in(text, declaration, &header)
        .map_err(|e| anyhow::anyhow!("{input}: {e}"))?;
    Ok(Loaded {
        origin: origin.to_string(),
        header: header_text.to_string(),
        statement,
        text: text.to_string(),
    })
}

/// The named declaration, or the only one: with several and no name, an error listing them (the
/// first is often a helper lemma, and judging it in place of the intended statement would be a
/// verdict on the wrong thing). `Ok(None)` only when there is no declaration and no name was
/// asked for.
///
/// A name is looked up as Lean would write it from outside the file: `Foo.bar` finds `theorem bar`
/// inside `namespace Foo` (nested namespaces too) and `theorem Foo.bar` at top level. A name that
/// is only the end of full names (`bar` for `Foo.bar`) is taken when one declaration ends that
/// way; several, or none, is one error listing the theorems the file declares.
fn pick<'a>(
    input: &str,
    declarations: &'a [Declaration],
    name: Option<&str>,
    text: &str,
) -> anyhow::Result<Option<&'a Declaration>> {
    let Some(name) = name else {
        if let [_, _, ..] = declarations {
            let names: Vec<&str> =
                declarations.iter().map(|d| d.name.as_deref().unwrap_or(d.keyword)).collect();
            let how = if input.starts_with("--") {
                "give the one to compare alone".to_string()
            } else {
                format!("name the one to compare, e.g. {input}::{}", names[names.len() - 1])
            };
            bail!("{input}: holds {} statements ({}); {how}", names.len(), names.join(", "));
        }
        return Ok(declarations.first());
    };
    let full: Vec<(String, &Declaration)> = declarations
        .iter()
        .filter_map(|d| {
            let declared = d.name.as_deref()?;
            Some((full_name(text, d.start, declared), d))
        })
        .collect();
    if let Some((_, found)) = full.iter().find(|(n, _)| n == name) {
        return Ok(Some(found));
    }
    let suffix = format!(".{name}");
    let ending: Vec<&(String, &Declaration)> =
        full.iter().filter(|(n, _)| n.ends_with(&suffix)).collect();
    if let [(_, found)] = ending.as_slice() {
        return Ok(Some(found));
    }
    if ending.len() > 1 {
        let names: Vec<&str> = ending.iter().map(|(n, _)| n.as_str()).collect();
        bail!(
            "{input}: theorem name '{name}' is ambiguous (it could be: {}); write the full name",
            names.join(", ")
        );
    }
    if full.is_empty() {
        bail!("{input}: no theorem named '{name}' (the file declares no named theorem)");
    }
    let known: Vec<&str> = full.iter().map(|(n, _)| n.as_str()).collect();
    bail!("{input}: no theorem named '{name}' (theorems here: {})", known.join(", "));
}

/// The full name of a declaration named `declared` that starts at byte `start` of `text`: the
/// namespaces open there (`namespace A.B` … `end A.B`, sections ignored) in front, except for a
/// name written `_root_.x`, which is `x` wherever it stands.
fn full_name(text: &str, start: usize, declared: &str) -> String {
    if let Some(root) = declared.strip_prefix("_root_.") {
        return root.to_string();
    }
    let mut prefix = open_namespaces(text.get(..start).unwrap_or_default());
    prefix.push(declared.to_string());
    prefix.join(".")
}

/// What a scope command opened: a namespace's components, or a section (named or not).
enum Scope {
    Namespace(Vec<String>),
    Section,
}

/// The namespace components open at the end of `before`: Lean's `namespace`/`section`/`end`
/// commands, read line by line (a command starts its line), comments and strings skipped.
fn open_namespaces(before: &str) -> Vec<String> {
    let mut scopes: Vec<Scope> = Vec::new();
    for line in code_lines(before) {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("namespace") => {
                if let Some(n) = words.next() {
                    scopes.push(Scope::Namespace(n.split('.').map(str::to_string).collect()));
                }
            }
            Some("section" | "noncomputable")
                if line.split_whitespace().any(|w| w == "section") =>
            {
                scopes.push(Scope::Section)
            }
            Some("end") => {
                scopes.pop();
            }
            _ => {}
        }
    }
    scopes
        .into_iter()
        .flat_map(|s| match s {
            Scope::Namespace(parts) => parts,
            Scope::Section => Vec::new(),
        })
        .collect()
}

/// The lines of `text` with `--` comments, `/- … -/` comments (nested) and string literals
/// blanked out, so that a `namespace` inside a comment or docstring opens nothing.
fn code_lines(text: &str) -> Vec<String> {
    let mut lines = vec![String::new()];
    let mut chars = text.chars().peekable();
    let mut block = 0usize;
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if c == '\n' {
            lines.push(String::new());
            continue;
        }
        let line = lines.last_mut().expect("one line at least");
        if block > 0 {
            if c == '-' && chars.peek() == Some(&'/') {
                chars.next();
                block -= 1;
            } else if c == '/' && chars.peek() == Some(&'-') {
                chars.next();
                block += 1;
            }
            continue;
        }
        if in_string {
            if c == '\\' {
                chars.next();
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '/' if chars.peek() == Some(&'-') => {
                chars.next();
                block += 1;
            }
            '-' if chars.peek() == Some(&'-') => {
                // A line comment: skip to the end of the line.
                while chars.peek().is_some_and(|&n| n != '\n') {
                    chars.next();
                }
            }
            '"' => in_string = true,
            _ => line.push(c),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_splits_at_the_last_double_colon() {
        assert_eq!(split_spec("a/b.lean::foo"), (Path::new("a/b.lean"), Some("foo")));
        assert_eq!(split_spec("a/b.lean"), (Path::new("a/b.lean"), None));
        assert_eq!(split_spec("::foo"), (Path::new("::foo"), None));
    }

    fn names(text: &str) -> Vec<String> {
        parse::find_declarations(text)
            .iter()
            .map(|d| full_name(text, d.start, d.name.as_deref().unwrap_or("_")))
            .collect()
    }

    #[test]
    fn full_names_follow_namespaces_sections_and_root() {
        let text = "import Mathlib\n/- namespace Fake -/\n-- namespace Fake2\nnamespace Foo\n\
                    theorem bar : 1 = 1 := rfl\nnamespace Baz.Q\nsection S\n\
                    theorem deep : 2 = 2 := rfl\nend S\nend Baz.Q\n\
                    theorem _root_.top : 3 = 3 := rfl\nend Foo\n\
                    theorem Foo.full : 4 = 4 := rfl\ntheorem plain : 5 = 5 := rfl\n";
        assert_eq!(names(text), ["Foo.bar", "Foo.Baz.Q.deep", "top", "Foo.full", "plain"]);
    }

    #[test]
    fn pick_by_full_name_unique_suffix_and_errors() {
        let text = "namespace A\ntheorem t : 1 = 1 := rfl\nend A\n\
                    namespace B\ntheorem t : 2 = 2 := rfl\ntheorem u : 3 = 3 := rfl\nend B\n";
        let ds = parse::find_declarations(text);
        let got = |n: &str| pick("f.lean", &ds, Some(n), text).map(|d| d.map(|d| d.start));
        assert_eq!(got("A.t").unwrap(), Some(ds[0].start));
        assert_eq!(got("B.t").unwrap(), Some(ds[1].start));
        assert_eq!(got("u").unwrap(), Some(ds[2].start));
        let ambiguous = got("t").unwrap_err().to_string();
        assert!(ambiguous.contains("ambiguous") && ambiguous.contains("A.t, B.t"), "{ambiguous}");
        let unknown = got("C.t").unwrap_err().to_string();
        assert!(unknown.contains("theorems here: A.t, B.t, B.u"), "{unknown}");
    }
}
