//! The tree edit distance engine: APTED on flattened trees with interned labels and a reusable
//! workspace.
//!
//! APTED: M. Pawlik and N. Augsten, "Efficient computation of the tree edit distance", ACM TODS
//! 40(1), 2015 \[1\]; "Tree edit distance: Robust and memory-efficient", Information Systems 56,
//! 2016 \[2\]. Time O(n³) in the worst case (n = the larger tree's size), space O(n²); on every
//! input it does no more subproblems than any other path decomposition algorithm (Zhang–Shasha,
//! Klein, Demaine et al., RTED).
//!
//! What the code does, step by step (a port of the reference implementation,
//! DatabaseGroup/apted `APTED.java` and `NodeIndexer.java`, specialised to unit costs):
//! 1. [`FlatTree::new`] interns labels to `u32` ([`LabelInterner`]) and flattens the tree once;
//!    on first APTED use it is indexed (the reference's `NodeIndexer`): preorder/postorder
//!    translations in both directions, leftmost/rightmost leaf descendants, and the per-subtree
//!    costs of the left, right and inner single-path functions.
//! 2. `optimal_strategy` computes, for every subtree pair, the cheapest path to decompose along
//!    ([2, Algorithm 1], O(n²) time).
//! 3. `Apted::gted` walks the strategy ([1, Section 3.4]): recurse into the subtrees hanging off
//!    the path, then run the single-path function of the path's type — spf1 when one side is a
//!    single node, spfL / spfR (Zhang–Shasha along left / right paths) and spfA ([1, Algorithm 3])
//!    for inner paths. Distances between subtree pairs *without their roots* go to `delta`.
//! 4. The mapping (`apted_mapping`) is the reference's `computeEditMapping`: walk back through
//!    the forest-distance table of the root pair, rebuilt from `delta`, recomputing the table of
//!    each subtree pair met on the way.
//!
//! Where the port differs from the reference, on purpose: strategy costs are exact `i64`
//! (the reference uses `float`; ties may break differently, which changes time, never the
//! distance); spf1 is specialised to unit costs; a strategy path that did not name a leaf of its
//! own subtree would fall back to the left path instead of reading out of bounds; spfA's
//! right-part resets its `fn`/`ft` arrays over the right-to-left preorder range it uses.
//!
//! Also here, as [`Algorithm::LeftRight`]: Zhang–Shasha on postorder arrays along all-left or
//! all-right paths, whichever has fewer subproblems: a second exact algorithm to cross-check
//! APTED against. Both are iterative (any tree height), both stop early on a deadline, and both
//! refuse a pair whose tables would exceed [`MAX_TABLE_CELLS`] before allocating them.
//!
//! Which one runs: [`Algorithm::Auto`] (the default of every entry point) takes the left/right
//! engine when its exact subproblem count is within [`AUTO_LEFT_RIGHT_FACTOR`] × |T1| × |T2|,
//! where APTED's own strategy computation would cost as much as it could save, and APTED
//! otherwise; so the O(n³) bound holds either way. On the GTED statement trees that means
//! left/right nearly always; on zig-zag shaped trees, APTED.
//!
//! Owns: flattening, interning, the distance and mapping computation. Knows nothing of Lean.

use super::zhang_shasha::forest_row;
use super::{CostModel, EditOp, Mapping};
use crate::trees::Tree;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Why a bounded distance computation gave no distance.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DistanceError {
    /// The deadline passed before the distance was known.
    #[error(
        "tree edit distance of a {size_a}×{size_b}-node pair ran out of time after {elapsed:?}"
    )]
    DeadlineExceeded { size_a: usize, size_b: usize, elapsed: Duration },
    /// The pair's distance tables would exceed [`MAX_TABLE_CELLS`]: refused before allocating.
    #[error(
        "too large: {size_a} × {size_b} nodes need a distance table of {cells} cells (limit {limit})"
    )]
    TooLarge { size_a: usize, size_b: usize, cells: u64, limit: u64 },
    /// The two flat trees were interned by different [`LabelInterner`]s, so their label ids
    /// cannot be compared.
    #[error("flat trees of {size_a} and {size_b} nodes come from different label interners")]
    ForeignInterner { size_a: usize, size_b: usize },
}

static NEXT_INTERNER_ID: AtomicU64 = AtomicU64::new(0);

/// Maps label strings to dense `u32` ids, so the inner loop compares integers.
///
/// Every [`FlatTree`] remembers which interner built it; only trees of the same interner can be
/// compared (checked, see [`DistanceError::ForeignInterner`]).
#[derive(Debug)]
pub struct LabelInterner {
    pub(super) id: u64,
    labels: HashMap<String, u32>,
}

impl Default for LabelInterner {
    fn default() -> Self {
        LabelInterner::new()
    }
}

impl LabelInterner {
    pub fn new() -> LabelInterner {
        LabelInterner {
            id: NEXT_INTERNER_ID.fetch_add(1, Ordering::Relaxed),
            labels: HashMap::new(),
        }
    }

    /// The id of `label`, allocating one the first time it is seen.
    pub fn intern(&mut self, label: &str) -> u32 {
        if let Some(&id) = self.labels.get(label) {
            return id;
        }
        // More than u32::MAX distinct labels cannot come from trees that fit in memory next to
        // the quadratic distance table; saturating keeps this total anyway.
        let id = u32::try_from(self.labels.len()).unwrap_or(u32::MAX);
        self.labels.insert(label.to_owned(), id);
        id
    }

    /// Number of distinct labels seen.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }
}

/// Ordered children of every node by preorder id, in one flat array (no allocation per node).
#[derive(Debug, Clone, Default)]
struct Children {
    /// Children of node `p` are `ids[offsets[p]..offsets[p + 1]]`.
    offsets: Vec<u32>,
    ids: Vec<u32>,
}

