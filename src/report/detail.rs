//! What a row of the pairs table shows when it is expanded: both statements with the subterms
//! an optimal tree edit (free renaming of bound names, as the editor's hover) renames, deletes
//! or inserts marked where they are written, the hover's list of differences and the metric's
//! rewrite path.
//!
//! Owns cutting the statements' text into plain and marked runs only; the mapping is
//! `distance`'s, the differences in words `differences`'.

use crate::dataset::DatasetPair;
use crate::distance::{self, EditOp, Mapping};
use crate::metrics::MetricReport;
use crate::trees::parse::{self, Header};
use crate::trees::{Statement, Tree};

/// How many differences a pair's detail lists (as the editor's hover and `score`).
const MAX_DIFFERENCES: usize = 12;

/// A statement split for the page: even entries plain text, odd entries a differing part.
pub(super) type Segments = Vec<String>;

/// What a row shows when it is expanded, computed for each pair that parses.
pub(super) struct Detail {
    pub(super) reference: Segments,
    pub(super) candidate: Segments,
    pub(super) differences: Vec<String>,
    pub(super) path: Vec<String>,
}

/// The pair's detail: both statements with the nodes an optimal TED mapping (free renaming of
/// bound names, as the hover) renames, deletes or inserts highlighted, the hover's list of
/// differences, and the rewrite path of the metric's `report` when it has one
/// (`transted-lite`). Else why there is nothing to show (the row says it).
pub(super) fn detail(pair: &DatasetPair, report: Option<&MetricReport>) -> Result<Detail, String> {
    let reference = parse::parse_statement(&pair.ref_statement, &Header::parse(&pair.ref_header))
        .map_err(|e| format!("ref_statement does not parse: {e}"))?;
    let candidate = parse::parse_statement(&pair.cand_statement, &Header::parse(&pair.cand_header))
        .map_err(|e| format!("cand_statement does not parse: {e}"))?;
    let mapping = distance::try_ted_mapping(
        &reference.tree,
        &candidate.tree,
        distance::CostModel { free_rename: true },
    )
    .map_err(|e| format!("no differences shown: {e}"))?;
    let (mapping, differences) =
        crate::differences::read(&reference, &candidate, mapping, MAX_DIFFERENCES);
    let (changed_ref, changed_cand) = changed_nodes(&mapping, &reference.tree, &candidate.tree);
    let differences = differences.into_iter().map(|d| d.message).collect();
    let path = report.map_or_else(Vec::new, |r| {
        r.path
            .iter()
            .map(|s| match s.readable_at() {
                Some(at) => format!("{} ({}): {at}", s.rule, s.side),
                None => format!("{} ({})", s.rule, s.side),
            })
            .collect()
    });
    Ok(Detail {
        reference: segments(&reference, &changed_ref),
        candidate: segments(&candidate, &changed_cand),
        differences,
        path,
    })
}

/// Which preorder nodes of each tree the mapping does not keep as they are.
fn changed_nodes(mapping: &Mapping, a: &Tree, b: &Tree) -> (Vec<bool>, Vec<bool>) {
    let mut in_a = vec![false; a.size()];
    let mut in_b = vec![false; b.size()];
    for op in &mapping.ops {
        let (x, y) = match *op {
            EditOp::Keep { .. } => continue,
            EditOp::Rename { a, b } => (Some(a), Some(b)),
            EditOp::Delete { a } => (Some(a), None),
            EditOp::Insert { b } => (None, Some(b)),
        };
        if let Some(flag) = x.and_then(|x| in_a.get_mut(x)) {
            *flag = true;
        }
        if let Some(flag) = y.and_then(|y| in_b.get_mut(y)) {
            *flag = true;
        }
    }
    (in_a, in_b)
}

