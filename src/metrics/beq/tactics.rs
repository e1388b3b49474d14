//! BEq's tactic restriction: which tactics a candidate proof may use, and a checker that parses
//! the proof script (it never substring-matches) before anything is sent to Lean.
//!
//! Owns the tactic sets of the BEq paper (Appendix A.1: Basic, Normal, Advanced, All), a small
//! Lean lexer (comments, strings, identifiers, brackets) and a parser of tactic blocks
//! (sequences by newline/`;`/`<;>`, bullets `·`, parentheses, `first | …`, `try`, `all_goals`,
//! nested `by` blocks inside terms). It does not talk to Lean and does not judge whether the
//! proof is *correct*; only whether it is *admissible*.
//!
//! Deliberate differences from the published code (research notes §2.4, §2.9): the published
//! filter accepts a line when an allowed tactic name occurs anywhere in it as a substring (so
//! `rwa`, `simp_rw`, `rintro` pass under Normal, and a line naming `thm_P` in a comment "uses"
//! it). Here each tactic is identified by its leading keyword, nested blocks are checked too, and
//! use of the assumed theorem must be a real identifier occurrence. The `All` set allows any
//! tactic but still rejects `sorry`, `admit`, `native_decide` and commands.

use crate::trees::lean_syntax::COMMANDS_AFTER_A_PROOF;
use std::fmt;

/// A tactic restriction level from the BEq paper, Appendix A.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TacticSet {
    /// `exact`, `exact?`, `have`.
    Basic,
    /// Basic plus `apply`, `cases'`, `constructor`, `ext`, `intro`, `intros`, `rw`, `use`: the set
    /// the paper's BEq uses.
    #[default]
    Normal,
    /// Normal plus the "more powerful" tactics of A.1 (`assumption`, `by_cases`, `by_contra`, ...).
    Advanced,
    /// Any tactic (the paper's "All"); forbidden tokens and commands are still rejected.
    All,
}

const BASIC: &[&str] = &["exact", "exact?", "have"];
const NORMAL_EXTRA: &[&str] =
    &["apply", "cases'", "constructor", "ext", "intro", "intros", "rw", "use"];
const ADVANCED_EXTRA: &[&str] = &[
    "assumption",
    "by_cases",
    "by_contra",
    "change",
    "choose",
    "convert",
    "exfalso",
    "left",
    "nth_rw",
    "obtain",
    "rcases",
    "refine",
    "rfl",
    "right",
    "rintro",
    "specialize",
    "triv",
];

/// Tactic combinators that only sequence or focus other tactics; they add no proving power of
/// their own, so every set allows them (their inner tactics are checked).
const COMBINATORS: &[&str] = &["first", "try", "all_goals", "any_goals", "focus"];

/// Tactics that only rename hypotheses and prove nothing: `expose_names`, which `exact?` /
/// `apply?` put in front of a suggestion that uses inaccessible names, as
/// `(expose_names; exact h)` (src/Lean/Meta/Tactic/TryThis.lean, src/Lean/Elab/Tactic/
/// LibrarySearch.lean). Every set allows them, or such suggestions would be rejected.
const RENAMING: &[&str] = &["expose_names"];

/// Identifiers that make a proof unsound or bypass the kernel, anywhere in the script.
const FORBIDDEN_IDENTS: &[&str] = &[
    "sorry",
    "admit",
    "sorryAx",
    "native_decide",
    "ofReduceBool",
    "Lean.ofReduceBool",
    "reduceBool",
    "Lean.reduceBool",
    "trustCompiler",
    "Lean.trustCompiler",
    "decide!",
];

impl TacticSet {
    /// Every set, weakest first.
    pub const ALL_SETS: [TacticSet; 4] =
        [TacticSet::Basic, TacticSet::Normal, TacticSet::Advanced, TacticSet::All];

