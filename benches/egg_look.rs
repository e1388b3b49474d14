//! A measured look at equality saturation (the `egg` crate) for `transted-lite`: it is worth
//! adopting only if it is no slower and no less sound.
//!
//! For every pair of `fixtures/bench/gted-minif2f.jsonl` and `gted-proofnet.jsonl`:
//! (a) the existing judge (`TransTedLite::default().judge`): equivalent when it closes the pair
//!     (distance 0), and its time;
//! (b) egg on the *same start pair* the judge's search starts from (both statements through
//!     names resolved under their headers (`elab::resolve`), then `rules::canonicalize`, as
//!     `TransTedLite::judge` does), both trees in one e-graph, the search's moves as
//!     rewrites, saturated under limits, equivalent when the two roots share an e-class (then the
//!     same guards the judge applies: `guards::closed_facts`, `elab::resolve::same_meaning`),
//!     and its time (canonical forms, encoding, saturation and guards included; explanations
//!     off). For the pairs egg closes, a second run with explanations on gives the explanation's
//!     length (rewrite steps) and that run's time.
//!
//! Encoding. Labels are egg symbols. Bound names are made alpha-invariant by de Bruijn *levels*
//! in binding order, with exactly the scoping of `rules::alpha_equivalent` (the theorem's binder
//! list at the root, and nodes that bind in their last child): a bound leaf becomes `#k`, the
//! name in a binder becomes `β`. So two trees get the same encoding iff they are
//! alpha-equivalent, except that a flagged name no binder binds keeps its label (the search's
//! alpha check would also accept a consistent renaming of such names: stricter here, never
//! looser). `+`/`*` nodes that the search may commute (statement-level `Commutativity::of` and
//! `elab::commutes_at`, the same two gates as `rules::moves`) carry elaboration-lite's type in
//! the symbol (`" _ + _ "@ℝ`, `@num` for numerals-only nodes), so the condition is visible.
//!
//! Rewrites (the search's moves that are plain term identities): `eq_comm`, `ne_comm`,
//! `and_comm`, `or_comm`, `iff_comm` (unconditional), `add_comm`/`mul_comm` on annotated nodes
//! only, `and_assoc`/`or_assoc`/`add_assoc`/`mul_assoc` both ways between nodes of the same
//! symbol, `Imp.swap`. Not encoded: the binder moves (`forall_swap`, `exists_swap`,
//! `binder_reorder`), which change the de Bruijn levels of everything under them, and the
//! numeral-bound shifts (`Nat.lt_iff_add_one_le`, …), which compute numerals; a pair the search
//! closes only through them is reported as such.
//!
//! Then the same for `MOVE_CASES`, hand-written pairs aimed at the rewrites (operators that must
//! not commute, binders the renaming must not confuse, a few equivalent ones).
//!
//! Run: `cargo bench --bench egg_look` (plain `main`, harness = false; prints a report).
//! `EGG_LOOK_RUNS=N` sets the timed runs per pair and engine (median kept; default 3).
//! The mutation harness's statements (tests/soundness_mutations.rs) are not used: its generator
//! is private to that test file.

#![allow(clippy::print_stdout)] // The report on stdout is this bench's output.

use egg::{
    ENodeOrVar, Id, Pattern, PatternAst, RecExpr, Rewrite, Runner, StopReason, SymbolLang, Var,
};
use lean_assess::dataset::{read_pairs, DatasetPair};
use lean_assess::distance::{self, CostModel};
use lean_assess::elab::resolve::{resolve_tree, same_meaning, Resolved};
use lean_assess::elab::scope::Scope;
use lean_assess::metrics::transted_lite::rules::elab::{self, Ty};
use lean_assess::metrics::transted_lite::rules::{self, Carriers, Commutativity};
use lean_assess::metrics::transted_lite::{guards, TransTedLite};
use lean_assess::metrics::{Metric, Pair};
use lean_assess::trees::parse::{parse_statement, Header};
use lean_assess::trees::{Statement, Tree};
use std::time::{Duration, Instant};

const DATASETS: [&str; 2] = ["gted-minif2f", "gted-proofnet"];

/// egg's limits: its default node and iteration limits, and the search's own time limit
/// (`transted_lite::Config::default().time_limit`).
const NODE_LIMIT: usize = 10_000;
const ITER_LIMIT: usize = 30;
const TIME_LIMIT: Duration = Duration::from_millis(500);

/// The search's moves that egg does not have (see the module doc).
const MOVES_EGG_LACKS: [&str; 7] = [
    "forall_swap",
    "exists_swap",
    "binder_reorder",
    "Nat.lt_iff_add_one_le",
    "Nat.lt_add_one_iff",
    "Int.lt_iff_add_one_le",
    "Int.lt_add_one_iff",
];

