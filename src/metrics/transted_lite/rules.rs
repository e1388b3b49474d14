//! Rewrite rules of `transted-lite`: sound equivalences of Lean 4 + Mathlib, on operator trees.
//!
//! Owns the rules and the tree shapes they recognise, and [`alpha_equivalent`] (whether two
//! trees are one statement up to renaming bound variables, which the search asks before it
//! takes a TED of 0 for a proof); the search that chooses among them is in `mod.rs`. Nothing
//! here computes a distance except through the closure handed to [`moves`] (used only to
//! align binder lists).
//!
//! The rules themselves are declared as data, one table per family, each rule with its Lean
//! lemma, pattern and replacement (Lean text with metavariables `?a`), typed side conditions,
//! direction and examples/non-examples: `rules/notation.rs`, `rules/logic.rs`,
//! `rules/order.rs`, `rules/arithmetic.rs`, `rules/sets.rs` and `rules/binders.rs`. The
//! declaration format and the one matcher that applies them are in `rules/table.rs`; one test
//! there checks every declared rule against its examples and non-examples. Read the tables for
//! what the rules are; this module keeps the procedure the patterns cannot say, each registered
//! in `rules/binders.rs` (or its family) with its lemma and examples:
//! - **Canonical** ([`canonicalize`]): applied eagerly, to a fixpoint, to both sides before the
//!   search, always in one direction. Here: the binder-list rules (`binder_split`,
//!   `implicit_binder`, `and_imp` on hypotheses, `intro`, `instance binder (binder info)`,
//!   `and_self`, `forall_eq`, `Nat.zero_le` on unused hypotheses, `binder type (elaboration)`,
//!   `type variable in front`), the quantifier rules (`binder_pred`, `binder_split`,
//!   `imp (non-dependent ∀)`, `Set.nonempty_def`), `zeta`, `autoImplicit`
//!   ([`bind_free_variables`]), the `R[X]` notation, prenex moves and `norm_num`.
//! - **Moves** ([`moves`]): equivalences with no preferred direction, tried by the search on
//!   either side. Here: `binder_reorder` and `forall_swap` on the theorem's binders.
//!
//! What no rule does: commute `-`, `/`, `^`, `→`, `<`, `≤`, `∣`, `∈`, `⊆`, `•` or function
//! application; swap `∃` with `∀`; drop, add or move a coercion `↑` or a type ascription
//! (`(1 : ℝ) / 3` and `1 / 3 : ℕ` differ); use an order or algebra fact outside the carriers
//! it holds on (`¬ a < b` stays on sets and on `ℝ × ℝ`, `0 ≤ a - b` stays on ℕ, `a * (1 / b)`
//! stays on ℤ).
//!
//! `add_comm`/`mul_comm` are only sound on commutative structures. They fire at a `+`/`*`
//! node only when elaboration-lite types that node as ℕ ℤ ℚ ℝ ℂ ([`elab::commutes_at`]; a
//! node of numerals only by the carrier of the relation it sits in), and, as a second gate,
//! when every carrier type the statement's binders mention is known commutative
//! ([`Commutativity::of`]). A matrix, a quaternion, an auto-bound `(x : _)`, a type known only
//! through a class (`[CommRing R]`: sound but not yet typed here) or a pointwise product of
//! functions does not commute.
//!
//! Tree shapes recognised (GTED's conventions, which the parser follows): theorem root with one
//! binder-list child labelled `" _ "`×k + `": _ "` (binders then the conclusion); binders
//! `" _ : _ "`, `"{ _ : _ }"`, `"⦃ _ : _ ⦄"`, `"[ _ : _ ]"` with children `[name…, type]`;
//! quantifiers `"∀ _ , _ "`/`"∃ _ , _ "` with binder children then the body, a binder being a
//! typed binder, a bare name, a predicate `" _ ∈ _ "[x, s]`, or `x` followed by `"∈ _ "[s]` (the
//! parser) or `"∈"[s]` (GTED);
//! binary operators `" _ op _ "`; `let` nodes whose label starts with `let` and whose children are
//! `[name, (type,) value, body]`.

use super::clock::Clock;
use crate::trees::Tree;

mod arithmetic;
mod binders;
mod binders_apply;
mod binders_beta;
mod binders_casts;
mod binders_elided;
pub mod elab;
mod logic;
mod notation;
mod order;
mod sets;
pub mod table;
mod typed;

pub use typed::Carriers;

/// Name given to a hypothesis made from a premise by `intro` (flagged `hypothesis_freecost`, so
/// matching it against a named hypothesis costs nothing).
pub const ANONYMOUS_HYPOTHESIS: &str = "h✝";

/// Placeholder type for a binder pulled out of an untyped quantifier (`∃ x, …` prints no type).
const UNKNOWN_TYPE: &str = "_";

/// Bound on canonical rewrites per statement: every canonical rule shrinks a well-founded
/// measure, so this is never reached on real statements; it keeps odd input from looping.
const MAX_CANONICAL_STEPS: usize = 10_000;

/// One applied rewrite, for the path shown to the user.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Applied {
    /// The lemma (or reduction) that justifies it.
    pub rule: &'static str,
    /// The rewritten subterm as text, before the rewrite.
    pub at: String,
}

/// A move the search may take: the rule, where, and the whole tree after it.
#[derive(Clone, Debug)]
pub struct Rewrite {
    pub applied: Applied,
    pub tree: Tree,
}

// ---------------------------------------------------------------------------------------------
// Label shapes

const EQ: &str = " _ = _ ";
const NE: &str = " _ ≠ _ ";
const LT: &str = " _ < _ ";
const LE: &str = " _ ≤ _ ";
const GT: &str = " _ > _ ";
const GE: &str = " _ ≥ _ ";
const AND: &str = " _ ∧ _ ";
const IMP: &str = " _ → _ ";
const ADD: &str = " _ + _ ";
const MUL: &str = " _ * _ ";
const NOT: &str = "¬";
const EXPLICIT: &str = " _ : _ ";
const FORALL: &str = "∀ _ , _ ";
const EXISTS: &str = "∃ _ , _ ";

/// Relations that may stand as a binder predicate (`∀ x ∈ s`, `∃ n > 0`, ...).
const PREDICATE_RELATIONS: [&str; 10] = ["∈", "∉", "<", "≤", ">", "≥", "≠", "⊆", "⊂", "∣"];

/// Binder-list arity: `": _ "` → 0, `" _  _ : _ "` → 1, ...
pub fn binder_list_arity(label: &str) -> Option<usize> {
    let rest = label.strip_suffix(": _ ")?;
    if rest.len() % 3 != 0 {
        return None;
    }
    let k = rest.len() / 3;
    (rest == " _ ".repeat(k)).then_some(k)
}

