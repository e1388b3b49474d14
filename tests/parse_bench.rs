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
                let side = if field.starts_with("ref") { "ref" } else { "cand" };
                if let Some(s) = v[field].as_str() {
                    out.push(Item {
                        id: id.clone(),
                        field,
                        header: v[format!("{side}_header")].as_str().unwrap_or("").to_string(),
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
    assert!(all.len() >= min_items, "only {} statements found", all.len());
    let mut failures = Vec::new();
    let mut with_unparsed = Vec::new();
    for it in &all {
        let known = TRUNCATED_IN_DATA.iter().find(|(id, f, _)| *id == it.id && *f == it.field);
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
    assert!(s.start <= s.end && s.end as usize <= len, "span {s:?} out of 0..{len}");
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
    check(&["ref_reorganized_hover_statement", "cand_reorganized_hover_statement"], 596);
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
#[ignore = "a timing measure: run by hand in release (the command above)"]
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
    let msg = format!("parsed {} statements in {:.3} ms (best of 20)\n", all.len(), best * 1e3);
    std::io::Write::write_all(&mut std::io::stdout(), msg.as_bytes()).unwrap();
}

/// A tree as an s-expression: labels quoted, `*` after a free variable, `#` after a free
/// hypothesis, `!` after an unparsed span.
fn sexp(t: &Tree, out: &mut String) {
    let flags = [(t.variable_freecost, "*"), (t.hypothesis_freecost, "#"), (t.unparsed, "!")];
    let flag = flags.iter().find(|(on, _)| *on).map_or("", |(_, f)| *f);
    if t.children.is_empty() {
        out.push_str(&format!("'{}'{flag}", t.label));
        return;
    }
    out.push_str(&format!("('{}'{flag}", t.label));
    for c in &t.children {
        out.push(' ');
        sexp(c, out);
    }
    out.push(')');
}

/// Writes every written statement's tree as an s-expression to `$LEAN_ASSESS_DUMP` (a review aid).
#[test]
#[ignore = "a review aid, run by hand with LEAN_ASSESS_DUMP=FILE"]
fn dump_trees() {
    let path = std::env::var("LEAN_ASSESS_DUMP")
        .expect("LEAN_ASSESS_DUMP=FILE names where to write the trees");
    let mut out = String::new();
    let fields: &[&'static str] = if std::env::var("LEAN_ASSESS_DUMP_HOVER").is_ok() {
        &["ref_hover_statement", "cand_hover_statement"]
    } else {
        &["ref_statement", "cand_statement"]
    };
    for it in items(fields) {
        out.push_str(&format!("{} {}\n{}\n", it.id, it.field, it.text));
        match parse_statement(&it.text, &Header::default()) {
            Ok(st) => sexp(&st.tree, &mut out),
            Err(e) => out.push_str(&format!("ERROR {e}")),
        }
        out.push_str("\n\n");
    }
    std::fs::write(path, out).unwrap();
}

/// Each side of each pair of the bench datasets: its id, the side (`ref` or `cand`), Lean's
/// reorganized hover text, our tree of that text and GTED's tree of it.
fn for_each_gted_tree(mut visit: impl FnMut(&str, &'static str, &str, &Tree, &Tree)) {
    for ds in DATASETS {
        let p = format!("{}/fixtures/bench/{ds}.jsonl", env!("CARGO_MANIFEST_DIR"));
        let t = format!("{}/fixtures/bench/{ds}.trees.jsonl", env!("CARGO_MANIFEST_DIR"));
        let pairs = std::fs::read_to_string(p).unwrap();
        let trees = std::fs::read_to_string(t).unwrap();
        for (pl, tl) in pairs.lines().zip(trees.lines()) {
            let pv: serde_json::Value = serde_json::from_str(pl).unwrap();
            let tv: serde_json::Value = serde_json::from_str(tl).unwrap();
            let id = pv["id"].to_string();
            for side in ["ref", "cand"] {
                let text = pv[format!("{side}_reorganized_hover_statement")].as_str().unwrap();
                let theirs: Tree =
                    serde_json::from_value(tv[format!("{side}_tree")].clone()).unwrap();
                let ours = parse_statement(text, &Header::default()).unwrap().tree;
                visit(&id, side, text, &ours, &theirs);
            }
        }
    }
}

/// Review aid: how far our trees of Lean's reorganized hover text are from GTED's trees of the same
/// text (unit-cost TED), with the largest differences.
/// `cargo test --test parse_bench gted_tree_distance -- --ignored --nocapture`
#[test]
#[ignore = "a review aid: prints a report, run by hand"]
fn gted_tree_distance() {
    use lean_assess::distance::{ted, CostModel};
    let mut rows = Vec::new();
    for_each_gted_tree(|id, side, text, ours, theirs| {
        let d = ted(ours, theirs, CostModel::default());
        let mut both = String::new();
        sexp(ours, &mut both);
        both.push('\n');
        sexp(theirs, &mut both);
        rows.push((d, ours.size(), theirs.size(), id.to_string(), side, format!("{text}\n{both}")));
    });
    let total: u32 = rows.iter().map(|r| r.0).sum();
    let exact = rows.iter().filter(|r| r.0 == 0).count();
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut msg = format!(
        "{} trees: {} identical to GTED's, mean unit TED {:.2}\n",
        rows.len(),
        exact,
        total as f64 / rows.len() as f64
    );
    let shown: Vec<_> = if std::env::var("LEAN_ASSESS_SMALL").is_ok() {
        rows.iter().filter(|r| r.0 > 0 && r.0 <= 6).collect()
    } else {
        rows.iter().take(25).collect()
    };
    for r in shown {
        msg.push_str(&format!("{} (ours {} / gted {}) {} {}: {}\n", r.0, r.1, r.2, r.3, r.4, r.5));
    }
    std::io::Write::write_all(&mut std::io::stdout(), msg.as_bytes()).unwrap();
}

/// Snapshot trees: each `fixtures/parse/snapshots/NAME.lean` statement, rendered with
/// `render::to_text`, must equal `NAME.tree.txt`. `LEAN_ASSESS_UPDATE_SNAPSHOTS=1` rewrites them
/// (review the diff before committing).
#[test]
fn snapshot_trees_match() {
    use lean_assess::trees::render::to_text;
    let dir = format!("{}/fixtures/parse/snapshots", env!("CARGO_MANIFEST_DIR"));
    let update = std::env::var("LEAN_ASSESS_UPDATE_SNAPSHOTS").is_ok();
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("snapshot directory exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "lean"))
        .collect();
    entries.sort();
    for path in entries {
        let text = std::fs::read_to_string(&path).unwrap();
        let st = parse_statement(&text, &Header::default()).unwrap();
        let mut got = to_text(&st.tree);
        for s in &st.unparsed {
            got.push_str(&format!(
                "unparsed {}..{}: {:?}\n",
                s.start,
                s.end,
                &text[s.start as usize..s.end as usize]
            ));
        }
        let expected_path = path.with_extension("tree.txt");
        if update {
            std::fs::write(&expected_path, &got).unwrap();
        }
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|_| panic!("missing {}", expected_path.display()));
        assert_eq!(got, expected, "snapshot {} differs", path.display());
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} snapshots");
}

/// Review aid: theorem binders whose hypothesis/variable flag differs from GTED's (on the same
/// reorganized hover text). `cargo test --test parse_bench binder_flags -- --ignored --nocapture`
#[test]
#[ignore = "a review aid: prints a report, run by hand"]
fn binder_flags_against_gted() {
    let mut agree = 0;
    let mut msg = String::new();
    for_each_gted_tree(|id, side, _, ours, theirs| {
        let flags = |t: &Tree| -> Vec<(String, bool, bool)> {
            t.children
                .first()
                .map(|sig| {
                    sig.children
                        .iter()
                        .filter(|b| b.label == " _ : _ " && b.children.len() == 2)
                        .map(|b| {
                            let n = &b.children[0];
                            (n.label.clone(), n.variable_freecost, n.hypothesis_freecost)
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let theirs_f = flags(theirs);
        for o in flags(ours) {
            if let Some(t) = theirs_f.iter().find(|t| t.0 == o.0) {
                if (t.1, t.2) == (o.1, o.2) {
                    agree += 1;
                } else {
                    msg.push_str(&format!(
                        "{id} {side} {}: ours var={} hyp={}, gted var={} hyp={}\n",
                        o.0, o.1, o.2, t.1, t.2
                    ));
                }
            }
        }
    });
    msg.push_str(&format!("{agree} binders agree\n"));
    std::io::Write::write_all(&mut std::io::stdout(), msg.as_bytes()).unwrap();
}

/// A Mathlib-style file: every declaration is found by the scan and parses with nothing left
/// unparsed; spans point into the file.
#[test]
fn mathlib_style_file_parses_completely() {
    use lean_assess::trees::parse::{find_declarations, parse_declaration_in};
    let path = format!("{}/fixtures/parse/mathlib_style.lean", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::read_to_string(path).unwrap();
    let header = Header::parse(&file);
    assert!(header.opens.contains(&"Real".to_string()));
    let decls = find_declarations(&file);
    assert_eq!(decls.len(), 25, "{:?}", decls.iter().map(|d| &d.name).collect::<Vec<_>>());
    let mut problems = Vec::new();
    for d in &decls {
        match parse_declaration_in(&file, d, &header) {
            Ok(st) => {
                check_spans(&st.tree, file.len());
                for s in &st.unparsed {
                    problems.push(format!(
                        "{:?}: unparsed `{}`",
                        d.name,
                        &file[s.start as usize..s.end as usize]
                    ));
                }
            }
            Err(e) => problems.push(format!("{:?}: {e}", d.name)),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
