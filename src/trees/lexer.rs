//! Lean 4 source text → tokens with byte spans, for the statement parser and the declaration scan.
//!
//! Owns the lexical rules only: identifiers (Unicode letters, Greek except `λ Π Σ`, letter-like
//! symbols `ℕ ℝ`, mathematical alphanumerics `𝓝`, subscripts `h₀`, primes `x'`, trailing `!`/`?`,
//! the `✝` of names Lean prints for inaccessible variables, dotted names `Nat.Prime`,
//! `«weird name»`, and Mathlib's type notations `ℕ+`, `ℝ≥0`, `ℝ≥0∞` as single names), numerals
//! (`6.5`, `1e-3`, `1_000`, `0x1F`), string and char literals, comments (`--` to end of line,
//! `/- -/` nested, doc comments `/-- -/`), and the operator symbols this crate knows (longest
//! match first; `→L` only before `[`). It does not decide what a symbol means: that is
//! the parser's precedence table. It never panics: an unterminated comment or string is an error in
//! strict mode and runs to the end of the text in lenient mode (the declaration scan).
//!
//! Identifier characters follow Lean's `isLetterLike` / `isSubScriptAlnum`
//! (`src/Init/Meta.lean` in leanprover/lean4).

/// What kind of token a [`Token`] is; its text is `source[start..end]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Ident,
    Number,
    Str,
    Char,
    Symbol,
}

/// One token: kind, byte range, and layout facts the parser needs.
#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
    /// Whitespace or a comment separates this token from the previous one.
    pub space_before: bool,
    /// Line number (0-based) of the token start.
    pub line: usize,
    /// Column (0-based, in chars) of the token start.
    pub column: usize,
}

/// Why lexing stopped (strict mode only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LexErrorKind {
    UnterminatedComment,
    UnterminatedString,
}

/// A lexing failure at a byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LexError {
    pub offset: usize,
    pub kind: LexErrorKind,
}

/// Operator and punctuation symbols, longest first within a shared prefix (checked in order).
const SYMBOLS: &[&str] = &[
    ":=", "::", ":", "=>", "==", "=", "->", "<->", "<|>", "<|", "<=", "<", ">=", ">", "|>", "||",
    "|", "‖₊", "‖", "≠", "!=", "≤", "≥", "∈", "∉", "⊆", "⊂", "⊇", "⊃", "⊊", "∣", "∤", "++", "+",
    "-", "**", "*", "/\\", "//", "/", "\\/", "\\", "%", "^[", "^", "∘", "•", "×ˢ", "×ₗ", "×", "∩",
    "∪", "⁻¹'", "⁻¹", "''", "!", "↑", "⇑", "↥", "√", "∑'", "∏'", "∑", "∏", "⋃₀", "⋂₀", "⋃", "⋂",
    "⨆", "⨅", "∫", "∀ᶠ", "∃ᶠ", "∮", "⌊", "⌋₊", "⌋", "⌈", "⌉₊", "⌉", "(", ")", "{", "}", "[", "]",
    "⟨", "⟩", "⦃", "⦄", ",", ";", "..", ".", "·", "@[", "@", "#", "$", "≡", "≃+*", "≃*", "≃+",
    "≃ₗ", "≃", "→+*", "→*", "→+", "→ₗ", "→", "↔", "←", "∀", "∃!", "∃", "λ", "Π", "Σ", "¬", "∧",
    "∨", "≅", "⧸", "∆", "ᶜ", "⊓", "⊔", "⊤", "⊥", "∅", "∞", "⋯", "≈", "≪", "⬝ᵥ", "⊗", "⊕", "∂", "∠",
    "∗", "⁺", "↦", "?", "&&", "&", "~", "≫", "⊢", "▸", "⊞", "≺", "≼", "ᵀ", "ᴴ", "†", "∠",
];

