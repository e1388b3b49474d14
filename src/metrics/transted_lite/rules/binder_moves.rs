//! Moves of the theorem's binder list: `binder_reorder` (this side's binders permuted towards
//! the order of their matches on the other side), `forall_swap` (two adjacent independent
//! variable binders trade places) and `exists_imp` (an existential hypothesis and its witness
//! as a binder, either way).
//!
//! Owns the greedy binder matching and the dependency order binders keep; declared in the
//! `binders` table as statement moves. Decides nothing about when moves are tried.

use super::carriers::Carriers;
use super::elab;
use super::render::render;
use super::rewrite::{Applied, Rewrite};
use super::shapes::{
    binder_kind, binder_list, binder_name, binds, is_binding_node, is_leaf, is_prop_shaped,
    mentions, mentions_outside_name, node2, quant_label, quantifier, rebuild_list, replace_at,
    BinderKind, Quant, EXPLICIT, UNKNOWN_TYPE,
};
use super::typed;
use crate::metrics::transted_lite::clock::Clock;
use crate::trees::Tree;

/// `binder_reorder` as a statement move ([`binder_reorder_within`]).
pub(super) fn reorder_binders(
    tree: &Tree,
    other: &Tree,
    distance: &mut dyn FnMut(&Tree, &Tree) -> u32,
    clock: Clock,
    out: &mut Vec<Rewrite>,
) {
    if binds_a_name_twice(tree) {
        return;
    }
    if let Some(r) = binder_reorder_within(tree, other, distance, clock) {
        out.push(r);
    }
}

/// Does the theorem's binder list bind one name twice (`(x : ℕ) (x : ℝ)`) and use it? Later
/// binders shadow earlier ones, so their order decides which one each use means: no
/// reordering. A name no type and no conclusion mentions (two hypotheses `hn`) is no use.
fn binds_a_name_twice(tree: &Tree) -> bool {
    let Some((list, _)) = binder_list(tree) else {
        return false;
    };
    let (concl, binders) = list.children.split_last().expect("a binder list has a conclusion");
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for (i, b) in binders.iter().enumerate() {
        let names: Vec<&Tree> = if b.children.len() > 2 && binder_kind(&b.label).is_some() {
            b.children[..b.children.len() - 1].iter().collect()
        } else {
            binder_name(b).into_iter().collect()
        };
        for n in names {
            // Used anywhere after the first binder of the name.
            let used = |first: usize| {
                binders[first..].iter().any(|later| mentions_outside_name(later, &n.label))
                    || mentions(concl, &n.label)
            };
            if let Some(&(_, first)) = seen.iter().find(|(name, _)| *name == n.label) {
                if used(first) {
                    return true;
                }
            }
            seen.push((&n.label, i));
        }
    }
    false
}

/// `forall_swap` on the theorem's binders as a statement move ([`binder_swaps`]).
pub(super) fn swap_binders(
    tree: &Tree,
    _: &Tree,
    _: &mut dyn FnMut(&Tree, &Tree) -> u32,
    clock: Clock,
    out: &mut Vec<Rewrite>,
) {
    if !binds_a_name_twice(tree) {
        binder_swaps(tree, clock, out);
    }
}

/// `forall_swap` on the theorem's binders: two adjacent variable binders trade places when the
/// second's type does not mention the first. `binder_reorder` aligns binders by their best
/// matches, which for binders written the same (`(a b : G)` on both sides) is the identity; the
/// swap is what lets `(a b : G) : f (a * b) = 1` meet `(a b : G) : f (b * a) = 1` up to
/// renaming.
fn binder_swaps(tree: &Tree, clock: Clock, out: &mut Vec<Rewrite>) {
    let Some((list, path)) = binder_list(tree) else {
        return;
    };
    let k = list.children.len() - 1;
    let variable = |b: &Tree| {
        b.label == EXPLICIT
            && b.children.len() == 2
            && is_leaf(&b.children[0])
            && !b.children[0].hypothesis_freecost
            && !is_prop_shaped(&b.children[1])
    };
    for i in 0..k.saturating_sub(1) {
        if clock.passed() {
            return;
        }
        let (a, b) = (&list.children[i], &list.children[i + 1]);
        if !variable(a) || !variable(b) || mentions(&b.children[1], &a.children[0].label) {
            continue;
        }
        let mut children = list.children.clone();
        children.swap(i, i + 1);
        let at = format!("{} {}", render(a), render(b));
        out.push(Rewrite {
            applied: Applied { rule: "forall_swap", at },
            tree: replace_at(tree, &path, Tree::node(list.label.clone(), children)),
        });
    }
}

