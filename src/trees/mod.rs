//! Operator trees (OPTs, ASSESS §3.2.1): the labelled, ordered trees every metric compares.
//!
//! Owns the [`Tree`] value type and its contract JSON form
//! (`{"label", "children", "variable_freecost"?, "hypothesis_freecost"?}`), plus the parsed
//! [`Statement`]. Parsing Lean text lives in `parse`, output formats in `render`. Distances and
//! metrics live elsewhere and only read trees.
//!
//! Label convention (GTED's): an operator node's label is its own text with each child replaced by
//! ` _ ` (`" _ + _ "`, `"Real.log _ "`, `"∀ _ , _ "`); leaves carry their text; parentheses are
//! omitted. Bound variable and hypothesis names are flagged so that free-cost renaming can apply.

mod lexer;
pub mod parse;
pub mod render;

use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};

/// A byte range `start..end` in the statement source the tree was parsed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

/// One node of an operator tree, with its subtrees.
///
/// Equality and hashing look at labels, flags and children only: two trees built from different
/// source positions (or rewritten by a transformation) are equal when they say the same thing.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Tree {
    pub label: String,
    #[serde(default)]
    pub children: Vec<Tree>,
    /// A bound variable's name: renaming it to another flagged variable is free under free cost.
    #[serde(default, skip_serializing_if = "is_false")]
    pub variable_freecost: bool,
    /// A hypothesis name: renaming it to another flagged hypothesis is free under free cost.
    #[serde(default, skip_serializing_if = "is_false")]
    pub hypothesis_freecost: bool,
    /// Where this node came from in the statement text, when it came from text.
    #[serde(skip)]
    pub span: Option<Span>,
    /// This node stands for a span the parser could not read (its label is the raw text).
    #[serde(skip)]
    pub unparsed: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl PartialEq for Tree {
    fn eq(&self, other: &Self) -> bool {
        self.label == other.label
            && self.variable_freecost == other.variable_freecost
            && self.hypothesis_freecost == other.hypothesis_freecost
            && self.children == other.children
    }
}

impl Eq for Tree {}

impl Hash for Tree {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.label.hash(state);
        self.variable_freecost.hash(state);
        self.hypothesis_freecost.hash(state);
        self.children.hash(state);
    }
}

impl Tree {
    /// A leaf with the given label.
    pub fn leaf(label: impl Into<String>) -> Tree {
        Tree {
            label: label.into(),
            ..Tree::default()
        }
    }

    /// An inner node with the given label and children.
    pub fn node(label: impl Into<String>, children: Vec<Tree>) -> Tree {
        Tree {
            label: label.into(),
            children,
            ..Tree::default()
        }
    }

    /// Number of nodes (|T| in the TED similarity formula).
    pub fn size(&self) -> usize {
        1 + self.children.iter().map(Tree::size).sum::<usize>()
    }

    /// Nodes in preorder; index `i` here is the node id used by edit mappings.
    pub fn preorder(&self) -> Vec<&Tree> {
        let mut out = Vec::with_capacity(self.size());
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            out.push(t);
            stack.extend(t.children.iter().rev());
        }
        out
    }
}

/// A declaration header parsed from Lean text: `theorem name binders : type`.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    /// `theorem`, `lemma` or `example`.
    pub keyword: String,
    /// The declared name (`None` for `example`).
    pub name: Option<String>,
    /// The statement text as written (proof dropped).
    pub source: String,
    /// Its operator tree.
    pub tree: Tree,
    /// Spans the parser could not read, each standing as one node in `tree`.
    pub unparsed: Vec<Span>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contract_json_round_trips_and_omits_false_flags() {
        let json = r#"{"label":" _ : _ ","children":[{"label":"x","children":[],"variable_freecost":true},{"label":"ℝ","children":[]}]}"#;
        let t: Tree = serde_json::from_str(json).unwrap();
        assert_eq!(t.size(), 3);
        assert!(t.children[0].variable_freecost);
        assert_eq!(serde_json::to_string(&t).unwrap(), json);
    }

    #[test]
    fn equality_ignores_spans() {
        let mut a = Tree::leaf("x");
        a.span = Some(Span { start: 0, end: 1 });
        assert_eq!(a, Tree::leaf("x"));
    }

    #[test]
    fn preorder_visits_parent_before_children_left_to_right() {
        let t = Tree::node(
            "+",
            vec![Tree::leaf("a"), Tree::node("f", vec![Tree::leaf("b")])],
        );
        let labels: Vec<&str> = t.preorder().iter().map(|n| n.label.as_str()).collect();
        assert_eq!(labels, ["+", "a", "f", "b"]);
    }
}
