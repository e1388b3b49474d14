//! The statement parser's state: tokens, bracket matches, the current region, the names bound so
//! far, and the small reading steps every part of the grammar uses.
//!
//! Owns [`Parser`], its [`Scope`] of bound names and the token-level helpers (peeking, expecting,
//! spans, top-level searches inside a region, flagging bound names). The grammar itself lives in
//! the sibling modules, each an `impl Parser` block of its own concern.

use super::operators::{closer_of, match_brackets};
use super::{error_at, PResult, ParseError, ParseErrorKind, MAX_DEPTH};
use crate::trees::lean_syntax::TERM_KEYWORDS;
use crate::trees::lexer::{Token, TokenKind};
use crate::trees::{Span, Tree};

/// The names bound around the current position, innermost last, with an index by name so that
/// a lookup costs the same however many binders a statement has (a linear scan made parsing
/// quadratic in the number of hypotheses: 11,000 of them took 3 s).
#[derive(Default)]
pub(super) struct Scope {
    entries: Vec<(String, Bound)>,
    /// For each name, the indices of its entries, innermost last.
    index: std::collections::HashMap<String, Vec<usize>>,
}

impl Scope {
    pub(super) fn push(&mut self, (name, bound): (String, Bound)) {
        self.index.entry(name.clone()).or_default().push(self.entries.len());
        self.entries.push((name, bound));
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Forget every binding made after the first `len`.
    pub(super) fn truncate(&mut self, len: usize) {
        while self.entries.len() > len {
            let (name, _) = self.entries.pop().expect("BUG: longer than len");
            if let Some(at) = self.index.get_mut(&name) {
                at.pop();
                if at.is_empty() {
                    self.index.remove(&name);
                }
            }
        }
    }

    pub(super) fn lookup(&self, name: &str) -> Option<Bound> {
        let i = *self.index.get(name)?.last()?;
        Some(self.entries[i].1)
    }
}

/// How a name was bound, for flags on its occurrences.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Bound {
    Variable,
    Hypothesis,
}

/// A statement being read: its tokens and where the reading is.
pub(super) struct Parser<'a> {
    pub(super) text: &'a str,
    pub(super) tokens: Vec<Token>,
    /// For each opening bracket token, the index of its closing token (same kind), if any.
    pub(super) matching: Vec<Option<usize>>,
    pub(super) pos: usize,
    /// Exclusive token index where the current region ends (a closing bracket, `:=`).
    pub(super) limit: usize,
    pub(super) scope: Scope,
    pub(super) unparsed: Vec<Span>,
    pub(super) depth: usize,
    /// Inside `let x := v`, application arguments on a later line must be right of this column.
    pub(super) column_floor: Option<(usize, usize)>,
    /// The precedence the term being started must have at least (Lean's Pratt parser: a leading
    /// parser of lower precedence, such as a dependent arrow at 25, is not tried there).
    pub(super) leading_min: u32,
}

impl<'a> Parser<'a> {
    pub(super) fn new(text: &'a str, tokens: Vec<Token>) -> Parser<'a> {
        let matching = match_brackets(text, &tokens);
        let limit = tokens.len();
        Parser {
            text,
            tokens,
            matching,
            pos: 0,
            limit,
            scope: Scope::default(),
            unparsed: Vec::new(),
            depth: 0,
            column_floor: None,
            leading_min: 0,
        }
    }

    pub(super) fn tok_text(&self, i: usize) -> &'a str {
        let t = &self.tokens[i];
        &self.text[t.start..t.end]
    }

