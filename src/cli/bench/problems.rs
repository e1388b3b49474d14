//! Problems and their k candidates: which candidates belong to one problem, its best
//! candidate (marked `"best": true` in `--out`), and the any-of-k figure (@k) with its lines in
//! the text summary and the `--json` document.
//!
//! Owns the grouping and the ranking of candidates only: each candidate's verdict is the
//! judge's, the dataset's grouping into problems is `dataset`'s.

use super::{pct, Judged};
use crate::metrics::Verdict;
use crate::predictions::Outcome;
use serde_json::{json, Value};
use std::io::Write;

/// Problems and their k candidates.
pub(super) struct Problems {
    count: usize,
    k_min: usize,
    /// The most candidates of one problem: above 1, predictions mark the best.
    pub(super) k_max: usize,
    /// Problems with at least one candidate shown equivalent (the @k figure).
    any_shown: usize,
    /// `best[i]`: pair i is its problem's best candidate.
    pub(super) best: Vec<bool>,
}

impl Problems {
    /// Per problem: its candidates (indices into the pairs), whether any is shown equivalent,
    /// and its best candidate (shown equivalent first, then the highest similarity, then a
    /// Lean "yes", then the first; a failed one last). `problems[i]` names pair i's problem,
    /// `outcomes[i]` is its outcome.
    pub(super) fn of(problems: &[String], outcomes: &[Judged]) -> Problems {
        let mut order: Vec<&str> = Vec::new();
        let mut members: std::collections::HashMap<&str, Vec<usize>> = Default::default();
        for (i, p) in problems.iter().enumerate() {
            members
                .entry(p.as_str())
                .or_insert_with(|| {
                    order.push(p.as_str());
                    Vec::new()
                })
                .push(i);
        }
        let rank = |i: usize| -> (bool, bool, f64) {
            let j = &outcomes[i];
            let (ok, s) = match &j.outcome {
                Outcome::Judged(Verdict::Score(s)) if s.is_finite() => (true, *s),
                Outcome::Judged(Verdict::Score(_)) => (true, f64::NEG_INFINITY),
                Outcome::Judged(Verdict::Equivalent(e)) => (true, if *e { 1.0 } else { 0.0 }),
                Outcome::Failed(_) => (false, f64::NEG_INFINITY),
            };
            (j.shown_equivalent, ok, s)
        };
        let mut best = vec![false; outcomes.len()];
        let mut any_shown = 0usize;
        let (mut k_min, mut k_max) = (usize::MAX, 0usize);
        for p in &order {
            let m = &members[p];
            k_min = k_min.min(m.len());
            k_max = k_max.max(m.len());
            if m.iter().any(|&i| outcomes[i].shown_equivalent) {
                any_shown += 1;
            }
            // The first of the highest rank: `max_by` keeps the last of equals, so go backwards.
            let top = m.iter().rev().copied().max_by(|&a, &b| {
                let (ra, rb) = (rank(a), rank(b));
                (ra.0, ra.1).cmp(&(rb.0, rb.1)).then(ra.2.total_cmp(&rb.2))
            });
            if let Some(i) = top {
                best[i] = true;
            }
        }
        Problems { count: order.len(), k_min: k_min.min(k_max), k_max, any_shown, best }
    }

    /// The text summary's section on k candidates per problem (nothing with one each): the
    /// @k figure beside the per-candidate one. `pairs` counts the candidates, `shown_equivalent`
    /// those shown equivalent.
    pub(super) fn write_text(
        &self,
        pairs: usize,
        shown_equivalent: usize,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        if self.k_max > 1 {
            let k = if self.k_min == self.k_max {
                format!("{}", self.k_max)
            } else {
                format!("{} to {}", self.k_min, self.k_max)
            };
            writeln!(out)?;
            writeln!(
                out,
                "Problems: {} with {k} candidates each ({} candidates).",
                self.count, pairs
            )?;
            writeln!(
                out,
                "  any of the k shown equivalent (@{}): {} of {} problems ({})",
                self.k_max,
                self.any_shown,
                self.count,
                pct(self.any_shown as f64 / self.count.max(1) as f64)
            )?;
            writeln!(
                out,
                "  per candidate: {} of {} shown equivalent ({})",
                shown_equivalent,
                pairs,
                pct(shown_equivalent as f64 / pairs.max(1) as f64)
            )?;
            writeln!(out, "  --out marks each problem's best candidate with \"best\": true")?;
        }
        Ok(())
    }

    /// The `--json` document's `"problems"`.
    pub(super) fn to_json(&self) -> Value {
        json!({
            "count": self.count,
            "candidates_min": self.k_min,
            "candidates_max": self.k_max,
            "any_shown_equivalent": self.any_shown,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(outcome: Outcome, shown_equivalent: bool) -> Judged {
        Judged { outcome, unparsed: 0, shown_equivalent, evidence: None }
    }

    fn score(s: f64, shown: bool) -> Judged {
        judged(Outcome::Judged(Verdict::Score(s)), shown)
    }

    #[test]
    fn the_best_candidate_is_the_first_shown_equivalent_then_the_highest_similarity() {
        let problems: Vec<String> = ["a", "a", "a", "b", "b", "c", "c"].map(String::from).into();
        let outcomes = [
            score(0.9, false),
            score(0.5, true),
            score(0.5, true),
            judged(Outcome::Failed("does not parse".into()), false),
            score(0.1, false),
            score(0.7, false),
            score(0.7, false),
        ];
        let p = Problems::of(&problems, &outcomes);
        // a: shown equivalent beats a higher similarity, and of two equals the first wins;
        // b: a failed candidate is last; c: a tie goes to the first.
        assert_eq!(p.best, [false, true, false, false, true, true, false]);
        assert_eq!((p.count, p.k_min, p.k_max, p.any_shown), (3, 2, 3, 1));
        let mut text = Vec::new();
        p.write_text(7, 2, &mut text).expect("write to memory");
        let text = String::from_utf8(text).expect("UTF-8");
        assert!(text.contains("Problems: 3 with 2 to 3 candidates each (7 candidates)."), "{text}");
        assert!(text.contains("(@3): 1 of 3 problems (33.33%)"), "{text}");
    }

    #[test]
    fn one_candidate_each_writes_no_k_section() {
        let problems: Vec<String> = ["a", "b"].map(String::from).into();
        let p = Problems::of(&problems, &[score(0.2, false), score(1.0, true)]);
        assert_eq!(p.best, [true, true]);
        let mut text = Vec::new();
        p.write_text(2, 1, &mut text).expect("write to memory");
        assert!(text.is_empty());
    }
}
