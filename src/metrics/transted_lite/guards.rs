//! What a rewrite path to identical trees does not show: reasons to refuse "equivalent".
//!
//! Owns two checks `transted-lite` makes after its search closed a pair (distance 0), each
//! giving a reason to keep the pair open (distance 1) and a note saying why:
//! - [`differing_definitions`]: the statements use a name their headers define differently
//!   (`def K := … 1/n …` against `def K := … 1/(n+1) …`), or only one header defines it, or the
//!   headers declare `variable`s/notations/instances differently. The trees name `K` alike;
//!   what `K` means is in the header text, which no rule reads, so the texts must agree.
//! - [`closed_facts`]: a relation between closed arithmetic terms (`2 ^ 8 % 5 = 1`), which
//!   `norm_num` evaluates to a literal fact. Two different closed facts can both become `1 = 1`;
//!   both true, both "equivalent" to `True`, but different problems.
//!
//! Reads only header text and trees; rewrites nothing.

use super::rules;
use crate::trees::Tree;

/// A declaration of a header that can change what a statement means.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Declaration {
    /// The declared name (`K` for `noncomputable def K …`); `None` for commands that name
    /// nothing yet change elaboration (`variable`, `notation`, an anonymous `instance`).
    name: Option<String>,
    /// The command's text, whitespace collapsed.
    text: String,
}

/// Commands that only set the context the rules already read (`open`s) or change nothing a
/// statement's meaning depends on.
const CONTEXT_COMMANDS: [&str; 9] = [
    "import",
    "open",
    "set_option",
    "namespace",
    "section",
    "end",
    "universe",
    "universes",
    "#align_import",
];

/// Words before a declaration keyword.
const MODIFIERS: [&str; 8] = [
    "noncomputable",
    "private",
    "protected",
    "partial",
    "unsafe",
    "scoped",
    "local",
    "nonrec",
];

/// Keywords followed by the declared name.
const NAMING: [&str; 10] = [
    "def",
    "abbrev",
    "theorem",
    "lemma",
    "structure",
    "inductive",
    "class",
    "axiom",
    "opaque",
    "instance",
];

/// The declarations of a header, one per command that starts at column 0.
fn declarations(header: &str) -> Vec<Declaration> {
    let mut out: Vec<Declaration> = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    let mut in_block_comment = false;
    let flush = |current: &mut Option<Vec<&str>>, out: &mut Vec<Declaration>| {
        if let Some(lines) = current.take() {
            let text = lines
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            out.push(Declaration {
                name: declared_name(&text),
                text,
            });
        }
    };
    for raw in header.lines() {
        // Block comments `/- … -/` (doc comments too) are skipped as a whole.
        let trimmed = raw.trim_start();
        if in_block_comment {
            if raw.contains("-/") {
                in_block_comment = false;
            }
            continue;
        }
        if trimmed.starts_with("/-") {
            in_block_comment = !trimmed.contains("-/");
            continue;
        }
        let line = raw.split("--").next().unwrap_or("");
        if line.trim().is_empty() {
            continue;
        }
        let starts_command = !line.starts_with(char::is_whitespace);
        if starts_command {
            flush(&mut current, &mut out);
            let first = line.split_whitespace().next().unwrap_or("");
            if !CONTEXT_COMMANDS.contains(&first) {
                current = Some(vec![line]);
            }
        } else if let Some(lines) = current.as_mut() {
            lines.push(line);
        }
    }
    flush(&mut current, &mut out);
    out
}

/// The name a command declares, after attributes and modifiers.
fn declared_name(text: &str) -> Option<String> {
    let mut rest = text.trim();
    // `@[simp] def …`: skip the attribute (no nested brackets in practice; an odd one just
    // names nothing, which is the strict case).
    while let Some(after) = rest.strip_prefix("@[") {
        rest = after.split_once(']').map_or("", |(_, r)| r).trim_start();
    }
    let mut words = rest.split_whitespace();
    let mut word = words.next()?;
    while MODIFIERS.contains(&word) {
        word = words.next()?;
    }
    if !NAMING.contains(&word) {
        return None;
    }
    let name = words.next()?;
    let ident = name
        .chars()
        .all(|c| c.is_alphanumeric() || "._'!?₀₁₂₃₄₅₆₇₈₉".contains(c));
    ident.then(|| name.to_owned())
}

/// Every identifier-like word of the trees' labels (`K _ ` gives `K`, `Foo.bar` gives
/// `Foo.bar` and `bar`).
fn words(t: &Tree, out: &mut Vec<String>) {
    for w in t
        .label
        .split(|c: char| !(c.is_alphanumeric() || "._'!?".contains(c)))
        .filter(|w| !w.is_empty())
    {
        out.push(w.to_owned());
        if let Some((_, last)) = w.rsplit_once('.') {
            out.push(last.to_owned());
        }
    }
    for c in &t.children {
        words(c, out);
    }
}