/// [`binder_reorder_within`] with no deadline.
#[cfg(test)]
pub(super) fn binder_reorder(
    tree: &Tree,
    other: &Tree,
    distance: &mut dyn FnMut(&Tree, &Tree) -> u32,
) -> Option<Rewrite> {
    binder_reorder_within(tree, other, distance, Clock::unlimited())
}

/// `binder_reorder`: permute this side's binders towards the order of their best matches on the
/// other side (greedy matching by distance), keeping every binder after the binders whose names
/// it mentions. Gives up (`None`) once `clock` has run out (read before each binder pair is
/// measured and each binder is placed).
fn binder_reorder_within(
    tree: &Tree,
    other: &Tree,
    distance: &mut dyn FnMut(&Tree, &Tree) -> u32,
    clock: Clock,
) -> Option<Rewrite> {
    let (list, path) = binder_list(tree)?;
    let (other_list, _) = binder_list(other)?;
    let k = list.children.len() - 1;
    let m = other_list.children.len() - 1;
    if k < 2 || m == 0 {
        return None;
    }
    let mine = &list.children[..k];
    let theirs = &other_list.children[..m];
    // Cost, then whether the types differ as written and whether the names differ (free
    // renaming makes `(h : b < a + c)` as close to `(h' : a < b + c)` as to its own copy, and all
    // variable binders of one type equally close; the same text is the better guess), then
    // position.
    let mut costs: Vec<(u32, bool, bool, usize, usize)> = Vec::with_capacity(k * m);
    for (i, a) in mine.iter().enumerate() {
        for (j, b) in theirs.iter().enumerate() {
            if clock.passed() {
                return None;
            }
            let names_differ = binder_name(a).map(|n| &n.label) != binder_name(b).map(|n| &n.label);
            let types_differ = a.children.get(1..) != b.children.get(1..);
            costs.push((distance(a, b), types_differ, names_differ, i, j));
        }
    }
    costs.sort_unstable();
    let mut matched_mine: Vec<Option<usize>> = vec![None; k];
    let mut taken = vec![false; m];
    for (_, _, _, i, j) in costs {
        if matched_mine[i].is_none() && !taken[j] {
            matched_mine[i] = Some(j);
            taken[j] = true;
        }
    }
    // Desired rank: the match's position; unmatched binders stay just after their predecessor.
    let mut rank = vec![0f64; k];
    let mut last = -1.0f64;
    for i in 0..k {
        rank[i] = match matched_mine[i] {
            Some(j) => j as f64,
            None => last + 0.5,
        };
        last = rank[i];
    }
    // Dependencies: binder i must stay after every earlier binder whose name it mentions.
    let names: Vec<Option<&str>> =
        mine.iter().map(|b| binder_name(b).map(|n| n.label.as_str())).collect();
    // Computed once (k² name lookups), not once per placement (k³ on a wide statement).
    let mut depends_on = vec![false; k * k];
    for i in 0..k {
        if clock.passed() {
            return None;
        }
        for p in 0..i {
            depends_on[i * k + p] = names[p].is_some_and(|n| mentions_outside_name(&mine[i], n));
        }
    }
    let depends = |i: usize, p: usize| -> bool { depends_on[i * k + p] };
    let mut placed = vec![false; k];
    let mut order = Vec::with_capacity(k);
    while order.len() < k {
        if clock.passed() {
            return None;
        }
        let next = (0..k)
            .filter(|&i| !placed[i] && (0..k).all(|p| placed[p] || !depends(i, p)))
            .min_by(|&a, &b| rank[a].total_cmp(&rank[b]).then(a.cmp(&b)))?;
        placed[next] = true;
        order.push(next);
    }
    if order.iter().enumerate().all(|(pos, &i)| pos == i) {
        return None;
    }
    let mut children: Vec<Tree> = order.iter().map(|&i| mine[i].clone()).collect();
    children.push(list.children[k].clone());
    let new_list = Tree::node(list.label.clone(), children);
    let at = order.iter().map(|&i| names[i].unwrap_or("_")).collect::<Vec<_>>().join(" ");
    Some(Rewrite {
        applied: Applied { rule: "binder_reorder", at: format!("binders reordered to: {at}") },
        tree: replace_at(tree, &path, new_list),
    })
}