impl Children {
    /// From each node's parent (preorder ids; the root's entry is ignored). Children come out
    /// in increasing preorder, which is their left-to-right order.
    fn from_parents(parents: &[u32]) -> Children {
        let n = parents.len();
        let mut offsets = vec![0u32; n + 1];
        for &p in parents.iter().skip(1) {
            offsets[p as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut ids = vec![0u32; n.saturating_sub(1)];
        for (child, &p) in parents.iter().enumerate().skip(1) {
            ids[fill[p as usize] as usize] = child as u32;
            fill[p as usize] += 1;
        }
        Children { offsets, ids }
    }

    fn of(&self, p: usize) -> &[u32] {
        &self.ids[self.offsets[p] as usize..self.offsets[p + 1] as usize]
    }
}

/// Free-rename flag bits: a rename is free when both nodes share one (and `free_rename` is on).
const FLAG_VARIABLE: u8 = 1;
const FLAG_HYPOTHESIS: u8 = 2;

/// One tree in one postorder (left-to-right, or right-to-left for the mirrored tree).
#[derive(Debug, Clone, Default)]
pub(super) struct Postorder {
    pub(super) labels: Vec<u32>,
    pub(super) flags: Vec<u8>,
    /// Postorder index of the first leaf (in this orientation) of each node's subtree.
    pub(super) first_leaf: Vec<u32>,
    /// The node's preorder id in the original tree ([`Tree::preorder`]).
    preorder_id: Vec<u32>,
    /// Keyroots in increasing order: the root and every node with an earlier sibling.
    pub(super) keyroots: Vec<u32>,
    /// Σ over keyroots of their subtree size: this tree's factor in the subproblem count.
    pub(super) keyroot_work: u64,
}

/// A tree flattened for the distance engine: labels interned, both postorders precomputed.
///
/// Build it once per tree with [`FlatTree::new`] and compare it as often as needed with
/// [`Workspace::ted_flat`]; all trees compared with each other must share one [`LabelInterner`].
#[derive(Debug, Clone)]
pub struct FlatTree {
    pub(super) interner: u64,
    pub(super) left: Postorder,
    pub(super) right: Postorder,
    /// Preorder facts, kept to build APTED's indices on first use.
    labels: Vec<u32>,
    flags: Vec<u8>,
    children: Children,
    /// APTED's indices, built only when APTED runs on this tree (most statement-sized pairs
    /// never need them, see [`Algorithm::Auto`]).
    indexer: OnceLock<Indexer>,
}

impl FlatTree {
    pub fn new(tree: &Tree, interner: &mut LabelInterner) -> FlatTree {
        // Preorder walk (the node ids of mappings): label, flags and parent per id.
        let mut labels = Vec::new();
        let mut flags = Vec::new();
        let mut parents = Vec::new();
        let mut stack: Vec<(&Tree, u32)> = vec![(tree, 0)];
        while let Some((node, parent)) = stack.pop() {
            let id = id_u32(labels.len());
            labels.push(interner.intern(&node.label));
            let mut f = 0;
            if node.variable_freecost {
                f |= FLAG_VARIABLE;
            }
            if node.hypothesis_freecost {
                f |= FLAG_HYPOTHESIS;
            }
            flags.push(f);
            parents.push(parent);
            stack.extend(node.children.iter().rev().map(|c| (c, id)));
        }
        let children = Children::from_parents(&parents);
        FlatTree {
            interner: interner.id,
            left: Postorder::build(&labels, &flags, &children, false),
            right: Postorder::build(&labels, &flags, &children, true),
            labels,
            flags,
            children,
            indexer: OnceLock::new(),
        }
    }

    fn indexer(&self) -> &Indexer {
        self.indexer.get_or_init(|| {
            Indexer::new(self.labels.clone(), self.flags.clone(), self.children.clone())
        })
    }

    /// Number of nodes.
    pub fn size(&self) -> usize {
        self.left.labels.len()
    }
}

fn id_u32(i: usize) -> u32 {
    // A tree with more than u32::MAX nodes cannot be built in memory alongside its tables.
    u32::try_from(i).expect("BUG: tree larger than u32::MAX nodes")
}

impl Postorder {
    /// Postorder of the tree given by preorder arrays; `mirrored` visits children right to left.
    fn build(labels: &[u32], flags: &[u8], children: &Children, mirrored: bool) -> Postorder {
        let n = labels.len();
        let mut out = Postorder {
            labels: Vec::with_capacity(n),
            flags: Vec::with_capacity(n),
            first_leaf: Vec::with_capacity(n),
            preorder_id: Vec::with_capacity(n),
            keyroots: Vec::new(),
            keyroot_work: 0,
        };
        // Postorder index of each preorder id, filled as nodes finish.
        let mut post_of_pre = vec![0u32; n];
        // (preorder id, number of children visited)
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        while let Some(top) = stack.last_mut() {
            let (pre, visited) = *top;
            let kids = children.of(pre as usize);
            if visited < kids.len() {
                top.1 += 1;
                let child = if mirrored { kids[kids.len() - 1 - visited] } else { kids[visited] };
                stack.push((child, 0));
                continue;
            }
            stack.pop();
            let post = id_u32(out.labels.len());
            let first_child = if mirrored { kids.last() } else { kids.first() };
            let first_leaf = match first_child {
                Some(&c) => out.first_leaf[post_of_pre[c as usize] as usize],
                None => post,
            };
            post_of_pre[pre as usize] = post;
            out.labels.push(labels[pre as usize]);
            out.flags.push(flags[pre as usize]);
            out.first_leaf.push(first_leaf);
            out.preorder_id.push(pre);
        }
        let mut seen = vec![false; n];
        for i in (0..n).rev() {
            let leaf = out.first_leaf[i] as usize;
            if !seen[leaf] {
                seen[leaf] = true;
                out.keyroots.push(id_u32(i));
                out.keyroot_work += (i - leaf + 1) as u64;
            }
        }
        out.keyroots.reverse();
        out
    }
}

/// Rename cost between node `x` of `a` and node `y` of `b`.
#[inline]
fn rename_cost(a: &Postorder, x: usize, b: &Postorder, y: usize, free_rename: bool) -> u32 {
    let free = a.labels[x] == b.labels[y] || (free_rename && a.flags[x] & b.flags[y] != 0);
    u32::from(!free)
}

/// How many forest cells to fill between two deadline checks.
pub(super) const DEADLINE_CHECK_INTERVAL: u64 = 1 << 14;

/// Reusable tables for distance computations, so repeated calls allocate nothing once warm.
#[derive(Debug, Default)]
pub struct Workspace {
    /// Subtree distances, `subtree[x * |b| + y]`, in postorder of the chosen orientation.
    subtree: Vec<u32>,
    /// Forest distances of the keyroot pair being computed.
    forest: Vec<u32>,
    /// Interner for the `&Tree` entry points; cleared on each call so it cannot grow unbounded.
    interner: LabelInterner,
    /// APTED's tables (strategy, delta, spf arrays).
    apted: AptedTables,
}

/// Which exact algorithm computes a distance. All give the same distances; they differ in time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Algorithm {
    /// The default: [`Algorithm::LeftRight`] when its exact subproblem count is at most
    /// [`AUTO_LEFT_RIGHT_FACTOR`] × |T1| × |T2|, else [`Algorithm::Apted`]. APTED's strategy
    /// computation alone visits every one of the |T1| × |T2| subtree pairs several times, so
    /// when an all-left or all-right decomposition is already within a small factor of that, no
    /// strategy can win the overhead back (on the GTED statement trees the factor is 5–8, and
    /// APTED is 3–6× slower there). Whichever runs, the time stays O(n³): the left/right engine
    /// is only chosen when its work is O(n²).
    #[default]
    Auto,
    /// APTED with its optimal all-path strategy: O(n³) time, O(n²) space, any tree height
    /// (its decomposition keeps pending subtree pairs on a heap stack).
    Apted,
    /// Zhang–Shasha along all-left or all-right paths, whichever has fewer subproblems:
    /// iterative (any depth), O(n² min(depth, leaves)²) time.
    LeftRight,
}

/// Largest |T1| × |T2| the engine computes: every algorithm keeps O(|T1| × |T2|) tables
/// (APTED: strategy and subtree distances, 4 bytes a cell each, plus its forest rows; the
/// left/right engine: subtree and forest distances), so 2²⁴ cells (a 4,096 × 4,096-node pair)
/// bound a computation to a few hundred MB. Larger pairs get [`DistanceError::TooLarge`] before
/// anything is allocated, instead of an out-of-memory abort (a 200,000-node pair would need
/// 160 GB per table).
pub const MAX_TABLE_CELLS: u64 = 1 << 24;

/// [`DistanceError::TooLarge`] when the pair's tables would exceed [`MAX_TABLE_CELLS`].
pub(super) fn check_table(a: &FlatTree, b: &FlatTree) -> Result<(), DistanceError> {
    let cells = (a.size() as u64).saturating_mul(b.size() as u64);
    if cells > MAX_TABLE_CELLS {
        return Err(DistanceError::TooLarge {
            size_a: a.size(),
            size_b: b.size(),
            cells,
            limit: MAX_TABLE_CELLS,
        });
    }
    Ok(())
}

/// [`Algorithm::Auto`] runs the left/right engine when its subproblems number at most this
/// many times |T1| × |T2|. Measured (`cargo bench --bench ted_pairs`): at ratio ≈ 20 (complete
/// binary trees of 511 nodes) the left/right engine is still 2× faster than APTED; at ratio ≈
/// 2,500 (zig-zag trees of 201 nodes) APTED is 5× faster.
pub const AUTO_LEFT_RIGHT_FACTOR: u64 = 64;

impl Workspace {
    pub fn new() -> Workspace {
        Workspace::default()
    }

    /// The algorithm [`Algorithm::Auto`] runs for this pair (for measurements and tests).
    pub fn chosen_algorithm(a: &FlatTree, b: &FlatTree) -> Algorithm {
        resolve(Algorithm::Auto, a, b)
    }

    /// Tree edit distance between `a` and `b` (flattens both; see [`Workspace::ted_flat`] to
    /// flatten once and compare many times).
    ///
    /// Panics on a pair beyond [`MAX_TABLE_CELLS`]; inputs of unknown size go through
    /// [`Workspace::try_ted`].
    pub fn ted(&mut self, a: &Tree, b: &Tree, costs: CostModel) -> u32 {
        let (fa, fb) = self.flatten_pair(a, b);
        self.ted_flat(&fa, &fb, costs)
    }

    /// As [`Workspace::ted`], refusing pairs beyond [`MAX_TABLE_CELLS`] and giving up at
    /// `deadline`.
    pub fn try_ted(
        &mut self,
        a: &Tree,
        b: &Tree,
        costs: CostModel,
        deadline: Option<Instant>,
    ) -> Result<u32, DistanceError> {
        let (fa, fb) = self.flatten_pair(a, b);
        self.ted_flat_within(&fa, &fb, costs, deadline)
    }

    /// An optimal edit mapping between `a` and `b`; its ops cost exactly its `distance`.
    ///
    /// Panics on a pair beyond [`MAX_TABLE_CELLS`]; see [`Workspace::try_ted_mapping`].
    pub fn ted_mapping(&mut self, a: &Tree, b: &Tree, costs: CostModel) -> Mapping {
        let (fa, fb) = self.flatten_pair(a, b);
        self.mapping_flat(&fa, &fb, costs)
    }

    /// As [`Workspace::ted_mapping`], refusing pairs beyond [`MAX_TABLE_CELLS`].
    pub fn try_ted_mapping(
        &mut self,
        a: &Tree,
        b: &Tree,
        costs: CostModel,
    ) -> Result<Mapping, DistanceError> {
        let (fa, fb) = self.flatten_pair(a, b);
        check_table(&fa, &fb)?;
        Ok(self.mapping_flat(&fa, &fb, costs))
    }

    fn flatten_pair(&mut self, a: &Tree, b: &Tree) -> (FlatTree, FlatTree) {
        self.interner = LabelInterner::new();
        let fa = FlatTree::new(a, &mut self.interner);
        let fb = FlatTree::new(b, &mut self.interner);
        (fa, fb)
    }

    /// Tree edit distance between two flat trees built with the same [`LabelInterner`].
    ///
    /// Trees from different interners, or a pair beyond [`MAX_TABLE_CELLS`], are a bug in the
    /// caller (use [`Workspace::ted_flat_within`] for inputs of unknown size).
    pub fn ted_flat(&mut self, a: &FlatTree, b: &FlatTree, costs: CostModel) -> u32 {
        match self.ted_flat_within(a, b, costs, None) {
            Ok(d) => d,
            Err(e) => panic!("BUG: {e} (call ted_flat_within for inputs of unknown size)"),
        }
    }

    /// As [`Workspace::ted_flat`], giving up with [`DistanceError::DeadlineExceeded`] once
    /// `deadline` has passed (checked every few thousand table cells, so the overrun is tiny).
    pub fn ted_flat_within(
        &mut self,
        a: &FlatTree,
        b: &FlatTree,
        costs: CostModel,
        deadline: Option<Instant>,
    ) -> Result<u32, DistanceError> {
        self.ted_flat_with(a, b, costs, Algorithm::Auto, deadline)
    }

    /// As [`Workspace::ted_flat_within`] with a chosen [`Algorithm`] (for measurements and
    /// cross-checks; the distance does not depend on it).
    pub fn ted_flat_with(
        &mut self,
        a: &FlatTree,
        b: &FlatTree,
        costs: CostModel,
        algorithm: Algorithm,
        deadline: Option<Instant>,
    ) -> Result<u32, DistanceError> {
        let (pa, pb) = choose_orientation(a, b)?;
        check_table(a, b)?;
        if resolve(algorithm, a, b) == Algorithm::Apted {
            let started = Instant::now();
            return match Apted::run(
                a.indexer(),
                b.indexer(),
                costs.free_rename,
                &mut self.apted,
                deadline,
            ) {
                Some(d) => Ok(d.unsigned_abs()),
                None => Err(DistanceError::DeadlineExceeded {
                    size_a: a.size(),
                    size_b: b.size(),
                    elapsed: started.elapsed(),
                }),
            };
        }
        self.subtree_distances(pa, pb, costs, deadline)?;
        Ok(self.subtree[pa.labels.len() * pb.labels.len() - 1])
    }

    /// An optimal edit mapping between two flat trees built with the same [`LabelInterner`],
    /// with preorder node ids.
    pub fn mapping_flat(&mut self, a: &FlatTree, b: &FlatTree, costs: CostModel) -> Mapping {
        self.mapping_flat_with(a, b, costs, Algorithm::Auto)
    }

