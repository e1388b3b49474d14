//! BEq's prompt (BEq paper, Appendix A.7.1) and the extraction of a proof script from a model
//! answer.
//!
//! Owns only text: it does not call the model (that is `crate::llm`) nor check the proof
//! (`super::tactics`). The template and the five few-shot examples follow A.7.1; the paper's
//! text reaches us through OCR, so the Lean symbols of the examples were restored by hand
//! (e.g. the first example's goal is `¬ (q ^ 2 = 12)`, the statement its proof
//! `exact (not_exists.mp thm_P) q` proves).

use super::tactics::TacticSet;

/// The instruction, with `{ALLOWED_TACTICS}` filled by [`build_prompt`].
const INSTRUCTION: &str = "Given two Lean 4 theorems, please prove 'thm_Q' with 'thm_P'. \
You can only use the following tactics: {ALLOWED_TACTICS} \
'thm_P' should be used at least once in the proof. DO NOT add any extra explanation. \
Here are some examples:";

/// Few-shot examples of A.7.1: (input, output).
const EXAMPLES: [(&str, &str); 5] = [
    (
        "open Topology Filter Real Complex TopologicalSpace Finset
open scoped BigOperators
noncomputable section

theorem thm_P : ¬ ∃ (x : ℚ), ( x ^ 2 = 12 ) := sorry

theorem thm_Q (q : ℚ ) : ¬ (q ^ 2 = 12) := by",
        "exact (not_exists.mp thm_P) q",
    ),
    (
        "noncomputable section
open Fintype Subgroup Set Polynomial Ideal
open scoped BigOperators

theorem thm_P {p q r : ℕ} {G : Type*} [Group G]
  [Fintype G] (hpqr : p < q ∧ q < r)
  (hpqr1 : p.Prime ∧ q.Prime ∧ r.Prime) (hG : card G = p*q*r) :
  Nonempty (Sylow p G) ∨ Nonempty (Sylow q G) ∨ Nonempty (Sylow r G) :=
sorry

theorem thm_Q {p : ℕ } {q : ℕ } {r : ℕ } {G : Type u_1} [Group G] [Fintype G] (hp
    : Nat.Prime p) (hq : Nat.Prime q) (hr : Nat.Prime r) (hpq : p < q) (hqr : q < r)
    (hG : Fintype.card G = p * q * r) : Nonempty (Sylow p G) ∨ Nonempty (Sylow q G)
    ∨ Nonempty (Sylow r G) := by",
        "exact thm_P (And.intro hpq hqr) (And.intro hp (And.intro hq hr)) hG",
    ),
    (
        "import Mathlib
open Fintype Complex Polynomial LinearMap FiniteDimensional Module Module.End
open scoped BigOperators

theorem thm_P {F V : Type*} [AddCommGroup V] [Field F]
  [Module F V] (S T : End F V) :
  (S * T).Eigenvalues = (T * S).Eigenvalues :=
sorry

theorem thm_Q {K : Type v} {V : Type w} [Field K] [AddCommGroup V] [Module K V] (S :
    Module.End K V) (T : Module.End K V) : Module.End.Eigenvalues (S * T) =
    Module.End.Eigenvalues (T * S) := by",
        "exact @thm_P K V _ _ _ S T",
    ),
    (
        "import Mathlib
open Function Fintype Subgroup Ideal Polynomial Submodule Zsqrtd
open scoped BigOperators
noncomputable section

theorem thm_P
    {p : ℕ} {hp : Nat.Prime p} (h : ∃ r : ℕ, p = 2 ^ r + 1) :
    ∃ (k : ℕ), p = 2 ^ (2 ^ k) + 1 :=
sorry

theorem thm_Q {p : ℕ } (hp : Nat.Prime p) (h : ∃ r : ℕ, p = 2 ^ r + 1)
  : ∃ (k : ℕ ), p = 2 ^ 2 ^ k + 1 := by",
        "exact @thm_P p hp h",
    ),
    (
        "import Mathlib
open Fintype Set Real Ideal Polynomial
open scoped BigOperators
noncomputable section

theorem thm_P {G : Type*} [Group G]
  [Fintype G] (hG2 : Even (card G)) :
  ∃ (a : G), a ≠ 1 ∧ a = a⁻¹ :=
sorry

theorem thm_Q {G : Type*} [Group G] [Fintype G] (h : Fintype.card G % 2 = 0) :
    ∃ a : G, a ≠ 1 ∧ a = a⁻¹ := by",
        "have hG : Even (card G) := by exact?
exact thm_P hG",
    ),
];

