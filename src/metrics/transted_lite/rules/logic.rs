//! Logic family: notations of the connectives, negation pushed inwards (Mathlib's logic is
//! classical), and the symmetric and associative moves of `=`, `≠`, `∧`, `∨`, `↔`, `→`.
//! Declared as data (`declare`) for the matcher (`table`); owns nothing else.

use super::carriers::Carriers;
use super::declare::*;
use super::typed;
use crate::trees::Tree;

#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    rw("gt_iff_lt", "a > b ↔ b < a (notation)", "?a > ?b", "?b < ?a").when(&[one_type_or_numbers(&["?a", "?b"])])
        .ex(&[("(x : ℝ) : x > 0", "(x : ℝ) : 0 < x")])
        .non(&["(x : ℝ) : x < 0"]),
    rw("ge_iff_le", "a ≥ b ↔ b ≤ a (notation)", "?a ≥ ?b", "?b ≤ ?a").when(&[one_type_or_numbers(&["?a", "?b"])])
        .ex(&[("(x : ℝ) : x ≥ 1", "(x : ℝ) : 1 ≤ x")])
        .non(&["(x : ℝ) : x ≤ 1"]),
    rw("ne_eq", "(a ≠ b) = ¬(a = b)", "¬ ?a = ?b", "?a ≠ ?b")
        .ex(&[("(x : ℤ) : ¬ (x = 2)", "(x : ℤ) : x ≠ 2")])
        .non(&["(x : ℤ) : ¬ (x < 2)"]),
    rw("not_mem (notation)", "notation:50 a:50 \" ∉ \" b:50 => ¬ (a ∈ b)", "?a ∉ ?s", "¬ ?a ∈ ?s")
        .ex(&[("(s : Set ℕ) (x : ℕ) : x ∉ s", "(s : Set ℕ) (x : ℕ) : ¬ x ∈ s")])
        .non(&["(s : Set ℕ) (x : ℕ) : x ∈ s", "(s t : Set ℕ) : s ⊈ t"]),
    rw("not_iff_imp_false", "¬a ↔ a → False", "?p → False", "¬ ?p")
        .ex(&[("(x : ℕ) : x = 1 → False", "(x : ℕ) : ¬ x = 1")])
        .non(&["(x : ℕ) : x = 1 → True"]),
    rw("and_imp", "a ∧ b → c ↔ a → b → c (c : Prop)", "?a ∧ ?b → ?c", "?a → ?b → ?c").when(&[prop(&["?c"])])
        .ex(&[("(x : ℝ) : 0 < x ∧ x < 1 → x ^ 2 < 1", "(x : ℝ) : 0 < x → x < 1 → x ^ 2 < 1")])
        .non(&["(x : ℝ) : 0 < x ∨ x < 1 → x ^ 2 < 1", "(p q : Prop) (f : p ∧ q → ℕ) : f = f"]),
    // `(a → b) ∧ (b → a)` elaborates only where both are propositions (`∧` takes `Prop`s).
    rw("iff_iff_implies_and_implies", "(a ↔ b) ↔ (a → b) ∧ (b → a)", "(?a → ?b) ∧ (?b → ?a)", "?a ↔ ?b")
        .ex(&[("(p q : Prop) : (p → q) ∧ (q → p)", "(p q : Prop) : p ↔ q")])
        .non(&["(p q : Prop) : (p → q) ∧ (p → q)", "(p q r : Prop) : (p → q) ∧ (q → r)"]),
    code("fact_iff", "Fact p ↔ p, where no term of the statement can take the instance", fact_unfolded)
        .ex(&[("(p : ℕ) [Fact (Nat.Prime p)] : p = p", "(p : ℕ) [Nat.Prime p] : p = p"), ("(p n : ℕ) (h : Fact (Nat.Prime p)) : p ∣ n ^ 2 → p ∣ n", "(p n : ℕ) (h : Nat.Prime p) : p ∣ n ^ 2 → p ∣ n"),
              // `ZMod p` is a commutative ring whatever `p`: ring operations need no instance.
              ("(p : ℕ) (h : Fact (Nat.Prime p)) (a : ZMod p) : a ^ p = a", "(p : ℕ) (h : Nat.Prime p) (a : ZMod p) : a ^ p = a"),
              // `IsField R` needs only `[Semiring R]`.
              ("(p : ℕ) (h : Fact (Nat.Prime p)) : IsField (ZMod p)", "(p : ℕ) (h : Nat.Prime p) : IsField (ZMod p)"),
              // Unfolded before `forall_eq` puts `Nat.card G` (read by every use of `G`) in `p`'s place.
              ("{G : Type*} [Group G] [Fintype G] (p : ℕ) [Fact p.Prime] (h : Fintype.card G = p) : IsCyclic G", "{G : Type*} [Group G] [Fintype G] (p : ℕ) [p.Prime] (h : Fintype.card G = p) : IsCyclic G")])
        // `ZMod p` is a field (`/`), `GaloisField p n` a type, only through the instance `Fact
        // p.Prime`: with a bare hypothesis they do not elaborate.
        .non(&["(p : Prop) [Decidable p] : p", "(p : ℕ) [Nat.Prime p] : p = p", "(p : ℕ) [Fact (Nat.Prime p)] (a : ZMod p) (h : a ≠ 0) : a / a = 1", "(p n : ℕ) [Fact (Nat.Prime p)] : Fintype.card (GaloisField p n) = p ^ n", "(p : ℕ) (h : Fact (Nat.Prime p)) : IsField (GaloisField p 2)", "(p : ℕ) (h : Fact (Nat.Prime p)) : IsField (ZMod p) ∧ ∀ a : ZMod p, a ≠ 0 → a / a = 1", "(Fact : Prop → Prop) (p : ℕ) (h : Fact (Nat.Prime p)) : p = p",
               // Instances unify up to `Nat` offsets: `ZMod (p + 0)` is a field through `Fact p.Prime`.
               "(p : ℕ) [Fact p.Prime] (f : Polynomial (ZMod (p + 0))) (hf : f ≠ 0) : f.roots.card ≤ f.natDegree",
               "(p : ℕ) (h : Fact (Nat.Prime p)) (a : ZMod (p + 0)) (h : a ≠ 0) : a / a = 1"]),
    code("not_exists / not_forall", "(¬∃ x, p x) ↔ ∀ x, ¬p x; (¬∀ x, p x) ↔ ∃ x, ¬p x", |t, _| typed::negated_quantifier(t))
        .ex(&[(": ¬ ∃ n : ℕ, n < 0", ": ∀ n : ℕ, ¬ n < 0"), (": ¬ ∀ n : ℕ, n < 5", ": ∃ n : ℕ, ¬ n < 5")])
        .non(&[": ¬ ∃ n > 2, n < 0", ": ∃ n : ℕ, ¬ n < 0"]),
    code("not_iff_not", "(¬a ↔ ¬b) ↔ (a ↔ b) (classical, Mathlib/Logic/Basic.lean), reading a ≠ b as ¬(a = b) and ¬a ∧ ¬b as ¬(a ∨ b) (not_or)", negations_dropped)
        .ex(&[("{K : Type*} [Field K] (a b : K) : a * b ≠ 0 ↔ a ≠ 0 ∧ b ≠ 0", "{K : Type*} [Field K] (a b : K) : a * b = 0 ↔ a = 0 ∨ b = 0"),
              ("(p q : Prop) : ¬p ↔ ¬q", "(p q : Prop) : p ↔ q")])
        // One side not a negation; a conjunction with a positive part.
        .non(&["(x : ℝ) : x ≠ 0 ↔ 0 < x ^ 2", "(x y : ℝ) : x * y ≠ 0 ↔ x ≠ 0 ∧ 0 < y"]),
    rw("not_not", "¬¬a ↔ a (classical)", "¬¬?a", "?a")
        .ex(&[("(x : ℕ) : ¬¬ x = 1", "(x : ℕ) : x = 1")])
        .non(&["(x : ℕ) : ¬ x = 1"]),
    rw("not_or", "¬(a ∨ b) ↔ ¬a ∧ ¬b", "¬ (?a ∨ ?b)", "¬ ?a ∧ ¬ ?b")
        .ex(&[("(p q : Prop) : ¬ (p ∨ q)", "(p q : Prop) : ¬ p ∧ ¬ q")])
        .non(&["(p q : Prop) : ¬ (p ∧ q)"]),
    // `∧` takes propositions, so `a → ¬ b` is an implication between them, never a function type.
    rw("not_and", "¬(a ∧ b) ↔ (a → ¬b) (Mathlib/Logic/Basic.lean)", "¬ (?a ∧ ?b)", "?a → ¬ ?b").when(&[prop(&["?a"])])
        .ex(&[("(x y : ℝ) : ¬ (y ≠ 0 ∧ x * y = 0)", "(x y : ℝ) : y ≠ 0 → ¬ x * y = 0")])
        // `∧` takes propositions: with a type `α` the left side does not elaborate.
        .non(&["(p q : Prop) : ¬ p ∧ q", "(p q : Prop) : ¬ (p ∨ q)", "(p q : Prop) : ¬ (p ↔ q)", "(α : Type) (p : Prop) : ¬ (α ∧ p)"]),
    // `not_imp : ¬(a → b) ↔ a ∧ ¬b` (Mathlib/Logic/Basic.lean, classical). The arrow must be an
    // implication: with a type on the left (`¬(ℕ → False)`) the right side does not elaborate.
    rw("not_imp", "¬(a → b) ↔ a ∧ ¬b (Mathlib/Logic/Basic.lean)", "¬ (?a → ?b)", "?a ∧ ¬ ?b").when(&[prop(&["?a"])])
        .ex(&[("(x y : ℝ) : ¬ (0 < x → x < y)", "(x y : ℝ) : 0 < x ∧ ¬ x < y")])
        .non(&["(p q : Prop) : ¬ (p ∧ q)", "(p : Prop) : ¬ (ℕ → p)", "(α : Type) (p : Prop) : ¬ (α → p)"]),
    // Moves.
    mv("eq_comm", "a = b ↔ b = a", "?a = ?b", "?b = ?a").when(&[distinct(&["?a", "?b"]), one_type_or_numbers(&["?a", "?b"])])
        .ex(&[("(x : ℕ) : x = 2", "(x : ℕ) : 2 = x")])
        .non(&["(x : ℕ) : x < 2", "(x : ℕ) : x = x"]),
    // Mathlib/Algebra/Ring/Divisibility/Basic.lean: `dvd_sub_comm : a ∣ b - c ↔ a ∣ c - b` (a
    // ring: `b - c = -(c - b)`); on ℤ only here, where `-` is the ring's (not ℕ's truncation).
    mv("dvd_sub_comm", "a ∣ b - c ↔ a ∣ c - b (ℤ)", "?n ∣ ?a - ?b", "?n ∣ ?b - ?a").when(&[distinct(&["?a", "?b"]), on(&["?n", "?a", "?b"], &INT)])
        .ex(&[("(n a b : ℤ) : n ∣ a - b", "(n a b : ℤ) : n ∣ b - a")])
        .non(&["(n a b : ℕ) : n ∣ a - b", "(n : ℤ) (a b : ℕ) : n ∣ a - b"]),
    mv("ne_comm", "a ≠ b ↔ b ≠ a", "?a ≠ ?b", "?b ≠ ?a").when(&[distinct(&["?a", "?b"]), one_type_or_numbers(&["?a", "?b"])])
        .ex(&[("(x : ℕ) : x ≠ 2", "(x : ℕ) : 2 ≠ x")])
        .non(&["(x : ℕ) : x ≠ x", "(x : ℕ) : x = 2"]),
    mv("and_comm", "a ∧ b ↔ b ∧ a", "?a ∧ ?b", "?b ∧ ?a").when(&[distinct(&["?a", "?b"])])
        .ex(&[("(p q : Prop) : p ∧ q", "(p q : Prop) : q ∧ p")])
        .non(&["(p q : Prop) : p → q"]),
    mv("or_comm", "a ∨ b ↔ b ∨ a", "?a ∨ ?b", "?b ∨ ?a").when(&[distinct(&["?a", "?b"])])
        .ex(&[("(p q : Prop) : p ∨ q", "(p q : Prop) : q ∨ p")])
        .non(&["(p : Prop) : p ∨ p", "(p q : Prop) : p → q"]),
    mv("iff_comm", "(a ↔ b) ↔ (b ↔ a)", "?a ↔ ?b", "?b ↔ ?a").when(&[distinct(&["?a", "?b"])])
        .ex(&[("(p q : Prop) : p ↔ q", "(p q : Prop) : q ↔ p")])
        .non(&["(p : Prop) : p ↔ p", "(p q : Prop) : p → q"]),
    mv("and_assoc", "(a ∧ b) ∧ c ↔ a ∧ b ∧ c", "(?a ∧ ?b) ∧ ?c", "?a ∧ (?b ∧ ?c)")
        .ex(&[("(p q r : Prop) : (p ∧ q) ∧ r", "(p q r : Prop) : p ∧ (q ∧ r)")])
        .non(&["(p q r : Prop) : (p ∨ q) ∧ r", "(p q r : Prop) : p ∧ (q ∧ r)"]),
    mv("← and_assoc", "a ∧ b ∧ c ↔ (a ∧ b) ∧ c", "?a ∧ (?b ∧ ?c)", "(?a ∧ ?b) ∧ ?c")
        .ex(&[("(p q r : Prop) : p ∧ (q ∧ r)", "(p q r : Prop) : (p ∧ q) ∧ r")])
        .non(&["(p q r : Prop) : p ∧ (q ∨ r)", "(p q r : Prop) : (p ∧ q) ∧ r"]),
    mv("or_assoc", "(a ∨ b) ∨ c ↔ a ∨ b ∨ c", "(?a ∨ ?b) ∨ ?c", "?a ∨ (?b ∨ ?c)")
        .ex(&[("(p q r : Prop) : (p ∨ q) ∨ r", "(p q r : Prop) : p ∨ (q ∨ r)")])
        .non(&["(p q r : Prop) : (p ∧ q) ∨ r", "(p q r : Prop) : p ∨ (q ∨ r)"]),
    mv("← or_assoc", "a ∨ b ∨ c ↔ (a ∨ b) ∨ c", "?a ∨ (?b ∨ ?c)", "(?a ∨ ?b) ∨ ?c")
        .ex(&[("(p q r : Prop) : p ∨ (q ∨ r)", "(p q r : Prop) : (p ∨ q) ∨ r")])
        .non(&["(p q r : Prop) : p ∨ (q ∧ r)", "(p q r : Prop) : (p ∨ q) ∨ r"]),
    mv("Imp.swap", "(a → b → c) ↔ (b → a → c) (c : Prop)", "?a → ?b → ?c", "?b → ?a → ?c").when(&[distinct(&["?a", "?b"]), prop(&["?c"])])
        .ex(&[("(p q r : Prop) : p → q → r", "(p q r : Prop) : q → p → r")])
        .non(&["(p r : Prop) : p → p → r", "(f : ℤ → ℕ → ℤ) : f 1 2 = 0", "(P Q : Prop) (R : Type) (g : P → Q → R) : g = g"]),
];

