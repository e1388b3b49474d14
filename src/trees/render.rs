//! Tree output formats: indented text (for people), contract JSON (for tools), Graphviz dot.
//!
//! Owns presentation only; it never changes a tree. Text output marks flags as `[var]`/`[hyp]`
//! and unparsed nodes as `[unparsed]`, and shows labels with their placeholders as they are
//! (quoted, so leading/trailing spaces stay visible).

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

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Tree {
        let mut x = Tree::leaf("x");
        x.variable_freecost = true;
        Tree::node(" _ = _ ", vec![x, Tree::leaf("a\"b\\")])
    }

    #[test]
    fn text_indents_and_marks_flags() {
        assert_eq!(
            to_text(&sample()),
            "\" _ = _ \"\n  \"x\" [var]\n  \"a\"b\\\"\n"
        );
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
}
