//! Metric `transted`: ASSESS Algorithm 1 (Appendix B) through Lean's own server.
//!
//! Owns the search over Lean tactics; asks the oracle (`crate::lean::oracle`) to run them and
//! uses `crate::distance` for the heuristic. Does not parse Lean, hold documents or talk JSON.
//!
//! 1. Both statements are declared as hidden axioms (`_tt.S<k>._stmt`); the merged goal is
//!    `(type_of% @P.{u,…,u}) = (type_of% @Q.{u,…,u})` (design §7.3: `@` keeps implicit and
//!    instance binders in the Props): every universe parameter of both sides is instantiated
//!    with one shared `u` (declared by the blocks' `universe u in`, and as the witness's own
//!    `.{u}`), so a pair differing only in universe names can close. Each side's arity comes
//!    from the oracle's probes in the declaring version, asked for only when the statement's
//!    text mentions `Type`/`Sort`; arity 0 on both sides gives the plain `(type_of% @P) =
//!    (type_of% @Q)`. An unknown arity (a probe failing for another reason) instantiates
//!    nothing and says so in a note. If the goal does not elaborate, Algorithm 1 line 4
//!    applies: plain TED of the pair's source trees, with a note.
//! 2. Stage 0 (one version): `skip` (the original goal: its two sides' sizes normalise the
//!    score), `try norm_num1` (skipped with a note where Mathlib is not imported), then `rfl`.
//!    Either closing gives distance 0.
//! 3. Best-first search over a `crate::search::Frontier` (the ordering, dedup and best-node
//!    bookkeeping `crate::search::best_first` uses too: min-heap on `(TED, depth, evaluation
//!    order)`, duplicate goals dropped by their displayed text), driven by an async loop here
//!    because every expansion awaits Lean. The budget counts expansions. Expanding a node is one
//!    version with a `rw?` block and one block
//!    per Table 1 command; the suggestions `rw?` made (read from its "Try this" code actions)
//!    are evaluated, one block each, in the *next* version, together with the next node's
//!    blocks — so the search sends one document version per expanded node (plus one to flush
//!    the last suggestions). The price: a node's suggestion children join the open list one
//!    expansion late. Only single two-sided goals (`=` / `↔`) are nodes; errors, several goals
//!    and other goals are dropped.
//! 4. Distance 0 when a block closes; else the smallest TED seen when the node budget or the
//!    time limit runs out. Similarity `1 - d / max(|T1|, |T2|)` over the original goal's sides.
//!
//! Guards against proving `P = Q` from P or Q themselves: the hidden names start with `_`
//! (kept out of `rw?`/`exact?` candidates), suggestions mentioning them are rejected, and a
//! closing path is re-checked as a named theorem with `#print axioms`, which must mention
//! neither hidden axiom nor `sorryAx`.
//!
//! Choices (the paper leaves them open): unit-cost TED between the sides' trees as Lean prints
//! them (`crate::lean::goals::tree_of`); named intros `x_<depth>` instead of `intro _` so
//! suggestions can be replayed; a path line with `exact?` is replayed as is (not concretised).

use super::lean_backed::{declaration_texts, JudgementStart, LeanJudgement, LeanMetric, LeanWork};
use super::{Metric, MetricError, MetricReport, Pair, PathStep, Verdict};
use crate::distance::{self, CostModel};
use crate::lean::goals::LeanRpc;
use crate::lean::oracle::{
    check_tactic_text, Block, BlockResult, Command, CounterSnapshot, Declaration, Declared, Goal,
    Oracle, OracleError, Outcome, UniverseArity,
};
use crate::search::Frontier;
use std::time::{Duration, Instant};

/// Limits of one TransTED judgement.
#[derive(Clone, Debug)]
pub struct TransTedConfig {
    /// Most search nodes expanded.
    pub max_expansions: usize,
    /// Wall clock for the whole pair (declaration, stage 0, search, witness check).
    pub time_limit: Duration,
    /// Whether Mathlib tactics (`norm_num1`) may run; `None`: when an import starts with
    /// `Mathlib`.
    pub mathlib: Option<bool>,
}

impl Default for TransTedConfig {
    fn default() -> Self {
        TransTedConfig { max_expansions: 50, time_limit: Duration::from_secs(60), mathlib: None }
    }
}

/// The metric.
#[derive(Clone, Debug, Default)]
pub struct TransTed {
    pub config: TransTedConfig,
}

