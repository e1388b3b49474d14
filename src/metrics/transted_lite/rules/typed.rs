//! Canonical rules of `transted-lite` that depend on the type the terms live in (`not_lt` needs a
//! linear order, `sub_nonneg` a group, `Nat.pos_iff_ne_zero` the naturals), and the type-free
//! unfoldings of membership and negation.
//!
//! Owns only these procedures; the family tables reference them, and only the canonical pass
//! runs them, never the search (except the numeral-bound moves, [`bound_shifts`]). Every rule
//! here rewrites in one fixed direction and makes a term no larger in a well-founded sense
//! (negations move inwards, memberships unfold, `≤` on ℕ/ℤ becomes `<`), so the canonical
//! fixpoint ends.
//!
//! The gate is per subterm: a rule applies only when the terms it rewrites have a number type
//! ([`super::elab::carrier`]) among those it is sound on; unknown means no. What the statement's
//! binders say is read from [`Carriers`]: a cast `↑` (target unknown), a set, a product
//! (`ℝ × ℝ`, except as a function's domain), a type variable or any other type makes the
//! statement "other" and turns every gated rule off, and an order rule is refused when an
//! operand is a function name (`f < g` is the pointwise, partial order).

use super::carriers::Carriers;
use super::collections;
use super::declare::Ctx;
use super::elab::{carrier, Num};
use super::norm_num::MAX_LITERAL;
use super::quantifiers::{classify_qbinder, QBinder};
use super::shapes::{binds, elaboration_order, COMPARISONS, DIV, FRESH_BOUND, MEM, NEG, POW, SUB};
use super::shapes::{guarded_forall, GuardedForall};
use super::substitution::substitute;

use super::elab;
use super::shapes::{
    app_head, binder_kind, binder_name, binds_inside, is_binding_node, is_leaf, leaves, literal,
    mentions, node2, quant_label, quantifier, Quant, ADD, AND, EQ, EXISTS, EXPLICIT, FORALL, IMP,
    LE, LT, MUL, NE, NOT,
};
use crate::trees::Tree;

/// The carrier of `terms` elaborated together, when it is one of `among`.
fn carrier_in(terms: &[&Tree], c: &Carriers, among: &[Num]) -> Option<Num> {
    carrier(terms, c).filter(|n| among.contains(n))
}

const DISCRETE: [Num; 2] = [Num::Nat, Num::Int];

/// Generalized field notation: `x.f` → `T.f x` where `x : T …`, and `x.f a` → `T.f x a` when `T`
/// is a number type (whose functions take the number first: `p.gcd 4` is `Nat.gcd p 4`);
/// elsewhere the receiver may go to a later argument (`s.image f` is `Set.image f s`), so
/// only the argument-free form is unfolded.
pub(super) fn dot_notation(t: &Tree, c: &Carriers) -> Option<Tree> {
    let rest = t.label.strip_prefix(" _ .")?;
    let field = rest.split_whitespace().next()?;
    let receiver = t.children.first()?;
    let extra = t.children.len() - 1;
    if rest != format!("{field}{}", " _ ".repeat(extra)) {
        return None;
    }
    let namespace = receiver_namespace(receiver, c)?;
    if let (Some((first, more)), 0) = (field.split_once('.'), extra) {
        // `s.powerset.card` is `(s.powerset).card`: the first field now, the next one on its
        // result (read in turn, from that result's type).
        let inner = Tree::node(format!("{namespace}.{first} _ "), vec![receiver.clone()]);
        return Some(Tree::node(format!(" _ .{more}"), vec![inner]));
    }
    if field.contains('.') {
        return None;
    }
    let numeric = ["Nat", "Int", "Rat", "Real", "Complex"].contains(&namespace);
    // `s.sum f` is `Finset.sum s f`: big operators take the collection first.
    let collection_first =
        ["Finset", "List", "Multiset"].contains(&namespace) && ["sum", "prod"].contains(&field);
    let label = format!("{namespace}.{field}{}", " _ ".repeat(t.children.len()));
    // Functions of two explicit arguments whose receiver is the second: the map first.
    let receiver_second =
        extra == 1 && RECEIVER_SECOND.contains(&format!("{namespace}.{field}").as_str());
    // `s.filter p` elaborates `s` first, `Finset.filter p s` elaborates `p` first: the same
    // term only where `p` cannot decide its domain before `s` does.
    let finset_map = namespace == "Finset";
    if receiver_second && (!finset_map || super::carriers::leaves_domain_open(&t.children[1])) {
        let children = vec![t.children[1].clone(), t.children[0].clone()];
        return Some(Tree::node(label, children));
    }
    // A number namespace's function of a type variable takes no receiver of that namespace:
    // `x.floor` with `x : ℤ` is "invalid field notation" (Mathlib/Algebra/Order/Floor/Defs.lean:
    // `Int.floor [FloorRing α] : α → ℤ`, `Int.ceil`, `Int.fract`, `Nat.floor [FloorSemiring α]
    // : α → ℕ`, `Nat.ceil`).
    if numeric && GENERIC_ARGUMENT.contains(&format!("{namespace}.{field}").as_str()) {
        return None;
    }
    let number_first = numeric && NUMBER_FIRST.contains(&format!("{namespace}.{field}").as_str());
    let receiver_first = RECEIVER_FIRST.contains(&format!("{namespace}.{field}").as_str());
    if extra > 0 && !number_first && !collection_first && !receiver_first {
        return None;
    }
    Some(Tree::node(label, t.children.clone()))
}

/// `t` with field notation on the variable `name` written out (`p.Prime` is `Nat.Prime p` for
/// `(p : ℕ)`), before a value replaces `name`: the field is looked up in the variable's type,
/// which a value such as `2 ^ n + 1` no longer shows.
pub(super) fn fields_resolved(t: &Tree, name: &str, carriers: &Carriers) -> Tree {
    if is_leaf(t) || (quantifier(t).is_some() && binds(&t.children[0], name)) {
        return t.clone();
    }
    let on_name = t.label.starts_with(" _ .")
        && t.children.first().is_some_and(|r| is_leaf(r) && r.label == name);
    let t = match on_name.then(|| dot_notation(t, carriers)).flatten() {
        Some(resolved) => resolved,
        None => t.clone(),
    };
    let mut out = t.clone();
    out.children = t.children.iter().map(|c| fields_resolved(c, name, carriers)).collect();
    out
}

/// Functions of numbers whose first explicit argument is the receiver's number type, so that
/// `x.f a` is `T.f x a` (the receiver goes to the first explicit argument of its type): `p.gcd
/// 4` is `Nat.gcd p 4`. Not `Nat.count (p : ℕ → Prop) (n : ℕ)`, `Nat.nth`, `Nat.iterate`,
/// whose receiver is a later argument. Mathlib/Data/Nat/GCD/Basic.lean and core's `Nat.gcd`,
/// `Nat.lcm`; Mathlib/Data/Nat/Choose/Basic.lean; Mathlib/Data/Nat/ModEq.lean and
/// Mathlib/Data/Int/ModEq.lean (`ModEq (n a b : ℕ)`); Mathlib/Data/Nat/Log.lean (`log (b n :
/// ℕ)`); Mathlib/Data/Nat/Digits.lean (`digits (b n : ℕ)`); core `Int.gcd`, `Int.lcm`,
/// `Int.emod`, `Int.ediv`; Mathlib/Analysis/SpecialFunctions/Pow/Real.lean (`rpow (x y : ℝ)`),
/// Mathlib/Analysis/SpecialFunctions/Log/Base.lean (`logb (b x : ℝ)`).
const NUMBER_FIRST: [&str; 17] = [
    "Nat.gcd",
    "Nat.lcm",
    "Nat.choose",
    "Nat.Coprime",
    "Nat.ModEq",
    "Nat.log",
    "Nat.digits",
    "Nat.dist",
    "Nat.pow",
    "Nat.div",
    "Nat.mod",
    "Int.gcd",
    "Int.lcm",
    "Int.emod",
    "Int.ediv",
    "Int.ModEq",
    "Real.rpow",
];

/// Functions of a number namespace whose explicit argument is of a type variable (see
/// [`dot_notation`]).
const GENERIC_ARGUMENT: [&str; 5] = ["Int.floor", "Int.ceil", "Int.fract", "Nat.floor", "Nat.ceil"];

