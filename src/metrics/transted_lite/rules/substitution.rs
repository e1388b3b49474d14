//! Capture-avoiding substitution and the rules built on it: `forall_eq` ([`subst`]: a variable
//! defined by a hypothesis), `forall_eq (function used at one point)` ([`subst_value`]),
//! `zeta` ([`zeta`]: `let` inlined, with β where the value is a function applied).
//!
//! Owns when a value may replace a name (freeness, capture, shadowing) and the ascription a
//! value keeps ([`ascribed`]). Does not decide where these rules run.

use super::binders_casts::{ascribed, ascribed_where};
use super::carriers::Carriers;
use super::declare::Ctx;
use super::render::render;

use super::binders_beta;
use super::binders_casts;
use super::elab;
use super::shapes::{
    app_head, binder_kind, binder_name, binds, binds_inside, is_leaf, leaves, mentions,
    mentions_head, named_after, only_as, quantifier, replace, BinderKind, EQ, EXPLICIT, IMP,
    UNKNOWN_TYPE,
};
use crate::elab::scope::{variable_shaped, Letters};
use crate::trees::Tree;

/// The binders `(h : a = b)` nothing after them names, with their position and the equation
/// read both ways (`(a, b)`, `(b, a)`).
fn unused_equations<'t>(
    binders: &'t [Tree],
    concl: &'t Tree,
) -> impl Iterator<Item = (usize, &'t Tree, [(&'t Tree, &'t Tree); 2])> {
    binders.iter().enumerate().filter_map(move |(i, h)| {
        let (EXPLICIT, [hname, eq]) = (h.label.as_str(), h.children.as_slice()) else {
            return None;
        };
        let (EQ, [a, b]) = (eq.label.as_str(), eq.children.as_slice()) else {
            return None;
        };
        (!named_after(binders, i, concl, &hname.label)).then_some((i, h, [(a, b), (b, a)]))
    })
}

/// `t` with field notation on the variable `name` written out at its type (`typed` has it; passed
/// in, as `typed` reads this module).
pub(super) type FieldsResolved = fn(&Tree, &str, &Carriers) -> Tree;

/// `forall_eq`/`forall_eq'`: `(x : T) … (h : x = e) … : p x` ↔ `… : p e` when `e` does not
/// mention `x`, nothing mentions `h`, and no binder from the first one between the two that
/// mentions `x` binds a name of `e`. The variable and the hypothesis are dropped and `e` put in place of `x`.
pub(super) fn subst(
    binders: &[Tree],
    concl: &Tree,
    carriers: &Carriers,
    fields_resolved: FieldsResolved,
) -> Option<(Vec<Tree>, Tree, String)> {
    for (i, h, sides) in unused_equations(binders, concl) {
        for (var, value) in sides {
            if !is_leaf(var) || mentions(value, &var.label) {
                continue;
            }
            // The variable's binder: the last one before `h` that binds this name.
            let Some(j) = binders[..i].iter().rposition(|b| {
                binder_kind(&b.label) == Some(BinderKind::Explicit)
                    && b.children.len() == 2
                    && b.children[0].label == var.label
                    && !b.children[0].hypothesis_freecost
            }) else {
                continue;
            };
            // Binders between may use `x` too: `(x) (hx : P x) (h : x = e)` is `(hx : P e)`.
            // From the first such binder on, they are scopes of the substitution: none of them
            // may bind a name of `e` (it would be used before it is bound, or captured).
            let between = &binders[j + 1..i];
            let first_use = between.iter().position(|b| mentions(b, &var.label));
            // A later binder of the same name would shadow it: substitution is then not local.
            if binders[i + 1..].iter().any(|b| binder_name(b).is_some_and(|n| n.label == var.label))
            {
                continue;
            }
            let between_scopes = first_use.map_or(&[][..], |k| &between[k..]);
            let scopes: Vec<&Tree> = between_scopes
                .iter()
                .chain(&binders[i + 1..])
                .chain(std::iter::once(concl))
                .collect();
            // No β here: a function given by `(hf : f = fun x => e)` and applied stays, so that
            // `funext_iff` makes it `∀ x, f x = e`, where the statements that write it so meet it.
            let ty = &binders[j].children[1];
            if !defines_at(ty, value, carriers) {
                continue;
            }
            let uncast = binders_casts::uses_at_own_type(&var.label, ty, &scopes, carriers);
            let typed_value = ascribed_where(value, ty, carriers, uncast);
            if typed_value != *value && !ascription_keeps_elaboration(value, ty, carriers) {
                continue;
            }
            // `e` stands where `x` stood with `x`'s type: `(e : T)`, since the type decides
            // `/` and `-` (`(x : ℕ) (h : x = 1) : x / 2 = 0` is `(1 : ℕ) / 2 = 0`, not the
            // same as over ℚ). With no written type (`(x : _)`) the value's own elaboration
            // decides, as it did for `x`.
            let value = &typed_value;
            let replace =
                |t: &Tree| substitute(&fields_resolved(t, &var.label, carriers), &var.label, value);
            let (before, after): (Vec<&Tree>, Vec<&Tree>) =
                if substitutable(&var.label, value, &scopes, None) {
                    (Vec::new(), between.iter().collect())
                } else if let Some((kept, moved)) =
                    hypotheses_after(between, &var.label, value, carriers)
                {
                    let scopes: Vec<&Tree> =
                        moved.iter().copied().chain(&binders[i + 1..]).chain([concl]).collect();
                    if !substitutable(&var.label, value, &scopes, None) {
                        continue;
                    }
                    (kept, moved)
                } else {
                    continue;
                };
            let mut out: Vec<Tree> = binders[..j].to_vec();
            out.extend(before.into_iter().cloned());
            out.extend(after.into_iter().map(replace));
            out.extend(binders[i + 1..].iter().map(replace));
            return Some((out, replace(concl), render(h)));
        }
    }
    None
}

