//! The features' one seam onto the engine: finding declarations, parsing statements, edit
//! mappings and metrics. Everything Lean-text-specific the features need passes through here,
//! so the rest of `features` works on `Statement`s, `Mapping`s and `MetricReport`s only.
//!
//! Owns nothing of the engine itself (`trees::parse`, `distance`, `metrics` do the work).

use crate::distance::{self, CostModel, Mapping};
use crate::metrics::{self, transted_lite, Metric, MetricError, MetricReport, Pair};
use crate::trees::{parse, Statement, Tree};

/// A declaration in a file (the parser's `Declaration`: byte ranges into the file text).
pub type Decl = parse::Declaration;

/// Declarations (`theorem`, `lemma`, `example`) in a file.
pub fn declarations(text: &str) -> Vec<Decl> {
    parse::find_declarations(text)
}

/// The header (imports, `open`s, options) of a file: everything before its first declaration.
pub fn header_of(text: &str, decls: &[Decl]) -> String {
    let end = decls
        .first()
        .map_or(text.len(), |d| d.start)
        .min(text.len());
    let mut end = end;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// Parse one statement's text (`theorem name binders : type`, proof optional); spans are byte
/// offsets into `statement`.
///
/// A statement past `metrics::limits::EDITOR` is refused here, once for all its lenses: the
/// features' walks recurse per tree level, and a crash in the proxy ends the editor's session.
pub fn parse(statement: &str, header: &str) -> Result<Statement, String> {
    let parsed = parse::parse_statement(statement, &parse::Header::parse(header))
        .map_err(|e| e.to_string())?;
    metrics::limits::check_tree("statement", &parsed.tree, &metrics::limits::EDITOR)?;
    Ok(parsed)
}

/// The optimal TED edit mapping from `reference` to `candidate` (preorder ids), with GTED's free
/// renaming of flagged variables/hypotheses, so renamed binders are not reported as differences.
/// `None` for a pair past the TED engine's table limit.
pub fn mapping(reference: &Tree, candidate: &Tree) -> Option<Mapping> {
    distance::try_ted_mapping(reference, candidate, CostModel { free_rename: true }).ok()
}

/// Run an offline metric by contract name.
pub fn judge(metric: &str, pair: &Pair<'_>) -> Result<MetricReport, MetricError> {
    metrics::by_name(metric)?.judge(pair)
}

/// [`judge`], with the metrics that watch a clock (transted-lite's search) stopping by
/// `deadline` at the latest: a job's time limit then ends the work itself, not only the wait
/// for it, and the CPU permit held for it is freed by then. TED has no clock; its cost is
/// bounded by the trees' sizes.
pub fn judge_by(
    metric: &str,
    pair: &Pair<'_>,
    deadline: std::time::Instant,
) -> Result<MetricReport, MetricError> {
    if metric == "transted-lite" {
        let mut m = transted_lite::TransTedLite::default();
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        m.config.time_limit = m.config.time_limit.min(left);
        return m.judge(pair);
    }
    judge(metric, pair)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_chains_are_refused_once_at_parsing_not_walked() {
        // The proxy's 2 MiB worker stacks: a 20,000-term sum is one clear problem for its
        // theorem, never a stack overflow that ends the editor's session (issue 17).
        let worker = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(|| {
                let sum = vec!["x"; 20_000].join(" + ");
                let e = parse(&format!("theorem t (x : ℕ) : {sum} = 0"), "").unwrap_err();
                assert_eq!(
                    e,
                    "too large: the statement has 40006 nodes (limit 10000)".to_string()
                );
                let deep = vec!["x"; 1_000].join(" + ");
                let e = parse(&format!("theorem t (x : ℕ) : {deep} = 0"), "").unwrap_err();
                assert_eq!(e, "too deep: the statement is 1003 levels deep (limit 256)");
                assert!(parse("theorem t (x : ℕ) : x + x = 0", "").is_ok());
                let mut wide = Tree::leaf("x");
                wide.children = (0..5_000).map(|_| Tree::leaf("y")).collect();
                assert!(mapping(&wide, &wide).is_none(), "past the TED table limit");
            })
            .unwrap();
        worker.join().expect("no stack overflow");
    }

    #[test]
    fn finds_declarations_with_names_and_statement_ends() {
        let t = "import Mathlib\n\n-- @reference R.lean::r\ntheorem foo (x : ℝ) : x = x := by\n  rfl\n\n@[simp] lemma bar : True := trivial\n";
        let d = declarations(t);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].name.as_deref(), Some("foo"));
        assert_eq!(
            &t[d[0].start..d[0].statement_end],
            "theorem foo (x : ℝ) : x = x "
        );
        let (a, b) = d[0].name_range.unwrap();
        assert_eq!(&t[a..b], "foo");
        assert_eq!(d[1].name.as_deref(), Some("bar"));
        assert_eq!(
            header_of(t, &d),
            "import Mathlib\n\n-- @reference R.lean::r\n"
        );
    }

    #[test]
    fn transted_lite_stops_by_the_jobs_deadline() {
        // A pair that needs rewriting (commuted operands), judged with no time left: the search
        // ends on the clock (the job's limit), not on its own budget.
        let r = parse(
            "theorem r (a b c : ℕ) : a + b + c = c + b + a := by sorry",
            "",
        )
        .unwrap();
        let c = parse(
            "theorem c (a b c : ℕ) : c + (b + a) = a + (b + c) := by sorry",
            "",
        )
        .unwrap();
        let pair = Pair {
            reference: &r,
            candidate: &c,
            reference_header: "",
            candidate_header: "",
        };
        let past = std::time::Instant::now() - std::time::Duration::from_millis(1);
        // Either no distance was measured in time (an "out of time" failure, never a score) or
        // the search stopped on the job's clock and says so.
        match judge_by("transted-lite", &pair, past) {
            Err(e) => assert!(e.to_string().contains("out of time"), "{e}"),
            Ok(rep) => assert!(
                rep.notes
                    .iter()
                    .any(|n| n.starts_with("time limit (0 ms) reached")),
                "{:?}",
                rep.notes
            ),
        }
        // With time left, the metric's own limits apply as before.
        let later = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let rep = judge_by("transted-lite", &pair, later).unwrap();
        assert!(
            !rep.notes.iter().any(|n| n.starts_with("time limit")),
            "{:?}",
            rep.notes
        );
    }
}
