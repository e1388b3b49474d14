//! Limits family: `Filter.Tendsto`, `Continuous`, `ContinuousAt` and `ContinuousOn` unfolded to
//! their ε–N and ε–δ statements, with fresh bound names (`ε✝`, `N✝`, …: no source text writes
//! them, and renaming a bound name costs nothing), so that the Mathlib form and the ε-form meet
//! in one normal form and the binder rules (`∀ ε > 0`, `≥`, `>`) do the rest. Canonical, always
//! towards the ε-form. Declared as data (`declare`) for the matcher (`table`); owns the
//! procedures and the typing of the terms they move.
//!
//! Each unfolding is an instance of one Mathlib lemma
//! (Mathlib/Topology/MetricSpace/Pseudo/Defs.lean and Mathlib/Order/Filter/AtTopBot/Basic.lean)
//! with `dist x y = |x - y|` on ℝ (`Real.dist_eq`, by `rfl`; `Complex.dist_eq` gives `‖z - w‖`
//! on ℂ), written as the lemma's own text.
//! It fires only where the lemma's hypotheses hold and the unfolded text elaborates to the
//! lemma's right-hand side:
//! - the function is a name with a written type (`(u : ℕ → ℝ)`) or a `fun` whose binder's type
//!   is written or decided by its first use (`typed::infer_binder_type`), over ℕ ℤ ℚ ℝ (each a
//!   nonempty lattice, as `atTop`'s lemmas need), into ℝ, where the distance is `|x - y|`, or
//!   ℂ, where it is `‖z - w‖` (on ℕ `-` truncates; a general metric space has no `-`);
//! - the body of a `fun` is real on its own: the arithmetic `binop%` elaborates together has a
//!   real operand and only operands of ℕ ℤ ℚ ℝ or numerals (`fun n : ℕ => n / (n + 1)` is a
//!   natural quotient: its `Tendsto` lives in ℕ and stays);
//! - the limit or point has the codomain's type or is a numeral (a natural `k` in `|x - k|`
//!   would type `x`);
//! - `𝓝` is `nhds` itself (not `𝓝[≠] a`), `atTop` is `Filter.atTop` (not `atBot`), resolved
//!   under the statement's header; a name written short is matched only once resolved;
//! - no fresh name is captured, and a `fun`'s binder reused as the bound index does not occur
//!   in the limit.
//!
//! `∀ n > N` meets `∀ n ≥ N` through its own rule (`Filter.atTop_basis_Ioi`: both say
//! "eventually" where the index type has no greatest element), never through the unfolding.
//! `|a - x|` meets `|x - a|` by the search move `abs_sub_comm` (`‖a - x‖`: `norm_sub_rev`), and
//! the written types `∀ ε : ℝ, ε > 0 →`, `∀ ε > (0 : ℝ)`, `∃ δ : ℝ, δ > 0 ∧` are dropped where
//! the first use after `0 < ε` gives that type (`limits_binders.rs`). `CauchySeq u` unfolds to
//! `Metric.cauchySeq_iff`'s text (not `Metric.cauchySeq_iff'`'s one-index form).
//! What it does not claim: `≤ ε` for `< ε`, and a written type on `N` in front of two indices.

use super::carriers::Carriers;
use super::declare::*;
use super::elab::{self, Num, Ty};
use super::shapes::named_binder;
use super::shapes::{
    app_head, is_binding_node, is_leaf, mentions, mentions_head, node2, EXISTS, EXPLICIT, FORALL,
    IMP,
};
use super::substitution::substitute;
use super::typed::{infer_binder_type, Deciders};
use crate::trees::Tree;

