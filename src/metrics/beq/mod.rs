//! BEq (metric `beq`): bidirectional extended definitional equivalence (BEq paper §3; research
//! notes §2, §7.10), driven over a narrow [`ProofChecker`] that the Lean side implements.
//!
//! Owns the per-direction attempt order (`exact?` first, then deterministic scripts within the
//! tactic set, then K LLM samples when a [`ProofSampler`] is configured), the admissibility check
//! of every attempt *before* it reaches Lean (`tactics`), the deadline, and the report. It does
//! not talk to Lean (the checker does: hidden scratch documents live in `crate::lean`) nor to
//! HTTP (`crate::llm`).
//!
//! Naming follows the paper's prompt: in each direction the assumed statement is `thm_P`
//! (declared `:= sorry`) and the one to prove is `thm_Q`; the checker places them under fresh
//! hidden names in its own document, and the proof text refers to them as `thm_P`.

pub mod plus_attempts;
pub mod prompt;
pub mod tactics;

use crate::llm::{ChatMessage, LlmClient, LlmError};
use crate::metrics::{MetricReport, PathStep, Verdict};
use plus_attempts::{PlusAttempts, PRELUDE};
use prompt::PromptInput;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tactics::{ProofRejection, ProofRules, TacticSet};

/// Name of the assumed statement in every proof text.
pub const ASSUMED_NAME: &str = "thm_P";
/// Name of the statement to prove.
pub const GOAL_NAME: &str = "thm_Q";

/// A boxed future, so the traits stay object-safe without `async_trait`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One proof to check: assume `assumed` (declared `:= sorry`), prove `goal` with `proof`.
#[derive(Clone, Copy, Debug)]
pub struct CheckRequest<'a> {
    /// Header (imports, `open`s, ...) the assumed statement was written under.
    pub assumed_header: &'a str,
    /// `theorem thm_P … := sorry`.
    pub assumed: &'a str,
    /// Header the goal statement was written under.
    pub goal_header: &'a str,
    /// `theorem thm_Q … := by` (the proof goes on the following lines).
    pub goal: &'a str,
    /// The tactic script, unindented; already admitted by [`tactics::check_proof`].
    pub proof: &'a str,
}

/// What Lean said about one proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckOutcome {
    /// No error, no `sorry` of its own, and the assumed theorem in its axioms.
    Proved,
    /// Lean's error messages.
    Failed {
        errors: Vec<String>,
    },
    /// Lean accepted the proof (no error, no `sorry` of its own), but the assumed theorem is
    /// not among its axioms: it proves the goal without `thm_P`.
    ClosedWithoutAssumed {
        /// What `#print axioms` said.
        axioms: String,
    },
    Timeout,
}

/// What `exact?` said on the goal, with the assumed statement in scope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Suggestion {
    /// The "Try this" text, e.g. `exact thm_P x h` (without `Try this:` or `[apply]`).
    Found {
        proof: String,
    },
    /// `exact?` could not close the goal.
    NotFound {
        errors: Vec<String>,
    },
    Timeout,
}

/// The Lean side could not run the check at all (server gone, protocol error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    #[error("Lean is unavailable: {0}")]
    Unavailable(String),
    #[error("Lean protocol error: {0}")]
    Protocol(String),
}

/// The Lean side of BEq. Implemented by the Lean oracle; test doubles implement it in tests.
pub trait ProofChecker: Send + Sync {
    /// Check `req.proof` of `req.goal` with `req.assumed` in scope.
    fn check<'a>(
        &'a self,
        req: CheckRequest<'a>,
    ) -> BoxFuture<'a, Result<CheckOutcome, CheckError>>;
    /// Run `exact?` on `req.goal` after the tactic lines in `req.proof` (usually none) and
    /// return its "Try this" suggestion.
    fn suggest<'a>(
        &'a self,
        req: CheckRequest<'a>,
    ) -> BoxFuture<'a, Result<Suggestion, CheckError>>;
}

/// BEq's transformation function: K candidate answers to a prompt.
pub trait ProofSampler: Send + Sync {
    fn sample(&self, prompt: String, k: usize) -> BoxFuture<'_, Result<Vec<String>, LlmError>>;
}

