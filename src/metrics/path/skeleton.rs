//! From an operator tree to seed 004's DNF-like tree (§3 and §4, Figure 1) and its paths.
//!
//! The propositional skeleton of a statement `theorem n (x : ℝ) (h₀ : A ∧ B) : C → D` is
//! `(x : ℝ) ∧ (A ∧ B) → (C → D)`: hypotheses are the binders whose type is a proposition (a
//! binder whose name GTED or the parser flagged as a hypothesis, or whose type is a connective,
//! quantifier or relation), the premises of `→`, and — unless
//! [`SkeletonOptions::binder_types`] is off — the typing binders, kept as atoms `x : ℝ` because
//! a Lean statement's meaning depends on them (the paper's logic is untyped). They are conjoined
//! and imply the conclusion. Connectives
//! are normalised into a DNF: `A → B` is `¬A ∨ B`, `A ↔ B` is `(A ∧ B) ∨ (¬A ∧ ¬B)`, `a ≠ b` is
//! `¬(a = b)`, `a ∉ s` is `¬(a ∈ s)`, negations are pushed to the atoms (De Morgan) and `∧` is
//! distributed over `∨`. Quantifiers are removed, as the paper does for its quantifier-free logic
//! (§5: "eliminate quantifiers"); their binder predicates stay as premises (`∀ x > 0, P` is
//! `x > 0 → P`) or conjuncts (`∃ x > 0, P` is `x > 0 ∧ P`), and the names they bind are marked
//! as bound in the atoms. `∃!` is read as `∃` (the uniqueness half is not propositional
//! structure). Atoms are the maximal non-propositional subtrees; inside them, `a > b` is written
//! `b < a` and `a ≥ b` is `b ≤ a` (Lean's own definitions of `>`/`≥`), coercion arrows
//! (`↑ ⇑ ↥`) are dropped and field notation `p.Prime` becomes the application `Prime p`.
//!
//! The DNF-like tree (§4, Figure 1) has an OR root (left implicit: it is never compared), one
//! AND node per clause of two or more literals, numbered per tree so groups stay distinct, a NOT
//! node above each negated atom, and the atom's own operator tree below. A path runs from a child
//! of the root to a leaf; paths are what the scorer compares (as in the paper's appendix, e.g.
//! `[not, lowervitamincontent, var, y]`, `[and41, varyingangles, var, x]`).
//!
//! Work is bounded: the DNF is cut at [`SkeletonOptions::max_clauses`] clauses (the dropped
//! clauses are reported) and propositional nesting deeper than `max_depth` is kept as one atom, so
//! no input can blow up time, memory or the stack.
//!
//! Owns the skeleton and path extraction; node similarity and scoring live in sibling modules.

use crate::trees::Tree;
use std::collections::{HashMap, HashSet};

/// What the skeleton keeps, and bounds on the DNF construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkeletonOptions {
    /// Also keep typing binders (`(x : ℝ)`, `[Group G]`, `∀ n : ℕ`) as hypothesis atoms (default
    /// on). Seed 004's logic is untyped; Lean's is not, and `x : ℕ` vs `x : ℝ` changes a
    /// statement's meaning. Off, only binders whose type is a proposition are hypotheses.
    pub binder_types: bool,
    /// Most clauses kept in a DNF (distribution can multiply them).
    pub max_clauses: usize,
    /// Deepest propositional nesting read as structure; deeper subformulas become atoms.
    pub max_depth: usize,
    /// Most paths kept per tree (one per atom leaf per clause it appears in).
    pub max_paths: usize,
}

impl Default for SkeletonOptions {
    fn default() -> Self {
        SkeletonOptions { binder_types: true, max_clauses: 64, max_depth: 200, max_paths: 2000 }
    }
}

/// A propositional formula over atoms (indices into [`Skeleton::atoms`]).
#[derive(Clone, Debug, PartialEq)]
enum Formula {
    Atom(usize),
    Not(Box<Formula>),
    And(Vec<Formula>),
    Or(Vec<Formula>),
}