/// `(x) (hx : P x) (r) (h : x = e r)`: a binder between `x` and its definition binds a name of
/// `e`. The hypotheses about `x` then move after the other binders between
/// (`(r) (hx : P (e r))`): `∀ x, P x → ∀ r, x = e r → Q x` is `∀ r, P (e r) → Q (e r)`. So the
/// binders between that mention `x` must be hypotheses no other binder between names, and they
/// may mention no name the others bind (it would be captured). The others must be variables of
/// a type (no local instance the moved hypotheses would come to see). Returns the binders kept
/// in place and the ones moved, in order.
fn hypotheses_after<'b>(
    between: &'b [Tree],
    x: &str,
    e: &Tree,
    c: &Carriers,
) -> Option<(Vec<&'b Tree>, Vec<&'b Tree>)> {
    let (moved, kept): (Vec<&Tree>, Vec<&Tree>) = between.iter().partition(|b| mentions(b, x));
    let hypothesis = |b: &Tree| {
        b.label == EXPLICIT && b.children.len() == 2 && b.children[0].hypothesis_freecost
    };
    let kept_names: Vec<&str> =
        kept.iter().filter_map(|b| binder_name(b)).map(|n| n.label.as_str()).collect();
    let binds_of_e = kept_names.iter().any(|n| mentions(e, n));
    // A variable of a type, or a proposition's proof: no local instance (nor is a hole: Lean
    // adds a local instance when the binder is made, and its type is unknown then).
    let no_instance = |b: &Tree| match (b.label.as_str(), b.children.as_slice()) {
        (EXPLICIT, [_, ty]) => {
            (is_leaf(ty) && ty.label == UNKNOWN_TYPE)
                || elab::is_type(ty, c)
                || elab::is_prop(ty, c)
        }
        _ => false,
    };
    let ok = binds_of_e
        && kept.iter().all(|b| no_instance(b))
        && moved.iter().all(|b| hypothesis(b) && !kept_names.iter().any(|n| mentions(b, n)))
        && moved.iter().all(|m| !kept.iter().any(|k| mentions(k, &m.children[0].label)));
    ok.then_some((kept, moved))
}