fn binder_list_label(k: usize) -> String {
    format!("{}: _ ", " _ ".repeat(k))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BinderKind {
    Explicit,
    Implicit,
    Strict,
    Instance,
}

fn binder_kind(label: &str) -> Option<BinderKind> {
    match label {
        " _ : _ " => Some(BinderKind::Explicit),
        "{ _ : _ }" => Some(BinderKind::Implicit),
        "⦃ _ : _ ⦄" => Some(BinderKind::Strict),
        "[ _ : _ ]" => Some(BinderKind::Instance),
        _ => None,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quant {
    Forall,
    Exists,
}

fn quantifier(t: &Tree) -> Option<Quant> {
    if t.children.len() < 2 || !t.label.ends_with(", _ ") {
        return None;
    }
    if t.label.starts_with('∀') {
        Some(Quant::Forall)
    } else if t.label.starts_with('∃') && !t.label.starts_with("∃!") {
        Some(Quant::Exists)
    } else {
        None
    }
}

fn quant_label(q: Quant) -> &'static str {
    match q {
        Quant::Forall => FORALL,
        Quant::Exists => EXISTS,
    }
}

/// Prenex form, one quantifier over a variable at a time, outwards:
/// `exists_and_left` (`p ∧ ∃ x, q` → `∃ x, p ∧ q`), `exists_and_right` (`(∃ x, p) ∧ q` →
/// `∃ x, p ∧ q`) and `imp_forall_iff` (`p → ∀ x, q` → `∀ x, p → q`), each only when the other
/// operand does not mention `x`. So `∃ a ∈ A, ∃ b ∈ B, …` and `∃ a b, a ∈ A ∧ b ∈ B ∧ …` meet.
/// Only binders of variables move: a `∀ (h : p), q` is an implication, and moving it would
/// reorder hypotheses against statements that write them with `→`.
fn prenex(t: &Tree) -> Option<(Applied, Tree)> {
    let [a, b] = t.children.as_slice() else {
        return None;
    };
    let movable = |q: &Tree, want: Quant| -> Option<(Tree, Tree, String)> {
        if quantifier(q) != Some(want) || q.children.len() != 2 {
            return None;
        }
        let binder = &q.children[0];
        let name = binder_name(binder)?;
        let variable = if is_leaf(binder) {
            binder.variable_freecost
        } else {
            binder.label == EXPLICIT
                && binder.children.len() == 2
                && !name.hypothesis_freecost
                && !is_prop_shaped(&binder.children[1])
        };
        variable.then(|| (binder.clone(), q.children[1].clone(), name.label.clone()))
    };
    let (rule, quant, binder, inner) = if t.label == AND {
        if let Some((binder, body, _)) = movable(b, Quant::Exists).filter(|m| !mentions(a, &m.2)) {
            (
                "exists_and_left",
                Quant::Exists,
                binder,
                node2(AND, a.clone(), body),
            )
        } else if let Some((binder, body, _)) =
            movable(a, Quant::Exists).filter(|m| !mentions(b, &m.2))
        {
            (
                "exists_and_right",
                Quant::Exists,
                binder,
                node2(AND, body, b.clone()),
            )
        } else {
            return None;
        }
    } else {
        let (binder, body, _) = movable(b, Quant::Forall).filter(|m| !mentions(a, &m.2))?;
        (
            "imp_forall_iff",
            Quant::Forall,
            binder,
            node2(IMP, a.clone(), body),
        )
    };
    let applied = Applied {
        rule,
        at: render(t),
    };
    Some((applied, node2(quant_label(quant), binder, inner)))
}

/// The relation symbol of `" _ op _ "`, if the label has that shape.
fn infix_op(label: &str) -> Option<&str> {
    let op = label.strip_prefix(" _ ")?.strip_suffix(" _ ")?;
    (!op.contains('_')).then_some(op)
}

fn is_leaf(t: &Tree) -> bool {
    t.children.is_empty()
}

/// The function of an application node `"f _  _ "` (the name, then one `" _ "` per child), as
/// the parser labels `f a b`; `None` for a leaf or an operator shape (`" _ + _ "`, `"∀ _ , _ "`).
pub(super) fn app_head(t: &Tree) -> Option<&str> {
    if t.children.is_empty() {
        return None;
    }
    let head = t.label.strip_suffix(&" _ ".repeat(t.children.len()))?;
    (!head.is_empty() && !head.contains(char::is_whitespace)).then_some(head)
}

/// Does any leaf of `t` carry the label `name`?
fn mentions(t: &Tree, name: &str) -> bool {
    if is_leaf(t) {
        return t.label == name;
    }
    t.children.iter().any(|c| mentions(c, name))
}

fn node2(label: &str, a: Tree, b: Tree) -> Tree {
    Tree::node(label, vec![a, b])
}

// ---------------------------------------------------------------------------------------------
// Rendering a subterm for the path

/// Longest text a path step shows for its place (longer subterms keep both ends around `…`).
const PATH_TEXT_CHARS: usize = 240;

/// A subterm as the path shows it: Lean text ([`crate::trees::render::lean_text`]: `0 < x`,
/// `(0 : ℝ)`), never the internal labels (`" _ < _ "`).
pub fn render(t: &Tree) -> String {
    crate::trees::render::lean_text(t, PATH_TEXT_CHARS)
}

/// A subterm as one line of text, whole however long: placeholders filled with the children
/// (parenthesised when they are operator nodes), GTED's labels otherwise shown as
/// `label(children)`. For comparing subterms as text ([`guards`](super::guards)), where
/// [`render`]'s shortening could make two different terms read alike.
pub fn render_exact(t: &Tree) -> String {
    let mut out = String::new();
    render_into(t, &mut out, 0);
    // Labels such as `"Nat.gcd _  _ "` leave double spaces once filled.
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn render_into(t: &Tree, whole: &mut String, depth: usize) {
    let mut own = String::new();
    render_node(t, &mut own, depth);
    whole.push_str(own.trim());
}

fn render_node(t: &Tree, out: &mut String, depth: usize) {
    if is_leaf(t) {
        out.push_str(&t.label);
        return;
    }
    if depth > 64 {
        out.push('…');
        return;
    }
    let holes = t.label.matches('_').count();
    let wrap = |c: &Tree, out: &mut String| {
        // An application (`Nat.gcd _  _ `) binds tighter than any infix operator around it.
        let application_in_infix = infix_op(&t.label).is_some()
            && c.label.chars().next().is_some_and(char::is_alphanumeric);
        let paren = !is_leaf(c)
            && c.label.contains(' ')
            && binder_kind(&c.label).is_none()
            && !application_in_infix;
        if paren {
            out.push('(');
        }
        render_into(c, out, depth + 1);
        if paren {
            out.push(')');
        }
    };
    if holes == t.children.len() && !t.label.contains("_._") {
        let mut children = t.children.iter();
        for ch in t.label.chars() {
            if ch == '_' {
                if let Some(c) = children.next() {
                    wrap(c, out);
                }
            } else {
                out.push(ch);
            }
        }
        return;
    }
    out.push_str(t.label.trim());
    out.push('(');
    for (i, c) in t.children.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        render_into(c, out, depth + 1);
    }
    out.push(')');
}

// ---------------------------------------------------------------------------------------------
// Canonical rules

/// Apply the canonical rules to a fixpoint, then flag bound names for free renaming.
/// Returns the canonical tree and the rewrites applied, in order.
pub fn canonicalize(tree: &Tree) -> (Tree, Vec<Applied>) {
    match canonicalize_within(tree, Clock::unlimited()) {
        Some(done) => done,
        None => unreachable!("an unlimited clock never runs out"),
    }
}

/// [`canonicalize`], giving up (`None`) once `clock` has run out: it is read before each
/// node's rule attempt, so the overrun is one attempt.
pub fn canonicalize_within(tree: &Tree, clock: Clock) -> Option<(Tree, Vec<Applied>)> {
    let mut log = Vec::new();
    // `R[X]` is rewritten first, so that the binder types the typed rules read (field
    // notation on `(p : ℚ[X])`) are already `Polynomial ℚ`.
    let unfolded;
    let tree = if binds_leaf(tree, "X") {
        tree
    } else {
        unfolded = polynomial_notation(tree, &mut log);
        &unfolded
    };
    let context = Context {
        carriers: Carriers::of(tree),
        clock,
    };
    let mut t = match bind_free_variables(tree) {
        Some((applied, bound)) => {
            log.push(applied);
            bound
        }
        None => tree.clone(),
    };
    while log.len() < MAX_CANONICAL_STEPS && canonical_pass(&mut t, &mut log, &context) {}
    if clock.passed() {
        return None;
    }
    flag_bound_names(&mut t);
    Some((t, log))
}

/// autoImplicit: a name the statement uses but never binds is bound by Lean itself, as an
/// implicit binder in front of the others (`autoImplicit`/`relaxedAutoImplicit`, on outside
/// Mathlib). Writing that binder out — `(x : _)`, its type unknown here — makes `… (x : ℕ) …`
/// and a statement leaving `x` to auto-binding differ by the type alone, not by a binder.
/// Only names shaped like variables count (one letter, then digits, subscripts or primes), and
/// not the one-letter constants common `open`s bring in (`π`, `e`; `I`, `X`, `C` where the
/// statement is about complex numbers or polynomials): the parser flags every name it saw
/// bound, so an unflagged variable-shaped leaf is free.
fn bind_free_variables(tree: &Tree) -> Option<(Applied, Tree)> {
    let [child] = tree.children.as_slice() else {
        return None;
    };
    let mut free: Vec<String> = Vec::new();
    collect_free_variables(child, &mut free);
    // `X`/`C` are `Polynomial.X`/`Polynomial.C` only about polynomials (`Polynomial R`, `R[X]`),
    // `I` is `Complex.I`
    // only about complex numbers; elsewhere they are the usual type and set variables.
    let constants: &[&str] = match (
        mentions_prefix(tree, "Polynomial") || mentions_prefix(tree, " _ [X]"),
        mentions_prefix(tree, "ℂ") || mentions_prefix(tree, "Complex"),
    ) {
        (true, true) => &["X", "C", "I"],
        (true, false) => &["X", "C"],
        (false, true) => &["I"],
        (false, false) => &[],
    };
    free.retain(|n| !constants.contains(&n.as_str()));
    if free.is_empty() {
        return None;
    }
    let (mut children, concl) = if is_binder_list(tree, child, true) {
        let k = child.children.len() - 1;
        (child.children[..k].to_vec(), child.children[k].clone())
    } else {
        (Vec::new(), child.clone())
    };
    // A name some binder types with a class on `Type u` (`[Group G]`) is a type in a fresh
    // universe, as `{G : Type*}` says; any other is `Sort u` or a term, unknown here.
    let new_binders: Vec<Tree> = free
        .iter()
        .map(|name| {
            if children.iter().any(|b| instance_on_types(b, name)) {
                node2(EXPLICIT, Tree::leaf(name.clone()), Tree::leaf("Type*"))
            } else {
                auto_bound_binder(Tree::leaf(name.clone()))
            }
        })
        .collect();
    children.splice(0..0, new_binders);
    children.push(concl);
    let list = Tree::node(binder_list_label(children.len() - 1), children);
    let applied = Applied {
        rule: "autoImplicit",
        at: free.join(" "),
    };
    Some((applied, Tree::node(tree.label.clone(), vec![list])))
}

/// Does `ty` mention bound names, all of them bound in `before` with a written type that is
/// not a universe (term variables, not type variables)?
/// Classes whose instances are proofs (`class C … : Prop`): an instance binder `[C G]` is the
/// hypothesis `(h : C G)` with another binder info. Data classes (`Group`, `Fintype`,
/// `DecidableEq`) are not here: `[Fintype G]` is not `(h : Finite G)`. Nor are `CharP` and
/// `CharZero`, which the typed rules read as class facts about their type.
const PROP_CLASSES: [(&str, &str); 12] = [
    (
        "IsSolvable",
        "Mathlib/GroupTheory/Solvable.lean: class IsSolvable : Prop",
    ),
    (
        "IsSimpleGroup",
        "Mathlib/GroupTheory/Subgroup/Simple.lean: class IsSimpleGroup : Prop",
    ),
    (
        "IsCyclic",
        "Mathlib/GroupTheory/SpecificGroups/Cyclic.lean: class IsCyclic … : Prop",
    ),
    (
        "Nontrivial",
        "Mathlib/Logic/Nontrivial/Defs.lean: class Nontrivial (α) : Prop",
    ),
    (
        "Finite",
        "Mathlib/Data/Finite/Defs.lean: class inductive Finite (α) : Prop",
    ),
    (
        "Infinite",
        "Mathlib/Data/Finite/Defs.lean: class Infinite (α) : Prop",
    ),
    (
        "Countable",
        "Mathlib/Data/Countable/Defs.lean: class Countable (α) : Prop",
    ),
    (
        "Nonempty",
        "Lean core, Init/Prelude.lean: class inductive Nonempty (α) : Prop",
    ),
    (
        "IsDomain",
        "Mathlib/Algebra/Ring/Defs.lean: class IsDomain (α) : Prop",
    ),
    (
        "NoZeroDivisors",
        "Mathlib/Algebra/GroupWithZero/Defs.lean: class NoZeroDivisors : Prop",
    ),
    (
        "IsAlgClosed",
        "Mathlib/FieldTheory/IsAlgClosed/Basic.lean: class IsAlgClosed : Prop",
    ),
    (
        "Fact",
        "Mathlib/Logic/Basic.lean: class Fact (p : Prop) : Prop",
    ),
];

/// Is `ty` an instance of a class whose instances are proofs ([`PROP_CLASSES`])?
fn prop_class(ty: &Tree) -> bool {
    let head = if is_leaf(ty) {
        Some(ty.label.as_str())
    } else {
        app_head(ty)
    };
    head.is_some_and(|h| PROP_CLASSES.iter().any(|(c, _)| *c == h))
}

fn about_terms_only(ty: &Tree, before: &[Tree]) -> bool {
    let binder_of = |n: &str| {
        before
            .iter()
            .find(|b| binder_name(b).is_some_and(|x| x.label == n))
    };
    let mut names = Vec::new();
    leaves(ty, &mut names);
    names.retain(|n| binder_of(n).is_some());
    !names.is_empty()
        && names.iter().all(|n| {
            binder_of(n).is_some_and(|b| {
                b.label == EXPLICIT
                    && b.children.len() == 2
                    && !is_universe(&b.children[1])
                    && b.children[1].label != UNKNOWN_TYPE
            })
        })
}

fn leaves(t: &Tree, out: &mut Vec<String>) {
    if is_leaf(t) {
        if !out.contains(&t.label) {
            out.push(t.label.clone());
        }
        return;
    }
    for c in &t.children {
        leaves(c, out);
    }
}

/// `(x : _)`: a binder Lean inserts by itself, its type left to inference.
fn auto_bound_binder(name: Tree) -> Tree {
    node2(EXPLICIT, name, Tree::leaf(UNKNOWN_TYPE))
}

fn is_auto_bound(binder: &Tree) -> bool {
    binder.label == EXPLICIT
        && binder.children.len() == 2
        && is_leaf(&binder.children[0])
        && binder.children[1].label == UNKNOWN_TYPE
        && is_leaf(&binder.children[1])
}

/// Classes whose argument is a `Type u` (not a `Sort u`).
const TYPE_CLASSES: [&str; 24] = [
    "Group",
    "CommGroup",
    "AddGroup",
    "AddCommGroup",
    "Monoid",
    "CommMonoid",
    "AddMonoid",
    "AddCommMonoid",
    "Semiring",
    "CommSemiring",
    "Ring",
    "CommRing",
    "Field",
    "DivisionRing",
    "IsDomain",
    "LinearOrder",
    "PartialOrder",
    "Preorder",
    "Lattice",
    "TopologicalSpace",
    "MetricSpace",
    "NormedAddCommGroup",
    "Fintype",
    "Finite",
];

/// Is `binder` an instance binder `[C name]` of a class in [`TYPE_CLASSES`]?
fn instance_on_types(binder: &Tree, name: &str) -> bool {
    let ty = match (binder.label.as_str(), binder.children.as_slice()) {
        ("[ _ ]", [ty]) | ("[ _ : _ ]", [_, ty]) => ty,
        _ => return false,
    };
    app_head(ty).is_some_and(|c| TYPE_CLASSES.contains(&c))
        && ty.children.iter().any(|a| is_leaf(a) && a.label == name)
}

/// How many leaves of `t` are labelled `name`.
fn count_leaf(t: &Tree, name: &str) -> usize {
    if is_leaf(t) {
        return usize::from(t.label == name);
    }
    t.children.iter().map(|c| count_leaf(c, name)).sum()
}

/// `(α : Type*)`, `(α : Sort u)`: an explicit binder of a type variable.
fn is_type_variable(binder: &Tree) -> bool {
    binder.label == EXPLICIT
        && binder.children.len() == 2
        && is_leaf(&binder.children[0])
        && is_universe(&binder.children[1])
}

fn collect_free_variables(t: &Tree, out: &mut Vec<String>) {
    if is_leaf(t) {
        if !t.variable_freecost
            && !t.hypothesis_freecost
            && is_variable_shaped(&t.label)
            && !out.contains(&t.label)
        {
            out.push(t.label.clone());
        }
        return;
    }
    // `Type u`: a universe level, not a term.
    if is_universe(t) {
        return;
    }
    for c in &t.children {
        collect_free_variables(c, out);
    }
}

/// Does any label of `t` start with `prefix`?
fn mentions_prefix(t: &Tree, prefix: &str) -> bool {
    t.label.starts_with(prefix) || t.children.iter().any(|c| mentions_prefix(c, prefix))
}

/// One ASCII or Greek letter, then only digits, subscript digits, primes or `_`.
fn is_variable_shaped(name: &str) -> bool {
    const CONSTANTS: [&str; 3] = ["π", "e", "λ"];
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let letter =
        first.is_ascii_alphabetic() || ('α'..='ω').contains(&first) || ('Α'..='Ω').contains(&first);
    letter
        && !CONSTANTS.contains(&name)
        && chars.all(|c| c.is_ascii_digit() || ('₀'..='₉').contains(&c) || c == '\'' || c == '_')
}

/// Is `child` (of `parent`) the statement's binder list? Only the single child of the root can be:
/// the label of a one-binder list, `" _ : _ "`, is also the label of an explicit binder.
fn is_binder_list(parent: &Tree, child: &Tree, parent_is_root: bool) -> bool {
    parent_is_root
        && parent.children.len() == 1
        && binder_list_arity(&child.label).is_some_and(|k| child.children.len() == k + 1)
}

/// What the canonical rules know about the whole statement.
struct Context {
    /// The number systems its terms live in, for the typed rules.
    carriers: Carriers,
    /// The judgement's deadline: a pass stops at the first node visited after it.
    clock: Clock,
}

/// One top-down pass; true if anything changed. `root` says whether `t` is the whole statement.
fn canonical_pass(t: &mut Tree, log: &mut Vec<Applied>, context: &Context) -> bool {
    canonical_pass_at(t, log, false, true, context)
}

fn canonical_pass_at(
    t: &mut Tree,
    log: &mut Vec<Applied>,
    is_list: bool,
    root: bool,
    context: &Context,
) -> bool {
    let mut changed = false;
    while log.len() < MAX_CANONICAL_STEPS && !context.clock.passed() {
        match canonical_at(t, is_list, context) {
            Some((applied, new)) => {
                log.push(applied);
                *t = new;
                changed = true;
            }
            None => break,
        }
    }
    let single_child_list = t
        .children
        .first()
        .is_some_and(|c| is_binder_list(t, c, root));
    for c in &mut t.children {
        if context.clock.passed() {
            // Out of time: no further pass (the caller gives up).
            return false;
        }
        changed |= canonical_pass_at(c, log, single_child_list, false, context);
    }
    changed
}

/// The first canonical rule that applies at the root of `t`.
fn canonical_at(t: &Tree, is_list: bool, context: &Context) -> Option<(Applied, Tree)> {
    let at = || render(t);
    if is_list {
        return binder_list_rule(t, &context.carriers)
            .map(|(rule, at, new)| (Applied { rule, at }, new));
    }
    if let Some(q) = quantifier(t) {
        // A binder type its use decides anyway is left to elaboration: `∀ x : ℝ, f x = c` is
        // `∀ x, f x = c` when `(f : ℝ → ℝ)`. (Dropping, not adding, the type keeps a type
        // difference counted once, at the binder of `f`, rather than at every quantifier.)
        if let [b, body] = t.children.as_slice() {
            if b.label == EXPLICIT && b.children.len() == 2 && is_leaf(&b.children[0]) {
                let (x, ty) = (&b.children[0], &b.children[1]);
                let inferred = typed::infer_binder_type(&x.label, body, &context.carriers);
                if inferred.as_ref() == Some(ty) {
                    let new = node2(&t.label, x.clone(), body.clone());
                    let applied = Applied {
                        rule: "binder type (elaboration)",
                        at: at(),
                    };
                    return Some((applied, new));
                }
            }
        }
        if let Some((rule, new)) = typed::exists_mem(t, &context.carriers) {
            return Some((Applied { rule, at: at() }, new));
        }
        if let Some((rule, new)) = quantifier_rule(t, q) {
            return Some((Applied { rule, at: at() }, new));
        }
        // The declared rules at a quantifier (`Dvd.dvd (definition)`) come after these.
        let ctx = table::Ctx {
            carriers: &context.carriers,
            at: None,
        };
        return table::canonical_at(t, &ctx).map(|(rule, new)| (Applied { rule, at: at() }, new));
    }
    // The same in `{x | …}`, `⋃ x, …`, `∑ x ∈ s, …`, `fun x => …` (module `binders_elided`).
    if let Some(new) = binders_elided::elide_decided_type(t, &context.carriers) {
        let applied = Applied {
            rule: "binder type (elaboration)",
            at: at(),
        };
        return Some((applied, new));
    }
    if t.label.starts_with("let") && (3..=4).contains(&t.children.len()) {
        if let Some(new) = zeta(t, &context.carriers) {
            return Some((
                Applied {
                    rule: "zeta",
                    at: at(),
                },
                new,
            ));
        }
    }
    // Every other local rule is declared as data (`rules/table.rs` and the family tables).
    let ctx = table::Ctx {
        carriers: &context.carriers,
        at: None,
    };
    table::canonical_at(t, &ctx).map(|(rule, new)| (Applied { rule, at: at() }, new))
}

/// Mathlib: `scoped[Polynomial] notation:9000 R "[X]" => Polynomial R`. Called only when no
/// name `X` is bound in the statement, so that ` _ [X]` is not indexing by a variable `X`.
fn polynomial_notation(t: &Tree, log: &mut Vec<Applied>) -> Tree {
    let mut out = t.clone();
    out.children = t
        .children
        .iter()
        .map(|c| polynomial_notation(c, log))
        .collect();
    if out.label == " _ [X]" && out.children.len() == 1 {
        log.push(Applied {
            rule: "Polynomial (notation R[X])",
            at: render(t),
        });
        out.label = "Polynomial _ ".to_string();
    }
    out
}

fn is_false(t: &Tree) -> bool {
    t.label == "False" && t.children.is_empty()
}

/// Does `tree` bind a name `name` anywhere (a binder, or a leaf the parser flagged as bound)?
fn binds_leaf(tree: &Tree, name: &str) -> bool {
    (tree.label == name && (tree.variable_freecost || tree.hypothesis_freecost))
        || tree.children.iter().any(|c| binds_leaf(c, name))
}

/// A natural-number literal.
fn literal(t: &Tree) -> Option<u128> {
    if !is_leaf(t) || t.label.is_empty() || !t.label.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.label.parse().ok()
}

/// Largest literal `norm_num` writes: beyond it the arithmetic is left as written (a 40-digit
/// numeral helps no comparison).
const MAX_LITERAL: u128 = 1 << 64;

/// `norm_num` on literals (ASSESS runs `norm_num1` on every pair first), at a node that fixes
/// the type its arithmetic is elaborated at: a relation whose operands elaboration-lite types
/// (`binop%`/`binrel%` unify them; numerals alone default to ℕ), `[MOD n]` (ℕ), `[ZMOD n]` (ℤ),
/// or an ascription `(e : T)` to a number type. Inside, natural literals are evaluated with
/// that type's operations only ([`literal_op`]); the walk stops at anything that is not
/// arithmetic of the same type (an application, a cast, another ascription). An unknown type
/// (a type variable, `Fin n`, `UInt8`, `Float`, a `variable` of the header) evaluates nothing.
pub(super) fn norm_num(t: &Tree, carriers: &Carriers) -> Option<Tree> {
    use elab::Num;
    let (num, operands): (Num, &[usize]) = match (t.label.as_str(), t.children.as_slice()) {
        ("( _ : _ )", [_, ty]) => (elab::num_of_type(ty)?, &[0]),
        (EQ | NE | LT | LE | GT | GE | " _ ∣ _ ", [a, b]) => {
            (elab::carrier(&[a, b], carriers)?, &[0, 1])
        }
        (" _ ≡ _ [MOD _ ]", [_, _, _]) => (Num::Nat, &[0, 1, 2]),
        (" _ ≡ _ [ZMOD _ ]", [_, _, _]) => (Num::Int, &[0, 1, 2]),
        _ => return None,
    };
    let mut out: Option<Tree> = None;
    for &i in operands {
        if let Some(new) = evaluate(&t.children[i], num) {
            out.get_or_insert_with(|| t.clone()).children[i] = new;
        }
    }
    out
}

/// Evaluate the literal arithmetic of `t`, elaborated at `num`; `None` when nothing changed.
fn evaluate(t: &Tree, num: elab::Num) -> Option<Tree> {
    use elab::Num;
    match (t.label.as_str(), t.children.as_slice()) {
        (ADD | MUL | " _ - _ " | " _ / _ " | " _ % _ " | " _ ^ _ ", [a, b]) => {
            // The exponent of `^` is elaborated on its own (`rightact%`), a natural numeral:
            // only the operations whose value is the same in every semiring.
            let exponent = t.label == " _ ^ _ ";
            let new_a = evaluate(a, num);
            let new_b = if exponent {
                evaluate_semiring(b)
            } else {
                evaluate(b, num)
            };
            let (a2, b2) = (new_a.as_ref().unwrap_or(a), new_b.as_ref().unwrap_or(b));
            match (literal(a2), literal(b2)) {
                (Some(x), Some(y)) => literal_op(&t.label, x, y, num)
                    .filter(|v| *v <= MAX_LITERAL)
                    .map(|v| Tree::leaf(v.to_string()))
                    .or_else(|| rebuilt(t, new_a, new_b)),
                _ => rebuilt(t, new_a, new_b),
            }
        }
        // `(e : T)` at the same type is the same region; at another it is a region of its own,
        // evaluated when the canonical pass reaches it.
        ("( _ : _ )", [e, ty]) if elab::num_of_type(ty) == Some(num) => {
            let new = evaluate(e, num)?;
            Some(node2("( _ : _ )", new, ty.clone()))
        }
        ("| _ |", [e]) if num != Num::Nat => {
            let new = evaluate(e, num)?;
            Some(Tree::node(&t.label, vec![new]))
        }
        _ => None,
    }
}

/// `evaluate` for `+`, `*`, `^` only: the same value in every semiring (`Nat.cast` is a ring
/// hom), whatever type the term is elaborated at.
fn evaluate_semiring(t: &Tree) -> Option<Tree> {
    match (t.label.as_str(), t.children.as_slice()) {
        (ADD | MUL | " _ ^ _ ", [a, b]) => {
            let (new_a, new_b) = (evaluate_semiring(a), evaluate_semiring(b));
            let (a2, b2) = (new_a.as_ref().unwrap_or(a), new_b.as_ref().unwrap_or(b));
            match (literal(a2), literal(b2)) {
                (Some(x), Some(y)) => literal_op(&t.label, x, y, elab::Num::Nat)
                    .filter(|v| *v <= MAX_LITERAL)
                    .map(|v| Tree::leaf(v.to_string()))
                    .or_else(|| rebuilt(t, new_a, new_b)),
                _ => rebuilt(t, new_a, new_b),
            }
        }
        _ => None,
    }
}

/// `t` with the children that changed replaced; `None` when none did.
fn rebuilt(t: &Tree, a: Option<Tree>, b: Option<Tree>) -> Option<Tree> {
    if a.is_none() && b.is_none() {
        return None;
    }
    let mut out = t.clone();
    if let Some(a) = a {
        out.children[0] = a;
    }
    if let Some(b) = b {
        out.children[1] = b;
    }
    Some(out)
}

/// `x op y` on natural literals at `num`, where the result is the same natural literal in every
/// one of ℕ ℤ ℚ ℝ ℂ that `num` could be:
/// - `+`, `*`, `^`: always;
/// - `-`: only when not negative (ℕ truncates, the others do not);
/// - `/`: only when exact (ℕ and ℤ round, the fields do not);
/// - `%`: on ℕ (`Nat.mod`) and ℤ (`Int.emod`) with a nonzero divisor; never on ℚ ℝ ℂ, where
///   `%` is the Euclidean remainder of a field (`Field.toEuclideanDomain`: `a % b = a - a * b /
///   b`, 0 for `b ≠ 0`), not the integer one.
///
/// Truncation and rounding are left as written even at ℕ: `(1 / 4 : ℕ)` is 0, and evaluating it
/// would make `n = 11 → (1 / 4) ^ (n + 1) = 1 / 4` and the same with 12 and `1 / 5` one trivial
/// fact, true but not the problem either states.
fn literal_op(op: &str, x: u128, y: u128, num: elab::Num) -> Option<u128> {
    use elab::Num;
    let discrete = matches!(num, Num::Nat | Num::Int);
    match op {
        ADD => x.checked_add(y),
        MUL => x.checked_mul(y),
        " _ ^ _ " => u32::try_from(y).ok().and_then(|e| x.checked_pow(e)),
        " _ - _ " => x.checked_sub(y),
        " _ / _ " if y != 0 && x.is_multiple_of(y) => Some(x / y),
        " _ % _ " if discrete && y != 0 => Some(x % y),
        _ => None,
    }
}

/// Canonical rules on a theorem's binder list `(b₁) … (bₖ) : concl`.
/// Returns the rule, the subterm it rewrote (for the path) and the new binder list.
fn binder_list_rule(t: &Tree, carriers: &Carriers) -> Option<(&'static str, String, Tree)> {
    let k = t.children.len() - 1;
    let binders = &t.children[..k];
    let concl = &t.children[k];
    let rebuild = |binders: Vec<Tree>, concl: Tree| {
        let mut children = binders;
        children.push(concl);
        Tree::node(binder_list_label(children.len() - 1), children)
    };
    // An instance binder about terms (`[N.Normal]`, `[Fact p.Prime]`, `[h : (H.subgroupOf
    // K).Normal]`) is a hypothesis with another binder info: `(h✝ : N.Normal)`, as
    // `implicit_binder` does for `{x}`. One about types (`[Group G]`, `[CharP F p]`) stays an
    // instance, so that the class facts the other rules read keep their shape.
    for (i, b) in binders.iter().enumerate() {
        let (name, ty) = match (b.label.as_str(), b.children.as_slice()) {
            ("[ _ ]", [ty]) => (None, ty),
            ("[ _ : _ ]", [name, ty]) if is_leaf(name) => (Some(name), ty),
            _ => continue,
        };
        if about_terms_only(ty, &binders[..i]) || prop_class(ty) {
            let mut name = name
                .cloned()
                .unwrap_or_else(|| Tree::leaf(ANONYMOUS_HYPOTHESIS));
            name.variable_freecost = false;
            name.hypothesis_freecost = true;
            let mut out = binders.to_vec();
            out[i] = node2(EXPLICIT, name, ty.clone());
            return Some((
                "instance binder (binder info)",
                render(b),
                rebuild(out, concl.clone()),
            ));
        }
    }
    // binder_split / implicit_binder / and_imp on a binder.
    for (i, b) in binders.iter().enumerate() {
        let Some(kind) = binder_kind(&b.label) else {
            continue;
        };
        if b.children.len() > 2 {
            let (names, ty) = b.children.split_at(b.children.len() - 1);
            let mut out: Vec<Tree> = binders[..i].to_vec();
            out.extend(
                names
                    .iter()
                    .map(|n| Tree::node(b.label.clone(), vec![n.clone(), ty[0].clone()])),
            );
            out.extend_from_slice(&binders[i + 1..]);
            return Some(("binder_split", render(b), rebuild(out, concl.clone())));
        }
        if b.children.len() != 2 {
            continue;
        }
        if matches!(kind, BinderKind::Implicit | BinderKind::Strict) {
            let mut out = binders.to_vec();
            out[i] = Tree::node(EXPLICIT, b.children.clone());
            return Some(("implicit_binder", render(b), rebuild(out, concl.clone())));
        }
        let (name, ty) = (&b.children[0], &b.children[1]);
        if kind == BinderKind::Explicit && is_leaf(name) && is_universe(ty) {
            // A type variable goes to the front, after the auto-bound names
            // (`bind_free_variables`); nothing before it can mention it, so the move is a sound
            // reorder. Its universe stays: `Type` is not `Type u` (a statement about types of
            // universe 0 only), nor `Sort u` (which also ranges over propositions). `Type*`,
            // `Type _` and `Type u` with a `u` nothing else mentions are all one fresh universe
            // variable of this binder alone: written `Type*`. `{α β : Type u}` (one universe
            // shared) is not `{α β : Type*}` and stays as written.
            let fresh = match (ty.label.as_str(), ty.children.as_slice()) {
                ("Type*", []) => true,
                ("Type _ ", [u]) if is_leaf(u) => {
                    u.label == "_"
                        || (literal(u).is_none()
                            && binders
                                .iter()
                                .chain(std::iter::once(concl))
                                .map(|t| count_leaf(t, &u.label))
                                .sum::<usize>()
                                == 1)
                }
                _ => false,
            };
            let ty = if fresh {
                Tree::leaf("Type*")
            } else {
                ty.clone()
            };
            // After the type variables and auto-bound names already in front of it (their
            // order among themselves stays: moving one past another would never end).
            let front = binders[..i]
                .iter()
                .take_while(|b| is_auto_bound(b) || is_type_variable(b))
                .count();
            let mut out = binders.to_vec();
            out.remove(i);
            out.insert(front, node2(EXPLICIT, name.clone(), ty));
            if out != binders {
                return Some((
                    "type variable in front",
                    render(b),
                    rebuild(out, concl.clone()),
                ));
            }
        }
        // Nat.zero_le: a hypothesis `(h : 0 ≤ n)` on ℕ says nothing; dropped when unused.
        if kind == BinderKind::Explicit && typed::trivially_true(ty, carriers) {
            // A later binder of the same name (`and_imp` splits `h` into two `h`s) is no use.
            let used_later = binders[i + 1..]
                .iter()
                .any(|l| mentions_outside_name(l, &name.label))
                || mentions(concl, &name.label);
            if !used_later {
                let mut out = binders.to_vec();
                out.remove(i);
                return Some(("Nat.zero_le", render(b), rebuild(out, concl.clone())));
            }
        }
        if kind == BinderKind::Explicit && ty.label == AND && ty.children.len() == 2 {
            let used_later = binders[i + 1..].iter().any(|l| mentions(l, &name.label))
                || mentions(concl, &name.label);
            if !used_later {
                let mut out: Vec<Tree> = binders[..i].to_vec();
                for part in &ty.children {
                    out.push(node2(EXPLICIT, name.clone(), part.clone()));
                }
                out.extend_from_slice(&binders[i + 1..]);
                return Some(("and_imp", render(b), rebuild(out, concl.clone())));
            }
        }
    }
    // and_self: a hypothesis stated twice (`(hp : p.Prime) … (this : p.Prime)`) says it once;
    // the later copy goes when nothing names it and no binder between the copies rebinds a
    // name they mention.
    for (i, b) in binders.iter().enumerate() {
        let (EXPLICIT, [name, ty]) = (b.label.as_str(), b.children.as_slice()) else {
            continue;
        };
        if !name.hypothesis_freecost || !is_prop_shaped_or_applied(ty) {
            continue;
        }
        // The same text means the same proposition only if no binder in between rebinds a
        // name it mentions (`(x : ℕ) (h : x = 1) (x : ℕ) (h' : x = 1)` is about two `x`s).
        let mut names = Vec::new();
        leaves(ty, &mut names);
        let earlier = binders[..i].iter().enumerate().any(|(e, copy)| {
            copy.label == EXPLICIT
                && copy.children.len() == 2
                && copy.children[0].hypothesis_freecost
                && copy.children[1] == *ty
                && !binders[e + 1..i]
                    .iter()
                    .any(|b| binder_name(b).is_some_and(|n| names.contains(&n.label)))
        });
        let named_later = binders[i + 1..].iter().any(|l| mentions(l, &name.label))
            || mentions(concl, &name.label);
        if earlier && !named_later {
            let mut out = binders.to_vec();
            out.remove(i);
            return Some(("and_self", render(b), rebuild(out, concl.clone())));
        }
    }
    if let Some((new_binders, new_concl, hypothesis)) = subst(binders, concl, carriers) {
        return Some(("forall_eq", hypothesis, rebuild(new_binders, new_concl)));
    }
    if let Some((new_binders, new_concl, hypothesis)) = subst_value(binders, concl, carriers) {
        return Some((
            "forall_eq (function used at one point)",
            hypothesis,
            rebuild(new_binders, new_concl),
        ));
    }
    // intro: a leading ∀ or → of the conclusion becomes a binder.
    if quantifier(concl) == Some(Quant::Forall) && concl.children.len() == 2 {
        let binder = &concl.children[0];
        let new_binder = match binder_kind(&binder.label) {
            Some(BinderKind::Explicit) if binder.children.len() == 2 => Some(binder.clone()),
            _ if is_leaf(binder) => Some(node2(EXPLICIT, binder.clone(), Tree::leaf(UNKNOWN_TYPE))),
            _ => None,
        };
        if let Some(nb) = new_binder {
            let mut out = binders.to_vec();
            out.push(nb);
            return Some((
                "intro",
                render(concl),
                rebuild(out, concl.children[1].clone()),
            ));
        }
    }
    // `p → False` is left to `not_iff_imp_false` (it becomes `¬p`, like a conclusion written
    // `¬p`, which `intro` does not open either).
    if concl.label == IMP && concl.children.len() == 2 && !is_false(&concl.children[1]) {
        let mut name = Tree::leaf(ANONYMOUS_HYPOTHESIS);
        name.hypothesis_freecost = true;
        let mut out = binders.to_vec();
        out.push(node2(EXPLICIT, name, concl.children[0].clone()));
        return Some((
            "intro",
            render(concl),
            rebuild(out, concl.children[1].clone()),
        ));
    }
    // Last, once `forall_eq` and `intro` are done (they may still need the type a function's
    // use decides, e.g. when the function itself goes): a binder type the later uses decide is
    // left to elaboration, as in quantifiers (`canonical_at`): `(x : ℝ)` before
    // `(h : f x = 0)` with `(f : ℝ → ℝ)` is `(x : _)`.
    for (i, b) in binders.iter().enumerate() {
        let (EXPLICIT, [name, ty]) = (b.label.as_str(), b.children.as_slice()) else {
            continue;
        };
        if !is_leaf(name) || !name.variable_freecost || (is_leaf(ty) && ty.label == UNKNOWN_TYPE) {
            continue;
        }
        let mut rest: Vec<Tree> = binders[i + 1..].to_vec();
        rest.push(concl.clone());
        let scope = Tree::node("·", rest);
        if typed::infer_binder_type(&name.label, &scope, carriers).as_ref() == Some(ty) {
            let mut out = binders.to_vec();
            out[i] = auto_bound_binder(name.clone());
            return Some((
                "binder type (elaboration)",
                render(b),
                rebuild(out, concl.clone()),
            ));
        }
    }
    None
}

/// `forall_eq`/`forall_eq'`: `(x : T) … (h : x = e) … : p x` ↔ `… : p e` when `e` does not
/// mention `x`, nothing between the two binders mentions `x`, and nothing mentions `h`. The
/// variable and the hypothesis are dropped and `e` put in place of `x`.
fn subst(binders: &[Tree], concl: &Tree, carriers: &Carriers) -> Option<(Vec<Tree>, Tree, String)> {
    for (i, h) in binders.iter().enumerate() {
        if binder_kind(&h.label) != Some(BinderKind::Explicit) || h.children.len() != 2 {
            continue;
        }
        let (hname, eq) = (&h.children[0], &h.children[1]);
        if eq.label != EQ || eq.children.len() != 2 {
            continue;
        }
        let used_later = binders[i + 1..].iter().any(|b| mentions(b, &hname.label))
            || mentions(concl, &hname.label);
        if used_later {
            continue;
        }
        for (var, value) in [
            (&eq.children[0], &eq.children[1]),
            (&eq.children[1], &eq.children[0]),
        ] {
            if !is_leaf(var) || mentions(value, &var.label) {
                continue;
            }
            // The variable's binder: the last one before `h` that binds this name.
            let Some(j) = binders[..i].iter().rposition(|b| {
                binder_kind(&b.label) == Some(BinderKind::Explicit)
                    && b.children.len() == 2
                    && b.children[0].label == var.label
                    && !b.children[0].hypothesis_freecost
            }) else {
                continue;
            };
            if binders[j + 1..i].iter().any(|b| mentions(b, &var.label)) {
                continue;
            }
            // A later binder of the same name would shadow it: substitution is then not local.
            if binders[i + 1..]
                .iter()
                .any(|b| binder_name(b).is_some_and(|n| n.label == var.label))
            {
                continue;
            }
            let scopes: Vec<&Tree> = binders[i + 1..]
                .iter()
                .chain(std::iter::once(concl))
                .collect();
            // No β here: a function given by `(hf : f = fun x => e)` and applied stays, so that
            // `funext_iff` makes it `∀ x, f x = e`, where the statements that write it so meet it.
            let ty = &binders[j].children[1];
            let uncast = binders_casts::uses_at_own_type(&var.label, ty, &scopes, carriers);
            let typed_value = ascribed_where(value, ty, carriers, uncast);
            if !substitutable(&var.label, &typed_value, &scopes, None) {
                continue;
            }
            // `e` stands where `x` stood with `x`'s type: `(e : T)`, since the type decides
            // `/` and `-` (`(x : ℕ) (h : x = 1) : x / 2 = 0` is `(1 : ℕ) / 2 = 0`, not the
            // same as over ℚ). With no written type (`(x : _)`) the value's own elaboration
            // decides, as it did for `x`.
            let value = &typed_value;
            let mut out: Vec<Tree> = binders[..j].to_vec();
            out.extend_from_slice(&binders[j + 1..i]);
            out.extend(
                binders[i + 1..]
                    .iter()
                    .map(|b| substitute(b, &var.label, value)),
            );
            return Some((out, substitute(concl, &var.label, value), render(h)));
        }
    }
    None
}

/// `(e : T)`, unless `T` is unknown (`_`) or `e` has type `T` anyway (elaboration-lite: a
/// number type its own binders decide). Numerals alone are ℕ unless the context decides
/// otherwise, and a context that made a natural variable another type did so by coercing it
/// at the leaf (`binop%`), where the numeral takes that type with the same value: so numerals
/// put for a natural need no ascription. For any other type they do (`(x : ℤ) (h : x = 2)`
/// makes `x - 3` the integer `-1`; `2 - 3` is the natural `0`). Nor does a natural or integer
/// value with `-`, `/` or `%` in it: where the variable stood under a cast (`(x : ℝ)`, or an
/// operand `binop%` coerces), the cast went around the whole value, and `binop%` would push it
/// to the leaves of a bare `y - 3`, where it does not commute with truncation (`↑(y - 3)` is
/// not `↑y - 3`); the ascription `(y - 3 : ℕ)` keeps it a leaf.
fn ascribed(e: &Tree, ty: &Tree, carriers: &Carriers) -> Tree {
    ascribed_where(e, ty, carriers, false)
}

/// [`ascribed`], told whether no cast reaches the places the value goes to
/// ([`binders_casts::uses_at_own_type`]): then a truncating value needs no ascription either.
fn ascribed_where(e: &Tree, ty: &Tree, carriers: &Carriers, uncast: bool) -> Tree {
    let already = e.label == "( _ : _ )" && e.children.get(1) == Some(ty);
    fn truncating(t: &Tree) -> bool {
        [" _ - _ ", " _ / _ ", " _ % _ "].contains(&t.label.as_str())
            || (t.label != "( _ : _ )" && t.children.iter().any(truncating))
    }
    let own = elab::num_of_type(ty).is_some_and(|n| {
        let discrete = matches!(n, elab::Num::Nat | elab::Num::Int);
        let fits = match elab::type_of(e, carriers) {
            elab::Ty::Num(m) => m == n,
            elab::Ty::Numeral => n == elab::Num::Nat,
            elab::Ty::Unknown => false,
        };
        fits && (uncast || !(discrete && truncating(e)))
    });
    if (is_leaf(ty) && ty.label == UNKNOWN_TYPE) || already || own {
        return e.clone();
    }
    node2("( _ : _ )", e.clone(), ty.clone())
}

/// A proposition, judged by its head: a relation or connective, or a predicate application
/// (`Nat.Prime p`, `IsCompact K`) as hypotheses state them.
fn is_prop_shaped_or_applied(t: &Tree) -> bool {
    is_prop_shaped(t) || app_head(t).is_some()
}

/// A function variable used only at one point, where a hypothesis gives its value:
/// `(f : ℝ → ℝ) (h : f x = e) : P (f x)` says `P e`. One direction rewrites with `h`; the other
/// instantiates `f := fun _ => e`. So the binder of `f` and `h` go and `f x` becomes `e`, when
/// every occurrence of `f` after its binder is that same application `f x`, none sits between
/// the binder and `h`, `e` does not mention `f`, and nothing else names `h`.
fn subst_value(
    binders: &[Tree],
    concl: &Tree,
    carriers: &Carriers,
) -> Option<(Vec<Tree>, Tree, String)> {
    for (i, h) in binders.iter().enumerate() {
        if h.label != EXPLICIT || h.children.len() != 2 {
            continue;
        }
        let (hname, eq) = (&h.children[0], &h.children[1]);
        if !hname.hypothesis_freecost || eq.label != EQ || eq.children.len() != 2 {
            continue;
        }
        let used_later = binders[i + 1..].iter().any(|b| mentions(b, &hname.label))
            || mentions(concl, &hname.label);
        if used_later {
            continue;
        }
        for (app, value) in [
            (&eq.children[0], &eq.children[1]),
            (&eq.children[1], &eq.children[0]),
        ] {
            let Some(f) = app_head(app) else {
                continue;
            };
            if mentions_head(value, f) {
                continue;
            }
            let Some(j) = binders[..i].iter().rposition(|b| {
                b.label == EXPLICIT
                    && b.children.len() == 2
                    && b.children[0].label == f
                    && b.children[1].label == IMP
            }) else {
                continue;
            };
            let between_clear = binders[j + 1..i].iter().all(|b| !mentions_head(b, f));
            let only_there = binders[i + 1..]
                .iter()
                .chain(std::iter::once(concl))
                .all(|t| only_as(t, f, app));
            // A later binder of `f` or of a name in `app` would make an equal-looking `f x`
            // another term (`… : ∀ x, f x > 0` is about every `x`).
            let mut names = vec![f.to_owned()];
            leaves(app, &mut names);
            let shadowed = binders[i + 1..]
                .iter()
                .chain(std::iter::once(concl))
                .any(|t| names.iter().any(|n| binds_inside(t, n)));
            let mut value_names = Vec::new();
            leaves(value, &mut value_names);
            let captured = binders[i + 1..]
                .iter()
                .chain(std::iter::once(concl))
                .any(|t| value_names.iter().any(|n| binds_inside(t, n)));
            if !between_clear || !only_there || shadowed || captured {
                continue;
            }
            // `f x` had `f`'s codomain as its type; the value keeps it (see `subst`).
            let mut codomain = Some(&binders[j].children[1]);
            for _ in &app.children {
                codomain = codomain
                    .filter(|f| f.label == IMP && f.children.len() == 2)
                    .map(|f| &f.children[1]);
            }
            let Some(codomain) = codomain else {
                continue;
            };
            let value = &ascribed(value, codomain, carriers);
            let mut out: Vec<Tree> = binders[..j].to_vec();
            out.extend_from_slice(&binders[j + 1..i]);
            out.extend(binders[i + 1..].iter().map(|b| replace(b, app, value)));
            return Some((out, replace(concl, app, value), render(h)));
        }
    }
    None
}

/// Does some binder inside `t` bind `name`: a theorem-style binder `(x : T)`, or a binder of a
/// quantifier, a big operator (`∑ x in s, …`), `fun` or a set-builder
/// ([`typed::is_binding_node`])? Callers use it to refuse a rewrite that a rebinding would make
/// unsound (capture).
fn binds_inside(t: &Tree, name: &str) -> bool {
    if !is_leaf(t) && binder_kind(&t.label).is_some() && binds(t, name) {
        return true;
    }
    if typed::is_binding_node(&t.label) {
        let n = t.children.len();
        if t.children[..n.saturating_sub(1)]
            .iter()
            .any(|b| binds(b, name))
        {
            return true;
        }
    }
    t.children.iter().any(|c| binds_inside(c, name))
}

/// Does `t` use the name `f`, as a leaf or as the head of an application `"f _ …"`?
fn mentions_head(t: &Tree, f: &str) -> bool {
    t.label == f || app_head(t) == Some(f) || t.children.iter().any(|c| mentions_head(c, f))
}

/// Is every use of `f` in `t` the subtree `app`?
fn only_as(t: &Tree, f: &str, app: &Tree) -> bool {
    if t == app {
        return true;
    }
    let here = t.label == f || app_head(t) == Some(f);
    !here && t.children.iter().all(|c| only_as(c, f, app))
}

/// `t` with every subtree equal to `from` replaced by `to`.
fn replace(t: &Tree, from: &Tree, to: &Tree) -> Tree {
    if t == from {
        return to.clone();
    }
    let mut out = t.clone();
    out.children = t.children.iter().map(|c| replace(c, from, to)).collect();
    out
}

/// A quantifier's binder, recognised.
enum QBinder<'a> {
    /// `x` or `(x : T)`: one name, with its type when given.
    Plain,
    /// `(x y : T)`, split into one binder per name.
    Several(&'a Tree),
    /// `{x : T}` / `⦃x : T⦄`.
    Implicit(&'a Tree),
    /// `x ∈ s` as one node `" _ ∈ _ "[x, s]`.
    Predicate {
        name: &'a Tree,
        relation: String,
        bound: &'a Tree,
    },
}

fn classify_qbinder(b: &Tree) -> Option<QBinder<'_>> {
    if is_leaf(b) {
        return Some(QBinder::Plain);
    }
    match binder_kind(&b.label) {
        Some(BinderKind::Explicit) if b.children.len() == 2 => return Some(QBinder::Plain),
        Some(BinderKind::Implicit | BinderKind::Strict) if b.children.len() == 2 => {
            return Some(QBinder::Implicit(b))
        }
        Some(_) if b.children.len() > 2 => return Some(QBinder::Several(b)),
        Some(_) => return None,
        None => {}
    }
    let op = infix_op(&b.label)?;
    if PREDICATE_RELATIONS.contains(&op) && b.children.len() == 2 && is_leaf(&b.children[0]) {
        return Some(QBinder::Predicate {
            name: &b.children[0],
            relation: b.label.clone(),
            bound: &b.children[1],
        });
    }
    None
}

/// Canonical rules at a `∀`/`∃` node: split multi-binder quantifiers, unfold binder predicates,
/// make binders explicit.
fn quantifier_rule(t: &Tree, q: Quant) -> Option<(&'static str, Tree)> {
    let label = quant_label(q);
    let n = t.children.len();
    let body = &t.children[n - 1];
    // GTED's form of `∀ x ∈ s, p`: children [x, "∈"[s], p].
    if n >= 3 && is_leaf(&t.children[0]) && t.children[1].children.len() == 1 {
        // GTED labels it `"∈"`, our parser `"∈ _ "`.
        let rel = t.children[1].label.trim().trim_end_matches('_').trim();
        if PREDICATE_RELATIONS.contains(&rel) {
            let pred = node2(
                &format!(" _ {rel} _ "),
                t.children[0].clone(),
                t.children[1].children[0].clone(),
            );
            let mut children = vec![pred];
            children.extend_from_slice(&t.children[2..]);
            return Some(("binder_pred", Tree::node(t.label.clone(), children)));
        }
    }
    if n > 2 {
        let inner = Tree::node(label, t.children[1..].to_vec());
        return Some((
            "binder_split",
            Tree::node(label, vec![t.children[0].clone(), inner]),
        ));
    }
    match classify_qbinder(&t.children[0])? {
        QBinder::Plain => {
            if t.label != label {
                return Some(("binder_split", Tree::node(label, t.children.clone())));
            }
            // `∀ (h : p), q` with `q` not mentioning `h` is the term `p → q` (a non-dependent
            // Π-type; `→` is its notation). Only for a proposition `p`: `∀ (x : ℝ), q` stays.
            let b = &t.children[0];
            if q == Quant::Forall
                && binder_kind(&b.label) == Some(BinderKind::Explicit)
                && b.children.len() == 2
                && is_prop_shaped(&b.children[1])
                && !mentions(body, &b.children[0].label)
            {
                return Some((
                    "imp (non-dependent ∀)",
                    node2(IMP, b.children[1].clone(), body.clone()),
                ));
            }
            None
        }
        QBinder::Several(b) => {
            let (names, ty) = b.children.split_at(b.children.len() - 1);
            let mut acc = body.clone();
            for name in names.iter().rev() {
                let binder = Tree::node(b.label.clone(), vec![name.clone(), ty[0].clone()]);
                acc = node2(label, binder, acc);
            }
            Some(("binder_split", acc))
        }
        QBinder::Implicit(b) => Some((
            "implicit_binder",
            node2(
                label,
                Tree::node(EXPLICIT, b.children.clone()),
                body.clone(),
            ),
        )),
        QBinder::Predicate {
            name,
            relation,
            bound,
        } => {
            let pred = node2(&relation, name.clone(), bound.clone());
            let connective = if q == Quant::Forall { IMP } else { AND };
            Some((
                "binder_pred",
                node2(label, name.clone(), node2(connective, pred, body.clone())),
            ))
        }
    }
}

/// `let x := v; b` → `b[v/x]` (children `[x, v, b]` or `[x, T, v, b]`). A written type stays
/// with the value (`let x : ℝ := 1; x / 2` is `(1 : ℝ) / 2`, not the natural `1 / 2`), and a
/// function value is β-reduced where it is applied ([`binders_beta`]).
fn zeta(t: &Tree, carriers: &Carriers) -> Option<Tree> {
    let name = t.children.first().filter(|n| is_leaf(n))?;
    let n = t.children.len();
    let value = match t.children.as_slice() {
        [_, ty, v, _] => ascribed(v, ty, carriers),
        // No written type: the value is elaborated first, on its own (numerals default to ℕ:
        // `let x := 7 / 2` is the natural 3 whatever the body is about), so it keeps the type
        // it has there. A compound value whose type is unknown is left as a `let`.
        [_, v, _] => match elab::type_of(v, carriers) {
            elab::Ty::Num(num) => ascribed(v, &Tree::leaf(elab::type_name(num)), carriers),
            elab::Ty::Numeral => ascribed(v, &Tree::leaf("ℕ"), carriers),
            elab::Ty::Unknown if is_leaf(v) => v.clone(),
            elab::Ty::Unknown => return None,
        },
        _ => t.children[n - 2].clone(),
    };
    let body = &t.children[n - 1];
    substitutable(&name.label, &value, &[body], Some(carriers))
        .then(|| substitute_beta(body, &name.label, &value, carriers))
}

/// Can every use of `name` in `scopes` be replaced by `value` with [`substitute`]? Not when
/// `name` is applied (`f a` keeps `f` in its label, where [`substitute`] does not look: the
/// definition would be lost), rebound inside (`∑ x in s, x`: another `x`), or when a name of
/// `value` is bound inside (capture).
fn substitutable(name: &str, value: &Tree, scopes: &[&Tree], beta: Option<&Carriers>) -> bool {
    // With `beta`, an application of `name` is fine where the value β-reduces there.
    let applied = |t: &Tree, f: &str| {
        fn walk(t: &Tree, f: &str, value: &Tree, beta: Option<&Carriers>) -> bool {
            let reduces =
                || beta.is_some_and(|c| binders_beta::beta(value, &t.children, c).is_some());
            let here = !is_leaf(t) && (t.label == f || (app_head(t) == Some(f) && !reduces()));
            here || t.children.iter().any(|c| walk(c, f, value, beta))
        }
        walk(t, f, value, beta)
    };
    let mut names = Vec::new();
    leaves(value, &mut names);
    scopes.iter().all(|t| {
        !applied(t, name) && !binds_inside(t, name) && !names.iter().any(|n| binds_inside(t, n))
    })
}

/// [`substitute`], and each application `name a…` β-reduced with `value`
/// ([`binders_beta::beta`]; [`substitutable`] has checked it reduces).
fn substitute_beta(t: &Tree, name: &str, value: &Tree, carriers: &Carriers) -> Tree {
    if is_leaf(t) {
        return substitute(t, name, value);
    }
    if quantifier(t).is_some() && binds(&t.children[0], name) {
        return t.clone();
    }
    let mut out = t.clone();
    out.children = t
        .children
        .iter()
        .map(|c| substitute_beta(c, name, value, carriers))
        .collect();
    if app_head(t) == Some(name) {
        if let Some(reduced) = binders_beta::beta(value, &out.children, carriers) {
            return reduced;
        }
    }
    out
}

/// `t` with every leaf labelled `name` replaced by `value`, stopping under binders that rebind
/// `name`.
fn substitute(t: &Tree, name: &str, value: &Tree) -> Tree {
    if is_leaf(t) {
        return if t.label == name {
            value.clone()
        } else {
            t.clone()
        };
    }
    if quantifier(t).is_some() && binds(&t.children[0], name) {
        return t.clone();
    }
    let mut out = t.clone();
    out.children = t
        .children
        .iter()
        .map(|c| substitute(c, name, value))
        .collect();
    out
}

/// Does this quantifier binder bind `name`?
fn binds(binder: &Tree, name: &str) -> bool {
    binder_name(binder).is_some_and(|n| n.label == name)
}

/// The (first) name a binder introduces.
fn binder_name(binder: &Tree) -> Option<&Tree> {
    if is_leaf(binder) {
        return Some(binder);
    }
    let first = binder.children.first()?;
    let named = binder_kind(&binder.label).is_some()
        || infix_op(&binder.label).is_some_and(|op| PREDICATE_RELATIONS.contains(&op));
    (named && is_leaf(first)).then_some(first)
}

/// Mark every bound name (theorem binders, quantifier binders) and its occurrences in scope as
/// `variable_freecost`, unless already a hypothesis name.
fn flag_bound_names(t: &mut Tree) {
    let mut scope = Vec::new();
    let list = t
        .children
        .first()
        .is_some_and(|c| is_binder_list(t, c, true));
    if list {
        if let Some(c) = t.children.first_mut() {
            flag_in(c, &mut scope, true);
        }
    } else {
        flag_in(t, &mut scope, false);
    }
}

fn flag_leaf(t: &mut Tree, scope: &[String]) {
    if is_leaf(t) && !t.hypothesis_freecost && scope.contains(&t.label) {
        t.variable_freecost = true;
    }
}

fn flag_in(t: &mut Tree, scope: &mut Vec<String>, is_list: bool) {
    if is_leaf(t) {
        flag_leaf(t, scope);
        return;
    }
    // `f x` with `f` bound: renamable like `f` (module `binders_apply`).
    if !is_list {
        binders_apply::flag_bound_head(t, scope);
    }
    let depth = scope.len();
    let scoped = is_list || quantifier(t).is_some();
    if scoped {
        let n = t.children.len();
        for i in 0..n {
            let c = &mut t.children[i];
            if i + 1 < n {
                // A binder: its type is in the outer scope, its name is bound from here on.
                let name = binder_name(c).map(|n| (n.label.clone(), n.hypothesis_freecost));
                if is_leaf(c) {
                    if let Some((n, false)) = &name {
                        scope.push(n.clone());
                    }
                    flag_leaf(c, scope);
                    continue;
                }
                let first_is_name = name.is_some();
                for (j, cc) in c.children.iter_mut().enumerate() {
                    if j == 0 && first_is_name {
                        continue;
                    }
                    flag_in(cc, scope, false);
                }
                if let Some((n, is_hyp)) = name {
                    if !is_hyp {
                        scope.push(n);
                    }
                    if let Some(first) = c.children.first_mut() {
                        flag_leaf(first, scope);
                    }
                }
            } else {
                flag_in(c, scope, false);
            }
        }
    } else {
        for c in &mut t.children {
            flag_in(c, scope, false);
        }
    }
    scope.truncate(depth);
}

// ---------------------------------------------------------------------------------------------
// Commutativity gate

/// Which of `+` and `*` are known commutative in a statement (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Commutativity {
    pub add: bool,
    pub mul: bool,
}

const COMMUTATIVE_NUMERIC: [&str; 13] = [
    "ℕ",
    "ℤ",
    "ℚ",
    "ℝ",
    "ℂ",
    "ℕ+",
    "ℝ≥0",
    "ℝ≥0∞",
    "NNReal",
    "ENNReal",
    "EReal",
    "Nat",
    "Int",
];
const COMMUTATIVE_WRAPPERS: [&str; 6] = [
    "Fin _ ",
    "ZMod _ ",
    "Set _ ",
    "Finset _ ",
    "Multiset _ ",
    "Polynomial _ ",
];

fn is_universe(t: &Tree) -> bool {
    let l = t.label.trim();
    l.starts_with("Type") || l.starts_with("Sort")
}

/// A type whose values are propositions' proofs (a hypothesis), judged by its head.
fn is_prop_shaped(t: &Tree) -> bool {
    if quantifier(t).is_some() || t.label == NOT {
        return true;
    }
    infix_op(&t.label).is_some_and(|op| {
        [
            "=", "≠", "<", "≤", ">", "≥", "∧", "∨", "↔", "∣", "∈", "∉", "⊆", "⊂",
        ]
        .contains(&op)
    })
}

impl Commutativity {
    /// Look at every binder of `tree` and decide.
    pub fn of(tree: &Tree) -> Commutativity {
        let mut binders: Vec<(&Tree, &Tree, bool)> = Vec::new(); // (name, type, is instance)
        collect_binders(tree, &mut binders);
        let mut carriers_add: Vec<&str> = Vec::new();
        let mut carriers_mul: Vec<&str> = Vec::new();
        for (_, ty, instance) in &binders {
            if !instance {
                continue;
            }
            // `[CommRing R]`: the class head and its argument.
            let class = ty.label.split_whitespace().next().unwrap_or("");
            let class = class.rsplit('.').next().unwrap_or(class);
            let Some(arg) = ty.children.first().filter(|a| is_leaf(a)) else {
                continue;
            };
            let mul = (class.contains("Comm") && !class.starts_with("AddComm"))
                || class.contains("Field")
                || class == "EuclideanDomain"
                || class == "RCLike";
            let add = mul
                || class.contains("AddComm")
                || class.contains("Ring")
                || class.contains("Field");
            if mul {
                carriers_mul.push(arg.label.as_str());
            }
            if add {
                carriers_add.push(arg.label.as_str());
            }
        }
        let mut out = Commutativity {
            add: true,
            mul: true,
        };
        for (name, ty, instance) in &binders {
            if *instance || name.hypothesis_freecost || is_universe(ty) || is_prop_shaped(ty) {
                continue;
            }
            if ty.label == UNKNOWN_TYPE {
                continue;
            }
            out.add &= commutative_type(ty, &carriers_add);
            out.mul &= commutative_type(ty, &carriers_mul);
        }
        out
    }
}

fn commutative_type(ty: &Tree, carriers: &[&str]) -> bool {
    if is_leaf(ty) {
        return COMMUTATIVE_NUMERIC.contains(&ty.label.as_str())
            || carriers.contains(&ty.label.as_str());
    }
    // A function's domain counts too: its arguments are terms of the statement, and the
    // binder type of one may be dropped (`binder type (elaboration)`) once `f A` decides it.
    // Products are commutative componentwise.
    if (ty.label == IMP || ty.label == " _ × _ ") && ty.children.len() == 2 {
        return ty.children.iter().all(|c| commutative_type(c, carriers));
    }
    if COMMUTATIVE_WRAPPERS.contains(&ty.label.as_str()) && ty.children.len() == 1 {
        let arg = &ty.children[0];
        return ty.label == "Fin _ " || ty.label == "ZMod _ " || commutative_type(arg, carriers);
    }
    false
}

fn collect_binders<'a>(t: &'a Tree, out: &mut Vec<(&'a Tree, &'a Tree, bool)>) {
    // A one-binder list `" _ : _ "[binder, conclusion]` has an explicit binder's label: it is
    // not a binder of its conclusion, only its children are binders.
    if let [list] = t.children.as_slice() {
        if is_binder_list(t, list, true) {
            for c in &list.children {
                collect_binders_in(c, out);
            }
            return;
        }
    }
    collect_binders_in(t, out);
}

