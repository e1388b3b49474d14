//! A cheap scan of a whole `.lean` file for its `theorem`/`lemma`/`example` declarations and the
//! end of each one's statement.
//!
//! Owns [`Declaration`], where a declaration starts (modifiers, attributes and a doc comment
//! before the keyword belong to it) and ends (the next command at its indentation or left of
//! it), and where its statement ends (the top-level `:=`). It does not parse statements.

use crate::trees::lean_syntax::{
    DECLARATION_ENDING_COMMANDS, DECLARATION_MODIFIERS, STATEMENT_KEYWORDS,
};
use crate::trees::lexer::{lex, Token, TokenKind};
use std::sync::Arc;

/// One declaration found by [`find_declarations`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// `theorem`, `lemma` or `example`.
    pub keyword: &'static str,
    /// The declared name (`None` for `example`). Shared: a re-scan after an edit copies the
    /// declarations it did not re-lex (`features::engine`), a pointer each, not a string.
    pub name: Option<Arc<str>>,
    /// Byte range of the whole declaration, modifiers/attributes/doc comment and proof included.
    pub start: usize,
    pub end: usize,
    /// Byte range of the name.
    pub name_range: Option<(usize, usize)>,
    /// Byte offset of the top-level `:=` (or `where`/`|`), or `end` when there is none.
    pub statement_end: usize,
}

/// The statements `text` holds, by name (`example` for an unnamed one), when there are several.
/// A caller with no name to pick by must ask which one is meant: comparing the first would
/// judge a helper lemma or an `example` in place of the statement the user had in mind.
pub fn several_statements(text: &str) -> Option<Vec<String>> {
    let declarations = find_declarations(text);
    (declarations.len() > 1).then(|| {
        declarations.iter().map(|d| d.name.as_deref().unwrap_or(d.keyword).to_string()).collect()
    })
}

/// Scan a whole `.lean` file for `theorem`/`lemma`/`example` declarations (comments, strings and
/// nested blocks respected). A declaration ends where the next command starts at column 0 (or at
/// the end of the file).
pub fn find_declarations(file_text: &str) -> Vec<Declaration> {
    let tokens = match lex(file_text, false) {
        Ok(t) => t,
        Err(_) => return Vec::new(),
    };
    let text = |t: &Token| &file_text[t.start..t.end];
    // Command starts: command words first on their line, at or left of `column` (a declaration
    // indented inside a namespace ends at the next command of the same indentation). `#eval`
    // lexes as `#` + ident.
    let is_command_start = |i: usize, column: usize| -> bool {
        let t = &tokens[i];
        let first_on_line = i == 0 || tokens[i - 1].line != t.line;
        if !first_on_line || t.column > column {
            return false;
        }
        let s = text(t);
        if s == "#" {
            return tokens.get(i + 1).is_some_and(|n| n.start == t.end);
        }
        DECLARATION_ENDING_COMMANDS.contains(&s)
    };
    let mut out = Vec::new();
    let mut depth = 0i32;
    for (i, t) in tokens.iter().enumerate() {
        let s = text(t);
        match s {
            "(" | "[" | "{" | "⟨" | "⦃" | "@[" => depth += 1,
            ")" | "]" | "}" | "⟩" | "⦄" => depth = (depth - 1).max(0),
            _ => {}
        }
        if t.column == 0 {
            depth = 0;
        }
        let Some(keyword) = STATEMENT_KEYWORDS.iter().copied().find(|&k| k == s) else {
            continue;
        };
        if t.kind != TokenKind::Ident {
            continue;
        }
        if depth > 0 && t.column != 0 {
            continue;
        }
        // Walk back over modifiers and attributes to the declaration's real start.
        let mut start = t.start;
        let mut j = i;
        while j > 0 {
            let p = &tokens[j - 1];
            let ps = text(p);
            if p.kind == TokenKind::Ident && DECLARATION_MODIFIERS.contains(&ps) {
                start = p.start;
                j -= 1;
            } else if ps == "]" {
                // An attribute `@[...]`: find its opener.
                let mut k = j - 1;
                let mut d = 0i32;
                let mut found = None;
                loop {
                    match text(&tokens[k]) {
                        "]" => d += 1,
                        "[" => d -= 1,
                        "@[" => {
                            d -= 1;
                            if d == 0 {
                                found = Some(k);
                            }
                        }
                        _ => {}
                    }
                    if d <= 0 || k == 0 {
                        break;
                    }
                    k -= 1;
                }
                match found {
                    Some(k) => {
                        start = tokens[k].start;
                        j = k;
                    }
                    None => break,
                }
            } else {
                break;
            }
        }
        // A doc comment directly before belongs to the declaration.
        start = extend_over_doc_comment(file_text, start);
        // End: the next command start at this declaration's indentation or left of it.
        let column = tokens[j].column;
        let end = (i + 1..tokens.len())
            .find(|&k| is_command_start(k, column))
            .map_or(file_text.len(), |k| extend_back_over_prefix(file_text, &tokens, k, i));
        // Trailing comments and blank lines belong to nobody: end at the last token.
        let end = tokens[i..].iter().take_while(|n| n.start < end).last().map_or(t.end, |n| n.end);
        let (name, name_range) = match tokens.get(i + 1) {
            Some(n) if s != "example" && n.kind == TokenKind::Ident && n.start < end => {
                (Some(Arc::from(text(n))), Some((n.start, n.end)))
            }
            _ => (None, None),
        };
        let statement_end = statement_end_in(file_text, &tokens, i + 1, end);
        out.push(Declaration { keyword, name, start, end, name_range, statement_end });
    }
    out
}