#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    code("Metric.tendsto_atTop", "Tendsto u atTop (𝓝 a) ↔ ∀ ε > 0, ∃ N, ∀ n ≥ N, dist (u n) a < ε ([Nonempty β] [SemilatticeSup β], Mathlib/Topology/MetricSpace/Pseudo/Defs.lean), with Real.dist_eq : dist x y = |x - y| and Complex.dist_eq : dist z w = ‖z - w‖ (both rfl)", tendsto_nhds_unfolded)
        .ex(&[
            ("(u : ℕ → ℝ) : Filter.Tendsto u Filter.atTop (nhds 0)", "(u : ℕ → ℝ) : ∀ ε✝ > 0, ∃ N✝, ∀ n✝ ≥ N✝, |u n✝ - 0| < ε✝"),
            ("(u : ℤ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)", "(u : ℤ → ℝ) (a : ℝ) : ∀ ε✝ > 0, ∃ N✝, ∀ n✝ ≥ N✝, |u n✝ - a| < ε✝"),
            ("(u : ℕ → ℝ) : Filter.Tendsto (fun n => u n + 1) Filter.atTop (nhds 1)", "(u : ℕ → ℝ) : ∀ ε✝ > 0, ∃ N✝, ∀ n ≥ N✝, |u n + 1 - 1| < ε✝"),
            (": Filter.Tendsto (fun (n : ℕ) => 1 / ((n : ℝ) + 1)) Filter.atTop (nhds 0)", ": ∀ ε✝ > 0, ∃ N✝ : ℕ, ∀ n ≥ N✝, |1 / ((n : ℝ) + 1) - 0| < ε✝"),
            ("(u : ℕ → ℂ) (z : ℂ) : Filter.Tendsto u Filter.atTop (nhds z)", "(u : ℕ → ℂ) (z : ℂ) : ∀ ε✝ > 0, ∃ N✝, ∀ n✝ ≥ N✝, ‖u n✝ - z‖ < ε✝"),
        ])
        .non(&[
            // ℕ-valued: `|u n - a|` would be truncated subtraction, and `|·|` no distance.
            "(u : ℕ → ℕ) : Filter.Tendsto u Filter.atTop (nhds 0)",
            // A general metric space: `|·|` means nothing there.
            "(X : Type) [MetricSpace X] (u : ℕ → X) (a : X) : Filter.Tendsto u Filter.atTop (nhds a)",
            // A real limit of a complex sequence is cast: left alone.
            "(u : ℕ → ℂ) (r : ℝ) : Filter.Tendsto u Filter.atTop (nhds r)",
            "(u : ℕ → ℝ) (z : ℂ) : Filter.Tendsto u Filter.atTop (nhds z)",
            "(u : ℕ → ℝ) : Filter.Tendsto u Filter.atBot (nhds 0)",
            "(u : ℕ → ℝ) : Filter.Tendsto u Filter.atTop (nhdsWithin 0 {0}ᶜ)",
            "(u : ℕ → ℝ) : Tendsto u atTop (𝓝 0)",
            // A natural limit: `𝓝 k` is `𝓝 ↑k` only through the expected type, which
            // elaboration-lite does not read: left alone.
            "(u : ℕ → ℝ) (k : ℕ) : Filter.Tendsto u Filter.atTop (nhds k)",
            // Natural division: this `Tendsto` is in ℕ.
            ": Filter.Tendsto (fun (n : ℕ) => n / (n + 1)) Filter.atTop (nhds 1)",
            // The binder's type is decided by nothing: Lean would default it.
            ": Filter.Tendsto (fun n => 1 / (n + 1)) Filter.atTop (nhds 0)",
            // The limit names the `fun`'s binder: it would be captured.
            "(u : ℕ → ℝ) (n : ℝ) : Filter.Tendsto (fun n => u n) Filter.atTop (nhds n)",
            "(u : ℕ → ℝ) : Filter.Tendsto u (nhds 0) (nhds 0)",
        ]),
    code("Metric.cauchySeq_iff", "CauchySeq u ↔ ∀ ε > 0, ∃ N, ∀ m ≥ N, ∀ n ≥ N, dist (u m) (u n) < ε ([Nonempty β] [SemilatticeSup β], Mathlib/Topology/MetricSpace/Basic.lean, now Mathlib/Topology/MetricSpace/Cauchy.lean), with Real.dist_eq : dist x y = |x - y| and Complex.dist_eq : dist z w = ‖z - w‖ (both rfl)", cauchy_unfolded)
        .ex(&[
            ("(u : ℕ → ℝ) : CauchySeq u", "(u : ℕ → ℝ) : ∀ ε✝ > 0, ∃ N✝, ∀ m✝ ≥ N✝, ∀ n✝ ≥ N✝, |u m✝ - u n✝| < ε✝"),
            ("(u : ℕ → ℂ) : CauchySeq u", "(u : ℕ → ℂ) : ∀ ε✝ > 0, ∃ N✝, ∀ m✝ ≥ N✝, ∀ n✝ ≥ N✝, ‖u m✝ - u n✝‖ < ε✝"),
            (": CauchySeq (fun (n : ℕ) => 1 / ((n : ℝ) + 1))", ": ∀ ε✝ > 0, ∃ N✝ : ℕ, ∀ m✝ ≥ N✝, ∀ n✝ ≥ N✝, |1 / ((m✝ : ℝ) + 1) - 1 / ((n✝ : ℝ) + 1)| < ε✝"),
            ("(f : ℝ → ℝ) (a : ℕ → ℝ) : CauchySeq (f ∘ a)", "(f : ℝ → ℝ) (a : ℕ → ℝ) : ∀ ε✝ > 0, ∃ N✝, ∀ m✝ ≥ N✝, ∀ n✝ ≥ N✝, |f (a m✝) - f (a n✝)| < ε✝"),
        ])
        .non(&[
            // ℕ-valued: `|u m - u n|` would be truncated subtraction (and ℕ has the discrete metric).
            "(u : ℕ → ℕ) : CauchySeq u",
            // Types that do not meet: `f ∘ a` does not elaborate, `fun n => f (a n)` would cast.
            "(f : ℝ → ℝ) (a : ℕ → ℕ) : CauchySeq (f ∘ a)",
            "(f : ℝ → ℕ) (a : ℕ → ℝ) : CauchySeq (f ∘ a)",
            "(X : Type) [MetricSpace X] (u : ℕ → X) : CauchySeq u",
            "(u : Fin 3 → ℝ) : CauchySeq u",
            // A natural quotient.
            ": CauchySeq (fun (n : ℕ) => n / (n + 1))",
            // A binder inside the body: no substitution under it.
            "(f : ℕ → ℕ → ℝ) : CauchySeq (fun n => ∑ i ∈ Finset.range n, f n i)",
            // The statement's own `CauchySeq`.
            "(CauchySeq : (ℕ → ℝ) → Prop) (u : ℕ → ℝ) : CauchySeq u",
        ]),
    code("Filter.tendsto_atTop_atTop", "Tendsto f atTop atTop ↔ ∀ b : β, ∃ i : α, ∀ a : α, i ≤ a → b ≤ f a ([Nonempty α] [Preorder α] [IsDirectedOrder α] [Preorder β], Mathlib/Order/Filter/AtTopBot/Basic.lean)", tendsto_at_top_unfolded)
        .ex(&[
            ("(u : ℕ → ℝ) : Filter.Tendsto u Filter.atTop Filter.atTop", "(u : ℕ → ℝ) : ∀ b✝, ∃ i✝, ∀ n✝, i✝ ≤ n✝ → b✝ ≤ u n✝"),
            ("(u : ℕ → ℕ) : Filter.Tendsto u Filter.atTop Filter.atTop", "(u : ℕ → ℕ) : ∀ b✝, ∃ i✝, ∀ n✝, i✝ ≤ n✝ → b✝ ≤ u n✝"),
            (": Filter.Tendsto (fun (n : ℕ) => (n : ℝ) ^ 2) Filter.atTop Filter.atTop", ": ∀ b✝, ∃ i✝ : ℕ, ∀ n, i✝ ≤ n → b✝ ≤ (n : ℝ) ^ 2"),
        ])
        .non(&[
            "(u : ℕ → ℝ) : Filter.Tendsto u Filter.atTop Filter.atBot",
            "(u : ℕ → ℝ) : Filter.Tendsto u Filter.atBot Filter.atTop",
            "(X : Type) [Preorder X] (u : X → ℝ) : Filter.Tendsto u Filter.atTop Filter.atTop",
            "(u : ℕ → ℂ) : Filter.Tendsto u Filter.atTop Filter.atTop",
            "(u : ℕ → ℝ) : Tendsto u atTop atTop",
        ]),
    code("Metric.continuous_iff", "Continuous f ↔ ∀ b, ∀ ε > 0, ∃ δ > 0, ∀ a, dist a b < δ → dist (f a) (f b) < ε (Mathlib/Topology/MetricSpace/Pseudo/Defs.lean), with Real.dist_eq : dist x y = |x - y|", continuous_unfolded)
        .ex(&[
            ("(f : ℝ → ℝ) : Continuous f", "(f : ℝ → ℝ) : ∀ b✝, ∀ ε✝ > 0, ∃ δ✝ > 0, ∀ a✝, |a✝ - b✝| < δ✝ → |f a✝ - f b✝| < ε✝"),
            (": Continuous (fun (x : ℝ) => x ^ 2 + 1)", ": ∀ b✝ : ℝ, ∀ ε✝ > 0, ∃ δ✝ > 0, ∀ a✝ : ℝ, |a✝ - b✝| < δ✝ → |a✝ ^ 2 + 1 - (b✝ ^ 2 + 1)| < ε✝"),
            ("(f : ℝ → ℝ) : Continuous (fun x => 2 * f x)", "(f : ℝ → ℝ) : ∀ b✝, ∀ ε✝ > 0, ∃ δ✝ > 0, ∀ a✝, |a✝ - b✝| < δ✝ → |2 * f a✝ - 2 * f b✝| < ε✝"),
        ])
        .non(&[
            "(f : ℕ → ℝ) : Continuous f",
            "(f : ℝ → ℂ) : Continuous f",
            "(f : ℝ → ℝ) : UniformContinuous f",
            "(f : ℝ → ℝ → ℝ) : Continuous f",
            // The binder's type is decided by nothing (`x ^ 2` alone would default to ℕ).
            ": Continuous (fun x => x ^ 2)",
            ": Continuous (fun (x : ℕ) => (x : ℝ))",
            // Into ℤ.
            ": Continuous (fun (x : ℝ) => ⌊x⌋)",
            ": Continuous (fun (x : ℝ) => ∑ i ∈ Finset.range 3, x ^ i)",
            // A function-valued body: not a map into ℝ.
            "(g : ℝ → ℝ → ℝ) : Continuous (fun x => g x)",
        ]),
    code("Metric.uniformContinuous_iff", "UniformContinuous f ↔ ∀ ε > 0, ∃ δ > 0, ∀ ⦃a b : α⦄, dist a b < δ → dist (f a) (f b) < ε (Mathlib/Topology/MetricSpace/Pseudo/Defs.lean), with Real.dist_eq : dist x y = |x - y|; `∀ ⦃a b⦄` is the same proposition as `∀ a b`", uniform_continuous_unfolded)
        .ex(&[
            ("(f : ℝ → ℝ) : UniformContinuous f", "(f : ℝ → ℝ) : ∀ ε✝ > 0, ∃ δ✝ > 0, ∀ a✝, ∀ b✝, |a✝ - b✝| < δ✝ → |f a✝ - f b✝| < ε✝"),
            (": UniformContinuous (fun (x : ℝ) => 3 * x)", ": ∀ ε✝ > 0, ∃ δ✝ > 0, ∀ a✝ : ℝ, ∀ b✝ : ℝ, |a✝ - b✝| < δ✝ → |3 * a✝ - 3 * b✝| < ε✝"),
        ])
        .non(&[
            "(f : ℕ → ℝ) : UniformContinuous f",
            "(f : ℝ → ℂ) : UniformContinuous f",
            "(X : Type) [MetricSpace X] (f : X → X) : UniformContinuous f",
            // The binder's type is decided by nothing.
            ": UniformContinuous (fun x => x ^ 2)",
            "(UniformContinuous : (ℝ → ℝ) → Prop) (f : ℝ → ℝ) : UniformContinuous f",
        ]),
    code("Metric.continuousAt_iff", "ContinuousAt f a ↔ ∀ ε > 0, ∃ δ > 0, ∀ ⦃x : α⦄, dist x a < δ → dist (f x) (f a) < ε (Mathlib/Topology/MetricSpace/Pseudo/Defs.lean), with Real.dist_eq : dist x y = |x - y|", continuous_at_unfolded)
        .ex(&[
            ("(f : ℝ → ℝ) (c : ℝ) : ContinuousAt f c", "(f : ℝ → ℝ) (c : ℝ) : ∀ ε✝ > 0, ∃ δ✝ > 0, ∀ x✝, |x✝ - c| < δ✝ → |f x✝ - f c| < ε✝"),
            ("(f : ℝ → ℝ) : ContinuousAt f 0", "(f : ℝ → ℝ) : ∀ ε✝ > 0, ∃ δ✝ > 0, ∀ x✝, |x✝ - 0| < δ✝ → |f x✝ - f 0| < ε✝"),
            (": ContinuousAt (fun (x : ℝ) => 1 / x) 2", ": ∀ ε✝ > 0, ∃ δ✝ > 0, ∀ x✝ : ℝ, |x✝ - 2| < δ✝ → |1 / x✝ - 1 / 2| < ε✝"),
        ])
        .non(&[
            // A natural point: `|x - k|` would make `x` natural.
            "(f : ℝ → ℝ) (k : ℕ) : ContinuousAt f k",
            "(f : ℕ → ℝ) (c : ℕ) : ContinuousAt f c",
            "(f : ℝ → ℝ) (c : ℝ) : ContinuousWithinAt f (Set.Ici c) c",
            "(k : ℕ) : ContinuousAt (fun (x : ℝ) => x ^ 2) k",
            // A numeral under a function whose argument type nothing else fixes.
            ": ContinuousAt (fun (x : ℝ) => x + ⌊x - 3⌋) 2",
            // The point names the fresh index: it would be captured.
            "(f : ℝ → ℝ) (x✝ : ℝ) : ContinuousAt f x✝",
        ]),
    code("Metric.continuousOn_iff", "ContinuousOn f s ↔ ∀ b ∈ s, ∀ ε > 0, ∃ δ > 0, ∀ a ∈ s, dist a b < δ → dist (f a) (f b) < ε (Mathlib/Topology/MetricSpace/Pseudo/Defs.lean), with Real.dist_eq : dist x y = |x - y|", continuous_on_unfolded)
        .ex(&[
            ("(f : ℝ → ℝ) (s : Set ℝ) : ContinuousOn f s", "(f : ℝ → ℝ) (s : Set ℝ) : ∀ b✝ ∈ s, ∀ ε✝ > 0, ∃ δ✝ > 0, ∀ a✝ ∈ s, |a✝ - b✝| < δ✝ → |f a✝ - f b✝| < ε✝"),
            ("(s : Set ℝ) : ContinuousOn (fun (x : ℝ) => 1 / x) s", "(s : Set ℝ) : ∀ b✝ ∈ s, ∀ ε✝ > 0, ∃ δ✝ > 0, ∀ a✝ ∈ s, |a✝ - b✝| < δ✝ → |1 / a✝ - 1 / b✝| < ε✝"),
        ])
        .non(&[
            // A set whose element type is written nowhere: its numerals would type the points.
            "(f : ℝ → ℝ) : ContinuousOn f (Set.Icc 0 1)",
            "(f : ℝ → ℝ) (s : Set ℕ) : ContinuousOn f s",
            "(f : ℕ → ℝ) (s : Set ℕ) : ContinuousOn f s",
            "(f : ℝ → ℝ) (s : Finset ℝ) : ContinuousOn f s",
        ]),
    code("Filter.atTop_basis_Ioi", "(∃ N, ∀ n > N, p n) ↔ ∃ N, ∀ n ≥ N, p n: both are ∀ᶠ n in atTop, p n (Filter.eventually_atTop; Filter.atTop_basis_Ioi.eventually_iff, [Nonempty α] [SemilatticeSup α] [NoMaxOrder α], Mathlib/Order/Filter/AtTopBot/Basic.lean), p not mentioning N", eventually_strict)
        .ex(&[
            ("(u : ℕ → ℝ) : ∃ N, ∀ n, N < n → |u n| < 1", "(u : ℕ → ℝ) : ∃ N, ∀ n, N ≤ n → |u n| < 1"),
            ("(u : ℝ → ℝ) : ∃ N : ℝ, ∀ x : ℝ, N < x → u x < 1", "(u : ℝ → ℝ) : ∃ N : ℝ, ∀ x : ℝ, N ≤ x → u x < 1"),
            (": ∃ N : ℕ, ∀ n, N < n → 100 < n ^ 2", ": ∃ N : ℕ, ∀ n, N ≤ n → 100 < n ^ 2"),
        ])
        .non(&[
            // The predicate mentions N: `N < n → n ≠ N` holds for every N, `N ≤ n → n ≠ N` for none.
            ": ∃ N : ℕ, ∀ n : ℕ, N < n → n ≠ N",
            // Fin 3 has a greatest element: `∀ n > 2` holds vacuously, `∀ n ≥ 2` does not.
            "(p : Fin 3 → Prop) : ∃ N, ∀ n, N < n → p n",
            // The index type is decided by nothing.
            "(p : ℕ → Prop) : ∃ N, ∀ n, N < n → 0 < n + 1",
            ": ∃ N : ℕ, ∀ n : ℤ, N < n → n ≠ 0",
            "(u : ℕ → ℝ) : ∃ N, ∀ n, n < N → |u n| < 1",
        ]),
    code("binder type (elaboration)", "∃ N : T, ∀ n : T, N ≤ n → p n is the same term with either written type left out where elaboration gives it anyway, or written on N rather than n: `N ≤ n` unifies the two types (binrel%), and p's first use of n decides T", index_types_elided)
        .ex(&[
            ("(u : ℕ → ℝ) : ∃ N : ℕ, ∀ n, N ≤ n → |u n| < 1", "(u : ℕ → ℝ) : ∃ N, ∀ n, N ≤ n → |u n| < 1"),
            ("(u : ℕ → ℝ) : ∃ N : ℕ, ∀ n : ℕ, N ≤ n → |u n| < 1", "(u : ℕ → ℝ) : ∃ N : ℕ, ∀ n, N ≤ n → |u n| < 1"),
            ("(u : ℕ → ℝ) : ∃ N, ∀ n : ℕ, N ≤ n → |u n| < 1", "(u : ℕ → ℝ) : ∃ N, ∀ n, N ≤ n → |u n| < 1"),
            (": ∃ N, ∀ n : ℕ, N ≤ n → 100 < n ^ 2", ": ∃ N : ℕ, ∀ n, N ≤ n → 100 < n ^ 2"),
            (": ∃ N : ℕ, ∀ n : ℕ, N ≤ n → 100 < n ^ 2", ": ∃ N : ℕ, ∀ n, N ≤ n → 100 < n ^ 2"),
        ])
        .non(&[
            // Nothing but `N` decides `n`: without `: ℕ` both would be left to the numerals.
            ": ∃ N : ℕ, ∀ n, N ≤ n → 100 < n ^ 2",
            // `n`'s use decides ℕ, but `N : ℝ` makes `n` real first (and `u n` ill-typed).
            "(u : ℕ → ℝ) : ∃ N : ℝ, ∀ n, N ≤ n → |u n| < 1",
            // `p` uses `N` first: `f N` would decide `N : ℝ` without the written type.
            "(u : ℕ → ℝ) (f : ℝ → ℝ) : ∃ N : ℕ, ∀ n, N ≤ n → f N < u n",
            // Two different written types: `n : ℤ` casts `N`.
            "(u : ℤ → ℝ) : ∃ N : ℕ, ∀ n : ℤ, N ≤ n → |u n| < 1",
        ]),
    moves_code("abs_sub_comm / norm_sub_rev", "|a - b| = |b - a| ([Lattice α] [AddGroup α]: the additive form of mabs_div_comm, Mathlib/Algebra/Order/Group/Unbundled/Abs.lean; no order law needed); norm_sub_rev : ‖a - b‖ = ‖b - a‖ ([SeminormedAddGroup E], Mathlib/Analysis/Normed/Group/Basic.lean)", distance_swapped)
        .ex(&[
            ("(x y : ℝ) : |x - y| < 1", "(x y : ℝ) : |y - x| < 1"),
            ("(u : ℕ → ℝ) (a : ℝ) : ∀ n, |u n - a| < 1", "(u : ℕ → ℝ) (a : ℝ) : ∀ n, |a - u n| < 1"),
            ("(x : ℚ) : |x - 1 / 2| < 1", "(x : ℚ) : |1 / 2 - x| < 1"),
            ("(f : ℝ → ℝ) : ∀ x y, |x - y| < 1 → |f x - f y| < 1", "(f : ℝ → ℝ) : ∀ x y, |y - x| < 1 → |f x - f y| < 1"),
            ("(z w : ℂ) : ‖z - w‖ < 1", "(z w : ℂ) : ‖w - z‖ < 1"),
        ])
        .non(&[
            // ℕ is no `AddGroup`: `|·|` is not Mathlib's `abs` there, and `-` truncates.
            "(x y : ℕ) : |x - y| < 1",
            // Numerals alone default to ℕ.
            ": |2 - 3| = 1",
            // ℂ has no lattice: `|z|` is not `abs` (nor the norm).
            "(z w : ℂ) : |z - w| = 1",
            // A type known only by its class: left alone.
            "(G : Type) [Lattice G] [AddGroup G] (a b : G) : |a - b| = a",
            // Not a difference.
            "(x y : ℝ) : |x + y| < 1",
            // A natural-valued function: the difference is at ℕ.
            "(f : ℕ → ℕ) : ∀ m n, |f m - f n| < 1",
            // A name bound twice with two written types is not untyped.
            "(x : ℂ) (h : ∀ x : ℝ, x = 0) : |x - 1| = 1",
            // A norm on a type whose subtraction truncates.
            "(m n : ℕ) : ‖m - n‖ < 1",
        ]),
];

