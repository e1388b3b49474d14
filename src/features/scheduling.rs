//! Job scheduling: one job per open document, restarted on every edit, debounced while the
//! editor types ([`JOB_QUIET`], [`JOB_MAX_WAIT`]) and stopped by `shutdown`. Owns
//! [`Scheduler`] (the job slots, the run counter, the shutdown flag); what a job does is
//! `rounds`'s, what it may read the configuration's.

use super::{lock, Features};
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Documents larger than this are mirrored (and forwarded) but not judged: the analysis lexes
/// the whole text, at about ten times its size in memory (a 50 MB `didOpen` held 490 MiB).
/// Mathlib's largest files are well under 1 MiB.
pub(super) const MAX_JUDGED_DOCUMENT_BYTES: usize = 8 << 20;

/// A document's job: its task, when the wait for a quiet document began, and whether the
/// job got past that wait.
pub(super) struct JobSlot {
    pub(super) handle: tokio::task::AbortHandle,
    pending_since: tokio::time::Instant,
    started: Arc<AtomicBool>,
}

/// A document edited while its previous job is still waiting or running starts its next job
/// only once it has been quiet this long (a newer edit restarts the wait): while the editor
/// types faster than the metrics finish, each edit would otherwise abort half-done work and
/// start it anew, taking the cores the forwarding needs. An edit to a quiet document (its last
/// job done) starts at once, so a single edit's lenses are not delayed.
/// `LEAN_ASSESS_JOB_QUIET_MS` sets it (`0`: every edit starts its job at once; the load
/// benchmark compares both).
pub const JOB_QUIET: Duration = Duration::from_millis(200);
/// The variable setting [`JOB_QUIET`], in milliseconds.
pub const JOB_QUIET_ENV: &str = "LEAN_ASSESS_JOB_QUIET_MS";
/// The longest a job waits for quiet: during continuous typing the lenses still refresh this
/// often (the job started then still stops at the next edit, as every job does).
pub const JOB_MAX_WAIT: Duration = Duration::from_millis(1500);

/// [`JOB_QUIET`] or its variable; a bad value is logged and the default kept (the proxy must
/// come up whatever its environment).
fn job_quiet() -> Duration {
    let Some(text) = std::env::var_os(JOB_QUIET_ENV) else {
        return JOB_QUIET;
    };
    match text.to_str().and_then(|t| t.trim().parse::<u64>().ok()) {
        Some(ms) => Duration::from_millis(ms),
        None => {
            tracing::warn!(
                "{JOB_QUIET_ENV}={text:?}: expected a number of milliseconds; keeping {} ms",
                JOB_QUIET.as_millis()
            );
            JOB_QUIET
        }
    }
}

/// When the job for an edit at `now` may start, given the document's previous job (aborted by
/// this edit) and the quiet interval: `(pending_since, start_at)`.
fn debounce(
    old: Option<&JobSlot>,
    now: tokio::time::Instant,
    quiet: Duration,
) -> (tokio::time::Instant, tokio::time::Instant) {
    match old {
        Some(o) if !quiet.is_zero() && !o.handle.is_finished() => {
            let since = if o.started.load(Ordering::Acquire) {
                now // it was running: a new wait begins
            } else {
                o.pending_since // still waiting: keep the bound on the whole wait
            };
            (since, (now + quiet).min(since + JOB_MAX_WAIT))
        }
        _ => (now, now),
    }
}

/// The document jobs: their slots by URI, how many started, and whether new ones may.
pub(super) struct Scheduler {
    pub(super) jobs: Mutex<HashMap<String, JobSlot>>,
    /// Jobs that got past their debounce and started running ([`Scheduler::runs`]).
    run: Arc<AtomicU64>,
    /// How long an edited document must be quiet before its job starts ([`JOB_QUIET`]).
    pub(super) quiet: Duration,
    /// Set by `shutdown`: no new jobs.
    shut_down: AtomicBool,
}

impl Scheduler {
    pub(super) fn new() -> Scheduler {
        Scheduler {
            jobs: Mutex::default(),
            run: Arc::new(AtomicU64::new(0)),
            quiet: job_quiet(),
            shut_down: AtomicBool::new(false),
        }
    }

    /// How many jobs have started running (past their debounce).
    pub(super) fn runs(&self) -> u64 {
        self.run.load(Ordering::Relaxed)
    }

    /// Whether `uri`'s job is still waiting or running.
    pub(super) fn busy(&self, uri: &str) -> bool {
        lock(&self.jobs).get(uri).is_some_and(|j| !j.handle.is_finished())
    }

    /// No new jobs from now on.
    pub(super) fn stop_new(&self) {
        self.shut_down.store(true, Ordering::Release);
    }

    fn is_shut_down(&self) -> bool {
        self.shut_down.load(Ordering::Acquire)
    }

