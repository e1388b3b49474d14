//! Lean 4 statement text → operator tree ([`Statement`]), the file header ([`Header`]) and a cheap
//! scan of a whole file for its declarations ([`find_declarations`]).
//!
//! Owns the grammar of theorem statements and the tree shape. It does not own the lexical rules
//! (`lexer`), the [`Tree`] type (`trees`), nor anything about distances. It needs no Lean: the
//! grammar is a Pratt parser whose precedences are Lean 4 core's and Mathlib's (table in
//! `infix_operator`, each entry cites its declaration).
//!
//! # Tree shape
//!
//! GTED's operator-tree conventions (the `*.trees.jsonl` fixtures), with their odd labels fixed.
//! A label is the node's own text with each child replaced by ` _ `:
//!
//! - root `theorem` (also for `lemma` and `example`: they mean the same statement); one child
//!   ` _  _ … : _ ` with one ` _ ` per binder, whose children are the binders then the conclusion
//!   (`: _ ` when there are no binders).
//! - binders: explicit ` _ : _ ` \[name, type\], implicit `{ _ : _ }`, instance `[ _ : _ ]`,
//!   anonymous instance `[ _ ]` \[type\] (GTED: `[]`), strict implicit `⦃ _ : _ ⦄`; a binder with
//!   no type `( _ )`. Several names in one binder are split, one binder per name (GTED did this
//!   for explicit binders only).
//! - infix operators ` _ + _ `; `a ≡ b [ZMOD n]` is ` _ ≡ _ [ZMOD _ ]` (GTED: ` _ ≡ _  _ [ZMOD _ ]`).
//! - prefix/postfix operators keep GTED's bare-symbol labels: `¬`, `-` (negation), `↑`, `⇑`, `↥`,
//!   `√`, `⁻¹`, `!` (factorial), `ᶜ`.
//! - brackets that are operators: `| _ |` (GTED: `||`), `‖ _ ‖` (GTED: `‖‖`), `⌊ _ ⌋`, `⌈ _ ⌉`,
//!   `⌊ _ ⌋₊`, `⌈ _ ⌉₊`; parentheses themselves leave no node.
//! - binders of `∀ ∃ ∃! fun λ`: label `∀ _ , _ ` with one ` _ ` per binder child, then the body;
//!   a binder is a name leaf, ` _ : _ ` when typed (names split as above), `{ _ : _ }` etc. as
//!   written; a binder predicate (`∀ x ∈ S,`, `∃ n > 0,`) adds a child `∈ _ ` / `> _ ` \[S\] after
//!   the name (GTED: `∈`/`>` holding S). `fun` uses `fun _ => _ ` (also for `λ` and `↦`).
//!   GTED keeps one ` _ ` for any number of binders (`∀ _ , _ ` with three children); we count
//!   them, like the signature node does.
//! - dependent arrows as Lean prints them (`{G : Type*} → [Group G] → P`): ` _ → _ ` whose left
//!   child is the binder node. A binder default `(s : ℕ := v)` is ` _ : _ := _ ` \[s, ℕ, v\],
//!   `(s := v)` is ` _ := _ `.
//! - big operators `∑ ∏ ⋃ ⋂ ⨆ ⨅ ∫`: `∑ _  _ , _ ` \[x, `∈ _ `\[S\], body\]; `in S` is read as `∈ S`
//!   (Mathlib's newer spelling); `∫ x in a..b, f` is `∫ _  _ , _ ` \[x, `in _ ` (holding ` _ .. _ `), f\].
//! - application `f _  _ ` with the head's text in the label; a head that is not a name gives
//!   ` _  _ ` with the head as first child. Field access `x.foo` on a bound name or a
//!   parenthesised term is ` _ .foo` \[x\] (GTED: `_._` \[x, foo\]); with arguments ` _ .foo _ `. A
//!   dotted name whose first part is not bound (`Nat.Prime`, `Finset.range`) stays one name.
//! - set builder `{ _ | _ }` \[binder, p\], subtype `{ _ // _ }`, set literal `{ _ , _ }` (GTED:
//!   `{_, _}`), list `[ _ , _ ]`, tuple `( _ , _ )`, anonymous constructor `⟨ _ , _ ⟩`, type
//!   ascription `( _ : _ )` (kept: `(1 : ℝ) / 3` differs from `1 / 3`), `if _ then _ else _ `,
//!   `let _ := _ ; _ ` (`have` alike), `f^[n]` is ` _ ^[ _ ]`, `(↑)` is the leaf `↑`, `R[X]`
//!   (Polynomial) is ` _ [X]`, indexing `a[i]` is ` _ [ _ ]`, a structure instance
//!   `{ re := 0, im := 1 }` keeps its field names: `{ re := _ , im := _ }`. Prefix `#s`
//!   (`Finset.card`), `⋃₀ s`, `⋂₀ s` are bare-symbol nodes like `¬`.
//! - leaves: names, numerals as written (`6.5`, `1e-3`, `1_000`), `Type*`, `·`, `∅` (also for
//!   `{}`), `⊤`, `⋯`, strings. `Type u` / `Sort u` are applications `Type _ `.
//! - `n!` written without a space is one name in Lean 4 (`!` and `?` may end an identifier:
//!   lean4 `src/Init/Meta.lean`, `isIdRest`), a variable Lean auto-binds, never the
//!   factorial `n !`; `x != y` is Boolean `bne` (` _ != _ `), not the proposition `x ≠ y`.
//! - universe parameters `foo.{u}` (hover text) and `open … in`, modifiers, attributes and doc
//!   comments before the keyword are dropped.
//!
//! Flags: `variable_freecost` on every occurrence (including the binding one) of a name bound by
//! the theorem's binders or by `∀ ∃ ∃! fun ∑ ∏ …` and set-builder binders. GTED flags only theorem
//! binders; flagging every bound name is the intent of ASSESS §3.2.1 (bound names are
//! alpha-convertible). `hypothesis_freecost` on hypothesis names: a binder whose type is a
//! proposition, judged syntactically (`is_proposition`): a relation or connective, `∀ ∃ ¬`, an
//! arrow whose codomain is a proposition, or a predicate application (`Nat.Prime p`, `Even n`,
//! `IsLeast S x`, `p.Prime`, known predicate names and `Is*`). When the type is an application
//! of a name we cannot classify (`T2Space X`), Mathlib's naming convention decides: names like
//! `h`, `h₀`, `hx`, `hab` are hypotheses. Data-carrying classes (`Fintype`, `Group`, …) are types.
//! Anonymous hypotheses `(_ : P)` are flagged too. A function name in head position is part of
//! its application's label, so it is not flagged (as in GTED). On the bench's reorganized hover
//! text our theorem-binder flags agree with GTED's on 1399 binders and differ on 4, each a GTED
//! mislabel (`hp : p = fun x => …` flagged as a variable).
//!
//! Recovery: a term that cannot be read becomes ONE leaf with `unparsed: true`, labelled with its
//! whitespace-collapsed text and listed in [`Statement::unparsed`]. Recovery happens at the
//! innermost enclosing bracket pair (`( )`, `{ }`, `[ ]`, `⟨ ⟩`), else at the binder, else at the
//! conclusion. A missing conclusion (e.g. a `--` comment that swallowed it) is the unparsed
//! leaf `sorry` with an empty span. [`ParseError`] is kept for input with no statement shape at
//! all (no keyword, unterminated comment or string, unbalanced brackets in the signature).
//!
//! Header: [`Header::parse`] records imports, `open` namespaces (`open X in`, `open scoped X`),
//! and `notation`/`infix` lines. Our grammar always enables the notations these scopes would
//! (`∑`, `π`, `√`, `!`), so the header does not change the tree; it is kept so callers can show
//! and compare it.
//!
//! Statement end: the first `:=` (or `where`) outside brackets that is not the `:=` of a
//! `let`/`have` inside the statement.
//!
//! Cost: about linear in the number of tokens (a Pratt parser; lookahead scans for set-builder
//! separators, `|x|` closers and binder shapes stay inside the enclosing brackets). Nesting deeper
//! than [`MAX_DEPTH`] fails that subterm (recovered as an unparsed node) instead of overflowing the
//! stack. All 596 bench statements parse in about 5.4 ms in a release build (best of 20, on the
//! shared 2-core machine: `cargo test --release --test parse_bench time_to -- --ignored
//! --nocapture`).

