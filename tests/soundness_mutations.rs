//! Soundness harness for `transted-lite`: every statement of the bench
//! fixtures (reference and candidate sides) is mutated in ways that change its meaning, and
//! the metric must never call a mutant equivalent to its original (distance 0).
//!
//! The mutators are designed so that each mutant really says something else in Lean:
//! - `constant`: a numeral `k` becomes `k + 1` (not an exponent: see `exponent`);
//! - `exponent`: a numeral exponent `k` of `^` becomes `k + 1`;
//! - `type`: a variable's number type (ℕ ℤ ℚ ℝ ℂ) becomes the next one, for a variable the
//!   statement uses (an unused variable of an inhabited type says nothing);
//! - `relation`: `<` ↔ `≤`, `>` ↔ `≥`, `=` ↔ `≠`;
//! - `quantifier`: `∀` ↔ `∃` on a quantifier whose body uses its variable;
//! - `quantifier swap`: `∀ x, ∃ y, p` → `∃ y, ∀ x, p` (and `∃ ∀` → `∀ ∃`), `p` using both;
//! - `drop hypothesis`: a named hypothesis nothing else mentions is removed (not `0 ≤ n`, which
//!   says nothing on ℕ, nor a hypothesis stated twice);
//! - `add hypothesis`: `(hmut : v = 7919)` for a number variable `v` of the theorem;
//! - `free variable`: one occurrence of a bound variable in the conclusion becomes a fresh name
//!   (auto-bound by Lean: another variable);
//! - `flip`: `a - b` → `b - a`, `a / b` → `b / a` (`a`, `b` different; not where the flip is
//!   harmless: inside `|·|` or `^`, compared with 0 or 1, or divided on ℤ).
//!
//! Prints how many mutants each kind made and how many were judged equivalent (must be 0).
//! In a debug build it takes one statement in [`DEBUG_STRIDE`] to stay near a minute; a
//! release build (`cargo test --release --test soundness_mutations`) or `SOUNDNESS_FULL=1`
//! takes every statement. The output says which.

use lean_assess::dataset::read_pairs;
use lean_assess::elab::resolve::resolve_tree;
use lean_assess::elab::scope::Scope;
use lean_assess::metrics::transted_lite::TransTedLite;
use lean_assess::trees::parse::{parse_statement, Header};
use lean_assess::trees::Tree;
use std::collections::BTreeMap;
use std::path::Path;

const DATASETS: [&str; 2] =
    ["fixtures/bench/gted-minif2f.jsonl", "fixtures/bench/gted-proofnet.jsonl"];

/// In debug builds, one statement in this many is mutated.
const DEBUG_STRIDE: usize = 3;

/// At most this many mutants of one kind per statement (first and last places, then evenly
/// between), so that long statements do not dominate the run.
const PER_KIND: usize = 2;

const NUMBER_TYPES: [&str; 5] = ["ℕ", "ℤ", "ℚ", "ℝ", "ℂ"];

fn literal(t: &Tree) -> Option<u128> {
    if !t.children.is_empty() || t.label.is_empty() || !t.label.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    t.label.parse().ok()
}

fn mentions(t: &Tree, name: &str) -> bool {
    if t.children.is_empty() {
        return t.label == name;
    }
    t.children.iter().any(|c| mentions(c, name))
}

fn at<'t>(root: &'t Tree, path: &[usize]) -> &'t Tree {
    path.iter().fold(root, |t, &i| &t.children[i])
}

fn replace_at(root: &Tree, path: &[usize], new: Tree) -> Tree {
    if path.is_empty() {
        return new;
    }
    let mut out = root.clone();
    let mut t = &mut out;
    for &i in path {
        t = &mut t.children[i];
    }
    *t = new;
    out
}

/// Every node's path, preorder.
fn paths(t: &Tree, path: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    out.push(path.clone());
    for (i, c) in t.children.iter().enumerate() {
        path.push(i);
        paths(c, path, out);
        path.pop();
    }
}

