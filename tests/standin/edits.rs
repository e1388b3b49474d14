//! `didChange` content changes applied as Lean's server applies them (lean4
//! `src/Lean/Server/Utils.lean`: `applyDocumentChange` folds the changes in order; a change
//! without `range` replaces the text, one with a range goes through `replaceLspRange`, which
//! keeps the text before the start and after the end and puts the new text, with CRLF
//! normalized to LF (`crlfToLf`), between them).
//!
//! Positions (`src/Lean/Data/Lsp/Utf16.lean`, `FileMap.lspPosToUtf8Pos`): the line's start, or
//! the end of the text for a line past the last (`lineStartPos` falls back to the last entry of
//! `positions`, the end of the source); then `character` UTF-16 code units walked codepoint by
//! codepoint from there (`utf16PosToCodepointPosFrom`), a codepoint counting 2 when it is beyond
//! U+FFFF. The walk does not stop at the line's end (a column past it reaches into the next
//! line) and a column inside a surrogate pair rounds up past the codepoint (Nat subtraction);
//! here it stops at the end of the text, where Lean's `extract` clamps.

use serde_json::Value;

/// The byte offset of LSP position (`line`, `character`) in `text`, as Lean computes it.
pub fn offset_of(text: &str, line: u64, character: u64) -> usize {
    let mut start = 0;
    let mut found = line == 0;
    if !found {
        let mut seen = 0;
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                seen += 1;
                if seen == line {
                    start = i + 1;
                    found = true;
                    break;
                }
            }
        }
    }
    if !found {
        return text.len();
    }
    let mut left = character;
    let mut at = start;
    for c in text[start..].chars() {
        if left == 0 {
            break;
        }
        left = left.saturating_sub(c.len_utf16() as u64);
        at += c.len_utf8();
    }
    at
}

fn position(v: &Value) -> Option<(u64, u64)> {
    Some((v.get("line")?.as_u64()?, v.get("character")?.as_u64()?))
}

/// Apply one `TextDocumentContentChangeEvent` to `text`. A change with neither a usable range
/// nor a `text` string is ignored (Lean would reject the notification as malformed).
pub fn apply_change(text: &mut String, change: &Value) {
    let Some(new_text) = change.get("text").and_then(Value::as_str) else {
        return;
    };
    let new_text = new_text.replace("\r\n", "\n");
    match change.get("range") {
        None => *text = new_text,
        Some(r) => {
            let (Some(s), Some(e)) =
                (r.get("start").and_then(position), r.get("end").and_then(position))
            else {
                return;
            };
            let start = offset_of(text, s.0, s.1);
            // As `replaceLspRange`: the text before `start`, the new text, the text from `end`
            // (an end before the start repeats the bytes between them, as Lean's would).
            let end = offset_of(text, e.0, e.1);
            let post = text[end..].to_string();
            text.truncate(start);
            text.push_str(&new_text);
            text.push_str(&post);
        }
    }
}
