//! The features' one seam onto the engine: finding declarations, parsing statements, edit
//! mappings and metrics. Everything Lean-text-specific the features need passes through here,
//! so the rest of `features` works on `Statement`s, `Mapping`s and `MetricReport`s only.
//!
//! Owns nothing of the engine itself (`trees::parse`, `distance`, `metrics` do the work).

use crate::distance::Mapping;
use crate::metrics::{self, MetricError, MetricReport, Pair};
use crate::trees::{Statement, Tree};

/// A declaration in a file: byte ranges into the file text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decl {
    pub keyword: String,
    pub name: Option<String>,
    /// Whole declaration, proof included.
    pub start: usize,
    pub end: usize,
    pub name_range: Option<(usize, usize)>,
    /// Where the statement ends (`:=` or the end).
    pub statement_end: usize,
}

/// Declarations (`theorem`, `lemma`, `example`) in a file.
pub fn declarations(text: &str) -> Vec<Decl> {
    interim_scan(text)
}

/// The header (imports, `open`s, options) of a file: everything before its first declaration.
pub fn header_of(text: &str, decls: &[Decl]) -> String {
    let end = decls
        .first()
        .map_or(text.len(), |d| d.start)
        .min(text.len());
    text.get(..end).unwrap_or("").to_string()
}

/// Parse one statement's text (`theorem name binders : type`, proof optional).
pub fn parse(statement: &str, header: &str) -> Result<Statement, String> {
    let _ = (statement, header);
    Err("the statement parser is not available in this build yet".into())
}

/// The optimal TED edit mapping from `reference` to `candidate` (preorder ids).
pub fn mapping(reference: &Tree, candidate: &Tree) -> Option<Mapping> {
    let _ = (reference, candidate);
    None
}

/// Run an offline metric by contract name.
pub fn judge(metric: &str, pair: &Pair<'_>) -> Result<MetricReport, MetricError> {
    metrics::by_name(metric)?.judge(pair)
}

/// Interim declaration scan until `trees::parse::find_declarations` is on main: a declaration
/// starts at a line whose first word (after modifiers/attributes) is a declaration keyword.
fn interim_scan(text: &str) -> Vec<Decl> {
    const MODIFIERS: [&str; 5] = ["private", "protected", "nonrec", "noncomputable", "public"];
    let mut out: Vec<Decl> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let line_start = offset;
        offset += line.len();
        let mut rest = line.trim_start();
        let mut col = line.len() - rest.len();
        if rest.starts_with("@[") {
            let Some(close) = rest.find(']') else {
                continue;
            };
            let after = &rest[close + 1..];
            col += close + 1 + (after.len() - after.trim_start().len());
            rest = after.trim_start();
        }
        loop {
            let word = rest.split_whitespace().next().unwrap_or("");
            if !MODIFIERS.contains(&word) {
                break;
            }
            let after = &rest[word.len()..];
            col += word.len() + (after.len() - after.trim_start().len());
            rest = after.trim_start();
        }
        let keyword = rest.split_whitespace().next().unwrap_or("");
        if !matches!(keyword, "theorem" | "lemma" | "example") {
            continue;
        }
        let kw_start = line_start + col;
        let after_kw = &text[kw_start + keyword.len()..];
        let ws = after_kw.len() - after_kw.trim_start().len();
        let name_start = kw_start + keyword.len() + ws;
        let name_len = text[name_start..]
            .find(|c: char| c.is_whitespace() || "({[⦃:".contains(c))
            .unwrap_or(text.len() - name_start);
        let (name, name_range) = if keyword == "example" || name_len == 0 {
            (None, None)
        } else {
            (
                Some(text[name_start..name_start + name_len].to_string()),
                Some((name_start, name_start + name_len)),
            )
        };
        if let Some(prev) = out.last_mut() {
            prev.end = prev.end.min(line_start);
            prev.statement_end = prev.statement_end.min(prev.end);
        }
        let statement_end = text[kw_start..]
            .find(":=")
            .map_or(text.len(), |i| kw_start + i);
        out.push(Decl {
            keyword: keyword.to_string(),
            name,
            start: line_start + (line.len() - line.trim_start().len()),
            end: text.len(),
            name_range,
            statement_end,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_declarations_with_names_and_statement_ends() {
        let t = "import Mathlib\n\n-- @reference R.lean::r\ntheorem foo (x : ℝ) : x = x := by\n  rfl\n\n@[simp] lemma bar : True := trivial\n";
        let d = declarations(t);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].name.as_deref(), Some("foo"));
        assert_eq!(
            &t[d[0].start..d[0].statement_end],
            "theorem foo (x : ℝ) : x = x "
        );
        let (a, b) = d[0].name_range.unwrap();
        assert_eq!(&t[a..b], "foo");
        assert_eq!(d[1].name.as_deref(), Some("bar"));
        assert_eq!(
            header_of(t, &d),
            "import Mathlib\n\n-- @reference R.lean::r\n"
        );
    }
}
