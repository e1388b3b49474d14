//! What a rewrite path to identical trees does not show: reasons to refuse "equivalent".
//!
//! Owns the check `transted-lite` makes after its search closed a pair (distance 0) besides
//! the names' ([`crate::elab::resolve::same_meaning`]: a header declaring a used name
//! differently, names the table cannot tell), giving a reason to keep the pair open (distance 1)
//! and a note saying why:
//! - [`closed_facts`]: a relation between closed arithmetic terms (`2 ^ 8 % 5 = 1`), which
//!   `norm_num` evaluates to a literal fact. Two different closed facts can both become `1 = 1`;
//!   both true, both "equivalent" to `True`, but different problems.
//!
//! - [`unread_binders`] / [`unread_variables`]: binders the rules cannot read past (a bound
//!   `Nat`, a local `[Mul ℕ]`, two instances of one structure on a type): no rewrite is tried.
//!
//! Reads only header text and trees; rewrites nothing.

use super::rules;
use crate::trees::Tree;

/// Relations between closed terms that `norm_num` decides: the comparisons, divisibility and
/// the congruences.
fn is_relation(label: &str) -> bool {
    rules::COMPARISONS.contains(&label)
        || [" _ ∣ _ ", " _ ≡ _ [MOD _ ]", " _ ≡ _ [ZMOD _ ]"].contains(&label)
}

/// What `norm_num`'s literal arithmetic evaluates (`rules::norm_num`).
const ARITHMETIC: [&str; 6] = [" _ + _ ", " _ - _ ", " _ * _ ", " _ / _ ", " _ % _ ", " _ ^ _ "];

/// Made of numerals, arithmetic on them and ascriptions only (not `Real.log 80`: no literal
/// evaluation makes two such terms alike).
fn closed(t: &Tree) -> bool {
    if t.children.is_empty() {
        return !t.label.is_empty() && t.label.bytes().all(|b| b.is_ascii_digit());
    }
    if t.label == "( _ : _ )" && t.children.len() == 2 {
        return closed(&t.children[0]);
    }
    let arithmetic = ARITHMETIC.contains(&t.label.as_str()) || is_relation(&t.label);
    arithmetic && t.children.iter().all(closed)
}

/// The closed facts with arithmetic in them (`2 ^ 8 % 5 = 1`, not `1 = 1`): each rendered,
/// and the numerals of all of them.
fn closed_relations(t: &Tree, out: &mut Vec<String>, numerals: &mut Vec<String>) {
    let arithmetic = t.children.iter().any(|c| !c.children.is_empty());
    if is_relation(&t.label) && arithmetic && closed(t) {
        out.push(rules::render_exact(t));
        collect_numerals(t, numerals);
        return;
    }
    for c in &t.children {
        closed_relations(c, out, numerals);
    }
}

fn collect_numerals(t: &Tree, out: &mut Vec<String>) {
    if t.children.is_empty() {
        out.push(t.label.clone());
    } else if t.label == "( _ : _ )" && t.children.len() == 2 {
        collect_numerals(&t.children[0], out);
    } else {
        for c in &t.children {
            collect_numerals(c, out);
        }
    }
}

