//! The default node similarity of metric `path`: LEXICAL, not semantic.
//!
//! Seed 004 (§4, "NodeSim") compares non-operator nodes by the normalised cosine of SBERT
//! embeddings. No model is bundled here, so [`LexicalSimilarity`] compares labels by their
//! identifier subtokens instead: `Nat.Prime` is split into the namespace `Nat` and the name
//! `Prime`, names are split on `_`, camelCase and letter/digit boundaries (subscripts count as
//! digits), and the resulting subtoken multisets are compared with the Dice coefficient. A
//! difference in namespace only (`Nat.Prime` vs `Prime`, `Real.log` vs `log`) costs a fixed 10%,
//! because `open Nat` makes both spellings name the same constant in most statements. Operator and
//! relation symbols (`=`, `≤`, `∣`, `[ZMOD`) are compared by symbol: equal or not. Numerals are
//! compared as whole literals.
//!
//! Two more rules, each for a reason the paper's embeddings do not have to face:
//! - bound variables and hypothesis names can be renamed without changing a statement, but a path
//!   cannot check that a renaming is consistent, so two differently named bound names get
//!   [`LexicalSimilarity::rename`] (half credit by default), not 1;
//! - a path compares atoms level by level, so at an atom's root (the relation or predicate) the
//!   label similarity is averaged with a tree-level similarity: the Dice coefficient of the two
//!   atoms' label multisets (bound names abstracted). This lets the rest of the atom (its other
//!   arguments) count once on every path, which the positional comparison alone cannot see.
//!
//! Owns only label comparison; knows nothing of paths, DNF or scoring.

use super::TermNode;
use crate::trees::Tree;
use std::collections::HashMap;

/// How two non-operator nodes of the DNF-like trees compare (seed 004 §4, "NodeSim"), in [0, 1].
///
/// Implementations must be symmetric (as the paper's cosine is): the scorer computes one
/// similarity table and uses it in both directions of Eq. (1).
pub trait NodeSimilarity: Send + Sync + std::fmt::Debug {
    fn similarity(&self, a: &TermNode<'_>, b: &TermNode<'_>) -> f64;
}

/// Subtoken-based label similarity, with a tree-level term at atom roots (see the module doc).
#[derive(Clone, Debug)]
pub struct LexicalSimilarity {
    /// Similarity of two bound names (variables, or hypotheses) spelt differently.
    pub rename: f64,
    /// Factor applied when labels differ only by namespace (`Nat.Prime` vs `Prime`).
    pub namespace_factor: f64,
    /// Weight of the tree-level (whole atom) similarity at atom roots; the label gets the rest.
    pub atom_weight: f64,
}

impl Default for LexicalSimilarity {
    fn default() -> Self {
        LexicalSimilarity { rename: 0.5, namespace_factor: 0.9, atom_weight: 0.5 }
    }
}

impl NodeSimilarity for LexicalSimilarity {
    fn similarity(&self, a: &TermNode<'_>, b: &TermNode<'_>) -> f64 {
        let label = self.label_similarity(a, b);
        match (a.atom, b.atom) {
            (Some(ta), Some(tb)) => {
                (1.0 - self.atom_weight) * label + self.atom_weight * atom_dice(ta, tb)
            }
            _ => label,
        }
        .clamp(0.0, 1.0)
    }
}

impl LexicalSimilarity {
    /// Similarity of two node labels (the bound-name rule included), ignoring atom context.
    pub fn label_similarity(&self, a: &TermNode<'_>, b: &TermNode<'_>) -> f64 {
        if a.label == b.label {
            return 1.0;
        }
        if a.bound && b.bound {
            return self.rename;
        }
        let ta = LabelTokens::of(a.label);
        let tb = LabelTokens::of(b.label);
        let dice = multiset_dice(&ta.tokens, &tb.tokens);
        if dice > 0.0 && ta.namespaces != tb.namespaces {
            dice * self.namespace_factor
        } else {
            dice
        }
    }
}

/// The comparable content of a label: subtokens of names, symbols, numerals; and the namespaces
/// of the names apart, so that a namespace difference is a small penalty rather than a token.
#[derive(Debug, PartialEq)]
struct LabelTokens {
    tokens: Vec<String>,
    namespaces: Vec<String>,
}

impl LabelTokens {
    fn of(label: &str) -> LabelTokens {
        let mut tokens = Vec::new();
        let mut namespaces = Vec::new();
        // GTED labels write each child as a whitespace-separated `_`; those are not content.
        for word in label.split_whitespace().filter(|w| *w != "_") {
            let mut rest = word;
            while let Some(c) = rest.chars().next() {
                if is_name_char(c) {
                    let end = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
                    let name = &rest[..end];
                    rest = &rest[end..];
                    if name.chars().all(|c| c == '_') {
                        continue; // a placeholder glued to a symbol, as in `_._`
                    }
                    push_name(name, &mut tokens, &mut namespaces);
                } else {
                    let end = rest
                        .find(|c: char| is_name_char(c) || c.is_whitespace())
                        .unwrap_or(rest.len());
                    let sym = &rest[..end];
                    rest = &rest[end..];
                    if !matches!(sym, "«" | "»") {
                        tokens.push(sym.to_string());
                    }
                }
            }
        }
        namespaces.sort();
        LabelTokens { tokens, namespaces }
    }
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '.' | '\'' | '!' | '?' | '«' | '»')
}

