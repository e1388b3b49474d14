//! The contract JSON form of a [`Tree`] (`{"label", "children", "variable_freecost"?,
//! "hypothesis_freecost"?}`), written and read without recursion.
//!
//! Why not serde alone: serde's data model nests one call per JSON level, so writing a deep tree
//! overflows the stack, and serde_json refuses to read past 128 levels (each tree level is two:
//! an object and its `children` array), so `tree --format json` of a 70-term sum could not be
//! read back by `ted --pairs`. Lifting serde_json's limit (`disable_recursion_limit`) would trade
//! that refusal for a stack overflow on deep input. Here both directions keep their pending
//! nodes on a heap stack, so every tree the tool writes reads back, at any depth, with memory
//! linear in the text. Strings (labels, keys) are still escaped and unescaped by serde_json;
//! unknown keys are skipped with serde_json's own iterative skipper (`IgnoredAny`), as the
//! derived reader ignored them.
//!
//! Owns only the format; the tree type is `trees`', file handling `dataset`'s.

use super::Tree;
use serde::de::IgnoredAny;

/// The contract JSON text of `tree`, appended to `out`.
pub fn write(tree: &Tree, out: &mut String) {
    enum Item<'t> {
        Open(&'t Tree),
        Close(&'t Tree),
        Comma,
    }
    let mut stack = vec![Item::Open(tree)];
    while let Some(item) = stack.pop() {
        match item {
            Item::Comma => out.push(','),
            Item::Open(t) => {
                out.push_str("{\"label\":");
                out.push_str(
                    &serde_json::to_string(&t.label).expect("BUG: a string always serializes"),
                );
                out.push_str(",\"children\":[");
                stack.push(Item::Close(t));
                for (i, c) in t.children.iter().enumerate().rev() {
                    stack.push(Item::Open(c));
                    if i > 0 {
                        stack.push(Item::Comma);
                    }
                }
            }
            Item::Close(t) => {
                out.push(']');
                if t.variable_freecost {
                    out.push_str(",\"variable_freecost\":true");
                }
                if t.hypothesis_freecost {
                    out.push_str(",\"hypothesis_freecost\":true");
                }
                out.push('}');
            }
        }
    }
}

/// The contract JSON text of `tree`.
pub fn to_string(tree: &Tree) -> String {
    let mut out = String::new();
    write(tree, &mut out);
    out
}

/// Why a text is not a tree in the contract format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at column {column}")]
pub struct TreeJsonError {
    pub message: String,
    /// 1-based character column in the text.
    pub column: usize,
}

/// Read one tree from its contract JSON text (surrounding whitespace allowed). Keys other than
/// the contract's are skipped; `label` is required, the rest default to empty / false.
pub fn parse(text: &str) -> Result<Tree, TreeJsonError> {
    /// A node whose object is still open.
    struct Open {
        tree: Tree,
        has_label: bool,
    }
    let mut r = Reader { text, pos: 0 };
    let mut stack: Vec<Open> = Vec::new();
    r.ws();
    r.expect(b'{', "expected `{` (a tree object)")?;
    stack.push(Open { tree: Tree::default(), has_label: false });
    let mut first_member = true;
    loop {
        r.ws();
        if r.peek() == Some(b'}') {
            r.pos += 1;
            let open = stack.pop().expect("BUG: a member loop runs inside an object");
            if !open.has_label {
                return Err(r.error("missing field `label`"));
            }
            let Some(parent) = stack.last_mut() else {
                r.ws();
                if r.pos != text.len() {
                    return Err(r.error("trailing characters after the tree"));
                }
                return Ok(open.tree);
            };
            parent.tree.children.push(open.tree);
            r.ws();
            match r.bump() {
                Some(b',') => {
                    r.ws();
                    r.expect(b'{', "expected `{` (a child tree)")?;
                    stack.push(Open { tree: Tree::default(), has_label: false });
                    first_member = true;
                }
                Some(b']') => first_member = false,
                _ => return Err(r.error_before("expected `,` or `]` in `children`")),
            }
            continue;
        }
        if !first_member {
            r.expect(b',', "expected `,` or `}` in a tree object")?;
            r.ws();
        }
        first_member = false;
        let key = r.string()?;
        r.ws();
        r.expect(b':', "expected `:`")?;
        r.ws();
        let node = &mut stack.last_mut().expect("BUG: inside an object").tree;
        match key.as_str() {
            "label" => {
                node.label = r.string()?;
                stack.last_mut().expect("BUG: inside an object").has_label = true;
            }
            "variable_freecost" => node.variable_freecost = r.boolean()?,
            "hypothesis_freecost" => node.hypothesis_freecost = r.boolean()?,
            "children" => {
                r.expect(b'[', "expected `[` (the children array)")?;
                r.ws();
                if r.peek() == Some(b']') {
                    r.pos += 1;
                } else {
                    r.expect(b'{', "expected `{` (a child tree)")?;
                    stack.push(Open { tree: Tree::default(), has_label: false });
                    first_member = true;
                }
            }
            _ => r.skip_value()?,
        }
    }
}

struct Reader<'t> {
    text: &'t str,
    pos: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.pos += 1;
        Some(b)
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn column_of(&self, pos: usize) -> usize {
        let mut cut = pos.min(self.text.len());
        while !self.text.is_char_boundary(cut) {
            cut -= 1;
        }
        self.text[..cut].chars().count() + 1
    }

    fn error(&self, message: &str) -> TreeJsonError {
        TreeJsonError { message: message.to_string(), column: self.column_of(self.pos) }
    }

    /// An error at the byte just consumed.
    fn error_before(&self, message: &str) -> TreeJsonError {
        TreeJsonError {
            message: message.to_string(),
            column: self.column_of(self.pos.saturating_sub(1)),
        }
    }

    fn expect(&mut self, byte: u8, message: &str) -> Result<(), TreeJsonError> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(message))
        }
    }

    /// A JSON string, unescaped by serde_json.
    fn string(&mut self) -> Result<String, TreeJsonError> {
        let start = self.pos;
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a string"));
        }
        let bytes = self.text.as_bytes();
        let mut i = start + 1;
        loop {
            match bytes.get(i) {
                None => {
                    self.pos = i;
                    return Err(self.error("unterminated string"));
                }
                Some(b'\\') => i += 2,
                Some(b'"') => break,
                Some(_) => i += 1,
            }
        }
        let literal = self.text.get(start..=i).ok_or_else(|| self.error("bad string"))?;
        let value = serde_json::from_str::<String>(literal).map_err(|e| TreeJsonError {
            message: format!("bad string ({})", strip_position(&e)),
            column: self.column_of(start),
        })?;
        self.pos = i + 1;
        Ok(value)
    }

    fn boolean(&mut self) -> Result<bool, TreeJsonError> {
        let rest = &self.text.as_bytes()[self.pos..];
        if rest.starts_with(b"true") {
            self.pos += 4;
            Ok(true)
        } else if rest.starts_with(b"false") {
            self.pos += 5;
            Ok(false)
        } else {
            Err(self.error("expected true or false"))
        }
    }

    /// Skip any JSON value (serde_json's skipper is iterative, so any depth is fine).
    fn skip_value(&mut self) -> Result<(), TreeJsonError> {
        let rest = &self.text[self.pos..];
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<IgnoredAny>();
        match values.next() {
            Some(Ok(_)) => {
                self.pos += values.byte_offset();
                Ok(())
            }
            Some(Err(e)) => Err(TreeJsonError {
                message: strip_position(&e),
                column: self.column_of(self.pos) + e.column().saturating_sub(1),
            }),
            None => Err(self.error("expected a value")),
        }
    }
}

