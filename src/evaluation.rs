//! Judgement quality of a metric on labelled pairs: confusion counts, precision, recall,
//! accuracy, Cohen's kappa, the best threshold and the fixed-threshold sweep.
//!
//! Owns the arithmetic only, kept operation for operation as in `fixtures/bench/score.py` (itself
//! GTED's `src/evaluator.py`: `Evaluator.calculate` / `find_best_element`), so that `bench --json`
//! and `score.py --json` agree to the last digit on the same predictions:
//! - a score predicts "equivalent" iff `score >= threshold`;
//! - precision `TP/(TP+FP)` (0 without predicted positives), recall `TP/(TP+FN)` (0 without
//!   positives), accuracy `(TP+TN)/N`, `pe = ((TP+FN)(TP+FP) + (TN+FP)(TN+FN)) / N²`,
//!   kappa `(acc - pe)/(1 - pe)` (0 when `pe == 1`). Every integer here is far below 2⁵³, so
//!   `as f64` then one IEEE division equals Python's correctly rounded `int / int`;
//! - best threshold over the grid `lo + i*step` (GTED's `i*0.001`, i = 0..=1000): highest kappa,
//!   then accuracy, then precision, then recall, strictly; full ties keep the lower threshold;
//! - the exhaustive best uses every distinct score (and +∞) as a cut, with the same order;
//! - the sweep reports the fixed thresholds 0.50, 0.55, …, 0.95.
//!
//! Reading datasets and predictions is `dataset`'s job; printing is the CLI's.

use serde::Serialize;

/// The fixed thresholds of score.py's robustness sweep (`round(0.50 + 0.05*k, 2)`, k = 0..10:
/// Python's `round` returns the double nearest the two-decimal value, i.e. these literals).
pub const FIXED_THRESHOLDS: [f64; 10] = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95];

/// GTED's threshold grid: `0.0 ..= 1.0` by `0.001`.
pub const GRID_MIN: f64 = 0.0;
/// Upper end of GTED's threshold grid.
pub const GRID_MAX: f64 = 1.0;
/// Step of GTED's threshold grid.
pub const GRID_STEP: f64 = 0.001;

/// GTED's published figures (best threshold, free-cost TED over Lean's elaborated trees;
/// arXiv:2507.07399, as in `fixtures/bench/reference_figures.json`), for a dataset whose file
/// name says it is one of GTED's two sets: (name, accuracy, kappa).
pub fn published_gted(dataset_file_name: &str) -> Option<(&'static str, f64, f64)> {
    let name = dataset_file_name.to_lowercase();
    if name.contains("minif2f") {
        Some(("miniF2F", 0.7073, 0.438))
    } else if name.contains("proofnet") {
        Some(("ProofNet", 0.6989, 0.402))
    } else {
        None
    }
}

/// Confusion counts and the figures derived from them (score.py's `calculate`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Stats {
    pub true_positive: u64,
    pub true_negative: u64,
    pub false_positive: u64,
    pub false_negative: u64,
    pub total: u64,
    pub precision: f64,
    pub recall: f64,
    pub accuracy: f64,
    pub kappa: f64,
}

/// Figures at one threshold.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AtThreshold {
    pub threshold: f64,
    #[serde(flatten)]
    pub stats: Stats,
}

/// Everything `bench` reports about a continuous metric on labelled pairs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evaluation {
    /// Best threshold on GTED's grid (the headline figure).
    pub best: AtThreshold,
    /// Best cut over all distinct scores (`None` threshold stands for +∞: nothing positive).
    pub best_exhaustive: (Option<f64>, Stats),
    /// The fixed thresholds 0.50..0.95.
    pub sweep: Vec<AtThreshold>,
    /// Lowest and highest score seen.
    pub score_min: f64,
    pub score_max: f64,
}

/// score.py's `calculate(tp, tn, fp, fn)`.
pub fn calculate(tp: u64, tn: u64, fp: u64, fn_: u64) -> Stats {
    let total = tp + tn + fp + fn_;
    let pd = tp + fp;
    let precision = if pd != 0 { tp as f64 / pd as f64 } else { 0.0 };
    let rd = tp + fn_;
    let recall = if rd != 0 { tp as f64 / rd as f64 } else { 0.0 };
    let accuracy = if total != 0 { (tp + tn) as f64 / total as f64 } else { 0.0 };
    let pe = if total == 0 {
        0.0
    } else {
        ((tp + fn_) * (tp + fp) + (tn + fp) * (tn + fn_)) as f64 / (total * total) as f64
    };
    let kd = 1.0 - pe;
    let kappa = if kd != 0.0 { (accuracy - pe) / kd } else { 0.0 };
    Stats {
        true_positive: tp,
        true_negative: tn,
        false_positive: fp,
        false_negative: fn_,
        total,
        precision,
        recall,
        accuracy,
        kappa,
    }
}

