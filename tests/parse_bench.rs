//! Every statement of the bundled GTED datasets parses: `ref_statement`, `cand_statement` and the
//! Lean-printed `*_hover_statement` forms (the editor feeds elaborated text through the same
//! parser). Also the timing of parsing all of them (`--ignored`).

use lean_assess::trees::parse::{parse_statement, Header};
use lean_assess::trees::Tree;
use std::time::Instant;

const DATASETS: &[&str] = &["gted-minif2f", "gted-proofnet"];

/// Statements whose text in the data is cut short, with the reason. They must still parse, but may
/// contain unparsed nodes.
const TRUNCATED_IN_DATA: &[(&str, &str, &str)] = &[(
    "gted-proofnet/exercise_1_17",
    "ref_statement",
    "a `-- R^n` comment swallows the conclusion and `:= by sorry`: the conclusion is missing",
)];

struct Item {
    id: String,
    field: &'static str,
    header: String,
    text: String,
}

fn items(fields: &[&'static str]) -> Vec<Item> {
    let mut out = Vec::new();
    for ds in DATASETS {
        let path = format!("{}/fixtures/bench/{ds}.jsonl", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("fixture dataset is readable");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).expect("fixture line is JSON");
            let id = v["id"].as_str().unwrap_or_default().to_string();
            for &field in fields {
                let side = if field.starts_with("ref") {
                    "ref"
                } else {
                    "cand"
                };
                if let Some(s) = v[field].as_str() {
                    out.push(Item {
                        id: id.clone(),
                        field,
                        header: v[format!("{side}_header")]
                            .as_str()
                            .unwrap_or("")
                            .to_string(),
                        text: s.to_string(),
                    });
                }
            }
        }
    }
    out
}

fn check(fields: &[&'static str], min_items: usize) {
    let all = items(fields);
    assert!(
        all.len() >= min_items,
        "only {} statements found",
        all.len()
    );
    let mut failures = Vec::new();
    let mut with_unparsed = Vec::new();
    for it in &all {
        let known = TRUNCATED_IN_DATA
            .iter()
            .find(|(id, f, _)| *id == it.id && *f == it.field);
        match parse_statement(&it.text, &Header::parse(&it.header)) {
            Err(e) => failures.push(format!("{} {}: {e}\n    {}", it.id, it.field, it.text)),
            Ok(st) => {
                check_spans(&st.tree, it.text.len());
                assert_eq!(st.tree.label, "theorem");
                if !st.unparsed.is_empty() && known.is_none() {
                    let parts: Vec<String> = st
                        .unparsed
                        .iter()
                        .map(|s| format!("`{}`", &it.text[s.start as usize..s.end as usize]))
                        .collect();
                    with_unparsed.push(format!(
                        "{} {}: unparsed {}\n    {}",
                        it.id,
                        it.field,
                        parts.join(", "),
                        it.text
                    ));
                }
            }
        }
    }
    let report = format!(
        "{} statements; {} errors, {} with unparsed parts\n{}\n{}",
        all.len(),
        failures.len(),
        with_unparsed.len(),
        failures.join("\n"),
        with_unparsed.join("\n")
    );
    assert!(failures.is_empty() && with_unparsed.is_empty(), "{report}");
}

fn check_spans(t: &Tree, len: usize) {
    let s = t.span.expect("every node has a span");
    assert!(
        s.start <= s.end && s.end as usize <= len,
        "span {s:?} out of 0..{len}"
    );
    for c in &t.children {
        check_spans(c, len);
    }
}

#[test]
fn every_written_statement_parses() {
    check(&["ref_statement", "cand_statement"], 596);
}

#[test]
fn every_hover_statement_parses() {
    check(&["ref_hover_statement", "cand_hover_statement"], 596);
}

#[test]
fn every_reorganized_hover_statement_parses() {
    check(
        &[
            "ref_reorganized_hover_statement",
            "cand_reorganized_hover_statement",
        ],
        596,
    );
}

#[test]
fn the_statement_truncated_by_a_comment_has_a_missing_conclusion() {
    let all = items(&["ref_statement"]);
    let it = all
        .iter()
        .find(|i| i.id == "gted-proofnet/exercise_1_17")
        .expect("fixture has exercise_1_17");
    let st = parse_statement(&it.text, &Header::parse(&it.header)).unwrap();
    let sig = &st.tree.children[0];
    let conclusion = sig.children.last().unwrap();
    assert!(conclusion.unparsed && conclusion.label == "sorry");
    assert_eq!(st.unparsed.len(), 1);
    // The three binders n, x, y are still there.
    assert_eq!(sig.children.len(), 4);
}

/// `cargo test --release --test parse_bench -- --ignored --nocapture`
#[test]
#[ignore]
fn time_to_parse_all_statements() {
    let all = items(&["ref_statement", "cand_statement"]);
    let headers: Vec<Header> = all.iter().map(|i| Header::parse(&i.header)).collect();
    let mut best = f64::MAX;
    for _ in 0..20 {
        let t0 = Instant::now();
        let mut nodes = 0;
        for (it, h) in all.iter().zip(&headers) {
            if let Ok(st) = parse_statement(&it.text, h) {
                nodes += st.tree.size();
            }
        }
        best = best.min(t0.elapsed().as_secs_f64());
        assert!(nodes > 0);
    }
    let msg = format!(
        "parsed {} statements in {:.3} ms (best of 20)\n",
        all.len(),
        best * 1e3
    );
    std::io::Write::write_all(&mut std::io::stdout(), msg.as_bytes()).unwrap();
}
