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
const MATHLIB_TYPE_NAMES: [&str; 19] = [
    "ℕ",
    "Nat",
    "ℤ",
    "Int",
    "ℚ",
    "Rat",
    "ℝ",
    "Real",
    "ℂ",
    "Complex",
    "Set",
    "Finset",
    "Fin",
    "ZMod",
    "Polynomial",
    "Multiset",
    "List",
    "Prop",
    "Function",
];

/// The number types whose own operations the typed rules assume.
const NUMBER_TYPES: [&str; 10] = ["ℕ", "Nat", "ℤ", "Int", "ℚ", "Rat", "ℝ", "Real", "ℂ", "Complex"];

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

/// A binder no rule can read past, and why: a bound name the rules read as Mathlib's type
/// (`(Nat : Type)`), a local instance of an operation on a number type (`[Mul ℕ]`, `[OfNat ℕ
/// 3]`: the statement's `*` or `3` is then the binder's, not Mathlib's), or two instances of
/// one structure on one type (`[Monoid M] [Mul M]`, `[TopologicalSpace X]` twice). `None`
/// when there is none: the rules may run.
pub fn unread_binders(tree: &Tree) -> Option<String> {
    let mut instances: Vec<(String, Vec<String>)> = Vec::new();
    let mut found = None;
    walk_binders(tree, &mut |binder: &Tree| {
        if found.is_some() {
            return;
        }
        let (label, children) = (binder.label.as_str(), binder.children.as_slice());
        let instance = matches!(label, "[ _ ]" | "[ _ : _ ]");
        if !instance {
            let names = children.len().saturating_sub(1);
            let bound =
                if children.is_empty() { std::slice::from_ref(binder) } else { &children[..names] };
            if let Some(n) = bound.iter().find(|n| MATHLIB_TYPE_NAMES.contains(&n.label.as_str())) {
                found = Some(format!(
                    "the statement binds `{}`, a name the rules read as Mathlib's type: no rewrite is tried",
                    n.label
                ));
            }
            return;
        }
        let Some(class_app) = children.last() else {
            return;
        };
        let Some(class) =
            class_app.label.split_whitespace().next().filter(|_| !class_app.children.is_empty())
        else {
            return;
        };
        let args: Vec<String> = class_app.children.iter().map(|a| a.label.clone()).collect();
        let on_number = class_app
            .children
            .iter()
            .any(|a| a.children.is_empty() && NUMBER_TYPES.contains(&a.label.as_str()));
        if on_number && (args.len() == 1 || OPERATION_CLASSES.contains(&class)) {
            found = Some(format!(
                "the instance binder `{class} {}` replaces Mathlib's instance on a number type there: no rewrite is tried",
                args.join(" ")
            ));
            return;
        }
        if let [ty] = args.as_slice() {
            let clash = instances.iter().any(|(other, on)| {
                on.first() == Some(ty)
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
        }
        instances.push((class.to_owned(), args));
    });
    found
}

/// Every binder of the statement, theorem binders and those of quantifiers, `fun`,
/// set-builders and big operators, in order.
fn walk_binders(t: &Tree, visit: &mut dyn FnMut(&Tree)) {
    let n = t.children.len();
    let list_or_binding = rules::binder_list_arity(&t.label).is_some()
        || t.label.contains("=>")
        || (t.label.starts_with('{') && t.label.contains('|'))
        || t.label.ends_with(", _ ");
    if list_or_binding && n >= 2 {
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
}
