//! The commutativity gate of `add_comm`/`mul_comm`: [`Commutativity::of`] says whether every
//! carrier type the statement's binders mention is known commutative, and [`opaque_or_matrix`]
//! whether a term's type is unknown (an unparsed span, a matrix literal).
//!
//! `add_comm`/`mul_comm` fire at a `+`/`*` node only when elaboration-lite types that node as
//! ℕ ℤ ℚ ℝ ℂ (`elab::commutes_at`), or [`commutes_by_class`] finds it arithmetic of one type
//! variable whose every instance makes the operator commutative (`+` of `[Ring R]`, `*` of
//! `[CommRing R]`) or arithmetic under `( … : Polynomial ℤ)`; and, as a second gate, when this
//! says the statement is commutative. A matrix, a quaternion, an auto-bound `(x : _)`, `[Mul M]`,
//! `[Monoid M]`, `*` of `[Ring R]`, an ordinal or a pointwise product of functions does not
//! commute. Rewrites nothing.

use super::carriers::Carriers;
use super::shapes::{collect_binders, is_leaf, is_prop_shaped, is_universe, IMP, UNKNOWN_TYPE};
use crate::trees::Tree;

// ---------------------------------------------------------------------------------------------
// Commutativity gate

/// Which of `+` and `*` are known commutative in a statement (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Commutativity {
    pub add: bool,
    pub mul: bool,
}

