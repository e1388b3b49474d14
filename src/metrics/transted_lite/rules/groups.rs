//! Groups family: group-theory predicates unfolded to their definitions (`Subgroup.Normal`,
//! `IsCyclic`, membership in `Subgroup.zpowers` and `Subgroup.center`, `H = ⊥`), and the
//! lattice facts of substructures read elementwise (`H = ⊤`, `x ∈ H ⊓ K`), always in that one
//! direction.
//!
//! Owns only these procedures. A rule that writes `*`, `⁻¹`, `^` or `1` fires only on a type
//! variable `G` of the theorem whose one structure is `[Group G]` (or `[CommGroup G]`) with no
//! other class beside it that gives operators ([`Carriers::competing_operators`]): the
//! definition's operators are then the ones the written-out form elaborates to. A concrete
//! type's local instances are not read, so a concrete group is left alone. `H = ⊤` and
//! `x ∈ H ⊓ K` write no operator: any subgroup, submodule or ideal of known type.

use super::carriers::{variable_type_of_class, Carriers, MONOID_CLASSES};
use super::collections::{collection, is_substructure, member_type};
use super::declare::*;
use super::elab::{self, Num, Ty};
use super::shapes::{
    is_leaf, mentions, node2, AND, DVD, EQ, EXISTS, EXPLICIT, FORALL, IMP, MEM, MUL, POW,
};
use crate::trees::Tree;

