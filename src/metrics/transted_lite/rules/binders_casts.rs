//! Where a substituted variable stood: at its own number type, or under a cast.
//!
//! Owns [`uses_at_own_type`], which `forall_eq` asks before it puts a natural or integer value
//! with `-`, `/` or `%` in place of a variable without an ascription: `binop%` pushes a cast
//! to the leaves of a bare `y - 3`, where it does not commute with truncation, so the bare
//! value is only the same term where no cast reaches it; and [`ascribed`], the ascription
//! `(e : T)` a value keeps where it replaces a variable of type `T`. Must not rewrite anything.

use super::carriers::Carriers;
use super::shapes::{is_leaf, node2, COMPARISONS, UNKNOWN_TYPE};

use super::elab;
use crate::trees::Tree;

const ARITHMETIC: [&str; 5] = [" _ + _ ", " _ - _ ", " _ * _ ", " _ / _ ", " _ % _ "];

/// Is every occurrence of the leaf `name` in `scopes` inside arithmetic (`+ - * / %`, a power's
/// base, negation) that goes up to a relation whose two sides elaborate at `ty`
/// (elaboration-lite, [`elab::carrier`])? Then no cast reaches it. Any other place (a function
/// argument, an ascription, `↑`, `∣`, an unknown carrier) counts as a possible cast.
pub(super) fn uses_at_own_type(name: &str, ty: &Tree, scopes: &[&Tree], c: &Carriers) -> bool {
    let Some(n) = elab::num_of_type(ty) else {
        return false;
    };
    let mut path = Vec::new();
    scopes.iter().all(|t| walk(t, name, n, c, &mut path))
}

fn walk<'t>(
    t: &'t Tree,
    name: &str,
    n: elab::Num,
    c: &Carriers,
    path: &mut Vec<(&'t Tree, usize)>,
) -> bool {
    if is_leaf(t) {
        return t.label != name || at_own_type(path, n, c);
    }
    t.children.iter().enumerate().all(|(i, child)| {
        path.push((t, i));
        let ok = walk(child, name, n, c, path);
        path.pop();
        ok
    })
}

/// The occurrence at the end of `path` (parents with the child index taken).
fn at_own_type(path: &[(&Tree, usize)], n: elab::Num, c: &Carriers) -> bool {
    for &(parent, slot) in path.iter().rev() {
        let label = parent.label.as_str();
        let arithmetic = (ARITHMETIC.contains(&label) && parent.children.len() == 2)
            || (label == "-" && parent.children.len() == 1)
            || (label == " _ ^ _ " && slot == 0);
        if arithmetic {
            continue;
        }
        if COMPARISONS.contains(&label) && parent.children.len() == 2 {
            let sides = [&parent.children[0], &parent.children[1]];
            return elab::carrier(&sides, c) == Some(n);
        }
        return false;
    }
    false
}

/// `(e : T)`, unless `T` is unknown (`_`) or `e` has type `T` anyway (elaboration-lite: a
/// number type its own binders decide). Numerals alone are ℕ unless the context decides
/// otherwise, and a context that made a natural variable another number type did so by
/// coercing it at the leaf (`binop%`), where the numeral takes that type with the same value:
/// so numerals put for a natural need no ascription, unless the statement has a type where
/// numerals wrap (`Fin n`, `ZMod n`, a type variable). For any other type they do (`(x : ℤ) (h : x = 2)`
/// makes `x - 3` the integer `-1`; `2 - 3` is the natural `0`). Nor does a natural or integer
/// value with `-`, `/` or `%` in it: where the variable stood under a cast (`(x : ℝ)`, or an
/// operand `binop%` coerces), the cast went around the whole value, and `binop%` would push it
/// to the leaves of a bare `y - 3`, where it does not commute with truncation (`↑(y - 3)` is
/// not `↑y - 3`); the ascription `(y - 3 : ℕ)` keeps it a leaf.
pub(super) fn ascribed(e: &Tree, ty: &Tree, carriers: &Carriers) -> Tree {
    ascribed_where(e, ty, carriers, false)
}

/// [`ascribed`], told whether no cast reaches the places the value goes to
/// ([`binders_casts::uses_at_own_type`]): then a truncating value needs no ascription either.
pub(super) fn ascribed_where(e: &Tree, ty: &Tree, carriers: &Carriers, uncast: bool) -> Tree {
    let already = e.label == "( _ : _ )" && e.children.get(1) == Some(ty);
    fn truncating(t: &Tree) -> bool {
        [" _ - _ ", " _ / _ ", " _ % _ "].contains(&t.label.as_str())
            || (t.label != "( _ : _ )" && t.children.iter().any(truncating))
    }
    let own = elab::num_of_type(ty).is_some_and(|n| {
        let discrete = matches!(n, elab::Num::Nat | elab::Num::Int);
        let fits = match elab::type_of(e, carriers) {
            elab::Ty::Num(m) => m == n,
            // Not where a numeral may mean another number (`7 ≠ x` with `x : Fin 5` is about
            // 2): the natural `7` is cast there, the numeral is not.
            elab::Ty::Numeral => n == elab::Num::Nat && !carriers.numerals_may_wrap(),
            elab::Ty::Unknown => false,
        };
        fits && (uncast || !(discrete && truncating(e)))
    });
    if (is_leaf(ty) && ty.label == UNKNOWN_TYPE) || already || own {
        return e.clone();
    }
    node2("( _ : _ )", e.clone(), ty.clone())
}
