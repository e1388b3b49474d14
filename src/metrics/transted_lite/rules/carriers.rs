//! What a statement's binders say about the types of its names: [`Carriers`], read once per
//! statement and consulted by elaboration-lite (`elab`) and the typed rules.
//!
//! Owns the classification of binder types, ascriptions and casts into the number systems the
//! typed rules know, each name's written type and type namespace, and the class instances on
//! type variables. A function type contributes its domain and codomain; untyped bound names
//! take their type from the rest of the statement (or default to ℕ like numerals), so they add
//! nothing. Rewrites nothing and types no term (that is `elab`).

use super::shapes::{
    app_head, binder_kind, binder_name, binds_inside, collect_binders, is_binder_list,
    is_binding_node, is_leaf, is_prop_shaped, is_universe, literal, BinderKind, ADD, DIV, IMP, MUL,
    NEG, POW, SUB, UNKNOWN_TYPE,
};

use crate::elab::scope::{variable_shaped, Letters};
use crate::trees::lean_syntax::concat;
use crate::trees::Tree;

/// The unital (semi)ring and field classes of the algebraic hierarchy's core.
pub(super) const UNITAL_RING_CLASSES: [&str; 6] =
    ["Semiring", "CommSemiring", "Ring", "CommRing", "Field", "DivisionRing"];

/// The number systems a statement's terms live in, as far as its binders and ascriptions say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Carriers {
    nat: bool,
    int: bool,
    rat: bool,
    real: bool,
    complex: bool,
    /// Any other type (sets, type variables, `Fin n`, `ℝ≥0`, casts of unknown target, ...).
    other: bool,
    /// Names bound to a function type.
    pub(super) functions: Vec<String>,
    /// Each bound name with the namespace of its type's head (`(p : ℕ)` → `Nat`,
    /// `(H : Subgroup G)` → `Subgroup`, `(f : ℝ → ℝ)` → `Function`), for dot notation. A name
    /// bound twice with different heads is left out.
    namespaces: Vec<(String, Option<String>)>,
    /// Each bound name with its written type (`(f : ℝ → ℕ → ℝ)`, `(S : Set ℝ)`), for
    /// [`infer_binder_type`]. A name bound twice with different types is left out.
    pub(super) binder_types: Vec<(String, Option<Tree>)>,
    /// Names some binder binds without a written type (`∀ x, …`, `fun x => …`, `{x | …}`,
    /// `(x : _)`): their type at a use is not known (see [`Carriers::name_type`]).
    untyped: Vec<String>,
    /// Instance binders on a type variable, as (class, type): `[Group G]` → (`Group`, `G`).
    instances: Vec<(String, String)>,
    /// Type names bound more than once, or given an instance by a binder that is not one of
    /// the theorem's own ([`Carriers::has_instance`] reads no instance on them).
    scoped_types: Vec<String>,
    /// Names whose written number type no rule can drop ([`Carriers::fixed_number_type`]).
    fixed: Vec<(String, Tree)>,
    /// The theorem's binders, with the leading `∀`s of its conclusion that `intro` moves there.
    theorem_binders: Vec<String>,
    /// Names given to a declaration that may take an instance about them (`[Fact p.Prime]`) by
    /// type class resolution (`GaloisField p n`, `ZMod p` as a field).
    consumed: Vec<String>,
    /// Some binder binds a type (`{M : Type*}`): numerals may be elaborated there, with
    /// whatever operations its instances give.
    type_variables: bool,
    /// The statement names `Fin` or `ZMod` somewhere (`Fin n`, `Fin.last 4`): numerals there
    /// wrap around.
    wrapping: bool,
    /// Type variables with a `[Fintype α]` theorem binder that every use of `α` comes after,
    /// and that nothing binds again ([`Carriers::fintype_in_scope`]).
    fintype_first: Vec<String>,
    /// Names some binder binds as a type (`(s : Type)`): a term binder of the same name
    /// elsewhere has no one type ([`Carriers::name_type`]).
    universe_bound: Vec<String>,
    /// Some binder gives an instance of a class the set notations elaborate through
    /// ([`SET_NOTATION_CLASSES`]).
    set_classes: bool,
}

impl Carriers {
    /// Classify every binder type, ascription and cast in `tree`.
    pub fn of(tree: &Tree) -> Carriers {
        let mut c = Carriers::default();
        let mut binders: Vec<(&Tree, &Tree, bool)> = Vec::new();
        collect_binders(tree, &mut binders);
        for &(name, ty, instance) in &binders {
            // A class argument (`[LinearOrder α]`) names a type that is itself a binder.
            if ty.label == UNKNOWN_TYPE && !name.hypothesis_freecost {
                c.untyped.push(name.label.clone());
            }
            // Any local whose type is a class is a local instance in Lean 4, whatever its
            // brackets (`(d : Div K)`, `∀ d : Div K, …`): every binder of an applied type is
            // recorded, so that a bare operator class beside a structure is seen.
            let named = !ty.children.is_empty() && !name.hypothesis_freecost;
            c.set_classes |= (instance || named)
                && app_head(ty).is_some_and(|h| SET_NOTATION_CLASSES.contains(&h));
            match (instance || named, app_head(ty), ty.children.as_slice()) {
                (true, Some(class), [arg]) if is_leaf(arg) => {
                    c.instances.push((class.to_owned(), arg.label.clone()));
                }
                // `[OfNat G 1]`, `[Pow M ℕ]`, `[HMul R R R]`: an operator on each of its types.
                (true, Some(class), args) if OPERATORS_ON_SEVERAL_TYPES.contains(&class) => {
                    for arg in args.iter().filter(|a| is_leaf(a)) {
                        c.instances.push((class.to_owned(), arg.label.clone()));
                    }
                }
                _ => {}
            }
            c.type_variables |= is_universe(ty);
            if is_universe(ty) && !c.universe_bound.contains(&name.label) {
                c.universe_bound.push(name.label.clone());
            }
            // A named instance binder (`[x : ℕ]`) binds its name as any binder does, shadowing
            // an earlier `x`: a name bound twice has no one type here.
            if instance && !name.hypothesis_freecost {
                match c.binder_types.iter_mut().find(|(n, _)| *n == name.label) {
                    Some((_, known)) => *known = None,
                    None => c.binder_types.push((name.label.clone(), None)),
                }
                match c.namespaces.iter_mut().find(|(n, _)| *n == name.label) {
                    Some((_, known)) => *known = None,
                    None => c.namespaces.push((name.label.clone(), None)),
                }
            }
            if instance
                || name.hypothesis_freecost
                || is_universe(ty)
                || is_prop_shaped(ty)
                || ty.label == UNKNOWN_TYPE
            {
                // A hypothesis named as an earlier binder shadows it too (`(x : ℝ) (x : 1 < 2)`).
                for (n, known) in c.binder_types.iter_mut() {
                    if *n == name.label {
                        *known = None;
                    }
                }
                continue;
            }
            if ty.label == IMP {
                c.functions.push(name.label.clone());
            }
            match c.binder_types.iter_mut().find(|(n, _)| *n == name.label) {
                Some((_, known)) if known.as_ref() != Some(ty) => *known = None,
                Some(_) => {}
                None => c.binder_types.push((name.label.clone(), Some(ty.clone()))),
            }
            c.add_type(ty);
            let head = namespace_of(ty, &binders);
            match c.namespaces.iter_mut().find(|(n, _)| *n == name.label) {
                Some((_, known)) if *known != head => *known = None,
                Some(_) => {}
                None => c.namespaces.push((name.label.clone(), head)),
            }
        }
        c.scoped_types = scoped_types(tree, &binders);
        c.scan_terms(tree);
        collect_untyped(tree, &mut c.untyped);
        c.fixed = fixed_names(tree, &binders, &c.untyped);
        c.theorem_binders = theorem_binder_names(tree);
        c.fintype_first = fintype_first(tree);
        let mut modulus = Vec::new();
        consumed_names(tree, &mut c.consumed, &mut modulus, Role::Other);
        if needs_a_field(tree) || needs_finiteness(tree) {
            c.consumed.extend(modulus);
        }
        if !(c.nat || c.int || c.rat || c.real || c.complex || c.other) {
            // Only numerals and untyped names: Lean elaborates numerals at ℕ by default.
            c.nat = true;
        }
        for (name, ty) in member_typed_names(tree, &c) {
            c = c.with_name_type(&name, &ty);
        }
        c
    }