/// Why a closed pair must stay open: the statements state different closed facts, which
/// `norm_num` may have evaluated to the same literal one. `None` when they state none, or facts
/// about the same numerals (`121 * 122 * 123 % 4 = 2` and `121 * 122 * 123 ≡ 2 [MOD 4]`, `2 + 3
/// = 5` and `3 + 2 = 5`: the same problem written two ways, which the rules relate), so that
/// only different problems (`2 ^ 8 % 5 = 1` against `2003 % 11 = 1`) are kept apart.
pub fn closed_facts(reference: &Tree, candidate: &Tree) -> Option<String> {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let (mut our_numerals, mut their_numerals) = (Vec::new(), Vec::new());
    closed_relations(reference, &mut ours, &mut our_numerals);
    closed_relations(candidate, &mut theirs, &mut their_numerals);
    ours.sort();
    theirs.sort();
    our_numerals.sort();
    their_numerals.sort();
    if ours == theirs || our_numerals == their_numerals {
        return None;
    }
    let list = |v: &[String]| v.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ");
    // One side may state no closed fact (`2 + 3 = 5` against `5 = 5`): name only what is there.
    Some(match (ours.is_empty(), theirs.is_empty()) {
        (false, false) => format!(
            "closed arithmetic: norm_num evaluates the reference's {} and the candidate's {} \
             alike; both may be true, but they are different problems",
            list(&ours),
            list(&theirs)
        ),
        (false, true) => format!(
            "closed arithmetic: norm_num evaluates the reference's {} to what the candidate \
             states outright; both may be true, but the candidate does not state the problem",
            list(&ours)
        ),
        _ => format!(
            "closed arithmetic: norm_num evaluates the candidate's {} to what the reference \
             states outright; both may be true, but the candidate states a different problem",
            list(&theirs)
        ),
    })
}

/// Names the rules read as Mathlib's types (`num_of_type`, element types, namespaces): a
/// statement that binds one (`(Nat : Type)`) means its own.
#[rustfmt::skip]
const MATHLIB_TYPE_NAMES: [&str; 19] = [
    "ℕ", "Nat", "ℤ", "Int", "ℚ", "Rat", "ℝ", "Real", "ℂ", "Complex", "Set", "Finset", "Fin",
    "ZMod", "Polynomial", "Multiset", "List", "Prop", "Function",
];

/// Classes of more than one argument that give a type an operation, a literal or a coercion:
/// an instance of one on a number type (`[OfNat ℕ 3]`) replaces Mathlib's there.
const OPERATION_CLASSES: [&str; 18] = [
    "OfNat", "Pow", "HPow", "HAdd", "HSub", "HMul", "HDiv", "HMod", "SMul", "HSMul", "NatCast",
    "IntCast", "RatCast", "Coe", "CoeTail", "CoeHead", "CoeOut", "CoeT",
];

/// Families of classes that each provide one structure (a `*`, a `+`, an order, a topology):
/// two instances of one family on one type make the newest the one later terms use (local
/// instances are tried newest first), which binder moves and dropped duplicates do not follow.
const STRUCTURE_FAMILIES: [&[&str]; 4] = [
    &[
        "Mul",
        "Semigroup",
        "CommSemigroup",
        "MulOneClass",
        "Monoid",
        "CommMonoid",
        "Group",
        "CommGroup",
        "DivInvMonoid",
        "MonoidWithZero",
        "GroupWithZero",
        "Semiring",
        "CommSemiring",
        "Ring",
        "CommRing",
        "Field",
        "DivisionRing",
        "NonUnitalNonAssocRing",
        "NonUnitalRing",
        "NonAssocRing",
        "NormedRing",
        "NormedCommRing",
        "NormedField",
        "LinearOrderedField",
        "LinearOrderedRing",
        "LinearOrderedCommRing",
        "OrderedRing",
        "OrderedSemiring",
        "StrictOrderedRing",
    ],
    &[
        "Add",
        "AddSemigroup",
        "AddCommSemigroup",
        "AddZeroClass",
        "AddMonoid",
        "AddCommMonoid",
        "AddGroup",
        "AddCommGroup",
        "SeminormedAddCommGroup",
        "NormedAddCommGroup",
        "Semiring",
        "CommSemiring",
        "Ring",
        "CommRing",
        "Field",
        "DivisionRing",
        "NormedRing",
        "NormedCommRing",
        "NormedField",
        "LinearOrderedField",
        "LinearOrderedRing",
        "LinearOrderedCommRing",
        "OrderedRing",
        "OrderedSemiring",
        "OrderedAddCommGroup",
        "LinearOrderedAddCommGroup",
    ],
    &[
        "LE",
        "LT",
        "Preorder",
        "PartialOrder",
        "LinearOrder",
        "Lattice",
        "SemilatticeSup",
        "SemilatticeInf",
        "CompleteLattice",
        "ConditionallyCompleteLattice",
        "ConditionallyCompleteLinearOrder",
        "LinearOrderedField",
        "LinearOrderedRing",
        "LinearOrderedCommRing",
        "OrderedRing",
        "OrderedSemiring",
        "OrderedAddCommGroup",
        "LinearOrderedAddCommGroup",
    ],
    &[
        "TopologicalSpace",
        "UniformSpace",
        "PseudoMetricSpace",
        "MetricSpace",
        "PseudoEMetricSpace",
        "EMetricSpace",
        "SeminormedAddCommGroup",
        "NormedAddCommGroup",
        "NormedRing",
        "NormedCommRing",
        "NormedField",
    ],
];

