//! What a job may take from the previous version of its document without judging it again:
//! the previous theorems by name ([`Earlier`]), and the rules by which a view is taken as it
//! is (its inputs unedited or unchanged, and its judgement final and current) or its judged
//! core reused. Building views is `prepare`'s.

use super::resolve::Reads;
use super::{JobInput, RefView, TheoremView};
use crate::config::ReadableRoots;
use crate::documents::Unedited;
use crate::features::engine::{self, Decl};
use lsp_types::Position;
use std::collections::HashMap;
use std::sync::Arc;

/// The position of declaration `d` when the edits `u` left the inputs of `prev` (the previous
/// version's theorem of its name) alone, so that they need not be compared: the declaration
/// is where `prev`'s was (moved by the edits' length when after them), and its text, its
/// directive block and the line above that block (which ends the block) all lie before the
/// changed bytes or all in the unchanged tail. `None`: not shown so; the texts are compared.
pub(super) fn at_if_unedited(u: &Unedited, prev: &TheoremView, d: &Decl) -> Option<Position> {
    let m = prev.made.as_ref()?;
    let p = &prev.decl;
    if p.end <= u.start {
        return (p == d).then_some(prev.at);
    }
    let tail = u.tail?;
    // `block - 1` ends the line above the block: it too must be in the tail.
    let block = p.start.checked_sub(m.lead.len())?;
    if block > tail.old_start && engine::is_shifted(p, d, tail.shift) {
        return Some(Position {
            line: u32::try_from(i64::from(prev.at.line) + tail.line_shift as i64).ok()?,
            character: prev.at.character,
        });
    }
    None
}

/// Whether `prev` (a theorem of the previous version) judged exactly what theorem text
/// `stmt_text` against reference `r` with metrics `lens` would: same texts, same reference
/// (origin, file and header included), no elaborated trees (those are Lean's, redone per
/// version), and every metric done. Only done results: each is in the result cache, which a
/// new core would be filled from; a failure, a timeout or an unavailable Lean-backed metric
/// may go otherwise next time (Lean back, the LLM allowed) and is judged again.
pub(super) fn reusable(prev: &TheoremView, r: &RefView, stmt_text: &str, lens: &[String]) -> bool {
    let same_reference = prev.reference.as_ref().is_some_and(|p| {
        p.text == r.text
            && p.header == r.header
            && p.origin == r.origin
            && p.name == r.name
            && p.file == r.file
            && p.statement.is_some()
    });
    same_reference && *prev.text == *stmt_text && judged_through(prev, lens)
}

/// Whether `prev`'s judgement is final for metrics `lens`: source trees only (elaborated ones
/// are Lean's, redone per version), no problem, the candidate parsed, and every metric done
/// (see [`reusable`] for why only done results count).
fn judged_through(prev: &TheoremView, lens: &[String]) -> bool {
    super::judged_final(prev) && prev.metrics.iter().map(|(m, _)| m).eq(lens)
}

/// The previous version's theorems by name. Looked up in document order: while the names
/// follow the previous order, a cursor answers without hashing, and a name a few places
/// further on is found by looking there (a theorem added, removed or renamed by an edit costs
/// a few comparisons). After a few names not found so, a map of every name (the first theorem
/// of each) answers instead, and the cursor goes on from what it finds. Which theorem of a
/// repeated name is offered does not matter, nor that one found far away only by the map may
/// be missed before it is built: what is taken from a theorem is checked against the
/// declaration's own inputs, and a theorem not offered is judged anew (from the caches).
pub(super) struct Earlier<'a> {
    theorems: &'a [Arc<TheoremView>],
    next: usize,
    misses: usize,
    by_name: Option<HashMap<&'a str, usize>>,
}

/// Places after the cursor [`Earlier`] looks at before its map is built.
const NEAR: usize = 4;
/// Names [`Earlier`] does not find near the cursor before it builds its map.
const MISSES_BEFORE_MAP: usize = 8;

impl<'a> Earlier<'a> {
    pub(super) fn new(theorems: &'a [Arc<TheoremView>]) -> Earlier<'a> {
        Earlier { theorems, next: 0, misses: 0, by_name: None }
    }

    /// The previous theorem named `name`, if one is found (see [`Earlier`]).
    pub(super) fn get(&mut self, name: &Arc<str>) -> Option<&'a Arc<TheoremView>> {
        let theorems = self.theorems;
        // Mostly the same shared name (declaration scans keep them): no text compared.
        let named = |t: &TheoremView| {
            t.decl.name.as_ref().is_some_and(|n| Arc::ptr_eq(n, name) || **n == **name)
        };
        let near = if self.by_name.is_some() { 1 } else { NEAR };
        let end = (self.next + near).min(theorems.len());
        if let Some(i) = (self.next..end).find(|&i| named(&theorems[i])) {
            self.next = i + 1;
            return theorems.get(i);
        }
        if self.by_name.is_none() {
            self.misses += 1;
            if self.misses <= MISSES_BEFORE_MAP {
                return None;
            }
        }
        let m = self.by_name.get_or_insert_with(|| {
            let mut m = HashMap::with_capacity(theorems.len());
            for (i, t) in theorems.iter().enumerate() {
                if let Some(n) = t.name() {
                    m.entry(n).or_insert(i);
                }
            }
            m
        });
        let &i = m.get(&**name)?;
        self.next = i + 1;
        theorems.get(i)
    }
}

/// Whether `prev` (the previous version's theorem of the same name) was made from the same
/// directive text and declaration text as the declaration at hand (its [`Made`] record's);
/// with [`settled`], whether the view may be taken as it is.
pub(super) fn unchanged(prev: &TheoremView, lead: &str, stmt_text: &str) -> bool {
    prev.made.as_ref().is_some_and(|m| *m.lead == *lead && *prev.text == *stmt_text)
}

/// For `prev`, made from the same texts as the declaration at hand: `Some(whether its
/// explanation is missing)` when it holds a final judgement from inputs that are still
/// current: a [`Made`] record whose reference file is the current one (by identity, its path
/// still readable), the reference parsed, and [`judged_through`] (what [`reusable`] checks
/// besides the texts, which the identical inputs make true). Costs a look at the view (its
/// memo) and, once per job and file, a stamp.
pub(super) fn settled(
    prev: &TheoremView,
    lens: u64,
    reads: &mut Reads,
    input: &JobInput,
    readable: &ReadableRoots,
) -> Option<bool> {
    let m = prev.made.as_ref()?;
    if let Some((path, file)) = &m.file {
        // Most theorems name one file: once it is found current, a pointer comparison.
        if !reads.current.iter().any(|f| Arc::ptr_eq(f, file)) {
            if reads.check(readable, path).is_err() {
                return None;
            }
            match reads.file(path, &input.open_texts) {
                Ok(f) if Arc::ptr_eq(&f, file) => reads.current.push(f),
                _ => return None,
            }
        }
    }
    prev.judged_for(lens)
}