    fn add_type(&mut self, ty: &Tree) {
        if is_leaf(ty) {
            match ty.label.as_str() {
                "ℕ" | "Nat" => self.nat = true,
                "ℤ" | "Int" => self.int = true,
                "ℚ" | "Rat" => self.rat = true,
                "ℝ" | "Real" => self.real = true,
                "ℂ" | "Complex" => self.complex = true,
                _ => self.other = true,
            }
        } else if ty.label == IMP && ty.children.len() == 2 {
            self.add_domain(&ty.children[0]);
            self.add_type(&ty.children[1]);
        } else {
            self.other = true;
        }
    }

    /// A function's domain: its values are not terms of the statement (only `f a` is), so a
    /// product domain adds its components. A product value itself (`(x : ℝ × ℝ)`, a function
    /// into `ℝ × ℝ`) is "other": the product order is partial and `‖·‖` is not `|·|` there.
    fn add_domain(&mut self, ty: &Tree) {
        if ty.label == " _ × _ " && ty.children.len() == 2 {
            self.add_domain(&ty.children[0]);
            self.add_domain(&ty.children[1]);
        } else {
            self.add_type(ty);
        }
    }

    /// Ascriptions `(e : T)` and casts `↑e` inside terms; constants that name their type.
    fn scan_terms(&mut self, t: &Tree) {
        if t.label == "( _ : _ )" && t.children.len() == 2 {
            self.add_type(&t.children[1]);
        } else if t.label == "↑" {
            self.other = true;
        } else if t.label.starts_with("Real.") || t.label == "√" || t.label == "π" {
            self.real = true;
        } else if t.label.starts_with("Complex.") {
            self.complex = true;
        }
        // `Fin n`, `Fin.last 4`, an unresolved `Fin⁇` (`open Fin.NatCast`), `ZMod n`.
        self.wrapping |= names_wrapping_type(&t.label);
        for ch in &t.children {
            self.scan_terms(ch);
        }
    }

    /// The written type of a bound name, when the statement binds it with that one type and
    /// never without a type nor as a type (elaboration-lite, [`elab::type_of`]).
    pub fn name_type(&self, name: &str) -> Option<&Tree> {
        if self.untyped.iter().any(|n| n == name) || self.universe_bound.iter().any(|n| n == name) {
            return None;
        }
        self.binder_types.iter().find(|(n, _)| n == name).and_then(|(_, ty)| ty.as_ref())
    }

    /// The written number type of a name bound once, whose first use is under `|·|` (`|x| < δ`
    /// with `(x : ℝ)`): no binder-type rule can drop that type, since each needs the name's
    /// first use to decide it, and `abs` decides nothing. Such a name may decide another's
    /// type through a relation without the circle two plain names make (`x < y` deciding `x`
    /// from `y` and `y` from `x`, after which Lean would default both to ℕ).
    pub(super) fn fixed_number_type(&self, name: &str) -> Option<&Tree> {
        self.fixed.iter().find(|(n, _)| n == name).map(|(_, ty)| ty)
    }

    /// Is `name` bound only without a written type (`∀ y, …`, `fun y => …`)?
    pub(super) fn untyped_only(&self, name: &str) -> bool {
        self.untyped.iter().any(|n| n == name) && !self.binder_types.iter().any(|(n, _)| n == name)
    }

    /// These carriers with `name`, bound only without a written type, read at `ty`: inside the
    /// body of its one binder, once its first use has decided `ty` there.
    pub(super) fn with_name_type(&self, name: &str, ty: &Tree) -> Carriers {
        let mut c = self.clone();
        c.untyped.retain(|n| n != name);
        c.binder_types.push((name.to_owned(), Some(ty.clone())));
        c.add_type(ty);
        c
    }

    /// The names a rule bound (`x✝`) that these carriers read at a written type.
    pub(super) fn rule_typed_names(&self) -> Vec<&str> {
        let typed = self.binder_types.iter().filter(|(n, ty)| n.contains('✝') && ty.is_some());
        typed.map(|(n, _)| n.as_str()).filter(|n| self.name_type(n).is_some()).collect()
    }

    /// These carriers with `name`, a name a rule bound without a type, read as bound so.
    pub(super) fn with_untyped_name(&self, name: &str) -> Carriers {
        let mut c = self.clone();
        c.untyped.push(name.to_owned());
        c
    }

    /// Is `name` bound somewhere without a type, and otherwise only with one number type
    /// (`fun n : ℕ => …` beside an unfolded `∀ n ≥ N`)? Where it is used, its type is then
    /// unknown or a number type, never a type a natural coerces to and back.
    pub(super) fn untyped_or_number(&self, name: &str) -> bool {
        self.untyped.iter().any(|n| n == name)
            && match self.binder_types.iter().find(|(n, _)| n == name) {
                None => true,
                Some((_, ty)) => ty
                    .as_ref()
                    .is_some_and(|ty| is_leaf(ty) && NUMBERS.contains(&ty.label.as_str())),
            }
    }

