//! LSP JSON for what the features show: code lenses, the hover section, code actions, our
//! diagnostics. Pure functions of a [`DocAnalysis`] and the [`Document`] positions; no state, no
//! sending (that is `mod.rs`).
//!
//! Shapes: LSP 3.17 `CodeLens {range, command}`, `Command {title, command, arguments}`,
//! `CodeAction {title, kind, command}`, `Diagnostic {range, severity, source, message}`; the hover
//! keeps Lean's `{range, contents: {kind: "markdown", value}}` (lean-protocol README §9,
//! `examples/hover.*`) and appends `\n\n***\n\n` and our section to `value`.

use super::jobs::{DocAnalysis, MetricState, TheoremView};
use crate::documents::Document;
use serde_json::{json, Value};

/// Our command names, made unique per process by the prefix (two proxies in one editor).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commands {
    pub show_details: String,
    pub show_differences: String,
    pub show_proof_path: String,
    pub use_as_reference: String,
}

impl Commands {
    pub fn new(prefix: &str) -> Commands {
        Commands {
            show_details: format!("{prefix}.showDetails"),
            show_differences: format!("{prefix}.showDifferences"),
            show_proof_path: format!("{prefix}.showProofPath"),
            use_as_reference: format!("{prefix}.useAsReference"),
        }
    }

    pub fn all(&self) -> [&str; 4] {
        [
            &self.show_details,
            &self.show_differences,
            &self.show_proof_path,
            &self.use_as_reference,
        ]
    }
}

/// The lens title: each metric's value or state, e.g. `ted 0.24 · transted-lite running…`.
pub fn lens_title(t: &TheoremView) -> String {
    let parts: Vec<String> = t
        .metrics
        .iter()
        .map(|(m, s)| format!("{m} {}", s.short()))
        .collect();
    let mut title = format!("lean-assess: {}", parts.join(" · "));
    if t.problem.is_some() {
        title.push_str(" (problem: see hover)");
    }
    title
}

/// Code lenses for every theorem with a reference, above the declaration's first line.
pub fn lenses(a: &DocAnalysis, doc: &Document, cmds: &Commands) -> Value {
    let out: Vec<Value> = a
        .theorems
        .iter()
        .map(|t| {
            let p = doc.position_of(t.decl.start);
            json!({
                "range": {"start": p, "end": p},
                "command": {
                    "title": lens_title(t),
                    "command": cmds.show_details,
                    "arguments": [a.uri, t.name()],
                },
            })
        })
        .collect();
    Value::Array(out)
}

fn fmt_ms(d: std::time::Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{ms:.0} ms")
    }
}

/// Our hover section (markdown) for one theorem.
pub fn hover_section(t: &TheoremView) -> String {
    let mut s = String::from("**lean-assess**");
    if let Some(r) = &t.reference {
        s.push_str(&format!(
            " — reference `{}` ({})",
            r.name.as_deref().unwrap_or("?"),
            r.origin
        ));
    }
    s.push_str("\n\n| metric | value | state | time |\n|---|---|---|---|\n");
    for (m, st) in &t.metrics {
        let (value, time) = match st {
            MetricState::Done(r) => (st.short(), fmt_ms(r.elapsed)),
            MetricState::TimedOut(d) => ("—".into(), format!("> {}", fmt_ms(*d))),
            _ => ("—".into(), String::new()),
        };
        s.push_str(&format!("| {m} | {value} | {} | {time} |\n", st.name()));
    }
    for (m, st) in &t.metrics {
        match st {
            MetricState::Failed(why) | MetricState::Unavailable(why) => {
                s.push_str(&format!("\n{m}: {why}\n"))
            }
            _ => {}
        }
    }
    if let Some(p) = &t.problem {
        s.push_str(&format!("\nProblem: {p}\n"));
    }
    if !t.differences.is_empty() {
        s.push_str(&format!(
            "\nMain differences (TED edit mapping{}):\n",
            t.distance
                .map(|d| format!(", distance {d}"))
                .unwrap_or_default()
        ));
        for d in &t.differences {
            s.push_str(&format!("- {}\n", d.message));
        }
    } else if t.distance == Some(0) {
        s.push_str("\nSame operator tree as the reference.\n");
    }
    if let (Some(r), Some(c)) = (
        t.reference.as_ref().and_then(|r| r.statement.as_ref()),
        &t.candidate,
    ) {
        s.push_str(&format!(
            "\nTree sizes: reference {}, candidate {} ({}).\n",
            r.tree.size(),
            c.tree.size(),
            if t.elaborated {
                "trees elaborated by Lean"
            } else {
                "trees from the source text"
            }
        ));
    }
    if let Some(r) = &t.reference {
        s.push_str(&format!(
            "\nReference statement:\n```lean\n{}\n```\n",
            r.text.trim()
        ));
    }
    s
}

