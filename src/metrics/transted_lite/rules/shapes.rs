//! Tree shapes the rules recognise, and small tree surgery they share.
//!
//! The shapes follow GTED's conventions, which the parser follows: the theorem root has one
//! binder-list child labelled `" _ "`×k + `": _ "` (binders then the conclusion); binders
//! `" _ : _ "`, `"{ _ : _ }"`, `"⦃ _ : _ ⦄"`, `"[ _ : _ ]"` with children `[name…, type]`;
//! quantifiers `"∀ _ , _ "`/`"∃ _ , _ "` with binder children then the body, a binder being a
//! typed binder, a bare name, a predicate `" _ ∈ _ "[x, s]`, or `x` followed by `"∈ _ "[s]` (the
//! parser) or `"∈"[s]` (GTED); binary operators `" _ op _ "`; `let` nodes whose label starts with
//! `let` and whose children are `[name, (type,) value, body]`.
//!
//! Owns label constants, predicates on labels and binders, and name lookups (`mentions`,
//! `binds_inside`); it rewrites nothing and decides no rule.

use crate::trees::Tree;

/// Name given to a hypothesis made from a premise by `intro` (flagged `hypothesis_freecost`, so
/// matching it against a named hypothesis costs nothing).
pub const ANONYMOUS_HYPOTHESIS: &str = "h✝";
/// The bound name a rule introduces (`funext_iff`'s point, `f ∘ g` unfolded, `⊆` unfolded): a
/// name no source text can write; bound names rename freely, so any fresh one would do.
pub(super) const FRESH_BOUND: &str = "x✝";

/// Placeholder type for a binder pulled out of an untyped quantifier (`∃ x, …` prints no type).
pub(super) const UNKNOWN_TYPE: &str = "_";

// ---------------------------------------------------------------------------------------------
// Label shapes

pub(super) const EQ: &str = " _ = _ ";
pub(super) const NE: &str = " _ ≠ _ ";
pub(super) const LT: &str = " _ < _ ";
pub(super) const LE: &str = " _ ≤ _ ";
pub(super) const GT: &str = " _ > _ ";
pub(super) const GE: &str = " _ ≥ _ ";
pub(super) const AND: &str = " _ ∧ _ ";
pub(super) const IMP: &str = " _ → _ ";
pub(super) const ADD: &str = " _ + _ ";
pub(super) const MUL: &str = " _ * _ ";
pub(super) const NOT: &str = "¬";
pub(super) const SUB: &str = " _ - _ ";
pub(super) const DIV: &str = " _ / _ ";
pub(super) const POW: &str = " _ ^ _ ";
pub(super) const MEM: &str = " _ ∈ _ ";
pub(super) const DVD: &str = " _ ∣ _ ";
pub(super) const NEG: &str = "-";
pub(super) const EXPLICIT: &str = " _ : _ ";
pub(super) const FORALL: &str = "∀ _ , _ ";
pub(super) const EXISTS: &str = "∃ _ , _ ";

/// The binary comparisons `= ≠ < ≤ > ≥`.
pub(in crate::metrics::transted_lite) const COMPARISONS: [&str; 6] = [EQ, NE, LT, LE, GT, GE];

/// Relations that may stand as a binder predicate (`∀ x ∈ s`, `∃ n > 0`, ...).
pub(super) const PREDICATE_RELATIONS: [&str; 10] =
    ["∈", "∉", "<", "≤", ">", "≥", "≠", "⊆", "⊂", "∣"];

/// Binder-list arity: `": _ "` → 0, `" _  _ : _ "` → 1, ...
pub fn binder_list_arity(label: &str) -> Option<usize> {
    let rest = label.strip_suffix(": _ ")?;
    if rest.len() % 3 != 0 {
        return None;
    }
    let k = rest.len() / 3;
    (rest == " _ ".repeat(k)).then_some(k)
}