/// The reasons two statements' headers may give them different meanings: each declaration
/// that matters to them (a name either statement uses, or a command that names nothing) and is
/// not written the same in both headers. Empty when the headers agree on all of them.
pub fn differing_definitions(
    reference_header: &str,
    reference: &Tree,
    candidate_header: &str,
    candidate: &Tree,
) -> Vec<String> {
    let (ours, theirs) = (
        declarations(reference_header),
        declarations(candidate_header),
    );
    if ours.is_empty() && theirs.is_empty() {
        return Vec::new();
    }
    let mut used = Vec::new();
    words(reference, &mut used);
    words(candidate, &mut used);
    let matters = |d: &Declaration| match &d.name {
        None => true,
        Some(name) => {
            let last = name.rsplit('.').next().unwrap_or(name);
            used.iter().any(|w| w == name || w == last)
        }
    };
    let mut reasons = Vec::new();
    for (mine, other, side) in [(&ours, &theirs, "reference"), (&theirs, &ours, "candidate")] {
        for d in mine.iter().filter(|d| matters(d)) {
            if !other.iter().any(|o| o.text == d.text) {
                let what = d.name.as_deref().map_or_else(
                    || format!("`{}`", d.text.chars().take(40).collect::<String>()),
                    |n| format!("`{n}`"),
                );
                let reason = format!(
                    "the {side}'s header declares {what} and the other header does not say the same; the statements use it"
                );
                if !reasons.contains(&reason) {
                    reasons.push(reason);
                }
            }
        }
    }
    reasons
}

const RELATIONS: [&str; 9] = [
    " _ = _ ",
    " _ ≠ _ ",
    " _ < _ ",
    " _ ≤ _ ",
    " _ > _ ",
    " _ ≥ _ ",
    " _ ∣ _ ",
    " _ ≡ _ [MOD _ ]",
    " _ ≡ _ [ZMOD _ ]",
];

/// What `norm_num`'s literal arithmetic evaluates (`rules::norm_num`).
const ARITHMETIC: [&str; 6] = [
    " _ + _ ", " _ - _ ", " _ * _ ", " _ / _ ", " _ % _ ", " _ ^ _ ",
];

/// Made of numerals, arithmetic on them and ascriptions only (not `Real.log 80`: no literal
/// evaluation makes two such terms alike).
fn closed(t: &Tree) -> bool {
    if t.children.is_empty() {
        return !t.label.is_empty() && t.label.bytes().all(|b| b.is_ascii_digit());
    }
    if t.label == "( _ : _ )" && t.children.len() == 2 {
        return closed(&t.children[0]);
    }
    let arithmetic =
        ARITHMETIC.contains(&t.label.as_str()) || RELATIONS.contains(&t.label.as_str());
    arithmetic && t.children.iter().all(closed)
}

/// The closed facts with arithmetic in them (`2 ^ 8 % 5 = 1`, not `1 = 1`): each rendered,
/// and the numerals of all of them.
fn closed_relations(t: &Tree, out: &mut Vec<String>, numerals: &mut Vec<String>) {
    let arithmetic = t.children.iter().any(|c| !c.children.is_empty());
    if RELATIONS.contains(&t.label.as_str()) && arithmetic && closed(t) {
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
    let list = |v: &[String]| {
        if v.is_empty() {
            "none".to_owned()
        } else {
            v.iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    Some(format!(
        "closed arithmetic: norm_num evaluates the reference's {} and the candidate's {} alike; \
         both may be true, but they are different problems",
        list(&ours),
        list(&theirs)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trees::parse::{parse_statement, Header};

    fn tree(text: &str) -> Tree {
        parse_statement(text, &Header::default())
            .expect("parses")
            .tree
    }

    #[test]
    fn a_used_name_defined_differently_is_a_reason() {
        let a = "import Mathlib\nopen Real\n\nnoncomputable def K (n : ℕ) : ℚ :=\n  1 / n\n";
        let b = "import Mathlib\nopen Real\n\nnoncomputable def K (n : ℕ) : ℚ :=\n  1 / (n + 1)\n";
        let t = tree("theorem x : K 2 = 1");
        assert_eq!(differing_definitions(a, &t, b, &t).len(), 2);
        // The same definition, laid out differently: no reason.
        let a2 = "import Mathlib\nopen Real\nnoncomputable def K (n : ℕ) : ℚ := 1 / n";
        assert!(differing_definitions(a, &t, a2, &t).is_empty());
        // A definition no statement uses does not matter.
        let other = tree("theorem x : (2 : ℚ) = 1");
        assert!(differing_definitions(a, &other, b, &other).is_empty());
        // Defined on one side only.
        assert_eq!(differing_definitions(a, &t, "import Mathlib", &t).len(), 1);
        // `variable`s always matter.
        let v = "variable (x : ℝ)";
        assert_eq!(
            differing_definitions(v, &other, "variable (x : ℕ)", &other).len(),
            2
        );
        // Comments and context commands are not declarations.
        let c = "import Mathlib\n-- def K := 2\n/- def K\n := 3 -/\nset_option maxHeartbeats 0";
        assert!(differing_definitions(c, &t, "import Mathlib", &t).is_empty());
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
        assert!(closed_facts(&tree("theorem x : 2 + 3 = 5"), &tree("theorem x : 5 = 5")).is_some());
        // Facts about variables are not closed.
        let v = tree("theorem x (n : ℕ) (h : n = 2 + 3) : n = 5");
        assert!(closed_facts(&v, &tree("theorem x (n : ℕ) (h : n = 5) : n = 5")).is_none());
        // Functions of numerals are no literal arithmetic: `Real.log_div_log` is a rewrite.
        let logs = tree("theorem x : Real.log 8 / Real.log 2 = 3");
        assert!(closed_facts(&logs, &tree("theorem x : Real.logb 2 8 = 3")).is_none());
    }
}