/// The types `atTop` is taken on here: nonempty linear orders, hence lattices.
const INDEX_TYPES: [Num; 4] = [Num::Nat, Num::Int, Num::Rat, Num::Real];

/// Fresh bound names of the unfoldings: `✝` cannot be written in source text.
const EPSILON: &str = "ε✝";
const DELTA: &str = "δ✝";
const THRESHOLD: &str = "N✝";
const INDEX: &str = "n✝";
const POINT: &str = "x✝";
const BASE: &str = "b✝";
const BOUND: &str = "i✝";
const ARGUMENT: &str = "a✝";
const SECOND: &str = "m✝";
const FRESH: [&str; 9] = [EPSILON, DELTA, THRESHOLD, INDEX, POINT, BASE, BOUND, ARGUMENT, SECOND];

/// A name bound with a written function type `α → β` whose domain and codomain are number
/// types: those types.
fn number_function(name: &Tree, c: &Carriers) -> Option<(Num, Num)> {
    if !is_leaf(name) || FRESH.contains(&name.label.as_str()) {
        return None;
    }
    let ty = c.name_type(&name.label)?;
    let [domain, codomain] = ty.children.as_slice() else {
        return None;
    };
    if ty.label != IMP {
        return None;
    }
    Some((elab::num_of_type(domain)?, elab::num_of_type(codomain)?))
}