/// Functions whose first explicit argument is of their namespace's type, so that `x.f a` is
/// `T.f x a`: Mathlib/Algebra/Group/Subgroup/Map.lean (`subgroupOf (H K : Subgroup G)`),
/// Mathlib/Algebra/Polynomial/Roots.lean (`rootSet (p : T[X]) (S)`, `aroots (p : T[X]) (S)`),
/// Mathlib/Algebra/Polynomial/Basic.lean (`coeff : R[X] → ℕ → R`), Eval/Defs.lean (`IsRoot (p :
/// R[X]) (a : R)`; not `eval (x : R) (p : R[X])`, whose receiver is the second),
/// Mathlib/GroupTheory/Index.lean (`relindex (H K : Subgroup G) : ℕ`, later `relIndex`).
const RECEIVER_FIRST: [&str; 7] = [
    "Subgroup.subgroupOf",
    "Subgroup.relindex",
    "Subgroup.relIndex",
    "Polynomial.rootSet",
    "Polynomial.aroots",
    "Polynomial.coeff",
    "Polynomial.IsRoot",
];

/// Subobject maps whose explicit arguments are the map, then the subobject: `N.map φ` is
/// `Subgroup.map φ N` (generalized field notation puts the receiver at the first explicit
/// argument of the namespace's type). Mathlib/Algebra/Group/Subgroup/Map.lean (`def map (f : G
/// →* N) (H : Subgroup G)`, `def comap (f : G →* N) (H : Subgroup N)`, the additive versions by
/// `to_additive`), Mathlib/RingTheory/Ideal/Maps.lean (`variable (f : F)`, `def map (I : Ideal
/// R)`, `def comap (I : Ideal S)`), Mathlib/Algebra/Module/Submodule/Map.lean (`def map (f : F)
/// (p : Submodule R M)`, `def comap (f : F) (p : Submodule R₂ M₂)`). So the finset maps:
/// Mathlib/Data/Finset/Filter.lean (`variable (p : α → Prop) [DecidablePred p]`, `def filter (s
/// : Finset α)`), Mathlib/Data/Finset/Image.lean (`def image (f : α → β) (s : Finset α)`).
const RECEIVER_SECOND: [&str; 10] = [
    "Finset.filter",
    "Finset.image",
    "Subgroup.map",
    "Subgroup.comap",
    "AddSubgroup.map",
    "AddSubgroup.comap",
    "Ideal.map",
    "Ideal.comap",
    "Submodule.map",
    "Submodule.comap",
];

/// The type Lean gives an untyped bound name `x` from its uses: as an argument of a function
/// variable (in `∀ x, f x = c` with `(f : ℝ → ℝ)`, `x : ℝ`: elaboration unifies the binder's
/// type with the domain) or as the element in `x ∈ S` with `(S : Set T)`/`Finset T` (`x : T`:
/// the element type is an `outParam` of `Membership`). Only plain uses of names bound with a
/// written type count, and only when every such use agrees; a use under a coercion or of a
/// name whose type is unknown decides nothing.
///
/// Elaboration fixes the type at the first use that constrains it, later uses get a coercion
/// (`∀ x, x ≤ n → f x = 0` with `(n : ℕ)` has `x : ℕ` and `f ↑x`), so the first occurrence of
/// `x`, left to right, must be a deciding use. The one exception is a relation built from
/// numerals and `x` alone (`0 < x`, `x ^ 2 ≠ 1`): `binrel%` with a leaf of unknown type only
/// unifies, leaving the type to the next use (numerals default to ℕ only at the end).
/// Occurrences under a binder that rebinds `x` (`∑ x ∈ s, f x`, `fun x => …`, `{x | …}`,
/// a later theorem binder `(x : T)`) are another variable and decide nothing.
pub fn infer_binder_type(name: &str, body: &Tree, c: &Carriers, by: Deciders) -> Option<Tree> {
    let mut inner = Vec::new();
    bound_names_in(body, &mut inner, 0);
    let mut uses = Uses { inner, by, ..Uses::default() };
    argument_types(name, body, c, &mut uses);
    let decided = uses.found.filter(|_| !uses.conflict && uses.first_decides == Some(true));
    decided.or_else(|| (exponent_uses(name, body, 0) == Some(true)).then(|| Tree::leaf("ℕ")))
}

/// `fun x => e` or `fun (x : T) => e` read as its binder's name, its body and the binder's type:
/// the written one, or where the body's uses decide it ([`infer_binder_type`], theorem binders
/// deciding), as unification decides a lambda's domain. Any other binder shape: `None`.
pub fn lambda_with_domain<'a>(f: &'a Tree, c: &Carriers) -> Option<(&'a Tree, &'a Tree, Tree)> {
    let ("fun _ => _ ", [binder, body]) = (f.label.as_str(), f.children.as_slice()) else {
        return None;
    };
    match (binder.label.as_str(), binder.children.as_slice()) {
        (" _ : _ ", [x, ty]) => Some((x, body, ty.clone())),
        (_, []) => {
            let ty = infer_binder_type(&binder.label, body, c, Deciders::TheoremBinders)?;
            Some((binder, body, ty))
        }
        _ => None,
    }
}

/// Is every use of `name` in `t` an exponent (`a ^ n`) or inside a comparison of numerals and
/// `name` alone (`n > 0`), with at least one exponent (`Some(true)`)? Nothing else fixes its
/// type then, and elaboration falls back on default instances: Mathlib's `Monoid.Pow : Pow M
/// ℕ` is `@[default_instance high]` (Mathlib/Algebra/Group/Defs.lean), as `instOfNatNat` is
/// for the numerals, so `∃ n > 0, a ^ n = 1` has `n : ℕ`. Any other use (`n ∣ m`, `f n`, a bare
/// `n`) may fix another type first: `None`.
fn exponent_uses(name: &str, t: &Tree, depth: usize) -> Option<bool> {
    if depth > 200 {
        return None;
    }
    if is_leaf(t) {
        return (t.label != name).then_some(false);
    }
    let n = t.children.len();
    if is_binding_node(&t.label)
        && n >= 2
        && t.children[..n - 1].iter().any(|b| binder_name(b).is_some_and(|x| x.label == name))
    {
        // Rebound: the body is another variable; a domain naming it is a use we do not read.
        let in_domain = t.children[..n - 1]
            .iter()
            .any(|b| b.children.iter().skip(1).any(|d| mentions(d, name)));
        return (!in_domain).then_some(false);
    }
    if COMPARISONS.contains(&t.label.as_str())
        && t.children.iter().all(|ch| numerals_and(name, ch) && !has_exponent(name, ch))
    {
        return Some(false);
    }
    let mut exponent = false;
    for (i, ch) in t.children.iter().enumerate() {
        if t.label == POW && i == 1 && is_leaf(ch) && ch.label == name {
            exponent = true;
            continue;
        }
        exponent |= exponent_uses(name, ch, depth + 1)?;
    }
    Some(exponent)
}

/// Does `name` occur as an exponent in `t`?
fn has_exponent(name: &str, t: &Tree) -> bool {
    (t.label == POW && t.children.get(1).is_some_and(|e| mentions(e, name)))
        || t.children.iter().any(|ch| has_exponent(name, ch))
}

/// Every name a binder inside `t` binds, typed or not (`∀ b, …`, `(b : ℝ)`, `fun b => …`): the
/// tree may already have lost a written type the statement's binders had.
fn bound_names_in(t: &Tree, out: &mut Vec<String>, depth: usize) {
    if depth > 200 {
        return;
    }
    if binder_kind(&t.label).is_some() || is_binding_node(&t.label) {
        for b in t.children.iter().take(t.children.len().saturating_sub(1)) {
            if is_leaf(b) {
                out.push(b.label.clone());
            }
        }
    }
    for ch in &t.children {
        bound_names_in(ch, out, depth + 1);
    }
}

/// Which names may decide a binder's type through a relation ([`anchored_type`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Deciders {
    /// Only names whose written type no rule drops ([`Carriers::fixed_number_type`]): for the
    /// theorem's own binders, which would otherwise decide each other in an order that depends
    /// on how the binders are listed (`(x p : ℝ)` against `(p x : ℝ)`).
    #[default]
    Fixed,
    /// Those, and the theorem's binders ([`Carriers::theorem_binder`]): for binders inside the
    /// statement (`∃ c, a < c` with `(a : ℝ)`), which the theorem's binders come before.
    TheoremBinders,
}

/// What [`argument_types`] has seen of a name's uses.
#[derive(Default)]
struct Uses {
    /// The type every deciding use agrees on.
    found: Option<Tree>,
    /// Two uses disagree, or a use decides nothing.
    conflict: bool,
    /// Whether the first occurrence (left to right) was a deciding use; `None` before any.
    first_decides: Option<bool>,
    /// A theorem binder rebinding the name was passed: every later use is another variable.
    shadowed: bool,
    /// Names bound inside the scope being read: bound after the name, so they may not decide
    /// its type ([`anchored_type`]).
    inner: Vec<String>,
    by: Deciders,
}

impl Uses {
    fn occurrence(&mut self, decides: bool) {
        self.first_decides.get_or_insert(decides);
    }
}

/// Is `t` made only of numerals, the name and arithmetic (`2 * x + 1`)?
fn numerals_and(name: &str, t: &Tree) -> bool {
    if is_leaf(t) {
        return t.label == name || literal(t).is_some();
    }
    [ADD, SUB, MUL, DIV, POW, NEG].contains(&t.label.as_str())
        && t.children.iter().all(|ch| numerals_and(name, ch))
}

