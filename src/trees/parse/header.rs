//! The header of a Lean file as the statement parser reports it: imports, `open`s, notation lines.
//!
//! Owns [`Header`] and its line-by-line reading (comments skipped). It does not interpret the
//! notations (the grammar enables them all: see the parent module) nor read declarations.

use crate::trees::lean_syntax::NOTATION_COMMANDS;

/// What a file's header says before its declarations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// `import X` module names, in order.
    pub imports: Vec<String>,
    /// Namespaces opened by `open X Y` (also `open X in`, which scopes to the next command).
    pub opens: Vec<String>,
    /// Namespaces opened by `open scoped X` (only their notations).
    pub scoped_opens: Vec<String>,
    /// `notation`, `infix`, `prefix`, `postfix`, `macro` lines, as written (not interpreted: see
    /// the module doc).
    pub notations: Vec<String>,
}

impl Header {
    /// Read the header part of `text` (it may also contain declarations; those are ignored).
    pub fn parse(text: &str) -> Header {
        let mut header = Header::default();
        let mut in_comment = 0usize;
        for raw in text.lines() {
            let line = strip_line_comment(raw, &mut in_comment);
            let line = line.trim();
            let mut words = line.split_whitespace();
            match words.next() {
                Some("import") => header.imports.extend(words.map(str::to_string)),
                Some("open") => {
                    let mut scoped = false;
                    for w in words {
                        match w {
                            "scoped" => scoped = true,
                            "in" => break,
                            _ if w.starts_with('(') || w.starts_with("hiding") => break,
                            _ => {
                                if scoped {
                                    header.scoped_opens.push(w.to_string());
                                } else {
                                    header.opens.push(w.to_string());
                                }
                            }
                        }
                    }
                }
                Some(w)
                    if NOTATION_COMMANDS
                        .iter()
                        .any(|k| w == *k || w.starts_with(&format!("{k}:")))
                        || (w == "local" || w == "scoped")
                            && line.split_whitespace().nth(1).is_some_and(|n| {
                                n.starts_with("notation")
                                    || n.starts_with("infix")
                                    || n.starts_with("prefix")
                                    || n.starts_with("postfix")
                            }) =>
                {
                    header.notations.push(line.to_string())
                }
                _ => {}
            }
        }
        header
    }
}

/// `line` without `--` comments and without the parts inside `/- -/` (tracked across lines).
pub(super) fn strip_line_comment(line: &str, depth: &mut usize) -> String {
    let mut out = String::new();
    let mut rest = line;
    while !rest.is_empty() {
        if *depth > 0 {
            if rest.starts_with("-/") {
                *depth -= 1;
                rest = &rest[2..];
            } else if rest.starts_with("/-") {
                *depth += 1;
                rest = &rest[2..];
            } else {
                let n = rest.chars().next().map_or(1, char::len_utf8);
                rest = &rest[n..];
            }
        } else if rest.starts_with("--") {
            break;
        } else if rest.starts_with("/-") {
            *depth += 1;
            rest = &rest[2..];
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_records_imports_and_opens() {
        let h = Header::parse(
            "import Mathlib\nopen scoped BigOperators\nopen Finset Int in\n-- open X\nopen Real\n",
        );
        assert_eq!(h.imports, ["Mathlib"]);
        assert_eq!(h.scoped_opens, ["BigOperators"]);
        assert_eq!(h.opens, ["Finset", "Int", "Real"]);
    }
}