/// Hand-written pairs aimed at egg's rewrites (from the judge's own non-examples and its known false "equivalent"s):
/// operators that must not commute (`-`, `/`, `^`, `<`, `∣`, `⊆`, matrices, quaternions,
/// untyped `*`), binders that must not be confused by the alpha-renaming, and a few examples
/// the moves should close. `(reference, candidate, equivalent)`.
const MOVE_CASES: [(&str, &str, bool); 24] = [
    ("theorem a (x : ℝ) : x - 1 = 2", "theorem b (x : ℝ) : 1 - x = 2", false),
    ("theorem a (x : ℝ) : x / 2 = 1", "theorem b (x : ℝ) : 2 / x = 1", false),
    ("theorem a (x : ℕ) : x ^ 2 = 4", "theorem b (x : ℕ) : 2 ^ x = 4", false),
    ("theorem a (x : ℝ) : 1 < x", "theorem b (x : ℝ) : x < 1", false),
    ("theorem a (a b : ℕ) (h : a < b) : a ∣ b", "theorem b (a b : ℕ) (h : a < b) : b ∣ a", false),
    (
        "theorem a (s t : Set ℕ) (h : 1 ∈ s) : s ⊆ t",
        "theorem b (s t : Set ℕ) (h : 1 ∈ s) : t ⊆ s",
        false,
    ),
    (
        "theorem a (x y : ℝ) (h : x < y) : x - y < 1 ∧ y = 1",
        "theorem b (x y : ℝ) (h : x < y) : y = 1 ∧ y - x < 1",
        false,
    ),
    ("theorem a : ∃ x : ℕ, ∀ y : ℕ, x ≤ y", "theorem b : ∀ y : ℕ, ∃ x : ℕ, x ≤ y", false),
    ("theorem a : ∃ x : ℕ, ∀ y : ℕ, x ≤ y", "theorem b : ∃ y : ℕ, ∀ x : ℕ, x ≤ y", false),
    ("theorem a : ∀ x : ℕ, ∃ y : ℕ, x < y", "theorem b : ∃ y : ℕ, ∀ x : ℕ, x < y", false),
    ("theorem a (x y : ℕ) (h : x < y) : x < y", "theorem b (x y : ℕ) (h : x < y) : y < x", false),
    (
        "theorem a (x y : ℝ) (h : x < y) : x * y = x + 2",
        "theorem b (x y : ℝ) (h : y < x) : x * y = x + 2",
        false,
    ),
    (
        "theorem a (A B C : Matrix (Fin 2) (Fin 2) ℝ) (h : A ≠ 0) : Matrix.trace (A * B * C) = 0",
        "theorem b (A B C : Matrix (Fin 2) (Fin 2) ℝ) (h : A ≠ 0) : Matrix.trace (B * A * C) = 0",
        false,
    ),
    (
        "theorem a (A B : Matrix (Fin 2) (Fin 2) ℝ) (h : A * B = 1) : A ^ 2 = 1",
        "theorem b (A B : Matrix (Fin 2) (Fin 2) ℝ) (h : B * A = 1) : A ^ 2 = 1",
        false,
    ),
    (
        "theorem a (A B C : Matrix (Fin 2) (Fin 2) ℝ) : A * B * A = C",
        "theorem b (A B C : Matrix (Fin 2) (Fin 2) ℝ) : B * A * A = C",
        false,
    ),
    (
        "theorem a (x : ℝ) : !![1, 2; 3, 4] * !![x, 0; 0, 1] = 0",
        "theorem b (x : ℝ) : !![x, 0; 0, 1] * !![1, 2; 3, 4] = 0",
        false,
    ),
    (
        "theorem a (p q : ℍ) (h : p ≠ 0) : p * q = 1",
        "theorem b (p q : ℍ) (h : p ≠ 0) : q * p = 1",
        false,
    ),
    ("theorem a (h : A ≠ 0) : A * B = C", "theorem b (h : A ≠ 0) : B * A = C", false),
    (
        "theorem a (G : Type*) [Group G] (a : G) : a * e = 1",
        "theorem b (G : Type*) [Group G] (a : G) : e * a = 1",
        false,
    ),
    (
        "theorem a (x : ℝ) (h₀ : x > 1 ∧ x ≠ 3) : x + 1 = 7",
        "theorem b : ∀ x : ℝ, 1 < x → ¬ (x = 3) → 7 = 1 + x",
        true,
    ),
    (
        "theorem a (a b : ℝ) (h : a < b) : a + 2 * b = 0",
        "theorem b (a b : ℝ) (h : a < b) : 2 * b + a = 0",
        true,
    ),
    (
        "theorem a (x y : ℝ) (h : x = y) : x + 1 = y + 1",
        "theorem b (x y : ℝ) (h : y = x) : x + 1 = y + 1",
        true,
    ),
    (
        "theorem a (p q r : Prop) (h : p ∧ (q ∧ r)) : p ∨ q",
        "theorem b (p q r : Prop) (h : (r ∧ p) ∧ q) : q ∨ p",
        true,
    ),
    ("theorem a (a b c : ℤ) : a * (b * c) = 1", "theorem b (a b c : ℤ) : c * (a * b) = 1", true),
];