/// Table 1's commands; `{x}` is replaced by a fresh name per depth.
const TABLE_1: [&str; 7] = [
    "apply congrArg",
    "apply congrFun",
    "apply forall_congr; intro {x}",
    "apply implies_congr; all_goals (try exact?)",
    "ext",
    "rw [propext and_imp]",
    "norm_cast",
];

/// TED between a goal's two sides (`None` when it is not two-sided).
fn side_distance(goal: &Goal) -> Option<u32> {
    let (l, r) = goal.sides.as_ref()?;
    Some(distance::ted(l, r, CostModel::default()))
}

fn lean_failed(e: OracleError) -> MetricError {
    MetricError::Failed(e.to_string())
}

/// Does a suggestion mention a hidden statement (would prove P = Q from P or Q)?
fn mentions_hidden(text: &str) -> bool {
    text.contains("_tt.")
}

/// Could the statement have universe parameters visible in its text? They come from
/// `Sort`/`Type` binders in the signature or in a `variable` of its preamble (`Type*`, `Type u`,
/// `Sort _`, …), or from a binder without a type (`{α}`, `(x y)`, `∀ a, …`), which elaborates to
/// `Sort u_1`. Auto-bound implicit names (which also elaborate to `Sort u_1`) are not visible in
/// the text: the strict declaration tells them apart and `declare_pair` probes them in a second
/// version. Only these pay for the arity probes; the common pair (`ℝ`, `ℕ`, …) sends none.
fn may_have_universes(preamble: &str, signature: &str) -> bool {
    [preamble, signature].iter().any(|t| t.contains("Type") || t.contains("Sort"))
        || has_untyped_binder(signature)
        || preamble
            .lines()
            .filter_map(|l| l.trim().strip_prefix("variable"))
            .any(has_untyped_binder)
}

/// Does `text` bind a name without a type: a bracketed binder group (`(…)`, `{…}`, `⦃…⦄`,
/// `{{…}}`) with no top-level `:` (`{α}`, `(x y)`), or `∀`/`∃`/`fun`/`λ` binder names ending
/// at `,` / `=>` without a `:` (`∀ a b, …`)? Set-builder and structure-instance braces
/// (`{x | …}`, `{ x := … }`) and instance binders (`[…]`, always typed) are not binders here.
fn has_untyped_binder(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    // Bracketed groups at any depth: their contents up to the matching closer.
    for (i, &c) in chars.iter().enumerate() {
        let close = match c {
            '(' => ')',
            '{' => '}',
            '⦃' => '⦄',
            _ => continue,
        };
        let mut depth = 0i32;
        let mut end = None;
        for (j, &d) in chars.iter().enumerate().skip(i) {
            if d == c {
                depth += 1;
            } else if d == close {
                depth -= 1;
                if depth == 0 {
                    end = Some(j);
                    break;
                }
            }
        }
        let Some(end) = end else { continue };
        let inner: String = chars[i + 1..end].iter().collect();
        let inner = inner.trim().trim_start_matches('{').trim_end_matches('}').trim();
        // Only a group of plain names is a binder group (`(a + b)` or `(f x)` are terms; a
        // lone `(x)` is a term too, but a lone `{x}` is a binder).
        let names: Vec<&str> = inner.split_whitespace().collect();
        let all_names = !names.is_empty()
            && names.iter().all(|n| {
                n.chars().next().is_some_and(|f| f.is_alphabetic() || f == '_')
                    && n.chars().all(|x| x.is_alphanumeric() || "_'!?₀₁₂₃₄₅₆₇₈₉".contains(x))
            });
        let binder_like = match c {
            '(' => names.len() >= 2,
            _ => true,
        };
        if all_names && binder_like && !inner.contains(':') {
            return true;
        }
    }
    // `∀ a b, …` / `∃ x, …` / `fun x => …`: the names before `,`/`=>` without `:`.
    for kw in ["∀", "∃", "Π", "fun ", "λ"] {
        let mut rest = text;
        while let Some(at) = rest.find(kw) {
            rest = &rest[at + kw.len()..];
            let head_end = [rest.find(','), rest.find("=>"), rest.find('↦')]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(rest.len());
            let head = rest[..head_end].trim();
            if !head.is_empty()
                && !head.contains(':')
                && !head.contains('(')
                && !head.contains('{')
                && !head.contains('⦃')
                && !head.contains('[')
            {
                return true;
            }
        }
    }
    false
}

