//! What one oracle batch asks and answers, and where its text goes: the tactic blocks and
//! top-level commands, their outcomes, the check that tactic text cannot escape its block, and
//! the layout of the active region (the lines after the registry that one batch replaces).
//!
//! Must not send anything to Lean nor read its answers (`super` and `super::messages` do).
//!
//! Block layout (design §7.4): `set_option maxHeartbeats H in` / (`universe u in` when the goal
//! instantiates universe parameters) / `example : GOAL := by` / the
//! path lines / the tactic / `all_goals sorry` (the sentinel: at its first column Lean shows the
//! state *before* it, i.e. after the tactic, README §8 / design §5.4). Errors in the block's
//! lines are checked before goals (a term error is recovered with a synthetic `sorry` that
//! closes the goal, design §5.7).

use super::{line_count, OracleError};
use crate::trees::Tree;

/// One tactic to try on a goal: `example : goal := by <path> <tactic>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The proposition to prove (Lean term text).
    pub goal: String,
    /// Tactic lines already applied (the node's path from the root).
    pub path: Vec<String>,
    /// The tactic being tried (may span several lines).
    pub tactic: String,
    /// Ask for "Try this" code actions at the tactic's first line (`rw?`, `exact?`).
    pub suggestions: bool,
    /// Universe level names `goal` mentions, declared for the block by a `universe … in` line
    /// (an `example` cannot take `.{u}`); empty for most goals.
    pub universes: Vec<String>,
}

/// A top-level command checked for errors and messages only (`#print axioms`, a witness).
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    pub text: String,
    /// Ask for "Try this" code actions at this line of `text` (0-based, column 2), e.g. an
    /// `exact?` line of a proof.
    pub suggest_line: Option<u32>,
}

impl Command {
    /// A command checked for diagnostics only.
    pub fn new(text: impl Into<String>) -> Command {
        Command { text: text.into(), suggest_line: None }
    }
}

/// The one goal left after a tactic.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// The goal's type as displayed (whitespace collapsed): the dedup key.
    pub text: String,
    /// Its operator tree (`crate::lean::goals::tree_of` of the goal type).
    pub tree: Tree,
    /// The two sides when the goal is an `=` or `↔` with exactly two tagged sides.
    pub sides: Option<(Tree, Tree)>,
}

/// How a tactic ended (classified in this order: errors first, then goals).
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// An error diagnostic in the block's lines (first message).
    Error(String),
    /// No goals after the tactic.
    Closed,
    /// Exactly one goal.
    Open(Goal),
    /// Several goals (an invalid search node).
    Several(usize),
    /// No goal information at the sentinel and no error (logged; treated as a failure).
    NoInfo,
}

/// A block's outcome and, when asked for, its "Try this" suggestions.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockResult {
    pub outcome: Outcome,
    pub suggestions: Vec<String>,
}

/// A command's diagnostics (severity, message text).
#[derive(Clone, Debug, PartialEq)]
pub struct CommandResult {
    pub errors: Vec<String>,
    /// The same errors with their line, counted from the command's first line.
    pub error_lines: Vec<(u32, String)>,
    pub messages: Vec<(u64, String)>,
    /// "Try this" suggestions at `Command::suggest_line`.
    pub suggestions: Vec<String>,
}

/// Words that start a command: a tactic line starting with one would end the `by` block.
const COMMAND_WORDS: [&str; 14] = [
    "theorem",
    "lemma",
    "example",
    "def",
    "axiom",
    "end",
    "import",
    "namespace",
    "section",
    "open",
    "instance",
    "structure",
    "variable",
    "universe",
];