const EQ: &str = " _ = _ ";
const NE: &str = " _ ≠ _ ";
const AND: &str = " _ ∧ _ ";
const OR: &str = " _ ∨ _ ";
const IFF: &str = " _ ↔ _ ";
const IMP: &str = " _ → _ ";
const ADD: &str = " _ + _ ";
const MUL: &str = " _ * _ ";
/// The type annotations of commutative `+`/`*` nodes.
const TYPES: [&str; 6] = ["ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "num"];

// ---------------------------------------------------------------------------------------------
// The start pair, as the judge's search gets it

/// Both sides canonical, names resolved across the pair, canonical again where names changed
/// (the first half of `TransTedLite::judge_trees_in`), and the number of canonical steps (the
/// judge's path starts with them; the rest of its path is the search's moves).
struct Start {
    reference: Tree,
    candidate: Tree,
    canonical_steps: usize,
}

fn start_pair(reference: &Tree, candidate: &Tree) -> Start {
    let (ref_canon, ref_log) = rules::canonicalize(reference);
    let (cand_canon, cand_log) = rules::canonicalize(candidate);
    let steps = ref_log.len() + cand_log.len();
    Start { reference: ref_canon, candidate: cand_canon, canonical_steps: steps }
}

// ---------------------------------------------------------------------------------------------
// Encoding a tree as an egg term

/// `typed::is_binding_node` (private to the rules): nodes that bind in their last child.
fn is_binding_node(label: &str) -> bool {
    label.contains("=>")
        || (label.starts_with('{') && label.contains('|'))
        || label.ends_with(", _ ")
}

const PREDICATE_RELATIONS: [&str; 10] = ["∈", "∉", "<", "≤", ">", "≥", "≠", "⊆", "⊂", "∣"];

/// `rules::binder_name` (private): the name a binder child binds, if any.
fn binder_name(binder: &Tree) -> Option<&Tree> {
    if binder.children.is_empty() {
        return Some(binder);
    }
    let first = binder.children.first()?;
    let kind = matches!(binder.label.as_str(), " _ : _ " | "{ _ : _ }" | "⦃ _ : _ ⦄" | "[ _ : _ ]");
    let predicate = binder
        .label
        .strip_prefix(" _ ")
        .and_then(|l| l.strip_suffix(" _ "))
        .is_some_and(|op| !op.contains('_') && PREDICATE_RELATIONS.contains(&op));
    ((kind || predicate) && first.children.is_empty()).then_some(first)
}

/// One side's encoder: its canonical tree (for `commutes_at`), gates and the term being built.
struct Encoder<'t> {
    root: &'t Tree,
    comm: Commutativity,
    carriers: &'t Carriers,
    scope: Vec<&'t str>,
    path: Vec<usize>,
    expr: &'t mut RecExpr<SymbolLang>,
}

impl<'t> Encoder<'t> {
    fn leaf(&mut self, symbol: String) -> Id {
        self.expr.add(SymbolLang::leaf(symbol))
    }

    /// The symbol of a non-leaf node: its label, with the type for a commutative `+`/`*`.
    fn symbol(&self, t: &Tree) -> String {
        let gate = match t.label.as_str() {
            ADD => self.comm.add,
            MUL => self.comm.mul,
            _ => false,
        };
        if gate && t.children.len() == 2 && elab::commutes_at(self.root, &self.path, self.carriers)
        {
            let ty = match elab::type_of(t, self.carriers) {
                Ty::Num(n) => elab::type_name(n),
                Ty::Numeral | Ty::Unknown => "num",
            };
            format!("{}@{ty}", t.label)
        } else {
            t.label.clone()
        }
    }

    /// `rules::alpha_equivalent`'s walk, emitting a term instead of comparing.
    fn walk(&mut self, t: &'t Tree, root: bool) -> Id {
        if t.children.is_empty() {
            if let Some(level) = self.scope.iter().rposition(|x| *x == t.label) {
                return self.leaf(format!("#{level}"));
            }
            let flag = if t.variable_freecost {
                "⟨v⟩"
            } else if t.hypothesis_freecost {
                "⟨h⟩"
            } else {
                ""
            };
            return self.leaf(format!("{}{flag}", t.label));
        }
        let n = t.children.len();
        let scoping = n >= 2
            && ((root && rules::binder_list_arity(&t.label).is_some_and(|k| k + 1 == n))
                || is_binding_node(&t.label));
        let symbol = self.symbol(t);
        let mut ids = Vec::with_capacity(n);
        if !scoping {
            for (i, c) in t.children.iter().enumerate() {
                self.path.push(i);
                ids.push(self.walk(c, false));
                self.path.pop();
            }
            return self.expr.add(SymbolLang::new(symbol, ids));
        }
        let depth = self.scope.len();
        for (i, x) in t.children[..n - 1].iter().enumerate() {
            self.path.push(i);
            ids.push(self.binder(x));
            self.path.pop();
        }
        self.path.push(n - 1);
        ids.push(self.walk(&t.children[n - 1], false));
        self.path.pop();
        self.scope.truncate(depth);
        self.expr.add(SymbolLang::new(symbol, ids))
    }

    /// A binder: its type in the current scope, then its name in scope for what follows.
    fn binder(&mut self, x: &'t Tree) -> Id {
        match binder_name(x) {
            Some(name) if x.children.is_empty() => {
                self.scope.push(&name.label);
                self.leaf("β".to_string())
            }
            Some(name) => {
                let symbol = self.symbol(x);
                let mut ids = vec![self.leaf("β".to_string())];
                for (i, c) in x.children.iter().enumerate().skip(1) {
                    self.path.push(i);
                    ids.push(self.walk(c, false));
                    self.path.pop();
                }
                self.scope.push(&name.label);
                self.expr.add(SymbolLang::new(symbol, ids))
            }
            None => self.walk(x, false),
        }
    }
}

