//! Analysis family: distances written another standard way (`|x - y|` for `dist x y` on ℝ,
//! `‖z - w‖` on ℂ). Each rule fires only on the number type its lemma is about, never on `ℝ≥0`,
//! `ℝ × ℝ`, `Fin n → ℝ`, `EuclideanSpace` or a general metric space. (Not `Real.sqrt_eq_rpow`:
//! `^` is `rightact%`, so in `z = x ^ (1 / 2 : ℝ)` with `z : ℂ` the base is cast to ℂ and the
//! power does not elaborate, while `z = √x` does; a rule at the power cannot see that context.) Declared as data (`declare`) for the matcher (`table`); owns nothing
//! else (limits' own `dist` unfolding is `limits`').

use super::declare::*;
use super::elab::Num;

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
];
