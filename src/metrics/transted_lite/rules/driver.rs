//! The canonical pass of `transted-lite`: [`canonicalize`] applies the canonical rules to a
//! fixpoint, top-down, then flags bound names for free renaming.
//!
//! Owns where each kind of rule runs: the tables' notation and statement rules once on the
//! whole statement, then at each node the binder-list rules at the theorem's binder list and the
//! binding procedures and node rules everywhere else (in the matcher's order, `table`); and the
//! step bound, the deadline and the flagging of bound names. The rules themselves are in the
//! family tables and the procedure modules; nothing here rewrites a term.

use super::binders_apply;
use super::carriers::Carriers;
use super::declare::Ctx;
use super::elab::{self, Num};
use super::render::render;
use super::rewrite::Applied;
use super::shapes::{
    binder_kind, binder_name, collect_binders, is_binder_list, is_binding_node, is_leaf,
    quantifier, UNKNOWN_TYPE,
};
use super::table;
use crate::metrics::transted_lite::clock::Clock;
use crate::trees::Tree;

/// Bound on canonical rewrites per statement: every canonical rule shrinks a well-founded
/// measure, so this is never reached on real statements; it keeps odd input from looping.
const MAX_CANONICAL_STEPS: usize = 10_000;

/// Apply the canonical rules to a fixpoint, then flag bound names for free renaming.
/// Returns the canonical tree and the rewrites applied, in order.
pub fn canonicalize(tree: &Tree) -> (Tree, Vec<Applied>) {
    match canonicalize_within(tree, Clock::unlimited()) {
        Some(done) => done,
        None => unreachable!("an unlimited clock never runs out"),
    }
}

/// [`canonicalize`], giving up (`None`) once `clock` has run out: it is read before each
/// node's rule attempt, so the overrun is one attempt.
pub fn canonicalize_within(tree: &Tree, clock: Clock) -> Option<(Tree, Vec<Applied>)> {
    let applied = |(rule, at)| Applied { rule, at };
    // Notations (`R[X]`) are unfolded first, so that the binder types the typed rules read
    // (field notation on `(p : ℚ[X])`) are already `Polynomial ℚ`; the carriers are what the
    // statement's own binders say, read before `autoImplicit` adds Lean's.
    let (steps, tree) = table::notation(tree);
    let mut log: Vec<Applied> = steps.into_iter().map(applied).collect();
    let mut context = Context { carriers: Carriers::of(&tree), clock };
    let (steps, mut t) = table::statement(&tree);
    log.extend(steps.into_iter().map(applied));
    // A name the statement binds without a type may have it written by a rule (`binder type
    // (elaboration, filled)`): the typed rules may then read it, as they read a written type.
    for _ in 0..MAX_TYPE_ROUNDS {
        while log.len() < MAX_CANONICAL_STEPS && canonical_pass(&mut t, &mut log, &context) {}
        let typed = types_written_since(&t, &context.carriers);
        let introduced = untyped_names_introduced(&t, &context.carriers);
        let typed_introduced = typed_names_introduced(&t, &context.carriers);
        let rebound = rule_names_rebound(&t, &context.carriers);
        if typed.is_empty()
            && introduced.is_empty()
            && typed_introduced.is_empty()
            && rebound.is_empty()
        {
            break;
        }
        for (name, ty) in typed.into_iter().chain(typed_introduced) {
            context.carriers = context.carriers.with_name_type(&name, &ty);
        }
        for name in introduced.into_iter().chain(rebound) {
            context.carriers = context.carriers.with_untyped_name(&name);
        }
    }
    if clock.passed() {
        return None;
    }
    flag_bound_names(&mut t);
    Some((t, log))
}

/// Rounds of [`types_written_since`]: each types at least one more name, and statements bind few.
const MAX_TYPE_ROUNDS: usize = 8;

/// The names `carriers` read as bound only without a type that `t` binds once, with a written
/// type: a rule wrote the type elaboration gives them.
fn types_written_since(t: &Tree, carriers: &Carriers) -> Vec<(String, Tree)> {
    let mut binders = Vec::new();
    collect_binders(t, &mut binders);
    let mut out: Vec<(String, Tree)> = Vec::new();
    for (name, ty, instance) in binders {
        let typed = !instance && !is_leaf_labelled(ty, UNKNOWN_TYPE) && is_leaf(name);
        if typed
            && carriers.untyped_only(&name.label)
            && binding_count(t, &name.label, 0) == 1
            && !out.iter().any(|(n, _)| *n == name.label)
        {
            out.push((name.label.clone(), ty.clone()));
        }
    }
    out
}