#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    // Mathlib/Algebra/Group/Subgroup/Defs.lean: `structure Subgroup.Normal (H : Subgroup G) :
    // Prop where conj_mem : ∀ n, n ∈ H → ∀ g : G, g * n * g⁻¹ ∈ H` (one field: the structure is
    // its field).
    code("Subgroup.Normal (definition)", "H.Normal ↔ ∀ n, n ∈ H → ∀ g : G, g * n * g⁻¹ ∈ H (Mathlib/Algebra/Group/Subgroup/Defs.lean), G a type variable whose one structure is a group", normal_unfolded)
        .ex(&[("{G : Type*} [Group G] (H : Subgroup G) : Subgroup.Normal H", "{G : Type*} [Group G] (H : Subgroup G) : ∀ n✝ : G, n✝ ∈ H → ∀ g✝ : G, g✝ * n✝ * g✝⁻¹ ∈ H")])
        // A second structure that gives `*` (the written-out `*` may be its); a concrete group
        // (its instances are not read); `H` rebound without a type; an additive subgroup; a
        // statement naming its own `Subgroup.Normal`.
        .non(&["{G : Type*} [Group G] [Mul G] (H : Subgroup G) : Subgroup.Normal H",
               "(H : Subgroup (Equiv.Perm (Fin 3))) : Subgroup.Normal H",
               "{G : Type*} [Group G] (H : Subgroup G) : ∀ H, Subgroup.Normal H",
               "{G : Type*} [AddGroup G] (H : AddSubgroup G) : AddSubgroup.Normal H",
               "{G : Type*} [Group G] (Subgroup.Normal : Subgroup G → Prop) (H : Subgroup G) : Subgroup.Normal H"]),
    // Mathlib/GroupTheory/SpecificGroups/Cyclic.lean: `IsCyclic.exists_generator : ∃ g : α, ∀ x,
    // x ∈ Subgroup.zpowers g` (the class's content), then `Subgroup.mem_zpowers_iff : h ∈ zpowers
    // g ↔ ∃ k : ℤ, g ^ k = h` (Mathlib/Algebra/Group/Subgroup/ZPowers/Basic.lean).
    code("IsCyclic (definition)", "IsCyclic G ↔ ∃ g : G, ∀ x, x ∈ Subgroup.zpowers g (Mathlib/GroupTheory/SpecificGroups/Cyclic.lean), G a type variable whose one structure is a group", cyclic_unfolded)
        .ex(&[("{G : Type*} [Group G] : IsCyclic G", "{G : Type*} [Group G] : ∃ z✝ : G, ∀ y✝ : G, y✝ ∈ Subgroup.zpowers z✝")])
        .non(&["{G : Type*} [Group G] [Pow G ℤ] : IsCyclic G", "(n : ℕ) : IsCyclic (ZMod n)", "{G : Type*} [AddGroup G] : IsAddCyclic G", "{G : Type*} [Group G] (IsCyclic : Type* → Prop) : IsCyclic G"]),
    code("Subgroup.mem_zpowers_iff", "h ∈ Subgroup.zpowers g ↔ ∃ k : ℤ, g ^ k = h (Mathlib/Algebra/Group/Subgroup/ZPowers/Basic.lean), g and h of a type variable whose one structure is a group", zpowers_membership)
        .keeps_decisions()
        .ex(&[("{G : Type*} [Group G] (g h : G) : h ∈ Subgroup.zpowers g", "{G : Type*} [Group G] (g h : G) : ∃ k✝ : ℤ, g ^ k✝ = h")])
        // `h` of another type (coerced); a second `^`; the additive `zmultiples`.
        .non(&["{G : Type*} [Group G] (g : G) (h : ℕ) : h ∈ Subgroup.zpowers g", "{G : Type*} [Group G] [HPow G ℤ G] (g h : G) : h ∈ Subgroup.zpowers g", "{G : Type*} [AddGroup G] (g h : G) : h ∈ AddSubgroup.zmultiples g"]),
    // Mathlib/Algebra/Group/Subgroup/Lattice.lean `Subgroup.eq_top_iff' : H = ⊤ ↔ ∀ x : G, x ∈
    // H`; Mathlib/Algebra/Module/Submodule/Lattice.lean `Submodule.eq_top_iff'` (an `Ideal R` is
    // a `Submodule R R`).
    code("Subgroup.eq_top_iff' / Submodule.eq_top_iff'", "H = ⊤ ↔ ∀ x, x ∈ H, for H a subgroup, submodule or ideal (its closure or span)", eq_top_unfolded)
        .ex(&[("{G : Type*} [Group G] (H : Subgroup G) : H = ⊤", "{G : Type*} [Group G] (H : Subgroup G) : ∀ x✝ : G, x✝ ∈ H"),
              ("{G : Type*} [Group G] (s : Set G) : ⊤ = Subgroup.closure s", "{G : Type*} [Group G] (s : Set G) : ∀ x✝ : G, x✝ ∈ Subgroup.closure s"),
              ("{R : Type*} [CommRing R] (I : Ideal R) : I = ⊤", "{R : Type*} [CommRing R] (I : Ideal R) : ∀ x✝ : R, x✝ ∈ I")])
        // `⊥`; a set's `⊤` (not read here); a local `Top`; an `H` rebound without a type.
        .non(&["{G : Type*} [Group G] (H : Subgroup G) : H = ⊥", "(s : Set ℕ) : s = ⊤", "{G : Type*} [Group G] (H : Subgroup G) [Top (Subgroup G)] : H = ⊤", "{G : Type*} [Group G] (H : Subgroup G) : ∀ H, H = ⊤"]),
    // Mathlib/GroupTheory/Subgroup/Center.lean: `Subgroup.mem_center_iff : z ∈ center G ↔ ∀ g, g *
    // z = z * g`.
    code("Subgroup.mem_center_iff", "z ∈ Subgroup.center G ↔ ∀ g, g * z = z * g (Mathlib/GroupTheory/Subgroup/Center.lean), G a type variable whose one structure is a group", center_membership)
        .keeps_decisions()
        .ex(&[("{G : Type*} [Group G] (z : G) : z ∈ Subgroup.center G", "{G : Type*} [Group G] (z : G) : ∀ g✝ : G, g✝ * z = z * g✝")])
        .non(&["{G : Type*} [Group G] [Mul G] (z : G) : z ∈ Subgroup.center G", "{G : Type*} [Group G] (z : ℕ) : z ∈ Subgroup.center G", "{G : Type*} [Group G] (z : G) : z ∈ Subgroup.centralizer {z}"]),
    // Mathlib/Algebra/Group/Subgroup/Lattice.lean: `Subgroup.eq_bot_iff_forall : H = ⊥ ↔ ∀ x ∈
    // H, x = 1`; the `1` is the group's, so only on a type variable whose one structure is a
    // group.
    code("Subgroup.eq_bot_iff_forall", "H = ⊥ ↔ ∀ x ∈ H, x = 1 (Mathlib/Algebra/Group/Subgroup/Lattice.lean), H a subgroup of a type variable whose one structure is a group", eq_bot_unfolded)
        .ex(&[("{G : Type*} [Group G] (H K : Subgroup G) : H ⊓ K = ⊥", "{G : Type*} [Group G] (H K : Subgroup G) : ∀ x✝ : G, x✝ ∈ H ⊓ K → x✝ = 1")])
        // A second structure giving `1`; an additive subgroup (its `0`); a concrete group.
        .non(&["{G : Type*} [Group G] [One G] (H : Subgroup G) : H = ⊥", "{G : Type*} [AddGroup G] (H : AddSubgroup G) : H = ⊥", "(H : Subgroup (Equiv.Perm (Fin 3))) : H = ⊥"]),
    // Mathlib/GroupTheory/OrderOfElement.lean: `orderOf_dvd_iff_pow_eq_one {n : ℕ} : orderOf x ∣
    // n ↔ x ^ n = 1` in any `[Monoid G]`. `orderOf x : ℕ` fixes `∣` at ℕ, so `n` is a natural.
    code("orderOf_dvd_iff_pow_eq_one", "orderOf x ∣ n ↔ x ^ n = 1 (Mathlib/GroupTheory/OrderOfElement.lean), x of a number type or of a type variable whose one structure is a monoid, n : ℕ", order_divides)
        .ex(&[("{G : Type*} [Group G] [Fintype G] (g : G) : orderOf g ∣ Fintype.card G", "{G : Type*} [Group G] [Fintype G] (g : G) : g ^ Fintype.card G = 1"),
              ("{M : Type*} [Monoid M] (x : M) (n : ℕ) : orderOf x ∣ n", "{M : Type*} [Monoid M] (x : M) (n : ℕ) : x ^ n = 1"),
              ("(x : ℝ) : orderOf x ∣ 2", "(x : ℝ) : x ^ 2 = 1")])
        // An integer `n` (`∣` would not elaborate); a second class giving `^` or `1`; a local
        // `orderOf`; the additive `addOrderOf`; `x` of an unknown type; an element of another
        // structure than a monoid.
        .non(&["{G : Type*} [Group G] (g : G) (n : ℤ) : orderOf g ∣ n",
               "{G : Type*} [Group G] [One G] (g : G) (n : ℕ) : orderOf g ∣ n",
               "{G : Type*} [Group G] (orderOf : G → ℕ) (g : G) (n : ℕ) : orderOf g ∣ n",
               "{G : Type*} [AddGroup G] (g : G) (n : ℕ) : addOrderOf g ∣ n",
               "{G : Type*} [Group G] (n : ℕ) : ∀ g, orderOf g ∣ n",
               "{G : Type*} [Semigroup G] (g : G) (n : ℕ) : orderOf g ∣ n"]),
    // `Subgroup.mem_inf : x ∈ p ⊓ p' ↔ x ∈ p ∧ x ∈ p'` (Mathlib/Algebra/Group/Subgroup/Lattice.lean),
    // `Submodule.mem_inf` (Mathlib/Algebra/Module/Submodule/Lattice.lean).
    code("Subgroup.mem_inf", "x ∈ p ⊓ p' ↔ x ∈ p ∧ x ∈ p' (Subgroup, Submodule, Ideal)", inf_membership)
        .keeps_decisions()
        .ex(&[("{G : Type*} [Group G] (H K : Subgroup G) (x : G) : x ∈ H ⊓ K", "{G : Type*} [Group G] (H K : Subgroup G) (x : G) : x ∈ H ∧ x ∈ K")])
        // Two types; an element of another type; a local `Min`.
        .non(&["{G : Type*} [Group G] (H : Subgroup G) (K : Submonoid G) (x : G) : x ∈ H ⊓ K", "{G : Type*} [Group G] (H K : Subgroup G) (x : ℕ) : x ∈ H ⊓ K", "{G : Type*} [Group G] (H K : Subgroup G) (x : G) [Min (Subgroup G)] : x ∈ H ⊓ K"]),
];