fn collect_binders_in<'a>(t: &'a Tree, out: &mut Vec<(&'a Tree, &'a Tree, bool)>) {
    if let Some(kind) = binder_kind(&t.label) {
        if let [names @ .., ty] = t.children.as_slice() {
            for n in names {
                out.push((n, ty, kind == BinderKind::Instance));
            }
            if names.is_empty() {
                // `[Group G]` with no name: the class is the only child.
                out.push((ty, ty, kind == BinderKind::Instance));
            }
        }
    } else if t.label.starts_with('[') && t.label.ends_with(']') && t.children.len() == 1 {
        out.push((&t.children[0], &t.children[0], true));
    }
    for c in &t.children {
        collect_binders_in(c, out);
    }
}

// ---------------------------------------------------------------------------------------------
// Moves

/// Every move the search may take on `tree` (one side), given the `other` side (used only to
/// align binder lists) and a distance on small trees. Deterministic order: preorder positions,
/// rules in a fixed order at each position.
pub fn moves(
    tree: &Tree,
    other: &Tree,
    comm: Commutativity,
    carriers: &Carriers,
    distance: &mut dyn FnMut(&Tree, &Tree) -> u32,
    out: &mut Vec<Rewrite>,
) {
    let complete = moves_within(
        tree,
        other,
        comm,
        carriers,
        distance,
        Clock::unlimited(),
        out,
    );
    debug_assert!(complete, "an unlimited clock never runs out");
}