/// The merged goal `P = Q` (design §7.3) and what it needs.
#[derive(Debug, PartialEq)]
struct MergedGoal {
    /// `(type_of% @P.{u, …}) = (type_of% @Q.{u, …})` (no `.{…}` for a side of arity 0).
    goal: String,
    /// `["u"]` when a side is instantiated, else empty.
    universes: Vec<String>,
    /// What was done with universe parameters, for the report.
    note: Option<String>,
}

/// `.{u, …, u}` with `arity` levels (nothing for 0).
fn level_args(arity: usize) -> String {
    if arity == 0 {
        String::new()
    } else {
        format!(".{{{}}}", vec![SHARED_LEVEL; arity].join(", "))
    }
}

/// The declaration's own `.{u}` when the goal uses the shared level (an explicitly declared but
/// unused universe parameter is rejected, design §7.3).
fn level_params(universes: &[String]) -> String {
    if universes.is_empty() {
        String::new()
    } else {
        format!(".{{{}}}", universes.join(", "))
    }
}

/// The one universe level every universe parameter of both sides is instantiated with.
const SHARED_LEVEL: &str = "u";

/// Instantiate every universe parameter of both sides with one shared `u` (design §7.3, §8):
/// otherwise each side's become their own `u_1`, `u_2` and no tactic closes `P = Q`. When an
/// arity is unknown, nothing is instantiated and the note says so.
fn merged_goal(p: &Declared, q: &Declared) -> MergedGoal {
    let plain = format!("(type_of% @{}) = (type_of% @{})", p.name, q.name);
    let arity = |d: &Declared| match &d.universes {
        UniverseArity::NotProbed => Ok(0),
        UniverseArity::Known(n) => Ok(*n),
        UniverseArity::Unknown(why) => Err(why.clone()),
    };
    match (arity(p), arity(q)) {
        (Ok(0), Ok(0)) => MergedGoal {
            goal: plain,
            universes: Vec::new(),
            note: None,
        },
        (Ok(a), Ok(b)) => MergedGoal {
            goal: format!(
                "(type_of% @{}{}) = (type_of% @{}{})",
                p.name,
                level_args(a),
                q.name,
                level_args(b)
            ),
            universes: vec![SHARED_LEVEL.to_string()],
            note: Some(format!(
                "universe parameters unified: reference {a}, candidate {b}, all instantiated with one shared `{SHARED_LEVEL}`"
            )),
        },
        (pa, qa) => {
            let why: Vec<String> = [("reference", pa), ("candidate", qa)]
                .into_iter()
                .filter_map(|(side, a)| a.err().map(|w| format!("{side}: {w}")))
                .collect();
            MergedGoal {
                goal: plain,
                universes: Vec::new(),
                note: Some(format!(
                    "universe parameters are not unified across the two sides (arity unknown; {})",
                    why.join("; ")
                )),
            }
        }
    }
}

/// The standalone proof text (design §7.9).
fn witness(
    imports: &str,
    decls: &[(String, String, String)],
    universes: &[String],
    goal: &str,
    path: &[String],
    remaining: Option<&str>,
) -> String {
    let mut out = imports.to_string();
    for (pre, name, sig) in decls {
        out.push_str(&crate::lean::scopes::axiom_under(pre, name, sig));
    }
    out.push_str(&format!("theorem transted_witness{} : {goal} := by\n", level_params(universes)));
    for p in path {
        for line in p.lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    if let Some(goal) = remaining {
        out.push_str(&format!("  -- remaining goal: {goal}\n  sorry\n"));
    }
    out.push_str("#print axioms transted_witness\n");
    out
}

/// One judgement's line to Lean: the oracle, the pair's scratch document (its import key) and
/// the pair's deadline.
struct Session<'a, L: LeanRpc> {
    oracle: &'a mut Oracle<L>,
    key: &'a str,
    deadline: Instant,
}

/// The two statements as declared for the pair, with what the witness needs to redeclare them.
struct DeclaredPair {
    reference: Declared,
    candidate: Declared,
    /// `(preamble, hidden name, signature)` of each side, for the witness.
    decls: Vec<(String, String, String)>,
}

/// What stage 0 leaves for the search.
struct StageZero {
    /// The merged goal as Lean shows it.
    original: Goal,
    /// Sizes of its two sides (the score's normaliser).
    sizes: (usize, usize),
    /// TED between its two sides.
    distance: u32,
    /// `["try norm_num1"]` when it ran and did not fail, else empty: the start of every path.
    norm: Vec<String>,
    /// The goal after `norm_num1` when it left one, else the original.
    root: Goal,
    /// A closing path found by stage 0.
    closed: Option<Vec<String>>,
}

