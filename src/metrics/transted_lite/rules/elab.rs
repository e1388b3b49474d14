//! Elaboration-lite: the number type of a subterm, for the typed rules of `transted-lite`.
//!
//! Owns [`type_of`] and the table of Mathlib functions whose result type it knows. A typed rule
//! asks for the carrier of the very terms it rewrites ([`carrier`]) and fires only when that
//! carrier is one the lemma holds on; an unknown type means the rule does not fire. Reads the
//! statement's binders through [`Carriers::name_type`]; rewrites nothing.
//!
//! What decides a type, as Lean's elaborator would (`binop%`/`binrel%` unify the operands of
//! `+ - * / %` and of a relation; a numeral takes the type of the other operands and defaults to
//! ℕ only when nothing else decides):
//! - a name bound exactly once in the statement, with a written number type (`(x : ℕ)`); a name
//!   bound twice, bound without a type (`∀ x, …`, `fun x => …`, autoImplicit) or not bound
//!   (a constant, or a function written short under an `open`) is unknown;
//! - an ascription `(e : T)`; a cast `↑e` is unknown (its target is decided by the context);
//! - an application of a function variable `(f : ℕ → ℝ)` to all its arguments: the codomain;
//! - the Mathlib functions of `result_types::RESULT_TYPES`, only under their full name (`exp x` under
//!   `open Real` is unknown here: which `exp` it is depends on the `open`s);
//! - `|a|`, `-a` and `a ^ n` (with `n` a natural) keep the type of `a`; `∑`/`∏` that of the body.
//!
//! Any two operands of different known types (a coercion Lean inserted) give unknown.

use super::carriers::Carriers;
use super::commutativity::opaque_or_matrix;
use super::result_types::known_result;
pub use super::result_types::Num;
use super::shapes::{app_head, is_leaf, is_prop_shaped, literal, quantifier, Quant, IMP};
use crate::elab::mathlib_names::SIGNATURES;
use crate::trees::Tree;

/// The type of a term, as far as elaboration-lite can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Num(Num),
    /// Built from numerals only: its type is decided by the context (ℕ if nothing decides).
    Numeral,
    Unknown,
}

impl Ty {
    /// The type of two operands that `binop%` unifies.
    pub fn join(self, other: Ty) -> Ty {
        match (self, other) {
            (Ty::Numeral, x) | (x, Ty::Numeral) => x,
            (Ty::Num(a), Ty::Num(b)) if a == b => Ty::Num(a),
            _ => Ty::Unknown,
        }
    }
}

/// A written type that names a number system (`ℕ`, `Nat`, …).
pub fn num_of_type(ty: &Tree) -> Option<Num> {
    if !is_leaf(ty) {
        return None;
    }
    match ty.label.as_str() {
        "ℕ" | "Nat" => Some(Num::Nat),
        "ℤ" | "Int" => Some(Num::Int),
        "ℚ" | "Rat" => Some(Num::Rat),
        "ℝ" | "Real" => Some(Num::Real),
        "ℂ" | "Complex" => Some(Num::Complex),
        _ => None,
    }
}

/// For name resolution ([`crate::elab::resolve::resolve_tree_typed`]): the written number type
/// of a term of `statement`, read from its binders.
pub fn number_type_of(statement: &Tree) -> impl Fn(&Tree) -> Option<&'static str> {
    let carriers = Carriers::of(statement);
    move |t| match type_of(t, &carriers) {
        Ty::Num(n) => Some(type_name(n)),
        _ => None,
    }
}

/// The written type of a number system (`ℕ` for [`Num::Nat`]).
pub fn type_name(n: Num) -> &'static str {
    match n {
        Num::Nat => "ℕ",
        Num::Int => "ℤ",
        Num::Rat => "ℚ",
        Num::Real => "ℝ",
        Num::Complex => "ℂ",
    }
}

/// The type of `t` in the statement whose binders `c` read.
pub fn type_of(t: &Tree, c: &Carriers) -> Ty {
    type_at(t, c, 0)
}

/// Deep enough for any statement; deeper terms are unknown (no stack overflow on odd input).
const MAX_DEPTH: usize = 200;