fn is_letter_like(c: char) -> bool {
    // Lean's `isLetterLike`: Greek and Coptic (minus λ, Π, Σ), letter-like symbols block,
    // mathematical alphanumeric symbols; plus ordinary alphabetic characters.
    let u = c as u32;
    if c == 'λ' || c == 'Π' || c == 'Σ' {
        return false;
    }
    (0x3b1..=0x3c9).contains(&u)
        || (0x391..=0x3a9).contains(&u)
        || (0x3ca..=0x3fb).contains(&u)
        || (0x1f00..=0x1ffe).contains(&u)
        || (0x2100..=0x214f).contains(&u)
        || (0x1d49c..=0x1d59f).contains(&u)
        || (0x1d400..=0x1d7ff).contains(&u)
        || (c.is_alphabetic() && !is_subscript_or_superscript_symbol(c))
}

fn is_subscript_or_superscript_symbol(c: char) -> bool {
    // Modifier letters that Lean treats as operator parts (`ᶜ` complement, `ᵀ` transpose).
    matches!(c, 'ᶜ' | 'ᵀ' | 'ᴴ')
}

fn is_subscript_alnum(c: char) -> bool {
    let u = c as u32;
    (0x2080..=0x2089).contains(&u)
        || (0x2090..=0x209c).contains(&u)
        || (0x1d62..=0x1d6a).contains(&u)
        || c == 'ⱼ'
}

fn is_ident_start(c: char) -> bool {
    c == '_' || is_letter_like(c)
}

fn is_ident_rest(c: char) -> bool {
    c == '_'
        || c == '\''
        || c == '!'
        || c == '?'
        || c.is_ascii_digit()
        || is_letter_like(c)
        || is_subscript_alnum(c)
        || c == '✝'
}