/// score.py's `confusion`: `(label, predicted_equivalent)` pairs → figures.
pub fn confusion(pairs: impl IntoIterator<Item = (bool, bool)>) -> Stats {
    let (mut tp, mut tn, mut fp, mut fn_) = (0, 0, 0, 0);
    for (label, predicted) in pairs {
        match (label, predicted) {
            (true, true) => tp += 1,
            (false, false) => tn += 1,
            (false, true) => fp += 1,
            (true, false) => fn_ += 1,
        }
    }
    calculate(tp, tn, fp, fn_)
}

/// Figures when `score >= threshold` predicts "equivalent". `scored` holds `(label, score)`.
pub fn at_threshold(scored: &[(bool, f64)], threshold: f64) -> Stats {
    confusion(scored.iter().map(|&(label, s)| (label, s >= threshold)))
}

/// score.py's `_better`: does `a` strictly beat `b` on kappa, accuracy, precision, recall?
fn better(a: &Stats, b: &Stats) -> bool {
    for (x, y) in [
        (a.kappa, b.kappa),
        (a.accuracy, b.accuracy),
        (a.precision, b.precision),
        (a.recall, b.recall),
    ] {
        if x != y {
            return x > y;
        }
    }
    false
}

/// score.py's `best_over`: the first threshold whose figures no later one strictly beats.
/// `None` when `thresholds` is empty.
pub fn best_over(
    scored: &[(bool, f64)],
    thresholds: impl IntoIterator<Item = f64>,
) -> Option<AtThreshold> {
    let mut best: Option<AtThreshold> = None;
    for t in thresholds {
        let stats = at_threshold(scored, t);
        if best.as_ref().is_none_or(|b| better(&stats, &b.stats)) {
            best = Some(AtThreshold { threshold: t, stats });
        }
    }
    best
}

/// score.py's `grid(lo, hi, step)`: `lo + i*step` for `i = 0..=round((hi-lo)/step)`.
pub fn grid(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    // Python's round() is round-half-even; (hi-lo)/step is never exactly .5 away for sane grids,
    // and for GTED's grid it is 1000 (up to rounding error) either way.
    let n = ((hi - lo) / step).round_ties_even();
    if !(n.is_finite() && n >= 0.0) {
        return Vec::new();
    }
    (0..=n as u64).map(|i| lo + i as f64 * step).collect()
}

