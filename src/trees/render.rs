//! Tree output formats: indented text (for people), contract JSON (for tools), Graphviz dot.
//!
//! Owns presentation only; it never changes a tree. Text output marks flags as `[var]`/`[hyp]`
//! and unparsed nodes as `[unparsed]`, and shows labels with their placeholders as they are
//! (quoted, so leading/trailing spaces stay visible). [`lean_text`] is the other direction: a
//! subtree back as Lean-like text for messages (`ε > 0`, `(0 : ℝ)`, `Real.log (x + 1)`), never
//! the internal labels, with long text shortened by `…`.

use super::Tree;
use std::fmt::Write as _;

/// Deepest level [`to_text`] indents; deeper lines keep that indentation and name their level.
pub const MAX_TEXT_INDENT: usize = 40;

/// One node per line, children indented by two spaces; flags in brackets after the label.
/// Below [`MAX_TEXT_INDENT`] levels the indentation stops growing and each line starts with
/// `[depth N]` instead, so the output stays linear in the tree's size (indenting a
/// 50,000-level chain in full would print over 2 GB).
pub fn to_text(tree: &Tree) -> String {
    let mut out = String::new();
    let mut stack = vec![(tree, 0usize)];
    while let Some((t, depth)) = stack.pop() {
        for _ in 0..depth.min(MAX_TEXT_INDENT) {
            out.push_str("  ");
        }
        if depth > MAX_TEXT_INDENT {
            let _ = write!(out, "[depth {depth}] ");
        }
        out.push('"');
        out.push_str(&t.label);
        out.push('"');
        if t.variable_freecost {
            out.push_str(" [var]");
        }
        if t.hypothesis_freecost {
            out.push_str(" [hyp]");
        }
        if t.unparsed {
            out.push_str(" [unparsed]");
        }
        out.push('\n');
        stack.extend(t.children.iter().rev().map(|c| (c, depth + 1)));
    }
    out
}

/// The contract JSON form (`{"label", "children", "variable_freecost"?, "hypothesis_freecost"?}`).
/// Written iteratively (`trees::json`): any depth.
pub fn to_json(tree: &Tree) -> String {
    super::json::to_string(tree)
}

/// A Graphviz digraph; node ids are preorder numbers, labels escaped for dot's quoted strings.
/// Flagged nodes are drawn as boxes (variables) or diamonds (hypotheses), unparsed ones dashed.
pub fn to_dot(tree: &Tree) -> String {
    let mut out = String::from("digraph tree {\n  node [shape=ellipse, fontname=\"monospace\"];\n");
    let mut next_id = 0usize;
    let mut stack: Vec<(&Tree, Option<usize>)> = vec![(tree, None)];
    while let Some((t, parent)) = stack.pop() {
        let id = next_id;
        next_id += 1;
        let mut attrs = format!("label=\"{}\"", escape_dot(&t.label));
        if t.variable_freecost {
            attrs.push_str(", shape=box");
        } else if t.hypothesis_freecost {
            attrs.push_str(", shape=diamond");
        }
        if t.unparsed {
            attrs.push_str(", style=dashed");
        }
        let _ = writeln!(out, "  n{id} [{attrs}];");
        if let Some(p) = parent {
            let _ = writeln!(out, "  n{p} -> n{id};");
        }
        stack.extend(t.children.iter().rev().map(|c| (c, Some(id))));
    }
    out.push_str("}\n");
    out
}

