//! Metrics: how similar (or whether equivalent) a candidate statement is to its reference.
//!
//! Owns the [`Metric`] trait, the result type every front end (CLI, bench, editor) shows, the
//! verdict a report supports, and the [`registry`] of metric names. Each metric lives in its own
//! module. The offline ones (`ted`, `path`, `transted-lite`) are the base layer; the Lean-backed
//! ones (`transted`, `beq`, `beq_plus`, `defeq`, over `lean_backed`) belong to the Lean layer and
//! reach Lean only through the oracle they are given.

use crate::trees::Statement;
use std::time::{Duration, Instant};

/// The pair being judged, already parsed.
#[derive(Clone, Copy, Debug)]
pub struct Pair<'a> {
    pub reference: &'a Statement,
    pub candidate: &'a Statement,
    pub reference_header: &'a str,
    pub candidate_header: &'a str,
}

/// What a metric concludes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// A similarity; higher means more alike, 1.0 identical (TED-based scores can be negative).
    Score(f64),
    /// A yes/no equivalence decision (`beq`, `defeq`).
    Equivalent(bool),
}

/// One rewrite (or tactic) on a path from the original pair to the closest pair found.
#[derive(Clone, Debug, PartialEq)]
pub struct PathStep {
    /// Rule or tactic name, named after the lemma that justifies it (`and_imp`, `eq_comm`, ...).
    pub rule: String,
    /// Which side it applied to: `"reference"` or `"candidate"` (or `"goal"` for Lean tactics).
    pub side: String,
    /// Where, in readable terms (the subterm rewritten).
    pub at: String,
}

impl PathStep {
    /// Where the step applied, when its text reads as Lean: some rules still quote a node's
    /// internal label (`∀ _  _ , _(ε > 0, …)`), which tells a reader nothing, so those places
    /// are left out of what people read (the rule and side remain; `--json` keeps the text).
    pub fn readable_at(&self) -> Option<String> {
        let at = self.at.trim();
        let internal =
            at.contains(" _ ") || at.contains(" _(") || at.contains("_ ,") || at.contains("((");
        (!at.is_empty() && !internal).then(|| crate::trees::render::shorten(at, 100))
    }
}

/// A metric's full answer, with what the editor needs to explain it.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricReport {
    pub metric: &'static str,
    pub verdict: Verdict,
    /// Edit distance behind the score, where there is one.
    pub distance: Option<u32>,
    pub reference_size: usize,
    pub candidate_size: usize,
    /// Transformations applied before the final distance (empty for plain TED).
    pub path: Vec<PathStep>,
    /// Free-form remarks (budget exhausted, tactic skipped for lack of Mathlib, ...).
    pub notes: Vec<String>,
    pub elapsed: Duration,
}

/// Why a metric could not judge a pair.
#[derive(Debug, thiserror::Error)]
pub enum MetricError {
    #[error(
        "metric '{0}' needs a Lean server: run it with `score --lean-project DIR` (or `bench --lean-project DIR`, or in the editor)"
    )]
    NeedsLean(&'static str),
    #[error("unknown metric '{0}' (known: {known})", known = registry::names().collect::<Vec<_>>().join(", "))]
    Unknown(String),
    #[error("{0}")]
    Failed(String),
}

/// A way of comparing two statements.
pub trait Metric: Send + Sync {
    /// The contract name (`ted`, `path`, ...).
    fn name(&self) -> &'static str;
    /// Judge one pair. Must not panic on any input, and must respect its own time bounds.
    fn judge(&self, pair: &Pair<'_>) -> Result<MetricReport, MetricError>;
}

/// What a comparison shows about equivalence, apart from how similar the two statements are.
///
/// `Equivalent` only with evidence: a Lean proof (`beq`, `defeq`, `transted` closing its goal),
/// a sound rewrite path after which the trees are the same up to renaming of bound names
/// (`transted-lite` at distance 0), or trees that are already the same up to such renaming
/// under headers that mean the same (`ted`, `path`). Everything else is `NotShown`: not a claim
/// that the statements differ, only that nothing here proves them equivalent; the similarity
/// ranks those.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EquivalenceVerdict {
    Equivalent {
        /// Why, in a sentence (the path itself is in the report).
        evidence: String,
    },
    NotShown,
}