/// The two statements of one BEq direction, already renamed.
#[derive(Clone, Copy, Debug)]
pub struct PromptInput<'a> {
    /// Header (imports, `open`s) under which both statements are elaborated.
    pub header: &'a str,
    /// The assumed statement as `theorem thm_P … := sorry`.
    pub assumed: &'a str,
    /// The statement to prove as `theorem thm_Q … := by`.
    pub goal: &'a str,
}

/// The A.7.1 prompt for one direction, with the allowed tactics of `set` listed.
pub fn build_prompt(set: TacticSet, input: &PromptInput<'_>) -> String {
    let allowed = match set.allowed() {
        Some(list) => list.join(", "),
        None => "any tactic except sorry, admit and native_decide".to_string(),
    };
    let mut out = INSTRUCTION.replace("{ALLOWED_TACTICS}", &allowed);
    out.push_str("\n\n");
    for (input_text, output) in EXAMPLES {
        out.push_str(&format!(
            "Input:\n```lean\n{input_text}\n```\nOutput:\n```lean\n{output}\n```\n\n"
        ));
    }
    out.push_str(
        "According to the task description and examples, given the following two Lean 4 \
         theorems, please prove 'thm_Q' with 'thm_P'.\nInput:\n```lean\n",
    );
    let header = input.header.trim_end();
    if !header.is_empty() {
        out.push_str(header);
        out.push_str("\n\n");
    }
    out.push_str(input.assumed.trim_end());
    out.push_str("\n\n");
    out.push_str(input.goal.trim_end());
    out.push_str("\n```\nOutput:\n");
    out
}

/// The proof script in a model answer: the first fenced code block (any info string), or the
/// whole answer without fences; a restated `theorem … := by` and a leading `by` are dropped and
/// the common indentation removed. `None` when nothing is left.
pub fn extract_proof(answer: &str) -> Option<String> {
    let body = first_fenced_block(answer).unwrap_or(answer);
    let mut text = body.trim_matches('\n').to_string();
    // A model that restates the goal: keep what follows its `:= by`.
    if let Some(idx) = text.find(":= by") {
        let before = &text[..idx];
        if before.contains("theorem") || before.contains("lemma") || before.contains("example") {
            text = blank_prefix(&text, idx + ":= by".len());
        }
    }
    let start = text.len() - text.trim_start().len();
    let rest = &text[start..];
    if let Some(after) = rest.strip_prefix("by") {
        if after.is_empty() || after.starts_with(char::is_whitespace) {
            text = blank_prefix(&text, start + 2);
        }
    }
    // Drop blank lines at the start; keep the indentation of the first real line.
    let lines: Vec<&str> = text.lines().skip_while(|l| l.trim().is_empty()).collect();
    let text = dedent(&lines).trim_end().to_string();
    if text.trim().is_empty() {
        None
    } else {
        Some(text)
    }
}

/// `text` without its first `cut` bytes; on the line where the cut falls, the removed characters
/// become spaces, so what follows keeps its column (a tactic block's column is significant).
fn blank_prefix(text: &str, cut: usize) -> String {
    let line_start = text[..cut].rfind('\n').map_or(0, |i| i + 1);
    let width = text[line_start..cut].chars().count();
    format!("{}{}", " ".repeat(width), &text[cut..])
}

