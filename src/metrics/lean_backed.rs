//! What the Lean-backed metrics (`transted`, `defeq`) share: the async [`LeanMetric`] trait (they
//! await Lean, so the synchronous [`super::Metric`] does not fit), their answer
//! [`LeanJudgement`], and the pieces of a pair they send to the oracle (a statement's signature,
//! a header's non-import preamble, implicit type binders).
//!
//! Owns no I/O of its own: talking to Lean is `crate::lean::oracle`'s.

use super::{MetricError, MetricReport, Pair};
use crate::lean::goals::LeanRpc;
use crate::lean::oracle::{CounterSnapshot, Counters, Oracle};
use crate::trees::Statement;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Work counts of one judgement, for the numbers asked for (versions and round trips per
/// expanded search node).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeanWork {
    /// Search nodes whose children were generated (0 for `defeq`).
    pub expanded: usize,
    /// Everything sent for this judgement.
    pub total: CounterSnapshot,
    /// What the search loop alone sent (after declaring the statements and stage 0).
    pub search: CounterSnapshot,
}

/// The start of one Lean-backed judgement: its clock and deadline, the oracle's counters as they
/// stood, and the scratch document both statements share (its import key).
pub struct JudgementStart {
    pub start: Instant,
    pub deadline: Instant,
    pub counters: Arc<Counters>,
    pub before: CounterSnapshot,
    pub key: String,
}

impl JudgementStart {
    /// Start judging `pair` on `oracle` now, with `time_limit` for the whole pair.
    pub fn now<L: LeanRpc>(oracle: &Oracle<L>, pair: &Pair<'_>, time_limit: Duration) -> Self {
        let start = Instant::now();
        let counters = oracle.counters();
        JudgementStart {
            start,
            deadline: start + time_limit,
            before: counters.snapshot(),
            counters,
            key: Oracle::<L>::import_key(&[pair.reference_header, pair.candidate_header]),
        }
    }

    /// Everything the oracle sent since the start.
    pub fn work_so_far(&self) -> CounterSnapshot {
        self.counters.snapshot().since(&self.before)
    }
}

/// A Lean-backed metric's answer: the report every front end shows, the proof text that checks on
/// its own (a complete proof when the goal closed, else the best path ending in `sorry`), and
/// the work counts.
#[derive(Clone, Debug, PartialEq)]
pub struct LeanJudgement {
    pub report: MetricReport,
    pub proof: Option<String>,
    pub work: LeanWork,
}

/// A metric that asks Lean (through an [`Oracle`]).
pub trait LeanMetric: Send + Sync {
    /// The contract name (`transted`, `defeq`).
    fn name(&self) -> &'static str;
    /// Judge one pair; bounded by the metric's own time limit.
    fn judge<L: LeanRpc + 'static>(
        &self,
        oracle: &mut Oracle<L>,
        pair: &Pair<'_>,
    ) -> impl Future<Output = Result<LeanJudgement, MetricError>> + Send;
}

/// Each side's header preamble and signature, `[reference, candidate]`, as the oracle declares
/// them; an error naming `metric` when a statement's text has no declaration signature.
pub fn declaration_texts(
    metric: &str,
    pair: &Pair<'_>,
) -> Result<[(String, String); 2], MetricError> {
    let (Some(ref_sig), Some(cand_sig)) = (signature(pair.reference), signature(pair.candidate))
    else {
        return Err(MetricError::Failed(format!(
            "{metric}: no declaration signature found in the statement text"
        )));
    };
    Ok([(preamble(pair.reference_header), ref_sig), (preamble(pair.candidate_header), cand_sig)])
}