    /// Is `name` bound by the theorem's binder list, or by a leading `∀` of its conclusion?
    pub(super) fn theorem_binder(&self, name: &str) -> bool {
        self.theorem_binders.iter().any(|n| n == name)
    }

    /// Does the statement bind a type variable (`{M : Type*}`)? A term of numerals alone may
    /// then be elaborated at it ([`elab::carrier`]).
    /// May a use of `name` need an instance about it ([`consumed_names`])? `[Fact p.Prime]` is
    /// what `ZMod p`'s field structure or `GaloisField p n` is found from, and `(hp : p.Prime)`
    /// gives none.
    pub(super) fn consumed(&self, name: &str) -> bool {
        self.consumed.iter().any(|n| n == name)
    }

    pub(super) fn binds_type_variable(&self) -> bool {
        self.type_variables
    }

    /// Does the statement bind `name` as a type (`{V : Type*}`), once, so that every use of
    /// `name` is that one type?
    pub(super) fn binds_type_once(&self, name: &str) -> bool {
        self.universe_bound.iter().any(|n| n == name)
            && !self.scoped_types.iter().any(|t| t == name)
    }

    /// Is `name` a type the statement binds once with no instance on it (`(β : Type*)`)? Nothing
    /// coerces a number to it then.
    pub fn bare_type_variable(&self, name: &str) -> bool {
        self.binds_type_once(name) && self.instances_on(name).next().is_none()
    }

    /// Is every name in the type `ty` bound at most once as a type? A type variable bound again
    /// (`∀ V : Type, …`) is another type inside.
    pub(super) fn names_one_type(&self, ty: &Tree) -> bool {
        if is_leaf(ty) {
            return !self.scoped_types.contains(&ty.label);
        }
        ty.children.iter().all(|ch| self.names_one_type(ch))
    }

    /// Does the statement bind `name` (with a type or without)?
    pub fn binds(&self, name: &str) -> bool {
        self.untyped.iter().any(|n| n == name) || self.binder_types.iter().any(|(n, _)| n == name)
    }

    /// May a numeral mean another number at some type of the statement: `Fin n` or `ZMod n`
    /// (`(7 : Fin 5) = 2`), or a type variable (whatever its `NatCast` does)?
    pub(super) fn numerals_may_wrap(&self) -> bool {
        self.wrapping || self.type_variables
    }

    /// Is `[Fintype α]` in scope at every use of the type variable `α` ([`fintype_first`])?
    pub(super) fn fintype_in_scope(&self, alpha: &str) -> bool {
        self.fintype_first.iter().any(|a| a == alpha)
    }

    /// Does the statement have an instance binder `[C ty]` with `C` among `classes`? Never for
    /// a type name bound twice, or with an instance binder inside the statement (`∀ (G : Type)
    /// [CommGroupWithZero G], …`): which binder a use of `ty` sees depends on where it stands.
    pub fn has_instance(&self, classes: &[&str], ty: &str) -> bool {
        !self.scoped_types.iter().any(|t| t == ty)
            && self.instances.iter().any(|(c, t)| t == ty && classes.contains(&c.as_str()))
    }

    /// The classes of the instances recorded on the type named `ty`.
    pub(super) fn instances_on<'a>(&'a self, ty: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.instances.iter().filter(move |(_, t)| t == ty).map(|(class, _)| class.as_str())
    }

    /// The namespace of a bound name's type, when known and unambiguous.
    pub(super) fn namespace(&self, name: &str) -> Option<&str> {
        self.namespaces.iter().find(|(n, _)| n == name).and_then(|(_, h)| h.as_deref())
    }

    /// Does some binder give an instance of a class `∈ ∩ ∪ \ ᶜ {a, b} ⊤` elaborate through
    /// (`[Membership α S]`, `(i : Inter (Set ℕ))`)? Then they may not be `Set`'s.
    pub(super) fn binds_set_class(&self) -> bool {
        self.set_classes
    }

    /// A term built only from numbers: names (not of function type: functions are only
    /// partially ordered), numerals, arithmetic, ascriptions, the statement's functions applied,
    /// number functions (`Real.…`, `Nat.…` but not those returning collections), sums,
    /// products and cardinalities. A whitelist: `Finset.range 3 < Finset.range 4` on a
    /// statement whose binders are all numbers still compares sets.
    pub(crate) fn ordered_operand(&self, t: &Tree) -> bool {
        if is_leaf(t) {
            return !self.functions.contains(&t.label);
        }
        let label = t.label.as_str();
        let arithmetic = [
            ADD,
            MUL,
            SUB,
            DIV,
            POW,
            " _ % _ ",
            NEG,
            "( _ : _ )",
            "| _ |",
            "⌊ _ ⌋",
            "⌈ _ ⌉",
            "√",
            "!",
        ]
        .contains(&label);
        if arithmetic {
            // The type of an ascription is already among the carriers.
            let operands = if label == "( _ : _ )" { &t.children[..1] } else { &t.children[..] };
            return operands.iter().all(|ch| self.ordered_operand(ch));
        }
        if label.starts_with('∑') || label.starts_with('∏') || label == " _ .card" {
            return true;
        }
        let head = label.split_whitespace().next().unwrap_or("");
        if self.functions.iter().any(|f| f == head)
            && label == format!("{head}{}", " _ ".repeat(t.children.len()))
        {
            return t.children.iter().all(|ch| self.ordered_operand(ch));
        }
        let collection = ["divisors", "digits", "primeFactors", "factors", "properDivisors"]
            .iter()
            .any(|name| head.ends_with(name));
        let number_function = ["Real.", "Nat.", "Int.", "Rat.", "Finset.card", "Nat.card"]
            .iter()
            .any(|ns| head.starts_with(ns));
        // A function whose result is a number of one type whatever its arguments
        // (`Subgroup.index`, `orderOf`).
        (number_function && !collection) || super::result_types::fixed_result(head)
    }
}

