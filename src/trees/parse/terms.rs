//! Terms: the Pratt loop (infix operators, application, field access), leading identifiers and
//! symbols, prefix operators and dependent arrows.
//!
//! Owns expression reading up to the point where a bracket or a binding notation starts; those are
//! `brackets`' and `binding`'s.

use super::operators::{infix_operator, is_name_char, is_structural, Infix};
use super::parser::Parser;
use super::{PResult, MAX_PREC};
use crate::trees::lean_syntax::TERM_KEYWORDS;
use crate::trees::lexer::TokenKind;
use crate::trees::Tree;

impl<'a> Parser<'a> {
    pub(super) fn expr(&mut self, min: u32) -> PResult<Tree> {
        self.enter()?;
        self.depth += 1;
        let r = self.expr_inner(min);
        self.depth -= 1;
        r
    }

    pub(super) fn expr_inner(&mut self, min: u32) -> PResult<Tree> {
        let start = self.offset_here();
        self.leading_min = min;
        let mut lhs = self.leading()?;
        // The precedence of the node `lhs` is: an infix operator's, or the maximum (atoms,
        // applications, prefix notations, which all end before the next infix operator).
        let mut lhs_prec = MAX_PREC;
        while let Some(s) = self.peek() {
            let t = self.tokens[self.pos];
            // Trailing field access / projection: `x.1`, `(f x).le` (no space before the dot).
            if s == "." && !t.space_before {
                if let Some(next) = self.peek_n(1) {
                    let nt = self.tokens[self.pos + 1];
                    if !nt.space_before && matches!(nt.kind, TokenKind::Ident | TokenKind::Number) {
                        self.pos += 2;
                        lhs = self.field_access(lhs, next, start);
                        continue;
                    }
                }
            }
            // Postfix operators (Mathlib `postfix:max "⁻¹"`, `notation:10000 n "!"`,
            // `postfix:max "ᶜ"`).
            if matches!(s, "⁻¹" | "ᶜ" | "ᵀ" | "†") {
                self.pos += 1;
                lhs = self.mk(s, vec![lhs], start);
                continue;
            }
            if s == "!" {
                self.pos += 1;
                lhs = self.mk("!", vec![lhs], start);
                continue;
            }
            // `R[X]` (Mathlib's `Polynomial R`, `notation:9000 R "[X]"`) and `a[i]` indexing:
            // a bracket right after a term, with no space.
            if s == "[" && !t.space_before {
                if let Some(close) = self.matching[self.pos].filter(|&c| c < self.limit) {
                    if close == self.pos + 2 && self.tok_text(self.pos + 1) == "X" {
                        self.pos = close + 1;
                        lhs = self.mk(" _ [X]", vec![lhs], start);
                        continue;
                    }
                    self.pos += 1;
                    let i = self.expr(0)?;
                    self.expect("]", "`]` closing the index")?;
                    lhs = self.mk(" _ [ _ ]", vec![lhs, i], start);
                    continue;
                }
            }
            if s == "^[" {
                self.pos += 1;
                let n = self.expr(0)?;
                self.expect("]", "`]` closing `^[`")?;
                lhs = self.mk(" _ ^[ _ ]", vec![lhs, n], start);
                continue;
            }
            if min < MAX_PREC && self.can_start_argument() {
                let mut args = Vec::new();
                while self.can_start_argument() {
                    args.push(self.expr(MAX_PREC)?);
                }
                lhs = self.application(lhs, args, start);
                continue;
            }
            if t.kind == TokenKind::Symbol && !is_structural(s) {
                let op = match infix_operator(s) {
                    Some(op) => op,
                    None if self.is_unknown_infix(s) => Infix { prec: 65, lhs: 65, rhs: 66 },
                    None => break,
                };
                // Lean's trailing loop stops where the operator's precedence is below the
                // level being parsed, or the left operand's below what the operator takes
                // (`a = b = c`: the second `=` takes a left operand at 51); an enclosing level
                // may still take it (`¬a = b = c` is `(¬a = b) = c`), and the statement's end
                // reports what none takes.
                if op.prec < min || lhs_prec < op.lhs {
                    break;
                }
                let prec = op.prec;
                self.pos += 1;
                // `M →ₗ[R] N`, `E →L[𝕜] F`, `M ≃ₗ[R] N`: the scalar ring sits in the operator.
                if s.starts_with(['→', '≃'])
                    && s.chars().count() > 1
                    && self.at("[")
                    && !self.tokens[self.pos].space_before
                {
                    self.pos += 1;
                    let ring = self.expr(0)?;
                    self.expect("]", "`]` closing the scalar ring")?;
                    let rhs = self.expr(prec)?;
                    lhs = self.mk(format!(" _ {s}[ _ ] _ "), vec![lhs, ring, rhs], start);
                    lhs_prec = prec;
                    continue;
                }
                let rhs = self.expr(op.rhs)?;
                lhs_prec = prec;
                let op = match s {
                    "->" => "→",
                    "<->" => "↔",
                    "/\\" => "∧",
                    "\\/" => "∨",
                    "<=" => "≤",
                    ">=" => "≥",
                    other => other,
                };
                // `f a <| b` and `b |> f a` are `f a b`.
                if op == "<|" || op == "$" {
                    lhs = self.applied_further(lhs, rhs, start);
                    continue;
                }
                if op == "|>" {
                    lhs = self.applied_further(rhs, lhs, start);
                    continue;
                }
                if op == "≡" && self.at("[") {
                    if let Some(m) = self.peek_n(1).filter(|m| m.ends_with("MOD")) {
                        self.pos += 2;
                        let n = self.expr(0)?;
                        self.expect("]", "`]` closing the modulus")?;
                        lhs = self.mk(format!(" _ ≡ _ [{m} _ ]"), vec![lhs, rhs, n], start);
                        continue;
                    }
                }
                lhs = self.mk(format!(" _ {op} _ "), vec![lhs, rhs], start);
                continue;
            }
            break;
        }
        Ok(lhs)
    }