/// How the search ended.
#[derive(Default)]
struct SearchEnd {
    closed: Option<Vec<String>>,
    /// `rw?` suggestions mentioning the hidden statements.
    rejected: usize,
    /// `rw?` suggestions whose text could not be replayed in a block.
    unreplayable: usize,
    out_of_time: bool,
}

impl MergedGoal {
    /// A block trying `tactic` on this goal after `path`.
    fn block(&self, path: &[String], tactic: &str, suggestions: bool) -> Block {
        Block {
            goal: self.goal.clone(),
            path: path.to_vec(),
            tactic: tactic.to_string(),
            suggestions,
            universes: self.universes.clone(),
        }
    }
}

/// Declares both statements as hidden axioms and decides their universe arities: probed in the
/// declaring version when the text may have universe parameters, in one more version for
/// statements that typecheck only with auto-bound implicit names (which elaborate to `Sort u_1`
/// but do not show in the text). Notes the sides that need auto-bound implicits.
async fn declare_pair<L: LeanRpc + 'static>(
    lean: &mut Session<'_, L>,
    pair: &Pair<'_>,
    notes: &mut Vec<String>,
) -> Result<DeclaredPair, MetricError> {
    let [(ref_pre, ref_sig), (cand_pre, cand_sig)] = declaration_texts("transted", pair)?;
    let mut declared = lean
        .oracle
        .declare_probing(
            lean.key,
            &[
                Declaration {
                    preamble: &ref_pre,
                    signature: &ref_sig,
                    probe_universes: may_have_universes(&ref_pre, &ref_sig),
                },
                Declaration {
                    preamble: &cand_pre,
                    signature: &cand_sig,
                    probe_universes: may_have_universes(&cand_pre, &cand_sig),
                },
            ],
            lean.deadline,
        )
        .await
        .map_err(lean_failed)?;
    let unprobed: Vec<usize> = (0..declared.len())
        .filter(|&i| declared[i].autobound && declared[i].universes == UniverseArity::NotProbed)
        .collect();
    if !unprobed.is_empty() {
        let names: Vec<String> = unprobed.iter().map(|&i| declared[i].name.clone()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let arities = lean
            .oracle
            .probe_universes(lean.key, &names, lean.deadline)
            .await
            .map_err(lean_failed)?;
        for (i, arity) in unprobed.into_iter().zip(arities) {
            declared[i].universes = arity;
        }
    }
    let [p, q] = <[Declared; 2]>::try_from(declared).map_err(|_| {
        MetricError::Failed("transted: the oracle did not declare both statements".into())
    })?;
    for (side, d) in [("reference", &p), ("candidate", &q)] {
        if d.autobound {
            notes.push(format!(
                "{side} typechecks only with auto-bound implicit names (ASSESS C.3)"
            ));
        }
    }
    let decls = vec![(ref_pre, p.name.clone(), ref_sig), (cand_pre, q.name.clone(), cand_sig)];
    Ok(DeclaredPair { reference: p, candidate: q, decls })
}

/// Algorithm 1 line 4: the merged goal does not compile, so the pair is judged by plain TED of
/// its source trees, `why` noted after the notes so far.
fn plain_ted_fallback(
    pair: &Pair<'_>,
    mut notes: Vec<String>,
    why: String,
    start: Instant,
    total: CounterSnapshot,
) -> Result<LeanJudgement, MetricError> {
    let mut r = super::ted::Ted::default().judge(pair)?;
    notes.push(why);
    notes.append(&mut r.notes);
    r.metric = "transted";
    r.notes = notes;
    r.elapsed = start.elapsed();
    Ok(LeanJudgement {
        report: r,
        proof: None,
        work: LeanWork { expanded: 0, total, search: Default::default() },
    })
}

/// Stage 0 (one version, two when `norm_num1` fails): whether the merged goal elaborates as an
/// equality (`skip`; else `Err` with the reason for plain TED), whether `try norm_num1` or `rfl`
/// closes it, and the search's root: the goal after `norm_num1`, or the original goal.
async fn stage_zero<L: LeanRpc + 'static>(
    lean: &mut Session<'_, L>,
    merged: &MergedGoal,
    mathlib: bool,
    notes: &mut Vec<String>,
) -> Result<Result<StageZero, String>, MetricError> {
    let mut norm: Vec<String> = if mathlib {
        vec!["try norm_num1".into()]
    } else {
        notes.push("Mathlib not imported: norm_num1 skipped".into());
        Vec::new()
    };
    let mut stage0 = vec![merged.block(&[], "skip", false)];
    if mathlib {
        stage0.push(merged.block(&[], "try norm_num1", false));
    }
    stage0.push(merged.block(&norm, "rfl", false));
    let (r0, _) =
        lean.oracle.run(lean.key, &stage0, &[], lean.deadline).await.map_err(lean_failed)?;
    let original = match &r0[0].outcome {
        Outcome::Open(g) => g.clone(),
        Outcome::Error(e) => {
            return Ok(Err(format!("the merged goal does not elaborate ({e}); plain TED")))
        }
        other => return Ok(Err(format!("the merged goal gave {other:?}; plain TED"))),
    };
    let (sizes, distance) = match (&original.sides, side_distance(&original)) {
        (Some((l, r)), Some(d)) => ((l.size(), r.size()), d),
        _ => return Ok(Err("the merged goal is not an equality; plain TED".into())),
    };
    let mut after_norm = if mathlib { &r0[1].outcome } else { &r0[0].outcome };
    let mut rfl = r0[r0.len() - 1].outcome.clone();
    // `try` does not catch running out of heartbeats or recursion depth (`Core.tryCatch`
    // rethrows runtime exceptions, src/Lean/CoreM.lean), and a block's heartbeats cover its
    // whole path: a `norm_num1` that failed so would fail every block replaying it. Such a
    // step is one failed step: left out of every path, and `rfl` tried without it.
    if let (true, Outcome::Error(e)) = (mathlib, after_norm) {
        notes.push(format!(
            "norm_num1 failed ({}); left out of the search's paths",
            e.lines().next().unwrap_or("")
        ));
        norm.clear();
        after_norm = &r0[0].outcome;
        let (r, _) = lean
            .oracle
            .run(lean.key, &[merged.block(&[], "rfl", false)], &[], lean.deadline)
            .await
            .map_err(lean_failed)?;
        rfl = r.first().map_or(Outcome::NoInfo, |r| r.outcome.clone());
    }
    let mut closed: Option<Vec<String>> = None;
    if matches!(after_norm, Outcome::Closed) {
        closed = Some(norm.clone());
    } else if matches!(rfl, Outcome::Closed) {
        let mut p = norm.clone();
        p.push("rfl".into());
        closed = Some(p);
    }
    let root = match after_norm {
        Outcome::Open(g) => g.clone(),
        _ => original.clone(),
    };
    Ok(Ok(StageZero { original, sizes, distance, norm, root, closed }))
}