impl EquivalenceVerdict {
    /// The contract's word: `"equivalent"` or `"not shown"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            EquivalenceVerdict::Equivalent { .. } => "equivalent",
            EquivalenceVerdict::NotShown => "not shown",
        }
    }

    pub fn is_equivalent(&self) -> bool {
        matches!(self, EquivalenceVerdict::Equivalent { .. })
    }
}

/// The verdict a metric's report supports for `pair` (see [`EquivalenceVerdict`]).
pub fn equivalence(report: &MetricReport, pair: &Pair<'_>) -> EquivalenceVerdict {
    let equivalent =
        |evidence: &str| EquivalenceVerdict::Equivalent { evidence: evidence.to_string() };
    // The offline metrics read trees, and the parser keeps a proof term only in part (`(show ℕ
    // from 2)` as `ℕ`, `(by exact 2)` as `by`): two statements with different terms there have
    // one tree. Their verdict needs the texts themselves to agree.
    if ["ted", "path", "transted-lite"].contains(&report.metric)
        && (has_proof_term(&pair.reference.source) || has_proof_term(&pair.candidate.source))
        && statement_body(&pair.reference.source) != statement_body(&pair.candidate.source)
    {
        return EquivalenceVerdict::NotShown;
    }
    // A name bound without a type whose uses may decide different types (`(x) (h : n ≤ x) (h' :
    // (x : ℝ) < 1)`, `n : ℕ`) means what the order of those uses makes it mean. A path that
    // reorders or drops uses ([`reorders_uses`]) may change it: that verdict needs the two
    // statements the same as written, up to renaming, as `ted`'s does.
    let same_as_written = || {
        transted_lite::rules::alpha_equivalent(&pair.reference.tree, &pair.candidate.tree)
            && names_mean_the_same(pair)
    };
    // A name bound inside one hypothesis or term whose binding node the other statement has as
    // written means the same on both sides.
    let kept = |own: &crate::trees::Tree, other: &crate::trees::Tree| {
        transted_lite::rules::order_sensitive_binders(own).iter().all(|s| {
            s.within.iter().all(|w| w.as_ref().is_some_and(|node| has_subtree(other, node, 0)))
        })
    };
    if report.metric == "transted-lite" && report.path.iter().any(|step| reorders_uses(&step.rule))
    {
        // Read with the names resolved under each header (`range` is `Finset.range`).
        let names = PairNames::read(pair);
        let (r, c) = (&names.resolved.0.tree, &names.resolved.1.tree);
        let both_kept = kept(r, c) && kept(c, r);
        if !both_kept && !same_as_written() {
            return EquivalenceVerdict::NotShown;
        }
    }
    // A header that names `Fin` or `ZMod` (`variable (b : Fin 5)`, `def b : Fin 5`, `open
    // Fin.NatCast`) may give the statement's names a type numerals wrap in and a natural
    // coerces to and back, which the rules read from the statement alone: a path that swaps a
    // relation's sides or substitutes a value needs the statements the same as written.
    // (`open ZMod` only shortens names; an `open` of a namespace inside them may hold scoped
    // instances, as `Fin.NatCast` does.)
    let wrapping_header = [pair.reference_header, pair.candidate_header].iter().any(|h| {
        h.lines().any(|line| {
            let open = line.trim_start().starts_with("open");
            line.split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '_')).any(|word| {
                transted_lite::rules::names_wrapping_type(word) && (!open || word.contains('.'))
            })
        })
    });
    let swaps_or_substitutes = |rule: &str| {
        ["eq_comm", "ne_comm", "gt_iff_lt", "ge_iff_le", "forall_eq"]
            .iter()
            .any(|r| rule.starts_with(r))
    };
    if report.metric == "transted-lite"
        && wrapping_header
        && report.path.iter().any(|step| swaps_or_substitutes(&step.rule))
        && !same_as_written()
    {
        return EquivalenceVerdict::NotShown;
    }
    match (report.metric, report.verdict) {
        (_, Verdict::Equivalent(true)) => equivalent(match report.metric {
            "defeq" => "Lean checked that the two statements are definitionally equal",
            _ => "Lean proved each statement from the other",
        }),
        (_, Verdict::Equivalent(false)) => EquivalenceVerdict::NotShown,
        // Its search stops at distance 0 only when the trees are alpha-equivalent
        // (`rules::alpha_equivalent`; a free-renaming TED of 0 otherwise counts 1).
        ("transted-lite", _) if report.distance == Some(0) => equivalent(
            "the rewrites listed make the two statements the same up to renaming of bound names",
        ),
        // Lean-backed TransTED: distance 0 is a goal Lean closed along the path.
        ("transted", _) if report.distance == Some(0) => {
            equivalent("Lean closed the goal `reference ↔ candidate` along the path listed")
        }
        ("ted" | "path", _)
            if transted_lite::rules::alpha_equivalent(
                &pair.reference.tree,
                &pair.candidate.tree,
            ) && names_mean_the_same(pair) =>
        {
            equivalent("the two statements are the same up to renaming of bound names")
        }
        _ => EquivalenceVerdict::NotShown,
    }
}