    pub(super) fn is_unknown_infix(&self, s: &str) -> bool {
        // A symbol we do not know, used between terms (e.g. a local notation): only when a term
        // follows it.
        !matches!(
            s,
            "∀" | "∃"
                | "∃!"
                | "λ"
                | "¬"
                | "↑"
                | "⇑"
                | "↥"
                | "√"
                | "∑"
                | "∏"
                | "⋃"
                | "⋂"
                | "∫"
                | "⨆"
                | "⋃₀"
                | "⋂₀"
                | "⨅"
                | "("
                | "["
                | "{"
                | "⟨"
                | "⦃"
                | "@"
                | "#"
                | "·"
                | "?"
                | "⊤"
                | "⊥"
                | "∅"
                | "∞"
                | "⋯"
                | "Π"
                | "Σ"
                | "∮"
                | "^["
                | "!"
                | "⁻¹"
                | "ᶜ"
        ) && self.peek_n(1).is_some()
    }

    pub(super) fn field_access(&mut self, obj: Tree, field: &str, start: usize) -> Tree {
        // Merge chains `(e).a.b` into one node ` _ .a.b`.
        let mut t = self.mk(format!(" _ .{field}"), vec![obj], start);
        if t.children.len() == 1
            && t.children[0].label.starts_with(" _ .")
            && !t.children[0].unparsed
        {
            let mut inner = t.children.remove(0);
            if inner.children.len() == 1 {
                t.label = format!("{}.{field}", inner.label);
                t.children = std::mem::take(&mut inner.children);
            } else {
                t.children.insert(0, inner);
            }
        }
        t
    }

