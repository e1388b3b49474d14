//! Where a command's statement comes from: `FILE.lean` (its first theorem), `FILE.lean::NAME`,
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
        let raw = loaded
            .text
            .get(span.start as usize..span.end as usize)
            .unwrap_or_default();
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
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
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
    let declaration = pick(input, &declarations, name)?;
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

/// The named declaration, or the first one. `Ok(None)` only when there is no declaration and no
/// name was asked for.
fn pick<'a>(
    input: &str,
    declarations: &'a [Declaration],
    name: Option<&str>,
) -> anyhow::Result<Option<&'a Declaration>> {
    let Some(name) = name else {
        return Ok(declarations.first());
    };
    if let Some(found) = declarations
        .iter()
        .find(|d| d.name.as_deref() == Some(name))
    {
        return Ok(Some(found));
    }
    let known: Vec<&str> = declarations
        .iter()
        .filter_map(|d| d.name.as_deref())
        .collect();
    if known.is_empty() {
        bail!("{input}: no theorem named '{name}' (the file declares no named theorem)");
    }
    bail!(
        "{input}: no theorem named '{name}' (theorems here: {})",
        known.join(", ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_splits_at_the_last_double_colon() {
        assert_eq!(
            split_spec("a/b.lean::foo"),
            (Path::new("a/b.lean"), Some("foo"))
        );
        assert_eq!(split_spec("a/b.lean"), (Path::new("a/b.lean"), None));
        assert_eq!(split_spec("::foo"), (Path::new("::foo"), None));
    }
}