use super::lean_syntax::{
    DECLARATION_ENDING_COMMANDS, DECLARATION_MODIFIERS, NOTATION_COMMANDS, STATEMENT_KEYWORDS,
    TERM_KEYWORDS,
};
use super::lexer::{lex, LexErrorKind, Token, TokenKind};
use super::{Span, Statement, Tree};
use std::sync::Arc;

/// Deepest term nesting the parser follows before giving up with [`ParseErrorKind::TooDeep`].
/// The fixtures need 16; 64 leaves room and fits a 2 MiB thread stack even in a debug build
/// (`tests/parse_fuzz.rs` nests 5,000 deep on such a thread).
pub const MAX_DEPTH: usize = 64;

/// Lean's `max` precedence (application arguments are parsed at it).
const MAX_PREC: u32 = 1024;

/// A statement that could not be read, with its place in the text given to the parser.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in chars.
    pub column: usize,
    /// Byte offset.
    pub offset: usize,
    pub kind: ParseErrorKind,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    #[error("no `theorem`, `lemma` or `example` keyword found")]
    NoDeclaration,
    #[error("expected {expected}, found `{found}`")]
    Unexpected {
        expected: &'static str,
        found: String,
    },
    #[error("expected {expected}, found the end of the statement")]
    UnexpectedEnd { expected: &'static str },
    #[error("`{open}` is never closed")]
    Unclosed { open: String },
    #[error("unterminated comment")]
    UnterminatedComment,
    #[error("unterminated string literal")]
    UnterminatedString,
    #[error("terms nested deeper than {MAX_DEPTH} levels")]
    TooDeep,
    #[error("statement too long: {bytes} bytes (limit {MAX_STATEMENT_BYTES})")]
    TooLong { bytes: usize },
}

/// Longest statement (from its keyword to its `:=`) the parser reads. Real statements are a few
/// hundred bytes (the bundled datasets' longest is under 2 KB); past a mebibyte the text is
/// degenerate, and refusing it bounds the tree (about 260,000 nodes at most), its memory and
/// every walk over it — in the proxy too, where a 5.9 MB theorem must not slow the editor.
pub const MAX_STATEMENT_BYTES: usize = 1 << 20;

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
fn strip_line_comment(line: &str, depth: &mut usize) -> String {
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

/// One declaration found by [`find_declarations`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// `theorem`, `lemma` or `example`.
    pub keyword: &'static str,
    /// The declared name (`None` for `example`). Shared: a re-scan after an edit copies the
    /// declarations it did not re-lex (`features::engine`), a pointer each, not a string.
    pub name: Option<Arc<str>>,
    /// Byte range of the whole declaration, modifiers/attributes/doc comment and proof included.
    pub start: usize,
    pub end: usize,
    /// Byte range of the name.
    pub name_range: Option<(usize, usize)>,
    /// Byte offset of the top-level `:=` (or `where`/`|`), or `end` when there is none.
    pub statement_end: usize,
}

/// Scan a whole `.lean` file for `theorem`/`lemma`/`example` declarations (comments, strings and
/// nested blocks respected). A declaration ends where the next command starts at column 0 (or at
/// the end of the file).
pub fn find_declarations(file_text: &str) -> Vec<Declaration> {
    let tokens = match lex(file_text, false) {
        Ok(t) => t,
        Err(_) => return Vec::new(),
    };
    let text = |t: &Token| &file_text[t.start..t.end];
    // Command starts: command words first on their line, at or left of `column` (a declaration
    // indented inside a namespace ends at the next command of the same indentation). `#eval`
    // lexes as `#` + ident.
    let is_command_start = |i: usize, column: usize| -> bool {
        let t = &tokens[i];
        let first_on_line = i == 0 || tokens[i - 1].line != t.line;
        if !first_on_line || t.column > column {
            return false;
        }
        let s = text(t);
        if s == "#" {
            return tokens.get(i + 1).is_some_and(|n| n.start == t.end);
        }
        DECLARATION_ENDING_COMMANDS.contains(&s)
    };
    let mut out = Vec::new();
    let mut depth = 0i32;
    for (i, t) in tokens.iter().enumerate() {
        let s = text(t);
        match s {
            "(" | "[" | "{" | "⟨" | "⦃" | "@[" => depth += 1,
            ")" | "]" | "}" | "⟩" | "⦄" => depth = (depth - 1).max(0),
            _ => {}
        }
        if t.column == 0 {
            depth = 0;
        }
        let Some(keyword) = STATEMENT_KEYWORDS.iter().copied().find(|&k| k == s) else {
            continue;
        };
        if t.kind != TokenKind::Ident {
            continue;
        }
        if depth > 0 && t.column != 0 {
            continue;
        }
        // Walk back over modifiers and attributes to the declaration's real start.
        let mut start = t.start;
        let mut j = i;
        while j > 0 {
            let p = &tokens[j - 1];
            let ps = text(p);
            if p.kind == TokenKind::Ident && DECLARATION_MODIFIERS.contains(&ps) {
                start = p.start;
                j -= 1;
            } else if ps == "]" {
                // An attribute `@[...]`: find its opener.
                let mut k = j - 1;
                let mut d = 0i32;
                let mut found = None;
                loop {
                    match text(&tokens[k]) {
                        "]" => d += 1,
                        "[" => d -= 1,
                        "@[" => {
                            d -= 1;
                            if d == 0 {
                                found = Some(k);
                            }
                        }
                        _ => {}
                    }
                    if d <= 0 || k == 0 {
                        break;
                    }
                    k -= 1;
                }
                match found {
                    Some(k) => {
                        start = tokens[k].start;
                        j = k;
                    }
                    None => break,
                }
            } else {
                break;
            }
        }
        // A doc comment directly before belongs to the declaration.
        start = extend_over_doc_comment(file_text, start);
        // End: the next command start at this declaration's indentation or left of it.
        let column = tokens[j].column;
        let end = (i + 1..tokens.len())
            .find(|&k| is_command_start(k, column))
            .map_or(file_text.len(), |k| {
                extend_back_over_prefix(file_text, &tokens, k, i)
            });
        // Trailing comments and blank lines belong to nobody: end at the last token.
        let end = tokens[i..]
            .iter()
            .take_while(|n| n.start < end)
            .last()
            .map_or(t.end, |n| n.end);
        let (name, name_range) = match tokens.get(i + 1) {
            Some(n) if s != "example" && n.kind == TokenKind::Ident && n.start < end => {
                (Some(Arc::from(text(n))), Some((n.start, n.end)))
            }
            _ => (None, None),
        };
        let statement_end = statement_end_in(file_text, &tokens, i + 1, end);
        out.push(Declaration {
            keyword,
            name,
            start,
            end,
            name_range,
            statement_end,
        });
    }
    out
}

