//! The commutativity gate of `add_comm`/`mul_comm`: [`Commutativity::of`] says whether every
//! carrier type the statement's binders mention is known commutative, and [`opaque_or_matrix`]
//! whether a term's type is unknown (an unparsed span, a matrix literal).
//!
//! `add_comm`/`mul_comm` fire at a `+`/`*` node only when elaboration-lite types that node as
//! ℕ ℤ ℚ ℝ ℂ (`elab::commutes_at`) and, as a second gate, when this says the statement is
//! commutative. A matrix, a quaternion, an auto-bound `(x : _)`, a type known only through a
//! class (`[CommRing R]`: sound but not yet typed here) or a pointwise product of functions does
//! not commute. Rewrites nothing.

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
