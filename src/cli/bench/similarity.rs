//! The distribution of a run's similarities: count, range, mean, quantiles and a histogram of
//! ten bins (one more below 0), as the `--json` document's `"similarity"` and as the text
//! summary's section for unlabelled runs.
//!
//! Owns the distribution only: which similarities go in is the summary's (`evaluate`).

use serde_json::{json, Value};
use std::io::Write;

/// The similarity quantiles reported (as fractions) with their names.
const QUANTILES: &[(&str, f64)] =
    &[("p10", 0.1), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p90", 0.9)];

/// Width of the text histogram's longest bar.
const BAR_WIDTH: usize = 40;

/// The distribution of the similarities.
pub(super) struct Similarity {
    count: usize,
    min: f64,
    max: f64,
    mean: f64,
    quantiles: Vec<(&'static str, f64)>,
    /// `(from, to, count)`: `[from, to)`, the last bin `[0.9, 1]`; below 0 in one bin first.
    histogram: Vec<(f64, f64, usize)>,
}

impl Similarity {
    pub(super) fn of(mut values: Vec<f64>) -> Option<Similarity> {
        if values.is_empty() {
            return None;
        }
        values.sort_by(f64::total_cmp);
        let n = values.len();
        // Linear interpolation between closest ranks (numpy's default, "type 7").
        let quantile = |q: f64| {
            let h = (n - 1) as f64 * q;
            let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
            values[lo] + (h - lo as f64) * (values[hi] - values[lo])
        };
        let mut histogram = Vec::new();
        let below = values.iter().filter(|v| **v < 0.0).count();
        if below > 0 {
            histogram.push((values[0], 0.0, below));
        }
        for b in 0..10 {
            let (from, to) = (b as f64 / 10.0, (b + 1) as f64 / 10.0);
            let count = values
                .iter()
                .filter(|v| **v >= from && (**v < to || (b == 9 && **v <= to)))
                .count();
            histogram.push((from, to, count));
        }
        Some(Similarity {
            count: n,
            min: values[0],
            max: values[n - 1],
            mean: values.iter().sum::<f64>() / n as f64,
            quantiles: QUANTILES.iter().map(|&(name, q)| (name, quantile(q))).collect(),
            histogram,
        })
    }

    pub(super) fn to_json(&self) -> Value {
        let mut v =
            json!({"count": self.count, "min": self.min, "max": self.max, "mean": self.mean});
        for (name, q) in &self.quantiles {
            v[*name] = json!(q);
        }
        v["histogram"] = self
            .histogram
            .iter()
            .map(|(from, to, count)| json!({"from": from, "to": to, "count": count}))
            .collect();
        v
    }

    /// The text summary's similarity section: the figures and the histogram as bars.
    pub(super) fn write_text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out)?;
        writeln!(
            out,
            "Similarity (1 - distance / size of the larger tree; 1 = identical) of the {} judged pairs:",
            self.count
        )?;
        let quantiles: Vec<String> =
            self.quantiles.iter().map(|(name, q)| format!("{name} {q:.3}")).collect();
        writeln!(
            out,
            "  min {:.3}  {}  max {:.3}  mean {:.3}",
            self.min,
            quantiles.join("  "),
            self.max,
            self.mean
        )?;
        let most = self.histogram.iter().map(|h| h.2).max().unwrap_or(0).max(1);
        for (i, (from, to, count)) in self.histogram.iter().enumerate() {
            let label = if *to <= 0.0 && *from < 0.0 {
                "     < 0   ".to_string()
            } else if i + 1 == self.histogram.len() {
                format!("[{from:.1}, {to:.1}]")
            } else {
                format!("[{from:.1}, {to:.1})")
            };
            let bar = "#".repeat((count * BAR_WIDTH).div_ceil(most));
            writeln!(out, "  {label:<11} {count:>6}  {bar}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn quantiles_interpolate_between_ranks_and_the_histogram_keeps_a_bin_below_zero() {
        let sim = Similarity::of(vec![0.5, -0.2, 1.0, 0.95, 0.0]).expect("five values");
        assert_eq!(sim.count, 5);
        assert!(close(sim.min, -0.2) && close(sim.max, 1.0) && close(sim.mean, 0.45));
        let q: Vec<(&str, f64)> = sim.quantiles.clone();
        let expected =
            [("p10", -0.12), ("p25", 0.0), ("median", 0.5), ("p75", 0.95), ("p90", 0.98)];
        assert_eq!(q.len(), expected.len());
        for ((name, value), (want_name, want)) in q.iter().zip(expected) {
            assert_eq!(*name, want_name);
            assert!(close(*value, want), "{name}: {value} != {want}");
        }
        // One bin below 0 first, then ten of 0.1, the last one closed at 1.
        assert_eq!(sim.histogram.len(), 11);
        assert_eq!(sim.histogram[0], (-0.2, 0.0, 1));
        let counts: Vec<usize> = sim.histogram[1..].iter().map(|h| h.2).collect();
        assert_eq!(counts, [1, 0, 0, 0, 0, 1, 0, 0, 0, 2]);
    }

    #[test]
    fn no_similarities_no_distribution() {
        assert!(Similarity::of(Vec::new()).is_none());
    }
}