/// The type a relation decides for `name` (`binrel%`, Lean's `Elab/Extra.lean`): one operand
/// is `name` under `+ - * /`, negation and numeral powers with numerals only (`c`, `2 * c + 1`,
/// `c ^ 2`), the other does not mention it and has an anchored number type
/// ([`anchored_type`]). `binrel%` takes the maximum of the leaves' known types and unifies
/// every leaf of unknown type with it (`applyCoe`: `isDefEq maxType type`), so `c` gets that
/// type. An exponent is not a leaf of the tree (`rightact%`): `2 ^ c < f x` decides nothing.
fn relation_anchor(
    name: &str,
    t: &Tree,
    c: &Carriers,
    inner: &[String],
    by: Deciders,
) -> Option<Num> {
    let [a, b] = t.children.as_slice() else {
        return None;
    };
    [(a, b), (b, a)].into_iter().find_map(|(side, other)| {
        (mentions(side, name) && unified_operand(name, side) && !mentions(other, name))
            .then(|| anchored_type(other, c, inner, by))
            .flatten()
    })
}

/// Is `t` arithmetic (`+ - * /`, negation, powers with a numeral exponent) whose leaves all
/// pass `leaf`? Every such leaf is a leaf of `binop%`'s tree (Lean's `Elab/Extra.lean`); an
/// exponent is not (`rightact%`).
fn arithmetic_of(t: &Tree, leaf: &dyn Fn(&Tree) -> bool) -> bool {
    if is_leaf(t) {
        return leaf(t);
    }
    match (t.label.as_str(), t.children.as_slice()) {
        (POW, [base, exponent]) => arithmetic_of(base, leaf) && literal(exponent).is_some(),
        (label, children) if [ADD, SUB, MUL, DIV, NEG].contains(&label) => {
            children.iter().all(|ch| arithmetic_of(ch, leaf))
        }
        _ => false,
    }
}

/// Is `t` arithmetic of one name and numerals ([`unified_operand`]): a relation's other
/// operand may decide that name's type ([`relation_anchor`])?
pub(super) fn decided_by_relation(t: &Tree) -> bool {
    let mut names = Vec::new();
    super::shapes::leaves(t, &mut names);
    names.retain(|n| literal(&Tree::leaf(n)).is_none());
    matches!(names.as_slice(), [name] if unified_operand(name, t))
}

/// `t` is arithmetic of `name` and numerals: in a relation, every leaf takes the relation's
/// type.
fn unified_operand(name: &str, t: &Tree) -> bool {
    arithmetic_of(t, &|l| l.label == name || literal(l).is_some())
}

/// `t` is arithmetic of `name`, numerals and names with no written type anywhere. As an
/// argument, `binop%` elaborates it against the expected type (`analyze` starts from it, and
/// leaves of unknown type are unified with it), so `f (x + y)` with `(f : ℝ → ℝ)` makes `x`
/// real. A leaf of a written type could raise that maximum (`ℂ` over `ℝ`): not read.
fn expected_operand(name: &str, t: &Tree, c: &Carriers) -> bool {
    arithmetic_of(t, &|l| l.label == name || literal(l).is_some() || c.untyped_only(&l.label))
}

/// The number type of `t` when no elided binder type can change it: numerals, constants of a
/// known result type (`Real.pi`, `Real.sqrt x`), ascriptions to a number type, and full
/// applications of a function name with a written type (`f x` with `(f : ℝ → ℝ)` is real
/// whatever `x` is), names whose written type no rule drops ([`Carriers::fixed_number_type`]),
/// joined by `+ - * /`, `|·|`, negation and numeral powers. Any other bound name does not
/// anchor: its own written type may be the one being elided (`x < y` would decide `x` from `y`
/// and `y` from `x`, and with both types dropped Lean defaults them to ℕ).
fn anchored_type(t: &Tree, c: &Carriers, inner: &[String], by: Deciders) -> Option<Num> {
    fn walk(
        t: &Tree,
        c: &Carriers,
        (inner, by): (&[String], Deciders),
        depth: usize,
    ) -> Option<elab::Ty> {
        if depth > 64 {
            return None;
        }
        if is_leaf(t) {
            if literal(t).is_some() {
                return Some(elab::Ty::Numeral);
            }
            // A bound name whose type no rule drops, or a constant of a known type (`Real.pi`).
            if let Some(ty) = c.fixed_number_type(&t.label) {
                return elab::num_of_type(ty).map(elab::Ty::Num);
            }
            // A theorem binder, for a binder inside the statement: its type is written, or
            // decided by what never comes back to a binder inside (no circle).
            if by == Deciders::TheoremBinders
                && c.theorem_binder(&t.label)
                && !inner.contains(&t.label)
            {
                return c.name_type(&t.label).and_then(elab::num_of_type).map(elab::Ty::Num);
            }
            return (!c.binds(&t.label))
                .then(|| elab::type_of(t, c))
                .filter(|ty| matches!(ty, elab::Ty::Num(_)));
        }
        let sub = |x: &Tree| walk(x, c, (inner, by), depth + 1);
        match (t.label.as_str(), t.children.as_slice()) {
            // An ascribed numeral (`(0 : ℝ)`) anchors nothing: `type ascription (at its
            // relation's type)` drops it where the other operand is of its type, so a binder
            // type left out on its ground would be decided by nothing in the form that remains.
            ("( _ : _ )", [e, _]) if arithmetic_of(e, &|l| literal(l).is_some()) => None,
            ("( _ : _ )", [_, ty]) => elab::num_of_type(ty).map(elab::Ty::Num),
            (POW, [base, exponent]) if literal(exponent).is_some() => sub(base),
            // `abs : α → α`.
            ("| _ |", [x]) => sub(x),
            (label, [x]) if label == NEG => sub(x),
            (label, [x, y]) if [ADD, SUB, MUL, DIV].contains(&label) => {
                let (x, y) = (sub(x)?, sub(y)?);
                match x.join(y) {
                    elab::Ty::Unknown => None,
                    joined => Some(joined),
                }
            }
            _ => {
                let head = app_head(t)?;
                let typed_function =
                    c.name_type(head).is_some_and(|ty| ty.label == IMP) || !c.binds(head);
                typed_function
                    .then(|| elab::type_of(t, c))
                    .filter(|ty| matches!(ty, elab::Ty::Num(_)))
            }
        }
    }
    match walk(t, c, (inner, by), 0)? {
        elab::Ty::Num(n) => Some(n),
        _ => None,
    }
}

