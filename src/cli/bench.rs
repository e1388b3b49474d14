//! `lean-assess bench DATASET.jsonl [--metric M] [--out PRED.jsonl] [--json]
//! [--lean-project DIR [--server-command CMD] [--config FILE]] [--jobs N]`: run one metric over a labelled dataset and report its
//! judgement quality with the figures of `fixtures/bench/score.py`.
//!
//! Owns the batch loop: parse both statements of each pair with their own headers, judge, write
//! predictions, evaluate. One bad pair never stops the run (ripgrep's model): it gets an
//! `{"id", "error"}` prediction and a warning naming `dataset:line`, and the run exits with
//! status 1. Bad input as a whole (unreadable or malformed dataset, unknown metric) is fatal (status 2).
//!
//! The arithmetic is `evaluation`'s; reading the dataset is `dataset`'s.

use super::Status;
use super::{check_metric_names, cost_model};
use crate::dataset::{self, DatasetPair};
use crate::evaluation::{self, Stats};
use crate::lean::batch;
use crate::metrics::registry;
use crate::metrics::{self, Metric, MetricError, Verdict};
use crate::predictions::{self, Outcome};
use crate::trees::parse::{self, Header};
use anyhow::{bail, Context};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset JSONL: `id`, `ref_header`, `ref_statement`, `cand_header`, `cand_statement`,
    /// optional `label`.
    #[arg(value_name = "DATASET.jsonl")]
    dataset: PathBuf,
    /// The metric: ted, path, transted-lite (offline); transted, beq, beq+, beq+grind, defeq
    /// (need Lean).
    #[arg(long, default_value = "ted")]
    metric: String,
    /// `ted` with GTED's free renaming of bound variables and hypotheses (rename between two
    /// flagged nodes costs 0) instead of unit costs.
    #[arg(long)]
    free_cost: bool,
    /// Write one prediction per pair: `{"id", "score"}`, `{"id", "equivalent"}` or
    /// `{"id", "error"}` (the format `fixtures/bench/score.py` reads).
    #[arg(long, value_name = "PRED.jsonl")]
    out: Option<PathBuf>,
    /// Print one JSON object (the contract's `bench --json` object).
    #[arg(long)]
    json: bool,
    /// Worker threads (default: the number of CPUs); with a Lean metric, pairs judged at once
    /// through the one server (default 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// Judge only shard K of N (1 ≤ K ≤ N): the pairs whose id hashes to K (stable across runs
    /// and machines); `lean-assess merge` joins the shards' --out files.
    #[arg(long, value_name = "K/N", value_parser = dataset::parse_shard)]
    shard: Option<dataset::Shard>,
    /// Also write a self-contained HTML report (figures, sweep plot, confusion matrix, pairs).
    #[arg(long, value_name = "REPORT.html")]
    html: Option<PathBuf>,
    #[command(flatten)]
    lean: super::lean_options::LeanOptions,
}

/// One pair's outcome, how many of its statements kept unparsed spans, and whether the metric
/// showed it equivalent (`metrics::equivalence`: evidence, not a threshold).
pub(super) struct Judged {
    pub(super) outcome: Outcome,
    pub(super) unparsed: usize,
    pub(super) shown_equivalent: bool,
}