const GROUP: [&str; 2] = ["Group", "CommGroup"];

/// The type variable `G` a name is bound with as `(x : G)`, where `G`'s one structure is a group.
fn group_element_type<'c>(x: &Tree, c: &'c Carriers) -> Option<&'c Tree> {
    let ty = c.name_type(&x.label).filter(|_| is_leaf(x))?;
    (is_leaf(ty) && variable_type_of_class(&ty.label, &GROUP, c)).then_some(ty)
}

fn typed(name: &str, ty: &Tree) -> Tree {
    node2(EXPLICIT, Tree::bound_variable(name), ty.clone())
}

/// `Subgroup.Normal H` → `∀ n, n ∈ H → ∀ g : G, g * n * g⁻¹ ∈ H`, for `(H : Subgroup G)`.
fn normal_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("Subgroup.Normal _ ", [h]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let c = ctx.carriers;
    let ty = c.name_type(&h.label).filter(|_| is_leaf(h))?;
    let ("Subgroup _ ", [g_type]) = (ty.label.as_str(), ty.children.as_slice()) else {
        return None;
    };
    let group = is_leaf(g_type) && variable_type_of_class(&g_type.label, &GROUP, c);
    let taken = ["n✝", "g✝"].iter().any(|n| c.binds(n) || mentions(t, n));
    if !group || c.binds("Subgroup.Normal") || taken {
        return None;
    }
    let (n, g) = (Tree::bound_variable("n✝"), Tree::bound_variable("g✝"));
    let conjugate = node2(MUL, node2(MUL, g.clone(), n.clone()), Tree::node("⁻¹", vec![g.clone()]));
    let closed = node2(FORALL, typed("g✝", g_type), node2(MEM, conjugate, h.clone()));
    let body = node2(IMP, node2(MEM, n, h.clone()), closed);
    Some(("Subgroup.Normal (definition)", node2(FORALL, typed("n✝", g_type), body)))
}

