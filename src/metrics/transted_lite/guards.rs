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
