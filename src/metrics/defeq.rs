//! Metric `defeq`: definitional equality of the two statements, through Lean's own server.
//!
//! Owns the decision only; the oracle (`crate::lean::oracle`) runs the blocks. One version, two
//! blocks on the hidden declarations `P`, `Q` (design §7.11):
//! - the strict check `(type_of% @P) = (type_of% @Q) := by rfl`: `@` keeps implicit and
//!   instance binders in the Props, so a generalisation cannot be instantiated away;
//! - the papers' check `P = Q := by rfl` (BEq's `def_eq.py`, ASSESS's DefEq baseline), where
//!   Lean instantiates implicit arguments while elaborating.
//!
//! Verdict: equal only when the strict check closes and neither statement needs auto-bound
//! implicit names. ASSESS Appendix C.3's false positives are detected and reported, not counted:
//! the papers' check closing while the strict one fails (e.g. an implicit `{R : Type*}` that
//! Lean instantiated with `ℝ`; the implicit universe-typed binders are named in the note), and
//! statements that typecheck only through auto-bound names (probed under `autoImplicit false`).

use super::lean_backed::{
    declaration_texts, implicit_type_binders, JudgementStart, LeanJudgement, LeanMetric, LeanWork,
};
use super::{MetricError, MetricReport, Pair, Verdict};
use crate::lean::goals::LeanRpc;
use crate::lean::oracle::{Block, Oracle, Outcome};
use crate::lean::scopes::axiom_under;
use std::time::Duration;

/// The metric, with its wall-clock limit.
#[derive(Clone, Debug)]
pub struct DefEq {
    pub time_limit: Duration,
}

impl Default for DefEq {
    fn default() -> Self {
        DefEq { time_limit: Duration::from_secs(60) }
    }
}

impl LeanMetric for DefEq {
    fn name(&self) -> &'static str {
        "defeq"
    }

    async fn judge<L: LeanRpc + 'static>(
        &self,
        oracle: &mut Oracle<L>,
        pair: &Pair<'_>,
    ) -> Result<LeanJudgement, MetricError> {
        let judging = JudgementStart::now(oracle, pair, self.time_limit);
        let (key, deadline) = (&judging.key, judging.deadline);
        let [(ref_pre, ref_sig), (cand_pre, cand_sig)] = declaration_texts("defeq", pair)?;
        let failed = |e: crate::lean::oracle::OracleError| MetricError::Failed(e.to_string());
        let declared = oracle
            .declare(key, &[(&ref_pre, &ref_sig), (&cand_pre, &cand_sig)], deadline)
            .await
            .map_err(failed)?;
        let [p, q] = declared.as_slice() else {
            return Err(MetricError::Failed(
                "defeq: the oracle did not declare both statements".into(),
            ));
        };
        let mut notes = Vec::new();
        let report = |equal: bool, notes: Vec<String>| MetricReport {
            metric: "defeq",
            verdict: Verdict::Equivalent(equal),
            distance: None,
            reference_size: pair.reference.tree.size(),
            candidate_size: pair.candidate.tree.size(),
            path: Vec::new(),
            notes,
            elapsed: judging.start.elapsed(),
        };
        if let Some(e) = p.errors.first().or(q.errors.first()) {
            notes.push(format!("a statement does not typecheck: {e}"));
            return Ok(LeanJudgement {
                report: report(false, notes),
                proof: None,
                work: LeanWork { total: judging.work_so_far(), ..Default::default() },
            });
        }
        let strict_goal = format!("(type_of% @{}) = (type_of% @{})", p.name, q.name);
        let blocks = [
            Block {
                goal: strict_goal.clone(),
                path: Vec::new(),
                tactic: "rfl".into(),
                suggestions: false,
                universes: Vec::new(),
            },
            Block {
                goal: format!("{} = {}", p.name, q.name),
                path: Vec::new(),
                tactic: "rfl".into(),
                suggestions: false,
                universes: Vec::new(),
            },
        ];
        let (results, _) = oracle.run(key, &blocks, &[], deadline).await.map_err(failed)?;
        let closes =
            |i: usize| results.get(i).is_some_and(|r| matches!(r.outcome, Outcome::Closed));
        let (strict, papers) = (closes(0), closes(1));
        for (side, d) in [("reference", p), ("candidate", q)] {
            if d.autobound {
                notes.push(format!(
                    "{side} typechecks only with auto-bound implicit names: not counted as equal (ASSESS C.3)"
                ));
            }
        }
        if papers && !strict {
            let mut generalised: Vec<String> = implicit_type_binders(&ref_sig);
            generalised.extend(implicit_type_binders(&cand_sig));
            notes.push(format!(
                "false positive of the papers' `P = Q := by rfl` detected (ASSESS C.3): it closes only by instantiating implicit arguments{}",
                if generalised.is_empty() {
                    String::new()
                } else {
                    format!(" (implicit type variables: {})", generalised.join(", "))
                }
            ));
        }
        let equal = strict && !p.autobound && !q.autobound;
        let proof = strict.then(|| {
            format!(
                "{key}{}{}example : {strict_goal} := by\n  rfl\n",
                axiom_under(&ref_pre, &p.name, &ref_sig),
                axiom_under(&cand_pre, &q.name, &cand_sig),
            )
        });
        Ok(LeanJudgement {
            report: report(equal, notes),
            proof,
            work: LeanWork { total: judging.work_so_far(), ..Default::default() },
        })
    }
}
