//! Metric `transted_lite`. (Being written: placeholder so the crate compiles while it is built.)

use super::{Metric, MetricError, MetricReport, Pair};

#[derive(Debug, Default)]
pub struct TransTedLite;

impl Metric for TransTedLite {
    fn name(&self) -> &'static str {
        "transted-lite"
    }
    fn judge(&self, _pair: &Pair<'_>) -> Result<MetricReport, MetricError> {
        Err(MetricError::Failed("not built yet".into()))
    }
}
