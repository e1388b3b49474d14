//! Canonical rules on the theorem's binder list `(b₁) … (bₖ) : concl`: instance binders about
//! terms, `binder_split`, `implicit_binder`, `type variable in front`, `Nat.zero_le`,
//! `and_imp`, `and_self`, `forall_eq` (through `substitution`), `intro` and
//! `binder type (elaboration)`.
//!
//! Each is a procedure the `binders` table declares, in the order they are tried; nothing here
//! decides that order or when the list is visited (the canonical pass does).

use super::carriers::Carriers;
use super::render::render;
use super::shapes::rebuild_list;
use super::substitution::{subst, subst_value};

use super::shapes::{
    app_head, auto_bound_binder, binder_kind, binder_name, count_leaf, is_auto_bound, is_false,
    is_leaf, is_prop_shaped_or_applied, is_type_variable, is_universe, leaves, literal, mentions,
    mentions_outside_name, named_after, node2, quantifier, BinderKind, Quant, AND,
    ANONYMOUS_HYPOTHESIS, EXPLICIT, IMP, UNKNOWN_TYPE,
};
use super::shapes::{binds_inside, replace};
use super::{binders_elided, elab, typed};
use crate::trees::Tree;

/// Classes whose instances are proofs (`class C … : Prop`): an instance binder `[C G]` is the
/// hypothesis `(h : C G)` with another binder info. Data classes (`Group`, `Fintype`,
/// `DecidableEq`) are not here: `[Fintype G]` is not `(h : Finite G)`. Nor are `CharP` and
/// `CharZero`, which the typed rules read as class facts about their type.
const PROP_CLASSES: [(&str, &str); 20] = [
    ("IsSolvable", "Mathlib/GroupTheory/Solvable.lean: class IsSolvable : Prop"),
    ("IsSimpleGroup", "Mathlib/GroupTheory/Subgroup/Simple.lean: class IsSimpleGroup : Prop"),
    ("IsCyclic", "Mathlib/GroupTheory/SpecificGroups/Cyclic.lean: class IsCyclic … : Prop"),
    ("Nontrivial", "Mathlib/Logic/Nontrivial/Defs.lean: class Nontrivial (α) : Prop"),
    ("Finite", "Mathlib/Data/Finite/Defs.lean: class inductive Finite (α) : Prop"),
    ("Infinite", "Mathlib/Data/Finite/Defs.lean: class Infinite (α) : Prop"),
    ("Countable", "Mathlib/Data/Countable/Defs.lean: class Countable (α) : Prop"),
    ("Nonempty", "Lean core, Init/Prelude.lean: class inductive Nonempty (α) : Prop"),
    ("IsDomain", "Mathlib/Algebra/Ring/Defs.lean: class IsDomain (α) : Prop"),
    ("NoZeroDivisors", "Mathlib/Algebra/GroupWithZero/Defs.lean: class NoZeroDivisors : Prop"),
    ("IsAlgClosed", "Mathlib/FieldTheory/IsAlgClosed/Basic.lean: class IsAlgClosed : Prop"),
    ("Fact", "Mathlib/Logic/Basic.lean: class Fact (p : Prop) : Prop"),
    ("T1Space", "Mathlib/Topology/Separation/Basic.lean: class T1Space (X) [TopologicalSpace X] : Prop"),
    ("T2Space", "Mathlib/Topology/Separation/Hausdorff.lean: class T2Space (X) [TopologicalSpace X] : Prop"),
    ("RegularSpace", "Mathlib/Topology/Separation/Regular.lean: class RegularSpace (X) [TopologicalSpace X] : Prop"),
    ("NormalSpace", "Mathlib/Topology/Separation/Regular.lean: class NormalSpace (X) [TopologicalSpace X] : Prop"),
    ("CompactSpace", "Mathlib/Topology/Compactness/Compact.lean: class CompactSpace (X) [TopologicalSpace X] : Prop"),
    ("LocallyCompactSpace", "Mathlib/Topology/Compactness/LocallyCompact.lean: class LocallyCompactSpace (X) [TopologicalSpace X] : Prop"),
    ("ConnectedSpace", "Mathlib/Topology/Connected/Basic.lean: class ConnectedSpace (α) [TopologicalSpace α] : Prop"),
    ("CompleteSpace", "Mathlib/Topology/UniformSpace/Cauchy.lean: class CompleteSpace (α) [UniformSpace α] : Prop"),
];