    /// The name used in configuration and reports (`basic`, `normal`, `advanced`, `all`).
    pub fn name(self) -> &'static str {
        match self {
            TacticSet::Basic => "basic",
            TacticSet::Normal => "normal",
            TacticSet::Advanced => "advanced",
            TacticSet::All => "all",
        }
    }

    /// Parse a configuration name (case-insensitive).
    pub fn from_name(name: &str) -> Option<TacticSet> {
        TacticSet::ALL_SETS.into_iter().find(|s| s.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The allowed tactic names, or `None` for [`TacticSet::All`] (no restriction).
    pub fn allowed(self) -> Option<Vec<&'static str>> {
        let mut out: Vec<&'static str> = BASIC.to_vec();
        match self {
            TacticSet::Basic => {}
            TacticSet::Normal => out.extend_from_slice(NORMAL_EXTRA),
            TacticSet::Advanced => {
                out.extend_from_slice(NORMAL_EXTRA);
                out.extend_from_slice(ADVANCED_EXTRA);
            }
            TacticSet::All => return None,
        }
        Some(out)
    }

    /// Whether `tactic` (a leading keyword such as `rw` or `exact?`) is allowed.
    pub fn allows(self, tactic: &str) -> bool {
        COMBINATORS.contains(&tactic)
            || RENAMING.contains(&tactic)
            || self.allowed().is_none_or(|allowed| allowed.contains(&tactic))
    }
}

impl fmt::Display for TacticSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a proof script was refused before reaching Lean. Lines are 1-based within the script.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProofRejection {
    #[error("the proof script is empty")]
    Empty,
    #[error("line {line}: `{token}` is forbidden in a BEq proof")]
    Forbidden { token: String, line: usize },
    #[error("line {line}: `{keyword}` starts a command or changes options; a proof may not")]
    Command { keyword: String, line: usize },
    #[error("line {line}: tactic `{tactic}` is outside the {set} tactic set")]
    TacticNotAllowed { tactic: String, set: TacticSet, line: usize },
    #[error("line {line}: the proof names the goal theorem `{name}` itself")]
    SelfReference { name: String, line: usize },
    #[error("the proof never uses the assumed theorem `{name}`")]
    AssumedNotUsed { name: String },
    #[error("line {line}: {what}")]
    Malformed { what: String, line: usize },
}

/// What a checker needs to know about the proof context.
#[derive(Clone, Debug)]
pub struct ProofRules<'a> {
    pub set: TacticSet,
    /// Name under which the assumed statement is declared (`thm_P`); must be used.
    pub assumed_name: &'a str,
    /// Name of the statement being proved (`thm_Q`); must not be used.
    pub goal_name: Option<&'a str>,
}

/// An admissible proof: the tactics it uses, in order of appearance (combinators included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedProof {
    pub tactics: Vec<String>,
}

/// Check a proof script (the text after `:= by`, or starting with `by`) against `rules`.
pub fn check_proof(script: &str, rules: &ProofRules<'_>) -> Result<CheckedProof, ProofRejection> {
    let mut tokens = lex(script)?;
    if tokens.first().is_some_and(|t| t.text == "by") {
        tokens.remove(0);
    }
    if tokens.is_empty() {
        return Err(ProofRejection::Empty);
    }
    let mut uses_assumed = false;
    for tok in &tokens {
        if tok.kind != Kind::Ident {
            continue;
        }
        if FORBIDDEN_IDENTS.contains(&tok.text.as_str()) {
            return Err(ProofRejection::Forbidden { token: tok.text.clone(), line: tok.line });
        }
        if COMMANDS_AFTER_A_PROOF.contains(&tok.text.as_str()) || tok.text.starts_with('#') {
            return Err(ProofRejection::Command { keyword: tok.text.clone(), line: tok.line });
        }
        if names(&tok.text, rules.assumed_name) {
            uses_assumed = true;
        }
        if let Some(goal) = rules.goal_name {
            if names(&tok.text, goal) {
                return Err(ProofRejection::SelfReference {
                    name: goal.to_string(),
                    line: tok.line,
                });
            }
        }
    }
    if let Some(attr) =
        tokens.windows(2).find(|w| w[0].text == "@[" || w[0].text == "@" && w[1].text == "[")
    {
        return Err(ProofRejection::Command { keyword: "@[".to_string(), line: attr[0].line });
    }
    let mut parser = Parser { toks: &tokens, pos: 0, set: rules.set, used: Vec::new() };
    let first_col = tokens[0].col;
    parser.block(first_col, false)?;
    if let Some(tok) = parser.peek() {
        return Err(ProofRejection::Malformed {
            what: format!("unexpected `{}`", tok.text),
            line: tok.line,
        });
    }
    if !uses_assumed {
        return Err(ProofRejection::AssumedNotUsed { name: rules.assumed_name.to_string() });
    }
    Ok(CheckedProof { tactics: parser.used })
}

