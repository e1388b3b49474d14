//! The Lean-backed lens metrics (`transted`, `defeq`, `beq`, `beq+`) in the editor: one [`Oracle`] over
//! the proxy's own [`LeanClient`] — through the features' [`SessionTracker`], so the oracles'
//! RPC sessions get the features' `$/lean/rpc/keepAlive` ticks — its scratch documents hidden
//! from the editor (`Oracle::hiding_through`), shared by every document's job.
//!
//! Owns: creating the oracles lazily (scratch documents under `<workspace>/.scratch/lens/`, BEq's
//! checker under `.scratch/beq/`), running one judgement within the configured time limit
//! (`transted_timeout_ms` for `transted` and `defeq`, `beq_timeout_ms` for `beq`), BEq's
//! `[llm]` sampler when configured (with its `samples` as K, as in batch), and the witnesses of
//! `transted` judgements (the standalone proof text "Show proof path" opens), kept by the result
//! cache's key.
//!
//! Leaves to others: when to judge, the lens states and the result cache (`super` and
//! `super::jobs`), the keep-alive ticker and its stop on shutdown (`super`), the Lean messages
//! (`crate::lean::oracle`). The judgement runs inside the
//! document's job future, so aborting the job on an edit drops it (cancelled on edit); the
//! oracle's next batch sends the whole scratch text again, so nothing half-sent survives.

use crate::config::Config;
use crate::lean::beq_checker::OracleProofChecker;
use crate::lean::goals::SessionTracker;
use crate::lean::oracle::{Oracle, OracleConfig, OracleError};
use crate::lean::scratch;
use crate::lean::LeanClient;
use crate::llm::{self, LlmClient, LlmPermission, TrustStore};
use crate::metrics::beq::{
    Beq, BeqSettings, BeqSide, BoxFuture, CheckError, CheckOutcome, CheckRequest, DirectionOutcome,
    ProofChecker, ProofSampler, Suggestion,
};
use crate::metrics::beq_plus;
use crate::metrics::defeq::DefEq;
use crate::metrics::lean_backed::LeanMetric;
use crate::metrics::transted::{TransTed, TransTedConfig};
use crate::metrics::{MetricReport, Pair};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Beyond the metric's own limit, how long the lens waits before it says "timed out".
pub const GRACE: Duration = Duration::from_secs(5);
/// Witnesses kept at most (each a few hundred bytes).
const WITNESS_CAPACITY: usize = 256;

/// The client the lens oracles talk through: the features' one, which notes every RPC session
/// for the keep-alive ticker.
pub type Rpc = SessionTracker<LeanClient>;

/// How one Lean judgement ended.
pub enum LensOutcome {
    Done(MetricReport),
    Failed(String),
    TimedOut(Duration),
}

