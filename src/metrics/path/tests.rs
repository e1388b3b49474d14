//! Tests of metric `path` on hand-built trees (with hand-computed values) and on GTED's trees.

use super::*;
use crate::trees::Tree;
use proptest::prelude::*;

/// Node similarity 1 for equal labels, 0 otherwise: makes the paper's equations checkable by hand.
#[derive(Debug)]
struct ExactLabels;

impl NodeSimilarity for ExactLabels {
    fn similarity(&self, a: &TermNode<'_>, b: &TermNode<'_>) -> f64 {
        f64::from(u8::from(a.label == b.label))
    }
}

pub(super) fn leaf(l: &str) -> Tree {
    Tree::leaf(l)
}
pub(super) fn var(l: &str) -> Tree {
    Tree::bound_variable(l)
}
pub(super) fn hyp(l: &str) -> Tree {
    Tree::hypothesis(l)
}
pub(super) fn n(l: &str, c: Vec<Tree>) -> Tree {
    Tree::node(l, c)
}
fn and(a: Tree, b: Tree) -> Tree {
    n(" _ ∧ _ ", vec![a, b])
}
fn or(a: Tree, b: Tree) -> Tree {
    n(" _ ∨ _ ", vec![a, b])
}
pub(super) fn theorem(binders: Vec<Tree>, concl: Tree) -> Tree {
    let label = format!("{}: _ ", " _ ".repeat(binders.len()));
    let mut kids = binders;
    kids.push(concl);
    n("theorem", vec![n(&label, kids)])
}
fn binder(name: Tree, ty: Tree) -> Tree {
    n(" _ : _ ", vec![name, ty])
}
fn exact() -> PathSim {
    PathSim::default().with_node_similarity(Arc::new(ExactLabels))
}
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn length_difference_divides_by_the_harmonic_sum() {
    // [P, a] vs [P, g, a]: X = 2, Y = 2, H(2) = 1.5; level sims 1 and 0 → 1 / (2 · 1.5).
    let a = n("P", vec![leaf("a")]);
    let b = n("P", vec![n("g", vec![leaf("a")])]);
    let s = exact().similarity(&a, &b);
    assert!(close(s, 1.0 / 3.0), "{s}");
}

#[test]
fn node_similarity_is_penalised_by_alpha_over_x() {
    // [f, a] vs [f, b] with the lexical similarity: root = 0.5·1 + 0.5·Dice({f,a},{f,b}) = 0.75,
    // leaf 0; PenNodeSim = 0.75^(1 + 5/2); PathSim = that / (2 · H(1)).
    let a = n("f", vec![leaf("a")]);
    let b = n("f", vec![leaf("b")]);
    let s = PathSim::default().similarity(&a, &b);
    assert!(close(s, 0.75f64.powf(3.5) / 2.0), "{s}");
}

#[test]
fn reused_best_match_is_divided_by_its_reuse() {
    // T1 paths [P, x], [P, x]; T2 path [P, x]. T1→T2: both pick the one path, reused twice:
    // (1/2 + 1/2) / 2 = 0.5. T2→T1: 1. Sim = min = 0.5.
    let a = n("P", vec![leaf("x"), leaf("x")]);
    let b = n("P", vec![leaf("x")]);
    let cmp = exact().compare(&a, &b).comparison;
    assert!(close(cmp.forward, 0.5) && close(cmp.backward, 1.0), "{cmp:?}");
    assert!(close(cmp.similarity, 0.5));
}

#[test]
fn unmatched_and_groups_count_point_two() {
    // A 1-group tree with itself under ExactLabels: the paired ANDs give 1.
    let t = theorem(vec![], and(leaf("A"), leaf("B")));
    let cmp = exact().compare(&t, &t).comparison;
    assert!(close(cmp.similarity, 1.0));
    assert_eq!(cmp.matching, vec![(1, 1)]);
    // A 2-group tree against a 1-group tree: group 2's paths [and2, C] can only meet [and1, ..]
    // unpaired: 0.2^(1 + 5/2) + 0 at level 2 ... checked through the forward value below.
    let u = theorem(vec![], or(and(leaf("A"), leaf("B")), and(leaf("C"), leaf("D"))));
    let cmp = exact().compare(&u, &t).comparison;
    // u→t: A, B match exactly (1 each); C, D best match: and-level 0.2^3.5 / 2 (reused twice
    // with each other? they tie on both paths of t; tie-break spreads them: one each) .
    let unpaired = 0.2f64.powf(3.5) / 2.0;
    // A→[and1,A] (1), B→[and1,B] (1), C→ tie → least used; D likewise; each t path used twice.
    let forward = (1.0 / 2.0 + 1.0 / 2.0 + unpaired / 2.0 + unpaired / 2.0) / 4.0;
    assert!(close(cmp.forward, forward), "{} vs {forward}", cmp.forward);
    assert!(close(cmp.backward, 1.0));
}

