//! Canonical rules of `transted-lite` that depend on the type the terms live in (`not_lt` needs a
//! linear order, `sub_nonneg` a group, `Nat.pos_iff_ne_zero` the naturals), the statement's
//! [`Carriers`] that gate them, and the type-free unfoldings of membership and negation.
//!
//! Owns only these rules and the carrier analysis; they are called from
//! [`super::canonicalize`] (through `canonical_at`) and never by the search. Every rule here
//! rewrites in one fixed direction and makes a term no larger in a well-founded sense (negations
//! move inwards, memberships unfold, `≤` on ℕ/ℤ becomes `<`), so the canonical fixpoint ends.
//!
//! The gate is per subterm: a rule applies only when the terms it rewrites have a number type
//! ([`super::elab::carrier`]) among those it is sound on; unknown means no. [`Carriers`] keeps
//! what the statement's binders say (each name's written type, for elaboration-lite). A function type contributes its domain and codomain, and an order
//! rule is refused when an operand is a function name (`f < g` is the pointwise, partial order).
//! A cast `↑` (target unknown), a set, a product (`ℝ × ℝ`, except as a function's domain), a
//! type variable or any other type makes the statement
//! "other" and turns every gated rule off. Untyped bound names take their type from the rest
//! of the statement (or default to ℕ like numerals), so they add nothing.

use super::elab;
use super::elab::{carrier, Num};
use super::norm_num::MAX_LITERAL;
use super::quantifiers::{classify_qbinder, QBinder};
use super::shapes::{
    app_head, binder_kind, binder_name, binds_inside, collect_binders, is_binding_node, is_leaf,
    is_prop_shaped, is_universe, leaves, literal, mentions, node2, quant_label, quantifier, Quant,
    ADD, AND, EQ, EXISTS, EXPLICIT, FORALL, GE, GT, IMP, LE, LT, MUL, NE, NOT, UNKNOWN_TYPE,
};
use super::substitution::substitute;
use crate::trees::Tree;

/// The carrier of `terms` elaborated together, when it is one of `among`.
fn carrier_in(terms: &[&Tree], c: &Carriers, among: &[Num]) -> Option<Num> {
    carrier(terms, c).filter(|n| among.contains(n))
}

const DISCRETE: [Num; 2] = [Num::Nat, Num::Int];

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
    functions: Vec<String>,
    /// Each bound name with the namespace of its type's head (`(p : ℕ)` → `Nat`,
    /// `(H : Subgroup G)` → `Subgroup`, `(f : ℝ → ℝ)` → `Function`), for dot notation. A name
    /// bound twice with different heads is left out.
    namespaces: Vec<(String, Option<String>)>,
    /// Each bound name with its written type (`(f : ℝ → ℕ → ℝ)`, `(S : Set ℝ)`), for
    /// [`infer_binder_type`]. A name bound twice with different types is left out.
    binder_types: Vec<(String, Option<Tree>)>,
    /// Names some binder binds without a written type (`∀ x, …`, `fun x => …`, `{x | …}`,
    /// `(x : _)`): their type at a use is not known (see [`Carriers::name_type`]).
    untyped: Vec<String>,
    /// Instance binders on a type variable, as (class, type): `[Group G]` → (`Group`, `G`).
    instances: Vec<(String, String)>,
}

impl Carriers {
    /// Classify every binder type, ascription and cast in `tree`.
    pub fn of(tree: &Tree) -> Carriers {
        let mut c = Carriers::default();
        let mut binders: Vec<(&Tree, &Tree, bool)> = Vec::new();
        collect_binders(tree, &mut binders);
        for (name, ty, instance) in binders {
            // A class argument (`[LinearOrder α]`) names a type that is itself a binder.
            if ty.label == UNKNOWN_TYPE && !name.hypothesis_freecost {
                c.untyped.push(name.label.clone());
            }
            if let (true, Some(class), [arg]) = (instance, app_head(ty), ty.children.as_slice()) {
                if is_leaf(arg) {
                    c.instances.push((class.to_owned(), arg.label.clone()));
                }
            }
            if instance
                || name.hypothesis_freecost
                || is_universe(ty)
                || is_prop_shaped(ty)
                || ty.label == UNKNOWN_TYPE
            {
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
            let head = namespace_of(ty);
            match c.namespaces.iter_mut().find(|(n, _)| *n == name.label) {
                Some((_, known)) if *known != head => *known = None,
                Some(_) => {}
                None => c.namespaces.push((name.label.clone(), head)),
            }
        }
        c.scan_terms(tree);
        collect_untyped(tree, &mut c.untyped);
        if !(c.nat || c.int || c.rat || c.real || c.complex || c.other) {
            // Only numerals and untyped names: Lean elaborates numerals at ℕ by default.
            c.nat = true;
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
        for ch in &t.children {
            self.scan_terms(ch);
        }
    }

    /// The written type of a bound name, when the statement binds it with that one type and
    /// never without a type (elaboration-lite, [`elab::type_of`]).
    pub fn name_type(&self, name: &str) -> Option<&Tree> {
        if self.untyped.iter().any(|n| n == name) {
            return None;
        }
        self.binder_types
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, ty)| ty.as_ref())
    }

    /// Does the statement bind `name` (with a type or without)?
    pub fn binds(&self, name: &str) -> bool {
        self.untyped.iter().any(|n| n == name) || self.binder_types.iter().any(|(n, _)| n == name)
    }

    /// Does the statement have an instance binder `[C ty]` with `C` among `classes`?
    pub fn has_instance(&self, classes: &[&str], ty: &str) -> bool {
        self.instances
            .iter()
            .any(|(c, t)| t == ty && classes.contains(&c.as_str()))
    }