/// Lean's hover result with our section appended after a `***` rule (Lean's fields kept).
pub fn augment_hover(lean: Value, ours: &str, range: Value) -> Value {
    match lean {
        Value::Null => json!({"contents": {"kind": "markdown", "value": ours}, "range": range}),
        Value::Object(mut o) => {
            let joined = |v: &str| {
                if v.trim().is_empty() {
                    ours.to_string()
                } else {
                    format!("{v}\n\n***\n\n{ours}")
                }
            };
            let contents = o.remove("contents").unwrap_or(Value::Null);
            let new = match contents {
                Value::Object(mut c) if c.get("value").is_some_and(Value::is_string) => {
                    let v = c["value"].as_str().unwrap_or("").to_string();
                    c.insert("value".into(), Value::String(joined(&v)));
                    Value::Object(c)
                }
                Value::String(v) => Value::String(joined(&v)),
                Value::Array(mut items) => {
                    items.push(Value::String(format!("***\n\n{ours}")));
                    Value::Array(items)
                }
                _ => json!({"kind": "markdown", "value": ours}),
            };
            o.insert("contents".into(), new);
            Value::Object(o)
        }
        other => other,
    }
}

/// The code-action kind we use; listed by editors under refactorings.
pub const ACTION_KIND: &str = "refactor";

/// Our three actions for a theorem with a reference.
pub fn actions(a: &DocAnalysis, t: &TheoremView, cmds: &Commands) -> Vec<Value> {
    let name = t.name().unwrap_or("");
    let args = json!([a.uri, t.name()]);
    let action = |title: String, command: &str| {
        json!({
            "title": title,
            "kind": ACTION_KIND,
            "command": {"title": title, "command": command, "arguments": args},
        })
    };
    vec![
        action(
            format!("lean-assess: Show differences from the reference of `{name}`"),
            &cmds.show_differences,
        ),
        action(
            format!("lean-assess: Show proof path for `{name}`"),
            &cmds.show_proof_path,
        ),
        action(
            format!("lean-assess: Use as reference for `{name}` (write it down)"),
            &cmds.use_as_reference,
        ),
    ]
}

/// Whether the editor's `context.only` filter admits our kind.
pub fn kind_wanted(request_params: &Value) -> bool {
    match request_params
        .get("context")
        .and_then(|c| c.get("only"))
        .and_then(Value::as_array)
    {
        None => true,
        Some(only) => only
            .iter()
            .filter_map(Value::as_str)
            .any(|k| k == ACTION_KIND || ACTION_KIND.starts_with(&format!("{k}.")) || k.is_empty()),
    }
}

/// An information diagnostic of ours.
pub fn diagnostic(range: Value, message: &str, severity: u8) -> Value {
    json!({
        "range": range,
        "severity": severity,
        "source": "lean-assess",
        "message": message,
    })
}