impl Formula {
    /// Number of nodes, without recursion.
    fn size(&self) -> usize {
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(f) = stack.pop() {
            n += 1;
            match f {
                Formula::Atom(_) => {}
                Formula::Not(g) => stack.push(g),
                Formula::And(fs) | Formula::Or(fs) => stack.extend(fs.iter()),
            }
        }
        n
    }
}

fn implies(premise: Formula, conclusion: Formula) -> Formula {
    Formula::Or(vec![Formula::Not(Box::new(premise)), conclusion])
}

/// A literal of a DNF clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Literal {
    pub negated: bool,
    pub atom: usize,
}

/// One node on a path of the DNF-like tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathNode {
    /// The AND node of clause group `n` (numbered per tree).
    And(u32),
    /// A negation above an atom.
    Not,
    /// A node of an atom's operator tree: index into [`Skeleton::terms`].
    Term(u32),
}

/// A node inside an atom, as the node similarity sees it.
#[derive(Clone, Copy, Debug)]
pub struct TermNode<'t> {
    /// The operator tree label (`" _ = _ "`, `"Nat.Prime _ "`, `"x"`).
    pub label: &'t str,
    /// A bound variable or hypothesis name, whose spelling carries no meaning.
    pub bound: bool,
    /// At an atom's root: the whole atom, for a tree-level comparison. `None` below the root.
    pub atom: Option<&'t Tree>,
}

/// The DNF-like tree of one statement, flattened to its root-to-leaf paths.
#[derive(Clone, Debug, Default)]
pub struct Skeleton {
    /// Atoms after normalisation, deduplicated.
    pub atoms: Vec<Tree>,
    /// Clauses of the DNF (a disjunction of conjunctions of literals), deduplicated.
    pub clauses: Vec<Vec<Literal>>,
    /// Nodes of the atoms in paths: (atom index, preorder index in that atom).
    term_nodes: Vec<(usize, usize)>,
    /// Root-to-leaf paths (root OR excluded).
    pub paths: Vec<Vec<PathNode>>,
    /// Number of AND groups (clauses of two or more literals).
    pub and_groups: u32,
    /// What was cut to respect the limits, for the report.
    pub notes: Vec<String>,
}

impl Skeleton {
    /// Build the DNF-like tree of a statement's operator tree (`theorem` root, or any proposition).
    pub fn of_statement(tree: &Tree, limits: SkeletonOptions) -> Skeleton {
        let mut b = Builder {
            limits,
            atoms: Vec::new(),
            atom_ids: HashMap::new(),
            bound: Vec::new(),
            notes: Vec::new(),
            copy_budget: 20_000,
        };
        let formula = b.statement(tree);
        let clauses = match b.dnf(&formula, false) {
            Some(c) => c,
            None => {
                b.notes.push(format!(
                    "DNF over {} clauses: kept the first {}",
                    limits.max_clauses, limits.max_clauses
                ));
                b.dnf_truncated(&formula)
            }
        };
        let mut s = Skeleton { atoms: b.atoms, clauses, notes: b.notes, ..Skeleton::default() };
        s.build_paths(limits.max_paths);
        s
    }

