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

use crate::trees::lean_syntax::{
    COMMANDS_AT_ANY_INDENT, COMMANDS_AT_COLUMN_0, COMMAND_PREFIXES, DECLARATION_KEYWORDS,
};

/// Why a file could not be read as Lean text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScanError {
    #[error("line {line}: unterminated comment (a `/-` is never closed)")]
    UnterminatedComment { line: usize },
    #[error("line {line}: unterminated string literal")]
    UnterminatedString { line: usize },
    #[error("line {line}: unterminated identifier escape (a `«` is never closed on its line)")]
    UnterminatedEscape { line: usize },
    /// A literal that Lean reads one way or another depending on syntax this check cannot see
    /// (a string that ends elsewhere when read as an interpolated string; a char literal
    /// holding a quote or comment character right after a symbol that may be a token ending
    /// in `'`, such as `∑'`): refused rather than guessed, since a wrong guess hides code.
    #[error("line {line}: {what}: Lean's reading depends on syntax this check cannot see")]
    Ambiguous { line: usize, what: &'static str },
}

impl ScanError {
    /// The 1-based line the error is at.
    pub fn line(&self) -> usize {
        match self {
            ScanError::UnterminatedComment { line }
            | ScanError::UnterminatedString { line }
            | ScanError::UnterminatedEscape { line }
            | ScanError::Ambiguous { line, .. } => *line,
        }
    }
}

fn line_at(text: &str, offset: usize) -> usize {
    1 + memchr::memchr_iter(b'\n', &text.as_bytes()[..offset.min(text.len())]).count()
}

/// Characters that may continue an identifier (Lean's `isIdRest`, `src/Init/Meta.lean`: letters,
/// digits, `_`, `'`, `!`, `?`, letter-like symbols, sub- and superscripts).
fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric()
        || c == '_'
        || c == '\''
        || c == '!'
        || c == '?'
        || is_letter_like(c)
        || ('\u{2070}'..='\u{209c}').contains(&c)
        || ('\u{1d62}'..='\u{1d6a}').contains(&c)
}

/// Characters that may start an identifier (Lean's `isIdFirst`: letters, `_`, letter-like).
fn is_ident_first(c: char) -> bool {
    c.is_alphabetic() || c == '_' || is_letter_like(c)
}

/// Lean's `isLetterLike` (`src/Init/Meta.lean`): Greek (except λ, Π, Σ), Coptic, letter-like
/// symbols and the mathematical alphanumeric blocks.
fn is_letter_like(c: char) -> bool {
    let v = c as u32;
    ((0x3b1..=0x3c9).contains(&v) && v != 0x3bb)
        || ((0x391..=0x3a9).contains(&v) && v != 0x3a0 && v != 0x3a3)
        || (0x3ca..=0x3fb).contains(&v)
        || (0x1f00..=0x1ffe).contains(&v)
        || (0x2100..=0x214f).contains(&v)
        || (0x1d49c..=0x1d59f).contains(&v)
}

/// Characters whose meaning to the lexer a char literal could hide if Lean did not read it as
/// one (quotes, comment and escape starts, braces of an interpolation).
fn lexically_significant(c: char) -> bool {
    matches!(c, '"' | '\'' | '-' | '/' | '{' | '}' | '«' | '»' | '\\' | '`')
}