/// Split one name (`Nat.Prime`, `h₀`, `IsAlgebraicClosure`, `3.5`) into comparable subtokens.
fn push_name(name: &str, tokens: &mut Vec<String>, namespaces: &mut Vec<String>) {
    let name = name.trim_matches(|c| matches!(c, '.' | '«' | '»'));
    if name.is_empty() {
        return;
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        tokens.push(name.to_string()); // a numeral, compared whole: `6.5` is not `6` and `5`
        return;
    }
    let mut components: Vec<&str> = name.split('.').filter(|c| !c.is_empty()).collect();
    let Some(last) = components.pop() else {
        return;
    };
    namespaces.extend(components.iter().map(|c| c.to_string()));
    tokens.extend(subtokens(last));
}

/// `IsPrimePow_two₀` → `is`, `prime`, `pow`, `two`, `0`.
fn subtokens(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    for c in name.chars() {
        let c = subscript_digit(c).unwrap_or(c);
        if matches!(c, '_' | '\'' | '«' | '»') {
            flush(&mut cur, &mut out);
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let camel = p.is_lowercase() && c.is_uppercase();
            let digit_edge = p.is_numeric() != c.is_numeric();
            if camel || digit_edge {
                flush(&mut cur, &mut out);
            }
        }
        cur.extend(c.to_lowercase());
        prev = Some(c);
    }
    flush(&mut cur, &mut out);
    out
}

fn flush(cur: &mut String, out: &mut Vec<String>) {
    if !cur.is_empty() {
        out.push(std::mem::take(cur));
    }
}

fn subscript_digit(c: char) -> Option<char> {
    let d = (c as u32).checked_sub('₀' as u32)?;
    if d < 10 {
        char::from_digit(d, 10)
    } else {
        None
    }
}

/// Dice coefficient of two multisets: 2|A ∩ B| / (|A| + |B|); two empty sets are alike.
fn multiset_dice<T: std::hash::Hash + Eq>(a: &[T], b: &[T]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let mut counts: HashMap<&T, i64> = HashMap::new();
    for t in a {
        *counts.entry(t).or_default() += 1;
    }
    let mut common = 0usize;
    for t in b {
        if let Some(n) = counts.get_mut(t) {
            if *n > 0 {
                *n -= 1;
                common += 1;
            }
        }
    }
    2.0 * common as f64 / (a.len() + b.len()) as f64
}

/// Tree-level similarity of two atoms: Dice coefficient of the multisets of label tokens of all
/// their nodes (namespaces dropped, bound names abstracted to one token so that alpha-renaming
/// is no difference). Chosen over a TED similarity of the atoms because it is linear in their
/// size, order-insensitive (`a + b = c` vs `c = b + a` share everything) and uses the same
/// subtokens as the label similarity, so `Nat.Prime p` and `Prime p` are alike as wholes.
pub(super) fn atom_dice(a: &Tree, b: &Tree) -> f64 {
    multiset_dice(&atom_tokens(a), &atom_tokens(b))
}

fn atom_tokens(t: &Tree) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![t];
    while let Some(n) = stack.pop() {
        if n.variable_freecost || n.hypothesis_freecost {
            out.push("\u{0}bound".to_string());
        } else {
            out.extend(LabelTokens::of(&n.label).tokens);
        }
        stack.extend(n.children.iter());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(label: &str) -> TermNode<'_> {
        TermNode { label, bound: false, atom: None }
    }

    fn sim(a: &str, b: &str) -> f64 {
        LexicalSimilarity::default().similarity(&term(a), &term(b))
    }

    #[test]
    fn subtokens_split_camel_case_underscores_and_subscripts() {
        assert_eq!(subtokens("IsPrimePow_two₀"), ["is", "prime", "pow", "two", "0"]);
        assert_eq!(subtokens("T2Space"), ["t", "2", "space"]);
    }

    #[test]
    fn namespace_only_difference_scores_high_but_below_one() {
        let s = sim("Nat.Prime _ ", "Prime _ ");
        assert!((s - 0.9).abs() < 1e-9, "{s}");
        assert!((sim("Real.log _ ", "log _ ") - 0.9).abs() < 1e-9);
        assert_eq!(sim("Nat.Prime _ ", "Nat.Prime _ "), 1.0);
    }

    #[test]
    fn different_names_in_one_namespace_do_not_match() {
        assert_eq!(sim("Real.log _ ", "Real.exp _ "), 0.0);
    }

    #[test]
    fn operators_compare_by_symbol() {
        assert_eq!(sim(" _ = _ ", " _ ≤ _ "), 0.0);
        assert_eq!(sim(" _ ≤ _ ", " _ ≤ _ "), 1.0);
        assert_eq!(sim("13", "6.5"), 0.0);
    }

    #[test]
    fn compound_names_get_partial_credit() {
        let s = sim("IsPrime _ ", "Prime _ ");
        assert!(s > 0.6 && s < 0.7, "{s}");
    }

    #[test]
    fn differently_named_bound_variables_get_rename_credit() {
        let x = TermNode { label: "x", bound: true, atom: None };
        let y = TermNode { label: "y", bound: true, atom: None };
        assert_eq!(LexicalSimilarity::default().similarity(&x, &y), 0.5);
        assert_eq!(sim("x", "y"), 0.0);
    }

    #[test]
    fn atom_roots_mix_label_and_whole_atom_similarity() {
        let a = Tree::node(" _ = _ ", vec![Tree::leaf("a"), Tree::leaf("1")]);
        let b = Tree::node(" _ = _ ", vec![Tree::leaf("a"), Tree::leaf("2")]);
        let ta = TermNode { label: &a.label, bound: false, atom: Some(&a) };
        let tb = TermNode { label: &b.label, bound: false, atom: Some(&b) };
        let s = LexicalSimilarity::default().similarity(&ta, &tb);
        // label 1.0, atoms share 2 of 3 labels: 0.5 + 0.5 * 2/3
        assert!((s - (0.5 + 0.5 * 2.0 / 3.0)).abs() < 1e-9, "{s}");
    }
}