/// The names a rule's unfolding bound once without a type (`∀ x✝, x✝ ∈ s → x✝ ∈ t` for
/// `s ⊆ t`), which the statement itself never binds: elaboration decides their type by their
/// uses, as it does for a name the statement binds without one.
fn untyped_names_introduced(t: &Tree, carriers: &Carriers) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in super::carriers::untyped_binder_names(t) {
        if !carriers.binds(&name) && binding_count(t, &name, 0) == 1 && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The names a rule's unfolding bound once with a written type (`∀ n✝ : G, …` for
/// `H.Normal`), which the statement itself never binds: read at that type, as a theorem
/// binder's written type is.
fn typed_names_introduced(t: &Tree, carriers: &Carriers) -> Vec<(String, Tree)> {
    let mut binders = Vec::new();
    collect_binders(t, &mut binders);
    let mut out: Vec<(String, Tree)> = Vec::new();
    for &(name, ty, instance) in &binders {
        let typed = !instance && !is_leaf_labelled(ty, UNKNOWN_TYPE) && is_leaf(name);
        if typed
            && name.label.contains('✝')
            && !carriers.binds(&name.label)
            && one_written_type(t, &binders, &name.label) == Some(ty)
            && !out.iter().any(|(n, _)| *n == name.label)
        {
            out.push((name.label.clone(), ty.clone()));
        }
    }
    out
}

/// The one written type every binder of `name` in `t` gives it (two unfoldings that chose the
/// same fresh name at the same type, `∀ x✝ : α` in a hypothesis and `(x✝ : α)` introduced from
/// the conclusion): every occurrence is then of that type. `None` when a binder leaves it
/// untyped, is an instance, or writes another type.
fn one_written_type<'a>(
    t: &Tree,
    binders: &[(&Tree, &'a Tree, bool)],
    name: &str,
) -> Option<&'a Tree> {
    let mut types = binders.iter().filter(|(n, _, _)| n.label == name);
    let (_, first, instance) = types.next()?;
    let count = 1 + types.clone().count();
    let same = types.all(|(_, ty, instance)| !instance && *ty == *first);
    let typed = !instance && !is_leaf_labelled(first, UNKNOWN_TYPE);
    (same && typed && count == binding_count(t, name, 0)).then_some(*first)
}

/// The names a rule bound (`✝`) that the carriers read at one written type, now bound more
/// than once (a second unfolding chose the same name): no longer one type, so read as untyped.
fn rule_names_rebound(t: &Tree, carriers: &Carriers) -> Vec<String> {
    let mut binders = Vec::new();
    collect_binders(t, &mut binders);
    let mut out: Vec<String> = Vec::new();
    for &(name, _, _) in &binders {
        let known = carriers.name_type(&name.label);
        if name.label.contains('✝')
            && known.is_some()
            && binding_count(t, &name.label, 0) > 1
            && one_written_type(t, &binders, &name.label) != known
            && !out.contains(&name.label)
        {
            out.push(name.label.clone());
        }
    }
    out
}

fn is_leaf_labelled(t: &Tree, label: &str) -> bool {
    is_leaf(t) && t.label == label
}

/// How many binders in `t` bind `name` (typed binders and untyped quantifier binders).
fn binding_count(t: &Tree, name: &str, depth: usize) -> usize {
    if depth > 400 {
        // Deeper than any statement the limits let through: count it as bound again.
        return 2;
    }
    let mut n = 0;
    if binder_kind(&t.label).is_some() {
        if let [names @ .., _] = t.children.as_slice() {
            n += names.iter().filter(|x| is_leaf(x) && x.label == name).count();
        }
    } else if is_binding_node(&t.label) {
        let k = t.children.len().saturating_sub(1);
        n += t.children[..k].iter().filter(|b| is_leaf(b) && b.label == name).count();
    }
    n + t.children.iter().map(|c| binding_count(c, name, depth + 1)).sum::<usize>()
}

/// What the canonical rules know about the whole statement.
struct Context {
    /// The number systems its terms live in, for the typed rules.
    carriers: Carriers,
    /// The judgement's deadline: a pass stops at the first node visited after it.
    clock: Clock,
}

/// One top-down pass; true if anything changed. `root` says whether `t` is the whole statement.
fn canonical_pass(t: &mut Tree, log: &mut Vec<Applied>, context: &Context) -> bool {
    canonical_pass_at(t, log, false, true, context, None)
}

fn canonical_pass_at(
    t: &mut Tree,
    log: &mut Vec<Applied>,
    is_list: bool,
    root: bool,
    context: &Context,
    numeral_type: Option<Num>,
) -> bool {
    let mut changed = false;
    while log.len() < MAX_CANONICAL_STEPS && !context.clock.passed() {
        match canonical_at(t, is_list, context, numeral_type) {
            Some((applied, new)) => {
                log.push(applied);
                *t = new;
                changed = true;
            }
            None => break,
        }
    }
    let single_child_list = t.children.first().is_some_and(|c| is_binder_list(t, c, root));
    let numeral_types: Vec<Option<Num>> = (0..t.children.len())
        .map(|i| elab::child_numeral_context(t, i, numeral_type, &context.carriers))
        .collect();
    for (c, numeral_type) in t.children.iter_mut().zip(numeral_types) {
        if context.clock.passed() {
            // Out of time: no further pass (the caller gives up).
            return false;
        }
        changed |= canonical_pass_at(c, log, single_child_list, false, context, numeral_type);
    }
    changed
}

/// The first canonical rule that applies at the root of `t`: the binder-list rules at the
/// theorem's binder list, the tables' node rules anywhere else.
fn canonical_at(
    t: &Tree,
    is_list: bool,
    context: &Context,
    numeral_type: Option<Num>,
) -> Option<(Applied, Tree)> {
    if is_list {
        return table::list_at(t, &context.carriers)
            .map(|(rule, at, new)| (Applied { rule, at }, new));
    }
    let ctx = Ctx { carriers: &context.carriers, at: None, numeral_type };
    let rule_typed = context.carriers.rule_typed_names();
    // A rewrite that binds again a name a rule bound and the carriers read at one type (a
    // second unfolding choosing `x✝`) would leave that type stale for the new binder: refused.
    let rebinds =
        |new: &Tree| rule_typed.iter().any(|n| binding_count(new, n, 0) > binding_count(t, n, 0));
    table::canonical_at(t, &ctx).filter(|(_, new)| !rebinds(new)).map(|(rule, new)| {
        let at = render(t);
        (Applied { rule, at }, new)
    })
}

/// Mark every bound name (theorem binders, quantifier binders) and its occurrences in scope as
/// `variable_freecost`, unless already a hypothesis name.
fn flag_bound_names(t: &mut Tree) {
    let mut scope = Vec::new();
    let list = t.children.first().is_some_and(|c| is_binder_list(t, c, true));
    if list {
        if let Some(c) = t.children.first_mut() {
            flag_in(c, &mut scope, true);
        }
    } else {
        flag_in(t, &mut scope, false);
    }
}

fn flag_leaf(t: &mut Tree, scope: &[String]) {
    if is_leaf(t) && !t.hypothesis_freecost && scope.contains(&t.label) {
        t.variable_freecost = true;
    }
}

fn flag_in(t: &mut Tree, scope: &mut Vec<String>, is_list: bool) {
    if is_leaf(t) {
        flag_leaf(t, scope);
        return;
    }
    // `f x` with `f` bound: renamable like `f` (module `binders_apply`).
    if !is_list {
        binders_apply::flag_bound_head(t, scope);
    }
    let depth = scope.len();
    let scoped = is_list || quantifier(t).is_some();
    if scoped {
        let n = t.children.len();
        for i in 0..n {
            let c = &mut t.children[i];
            if i + 1 < n {
                // A binder: its type is in the outer scope, its name is bound from here on.
                let name = binder_name(c).map(|n| (n.label.clone(), n.hypothesis_freecost));
                if is_leaf(c) {
                    if let Some((n, false)) = &name {
                        scope.push(n.clone());
                    }
                    flag_leaf(c, scope);
                    continue;
                }
                let first_is_name = name.is_some();
                for (j, cc) in c.children.iter_mut().enumerate() {
                    if j == 0 && first_is_name {
                        continue;
                    }
                    flag_in(cc, scope, false);
                }
                if let Some((n, is_hyp)) = name {
                    if !is_hyp {
                        scope.push(n);
                    }
                    if let Some(first) = c.children.first_mut() {
                        flag_leaf(first, scope);
                    }
                }
            } else {
                flag_in(c, scope, false);
            }
        }
    } else {
        for c in &mut t.children {
            flag_in(c, scope, false);
        }
    }
    scope.truncate(depth);
}