/// [`moves`], stopping once `clock` has run out: it is read at every node visited, every
/// binder pair `binder_reorder` measures and every binder swap, so the overrun is one node's
/// rule attempts. Returns whether the list is complete (`false`: out of time, `out` holds a
/// prefix of the moves).
pub fn moves_within(
    tree: &Tree,
    other: &Tree,
    comm: Commutativity,
    carriers: &Carriers,
    distance: &mut dyn FnMut(&Tree, &Tree) -> u32,
    clock: Clock,
    out: &mut Vec<Rewrite>,
) -> bool {
    let mut path = Vec::new();
    // Numeral bounds shift only on ℕ/ℤ, judged at each relation.
    moves_in(tree, tree, &mut path, comm, carriers, clock, out);
    if clock.passed() {
        return false;
    }
    if let Some(r) = binder_reorder_within(tree, other, distance, clock) {
        out.push(r);
    }
    binder_swaps(tree, clock, out);
    !clock.passed()
}

/// `forall_swap` on the theorem's binders: two adjacent variable binders trade places when the
/// second's type does not mention the first. `binder_reorder` aligns binders by their best
/// matches, which for binders written the same (`(a b : G)` on both sides) is the identity; the
/// swap is what lets `(a b : G) : f (a * b) = 1` meet `(a b : G) : f (b * a) = 1` up to
/// renaming.
fn binder_swaps(tree: &Tree, clock: Clock, out: &mut Vec<Rewrite>) {
    let Some((list, path)) = binder_list(tree) else {
        return;
    };
    let k = list.children.len() - 1;
    let variable = |b: &Tree| {
        b.label == EXPLICIT
            && b.children.len() == 2
            && is_leaf(&b.children[0])
            && !b.children[0].hypothesis_freecost
            && !is_prop_shaped(&b.children[1])
    };
    for i in 0..k.saturating_sub(1) {
        if clock.passed() {
            return;
        }
        let (a, b) = (&list.children[i], &list.children[i + 1]);
        if !variable(a) || !variable(b) || mentions(&b.children[1], &a.children[0].label) {
            continue;
        }
        let mut children = list.children.clone();
        children.swap(i, i + 1);
        let at = format!("{} {}", render(a), render(b));
        out.push(Rewrite {
            applied: Applied {
                rule: "forall_swap",
                at,
            },
            tree: replace_at(tree, &path, Tree::node(list.label.clone(), children)),
        });
    }
}

