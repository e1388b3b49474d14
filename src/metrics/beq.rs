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
//! [`BEq`] runs both directions through the oracle (`crate::lean::oracle`), one document
//! version per direction (design §7.10): the assumed statement as `theorem thm_P … := sorry`
//! in a fresh namespace (a normal name, so `exact?` can find it), then each attempt as
//! `theorem attempt<i> …` in the same namespace followed by `#print axioms`. Attempts, in order:
//! `exact?` (its "Try this" code action is the reported proof and must mention `thm_P`, the
//! paper's rule for attempt 0), then [`SCRIPTS`], all within the Normal set. An attempt
//! succeeds when it passes [`check_attempt`], has no error and no "declaration uses sorry"
//! warning in its lines, and its axioms include `sorryAx` (the assumption was used).
//!
//! With `[llm]` configured ([`BEq::llm`]), a direction whose fixed attempts all fail asks the
//! model for K samples with the paper's prompt ([`prompt`]) and checks them the same way, in one
//! more version. The metric name `beq` is still refused by `by_name` (no synchronous form).

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

/// Deterministic attempts after `exact?`, within the Normal set.
pub const SCRIPTS: [&str; 3] = ["exact thm_P", "intros\napply thm_P", "intros\nexact?"];

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

use super::lean_backed::{preamble, signature, LeanJudgement, LeanMetric, LeanWork};
use super::{MetricError, MetricReport, Pair, Verdict};
use crate::lean::goals::LeanRpc;
use crate::lean::oracle::{Command, Oracle};
use std::time::{Duration, Instant};

/// The metric, with its wall-clock limit (per pair, both directions).
#[derive(Clone, Debug)]
pub struct BEq {
    pub time_limit: Duration,
    /// `[llm]`: ask the model when the fixed attempts fail in a direction.
    pub llm: Option<crate::llm::LlmConfig>,
    /// K, the samples per direction (the paper's n = 8).
    pub samples: u32,
}

impl Default for BEq {
    fn default() -> Self {
        BEq {
            time_limit: Duration::from_secs(120),
            llm: None,
            samples: 8,
        }
    }
}

/// How one direction ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Direction {
    /// `"reference ⇒ candidate"` (assume the reference, prove the candidate) or the reverse.
    pub name: &'static str,
    /// The attempt that succeeded and its proof text.
    pub proof: Option<(usize, String)>,
    /// Why each failed attempt failed.
    pub failures: Vec<String>,
    pub elapsed: Duration,
}

/// Indent continuation lines of a script for a `by` block at column 2.
fn indent(script: &str) -> String {
    script
        .lines()
        .map(|l| format!("  {}", l.trim_end()))
        .collect::<Vec<_>>()
        .join("\n")
}