impl ProofSampler for Arc<LlmClient> {
    fn sample(&self, prompt: String, k: usize) -> BoxFuture<'_, Result<Vec<String>, LlmError>> {
        Box::pin(async move { self.complete_async(vec![ChatMessage::user(prompt)], k).await })
    }
}

/// How hard BEq tries.
#[derive(Clone, Debug)]
pub struct BeqSettings {
    pub tactic_set: TacticSet,
    /// Wall-clock bound for the whole pair (both directions).
    pub deadline: Duration,
    /// K: LLM samples per direction.
    pub samples: usize,
    /// BEq+ (`crate::metrics::beq_plus`): its fixed attempts replace the scripts and the LLM.
    pub plus: Option<PlusAttempts>,
}

impl Default for BeqSettings {
    fn default() -> Self {
        BeqSettings {
            tactic_set: TacticSet::Normal,
            deadline: Duration::from_secs(30),
            samples: 8,
            plus: None,
        }
    }
}

/// Where an attempt came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttemptSource {
    /// `exact?`'s "Try this" suggestion.
    ExactQuery,
    /// A deterministic script built from the statements' binders.
    Script,
    /// LLM sample number `index` (0-based).
    Llm { index: usize },
}

/// What happened to one attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttemptResult {
    Proved,
    Failed {
        errors: Vec<String>,
    },
    /// Refused by the tactic checker; never sent to Lean.
    Rejected(ProofRejection),
    /// `exact?` found nothing.
    NoSuggestion {
        errors: Vec<String>,
    },
    /// Lean accepted it without using `thm_P` (a BEq+ probe: it skips an attempt or the
    /// direction, it proves nothing).
    ClosedWithout,
    Timeout,
    CheckError(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    pub source: AttemptSource,
    /// The proof text (empty for an `exact?` that found nothing).
    pub proof: String,
    pub result: AttemptResult,
    pub elapsed: Duration,
}

/// Which statement is assumed in a direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Assume the reference, prove the candidate.
    ReferenceImpliesCandidate,
    /// Assume the candidate, prove the reference.
    CandidateImpliesReference,
}