pub(super) fn binder_list_label(k: usize) -> String {
    format!("{}: _ ", " _ ".repeat(k))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinderKind {
    Explicit,
    Implicit,
    Strict,
    Instance,
}

pub fn binder_kind(label: &str) -> Option<BinderKind> {
    match label {
        " _ : _ " => Some(BinderKind::Explicit),
        "{ _ : _ }" => Some(BinderKind::Implicit),
        "⦃ _ : _ ⦄" => Some(BinderKind::Strict),
        "[ _ : _ ]" => Some(BinderKind::Instance),
        _ => None,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Quant {
    Forall,
    Exists,
}

pub(super) fn quantifier(t: &Tree) -> Option<Quant> {
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

pub(super) fn quant_label(q: Quant) -> &'static str {
    match q {
        Quant::Forall => FORALL,
        Quant::Exists => EXISTS,
    }
}

/// The relation symbol of `" _ op _ "`, if the label has that shape.
pub(super) fn infix_op(label: &str) -> Option<&str> {
    let op = label.strip_prefix(" _ ")?.strip_suffix(" _ ")?;
    (!op.contains('_')).then_some(op)
}

/// A quantifier's or lambda's binder read as its name and written type: a bare name (no type),
/// or `x : T` with `x` a name. `None` for any other shape (a pattern, several names, a
/// binder predicate).
pub(super) fn named_binder(b: &Tree) -> Option<(&Tree, Option<&Tree>)> {
    match (b.label.as_str(), b.children.as_slice()) {
        (_, []) => Some((b, None)),
        (EXPLICIT, [x, ty]) if is_leaf(x) => Some((x, Some(ty))),
        _ => None,
    }
}

/// `∀ x, premise → rest` over one [`named_binder`]: the bound name, its written type, the
/// premise and the rest ([`guarded_forall`]).
pub(super) struct GuardedForall<'a> {
    pub name: &'a Tree,
    pub written: Option<&'a Tree>,
    pub premise: &'a Tree,
    pub rest: &'a Tree,
}

/// `t` as a [`GuardedForall`]; `None` for any other shape.
pub(super) fn guarded_forall(t: &Tree) -> Option<GuardedForall<'_>> {
    let (FORALL, [binder, body]) = (t.label.as_str(), t.children.as_slice()) else {
        return None;
    };
    let (IMP, [premise, rest]) = (body.label.as_str(), body.children.as_slice()) else {
        return None;
    };
    let (name, written) = named_binder(binder)?;
    Some(GuardedForall { name, written, premise, rest })
}

pub(super) fn is_leaf(t: &Tree) -> bool {
    t.children.is_empty()
}

/// The function of an application node `"f _  _ "` (the name, then one `" _ "` per child), as
/// the parser labels `f a b`; `None` for a leaf or an operator shape (`" _ + _ "`, `"∀ _ , _ "`).
pub fn app_head(t: &Tree) -> Option<&str> {
    if t.children.is_empty() {
        return None;
    }
    let head = t.label.strip_suffix(&" _ ".repeat(t.children.len()))?;
    (!head.is_empty() && !head.contains(char::is_whitespace)).then_some(head)
}

/// Does `t` use the name `name`: a leaf of that label, or the head of an application
/// (`"f _ "` carries `f` in its label, not in a leaf)?
pub fn mentions(t: &Tree, name: &str) -> bool {
    if is_leaf(t) {
        return t.label == name;
    }
    app_head(t) == Some(name) || t.children.iter().any(|c| mentions(c, name))
}

/// Does `t` hold a node labelled `label` (an operator: `" _ % _ "`, `"⁻¹"`)?
pub(super) fn has_label(t: &Tree, label: &str) -> bool {
    t.label == label || t.children.iter().any(|c| has_label(c, label))
}

pub(super) fn node2(label: &str, a: Tree, b: Tree) -> Tree {
    Tree::node(label, vec![a, b])
}

/// The names `t` uses: its leaves' labels and the heads of its applications (`f` of `f 1`),
/// each once, in order.
pub(super) fn leaves(t: &Tree, out: &mut Vec<String>) {
    if is_leaf(t) {
        if !out.contains(&t.label) {
            out.push(t.label.clone());
        }
        return;
    }
    if let Some(head) = app_head(t) {
        if !out.iter().any(|n| n == head) {
            out.push(head.to_owned());
        }
    }
    for c in &t.children {
        leaves(c, out);
    }
}

/// `(x : _)`: a binder Lean inserts by itself, its type left to inference.
pub(super) fn auto_bound_binder(name: Tree) -> Tree {
    node2(EXPLICIT, name, Tree::leaf(UNKNOWN_TYPE))
}

pub(super) fn is_auto_bound(binder: &Tree) -> bool {
    binder.label == EXPLICIT
        && binder.children.len() == 2
        && is_leaf(&binder.children[0])
        && binder.children[1].label == UNKNOWN_TYPE
        && is_leaf(&binder.children[1])
}

/// How many leaves of `t` are labelled `name`.
pub(super) fn count_leaf(t: &Tree, name: &str) -> usize {
    if is_leaf(t) {
        return usize::from(t.label == name);
    }
    t.children.iter().map(|c| count_leaf(c, name)).sum()
}

/// `(α : Type*)`, `(α : Sort u)`: an explicit binder of a type variable.
pub(super) fn is_type_variable(binder: &Tree) -> bool {
    binder.label == EXPLICIT
        && binder.children.len() == 2
        && is_leaf(&binder.children[0])
        && is_universe(&binder.children[1])
}

/// Does any label of `t` start with `prefix`?
pub(super) fn mentions_prefix(t: &Tree, prefix: &str) -> bool {
    t.label.starts_with(prefix) || t.children.iter().any(|c| mentions_prefix(c, prefix))
}

/// Is `child` (of `parent`) the statement's binder list? Only the single child of the root can be:
/// the label of a one-binder list, `" _ : _ "`, is also the label of an explicit binder.
pub(super) fn is_binder_list(parent: &Tree, child: &Tree, parent_is_root: bool) -> bool {
    parent_is_root
        && parent.children.len() == 1
        && binder_list_arity(&child.label).is_some_and(|k| child.children.len() == k + 1)
}

pub(super) fn is_false(t: &Tree) -> bool {
    t.label == "False" && t.children.is_empty()
}

/// Does `tree` bind a name `name` anywhere (a binder, or a leaf the parser flagged as bound)?
pub(super) fn binds_leaf(tree: &Tree, name: &str) -> bool {
    (tree.label == name && (tree.variable_freecost || tree.hypothesis_freecost))
        || tree.children.iter().any(|c| binds_leaf(c, name))
}

/// A natural-number literal.
pub fn literal(t: &Tree) -> Option<u128> {
    if !is_leaf(t) || t.label.is_empty() || !t.label.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.label.parse().ok()
}

/// A proposition, judged by its head: a relation or connective, or a predicate application
/// (`Nat.Prime p`, `IsCompact K`) as hypotheses state them.
pub(super) fn is_prop_shaped_or_applied(t: &Tree) -> bool {
    is_prop_shaped(t) || app_head(t).is_some()
}

/// Does some binder inside `t` bind `name`: a theorem-style binder `(x : T)`, or a binder of a
/// quantifier, a big operator (`∑ x in s, …`), `fun` or a set-builder
/// ([`is_binding_node`])? Callers use it to refuse a rewrite that a rebinding would make
/// unsound (capture).
pub fn binds_inside(t: &Tree, name: &str) -> bool {
    if !is_leaf(t) && binder_kind(&t.label).is_some() && binds(t, name) {
        return true;
    }
    if is_binding_node(&t.label) {
        let n = t.children.len();
        if t.children[..n.saturating_sub(1)].iter().any(|b| binds(b, name)) {
            return true;
        }
    }
    t.children.iter().any(|c| binds_inside(c, name))
}

/// Does `t` use the name `f`, as a leaf or as the head of an application `"f _ …"`?
pub(super) fn mentions_head(t: &Tree, f: &str) -> bool {
    t.label == f || app_head(t) == Some(f) || t.children.iter().any(|c| mentions_head(c, f))
}

/// Is every use of `f` in `t` the subtree `app`?
pub(super) fn only_as(t: &Tree, f: &str, app: &Tree) -> bool {
    if t == app {
        return true;
    }
    let here = t.label == f || app_head(t) == Some(f);
    !here && t.children.iter().all(|c| only_as(c, f, app))
}

/// `t` with every subtree equal to `from` replaced by `to`.
pub(super) fn replace(t: &Tree, from: &Tree, to: &Tree) -> Tree {
    if t == from {
        return to.clone();
    }
    let mut out = t.clone();
    out.children = t.children.iter().map(|c| replace(c, from, to)).collect();
    out
}

/// Does this quantifier binder bind `name`?
pub(super) fn binds(binder: &Tree, name: &str) -> bool {
    binder_name(binder).is_some_and(|n| n.label == name)
}

/// The (first) name a binder introduces.
pub(super) fn binder_name(binder: &Tree) -> Option<&Tree> {
    if is_leaf(binder) {
        return Some(binder);
    }
    let first = binder.children.first()?;
    let named = binder_kind(&binder.label).is_some()
        || infix_op(&binder.label).is_some_and(|op| PREDICATE_RELATIONS.contains(&op));
    (named && is_leaf(first)).then_some(first)
}

/// Is `t` a universe (`Type*`, `Type u`, `Sort _`): a binder of it binds a type variable.
/// `Type` and `Sort` are keywords, so the whole label decides; a name that only starts so
/// (`TypeVec.Arrow α β`, a header's `def TypeE`) is a type like any other.
pub fn is_universe(t: &Tree) -> bool {
    ["Type", "Type*", "Type _", "Sort", "Sort*", "Sort _"].contains(&t.label.trim())
}

/// A type whose values are propositions' proofs (a hypothesis), judged by its head.
pub(super) fn is_prop_shaped(t: &Tree) -> bool {
    if quantifier(t).is_some() || t.label == NOT {
        return true;
    }
    infix_op(&t.label).is_some_and(|op| {
        ["=", "≠", "<", "≤", ">", "≥", "∧", "∨", "↔", "∣", "∈", "∉", "⊆", "⊂"].contains(&op)
    })
}

pub(super) fn collect_binders<'a>(t: &'a Tree, out: &mut Vec<(&'a Tree, &'a Tree, bool)>) {
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

pub(super) fn collect_binders_in<'a>(t: &'a Tree, out: &mut Vec<(&'a Tree, &'a Tree, bool)>) {
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

/// Does the binder mention `name` anywhere but in its own name position?
pub(super) fn mentions_outside_name(binder: &Tree, name: &str) -> bool {
    if is_leaf(binder) {
        return false;
    }
    let skip_first = binder_name(binder).is_some();
    binder.children.iter().enumerate().any(|(i, c)| !(i == 0 && skip_first) && mentions(c, name))
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
pub(super) fn binder_list(tree: &Tree) -> Option<(&Tree, Vec<usize>)> {
    let [only] = tree.children.as_slice() else {
        return None;
    };
    is_binder_list(tree, only, true).then(|| (only, vec![0]))
}

/// A node that binds names in its last child: `∀ ∃ ∃! ∑ ∏ ⨆ ∫ … , _`, `fun _ => _`,
/// `{ _ | _ }` (not tuples, lists or set literals, which also have commas).
pub fn is_binding_node(label: &str) -> bool {
    // `let x := v; b` and `have x := v; b` bind `x` in `b` (their value counts as bound too:
    // conservative, nothing is substituted for it).
    label.starts_with("let ")
        || label.starts_with("have ")
        || label.contains("=>")
        || (label.starts_with('{') && label.contains('|'))
        || label.ends_with(", _ ")
}

/// A binder list `binders : concl` as a tree.
pub(super) fn rebuild_list(binders: Vec<Tree>, concl: Tree) -> Tree {
    let mut children = binders;
    children.push(concl);
    Tree::node(binder_list_label(children.len() - 1), children)
}

/// Is `name` mentioned after binder `i` of a binder list: by a later binder or the conclusion?
pub(super) fn named_after(binders: &[Tree], i: usize, concl: &Tree, name: &str) -> bool {
    binders[i + 1..].iter().any(|b| mentions(b, name)) || mentions(concl, name)
}

/// Does `t` bind names by pattern matching: a `fun` or binder whose binder is a tuple or an
/// anonymous constructor (`fun ⟨n, m⟩ => …`, `fun (n, m) => …`), a `fun | … => …` or a
/// `match`? The names in a pattern are bound there, at the pattern's component types, which
/// the binder reading here does not follow.
pub fn has_pattern_binder(t: &Tree) -> bool {
    let n = t.children.len();
    fn pattern(b: &Tree) -> bool {
        let structured = |b: &Tree| {
            !is_leaf(b)
                && (b.label.starts_with('⟨') || (b.label.starts_with('(') && b.label.contains(',')))
        };
        // Also ascribed: `fun (⟨y, z⟩ : ℕ × ℕ) => …`.
        let ascribed = binder_kind(&b.label).is_some() || b.label == "( _ : _ )";
        structured(b) || (ascribed && b.children.first().is_some_and(structured))
    }
    let here = t.label.starts_with("fun |")
        || t.label.starts_with("match ")
        || (is_binding_node(&t.label) && n >= 2 && t.children[..n - 1].iter().any(pattern));
    here || t.children.iter().any(has_pattern_binder)
}

/// Does `t` hold a span the parser could not read (`by …`, `show … from …`, a pattern
/// set-builder)? Names inside it are not seen by `mentions`, so no substitution or binder
/// reading can account for them.
pub fn has_unparsed(t: &Tree) -> bool {
    t.unparsed || t.children.iter().any(has_unparsed)
}

/// A node's children in the order Lean elaborates them: left to right, except where a notation
/// puts its arguments in another order. `a ∈ s` is `Membership.mem s a` (Lean's
/// `Init/Notation.lean`, `a ∉ s` its negation), so the collection comes first; `a ≡ b [ZMOD n]`
/// is `Int.ModEq n a b` (Mathlib/Data/Int/ModEq.lean; `[MOD n]` `Nat.ModEq n a b`,
/// Mathlib/Data/Nat/ModEq.lean; `[PMOD p]` `AddCommGroup.ModEq p a b`,
/// Mathlib/Algebra/ModEq.lean), so the modulus does. Explicit arguments are elaborated in
/// parameter order (Lean's `Elab/App.lean`).
pub(super) fn elaboration_order(t: &Tree) -> Vec<&Tree> {
    match (t.label.as_str(), t.children.as_slice()) {
        (MEM | " _ ∉ _ ", [element, set]) => vec![set, element],
        (" _ ≡ _ [ZMOD _ ]" | " _ ≡ _ [MOD _ ]" | " _ ≡ _ [PMOD _ ]", [a, b, n]) => {
            vec![n, a, b]
        }
        _ => t.children.iter().collect(),
    }
}