/// BEq's checker shared between judgements (the checker owns its oracle).
struct SharedChecker(Arc<OracleProofChecker<Rpc>>);

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
    rpc: Arc<Rpc>,
    /// The same client unwrapped: scratch URIs are hidden through it.
    lean: Arc<LeanClient>,
    oracle: tokio::sync::Mutex<Option<Oracle<Rpc>>>,
    beq: Mutex<Option<Arc<OracleProofChecker<Rpc>>>>,
    witnesses: Mutex<(HashMap<u64, String>, Vec<u64>)>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl LeanLens {
    /// `rpc` wraps `lean` (the proxy's client).
    pub fn new(lean: Arc<LeanClient>, rpc: Arc<Rpc>) -> LeanLens {
        LeanLens {
            rpc,
            lean,
            oracle: tokio::sync::Mutex::new(None),
            beq: Mutex::new(None),
            witnesses: Mutex::new((HashMap::new(), Vec::new())),
        }
    }

    /// An oracle whose scratch documents are real files in the workspace's hidden scratch
    /// directory (`crate::lean::scratch`; removed when the oracle goes, stale ones of dead
    /// proxies removed now); without a workspace root, virtual URIs under `sub`.
    fn new_oracle(&self, root: Option<&Path>, sub: &str) -> Oracle<Rpc> {
        let mut config = OracleConfig::default();
        match root {
            Some(root) => {
                let dir = scratch::dir_of(root);
                let stale = scratch::clean_stale(&dir);
                if stale > 0 {
                    tracing::info!(stale, "removed scratch files of proxies that are gone");
                }
                config.scratch_dir = Some(dir);
            }
            None => {
                config.scratch_dir_uri =
                    format!("{}/{sub}", config.scratch_dir_uri.trim_end_matches('/'));
            }
        }
        Oracle::new(self.rpc.clone(), config).hiding_through(self.lean.clone())
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
        let limit = if metric == "beq" || beq_plus::variant(metric).is_some() {
            config.beq_timeout
        } else {
            config.transted_timeout
        };
        match metric {
            "transted" | "defeq" => self.judge_on_oracle(metric, pair, root, key, limit).await,
            m if m == "beq" || beq_plus::variant(m).is_some() => {
                self.judge_beq(metric, pair, config, root, limit).await
            }
            other => LensOutcome::Failed(format!("'{other}' is not a Lean-backed metric")),
        }
    }

    /// `transted` or `defeq` on the lens oracle (one judgement at a time), within `limit`.
    async fn judge_on_oracle(
        &self,
        metric: &str,
        pair: &Pair<'_>,
        root: Option<&Path>,
        key: u64,
        limit: Duration,
    ) -> LensOutcome {
        // Waiting for another document's judgement is not this one's time.
        tracing::debug!(metric, "lens: waiting for the oracle");
        let mut guard = self.oracle.lock().await;
        tracing::debug!(metric, "lens: judging");
        let oracle = guard.get_or_insert_with(|| self.new_oracle(root, "lens"));
        // The first open (Mathlib, a dependency build, the `rw?` index) is not the
        // pair's time: the lens shows "running…" meanwhile, never "timed out".
        let imports = Oracle::<Rpc>::import_key(&[pair.reference_header, pair.candidate_header]);
        let loaded = match oracle.warm_up(&imports, metric == "transted").await {
            Ok(d) => d,
            Err(e) => {
                // Not sticky in the editor: the next judgement opens the imports
                // afresh (the user may rebuild them meanwhile).
                oracle.discard_failed_headers().await;
                return LensOutcome::Failed(load_failure(metric, &imports, e));
            }
        };
        let started = std::time::Instant::now();
        let work = async {
            if metric == "transted" {
                let t = TransTed {
                    config: TransTedConfig { time_limit: limit, ..TransTedConfig::default() },
                };
                t.judge(oracle, pair).await
            } else {
                DefEq { time_limit: limit }.judge(oracle, pair).await
            }
        };
        match tokio::time::timeout(limit + GRACE, work).await {
            Ok(Ok(mut j)) => {
                if let Some(proof) = j.proof {
                    self.keep_witness(key, proof);
                }
                j.report.notes.extend(loaded_note(loaded));
                LensOutcome::Done(j.report)
            }
            Ok(Err(e)) => {
                oracle.discard_failed_headers().await;
                LensOutcome::Failed(format!("{metric}: {e}"))
            }
            Err(_) => LensOutcome::TimedOut(started.elapsed()),
        }
    }

    /// BEq or a BEq+ variant on the shared proof checker, within `limit`.
    async fn judge_beq(
        &self,
        metric: &str,
        pair: &Pair<'_>,
        config: &Config,
        root: Option<&Path>,
        limit: Duration,
    ) -> LensOutcome {
        // BEq+ (no LLM, fixed attempts) shares BEq's checker and scratch document.
        let plus = beq_plus::variant(metric);
        let checker = lock(&self.beq)
            .get_or_insert_with(|| {
                Arc::new(OracleProofChecker::new(self.new_oracle(root, "beq"), limit))
            })
            .clone();
        let loaded = match checker.warm_up(pair.reference_header, pair.candidate_header).await {
            Ok(d) => d,
            Err(e) => {
                let key =
                    Oracle::<Rpc>::import_key(&[pair.reference_header, pair.candidate_header]);
                checker.discard_failed_headers().await;
                return LensOutcome::Failed(load_failure(metric, &key, e));
            }
        };
        let started = std::time::Instant::now();
        let (settings, sampler) = match plus {
            Some(grind) => (beq_plus::settings(limit, grind), None),
            None => beq_settings(config, limit, root),
        };
        let beq = Beq { checker: SharedChecker(checker.clone()), sampler, settings };
        let (reference, candidate) = BeqSide::of_pair(pair);
        let work = beq.judge(reference, candidate);
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
                LensOutcome::TimedOut(report.elapsed)
            }
            // Lean unusable (a header error, the server gone): a failure, never "not
            // equivalent".
            Ok(report) if report.lean_error().is_some() => {
                let why = report.lean_error().unwrap_or_default().to_string();
                checker.discard_failed_headers().await;
                LensOutcome::Failed(format!("{metric}: {why}"))
            }
            Ok(report) => {
                let (rs, cs) = (pair.reference.tree.size(), pair.candidate.tree.size());
                let mut r = match plus {
                    Some(grind) => beq_plus::to_metric_report(&report, grind, rs, cs),
                    None => report.to_metric_report(rs, cs),
                };
                r.notes.extend(loaded_note(loaded));
                LensOutcome::Done(r)
            }
            Err(_) => LensOutcome::TimedOut(started.elapsed()),
        }
    }
}