/// `text` with the insides of comments and string/char literals replaced by spaces (newlines
/// kept, every byte of a multi-byte character blanked), so that words found in the mask are code.
///
/// Lexed as Lean's tokenizer does (`src/Lean/Parser/Basic.lean`: `whitespace` and
/// `finishCommentBlock` for `--` and nested `/- -/` comments, `strLitFnAux`/`quotedCharCoreFn`
/// for strings and escapes, `rawStrLitFnAux` for `r#"…"#`, `charLitFnAux` for `'c'`,
/// `identFnAux` for identifiers with `«…»` parts; `src/Lean/Parser/StrInterpolation.lean`:
/// `interpolatedStrFn`, whose `{…}` holds a term). Inside `«…»` every ASCII character that is
/// not a letter or digit becomes `_` (the name stays distinct, and no `"`, `--` or `/-` in it
/// starts anything). An interpolated string's braces are code; which strings are interpolated
/// depends on syntax (`s!`, `m!`, `throwError`, any `syntax … interpolatedStr(term)`), so a
/// string whose two readings end at different places is [`ScanError::Ambiguous`].
pub fn mask(text: &str) -> Result<String, ScanError> {
    let mut lexer = Lexer { text, out: Some(text.as_bytes().to_vec()), check_strings: true };
    lexer.run(0, Vec::new())?;
    let out = lexer.out.unwrap_or_default();
    // Only ASCII bytes were written over whole characters' bytes, so this stays UTF-8; a
    // failure here would be a masking bug, answered with the lossy form rather than a panic.
    Ok(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into()))
}

/// Where the lexer is: code (inside an interpolation's braces, with how many `{` of the term
/// itself are open), or the literal part of an interpolated string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Code { braces: usize },
    Interpolated,
}

/// The previous token, as far as deciding what a `"` or `'` starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prev {
    /// Start of text, whitespace or an opening bracket / separator.
    Space,
    /// An identifier; `true` when it may take an interpolated string (`s!`, `throwError`).
    Ident { interpolates: bool },
    /// A number, a literal or a closing bracket.
    Value,
    /// Any other symbol character (may be part of a token such as `∑'`).
    Symbol,
}

struct Lexer<'t> {
    text: &'t str,
    /// The mask being written (`None`: only finding where a literal ends).
    out: Option<Vec<u8>>,
    /// Check each plain string against its interpolated reading.
    check_strings: bool,
}

