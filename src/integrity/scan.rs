//! A whole `.lean` file as top-level commands, with comments and string literals masked out.
//!
//! Owns the lexical view the integrity check needs and nothing else: [`mask`] blanks the insides
//! of `--` comments, nested `/- -/` comments (doc comments too), string literals (`"…"` with
//! escapes, raw strings `r#"…"#`) and char literals (`'a'`, `'\n'`) byte for byte, so offsets and
//! line numbers stay those of the source; [`split`] cuts the masked text into commands (a command
//! starts at a line whose first word is a command keyword: see [`starts_command`]) and tracks the
//! `namespace`/`section` scopes, giving each declaration its full name. Deciding what a command
//! means for integrity is `super`'s job; parsing statements into trees is `crate::trees`'.
//!
//! Cost: one pass over the bytes for the mask, one over the lines for the split.

/// Why a file could not be read as Lean text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScanError {
    #[error("line {line}: unterminated comment (a `/-` is never closed)")]
    UnterminatedComment { line: usize },
    #[error("line {line}: unterminated string literal")]
    UnterminatedString { line: usize },
}

fn line_at(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric()
        || c == '_'
        || c == '\''
        || c == '!'
        || c == '?'
        || ('\u{2080}'..='\u{209c}').contains(&c)
        || ('\u{1d62}'..='\u{1d6a}').contains(&c)
}

/// `text` with the insides of comments and string/char literals replaced by spaces (newlines
/// kept, every byte of a multi-byte character blanked), so that words found in the mask are code.
pub fn mask(text: &str) -> Result<String, ScanError> {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    let mut prev_char: Option<char> = None;
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("--") {
            let end = rest.find('\n').map_or(text.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
            prev_char = None;
            continue;
        }
        if rest.starts_with("/-") {
            let start = i;
            let mut depth = 0usize;
            let mut j = i;
            loop {
                if j >= bytes.len() {
                    return Err(ScanError::UnterminatedComment {
                        line: line_at(text, start),
                    });
                }
                if bytes[j..].starts_with(b"/-") {
                    depth += 1;
                    j += 2;
                } else if bytes[j..].starts_with(b"-/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, start, j);
            i = j;
            prev_char = None;
            continue;
        }
        // Raw string `r"…"`, `r#"…"#` (not inside an identifier such as `for`).
        if rest.starts_with('r') && !prev_char.is_some_and(is_ident_char) {
            let hashes = rest[1..].bytes().take_while(|&b| b == b'#').count();
            if rest[1 + hashes..].starts_with('"') {
                let close = format!("\"{}", "#".repeat(hashes));
                let body = i + 2 + hashes;
                let Some(n) = text[body..].find(&close) else {
                    return Err(ScanError::UnterminatedString {
                        line: line_at(text, i),
                    });
                };
                let end = body + n + close.len();
                blank(&mut out, i + 1, end);
                i = end;
                prev_char = Some('"');
                continue;
            }
        }
        if rest.starts_with('"') {
            let start = i;
            let mut j = i + 1;
            loop {
                match bytes.get(j) {
                    None => {
                        return Err(ScanError::UnterminatedString {
                            line: line_at(text, start),
                        })
                    }
                    Some(b'\\') => j += 2,
                    Some(b'"') => break,
                    Some(_) => j += 1,
                }
            }
            let end = (j + 1).min(bytes.len());
            blank(&mut out, start + 1, end - 1);
            i = end;
            prev_char = Some('"');
            continue;
        }
        // A char literal `'a'` / `'\n'`, but not the prime of `x'` or `h'`.
        if rest.starts_with('\'') && !prev_char.is_some_and(is_ident_char) {
            let mut chars = rest[1..].char_indices();
            let end = match chars.next() {
                Some((_, '\\')) => rest[2..]
                    .char_indices()
                    .skip(1)
                    .find(|(_, c)| *c == '\'')
                    .filter(|(k, _)| *k <= 10)
                    .map(|(k, _)| i + 2 + k + 1),
                Some((_, c)) if c != '\'' => {
                    let after = 1 + c.len_utf8();
                    rest[after..].starts_with('\'').then_some(i + after + 1)
                }
                _ => None,
            };
            if let Some(end) = end {
                blank(&mut out, i + 1, end - 1);
                i = end;
                prev_char = Some('\'');
                continue;
            }
        }
        let c = rest.chars().next().unwrap_or(' ');
        prev_char = Some(c);
        i += c.len_utf8();
    }
    // Only ASCII bytes were written over whole characters' bytes, so this stays UTF-8; a
    // failure here would be a masking bug, answered with the lossy form rather than a panic.
    Ok(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into()))
}

/// What kind of command a [`Command`] is: its keyword after modifiers and attributes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The keyword: `theorem`, `def`, `open`, `notation`, `#eval`, … (`local`/`scoped` kept as
    /// `local notation` etc. in [`Command::modifiers`]).
    pub keyword: String,
    /// Modifiers and attribute text before the keyword (`private`, `local`, `@[simp]`, …).
    pub modifiers: Vec<String>,
    /// The declared name as written (`def Nat.Prime` → `Nat.Prime`), for declarations.
    pub name: Option<String>,
    /// The name with the enclosing namespaces (`namespace Foo` … `def Nat.Prime` → `Foo.Nat.Prime`).
    pub full_name: Option<String>,
    /// Byte range in the file.
    pub start: usize,
    pub end: usize,
    /// 1-based line of `start`.
    pub line: usize,
    /// The masked text, whitespace collapsed: two commands that say the same thing up to layout
    /// and comments compare equal.
    pub norm: String,
    /// Namespaces and sections open at this command, outermost first (`Some(ns)` a namespace,
    /// `None` an anonymous or named section); the scope key of `open`/`variable`/`universe`.
    pub scope: Vec<String>,
    /// Index of the enclosing scope instance (each `namespace`/`section` opened gets a fresh one),
    /// innermost last: a command is in scope at a later one when its chain is a prefix of the
    /// later one's.
    pub scope_ids: Vec<usize>,
}