    /// The term node behind a [`PathNode::Term`] index.
    pub fn term(&self, index: u32) -> Option<TermNode<'_>> {
        let &(atom, pre) = self.term_nodes.get(index as usize)?;
        let root = self.atoms.get(atom)?;
        let node = *root.preorder().get(pre)?;
        Some(TermNode {
            label: &node.label,
            bound: node.variable_freecost || node.hypothesis_freecost,
            atom: (pre == 0).then_some(root),
        })
    }

    /// All term nodes, indexed as in [`PathNode::Term`].
    pub fn terms(&self) -> Vec<TermNode<'_>> {
        let mut out = Vec::with_capacity(self.term_nodes.len());
        for root in &self.atoms {
            for (pre, node) in root.preorder().into_iter().enumerate() {
                out.push(TermNode {
                    label: &node.label,
                    bound: node.variable_freecost || node.hypothesis_freecost,
                    atom: (pre == 0).then_some(root),
                });
            }
        }
        out
    }

    /// A path as readable text, `[and1, not, Nat.Prime _, p]`, for notes and tests.
    pub fn render_path(&self, path: &[PathNode]) -> String {
        let parts: Vec<String> = path
            .iter()
            .map(|n| match n {
                PathNode::And(g) => format!("and{g}"),
                PathNode::Not => "not".to_string(),
                PathNode::Term(t) => {
                    self.term(*t).map(|t| t.label.trim().to_string()).unwrap_or_default()
                }
            })
            .collect();
        format!("[{}]", parts.join(", "))
    }

    fn build_paths(&mut self, max_paths: usize) {
        // Paths through each atom, as term-node indices; an atom in several clauses shares them.
        let mut atom_paths: Vec<Vec<Vec<u32>>> = Vec::with_capacity(self.atoms.len());
        for (a, atom) in self.atoms.iter().enumerate() {
            let base = self.term_nodes.len() as u32;
            let nodes = atom.preorder();
            self.term_nodes.extend((0..nodes.len()).map(|i| (a, i)));
            atom_paths.push(
                leaf_paths(atom)
                    .into_iter()
                    .map(|p| p.into_iter().map(|i| base + i as u32).collect())
                    .collect(),
            );
        }
        let mut group = 0u32;
        'clauses: for clause in &self.clauses {
            let and = if clause.len() > 1 {
                group += 1;
                Some(PathNode::And(group))
            } else {
                None
            };
            for lit in clause {
                for tail in &atom_paths[lit.atom] {
                    if self.paths.len() >= max_paths {
                        self.notes.push(format!(
                            "more than {max_paths} paths: kept the first {max_paths}"
                        ));
                        break 'clauses;
                    }
                    let mut p = Vec::with_capacity(tail.len() + 2);
                    p.extend(and);
                    if lit.negated {
                        p.push(PathNode::Not);
                    }
                    p.extend(tail.iter().map(|&t| PathNode::Term(t)));
                    self.paths.push(p);
                }
            }
        }
        self.and_groups = group;
    }
}

/// Root-to-leaf paths of a tree as preorder indices, without recursion.
fn leaf_paths(t: &Tree) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    // (node, its preorder index, path so far)
    let mut stack: Vec<(&Tree, usize, Vec<usize>)> = vec![(t, 0, Vec::new())];
    while let Some((node, pre, mut path)) = stack.pop() {
        path.push(pre);
        if node.children.is_empty() {
            out.push(path);
            continue;
        }
        // Children's preorder indices: each follows the previous sibling's whole subtree.
        let mut next = pre + 1;
        let mut kids = Vec::with_capacity(node.children.len());
        for c in &node.children {
            kids.push((c, next, path.clone()));
            next += subtree_size(c);
        }
        stack.extend(kids.into_iter().rev());
    }
    out
}

fn subtree_size(t: &Tree) -> usize {
    let mut n = 0;
    let mut stack = vec![t];
    while let Some(x) = stack.pop() {
        n += 1;
        stack.extend(x.children.iter());
    }
    n
}

struct Builder {
    limits: SkeletonOptions,
    atoms: Vec<Tree>,
    atom_ids: HashMap<Tree, usize>,
    /// Names bound by enclosing binders and quantifiers (a stack of scopes, flattened).
    bound: Vec<String>,
    notes: Vec<String>,
    /// Formula nodes `↔` may still copy (see `prop`).
    copy_budget: usize,
}

/// Labels of the binder nodes of a declaration signature.
const BINDERS: [&str; 4] = [" _ : _ ", "{ _ : _ }", "[ _ : _ ]", "⦃ _ : _ ⦄"];

