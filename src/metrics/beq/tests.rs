//! Driver tests against a fake [`ProofChecker`] (a test double for the Lean side): which proofs
//! "check" is decided by a rule per test; every call is recorded.

use super::*;
use std::sync::Mutex;

type CheckRule = fn(&CheckRequest<'_>) -> CheckOutcome;
type SuggestRule = fn(&CheckRequest<'_>) -> Suggestion;

struct FakeLean {
    check_rule: CheckRule,
    suggest_rule: SuggestRule,
    delay: Duration,
    fail_with: Option<CheckError>,
    /// (assumed declaration, proof) of every `check` call; `exact?` for `suggest`.
    calls: Mutex<Vec<(String, String)>>,
}

impl FakeLean {
    fn new(check_rule: CheckRule, suggest_rule: SuggestRule) -> FakeLean {
        FakeLean {
            check_rule,
            suggest_rule,
            delay: Duration::ZERO,
            fail_with: None,
            calls: Mutex::new(Vec::new()),
        }
    }
    fn proofs_sent(&self) -> Vec<String> {
        self.calls.lock().expect("lock").iter().map(|(_, p)| p.clone()).collect()
    }
}

impl FakeLean {
    /// Records the call (`sent`: the proof, or `exact?`), waits `delay`, then fails with
    /// `fail_with` or answers by `rule`.
    async fn answer<T>(
        &self,
        req: &CheckRequest<'_>,
        sent: &str,
        rule: fn(&CheckRequest<'_>) -> T,
    ) -> Result<T, CheckError> {
        self.calls.lock().expect("lock").push((req.assumed.to_string(), sent.to_string()));
        tokio::time::sleep(self.delay).await;
        match &self.fail_with {
            Some(e) => Err(e.clone()),
            None => Ok(rule(req)),
        }
    }
}

impl ProofChecker for FakeLean {
    fn check<'a>(
        &'a self,
        req: CheckRequest<'a>,
    ) -> BoxFuture<'a, Result<CheckOutcome, CheckError>> {
        Box::pin(async move { self.answer(&req, req.proof, self.check_rule).await })
    }
    fn suggest<'a>(
        &'a self,
        req: CheckRequest<'a>,
    ) -> BoxFuture<'a, Result<Suggestion, CheckError>> {
        Box::pin(async move { self.answer(&req, "exact?", self.suggest_rule).await })
    }
}

struct FakeSampler(Vec<String>);

impl ProofSampler for FakeSampler {
    fn sample(&self, prompt: String, k: usize) -> BoxFuture<'_, Result<Vec<String>, LlmError>> {
        assert!(prompt.contains("theorem thm_P") && prompt.contains("theorem thm_Q"));
        Box::pin(async move { Ok(self.0.iter().take(k).cloned().collect()) })
    }
}

const REFERENCE: BeqSide<'static> = BeqSide {
    header: "import Mathlib",
    declaration: "theorem ref_thm (x : ℕ) (h : 0 < x) : x ≠ 0 := by omega",
};
const CANDIDATE: BeqSide<'static> = BeqSide {
    header: "import Mathlib",
    declaration: "theorem cand (n : ℕ) (hn : n > 0) : n ≠ 0 := sorry",
};

fn nothing_checks(_: &CheckRequest<'_>) -> CheckOutcome {
    CheckOutcome::Failed { errors: vec!["type mismatch".to_string()] }
}
/// `Proved` when the test's rule `accepted` the request, else what [`nothing_checks`] says.
fn proved_if(accepted: bool, req: &CheckRequest<'_>) -> CheckOutcome {
    if accepted {
        CheckOutcome::Proved
    } else {
        nothing_checks(req)
    }
}
fn found(proof: &str) -> Suggestion {
    Suggestion::Found { proof: proof.to_string() }
}
fn no_suggestion(_: &CheckRequest<'_>) -> Suggestion {
    Suggestion::NotFound { errors: vec!["`exact?` could not close the goal.".to_string()] }
}

fn beq(lean: FakeLean, sampler: Option<Vec<&str>>) -> Beq<FakeLean> {
    Beq {
        checker: lean,
        sampler: sampler.map(|answers| {
            Box::new(FakeSampler(answers.into_iter().map(str::to_string).collect()))
                as Box<dyn ProofSampler>
        }),
        settings: BeqSettings { samples: 4, ..BeqSettings::default() },
    }
}

#[tokio::test]
async fn exact_query_proves_both_directions() {
    let lean = FakeLean::new(
        |req| proved_if(req.proof.starts_with("exact thm_P"), req),
        |_| found("exact thm_P n hn"),
    );
    let driver = beq(lean, None);
    let report = driver.judge(REFERENCE, CANDIDATE).await;
    assert!(report.equivalent());
    for d in &report.directions {
        let a = d.proof().expect("proved");
        assert_eq!(a.source, AttemptSource::ExactQuery);
        assert_eq!(a.proof, "exact thm_P n hn");
    }
    // The assumed side is renamed and declared with `sorry`; the goal ends in `:= by`.
    let calls = driver.checker.calls.lock().expect("lock").clone();
    assert_eq!(calls[0].0, "theorem thm_P (x : ℕ) (h : 0 < x) : x ≠ 0 := sorry");
    let m = report.to_metric_report(5, 5);
    assert_eq!(m.verdict, Verdict::Equivalent(true));
    assert_eq!(m.path.len(), 2);
    assert_eq!(m.path[0].at, "exact thm_P n hn");
}

