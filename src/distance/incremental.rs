//! Tree edit distance from many trees to one fixed tree, reusing the work of subtrees already
//! measured: a search that rewrites one subtree of its candidate per step pays, per state, for
//! the keyroot subtrees on the path from the rewritten node to the root, not for the whole tree.
//!
//! Why this is exact: in Zhang–Shasha (the left/right engine of [`super::apted`]), the subtree
//! distances of a node `x` of the varying tree against every node `y` of the fixed tree,
//! `TED(V[x], F[y])` for all `y` (a *row*), depend only on the subtree `V[x]` (its labels,
//! flags and shape) and on `F`. So rows are kept per distinct subtree: every node of a varying
//! tree gets a hash-consing id ([label, flags, ids of the children] → id, an exact key, no hash
//! collisions possible), and a row computed once is reused by every later tree containing that
//! subtree. A keyroot whose row is known is skipped whole (its row known means every node
//! below it has its row too: see `Incremental::ted`); the others run the usual forest passes
//! against every keyroot of `F`, reading the known rows of the subtrees hanging off their left
//! path. The distance is the root's row at `F`'s root: the same number the full computation
//! gives (property-tested against the Zhang–Shasha oracle in [`super::naive`]).
//!
//! Within a keyroot that must run, a rewrite low in its postorder still changes every forest
//! row after it, but not the rows before: a forest row at a *boundary* (after a node of the
//! keyroot's left path, or after a subtree hanging off it) depends only on the forest of nodes
//! before it, which gets an exact prefix id (the boundary's subtree id, or the previous prefix
//! id and the subtree's). Large keyroots (the root of a statement: binders, hypotheses and
//! conclusion all hang off its left path) save the rows at every few boundaries as
//! *checkpoints*, and a later tree whose pass shares a prefix resumes after the last
//! checkpointed one (see `forest_pass` for why that is exact).
//!
//! When it does not fit, [`Incremental`] runs the full engine ([`Workspace`]) instead, so a
//! caller always gets the exact distance: a pair on which [`Algorithm::Auto`] would pick APTED
//! (tall zig-zag shapes where left/right paths are slow), or a varying tree whose rows alone
//! would take more than half of the row budget ([`MAX_ROW_CELLS`]).
//!
//! Bounds: rows and checkpoints share one budget of [`MAX_ROW_CELLS`] cells (16 MiB). A call
//! whose rows might not fit first forgets the checkpoints (they only save time), then, if that
//! is not enough, every row and id, and measures its tree from scratch; checkpoints only take
//! what the call's own rows leave. The id tables are
//! forgotten with them, and also once they hold [`MAX_ROW_CELLS`] / 32 ids (ids of subtrees
//! that got no row: calls cut by the deadline, pairs the full engine measured), so they hold
//! at most that many entries plus one tree's nodes. Deadlines are checked every
//! `DEADLINE_CHECK_INTERVAL` (2¹⁴) table cells, as in the full engine; rows and checkpoints of
//! a keyroot cut short are dropped, never kept half-filled.
//!
//! Owns only this cache and its forest passes; the cost model and the full engines are
//! [`super`]'s and [`super::apted`]'s. Knows nothing of Lean or of the search that calls it.

use super::apted::{Postorder, DEADLINE_CHECK_INTERVAL};
use super::zhang_shasha::forest_row;
use super::MAX_TABLE_CELLS;
use super::{Algorithm, CostModel, DistanceError, FlatTree, LabelInterner, Workspace};
use crate::trees::Tree;
use std::collections::HashMap;
use std::time::Instant;

/// Most cells (`u32` distances) the rows and checkpoints of one [`Incremental`] keep: 16 MiB. A
/// 1,000 × 1,000-node pair (the `transted-lite` size limit) needs 2²⁰ cells per whole tree, so
/// the arena holds several whole trees, and at statement sizes (≈ 50 × 50 nodes) thousands of
/// search states' new rows.
pub const MAX_ROW_CELLS: usize = 1 << 22;

/// "No row yet" in the row tables.
const NONE: u32 = u32::MAX;

/// The varying tree of one call, in the fixed tree's orientation.
#[derive(Default)]
struct Varying {
    labels: Vec<u32>,
    flags: Vec<u8>,
    /// Postorder index of the first leaf (in this orientation) of each node's subtree.
    first_leaf: Vec<u32>,
    /// The hash-consing id of each node's subtree.
    ids: Vec<u32>,
    /// Postorder index of each node's parent ([`NONE`] for the root).
    parent: Vec<u32>,
    /// Keyroots in increasing postorder.
    keyroots: Vec<u32>,
    keyroot_work: u64,
}