/// `f ∘ g` of two names whose written types meet (`g : α → β`, `f : β → γ`): where they do not,
/// `f ∘ g` does not elaborate while `fun x => f (g x)` coerces `g x`, so only then is the
/// composite the lambda.
fn composition<'a>(t: &'a Tree, c: &Carriers) -> Option<(&'a Tree, &'a Tree)> {
    let (" _ ∘ _ ", [outer, inner]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (outer_type, inner_type) = (c.name_type(&outer.label)?, c.name_type(&inner.label)?);
    let meet = [outer, inner].iter().all(|f| is_leaf(f) && !FRESH.contains(&f.label.as_str()))
        && [outer_type, inner_type].iter().all(|ty| ty.label == IMP && ty.children.len() == 2)
        && outer_type.children[0] == inner_type.children[1];
    meet.then_some((outer, inner))
}

/// The sequence of a `Tendsto … atTop …`, ready to be applied under a fresh quantifier.
struct Sequence {
    /// The bound index: a fresh name, or the `fun`'s own binder (nothing to substitute).
    index: Tree,
    /// The sequence at the index: `u n✝`, or the `fun`'s body.
    value: Tree,
    /// The type of the index, when the unfolded text must write it on the threshold `N` (a
    /// `fun`'s written binder type that its body does not decide).
    written: Option<Tree>,
    /// The codomain.
    codomain: Num,
}

/// The function `f` of `Tendsto f atTop …` as a [`Sequence`]: a name `u : T → C`, or
/// `fun n => e` / `fun (n : T) => e` whose binder's type is an index type and whose body has a
/// number type of its own ([`operand_kind`]), with `T` among [`INDEX_TYPES`].
fn sequence(f: &Tree, c: &Carriers) -> Option<Sequence> {
    if let Some((domain, codomain)) = number_function(f, c) {
        if !INDEX_TYPES.contains(&domain) {
            return None;
        }
        let index = Tree::bound_variable(INDEX);
        let value = Tree::node(format!("{} _ ", f.label), vec![index.clone()]);
        return Some(Sequence { index, value, written: None, codomain });
    }
    if let Some((outer, inner)) = composition(f, c) {
        // `Function.comp_def : f ∘ g = fun x => f (g x)` (rfl): the composite at the index.
        let (domain, _) = number_function(inner, c)?;
        let (_, codomain) = number_function(outer, c)?;
        if !INDEX_TYPES.contains(&domain) {
            return None;
        }
        let index = Tree::bound_variable(INDEX);
        let at_inner = Tree::node(format!("{} _ ", inner.label), vec![index.clone()]);
        let value = Tree::node(format!("{} _ ", outer.label), vec![at_inner]);
        return Some(Sequence { index, value, written: None, codomain });
    }
    let ("fun _ => _ ", [binder, body]) = (f.label.as_str(), f.children.as_slice()) else {
        return None;
    };
    let (x, written) = named_binder(binder)?;
    if FRESH.iter().any(|name| *name == x.label || mentions(body, name)) {
        return None;
    }
    let decided = infer_binder_type(&x.label, body, c, Deciders::TheoremBinders);
    let ty = match (written, &decided) {
        (Some(ty), Some(d)) if d != ty => return None,
        (Some(ty), _) => ty,
        (None, Some(d)) => d,
        (None, None) => return None,
    };
    let domain = elab::num_of_type(ty).filter(|n| INDEX_TYPES.contains(n))?;
    let codomain = operand_kind(body, c, Some((&x.label, domain)))?.number()?;
    // A written type the body decides anyway is left to elaboration, as in the ε-form.
    let written = if decided.is_some() { None } else { written.cloned() };
    let mut index = x.clone();
    index.variable_freecost = true;
    Some(Sequence { index, value: body.clone(), written, codomain })
}

/// The type `binop%` gives an operand, on the ladder ℕ → ℤ → ℚ → ℝ → ℂ its coercions climb.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// Numerals only: the context decides.
    Numeral,
    Nat,
    Int,
    Rat,
    Real,
    Complex,
}

impl Kind {
    fn of(n: Num) -> Option<Kind> {
        match n {
            Num::Nat => Some(Kind::Nat),
            Num::Int => Some(Kind::Int),
            Num::Rat => Some(Kind::Rat),
            Num::Real => Some(Kind::Real),
            Num::Complex => Some(Kind::Complex),
        }
    }

    fn number(self) -> Option<Num> {
        match self {
            Kind::Numeral => None,
            Kind::Nat => Some(Num::Nat),
            Kind::Int => Some(Num::Int),
            Kind::Rat => Some(Num::Rat),
            Kind::Real => Some(Num::Real),
            Kind::Complex => Some(Num::Complex),
        }
    }
}

/// Deep enough for any statement; deeper terms are unknown.
const MAX_DEPTH: usize = 200;

/// The type of `t` as `binop%` elaborates it alone: the largest type among the leaves of its
/// arithmetic (`+ - * /`, unary `-`, the base of `^` with a natural exponent), each leaf
/// coerced up to it; a leaf is an ascription `(e : T)` (type `T`), `bound` (its type), or a
/// term elaboration-lite types. `None` when a leaf's type is unknown or not on the ladder
/// (a cast `↑e`, whose target the context decides).
fn operand_kind(t: &Tree, c: &Carriers, bound: Option<(&str, Num)>) -> Option<Kind> {
    kind_at(t, c, bound, 0)
}

fn kind_at(t: &Tree, c: &Carriers, bound: Option<(&str, Num)>, depth: usize) -> Option<Kind> {
    if depth > MAX_DEPTH || t.unparsed {
        return None;
    }
    let sub = |x: &Tree| kind_at(x, c, bound, depth + 1);
    match (t.label.as_str(), t.children.as_slice()) {
        (" _ + _ " | " _ - _ " | " _ * _ " | " _ / _ ", [a, b]) => Some(sub(a)?.max(sub(b)?)),
        ("-", [a]) => sub(a),
        (" _ ^ _ ", [base, exponent]) => {
            let natural = matches!(elab::type_of(exponent, c), Ty::Numeral | Ty::Num(Num::Nat));
            natural.then(|| sub(base)).flatten()
        }
        ("( _ : _ )", [_, ty]) => Kind::of(elab::num_of_type(ty)?),
        (label, []) if bound.is_some_and(|(x, _)| x == label) => Kind::of(bound?.1),
        _ => match elab::type_of(t, c) {
            Ty::Numeral => Some(Kind::Numeral),
            Ty::Num(n) => Kind::of(n),
            Ty::Unknown => None,
        },
    }
}

/// A limit or point an operand of type `n` (ℝ or ℂ) may be written against: a term of that
/// type, or numerals only (which take the operand's type). Not a natural `k` (`|x - k|` with
/// `x` of unknown type would make `x` natural) and not a term of unknown type.
fn at_type_or_numeral(t: &Tree, c: &Carriers, n: Num) -> bool {
    if FRESH.iter().any(|name| mentions(t, name)) {
        return false;
    }
    let kind = operand_kind(t, c, None);
    kind == Some(Kind::Numeral) || (kind.is_some() && kind == Kind::of(n))
}

fn var(name: &str) -> Tree {
    Tree::bound_variable(name)
}

/// `dist a b` on ℝ (`Real.dist_eq`): `|a - b|`.
fn distance(a: Tree, b: Tree) -> Tree {
    Tree::node("| _ |", vec![node2(" _ - _ ", a, b)])
}