/// Lex `text`. In strict mode an unterminated comment/string is an error; in lenient mode it runs
/// to the end of the text (used when scanning whole files that may be mid-edit).
pub fn lex(text: &str, strict: bool) -> Result<Vec<Token>, LexError> {
    let mut lexer = Lexer { text, pos: 0, line: 0, column: 0, tokens: Vec::new() };
    lexer.run(strict)?;
    Ok(lexer.tokens)
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    /// Column (in chars) of `pos`, kept up to date by `bump` so columns cost O(1) per token.
    column: usize,
    tokens: Vec<Token>,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.text[self.pos..].chars().nth(n)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 0;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn run(&mut self, strict: bool) -> Result<(), LexError> {
        let mut space_before = true;
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.bump();
                space_before = true;
                continue;
            }
            if self.rest().starts_with("--") {
                while let Some(c) = self.peek() {
                    if c == '\n' {
                        break;
                    }
                    self.bump();
                }
                space_before = true;
                continue;
            }
            if self.rest().starts_with("/-") {
                let start = self.pos;
                self.bump();
                self.bump();
                let mut depth = 1usize;
                while depth > 0 {
                    if self.rest().starts_with("/-") {
                        self.bump();
                        self.bump();
                        depth += 1;
                    } else if self.rest().starts_with("-/") {
                        self.bump();
                        self.bump();
                        depth -= 1;
                    } else if self.bump().is_none() {
                        if strict {
                            return Err(LexError {
                                offset: start,
                                kind: LexErrorKind::UnterminatedComment,
                            });
                        }
                        break;
                    }
                }
                space_before = true;
                continue;
            }
            let start = self.pos;
            let line = self.line;
            let column = self.column;
            let kind = self.token(c, strict)?;
            self.tokens.push(Token { kind, start, end: self.pos, space_before, line, column });
            space_before = false;
        }
        Ok(())
    }

    fn token(&mut self, c: char, strict: bool) -> Result<TokenKind, LexError> {
        let start = self.pos;
        if c == '«' || is_ident_start(c) {
            self.ident();
            return Ok(TokenKind::Ident);
        }
        if c.is_ascii_digit() {
            self.number();
            return Ok(TokenKind::Number);
        }
        if c == '"' {
            self.bump();
            loop {
                match self.bump() {
                    Some('\\') => {
                        self.bump();
                    }
                    Some('"') => break,
                    Some(_) => {}
                    None => {
                        if strict {
                            return Err(LexError {
                                offset: start,
                                kind: LexErrorKind::UnterminatedString,
                            });
                        }
                        break;
                    }
                }
            }
            return Ok(TokenKind::Str);
        }
        if c == '\'' {
            // A char literal `'a'` / `'\n'`; otherwise `'` starts the `''` image symbol or is a
            // stray prime handled as a one-char symbol.
            let close = if self.peek_at(1) == Some('\\') { 3 } else { 2 };
            if self.peek_at(close) == Some('\'') && self.peek_at(1) != Some('\'') {
                for _ in 0..=close {
                    self.bump();
                }
                return Ok(TokenKind::Char);
            }
        }
        // `E →L[𝕜] F` (continuous linear maps): `→L` is one symbol only before its ring.
        if self.rest().starts_with("→L[") {
            self.bump();
            self.bump();
            return Ok(TokenKind::Symbol);
        }
        let rest = self.rest();
        let first = rest.as_bytes().first().copied().unwrap_or(0);
        for sym in SYMBOLS {
            if sym.as_bytes()[0] == first && rest.starts_with(sym) {
                for _ in 0..sym.chars().count() {
                    self.bump();
                }
                return Ok(TokenKind::Symbol);
            }
        }
        self.bump();
        Ok(TokenKind::Symbol)
    }

    fn ident_part(&mut self) {
        if self.peek() == Some('«') {
            while let Some(c) = self.bump() {
                if c == '»' {
                    break;
                }
            }
            return;
        }
        self.bump();
        while let Some(c) = self.peek() {
            if is_ident_rest(c) {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn ident(&mut self) {
        let start = self.pos;
        self.ident_part();
        // Mathlib's `ℝ≥0` / `ℝ≥0∞` / `ℚ≥0` are single notations for types.
        let part = &self.text[start..self.pos];
        // Mathlib's `ℕ+` (positive naturals) is one notation too.
        if part == "ℕ"
            && self.rest().starts_with('+')
            && !self.rest()[1..].starts_with(|c: char| c.is_alphanumeric() || c == '(')
        {
            self.bump();
            return;
        }
        if (part == "ℝ" || part == "ℚ") && self.rest().starts_with("≥0") {
            self.bump();
            self.bump();
            if self.peek() == Some('∞') {
                self.bump();
            }
            return;
        }
        while self.peek() == Some('.') {
            match self.peek_at(1) {
                Some(n) if n == '«' || is_ident_start(n) => {
                    self.bump();
                    self.ident_part();
                }
                _ => break,
            }
        }
    }

    fn number(&mut self) {
        if self.rest().starts_with("0x") || self.rest().starts_with("0b") {
            self.bump();
            self.bump();
            while self.peek().is_some_and(|c| c.is_ascii_hexdigit() || c == '_') {
                self.bump();
            }
            return;
        }
        // Digits, with `_` separators (`1_000_000`).
        while self.peek().is_some_and(|c| {
            c.is_ascii_digit() || c == '_' && self.peek_at(1).is_some_and(|d| d.is_ascii_digit())
        }) {
            self.bump();
        }
        if self.peek() == Some('.') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.bump();
            }
        }
        if matches!(self.peek(), Some('e' | 'E')) {
            let digit_at = if matches!(self.peek_at(1), Some('-' | '+')) { 2 } else { 1 };
            if self.peek_at(digit_at).is_some_and(|c| c.is_ascii_digit()) {
                for _ in 0..digit_at {
                    self.bump();
                }
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.bump();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<&str> {
        lex(s, true).unwrap().iter().map(|t| &s[t.start..t.end]).collect()
    }

    #[test]
    fn identifiers_numbers_and_symbols() {
        assert_eq!(
            texts("h₀ : x' ≤ Nat.Prime p ∧ 6.5 < 1e-3 -- c\n/- a /- b -/ -/ «a b».c"),
            ["h₀", ":", "x'", "≤", "Nat.Prime", "p", "∧", "6.5", "<", "1e-3", "«a b».c"]
        );
        assert_eq!(texts("x.1 f⁻¹' s ℝ≥0∞"), ["x", ".", "1", "f", "⁻¹'", "s", "ℝ≥0∞"]);
        assert_eq!(texts("λ x, Σ"), ["λ", "x", ",", "Σ"]);
    }

    #[test]
    fn unterminated_comment_is_an_error_only_in_strict_mode() {
        assert_eq!(lex("a /- b", true).unwrap_err().kind, LexErrorKind::UnterminatedComment);
        assert_eq!(lex("a /- b", false).unwrap().len(), 1);
    }
}