/// How much of the work [`Incremental`] did and skipped (for benchmarks and tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IncrementalStats {
    /// Distances answered by the row cache.
    pub incremental: u64,
    /// Distances the full engine computed (the pair did not fit, see the module doc).
    pub full: u64,
    /// Forest-table cells filled by the incremental passes.
    pub cells: u64,
    /// Cells a from-scratch left/right computation of the same pairs would have filled.
    pub cells_from_scratch: u64,
    /// Keyroot passes resumed from a checkpoint instead of run from their first node.
    pub resumed: u64,
    /// Times the checkpoints alone were forgotten to make room.
    pub checkpoint_resets: u64,
    /// Times everything was forgotten to make room (or to bound the id tables).
    pub resets: u64,
}

/// Exact tree edit distances between one fixed tree and many varying trees, reusing the
/// subtree-pair distances of every subtree already measured (see the module doc).
pub struct Incremental {
    costs: CostModel,
    labels: LabelInterner,
    fixed: FlatTree,
    /// Rows and passes use the fixed tree's right-to-left postorder (else left-to-right).
    mirrored: bool,
    /// Hash-consing: `[label, flags, child ids...]` → id.
    ids: HashMap<Box<[u32]>, u32>,
    /// Index of each id's row in `rows` (in rows, not cells), or [`NONE`].
    row_of_id: Vec<u32>,
    /// The rows, `|F|` cells each: `rows[r * |F| + y]` = TED(subtree, F[y]).
    rows: Vec<u32>,
    /// Limit on `rows.len()`.
    max_cells: usize,
    checkpointing: Checkpointing,
    /// Pass prefixes: (prefix before, subtree id) → prefix id (see `Incremental::keyroot`).
    prefix_ids: HashMap<(u32, u32), u32>,
    /// Offset of each prefix id's checkpoint in `checkpoints`, or [`NONE`].
    checkpoint_of_prefix: Vec<u32>,
    /// Forest rows saved at pass boundaries: for each keyroot `j` of the fixed tree, the row
    /// (`|F[j]| + 1` cells) at `offsets[j's index]`; `checkpoint_len` cells per checkpoint.
    checkpoints: Vec<u32>,
    offsets: Vec<usize>,
    checkpoint_len: usize,
    /// Limit on `checkpoints.len()` during one call (what the call's rows leave).
    checkpoint_limit: usize,
    varying: Varying,
    events: Vec<(u32, u32)>,
    resume_row: Vec<u32>,
    saves: Vec<(usize, usize)>,
    /// Row of each node of the current varying tree (by postorder), or [`NONE`].
    row_at: Vec<u32>,
    forest: Vec<u32>,
    key: Vec<u32>,
    /// The full engine, for pairs that do not fit.
    workspace: Workspace,
    stats: IncrementalStats,
}

impl Incremental {
    /// An engine measuring trees against `fixed`. `first` is a tree it will be measured
    /// against (the search's start): the orientation (left or right paths) is chosen for that
    /// pair, as the full engine would choose it, and kept.
    pub fn new(fixed: &Tree, first: &Tree, costs: CostModel) -> Incremental {
        Incremental::with_limit(fixed, first, costs, MAX_ROW_CELLS)
    }

    /// As [`Incremental::new`] with a smaller row budget (tests exercise the resets with it).
    pub fn with_limit(fixed: &Tree, first: &Tree, costs: CostModel, max_cells: usize) -> Self {
        let checkpointing =
            Checkpointing { min_keyroot: MIN_CHECKPOINTED_KEYROOT, stride: MIN_CHECKPOINT_STRIDE };
        Incremental::with_checkpointing(fixed, first, costs, max_cells, checkpointing)
    }

