//! BEq's Lean side ([`ProofChecker`], `crate::metrics::beq`) over the Lean oracle.
//!
//! Owns the text of one check: in a fresh namespace (a normal name, so `exact?` can see
//! `thm_P`, design §7.10), the assumed declaration as given (`theorem thm_P … := sorry`) under its
//! own header's preamble, the goal declaration (`theorem thm_Q … := by`) followed by the proof
//! under its own, then `#print axioms` of the goal. Each side sits in a `section` of its own and
//! closes whatever scopes its header opened before that section's `end` (`super::scopes`: a
//! `noncomputable section` in a header would otherwise take the wrapper's `end`). One document
//! version per check. Leaves the attempt order, admissibility and the report to
//! `crate::metrics::beq`, the documents and the protocol to `super::oracle`.
//!
//! Verdict of a check: an error outside the two statements' and the proof's own lines (a
//! header's `open`, a scope's `end`, `#print axioms`) → [`CheckError::Unavailable`], a failure
//! of the run, never a verdict; any error in the goal's lines → `Failed`; a "declaration uses
//! sorry" warning there → `Failed` (a `sorry` of its own); `sorryAx` missing from `#print axioms`
//! → `ClosedWithoutAssumed` (the proof does not use `thm_P`, whose only axiom is that `sorry`);
//! else `Proved`.
//! The oracle's deadline → `Timeout`.

use super::goals::LeanRpc;
use super::oracle::{Command, Oracle, OracleError};
use super::scopes::HeaderScopes;
use crate::metrics::beq::{
    BoxFuture, CheckError, CheckOutcome, CheckRequest, ProofChecker, Suggestion, ASSUMED_NAME,
    GOAL_NAME,
};
use crate::metrics::lean_backed::preamble;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

/// The oracle as BEq's checker. One check at a time (the oracle has one active region).
pub struct OracleProofChecker<L: LeanRpc> {
    oracle: Mutex<Oracle<L>>,
    /// Wall clock per check.
    pub per_check: Duration,
}