    /// As [`Workspace::mapping_flat`] with a chosen [`Algorithm`].
    pub fn mapping_flat_with(
        &mut self,
        a: &FlatTree,
        b: &FlatTree,
        costs: CostModel,
        algorithm: Algorithm,
    ) -> Mapping {
        let (pa, pb) =
            choose_orientation(a, b).expect("BUG: flat trees compared across label interners");
        if let Err(e) = check_table(a, b) {
            panic!("BUG: {e} (check the pair's size first, as try_ted_mapping does)");
        }
        if resolve(algorithm, a, b) == Algorithm::Apted {
            let distance =
                Apted::run(a.indexer(), b.indexer(), costs.free_rename, &mut self.apted, None)
                    .expect("BUG: APTED without a deadline always finishes");
            let ops = apted_mapping(a.indexer(), b.indexer(), costs.free_rename, &mut self.apted);
            return Mapping { distance: distance.unsigned_abs(), ops };
        }
        let computed = self.subtree_distances(pa, pb, costs, None);
        debug_assert!(computed.is_ok(), "no deadline, so no error");
        let distance = self.subtree[pa.labels.len() * pb.labels.len() - 1];
        let mut ops = Vec::with_capacity(pa.labels.len() + pb.labels.len());
        let mut pending = vec![(pa.labels.len() - 1, pb.labels.len() - 1)];
        while let Some((i, j)) = pending.pop() {
            let width = self.forest_distance(pa, pb, i, j, costs.free_rename);
            let forest = &self.forest;
            let (li, lj) = (pa.first_leaf[i] as usize, pb.first_leaf[j] as usize);
            // Row fx of the table stands for the forest of nodes li..li + fx (fx of them).
            let (mut fx, mut fy) = (i - li + 1, j - lj + 1);
            while fx > 0 || fy > 0 {
                let here = forest[fx * width + fy];
                if fx > 0 && forest[(fx - 1) * width + fy] + 1 == here {
                    ops.push(EditOp::Delete { a: pa.preorder_id[li + fx - 1] as usize });
                    fx -= 1;
                } else if fy > 0 && forest[fx * width + fy - 1] + 1 == here {
                    ops.push(EditOp::Insert { b: pb.preorder_id[lj + fy - 1] as usize });
                    fy -= 1;
                } else {
                    let (x, y) = (li + fx - 1, lj + fy - 1);
                    if pa.first_leaf[x] as usize == li && pb.first_leaf[y] as usize == lj {
                        let (ida, idb) = (pa.preorder_id[x] as usize, pb.preorder_id[y] as usize);
                        ops.push(if rename_cost(pa, x, pb, y, costs.free_rename) == 0 {
                            EditOp::Keep { a: ida, b: idb }
                        } else {
                            EditOp::Rename { a: ida, b: idb }
                        });
                        fx -= 1;
                        fy -= 1;
                    } else {
                        // Neither a deletion nor an insertion: the whole subtree pair (x, y) is
                        // matched, to be resolved from its own table later.
                        pending.push((x, y));
                        fx = pa.first_leaf[x] as usize - li;
                        fy = pb.first_leaf[y] as usize - lj;
                    }
                }
            }
        }
        Mapping { distance, ops }
    }

