//! Analysis family: distances written another standard way (`|x - y|` for `dist x y` on ℝ,
//! `‖z - w‖` on ℂ). Each rule fires only on the number type its lemma is about, never on `ℝ≥0`,
//! `ℝ × ℝ`, `Fin n → ℝ`, `EuclideanSpace` or a general metric space. (Not `Real.sqrt_eq_rpow`:
//! `^` is `rightact%`, so in `z = x ^ (1 / 2 : ℝ)` with `z : ℂ` the base is cast to ℂ and the
//! power does not elaborate, while `z = √x` does; a rule at the power cannot see that context.) Declared as data (`declare`) for the matcher (`table`); owns nothing
//! else (limits' own `dist` unfolding is `limits`').

use super::carriers::Carriers;
use super::declare::*;
use super::elab::{self, Num, Ty};
use super::shapes::COMPARISONS;
use crate::trees::Tree;

const COMPLEX: [Num; 1] = [Num::Complex];

#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    // `Real.dist_eq (x y : ℝ) : dist x y = |x - y|` (Mathlib/Topology/MetricSpace/Pseudo/Lemmas.lean,
    // by rfl). Both points real: on `ℝ × ℝ` (sup distance), `Fin n → ℝ`, `EuclideanSpace`, ℂ
    // or ℕ the distance is not `|x - y|`.
    rw("Real.dist_eq", "dist x y = |x - y| (x y : ℝ; Mathlib/Topology/MetricSpace/Pseudo/Defs.lean)", "dist ?x ?y", "|?x - ?y|")
        .when(&[on(&["?x", "?y"], &REAL), number(&["?x"]), number(&["?y"])])
        .ex(&[("(x a δ : ℝ) (h : dist x a < δ) : x < a + δ", "(x a δ : ℝ) (h : |x - a| < δ) : x < a + δ")])
        .non(&[
            "(x y : ℝ × ℝ) : dist x y < 1",
            "(x y : Fin 2 → ℝ) : dist x y < 1",
            "(x y : EuclideanSpace ℝ (Fin 2)) : dist x y < 1",
            "(z w : ℂ) : dist z w < 1",
            "(m n : ℕ) : dist m n < 1",
            "(x : ℝ) (n : ℕ) : dist x n < 1",
            "{X : Type*} [MetricSpace X] (x y : X) : dist x y < 1",
            "(dist : ℝ → ℝ → ℝ) (x y : ℝ) : dist x y < 1",
        ]),
    // `Complex.dist_eq (z w : ℂ) : dist z w = ‖z - w‖` (Mathlib/Analysis/Complex/Basic.lean).
    rw("Complex.dist_eq", "dist z w = ‖z - w‖ (z w : ℂ; Mathlib/Analysis/Complex/Basic.lean)", "dist ?z ?w", "‖?z - ?w‖")
        .when(&[on(&["?z", "?w"], &COMPLEX), number(&["?z"]), number(&["?w"])])
        .ex(&[("(z w : ℂ) : dist z w < 1", "(z w : ℂ) : ‖z - w‖ < 1")])
        .non(&["(x y : ℝ) : dist x y < 1", "(x y : ℂ × ℂ) : dist x y < 1", "(z : ℂ) (x : ℝ) : dist z x < 1"]),
    // `Real.rpow_eq_pow (x y : ℝ) : rpow x y = x ^ y` (Mathlib/Analysis/SpecialFunctions/Pow/Real.lean).
    // Read at a relation of reals only: `^` is `rightact%`, its base joins the relation's
    // `binop%` tree, so beside a complex `z` the base would be cast to ℂ and `ℂ ^ ℝ` does not
    // elaborate, while `Real.rpow x y` is a real cast as a whole.
    code("Real.rpow_eq_pow", "Real.rpow x y = x ^ y with x y : ℝ, at a relation of reals (Mathlib/Analysis/SpecialFunctions/Pow/Real.lean)", |t, ctx| rpow_as_power(t, ctx.carriers).map(|new| ("Real.rpow_eq_pow", new)))
        .ex(&[("(x : ℝ) (h : Real.rpow 2 (x + 1) = 16) : x = 3", "(x : ℝ) (h : (2 : ℝ) ^ (x + 1) = 16) : x = 3"),
              ("(x y : ℝ) : Real.rpow x y ≤ 1", "(x y : ℝ) : x ^ y ≤ 1"),
              ("(n : ℕ) : Real.rpow 2 n < 5", "(n : ℕ) : (2 : ℝ) ^ (n : ℝ) < 5")])
        // Beside a complex number or a complex ascription, under a function.
        .non(&["(x : ℝ) (z : ℂ) : Real.rpow x 2 = z", "(x y : ℂ) : Real.rpow x y = 2", "(x : ENNReal) : Real.rpow x 2 = 2",
               "(x : ℝ) (n : ℕ) : Real.rpow x 2 = (n : ℂ)",
               "(x : ℝ) (f : ℝ → ℝ) : f (Real.rpow x 2) = 1"]),
    // `Real.rpow_natCast (x : ℝ) (n : ℕ) : x ^ (n : ℝ) = x ^ n` and `Real.rpow_ofNat` for a
    // numeral (Mathlib/Analysis/SpecialFunctions/Pow/Real.lean). At a relation of reals only:
    // the base joins the relation's tree (`rightact%`), and beside a complex number it would be
    // cast to ℂ, where `ℂ ^ ℝ` does not elaborate and `ℂ ^ ℕ` does.
    code("Real.rpow_natCast", "x ^ (n : ℝ) = x ^ n for n : ℕ or a natural numeral, at a relation of reals (Mathlib/Analysis/SpecialFunctions/Pow/Real.lean, also Real.rpow_ofNat)", |t, ctx| natural_real_exponent(t, ctx.carriers).map(|new| ("Real.rpow_natCast", new)))
        .ex(&[("(x : ℝ) (h : x ^ (2 : ℝ) = 9) : x = 3", "(x : ℝ) (h : x ^ 2 = 9) : x = 3"),
              ("(x : ℝ) (n : ℕ) : x ^ (n : ℝ) + 1 ≤ 2", "(x : ℝ) (n : ℕ) : x ^ n + 1 ≤ 2")])
        // Beside a complex number; an exponent that is no natural (a decimal, an integer, a
        // real); a relation of naturals (`n ^ (2 : ℝ)` there does not elaborate).
        .non(&["(x : ℝ) (z : ℂ) : x ^ (2 : ℝ) = z", "(x : ℝ) : x ^ (2.5 : ℝ) = 1", "(x : ℝ) (k : ℤ) : x ^ (k : ℝ) = 1",
               "(x y : ℝ) : x ^ (y : ℝ) = 1", "(n : ℕ) : n ^ (2 : ℝ) = 4"]),
];

