//! A document job's rounds, on the runtime: integrity, `jobs::prepare` on the blocking pool,
//! results known from the cache, then each lens metric over the theorems left to judge (under
//! the CPU semaphore and the time limit), the explanations, and a last round on Lean's
//! elaborated trees. Stores the analysis and asks for a lens refresh after each round. What a
//! round computes is `jobs`'s and `lean_lens`'s; when a job runs is `scheduling`'s.

use super::cache::{CancelOnDrop, CancelToken};
use super::jobs::{self, DocAnalysis, JobInput, MetricState, ResultCache, TheoremView};
use super::{lean_lens, lock, Features};
use crate::config::Config;
use crate::documents::Document;
use crate::files::uri_to_path;
use crate::metrics::registry;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

impl Features {
    /// What a job of `doc` needs: its config, the other open documents, the toolchain, the
    /// readable roots, its last analysis and the lens metrics' result-cache names.
    fn job_input(&self, doc: Arc<Document>) -> JobInput {
        let settings = &self.inner.settings;
        let uri = doc.uri.clone();
        let path = uri_to_path(&doc.uri);
        let config = settings.config_for(path.as_deref());
        let result_names = {
            let default;
            let cfg = match &config {
                Some(Ok(c)) => c.as_ref(),
                _ => {
                    default = Config::default();
                    &default
                }
            };
            let root = settings.workspace_root();
            cfg.lens.iter().map(|m| lean_lens::cache_name(m, cfg, root.as_deref())).collect()
        };
        let mut open_texts = HashMap::new();
        for u in self.inner.docs.uris() {
            if let (Some(p), Some(d)) = (uri_to_path(&u), self.inner.docs.get(&u)) {
                open_texts.insert(p, d);
            }
        }
        JobInput {
            doc,
            path,
            config,
            open_texts,
            toolchain: settings.toolchain(),
            extra_roots: settings.extra_roots(),
            previous: self.analysis(&uri),
            result_names,
        }
    }

    fn store(&self, a: &DocAnalysis) {
        lock(&self.inner.analyses).insert(a.uri.clone(), Arc::new(a.clone()));
    }

    /// One document version: prepare, then each metric round, storing and refreshing after each.
    pub(super) async fn run_job(&self, uri: &str) {
        let Some(doc) = self.inner.docs.get(uri) else {
            return;
        };
        let input = Arc::new(self.job_input(doc));
        let config: Arc<Config> = match &input.config {
            Some(Ok(c)) => c.clone(),
            _ => Arc::new(Config::default()),
        };
        self.check_integrity(uri, &input, &config).await;
        if let Some(Err(e)) = &input.config {
            self.inner.outbox.show_message(2, format!("lean-assess: {e}"));
        }
        let toolchain = input.toolchain.clone();
        // Dropped with this future: an edit that aborts the job stops its blocking work too.
        let cancel_on_drop = CancelOnDrop::default();
        let cancel = cancel_on_drop.token();
        let Some(jobs::Prepared { analysis: mut a, work }) = self.prepare(input, &cancel).await
        else {
            return;
        };
        let old = self.analysis(uri);
        let had_problems = old.as_ref().is_some_and(|o| !o.problems.is_empty());
        let had_lenses = old.as_ref().is_some_and(|o| !o.theorems.is_empty());
        let metric_names: Vec<String> = a
            .theorems
            .first()
            .map(|t| t.metrics.iter().map(|(m, _)| m.clone()).collect())
            .unwrap_or_default();
        self.fill_from_cache(&mut a, &work, &metric_names, &config, &toolchain);
        self.store(&a);
        if had_problems || !a.problems.is_empty() {
            self.publish(uri);
        }
        for (mi, metric) in metric_names.iter().enumerate() {
            // Only these can be running: the others had nothing pending.
            for &ti in &work {
                if a.theorems[ti].metrics.get(mi).map(|(_, s)| s) != Some(&MetricState::Running) {
                    continue;
                }
                let state = self.judge_one(&a, ti, metric, &config, &toolchain, &cancel).await;
                // Copies this one theorem (the stored analysis shares it), not the document.
                Arc::make_mut(&mut a.theorems[ti]).metrics[mi].1 = state;
            }
            if mi == 0 && !self.explain_missing(&mut a, &work, &cancel).await {
                return;
            }
            self.store(&a);
            self.refresh_lenses();
        }
        if metric_names.is_empty() {
            // Nothing to judge here: refresh only to remove lenses the editor still shows.
            if had_lenses {
                self.refresh_lenses();
            }
            return;
        }
        if self.elaborate(&mut a).await {
            self.judge_elaborated(&mut a, &metric_names, &config, &toolchain, &cancel).await;
            self.store(&a);
            self.refresh_lenses();
        }
    }