/// `dist a b` on ℂ (`Complex.dist_eq`): `‖a - b‖`.
fn norm_distance(a: Tree, b: Tree) -> Tree {
    Tree::node("‖ _ ‖", vec![node2(" _ - _ ", a, b)])
}

/// `∀ x > 0, body` / `∃ x > 0, body` (`label`), as the parser writes a binder predicate.
fn positive(label: &str, x: &str, body: Tree) -> Tree {
    Tree::node(label, vec![var(x), Tree::node("> _ ", vec![Tree::leaf("0")]), body])
}

const FORALL_PREDICATE: &str = "∀ _  _ , _ ";
const EXISTS_PREDICATE: &str = "∃ _  _ , _ ";

/// `∀ x ≥ bound, body`.
fn at_least(x: Tree, bound: Tree, body: Tree) -> Tree {
    Tree::node(FORALL_PREDICATE, vec![x, Tree::node("≥ _ ", vec![bound]), body])
}

/// `∃ N, body`, or `∃ N : T, body` when the index type must be written.
fn threshold(written: Option<Tree>, body: Tree) -> Tree {
    let n = var(THRESHOLD);
    let binder = match written {
        Some(ty) => node2(EXPLICIT, n, ty),
        None => n,
    };
    node2(EXISTS, binder, body)
}

fn apply(f: &Tree, x: Tree) -> Tree {
    Tree::node(format!("{} _ ", f.label), vec![x])
}

/// `Metric.tendsto_atTop` on ℝ and ℂ: `Tendsto u atTop (𝓝 a)` is
/// `∀ ε > 0, ∃ N, ∀ n ≥ N, |u n - a| < ε` (`‖u n - a‖` on ℂ).
fn tendsto_nhds_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Filter.Tendsto _  _  _ ", [f, at_top, target]) =
        (t.label.as_str(), t.children.as_slice())
    else {
        return None;
    };
    let ("nhds _ ", [limit]) = (target.label.as_str(), target.children.as_slice()) else {
        return None;
    };
    if at_top.label != "Filter.atTop" || !is_leaf(at_top) {
        return None;
    }
    let c = ctx.carriers;
    let s = sequence(f, c)?;
    let dist = match s.codomain {
        Num::Real => distance,
        Num::Complex => norm_distance,
        _ => return None,
    };
    if !at_type_or_numeral(limit, c, s.codomain) || mentions_head(limit, &s.index.label) {
        return None;
    }
    let close = node2(" _ < _ ", dist(s.value, limit.clone()), var(EPSILON));
    let body = threshold(s.written, at_least(s.index, var(THRESHOLD), close));
    Some(("Metric.tendsto_atTop", positive(FORALL_PREDICATE, EPSILON, body)))
}

/// `Metric.cauchySeq_iff` on ℝ and ℂ: `CauchySeq u` is
/// `∀ ε > 0, ∃ N, ∀ m ≥ N, ∀ n ≥ N, |u m - u n| < ε` (`‖u m - u n‖` on ℂ), for a sequence as
/// [`sequence`] reads it over ℕ ℤ ℚ ℝ (nonempty lattices). A `fun`'s body is put at both indices,
/// so it must bind nothing itself (no capture, no substitution under a binder).
fn cauchy_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("CauchySeq _ ", [f]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    // A binder of that name is the statement's own, not Mathlib's.
    if ctx.carriers.binds("CauchySeq") {
        return None;
    }
    let s = sequence(f, ctx.carriers)?;
    let dist = match s.codomain {
        Num::Real => distance,
        Num::Complex => norm_distance,
        _ => return None,
    };
    let (m, n) = (var(SECOND), var(INDEX));
    let at = |i: &Tree| -> Option<Tree> {
        if number_function(f, ctx.carriers).is_some() {
            return Some(apply(f, i.clone()));
        }
        if has_binder(&s.value) {
            return None;
        }
        Some(substitute(&s.value, &s.index.label, i))
    };
    let close = node2(" _ < _ ", dist(at(&m)?, at(&n)?), var(EPSILON));
    let inner = at_least(n, var(THRESHOLD), close);
    let body = threshold(s.written, at_least(m, var(THRESHOLD), inner));
    Some(("Metric.cauchySeq_iff", positive(FORALL_PREDICATE, EPSILON, body)))
}

/// `Filter.tendsto_atTop_atTop`: `Tendsto u atTop atTop` is
/// `∀ b, ∃ i, ∀ a, i ≤ a → b ≤ u a`, for a sequence into ℕ ℤ ℚ ℝ (preorders).
fn tendsto_at_top_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Filter.Tendsto _  _  _ ", [f, source, target]) =
        (t.label.as_str(), t.children.as_slice())
    else {
        return None;
    };
    if [source, target].iter().any(|l| l.label != "Filter.atTop" || !is_leaf(l)) {
        return None;
    }
    let s = sequence(f, ctx.carriers)?;
    // ℂ has no order `atTop` could use.
    if !INDEX_TYPES.contains(&s.codomain) {
        return None;
    }
    let bound = match s.written {
        Some(ty) => node2(EXPLICIT, var(BOUND), ty),
        None => var(BOUND),
    };
    let step = node2(
        IMP,
        node2(" _ ≤ _ ", var(BOUND), s.index.clone()),
        node2(" _ ≤ _ ", var(BASE), s.value),
    );
    let body = node2(EXISTS, bound, node2(FORALL, s.index, step));
    Some(("Filter.tendsto_atTop_atTop", node2(FORALL, var(BASE), body)))
}

/// A function ℝ → ℝ as the continuity lemmas read it: a name `f : ℝ → ℝ`, or `fun x => e`
/// whose binder is real (written or decided by its first use) and whose body is real on its own
/// ([`operand_kind`]) with no binder inside (the argument is substituted for `x`).
enum RealMap<'a> {
    Named(&'a Tree),
    Lambda { x: &'a str, body: &'a Tree },
}

impl RealMap<'_> {
    /// The function at `arg`: `f arg`, or the body with `arg` for `x` (β-reduction).
    fn at(&self, arg: &Tree) -> Tree {
        match self {
            RealMap::Named(f) => apply(f, arg.clone()),
            RealMap::Lambda { x, body } => substitute(body, x, arg),
        }
    }
}

/// `f` as a [`RealMap`], and whether the unfolded statement must write `: ℝ` on the points it
/// binds (a `fun`'s written type that its body does not decide: an untyped point would take
/// its type from the arithmetic alone, and numerals default to ℕ).
fn real_map<'a>(f: &'a Tree, c: &Carriers) -> Option<(RealMap<'a>, bool)> {
    if number_function(f, c).is_some() {
        return (number_function(f, c)? == (Num::Real, Num::Real))
            .then_some((RealMap::Named(f), false));
    }
    let ("fun _ => _ ", [binder, body]) = (f.label.as_str(), f.children.as_slice()) else {
        return None;
    };
    let (x, written) = binder_parts(binder)?;
    if FRESH.iter().any(|name| *name == x.label || mentions(body, name))
        || has_binder(body)
        || mentions_application(body, &x.label)
    {
        return None;
    }
    let decided = infer_binder_type(&x.label, body, c, Deciders::TheoremBinders);
    let ty = match (written, &decided) {
        (Some(ty), Some(d)) if d != ty => return None,
        (Some(ty), _) => ty,
        (None, Some(d)) => d,
        (None, None) => return None,
    };
    if elab::num_of_type(ty) != Some(Num::Real)
        || operand_kind(body, c, Some((&x.label, Num::Real))) != Some(Kind::Real)
    {
        return None;
    }
    Some((RealMap::Lambda { x: &x.label, body }, decided.is_none()))
}

/// Does some node of `t` bind a name (a quantifier, `fun`, a big operator, a set-builder)?
fn has_binder(t: &Tree) -> bool {
    is_binding_node(&t.label) || t.children.iter().any(has_binder)
}

/// Is `x` applied somewhere in `t` (`x a`), so that substituting a term for it is no longer a
/// renaming of a leaf?
fn mentions_application(t: &Tree, x: &str) -> bool {
    app_head(t) == Some(x) || t.children.iter().any(|ch| mentions_application(ch, x))
}

/// Is every occurrence of `x` in `t` an operand of the arithmetic `binop%` elaborates at `t`'s
/// root (`+ - * /`, unary `-`, the base of `^`, or `(x : ℝ)`), never under a function or
/// another node?
fn arithmetic_only(t: &Tree, x: &str) -> bool {
    match (t.label.as_str(), t.children.as_slice()) {
        (_, []) => true,
        (" _ + _ " | " _ - _ " | " _ * _ " | " _ / _ ", [a, b]) => {
            arithmetic_only(a, x) && arithmetic_only(b, x)
        }
        ("-", [a]) => arithmetic_only(a, x),
        (" _ ^ _ ", [base, exponent]) => arithmetic_only(base, x) && !mentions_head(exponent, x),
        ("( _ : _ )", [e, ty]) if e.label == x && is_leaf(e) => {
            elab::num_of_type(ty) == Some(Num::Real)
        }
        _ => !mentions_head(t, x),
    }
}

