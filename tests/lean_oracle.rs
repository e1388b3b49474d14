//! The Lean oracle, `transted` and `defeq` against the scripted Lean stand-in (no Lean here):
//! the two worked proof paths of ASSESS Appendix C.2, a search that runs out of time, a tactic
//! error, two goals, a worker crash, and DefEq's false positives of ASSESS Appendix C.3. Goal
//! types are TaggedText in the shape of `interactiveGoals-rw-nested.result.json`; code actions in
//! the shape of `codeAction.try-this.result.json`; diagnostics in the shape of
//! `interactiveDiagnostics.result.json`. Universe parameters: arities 0, 1 and 1, 2 and 1, and a
//! probe failing for another reason. A last test, ignored unless asked for (`--ignored`), runs
//! against a real `lean --server`.

mod common;

use common::{one_goal, LeanServer};

use lean_assess::lean::oracle::{Block, Oracle, OracleConfig, Outcome};
use lean_assess::lean::LeanClient;
use lean_assess::metrics::defeq::DefEq;
use lean_assess::metrics::lean_backed::{LeanJudgement, LeanMetric};
use lean_assess::metrics::transted::{TransTed, TransTedConfig};
use lean_assess::metrics::{MetricError, Pair, Verdict};
use lean_assess::trees::parse::{parse_statement, Header};
use lean_assess::trees::Statement;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio::process::Command;

/// `p` followed by `t`.
fn with<'a>(p: &[&'a str], t: &'a str) -> Vec<&'a str> {
    [p, &[t]].concat()
}

const RW: &str = "rw? [-_tt.S1._stmt, -_tt.S2._stmt]";

fn goal_after(tactics: &[&str], ty: &str) -> Value {
    json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
           "tactics": tactics, "result": one_goal(ty)})
}

fn closed_after(tactics: &[&str]) -> Value {
    json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
           "tactics": tactics, "result": {"goals": []}})
}

fn two_goals_after(tactics: &[&str]) -> Value {
    json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
           "tactics": tactics, "result": common::example("interactiveGoals-two-goals.result.json")})
}

/// "Try this" code actions at the last of `tactics` (the `rw?` line): the stand-in's quickfixes
/// in the shape of `codeAction.try-this.result.json`, their edits starting on the requested line.
fn suggest_at(tactics: &[&str], suggestions: &[&str]) -> Value {
    json!({"method": "textDocument/codeAction", "tactics": tactics, "tryThis": suggestions})
}

fn error_at(tactics: &[&str], message: &str) -> Value {
    json!({"method": "standin/diagnostic", "tactics": tactics, "message": message})
}

/// Rules every script ends with: no other code actions.
fn no_other_suggestions() -> Value {
    json!({"method": "textDocument/codeAction", "result": []})
}

fn axioms_ok() -> Value {
    json!({"method": "standin/diagnostic", "lineContains": "#print axioms _tt.W", "severity": 3,
           "message": "'_tt.W' depends on axioms: [propext, Classical.choice, Quot.sound]"})
}

async fn standin(rules: &[Value]) -> LeanServer {
    common::standin_server(rules).await
}

fn statement(text: &str) -> Statement {
    parse_statement(text, &Header::default()).expect("parses")
}

fn oracle(s: &LeanServer) -> Oracle<LeanClient> {
    Oracle::new(
        s.client.clone(),
        OracleConfig { request_timeout: Duration::from_secs(10), ..OracleConfig::default() },
    )
}

const MATHLIB: &str = "import Mathlib\nopen Real\n";

#[tokio::test]
async fn classification_error_before_goals_two_goals_closed_open() {
    let s = standin(&[
        error_at(&["apply congrArg"], "tactic 'apply' failed to unify"),
        // An error with a goal query that would say "no goals" (error recovery): still an error.
        closed_after(&["apply congrArg"]),
        two_goals_after(&["apply implies_congr"]),
        closed_after(&["rfl"]),
        goal_after(&["ext"], "[[[x] + [z]] = [[z] + [y]]]"),
    ])
    .await;
    let mut o = oracle(&s);
    let key = Oracle::<LeanClient>::import_key(&["import Mathlib\n"]);
    let block = |t: &str| Block {
        goal: "True = True".into(),
        path: Vec::new(),
        tactic: t.into(),
        suggestions: false,
        universes: Vec::new(),
    };
    let before = o.counters().snapshot();
    let (r, _) = o
        .run(
            &key,
            &[block("apply congrArg"), block("apply implies_congr"), block("rfl"), block("ext")],
            &[],
            Instant::now() + Duration::from_secs(10),
        )
        .await
        .expect("batch");
    assert_eq!(r[0].outcome, Outcome::Error("tactic 'apply' failed to unify".into()));
    assert_eq!(r[1].outcome, Outcome::Several(2));
    assert_eq!(r[2].outcome, Outcome::Closed);
    let Outcome::Open(g) = &r[3].outcome else {
        panic!("expected one goal, got {:?}", r[3].outcome)
    };
    assert_eq!(g.text, "x + z = z + y");
    assert!(g.sides.is_some());
    let used = o.counters().snapshot().since(&before);
    // One version for the whole batch; waitForDiagnostics + rpc/connect + diagnostics + 3 goals
    // (the error block's goals are never asked for).
    assert_eq!(used.versions, 1);
    assert_eq!(used.round_trips, 6);
    drop(s.child);
}

/// ASSESS Appendix C.2, exercise_1_1b: closed by rw? suggestions and forall_congr.
#[tokio::test]
async fn worked_path_exercise_1_1b() {
    let g0 = "[([∀ ([x] : [ℝ]) ([y] : [ℚ]), [[[y] ≠ [0]] → [[Irrational [x]] → [Irrational ([[x] * [↑[y]]])]]]]) = [∀ ([r] : [ℚ]) ([x] : [ℝ]), [[Irrational [x]] → [[[r] ≠ [0]] → [Irrational ([[↑[r]] * [x]])]]]]]";
    let g1 = "[([∀ ([y] : [ℚ]) ([x] : [ℝ]), [[[y] ≠ [0]] → [[Irrational [x]] → [Irrational ([[x] * [↑[y]]])]]]]) = [∀ ([r] : [ℚ]) ([x] : [ℝ]), [[Irrational [x]] → [[[r] ≠ [0]] → [Irrational ([[↑[r]] * [x]])]]]]]";
    let g2 = "[([∀ ([x] : [ℝ]), [[[x_2] ≠ [0]] → [[Irrational [x]] → [Irrational ([[x] * [↑[x_2]]])]]]]) = [∀ ([x] : [ℝ]), [[Irrational [x]] → [[[x_2] ≠ [0]] → [Irrational ([[↑[x_2]] * [x]])]]]]]";
    let g3 = "[([∀ ([x] : [ℝ]), [[IsRegular [x_2]] → [[Irrational [x]] → [Irrational ([[x] * [↑[x_2]]])]]]]) = [∀ ([x] : [ℝ]), [[Irrational [x]] → [[IsRegular [x_2]] → [Irrational ([[↑[x_2]] * [x]])]]]]]";
    let g4 = "[([[IsRegular [x_2]] → [[Irrational [x_4]] → [Irrational ([[x_4] * [↑[x_2]]])]]]) = ([[Irrational [x_4]] → [[IsRegular [x_2]] → [Irrational ([[↑[x_2]] * [x_4]])]]])]";
    let g5 = "[([[Irrational [x_4]] → [[IsRegular [x_2]] → [Irrational ([[x_4] * [↑[x_2]]])]]]) = ([[Irrational [x_4]] → [[IsRegular [x_2]] → [Irrational ([[↑[x_2]] * [x_4]])]]])]";
    let n = "try norm_num1";
    let p1 = [n, "rw [forall_swap]"];
    let p2 = [n, "rw [forall_swap]", "apply forall_congr; intro x_2"];
    let p3 =
        [n, "rw [forall_swap]", "apply forall_congr; intro x_2", "rw [← isRegular_iff_ne_zero']"];
    let p4 = [&p3[..], &["apply forall_congr; intro x_4"]].concat();
    let p5 = [&p4[..], &["rw [forall_swap]"]].concat();
    let s = standin(&[
        goal_after(&["skip"], g0),
        goal_after(&[n], g0),
        error_at(&[n, "rfl"], "The rfl tactic failed."),
        suggest_at(&[n, RW], &["rw [forall_swap]"]),
        goal_after(&p1, g1),
        goal_after(&p2, g2),
        suggest_at(&with(&p2, RW), &["rw [← isRegular_iff_ne_zero']"]),
        goal_after(&p3, g3),
        goal_after(&p4, g4),
        suggest_at(&with(&p4, RW), &["rw [forall_swap]"]),
        goal_after(&p5, g5),
        suggest_at(&with(&p5, RW), &["rw [@Rat.cast_comm]"]),
        closed_after(&with(&p5, "rw [@Rat.cast_comm]")),
        no_other_suggestions(),
        axioms_ok(),
    ])
    .await;
    let (j, _o) = transted_closes(
        &s,
        "theorem exercise_1_1b (x : ℝ) (y : ℚ) (h : y ≠ 0) : ( Irrational x ) → Irrational ( x * y ) := by sorry",
        "theorem mul_rat_tac_11959 (r : ℚ) (x : ℝ) (h : Irrational x) (hr : r ≠ 0) : Irrational (r * x) := by sorry",
    )
    .await;
    assert_eq!(j.report.verdict, Verdict::Score(1.0));
    let rules: Vec<&str> = j.report.path.iter().map(|s| s.rule.as_str()).collect();
    assert_eq!(rules, with(&p5, "rw [@Rat.cast_comm]"));
    let proof = j.proof.expect("proof text");
    assert!(proof.starts_with("import Mathlib\n"));
    assert!(proof.contains("theorem transted_witness : (type_of% @_tt.S1._stmt) = (type_of% @_tt.S2._stmt) := by\n  try norm_num1\n  rw [forall_swap]\n"));
    assert!(!proof.contains("sorry"));
    assert_eq!(j.work.expanded, 6);
    // A chain: each node's only child comes from the previous version's suggestions or commands,
    // so at most two versions per node (one when pipelined with the next node).
    assert!(j.work.search.versions <= 2 * j.work.expanded as u64);
    assert!(j.work.search.versions >= j.work.expanded as u64);
}