impl Direction {
    pub fn label(self) -> &'static str {
        match self {
            Direction::ReferenceImpliesCandidate => "reference ⇒ candidate",
            Direction::CandidateImpliesReference => "candidate ⇒ reference",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectionOutcome {
    /// Proved by `attempts[attempt]`.
    Proved {
        attempt: usize,
    },
    NotProved,
    /// The deadline passed before any attempt succeeded.
    TimedOut,
    /// Lean could not be used at all.
    Error(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectionReport {
    pub direction: Direction,
    pub outcome: DirectionOutcome,
    pub attempts: Vec<Attempt>,
    /// Why LLM sampling was skipped or failed, when it was.
    pub llm_note: Option<String>,
    pub elapsed: Duration,
}

impl DirectionReport {
    /// The succeeding attempt, if any.
    pub fn proof(&self) -> Option<&Attempt> {
        match self.outcome {
            DirectionOutcome::Proved { attempt } => self.attempts.get(attempt),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BeqReport {
    pub directions: [DirectionReport; 2],
    pub elapsed: Duration,
}

impl BeqReport {
    /// Lean was unusable in a direction (a header error, the server gone): its message. Such a
    /// report is a failure, never "not equivalent".
    pub fn lean_error(&self) -> Option<&str> {
        self.directions.iter().find_map(|d| match &d.outcome {
            DirectionOutcome::Error(e) => Some(e.as_str()),
            _ => None,
        })
    }

    /// Equivalent only when both directions are proved.
    pub fn equivalent(&self) -> bool {
        self.directions.iter().all(|d| d.proof().is_some())
    }

    /// The metric-level report: each direction's proof as a path step, notes for the rest.
    pub fn to_metric_report(&self, reference_size: usize, candidate_size: usize) -> MetricReport {
        let mut path = Vec::new();
        let mut notes = Vec::new();
        for d in &self.directions {
            match (&d.outcome, d.proof()) {
                (_, Some(a)) => path.push(PathStep {
                    rule: format!("{} ({})", d.direction.label(), source_name(&a.source)),
                    side: "goal".to_string(),
                    at: a.proof.clone(),
                }),
                (DirectionOutcome::TimedOut, _) => {
                    notes.push(format!("{}: timed out", d.direction.label()))
                }
                (DirectionOutcome::Error(e), _) => {
                    notes.push(format!("{}: {e}", d.direction.label()))
                }
                _ => notes.push(format!(
                    "{}: not proved ({} attempt(s))",
                    d.direction.label(),
                    d.attempts.len()
                )),
            }
            if let Some(n) = &d.llm_note {
                notes.push(format!("{}: {n}", d.direction.label()));
            }
        }
        MetricReport {
            metric: "beq",
            verdict: Verdict::Equivalent(self.equivalent()),
            distance: None,
            reference_size,
            candidate_size,
            path,
            notes,
            elapsed: self.elapsed,
        }
    }
}

fn source_name(s: &AttemptSource) -> String {
    match s {
        AttemptSource::ExactQuery => "exact?".to_string(),
        AttemptSource::Script => "script".to_string(),
        AttemptSource::Llm { index } => format!("LLM sample {}", index + 1),
    }
}

/// One side of the pair: its declaration text (`theorem name … := proof` or without proof) and
/// the header it was written under.
#[derive(Clone, Copy, Debug)]
pub struct BeqSide<'a> {
    pub header: &'a str,
    pub declaration: &'a str,
}

impl<'a> BeqSide<'a> {
    /// The reference's and the candidate's sides of a pair of statements.
    pub fn of_pair(pair: &'a crate::metrics::Pair<'a>) -> (BeqSide<'a>, BeqSide<'a>) {
        (
            BeqSide { header: pair.reference_header, declaration: &pair.reference.source },
            BeqSide { header: pair.candidate_header, declaration: &pair.candidate.source },
        )
    }
}

/// The BEq driver.
pub struct Beq<C> {
    pub checker: C,
    pub sampler: Option<Box<dyn ProofSampler>>,
    pub settings: BeqSettings,
}

impl<C: ProofChecker> Beq<C> {
    /// Judge a pair: both directions, within `settings.deadline`.
    pub async fn judge(&self, reference: BeqSide<'_>, candidate: BeqSide<'_>) -> BeqReport {
        let start = Instant::now();
        let deadline = start + self.settings.deadline;
        let forward = self
            .direction(Direction::ReferenceImpliesCandidate, reference, candidate, deadline)
            .await;
        let backward = self
            .direction(Direction::CandidateImpliesReference, candidate, reference, deadline)
            .await;
        BeqReport { directions: [forward, backward], elapsed: start.elapsed() }
    }

    async fn direction(
        &self,
        direction: Direction,
        assumed: BeqSide<'_>,
        goal: BeqSide<'_>,
        deadline: Instant,
    ) -> DirectionReport {
        let start = Instant::now();
        let assumed_decl = declaration_as(assumed.declaration, ASSUMED_NAME, ":= sorry");
        let goal_decl = declaration_as(goal.declaration, GOAL_NAME, ":= by");
        let base = CheckRequest {
            assumed_header: assumed.header,
            assumed: &assumed_decl,
            goal_header: goal.header,
            goal: &goal_decl,
            proof: "",
        };
        let mut run = Run {
            checker: &self.checker,
            rules: ProofRules {
                set: self.settings.tactic_set,
                assumed_name: ASSUMED_NAME,
                goal_name: Some(GOAL_NAME),
            },
            base,
            deadline,
            attempts: Vec::new(),
            tried: Vec::new(),
            prelude: "",
        };
        let mut llm_note = None;
        let outcome = 'search: {
            // 1. exact? (after BEq+'s prelude for BEq+).
            if self.settings.plus.is_some() {
                run.prelude = PRELUDE;
            }
            match run.exact_query().await {
                Step::Proved(i) => break 'search DirectionOutcome::Proved { attempt: i },
                Step::Stop(o) => break 'search o,
                Step::Next => {}
            }
            // BEq+: its fixed attempts, checked under the `All` set (they are ours, not an
            // LLM's: `tauto`, `simp_all_arith!`, `convert` are outside Normal), then done.
            if let Some(plus) = &self.settings.plus {
                run.rules.set = TacticSet::All;
                let mathlib = [assumed.header, goal.header]
                    .iter()
                    .any(|h| h.lines().any(|l| l.trim().starts_with("import Mathlib")));
                let plan = plus.plan(conclusion(&assumed_decl).as_deref(), mathlib);
                // The goal follows from its own hypotheses: the direction does not count.
                match run.probe(plan.assumption_probe).await {
                    Ok(true) => break 'search DirectionOutcome::NotProved,
                    Ok(false) => {}
                    Err(o) => break 'search o,
                }
                match run.attempt(AttemptSource::Script, plan.apply).await {
                    Step::Proved(i) => break 'search DirectionOutcome::Proved { attempt: i },
                    Step::Stop(o) => break 'search o,
                    Step::Next => {}
                }
                // A `have` the closers do not need still puts `thm_P` in the proof term.
                let have = match run.probe(plan.have_probe).await {
                    Ok(true) => None,
                    Ok(false) => plan.have,
                    Err(o) => break 'search o,
                };
                for script in have.into_iter().chain(plan.converts).chain(plan.grind) {
                    match run.attempt(AttemptSource::Script, script).await {
                        Step::Proved(i) => break 'search DirectionOutcome::Proved { attempt: i },
                        Step::Stop(o) => break 'search o,
                        Step::Next => {}
                    }
                }
                break 'search DirectionOutcome::NotProved;
            }
            // 2. deterministic scripts.
            for script in scripts(&assumed_decl, &goal_decl) {
                match run.attempt(AttemptSource::Script, script).await {
                    Step::Proved(i) => break 'search DirectionOutcome::Proved { attempt: i },
                    Step::Stop(o) => break 'search o,
                    Step::Next => {}
                }
            }
            // 3. LLM samples.
            let Some(sampler) = &self.sampler else {
                llm_note = Some("no [llm] configured; LLM attempts skipped".to_string());
                break 'search DirectionOutcome::NotProved;
            };
            let prompt = prompt::build_prompt(
                self.settings.tactic_set,
                &PromptInput { header: goal.header, assumed: &assumed_decl, goal: &goal_decl },
            );
            let remaining = deadline.saturating_duration_since(Instant::now());
            let answers = match tokio::time::timeout(
                remaining,
                sampler.sample(prompt, self.settings.samples),
            )
            .await
            {
                Err(_) => break 'search DirectionOutcome::TimedOut,
                Ok(Err(e)) => {
                    llm_note = Some(format!("LLM attempts failed: {e}"));
                    break 'search DirectionOutcome::NotProved;
                }
                Ok(Ok(answers)) => answers,
            };
            for (index, answer) in answers.iter().enumerate() {
                let Some(proof) = prompt::extract_proof(answer) else {
                    run.attempts.push(Attempt {
                        source: AttemptSource::Llm { index },
                        proof: String::new(),
                        result: AttemptResult::Rejected(ProofRejection::Empty),
                        elapsed: Duration::ZERO,
                    });
                    continue;
                };
                match run.attempt(AttemptSource::Llm { index }, proof).await {
                    Step::Proved(i) => break 'search DirectionOutcome::Proved { attempt: i },
                    Step::Stop(o) => break 'search o,
                    Step::Next => {}
                }
            }
            DirectionOutcome::NotProved
        };
        DirectionReport {
            direction,
            outcome,
            attempts: run.attempts,
            llm_note,
            elapsed: start.elapsed(),
        }
    }
}

/// The state of one direction's search.
struct Run<'r, C> {
    checker: &'r C,
    rules: ProofRules<'static>,
    base: CheckRequest<'r>,
    deadline: Instant,
    attempts: Vec<Attempt>,
    /// Proofs already sent, so duplicates (LLM samples often repeat) cost nothing.
    tried: Vec<String>,
    /// Tactic lines run before `exact?` and before its suggestion (BEq+'s prelude).
    prelude: &'static str,
}

enum Step {
    Proved(usize),
    Stop(DirectionOutcome),
    Next,
}

impl<C: ProofChecker> Run<'_, C> {
    fn remaining(&self) -> Option<Duration> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        (!left.is_zero()).then_some(left)
    }

    fn record(
        &mut self,
        source: AttemptSource,
        proof: String,
        result: AttemptResult,
        t: Instant,
    ) -> usize {
        self.attempts.push(Attempt { source, proof, result, elapsed: t.elapsed() });
        self.attempts.len() - 1
    }

    async fn exact_query(&mut self) -> Step {
        let Some(left) = self.remaining() else {
            return Step::Stop(DirectionOutcome::TimedOut);
        };
        let t = Instant::now();
        let req = CheckRequest { proof: self.prelude, ..self.base };
        let suggestion = tokio::time::timeout(left, self.checker.suggest(req)).await;
        let proof = match suggestion {
            Err(_) => {
                self.record(AttemptSource::ExactQuery, String::new(), AttemptResult::Timeout, t);
                return Step::Stop(DirectionOutcome::TimedOut);
            }
            Ok(Ok(Suggestion::Timeout)) => {
                // Lean's own bound on `exact?` (heartbeats) hit: the cheap scripts may still work.
                self.record(AttemptSource::ExactQuery, String::new(), AttemptResult::Timeout, t);
                return if self.remaining().is_some() {
                    Step::Next
                } else {
                    Step::Stop(DirectionOutcome::TimedOut)
                };
            }
            Ok(Err(e)) => {
                self.record(
                    AttemptSource::ExactQuery,
                    String::new(),
                    AttemptResult::CheckError(e.to_string()),
                    t,
                );
                return Step::Stop(DirectionOutcome::Error(e.to_string()));
            }
            Ok(Ok(Suggestion::NotFound { errors })) => {
                self.record(
                    AttemptSource::ExactQuery,
                    String::new(),
                    AttemptResult::NoSuggestion { errors },
                    t,
                );
                return Step::Next;
            }
            Ok(Ok(Suggestion::Found { proof })) if self.prelude.is_empty() => {
                clean_suggestion(&proof)
            }
            Ok(Ok(Suggestion::Found { proof })) => {
                format!("{}\n{}", self.prelude, clean_suggestion(&proof))
            }
        };
        // The suggestion must itself be admissible (it must use thm_P: the paper's rule for
        // attempt 0) and is checked again as a proof, so a suggestion that closed the goal some
        // other way, or with a sorry, does not count.
        self.attempt(AttemptSource::ExactQuery, proof).await
    }

    /// Does Lean accept `proof` (one of ours that does not name `thm_P`, so outside the
    /// admissibility rules)? Recorded in the report; `Err` ends the direction.
    async fn probe(&mut self, proof: String) -> Result<bool, DirectionOutcome> {
        let t = Instant::now();
        let Some(left) = self.remaining() else {
            return Err(DirectionOutcome::TimedOut);
        };
        let req = CheckRequest { proof: &proof, ..self.base };
        let (result, accepted) = match tokio::time::timeout(left, self.checker.check(req)).await {
            Ok(Ok(CheckOutcome::Proved | CheckOutcome::ClosedWithoutAssumed { .. })) => {
                (AttemptResult::ClosedWithout, true)
            }
            Ok(Ok(CheckOutcome::Failed { errors })) => (AttemptResult::Failed { errors }, false),
            Ok(Ok(CheckOutcome::Timeout)) => (AttemptResult::Timeout, false),
            Err(_) => {
                self.record(AttemptSource::Script, proof, AttemptResult::Timeout, t);
                return Err(DirectionOutcome::TimedOut);
            }
            Ok(Err(e)) => {
                let msg = e.to_string();
                self.record(
                    AttemptSource::Script,
                    proof,
                    AttemptResult::CheckError(msg.clone()),
                    t,
                );
                return Err(DirectionOutcome::Error(msg));
            }
        };
        self.record(AttemptSource::Script, proof, result, t);
        Ok(accepted)
    }

    async fn attempt(&mut self, source: AttemptSource, proof: String) -> Step {
        let t = Instant::now();
        if let Err(rejection) = tactics::check_proof(&proof, &self.rules) {
            self.record(source, proof, AttemptResult::Rejected(rejection), t);
            return Step::Next;
        }
        if self.tried.contains(&proof) {
            return Step::Next;
        }
        self.tried.push(proof.clone());
        let Some(left) = self.remaining() else {
            return Step::Stop(DirectionOutcome::TimedOut);
        };
        let req = CheckRequest { proof: &proof, ..self.base };
        let outcome = tokio::time::timeout(left, self.checker.check(req)).await;
        match outcome {
            Ok(Ok(CheckOutcome::Proved)) => {
                Step::Proved(self.record(source, proof, AttemptResult::Proved, t))
            }
            Ok(Ok(CheckOutcome::Failed { errors })) => {
                self.record(source, proof, AttemptResult::Failed { errors }, t);
                Step::Next
            }
            Ok(Ok(CheckOutcome::ClosedWithoutAssumed { axioms })) => {
                let errors = vec![not_using_assumed(&axioms)];
                self.record(source, proof, AttemptResult::Failed { errors }, t);
                Step::Next
            }
            Ok(Ok(CheckOutcome::Timeout)) => {
                // One slow attempt does not end the direction while time is left.
                self.record(source, proof, AttemptResult::Timeout, t);
                if self.remaining().is_none() {
                    Step::Stop(DirectionOutcome::TimedOut)
                } else {
                    Step::Next
                }
            }
            Err(_) => {
                self.record(source, proof, AttemptResult::Timeout, t);
                Step::Stop(DirectionOutcome::TimedOut)
            }
            Ok(Err(e)) => {
                let msg = e.to_string();
                self.record(source, proof, AttemptResult::CheckError(msg.clone()), t);
                Step::Stop(DirectionOutcome::Error(msg))
            }
        }
    }
}

/// The failure of a proof Lean accepted without `thm_P` among its axioms.
pub fn not_using_assumed(axioms: &str) -> String {
    format!(
        "the proof does not use thm_P (axioms: {})",
        if axioms.is_empty() { "none reported" } else { axioms }
    )
}

/// The conclusion of `theorem name binders… : conclusion := …` (after the first colon outside
/// brackets), whitespace collapsed; `None` when there is no such colon.
pub fn conclusion(declaration: &str) -> Option<String> {
    let text = declaration.trim();
    let head = &text[..top_level_assign(text).unwrap_or(text.len())];
    let mut depth = 0i32;
    for (i, c) in head.char_indices() {
        match c {
            '(' | '[' | '{' | '⟨' | '⦃' => depth += 1,
            ')' | ']' | '}' | '⟩' | '⦄' => depth -= 1,
            ':' if depth <= 0 => {
                let rest = head[i + 1..].split_whitespace().collect::<Vec<_>>().join(" ");
                return (!rest.is_empty()).then_some(rest);
            }
            _ => {}
        }
    }
    None
}

/// A "Try this" text in either era's format (research notes §5.3): `Try this: exact foo` or
/// `Try this:\n  [apply] exact foo`, possibly followed by `-- goal` lines. Idempotent on a clean
/// suggestion.
pub fn clean_suggestion(text: &str) -> String {
    let text = text.trim();
    let text = text.strip_prefix("Try this:").unwrap_or(text).trim_start();
    let text = text.strip_prefix("[apply]").unwrap_or(text).trim_start();
    text.lines()
        .take_while(|l| !l.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_string()
}

/// `declaration` (`theorem name … := proof`, `lemma …`, `example …`, or without proof) declared
/// as `theorem new_name …` followed by `tail` (`:= sorry` or `:= by`).
pub fn declaration_as(declaration: &str, new_name: &str, tail: &str) -> String {
    let text = declaration.trim();
    let signature_end = top_level_assign(text).unwrap_or(text.len());
    let head = text[..signature_end].trim_end();
    let mut words = head.splitn(2, char::is_whitespace);
    let keyword = words.next().unwrap_or("");
    let rest = words.next().unwrap_or("").trim_start();
    let (universes, signature) = match keyword {
        "theorem" | "lemma" => {
            // Drop the old name; its universe parameters (`foo.{u v}`) go to the new one.
            let (_, universes, after) = split_name(rest);
            (universes, after)
        }
        "example" => ("", rest),
        _ => ("", head),
    };
    format!("theorem {new_name}{universes} {signature} {tail}")
}

/// A declaration's name, its universe parameters (`.{u, v}`, empty when none) and the text
/// after them, from the text right after the keyword. The name ends at whitespace, a binder
/// bracket or a colon (as `crate::metrics::lean_backed::signature` reads it).
fn split_name(rest: &str) -> (&str, &str, &str) {
    let name_end =
        rest.find(|c: char| c.is_whitespace() || "({[⦃:".contains(c)).unwrap_or(rest.len());
    let name = &rest[..name_end];
    if let Some(stem) = name.strip_suffix('.') {
        if rest[name_end..].starts_with('{') {
            if let Some(close) = rest[name_end..].find('}') {
                let universes = &rest[name_end - 1..name_end + close + 1];
                return (stem, universes, rest[name_end + close + 1..].trim_start());
            }
        }
    }
    (name, "", rest[name_end..].trim_start())
}

/// Byte offset of the first `:=` outside brackets, comments and strings.
fn top_level_assign(text: &str) -> Option<usize> {
    let mut depth = 0i32;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                // Skip the string literal, escapes included.
                while let Some((_, s)) = chars.next() {
                    match s {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '-' if chars.peek().is_some_and(|&(_, n)| n == '-') => {
                for (_, s) in chars.by_ref() {
                    if s == '\n' {
                        break;
                    }
                }
            }
            '(' | '[' | '{' | '⟨' | '⦃' => depth += 1,
            ')' | ']' | '}' | '⟩' | '⦄' => depth -= 1,
            ':' if depth <= 0 && chars.peek().is_some_and(|&(_, n)| n == '=') => return Some(i),
            _ => {}
        }
    }
    None
}

/// A binder before the colon of a declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Binder {
    /// `None` for an anonymous instance binder `[Group G]`.
    name: Option<String>,
    explicit: bool,
}

/// The binders of `theorem name binders… : type`, read from brackets at the top level.
fn binders(declaration: &str) -> Vec<Binder> {
    let text = declaration.trim();
    let after_keyword = text.split_once(char::is_whitespace).map_or("", |(_, r)| r.trim_start());
    let (_, _, mut rest) = split_name(after_keyword);
    let mut out = Vec::new();
    while let Some(open) = rest.chars().next() {
        if !"({[⦃".contains(open) {
            break;
        }
        let mut depth = 0;
        let mut end = None;
        for (i, c) in rest.char_indices() {
            if "({[⦃⟨".contains(c) {
                depth += 1;
            } else if ")}]⦄⟩".contains(c) {
                depth -= 1;
                if depth == 0 {
                    end = Some(i);
                    break;
                }
            }
        }
        let Some(end) = end else { break };
        let inner = &rest[open.len_utf8()..end];
        let explicit = open == '(';
        match inner.split_once(':') {
            Some((names, _)) if !names.trim().is_empty() => {
                for n in names.split_whitespace() {
                    out.push(Binder { name: (n != "_").then(|| n.to_string()), explicit });
                }
            }
            _ => out.push(Binder { name: None, explicit }),
        }
        let closer_len = rest[end..].chars().next().map_or(1, char::len_utf8);
        rest = rest[end + closer_len..].trim_start();
    }
    out
}

/// Deterministic attempts within the Normal set, built from the goal's binders (which are in
/// scope as hypotheses of `thm_Q`): the assumed theorem applied as is, to the goal's explicit
/// arguments, to all of them with `@`, its symmetric form, and `apply` closing the side goals
/// from the goal's hypotheses.
fn scripts(_assumed: &str, goal: &str) -> Vec<String> {
    let bs = binders(goal);
    let explicit: Vec<&str> =
        bs.iter().filter(|b| b.explicit).filter_map(|b| b.name.as_deref()).collect();
    let mut out = vec![format!("exact {ASSUMED_NAME}")];
    if !explicit.is_empty() {
        out.push(format!("exact {ASSUMED_NAME} {}", explicit.join(" ")));
    }
    if !bs.is_empty() {
        let all: Vec<&str> = bs.iter().map(|b| b.name.as_deref().unwrap_or("_")).collect();
        out.push(format!("exact @{ASSUMED_NAME} {}", all.join(" ")));
    }
    out.push(format!("exact {ASSUMED_NAME}.symm"));
    if !explicit.is_empty() {
        out.push(format!("exact ({ASSUMED_NAME} {}).symm", explicit.join(" ")));
        let alternatives: Vec<String> = explicit.iter().map(|n| format!("exact {n}")).collect();
        out.push(format!("apply {ASSUMED_NAME} <;> first | {}", alternatives.join(" | ")));
    }
    out
}

#[cfg(test)]
mod tests;