pub fn run(args: Args, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<Status> {
    check_metric_names(std::slice::from_ref(&args.metric))?;
    if let Some(dir) = &args.lean.lean_project {
        if !dir.is_dir() {
            bail!("--lean-project {}: not a directory", dir.display());
        }
    }
    let offline: Option<Box<dyn Metric>> =
        match registry::build(&args.metric, cost_model(args.free_cost)) {
            Ok(judge) => Some(judge),
            Err(MetricError::NeedsLean(_)) if args.lean.lean_project.is_some() => None,
            Err(e) => return Err(e.into()),
        };
    if offline.is_some() && args.lean.config.is_some() {
        // The offline metrics read nothing from it, but a broken file should not pass unnoticed.
        batch::load_config(args.lean.config.as_deref(), None)?;
    }
    let pairs = dataset::read_pairs(&args.dataset)?;
    let pairs = dataset::select_shard(pairs, args.shard);

    let started = Instant::now();
    let (metric_name, outcomes) = match (&offline, &args.lean.lean_project) {
        (Some(judge), _) => {
            debug_assert!(!registry::needs_lean(judge.name()));
            let jobs = args.jobs.map_or_else(
                || std::thread::available_parallelism().map_or(1, usize::from),
                |n| n as usize,
            );
            let judged = judge_all(&pairs, judge.as_ref(), jobs);
            (judge.name(), judged)
        }
        (None, Some(project)) => {
            let name = registry::lean_names()
                .find(|m| *m == args.metric)
                .context("BUG: a metric refused for needing Lean is one of the registry's")?;
            let config = batch::load_config(args.lean.config.as_deref(), Some(project))?;
            let settings = batch::LeanSettings::new(config.as_ref(), &[name])?;
            let run = batch::LeanRun {
                metric: name,
                project,
                server_command: args.lean.server_command.as_deref(),
                jobs: args.jobs.map_or(1, |n| n as usize),
                out: args.out.as_deref(),
                settings: &settings,
            };
            let judged = batch::judge_all(&run, &pairs, err)?
                .into_iter()
                .map(|(outcome, unparsed)| Judged {
                    shown_equivalent: predictions::lean_shown_equivalent(name, &outcome),
                    outcome,
                    unparsed,
                })
                .collect::<Vec<_>>();
            (name, judged)
        }
        (None, None) => bail!("BUG: a Lean metric without --lean-project was refused above"),
    };
    // The Lean run appended its predictions as they came (resumable); the offline run writes
    // them all at once.
    let write_to = args.out.as_deref().filter(|_| offline.is_some());
    let seconds = started.elapsed().as_secs_f64();
    report(
        &args.dataset,
        metric_name,
        args.free_cost,
        &pairs,
        &outcomes,
        write_to,
        args.html.as_deref(),
        seconds,
        args.json,
        out,
        err,
    )
}

/// Evaluate judged pairs, write the predictions to `write_to` (when given) and the summary to
/// `out`; shared with `merge`, which scores shards' predictions exactly as one run would.
#[allow(clippy::too_many_arguments)]
pub(super) fn report(
    dataset: &std::path::Path,
    metric_name: &str,
    free_cost: bool,
    pairs: &[DatasetPair],
    outcomes: &[Judged],
    write_to: Option<&std::path::Path>,
    html: Option<&std::path::Path>,
    seconds: f64,
    json: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<Status> {
    let dataset_name = dataset.display().to_string();
    let mut scored: Vec<(bool, f64)> = Vec::new();
    let mut decided: Vec<(bool, bool)> = Vec::new();
    let mut shown: Vec<(bool, bool)> = Vec::new();
    let mut failed = 0usize;
    let mut unparsed = 0usize;
    for (pair, judged) in pairs.iter().zip(outcomes) {
        let outcome = &judged.outcome;
        unparsed += judged.unparsed;
        if let (Outcome::Judged(_), Some(label)) = (outcome, pair.label) {
            shown.push((label, judged.shown_equivalent));
        }
        match (outcome, pair.label) {
            (Outcome::Failed(message), _) => {
                failed += 1;
                writeln!(
                    err,
                    "lean-assess: warning: {dataset_name}:{}: pair '{}': {message}",
                    pair.line, pair.id
                )?;
            }
            (Outcome::Judged(Verdict::Score(s)), Some(label)) => scored.push((label, *s)),
            (Outcome::Judged(Verdict::Equivalent(e)), Some(label)) => decided.push((label, *e)),
            (Outcome::Judged(_), None) => {}
        }
    }
    let evaluation = evaluation::evaluate(&scored);
    let binary = (!decided.is_empty()).then(|| evaluation::confusion(decided.iter().copied()));
    let verdicts = (!shown.is_empty()).then(|| evaluation::confusion(shown.iter().copied()));
    let default = registry::default_threshold(metric_name, cost_model(free_cost))
        .filter(|_| !scored.is_empty())
        .map(|t| evaluation::AtThreshold {
            threshold: t,
            stats: evaluation::at_threshold(&scored, t),
        });
    let file_name = dataset.file_name().map_or(String::new(), |f| f.to_string_lossy().into_owned());
    let views = Views {
        evaluation: evaluation.as_ref(),
        binary: binary.as_ref(),
        verdicts: verdicts.as_ref(),
        default: default.as_ref(),
        published: evaluation::published_gted(&file_name),
    };
    if let Some(path) = write_to {
        write_predictions(path, pairs, outcomes)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = html {
        let plain: Vec<(&Outcome, usize)> =
            outcomes.iter().map(|j| (&j.outcome, j.unparsed)).collect();
        crate::report::write_html(
            path,
            &dataset_name,
            metric_name,
            seconds,
            pairs,
            &plain,
            evaluation.as_ref(),
            binary.as_ref(),
        )?;
    }
    let summary = Summary {
        dataset: &dataset_name,
        metric: metric_name,
        pairs: pairs.len(),
        labelled: pairs.iter().filter(|p| p.label.is_some()).count(),
        positives: pairs.iter().filter(|p| p.label == Some(true)).count(),
        failed,
        unparsed,
        seconds,
    };
    if json {
        write_json(&summary, &views, out)?;
    } else {
        write_text(&summary, &views, out)?;
    }
    Ok(if failed == 0 { Status::Success } else { Status::SomeFailed })
}

/// Judge every pair on `jobs` threads; results keep the dataset's order. Each result also counts
/// the pair's statements that kept unparsed spans.
fn judge_all(pairs: &[DatasetPair], judge: &dyn Metric, jobs: usize) -> Vec<Judged> {
    let chunk = pairs.len().div_ceil(jobs.max(1)).max(1);
    if jobs <= 1 || pairs.len() <= 1 {
        return pairs.iter().map(|p| judge_one(p, judge)).collect();
    }
    std::thread::scope(|scope| {
        let workers: Vec<_> = pairs
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || part.iter().map(|p| judge_one(p, judge)).collect::<Vec<_>>())
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| match w.join() {
                Ok(results) => results,
                // judge_one catches panics, so a worker can only die of something else (e.g.
                // out of memory); pass it on rather than lose pairs silently.
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}

/// Judge one pair. A panic inside the parser or a metric is a bug; it is reported as this pair's
/// failure (the panic message is already on stderr) so that the rest of the run still counts.
fn judge_one(pair: &DatasetPair, judge: &dyn Metric) -> Judged {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| judge_one_unguarded(pair, judge)))
        .unwrap_or_else(|_| {
            let message = format!("internal error (a bug) while judging with {}", judge.name());
            failed(message)
        })
}

fn failed(message: String) -> Judged {
    Judged { outcome: Outcome::Failed(message), unparsed: 0, shown_equivalent: false }
}

fn judge_one_unguarded(pair: &DatasetPair, judge: &dyn Metric) -> Judged {
    let reference = parse::parse_statement(&pair.ref_statement, &Header::parse(&pair.ref_header));
    let candidate = parse::parse_statement(&pair.cand_statement, &Header::parse(&pair.cand_header));
    let (reference, candidate) = match (reference, candidate) {
        (Ok(r), Ok(c)) => (r, c),
        (Err(e), _) => return failed(format!("ref_statement: {e}")),
        (_, Err(e)) => return failed(format!("cand_statement: {e}")),
    };
    let unparsed =
        usize::from(!reference.unparsed.is_empty()) + usize::from(!candidate.unparsed.is_empty());
    let judged_pair = crate::metrics::Pair {
        reference: &reference,
        candidate: &candidate,
        reference_header: &pair.ref_header,
        candidate_header: &pair.cand_header,
    };
    match judge.judge(&judged_pair) {
        Ok(report) => Judged {
            shown_equivalent: metrics::equivalence(&report, &judged_pair).is_equivalent(),
            outcome: Outcome::Judged(report.verdict),
            unparsed,
        },
        Err(e) => Judged { unparsed, ..failed(format!("{}: {e}", judge.name())) },
    }
}

fn write_predictions(
    path: &std::path::Path,
    pairs: &[DatasetPair],
    outcomes: &[Judged],
) -> anyhow::Result<()> {
    let mut text = String::new();
    for (pair, judged) in pairs.iter().zip(outcomes) {
        let line = predictions::line(&pair.id, &judged.outcome, judged.shown_equivalent);
        text.push_str(&line.to_string());
        text.push('\n');
    }
    std::fs::write(path, text)?;
    Ok(())
}

struct Summary<'a> {
    dataset: &'a str,
    metric: &'a str,
    pairs: usize,
    labelled: usize,
    positives: usize,
    failed: usize,
    unparsed: usize,
    seconds: f64,
}

/// The figures `bench` reports, each from its own view of the metric.
struct Views<'a> {
    /// Threshold view: GTED's best threshold, the exhaustive cut, the sweep.
    evaluation: Option<&'a evaluation::Evaluation>,
    /// A Lean metric's yes/no decisions against the labels.
    binary: Option<&'a Stats>,
    /// Verdict view: "equivalent" shown (with evidence) against the labels.
    verdicts: Option<&'a Stats>,
    /// The metric's fixed default threshold and the figures there.
    default: Option<&'a evaluation::AtThreshold>,
    /// GTED's published figure when the dataset is one of its sets: (name, accuracy, kappa).
    published: Option<(&'static str, f64, f64)>,
}

fn figures(threshold: Option<f64>, st: &Stats) -> serde_json::Value {
    json!({
        "threshold": threshold,
        "precision": st.precision,
        "recall": st.recall,
        "accuracy": st.accuracy,
        "kappa": st.kappa,
        "true_positive": st.true_positive,
        "true_negative": st.true_negative,
        "false_positive": st.false_positive,
        "false_negative": st.false_negative,
        "total": st.total,
    })
}

fn write_json(s: &Summary<'_>, v: &Views<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
    let (best, sweep) = match (v.evaluation, v.binary) {
        (Some(e), _) => (
            figures(Some(e.best.threshold), &e.best.stats),
            e.sweep
                .iter()
                .map(|t| {
                    json!({"threshold": t.threshold, "accuracy": t.stats.accuracy, "kappa": t.stats.kappa})
                })
                .collect(),
        ),
        (None, Some(b)) => (figures(None, b), Vec::new()),
        (None, None) => (serde_json::Value::Null, Vec::new()),
    };
    let mut object = json!({
        "dataset": s.dataset,
        "metric": s.metric,
        "pairs": s.pairs,
        "scored": s.pairs - s.failed,
        "failed": s.failed,
        "seconds": s.seconds,
        "best": best,
        "sweep": sweep,
        "verdict_view": v.verdicts.map(|st| figures(None, st)),
        "default_threshold": v.default.map(|d| figures(Some(d.threshold), &d.stats)),
    });
    if let Some(e) = v.evaluation {
        let (t, x) = &e.best_exhaustive;
        object["best_cut"] = figures(*t, x);
        object["score_range"] = json!([e.score_min, e.score_max]);
    }
    if let Some((name, accuracy, kappa)) = v.published {
        object["published_gted"] = json!({"dataset": name, "accuracy": accuracy, "kappa": kappa});
    }
    let text = serde_json::to_string_pretty(&object).context("BUG: JSON values serialize")?;
    writeln!(out, "{text}")?;
    Ok(())
}

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn counts(st: &Stats) -> String {
    format!(
        "TP {} TN {} FP {} FN {} of {}",
        st.true_positive, st.true_negative, st.false_positive, st.false_negative, st.total
    )
}

/// `precision … recall … accuracy … kappa …` and the counts, on two lines under `indent`.
fn stats_lines(out: &mut dyn Write, indent: &str, st: &Stats) -> std::io::Result<()> {
    writeln!(
        out,
        "{indent}precision {}  recall {}  accuracy {}  kappa {:.3}",
        pct(st.precision),
        pct(st.recall),
        pct(st.accuracy),
        st.kappa
    )?;
    writeln!(out, "{indent}({})", counts(st))
}

fn write_text(s: &Summary<'_>, v: &Views<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(out, "dataset: {}   metric: {}", s.dataset, s.metric)?;
    writeln!(
        out,
        "pairs: {} ({} labelled, {} labelled equivalent); scored {}, failed {}; {:.3} s",
        s.pairs,
        s.labelled,
        s.positives,
        s.pairs - s.failed,
        s.failed,
        s.seconds
    )?;
    if s.unparsed > 0 {
        writeln!(
            out,
            "note: {} statement(s) kept spans the parser could not read, as one node each",
            s.unparsed
        )?;
    }
    if let Some(st) = v.verdicts {
        writeln!(out)?;
        writeln!(
            out,
            "Verdict view: a pair counts as \"equivalent\" only when the metric shows it (the two"
        )?;
        writeln!(
            out,
            "statements are the same up to renaming of bound names, after sound rewrites or a Lean"
        )?;
        writeln!(out, "proof); every other pair is \"not shown\". Against the human labels:")?;
        writeln!(
            out,
            "  shown equivalent: {} of {} pairs",
            st.true_positive + st.false_positive,
            st.total
        )?;
        if st.true_positive + st.false_positive == 0 {
            // score.py's convention prints precision 0 here; there is nothing to be precise about.
            writeln!(
                out,
                "  precision n/a (nothing shown)  recall 0.00%  accuracy {}  kappa {:.3}",
                pct(st.accuracy),
                st.kappa
            )?;
            writeln!(out, "  ({})", counts(st))?;
        } else {
            stats_lines(out, "  ", st)?;
        }
    }
    if let Some(b) = v.binary {
        writeln!(out)?;
        writeln!(
            out,
            "decisions: precision {}  recall {}  accuracy {}  kappa {:.4}  ({})",
            pct(b.precision),
            pct(b.recall),
            pct(b.accuracy),
            b.kappa,
            counts(b)
        )?;
    }
    if let Some(e) = v.evaluation {
        writeln!(out)?;
        writeln!(
            out,
            "Threshold view: the metric gives each pair a similarity, 1 - distance / size of the"
        )?;
        writeln!(
            out,
            "larger tree (1 = identical; below 0 when the edits outnumber the larger tree's"
        )?;
        writeln!(
            out,
            "nodes). A threshold t calls a pair equivalent when its similarity is at least t."
        )?;
        writeln!(out, "  similarities here range over [{:.4}, {:.4}]", e.score_min, e.score_max)?;
        if let Some(d) = v.default {
            writeln!(
                out,
                "  at this metric's default threshold {:.3} (fixed in advance for every dataset,",
                d.threshold
            )?;
            writeln!(
                out,
                "  chosen once on the two bundled GTED sets together; README \"Judgement quality\"):"
            )?;
            stats_lines(out, "    ", &d.stats)?;
        }
        writeln!(
            out,
            "  at the best threshold for this dataset, {:.3} (GTED's method: every t in 0, 0.001,",
            e.best.threshold
        )?;
        writeln!(
            out,
            "  …, 1 tried, highest kappa kept; optimistic, since t is chosen on the pairs it scores):"
        )?;
        stats_lines(out, "    ", &e.best.stats)?;
        let (t, x) = &e.best_exhaustive;
        let t = t.map_or_else(|| "above every score".to_string(), |t| format!("{t:.6}"));
        writeln!(
            out,
            "  best cut over distinct scores (the same search, but trying each similarity that"
        )?;
        writeln!(
            out,
            "  occurs as t instead of the 0.001 grid): t = {t}, accuracy {}, kappa {:.3}",
            pct(x.accuracy),
            x.kappa
        )?;
        writeln!(out, "  at fixed thresholds:")?;
        for at in &e.sweep {
            writeln!(
                out,
                "    t={:.2}  accuracy {:>7}  kappa {:6.3}  precision {:>7}  recall {:>7}",
                at.threshold,
                pct(at.stats.accuracy),
                at.stats.kappa,
                pct(at.stats.precision),
                pct(at.stats.recall)
            )?;
        }
        if let Some((name, accuracy, kappa)) = v.published {
            writeln!(out)?;
            writeln!(
                out,
                "GTED's published figure on {name} (free-cost TED over Lean-elaborated trees, its best"
            )?;
            writeln!(
                out,
                "threshold): accuracy {}, kappa {kappa:.3}. Here, by the same method: accuracy {}, kappa {:.3}",
                pct(accuracy),
                pct(e.best.stats.accuracy),
                e.best.stats.kappa
            )?;
            let diff = 100.0 * (e.best.stats.accuracy - accuracy);
            let word = if diff >= 0.0 { "above" } else { "below" };
            write!(out, "({:.2} points {word}", diff.abs())?;
            if let Some(d) = v.default {
                write!(
                    out,
                    "; at the default threshold: accuracy {}, kappa {:.3}",
                    pct(d.stats.accuracy),
                    d.stats.kappa
                )?;
            }
            writeln!(out, ").")?;
        }
    }
    if v.evaluation.is_none() && v.binary.is_none() {
        writeln!(out, "no labelled pair was scored: nothing to evaluate")?;
    }
    Ok(())
}