    /// `f` applied to one more argument: an application of a name (`Pow ℝ`) takes it as its
    /// next argument, as Lean's curried application does; anything else is applied to it.
    fn applied_further(&mut self, mut f: Tree, arg: Tree, start: usize) -> Tree {
        let named_application = !f.unparsed
            && f.label.ends_with(&" _ ".repeat(f.children.len()))
            && f.label
                .strip_suffix(&" _ ".repeat(f.children.len()))
                .is_some_and(|head| !head.is_empty() && !head.contains(char::is_whitespace))
            && !f.children.is_empty();
        if named_application {
            let label = format!("{} _ ", f.label);
            let mut children = std::mem::take(&mut f.children);
            children.push(arg);
            return self.mk(label, children, start);
        }
        self.application(f, vec![arg], start)
    }

    pub(super) fn application(&mut self, mut head: Tree, args: Vec<Tree>, start: usize) -> Tree {
        let n = args.len();
        let is_name = head.children.is_empty()
            && !head.unparsed
            && !head.variable_freecost
            && !head.hypothesis_freecost
            && head
                .label
                .chars()
                .next()
                .is_some_and(|c| c == '@' || c == '«' || c == '_' || is_name_char(c));
        let is_field =
            head.label.starts_with(" _ .") && !head.label[4..].contains(' ') && !head.unparsed;
        if is_name || head.variable_freecost || head.hypothesis_freecost {
            // The head's text goes in the label (GTED's `f _ `), also for a bound function name.
            let label = format!("{}{}", head.label, " _ ".repeat(n));
            self.mk(label, args, start)
        } else if is_field {
            let label = format!("{}{}", head.label, " _ ".repeat(n));
            let mut children = std::mem::take(&mut head.children);
            children.extend(args);
            self.mk(label, children, start)
        } else {
            let label = " _ ".repeat(n + 1);
            let mut children = vec![head];
            children.extend(args);
            self.mk(label, children, start)
        }
    }

    pub(super) fn can_start_argument(&self) -> bool {
        let Some(s) = self.peek() else { return false };
        let t = &self.tokens[self.pos];
        if let Some((line, col)) = self.column_floor {
            if t.line > line && t.column <= col {
                return false;
            }
        }
        match t.kind {
            TokenKind::Ident => !matches!(
                s,
                "then"
                    | "else"
                    | "at"
                    | "in"
                    | "with"
                    | "from"
                    | "do"
                    | "where"
                    | "by"
                    | "if"
                    | "let"
                    | "have"
                    | "show"
                    | "calc"
                    | "Type"
                    | "Sort"
            ),
            TokenKind::Number | TokenKind::Str | TokenKind::Char => true,
            TokenKind::Symbol => match s {
                "(" | "⟨" | "{" | "↑" | "⇑" | "↥" | "¬" | "√" | "·" | "@" | "⊤" | "⊥" | "∅"
                | "∞" | "⋯" | "⌊" | "⌈" | "?" | "λ" | "#" => true,
                // Mathlib: `atomic("|" noWs) term noWs "|"`: an opening bar is followed
                // without space, a closing one preceded without space.
                "|" | "‖" => {
                    t.space_before
                        && self
                            .tokens
                            .get(self.pos + 1)
                            .is_some_and(|n| !n.space_before && self.pos + 1 < self.limit)
                        && (s == "‖" || self.abs_opens_here())
                }
                "[" => {
                    !self.peek_n(1).is_some_and(|m| m.ends_with("MOD") && self.peek_n(2).is_some())
                }
                _ => false,
            },
        }
    }

    /// `|` in argument position opens `|x|` when a matching `|` follows on the same nesting level.
    pub(super) fn abs_opens_here(&self) -> bool {
        let mut depth = 0i32;
        for i in self.pos + 1..self.limit {
            match self.tok_text(i) {
                "(" | "[" | "{" | "⟨" => depth += 1,
                ")" | "]" | "}" | "⟩" => {
                    depth -= 1;
                    if depth < 0 {
                        return false;
                    }
                }
                "|" if depth == 0 => return i > self.pos + 1,
                _ => {}
            }
        }
        false
    }