    pub(super) fn peek(&self) -> Option<&'a str> {
        self.peek_n(0)
    }

    pub(super) fn peek_n(&self, n: usize) -> Option<&'a str> {
        let i = self.pos + n;
        if i < self.limit {
            Some(self.tok_text(i))
        } else {
            None
        }
    }

    pub(super) fn peek_kind(&self) -> Option<TokenKind> {
        (self.pos < self.limit).then(|| self.tokens[self.pos].kind)
    }

    pub(super) fn at(&self, s: &str) -> bool {
        self.peek() == Some(s)
    }

    pub(super) fn offset_here(&self) -> usize {
        if self.pos < self.tokens.len() {
            self.tokens[self.pos].start
        } else {
            self.text.len()
        }
    }

    /// End offset of the previous token (start of the text when none).
    pub(super) fn prev_end(&self) -> usize {
        if self.pos == 0 {
            0
        } else {
            self.tokens[self.pos - 1].end
        }
    }

    pub(super) fn err_here(&self, expected: &'static str) -> ParseError {
        match self.peek() {
            Some(found) => error_at(
                self.text,
                self.offset_here(),
                ParseErrorKind::Unexpected { expected, found: found.to_string() },
            ),
            None => {
                error_at(self.text, self.limit_offset(), ParseErrorKind::UnexpectedEnd { expected })
            }
        }
    }

    pub(super) fn limit_offset(&self) -> usize {
        if self.limit < self.tokens.len() {
            self.tokens[self.limit].start
        } else {
            self.text.len()
        }
    }

    pub(super) fn expect(&mut self, s: &str, expected: &'static str) -> PResult<()> {
        if self.at(s) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err_here(expected))
        }
    }

    /// The closing bracket of the opening one at token `open` (written `open_text`), inside the
    /// current region; else an unclosed-bracket error at byte `at`.
    pub(super) fn closing(&self, open: usize, at: usize, open_text: &str) -> PResult<usize> {
        self.matching[open].filter(|&c| c < self.limit).ok_or_else(|| {
            error_at(self.text, at, ParseErrorKind::Unclosed { open: open_text.into() })
        })
    }

    pub(super) fn span(&self, start: usize, end: usize) -> Option<Span> {
        Some(Span { start: start as u32, end: end as u32 })
    }

    pub(super) fn mk(&self, label: impl Into<String>, children: Vec<Tree>, start: usize) -> Tree {
        let mut t = Tree::node(label, children);
        t.span = self.span(start, self.prev_end().max(start));
        t
    }

    pub(super) fn unparsed_leaf(&mut self, start: usize, end: usize) -> Tree {
        let raw = self.text.get(start..end).unwrap_or("");
        let label = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut t = Tree::leaf(label);
        t.span = self.span(start, end);
        t.unparsed = true;
        self.unparsed.push(Span { start: start as u32, end: end as u32 });
        t
    }

    // ---------------------------------------------------------------- statement

    pub(super) fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            return Err(error_at(self.text, self.offset_here(), ParseErrorKind::TooDeep));
        }
        Ok(())
    }

    /// Tokens `a..b` as one term (an unparsed node when they are not one).
    pub(super) fn part(&mut self, a: usize, b: usize) -> Tree {
        self.pos = a;
        let from = self.tokens.get(a).map_or(self.prev_end(), |t| t.start);
        if a >= b {
            return self.unparsed_leaf(from, from);
        }
        self.region(from, b, |p| p.expr(0))
    }

    /// Whether token `i` is outside every bracket opened from `from` on.
    pub(super) fn at_top_level(&self, from: usize, i: usize) -> bool {
        let mut k = from;
        while k < i {
            match self.matching.get(k).copied().flatten() {
                Some(close) if closer_of(self.tok_text(k)).is_some() => {
                    if close >= i {
                        return false;
                    }
                    k = close + 1;
                }
                _ => k += 1,
            }
        }
        true
    }

    /// The first token of `from..to` for which `is` holds outside brackets, the depth counted by
    /// the brackets' text as written (not their matches, so an unmatched closer counts too).
    pub(super) fn first_outside_brackets(
        &self,
        from: usize,
        to: usize,
        is: impl Fn(&str) -> bool,
    ) -> Option<usize> {
        let mut depth = 0i32;
        for k in from..to {
            match self.tok_text(k) {
                "(" | "[" | "{" | "⟨" | "⦃" => depth += 1,
                ")" | "]" | "}" | "⟩" | "⦄" => depth -= 1,
                t if depth == 0 && is(t) => return Some(k),
                _ => {}
            }
        }
        None
    }

    /// The first token in `from..to` outside brackets for which `is` holds.
    pub(super) fn top_level(
        &self,
        from: usize,
        to: usize,
        is: impl Fn(&str) -> bool,
    ) -> Option<usize> {
        let mut k = from;
        while k < to {
            let t = self.tok_text(k);
            if is(t) {
                return Some(k);
            }
            match self.matching.get(k).copied().flatten() {
                Some(close) if closer_of(t).is_some() => k = close + 1,
                _ => k += 1,
            }
        }
        None
    }

    /// `from..to` split at its top-level commas.
    pub(super) fn split_top_level(&self, from: usize, to: usize) -> Vec<(usize, usize)> {
        let mut parts = Vec::new();
        let mut a = from;
        while let Some(comma) = self.top_level(a, to, |t| t == ",") {
            parts.push((a, comma));
            a = comma + 1;
        }
        parts.push((a, to));
        parts
    }

    pub(super) fn at_keyword(&self) -> bool {
        self.peek().is_some_and(|s| TERM_KEYWORDS.contains(&s))
    }

    pub(super) fn lookup(&self, name: &str) -> Option<Bound> {
        self.scope.lookup(name)
    }

    pub(super) fn flag(&self, t: &mut Tree, name: &str) {
        match self.lookup(name) {
            Some(Bound::Variable) => t.variable_freecost = true,
            Some(Bound::Hypothesis) => t.hypothesis_freecost = true,
            None => {}
        }
    }
}