fn argument_types(name: &str, t: &Tree, c: &Carriers, uses: &mut Uses) {
    if uses.shadowed {
        return;
    }
    if is_leaf(t) {
        if t.label == name {
            uses.occurrence(false);
        }
        return;
    }
    // A theorem binder `(x : T)` after the one being typed: from here on `x` is that one.
    if binder_kind(&t.label).is_some() && binder_name(t).is_some_and(|n| n.label == name) {
        for ty in &t.children[1..] {
            argument_types(name, ty, c, uses);
        }
        uses.shadowed = true;
        return;
    }
    let n = t.children.len();
    if is_binding_node(&t.label) && n >= 2 {
        let rebinds_here =
            t.children[..n - 1].iter().any(|b| binder_name(b).is_some_and(|x| x.label == name));
        if rebinds_here {
            // Only the domains (`∑ x ∈ range x`, a binder type) are about the outer name.
            let outer_use = t.children[..n - 1].iter().any(|b| {
                if binder_name(b).is_some_and(|x| x.label == name) {
                    b.children.iter().skip(1).any(|ty| mentions(ty, name))
                } else {
                    mentions(b, name)
                }
            });
            if outer_use {
                uses.occurrence(false);
                uses.conflict = true;
            }
            return;
        }
    }
    let relation = COMPARISONS.contains(&t.label.as_str());
    if relation && mentions(t, name) && t.children.iter().all(|ch| numerals_and(name, ch)) {
        return;
    }
    let type_of = |n: &str| c.name_type(n);
    let decide = |ty: Option<&Tree>, uses: &mut Uses| {
        uses.occurrence(true);
        match ty {
            Some(ty) if uses.found.as_ref().is_none_or(|f| f == ty) => {
                uses.found = Some(ty.clone())
            }
            _ => uses.conflict = true,
        }
    };
    if let Some((ends, body)) = interval_integral(t) {
        // `∫ x in a..b, r` is `intervalIntegral (fun x => r) a b volume`, and `intervalIntegral
        // (f : ℝ → E) (a b : ℝ)` (Mathlib/MeasureTheory/Integral/IntervalIntegral/Basic.lean):
        // the function is elaborated first, so a use in `r` comes before the endpoints, each
        // of which is elaborated against `ℝ`.
        argument_types(name, body, c, uses);
        for end in ends {
            if is_leaf(end) && end.label == name {
                decide(Some(&Tree::leaf("ℝ")), uses);
            } else {
                argument_types(name, end, c, uses);
            }
        }
        return;
    }
    if relation {
        if let Some(n) = relation_anchor(name, t, c, &uses.inner, uses.by) {
            decide(Some(&Tree::leaf(elab::type_name(n))), uses);
        } else if let Some(ty) = application_anchor(name, t, c, &uses.inner) {
            decide(Some(&ty), uses);
        }
    }
    // `a ∉ s` is `notation:50 a:50 " ∉ " b:50 => ¬ (a ∈ b)`: the same membership elaborates (and
    // whether `not_mem` has unfolded it yet must not change what the binder is read as).
    let membership = [MEM, " _ ∉ _ "].contains(&t.label.as_str());
    if let ([x, set], true) = (t.children.as_slice(), membership) {
        // The collection is elaborated first (`Membership.mem s x`): a use of `x` in it comes
        // before the element.
        if is_leaf(x) && x.label == name && mentions(set, name) {
            argument_types(name, set, c, uses);
            uses.occurrence(false);
            return;
        }
        if is_leaf(x) && x.label == name {
            let written = is_leaf(set)
                .then(|| type_of(&set.label))
                .flatten()
                .and_then(collections::member_type)
                .cloned();
            // `f '' s : Set β`, `f ⁻¹' t : Set α`, `Set.range f : Set β` for a theorem's `f : α →
            // β` (`collections::collection`).
            let of_function = || match (set.label.as_str(), set.children.as_slice()) {
                (" _ '' _ " | " _ ⁻¹' _ ", [f, _]) | ("Set.range _ ", [f])
                    if is_leaf(f) && !uses.inner.contains(&f.label) =>
                {
                    collections::collection(set, c)
                        .map(|found| found.element)
                        .filter(|ty| c.names_one_type(ty))
                }
                _ => None,
            };
            let element = written
                .or_else(|| {
                    interval_element(set, c, &uses.inner, uses.by)
                        .map(|n| Tree::leaf(elab::type_name(n)))
                })
                .or_else(of_function)
                // A type variable bound again inside (`∀ β : Type, ∀ y, y ∈ f '' A`) is another.
                .filter(|ty| !uses.inner.iter().any(|n| mentions(ty, n)));
            decide(element.as_ref(), uses);
        }
    } else if let Some(limit) =
        tendsto_limit(name, t, c).filter(|_| uses.by == Deciders::TheoremBinders)
    {
        // `Filter.Tendsto (f : α → β) (l₁ : Filter α) (l₂ : Filter β)`
        // (Mathlib/Order/Filter/Tendsto.lean): `f` comes first and fixes `β`, and `nhds (x : X) :
        // Filter X` (Mathlib/Topology/Defs/Filter.lean) then unifies `x`'s type with it. Only
        // for a bound limit (`∃ y, Tendsto s atTop (𝓝 y)`): a theorem binder `(L : ℝ)` keeps
        // its type, as it does where `Metric.tendsto_atTop` writes the limit out.
        if t.children[..2].iter().any(|a| mentions(a, name)) {
            uses.occurrence(false);
        }
        decide(Some(&limit), uses);
    } else if let Some(f) = app_head(t) {
        // `deriv g x`: the point is elaborated against `g`'s domain, `g` coming first. Only for
        // quantifier binders: a theorem binder keeps its type for the rules that read it
        // (`Metric.continuousAt_iff` needs the point's).
        let point_of = POINTS.iter().find(|(h, _, _)| *h == f && !c.binds(f));
        if let (Some((_, func, point)), Deciders::TheoremBinders) = (point_of, uses.by) {
            let domain = t.children.get(*func).filter(|g| is_leaf(g)).and_then(|g| {
                type_of(&g.label).filter(|ty| ty.label == IMP).map(|ty| &ty.children[0])
            });
            if let (Some(x), Some(domain)) = (t.children.get(*point), domain) {
                if is_leaf(x)
                    && x.label == name
                    && !t.children[..*point].iter().any(|a| mentions(a, name))
                {
                    decide(Some(domain), uses);
                }
            }
        }
        // Only where the map's type names each type variable once: bound again (`∀ V : Type,
        // ∀ x : V, T x = 0`), a name in it is another type there.
        let bundled = type_of(f).filter(|ty| c.names_one_type(ty)).and_then(bundled_map_function);
        let ty = type_of(f).filter(|ty| ty.label == IMP).or(bundled.as_ref());
        if let Some(ty) = ty {
            // The domain each argument is elaborated against.
            let mut domains = Vec::new();
            let mut domain = Some(ty);
            for _ in &t.children {
                let here = domain.filter(|d| d.label == IMP && d.children.len() == 2);
                domains.push(here.map(|d| &d.children[0]));
                domain = here.map(|d| &d.children[1]);
            }
            // `x` itself, or arithmetic of `x` against a number domain (`f (x + 1)`).
            let deciding = |(a, d): (&Tree, &Option<&Tree>)| {
                (is_leaf(a) && a.label == name)
                    || (!is_leaf(a)
                        && mentions(a, name)
                        && d.is_some_and(|d| elab::num_of_type(d).is_some())
                        && expected_operand(name, a, c))
            };
            // Arguments are elaborated in order: one mentioning `x` before its first deciding
            // use as an argument comes first. With no deciding argument here, the walk into
            // the arguments below meets each use in order (`g (f x)`: `f x` is elaborated
            // against `g`'s domain, and `x` against `f`'s).
            if let Some(first) = t.children.iter().zip(&domains).position(deciding) {
                if t.children[..first].iter().any(|a| mentions(a, name)) {
                    uses.occurrence(false);
                }
            }
            for (arg, d) in t.children.iter().zip(&domains) {
                if deciding((arg, d)) {
                    decide(*d, uses);
                }
            }
        }
    }
    for ch in elaboration_order(t) {
        argument_types(name, ch, c, uses);
    }
}

/// The type a relation `x = f a` (`=`, `≠`) decides for `name`: one operand is `name` itself,
/// the other a bound function or bundled map applied to all its arguments, of a codomain that
/// is a type variable of the statement (`T v = y` with `T : V →ₗ[K] V` makes `y : V`).
/// `binrel%` finds no number type to coerce to, and unifies the untyped leaf with the
/// other's type. Number codomains are `relation_anchor`'s.
fn application_anchor(name: &str, t: &Tree, c: &Carriers, inner: &[String]) -> Option<Tree> {
    if ![EQ, " _ ≠ _ "].contains(&t.label.as_str()) {
        return None;
    }
    let [a, b] = t.children.as_slice() else {
        return None;
    };
    [(a, b), (b, a)].into_iter().find_map(|(side, other)| {
        if !(is_leaf(side) && side.label == name) || mentions(other, name) {
            return None;
        }
        let head = app_head(other)?;
        if inner.iter().any(|n| n == head) || other.children.is_empty() {
            return None;
        }
        let written = c.name_type(head).filter(|ty| c.names_one_type(ty))?;
        let mut ty = if written.label == IMP {
            Some(written.clone())
        } else {
            bundled_map_function(written)
        };
        for _ in &other.children {
            ty = ty
                .filter(|f| f.label == IMP && f.children.len() == 2)
                .map(|f| f.children[1].clone());
        }
        let ty = ty?;
        let variable =
            is_leaf(&ty) && elab::num_of_type(&ty).is_none() && c.binds_type_once(&ty.label);
        variable.then_some(ty)
    })
}

/// A bundled map's type read as the function it is applied as: Lean's application elaborator
/// coerces a head that is no function through `CoeFun` (src/Lean/Elab/App.lean), which
/// `FunLike` gives these (`LinearMap.instFunLike`, Mathlib/Algebra/Module/LinearMap/Defs.lean;
/// `MonoidHom.instFunLike`, `AddMonoidHom.instFunLike`, Mathlib/Algebra/Group/Hom/Defs.lean;
/// `RingHom.instFunLike`, Mathlib/Algebra/Ring/Hom/Defs.lean; `Equiv.instEquivLike`,
/// Mathlib/Logic/Equiv/Defs.lean), so the argument is elaborated against the domain.
fn bundled_map_function(ty: &Tree) -> Option<Tree> {
    match (ty.label.as_str(), ty.children.as_slice()) {
        (" _ →ₗ[ _ ] _ ", [domain, _, codomain])
        | (" _ →* _ " | " _ →+ _ " | " _ →+* _ " | " _ ≃ _ ", [domain, codomain]) => {
            Some(Tree::node(IMP, vec![domain.clone(), codomain.clone()]))
        }
        _ => None,
    }
}