fn type_at(t: &Tree, c: &Carriers, depth: usize) -> Ty {
    if depth > MAX_DEPTH || t.unparsed || opaque_or_matrix(t) {
        return Ty::Unknown;
    }
    let sub = |x: &Tree| type_at(x, c, depth + 1);
    if is_leaf(t) {
        if literal(t).is_some() {
            return Ty::Numeral;
        }
        // A statement's own binder comes before any table (`(π : ℕ)`, `(exp : ℕ → ℕ)`).
        if c.binds(&t.label) {
            return c.name_type(&t.label).and_then(num_of_type).map_or(Ty::Unknown, Ty::Num);
        }
        return known_result(&t.label).map_or(Ty::Unknown, Ty::Num);
    }
    let label = t.label.as_str();
    match (label, t.children.as_slice()) {
        ("( _ : _ )", [e, ty]) => {
            // The ascription decides; an operand that cannot take that type makes it unknown.
            // A name bound without a type takes it (unification) or is cast to it: `(y : ℝ)` is
            // a real either way, or does not elaborate. A smaller number type is cast
            // (`(n : ℝ)` with `n : ℕ` is `↑n : ℝ`).
            let Some(n) = num_of_type(ty) else {
                return Ty::Unknown;
            };
            match sub(e) {
                Ty::Numeral => Ty::Num(n),
                Ty::Num(m) if rank(m) <= rank(n) => Ty::Num(n),
                Ty::Unknown if is_leaf(e) && c.untyped_only(&e.label) => Ty::Num(n),
                _ => Ty::Unknown,
            }
        }
        (" _ + _ " | " _ - _ " | " _ * _ " | " _ / _ " | " _ % _ ", [a, b]) => sub(a).join(sub(b)),
        // `Int.fract : α → α` (Mathlib/Algebra/Order/Floor.lean): at ℤ it is `0`, not a real.
        ("-" | "| _ |" | "abs _ " | "||" | "Int.fract _ ", [a]) => match sub(a) {
            // `-1` alone has no natural type (ℕ has no negation): leave it to the context.
            Ty::Numeral => Ty::Unknown,
            ty => ty,
        },
        // `Inv.inv : α → α`: a field's inverse keeps the type (ℕ and ℤ have no `Inv`); a
        // numeral's inverse takes its type from the context.
        ("⁻¹", [a]) => match sub(a) {
            Ty::Num(n @ (Num::Rat | Num::Real | Num::Complex)) => Ty::Num(n),
            _ => Ty::Unknown,
        },
        // `max a b`, `min a b : α` (core `Max`/`Min`, Mathlib's `LinearOrder`): both arguments
        // at one type, here the same one or a numeral beside it.
        ("max _  _ " | "min _  _ ", [a, b])
            if !c.binds(if label == "max _  _ " { "max" } else { "min" }) =>
        {
            match (sub(a), sub(b)) {
                (Ty::Num(n), Ty::Num(m)) if n == m => Ty::Num(n),
                (Ty::Num(n), Ty::Numeral) | (Ty::Numeral, Ty::Num(n)) => Ty::Num(n),
                _ => Ty::Unknown,
            }
        }
        (" _ ^ _ ", [base, exponent]) => match sub(exponent) {
            // `Monoid.npow`: the base's type.
            Ty::Num(Num::Nat) | Ty::Numeral => sub(base),
            // `Real.rpow : ℝ → ℝ → ℝ` (Mathlib/Analysis/SpecialFunctions/Pow/Real.lean) where
            // the base is a real already; another base may be cast by the context or not.
            Ty::Num(Num::Real) if sub(base) == Ty::Num(Num::Real) => Ty::Num(Num::Real),
            _ => Ty::Unknown,
        },
        _ if label.starts_with('∑') || label.starts_with('∏') => {
            t.children.last().map_or(Ty::Unknown, sub)
        }
        // Fully applied, under no binder of that name: `orderOf : G → ℕ` and
        // `addOrderOf : A → ℕ` (Mathlib/GroupTheory/OrderOfElement.lean), whatever the argument.
        // (`dist p q` is ℝ too, but typing it here would let it decide a theorem binder's type
        // that `|p - q|`, which `Real.dist_eq` makes of it, does not: the ε/δ rules read `dist`
        // where they need it.)
        (_, [_]) if matches!(app_head(t), Some(f @ ("orderOf" | "addOrderOf")) if !c.binds(f)) => {
            Ty::Num(Num::Nat)
        }
        _ => {
            if let Some(n) = known_result(label) {
                return Ty::Num(n);
            }
            let Some(head) = app_head(t) else {
                return Ty::Unknown;
            };
            if !c.binds(head) {
                if let Some(n) = known_result(head) {
                    return Ty::Num(n);
                }
            }
            // A function variable applied to all its arguments: its codomain.
            let mut ty = c.name_type(head);
            for _ in &t.children {
                ty = ty
                    .filter(|f| f.label == " _ → _ " && f.children.len() == 2)
                    .map(|f| &f.children[1]);
            }
            ty.and_then(num_of_type).map_or(Ty::Unknown, Ty::Num)
        }
    }
}