/// `fact_iff`: `Fact p` is `p` as a hypothesis, where no name `p` mentions is an argument of a
/// named function or type ([`Carriers::consumed`](super::carriers::Carriers::consumed)): there
/// the instance `Fact p` may be what elaboration needs (`ZMod p` as a field), which a bare
/// hypothesis does not provide.
fn fact_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Fact _ ", [p]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    fact_unfolds(p, ctx.carriers).then(|| ("fact_iff", p.clone()))
}

/// Does [`fact_unfolded`] read `Fact p` as `p`: no name `p` mentions is consumed, and the
/// statement does not bind `Fact`?
pub(super) fn fact_unfolds(p: &Tree, carriers: &Carriers) -> bool {
    let mut names = Vec::new();
    super::shapes::leaves(p, &mut names);
    !names.iter().any(|n| carriers.consumed(n)) && !carriers.binds("Fact")
}

/// `¬a ↔ ¬b` as `a ↔ b`, each side read as a negation where it is one: `¬p`, `x ≠ y`
/// (`Ne x y` is `¬(x = y)` by definition), or a conjunction of such (`not_or`).
fn negations_dropped(t: &Tree, _: &Ctx) -> Option<(&'static str, Tree)> {
    let (" _ ↔ _ ", [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let sides = vec![negated(a, 0)?, negated(b, 0)?];
    Some(("not_iff_not", Tree::node(t.label.clone(), sides)))
}

/// The proposition `t` negates, where it is a negation.
fn negated(t: &Tree, depth: usize) -> Option<Tree> {
    if depth > 64 {
        return None;
    }
    match (t.label.as_str(), t.children.as_slice()) {
        ("¬", [p]) => Some(p.clone()),
        (" _ ≠ _ ", [x, y]) => Some(Tree::node(" _ = _ ", vec![x.clone(), y.clone()])),
        (" _ ∧ _ ", [p, q]) => {
            let parts = vec![negated(p, depth + 1)?, negated(q, depth + 1)?];
            Some(Tree::node(" _ ∨ _ ", parts))
        }
        _ => None,
    }
}
