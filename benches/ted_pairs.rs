//! TED over every tree pair of both GTED tree files, at unit cost and with free renaming.
//!
//! `cargo bench --bench ted_pairs` prints, per dataset, the time to read and parse the file
//! (once) and the median and minimum, over several runs, of computing every pair's distance:
//! from `&Tree`s through one reused `Workspace` (flattening included, like the Python `apted`
//! harness, which indexes its trees on each call), and from trees flattened once beforehand —
//! with the default `Algorithm::Auto` and with APTED and the left/right engine each forced.
//! Then worst-case shapes (zig-zag, complete binary) with each algorithm.
//! `-- --json` prints one JSON object instead, with every pair's distances, for
//! `scripts/compare_apted.py`; `-- --runs N` sets the number of runs (default 15).

#[path = "../tests/common/trees.rs"]
mod trees;

use lean_assess::distance::{Algorithm, CostModel, FlatTree, LabelInterner, Workspace};
use lean_assess::trees::Tree;
use serde::Deserialize;
use serde_json::json;
use std::io::Write;
use std::time::{Duration, Instant};
use trees::{flatten_pairs, zigzag};

const DATASETS: [&str; 2] = ["gted-minif2f", "gted-proofnet"];

#[derive(Deserialize)]
struct TreePair {
    id: String,
    ref_tree: Tree,
    cand_tree: Tree,
}

fn median_and_min(mut times: Vec<Duration>) -> (f64, f64) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    (ms(times[times.len() / 2]), ms(times[0]))
}