/// The number type the terms are elaborated at together (the operands of one relation): a
/// term of numerals only defaults to ℕ, as Lean's numerals do, unless the statement binds a
/// type variable (`x = 2 * 3 * 4` with `(x : M)` is at `M`, whose `*` may have no law);
/// `None` when unknown.
pub fn carrier(terms: &[&Tree], c: &Carriers) -> Option<Num> {
    let ty = terms.iter().fold(Ty::Numeral, |acc, t| acc.join(type_of(t, c)));
    match ty {
        Ty::Num(n) => Some(n),
        Ty::Numeral if c.binds_type_variable() => None,
        Ty::Numeral => Some(Num::Nat),
        Ty::Unknown => None,
    }
}

/// May `+` or `*` at `path` in `root` swap its operands (`add_comm`, `mul_comm`)? Only when the
/// node's type is a known number type (ℕ ℤ ℚ ℝ ℂ, all commutative for both): a matrix, a
/// quaternion, an auto-bound `(A : _)` or a name typed only by a Mathlib function is unknown,
/// and `A * B` does not commute. A node of numerals only takes its type from the arithmetic it
/// sits in, up to the relation whose operands `binop%`/`binrel%` elaborate together
/// (`A * (2 * 3)` is a matrix product): it commutes when that relation's carrier is known
/// (numerals alone default to ℕ); under anything else (a function argument, an exponent) it
/// does not.
pub fn commutes_at(root: &Tree, path: &[usize], c: &Carriers) -> bool {
    let Some(t) = subtree_at(root, path) else {
        return false;
    };
    match type_of(t, c) {
        Ty::Num(_) => true,
        // Operands of two number types (`x * y` with `(x : ℝ) (y : ℚ)`): `binop%` casts both
        // to the larger, a number type all the same.
        Ty::Unknown => of_number_types(t, c, 0),
        Ty::Numeral => numeral_context(root, path, c).is_some(),
    }
}

/// The number type the relation around the node at `path` gives it, where the node sits in that
/// relation's arithmetic: numerals alone take their type from there (`3⁻¹` in `q = 2 * 3⁻¹` is
/// a rational for `q : ℚ`; numerals alone default to ℕ). `None` under anything else (a function
/// argument, an exponent, a binder).
pub fn numeral_context(root: &Tree, path: &[usize], c: &Carriers) -> Option<Num> {
    let mut node = root;
    let mut context = None;
    for &slot in path {
        context = child_numeral_context(node, slot, context, c);
        node = node.children.get(slot)?;
    }
    context
}

/// The type `binop%` gives a relation's side: [`type_of`], except that numerals under `⁻¹`
/// or `-` are leaves of unknown type it unifies with the others' (`2 * 3⁻¹` beside `q : ℚ`).
fn tree_type(t: &Tree, c: &Carriers, depth: usize) -> Ty {
    if depth > MAX_DEPTH {
        return Ty::Unknown;
    }
    if numerals_only(t, 0) {
        return Ty::Numeral;
    }
    match (t.label.as_str(), t.children.as_slice()) {
        (" _ + _ " | " _ - _ " | " _ * _ " | " _ / _ " | " _ % _ ", [a, b]) => {
            largest(tree_type(a, c, depth + 1), tree_type(b, c, depth + 1))
        }
        _ => type_of(t, c),
    }
}