/// `tree` as a term of `expr`; returns its root.
fn encode(
    tree: &Tree,
    comm: Commutativity,
    carriers: &Carriers,
    expr: &mut RecExpr<SymbolLang>,
) -> Id {
    let mut e = Encoder { root: tree, comm, carriers, scope: Vec::new(), path: Vec::new(), expr };
    if tree.children.is_empty() {
        return e.walk(tree, false);
    }
    // `alpha_equivalent`: the root's children, each walked as the root's binder list when it
    // is the only one.
    let only = tree.children.len() == 1;
    let mut ids = Vec::new();
    for (i, c) in tree.children.iter().enumerate() {
        e.path.push(i);
        ids.push(e.walk(c, only));
        e.path.pop();
    }
    e.expr.add(SymbolLang::new(tree.label.clone(), ids))
}

/// A standalone term (for egg's explanations), from one side's encoding.
fn encode_alone(tree: &Tree, comm: Commutativity, carriers: &Carriers) -> RecExpr<SymbolLang> {
    let mut expr = RecExpr::default();
    encode(tree, comm, carriers, &mut expr);
    expr
}

// ---------------------------------------------------------------------------------------------
// Rewrites

fn var(name: &str) -> Var {
    name.parse().expect("a pattern variable")
}

/// `op(x, y)` over pattern nodes already in `ast`.
fn pnode(ast: &mut PatternAst<SymbolLang>, op: &str, x: Id, y: Id) -> Id {
    ast.add(ENodeOrVar::ENode(SymbolLang::new(op, vec![x, y])))
}

fn pvar(ast: &mut PatternAst<SymbolLang>, name: &str) -> Id {
    ast.add(ENodeOrVar::Var(var(name)))
}

fn comm(name: &str, op: &str) -> Rewrite<SymbolLang, ()> {
    let mut l = PatternAst::default();
    let (a, b) = (pvar(&mut l, "?a"), pvar(&mut l, "?b"));
    pnode(&mut l, op, a, b);
    let mut r = PatternAst::default();
    let (a, b) = (pvar(&mut r, "?a"), pvar(&mut r, "?b"));
    pnode(&mut r, op, b, a);
    Rewrite::new(format!("{name} {op}"), Pattern::new(l), Pattern::new(r)).expect("comm rule")
}

/// `(a ∘ b) ∘ c → a ∘ (b ∘ c)` (`forward`) or back.
fn assoc(name: &str, op: &str, forward: bool) -> Rewrite<SymbolLang, ()> {
    let left_nested = |ast: &mut PatternAst<SymbolLang>| {
        let (a, b, c) = (pvar(ast, "?a"), pvar(ast, "?b"), pvar(ast, "?c"));
        let ab = pnode(ast, op, a, b);
        pnode(ast, op, ab, c);
    };
    let right_nested = |ast: &mut PatternAst<SymbolLang>| {
        let (a, b, c) = (pvar(ast, "?a"), pvar(ast, "?b"), pvar(ast, "?c"));
        let bc = pnode(ast, op, b, c);
        pnode(ast, op, a, bc);
    };
    let (mut l, mut r) = (PatternAst::default(), PatternAst::default());
    if forward {
        left_nested(&mut l);
        right_nested(&mut r);
    } else {
        right_nested(&mut l);
        left_nested(&mut r);
    }
    let name = if forward { format!("{name} {op}") } else { format!("← {name} {op}") };
    Rewrite::new(name, Pattern::new(l), Pattern::new(r)).expect("assoc rule")
}

/// `a → b → c ↔ b → a → c`.
fn imp_swap() -> Rewrite<SymbolLang, ()> {
    let mut l = PatternAst::default();
    let (a, b, c) = (pvar(&mut l, "?a"), pvar(&mut l, "?b"), pvar(&mut l, "?c"));
    let bc = pnode(&mut l, IMP, b, c);
    pnode(&mut l, IMP, a, bc);
    let mut r = PatternAst::default();
    let (a, b, c) = (pvar(&mut r, "?a"), pvar(&mut r, "?b"), pvar(&mut r, "?c"));
    let ac = pnode(&mut r, IMP, a, c);
    pnode(&mut r, IMP, b, ac);
    Rewrite::new("Imp.swap", Pattern::new(l), Pattern::new(r)).expect("Imp.swap rule")
}

fn rewrites() -> Vec<Rewrite<SymbolLang, ()>> {
    let mut out = vec![
        comm("eq_comm", EQ),
        comm("ne_comm", NE),
        comm("and_comm", AND),
        comm("or_comm", OR),
        comm("iff_comm", IFF),
        imp_swap(),
    ];
    for ty in TYPES {
        out.push(comm("add_comm", &format!("{ADD}@{ty}")));
        out.push(comm("mul_comm", &format!("{MUL}@{ty}")));
    }
    let mut assoc_ops: Vec<(&str, String)> = vec![
        ("and_assoc", AND.to_string()),
        ("or_assoc", OR.to_string()),
        ("add_assoc", ADD.to_string()),
        ("mul_assoc", MUL.to_string()),
    ];
    for ty in TYPES {
        assoc_ops.push(("add_assoc", format!("{ADD}@{ty}")));
        assoc_ops.push(("mul_assoc", format!("{MUL}@{ty}")));
    }
    for (name, op) in &assoc_ops {
        out.push(assoc(name, op, true));
        out.push(assoc(name, op, false));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// One pair

struct Side<'a> {
    /// The statement, its names resolved under its header (`elab::resolve`).
    statement: Statement,
    header: &'a str,
    scope: Scope,
    resolved: Resolved,
}

fn side<'a>(text: &str, header: &'a str) -> Result<Side<'a>, String> {
    let parsed = Header::parse(header);
    let mut statement = parse_statement(text, &parsed).map_err(|e| e.to_string())?;
    let scope = Scope::read(header);
    let resolved = resolve_tree(&statement.tree, &scope);
    statement.tree = resolved.tree.clone();
    Ok(Side { statement, header, scope, resolved })
}