fn escape_dot(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// How deep [`lean_text`] descends before writing `…` (messages need the outer shape only, and
/// the recursion stays bounded on any tree).
const MAX_DEPTH: usize = 48;

/// A subtree as Lean-like text, at most `max_chars` characters (the middle of a longer text is
/// replaced by ` … `). Holes are filled with the children, parentheses added where Lean's
/// precedences need them, binders of a signature bracketed: `(x : ℝ) (h : ε > 0) : x < 1`.
/// The source text, when a node has it, is better: this is for trees without spans (rewritten
/// or read from JSON).
pub fn lean_text(t: &Tree, max_chars: usize) -> String {
    let mut out = String::new();
    // Far more than any message shows, but bounded: a huge tree stops early.
    let mut budget = max_chars.saturating_mul(4).max(64);
    term(t, &mut out, 0, &mut budget);
    shorten(&collapse_spaces(&out), max_chars)
}

/// `s` (whitespace collapsed) in at most `max_chars` characters: the start and the end kept,
/// the middle replaced by ` … `.
pub fn shorten(s: &str, max_chars: usize) -> String {
    let s = collapse_spaces(s);
    let n = s.chars().count();
    if n <= max_chars || max_chars < 8 {
        return s;
    }
    let head = (max_chars - 3) * 2 / 3;
    let tail = max_chars - 3 - head;
    let start: String = s.chars().take(head).collect();
    let end: String = s.chars().skip(n - tail).collect();
    format!("{} … {}", start.trim_end(), end.trim_start())
}

fn collapse_spaces(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The shape of a node, as far as printing it goes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    Leaf,
    /// `a op b` with Lean's precedence and how it chains.
    Infix(u32, Assoc),
    /// `¬p`, `-x`, `↑n`, `√x` (no hole in the label).
    Prefix,
    /// `x⁻¹`, `sᶜ`, `n !`, `H.Normal`, `R[X]`: binds tighter than application.
    Postfix,
    /// Delimited on both sides: `(0 : ℝ)`, `{x | p x}`, `|x|`, `[Group G]`.
    Bracketed,
    /// `∀ x, p`, `∑ i in s, f i`, `fun x => e`, `if c then a else b`: extends to the right.
    Binder,
    /// `f x y`, `Real.log x`.
    App,
    /// `s.sum f`, `n.choose k`: a receiver, its field, then arguments as an application's.
    Field,
    /// A relation waiting for its left side inside a binder: `> 0` in `∀ ε > 0, …`.
    Pred,
    /// Anything else with holes.
    Other,
}

const PREFIX_OPS: [&str; 10] = ["¬", "-", "↑", "⇑", "↥", "√", "⋃₀", "⋂₀", "#", "∛"];
const POSTFIX_OPS: [&str; 5] = ["⁻¹", "ᶜ", "ᵀ", "†", "!"];
const OPENERS: [&str; 9] = ["(", "[", "{", "⟨", "⦃", "|", "‖", "⌊", "⌈"];
const BINDERS: [&str; 16] =
    ["∀", "∃!", "∃", "∑", "∏", "⋃", "⋂", "∫", "⨆", "⨅", "fun", "λ", "Π", "Σ", "if", "let"];

/// How an infix operator chains with its own level: `infixl` to the left, `infixr` to the
/// right, `infix` not at all (`a = b = c` does not parse: both operands sit one level up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Assoc {
    Left,
    Right,
    Neither,
}

/// Lean's precedence of an infix symbol and how it chains (Lean core and Mathlib notations, as
/// the parser's table; unknown symbols as the parser reads them, `infixl:65`). `∈` (`notation:50
/// a:50 " ∈ " b:50`) is read as not chaining: its operands take relations, which read better
/// in parentheses anyway.
fn infix(op: &str) -> (u32, Assoc) {
    use Assoc::*;
    match op {
        // A typed name `x : ℝ` (binders, ascriptions): nothing inside needs parentheses.
        ":" => (0, Right),
        "<|" | "$" | "|>" => (10, Right),
        "↔" | "<->" => (20, Neither),
        "→" | "->" | "→*" | "→+" | "→+*" | "≃*" | "≃+" | "≃+*" => (25, Right),
        "≃" | "≅" => (25, Left),
        "∨" | "\\/" => (30, Right),
        "∧" | "/\\" | "×" => (35, Right),
        "=" | "==" | "≠" | "<" | ">" | "≤" | "≥" | "∈" | "∉" | "⊆" | "⊂" | "⊇" | "⊃" | "∣"
        | "≡" | "≈" => (50, Neither),
        "+" | "-" | "∪" | "++" => (65, Left),
        "⊔" => (68, Left),
        "⊓" => (69, Left),
        "*" | "/" | "%" | "∩" => (70, Left),
        "\\" => (70, Neither),
        "•" => (73, Right),
        "^" => (75, Right),
        "∘" => (90, Right),
        _ => (65, Left),
    }
}