/// Is `(e : T)` elaborated as `e` was beside `x` in the equation, cast up? `binrel%` (Lean's
/// `Elab/Extra.lean`) elaborates each leaf of the relation's tree with no expected type, while
/// an ascription hands `T` to `e`'s head: the same only where that head is arithmetic the tree
/// reaches through (its leaves are again elaborated alone), a name, an ascription, or a
/// function of the statement's own with a written type. A generic head (`min`, `max`, `|·|`,
/// `∑`, `ite`) takes `T` into its arguments: `y = min (a - b) 0` with `(a b : ℕ) (y : ℝ)` is
/// `↑(min (a - b) 0)`, truncated, where `(min (a - b) 0 : ℝ)` subtracts in ℝ. At ℕ it is the
/// same: [`defines_at`] lets no value of a larger type define a natural, and a value whose type
/// nothing fixes defaults to ℕ alone too.
fn ascription_keeps_elaboration(e: &Tree, ty: &Tree, c: &Carriers) -> bool {
    elab::num_of_type(ty) == Some(elab::Num::Nat)
        || is_leaf(e)
        || elab::same_tree_operands(e).is_some()
        || [" _ % _ ", "( _ : _ )"].contains(&e.label.as_str())
        || app_head(e)
            .is_some_and(|f| c.binds(f) && c.name_type(f).is_some_and(|ty| ty.label == IMP))
}

/// Does `x = e` (or `e = x`), with `x` of written type `ty`, say what `x` is? `binrel%` (Lean's
/// `Elab/Extra.lean`) elaborates both sides at the larger of their types and casts the smaller
/// up: with `(n : ℕ)` and `(a : ℤ)`, `n = a` is `↑n = a`, which says `a` is a natural, not what
/// `n` is. So `e`'s type must be no larger than `ty`:
/// - `ty` left to elaboration (`(x : _)`): `x` takes `e`'s type;
/// - a number type: every leaf of `e`'s arithmetic (through `+ - * / %`, `-` and a power's
///   base; an exponent is elaborated alone) is a numeral, of a number type no larger, or a
///   one-letter name no binder types (auto-bound: unified with the rest);
/// - a set or a function type (no coercion makes one of a larger type);
/// - any other type (`Fin n`, `ℕ+`, `ℝ≥0`, `Finset α`, a type variable: each casts into
///   something larger): `e` is a name of that very type.
fn defines_at(ty: &Tree, e: &Tree, c: &Carriers) -> bool {
    if is_leaf(ty) && ty.label == UNKNOWN_TYPE {
        return true;
    }
    if let Some(n) = elab::num_of_type(ty) {
        return leaves_at_most(e, n, c, &[], 0);
    }
    if ty.label == IMP || app_head(ty) == Some("Set") {
        return true;
    }
    is_leaf(e) && c.binds(&e.label) && c.name_type(&e.label) == Some(ty)
}

/// [`defines_at`] for a number type `n`. `indices` are names a `∑`/`∏` around binds over a
/// range of at most that type.
fn leaves_at_most(e: &Tree, n: elab::Num, c: &Carriers, indices: &[&str], depth: usize) -> bool {
    let within = |t: &Tree| leaves_at_most(t, n, c, indices, depth + 1);
    if depth > 200 {
        return false;
    }
    if let Some(operands) = elab::same_tree_operands(e) {
        return operands.iter().all(within);
    }
    match (e.label.as_str(), e.children.as_slice()) {
        (" _ % _ ", [a, b]) => within(a) && within(b),
        (_, []) if indices.contains(&e.label.as_str()) => true,
        // `∑ k ∈ Finset.Icc a b, f k`: the index has the range's element type, no larger than
        // `n` when the bounds are; the sum has the body's type.
        (label, [k, domain, body])
            if (label.starts_with('∑') || label.starts_with('∏')) && is_leaf(k) =>
        {
            let ("∈ _ ", [range]) = (domain.label.as_str(), domain.children.as_slice()) else {
                return false;
            };
            let bounded = matches!(
                app_head(range),
                Some("Finset.range" | "Finset.Icc" | "Finset.Ico" | "Finset.Ioc" | "Finset.Ioo")
            ) && !range.children.is_empty()
                && range.children.iter().all(within);
            let mut inner = indices.to_vec();
            inner.push(&k.label);
            bounded && leaves_at_most(body, n, c, &inner, depth + 1)
        }
        _ => match elab::type_of(e, c) {
            elab::Ty::Numeral => true,
            elab::Ty::Num(m) => elab::rank(m) <= elab::rank(n),
            elab::Ty::Unknown => {
                is_leaf(e) && !c.binds(&e.label) && variable_shaped(&e.label, Letters::Ascii)
            }
        },
    }
}

