//! Where a substituted variable stood: at its own number type, or under a cast.
//!
//! Owns [`uses_at_own_type`], which `forall_eq` asks before it puts a natural or integer value
//! with `-`, `/` or `%` in place of a variable without an ascription: `binop%` pushes a cast
//! to the leaves of a bare `y - 3`, where it does not commute with truncation, so the bare
//! value is only the same term where no cast reaches it. Must not rewrite anything.

use super::elab;
use super::shapes::is_leaf;
use super::typed::Carriers;
use crate::trees::Tree;

const ARITHMETIC: [&str; 5] = [" _ + _ ", " _ - _ ", " _ * _ ", " _ / _ ", " _ % _ "];
const RELATIONS: [&str; 6] = [
    " _ = _ ",
    " _ ≠ _ ",
    " _ < _ ",
    " _ ≤ _ ",
    " _ > _ ",
    " _ ≥ _ ",
];

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
        if RELATIONS.contains(&label) && parent.children.len() == 2 {
            let sides = [&parent.children[0], &parent.children[1]];
            return elab::carrier(&sides, c) == Some(n);
        }
        return false;
    }
    false
}