/// Classes that give a type an operation, a relation, a membership or a structure the rules
/// read: a local of one (`[Mul ℕ]`, and as much `{m : Mul ℕ}` or `(m : Mul ℕ)`: every local
/// whose type is a class is a local instance, whatever its binder, Lean's `withNewFVar`) on a
/// type that is not one of the statement's type variables replaces Mathlib's instance there.
const READ_CLASSES: [&str; 26] = [
    "Membership",
    "Insert",
    "Singleton",
    "HasSubset",
    "HasSSubset",
    "Union",
    "Inter",
    "SDiff",
    "HasCompl",
    "EmptyCollection",
    "Dvd",
    "Mod",
    "Neg",
    "Inv",
    "Sub",
    "Div",
    "Zero",
    "One",
    "Max",
    "Min",
    "Norm",
    "Dist",
    "Abs",
    "Bot",
    "Top",
    "NatPow",
];

/// The class a binder type names (`Mul ℕ` → `Mul`, `@HAdd ℕ ℕ ℕ` → `HAdd`), when it is one
/// the rules read ([`READ_CLASSES`], [`OPERATION_CLASSES`], [`STRUCTURE_FAMILIES`]).
fn read_class(ty: &Tree) -> Option<&str> {
    if ty.children.is_empty() {
        return None;
    }
    let head = ty.label.split_whitespace().next()?.trim_start_matches('@');
    let known = READ_CLASSES.contains(&head)
        || OPERATION_CLASSES.contains(&head)
        || STRUCTURE_FAMILIES.iter().any(|family| family.contains(&head));
    known.then_some(head)
}

/// A class the rules read applied anywhere outside a binder's type (`@Exists (Mul ℝ) fun o =>
/// …`, `({o | …} : Set (Mul ℝ))`, `@id (Mul ℝ → Prop) (fun o => …)`): a binder whose type is
/// taken from there is a local instance no written binder shows. (Binder types are
/// [`unread_binders`]' to read.)
pub fn class_terms(t: &Tree) -> Option<String> {
    let binder_node = t.label == "[ _ ]" || rules::binder_kind(&t.label).is_some();
    let binding = rules::binder_list_arity(&t.label).is_some() || rules::is_binding_node(&t.label);
    let last = t.children.len().saturating_sub(1);
    for (i, ch) in t.children.iter().enumerate() {
        // The type of a binder node (`[C α]`, `(x : T)`), or the binders of a binding node.
        let binder_part = if binder_node { i == last } else { binding && i < last };
        if binder_part {
            continue;
        }
        if let Some(class) = read_class(ch) {
            return Some(format!(
                "the class `{class}` stands in a term: a binder typed from there is a local instance, so no rewrite is tried"
            ));
        }
        if let Some(found) = class_terms(ch) {
            return Some(found);
        }
    }
    None
}

