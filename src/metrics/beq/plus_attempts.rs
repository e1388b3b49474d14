//! BEq+'s attempt texts (Poiroux et al., "Improving Autoformalization using Type Checking",
//! ProofNetVerif, arXiv 2406.07222, §BEq+), as LeanInteract's `examples/beq_plus.py`
//! (repository `augustepoiroux/LeanInteract`) defines them. Every attempt starts with
//! `intros; symm_saturate` ([`PRELUDE`]). Per direction (assume `thm_P`, prove `thm_Q`), in this
//! order, the first attempt Lean accepts and that uses `thm_P` proves the direction:
//!
//! 1. `exact?` (its suggestion, which must name `thm_P`, re-checked as a proof);
//! 2. if `assumption` alone closes the goal, the direction does **not** count (the goal follows
//!    from its own hypotheses) and the search stops;
//! 3. `apply thm_P`, then the closers (`tauto`, `simp_all_arith!`, `noncomm_ring`, `exact?`)
//!    combined as there: each on all goals in turn, or all in turn on each goal;
//! 4. unless the `have` closers (`tauto`, `simp_all_arith!`, `exact? using this`) prove the goal
//!    without `thm_P` — then an unused hypothesis would still put `thm_P` in the proof term
//!    and make any two true statements "equivalent" — `have : <thm_P's conclusion> := by
//!    apply_rules [thm_P]; <apply closers>`, then the `have` closers;
//! 5. `convert (config := .unfoldSameFun) thm_P using k` for k = 0..4, then the apply closers;
//! 6. only when enabled (off by default: it changes what the metric means, and `grind` exists
//!    from Lean 4.22), `grind [thm_P]`, named in the report.
//!
//! Without a Mathlib import the Mathlib closers (`tauto`, `noncomm_ring`) are left out (an
//! unknown tactic would make the whole attempt a parse error).
//!
//! Owns the attempt texts only ([`PlusPlan`]); imports nothing from the rest of BEq, which runs
//! them (`super`, in the order above) and names the metric (`crate::metrics::beq_plus`).

/// The closers after `apply thm_P` and `convert`. `true`: needs Mathlib.
const APPLY_CLOSERS: [(&str, bool); 4] =
    [("tauto", true), ("simp_all_arith!", false), ("noncomm_ring", true), ("exact?", false)];

/// The closers after the `have` of `thm_P`'s conclusion: `exact?` only from `this`, so the
/// library cannot close the goal on its own.
const HAVE_CLOSERS: [(&str, bool); 3] =
    [("tauto", true), ("simp_all_arith!", false), ("exact? using this", false)];

/// Most `using` depth of the `convert` attempts.
const MAX_CONVERT_DEPTH: usize = 4;

/// What every attempt starts with: introduce the binders, add the symmetric form of every
/// symmetric hypothesis (LeanInteract prepends the same two tactics to each proof it checks).
pub const PRELUDE: &str = "intros\nsymm_saturate";

/// BEq+'s fixed attempts (after `exact?`), and whether `grind` is one of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlusAttempts {
    /// Also try `grind [thm_P]` (Lean ≥ 4.22); off by default.
    pub grind: bool,
}

/// One direction's attempts, in order. The probes do not name `thm_P`: they only decide
/// whether a direction or an attempt is skipped, never prove anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlusPlan {
    /// Accepted by Lean → the goal follows from its own hypotheses: the direction does not count.
    pub assumption_probe: String,
    pub apply: String,
    /// Accepted by Lean → the closers prove the goal without `thm_P`: the `have` attempt is
    /// skipped (its unused hypothesis would still show `thm_P` in the proof term).
    pub have_probe: String,
    /// `None` when `thm_P`'s conclusion could not be read from its text.
    pub have: Option<String>,
    pub converts: Vec<String>,
    pub grind: Option<String>,
}