/// ASSESS Appendix C.2, mathd_algebra_142: forall_congr, rw? suggestions, `rw [propext and_imp]`;
/// on the way a rejected suggestion naming a hidden statement and a two-goal child.
#[tokio::test]
async fn worked_path_mathd_algebra_142() {
    let lhs = "[∀ ([m] [b] : [ℝ]), [[[[[m] * [7]] + [b]] = [-1]] → [[[[[m] * [-1]] + [b]] = [7]] → [[[m] + [b]] = [5]]]]]";
    let g0 = format!("[([{lhs}]) = [let B := [([7], [-1])]; [let C := [([-1], [7])]; [∀ ([m] [b] : [ℝ]), [[[[[B].2] = [[[m] * [[B].1]] + [b]]] ∧ [[[C].2] = [[[m] * [[C].1]] + [b]]]] → [[[m] + [b]] = [5]]]]]]]");
    let g0n = format!("[([{lhs}]) = [∀ ([m] [b] : [ℝ]), [[[[-1] = [[[m] * [7]] + [b]]] ∧ [[7] = [[[m] * [-1]] + [b]]]] → [[[m] + [b]] = [5]]]]]");
    let n1 = "[([∀ ([b] : [ℝ]), [[[[[x_1] * [7]] + [b]] = [-1]] → [[[[[x_1] * [-1]] + [b]] = [7]] → [[[x_1] + [b]] = [5]]]]]) = [∀ ([b] : [ℝ]), [[[[-1] = [[[x_1] * [7]] + [b]]] ∧ [[7] = [[[x_1] * [-1]] + [b]]]] → [[[x_1] + [b]] = [5]]]]]";
    let n2 = "[([∀ ([b] : [ℝ]), [[[[[x_1] * [7]] + [b]] = [-1]] → [[[[-[x_1]] + [b]] = [7]] → [[[x_1] + [b]] = [5]]]]]) = [∀ ([b] : [ℝ]), [[[[-1] = [[[x_1] * [7]] + [b]]] ∧ [[7] = [[-[x_1]] + [b]]]] → [[[x_1] + [b]] = [5]]]]]";
    let n3 = "[([[[[[x_1] * [7]] + [x_3]] = [-1]] → [[[[-[x_1]] + [x_3]] = [7]] → [[[x_1] + [x_3]] = [5]]]]) = ([[[[-1] = [[[x_1] * [7]] + [x_3]]] ∧ [[7] = [[-[x_1]] + [x_3]]]] → [[[x_1] + [x_3]] = [5]]])]";
    let n4 = "[([[[[[x_1] * [7]] + [x_3]] = [-1]] → [[[[-[x_1]] + [x_3]] = [7]] → [[[x_1] + [x_3]] = [5]]]]) = ([[[[[[x_1] * [7]] + [x_3]] = [-1]] ∧ [[7] = [[-[x_1]] + [x_3]]]] → [[[x_1] + [x_3]] = [5]]])]";
    let n5 = "[([[[[[x_1] * [7]] + [x_3]] = [-1]] → [[[[-[x_1]] + [x_3]] = [7]] → [[[x_1] + [x_3]] = [5]]]]) = ([[[[[[x_1] * [7]] + [x_3]] = [-1]] ∧ [[[[-[x_1]] + [x_3]] = [7]]] → [[[x_1] + [x_3]] = [5]]])]";
    let n = "try norm_num1";
    let p1 = [n, "apply forall_congr; intro x_1"];
    let p2 = with(&p1, "rw [mul_neg_one]");
    let p3 = with(&p2, "apply forall_congr; intro x_3");
    let p4 = with(&p3, "rw [and_symm_left]");
    let p5 = with(&p4, "rw [and_symm_right]");
    let s = standin(&[
        goal_after(&["skip"], &g0),
        goal_after(&[n], &g0n),
        error_at(&[n, "rfl"], "The rfl tactic failed."),
        suggest_at(&[n, RW], &["rw [← _tt.S2._stmt]"]),
        two_goals_after(&[n, "apply implies_congr; all_goals (try exact?)"]),
        goal_after(&p1, n1),
        suggest_at(&with(&p1, RW), &["rw [mul_neg_one]"]),
        goal_after(&p2, n2),
        goal_after(&p3, n3),
        suggest_at(&with(&p3, RW), &["rw [and_symm_left]"]),
        goal_after(&p4, n4),
        suggest_at(&with(&p4, RW), &["rw [and_symm_right]"]),
        goal_after(&p5, n5),
        closed_after(&with(&p5, "rw [propext and_imp]")),
        no_other_suggestions(),
        axioms_ok(),
    ])
    .await;
    let (j, _o) = transted_closes(
        &s,
        "theorem mathd_algebra_142 (m b : ℝ) (h0 : m * 7 + b = -1) (h1 : m * -1 + b = 7) : m + b = 5 := by sorry",
        "theorem my_favorite_theorem : let B : ℝ × ℝ := (7, -1); let C : ℝ × ℝ := (-1, 7); ∀ m b : ℝ, (B.2 = m * B.1 + b ∧ C.2 = m * C.1 + b) → m + b = 5 := by sorry",
    )
    .await;
    let rules: Vec<&str> = j.report.path.iter().map(|s| s.rule.as_str()).collect();
    assert_eq!(rules, with(&p5, "rw [propext and_imp]"));
    // The candidate's `let … := …` stays in its signature (only the proof's `:=` cuts).
    assert!(j.proof.as_deref().is_some_and(|p| p.contains(
        "axiom _tt.S2._stmt : let B : ℝ × ℝ := (7, -1); let C : ℝ × ℝ := (-1, 7); ∀ m b : ℝ, (B.2 = m * B.1 + b ∧ C.2 = m * C.1 + b) → m + b = 5\n"
    )));
    assert!(j
        .report
        .notes
        .iter()
        .any(|n| n.contains("1 rw? suggestion(s) mentioning the hidden statements rejected")));
    assert_eq!(j.work.expanded, 6);
}