/// A header declaration that mentions a class the rules read (`def Q (P : Mul ℝ → Prop) …`):
/// a `fun` given to it may bind a local instance of it.
pub fn header_class_declarations(declarations: &[(String, String)]) -> Option<String> {
    declarations.iter().find_map(|(name, text)| {
        let class =
            text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')).find(|w| {
                READ_CLASSES.contains(w)
                    || OPERATION_CLASSES.contains(w)
                    || STRUCTURE_FAMILIES.iter().any(|family| family.contains(w))
            })?;
        Some(format!("the header's `{name}` mentions the class `{class}`: no rewrite is tried"))
    })
}

/// The first class the rules read that `t` or a subterm of it applies (`Dist ℝ` in
/// `Dist ℝ → Prop`).
fn class_inside(t: &Tree) -> Option<&str> {
    read_class(t).or_else(|| t.children.iter().find_map(class_inside))
}

/// A binder no rule can read past, and why: a bound name the rules read as Mathlib's type
/// (`(Nat : Type)`), a local instance of a class the rules read on a type that is not a bound
/// type variable (`[Mul ℕ]`, `{o : OfNat ℕ 3}`, `[Membership ℝ (Set ℝ)]`: the statement's `*`,
/// `3` or `∈` is then the binder's), or two instances of one structure on one type (`[Monoid
/// M] [Mul M]`, `[TopologicalSpace X]` twice). `None` when there is none: the rules may run.
pub fn unread_binders(tree: &Tree) -> Option<String> {
    // The names the statement binds: a family `X` of `[∀ i, C (X i)]` must be one of them (a
    // head it does not bind is a constant, `outParam` or `Set`, whose instance reaches
    // Mathlib's types).
    let mut bound_names: Vec<String> = Vec::new();
    walk_binders(tree, &mut |binder: &Tree| {
        let names = match binder.children.split_last() {
            Some((_, names)) => names,
            None => std::slice::from_ref(binder),
        };
        bound_names.extend(names.iter().filter(|n| n.children.is_empty()).map(|n| n.label.clone()));
    });
    let mut instances: Vec<(String, String)> = Vec::new();
    let mut type_variables: Vec<String> = Vec::new();
    let mut found = None;
    walk_binders(tree, &mut |binder: &Tree| {
        if found.is_some() {
            return;
        }
        let children = binder.children.as_slice();
        let Some((ty, names)) = children.split_last() else {
            if MATHLIB_TYPE_NAMES.contains(&binder.label.as_str()) {
                found = Some(format!(
                    "the statement binds `{}`, a name the rules read as Mathlib's type: no rewrite is tried",
                    binder.label
                ));
            }
            return;
        };
        let instance = matches!(binder.label.as_str(), "[ _ ]" | "[ _ : _ ]");
        let names = if instance && binder.label == "[ _ ]" { &[][..] } else { names };
        if let Some(n) = names.iter().find(|n| MATHLIB_TYPE_NAMES.contains(&n.label.as_str())) {
            found = Some(format!(
                "the statement binds `{}`, a name the rules read as Mathlib's type: no rewrite is tried",
                n.label
            ));
            return;
        }
        if rules::is_universe_type(ty) {
            type_variables.extend(names.iter().map(|n| n.label.clone()));
            return;
        }
        // A binder type written so that its head is no name (`[(Pow ℝ ℕ : Type)]`, an
        // application of an application, a form the parser keeps as text): it may be a class,
        // a local instance the checks below would not see.
        // (A typed binder or an instance binder, not a binder predicate's bound: `∃ b ≠ (0 :
        // R)`.)
        let typed = instance || binder.label.contains(':');
        let unread = typed
            && (ty.unparsed
                || ty.label == "( _ : _ )"
                || (ty.children.len() >= 2 && ty.label.trim().split(" _ ").all(str::is_empty)));
        if unread {
            found = Some(format!(
                "the binder type `{}` is written in a form the rules do not read (it may be a local instance): no rewrite is tried",
                rules::render(ty)
            ));
            return;
        }
        // A class inside a binder's type (`P : (Dist ℝ → Prop) → Prop`): a `fun o => …` given
        // to it binds `o` at that class without writing it, and Lean makes it a local
        // instance (a binder is checked for a class after its type is taken from the expected
        // type), so the lambda's `dist`, `+` or `≤` may be `o`'s.
        // (An instance binder `[∀ i, TopologicalSpace (X i)]` is an instance itself, read below.)
        if let Some(inner) = ty.children.iter().find_map(class_inside).filter(|_| !instance) {
            found = Some(format!(
                "a binder's type mentions the class `{inner}`: a `fun` of that type binds a local instance, so no rewrite is tried"
            ));
            return;
        }
        // `[∀ β : Type, Mul β]`, `[∀ i, C (X i)]`: an instance for every type (or index), which
        // serves `Mul ℕ` too, before Mathlib's.
        // (`[∀ i, TopologicalSpace (X i)]` is about the family `X` only.)
        let mut body = ty;
        let mut bound: Vec<&str> = Vec::new();
        for _ in 0..64 {
            match (body.label.as_str(), body.children.split_last()) {
                ("∀ _ , _ " | " _ → _ ", Some((last, binders))) if instance => {
                    for b in binders {
                        let name = if b.children.is_empty() { Some(b) } else { b.children.first() };
                        bound.extend(name.map(|n| n.label.as_str()));
                    }
                    body = last;
                }
                _ => break,
            }
        }
        // Only a family's own instances (`∀ i, C (X i)`, `X` a name of the statement applied
        // to bound names) are about the family alone; any other argument that mentions a
        // bound name (`Inter (Set α)`, `Mul ((fun β => β) α)`, `Inter (Set (Fin n))`) reaches
        // Mathlib's types, whatever the class.
        let family_member = |a: &Tree| {
            let head = rules::app_head(a);
            head.is_some_and(|h| {
                bound_names.iter().any(|n| n == h)
                    && !bound.contains(&h)
                    && !MATHLIB_TYPE_NAMES.contains(&h)
            }) && a
                .children
                .iter()
                .all(|x| x.children.is_empty() && bound.contains(&x.label.as_str()))
        };
        let universal = body
            .children
            .iter()
            .any(|a| bound.iter().any(|b| rules::mentions_name(a, b)) && !family_member(a));
        if !bound.is_empty() && universal {
            let class = read_class(body).unwrap_or("a class");
            found = Some(format!(
                "the local instance `{}` gives `{class}` on every type it reaches, Mathlib's types included: no rewrite is tried",
                rules::render(ty)
            ));
            return;
        }
        if !bound.is_empty() {
            return;
        }
        let Some(class) = read_class(ty) else {
            return;
        };
        let args: Vec<String> = ty.children.iter().map(rules::render).collect();
        // A type variable: bound as one, or a name no table reads as a type (an auto-bound
        // `G` in `[Group G]`); not a number type, a compound type or a numeral.
        let on_type_variables = ty.children.iter().all(|a| {
            a.children.is_empty()
                && (type_variables.contains(&a.label)
                    || (!MATHLIB_TYPE_NAMES.contains(&a.label.as_str())
                        && !a.label.bytes().all(|b| b.is_ascii_digit())))
        });
        if !on_type_variables {
            found = Some(format!(
                "the local instance `{class} {}` replaces Mathlib's there: no rewrite is tried",
                args.join(" ")
            ));
            return;
        }
        // An operation's own class on a type variable beside another instance on it (`[Ring R]
        // [HMul R R R]`, `[Semiring R] [NatCast R]`): the local operation is tried before the
        // structure's, so the structure's lemmas are about another `*`, `+` or cast.
        let operation = OPERATION_CLASSES.contains(&class);
        if let Some(ty) = args.iter().find(|a| {
            instances.iter().any(|(other, on)| {
                on == *a && (operation || OPERATION_CLASSES.contains(&other.as_str()))
            })
        }) {
            found = Some(format!(
                "the local instance `{class}` on `{ty}` and another instance on it give `{ty}` two of one operation: which one a term uses depends on binder order, so no rewrite is tried"
            ));
            return;
        }
        if operation && args.len() > 1 {
            instances.extend(args.iter().map(|a| (class.to_owned(), a.clone())));
            return;
        }
        if let [ty] = args.as_slice() {
            let clash = instances.iter().any(|(other, on)| {
                on == ty
                    && (other == class
                        || STRUCTURE_FAMILIES.iter().any(|family| {
                            family.contains(&class) && family.contains(&other.as_str())
                        }))
            });
            if clash {
                found = Some(format!(
                    "two instance binders give `{ty}` one structure (the second is `{class}`): which one a term uses depends on binder order, so no rewrite is tried"
                ));
                return;
            }
            instances.push((class.to_owned(), ty.clone()));
        }
    });
    found
}