    /// Abort every job.
    pub(super) fn abort_all(&self) {
        for (_, job) in lock(&self.jobs).drain() {
            job.handle.abort();
        }
    }

    /// Abort `uri`'s job, if any.
    pub(super) fn cancel(&self, uri: &str) {
        if let Some(old) = lock(&self.jobs).remove(uri) {
            old.handle.abort();
        }
    }

    /// Abort `uri`'s job and spawn `job` in its place on `rt`, started once the document has
    /// been quiet long enough ([`debounce`]).
    fn restart(
        &self,
        rt: &tokio::runtime::Handle,
        uri: &str,
        job: impl Future<Output = ()> + Send + 'static,
    ) {
        let mut jobs = lock(&self.jobs);
        let now = tokio::time::Instant::now();
        let old = jobs.remove(uri);
        if let Some(o) = &old {
            o.handle.abort();
        }
        let (pending_since, start_at) = debounce(old.as_ref(), now, self.quiet);
        let started = Arc::new(AtomicBool::new(false));
        let flag = started.clone();
        let run = self.run.clone();
        let task = rt.spawn(async move {
            // Not through the timer when there is nothing to wait for: its wheel ticks by the
            // millisecond, which a single edit's job would wait for (1.1 ms measured).
            if start_at > tokio::time::Instant::now() {
                tokio::time::sleep_until(start_at).await;
            }
            flag.store(true, Ordering::Release);
            run.fetch_add(1, Ordering::Relaxed);
            job.await
        });
        jobs.insert(
            uri.to_string(),
            JobSlot { handle: task.abort_handle(), pending_since, started },
        );
    }
}

impl Features {
    /// (Re)start `uri`'s job: nothing without a runtime or after `shutdown`; a document too
    /// large to judge loses its job and analysis and is said so.
    pub(super) fn restart_job(&self, uri: &str) {
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return; // no runtime (plain unit tests): nothing to spawn on
        };
        let scheduler = &self.inner.scheduler;
        if scheduler.is_shut_down() {
            return;
        }
        let size = self.inner.docs.get(uri).map_or(0, |d| d.text().len());
        if size > MAX_JUDGED_DOCUMENT_BYTES {
            // Lexing the whole file costs ~10× its size; no real Lean file comes near this.
            scheduler.cancel(uri);
            lock(&self.inner.analyses).remove(uri);
            tracing::warn!(%uri, size, "document too large to judge");
            self.inner.outbox.show_message(
                2,
                format!(
                    "lean-assess: documents over {} MiB are not judged ({uri} is {:.1} MiB)",
                    MAX_JUDGED_DOCUMENT_BYTES >> 20,
                    size as f64 / (1 << 20) as f64
                ),
            );
            return;
        }
        let this = self.clone();
        let u = uri.to_string();
        scheduler.restart(&rt, uri, async move { this.run_job(&u).await });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn continuous_typing_still_starts_a_job_every_max_wait() {
        // The wait as a function of the previous job's state, at chosen instants.
        let quiet = Duration::from_millis(200);
        let t0 = tokio::time::Instant::now();
        let waiting = tokio::spawn(std::future::pending::<()>());
        let slot = |since, started: bool| JobSlot {
            handle: waiting.abort_handle(),
            pending_since: since,
            started: Arc::new(std::sync::atomic::AtomicBool::new(started)),
        };
        // A quiet document (no job, or its job ended): at once.
        assert_eq!(debounce(None, t0, quiet), (t0, t0));
        let done = tokio::spawn(async {});
        let ended = JobSlot {
            handle: done.abort_handle(),
            pending_since: t0,
            started: Arc::new(true.into()),
        };
        let _ = done.await;
        assert_eq!(debounce(Some(&ended), t0, quiet), (t0, t0));
        // An edit at `now` on the job pending since t0 (`started`: already running).
        let edit_at = |now, started| debounce(Some(&slot(t0, started)), now, quiet);
        // Edits while the job waits: each pushes the start to quiet after it...
        let now = t0 + Duration::from_millis(50);
        assert_eq!(edit_at(now, false), (t0, now + quiet));
        let now = t0 + Duration::from_millis(1200);
        assert_eq!(edit_at(now, false), (t0, now + quiet));
        // ...but never past the max wait from the first one: typing every 50 ms still gets a
        // job every JOB_MAX_WAIT.
        let now = t0 + JOB_MAX_WAIT - Duration::from_millis(50);
        assert_eq!(edit_at(now, false), (t0, t0 + JOB_MAX_WAIT));
        // An edit that aborts a job already running starts a new wait.
        let now = t0 + Duration::from_secs(2);
        assert_eq!(edit_at(now, true), (now, now + quiet));
        // Quiet 0 (`LEAN_ASSESS_JOB_QUIET_MS=0`): every edit's job at once.
        assert_eq!(debounce(Some(&slot(t0, false)), now, Duration::ZERO), (now, now));
        waiting.abort();
    }
}