impl Lexer<'_> {
    fn blank(&mut self, from: usize, to: usize) {
        if let Some(out) = self.out.as_mut() {
            for b in &mut out[from..to] {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
        }
    }

    fn set(&mut self, at: usize, byte: u8) {
        if let Some(out) = self.out.as_mut() {
            out[at] = byte;
        }
    }

    fn line(&self, at: usize) -> usize {
        line_at(self.text, at)
    }

    /// Lex from `i` with the mode stack `stack` (empty: top-level code). Returns where the
    /// stack ran empty (the end of the outermost literal opened on it), or the text's end.
    fn run(&mut self, mut i: usize, mut stack: Vec<Mode>) -> Result<usize, ScanError> {
        let text = self.text;
        let bytes = text.as_bytes();
        let nested = !stack.is_empty();
        let mut prev = Prev::Space;
        while i < bytes.len() {
            if let Some(Mode::Interpolated) = stack.last() {
                match bytes[i] {
                    b'"' => {
                        stack.pop();
                        i += 1;
                        prev = Prev::Value;
                        if nested && stack.is_empty() {
                            return Ok(i);
                        }
                    }
                    b'\\' => {
                        let n = text[i + 1..].chars().next().map_or(0, char::len_utf8);
                        self.blank(i, i + 1 + n);
                        i += 1 + n;
                    }
                    b'{' => {
                        stack.push(Mode::Code { braces: 0 });
                        i += 1;
                        prev = Prev::Space;
                    }
                    _ => {
                        let n = text[i..].chars().next().map_or(1, char::len_utf8);
                        self.blank(i, i + n);
                        i += n;
                    }
                }
                continue;
            }
            let rest = &text[i..];
            let c = rest.chars().next().unwrap_or(' ');
            if rest.starts_with("--") {
                let end = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
                self.blank(i, end);
                i = end;
                prev = Prev::Space;
                continue;
            }
            if rest.starts_with("/-") {
                let end = block_comment_end(bytes, i)
                    .ok_or(ScanError::UnterminatedComment { line: self.line(i) })?;
                self.blank(i, end);
                i = end;
                prev = Prev::Space;
                continue;
            }
            if c == '"' {
                let interpolates = matches!(prev, Prev::Ident { interpolates: true });
                let plain_end = plain_string_end(bytes, i)
                    .ok_or(ScanError::UnterminatedString { line: self.line(i) })?;
                if self.check_strings {
                    let mut probe = Lexer { text, out: None, check_strings: false };
                    let interpolated_end = probe.run(i + 1, vec![Mode::Interpolated]);
                    if interpolated_end.as_ref().ok() != Some(&plain_end) {
                        if interpolates {
                            // Read as Lean reads after `s!`: the braces' end decides.
                            interpolated_end?;
                        } else {
                            return Err(ScanError::Ambiguous {
                                line: self.line(i),
                                what: "a string literal that ends elsewhere when read as an interpolated string",
                            });
                        }
                    }
                }
                if interpolates {
                    stack.push(Mode::Interpolated);
                    i += 1;
                    continue;
                }
                self.blank(i + 1, plain_end - 1);
                i = plain_end;
                prev = Prev::Value;
                continue;
            }
            if c == 'r' {
                let hashes = rest[1..].bytes().take_while(|&b| b == b'#').count();
                if rest[1 + hashes..].starts_with('"') {
                    let close = format!("\"{}", "#".repeat(hashes));
                    let body = i + 2 + hashes;
                    let Some(n) = text[body..].find(&close) else {
                        return Err(ScanError::UnterminatedString { line: self.line(i) });
                    };
                    let end = body + n + close.len();
                    self.blank(i + 1, end);
                    i = end;
                    prev = Prev::Value;
                    continue;
                }
            }
            if c == '\'' && !rest[1..].starts_with('\'') {
                if let Some((end, content)) = char_literal_end(text, i) {
                    if prev == Prev::Symbol && lexically_significant(content) {
                        return Err(ScanError::Ambiguous {
                            line: self.line(i),
                            what: "a char literal right after a symbol",
                        });
                    }
                    self.blank(i + 1, end - 1);
                    i = end;
                    prev = Prev::Value;
                    continue;
                }
            }
            if c == '«' || is_ident_first(c) {
                let (end, interpolates) = self.identifier(i)?;
                i = end;
                prev = Prev::Ident { interpolates };
                continue;
            }
            if c.is_ascii_digit() {
                // A numeral: digits, `_`, hex/binary letters, a fraction and exponent.
                let mut j = i + 1;
                while j < bytes.len()
                    && (bytes[j].is_ascii_alphanumeric()
                        || bytes[j] == b'_'
                        || (bytes[j] == b'.' && bytes.get(j + 1).is_some_and(u8::is_ascii_digit)))
                {
                    j += 1;
                }
                i = j;
                prev = Prev::Value;
                continue;
            }
            match c {
                '{' => {
                    if let Some(Mode::Code { braces }) = stack.last_mut() {
                        *braces += 1;
                    }
                }
                '}' => match stack.last_mut() {
                    Some(Mode::Code { braces: 0 }) => {
                        // The interpolation's term ends: back in the string.
                        stack.pop();
                        i += 1;
                        continue;
                    }
                    Some(Mode::Code { braces }) => *braces -= 1,
                    _ => {}
                },
                _ => {}
            }
            prev = if c.is_whitespace() || matches!(c, '(' | '[' | '{' | '⟨' | ',' | ';') {
                Prev::Space
            } else if matches!(c, ')' | ']' | '}' | '⟩') {
                Prev::Value
            } else {
                Prev::Symbol
            };
            i += c.len_utf8();
        }
        if !stack.is_empty() {
            return Err(ScanError::UnterminatedString { line: self.line(bytes.len()) });
        }
        Ok(bytes.len())
    }

    /// An identifier from `i` (dotted parts, `«…»` escapes): its end, and whether it may take
    /// an interpolated string (it ends in `!`, or is `throwError`/`throwErrorAt`).
    fn identifier(&mut self, mut i: usize) -> Result<(usize, bool), ScanError> {
        let text = self.text;
        let start = i;
        loop {
            let rest = &text[i..];
            if let Some(inner) = rest.strip_prefix('«') {
                let open = i;
                let body = i + '«'.len_utf8();
                let Some(n) = inner.find(['»', '\n']).filter(|&n| inner[n..].starts_with('»'))
                else {
                    return Err(ScanError::UnterminatedEscape { line: self.line(open) });
                };
                for k in body..body + n {
                    let b = text.as_bytes()[k];
                    if b.is_ascii() && !b.is_ascii_alphanumeric() && b != b' ' {
                        self.set(k, b'_');
                    }
                }
                i = body + n + '»'.len_utf8();
            } else {
                let n = rest
                    .char_indices()
                    .skip(1)
                    .find(|(_, c)| !is_ident_char(*c))
                    .map_or(rest.len(), |(k, _)| k);
                i += n;
            }
            // `.` continues the name when an identifier part follows (Lean's `isIdCont`).
            let after = &text[i..];
            match after.strip_prefix('.').and_then(|r| r.chars().next()) {
                Some(c) if c == '«' || is_ident_first(c) => i += 1,
                _ => break,
            }
        }
        let name = &text[start..i];
        let interpolates =
            name.ends_with('!') || matches!(name, "throwError" | "throwErrorAt" | "logInfo");
        Ok((i, interpolates))
    }
}