/// Every binder of the statement, theorem binders and those of quantifiers, `fun`,
/// set-builders and big operators, in order.
fn walk_binders(t: &Tree, visit: &mut dyn FnMut(&Tree)) {
    let n = t.children.len();
    let list_or_binding =
        rules::binder_list_arity(&t.label).is_some() || rules::is_binding_node(&t.label);
    if (t.label.starts_with("let ") || t.label.starts_with("have ")) && n == 4 {
        // `let x : T := v; b`: the binder is `x : T`.
        visit(&Tree::node(" _ : _ ", vec![t.children[0].clone(), t.children[1].clone()]));
    } else if list_or_binding && n >= 2 {
        for b in &t.children[..n - 1] {
            visit(b);
        }
    }
    for ch in &t.children {
        walk_binders(ch, visit);
    }
}

/// [`unread_binders`] of a header's `variable` commands (`variable [Mul ℕ]`): they are binders
/// of every statement that uses them. A command the parser cannot read is reported too.
pub fn unread_variables(variables: &[String]) -> Option<String> {
    variables.iter().find_map(|command| {
        let binders = command.split_once(char::is_whitespace).map_or("", |(_, rest)| rest);
        let text = format!("theorem t {binders} : True");
        match crate::trees::parse::parse_statement(&text, &Default::default()) {
            Ok(parsed) => {
                unread_binders(&parsed.tree).map(|why| format!("header `{command}`: {why}"))
            }
            Err(_) => Some(format!(
                "header `{command}`: binders elaboration-lite cannot read; no rewrite is tried"
            )),
        }
    })
}

