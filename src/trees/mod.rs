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

pub mod json;
pub mod lean_syntax;
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
///
/// Every operation on a whole tree (clone, drop, equality, hashing, `Debug`, size, the contract
/// JSON) is iterative, so a tree of any depth is safe to hold: a 200,000-term sum parses into a
/// chain 200,000 levels deep, and recursion over it would overflow the stack.
/// Serialize writes the contract JSON iteratively ([`json`]) and hands it to the serializer as
/// raw JSON, so it works at any depth with serde_json (the only format this crate uses).
/// Deserialize is serde's derived one, bounded by the deserializer's own recursion limit
/// (serde_json: 128 levels); files the tool reads go through [`json::parse`], which has none.
#[derive(Default, Deserialize)]
pub struct Tree {
    pub label: String,
    #[serde(default)]
    pub children: Vec<Tree>,
    /// A bound variable's name: renaming it to another flagged variable is free under free cost.
    #[serde(default)]
    pub variable_freecost: bool,
    /// A hypothesis name: renaming it to another flagged hypothesis is free under free cost.
    #[serde(default)]
    pub hypothesis_freecost: bool,
    /// Where this node came from in the statement text, when it came from text.
    #[serde(skip)]
    pub span: Option<Span>,
    /// This node stands for a span the parser could not read (its label is the raw text).
    #[serde(skip)]
    pub unparsed: bool,
}

impl Serialize for Tree {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let raw = serde_json::value::RawValue::from_string(json::to_string(self))
            .map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl Tree {
    /// This node without its children.
    fn shallow(&self) -> Tree {
        Tree {
            label: self.label.clone(),
            children: Vec::new(),
            variable_freecost: self.variable_freecost,
            hypothesis_freecost: self.hypothesis_freecost,
            span: self.span,
            unparsed: self.unparsed,
        }
    }

    /// Label and flags: what equality and hashing compare at one node.
    fn key(&self) -> (&str, bool, bool, usize) {
        (&self.label, self.variable_freecost, self.hypothesis_freecost, self.children.len())
    }
}

impl Clone for Tree {
    /// Iterative: children are built before their parent, on an explicit stack.
    fn clone(&self) -> Tree {
        if self.children.iter().all(|c| c.children.is_empty()) {
            let mut out = self.shallow();
            out.children = self.children.iter().map(Tree::shallow).collect();
            return out;
        }
        let mut work: Vec<(&Tree, bool)> = vec![(self, false)];
        let mut built: Vec<Tree> = Vec::new();
        while let Some((t, children_built)) = work.pop() {
            if children_built || t.children.is_empty() {
                let mut node = t.shallow();
                node.children = built.split_off(built.len() - t.children.len());
                built.push(node);
            } else {
                work.push((t, true));
                work.extend(t.children.iter().rev().map(|c| (c, false)));
            }
        }
        built.pop().expect("BUG: the root is built last")
    }
}

impl Drop for Tree {
    /// Iterative: grandchildren are moved onto a heap stack before their parent is freed, so
    /// dropping a deep chain does not recurse once per level.
    fn drop(&mut self) {
        if self.children.iter().all(|c| c.children.is_empty()) {
            return;
        }
        let mut stack = std::mem::take(&mut self.children);
        while let Some(mut t) = stack.pop() {
            stack.append(&mut t.children);
        }
    }
}

impl PartialEq for Tree {
    /// Labels, flags and shape, compared in preorder without recursion.
    fn eq(&self, other: &Self) -> bool {
        let mut stack = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            if a.key() != b.key() {
                return false;
            }
            stack.extend(a.children.iter().zip(&b.children));
        }
        true
    }
}

impl Eq for Tree {}

impl Hash for Tree {
    /// Each node's label, flags and child count in preorder: the same data equality compares,
    /// and the child counts make the preorder sequence determine the shape.
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            t.key().hash(state);
            stack.extend(t.children.iter().rev());
        }
    }
}

impl std::fmt::Debug for Tree {
    /// A compact s-expression (`(" _ + _ " "a" "b")`, flags as `[var]`/`[hyp]`/`[unparsed]`),
    /// written iteratively.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        enum Item<'t> {
            Open(&'t Tree),
            Close,
        }
        let mut stack = vec![Item::Open(self)];
        let mut first = true;
        while let Some(item) = stack.pop() {
            match item {
                Item::Close => f.write_str(")")?,
                Item::Open(t) => {
                    if !first {
                        f.write_str(" ")?;
                    }
                    first = false;
                    let inner = !t.children.is_empty();
                    if inner {
                        f.write_str("(")?;
                    }
                    write!(f, "{:?}", t.label)?;
                    for (set, mark) in [
                        (t.variable_freecost, "[var]"),
                        (t.hypothesis_freecost, "[hyp]"),
                        (t.unparsed, "[unparsed]"),
                    ] {
                        if set {
                            f.write_str(mark)?;
                        }
                    }
                    if inner {
                        stack.push(Item::Close);
                        stack.extend(t.children.iter().rev().map(Item::Open));
                    }
                }
            }
        }
        Ok(())
    }
}

impl Tree {
    /// A leaf with the given label.
    pub fn leaf(label: impl Into<String>) -> Tree {
        Tree {
            label: label.into(),
            children: Vec::new(),
            variable_freecost: false,
            hypothesis_freecost: false,
            span: None,
            unparsed: false,
        }
    }

    /// An inner node with the given label and children.
    pub fn node(label: impl Into<String>, children: Vec<Tree>) -> Tree {
        Tree {
            label: label.into(),
            children,
            variable_freecost: false,
            hypothesis_freecost: false,
            span: None,
            unparsed: false,
        }
    }

    /// A bound variable's leaf: GTED's free-cost renaming applies to it.
    pub fn bound_variable(label: impl Into<String>) -> Tree {
        let mut t = Tree::leaf(label);
        t.variable_freecost = true;
        t
    }

    /// A hypothesis name's leaf: GTED's free-cost renaming applies to it.
    pub fn hypothesis(label: impl Into<String>) -> Tree {
        let mut t = Tree::leaf(label);
        t.hypothesis_freecost = true;
        t
    }

    /// Number of nodes (|T| in the TED similarity formula).
    pub fn size(&self) -> usize {
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            n += 1;
            stack.extend(&t.children);
        }
        n
    }

    /// Levels from the root to the deepest leaf (a leaf has height 1).
    pub fn height(&self) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(self, 1usize)];
        while let Some((t, depth)) = stack.pop() {
            deepest = deepest.max(depth);
            stack.extend(t.children.iter().map(|c| (c, depth + 1)));
        }
        deepest
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

impl Statement {
    /// An unnamed `theorem` around a tree built by hand (tests, benches): no source text, nothing
    /// unparsed.
    pub fn of_tree(tree: Tree) -> Statement {
        Statement {
            keyword: "theorem".into(),
            name: None,
            source: String::new(),
            tree,
            unparsed: Vec::new(),
        }
    }
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
        let t = Tree::node("+", vec![Tree::leaf("a"), Tree::node("f", vec![Tree::leaf("b")])]);
        let labels: Vec<&str> = t.preorder().iter().map(|n| n.label.as_str()).collect();
        assert_eq!(labels, ["+", "a", "f", "b"]);
    }
}
