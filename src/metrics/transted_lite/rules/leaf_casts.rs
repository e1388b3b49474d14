//! Where a type ascription sits on the leaves of one arithmetic tree.
//!
//! `+ - * /` are `binop%` (Lean's `src/Lean/Elab/Extra.lean`): the leaves of the whole tree are
//! elaborated first, the largest of their types is the type of every operation, and each leaf
//! of a smaller type gets a cast `↑` to it (`applyCoe`). Parentheses are transparent and an
//! ascription `(e : T)` is a leaf of type `T`. So an ascription on a leaf changes nothing where
//! another leaf already has its type, and a numeral's ascription can move to a variable
//! operand beside it without changing the largest type. An argument is elaborated against its
//! parameter's type as an ascription is against its own (`elabTermEnsuringType`), so at a
//! parameter of type `T` an ascription `(e : T)` changes nothing either. A relation (`binrel%`)
//! makes one tree of both its operands, so the same holds across it, and an ascribed tree
//! opens into it where no leaf is larger. Owns those procedures; the leaf ones rewrite
//! only leaves that are numerals or variables bound with a number type, never a compound term
//! (`((a - b : ℕ) : ℝ)` keeps ℕ's truncation inside), and never the exponent of `^`, which is
//! elaborated alone.

use super::carriers::Carriers;
use super::elab::{self, parameter_type, rank, Num, Ty};
use super::shapes::{app_head, binds_inside, is_binding_node, is_leaf, literal, COMPARISONS};
use super::typed::{self, Deciders};
use crate::trees::Tree;

const ASCRIPTION: &str = "( _ : _ )";

/// The `binop%` operations whose operands are elaborated together.
fn binary_arithmetic(t: &Tree) -> bool {
    t.children.len() == 2
        && matches!(t.label.as_str(), " _ + _ " | " _ - _ " | " _ * _ " | " _ / _ ")
}

/// A variable leaf's written number type.
fn variable_type(t: &Tree, c: &Carriers) -> Option<Num> {
    if !is_leaf(t) || literal(t).is_some() || !c.binds(&t.label) {
        return None;
    }
    match elab::type_of(t, c) {
        Ty::Num(n) => Some(n),
        _ => None,
    }
}