/// Whether identifier `ident` refers to `name`: exactly, with `@`, qualified by a namespace
/// (`ns.thm_P`), or projected (`thm_P.mp`, `thm_P.1`).
fn names(ident: &str, name: &str) -> bool {
    let ident = ident.trim_start_matches('@');
    let plain = |s: &str| s.trim_start_matches('«').trim_end_matches('»').to_string();
    ident.split('.').map(plain).any(|part| part == name)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Symbol,
    Literal,
}

#[derive(Clone, Debug)]
struct Token {
    kind: Kind,
    text: String,
    line: usize,
    /// Column in characters, 0-based.
    col: usize,
    /// First token on its line.
    line_start: bool,
}

fn is_ident_start(c: char) -> bool {
    // `λ`, `Π`, `Σ` are binder notation, not letters of a name.
    (c.is_alphabetic() && !matches!(c, 'λ' | 'Π' | 'Σ')) || c == '_' || c == '«'
}

fn is_ident_rest(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(c, '_' | '\'' | '!' | '?' | '.')
        || ('\u{2080}'..='\u{209C}').contains(&c) // subscripts ₀…ₜ
        || ('\u{1D62}'..='\u{1D6A}').contains(&c)
}

/// Multi-character symbols the parser cares about, longest first.
const SYMBOLS: &[&str] = &["<;>", "<|>", ":=", "=>", "<|", "|>", "@["];

fn lex(src: &str) -> Result<Vec<Token>, ProofRejection> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1usize, 0usize);
    let mut line_has_token = false;
    // Advance over chars[i..j], keeping line/column in step.
    let advance = |i: &mut usize, j: usize, line: &mut usize, col: &mut usize, lht: &mut bool| {
        while *i < j {
            if chars[*i] == '\n' {
                *line += 1;
                *col = 0;
                *lht = false;
            } else {
                *col += 1;
            }
            *i += 1;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            let j = i + 1;
            advance(&mut i, j, &mut line, &mut col, &mut line_has_token);
            continue;
        }
        if c == '-' && next == Some('-') {
            let end = (i..chars.len()).find(|&k| chars[k] == '\n').unwrap_or(chars.len());
            advance(&mut i, end, &mut line, &mut col, &mut line_has_token);
            continue;
        }
        if c == '/' && next == Some('-') {
            // Lean block comments nest.
            let start_line = line;
            let (mut depth, mut k) = (0usize, i);
            loop {
                if k >= chars.len() {
                    return Err(ProofRejection::Malformed {
                        what: "unterminated block comment".to_string(),
                        line: start_line,
                    });
                }
                if chars[k] == '/' && chars.get(k + 1) == Some(&'-') {
                    depth += 1;
                    k += 2;
                } else if chars[k] == '-' && chars.get(k + 1) == Some(&'/') {
                    depth -= 1;
                    k += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    k += 1;
                }
            }
            advance(&mut i, k, &mut line, &mut col, &mut line_has_token);
            continue;
        }
        let (start_line, start_col, line_start) = (line, col, !line_has_token);
        let (kind, end) = if c == '"' {
            let mut k = i + 1;
            loop {
                match chars.get(k) {
                    None => {
                        return Err(ProofRejection::Malformed {
                            what: "unterminated string literal".to_string(),
                            line: start_line,
                        })
                    }
                    Some('\\') => k += 2,
                    Some('"') => break,
                    Some(_) => k += 1,
                }
            }
            (Kind::Literal, k + 1)
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            (Kind::Literal, i + 3)
        } else if c == '\'' && next == Some('\\') && chars.get(i + 3) == Some(&'\'') {
            (Kind::Literal, i + 4)
        } else if c == '«' {
            let end = (i..chars.len()).find(|&k| chars[k] == '»').map_or(chars.len(), |k| k + 1);
            let mut k = end;
            while k < chars.len() && is_ident_rest(chars[k]) {
                k += 1;
            }
            (Kind::Ident, k)
        } else if is_ident_start(c) || (c == '#' || c == '@') && next.is_some_and(is_ident_start) {
            let mut k = i + 1;
            while k < chars.len() && (is_ident_rest(chars[k]) || chars[k] == '«') {
                if chars[k] == '«' {
                    k = (k..chars.len()).find(|&m| chars[m] == '»').map_or(chars.len(), |m| m + 1);
                } else {
                    k += 1;
                }
            }
            // `h.` at the end of a term is not part of the name.
            while k > i + 1 && chars[k - 1] == '.' {
                k -= 1;
            }
            (Kind::Ident, k)
        } else if c.is_ascii_digit() {
            let mut k = i + 1;
            while k < chars.len() && (chars[k].is_ascii_alphanumeric() || chars[k] == '.') {
                k += 1;
            }
            (Kind::Literal, k)
        } else {
            let rest: String = chars[i..chars.len().min(i + 3)].iter().collect();
            let len =
                SYMBOLS.iter().find(|s| rest.starts_with(*s)).map_or(1, |s| s.chars().count());
            (Kind::Symbol, i + len)
        };
        let text: String = chars[i..end.min(chars.len())].iter().collect();
        out.push(Token { kind, text, line: start_line, col: start_col, line_start });
        line_has_token = true;
        let j = end.min(chars.len());
        advance(&mut i, j, &mut line, &mut col, &mut line_has_token);
        line_has_token = true;
    }
    Ok(out)
}

