//! Moves of the theorem's binder list: `binder_reorder` (this side's binders permuted towards
//! the order of their matches on the other side), `forall_swap` (two adjacent independent
//! variable binders trade places) and `exists_imp` (an existential hypothesis and its witness
//! as a binder, either way).
//!
//! Owns the greedy binder matching and the dependency order binders keep; declared in the
//! `binders` table as statement moves. Decides nothing about when moves are tried.

use super::carriers::{Carriers, STRUCTURE_TYPES};
use super::elab;
use super::render::render;
use super::rewrite::{Applied, Rewrite};
use super::shapes::{
    app_head, binder_kind, binder_list, binder_name, binds, is_binding_node, is_leaf,
    is_prop_shaped, is_universe, mentions, mentions_outside_name, node2, quant_label, quantifier,
    rebuild_list, replace_at, BinderKind, Quant, EXPLICIT, IMP, UNKNOWN_TYPE,
};
use super::substitution::subst;
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
    let carriers = Carriers::of(tree);
    let type_variables = type_variable_names(&list.children[..k]);
    // Two variables of known types only: a binder of class type is a local instance of what
    // follows it, whatever its brackets.
    let variable = |b: &Tree| {
        (plain_variable(b, &type_variables, &carriers) || !may_be_instance(b, &carriers))
            && b.label == EXPLICIT
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
    // Dependencies: binder i must stay after every earlier binder whose name it mentions, and
    // no binder crosses one that may be an instance (a local instance serves every binder
    // after it, by type class resolution, not by name).
    let names: Vec<Option<&str>> =
        mine.iter().map(|b| binder_name(b).map(|n| n.label.as_str())).collect();
    let carriers = Carriers::of(tree);
    let type_variables = type_variable_names(mine);
    let plain: Vec<bool> =
        mine.iter().map(|b| plain_variable(b, &type_variables, &carriers)).collect();
    // A variable of a plain type is no instance (a type variable's values are no classes).
    let instance: Vec<bool> =
        mine.iter().zip(&plain).map(|(b, &p)| !p && may_be_instance(b, &carriers)).collect();
    let standalone: Vec<bool> = mine.iter().map(standalone_instance).collect();
    let fact_about_types: Vec<bool> =
        mine.iter().map(|b| prop_class_on_type_variables(b, &type_variables)).collect();
    let substructure: Vec<bool> =
        mine.iter().map(|b| substructure_variable(b, &type_variables)).collect();
    // A class whose instances are proofs, about type variables, serves no substructure's type:
    // `Subgroup G` needs `Group G`, data no proof provides.
    let serves_no_type = |inst: usize, b: usize| fact_about_types[inst] && substructure[b];
    // The list's names each binder's type reaches, through the types of the names it mentions
    // (`(h : a * b = 0)` with `(a b : R)` reaches `R`).
    let mentioned = |b: &Tree| -> Vec<usize> {
        let ty = b.children.iter().skip(usize::from(binder_name(b).is_some()));
        let mut out = Vec::new();
        for t in ty {
            for (q, n) in names.iter().enumerate() {
                if n.is_some_and(|n| mentions(t, n)) {
                    out.push(q);
                }
            }
        }
        out
    };
    let direct: Vec<Vec<usize>> = mine.iter().map(mentioned).collect();
    // What an instance can serve is a use that takes one: `Nat.card G` takes none (`Nat.card
    // (α : Type*) : ℕ`, Mathlib/SetTheory/Cardinal/Finite.lean), so `(hp : (Nat.card G).Prime)`
    // may cross `[Group G]`; `Nat.card (Subgroup.center G)` reads `Group G` and may not.
    let served_start: Vec<Vec<usize>> = mine
        .iter()
        .map(|b| {
            let types = &b.children[usize::from(binder_name(b).is_some())..];
            (0..k)
                .filter(|&q| {
                    names[q].is_some_and(|n| types.iter().any(|t| mentioned_beyond_nat_card(t, n)))
                })
                .collect()
        })
        .collect();
    let mut reach: Vec<Vec<usize>> = direct.clone();
    let mut served_reach: Vec<Vec<usize>> = served_start;
    for _ in 0..k {
        let mut grew = false;
        for r in reach.iter_mut().chain(served_reach.iter_mut()) {
            grew |= extend_once(r, &direct);
        }
        if !grew {
            break;
        }
    }
    // May the instance binder `inst` serve binder `b`: `b` reaches a name the instance is about
    // through a use that may take an instance, or the instance is about no name of the list
    // (`[Mul ℝ]`).
    let serves = |inst: usize, b: usize| {
        direct[inst].is_empty() || served_reach[b].iter().any(|q| direct[inst].contains(q))
    };
    // Binders `p < i` that must keep their order for instances' sake: an instance and a binder
    // it may serve (not a variable of a plain type, and reaching a name the instance is about),
    // unless both are instances of classes that need no instance themselves, or instances
    // about disjoint names: a goal `[AddCommGroup W]` solves mentions `W`, so it serves
    // nothing `[Module ℝ V]` needs, and no goal is solved by both (no priority between them).
    let by_instance = |i: usize, p: usize| match (instance[p], instance[i]) {
        (true, true) => !(standalone[p] && standalone[i]) && (serves(p, i) || serves(i, p)),
        (true, false) => !plain[i] && serves(p, i) && !serves_no_type(p, i),
        (false, true) => !plain[p] && serves(i, p) && !serves_no_type(i, p),
        (false, false) => false,
    };
    // Computed once (k² name lookups), not once per placement (k³ on a wide statement).
    let mut depends_on = vec![false; k * k];
    for i in 0..k {
        if clock.passed() {
            return None;
        }
        for p in 0..i {
            depends_on[i * k + p] =
                by_instance(i, p) || names[p].is_some_and(|n| mentions_outside_name(&mine[i], n));
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

/// One step of the closure of `reached` under `direct` (binder `q` reaches `direct[q]`):
/// whether it grew.
fn extend_once(reached: &mut Vec<usize>, direct: &[Vec<usize>]) -> bool {
    let more: Vec<usize> = reached
        .iter()
        .flat_map(|&q| direct[q].iter().copied())
        .filter(|q| !reached.contains(q))
        .collect();
    let grew = !more.is_empty();
    reached.extend(more);
    reached.sort_unstable();
    reached.dedup();
    grew
}

/// Does `t` mention `name` other than as the whole argument of `Nat.card`?
fn mentioned_beyond_nat_card(t: &Tree, name: &str) -> bool {
    match (t.label.as_str(), t.children.as_slice()) {
        ("Nat.card _ ", [arg]) if is_leaf(arg) => false,
        _ if is_leaf(t) => t.label == name,
        _ => t.children.iter().any(|c| mentioned_beyond_nat_card(c, name)),
    }
}

/// Heads of Mathlib's propositions that are definitions or structures, never classes (so a
/// hypothesis of one is no local instance): Mathlib/Data/Nat/Prime/Defs.lean (`Nat.Prime`),
/// Algebra/Prime/Defs.lean (`Prime`), Algebra/Group/Irreducible/Defs.lean (`structure
/// Irreducible`), Data/Nat/GCD/Basic.lean, RingTheory/Coprime/Basic.lean, Logic/Function/Defs.lean,
/// Topology/Defs/Basic.lean (`structure Continuous`, `IsOpen`, `structure IsClosed`),
/// Topology/Defs/Filter.lean, Order/Monotone/Defs.lean, Algebra/Group/Even.lean,
/// Algebra/Ring/Parity.lean, Order/Filter/Tendsto.lean, Algebra/Group/Units/Defs.lean,
/// Data/Set/Defs.lean, Data/Finset/Empty.lean, Data/Nat/ModEq.lean, Data/Int/ModEq.lean,
/// Order/Bounds/Defs.lean, Data/Real/Irrational.lean, RingTheory/Nilpotent/Defs.lean,
/// Algebra/Squarefree/Basic.lean, Analysis/Calculus/Deriv/Basic.lean, Algebra/Group/Semiconj/Defs.lean,
/// Algebra/Group/Commute/Defs.lean, Algebra/Group/Conj.lean, Algebra/Polynomial/Monic.lean,
/// Topology/UniformSpace/Defs.lean, Topology/Bornology/Basic.lean, Topology/Connected/Basic.lean,
/// Topology/Clopen.lean, Data/Set/Countable.lean, Topology/Algebra/InfiniteSum/Defs.lean,
/// Algebra/Group/Idempotent.lean, Data/Set/Function.lean, Topology/MetricSpace/Isometry.lean,
/// Topology/EMetricSpace/Lipschitz.lean, Order/Disjoint.lean, Logic/Pairwise.lean,
/// Data/Set/Subsingleton.lean, Data/Set/Pairwise/Basic.lean, Analysis/Convex/Basic.lean and
/// Function.lean, Topology/Order/LocalExtr.lean, Order/Filter/Extr.lean,
/// LinearAlgebra/LinearIndependent/Defs.lean, LinearAlgebra/Eigenspace/Basic.lean,
/// Algebra/Polynomial/Splits.lean, RingTheory/Algebraic/Defs.lean,
/// RingTheory/IntegralClosure/Defs.lean, Topology/UniformSpace/Cauchy.lean, Data/Set/Function.lean,
/// Topology/Defs/Basic.lean (`IsOpenMap`, `IsClosedMap`).
const NOT_CLASSES: [&str; 90] = [
    "IsOpenMap",
    "IsClosedMap",
    "BddAbove",
    "BddBelow",
    "Commute",
    "Continuous",
    "ContinuousAt",
    "ContinuousOn",
    "Differentiable",
    "DifferentiableAt",
    "DifferentiableOn",
    "Even",
    "Filter.Tendsto",
    "Finset.Nonempty",
    "Function.Bijective",
    "Function.Injective",
    "Function.LeftInverse",
    "Function.RightInverse",
    "Function.Surjective",
    "HasDerivAt",
    "Int.ModEq",
    "Irrational",
    "Irreducible",
    "IsClosed",
    "IsCompact",
    "IsConj",
    "IsCoprime",
    "IsGreatest",
    "IsLUB",
    "IsLeast",
    "IsNilpotent",
    "IsOpen",
    "IsPrimitiveRoot",
    "IsUnit",
    "Monotone",
    "Antitone",
    "Nat.Coprime",
    "Nat.ModEq",
    "Nat.Prime",
    "Odd",
    "Polynomial.Monic",
    "Prime",
    "SemiconjBy",
    "Set.Finite",
    "Set.Infinite",
    "Set.InjOn",
    "Set.Nonempty",
    "Squarefree",
    "StrictMono",
    "StrictAnti",
    "UniformContinuous",
    "UniformContinuousOn",
    "Bornology.IsBounded",
    "MonotoneOn",
    "AntitoneOn",
    "StrictMonoOn",
    "StrictAntiOn",
    "IsConnected",
    "IsPreconnected",
    "Dense",
    "IsClopen",
    "Set.Countable",
    "Summable",
    "HasSum",
    "IsIdempotentElem",
    "Set.MapsTo",
    "Set.SurjOn",
    "Set.BijOn",
    "Isometry",
    "LipschitzWith",
    "ContinuousWithinAt",
    "Disjoint",
    "Pairwise",
    "Set.Subsingleton",
    "Set.PairwiseDisjoint",
    "Convex",
    "ConvexOn",
    "IsLocalMin",
    "IsLocalMax",
    "IsMinOn",
    "IsMaxOn",
    "LinearIndependent",
    "Module.End.HasEigenvalue",
    "Polynomial.Splits",
    "IsAlgebraic",
    "IsIntegral",
    "Transcendental",
    "IsPreconnected",
    "CauchySeq",
    "Set.EqOn",
];

/// Is `b` an instance (or hypothesis) of a class whose instances are proofs
/// ([`binder_list::PROP_CLASSES`], `Fact` aside: its instances are about terms, and `Fact
/// p.Prime` makes `ZMod p` a field) on type variables only (`[IsSolvable G]`)?
fn prop_class_on_type_variables(b: &Tree, type_variables: &[&str]) -> bool {
    let ty = match (b.label.as_str(), b.children.as_slice()) {
        ("[ _ ]", [ty]) | (EXPLICIT, [_, ty]) => ty,
        _ => return false,
    };
    app_head(ty).is_some_and(|h| h != "Fact" && super::binder_list::is_prop_class(h))
        && ty.children.iter().all(|a| is_leaf(a) && type_variables.contains(&a.label.as_str()))
}

/// Is `b` a variable of a substructure of type variables (`(H : Subgroup G)`, `(I : Ideal
/// R)`)? Its type takes the structure's data classes (`Group G`), found from their binders.
fn substructure_variable(b: &Tree, type_variables: &[&str]) -> bool {
    let (EXPLICIT, [x, ty]) = (b.label.as_str(), b.children.as_slice()) else {
        return false;
    };
    !x.hypothesis_freecost
        && app_head(ty).is_some_and(|h| STRUCTURE_TYPES[..5].contains(&h))
        && ty.children.iter().all(|a| is_leaf(a) && type_variables.contains(&a.label.as_str()))
}

/// May binder `b` be a local instance of what follows it: an instance binder, or a binder of
/// a type not known to be a plain type or a proposition that is no class (any local of class
/// type is a local instance in Lean 4, whatever its brackets)?
fn may_be_instance(b: &Tree, c: &Carriers) -> bool {
    let ty = match (binder_kind(&b.label), b.children.as_slice()) {
        (Some(BinderKind::Instance), _) => return true,
        (Some(_), [_, ty]) => ty,
        _ => return true,
    };
    // `(x : _)`: Lean adds a local instance for a binder whose type is a class when the binder
    // is created, and a hole is none then.
    let hole = is_leaf(ty) && ty.label == UNKNOWN_TYPE;
    if hole || elab::is_type(ty, c) || is_prop_shaped(ty) || elab::is_prop(ty, c) || ty.label == IMP
    {
        return false;
    }
    let head = if is_leaf(ty) { Some(ty.label.as_str()) } else { app_head(ty) };
    !head.is_some_and(|h| !c.binds(h) && (NOT_CLASSES.contains(&h) || STRUCTURE_TYPES.contains(&h)))
}

/// Classes on one type variable whose declaration takes no instance argument, so an instance
/// binder of one elaborates the same before or after any other instance binder:
/// Mathlib/Algebra/Group/Defs.lean, Algebra/Ring/Defs.lean, Algebra/Field/Defs.lean,
/// Data/Fintype/Defs.lean, Topology/Defs/Basic.lean, Topology/MetricSpace/Pseudo/Defs.lean,
/// Order/Defs/LinearOrder.lean, Data/Finite/Defs.lean, core `DecidableEq`.
const STANDALONE_CLASSES: [&str; 24] = [
    "AddCommGroup",
    "AddCommMonoid",
    "AddGroup",
    "AddMonoid",
    "CommGroup",
    "CommMonoid",
    "CommRing",
    "CommSemiring",
    "DecidableEq",
    "Field",
    "Finite",
    "Fintype",
    "Group",
    "LinearOrder",
    "MetricSpace",
    "Monoid",
    "NormedAddCommGroup",
    "NormedField",
    "PartialOrder",
    "PseudoMetricSpace",
    "Ring",
    "Semiring",
    "TopologicalSpace",
    "Infinite",
];

/// Is `b` an instance binder of a [`STANDALONE_CLASSES`] class applied to a type variable?
fn standalone_instance(b: &Tree) -> bool {
    let ty = match (b.label.as_str(), binder_kind(&b.label), b.children.as_slice()) {
        ("[ _ ]", _, [ty]) | (_, Some(_), [_, ty]) => ty,
        _ => return false,
    };
    app_head(ty).is_some_and(|h| STANDALONE_CLASSES.contains(&h))
        && ty.children.len() == 1
        && is_leaf(&ty.children[0])
}

/// The names `binders` bind to a universe (`{G : Type*}`): the list's type variables.
fn type_variable_names(binders: &[Tree]) -> Vec<&str> {
    binders
        .iter()
        .filter(|b| b.children.get(1).is_some_and(is_universe))
        .filter_map(|b| binder_name(b).map(|n| n.label.as_str()))
        .collect()
}

/// Is `b` a variable of a type that needs no instance to elaborate: a number type, a type
/// variable (one of `type_variables`, the list's names bound to a universe), `Type*`, a hole
/// (its uses, after it, decide it), or functions and products of those?
fn plain_variable(b: &Tree, type_variables: &[&str], c: &Carriers) -> bool {
    let plain_leaf = |t: &Tree| {
        t.label == UNKNOWN_TYPE
            || is_universe(t)
            || elab::num_of_type(t).is_some()
            || type_variables.contains(&t.label.as_str())
            || elab::is_type(t, c)
    };
    fn plain(t: &Tree, leaf: &dyn Fn(&Tree) -> bool) -> bool {
        match (t.label.as_str(), t.children.as_slice()) {
            (IMP | " _ × _ ", [a, b]) => plain(a, leaf) && plain(b, leaf),
            (_, []) => leaf(t),
            _ => false,
        }
    }
    match (binder_kind(&b.label), b.children.as_slice()) {
        (Some(BinderKind::Instance), _) => false,
        (Some(_), [x, ty]) => !x.hypothesis_freecost && plain(ty, &plain_leaf),
        _ => false,
    }
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
    if app_head(t) == Some(name) {
        return true;
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
pub(super) fn uncurried(binders: &[Tree], i: usize, concl: &Tree, c: &Carriers) -> Option<Tree> {
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

/// `exists_imp, then forall_eq`: an existential hypothesis whose witness an equation in it
/// gives a variable's value (`(p) (h : ∃ r, p = 2 ^ r + 1)`) is curried
/// ([`uncurried`]) and the variable substituted ([`subst`]), as `forall_eq` does
/// where the witness is written as a binder. Only where that very hypothesis is what
/// substitutes, so that the form written curried and the one written with `∃` meet. Several
/// witnesses (`(h : ∃ a b, n = a ^ 2 + b ^ 2)`) are curried one after the other.
pub(super) fn existential_definition(
    binders: &[Tree],
    concl: &Tree,
    c: &Carriers,
) -> super::binder_list::Rewritten {
    /// Witnesses curried out of one hypothesis: `∃ a b c d, …` at most.
    const MAX_WITNESSES: usize = 4;
    for (i, b) in binders.iter().enumerate() {
        // `(h : ∃ c, b = a * c)` is `a ∣ b`: folded by `Dvd.dvd (definition)`, not curried.
        if b.children.get(1).is_some_and(|ty| super::arithmetic::dvd_folded(ty, c).is_some()) {
            continue;
        }
        let Some(mut list) = uncurried(binders, i, concl, c) else {
            continue;
        };
        // The hypothesis now stands after the witnesses curried so far.
        for witnesses in 1..MAX_WITNESSES {
            let Some((concl, binders)) = list.children.split_last() else { break };
            let Some(next) = uncurried(binders, i + witnesses, concl, c) else { break };
            list = next;
        }
        let Some((new_concl, new_binders)) = list.children.split_last() else {
            continue;
        };
        let Some((out, out_concl, hypothesis)) =
            subst(new_binders, new_concl, c, typed::fields_resolved)
        else {
            continue;
        };
        let name = binder_name(b).map(|n| n.label.as_str());
        if out.iter().any(|o| binder_name(o).map(|n| n.label.as_str()) == name) {
            continue;
        }
        return Some(("exists_imp, then forall_eq", hypothesis, rebuild_list(out, out_concl)));
    }
    None
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