/// The signature of a declaration (`binders : type`), taken from the statement's source after
/// its keyword and name and before a top-level `:=` (brackets and strings respected).
pub fn signature(statement: &Statement) -> Option<String> {
    let src = statement.source.as_str();
    let kw = statement.keyword.as_str();
    // The keyword as a whole word (attributes and doc comments may come before it).
    let mut at = None;
    let mut from = 0;
    while let Some(i) = src[from..].find(kw) {
        let i = from + i;
        let before_ok = src[..i].chars().next_back().is_none_or(|c| c.is_whitespace() || c == ']');
        let after_ok = src[i + kw.len()..].chars().next().is_some_and(char::is_whitespace);
        if before_ok && after_ok {
            at = Some(i + kw.len());
            break;
        }
        from = i + kw.len();
    }
    let mut rest = src[at?..].trim_start();
    if statement.name.is_some() {
        // The name token: `«…»` or up to whitespace / a binder bracket / a colon.
        let end = if rest.starts_with('«') {
            rest.find('»').map(|i| i + '»'.len_utf8())?
        } else {
            rest.find(|c: char| c.is_whitespace() || "({[⦃:".contains(c)).unwrap_or(rest.len())
        };
        let name = &rest[..end];
        // Universe parameters of the name (`foo.{u}`) belong to the name.
        rest = rest[end..].trim_start();
        if name.ends_with('.') || rest.starts_with(".{") {
            let close = rest.find('}')?;
            rest = rest[close + 1..].trim_start();
        }
    }
    let mut depth = 0i32;
    let mut in_string = false;
    // `let x := v;` / `have h := v;` at top level own the next `:=` (not the proof's).
    let mut pending_lets = 0usize;
    let chars: Vec<(usize, char)> = rest.char_indices().collect();
    let mut cut = rest.len();
    let word_at = |k: usize, w: &str| {
        let starts = rest[chars[k].0..].starts_with(w);
        if !starts {
            // Without the word here, `at + w.len()` may fall inside a multi-byte character.
            return false;
        }
        let before = k == 0 || !chars[k - 1].1.is_alphanumeric() && chars[k - 1].1 != '_';
        let after = rest[chars[k].0 + w.len()..].chars().next().is_none_or(char::is_whitespace);
        starts && before && after
    };
    for (k, &(i, c)) in chars.iter().enumerate() {
        match c {
            '"' => in_string = !in_string,
            '(' | '[' | '{' | '⦃' | '⟨' if !in_string => depth += 1,
            ')' | ']' | '}' | '⦄' | '⟩' if !in_string => depth -= 1,
            'l' | 'h' if !in_string && (word_at(k, "let") || word_at(k, "have")) => {
                pending_lets += 1;
            }
            ':' if !in_string && depth == 0 && chars.get(k + 1).map(|x| x.1) == Some('=') => {
                if pending_lets > 0 {
                    pending_lets -= 1;
                } else {
                    cut = i;
                    break;
                }
            }
            _ => {}
        }
    }
    let sig = rest[..cut].trim();
    (!sig.is_empty()).then(|| sig.to_string())
}

/// A header's lines other than imports (opens, namespaces, set_options, variables).
pub fn preamble(header: &str) -> String {
    header
        .lines()
        .filter(|l| !l.trim_start().starts_with("import "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Implicit binders whose type is a universe (`{R : Type*}`, `{Ω : Type u_1}`, `{α : Sort u}`):
/// the generalisations ASSESS Appendix C.3 found behind definitional-equality false positives.
pub fn implicit_type_binders(signature: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = signature;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let inner = &after[..close];
        if let Some((names, ty)) = inner.split_once(':') {
            let ty = ty.trim();
            let universe = ["Type", "Sort"].iter().any(|u| {
                ty.strip_prefix(u).is_some_and(|r| r.is_empty() || r.starts_with([' ', '*', '_']))
            });
            if universe {
                out.extend(names.split_whitespace().map(String::from));
            }
        }
        rest = &after[close + 1..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trees::Tree;

    fn st(keyword: &str, name: Option<&str>, source: &str) -> Statement {
        Statement {
            keyword: keyword.into(),
            name: name.map(String::from),
            source: source.into(),
            tree: Tree::leaf("x"),
            unparsed: Vec::new(),
        }
    }

    #[test]
    fn signatures_from_sources() {
        // (keyword, name, source, signature)
        let cases = [
            (
                "theorem",
                Some("exercise_1_1b"),
                "theorem exercise_1_1b (x : ℝ) (y : ℚ) (h : y ≠ 0) : ( Irrational x ) → Irrational ( x * y ) := by sorry",
                "(x : ℝ) (y : ℚ) (h : y ≠ 0) : ( Irrational x ) → Irrational ( x * y )",
            ),
            (
                "example",
                None,
                "example : let B : ℝ × ℝ := (7, -1); B.1 = 7",
                ": let B : ℝ × ℝ := (7, -1); B.1 = 7",
            ),
            (
                "theorem",
                Some("t"),
                "@[simp] theorem t.{u} {α : Type u} (a : α) : a = a",
                "{α : Type u} (a : α) : a = a",
            ),
            // `h₀`: an `h` that is not `have`, followed by a multi-byte subscript.
            (
                "theorem",
                Some("t"),
                "theorem t (h₀ : 0 < b) : b = 65 := by sorry",
                "(h₀ : 0 < b) : b = 65",
            ),
            (
                "theorem",
                Some("«weird name»"),
                "theorem «weird name» : True",
                ": True",
            ),
        ];
        for (keyword, name, source, expected) in cases {
            assert_eq!(
                signature(&st(keyword, name, source)).as_deref(),
                Some(expected),
                "{source}"
            );
        }
    }

    #[test]
    fn implicit_universe_binders_are_found() {
        assert_eq!(implicit_type_binders("{R : Type*} [CommRing R] (x : R) : x = x"), ["R"]);
        assert_eq!(
            implicit_type_binders("{Ω : Type u_1} [Infinite Ω] : Infinite (Equiv.Perm Ω)"),
            ["Ω"]
        );
        assert!(implicit_type_binders("{n : ℕ} (h : n > 0) : n ≥ 1").is_empty());
        assert!(implicit_type_binders("{T : Typeclass} : True").is_empty());
    }

    #[test]
    fn preamble_drops_imports_only() {
        assert_eq!(
            preamble("import Mathlib\nopen Real\nset_option x 1\n"),
            "open Real\nset_option x 1\n"
        );
    }
}