/// The theorem's binder list and its conclusion index, when it has the usual shape.
fn binder_list(tree: &Tree) -> Option<&Tree> {
    let [list] = tree.children.as_slice() else {
        return None;
    };
    list.label.ends_with(": _ ").then_some(list)
}

fn is_binder(t: &Tree) -> bool {
    matches!(t.label.as_str(), " _ : _ " | "{ _ : _ }" | "⦃ _ : _ ⦄" | "( _ : _ )")
        && t.children.len() == 2
}

fn prop_shaped(t: &Tree) -> bool {
    // Infix operators whose node label is ` _ OP _ `.
    const INFIX: [&str; 12] = ["=", "≠", "<", "≤", ">", "≥", "∧", "∨", "↔", "∣", "∈", "∉"];
    let label = t.label.as_str();
    label == "¬"
        || label.starts_with('∀')
        || label.starts_with('∃')
        || label
            .strip_prefix(" _ ")
            .and_then(|l| l.strip_suffix(" _ "))
            .is_some_and(|op| INFIX.contains(&op))
}

/// Pick at most [`PER_KIND`] of `candidates`, spread over them.
fn spread<T: Clone>(candidates: &[T]) -> Vec<T> {
    if candidates.len() <= PER_KIND {
        return candidates.to_vec();
    }
    (0..PER_KIND)
        .map(|k| candidates[k * (candidates.len() - 1) / (PER_KIND - 1).max(1)].clone())
        .collect()
}

/// The tree with one node relabelled, for every node (at a path of `all`) whose label `swap`
/// maps to another and that `applies` accepts (its children kept).
fn relabelled(
    tree: &Tree,
    all: &[Vec<usize>],
    swap: &[(&str, &str)],
    applies: impl Fn(&Tree, &[usize]) -> bool,
) -> Vec<Tree> {
    all.iter()
        .filter_map(|p| {
            let t = at(tree, p);
            let (_, to) = swap.iter().find(|(from, _)| t.label == *from)?;
            applies(t, p).then(|| replace_at(tree, p, Tree::node(*to, t.children.clone())))
        })
        .collect()
}