const COMMUTATIVE_NUMERIC: [&str; 13] =
    ["ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "ℕ+", "ℝ≥0", "ℝ≥0∞", "NNReal", "ENNReal", "EReal", "Nat", "Int"];
const COMMUTATIVE_WRAPPERS: [&str; 6] =
    ["Fin _ ", "ZMod _ ", "Set _ ", "Finset _ ", "Multiset _ ", "Polynomial _ "];

impl Commutativity {
    /// Look at every binder of `tree` and decide.
    pub fn of(tree: &Tree) -> Commutativity {
        let mut binders: Vec<(&Tree, &Tree, bool)> = Vec::new(); // (name, type, is instance)
        collect_binders(tree, &mut binders);
        let mut carriers_add: Vec<&str> = Vec::new();
        let mut carriers_mul: Vec<&str> = Vec::new();
        for (_, ty, instance) in &binders {
            if !instance {
                continue;
            }
            // `[CommRing R]`: the class head and its argument.
            let class = ty.label.split_whitespace().next().unwrap_or("");
            let class = class.rsplit('.').next().unwrap_or(class);
            let Some(arg) = ty.children.first().filter(|a| is_leaf(a)) else {
                continue;
            };
            let mul = (class.contains("Comm") && !class.starts_with("AddComm"))
                || class.contains("Field")
                || class == "EuclideanDomain"
                || class == "RCLike";
            let add = mul
                || class.contains("AddComm")
                || class.contains("Ring")
                || class.contains("Field");
            if mul {
                carriers_mul.push(arg.label.as_str());
            }
            if add {
                carriers_add.push(arg.label.as_str());
            }
        }
        let mut out = Commutativity { add: true, mul: true };
        for (name, ty, instance) in &binders {
            if *instance || name.hypothesis_freecost || is_universe(ty) || is_prop_shaped(ty) {
                continue;
            }
            if ty.label == UNKNOWN_TYPE {
                continue;
            }
            out.add &= commutative_type(ty, &carriers_add);
            out.mul &= commutative_type(ty, &carriers_mul);
        }
        out
    }
}

fn commutative_type(ty: &Tree, carriers: &[&str]) -> bool {
    if is_leaf(ty) {
        return COMMUTATIVE_NUMERIC.contains(&ty.label.as_str())
            || carriers.contains(&ty.label.as_str());
    }
    // A function's domain counts too: its arguments are terms of the statement, and the
    // binder type of one may be dropped (`binder type (elaboration)`) once `f A` decides it.
    // Products are commutative componentwise.
    if (ty.label == IMP || ty.label == " _ × _ ") && ty.children.len() == 2 {
        return ty.children.iter().all(|c| commutative_type(c, carriers));
    }
    if COMMUTATIVE_WRAPPERS.contains(&ty.label.as_str()) && ty.children.len() == 1 {
        let arg = &ty.children[0];
        return ty.label == "Fin _ " || ty.label == "ZMod _ " || commutative_type(arg, carriers);
    }
    false
}

/// Does `t` contain a term whose type no binder tells: an unparsed span, or a matrix literal
/// `!![a, b; c, d]` (the parser's one node `!![ _ , _ ; _ , _ ]`; also the older reading `!` of
/// `!` of an opaque node, in trees read from JSON)? Products of such
/// terms are not known to commute: `!![1, 2; 3, 4] * !![x, 0; 0, 1]` is a matrix product.
pub(crate) fn opaque_or_matrix(t: &Tree) -> bool {
    let matrix = t.label.starts_with("!![")
        || t.label.starts_with("![")
        || (t.label == "!"
            && t.children.first().is_some_and(|c| c.label == "!" || c.label.starts_with('[')));
    t.unparsed || matrix || t.children.iter().any(opaque_or_matrix)
}

// ---------------------------------------------------------------------------------------------
// Commutativity beyond the number types

/// Classes whose instance on `T` makes `+` commutative (Mathlib/Algebra/Ring/Defs.lean:
/// `NonUnitalNonAssocSemiring extends AddCommMonoid`, so every (semi)ring and field class;
/// Mathlib/Algebra/Group/Defs.lean: `AddCommMonoid`, `AddCommGroup`).
const ADD_COMMUTATIVE_CLASSES: [&str; 33] = [
    "AddCommSemigroup",
    "AddCommMonoid",
    "AddCommGroup",
    "AddCommMonoidWithOne",
    "AddCommGroupWithOne",
    "NonUnitalNonAssocSemiring",
    "NonUnitalNonAssocRing",
    "NonAssocSemiring",
    "NonAssocRing",
    "NonUnitalSemiring",
    "NonUnitalRing",
    "NonUnitalCommSemiring",
    "NonUnitalCommRing",
    "Semiring",
    "Ring",
    "CommSemiring",
    "CommRing",
    "DivisionRing",
    "Field",
    "OrderedSemiring",
    "OrderedRing",
    "OrderedCommRing",
    "StrictOrderedSemiring",
    "StrictOrderedRing",
    "LinearOrderedRing",
    "LinearOrderedCommRing",
    "LinearOrderedField",
    "OrderedAddCommGroup",
    "OrderedAddCommMonoid",
    "LinearOrderedAddCommGroup",
    "NormedAddCommGroup",
    "EuclideanDomain",
    "RCLike",
];

/// Classes whose instance on `T` makes `*` commutative (`CommMonoid`, `CommSemiring` and the
/// classes extending them: Mathlib/Algebra/Ring/Defs.lean, Mathlib/Algebra/Field/Defs.lean).
const MUL_COMMUTATIVE_CLASSES: [&str; 15] = [
    "CommSemigroup",
    "CommMonoid",
    "CommGroup",
    "CommMonoidWithZero",
    "CommGroupWithZero",
    "NonUnitalCommSemiring",
    "NonUnitalCommRing",
    "CommSemiring",
    "CommRing",
    "Field",
    "OrderedCommRing",
    "LinearOrderedCommRing",
    "LinearOrderedField",
    "EuclideanDomain",
    "RCLike",
];

/// Classes that add no `+` or `*` of their own on `T` (properties and structures over it).
const OPERATOR_FREE_CLASSES: [&str; 16] = [
    "Nontrivial",
    "IsDomain",
    "CharZero",
    "CharP",
    "NoZeroDivisors",
    "Fintype",
    "Finite",
    "DecidableEq",
    "Module",
    "Algebra",
    "TopologicalSpace",
    "IsTopologicalRing",
    "IsNoetherianRing",
    "IsPrincipalIdealRing",
    "IsDedekindDomain",
    "UniqueFactorizationMonoid",
];

/// May the `+` (`add`) or `*` at `path` in `root` (the node `t`) swap its operands though its
/// type is no number type? Two cases, each `binop%`'s one type for the whole arithmetic:
/// - it is arithmetic of numerals and names of one type variable `T` (`1 + x` with `(x : R)`),
///   every instance binder on `T` of a class making the operator commutative
///   ([`ADD_COMMUTATIVE_CLASSES`], [`MUL_COMMUTATIVE_CLASSES`]) or adding no operator
///   ([`OPERATOR_FREE_CLASSES`]), and at least one of the first kind: `[Ring R]` commutes `+`,
///   never `*`; `[Add M]`, `[Monoid M]`, `[AddGroup M]` beside a ring class (the operator may
///   be theirs), an ordinal or an unknown class do not;
/// - it sits, through arithmetic only, under an ascription `(… : Polynomial K)` with `K` one of
///   ℕ ℤ ℚ ℝ ℂ (`Polynomial.add_comm` is `AddCommMonoid`'s; `Polynomial.commSemiring` needs a
///   commutative `K`, which each is).
pub(crate) fn commutes_by_class(
    root: &Tree,
    path: &[usize],
    t: &Tree,
    add: bool,
    c: &Carriers,
) -> bool {
    under_polynomial_ascription(root, path) || of_commutative_type_variable(root, t, add, c)
}

fn of_commutative_type_variable(root: &Tree, t: &Tree, add: bool, c: &Carriers) -> bool {
    let mut ty: Option<&str> = None;
    if !arithmetic_of_one_type_variable(t, c, &mut ty) {
        return false;
    }
    let Some(ty) = ty else { return false };
    let commutative: &[&str] =
        if add { &ADD_COMMUTATIVE_CLASSES } else { &MUL_COMMUTATIVE_CLASSES };
    let mut binders: Vec<(&Tree, &Tree, bool)> = Vec::new();
    collect_binders(root, &mut binders);
    let mut seen_commutative = false;
    for (_, class, instance) in binders {
        let mentions_ty = class.children.iter().any(|a| super::shapes::mentions(a, ty));
        if !instance || !mentions_ty {
            continue;
        }
        let head = super::shapes::app_head(class).unwrap_or(class.label.as_str());
        if commutative.contains(&head) {
            seen_commutative = true;
        } else if !OPERATOR_FREE_CLASSES.contains(&head) {
            return false;
        }
    }
    seen_commutative
}

/// Is `t` built by `+ - *` and `^` (numeral exponent) from numerals and names whose written
/// type is the one leaf type `ty`, with at least one such name?
fn arithmetic_of_one_type_variable<'a>(
    t: &Tree,
    c: &'a Carriers,
    ty: &mut Option<&'a str>,
) -> bool {
    if is_leaf(t) {
        if super::shapes::literal(t).is_some() {
            return true;
        }
        let Some(written) = c.name_type(&t.label).filter(|w| is_leaf(w)) else {
            return false;
        };
        if ty.is_some_and(|seen| seen != written.label) {
            return false;
        }
        *ty = Some(written.label.as_str());
        return true;
    }
    match (t.label.as_str(), t.children.as_slice()) {
        (" _ + _ " | " _ - _ " | " _ * _ ", [a, b]) => {
            arithmetic_of_one_type_variable(a, c, ty) && arithmetic_of_one_type_variable(b, c, ty)
        }
        (" _ ^ _ ", [base, exponent]) => {
            super::shapes::literal(exponent).is_some()
                && arithmetic_of_one_type_variable(base, c, ty)
        }
        _ => false,
    }
}