fn first_fenced_block(answer: &str) -> Option<&str> {
    let open = answer.find("```")?;
    let after_open = &answer[open + 3..];
    // Skip the info string (`lean`, `lean4`, ...).
    let body_start = after_open.find('\n').map_or(after_open.len(), |i| i + 1);
    let body = &after_open[body_start..];
    let close = body.find("```").unwrap_or(body.len());
    Some(&body[..close])
}

/// Remove the indentation common to all non-blank lines.
fn dedent(lines: &[&str]) -> String {
    let indent_of = |l: &str| l.len() - l.trim_start().len();
    let common =
        lines.iter().filter(|l| !l.trim().is_empty()).map(|l| indent_of(l)).min().unwrap_or(0);
    lines.iter().map(|l| l.get(common..).unwrap_or("").trim_end()).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::beq::tactics::{check_proof, ProofRules};

    #[test]
    fn prompt_lists_tactics_and_statements() {
        let p = build_prompt(
            TacticSet::Normal,
            &PromptInput {
                header: "import Mathlib\nopen Real\n",
                assumed: "theorem thm_P (x : ℝ) : x ^ 2 ≥ 0 := sorry",
                goal: "theorem thm_Q (y : ℝ) : 0 ≤ y ^ 2 := by",
            },
        );
        assert!(p.starts_with("Given two Lean 4 theorems, please prove 'thm_Q' with 'thm_P'."));
        assert!(p.contains(
            "You can only use the following tactics: exact, exact?, have, apply, cases', \
             constructor, ext, intro, intros, rw, use 'thm_P' should be used"
        ));
        assert_eq!(p.matches("Input:").count(), 6);
        assert!(p.ends_with(
            "import Mathlib\nopen Real\n\ntheorem thm_P (x : ℝ) : x ^ 2 ≥ 0 := sorry\n\n\
             theorem thm_Q (y : ℝ) : 0 ≤ y ^ 2 := by\n```\nOutput:\n"
        ));
        assert!(!p.contains("{ALLOWED_TACTICS}"));
    }

    #[test]
    fn examples_pass_the_normal_checker() {
        // The paper's own few-shot outputs must be admissible, or the prompt teaches rejects.
        for (_, output) in EXAMPLES {
            let rules = ProofRules {
                set: TacticSet::Normal,
                assumed_name: "thm_P",
                goal_name: Some("thm_Q"),
            };
            assert!(check_proof(output, &rules).is_ok(), "{output}");
        }
    }

    #[test]
    fn extraction() {
        let cases: &[(&str, Option<&str>)] = &[
            ("```lean\nexact thm_P\n```", Some("exact thm_P")),
            (
                "Output:\n```lean4\nby\n  intro x\n  exact thm_P x\n```\nmore",
                Some("intro x\nexact thm_P x"),
            ),
            ("```\nby exact thm_P\n```", Some("exact thm_P")),
            (
                "```lean\ntheorem thm_Q (x : ℕ) : x = x := by\n  exact thm_P x\n```",
                Some("exact thm_P x"),
            ),
            ("exact thm_P", Some("exact thm_P")),
            (
                "  constructor\n  · exact thm_P.1\n  · exact thm_P.2",
                Some("constructor\n· exact thm_P.1\n· exact thm_P.2"),
            ),
            ("```lean\n```", None),
            ("", None),
            ("bypass thm_P", Some("bypass thm_P")),
            ("by intro x\n   exact thm_P x", Some("intro x\nexact thm_P x")),
            (
                "have h : 1 = 1 := by\n  rfl\nexact thm_P",
                Some("have h : 1 = 1 := by\n  rfl\nexact thm_P"),
            ),
            ("```lean\nexact thm_P", Some("exact thm_P")),
        ];
        for (answer, want) in cases {
            assert_eq!(extract_proof(answer).as_deref(), *want, "{answer:?}");
        }
    }
}