fn holes(label: &str) -> Vec<&str> {
    label.split(" _ ").collect()
}

fn shape(t: &Tree) -> Shape {
    if t.children.is_empty() {
        return Shape::Leaf;
    }
    let label = t.label.as_str();
    if !label.contains(" _ ") {
        let l = label.trim();
        return if PREFIX_OPS.contains(&l) {
            Shape::Prefix
        } else if POSTFIX_OPS.contains(&l) || l.starts_with('.') {
            Shape::Postfix
        } else {
            Shape::App
        };
    }
    let p = holes(label);
    if p.len() != t.children.len() + 1 {
        return Shape::Other;
    }
    // `" _  _ "`: an application whose head is its first child (`(f ∘ g) x`, or a bound `f x`).
    if p.len() >= 3 && p.iter().all(|x| x.trim().is_empty()) {
        return Shape::App;
    }
    let (first, last) = (p[0].trim(), p[p.len() - 1].trim());
    let inner_empty = p[1..p.len() - 1].iter().all(|x| x.trim().is_empty());
    if p.len() >= 3
        && first.is_empty()
        && p[1].trim().starts_with('.')
        && p[2..].iter().all(|x| x.trim().is_empty())
    {
        return Shape::Field;
    }
    if p.len() == 3 && first.is_empty() && last.is_empty() && !p[1].trim().is_empty() {
        let (prec, assoc) = infix(p[1].trim());
        return Shape::Infix(prec, assoc);
    }
    // `!![a, b; c, d]`, `![a, b]`: Mathlib's matrix and vector literals.
    let literal = first.starts_with("![") || first.starts_with("!![");
    if (literal || OPENERS.iter().any(|o| first.starts_with(o))) && !last.is_empty() {
        return Shape::Bracketed;
    }
    if first.is_empty()
        && p.len() == 2
        && (last.starts_with('.') || last.starts_with('[') || POSTFIX_OPS.contains(&last))
    {
        return Shape::Postfix;
    }
    if BINDERS.iter().any(|b| first == *b || first.starts_with(&format!("{b} "))) {
        return Shape::Binder;
    }
    if p.len() == 2 && last.is_empty() && infix(first).0 == 50 && first != "-" {
        return Shape::Pred;
    }
    if !first.is_empty() && last.is_empty() && inner_empty {
        return Shape::App;
    }
    Shape::Other
}

/// Whether child `c`, at hole `i` of `n` of a parent of shape `parent`, needs parentheses.
fn needs_parens(parent: Shape, parent_label: &str, i: usize, n: usize, c: &Tree) -> bool {
    let child = shape(c);
    if matches!(child, Shape::Leaf | Shape::Bracketed | Shape::Postfix | Shape::Pred) {
        return false;
    }
    match parent {
        Shape::Bracketed | Shape::Binder => false,
        // `> x + 1` in `∀ ε > x + 1, …`: the right side of a relation.
        Shape::Pred => needs_parens(Shape::Infix(50, Assoc::Neither), "", 1, 2, c),
        Shape::Infix(p, assoc) => match child {
            // At one level, only the side the parent chains on goes bare, and only when the
            // child chains too (`s ∩ t \ u` does not parse: `\` takes no 70-level left side).
            Shape::Infix(q, child_assoc) => {
                let bare = match assoc {
                    Assoc::Left => i == 0,
                    Assoc::Right => i + 1 == n,
                    Assoc::Neither => false,
                };
                q < p || (q == p && (!bare || child_assoc == Assoc::Neither))
            }
            Shape::App | Shape::Field => false,
            Shape::Prefix => {
                let op = c.label.trim();
                (op == "¬" && p >= 40) || (op == "-" && p >= 75 && i == 0)
            }
            _ => true,
        },
        Shape::Prefix => {
            let op = parent_label.trim();
            // `¬(x < y)` reads better than the equally valid `¬x < y`.
            !(matches!(child, Shape::App) && matches!(op, "¬" | "-"))
        }
        _ => true,
    }
}