    fn with_checkpointing(
        fixed: &Tree,
        first: &Tree,
        costs: CostModel,
        max_cells: usize,
        checkpointing: Checkpointing,
    ) -> Self {
        let mut labels = LabelInterner::new();
        let fixed = FlatTree::new(fixed, &mut labels);
        let sample = FlatTree::new(first, &mut labels);
        let left = fixed.left.keyroot_work.saturating_mul(sample.left.keyroot_work);
        let right = fixed.right.keyroot_work.saturating_mul(sample.right.keyroot_work);
        let mirrored = right < left;
        let order = if mirrored { &fixed.right } else { &fixed.left };
        let mut offsets = Vec::with_capacity(order.keyroots.len());
        let mut checkpoint_len = 0;
        for &j in &order.keyroots {
            offsets.push(checkpoint_len);
            checkpoint_len += j as usize - order.first_leaf[j as usize] as usize + 2;
        }
        Incremental {
            costs,
            labels,
            fixed,
            mirrored,
            ids: HashMap::new(),
            row_of_id: Vec::new(),
            rows: Vec::new(),
            max_cells,
            checkpointing,
            prefix_ids: HashMap::new(),
            checkpoint_of_prefix: Vec::new(),
            checkpoints: Vec::new(),
            offsets,
            checkpoint_len,
            checkpoint_limit: 0,
            varying: Varying::default(),
            events: Vec::new(),
            resume_row: Vec::new(),
            saves: Vec::new(),
            row_at: Vec::new(),
            forest: Vec::new(),
            key: Vec::new(),
            workspace: Workspace::new(),
            stats: IncrementalStats::default(),
        }
    }

    /// What the engine did so far.
    pub fn stats(&self) -> IncrementalStats {
        self.stats
    }

    /// Cells the kept rows and checkpoints take (at most [`MAX_ROW_CELLS`], or the limit
    /// given).
    pub fn kept_cells(&self) -> usize {
        self.rows.len() + self.checkpoints.len()
    }

    fn fixed_order(&self) -> &Postorder {
        if self.mirrored {
            &self.fixed.right
        } else {
            &self.fixed.left
        }
    }

    /// TED(fixed, `varying`) under the engine's cost model, exactly the full engine's value;
    /// [`DistanceError::DeadlineExceeded`] once `deadline` passed, [`DistanceError::TooLarge`]
    /// for a pair beyond [`MAX_TABLE_CELLS`].
    pub fn ted(&mut self, varying: &Tree, deadline: Option<Instant>) -> Result<u32, DistanceError> {
        self.flatten(varying);
        let nf = self.fixed.size();
        let nv = self.varying.labels.len();
        let cells = (nv as u64).saturating_mul(nf as u64);
        if cells > MAX_TABLE_CELLS {
            return Err(DistanceError::TooLarge {
                size_a: nf,
                size_b: nv,
                cells,
                limit: MAX_TABLE_CELLS,
            });
        }
        let fixed_work = self.fixed_order().keyroot_work;
        let work = self.varying.keyroot_work.saturating_mul(fixed_work);
        let fits = nv.saturating_mul(nf) <= self.max_cells / 2
            && work <= super::AUTO_LEFT_RIGHT_FACTOR.saturating_mul(cells);
        if !fits {
            // What `Algorithm::Auto` would do; the same exact distance.
            self.stats.full += 1;
            let flat = FlatTree::new(varying, &mut self.labels);
            return self.workspace.ted_flat_with(
                &self.fixed,
                &flat,
                self.costs,
                Algorithm::Auto,
                deadline,
            );
        }
        if self.rows.len() + self.checkpoints.len() + nv * nf > self.max_cells {
            // Checkpoints only save time: forget them first (rows, ids and prefix ids stay
            // valid without them).
            self.stats.checkpoint_resets += 1;
            self.checkpoints.clear();
            self.checkpoint_of_prefix.fill(NONE);
        }
        if self.rows.len() + nv * nf > self.max_cells {
            // Forget everything (ids included: they index the rows) and start again.
            self.reset();
            self.flatten(varying);
        }
        // This tree's rows come first: checkpoints only take what they leave.
        self.checkpoint_limit = self.max_cells - self.rows.len() - nv * nf;
        self.stats.incremental += 1;
        self.stats.cells_from_scratch += work;
        self.row_at.clear();
        let row_of_id = &self.row_of_id;
        self.row_at.extend(self.varying.ids.iter().map(|&id| row_of_id[id as usize]));
        // Invariant (why a keyroot with a row is skipped whole): a row is only registered once
        // its keyroot's passes are complete, and those need the rows of every node below it,
        // so a node with a row has rows for its whole subtree.
        let mut clock = Clock { deadline, started: Instant::now(), since_check: 0 };
        for ki in 0..self.varying.keyroots.len() {
            let k = self.varying.keyroots[ki] as usize;
            if self.row_at[k] == NONE {
                self.keyroot(k, &mut clock)?;
            }
        }
        Ok(self.rows[self.row_at[nv - 1] as usize * nf + nf - 1])
    }

