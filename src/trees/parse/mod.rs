//! Lean 4 statement text → operator tree ([`Statement`]), the file header ([`Header`]) and a cheap
//! scan of a whole file for its declarations ([`find_declarations`]).
//!
//! Owns the grammar of theorem statements and the tree shape. It does not own the lexical rules
//! (`lexer`), the keyword lists (`lean_syntax`), the [`Tree`] type (`trees`), nor anything about
//! distances. It needs no Lean: the grammar is a Pratt parser whose precedences are Lean 4 core's
//! and Mathlib's (table in `operators::infix_operator`, each entry cites its declaration).
//!
//! Layout: this module holds the entry points and errors; `header` and `declarations` read a
//! whole file; `parser` holds the parser's state and reading steps, and the grammar is spread
//! over `impl Parser` blocks by concern: `statement` (keyword, binders, conclusion), `terms`
//! (the Pratt loop, names, symbols), `brackets`, `binding` (quantifiers, big operators, `let`,
//! `if`, `match`); `operators` and `propositions` are the tables they consult.
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

mod binding;
mod brackets;
mod declarations;
mod header;
mod operators;
mod parser;
mod propositions;
mod statement;
mod terms;

use crate::trees::lexer::{lex, LexErrorKind};
use crate::trees::{Statement, Tree};
pub use declarations::{block_comment_opener, find_declarations, several_statements, Declaration};
pub use header::Header;
use parser::Parser;
pub use propositions::is_proposition;

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
    Unexpected { expected: &'static str, found: String },
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

/// Parse the declaration `decl` found in `file_text`; spans and error positions are relative to
/// the file.
pub fn parse_declaration_in(
    file_text: &str,
    decl: &Declaration,
    header: &Header,
) -> Result<Statement, ParseError> {
    let start = decl.start.min(file_text.len());
    let end = decl.end.clamp(start, file_text.len());
    let (start, end) = (floor_char_boundary(file_text, start), floor_char_boundary(file_text, end));
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
    ParseError { line, column, offset, kind }
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

type PResult<T> = Result<T, ParseError>;

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// `s` parsed with an empty header.
    pub(super) fn statement(s: &str) -> Statement {
        parse_statement(s, &Header::default()).unwrap()
    }

    pub(super) fn tree(s: &str) -> Tree {
        statement(s).tree
    }

    pub(super) fn sexp(t: &Tree) -> String {
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

    pub(super) fn concl(s: &str) -> String {
        let t = tree(s);
        sexp(t.children[0].children.last().unwrap())
    }

    #[test]
    fn errors_carry_positions() {
        let e = parse_statement("def x := 1", &Header::default()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        let e = parse_statement("theorem t\n  (x : ℝ", &Header::default()).unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert_eq!(e.to_string(), "line 2, column 3: `(` is never closed");
    }
}