/// Does the rule named `rule` change the order of uses in a statement (`and_comm`,
/// `binder_reorder`, `Imp.swap`, `abs_sub_comm`), or drop one (`and_self`, `forall_eq`,
/// `exists_imp`'s moves, a membership unfolded)? `gt_iff_lt` and `ge_iff_le` are not counted:
/// they swap the two sides of one relation, whose leaves `binrel%` elaborates before it
/// unifies an untyped name, and they swap only where no two leaf types may coerce both ways
/// (`one_type_or_numbers` in the rule table).
fn reorders_uses(rule: &str) -> bool {
    // Membership rules that fire only where the element's type is already known say so in
    // their declaration.
    if transted_lite::rules::keeps_decisions(rule) {
        return false;
    }
    const WORDS: [&str; 9] = [
        "comm",
        "swap",
        "reorder",
        "_self",
        "forall_eq",
        "exists_imp",
        "sub_rev",
        "dedup",
        // A membership is a deciding use (`m ∈ Finset.range 5` makes `m` a natural).
        "mem_",
    ];
    WORDS.iter().any(|w| rule.contains(w))
}

/// Is `node` a subtree of `t`, as written (same labels, same names)?
fn has_subtree(t: &crate::trees::Tree, node: &crate::trees::Tree, depth: usize) -> bool {
    depth < 400
        && (transted_lite::rules::render_exact(t) == transted_lite::rules::render_exact(node)
            || t.children.iter().any(|ch| has_subtree(ch, node, depth + 1)))
}

/// Does a statement's text hold a proof term (`by`, `show`, `from`, `calc` as words)?
pub fn has_proof_term(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .any(|word| ["by", "show", "from", "calc"].contains(&word))
}

/// A statement's text without its keyword and name, whitespace collapsed: what two statements
/// read the same must agree on.
fn statement_body(source: &str) -> String {
    let mut words = source.split_whitespace();
    words.next();
    let rest: Vec<&str> = words.collect();
    // The name, unless the statement is an `example` (whose binders start at once).
    let skip = usize::from(!source.trim_start().starts_with("example"));
    rest.iter().skip(skip).copied().collect::<Vec<_>>().join(" ")
}

/// A pair's two headers read as scopes and its two trees with their names resolved under them
/// (elaboration-lite, [`crate::elab`]; argument types from the statements' binders), the one
/// reading every offline verdict starts from.
pub struct PairNames {
    pub scopes: (crate::elab::scope::Scope, crate::elab::scope::Scope),
    pub resolved: (crate::elab::resolve::Resolved, crate::elab::resolve::Resolved),
    /// Per side, the header `variable` binders written into the statement
    /// ([`section_variables`]), or why they were not.
    pub variables: [Result<Vec<String>, String>; 2],
}