/// Words in a header's raw text that may declare an instance or a binder elaboration-lite
/// does not read past (`@[instance] def`, `attribute [instance]`, an `instance` after another
/// command on one line, a `variable` behind a comment): the header is read line by line, and
/// these forms hide from that reading. Conservative: any occurrence, comments and strings
/// included, means no rewrite.
pub fn header_instances(header: &str) -> Option<String> {
    const HIDING: [&str; 3] = ["instance", "attribute", "@["];
    if let Some(word) = HIDING.iter().find(|w| header.contains(*w)) {
        return Some(format!(
            "the header mentions `{word}`: an instance it may declare is not read, so no rewrite is tried"
        ));
    }
    let comment_then_variable = header.lines().any(|l| l.contains("-/") && l.contains("variable"));
    comment_then_variable.then(|| {
        "a header `variable` shares its line with a comment: not read, so no rewrite is tried"
            .to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trees::parse::{parse_statement, Header};

    fn tree(text: &str) -> Tree {
        parse_statement(text, &Header::default()).expect("parses").tree
    }

    #[test]
    fn different_closed_facts_are_a_reason_and_equal_ones_are_not() {
        let a = tree("theorem x : 2 ^ 8 % 5 = 1");
        let b = tree("theorem x : 2003 % 11 = 1");
        let note = closed_facts(&a, &b).expect("a reason");
        assert!(note.contains("different problems"), "{note}");
        assert!(closed_facts(&a, &a).is_none());
        // The same numerals in another form: the same problem.
        let m = tree("theorem x : 121 * 122 * 123 % 4 = 2");
        assert!(closed_facts(&m, &tree("theorem x : 121 * 122 * 123 ≡ 2 [MOD 4]")).is_none());
        // A closed fact against none (`2 + 3 = 5` against `5 = 5`).
        let one_sided = closed_facts(&tree("theorem x : 2 + 3 = 5"), &tree("theorem x : 5 = 5"))
            .expect("a reason");
        assert!(!one_sided.contains("none"), "{one_sided}");
        assert!(
            one_sided.contains("reference's `(2 + 3) = 5` to what the candidate"),
            "{one_sided}"
        );
        // Facts about variables are not closed.
        let v = tree("theorem x (n : ℕ) (h : n = 2 + 3) : n = 5");
        assert!(closed_facts(&v, &tree("theorem x (n : ℕ) (h : n = 5) : n = 5")).is_none());
        // Functions of numerals are no literal arithmetic: `Real.log_div_log` is a rewrite.
        let logs = tree("theorem x : Real.log 8 / Real.log 2 = 3");
        assert!(closed_facts(&logs, &tree("theorem x : Real.logb 2 8 = 3")).is_none());
    }

    #[test]
    fn binders_the_rules_cannot_read_past_stop_every_rewrite() {
        let unread = |text: &str| unread_binders(&tree(text));
        for text in [
            "theorem t (x y : ℕ) [Mul ℕ] : x * y = y * x",
            "theorem t (x y : ℕ) {m : Mul ℕ} : x * y = y * x",
            "theorem t (x y : ℕ) (m : Mul ℕ) : x * y = y * x",
            "theorem t (n : ℕ) [OfNat ℕ 3] : n < 3",
            "theorem t (x : ℝ) [Membership ℝ (Set ℝ)] : x ∈ Set.Icc 0 1",
            "theorem t (Nat : Type) (a : Nat) : a = a",
            "theorem t {M : Type*} [Monoid M] [Mul M] (a : M) : a * a = a ^ 2",
            "theorem t {X : Type*} [TopologicalSpace X] [MetricSpace X] (s : Set X) : IsOpen s",
            "theorem t : let τ : TopologicalSpace ℝ := ⊥; IsOpen (Set.univ : Set ℝ)",
        ] {
            assert!(unread(text).is_some(), "read past: {text}");
        }
        // Instances on the statement's type variables (auto-bound ones too), a module over ℝ,
        // a `Fact`: the rules may run.
        for text in [
            "theorem t {G : Type*} [Group G] [Fintype G] (a : G) : a = a",
            "theorem t [Group G] [Fintype G] (a : G) : a = a",
            "theorem t {V : Type*} [AddCommGroup V] [Module ℝ V] (v : V) : v = v",
            "theorem t (p : ℕ) [Fact p.Prime] : p = p",
            "theorem t {X : Type*} [TopologicalSpace X] [CompactSpace X] [T2Space X] : True",
        ] {
            assert!(unread(text).is_none(), "refused: {text}: {:?}", unread(text));
        }
    }

    #[test]
    fn headers_that_may_hide_an_instance_stop_every_rewrite() {
        assert!(
            header_instances("import Mathlib\nopen Real Nat\nopen scoped BigOperators\n").is_none()
        );
        for header in [
            "import Mathlib\n@[instance] def m : Mul ℕ := ⟨fun a _ => a⟩\n",
            "import Mathlib\ndef m : Mul ℕ := ⟨fun a _ => a⟩\nattribute [instance] m\n",
            "import Mathlib\n/- c -/ variable [Mul ℕ]\n",
        ] {
            assert!(header_instances(header).is_some(), "read past: {header}");
        }
        let variables = ["variable {m : Mul ℕ}".to_owned()];
        assert!(unread_variables(&variables).is_some());
        assert!(unread_variables(&["variable {G : Type*} [Group G]".to_owned()]).is_none());
    }
}