/// `exists_imp` (Lean core, `Init/PropLemmas.lean`: `((∃ x, p x) → b) ↔ ∀ x, p x → b`) on the
/// theorem's hypotheses, both ways: `(h : ∃ x : T, p x)` is `(x : T) (h : p x)` when nothing
/// after them names `h` or a free `x`. A move, not a canonical form: which side is written
/// curried is the writer's choice, and an existential some other rule folds (`∃ r, n = r + r`
/// is `Even n`) must stay one. The witness must be no class instance: as a theorem binder it
/// is a local instance of everything after it, not only of `p`. So its type is written, or
/// decided by its uses, and is one elaboration-lite knows is a type (a number type, a type
/// variable, `Set α`, a function type, …).
pub(super) fn exists_hypotheses(
    tree: &Tree,
    _: &Tree,
    _: &mut dyn FnMut(&Tree, &Tree) -> u32,
    clock: Clock,
    out: &mut Vec<Rewrite>,
) {
    let Some((list, path)) = binder_list(tree) else {
        return;
    };
    let carriers = Carriers::of(tree);
    let (concl, binders) = list.children.split_last().expect("a binder list has a conclusion");
    for i in 0..binders.len() {
        if clock.passed() {
            return;
        }
        let moved =
            [uncurried(binders, i, concl, &carriers), curried(binders, i, concl, &carriers)];
        for new_list in moved.into_iter().flatten() {
            out.push(Rewrite {
                applied: Applied { rule: "exists_imp", at: render(&binders[i]) },
                tree: replace_at(tree, &path, new_list),
            });
        }
    }
}

/// The type of `x`, written `ty` (`_` when left to elaboration) and used in `scope`, when it is
/// one elaboration-lite knows is no class: written, or decided by the uses (`deciders` as the
/// binder's canonical form reads them).
fn plain_witness_type(
    x: &str,
    ty: &Tree,
    scope: &Tree,
    c: &Carriers,
    deciders: typed::Deciders,
) -> Option<Tree> {
    let ty = if is_leaf(ty) && ty.label == UNKNOWN_TYPE {
        typed::infer_binder_type(x, scope, c, deciders)?
    } else {
        ty.clone()
    };
    elab::is_type(&ty, c).then_some(ty)
}

/// The written type a binder of `x` keeps in canonical form: none (`_`, `∃ x,`) where `scope`
/// decides `ty` by itself (`binder type (elaboration)`), else `ty`.
fn kept_type(x: &str, ty: Tree, scope: &Tree, c: &Carriers, deciders: typed::Deciders) -> Tree {
    if typed::infer_binder_type(x, scope, c, deciders).as_ref() == Some(&ty) {
        Tree::leaf(UNKNOWN_TYPE)
    } else {
        ty
    }
}

/// Is `name` free in `t` (not under a binder of that name)?
fn free_in(t: &Tree, name: &str) -> bool {
    if is_leaf(t) {
        return t.label == name;
    }
    if quantifier(t).is_some() || is_binding_node(&t.label) {
        let (body, bound) = t.children.split_last().expect("a binding node has a body");
        if bound.iter().any(|b| binds(b, name)) {
            // Only the binders' types are outside the binding.
            return bound.iter().any(|b| b.children.iter().skip(1).any(|c| free_in(c, name)));
        }
        return bound.iter().chain(std::iter::once(body)).any(|c| free_in(c, name));
    }
    t.children.iter().any(|c| free_in(c, name))
}