/// The type `binop%` gives two operands of number types: the larger, each cast up to it.
fn largest(a: Ty, b: Ty) -> Ty {
    match (a, b) {
        (Ty::Num(m), Ty::Num(n)) => Ty::Num(if rank(m) >= rank(n) { m } else { n }),
        (a, b) => a.join(b),
    }
}

/// Is `t` built from numerals by arithmetic, negation, `⁻¹` and numeral powers alone?
pub fn numerals_only(t: &Tree, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match (t.label.as_str(), t.children.as_slice()) {
        (_, []) => literal(t).is_some(),
        (" _ + _ " | " _ - _ " | " _ * _ " | " _ / _ " | " _ % _ " | " _ ^ _ ", [a, b]) => {
            numerals_only(a, depth + 1) && numerals_only(b, depth + 1)
        }
        ("-" | "⁻¹", [a]) => numerals_only(a, depth + 1),
        _ => false,
    }
}

/// [`numeral_context`] one step down: the context of `parent`'s child `slot`, given `parent`'s.
/// `binrel%` elaborates a relation's two sides as one tree; `binop%` gives `+ - * / %` and its
/// operands one type, `unop%` `-` too, `^` its base; `⁻¹` (`Inv.inv : α → α`, no `binop%`) is a
/// leaf of unknown type that `binop%` unifies with the tree's type, its operand with it.
pub fn child_numeral_context(
    parent: &Tree,
    slot: usize,
    context: Option<Num>,
    c: &Carriers,
) -> Option<Num> {
    match (parent.label.as_str(), parent.children.as_slice()) {
        (" _ = _ " | " _ ≠ _ " | " _ < _ " | " _ ≤ _ " | " _ > _ " | " _ ≥ _ ", [a, b]) => {
            match largest(tree_type(a, c, 0), tree_type(b, c, 0)) {
                Ty::Num(n) => Some(n),
                Ty::Numeral if c.binds_type_variable() => None,
                Ty::Numeral => Some(Num::Nat),
                Ty::Unknown => None,
            }
        }
        (" _ + _ " | " _ - _ " | " _ * _ " | " _ / _ " | " _ % _ ", [_, _]) => context,
        ("-" | "⁻¹", [_]) => context,
        (" _ ^ _ ", [_, _]) if slot == 0 => context,
        _ => None,
    }
}

/// Where a number type stands on the coercion ladder ℕ → ℤ → ℚ → ℝ → ℂ: each casts to every
/// later one, and casting twice is casting once (`Int.cast_natCast`, `Rat.cast_natCast`,
/// `Complex.ofReal_natCast`, …).
pub fn rank(n: Num) -> u8 {
    match n {
        Num::Nat => 0,
        Num::Int => 1,
        Num::Rat => 2,
        Num::Real => 3,
        Num::Complex => 4,
    }
}

/// The operands `binop%` (Lean's `Elab/Extra.lean`) elaborates in one tree with `t`: both of
/// `+ - * /`, the one of `-`, a power's base (its exponent is elaborated alone, `rightact%`).
/// `None` where `t` is a leaf of the tree.
pub fn same_tree_operands(t: &Tree) -> Option<&[Tree]> {
    match (t.label.as_str(), t.children.as_slice()) {
        (" _ + _ " | " _ - _ " | " _ * _ " | " _ / _ ", [_, _]) | ("-", [_]) => Some(&t.children),
        (" _ ^ _ ", [_, _]) => Some(&t.children[..1]),
        _ => None,
    }
}

/// The leaves of the arithmetic tree `t` ([`same_tree_operands`]), in pre-order: what
/// `binop%` elaborates before it unifies their types.
pub(super) fn arithmetic_leaves<'t>(t: &'t Tree, out: &mut Vec<&'t Tree>, depth: usize) {
    match same_tree_operands(t) {
        Some(operands) if depth < MAX_DEPTH => {
            for x in operands {
                arithmetic_leaves(x, out, depth + 1);
            }
        }
        _ => out.push(t),
    }
}