/// The previous declaration ends before the attributes/modifiers/doc comment of the next command.
fn extend_back_over_prefix(file_text: &str, tokens: &[Token], k: usize, floor: usize) -> usize {
    let mut start = tokens[k].start;
    // Doc comment or comment lines directly above belong to the next command.
    start = extend_over_doc_comment(file_text, start);
    let floor_end = tokens[floor].end;
    start.max(floor_end)
}

/// If a `/-- ... -/` doc comment ends right before `start` (only whitespace between), return its
/// start.
fn extend_over_doc_comment(file_text: &str, start: usize) -> usize {
    let before = file_text[..start].trim_end();
    if !before.ends_with("-/") {
        return start;
    }
    // Find the matching opener, counting nesting backwards.
    let bytes = before.as_bytes();
    let mut i = before.len() - 2;
    let mut depth = 1usize;
    while i >= 2 {
        if &bytes[i - 2..i] == b"-/" {
            depth += 1;
            i -= 2;
        } else if &bytes[i - 2..i] == b"/-" {
            depth -= 1;
            i -= 2;
            if depth == 0 {
                return if before[i..].starts_with("/--") {
                    i
                } else {
                    start
                };
            }
        } else {
            i -= 1;
        }
    }
    start
}

/// Offset of the top-level `:=`/`where` from token `from`, or `end`.
fn statement_end_in(file_text: &str, tokens: &[Token], from: usize, end: usize) -> usize {
    let upto = tokens[from.min(tokens.len())..]
        .iter()
        .take_while(|t| t.start < end)
        .count();
    match statement_end_token(file_text, &tokens[from.min(tokens.len())..][..upto]) {
        Some(i) => tokens[from + i].start,
        None => end,
    }
}