/// The end (after `-/`) of the nested comment opening at `start`.
fn block_comment_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = start;
    while j < bytes.len() {
        if bytes[j..].starts_with(b"/-") {
            depth += 1;
            j += 2;
        } else if bytes[j..].starts_with(b"-/") {
            depth -= 1;
            j += 2;
            if depth == 0 {
                return Some(j);
            }
        } else {
            j += 1;
        }
    }
    None
}

/// The end (after the closing `"`) of the plain string opening at `start`.
fn plain_string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut j = start + 1;
    loop {
        match bytes.get(j)? {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            _ => j += 1,
        }
    }
}

/// A char literal at `start` (`'c'`, `'\n'`, `'\x41'`, `'\u03B1'`): its end and the character
/// between the quotes (the escape's first character for an escape); `None` when Lean would not
/// finish one there.
fn char_literal_end(text: &str, start: usize) -> Option<(usize, char)> {
    let rest = &text[start + 1..];
    let mut chars = rest.char_indices();
    let (_, c) = chars.next()?;
    let close = if c == '\\' {
        let (_, e) = chars.next()?;
        let len = match e {
            'x' => 2,
            'u' => 4,
            '\\' | '"' | '\'' | 'r' | 'n' | 't' => 0,
            _ => return None,
        };
        let mut k = 2;
        for _ in 0..len {
            let (_, h) = chars.next()?;
            if !h.is_ascii_hexdigit() {
                return None;
            }
            k += 1;
        }
        k
    } else {
        c.len_utf8()
    };
    rest[close..]
        .starts_with('\'')
        .then_some((start + 1 + close + 1, if c == '\\' { '\\' } else { c }))
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
    /// The namespaces open at this command, outermost first (sections left out): where the
    /// names of its statement resolve.
    pub namespaces: Vec<String>,
    /// Index of the enclosing scope instance (each `namespace`/`section` opened gets a fresh one),
    /// innermost last: a command is in scope at a later one when its chain is a prefix of the
    /// later one's.
    pub scope_ids: Vec<usize>,
}