/// Type names bound more than once in `tree` (type variables, anywhere), or given an instance
/// (any local of an applied type, [`Carriers::of`]) by a binder that is not one of the
/// theorem's own.
fn scoped_types(tree: &Tree, all: &[(&Tree, &Tree, bool)]) -> Vec<String> {
    let mut top: Vec<(&Tree, &Tree, bool)> = Vec::new();
    if let Some(list) = tree.children.first().filter(|l| is_binder_list(tree, l, true)) {
        if let Some((_, binders)) = list.children.split_last() {
            for b in binders {
                super::shapes::collect_binders_in(b, &mut top);
            }
        }
    }
    let mut out: Vec<String> = Vec::new();
    let mut push = |name: &str| {
        if !out.iter().any(|n| n == name) {
            out.push(name.to_owned());
        }
    };
    for (i, &(name, ty, _)) in all.iter().enumerate() {
        if is_universe(ty)
            && all[i + 1..].iter().any(|(n, t, _)| n.label == name.label && is_universe(t))
        {
            push(&name.label);
        }
    }
    let applied = |(name, ty, instance): &(&Tree, &Tree, bool)| {
        (*instance || (!ty.children.is_empty() && !name.hypothesis_freecost))
            .then(|| app_head(ty).zip(ty.children.first()))
            .flatten()
            .filter(|(_, arg)| is_leaf(arg) && ty.children.len() == 1)
            .map(|(class, arg)| (class.to_owned(), arg.label.clone()))
    };
    let mut top_instances: Vec<(String, String)> = top.iter().filter_map(applied).collect();
    for entry in all.iter().filter_map(applied) {
        match top_instances.iter().position(|e| *e == entry) {
            Some(k) => {
                top_instances.remove(k);
            }
            None => push(&entry.1),
        }
    }
    out
}

/// The names the quantifiers and `fun`s of `t` bind without a type.
pub(super) fn untyped_binder_names(t: &Tree) -> Vec<String> {
    let mut out = Vec::new();
    collect_untyped(t, &mut out);
    out
}

/// Names bound with no written type by a binding node (`∀ x, …`, `∃ x ∈ s, …`, `fun x => …`,
/// `∑ i in s, …`, `{x | …}`).
fn collect_untyped(t: &Tree, out: &mut Vec<String>) {
    let n = t.children.len();
    if is_binding_node(&t.label) && n >= 2 {
        for b in &t.children[..n - 1] {
            if binder_kind(&b.label).is_none() {
                if let Some(name) = binder_name(b) {
                    out.push(name.label.clone());
                }
            }
        }
    }
    for ch in &t.children {
        collect_untyped(ch, out);
    }
}

/// The namespace generalized field notation looks in for a value of type `ty`: the head
/// constant of the type (Lean: `x.f` with `x : T …` is `T.f … x …`).
fn namespace_of(ty: &Tree, binders: &[(&Tree, &Tree, bool)]) -> Option<String> {
    if ty.label == IMP {
        return Some("Function".to_owned());
    }
    // Bundled maps written with their notations, where the namespace's functions elaborate on
    // them: Mathlib/Algebra/Module/LinearMap/Defs.lean (`M →ₗ[R] M₂` is `LinearMap (RingHom.id
    // R) M M₂`; `LinearMap.range`/`ker` take it, Algebra/Module/Submodule/Range.lean and
    // Ker.lean, the identity being `RingHomSurjective`); Mathlib/Algebra/Group/Hom/Defs.lean
    // (`G →* N` is `MonoidHom G N`, `→+` `AddMonoidHom`), whose `ker`/`range`
    // (Algebra/Group/Subgroup/Ker.lean) need groups on both sides: monoids have `mker` and
    // `mrange`, so a monoid's `f.range` stays unread. Not `→+*`: `RingHom.range` needs rings
    // (`rangeS` for semirings) and `RingHom.ker` takes any `RingHomClass`, no dot notation.
    let groups = |classes: &[&str]| {
        ty.children.iter().all(|side| {
            is_leaf(side)
                && binders.iter().any(|&(_, class, _)| {
                    app_head(class).is_some_and(|h| classes.contains(&h))
                        && class.children.len() == 1
                        && class.children[0].label == side.label
                })
        })
    };
    let bundled = match ty.label.as_str() {
        " _ →ₗ[ _ ] _ " => Some("LinearMap"),
        " _ →* _ " if groups(&["Group", "CommGroup"]) => Some("MonoidHom"),
        " _ →+ _ " if groups(&["AddGroup", "AddCommGroup"]) => Some("AddMonoidHom"),
        _ => None,
    };
    if let Some(ns) = bundled {
        return Some(ns.to_owned());
    }
    let head = ty.label.split_whitespace().next()?;
    let numeric = match head {
        "ℕ" => Some("Nat"),
        "ℤ" => Some("Int"),
        "ℚ" => Some("Rat"),
        "ℝ" => Some("Real"),
        "ℂ" => Some("Complex"),
        _ => None,
    };
    if let Some(n) = numeric {
        return is_leaf(ty).then(|| n.to_owned());
    }
    // `Subgroup _ `, `Finset _ `, `Polynomial _ `: a constant applied to its arguments. A leaf
    // head (`G`, a type variable) names no namespace.
    let head = app_head(ty)?;
    let constant = head.chars().next().is_some_and(char::is_uppercase)
        && head.chars().all(|ch| ch.is_alphanumeric() || ch == '.' || ch == '_');
    constant.then(|| head.to_owned())
}

/// The number types, as written and by their full names.
const NUMBERS: [&str; 10] = ["ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "Nat", "Int", "Rat", "Real", "Complex"];

/// [`Carriers::fixed_number_type`]'s names: bound once (never untyped, never rebound) with a
/// number type, and first used as the argument of `|·|`.
fn fixed_names(
    tree: &Tree,
    binders: &[(&Tree, &Tree, bool)],
    untyped: &[String],
) -> Vec<(String, Tree)> {
    binders
        .iter()
        .filter(|&&(name, ty, _)| {
            let name = &name.label;
            is_leaf(ty)
                && NUMBERS.contains(&ty.label.as_str())
                && binders.iter().filter(|(n, _, _)| n.label == *name).count() == 1
                && !untyped.contains(name)
                && first_use_parent(tree, name, 0).is_some_and(|p| p == "| _ |" || p == "abs _ ")
        })
        .map(|&(name, ty, _)| (name.label.clone(), ty.clone()))
        .collect()
}

/// The label of the node above `name`'s first use, left to right, outside binder positions.
fn first_use_parent<'t>(t: &'t Tree, name: &str, depth: usize) -> Option<&'t str> {
    if depth > 200 {
        return None;
    }
    let names_end = if binder_kind(&t.label).is_some() || is_binding_node(&t.label) {
        t.children.len().saturating_sub(1)
    } else {
        0
    };
    for (i, ch) in t.children.iter().enumerate() {
        if is_leaf(ch) {
            if ch.label == name && i >= names_end {
                return Some(&t.label);
            }
        } else if let Some(found) = first_use_parent(ch, name, depth + 1) {
            return Some(found);
        }
    }
    None
}

