//! The Lean-backed lens metrics (`transted`, `defeq`, `beq`) in the editor: one [`Oracle`] over
//! the proxy's own [`LeanClient`], its scratch documents hidden from the editor
//! (`Oracle::hiding_through`), shared by every document's job.
//!
//! Owns: creating the oracles lazily (scratch documents under `<workspace>/.scratch/lens/`, BEq's
//! checker under `.scratch/beq/`), running one judgement within the configured time limit
//! (`transted_timeout_ms` for `transted` and `defeq`, `beq_timeout_ms` for `beq`), BEq's
//! `[llm]` sampler when configured, and the witnesses of `transted` judgements (the standalone
//! proof text "Show proof path" opens), kept by the result cache's key.
//!
//! Leaves to others: when to judge, the lens states and the result cache (`super` and
//! `super::jobs`), the Lean messages (`crate::lean::oracle`). The judgement runs inside the
//! document's job future, so aborting the job on an edit drops it (cancelled on edit); the
//! oracle's next batch sends the whole scratch text again, so nothing half-sent survives.

use crate::lean::beq_checker::OracleProofChecker;
use crate::lean::oracle::{Oracle, OracleConfig};
use crate::lean::LeanClient;
use crate::llm::{LlmClient, LlmSettings};
use crate::metrics::beq::{
    Beq, BeqSettings, BeqSide, BoxFuture, CheckError, CheckOutcome, CheckRequest, DirectionOutcome,
    ProofChecker, ProofSampler, Suggestion,
};
use crate::metrics::defeq::DefEq;
use crate::metrics::lean_backed::LeanMetric;
use crate::metrics::transted::{TransTed, TransTedConfig};
use crate::metrics::{MetricReport, Pair};
use crate::references::{path_to_uri, Config};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Beyond the metric's own limit, how long the lens waits before it says "timed out".
pub const GRACE: Duration = Duration::from_secs(5);
/// Witnesses kept at most (each a few hundred bytes).
const WITNESS_CAPACITY: usize = 256;

/// How one Lean judgement ended.
pub enum LensOutcome {
    Done(MetricReport),
    Failed(String),
    TimedOut(Duration),
}

/// BEq's checker shared between judgements (the checker owns its oracle).
struct SharedChecker(Arc<OracleProofChecker<LeanClient>>);

impl ProofChecker for SharedChecker {
    fn check<'a>(
        &'a self,
        req: CheckRequest<'a>,
    ) -> BoxFuture<'a, Result<CheckOutcome, CheckError>> {
        self.0.check(req)
    }
    fn suggest<'a>(
        &'a self,
        req: CheckRequest<'a>,
    ) -> BoxFuture<'a, Result<Suggestion, CheckError>> {
        self.0.suggest(req)
    }
}

