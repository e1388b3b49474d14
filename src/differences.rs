//! The main differences between a candidate and its reference, in the user's terms, from the TED
//! edit mapping: "hypothesis `h₁`: `<` where the reference has `≤`", "missing hypothesis
//! `h₂ : b = 30`", "conclusion: `x + 1` where the reference has `1 + x`".
//!
//! Owns the reading of a [`Mapping`] against the statement shape the parser produces (root
//! `theorem` → signature ` _ … : _ ` → binders then conclusion); a tree of another shape is one
//! part, "statement". Each difference carries the candidate's byte span (relative to the
//! candidate statement text) for the "Show differences" diagnostics. No I/O, no LSP JSON.

use crate::distance::{EditOp, Mapping};
use crate::trees::{render, Span, Statement, Tree};

/// One difference, ready to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub message: String,
    /// Where, in the candidate statement text (absent for something missing from it).
    pub candidate_span: Option<Span>,
}

struct Indexed<'t> {
    nodes: Vec<&'t Tree>,
    parent: Vec<Option<usize>>,
    /// Index of the top-level part (binder or conclusion) each node belongs to.
    part: Vec<Option<usize>>,
    /// Preorder id of each part's root.
    part_roots: Vec<usize>,
    source: &'t str,
    /// Where `source` starts in the spans' coordinates: spans are offsets into the text the
    /// statement was read from (a whole file, or literal text with its header), `source` is the
    /// statement alone. The root's span starts at the keyword, as `source` does.
    source_start: u32,
}

fn index(s: &Statement) -> Indexed<'_> {
    let mut nodes = Vec::new();
    let mut parent = Vec::new();
    // Same order as `Tree::preorder`: parent first, children left to right.
    let mut stack: Vec<(&Tree, Option<usize>)> = vec![(&s.tree, None)];
    while let Some((t, p)) = stack.pop() {
        let id = nodes.len();
        nodes.push(t);
        parent.push(p);
        for c in t.children.iter().rev() {
            stack.push((c, Some(id)));
        }
    }
    // The signature node: the root's only child, when the root is the declaration keyword.
    let sig = match s.tree.children.as_slice() {
        [only] if matches!(s.tree.label.as_str(), "theorem" | "lemma" | "example") => {
            let _ = only;
            Some(1)
        }
        _ => None,
    };
    let mut part = vec![None; nodes.len()];
    let mut part_roots = Vec::new();
    match sig {
        Some(sig) => {
            for id in 0..nodes.len() {
                if parent[id] == Some(sig) {
                    part_roots.push(id);
                }
                part[id] = match parent[id] {
                    Some(p) if p == sig => Some(part_roots.len() - 1),
                    Some(p) if p > sig => part[p],
                    _ => None,
                };
            }
        }
        None => {
            part_roots.push(0);
            part.iter_mut().for_each(|p| *p = Some(0));
        }
    }
    let source_start = match s.tree.label.as_str() {
        "theorem" | "lemma" | "example" => s.tree.span.map_or(0, |sp| sp.start),
        _ => 0,
    };
    Indexed { nodes, parent, part, part_roots, source: &s.source, source_start }
}

impl Indexed<'_> {
    fn is_conclusion(&self, p: usize) -> bool {
        p + 1 == self.part_roots.len()
    }

    /// "hypothesis `h₁`", "variable `x`", "conclusion", "statement".
    fn part_name(&self, p: usize) -> String {
        if self.part_roots.len() == 1 && self.nodes[0].children.len() != 1 {
            return "statement".into();
        }
        if self.is_conclusion(p) {
            return "conclusion".into();
        }
        let b = self.nodes[self.part_roots[p]];
        match b.children.first() {
            Some(n) if n.children.is_empty() => {
                let kind = if n.hypothesis_freecost { "hypothesis" } else { "variable" };
                format!("{kind} `{}`", n.label)
            }
            _ => format!("binder {}", p + 1),
        }
    }

    /// A node's text as the user wrote it (its span), else rendered from labels.
    fn text(&self, id: usize) -> String {
        let t = self.nodes[id];
        if let Some(sp) = t.span {
            let start = sp.start.checked_sub(self.source_start);
            let end = sp.end.checked_sub(self.source_start);
            if let Some(s) =
                start.zip(end).and_then(|(a, b)| self.source.get(a as usize..b as usize))
            {
                return collapse(s);
            }
        }
        render(t)
    }

    /// A binder as `name : type`, whatever its brackets.
    fn binder_text(&self, p: usize) -> String {
        let b = self.nodes[self.part_roots[p]];
        if b.children.len() == 2 && !self.is_conclusion(p) {
            let root = self.part_roots[p];
            let name_id = root + 1;
            let type_id = root + 1 + b.children[0].size();
            return format!("{} : {}", self.text(name_id), self.text(type_id));
        }
        self.text(self.part_roots[p])
    }

    fn lca(&self, ids: &[usize]) -> Option<usize> {
        let mut it = ids.iter();
        let mut acc = *it.next()?;
        for &id in it {
            let anc: Vec<usize> = self.ancestors(acc);
            let mut x = Some(id);
            while let Some(n) = x {
                if anc.contains(&n) {
                    acc = n;
                    break;
                }
                x = self.parent[n];
            }
        }
        Some(acc)
    }

    fn ancestors(&self, id: usize) -> Vec<usize> {
        let mut out = vec![id];
        let mut x = self.parent[id];
        while let Some(n) = x {
            out.push(n);
            x = self.parent[n];
        }
        out
    }
}