    /// Fills `self.subtree` with the distance of every subtree pair.
    fn subtree_distances(
        &mut self,
        pa: &Postorder,
        pb: &Postorder,
        costs: CostModel,
        deadline: Option<Instant>,
    ) -> Result<(), DistanceError> {
        let (na, nb) = (pa.labels.len(), pb.labels.len());
        self.subtree.clear();
        self.subtree.resize(na * nb, 0);
        let started = deadline.map(|_| Instant::now());
        let mut cells_since_check = 0u64;
        for &i in &pa.keyroots {
            for &j in &pb.keyroots {
                let (i, j) = (i as usize, j as usize);
                self.forest_distance(pa, pb, i, j, costs.free_rename);
                if let (Some(deadline), Some(started)) = (deadline, started) {
                    cells_since_check += ((i - pa.first_leaf[i] as usize + 1)
                        * (j - pb.first_leaf[j] as usize + 1))
                        as u64;
                    if cells_since_check >= DEADLINE_CHECK_INTERVAL {
                        cells_since_check = 0;
                        let now = Instant::now();
                        if now >= deadline {
                            return Err(DistanceError::DeadlineExceeded {
                                size_a: na,
                                size_b: nb,
                                elapsed: now - started,
                            });
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Forest distances for the subtree pair (i, j) into `self.forest` (row width returned),
    /// recording the distance of every subtree pair on their first-leaf paths in `self.subtree`.
    fn forest_distance(
        &mut self,
        pa: &Postorder,
        pb: &Postorder,
        i: usize,
        j: usize,
        free_rename: bool,
    ) -> usize {
        let nb = pb.labels.len();
        let (li, lj) = (pa.first_leaf[i] as usize, pb.first_leaf[j] as usize);
        let rows = i - li + 2;
        let width = j - lj + 2;
        let forest = &mut self.forest;
        forest.clear();
        forest.resize(rows * width, 0);
        for fx in 1..rows {
            forest[fx * width] = fx as u32;
        }
        for (fy, cell) in forest[..width].iter_mut().enumerate() {
            *cell = fy as u32;
        }
        for x in li..=i {
            let fx = x - li + 1;
            let (done, row) = forest.split_at_mut(fx * width);
            // Subtree distances of x against the columns' nodes lj..=j (column fy is node
            // lj + fy - 1, i.e. entry fy - 1 here).
            forest_row(
                done,
                &mut row[..width],
                pa.first_leaf[x] as usize - li,
                lj,
                &pb.first_leaf[lj..=j],
                &mut self.subtree[x * nb + lj..x * nb + j + 1],
                |y| rename_cost(pa, x, pb, y, free_rename),
            );
        }
        width
    }
}

/// The algorithm that will actually run for this pair: `Apted` or `LeftRight`.
fn resolve(algorithm: Algorithm, a: &FlatTree, b: &FlatTree) -> Algorithm {
    match algorithm {
        Algorithm::LeftRight => Algorithm::LeftRight,
        Algorithm::Apted => Algorithm::Apted,
        Algorithm::Auto => {
            let left = a.left.keyroot_work.saturating_mul(b.left.keyroot_work);
            let right = a.right.keyroot_work.saturating_mul(b.right.keyroot_work);
            let pairs = (a.size() as u64).saturating_mul(b.size() as u64);
            if left.min(right) > AUTO_LEFT_RIGHT_FACTOR.saturating_mul(pairs) {
                Algorithm::Apted
            } else {
                Algorithm::LeftRight
            }
        }
    }
}

/// The cheaper of the all-left and all-right strategies for this pair, by exact subproblem count.
fn choose_orientation<'t>(
    a: &'t FlatTree,
    b: &'t FlatTree,
) -> Result<(&'t Postorder, &'t Postorder), DistanceError> {
    if a.interner != b.interner {
        return Err(DistanceError::ForeignInterner { size_a: a.size(), size_b: b.size() });
    }
    let left = a.left.keyroot_work.saturating_mul(b.left.keyroot_work);
    let right = a.right.keyroot_work.saturating_mul(b.right.keyroot_work);
    Ok(if right < left { (&a.right, &b.right) } else { (&a.left, &b.left) })
}

// ===================================================================================== APTED

/// Path types of a strategy path ([1, Section 3]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PathType {
    Left,
    Right,
    Inner,
}

/// Per-tree indices APTED needs (the reference's `NodeIndexer`). Ids are left-to-right preorder
/// ids unless a name says otherwise (`pre_r`: right-to-left preorder, `post_l`/`post_r`:
/// left-to-right / right-to-left postorder). `-1` means "none", as in the reference, because
/// several formulas compare and offset these ids arithmetically.
#[derive(Debug, Clone, Default)]
struct Indexer {
    labels: Vec<u32>,
    flags: Vec<u8>,
    sizes: Vec<i32>,
    parents: Vec<i32>,
    children: Children,
    pre_l_to_pre_r: Vec<i32>,
    pre_r_to_pre_l: Vec<i32>,
    pre_l_to_post_l: Vec<i32>,
    post_l_to_pre_l: Vec<i32>,
    pre_l_to_post_r: Vec<i32>,
    post_r_to_pre_l: Vec<i32>,
    /// Leftmost leaf descendant, both sides in left-to-right postorder.
    post_l_to_lld: Vec<i32>,
    /// Rightmost leaf descendant, both sides in right-to-left postorder.
    post_r_to_rld: Vec<i32>,
    /// The nearest leaf before a node in left-to-right preorder ([1, Section 8.4]).
    pre_l_to_ln: Vec<i32>,
    /// The nearest leaf before a node in right-to-left preorder (pre_r ids).
    pre_r_to_ln: Vec<i32>,
    /// Node is its parent's first child (lies on the parent's leftmost path).
    node_type_l: Vec<bool>,
    /// Node is its parent's last child (lies on the parent's rightmost path).
    node_type_r: Vec<bool>,
    /// Cost of spfL, spfR and spfA for the subtree rooted at each node ([1, Section 5.2]).
    kr_sum: Vec<i64>,
    rev_kr_sum: Vec<i64>,
    desc_sum: Vec<i64>,
}

impl Indexer {
    /// Indexes a tree given in preorder (labels, flags, ordered children by preorder id).
    fn new(labels: Vec<u32>, flags: Vec<u8>, children: Children) -> Indexer {
        let n = labels.len();
        let mut parents = vec![-1i32; n];
        for p in 0..n {
            for &c in children.of(p) {
                parents[c as usize] = p as i32;
            }
        }
        // Children have larger preorder ids than their parent: sum sizes bottom-up.
        let mut sizes = vec![1i32; n];
        for i in (1..n).rev() {
            sizes[parents[i] as usize] += sizes[i];
        }

        let mut pre_l_to_post_l = vec![0i32; n];
        let mut post_l_to_pre_l = vec![0i32; n];
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        let mut next_post = 0i32;
        while let Some(top) = stack.last_mut() {
            let (node, visited) = *top;
            if let Some(&child) = children.of(node).get(visited) {
                top.1 += 1;
                stack.push((child as usize, 0));
            } else {
                stack.pop();
                pre_l_to_post_l[node] = next_post;
                post_l_to_pre_l[next_post as usize] = node as i32;
                next_post += 1;
            }
        }
        let last = n as i32 - 1;
        let mut pre_l_to_pre_r = vec![0i32; n];
        let mut pre_r_to_pre_l = vec![0i32; n];
        let mut pre_l_to_post_r = vec![0i32; n];
        let mut post_r_to_pre_l = vec![0i32; n];
        for p in 0..n {
            // Right-to-left preorder is left-to-right postorder reversed, and vice versa.
            let pre_r = last - pre_l_to_post_l[p];
            pre_l_to_pre_r[p] = pre_r;
            pre_r_to_pre_l[pre_r as usize] = p as i32;
            pre_l_to_post_r[p] = last - p as i32;
            post_r_to_pre_l[(last - p as i32) as usize] = p as i32;
        }

        let mut node_type_l = vec![false; n];
        let mut node_type_r = vec![false; n];
        let mut kr_sum = vec![0i64; n];
        let mut rev_kr_sum = vec![0i64; n];
        let mut desc_sum = vec![0i64; n];
        // The reference's running sums (krSizesSum, revkrSizesSum, currentDescSizes).
        let mut kr_acc = vec![0i64; n];
        let mut rev_acc = vec![0i64; n];
        let mut desc_acc = vec![0i64; n];
        for p in (0..n).rev() {
            let kids = children.of(p);
            let (mut kr, mut rev, mut desc) = (0i64, 0i64, 0i64);
            for (k, &c) in kids.iter().enumerate() {
                let c = c as usize;
                let child_size = i64::from(sizes[c]);
                desc += desc_acc[c];
                if k > 0 {
                    kr += kr_acc[c] + child_size;
                } else {
                    kr += kr_acc[c];
                    node_type_l[c] = true;
                }
                if k + 1 < kids.len() {
                    rev += rev_acc[c] + child_size;
                } else {
                    rev += rev_acc[c];
                    node_type_r[c] = true;
                }
            }
            let size = i64::from(sizes[p]);
            desc_acc[p] = desc + size;
            desc_sum[p] = size * (size + 3) / 2 - desc_acc[p];
            kr_acc[p] = kr;
            kr_sum[p] = kr + size;
            rev_acc[p] = rev;
            rev_kr_sum[p] = rev + size;
        }

        let mut post_l_to_lld = vec![0i32; n];
        let mut post_r_to_rld = vec![0i32; n];
        let mut pre_l_to_ln = vec![-1i32; n];
        let mut pre_r_to_ln = vec![-1i32; n];
        let (mut leaf_l, mut leaf_r) = (-1i32, -1i32);
        for i in 0..n {
            pre_l_to_ln[i] = leaf_l;
            if sizes[i] == 1 {
                leaf_l = i as i32;
            }
            pre_r_to_ln[i] = leaf_r;
            if sizes[pre_r_to_pre_l[i] as usize] == 1 {
                leaf_r = i as i32;
            }
            let pre = post_l_to_pre_l[i] as usize;
            post_l_to_lld[i] = match children.of(pre).first() {
                None => i as i32,
                Some(&c) => post_l_to_lld[pre_l_to_post_l[c as usize] as usize],
            };
            let pre = post_r_to_pre_l[i] as usize;
            post_r_to_rld[i] = match children.of(pre).last() {
                None => i as i32,
                Some(&c) => post_r_to_rld[pre_l_to_post_r[c as usize] as usize],
            };
        }
        Indexer {
            labels,
            flags,
            sizes,
            parents,
            children,
            pre_l_to_pre_r,
            pre_r_to_pre_l,
            pre_l_to_post_l,
            post_l_to_pre_l,
            pre_l_to_post_r,
            post_r_to_pre_l,
            post_l_to_lld,
            post_r_to_rld,
            pre_l_to_ln,
            pre_r_to_ln,
            node_type_l,
            node_type_r,
            kr_sum,
            rev_kr_sum,
            desc_sum,
        }
    }

    fn len(&self) -> usize {
        self.labels.len()
    }

    fn is_leaf(&self, pre: usize) -> bool {
        self.sizes[pre] == 1
    }

    /// Preorder id of the leftmost leaf of `pre`'s subtree.
    fn pre_l_to_lld(&self, pre: usize) -> i32 {
        self.post_l_to_pre_l[self.post_l_to_lld[self.pre_l_to_post_l[pre] as usize] as usize]
    }
}

/// Rename cost between preorder node `x` of `a` and `y` of `b` (symmetric).
#[inline]
fn ren(a: &Indexer, x: usize, b: &Indexer, y: usize, free_rename: bool) -> i32 {
    let free = a.labels[x] == b.labels[y] || (free_rename && a.flags[x] & b.flags[y] != 0);
    i32::from(!free)
}

/// The optimal strategy ([2, Algorithm 1], left-to-right postorder variant of the reference's
/// `computeOptStrategy_postL`): for every subtree pair (v, w), the encoded path to decompose
/// along — `-(leaf + 1)` for a left path, `leaf + 1` for a right or inner path, with `|T1|`
/// added to the leaf id when the path lies in the second tree. Costs are exact integers here
/// (the reference uses floats); ties may resolve differently, which changes time, not results.
fn optimal_strategy(it1: &Indexer, it2: &Indexer, strategy: &mut Vec<i32>, pool: &mut Vec<i64>) {
    let (size1, size2) = (it1.len(), it2.len());
    strategy.clear();
    strategy.resize(size1 * size2, 0);
    const NONE: usize = usize::MAX;
    // Row pool, rows of `size2` cells at offsets that are multiples of `size2`; row 0 is the
    // all-zero row shared by leaves (never written).
    pool.clear();
    pool.resize(size2, 0);
    let mut free_rows: Vec<usize> = Vec::new();
    let mut row_l = vec![NONE; size1];
    let mut row_r = vec![NONE; size1];
    let mut row_i = vec![NONE; size1];
    let mut cost2_l = vec![0i64; size2];
    let mut cost2_r = vec![0i64; size2];
    let mut cost2_i = vec![0i64; size2];
    let mut cost2_path = vec![0i32; size2];
    let path_id_offset = size1 as i32;

    for v in 0..size1 {
        let v_pre = it1.post_l_to_pre_l[v] as usize;
        let is_v_leaf = it1.is_leaf(v_pre);
        let parent_v_pre = it1.parents[v_pre];
        let parent_v_post = if parent_v_pre != -1 {
            it1.pre_l_to_post_l[parent_v_pre as usize] as usize
        } else {
            NONE
        };
        let size_v = it1.sizes[v_pre];
        let left_path_v =
            -(it1.pre_r_to_pre_l[(it1.pre_l_to_pre_r[v_pre] + size_v - 1) as usize] + 1);
        let right_path_v = v_pre as i32 + size_v - 1 + 1;
        let (kr_sum_v, rev_kr_sum_v, desc_sum_v) =
            (it1.kr_sum[v_pre], it1.rev_kr_sum[v_pre], it1.desc_sum[v_pre]);

        if is_v_leaf {
            row_l[v] = 0;
            row_r[v] = 0;
            row_i[v] = 0;
            for i in 0..size2 {
                strategy[v_pre * size2 + it2.post_l_to_pre_l[i] as usize] = v_pre as i32;
            }
        }
        let (lv, rv, iv) = (row_l[v], row_r[v], row_i[v]);

        if parent_v_pre != -1 && row_l[parent_v_post] == NONE {
            for row in [&mut row_l, &mut row_r, &mut row_i] {
                row[parent_v_post] = free_rows.pop().unwrap_or_else(|| {
                    pool.resize(pool.len() + size2, 0);
                    pool.len() - size2
                });
            }
        }
        let (lp, rp, ip) = if parent_v_pre != -1 {
            (row_l[parent_v_post], row_r[parent_v_post], row_i[parent_v_post])
        } else {
            (NONE, NONE, NONE)
        };

        cost2_l.fill(0);
        cost2_r.fill(0);
        cost2_i.fill(0);
        cost2_path.fill(0);

        for w in 0..size2 {
            let w_pre = it2.post_l_to_pre_l[w] as usize;
            let parent_w_pre = it2.parents[w_pre];
            let parent_w_post = if parent_w_pre != -1 {
                it2.pre_l_to_post_l[parent_w_pre as usize] as usize
            } else {
                NONE
            };
            let size_w = it2.sizes[w_pre];
            if it2.is_leaf(w_pre) {
                cost2_l[w] = 0;
                cost2_r[w] = 0;
                cost2_i[w] = 0;
                cost2_path[w] = w_pre as i32;
            }
            let mut min_cost = i64::MAX;
            let mut strategy_path = -1i32;
            if size_v <= 1 || size_w <= 1 {
                min_cost = i64::from(size_v.max(size_w));
            } else {
                let (sv, sw) = (i64::from(size_v), i64::from(size_w));
                let candidates = [
                    (sv * it2.kr_sum[w_pre] + pool[lv + w], left_path_v),
                    (sv * it2.rev_kr_sum[w_pre] + pool[rv + w], right_path_v),
                    (sv * it2.desc_sum[w_pre] + pool[iv + w], strategy[v_pre * size2 + w_pre] + 1),
                    (
                        sw * kr_sum_v + cost2_l[w],
                        -(it2.pre_r_to_pre_l[(it2.pre_l_to_pre_r[w_pre] + size_w - 1) as usize]
                            + path_id_offset
                            + 1),
                    ),
                    (
                        sw * rev_kr_sum_v + cost2_r[w],
                        w_pre as i32 + size_w - 1 + path_id_offset + 1,
                    ),
                    (sw * desc_sum_v + cost2_i[w], cost2_path[w] + path_id_offset + 1),
                ];
                for (cost, path) in candidates {
                    if cost < min_cost {
                        min_cost = cost;
                        strategy_path = path;
                    }
                }
            }

            if parent_v_pre != -1 {
                pool[rp + w] += min_cost;
                let tmp = -min_cost + pool[iv + w];
                if tmp < pool[ip + w] {
                    pool[ip + w] = tmp;
                    strategy[parent_v_pre as usize * size2 + w_pre] =
                        strategy[v_pre * size2 + w_pre];
                }
                if it1.node_type_r[v_pre] {
                    pool[ip + w] += pool[rp + w];
                    pool[rp + w] += pool[rv + w] - min_cost;
                }
                if it1.node_type_l[v_pre] {
                    pool[lp + w] += pool[lv + w];
                } else {
                    pool[lp + w] += min_cost;
                }
            }
            if parent_w_pre != -1 {
                let pw = parent_w_post;
                cost2_r[pw] += min_cost;
                let tmp = -min_cost + cost2_i[w];
                if tmp < cost2_i[pw] {
                    cost2_i[pw] = tmp;
                    cost2_path[pw] = cost2_path[w];
                }
                if it2.node_type_r[w_pre] {
                    cost2_i[pw] += cost2_r[pw];
                    cost2_r[pw] += cost2_r[w] - min_cost;
                }
                if it2.node_type_l[w_pre] {
                    cost2_l[pw] += cost2_l[w];
                } else {
                    cost2_l[pw] += min_cost;
                }
            }
            strategy[v_pre * size2 + w_pre] = strategy_path;
        }

        if !is_v_leaf {
            for row in [lv, rv, iv] {
                pool[row..row + size2].fill(0);
                free_rows.push(row);
            }
        }
    }
}

/// Work arrays of one APTED run, kept in the [`Workspace`] between runs.
#[derive(Debug, Default)]
struct AptedTables {
    strategy: Vec<i32>,
    /// Cost rows of the strategy computation.
    strategy_rows: Vec<i64>,
    /// Distances between subtree pairs *without their roots* ([1, Sections 3.4, 8.2, 8.3]),
    /// `delta[v * |T2| + w]` by preorder ids of the original (unswapped) trees.
    delta: Vec<i32>,
    q: Vec<i32>,
    fn_: Vec<i32>,
    ft: Vec<i32>,
    s: Vec<i32>,
    t: Vec<i32>,
    forest: Vec<i32>,
    keyroots: Vec<usize>,
    columns: Vec<Column>,
}

/// What the spfL/spfR core needs of one column node, gathered once per keyroot pair.
#[derive(Debug, Clone, Copy)]
struct Column {
    label: u32,
    flags: u8,
    start: usize,
    delta_offset: usize,
}

/// One direction of the Zhang–Shasha decomposition over an [`Indexer`]: left paths with
/// left-to-right postorder ids, or right paths with right-to-left ones.
struct Direction<'i> {
    post_to_pre: &'i [i32],
    pre_to_post: &'i [i32],
    /// First leaf of each node's subtree in this direction, by postorder id of the direction.
    path_leaf: &'i [i32],
    /// The node is its parent's first child in this direction (on the parent's path).
    on_parent_path: &'i [bool],
}

impl<'i> Direction<'i> {
    fn of(ix: &'i Indexer, left: bool) -> Direction<'i> {
        if left {
            Direction {
                post_to_pre: &ix.post_l_to_pre_l,
                pre_to_post: &ix.pre_l_to_post_l,
                path_leaf: &ix.post_l_to_lld,
                on_parent_path: &ix.node_type_l,
            }
        } else {
            Direction {
                post_to_pre: &ix.post_r_to_pre_l,
                pre_to_post: &ix.pre_l_to_post_r,
                path_leaf: &ix.post_r_to_rld,
                on_parent_path: &ix.node_type_r,
            }
        }
    }
}

/// A subtree pair of [`Apted::gted`] whose strategy path is being walked: the pairs hanging
/// off the path are computed first, then the path's single-path function.
struct GtedFrame {
    sub1: usize,
    sub2: usize,
    /// The path lies in the first tree.
    in_first: bool,
    /// The path's leaf (preorder id in its own tree).
    leaf: usize,
    path_type: PathType,
    /// The path node whose parent's other children are being visited.
    node: usize,
    /// Index of the next child of `node`'s parent to visit.
    next_child: usize,
}

/// One APTED computation over two indexed trees.
struct Apted<'a> {
    it1: &'a Indexer,
    it2: &'a Indexer,
    free_rename: bool,
    tables: &'a mut AptedTables,
    /// Table cells filled since the last deadline check.
    steps: u64,
    deadline: Option<Instant>,
    timed_out: bool,
}

impl<'a> Apted<'a> {
    fn run(
        it1: &'a Indexer,
        it2: &'a Indexer,
        free_rename: bool,
        tables: &'a mut AptedTables,
        deadline: Option<Instant>,
    ) -> Option<i32> {
        optimal_strategy(it1, it2, &mut tables.strategy, &mut tables.strategy_rows);
        let (n1, n2) = (it1.len(), it2.len());
        let max_size = n1.max(n2) + 1;
        tables.q.clear();
        tables.q.resize(max_size, 0);
        tables.fn_.clear();
        tables.fn_.resize(max_size + 1, -1);
        tables.ft.clear();
        tables.ft.resize(max_size + 1, -1);
        tables.delta.clear();
        tables.delta.resize(n1 * n2, 0);
        // [reference `tedInit`]: subtree pairs where one side is a single node.
        for x in 0..n1 {
            let size_x = it1.sizes[x];
            for y in 0..n2 {
                let size_y = it2.sizes[y];
                tables.delta[x * n2 + y] = if size_x == 1 && size_y == 1 {
                    0
                } else if size_x == 1 {
                    size_y - 1
                } else if size_y == 1 {
                    size_x - 1
                } else {
                    0
                };
            }
        }
        let mut apted =
            Apted { it1, it2, free_rename, tables, steps: 0, deadline, timed_out: false };
        let d = apted.gted(0, 0);
        (!apted.timed_out).then_some(d)
    }

    /// Counts `cells` of work and checks the deadline every [`DEADLINE_CHECK_INTERVAL`] cells.
    fn tick(&mut self, cells: u64) -> bool {
        self.steps += cells;
        if self.steps >= DEADLINE_CHECK_INTERVAL {
            self.steps = 0;
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.timed_out = true;
                }
            }
        }
        self.timed_out
    }

    /// Index into `delta` of left-hand node `x` and right-hand node `y` of a single-path
    /// function, whose trees may be swapped relative to the input.
    #[inline]
    fn delta_at(&self, swapped: bool, x: usize, y: usize) -> usize {
        let n2 = self.it2.len();
        if swapped {
            y * n2 + x
        } else {
            x * n2 + y
        }
    }

    /// GTED ([1, Section 3.4], reference `gted`): distance between subtree `sub1` of the first
    /// tree and `sub2` of the second, decomposing along the strategy path of the pair.
    ///
    /// The reference recurses into every subtree hanging off the path before running the
    /// path's single-path function; here those pending pairs live on a heap stack
    /// ([`GtedFrame`]), so a tree of any height is safe (a recursive port overflowed the stack
    /// on tall trees, and capping APTED's height sent tall zig-zag pairs to the slow
    /// left/right engine).
    fn gted(&mut self, sub1: usize, sub2: usize) -> i32 {
        let mut stack = match self.gted_enter(sub1, sub2) {
            Ok(d) => return d,
            Err(frame) => vec![frame],
        };
        loop {
            let top = stack.last_mut().expect("BUG: the loop returns when the stack empties");
            if let Some((c1, c2)) = self.gted_next_child(top) {
                match self.gted_enter(c1, c2) {
                    Ok(_) if self.timed_out => return 0,
                    Ok(_) => {}
                    Err(frame) => stack.push(frame),
                }
                continue;
            }
            let frame = stack.pop().expect("BUG: top exists");
            let d = self.gted_finish(&frame);
            if stack.is_empty() {
                return d;
            }
            if self.timed_out {
                return 0;
            }
        }
    }

    /// Start the pair (sub1, sub2): its distance when a side is a single node (or the deadline
    /// passed), else the frame that walks its strategy path.
    fn gted_enter(&mut self, sub1: usize, sub2: usize) -> Result<i32, GtedFrame> {
        let (it1, it2) = (self.it1, self.it2);
        let (size1, size2) = (it1.sizes[sub1], it2.sizes[sub2]);
        if size1 == 1 || size2 == 1 {
            return Ok(self.spf1(sub1, sub2));
        }
        if self.tick(0) {
            return Ok(0);
        }
        let strategy_path_id = self.tables.strategy[sub1 * it2.len() + sub2];
        let offset = it1.len() as i32;
        let path_node = strategy_path_id.abs() - 1;
        let in_first = path_node < offset;
        let (own, root, size) = if in_first { (it1, sub1, size1) } else { (it2, sub2, size2) };
        let mut leaf = if in_first { path_node } else { path_node - offset };
        let mut path_type = if strategy_path_id < 0 {
            PathType::Left
        } else if leaf == root as i32 + size - 1 {
            PathType::Right
        } else {
            PathType::Inner
        };
        // The strategy always names a leaf of the pair's own subtree; should it ever not, the
        // left path is a correct (if slower) choice, so no input can send us out of bounds.
        let in_subtree = leaf >= root as i32 && leaf < root as i32 + size;
        if !in_subtree || !own.is_leaf(leaf as usize) {
            leaf = own.pre_l_to_lld(root);
            path_type = PathType::Left;
        }
        Err(GtedFrame {
            sub1,
            sub2,
            in_first,
            leaf: leaf as usize,
            path_type,
            node: leaf as usize,
            next_child: 0,
        })
    }

    /// The next subtree pair hanging off `frame`'s path (a sibling of a path node against the
    /// other whole subtree), walking from the leaf up to the root; `None` when all are done.
    fn gted_next_child(&self, frame: &mut GtedFrame) -> Option<(usize, usize)> {
        let (own, root) =
            if frame.in_first { (self.it1, frame.sub1) } else { (self.it2, frame.sub2) };
        loop {
            let parent = own.parents[frame.node];
            if parent < root as i32 {
                return None;
            }
            let children = own.children.of(parent as usize);
            while let Some(&child) = children.get(frame.next_child) {
                frame.next_child += 1;
                if child as usize != frame.node {
                    return Some(if frame.in_first {
                        (child as usize, frame.sub2)
                    } else {
                        (frame.sub1, child as usize)
                    });
                }
            }
            frame.node = parent as usize;
            frame.next_child = 0;
        }
    }

    /// The single-path function of `frame`'s path, once every subtree off the path is done.
    fn gted_finish(&mut self, frame: &GtedFrame) -> i32 {
        let (it1, it2) = (self.it1, self.it2);
        let (sub1, sub2) = (frame.sub1, frame.sub2);
        let (a, ra, b, rb, swapped) = if frame.in_first {
            (it1, sub1, it2, sub2, false)
        } else {
            (it2, sub2, it1, sub1, true)
        };
        match frame.path_type {
            PathType::Left => self.spf_lr(a, ra, b, rb, swapped, true),
            PathType::Right => self.spf_lr(a, ra, b, rb, swapped, false),
            PathType::Inner => self.spf_a(a, ra, b, rb, frame.leaf, frame.path_type, swapped),
        }
    }

    /// spf1 ([2, Section 6.1]) for unit costs: one side is a single node, so the distance is
    /// the other side's size, less one when some node there can take the single node's place
    /// for free.
    fn spf1(&mut self, sub1: usize, sub2: usize) -> i32 {
        let (it1, it2) = (self.it1, self.it2);
        let (size1, size2) = (it1.sizes[sub1], it2.sizes[sub2]);
        let fr = self.free_rename;
        if size1 == 1 && size2 == 1 {
            return ren(it1, sub1, it2, sub2, fr);
        }
        if size1 == 1 {
            let matched = (sub2..sub2 + size2 as usize).any(|y| ren(it1, sub1, it2, y, fr) == 0);
            return size2 - i32::from(matched);
        }
        let matched = (sub1..sub1 + size1 as usize).any(|x| ren(it1, x, it2, sub2, fr) == 0);
        size1 - i32::from(matched)
    }

    /// spfL / spfR ([1, Sections 3.3-3.5], reference `spfL`, `spfR`): Zhang–Shasha along
    /// left (or right) paths, with the left-hand subtree `ra` as the only keyroot on its side
    /// (the subtrees off its path are already in `delta`) and every keyroot of `rb`'s subtree on
    /// the other.
    fn spf_lr(
        &mut self,
        a: &Indexer,
        ra: usize,
        b: &Indexer,
        rb: usize,
        swapped: bool,
        left: bool,
    ) -> i32 {
        let (da, db) = (Direction::of(a, left), Direction::of(b, left));
        // Keyroots of rb's subtree: rb and every node not on its parent's path, in increasing
        // postorder of the direction (descendants before ancestors).
        let mut keyroots = std::mem::take(&mut self.tables.keyroots);
        keyroots.clear();
        let size_b = b.sizes[rb] as usize;
        let post_rb = db.pre_to_post[rb] as usize;
        for post in post_rb + 1 - size_b..=post_rb {
            let pre = db.post_to_pre[post] as usize;
            if pre == rb || !db.on_parent_path[pre] {
                keyroots.push(pre);
            }
        }
        let width = size_b + 1;
        let mut forest = std::mem::take(&mut self.tables.forest);
        forest.clear();
        forest.resize((a.sizes[ra] as usize + 1) * width, 0);
        for &kr in &keyroots {
            self.tree_edit_dist(a, &da, ra, b, &db, kr, &mut forest, width, swapped);
        }
        let d = forest[a.sizes[ra] as usize * width + size_b];
        self.tables.keyroots = keyroots;
        self.tables.forest = forest;
        d
    }

    /// The core of spfL / spfR (reference `treeEditDist`, `revTreeEditDist`): forest distances
    /// between `ra`'s subtree and keyroot `rb`'s, storing the distance without roots of every
    /// pair of nodes on their paths in `delta`.
    #[allow(clippy::too_many_arguments)]
    fn tree_edit_dist(
        &mut self,
        a: &Indexer,
        da: &Direction<'_>,
        ra: usize,
        b: &Indexer,
        db: &Direction<'_>,
        rb: usize,
        forest: &mut [i32],
        width: usize,
        swapped: bool,
    ) {
        let fr = self.free_rename;
        let i = da.pre_to_post[ra] as usize;
        let j = db.pre_to_post[rb] as usize;
        // First postorder id of each subtree: the reference's ioff + 1, joff + 1.
        let ioff = da.path_leaf[i] as usize;
        let joff = db.path_leaf[j] as usize;
        let (rows, cols) = (i - ioff + 1, j - joff + 1);
        if self.tick((rows * cols) as u64) {
            return;
        }
        // Column facts, once per keyroot pair, in column order: label, flags, where the
        // column node's subtree starts (`usize::MAX` when it lies on rb's path), and its part
        // of the `delta` index (`delta[x, y]` is `row_base(x) + column_offset(y)`, by the
        // unswapped trees' ids).
        let n2 = self.it2.len();
        let mut columns = std::mem::take(&mut self.tables.columns);
        columns.clear();
        for y_post in joff..=j {
            let y = db.post_to_pre[y_post] as usize;
            let leaf = db.path_leaf[y_post] as usize;
            columns.push(Column {
                label: b.labels[y],
                flags: b.flags[y],
                start: if leaf == joff { usize::MAX } else { leaf - joff },
                delta_offset: if swapped { y * n2 } else { y },
            });
        }
        forest[0] = 0;
        for i1 in 1..=rows {
            forest[i1 * width] = i1 as i32;
        }
        for (j1, cell) in forest[1..=cols].iter_mut().enumerate() {
            *cell = j1 as i32 + 1;
        }
        let delta = &mut self.tables.delta;
        for i1 in 1..=rows {
            let x_post = i1 - 1 + ioff;
            let x = da.post_to_pre[x_post] as usize;
            let x_start = da.path_leaf[x_post] as usize - ioff;
            let (x_label, x_flags) = (a.labels[x], a.flags[x]);
            let row_base = if swapped { x } else { x * n2 };
            let (done, rest) = forest.split_at_mut(i1 * width);
            let prev = &done[(i1 - 1) * width..];
            let start_row = &done[x_start * width..];
            let row = &mut rest[..width];
            for (j1, column) in columns.iter().enumerate() {
                let j1 = j1 + 1;
                let u =
                    i32::from(!(x_label == column.label || (fr && x_flags & column.flags != 0)));
                let del = prev[j1] + 1;
                let ins = row[j1 - 1] + 1;
                let at = row_base + column.delta_offset;
                let matched = if x_start == 0 && column.start == usize::MAX {
                    let inner = prev[j1 - 1];
                    delta[at] = inner;
                    inner + u
                } else {
                    let y_start = if column.start == usize::MAX { 0 } else { column.start };
                    start_row[y_start] + delta[at] + u
                };
                row[j1] = del.min(ins).min(matched);
            }
        }
        self.tables.columns = columns;
    }
}

/// Sentinel of the reference for "no such node" in comparisons (`0x7fffffff`).
const NO_NODE: i64 = i32::MAX as i64;

#[inline]
fn ix(i: i64) -> usize {
    // Every index formed in spfA is non-negative by construction (see the reference); a
    // negative one would be a bug, and converts to a huge index that fails the bounds check.
    i as usize
}

impl Apted<'_> {
    /// The reference's `updateFnArray` ([1, Section 8.4]).
    fn update_fn(&mut self, ln_for_node: i64, node: i64, current_subtree: i64) {
        let fn_ = &mut self.tables.fn_;
        let last = fn_.len() - 1;
        if ln_for_node >= current_subtree {
            fn_[ix(node)] = fn_[ix(ln_for_node)];
            fn_[ix(ln_for_node)] = node as i32;
        } else {
            fn_[ix(node)] = fn_[last];
            fn_[last] = node as i32;
        }
    }