/// The oracles of the lens and the witnesses found.
pub struct LeanLens {
    lean: Arc<LeanClient>,
    oracle: tokio::sync::Mutex<Option<Oracle<LeanClient>>>,
    beq: Mutex<Option<Arc<OracleProofChecker<LeanClient>>>>,
    witnesses: Mutex<(HashMap<u64, String>, Vec<u64>)>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl LeanLens {
    pub fn new(lean: Arc<LeanClient>) -> LeanLens {
        LeanLens {
            lean,
            oracle: tokio::sync::Mutex::new(None),
            beq: Mutex::new(None),
            witnesses: Mutex::new((HashMap::new(), Vec::new())),
        }
    }

    fn new_oracle(&self, root: Option<&Path>, sub: &str) -> Oracle<LeanClient> {
        let mut config = OracleConfig::default();
        if let Some(root) = root {
            config.scratch_dir_uri = path_to_uri(&root.join(".scratch").join(sub));
        }
        Oracle::new(self.lean.clone(), config).hiding_through(self.lean.clone())
    }

    /// The `transted` witness stored under a result-cache key.
    pub fn witness(&self, key: u64) -> Option<String> {
        lock(&self.witnesses).0.get(&key).cloned()
    }

    fn keep_witness(&self, key: u64, proof: String) {
        let mut w = lock(&self.witnesses);
        if w.0.insert(key, proof).is_none() {
            w.1.push(key);
        }
        while w.1.len() > WITNESS_CAPACITY {
            let old = w.1.remove(0);
            w.0.remove(&old);
        }
    }

    /// Judge `pair` with a Lean-backed metric; `key` is the result cache's key (for the
    /// witness). `root`: the workspace root (scratch documents go under it).
    pub async fn judge(
        &self,
        metric: &str,
        pair: &Pair<'_>,
        config: &Config,
        root: Option<&Path>,
        key: u64,
    ) -> LensOutcome {
        let limit = if metric == "beq" {
            config.beq_timeout
        } else {
            config.transted_timeout
        };
        let started = std::time::Instant::now();
        let result = match metric {
            "transted" | "defeq" => {
                // Waiting for another document's judgement is not this one's time.
                tracing::debug!(metric, "lens: waiting for the oracle");
                let mut guard = self.oracle.lock().await;
                tracing::debug!(metric, "lens: judging");
                let oracle = guard.get_or_insert_with(|| self.new_oracle(root, "lens"));
                let started = std::time::Instant::now();
                let work = async {
                    if metric == "transted" {
                        let t = TransTed {
                            config: TransTedConfig {
                                time_limit: limit,
                                ..TransTedConfig::default()
                            },
                        };
                        t.judge(oracle, pair).await
                    } else {
                        DefEq { time_limit: limit }.judge(oracle, pair).await
                    }
                };
                match tokio::time::timeout(limit + GRACE, work).await {
                    Ok(Ok(j)) => {
                        if let Some(proof) = j.proof {
                            self.keep_witness(key, proof);
                        }
                        Ok(j.report)
                    }
                    Ok(Err(e)) => Err(format!("{metric}: {e}")),
                    Err(_) => return LensOutcome::TimedOut(started.elapsed()),
                }
            }
            "beq" => {
                let checker = lock(&self.beq)
                    .get_or_insert_with(|| {
                        Arc::new(OracleProofChecker::new(self.new_oracle(root, "beq"), limit))
                    })
                    .clone();
                let beq = Beq {
                    checker: SharedChecker(checker),
                    sampler: sampler(config),
                    settings: BeqSettings {
                        deadline: limit,
                        ..BeqSettings::default()
                    },
                };
                let work = beq.judge(
                    BeqSide {
                        header: pair.reference_header,
                        declaration: &pair.reference.source,
                    },
                    BeqSide {
                        header: pair.candidate_header,
                        declaration: &pair.candidate.source,
                    },
                );
                match tokio::time::timeout(limit + GRACE, work).await {
                    // A direction cut by the deadline before any proof is not a "not
                    // equivalent": the lens says "timed out" (and nothing is cached).
                    Ok(report)
                        if !report.equivalent()
                            && report
                                .directions
                                .iter()
                                .any(|d| matches!(d.outcome, DirectionOutcome::TimedOut)) =>
                    {
                        return LensOutcome::TimedOut(report.elapsed)
                    }
                    Ok(report) => Ok(report
                        .to_metric_report(pair.reference.tree.size(), pair.candidate.tree.size())),
                    Err(_) => return LensOutcome::TimedOut(started.elapsed()),
                }
            }
            other => Err(format!("'{other}' is not a Lean-backed metric")),
        };
        match result {
            Ok(r) => LensOutcome::Done(r),
            Err(e) => LensOutcome::Failed(e),
        }
    }
}

/// BEq's LLM sampler from `[llm]`, when configured and its key is present.
fn sampler(config: &Config) -> Option<Box<dyn ProofSampler>> {
    let llm = config.llm.as_ref()?;
    match LlmClient::from_env(LlmSettings::from_config(llm)) {
        Ok(client) => Some(Box::new(Arc::new(client))),
        Err(e) => {
            tracing::warn!(%e, "[llm] configured but unusable; BEq runs its fixed attempts only");
            None
        }
    }
}