/// A point bound by `∀`: `x`, or `x : ℝ` when it must be written.
fn point_binder(name: &str, typed: bool) -> Tree {
    if typed {
        node2(EXPLICIT, var(name), Tree::leaf("ℝ"))
    } else {
        var(name)
    }
}

/// `Metric.continuous_iff` on ℝ → ℝ: `Continuous f` is
/// `∀ b, ∀ ε > 0, ∃ δ > 0, ∀ a, |a - b| < δ → |f a - f b| < ε`.
fn continuous_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Continuous _ ", [f]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (map, typed) = real_map(f, ctx.carriers)?;
    let (a, b) = (var(ARGUMENT), var(BASE));
    let step = node2(
        IMP,
        node2(" _ < _ ", distance(a.clone(), b.clone()), var(DELTA)),
        node2(" _ < _ ", distance(map.at(&a), map.at(&b)), var(EPSILON)),
    );
    let inner = node2(FORALL, point_binder(ARGUMENT, typed), step);
    let body = positive(FORALL_PREDICATE, EPSILON, positive(EXISTS_PREDICATE, DELTA, inner));
    Some(("Metric.continuous_iff", node2(FORALL, point_binder(BASE, typed), body)))
}

/// `Metric.uniformContinuous_iff` on ℝ → ℝ: `UniformContinuous f` is
/// `∀ ε > 0, ∃ δ > 0, ∀ a b, |a - b| < δ → |f a - f b| < ε`.
fn uniform_continuous_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("UniformContinuous _ ", [f]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    // A binder of that name is the statement's own, not Mathlib's.
    if ctx.carriers.binds("UniformContinuous") {
        return None;
    }
    let (map, typed) = real_map(f, ctx.carriers)?;
    let (a, b) = (var(ARGUMENT), var(BASE));
    let step = node2(
        IMP,
        node2(" _ < _ ", distance(a.clone(), b.clone()), var(DELTA)),
        node2(" _ < _ ", distance(map.at(&a), map.at(&b)), var(EPSILON)),
    );
    let inner = node2(
        FORALL,
        point_binder(ARGUMENT, typed),
        node2(FORALL, point_binder(BASE, typed), step),
    );
    let body = positive(FORALL_PREDICATE, EPSILON, positive(EXISTS_PREDICATE, DELTA, inner));
    Some(("Metric.uniformContinuous_iff", body))
}

/// `Metric.continuousOn_iff` on ℝ → ℝ: `ContinuousOn f s` is
/// `∀ b ∈ s, ∀ ε > 0, ∃ δ > 0, ∀ a ∈ s, |a - b| < δ → |f a - f b| < ε`, for a name `s` of
/// written type `Set ℝ` (membership in it makes the points real, so none needs a written type).
fn continuous_on_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("ContinuousOn _  _ ", [f, set]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let c = ctx.carriers;
    let (map, _) = real_map(f, c)?;
    let ty = c.name_type(&set.label).filter(|_| is_leaf(set))?;
    let ("Set _ ", [element]) = (ty.label.as_str(), ty.children.as_slice()) else {
        return None;
    };
    if elab::num_of_type(element) != Some(Num::Real) || FRESH.contains(&set.label.as_str()) {
        return None;
    }
    let member = || Tree::node("∈ _ ", vec![set.clone()]);
    let (a, b) = (var(ARGUMENT), var(BASE));
    let step = node2(
        IMP,
        node2(" _ < _ ", distance(a.clone(), b.clone()), var(DELTA)),
        node2(" _ < _ ", distance(map.at(&a), map.at(&b)), var(EPSILON)),
    );
    let inner = Tree::node(FORALL_PREDICATE, vec![a, member(), step]);
    let body = positive(FORALL_PREDICATE, EPSILON, positive(EXISTS_PREDICATE, DELTA, inner));
    Some(("Metric.continuousOn_iff", Tree::node(FORALL_PREDICATE, vec![b, member(), body])))
}

/// `Metric.continuousAt_iff` on ℝ → ℝ: `ContinuousAt f c` is
/// `∀ ε > 0, ∃ δ > 0, ∀ x, |x - c| < δ → |f x - f c| < ε` (the lemma's `∀ ⦃x⦄` is the same
/// proposition).
fn continuous_at_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("ContinuousAt _  _ ", [f, point]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let c = ctx.carriers;
    let (map, typed) = real_map(f, c)?;
    if !at_type_or_numeral(point, c, Num::Real) {
        return None;
    }
    // A numeral put for `x` is typed by what surrounds it: only where the real arithmetic of
    // `|f x - f c|` does (in `⌊x - 3⌋` it would be typed by nothing and default to ℕ).
    if let RealMap::Lambda { x, body } = map {
        if operand_kind(point, c, None) == Some(Kind::Numeral) && !arithmetic_only(body, x) {
            return None;
        }
    }
    let x = var(POINT);
    let step = node2(
        IMP,
        node2(" _ < _ ", distance(x.clone(), point.clone()), var(DELTA)),
        node2(" _ < _ ", distance(map.at(&x), map.at(point)), var(EPSILON)),
    );
    let body = positive(EXISTS_PREDICATE, DELTA, node2(FORALL, point_binder(POINT, typed), step));
    Some(("Metric.continuousAt_iff", positive(FORALL_PREDICATE, EPSILON, body)))
}

/// `abs_sub_comm` and `norm_sub_rev` as a move: `|a - b|` is `|b - a|` ([`distance_operands`]),
/// `‖a - b‖` is `‖b - a‖` on ℤ ℚ ℝ ℂ. A move, not a canonical orientation: bound names are
/// renamed for free, so no order of the two operands is the same on both sides (`|x - y|`
/// against `|a✝ - b✝|`), and the search finds the swap. Its own inverse.
fn distance_swapped(t: &Tree, ctx: &Ctx) -> Vec<(&'static str, Tree)> {
    let (outer, [difference]) = (t.label.as_str(), t.children.as_slice()) else {
        return Vec::new();
    };
    let (" _ - _ ", [a, b]) = (difference.label.as_str(), difference.children.as_slice()) else {
        return Vec::new();
    };
    if a == b {
        return Vec::new();
    }
    let c = ctx.carriers;
    let fires = match outer {
        "| _ |" => distance_operands(a, b, c),
        "‖ _ ‖" => elab::carrier(&[a, b], c).is_some_and(|n| n != Num::Nat),
        _ => false,
    };
    if !fires {
        return Vec::new();
    }
    let name = if outer == "| _ |" { "abs_sub_comm" } else { "norm_sub_rev" };
    let swapped = node2(" _ - _ ", b.clone(), a.clone());
    vec![(name, Tree::node(outer, vec![swapped]))]
}

/// May `|a - b|` be written `|b - a|`? The lemma holds wherever `|·|` is Mathlib's `abs`
/// (`[Lattice α] [AddGroup α]`), and `binop%` elaborates `a - b` and `b - a` alike (the same
/// leaves, coerced to the same type). Read: the pair's type is ℤ ℚ ℝ, or each operand is of
/// one of those types, a numeral, or a name some binder binds with no written type (`∀ x y,
/// |x - y| < δ → …`: its type is whatever the statement's uses give, and `abs` makes it a
/// group); not ℕ (no `AddGroup`, truncated `-`), ℂ (no lattice) or a type variable, and not
/// numerals alone (they default to ℕ).
fn distance_operands(a: &Tree, b: &Tree, c: &Carriers) -> bool {
    if let Some(n) = elab::carrier(&[a, b], c) {
        return ORDERED_GROUP.contains(&n);
    }
    let untyped_name = |t: &Tree| {
        is_leaf(t)
            && c.binds(&t.label)
            && c.name_type(&t.label).is_none()
            && !c.binder_types.iter().any(|(n, _)| *n == t.label)
    };
    let fits = |t: &Tree| match elab::type_of(t, c) {
        Ty::Num(n) => ORDERED_GROUP.contains(&n),
        Ty::Numeral => true,
        Ty::Unknown => untyped_name(t),
    };
    fits(a) && fits(b) && (untyped_name(a) || untyped_name(b))
}