impl BEq {
    /// One direction: assume `(a_pre, a_sig)`, prove `(b_pre, b_sig)`: the fixed attempts in
    /// one version, then (with `[llm]`) the model's samples in a second one.
    async fn direction<L: LeanRpc + 'static>(
        &self,
        oracle: &mut Oracle<L>,
        key: &str,
        name: &'static str,
        assumed: (&str, &str),
        goal: (&str, &str),
        deadline: Instant,
    ) -> Result<Direction, MetricError> {
        let start = Instant::now();
        let ns = oracle.fresh_name("BEq");
        let mut attempts: Vec<String> = vec!["exact?".into()];
        attempts.extend(SCRIPTS.iter().map(|s| s.to_string()));
        let mut failures = Vec::new();
        let mut proof = Self::round(
            oracle,
            key,
            &ns,
            assumed,
            goal,
            &attempts,
            0,
            deadline,
            &mut failures,
        )
        .await?;
        if let (None, Some(llm)) = (&proof, &self.llm) {
            let prompt = prompt(assumed, goal);
            match crate::llm::complete(llm, &[("user", prompt.as_str())], self.samples).await {
                Ok(samples) => {
                    let samples: Vec<String> = samples.iter().map(|s| strip_fences(s)).collect();
                    proof = Self::round(
                        oracle,
                        key,
                        &ns,
                        assumed,
                        goal,
                        &samples,
                        attempts.len(),
                        deadline,
                        &mut failures,
                    )
                    .await?;
                }
                Err(e) => failures.push(e.to_string()),
            }
        }
        Ok(Direction {
            name,
            proof,
            failures,
            elapsed: start.elapsed(),
        })
    }

    /// Run `attempts` (numbered from `offset`) in one version; the first admissible success.
    #[allow(clippy::too_many_arguments)]
    async fn round<L: LeanRpc + 'static>(
        oracle: &mut Oracle<L>,
        key: &str,
        ns: &str,
        assumed: (&str, &str),
        goal: (&str, &str),
        attempts: &[String],
        offset: usize,
        deadline: Instant,
        failures: &mut Vec<String>,
    ) -> Result<Option<(usize, String)>, MetricError> {
        let mut commands = vec![Command::new(format!(
            "namespace {ns}\nsection\n{}theorem thm_P {} := sorry\nend\nend {ns}",
            assumed.0, assumed.1
        ))];
        let mut checked = Vec::new();
        for (k, a) in attempts.iter().enumerate() {
            let i = offset + k;
            if let Err(e) = check_attempt(a, &NORMAL) {
                failures.push(format!("attempt {i}: {e}"));
                continue;
            }
            let head = format!(
                "namespace {ns}\nsection\n{}theorem attempt{i} {} := by\n",
                goal.0, goal.1
            );
            let line = u32::try_from(head.matches('\n').count()).unwrap_or(u32::MAX);
            commands.push(Command {
                text: format!("{head}{}\nend\nend {ns}", indent(a)),
                suggest_line: (a.trim() == "exact?").then_some(line),
            });
            commands.push(Command::new(format!("#print axioms {ns}.attempt{i}")));
            checked.push((i, a));
        }
        if checked.is_empty() {
            return Ok(None);
        }
        let (_, results) = oracle
            .run(key, &[], &commands, deadline)
            .await
            .map_err(|e| MetricError::Failed(e.to_string()))?;
        for (k, (i, script)) in checked.into_iter().enumerate() {
            let (Some(attempt), Some(axioms)) = (results.get(1 + 2 * k), results.get(2 + 2 * k))
            else {
                break;
            };
            if let Some(e) = attempt.errors.first() {
                failures.push(format!("attempt {i}: {e}"));
                continue;
            }
            if attempt
                .messages
                .iter()
                .any(|(sev, m)| *sev == 2 && m.starts_with("declaration uses"))
            {
                failures.push(format!("attempt {i}: uses sorry"));
                continue;
            }
            let axioms_text: String = axioms.messages.iter().map(|m| m.1.as_str()).collect();
            if !axioms_text.contains("sorryAx") {
                failures.push(format!(
                    "attempt {i}: proved without the assumed statement (axioms: {axioms_text})"
                ));
                continue;
            }
            let text = if script.trim() == "exact?" {
                match attempt.suggestions.first() {
                    Some(s) if s.contains("thm_P") => s.clone(),
                    Some(s) => {
                        failures.push(format!(
                            "attempt {i}: `exact?` found `{s}`, not using thm_P"
                        ));
                        continue;
                    }
                    None => script.clone(),
                }
            } else {
                script.clone()
            };
            return Ok(Some((i, text)));
        }
        Ok(None)
    }
}

