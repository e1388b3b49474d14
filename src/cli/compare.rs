//! `lean-assess compare A.jsonl B.jsonl [--json] [--html REPORT.html]`: two models' predictions
//! for the same problems side by side (two `bench --out` files).
//!
//! Owns pairing the two files by problem (the `problem` a prediction names, else its id; with k
//! candidates a problem is shown equivalent when any of its candidates is), the checks that they
//! hold the same problems, and the text and JSON of the comparison: the totals (both, only A,
//! only B, neither) and every problem on which the two disagree. Reading prediction lines is
//! `predictions`'; the page is `report::compare`'s, drawn from the `--json` document.

use super::Status;
use crate::metrics::Verdict;
use crate::predictions::{self, Outcome};
use anyhow::{bail, Context};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The first model's predictions (`bench --out`).
    #[arg(value_name = "A.jsonl")]
    a: PathBuf,
    /// The second model's predictions, for the same problems.
    #[arg(value_name = "B.jsonl")]
    b: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Also write a self-contained HTML page of the comparison.
    #[arg(long, value_name = "REPORT.html")]
    html: Option<PathBuf>,
}

/// One problem in one file: any candidate shown equivalent, the best similarity, and how many
/// candidates it has and how many failed.
#[derive(Clone, Debug, Default)]
struct ProblemResult {
    shown: bool,
    evidence: Option<String>,
    best_similarity: Option<f64>,
    candidates: usize,
    failed: usize,
    first_error: Option<String>,
}

impl ProblemResult {
    fn verdict(&self) -> &'static str {
        if self.shown {
            "equivalent"
        } else if self.failed == self.candidates {
            "failed"
        } else {
            "not shown"
        }
    }

    fn to_json(&self) -> Value {
        json!({
            "verdict": self.verdict(),
            "evidence": self.evidence,
            "similarity": self.best_similarity,
            "candidates": self.candidates,
            "failed": self.failed,
            "error": self.first_error,
        })
    }

    fn describe(&self) -> String {
        let mut text = self.verdict().to_string();
        if let Some(e) = &self.evidence {
            text.push_str(&format!(" ({e})"));
        }
        if let Some(s) = self.best_similarity {
            text.push_str(&format!(", similarity {s:.4}"));
        }
        if self.candidates > 1 {
            text.push_str(&format!(" [best of {}]", self.candidates));
        }
        if let (Some(e), true) = (&self.first_error, self.failed == self.candidates) {
            text.push_str(&format!(": {}", e.lines().next().unwrap_or_default()));
        }
        text
    }
}

/// One file read: problems in file order, and the metric its lines record.
struct Side {
    file: PathBuf,
    metric: Option<String>,
    order: Vec<String>,
    problems: HashMap<String, ProblemResult>,
}

fn read_side(path: &Path) -> anyhow::Result<Side> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    // A later line for an id replaces an earlier one (a resumed run appends its retries).
    let mut latest: Vec<predictions::Prediction> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut metric: Option<(String, usize)> = None;
    for (n, line) in text.lines().enumerate() {
        let Some(p) = predictions::parse_line(path, n + 1, line)? else {
            continue;
        };
        if p.outcome.is_none() {
            bail!(
                "{}:{}: prediction without \"score\", \"equivalent\" or \"error\"",
                path.display(),
                n + 1
            );
        }
        if let Some(m) = &p.metric {
            match &metric {
                Some((first, line)) if first != m => bail!(
                    "{}: line {line} says metric '{first}', line {} says '{m}': one file, one run",
                    path.display(),
                    n + 1
                ),
                Some(_) => {}
                None => metric = Some((m.clone(), n + 1)),
            }
        }
        match index.get(&p.id) {
            Some(&i) => latest[i] = p,
            None => {
                index.insert(p.id.clone(), latest.len());
                latest.push(p);
            }
        }
    }
    if latest.is_empty() {
        bail!("{}: no predictions (the file is empty)", path.display());
    }
    let mut order = Vec::new();
    let mut problems: HashMap<String, ProblemResult> = HashMap::new();
    for p in latest {
        let key = p.problem.clone().unwrap_or_else(|| p.id.clone());
        let entry = problems.entry(key.clone()).or_insert_with(|| {
            order.push(key);
            ProblemResult::default()
        });
        entry.candidates += 1;
        if p.shown_equivalent && !entry.shown {
            entry.shown = true;
            entry.evidence = p.evidence.clone();
        }
        match p.outcome {
            Some(Outcome::Judged(Verdict::Score(s))) => {
                entry.best_similarity = Some(entry.best_similarity.map_or(s, |b| b.max(s)));
            }
            Some(Outcome::Judged(Verdict::Equivalent(e))) => entry.shown |= e,
            Some(Outcome::Failed(m)) => {
                entry.failed += 1;
                entry.first_error.get_or_insert(m);
            }
            None => {}
        }
    }
    Ok(Side { file: path.to_owned(), metric: metric.map(|(m, _)| m), order, problems })
}

/// Up to this many ids in a message about problems one file lacks.
const IDS_NAMED: usize = 5;

