//! Score GTED's own operator trees (`fixtures/bench/*.trees.jsonl`) with metric `path` and write
//! predictions `{"id","score"}` for `fixtures/bench/score.py`.
//!
//! ```text
//! cargo run --release --example path_on_gted_trees -- fixtures/bench/gted-minif2f.trees.jsonl /tmp/pred.jsonl
//! python3 fixtures/bench/score.py fixtures/bench/gted-minif2f.jsonl /tmp/pred.jsonl
//! ```
//! With `--statements`, the input is a dataset file (`fixtures/bench/gted-*.jsonl`) and the trees
//! are our parser's, from `ref_statement`/`cand_statement` (pairs that fail to parse are listed
//! and left out, so `score.py` reports them missing).
//!
//! Options after the two paths: `--alpha A` (Eq. 5's α, default 5), `--matching-work N` (budget
//! of the exhaustive AND matching; 0 makes it the bounded search everywhere),
//! `--no-binder-types` (only propositional binders are hypotheses, as the paper's untyped logic),
//! `--rename R`, `--atom-weight W` (the lexical node similarity's constants, for ablations).

use anyhow::{bail, Context, Result};
use lean_assess::metrics::path::{LexicalSimilarity, PathSim};
use lean_assess::trees::parse::{parse_statement, Header};
use lean_assess::trees::Tree;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(input), Some(output)) = (args.first(), args.get(1)) else {
        bail!("usage: path_on_gted_trees TREES.jsonl PRED.jsonl [--alpha A] [--matching-work N] [--no-binder-types] [--statements] [--rename R] [--atom-weight W]");
    };
    let mut metric = PathSim::default();
    let mut statements = false;
    let mut lexical = LexicalSimilarity::default();
    let mut rest = args[2..].iter();
    while let Some(flag) = rest.next() {
        match flag.as_str() {
            "--alpha" => {
                let v = rest.next().context("--alpha needs a value")?;
                metric.scoring.alpha = v.parse().with_context(|| format!("--alpha {v}"))?;
            }
            "--no-binder-types" => metric.skeleton.binder_types = false,
            "--rename" | "--atom-weight" => {
                let v: f64 = rest
                    .next()
                    .with_context(|| format!("{flag} needs a value"))?
                    .parse()
                    .with_context(|| format!("{flag} value"))?;
                if flag == "--rename" {
                    lexical.rename = v;
                } else {
                    lexical.atom_weight = v;
                }
            }
            "--statements" => statements = true,
            "--matching-work" => {
                let v = rest.next().context("--matching-work needs a value")?;
                metric.scoring.max_matching_work =
                    v.parse().with_context(|| format!("--matching-work {v}"))?;
            }
            other => bail!("unknown option {other}"),
        }
    }
    let metric = metric.with_node_similarity(Arc::new(lexical));
    let text = std::fs::read_to_string(input).with_context(|| format!("reading {input}"))?;
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(output).with_context(|| format!("creating {output}"))?,
    );
    let start = Instant::now();
    let mut n = 0usize;
    let mut timings: Vec<(f64, String)> = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: serde_json::Value =
            serde_json::from_str(line).with_context(|| format!("{input}:{}", i + 1))?;
        let tree = |side: &str| -> Result<Tree> {
            if statements {
                let text = v[format!("{side}_statement")].as_str().unwrap_or_default();
                let header =
                    Header::parse(v[format!("{side}_header")].as_str().unwrap_or_default());
                let st = parse_statement(text, &header)
                    .with_context(|| format!("{input}:{}: {side}_statement", i + 1))?;
                Ok(st.tree)
            } else {
                serde_json::from_value(v[format!("{side}_tree")].clone())
                    .with_context(|| format!("{input}:{}: {side}_tree", i + 1))
            }
        };
        let (r, c) = match (tree("ref"), tree("cand")) {
            (Ok(r), Ok(c)) => (r, c),
            (Err(e), _) | (_, Err(e)) => {
                writeln!(std::io::stderr(), "not scored: {e:#}")?;
                continue;
            }
        };
        let t0 = Instant::now();
        let cmp = metric.compare(&r, &c);
        let score = cmp.comparison.similarity;
        timings.push((
            t0.elapsed().as_secs_f64() * 1e3,
            format!(
                "{} paths {}x{} groups {}x{} matchings {}",
                v["id"],
                cmp.reference.paths.len(),
                cmp.candidate.paths.len(),
                cmp.reference.and_groups,
                cmp.candidate.and_groups,
                cmp.comparison.evaluated
            ),
        ));
        let id = v["id"].as_str().with_context(|| format!("{input}:{}: id", i + 1))?;
        writeln!(out, "{}", serde_json::json!({ "id": id, "score": score }))?;
        n += 1;
    }
    out.flush()?;
    let mut err = std::io::stderr();
    timings.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (ms, what) in timings.iter().take(3) {
        writeln!(err, "slowest: {ms:.2} ms {what}")?;
    }
    writeln!(err, "{n} pairs scored in {:.1} ms", start.elapsed().as_secs_f64() * 1e3)?;
    Ok(())
}