/// Words that start a declaration of a name.
pub const DECLARING: &[&str] = &[
    "theorem",
    "lemma",
    "def",
    "abbrev",
    "instance",
    "structure",
    "class",
    "inductive",
    "axiom",
    "opaque",
    "example",
];

/// Words that may stand before the keyword of a command.
const MODIFIERS: &[&str] = &[
    "private",
    "protected",
    "noncomputable",
    "unsafe",
    "partial",
    "nonrec",
    "local",
    "scoped",
];

/// Command keywords that are never a tactic or a term at the start of a line, so they start a
/// command at any indentation (an indented `def` after a proof still is a new command to Lean).
const COMMAND_ANYWHERE: &[&str] = &[
    "theorem",
    "lemma",
    "def",
    "abbrev",
    "instance",
    "structure",
    "class",
    "inductive",
    "axiom",
    "opaque",
    "notation",
    "infix",
    "infixl",
    "infixr",
    "prefix",
    "postfix",
    "macro",
    "macro_rules",
    "syntax",
    "elab",
    "elab_rules",
    "declare_syntax_cat",
    "namespace",
    "section",
    "universe",
    "variable",
    "attribute",
    "mutual",
    "example",
    "import",
];

/// Command keywords that also occur inside proofs (`open … in`, `set_option … in` as tactics,
/// `end` is not a tactic but it is safer at column 0 only): commands only at column 0.
const COMMAND_AT_COLUMN_0: &[&str] = &[
    "open",
    "set_option",
    "end",
    "export",
    "noncomputable",
    "private",
    "protected",
    "nonrec",
    "unsafe",
    "partial",
    "local",
    "scoped",
    "omit",
    "include",
    "initialize",
    "run_cmd",
    "deriving",
    "irreducible_def",
    "alias",
    "add_decl_doc",
    "@[",
    "#",
];

/// The first word of a masked line (an identifier, `@[`, or `#word`).
fn first_word(line: &str) -> &str {
    let t = line.trim_start();
    if t.starts_with("@[") {
        return "@[";
    }
    if let Some(rest) = t.strip_prefix('#') {
        let n = rest
            .char_indices()
            .find(|(_, c)| !is_ident_char(*c))
            .map_or(rest.len(), |(k, _)| k);
        return &t[..1 + n];
    }
    let n = t
        .char_indices()
        .find(|(_, c)| !(is_ident_char(*c) || *c == '.'))
        .map_or(t.len(), |(k, _)| k);
    &t[..n]
}