/// The `#print axioms` re-check rejects a path that used a hidden statement.
#[tokio::test]
async fn a_closing_path_that_uses_the_statements_is_rejected() {
    let g0 = "[([[P] → [Q]]) = ([[Q] → [P]])]";
    let s = standin(&[
        goal_after(&["skip"], g0),
        closed_after(&["rfl"]),
        json!({"method": "standin/diagnostic", "lineContains": "#print axioms _tt.W", "severity": 3,
               "message": "'_tt.W' depends on axioms: [_tt.S1._stmt]"}),
        no_other_suggestions(),
    ])
    .await;
    let (j, _o) = judge_texts(
        &s,
        &TransTed { config: TransTedConfig { max_expansions: 3, ..TransTedConfig::default() } },
        "",
        "theorem a (P Q : Prop) : P → Q := by sorry",
        "theorem b (P Q : Prop) : Q → P := by sorry",
    )
    .await;
    let j = j.expect("judged");
    assert_ne!(j.report.distance, Some(0));
    assert!(j.report.notes.iter().any(|n| n.contains("rejected by the re-check")));
    assert!(j.report.notes.iter().any(|n| n.contains("Mathlib not imported")));
    assert!(j.proof.expect("partial proof").contains("  sorry\n"));
}

/// Lean's check on explicit universe levels for a hidden statement of this arity (stand-in rule
/// `standin/universes`, after `Lean.Elab.Term.mkConst`).
fn universe_arity(name: &str, arity: u64) -> Value {
    json!({"method": "standin/universes", "name": name, "arity": arity})
}

/// A rule that holds only for a block whose `:= by` line contains `decl` and whose header
/// declares the shared universe.
fn with_shared_universe(mut rule: Value, decl: &str) -> Value {
    rule["declContains"] = json!(decl);
    rule["headerContains"] = json!("universe u in");
    rule
}

/// A pair without Mathlib judged by `transted` with `max_expansions` nodes.
/// The merged goal with both statements instantiated at one shared universe `u`.
const UNIFIED: &str = "(type_of% @_tt.S1._stmt.{u}) = (type_of% @_tt.S2._stmt.{u})";

/// Both statements of universe arity 1; under the shared universe ([`UNIFIED`]) the goal `g0`
/// after `skip`, closed by `rfl`; nothing else suggested; the witness's axioms clean.
fn shared_universe_closes_by_rfl(g0: &str) -> Vec<Value> {
    vec![
        universe_arity("_tt.S1._stmt", 1),
        universe_arity("_tt.S2._stmt", 1),
        with_shared_universe(goal_after(&["skip"], g0), UNIFIED),
        with_shared_universe(closed_after(&["rfl"]), UNIFIED),
        no_other_suggestions(),
        axioms_ok(),
    ]
}

async fn judge_plain(
    s: &LeanServer,
    reference: &str,
    candidate: &str,
    max_expansions: usize,
) -> LeanJudgement {
    let metric =
        TransTed { config: TransTedConfig { max_expansions, ..TransTedConfig::default() } };
    judge_texts(s, &metric, "", reference, candidate).await.0.expect("judged")
}

/// `transted`'s judgement (default configuration, both sides under `import Mathlib`), which
/// must close the pair; the oracle too, kept open while the test reads the judgement.
async fn transted_closes(
    s: &LeanServer,
    reference: &str,
    candidate: &str,
) -> (LeanJudgement, Oracle<LeanClient>) {
    let (j, o) = judge_texts(s, &TransTed::default(), MATHLIB, reference, candidate).await;
    let j = j.expect("judged");
    assert_eq!(j.report.distance, Some(0), "notes: {:?}", j.report.notes);
    (j, o)
}

/// `metric`'s judgement of two statements, each under `header`, over a fresh oracle of the
/// stand-in (returned too: its counters, and the documents it keeps open until it is dropped).
async fn judge_texts(
    s: &LeanServer,
    metric: &impl LeanMetric,
    header: &str,
    reference: &str,
    candidate: &str,
) -> (Result<LeanJudgement, MetricError>, Oracle<LeanClient>) {
    let (reference, candidate) = (statement(reference), statement(candidate));
    let pair = Pair {
        reference: &reference,
        candidate: &candidate,
        reference_header: header,
        candidate_header: header,
    };
    let mut o = oracle(s);
    let judgement = metric.judge(&mut o, &pair).await;
    (judgement, o)
}

/// Two `Type*` statements differing only in names (arity 1 each): the merged goal instantiates
/// both with one shared `u`, and `rfl` closes it — the stand-in closes it only for that goal
/// under `universe u in` (any other `rfl` leaves the stand-in's default goal). The probes ride in the declaring version: 3 versions in all.
#[tokio::test]
async fn universe_parameters_unified_arity_one_each_closes_by_rfl() {
    let g0 = "[([∀ {[α] : [Type u]} ([s] : [Set [α]]), [[s] ⊆ [s]]]) = ([∀ {[β] : [Type u]} ([t] : [Set [β]]), [[t] ⊆ [t]]])]";
    let s = standin(&shared_universe_closes_by_rfl(g0)).await;
    let j = judge_plain(
        &s,
        "theorem a {α : Type*} (s : Set α) : s ⊆ s := by sorry",
        "theorem b {β : Type*} (t : Set β) : t ⊆ t := by sorry",
        5,
    )
    .await;
    assert_eq!(j.report.distance, Some(0), "notes: {:?}", j.report.notes);
    assert!(
        j.report.notes.iter().any(|n| n.contains(
            "universe parameters unified: reference 1, candidate 1, all instantiated with one shared `u`"
        )),
        "notes: {:?}",
        j.report.notes
    );
    let proof = j.proof.expect("proof");
    assert!(
        proof.contains(&format!("theorem transted_witness.{{u}} : {UNIFIED} := by\n  rfl\n")),
        "{proof}"
    );
    // Declaration (with 2 × 5 probes), stage 0, the re-check.
    assert_eq!(j.work.total.versions, 3);
}

/// A signature that mentions `Type` but has no universe parameter (arity 0 from the probes):
/// the plain merged goal, no `universe` line, no note about universes.
#[tokio::test]
async fn universe_arity_zero_keeps_the_plain_goal() {
    let plain = "(type_of% @_tt.S1._stmt) = (type_of% @_tt.S2._stmt)";
    let s = standin(&[
        universe_arity("_tt.S1._stmt", 0),
        universe_arity("_tt.S2._stmt", 0),
        goal_after(&["skip"], "[([∀ ([α] : [Type]) ([x] : [α]), [[x] = [x]]]) = ([∀ ([β] : [Type]) ([y] : [β]), [[y] = [y]]])]"),
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["rfl"], "declContains": plain, "result": {"goals": []}}),
        no_other_suggestions(),
        axioms_ok(),
    ])
    .await;
    let j = judge_plain(
        &s,
        "theorem a (α : Type) (x : α) : x = x := by sorry",
        "theorem b (β : Type) (y : β) : y = y := by sorry",
        5,
    )
    .await;
    assert_eq!(j.report.distance, Some(0), "notes: {:?}", j.report.notes);
    assert!(!j.report.notes.iter().any(|n| n.contains("universe")));
    let proof = j.proof.expect("proof");
    assert!(proof.contains(&format!("theorem transted_witness : {plain} := by\n")));
}

/// Arities 2 and 1: each side gets its own number of `u`s (more would be Lean's "too many
/// explicit universe levels" error on the block, and the goal would not elaborate).
#[tokio::test]
async fn universe_arities_two_and_one() {
    let unified = "(type_of% @_tt.S1._stmt.{u, u}) = (type_of% @_tt.S2._stmt.{u})";
    let s = standin(&[
        universe_arity("_tt.S1._stmt", 2),
        universe_arity("_tt.S2._stmt", 1),
        with_shared_universe(
            goal_after(&["skip"], "[([∀ {[α] : [Type u]} {[β] : [Type u]} ([f] : [[α] → [β]]), [[f] = [f]]]) = ([∀ {[γ] : [Type u]} ([g] : [[γ] → [γ]]), [[g] = [g]]])]"),
            unified,
        ),
        error_at(&["rfl"], "The rfl tactic failed."),
        no_other_suggestions(),
    ])
    .await;
    let j = judge_plain(
        &s,
        "theorem a {α : Type*} {β : Type*} (f : α → β) : f = f := by sorry",
        "theorem b {γ : Type*} (g : γ → γ) : g = g := by sorry",
        0,
    )
    .await;
    assert!(
        j.report
            .notes
            .iter()
            .any(|n| n.contains("universe parameters unified: reference 2, candidate 1")),
        "notes: {:?}",
        j.report.notes
    );
    assert!(j.report.distance.is_some_and(|d| d > 0));
    assert!(!j.report.notes.iter().any(|n| n.contains("plain TED")));
    let proof = j.proof.expect("proof");
    assert!(
        proof.contains(&format!("theorem transted_witness.{{u}} : {unified} := by\n")),
        "{proof}"
    );
}