    /// The namespace of a bound name's type, when known and unambiguous.
    fn namespace(&self, name: &str) -> Option<&str> {
        self.namespaces
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, h)| h.as_deref())
    }

    /// Is `s` a `Set`/`Finset`: a name bound with that type, or `∩ ∪ \` of such (they keep
    /// their operands' type)?
    pub(crate) fn is_set(&self, s: &Tree) -> bool {
        if is_leaf(s) {
            return self
                .binder_types
                .iter()
                .find(|(n, _)| *n == s.label)
                .and_then(|(_, ty)| ty.as_ref())
                .is_some_and(|ty| ["Set _ ", "Finset _ "].contains(&ty.label.as_str()));
        }
        matches!(s.label.as_str(), " _ ∩ _ " | " _ ∪ _ " | " _ \\ _ ")
            && s.children.iter().any(|x| self.is_set(x))
    }

    /// The element type of a name bound as a `Set T`/`Finset T` (`T`).
    fn element_type(&self, s: &Tree) -> Option<&Tree> {
        if !is_leaf(s) {
            return None;
        }
        self.binder_types
            .iter()
            .find(|(n, _)| *n == s.label)
            .and_then(|(_, ty)| ty.as_ref())
            .filter(|ty| ["Set _ ", "Finset _ "].contains(&ty.label.as_str()))
            .and_then(|ty| ty.children.first())
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
            let operands = if label == "( _ : _ )" {
                &t.children[..1]
            } else {
                &t.children[..]
            };
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
        let collection = [
            "divisors",
            "digits",
            "primeFactors",
            "factors",
            "properDivisors",
        ]
        .iter()
        .any(|name| head.ends_with(name));
        let number_function = ["Real.", "Nat.", "Int.", "Rat.", "Finset.card", "Nat.card"]
            .iter()
            .any(|ns| head.starts_with(ns));
        number_function && !collection
    }
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
fn namespace_of(ty: &Tree) -> Option<String> {
    if ty.label == IMP {
        return Some("Function".to_owned());
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
        && head
            .chars()
            .all(|ch| ch.is_alphanumeric() || ch == '.' || ch == '_');
    constant.then(|| head.to_owned())
}

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
    let numeric = ["Nat", "Int", "Rat", "Real", "Complex"].contains(&namespace);
    // `s.sum f` is `Finset.sum s f`: big operators take the collection first.
    let collection_first =
        ["Finset", "List", "Multiset"].contains(&namespace) && ["sum", "prod"].contains(&field);
    if extra > 0 && !numeric && !collection_first {
        return None;
    }
    let label = format!("{namespace}.{field}{}", " _ ".repeat(t.children.len()));
    Some(Tree::node(label, t.children.clone()))
}

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
pub fn infer_binder_type(name: &str, body: &Tree, c: &Carriers) -> Option<Tree> {
    let mut uses = Uses::default();
    argument_types(name, body, c, &mut uses);
    uses.found
        .filter(|_| !uses.conflict && uses.first_decides == Some(true))
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
        let rebinds_here = t.children[..n - 1]
            .iter()
            .any(|b| binder_name(b).is_some_and(|x| x.label == name));
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
    let relation = [EQ, NE, LT, LE, GT, GE].contains(&t.label.as_str());
    if relation && mentions(t, name) && t.children.iter().all(|ch| numerals_and(name, ch)) {
        return;
    }
    let type_of = |n: &str| {
        c.binder_types
            .iter()
            .find(|(b, _)| b == n)
            .and_then(|(_, ty)| ty.as_ref())
    };
    let decide = |ty: Option<&Tree>, uses: &mut Uses| {
        uses.occurrence(true);
        match ty {
            Some(ty) if uses.found.as_ref().is_none_or(|f| f == ty) => {
                uses.found = Some(ty.clone())
            }
            _ => uses.conflict = true,
        }
    };
    if let (MEM, [x, set]) = (t.label.as_str(), t.children.as_slice()) {
        if is_leaf(x) && x.label == name {
            let element = is_leaf(set)
                .then(|| type_of(&set.label))
                .flatten()
                .filter(|ty| ["Set _ ", "Finset _ "].contains(&ty.label.as_str()))
                .map(|ty| &ty.children[0]);
            decide(element, uses);
        }
    } else if let Some(f) = app_head(t) {
        let ty = type_of(f).filter(|ty| ty.label == IMP);
        if let Some(ty) = ty {
            // Arguments are elaborated in order: one mentioning `x` before its first plain
            // use as an argument comes first.
            let first_plain = t
                .children
                .iter()
                .position(|a| is_leaf(a) && a.label == name);
            let earlier = first_plain.unwrap_or(t.children.len());
            if t.children[..earlier].iter().any(|a| mentions(a, name)) {
                uses.occurrence(false);
            }
            let mut domain = Some(ty);
            for arg in &t.children {
                let here = domain.filter(|d| d.label == IMP && d.children.len() == 2);
                if is_leaf(arg) && arg.label == name {
                    decide(here.map(|d| &d.children[0]), uses);
                }
                domain = here.map(|d| &d.children[1]);
            }
        }
    }
    for ch in &t.children {
        argument_types(name, ch, c, uses);
    }
}