/// `IsCyclic G` → `∃ g : G, ∀ x : G, x ∈ Subgroup.zpowers g`.
fn cyclic_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let ("IsCyclic _ ", [g_type]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let c = ctx.carriers;
    let group = is_leaf(g_type) && variable_type_of_class(&g_type.label, &GROUP, c);
    if !group || c.binds("IsCyclic") || c.binds("Subgroup.zpowers") {
        return None;
    }
    // Names no other unfolding here binds (`Subgroup.Normal`'s are `n✝`, `g✝`).
    let (g, x) = (Tree::bound_variable("z✝"), Tree::bound_variable("y✝"));
    if c.binds("z✝") || c.binds("y✝") || mentions(t, "z✝") || mentions(t, "y✝") {
        return None;
    }
    let generated = node2(MEM, x, Tree::node("Subgroup.zpowers _ ", vec![g]));
    let every = node2(FORALL, typed("y✝", g_type), generated);
    Some(("IsCyclic (definition)", node2(EXISTS, typed("z✝", g_type), every)))
}

/// `h ∈ Subgroup.zpowers g` → `∃ k : ℤ, g ^ k = h`, for `g`, `h` names of one group type.
fn zpowers_membership(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (MEM, [h, zpowers]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let ("Subgroup.zpowers _ ", [g]) = (zpowers.label.as_str(), zpowers.children.as_slice()) else {
        return None;
    };
    let c = ctx.carriers;
    let g_type = group_element_type(g, c)?;
    if group_element_type(h, c) != Some(g_type) || c.binds("Subgroup.zpowers") {
        return None;
    }
    if mentions(t, "k✝") || c.binds("k✝") {
        return None;
    }
    let k = Tree::bound_variable("k✝");
    let power = node2(EQ, node2(POW, g.clone(), k), h.clone());
    Some(("Subgroup.mem_zpowers_iff", node2(EXISTS, typed("k✝", &Tree::leaf("ℤ")), power)))
}

/// The element type of a subgroup, submodule or ideal term, where known: a name bound as
/// `Subgroup G` (`G`), `Submodule R M` (`M`), `Ideal R` (`R`), or the closure/span of a set name
/// bound as `Set T` (`T`). `None` inside means the term is one, of an unknown element type.
fn substructure_element(h: &Tree, c: &Carriers) -> Option<Option<Tree>> {
    if is_leaf(h) {
        let ty = c.name_type(&h.label).filter(|ty| is_substructure(ty))?;
        return Some(member_type(ty).cloned());
    }
    if let (" _ ⊓ _ ", [a, b]) = (h.label.as_str(), h.children.as_slice()) {
        // `inf` keeps its operands' type: both must be one known substructure type.
        let (ta, tb) = (c.name_type(&a.label), c.name_type(&b.label));
        let same = is_leaf(a) && is_leaf(b) && ta.is_some() && ta == tb;
        return if same { substructure_element(a, c) } else { None };
    }
    let set = match (h.label.as_str(), h.children.as_slice()) {
        ("Subgroup.closure _ " | "AddSubgroup.closure _ " | "Ideal.span _ ", [s]) => s,
        ("Submodule.span _  _ ", [_, s]) => s,
        _ => return None,
    };
    Some(collection(set, c).map(|s| s.element))
}

/// `H = ⊤` (or `⊤ = H`) → `∀ x, x ∈ H`, for `H` a subgroup, submodule or ideal.
fn eq_top_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EQ, [l, r]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let top = |x: &Tree| is_leaf(x) && x.label == "⊤";
    let h = match (top(l), top(r)) {
        (false, true) => l,
        (true, false) => r,
        _ => return None,
    };
    let c = ctx.carriers;
    let element = substructure_element(h, c)?;
    if c.binds_set_class() || c.binds("x✝") || mentions(h, "x✝") {
        return None;
    }
    let x = Tree::bound_variable("x✝");
    let binder = match &element {
        Some(e) => typed("x✝", e),
        None => x.clone(),
    };
    let written = match c.name_type(&h.label).filter(|_| is_leaf(h)) {
        Some(ty) => ty.label.as_str(),
        None => h.label.as_str(),
    };
    let rule = if written.contains("Subgroup") {
        "Subgroup.eq_top_iff'"
    } else if written.contains("Submonoid") {
        "Submonoid.eq_top_iff'"
    } else {
        "Submodule.eq_top_iff'"
    };
    Some((rule, node2(FORALL, binder, node2(MEM, x, h.clone()))))
}