/// A universe probe failing for another reason (here a heartbeat timeout): the arity is
/// unknown, nothing is instantiated and the note says why; the search goes on with the plain
/// goal (whose `rfl` fails: the sides' own `u_1`, `u_2` differ).
#[tokio::test]
async fn a_failing_universe_probe_falls_back_to_the_plain_goal() {
    let plain = "(type_of% @_tt.S1._stmt) = (type_of% @_tt.S2._stmt)";
    let s = standin(&[
        universe_arity("_tt.S1._stmt", 1),
        json!({"method": "standin/diagnostic", "lineContains": "#check @_tt.S2._stmt.{u}",
               "message": "(deterministic) timeout at `whnf`, maximum number of heartbeats (200000) has been reached"}),
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["skip"], "declContains": plain,
               "result": one_goal("[([∀ {[α] : [Type u_1]} ([s] : [Set [α]]), [[s] ⊆ [s]]]) = ([∀ {[β] : [Type u_2]} ([t] : [Set [β]]), [[t] ⊆ [t]]])]")}),
        error_at(&["rfl"], "The rfl tactic failed."),
        no_other_suggestions(),
    ])
    .await;
    let j = judge_plain(
        &s,
        "theorem a {α : Type*} (s : Set α) : s ⊆ s := by sorry",
        "theorem b {β : Type*} (t : Set β) : t ⊆ t := by sorry",
        0,
    )
    .await;
    assert!(
        j.report.notes.iter().any(|n| n.starts_with(
            "universe parameters are not unified across the two sides (arity unknown; candidate: the probe with 1 universe level(s) failed: (deterministic) timeout"
        )),
        "notes: {:?}",
        j.report.notes
    );
    assert!(!j.report.notes.iter().any(|n| n.contains("plain TED")));
    assert_ne!(j.report.distance, Some(0));
    let proof = j.proof.expect("proof");
    assert!(proof.contains(&format!("theorem transted_witness : {plain} := by\n")));
}

/// Sides printed alike (TED 0) are not a proof: the root is still expanded, and the goal closes
/// only when Lean says so.
#[tokio::test]
async fn a_goal_at_ted_zero_is_still_searched() {
    let s = standin(&[
        goal_after(&["skip"], "[([[↑[n]] = [↑[n]]]) = ([[↑[n]] = [↑[n]]])]"),
        error_at(&["rfl"], "The rfl tactic failed."),
        closed_after(&["apply congrArg"]),
        no_other_suggestions(),
        axioms_ok(),
    ])
    .await;
    let j = judge_plain(
        &s,
        "theorem a (n : ℕ) : (n : ℤ) = n := by sorry",
        "theorem b (n : ℕ) : (n : ℝ) = n := by sorry",
        3,
    )
    .await;
    assert_eq!(j.report.distance, Some(0), "notes: {:?}", j.report.notes);
    assert!(j.report.notes.iter().any(|n| n.starts_with("the goal closed")));
    let rules: Vec<&str> = j.report.path.iter().map(|s| s.rule.as_str()).collect();
    assert_eq!(rules, ["apply congrArg"]);
    assert_eq!(j.work.expanded, 1);
}

/// Every version takes 200 ms; the pair has 1.5 s: the search stops on the clock with the best
/// TED seen so far.
#[tokio::test]
async fn a_search_that_runs_out_of_time() {
    let g0 = "[([[[a] + [b]] = [c]]) = ([[c] = [[b] + [a]]])]";
    let g1 = "[([[a] + [b]]) = ([[b] + [a]])]";
    // A chain of ever new (and worse) goals under `apply congrArg`, longer than the clock allows.
    let mut rules = vec![
        json!({"method": "textDocument/waitForDiagnostics", "delayMs": 200, "result": {}}),
        goal_after(&["skip"], g0),
        goal_after(&["apply congrArg"], g1),
    ];
    for k in 2..30 {
        let path = vec!["apply congrArg"; k];
        rules.push(goal_after(&path, &format!("[([[[a] + [b]] + [{k}]]) = ([[b] + [a]])]")));
    }
    rules.push(no_other_suggestions());
    let s = standin(&rules).await;
    let start = Instant::now();
    let (j, _o) = judge_texts(
        &s,
        &TransTed {
            config: TransTedConfig {
                time_limit: Duration::from_millis(1500),
                max_expansions: 1000,
                mathlib: None,
            },
        },
        "",
        "theorem a (a b c : ℕ) : a + b = c := by sorry",
        "theorem b (a b c : ℕ) : c = b + a := by sorry",
    )
    .await;
    let j = j.expect("judged");
    assert!(start.elapsed() < Duration::from_secs(4));
    assert!(j.report.notes.iter().any(|n| n.contains("time limit")), "notes: {:?}", j.report.notes);
    // The best node is g1 (`a + b` vs `b + a`: two renames), reached by `apply congrArg`.
    assert_eq!(j.report.distance, Some(2));
    let rules: Vec<&str> = j.report.path.iter().map(|s| s.rule.as_str()).collect();
    assert_eq!(rules, ["apply congrArg"]);
    let Verdict::Score(score) = j.report.verdict else { panic!("a score") };
    assert!(score < 1.0);
}

/// The worker crashes on the first version (pending request gets -32902, README §4): the oracle
/// reopens the document, replays it and answers; ASSESS C.3's first false positive is caught.
#[tokio::test]
async fn worker_crash_then_defeq_false_positive_detected() {
    let s = standin(&[
        json!({"method": "textDocument/waitForDiagnostics", "times": 1,
               "error": {"code": -32902, "message": "Server process for file crashed, likely due to a stack overflow or a bug."}}),
        json!({"method": "standin/diagnostic", "tactics": ["rfl"], "declContains": "type_of%",
               "message": "The rfl tactic failed. Possible reasons:"}),
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["rfl"], "result": {"goals": []}}),
    ])
    .await;
    let (j, o) = judge_texts(
        &s,
        &DefEq::default(),
        MATHLIB,
        "theorem thm_P (x : ℝ) : (x + 1) ^ 2 * x = x ^ 3 + 2 * x ^ 2 + x := by sorry",
        "theorem thm_Q {R : Type*} [CommRing R] (x : R) : (x + 1) ^ 2 * x = x ^ 3 + 2 * x ^ 2 + x := by sorry",
    )
    .await;
    let j = j.expect("judged after the crash");
    assert_eq!(j.report.verdict, Verdict::Equivalent(false));
    assert!(
        j.report
            .notes
            .iter()
            .any(|n| n.contains("false positive") && n.contains("implicit type variables: R")),
        "notes: {:?}",
        j.report.notes
    );
    assert_eq!(o.counters().snapshot().reopens, 1);
}

/// Auto-bound implicit names (the `autoImplicit false` probe fails) are reported and not equal.
#[tokio::test]
async fn defeq_with_autobound_names_is_not_equal() {
    let s = standin(&[
        json!({"method": "standin/diagnostic", "lineContains": "axiom _tt.S2._strict",
               "message": "unknown identifier 'wilsons_poly'"}),
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["rfl"], "result": {"goals": []}}),
    ])
    .await;
    let (j, _o) = judge_texts(
        &s,
        &DefEq::default(),
        MATHLIB,
        "theorem a (p : ℕ) (h : p.Prime) : wilson p := by sorry",
        "theorem b (p : ℕ) (h : p.Prime) : wilsons_poly p := by sorry",
    )
    .await;
    let j = j.expect("judged");
    assert_eq!(j.report.verdict, Verdict::Equivalent(false));
    assert!(j
        .report
        .notes
        .iter()
        .any(|n| n.starts_with("candidate typechecks only with auto-bound")));
    assert!(!j.report.notes.iter().any(|n| n.starts_with("reference")));
}