/// Evaluate continuous scores against labels as score.py does with its defaults (GTED's grid,
/// pairs without a score skipped). `None` when `scored` is empty or holds a non-finite score.
pub fn evaluate(scored: &[(bool, f64)]) -> Option<Evaluation> {
    if scored.is_empty() || scored.iter().any(|(_, s)| !s.is_finite()) {
        return None;
    }
    let best = best_over(scored, grid(GRID_MIN, GRID_MAX, GRID_STEP))?;
    let mut cuts: Vec<f64> = scored.iter().map(|&(_, s)| s).collect();
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    cuts.push(f64::INFINITY);
    let exhaustive = best_over(scored, cuts.iter().copied())?;
    let best_exhaustive =
        (exhaustive.threshold.is_finite().then_some(exhaustive.threshold), exhaustive.stats);
    let sweep = FIXED_THRESHOLDS
        .iter()
        .map(|&t| AtThreshold { threshold: t, stats: at_threshold(scored, t) })
        .collect();
    let score_min = cuts[0];
    let score_max = cuts[cuts.len() - 2];
    Some(Evaluation { best, best_exhaustive, sweep, score_min, score_max })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn calculate_handles_empty_and_degenerate_cases() {
        let s = calculate(0, 0, 0, 0);
        assert_eq!((s.precision, s.recall, s.accuracy, s.kappa), (0.0, 0.0, 0.0, 0.0));
        // All predicted positive, all positive: pe == 1 → kappa 0 by definition.
        let s = calculate(5, 0, 0, 0);
        assert_eq!((s.accuracy, s.kappa, s.precision, s.recall), (1.0, 0.0, 1.0, 1.0));
    }

    #[test]
    fn calculate_matches_hand_computed_kappa() {
        // tp 2, tn 1, fp 1, fn 0: acc 3/4, pe = (2*3 + 2*1)/16 = 1/2, kappa = 0.25/0.5 = 0.5.
        let s = calculate(2, 1, 1, 0);
        assert_eq!(s.accuracy, 0.75);
        assert_eq!(s.kappa, 0.5);
        assert_eq!(s.precision, 2.0 / 3.0);
        assert_eq!(s.recall, 1.0);
    }

    #[test]
    fn ties_keep_the_lowest_threshold() {
        // Every threshold in (0.2, 0.8] separates the pairs perfectly: the first one, 0.201, wins.
        let scored = [(false, 0.2), (true, 0.8)];
        let best = best_over(&scored, grid(0.0, 1.0, 0.001)).unwrap();
        assert_eq!(best.threshold, 201.0 * 0.001);
        assert_eq!(best.stats.kappa, 1.0);
    }

    #[test]
    fn grid_is_gteds_i_times_step() {
        let g = grid(GRID_MIN, GRID_MAX, GRID_STEP);
        assert_eq!(g.len(), 1001);
        assert_eq!(g[754], 754.0 * 0.001);
        assert_eq!(g[1000], 1.0);
    }

    #[test]
    fn non_finite_or_empty_scores_are_not_evaluated() {
        assert!(evaluate(&[]).is_none());
        assert!(evaluate(&[(true, f64::NAN)]).is_none());
    }

    /// Reproduce `reference_figures.json` for the `gted_score` field (GTED's published scores)
    /// through this module, comparing every float exactly.
    #[test]
    fn reproduces_reference_figures_for_gted_score() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/bench");
        let figures: Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{dir}/reference_figures.json")).unwrap(),
        )
        .unwrap();
        for name in ["gted-minif2f", "gted-proofnet"] {
            let text = std::fs::read_to_string(format!("{dir}/{name}.jsonl")).unwrap();
            let scored: Vec<(bool, f64)> = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .filter_map(|l| {
                    let row: Value = serde_json::from_str(l).unwrap();
                    let score = row.get("gted_score")?.as_f64()?;
                    Some((row["label"].as_bool().unwrap(), score))
                })
                .collect();
            let want = &figures["datasets"][name]["gted_score"];
            let got = evaluate(&scored).unwrap();
            let check = |stats: &Stats, want: &Value| {
                assert_eq!(stats.true_positive, want["true_positive"].as_u64().unwrap());
                assert_eq!(stats.true_negative, want["true_negative"].as_u64().unwrap());
                assert_eq!(stats.false_positive, want["false_positive"].as_u64().unwrap());
                assert_eq!(stats.false_negative, want["false_negative"].as_u64().unwrap());
                assert_eq!(stats.total, want["total"].as_u64().unwrap());
                for (ours, key) in [
                    (stats.precision, "precision"),
                    (stats.recall, "recall"),
                    (stats.accuracy, "accuracy"),
                    (stats.kappa, "kappa"),
                ] {
                    assert_eq!(ours, want[key].as_f64().unwrap(), "{name} {key}");
                }
            };
            assert_eq!(got.best.threshold, want["threshold"].as_f64().unwrap());
            check(&got.best.stats, want);
            let ex = &want["best_exhaustive"];
            assert_eq!(got.best_exhaustive.0, ex["threshold"].as_f64());
            check(&got.best_exhaustive.1, ex);
            let fixed = want["fixed_thresholds"].as_array().unwrap();
            assert_eq!(got.sweep.len(), fixed.len());
            for (ours, theirs) in got.sweep.iter().zip(fixed) {
                assert_eq!(ours.threshold, theirs["threshold"].as_f64().unwrap());
                for (v, key) in [
                    (ours.stats.accuracy, "accuracy"),
                    (ours.stats.kappa, "kappa"),
                    (ours.stats.precision, "precision"),
                    (ours.stats.recall, "recall"),
                ] {
                    assert_eq!(
                        v,
                        theirs[key].as_f64().unwrap(),
                        "{name} t={} {key}",
                        ours.threshold
                    );
                }
            }
        }
    }
}