    pub(super) fn leading(&mut self) -> PResult<Tree> {
        let Some(s) = self.peek() else {
            return Err(self.err_here("a term"));
        };
        let t = self.tokens[self.pos];
        let start = t.start;
        match t.kind {
            TokenKind::Number
                if s.contains('_') && s.bytes().all(|b| b.is_ascii_digit() || b == b'_') =>
            {
                // `1_000_000` is Lean's `1000000`: `_` only separates digit groups (Lean's
                // `decimalNumberFn`), so the leaf carries the value's digits.
                self.pos += 1;
                Ok(self.mk(s.replace('_', ""), vec![], start))
            }
            TokenKind::Number | TokenKind::Str | TokenKind::Char => {
                self.pos += 1;
                Ok(self.mk(s, vec![], start))
            }
            TokenKind::Ident => self.leading_ident(s, start),
            TokenKind::Symbol => self.leading_symbol(s, start),
        }
    }

    pub(super) fn leading_ident(&mut self, s: &'a str, start: usize) -> PResult<Tree> {
        match s {
            "match" => return self.alternatives("match", start),
            "fun" if self.peek_n(1) == Some("|") => return self.alternatives("fun", start),
            "fun" => {
                self.pos += 1;
                return self.binder_term("fun", start);
            }
            "if" => return self.if_then_else(start),
            "let" | "have" | "haveI" | "letI" => return self.let_term(start),
            "show" => {
                self.pos += 1;
                let ty = self.expr(0)?;
                if self.at("from") || self.at("by") {
                    // The proof part of `show T from e` says nothing about the statement.
                    self.pos = self.limit;
                }
                return Ok(ty);
            }
            "Type" | "Sort" => {
                self.pos += 1;
                if self.at("*") && !self.tokens[self.pos].space_before {
                    self.pos += 1;
                    return Ok(self.mk(format!("{s}*"), vec![], start));
                }
                if self.at("_")
                    || self.peek_kind() == Some(TokenKind::Ident) && !self.at_keyword()
                    || self.peek_kind() == Some(TokenKind::Number)
                    || self.at("(")
                {
                    let u = self.expr(MAX_PREC)?;
                    return Ok(self.mk(format!("{s} _ "), vec![u], start));
                }
                return Ok(self.mk(s, vec![], start));
            }
            "by" => {
                // A tactic proof inside a term: it says nothing about the statement's shape.
                let end = self.limit;
                let from = self.offset_here();
                self.pos = end;
                let to = self.prev_end();
                let mut leaf = Tree::leaf("by");
                leaf.span = self.span(from, to);
                return Ok(leaf);
            }
            _ if TERM_KEYWORDS.contains(&s) && s != "Prop" => {
                return Err(self.err_here("a term"));
            }
            _ => {}
        }
        self.pos += 1;
        // A dotted name whose first part is bound: field access `h.le`, `p.Prime`.
        if !s.starts_with('«') {
            if let Some(dot) = s.find('.') {
                let first = &s[..dot];
                if self.lookup(first).is_some() {
                    let mut obj = Tree::leaf(first);
                    obj.span = self.span(start, start + dot);
                    self.flag(&mut obj, first);
                    let mut t = Tree::node(format!(" _ {}", &s[dot..]), vec![obj]);
                    t.span = self.span(start, start + s.len());
                    return Ok(t);
                }
            }
        }
        let mut leaf = self.mk(s, vec![], start);
        self.flag(&mut leaf, s);
        Ok(leaf)
    }

    /// `(x : T) → P`, `{G : Type*} → …`, `[inst : Group G] → …` (dependent arrows, as Lean
    /// prints them in hover text): the bracket is a binder when an arrow follows it.
    /// Lean's `depArrow` is `leading_parser:25`: not where a term of higher precedence is
    /// expected, so `f (x : T) → P` is `(f (x : T)) → P`, an argument then an arrow.
    pub(super) fn pi_binder_close(&self, s: &str) -> Option<usize> {
        if !matches!(s, "(" | "{" | "[" | "⦃") || self.leading_min > 25 {
            return None;
        }
        let close = self.matching[self.pos].filter(|&c| c + 1 < self.limit)?;
        if !matches!(self.tok_text(close + 1), "→" | "->") {
            return None;
        }
        let first_non_name =
            (self.pos + 1..close).find(|&i| self.tokens[i].kind != TokenKind::Ident)?;
        (first_non_name > self.pos + 1 && self.tok_text(first_non_name) == ":").then_some(close)
    }