/// `∃ N, ∀ n, N < n → p n` is `∃ N, ∀ n, N ≤ n → p n` (the canonical form of `∀ n > N` and
/// `∀ n ≥ N`) when the index type is one of [`INDEX_TYPES`] (nonempty lattices without a
/// greatest element), written on `n` or `N` (the other one untyped or of the same type) or
/// decided by `p`'s first use of `n`, and `p` does not mention `N`.
fn eventually_strict(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EXISTS, [outer, body]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (FORALL, [inner, step]) = (body.label.as_str(), body.children.as_slice()) else {
        return None;
    };
    let (IMP, [bound, p]) = (step.label.as_str(), step.children.as_slice()) else {
        return None;
    };
    let (" _ < _ ", [lower, index]) = (bound.label.as_str(), bound.children.as_slice()) else {
        return None;
    };
    let (threshold_name, threshold_type) = binder_parts(outer)?;
    let (index_name, index_type) = binder_parts(inner)?;
    if lower.label != threshold_name.label
        || index.label != index_name.label
        || !is_leaf(lower)
        || !is_leaf(index)
        || lower.label == index.label
        || mentions_head(p, &lower.label)
    {
        return None;
    }
    let c = ctx.carriers;
    // `N < n` comes first: a written type on either decides both (`binrel%` unifies them).
    let decided = match index_type.or(threshold_type) {
        Some(ty) => ty.clone(),
        None => infer_binder_type(&index.label, p, c, Deciders::TheoremBinders)?,
    };
    elab::num_of_type(&decided).filter(|n| INDEX_TYPES.contains(n))?;
    if threshold_type.is_some_and(|ty| *ty != decided) {
        return None;
    }
    let le = node2(" _ ≤ _ ", lower.clone(), index.clone());
    let new_body = node2(FORALL, inner.clone(), node2(IMP, le, p.clone()));
    Some(("Filter.atTop_basis_Ioi", node2(EXISTS, outer.clone(), new_body)))
}

/// A quantifier's binder: its name, and its written type if any.
fn binder_parts(b: &Tree) -> Option<(&Tree, Option<&Tree>)> {
    match (b.label.as_str(), b.children.as_slice()) {
        (_, []) => Some((b, None)),
        (EXPLICIT, [x, ty]) if is_leaf(x) => Some((x, Some(ty))),
        _ => None,
    }
}