/// Classes about terms (`[N.Normal]`, `[Fact p.Prime]`): the last component of the class's name,
/// written as a function (`Subgroup.Normal N`) or by field notation (`N.Normal`). A Prop that is
/// not a class (`[Nat.Prime p]`, `[Irreducible f]`) is rejected by Lean ("invalid binder
/// annotation, type is not a class instance"), so such a binder is never read as a hypothesis:
/// its statement does not elaborate.
const TERM_CLASSES: [(&str, &str); 7] = [
    ("Normal", "Mathlib/Algebra/Group/Subgroup/Defs.lean: structure Normal : Prop, attribute [class] Normal"),
    ("Characteristic", "Mathlib/GroupTheory/Subgroup/Characteristic.lean: class Characteristic : Prop"),
    ("FiniteIndex", "Mathlib/GroupTheory/Index.lean: class FiniteIndex : Prop"),
    ("IsCommutative", "Mathlib/Algebra/Group/Subgroup/Defs.lean: class IsCommutative : Prop"),
    ("IsPrime", "Mathlib/RingTheory/Ideal/Prime.lean: class IsPrime (I : Ideal α) : Prop"),
    ("IsMaximal", "Mathlib/RingTheory/Ideal/Maximal.lean: class IsMaximal (I : Ideal α) : Prop"),
    ("NeZero", "Lean core, Init/Prelude.lean: class NeZero (n : R) : Prop"),
];

/// Is `ty` an instance of a class about terms ([`TERM_CLASSES`], or [`PROP_CLASSES`]' `Fact`)?
fn term_class(ty: &Tree) -> bool {
    // Field notation on a compound receiver is the node ` _ .Normal`.
    let head = match ty.label.strip_prefix(" _ .") {
        Some(field) => Some(field),
        None if is_leaf(ty) => Some(ty.label.as_str()),
        None => app_head(ty),
    };
    head.is_some_and(|h| {
        let last = h.rsplit('.').next().unwrap_or(h);
        TERM_CLASSES.iter().any(|(c, _)| *c == last) || prop_class(ty)
    })
}

/// Is `head` a class whose instances are proofs ([`PROP_CLASSES`])?
pub(super) fn is_prop_class(head: &str) -> bool {
    PROP_CLASSES.iter().any(|(c, _)| *c == head)
}

/// Is `ty` an instance of a class whose instances are proofs ([`PROP_CLASSES`])?
fn prop_class(ty: &Tree) -> bool {
    let head = if is_leaf(ty) { Some(ty.label.as_str()) } else { app_head(ty) };
    head.is_some_and(|h| PROP_CLASSES.iter().any(|(c, _)| *c == h))
}

/// Does `ty` mention bound names, all of them bound in `before` with a written type that is
/// not a universe (term variables, not type variables)?
fn about_terms_only(ty: &Tree, before: &[Tree]) -> bool {
    let binder_of = |n: &str| before.iter().find(|b| binder_name(b).is_some_and(|x| x.label == n));
    let mut names = Vec::new();
    leaves(ty, &mut names);
    names.retain(|n| binder_of(n).is_some());
    !names.is_empty()
        && names.iter().all(|n| {
            binder_of(n).is_some_and(|b| {
                b.label == EXPLICIT
                    && b.children.len() == 2
                    && !is_universe(&b.children[1])
                    && b.children[1].label != UNKNOWN_TYPE
            })
        })
}

