//! Metric `ted`. (Being written: placeholder so the crate compiles while it is built.)

use super::{Metric, MetricError, MetricReport, Pair};

#[derive(Debug, Default)]
pub struct Ted;

impl Metric for Ted {
    fn name(&self) -> &'static str {
        "ted"
    }
    fn judge(&self, _pair: &Pair<'_>) -> Result<MetricReport, MetricError> {
        Err(MetricError::Failed("not built yet".into()))
    }
}