impl Builder {
    fn statement(&mut self, tree: &Tree) -> Formula {
        let signature =
            if tree.label == "theorem" || tree.label == "lemma" || tree.label == "example" {
                tree.children.last()
            } else {
                None
            };
        let Some(sig) = signature.filter(|s| s.label.trim_end().ends_with(": _")) else {
            return self.prop(tree, 0);
        };
        let Some((conclusion, binders)) = sig.children.split_last() else {
            return self.atom(sig);
        };
        let mut hypotheses = Vec::new();
        for binder in binders {
            if let Some(h) = self.binder(binder, 0) {
                hypotheses.push(h);
            }
        }
        let concl = self.prop(conclusion, 0);
        if hypotheses.is_empty() {
            concl
        } else {
            implies(Formula::And(hypotheses), concl)
        }
    }

    /// A binder of a signature or quantifier: binds its name; returns its type if a proposition.
    fn binder(&mut self, binder: &Tree, depth: usize) -> Option<Formula> {
        if is_binder(&binder.label) && binder.children.len() == 2 {
            let (name, ty) = (&binder.children[0], &binder.children[1]);
            let is_hyp = name.hypothesis_freecost || (!name.variable_freecost && looks_prop(ty));
            if is_hyp {
                return Some(self.prop(ty, depth + 1));
            }
            self.bound.push(name.label.clone());
            // `{x : ℝ}` and `(x : ℝ)` type `x` alike: one label for every binder kind.
            return self.limits.binder_types.then(|| self.atom(&relabel(binder, " _ : _ ")));
        }
        if binder.children.is_empty() {
            self.bound.push(binder.label.clone());
            return None;
        }
        // Anonymous instance binders (`[Fintype G]`: GTED `[]`, our parser `[ _ ]`): a typing
        // fact, not a proposition.
        let instance = matches!(binder.label.as_str(), "[]" | "[ _ ]");
        match (self.limits.binder_types && instance, binder.children.as_slice()) {
            (true, [class]) => Some(self.atom(class)),
            _ => None,
        }
    }

    fn prop(&mut self, t: &Tree, depth: usize) -> Formula {
        if depth > self.limits.max_depth {
            return self.atom(t);
        }
        let d = depth + 1;
        let kids = &t.children;
        match (t.label.as_str(), kids.len()) {
            (" _ ∧ _ ", 2) => Formula::And(vec![self.prop(&kids[0], d), self.prop(&kids[1], d)]),
            (" _ ∨ _ ", 2) => Formula::Or(vec![self.prop(&kids[0], d), self.prop(&kids[1], d)]),
            (" _ → _ ", 2) => {
                let p = self.prop(&kids[0], d);
                implies(p, self.prop(&kids[1], d))
            }
            (" _ ↔ _ ", 2) => {
                let a = self.prop(&kids[0], d);
                let b = self.prop(&kids[1], d);
                // Each `↔` copies both sides: nested ones would double the formula per level.
                let copied = a.size() + b.size();
                if copied > self.copy_budget {
                    self.notes.push("nested ↔ too large to expand: kept as one atom".to_string());
                    return self.atom(t);
                }
                self.copy_budget -= copied;
                let na = Formula::Not(Box::new(a.clone()));
                let nb = Formula::Not(Box::new(b.clone()));
                Formula::Or(vec![Formula::And(vec![a, b]), Formula::And(vec![na, nb])])
            }
            ("¬", 1) | ("¬ _ ", 1) => Formula::Not(Box::new(self.prop(&kids[0], d))),
            (" _ ≠ _ ", 2) => Formula::Not(Box::new(self.atom(&relabel(t, " _ = _ ")))),
            (" _ ∉ _ ", 2) => Formula::Not(Box::new(self.atom(&relabel(t, " _ ∈ _ ")))),
            (l, n) if n >= 2 && is_quantifier(l) => self.quantifier(t, d),
            (l, n) if n >= 2 && l.trim_end().ends_with("→ _") => {
                // `(n : ℕ) → A → B` written as one pi node: binders/premises, then the body.
                let scope = self.bound.len();
                let mut premises = Vec::new();
                for k in &kids[..n - 1] {
                    if is_binder(&k.label) {
                        premises.extend(self.binder(k, d));
                    } else {
                        premises.push(self.prop(k, d));
                    }
                }
                let body = self.prop(&kids[n - 1], d);
                self.bound.truncate(scope);
                if premises.is_empty() {
                    body
                } else {
                    implies(Formula::And(premises), body)
                }
            }
            _ => self.atom(t),
        }
    }