fn term(t: &Tree, out: &mut String, depth: usize, budget: &mut usize) {
    if *budget == 0 {
        return;
    }
    if t.children.is_empty() {
        *budget = budget.saturating_sub(t.label.len());
        out.push_str(t.label.trim());
        return;
    }
    if depth >= MAX_DEPTH {
        out.push('…');
        return;
    }
    let s = shape(t);
    let label = t.label.as_str();
    let n = t.children.len();
    let child = |i: usize, out: &mut String, budget: &mut usize| {
        let c = &t.children[i];
        let paren = needs_parens(s, label, i, n, c);
        if paren {
            out.push('(');
        }
        term(c, out, depth + 1, budget);
        if paren {
            out.push(')');
        }
    };
    if is_signature(t) {
        signature(t, out, depth, budget);
        return;
    }
    match s {
        Shape::Prefix => {
            out.push_str(label.trim());
            for i in 0..n {
                child(i, out, budget);
            }
        }
        Shape::Postfix if !label.contains(" _ ") => {
            for i in 0..n {
                child(i, out, budget);
            }
            let op = label.trim();
            out.push_str(if op == "!" { " !" } else { op });
        }
        Shape::Field => {
            child(0, out, budget);
            out.push_str(holes(label)[1].trim());
            for i in 1..n {
                out.push(' ');
                child(i, out, budget);
            }
        }
        Shape::App if !label.contains(" _ ") => {
            out.push_str(label.trim());
            for i in 0..n {
                out.push(' ');
                child(i, out, budget);
            }
        }
        _ => {
            let pieces = holes(label);
            if pieces.len() != n + 1 {
                // Holes and children disagree: the label, then the children.
                out.push_str(&label.replace(" _ ", " "));
                for i in 0..n {
                    out.push(' ');
                    child(i, out, budget);
                }
                return;
            }
            for (k, piece) in pieces.iter().enumerate() {
                let piece = piece.trim();
                if !piece.is_empty() {
                    let tight_before = k > 0
                        && (piece.starts_with([')', ']', '}', '⟩', '⦄', '⌋', '⌉', ',', ';', '.'])
                            || (k + 1 == pieces.len()
                                && matches!(s, Shape::Bracketed)
                                && piece.starts_with(['|', '‖'])));
                    let after_open =
                        out.ends_with([' ', '(', '[', '{', '⟨', '⦃', '⌊', '⌈', '|', '‖']);
                    if !tight_before && !out.is_empty() && !after_open {
                        out.push(' ');
                    }
                    out.push_str(piece);
                    let opener = piece.ends_with(['(', '[', '{', '⟨', '⦃', '⌊', '⌈'])
                        || (k == 0 && matches!(s, Shape::Bracketed) && piece.ends_with(['|', '‖']));
                    if !opener {
                        out.push(' ');
                    }
                }
                if k < n {
                    let after_open =
                        out.ends_with([' ', '(', '[', '{', '⟨', '⦃', '⌊', '⌈', '|', '‖']);
                    if !out.is_empty() && !after_open {
                        out.push(' ');
                    }
                    child(k, out, budget);
                }
            }
        }
    }
}