impl PairNames {
    pub fn read(pair: &Pair<'_>) -> PairNames {
        use crate::elab::resolve::resolve_tree_typed;
        use crate::elab::scope::Scope;
        use transted_lite::rules::elab::number_type_of;
        let scopes = {
            let mut scopes =
                (Scope::read(pair.reference_header), Scope::read(pair.candidate_header));
            scopes.0.enter_declaration(&pair.reference.source);
            scopes.1.enter_declaration(&pair.candidate.source);
            scopes
        };
        // The header's `variable`s the theorems take, written in as their first binders.
        let closed = [
            section_variables::close_over(pair.reference, &scopes.0, pair.reference_header),
            section_variables::close_over(pair.candidate, &scopes.1, pair.candidate_header),
        ];
        let mut closed_trees = [None, None];
        let mut variables = [Ok(Vec::new()), Ok(Vec::new())];
        for (i, c) in closed.into_iter().enumerate() {
            match c {
                section_variables::Closed::Closed { statement, binders } => {
                    closed_trees[i] = Some(statement.tree);
                    variables[i] = Ok(binders);
                }
                section_variables::Closed::Refused(why) => variables[i] = Err(why),
                section_variables::Closed::NoVariables => {}
            }
        }
        let mut scopes = scopes;
        scopes.0.variables_in_statement = closed_trees[0].is_some();
        scopes.1.variables_in_statement = closed_trees[1].is_some();
        let r = closed_trees[0].as_ref().unwrap_or(&pair.reference.tree);
        let c = closed_trees[1].as_ref().unwrap_or(&pair.candidate.tree);
        let resolved = (
            resolve_tree_typed(r, &scopes.0, &number_type_of(r)),
            resolve_tree_typed(c, &scopes.1, &number_type_of(c)),
        );
        PairNames { scopes, resolved, variables }
    }

    /// Why the names may not mean the same under the two headers
    /// ([`crate::elab::resolve::same_meaning`]); empty when they do.
    pub fn differences(&self) -> Vec<String> {
        crate::elab::resolve::same_meaning(
            &self.resolved.0,
            &self.scopes.0,
            &self.resolved.1,
            &self.scopes.1,
        )
    }

    /// Are the resolved trees the same up to renaming of bound names?
    pub fn alpha_equivalent(&self) -> bool {
        transted_lite::rules::alpha_equivalent(&self.resolved.0.tree, &self.resolved.1.tree)
    }
}

/// Whether the two statements' names mean the same under their two headers: the resolved trees
/// are still the same up to renaming, and nothing the table cannot tell, no header declaration
/// written differently and no construct elaboration-lite does not model stands between them.
fn names_mean_the_same(pair: &Pair<'_>) -> bool {
    let names = PairNames::read(pair);
    names.alpha_equivalent() && names.differences().is_empty()
}

/// A note per side with spans the parser could not read: `"{side}: N span(s) {consequence}"`.
pub fn unparsed_notes(pair: &Pair<'_>, consequence: &str) -> Vec<String> {
    [("reference", pair.reference), ("candidate", pair.candidate)]
        .into_iter()
        .filter(|(_, st)| !st.unparsed.is_empty())
        .map(|(side, st)| format!("{side}: {} span(s) {consequence}", st.unparsed.len()))
        .collect()
}

/// Measure the wall time of `f`, for `MetricReport::elapsed`.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

pub mod beq;
pub mod beq_plus;
pub mod defeq;
pub mod lean_backed;
pub mod limits;
pub mod path;
pub mod registry;
pub mod section_variables;
pub mod ted;
pub mod transted;
pub mod transted_lite;

