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
pub(super) fn infix_operator(op: &str) -> Option<(u32, bool)> {
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
