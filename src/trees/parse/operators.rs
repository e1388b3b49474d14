//! Token facts the grammar needs: infix precedences (Lean core's and Mathlib's), the symbols that
//! structure a term and are never an operator, bracket pairs, and the matching of brackets.
//!
//! Owns these tables only; keywords are `trees::lean_syntax`'s and the grammar is the parser's.

use crate::trees::lexer::Token;

pub(super) fn closer_of(open: &str) -> Option<&'static str> {
    Some(match open {
        "(" => ")",
        "[" | "@[" | "^[" => "]",
        "{" => "}",
        "⟨" => "⟩",
        "⦃" => "⦄",
        _ => return None,
    })
}

pub(super) fn is_closer(s: &str) -> bool {
    matches!(s, ")" | "]" | "}" | "⟩" | "⦄")
}

/// An infix operator as Lean declares it: the precedence of the node it builds, the least
/// precedence its left operand may have, and the precedence its right operand is parsed at.
/// `infixl:p` is `notation:p lhs:p op rhs:(p+1)`, `infixr:p` is `lhs:(p+1) op rhs:p`, and
/// `infix:p` is `lhs:(p+1) op rhs:(p+1)`, so `a = b = c` and `p ↔ q ↔ r` do not parse
/// (`src/Lean/Elab/Notation.lean` expands `infix` so; the parser's trailing loop refuses a left
/// operand below its precedence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Infix {
    pub prec: u32,
    pub lhs: u32,
    pub rhs: u32,
}

const fn infixl(p: u32) -> Infix {
    Infix { prec: p, lhs: p, rhs: p + 1 }
}
const fn infixr(p: u32) -> Infix {
    Infix { prec: p, lhs: p + 1, rhs: p }
}
const fn infix(p: u32) -> Infix {
    Infix { prec: p, lhs: p + 1, rhs: p + 1 }
}

/// Infix operators. Sources: Lean 4 `src/Init/Prelude.lean`, `src/Init/Notation.lean` and
/// `src/Init/Core.lean` (`infixr:25 " → "`, `infix:20 " ↔ "`, `infixr:30 " ∨ "`,
/// `infixr:35 " ∧ "`, `infix:50 " = "`/`==`/`≠`/`<`/`>`/`≤`/`≥`/`⊆`/`⊂`/`⊇`/`⊃`/`∣`/`≈`,
/// `notation:50 a:50 " ∈ " b:50` and `∉` likewise, `infixl:65 " + "`/`-`, `infixl:70 " * "`/`/ %`,
/// `infixr:75 " ^ "`, `infixr:90 " ∘ "`, `infixl:65 " ++ "`, `infixr:67 " :: "`,
/// `infixr:35 " × "`, `syntax:min term " <| " term:min`, `syntax:min term " |> " term:min1`,
/// `infixl:70 " ∩ "`, `infixl:65 " ∪ "`, `infix:70 " \\ "`, `infixl:35 " && "`,
/// `infixl:30 " || "`); Mathlib (`infixr:73 " • "`,
/// `infixl:69 " ⊓ "`, `infixl:68 " ⊔ "`, `infixl:100 " ∆ "`, `infixl:80 " ⁻¹' "`,
/// `infixl:80 " '' "` (Set.image), `notation:35 G " ⧸ " H:34`, `infixr:25 " →* "`/`≃*`/`→+*`,
/// `infixl:25 " ≃ "`, `notation:50 a:50 " ∤ " b:50`, `notation:50 a " ≡ " b " [ZMOD " n "]"`,
/// `infixr:82 " ×ˢ "`, `infixl:72 " ⬝ᵥ "`). Unknown symbols between two terms are read as
/// `infixl:65` (documented fallback; the statement still parses and the symbol keeps its text).
pub(super) fn infix_operator(op: &str) -> Option<Infix> {
    Some(match op {
        "<|" | "$" => Infix { prec: 10, lhs: 10, rhs: 10 },
        "|>" => Infix { prec: 10, lhs: 10, rhs: 11 },
        "↔" | "<->" => infix(20),
        "→" | "->" | "→*" | "→+" | "→+*" | "≃*" | "≃+" | "≃+*" | "→ₗ" | "≃ₗ" | "→L" => {
            infixr(25)
        }
        "≃" | "≅" => infixl(25),
        "∨" | "\\/" | "⊕" => infixr(30),
        "∧" | "/\\" | "×" | "×ₗ" => infixr(35),
        "⧸" => infixl(35),
        "=" | "==" | "≠" | "!=" | "<" | ">" | "≤" | "≥" | "<=" | ">=" | "⊆" | "⊂" | "⊇" | "⊃"
        | "⊊" | "∣" | "≈" => infix(50),
        // `notation:50 a:50 " ∈ " b:50`: the right operand takes a relation (`x ∈ s ∈ T` is
        // `x ∈ (s ∈ T)`), the left one a relation's node (`a = b ∈ c` is `(a = b) ∈ c`).
        "∈" | "∉" | "∤" => Infix { prec: 50, lhs: 50, rhs: 50 },
        "≡" | "≪" | "≺" | "≼" => infixl(50),
        "||" => infixl(30),
        "&&" => infixl(35),
        "+" | "-" | "∪" | "++" => infixl(65),
        "::" => infixr(67),
        "⊔" => infixl(68),
        "⊓" => infixl(69),
        "*" | "/" | "%" | "∩" | "∗" => infixl(70),
        "\\" => infix(70),
        "⬝ᵥ" => infixl(72),
        "•" => infixr(73),
        "^" => infixr(75),
        "⁻¹'" | "''" => infixl(80),
        "×ˢ" => infixr(82),
        "∘" => infixr(90),
        "∆" | "⊗" => infixl(100),
        _ => return None,
    })
}

/// Symbols that can never be an infix operator (they end or structure a term).
pub(super) fn is_structural(s: &str) -> bool {
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

pub(super) fn is_name_char(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '«' || ('\u{1d400}'..='\u{1d7ff}').contains(&c)
}

/// For each token, the index of the matching closing bracket when it is an opening one.
pub(super) fn match_brackets(text: &str, tokens: &[Token]) -> Vec<Option<usize>> {
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

#[cfg(test)]
mod tests {
    use super::super::tests::concl;

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
        assert_eq!(concl("theorem t : -x^2 = 1"), "(' _ = _ ' ('-' (' _ ^ _ ' 'x' '2')) '1')");
    }
}