    /// Statement integrity against task files, republished and refreshed when it changed.
    /// Integrity reads and checks whole files: on the blocking pool under a CPU permit and the
    /// offline time limit, never on the runtime's threads that forward and answer the editor's
    /// other requests.
    async fn check_integrity(&self, uri: &str, input: &Arc<JobInput>, config: &Config) {
        let integrity_permit = self.inner.cpu.clone().acquire_owned().await;
        let (features, integrity_input) = (self.clone(), input.clone());
        let limit = config.offline_timeout;
        let integrity_changed = tokio::task::spawn_blocking(move || {
            let changed = features.inner.integrity.update(&integrity_input, limit);
            drop(integrity_permit);
            changed
        })
        .await
        .unwrap_or(false);
        if integrity_changed {
            self.publish(uri);
            self.refresh_lenses();
        }
    }

    /// [`jobs::prepare`] on the blocking pool under a CPU permit; `None` when cancelled (or the
    /// blocking task failed).
    async fn prepare(&self, input: Arc<JobInput>, cancel: &CancelToken) -> Option<jobs::Prepared> {
        let permit = self.inner.cpu.clone().acquire_owned().await;
        let caches = self.inner.job_caches.clone();
        let prepare_cancel = cancel.clone();
        let prepared = tokio::task::spawn_blocking(move || {
            let a = jobs::prepare(&input, &caches, &prepare_cancel);
            drop(permit);
            a
        })
        .await;
        prepared.ok().flatten()
    }

    /// Results known for the same texts are filled in before anything is shown: only the
    /// theorems an edit touched are left running (the views are not shared yet: no copies).
    /// `work`: the theorems this job may still change (`prepare`'s work list), a metric to run
    /// or an explanation missing; only these are visited (in a large document, touching every
    /// theorem's state is what an edit costs beyond the edited theorem).
    fn fill_from_cache(
        &self,
        a: &mut DocAnalysis,
        work: &[usize],
        metric_names: &[String],
        config: &Config,
        toolchain: &str,
    ) {
        let root = self.inner.settings.workspace_root();
        let cache_names: Vec<String> = metric_names
            .iter()
            .map(|m| lean_lens::cache_name(m, config, root.as_deref()))
            .collect();
        let cache = lock(&self.inner.cache);
        for &ti in work {
            let t = &mut a.theorems[ti];
            // A core reused from the last version has nothing pending: left shared.
            if !t.metrics.iter().any(|(_, s)| *s == MetricState::Pending) {
                continue;
            }
            let t = Arc::make_mut(Arc::make_mut(t).core_mut());
            let cand_text = t.candidate.as_ref().map(|c| c.source.as_str());
            for (mi, (_, s)) in t.metrics.iter_mut().enumerate() {
                if *s != MetricState::Pending {
                    continue;
                }
                let hit = match (t.reference.as_ref(), cand_text) {
                    (Some(rv), Some(ct)) if rv.statement.is_some() => cache.get(ResultCache::key(
                        &cache_names[mi],
                        rv,
                        ct,
                        &a.candidate_header,
                        toolchain,
                    )),
                    _ => None,
                };
                *s = match hit {
                    Some(Ok(rep)) => MetricState::Done(rep),
                    Some(Err(e)) => MetricState::Failed(e),
                    None => MetricState::Running,
                };
            }
        }
    }

    /// The round on Lean's elaborated trees: each offline metric again for the theorems
    /// [`Features::elaborate`] changed, then their explanations (uncached).
    async fn judge_elaborated(
        &self,
        a: &mut DocAnalysis,
        metric_names: &[String],
        config: &Config,
        toolchain: &str,
        cancel: &CancelToken,
    ) {
        for (mi, metric) in metric_names.iter().enumerate() {
            for ti in 0..a.theorems.len() {
                let t = &a.theorems[ti];
                // Lean-backed metrics read the statements' text, not their trees: the
                // elaborated trees change nothing for them.
                if !t.elaborated
                    || matches!(t.metrics[mi].1, MetricState::Unavailable(_))
                    || registry::needs_lean(metric)
                {
                    continue;
                }
                let state = self.judge_one(a, ti, metric, config, toolchain, cancel).await;
                Arc::make_mut(&mut a.theorems[ti]).metrics[mi].1 = state;
            }
        }
        for t in a.theorems.iter_mut().filter(|t| t.elaborated) {
            jobs::explain(Arc::make_mut(t));
        }
    }