struct EggOutcome {
    equivalent: bool,
    /// The roots met before any guard.
    joined: bool,
    stop: String,
    nodes: usize,
    classes: usize,
    iterations: usize,
    start: Start,
}

fn egg_judge(r: &Side<'_>, c: &Side<'_>, rules: &[Rewrite<SymbolLang, ()>]) -> EggOutcome {
    let (reference, candidate) = (&r.statement.tree, &c.statement.tree);
    let start = start_pair(reference, candidate);
    let mut expr = RecExpr::default();
    let ref_root = encode(
        &start.reference,
        Commutativity::of(&start.reference),
        &Carriers::of(reference),
        &mut expr,
    );
    let cand_root = encode(
        &start.candidate,
        Commutativity::of(&start.candidate),
        &Carriers::of(candidate),
        &mut expr,
    );
    // One term holding both roots (egg adds a RecExpr whole): a pair node over the two.
    expr.add(SymbolLang::new("⟨pair⟩", vec![ref_root, cand_root]));
    let mut runner = Runner::<SymbolLang, ()>::default()
        .with_node_limit(NODE_LIMIT)
        .with_iter_limit(ITER_LIMIT)
        .with_time_limit(TIME_LIMIT)
        .with_expr(&expr);
    // The pair node's children are the two roots' classes.
    let pair_class = runner.roots[0];
    let roots: Vec<Id> = runner.egraph[pair_class].nodes[0].children.clone();
    let (a, b) = (roots[0], roots[1]);
    runner = run_until_joined(runner, a, b, rules);
    let joined = runner.egraph.find(a) == runner.egraph.find(b);
    let stop = match &runner.stop_reason {
        Some(StopReason::Saturated) => "saturated".to_string(),
        Some(StopReason::IterationLimit(_)) => "iteration limit".to_string(),
        Some(StopReason::NodeLimit(_)) => "node limit".to_string(),
        Some(StopReason::TimeLimit(_)) => "time limit".to_string(),
        Some(StopReason::Other(s)) => s.clone(),
        None => "none".to_string(),
    };
    let mut equivalent = joined;
    if equivalent
        && (guards::closed_facts(reference, candidate).is_some()
            || !same_meaning(&r.resolved, &r.scope, &c.resolved, &c.scope).is_empty())
    {
        equivalent = false;
    }
    EggOutcome {
        equivalent,
        joined,
        stop,
        nodes: runner.egraph.total_size(),
        classes: runner.egraph.number_of_classes(),
        iterations: runner.iterations.len(),
        start,
    }
}

/// `runner` run over `rules`, stopped as soon as the classes of `a` and `b` are one.
fn run_until_joined(
    runner: Runner<SymbolLang, ()>,
    a: Id,
    b: Id,
    rules: &[Rewrite<SymbolLang, ()>],
) -> Runner<SymbolLang, ()> {
    runner
        .with_hook(move |runner| {
            if runner.egraph.find(a) == runner.egraph.find(b) {
                Err("roots joined".to_string())
            } else {
                Ok(())
            }
        })
        .run(rules)
}

/// For a pair egg closed: egg's explanation (with explanations on) and its length in rewrite
/// steps, and that run's time.
fn egg_explain(
    r: &Side<'_>,
    c: &Side<'_>,
    start: &Start,
    rules: &[Rewrite<SymbolLang, ()>],
) -> Option<(usize, Duration, Vec<String>)> {
    let t = Instant::now();
    let left = encode_alone(
        &start.reference,
        Commutativity::of(&start.reference),
        &Carriers::of(&r.statement.tree),
    );
    let right = encode_alone(
        &start.candidate,
        Commutativity::of(&start.candidate),
        &Carriers::of(&c.statement.tree),
    );
    let mut runner = Runner::<SymbolLang, ()>::default()
        .with_explanations_enabled()
        .with_node_limit(NODE_LIMIT)
        .with_iter_limit(ITER_LIMIT)
        .with_time_limit(TIME_LIMIT)
        .with_expr(&left)
        .with_expr(&right);
    let (a, b) = (runner.roots[0], runner.roots[1]);
    runner = run_until_joined(runner, a, b, rules);
    if runner.egraph.find(a) != runner.egraph.find(b) {
        return None;
    }
    let mut explanation = runner.explain_equivalence(&left, &right);
    let steps = explanation.make_flat_explanation().len().saturating_sub(1);
    let elapsed = t.elapsed();
    let rules_used: Vec<String> =
        explanation.make_flat_explanation().iter().filter_map(rule_names).collect();
    Some((steps, elapsed, rules_used))
}

