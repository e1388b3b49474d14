//! The statement level of the grammar: the keyword, the name, the binders (split one per name,
//! flagged as variables or hypotheses) and the conclusion, with recovery per binder.
//!
//! Owns `Parser::statement` and binder reading; terms are `terms`', brackets `brackets`'.

use super::declarations::statement_end_token;
use super::operators::closer_of;
use super::parser::{Bound, Parser};
use super::propositions::{is_proposition, is_unknown_application};
use super::{error_at, PResult, ParseErrorKind, MAX_STATEMENT_BYTES};
use crate::trees::lean_syntax::{DECLARATION_MODIFIERS, STATEMENT_KEYWORDS, TERM_KEYWORDS};
use crate::trees::lexer::TokenKind;
use crate::trees::{Statement, Tree};

impl<'a> Parser<'a> {
    pub(super) fn statement(&mut self) -> PResult<Statement> {
        // Skip modifiers, attributes and anything else before the keyword.
        let kw_index = loop {
            let Some(s) = self.peek() else {
                return Err(error_at(self.text, 0, ParseErrorKind::NoDeclaration));
            };
            if self.tokens[self.pos].kind == TokenKind::Ident && STATEMENT_KEYWORDS.contains(&s) {
                break self.pos;
            }
            if s == "@[" {
                match self.matching[self.pos] {
                    Some(close) => self.pos = close + 1,
                    None => {
                        return Err(error_at(
                            self.text,
                            self.offset_here(),
                            ParseErrorKind::Unclosed { open: s.into() },
                        ))
                    }
                }
                continue;
            }
            if DECLARATION_MODIFIERS.contains(&s) {
                self.pos += 1;
                continue;
            }
            // `open Foo Bar in theorem …`: the scoped open is the header's business.
            if s == "open" {
                if let Some(k) = (self.pos + 1..self.tokens.len())
                    .find(|&k| self.tok_text(k) == "in" || self.tokens[k].kind != TokenKind::Ident)
                {
                    if self.tok_text(k) == "in" {
                        self.pos = k + 1;
                        continue;
                    }
                }
            }
            return Err(error_at(self.text, self.offset_here(), ParseErrorKind::NoDeclaration));
        };
        let keyword = self.tok_text(kw_index).to_string();
        let source_start = self.tokens[kw_index].start;
        self.pos += 1;
        // The statement ends at the top-level `:=` (or `where`, or a `|` equation), else the end.
        let end_tok = statement_end_token(self.text, &self.tokens[self.pos..])
            .map_or(self.tokens.len(), |i| self.pos + i);
        self.limit = end_tok;
        // An opening bracket never closed inside the statement is the same input error wherever
        // it stands (binders or conclusion): one message, not an opaque node in one place and an
        // error in the other.
        if let Some(open) = (self.pos..end_tok).find(|&i| {
            closer_of(self.tok_text(i)).is_some()
                && !matches!(self.matching[i], Some(close) if close < end_tok)
        }) {
            return Err(error_at(
                self.text,
                self.tokens[open].start,
                ParseErrorKind::Unclosed { open: self.tok_text(open).into() },
            ));
        }
        let statement_end =
            if end_tok < self.tokens.len() { self.tokens[end_tok].start } else { self.text.len() };
        if statement_end - source_start > MAX_STATEMENT_BYTES {
            return Err(error_at(
                self.text,
                source_start,
                ParseErrorKind::TooLong { bytes: statement_end - source_start },
            ));
        }
        let source = self.text[source_start..statement_end].trim_end().to_string();

        let mut name = None;
        if keyword != "example" {
            match self.peek_kind() {
                Some(TokenKind::Ident) if !self.at(":") => {
                    name = Some(self.tok_text(self.pos).to_string());
                    self.pos += 1;
                }
                _ => return Err(self.err_here("a declaration name")),
            }
            // Universe parameters `.{u, v}` (in Lean's pretty-printed hover text).
            if self.at(".") && self.peek_n(1) == Some("{") && !self.tokens[self.pos].space_before {
                match self.matching[self.pos + 1] {
                    Some(close) => self.pos = close + 1,
                    None => return Err(self.err_here("`}` closing the universe list")),
                }
            }
        }

        let mut binders = Vec::new();
        while let Some(s) = self.peek() {
            if matches!(s, "(" | "{" | "[" | "⦃") {
                let open_index = self.pos;
                let Some(close) = self.matching[open_index] else {
                    return Err(error_at(
                        self.text,
                        self.offset_here(),
                        ParseErrorKind::Unclosed { open: s.into() },
                    ));
                };
                if close >= self.limit {
                    return Err(error_at(
                        self.text,
                        self.offset_here(),
                        ParseErrorKind::Unclosed { open: s.into() },
                    ));
                }
                binders.extend(self.bracket_binder(open_index, close));
                self.pos = close + 1;
            } else {
                break;
            }
        }

        let conclusion = if self.at(":") {
            self.pos += 1;
            let start = self.offset_here();
            if self.pos >= self.limit {
                let at = self.prev_end();
                self.missing_conclusion(at)
            } else {
                self.region(start, self.limit, |p| p.expr(0))
            }
        } else if self.pos >= self.limit {
            let at = self.prev_end();
            self.missing_conclusion(at)
        } else {
            return Err(self.err_here("a binder or `:`"));
        };
        let sig_start = source_start;
        let n = binders.len();
        let mut children = binders;
        children.push(conclusion);
        let sig_label = format!("{}: _ ", " _ ".repeat(n));
        let mut sig = Tree::node(sig_label, children);
        sig.span = self.span(sig_start, statement_end);
        let mut root = Tree::node("theorem", vec![sig]);
        root.span = self.span(source_start, statement_end);
        let unparsed = std::mem::take(&mut self.unparsed);
        Ok(Statement { keyword, name, source, tree: root, unparsed })
    }