/// `(e : T)` with `T` a number type and `e` a numeral or a variable of a smaller number type.
fn leaf_ascription<'t>(t: &'t Tree, c: &Carriers) -> Option<(&'t Tree, Num)> {
    let (ASCRIPTION, [e, ty]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let target = elab::num_of_type(ty)?;
    let smaller =
        literal(e).is_some() || variable_type(e, c).is_some_and(|s| rank(s) < rank(target));
    smaller.then_some((e, target))
}

/// `(k : T) ∘ x` is `k ∘ (x : T)` for a numeral `k` and a variable `x` of a smaller number
/// type (and `x ∘ (k : T)` is `(x : T) ∘ k`): the tree's largest type is `T` either way, and
/// both leaves are at it.
pub(super) fn numeral_ascription_to_variable(t: &Tree, c: &Carriers) -> Option<Tree> {
    if !binary_arithmetic(t) {
        return None;
    }
    for i in 0..2 {
        let (ASCRIPTION, [k, ty]) =
            (t.children[i].label.as_str(), t.children[i].children.as_slice())
        else {
            continue;
        };
        let Some(target) = elab::num_of_type(ty) else {
            continue;
        };
        let x = &t.children[1 - i];
        let smaller = variable_type(x, c).is_some_and(|s| rank(s) < rank(target));
        if literal(k).is_none() || !smaller {
            continue;
        }
        let mut out = t.clone();
        out.children[i] = k.clone();
        out.children[1 - i] = Tree::node(ASCRIPTION, vec![x.clone(), ty.clone()]);
        return Some(out);
    }
    None
}

/// `(x : T) ∘ e` is `x ∘ e` when another leaf of the arithmetic tree has type `T` itself
/// (`(i : ℂ) * z ^ i` with `z : ℂ`; `(n : ℝ) / ((n : ℝ) + 1)`, an ascription being a leaf of
/// its type): `x` is cast to `T` either way. Rewrites the last such ascription (pre-order), in
/// the tree whose root is `t`; a leaf of the larger tree around `t` is not read.
pub(super) fn leaf_ascription_beside_its_type(t: &Tree, c: &Carriers) -> Option<Tree> {
    if !binary_arithmetic(t) {
        return None;
    }
    let mut leaves = Vec::new();
    elab::arithmetic_leaves(t, &mut leaves, 0);
    let typed = |l: &Tree| match (l.label.as_str(), l.children.as_slice()) {
        (ASCRIPTION, [_, ty]) => elab::num_of_type(ty),
        _ => match elab::type_of(l, c) {
            Ty::Num(n) => Some(n),
            _ => None,
        },
    };
    let types: Vec<Option<Num>> = leaves.iter().map(|l| typed(l)).collect();
    // The last one: ascriptions go from the right until a first one is left beside leaves of
    // smaller types, so `(n : ℝ) / ((n : ℝ) + 1)` and `(n : ℝ) / (n + 1)` meet.
    let k = leaves.iter().enumerate().rposition(|(k, l)| {
        leaf_ascription(l, c).is_some_and(|(_, target)| {
            types.iter().enumerate().any(|(j, ty)| j != k && *ty == Some(target))
        })
    })?;
    let mut index = 0;
    Some(without_ascription(t, k, &mut index, c))
}

/// `(e : T) ∘ x` is `e ∘ x` for numerals `e` (no `%`) and a field `T` (ℚ ℝ ℂ) that another
/// leaf of the tree has. With the ascription `e` is elaborated alone at `T`; without it its
/// numerals are leaves of the tree, elaborated at the tree's largest type, `T` or above it. The
/// casts ℚ → ℝ → ℂ keep `+ - * / ⁻¹` and numeral powers (`Rat.cast_div`, `Complex.ofReal_div`),
/// so the value is the same; at ℕ or ℤ division would not be (`(7 / 2 : ℕ) * n + x`).
///
/// `relation` is the type of the relation `t` is arithmetic of (`elab::numeral_context`): a
/// subtree's leaves are not the whole tree's, whose largest type decides.
pub(super) fn numerals_ascription_beside_its_type(
    t: &Tree,
    c: &Carriers,
    relation: Option<Num>,
) -> Option<Tree> {
    if !binary_arithmetic(t) || relation.is_none() {
        return None;
    }
    let mut leaves = Vec::new();
    elab::arithmetic_leaves(t, &mut leaves, 0);
    let types: Vec<Option<Num>> = leaves
        .iter()
        .map(|l| match (l.label.as_str(), l.children.as_slice()) {
            (ASCRIPTION, [_, ty]) => elab::num_of_type(ty),
            _ => match elab::type_of(l, c) {
                Ty::Num(n) => Some(n),
                _ => None,
            },
        })
        .collect();
    // A leaf of a type not on the ladder (a matrix) may make `binop%` give up its analysis.
    if leaves.iter().zip(&types).any(|(l, ty)| ty.is_none() && !elab::numerals_only(l, 0)) {
        return None;
    }
    let k = leaves.iter().enumerate().position(|(k, l)| {
        let (ASCRIPTION, [e, _]) = (l.label.as_str(), l.children.as_slice()) else {
            return false;
        };
        let field = types[k].is_some_and(|n| matches!(n, Num::Rat | Num::Real | Num::Complex));
        !is_leaf(e)
            && elab::numerals_only(e, 0)
            && !super::shapes::has_label(e, " _ % _ ")
            && field
            && types.iter().enumerate().any(|(j, ty)| j != k && *ty == types[k])
    })?;
    let mut index = 0;
    Some(elab::map_arithmetic_leaves(t, &mut |leaf| {
        index += 1;
        (index - 1 == k).then(|| leaf.children[0].clone())
    }))
}

/// `x ∘ (y : T)` is `(x : T) ∘ y` where `x` and `y` are variables of number types smaller than
/// `T`, and every other leaf of the tree is a numeral or such a variable: the tree's largest
/// type is `T` either way, and every variable is cast to it. The one ascription goes to the
/// first variable (pre-order), so that `a - (b : ℤ)` and `(a : ℤ) - b` meet.
pub(super) fn ascription_to_first_variable(t: &Tree, c: &Carriers) -> Option<Tree> {
    if !binary_arithmetic(t) {
        return None;
    }
    let mut leaves = Vec::new();
    elab::arithmetic_leaves(t, &mut leaves, 0);
    let ascribed: Vec<(usize, Num)> = leaves
        .iter()
        .enumerate()
        .filter_map(|(k, l)| {
            let (e, target) = leaf_ascription(l, c)?;
            (literal(e).is_none()).then_some((k, target))
        })
        .collect();
    let [(k, target)] = ascribed.as_slice() else {
        return None;
    };
    let smaller = |l: &Tree| variable_type(l, c).is_some_and(|s| rank(s) < rank(*target));
    let rest_fits =
        leaves.iter().enumerate().all(|(j, l)| j == *k || literal(l).is_some() || smaller(l));
    let first = leaves.iter().position(|l| literal(l).is_none())?;
    if !rest_fits || first == *k {
        return None;
    }
    let ty = leaves[*k].children.get(1)?.clone();
    let mut index = 0;
    let moved = without_ascription(t, *k, &mut index, c);
    let mut index = 0;
    Some(elab::map_arithmetic_leaves(&moved, &mut |leaf| {
        index += 1;
        (index - 1 == first).then(|| Tree::node(ASCRIPTION, vec![leaf.clone(), ty.clone()]))
    }))
}

/// `(↑x : T)` is `(x : T)` for a variable `x` of a smaller number type: the ascription's
/// expected type `T` is what `↑` coerces to, and `(x : T)` inserts the same coercion
/// (`ensureHasType`, the `NatCast`/`IntCast`/`RatCast` instance of `T` either way).
pub(super) fn coercion_under_ascription(t: &Tree, c: &Carriers) -> Option<Tree> {
    let (ASCRIPTION, [coerced, ty]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let ("↑", [x]) = (coerced.label.as_str(), coerced.children.as_slice()) else {
        return None;
    };
    let target = elab::num_of_type(ty)?;
    variable_type(x, c)
        .is_some_and(|s| rank(s) < rank(target))
        .then(|| Tree::node(ASCRIPTION, vec![x.clone(), ty.clone()]))
}

/// `t` with the ascription of its `k`-th arithmetic leaf (pre-order, as [`elab::arithmetic_leaves`])
/// taken off.
fn without_ascription(t: &Tree, k: usize, index: &mut usize, c: &Carriers) -> Tree {
    let Some(operands) = elab::same_tree_operands(t) else {
        let here = *index == k;
        *index += 1;
        return match (here, leaf_ascription(t, c)) {
            (true, Some((e, _))) => e.clone(),
            _ => t.clone(),
        };
    };
    let mut out = t.clone();
    for i in 0..operands.len() {
        out.children[i] = without_ascription(&t.children[i], k, index, c);
    }
    out
}

/// `fun x => … (x : T) ∘ e …` is `fun x => … x ∘ e …` when `x`'s first use decides its type
/// (`fun n => a n / (n : ℝ)` with `a : ℕ → ℝ`: `a` takes `n : ℕ`, [`typed::infer_binder_type`]) and the ascription is beside a leaf of type `T`, as in
/// [`leaf_ascription_beside_its_type`]. The decided type holds in the whole body, so the body is
/// read with `x` bound at it; a body that binds `x` again is refused. Rewrites the first such
/// ascription in the body.
pub(super) fn ascription_beside_its_type_under_binder(t: &Tree, c: &Carriers) -> Option<Tree> {
    if !is_binding_node(&t.label) {
        return None;
    }
    let (x, domain, body) = match t.children.as_slice() {
        [x, body] => (x, None, body),
        // `∑ i ∈ s, e`: the binder ranges over `s`'s elements.
        [x, domain, body] if domain.label == "∈ _ " && domain.children.len() == 1 => {
            (x, Some(&domain.children[0]), body)
        }
        _ => return None,
    };
    if !is_leaf(x) || !c.untyped_only(&x.label) || binds_inside(body, &x.label) {
        return None;
    }
    let decided = match domain {
        // `Finset.range n : Finset ℕ`, an interval with endpoints of one type (`Finset.sum s f`
        // takes `f : α → β` for `s : Finset α`, Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean).
        Some(s) => {
            let n = typed::interval_element(s, c, &[], Deciders::TheoremBinders)?;
            Tree::leaf(elab::type_name(n))
        }
        None => typed::infer_binder_type(&x.label, body, c, Deciders::TheoremBinders)?,
    };
    elab::num_of_type(&decided)?;
    let typed_here = c.with_name_type(&x.label, &decided);
    let new_body = first_rewrite(body, &typed_here, 0)?;
    let mut out = t.clone();
    *out.children.last_mut()? = new_body;
    Some(out)
}

/// `t` with the first node (pre-order) that [`leaf_ascription_beside_its_type`] rewrites.
fn first_rewrite(t: &Tree, c: &Carriers, depth: usize) -> Option<Tree> {
    if depth > 200 {
        return None;
    }
    if let Some(new) = leaf_ascription_beside_its_type(t, c) {
        return Some(new);
    }
    for (i, ch) in t.children.iter().enumerate() {
        if let Some(new) = first_rewrite(ch, c, depth + 1) {
            let mut out = t.clone();
            out.children[i] = new;
            return Some(out);
        }
    }
    None
}

/// `f (e : T)` is `f e` where `f`'s parameter there has type `T`: the argument is elaborated
/// against `T` either way (`Nat.Prime (2 ^ n + 1 : ℕ)` is `Nat.Prime (2 ^ n + 1)`). Only Mathlib
/// functions the statement does not rebind, applied to at most their explicit parameters.
pub(super) fn ascription_at_its_parameter(t: &Tree, c: &Carriers) -> Option<Tree> {
    let f = app_head(t)?;
    if c.binds(f) {
        return None;
    }
    let mut out = t.clone();
    let mut changed = false;
    for (i, arg) in t.children.iter().enumerate() {
        let (ASCRIPTION, [e, ty]) = (arg.label.as_str(), arg.children.as_slice()) else {
            continue;
        };
        if parameter_type(f, i).is_some_and(|p| elab::num_of_type(ty) == Some(p)) {
            out.children[i] = e.clone();
            changed = true;
        }
    }
    changed.then_some(out)
}

/// `∫ x in (a : ℝ)..b, r` is `∫ x in a..b, r`: the notation is `intervalIntegral (fun x => r) a
/// b volume` and `intervalIntegral (f : ℝ → E) (a b : ℝ)`
/// (Mathlib/MeasureTheory/Integral/IntervalIntegral/Basic.lean), so each endpoint is elaborated
/// against `ℝ`, as the ascription would have it (`elabTermEnsuringType`).
pub(super) fn ascription_at_interval_end(t: &Tree, c: &Carriers) -> Option<Tree> {
    let ("∫ _  _ , _ ", [_, range, _]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let ("in _ ", [ends]) = (range.label.as_str(), range.children.as_slice()) else {
        return None;
    };
    let (" _ .. _ ", [_, _]) = (ends.label.as_str(), ends.children.as_slice()) else {
        return None;
    };
    let k = ends.children.iter().position(|end| {
        matches!((end.label.as_str(), end.children.as_slice()),
            (ASCRIPTION, [_, ty]) if elab::num_of_type(ty) == Some(Num::Real)
                && !c.binds(&ty.label) && !c.theorem_binder(&ty.label))
    })?;
    let mut out = t.clone();
    let end = &mut out.children[1].children[0].children[k];
    *end = end.children[0].clone();
    Some(out)
}

/// `f (… (x : T) ∘ e …)` is `f (… x ∘ e …)` where `f`'s parameter there has type `T`: `binop%`
/// starts its largest type from the expected type (Lean's `src/Lean/Elab/Extra.lean`,
/// `analyze`: `max?` begins as the expected type when it is known), so every leaf of a smaller
/// type is cast to `T` with the ascription or without (`√((n : ℝ) ^ 3 + a * n)` is
/// `√(n ^ 3 + a * n)` for integers `n a`). `√` is `Real.sqrt`'s prefix notation. Rewrites the
/// first such ascription (pre-order) of the first such argument.
pub(super) fn ascription_under_its_parameter(t: &Tree, c: &Carriers) -> Option<Tree> {
    let f = if t.label == "√" { "Real.sqrt" } else { app_head(t)? };
    if c.binds(f) || (t.label == "√" && c.binds("√")) {
        return None;
    }
    for (i, arg) in t.children.iter().enumerate() {
        let Some(expected) = parameter_type(f, i) else {
            continue;
        };
        if !binary_arithmetic(arg) {
            continue;
        }
        let mut leaves = Vec::new();
        elab::arithmetic_leaves(arg, &mut leaves, 0);
        let Some(k) = leaves
            .iter()
            .position(|l| leaf_ascription(l, c).is_some_and(|(_, target)| target == expected))
        else {
            continue;
        };
        let mut out = t.clone();
        out.children[i] = without_ascription(arg, k, &mut 0, c);
        return Some(out);
    }
    None
}

/// The `binrel%` relations (Lean's `Init/Core.lean`, `Init/Prelude.lean` notations): their two
/// operands are one tree with the operations of both (`elabBinRelCore`, Elab/Extra.lean), which
/// is the largest tree `binop%` ever sees, so its largest type is the type every leaf is cast to.
fn binrel_operands(t: &Tree) -> Option<&[Tree]> {
    (COMPARISONS.contains(&t.label.as_str()) && t.children.len() == 2).then_some(&t.children)
}

/// `new` where it decides names' types as `old` does ([`typed::infer_binder_type`], by either
/// kind of decider): a name bound with no type takes its type from its first deciding use,
/// which an ascription may be, and a binder rule drops a written type where that use decides
/// it (`(y : ℝ) < x` lets `(x : ℝ)` lose its `ℝ`; `y < x` would then make `x` natural). So a
/// name with no written type must be decided the same, and one with a written type decided
/// at it in both or in neither.
fn keeping_decisions(old: &Tree, new: Tree, c: &Carriers) -> Option<Tree> {
    let mut names = Vec::new();
    super::shapes::leaves(old, &mut names);
    let same = names.iter().filter(|n| literal(&Tree::leaf(n.as_str())).is_none()).all(|n| {
        [Deciders::Fixed, Deciders::TheoremBinders].iter().all(|by| {
            let before = typed::infer_binder_type(n, old, c, *by);
            let after = typed::infer_binder_type(n, &new, c, *by);
            match c.name_type(n) {
                Some(written) => {
                    (before.as_ref() == Some(written)) == (after.as_ref() == Some(written))
                }
                None => before == after,
            }
        })
    });
    same.then_some(new)
}

/// The number type of each leaf of a relation's tree (`None` for a numeral), or `None` where a
/// leaf that is no numeral has a type elaboration-lite does not know: `analyze` would meet a
/// type it cannot compare, or one a later use decides.
fn relation_leaf_types<'t>(
    operands: &'t [Tree],
    c: &Carriers,
) -> Option<Vec<(&'t Tree, Option<Num>)>> {
    let mut leaves = Vec::new();
    for side in operands {
        elab::arithmetic_leaves(side, &mut leaves, 0);
    }
    leaves
        .into_iter()
        .map(|l| {
            if literal(l).is_some() {
                return Some((l, None));
            }
            let ty = match (l.label.as_str(), l.children.as_slice()) {
                (ASCRIPTION, [_, ty]) => elab::num_of_type(ty),
                _ => match elab::type_of(l, c) {
                    Ty::Num(n) => Some(n),
                    _ => None,
                },
            };
            ty.map(|n| (l, Some(n)))
        })
        .collect()
}

/// `(a ∘ b : T) R e` is `(a : T) ∘ b R e` where every leaf of the relation's tree is a numeral
/// or of a number type no larger than `T`, and the leaves of `a ∘ b` are numerals and
/// variables: `(a ∘ b : T)` is elaborated against `T` (`toExpr` starts `analyze` from the
/// expected type), so each of its leaves is cast to `T` and every operation inside is `T`'s
/// (`(a - b : ℝ)` is `↑a - ↑b`); without the ascription the tree joins the relation's, whose
/// largest type is then `T` again, held by `(a : T)`. Refused where another leaf is larger
/// (`(x : ℝ) = (a / b : ℤ)` keeps ℤ's division inside) or of a type not known here.
pub(super) fn tree_ascription_into_relation(t: &Tree, c: &Carriers) -> Option<Tree> {
    let operands = binrel_operands(t)?;
    let leaves = relation_leaf_types(operands, c)?;
    let (k, target) = leaves.iter().enumerate().find_map(|(k, (l, _))| {
        let (ASCRIPTION, [e, ty]) = (l.label.as_str(), l.children.as_slice()) else {
            return None;
        };
        elab::same_tree_operands(e)?;
        Some((k, elab::num_of_type(ty)?))
    })?;
    let fits = |n: &Option<Num>| n.is_none_or(|n| rank(n) <= rank(target));
    if !leaves.iter().all(|(_, n)| fits(n)) {
        return None;
    }
    let (ASCRIPTION, [e, ty]) = (leaves[k].0.label.as_str(), leaves[k].0.children.as_slice())
    else {
        return None;
    };
    let mut inner = Vec::new();
    elab::arithmetic_leaves(e, &mut inner, 0);
    // Numerals, variables and their ascriptions (`((n : ℚ) * (n + 1) / 2 : ℚ)`).
    let inner_type = |l: &Tree| match leaf_ascription(l, c) {
        Some((_, n)) => Some(Some(n)),
        None if literal(l).is_some() => Some(None),
        None => variable_type(l, c).map(Some),
    };
    let inner_types: Option<Vec<Option<Num>>> = inner.iter().map(|l| inner_type(l)).collect();
    // Numerals alone are left to `norm_num`, which reads `(2 / 2 : ℝ)` as one value.
    let inner_types =
        inner_types.filter(|types| types.iter().all(fits) && types.iter().any(Option::is_some))?;
    // The leaf that carries `T` after: one already of `T`, else the first variable (the first
    // numeral where there is none), as [`ascription_to_first_variable`] leaves it.
    let opened = if inner_types.contains(&Some(target)) {
        e.clone()
    } else {
        let first = inner.iter().position(|l| literal(l).is_none()).unwrap_or(0);
        let mut index = 0;
        elab::map_arithmetic_leaves(e, &mut |leaf| {
            index += 1;
            (index - 1 == first).then(|| Tree::node(ASCRIPTION, vec![leaf.clone(), ty.clone()]))
        })
    };
    let mut index = 0;
    let mut out = t.clone();
    for i in 0..2 {
        out.children[i] = elab::map_arithmetic_leaves(&t.children[i], &mut |_| {
            index += 1;
            (index - 1 == k).then(|| opened.clone())
        });
    }
    // An ascription holds `T` before and after, so a name whose type the relation decides
    // (its binder's type dropped, or never written) is unified with `T` either way.
    Some(out)
}

/// `(x : T) ∘ a R e` is `x ∘ a R e` where another leaf of the relation's tree has type `T`
/// and no leaf is larger or of a type not known here: the relation's largest type is `T` either
/// way (`elabBinRelCore` analyses both operands as one tree), and `x` is cast to it.
/// [`leaf_ascription_beside_its_type`] across a relation (`∑ i ∈ s, (i : ℚ) = n / 2`).
pub(super) fn leaf_ascription_beside_its_type_in_relation(t: &Tree, c: &Carriers) -> Option<Tree> {
    let operands = binrel_operands(t)?;
    let leaves = relation_leaf_types(operands, c)?;
    // The last one, as in [`leaf_ascription_beside_its_type`].
    let k = leaves.iter().enumerate().rposition(|(k, (l, _))| {
        leaf_ascription(l, c).is_some_and(|(_, target)| {
            let beside = leaves.iter().enumerate().any(|(j, (_, n))| j != k && *n == Some(target));
            let largest = leaves.iter().all(|(_, n)| n.is_none_or(|n| rank(n) <= rank(target)));
            beside && largest
        })
    })?;
    let mut index = 0;
    let mut out = t.clone();
    for i in 0..2 {
        out.children[i] = without_ascription(&t.children[i], k, &mut index, c);
    }
    keeping_decisions(t, out, c)
}