/// Mathlib functions of a function and a point of its domain, as (name, the function's
/// explicit argument, the point's): `deriv (f : 𝕜 → F) (x : 𝕜)`,
/// `derivWithin (f : 𝕜 → F) (s : Set 𝕜) (x : 𝕜)` (Mathlib/Analysis/Calculus/Deriv/Basic.lean),
/// `iteratedDeriv (n : ℕ) (f : 𝕜 → F) (x : 𝕜)` (Mathlib/Analysis/Calculus/IteratedDeriv/Defs.lean),
/// `HasDerivAt (f : 𝕜 → F) (f' : F) (x : 𝕜)` (Deriv/Basic.lean), `ContinuousAt (f : X → Y)
/// (x : X)`, `ContinuousWithinAt (f : α → β) (s : Set α) (x : α)` (Mathlib/Topology/Defs/Filter.lean,
/// Mathlib/Topology/ContinuousOn.lean), `DifferentiableAt (𝕜) (f : E → F) (x : E)` and
/// `DifferentiableWithinAt (𝕜) (f : E → F) (s : Set E) (x : E)`
/// (Mathlib/Analysis/Calculus/FDeriv/Defs.lean).
const POINTS: [(&str, usize, usize); 8] = [
    ("deriv", 0, 1),
    ("derivWithin", 0, 2),
    ("iteratedDeriv", 1, 2),
    ("HasDerivAt", 0, 2),
    ("ContinuousAt", 0, 1),
    ("ContinuousWithinAt", 0, 2),
    ("DifferentiableAt", 1, 2),
    ("DifferentiableWithinAt", 1, 3),
];

/// `∫ x in a..b, r` (with or without `∂μ`): its two endpoints and its body `r`.
fn interval_integral(t: &Tree) -> Option<([&Tree; 2], &Tree)> {
    let ("∫ _  _ , _ ", [_, range, body]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let ("in _ ", [ends]) = (range.label.as_str(), range.children.as_slice()) else {
        return None;
    };
    let (" _ .. _ ", [a, b]) = (ends.label.as_str(), ends.children.as_slice()) else {
        return None;
    };
    Some(([a, b], body))
}

/// `Filter.Tendsto f l (nhds x)` with `x` the name and `f` a function variable of type `α → β`,
/// a function ascribed `α → β`, or a `fun` whose body elaboration-lite types `β`: `β`, the
/// type the limit point gets.
/// The type `name` takes where its first use (left to right) is the limit of a `Filter.Tendsto
/// f l (nhds name)` whose function fixes the codomain ([`tendsto_limit`]); `None` where any other
/// use comes first or a binder in `t` binds `name` again.
pub(super) fn first_use_as_limit(name: &str, t: &Tree, c: &Carriers) -> Option<Tree> {
    fn walk(name: &str, t: &Tree, c: &Carriers, depth: usize) -> Option<Option<Tree>> {
        if depth > 200 || binds_inside_here(t, name) {
            return Some(None);
        }
        if is_leaf(t) {
            return (t.label == name).then_some(None);
        }
        if let Some(limit) = tendsto_limit(name, t, c) {
            if !t.children[..2].iter().any(|a| mentions(a, name)) {
                return Some(Some(limit));
            }
        }
        t.children.iter().find_map(|ch| walk(name, ch, c, depth + 1))
    }
    fn binds_inside_here(t: &Tree, name: &str) -> bool {
        let n = t.children.len();
        (binder_kind(&t.label).is_some() || is_binding_node(&t.label))
            && n >= 2
            && t.children[..n - 1].iter().any(|b| binder_name(b).is_some_and(|x| x.label == name))
    }
    walk(name, t, c, 0).flatten()
}

fn tendsto_limit(name: &str, t: &Tree, c: &Carriers) -> Option<Tree> {
    let type_of = |n: &str| c.name_type(n);
    let (Some("Filter.Tendsto"), [f, _, limit]) = (app_head(t), t.children.as_slice()) else {
        return None;
    };
    let ("nhds _ ", [x]) = (limit.label.as_str(), limit.children.as_slice()) else {
        return None;
    };
    if !is_leaf(x) || x.label != name {
        return None;
    }
    let codomain =
        |ty: &Tree| (ty.label == IMP && ty.children.len() == 2).then(|| ty.children[1].clone());
    match (f.label.as_str(), f.children.as_slice()) {
        (_, []) => type_of(&f.label).and_then(codomain),
        // An ascribed function (`forall_eq` leaves `(fun n => … : ℕ → ℂ)` where `s` stood).
        ("( _ : _ )", [_, ty]) => codomain(ty),
        // `fun n => e`: elaborated against `?α → ?β`, so `β` is `e`'s own type.
        _ if f.label.starts_with("fun")
            && f.children.len() == 2
            && !mentions(&f.children[1], name) =>
        {
            match elab::type_of(&f.children[1], c) {
                elab::Ty::Num(n) => Some(Tree::leaf(elab::type_name(n))),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The element type of an interval or range the statement writes, when its endpoints fix it:
/// `Set.Icc a b : Set α` for `a b : α` (Mathlib/Order/Interval/Set/Defs.lean, each of `Icc Ico
/// Ioc Ioo Ici Iic Ioi Iio`; `Finset.Icc …` in Mathlib/Order/Interval/Finset/Defs.lean), and
/// `Finset.range n : Finset ℕ` (Mathlib/Data/Finset/Range.lean). Every endpoint is a numeral or
/// of one anchored number type ([`anchored_type`]), at least one of that type: endpoints of
/// two types elaborate at the first one's (or not at all), numerals alone at none yet.
pub(super) fn interval_element(
    set: &Tree,
    c: &Carriers,
    inner: &[String],
    by: Deciders,
) -> Option<Num> {
    const INTERVALS: [&str; 8] = ["Icc", "Ico", "Ioc", "Ioo", "Ici", "Iic", "Ioi", "Iio"];
    let head = app_head(set)?;
    if c.binds(head) {
        return None;
    }
    if head == "Finset.range" && set.children.len() == 1 {
        return Some(Num::Nat);
    }
    let (namespace, name) = head.split_once('.')?;
    let ends = if ["Icc", "Ico", "Ioc", "Ioo"].contains(&name) { 2 } else { 1 };
    if !["Set", "Finset"].contains(&namespace)
        || !INTERVALS.contains(&name)
        || set.children.len() != ends
    {
        return None;
    }
    let mut found = None;
    for end in &set.children {
        if literal(end).is_some() {
            continue;
        }
        let n = anchored_type(end, c, inner, by)?;
        if found.is_some_and(|f| f != n) {
            return None;
        }
        found = Some(n);
    }
    found
}

/// Type namespaces whose `+ - *` and `^` (base) stay in the namespace ([`receiver_namespace`]).
const CLOSED_UNDER_ARITHMETIC: [&str; 2] = ["Polynomial", "Matrix"];

/// The namespace of `a ∘ b` for `+ - *` where it is one of [`CLOSED_UNDER_ARITHMETIC`]: both
/// operands of it, or one of it and a numeral (elaborated at its type by `binop%`).
fn closed_arithmetic<'c>(a: &Tree, b: &Tree, c: &'c Carriers) -> Option<&'c str> {
    let side = |x: &Tree| {
        if literal(x).is_some() {
            Ok(None)
        } else {
            receiver_namespace(x, c).map(Some).ok_or(())
        }
    };
    match (side(a), side(b)) {
        (Ok(Some(x)), Ok(Some(y))) if x == y => Some(x),
        (Ok(Some(x)), Ok(None)) | (Ok(None), Ok(Some(x))) => Some(x),
        _ => None,
    }
    .filter(|ns| CLOSED_UNDER_ARITHMETIC.contains(ns))
}

/// The namespace of a dot-notation receiver's type: a bound name's, or that of `a ⊓ b` / `a ⊔ b`
/// when both operands share it (`Inf.inf`/`Sup.sup : α → α → α` keep the type: `(H ⊓ K).Normal`
/// is `Subgroup.Normal (H ⊓ K)` for subgroups `H K`).
/// Does `Polynomial.roots p` elaborate: `p` a name of type `Polynomial K` (or `K[X]`) for a
/// number domain `K` (ℤ ℚ ℝ ℂ) or a type variable with a field class, so that `[CommRing K]
/// [IsDomain K]` hold (Mathlib/Algebra/Polynomial/Roots.lean; a field is a domain,
/// `Field.isDomain` in Mathlib/Algebra/Field/Basic.lean)?
fn roots_elaborate(receiver: &Tree, c: &Carriers) -> bool {
    let [p] = receiver.children.as_slice() else {
        return false;
    };
    let Some(ty) = is_leaf(p).then(|| c.name_type(&p.label)).flatten() else {
        return false;
    };
    let ring = match (ty.label.as_str(), ty.children.as_slice()) {
        ("Polynomial _ " | " _ [X]", [k]) => k,
        _ => return false,
    };
    const FIELDS: [&str; 2] = ["Field", "LinearOrderedField"];
    elab::num_of_type(ring).is_some_and(|n| n != Num::Nat)
        || (is_leaf(ring) && super::carriers::variable_type_of_class(&ring.label, &FIELDS, c))
}

fn receiver_namespace<'c>(receiver: &Tree, c: &'c Carriers) -> Option<&'c str> {
    if is_leaf(receiver) {
        return c.namespace(&receiver.label);
    }
    // Mathlib functions whose result type is known: `(Nat.digits 10 n).sum` is a `List.sum`.
    // Subobject constructors (Mathlib/RingTheory/Ideal/Span.lean, Algebra/Group/Subgroup/*,
    // LinearAlgebra/Span/Defs.lean, RingTheory/Ideal/Maps.lean): `(Ideal.span s).IsPrime` is
    // `Ideal.IsPrime (Ideal.span s)`.
    const RETURNS: [(&str, &str); 35] = [
        ("Ideal.span", "Ideal"),
        ("Ideal.map", "Ideal"),
        ("Ideal.comap", "Ideal"),
        ("RingHom.ker", "Ideal"),
        ("Subgroup.closure", "Subgroup"),
        ("Subgroup.zpowers", "Subgroup"),
        ("Subgroup.map", "Subgroup"),
        ("Subgroup.comap", "Subgroup"),
        ("Subgroup.center", "Subgroup"),
        ("Subgroup.normalizer", "Subgroup"),
        // Mathlib/Algebra/Group/Subgroup/Map.lean: `subgroupOf (H K : Subgroup G) : Subgroup K`.
        ("Subgroup.subgroupOf", "Subgroup"),
        ("MonoidHom.ker", "Subgroup"),
        ("MonoidHom.range", "Subgroup"),
        ("Submodule.span", "Submodule"),
        ("Nat.digits", "List"),
        ("Nat.primeFactorsList", "List"),
        ("Nat.factors", "List"),
        ("List.range", "List"),
        ("Nat.divisors", "Finset"),
        ("Nat.properDivisors", "Finset"),
        ("Nat.primeFactors", "Finset"),
        ("Finset.range", "Finset"),
        ("Finset.Icc", "Finset"),
        ("Finset.Ico", "Finset"),
        ("Finset.Ioc", "Finset"),
        ("Finset.Ioo", "Finset"),
        ("Finset.filter", "Finset"),
        ("Finset.image", "Finset"),
        // Mathlib/Data/Finset/Powerset.lean (`powerset (s : Finset α) : Finset (Finset α)`),
        // Mathlib/LinearAlgebra/Matrix/Defs.lean (`transpose (M : Matrix m n α) : Matrix n m α`),
        // Mathlib/Algebra/Polynomial/Eval/Defs.lean (`comp (p q : R[X]) : R[X]`) and
        // Algebra/Polynomial/Basic… (`map (f : R →+* S) : R[X] → S[X]` in Eval/Defs.lean).
        ("Finset.powerset", "Finset"),
        ("Matrix.transpose", "Matrix"),
        ("Polynomial.comp", "Polynomial"),
        ("Polynomial.map", "Polynomial"),
        // Mathlib/Algebra/Polynomial/Roots.lean (`roots (p : R[X]) : Multiset R`),
        // Mathlib/Algebra/Module/Submodule/Range.lean and Ker.lean (`range (f : F) : Submodule
        // R₂ M₂`, `ker (f : F) : Submodule R M`).
        ("Polynomial.roots", "Multiset"),
        ("LinearMap.range", "Submodule"),
        ("LinearMap.ker", "Submodule"),
    ];
    if let Some(head) = app_head(receiver) {
        if let Some((_, ns)) = RETURNS.iter().find(|(f, _)| *f == head) {
            // `roots` needs `[CommRing R] [IsDomain R]`: read only over a number domain.
            let domain = head != "Polynomial.roots" || roots_elaborate(receiver, c);
            return domain.then_some(ns);
        }
    }
    match (receiver.label.as_str(), receiver.children.as_slice()) {
        // `Inter.inter : α → α → α` and its kin are plain applications (no `binop%`): `α` is
        // the first operand's type, and the second is elaborated at it (`s ∩ frontier A` is
        // a set for `s : Set X`, whatever `frontier` is). A second operand known to be of
        // another namespace is a coercion or an error: not read.
        (" _ ⊓ _ " | " _ ⊔ _ " | " _ ∩ _ " | " _ ∪ _ " | " _ \\ _ ", [a, b]) => {
            let ns = receiver_namespace(a, c)?;
            match receiver_namespace(b, c) {
                Some(other) if other != ns => None,
                _ => Some(ns),
            }
        }
        // `binop%` gives `p * q` its operands' type where one is a polynomial or a matrix and
        // the other of that namespace too or a numeral (`Polynomial.mul'`, `Matrix.instHMul…`
        // stay in their type's namespace; a numeral is elaborated at it), and `p ^ n` is
        // `Monoid.npow`, its base's type: `(p * q).natDegree` is `Polynomial.natDegree (p * q)`.
        (" _ + _ " | " _ - _ " | " _ * _ ", [a, b]) if closed_arithmetic(a, b, c).is_some() => {
            closed_arithmetic(a, b, c)
        }
        (" _ ^ _ ", [a, _])
            if receiver_namespace(a, c).is_some_and(|ns| CLOSED_UNDER_ARITHMETIC.contains(&ns)) =>
        {
            receiver_namespace(a, c)
        }
        // `(e : T).f`: `e` is elaborated against `T`, the receiver has type `T`.
        ("( _ : _ )", [_, ty]) => {
            // `(12 : ℕ).lcm 18` is `Nat.lcm 12 18`.
            if let Some(n) = elab::num_of_type(ty) {
                return Some(number_namespace(n));
            }
            let head = app_head(ty)?;
            ["Polynomial", "Set", "Finset", "Matrix", "Subgroup", "Ideal", "Submodule"]
                .into_iter()
                .find(|n| *n == head)
        }
        // `HasCompl.compl : α → α` keeps the type: `(C ∩ Aᶜ).Nonempty` for sets `A C`.
        ("ᶜ", [a]) => receiver_namespace(a, c),
        // `f '' s` and `f ⁻¹' s` are `Set.image f s : Set β` and `Set.preimage f s : Set α`
        // (Mathlib/Data/Set/Defs.lean): sets whatever `f` and `s` are.
        (" _ '' _ " | " _ ⁻¹' _ ", [_, _]) => Some("Set"),
        // A compound receiver of a known number type (elaboration-lite: `(f x).natAbs` with
        // `(f : ℕ → ℤ)`, `(a + b).sqrt` with `(a b : ℕ)`): Lean elaborates the receiver
        // first, with no expected type, and looks the field up in its type's namespace.
        // Numerals alone (`(2 + 3).sqrt`) have no type there yet: not unfolded.
        _ => match elab::type_of(receiver, c) {
            elab::Ty::Num(n) => Some(number_namespace(n)),
            _ => None,
        },
    }
}

/// The namespace of a number type's declarations.
fn number_namespace(n: Num) -> &'static str {
    match n {
        Num::Nat => "Nat",
        Num::Int => "Int",
        Num::Rat => "Rat",
        Num::Real => "Real",
        Num::Complex => "Complex",
    }
}