/// `t` with each leaf of its arithmetic tree ([`same_tree_operands`], pre-order) passed to `f`,
/// kept where `f` gives `None`.
pub(super) fn map_arithmetic_leaves(t: &Tree, f: &mut dyn FnMut(&Tree) -> Option<Tree>) -> Tree {
    fn walk(t: &Tree, f: &mut dyn FnMut(&Tree) -> Option<Tree>, depth: usize) -> Tree {
        match same_tree_operands(t) {
            Some(operands) if depth < MAX_DEPTH => {
                let mut out = t.clone();
                for i in 0..operands.len() {
                    out.children[i] = walk(&t.children[i], f, depth + 1);
                }
                out
            }
            _ => f(t).unwrap_or_else(|| t.clone()),
        }
    }
    walk(t, f, 0)
}

/// Is every leaf of the arithmetic tree `t` ([`same_tree_operands`]) of a known number type, or
/// a numeral, with at least one not a numeral? Then the tree is elaborated at the largest of
/// those types (`binop%`), which is a number type.
fn of_number_types(t: &Tree, c: &Carriers, depth: usize) -> bool {
    fn leaves_known(t: &Tree, c: &Carriers, depth: usize, typed: &mut bool) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        if let Some(operands) = same_tree_operands(t) {
            return operands.iter().all(|x| leaves_known(x, c, depth + 1, typed));
        }
        let known = match (t.label.as_str(), t.children.as_slice()) {
            ("( _ : _ )", [_, ty]) if num_of_type(ty).is_some() => Ty::Num(Num::Nat),
            _ => type_of(t, c),
        };
        *typed |= matches!(known, Ty::Num(_));
        known != Ty::Unknown
    }
    let mut typed = false;
    leaves_known(t, c, depth, &mut typed) && typed
}

/// Is `t` recognisably a type, not a proposition: a number type, `Type`/`Sort`, a name bound
/// as a type (`{α : Type*}`), a product or function of types, or an application of a type
/// constructor Mathlib defines (`Fin n`, `Set α`, `ZMod n`, …)?
pub fn is_type(t: &Tree, c: &Carriers) -> bool {
    const TYPE_CONSTRUCTORS: [&str; 12] = [
        "Fin",
        "Set",
        "Finset",
        "ZMod",
        "Matrix",
        "List",
        "Multiset",
        "Polynomial",
        "Option",
        "Sum",
        "Prod",
        "Subtype",
    ];
    if num_of_type(t).is_some() || super::shapes::is_universe(t) {
        return true;
    }
    if is_leaf(t) {
        return c.name_type(&t.label).is_some_and(super::shapes::is_universe);
    }
    match (t.label.as_str(), t.children.as_slice()) {
        (" _ × _ " | IMP, [a, b]) => is_type(a, c) && is_type(b, c),
        _ => app_head(t).is_some_and(|h| TYPE_CONSTRUCTORS.contains(&h) && !c.binds(h)),
    }
}