const OPENERS: &[&str] = &["(", "[", "{", "⟨", "‹", "⦃", "@["];
const CLOSERS: &[&str] = &[")", "]", "}", "⟩", "›", "⦄"];

struct Parser<'t> {
    toks: &'t [Token],
    pos: usize,
    set: TacticSet,
    used: Vec<String>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    /// Whether the next token ends the current block: end of input, a closing bracket, an
    /// alternative bar of an enclosing `first`, or a line starting left of the block's column.
    fn block_ends(&self, col: usize, in_first: bool) -> bool {
        match self.peek() {
            None => true,
            Some(t) => {
                CLOSERS.contains(&t.text.as_str())
                    || (in_first && t.text == "|")
                    || (t.line_start && t.col < col)
            }
        }
    }

    /// A tactic sequence whose tactics start at column `col` (or later on the same line).
    fn block(&mut self, col: usize, in_first: bool) -> Result<(), ProofRejection> {
        let mut parsed_any = false;
        loop {
            while self.peek().is_some_and(|t| t.text == ";") {
                self.pos += 1;
            }
            if self.block_ends(col, in_first) {
                break;
            }
            if let Some(t) = self.peek() {
                if t.line_start && t.col > col && parsed_any {
                    return Err(ProofRejection::Malformed {
                        what: format!("`{}` is indented more than the tactic block", t.text),
                        line: t.line,
                    });
                }
            }
            self.tactic(col, in_first)?;
            parsed_any = true;
            while self.peek().is_some_and(|t| t.text == "<;>") {
                self.pos += 1;
                self.tactic(col, in_first)?;
            }
        }
        if !parsed_any {
            let line = self.peek().or(self.toks.last()).map_or(1, |t| t.line);
            return Err(ProofRejection::Malformed { what: "expected a tactic".to_string(), line });
        }
        Ok(())
    }

    /// A nested block that starts at the next token (after `by`, `try`, a bullet, ...), which
    /// must lie right of the enclosing block's column when it starts a new line.
    fn nested(&mut self, outer_col: usize, in_first: bool) -> Result<(), ProofRejection> {
        let Some(t) = self.peek() else {
            let line = self.toks.last().map_or(1, |t| t.line);
            return Err(ProofRejection::Malformed {
                what: "expected a tactic block".to_string(),
                line,
            });
        };
        if t.line_start && t.col <= outer_col {
            return Err(ProofRejection::Malformed {
                what: "expected an indented tactic block".to_string(),
                line: t.line,
            });
        }
        let col = t.col;
        self.block(col, in_first)
    }

    fn tactic(&mut self, col: usize, in_first: bool) -> Result<(), ProofRejection> {
        let Some(head) = self.peek().cloned() else {
            return Ok(());
        };
        self.pos += 1;
        match head.text.as_str() {
            "·" | "." => {
                self.used.push("·".to_string());
                return self.nested(head.col, false);
            }
            "(" => {
                let inner_col = self.peek().map_or(head.col, |t| t.col);
                self.block(inner_col, false)?;
                return self.expect_closer(")", head.line);
            }
            _ => {}
        }
        if head.kind != Kind::Ident {
            return Err(ProofRejection::Malformed {
                what: format!("expected a tactic, found `{}`", head.text),
                line: head.line,
            });
        }
        let name = head.text.clone();
        if !self.set.allows(&name) {
            return Err(ProofRejection::TacticNotAllowed {
                tactic: name,
                set: self.set,
                line: head.line,
            });
        }
        self.used.push(name.clone());
        match name.as_str() {
            "first" => {
                let mut alternatives = 0;
                while self.peek().is_some_and(|t| t.text == "|") {
                    let bar_col = self.peek().map_or(col, |t| t.col);
                    self.pos += 1;
                    self.nested(bar_col.min(col), true)?;
                    alternatives += 1;
                }
                if alternatives == 0 {
                    return Err(ProofRejection::Malformed {
                        what: "`first` without `| alternative`".to_string(),
                        line: head.line,
                    });
                }
                Ok(())
            }
            "try" | "all_goals" | "any_goals" | "focus" => self.nested(col, in_first),
            _ => self.arguments(col, in_first),
        }
    }

    /// The arguments of an ordinary tactic: terms, up to the end of the tactic. Nested `by`
    /// blocks are parsed as tactic blocks.
    fn arguments(&mut self, col: usize, in_first: bool) -> Result<(), ProofRejection> {
        let mut depth = 0usize;
        while let Some(t) = self.peek().cloned() {
            let text = t.text.as_str();
            if t.line_start && t.col <= col {
                break;
            }
            if depth == 0 && (text == ";" || text == "<;>" || (in_first && text == "|")) {
                break;
            }
            if CLOSERS.contains(&text) {
                if depth == 0 {
                    break;
                }
                depth -= 1;
                self.pos += 1;
                continue;
            }
            self.pos += 1;
            if text == "(" && self.discharger_follows() {
                // `use (discharger := tac) e`, `(disch := tac)`: a tactic block in an argument.
                self.pos += 2;
                let inner_col = self.peek().map_or(t.col, |n| n.col);
                self.block(inner_col, false)?;
                self.expect_closer(")", t.line)?;
            } else if OPENERS.contains(&text) {
                depth += 1;
            } else if text == "by" {
                // The nested block ends at a closer of this argument or at the outer block.
                self.nested(col, false)?;
            }
        }
        if depth > 0 {
            let line = self.toks.last().map_or(1, |t| t.line);
            return Err(ProofRejection::Malformed {
                what: "unbalanced brackets".to_string(),
                line,
            });
        }
        Ok(())
    }

    /// Whether the tokens after a `(` are `discharger :=` or `disch :=`.
    fn discharger_follows(&self) -> bool {
        let name = self.toks.get(self.pos).map(|t| t.text.as_str());
        let assign = self.toks.get(self.pos + 1).map(|t| t.text.as_str());
        matches!(name, Some("discharger" | "disch")) && assign == Some(":=")
    }

    fn expect_closer(&mut self, closer: &str, opened_at: usize) -> Result<(), ProofRejection> {
        match self.peek() {
            Some(t) if t.text == closer => {
                self.pos += 1;
                Ok(())
            }
            _ => Err(ProofRejection::Malformed {
                what: format!("`(` is never closed by `{closer}`"),
                line: opened_at,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(set: TacticSet, script: &str) -> Result<CheckedProof, ProofRejection> {
        check_proof(script, &ProofRules { set, assumed_name: "thm_P", goal_name: Some("thm_Q") })
    }

    #[test]
    fn expose_names_wrappers_of_suggestions_are_admissible() {
        for set in [TacticSet::Basic, TacticSet::Normal] {
            let used = check(set, "(expose_names; exact thm_P x h)").expect("admissible");
            assert_eq!(used.tactics, ["expose_names", "exact"]);
            check(set, "expose_names\nexact thm_P x_1").expect("admissible");
        }
        // It proves nothing by itself: the assumption must still be used.
        assert!(check(TacticSet::Normal, "(expose_names; exact h)").is_err());
    }

    #[test]
    fn admissible_normal_proofs() {
        let cases: &[(&str, &[&str])] = &[
            ("exact thm_P", &["exact"]),
            ("by exact thm_P", &["exact"]),
            ("exact @thm_P K V _ _ _ S T", &["exact"]),
            ("exact (not_exists.mp thm_P) q", &["exact"]),
            ("intro x hx\nexact thm_P x hx", &["intro", "exact"]),
            ("intro x; exact thm_P x", &["intro", "exact"]),
            ("have hG : Even (card G) := by exact?\nexact thm_P hG", &["have", "exact?", "exact"]),
            (
                "constructor\n· intro h\n  exact thm_P.mp h\n· intro h\n  exact thm_P.mpr h",
                &["constructor", "·", "intro", "exact", "·", "intro", "exact"],
            ),
            ("rw [Nat.add_comm] at h\napply thm_P <;> exact h", &["rw", "apply", "exact"]),
            ("first | exact thm_P | exact thm_P.symm", &["first", "exact", "exact"]),
            ("try rw [h]\nexact thm_P", &["try", "rw", "exact"]),
            ("all_goals exact thm_P", &["all_goals", "exact"]),
            ("(intro x\n exact thm_P x)", &["intro", "exact"]),
            (
                "have h : 1 = 1 := by\n    exact rfl\nexact thm_P -- sorry, not needed",
                &["have", "exact", "exact"],
            ),
            ("/- sorry /- nested -/ still comment -/ exact thm_P", &["exact"]),
            ("exact fun x => ns.thm_P x", &["exact"]),
            ("use 3\nexact thm_P", &["use", "exact"]),
            ("cases' h with a b\nexact thm_P a b", &["cases'", "exact"]),
            ("exact thm_P\n  x h", &["exact"]),
            ("exact λ x => thm_P x", &["exact"]),
            ("rw [thm_P] at h ⊢", &["rw"]),
            ("use (discharger := exact h) 3\nexact thm_P", &["use", "exact", "exact"]),
            (
                "have h : 2 = 2 := by\n  exact rfl\nexact thm_P (by exact h)",
                &["have", "exact", "exact", "exact"],
            ),
        ];
        for (script, tactics) in cases {
            let got = check(TacticSet::Normal, script)
                .unwrap_or_else(|e| panic!("{script:?} rejected: {e}"));
            assert_eq!(got.tactics, *tactics, "{script:?}");
        }
    }

    #[test]
    fn rejected_proofs() {
        use ProofRejection as R;
        type Expect = fn(&ProofRejection) -> bool;
        // Any rejection of that kind (the cases that need more name its fields).
        let forbidden: Expect = |e| matches!(e, R::Forbidden { .. });
        let not_allowed: Expect = |e| matches!(e, R::TacticNotAllowed { .. });
        let assumed_not_used: Expect = |e| matches!(e, R::AssumedNotUsed { .. });
        let self_reference: Expect = |e| matches!(e, R::SelfReference { .. });
        let command: Expect = |e| matches!(e, R::Command { .. });
        let malformed: Expect = |e| matches!(e, R::Malformed { .. });
        let cases: &[(TacticSet, &str, Expect)] = &[
            (TacticSet::Normal, "", |e| *e == R::Empty),
            (TacticSet::Normal, "-- only a comment", |e| *e == R::Empty),
            (TacticSet::Normal, "sorry", forbidden),
            (TacticSet::Normal, "exact thm_P\nsorry", |e| {
                matches!(e, R::Forbidden { line: 2, .. })
            }),
            (TacticSet::Normal, "admit", forbidden),
            (TacticSet::All, "have := thm_P\nnative_decide", forbidden),
            (TacticSet::All, "exact thm_P (by sorry)", forbidden),
            // Substring filters let these through; a parser does not.
            (TacticSet::Normal, "rwa [thm_P]", not_allowed),
            (TacticSet::Normal, "simp_rw [thm_P]", not_allowed),
            (TacticSet::Normal, "exact_mod_cast thm_P", not_allowed),
            (TacticSet::Normal, "exact thm_P (Lean.ofReduceBool _ _ rfl)", forbidden),
            // Use of the assumed theorem must be real.
            (TacticSet::Normal, "exact foo -- thm_P", assumed_not_used),
            (TacticSet::Normal, "exact foo /- thm_P -/", assumed_not_used),
            (TacticSet::Normal, "exact foo \"thm_P\"", assumed_not_used),
            (TacticSet::Normal, "exact thm_P2", assumed_not_used),
            (TacticSet::Normal, "exact thm_Q", self_reference),
            // Commands and option changes.
            (TacticSet::All, "exact thm_P\n#exit", command),
            (TacticSet::All, "exact thm_P\naxiom cheat : False", command),
            (TacticSet::All, "exact thm_P\ntheorem t : True := trivial", command),
            (TacticSet::All, "set_option maxHeartbeats 0 in\nexact thm_P", command),
            (TacticSet::All, "exact thm_P\n@[simp] lemma x : True := trivial", command),
            // Malformed scripts.
            (TacticSet::Normal, "exact (thm_P", malformed),
            (TacticSet::Normal, "exact thm_P)", malformed),
            (TacticSet::Normal, "exact thm_P /- open", malformed),
            (TacticSet::Normal, "first\nexact thm_P", malformed),
        ];
        for (set, script, expected) in cases {
            match check(*set, script) {
                Ok(p) => panic!("{script:?} accepted under {set}: {p:?}"),
                Err(e) => assert!(expected(&e), "{script:?} under {set}: unexpected {e:?}"),
            }
        }
        // Rejected for a tactic the set does not allow: (set, tactic, line when it matters, script).
        let not_allowed_cases: &[(TacticSet, &str, Option<usize>, &str)] = &[
            (TacticSet::Normal, "simp", None, "simp only [thm_P]"),
            // A forbidden tactic nested inside an allowed one.
            (TacticSet::Normal, "simp", Some(1), "have h : x = x := by simp\nexact thm_P"),
            (TacticSet::Normal, "omega", Some(3), "constructor\n· exact thm_P\n· omega"),
            (TacticSet::Normal, "linarith", None, "first | exact thm_P | linarith"),
            (TacticSet::Normal, "refine", None, "refine ⟨?_, ?_⟩ <;> exact thm_P"),
            (TacticSet::Basic, "intro", None, "intro x\nexact thm_P x"),
            (TacticSet::Normal, "simp", None, "use (discharger := simp) 3\nexact thm_P"),
        ];
        for (set, tactic, line, script) in not_allowed_cases {
            match check(*set, script) {
                Err(R::TacticNotAllowed { tactic: got, line: at, .. })
                    if got == *tactic && line.is_none_or(|l| l == at) => {}
                other => {
                    panic!("{script:?} under {set}: expected `{tactic}` not allowed, got {other:?}")
                }
            }
        }
    }

    #[test]
    fn sets_nest_and_parse_names() {
        for set in TacticSet::ALL_SETS {
            assert_eq!(TacticSet::from_name(set.name()), Some(set));
        }
        assert_eq!(TacticSet::from_name(" Normal "), Some(TacticSet::Normal));
        assert_eq!(TacticSet::from_name("strict"), None);
        assert!(TacticSet::Normal.allows("rw") && !TacticSet::Basic.allows("rw"));
        assert!(TacticSet::Advanced.allows("refine") && !TacticSet::Normal.allows("refine"));
        assert!(TacticSet::All.allows("simp"));
        assert_eq!(
            check(TacticSet::Advanced, "refine ⟨?_, ?_⟩ <;> exact thm_P").map(|p| p.tactics),
            Ok(vec!["refine".to_string(), "exact".to_string()])
        );
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_arbitrary_scripts(
            script in "[a-z_?' \\n\t;<>|()\\[\\]{}⟨⟩·.:=@#\"/\\-λ«»0-9]{0,60}"
        ) {
            for set in TacticSet::ALL_SETS {
                let _ = check(set, &script);
            }
        }

        #[test]
        fn admitted_scripts_always_name_the_assumption(
            script in "(exact|intro|rw|have|apply) [a-zA-Z_ ()]{0,20}(thm_P)?[a-z ]{0,10}"
        ) {
            if check(TacticSet::Normal, &script).is_ok() {
                proptest::prop_assert!(script.contains("thm_P"));
            }
        }
    }

    #[test]
    fn never_panics_on_odd_input() {
        for script in ["(", ")", "·", "<;>", "first |", "by", "«", "'", "\"", "/-", "exact ⟨"] {
            let _ = check(TacticSet::All, script);
        }
    }
}