/// Is `name` free after binder `i`: in a later binder or the conclusion?
fn free_after(binders: &[Tree], i: usize, concl: &Tree, name: &str) -> bool {
    binders[i + 1..].iter().any(|b| free_in(b, name)) || free_in(concl, name)
}

/// The hypothesis `(h : ∃ x, p)`'s name and proposition, and the witness as a binder `(x : T)`.
fn existential(b: &Tree) -> Option<(&Tree, Tree, &Tree)> {
    let (EXPLICIT, [h, ty]) = (b.label.as_str(), b.children.as_slice()) else {
        return None;
    };
    if !h.hypothesis_freecost || quantifier(ty) != Some(Quant::Exists) || ty.children.len() != 2 {
        return None;
    }
    let (witness, body) = (&ty.children[0], &ty.children[1]);
    let binder = match (binder_kind(&witness.label), witness.children.as_slice()) {
        (Some(BinderKind::Explicit), [x, _]) if is_leaf(x) => witness.clone(),
        (None, []) => node2(EXPLICIT, witness.clone(), Tree::leaf(UNKNOWN_TYPE)),
        _ => return None,
    };
    Some((h, binder, body))
}

/// `(h : ∃ x : T, p x)` → `(x : T) (h : p x)`, `T` written as a theorem binder's canonical form
/// writes it.
fn uncurried(binders: &[Tree], i: usize, concl: &Tree, c: &Carriers) -> Option<Tree> {
    let (h, witness, body) = existential(&binders[i])?;
    let (x, ty) = (&witness.children[0], &witness.children[1]);
    let ty = plain_witness_type(&x.label, ty, body, c, typed::Deciders::TheoremBinders)?;
    if free_after(binders, i, concl, &x.label) || free_after(binders, i, concl, &h.label) {
        return None;
    }
    let hypothesis = node2(EXPLICIT, h.clone(), body.clone());
    let mut rest = vec![hypothesis.clone()];
    rest.extend_from_slice(&binders[i + 1..]);
    rest.push(concl.clone());
    let scope = Tree::node("·", rest);
    let kept = kept_type(&x.label, ty, &scope, c, typed::Deciders::Fixed);
    let mut out: Vec<Tree> = binders[..i].to_vec();
    out.push(node2(EXPLICIT, x.clone(), kept));
    out.push(hypothesis);
    out.extend_from_slice(&binders[i + 1..]);
    Some(rebuild_list(out, concl.clone()))
}

/// `(x : T) (h : p x)` → `(h : ∃ x : T, p x)`, `T` written as an `∃` binder's canonical form
/// writes it.
fn curried(binders: &[Tree], i: usize, concl: &Tree, c: &Carriers) -> Option<Tree> {
    let (var, hyp) = (&binders[i], binders.get(i + 1)?);
    let (EXPLICIT, [x, ty]) = (var.label.as_str(), var.children.as_slice()) else {
        return None;
    };
    let (EXPLICIT, [h, p]) = (hyp.label.as_str(), hyp.children.as_slice()) else {
        return None;
    };
    if !is_leaf(x) || x.hypothesis_freecost || !h.hypothesis_freecost || !free_in(p, &x.label) {
        return None;
    }
    let mut rest: Vec<Tree> = binders[i + 1..].to_vec();
    rest.push(concl.clone());
    let scope = Tree::node("·", rest);
    let ty = plain_witness_type(&x.label, ty, &scope, c, typed::Deciders::Fixed)?;
    if free_after(binders, i + 1, concl, &x.label) || free_after(binders, i + 1, concl, &h.label) {
        return None;
    }
    let witness = match kept_type(&x.label, ty, p, c, typed::Deciders::TheoremBinders) {
        kept if is_leaf(&kept) && kept.label == UNKNOWN_TYPE => x.clone(),
        kept => node2(EXPLICIT, x.clone(), kept),
    };
    let exists = Tree::node(quant_label(Quant::Exists), vec![witness, p.clone()]);
    let mut out: Vec<Tree> = binders[..i].to_vec();
    out.push(node2(EXPLICIT, h.clone(), exists));
    out.extend_from_slice(&binders[i + 2..]);
    Some(rebuild_list(out, concl.clone()))
}