/// Does the node at `path` reach, through `+ - *` and bases of `^` only, an ascription
/// `( _ : Polynomial K)` with `K` a number type?
fn under_polynomial_ascription(root: &Tree, path: &[usize]) -> bool {
    let at = |depth: usize| path[..depth].iter().try_fold(root, |t, &i| t.children.get(i));
    let mut depth = path.len();
    while depth > 0 {
        let Some(parent) = at(depth - 1) else { return false };
        let slot = path[depth - 1];
        match (parent.label.as_str(), parent.children.as_slice()) {
            (" _ + _ " | " _ - _ " | " _ * _ ", [_, _]) => depth -= 1,
            (" _ ^ _ ", [_, _]) if slot == 0 => depth -= 1,
            ("( _ : _ )", [_, ty]) if slot == 0 => {
                return ty.label == "Polynomial _ "
                    && ty.children.len() == 1
                    && is_leaf(&ty.children[0])
                    && COMMUTATIVE_NUMERIC[..5].contains(&ty.children[0].label.as_str());
            }
            _ => return false,
        }
    }
    false
}

/// Is `t` arithmetic (`+ *`, `^` with a numeral exponent) of numerals and norms `‖e‖`, with at
/// least one norm? `Norm.norm : E → ℝ` (Mathlib/Analysis/Normed/Group/Basic.lean) whatever `E`
/// is, so `t` is a real (or, cast by `binop%`, an element of a commutative type above ℝ such as
/// ℂ): `‖x + y‖ ^ 2 + ‖x - y‖ ^ 2` commutes though `x y` live in a space the statement gate
/// knows nothing of. `‖e‖₊` (`ℝ≥0`) has another label. The same holds of the functions whose
/// result is one number type whatever their arguments (`result_types::fixed_result`: `Subgroup.index K *
/// H.relindex K` is a product of naturals whatever `G`).
pub(crate) fn number_valued_arithmetic(t: &Tree, c: &Carriers) -> bool {
    fn walk(t: &Tree, c: &Carriers, norms: &mut usize) -> bool {
        if is_leaf(t) {
            return super::shapes::literal(t).is_some();
        }
        match (t.label.as_str(), t.children.as_slice()) {
            ("‖ _ ‖", [_]) => {
                *norms += 1;
                true
            }
            _ if super::shapes::app_head(t)
                .is_some_and(|f| !c.binds(f) && super::result_types::fixed_result(f)) =>
            {
                *norms += 1;
                true
            }
            (" _ + _ " | " _ * _ ", [a, b]) => walk(a, c, norms) && walk(b, c, norms),
            (" _ ^ _ ", [base, exponent]) => {
                super::shapes::literal(exponent).is_some() && walk(base, c, norms)
            }
            _ => false,
        }
    }
    let mut norms = 0;
    walk(t, c, &mut norms) && norms > 0
}