/// Times `run` `runs` times (after one warm-up run) and returns (median ms, min ms, last output).
fn time<T>(runs: usize, mut run: impl FnMut() -> T) -> (f64, f64, T) {
    let mut out = run();
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        out = std::hint::black_box(run());
        times.push(start.elapsed());
    }
    let (median, min) = median_and_min(times);
    (median, min, out)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let as_json = args.iter().any(|a| a == "--json");
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .map(|n| n.parse::<usize>())
        .transpose()?
        .unwrap_or(15)
        .max(1);
    let mut stdout = std::io::stdout().lock();
    let mut report = Vec::new();
    for name in DATASETS {
        let path = format!("{}/fixtures/bench/{name}.trees.jsonl", env!("CARGO_MANIFEST_DIR"));
        let load_start = Instant::now();
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        let pairs = text
            .lines()
            .enumerate()
            .map(|(i, line)| {
                serde_json::from_str::<TreePair>(line).map_err(|e| format!("{path}:{}: {e}", i + 1))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let load_ms = load_start.elapsed().as_secs_f64() * 1e3;

        let mut workspace = Workspace::new();
        let mut by_cost = serde_json::Map::new();
        let mut distances: Vec<[u32; 2]> = vec![[0, 0]; pairs.len()];
        for (k, (cost_name, costs)) in [
            ("unit", CostModel { free_rename: false }),
            ("freecost", CostModel { free_rename: true }),
        ]
        .into_iter()
        .enumerate()
        {
            // As the Python harness: the distance and both sizes, for every pair.
            let (median, min, ds) = time(runs, || {
                pairs
                    .iter()
                    .map(|p| {
                        let d = workspace.ted(&p.ref_tree, &p.cand_tree, costs);
                        std::hint::black_box((p.ref_tree.size(), p.cand_tree.size()));
                        d
                    })
                    .collect::<Vec<u32>>()
            });
            for (slot, d) in distances.iter_mut().zip(ds) {
                slot[k] = d;
            }
            let mut interner = LabelInterner::new();
            let flat_start = Instant::now();
            let flat =
                flatten_pairs(pairs.iter().map(|p| (&p.ref_tree, &p.cand_tree)), &mut interner);
            let flatten_ms = flat_start.elapsed().as_secs_f64() * 1e3;
            let (flat_median, flat_min, _) = time(runs, || {
                flat.iter().map(|(a, b)| workspace.ted_flat(a, b, costs)).sum::<u32>()
            });
            // The same with each algorithm forced, for comparison with `Auto`.
            let mut forced = |algorithm| {
                time(runs, || {
                    flat.iter()
                        .map(|(a, b)| {
                            workspace
                                .ted_flat_with(a, b, costs, algorithm, None)
                                .unwrap_or(u32::MAX)
                        })
                        .sum::<u32>()
                })
                .0
            };
            let apted_median = forced(Algorithm::Apted);
            let lr_median = forced(Algorithm::LeftRight);
            by_cost.insert(
                cost_name.into(),
                json!({
                    "median_ms": median, "min_ms": min,
                    "flatten_once_ms": flatten_ms,
                    "preflattened_median_ms": flat_median, "preflattened_min_ms": flat_min,
                    "preflattened_apted_median_ms": apted_median,
                    "preflattened_left_right_median_ms": lr_median,
                }),
            );
        }
        if !as_json {
            writeln!(
                stdout,
                "{name}: {} pairs, load+parse {load_ms:.2} ms (once), {runs} runs",
                pairs.len()
            )?;
            for (cost_name, t) in &by_cost {
                writeln!(
                    stdout,
                    "  {cost_name:>8}: all pairs median {:.3} ms (min {:.3}); preflattened median {:.3} ms (flattening once {:.3} ms); forced: APTED {:.3} ms, left/right {:.3} ms",
                    t["median_ms"].as_f64().unwrap_or(f64::NAN),
                    t["min_ms"].as_f64().unwrap_or(f64::NAN),
                    t["preflattened_median_ms"].as_f64().unwrap_or(f64::NAN),
                    t["flatten_once_ms"].as_f64().unwrap_or(f64::NAN),
                    t["preflattened_apted_median_ms"].as_f64().unwrap_or(f64::NAN),
                    t["preflattened_left_right_median_ms"].as_f64().unwrap_or(f64::NAN),
                )?;
            }
        }
        let per_pair: Vec<_> = pairs
            .iter()
            .zip(&distances)
            .map(|(p, d)| json!({"id": p.id, "unit": d[0], "freecost": d[1]}))
            .collect();
        report.push(json!({
            "dataset": name, "pairs": pairs.len(), "runs": runs, "load_ms": load_ms,
            "timings": by_cost, "distances": per_pair,
        }));
    }
    if as_json {
        writeln!(stdout, "{}", json!({ "datasets": report }))?;
    } else {
        worst_cases(&mut stdout, runs.min(5))?;
    }
    Ok(())
}

/// The zig-zag trees' side leaves: seven labels in turn.
fn side_label(i: usize) -> String {
    format!("l{}", i % 7)
}

/// A complete binary tree of the given depth.
fn full_binary(depth: usize) -> Tree {
    if depth == 0 {
        return Tree::leaf("a");
    }
    Tree::node(
        if depth.is_multiple_of(2) { "+" } else { "*" },
        vec![full_binary(depth - 1), full_binary(depth - 1)],
    )
}

fn worst_cases(out: &mut dyn Write, runs: usize) -> Result<(), Box<dyn std::error::Error>> {
    writeln!(out, "worst-case shapes, pre-flattened, unit cost, median of {runs} runs:")?;
    let cases = [
        ("zig-zag 201 vs zig-zag 201", zigzag(100, side_label), zigzag(100, side_label)),
        ("zig-zag 401 vs zig-zag 401", zigzag(200, side_label), zigzag(200, side_label)),
        ("full binary 255 vs 255", full_binary(7), full_binary(7)),
        ("full binary 511 vs 511", full_binary(8), full_binary(8)),
    ];
    let mut workspace = Workspace::new();
    for (name, a, b) in cases {
        let mut interner = LabelInterner::new();
        let (fa, fb) = (FlatTree::new(&a, &mut interner), FlatTree::new(&b, &mut interner));
        let costs = CostModel { free_rename: false };
        let mut line = format!("  {name:>28}:");
        for algorithm in [Algorithm::Auto, Algorithm::Apted, Algorithm::LeftRight] {
            let (median, _, d) = time(runs, || {
                workspace.ted_flat_with(&fa, &fb, costs, algorithm, None).unwrap_or(u32::MAX)
            });
            line += &format!(" {algorithm:?} {median:.2} ms (d = {d});");
        }
        writeln!(out, "{line}")?;
    }
    // A 1,001-node zig-zag pair, where Zhang–Shasha (left/right) was still
    // running after 120 s and APTED took 11 s. `Auto` must pick APTED here (no height cap sends
    // tall trees to the slow strategy); the left/right engine gets 10× APTED's time, then stops.
    // Only under `cargo bench` (which passes `--bench`): `cargo test --all-targets` runs this
    // file unoptimised, where it would take the better part of an hour.
    if !std::env::args().any(|a| a == "--bench") {
        writeln!(
            out,
            "  zig-zag 1001 vs zig-zag 1001: skipped (not under `cargo bench`; unoptimised it takes most of an hour)"
        )?;
        return Ok(());
    }
    let (a, b) = (zigzag(500, side_label), zigzag(500, side_label));
    let mut interner = LabelInterner::new();
    let (fa, fb) = (FlatTree::new(&a, &mut interner), FlatTree::new(&b, &mut interner));
    let costs = CostModel { free_rename: false };
    let started = Instant::now();
    let d = workspace.ted_flat_with(&fa, &fb, costs, Algorithm::Auto, None)?;
    let auto = started.elapsed();
    let started = Instant::now();
    let slow =
        workspace.ted_flat_with(&fa, &fb, costs, Algorithm::LeftRight, Some(started + auto * 10));
    let left_right = match slow {
        Ok(d) => format!("{:.2} s (d = {d})", started.elapsed().as_secs_f64()),
        Err(_) => format!(
            "still running after {:.2} s (10× Auto), stopped",
            started.elapsed().as_secs_f64()
        ),
    };
    writeln!(
        out,
        "  zig-zag 1001 vs zig-zag 1001: Auto chooses {:?}, {:.2} s (d = {d}); LeftRight {left_right}",
        Workspace::chosen_algorithm(&fa, &fb),
        auto.as_secs_f64()
    )?;
    Ok(())
}