    pub(super) fn missing_conclusion(&mut self, at: usize) -> Tree {
        let mut t = self.unparsed_leaf(at, at);
        t.label = "sorry".to_string();
        t
    }

    /// Parse tokens `self.pos..end` with `f`; whatever cannot be read becomes one unparsed leaf
    /// spanning from `start` to the region's end.
    pub(super) fn region(
        &mut self,
        start: usize,
        end: usize,
        f: impl FnOnce(&mut Self) -> PResult<Tree>,
    ) -> Tree {
        let saved_limit = self.limit;
        let saved_scope = self.scope.len();
        let saved_unparsed = self.unparsed.len();
        self.limit = end;
        let result = f(self);
        let ok = match result {
            Ok(t) if self.pos >= end => Some(t),
            _ => None,
        };
        self.limit = saved_limit;
        self.scope.truncate(saved_scope);
        self.pos = end;
        match ok {
            Some(t) => t,
            None => {
                // Nested unparsed parts are subsumed by this one.
                self.unparsed.truncate(saved_unparsed);
                // Up to the end of the last token inside the region.
                let end_offset = match end.checked_sub(1).and_then(|i| self.tokens.get(i)) {
                    Some(last) => last.end.max(start),
                    None => start,
                };
                self.unparsed_leaf(start, end_offset)
            }
        }
    }

    /// A bracketed binder `(a b : T)`, `{x : T}`, `[Foo α]`, `[inst : Foo α]`, `⦃x : T⦄`,
    /// split one per name; the names go into scope as hypotheses or variables.
    pub(super) fn bracket_binder(&mut self, open: usize, close: usize) -> Vec<Tree> {
        let open_text = self.tok_text(open);
        let (pre, post) = match open_text {
            "(" => ("", ""),
            "{" => ("{", "}"),
            "[" => ("[", "]"),
            _ => ("⦃", "⦄"),
        };
        let bracket_start = self.tokens[open].start;
        let bracket_end = self.tokens[close].end;
        // Names: identifiers (or `_`) up to `:`.
        let mut names = Vec::new();
        let mut i = open + 1;
        while i < close && self.tokens[i].kind == TokenKind::Ident {
            let s = self.tok_text(i);
            if TERM_KEYWORDS.contains(&s) {
                break;
            }
            names.push(i);
            i += 1;
        }
        let has_colon = i < close && self.tok_text(i) == ":";
        // A default value `(x : T := v)` / `(x := v)` (an optional argument).
        let default_at = self.first_outside_brackets(i, close, |t| t == ":=");
        let default_value = |p: &mut Self| -> Option<Tree> {
            default_at.map(|d| {
                p.pos = d + 1;
                let vstart = p.offset_here();
                p.region(vstart, close, |p| p.expr(0))
            })
        };
        if !has_colon && default_at == Some(i) && !names.is_empty() {
            // `(s := v)`: the value stands in for the type.
            let value = default_value(self).expect("BUG: default_at is Some");
            let label = format!("{} _ := _ {}", if pre.is_empty() { "" } else { pre }, post);
            let label = if pre.is_empty() { " _ := _ ".to_string() } else { label };
            return names
                .into_iter()
                .map(|n| {
                    let name = self.binder_name(n, Bound::Variable);
                    let mut t = Tree::node(label.clone(), vec![name, value.clone()]);
                    t.span = self.span(bracket_start, bracket_end);
                    t
                })
                .collect();
        }
        if !has_colon || names.is_empty() {
            if open_text == "[" {
                // Anonymous instance `[Foo α]`.
                self.pos = open + 1;
                let start = self.offset_here();
                let ty = self.region(start, close, |p| p.expr(0));
                let mut t = Tree::node("[ _ ]", vec![ty]);
                t.span = self.span(bracket_start, bracket_end);
                return vec![t];
            }
            if !has_colon && i == close && !names.is_empty() {
                // `(x)` / `{x y}`: names without a type.
                let label =
                    if pre.is_empty() { "( _ )".to_string() } else { format!("{pre} _ {post}") };
                return names
                    .into_iter()
                    .map(|n| {
                        let name = self.binder_name(n, Bound::Variable);
                        let mut t = Tree::node(label.clone(), vec![name]);
                        t.span = self.span(bracket_start, bracket_end);
                        t
                    })
                    .collect();
            }
            // Something else: keep it as one unparsed binder.
            return vec![self.unparsed_leaf(bracket_start, bracket_end)];
        }
        // Type, with an optional default `:= v` (cut off at `:=`).
        self.pos = i + 1;
        let type_start = self.offset_here();
        let ty = self.region(type_start, default_at.unwrap_or(close), |p| p.expr(0));
        let value = default_value(self);
        // A hypothesis: its type reads as a proposition; when the type could not be read, fall
        // back on Mathlib's naming convention (`h`, `h₀`, `hx`).
        let kind = if is_proposition(&ty)
            || ((ty.unparsed || is_unknown_application(&ty))
                && self.looks_like_hypothesis_name(&names))
        {
            Bound::Hypothesis
        } else {
            Bound::Variable
        };
        let default_part = if value.is_some() { ":= _ " } else { "" };
        let label = if pre.is_empty() {
            format!(" _ : _ {default_part}")
        } else {
            format!("{pre} _ : _ {default_part}{post}")
        };
        names
            .into_iter()
            .map(|n| {
                let name = self.binder_name(n, kind);
                let mut children = vec![name, ty.clone()];
                children.extend(value.clone());
                let mut t = Tree::node(label.clone(), children);
                t.span = self.span(bracket_start, bracket_end);
                t
            })
            .collect()
    }