    pub(super) fn pi_term(&mut self, close: usize, start: usize) -> PResult<Tree> {
        let scope_len = self.scope.len();
        let binders = self.bracket_binder(self.pos, close);
        self.pos = close + 2;
        let mut body = self.expr(25)?;
        self.scope.truncate(scope_len);
        for b in binders.into_iter().rev() {
            body = self.mk(" _ → _ ", vec![b, body], start);
        }
        Ok(body)
    }

    pub(super) fn leading_symbol(&mut self, s: &'a str, start: usize) -> PResult<Tree> {
        if let Some(close) = self.pi_binder_close(s) {
            return self.pi_term(close, start);
        }
        match s {
            "(" => self.paren(start),
            "{" => self.brace(start),
            "[" => self.bracketed_list("[", "]", start),
            "⟨" => self.bracketed_list("⟨", "⟩", start),
            "|" => self.enclosed("|", &["|"], start),
            "‖" => self.enclosed("‖", &["‖", "‖₊"], start),
            "⌊" => self.enclosed("⌊", &["⌋", "⌋₊"], start),
            "⌈" => self.enclosed("⌈", &["⌉", "⌉₊"], start),
            // Lean 4 `src/Init/Core.lean` `notation:max "¬" p:40 => Not p`;
            // `src/Init/Notation.lean` `prefix:75 "-" => Neg.neg` (so `-x^2` is `-(x^2)`);
            // `src/Init/Coe.lean` `syntax:1024 "↑" term:1024` (also `⇑`, `↥`);
            // Mathlib/Data/Real/Sqrt.lean: `prefix:max "√" => Real.sqrt` (so `√x⁻¹` is
            // `√(x⁻¹)` and `√f x` is `(√f) x`).
            // A leading parser below the level asked for does not apply: `-x` (75) is no
            // argument of `√`, `↑` or a function (`√-x` does not parse).
            "-" if self.leading_min > 75 => {
                Err(self.err_here("a term at this precedence (write `(-x)` in parentheses)"))
            }
            "¬" => self.prefix("¬", 40, start),
            "-" => self.prefix("-", 75, start),
            "↑" | "⇑" | "↥" => self.prefix(s, MAX_PREC, start),
            "√" => self.prefix("√", MAX_PREC, start),
            // Mathlib `prefix:110 "⋃₀ "` (sUnion), `prefix:110 "⋂₀ "`; `#s` (Finset.card,
            // `prefix:max "#"`).
            "⋃₀" | "⋂₀" => self.prefix(s, 110, start),
            "#" => self.prefix("#", MAX_PREC, start),
            // Lean 4 `src/Init/Core.lean`: `notation:max "!" b:40 => not b`, Boolean negation,
            // written as the application it stands for (the postfix `n !` is the factorial).
            "!" => match self.matrix_literal(start) {
                Some(t) => t,
                None => self.prefix("not _ ", 40, start),
            },
            "∀" | "∃" | "∃!" | "λ" | "Π" | "Σ" => {
                self.pos += 1;
                let kw = if s == "λ" { "fun" } else { s };
                self.binder_term(kw, start)
            }
            "∑" | "∏" | "∑'" | "∏'" | "⋃" | "⋂" | "⨆" | "⨅" | "∫" | "∮" | "∀ᶠ" | "∃ᶠ" =>
            {
                self.pos += 1;
                self.big_operator(s, start)
            }
            "@" => {
                self.pos += 1;
                if self.peek_kind() == Some(TokenKind::Ident) {
                    let name = self.tok_text(self.pos);
                    self.pos += 1;
                    Ok(self.mk(format!("@{name}"), vec![], start))
                } else {
                    Err(self.err_here("a name after `@`"))
                }
            }
            "·" | "⊤" | "⊥" | "∅" | "∞" | "⋯" | "?" => {
                self.pos += 1;
                if s == "?" && self.peek_kind() == Some(TokenKind::Ident) {
                    self.pos += 1;
                }
                Ok(self.mk(self.text[start..self.prev_end()].to_string(), vec![], start))
            }
            _ => Err(self.err_here("a term")),
        }
    }