/// Does this masked line start a new top-level command?
pub fn starts_command(line: &str) -> bool {
    let indented = line.starts_with(|c: char| c.is_whitespace());
    let word = first_word(line);
    if word.is_empty() {
        return false;
    }
    if COMMAND_ANYWHERE.contains(&word) {
        return true;
    }
    if indented {
        // Modifiers before a declaring keyword start a command at any indentation too.
        let mut words = line.split_whitespace();
        let mut w = words.next();
        while let Some(x) = w {
            if !MODIFIERS.contains(&x) {
                return DECLARING.contains(&x) && x != "example";
            }
            w = words.next();
        }
        return false;
    }
    COMMAND_AT_COLUMN_0.contains(&word) || (word.starts_with('#') && word.len() > 1)
}

/// `open X in theorem …` / `set_option o v in def …` on one line: the offset (in `line`) of the
/// declaration after `in`, which is a command of its own (the prefix scopes to it).
fn prefix_in_end(line: &str) -> Option<usize> {
    let word = first_word(line);
    if word != "open" && word != "set_option" {
        return None;
    }
    let mut offset = 0;
    let mut after_in = false;
    for piece in line.split_inclusive(char::is_whitespace) {
        let w = piece.trim();
        if after_in && !w.is_empty() {
            let rest = &line[offset..];
            return starts_command(rest).then_some(offset);
        }
        if w == "in" {
            after_in = true;
        }
        offset += piece.len();
    }
    None
}

/// Split the masked text into commands (text before the first command, blank lines and comments
/// belong to no command).
pub fn split(masked: &str) -> Vec<Command> {
    let mut starts: Vec<usize> = Vec::new();
    let mut offset = 0;
    for line in masked.split_inclusive('\n') {
        if starts_command(line) {
            starts.push(offset);
            if let Some(k) = prefix_in_end(line) {
                starts.push(offset + k);
            }
        }
        offset += line.len();
    }
    // A line of attributes or modifiers alone (`@[simp]`, `noncomputable`) belongs to the
    // command below it.
    let mut merged = Vec::with_capacity(starts.len());
    let mut i = 0;
    while i < starts.len() {
        merged.push(starts[i]);
        let mut j = i;
        while j + 1 < starts.len() && only_prefix(&masked[starts[j]..starts[j + 1]]) {
            j += 1;
        }
        i = j + 1;
    }
    let starts = merged;
    let mut commands = Vec::with_capacity(starts.len());
    // Scope stack: (namespace name or "", id).
    let mut scope: Vec<(String, bool, usize)> = Vec::new();
    let mut next_scope = 0usize;
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(masked.len());
        let text = &masked[start..end];
        let end = start + text.trim_end().len();
        let text = text.trim();
        let mut words = text.split_whitespace().peekable();
        let mut modifiers = Vec::new();
        let mut keyword = String::new();
        while let Some(w) = words.next() {
            if w.starts_with("@[") {
                // The attribute runs to its closing `]` (attributes rarely hold spaces).
                let mut attr = w.to_string();
                let mut depth = bracket_depth(w);
                while depth > 0 {
                    let Some(n) = words.next() else { break };
                    attr.push(' ');
                    attr.push_str(n);
                    depth += bracket_depth(n);
                }
                modifiers.push(attr);
                continue;
            }
            if MODIFIERS.contains(&w) {
                modifiers.push(w.to_string());
                continue;
            }
            // `notation:65`, `infixl:65`: the precedence is not part of the keyword.
            keyword = w.split(':').next().unwrap_or(w).to_string();
            break;
        }
        let name = if DECLARING.contains(&keyword.as_str()) && keyword != "example" {
            words
                .peek()
                .map(|w| {
                    w.chars()
                        .take_while(|c| is_ident_char(*c) || *c == '.' || *c == '«' || *c == '»')
                        .collect::<String>()
                })
                .filter(|n| !n.is_empty() && n != ":")
        } else {
            None
        };
        let namespaces: Vec<String> = scope
            .iter()
            .filter(|(_, is_ns, _)| *is_ns)
            .map(|(n, _, _)| n.clone())
            .collect();
        let full_name = name.as_ref().map(|n| match n.strip_prefix("_root_.") {
            Some(root) => root.to_string(),
            None if namespaces.is_empty() => n.clone(),
            None => format!("{}.{n}", namespaces.join(".")),
        });
        commands.push(Command {
            keyword: keyword.clone(),
            modifiers,
            name,
            full_name,
            start,
            end,
            line: line_at(masked, start),
            norm: text.split_whitespace().collect::<Vec<_>>().join(" "),
            scope: scope.iter().map(|(n, _, _)| n.clone()).collect(),
            scope_ids: scope.iter().map(|(_, _, id)| *id).collect(),
        });
        // Scopes change after the command that opens or closes them.
        let argument = text
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string();
        match keyword.as_str() {
            "namespace" => {
                next_scope += 1;
                scope.push((argument, true, next_scope));
            }
            "section" => {
                next_scope += 1;
                scope.push((argument, false, next_scope));
            }
            "end" => {
                scope.pop();
            }
            _ => {}
        }
    }
    commands
}