/// The first word of a masked line (an identifier, `@[`, or `#word`).
fn first_word(line: &str) -> &str {
    let t = line.trim_start();
    if t.starts_with("@[") {
        return "@[";
    }
    if let Some(rest) = t.strip_prefix('#') {
        let n =
            rest.char_indices().find(|(_, c)| !is_ident_char(*c)).map_or(rest.len(), |(k, _)| k);
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
    if COMMANDS_AT_ANY_INDENT.contains(&word) {
        return true;
    }
    if indented {
        // Modifiers before a declaring keyword start a command at any indentation too.
        let mut words = line.split_whitespace();
        let mut w = words.next();
        while let Some(x) = w {
            if !COMMAND_PREFIXES.contains(&x) {
                return DECLARATION_KEYWORDS.contains(&x) && x != "example";
            }
            w = words.next();
        }
        return false;
    }
    COMMANDS_AT_COLUMN_0.contains(&word) || (word.starts_with('#') && word.len() > 1)
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
    // Brackets open at the start of the line: a keyword inside a term (a syntax quotation
    // `` `(command| theorem …) ``, a tactic block in parentheses) does not start a command, as
    // Lean's command parser never looks for one there.
    let mut depth = 0usize;
    for line in masked.split_inclusive('\n') {
        if depth == 0 && starts_command(line) {
            starts.push(offset);
            if let Some(k) = prefix_in_end(line) {
                starts.push(offset + k);
            }
        }
        for c in line.chars() {
            match c {
                '(' | '[' | '{' | '⟨' | '⦃' | '⟦' => depth += 1,
                ')' | ']' | '}' | '⟩' | '⦄' | '⟧' => depth = depth.saturating_sub(1),
                _ => {}
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
    // Line numbers counted as the commands go (one pass over the text, not one per command).
    let (mut counted_to, mut line_no) = (0usize, 1usize);
    for (k, &start) in starts.iter().enumerate() {
        line_no += memchr::memchr_iter(b'\n', &masked.as_bytes()[counted_to..start]).count();
        counted_to = start;
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
            // `scoped[NS] instance …`: `scoped` with the namespace it is scoped to.
            if COMMAND_PREFIXES.contains(&w) || w.starts_with("scoped[") {
                modifiers.push(if w.starts_with("scoped[") { "scoped" } else { w }.to_string());
                continue;
            }
            // `notation:65`, `infixl:65`: the precedence is not part of the keyword.
            keyword = w.split(':').next().unwrap_or(w).to_string();
            break;
        }
        let name = if DECLARATION_KEYWORDS.contains(&keyword.as_str()) && keyword != "example" {
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
        let namespaces: Vec<String> =
            scope.iter().filter(|(_, is_ns, _)| *is_ns).map(|(n, _, _)| n.clone()).collect();
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
            line: line_no,
            norm: text.split_whitespace().collect::<Vec<_>>().join(" "),
            scope: scope.iter().map(|(n, _, _)| n.clone()).collect(),
            namespaces: namespaces.clone(),
            scope_ids: scope.iter().map(|(_, _, id)| *id).collect(),
        });
        // Scopes change after the command that opens or closes them.
        let argument = text.split_whitespace().nth(1).unwrap_or_default().to_string();
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
        } else if !COMMAND_PREFIXES.contains(&w) && !w.starts_with("scoped[") {
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
        assert_eq!(mask("x\n/- /- -/\n").unwrap_err(), ScanError::UnterminatedComment { line: 2 });
        assert_eq!(mask("a\nb\n\"oops").unwrap_err(), ScanError::UnterminatedString { line: 3 });
    }

    #[test]
    fn split_finds_commands_names_and_namespaces() {
        let text = "import Mathlib\nopen Real\n\nnamespace Foo\n@[simp] def Nat.Prime (n : ℕ) : Prop := True\ntheorem t : Nat.Prime 2 := by\n  open Nat in simp\nend Foo\n  def hidden := 1\n";
        let cmds = split(&mask(text).unwrap());
        let kinds: Vec<&str> = cmds.iter().map(|c| c.keyword.as_str()).collect();
        assert_eq!(kinds, ["import", "open", "namespace", "def", "theorem", "end", "def"]);
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
        let w: Vec<&str> = words("exact (Nat.succ_le x).1 h₀.").map(|(_, w)| w).collect();
        assert_eq!(w, ["exact", "Nat.succ_le", "x", "1", "h₀"]);
    }
}