    /// Runs the forest passes of keyroot `k` of the varying tree against every keyroot of the
    /// fixed tree, from the latest checkpoint of its pass that is known, and registers the rows
    /// of its left path and the checkpoints it saved once all passes are complete.
    fn keyroot(&mut self, k: usize, clock: &mut Clock) -> Result<(), DistanceError> {
        let nf = self.fixed.size();
        let lk = self.varying.first_leaf[k] as usize;
        let (row_mark, checkpoint_mark) = (self.rows.len(), self.checkpoints.len());
        let mut new_rows: Vec<usize> = Vec::new();
        for x in lk..=k {
            if self.varying.first_leaf[x] as usize != lk || self.row_at[x] != NONE {
                continue;
            }
            // An identical subtree met earlier in this tree may have its row by now.
            let known = self.row_of_id[self.varying.ids[x] as usize];
            if known != NONE {
                self.row_at[x] = known;
            } else {
                self.row_at[x] = u32::try_from(self.rows.len() / nf)
                    .expect("BUG: row count bounded by MAX_ROW_CELLS");
                self.rows.resize(self.rows.len() + nf, 0);
                new_rows.push(x);
            }
        }
        // The pass's boundaries: after each node of the left path (the forest so far is that
        // node's subtree) and after each subtree hanging off it (the forest so far is the last
        // boundary's forest and that subtree). Each gets an exact prefix id.
        self.events.clear();
        let mut prefix = NONE;
        for x in lk..k {
            let on_path = self.varying.first_leaf[x] as usize == lk;
            let parent = self.varying.parent[x] as usize;
            if !on_path && self.varying.first_leaf[parent] as usize != lk {
                continue;
            }
            let before = if on_path { NONE } else { prefix };
            prefix = self.prefix_id(before, self.varying.ids[x]);
            self.events.push((x as u32, prefix));
        }
        let resume =
            self.events.iter().rposition(|&(_, p)| self.checkpoint_of_prefix[p as usize] != NONE);
        let start = resume.map_or(lk, |e| self.events[e].0 as usize + 1);
        self.stats.resumed += u64::from(resume.is_some());
        self.resume_row.clear();
        if let Some(e) = resume {
            let at = self.checkpoint_of_prefix[self.events[e].1 as usize] as usize;
            self.resume_row.extend_from_slice(&self.checkpoints[at..at + self.checkpoint_len]);
        }
        // Checkpoints to save: in passes over large keyroots, after every `stride` nodes, while
        // the budget allows.
        self.saves.clear();
        let mut new_checkpoints: Vec<(u32, u32)> = Vec::new();
        let size = k - lk + 1;
        if size >= self.checkpointing.min_keyroot {
            let stride = (size / MAX_CHECKPOINTS_PER_PASS).max(self.checkpointing.stride);
            let mut last = start;
            for &(x, p) in &self.events {
                let x = x as usize;
                if x < start
                    || x + 1 < last + stride
                    || self.checkpoint_of_prefix[p as usize] != NONE
                {
                    continue;
                }
                if self.checkpoints.len() + self.checkpoint_len > self.checkpoint_limit {
                    break;
                }
                let at = self.checkpoints.len();
                self.checkpoints.resize(at + self.checkpoint_len, 0);
                self.saves.push((x, at));
                new_checkpoints.push((p, u32::try_from(at).expect("bounded by MAX_ROW_CELLS")));
                last = x + 1;
            }
        }
        let fixed = if self.mirrored { &self.fixed.right } else { &self.fixed.left };
        for (jk, &j) in fixed.keyroots.iter().enumerate() {
            let j = j as usize;
            let offset = self.offsets[jk];
            let width = j - fixed.first_leaf[j] as usize + 2;
            let resume = if start > lk { &self.resume_row[offset..offset + width] } else { &[] };
            forest_pass(
                &self.varying,
                fixed,
                &self.row_at,
                &mut self.rows,
                &mut self.forest,
                Pass {
                    i: k,
                    j,
                    start,
                    resume,
                    saves: &self.saves,
                    offset,
                    free_rename: self.costs.free_rename,
                },
                &mut self.checkpoints,
            );
            let filled = ((k + 1 - start) * (width - 1)) as u64;
            self.stats.cells += filled;
            if let Err(e) = clock.tick(filled, nf, self.varying.labels.len()) {
                // Rows and checkpoints of this keyroot are incomplete: drop them.
                self.rows.truncate(row_mark);
                self.checkpoints.truncate(checkpoint_mark);
                return Err(e);
            }
        }
        for x in new_rows {
            self.row_of_id[self.varying.ids[x] as usize] = self.row_at[x];
        }
        for (p, at) in new_checkpoints {
            self.checkpoint_of_prefix[p as usize] = at;
        }
        Ok(())
    }

