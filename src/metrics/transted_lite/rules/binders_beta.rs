//! β-reduction where `zeta` or `forall_eq` puts a function's value at its applications.
//!
//! Owns [`beta`]: `(fun x => e : T → U) a` is `(e[a/x] : U)` with `a` at type `T`. Without it a
//! substitution of `f := fun x => e` into `f a` would be refused (the head `f` lives in the
//! label of `f a`, where leaf substitution does not look), so `let f := …` statements would
//! keep `f` and never meet the statement that writes `e[a/x]`.
//!
//! Sound only where the types stay as Lean elaborates them: the argument is elaborated at the
//! binder's type and the body at the codomain, so both must be known (an arrow type written on
//! the value, by the `let` or by the variable's binder, or a typed `fun (x : T)` binder for the
//! domain). Unknown types, partial applications, binders rebound or names captured inside the
//! body: no reduction. Must not decide anything about where substitution is allowed (the
//! callers' `substitutable` does).

use super::binders_casts::ascribed;
use super::carriers::Carriers;
use super::shapes::{app_head, binder_kind, binds_inside, leaves, mentions, BinderKind};
use crate::trees::Tree;

const UNKNOWN_TYPE: &str = "_";

fn known(ty: &Tree) -> bool {
    !(ty.children.is_empty() && ty.label == UNKNOWN_TYPE)
}

/// `value` applied to `args`, β-reduced, or `None` when that is not known sound (see the module
/// doc). `value` is `fun x₁ … xₙ => e`, possibly ascribed `( _ : T₁ → … → Tₙ → U)`, with exactly
/// one binder per argument.
pub(super) fn beta(value: &Tree, args: &[Tree], carriers: &Carriers) -> Option<Tree> {
    let (lambda, arrow) = match (value.label.as_str(), value.children.as_slice()) {
        ("( _ : _ )", [v, ty]) => (v, Some(ty)),
        _ => (value, None),
    };
    let n = args.len();
    if n == 0
        || lambda.label != format!("fun{}=> _ ", " _ ".repeat(n))
        || lambda.children.len() != n + 1
    {
        return None;
    }
    // Domains and codomain from the ascription, when there is one.
    let mut domains: Vec<Option<&Tree>> = Vec::with_capacity(n);
    let mut rest = arrow;
    for _ in 0..n {
        match rest {
            Some(t) if t.label == " _ → _ " && t.children.len() == 2 => {
                domains.push(Some(&t.children[0]));
                rest = Some(&t.children[1]);
            }
            _ => {
                domains.push(None);
                rest = None;
            }
        }
    }
    let codomain = rest.filter(|u| known(u))?;
    let body = &lambda.children[n];
    let mut names: Vec<&str> = Vec::with_capacity(n);
    let mut typed_args = Vec::with_capacity(n);
    for (i, binder) in lambda.children[..n].iter().enumerate() {
        let (name, written) = if binder.children.is_empty() {
            (binder, None)
        } else if binder_kind(&binder.label) == Some(BinderKind::Explicit)
            && binder.children.len() == 2
            && binder.children[0].children.is_empty()
        {
            (&binder.children[0], Some(&binder.children[1]))
        } else {
            return None;
        };
        // A written binder type and the ascription's domain must agree (else elaboration would
        // coerce or fail: not a plain β-step).
        let ty = match (written, domains[i]) {
            (Some(w), Some(d)) if w != d => return None,
            (Some(w), _) => w,
            (None, Some(d)) => d,
            (None, None) => return None,
        };
        if !known(ty) || names.contains(&name.label.as_str()) {
            return None;
        }
        names.push(&name.label);
        typed_args.push(ascribed(&args[i], ty, carriers));
    }
    // Simultaneous substitution done one name at a time: no argument may mention a binder name.
    if typed_args.iter().any(|a| names.iter().any(|x| mentions(a, x))) {
        return None;
    }
    let mut out = body.clone();
    for (x, a) in names.iter().zip(&typed_args) {
        let mut arg_names = Vec::new();
        leaves(a, &mut arg_names);
        if applied_in(&out, x)
            || binds_inside(&out, x)
            || arg_names.iter().any(|m| binds_inside(&out, m))
        {
            return None;
        }
        out = replace_leaf(&out, x, a);
    }
    Some(ascribed(&out, codomain, carriers))
}

/// Is `f` the head of an application in `t` (in a label, where leaf replacement does not look)?
fn applied_in(t: &Tree, f: &str) -> bool {
    (!t.children.is_empty() && app_head(t) == Some(f))
        || t.children.iter().any(|c| applied_in(c, f))
}

/// `t` with every leaf `x` replaced by `a` (the caller has ruled out rebinding and capture).
fn replace_leaf(t: &Tree, x: &str, a: &Tree) -> Tree {
    if t.children.is_empty() {
        return if t.label == x { a.clone() } else { t.clone() };
    }
    let mut out = t.clone();
    out.children = t.children.iter().map(|c| replace_leaf(c, x, a)).collect();
    out
}