/// The rewrite names in one flat explanation term (forward or backward), outermost first.
fn rule_names(term: &egg::FlatTerm<SymbolLang>) -> Option<String> {
    if let Some(r) = term.forward_rule.or(term.backward_rule) {
        return Some(if term.backward_rule.is_some() {
            format!("{r} (backward)")
        } else {
            r.to_string()
        });
    }
    term.children.iter().find_map(rule_names)
}

// ---------------------------------------------------------------------------------------------
// The run

#[derive(Default)]
struct Tally {
    pairs: usize,
    unparsed: usize,
    judge_failed: usize,
    a_equivalent: usize,
    b_equivalent: usize,
    both: usize,
    a_only: Vec<String>,
    b_only: Vec<String>,
    a_false_equivalent: usize,
    b_false_equivalent: usize,
    b_joined_refused_by_guards: usize,
    a_times: Vec<Duration>,
    b_times: Vec<Duration>,
    /// egg, plus one TED of the start pair where egg does not close it: the least an egg-based
    /// judge pays to still give the similarity the threshold view ranks by.
    b_ted_times: Vec<Duration>,
    /// (a) and (b) times on the pairs both close, and on the pairs neither closes.
    closed_times: [Vec<Duration>; 2],
    open_times: [Vec<Duration>; 2],
    /// Pairs egg joined with no rewrite: identical after the canonical forms.
    joined_at_start: usize,
    /// The encoding checked against `rules::alpha_equivalent` on every start pair: equal
    /// encodings of trees it calls different (unsound: must be 0), and alpha-equivalent trees
    /// encoded differently (stricter).
    encoding_looser: usize,
    encoding_stricter: usize,
    nodes: Vec<usize>,
    classes: Vec<usize>,
    iterations: Vec<usize>,
    stops: Vec<(String, usize)>,
    explanation_steps: Vec<usize>,
    explanation_times: Vec<Duration>,
}

impl Tally {
    fn count_stop(&mut self, stop: &str) {
        match self.stops.iter_mut().find(|(s, _)| s == stop) {
            Some((_, n)) => *n += 1,
            None => self.stops.push((stop.to_string(), 1)),
        }
    }

    fn merge(&mut self, other: &Tally) {
        self.pairs += other.pairs;
        self.unparsed += other.unparsed;
        self.judge_failed += other.judge_failed;
        self.a_equivalent += other.a_equivalent;
        self.b_equivalent += other.b_equivalent;
        self.both += other.both;
        self.a_only.extend(other.a_only.iter().cloned());
        self.b_only.extend(other.b_only.iter().cloned());
        self.a_false_equivalent += other.a_false_equivalent;
        self.b_false_equivalent += other.b_false_equivalent;
        self.b_joined_refused_by_guards += other.b_joined_refused_by_guards;
        self.a_times.extend(&other.a_times);
        self.b_times.extend(&other.b_times);
        self.b_ted_times.extend(&other.b_ted_times);
        for k in 0..2 {
            self.closed_times[k].extend(&other.closed_times[k]);
            self.open_times[k].extend(&other.open_times[k]);
        }
        self.joined_at_start += other.joined_at_start;
        self.encoding_looser += other.encoding_looser;
        self.encoding_stricter += other.encoding_stricter;
        self.nodes.extend(&other.nodes);
        self.classes.extend(&other.classes);
        self.iterations.extend(&other.iterations);
        for (s, n) in &other.stops {
            for _ in 0..*n {
                self.count_stop(s);
            }
        }
        self.explanation_steps.extend(&other.explanation_steps);
        self.explanation_times.extend(&other.explanation_times);
    }
}