fn is_literal(t: &Tree, value: u128) -> bool {
    literal(t) == Some(value)
}

fn two(t: &Tree) -> Option<(&Tree, &Tree)> {
    match t.children.as_slice() {
        [a, b] => Some((a, b)),
        _ => None,
    }
}

/// `0 ≤ n` on ℕ (`Nat.zero_le`): a proposition that always holds.
pub fn trivially_true(p: &Tree, c: &Carriers) -> bool {
    p.label == LE
        && p.children.len() == 2
        && is_literal(&p.children[0], 0)
        && carrier(&[&p.children[1]], c) == Some(Num::Nat)
        && c.ordered_operand(&p.children[1])
}

/// `Set.Nonempty s` is `∃ x, x ∈ s` by definition (`Finset.Nonempty` too): with `s` a set or
/// finset, `∃ x, x ∈ s` is `s ≠ ∅`, like `s.Nonempty` (`Set.nonempty_iff_ne_empty`).
pub fn exists_mem(t: &Tree, c: &Carriers) -> Option<(&'static str, Tree)> {
    let (Some(Quant::Exists), [x, body]) = (quantifier(t), t.children.as_slice()) else {
        return None;
    };
    let (MEM, [y, set]) = (body.label.as_str(), body.children.as_slice()) else {
        return None;
    };
    let named = is_leaf(y) && binder_name(x).is_some_and(|n| n.label == y.label);
    let collection = collections::collection(set, c);
    // A written binder type must be the element type: `∃ n : ℕ, n ∈ s` with `(s : Set ℝ)` is
    // `∃ n : ℕ, ↑n ∈ s` (a natural in `s`), not `s ≠ ∅`.
    let plain = is_leaf(x)
        || (x.label == EXPLICIT
            && x.children.len() == 2
            && collection.as_ref().is_some_and(|s| s.element == x.children[1]));
    (named && plain && !mentions(set, &y.label) && collection.is_some())
        .then(|| ("Set.nonempty_def", node2(NE, set.clone(), Tree::leaf("∅"))))
}