/// The names of the theorem's binder list, then of the leading `∀`s (and through `→`) of its
/// conclusion: what `intro` makes the binder list.
/// Functions and predicates of numbers that take no instance about their number arguments
/// (Mathlib/Data/Nat/Prime/Defs.lean, Mathlib/Algebra/Group/Even.lean,
/// Mathlib/Algebra/CharP/Defs.lean `CharP (R) [AddMonoidWithOne R] (p : ℕ)`,
/// Mathlib/RingTheory/RootsOfUnity/PrimitiveRoots.lean `IsPrimitiveRoot (ζ : M) (k : ℕ)`,
/// Mathlib/GroupTheory/OrderOfElement.lean, Mathlib/NumberTheory/Padics/PadicVal/Defs.lean
/// `padicValNat (p n : ℕ)`).
const INSTANCE_FREE: [&str; 15] = [
    "Nat.Prime",
    "Prime",
    "Fact",
    "Even",
    "Odd",
    "Nat.Coprime",
    "Nat.gcd",
    "Nat.lcm",
    "Nat.factorial",
    "Nat.choose",
    "Nat.totient",
    "CharP",
    "IsPrimitiveRoot",
    "orderOf",
    "padicValNat",
];

/// [`Carriers::consumed`]'s names: the names anywhere in an argument of an application whose
/// head is not in [`INSTANCE_FREE`] (`GaloisField p n`, `lp E p`, `Fintype.card (ZMod p)`,
/// `ZMod (p + 0)`), or of a notation that is no operator (`ℚ_[p]`, read ` _ [ _ ]`). Operators
/// (` _ + _ `, ` _ ≡ _ [ZMOD _ ]`, `↑ _`), ascriptions and binders take no instance about a
/// name. A whole argument, not only a bare name: instances are found up to unification, and
/// `p + 0 =?= p` holds by `Nat` offsets (Lean's `Meta/ExprDefEq.lean`, `isDefEqOffsetNat`), so
/// `[Fact p.Prime]` is what makes `ZMod (p + 0)` a field.
///
/// `ZMod p` is a commutative ring for every `p` (Mathlib/Data/ZMod/Defs.lean); finite, a field
/// or a domain only through `Fact p.Prime` or `NeZero p` (Mathlib/Data/ZMod/Basic.lean). Its
/// modulus is set apart in `modulus` where `ZMod p` is only a binder's type (`(a : ZMod p)`),
/// and consumed where `ZMod p` is given to anything (`Fintype.card (ZMod p)`, `(ZMod p)ˣ`,
/// `Polynomial (ZMod p)`, `Finset.univ` over it).
fn consumed_names(t: &Tree, out: &mut Vec<String>, modulus: &mut Vec<String>, role: Role) {
    let binder_type = role == Role::BinderType;
    // `IsField R` asks only for `[Semiring R]` (Mathlib/Algebra/Field/IsField.lean: `structure
    // IsField (R : Type u) [Semiring R] : Prop`), which `ZMod p` has for every `p`.
    if let (Some("IsField"), [ring]) = (app_head(t), t.children.as_slice()) {
        if let (Some("ZMod"), [p]) = (app_head(ring), ring.children.as_slice()) {
            super::shapes::leaves(p, modulus);
            return;
        }
    }
    if let (Some("ZMod"), [p]) = (app_head(t), t.children.as_slice()) {
        super::shapes::leaves(p, if binder_type { modulus } else { out });
        return;
    }
    // `whole`: the argument's every name is consumed (an application, `ℚ_[p]`); otherwise,
    // at another node that is no operator (the statement's root among them), a bare name only.
    let (named, whole) = match app_head(t) {
        Some(head) => (!INSTANCE_FREE.contains(&head), true),
        None if t.label == " _ [ _ ]" => (true, true),
        None => {
            let operator = t.label.starts_with(' ')
                || t.label.starts_with(|c: char| "↑¬-|‖([{∀∃∑∏⋃⋂".contains(c))
                || t.label.starts_with("fun");
            (!operator, false)
        }
    };
    // Binders of the theorem and of `∀`/`∃` (not of a `fun`, whose type may flow on:
    // `Finset.univ.filter (fun x : ZMod p => …)` needs `Fintype (ZMod p)`).
    let binds = t.label.ends_with(": _ ") || super::shapes::quantifier(t).is_some();
    let last = t.children.len().saturating_sub(1);
    for (i, ch) in t.children.iter().enumerate() {
        if named && (whole || is_leaf(ch)) {
            super::shapes::leaves(ch, out);
        }
        let role = match role {
            Role::Binder if i == last => Role::BinderType,
            _ if binds && i < last => Role::Binder,
            _ => Role::Other,
        };
        consumed_names(ch, out, modulus, role);
    }
}

/// Where [`consumed_names`] stands: at a binder of the theorem or of a quantifier, at such a
/// binder's type, or elsewhere.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Binder,
    BinderType,
    Other,
}

/// Does the statement use anything that may need a `Fintype`, `Finite` or `NeZero` instance
/// (`Finset.univ`, `∑ x, f x` over a whole type, a cardinality, a filter)? `ZMod p` is finite
/// only through `NeZero p` (`ZMod.fintype`, Mathlib/Data/ZMod/Defs.lean), which `[Fact
/// p.Prime]` gives (`Nat.Prime.one_lt'`, `NeZero.of_gt'`) and `(hp : p.Prime)` does not.
fn needs_finiteness(t: &Tree) -> bool {
    const FINITE_ONLY: [&str; 9] =
        ["univ", "Fintype", "Finite", "card", "filter", "Finset", "∑", "∏", "NeZero"];
    FINITE_ONLY.iter().any(|w| t.label.contains(w)) || t.children.iter().any(needs_finiteness)
}

/// Does the statement use a structure `ZMod p` has only as a field (division, polynomials and
/// their roots, a domain or field instance)? Then its `Fact p.Prime` is needed to elaborate.
fn needs_a_field(t: &Tree) -> bool {
    const FIELD_ONLY: [&str; 8] = [
        "Polynomial",
        "GaloisField",
        "IsDomain",
        "Field",
        "roots",
        "rootSet",
        "IsField",
        "FiniteField",
    ];
    // `IsField R` is a proposition about any semiring, `IsField (ZMod p)` among them.
    let proposition_about_a_semiring = t.label == "IsField _ ";
    t.label == " _ / _ "
        || (!proposition_about_a_semiring && FIELD_ONLY.iter().any(|w| t.label.contains(w)))
        || t.children.iter().any(needs_a_field)
}

/// Does a label or a word name `Fin` or `ZMod`, or a declaration of theirs (`Fin _ `,
/// `Fin.last _ `, `Fin⁇`, `ZMod.val`), not `Finset` or `Fintype`?
pub fn names_wrapping_type(label: &str) -> bool {
    ["Fin", "ZMod"].iter().any(|ty| {
        label
            .strip_prefix(ty)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '.', '⁇', ')']))
    })
}

