//! The parser never panics, whatever the input: arbitrary strings (weighted towards Lean's
//! symbols), mutations of real statements from the fixtures, and pathological nesting. Errors
//! carry a line/column that points at their byte offset; trees carry spans inside the text.

use lean_assess::trees::parse::{
    find_declarations, parse_declaration_in, parse_statement, Header, ParseError,
};
use lean_assess::trees::Tree;
use proptest::prelude::*;

fn check_error(text: &str, e: &ParseError) {
    assert!(e.offset <= text.len(), "offset {} past {}", e.offset, text.len());
    assert!(text.is_char_boundary(e.offset));
    let before = &text[..e.offset];
    assert_eq!(e.line, before.matches('\n').count() + 1, "line of {e:?}");
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    assert_eq!(e.column, before[line_start..].chars().count() + 1, "column of {e:?}");
    assert!(e.line >= 1 && e.column >= 1);
    assert!(!e.to_string().is_empty());
}

fn check_spans(t: &Tree, lo: usize, hi: usize) {
    if let Some(s) = t.span {
        assert!(s.start as usize >= lo && s.start <= s.end && s.end as usize <= hi, "{s:?}");
    }
    for c in &t.children {
        check_spans(c, lo, hi);
    }
}

fn check_text(text: &str) {
    let header = Header::parse(text);
    match parse_statement(text, &header) {
        Ok(st) => {
            check_spans(&st.tree, 0, text.len());
            for s in &st.unparsed {
                assert!(s.start <= s.end && s.end as usize <= text.len());
            }
        }
        Err(e) => check_error(text, &e),
    }
    for d in find_declarations(text) {
        assert!(d.start <= d.end && d.end <= text.len());
        assert!(text.is_char_boundary(d.start) && text.is_char_boundary(d.end));
        assert!(d.statement_end <= d.end.max(d.statement_end) && d.statement_end <= text.len());
        if let Some((a, b)) = d.name_range {
            assert!(a <= b && b <= text.len());
        }
        match parse_declaration_in(text, &d, &header) {
            Ok(st) => check_spans(&st.tree, d.start, d.end),
            Err(e) => check_error(text, &e),
        }
    }
}

fn statements() -> &'static [String] {
    static ALL: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    ALL.get_or_init(load_statements)
}

fn load_statements() -> Vec<String> {
    let mut out = Vec::new();
    for ds in ["gted-minif2f", "gted-proofnet"] {
        let path = format!("{}/fixtures/bench/{ds}.jsonl", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("fixture dataset is readable");
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
            for f in ["ref_statement", "cand_statement", "cand_hover_statement"] {
                if let Some(s) = v[f].as_str() {
                    out.push(s.to_string());
                }
            }
        }
    }
    out
}

const ALPHABET: &[&str] = &[
    "theorem ",
    "lemma ",
    "example",
    " x",
    " h₀",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "⟨",
    "⟩",
    "⦃",
    "⦄",
    ":",
    " : ",
    ":=",
    ",",
    "|",
    "‖",
    "⌊",
    "⌋",
    "∀",
    "∃",
    "∃!",
    "fun",
    "λ",
    "=>",
    "↦",
    "∑",
    "∏",
    "∈",
    "in",
    "→",
    "↔",
    "∧",
    "∨",
    "¬",
    "=",
    "≠",
    "<",
    "≤",
    "+",
    "-",
    "*",
    "/",
    "^",
    "%",
    "↑",
    "√",
    "⁻¹",
    "!",
    ".",
    "..",
    "1",
    "6.5",
    "1e-3",
    "ℝ",
    "Nat.Prime",
    "«a b»",
    "--",
    "\n",
    "/-",
    "-/",
    "\"",
    "'",
    "·",
    "Type*",
    "if",
    "then",
    "else",
    "let",
    ";",
    "≡",
    "[MOD",
    "@[simp]",
    " ",
    "by",
    "sorry",
    "//",
    "^[",
    "⋃₀",
    "#",
    "ℕ+",
    "✝",
    "é",
    "😀",
];

