//! Run `transted-lite` over a GTED tree file (`fixtures/bench/*.trees.jsonl`, GTED's own trees)
//! or a dataset (`fixtures/bench/gted-*.jsonl`, statements parsed by our parser) and write one
//! prediction line `{"id", "score", "distance", "stop", "evaluated", "ms"}` per pair to stdout,
//! for `fixtures/bench/score.py`; the total time goes to stderr. Development aid beside
//! `lean-assess bench`: it can also run on GTED's trees and with another node budget.
//!
//! `cargo run --release --example transted_lite_trees -- FILE.jsonl [MAX_NODES] [--path ID]
//! [--both-sides] [--unit-cost]`

use lean_assess::metrics::transted_lite::{Config, TransTedLite};
use lean_assess::trees::parse::{parse_statement, Header};
use lean_assess::trees::Tree;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let file = args.get(1).ok_or_else(|| anyhow::anyhow!("usage: TREES.jsonl [MAX_NODES]"))?;
    let max_nodes = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(Config::default().max_nodes);
    let show = args.iter().position(|a| a == "--path").and_then(|i| args.get(i + 1));
    let metric = TransTedLite::new(Config {
        max_nodes,
        time_limit: Duration::from_secs(10),
        both_sides: args.iter().any(|a| a == "--both-sides"),
        free_rename: !args.iter().any(|a| a == "--unit-cost"),
        ..Config::default()
    });
    let mut pairs = Vec::new();
    for line in std::io::BufReader::new(std::fs::File::open(file)?).lines() {
        let v: serde_json::Value = serde_json::from_str(&line?)?;
        let id = v["id"].as_str().unwrap_or_default().to_string();
        let (r, c): (Tree, Tree) = if v.get("ref_tree").is_some() {
            (
                serde_json::from_value(v["ref_tree"].clone())?,
                serde_json::from_value(v["cand_tree"].clone())?,
            )
        } else {
            let parse = |side: &str| -> anyhow::Result<Tree> {
                let header = Header::parse(v[format!("{side}_header")].as_str().unwrap_or(""));
                let text = v[format!("{side}_statement")].as_str().unwrap_or("");
                Ok(parse_statement(text, &header)
                    .map_err(|e| anyhow::anyhow!("{id} {side}: {e}"))?
                    .tree)
            };
            (parse("ref")?, parse("cand")?)
        };
        pairs.push((id, r, c));
    }
    let mut out = std::io::stdout().lock();
    let start = Instant::now();
    let mut results = Vec::new();
    for (id, r, c) in &pairs {
        let t = Instant::now();
        let j = metric.judge_trees(r, c);
        results.push((id, j, t.elapsed()));
    }
    let total = start.elapsed();
    for (id, j, el) in &results {
        writeln!(
            out,
            "{}",
            serde_json::json!({"id": id, "score": j.similarity, "distance": j.distance,
                "stop": format!("{:?}", j.stop), "evaluated": j.evaluated,
                "ms": el.as_secs_f64() * 1e3})
        )?;
        if show.is_some_and(|s| s == *id) {
            for s in &j.path {
                writeln!(out, "  {:?} {} at {}", s.side, s.applied.rule, s.applied.at)?;
            }
        }
    }
    let mut err = std::io::stderr().lock();
    writeln!(err, "{} pairs in {:.3} s", pairs.len(), total.as_secs_f64())?;
    Ok(())
}
