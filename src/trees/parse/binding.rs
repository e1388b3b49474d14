//! Notations that bind names: `∀ ∃ ∃! fun λ` with their binders and binder predicates, big
//! operators (`∑ ∏ ⋃ ⋂ ⨆ ⨅ ∫`), `let`/`have` terms, `if … then … else`, and `match`/`fun`
//! alternatives.
//!
//! Owns how these bind names in scope for their bodies; plain terms are `terms`'.

use super::parser::{Bound, Parser};
use super::{PResult, MAX_PREC};
use crate::trees::lexer::TokenKind;
use crate::trees::Tree;

impl<'a> Parser<'a> {
    /// `match e, … with | p, … => rhs | …` and `fun | p, … => rhs | …`: one node labelled
    /// with the shape (`match _ with | _ => _ | _ => _ `), children the scrutinees, then each
    /// alternative's patterns and right-hand side. The term runs to the end of its region (as
    /// Lean's does); each part is its own region, so a part that cannot be read is one
    /// unparsed node and the rest still parse.
    pub(super) fn alternatives(&mut self, kw: &str, start: usize) -> PResult<Tree> {
        self.pos += 1;
        let end = self.limit;
        let mut children = Vec::new();
        let mut label = kw.to_string();
        if kw == "match" {
            let Some(with) = self.top_level(self.pos, end, |t| t == "with") else {
                return Err(self.err_here("`with` after the `match` scrutinees"));
            };
            let parts = self.split_top_level(self.pos, with);
            label.push_str(&format!(" {} with", vec!["_"; parts.len()].join(" , ")));
            for (a, b) in parts {
                children.push(self.part(a, b));
            }
            self.pos = with + 1;
        }
        // An alternative starts at a top-level `|` whose next top-level `|` or `=>` is `=>`
        // (the bars of `|x|` inside a right-hand side are not followed by `=>`).
        let bars: Vec<usize> = (self.pos..end)
            .filter(|&i| {
                self.tok_text(i) == "|"
                    && self.at_top_level(self.pos, i)
                    && self
                        .top_level(i + 1, end, |t| t == "|" || t == "=>")
                        .is_some_and(|j| self.tok_text(j) == "=>")
            })
            .collect();
        if bars.first() != Some(&self.pos) {
            return Err(self.err_here("`|` starting an alternative"));
        }
        for (k, &bar) in bars.iter().enumerate() {
            let alt_end = bars.get(k + 1).copied().unwrap_or(end);
            let arrow = self
                .top_level(bar + 1, alt_end, |t| t == "=>")
                .expect("BUG: bars were chosen followed by `=>`");
            let patterns = self.split_top_level(bar + 1, arrow);
            label.push_str(&format!(" | {} => _", vec!["_"; patterns.len()].join(" , ")));
            for (a, b) in patterns {
                children.push(self.part(a, b));
            }
            children.push(self.part(arrow + 1, alt_end));
        }
        label.push(' ');
        self.pos = end;
        Ok(self.mk(label, children, start))
    }

    pub(super) fn if_then_else(&mut self, start: usize) -> PResult<Tree> {
        self.pos += 1;
        // `if h : c then …` names the condition; the name is a hypothesis.
        let scope_len = self.scope.len();
        let mut named = None;
        if self.peek_kind() == Some(TokenKind::Ident) && self.peek_n(1) == Some(":") {
            named = Some(self.pos);
            self.pos += 2;
        }
        let c = self.expr(0)?;
        if let Some(n) = named {
            let _ = self.binder_name(n, Bound::Hypothesis);
        }
        self.expect("then", "`then`")?;
        let a = self.expr(0)?;
        self.expect("else", "`else`")?;
        let b = self.expr(0)?;
        self.scope.truncate(scope_len);
        Ok(self.mk("if _ then _ else _ ", vec![c, a, b], start))
    }

    /// `let x := v; body`, `let x : T := v` + newline + body; `have h : P := e; body`.
    pub(super) fn let_term(&mut self, start: usize) -> PResult<Tree> {
        let kw_tok = self.tokens[self.pos];
        let kw = self.tok_text(self.pos);
        self.pos += 1;
        let name_i = self.pos;
        if self.peek_kind() != Some(TokenKind::Ident) {
            return Err(self.err_here("a name"));
        }
        self.pos += 1;
        let mut ty = None;
        if self.at(":") {
            self.pos += 1;
            ty = Some(self.expr(0)?);
        }
        self.expect(":=", "`:=`")?;
        let saved = self.column_floor.replace((kw_tok.line, kw_tok.column));
        let v = self.expr(0);
        self.column_floor = saved;
        let v = v?;
        if self.at(";") {
            self.pos += 1;
        }
        let scope_len = self.scope.len();
        let kind = if kw.starts_with("have") { Bound::Hypothesis } else { Bound::Variable };
        let name = self.binder_name(name_i, kind);
        let body = self.expr(0)?;
        self.scope.truncate(scope_len);
        let kw = kw.trim_end_matches('I');
        Ok(match ty {
            Some(ty) => self.mk(format!("{kw} _ : _ := _ ; _ "), vec![name, ty, v, body], start),
            None => self.mk(format!("{kw} _ := _ ; _ "), vec![name, v, body], start),
        })
    }