    /// The reference's `updateFtArray`.
    fn update_ft(&mut self, ln_for_node: i64, node: i64) {
        self.tables.ft[ix(node)] = ln_for_node as i32;
        let next = self.tables.fn_[ix(node)];
        if next > -1 {
            self.tables.ft[next as usize] = node as i32;
        }
    }

    /// spfA ([1, Sections 7, 8, Algorithm 3], reference `spfA`): the single-path function for
    /// any path, used here for inner paths. `a`/`ra` is the subtree holding the path (whose
    /// leaf is `path_leaf`), `b`/`rb` the other one; `swapped` says `a` is the second input
    /// tree. A line-by-line port of the reference, with its variable names, so the two can be
    /// read side by side.
    #[allow(clippy::too_many_arguments)]
    fn spf_a(
        &mut self,
        a: &Indexer,
        ra: usize,
        b: &Indexer,
        rb: usize,
        path_leaf: usize,
        path_type: PathType,
        swapped: bool,
    ) -> i32 {
        let fr = self.free_rename;
        let cur1 = ra as i64;
        let cur2 = rb as i64;
        let subtree_size1 = i64::from(a.sizes[ra]);
        let subtree_size2 = i64::from(b.sizes[rb]);
        let w = ix(subtree_size2 + 1);
        let mut s = std::mem::take(&mut self.tables.s);
        let mut t = std::mem::take(&mut self.tables.t);
        s.clear();
        s.resize(ix(subtree_size1 + 1) * w, 0);
        t.clear();
        t.resize(w * w, 0);

        let mut current_forest_cost1: i32 = 0;
        let mut min_cost: i32 = -1;
        let mut start_path_node: i64 = -1;
        let mut end_path_node: i64 = path_leaf as i64;
        let it2_pre_l_off = cur2;
        let it2_pre_r_off = i64::from(b.pre_l_to_pre_r[rb]);
        let pre_l_to_pre_r1 = |n: i64| i64::from(a.pre_l_to_pre_r[ix(n)]);
        let pre_l_to_pre_r2 = |n: i64| i64::from(b.pre_l_to_pre_r[ix(n)]);
        let pre_r_to_pre_l1 = |n: i64| i64::from(a.pre_r_to_pre_l[ix(n)]);
        let pre_r_to_pre_l2 = |n: i64| i64::from(b.pre_r_to_pre_l[ix(n)]);
        let size1_of = |n: i64| i64::from(a.sizes[ix(n)]);
        let size2_of = |n: i64| i64::from(b.sizes[ix(n)]);
        let parent1 = |n: i64| i64::from(a.parents[ix(n)]);
        let parent2 = |n: i64| i64::from(b.parents[ix(n)]);

        // Loop A: walk up the path.
        while end_path_node >= cur1 {
            if self.tick(0) {
                break;
            }
            let it1_pre_l_off = end_path_node;
            let it1_pre_r_off = pre_l_to_pre_r1(end_path_node);
            let end_path_node_in_pre_r = pre_l_to_pre_r1(end_path_node);
            let start_path_node_in_pre_r =
                if start_path_node == -1 { NO_NODE } else { pre_l_to_pre_r1(start_path_node) };
            let parent_of_end_path_node = parent1(end_path_node);
            let parent_of_end_path_node_in_pre_r = if parent_of_end_path_node == -1 {
                NO_NODE
            } else {
                pre_l_to_pre_r1(parent_of_end_path_node)
            };
            let left_part = start_path_node - end_path_node > 1;
            let right_part =
                start_path_node >= 0 && start_path_node_in_pre_r - end_path_node_in_pre_r > 1;

            // Nodes to the left of the path.
            if path_type == PathType::Right || (path_type == PathType::Inner && left_part) {
                let (r_f_first, l_f_first) = if start_path_node == -1 {
                    (end_path_node_in_pre_r, end_path_node)
                } else {
                    (start_path_node_in_pre_r, start_path_node - 1)
                };
                let r_f_last = if right_part { -1 } else { end_path_node_in_pre_r };
                let r_g_last = pre_l_to_pre_r2(cur2);
                let r_g_first = r_g_last + subtree_size2 - 1;
                let l_f_last = if right_part { end_path_node + 1 } else { end_path_node };
                let last = self.tables.fn_.len() - 1;
                self.tables.fn_[last] = -1;
                for i in cur2..cur2 + subtree_size2 {
                    self.tables.fn_[ix(i)] = -1;
                    self.tables.ft[ix(i)] = -1;
                }
                let tmp_forest_cost1 = current_forest_cost1;
                // Loop B: every node of G, right to left.
                let mut r_g = r_g_first;
                while r_g >= r_g_last {
                    if self.tick(subtree_size1 as u64) {
                        break;
                    }
                    let l_g_first = pre_r_to_pre_l2(r_g);
                    let r_g_in_pre_l = pre_r_to_pre_l2(r_g);
                    let r_g_minus1_in_pre_l = if r_g <= pre_l_to_pre_r2(cur2) {
                        NO_NODE
                    } else {
                        pre_r_to_pre_l2(r_g - 1)
                    };
                    let parent_of_r_g_in_pre_l = parent2(r_g_in_pre_l);
                    let l_g_last = if path_type == PathType::Right {
                        if l_g_first == cur2 || r_g_minus1_in_pre_l != parent_of_r_g_in_pre_l {
                            l_g_first
                        } else {
                            parent2(l_g_first) + 1
                        }
                    } else if l_g_first == cur2 {
                        l_g_first
                    } else {
                        cur2 + 1
                    };
                    let ln = i64::from(b.pre_l_to_ln[ix(l_g_first)]);
                    self.update_fn(ln, l_g_first, cur2);
                    self.update_ft(ln, l_g_first);
                    let mut r_f = r_f_first;
                    current_forest_cost1 = tmp_forest_cost1;
                    // Loop C: the nodes of F left of the path node.
                    let mut l_f = l_f_first;
                    while l_f >= l_f_last {
                        if l_f == l_f_last && !right_part {
                            r_f = r_f_last;
                        }
                        current_forest_cost1 += 1;
                        // Only whether G's forest is a single node matters (for sp2).
                        let current_forest_size2 = size2_of(l_g_first);
                        let mut current_forest_cost2 = b.sizes[ix(l_g_first)];
                        let l_f_in_pre_r = pre_l_to_pre_r1(l_f);
                        let f_forest_is_tree = l_f_in_pre_r == r_f;
                        let l_f_subtree_size = size1_of(l_f);
                        let l_f_is_consecutive = start_path_node - l_f == 1;
                        let l_f_is_left_sibling = l_f + l_f_subtree_size == start_path_node;
                        let sp1_row = ix(l_f + 1 - it1_pre_l_off) * w;
                        let sp2_row = ix(l_f - it1_pre_l_off) * w;
                        let mut sp3_row = 0;
                        let write_row = ix(l_f - it1_pre_l_off) * w;
                        let mut sp1_source = 1;
                        let mut sp3_source = 1;
                        let mut sp3: i32;
                        if f_forest_is_tree {
                            if l_f_subtree_size == 1 {
                                sp1_source = 3;
                            } else if l_f_is_consecutive {
                                sp1_source = 2;
                            }
                            sp3 = 0;
                            sp3_source = 2;
                        } else {
                            if l_f_is_consecutive {
                                sp1_source = 2;
                            }
                            sp3 = current_forest_cost1 - a.sizes[ix(l_f)];
                            if l_f_is_left_sibling {
                                sp3_source = 3;
                            }
                        }
                        if sp3_source == 1 {
                            sp3_row = ix(l_f + l_f_subtree_size - it1_pre_l_off) * w;
                        }
                        let mut l_g = l_g_first;
                        let mut sp1 = match sp1_source {
                            1 => s[sp1_row + ix(l_g - it2_pre_l_off)],
                            2 => t[ix(l_g - it2_pre_l_off) * w + ix(r_g - it2_pre_r_off)],
                            _ => current_forest_cost2,
                        };
                        sp1 += 1;
                        min_cost = sp1;
                        let mut sp2 = if current_forest_size2 == 1 {
                            current_forest_cost1
                        } else {
                            self.tables.q[ix(l_f)]
                        };
                        sp2 += 1;
                        if sp2 < min_cost {
                            min_cost = sp2;
                        }
                        if sp3 < min_cost {
                            sp3 += self.tables.delta[self.delta_at(swapped, ix(l_f), ix(l_g))];
                            if sp3 < min_cost {
                                sp3 += ren(a, ix(l_f), b, ix(l_g), fr);
                                if sp3 < min_cost {
                                    min_cost = sp3;
                                }
                            }
                        }
                        s[write_row + ix(l_g - it2_pre_l_off)] = min_cost;
                        l_g = i64::from(self.tables.ft[ix(l_g)]);
                        // Loop D: the nodes of G left of rG.
                        while l_g >= l_g_last {
                            current_forest_cost2 += 1;
                            sp1 = match sp1_source {
                                1 => s[sp1_row + ix(l_g - it2_pre_l_off)],
                                2 => t[ix(l_g - it2_pre_l_off) * w + ix(r_g - it2_pre_r_off)],
                                _ => current_forest_cost2,
                            } + 1;
                            let fn_l_g = i64::from(self.tables.fn_[ix(l_g)]);
                            sp2 = s[sp2_row + ix(fn_l_g - it2_pre_l_off)] + 1;
                            min_cost = sp1.min(sp2);
                            sp3 = self.tables.delta[self.delta_at(swapped, ix(l_f), ix(l_g))];
                            if sp3 < min_cost {
                                let after = i64::from(self.tables.fn_[ix(l_g + size2_of(l_g) - 1)]);
                                sp3 += match sp3_source {
                                    1 => s[sp3_row + ix(after - it2_pre_l_off)],
                                    2 => current_forest_cost2 - b.sizes[ix(l_g)],
                                    _ => t[ix(after - it2_pre_l_off) * w + ix(r_g - it2_pre_r_off)],
                                };
                                if sp3 < min_cost {
                                    sp3 += ren(a, ix(l_f), b, ix(l_g), fr);
                                    if sp3 < min_cost {
                                        min_cost = sp3;
                                    }
                                }
                            }
                            s[write_row + ix(l_g - it2_pre_l_off)] = min_cost;
                            l_g = i64::from(self.tables.ft[ix(l_g)]);
                        }
                        l_f -= 1;
                    }
                    if r_g_minus1_in_pre_l == parent_of_r_g_in_pre_l {
                        if !right_part {
                            if left_part {
                                let at = self.delta_at(
                                    swapped,
                                    ix(end_path_node),
                                    ix(parent_of_r_g_in_pre_l),
                                );
                                self.tables.delta[at] = s[ix(l_f_last + 1 - it1_pre_l_off) * w
                                    + ix(r_g_minus1_in_pre_l + 1 - it2_pre_l_off)];
                            }
                            if end_path_node > 0
                                && end_path_node == parent_of_end_path_node + 1
                                && end_path_node_in_pre_r == parent_of_end_path_node_in_pre_r + 1
                            {
                                let at = self.delta_at(
                                    swapped,
                                    ix(parent_of_end_path_node),
                                    ix(parent_of_r_g_in_pre_l),
                                );
                                self.tables.delta[at] = s[ix(l_f_last - it1_pre_l_off) * w
                                    + ix(r_g_minus1_in_pre_l + 1 - it2_pre_l_off)];
                            }
                        }
                        let mut l_f = l_f_first;
                        while l_f >= l_f_last {
                            self.tables.q[ix(l_f)] = s[ix(l_f - it1_pre_l_off) * w
                                + ix(parent_of_r_g_in_pre_l + 1 - it2_pre_l_off)];
                            l_f -= 1;
                        }
                    }
                    let mut l_g = l_g_first;
                    while l_g >= l_g_last {
                        t[ix(l_g - it2_pre_l_off) * w + ix(r_g - it2_pre_r_off)] =
                            s[ix(l_f_last - it1_pre_l_off) * w + ix(l_g - it2_pre_l_off)];
                        l_g = i64::from(self.tables.ft[ix(l_g)]);
                    }
                    r_g -= 1;
                }
            }

            // Nodes to the right of the path (the reference's condition `LEFT || INNER &&
            // rightPart || INNER && !leftPart && !rightPart`, simplified).
            if path_type == PathType::Left
                || (path_type == PathType::Inner && (right_part || !left_part))
            {
                let (l_f_first, r_f_first) = if start_path_node == -1 {
                    (end_path_node, pre_l_to_pre_r1(end_path_node))
                } else {
                    (end_path_node + 1, pre_l_to_pre_r1(start_path_node) - 1)
                };
                let l_f_last = end_path_node;
                let l_g_last = cur2;
                let l_g_first = l_g_last + subtree_size2 - 1;
                let r_f_last = pre_l_to_pre_r1(end_path_node);
                let last = self.tables.fn_.len() - 1;
                self.tables.fn_[last] = -1;
                // The reference resets the preorder range here; the ids used below are
                // right-to-left preorder ids, so reset that range as well.
                let pre_r_root = pre_l_to_pre_r2(cur2);
                for i in (cur2..cur2 + subtree_size2).chain(pre_r_root..pre_r_root + subtree_size2)
                {
                    self.tables.fn_[ix(i)] = -1;
                    self.tables.ft[ix(i)] = -1;
                }
                let tmp_forest_cost1 = current_forest_cost1;
                // Loop B': every node of G, by preorder from the right.
                let mut l_g = l_g_first;
                while l_g >= l_g_last {
                    if self.tick(subtree_size1 as u64) {
                        break;
                    }
                    let r_g_first = pre_l_to_pre_r2(l_g);
                    let ln = i64::from(b.pre_r_to_ln[ix(r_g_first)]);
                    self.update_fn(ln, r_g_first, pre_l_to_pre_r2(cur2));
                    self.update_ft(ln, r_g_first);
                    let mut l_f = l_f_first;
                    let l_g_minus1_in_pre_r =
                        if l_g <= cur2 { NO_NODE } else { pre_l_to_pre_r2(l_g - 1) };
                    let parent_of_l_g = parent2(l_g);
                    let parent_of_l_g_in_pre_r =
                        if parent_of_l_g == -1 { -1 } else { pre_l_to_pre_r2(parent_of_l_g) };
                    current_forest_cost1 = tmp_forest_cost1;
                    let r_g_last = if path_type == PathType::Left {
                        if l_g == cur2 || i64::from(b.children.of(ix(parent_of_l_g))[0]) != l_g {
                            r_g_first
                        } else {
                            pre_l_to_pre_r2(parent_of_l_g) + 1
                        }
                    } else if r_g_first == pre_l_to_pre_r2(cur2) {
                        r_g_first
                    } else {
                        pre_l_to_pre_r2(cur2)
                    };
                    // Loop C': the nodes of F right of the path node.
                    let mut r_f = r_f_first;
                    while r_f >= r_f_last {
                        if r_f == r_f_last {
                            l_f = l_f_last;
                        }
                        let r_f_in_pre_l = pre_r_to_pre_l1(r_f);
                        current_forest_cost1 += 1;
                        let current_forest_size2 = size2_of(l_g);
                        let mut current_forest_cost2 = b.sizes[ix(l_g)];
                        let r_f_subtree_size = size1_of(r_f_in_pre_l);
                        let (r_f_is_consecutive, r_f_is_right_sibling) = if start_path_node > 0 {
                            (
                                start_path_node_in_pre_r - r_f == 1,
                                r_f + r_f_subtree_size == start_path_node_in_pre_r,
                            )
                        } else {
                            (false, false)
                        };
                        let f_forest_is_tree = r_f_in_pre_l == l_f;
                        let sp1_row = ix(r_f + 1 - it1_pre_r_off) * w;
                        let sp2_row = ix(r_f - it1_pre_r_off) * w;
                        let mut sp3_row = 0;
                        let write_row = ix(r_f - it1_pre_r_off) * w;
                        let t_row = ix(l_g - it2_pre_l_off) * w;
                        let mut sp1_source = 1;
                        let mut sp3_source = 1;
                        let mut sp3: i32;
                        if f_forest_is_tree {
                            if r_f_subtree_size == 1 {
                                sp1_source = 3;
                            } else if r_f_is_consecutive {
                                sp1_source = 2;
                            }
                            sp3 = 0;
                            sp3_source = 2;
                        } else {
                            if r_f_is_consecutive {
                                sp1_source = 2;
                            }
                            sp3 = current_forest_cost1 - a.sizes[ix(r_f_in_pre_l)];
                            if r_f_is_right_sibling {
                                sp3_source = 3;
                            }
                        }
                        if sp3_source == 1 {
                            sp3_row = ix(r_f + r_f_subtree_size - it1_pre_r_off) * w;
                        }
                        let mut sp2 = if current_forest_size2 == 1 {
                            current_forest_cost1
                        } else {
                            self.tables.q[ix(r_f)]
                        };
                        let mut r_g = r_g_first;
                        let r_g_first_in_pre_l = pre_r_to_pre_l2(r_g_first);
                        let mut sp1 = match sp1_source {
                            1 => s[sp1_row + ix(r_g - it2_pre_r_off)],
                            2 => t[t_row + ix(r_g - it2_pre_r_off)],
                            _ => current_forest_cost2,
                        };
                        sp1 += 1;
                        min_cost = sp1;
                        sp2 += 1;
                        if sp2 < min_cost {
                            min_cost = sp2;
                        }
                        if sp3 < min_cost {
                            sp3 += self.tables.delta
                                [self.delta_at(swapped, ix(r_f_in_pre_l), ix(r_g_first_in_pre_l))];
                            if sp3 < min_cost {
                                sp3 += ren(a, ix(r_f_in_pre_l), b, ix(r_g_first_in_pre_l), fr);
                                if sp3 < min_cost {
                                    min_cost = sp3;
                                }
                            }
                        }
                        s[write_row + ix(r_g - it2_pre_r_off)] = min_cost;
                        r_g = i64::from(self.tables.ft[ix(r_g)]);
                        // Loop D': the nodes of G right of lG.
                        while r_g >= r_g_last {
                            let r_g_in_pre_l = pre_r_to_pre_l2(r_g);
                            current_forest_cost2 += 1;
                            sp1 = match sp1_source {
                                1 => s[sp1_row + ix(r_g - it2_pre_r_off)],
                                2 => t[t_row + ix(r_g - it2_pre_r_off)],
                                _ => current_forest_cost2,
                            } + 1;
                            let fn_r_g = i64::from(self.tables.fn_[ix(r_g)]);
                            sp2 = s[sp2_row + ix(fn_r_g - it2_pre_r_off)] + 1;
                            min_cost = sp1.min(sp2);
                            sp3 = self.tables.delta
                                [self.delta_at(swapped, ix(r_f_in_pre_l), ix(r_g_in_pre_l))];
                            if sp3 < min_cost {
                                let after = i64::from(
                                    self.tables.fn_[ix(r_g + size2_of(r_g_in_pre_l) - 1)],
                                );
                                sp3 += match sp3_source {
                                    1 => s[sp3_row + ix(after - it2_pre_r_off)],
                                    2 => current_forest_cost2 - b.sizes[ix(r_g_in_pre_l)],
                                    _ => t[t_row + ix(after - it2_pre_r_off)],
                                };
                                if sp3 < min_cost {
                                    sp3 += ren(a, ix(r_f_in_pre_l), b, ix(r_g_in_pre_l), fr);
                                    if sp3 < min_cost {
                                        min_cost = sp3;
                                    }
                                }
                            }
                            s[write_row + ix(r_g - it2_pre_r_off)] = min_cost;
                            r_g = i64::from(self.tables.ft[ix(r_g)]);
                        }
                        r_f -= 1;
                    }
                    if l_g > cur2 && l_g - 1 == parent_of_l_g {
                        if right_part {
                            let at = self.delta_at(swapped, ix(end_path_node), ix(parent_of_l_g));
                            self.tables.delta[at] = s[ix(r_f_last + 1 - it1_pre_r_off) * w
                                + ix(l_g_minus1_in_pre_r + 1 - it2_pre_r_off)];
                        }
                        if end_path_node > 0
                            && end_path_node == parent_of_end_path_node + 1
                            && end_path_node_in_pre_r == parent_of_end_path_node_in_pre_r + 1
                        {
                            let at = self.delta_at(
                                swapped,
                                ix(parent_of_end_path_node),
                                ix(parent_of_l_g),
                            );
                            self.tables.delta[at] = s[ix(r_f_last - it1_pre_r_off) * w
                                + ix(l_g_minus1_in_pre_r + 1 - it2_pre_r_off)];
                        }
                        let mut r_f = r_f_first;
                        while r_f >= r_f_last {
                            self.tables.q[ix(r_f)] = s[ix(r_f - it1_pre_r_off) * w
                                + ix(parent_of_l_g_in_pre_r + 1 - it2_pre_r_off)];
                            r_f -= 1;
                        }
                    }
                    let mut r_g = r_g_first;
                    while r_g >= r_g_last {
                        t[ix(l_g - it2_pre_l_off) * w + ix(r_g - it2_pre_r_off)] =
                            s[ix(r_f_last - it1_pre_r_off) * w + ix(r_g - it2_pre_r_off)];
                        r_g = i64::from(self.tables.ft[ix(r_g)]);
                    }
                    l_g -= 1;
                }
            }
            // Walk up the path by one node.
            start_path_node = end_path_node;
            end_path_node = parent1(end_path_node);
        }
        self.tables.s = s;
        self.tables.t = t;
        min_cost
    }
}

/// Forest distances for the subtree pair with left-to-right postorder ids `i`, `j` (1-based,
/// as in the reference's `forestDist`), into `fd` (row width `|T2| + 1`), from the subtree
/// distances without roots that APTED left in `delta`.
fn forest_dist(
    it1: &Indexer,
    it2: &Indexer,
    free_rename: bool,
    delta: &[i32],
    i: usize,
    j: usize,
    fd: &mut [i32],
) {
    let (n2, w) = (it2.len(), it2.len() + 1);
    let li = it1.post_l_to_lld[i - 1] as usize;
    let lj = it2.post_l_to_lld[j - 1] as usize;
    fd[li * w + lj] = 0;
    for di in li + 1..=i {
        fd[di * w + lj] = fd[(di - 1) * w + lj] + 1;
        let x = it1.post_l_to_pre_l[di - 1] as usize;
        let x_lld = it1.post_l_to_lld[di - 1] as usize;
        for dj in lj + 1..=j {
            fd[li * w + dj] = fd[li * w + dj - 1] + 1;
            let y = it2.post_l_to_pre_l[dj - 1] as usize;
            let y_lld = it2.post_l_to_lld[dj - 1] as usize;
            let cost_ren = ren(it1, x, it2, y, free_rename);
            let del = fd[(di - 1) * w + dj] + 1;
            let ins = fd[di * w + dj - 1] + 1;
            let matched = if x_lld == li && y_lld == lj {
                fd[(di - 1) * w + dj - 1] + cost_ren
            } else {
                fd[x_lld * w + y_lld] + delta[x * n2 + y] + cost_ren
            };
            fd[di * w + dj] = del.min(ins).min(matched);
        }
    }
}

/// The edit mapping of the last APTED run (reference `computeEditMapping`): walk back through
/// the forest-distance table of the root pair, recomputing the table of each subtree pair that
/// is matched as a whole on the way.
fn apted_mapping(
    it1: &Indexer,
    it2: &Indexer,
    free_rename: bool,
    tables: &mut AptedTables,
) -> Vec<EditOp> {
    let (n1, n2) = (it1.len(), it2.len());
    let w = n2 + 1;
    let mut fd = std::mem::take(&mut tables.forest);
    fd.clear();
    fd.resize((n1 + 1) * w, 0);
    let mut ops = Vec::with_capacity(n1 + n2);
    let mut pending = vec![(n1, n2)];
    while let Some((last_row, last_col)) = pending.pop() {
        forest_dist(it1, it2, free_rename, &tables.delta, last_row, last_col, &mut fd);
        let first_row = it1.post_l_to_lld[last_row - 1] as usize;
        let first_col = it2.post_l_to_lld[last_col - 1] as usize;
        let (mut row, mut col) = (last_row, last_col);
        while row > first_row || col > first_col {
            let here = fd[row * w + col];
            if row > first_row && fd[(row - 1) * w + col] + 1 == here {
                ops.push(EditOp::Delete { a: it1.post_l_to_pre_l[row - 1] as usize });
                row -= 1;
            } else if col > first_col && fd[row * w + col - 1] + 1 == here {
                ops.push(EditOp::Insert { b: it2.post_l_to_pre_l[col - 1] as usize });
                col -= 1;
            } else if it1.post_l_to_lld[row - 1] as usize == first_row
                && it2.post_l_to_lld[col - 1] as usize == first_col
            {
                let x = it1.post_l_to_pre_l[row - 1] as usize;
                let y = it2.post_l_to_pre_l[col - 1] as usize;
                ops.push(if ren(it1, x, it2, y, free_rename) == 0 {
                    EditOp::Keep { a: x, b: y }
                } else {
                    EditOp::Rename { a: x, b: y }
                });
                row -= 1;
                col -= 1;
            } else {
                // The subtree pair (row, col) is matched as a whole: resolve it from its own
                // table later, and continue left of it.
                pending.push((row, col));
                row = it1.post_l_to_lld[row - 1] as usize;
                col = it2.post_l_to_lld[col - 1] as usize;
            }
        }
    }
    tables.forest = fd;
    ops
}