/// The closers combined as LeanInteract's BEq+ combines them: after `all_goals intros`, either
/// each closer in turn on all goals, or on each goal all closers in turn (both under `try`, so
/// they can add up).
fn combined(closers: &[(&str, bool)], mathlib: bool) -> String {
    let usable: Vec<&str> = closers
        .iter()
        .filter(|(_, needs_mathlib)| mathlib || !needs_mathlib)
        .map(|(c, _)| *c)
        .collect();
    let one_by_one: Vec<String> = usable.iter().map(|c| format!("(all_goals try {c})")).collect();
    let per_goal: Vec<String> = usable.iter().map(|c| format!("(try {c})")).collect();
    format!(
        "all_goals intros\nfirst | ({}) | (all_goals ({}))",
        one_by_one.join(" ; "),
        per_goal.join(" ; ")
    )
}

impl PlusAttempts {
    /// The attempts for a direction whose assumed statement concludes `conclusion` (the text
    /// after its binders' colon, without the colon); `mathlib`: the headers import Mathlib.
    pub fn plan(&self, conclusion: Option<&str>, mathlib: bool) -> PlusPlan {
        let apply_closers = combined(&APPLY_CLOSERS, mathlib);
        let have_closers = combined(&HAVE_CLOSERS, mathlib);
        let have = conclusion.map(|c| {
            let inner = format!("apply_rules [thm_P]\n{apply_closers}");
            let indented: Vec<String> = inner.lines().map(|l| format!("  {l}")).collect();
            format!(
                "{PRELUDE}\nhave : {} := by\n{}\n{have_closers}",
                c.replace('\n', " "),
                indented.join("\n")
            )
        });
        PlusPlan {
            assumption_probe: format!("{PRELUDE}\nassumption"),
            apply: format!("{PRELUDE}\napply thm_P\n{apply_closers}"),
            have_probe: format!("{PRELUDE}\n{have_closers}"),
            have,
            converts: (0..=MAX_CONVERT_DEPTH)
                .map(|k| {
                    format!(
                        "{PRELUDE}\nconvert (config := .unfoldSameFun) thm_P using {k}\n{apply_closers}"
                    )
                })
                .collect(),
            grind: self.grind.then(|| format!("{PRELUDE}\ngrind [thm_P]")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::beq::tactics::{check_proof, ProofRules, TacticSet};

    #[test]
    fn attempts_follow_leaninteract_and_are_admissible() {
        let plan = PlusAttempts::default().plan(Some("1 ≤ x"), true);
        let closers = "all_goals intros\nfirst | ((all_goals try tauto) ; (all_goals try simp_all_arith!) ; (all_goals try noncomm_ring) ; (all_goals try exact?)) | (all_goals ((try tauto) ; (try simp_all_arith!) ; (try noncomm_ring) ; (try exact?)))";
        assert_eq!(plan.apply, format!("intros\nsymm_saturate\napply thm_P\n{closers}"));
        assert_eq!(plan.assumption_probe, "intros\nsymm_saturate\nassumption");
        assert!(plan.have_probe.ends_with("(try exact? using this)))"));
        assert!(!plan.have_probe.contains("thm_P"));
        let have = plan.have.as_deref().expect("have");
        assert!(have.starts_with("intros\nsymm_saturate\nhave : 1 ≤ x := by\n  apply_rules [thm_P]\n  all_goals intros\n"));
        assert_eq!(plan.converts.len(), 5);
        assert_eq!(
            plan.converts[2],
            format!("intros\nsymm_saturate\nconvert (config := .unfoldSameFun) thm_P using 2\n{closers}")
        );
        assert!(plan.grind.is_none());
        let rules =
            ProofRules { set: TacticSet::All, assumed_name: "thm_P", goal_name: Some("thm_Q") };
        for mathlib in [true, false] {
            let plan = (PlusAttempts { grind: true }).plan(Some("1 ≤ x"), mathlib);
            let mut scripts = vec![plan.apply, plan.have.expect("have")];
            scripts.extend(plan.converts);
            scripts.extend(plan.grind);
            for script in scripts {
                if !mathlib {
                    assert!(
                        !script.contains("tauto") && !script.contains("noncomm_ring"),
                        "{script}"
                    );
                }
                check_proof(&script, &rules).unwrap_or_else(|e| panic!("{script}: {e}"));
            }
        }
    }
}