    /// `∀ binders, body`, `∃ …`, `∃! …`, `fun binders => body`.
    pub(super) fn binder_term(&mut self, kw: &str, start: usize) -> PResult<Tree> {
        let scope_len = self.scope.len();
        let mut binders = Vec::new();
        let arrow = if kw == "fun" { ["=>", "↦"] } else { [",", ","] };
        loop {
            let Some(s) = self.peek() else {
                return Err(self.err_here("a binder"));
            };
            if arrow.contains(&s) {
                self.pos += 1;
                break;
            }
            match s {
                "(" | "{" | "[" | "⦃" => {
                    let open = self.pos;
                    let close = self.closing(open, self.offset_here(), s)?;
                    // `fun (x, y) => …` and other patterns: keep as one binder term.
                    let looks_like_binder = (open + 1..close)
                        .find(|&i| self.tokens[i].kind != TokenKind::Ident)
                        .is_some_and(|i| self.tok_text(i) == ":")
                        || s == "[";
                    let bare_names = close > open + 1
                        && s == "("
                        && (open + 1..close).all(|i| self.tokens[i].kind == TokenKind::Ident);
                    if bare_names {
                        // `∀ (n) (m), …`: parenthesised names without a type bind like bare ones.
                        for i in open + 1..close {
                            binders.push(self.binder_name(i, Bound::Variable));
                        }
                        self.pos = close + 1;
                    } else if looks_like_binder {
                        let bs = self.bracket_binder(open, close);
                        binders.extend(bs);
                        self.pos = close + 1;
                    } else {
                        // A pattern (`fun (x, y) => …`) binds every name in it.
                        for i in open + 1..close {
                            if self.tokens[i].kind == TokenKind::Ident {
                                let n = self.tok_text(i).to_string();
                                self.scope.push((n, Bound::Variable));
                            }
                        }
                        let bstart = self.offset_here();
                        let pat = self.leading_symbol(s, bstart)?;
                        binders.push(pat);
                    }
                }
                "⟨" => {
                    let bstart = self.offset_here();
                    // Bind every name in the pattern.
                    if let Some(close) = self.matching[self.pos] {
                        for i in self.pos + 1..close {
                            if self.tokens[i].kind == TokenKind::Ident {
                                let n = self.tok_text(i).to_string();
                                self.scope.push((n, Bound::Variable));
                            }
                        }
                    }
                    binders.push(self.bracketed_list("⟨", "⟩", bstart)?);
                }
                ":" => {
                    // `∀ x y : T, body`: the type applies to every bare name so far.
                    self.pos += 1;
                    let ty = self.expr(0)?;
                    let mut typed = Vec::new();
                    for b in binders.drain(..) {
                        if b.children.is_empty() && b.variable_freecost {
                            let span = b.span;
                            let mut t = Tree::node(" _ : _ ", vec![b, ty.clone()]);
                            t.span = span;
                            typed.push(t);
                        } else {
                            typed.push(b);
                        }
                    }
                    binders = typed;
                }
                "∈" | "∉" | "<" | "≤" | ">" | "≥" | "⊆" | "⊂" | "≠" | "∣" => {
                    // Binder predicate `∀ x ∈ S,` / `∃ n > 0,`.
                    self.pos += 1;
                    let op_start = self.tokens[self.pos - 1].start;
                    let rhs = self.expr(51)?;
                    binders.push(self.mk(format!("{s} _ "), vec![rhs], op_start));
                }
                _ if self.peek_kind() == Some(TokenKind::Ident) && !self.at_keyword() => {
                    let b = self.binder_name(self.pos, Bound::Variable);
                    self.pos += 1;
                    binders.push(b);
                }
                _ => return Err(self.err_here("a binder")),
            }
        }
        let body = self.expr(0)?;
        self.scope.truncate(scope_len);
        let n = binders.len();
        let label = if kw == "fun" {
            format!("fun{}=> _ ", " _ ".repeat(n))
        } else {
            format!("{kw}{}, _ ", " _ ".repeat(n))
        };
        let mut children = binders;
        children.push(body);
        Ok(self.mk(label, children, start))
    }