/// The "Show differences" diagnostics of one theorem (severity 3, on the candidate's subterms).
pub fn difference_diagnostics(doc: &Document, t: &TheoremView) -> Vec<Value> {
    let name_range = t
        .decl
        .name_range
        .map_or((t.decl.start, t.decl.start), |r| r);
    t.differences
        .iter()
        .map(|d| {
            let (s, e) = match d.candidate_span {
                Some(sp) => (
                    t.candidate_offset + sp.start as usize,
                    t.candidate_offset + sp.end as usize,
                ),
                None => name_range,
            };
            let r = doc.range_of(s, e);
            diagnostic(
                json!(r),
                &format!("differs from the reference: {}", d.message),
                3,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::differences::Difference;
    use crate::features::engine::Decl;
    use crate::features::jobs::RefView;
    use crate::metrics::{MetricReport, Verdict};
    use crate::trees::Span;
    use std::time::Duration;

    fn view() -> (DocAnalysis, Document) {
        let text = "import Mathlib\n\ntheorem 𝔽oo (x : ℝ) : x < 1 := by sorry\n";
        let start = text.find("theorem").unwrap();
        let ns = text.find("𝔽oo").unwrap();
        let t = TheoremView {
            decl: Decl {
                keyword: "theorem".into(),
                name: Some("𝔽oo".into()),
                start,
                end: text.len(),
                name_range: Some((ns, ns + "𝔽oo".len())),
                statement_end: text.find(":=").unwrap(),
            },
            reference: Some(RefView {
                origin: "directive at C.lean:2".into(),
                name: Some("r".into()),
                text: "theorem r (x : ℝ) : x ≤ 1".into(),
                header: String::new(),
                statement: None,
                file: None,
            }),
            candidate: None,
            candidate_offset: start,
            metrics: vec![
                (
                    "ted".into(),
                    MetricState::Done(MetricReport {
                        metric: "ted",
                        verdict: Verdict::Score(0.875),
                        distance: Some(1),
                        reference_size: 8,
                        candidate_size: 8,
                        path: vec![],
                        notes: vec![],
                        elapsed: Duration::from_micros(300),
                    }),
                ),
                ("transted-lite".into(), MetricState::Running),
                ("beq".into(), MetricState::Unavailable("needs Lean".into())),
            ],
            differences: vec![Difference {
                message: "conclusion: `<` where the reference has `≤`".into(),
                candidate_span: Some(Span { start: 27, end: 32 }),
            }],
            distance: Some(1),
            problem: None,
            elaborated: false,
        };
        let doc = Document::new("file:///C.lean", 4, text);
        (
            DocAnalysis {
                uri: "file:///C.lean".into(),
                version: 4,
                theorems: vec![t.into()],
                problems: vec![],
                candidate_header: String::new(),
            },
            doc,
        )
    }

    #[test]
    fn lens_json_shape() {
        let (a, doc) = view();
        let cmds = Commands::new("lean-assess.42");
        let l = lenses(&a, &doc, &cmds);
        assert_eq!(
            l,
            json!([{
                "range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 0}},
                "command": {
                    "title": "lean-assess: ted 0.88 · transted-lite running… · beq n/a",
                    "command": "lean-assess.42.showDetails",
                    "arguments": ["file:///C.lean", "𝔽oo"],
                }
            }])
        );
    }

    #[test]
    fn hover_keeps_leans_fields_and_appends_after_rule() {
        let (a, _) = view();
        let ours = hover_section(&a.theorems[0]);
        assert!(ours.contains("| ted | 0.88 | done | 0.3 ms |"), "{ours}");
        assert!(
            ours.contains("| transted-lite | — | running |  |"),
            "{ours}"
        );
        assert!(ours.contains("- conclusion: `<` where the reference has `≤`"));
        assert!(ours.contains("```lean\ntheorem r (x : ℝ) : x ≤ 1\n```"));
        // Recorded Lean hover on a declaration name (examples/hover.declaration-name.result.json).
        let lean: Value = serde_json::from_str(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/fixtures/lean-protocol/examples/hover.declaration-name.result.json"
            ))
            .unwrap(),
        )
        .unwrap();
        let mut with_extra = lean.clone();
        with_extra["leanExtra"] = json!(1);
        let out = augment_hover(with_extra, &ours, json!(null));
        let v = out["contents"]["value"].as_str().unwrap();
        let lean_value = lean["contents"]["value"].as_str().unwrap();
        assert_eq!(v, format!("{lean_value}\n\n***\n\n{ours}"));
        assert_eq!(out["range"], lean["range"]);
        assert_eq!(out["leanExtra"], 1);
        assert_eq!(out["contents"]["kind"], "markdown");
        let r = json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}});
        let none = augment_hover(Value::Null, "ours", r.clone());
        assert_eq!(
            none,
            json!({"contents": {"kind": "markdown", "value": "ours"}, "range": r})
        );
    }

    #[test]
    fn action_and_diagnostic_shapes() {
        let (a, doc) = view();
        let cmds = Commands::new("p");
        let acts = actions(&a, &a.theorems[0], &cmds);
        assert_eq!(acts.len(), 3);
        let cmd_names: Vec<&str> = acts
            .iter()
            .map(|x| x["command"]["command"].as_str().unwrap())
            .collect();
        assert_eq!(
            cmd_names,
            ["p.showDifferences", "p.showProofPath", "p.useAsReference"]
        );
        assert_eq!(acts[0]["kind"], "refactor");
        assert_eq!(
            acts[0]["command"]["arguments"],
            json!(["file:///C.lean", "𝔽oo"])
        );
        let d = difference_diagnostics(&doc, &a.theorems[0]);
        // `x < 1` sits at UTF-16 columns 22..27: `𝔽` counts two units.
        assert_eq!(
            d,
            [json!({
                "range": {"start": {"line": 2, "character": 23}, "end": {"line": 2, "character": 28}},
                "severity": 3,
                "source": "lean-assess",
                "message": "differs from the reference: conclusion: `<` where the reference has `≤`",
            })]
        );
        assert!(kind_wanted(&json!({"context": {"diagnostics": []}})));
        assert!(kind_wanted(&json!({"context": {"only": ["refactor"]}})));
        assert!(!kind_wanted(&json!({"context": {"only": ["quickfix"]}})));
    }
}