    /// The id of the pass prefix `before` followed by the subtree `id` (`before` = [`NONE`]:
    /// the prefix that is the subtree `id` alone).
    fn prefix_id(&mut self, before: u32, id: u32) -> u32 {
        let next = u32::try_from(self.checkpoint_of_prefix.len()).expect("bounded by the reset");
        let p = *self.prefix_ids.entry((before, id)).or_insert(next);
        if p == next {
            self.checkpoint_of_prefix.push(NONE);
        }
        p
    }

    /// Forget every row, id, prefix and checkpoint.
    fn reset(&mut self) {
        self.stats.resets += 1;
        self.ids.clear();
        self.row_of_id.clear();
        self.rows.clear();
        self.prefix_ids.clear();
        self.checkpoint_of_prefix.clear();
        self.checkpoints.clear();
    }

    /// `varying` in the fixed tree's orientation into `self.varying`, with hash-consing ids
    /// (new subtrees get new ids). Iterative: any height.
    fn flatten(&mut self, tree: &Tree) {
        if self.row_of_id.len() + self.checkpoint_of_prefix.len() > self.max_cells / 32 {
            // Ids of subtrees that got no row (computations cut by the deadline, pairs the
            // full engine measured) would accumulate: forget everything, as when rows fill up.
            self.reset();
        }
        let v = &mut self.varying;
        v.labels.clear();
        v.flags.clear();
        v.first_leaf.clear();
        v.ids.clear();
        v.parent.clear();
        v.keyroots.clear();
        v.keyroot_work = 0;
        // Finished children as (id, first leaf, postorder index), in visit order.
        let mut done: Vec<(u32, u32, u32)> = Vec::new();
        let mut stack: Vec<(&Tree, usize)> = vec![(tree, 0)];
        while let Some(top) = stack.last_mut() {
            let (node, visited) = *top;
            let n = node.children.len();
            if visited < n {
                top.1 += 1;
                let child = if self.mirrored {
                    &node.children[n - 1 - visited]
                } else {
                    &node.children[visited]
                };
                stack.push((child, 0));
                continue;
            }
            stack.pop();
            let post = u32::try_from(v.labels.len()).expect("BUG: tree beyond u32::MAX nodes");
            let label = self.labels.intern(&node.label);
            let flags =
                u8::from(node.variable_freecost) | (u8::from(node.hypothesis_freecost) << 1);
            let kids = &done[done.len() - n..];
            let first_leaf = kids.first().map_or(post, |&(_, leaf, _)| leaf);
            self.key.clear();
            self.key.push(label);
            self.key.push(u32::from(flags));
            if self.mirrored {
                self.key.extend(kids.iter().rev().map(|&(id, _, _)| id));
            } else {
                self.key.extend(kids.iter().map(|&(id, _, _)| id));
            }
            for &(_, _, kid) in kids {
                v.parent[kid as usize] = post;
            }
            let id = match self.ids.get(self.key.as_slice()) {
                Some(&id) => id,
                None => {
                    let id = u32::try_from(self.row_of_id.len())
                        .expect("BUG: ids bounded by the row budget");
                    self.ids.insert(self.key.as_slice().into(), id);
                    self.row_of_id.push(NONE);
                    id
                }
            };
            done.truncate(done.len() - n);
            done.push((id, first_leaf, post));
            v.labels.push(label);
            v.flags.push(flags);
            v.first_leaf.push(first_leaf);
            v.ids.push(id);
            v.parent.push(NONE);
        }
        let n = v.labels.len();
        let mut seen = vec![false; n];
        for i in (0..n).rev() {
            let leaf = v.first_leaf[i] as usize;
            if !seen[leaf] {
                seen[leaf] = true;
                v.keyroots.push(i as u32);
                v.keyroot_work += (i - leaf + 1) as u64;
            }
        }
        v.keyroots.reverse();
    }
}