    /// `∑ x ∈ s, f`, `∑ x in s, f`, `∑ i : Fin n, f`, `∑ i < n, f`, `∫ x in a..b, f`.
    /// Mathlib: `∑ … , r:67` (BigOperators), `⋃ … , r:60`, `∫ … , r:60`; the body extends as far
    /// as that precedence allows.
    pub(super) fn big_operator(&mut self, op: &str, start: usize) -> PResult<Tree> {
        let scope_len = self.scope.len();
        let mut children = Vec::new();
        // Binder names (bare or in parentheses with a type).
        loop {
            match self.peek() {
                Some("(") => {
                    let open = self.pos;
                    let Some(close) = self.matching[open].filter(|&c| c < self.limit) else {
                        return Err(self.err_here("`)`"));
                    };
                    children.extend(self.bracket_binder(open, close));
                    self.pos = close + 1;
                }
                Some(s)
                    if self.peek_kind() == Some(TokenKind::Ident)
                        && s != "in"
                        && !self.at_keyword() =>
                {
                    let b = self.binder_name(self.pos, Bound::Variable);
                    self.pos += 1;
                    children.push(b);
                }
                _ => break,
            }
        }
        if children.is_empty() {
            return Err(self.err_here("a bound name"));
        }
        if self.at(":") {
            self.pos += 1;
            let ty = self.expr(51)?;
            children = children
                .into_iter()
                .map(|b| {
                    let span = b.span;
                    let mut t = Tree::node(" _ : _ ", vec![b, ty.clone()]);
                    t.span = span;
                    t
                })
                .collect();
        }
        if let Some(s) = self.peek() {
            let pred = match s {
                "in" | "∈" => Some("∈"),
                "∉" | "<" | "≤" | ">" | "≥" | "⊆" | "≠" | "∣" => Some(s),
                _ => None,
            };
            if let Some(pred) = pred {
                let op_start = self.offset_here();
                self.pos += 1;
                let dom = self.expr(51)?;
                let dom = if self.at("..") {
                    self.pos += 1;
                    let hi = self.expr(51)?;
                    self.mk(" _ .. _ ", vec![dom, hi], op_start)
                } else {
                    dom
                };
                // `∫ x in a..b` and `∀ᶠ x in F` (a filter) are not memberships.
                let label = if matches!(op, "∫" | "∀ᶠ" | "∃ᶠ") && s == "in" {
                    "in _ ".to_string()
                } else {
                    format!("{pred} _ ")
                };
                children.push(self.mk(label, vec![dom], op_start));
            }
        }
        self.expect(",", "`,` after the bound variables")?;
        // Mathlib: `∑ x ∈ s, r:67`, `⋃ i, r:60`, `∫ x, r:60`; `∀ᶠ x in f, p` takes a full term.
        let body_prec = match op {
            "∑" | "∏" | "∑'" | "∏'" => 67,
            "∀ᶠ" | "∃ᶠ" => 0,
            _ => 60,
        };
        let body = self.expr(body_prec)?;
        // `∫ x, f x ∂μ`: the measure.
        let mut body = body;
        if op == "∫" && self.at("∂") {
            let m_start = self.offset_here();
            self.pos += 1;
            let m = self.expr(MAX_PREC)?;
            let md = self.mk("∂", vec![m], m_start);
            body = self.mk(" _  _ ", vec![body, md], m_start);
        }
        self.scope.truncate(scope_len);
        let label = format!("{op}{}, _ ", " _ ".repeat(children.len()));
        children.push(body);
        Ok(self.mk(label, children, start))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{concl, statement};

    #[test]
    fn quantifiers_and_big_operators() {
        assert_eq!(
            concl("theorem t : ∀ x > 0, ∃ n : ℕ, f x = ∑ i in Finset.range n, i + 1"),
            "('∀ _  _ , _ ' 'x'* ('> _ ' '0') ('∃ _ , _ ' (' _ : _ ' 'n'* 'ℕ') \
             (' _ = _ ' ('f _ ' 'x'*) (' _ + _ ' ('∑ _  _ , _ ' 'i'* ('∈ _ ' ('Finset.range _ ' 'n'*)) 'i'*) '1'))))"
        );
    }

    #[test]
    fn match_and_fun_alternatives() {
        assert_eq!(
            concl("theorem t (n : ℕ) : (match n with | 0 => 1 | _ => 2) = 1"),
            "(' _ = _ ' ('match _ with | _ => _ | _ => _ ' 'n'* '0' '1' '_' '2') '1')"
        );
        assert_eq!(
            concl("theorem t : (fun | 0 => |x| | _ => 2) = f"),
            "(' _ = _ ' ('fun | _ => _ | _ => _ ' '0' ('| _ |' 'x') '_' '2') 'f')"
        );
        assert_eq!(
            concl("theorem t : match a, b with | 1, _ => True | _, _ => False"),
            "('match _ , _ with | _ , _ => _ | _ , _ => _ ' 'a' 'b' '1' '_' 'True' '_' '_' 'False')"
        );
        let s = statement("theorem t : match a | 0 => 1");
        assert_eq!(s.unparsed.len(), 1, "no `with`: one unparsed node");
    }
}