/// With a real Lean (core is enough): `rfl` closes a pair that differs in names only.
#[tokio::test]
#[ignore = "needs a real Lean toolchain (`lean` on PATH), which the tests cannot install"]
async fn real_lean_closes_a_renamed_pair() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut lean = Command::new("lean");
    lean.arg("--server").current_dir(dir.path());
    let root = format!("file://{}", dir.path().display());
    let server = common::connect_lean(lean, Some(&root), Duration::from_secs(60)).await;
    let mut o = Oracle::new(
        server.client.clone(),
        OracleConfig { scratch_dir_uri: root, ..OracleConfig::default() },
    );
    let reference = statement("theorem a (n : Nat) : n + 0 = n := by sorry");
    let candidate = statement("theorem b (m : Nat) : m + 0 = m := by sorry");
    let pair = Pair {
        reference: &reference,
        candidate: &candidate,
        reference_header: "",
        candidate_header: "",
    };
    let d = DefEq::default().judge(&mut o, &pair).await.expect("defeq");
    assert_eq!(d.report.verdict, Verdict::Equivalent(true));
    let t = TransTed::default().judge(&mut o, &pair).await.expect("transted");
    assert_eq!(t.report.distance, Some(0));
}

/// BEq's Lean side over the oracle: `exact?`'s "Try this" is found; a proof whose axioms show
/// `thm_P` (its `sorryAx`) is proved; an erroring proof and one not using thm_P fail.
#[tokio::test]
async fn beq_checker_over_the_oracle() {
    use lean_assess::lean::beq_checker::OracleProofChecker;
    use lean_assess::metrics::beq::{CheckOutcome, CheckRequest, ProofChecker, Suggestion};
    let s = standin(&[
        json!({"method": "textDocument/codeAction", "tactics": ["exact?"],
               "tryThis": ["exact thm_P x (Nat.pos_of_ne_zero h)"]}),
        json!({"method": "standin/diagnostic", "lineContains": "#print axioms BEq2.thm_Q", "severity": 3,
               "message": "'BEq2.thm_Q' depends on axioms: [propext, sorryAx]"}),
        json!({"method": "standin/diagnostic", "tactics": ["exact thm_P"], "message": "type mismatch"}),
        json!({"method": "standin/diagnostic", "lineContains": "#print axioms BEq4.thm_Q", "severity": 3,
               "message": "'BEq4.thm_Q' depends on axioms: [propext]"}),
    ])
    .await;
    let o = oracle(&s);
    let counters = o.counters();
    let checker = OracleProofChecker::new(o, Duration::from_secs(10));
    let req = |proof| CheckRequest {
        assumed_header: MATHLIB,
        assumed: "theorem thm_P (x : ℕ) (h : 0 < x) : 1 ≤ x := sorry",
        goal_header: MATHLIB,
        goal: "theorem thm_Q (x : ℕ) (h : x ≠ 0) : 1 ≤ x := by",
        proof,
    };
    assert_eq!(
        checker.suggest(req("")).await,
        Ok(Suggestion::Found { proof: "exact thm_P x (Nat.pos_of_ne_zero h)".into() })
    );
    assert_eq!(
        checker.check(req("exact thm_P x (Nat.pos_of_ne_zero h)")).await,
        Ok(CheckOutcome::Proved)
    );
    assert_eq!(
        checker.check(req("exact thm_P")).await,
        Ok(CheckOutcome::Failed { errors: vec!["type mismatch".into()] })
    );
    let Ok(CheckOutcome::ClosedWithoutAssumed { axioms }) =
        checker.check(req("exact Nat.one_le_iff_ne_zero.mpr h")).await
    else {
        panic!("not using thm_P must not be proved")
    };
    assert!(!axioms.contains("sorryAx"), "{axioms}");
    // One version per check; round trips: waitForDiagnostics + interactive diagnostics each,
    // `exact?`'s code actions once, rpc/connect once.
    let used = counters.snapshot();
    assert_eq!((used.versions, used.round_trips), (4, 10));
}

// ---- What a real Lean does that the stand-in did not (each shape cited in the
// stand-in's module doc).

fn header_rule(kind: &str) -> Value {
    json!({"method": "standin/header", "kind": kind})
}

/// A failed `lake setup-file`, "Imports are out of date…" and an unknown import are reported at
/// 0:0 and nothing after the header is elaborated: every metric ends with one error naming the
/// scratch document and Lean's message — never a score, "not equal" or "does not use thm_P" —
/// and the oracle stays failed for that import set (sticky).
#[tokio::test]
async fn a_header_error_ends_the_batch_with_one_loud_error() {
    for (kind, expected) in [
        ("outOfDate", "Imports are out of date and must be rebuilt"),
        ("setupFailed", "lake setup-file"),
        ("unknownImport", "unknown module prefix 'Mathlib'"),
    ] {
        let s = standin(&[header_rule(kind)]).await;
        let (reference, candidate) = (
            statement("theorem a (x : ℕ) : x + 0 = x := by sorry"),
            statement("theorem b (y : ℕ) : y + 0 = y := by sorry"),
        );
        let pair = Pair {
            reference: &reference,
            candidate: &candidate,
            reference_header: MATHLIB,
            candidate_header: MATHLIB,
        };
        let mut o = oracle(&s);
        let e = TransTed::default()
            .judge(&mut o, &pair)
            .await
            .expect_err("transted must fail, not fall back to plain TED");
        let text = e.to_string();
        assert!(
            text.contains("could not process the imports")
                && text.contains(expected)
                && text.contains("scratch0.lean"),
            "{kind}: {text}"
        );
        let e = DefEq::default()
            .judge(&mut o, &pair)
            .await
            .expect_err("defeq must fail, not say \"not equal\"");
        assert!(e.to_string().contains(expected), "{kind}: {e}");
        assert!(o.header_failure().is_some());
        // BEq's checker: an error, not "does not use thm_P".
        use lean_assess::lean::beq_checker::OracleProofChecker;
        use lean_assess::metrics::beq::{CheckRequest, ProofChecker};
        let checker = OracleProofChecker::new(oracle(&s), Duration::from_secs(10));
        let r = checker
            .check(CheckRequest {
                assumed_header: MATHLIB,
                assumed: "theorem thm_P (x : ℕ) : x + 0 = x := sorry",
                goal_header: MATHLIB,
                goal: "theorem thm_Q (y : ℕ) : y + 0 = y := by",
                proof: "exact thm_P",
            })
            .await;
        assert!(matches!(&r, Err(e) if e.to_string().contains(expected)), "{kind}: {r:?}");
    }
}

