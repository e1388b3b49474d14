//! The metric registry: every metric the contract names, once, with what a caller must know
//! before running it (whether it needs Lean, which cost models it has, its default threshold)
//! and, for the offline ones, how to build it.
//!
//! Owns names and facts only. The Lean-backed metrics are built by the Lean layer (the batch
//! runner, the editor's Lean jobs), which reads [`MetricSpec::needs_lean`] from here.

use super::{path, ted, transted_lite, Metric, MetricError};

/// How a tree edit is charged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostModel {
    /// Every insert, delete and relabel costs 1.
    Unit,
    /// GTED's costs: renaming between two bound names (variables, hypotheses) costs 0.
    FreeRenaming,
}

/// One metric of the contract.
pub struct MetricSpec {
    /// The contract name (`--metric`, `[metrics] lens`, MCP's `metrics`).
    pub name: &'static str,
    /// It runs Lean: refused without a Lean server.
    pub needs_lean: bool,
    /// Its similarity threshold fixed in advance, per cost model `(unit, free renaming)`, for a
    /// score metric (so that `bench` can report a figure that was not chosen on the data it
    /// scores); `None` for a decision metric.
    ///
    /// How they were chosen, once: `lean-assess bench` on the two bundled GTED sets pooled into
    /// one file (`gted-minif2f.jsonl` then `gted-proofnet.jsonl`, 298 pairs), and each metric's
    /// best threshold on GTED's grid by GTED's rule (highest kappa, then accuracy, ...), taken as
    /// is. They are not re-tuned per dataset; pooling keeps either set from choosing alone. (On
    /// these two sets the figure is still partly in-sample; on any other dataset it is not.)
    pub default_threshold: Option<(f64, f64)>,
    /// The offline metric under a cost model; `None` for the Lean-backed ones.
    pub build: Option<fn(CostModel) -> Box<dyn Metric>>,
}

#[rustfmt::skip]
pub const METRICS: &[MetricSpec] = &[
    MetricSpec { name: "ted",           needs_lean: false, default_threshold: Some((0.465, 0.501)), build: Some(build_ted) },
    MetricSpec { name: "path",          needs_lean: false, default_threshold: Some((0.737, 0.737)), build: Some(|_| Box::new(path::PathSim::default())) },
    MetricSpec { name: "transted-lite", needs_lean: false, default_threshold: Some((0.807, 0.807)), build: Some(|_| Box::new(transted_lite::TransTedLite::default())) },
    MetricSpec { name: "transted",      needs_lean: true,  default_threshold: None, build: None },
    MetricSpec { name: "beq",           needs_lean: true,  default_threshold: None, build: None },
    MetricSpec { name: "beq+",          needs_lean: true,  default_threshold: None, build: None },
    MetricSpec { name: "beq+grind",     needs_lean: true,  default_threshold: None, build: None },
    MetricSpec { name: "defeq",         needs_lean: true,  default_threshold: None, build: None },
];

fn build_ted(cost: CostModel) -> Box<dyn Metric> {
    Box::new(match cost {
        CostModel::Unit => ted::Ted::default(),
        CostModel::FreeRenaming => ted::Ted::free_cost(),
    })
}

/// The metric named `name`, or [`MetricError::Unknown`].
pub fn spec(name: &str) -> Result<&'static MetricSpec, MetricError> {
    METRICS.iter().find(|m| m.name == name).ok_or_else(|| MetricError::Unknown(name.to_string()))
}

/// Every contract name, in the registry's order.
pub fn names() -> impl Iterator<Item = &'static str> {
    METRICS.iter().map(|m| m.name)
}

/// The names of the metrics that need a Lean server.
pub fn lean_names() -> impl Iterator<Item = &'static str> {
    METRICS.iter().filter(|m| m.needs_lean).map(|m| m.name)
}

/// Does `name` name a metric that needs Lean?
pub fn needs_lean(name: &str) -> bool {
    spec(name).is_ok_and(|m| m.needs_lean)
}

/// The offline metric `name` under `cost`; a Lean-backed one is refused with
/// [`MetricError::NeedsLean`], an unknown name with [`MetricError::Unknown`].
pub fn build(name: &str, cost: CostModel) -> Result<Box<dyn Metric>, MetricError> {
    let spec = spec(name)?;
    match spec.build {
        Some(build) => Ok(build(cost)),
        None => Err(MetricError::NeedsLean(spec.name)),
    }
}

/// The default threshold of `name` under `cost`, for a score metric.
pub fn default_threshold(name: &str, cost: CostModel) -> Option<f64> {
    let (unit, free) = spec(name).ok()?.default_threshold?;
    Some(match cost {
        CostModel::Unit => unit,
        CostModel::FreeRenaming => free,
    })
}

/// Reject unknown names up front: a typo is a usage error, not a failed pair.
pub fn check_names<S: AsRef<str>>(names: &[S]) -> Result<(), MetricError> {
    names.iter().try_for_each(|n| spec(n.as_ref()).map(|_| ()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_offline_metric_builds_under_its_own_name_and_every_lean_one_is_refused() {
        for spec in METRICS {
            match build(spec.name, CostModel::Unit) {
                Ok(m) => {
                    assert!(!spec.needs_lean);
                    assert_eq!(m.name(), spec.name);
                }
                Err(MetricError::NeedsLean(n)) => {
                    assert!(spec.needs_lean);
                    assert_eq!(n, spec.name);
                }
                Err(e) => panic!("{}: {e}", spec.name),
            }
        }
        assert!(matches!(build("tedd", CostModel::Unit), Err(MetricError::Unknown(_))));
        assert_eq!(build("ted", CostModel::FreeRenaming).map(|m| m.name()).ok(), Some("ted"));
    }

    #[test]
    fn thresholds_exist_for_the_score_metrics_only() {
        assert_eq!(default_threshold("ted", CostModel::Unit), Some(0.465));
        assert_eq!(default_threshold("ted", CostModel::FreeRenaming), Some(0.501));
        assert_eq!(default_threshold("path", CostModel::FreeRenaming), Some(0.737));
        assert_eq!(default_threshold("transted-lite", CostModel::Unit), Some(0.807));
        assert_eq!(default_threshold("beq", CostModel::Unit), None);
        assert_eq!(default_threshold("nope", CostModel::Unit), None);
    }

    #[test]
    fn the_unknown_metric_message_lists_every_name_in_order() {
        assert_eq!(
            MetricError::Unknown("x".into()).to_string(),
            "unknown metric 'x' (known: ted, path, transted-lite, transted, beq, beq+, beq+grind, defeq)"
        );
    }
}