/// The previous declaration ends before the attributes/modifiers/doc comment of the next command.
pub(super) fn extend_back_over_prefix(
    file_text: &str,
    tokens: &[Token],
    k: usize,
    floor: usize,
) -> usize {
    let mut start = tokens[k].start;
    // Doc comment or comment lines directly above belong to the next command.
    start = extend_over_doc_comment(file_text, start);
    let floor_end = tokens[floor].end;
    start.max(floor_end)
}

/// If a `/-- ... -/` doc comment ends right before `start` (only whitespace between), return its
/// start.
pub(super) fn extend_over_doc_comment(file_text: &str, start: usize) -> usize {
    let before = file_text[..start].trim_end();
    if !before.ends_with("-/") {
        return start;
    }
    match block_comment_opener(before.as_bytes(), before.len() - 2) {
        Some(i) if before[i..].starts_with("/--") => i,
        _ => start,
    }
}

/// The offset of the `/-` that opens the block comment whose `-/` starts at `close`, nesting
/// counted backwards; `None` when the look-back reaches the start of `bytes` without finding it.
pub fn block_comment_opener(bytes: &[u8], close: usize) -> Option<usize> {
    let mut i = close;
    let mut depth = 1usize;
    while i >= 2 {
        if &bytes[i - 2..i] == b"-/" {
            depth += 1;
            i -= 2;
        } else if &bytes[i - 2..i] == b"/-" {
            depth -= 1;
            i -= 2;
            if depth == 0 {
                return Some(i);
            }
        } else {
            i -= 1;
        }
    }
    None
}

/// Offset of the top-level `:=`/`where` from token `from`, or `end`.
pub(super) fn statement_end_in(
    file_text: &str,
    tokens: &[Token],
    from: usize,
    end: usize,
) -> usize {
    let upto = tokens[from.min(tokens.len())..].iter().take_while(|t| t.start < end).count();
    match statement_end_token(file_text, &tokens[from.min(tokens.len())..][..upto]) {
        Some(i) => tokens[from + i].start,
        None => end,
    }
}

/// Index (in `tokens`) of the `:=`/`where` that ends a statement: outside brackets, and not the
/// `:=` of a `let`/`have` inside the statement (`: let x := 2; x = 2 := rfl`).
pub(super) fn statement_end_token(file_text: &str, tokens: &[Token]) -> Option<usize> {
    let mut depth = 0i32;
    let mut pending_lets = 0usize;
    for (i, t) in tokens.iter().enumerate() {
        let s = &file_text[t.start..t.end];
        // A command at the start of a line ends a statement whose `:=` is missing (mid-edit).
        let starts_line = i > 0 && tokens[i - 1].line != t.line;
        if starts_line && t.column == 0 && (DECLARATION_ENDING_COMMANDS.contains(&s) || s == "#") {
            return Some(i);
        }
        match s {
            "(" | "[" | "{" | "⟨" | "⦃" | "@[" | "^[" => depth += 1,
            ")" | "]" | "}" | "⟩" | "⦄" => depth -= 1,
            "let" | "have" | "haveI" | "letI" if depth <= 0 => pending_lets += 1,
            ":=" if depth <= 0 && pending_lets > 0 => pending_lets -= 1,
            ":=" | "where" if depth <= 0 => return Some(i),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::header::Header;
    use super::super::parse_declaration_in;
    use super::*;

    #[test]
    fn declarations_skip_comments_strings_and_end_at_the_next_command() {
        let file = "namespace Foo\n/- theorem hidden : True := trivial -/\ndef s := \"theorem no\"\nopen Nat in\ntheorem x₁ : True := by\n  trivial\n  -- done\n\nend Foo\ntheorem y : 1 = 1 := rfl\n/- unterminated";
        let ds = find_declarations(file);
        let names: Vec<_> = ds.iter().map(|d| d.name.as_deref().unwrap_or_default()).collect();
        assert_eq!(names, ["x₁", "y"]);
        assert!(file[..ds[0].end].ends_with("trivial"));
        let (a, b) = ds[0].name_range.unwrap();
        assert_eq!(&file[a..b], "x₁");
        assert!(file[ds[1].start..ds[1].end].ends_with("rfl"));
    }

    #[test]
    fn indented_declarations_end_at_their_neighbours() {
        let file = "namespace Foo\n  theorem a : True := by\n    trivial\n  theorem b : 1 = 1 := rfl\nend Foo\n";
        let ds = find_declarations(file);
        assert_eq!(ds.len(), 2);
        assert!(file[ds[0].start..ds[0].end].ends_with("trivial"));
        assert_eq!(&file[ds[1].start..ds[1].end], "theorem b : 1 = 1 := rfl");
    }

    #[test]
    fn declarations_in_a_file() {
        let file = "import Mathlib\n\n/-- doc -/\n@[simp] theorem a (x : ℕ) : x = x := by\n  rfl\n\n-- theorem fake\nlemma b : True := trivial\nexample : 1 = 1 := rfl\n";
        let ds = find_declarations(file);
        assert_eq!(ds.len(), 3);
        assert_eq!(ds[0].name.as_deref(), Some("a"));
        assert!(file[ds[0].start..].starts_with("/-- doc -/"));
        assert!(file[..ds[0].end].ends_with("rfl"));
        assert!(file[ds[0].statement_end..].starts_with(":="));
        assert_eq!(ds[1].keyword, "lemma");
        assert_eq!(ds[2].name, None);
        let st = parse_declaration_in(file, &ds[1], &Header::default()).unwrap();
        assert!(file[ds[1].start..ds[1].end].ends_with("trivial"));
        assert_eq!(st.name.as_deref(), Some("b"));
        let span = st.tree.span.unwrap();
        assert!(file[span.start as usize..].starts_with("lemma b"));
    }
}