/// A function variable used only at one point, where a hypothesis gives its value:
/// `(f : ℝ → ℝ) (h : f x = e) : P (f x)` says `P e`. One direction rewrites with `h`; the other
/// instantiates `f := fun _ => e`. So the binder of `f` and `h` go and `f x` becomes `e`, when
/// every occurrence of `f` after its binder is that same application `f x`, none sits between
/// the binder and `h`, `e` does not mention `f`, and nothing else names `h`.
pub(super) fn subst_value(
    binders: &[Tree],
    concl: &Tree,
    carriers: &Carriers,
) -> Option<(Vec<Tree>, Tree, String)> {
    let hypotheses = unused_equations(binders, concl);
    for (i, h, sides) in hypotheses.filter(|(_, h, _)| h.children[0].hypothesis_freecost) {
        for (app, value) in sides {
            let Some(f) = app_head(app) else {
                continue;
            };
            if mentions_head(value, f) {
                continue;
            }
            let Some(j) = binders[..i].iter().rposition(|b| {
                b.label == EXPLICIT
                    && b.children.len() == 2
                    && b.children[0].label == f
                    && b.children[1].label == IMP
            }) else {
                continue;
            };
            let between_clear = binders[j + 1..i].iter().all(|b| !mentions_head(b, f));
            let only_there =
                binders[i + 1..].iter().chain(std::iter::once(concl)).all(|t| only_as(t, f, app));
            // A later binder of `f` or of a name in `app` would make an equal-looking `f x`
            // another term (`… : ∀ x, f x > 0` is about every `x`).
            let mut names = vec![f.to_owned()];
            leaves(app, &mut names);
            let shadowed = binders[i + 1..]
                .iter()
                .chain(std::iter::once(concl))
                .any(|t| names.iter().any(|n| binds_inside(t, n)));
            let mut value_names = Vec::new();
            leaves(value, &mut value_names);
            let captured = binders[i + 1..]
                .iter()
                .chain(std::iter::once(concl))
                .any(|t| value_names.iter().any(|n| binds_inside(t, n)));
            if !between_clear || !only_there || shadowed || captured {
                continue;
            }
            // `f x` had `f`'s codomain as its type; the value keeps it (see `subst`).
            let mut codomain = Some(&binders[j].children[1]);
            for _ in &app.children {
                codomain = codomain
                    .filter(|f| f.label == IMP && f.children.len() == 2)
                    .map(|f| &f.children[1]);
            }
            let Some(codomain) = codomain else {
                continue;
            };
            if !defines_at(codomain, value, carriers) {
                continue;
            }
            let typed_value = ascribed(value, codomain, carriers);
            if typed_value != *value && !ascription_keeps_elaboration(value, codomain, carriers) {
                continue;
            }
            let value = &typed_value;
            let mut out: Vec<Tree> = binders[..j].to_vec();
            out.extend_from_slice(&binders[j + 1..i]);
            out.extend(binders[i + 1..].iter().map(|b| replace(b, app, value)));
            return Some((out, replace(concl, app, value), render(h)));
        }
    }
    None
}