#[test]
fn identical_statements_score_one() {
    let t = theorem(
        vec![
            binder(var("x"), leaf("ℝ")),
            binder(hyp("h₀"), n(" _ < _ ", vec![leaf("0"), var("x")])),
        ],
        n(" _ = _ ", vec![n(" _ * _ ", vec![var("x"), var("x")]), leaf("4")]),
    );
    assert!(close(PathSim::default().similarity(&t, &t), 1.0));
}

#[test]
fn reordered_hypotheses_and_conjuncts_score_one() {
    let h1 = binder(hyp("h₀"), n(" _ < _ ", vec![leaf("0"), var("x")]));
    let h2 = binder(hyp("h₁"), n(" _ = _ ", vec![var("y"), leaf("2")]));
    let c1 = n(" _ = _ ", vec![var("x"), leaf("1")]);
    let c2 = n("Even _ ", vec![var("y")]);
    let a = theorem(vec![h1.clone(), h2.clone()], and(c1.clone(), c2.clone()));
    let b = theorem(vec![h2, h1], and(c2, c1));
    assert!(close(PathSim::default().similarity(&a, &b), 1.0));
}

#[test]
fn swapped_disjuncts_of_conjunctions_score_one_through_and_matching() {
    let (a, b, c, d) = (leaf("A"), leaf("B"), leaf("C"), leaf("D"));
    let x = theorem(vec![], or(and(a.clone(), b.clone()), and(c.clone(), d.clone())));
    let y = theorem(vec![], or(and(c, d), and(a, b)));
    let cmp = PathSim::default().compare(&x, &y).comparison;
    assert!(close(cmp.similarity, 1.0), "{cmp:?}");
    assert!(cmp.exhaustive);
    assert_eq!(cmp.matching, vec![(1, 2), (2, 1)]);
    // The bounded search (no budget for enumeration) finds the same pairing here.
    let mut searched = PathSim::default();
    searched.scoring.max_matching_work = 0;
    let g = searched.compare(&x, &y).comparison;
    assert!(!g.exhaustive);
    assert!(close(g.similarity, 1.0), "{g:?}");
}

#[test]
fn implication_and_hypothesis_forms_agree() {
    // (h : 0 < x) : x ≠ 0   vs   : 0 < x → x ≠ 0
    let p = n(" _ < _ ", vec![leaf("0"), var("x")]);
    let q = n(" _ ≠ _ ", vec![var("x"), leaf("0")]);
    let a = theorem(vec![binder(var("x"), leaf("ℝ")), binder(hyp("h"), p.clone())], q.clone());
    let b = theorem(vec![binder(var("x"), leaf("ℝ"))], n(" _ → _ ", vec![p, q]));
    assert!(close(PathSim::default().similarity(&a, &b), 1.0));
}

#[test]
fn dropping_a_hypothesis_lowers_the_score() {
    let h1 = binder(hyp("h₀"), n(" _ < _ ", vec![leaf("0"), var("x")]));
    let h2 =
        binder(hyp("h₁"), n(" _ = _ ", vec![n(" _ ^ _ ", vec![var("x"), leaf("2")]), leaf("4")]));
    let c = n(" _ = _ ", vec![var("x"), leaf("2")]);
    let full = theorem(vec![binder(var("x"), leaf("ℝ")), h1.clone(), h2], c.clone());
    let dropped = theorem(vec![binder(var("x"), leaf("ℝ")), h1], c);
    let s = PathSim::default().similarity(&full, &dropped);
    assert!(s < 0.9 && s > 0.3, "{s}");
}