/// The deadline of one [`Incremental::ted`] call, read every
/// [`DEADLINE_CHECK_INTERVAL`] cells.
struct Clock {
    deadline: Option<Instant>,
    started: Instant,
    since_check: u64,
}

impl Clock {
    fn tick(&mut self, cells: u64, size_a: usize, size_b: usize) -> Result<(), DistanceError> {
        let Some(deadline) = self.deadline else {
            return Ok(());
        };
        self.since_check += cells;
        if self.since_check < DEADLINE_CHECK_INTERVAL {
            return Ok(());
        }
        self.since_check = 0;
        let now = Instant::now();
        if now >= deadline {
            return Err(DistanceError::DeadlineExceeded {
                size_a,
                size_b,
                elapsed: now - self.started,
            });
        }
        Ok(())
    }
}

/// Passes over keyroots smaller than this save no checkpoints (resuming saves little there).
const MIN_CHECKPOINTED_KEYROOT: usize = 32;
/// At most about this many checkpoints per pass over a large keyroot...
const MAX_CHECKPOINTS_PER_PASS: usize = 32;
/// ...and at least this many nodes between two.
const MIN_CHECKPOINT_STRIDE: usize = 8;

/// Which passes save checkpoints, and how far apart (tests save them everywhere).
#[derive(Clone, Copy)]
struct Checkpointing {
    min_keyroot: usize,
    stride: usize,
}

/// One forest pass: keyroot `i` of the varying tree against keyroot `j` of the fixed one.
struct Pass<'a> {
    i: usize,
    j: usize,
    /// First varying node computed: `first_leaf[i]`, or one past a checkpointed boundary...
    start: usize,
    /// ...whose forest row (for this `j`) this is; empty when `start` is `first_leaf[i]`.
    resume: &'a [u32],
    /// (boundary node, checkpoint offset): after that node's row, save it there.
    saves: &'a [(usize, usize)],
    /// This `j`'s offset inside a checkpoint.
    offset: usize,
    free_rename: bool,
}