/// The `rw?` suggestions a node's children may come from: not mentioning the hidden statements
/// (counted in `rejected`), and replayable in a block (counted in `unreplayable`; dropped, not
/// fatal).
fn usable_suggestions(rw: &BlockResult, end: &mut SearchEnd) -> Vec<String> {
    rw.suggestions
        .iter()
        .filter(|s| {
            let bad = mentions_hidden(s);
            end.rejected += usize::from(bad);
            let unsafe_text = check_tactic_text(s).is_err();
            end.unreplayable += usize::from(unsafe_text);
            !bad && !unsafe_text
        })
        .cloned()
        .collect()
}

impl TransTed {
    /// The best-first search from the frontier's root (step 3 of the module doc): one version
    /// per expanded node, a node's `rw?` suggestions evaluated in the next one. Decides whether
    /// a path closes the goal, within the node budget and the deadline; notes why it stopped
    /// when the budget or the open list ran out.
    async fn search<L: LeanRpc + 'static>(
        &self,
        lean: &mut Session<'_, L>,
        merged: &MergedGoal,
        hidden: (&str, &str),
        norm: &[String],
        frontier: &mut Frontier<String, String>,
        notes: &mut Vec<String>,
    ) -> Result<SearchEnd, MetricError> {
        let mut end = SearchEnd::default();
        let forbidden = format!("rw? [-{}, -{}]", hidden.0, hidden.1);
        let path_of = |f: &Frontier<String, String>, at: usize| -> Vec<String> {
            [norm.to_vec(), f.path_to(at)].concat()
        };
        // `rw?` suggestions of the last expanded node (its index and path), evaluated in the
        // next version together with the next node's blocks (one version per expanded node).
        let mut deferred: Option<(usize, Vec<String>, Vec<String>)> = None;
        'search: loop {
            if Instant::now() >= lean.deadline {
                end.out_of_time = true;
                break;
            }
            let next = if frontier.expanded() < self.config.max_expansions {
                frontier.pop()
            } else {
                None
            };
            if next.is_none() && deferred.is_none() {
                break;
            }
            let mut round = Vec::new();
            let mut expanding: Option<(usize, Vec<String>, Vec<String>)> = None;
            if let Some(at) = next {
                let path = path_of(frontier, at);
                let fixed: Vec<String> = TABLE_1
                    .iter()
                    .map(|c| c.replace("{x}", &format!("x_{}", frontier.depth(at) + 1)))
                    .collect();
                round.push(merged.block(&path, &forbidden, true));
                round.extend(fixed.iter().map(|c| merged.block(&path, c, false)));
                expanding = Some((at, path, fixed));
            }
            let a_len = round.len();
            let earlier = deferred.take();
            if let Some((_, path, suggestions)) = &earlier {
                round.extend(suggestions.iter().map(|s| merged.block(path, s, false)));
            }
            let results = match lean.oracle.run(lean.key, &round, &[], lean.deadline).await {
                Ok((r, _)) => r,
                Err(OracleError::Deadline { .. }) => {
                    end.out_of_time = true;
                    break;
                }
                Err(e) => return Err(lean_failed(e)),
            };
            // (parent node, tactic, outcome): the earlier node's suggestions first (they were
            // found first), then this node's commands.
            let mut children: Vec<(usize, String, Outcome)> = Vec::new();
            if let Some((parent, _, suggestions)) = &earlier {
                for (s, r) in suggestions.iter().zip(results.iter().skip(a_len)) {
                    children.push((*parent, s.clone(), r.outcome.clone()));
                }
            }
            if let Some((at, path, fixed)) = expanding {
                let rw = results.first().ok_or_else(|| {
                    MetricError::Failed("transted: the oracle returned no results".into())
                })?;
                let suggestions = usable_suggestions(rw, &mut end);
                // `rw?` rewrites with its first result, then runs `try rfl` (at default
                // transparency), and lists the results as suggestions in the same order
                // (`evalExact`, src/Lean/Elab/Tactic/Rewrites.lean). If that closed the goal,
                // the closing step is exactly that: Lean's first suggestion (not the first
                // one our filter kept) and `try rfl` — a bare `rw` only tries `rfl` with
                // reducible transparency. A first suggestion we could not keep closes
                // nothing.
                if let (Outcome::Closed, Some(applied)) = (&rw.outcome, rw.suggestions.first()) {
                    if suggestions.first() == Some(applied) {
                        children.push((at, format!("{applied}\ntry rfl"), Outcome::Closed));
                    }
                }
                for (c, r) in fixed.iter().zip(results.iter().skip(1).take(a_len - 1)) {
                    children.push((at, c.clone(), r.outcome.clone()));
                }
                if !suggestions.is_empty() {
                    deferred = Some((at, path, suggestions));
                }
            }
            for (parent, tactic, outcome) in children {
                match outcome {
                    Outcome::Closed => {
                        let mut p = path_of(frontier, parent);
                        p.push(tactic);
                        end.closed = Some(p);
                        break 'search;
                    }
                    Outcome::Open(g) => {
                        if frontier.contains(&g.text) {
                            continue;
                        }
                        let Some(d) = side_distance(&g) else { continue };
                        frontier.push(parent, tactic, g.text, d);
                    }
                    Outcome::Error(_) | Outcome::Several(_) | Outcome::NoInfo => {}
                }
            }
        }
        let expanded = frontier.expanded();
        if end.closed.is_none()
            && !end.out_of_time
            && expanded >= self.config.max_expansions
            && frontier.open_len() > 0
        {
            notes.push(format!("node budget ({}) spent", self.config.max_expansions));
        }
        if end.closed.is_none()
            && !end.out_of_time
            && frontier.open_len() == 0
            && expanded < self.config.max_expansions
        {
            notes.push(format!(
                "search exhausted after {expanded} expansion(s): no further single two-sided goal"
            ));
        }
        Ok(end)
    }
}

