//! BEq (metric `beq`, BEq paper §3 and Appendix A.1) — so far only its attempt checker.
//!
//! Owns the decision whether a proof script is an admissible BEq attempt: it is tokenized (not
//! substring-matched: `sorry_lemma` or a `-- sorry` comment are fine), every tactic (the first
//! word at each tactic position: start, a new line, after `;`, `<;>`, `·`, `by`, `(`) must be in
//! the allowed set (the paper's **Normal** set by default), and no token may be `sorry`,
//! `admit`, `native_decide`, `sorryAx` or `axiom`. That the assumed statement is *used* cannot be
//! decided from the text; the runner checks it from `#print axioms` (`sorryAx` present because
//! the assumption is `:= sorry` and the attempt has no `sorry` of its own).
//!
//! Not built yet (see the report): running both directions through the oracle (`exact?` first,
//! then scripts), the `[llm]` client. The metric name `beq` is still refused by `by_name`.

/// The paper's **Basic** set (Appendix A.1).
pub const BASIC: [&str; 3] = ["exact", "exact?", "have"];
/// The paper's **Normal** set: Basic plus apply, cases', constructor, ext, intro, intros, rw, use
/// (Appendix A.1; the setting the paper reports as best).
pub const NORMAL: [&str; 11] = [
    "apply",
    "cases'",
    "constructor",
    "exact",
    "exact?",
    "ext",
    "have",
    "intro",
    "intros",
    "rw",
    "use",
];

/// Tokens that make any attempt inadmissible wherever they appear.
const FORBIDDEN: [&str; 5] = ["sorry", "admit", "native_decide", "sorryAx", "axiom"];

/// Why an attempt is not admissible.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AttemptRejection {
    #[error("attempt uses `{token}` (line {line})")]
    Forbidden { token: String, line: usize },
    #[error("attempt uses tactic `{tactic}` (line {line}), outside the allowed set")]
    Disallowed { tactic: String, line: usize },
    #[error("attempt has an unterminated comment or string")]
    Unterminated,
    #[error("attempt is empty")]
    Empty,
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Word(String),
    Symbol(String),
    Newline,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(c, '_' | '\'' | '.' | '?' | '!')
        || ('\u{2080}'..='\u{209c}').contains(&c)
}

/// Words, symbols and newlines, with comments and string literals dropped.
fn tokens(script: &str) -> Result<Vec<(Token, usize)>, AttemptRejection> {
    let chars: Vec<char> = script.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0usize, 1usize);
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            out.push((Token::Newline, line));
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '-' && next == Some('-') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('-') {
            // Nested block comments.
            let mut depth = 0usize;
            loop {
                match (chars.get(i), chars.get(i + 1)) {
                    (Some('/'), Some('-')) => {
                        depth += 1;
                        i += 2;
                    }
                    (Some('-'), Some('/')) => {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    }
                    (Some('\n'), _) => {
                        line += 1;
                        i += 1;
                    }
                    (Some(_), _) => i += 1,
                    (None, _) => return Err(AttemptRejection::Unterminated),
                }
            }
        } else if c == '"' {
            i += 1;
            loop {
                match chars.get(i) {
                    Some('\\') => i += 2,
                    Some('"') => {
                        i += 1;
                        break;
                    }
                    Some(_) => i += 1,
                    None => return Err(AttemptRejection::Unterminated),
                }
            }
        } else if c == '«' {
            // An escaped identifier is one word, never a keyword.
            let start = i;
            while i < chars.len() && chars[i] != '»' {
                i += 1;
            }
            i += 1;
            let w: String = chars[start..i.min(chars.len())].iter().collect();
            out.push((Token::Word(w), line));
        } else if is_word_char(c) && c != '.' && c != '?' && c != '!' {
            let start = i;
            while i < chars.len() && is_word_char(chars[i]) {
                i += 1;
            }
            out.push((Token::Word(chars[start..i].iter().collect()), line));
        } else if c == '<' && next == Some(';') && chars.get(i + 2) == Some(&'>') {
            out.push((Token::Symbol("<;>".into()), line));
            i += 3;
        } else {
            out.push((Token::Symbol(c.to_string()), line));
            i += 1;
        }
    }
    Ok(out)
}

/// Check a proof script (the text after `:= by`) against `allowed` tactics.
pub fn check_attempt(script: &str, allowed: &[&str]) -> Result<(), AttemptRejection> {
    let toks = tokens(script)?;
    if toks.iter().all(|(t, _)| *t == Token::Newline) {
        return Err(AttemptRejection::Empty);
    }
    let mut at_tactic = true;
    for (tok, line) in &toks {
        match tok {
            Token::Word(w) => {
                if FORBIDDEN.contains(&w.as_str()) {
                    return Err(AttemptRejection::Forbidden {
                        token: w.clone(),
                        line: *line,
                    });
                }
                if at_tactic && !allowed.contains(&w.as_str()) {
                    return Err(AttemptRejection::Disallowed {
                        tactic: w.clone(),
                        line: *line,
                    });
                }
                // After `by` a tactic follows; otherwise the rest is the tactic's arguments.
                at_tactic = w == "by";
            }
            Token::Newline => at_tactic = true,
            Token::Symbol(s) => {
                at_tactic = matches!(s.as_str(), ";" | "<;>" | "·" | "(") && at_tactic
                    || matches!(s.as_str(), ";" | "<;>" | "·");
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_scripts_pass() {
        for s in [
            "exact?",
            "exact thm_P",
            "intro h\n  exact thm_P h",
            "constructor <;> intro h <;> exact h",
            "rw [Nat.add_comm]; exact thm_P _ _",
            "have h := thm_P x (by exact hx)\n  exact h",
            "· intro x\n  · exact thm_P x -- not sorry",
            "apply thm_P /- admit? no -/",
            "exact sorry_free_lemma",
            "cases' h with a b\n  use a",
        ] {
            assert_eq!(check_attempt(s, &NORMAL), Ok(()), "{s}");
        }
    }

    #[test]
    fn forbidden_tokens_anywhere_are_rejected() {
        assert_eq!(
            check_attempt("exact sorry", &NORMAL),
            Err(AttemptRejection::Forbidden {
                token: "sorry".into(),
                line: 1
            })
        );
        assert!(check_attempt("intro h\n  admit", &NORMAL).is_err());
        assert!(check_attempt("exact (by native_decide)", &NORMAL).is_err());
        assert!(check_attempt("exact sorryAx _ false", &NORMAL).is_err());
    }

    #[test]
    fn tactics_outside_the_set_are_rejected_even_nested() {
        assert_eq!(
            check_attempt("intro h\n  simp at h", &NORMAL),
            Err(AttemptRejection::Disallowed {
                tactic: "simp".into(),
                line: 2
            })
        );
        assert!(check_attempt("exact foo (by linarith)", &NORMAL).is_err());
        assert!(check_attempt("constructor <;> omega", &NORMAL).is_err());
        assert!(check_attempt("exact?; norm_num", &NORMAL).is_err());
        assert!(check_attempt("apply foo", &BASIC).is_err());
    }

    #[test]
    fn unterminated_and_empty_are_rejected() {
        assert_eq!(
            check_attempt("exact /- open", &NORMAL),
            Err(AttemptRejection::Unterminated)
        );
        assert_eq!(
            check_attempt("\n  \n", &NORMAL),
            Err(AttemptRejection::Empty)
        );
    }
}