/// The forest distances of keyroot `i` of the varying tree against keyroot `j` of the fixed
/// one (Zhang–Shasha's `treedist`, as `Workspace::forest_distance` with the subtree table
/// replaced by rows, both through [`forest_row`]): writes the rows of the nodes on `i`'s left path at the nodes of `j`'s,
/// reading the rows of the subtrees hanging off both paths.
///
/// Resuming at `start` is exact because a forest row depends only on the row before it, the
/// first row (both kept) and, for a node off the left path, the row just before its subtree,
/// which lies at or after the boundary resumed from; the rows of the left-path nodes before
/// `start` were registered with the checkpoint.
fn forest_pass(
    v: &Varying,
    f: &Postorder,
    row_at: &[u32],
    rows: &mut [u32],
    forest: &mut Vec<u32>,
    pass: Pass<'_>,
    checkpoints: &mut [u32],
) {
    let Pass { i, j, start, .. } = pass;
    let nf = f.labels.len();
    let (li, lj) = (v.first_leaf[i] as usize, f.first_leaf[j] as usize);
    let height = i - li + 2;
    let width = j - lj + 2;
    // Rows before the resumed one are never read: no need to clear them.
    if forest.len() < height * width {
        forest.resize(height * width, 0);
    }
    for (fy, cell) in forest[..width].iter_mut().enumerate() {
        *cell = fy as u32;
    }
    let first = start - li;
    if first > 0 {
        forest[first * width..(first + 1) * width].copy_from_slice(pass.resume);
    }
    for fx in first.max(1)..height {
        forest[fx * width] = fx as u32;
    }
    let column_first = &f.first_leaf[lj..=j];
    let mut saves = pass.saves.iter().peekable();
    for (x, &x_row) in row_at.iter().enumerate().take(i + 1).skip(start) {
        let fx = x - li + 1;
        let (done, row) = forest.split_at_mut(fx * width);
        let row = &mut row[..width];
        let r = x_row as usize * nf;
        let (xl, xf) = (v.labels[x], v.flags[x]);
        forest_row(
            done,
            row,
            v.first_leaf[x] as usize - li,
            lj,
            column_first,
            &mut rows[r + lj..r + j + 1],
            |y| u32::from(!(xl == f.labels[y] || (pass.free_rename && xf & f.flags[y] != 0))),
        );
        if let Some(&(_, at)) = saves.next_if(|&&(node, _)| node == x) {
            let at = at + pass.offset;
            checkpoints[at..at + width].copy_from_slice(row);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::naive;
    use proptest::prelude::*;
    use std::time::Duration;

    const UNIT: CostModel = CostModel { free_rename: false };
    const FREE: CostModel = CostModel { free_rename: true };

    /// Small trees over a small alphabet, so that equal labels, equal subtrees (shared rows)
    /// and free renames are common.
    fn tree() -> impl Strategy<Value = Tree> {
        let leaf = (0..4u8, 0..4u8).prop_map(|(label, flag)| node(label, flag, Vec::new()));
        leaf.prop_recursive(5, 40, 5, |inner| {
            (0..4u8, 0..4u8, prop::collection::vec(inner, 0..5))
                .prop_map(|(label, flag, children)| node(label, flag, children))
        })
    }

    fn node(label: u8, flag: u8, children: Vec<Tree>) -> Tree {
        let mut t = Tree::node(["a", "b", "c", "d"][label as usize], children);
        t.variable_freecost = flag == 1;
        t.hypothesis_freecost = flag == 2;
        t
    }

    /// `tree` with the subtree at preorder position `at % size` replaced by `by`.
    fn replace(tree: &Tree, at: usize, by: &Tree) -> Tree {
        fn go(t: &Tree, at: &mut usize, by: &Tree) -> Tree {
            if *at == 0 {
                *at = usize::MAX;
                return by.clone();
            }
            *at = at.wrapping_sub(1);
            let mut out = Tree::node(t.label.clone(), Vec::new());
            out.variable_freecost = t.variable_freecost;
            out.hypothesis_freecost = t.hypothesis_freecost;
            out.children = t.children.iter().map(|c| go(c, at, by)).collect();
            out
        }
        let mut at = at % tree.size();
        go(tree, &mut at, by)
    }

    /// A chain of states as a search makes them: each replaces one subtree of the last.
    fn chain() -> impl Strategy<Value = (Tree, Tree, Vec<(usize, Tree)>)> {
        (tree(), tree(), prop::collection::vec((0..64usize, tree()), 1..12))
    }

    fn check_chain(
        fixed: &Tree,
        start: &Tree,
        edits: &[(usize, Tree)],
        costs: CostModel,
        max_cells: usize,
    ) -> Result<IncrementalStats, TestCaseError> {
        let everywhere = Checkpointing { min_keyroot: 1, stride: 1 };
        let mut engine =
            Incremental::with_checkpointing(fixed, start, costs, max_cells, everywhere);
        let mut state = start.clone();
        for (at, by) in std::iter::once(&(0, start.clone())).chain(edits) {
            if !std::ptr::eq(by, start) {
                state = replace(&state, *at, by);
            }
            let want = naive::ted(fixed, &state, costs);
            prop_assert_eq!(engine.ted(&state, None), Ok(want), "{:?} / {:?}", fixed, state);
            // Measured again (every row known now), and from the other side's engine.
            prop_assert_eq!(engine.ted(&state, None), Ok(want));
            prop_assert!(engine.kept_cells() <= max_cells);
        }
        Ok(engine.stats())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn successive_subtree_replacements_keep_the_exact_distance(
            (fixed, start, edits) in chain()
        ) {
            for costs in [UNIT, FREE] {
                check_chain(&fixed, &start, &edits, costs, MAX_ROW_CELLS)?;
                // A budget of a few trees' rows: resets on the way change nothing either.
                let small = 3 * fixed.size() * 40;
                check_chain(&fixed, &start, &edits, costs, small)?;
            }
        }

        #[test]
        fn going_back_and_forth_between_states_keeps_the_exact_distance(
            (fixed, start, edits) in chain()
        ) {
            // Revisit earlier states in another order (their rows are all known).
            let mut states = vec![start.clone()];
            for (at, by) in &edits {
                let next = replace(states.last().expect("start"), *at, by);
                states.push(next);
            }
            let everywhere = Checkpointing {
                min_keyroot: 1,
                stride: 1,
            };
            let mut engine =
                Incremental::with_checkpointing(&fixed, &start, FREE, MAX_ROW_CELLS, everywhere);
            for s in states.iter().rev().chain(&states) {
                prop_assert_eq!(engine.ted(s, None), Ok(naive::ted(&fixed, s, FREE)));
            }
        }
    }

    /// A statement-like tree: a root over `n` hypotheses `(+ x_i (* y_i 2))`.
    fn wide(n: usize, swapped: usize) -> Tree {
        let hyps = (0..n)
            .map(|i| {
                let (x, y) = (Tree::leaf(format!("x{i}")), Tree::leaf(format!("y{i}")));
                let prod = Tree::node("*", vec![y, Tree::leaf("2")]);
                let kids = if i == swapped { vec![prod, x] } else { vec![x, prod] };
                Tree::node("≤", vec![Tree::node("+", kids), Tree::leaf(i.to_string())])
            })
            .collect();
        Tree::node("theorem", hyps)
    }

    #[test]
    fn a_rewrite_of_one_subtree_recomputes_a_fraction_of_the_tables() {
        let fixed = wide(30, usize::MAX);
        let mut engine = Incremental::new(&fixed, &fixed, UNIT);
        assert_eq!(engine.ted(&fixed, None), Ok(0));
        let first = engine.stats();
        assert_eq!(first.cells, first.cells_from_scratch);
        for swapped in 0..30 {
            let state = wide(30, swapped);
            let want = naive::ted(&fixed, &state, UNIT);
            assert_eq!(engine.ted(&state, None), Ok(want));
        }
        let s = engine.stats();
        let (cells, scratch) = (s.cells - first.cells, s.cells_from_scratch - first.cells);
        // Per state: the hypothesis rewritten and the root's pass from the checkpoint before
        // it, not all 30 hypotheses.
        assert!(s.resumed >= 25, "{s:?}");
        assert!(cells * 4 < scratch, "{cells} cells of {scratch}");
    }

    #[test]
    fn a_full_budget_forgets_checkpoints_first_then_everything_and_stays_exact() {
        let fixed = wide(30, usize::MAX);
        let cells = fixed.size() * fixed.size();
        let mut engine = Incremental::with_limit(&fixed, &fixed, FREE, 2 * cells + cells / 4);
        for round in 0..4 {
            for swapped in 0..30 {
                let state = wide(30, (swapped * 7 + round) % 30);
                let want = naive::ted(&fixed, &state, FREE);
                assert_eq!(engine.ted(&state, None), Ok(want));
                assert!(engine.kept_cells() <= 2 * cells + cells / 4);
            }
        }
        let s = engine.stats();
        assert!(s.checkpoint_resets > 0 && s.resets > 0, "{s:?}");
    }

    #[test]
    fn a_computation_cut_by_the_deadline_leaves_no_wrong_row() {
        let fixed = wide(40, usize::MAX);
        let mut engine = Incremental::new(&fixed, &fixed, UNIT);
        let past =
            Instant::now().checked_sub(Duration::from_millis(1)).unwrap_or_else(Instant::now);
        let state = wide(40, 7);
        assert!(matches!(
            engine.ted(&state, Some(past)),
            Err(DistanceError::DeadlineExceeded { .. })
        ));
        assert_eq!(engine.ted(&state, None), Ok(naive::ted(&fixed, &state, UNIT)));
        assert_eq!(engine.ted(&fixed, None), Ok(0));
    }

    #[test]
    fn shapes_the_left_right_engine_is_slow_on_go_to_the_full_engine() {
        // A zig-zag: each node's heavy child alternates sides, so neither left nor right
        // paths are cheap (`Algorithm::Auto` picks APTED for it).
        fn zigzag(n: usize, label: &str) -> Tree {
            let mut t = Tree::leaf(label);
            for i in 0..n {
                let kids =
                    if i % 2 == 0 { vec![t, Tree::leaf("l")] } else { vec![Tree::leaf("r"), t] };
                t = Tree::node("z", kids);
            }
            t
        }
        let (a, b) = (zigzag(200, "a"), zigzag(199, "b"));
        let mut engine = Incremental::new(&a, &b, UNIT);
        let want = Workspace::new().ted(&a, &b, UNIT);
        assert_eq!(engine.ted(&b, None), Ok(want));
        assert_eq!(engine.stats().full, 1);
    }
}