/// Reject tactic text that could escape its block (design §7.6 "sanitize untrusted text").
pub fn check_tactic_text(text: &str) -> Result<(), OracleError> {
    let bad = text.lines().any(|l| {
        let t = l.trim_start();
        t.starts_with('#')
            || COMMAND_WORDS
                .iter()
                .any(|w| t.strip_prefix(w).is_some_and(|r| r.is_empty() || r.starts_with(' ')))
    }) || text.matches("/-").count() != text.matches("-/").count()
        || text.matches('"').count() % 2 == 1;
    if bad {
        Err(OracleError::UnsafeText { text: text.into() })
    } else {
        Ok(())
    }
}

/// Indent every line of `text` by `n` spaces (continuation lines keep their own indentation).
fn indent(text: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    text.lines().map(|l| format!("{pad}{}", l.trim_end())).collect::<Vec<_>>().join("\n")
}

/// Where a block's lines are in the active region.
pub(super) struct Placed {
    pub(super) start: u32,
    pub(super) end: u32,
    pub(super) tactic_line: u32,
    pub(super) sentinel_line: u32,
}

/// The text of one batch after the registry, and where each block and command landed.
pub(super) struct ActiveRegion {
    pub(super) text: String,
    pub(super) blocks: Vec<Placed>,
    /// Lines `[start, end)` of each command.
    pub(super) commands: Vec<(u32, u32)>,
}

/// Lay out `blocks` then `commands` from document line `base` on, each block under
/// `set_option maxHeartbeats heartbeats in`.
pub(super) fn lay_out(
    blocks: &[Block],
    commands: &[Command],
    base: u32,
    heartbeats: u64,
) -> ActiveRegion {
    let mut active = String::new();
    let mut placed = Vec::new();
    for b in blocks {
        let start = base + line_count(&active);
        let mut text = format!("set_option maxHeartbeats {heartbeats} in\n");
        if !b.universes.is_empty() {
            text.push_str(&format!("universe {} in\n", b.universes.join(" ")));
        }
        text.push_str(&format!("example : {} := by\n", b.goal.replace('\n', " ")));
        for p in &b.path {
            text.push_str(&indent(p, 2));
            text.push('\n');
        }
        let tactic_line = start + line_count(&text);
        text.push_str(&indent(&b.tactic, 2));
        text.push('\n');
        let sentinel_line = start + line_count(&text);
        text.push_str("  all_goals sorry\n\n");
        placed.push(Placed { start, end: start + line_count(&text), tactic_line, sentinel_line });
        active.push_str(&text);
    }
    let mut command_lines = Vec::new();
    for c in commands {
        let start = base + line_count(&active);
        active.push_str(&c.text);
        active.push_str("\n\n");
        command_lines.push((start, base + line_count(&active)));
    }
    ActiveRegion { text: active, blocks: placed, commands: command_lines }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tactic_text_that_escapes_its_block_is_rejected() {
        assert!(check_tactic_text("rw [Nat.add_comm]").is_ok());
        assert!(check_tactic_text("apply forall_congr; intro x_1").is_ok());
        assert!(check_tactic_text("simp\ntheorem evil : False := sorry").is_err());
        assert!(check_tactic_text("#print axioms x").is_err());
        assert!(check_tactic_text("exact (by /- unterminated").is_err());
        assert!(check_tactic_text("endgame_tactic").is_ok());
    }

    #[test]
    fn blocks_and_commands_are_laid_out_after_the_registry() {
        let block = Block {
            goal: "a = a".into(),
            path: vec!["intro x".into()],
            tactic: "rfl".into(),
            suggestions: false,
            universes: vec!["u".into()],
        };
        let region = lay_out(&[block], &[Command::new("#check 1")], 3, 7);
        assert_eq!(
            region.text,
            "set_option maxHeartbeats 7 in\nuniverse u in\nexample : a = a := by\n  intro x\n  rfl\n  all_goals sorry\n\n#check 1\n\n"
        );
        let p = &region.blocks[0];
        assert_eq!((p.start, p.tactic_line, p.sentinel_line, p.end), (3, 7, 8, 10));
        assert_eq!(region.commands, [(10, 12)]);
    }
}