/// Is this text only attributes and modifiers (no keyword)?
fn only_prefix(text: &str) -> bool {
    let mut depth = 0;
    let mut any = false;
    for w in text.split_whitespace() {
        any = true;
        if depth > 0 || w.starts_with("@[") {
            depth += bracket_depth(w);
        } else if !MODIFIERS.contains(&w) {
            return false;
        }
    }
    any && depth <= 0
}

fn bracket_depth(word: &str) -> i32 {
    word.chars()
        .map(|c| match c {
            '[' => 1,
            ']' => -1,
            _ => 0,
        })
        .sum()
}

/// Identifier-like words of masked text with their byte offsets (dotted names kept whole).
pub fn words(masked: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in masked.char_indices() {
        let part = is_ident_char(c) || (c == '.' && start.is_some());
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, masked[s..i].trim_end_matches('.')));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, masked[s..].trim_end_matches('.')));
    }
    out.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_blanks_nested_comments_strings_and_chars_but_keeps_offsets() {
        let text = "/- a /- sorry -/ b -/ x -- sorry\ny := \"sorry \\\" axiom\" ++ 'a' ++ x'\n";
        let m = mask(text).unwrap();
        assert_eq!(m.len(), text.len());
        assert!(!m.contains("sorry") && !m.contains("axiom"), "{m}");
        assert!(m.contains(" x ") && m.contains("x'"), "{m}");
        assert_eq!(m.lines().count(), 2);
        let raw = "r#\"sorry \"# ++ for";
        let m = mask(raw).unwrap();
        assert!(!m.contains("sorry") && m.ends_with("for"), "{m}");
    }

    #[test]
    fn unterminated_comment_and_string_name_their_line() {
        assert_eq!(
            mask("x\n/- /- -/\n").unwrap_err(),
            ScanError::UnterminatedComment { line: 2 }
        );
        assert_eq!(
            mask("a\nb\n\"oops").unwrap_err(),
            ScanError::UnterminatedString { line: 3 }
        );
    }

    #[test]
    fn split_finds_commands_names_and_namespaces() {
        let text = "import Mathlib\nopen Real\n\nnamespace Foo\n@[simp] def Nat.Prime (n : ℕ) : Prop := True\ntheorem t : Nat.Prime 2 := by\n  open Nat in simp\nend Foo\n  def hidden := 1\n";
        let cmds = split(&mask(text).unwrap());
        let kinds: Vec<&str> = cmds.iter().map(|c| c.keyword.as_str()).collect();
        assert_eq!(
            kinds,
            [
                "import",
                "open",
                "namespace",
                "def",
                "theorem",
                "end",
                "def"
            ]
        );
        assert_eq!(cmds[3].full_name.as_deref(), Some("Foo.Nat.Prime"));
        assert_eq!(cmds[3].modifiers, ["@[simp]"]);
        assert_eq!(cmds[4].full_name.as_deref(), Some("Foo.t"));
        assert_eq!(cmds[4].line, 6);
        assert_eq!(cmds[6].full_name.as_deref(), Some("hidden"));
        let attributed = split(&mask("@[instance]\ndef i : Add ℕ := ⟨Nat.mul⟩\n").unwrap());
        assert_eq!(attributed.len(), 1);
        assert_eq!(attributed[0].keyword, "def");
        assert_eq!(attributed[0].modifiers, ["@[instance]"]);
        let one_line = split(&mask("open Real in theorem t : π > 3 := sorry\n").unwrap());
        let kinds: Vec<&str> = one_line.iter().map(|c| c.norm.as_str()).collect();
        assert_eq!(kinds, ["open Real in", "theorem t : π > 3 := sorry"]);
    }

    #[test]
    fn words_are_code_identifiers() {
        let w: Vec<&str> = words("exact (Nat.succ_le x).1 h₀.")
            .map(|(_, w)| w)
            .collect();
        assert_eq!(w, ["exact", "Nat.succ_le", "x", "1", "h₀"]);
    }
}
