//! The record of a rewrite: [`Applied`] (the rule and the subterm it rewrote, for the path shown
//! to the user) and [`Rewrite`] (a search move with the whole tree after it). Data only.

use crate::trees::Tree;

/// One applied rewrite, for the path shown to the user.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Applied {
    /// The lemma (or reduction) that justifies it.
    pub rule: &'static str,
    /// The rewritten subterm as text, before the rewrite.
    pub at: String,
}

/// A move the search may take: the rule, where, and the whole tree after it.
#[derive(Clone, Debug)]
pub struct Rewrite {
    pub applied: Applied,
    pub tree: Tree,
}