/// The best goal seen as `(distance, path, goal text)`: the search's, unless `norm_num1` made
/// the root worse than the original goal and nothing beat the original.
fn best_seen(
    frontier: &Frontier<String, String>,
    stage0: &StageZero,
    root_distance: u32,
) -> (u32, Vec<String>, String) {
    let (best_distance, best_at) = frontier.best();
    if root_distance <= stage0.distance || best_distance < stage0.distance {
        (
            best_distance,
            [stage0.norm.clone(), frontier.path_to(best_at)].concat(),
            frontier.state(best_at).clone(),
        )
    } else {
        (stage0.distance, Vec::new(), stage0.original.text.clone())
    }
}

/// Re-checks a closing path on its own (design §7.9): as a named theorem with `#print axioms`,
/// which must mention neither hidden axiom nor `sorryAx`. Decides whether the path stands
/// (`Some`); a rejection or running out of time is noted.
async fn recheck_closing_path<L: LeanRpc + 'static>(
    lean: &mut Session<'_, L>,
    merged: &MergedGoal,
    path: Vec<String>,
    name: String,
    notes: &mut Vec<String>,
) -> Result<Option<Vec<String>>, MetricError> {
    let mut text =
        format!("theorem {name}{} : {} := by\n", level_params(&merged.universes), merged.goal);
    for line in &path {
        for l in line.lines() {
            text.push_str(&format!("  {l}\n"));
        }
    }
    let check = vec![Command::new(text), Command::new(format!("#print axioms {name}"))];
    match lean.oracle.run(lean.key, &[], &check, lean.deadline).await {
        Ok((_, c)) => {
            let errors: Vec<&String> = c.iter().flat_map(|r| &r.errors).collect();
            let axioms = c
                .get(1)
                .map(|r| r.messages.iter().map(|m| m.1.clone()).collect::<Vec<_>>().join("\n"))
                .unwrap_or_default();
            let cheats = axioms.contains("_tt.S") || axioms.contains("sorryAx");
            if errors.is_empty() && !cheats {
                return Ok(Some(path));
            }
            notes.push(format!(
                "a closing path was rejected by the re-check ({})",
                if cheats {
                    format!("axioms: {axioms}")
                } else {
                    errors.first().map(|e| e.to_string()).unwrap_or_default()
                }
            ));
            Ok(None)
        }
        Err(OracleError::Deadline { .. }) => {
            notes.push("time ran out before the closing path was re-checked".into());
            Ok(None)
        }
        Err(e) => Err(lean_failed(e)),
    }
}