/// `x ^ (n : ℝ)` → `x ^ n` in a relation of reals, for the first power (pre-order) of the
/// relation's trees whose exponent is a natural numeral or a variable bound at ℕ, ascribed ℝ.
fn natural_real_exponent(t: &Tree, c: &Carriers) -> Option<Tree> {
    let ([a, b], true) = (t.children.as_slice(), COMPARISONS.contains(&t.label.as_str())) else {
        return None;
    };
    if elab::carrier(&[a, b], c) != Some(Num::Real) {
        return None;
    }
    let natural = |e: &Tree| -> Option<Tree> {
        let ("( _ : _ )", [n, ty]) = (e.label.as_str(), e.children.as_slice()) else {
            return None;
        };
        let numeral = n.children.is_empty() && n.label.bytes().all(|b| b.is_ascii_digit());
        let variable =
            n.children.is_empty() && c.binds(&n.label) && elab::type_of(n, c) == Ty::Num(Num::Nat);
        (elab::num_of_type(ty) == Some(Num::Real) && (numeral || variable)).then(|| n.clone())
    };
    fn walk(t: &Tree, natural: &dyn Fn(&Tree) -> Option<Tree>, depth: usize) -> Option<Tree> {
        if depth > 64 {
            return None;
        }
        if let (" _ ^ _ ", [base, exponent]) = (t.label.as_str(), t.children.as_slice()) {
            if let Some(n) = natural(exponent) {
                return Some(Tree::node(" _ ^ _ ", vec![base.clone(), n]));
            }
        }
        let operands = elab::same_tree_operands(t)?;
        for i in 0..operands.len() {
            if let Some(new) = walk(&t.children[i], natural, depth + 1) {
                let mut out = t.clone();
                out.children[i] = new;
                return Some(out);
            }
        }
        None
    }
    (0..2).find_map(|i| {
        let new = walk(&t.children[i], &natural, 0)?;
        let mut out = t.clone();
        out.children[i] = new;
        Some(out)
    })
}

/// The first `Real.rpow x y` among the leaves of a relation's arithmetic trees (`binop%`),
/// written `(x : ℝ) ^ (y : ℝ)`, the ascriptions left out where `x` or `y` is a real already:
/// each argument is elaborated against ℝ as an ascription is. Only where the relation's
/// operands are reals ([`elab::carrier`]), so that the base stays a real in the tree.
fn rpow_as_power(t: &Tree, c: &Carriers) -> Option<Tree> {
    let ([a, b], true) = (t.children.as_slice(), COMPARISONS.contains(&t.label.as_str())) else {
        return None;
    };
    if elab::carrier(&[a, b], c) != Some(Num::Real) || c.binds("Real.rpow") {
        return None;
    }
    // Each argument a real, a numeral or a smaller number: a complex or an `ℝ≥0∞` argument
    // has no coercion to ℝ, and neither form elaborates.
    let castable = |e: &Tree| match elab::type_of(e, c) {
        Ty::Numeral => true,
        Ty::Num(n) => elab::rank(n) <= elab::rank(Num::Real),
        Ty::Unknown => false,
    };
    let at_real = |e: &Tree| {
        if elab::type_of(e, c) == Ty::Num(Num::Real) {
            e.clone()
        } else {
            Tree::node("( _ : _ )", vec![e.clone(), Tree::leaf("ℝ")])
        }
    };
    let mut done = false;
    let mut rewrite = |leaf: &Tree| -> Option<Tree> {
        match (leaf.label.as_str(), leaf.children.as_slice()) {
            ("Real.rpow _  _ ", [x, y]) if !done && castable(x) && castable(y) => {
                done = true;
                Some(Tree::node(" _ ^ _ ", vec![at_real(x), at_real(y)]))
            }
            _ => None,
        }
    };
    let mut out = t.clone();
    for side in &mut out.children {
        *side = elab::map_arithmetic_leaves(side, &mut rewrite);
    }
    done.then_some(out)
}