/// Why a first open failed, for the lens: a header error names the scratch document and Lean's
/// message; a load past the oracle's load timeout says Lean is still loading (Mathlib, when the
/// imports name it) — not that the metric timed out.
fn load_failure(metric: &str, key: &str, e: OracleError) -> String {
    match e {
        OracleError::Deadline { uri } => {
            let what = if key.lines().any(|l| l.starts_with("import Mathlib")) {
                "Mathlib"
            } else {
                "the imports"
            };
            format!(
                "{metric}: Lean is loading {what} (scratch document {uri}) and has not finished; this is not the metric's time limit, it is tried again on the next edit"
            )
        }
        other => format!("{metric}: {other}"),
    }
}

/// The note for a judgement that had to load its imports first (not counted in its limit).
fn loaded_note(loaded: Duration) -> Option<String> {
    (!loaded.is_zero()).then(|| {
        format!(
            "Lean loaded the imports in {:.1} s first (not counted in the time limit)",
            loaded.as_secs_f64()
        )
    })
}

/// What the user allowed BEq to send for `config` in the workspace `root` (see
/// [`llm::permission`]: a project file alone never sends anything).
pub fn llm_permission(config: &Config, root: Option<&Path>) -> LlmPermission {
    llm::permission(config, root.unwrap_or(Path::new("/")), &TrustStore::user())
}

/// BEq's settings and LLM sampler for one judgement, as batch makes them
/// (`crate::lean::batch::Judge::new`): `beq_timeout_ms` as the deadline and, when `[llm]` is
/// configured, allowed ([`llm_permission`]) and its key is present, its client with K = its
/// `samples` (default 8).
fn beq_settings(
    config: &Config,
    deadline: Duration,
    root: Option<&Path>,
) -> (BeqSettings, Option<Box<dyn ProofSampler>>) {
    let mut settings = BeqSettings { deadline, ..BeqSettings::default() };
    let llm_settings = match llm_permission(config, root) {
        LlmPermission::NotConfigured => return (settings, None),
        LlmPermission::Allowed(s) => s,
        LlmPermission::NeedsConfirmation { base_url, .. } => {
            tracing::info!(%base_url, "[llm] from the project file not confirmed for this workspace; BEq runs its fixed attempts only");
            return (settings, None);
        }
        LlmPermission::Refused(reason) => {
            tracing::warn!(%reason, "[llm] refused; BEq runs its fixed attempts only");
            return (settings, None);
        }
    };
    match LlmClient::from_env(llm_settings) {
        Ok(client) => {
            settings.samples = client.settings().samples;
            (settings, Some(Box::new(Arc::new(client))))
        }
        Err(e) => {
            tracing::warn!(%e, "[llm] configured but unusable; BEq runs its fixed attempts only");
            (settings, None)
        }
    }
}