impl LeanMetric for TransTed {
    fn name(&self) -> &'static str {
        "transted"
    }

    async fn judge<L: LeanRpc + 'static>(
        &self,
        oracle: &mut Oracle<L>,
        pair: &Pair<'_>,
    ) -> Result<LeanJudgement, MetricError> {
        let judging = JudgementStart::now(oracle, pair, self.config.time_limit);
        let (start, key, counters) = (judging.start, &judging.key, &judging.counters);
        let mathlib = self
            .config
            .mathlib
            .unwrap_or_else(|| key.lines().any(|l| l.starts_with("import Mathlib")));
        let mut notes = Vec::new();
        let mut lean = Session { oracle, key, deadline: judging.deadline };

        let declared = declare_pair(&mut lean, pair, &mut notes).await?;
        let (p, q) = (&declared.reference, &declared.candidate);
        let merged = merged_goal(p, q);
        notes.extend(merged.note.clone());
        if let Some(e) = p.errors.first().or(q.errors.first()) {
            let why = format!("a statement does not typecheck ({e}); plain TED");
            let total = judging.work_so_far();
            return plain_ted_fallback(pair, notes, why, start, total);
        }
        let stage0 = match stage_zero(&mut lean, &merged, mathlib, &mut notes).await? {
            Ok(stage0) => stage0,
            Err(why) => {
                let total = judging.work_so_far();
                return plain_ted_fallback(pair, notes, why, start, total);
            }
        };

        let search_before = counters.snapshot();
        // The root: the goal after `norm_num1` (its path), or the original goal without it.
        let root_distance = side_distance(&stage0.root).unwrap_or(stage0.distance);
        let mut frontier: Frontier<String, String> =
            Frontier::new(stage0.root.text.clone(), root_distance);
        let mut end = SearchEnd { closed: stage0.closed.clone(), ..SearchEnd::default() };
        if end.closed.is_none() {
            end = self
                .search(
                    &mut lean,
                    &merged,
                    (&p.name, &q.name),
                    &stage0.norm,
                    &mut frontier,
                    &mut notes,
                )
                .await?;
        }
        let expanded = frontier.expanded();
        let best = best_seen(&frontier, &stage0, root_distance);
        let search_after = counters.snapshot();
        if end.unreplayable > 0 {
            notes.push(format!(
                "{} rw? suggestion(s) dropped: their text could not be replayed safely in a block",
                end.unreplayable
            ));
        }
        if end.rejected > 0 {
            notes.push(format!(
                "{} rw? suggestion(s) mentioning the hidden statements rejected",
                end.rejected
            ));
        }

        let mut closed = None;
        if let Some(path) = end.closed.take() {
            let name = format!("_tt.W{}", counters.snapshot().versions);
            closed = recheck_closing_path(&mut lean, &merged, path, name, &mut notes).await?;
        }
        if end.out_of_time {
            notes.push(format!(
                "time limit ({:?}) reached after {expanded} expansion(s)",
                self.config.time_limit
            ));
        }

        let (distance, path, remaining) = match closed {
            Some(p) => {
                notes.push("the goal closed: the statements are equal as propositions".into());
                (0, p, None)
            }
            None => (best.0, best.1, Some(best.2)),
        };
        let steps = path
            .iter()
            .map(|t| PathStep { rule: t.clone(), side: "goal".into(), at: String::new() })
            .collect();
        let proof = witness(
            key,
            &declared.decls,
            &merged.universes,
            &merged.goal,
            &path,
            remaining.as_deref(),
        );
        let (sizes, now) = (stage0.sizes, counters.snapshot());
        Ok(LeanJudgement {
            report: MetricReport {
                metric: "transted",
                verdict: Verdict::Score(distance::similarity(distance, sizes.0, sizes.1)),
                distance: Some(distance),
                reference_size: sizes.0,
                candidate_size: sizes.1,
                path: steps,
                notes,
                elapsed: start.elapsed(),
            },
            proof: Some(proof),
            work: LeanWork {
                expanded,
                total: now.since(&judging.before),
                search: search_after.since(&search_before),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(name: &str, universes: UniverseArity) -> Declared {
        Declared { name: name.into(), errors: Vec::new(), autobound: false, universes }
    }

    #[test]
    fn only_statements_mentioning_sorts_are_probed() {
        assert!(!may_have_universes("open Real\n", "(x : ℝ) (h : 0 < x) : 1 ≤ x"));
        assert!(may_have_universes("", "{α : Type*} (s : Set α) : s ⊆ s"));
        assert!(may_have_universes("variable {G : Type u}\n", "(g : G) : g = g"));
        assert!(may_have_universes("", "(p : Sort _) : p = p"));
    }

    #[test]
    fn binders_without_types_are_probed() {
        assert!(may_have_universes("", "{α} (a : α) : a = a"));
        assert!(may_have_universes("", "⦃α β⦄ (f : α → β) : f = f"));
        assert!(may_have_universes("", "{{α}} (a : α) : a = a"));
        assert!(may_have_universes("", "(x y) : x = y"));
        assert!(may_have_universes("", ": ∀ a b, a = b → b = a"));
        assert!(may_have_universes("variable {G}\n", "(g : G) : g = g"));
        // Typed binders, terms in parentheses, set-builder braces: nothing to probe.
        assert!(!may_have_universes(
            "",
            "(x y : ℝ) (h : 0 < (x)) : {z : ℝ | z < x} ⊆ {z | z < x + (y * y)}"
        ));
        assert!(!may_have_universes("", ": ∀ (n : ℕ), ∃ m : ℕ, n < m"));
        assert!(!may_have_universes("", "(f : ℕ → ℕ) (h : f (2) = 3) : f 2 = 3"));
    }

    #[test]
    fn merged_goal_instantiates_each_side_with_its_arity() {
        let (p, q) = ("_tt.S1._stmt", "_tt.S2._stmt");
        let g = merged_goal(
            &declared(p, UniverseArity::NotProbed),
            &declared(q, UniverseArity::Known(0)),
        );
        assert_eq!(
            (g.goal.as_str(), g.universes.len(), g.note),
            ("(type_of% @_tt.S1._stmt) = (type_of% @_tt.S2._stmt)", 0, None)
        );
        let g = merged_goal(
            &declared(p, UniverseArity::Known(3)),
            &declared(q, UniverseArity::NotProbed),
        );
        assert_eq!(g.goal, "(type_of% @_tt.S1._stmt.{u, u, u}) = (type_of% @_tt.S2._stmt)");
        assert_eq!(g.universes, ["u"]);
        let g = merged_goal(
            &declared(p, UniverseArity::Known(1)),
            &declared(q, UniverseArity::Unknown("why".into())),
        );
        assert!(g.universes.is_empty());
        assert!(g.note.is_some_and(|n| n.ends_with("(arity unknown; candidate: why)")));
    }
}