/// The namespace of a dot-notation receiver's type: a bound name's, or that of `a ⊓ b` / `a ⊔ b`
/// when both operands share it (`Inf.inf`/`Sup.sup : α → α → α` keep the type: `(H ⊓ K).Normal`
/// is `Subgroup.Normal (H ⊓ K)` for subgroups `H K`).
fn receiver_namespace<'c>(receiver: &Tree, c: &'c Carriers) -> Option<&'c str> {
    if is_leaf(receiver) {
        return c.namespace(&receiver.label);
    }
    // Mathlib functions whose result type is known: `(Nat.digits 10 n).sum` is a `List.sum`.
    const RETURNS: [(&str, &str); 14] = [
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
    ];
    if let Some(head) = app_head(receiver) {
        if let Some((_, ns)) = RETURNS.iter().find(|(f, _)| *f == head) {
            return Some(ns);
        }
    }
    match (receiver.label.as_str(), receiver.children.as_slice()) {
        (" _ ⊓ _ " | " _ ⊔ _ " | " _ ∩ _ " | " _ ∪ _ " | " _ \\ _ ", [a, b]) => {
            let ns = receiver_namespace(a, c)?;
            (receiver_namespace(b, c)? == ns).then_some(ns)
        }
        // A compound receiver of a known number type (elaboration-lite: `(f x).natAbs` with
        // `(f : ℕ → ℤ)`, `(a + b).sqrt` with `(a b : ℕ)`): Lean elaborates the receiver
        // first, with no expected type, and looks the field up in its type's namespace.
        // Numerals alone (`(2 + 3).sqrt`) have no type there yet: not unfolded.
        _ => match elab::type_of(receiver, c) {
            elab::Ty::Num(n) => Some(match n {
                elab::Num::Nat => "Nat",
                elab::Num::Int => "Int",
                elab::Num::Rat => "Rat",
                elab::Num::Real => "Real",
                elab::Num::Complex => "Complex",
            }),
            _ => None,
        },
    }
}

/// The bound name `funext_iff` introduces between two function names (a name no source
/// text can write; bound names rename freely, so any fresh one would do).
const POINT: &str = "x✝";

const SUB: &str = " _ - _ ";
const DIV: &str = " _ / _ ";
const POW: &str = " _ ^ _ ";
const MEM: &str = " _ ∈ _ ";
const NEG: &str = "-";

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
    // A written binder type must be the element type: `∃ n : ℕ, n ∈ s` with `(s : Set ℝ)` is
    // `∃ n : ℕ, ↑n ∈ s` (a natural in `s`), not `s ≠ ∅`.
    let plain = is_leaf(x)
        || (x.label == EXPLICIT
            && x.children.len() == 2
            && c.element_type(set).is_some_and(|e| *e == x.children[1]));
    (named && plain && !mentions(set, &y.label) && c.is_set(set))
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
    Some((
        rule,
        node2(to, binder.clone(), Tree::node(NOT, vec![body.clone()])),
    ))
}

