//! Zhang–Shasha's forest recurrence for one row, the kernel the full left/right engine
//! ([`super::apted`]'s `Workspace::forest_distance`) and the incremental one
//! ([`super::incremental`]'s `forest_pass`) share.
//!
//! Owns only the arithmetic of one row: the tables, their layout across calls, deadlines and
//! what is kept afterwards are each caller's. No costs other than unit insert/delete and the
//! caller's rename cost.

/// Fills `row`, the forest row of node `x` of the left tree against the columns of the right
/// tree's keyroot (column `fy` is node `lj + fy - 1`; `row[0]` is already set), from `done`, the
/// rows before it (the row just before `x`'s is the last full `row.len()` cells of `done`).
///
/// `subtree_start` is the row just before `x`'s subtree (`first_leaf[x] - li`): 0 when `x` is on
/// the left keyroot's left path. `column_first` holds the first leaves of the columns' nodes;
/// `subtree_row` the subtree distances of `x` against those nodes, written where both nodes are
/// on their keyroots' left paths (the recurrence's tree case) and read everywhere else.
/// `rename(y)` is the cost of renaming `x` to node `y`.
#[inline(always)]
pub(super) fn forest_row(
    done: &[u32],
    row: &mut [u32],
    subtree_start: usize,
    lj: usize,
    column_first: &[u32],
    subtree_row: &mut [u32],
    rename: impl Fn(usize) -> u32,
) {
    let width = row.len();
    let prev = &done[done.len() - width..];
    let base = &done[subtree_start * width..(subtree_start + 1) * width];
    if subtree_start == 0 {
        for fy in 1..width {
            let delete = prev[fy] + 1;
            let insert = row[fy - 1] + 1;
            let y_first = column_first[fy - 1] as usize;
            let d = if y_first == lj {
                let d = delete.min(insert).min(prev[fy - 1] + rename(lj + fy - 1));
                subtree_row[fy - 1] = d;
                d
            } else {
                delete.min(insert).min(base[y_first - lj] + subtree_row[fy - 1])
            };
            row[fy] = d;
        }
    } else {
        for fy in 1..width {
            let py = column_first[fy - 1] as usize - lj;
            row[fy] = (prev[fy] + 1).min(row[fy - 1] + 1).min(base[py] + subtree_row[fy - 1]);
        }
    }
}