fn moves_in(
    root: &Tree,
    t: &Tree,
    path: &mut Vec<usize>,
    comm: Commutativity,
    carriers: &Carriers,
    clock: Clock,
    out: &mut Vec<Rewrite>,
) {
    if clock.passed() {
        return;
    }
    let mut push = |rule: &'static str, new: Tree| {
        out.push(Rewrite {
            applied: Applied {
                rule,
                at: render(t),
            },
            tree: replace_at(root, path, new),
        });
    };
    // The moves are declared as data (`rules/table.rs` and the family tables).
    let ctx = table::Ctx {
        carriers,
        at: Some((root, path.as_slice(), comm)),
    };
    for (rule, new) in table::moves_at(t, &ctx) {
        push(rule, new);
    }
    for (i, c) in t.children.iter().enumerate() {
        path.push(i);
        moves_in(root, c, path, comm, carriers, clock, out);
        path.pop();
    }
}

/// Does `t` contain a term whose type no binder tells: an unparsed span, or a matrix literal
/// `!![a, b; c, d]` (the parser's one node `!![ _ , _ ; _ , _ ]`; also the older reading `!` of
/// `!` of an opaque node, in trees read from JSON)? Products of such
/// terms are not known to commute: `!![1, 2; 3, 4] * !![x, 0; 0, 1]` is a matrix product.
pub(crate) fn opaque_or_matrix(t: &Tree) -> bool {
    let matrix = t.label.starts_with("!![")
        || t.label.starts_with("![")
        || (t.label == "!"
            && t.children
                .first()
                .is_some_and(|c| c.label == "!" || c.label.starts_with('[')));
    t.unparsed || matrix || t.children.iter().any(opaque_or_matrix)
}

/// Equal once flagged names are ignored: swapping such operands changes no distance under free
/// renaming (`x + y`, `h₀ = h₁`), so the move is not offered.
/// Are `a` and `b` the same statement up to renaming bound variables (alpha-equivalence)?
/// Every bound leaf must be bound by the binder at the same position on both sides: `∀ x y,
/// x < y` and `∀ y x, x < y` differ, though GTED's free renaming, which prices each leaf alone,
/// makes them distance 0. Binders are the theorem's binder list and the nodes that bind in
/// their last child (`∀ ∃ ∑ fun {x | …}`); a flagged leaf no recognised binder binds must have
/// one counterpart throughout. Hypothesis names are compared the same way (`intro` names every
/// premise `h✝`; each is its own binder, and none is ever used).
pub fn alpha_equivalent(a: &Tree, b: &Tree) -> bool {
    let mut alpha = Alpha::default();
    if a.label != b.label || a.children.len() != b.children.len() {
        return false;
    }
    // The root (`theorem`) holds the binder list as its only child.
    a.children
        .iter()
        .zip(&b.children)
        .all(|(x, y)| alpha.walk(x, y, a.children.len() == 1))
}

#[derive(Default)]
struct Alpha<'t> {
    /// Binders in scope, innermost last: the name on each side.
    scope: Vec<(&'t str, &'t str)>,
    /// Names no recognised binder binds: one counterpart each way.
    forward: Vec<(&'t str, &'t str)>,
}

impl<'t> Alpha<'t> {
    fn walk(&mut self, a: &'t Tree, b: &'t Tree, root: bool) -> bool {
        if a.children.len() != b.children.len() {
            return false;
        }
        if is_leaf(a) {
            return self.leaf(a, b);
        }
        if a.variable_freecost != b.variable_freecost {
            // A bound function applied against a constant one (`f x` with `f` bound, `f x`
            // with `f` from the header).
            return false;
        }
        if let (Some(fa), Some(fb)) = (
            binders_apply::flagged_head(a),
            binders_apply::flagged_head(b),
        ) {
            // Bound function heads: checked as the bound leaves they are.
            return self.names(fa, fb, (true, false), (true, false))
                && a.children
                    .iter()
                    .zip(&b.children)
                    .all(|(x, y)| self.walk(x, y, false));
        }
        if a.label != b.label {
            return false;
        }
        let n = a.children.len();
        // The theorem's binder list is the root's only child (an explicit binder has the same
        // label as a one-binder list).
        let scoping = n >= 2
            && ((root && binder_list_arity(&a.label).is_some_and(|k| k + 1 == n))
                || typed::is_binding_node(&a.label));
        if !scoping {
            return a
                .children
                .iter()
                .zip(&b.children)
                .all(|(x, y)| self.walk(x, y, false));
        }
        let depth = self.scope.len();
        let mut ok = true;
        for (x, y) in a.children[..n - 1].iter().zip(&b.children[..n - 1]) {
            ok = ok && self.binder(x, y);
        }
        ok = ok && self.walk(&a.children[n - 1], &b.children[n - 1], false);
        self.scope.truncate(depth);
        ok
    }