/// The comparison as the `--json` document (also what the HTML page is drawn from).
fn comparison(a: &Side, b: &Side) -> anyhow::Result<Value> {
    let only_in = |x: &Side, y: &Side| -> Vec<String> {
        x.order.iter().filter(|p| !y.problems.contains_key(*p)).cloned().collect()
    };
    let (a_extra, b_extra) = (only_in(a, b), only_in(b, a));
    if !a_extra.is_empty() || !b_extra.is_empty() {
        let name = |ids: &[String]| {
            ids.iter().take(IDS_NAMED).map(|i| format!("'{i}'")).collect::<Vec<_>>().join(", ")
        };
        let mut parts = Vec::new();
        if !a_extra.is_empty() {
            parts.push(format!(
                "{} problem(s) only in {} (first: {})",
                a_extra.len(),
                a.file.display(),
                name(&a_extra)
            ));
        }
        if !b_extra.is_empty() {
            parts.push(format!(
                "{} problem(s) only in {} (first: {})",
                b_extra.len(),
                b.file.display(),
                name(&b_extra)
            ));
        }
        bail!("the two files are not predictions for the same problems: {}", parts.join("; "));
    }
    let (mut both, mut neither) = (0usize, 0usize);
    let (mut a_only, mut b_only) = (Vec::new(), Vec::new());
    for problem in &a.order {
        let (x, y) = (&a.problems[problem], &b.problems[problem]);
        let row = || json!({"problem": problem, "a": x.to_json(), "b": y.to_json()});
        match (x.shown, y.shown) {
            (true, true) => both += 1,
            (false, false) => neither += 1,
            (true, false) => a_only.push(row()),
            (false, true) => b_only.push(row()),
        }
    }
    let side = |s: &Side| {
        let shown = s.problems.values().filter(|p| p.shown).count();
        let failed = s.problems.values().filter(|p| p.failed == p.candidates).count();
        let k = s.problems.values().map(|p| p.candidates).max().unwrap_or(0);
        json!({
            "file": s.file.display().to_string(),
            "metric": s.metric,
            "shown_equivalent": shown,
            "failed": failed,
            "candidates_max": k,
        })
    };
    Ok(json!({
        "a": side(a),
        "b": side(b),
        "problems": a.order.len(),
        "both": both,
        "neither": neither,
        "a_only_count": a_only.len(),
        "b_only_count": b_only.len(),
        "a_only": a_only,
        "b_only": b_only,
    }))
}

pub fn run(args: Args, out: &mut dyn Write, _err: &mut dyn Write) -> anyhow::Result<Status> {
    let a = read_side(&args.a)?;
    let b = read_side(&args.b)?;
    let doc = comparison(&a, &b)?;
    if let Some(path) = &args.html {
        crate::report::compare::write_html(path, &doc)?;
    }
    if args.json {
        let text = serde_json::to_string_pretty(&doc).context("BUG: JSON values serialize")?;
        writeln!(out, "{text}")?;
    } else {
        write_text(&a, &b, &doc, out)?;
    }
    Ok(Status::Success)
}

fn write_text(a: &Side, b: &Side, doc: &Value, out: &mut dyn Write) -> anyhow::Result<()> {
    let n = doc["problems"].as_u64().unwrap_or(0);
    let pct = |x: u64| format!("{:.2}%", 100.0 * x as f64 / n.max(1) as f64);
    for (tag, side, s) in [("A", a, &doc["a"]), ("B", b, &doc["b"])] {
        let metric = side.metric.as_deref().unwrap_or("metric not recorded");
        let shown = s["shown_equivalent"].as_u64().unwrap_or(0);
        let k = s["candidates_max"].as_u64().unwrap_or(1);
        let per = if k > 1 { format!(", any of up to {k} candidates") } else { String::new() };
        writeln!(
            out,
            "{tag}: {} ({metric}): shown equivalent {shown} of {n} problems ({}{per})",
            side.file.display(),
            pct(shown)
        )?;
    }
    let count = |key: &str| doc[key].as_u64().unwrap_or(0);
    writeln!(
        out,
        "both {}, A only {}, B only {}, neither {} (of {n} problems)",
        count("both"),
        count("a_only_count"),
        count("b_only_count"),
        count("neither")
    )?;
    for (key, title) in [
        ("a_only", "Shown equivalent by A, not by B"),
        ("b_only", "Shown equivalent by B, not by A"),
    ] {
        let rows = doc[key].as_array().map(Vec::as_slice).unwrap_or_default();
        writeln!(out)?;
        writeln!(out, "{title} ({}):", rows.len())?;
        if rows.is_empty() {
            writeln!(out, "  none")?;
        }
        for row in rows {
            let problem = row["problem"].as_str().unwrap_or_default();
            let (x, y) = (&a.problems[problem], &b.problems[problem]);
            writeln!(out, "  {problem}")?;
            writeln!(out, "    A: {}", x.describe())?;
            writeln!(out, "    B: {}", y.describe())?;
        }
    }
    if a.metric != b.metric {
        writeln!(out)?;
        writeln!(
            out,
            "note: the two files come from different metrics ({} and {}): a disagreement may be \
             the metrics', not the models'",
            a.metric.as_deref().unwrap_or("not recorded"),
            b.metric.as_deref().unwrap_or("not recorded")
        )?;
    }
    Ok(())
}