/// The operator of a node, as the user writes it: `<` for `a < b`, `Real.log` for `Real.log x`,
/// `¬` for `¬p`, `⁻¹` for `x⁻¹`; `None` for leaves and for brackets, binders and other shapes
/// (quote their whole text instead).
pub fn operator_symbol(t: &Tree) -> Option<String> {
    let label = t.label.trim();
    match shape(t) {
        Shape::Infix(..) | Shape::Pred => Some(label.replace('_', " ").trim().to_string())
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")),
        Shape::Prefix | Shape::Postfix if !label.contains('_') => Some(label.to_string()),
        Shape::App => Some(holes(&t.label)[0].trim().to_string()).filter(|s| !s.is_empty()),
        _ => None,
    }
}

/// The signature node of a statement: ` _  _ … : _ ` (binders, then the conclusion) or `: _ `.
/// ` _ : _ ` (one binder and the conclusion) reads the same as a typed binder `x : ℝ`, so it
/// is a signature only where the caller knows it is one ([`lean_statement`]).
fn is_signature(t: &Tree) -> bool {
    let p = holes(&t.label);
    p.len() == t.children.len() + 1
        && p.len() != 3
        && p.len() >= 2
        && p[p.len() - 2].trim() == ":"
        && p[..p.len() - 2].iter().all(|x| x.is_empty())
}

fn signature(t: &Tree, out: &mut String, depth: usize, budget: &mut usize) {
    let n = t.children.len();
    for (i, c) in t.children.iter().enumerate() {
        if i + 1 == n {
            out.push_str(": ");
            term(c, out, depth + 1, budget);
        } else {
            let wrap = c.label == " _ : _ ";
            out.push_str(if wrap { "(" } else { "" });
            term(c, out, depth + 1, budget);
            out.push_str(if wrap { ") " } else { " " });
        }
    }
}