/// Index (in `tokens`) of the `:=`/`where` that ends a statement: outside brackets, and not the
/// `:=` of a `let`/`have` inside the statement (`: let x := 2; x = 2 := rfl`).
fn statement_end_token(file_text: &str, tokens: &[Token]) -> Option<usize> {
    let mut depth = 0i32;
    let mut pending_lets = 0usize;
    for (i, t) in tokens.iter().enumerate() {
        let s = &file_text[t.start..t.end];
        // A command at the start of a line ends a statement whose `:=` is missing (mid-edit).
        let starts_line = i > 0 && tokens[i - 1].line != t.line;
        if starts_line && t.column == 0 && (DECLARATION_ENDING_COMMANDS.contains(&s) || s == "#") {
            return Some(i);
        }
        match s {
            "(" | "[" | "{" | "⟨" | "⦃" | "@[" | "^[" => depth += 1,
            ")" | "]" | "}" | "⟩" | "⦄" => depth -= 1,
            "let" | "have" | "haveI" | "letI" if depth <= 0 => pending_lets += 1,
            ":=" if depth <= 0 && pending_lets > 0 => pending_lets -= 1,
            ":=" | "where" if depth <= 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// Parse the declaration `decl` found in `file_text`; spans and error positions are relative to
/// the file.
pub fn parse_declaration_in(
    file_text: &str,
    decl: &Declaration,
    header: &Header,
) -> Result<Statement, ParseError> {
    let start = decl.start.min(file_text.len());
    let end = decl.end.clamp(start, file_text.len());
    let (start, end) = (
        floor_char_boundary(file_text, start),
        floor_char_boundary(file_text, end),
    );
    let slice = &file_text[start..end];
    match parse_statement(slice, header) {
        Ok(mut st) => {
            shift_tree(&mut st.tree, start as u32);
            for s in &mut st.unparsed {
                s.start += start as u32;
                s.end += start as u32;
            }
            Ok(st)
        }
        Err(e) => Err(error_at(file_text, start + e.offset, e.kind)),
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn shift_tree(t: &mut Tree, by: u32) {
    if by == 0 {
        return;
    }
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        if let Some(s) = &mut t.span {
            s.start += by;
            s.end += by;
        }
        stack.extend(t.children.iter_mut());
    }
}

fn error_at(text: &str, offset: usize, kind: ParseErrorKind) -> ParseError {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = text[line_start..offset].chars().count() + 1;
    ParseError {
        line,
        column,
        offset,
        kind,
    }
}

/// Parse one declaration `theorem|lemma|example name binders : type := proof` (the proof is
/// dropped; modifiers, attributes and doc comments before the keyword are skipped). Spans are byte
/// offsets into `text`.
pub fn parse_statement(text: &str, header: &Header) -> Result<Statement, ParseError> {
    let _ = header; // See the module doc: the grammar does not depend on the header.
    let tokens = lex(text, true).map_err(|e| {
        error_at(
            text,
            e.offset,
            match e.kind {
                LexErrorKind::UnterminatedComment => ParseErrorKind::UnterminatedComment,
                LexErrorKind::UnterminatedString => ParseErrorKind::UnterminatedString,
            },
        )
    })?;
    let mut p = Parser::new(text, tokens);
    p.statement()
}

/// The names bound around the current position, innermost last, with an index by name so that
/// a lookup costs the same however many binders a statement has (a linear scan made parsing
/// quadratic in the number of hypotheses: 11,000 of them took 3 s).
#[derive(Default)]
struct Scope {
    entries: Vec<(String, Bound)>,
    /// For each name, the indices of its entries, innermost last.
    index: std::collections::HashMap<String, Vec<usize>>,
}

impl Scope {
    fn push(&mut self, (name, bound): (String, Bound)) {
        self.index
            .entry(name.clone())
            .or_default()
            .push(self.entries.len());
        self.entries.push((name, bound));
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// Forget every binding made after the first `len`.
    fn truncate(&mut self, len: usize) {
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

    fn lookup(&self, name: &str) -> Option<Bound> {
        let i = *self.index.get(name)?.last()?;
        Some(self.entries[i].1)
    }
}

/// How a name was bound, for flags on its occurrences.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Variable,
    Hypothesis,
}

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    /// For each opening bracket token, the index of its closing token (same kind), if any.
    matching: Vec<Option<usize>>,
    pos: usize,
    /// Exclusive token index where the current region ends (a closing bracket, `:=`).
    limit: usize,
    scope: Scope,
    unparsed: Vec<Span>,
    depth: usize,
    /// Inside `let x := v`, application arguments on a later line must be right of this column.
    column_floor: Option<(usize, usize)>,
}

type PResult<T> = Result<T, ParseError>;

fn closer_of(open: &str) -> Option<&'static str> {
    Some(match open {
        "(" => ")",
        "[" | "@[" | "^[" => "]",
        "{" => "}",
        "⟨" => "⟩",
        "⦃" => "⦄",
        _ => return None,
    })
}

fn is_closer(s: &str) -> bool {
    matches!(s, ")" | "]" | "}" | "⟩" | "⦄")
}

/// Infix operators: (precedence, right-associative). Sources: Lean 4 `src/Init/Prelude.lean` and
/// `src/Init/Notation.lean` (`infixr:25 " → "`, `infix:20 " ↔ "`, `infixr:30 " ∨ "`,
/// `infixr:35 " ∧ "`, `infix:50 " = "`/`≠ < > ≤ ≥ ∈ ∉ ⊆ ⊂ ∣`, `infixl:65 " + "`/`-`,
/// `infixl:70 " * "`/`/ %`, `infixr:75 " ^ "`, `infixr:90 " ∘ "`, `infixl:65 " ++ "`,
/// `infixr:67 " :: "`, `infixr:35 " × "`, `infixr:10 " <| "`, `infixl:10 " |> "`,
/// `infixl:70 " ∩ "`, `infixl:65 " ∪ "`, `infix:70 " \\ "`); Mathlib (`infixr:73 " • "`,
/// `infixl:69 " ⊓ "`, `infixl:68 " ⊔ "`, `infixl:100 " ∆ "`, `infixl:80 " ⁻¹' "`,
/// `infixl:80 " '' "` (Set.image), `notation:35 G " ⧸ " H:34`, `infixr:25 " →* "`/`≃*`/`→+*`,
/// `infixl:25 " ≃ "`, `notation:50 a " ≡ " b " [ZMOD " n "]"`, `infixr:82 " ×ˢ "`,
/// `infixl:72 " ⬝ᵥ "`). Unknown symbols between two terms are read as infix at 65 (documented
/// fallback; the statement still parses and the symbol keeps its text).
fn infix_operator(op: &str) -> Option<(u32, bool)> {
    Some(match op {
        "<|" | "$" => (10, true),
        "|>" => (10, false),
        "↔" | "<->" => (20, false),
        "→" | "->" | "→*" | "→+" | "→+*" | "≃*" | "≃+" | "≃+*" | "→ₗ" | "≃ₗ" | "→L" => {
            (25, true)
        }
        "≃" | "≅" => (25, false),
        "∨" | "\\/" | "⊕" => (30, true),
        "∧" | "/\\" | "×" | "×ₗ" => (35, true),
        "⧸" => (35, false),
        "=" | "==" | "≠" | "!=" | "<" | ">" | "≤" | "≥" | "<=" | ">=" | "∈" | "∉" | "⊆" | "⊂"
        | "⊇" | "⊃" | "⊊" | "∣" | "∤" | "≡" | "≈" | "≪" | "≺" | "≼" => {
            (50, false)
        }
        "+" | "-" | "∪" | "++" | "||" => (65, false),
        "::" => (67, true),
        "*" | "/" | "%" | "∩" | "\\" | "&&" | "∗" => (70, false),
        "⬝ᵥ" => (72, false),
        "•" => (73, true),
        "^" => (75, true),
        "⁻¹'" | "''" => (80, false),
        "×ˢ" => (82, true),
        "∘" => (90, true),
        "∆" | "⊗" => (100, false),
        _ => return None,
    })
}

/// Symbols that can never be an infix operator (they end or structure a term).
fn is_structural(s: &str) -> bool {
    matches!(
        s,
        ")" | "]"
            | "}"
            | "⟩"
            | "⦄"
            | ","
            | ":"
            | ":="
            | ";"
            | "|"
            | "‖"
            | "‖₊"
            | "⌋"
            | "⌉"
            | "⌋₊"
            | "⌉₊"
            | "=>"
            | "↦"
            | "//"
            | ".."
            | "."
            | "@["
    )
}

/// Predicate names (last component) whose applications are propositions.
const PREDICATES: &[&str] = &[
    "Prime",
    "Even",
    "Odd",
    "Continuous",
    "ContinuousOn",
    "ContinuousAt",
    "Differentiable",
    "DifferentiableAt",
    "DifferentiableOn",
    "HasDerivAt",
    "Injective",
    "Surjective",
    "Bijective",
    "InjOn",
    "SurjOn",
    "BijOn",
    "MapsTo",
    "Monotone",
    "Antitone",
    "StrictMono",
    "StrictAnti",
    "MonotoneOn",
    "AntitoneOn",
    "StrictMonoOn",
    "StrictAntiOn",
    "Irrational",
    "Squarefree",
    "Coprime",
    "Summable",
    "Tendsto",
    "Nonempty",
    "Countable",
    "Finite",
    "Infinite",
    "Disjoint",
    "Irreducible",
    "Normal",
    "Dense",
    "Nodup",
    "Sorted",
    "Pairwise",
    "Periodic",
    "Integrable",
    "Measurable",
    "Filter.Tendsto",
    "Fact",
    "Nat.Coprime",
    "Prime",
    "Subsingleton",
    "CauchySeq",
    "Convex",
    "ConvexOn",
    "ConcaveOn",
    "UniformContinuous",
    "Function.Injective",
    "Function.Surjective",
    "Cofinite",
    "Separable",
    "Solvable",
    "Commute",
    "Bounded",
    "BddAbove",
    "BddBelow",
    "Ne",
    "Eq",
    "Not",
    "And",
    "Or",
    "Iff",
    "Set.Finite",
    "Set.Infinite",
    "True",
    "False",
];

impl<'a> Parser<'a> {
    fn new(text: &'a str, tokens: Vec<Token>) -> Parser<'a> {
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
        }
    }

    fn tok_text(&self, i: usize) -> &'a str {
        let t = &self.tokens[i];
        &self.text[t.start..t.end]
    }

    fn peek(&self) -> Option<&'a str> {
        self.peek_n(0)
    }

    fn peek_n(&self, n: usize) -> Option<&'a str> {
        let i = self.pos + n;
        if i < self.limit {
            Some(self.tok_text(i))
        } else {
            None
        }
    }

    fn peek_kind(&self) -> Option<TokenKind> {
        (self.pos < self.limit).then(|| self.tokens[self.pos].kind)
    }

    fn at(&self, s: &str) -> bool {
        self.peek() == Some(s)
    }

    fn offset_here(&self) -> usize {
        if self.pos < self.tokens.len() {
            self.tokens[self.pos].start
        } else {
            self.text.len()
        }
    }

    /// End offset of the previous token (start of the text when none).
    fn prev_end(&self) -> usize {
        if self.pos == 0 {
            0
        } else {
            self.tokens[self.pos - 1].end
        }
    }

    fn err_here(&self, expected: &'static str) -> ParseError {
        match self.peek() {
            Some(found) => error_at(
                self.text,
                self.offset_here(),
                ParseErrorKind::Unexpected {
                    expected,
                    found: found.to_string(),
                },
            ),
            None => error_at(
                self.text,
                self.limit_offset(),
                ParseErrorKind::UnexpectedEnd { expected },
            ),
        }
    }

    fn limit_offset(&self) -> usize {
        if self.limit < self.tokens.len() {
            self.tokens[self.limit].start
        } else {
            self.text.len()
        }
    }

    fn expect(&mut self, s: &str, expected: &'static str) -> PResult<()> {
        if self.at(s) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err_here(expected))
        }
    }

    fn span(&self, start: usize, end: usize) -> Option<Span> {
        Some(Span {
            start: start as u32,
            end: end as u32,
        })
    }

    fn mk(&self, label: impl Into<String>, children: Vec<Tree>, start: usize) -> Tree {
        let mut t = Tree::node(label, children);
        t.span = self.span(start, self.prev_end().max(start));
        t
    }

    fn unparsed_leaf(&mut self, start: usize, end: usize) -> Tree {
        let raw = self.text.get(start..end).unwrap_or("");
        let label = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut t = Tree::leaf(label);
        t.span = self.span(start, end);
        t.unparsed = true;
        self.unparsed.push(Span {
            start: start as u32,
            end: end as u32,
        });
        t
    }

    // ---------------------------------------------------------------- statement

    fn statement(&mut self) -> PResult<Statement> {
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
            return Err(error_at(
                self.text,
                self.offset_here(),
                ParseErrorKind::NoDeclaration,
            ));
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
                ParseErrorKind::Unclosed {
                    open: self.tok_text(open).into(),
                },
            ));
        }
        let statement_end = if end_tok < self.tokens.len() {
            self.tokens[end_tok].start
        } else {
            self.text.len()
        };
        if statement_end - source_start > MAX_STATEMENT_BYTES {
            return Err(error_at(
                self.text,
                source_start,
                ParseErrorKind::TooLong {
                    bytes: statement_end - source_start,
                },
            ));
        }
        let source = self.text[source_start..statement_end]
            .trim_end()
            .to_string();

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
        Ok(Statement {
            keyword,
            name,
            source,
            tree: root,
            unparsed,
        })
    }

    fn missing_conclusion(&mut self, at: usize) -> Tree {
        let mut t = self.unparsed_leaf(at, at);
        t.label = "sorry".to_string();
        t
    }

    /// Parse tokens `self.pos..end` with `f`; whatever cannot be read becomes one unparsed leaf
    /// spanning from `start` to the region's end.
    fn region(
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
    fn bracket_binder(&mut self, open: usize, close: usize) -> Vec<Tree> {
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
        let default_at = {
            let mut depth = 0i32;
            let mut found = None;
            for k in i..close {
                match self.tok_text(k) {
                    "(" | "[" | "{" | "⟨" | "⦃" => depth += 1,
                    ")" | "]" | "}" | "⟩" | "⦄" => depth -= 1,
                    ":=" if depth == 0 => {
                        found = Some(k);
                        break;
                    }
                    _ => {}
                }
            }
            found
        };
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
            let label = if pre.is_empty() {
                " _ := _ ".to_string()
            } else {
                label
            };
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
                let label = if pre.is_empty() {
                    "( _ )".to_string()
                } else {
                    format!("{pre} _ {post}")
                };
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
    fn looks_like_hypothesis_name(&self, names: &[usize]) -> bool {
        names.iter().all(|&n| {
            let s = self.tok_text(n);
            s.starts_with('h')
                && (s.chars().count() <= 5
                    || s.contains('_')
                    || s.chars()
                        .any(|c| c.is_ascii_digit() || ('₀'..='₉').contains(&c)))
        })
    }

    /// The leaf for a binder name at token `i`, flagged and pushed into scope.
    fn binder_name(&mut self, i: usize, kind: Bound) -> Tree {
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

    fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            return Err(error_at(
                self.text,
                self.offset_here(),
                ParseErrorKind::TooDeep,
            ));
        }
        Ok(())
    }

    fn expr(&mut self, min: u32) -> PResult<Tree> {
        self.enter()?;
        self.depth += 1;
        let r = self.expr_inner(min);
        self.depth -= 1;
        r
    }

    fn expr_inner(&mut self, min: u32) -> PResult<Tree> {
        let start = self.offset_here();
        let mut lhs = self.leading()?;
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
                let (prec, right) = match infix_operator(s) {
                    Some(p) => p,
                    None if self.is_unknown_infix(s) => (65, false),
                    None => break,
                };
                if prec < min {
                    break;
                }
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
                    continue;
                }
                let rhs = self.expr(if right { prec } else { prec + 1 })?;
                let op = match s {
                    "->" => "→",
                    "<->" => "↔",
                    "/\\" => "∧",
                    "\\/" => "∨",
                    "<=" => "≤",
                    ">=" => "≥",
                    other => other,
                };
                if op == "<|" || op == "$" {
                    lhs = self.application(lhs, vec![rhs], start);
                    continue;
                }
                if op == "|>" {
                    lhs = self.application(rhs, vec![lhs], start);
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

    fn is_unknown_infix(&self, s: &str) -> bool {
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

    fn field_access(&mut self, obj: Tree, field: &str, start: usize) -> Tree {
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

    fn application(&mut self, mut head: Tree, args: Vec<Tree>, start: usize) -> Tree {
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

    fn can_start_argument(&self) -> bool {
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
                "[" => !self
                    .peek_n(1)
                    .is_some_and(|m| m.ends_with("MOD") && self.peek_n(2).is_some()),
                _ => false,
            },
        }
    }

    /// `|` in argument position opens `|x|` when a matching `|` follows on the same nesting level.
    fn abs_opens_here(&self) -> bool {
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

    fn leading(&mut self) -> PResult<Tree> {
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

    /// `match e, … with | p, … => rhs | …` and `fun | p, … => rhs | …`: one node labelled
    /// with the shape (`match _ with | _ => _ | _ => _ `), children the scrutinees, then each
    /// alternative's patterns and right-hand side. The term runs to the end of its region (as
    /// Lean's does); each part is its own region, so a part that cannot be read is one
    /// unparsed node and the rest still parse.
    fn alternatives(&mut self, kw: &str, start: usize) -> PResult<Tree> {
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
            label.push_str(&format!(
                " | {} => _",
                vec!["_"; patterns.len()].join(" , ")
            ));
            for (a, b) in patterns {
                children.push(self.part(a, b));
            }
            children.push(self.part(arrow + 1, alt_end));
        }
        label.push(' ');
        self.pos = end;
        Ok(self.mk(label, children, start))
    }

    /// Tokens `a..b` as one term (an unparsed node when they are not one).
    fn part(&mut self, a: usize, b: usize) -> Tree {
        self.pos = a;
        let from = self.tokens.get(a).map_or(self.prev_end(), |t| t.start);
        if a >= b {
            return self.unparsed_leaf(from, from);
        }
        self.region(from, b, |p| p.expr(0))
    }

    /// Whether token `i` is outside every bracket opened from `from` on.
    fn at_top_level(&self, from: usize, i: usize) -> bool {
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

    /// The first token in `from..to` outside brackets for which `is` holds.
    fn top_level(&self, from: usize, to: usize, is: impl Fn(&str) -> bool) -> Option<usize> {
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
    fn split_top_level(&self, from: usize, to: usize) -> Vec<(usize, usize)> {
        let mut parts = Vec::new();
        let mut a = from;
        while let Some(comma) = self.top_level(a, to, |t| t == ",") {
            parts.push((a, comma));
            a = comma + 1;
        }
        parts.push((a, to));
        parts
    }

    fn leading_ident(&mut self, s: &'a str, start: usize) -> PResult<Tree> {
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

    fn at_keyword(&self) -> bool {
        self.peek().is_some_and(|s| TERM_KEYWORDS.contains(&s))
    }

    fn lookup(&self, name: &str) -> Option<Bound> {
        self.scope.lookup(name)
    }

    fn flag(&self, t: &mut Tree, name: &str) {
        match self.lookup(name) {
            Some(Bound::Variable) => t.variable_freecost = true,
            Some(Bound::Hypothesis) => t.hypothesis_freecost = true,
            None => {}
        }
    }

    /// `(x : T) → P`, `{G : Type*} → …`, `[inst : Group G] → …` (dependent arrows, as Lean
    /// prints them in hover text): the bracket is a binder when an arrow follows it.
    fn pi_binder_close(&self, s: &str) -> Option<usize> {
        if !matches!(s, "(" | "{" | "[" | "⦃") {
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

    fn pi_term(&mut self, close: usize, start: usize) -> PResult<Tree> {
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

    fn leading_symbol(&mut self, s: &'a str, start: usize) -> PResult<Tree> {
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
            // Mathlib `Real.Sqrt`: `prefix:100 "√" => Real.sqrt`.
            "¬" => self.prefix("¬", 40, start),
            "-" => self.prefix("-", 75, start),
            "↑" | "⇑" | "↥" => self.prefix(s, MAX_PREC, start),
            "√" => self.prefix("√", 100, start),
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

    fn prefix(&mut self, op: &str, arg_prec: u32, start: usize) -> PResult<Tree> {
        self.pos += 1;
        let arg = self.expr(arg_prec)?;
        Ok(self.mk(op, vec![arg], start))
    }

    /// `( … )`: grouping, unit, `(↑)`, `(·)`, type ascription `(e : T)`, tuple `(a, b)`.
    fn paren(&mut self, start: usize) -> PResult<Tree> {
        let open = self.pos;
        let Some(close) = self.matching[open].filter(|&c| c < self.limit) else {
            return Err(error_at(
                self.text,
                start,
                ParseErrorKind::Unclosed { open: "(".into() },
            ));
        };
        self.pos += 1;
        if self.pos == close {
            self.pos += 1;
            return Ok(self.mk("()", vec![], start));
        }
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
            Ok(first)
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

    /// `[a, b]` lists and `⟨a, b⟩` anonymous constructors.
    fn bracketed_list(&mut self, open: &str, close_s: &str, start: usize) -> PResult<Tree> {
        let open_i = self.pos;
        let Some(close) = self.matching[open_i].filter(|&c| c < self.limit) else {
            return Err(error_at(
                self.text,
                start,
                ParseErrorKind::Unclosed { open: open.into() },
            ));
        };
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
    fn matrix_literal(&mut self, start: usize) -> Option<PResult<Tree>> {
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

    fn widen(&mut self, mut t: Tree, start: usize, close: usize) -> Tree {
        let end = self.tokens[close].end;
        if t.unparsed {
            if let Some(last) = self.unparsed.last_mut() {
                last.start = start as u32;
                last.end = end as u32;
            }
            t.label = self.text[start..end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
        }
        t.span = self.span(start, end);
        t
    }

    /// `|x|`, `‖x‖`, `⌊x⌋`, `⌈x⌉₊`: the closer is the first matching symbol after the inner term.
    fn enclosed(&mut self, open: &str, closers: &[&str], start: usize) -> PResult<Tree> {
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
    fn brace(&mut self, start: usize) -> PResult<Tree> {
        let open = self.pos;
        let Some(close) = self.matching[open].filter(|&c| c < self.limit) else {
            return Err(error_at(
                self.text,
                start,
                ParseErrorKind::Unclosed { open: "{".into() },
            ));
        };
        self.pos += 1;
        if self.pos == close {
            self.pos += 1;
            return Ok(self.mk("∅", vec![], start));
        }
        let inner_start = self.offset_here();
        if self.tokens[open + 1].kind == TokenKind::Ident
            && open + 2 < close
            && self.tok_text(open + 2) == ":="
        {
            return self.structure_instance(open, close, start);
        }
        // Find a top-level `|` or `//` separator.
        let mut sep = None;
        let mut depth = 0i32;
        for i in open + 1..close {
            match self.tok_text(i) {
                "(" | "[" | "{" | "⟨" | "⦃" => depth += 1,
                ")" | "]" | "}" | "⟩" | "⦄" => depth -= 1,
                "//" if depth == 0 => {
                    sep = Some(i);
                    break;
                }
                "|" if depth == 0 => {
                    // `{|x| | …}` is rare; the first top-level bar after a binder-shaped prefix.
                    sep = Some(i);
                    break;
                }
                _ => {}
            }
        }
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
            let label = if sep_text == "//" {
                "{ _ // _ }"
            } else {
                "{ _ | _ }"
            };
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
    fn structure_instance(&mut self, open: usize, close: usize, start: usize) -> PResult<Tree> {
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

    fn if_then_else(&mut self, start: usize) -> PResult<Tree> {
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
    fn let_term(&mut self, start: usize) -> PResult<Tree> {
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
        let kind = if kw.starts_with("have") {
            Bound::Hypothesis
        } else {
            Bound::Variable
        };
        let name = self.binder_name(name_i, kind);
        let body = self.expr(0)?;
        self.scope.truncate(scope_len);
        let kw = kw.trim_end_matches('I');
        Ok(match ty {
            Some(ty) => self.mk(
                format!("{kw} _ : _ := _ ; _ "),
                vec![name, ty, v, body],
                start,
            ),
            None => self.mk(format!("{kw} _ := _ ; _ "), vec![name, v, body], start),
        })
    }

    /// `∀ binders, body`, `∃ …`, `∃! …`, `fun binders => body`.
    fn binder_term(&mut self, kw: &str, start: usize) -> PResult<Tree> {
        let scope_len = self.scope.len();
        let mut binders = Vec::new();
        let arrow = if kw == "fun" {
            ["=>", "↦"]
        } else {
            [",", ","]
        };
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
                    let Some(close) = self.matching[open].filter(|&c| c < self.limit) else {
                        return Err(error_at(
                            self.text,
                            self.offset_here(),
                            ParseErrorKind::Unclosed { open: s.into() },
                        ));
                    };
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
    fn big_operator(&mut self, op: &str, start: usize) -> PResult<Tree> {
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

fn is_name_char(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '«' || ('\u{1d400}'..='\u{1d7ff}').contains(&c)
}

/// For each token, the index of the matching closing bracket when it is an opening one.
fn match_brackets(text: &str, tokens: &[Token]) -> Vec<Option<usize>> {
    let mut out = vec![None; tokens.len()];
    let mut stack: Vec<(usize, &'static str)> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let s = &text[t.start..t.end];
        if let Some(c) = closer_of(s) {
            stack.push((i, c));
        } else if is_closer(s) {
            // Pop to the nearest opener this closes (tolerate stray closers).
            if let Some(k) = stack.iter().rposition(|(_, c)| *c == s) {
                let (open, _) = stack[k];
                out[open] = Some(i);
                stack.truncate(k);
            }
        }
    }
    out
}

/// Type constructors whose applications are types, never propositions.
const TYPE_CONSTRUCTORS: &[&str] = &[
    "Set",
    "Finset",
    "Fin",
    "List",
    "Multiset",
    "Array",
    "Polynomial",
    "MvPolynomial",
    "Matrix",
    "ZMod",
    "Subgroup",
    "Submodule",
    "Subring",
    "Subfield",
    "Ideal",
    "Type",
    "Sort",
    "Option",
    "EuclideanSpace",
    "Equiv",
    "Filter",
    "Module",
    "Basis",
    "LinearMap",
    "Units",
    "Finsupp",
    "PowerSeries",
    "IntermediateField",
    "Subalgebra",
    "Submonoid",
    "Sylow",
    "MonoidHom",
    "RingHom",
    "AlgHom",
    "Perm",
    "Equiv.Perm",
    "QuotientGroup",
    "Quotient",
    "Setoid",
    // Classes that carry data (instances are values, not proofs).
    "Fintype",
    "DecidableEq",
    "DecidablePred",
    "Decidable",
    "Inhabited",
    "Invertible",
    "Group",
    "AddGroup",
    "CommGroup",
    "Monoid",
    "Ring",
    "CommRing",
    "Field",
    "TopologicalSpace",
    "MetricSpace",
    "NormedAddCommGroup",
    "NormedSpace",
    "InnerProductSpace",
    "Algebra",
];

/// An application (or constant) of a name we know nothing about: a proposition or a type,
/// undecidable from syntax (`T2Space X`, `Invertible f`).
fn is_unknown_application(mut ty: &Tree) -> bool {
    // Down the result of `∀`/`→` chains in a loop: a chain can be as long as the statement.
    while ty.label.starts_with("∀") || ty.label.starts_with(" _ → _ ") {
        match ty.children.last() {
            Some(last) => ty = last,
            None => return false,
        }
    }
    if ty.children.is_empty() || !ty.label.ends_with(" _ ") {
        return false;
    }
    let head = ty.label.trim_end_matches(" _ ").trim();
    !head.is_empty()
        && !head.contains(' ')
        && !TYPE_CONSTRUCTORS.contains(&head)
        && !TYPE_CONSTRUCTORS.contains(&head.rsplit('.').next().unwrap_or(head))
}

/// Whether a binder's type reads as a proposition (so the binder is a hypothesis).
pub fn is_proposition(ty: &Tree) -> bool {
    // The result of an `→`/`∀` chain decides; walk it in a loop (chains can be as long as the
    // statement, and this runs on every binder).
    let mut ty = ty;
    loop {
        let l = ty.label.as_str();
        let next = if l == " _ → _ " {
            ty.children.get(1)
        } else if l.starts_with("∀") {
            ty.children.last()
        } else {
            break;
        };
        match next {
            Some(n) if !ty.unparsed => ty = n,
            _ => return false,
        }
    }
    let l = ty.label.as_str();
    if ty.unparsed {
        return false;
    }
    if let Some(op) = l.strip_prefix(" _ ").and_then(|r| r.strip_suffix(" _ ")) {
        return match op {
            "→" => false, // handled by the loop above
            "=" | "≠" | "<" | ">" | "≤" | "≥" | "∈" | "∉" | "⊆" | "⊂" | "⊇" | "⊃" | "⊊" | "∣"
            | "∤" | "∧" | "∨" | "↔" | "≡" | "≈" | "==" => true,
            _ => false,
        };
    }
    if l.starts_with(" _ ≡ _ [") {
        return true;
    }
    if l == "¬" || l.starts_with("∃") {
        return true;
    }
    // (`∀ x, B` is a proposition when its body is, `∀ i, TopologicalSpace (X i)` a type: the
    // loop above went down to the body.)
    if matches!(l, "True" | "False") {
        return true;
    }
    // Applications `Nat.Prime _ `, field access ` _ .Prime`, bare predicate constants.
    let head = l.trim_end_matches(" _ ").trim();
    let head = head
        .strip_prefix("_ ")
        .unwrap_or(head)
        .trim_start_matches('@');
    let last = head.rsplit('.').next().unwrap_or(head);
    if head.is_empty() {
        return false;
    }
    PREDICATES.contains(&head)
        || PREDICATES.contains(&last)
        || (last.starts_with("Is") && last.chars().nth(2).is_some_and(char::is_uppercase))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(s: &str) -> Tree {
        parse_statement(s, &Header::default()).unwrap().tree
    }

    fn sexp(t: &Tree) -> String {
        let mut out = String::new();
        fn go(t: &Tree, out: &mut String) {
            let flag = if t.variable_freecost {
                "*"
            } else if t.hypothesis_freecost {
                "#"
            } else {
                ""
            };
            if t.children.is_empty() {
                out.push_str(&format!("'{}'{flag}", t.label));
            } else {
                out.push_str(&format!("('{}'{flag}", t.label));
                for c in &t.children {
                    out.push(' ');
                    go(c, out);
                }
                out.push(')');
            }
        }
        go(t, &mut out);
        out
    }

    fn concl(s: &str) -> String {
        let t = tree(s);
        sexp(t.children[0].children.last().unwrap())
    }

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
    fn precedence_and_associativity() {
        assert_eq!(
            concl("theorem t : a + b * c ^ d ^ e = f - g - h"),
            "(' _ = _ ' (' _ + _ ' 'a' (' _ * _ ' 'b' (' _ ^ _ ' 'c' (' _ ^ _ ' 'd' 'e')))) \
             (' _ - _ ' (' _ - _ ' 'f' 'g') 'h'))"
        );
        assert_eq!(
            concl("theorem t : ¬ p ∧ q → r ∨ s ↔ u"),
            "(' _ ↔ _ ' (' _ → _ ' (' _ ∧ _ ' ('¬' 'p') 'q') (' _ ∨ _ ' 'r' 's')) 'u')"
        );
        assert_eq!(
            concl("theorem t : -x^2 = 1"),
            "(' _ = _ ' ('-' (' _ ^ _ ' 'x' '2')) '1')"
        );
    }

    #[test]
    fn quantifiers_and_big_operators() {
        assert_eq!(
            concl("theorem t : ∀ x > 0, ∃ n : ℕ, f x = ∑ i in Finset.range n, i + 1"),
            "('∀ _  _ , _ ' 'x'* ('> _ ' '0') ('∃ _ , _ ' (' _ : _ ' 'n'* 'ℕ') \
             (' _ = _ ' ('f _ ' 'x'*) (' _ + _ ' ('∑ _  _ , _ ' 'i'* ('∈ _ ' ('Finset.range _ ' 'n'*)) 'i'*) '1'))))"
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
    fn field_access_on_bound_names() {
        assert_eq!(
            concl("theorem t (p : ℕ) (hp : p.Prime) : (p + 1).Prime ∧ x.1 = Nat.succ p"),
            "(' _ ∧ _ ' (' _ .Prime' (' _ + _ ' 'p'* '1')) (' _ = _ ' (' _ .1' 'x') ('Nat.succ _ ' 'p'*)))"
        );
        let t = tree("theorem t (p : ℕ) (hp : p.Prime) : True");
        assert!(t.children[0].children[1].children[0].hypothesis_freecost);
    }

    #[test]
    fn comment_eating_the_conclusion_gives_a_missing_conclusion() {
        let s = parse_statement(
            "theorem e (x y : ℝ) -- R^n   : x = y := by sorry",
            &Header::default(),
        )
        .unwrap();
        let last = s.tree.children[0].children.last().unwrap();
        assert!(last.unparsed);
        assert_eq!(last.label, "sorry");
        assert_eq!(s.unparsed.len(), 1);
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
        let s = parse_statement("theorem t : match a | 0 => 1", &Header::default()).unwrap();
        assert_eq!(s.unparsed.len(), 1, "no `with`: one unparsed node");
    }

    #[test]
    fn broken_subterm_is_one_unparsed_node() {
        let s = parse_statement("theorem t (x : ℝ) : f (x ⊢⊢ :) = 2", &Header::default()).unwrap();
        assert_eq!(s.unparsed.len(), 1);
        let text = sexp(&s.tree);
        assert!(text.contains("'(x ⊢⊢ :)'"), "{text}");
    }

    #[test]
    fn modifiers_attributes_doc_comments_and_open_in_are_skipped() {
        let s = parse_statement(
            "/-- doc -/\n@[simp, norm_num] private nonrec open Real Nat in\ntheorem foo.bar : π > 3 := by\n  norm_num",
            &Header::default(),
        )
        .unwrap();
        assert_eq!(s.name.as_deref(), Some("foo.bar"));
        assert_eq!(s.source, "theorem foo.bar : π > 3");
        assert_eq!(sexp(&s.tree), "('theorem' (': _ ' (' _ > _ ' 'π' '3')))");
    }

    #[test]
    fn a_statement_without_proof_ends_at_the_next_command() {
        let s = parse_statement(
            "theorem a : 1 = 1\ntheorem b : 2 = 2 := rfl",
            &Header::default(),
        )
        .unwrap();
        assert_eq!(s.source, "theorem a : 1 = 1");
        assert!(s.unparsed.is_empty());
    }

    #[test]
    fn errors_carry_positions() {
        let e = parse_statement("def x := 1", &Header::default()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        let e = parse_statement("theorem t\n  (x : ℝ", &Header::default()).unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert_eq!(e.to_string(), "line 2, column 3: `(` is never closed");
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

    #[test]
    fn filters_series_and_linear_maps() {
        assert_eq!(
            concl("theorem t : (∀ᶠ n in atTop, 0 < a n) ∧ ∑' n, a n = 1 ∧ f = (g : E →L[ℝ] F)"),
            "(' _ ∧ _ ' ('∀ᶠ _  _ , _ ' 'n'* ('in _ ' 'atTop') (' _ < _ ' '0' ('a _ ' 'n'*))) \
             (' _ ∧ _ ' (' _ = _ ' ('∑' _ , _ ' 'n'* ('a _ ' 'n'*)) '1') (' _ = _ ' 'f' \
             ('( _ : _ )' 'g' (' _ →L[ _ ] _ ' 'E' 'ℝ' 'F')))))"
        );
    }

    #[test]
    fn instance_and_type_binders() {
        let t = tree("theorem t (G : Type*) [Group G] (H : Subgroup G) (_ : H.Normal) : Sort u");
        assert_eq!(
            sexp(&t),
            "('theorem' (' _  _  _  _ : _ ' (' _ : _ ' 'G'* 'Type*') ('[ _ ]' ('Group _ ' 'G'*)) \
             (' _ : _ ' 'H'* ('Subgroup _ ' 'G'*)) (' _ : _ ' '_'# (' _ .Normal' 'H'*)) ('Sort _ ' 'u')))"
        );
    }

    #[test]
    fn declarations_skip_comments_strings_and_end_at_the_next_command() {
        let file = "namespace Foo\n/- theorem hidden : True := trivial -/\ndef s := \"theorem no\"\nopen Nat in\ntheorem x₁ : True := by\n  trivial\n  -- done\n\nend Foo\ntheorem y : 1 = 1 := rfl\n/- unterminated";
        let ds = find_declarations(file);
        let names: Vec<_> = ds
            .iter()
            .map(|d| d.name.as_deref().unwrap_or_default())
            .collect();
        assert_eq!(names, ["x₁", "y"]);
        assert!(file[..ds[0].end].ends_with("trivial"));
        let (a, b) = ds[0].name_range.unwrap();
        assert_eq!(&file[a..b], "x₁");
        assert!(file[ds[1].start..ds[1].end].ends_with("rfl"));
    }

    #[test]
    fn indented_declarations_end_at_their_neighbours() {
        let file = "namespace Foo\n  theorem a : True := by\n    trivial\n  theorem b : 1 = 1 := rfl\nend Foo\n";
        let ds = find_declarations(file);
        assert_eq!(ds.len(), 2);
        assert!(file[ds[0].start..ds[0].end].ends_with("trivial"));
        assert_eq!(&file[ds[1].start..ds[1].end], "theorem b : 1 = 1 := rfl");
    }

    #[test]
    fn header_records_imports_and_opens() {
        let h = Header::parse(
            "import Mathlib\nopen scoped BigOperators\nopen Finset Int in\n-- open X\nopen Real\n",
        );
        assert_eq!(h.imports, ["Mathlib"]);
        assert_eq!(h.scoped_opens, ["BigOperators"]);
        assert_eq!(h.opens, ["Finset", "Int", "Real"]);
    }

    #[test]
    fn declarations_in_a_file() {
        let file = "import Mathlib\n\n/-- doc -/\n@[simp] theorem a (x : ℕ) : x = x := by\n  rfl\n\n-- theorem fake\nlemma b : True := trivial\nexample : 1 = 1 := rfl\n";
        let ds = find_declarations(file);
        assert_eq!(ds.len(), 3);
        assert_eq!(ds[0].name.as_deref(), Some("a"));
        assert!(file[ds[0].start..].starts_with("/-- doc -/"));
        assert!(file[..ds[0].end].ends_with("rfl"));
        assert!(file[ds[0].statement_end..].starts_with(":="));
        assert_eq!(ds[1].keyword, "lemma");
        assert_eq!(ds[2].name, None);
        let st = parse_declaration_in(file, &ds[1], &Header::default()).unwrap();
        assert!(file[ds[1].start..ds[1].end].ends_with("trivial"));
        assert_eq!(st.name.as_deref(), Some("b"));
        let span = st.tree.span.unwrap();
        assert!(file[span.start as usize..].starts_with("lemma b"));
    }
}