/// The offline metric `name` at unit cost ([`registry::build`]); the Lean-backed ones are
/// refused with a clear error.
pub fn by_name(name: &str) -> Result<Box<dyn Metric>, MetricError> {
    registry::build(name, registry::CostModel::Unit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trees::parse::{parse_statement, Header};

    fn verdict(metric: &str, a: &str, b: &str, ha: &str, hb: &str) -> EquivalenceVerdict {
        let (r, c) = (
            parse_statement(a, &Header::parse(ha)).unwrap(),
            parse_statement(b, &Header::parse(hb)).unwrap(),
        );
        let pair =
            Pair { reference: &r, candidate: &c, reference_header: ha, candidate_header: hb };
        let report = by_name(metric).unwrap().judge(&pair).unwrap();
        equivalence(&report, &pair)
    }

    #[test]
    fn membership_rules_that_keep_decisions_say_so_in_their_declaration() {
        // Declared: a membership unfolded where the element's type is already known.
        for rule in ["Set.mem_inter_iff", "Set.mem_insert_iff", "Subgroup.mem_inf"] {
            assert!(!reorders_uses(rule), "{rule}");
        }
        // Not declared: an interval membership decides an untyped element's type, and the
        // commutations reorder uses.
        for rule in ["Set.mem_Icc", "Set.mem_setOf_eq", "and_comm", "binder_reorder"] {
            assert!(reorders_uses(rule), "{rule}");
        }
    }

    #[test]
    fn header_variables_are_the_binders_lean_takes() {
        let plain = "import Mathlib\n";
        let group = "import Mathlib\nvariable {G : Type*} [Group G] (hx : (1 : ℕ) = 1)\n";
        // The header's group is the statement's; the unnamed hypothesis is not taken.
        let v = verdict(
            "transted-lite",
            "theorem t {G : Type*} [Group G] (x : G) : x * x⁻¹ = 1",
            "theorem t (x : G) : x * x⁻¹ = 1",
            plain,
            group,
        );
        assert!(v.is_equivalent(), "{v:?}");
        let v = verdict(
            "transted-lite",
            "theorem t {G : Type*} [Group G] (hx : (1 : ℕ) = 1) (x : G) : x * x⁻¹ = 1",
            "theorem t (x : G) : x * x⁻¹ = 1",
            plain,
            group,
        );
        assert!(!v.is_equivalent(), "{v:?}");
        // An `example` takes what its proof uses: the headers stay a difference.
        let v = verdict(
            "transted-lite",
            "example {G : Type*} [Group G] (x : G) : x * x⁻¹ = 1",
            "example (x : G) : x * x⁻¹ = 1",
            plain,
            group,
        );
        assert!(!v.is_equivalent(), "{v:?}");
        // Variables of other types that the statements cannot be seen to use (inside `show`).
        let v = verdict(
            "ted",
            "theorem t : (show ℤ from x) = 0",
            "theorem t : (show ℤ from x) = 0",
            "import Mathlib\nvariable (x : ℕ)\n",
            "import Mathlib\nvariable (x : ℤ)\n",
        );
        assert!(!v.is_equivalent(), "{v:?}");
    }

    #[test]
    fn equivalent_only_with_evidence() {
        let h = "import Mathlib\nopen Real\n";
        // Renamed bound names: the same statement, for every offline metric.
        for m in ["ted", "path", "transted-lite"] {
            let v = verdict(
                m,
                "theorem a (x : ℝ) (h : 0 < x) : x ≠ 0",
                "theorem b (y : ℝ) (hy : 0 < y) : y ≠ 0",
                h,
                h,
            );
            assert!(v.is_equivalent(), "{m}: {v:?}");
        }
        // Swapped variables are not a renaming, whatever a free-cost TED says.
        for m in ["ted", "path", "transted-lite"] {
            let v = verdict(
                m,
                "theorem a (x y : ℝ) (h : x < y) : x < y",
                "theorem a (x y : ℝ) (h : x < y) : y < x",
                h,
                h,
            );
            assert_eq!(v, EquivalenceVerdict::NotShown, "{m}");
        }
        // The same text under headers that may read it differently: not shown by `ted`.
        let v = verdict(
            "ted",
            "theorem a (x : ℕ) : sqrt x = 2",
            "theorem a (x : ℕ) : sqrt x = 2",
            "open Real\n",
            "open Nat\n",
        );
        assert_eq!(v, EquivalenceVerdict::NotShown);
        let v = verdict(
            "ted",
            "theorem a : K = 1",
            "theorem a : K = 1",
            "def K := 1\n",
            "def K := 2\n",
        );
        assert_eq!(v, EquivalenceVerdict::NotShown);
        // A rewrite path (`>` is `<` flipped) shown by transted-lite only.
        let (a, b) = ("theorem a (n : ℕ) : n > 0", "theorem a (n : ℕ) : 0 < n");
        assert!(verdict("transted-lite", a, b, h, h).is_equivalent());
        assert_eq!(verdict("ted", a, b, h, h), EquivalenceVerdict::NotShown);
        assert_eq!(verdict("ted", a, b, h, h).as_str(), "not shown");
    }
}