/// What a binder-list rule gives: the lemma, the text of what it rewrote and the new list.
pub(super) type Rewritten = Option<(&'static str, String, Tree)>;

/// `instance binder (binder info)`: an instance binder about terms (`[N.Normal]`,
/// `[Fact p.Prime]`, `[h : (H.subgroupOf K).Normal]`) is a hypothesis with another binder info:
/// `(h✝ : N.Normal)`, as `implicit_binder` does for `{x}`. One about types (`[Group G]`,
/// `[CharP F p]`) stays an instance, so that the class facts the other rules read keep their
/// shape.
pub(super) fn instance_binder(binders: &[Tree], concl: &Tree, _: &Carriers) -> Rewritten {
    for (i, b) in binders.iter().enumerate() {
        let (name, ty) = match (b.label.as_str(), b.children.as_slice()) {
            ("[ _ ]", [ty]) => (None, ty),
            ("[ _ : _ ]", [name, ty]) if is_leaf(name) => (Some(name), ty),
            _ => continue,
        };
        if (about_terms_only(ty, &binders[..i]) && term_class(ty)) || prop_class(ty) {
            let mut name = name.cloned().unwrap_or_else(|| Tree::leaf(ANONYMOUS_HYPOTHESIS));
            name.variable_freecost = false;
            name.hypothesis_freecost = true;
            let mut out = binders.to_vec();
            out[i] = node2(EXPLICIT, name, ty.clone());
            return Some((
                "instance binder (binder info)",
                render(b),
                rebuild_list(out, concl.clone()),
            ));
        }
    }
    None
}

/// `instance binder (name)`: `[hG : Group G]` is `[Group G]` when nothing after it names `hG`:
/// an instance binder's name only lets the statement mention the instance, and instance
/// arguments are found by type class resolution either way.
pub(super) fn anonymous_instance(
    binders: &[Tree],
    i: usize,
    concl: &Tree,
    _: &Carriers,
) -> Rewritten {
    let b = &binders[i];
    let ("[ _ : _ ]", [name, ty]) = (b.label.as_str(), b.children.as_slice()) else {
        return None;
    };
    if !is_leaf(name) || binders[i + 1..].iter().any(|later| mentions(later, &name.label)) {
        return None;
    }
    if mentions(concl, &name.label) {
        return None;
    }
    let mut out = binders.to_vec();
    out[i] = Tree::node("[ _ ]", vec![ty.clone()]);
    Some(("instance binder (name)", render(b), rebuild_list(out, concl.clone())))
}

/// `binder_split`: `(a b : T)` is `(a : T) (b : T)`, for every binder kind.
pub(super) fn binder_split(binders: &[Tree], i: usize, concl: &Tree, _: &Carriers) -> Rewritten {
    let b = &binders[i];
    if binder_kind(&b.label).is_none() || b.children.len() <= 2 {
        return None;
    }
    let (names, ty) = b.children.split_at(b.children.len() - 1);
    let mut out: Vec<Tree> = binders[..i].to_vec();
    out.extend(names.iter().map(|n| Tree::node(b.label.clone(), vec![n.clone(), ty[0].clone()])));
    out.extend_from_slice(&binders[i + 1..]);
    Some(("binder_split", render(b), rebuild_list(out, concl.clone())))
}

/// `implicit_binder`: `{x : T}` and `⦃x : T⦄` are `(x : T)`.
pub(super) fn implicit_binder(binders: &[Tree], i: usize, concl: &Tree, _: &Carriers) -> Rewritten {
    let b = &binders[i];
    let kind = binder_kind(&b.label)?;
    if b.children.len() != 2 || !matches!(kind, BinderKind::Implicit | BinderKind::Strict) {
        return None;
    }
    let mut out = binders.to_vec();
    out[i] = Tree::node(EXPLICIT, b.children.clone());
    Some(("implicit_binder", render(b), rebuild_list(out, concl.clone())))
}

/// An explicit binder `(name : ty)` with one name.
fn explicit(b: &Tree) -> Option<(&Tree, &Tree)> {
    match (binder_kind(&b.label), b.children.as_slice()) {
        (Some(BinderKind::Explicit), [name, ty]) => Some((name, ty)),
        _ => None,
    }
}

/// `type variable in front`: a type variable binder moves before the binders that do not
/// mention it.
pub(super) fn type_variable_in_front(
    binders: &[Tree],
    i: usize,
    concl: &Tree,
    _: &Carriers,
) -> Rewritten {
    let b = &binders[i];
    let (name, ty) = explicit(b)?;
    if !is_leaf(name) || !is_universe(ty) {
        return None;
    }
    // A type variable goes to the front, after the auto-bound names (`autoImplicit`); nothing
    // before it can mention it, so the move is a sound reorder. Its universe stays: `Type` is
    // not `Type u` (a statement about types of universe 0 only), nor `Sort u` (which also
    // ranges over propositions). `Type*`, `Type _` and `Type u` with a `u` nothing else
    // mentions are all one fresh universe variable of this binder alone: written `Type*`.
    // `{α β : Type u}` (one universe shared) is not `{α β : Type*}` and stays as written.
    let fresh = match (ty.label.as_str(), ty.children.as_slice()) {
        ("Type*", []) => true,
        ("Type _ ", [u]) if is_leaf(u) => {
            u.label == "_"
                || (literal(u).is_none()
                    && binders
                        .iter()
                        .chain(std::iter::once(concl))
                        .map(|t| count_leaf(t, &u.label))
                        .sum::<usize>()
                        == 1)
        }
        _ => false,
    };
    let ty = if fresh { Tree::leaf("Type*") } else { ty.clone() };
    // After the type variables and auto-bound names already in front of it (their order among
    // themselves stays: moving one past another would never end).
    let front = binders[..i].iter().take_while(|b| is_auto_bound(b) || is_type_variable(b)).count();
    let mut out = binders.to_vec();
    out.remove(i);
    out.insert(front, node2(EXPLICIT, name.clone(), ty));
    (out != binders).then(|| {
        let list = rebuild_list(out, concl.clone());
        ("type variable in front", render(b), list)
    })
}

/// `Nat.zero_le`: a hypothesis `(h : 0 ≤ n)` on ℕ says nothing; dropped when unused.
pub(super) fn unused_trivial_hypothesis(
    binders: &[Tree],
    i: usize,
    concl: &Tree,
    carriers: &Carriers,
) -> Rewritten {
    let b = &binders[i];
    let (name, ty) = explicit(b)?;
    if !typed::trivially_true(ty, carriers) {
        return None;
    }
    // A later binder of the same name (`and_imp` splits `h` into two `h`s) is no use.
    let used_later = binders[i + 1..].iter().any(|l| mentions_outside_name(l, &name.label))
        || mentions(concl, &name.label);
    if used_later {
        return None;
    }
    let mut out = binders.to_vec();
    out.remove(i);
    Some(("Nat.zero_le", render(b), rebuild_list(out, concl.clone())))
}

/// `forall_const` (Lean core, Init/PropLemmas.lean: `(α → b) ↔ b` for `[Nonempty α]`): a type
/// variable `(R : Type*)` nothing else names is dropped. Every universe is inhabited (`PUnit :
/// Sort u`), so quantifying over it says nothing.
pub(super) fn unused_type_variable(
    binders: &[Tree],
    i: usize,
    concl: &Tree,
    _: &Carriers,
) -> Rewritten {
    let b = &binders[i];
    if !is_type_variable(b) {
        return None;
    }
    let name = &b.children[0].label;
    let used = binders.iter().enumerate().any(|(j, o)| j != i && mentions(o, name))
        || mentions(concl, name);
    if used {
        return None;
    }
    let mut out = binders.to_vec();
    out.remove(i);
    Some(("forall_const", render(b), rebuild_list(out, concl.clone())))
}

/// `and_imp` on a hypothesis: `(h : p ∧ q)` is `(h : p) (h : q)` when nothing names `h`.
pub(super) fn split_conjunction(
    binders: &[Tree],
    i: usize,
    concl: &Tree,
    _: &Carriers,
) -> Rewritten {
    let b = &binders[i];
    let (name, ty) = explicit(b)?;
    if ty.label != AND || ty.children.len() != 2 {
        return None;
    }
    if named_after(binders, i, concl, &name.label) {
        return None;
    }
    let mut out: Vec<Tree> = binders[..i].to_vec();
    for part in &ty.children {
        out.push(node2(EXPLICIT, name.clone(), part.clone()));
    }
    out.extend_from_slice(&binders[i + 1..]);
    Some(("and_imp", render(b), rebuild_list(out, concl.clone())))
}

/// `and_self`: a hypothesis stated twice (`(hp : p.Prime) … (this : p.Prime)`) says it once; the
/// later copy goes when nothing names it and no binder between the copies rebinds a name they
/// mention.
pub(super) fn duplicate_hypothesis(binders: &[Tree], concl: &Tree, _: &Carriers) -> Rewritten {
    for (i, b) in binders.iter().enumerate() {
        let (EXPLICIT, [name, ty]) = (b.label.as_str(), b.children.as_slice()) else {
            continue;
        };
        if !name.hypothesis_freecost || !is_prop_shaped_or_applied(ty) {
            continue;
        }
        // The same text means the same proposition only if no binder in between rebinds a
        // name it mentions (`(x : ℕ) (h : x = 1) (x : ℕ) (h' : x = 1)` is about two `x`s).
        let mut names = Vec::new();
        leaves(ty, &mut names);
        let earlier = binders[..i].iter().enumerate().any(|(e, copy)| {
            copy.label == EXPLICIT
                && copy.children.len() == 2
                && copy.children[0].hypothesis_freecost
                && copy.children[1] == *ty
                && !binders[e + 1..i]
                    .iter()
                    .any(|b| binder_name(b).is_some_and(|n| names.contains(&n.label)))
        });
        if earlier && !named_after(binders, i, concl, &name.label) {
            let mut out = binders.to_vec();
            out.remove(i);
            return Some(("and_self", render(b), rebuild_list(out, concl.clone())));
        }
    }
    None
}

/// `forall_eq`: a variable defined by a hypothesis is replaced by its value ([`subst`]).
/// Not while a `Fact p` binder is still to be unfolded (`fact_iff`): its check reads the names
/// of `p`, and `(p : ℕ) [Fact p.Prime] (h : Fintype.card G = p)` would turn `p` into
/// `Fintype.card G`, whose `G` every use of the group consumes.
pub(super) fn variable_definition(binders: &[Tree], concl: &Tree, c: &Carriers) -> Rewritten {
    if binders.iter().any(|b| fact_to_unfold(b, c)) {
        return None;
    }
    let (new_binders, new_concl, hypothesis) = subst(binders, concl, c, typed::fields_resolved)?;
    Some(("forall_eq", hypothesis, rebuild_list(new_binders, new_concl)))
}

/// Does `t` hold a `Fact p` that `fact_iff` unfolds?
fn fact_to_unfold(t: &Tree, c: &Carriers) -> bool {
    match (t.label.as_str(), t.children.as_slice()) {
        ("Fact _ ", [p]) => super::logic::fact_unfolds(p, c),
        _ => t.children.iter().any(|ch| fact_to_unfold(ch, c)),
    }
}

/// `forall_eq (function used at one point)`: [`subst_value`].
pub(super) fn function_value(binders: &[Tree], concl: &Tree, c: &Carriers) -> Rewritten {
    let (new_binders, new_concl, hypothesis) = subst_value(binders, concl, c)?;
    let list = rebuild_list(new_binders, new_concl);
    Some(("forall_eq (function used at one point)", hypothesis, list))
}

/// `intro`: a leading `∀` or `→` of the conclusion becomes a binder.
pub(super) fn intro(binders: &[Tree], concl: &Tree, _: &Carriers) -> Rewritten {
    if quantifier(concl) == Some(Quant::Forall) && concl.children.len() == 2 {
        let binder = &concl.children[0];
        let new_binder = match binder_kind(&binder.label) {
            Some(BinderKind::Explicit) if binder.children.len() == 2 => Some(binder.clone()),
            _ if is_leaf(binder) => Some(node2(EXPLICIT, binder.clone(), Tree::leaf(UNKNOWN_TYPE))),
            _ => None,
        };
        if let Some(nb) = new_binder {
            let mut out = binders.to_vec();
            out.push(nb);
            let list = rebuild_list(out, concl.children[1].clone());
            return Some(("intro", render(concl), list));
        }
    }
    // `p → False` is left to `not_iff_imp_false` (it becomes `¬p`, like a conclusion written
    // `¬p`, which `intro` does not open either).
    if concl.label == IMP && concl.children.len() == 2 && !is_false(&concl.children[1]) {
        let mut name = Tree::leaf(ANONYMOUS_HYPOTHESIS);
        name.hypothesis_freecost = true;
        let mut out = binders.to_vec();
        out.push(node2(EXPLICIT, name, concl.children[0].clone()));
        let list = rebuild_list(out, concl.children[1].clone());
        return Some(("intro", render(concl), list));
    }
    None
}

/// `binder type (elaboration)` on the theorem's binders, declared last so that `forall_eq` and
/// `intro` are done first (they may still need the type a function's use decides, e.g. when the
/// function itself goes): a binder type the later uses decide is left to elaboration, as in
/// quantifiers: `(x : ℝ)` before `(h : f x = 0)` with `(f : ℝ → ℝ)` is `(x : _)`.
pub(super) fn decided_binder_type(binders: &[Tree], concl: &Tree, c: &Carriers) -> Rewritten {
    for (i, b) in binders.iter().enumerate() {
        let (EXPLICIT, [name, ty]) = (b.label.as_str(), b.children.as_slice()) else {
            continue;
        };
        if !is_leaf(name) || !name.variable_freecost || (is_leaf(ty) && ty.label == UNKNOWN_TYPE) {
            continue;
        }
        let mut rest: Vec<Tree> = binders[i + 1..].to_vec();
        rest.push(concl.clone());
        let scope = Tree::node("·", rest);
        if typed::infer_binder_type(&name.label, &scope, c, typed::Deciders::Fixed).as_ref()
            == Some(ty)
        {
            let mut out = binders.to_vec();
            out[i] = auto_bound_binder(name.clone());
            let list = rebuild_list(out, concl.clone());
            return Some(("binder type (elaboration)", render(b), list));
        }
    }
    None
}

/// `binder type (elaboration, filled)`: a theorem binder `(y : _)` whose first use is the limit
/// of a `Tendsto` gets the type that use decides (`(s : ℕ → ℂ) (y : _) : ¬Tendsto s atTop (𝓝 y)`:
/// `nhds (x : X) : Filter X` unifies `y`'s type with `s`'s codomain, `Filter.Tendsto` in
/// Mathlib/Order/Filter/Tendsto.lean). The other binder-type rules leave a limit's written type
/// alone (the unfoldings of `Tendsto` read it), so the two spellings meet at the written one.
pub(super) fn filled_binder_type(binders: &[Tree], concl: &Tree, c: &Carriers) -> Rewritten {
    for (i, b) in binders.iter().enumerate() {
        // Only names the statement itself binds without a type: a name a rule introduced
        // (`ε✝` of `Metric.tendsto_atTop`) has its type where that rule wrote it.
        if !is_auto_bound(b)
            || !b.children[0].variable_freecost
            || !c.untyped_only(&b.children[0].label)
        {
            continue;
        }
        let name = &b.children[0];
        let mut rest: Vec<Tree> = binders[i + 1..].to_vec();
        rest.push(concl.clone());
        let scope = Tree::node("·", rest);
        let Some(ty) = typed::first_use_as_limit(&name.label, &scope, c) else {
            continue;
        };
        let mut out = binders.to_vec();
        out[i] = node2(EXPLICIT, name.clone(), ty);
        let list = rebuild_list(out, concl.clone());
        return Some(("binder type (elaboration, filled)", render(b), list));
    }
    None
}

/// Classes about a type whose explicit hypotheses are read as instances:
/// `class CharP (R : Type*) [AddMonoidWithOne R] (p : ℕ) : Prop` (Mathlib/Algebra/CharP/Defs.lean).
const TYPE_CLASSES_AS_HYPOTHESES: [&str; 1] = ["CharP"];

/// `instance binder (explicit)`: `(hF : CharP F p)` is `[CharP F p]` when nothing names `hF`.
/// In Lean 4 every local whose type is a class is a local instance, whatever its binder info
/// (`Meta.withLocalDecl` adds it), so both make `CharP F p` available to what follows, and the
/// statement's meaning does not depend on binder info. Only for the classes listed, under no
/// binder of that name.
pub(super) fn explicit_class_hypothesis(
    binders: &[Tree],
    i: usize,
    concl: &Tree,
    c: &Carriers,
) -> Rewritten {
    let b = &binders[i];
    let (EXPLICIT, [name, ty]) = (b.label.as_str(), b.children.as_slice()) else {
        return None;
    };
    let class = app_head(ty)?;
    if !is_leaf(name)
        || !TYPE_CLASSES_AS_HYPOTHESES.contains(&class)
        || c.binds(class)
        || binders[i + 1..].iter().any(|later| mentions(later, &name.label))
        || mentions(concl, &name.label)
    {
        return None;
    }
    let mut out = binders.to_vec();
    out[i] = Tree::node("[ _ ]", vec![ty.clone()]);
    Some(("instance binder (explicit)", render(b), rebuild_list(out, concl.clone())))
}

/// `binder type (ascription of its first use)` on the theorem's binders: `(y : _) : (y : ℝ) ^ 2
/// ≥ 0` is `(y : ℝ) : y ^ 2 ≥ 0`, as at `∀` ([`binders_elided::ascription_decides_binder`]):
/// the first occurrence of `y` after its binder is the ascription, which unifies `y`'s type
/// with `T`. Not where a later binder or a binder inside binds `y` again.
pub(super) fn ascription_binder_type(binders: &[Tree], concl: &Tree, _: &Carriers) -> Rewritten {
    for (i, b) in binders.iter().enumerate() {
        let (EXPLICIT, [name, ty]) = (b.label.as_str(), b.children.as_slice()) else {
            continue;
        };
        if !(is_leaf(name) && is_leaf(ty) && ty.label == UNKNOWN_TYPE) {
            continue;
        }
        let mut rest: Vec<Tree> = binders[i + 1..].to_vec();
        rest.push(concl.clone());
        let scope = Tree::node("·", rest);
        if binds_inside(&scope, &name.label)
            || binders[i + 1..]
                .iter()
                .any(|l| binder_name(l).is_some_and(|n| n.label == name.label))
        {
            continue;
        }
        let Some(ascribed) = binders_elided::first_occurrence_ascribed(&scope, &name.label) else {
            continue;
        };
        if elab::num_of_type(&ascribed.children[1]).is_none() {
            continue;
        }
        let mut out = binders[..i].to_vec();
        out.push(node2(EXPLICIT, name.clone(), ascribed.children[1].clone()));
        out.extend(binders[i + 1..].iter().map(|l| replace(l, &ascribed, name)));
        let list = rebuild_list(out, replace(concl, &ascribed, name));
        return Some(("binder type (ascription of its first use)", render(b), list));
    }
    None
}

/// `binder type (ascription)` on the theorem's binders: `(n : _) (h : (2 : ℕ) ≤ n)` is `(n : ℕ)
/// (h : 2 ≤ n)`, as at `∀` ([`binders_elided::ascription_to_binder`], which `intro` may not
/// have let run: `∀ n ≥ (2 : ℕ), p` is introduced first). The hypothesis right after the
/// binder is its first use, a relation `binrel%` elaborates by unifying the untyped `n` with
/// the numeral's ascribed type, and the numeral is at that type either way.
pub(super) fn ascription_beside_binder(binders: &[Tree], concl: &Tree, c: &Carriers) -> Rewritten {
    use super::shapes::{EXISTS, FORALL, IMP};
    let ctx = super::declare::Ctx { carriers: c, at: None, numeral_type: None };
    for (i, b) in binders.iter().enumerate() {
        let (EXPLICIT, [name, ty]) = (b.label.as_str(), b.children.as_slice()) else {
            continue;
        };
        let Some((EXPLICIT, [h, relation])) =
            binders.get(i + 1).map(|n| (n.label.as_str(), n.children.as_slice()))
        else {
            continue;
        };
        if !(is_leaf(name) && is_leaf(ty) && ty.label == UNKNOWN_TYPE) {
            continue;
        }
        // The `∀` form the quantifier rule reads; its conclusion is a placeholder it keeps.
        let rest = Tree::leaf("True");
        let quantified = node2(FORALL, name.clone(), node2(IMP, relation.clone(), rest));
        let Some((_, typed)) = binders_elided::ascription_to_binder(&quantified, &ctx) else {
            continue;
        };
        let (Some(binder), Some(new_relation)) =
            (typed.children.first(), typed.children.get(1).and_then(|b| b.children.first()))
        else {
            continue;
        };
        debug_assert!(typed.label != EXISTS);
        let mut out = binders.to_vec();
        out[i] = binder.clone();
        out[i + 1] = node2(EXPLICIT, h.clone(), new_relation.clone());
        return Some(("binder type (ascription)", render(b), rebuild_list(out, concl.clone())));
    }
    None
}