fn mutants(tree: &Tree) -> Vec<(&'static str, Tree)> {
    let mut out: Vec<(&'static str, Tree)> = Vec::new();
    let mut all = Vec::new();
    paths(tree, &mut Vec::new(), &mut all);
    let parent_of =
        |p: &[usize]| -> Option<&Tree> { (!p.is_empty()).then(|| at(tree, &p[..p.len() - 1])) };

    // constant / exponent
    let mut constants = Vec::new();
    let mut exponents = Vec::new();
    for p in &all {
        let t = at(tree, p);
        let Some(k) = literal(t) else { continue };
        let exponent = parent_of(p).is_some_and(|q| q.label == " _ ^ _ " && p.last() == Some(&1));
        let new = replace_at(tree, p, Tree::leaf((k + 1).to_string()));
        if exponent {
            exponents.push(new);
        } else {
            constants.push(new);
        }
    }
    out.extend(spread(&constants).into_iter().map(|t| ("constant", t)));
    out.extend(spread(&exponents).into_iter().map(|t| ("exponent", t)));

    // type
    let mut types = Vec::new();
    for p in &all {
        let t = at(tree, p);
        if !is_binder(t) {
            continue;
        }
        let (name, ty) = (&t.children[0], &t.children[1]);
        let Some(i) = NUMBER_TYPES.iter().position(|n| *n == ty.label) else {
            continue;
        };
        if !ty.children.is_empty() || !name.children.is_empty() {
            continue;
        }
        // Used somewhere else than its own binder.
        let uses = count_leaves(tree, &name.label);
        if uses < 2 {
            continue;
        }
        let next = NUMBER_TYPES[(i + 1) % NUMBER_TYPES.len()];
        let mut ty_path = p.clone();
        ty_path.push(1);
        types.push(replace_at(tree, &ty_path, Tree::leaf(next)));
    }
    out.extend(spread(&types).into_iter().map(|t| ("type", t)));

    // relation
    let relations = relabelled(
        tree,
        &all,
        &[
            (" _ < _ ", " _ ≤ _ "),
            (" _ ≤ _ ", " _ < _ "),
            (" _ > _ ", " _ ≥ _ "),
            (" _ ≥ _ ", " _ > _ "),
            (" _ = _ ", " _ ≠ _ "),
            (" _ ≠ _ ", " _ = _ "),
        ],
        |t, p| t.children.len() == 2 && !is_binder_position(tree, p),
    );
    out.extend(spread(&relations).into_iter().map(|t| ("relation", t)));

    // quantifier
    let quantifiers = relabelled(
        tree,
        &all,
        &[("∀ _ , _ ", "∃ _ , _ "), ("∃ _ , _ ", "∀ _ , _ ")],
        |t, _| {
            let n = t.children.len();
            if n < 2 {
                return false;
            }
            let body = &t.children[n - 1];
            let names: Vec<&str> = t.children[..n - 1]
                .iter()
                .filter_map(|b| {
                    if b.children.is_empty() {
                        Some(b.label.as_str())
                    } else {
                        b.children.first().map(|x| x.label.as_str())
                    }
                })
                .collect();
            !names.is_empty() && names.iter().all(|x| mentions(body, x))
        },
    );
    out.extend(spread(&quantifiers).into_iter().map(|t| ("quantifier", t)));

    // quantifier swap: `∀ x, ∃ y, p` → `∃ y, ∀ x, p` (one binder each, `p` using both, the
    // inner binder's type not mentioning `x`).
    let mut swaps = Vec::new();
    for p in &all {
        let t = at(tree, p);
        let (outer, inner_label) = match t.label.as_str() {
            "∀ _ , _ " => ("∀ _ , _ ", "∃ _ , _ "),
            "∃ _ , _ " => ("∃ _ , _ ", "∀ _ , _ "),
            _ => continue,
        };
        let [xb, inner] = t.children.as_slice() else {
            continue;
        };
        if inner.label != inner_label {
            continue;
        }
        let [yb, body] = inner.children.as_slice() else {
            continue;
        };
        let name = |b: &Tree| -> String {
            if b.children.is_empty() {
                b.label.clone()
            } else {
                b.children.first().map(|x| x.label.clone()).unwrap_or_default()
            }
        };
        let (x, y) = (name(xb), name(yb));
        let independent = yb.children.iter().skip(1).all(|ty| !mentions(ty, &x));
        if x.is_empty() || x == y || !independent || !mentions(body, &x) || !mentions(body, &y) {
            continue;
        }
        let swapped = Tree::node(
            inner_label,
            vec![yb.clone(), Tree::node(outer, vec![xb.clone(), body.clone()])],
        );
        swaps.push(replace_at(tree, p, swapped));
    }
    out.extend(spread(&swaps).into_iter().map(|t| ("quantifier swap", t)));

    if let Some(list) = binder_list(tree) {
        let k = list.children.len() - 1;
        let binders = &list.children[..k];
        let rebuild = |children: Vec<Tree>| {
            let label = format!("{}: _ ", " _ ".repeat(children.len() - 1));
            Tree::node(tree.label.clone(), vec![Tree::node(label, children)])
        };
        // drop hypothesis
        let mut drops = Vec::new();
        for (i, b) in binders.iter().enumerate() {
            if !is_binder(b) || !b.children[0].hypothesis_freecost || !prop_shaped(&b.children[1]) {
                continue;
            }
            let ty = &b.children[1];
            let vacuous = ty.label == " _ ≤ _ " && literal(&ty.children[0]) == Some(0);
            let twice = binders
                .iter()
                .enumerate()
                .any(|(j, o)| j != i && is_binder(o) && o.children[1] == *ty);
            let named_elsewhere = count_leaves(tree, &b.children[0].label) > 1;
            if vacuous || twice || named_elsewhere {
                continue;
            }
            let mut children = list.children.clone();
            children.remove(i);
            drops.push(rebuild(children));
        }
        out.extend(spread(&drops).into_iter().map(|t| ("drop hypothesis", t)));

        // add hypothesis
        let number_var = binders.iter().find(|b| {
            is_binder(b)
                && b.children[0].children.is_empty()
                && !b.children[0].hypothesis_freecost
                && NUMBER_TYPES.contains(&b.children[1].label.as_str())
        });
        if let Some(b) = number_var {
            let mut name = Tree::leaf("hmut");
            name.hypothesis_freecost = true;
            let eq = Tree::node(" _ = _ ", vec![b.children[0].clone(), Tree::leaf("7919")]);
            let mut children = list.children.clone();
            children.insert(k, Tree::node(" _ : _ ", vec![name, eq]));
            out.push(("add hypothesis", rebuild(children)));
        }

        // free variable: one occurrence of a bound variable in the conclusion.
        let concl = &list.children[k];
        let mut occurrences = Vec::new();
        let mut concl_paths = Vec::new();
        paths(concl, &mut vec![0, k], &mut concl_paths);
        for p in concl_paths {
            let t = at(tree, &p);
            if t.children.is_empty() && t.variable_freecost && !is_binder_position(tree, &p) {
                let mut fresh = Tree::leaf("z₉");
                fresh.span = t.span;
                occurrences.push(replace_at(tree, &p, fresh));
            }
        }
        out.extend(spread(&occurrences).into_iter().map(|t| ("free variable", t)));

        // free function: one application of a bound function in the conclusion made an
        // application of a constant (`f x` → `Mut.f x`): free renaming of bound function heads
        // must never reach a constant.
        let functions: Vec<&str> = binders
            .iter()
            .filter(|b| is_binder(b) && b.children[1].label == " _ → _ ")
            .filter_map(|b| b.children[..b.children.len() - 1].first())
            .filter(|n| n.children.is_empty() && !n.hypothesis_freecost)
            .map(|n| n.label.as_str())
            .collect();
        let mut applications = Vec::new();
        let mut concl_paths = Vec::new();
        paths(concl, &mut vec![0, k], &mut concl_paths);
        for p in concl_paths {
            let t = at(tree, &p);
            let holes = " _ ".repeat(t.children.len());
            let head = t.label.strip_suffix(holes.as_str()).filter(|_| !t.children.is_empty());
            if let Some(f) = head.filter(|h| functions.contains(h)) {
                let mut constant = t.clone();
                constant.label = format!("Mut.{f}{holes}");
                applications.push(replace_at(tree, &p, constant));
            }
        }
        out.extend(spread(&applications).into_iter().map(|t| ("free function", t)));
    }

    // flip
    let mut flips = Vec::new();
    for p in &all {
        let t = at(tree, p);
        if !(t.label == " _ - _ " || t.label == " _ / _ ") || t.children.len() != 2 {
            continue;
        }
        // Two bare variables may trade places by renaming (`∃ a b, c = a / b`), or by a
        // symmetry of the statement (`a² + b² = 1 → a * b + (a - b) ≤ 1`).
        let variable = |x: &Tree| x.children.is_empty() && literal(x).is_none();
        if t.children[0] == t.children[1] || t.children.iter().all(variable) {
            continue;
        }
        // On ℤ, `a ∣ b - c ↔ a ∣ c - b` (`dvd_sub_comm`, Mathlib/Algebra/Ring/Basic.lean); a
        // statement that names ℕ anywhere may truncate the difference.
        let integers_only = !tree.preorder().iter().any(|n| n.label == "ℕ")
            && tree.preorder().iter().any(|n| n.label == "ℤ");
        let harmless = parent_of(p).is_some_and(|q| {
            matches!(q.label.as_str(), "| _ |" | "‖ _ ‖" | " _ ^ _ " | "abs _ " | "||")
                || (matches!(q.label.as_str(), " _ = _ " | " _ ≠ _ ")
                    && q.children.iter().any(|s| literal(s).is_some_and(|v| v <= 1)))
                || (q.label == " _ ∣ _ " && t.label == " _ - _ " && integers_only)
        });
        if harmless {
            continue;
        }
        let swapped = vec![t.children[1].clone(), t.children[0].clone()];
        flips.push(replace_at(tree, p, Tree::node(t.label.clone(), swapped)));
    }
    out.extend(spread(&flips).into_iter().map(|t| ("flip", t)));
    out
}

fn count_leaves(t: &Tree, name: &str) -> usize {
    if t.children.is_empty() {
        return usize::from(t.label == name);
    }
    t.children.iter().map(|c| count_leaves(c, name)).sum()
}

/// Is the node at `p` the name child of a binder (not a term)?
fn is_binder_position(tree: &Tree, p: &[usize]) -> bool {
    let Some((&last, parent)) = p.split_last() else {
        return false;
    };
    let parent = at(tree, parent);
    let quantifier = parent.label.ends_with(", _ ") && last + 1 < parent.children.len();
    (is_binder(parent) && last == 0) || quantifier
}

#[test]
fn no_meaning_changing_mutation_is_judged_equivalent() {
    let full = std::env::var_os("SOUNDNESS_FULL").is_some() || !cfg!(debug_assertions);
    let stride = if full { 1 } else { DEBUG_STRIDE };
    let metric = TransTedLite::default();
    let mut per_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    let (mut statements, mut unparsed) = (0usize, 0usize);
    let mut seen = std::collections::HashSet::new();
    let mut index = 0usize;
    for dataset in DATASETS {
        let pairs =
            read_pairs(Path::new(dataset)).unwrap_or_else(|e| panic!("cannot read {dataset}: {e}"));
        for pair in &pairs {
            for (header, text) in
                [(&pair.ref_header, &pair.ref_statement), (&pair.cand_header, &pair.cand_statement)]
            {
                if !seen.insert(text.clone()) {
                    continue;
                }
                index += 1;
                if !index.is_multiple_of(stride) {
                    continue;
                }
                let scope = Scope::read(header);
                let header = Header::parse(header);
                let Ok(statement) = parse_statement(text, &header) else {
                    unparsed += 1;
                    continue;
                };
                statements += 1;
                let original = &statement.tree;
                // Names resolved under the header, as the metric's `judge` does first.
                let resolved = resolve_tree(original, &scope).tree;
                for (kind, mutant) in mutants(original) {
                    let entry = per_kind.entry(kind).or_default();
                    entry.0 += 1;
                    let j = metric.judge_trees(&resolved, &resolve_tree(&mutant, &scope).tree);
                    if j.distance == 0 {
                        entry.1 += 1;
                        failures.push(format!(
                            "[{kind}] {}\n    original: {}\n    mutant:   {}",
                            pair.id,
                            lean_assess::metrics::transted_lite::rules::render(original),
                            lean_assess::metrics::transted_lite::rules::render(&mutant),
                        ));
                    }
                }
            }
        }
    }
    let total: usize = per_kind.values().map(|v| v.0).sum();
    let equivalent: usize = per_kind.values().map(|v| v.1).sum();
    let mut report = format!(
        "soundness harness: {statements} statements mutated ({}), {unparsed} did not parse\n",
        if full {
            "all distinct statements".to_owned()
        } else {
            format!(
                "1 in {stride} distinct statements: debug build; SOUNDNESS_FULL=1 or --release for all"
            )
        }
    );
    report.push_str(&format!(
        "soundness harness: {total} mutations, {equivalent} judged equivalent (must be 0)\n"
    ));
    for (kind, (n, eq)) in &per_kind {
        report.push_str(&format!("  {kind:<16} {n:>5} mutations, {eq} judged equivalent\n"));
    }
    for f in failures.iter().take(40) {
        report.push_str(f);
        report.push('\n');
    }
    // The counts are the harness's output (`--nocapture` shows them).
    std::io::Write::write_all(&mut std::io::stdout(), report.as_bytes()).expect("stdout");
    assert!(total > 0, "no mutation was generated");
    assert!(
        failures.is_empty(),
        "{} meaning-changing mutation(s) judged equivalent (listed above)",
        failures.len()
    );
}