/// The result-cache name of a lens metric: `beq`'s verdict depends on the `[llm]` sampler (which
/// endpoint, which model, how many samples, and whether the user allowed it), so a changed or
/// newly allowed `[llm]` is judged again instead of showing the old verdict; every other
/// metric's name is its own.
pub fn cache_name(metric: &str, config: &Config, root: Option<&Path>) -> String {
    match (metric, llm_permission(config, root)) {
        ("beq", LlmPermission::Allowed(s)) => format!(
            "beq+llm:{}:{}:{}:{}",
            s.base_url,
            s.model,
            s.samples,
            s.api_key_env.as_deref().unwrap_or("")
        ),
        _ => metric.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A config as the user's own settings give it (an `[llm]` from a project file alone is
    /// not used: `llm::tests`).
    fn config(llm: &str) -> Config {
        let mut c = Config::parse(
            &format!("[metrics]\nbeq_timeout_ms = 4000\n{llm}"),
            Path::new("/w/lean-assess.toml"),
        )
        .expect("config");
        for o in c.origins.values_mut() {
            *o = crate::config::Origin::User("/u/settings.toml".into());
        }
        c
    }

    #[test]
    fn an_unconfirmed_project_llm_is_not_used_nor_cached_as_used() {
        let c = Config::parse(
            "[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n",
            Path::new("/nonexistent-ws/lean-assess.toml"),
        )
        .expect("config");
        let ws = Path::new("/nonexistent-ws");
        assert!(beq_settings(&c, Duration::from_secs(1), Some(ws)).1.is_none());
        assert_eq!(cache_name("beq", &c, Some(ws)), "beq");
    }

    #[test]
    fn beq_takes_k_from_the_configured_samples() {
        let limit = Duration::from_secs(4);
        let c = config("[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\nsamples = 3\n");
        let (settings, sampler) = beq_settings(&c, limit, None);
        assert_eq!(settings.samples, 3);
        assert_eq!(settings.deadline, limit);
        assert!(sampler.is_some());

        // `samples` left out: the paper's K = 8, as in batch.
        let c = config("[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n");
        assert_eq!(beq_settings(&c, limit, None).0.samples, 8);

        // No `[llm]`, or one whose key variable is unset: the fixed attempts only.
        let (settings, sampler) = beq_settings(&config(""), limit, None);
        assert!(sampler.is_none());
        assert_eq!(settings.deadline, limit);
        let c = config(
            "[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n\
             api_key_env = \"LEAN_ASSESS_LENS_UNIT_TEST_NO_SUCH_KEY\"\nsamples = 3\n",
        );
        assert!(beq_settings(&c, limit, None).1.is_none());
    }

    #[test]
    fn beq_results_are_cached_per_sampler() {
        let with =
            |k: &str| config(&format!("[llm]\nbase_url = \"https://h/v1\"\nmodel = \"m\"\n{k}"));
        let three = cache_name("beq", &with("samples = 3\n"), None);
        assert_ne!(three, cache_name("beq", &with("samples = 4\n"), None));
        assert_ne!(three, cache_name("beq", &config(""), None));
        // Omitted and explicit 8 are the same sampler.
        assert_eq!(
            cache_name("beq", &with(""), None),
            cache_name("beq", &with("samples = 8\n"), None)
        );
        assert_eq!(cache_name("beq", &config(""), None), "beq");
        assert_eq!(cache_name("transted", &with("samples = 3\n"), None), "transted");
    }
}