/// `Set.mem_setOf_eq` at a membership node.
pub(super) fn membership_set_of(t: &Tree) -> Option<(&'static str, Tree)> {
    let (MEM, [x, s]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    set_of(x, s)
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
pub(super) fn funext_rule(t: &Tree, ctx: &super::table::Ctx) -> Option<(&'static str, Tree)> {
    let (EQ, [a, b]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    if let Some(pointwise) = function_equation(a, b) {
        return Some(("funext_iff", pointwise));
    }
    let c = ctx.carriers;
    let named = |t: &Tree| is_leaf(t) && c.functions.contains(&t.label);
    if named(a) && named(b) && a.label != b.label {
        let x = Tree::leaf(POINT);
        let apply = |f: &Tree| Tree::node(format!("{} _ ", f.label), vec![x.clone()]);
        let pointwise = node2(EQ, apply(a), apply(b));
        return Some(("funext_iff", node2(FORALL, x.clone(), pointwise)));
    }
    None
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
    let mut eqs = a
        .children
        .iter()
        .zip(&b.children)
        .map(|(x, y)| node2(EQ, x.clone(), y.clone()))
        .rev();
    let last = eqs.next()?;
    Some(eqs.fold(last, |acc, e| node2(AND, e, acc)))
}

/// funext_iff (then β-reduction): `f = fun x => e` ↔ `∀ x, f x = e`, either side of `=`,
/// for a function named by a leaf and a one-binder `fun` whose bound name is not that leaf.
fn function_equation(a: &Tree, b: &Tree) -> Option<Tree> {
    let is_fun = |t: &Tree| t.label == "fun _ => _ " && t.children.len() == 2;
    let (f, lambda, f_left) = if is_leaf(a) && is_fun(b) {
        (a, b, true)
    } else if is_leaf(b) && is_fun(a) {
        (b, a, false)
    } else {
        return None;
    };
    let [binder, body] = lambda.children.as_slice() else {
        return None;
    };
    if !matches!(classify_qbinder(binder), Some(QBinder::Plain)) {
        return None;
    }
    let x = binder_name(binder)?;
    if x.label == f.label || literal(f).is_some() {
        return None;
    }
    let applied = Tree::node(format!("{} _ ", f.label), vec![x.clone()]);
    let eq = if f_left {
        node2(EQ, applied, body.clone())
    } else {
        node2(EQ, body.clone(), applied)
    };
    Some(node2(FORALL, binder.clone(), eq))
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

/// Set.mem_setOf_eq : a ∈ {x | p x} = p a, when substituting `a` captures no name.
fn set_of(a: &Tree, s: &Tree) -> Option<(&'static str, Tree)> {
    if s.label != "{ _ | _ }" {
        return None;
    }
    let [binder, body] = s.children.as_slice() else {
        return None;
    };
    if !matches!(classify_qbinder(binder), Some(QBinder::Plain)) {
        return None;
    }
    let var = binder_name(binder)?;
    let mut names = Vec::new();
    leaves(a, &mut names);
    if names.iter().any(|n| binds_inside(body, n)) {
        return None;
    }
    Some(("Set.mem_setOf_eq", substitute(body, &var.label, a)))
}

#[cfg(test)]
mod tests {
    use super::super::canonicalize;
    use super::{bound_shifts, Carriers};
    use crate::distance::{ted, CostModel};
    use crate::trees::parse::{parse_statement, Header};
    use crate::trees::Tree;

    fn canon(text: &str) -> (Tree, Vec<&'static str>) {
        let t = parse_statement(text, &Header::default())
            .unwrap_or_else(|e| panic!("test statement does not parse: {e}: {text}"))
            .tree;
        let (c, log) = canonicalize(&t);
        (c, log.iter().map(|a| a.rule).collect())
    }

    fn distance(a: &str, b: &str) -> u32 {
        ted(&canon(a).0, &canon(b).0, CostModel { free_rename: true })
    }

    fn same(a: &str, b: &str) {
        assert_eq!(
            distance(a, b),
            0,
            "expected equal canonical forms:\n{a}\n{b}"
        );
    }

    fn differ(a: &str, b: &str) {
        assert!(distance(a, b) > 0, "must stay apart:\n{a}\n{b}");
    }

    fn uses(text: &str, rule: &str) -> bool {
        canon(text).1.contains(&rule)
    }

    #[test]
    fn negated_orders_flip_on_linear_orders_only() {
        same("theorem t (x : ℝ) : ¬ (x < 2)", "theorem t (x : ℝ) : 2 ≤ x");
        same("theorem t (n : ℤ) : ¬ (n ≤ 2)", "theorem t (n : ℤ) : 2 < n");
        same(
            "theorem t (x : ℚ) (h : ¬ x ≥ 1) : x = 0",
            "theorem t (x : ℚ) (h : x < 1) : x = 0",
        );
        // Sets, complex numbers, type variables and functions are only partially ordered.
        assert!(!uses("theorem t (A B : Set ℕ) : ¬ (A < B)", "not_lt"));
        assert!(!uses("theorem t (z : ℂ) : ¬ (z ≤ 1)", "not_le"));
        assert!(!uses(
            "theorem t (α : Type*) [Preorder α] (a b : α) : ¬ (a < b)",
            "not_lt"
        ));
        assert!(!uses("theorem t (f g : ℕ → ℝ) : ¬ (f ≤ g)", "not_le"));
        // The values of a function are in its codomain: fine.
        assert!(uses("theorem t (f : ℕ → ℝ) : ¬ (f 1 ≤ 2)", "not_le"));
        // Sets built inline are not numbers, whatever the binders say.
        assert!(!uses(
            "theorem t (n : ℕ) : ¬ (Finset.range n < Finset.range 4)",
            "not_lt"
        ));
        assert!(!uses(
            "theorem t (n : ℕ) : Nat.divisors n ≠ 0",
            "Nat.pos_iff_ne_zero"
        ));
        assert!(uses(
            "theorem t (n : ℕ) : ¬ ((Finset.range n).card + Nat.gcd n 2 < 4)",
            "not_lt"
        ));
        // `¬ a < b` is not `a ≥ b` turned around.
        differ("theorem t (x : ℝ) : ¬ (x < 2)", "theorem t (x : ℝ) : x ≤ 2");
    }

    #[test]
    fn strict_and_weak_bounds_meet_on_naturals_and_integers_only() {
        same(
            "theorem t (n : ℕ) (h : 0 < n) : n = n",
            "theorem t (n : ℕ) (h : n ≠ 0) : n = n",
        );
        same(
            "theorem t (n : ℕ) (h : n ≥ 1) : n = n",
            "theorem t (n : ℕ) (h : n > 0) : n = n",
        );
        same(
            "theorem t (a b : ℤ) : a + 1 ≤ b",
            "theorem t (a b : ℤ) : a < b",
        );
        same(
            "theorem t (a b : ℕ) : a < b + 1",
            "theorem t (a b : ℕ) : a ≤ b",
        );
        same("theorem t (n : ℕ) : ¬ (n = 0)", "theorem t (n : ℕ) : 0 < n");
        // On ℤ, `n ≠ 0` is not `0 < n`; on ℝ, `1 ≤ x` is not `0 < x`.
        differ("theorem t (n : ℤ) : n ≠ 0", "theorem t (n : ℤ) : 0 < n");
        differ("theorem t (x : ℝ) : 1 ≤ x", "theorem t (x : ℝ) : 0 < x");
        differ("theorem t (x : ℝ) : x ≤ 9", "theorem t (x : ℝ) : x < 10");
        differ("theorem t (x : ℚ) : x + 1 ≤ y", "theorem t (x : ℚ) : x < y");
        // Per subterm: `n ≠ 0` is about a natural even where the statement also mentions ℝ.
        assert!(uses(
            "theorem t (n : ℕ) (x : ℝ) : n ≠ 0",
            "Nat.pos_iff_ne_zero"
        ));
        assert!(!uses("theorem t (n : ℕ) : 1 ≤ (n : ℝ)", "Nat.succ_le_iff"));
        assert!(!uses("theorem t (n : ℕ) : 1 ≤ ↑n", "Nat.succ_le_iff"));
        // ℕ subtraction and numerals: `a - b = 0` is not `a = b` there.
        assert!(!uses("theorem t (a b : ℕ) : a - b = 0", "sub_eq_zero"));
        // Numerals alone are natural numbers.
        assert!(uses("theorem t : ¬ (2 = 0)", "Nat.pos_iff_ne_zero"));
    }

    /// The rules and results of the numeral-bound moves on the conclusion of `text`.
    fn shifts(text: &str) -> Vec<(&'static str, Tree)> {
        let (t, _) = canon(text);
        let list = &t.children[0];
        let concl = list.children.last().expect("a conclusion");
        bound_shifts(concl, &Carriers::of(&t))
    }

    #[test]
    fn numeral_bounds_shift_by_one_as_moves_on_naturals_and_integers() {
        let target = |text: &str| canon(text).0.children[0].children.last().cloned();
        let two_le = shifts("theorem t (n : ℤ) : 2 ≤ n");
        assert_eq!(two_le.len(), 1, "{two_le:?}");
        assert_eq!(two_le[0].0, "Int.lt_iff_add_one_le");
        assert_eq!(
            Some(two_le[0].1.clone()),
            target("theorem t (n : ℤ) : 1 < n")
        );
        let le_nine = shifts("theorem t (n : ℕ) : n ≤ 9");
        assert_eq!(le_nine[0].0, "Nat.lt_add_one_iff");
        assert_eq!(
            Some(le_nine[0].1.clone()),
            target("theorem t (n : ℕ) : n < 10")
        );
        // Every shift has its inverse.
        let back = shifts("theorem t (n : ℕ) : n < 10");
        assert!(back
            .iter()
            .any(|(_, t)| Some(t.clone()) == target("theorem t (n : ℕ) : n ≤ 9")));
        // Not on ℝ or ℚ (`x ≤ 9` is not `x < 10`), not `x < 0` to `x ≤ -1`.
        assert!(shifts("theorem t (x : ℝ) : x ≤ 9").is_empty());
        assert!(shifts("theorem t (x : ℚ) : 2 ≤ x").is_empty());
        assert!(shifts("theorem t (n : ℕ) : n < 0").is_empty());
    }

    #[test]
    fn differences_compare_as_their_operands_in_groups_not_on_naturals() {
        same(
            "theorem t (a b : ℝ) : 0 ≤ a - b",
            "theorem t (a b : ℝ) : b ≤ a",
        );
        same(
            "theorem t (a b : ℤ) : 0 < a - b",
            "theorem t (a b : ℤ) : b < a",
        );
        same(
            "theorem t (a b : ℚ) : a - b ≤ 0",
            "theorem t (a b : ℚ) : a ≤ b",
        );
        same(
            "theorem t (a b : ℝ) : a - b < 0",
            "theorem t (a b : ℝ) : a < b",
        );
        same(
            "theorem t (a b : ℂ) : a - b = 0",
            "theorem t (a b : ℂ) : a = b",
        );
        same(
            "theorem t (a b : ℝ) : a - b ≠ 0",
            "theorem t (a b : ℝ) : a ≠ b",
        );
        // ℕ subtraction truncates: `0 ≤ a - b` always holds, `a - b = 0` is `a ≤ b`.
        differ(
            "theorem t (a b : ℕ) : 0 ≤ a - b",
            "theorem t (a b : ℕ) : b ≤ a",
        );
        differ(
            "theorem t (a b : ℕ) : a - b = 0",
            "theorem t (a b : ℕ) : a = b",
        );
        // ℂ is not linearly ordered.
        assert!(!uses("theorem t (a b : ℂ) : 0 ≤ a - b", "sub_nonneg"));
        // Not the other operand order (a numeral, since bound names rename freely).
        same("theorem t (a : ℝ) : 0 ≤ a - 2", "theorem t (a : ℝ) : 2 ≤ a");
        differ("theorem t (a : ℝ) : 0 ≤ a - 2", "theorem t (a : ℝ) : a ≤ 2");
    }

    #[test]
    fn ring_identities_on_numbers() {
        same(
            "theorem t (x : ℝ) : x * x = 4",
            "theorem t (x : ℝ) : x ^ 2 = 4",
        );
        same(
            "theorem t (n : ℕ) : n + n = 4",
            "theorem t (n : ℕ) : 2 * n = 4",
        );
        same(
            "theorem t (a b : ℤ) : a + -b = 4",
            "theorem t (a b : ℤ) : a - b = 4",
        );
        same("theorem t (a : ℝ) : - -a = 4", "theorem t (a : ℝ) : a = 4");
        same(
            "theorem t (a b : ℝ) : a * b⁻¹ = 4",
            "theorem t (a b : ℝ) : a / b = 4",
        );
        same(
            "theorem t (a b : ℚ) : b⁻¹ * a = 4",
            "theorem t (a b : ℚ) : a / b = 4",
        );
        // ℕ and ℤ division is floor division: `a * (1 / b)` is not `a / b`.
        differ(
            "theorem t (a b : ℕ) : a * (1 / b) = 4",
            "theorem t (a b : ℕ) : a / b = 4",
        );
        differ(
            "theorem t (a b : ℤ) : a * (1 / b) = 4",
            "theorem t (a b : ℤ) : a / b = 4",
        );
        // Different operands are not squared; `x ^ 3` is not `x * x`.
        differ(
            "theorem t (x y : ℝ) : x * y = 4",
            "theorem t (x y : ℝ) : x ^ 2 = 4",
        );
        differ(
            "theorem t (x : ℝ) : x * x = 4",
            "theorem t (x : ℝ) : x ^ 3 = 4",
        );
        // Matrices and other types keep what they wrote.
        assert!(!uses(
            "theorem t (A : Matrix (Fin 2) (Fin 2) ℝ) : A + A = 0",
            "two_mul"
        ));
        // Sets built inline: `s + s` is not `2 * s` pointwise.
        assert!(!uses(
            "theorem t (n : ℕ) : Finset.range n + Finset.range n = Finset.range n",
            "two_mul"
        ));
    }

    #[test]
    fn memberships_unfold() {
        same(
            "theorem t (x : ℕ) (h : x ∈ Finset.Icc 1 9) : x = x",
            "theorem t (x : ℕ) (h₀ : 1 ≤ x) (h₁ : x ≤ 9) : x = x",
        );
        same(
            "theorem t (x : ℝ) : x ∈ Set.Ioo 0 1",
            "theorem t (x : ℝ) : 0 < x ∧ x < 1",
        );
        same(
            "theorem t (x : ℝ) : x ∈ Set.Ico 0 1",
            "theorem t (x : ℝ) : 0 ≤ x ∧ x < 1",
        );
        same(
            "theorem t (x : ℝ) : x ∈ Ioc 0 1",
            "theorem t (x : ℝ) : 0 < x ∧ x ≤ 1",
        );
        same(
            "theorem t (x : ℝ) : x ∈ Set.Ioi 0",
            "theorem t (x : ℝ) : 0 < x",
        );
        same(
            "theorem t : ∀ n ∈ Finset.range 5, n ^ 2 < 30",
            "theorem t : ∀ n, n < 5 → n ^ 2 < 30",
        );
        same(
            "theorem t (x : ℝ) : x ∈ {y : ℝ | 0 < y ∧ y ^ 2 = 2}",
            "theorem t (x : ℝ) : 0 < x ∧ x ^ 2 = 2",
        );
        // Open and closed ends differ; `range` of a function is an image, not `< n`.
        differ(
            "theorem t (x : ℝ) : x ∈ Set.Icc 0 1",
            "theorem t (x : ℝ) : 0 < x ∧ x < 1",
        );
        assert!(!uses(
            "theorem t (f : ℕ → ℕ) (y : ℕ) : y ∈ range f",
            "Finset.mem_range"
        ));
        // Substituting would capture the bound `k`.
        assert!(!uses(
            "theorem t (k : ℕ) : k ∈ {n : ℕ | ∃ k, n = 2 * k + 1}",
            "Set.mem_setOf_eq"
        ));
    }

    #[test]
    fn tuple_equations_split_componentwise() {
        same(
            "theorem t (x y : ℕ) : (x, y) = (1, 2)",
            "theorem t (x y : ℕ) : x = 1 ∧ y = 2",
        );
        same(
            "theorem t (x y z : ℕ) : (x, y, z) = (1, 2, 3)",
            "theorem t (x y z : ℕ) : x = 1 ∧ y = 2 ∧ z = 3",
        );
        // Components pair up in order; tuples of other lengths are left alone.
        differ(
            "theorem t (x y : ℕ) : (x, y) = (1, 2)",
            "theorem t (x y : ℕ) : x = 2 ∧ y = 1",
        );
        assert!(!uses(
            "theorem t (x y : ℕ) (p : ℕ × ℕ × ℕ) : (x, y) = p",
            "Prod.mk.injEq"
        ));
    }

    #[test]
    fn dot_notation_names_the_namespace_of_the_receivers_type() {
        same(
            "theorem t (p : ℕ) (hp : p.Prime) : p.gcd 4 = 1",
            "theorem t (p : ℕ) (hp : Nat.Prime p) : Nat.gcd p 4 = 1",
        );
        same(
            "theorem t (H : Subgroup G) (h : H.Normal) : H = H",
            "theorem t (H : Subgroup G) (h : Subgroup.Normal H) : H = H",
        );
        same(
            "theorem t (f : ℝ → ℝ) (h : f.Injective) : f 1 = 1",
            "theorem t (f : ℝ → ℝ) (h : Function.Injective f) : f 1 = 1",
        );
        // The namespace comes from the type: `p.Prime` on ℤ is `Int.Prime`, not `Nat.Prime`.
        differ(
            "theorem t (p : ℤ) (hp : p.Prime) : p = p",
            "theorem t (p : ℤ) (hp : Nat.Prime p) : p = p",
        );
        // Arguments after the receiver only on numbers: `s.image f` is `Set.image f s`.
        assert!(!uses(
            "theorem t (s : Set ℕ) (f : ℕ → ℕ) : s.image f = s",
            "dot notation"
        ));
        // A receiver of unknown type (a type variable, a compound term) is left alone.
        assert!(!uses("theorem t (a : G) : a.IsUnit", "dot notation"));
        // A receiver whose type is a known function's result.
        same(
            "theorem t (n : ℕ) : (Nat.digits 10 n).sum = 9",
            "theorem t (n : ℕ) : List.sum (Nat.digits 10 n) = 9",
        );
        same(
            "theorem t (n : ℕ) : (Finset.range n).sum (fun i => i) = 9",
            "theorem t (n : ℕ) : Finset.sum (Finset.range n) (fun i => i) = 9",
        );
        // `⊓`/`⊔` keep their operands' type; mixed operands say nothing.
        same(
            "theorem t (H K : Subgroup G) : (H ⊓ K).Normal",
            "theorem t (H K : Subgroup G) : Subgroup.Normal (H ⊓ K)",
        );
        assert!(!uses(
            "theorem t (H : Subgroup G) (K : Ideal G) : (H ⊔ K).Normal",
            "dot notation"
        ));
    }

    #[test]
    fn absolute_values_and_norms_by_carrier() {
        same(
            "theorem t (z : ℂ) (h : abs z = 1) : abs (1 + z) ^ 2 + abs (1 - z) ^ 2 = 4",
            "theorem t (z : ℂ) (h : ‖z‖ = 1) : ‖1 + z‖ ^ 2 + ‖1 - z‖ ^ 2 = 4",
        );
        same("theorem t (x : ℝ) : ‖x‖ = 2", "theorem t (x : ℝ) : |x| = 2");
        same(
            "theorem t (z : ℂ) : Complex.abs z = 1",
            "theorem t (z : ℂ) : ‖z‖ = 1",
        );
        // Mixed or other carriers: the operand's type is unknown, nothing changes.
        differ(
            "theorem t (x : ℝ) (n : ℤ) : ‖n‖ = x",
            "theorem t (x : ℝ) (n : ℤ) : |n| = x",
        );
        differ("theorem t (v : E) : ‖v‖ = 1", "theorem t (v : E) : |v| = 1");
        // Sup norm against the componentwise absolute value (`|(x, 2 * x)| = 1` is false).
        for v in ["(x, 2 * x)", "![x, 2 * x]"] {
            differ(
                &format!("theorem t (x : ℝ) : ‖{v}‖ = 1"),
                &format!("theorem t (x : ℝ) : |{v}| = 1"),
            );
        }
        differ(
            "theorem t (x : ℝ × ℝ) : ‖x‖ = 1",
            "theorem t (x : ℝ × ℝ) : |x| = 1",
        );
        differ(
            "theorem t (f : Fin 2 → ℝ) (g : ℝ → ℝ) : ‖f‖ = 1 ∧ g = g",
            "theorem t (f : Fin 2 → ℝ) (g : ℝ → ℝ) : |f| = 1 ∧ g = g",
        );
        differ(
            "theorem t (f : ℝ → ℝ) : ‖f‖ = 1",
            "theorem t (f : ℝ → ℝ) : |f| = 1",
        );
    }

    #[test]
    fn products_are_not_linearly_ordered() {
        // `(1, 0)` and `(0, 1)`: neither `<` nor `≤` between them.
        differ(
            "theorem t (x y : ℝ × ℝ) : ¬ x < y",
            "theorem t (x y : ℝ × ℝ) : y ≤ x",
        );
        differ(
            "theorem t (f : ℝ → ℝ × ℝ) : ¬ f 1 < f 2",
            "theorem t (f : ℝ → ℝ × ℝ) : f 2 ≤ f 1",
        );
        // `1 = (1, 1)`: `(0, 1)` is positive but not above it.
        differ(
            "theorem t (x : ℕ × ℕ) : 1 ≤ x",
            "theorem t (x : ℕ × ℕ) : 0 < x",
        );
        // A product domain: the values are numbers.
        same(
            "theorem t (f : ℝ × ℝ → ℝ) (a : ℝ) : ¬ a < 0",
            "theorem t (f : ℝ × ℝ → ℝ) (a : ℝ) : 0 ≤ a",
        );
    }

    #[test]
    fn an_element_of_a_set_is_its_nonemptiness() {
        same(
            "theorem t (A C : Set X) : ∃ x, x ∈ C ∩ A",
            "theorem t (A C : Set X) : C ∩ A ≠ ∅",
        );
        same(
            "theorem t (s : Finset ℕ) : ∃ x, x ∈ s",
            "theorem t (s : Finset ℕ) : s.Nonempty",
        );
        // Not a set (a list), or the set mentions the variable: stays.
        differ(
            "theorem t (l : List ℕ) : ∃ x, x ∈ l",
            "theorem t (l : List ℕ) : l ≠ ∅",
        );
        assert!(!uses(
            "theorem t (f : ℕ → Set ℕ) : ∃ x, x ∈ f x",
            "Set.nonempty_def"
        ));
        // A written binder type: the element type is nonemptiness, another one (a coercion
        // into the set) is not.
        same(
            "theorem t (s : Set ℝ) : ∃ x : ℝ, x ∈ s",
            "theorem t (s : Set ℝ) : s ≠ ∅",
        );
        differ(
            "theorem t (s : Set ℝ) : ∃ n : ℕ, n ∈ s",
            "theorem t (s : Set ℝ) : s ≠ ∅",
        );
        differ(
            "theorem t (s : Set ℝ) : ∃ n : ℕ, n ∈ s",
            "theorem t (s : Set ℝ) : ∃ n : ℝ, n ∈ s",
        );
    }

    #[test]
    fn parity_remainders_and_divisibility_on_integers() {
        same(
            "theorem t (n : ℕ) (h : n % 2 = 1) : n ≠ 0",
            "theorem t (n : ℕ) (h : Odd n) : n ≠ 0",
        );
        same(
            "theorem t (n : ℤ) (h : 2 ∣ n) : n ≠ 1",
            "theorem t (n : ℤ) (h : n % 2 = 0) : n ≠ 1",
        );
        same(
            "theorem t (n : ℤ) (h : ¬ Even n) : n ≠ 0",
            "theorem t (n : ℤ) (h : Odd n) : n ≠ 0",
        );
        same(
            "theorem t (n : ℕ) : (3 * n) % 7 = 0",
            "theorem t (n : ℕ) : 7 ∣ 3 * n",
        );
        same(
            "theorem t (k : ℕ) : k.succ > 0",
            "theorem t (k : ℕ) : k + 1 > 0",
        );
        // A statement with one binder: its binder list is not taken for a binder.
        same(
            "theorem t (n : ℕ) : n % 3 = 0 → n > 2",
            "theorem t (n : ℕ) : 3 ∣ n → n > 2",
        );
        // Not on ℝ (`%` there is not a remainder, `2 ∣ x` always holds).
        differ("theorem t (x : ℝ) : 2 ∣ x", "theorem t (x : ℝ) : Even x");
        differ("theorem t (x : ℝ) : x % 2 = 1", "theorem t (x : ℝ) : Odd x");
        // A non-zero remainder is not divisibility.
        differ("theorem t (n : ℕ) : n % 7 = 3", "theorem t (n : ℕ) : 7 ∣ n");
    }

    #[test]
    fn function_equations_are_pointwise() {
        same(
            "theorem t (f : ℝ → ℝ) : ∃ c, f = fun x => c",
            "theorem t (f : ℝ → ℝ) : ∃ c, ∀ x, f x = c",
        );
        same(
            "theorem t (f : ℕ → ℕ) : (fun (n : ℕ) => n + 1) = f",
            "theorem t (f : ℕ → ℕ) : ∀ n : ℕ, n + 1 = f n",
        );
        // `f = fun x => c` is not `∃ x, f x = c`.
        differ(
            "theorem t (f : ℝ → ℝ) : ∃ c, f = fun x => c",
            "theorem t (f : ℝ → ℝ) : ∃ c, ∃ x, f x = c",
        );
        // The bound name must not be the function's own name.
        assert!(!uses("theorem t : f = fun f => f", "funext_iff"));
    }

    #[test]
    fn functions_are_equal_when_equal_everywhere() {
        same(
            "theorem t (f g : ℝ → ℝ) (h : Continuous f) : f = g",
            "theorem t (f g : ℝ → ℝ) (h : Continuous f) : ∀ x, f x = g x",
        );
        // Not a value equation: `a = b` between numbers stays.
        assert!(!uses("theorem t (a b : ℝ) : a = b", "funext_iff"));
        differ(
            "theorem t (f g : ℝ → ℝ) : f = g",
            "theorem t (f g : ℝ → ℝ) : ∃ x, f x = g x",
        );
    }

    #[test]
    fn nonempty_is_not_empty() {
        same(
            "theorem t (A : Set ℝ) (h : A.Nonempty) : A = A",
            "theorem t (A : Set ℝ) (h : A ≠ ∅) : A = A",
        );
        same(
            "theorem t (s : Finset ℕ) (h : Finset.Nonempty s) : s = s",
            "theorem t (s : Finset ℕ) (h : s ≠ ∅) : s = s",
        );
        differ(
            "theorem t (A : Set ℝ) (h : A.Nonempty) : A = A",
            "theorem t (A : Set ℝ) (h : A = ∅) : A = A",
        );
    }

    #[test]
    fn nonnegativity_of_naturals_is_dropped() {
        same(
            "theorem t (a b : ℕ) (h₁ : 1 ≤ a ∧ a ≤ 9) (h₂ : 0 ≤ b ∧ b ≤ 9) : a + b = 16",
            "theorem t (a b : ℕ) (h₀ : 1 ≤ a ∧ a ≤ 9 ∧ b ≤ 9) : a + b = 16",
        );
        same(
            "theorem t (n : ℕ) (h : 0 ≤ n) : n = n",
            "theorem t (n : ℕ) : n = n",
        );
        // On ℤ and ℝ, `0 ≤ x` is a real hypothesis.
        differ(
            "theorem t (n : ℤ) (h : 0 ≤ n) : n = n",
            "theorem t (n : ℤ) : n = n",
        );
        differ(
            "theorem t (x : ℝ) (h : 0 ≤ x ∧ x ≤ 9) : x = x",
            "theorem t (x : ℝ) (h : x ≤ 9) : x = x",
        );
        // A hypothesis the conclusion mentions stays.
        assert!(!uses(
            "theorem t (n : ℕ) (h : 0 ≤ n) : h = h",
            "Nat.zero_le"
        ));
    }

    #[test]
    fn anonymous_hypothesis_binders_are_premises() {
        same(
            "theorem t (f : ℕ → ℕ) (h : ∀ (n) (_ : n ≠ N), 0 < n → f n < f N) : f 1 = 1",
            "theorem t (f : ℕ → ℕ) (h : ∀ n ≠ N, 0 < n → f n < f N) : f 1 = 1",
        );
        // A binder of a type (not a proposition) stays a quantifier.
        assert!(!uses(
            "theorem t (h : ∀ (x : ℝ), 0 < 1) : True",
            "imp (non-dependent ∀)"
        ));
    }

    #[test]
    fn image_and_preimage_are_notations() {
        same(
            "theorem t (f : ℝ → ℝ) (E : Set ℝ) : Set.image f E = E",
            "theorem t (f : ℝ → ℝ) (E : Set ℝ) : f '' E = E",
        );
        same(
            "theorem t (f : ℝ → ℝ) (E : Set ℝ) : Set.preimage f E = E",
            "theorem t (f : ℝ → ℝ) (E : Set ℝ) : f ⁻¹' E = E",
        );
        // Image and preimage differ.
        differ(
            "theorem t (f : ℝ → ℝ) (E : Set ℝ) : Set.image f E = E",
            "theorem t (f : ℝ → ℝ) (E : Set ℝ) : f ⁻¹' E = E",
        );
    }

    #[test]
    fn negations_move_inwards() {
        same(
            "theorem t : ¬ ∃ x : ℕ, x ^ 2 = 2",
            "theorem t : ∀ x : ℕ, x ^ 2 ≠ 2",
        );
        same(
            "theorem t (f : ℕ → ℕ) : ¬ ∀ x, f x = 0",
            "theorem t (f : ℕ → ℕ) : ∃ x, f x ≠ 0",
        );
        same(
            "theorem t (p q : Prop) : ¬ (p ∨ q)",
            "theorem t (p q : Prop) : ¬ p ∧ ¬ q",
        );
        same("theorem t (p : Prop) : ¬ ¬ p", "theorem t (p : Prop) : p");
        // `¬ ∃` is not `∃ ¬`.
        differ(
            "theorem t : ¬ ∃ x : ℕ, x ^ 2 = 2",
            "theorem t : ∃ x : ℕ, x ^ 2 ≠ 2",
        );
        // `¬ (p ∧ q)` is left as written.
        differ(
            "theorem t (p q : Prop) : ¬ (p ∧ q)",
            "theorem t (p q : Prop) : ¬ p ∧ ¬ q",
        );
    }
}