/// not_exists : (¬ ∃ x, p x) ↔ ∀ x, ¬ p x (intuitionistic); not_forall : (¬ ∀ x, p x) ↔
/// ∃ x, ¬ p x (classical: Mathlib's logic is classical). One plain binder only.
pub(super) fn negated_quantifier(t: &Tree) -> Option<(&'static str, Tree)> {
    let (NOT, [p]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let q = quantifier(p)?;
    let [binder, body] = p.children.as_slice() else {
        return None;
    };
    if !matches!(classify_qbinder(binder), Some(QBinder::Plain)) || p.label != quant_label(q) {
        return None;
    }
    let (rule, to) = match q {
        Quant::Exists => ("not_exists", FORALL),
        Quant::Forall => ("not_forall", EXISTS),
    };
    Some((rule, node2(to, binder.clone(), Tree::node(NOT, vec![body.clone()]))))
}

/// `Set.mem_setOf_eq` at a membership node.
pub(super) fn membership_set_of(t: &Tree, c: &Carriers) -> Option<(&'static str, Tree)> {
    let (MEM, [x, s]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    set_of(x, s, c)
}

/// `Prod.mk.injEq` at an equation.
pub(super) fn tuple_rule(t: &Tree) -> Option<(&'static str, Tree)> {
    let (EQ, [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    tuple_equation(a, b).map(|parts| ("Prod.mk.injEq", parts))
}

/// `funext_iff` at an equation: `f = fun x => e` ↔ `∀ x, f x = e`, and between two function
/// names `f = g` ↔ `∀ x, f x = g x`.
pub(super) fn funext_rule(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EQ, [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    if let Some(pointwise) = function_equation(a, b, ctx.carriers) {
        return Some(("funext_iff", pointwise));
    }
    let c = ctx.carriers;
    let named = |t: &Tree| is_leaf(t) && c.functions.contains(&t.label);
    if named(a) && named(b) && a.label != b.label {
        let x = Tree::leaf(FRESH_BOUND);
        let apply = |f: &Tree| Tree::node(format!("{} _ ", f.label), vec![x.clone()]);
        let pointwise = node2(EQ, apply(a), apply(b));
        return Some(("funext_iff", node2(FORALL, x.clone(), pointwise)));
    }
    // A function against `0` (`Pi.zero_apply`: `(0 : α → β) x = 0`) or `id` (`id x = x`), or
    // `deriv f` / `g ∘ f` against a named function: pointwise.
    if mentions(t, FRESH_BOUND) {
        return None;
    }
    let x = Tree::bound_variable(FRESH_BOUND);
    let pointwise = |t: &Tree| -> Option<Tree> {
        if named(t) {
            return Some(Tree::node(format!("{} _ ", t.label), vec![x.clone()]));
        }
        match (t.label.as_str(), t.children.as_slice()) {
            ("deriv _ ", [f]) if named(f) => {
                Some(Tree::node("deriv _  _ ", vec![f.clone(), x.clone()]))
            }
            (" _ ∘ _ ", [g, f]) if named(g) && named(f) => {
                Some(Tree::node(" _  _ ", vec![t.clone(), x.clone()]))
            }
            _ => None,
        }
    };
    let other = |t: &Tree| -> Option<Tree> {
        match t.label.as_str() {
            "0" if is_leaf(t) => Some(t.clone()),
            "id" if is_leaf(t) && !c.binds("id") => Some(x.clone()),
            _ => pointwise(t),
        }
    };
    let (left, right) = match (pointwise(a), pointwise(b)) {
        (Some(l), Some(r)) if !(named(a) && named(b)) => (l, r),
        (Some(l), None) => (l, other(b)?),
        (None, Some(r)) => (other(a)?, r),
        _ => return None,
    };
    Some(("funext_iff", node2(FORALL, x, node2(EQ, left, right))))
}

/// Prod.mk.injEq : ((a, b) = (c, d)) = (a = c ∧ b = d), for tuples of one length (`(a, b, c)`
/// is `(a, (b, c))`, so the conjunction nests to the right like `∧` itself).
fn tuple_equation(a: &Tree, b: &Tree) -> Option<Tree> {
    let tuple = |t: &Tree| {
        let k = t.children.len();
        (k >= 2 && t.label == format!("({})", vec![" _ "; k].join(","))).then_some(k)
    };
    let k = tuple(a)?;
    if tuple(b) != Some(k) {
        return None;
    }
    let mut eqs =
        a.children.iter().zip(&b.children).map(|(x, y)| node2(EQ, x.clone(), y.clone())).rev();
    let last = eqs.next()?;
    Some(eqs.fold(last, |acc, e| node2(AND, e, acc)))
}

/// funext_iff (then β-reduction): `f = fun x => e` ↔ `∀ x, f x = e`, either side of `=`,
/// for a function named by a leaf and a one-binder `fun` whose bound name is not that leaf.
/// Only where the `fun` alone has `f`'s type ([`lambda_of_type`]).
fn function_equation(a: &Tree, b: &Tree, c: &Carriers) -> Option<Tree> {
    let is_fun = |t: &Tree| t.label == "fun _ => _ " && t.children.len() == 2;
    let (f, lambda, f_left) = if is_leaf(a) && is_fun(b) {
        (a, b, true)
    } else if is_leaf(b) && is_fun(a) {
        (b, a, false)
    } else {
        return None;
    };
    let (binder, x, body) = plain_binding(lambda)?;
    if x.label == f.label || literal(f).is_some() {
        return None;
    }
    if !lambda_of_type(binder, &x.label, body, c.name_type(&f.label)?, c) {
        return None;
    }
    let applied = Tree::node(format!("{} _ ", f.label), vec![x.clone()]);
    let eq =
        if f_left { node2(EQ, applied, body.clone()) } else { node2(EQ, body.clone(), applied) };
    Some(node2(FORALL, binder.clone(), eq))
}

/// Does `fun x => body` elaborate, alone, to the function type `f_type` (`A → B`)? `=` is
/// `binrel%`: the `fun` is a leaf elaborated with no expected type, and no coercion joins two
/// function types after (Lean's Elab/Extra.lean, `elabBinRelCore`). So its binder must be `A`
/// as written, or unwritten and left to unification (`x` unused, or arithmetic of `x`,
/// numerals and names of type `A`); and its body, read with `x : A`,
/// must be of `B` (`fun x : ℝ => ⌊x⌋₊` is `ℝ → ℕ`; `fun x => Real.sqrt x` makes `x` real;
/// `fun x => x / 2` against `ℕ → ℝ` leaves `HDiv ℕ ?β ℝ`, which no instance solves).
fn lambda_of_type(binder: &Tree, x: &str, body: &Tree, f_type: &Tree, c: &Carriers) -> bool {
    let (IMP, [domain, codomain]) = (f_type.label.as_str(), f_type.children.as_slice()) else {
        return false;
    };
    // Leaves that leave `x` to unification, or give the tree `A` itself (`fun z => a * z + b`
    // with `a b : ℂ` against `ℂ → ℂ`: `binop%` casts the unknown `z`'s type to ℂ).
    let at_domain = |l: &Tree| {
        elab::num_of_type(domain).is_some_and(|n| elab::type_of(l, c) == elab::Ty::Num(n))
    };
    let unified = |l: &Tree| l.label == x || literal(l).is_some() || at_domain(l);
    let binder_fits = match (binder.label.as_str(), binder.children.as_slice()) {
        (EXPLICIT, [_, written]) => written == domain,
        _ => !mentions(body, x) || arithmetic_of(body, &unified),
    };
    if !binder_fits {
        return false;
    }
    // A name of no written type (`∃ c, f = fun x => c`) only unifies.
    let untyped_name = is_leaf(body) && body.label != x && c.untyped_only(&body.label);
    match elab::num_of_type(codomain) {
        Some(n) => match elab::type_of(body, &c.with_name_type(x, domain)) {
            elab::Ty::Num(m) => m == n,
            elab::Ty::Numeral => true,
            elab::Ty::Unknown => untyped_name,
        },
        None => untyped_name || (is_leaf(body) && body.label == x && domain == codomain),
    }
}

/// Search moves on ℕ/ℤ (`discrete`) at `t`: a numeral bound of `<` or `≤` shifted by one.
/// `k ≤ b` ↔ `k - 1 < b` and `a ≤ k` ↔ `a < k + 1` (`Nat.lt_iff_add_one_le`,
/// `Nat.lt_add_one_iff` and their `Int` versions with the numeral added up). Every move's
/// inverse is among them. `1 ≤ b`/`0 < b` is left to the canonical rule.
pub fn bound_shifts(t: &Tree, c: &Carriers) -> Vec<(&'static str, Tree)> {
    let mut out = Vec::new();
    if t.label != LE && t.label != LT {
        return out;
    }
    let Some((a, b)) = two(t) else {
        return out;
    };
    // Per subterm: `exp 1 < 3` under `open Real` is a real inequality.
    let Some(k) = carrier_in(&[a, b], c, &DISCRETE) else {
        return out;
    };
    if !(c.ordered_operand(a) && c.ordered_operand(b)) {
        return out;
    }
    let int = k == Num::Int;
    let (add_one_le, lt_add_one) = if int {
        ("Int.lt_iff_add_one_le", "Int.lt_add_one_iff")
    } else {
        ("Nat.lt_iff_add_one_le", "Nat.lt_add_one_iff")
    };
    let num = |k: u128| Tree::leaf(k.to_string());
    match t.label.as_str() {
        LE => {
            if let Some(k) = literal(a).filter(|&k| k >= 2) {
                out.push((add_one_le, node2(LT, num(k - 1), b.clone())));
            }
            if let Some(k) = literal(b).filter(|&k| k < MAX_LITERAL) {
                out.push((lt_add_one, node2(LT, a.clone(), num(k + 1))));
            }
        }
        LT => {
            if let Some(k) = literal(a).filter(|&k| (1..MAX_LITERAL).contains(&k)) {
                out.push((add_one_le, node2(LE, num(k + 1), b.clone())));
            }
            if let Some(k) = literal(b).filter(|&k| k >= 1) {
                out.push((lt_add_one, node2(LE, a.clone(), num(k - 1))));
            }
        }
        _ => {}
    }
    out
}

/// The binder, its name and the body of a binding node `[binder, body]` whose binder is a plain
/// name (`fun x => b`, `{x | p x}`).
fn plain_binding(t: &Tree) -> Option<(&Tree, &Tree, &Tree)> {
    let [binder, body] = t.children.as_slice() else {
        return None;
    };
    if !matches!(classify_qbinder(binder), Some(QBinder::Plain)) {
        return None;
    }
    Some((binder, binder_name(binder)?, body))
}

/// `∀ x, x ∈ {y : T | p y} → q` → `∀ x : T, p x → q`: the membership is `x`'s first use and
/// gives it the type `T` (or `x` was written at `T`), so `p x` reads `x` as the set did.
pub(super) fn bound_point_set_of(t: &Tree, c: &Carriers) -> Option<(&'static str, Tree)> {
    let GuardedForall { name, written, premise, rest, .. } = guarded_forall(t)?;
    let (MEM, [x, set]) = (premise.label.as_str(), premise.children.as_slice()) else {
        return None;
    };
    let ("{ _ | _ }", [set_binder, p]) = (set.label.as_str(), set.children.as_slice()) else {
        return None;
    };
    let (EXPLICIT, [y, ty]) = (set_binder.label.as_str(), set_binder.children.as_slice()) else {
        return None;
    };
    if !is_leaf(x) || x.label != name.label || !is_leaf(y) || written.is_some_and(|w| w != ty) {
        return None;
    }
    if !c.names_one_type(ty) || binds_inside(p, &x.label) || mentions(set, &x.label) {
        return None;
    }
    let typed = node2(EXPLICIT, name.clone(), ty.clone());
    let unfolded = node2(IMP, substitute(p, &y.label, x), rest.clone());
    Some(("Set.mem_setOf_eq", node2(FORALL, typed, unfolded)))
}

/// Does the numeral `k`, put for `var` in `body`, stand for the element `(k : n)` the membership
/// gave it? Only where the relation around each place gives the numeral that type
/// ([`elab::numeral_context`]): `y - 5 < 0` with `y : ℤ` is `3 - 5 < 0` at ℕ once `3` is put
/// in, and `x ≠ y` with `x : ℕ`, `y : Fin 5` casts `y` up where `7 ≠ y` reads `7` in `Fin 5`.
/// At ℕ also as an operand of `∣` beside naturals, and as the argument of a bound function
/// written `ℕ → β`.
fn numeral_read_at(k: &Tree, n: Num, var: &Tree, body: &Tree, c: &Carriers) -> bool {
    if binds_inside(body, &var.label) {
        return false;
    }
    let mut places = Vec::new();
    leaf_paths(body, &var.label, &mut Vec::new(), &mut places);
    let put = substitute(body, &var.label, k);
    places.iter().all(|path| {
        elab::numeral_context(&put, path, c) == Some(n)
            || (n == Num::Nat && read_as_natural(&put, path, c))
    })
}

/// Is every use of `name` in `t` inside a relation of numerals, arithmetic and `name` alone
/// (`0 < x ∧ x ^ 2 < 5`), with no binder of that name inside? Nothing there fixes its type.
fn numeral_relations_only(name: &str, t: &Tree, depth: usize) -> bool {
    if depth > 200 {
        return false;
    }
    if is_leaf(t) {
        return t.label != name;
    }
    if COMPARISONS.contains(&t.label.as_str()) && t.children.iter().all(|ch| numerals_and(name, ch))
    {
        return true;
    }
    if is_binding_node(&t.label) && binds_inside(t, name) {
        return false;
    }
    t.children.iter().all(|ch| numeral_relations_only(name, ch, depth + 1))
}

/// Is the numeral at `path` an operand of `∣` whose operands are naturals or numerals (no type
/// variable bound), or the one argument of a theorem's function written `ℕ → β`?
fn read_as_natural(root: &Tree, path: &[usize], c: &Carriers) -> bool {
    let Some((_, above)) = path.split_last() else {
        return false;
    };
    let mut parent = root;
    for &slot in above {
        let Some(next) = parent.children.get(slot) else {
            return false;
        };
        parent = next;
    }
    let natural =
        |e: &Tree| matches!(elab::type_of(e, c), elab::Ty::Num(Num::Nat) | elab::Ty::Numeral);
    match (parent.label.as_str(), parent.children.as_slice()) {
        (" _ ∣ _ ", [a, b]) => !c.binds_type_variable() && natural(a) && natural(b),
        // A function the body binds again is another one.
        (_, [_]) => app_head(parent)
            .filter(|f| !binds_inside(root, f))
            .and_then(|f| c.name_type(f))
            .is_some_and(|ty| {
                ty.label == IMP && ty.children.first().is_some_and(|d| d.label == "ℕ" && is_leaf(d))
            }),
        _ => false,
    }
}

/// The paths of the leaves labelled `name` in `t`.
fn leaf_paths(t: &Tree, name: &str, path: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if is_leaf(t) && t.label == name {
        out.push(path.clone());
    }
    for (i, ch) in t.children.iter().enumerate() {
        path.push(i);
        leaf_paths(ch, name, path, out);
        path.pop();
    }
}

/// Set.mem_setOf_eq : a ∈ {x | p x} = p a, when substituting `a` captures no name. With a
/// written `{x : T | …}`, `a` must be known to have type `T`: otherwise `a ∈ …` is `↑a ∈ …`
/// (the element type is `Membership`'s outParam) and the bare `a` would be read at its own type.
fn set_of(a: &Tree, s: &Tree, c: &Carriers) -> Option<(&'static str, Tree)> {
    if s.label != "{ _ | _ }" {
        return None;
    }
    let (binder, var, body) = plain_binding(s)?;
    // The binder's type: written, or decided by the body's uses as elaboration decides it
    // (`{x | 0 < x ∧ x < (3 : ℤ)}` is a `Set ℤ`, and `2 - 3` put in it is `-1`). A body that
    // decides nothing we can read leaves it to the element only where every use is a relation
    // of numerals and `x` alone, which the element's type (or ℕ's default) then fixes alike.
    let decided = match (binder.label.as_str(), binder.children.as_slice()) {
        (" _ : _ ", [_, ty]) => Some(ty.clone()),
        _ => infer_binder_type(&var.label, body, c, Deciders::TheoremBinders),
    };
    if decided.is_none() && !numeral_relations_only(&var.label, body, 0) {
        return None;
    }
    if let Some(ty) = &decided {
        let same = match elab::num_of_type(ty) {
            Some(n) if literal(a).is_some() => numeral_read_at(a, n, var, body, c),
            Some(n) => elab::type_of(a, c) == elab::Ty::Num(n),
            None => is_leaf(a) && c.name_type(&a.label) == Some(ty),
        };
        if !same {
            return None;
        }
    }
    let mut names = Vec::new();
    leaves(a, &mut names);
    if names.iter().any(|n| binds_inside(body, n)) {
        return None;
    }
    Some(("Set.mem_setOf_eq", substitute(body, &var.label, a)))
}