/// With a scratch directory the scratch document is a real file inside the project, written
/// before `didOpen`, clearly named, and removed on close and on drop.
#[tokio::test]
async fn scratch_documents_exist_on_disk_and_are_removed() {
    let dir = tempfile::tempdir().expect("tmp");
    let scratch = lean_assess::lean::scratch::dir_of(dir.path());
    let s = standin(&[]).await;
    let config = |dir: &std::path::Path| OracleConfig {
        request_timeout: Duration::from_secs(10),
        scratch_dir: Some(dir.to_path_buf()),
        ..OracleConfig::default()
    };
    let mut o = Oracle::new(s.client.clone(), config(&scratch));
    let key = Oracle::<LeanClient>::import_key(&["import Mathlib\n"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    o.run(&key, &[], &[], deadline).await.expect("batch");
    let uri = o.uri_of(&key);
    let files: Vec<_> = std::fs::read_dir(&scratch)
        .expect("scratch dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| !p.ends_with(".gitignore"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    // Kept out of `git status` while it exists.
    assert_eq!(std::fs::read_to_string(scratch.join(".gitignore")).expect(".gitignore"), "*\n");
    let name = files[0].file_name().and_then(|n| n.to_str()).unwrap_or("");
    assert!(name.starts_with(&format!("lean_assess_scratch_{}_", std::process::id())), "{name}");
    assert!(uri.starts_with("file://") && uri.ends_with(name), "{uri}");
    assert!(std::fs::read_to_string(&files[0]).expect("read").starts_with("import Mathlib\n"));
    o.close_all().await;
    assert!(!files[0].exists());

    // Dropped mid-run (a dying job): nothing left behind.
    let mut o = Oracle::new(s.client.clone(), config(&scratch));
    o.run(&key, &[], &[], deadline).await.expect("batch");
    assert_eq!(lean_assess::lean::scratch::live_paths().len(), 1);
    drop(o);
    assert!(!scratch.exists() || std::fs::read_dir(&scratch).expect("dir").next().is_none());
}

/// `-32801 "File changed."` is a retry of the same request (the worker is alive); "Cannot
/// process request to closed file" and a crashed worker (fileProgress kind 2, -32902) reopen.
#[tokio::test]
async fn file_changed_is_retried_closed_file_and_crash_reopen() {
    let s = standin(&[
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveDiagnostics",
               "errorKind": "fileChanged", "times": 2}),
    ])
    .await;
    let mut o = oracle(&s);
    let key = Oracle::<LeanClient>::import_key(&[""]);
    let deadline = Instant::now() + Duration::from_secs(10);
    o.run(&key, &[], &[lean_assess::lean::oracle::Command::new("#check 1")], deadline)
        .await
        .expect("retried");
    assert_eq!(o.counters().snapshot().reopens, 0, "File changed. is not a reopen");

    s.client
        .notify(
            "standin/script",
            json!({"rules": [{"method": "textDocument/waitForDiagnostics",
                              "errorKind": "closedFile", "times": 1}]}),
        )
        .await
        .expect("script");
    o.run(&key, &[], &[], deadline).await.expect("reopened");
    assert_eq!(o.counters().snapshot().reopens, 1);

    // A worker crashing while a request is pending (Watchdog.lean: -32902 to pending requests):
    // reopen.
    s.client
        .notify(
            "standin/script",
            json!({"rules": [{"method": "textDocument/waitForDiagnostics",
                              "errorKind": "workerCrashed", "times": 1}]}),
        )
        .await
        .expect("script");
    o.run(&key, &[], &[], deadline).await.expect("reopened after the crash");
    assert_eq!(o.counters().snapshot().reopens, 2);

    // The stand-in's crashed worker answers -32902 with the watchdog's text until the next edit.
    let uri = o.uri_of(&key);
    s.client.notify("standin/crashWorker", json!({"uri": uri})).await.expect("crash");
    let r = s
        .client
        .request(
            "textDocument/waitForDiagnostics",
            json!({"uri": uri, "version": 1}),
            Duration::from_secs(5),
        )
        .await;
    assert!(
        matches!(&r, Err(lean_assess::lean::LeanError::Response { code: -32902, message, .. })
            if message.contains("crashed, likely due to a stack overflow or a bug")),
        "{r:?}"
    );
}

/// "Try this" by shape: with other titles (`codeActionPrefix?`), several `rw?` suggestions and
/// an `(expose_names; …)` wrapper, the suggestions are the quickfixes' edits on the tactic line.
#[tokio::test]
async fn try_this_is_read_by_shape_not_title() {
    let s = standin(&[json!({"method": "textDocument/codeAction", "tactics": ["rw?"],
                             "titlePrefix": "Replace with: ",
                             "tryThis": ["rw [Nat.add_comm]", "rw [Nat.add_zero]",
                                         "(expose_names; exact h)"]})])
    .await;
    let mut o = oracle(&s);
    let key = Oracle::<LeanClient>::import_key(&[""]);
    let r = o
        .run(
            &key,
            &[Block {
                goal: "∀ a b : Nat, a + b = b + a".into(),
                path: Vec::new(),
                tactic: "rw?".into(),
                suggestions: true,
                universes: Vec::new(),
            }],
            &[],
            Instant::now() + Duration::from_secs(10),
        )
        .await
        .expect("batch");
    assert_eq!(
        r.0[0].suggestions,
        ["rw [Nat.add_comm]", "rw [Nat.add_zero]", "(expose_names; exact h)"]
    );
}

/// A binder without a type (`{α}`) elaborates to `Sort u_1`: its statement is probed and the
/// shared universe closes the pair by `rfl`, as for `Type*`.
#[tokio::test]
async fn binders_without_types_get_universe_probes() {
    let g0 = "[([∀ {[α] : [Sort u_1]} ([a] : [α]), [[a] = [a]]]) = ([∀ {[β] : [Sort u_1]} ([b] : [β]), [[b] = [b]]])]";
    let s = standin(&shared_universe_closes_by_rfl(g0)).await;
    let j = judge_plain(
        &s,
        "theorem a {α} (a : α) : a = a := by sorry",
        "theorem b {β} (b : β) : b = b := by sorry",
        5,
    )
    .await;
    assert_eq!(j.report.distance, Some(0), "notes: {:?}", j.report.notes);
    assert_eq!(j.work.total.versions, 3);
}

/// Auto-bound implicit names (`(x : α)` with `α` unbound) also elaborate to `Sort u_1`; the
/// text does not show it, the strict declaration does: probed in one more version.
#[tokio::test]
async fn auto_bound_names_get_universe_probes() {
    let g0 = "[([∀ {[α] : [Sort u_1]} ([x] : [α]), [[x] = [x]]]) = ([∀ {[β] : [Sort u_1]} ([y] : [β]), [[y] = [y]]])]";
    let mut rules = vec![json!({"method": "standin/diagnostic", "lineContains": "._strict",
                                "message": "unknown identifier 'α'"})];
    rules.extend(shared_universe_closes_by_rfl(g0));
    let s = standin(&rules).await;
    let j = judge_plain(
        &s,
        "theorem a (x : α) : x = x := by sorry",
        "theorem b (y : β) : y = y := by sorry",
        5,
    )
    .await;
    assert_eq!(j.report.distance, Some(0), "notes: {:?}", j.report.notes);
    // Declaration, the probes of the auto-bound statements, stage 0, the re-check.
    assert_eq!(j.work.total.versions, 4);
}

/// The stand-in answers every method it advertises (a real client shows -32601 as an error)
/// and `Lean.Widget.getInteractiveTermGoal`.
#[tokio::test]
async fn the_standin_answers_what_it_advertises() {
    let s = standin(&[]).await;
    let t = Duration::from_secs(5);
    let uri = "file:///w/A.lean";
    s.client
        .notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "lean4", "version": 1,
                                    "text": "example : True := trivial\n"}}),
        )
        .await
        .expect("open");
    let doc = json!({"textDocument": {"uri": uri}});
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}});
    for (method, params) in [
        ("textDocument/inlayHint", json!({"textDocument": {"uri": uri}, "range": range})),
        ("textDocument/documentSymbol", doc.clone()),
        ("textDocument/foldingRange", doc.clone()),
        ("textDocument/documentColor", doc.clone()),
        (
            "textDocument/documentHighlight",
            json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}),
        ),
        ("textDocument/semanticTokens/full", doc.clone()),
        (
            "textDocument/semanticTokens/range",
            json!({"textDocument": {"uri": uri}, "range": range}),
        ),
    ] {
        let r = s.client.request(method, params, t).await;
        assert!(r.is_ok(), "{method}: {r:?}");
    }
    let session =
        s.client.request("$/lean/rpc/connect", json!({"uri": uri}), t).await.expect("connect");
    let call = json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 18},
                      "sessionId": session["sessionId"], "method": "Lean.Widget.getInteractiveTermGoal",
                      "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 18}}});
    assert_eq!(s.client.request("$/lean/rpc/call", call, t).await, Ok(Value::Null));
}