    /// `∀ x y, P` / `∃ x ∈ S, P`: bind the names, keep binder predicates, drop the quantifier.
    fn quantifier(&mut self, t: &Tree, depth: usize) -> Formula {
        let universal = t.label.starts_with('∀');
        let scope = self.bound.len();
        let Some((body, binders)) = t.children.split_last() else {
            return self.atom(t);
        };
        let mut conditions = Vec::new();
        let mut unconstrained: Vec<String> = Vec::new();
        for b in binders {
            if b.children.is_empty() {
                self.bound.push(b.label.clone());
                unconstrained.push(b.label.clone());
            } else if is_binder(&b.label) {
                if let Some(c) = self.binder(b, depth) {
                    conditions.push(c);
                } else if let Some(n) = b.children.first() {
                    unconstrained.push(n.label.clone());
                }
            } else if let Some(rel) = binder_predicate(&b.label) {
                // `∀ x y > 0` constrains every name of its group: `x > 0 ∧ y > 0`.
                for name in unconstrained.drain(..) {
                    let mut args = vec![Tree::leaf(name)];
                    args.extend(b.children.iter().cloned());
                    let atom = Tree::node(format!(" _ {rel} _ "), args);
                    conditions.push(self.prop(&atom, depth));
                }
            } else {
                conditions.push(self.prop(b, depth));
            }
        }
        let body = self.prop(body, depth);
        self.bound.truncate(scope);
        if conditions.is_empty() {
            body
        } else if universal {
            implies(Formula::And(conditions), body)
        } else {
            conditions.push(body);
            Formula::And(conditions)
        }
    }

    /// Intern a normalised atom.
    fn atom(&mut self, t: &Tree) -> Formula {
        let normal = normalise_atom(t, &self.bound);
        let next = self.atoms.len();
        let id = *self.atom_ids.entry(normal.clone()).or_insert(next);
        if id == next {
            self.atoms.push(normal);
        }
        Formula::Atom(id)
    }

    /// DNF of `f` (negated if `neg`), or `None` past the clause limit.
    fn dnf(&self, f: &Formula, neg: bool) -> Option<Vec<Vec<Literal>>> {
        let max = self.limits.max_clauses;
        let clauses = match (f, neg) {
            (Formula::Atom(a), _) => vec![vec![Literal { negated: neg, atom: *a }]],
            (Formula::Not(g), _) => self.dnf(g, !neg)?,
            (Formula::Or(fs), false) | (Formula::And(fs), true) => {
                let mut out = Vec::new();
                for g in fs {
                    out.extend(self.dnf(g, neg)?);
                    if out.len() > max * 4 {
                        return None;
                    }
                }
                out
            }
            (Formula::And(fs), false) | (Formula::Or(fs), true) => {
                let mut acc: Vec<Vec<Literal>> = vec![Vec::new()];
                for g in fs {
                    let part = self.dnf(g, neg)?;
                    if acc.len().saturating_mul(part.len()) > max * 4 {
                        return None;
                    }
                    let mut next = Vec::with_capacity(acc.len() * part.len());
                    for a in &acc {
                        for p in &part {
                            let mut c = a.clone();
                            c.extend(p.iter().copied());
                            next.push(c);
                        }
                    }
                    acc = dedup_clauses(next);
                }
                acc
            }
        };
        let clauses = dedup_clauses(clauses);
        (clauses.len() <= max).then_some(clauses)
    }