/// `orderOf x ∣ n` → `x ^ n = 1`, for `x` a name of a number type or of a type variable whose
/// one structure is a monoid, and `n` a natural.
fn order_divides(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (DVD, [order, n]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let ("orderOf _ ", [x]) = (order.label.as_str(), order.children.as_slice()) else {
        return None;
    };
    let c = ctx.carriers;
    let monoid = |ty: &Tree| {
        elab::num_of_type(ty).is_some()
            || (is_leaf(ty) && variable_type_of_class(&ty.label, &MONOID_CLASSES, c))
    };
    let element = is_leaf(x) && c.name_type(&x.label).is_some_and(monoid);
    let natural = elab::type_of(n, c) == Ty::Num(Num::Nat) || n.label.parse::<u64>().is_ok();
    if !element || !natural || c.binds("orderOf") {
        return None;
    }
    let power = node2(POW, x.clone(), n.clone());
    Some(("orderOf_dvd_iff_pow_eq_one", node2(EQ, power, Tree::leaf("1"))))
}

/// `z ∈ Subgroup.center G` → `∀ g : G, g * z = z * g`, for `z` a name of the group type `G`.
fn center_membership(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (MEM, [z, center]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let ("Subgroup.center _ ", [g_type]) = (center.label.as_str(), center.children.as_slice())
    else {
        return None;
    };
    let c = ctx.carriers;
    if group_element_type(z, c) != Some(g_type) || c.binds("Subgroup.center") {
        return None;
    }
    if c.binds("g✝") || mentions(t, "g✝") {
        return None;
    }
    let g = Tree::bound_variable("g✝");
    let commutes = node2(EQ, node2(MUL, g.clone(), z.clone()), node2(MUL, z.clone(), g));
    Some(("Subgroup.mem_center_iff", node2(FORALL, typed("g✝", g_type), commutes)))
}

/// `H = ⊥` (or `⊥ = H`) → `∀ x : G, x ∈ H → x = 1`, for `H` (or `H ⊓ K`) a subgroup of a type
/// variable `G` whose one structure is a group.
fn eq_bot_unfolded(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (EQ, [l, r]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let bot = |x: &Tree| is_leaf(x) && x.label == "⊥";
    let h = match (bot(l), bot(r)) {
        (false, true) => l,
        (true, false) => r,
        _ => return None,
    };
    let c = ctx.carriers;
    let subgroup =
        |x: &Tree| is_leaf(x) && c.name_type(&x.label).is_some_and(|ty| ty.label == "Subgroup _ ");
    let operands_subgroups = match (h.label.as_str(), h.children.as_slice()) {
        (" _ ⊓ _ ", [a, b]) => subgroup(a) && subgroup(b),
        _ => subgroup(h),
    };
    let g_type = substructure_element(h, c).flatten()?;
    let group = is_leaf(&g_type) && variable_type_of_class(&g_type.label, &GROUP, c);
    if !operands_subgroups || !group || c.binds_set_class() || c.binds("x✝") || mentions(h, "x✝")
    {
        return None;
    }
    let x = Tree::bound_variable("x✝");
    let trivial = node2(EQ, x.clone(), Tree::leaf("1"));
    let body = node2(IMP, node2(MEM, x, h.clone()), trivial);
    Some(("Subgroup.eq_bot_iff_forall", node2(FORALL, typed("x✝", &g_type), body)))
}

/// `x ∈ H ⊓ K` → `x ∈ H ∧ x ∈ K`, for `H`, `K` names of one subgroup, submodule or ideal type
/// and `x` a name of its element type.
fn inf_membership(t: &Tree, ctx: &Ctx) -> Option<(&'static str, Tree)> {
    let (MEM, [x, inf]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (" _ ⊓ _ ", [a, b]) = (inf.label.as_str(), inf.children.as_slice()) else {
        return None;
    };
    let c = ctx.carriers;
    let element = substructure_element(inf, c).flatten()?;
    let typed_x = is_leaf(x) && c.name_type(&x.label) == Some(&element);
    if !typed_x || c.binds_set_class() {
        return None;
    }
    let member = |s: &Tree| node2(MEM, x.clone(), s.clone());
    Some(("Subgroup.mem_inf", node2(AND, member(a), member(b))))
}