/// `∃ N : T, ∀ n : T, N ≤ n → p` with a written type dropped where elaboration gives it
/// anyway (one step: `n`'s first, then `N`'s): `N ≤ n` is the first use of both and unifies
/// their types, so `n`'s type is `N`'s when `N` has one, and a type written on `n` alone may
/// as well be written on `N`; `N`'s type, once `n` is untyped, is the one `p`'s first use of
/// `n` decides, if `p` does not use `N` (its first use would come before).
fn index_types_elided(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EXISTS, [outer, body]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (FORALL, [inner, step]) = (body.label.as_str(), body.children.as_slice()) else {
        return None;
    };
    let (IMP, [bound, p]) = (step.label.as_str(), step.children.as_slice()) else {
        return None;
    };
    let (" _ ≤ _ ", [lower, index]) = (bound.label.as_str(), bound.children.as_slice()) else {
        return None;
    };
    let (threshold_name, threshold_type) = binder_parts(outer)?;
    let (index_name, index_type) = binder_parts(inner)?;
    if lower.label != threshold_name.label
        || index.label != index_name.label
        || !is_leaf(lower)
        || !is_leaf(index)
        || lower.label == index.label
        || elab::num_of_type(threshold_type.or(index_type)?).is_none()
    {
        return None;
    }
    let decided = || {
        (!mentions_head(p, &lower.label))
            .then(|| infer_binder_type(&index.label, p, ctx.carriers, Deciders::TheoremBinders))
            .flatten()
    };
    let untyped = |b: &Tree| b.children.first().cloned();
    let rebuilt =
        |outer: Tree, inner: Tree| node2(EXISTS, outer, node2(FORALL, inner, step.clone()));
    let name = "binder type (elaboration)";
    match (threshold_type, index_type) {
        (Some(n_ty), Some(i_ty)) if n_ty == i_ty => {
            Some((name, rebuilt(outer.clone(), untyped(inner)?)))
        }
        (None, Some(i_ty)) if decided().as_ref() == Some(i_ty) => {
            Some((name, rebuilt(outer.clone(), untyped(inner)?)))
        }
        // Neither is used before `N ≤ n`: the type written on one is the other's too.
        (None, Some(i_ty)) => {
            let typed = node2(EXPLICIT, outer.clone(), i_ty.clone());
            Some((name, rebuilt(typed, untyped(inner)?)))
        }
        (Some(n_ty), None) if decided().as_ref() == Some(n_ty) => {
            Some((name, rebuilt(untyped(outer)?, inner.clone())))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    //! The unfoldings among all the canonical rules: the Mathlib form and the ε-form people write
    //! meet, and the forms that differ in meaning stay apart. Names are written as the resolver
    //! leaves them (`Filter.Tendsto`, `nhds`).
    use super::super::{alpha_equivalent, canonicalize};
    use crate::trees::parse::{parse_statement, Header};

    fn canonical(text: &str) -> crate::trees::Tree {
        let full = format!("theorem t {text}");
        let parsed = parse_statement(&full, &Header::default())
            .unwrap_or_else(|e| panic!("does not parse: {e}: {full}"));
        canonicalize(&parsed.tree).0
    }

    const MEET: &[(&str, &str)] = &[
        (
            "(u : ℕ → ℝ) : CauchySeq u",
            "(u : ℕ → ℝ) : ∀ ε > 0, ∃ N, ∀ m ≥ N, ∀ n ≥ N, |u m - u n| < ε",
        ),
        (
            "(f : ℝ → ℝ) : UniformContinuous f",
            "(f : ℝ → ℝ) : ∀ ε > 0, ∃ δ > 0, ∀ x y, |x - y| < δ → |f x - f y| < ε",
        ),
        (
            "(u : ℕ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)",
            "(u : ℕ → ℝ) (a : ℝ) : ∀ ε : ℝ, ε > 0 → ∃ N, ∀ n ≥ N, |u n - a| < ε",
        ),
        (
            "(u : ℕ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)",
            "(u : ℕ → ℝ) (a : ℝ) : ∀ ε > (0 : ℝ), ∃ N, ∀ n ≥ N, |u n - a| < ε",
        ),
        (
            "(f : ℝ → ℝ) (c : ℝ) : ContinuousAt f c",
            "(f : ℝ → ℝ) (c : ℝ) : ∀ ε : ℝ, ε > 0 → ∃ δ : ℝ, δ > 0 ∧ ∀ x, |x - c| < δ → |f x - f c| < ε",
        ),
        (
            "(f : ℝ → ℝ) (s : Set ℝ) : ContinuousOn f s",
            "(f : ℝ → ℝ) (s : Set ℝ) : ∀ x ∈ s, ∀ ε > 0, ∃ δ > 0, ∀ y ∈ s, |y - x| < δ → |f y - f x| < ε",
        ),
        (
            "(u : ℕ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)",
            "(u : ℕ → ℝ) (a : ℝ) : ∀ ε > 0, ∃ N : ℕ, ∀ n : ℕ, n ≥ N → |u n - a| < ε",
        ),
        ("(f : ℝ → ℝ) : ∃ N, ∀ n : ℕ, n ≥ N → f n > 0", "(f : ℝ → ℝ) : ∃ N : ℕ, ∀ n ≥ N, f n > 0"),
        (
            "(u : ℕ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)",
            "(u : ℕ → ℝ) (a : ℝ) : ∀ ε > 0, ∃ N, ∀ n ≥ N, |u n - a| < ε",
        ),
        (
            "(u : ℕ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)",
            "(u : ℕ → ℝ) (a : ℝ) : ∀ ε, ε > 0 → ∃ N, ∀ n, n ≥ N → |u n - a| < ε",
        ),
        (
            "(u : ℕ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)",
            "(u : ℕ → ℝ) (a : ℝ) : ∀ ε > 0, ∃ N, ∀ n > N, |u n - a| < ε",
        ),
        (
            "(u : ℕ → ℝ) (h : Filter.Tendsto u Filter.atTop (nhds 0)) : u 0 = 0",
            "(u : ℕ → ℝ) (h : ∀ ε > 0, ∃ N, ∀ n ≥ N, |u n - 0| < ε) : u 0 = 0",
        ),
        (
            ": Filter.Tendsto (fun n : ℕ => 1 / ((n : ℝ) + 1)) Filter.atTop (nhds 0)",
            ": ∀ ε > 0, ∃ N : ℕ, ∀ n ≥ N, |1 / ((n : ℝ) + 1) - 0| < ε",
        ),
        (
            "(u : ℕ → ℝ) : Filter.Tendsto (fun n => u n + 1) Filter.atTop (nhds 1)",
            "(u : ℕ → ℝ) : ∀ ε > 0, ∃ N, ∀ n ≥ N, |u n + 1 - 1| < ε",
        ),
        (
            "(u : ℕ → ℝ) : Filter.Tendsto u Filter.atTop Filter.atTop",
            "(u : ℕ → ℝ) : ∀ M, ∃ N, ∀ n ≥ N, u n ≥ M",
        ),
        (
            "(f : ℝ → ℝ) : Continuous f",
            "(f : ℝ → ℝ) : ∀ x, ∀ ε > 0, ∃ δ > 0, ∀ y, |y - x| < δ → |f y - f x| < ε",
        ),
        (
            "(f : ℝ → ℝ) (c : ℝ) : ContinuousAt f c",
            "(f : ℝ → ℝ) (c : ℝ) : ∀ ε > 0, ∃ δ > 0, ∀ x, |x - c| < δ → |f x - f c| < ε",
        ),
        (
            "(u : ℕ → ℂ) (z : ℂ) : Filter.Tendsto u Filter.atTop (nhds z)",
            "(u : ℕ → ℂ) (z : ℂ) : ∀ ε > 0, ∃ N, ∀ n ≥ N, Complex.abs (u n - z) < ε",
        ),
        (
            ": Continuous (fun x : ℝ => x ^ 2 + 1)",
            ": ∀ x : ℝ, ∀ ε > 0, ∃ δ > 0, ∀ y : ℝ, |y - x| < δ → |y ^ 2 + 1 - (x ^ 2 + 1)| < ε",
        ),
        (
            ": ContinuousAt (fun x : ℝ => 1 / x) 2",
            ": ∀ ε > 0, ∃ δ > 0, ∀ x : ℝ, |x - 2| < δ → |1 / x - 1 / 2| < ε",
        ),
    ];

    const APART: &[(&str, &str)] = &[
        // Continuity at every point against uniform continuity (δ chosen before the point).
        (
            "(f : ℝ → ℝ) : UniformContinuous f",
            "(f : ℝ → ℝ) : ∀ x, ∀ ε > 0, ∃ δ > 0, ∀ y, |x - y| < δ → |f x - f y| < ε",
        ),
        // Rational and natural ε: the written type is not elaboration's.
        (
            "(u : ℕ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)",
            "(u : ℕ → ℝ) (a : ℝ) : ∀ ε : ℚ, ε > 0 → ∃ N, ∀ n ≥ N, |u n - a| < ε",
        ),
        (
            "(u : ℕ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)",
            "(u : ℕ → ℝ) (a : ℝ) : ∀ ε > (0 : ℚ), ∃ N, ∀ n ≥ N, |u n - a| < ε",
        ),
        // Cauchy: one index against the threshold (`Metric.cauchySeq_iff'`, not this rule's text),
        // a natural-valued sequence, the threshold before ε.
        (
            "(u : ℕ → ℝ) : CauchySeq u",
            "(u : ℕ → ℝ) : ∀ ε > 0, ∃ N, ∀ n ≥ N, |u n - u N| < ε",
        ),
        (
            "(u : ℕ → ℕ) : CauchySeq u",
            "(u : ℕ → ℕ) : ∀ ε > 0, ∃ N, ∀ m ≥ N, ∀ n ≥ N, |u m - u n| < ε",
        ),
        (
            "(u : ℕ → ℝ) : CauchySeq u",
            "(u : ℕ → ℝ) : ∃ N, ∀ ε > 0, ∀ m ≥ N, ∀ n ≥ N, |u m - u n| < ε",
        ),
        // Points anywhere, not in s.
        (
            "(f : ℝ → ℝ) (s : Set ℝ) : ContinuousOn f s",
            "(f : ℝ → ℝ) (s : Set ℝ) : ∀ x ∈ s, ∀ ε > 0, ∃ δ > 0, ∀ y, |y - x| < δ → |f y - f x| < ε",
        ),
        // A natural index against a real one.
        ("(f : ℝ → ℝ) : ∃ N, ∀ n : ℕ, n ≥ N → f n > 0", "(f : ℝ → ℝ) : ∃ N, ∀ n ≥ N, f n > 0"),
        ("(f : ℝ → ℝ) : ∃ N : ℕ, ∀ n ≥ N, f n > 0", "(f : ℝ → ℝ) : ∃ N, ∀ n ≥ N, f n > 0"),
        // Quantifiers swapped.
        (
            "(u : ℕ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)",
            "(u : ℕ → ℝ) (a : ℝ) : ∃ N, ∀ ε > 0, ∀ n ≥ N, |u n - a| < ε",
        ),
        // ε fixed outside.
        (
            "(u : ℕ → ℝ) (a ε : ℝ) (hε : ε > 0) : Filter.Tendsto u Filter.atTop (nhds a)",
            "(u : ℕ → ℝ) (a ε : ℝ) (hε : ε > 0) : ∃ N, ∀ n ≥ N, |u n - a| < ε",
        ),
        // atBot.
        (
            "(u : ℤ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atBot (nhds a)",
            "(u : ℤ → ℝ) (a : ℝ) : ∀ ε > 0, ∃ N, ∀ n ≥ N, |u n - a| < ε",
        ),
        // A natural-valued sequence.
        (
            "(u : ℕ → ℕ) (a : ℕ) : Filter.Tendsto u Filter.atTop (nhds a)",
            "(u : ℕ → ℕ) (a : ℕ) : ∀ ε > 0, ∃ N, ∀ n ≥ N, |u n - a| < ε",
        ),
        // Along the integers only.
        (
            "(f : ℝ → ℝ) : Filter.Tendsto f Filter.atTop (nhds 0)",
            "(f : ℝ → ℝ) : ∀ ε > 0, ∃ N : ℕ, ∀ n ≥ N, |f n - 0| < ε",
        ),
        // Natural division.
        (
            ": Filter.Tendsto (fun n : ℕ => n / (n + 1)) Filter.atTop (nhds 1)",
            ": ∀ ε > 0, ∃ N : ℕ, ∀ n ≥ N, |(n : ℝ) / (n + 1) - 1| < ε",
        ),
        // ≤ ε is not the lemma's text (equivalent only by a proof no rule makes).
        (
            "(u : ℕ → ℝ) (a : ℝ) : Filter.Tendsto u Filter.atTop (nhds a)",
            "(u : ℕ → ℝ) (a : ℝ) : ∀ ε > 0, ∃ N, ∀ n ≥ N, |u n - a| ≤ ε",
        ),
        // Uniform continuity.
        (
            "(f : ℝ → ℝ) : Continuous f",
            "(f : ℝ → ℝ) : ∀ ε > 0, ∃ δ > 0, ∀ x y, |y - x| < δ → |f y - f x| < ε",
        ),
        // A natural point.
        (
            "(f : ℝ → ℝ) (k : ℕ) : ContinuousAt f k",
            "(f : ℝ → ℝ) (k : ℕ) : ∀ ε > 0, ∃ δ > 0, ∀ x, |x - k| < δ → |f x - f k| < ε",
        ),
        // The difference of norms is not the norm of the difference.
        (
            "(u : ℕ → ℂ) (z : ℂ) : Filter.Tendsto u Filter.atTop (nhds z)",
            "(u : ℕ → ℂ) (z : ℂ) : ∀ ε > 0, ∃ N, ∀ n ≥ N, ‖u n‖ - ‖z‖ < ε",
        ),
        // Points no use types: not the real ε–δ.
        (
            ": Continuous (fun x : ℝ => x ^ 2)",
            ": ∀ x, ∀ ε > 0, ∃ δ > 0, ∀ y, |y - x| < δ → |y ^ 2 - x ^ 2| < ε",
        ),
        // A strict bound the predicate names.
        (": ∃ N : ℕ, ∀ n > N, n ≠ N", ": ∃ N : ℕ, ∀ n ≥ N, n ≠ N"),
        // Short names the resolver did not read as Mathlib's stay what they are.
        (
            "(u : ℕ → ℝ) (a : ℝ) : Tendsto u atTop (𝓝 a)",
            "(u : ℕ → ℝ) (a : ℝ) : ∀ ε > 0, ∃ N, ∀ n ≥ N, |u n - a| < ε",
        ),
    ];

    #[test]
    fn the_mathlib_forms_meet_their_epsilon_forms() {
        let missed: Vec<String> = MEET
            .iter()
            .filter(|(a, b)| !alpha_equivalent(&canonical(a), &canonical(b)))
            .map(|(a, b)| format!("{a}\n  {b}"))
            .collect();
        assert!(missed.is_empty(), "not met:\n{}", missed.join("\n"));
    }

    #[test]
    fn forms_that_differ_in_meaning_stay_apart() {
        let met: Vec<String> = APART
            .iter()
            .filter(|(a, b)| alpha_equivalent(&canonical(a), &canonical(b)))
            .map(|(a, b)| format!("{a}\n  {b}"))
            .collect();
        assert!(met.is_empty(), "met:\n{}", met.join("\n"));
    }
}