    /// A binder: its type in the current scope, then its name in scope for what follows.
    fn binder(&mut self, x: &'t Tree, y: &'t Tree) -> bool {
        match (binder_name(x), binder_name(y)) {
            (Some(nx), Some(ny)) if is_leaf(x) && is_leaf(y) => {
                self.scope.push((&nx.label, &ny.label));
                true
            }
            (Some(nx), Some(ny)) if !is_leaf(x) && !is_leaf(y) => {
                if x.label != y.label || x.children.len() != y.children.len() {
                    return false;
                }
                let ok = x.children[1..]
                    .iter()
                    .zip(&y.children[1..])
                    .all(|(p, q)| self.walk(p, q, false));
                self.scope.push((&nx.label, &ny.label));
                ok
            }
            (None, None) => self.walk(x, y, false),
            _ => false,
        }
    }

    fn leaf(&mut self, a: &'t Tree, b: &'t Tree) -> bool {
        self.names(
            &a.label,
            &b.label,
            (a.variable_freecost, a.hypothesis_freecost),
            (b.variable_freecost, b.hypothesis_freecost),
        )
    }

    /// A name on each side (a leaf, or a bound function's head), with its flags
    /// (variable, hypothesis): bound at the same binder, or free with one counterpart.
    fn names(&mut self, la: &'t str, lb: &'t str, fa: (bool, bool), fb: (bool, bool)) -> bool {
        let bound_a = self.scope.iter().rposition(|(x, _)| *x == la);
        let bound_b = self.scope.iter().rposition(|(_, y)| *y == lb);
        match (bound_a, bound_b) {
            (Some(i), Some(j)) => i == j,
            (None, None) if (fa.0 && fb.0) || (fa.1 && fb.1) => {
                let clash = self.forward.iter().any(|&(x, y)| (x == la) != (y == lb));
                if !clash && !self.forward.contains(&(la, lb)) {
                    self.forward.push((la, lb));
                }
                !clash
            }
            (None, None) => la == lb && fa == fb,
            _ => false,
        }
    }
}

/// Does the binder mention `name` anywhere but in its own name position?
fn mentions_outside_name(binder: &Tree, name: &str) -> bool {
    if is_leaf(binder) {
        return false;
    }
    let skip_first = binder_name(binder).is_some();
    binder
        .children
        .iter()
        .enumerate()
        .any(|(i, c)| !(i == 0 && skip_first) && mentions(c, name))
}

/// `root` with the subtree at `path` replaced by `new`.
pub fn replace_at(root: &Tree, path: &[usize], new: Tree) -> Tree {
    match path.split_first() {
        None => new,
        Some((&i, rest)) => {
            let mut out = Tree {
                label: root.label.clone(),
                children: Vec::with_capacity(root.children.len()),
                variable_freecost: root.variable_freecost,
                hypothesis_freecost: root.hypothesis_freecost,
                span: root.span,
                unparsed: root.unparsed,
            };
            for (j, c) in root.children.iter().enumerate() {
                if j == i {
                    out.children.push(replace_at(c, rest, new.clone()));
                } else {
                    out.children.push(c.clone());
                }
            }
            out
        }
    }
}

/// The binder-list node of a theorem tree and its path from the root.
fn binder_list(tree: &Tree) -> Option<(&Tree, Vec<usize>)> {
    let [only] = tree.children.as_slice() else {
        return None;
    };
    is_binder_list(tree, only, true).then(|| (only, vec![0]))
}

/// [`binder_reorder_within`] with no deadline.
#[cfg(test)]
fn binder_reorder(
    tree: &Tree,
    other: &Tree,
    distance: &mut dyn FnMut(&Tree, &Tree) -> u32,
) -> Option<Rewrite> {
    binder_reorder_within(tree, other, distance, Clock::unlimited())
}