#[tokio::test]
async fn suggestion_not_using_the_assumption_is_rejected_and_scripts_follow() {
    let lean = FakeLean::new(
        // Only the script applying thm_P to the goal's explicit arguments works.
        |req| proved_if(req.proof == "exact thm_P n hn" || req.proof == "exact thm_P x h", req),
        |_| found("exact Nat.pos_iff_ne_zero.mp hn"),
    );
    let driver = beq(lean, None);
    let report = driver.judge(REFERENCE, CANDIDATE).await;
    assert!(report.equivalent(), "{report:#?}");
    let forward = &report.directions[0];
    assert!(matches!(
        forward.attempts[0].result,
        AttemptResult::Rejected(ProofRejection::AssumedNotUsed { .. })
    ));
    let proof = forward.proof().expect("proved");
    assert_eq!(proof.source, AttemptSource::Script);
    assert_eq!(proof.proof, "exact thm_P n hn");
    assert_eq!(report.directions[1].proof().map(|a| a.proof.as_str()), Some("exact thm_P x h"));
    // The rejected suggestion never reached `check`.
    assert!(!driver.checker.proofs_sent().contains(&"exact Nat.pos_iff_ne_zero.mp hn".to_string()));
}

#[tokio::test]
async fn one_direction_failing_means_not_equivalent() {
    let lean = FakeLean::new(
        // Only reference ⇒ candidate holds (the goal is the candidate, binders n hn).
        |req| proved_if(req.goal.contains("(n : ℕ)") && req.proof == "exact thm_P n hn", req),
        no_suggestion,
    );
    let report = beq(lean, None).judge(REFERENCE, CANDIDATE).await;
    assert!(!report.equivalent());
    assert!(report.directions[0].proof().is_some());
    assert_eq!(report.directions[1].outcome, DirectionOutcome::NotProved);
    assert!(report.directions[1].llm_note.as_deref().is_some_and(|n| n.contains("no [llm]")));
    let m = report.to_metric_report(5, 5);
    assert_eq!(m.verdict, Verdict::Equivalent(false));
    assert!(m.notes.iter().any(|n| n.starts_with("candidate ⇒ reference: not proved")));
}

#[tokio::test]
async fn llm_samples_are_checked_before_lean_sees_them() {
    let lean =
        FakeLean::new(|req| proved_if(req.proof == "intro k\nexact thm_P", req), no_suggestion);
    let answers = vec![
        "```lean\nsimp [thm_P]\n```",                 // forbidden tactic
        "```lean\nexact thm_P\nsorry\n```",           // sorry
        "I cannot do this.",                          // no thm_P at all
        "```lean\nby\n  intro k\n  exact thm_P\n```", // admissible
    ];
    let driver = beq(lean, Some(answers));
    let report = driver.judge(REFERENCE, CANDIDATE).await;
    assert!(report.equivalent(), "{report:#?}");
    let forward = &report.directions[0];
    let proof = forward.proof().expect("proved");
    assert_eq!(proof.source, AttemptSource::Llm { index: 3 });
    let rejected: Vec<_> = forward
        .attempts
        .iter()
        .filter(|a| matches!(a.result, AttemptResult::Rejected(_)))
        .map(|a| a.source.clone())
        .collect();
    assert_eq!(
        rejected,
        vec![
            AttemptSource::Llm { index: 0 },
            AttemptSource::Llm { index: 1 },
            AttemptSource::Llm { index: 2 }
        ]
    );
    let sent = driver.checker.proofs_sent();
    assert!(sent.iter().all(|p| !p.contains("simp") && !p.contains("sorry")), "{sent:?}");
}

#[tokio::test]
async fn deadline_stops_a_slow_checker() {
    let mut lean = FakeLean::new(|_| CheckOutcome::Proved, no_suggestion);
    lean.delay = Duration::from_millis(500);
    let mut driver = beq(lean, None);
    driver.settings.deadline = Duration::from_millis(60);
    let started = Instant::now();
    let report = driver.judge(REFERENCE, CANDIDATE).await;
    assert!(started.elapsed() < Duration::from_millis(400), "{:?}", started.elapsed());
    assert!(!report.equivalent());
    for d in &report.directions {
        assert_eq!(d.outcome, DirectionOutcome::TimedOut);
    }
    assert!(report.to_metric_report(1, 1).notes.iter().any(|n| n.ends_with("timed out")));
}

