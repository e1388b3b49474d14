//! Bracketed terms: parentheses (tuples, ascriptions, sections), lists, matrices, braces (set
//! builder, subtype, set literal, structure instance) and the recovery inside a bracket pair.
//!
//! Owns the readings that start at an opening bracket; the terms inside are `terms`'.

use super::parser::{Bound, Parser};
use super::PResult;
use crate::trees::lexer::TokenKind;
use crate::trees::{Span, Tree};

impl<'a> Parser<'a> {
    /// Step into the bracket opening with `opener` at the current token: its token and its
    /// closer's, the position now past the opener; `None` for empty brackets, the position then
    /// past both.
    fn enter_brackets(&mut self, start: usize, opener: &str) -> PResult<Option<(usize, usize)>> {
        let open = self.pos;
        let close = self.closing(open, start, opener)?;
        self.pos += 1;
        if self.pos == close {
            self.pos += 1;
            return Ok(None);
        }
        Ok(Some((open, close)))
    }

    /// `( … )`: grouping, unit, `(↑)`, `(·)`, type ascription `(e : T)`, tuple `(a, b)`.
    pub(super) fn paren(&mut self, start: usize) -> PResult<Tree> {
        let Some((open, close)) = self.enter_brackets(start, "(")? else {
            return Ok(self.mk("()", vec![], start));
        };
        if close == open + 2 && matches!(self.tok_text(open + 1), "↑" | "⇑" | "↥" | "·") {
            self.pos = close + 1;
            return Ok(self.mk(self.tok_text(open + 1), vec![], start));
        }
        let inner_start = self.offset_here();
        let saved_floor = self.column_floor.take();
        let t = self.region(inner_start, close, |p| {
            let first = p.expr(0)?;
            if p.at(":") {
                p.pos += 1;
                let ty = p.expr(0)?;
                return Ok(p.mk("( _ : _ )", vec![first, ty], inner_start));
            }
            if p.at(",") {
                let mut items = vec![first];
                while p.at(",") {
                    p.pos += 1;
                    items.push(p.expr(0)?);
                }
                let label = format!("( {} )", vec!["_"; items.len()].join(" , "));
                return Ok(p.mk(label, items, inner_start));
            }
            Ok(p.cdot_function(first, inner_start))
        });
        self.column_floor = saved_floor;
        self.pos = close + 1;
        let mut t = t;
        if t.unparsed {
            // Widen the unparsed span to the parentheses.
            if let Some(last) = self.unparsed.last_mut() {
                last.start = start as u32;
                last.end = self.tokens[close].end as u32;
            }
            t.span = self.span(start, self.tokens[close].end);
            t.label = self.text[start..self.tokens[close].end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
        }
        Ok(t)
    }

    /// `(· + 1)` is `fun x => x + 1`, `(f · · b)` is `fun x1 x2 => f x1 x2 b`: Lean's
    /// `expandCDot?` (src/Lean/Elab/BuiltinNotation.lean) turns each `·` of a parenthesized term
    /// into a fresh binder, left to right, stopping at nested parentheses, ascriptions and
    /// tuples (each its own scope, already expanded here). Lone `(·)` is read by [`Self::paren`].
    fn cdot_function(&self, body: Tree, start: usize) -> Tree {
        /// Deeper than the parser nests; a bound on the walk all the same.
        const MAX_DEPTH: usize = 512;
        /// Whether `t` opens a scope of its own (its `·` are not this one's).
        fn own_scope(t: &Tree) -> bool {
            t.label == "( _ : _ )" || t.label.starts_with("( _ ,")
        }
        fn count(t: &Tree, depth: usize) -> usize {
            if t.children.is_empty() {
                return usize::from(t.label == "·");
            }
            if own_scope(t) || depth > MAX_DEPTH {
                return 0;
            }
            t.children.iter().map(|ch| count(ch, depth + 1)).sum()
        }
        /// Each `·` made the next binder's name; `spans` gets where each one was written.
        fn replace(
            t: &mut Tree,
            spans: &mut Vec<Option<Span>>,
            names: &dyn Fn(usize) -> String,
            depth: usize,
        ) {
            if t.children.is_empty() {
                if t.label == "·" {
                    spans.push(t.span);
                    let span = t.span;
                    *t = Tree::bound_variable(names(spans.len()));
                    t.span = span;
                }
                return;
            }
            if own_scope(t) || depth > MAX_DEPTH {
                return;
            }
            for ch in &mut t.children {
                replace(ch, spans, names, depth + 1);
            }
        }
        let cdots = count(&body, 0);
        if cdots == 0 || body.unparsed {
            return body;
        }
        // Names no user can write (`✝`) and no rule makes (`x✝` is theirs).
        let name = |i: usize| if cdots == 1 { "x✝₀".to_owned() } else { format!("x✝₀{i}") };
        let mut out = body;
        let mut spans = Vec::with_capacity(cdots);
        replace(&mut out, &mut spans, &name, 0);
        // Each binder stands where its `·` was written.
        let mut children: Vec<Tree> = (1..=cdots)
            .zip(spans)
            .map(|(i, span)| {
                let mut x = Tree::bound_variable(name(i));
                x.span = span;
                x
            })
            .collect();
        children.push(out);
        let label = format!("fun{}=> _ ", " _ ".repeat(cdots));
        self.mk(label, children, start)
    }

    /// `[a, b]` lists and `⟨a, b⟩` anonymous constructors.
    pub(super) fn bracketed_list(
        &mut self,
        open: &str,
        close_s: &str,
        start: usize,
    ) -> PResult<Tree> {
        let open_i = self.pos;
        let close = self.closing(open_i, start, open)?;
        self.pos += 1;
        if self.pos == close {
            self.pos += 1;
            return Ok(self.mk(format!("{open}{close_s}"), vec![], start));
        }
        let inner_start = self.offset_here();
        let t = self.region(inner_start, close, |p| {
            let mut items = vec![p.expr(0)?];
            while p.at(",") {
                p.pos += 1;
                items.push(p.expr(0)?);
            }
            let label = format!("{open} {} {close_s}", vec!["_"; items.len()].join(" , "));
            Ok(p.mk(label, items, inner_start))
        });
        self.pos = close + 1;
        Ok(self.widen(t, start, close))
    }

    /// Mathlib's matrix and vector literals `!![a, b; c, d]` and `![a, b]` (`Matrix.of`,
    /// `Matrix.vecCons`: tokens `!![` and `![`, written without spaces), at a `!`. One node
    /// `!![ _ , _ ; _ , _ ]` with the entries as children, row by row (`;` ends a row), so a
    /// matrix is one term, not `!` of `!` of an unreadable list. `None` (nothing consumed)
    /// when the `!` does not start one.
    pub(super) fn matrix_literal(&mut self, start: usize) -> Option<PResult<Tree>> {
        let tokens = &self.tokens;
        let adjacent = |i: usize| tokens[i + 1].start == tokens[i].end;
        let i = self.pos;
        let text = |k: usize| tokens.get(k).map(|t| &self.text[t.start..t.end]);
        let (prefix, open_i) = match (text(i + 1), text(i + 2)) {
            (Some("!"), Some("[")) if adjacent(i) && adjacent(i + 1) => ("!![", i + 2),
            (Some("["), _) if adjacent(i) => ("![", i + 1),
            _ => return None,
        };
        let close = self.matching[open_i].filter(|&c| c < self.limit)?;
        self.pos = open_i + 1;
        if self.pos == close {
            self.pos = close + 1;
            return Some(Ok(self.mk(format!("{prefix}]"), vec![], start)));
        }
        let inner_start = self.offset_here();
        let t = self.region(inner_start, close, |p| {
            let mut items = vec![p.expr(0)?];
            let mut shape = String::from(" _ ");
            loop {
                let sep = if p.at(",") {
                    ","
                } else if p.at(";") {
                    ";"
                } else {
                    break;
                };
                p.pos += 1;
                items.push(p.expr(0)?);
                shape.push_str(sep);
                shape.push_str(" _ ");
            }
            Ok(p.mk(format!("{prefix}{shape}]"), items, inner_start))
        });
        self.pos = close + 1;
        Some(Ok(self.widen(t, start, close)))
    }

    pub(super) fn widen(&mut self, mut t: Tree, start: usize, close: usize) -> Tree {
        let end = self.tokens[close].end;
        if t.unparsed {
            if let Some(last) = self.unparsed.last_mut() {
                last.start = start as u32;
                last.end = end as u32;
            }
            t.label = self.text[start..end].split_whitespace().collect::<Vec<_>>().join(" ");
        }
        t.span = self.span(start, end);
        t
    }

    /// `|x|`, `‖x‖`, `⌊x⌋`, `⌈x⌉₊`: the closer is the first matching symbol after the inner term.
    pub(super) fn enclosed(&mut self, open: &str, closers: &[&str], start: usize) -> PResult<Tree> {
        self.pos += 1;
        let inner = self.expr(0)?;
        match self.peek() {
            Some(c) if closers.contains(&c) => {
                self.pos += 1;
                Ok(self.mk(format!("{open} _ {c}"), vec![inner], start))
            }
            _ => Err(self.err_here("the closing bracket")),
        }
    }

    /// `{ … }`: set builder `{x | p}` / `{x : T | p}` / `{x ∈ S | p}`, subtype `{x // p}`, set
    /// literal `{a, b}`, empty `{}`.
    pub(super) fn brace(&mut self, start: usize) -> PResult<Tree> {
        let Some((open, close)) = self.enter_brackets(start, "{")? else {
            return Ok(self.mk("∅", vec![], start));
        };
        let inner_start = self.offset_here();
        if self.tokens[open + 1].kind == TokenKind::Ident
            && open + 2 < close
            && self.tok_text(open + 2) == ":="
        {
            return self.structure_instance(open, close, start);
        }
        // Find a top-level `|` or `//` separator.
        // `{|x| | …}` is rare; the first top-level bar after a binder-shaped prefix.
        let sep = self.first_outside_brackets(open + 1, close, |t| t == "//" || t == "|");
        let binder_shaped = self.tokens[open + 1].kind == TokenKind::Ident
            && sep.is_some_and(|s| {
                s == open + 2
                    || matches!(
                        self.tok_text(open + 2),
                        ":" | "∈" | "∉" | "<" | "≤" | ">" | "≥" | "⊆" | "⊂" | "≠"
                    )
            });
        let t = if let (Some(sep_i), true) = (sep, binder_shaped) {
            let sep_text = self.tok_text(sep_i);
            let scope_len = self.scope.len();
            let name_i = open + 1;
            let binder = if sep_i == open + 2 {
                self.pos = sep_i;
                self.binder_name(name_i, Bound::Variable)
            } else if self.tok_text(open + 2) == ":" {
                let bstart = self.tokens[name_i].start;
                self.pos = open + 3;
                let ty_start = self.offset_here();
                let ty = self.region(ty_start, sep_i, |p| p.expr(0));
                let name = self.binder_name(name_i, Bound::Variable);
                self.pos = sep_i;
                self.mk(" _ : _ ", vec![name, ty], bstart)
            } else {
                let bstart = self.tokens[name_i].start;
                let op = self.tok_text(open + 2);
                self.pos = open + 3;
                let rhs_start = self.offset_here();
                let rhs = self.region(rhs_start, sep_i, |p| p.expr(0));
                let name = self.binder_name(name_i, Bound::Variable);
                self.pos = sep_i;
                self.mk(format!(" _ {op} _ "), vec![name, rhs], bstart)
            };
            self.pos = sep_i + 1;
            let body_start = self.offset_here();
            let body = self.region(body_start, close, |p| p.expr(0));
            self.scope.truncate(scope_len);
            let label = if sep_text == "//" { "{ _ // _ }" } else { "{ _ | _ }" };
            let mut t = Tree::node(label, vec![binder, body]);
            t.span = self.span(start, self.tokens[close].end);
            t
        } else {
            let t = self.region(inner_start, close, |p| {
                let first = p.expr(0)?;
                if p.at("|") || p.at("//") {
                    // `{(x, y) | p}` or `{f x | x ∈ S}`: a pattern binder.
                    let sep = if p.at("|") { "{ _ | _ }" } else { "{ _ // _ }" };
                    p.pos += 1;
                    let body = p.expr(0)?;
                    return Ok(p.mk(sep, vec![first, body], inner_start));
                }
                let mut items = vec![first];
                while p.at(",") {
                    p.pos += 1;
                    items.push(p.expr(0)?);
                }
                let label = format!("{{ {} }}", vec!["_"; items.len()].join(" , "));
                Ok(p.mk(label, items, inner_start))
            });
            self.widen(t, start, close)
        };
        self.pos = close + 1;
        Ok(t)
    }

    /// `{ re := 0, im := 1 }`: field names stay in the label, values are children.
    pub(super) fn structure_instance(
        &mut self,
        open: usize,
        close: usize,
        start: usize,
    ) -> PResult<Tree> {
        let inner_start = self.tokens[open + 1].start;
        self.pos = open + 1;
        let t = self.region(inner_start, close, |p| {
            let mut fields = Vec::new();
            let mut values = Vec::new();
            loop {
                if p.peek_kind() != Some(TokenKind::Ident) {
                    return Err(p.err_here("a field name"));
                }
                fields.push(p.tok_text(p.pos));
                p.pos += 1;
                p.expect(":=", "`:=`")?;
                values.push(p.expr(0)?);
                if p.at(",") {
                    p.pos += 1;
                } else {
                    break;
                }
            }
            let parts: Vec<String> = fields.iter().map(|f| format!("{f} := _")).collect();
            Ok(p.mk(format!("{{ {} }}", parts.join(" , ")), values, inner_start))
        });
        self.pos = close + 1;
        Ok(self.widen(t, start, close))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::concl;

    #[test]
    fn brackets_sets_and_ascriptions() {
        assert_eq!(
            concl("theorem t : |a - b| + ‖x‖ = ((1 : ℝ) / 3)"),
            "(' _ = _ ' (' _ + _ ' ('| _ |' (' _ - _ ' 'a' 'b')) ('‖ _ ‖' 'x')) \
             (' _ / _ ' ('( _ : _ )' '1' 'ℝ') '3'))"
        );
        assert_eq!(
            concl("theorem t : {x : ℝ | 0 < x} = {1, 2}"),
            "(' _ = _ ' ('{ _ | _ }' (' _ : _ ' 'x'* 'ℝ') (' _ < _ ' '0' 'x'*)) ('{ _ , _ }' '1' '2'))"
        );
    }

    #[test]
    fn a_cdot_makes_its_parentheses_a_function() {
        assert_eq!(
            concl("theorem t : s.sum (· + 1) = 0"),
            "(' _ = _ ' ('s.sum _ ' ('fun _ => _ ' 'x✝₀'* (' _ + _ ' 'x✝₀'* '1'))) '0')"
        );
        // Left to right, one binder per `·`; nested parentheses are their own function.
        assert_eq!(
            concl("theorem t : (f · (· + 1) ·) = g"),
            "(' _ = _ ' ('fun _  _ => _ ' 'x✝₀1'* 'x✝₀2'* ('f _  _  _ ' 'x✝₀1'* \
             ('fun _ => _ ' 'x✝₀'* (' _ + _ ' 'x✝₀'* '1')) 'x✝₀2'*)) 'g')"
        );
        // A lone `(·)` stays the identity's notation.
        assert_eq!(concl("theorem t : f (·) = 0"), "(' _ = _ ' ('f _ ' '·') '0')");
    }
}
