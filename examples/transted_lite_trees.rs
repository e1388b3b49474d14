//! Run `transted-lite` over a GTED tree file (`fixtures/bench/*.trees.jsonl`) and write one
//! prediction line `{"id", "score", "distance", "stop", "evaluated"}` per pair to stdout, for
//! `fixtures/bench/score.py`. Development aid until `lean-assess bench` parses statements:
//! it measures the rules and the search on GTED's own trees.
//!
//! `cargo run --release --example transted_lite_trees -- TREES.jsonl [MAX_NODES] [--path ID]`

use lean_assess::metrics::transted_lite::{Config, TransTedLite};
use lean_assess::trees::Tree;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let file = args.get(1).ok_or_else(|| anyhow::anyhow!("usage: TREES.jsonl [MAX_NODES]"))?;
    let max_nodes = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let show = args.iter().position(|a| a == "--path").and_then(|i| args.get(i + 1));
    let metric = TransTedLite::new(Config {
        max_nodes,
        time_limit: Duration::from_secs(10),
    });
    let mut pairs = Vec::new();
    for line in std::io::BufReader::new(std::fs::File::open(file)?).lines() {
        let v: serde_json::Value = serde_json::from_str(&line?)?;
        let id = v["id"].as_str().unwrap_or_default().to_string();
        let r: Tree = serde_json::from_value(v["ref_tree"].clone())?;
        let c: Tree = serde_json::from_value(v["cand_tree"].clone())?;
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