#[test]
fn prime_spellings_score_high() {
    // Bare conclusions: with a shared `(p : ℕ)` binder, the typing paths would dilute the contrast.
    let p = || var("p");
    let nat_prime = theorem(vec![], n("Nat.Prime _ ", vec![p()]));
    let dot_prime = theorem(vec![], n("_._", vec![p(), leaf("Prime")]));
    let prime = theorem(vec![], n("Prime _ ", vec![p()]));
    let even = theorem(vec![], n("Even _ ", vec![p()]));
    let m = PathSim::default();
    let s1 = m.similarity(&nat_prime, &dot_prime);
    let s2 = m.similarity(&nat_prime, &prime);
    let s3 = m.similarity(&dot_prime, &prime);
    let s4 = m.similarity(&nat_prime, &even);
    assert!(s1 > 0.75 && s2 > 0.75, "{s1} {s2}");
    assert!(close(s3, 1.0), "{s3}");
    // A different predicate on the same variable keeps the variable's path (the paper's own
    // `cold(Alex)` vs `eating(Alex)` case): about half, well below the spellings of one predicate.
    assert!(s4 < 0.55 && s4 < s2 - 0.3, "{s4}");
}

#[test]
fn binder_types_distinguish_nat_from_real_unless_turned_off() {
    let c = n(" _ = _ ", vec![n(" _ / _ ", vec![var("x"), leaf("2")]), leaf("1")]);
    let a = theorem(vec![binder(var("x"), leaf("ℕ"))], c.clone());
    let b = theorem(vec![binder(var("x"), leaf("ℝ"))], c);
    let s = PathSim::default().similarity(&a, &b);
    assert!(s < 0.95, "{s}");
    let mut paper = PathSim::default();
    paper.skeleton.binder_types = false;
    assert!(close(paper.similarity(&a, &b), 1.0));
}

#[test]
fn negated_conclusion_differs() {
    let c = n(" _ = _ ", vec![var("x"), leaf("1")]);
    let a = theorem(vec![binder(var("x"), leaf("ℝ"))], c.clone());
    let b = theorem(vec![binder(var("x"), leaf("ℝ"))], n("¬", vec![c]));
    assert!(PathSim::default().similarity(&a, &b) < 0.5);
}

#[test]
fn empty_and_degenerate_trees_do_not_panic() {
    let m = PathSim::default();
    let empty = Tree::default();
    let bare = n("theorem", vec![]);
    let sig = n("theorem", vec![n(": _ ", vec![])]);
    for a in [&empty, &bare, &sig] {
        for b in [&empty, &bare, &sig] {
            let s = m.similarity(a, b);
            assert!((0.0..=1.0).contains(&s));
        }
    }
}

fn read_gted_pairs(file: &str) -> Vec<(String, Tree, Tree)> {
    let path = format!("{}/fixtures/bench/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("fixture present");
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("fixture JSON");
            let tree = |k: &str| serde_json::from_value::<Tree>(v[k].clone()).expect("tree");
            (v["id"].as_str().unwrap_or_default().to_string(), tree("ref_tree"), tree("cand_tree"))
        })
        .collect()
}

#[test]
fn gted_trees_score_in_range_and_each_tree_matches_itself() {
    let m = PathSim::default();
    for file in ["gted-minif2f.trees.jsonl", "gted-proofnet.trees.jsonl"] {
        for (id, r, c) in read_gted_pairs(file) {
            let s = m.similarity(&r, &c);
            assert!((0.0..=1.0).contains(&s), "{id}: {s}");
            let rr = m.similarity(&r, &r);
            assert!(close(rr, 1.0), "{id}: self-similarity {rr}");
            // Symmetric by construction when every AND matching was tried (Eq. 1 is a min).
            if m.compare(&r, &c).comparison.exhaustive {
                let back = m.similarity(&c, &r);
                assert!(close(s, back), "{id}: not symmetric {s} vs {back}");
            }
        }
    }
}