/// The type variables `α` with a `[Fintype α]` in the theorem's binder list before every binder
/// that writes `Fintype.card α`, where no binder of the statement binds `α` again: the instance
/// is in the local context wherever the rule reads `Fintype.card α`. A binder elaborated before
/// the instance does not see it.
fn fintype_first(tree: &Tree) -> Vec<String> {
    let mut out = Vec::new();
    let Some(list) = tree.children.first().filter(|l| is_binder_list(tree, l, true)) else {
        return out;
    };
    let Some((concl, binders)) = list.children.split_last() else {
        return out;
    };
    for (j, b) in binders.iter().enumerate() {
        let ty = match (b.label.as_str(), binder_kind(&b.label), b.children.as_slice()) {
            ("[ _ ]", _, [ty]) | (_, Some(BinderKind::Instance), [_, ty]) => ty,
            _ => continue,
        };
        let ("Fintype _ ", [alpha]) = (ty.label.as_str(), ty.children.as_slice()) else {
            continue;
        };
        if !is_leaf(alpha) {
            continue;
        }
        let a = alpha.label.as_str();
        let own = |x: &Tree| binder_name(x).is_some_and(|n| n.label == a);
        let owners = binders.iter().filter(|x| own(x)).count();
        let before_ok = binders[..j].iter().all(|x| !fintype_card_of(x, a, 0));
        let rebound =
            binders.iter().any(|x| !own(x) && binds_inside(x, a)) || binds_inside(concl, a);
        if owners == 1 && before_ok && !rebound {
            out.push(a.to_owned());
        }
    }
    out
}

/// Does `t` write `Fintype.card a`?
fn fintype_card_of(t: &Tree, a: &str, depth: usize) -> bool {
    let here = t.label == "Fintype.card _ " && t.children.first().is_some_and(|x| x.label == a);
    here || (depth < 200 && t.children.iter().any(|ch| fintype_card_of(ch, a, depth + 1)))
}