/// Lean's own failure messages in a block (each shape cited in the stand-in): the heartbeat
/// timeout and `rw?` finding nothing are errors of that block; "stopped because it was running
/// out of time" is information, so a block that closed its goal is still closed.
#[tokio::test]
async fn heartbeat_and_search_failures_are_block_errors() {
    let s = standin(&[
        json!({"method": "standin/diagnostic", "tactics": ["simp"], "messageKind": "heartbeats"}),
        json!({"method": "standin/diagnostic", "tactics": ["rw?"], "messageKind": "rwFailed"}),
        json!({"method": "standin/diagnostic", "tactics": ["exact?"], "messageKind": "ranOutOfTime"}),
        closed_after(&["exact?"]),
        no_other_suggestions(),
    ])
    .await;
    let mut o = oracle(&s);
    let key = Oracle::<LeanClient>::import_key(&[""]);
    let block = |t: &str| Block {
        goal: "∀ a b : Nat, a + b = b + a".into(),
        path: Vec::new(),
        tactic: t.into(),
        suggestions: t.ends_with('?'),
        universes: Vec::new(),
    };
    let (r, _) = o
        .run(
            &key,
            &[block("simp"), block("rw?"), block("exact?")],
            &[],
            Instant::now() + Duration::from_secs(10),
        )
        .await
        .expect("batch");
    assert!(
        matches!(&r[0].outcome, Outcome::Error(m) if m.contains("maximum number of heartbeats")),
        "{:?}",
        r[0]
    );
    assert!(
        matches!(&r[1].outcome, Outcome::Error(m) if m.starts_with("Could not find any lemmas")),
        "{:?}",
        r[1]
    );
    assert!(r[1].suggestions.is_empty());
    assert_eq!(r[2].outcome, Outcome::Closed);
}

/// In a batch a header error is sticky (every later batch on those imports fails at once); the
/// editor instead discards the failed document, and the next batch opens it afresh (a new
/// worker runs `lake setup-file` again).
#[tokio::test]
async fn a_discarded_header_failure_is_opened_afresh() {
    let s = standin(&[json!({"method": "standin/header", "kind": "outOfDate",
                             "textContains": "-- first attempt"})])
    .await;
    let mut o = oracle(&s);
    let key = Oracle::<LeanClient>::import_key(&["import Mathlib\n"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    let first = [lean_assess::lean::oracle::Command::new("-- first attempt")];
    assert!(o.run(&key, &[], &first, deadline).await.is_err());
    // Sticky: the same error at once, even for a batch that would elaborate.
    assert!(o.run(&key, &[], &[], deadline).await.is_err());
    o.discard_failed_headers().await;
    assert!(o.header_failure().is_none());
    o.run(&key, &[], &[], deadline).await.expect("opened afresh after the discard");
}

// ---- Headers with scopes of their own, `open … in`, import-free documents (the stand-in's
// scope model follows src/Lean/Elab/BuiltinCommand.lean, see its module doc).

/// A ProofNet-style header `noncomputable section` / `open Real` on both sides: the check closes
/// the header's section before its own `end`s, so a proof using `thm_P` is proved (it used to
/// fail on the wrapper's `end BEq1`, an error counted against the proof), and the goal sees the
/// header's `open Real`.
#[tokio::test]
async fn a_noncomputable_section_header_keeps_beq_checks_balanced() {
    use lean_assess::lean::beq_checker::OracleProofChecker;
    use lean_assess::metrics::beq::{CheckOutcome, CheckRequest, ProofChecker};
    let s = standin(&[
        json!({"method": "standin/needsOpen", "ident": "sqrt", "namespace": "Real"}),
        json!({"method": "standin/diagnostic", "lineContains": "#print axioms BEq1.thm_Q", "severity": 3,
               "message": "'BEq1.thm_Q' depends on axioms: [propext, sorryAx]"}),
    ])
    .await;
    let header = "import Mathlib\nnoncomputable section\nopen Real\n";
    let checker = OracleProofChecker::new(oracle(&s), Duration::from_secs(10));
    let req = CheckRequest {
        assumed_header: header,
        assumed: "theorem thm_P (x : ℝ) (h : 0 ≤ x) : sqrt x ^ 2 = x := sorry",
        goal_header: header,
        goal: "theorem thm_Q (x : ℝ) (h : x ≥ 0) : sqrt x ^ 2 = x := by",
        proof: "exact thm_P x h",
    };
    assert_eq!(checker.check(req).await, Ok(CheckOutcome::Proved));
}

/// Errors outside the statements' and the proof's own lines are a failure of the check, never
/// a verdict: a header `open` Lean rejects, and a header that closes a scope it did not open.
#[tokio::test]
async fn header_lines_that_fail_are_a_failure_of_the_check() {
    use lean_assess::lean::beq_checker::OracleProofChecker;
    use lean_assess::metrics::beq::{CheckError, CheckRequest, ProofChecker};
    let s = standin(&[
        json!({"method": "standin/diagnostic", "lineContains": "open Nonexistent",
               "message": "unknown namespace 'Nonexistent'"}),
        json!({"method": "standin/diagnostic", "lineContains": "#print axioms", "severity": 3,
               "message": "'thm_Q' depends on axioms: [sorryAx]"}),
    ])
    .await;
    let checker = OracleProofChecker::new(oracle(&s), Duration::from_secs(10));
    for header in ["import Mathlib\nopen Nonexistent\n", "import Mathlib\nend\n"] {
        let req = CheckRequest {
            assumed_header: MATHLIB,
            assumed: "theorem thm_P (x : ℕ) : x = x := sorry",
            goal_header: header,
            goal: "theorem thm_Q (x : ℕ) : x = x := by",
            proof: "exact thm_P x",
        };
        match checker.check(req).await {
            Err(CheckError::Unavailable(m)) => {
                assert!(m.contains("Nonexistent") || m.contains("`end`"), "{header}: {m}")
            }
            other => panic!("{header}: expected a failure of the check, got {other:?}"),
        }
    }
}

/// The registry's sections hold: a header `open Real` / `noncomputable section` does not leak
/// its `open` into the next statement (elaborated without it, `sqrt` is unknown), and a header
/// `namespace` names the hidden axiom inside it.
#[tokio::test]
async fn one_sides_scopes_do_not_leak_into_the_other() {
    let s =
        standin(&[json!({"method": "standin/needsOpen", "ident": "sqrt", "namespace": "Real"})])
            .await;
    let mut o = oracle(&s);
    let deadline = Instant::now() + Duration::from_secs(10);
    let declared = o
        .declare(
            "import Mathlib\n",
            &[
                ("open Real\nnoncomputable section\n", "(x : ℝ) : sqrt x ≥ 0"),
                ("", "(x : ℝ) : sqrt x ≥ 0"),
                ("namespace Foo\n", ": True"),
            ],
            deadline,
        )
        .await
        .expect("declared");
    assert!(declared[0].errors.is_empty(), "{:?}", declared[0].errors);
    assert_eq!(declared[1].errors, ["Unknown identifier `sqrt`"]);
    assert_eq!(declared[2].name, "Foo._tt.S3._stmt");
    assert!(declared[2].errors.is_empty() && !declared[2].autobound);
}

/// A header ending in `open Finset in` reaches the statement and its `autoImplicit false`
/// probe alike: the pair is not taken for auto-bound, and `defeq` can say equal.
#[tokio::test]
async fn a_trailing_open_in_reaches_the_strict_probe() {
    let s = standin(&[
        json!({"method": "standin/needsOpen", "ident": "card", "namespace": "Finset"}),
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["rfl"], "result": {"goals": []}}),
    ])
    .await;
    let header = "import Mathlib\nopen Finset in\n";
    let (j, _o) = judge_texts(
        &s,
        &DefEq::default(),
        header,
        "theorem a (s : Finset ℕ) : card s = card s := by sorry",
        "theorem b (t : Finset ℕ) : card t = card t := by sorry",
    )
    .await;
    let j = j.expect("judged");
    assert!(
        !j.report.notes.iter().any(|n| n.contains("auto-bound")),
        "notes: {:?}",
        j.report.notes
    );
    assert_eq!(j.report.verdict, Verdict::Equivalent(true));
}