/// serde_json's message without its trailing "at line L column C".
fn strip_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(depth: usize) -> Tree {
        let mut t = Tree::leaf("x");
        for i in 0..depth {
            let mut v = Tree::leaf(format!("v{i}"));
            v.variable_freecost = i % 2 == 0;
            t = Tree::node(" _ + _ ", vec![t, v]);
        }
        t
    }

    #[test]
    fn writes_the_contract_form_with_flags_after_children() {
        let x = Tree::hypothesis("x\"");
        let t = Tree::node("f", vec![x, Tree::leaf("y")]);
        assert_eq!(
            to_string(&t),
            r#"{"label":"f","children":[{"label":"x\"","children":[],"hypothesis_freecost":true},{"label":"y","children":[]}]}"#
        );
    }

    #[test]
    fn round_trips_at_any_depth() {
        let t = chain(100_000);
        let text = to_string(&t);
        assert_eq!(parse(&text).unwrap(), t);
    }

    #[test]
    fn skips_unknown_keys_and_defaults_missing_ones() {
        let t = parse(r#" {"extra":{"a":[1,{"b":null}]},"label":"a","children":[{"label":"b"}]} "#)
            .unwrap();
        assert_eq!(t, Tree::node("a", vec![Tree::leaf("b")]));
    }

    #[test]
    fn errors_name_what_and_where() {
        let e = |s: &str| parse(s).unwrap_err().to_string();
        assert_eq!(e(r#"{"children":[]}"#), "missing field `label` at column 16");
        assert_eq!(e("[1]"), "expected `{` (a tree object) at column 1");
        assert_eq!(
            e(r#"{"label":"a","children":[{"label":"b"} {"#),
            "expected `,` or `]` in `children` at column 40"
        );
        assert_eq!(
            e(r#"{"label":"a","variable_freecost":1}"#),
            "expected true or false at column 34"
        );
        assert_eq!(e(r#"{"label":"a"} x"#), "trailing characters after the tree at column 15");
        assert_eq!(e(r#"{"label":"a"#), "unterminated string at column 12");
    }
}