fn theorem_binder_names(tree: &Tree) -> Vec<String> {
    let mut out = Vec::new();
    let mut conclusion = tree;
    if let [list] = tree.children.as_slice() {
        if let Some((concl, binders)) = list.children.split_last() {
            if is_binder_list(tree, list, true) {
                for b in binders {
                    let names = if is_leaf(b) {
                        &b.children[..]
                    } else {
                        b.children.split_last().map_or(&[][..], |(_, n)| n)
                    };
                    out.extend(names.iter().filter(|n| is_leaf(n)).map(|n| n.label.clone()));
                }
                conclusion = concl;
            } else if list.label == ": _ " {
                conclusion = concl;
            } else {
                conclusion = list;
            }
        }
    }
    let mut t = conclusion;
    for _ in 0..200 {
        match (t.label.as_str(), t.children.as_slice()) {
            ("∀ _ , _ ", [binder, body]) => {
                if is_leaf(binder) {
                    out.push(binder.label.clone());
                } else if let Some(n) = binder_name(binder) {
                    out.push(n.label.clone());
                }
                t = body;
            }
            (label, [_, body]) if label == IMP => t = body,
            _ => break,
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Class checks on a name's type (read by the rule tables and the definitions)

/// Multiplicative classes whose instance on `G` makes `G` a monoid (`sq`, `pow_two`).
pub(super) const MONOID_CLASSES: [&str; 14] = concat(&[
    &["Monoid", "CommMonoid", "Group", "CommGroup"],
    &UNITAL_RING_CLASSES,
    &["LinearOrderedField", "LinearOrderedRing", "LinearOrderedCommRing", "OrderedRing"],
]);

/// Classes of several type arguments that give an operator or a numeral (Lean core
/// `Init/Prelude.lean`): a local instance of one is tried before the structure's own.
/// The classes behind `∈`, `∩`, `∪`, `\`, `ᶜ`, `{a, b}` and `⊤` (Init/Core.lean,
/// Mathlib/Order/Notation.lean), and the lattice classes that may supply some of them.
const SET_NOTATION_CLASSES: [&str; 25] = [
    "Min",
    "Max",
    "SemilatticeSup",
    "DistribLattice",
    "Lattice",
    "SemilatticeInf",
    "Bot",
    "OrderBot",
    "Top",
    "OrderTop",
    "BoundedOrder",
    "CompleteLattice",
    "Membership",
    "Inter",
    "Union",
    "SDiff",
    "HasCompl",
    "Insert",
    "Singleton",
    "EmptyCollection",
    "LawfulSingleton",
    "BooleanAlgebra",
    "GeneralizedBooleanAlgebra",
    "CompleteBooleanAlgebra",
    "HasSubset",
];

/// Structure types of Mathlib (not classes) whose terms theorem binders bind:
/// Algebra/Group/Subgroup/Defs.lean, RingTheory/Ideal/Defs.lean, Algebra/Module/Submodule/Defs.lean,
/// Algebra/Ring/Subring/Defs.lean, Algebra/Field/Subfield/Defs.lean,
/// FieldTheory/IntermediateField/Defs.lean, Algebra/Group/Submonoid/Defs.lean,
/// GroupTheory/Sylow.lean (`structure Sylow`). A binder `(H : Subgroup G)` is then no local
/// instance, and gives `G` no operators.
pub(super) const STRUCTURE_TYPES: [&str; 12] = [
    "Subgroup",
    "AddSubgroup",
    "Ideal",
    "Submodule",
    "Subring",
    "Subfield",
    "IntermediateField",
    "Equiv.Perm",
    "Submonoid",
    "AddSubmonoid",
    "Subsemiring",
    "Sylow",
];

const OPERATORS_ON_SEVERAL_TYPES: [&str; 8] =
    ["OfNat", "HMul", "HAdd", "HSub", "HDiv", "HMod", "HPow", "Pow"];

/// Does `name` look like a class that gives its type operators (`Mul`, `Semiring`,
/// `DivisionMonoid`, `NormedField`, `EuclideanDomain`), not a property of it (`IsDomain`,
/// `CharZero`, `NoZeroDivisors`, `Fintype`), nor a structure type (`Subgroup`, whose terms
/// `(H : Subgroup G)` binds)? Read by name, so that an unlisted structure counts: refusing is
/// the safe side.
fn gives_operators(name: &str) -> bool {
    const PARTS: [&str; 18] = [
        "group",
        "monoid",
        "ring",
        "field",
        "semigroup",
        "domain",
        "distrib",
        "mul",
        "add",
        "sub",
        "neg",
        "inv",
        "div",
        "one",
        "zero",
        "pow",
        "ofnat",
        "mod",
    ];
    const PROPERTIES: [&str; 4] = ["Is", "Char", "NoZero", "Subsingleton"];
    let lower = name.to_lowercase();
    !PROPERTIES.iter().any(|p| name.starts_with(p))
        && !STRUCTURE_TYPES.contains(&name)
        && PARTS.iter().any(|p| lower.contains(p))
}

impl Carriers {
    /// Do two different classes that give operators sit on `ty` (`[Group G] [DivisionMonoid G]`,
    /// `[Semiring R] [Mul R]`)? Local instances are tried newest first, so `*`, `⁻¹` or `1` may
    /// each come from either, and no law of one class can be assumed for them.
    pub(super) fn competing_operators(&self, ty: &str) -> bool {
        let mut seen: Option<&str> = None;
        self.instances.iter().any(|(class, t)| {
            if t != ty || !gives_operators(class) {
                return false;
            }
            let other = seen.is_some_and(|s| s != class);
            seen.get_or_insert(class);
            other
        })
    }
}

/// Are the terms all names of one type variable `G` (`(a b : G)`) with an instance `[C G]`,
/// `C` among `classes`, and no other class beside it that gives operators
/// ([`Carriers::competing_operators`])?
pub(super) fn of_one_class_type(terms: &[&Tree], classes: &[&str], c: &Carriers) -> bool {
    let mut ty: Option<&str> = None;
    terms.iter().all(|x| {
        let Some(t) = is_leaf(x).then(|| c.name_type(&x.label)).flatten() else {
            return false;
        };
        if !is_leaf(t) || ty.is_some_and(|seen| seen != t.label) {
            return false;
        }
        ty = Some(&t.label);
        variable_type_of_class(&t.label, classes, c)
    })
}

/// Is `ty` a type variable with an instance of one of `classes` and no other class that gives
/// operators beside it ([`Carriers::competing_operators`])?
/// A type the theorem binds, or leaves to auto-binding (`[Group G]`): not a Mathlib type
/// (`NNReal` with a local `[Group NNReal]`), whose own instances compete with the local one.
pub(super) fn variable_type_of_class(ty: &str, classes: &[&str], c: &Carriers) -> bool {
    let variable = c.theorem_binder(ty) || variable_shaped(ty, Letters::AsciiOrGreek);
    variable && c.has_instance(classes, ty) && !c.competing_operators(ty)
}

/// Is the type named `ty` a monoid, and is it commutative (`Some(true)`: ℕ ℤ ℚ ℝ ℂ, `ZMod n`,
/// a type variable of the statement with a commutative class; `Some(false)`: a type variable
/// with a monoid class only)? `None` where unknown, or where another class that gives operators
/// (`[Mul R]`, `[DivisionMonoid R]`) beside the structure may give `*` or `1` another meaning.
pub(super) fn monoid_commutes(ty: &Tree, c: &Carriers) -> Option<bool> {
    const COMMUTATIVE: [&str; 8] = [
        "CommMonoid",
        "CommGroup",
        "CommSemiring",
        "CommRing",
        "Field",
        "EuclideanDomain",
        "LinearOrderedField",
        "LinearOrderedCommRing",
    ];
    if !is_leaf(ty) {
        return (ty.label == "ZMod _ ").then_some(true);
    }
    // A local `[Mul ℝ]` is tried before Mathlib's instances: `*` is then not the monoid's.
    let local_operators =
        c.instances.iter().any(|(class, t)| *t == ty.label && gives_operators(class));
    if NUMBERS.contains(&ty.label.as_str()) && local_operators {
        return None;
    }
    if NUMBERS.contains(&ty.label.as_str()) || variable_type_of_class(&ty.label, &COMMUTATIVE, c) {
        Some(true)
    } else {
        variable_type_of_class(&ty.label, &MONOID_CLASSES, c).then_some(false)
    }
}

// ---------------------------------------------------------------------------------------------
// Names a collection types

/// Names bound once, without a type, by a binder whose collection decides their type before
/// any other use is elaborated, with that type:
/// - `∀ x ∈ s, p`, `∃ x ∈ s, p` (binder predicates: `∀ x, x ∈ s → p`, the membership first,
///   as written out too),
///   `∑ x ∈ s, f`, `∏ x ∈ s, f` (`Finset.sum s fun x => f`: `s` first);
/// - `Finset.filter (fun x => p) s`, `s.filter (fun x => p)` and `{x ∈ s | p}`, where `p` uses
///   `x` only in relations of numerals and `x` ([`decides_nothing`]): the lambda may come first
///   (Mathlib/Data/Finset/Filter.lean's `elabFinsetBuilderSep` makes `{x ∈ s | p}` into
///   `Finset.filter (fun x ↦ p) s`), and a use that decided another type first would make the
///   term fail to elaborate.
///
/// Membership's element type is an `outParam` (`Membership α (Finset α)`), so `x ∈ s` makes
/// `x : α`. `s` is a name of written type `Set T`/`Finset T` (a substructure such as `Subgroup
/// ℤ` may not exist), `Finset.range n` (ℕ), or an interval whose end decides its type
/// ([`interval_element`]).
fn member_typed_names(tree: &Tree, c: &Carriers) -> Vec<(String, Tree)> {
    let mut found = Vec::new();
    member_binders(tree, c, &mut found, 0);
    let once = |name: &str| {
        c.untyped.iter().filter(|n| *n == name).count() == 1
            && c.untyped_only(name)
            && !c.universe_bound.iter().any(|n| n == name)
    };
    found.retain(|(name, _)| once(name));
    found.dedup_by(|a, b| a.0 == b.0);
    found
}

fn member_binders(t: &Tree, c: &Carriers, out: &mut Vec<(String, Tree)>, depth: usize) {
    if depth > 200 {
        return;
    }
    let mut push = |x: &Tree, s: &Tree| {
        if let Some(ty) = is_leaf(x).then(|| collection_element(s, c)).flatten() {
            out.push((x.label.clone(), ty));
        }
    };
    match (t.label.as_str(), t.children.as_slice()) {
        ("∀ _  _ , _ " | "∃ _  _ , _ " | "∑ _  _ , _ " | "∏ _  _ , _ ", [x, domain, _]) => {
            if let (MEMBERSHIP_BINDER, [s]) = (domain.label.as_str(), domain.children.as_slice()) {
                push(x, s);
            }
        }
        // The same binders written out: `∀ x, x ∈ s → p`, `∃ x, x ∈ s ∧ p`.
        (FORALL_LABEL | EXISTS_LABEL, [x, body]) => {
            let connective = if t.label == FORALL_LABEL { IMP } else { " _ ∧ _ " };
            if let (true, [membership, _]) = (body.label == connective, body.children.as_slice()) {
                if let (" _ ∈ _ ", [y, s]) =
                    (membership.label.as_str(), membership.children.as_slice())
                {
                    if y.label == x.label && is_leaf(y) {
                        push(x, s);
                    }
                }
            }
        }
        ("Finset.filter _  _ ", [f, s]) | (" _ .filter _ ", [s, f]) => {
            if let ("fun _ => _ ", [x, body]) = (f.label.as_str(), f.children.as_slice()) {
                if decides_nothing(&x.label, body, 0) {
                    push(x, s);
                }
            }
        }
        ("{ _ | _ }", [binder, body]) => {
            if let (" _ ∈ _ ", [x, s]) = (binder.label.as_str(), binder.children.as_slice()) {
                if decides_nothing(&x.label, body, 0) {
                    push(x, s);
                }
            }
        }
        _ => {}
    }
    for ch in &t.children {
        member_binders(ch, c, out, depth + 1);
    }
}

const FORALL_LABEL: &str = "∀ _ , _ ";
const EXISTS_LABEL: &str = "∃ _ , _ ";

/// The domain of a binder predicate `∀ x ∈ s`.
const MEMBERSHIP_BINDER: &str = "∈ _ ";

/// The element type of a collection term, where the term itself decides it.
fn collection_element(s: &Tree, c: &Carriers) -> Option<Tree> {
    if is_leaf(s) {
        // `Set T`/`Finset T` exist for every `T`; a substructure (`Subgroup ℤ`) may not.
        let ty = c.name_type(&s.label)?;
        return matches!(ty.label.as_str(), "Set _ " | "Finset _ ")
            .then(|| member_type(ty).cloned())
            .flatten();
    }
    interval_element(s, c)
}

/// The element type of `Finset.range n` (ℕ) or of an interval (`Finset.Icc a b`, `Set.Ioo a
/// b`, …) whose ends decide it, for a head the statement does not bind.
pub(super) fn interval_element(s: &Tree, c: &Carriers) -> Option<Tree> {
    let head = app_head(s)?;
    if c.binds(head) {
        return None;
    }
    match (head, s.children.as_slice()) {
        // `Finset.range : ℕ → Finset ℕ` (Mathlib/Data/Finset/Range.lean).
        ("Finset.range", [_]) => Some(Tree::leaf("ℕ")),
        // `Finset.Icc (a b : α) : Finset α` (Mathlib/Order/Interval/Finset/Defs.lean),
        // `Set.Icc (a b : α) : Set α` (Mathlib/Order/Interval/Set/Defs.lean): a numeral end
        // decides nothing (the binder's uses might), a name of written number type does.
        (
            "Finset.Icc" | "Finset.Ico" | "Finset.Ioc" | "Finset.Ioo" | "Set.Icc" | "Set.Ico"
            | "Set.Ioc" | "Set.Ioo",
            [a, b],
        ) => {
            let end = |e: &Tree| -> Option<Option<Tree>> {
                if literal(e).is_some() {
                    return Some(None);
                }
                // An ascribed numeral end (`Set.Ioo (0 : ℝ) 1`) is of its ascription's type.
                let (k, ty) = match (e.label.as_str(), e.children.as_slice()) {
                    ("( _ : _ )", [k, ty]) => (literal(k).map(|_| ()), ty),
                    _ => (Some(()), is_leaf(e).then(|| c.name_type(&e.label)).flatten()?),
                };
                k?;
                (is_leaf(ty) && NUMBERS.contains(&ty.label.as_str())).then(|| Some(ty.clone()))
            };
            match (end(a)?, end(b)?) {
                (Some(x), Some(y)) if x == y => Some(x),
                (Some(x), None) | (None, Some(x)) => Some(x),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Is `f` a function argument whose elaboration cannot decide its domain before a later
/// argument does: a name, a lambda with a written binder type, or a lambda whose body decides
/// nothing ([`decides_nothing`])? `Finset.filter p s` elaborates `p` before `s`.
pub(super) fn leaves_domain_open(f: &Tree) -> bool {
    match (f.label.as_str(), f.children.as_slice()) {
        ("fun _ => _ ", [x, body]) => {
            (x.label == " _ : _ " && x.children.len() == 2)
                || (is_leaf(x) && decides_nothing(&x.label, body, 0))
        }
        _ => is_leaf(f),
    }
}

/// Does `body` use `name` only inside relations (`=`, `≠`, `<`, `≤`, `>`, `≥`, `∣`) whose
/// operands are arithmetic of numerals and `name`, joined by `∧ ∨ ¬ → ↔`? Such a use leaves
/// the type to unification (`binrel%` with leaves of unknown type only unifies them).
fn decides_nothing(name: &str, body: &Tree, depth: usize) -> bool {
    if depth > 200 {
        return false;
    }
    if !super::shapes::mentions(body, name) {
        return true;
    }
    let label = body.label.as_str();
    if [" _ ∧ _ ", " _ ∨ _ ", NOT_LABEL, IMP, " _ ↔ _ "].contains(&label) {
        return body.children.iter().all(|ch| decides_nothing(name, ch, depth + 1));
    }
    let relation = [" _ = _ ", " _ ≠ _ ", " _ < _ ", " _ ≤ _ ", " _ > _ ", " _ ≥ _ ", " _ ∣ _ "];
    relation.contains(&label)
        && body.children.len() == 2
        && body.children.iter().all(|ch| arithmetic_of(name, ch, depth + 1))
}

const NOT_LABEL: &str = "¬";

fn arithmetic_of(name: &str, t: &Tree, depth: usize) -> bool {
    if depth > 200 {
        return false;
    }
    if is_leaf(t) {
        return t.label == name || literal(t).is_some();
    }
    [ADD, SUB, MUL, DIV, POW, NEG, " _ % _ "].contains(&t.label.as_str())
        && t.children.iter().all(|ch| arithmetic_of(name, ch, depth + 1))
}

/// The type of the members of a collection of written type `ty`: its element type, an
/// `outParam` of `Membership` for `Set`/`Finset`, and of `SetLike` for Mathlib's substructures
/// (Mathlib/Data/SetLike/Basic.lean: `class SetLike (A : Type*) (B : outParam Type*)`;
/// `Subgroup G`, `AddSubgroup G`, `Submonoid M`, `AddSubmonoid M` and `Ideal R` are `SetLike`
/// over their argument, `Submodule R M` over `M`).
pub fn member_type(ty: &Tree) -> Option<&Tree> {
    match (ty.label.as_str(), ty.children.as_slice()) {
        (
            "Set _ " | "Finset _ " | "Subgroup _ " | "AddSubgroup _ " | "Submonoid _ "
            | "AddSubmonoid _ " | "Ideal _ ",
            [element],
        ) => Some(element),
        ("Submodule _  _ ", [_, module]) => Some(module),
        _ => None,
    }
}