/// The BEq paper's prompt (Appendix A.7.1): its instruction with the Normal tactic set, one of
/// its few-shot examples (the others are garbled in the text available here, so they are not
/// reproduced), and the two statements.
pub fn prompt(assumed: (&str, &str), goal: (&str, &str)) -> String {
    format!(
        "Given two Lean 4 theorems, please prove 'thm_Q' with 'thm_P'. You can only use the following tactics: {} 'thm_P' should be used at least once in the proof. DO NOT add any extra explanation. Here are some examples:\n\nInput:\n```\ntheorem thm_P : ¬ ∃ (x : ℚ), ( x ^ 2 = 12 ) := sorry\ntheorem thm_Q (q : ℚ ) : q ^ 2 ≠ 12 := by\n```\nOutput:\n```\nexact (not_exists.mp thm_P) q\n```\n\nAccording to the task description and examples, given the following two Lean 4 theorems, please prove 'thm_Q' with 'thm_P'.\nInput:\n```\n{}theorem thm_P {} := sorry\n{}theorem thm_Q {} := by\n```\nOutput:\n",
        NORMAL.join(", "),
        assumed.0,
        assumed.1,
        if goal.0 == assumed.0 { "" } else { goal.0 },
        goal.1
    )
}

/// A completion's proof without Markdown code fences around it.
fn strip_fences(s: &str) -> String {
    s.lines()
        .filter(|l| !l.trim_start().starts_with("```"))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

impl LeanMetric for BEq {
    fn name(&self) -> &'static str {
        "beq"
    }

    async fn judge<L: LeanRpc + 'static>(
        &self,
        oracle: &mut Oracle<L>,
        pair: &Pair<'_>,
    ) -> Result<LeanJudgement, MetricError> {
        let start = Instant::now();
        let deadline = start + self.time_limit;
        let counters = oracle.counters();
        let before = counters.snapshot();
        let key = Oracle::<L>::import_key(&[pair.reference_header, pair.candidate_header]);
        let (Some(r_sig), Some(c_sig)) = (signature(pair.reference), signature(pair.candidate))
        else {
            return Err(MetricError::Failed(
                "beq: no declaration signature found in the statement text".into(),
            ));
        };
        let (r_pre, c_pre) = (
            preamble(pair.reference_header),
            preamble(pair.candidate_header),
        );
        let forward = self
            .direction(
                oracle,
                &key,
                "reference ⇒ candidate",
                (&r_pre, &r_sig),
                (&c_pre, &c_sig),
                deadline,
            )
            .await?;
        // The second direction only matters when the first held (BEq needs both).
        let backward = if forward.proof.is_some() {
            Some(
                self.direction(
                    oracle,
                    &key,
                    "candidate ⇒ reference",
                    (&c_pre, &c_sig),
                    (&r_pre, &r_sig),
                    deadline,
                )
                .await?,
            )
        } else {
            None
        };
        let mut notes = Vec::new();
        let mut proofs = Vec::new();
        for d in std::iter::once(&forward).chain(backward.as_ref()) {
            match &d.proof {
                Some((i, p)) => {
                    notes.push(format!(
                        "{}: attempt {i} succeeded in {:?}: {p}",
                        d.name, d.elapsed
                    ));
                    proofs.push(format!("-- {}\n{p}", d.name));
                }
                None => notes.push(format!(
                    "{}: no attempt succeeded in {:?} ({})",
                    d.name,
                    d.elapsed,
                    d.failures.join("; ")
                )),
            }
        }
        if backward.is_none() {
            notes.push("candidate ⇒ reference not tried: the first direction failed".into());
        }
        let equal = forward.proof.is_some() && backward.as_ref().is_some_and(|b| b.proof.is_some());
        Ok(LeanJudgement {
            report: MetricReport {
                metric: "beq",
                verdict: Verdict::Equivalent(equal),
                distance: None,
                reference_size: pair.reference.tree.size(),
                candidate_size: pair.candidate.tree.size(),
                path: Vec::new(),
                notes,
                elapsed: start.elapsed(),
            },
            proof: (!proofs.is_empty()).then(|| proofs.join("\n")),
            work: LeanWork {
                total: counters.snapshot().since(&before),
                ..Default::default()
            },
        })
    }
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