/// A whole statement's tree (`theorem` → signature) as Lean-like text without the keyword.
pub fn lean_statement(t: &Tree, max_chars: usize) -> String {
    match t.children.as_slice() {
        [sig] if matches!(t.label.as_str(), "theorem" | "lemma" | "example") => {
            let p = holes(&sig.label);
            if p.len() == sig.children.len() + 1 && p.len() >= 2 && p[p.len() - 2].trim() == ":" {
                let mut out = String::new();
                let mut budget = max_chars.saturating_mul(4).max(64);
                signature(sig, &mut out, 0, &mut budget);
                return shorten(&out, max_chars);
            }
            lean_text(sig, max_chars)
        }
        _ => lean_text(t, max_chars),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Tree {
        let x = Tree::bound_variable("x");
        Tree::node(" _ = _ ", vec![x, Tree::leaf("a\"b\\")])
    }

    #[test]
    fn text_indents_and_marks_flags() {
        assert_eq!(to_text(&sample()), "\" _ = _ \"\n  \"x\" [var]\n  \"a\"b\\\"\n");
    }

    #[test]
    fn json_is_the_contract_format() {
        assert_eq!(
            to_json(&sample()),
            r#"{"label":" _ = _ ","children":[{"label":"x","children":[],"variable_freecost":true},{"label":"a\"b\\","children":[]}]}"#
        );
    }

    #[test]
    fn dot_escapes_labels_and_links_preorder_ids() {
        let dot = to_dot(&sample());
        assert!(dot.contains("n2 [label=\"a\\\"b\\\\\"];"), "{dot}");
        assert!(dot.contains("n0 -> n1;") && dot.contains("n0 -> n2;"));
        assert!(dot.contains("n1 [label=\"x\", shape=box];"));
    }

    fn parsed(text: &str) -> Tree {
        crate::trees::parse::parse_statement(text, &crate::trees::parse::Header::default())
            .unwrap()
            .tree
    }

    /// The conclusion's tree of a parsed statement.
    fn conclusion(text: &str) -> Tree {
        let t = parsed(text);
        t.children[0].children.last().unwrap().clone()
    }

    #[test]
    fn lean_text_reads_like_lean_not_like_labels() {
        let cases = [
            ("ε > 0", "ε > 0"),
            ("(0 : ℝ) < x", "(0 : ℝ) < x"),
            ("¬ (x < y)", "¬(x < y)"),
            ("Real.log (x + 1) = 2", "Real.log (x + 1) = 2"),
            ("(a + b) * c = a * c + b * c", "(a + b) * c = a * c + b * c"),
            ("a - (b - c) = a - b + c", "a - (b - c) = a - b + c"),
            ("x ^ 2 ^ n = (x ^ 2) ^ n", "x ^ 2 ^ n = (x ^ 2) ^ n"),
            ("∀ ε > 0, ∃ δ, δ ∈ Set.Icc 0 1", "∀ ε > 0, ∃ δ, δ ∈ Set.Icc 0 1"),
            ("x⁻¹ + sᶜ.card = |x|", "x⁻¹ + sᶜ.card = |x|"),
            ("(a + b)⁻¹ = -x", "(a + b)⁻¹ = -x"),
            ("p ∧ q → r", "p ∧ q → r"),
            ("(p → q) → r", "(p → q) → r"),
            ("f (g x) = ↑n", "f (g x) = ↑n"),
            ("a ≡ b [ZMOD 3]", "a ≡ b [ZMOD 3]"),
            ("{x : ℝ | 0 < x} = S", "{x : ℝ | 0 < x} = S"),
            ("Nat.gcd a b = 1", "Nat.gcd a b = 1"),
            (
                "(Finset.range (n + 1)).sum f = n.choose 2",
                "(Finset.range (n + 1)).sum f = n.choose 2",
            ),
            ("!![1, 2; 3, x] * ![x, 0] = A", "!![1, 2; 3, x] * ![x, 0] = A"),
            // A head that is a term: `" _  _ "` with the head as first child.
            ("(f ∘ g) (x + 1) + 1 = 0", "(f ∘ g) (x + 1) + 1 = 0"),
            ("(∑ k in Finset.range n, k) = 3", "(∑ k ∈ Finset.range n, k) = 3"),
        ];
        for (src, want) in cases {
            let t = conclusion(&format!("theorem t : {src}"));
            let got = lean_text(&t, 200);
            assert_eq!(got, want, "{src}: {t:?}");
            assert!(!got.contains(" _ ") && !got.contains("(("), "{got}");
        }
    }

    #[test]
    fn lean_statement_brackets_binders_and_shortens_long_text() {
        let t = parsed("theorem t (x : ℝ) {n : ℕ} [Fact (1 < n)] (h₀ : 0 < x) : x ≠ 0");
        assert_eq!(lean_statement(&t, 200), "(x : ℝ) {n : ℕ} [Fact (1 < n)] (h₀ : 0 < x) : x ≠ 0");
        let one = parsed("theorem t (x : ℝ) : x = x");
        assert_eq!(lean_statement(&one, 200), "(x : ℝ) : x = x");
        let sum = vec!["x"; 2000].join(" + ");
        let long = conclusion(&format!("theorem t (x : ℕ) : {sum} = 0"));
        let text = lean_text(&long, 40);
        assert!(text.chars().count() <= 40 && text.contains('…'), "{text}");
        assert!(text.ends_with("+ x = 0"), "{text}");
    }

    #[test]
    fn operator_symbols() {
        let c = conclusion("theorem t : Real.log x < (0 : ℝ)");
        assert_eq!(operator_symbol(&c).as_deref(), Some("<"));
        assert_eq!(operator_symbol(&c.children[0]).as_deref(), Some("Real.log"));
        assert_eq!(operator_symbol(&c.children[1]), None);
        assert_eq!(operator_symbol(&Tree::leaf("x")), None);
    }

    #[test]
    fn lean_text_is_bounded_on_deep_trees() {
        let mut t = Tree::leaf("x");
        for _ in 0..100_000 {
            t = Tree::node("¬", vec![t]);
        }
        let text = lean_text(&t, 60);
        assert!(text.chars().count() <= 60, "{text}");
        // Dropping a deep tree recursively is the tree's business; leak it in the test.
        std::mem::forget(t);
    }
}