    /// Bounded fallback when the DNF is too large: distribute with truncation at every step.
    fn dnf_truncated(&self, f: &Formula) -> Vec<Vec<Literal>> {
        let max = self.limits.max_clauses;
        fn go(f: &Formula, neg: bool, max: usize) -> Vec<Vec<Literal>> {
            let mut out = match (f, neg) {
                (Formula::Atom(a), _) => vec![vec![Literal { negated: neg, atom: *a }]],
                (Formula::Not(g), _) => go(g, !neg, max),
                (Formula::Or(fs), false) | (Formula::And(fs), true) => {
                    fs.iter().flat_map(|g| go(g, neg, max)).collect()
                }
                (Formula::And(fs), false) | (Formula::Or(fs), true) => {
                    let mut acc: Vec<Vec<Literal>> = vec![Vec::new()];
                    for g in fs {
                        let part = go(g, neg, max);
                        let mut next = Vec::new();
                        'outer: for a in &acc {
                            for p in &part {
                                if next.len() >= max {
                                    break 'outer;
                                }
                                let mut c = a.clone();
                                c.extend(p.iter().copied());
                                next.push(c);
                            }
                        }
                        acc = dedup_clauses(next);
                    }
                    acc
                }
            };
            out = dedup_clauses(out);
            out.truncate(max);
            out
        }
        go(f, false, max)
    }
}

/// Sort and deduplicate literals in each clause (`A ∧ A` is `A`), then deduplicate clauses,
/// keeping first occurrences in order.
fn dedup_clauses(clauses: Vec<Vec<Literal>>) -> Vec<Vec<Literal>> {
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(clauses.len());
    for mut c in clauses {
        c.sort();
        c.dedup();
        if seen.insert(c.clone()) {
            out.push(c);
        }
    }
    out
}

/// The relation of a binder predicate node, the bound name implied: GTED writes `∀ x > 0` as
/// `∀ _ , _ `[x, `>`[0], body], our parser as `∀ _  _ , _ `[x, `> _ `[0], body].
fn binder_predicate(label: &str) -> Option<&str> {
    const RELS: [&str; 11] = [">", "≥", "<", "≤", "≠", "∈", "∉", "⊆", "⊂", "⊇", "∣"];
    let l = label.trim();
    let l = l.strip_suffix(" _").unwrap_or(l).trim();
    RELS.contains(&l).then_some(l)
}

/// `∀ _ , _ ` (GTED) or `∀ _  _ , _ ` (our parser, one ` _ ` per binder child); also `∃`, `∃!`.
fn is_quantifier(label: &str) -> bool {
    (label.starts_with('∀') || label.starts_with('∃')) && label.trim_end().ends_with(", _")
}

/// A declaration or quantifier binder node `( _ : _ )` in any bracket kind.
fn is_binder(label: &str) -> bool {
    BINDERS.contains(&label)
}

/// Whether a binder type reads as a proposition (when no flag says so): its head is a connective,
/// quantifier or relation.
fn looks_prop(t: &Tree) -> bool {
    const HEADS: [&str; 22] = [
        " _ ∧ _ ",
        " _ ∨ _ ",
        " _ ↔ _ ",
        "¬",
        "¬ _ ",
        "∃ _ , _ ",
        "∃! _ , _ ",
        " _ = _ ",
        " _ ≠ _ ",
        " _ < _ ",
        " _ > _ ",
        " _ ≤ _ ",
        " _ ≥ _ ",
        " _ ∣ _ ",
        " _ ∈ _ ",
        " _ ∉ _ ",
        " _ ⊆ _ ",
        " _ ⊂ _ ",
        "True",
        "False",
        " _ ≡ _  _ [ZMOD _ ]",
        " _ ≡ _  _ [MOD _ ]",
    ];
    match t.label.as_str() {
        // `ℕ → ℝ` is a type, `0 < x → P` a proposition: look at the result.
        " _ → _ " | "∀ _ , _ " => t.children.last().is_some_and(looks_prop),
        l => HEADS.contains(&l) || l.starts_with(" _ ≡ _ "),
    }
}