/// `binder_reorder`: permute this side's binders towards the order of their best matches on the
/// other side (greedy matching by distance), keeping every binder after the binders whose names
/// it mentions. Gives up (`None`) once `clock` has run out (read before each binder pair is
/// measured and each binder is placed).
fn binder_reorder_within(
    tree: &Tree,
    other: &Tree,
    distance: &mut dyn FnMut(&Tree, &Tree) -> u32,
    clock: Clock,
) -> Option<Rewrite> {
    let (list, path) = binder_list(tree)?;
    let (other_list, _) = binder_list(other)?;
    let k = list.children.len() - 1;
    let m = other_list.children.len() - 1;
    if k < 2 || m == 0 {
        return None;
    }
    let mine = &list.children[..k];
    let theirs = &other_list.children[..m];
    // Cost, then whether the types differ as written and whether the names differ (free
    // renaming makes `(h : b < a + c)` as close to `(h' : a < b + c)` as to its own copy, and all
    // variable binders of one type equally close; the same text is the better guess), then
    // position.
    let mut costs: Vec<(u32, bool, bool, usize, usize)> = Vec::with_capacity(k * m);
    for (i, a) in mine.iter().enumerate() {
        for (j, b) in theirs.iter().enumerate() {
            if clock.passed() {
                return None;
            }
            let names_differ = binder_name(a).map(|n| &n.label) != binder_name(b).map(|n| &n.label);
            let types_differ = a.children.get(1..) != b.children.get(1..);
            costs.push((distance(a, b), types_differ, names_differ, i, j));
        }
    }
    costs.sort_unstable();
    let mut matched_mine: Vec<Option<usize>> = vec![None; k];
    let mut taken = vec![false; m];
    for (_, _, _, i, j) in costs {
        if matched_mine[i].is_none() && !taken[j] {
            matched_mine[i] = Some(j);
            taken[j] = true;
        }
    }
    // Desired rank: the match's position; unmatched binders stay just after their predecessor.
    let mut rank = vec![0f64; k];
    let mut last = -1.0f64;
    for i in 0..k {
        rank[i] = match matched_mine[i] {
            Some(j) => j as f64,
            None => last + 0.5,
        };
        last = rank[i];
    }
    // Dependencies: binder i must stay after every earlier binder whose name it mentions.
    let names: Vec<Option<&str>> = mine
        .iter()
        .map(|b| binder_name(b).map(|n| n.label.as_str()))
        .collect();
    // Computed once (k² name lookups), not once per placement (k³ on a wide statement).
    let mut depends_on = vec![false; k * k];
    for i in 0..k {
        if clock.passed() {
            return None;
        }
        for p in 0..i {
            depends_on[i * k + p] = names[p].is_some_and(|n| mentions_outside_name(&mine[i], n));
        }
    }
    let depends = |i: usize, p: usize| -> bool { depends_on[i * k + p] };
    let mut placed = vec![false; k];
    let mut order = Vec::with_capacity(k);
    while order.len() < k {
        if clock.passed() {
            return None;
        }
        let next = (0..k)
            .filter(|&i| !placed[i] && (0..k).all(|p| placed[p] || !depends(i, p)))
            .min_by(|&a, &b| rank[a].total_cmp(&rank[b]).then(a.cmp(&b)))?;
        placed[next] = true;
        order.push(next);
    }
    if order.iter().enumerate().all(|(pos, &i)| pos == i) {
        return None;
    }
    let mut children: Vec<Tree> = order.iter().map(|&i| mine[i].clone()).collect();
    children.push(list.children[k].clone());
    let new_list = Tree::node(list.label.clone(), children);
    let at = order
        .iter()
        .map(|&i| names[i].unwrap_or("_"))
        .collect::<Vec<_>>()
        .join(" ");
    Some(Rewrite {
        applied: Applied {
            rule: "binder_reorder",
            at: format!("binders reordered to: {at}"),
        },
        tree: replace_at(tree, &path, new_list),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::{ted, CostModel};
    use crate::trees::parse::{parse_statement, Header};

    fn tree(text: &str) -> Tree {
        parse_statement(text, &Header::default())
            .unwrap_or_else(|e| panic!("test statement does not parse: {e}: {text}"))
            .tree
    }

    fn canon(text: &str) -> Tree {
        canonicalize(&tree(text)).0
    }

    fn rules_used(text: &str) -> Vec<&'static str> {
        canonicalize(&tree(text)).1.iter().map(|a| a.rule).collect()
    }

    fn free(a: &Tree, b: &Tree) -> u32 {
        ted(a, b, CostModel { free_rename: true })
    }

    /// Both statements have the same canonical form.
    fn same(a: &str, b: &str) {
        let (ca, cb) = (canon(a), canon(b));
        assert_eq!(
            free(&ca, &cb),
            0,
            "expected equal canonical forms:\n{a}\n{b}"
        );
    }

    /// The canonical forms still differ.
    fn differ(a: &str, b: &str) {
        let (ca, cb) = (canon(a), canon(b));
        assert!(free(&ca, &cb) > 0, "must stay apart:\n{a}\n{b}");
    }

    /// The rules of every move available on `text` (any `other` side).
    fn move_rules(text: &str) -> Vec<(&'static str, String)> {
        let t = canon(text);
        let mut out = Vec::new();
        let mut d = |a: &Tree, b: &Tree| free(a, b);
        moves(
            &t,
            &t,
            Commutativity::of(&t),
            &Carriers::of(&t),
            &mut d,
            &mut out,
        );
        out.into_iter()
            .map(|r| (r.applied.rule, r.applied.at))
            .collect()
    }

    #[test]
    fn gt_ge_become_lt_le_with_operands_swapped() {
        same(
            "theorem t (x : ℝ) (h : x > 0) : x ≥ 1",
            "theorem t (x : ℝ) (h : 0 < x) : 1 ≤ x",
        );
        assert_eq!(
            rules_used("theorem t (x : ℝ) : x > 0"),
            ["gt_iff_lt"],
            "one rewrite"
        );
        // `<` is not symmetric: `x < 0` is not `0 < x`.
        differ("theorem t (x : ℝ) : x > 0", "theorem t (x : ℝ) : x < 0");
        differ("theorem t (x : ℝ) : x ≥ 1", "theorem t (x : ℝ) : x ≤ 1");
    }

    #[test]
    fn not_eq_is_ne() {
        same("theorem t (x : ℤ) : ¬ (x = 2)", "theorem t (x : ℤ) : x ≠ 2");
        differ("theorem t (x : ℤ) : ¬ (x < 2)", "theorem t (x : ℤ) : x ≠ 2");
    }

    #[test]
    fn conjunctive_premises_are_curried() {
        same(
            "theorem t (x : ℝ) (h : 0 < x ∧ x < 1) : x ^ 2 < 1",
            "theorem t (x : ℝ) (h₀ : 0 < x) (h₁ : x < 1) : x ^ 2 < 1",
        );
        same(
            "theorem t (f : ℕ → ℕ) (h : ∀ n, 0 < n ∧ n < 5 → f n = 0) : f 1 = 0",
            "theorem t (f : ℕ → ℕ) (h : ∀ n, 0 < n → n < 5 → f n = 0) : f 1 = 0",
        );
        // `∨` premises are not split, and a conjunction in a conclusion stays.
        differ(
            "theorem t (x : ℝ) (h : 0 < x ∨ x < 1) : x = 1",
            "theorem t (x : ℝ) (h₀ : 0 < x) (h₁ : x < 1) : x = 1",
        );
        differ(
            "theorem t (x : ℝ) : 0 < x ∧ x < 1",
            "theorem t (x : ℝ) : 0 < x → x < 1",
        );
    }

    #[test]
    fn hypothesis_named_later_is_not_split() {
        // `h` is mentioned by the conclusion (`h.1`), so splitting it would lose a name.
        let t = canon("theorem t (p q : Prop) (h : p ∧ q) : h.1 = h.1");
        let list = &t.children[0];
        assert_eq!(binder_list_arity(&list.label), Some(3), "{t:?}");
    }

    #[test]
    fn binders_and_premises_and_leading_foralls_are_one_form() {
        same(
            "theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2",
            "theorem t : ∀ x : ℝ, 0 < x → 0 < x ^ 2",
        );
        same(
            "theorem t (a b : ℕ) : a + b = b + a",
            "theorem t : ∀ (a : ℕ) (b : ℕ), a + b = b + a",
        );
        same("theorem t {n : ℕ} : n = n", "theorem t (n : ℕ) : n = n");
        // `→` is not commutative: premise and conclusion do not trade places.
        differ(
            "theorem t (x : ℝ) : 0 < x → x ≠ 0",
            "theorem t (x : ℝ) : x ≠ 0 → 0 < x",
        );
    }

    #[test]
    fn binder_predicates_unfold() {
        same(
            "theorem t (S : Set ℝ) : ∀ x ∈ S, x ≠ 2",
            "theorem t (S : Set ℝ) : ∀ x, x ∈ S → x ≠ 2",
        );
        same(
            "theorem t : ∃ n > 0, n ^ 2 = 4",
            "theorem t : ∃ n, 0 < n ∧ n ^ 2 = 4",
        );
        // ∃ unfolds with `∧`, not `→`.
        differ(
            "theorem t : ∃ n > 0, n ^ 2 = 4",
            "theorem t : ∃ n, 0 < n → n ^ 2 = 4",
        );
    }

    #[test]
    fn let_is_inlined() {
        // `let y := 3; y + x = 5` (the parser does not build `let` nodes yet: built by hand).
        let body = Tree::node(
            EQ,
            vec![
                Tree::node(ADD, vec![Tree::leaf("y"), Tree::leaf("x")]),
                Tree::leaf("5"),
            ],
        );
        let with_let = Tree::node(
            "let _  := _ ; _ ",
            vec![Tree::leaf("y"), Tree::leaf("3"), body],
        );
        let (t, log) = canonicalize(&with_let);
        assert_eq!(log[0].rule, "zeta");
        let expected = Tree::node(
            EQ,
            vec![
                Tree::node(ADD, vec![Tree::leaf("3"), Tree::leaf("x")]),
                Tree::leaf("5"),
            ],
        );
        assert_eq!(t, expected);
    }

    #[test]
    fn coercions_and_ascriptions_are_never_erased() {
        differ(
            "theorem t : (1 : ℝ) / 3 = 1 / 3",
            "theorem t : 1 / 3 = 1 / 3",
        );
        differ(
            "theorem t (n : ℕ) : (↑n : ℝ) = 2",
            "theorem t (n : ℕ) : n = 2",
        );
        let rules = move_rules("theorem t : (1 : ℝ) / 3 = 1 / 3");
        assert!(rules.iter().all(|(r, _)| *r == "eq_comm"), "{rules:?}");
    }

    #[test]
    fn symmetric_relations_and_connectives_commute() {
        let rules = move_rules("theorem t (x : ℝ) (h : x = 1 ∨ x ≠ 2) : (x = 1 ∧ x < 3) ↔ x = 1");
        for r in ["eq_comm", "ne_comm", "or_comm", "and_comm", "iff_comm"] {
            assert!(
                rules.iter().any(|(m, _)| *m == r),
                "{r} missing in {rules:?}"
            );
        }
    }

    #[test]
    fn non_commutative_operators_never_commute() {
        let rules = move_rules(
            "theorem t (a b : ℝ) (h : a < b) (h' : a ≤ b) (f : ℝ → ℝ) (hf : a ∣ b) : a - b / a ^ b = f a",
        );
        for (r, at) in &rules {
            assert!(
                ["eq_comm", "binder_reorder", "forall_swap"].contains(r),
                "unexpected move {r} at {at}"
            );
        }
    }

    #[test]
    fn add_and_mul_commute_only_on_known_commutative_types() {
        // Operands that are not both bound names (swapping two of those changes nothing).
        let reals = move_rules("theorem t (a b : ℝ) : a * 3 + 1 = 2");
        assert!(reals.iter().any(|(r, _)| *r == "mul_comm"));
        assert!(reals.iter().any(|(r, _)| *r == "add_comm"));
        let group = move_rules("theorem t (G : Type*) [Group G] (a : G) : a * e = a");
        assert!(group.iter().all(|(r, _)| *r != "mul_comm"), "{group:?}");
        // A type known only through a class instance is unknown to elaboration-lite: no swap
        // (sound, if incomplete).
        let comm = move_rules("theorem t (G : Type*) [CommGroup G] (a : G) : a * e = a");
        assert!(comm.iter().all(|(r, _)| *r != "mul_comm"), "{comm:?}");
        let auto = move_rules("theorem t (x y : _) : x * (y + 1) = 1");
        assert!(
            auto.iter()
                .all(|(r, _)| *r != "mul_comm" && *r != "add_comm"),
            "{auto:?}"
        );
        let quaternions = move_rules("theorem t (p q : ℍ) : p * (q + 1) = 1");
        assert!(
            quaternions.iter().all(|(r, _)| *r != "mul_comm"),
            "{quaternions:?}"
        );
        // Numerals take the type of the relation they sit in: here a matrix product.
        let in_matrix = move_rules("theorem t (A : Matrix (Fin 2) (Fin 2) ℝ) : A * (2 * 3) = A");
        assert!(
            in_matrix.iter().all(|(r, _)| *r != "mul_comm"),
            "{in_matrix:?}"
        );
        let matrices = move_rules("theorem t (A B : Matrix (Fin 2) (Fin 2) ℝ) : A * C + A ^ 2 = B");
        assert!(
            matrices
                .iter()
                .all(|(r, _)| *r != "mul_comm" && *r != "add_comm"),
            "{matrices:?}"
        );
        // Pointwise products of functions: the function type is unknown to elaboration-lite.
        let functions = move_rules("theorem t (f g : ℕ → ℝ) : f * (g + 1) = g");
        assert!(
            functions.iter().all(|(r, _)| *r != "mul_comm"),
            "{functions:?}"
        );
    }

    #[test]
    fn not_is_implication_to_false() {
        // not_iff_imp_false: `¬p` is defined as `p → False`.
        same(
            "theorem t (p q : Prop) (h : p → False) : q",
            "theorem t (p q : Prop) (h : ¬p) : q",
        );
        same(
            "theorem t (x : ℝ) : x = 1 → False",
            "theorem t (x : ℝ) : ¬ x = 1",
        );
        // Non-examples: another consequent, or `False` as the premise.
        differ(
            "theorem t (x : ℝ) : x = 1 → False",
            "theorem t (x : ℝ) : x = 1 → True",
        );
        differ(
            "theorem t (p q : Prop) (h : False → p) : q",
            "theorem t (p q : Prop) (h : ¬p) : q",
        );
    }

    #[test]
    fn pi_is_forall() {
        same(
            "theorem t : Π n : ℕ, n + 0 = n",
            "theorem t : ∀ n : ℕ, n + 0 = n",
        );
        // Non-example: the binder type still counts.
        differ(
            "theorem t : Π n : ℕ, n + 0 = n",
            "theorem t : ∀ n : ℤ, n + 0 = n",
        );
    }

    #[test]
    fn coprime_is_gcd_one() {
        // Nat.coprime_iff_gcd_eq_one: `Nat.Coprime m n` is defined as `Nat.gcd m n = 1`.
        same(
            "theorem t (a b : ℕ) (h : Nat.Coprime a b) : a ≠ b",
            "theorem t (a b : ℕ) (h : Nat.gcd a b = 1) : a ≠ b",
        );
        same(
            "theorem t (a b : ℕ) (h : a.Coprime b) : a ≠ b",
            "theorem t (a b : ℕ) (h : Nat.gcd a b = 1) : a ≠ b",
        );
        // Non-examples: another gcd, and `IsCoprime` (a different notion, on rings).
        differ(
            "theorem t (a b : ℕ) (h : Nat.Coprime a b) : a ≠ b",
            "theorem t (a b : ℕ) (h : Nat.gcd a b = 2) : a ≠ b",
        );
        differ(
            "theorem t (a b : ℤ) (h : IsCoprime a b) : a ≠ b",
            "theorem t (a b : ℤ) (h : Int.gcd a b = 1) : a ≠ b",
        );
    }

    #[test]
    fn nhds_and_polynomial_notations() {
        // `𝓝` is `scoped[Topology]`: it is `nhds` only where the header opens `Topology`, which
        // name resolution writes out before any rule (`elab::resolve`); here it is a name.
        differ(
            "theorem t (f : ℕ → ℝ) : Tendsto f atTop (𝓝 0)",
            "theorem t (f : ℕ → ℝ) : Tendsto f atTop (nhds 0)",
        );
        // Non-example: `𝓝[s] x` (`nhdsWithin`) is not `nhds x`.
        differ(
            "theorem t (f : ℝ → ℝ) (s : Set ℝ) : Tendsto f (𝓝[s] 0) (𝓝 0)",
            "theorem t (f : ℝ → ℝ) (s : Set ℝ) : Tendsto f (nhds 0) (nhds 0)",
        );
        same(
            "theorem t (p : ℚ[X]) : p.degree = 2",
            "theorem t (p : Polynomial ℚ) : p.degree = 2",
        );
        // Non-examples: another ring; and indexing by a bound variable `X` is not `R[X]`.
        differ(
            "theorem t (p : ℚ[X]) : p.degree = 2",
            "theorem t (p : Polynomial ℤ) : p.degree = 2",
        );
        let indexing = canon("theorem t (X : ℕ) (l : List ℕ) (h : X < l.length) : l[X] = 0");
        assert!(
            !format!("{indexing:?}").contains("Polynomial"),
            "{indexing:?}"
        );
    }

    #[test]
    fn an_applied_composite_is_the_nested_application() {
        // Function.comp_apply: `(f ∘ g) x = f (g x)`.
        same(
            "theorem t (f g : ℕ → ℕ) (x : ℕ) : (f ∘ g) x = 0",
            "theorem t (f g : ℕ → ℕ) (x : ℕ) : f (g x) = 0",
        );
        same(
            "theorem t (x : ℕ) : (Nat.succ ∘ Nat.pred) x = x",
            "theorem t (x : ℕ) : Nat.succ (Nat.pred x) = x",
        );
        // Non-example: the order of composition matters (`succ (pred 0) = 1`,
        // `pred (succ 0) = 0`).
        differ(
            "theorem t (x : ℕ) : (Nat.succ ∘ Nat.pred) x = x",
            "theorem t (x : ℕ) : Nat.pred (Nat.succ x) = x",
        );
    }

    #[test]
    fn swapping_two_bound_names_is_offered() {
        // Free renaming sees no difference, but `a + b` is `b + a` only by `add_comm`: without
        // the swap `(h : a < b) : a + 2 * b = 0` could not meet `(h : a < b) : 2 * b + a = 0`.
        let rules = move_rules("theorem t (a b : ℝ) (h : a ≠ b) : a + b < a * b");
        for rule in ["ne_comm", "add_comm", "mul_comm"] {
            assert!(rules.iter().any(|(r, _)| *r == rule), "{rule}: {rules:?}");
        }
        // Identical operands do not swap.
        assert!(move_rules("theorem t (a : ℝ) : a = a").is_empty());
    }

    #[test]
    fn a_function_on_matrices_keeps_their_product_in_order() {
        // `(A : M)` is dropped to `(A : _)` since `f A` decides it; `f`'s domain still says
        // the statement multiplies matrices.
        let text = "theorem t (f : Matrix (Fin 2) (Fin 2) ℝ → ℝ) \
                    (A B : Matrix (Fin 2) (Fin 2) ℝ) (h : f A = f B) : f (A * B) = 0";
        assert!(rules_used(text).contains(&"binder type (elaboration)"));
        let t = canon(text);
        assert!(!Commutativity::of(&t).mul, "{t:?}");
        let products = canon("theorem t (f : ℝ × ℝ → ℝ) (x y : ℝ) : f (x, y) = x * y");
        assert!(Commutativity::of(&products).mul);
    }

    #[test]
    fn alpha_equivalence_respects_binders() {
        let alpha = |a: &str, b: &str| alpha_equivalent(&canon(a), &canon(b));
        assert!(alpha(
            "theorem t (x y : ℝ) (h : x = y) : x + 1 = y + 1",
            "theorem t (a b : ℝ) (h2 : a = b) : a + 1 = b + 1",
        ));
        // A hypothesis used in a term is renamed with its binder like a variable.
        assert!(!alpha(
            "theorem t (p : Prop) (h : p) (h' : p) (f : p → ℕ) : f h = f h'",
            "theorem t (p : Prop) (h : p) (h' : p) (f : p → ℕ) : f h' = f h'",
        ));
        // One name in two scopes, each renamed its own way.
        assert!(alpha(
            "theorem t : (∀ x : ℕ, x = x) ∧ ∀ x : ℕ, x + 0 = x",
            "theorem t : (∀ y : ℕ, y = y) ∧ ∀ z : ℕ, z + 0 = z",
        ));
        // Free renaming (GTED) makes each of these distance 0; none is a renaming.
        for (a, b) in [
            (
                "theorem t (x y : ℕ) (h : x < y) : x < y",
                "theorem t (x y : ℕ) (h : x < y) : y < x",
            ),
            (
                "theorem t : ∃ x : ℕ, ∀ y : ℕ, x ≤ y",
                "theorem t : ∃ y : ℕ, ∀ x : ℕ, x ≤ y",
            ),
            (
                "theorem t {G : Type*} [Group G] (a b : G) : a * b * a = 1",
                "theorem t {G : Type*} [Group G] (a b : G) : b * a * a = 1",
            ),
            (
                "theorem t (f : ℕ → ℕ) (n : ℕ) : ∑ i in Finset.range n, f i = 0",
                "theorem t (f : ℕ → ℕ) (n : ℕ) : ∑ n in Finset.range n, f n = 0",
            ),
        ] {
            assert!(!alpha(a, b), "{a}\n{b}");
            assert_eq!(free(&canon(a), &canon(b)), 0, "GTED's free renaming: {a}");
        }
    }

    #[test]
    fn quantifiers_swap_only_with_their_own_kind_and_when_independent() {
        let rules = move_rules("theorem t : ∃ x : ℕ, ∃ y : ℕ, x < y");
        assert!(rules.iter().any(|(r, _)| *r == "exists_swap"));
        let mixed = move_rules("theorem t : ∃ x : ℕ, ∀ y : ℕ, x ≤ y");
        assert!(
            mixed
                .iter()
                .all(|(r, _)| *r != "exists_swap" && *r != "forall_swap"),
            "∃∀ is not ∀∃: {mixed:?}"
        );
        let dependent = move_rules("theorem t : ∃ n : ℕ, ∃ i : Fin n, i = i");
        assert!(
            dependent.iter().all(|(r, _)| *r != "exists_swap"),
            "{dependent:?}"
        );
    }

    #[test]
    fn premises_swap_in_chains_but_an_implication_does_not_turn_around() {
        let chain = move_rules("theorem t (f : ℕ → ℕ) (h : ∀ n, 0 < n → n < 5 → f n = 0) : True");
        assert!(chain.iter().any(|(r, _)| *r == "Imp.swap"));
        let single = move_rules("theorem t (f : ℕ → ℕ) (h : ∀ n, 0 < n → f n = 0) : True");
        assert!(single.iter().all(|(r, _)| *r != "Imp.swap"), "{single:?}");
    }

    #[test]
    fn binder_reorder_respects_dependencies() {
        let a = canon("theorem t (x : ℝ) (y : ℝ) (h : 0 < x) (k : y < 2) : x = y");
        let b = canon("theorem t (y : ℝ) (k : y < 2) (x : ℝ) (h : 0 < x) : x = y");
        let mut d = |p: &Tree, q: &Tree| free(p, q);
        let r = binder_reorder(&a, &b, &mut d).expect("a reorder towards b exists");
        // Every hypothesis still comes after the variable it mentions.
        let list = &binder_list(&r.tree).expect("binder list").0.children;
        let pos = |n: &str| {
            list.iter()
                .position(|b| binder_name(b).is_some_and(|x| x.label == n))
                .expect("binder present")
        };
        assert!(
            pos("x") < pos("h") && pos("y") < pos("k"),
            "{}",
            r.applied.at
        );
        assert_eq!(free(&r.tree, &b), 0, "{}", r.applied.at);

        // `h` mentions `x`: it can never move in front of it.
        let c = canon("theorem t (x : ℝ) (h : 0 < x) : x = 1");
        let d2 = {
            let mut t = c.clone();
            t.children[0].children.swap(0, 1);
            t
        };
        let mut d = |p: &Tree, q: &Tree| free(p, q);
        assert!(binder_reorder(&c, &d2, &mut d).is_none());
    }

    #[test]
    fn modular_congruence_unfolds_to_its_definition() {
        same(
            "theorem t : 2 ^ 2010 ≡ 4 [MOD 10]",
            "theorem t : 2 ^ 2010 % 10 = 4",
        );
        same(
            "theorem t (n : ℤ) : 2 * n ≡ 15 [ZMOD 47]",
            "theorem t (n : ℤ) : 2 * n % 47 = 15 % 47",
        );
        // The modulus matters.
        differ(
            "theorem t : 2 ^ 2010 ≡ 4 [MOD 10]",
            "theorem t : 2 ^ 2010 % 100 = 4",
        );
    }

    #[test]
    fn literal_arithmetic_is_evaluated_only_where_exact() {
        same(
            "theorem t (x : ℕ) : 8 * 9 ^ 2 + 5 * 9 + 2 = x",
            "theorem t (x : ℕ) : 695 = x",
        );
        same("theorem t (x : ℝ) : 6 / 3 = x", "theorem t (x : ℝ) : 2 = x");
        // Floor division and truncated subtraction are left as written, even on ℕ.
        differ("theorem t (x : ℕ) : 7 / 2 = x", "theorem t (x : ℕ) : 3 = x");
        differ("theorem t (x : ℕ) : 3 - 7 = x", "theorem t (x : ℕ) : 0 = x");
        same("theorem t (x : ℕ) : 7 % 3 = x", "theorem t (x : ℕ) : 1 = x");
        differ("theorem t (x : ℝ) : 7 / 2 = x", "theorem t (x : ℝ) : 3 = x");
        differ("theorem t (x : ℤ) : 3 - 7 = x", "theorem t (x : ℤ) : 0 = x");
        // An operand of unknown type (auto-bound `x`) fixes no type: nothing is evaluated.
        differ("theorem t : 6 / 3 = x", "theorem t : 2 = x");
        differ(
            "theorem t (a : ZMod 5) : a = 6 - 2",
            "theorem t (a : ZMod 5) : a = 4",
        );
        differ(
            "theorem t (F : Type*) [Field F] [CharP F 3] (a : F) : a = 6 / 3",
            "theorem t (F : Type*) [Field F] [CharP F 3] (a : F) : a = 2",
        );
        // Variables are not literals; ascribed literals are not bare literals.
        differ("theorem t (y : ℕ) : y + 1 = x", "theorem t (y : ℕ) : 1 = x");
        differ("theorem t : (2 : ℝ) + 1 = x", "theorem t : 3 = x");
        // Huge powers are left as written.
        let big = canon("theorem t : 2 ^ 2010 = x");
        assert!(big.preorder().iter().any(|n| n.label == " _ ^ _ "));
    }

    #[test]
    fn log_quotients_and_notations_meet() {
        same(
            "theorem t (x : ℝ) : Real.log x / Real.log 2 = 3",
            "theorem t (x : ℝ) : Real.logb 2 x = 3",
        );
        same("theorem t : Real.sqrt 5 = abs y", "theorem t : √5 = |y|");
        same(
            "theorem t (x : ℝ) : Int.floor x + Nat.factorial 3 = Real.pi⁻¹",
            "theorem t (x : ℝ) : ⌊x⌋ + 3 ! = 1 / Real.pi",
        );
        differ("theorem t (x : ℝ) : ⌊x⌋ = 2", "theorem t (x : ℝ) : ⌈x⌉ = 2");
        // The argument order of `logb` is the base first.
        differ(
            "theorem t (x : ℝ) : Real.log x / Real.log 2 = 3",
            "theorem t (x : ℝ) : Real.logb x 2 = 3",
        );
        differ(
            "theorem t (x : ℝ) : Real.log x * Real.log 2 = 3",
            "theorem t (x : ℝ) : Real.logb 2 x = 3",
        );
    }

    #[test]
    fn equations_defining_a_variable_are_substituted() {
        same(
            "theorem t (s : ℕ) (h₀ : s = ∑ k in Finset.Icc 1 9, k) : s % 9 = 0",
            // The sum's index has no written type: its value keeps the variable's.
            "theorem t : ((∑ k in Finset.Icc 1 9, k : ℕ)) % 9 = 0",
        );
        same(
            "theorem t (x y : ℝ) (h₀ : 2 * y = x) (h₁ : x + y = 3) : y = 1",
            "theorem t (y : ℝ) (h₁ : 2 * y + y = 3) : y = 1",
        );
        // `e` mentioning `x` (`x = x + 0`) is no definition.
        differ(
            "theorem t (x : ℝ) (h : x = x * x) : x = 1",
            "theorem t : x * x = 1",
        );
        // A binder between the variable and its equation that mentions it blocks it.
        let t = canon("theorem t (x : ℝ) (hx : 0 < x) (n : ℕ) (h : x = n + 1) : x < n + 2");
        let list = &t.children[0];
        assert_eq!(binder_list_arity(&list.label), Some(4), "{t:?}");
    }

    #[test]
    fn universe_binders_are_left_to_auto_binding() {
        same(
            "theorem t {G : Type*} [Group G] (x : G) : x * x⁻¹ = 1",
            "theorem t [Group G] (x : G) : x * x⁻¹ = 1",
        );
        // A binder of an ordinary type stays.
        differ("theorem t (x : ℝ) : x = x", "theorem t : x = x");
    }

    #[test]
    fn free_variables_are_auto_bound_in_front() {
        // A value variable left to auto-binding differs from the written binder by its type only.
        let written = canon("theorem t (b : ℕ) (h : Nat.gcd 120 b = 8) : b = 248");
        let auto = canon("theorem t (h : Nat.gcd 120 x = 8) : x = 248");
        assert_eq!(free(&written, &auto), 1, "{auto:?}");
        assert!(rules_used("theorem t : x + 1 = 2").contains(&"autoImplicit"));
        assert_eq!(
            binder_list_arity(&canon("theorem t : x + y = 2").children[0].label),
            Some(2)
        );
        // Written with its type, a type variable is the same `(G : _)` as an unbound one.
        same(
            "theorem t {R : Type*} {x : R} [Ring R] (hx : IsNilpotent x) : IsUnit (1 + x)",
            "theorem t (x : R) [Ring R] (hx : IsNilpotent x) : IsUnit (1 + x)",
        );
    }

    #[test]
    fn constants_levels_and_function_names_are_not_auto_bound() {
        for text in [
            "theorem t : Complex.abs I = 1",
            "theorem t : π > 3",
            "theorem t (p : Polynomial ℚ) : p = X",
            "theorem t (n : ℕ) : card (Fin n) = n",
            "theorem t (f : ℕ → ℕ) : f 0 = 0",
            "theorem t {G : Type u} [Group G] (a : G) : a = a",
            "theorem t : ∀ (n) (m : ℕ), n + m = m + n",
        ] {
            assert!(
                !rules_used(text).contains(&"autoImplicit")
                    || text.contains("Type u") && !render(&canon(text)).contains("u :"),
                "{text}: {:?}",
                rules_used(text)
            );
        }
        // `Type u` keeps `u` out of the binders.
        let t = canon("theorem t {G : Type u} [Group G] (a : G) : a = a");
        assert!(!mentions(&t.children[0].children[0], "u"), "{t:?}");
    }

    #[test]
    fn binder_types_elaboration_decides_are_dropped() {
        same(
            "theorem t (f : ℝ → ℝ) : ∃ c, ∀ x : ℝ, f x = c",
            "theorem t (f : ℝ → ℝ) : ∃ c, ∀ x, f x = c",
        );
        // Second argument of a curried function.
        same(
            "theorem t (g : ℕ → ℤ → ℤ) (h : ∀ y : ℤ, g 0 y = y) : True",
            "theorem t (g : ℕ → ℤ → ℤ) (h : ∀ y, g 0 y = y) : True",
        );
        // A type other than the one the use decides stays (it would be a coercion or an error).
        differ(
            "theorem t (f : ℝ → ℝ) : ∀ x : ℕ, f x = 0",
            "theorem t (f : ℝ → ℝ) : ∀ x, f x = 0",
        );
        // Membership in a typed set decides the element's type; in an untyped one it does not.
        same(
            "theorem t (S : Finset ℤ) : ∀ x : ℤ, x ∈ S → x > 0",
            "theorem t (S : Finset ℤ) : ∀ x, x ∈ S → x > 0",
        );
        differ(
            "theorem t : ∀ x : ℤ, x ∈ S → x > 0",
            "theorem t : ∀ x, x ∈ S → x > 0",
        );
        // No typed function use: the type says something (`∀ x, x ^ 2 ≥ 0` is about ℕ).
        differ(
            "theorem t : ∀ x : ℝ, x ^ 2 ≥ 0",
            "theorem t : ∀ x, x ^ 2 ≥ 0",
        );
        // Uses that disagree decide nothing.
        differ(
            "theorem t (f : ℝ → ℝ) (g : ℕ → ℕ) : ∀ x : ℝ, f x = g x",
            "theorem t (f : ℝ → ℝ) (g : ℕ → ℕ) : ∀ x, f x = g x",
        );
    }

    #[test]
    fn a_hypothesis_about_a_rebound_name_is_not_a_duplicate() {
        same(
            "theorem t (p : ℕ) (hp : p.Prime) (h2 : p.Prime) : p > 1",
            "theorem t (p : ℕ) (hp : p.Prime) : p > 1",
        );
        // The second `x = 1` is about the second `x`: without it the statement is false.
        differ(
            "theorem t (x : ℕ) (h : x = 1) (x : ℕ) (h2 : x = 1) : x = 1",
            "theorem t (x : ℕ) (h : x = 1) (x : ℕ) : x = 1",
        );
    }

    #[test]
    fn binder_types_stay_where_elaboration_would_choose_another() {
        // `x ≤ n` comes first and makes `x : ℕ` (then `f ↑x`): `∀ x, …` is about naturals.
        differ(
            "theorem t (n : ℕ) (f : ℝ → ℝ) : ∀ x, x ≤ n → f x = 0",
            "theorem t (n : ℕ) (f : ℝ → ℝ) : ∀ x : ℝ, x ≤ n → f x = 0",
        );
        differ(
            "theorem t (n : ℕ) (f : ℝ → ℝ) (x : ℝ) (h : x ≤ n) : f x = 0",
            "theorem t (n : ℕ) (f : ℝ → ℝ) (h : x ≤ n) : f x = 0",
        );
        // A relation with numerals only leaves the type open for the use after it.
        same(
            "theorem t (f : ℝ → ℝ) : ∀ x : ℝ, 0 < x → f x = 1",
            "theorem t (f : ℝ → ℝ) : ∀ x, 0 < x → f x = 1",
        );
        // `f x` under a binder that rebinds `x` is about another variable: `x : ℝ` from `≤`.
        for inner in [
            "(∑ x in Finset.range 2, f x) ≤ x",
            "(∏ x ∈ Finset.range 2, f x) ≤ x",
            "(fun x => f x) 1 ≤ x",
            "0 ∈ {x | f x = 0} ∧ 0 ≤ x",
        ] {
            differ(
                &format!("theorem t (f : ℕ → ℝ) : ∀ x, {inner}"),
                &format!("theorem t (f : ℕ → ℝ) : ∀ x : ℕ, {inner}"),
            );
        }
        // Auto-bound `x` (`x : ℝ` in Lean) against a theorem binder `(x : ℕ)`.
        differ(
            "theorem t (f : ℕ → ℝ) (x : ℕ) : (∑ x in Finset.range 2, f x) ≤ x",
            "theorem t (f : ℕ → ℝ) : (∑ x in Finset.range 2, f x) ≤ x",
        );
    }

    #[test]
    fn quantifiers_over_variables_move_outwards() {
        same(
            "theorem t (A B : Set ℝ) : ∃ a ∈ A, ∃ b ∈ B, ∀ x ∈ A, ∀ y ∈ B, a - b ≤ x - y",
            "theorem t (A B : Set ℝ) : ∃ a b, a ∈ A ∧ b ∈ B ∧ ∀ x y, x ∈ A → y ∈ B → a - b ≤ x - y",
        );
        same(
            "theorem t : (∃ n : ℕ, n > 3) ∧ 1 < 2",
            "theorem t : ∃ n : ℕ, n > 3 ∧ 1 < 2",
        );
        // The other operand mentions the variable: nothing moves.
        differ(
            "theorem t (x : ℕ) : x = 1 ∧ ∃ x : ℕ, x = 2",
            "theorem t (x : ℕ) : ∃ x : ℕ, x = 1 ∧ x = 2",
        );
        // `∃` does not leave an implication's premise, and `∀` does not leave a conjunction.
        differ(
            "theorem t : (∃ n : ℕ, n > 3) → 1 < 2",
            "theorem t : ∃ n : ℕ, n > 3 → 1 < 2",
        );
        differ(
            "theorem t : 1 < 2 ∧ ∀ n : ℕ, n ≥ 0",
            "theorem t : ∀ n : ℕ, 1 < 2 ∧ n ≥ 0",
        );
        // A hypothesis binder is an implication and stays where it is.
        assert!(
            !rules_used("theorem t (p q r : Prop) : p → ∀ (h : q), r").contains(&"imp_forall_iff")
        );
    }

    #[test]
    fn instance_binders_about_terms_are_hypotheses() {
        same(
            "theorem t (G : Type*) [Group G] (N : Subgroup G) [N.Normal] : True",
            "theorem t (G : Type*) [Group G] (N : Subgroup G) (hN : N.Normal) : True",
        );
        same(
            "theorem t (p : ℕ) [hp : Fact p.Prime] : p ≥ 2",
            "theorem t (p : ℕ) (h : Fact p.Prime) : p ≥ 2",
        );
        // Instances about types stay instances.
        for text in [
            "theorem t (G : Type*) [Group G] (a : G) : a = a",
            "theorem t [Field F] (p : ℕ) [CharP F p] : True",
        ] {
            let used = rules_used(text);
            assert!(
                !used.contains(&"instance binder (binder info)"),
                "{text}: {used:?}"
            );
        }
    }

    #[test]
    fn one_letter_constants_depend_on_the_subject() {
        // `X` is a type variable in topology, `Polynomial.X` about polynomials.
        assert!(
            rules_used("theorem t [TopologicalSpace X] (A : Set X) : A = A")
                .contains(&"autoImplicit")
        );
        assert!(
            !rules_used("theorem t : Irreducible (X ^ 2 + 1 : Polynomial ℚ)")
                .contains(&"autoImplicit")
        );
        assert!(!rules_used("theorem t : Irreducible (X ^ 2 + 1 : ℚ[X])").contains(&"autoImplicit"));
        assert!(!rules_used("theorem t : Complex.abs I = 1").contains(&"autoImplicit"));
    }

    #[test]
    fn a_function_known_at_its_only_point_is_its_value() {
        same(
            "theorem t (x p : ℝ) (f : ℝ → ℝ) (h₀ : 0 < p) (h₂ : f x = |x - p| + 1) : 1 ≤ f x",
            "theorem t (x p : ℝ) (h₀ : 0 < p) : 1 ≤ |x - p| + 1",
        );
        // `f` used at another point too: its value there is unknown.
        differ(
            "theorem t (x : ℝ) (f : ℝ → ℝ) (h : f x = x + 1) : f 0 ≤ f x",
            "theorem t (x : ℝ) : f 0 ≤ x + 1",
        );
        assert!(
            !rules_used("theorem t (x : ℝ) (f : ℝ → ℝ) (h : f x = x + 1) : f 0 ≤ f x")
                .contains(&"forall_eq (function used at one point)")
        );
        // A recursive definition is not a value.
        assert!(
            !rules_used("theorem t (x : ℕ) (f : ℕ → ℕ) (h : f x = f 0 + 1) : f x = 1")
                .contains(&"forall_eq (function used at one point)")
        );
        // The conclusion's `f x` is about another `x`.
        assert!(
            !rules_used("theorem t (x : ℕ) (f : ℕ → ℕ) (h : f x = 2) : ∀ x : ℕ, f x > 0")
                .contains(&"forall_eq (function used at one point)")
        );
    }

    #[test]
    fn a_hypothesis_stated_twice_counts_once() {
        same(
            "theorem t (p : ℕ) (hp : Nat.Prime p) (h : p > 2) (this : Fact (Nat.Prime p)) : Odd p",
            "theorem t (p : ℕ) (hp : Nat.Prime p) (h : p > 2) : Odd p",
        );
        same(
            "theorem t (p : ℕ) [Fact p.Prime] : p ≥ 2",
            "theorem t (p : ℕ) (hp : p.Prime) : p ≥ 2",
        );
        // Two different hypotheses both stay.
        differ(
            "theorem t (x : ℝ) (h₁ : 0 < x) (h₂ : x < 1) : x ^ 2 < 1",
            "theorem t (x : ℝ) (h₁ : 0 < x) : x ^ 2 < 1",
        );
    }

    #[test]
    fn adjacent_independent_binders_swap() {
        let t = canon("theorem t (n : ℕ) (a b : Fin n) (h : a < b) : True");
        let swaps: Vec<String> = move_rules("theorem t (n : ℕ) (a b : Fin n) (h : a < b) : True")
            .into_iter()
            .filter(|(r, _)| *r == "forall_swap")
            .map(|(_, at)| at)
            .collect();
        // `a` and `b` swap; `n` and `a` do not (`Fin n` mentions `n`); `h` is a hypothesis.
        assert_eq!(swaps.len(), 1, "{swaps:?} in {t:?}");
        assert!(
            swaps[0].contains('a') && swaps[0].contains('b'),
            "{swaps:?}"
        );
    }

    #[test]
    fn canonical_form_is_a_fixpoint() {
        for text in [
            "theorem t (x : ℝ) (h : x > 0 ∧ x ≥ 1) : ∀ y ∈ S, ¬ (y = x) → y > 0",
            "theorem t : ∀ (a b : ℤ), (∃ i j, a = 2 * i ∧ b = 2 * j) ↔ ∃ k, a ^ 2 + b ^ 2 = 8 * k",
        ] {
            let once = canon(text);
            let (twice, log) = canonicalize(&once);
            assert_eq!(once, twice);
            assert!(log.is_empty(), "{log:?}");
        }
    }

    #[test]
    fn bound_names_are_flagged_for_free_renaming() {
        let t = canon("theorem t : ∃ k : ℕ, k = 2");
        let leaves: Vec<&Tree> = t
            .preorder()
            .into_iter()
            .filter(|n| n.label == "k")
            .collect();
        assert_eq!(leaves.len(), 2);
        assert!(leaves.iter().all(|n| n.variable_freecost));
        // A global name is not flagged.
        let g = canon("theorem t : π = π");
        assert!(g.preorder().iter().all(|n| !n.variable_freecost));
    }

    #[test]
    fn render_fills_placeholders() {
        let t = tree("theorem t (x : ℝ) : (x + 1) * 2 = f x");
        let concl = &t.children[0].children[1];
        // Operator operands are parenthesised (no precedence table needed); applications inside
        // an infix operator are not: they bind tighter than any.
        assert_eq!(render_exact(concl), "((x + 1) * 2) = f x");
        // The path's text is Lean's: precedence decides the parentheses.
        assert_eq!(render(concl), "(x + 1) * 2 = f x");
    }

    #[test]
    fn odd_trees_do_not_panic() {
        let odd = [
            Tree::node(" _ > _ ", vec![Tree::leaf("a")]),
            Tree::node("∀ _ , _ ", vec![Tree::leaf("x")]),
            Tree::node(": _ ", vec![]),
            Tree::node(" _ : _ ", vec![Tree::node(" _ ∧ _ ", vec![])]),
            Tree::node(
                "let",
                vec![
                    Tree::node("x", vec![Tree::leaf("y")]),
                    Tree::leaf("v"),
                    Tree::leaf("b"),
                ],
            ),
            Tree::node(
                "∃ _ , _ ",
                vec![Tree::leaf("x"), Tree::leaf("∈ _ "), Tree::leaf("p")],
            ),
        ];
        for t in &odd {
            let (c, _) = canonicalize(t);
            let mut out = Vec::new();
            let mut d = |a: &Tree, b: &Tree| free(a, b);
            moves(
                &c,
                t,
                Commutativity::of(&c),
                &Carriers::of(&c),
                &mut d,
                &mut out,
            );
            let _ = render(&c);
        }
    }
}