fn lean_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ALPHABET), 0..60).prop_map(|v| v.concat())
}

proptest! {
    // 2000 cases by default; `PROPTEST_CASES=N` runs more.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000),
        .. ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_strings_never_panic(s in "\\PC{0,80}") {
        check_text(&s);
    }

    #[test]
    fn lean_symbol_soup_never_panics(s in lean_soup()) {
        check_text(&s);
        check_text(&format!("theorem t : {s}"));
        check_text(&format!("theorem t (x : {s}) : x = {s} := by sorry"));
    }

    #[test]
    fn mutated_statements_never_panic(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0usize..6, prop::sample::select(ALPHABET)), 1..4),
    ) {
        let all = statements();
        let mut text = all[pick.index(all.len())].clone();
        for (at, del, ins) in edits {
            let chars: Vec<char> = text.chars().collect();
            let i = at.index(chars.len() + 1);
            let j = (i + del).min(chars.len());
            let mut s: String = chars[..i].iter().collect();
            s.push_str(ins);
            s.extend(&chars[j..]);
            text = s;
        }
        check_text(&text);
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    // 2 MiB: the default stack of spawned threads and tokio workers (a debug build is the worst
    // case for frame sizes).
    for (open, close) in [
        ("(", ")"),
        ("¬", ""),
        ("-", ""),
        ("∀ x, ", ""),
        ("{", "}"),
        ("[", "]"),
        ("|", "|"),
        ("f (", ")"),
        ("⟨", "⟩"),
        ("↑", ""),
    ] {
        let text = format!("theorem t : {}x{}", open.repeat(5000), close.repeat(5000));
        let r = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                check_text(&text);
            })
            .unwrap()
            .join();
        assert!(r.is_ok(), "nesting with {open:?} overflowed or panicked");
    }
}

#[test]
fn long_chains_parse_on_a_small_stack() {
    // The parser builds operator chains in a loop, so its depth guard never sees them: a chain
    // becomes a tree as deep as it is long, and everything after the parser (span shifting,
    // binder classification, clone, drop, equality) must not recurse per level. 2 MiB, as above.
    for (op, n) in
        [(" + ", 50_000), (" * ", 50_000), (" → ", 50_000), (" ∧ ", 50_000), ("⁻¹", 20_000)]
    {
        let r = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let chain = if op == "⁻¹" {
                    format!("x{}", op.repeat(n))
                } else {
                    vec!["x"; n].join(op)
                };
                let file =
                    format!("import Mathlib\ntheorem t (h : {chain}) : {chain} = x := sorry\n");
                let decls = find_declarations(&file);
                let st = parse_declaration_in(&file, &decls[0], &Header::parse(&file)).unwrap();
                // Left-associative chains are built in a loop (a tree as deep as the chain);
                // right-associative ones (`→`) recurse and stop at the depth guard as one
                // unparsed node.
                assert!(
                    st.tree.height() > n / 2 || !st.unparsed.is_empty(),
                    "{op}: height {}",
                    st.tree.height()
                );
                // Spans inside the file, checked without recursion.
                let mut stack = vec![&st.tree];
                while let Some(t) = stack.pop() {
                    if let Some(s) = t.span {
                        assert!(s.start <= s.end && s.end as usize <= file.len());
                    }
                    stack.extend(&t.children);
                }
                let copy = st.tree.clone();
                assert_eq!(copy, st.tree);
            })
            .unwrap()
            .join();
        assert!(r.is_ok(), "a chain of {op:?} overflowed or panicked");
    }
}

#[test]
fn regression_inputs_never_panic() {
    let dir = format!("{}/fixtures/parse/regressions", env!("CARGO_MANIFEST_DIR"));
    let Ok(entries) = std::fs::read_dir(&dir) else {
        panic!("missing {dir}");
    };
    let mut n = 0;
    for e in entries {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        check_text(&text);
        n += 1;
    }
    assert!(n > 0);
}