    /// The TED explanations not found in the cache (theorems whose texts changed), computed off
    /// the async workers (APTED is cubic in the worst case) under a CPU permit, stopping at an
    /// edit. `false` when the job is to end (cancelled, or the blocking task failed).
    /// `among`: the indices of the theorems that may lack one (every other is explained).
    async fn explain_missing(
        &self,
        a: &mut DocAnalysis,
        among: &[usize],
        cancel: &CancelToken,
    ) -> bool {
        let todo: Vec<(usize, Arc<TheoremView>)> = among
            .iter()
            .map(|&i| (i, &a.theorems[i]))
            .filter(|(_, t)| jobs::explainable(t))
            .map(|(i, t)| (i, t.clone()))
            .collect();
        if todo.is_empty() {
            return true;
        }
        let permit = self.inner.cpu.clone().acquire_owned().await;
        let caches = self.inner.job_caches.clone();
        let header = a.candidate_header.clone();
        let cancel = cancel.clone();
        let explained = tokio::task::spawn_blocking(move || {
            let mut out = Vec::new();
            for (i, t) in todo {
                if cancel.is_cancelled() {
                    return None;
                }
                if let Some(e) = jobs::explanation_cached(&t, &header, &caches) {
                    out.push((i, e));
                }
            }
            drop(permit);
            Some(out)
        })
        .await;
        let Ok(Some(explained)) = explained else {
            return false;
        };
        for (i, (distance, differences)) in explained {
            let view = Arc::make_mut(&mut a.theorems[i]);
            view.distance = Some(distance);
            view.differences = differences;
        }
        true
    }

    /// One metric for theorem `ti`: from the result cache, from the Lean-backed lens (for
    /// `beq`, after asking for the project's LLM consent), or run on the blocking pool under a
    /// CPU permit and the time limit; offline results and Lean's done ones are cached.
    async fn judge_one(
        &self,
        a: &DocAnalysis,
        ti: usize,
        metric: &str,
        config: &Config,
        toolchain: &str,
        cancel: &CancelToken,
    ) -> MetricState {
        let timeout = config.offline_timeout;
        let Some((r, c, r_header, _)) = jobs::statements(a, ti) else {
            return MetricState::Failed("no parsed pair".into());
        };
        let t = &a.theorems[ti];
        let Some(rv) = t.reference.as_ref() else {
            return MetricState::Failed("no reference".into());
        };
        let cand_text = c.source.clone();
        let cand_header = a.candidate_header.clone();
        let key = ResultCache::key(
            &lean_lens::cache_name(metric, config, self.inner.settings.workspace_root().as_deref()),
            rv,
            &cand_text,
            &cand_header,
            toolchain,
        );
        if let Some(hit) = lock(&self.inner.cache).get(key) {
            return match hit {
                Ok(rep) => MetricState::Done(rep),
                Err(e) => MetricState::Failed(e),
            };
        }
        if metric == "beq" {
            self.ask_llm_consent(config);
        }
        if registry::needs_lean(metric) {
            let pair = crate::metrics::Pair {
                reference: &r,
                candidate: &c,
                reference_header: &r_header,
                candidate_header: &cand_header,
            };
            let root = self.inner.settings.workspace_root();
            let outcome =
                self.inner.lean_lens.judge(metric, &pair, config, root.as_deref(), key).await;
            return match outcome {
                lean_lens::LensOutcome::Done(rep) => {
                    lock(&self.inner.cache).put(key, Ok(rep.clone()));
                    MetricState::Done(rep)
                }
                // Lean errors are not cached: the server may be back (or less busy) next time.
                lean_lens::LensOutcome::Failed(e) => MetricState::Failed(e),
                lean_lens::LensOutcome::TimedOut(d) => MetricState::TimedOut(d),
            };
        }
        let permit = self.inner.cpu.clone().acquire_owned().await;
        let m = metric.to_string();
        let started = Instant::now();
        // The metric's own clock stops it by the time limit (it holds a CPU permit until it
        // returns); a job aborted while this waited for the permit does not start it at all.
        let deadline = started + timeout;
        let cancel = cancel.clone();
        let job = tokio::task::spawn_blocking(move || {
            let out = (!cancel.is_cancelled())
                .then(|| jobs::run_metric(&m, &r, &c, &r_header, &cand_header, deadline));
            drop(permit);
            out
        });
        match tokio::time::timeout(timeout, job).await {
            Ok(Ok(Some(res))) => {
                lock(&self.inner.cache).put(key, res.clone());
                match res {
                    Ok(rep) => MetricState::Done(rep),
                    Err(e) => MetricState::Failed(e),
                }
            }
            Ok(Ok(None)) => MetricState::Failed("cancelled by an edit".into()),
            Ok(Err(join)) => MetricState::Failed(format!("metric job ended: {join}")),
            Err(_) => MetricState::TimedOut(started.elapsed()),
        }
    }
}