    pub(super) fn prefix(&mut self, op: &str, arg_prec: u32, start: usize) -> PResult<Tree> {
        self.pos += 1;
        let arg = self.expr(arg_prec)?;
        Ok(self.mk(op, vec![arg], start))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{concl, sexp, statement, tree};

    #[test]
    fn field_access_on_bound_names() {
        assert_eq!(
            concl("theorem t (p : ℕ) (hp : p.Prime) : (p + 1).Prime ∧ x.1 = Nat.succ p"),
            "(' _ ∧ _ ' (' _ .Prime' (' _ + _ ' 'p'* '1')) (' _ = _ ' (' _ .1' 'x') ('Nat.succ _ ' 'p'*)))"
        );
        let t = tree("theorem t (p : ℕ) (hp : p.Prime) : True");
        assert!(t.children[0].children[1].children[0].hypothesis_freecost);
    }

    #[test]
    fn broken_subterm_is_one_unparsed_node() {
        let s = statement("theorem t (x : ℝ) : f (x ⊢⊢ :) = 2");
        assert_eq!(s.unparsed.len(), 1);
        let text = sexp(&s.tree);
        assert!(text.contains("'(x ⊢⊢ :)'"), "{text}");
    }

    #[test]
    fn assorted_notations() {
        let cases: &[(&str, &str)] = &[
            (
                "∫ x in (0 : ℝ)..1, x ^ 2 = 1 / 3",
                "(' _ = _ ' ('∫ _  _ , _ ' 'x'* ('in _ ' (' _ .. _ ' ('( _ : _ )' '0' 'ℝ') '1')) (' _ ^ _ ' 'x'* '2')) (' _ / _ ' '1' '3'))",
            ),
            (
                "let y := 2; y + 1 = 3",
                "('let _ := _ ; _ ' 'y'* '2' (' _ = _ ' (' _ + _ ' 'y'* '1') '3'))",
            ),
            (
                "let y := f 2\n  y = 3",
                "('let _ := _ ; _ ' 'y'* ('f _ ' '2') (' _ = _ ' 'y'* '3'))",
            ),
            (
                "(if 0 < 1 then 2 else 3) = ⌊x⌋₊ + ⌈y⌉",
                "(' _ = _ ' ('if _ then _ else _ ' (' _ < _ ' '0' '1') '2' '3') (' _ + _ ' ('⌊ _ ⌋₊' 'x') ('⌈ _ ⌉' 'y')))",
            ),
            (
                "∃! x : ℕ, x ∉ S ∧ a ≡ b [ZMOD n]",
                "('∃! _ , _ ' (' _ : _ ' 'x'* 'ℕ') (' _ ∧ _ ' (' _ ∉ _ ' 'x'* 'S') (' _ ≡ _ [ZMOD _ ]' 'a' 'b' 'n')))",
            ),
            (
                "{x : ℝ // 0 < x} = «weird name» 1e-3 2⁻¹ (·) (↑)",
                "(' _ = _ ' ('{ _ // _ }' (' _ : _ ' 'x'* 'ℝ') (' _ < _ ' '0' 'x'*)) ('«weird name» _  _  _  _ ' '1e-3' ('⁻¹' '2') '·' '↑'))",
            ),
            (
                "∏ i ∈ Finset.Icc 1 n, (i : ℝ) /- a /- nested -/ comment -/ = n !",
                "(' _ = _ ' ('∏ _  _ , _ ' 'i'* ('∈ _ ' ('Finset.Icc _  _ ' '1' 'n')) ('( _ : _ )' 'i'* 'ℝ')) ('!' 'n'))",
            ),
            (
                "∀ f : ℕ → ℕ, f^[2] = f ∘ f",
                "('∀ _ , _ ' (' _ : _ ' 'f'* (' _ → _ ' 'ℕ' 'ℕ')) (' _ = _ ' (' _ ^[ _ ]' 'f'* '2') (' _ ∘ _ ' 'f'* 'f'*)))",
            ),
            (
                "(fun x ↦ x + 1) = λ y => y.succ",
                "(' _ = _ ' ('fun _ => _ ' 'x'* (' _ + _ ' 'x'* '1')) ('fun _ => _ ' 'y'* (' _ .succ' 'y'*)))",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(&concl(&format!("theorem t : {text}")), expected, "{text}");
        }
    }

    /// `infix:p` takes both operands one level up, so a chain of two does not parse; `∈`'s
    /// operands sit at its own level; a prefix operator's argument at `max` refuses `-x`.
    #[test]
    fn operators_chain_as_lean_declares_them() {
        for text in [
            "p ↔ q ↔ r",
            "a = b = c",
            "a ≠ b = c",
            "a < b ≤ c",
            "a ∣ b = c",
            "s \\ t \\ u",
            "s ∩ t \\ u",
            "√-x = 1",
            "↑-n = 1",
            "(h : p ↔ q ↔ r) → p",
        ] {
            let s = statement(&format!("theorem t : {text}"));
            assert!(!s.unparsed.is_empty(), "`{text}` parsed: {}", sexp(&s.tree));
        }
        let cases: &[(&str, &str)] = &[
            // `¬` is `notation:max`: its node takes the second `=` as a left operand.
            ("¬a = b = c", "(' _ = _ ' ('¬' (' _ = _ ' 'a' 'b')) 'c')"),
            ("x ∈ s ∈ T", "(' _ ∈ _ ' 'x' (' _ ∈ _ ' 's' 'T'))"),
            ("a = b ∈ c", "(' _ ∈ _ ' (' _ = _ ' 'a' 'b') 'c')"),
            ("s \\ t ∩ u", "(' _ ∩ _ ' (' _ \\ _ ' 's' 't') 'u')"),
            ("(p ↔ q) ↔ r", "(' _ ↔ _ ' (' _ ↔ _ ' 'p' 'q') 'r')"),
            ("√x⁻¹ = √(f x)", "(' _ = _ ' ('√' ('⁻¹' 'x')) ('√' ('f _ ' 'x')))"),
            ("√f x = 2", "(' _ = _ ' (' _  _ ' ('√' 'f') 'x') '2')"),
            ("a ^ -b = -c * 2", "(' _ = _ ' (' _ ^ _ ' 'a' ('-' 'b')) (' _ * _ ' ('-' 'c') '2'))"),
            // `<|` and `|>` give an application of a name one more argument.
            ("(f a <| b) = (b |> f a)", "(' _ = _ ' ('f _  _ ' 'a' 'b') ('f _  _ ' 'a' 'b'))"),
        ];
        for (text, expected) in cases {
            assert_eq!(&concl(&format!("theorem t : {text}")), expected, "{text}");
        }
    }

    #[test]
    fn filters_series_and_linear_maps() {
        assert_eq!(
            concl("theorem t : (∀ᶠ n in atTop, 0 < a n) ∧ ∑' n, a n = 1 ∧ f = (g : E →L[ℝ] F)"),
            "(' _ ∧ _ ' ('∀ᶠ _  _ , _ ' 'n'* ('in _ ' 'atTop') (' _ < _ ' '0' ('a _ ' 'n'*))) \
             (' _ ∧ _ ' (' _ = _ ' ('∑' _ , _ ' 'n'* ('a _ ' 'n'*)) '1') (' _ = _ ' 'f' \
             ('( _ : _ )' 'g' (' _ →L[ _ ] _ ' 'E' 'ℝ' 'F')))))"
        );
    }
}
