//! Prediction files: one JSON line per judged pair (`{"id", "score"}`, `{"id", "equivalent"}` or
//! `{"id", "error"}`, the format `fixtures/bench/score.py` reads, which ignores the rest: the
//! verdict, the metric and its cost model, and with k candidates the problem and the best
//! candidate), written by `bench --out`, read back to resume a Lean run, to merge shards and to
//! compare two models.
//!
//! Owns the line format and what one pair's outcome is; not how pairs are judged (the metrics,
//! the batch runner) nor how outcomes are evaluated (`crate::evaluation`, the CLI's report).

use crate::metrics::Verdict;
use anyhow::{bail, Context};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::Path;

/// What happened to one pair.
#[derive(Debug)]
pub enum Outcome {
    Judged(Verdict),
    Failed(String),
}

/// One prediction line read back.
pub struct Prediction {
    pub id: String,
    /// `None` when the line has none of `score`, `equivalent`, `error`.
    pub outcome: Option<Outcome>,
    /// The line says `"verdict": "equivalent"`.
    pub shown_equivalent: bool,
    /// The metric and cost model the line says it came from (older files have neither).
    pub metric: Option<String>,
    pub cost: Option<String>,
    /// The problem a candidate answers (files with k candidates per problem).
    pub problem: Option<String>,
    /// The line is its problem's best candidate.
    pub best: bool,
    /// The kind of evidence behind `"verdict": "equivalent"`.
    pub evidence: Option<String>,
}

/// Where a prediction came from: the metric and, for a metric with several, its cost model.
#[derive(Clone, Copy, Debug)]
pub struct Provenance<'a> {
    pub metric: &'a str,
    pub cost: Option<&'a str>,
}

/// One prediction line (as [`line_with`] without provenance). `verdict` (ignored by score.py)
/// is written on every judged line: `"equivalent"` or `"not shown"`.
pub fn line(id: &str, outcome: &Outcome, shown_equivalent: bool) -> Value {
    let verdict = if shown_equivalent { "equivalent" } else { "not shown" };
    match outcome {
        Outcome::Judged(Verdict::Score(s)) => json!({"id": id, "score": s, "verdict": verdict}),
        Outcome::Judged(Verdict::Equivalent(e)) => {
            json!({"id": id, "equivalent": e, "verdict": verdict})
        }
        Outcome::Failed(message) => json!({"id": id, "error": message}),
    }
}

/// One prediction line that records the metric and cost model it came from, so that `merge`
/// and `compare` need not be told.
pub fn line_with(
    id: &str,
    outcome: &Outcome,
    shown_equivalent: bool,
    provenance: &Provenance<'_>,
) -> Value {
    let mut value = line(id, outcome, shown_equivalent);
    value["metric"] = json!(provenance.metric);
    if let Some(cost) = provenance.cost {
        value["cost"] = json!(cost);
    }
    value
}

/// Parse line `number` (1-based) of `path`; `None` for a blank line. A line that is not JSON or
/// has no string `id` is an error naming `path:number`.
pub fn parse_line(path: &Path, number: usize, text: &str) -> anyhow::Result<Option<Prediction>> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let at = || format!("{}:{number}", path.display());
    let value: Value =
        serde_json::from_str(text).with_context(|| format!("{}: not a JSON prediction", at()))?;
    let Some(id) = value.get("id").and_then(Value::as_str) else {
        bail!("{}: prediction without a string id", at());
    };
    let outcome = if let Some(s) = value.get("score").and_then(Value::as_f64) {
        Some(Outcome::Judged(Verdict::Score(s)))
    } else if let Some(e) = value.get("equivalent").and_then(Value::as_bool) {
        Some(Outcome::Judged(Verdict::Equivalent(e)))
    } else {
        value.get("error").and_then(Value::as_str).map(|m| Outcome::Failed(m.to_string()))
    };
    let text_of = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_string);
    Ok(Some(Prediction {
        id: id.to_string(),
        outcome,
        shown_equivalent: value.get("verdict").and_then(Value::as_str) == Some("equivalent"),
        metric: text_of("metric"),
        cost: text_of("cost"),
        problem: text_of("problem"),
        best: value.get("best").and_then(Value::as_bool) == Some(true),
        evidence: text_of("evidence"),
    }))
}

/// Predictions already in `path` that need no new judgement (id → outcome), for a resumed run.
/// Every id with a `score` or `equivalent` is kept; an id whose last line is an error is judged
/// again (a crash or a timeout is usually what a resume is for); when an id occurs several
/// times, its last line counts. A missing file is an empty map; a malformed line is fatal (it
/// names the line).
pub fn read_done(path: &Path) -> anyhow::Result<HashMap<String, Outcome>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let mut done = HashMap::new();
    for (n, text) in text.lines().enumerate() {
        let Some(p) = parse_line(path, n + 1, text)? else {
            continue;
        };
        match p.outcome {
            Some(judged @ Outcome::Judged(_)) => {
                done.insert(p.id, judged);
            }
            _ => {
                done.remove(&p.id);
            }
        }
    }
    Ok(done)
}

/// What a Lean-backed prediction shows (its report is not kept, and a resumed run has only the
/// prediction): a Lean decision, or `transted` at similarity 1, i.e. distance 0, a goal Lean
/// closed.
pub fn lean_shown_equivalent(metric: &str, outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Judged(Verdict::Equivalent(e)) => *e,
        Outcome::Judged(Verdict::Score(s)) => metric == "transted" && *s >= 1.0,
        Outcome::Failed(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resume_keeps_judged_ids_and_retries_errors() {
        let dir = tempfile::tempdir().expect("dir");
        let p = dir.path().join("pred.jsonl");
        std::fs::write(
            &p,
            "{\"id\":\"a\",\"score\":0.5}\n{\"id\":\"b\",\"error\":\"crash\"}\n\
             {\"id\":\"c\",\"error\":\"x\"}\n{\"id\":\"c\",\"equivalent\":true}\n\
             {\"id\":\"a\",\"error\":\"later\"}\n{\"id\":\"d\",\"equivalent\":false}\n",
        )
        .expect("write");
        let done = read_done(&p).expect("read");
        let mut ids: Vec<&str> = done.keys().map(String::as_str).collect();
        ids.sort_unstable();
        assert_eq!(ids, ["c", "d"]);
        assert!(matches!(done.get("c"), Some(Outcome::Judged(Verdict::Equivalent(true)))));
        assert!(read_done(&dir.path().join("missing.jsonl")).expect("missing is empty").is_empty());
        std::fs::write(&p, "not json\n").expect("write");
        assert!(read_done(&p).unwrap_err().to_string().contains(":1:"));
    }

    #[test]
    fn a_line_written_reads_back_the_same() {
        let cases = [
            (Outcome::Judged(Verdict::Score(0.25)), true),
            (Outcome::Judged(Verdict::Score(0.5)), false),
            (Outcome::Judged(Verdict::Equivalent(true)), false),
            (Outcome::Failed("timeout".into()), false),
        ];
        for (outcome, shown) in cases {
            let text = line("x", &outcome, shown).to_string();
            let p = parse_line(Path::new("p.jsonl"), 1, &text).unwrap().unwrap();
            assert_eq!(p.id, "x");
            assert_eq!(format!("{:?}", p.outcome), format!("{:?}", Some(outcome)));
            assert_eq!(p.shown_equivalent, shown);
        }
        let e = parse_line(Path::new("p.jsonl"), 3, "{\"score\":1}").err().unwrap();
        assert_eq!(e.to_string(), "p.jsonl:3: prediction without a string id");
    }
}