/// Without imports, a command's own error at 0:0 is the command's, not a header error, and the
/// next batch on the same (empty) import set still runs.
#[tokio::test]
async fn an_error_at_0_0_without_imports_is_the_commands_own() {
    use lean_assess::lean::oracle::Command as LeanCommand;
    let s = standin(&[json!({"method": "standin/diagnostic", "lineContains": "theorem bad",
                             "message": "type mismatch"})])
    .await;
    let mut o = oracle(&s);
    let deadline = Instant::now() + Duration::from_secs(10);
    let (_, r) = o
        .run("", &[], &[LeanCommand::new("theorem bad : 1 = 2 := rfl")], deadline)
        .await
        .expect("a command error is no header error");
    assert_eq!(r[0].errors, ["type mismatch"]);
    let (_, r) = o
        .run("", &[], &[LeanCommand::new("theorem good : 1 = 1 := rfl")], deadline)
        .await
        .expect("the next batch runs");
    assert!(r[0].errors.is_empty());
}

/// BEq+ on two different true closed facts, scripted as Lean behaves on them: `exact?` finds
/// nothing naming `thm_P`, `assumption` and `apply thm_P` fail, `convert` leaves goals, and the
/// closers prove each goal on their own — so a `have` of `thm_P` would be unused yet still in the
/// proof term (its axioms show `sorryAx`). LeanInteract's BEq+ skips the `have` then: not
/// equivalent.
#[tokio::test]
async fn beq_plus_does_not_join_two_true_closed_facts() {
    use lean_assess::lean::beq_checker::OracleProofChecker;
    use lean_assess::metrics::beq::{AttemptResult, BeqSide};
    use lean_assess::metrics::beq_plus;
    let s = standin(&[
        json!({"method": "textDocument/codeAction", "result": []}),
        json!({"method": "standin/diagnostic", "lineContains": "assumption",
               "message": "tactic 'assumption' failed"}),
        json!({"method": "standin/diagnostic", "lineContains": "apply thm_P",
               "message": "could not unify the conclusion of `thm_P`"}),
        json!({"method": "standin/diagnostic", "lineContains": "theorem thm_Q",
               "textContains": "convert", "message": "unsolved goals"}),
        json!({"method": "standin/diagnostic", "lineContains": "#print axioms",
               "textContains": "have", "messageKind": "axiomsSorry"}),
        json!({"method": "standin/diagnostic", "lineContains": "#print axioms",
               "textLacks": "have", "messageKind": "axiomsNone"}),
    ])
    .await;
    let checker = OracleProofChecker::new(oracle(&s), Duration::from_secs(10));
    let report = beq_plus::judge(
        checker,
        Duration::from_secs(30),
        false,
        BeqSide { header: MATHLIB, declaration: "theorem a : Nat.Prime 7 := by sorry" },
        BeqSide {
            header: MATHLIB,
            declaration: "theorem b : Irrational (Real.sqrt 2) := by sorry",
        },
    )
    .await;
    assert_eq!(report.lean_error(), None);
    assert!(!report.equivalent(), "{report:#?}");
    for d in &report.directions {
        assert!(
            d.attempts
                .iter()
                .any(|a| a.result == AttemptResult::ClosedWithout && !a.proof.contains("thm_P")),
            "{d:#?}"
        );
        assert!(!d.attempts.iter().any(|a| a.proof.contains("have")), "{d:#?}");
    }
}

/// A worker whose header failed and which never answers the barrier (its search path is never
/// resolved): the oracle reads the header error through `getInteractiveDiagnostics` between
/// barrier slices and reports it, instead of waiting out the load bound as "loading".
#[tokio::test]
async fn a_header_error_is_found_while_the_barrier_never_answers() {
    use lean_assess::lean::oracle::OracleError;
    let s = standin(&[
        json!({"method": "standin/header", "kind": "unknownImport", "searchPathBlocks": true}),
    ])
    .await;
    let mut o = Oracle::new(
        s.client.clone(),
        OracleConfig {
            request_timeout: Duration::from_secs(10),
            load_timeout: Duration::from_secs(4),
            barrier_slice: Duration::from_millis(200),
            ..OracleConfig::default()
        },
    );
    let key = Oracle::<LeanClient>::import_key(&["import Broken\n"]);
    let started = Instant::now();
    match o.warm_up(&key, true).await {
        Err(OracleError::Header { message, .. }) => {
            assert!(message.contains("unknown module prefix 'Broken'"), "{message}")
        }
        other => panic!("expected the header error, got {other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
}

/// `rw?` rewrites with its first result and then runs `try rfl` (src/Lean/Elab/Tactic/
/// Rewrites.lean; the stand-in answers an unscripted `rw?` block that way): a `rw?` block that
/// closed is replayed as exactly that. Here the bare `rw [mul_comm]` leaves a goal only `rfl` at
/// default transparency closes (the re-check would say "unsolved goals"); and when the
/// suggestion `rw?` applied names a hidden statement (rejected), the next suggestion is not taken
/// for a closing step — it is searched on as a child.
#[tokio::test]
async fn a_closing_rw_query_is_replayed_with_its_try_rfl() {
    let g0 = "[[[a] * [b]] = [[b] * [a]]]";
    let g1 = "[[[b] * [a]] = [[b] * [a]]]";
    let n = "try norm_num1";
    let rules = |first: &[&str]| {
        vec![
            goal_after(&["skip"], g0),
            goal_after(&[n], g0),
            error_at(&[n, "rfl"], "The rfl tactic failed."),
            suggest_at(&[n, RW], first),
            goal_after(&[n, "rw [mul_comm]"], g1),
            closed_after(&[n, "rw [mul_comm]", "try rfl"]),
            closed_after(&[n, "rw [_tt.S1._stmt]", "try rfl"]),
            no_other_suggestions(),
            axioms_ok(),
        ]
    };
    let reference = statement("theorem a (a b : ℕ) : a * b = b * a := by sorry");
    let candidate = statement("theorem b (a b : ℕ) : a * b = b * a := by sorry");
    let pair = Pair {
        reference: &reference,
        candidate: &candidate,
        reference_header: MATHLIB,
        candidate_header: MATHLIB,
    };
    let s = standin(&rules(&["rw [mul_comm]"])).await;
    let mut o = oracle(&s);
    let j = TransTed::default().judge(&mut o, &pair).await.expect("judged");
    assert_eq!(j.report.distance, Some(0), "notes: {:?}", j.report.notes);
    let rules_used: Vec<&str> = j.report.path.iter().map(|s| s.rule.as_str()).collect();
    assert_eq!(rules_used, [n, "rw [mul_comm]\ntry rfl"]);
    assert!(j.proof.expect("proof").contains("  rw [mul_comm]\n  try rfl\n"));

    let s = standin(&rules(&["rw [_tt.S1._stmt]", "rw [mul_comm]"])).await;
    let mut o = oracle(&s);
    let j = TransTed::default().judge(&mut o, &pair).await.expect("judged");
    assert!(
        !j.report.notes.iter().any(|n| n.contains("rejected by the re-check")),
        "notes: {:?}",
        j.report.notes
    );
    assert!(
        j.report.notes.iter().any(|n| n.contains("mentioning the hidden statements rejected")),
        "notes: {:?}",
        j.report.notes
    );
}

/// `try norm_num1` running out of heartbeats is not caught by `try` (src/Lean/CoreM.lean) and
/// fails every block that replays it: it is one failed step, left out of the paths, and the
/// search goes on from the original goal (here `rfl` closes it).
#[tokio::test]
async fn a_norm_num_out_of_heartbeats_is_one_failed_step() {
    let g0 = "[[[a] * [b]] = [[b] * [a]]]";
    let n = "try norm_num1";
    let s = standin(&[
        goal_after(&["skip"], g0),
        json!({"method": "standin/diagnostic", "tactics": [n], "messageKind": "heartbeats"}),
        closed_after(&["rfl"]),
        no_other_suggestions(),
        axioms_ok(),
    ])
    .await;
    let (j, _o) = transted_closes(
        &s,
        "theorem a (a b : ℕ) : a * b = b * a := by sorry",
        "theorem b (x y : ℕ) : x * y = y * x := by sorry",
    )
    .await;
    let rules_used: Vec<&str> = j.report.path.iter().map(|s| s.rule.as_str()).collect();
    assert_eq!(rules_used, ["rfl"]);
    assert!(
        j.report.notes.iter().any(|n| n.starts_with("norm_num1 failed")),
        "{:?}",
        j.report.notes
    );
}