/// Longest piece of statement text a message quotes; longer text is shortened with `…`.
const QUOTE_CHARS: usize = 80;

fn collapse(s: &str) -> String {
    render::shorten(s, QUOTE_CHARS)
}

/// A subtree as Lean-like text (for nodes without a source span).
pub fn render(t: &Tree) -> String {
    render::lean_text(t, QUOTE_CHARS)
}

/// An operator's symbol (`" _ < _ "` → `<`, `"Real.log _ "` → `Real.log`), else the node's text.
fn symbol(t: &Tree) -> String {
    render::operator_symbol(t).unwrap_or_else(|| render(t))
}

/// The differences between two statements as a reader should see them, at most `limit`.
/// Empty only when the trees are identical, or past the TED engine's table limit.
pub fn between(reference: &Statement, candidate: &Statement, limit: usize) -> Vec<Difference> {
    crate::distance::try_ted_mapping(
        &reference.tree,
        &candidate.tree,
        crate::distance::CostModel { free_rename: true },
    )
    .map(|free| read(reference, candidate, free, limit).1)
    .unwrap_or_default()
}

/// The differences read from `free`, an optimal mapping under GTED's free renaming (so a binder
/// renamed throughout is not reported), with the mapping they were read from. That model prices
/// each renamed name alone, so it also hides a renaming the binders do not allow (`s ∩ t = t ∩ s`
/// against `s ∩ t = s ∩ t` costs nothing): when it shows nothing, the unit-cost mapping says
/// what differs, names included (not for a consistent renaming: that is no difference). Every place that shows differences (score, hover, MCP, the
/// HTML report) reads them here.
pub fn read(
    reference: &Statement,
    candidate: &Statement,
    free: Mapping,
    limit: usize,
) -> (Mapping, Vec<Difference>) {
    let shown = differences(reference, candidate, &free, limit);
    let renamed_only =
        || crate::metrics::transted_lite::rules::alpha_equivalent(&reference.tree, &candidate.tree);
    if !shown.is_empty() || renamed_only() {
        return (free, shown);
    }
    match crate::distance::try_ted_mapping(
        &reference.tree,
        &candidate.tree,
        crate::distance::CostModel { free_rename: false },
    ) {
        Ok(unit) => {
            let shown = differences(reference, candidate, &unit, limit);
            (unit, shown)
        }
        Err(_) => (free, shown),
    }
}