fn arb_tree() -> impl Strategy<Value = Tree> {
    let labels = prop::sample::select(vec![
        " _ ∧ _ ",
        " _ ∨ _ ",
        " _ → _ ",
        " _ ↔ _ ",
        "¬",
        " _ = _ ",
        " _ ≠ _ ",
        "∀ _ , _ ",
        "∃ _ , _ ",
        "∀ _  _ , _ ",
        "∃! _  _ , _ ",
        "> _ ",
        "∈",
        "[ _ ]",
        "[]",
        "{ _ : _ }",
        " _ .Prime",
        " _  _  _ → _ ",
        "theorem",
        " _  _ : _ ",
        " _ > _ ",
        "_._",
        "↑",
        "f _ ",
        "Nat.Prime _ ",
        "x",
        "y",
        "0",
        "Prime",
        " _ : _ ",
    ]);
    let leaf =
        prop::sample::select(vec!["x", "y", "0", "1", "Prime", "h", ">"]).prop_map(Tree::leaf);
    leaf.prop_recursive(6, 60, 3, move |inner| {
        (labels.clone(), prop::collection::vec(inner, 0..4))
            .prop_map(|(l, children)| Tree::node(l, children))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]
    #[test]
    fn any_trees_give_a_symmetric_score_in_range(a in arb_tree(), b in arb_tree()) {
        let m = PathSim::default();
        let ta = n("theorem", vec![n(" _ : _ ", vec![a.clone()])]);
        let s = m.similarity(&ta, &b);
        prop_assert!((0.0..=1.0).contains(&s));
        if m.compare(&ta, &b).comparison.exhaustive {
            prop_assert!((s - m.similarity(&b, &ta)).abs() < 1e-9);
        }
        prop_assert!((m.similarity(&a, &a) - 1.0).abs() < 1e-9);
    }
}

#[test]
fn parser_trees_give_the_paper_skeleton() {
    use crate::trees::parse::{parse_statement, Header};
    let text = "theorem t (x : ℝ) (p : ℕ) [Fact p.Prime] (h₀ : 0 < x ∧ x ≠ 1) \
                (h : ∀ n > 0, f n = 2) : Nat.Prime p ↔ ∃ k ≥ 2, x = k := by sorry";
    let st = parse_statement(text, &Header::default()).expect("parses");
    let s = Skeleton::of_statement(&st.tree, SkeletonOptions::default());
    let paths: Vec<String> = s.paths.iter().map(|p| s.render_path(p)).collect();
    let expected = [
        // typing binders and the instance, as premises
        "[not, _ : _, x]",
        "[not, _ : _, ℝ]",
        "[not, _ : _, p]",
        "[not, _ : _, ℕ]",
        "[not, Fact _, Prime _, p]",
        // h₀ : 0 < x ∧ x ≠ 1 as a premise: ¬(0 < x) ∨ x = 1
        "[not, _ < _, 0]",
        "[not, _ < _, x]",
        "[_ = _, x]",
        "[_ = _, 1]",
        // h : ∀ n > 0, f n = 2 as a premise: 0 < n ∧ ¬(f n = 2)
        "[and1, _ < _, 0]",
        "[and1, _ < _, n]",
        "[and1, not, _ = _, f _, n]",
        "[and1, not, _ = _, 2]",
        // P ↔ ∃ k ≥ 2, x = k: (P ∧ 2 ≤ k ∧ x = k) ∨ (¬P ∧ ¬(2 ≤ k)) ∨ (¬P ∧ ¬(x = k))
        "[and2, Nat.Prime _, p]",
        "[and2, _ ≤ _, 2]",
        "[and2, _ ≤ _, k]",
        "[and2, _ = _, x]",
        "[and2, _ = _, k]",
        "[and3, not, Nat.Prime _, p]",
        "[and3, not, _ ≤ _, 2]",
        "[and3, not, _ ≤ _, k]",
        "[and4, not, Nat.Prime _, p]",
        "[and4, not, _ = _, x]",
        "[and4, not, _ = _, k]",
    ];
    assert_eq!(paths, expected);
}

#[test]
fn judge_reports_a_score_and_names_the_missing_hypothesis() {
    use crate::metrics::{by_name, Pair, Verdict};
    use crate::trees::parse::{parse_statement, Header};
    let header = Header::default();
    let reference = parse_statement(
        "theorem t (x : ℝ) (h₀ : 0 < x) (h₁ : x ^ 2 = 4) : x = 2 := by sorry",
        &header,
    )
    .expect("parses");
    let candidate = parse_statement("theorem t (x : ℝ) (h₀ : 0 < x) : x = 2 := by sorry", &header)
        .expect("parses");
    let metric = by_name("path").expect("registered");
    let report = metric
        .judge(&Pair {
            reference: &reference,
            candidate: &candidate,
            reference_header: "",
            candidate_header: "",
        })
        .expect("judges");
    assert_eq!(report.metric, "path");
    let Verdict::Score(s) = report.verdict else {
        panic!("expected a score, got {:?}", report.verdict)
    };
    assert!(s > 0.3 && s < 0.95, "{s}");
    assert!(
        report.notes.iter().any(|n| n.starts_with("weak reference path [not, _ = _, _ ^ _")),
        "{:#?}",
        report.notes
    );
}

/// `Name(x)` as an operator tree: `Name _ `[x].
fn pred(name: &str) -> Tree {
    n(&format!("{name} _ "), vec![var("x")])
}
fn imp(a: Tree, b: Tree) -> Tree {
    n(" _ → _ ", vec![a, b])
}
fn not(a: Tree) -> Tree {
    n("¬", vec![a])
}
fn skeleton_paths(conclusion: Tree) -> Vec<String> {
    let s = Skeleton::of_statement(&theorem(vec![], conclusion), SkeletonOptions::default());
    s.paths.iter().map(|p| s.render_path(p)).collect()
}

#[test]
fn paper_appendix_case_2_32_negated_premise_literal_loses_its_not() {
    // (WorksOvertime(x) ∧ ¬Paid(x)) → Q(x): "¬Paid(x) is converted into [paid, var, x]".
    let paths = skeleton_paths(imp(and(pred("WorksOvertime"), not(pred("Paid"))), pred("Q")));
    assert_eq!(paths, ["[not, WorksOvertime _, x]", "[Paid _, x]", "[Q _, x]"]);
}

#[test]
fn paper_appendix_case_4_38_conjunctive_consequent_is_one_and_group() {
    // Prism(x) → (D(x) ∧ R(x) ∧ V(x) ∧ C(x)): "[and41, varyingangles, var, x]"-style paths.
    let four = || and(and(and(pred("D"), pred("R")), pred("VaryingAngles")), pred("C"));
    let paths = skeleton_paths(imp(pred("Prism"), four()));
    assert_eq!(
        paths,
        [
            "[not, Prism _, x]",
            "[and1, D _, x]",
            "[and1, R _, x]",
            "[and1, VaryingAngles _, x]",
            "[and1, C _, x]"
        ]
    );
    // Dropping VaryingAngles "does not substantially affect the Sim score" (0.767 here).
    let full = theorem(vec![], imp(pred("Prism"), four()));
    let less = theorem(vec![], imp(pred("Prism"), and(and(pred("D"), pred("R")), pred("C"))));
    let s = PathSim::default().similarity(&full, &less);
    assert!(s > 0.7 && s < 1.0, "{s}");
}

#[test]
fn paper_appendix_structure_changes_lower_sim() {
    // Case 6-26: (A ∧ R) → (H ∧ L) vs ((A ∧ R) → H) ∧ L (missing parentheses): 0.186 here.
    let (a, r, h, l) = (pred("Animal"), pred("Reptile"), pred("HasScales"), pred("LaysEggs"));
    let gd = theorem(vec![], imp(and(a.clone(), r.clone()), and(h.clone(), l.clone())));
    let gen = theorem(vec![], and(imp(and(a, r), h), l));
    let m = PathSim::default();
    let s = m.similarity(&gd, &gen);
    assert!(s > 0.05 && s < 0.5, "{s}");
    // Case 2-99: ((F ∧ T ∧ C) → (Co ∨ I)) ∧ S vs (F ∧ T ∧ C ∧ (Co ∨ I)) → S: 0.128 here.
    let (f, t, c) = (pred("FashionChoice"), pred("Trendy"), pred("Comfortable"));
    let (co, i, st) = (pred("Colorful"), pred("InterestingPatterns"), pred("Stylish"));
    let ftc = and(and(f, t), c);
    let gd = theorem(vec![], and(imp(ftc.clone(), or(co.clone(), i.clone())), st.clone()));
    let gen = theorem(vec![], imp(and(ftc, or(co, i)), st));
    let s = m.similarity(&gd, &gen);
    assert!(s > 0.05 && s < 0.5, "{s}");
}

#[test]
fn parsed_bench_statements_score_in_range_and_match_themselves() {
    use crate::trees::parse::{parse_statement, Header};
    let m = PathSim::default();
    for file in ["gted-minif2f.jsonl", "gted-proofnet.jsonl"] {
        let path = format!("{}/fixtures/bench/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("fixture present");
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("fixture JSON");
            let parse = |side: &str| {
                let header = Header::parse(v[format!("{side}_header")].as_str().unwrap_or(""));
                let text = v[format!("{side}_statement")].as_str().unwrap_or("");
                parse_statement(text, &header).map(|s| s.tree)
            };
            let (Ok(r), Ok(c)) = (parse("ref"), parse("cand")) else {
                panic!("{}: every bench statement parses", v["id"]);
            };
            let s = m.similarity(&r, &c);
            assert!((0.0..=1.0).contains(&s), "{}: {s}", v["id"]);
            assert!(close(m.similarity(&c, &c), 1.0), "{}", v["id"]);
            if m.compare(&r, &c).comparison.exhaustive {
                assert!(close(s, m.similarity(&c, &r)), "{}", v["id"]);
            }
        }
    }
}