#[tokio::test]
async fn a_single_lean_timeout_moves_on_to_the_next_attempt() {
    // `exact?` and the first script time out on the Lean side; the next script still runs.
    let lean = FakeLean::new(
        |req| match req.proof {
            "exact thm_P" => CheckOutcome::Timeout,
            p if p.starts_with("exact thm_P ") => CheckOutcome::Proved,
            _ => nothing_checks(req),
        },
        |_| Suggestion::Timeout,
    );
    let report = beq(lean, None).judge(REFERENCE, CANDIDATE).await;
    assert!(report.equivalent(), "{report:#?}");
    let forward = &report.directions[0];
    assert_eq!(forward.attempts[0].source, AttemptSource::ExactQuery);
    assert_eq!(forward.attempts[0].result, AttemptResult::Timeout);
    assert_eq!(forward.attempts[1].result, AttemptResult::Timeout);
    assert_eq!(forward.proof().map(|a| a.proof.as_str()), Some("exact thm_P n hn"));
}

#[tokio::test]
async fn lean_unavailable_is_an_error_outcome() {
    let mut lean = FakeLean::new(|_| CheckOutcome::Proved, no_suggestion);
    lean.fail_with = Some(CheckError::Unavailable("server exited".to_string()));
    let report = beq(lean, None).judge(REFERENCE, CANDIDATE).await;
    assert!(!report.equivalent());
    assert!(
        matches!(&report.directions[0].outcome, DirectionOutcome::Error(e) if e.contains("server exited"))
    );
}

#[test]
fn try_this_formats_of_both_eras_are_cleaned() {
    for raw in [
        "exact thm_P x h",
        "Try this: exact thm_P x h",
        "Try this:\n  [apply] exact thm_P x h",
        "Try this: exact thm_P x h\n-- no goals",
    ] {
        assert_eq!(clean_suggestion(raw), "exact thm_P x h", "{raw:?}");
    }
}

#[test]
fn declarations_are_renamed_and_binders_read() {
    assert_eq!(
        declaration_as("theorem foo.bar (x : ℕ) : x = x := by rfl", "thm_P", ":= sorry"),
        "theorem thm_P (x : ℕ) : x = x := sorry"
    );
    assert_eq!(
        declaration_as(
            "example {a : ℝ} (h : a = (fun y => y) a) : True :=\n  trivial",
            "thm_Q",
            ":= by"
        ),
        "theorem thm_Q {a : ℝ} (h : a = (fun y => y) a) : True := by"
    );
    assert_eq!(
        declaration_as("lemma l : (1 : ℕ) = 1", "thm_Q", ":= by"),
        "theorem thm_Q : (1 : ℕ) = 1 := by"
    );
    let bs = binders("theorem t {p : ℕ} (hp h2 : Nat.Prime p) [Fact (1 < p)] (f : ℕ → ℕ) : True");
    let names: Vec<_> = bs.iter().map(|b| (b.name.clone(), b.explicit)).collect();
    assert_eq!(
        names,
        vec![
            (Some("p".to_string()), false),
            (Some("hp".to_string()), true),
            (Some("h2".to_string()), true),
            (None, false),
            (Some("f".to_string()), true),
        ]
    );
    let s = scripts("", "theorem thm_Q {p : ℕ} (hp : Nat.Prime p) [Fact (1 < p)] : True := by");
    assert!(s.contains(&"exact @thm_P p hp _".to_string()), "{s:?}");
    assert!(s.contains(&"exact thm_P hp".to_string()));
    // Every deterministic script is admissible under the Normal set.
    let rules = ProofRules {
        set: TacticSet::Normal,
        assumed_name: ASSUMED_NAME,
        goal_name: Some(GOAL_NAME),
    };
    for script in &s {
        assert!(tactics::check_proof(script, &rules).is_ok(), "{script}");
    }
}

proptest::proptest! {
    #[test]
    fn declaration_handling_never_panics(text in "(theorem|lemma|example)? ?[a-z ]{0,4}[(){}⦃⦄⟨⟩\\[\\]:=\"\\\\ℕλ a-z-]{0,40}") {
        let renamed = declaration_as(&text, GOAL_NAME, ":= by");
        proptest::prop_assert!(renamed.starts_with("theorem thm_Q"));
        let _ = scripts("", &renamed);
    }
}

#[test]
fn the_conclusion_is_read_after_the_binders() {
    assert_eq!(
        conclusion("theorem thm_P (x : ℕ) {h : 0 < x} : 1 ≤\n  x := sorry").as_deref(),
        Some("1 ≤ x")
    );
    assert_eq!(conclusion("theorem thm_P : True").as_deref(), Some("True"));
    assert_eq!(conclusion("theorem thm_P (x : ℕ)"), None);
}

#[test]
fn universe_parameters_stay_with_the_name() {
    assert_eq!(
        declaration_as("theorem foo.{u} {α : Type u} (a : α) : a = a := rfl", "thm_P", ":= sorry"),
        "theorem thm_P.{u} {α : Type u} (a : α) : a = a := sorry"
    );
    let bs = binders("theorem thm_Q.{u, v} {α : Type u} (a : α) : a = a");
    assert_eq!(
        bs,
        [
            Binder { name: Some("α".into()), explicit: false },
            Binder { name: Some("a".into()), explicit: true }
        ]
    );
}
