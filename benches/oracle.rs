//! Oracle numbers against the stand-in: Lean round trips and document
//! versions per expanded TransTED search node, and node throughput, from the oracle's counters.
//!
//! The stand-in answers every goal query with a goal distinct per block (`distinctGoal`) and
//! every `rw?` code-action query with one "Try this" suggestion, so the search never closes and
//! runs until its node budget: each expansion is a `rw?` block + Table 1's 7 commands in one
//! version, with the previous node's suggestion block riding along (one version per node). A
//! second pair (`Type*` on both
//! sides, arity 1 by the stand-in's `standin/universes` rules) shows the universe probes riding
//! in the declaring version.
//!
//! Run: `cargo bench --bench oracle` (plain `main`, harness = false; prints a report).
//! `ORACLE_BENCH_NODES=N` sets the node budget (default 200).

#![allow(clippy::print_stdout)] // The report on stdout is this bench's output.

#[path = "../tests/common/mod.rs"]
mod common;

use lean_assess::lean::oracle::{Oracle, OracleConfig};
use lean_assess::metrics::lean_backed::LeanMetric;
use lean_assess::metrics::transted::{TransTed, TransTedConfig};
use lean_assess::metrics::Pair;
use lean_assess::trees::parse::{parse_statement, Header};
use serde_json::json;
use std::time::{Duration, Instant};

fn main() {
    let nodes: usize =
        std::env::var("ORACLE_BENCH_NODES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    runtime.block_on(run(nodes));
}

async fn run(nodes: usize) {
    let suggestion = json!({"title": "Try this: rw [Nat.add_comm]", "kind": "quickfix",
        "edit": {"documentChanges": [{"textDocument": {"version": 1, "uri": "file:///x"},
                 "edits": [{"range": {"start": {"line": 0, "character": 2}, "end": {"line": 0, "character": 40}},
                            "newText": "rw [Nat.add_comm]"}]}]}});
    let server = common::standin_server(&[
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals", "distinctGoal": true}),
        json!({"method": "textDocument/codeAction", "result": [suggestion]}),
        json!({"method": "standin/universes", "name": "_tt.S3._stmt", "arity": 1}),
        json!({"method": "standin/universes", "name": "_tt.S4._stmt", "arity": 1}),
    ])
    .await;
    let mut oracle = Oracle::new(server.client.clone(), OracleConfig::default());
    let reference =
        parse_statement("theorem a (a b c : ℕ) : a + b = c := by sorry", &Header::default())
            .expect("parses");
    let candidate =
        parse_statement("theorem b (a b c : ℕ) : c = b + a := by sorry", &Header::default())
            .expect("parses");
    let pair = Pair {
        reference: &reference,
        candidate: &candidate,
        reference_header: "import Mathlib\n",
        candidate_header: "import Mathlib\n",
    };
    let metric = TransTed {
        config: TransTedConfig {
            max_expansions: nodes,
            time_limit: Duration::from_secs(600),
            mathlib: None,
        },
    };
    let start = Instant::now();
    let j = metric.judge(&mut oracle, &pair).await.expect("judged");
    let elapsed = start.elapsed();
    let w = j.work;
    let per = |x: u64| x as f64 / w.expanded.max(1) as f64;
    println!("lean-assess oracle bench (stand-in; TransTED search until the node budget)");
    println!("  expanded nodes                {:>10}", w.expanded);
    println!("  search: versions / node       {:>10.2}", per(w.search.versions));
    println!("  search: round trips / node    {:>10.2}", per(w.search.round_trips));
    println!("  search: blocks / node         {:>10.2}", per(w.search.blocks));
    println!(
        "  whole pair: versions {} , round trips {} , blocks {} , reopens {}",
        w.total.versions, w.total.round_trips, w.total.blocks, w.total.reopens
    );
    println!(
        "  throughput                    {:>10.1} nodes/s  ({:.1} blocks/s, {:.2} s total)",
        w.expanded as f64 / elapsed.as_secs_f64(),
        w.total.blocks as f64 / elapsed.as_secs_f64(),
        elapsed.as_secs_f64()
    );
    println!("  result: distance {:?}, notes {:?}", j.report.distance, j.report.notes);

    // A `Type*` pair (arity 1 each, by the stand-in's `standin/universes` rules for the next two
    // hidden names): the universe probes ride in the declaring version.
    let typed = |s: &str| parse_statement(s, &Header::default()).expect("parses");
    let (reference, candidate) = (
        typed("theorem a {α : Type*} (s : Set α) : s ⊆ s := by sorry"),
        typed("theorem b {β : Type*} (t : Set β) : t ⊆ t := by sorry"),
    );
    let pair = Pair { reference: &reference, candidate: &candidate, ..pair };
    let metric = TransTed { config: TransTedConfig { max_expansions: 0, ..metric.config } };
    let before = oracle.counters().snapshot();
    let j = metric.judge(&mut oracle, &pair).await.expect("judged");
    let w = j.work.total;
    println!(
        "  Type* pair, no search: versions {} (declaration with 2 x 5 universe probes, stage 0), round trips {}",
        w.versions, w.round_trips
    );
    assert_eq!(oracle.counters().snapshot().since(&before), w);
    println!("  notes {:?}", j.report.notes);
}