impl<L: LeanRpc + 'static> OracleProofChecker<L> {
    pub fn new(oracle: Oracle<L>, per_check: Duration) -> OracleProofChecker<L> {
        OracleProofChecker { oracle: Mutex::new(oracle), per_check }
    }

    /// Load the imports of both headers (and build `exact?`'s index) outside any check's time
    /// ([`Oracle::warm_up`]); the time it took.
    pub async fn warm_up(
        &self,
        assumed_header: &str,
        goal_header: &str,
    ) -> Result<Duration, OracleError> {
        let mut oracle = self.oracle.lock().await;
        let key = Oracle::<L>::import_key(&[assumed_header, goal_header]);
        oracle.warm_up(&key, true).await
    }

    /// Forget failed headers (see [`Oracle::discard_failed_headers`]; the editor's retry).
    pub async fn discard_failed_headers(&self) {
        self.oracle.lock().await.discard_failed_headers().await;
    }

    /// The header error the oracle has seen, if any (a batch stops on it).
    pub async fn header_failure(&self) -> Option<OracleError> {
        self.oracle.lock().await.header_failure()
    }

    /// Run `proof` (or `exact?` with its code actions) on the request's goal.
    async fn run(
        &self,
        req: CheckRequest<'_>,
        proof: &str,
        suggest: bool,
    ) -> Result<Option<(Vec<String>, bool, String, Vec<String>)>, CheckError> {
        let unavailable = |e: String| CheckError::Unavailable(e);
        let assumed_scopes = HeaderScopes::read(&preamble(req.assumed_header))
            .map_err(|e| unavailable(e.to_string()))?;
        let goal_scopes = HeaderScopes::read(&preamble(req.goal_header))
            .map_err(|e| unavailable(e.to_string()))?;
        let mut oracle = self.oracle.lock().await;
        let key = Oracle::<L>::import_key(&[req.assumed_header, req.goal_header]);
        let ns = oracle.fresh_name("BEq");
        let assumed = req.assumed.trim_end();
        let assumed_head = format!("namespace {ns}\nsection\n{}", assumed_scopes.text());
        let assumed_lines =
            lines_of(&assumed_head)..lines_of(&assumed_head) + lines_of(assumed) + 1;
        // `thm_P` declared inside a namespace of its header is out of reach of `thm_Q` under
        // another header: open that one name.
        let reach = match assumed_scopes.namespace() {
            n if n.is_empty() || n == goal_scopes.namespace() => String::new(),
            n => format!("open {ns}.{n} ({ASSUMED_NAME})\n"),
        };
        let goal = req.goal.trim_end();
        let goal_head = format!("namespace {ns}\nsection\n{reach}{}", goal_scopes.text());
        let goal_first = lines_of(&goal_head);
        let head = format!("{goal_head}{goal}\n");
        let line = lines_of(&head);
        let body: Vec<String> = proof.lines().map(|l| format!("  {l}")).collect();
        let goal_lines = goal_first..line + u32::try_from(body.len()).unwrap_or(u32::MAX);
        let commands = [
            Command::new(format!(
                "{assumed_head}{assumed}\n{}end\nend {ns}",
                assumed_scopes.closing()
            )),
            Command {
                text: format!("{head}{}\n{}end\nend {ns}", body.join("\n"), goal_scopes.closing()),
                suggest_line: suggest
                    .then(|| line + u32::try_from(body.len().max(1) - 1).unwrap_or(0)),
            },
            Command::new(format!("#print axioms {ns}.{}", goal_scopes.qualify(GOAL_NAME))),
        ];
        let deadline = Instant::now() + self.per_check;
        match oracle.run(&key, &[], &commands, deadline).await {
            Ok((_, r)) if r.len() == 3 => {
                // Only the two statements and the proof are judged: an error on any other line
                // (a header's `open`, a scope's `end`, `#print axioms`) means the check itself
                // could not be set up.
                let outside = r[0]
                    .error_lines
                    .iter()
                    .find(|(l, _)| !assumed_lines.contains(l))
                    .or_else(|| r[1].error_lines.iter().find(|(l, _)| !goal_lines.contains(l)))
                    .or_else(|| r[2].error_lines.first());
                if let Some((_, m)) = outside {
                    return Err(unavailable(format!(
                        "Lean reported an error outside the statements and the proof: {m}"
                    )));
                }
                let uses_sorry = r[1]
                    .messages
                    .iter()
                    .any(|(sev, m)| *sev == 2 && m.starts_with("declaration uses"));
                let axioms: String = r[2].messages.iter().map(|m| m.1.as_str()).collect();
                Ok(Some((r[1].errors.clone(), uses_sorry, axioms, r[1].suggestions.clone())))
            }
            Ok(_) => Err(CheckError::Protocol("the oracle lost a command's result".into())),
            Err(OracleError::Deadline { .. }) => Ok(None),
            Err(
                e @ (OracleError::Lean { .. }
                | OracleError::WorkerLost { .. }
                | OracleError::Header { .. }
                | OracleError::Preamble { .. }
                | OracleError::Scratch { .. }),
            ) => Err(CheckError::Unavailable(e.to_string())),
            Err(e) => Err(CheckError::Protocol(e.to_string())),
        }
    }
}

fn lines_of(s: &str) -> u32 {
    u32::try_from(s.matches('\n').count()).unwrap_or(u32::MAX)
}

impl<L: LeanRpc + 'static> ProofChecker for OracleProofChecker<L> {
    fn check<'a>(
        &'a self,
        req: CheckRequest<'a>,
    ) -> BoxFuture<'a, Result<CheckOutcome, CheckError>> {
        Box::pin(async move {
            let Some((errors, uses_sorry, axioms, _)) = self.run(req, req.proof, false).await?
            else {
                return Ok(CheckOutcome::Timeout);
            };
            Ok(if !errors.is_empty() {
                CheckOutcome::Failed { errors }
            } else if uses_sorry {
                CheckOutcome::Failed { errors: vec!["the proof uses sorry".into()] }
            } else if !axioms.contains("sorryAx") {
                CheckOutcome::ClosedWithoutAssumed { axioms }
            } else {
                CheckOutcome::Proved
            })
        })
    }

    fn suggest<'a>(
        &'a self,
        req: CheckRequest<'a>,
    ) -> BoxFuture<'a, Result<Suggestion, CheckError>> {
        Box::pin(async move {
            // `exact?` after the request's tactic lines (BEq+'s prelude), suggesting on its line.
            let proof = if req.proof.trim().is_empty() {
                "exact?".to_string()
            } else {
                format!("{}\nexact?", req.proof.trim_end())
            };
            let Some((errors, _, _, suggestions)) = self.run(req, &proof, true).await? else {
                return Ok(Suggestion::Timeout);
            };
            Ok(match suggestions.into_iter().next() {
                Some(proof) if errors.is_empty() => Suggestion::Found { proof },
                _ => Suggestion::NotFound { errors },
            })
        })
    }
}