/// The statement's text cut into plain and differing runs: a changed node marks its own text
/// (its span minus its children's spans: for `a < b` renamed to `a ≤ b`, the `<` only), so a
/// deleted subtree is marked whole and a renamed operator only where it is written. Spaces are
/// never marked; nodes without a span (none from text) mark nothing.
fn segments(statement: &Statement, changed: &[bool]) -> Segments {
    let source = statement.source.as_str();
    let mut marked = vec![false; source.len()];
    // The declaration and its signature (` _ … : _ `, whose label counts the binders) are the
    // statement's frame: their own text is `theorem name`, the binders' brackets and the colon,
    // which a missing or extra binder "renames". Their parts carry the differences.
    let frame = match statement.tree.children.as_slice() {
        [_] if matches!(statement.tree.label.as_str(), "theorem" | "lemma" | "example") => 2,
        _ => 1,
    };
    for (node, _) in
        statement.tree.preorder().into_iter().zip(changed).skip(frame).filter(|(_, c)| **c)
    {
        let Some(span) = node.span else { continue };
        let (start, end) = (span.start as usize, (span.end as usize).min(source.len()));
        let mut own: Vec<(usize, usize)> = vec![(start, end)];
        for child in node.children.iter().filter_map(|c| c.span) {
            let (cs, ce) = (child.start as usize, child.end as usize);
            own = own
                .into_iter()
                .flat_map(|(s, e)| {
                    if ce <= s || cs >= e {
                        vec![(s, e)]
                    } else {
                        vec![(s, cs.max(s)), (ce.min(e), e)]
                    }
                })
                .filter(|(s, e)| s < e)
                .collect();
        }
        for (s, e) in own {
            for flag in marked.iter_mut().take(e).skip(s) {
                *flag = true;
            }
        }
    }
    // Per character: marked text, and whitespace inside a marked run (`(h : x ≠ 0)` is one
    // mark), never whitespace at a run's edge.
    let chars: Vec<(usize, char)> = source.char_indices().collect();
    let mut mark: Vec<bool> = chars
        .iter()
        .map(|&(i, c)| !c.is_whitespace() && marked.get(i).copied().unwrap_or(false))
        .collect();
    let mut k = 0;
    while k < chars.len() {
        if !chars[k].1.is_whitespace() {
            k += 1;
            continue;
        }
        let start = k;
        while k < chars.len() && chars[k].1.is_whitespace() {
            k += 1;
        }
        let inside = start > 0 && mark[start - 1] && k < chars.len() && mark[k];
        for m in &mut mark[start..k] {
            *m = inside;
        }
    }
    let mut out: Segments = vec![String::new()];
    for (&(_, c), &mark) in chars.iter().zip(&mark) {
        // Odd entries are marked: start a new entry when the run changes.
        if mark != out.len().is_multiple_of(2) {
            out.push(String::new());
        }
        if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(reference: &str, candidate: &str) -> (Vec<String>, Vec<String>, Vec<String>) {
        let pair = DatasetPair {
            id: "p".into(),
            ref_header: String::new(),
            ref_statement: reference.into(),
            cand_header: String::new(),
            cand_statement: candidate.into(),
            label: None,
            line: 1,
        };
        let d = detail(&pair, None).expect("both parse");
        assert!(d.path.is_empty(), "ted has no rewrite path");
        let odd = |s: Segments| s.into_iter().skip(1).step_by(2).collect::<Vec<_>>();
        (odd(d.reference), odd(d.candidate), d.differences)
    }

    #[test]
    fn a_renamed_operator_is_marked_where_it_is_written_only() {
        let (r, c, d) = marks(
            "theorem a (x : ℝ) (h : 0 < x) : x < 1 := by sorry",
            "theorem b (y : ℝ) (h : 0 < y) : y ≤ 1 := by sorry",
        );
        // The bound name (free renaming) and the theorem's name are not differences.
        assert_eq!((r, c), (vec!["<".to_string()], vec!["≤".to_string()]));
        assert_eq!(d.len(), 1, "{d:?}");
    }

    #[test]
    fn a_missing_hypothesis_is_marked_whole_and_the_text_is_kept_exactly() {
        let reference = "theorem a (x : ℕ) (h : x ≠ 0) : 0 < x := by sorry";
        let (r, c, d) = marks(reference, "theorem b (x : ℕ) : 0 < x := by sorry");
        assert_eq!(r, vec!["(h : x ≠ 0)"]);
        assert!(c.is_empty(), "{c:?}");
        assert!(d.iter().any(|m| m.contains("missing")), "{d:?}");
        let pair = DatasetPair {
            id: "p".into(),
            ref_header: String::new(),
            ref_statement: reference.into(),
            cand_header: String::new(),
            cand_statement: "theorem b (x : ℕ) : 0 < x := by sorry".into(),
            label: None,
            line: 1,
        };
        let whole: String = detail(&pair, None).unwrap().reference.concat();
        assert!(reference.starts_with(&whole), "{whole}");
    }

    #[test]
    fn a_statement_that_does_not_parse_says_so_in_its_row() {
        let pair = DatasetPair {
            id: "p".into(),
            ref_header: String::new(),
            ref_statement: "theorem a : (1 = 1".into(),
            cand_header: String::new(),
            cand_statement: "theorem b : 1 = 1".into(),
            label: None,
            line: 1,
        };
        let why = detail(&pair, None).err().expect("no detail");
        assert!(why.starts_with("ref_statement does not parse"), "{why}");
    }
}