/// Mathlib's predicates with the number of explicit arguments that makes them a `Prop`:
/// Mathlib/Topology/Defs/Basic.lean (`Continuous`, `IsOpen`, `IsClosed`), Topology/Defs/Filter.lean
/// (`ContinuousAt`, `ContinuousOn`), Order/Filter/Tendsto.lean, Analysis/Calculus/FDeriv/Defs.lean
/// and Deriv/Basic.lean (`Differentiable 𝕜 f`, `DifferentiableAt 𝕜 f x`, `HasDerivAt f f' x`),
/// Topology/UniformSpace/Defs.lean, Topology/Compactness/Compact.lean, Logic/Function/Defs.lean,
/// Order/Monotone/Defs.lean, Algebra/Group/Even.lean, Algebra/Ring/Parity.lean,
/// Data/Nat/Prime/Defs.lean, Algebra/Prime/Defs.lean, Data/Nat/GCD/Basic.lean,
/// RingTheory/Coprime/Basic.lean, Data/Nat/ModEq.lean, Data/Int/ModEq.lean, Data/Set/Defs.lean,
/// Data/Set/Finite/Defs.lean, Order/Bounds/Defs.lean, Data/Real/Irrational.lean,
/// Algebra/Group/Units/Defs.lean, Topology/Algebra/InfiniteSum/Defs.lean.
const PREDICATES: [(&str, usize); 36] = [
    ("Continuous", 1),
    ("ContinuousAt", 2),
    ("ContinuousOn", 2),
    ("UniformContinuous", 1),
    ("Differentiable", 2),
    ("DifferentiableAt", 3),
    ("DifferentiableOn", 3),
    ("HasDerivAt", 3),
    ("Filter.Tendsto", 3),
    ("IsOpen", 1),
    ("IsClosed", 1),
    ("IsCompact", 1),
    ("Function.Injective", 1),
    ("Function.Surjective", 1),
    ("Function.Bijective", 1),
    ("Monotone", 1),
    ("Antitone", 1),
    ("StrictMono", 1),
    ("StrictAnti", 1),
    ("Even", 1),
    ("Odd", 1),
    ("Nat.Prime", 1),
    ("Prime", 1),
    ("Nat.Coprime", 2),
    ("IsCoprime", 2),
    ("Nat.ModEq", 3),
    ("Int.ModEq", 3),
    ("Set.Nonempty", 1),
    ("Finset.Nonempty", 1),
    ("Set.Finite", 1),
    ("Set.Infinite", 1),
    ("BddAbove", 1),
    ("BddBelow", 1),
    ("Irrational", 1),
    ("IsUnit", 1),
    ("Summable", 1),
];

/// Is `t` known to be a proposition (not a type, not a term)? Relations and connectives, `¬`,
/// `∃`, `True`/`False`, `∀`/`→` whose body is one, and a name bound as `Prop` or as a predicate
/// `… → Prop` applied to all its arguments. Anything else (`ℤ → ℕ → ℤ`, an unknown `P x`) is not
/// known to be.
pub fn is_prop(t: &Tree, c: &Carriers) -> bool {
    let mut t = t;
    for _ in 0..MAX_DEPTH {
        if is_prop_shaped(t) && quantifier(t) != Some(Quant::Forall) {
            return true;
        }
        match (t.label.as_str(), t.children.as_slice()) {
            ("True" | "False", []) => return true,
            (IMP, [_, body]) => t = body,
            _ if quantifier(t) == Some(Quant::Forall) => match t.children.last() {
                Some(body) => t = body,
                None => return false,
            },
            _ => {
                let head = if is_leaf(t) {
                    t.label.as_str()
                } else {
                    match app_head(t) {
                        Some(h) => h,
                        None => return false,
                    }
                };
                if !c.binds(head)
                    && PREDICATES.iter().any(|(p, arity)| *p == head && *arity == t.children.len())
                {
                    return true;
                }
                let mut ty = c.name_type(head);
                for _ in &t.children {
                    ty = ty
                        .filter(|f| f.label == IMP && f.children.len() == 2)
                        .map(|f| &f.children[1]);
                }
                return ty.is_some_and(|ty| is_leaf(ty) && ty.label == "Prop");
            }
        }
    }
    false
}

fn subtree_at<'a>(root: &'a Tree, path: &[usize]) -> Option<&'a Tree> {
    path.iter().try_fold(root, |t, &i| t.children.get(i))
}

