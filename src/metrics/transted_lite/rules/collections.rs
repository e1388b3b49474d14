//! The type of a collection term, where the statement's binders decide it: a `Set T` or
//! `Finset T` expression ([`collection`]), and the type of the members of a collection of a
//! written type ([`member_type`]: `Set`, `Finset` and Mathlib's substructures).
//!
//! Owns only these readings; every rule about sets, finsets and substructures asks them. It
//! reads names' types through [`Carriers`] and imports no rule.

pub use super::carriers::member_type;
use super::carriers::Carriers;
use super::shapes::{app_head, is_leaf, IMP};
use crate::trees::Tree;

/// `Set T` or `Finset T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Set,
    Finset,
}

/// A set expression's type: its kind and its element type `T`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collection {
    pub kind: Kind,
    pub element: Tree,
}

/// Element types whose `Finset` has `∩ ∪ \ insert`: they need `DecidableEq` of the elements
/// (Mathlib/Data/Finset/Lattice/Basic.lean, `Finset.instInter [DecidableEq α]`), which ℕ ℤ ℚ
/// have and ℝ has through its `LinearOrder`; a type variable may have none.
const DECIDABLE_ELEMENTS: [&str; 8] = ["ℕ", "ℤ", "ℚ", "ℝ", "Nat", "Int", "Rat", "Real"];

impl Collection {
    /// Of a written type `Set T` / `Finset T`.
    fn of_type(ty: &Tree) -> Option<Collection> {
        let kind = match ty.label.as_str() {
            "Set _ " => Kind::Set,
            "Finset _ " => Kind::Finset,
            _ => return None,
        };
        let [element] = ty.children.as_slice() else { return None };
        Some(Collection { kind, element: element.clone() })
    }

    /// Do `∩ ∪ \` and `insert` exist on this type: always on a `Set`, on a `Finset` only where
    /// the elements have `DecidableEq` ([`DECIDABLE_ELEMENTS`]).
    pub fn has_lattice_operations(&self) -> bool {
        self.kind == Kind::Set
            || (is_leaf(&self.element) && DECIDABLE_ELEMENTS.contains(&self.element.label.as_str()))
    }
}

/// The type of a set expression, where it is known:
/// - a name bound with written type `Set T` / `Finset T`, never rebound without one
///   (`Carriers::name_type`);
/// - an ascription `(e : Set T)`;
/// - a bound function applied to all the arguments that give one (`f n` with
///   `(f : ℕ → Set ℝ)`);
/// - `s ∩ t`, `s ∪ t`, `s \ t` of two expressions of one such type (`Inter.inter : α → α → α`
///   keeps it; two known types that differ are not read, as a coercion may stand between);
/// - `sᶜ`;
/// - `f '' s`, `f ⁻¹' t` and `Set.range f` for a bound `f` of written type `α → β`
///   (`Set.range (f : ι → α) : Set α`, Mathlib/Data/Set/Operations.lean);
/// - `Finset.range n` and intervals whose ends decide their type
///   ([`super::carriers::interval_element`]);
/// - a set-builder with a typed binder `{x : T | p}`, `upperBounds s` and `lowerBounds s`.
pub fn collection(s: &Tree, c: &Carriers) -> Option<Collection> {
    if is_leaf(s) {
        return Collection::of_type(c.name_type(&s.label)?);
    }
    match (s.label.as_str(), s.children.as_slice()) {
        ("( _ : _ )", [_, ty]) => Collection::of_type(ty),
        (" _ ∩ _ " | " _ ∪ _ " | " _ \\ _ ", [a, b]) => {
            let (a, b) = (collection(a, c)?, collection(b, c)?);
            (a.kind == b.kind && a.element == b.element).then_some(a)
        }
        ("ᶜ", [a]) => collection(a, c),
        // `Set.image (f : α → β) (s : Set α) : Set β`, `Set.preimage (f : α → β) (t : Set β) :
        // Set α` (Mathlib/Data/Set/Defs.lean), for a bound `f` of written function type.
        (" _ '' _ " | " _ ⁻¹' _ " | "Set.range _ ", [f, ..]) if is_leaf(f) => {
            let ty = c.name_type(&f.label).filter(|ty| ty.label == IMP)?;
            let [domain, codomain] = ty.children.as_slice() else { return None };
            let element = if s.label == " _ ⁻¹' _ " { domain } else { codomain };
            Some(Collection { kind: Kind::Set, element: element.clone() })
        }
        // `{x : T | p}` is `setOf` at `Set T` (Mathlib/Data/Set/Defs.lean).
        ("{ _ | _ }", [binder, _]) => match (binder.label.as_str(), binder.children.as_slice()) {
            (" _ : _ ", [x, ty]) if is_leaf(x) && c.names_one_type(ty) => {
                Some(Collection { kind: Kind::Set, element: ty.clone() })
            }
            _ => None,
        },
        // `upperBounds s`, `lowerBounds s : Set α` for `s : Set α` (Mathlib/Order/Bounds/Defs.lean).
        ("upperBounds _ " | "lowerBounds _ ", [a]) if !c.binds(s.label.trim_end_matches(" _ ")) => {
            collection(a, c).filter(|a| a.kind == Kind::Set)
        }
        _ => {
            let head = app_head(s)?;
            // `Finset.range n`, `Set.Icc a b`, … whose ends decide the elements' type.
            if let Some(element) = super::carriers::interval_element(s, c) {
                let kind = if head.starts_with("Set.") { Kind::Set } else { Kind::Finset };
                return Some(Collection { kind, element });
            }
            let mut ty = c.name_type(head);
            for _ in &s.children {
                ty = ty.filter(|f| f.label == IMP && f.children.len() == 2).map(|f| &f.children[1]);
            }
            Collection::of_type(ty?)
        }
    }
}

/// Is `ty` a written substructure type (a [`member_type`] that is no `Set`/`Finset`)?
pub fn is_substructure(ty: &Tree) -> bool {
    member_type(ty).is_some() && Collection::of_type(ty).is_none()
}