/// `let x := v; b` → `b[v/x]` (children `[x, v, b]` or `[x, T, v, b]`). A written type stays
/// with the value (`let x : ℝ := 1; x / 2` is `(1 : ℝ) / 2`, not the natural `1 / 2`), and a
/// function value is β-reduced where it is applied ([`binders_beta`]).
fn zeta(t: &Tree, carriers: &Carriers) -> Option<Tree> {
    let name = t.children.first().filter(|n| is_leaf(n))?;
    let n = t.children.len();
    let value = match t.children.as_slice() {
        [_, ty, v, _] => ascribed(v, ty, carriers),
        // No written type: the value is elaborated first, on its own (numerals default to ℕ:
        // `let x := 7 / 2` is the natural 3 whatever the body is about), so it keeps the type
        // it has there. A compound value whose type is unknown is left as a `let`.
        [_, v, _] => match elab::type_of(v, carriers) {
            elab::Ty::Num(num) => ascribed(v, &Tree::leaf(elab::type_name(num)), carriers),
            elab::Ty::Numeral => ascribed(v, &Tree::leaf("ℕ"), carriers),
            elab::Ty::Unknown if is_leaf(v) => v.clone(),
            elab::Ty::Unknown => return None,
        },
        _ => t.children[n - 2].clone(),
    };
    let body = &t.children[n - 1];
    substitutable(&name.label, &value, &[body], Some(carriers))
        .then(|| substitute_beta(body, &name.label, &value, carriers))
}

/// Can every use of `name` in `scopes` be replaced by `value` with [`substitute`]? Not when
/// `name` is applied (`f a` keeps `f` in its label, where [`substitute`] does not look: the
/// definition would be lost), rebound inside (`∑ x in s, x`: another `x`), or when a name of
/// `value` is bound inside (capture).
pub(super) fn substitutable(
    name: &str,
    value: &Tree,
    scopes: &[&Tree],
    beta: Option<&Carriers>,
) -> bool {
    // With `beta`, an application of `name` is fine where the value β-reduces there.
    let applied = |t: &Tree, f: &str| {
        fn walk(t: &Tree, f: &str, value: &Tree, beta: Option<&Carriers>) -> bool {
            let reduces =
                || beta.is_some_and(|c| binders_beta::beta(value, &t.children, c).is_some());
            let here = !is_leaf(t) && (t.label == f || (app_head(t) == Some(f) && !reduces()));
            here || t.children.iter().any(|c| walk(c, f, value, beta))
        }
        walk(t, f, value, beta)
    };
    let mut names = Vec::new();
    leaves(value, &mut names);
    scopes.iter().all(|t| {
        !applied(t, name) && !binds_inside(t, name) && !names.iter().any(|n| binds_inside(t, n))
    })
}

/// [`substitute`], and each application `name a…` β-reduced with `value`
/// ([`binders_beta::beta`]; [`substitutable`] has checked it reduces).
pub(super) fn substitute_beta(t: &Tree, name: &str, value: &Tree, carriers: &Carriers) -> Tree {
    substitute_in(t, name, value, Some(carriers))
}

/// `t` with every leaf labelled `name` replaced by `value`, stopping under binders that rebind
/// `name`.
pub(super) fn substitute(t: &Tree, name: &str, value: &Tree) -> Tree {
    substitute_in(t, name, value, None)
}

/// [`substitute`], β-reducing the applications of `name` when `beta` gives the carriers.
fn substitute_in(t: &Tree, name: &str, value: &Tree, beta: Option<&Carriers>) -> Tree {
    if is_leaf(t) {
        return if t.label == name { value.clone() } else { t.clone() };
    }
    if quantifier(t).is_some() && binds(&t.children[0], name) {
        return t.clone();
    }
    let mut out = t.clone();
    out.children = t.children.iter().map(|c| substitute_in(c, name, value, beta)).collect();
    if let Some(carriers) = beta {
        if app_head(t) == Some(name) {
            if let Some(reduced) = binders_beta::beta(value, &out.children, carriers) {
                return reduced;
            }
        }
    }
    out
}

/// `zeta` at a `let` node ([`zeta`]).
pub(super) fn inline_let(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    if !t.label.starts_with("let") || !(3..=4).contains(&t.children.len()) {
        return None;
    }
    zeta(t, ctx.carriers).map(|new| ("zeta", new))
}