/// Functions of Mathlib with explicit parameters of a fixed number type that [`SIGNATURES`]
/// does not list (predicates, and functions generic in another parameter): the number type of
/// each explicit parameter, `None` where it is generic. Mathlib/Data/Nat/Prime/Defs.lean (`def
/// Nat.Prime (p : ℕ) : Prop`), Mathlib/Data/Nat/GCD/Basic.lean (`def Nat.Coprime (m n : ℕ) :
/// Prop`), Mathlib/RingTheory/RootsOfUnity/PrimitiveRoots.lean (`structure IsPrimitiveRoot
/// (ζ : M) (k : ℕ) : Prop`), Mathlib/Algebra/BigOperators/Intervals.lean and
/// Mathlib/Order/Interval/Finset/Nat.lean (`Finset.range (n : ℕ)`, core `List.range (n : ℕ)`,
/// core `structure Fin (n : Nat)`).
const PARAMETERS: [(&str, &[Option<Num>]); 6] = [
    ("Nat.Prime", &[Some(Num::Nat)]),
    ("Nat.Coprime", &[Some(Num::Nat), Some(Num::Nat)]),
    ("IsPrimitiveRoot", &[None, Some(Num::Nat)]),
    ("Finset.range", &[Some(Num::Nat)]),
    ("List.range", &[Some(Num::Nat)]),
    ("Fin", &[Some(Num::Nat)]),
];

/// The number type of explicit parameter `i` of the Mathlib function `f`, where it is fixed.
pub fn parameter_type(f: &str, i: usize) -> Option<Num> {
    if let Some((_, params)) = PARAMETERS.iter().find(|(g, _)| *g == f) {
        return params.get(i).copied().flatten();
    }
    let (_, signature) = SIGNATURES.iter().find(|(g, _)| *g == f)?;
    let parts: Vec<&str> = signature.split('→').map(str::trim).collect();
    // The last part is the result: only the ones before it are parameters.
    let domain = parts.get(i).filter(|_| i + 1 < parts.len())?;
    num_of_type(&Tree::leaf(*domain))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trees::parse::{parse_statement, Header};

    fn conclusion_type(text: &str) -> Ty {
        let s = parse_statement(text, &Header::default()).expect("parses");
        let c = Carriers::of(&s.tree);
        // The conclusion's left operand.
        let list = &s.tree.children[0];
        let concl = list.children.last().expect("conclusion");
        type_of(&concl.children[0], &c)
    }

    #[test]
    fn types_come_from_binders_ascriptions_and_the_table() {
        for (text, want) in [
            ("theorem t (x : ℕ) : x + 1 = 2", Ty::Num(Num::Nat)),
            ("theorem t (x : ℝ) : x / 2 = 2", Ty::Num(Num::Real)),
            ("theorem t : (2 : ℤ) - 3 = 2", Ty::Num(Num::Int)),
            ("theorem t : 2 + 3 = 5", Ty::Numeral),
            ("theorem t : Real.exp 1 < 3", Ty::Num(Num::Real)),
            ("theorem t (n : ℕ) : Nat.factorial n < 3", Ty::Num(Num::Nat)),
            ("theorem t (f : ℕ → ℝ) (n : ℕ) : f n < 3", Ty::Num(Num::Real)),
            ("theorem t (x : ℝ) : |x| ^ 2 < 3", Ty::Num(Num::Real)),
        ] {
            assert_eq!(conclusion_type(text), want, "{text}");
        }
    }

    #[test]
    fn unknown_where_the_statement_does_not_decide() {
        for text in [
            // `exp` under some `open`: which function it is is not known here.
            "theorem t : exp 1 < 3",
            "theorem t : sqrt 8 < 3",
            // A cast: the target is decided by the context.
            "theorem t (x : ℕ) : ↑x + 1 < 3",
            // Two types meet: a coercion was inserted somewhere.
            "theorem t (x : ℕ) (y : ℝ) : x + y < 3",
            // `x` bound twice, once without a type.
            "theorem t (x : ℕ) : (∀ x, x < 2) ∧ x < 3",
            // A real exponent is `Real.rpow`.
            "theorem t (x : ℝ) : 2 ^ x < 3",
            // A function variable applied to fewer arguments than it takes.
            "theorem t (f : ℕ → ℕ → ℕ) : f 1 = f 2",
        ] {
            let s = parse_statement(text, &Header::default()).expect("parses");
            let c = Carriers::of(&s.tree);
            let concl = s.tree.children[0].children.last().expect("conclusion");
            let lhs = if concl.label == " _ ∧ _ " {
                &concl.children[1].children[0]
            } else {
                &concl.children[0]
            };
            assert_eq!(type_of(lhs, &c), Ty::Unknown, "{text}");
        }
    }
}