fn relabel(t: &Tree, label: &str) -> Tree {
    let mut out = t.clone();
    out.label = label.to_string();
    out
}

/// Normalise an atom (see the module doc) and mark the names bound around it.
fn normalise_atom(t: &Tree, bound: &[String]) -> Tree {
    // Post-order rebuild without recursion: (node, children done?)
    let mut out: Vec<Tree> = Vec::new();
    let mut stack: Vec<(&Tree, bool)> = vec![(t, false)];
    while let Some((node, done)) = stack.pop() {
        if !done {
            stack.push((node, true));
            stack.extend(node.children.iter().rev().map(|c| (c, false)));
            continue;
        }
        let n = node.children.len();
        let children = out.split_off(out.len().saturating_sub(n));
        out.push(normalise_node(node, children, bound));
    }
    out.pop().unwrap_or_else(|| t.clone())
}

fn normalise_node(node: &Tree, mut children: Vec<Tree>, bound: &[String]) -> Tree {
    let label = node.label.as_str();
    match (label, children.len()) {
        ("↑" | "⇑" | "↥", 1) => return children.pop().unwrap_or_default(),
        (" _ > _ " | " _ ≥ _ ", 2) => {
            children.swap(0, 1);
            let flipped = if label == " _ > _ " { " _ < _ " } else { " _ ≤ _ " };
            return Tree::node(flipped, children);
        }
        ("_._", 2) => {
            // GTED's field access `_._`[x, Prime] is the application `Prime _ `[x].
            let field = &children[1];
            let named =
                field.children.is_empty() && field.label.starts_with(|c: char| c.is_alphabetic());
            if named {
                let f = format!("{} _ ", field.label);
                children.truncate(1);
                return Tree::node(f, children);
            }
        }
        _ => {}
    }
    // Our parser's field access ` _ .Prime`[x] (with arguments ` _ .foo _ `[x, a]) is the
    // application `Prime _ `[x] (`foo _  _ `[x, a]): Lean resolves `x.foo a` to `T.foo x a`.
    if let Some(rest) = label.strip_prefix(" _ .") {
        let field = rest.split(' ').next().unwrap_or_default();
        if field.starts_with(|c: char| c.is_alphabetic()) && !children.is_empty() {
            return Tree::node(format!("{field}{}", " _ ".repeat(children.len())), children);
        }
    }
    let is_bound = children.is_empty() && bound.contains(&node.label);
    Tree {
        label: node.label.clone(),
        children,
        variable_freecost: node.variable_freecost || (is_bound && !node.hypothesis_freecost),
        hypothesis_freecost: node.hypothesis_freecost,
        span: node.span,
        unparsed: node.unparsed,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{hyp, leaf, n, theorem, var};
    use super::*;

    fn paths(s: &Skeleton) -> Vec<String> {
        s.paths.iter().map(|p| s.render_path(p)).collect()
    }

    #[test]
    fn hypotheses_imply_the_conclusion_as_negated_literals() {
        // (x : ℝ) (h : 0 < x) : x ≠ 1  ≡  ¬(0 < x) ∨ ¬(x = 1)
        let t = theorem(
            vec![
                n(" _ : _ ", vec![var("x"), leaf("ℝ")]),
                n(" _ : _ ", vec![hyp("h"), n(" _ < _ ", vec![leaf("0"), var("x")])]),
            ],
            n(" _ ≠ _ ", vec![var("x"), leaf("1")]),
        );
        let paper = SkeletonOptions { binder_types: false, ..SkeletonOptions::default() };
        let s = Skeleton::of_statement(&t, paper);
        assert_eq!(
            paths(&s),
            ["[not, _ < _, 0]", "[not, _ < _, x]", "[not, _ = _, x]", "[not, _ = _, 1]"]
        );
        assert_eq!(s.and_groups, 0);
        // With typing binders (the default), `x : ℝ` is one more premise.
        let typed = Skeleton::of_statement(&t, SkeletonOptions::default());
        assert_eq!(paths(&typed)[..2], ["[not, _ : _, x]", "[not, _ : _, ℝ]"]);
        assert_eq!(typed.paths.len(), 6);
    }

    #[test]
    fn conjunctive_conclusion_is_one_and_group() {
        // : a = 1 ∧ p.Prime  (p.Prime becomes Prime p)
        let t = theorem(
            vec![],
            n(
                " _ ∧ _ ",
                vec![
                    n(" _ = _ ", vec![leaf("a"), leaf("1")]),
                    n("_._", vec![leaf("p"), leaf("Prime")]),
                ],
            ),
        );
        let s = Skeleton::of_statement(&t, SkeletonOptions::default());
        assert_eq!(paths(&s), ["[and1, _ = _, a]", "[and1, _ = _, 1]", "[and1, Prime _, p]"]);
    }

    #[test]
    fn iff_becomes_two_and_groups_and_gt_is_flipped() {
        let t = theorem(
            vec![],
            n(
                " _ ↔ _ ",
                vec![n(" _ > _ ", vec![leaf("a"), leaf("0")]), n("Even _ ", vec![leaf("a")])],
            ),
        );
        let s = Skeleton::of_statement(&t, SkeletonOptions::default());
        assert_eq!(s.clauses.len(), 2);
        assert_eq!(s.and_groups, 2);
        assert_eq!(s.render_path(&s.paths[0]), "[and1, _ < _, 0]");
        assert!(paths(&s).contains(&"[and2, not, Even _, a]".to_string()));
    }

    #[test]
    fn forall_binder_predicate_becomes_a_premise_with_the_name_bound() {
        // ∀ x > 0, f x = 1  ≡  ¬(0 < x) ∨ f x = 1, with x bound
        let t = theorem(
            vec![],
            n(
                "∀ _ , _ ",
                vec![
                    leaf("x"),
                    n(">", vec![leaf("0")]),
                    n(" _ = _ ", vec![n("f _ ", vec![leaf("x")]), leaf("1")]),
                ],
            ),
        );
        let s = Skeleton::of_statement(&t, SkeletonOptions::default());
        assert_eq!(
            paths(&s),
            ["[not, _ < _, 0]", "[not, _ < _, x]", "[_ = _, f _, x]", "[_ = _, 1]"]
        );
        let x = s.paths[1].last().copied();
        let Some(PathNode::Term(i)) = x else { panic!("expected a term, got {x:?}") };
        assert!(s.term(i).is_some_and(|t| t.bound));
    }

    #[test]
    fn clause_explosion_is_bounded_and_reported() {
        // (a1 ∨ b1) ∧ (a2 ∨ b2) ∧ ... 10 times: 1024 clauses in full DNF.
        let mut f = n(" _ ∨ _ ", vec![leaf("a0"), leaf("b0")]);
        for i in 1..10 {
            let d = n(" _ ∨ _ ", vec![leaf(&format!("a{i}")), leaf(&format!("b{i}"))]);
            f = n(" _ ∧ _ ", vec![f, d]);
        }
        let s = Skeleton::of_statement(&theorem(vec![], f), SkeletonOptions::default());
        assert!(s.clauses.len() <= 64);
        assert!(!s.notes.is_empty());
    }

    #[test]
    fn nested_iff_is_bounded() {
        let mut f = leaf("p0");
        for i in 1..40 {
            f = n(" _ ↔ _ ", vec![leaf(&format!("p{i}")), f]);
        }
        let s = Skeleton::of_statement(&theorem(vec![], f), SkeletonOptions::default());
        assert!(s.clauses.len() <= 64 && !s.notes.is_empty());
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let mut f = leaf("p");
        for _ in 0..1000 {
            f = n("¬", vec![f]);
        }
        let s = Skeleton::of_statement(&theorem(vec![], f), SkeletonOptions::default());
        assert!(!s.paths.is_empty());
        assert!(s.atoms.len() == 1 && s.atoms[0].label == "¬");
    }
}