/// The differences, in part order (binders, then the conclusion), at most `limit` of them.
pub fn differences(
    reference: &Statement,
    candidate: &Statement,
    mapping: &Mapping,
    limit: usize,
) -> Vec<Difference> {
    let r = index(reference);
    let c = index(candidate);
    let mut r_to_c: Vec<Option<(usize, bool)>> = vec![None; r.nodes.len()];
    let mut c_to_r: Vec<Option<(usize, bool)>> = vec![None; c.nodes.len()];
    for op in &mapping.ops {
        match *op {
            EditOp::Keep { a, b } | EditOp::Rename { a, b } => {
                let renamed = matches!(op, EditOp::Rename { .. });
                if a < r.nodes.len() && b < c.nodes.len() {
                    r_to_c[a] = Some((b, renamed));
                    c_to_r[b] = Some((a, renamed));
                }
            }
            EditOp::Delete { .. } | EditOp::Insert { .. } => {}
        }
    }
    let changed_r = |id: usize| r_to_c[id].is_none_or(|(_, renamed)| renamed);
    let changed_c = |id: usize| c_to_r[id].is_none_or(|(_, renamed)| renamed);

    // Part correspondence: through the part roots' mapping, else through most mapped nodes.
    let mut c_part_of_r: Vec<Option<usize>> = vec![None; r.part_roots.len()];
    for (p, &root) in r.part_roots.iter().enumerate() {
        c_part_of_r[p] = r_to_c[root].and_then(|(b, _)| c.part[b]).or_else(|| {
            let mut votes = vec![0usize; c.part_roots.len()];
            for (part, mapped) in r.part.iter().zip(&r_to_c) {
                if *part == Some(p) {
                    if let Some(q) = mapped.and_then(|(b, _)| c.part[b]) {
                        votes[q] += 1;
                    }
                }
            }
            let (q, n) = votes.iter().enumerate().max_by_key(|(_, n)| **n)?;
            (*n > 0).then_some(q)
        });
    }
    // The conclusions correspond even when nothing inside them was mapped.
    if let (Some(rl), Some(cl)) =
        (r.part_roots.len().checked_sub(1), c.part_roots.len().checked_sub(1))
    {
        if c_part_of_r[rl].is_none() && !c_part_of_r.contains(&Some(cl)) {
            c_part_of_r[rl] = Some(cl);
        }
    }
    let mut c_matched = vec![false; c.part_roots.len()];
    for q in c_part_of_r.iter().flatten() {
        c_matched[*q] = true;
    }

    // Candidate-part order, with missing reference parts placed where they were.
    let mut out: Vec<(usize, Difference)> = Vec::new();
    for (p, q) in c_part_of_r.iter().enumerate() {
        let Some(q) = *q else {
            let what = if r.is_conclusion(p) { "conclusion" } else { "hypothesis" };
            let kind = if r.is_conclusion(p) {
                what.to_string()
            } else {
                r.part_name(p).split(' ').next().unwrap_or("hypothesis").to_string()
            };
            out.push((
                p * 2,
                Difference {
                    message: format!("missing {kind} `{}`", r.binder_text(p)),
                    candidate_span: None,
                },
            ));
            continue;
        };
        let rs: Vec<usize> =
            (0..r.nodes.len()).filter(|&id| r.part[id] == Some(p) && changed_r(id)).collect();
        let cs: Vec<usize> =
            (0..c.nodes.len()).filter(|&id| c.part[id] == Some(q) && changed_c(id)).collect();
        if rs.is_empty() && cs.is_empty() {
            continue;
        }
        let name = c.part_name(q);
        let (message, at) = match (rs.as_slice(), cs.as_slice()) {
            ([a], [b]) if r_to_c[*a].map(|(x, _)| x) == Some(*b) => (
                format!(
                    "{name}: `{}` where the reference has `{}`",
                    symbol(c.nodes[*b]),
                    symbol(r.nodes[*a])
                ),
                Some(*b),
            ),
            ([], _) => {
                let l = c.lca(&cs).expect("BUG: cs is non-empty");
                (format!("{name}: `{}` is not in the reference", c.text(l)), Some(l))
            }
            (_, []) => {
                let l = r.lca(&rs).expect("BUG: rs is non-empty");
                let at = r_to_c[r.parent[l].unwrap_or(l)].map(|(b, _)| b);
                (format!("{name}: the reference also has `{}`", r.text(l)), at)
            }
            _ => {
                let mut lc = c.lca(&cs).expect("BUG: cs is non-empty");
                let mut lr = r.lca(&rs).expect("BUG: rs is non-empty");
                // A moved subterm (deleted here, inserted there) reads the same on both sides:
                // widen to the enclosing terms until they differ, staying within the part.
                while c.text(lc) == r.text(lr) {
                    match (c.parent[lc], r.parent[lr]) {
                        (Some(pc), Some(pr)) if c.part[pc] == Some(q) && r.part[pr] == Some(p) => {
                            lc = pc;
                            lr = pr;
                        }
                        _ => break,
                    }
                }
                (
                    format!("{name}: `{}` where the reference has `{}`", c.text(lc), r.text(lr)),
                    Some(lc),
                )
            }
        };
        out.push((
            q * 2 + 1,
            Difference { message, candidate_span: at.and_then(|id| c.nodes[id].span) },
        ));
    }
    for (q, matched) in c_matched.iter().enumerate() {
        if *matched {
            continue;
        }
        let kind = if c.is_conclusion(q) {
            "conclusion".to_string()
        } else {
            c.part_name(q).split(' ').next().unwrap_or("hypothesis").to_string()
        };
        out.push((
            q * 2 + 1,
            Difference {
                message: format!("extra {kind} `{}` (not in the reference)", c.binder_text(q)),
                candidate_span: c.nodes[c.part_roots[q]].span,
            },
        ));
    }
    out.sort_by_key(|(k, _)| *k);
    out.into_iter().map(|(_, d)| d).take(limit).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Free renaming maps `t ∩ s` onto `s ∩ t` for nothing; what is shown falls back to unit
    /// cost, and a renaming the binders allow still shows nothing.
    #[test]
    fn a_renaming_the_binders_do_not_allow_is_still_a_difference() {
        use crate::trees::parse::{parse_statement, Header};
        let st = |s: &str| parse_statement(s, &Header::default()).unwrap();
        let r = st("theorem a (s t : Set ℕ) : s ∩ t = t ∩ s");
        let c = st("theorem a (s t : Set ℕ) : s ∩ t = s ∩ t");
        let shown: Vec<String> = between(&r, &c, 10).into_iter().map(|d| d.message).collect();
        assert!(
            shown.iter().any(|m| m.contains("`s ∩ t` where the reference has `t ∩ s`")),
            "{shown:?}"
        );
        let renamed = st("theorem a (u v : Set ℕ) : u ∩ v = v ∩ u");
        assert!(between(&r, &renamed, 10).is_empty());
    }

    fn var(n: &str) -> Tree {
        Tree::bound_variable(n)
    }
    fn hyp(n: &str) -> Tree {
        Tree::hypothesis(n)
    }
    fn op(l: &str, a: Tree, b: Tree) -> Tree {
        Tree::node(l, vec![a, b])
    }
    fn stmt(binders: Vec<Tree>, concl: Tree) -> Statement {
        let label = format!("{}: _ ", " _ ".repeat(binders.len()));
        let mut ch = binders;
        ch.push(concl);
        Statement {
            keyword: "theorem".into(),
            name: Some("t".into()),
            source: String::new(),
            tree: Tree::node("theorem", vec![Tree::node(label, ch)]),
            unparsed: vec![],
        }
    }

    /// A mapping built by matching preorder positions of equal shape, renaming where labels
    /// differ, plus explicit deletes/inserts: enough to exercise the reading of mappings.
    fn ops(
        pairs: &[(usize, usize)],
        r: &Statement,
        c: &Statement,
        del: &[usize],
        ins: &[usize],
    ) -> Mapping {
        let rn = r.tree.preorder();
        let cn = c.tree.preorder();
        let mut ops = Vec::new();
        for &(a, b) in pairs {
            if rn[a].label == cn[b].label {
                ops.push(EditOp::Keep { a, b });
            } else {
                ops.push(EditOp::Rename { a, b });
            }
        }
        ops.extend(del.iter().map(|&a| EditOp::Delete { a }));
        ops.extend(ins.iter().map(|&b| EditOp::Insert { b }));
        Mapping { distance: 0, ops }
    }

    #[test]
    fn relation_changed_missing_hypothesis_and_swapped_conclusion() {
        // ref:  (x : ℝ) (h₁ : x ≤ 1) (h₂ : x = 30) : x + 1 = 2
        // cand: (x : ℝ) (h₁ : x < 1)              : 1 + x = 2
        let r = stmt(
            vec![
                op(" _ : _ ", var("x"), Tree::leaf("ℝ")),
                op(" _ : _ ", hyp("h₁"), op(" _ ≤ _ ", var("x"), Tree::leaf("1"))),
                op(" _ : _ ", hyp("h₂"), op(" _ = _ ", var("x"), Tree::leaf("30"))),
            ],
            op(" _ = _ ", op(" _ + _ ", var("x"), Tree::leaf("1")), Tree::leaf("2")),
        );
        let c = stmt(
            vec![
                op(" _ : _ ", var("x"), Tree::leaf("ℝ")),
                op(" _ : _ ", hyp("h₁"), op(" _ < _ ", var("x"), Tree::leaf("1"))),
            ],
            op(" _ = _ ", op(" _ + _ ", Tree::leaf("1"), var("x")), Tree::leaf("2")),
        );
        // ref preorder: 0 theorem,1 sig,2 b,3 x,4 ℝ,5 b,6 h₁,7 ≤,8 x,9 1,10 b,11 h₂,12 =,13 x,14 30,
        //               15 =,16 +,17 x,18 1,19 2
        // cand preorder: 0 theorem,1 sig,2 b,3 x,4 ℝ,5 b,6 h₁,7 <,8 x,9 1,10 =,11 +,12 1,13 x,14 2
        let m = ops(
            &[
                (0, 0),
                (1, 1),
                (2, 2),
                (3, 3),
                (4, 4),
                (5, 5),
                (6, 6),
                (7, 7),
                (8, 8),
                (9, 9),
                (15, 10),
                (16, 11),
                (17, 12),
                (18, 13),
                (19, 14),
            ],
            &r,
            &c,
            &[10, 11, 12, 13, 14],
            &[],
        );
        let d: Vec<String> = differences(&r, &c, &m, 10).into_iter().map(|d| d.message).collect();
        assert_eq!(
            d,
            [
                "hypothesis `h₁`: `<` where the reference has `≤`",
                "missing hypothesis `h₂ : x = 30`",
                "conclusion: `1 + x` where the reference has `x + 1`",
            ]
        );
    }

    #[test]
    fn extra_binder_and_identical_statements() {
        let r = stmt(vec![], Tree::leaf("True"));
        let c = stmt(vec![op(" _ : _ ", var("n"), Tree::leaf("ℕ"))], Tree::leaf("True"));
        let m = ops(&[(0, 0), (1, 1), (2, 5)], &r, &c, &[], &[2, 3, 4]);
        let d = differences(&r, &c, &m, 10);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].message, "extra variable `n : ℕ` (not in the reference)");
        let same = ops(&[(0, 0), (1, 1), (2, 2)], &r, &r, &[], &[]);
        assert!(differences(&r, &r, &same, 10).is_empty());
    }

    #[test]
    fn spans_give_the_users_text() {
        let mut c = stmt(vec![], op(" _ = _ ", var("x"), Tree::leaf("1")));
        c.source = "theorem t : x  =  1".into();
        c.tree.children[0].children[0].span = Some(Span { start: 12, end: 19 });
        let r = stmt(vec![], Tree::leaf("False"));
        let m = ops(&[(0, 0), (1, 1)], &r, &c, &[2], &[2, 3, 4]);
        let d = differences(&r, &c, &m, 10);
        assert_eq!(d[0].message, "conclusion: `x = 1` where the reference has `False`");
        assert_eq!(d[0].candidate_span, Some(Span { start: 12, end: 19 }));
    }

    #[test]
    fn render_fills_holes_and_parenthesises_operators() {
        let t = op(
            " _ * _ ",
            op(" _ + _ ", var("a"), var("b")),
            Tree::node("Real.log _ ", vec![var("c")]),
        );
        assert_eq!(render(&t), "(a + b) * Real.log c");
    }

    fn arb_tree() -> impl proptest::strategy::Strategy<Value = Tree> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Tree::leaf("x")),
            Just(var("y")),
            Just(hyp("h")),
            Just(Tree::leaf("1")),
        ];
        leaf.prop_recursive(4, 24, 3, |inner| {
            (
                prop_oneof![
                    Just(" _ + _ "),
                    Just(" _ : _ "),
                    Just(" _ < _ "),
                    Just("f _ "),
                    Just(": _ ")
                ],
                proptest::collection::vec(inner, 0..3),
            )
                .prop_map(|(l, ch)| Tree::node(l, ch))
        })
    }

    proptest::proptest! {
        /// Any pair of trees (statement-shaped or not) with its real optimal mapping: no panic,
        /// and identical trees have no differences.
        #[test]
        fn any_trees_any_mapping_never_panic(a in arb_tree(), b in arb_tree(), wrap in proptest::bool::ANY) {
            let st = |t: Tree| Statement {
                keyword: "theorem".into(),
                name: None,
                source: "theorem t : x".into(),
                tree: if wrap { Tree::node("theorem", vec![t]) } else { t },
                unparsed: vec![],
            };
            let (r, c) = (st(a), st(b));
            let m = crate::distance::ted_mapping(&r.tree, &c.tree, crate::distance::CostModel { free_rename: true });
            let _ = differences(&r, &c, &m, 50);
            let same = crate::distance::ted_mapping(&r.tree, &r.tree, crate::distance::CostModel::default());
            proptest::prop_assert!(differences(&r, &r, &same, 50).is_empty());
        }
    }
}