    /// Mathlib's convention for hypothesis names: `h`, `h₀`, `h'`, `hx`, `hab`, `hpos`, `hf_mono`
    /// (an `h` prefix on a short or snake-case name; `height` or `hull` style words are too long
    /// or dictionary-like to count, so only names of at most five chars or with `_`/digits do).
    pub(super) fn looks_like_hypothesis_name(&self, names: &[usize]) -> bool {
        names.iter().all(|&n| {
            let s = self.tok_text(n);
            s.starts_with('h')
                && (s.chars().count() <= 5
                    || s.contains('_')
                    || s.chars().any(|c| c.is_ascii_digit() || ('₀'..='₉').contains(&c)))
        })
    }

    /// The leaf for a binder name at token `i`, flagged and pushed into scope.
    pub(super) fn binder_name(&mut self, i: usize, kind: Bound) -> Tree {
        let s = self.tok_text(i).to_string();
        let mut t = Tree::leaf(s.clone());
        t.span = self.span(self.tokens[i].start, self.tokens[i].end);
        match kind {
            Bound::Variable => t.variable_freecost = true,
            Bound::Hypothesis => t.hypothesis_freecost = true,
        }
        if s != "_" {
            self.scope.push((s, kind));
        }
        t
    }

    // ---------------------------------------------------------------- terms
}

#[cfg(test)]
mod tests {
    use super::super::tests::{concl, sexp, statement, tree};

    #[test]
    fn binders_split_and_flags() {
        let t = tree("theorem t (b h : ℝ) (h₀ : 0 < b) {n : ℕ} [Foo α] : b = 1 := by sorry");
        assert_eq!(
            sexp(&t),
            "('theorem' (' _  _  _  _  _ : _ ' (' _ : _ ' 'b'* 'ℝ') (' _ : _ ' 'h'* 'ℝ') \
             (' _ : _ ' 'h₀'# (' _ < _ ' '0' 'b'*)) ('{ _ : _ }' 'n'* 'ℕ') ('[ _ ]' ('Foo _ ' 'α')) \
             (' _ = _ ' 'b'* '1')))"
        );
    }

    #[test]
    fn parenthesised_names_and_patterns_bind() {
        assert_eq!(
            concl("theorem t : ∀ (n) (m), n = m"),
            "('∀ _  _ , _ ' 'n'* 'm'* (' _ = _ ' 'n'* 'm'*))"
        );
        assert_eq!(
            concl("theorem t : (fun (x, y) => x) (1, 2) = 1"),
            "(' _ = _ ' (' _  _ ' ('fun _ => _ ' ('( _ , _ )' 'x'* 'y'*) 'x'*) ('( _ , _ )' '1' '2')) '1')"
        );
    }

    #[test]
    fn comment_eating_the_conclusion_gives_a_missing_conclusion() {
        let s = statement("theorem e (x y : ℝ) -- R^n   : x = y := by sorry");
        let last = s.tree.children[0].children.last().unwrap();
        assert!(last.unparsed);
        assert_eq!(last.label, "sorry");
        assert_eq!(s.unparsed.len(), 1);
    }

    #[test]
    fn modifiers_attributes_doc_comments_and_open_in_are_skipped() {
        let s = statement("/-- doc -/\n@[simp, norm_num] private nonrec open Real Nat in\ntheorem foo.bar : π > 3 := by\n  norm_num");
        assert_eq!(s.name.as_deref(), Some("foo.bar"));
        assert_eq!(s.source, "theorem foo.bar : π > 3");
        assert_eq!(sexp(&s.tree), "('theorem' (': _ ' (' _ > _ ' 'π' '3')))");
    }

    #[test]
    fn a_statement_without_proof_ends_at_the_next_command() {
        let s = statement("theorem a : 1 = 1\ntheorem b : 2 = 2 := rfl");
        assert_eq!(s.source, "theorem a : 1 = 1");
        assert!(s.unparsed.is_empty());
    }
}