fn median_of(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn quantile<T: Copy + Ord>(values: &[T], q: f64) -> Option<T> {
    let mut v = values.to_vec();
    v.sort();
    let i = ((v.len() as f64 - 1.0) * q).round() as usize;
    v.get(i).copied()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn time_row(name: &str, times: &[Duration]) -> String {
    let total: Duration = times.iter().sum();
    format!(
        "{name:<28} total {:>8.1} ms   p50 {:>7.3} ms   p99 {:>7.3} ms   max {:>7.3} ms",
        ms(total),
        quantile(times, 0.5).map_or(0.0, ms),
        quantile(times, 0.99).map_or(0.0, ms),
        quantile(times, 1.0).map_or(0.0, ms),
    )
}

fn ratio_row(name: &str, ours: &[Duration], theirs: &[Duration]) -> String {
    let total = |v: &[Duration]| ms(v.iter().sum());
    let q = |v: &[Duration], x: f64| quantile(v, x).map_or(0.0, ms);
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { f64::NAN };
    format!(
        "{name:<28} total {:.2}x   p50 {:.2}x   p99 {:.2}x",
        ratio(total(ours), total(theirs)),
        ratio(q(ours, 0.5), q(theirs, 0.5)),
        ratio(q(ours, 0.99), q(theirs, 0.99)),
    )
}

fn count_row<T: Copy + Ord + std::fmt::Display>(name: &str, values: &[T]) -> String {
    let show = |q: f64| quantile(values, q).map_or("-".to_string(), |v| v.to_string());
    format!("{name:<28} p50 {:>7}   p99 {:>7}   max {:>7}", show(0.5), show(0.99), show(1.0))
}

fn run_pair(
    p: &DatasetPair,
    rules: &[Rewrite<SymbolLang, ()>],
    runs: usize,
    judge: &TransTedLite,
    tally: &mut Tally,
    details: &mut Vec<String>,
) {
    tally.pairs += 1;
    let (r, c) =
        match (side(&p.ref_statement, &p.ref_header), side(&p.cand_statement, &p.cand_header)) {
            (Ok(r), Ok(c)) => (r, c),
            (Err(e), _) | (_, Err(e)) => {
                tally.unparsed += 1;
                details.push(format!("{}: not parsed ({e}); skipped by both", p.id));
                return;
            }
        };
    let pair = Pair {
        reference: &r.statement,
        candidate: &c.statement,
        reference_header: r.header,
        candidate_header: c.header,
    };
    // (a) the judge.
    let mut a_times = Vec::with_capacity(runs);
    let mut report = None;
    for _ in 0..runs {
        let t = Instant::now();
        let out = std::hint::black_box(judge.judge(&pair));
        a_times.push(t.elapsed());
        report = Some(out);
    }
    let report = match report.expect("at least one run") {
        Ok(report) => report,
        Err(e) => {
            tally.judge_failed += 1;
            details.push(format!("{}: judge failed ({e}); egg not compared", p.id));
            return;
        }
    };
    let a_equivalent = report.distance == Some(0);
    // (b) egg.
    let mut b_times = Vec::with_capacity(runs);
    let mut outcome = None;
    for _ in 0..runs {
        let t = Instant::now();
        let out = std::hint::black_box(egg_judge(&r, &c, rules));
        b_times.push(t.elapsed());
        outcome = Some(out);
    }
    let outcome = outcome.expect("at least one run");
    let (a_time, b_time) = (median_of(a_times), median_of(b_times));
    let start = &outcome.start;
    let same_encoding = encode_alone(
        &start.reference,
        Commutativity::of(&start.reference),
        &Carriers::of(&r.statement.tree),
    ) == encode_alone(
        &start.candidate,
        Commutativity::of(&start.candidate),
        &Carriers::of(&c.statement.tree),
    );
    let alpha = rules::alpha_equivalent(&start.reference, &start.candidate);
    if same_encoding && !alpha {
        tally.encoding_looser += 1;
        details.push(format!("{}: ENCODING UNSOUND: equal encodings, not alpha-equivalent", p.id));
    }
    if alpha && !same_encoding {
        tally.encoding_stricter += 1;
        details.push(format!(
            "{}: alpha-equivalent start pair encoded differently (free names)",
            p.id
        ));
    }
    let mut ted_times = Vec::with_capacity(runs);
    if !outcome.joined {
        let costs = CostModel { free_rename: true };
        for _ in 0..runs {
            let t = Instant::now();
            std::hint::black_box(distance::ted(
                &outcome.start.reference,
                &outcome.start.candidate,
                costs,
            ));
            ted_times.push(t.elapsed());
        }
    }
    let ted_time = if ted_times.is_empty() { Duration::ZERO } else { median_of(ted_times) };
    tally.a_times.push(a_time);
    tally.b_times.push(b_time);
    tally.b_ted_times.push(b_time + ted_time);
    if outcome.stop == "node limit"
        || outcome.stop == "time limit"
        || outcome.stop == "iteration limit"
    {
        details.push(format!(
            "{}: egg stopped by {} ({} nodes, {} classes, {} iterations)",
            p.id, outcome.stop, outcome.nodes, outcome.classes, outcome.iterations
        ));
    }
    tally.nodes.push(outcome.nodes);
    tally.classes.push(outcome.classes);
    tally.iterations.push(outcome.iterations);
    tally.count_stop(&outcome.stop);
    let label_false = p.label == Some(false);
    if a_equivalent {
        tally.a_equivalent += 1;
        tally.a_false_equivalent += usize::from(label_false);
    }
    if outcome.equivalent {
        tally.b_equivalent += 1;
        tally.b_false_equivalent += usize::from(label_false);
        if label_false {
            details.push(format!(
                "{}: UNSOUND: egg calls a pair labelled not equivalent equivalent",
                p.id
            ));
        }
    }
    if outcome.joined && !outcome.equivalent {
        tally.b_joined_refused_by_guards += 1;
    }
    // The judge's search moves: its path after the canonical steps.
    let search_moves: Vec<&str> =
        report.path.iter().skip(outcome.start.canonical_steps).map(|s| s.rule.as_str()).collect();
    match (a_equivalent, outcome.equivalent) {
        (true, true) => {
            tally.both += 1;
            tally.closed_times[0].push(a_time);
            tally.closed_times[1].push(b_time);
        }
        (true, false) => {
            let lacking: Vec<&str> =
                search_moves.iter().copied().filter(|m| MOVES_EGG_LACKS.contains(m)).collect();
            let why = if !lacking.is_empty() {
                format!("binder/numeral moves egg lacks: {}", lacking.join(", "))
            } else if outcome.stop != "saturated" {
                format!("egg stopped by {}", outcome.stop)
            } else {
                "egg saturated without joining (encoding: annotation or alpha-renaming)".to_string()
            };
            tally.a_only.push(p.id.clone());
            details.push(format!(
                "{}: judge equivalent, egg not — {why}; judge's moves: [{}]; egg: {} nodes, {} classes, {} iterations, {}",
                p.id,
                search_moves.join(", "),
                outcome.nodes,
                outcome.classes,
                outcome.iterations,
                outcome.stop
            ));
        }
        (false, true) => {
            tally.b_only.push(p.id.clone());
            details.push(format!(
                "{}: egg equivalent, judge not (label {:?}; judge distance {:?}, stop note: {})",
                p.id,
                p.label,
                report.distance,
                report.notes.last().map_or("", String::as_str)
            ));
        }
        (false, false) => {
            tally.open_times[0].push(a_time);
            tally.open_times[1].push(b_time);
            if p.id.starts_with("move case") && p.label == Some(true) {
                details.push(format!(
                    "{}: an equivalent case neither closes (judge's moves: [{}])",
                    p.id,
                    search_moves.join(", ")
                ));
            }
        }
    }
    if outcome.equivalent {
        if let Some((steps, elapsed, used)) = egg_explain(&r, &c, &outcome.start, rules) {
            tally.explanation_steps.push(steps);
            tally.joined_at_start += usize::from(steps == 0);
            tally.explanation_times.push(elapsed);
            if !used.is_empty() {
                details.push(format!(
                    "{}: egg explanation, {steps} step(s): {}; judge's moves: [{}]",
                    p.id,
                    used.join(", "),
                    search_moves.join(", ")
                ));
            }
        }
    }
}

fn print_tally(name: &str, t: &Tally) {
    println!("== {name}");
    println!("pairs {}  (not parsed {}, judge failed {})", t.pairs, t.unparsed, t.judge_failed);
    println!(
        "equivalent: (a) judge {}   (b) egg {}   both {}   judge only {}   egg only {}",
        t.a_equivalent,
        t.b_equivalent,
        t.both,
        t.a_only.len(),
        t.b_only.len()
    );
    println!(
        "soundness: labelled not equivalent but called equivalent: (a) {}   (b) {}   (egg joins refused by the guards: {})",
        t.a_false_equivalent, t.b_false_equivalent, t.b_joined_refused_by_guards
    );
    println!(
        "encoding against rules::alpha_equivalent on the start pairs: looser {} (must be 0), stricter {}",
        t.encoding_looser, t.encoding_stricter
    );
    println!("{}", time_row("(a) judge time per pair", &t.a_times));
    println!("{}", time_row("(b) egg time per pair", &t.b_times));
    println!("{}", time_row("(b) + TED of the start pair", &t.b_ted_times));
    println!("{}", ratio_row("egg / judge", &t.b_times, &t.a_times));
    println!("{}", ratio_row("egg + TED / judge", &t.b_ted_times, &t.a_times));
    for (label, times) in [
        ("(a) on pairs both close", &t.closed_times[0]),
        ("(b) on pairs both close", &t.closed_times[1]),
        ("(a) on pairs neither closes", &t.open_times[0]),
        ("(b) on pairs neither closes", &t.open_times[1]),
    ] {
        println!("{}", time_row(label, times));
    }
    for (label, counts) in [
        ("e-graph nodes", &t.nodes),
        ("e-graph classes", &t.classes),
        ("egg iterations", &t.iterations),
    ] {
        println!("{}", count_row(label, counts));
    }
    let stops: Vec<String> = t.stops.iter().map(|(s, n)| format!("{s} {n}")).collect();
    println!("egg stops: {}", stops.join(", "));
    println!(
        "{}   ({} of them 0: identical after the canonical forms)",
        count_row("explanation length (steps)", &t.explanation_steps),
        t.joined_at_start
    );
    println!("{}", time_row("egg run with explanations", &t.explanation_times));
    println!();
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runs: usize =
        std::env::var("EGG_LOOK_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(3).max(1);
    let rules = rewrites();
    let judge = TransTedLite::default();
    println!(
        "egg_look: egg {} rewrites, limits {NODE_LIMIT} nodes / {ITER_LIMIT} iterations / {} ms; median of {runs} runs per pair and engine",
        rules.len(),
        TIME_LIMIT.as_millis()
    );
    println!();
    let mut all = Tally::default();
    let mut details = Vec::new();
    for name in DATASETS {
        let path = format!("{}/fixtures/bench/{name}.jsonl", env!("CARGO_MANIFEST_DIR"));
        let pairs = read_pairs(std::path::Path::new(&path))?;
        let mut tally = Tally::default();
        for p in &pairs {
            run_pair(p, &rules, runs, &judge, &mut tally, &mut details);
        }
        print_tally(name, &tally);
        all.merge(&tally);
    }
    print_tally("both sets", &all);
    let mut cases = Tally::default();
    for (i, (reference, candidate, equivalent)) in MOVE_CASES.iter().enumerate() {
        let p = DatasetPair {
            id: format!("move case {}", i + 1),
            line: i + 1,
            ref_header: String::new(),
            ref_statement: reference.to_string(),
            cand_header: String::new(),
            cand_statement: candidate.to_string(),
            label: Some(*equivalent),
        };
        run_pair(&p, &rules, runs, &judge, &mut cases, &mut details);
    }
    print_tally(
        &format!(
            "move cases ({} not equivalent, {} equivalent)",
            MOVE_CASES.iter().filter(|c| !c.2).count(),
            MOVE_CASES.iter().filter(|c| c.2).count()
        ),
        &cases,
    );
    println!("== per-pair notes (disagreements, soundness, egg explanations)");
    for d in &details {
        println!("{d}");
    }
    Ok(())
}
