//! Seed 004's similarity between two DNF-like trees, Eqs. (1)–(5) of §4.
//!
//! - Eq. (4), `PathSim(Pi, Pj) = Σ_{n=1..X} PenNodeSim(A_n^Pi, A_n^Pj) / (X · H(Y))`, with
//!   `X = min(len)`, `Y = max(len) − X + 1` and `H` the harmonic sum `1 + 1/2 + … + 1/Y`.
//! - Eq. (5), `PenNodeSim = NodeSim` when `X = 1`, else `NodeSim^(1 + α/X)` (α = 5, as the paper).
//! - `NodeSim` (§4): two different operators, or an operator and a non-operator, are 0; NOT vs
//!   NOT is 1; AND vs AND is 1 when the AND matching pairs them and 0.2 otherwise; two
//!   non-operators use the pluggable [`NodeSimilarity`](super::NodeSimilarity).
//! - Eqs. (3)–(4), `PathTreeSim(Pi, T2) = max_j PathSim(Pi, Pj) / PathReuse(j*(i))`.
//!   The paper does not say how ties in `argmax` break; here a tie goes to the candidate path
//!   matched least often so far (then the lowest index), so that duplicated paths of identical
//!   trees pair up one-to-one instead of being counted as reuse.
//! - Eq. (2), `TreeSim(T1, T2)` is the mean of `PathTreeSim` over the paths of T1; Eq. (1),
//!   `Sim = min(TreeSim(T1, T2), TreeSim(T2, T1))`.
//! - AND matching (§4): `Sim` is computed for every matching of the AND groups of the two trees
//!   and the best is kept. Enumerated are the maximal matchings (every group of the tree with
//!   fewer groups paired with a distinct group of the other) — partial matchings only lower AND
//!   similarities. Their number is `m!/(m−k)!`; when it times the path-pair table exceeds
//!   [`ScoreOptions::max_matching_work`], a search within that budget is used instead: it starts
//!   from the assignment of maximum total affinity (Hungarian algorithm; a pair's affinity is how
//!   well each group's paths match the other group's, with the two ANDs counted as matched), then
//!   hill-climbs on
//!   `Sim` itself (swap two groups' partners, or move a group to an unpaired one) until no move
//!   improves or the budget is spent. The report says which was used.
//!
//! Cost: one table of `|P1| × |P2|` path pairs (`O(|P1|·|P2|·L)` to fill), then `O(|P1|·|P2|)`
//! per AND matching evaluated. Owns no I/O and no parsing.

use super::skeleton::{PathNode, Skeleton};
use super::NodeSimilarity;
use std::collections::HashMap;

/// Bounds and constants of the scorer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreOptions {
    /// α of Eq. (5).
    pub alpha: f64,
    /// NodeSim of two AND nodes the matching does not pair (§4: 0.2).
    pub unmatched_and: f64,
    /// Exhaustive AND matching only while `matchings × |P1| × |P2|` stays under this.
    pub max_matching_work: u64,
}

impl Default for ScoreOptions {
    fn default() -> Self {
        ScoreOptions { alpha: 5.0, unmatched_and: 0.2, max_matching_work: 5_000_000 }
    }
}

/// The outcome of comparing two skeletons.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Eq. (1), in [0, 1].
    pub similarity: f64,
    /// `TreeSim(T1, T2)` and `TreeSim(T2, T1)` under the best matching.
    pub forward: f64,
    pub backward: f64,
    /// Per path of T1 (index as in [`Skeleton::paths`]), its match in T2 under the best matching.
    pub forward_matches: Vec<PathMatch>,
    /// Per path of T2, its match in T1.
    pub backward_matches: Vec<PathMatch>,
    /// The best AND matching: (group of T1, group of T2), 1-based as in the paths.
    pub matching: Vec<(u32, u32)>,
    /// Whether every maximal matching was tried (else a bounded search: not guaranteed optimal,
    /// nor symmetric in the two trees).
    pub exhaustive: bool,
    /// Number of matchings evaluated.
    pub evaluated: u64,
}

/// How one path fared (Eqs. 3–4): what explains a low score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathMatch {
    /// Index of the best-matching path in the other tree (`j*(i)`).
    pub best: usize,
    /// `PathSim` with that path.
    pub path_sim: f64,
    /// How many paths of this tree chose the same best path (`PathReuse`).
    pub reuse: u32,
    /// `PathTreeSim`: `path_sim / reuse`.
    pub score: f64,
}

/// PathSim of every path pair, split into the part that does not depend on the AND matching and
/// the AND node's contribution under "paired" and "not paired".
struct PairTable {
    n1: usize,
    n2: usize,
    /// `Σ PenNodeSim` over the non-AND levels, divided by `X · H(Y)`.
    fixed: Vec<f64>,
    /// For path pairs that both start with an AND: the two groups.
    groups: Vec<Option<(u32, u32)>>,
    /// The AND level's share when paired (`1 / (X·H(Y))`) and when not (`0.2^(1+α/X) / (X·H(Y))`).
    and_paired: Vec<f64>,
    and_unpaired: Vec<f64>,
}

impl PairTable {
    fn build(
        a: &Skeleton,
        b: &Skeleton,
        node_sim: &dyn NodeSimilarity,
        lim: &ScoreOptions,
    ) -> Self {
        let (n1, n2) = (a.paths.len(), b.paths.len());
        let terms_a = a.terms();
        let terms_b = b.terms();
        let mut memo: HashMap<(u32, u32), f64> = HashMap::new();
        let mut term_sim = |x: u32, y: u32| -> f64 {
            *memo.entry((x, y)).or_insert_with(|| {
                match (terms_a.get(x as usize), terms_b.get(y as usize)) {
                    (Some(p), Some(q)) => node_sim.similarity(p, q).clamp(0.0, 1.0),
                    _ => 0.0,
                }
            })
        };
        let cap = n1 * n2;
        let mut t = PairTable {
            n1,
            n2,
            fixed: Vec::with_capacity(cap),
            groups: Vec::with_capacity(cap),
            and_paired: Vec::with_capacity(cap),
            and_unpaired: Vec::with_capacity(cap),
        };
        for p in &a.paths {
            for q in &b.paths {
                let x = p.len().min(q.len());
                let y = p.len().max(q.len()) - x + 1;
                let denom = (x as f64 * harmonic(y)).max(f64::MIN_POSITIVE);
                let exponent = if x == 1 { 1.0 } else { 1.0 + lim.alpha / x as f64 };
                let pen = |s: f64| if s <= 0.0 { 0.0 } else { s.powf(exponent) };
                let mut sum = 0.0;
                let mut group = None;
                for (level, (u, v)) in p.iter().zip(q.iter()).enumerate() {
                    let s = match (u, v) {
                        (PathNode::And(g), PathNode::And(h)) if level == 0 => {
                            group = Some((*g, *h));
                            continue;
                        }
                        (PathNode::And(_), PathNode::And(_)) => lim.unmatched_and,
                        (PathNode::Not, PathNode::Not) => 1.0,
                        (PathNode::Term(x), PathNode::Term(y)) => term_sim(*x, *y),
                        _ => 0.0,
                    };
                    sum += pen(s);
                }
                t.fixed.push(sum / denom);
                t.groups.push(group);
                t.and_paired.push(1.0 / denom);
                t.and_unpaired.push(pen(lim.unmatched_and) / denom);
            }
        }
        t
    }

    /// PathSim of pair `k` under `pairing`.
    fn sim(&self, k: usize, pairing: &Pairing) -> f64 {
        match self.groups[k] {
            None => self.fixed[k],
            Some((g, h)) if pairing.pairs(g, h) => self.fixed[k] + self.and_paired[k],
            Some(_) => self.fixed[k] + self.and_unpaired[k],
        }
    }

    /// PathSim of every pair under `pairing`, row-major (T1 paths × T2 paths).
    fn sims(&self, pairing: &Pairing) -> Vec<f64> {
        (0..self.fixed.len()).map(|k| self.sim(k, pairing)).collect()
    }

    /// Eq. (2) with Eqs. (3)–(4): T1 → T2 when `forward`, else T2 → T1.
    fn tree_sim(&self, forward: bool, sims: &[f64]) -> f64 {
        self.path_matches(forward, sims).0
    }

    /// `TreeSim` and, per path of the source tree, its match: (best path of the other tree,
    /// `PathTreeSim` after the reuse division).
    fn path_matches(&self, forward: bool, sims: &[f64]) -> (f64, Vec<PathMatch>) {
        let (rows, cols) = if forward { (self.n1, self.n2) } else { (self.n2, self.n1) };
        if rows == 0 || cols == 0 {
            return (if rows == cols { 1.0 } else { 0.0 }, Vec::new());
        }
        let idx = |r: usize, c: usize| {
            if forward {
                r * self.n2 + c
            } else {
                c * self.n2 + r
            }
        };
        let mut uses = vec![0u32; cols];
        let mut best = Vec::with_capacity(rows);
        for r in 0..rows {
            let mut arg = 0usize;
            let mut max = f64::NEG_INFINITY;
            for c in 0..cols {
                let s = sims[idx(r, c)];
                if s > max + 1e-12 {
                    arg = c;
                    max = s;
                } else if (s - max).abs() <= 1e-12 && uses[c] < uses[arg] {
                    arg = c;
                }
            }
            let value = sims[idx(r, arg)];
            uses[arg] += 1;
            best.push((arg, value));
        }
        let matches: Vec<PathMatch> = best
            .iter()
            .map(|&(c, v)| PathMatch {
                best: c,
                path_sim: v,
                reuse: uses[c],
                score: v / f64::from(uses[c].max(1)),
            })
            .collect();
        let total: f64 = matches.iter().map(|m| m.score).sum();
        (total / rows as f64, matches)
    }
}

fn harmonic(y: usize) -> f64 {
    (1..=y).map(|k| 1.0 / k as f64).sum()
}

/// An AND matching: `of_a[g]` is the T2 group paired with T1 group `g` (1-based; index 0 unused).
#[derive(Clone, Debug, Default)]
struct Pairing {
    of_a: Vec<Option<u32>>,
}

impl Pairing {
    fn pairs(&self, g: u32, h: u32) -> bool {
        self.of_a.get(g as usize).copied().flatten() == Some(h)
    }
    fn list(&self) -> Vec<(u32, u32)> {
        self.of_a.iter().enumerate().filter_map(|(g, h)| h.map(|h| (g as u32, h))).collect()
    }
}

/// Seed 004's `Sim(T1, T2)` (Eq. 1) with the best AND matching.
pub fn compare(
    a: &Skeleton,
    b: &Skeleton,
    node_sim: &dyn NodeSimilarity,
    lim: &ScoreOptions,
) -> Comparison {
    let table = PairTable::build(a, b, node_sim, lim);
    let (ka, kb) = (a.and_groups, b.and_groups);
    let count = injections(ka.min(kb), ka.max(kb));
    let work = count.saturating_mul((table.n1 * table.n2).max(1) as u64);
    let mut best: Option<(f64, f64, f64, Pairing)> = None;
    let mut evaluated = 0u64;
    let mut consider = |p: Pairing| -> f64 {
        evaluated += 1;
        let sims = table.sims(&p);
        let f = table.tree_sim(true, &sims);
        let r = table.tree_sim(false, &sims);
        let s = f.min(r);
        if best.as_ref().is_none_or(|b| s > b.0) {
            best = Some((s, f, r, p));
        }
        s
    };
    let exhaustive = work <= lim.max_matching_work;
    if exhaustive {
        for_each_injection(ka, kb, &mut consider);
    } else {
        let cells = (table.n1 * table.n2).max(1) as u64;
        let max_evaluations = (lim.max_matching_work / cells).max(1);
        let start = affinity_pairing(a, b, &table, ka, kb);
        hill_climb(start, kb, max_evaluations, &mut consider);
    }
    let (similarity, forward, backward, pairing) = best.unwrap_or_default();
    let sims = table.sims(&pairing);
    Comparison {
        similarity: similarity.clamp(0.0, 1.0),
        forward,
        backward,
        forward_matches: table.path_matches(true, &sims).1,
        backward_matches: table.path_matches(false, &sims).1,
        matching: pairing.list(),
        exhaustive,
        evaluated,
    }
}

/// m!/(m−k)!, saturating.
fn injections(k: u32, m: u32) -> u64 {
    (0..k).fold(1u64, |acc, i| acc.saturating_mul(u64::from(m - i)))
}

/// Call `f` with every maximal matching between `ka` groups of T1 and `kb` groups of T2.
fn for_each_injection(ka: u32, kb: u32, f: &mut dyn FnMut(Pairing) -> f64) {
    let (k, m) = (ka.min(kb) as usize, ka.max(kb) as usize);
    let mut chosen: Vec<usize> = Vec::with_capacity(k);
    let mut used = vec![false; m];
    fn rec(k: usize, chosen: &mut Vec<usize>, used: &mut [bool], emit: &mut dyn FnMut(&[usize])) {
        if chosen.len() == k {
            emit(chosen);
            return;
        }
        for c in 0..used.len() {
            if !used[c] {
                used[c] = true;
                chosen.push(c);
                rec(k, chosen, used, emit);
                chosen.pop();
                used[c] = false;
            }
        }
    }
    let a_is_small = ka <= kb;
    rec(k, &mut chosen, &mut used, &mut |sel: &[usize]| {
        let mut of_a = vec![None; ka as usize + 1];
        for (small, &large) in sel.iter().enumerate() {
            let (g, h) = if a_is_small { (small + 1, large + 1) } else { (large + 1, small + 1) };
            of_a[g] = Some(h as u32);
        }
        f(Pairing { of_a }); // the score is kept by `f` itself
    });
}

/// Improve a matching by local moves, judged by `Sim` itself: swap the partners of two T1
/// groups, or move a T1 group to an unpaired T2 group; take the first improving move, repeat
/// until none improves or `max_evaluations` matchings have been evaluated.
fn hill_climb(
    start: Pairing,
    kb: u32,
    max_evaluations: u64,
    evaluate: &mut dyn FnMut(Pairing) -> f64,
) {
    let mut current = start;
    let mut score = evaluate(current.clone());
    let mut spent = 1u64;
    let ka = current.of_a.len().saturating_sub(1);
    'climb: loop {
        let mut moves: Vec<Pairing> = Vec::new();
        for g1 in 1..=ka {
            for g2 in g1 + 1..=ka {
                if current.of_a[g1] != current.of_a[g2] {
                    let mut p = current.clone();
                    p.of_a.swap(g1, g2);
                    moves.push(p);
                }
            }
            for h in 1..=kb {
                if !current.of_a.contains(&Some(h)) {
                    let mut p = current.clone();
                    p.of_a[g1] = Some(h);
                    moves.push(p);
                }
            }
        }
        for p in moves {
            if spent >= max_evaluations {
                break 'climb;
            }
            spent += 1;
            let s = evaluate(p.clone());
            if s > score + 1e-12 {
                score = s;
                current = p;
                continue 'climb;
            }
        }
        break;
    }
}

/// AND matching maximising the total group affinity (see the module doc).
fn affinity_pairing(a: &Skeleton, b: &Skeleton, t: &PairTable, ka: u32, kb: u32) -> Pairing {
    let group_of = |s: &Skeleton, i: usize| match s.paths[i].first() {
        Some(PathNode::And(g)) => Some(*g as usize),
        _ => None,
    };
    let (ka, kb) = (ka as usize, kb as usize);
    // row_best[i][h]: best paired PathSim of path i of T1 into group h of T2; col_best likewise.
    let mut row_best = vec![0.0f64; t.n1 * (kb + 1)];
    let mut col_best = vec![0.0f64; t.n2 * (ka + 1)];
    for i in 0..t.n1 {
        for j in 0..t.n2 {
            let k = i * t.n2 + j;
            if let Some((g, h)) = t.groups[k] {
                let s = t.fixed[k] + t.and_paired[k];
                let r = &mut row_best[i * (kb + 1) + h as usize];
                *r = r.max(s);
                let c = &mut col_best[j * (ka + 1) + g as usize];
                *c = c.max(s);
            }
        }
    }
    let mut affinity = vec![0.0f64; (ka + 1) * (kb + 1)];
    for i in 0..t.n1 {
        if let Some(g) = group_of(a, i) {
            for h in 1..=kb {
                affinity[g * (kb + 1) + h] += row_best[i * (kb + 1) + h];
            }
        }
    }
    for j in 0..t.n2 {
        if let Some(h) = group_of(b, j) {
            for g in 1..=ka {
                affinity[g * (kb + 1) + h] += col_best[j * (ka + 1) + g];
            }
        }
    }
    // Maximise the total affinity: Hungarian algorithm on the negated affinities, rows being
    // the side with fewer groups.
    let aff = |g: usize, h: usize| affinity[g * (kb + 1) + h];
    let mut of_a = vec![None; ka + 1];
    let transposed = ka > kb;
    let (rows, cols) = if transposed { (kb, ka) } else { (ka, kb) };
    // The (a-group, b-group) pair a cell of the cost matrix stands for.
    let groups = |row: usize, col: usize| if transposed { (col, row) } else { (row, col) };
    let cost: Vec<Vec<f64>> = (1..=rows)
        .map(|row| {
            (1..=cols)
                .map(|col| {
                    let (g, h) = groups(row, col);
                    -aff(g, h)
                })
                .collect()
        })
        .collect();
    for (row, col) in min_cost_assignment(&cost).into_iter().enumerate() {
        if let Some(col) = col {
            let (g, h) = groups(row + 1, col + 1);
            of_a[g] = Some(h as u32);
        }
    }
    Pairing { of_a }
}

/// Hungarian algorithm (Kuhn–Munkres with potentials, `O(n²·m)`): for an `n × m` cost matrix with
/// `n ≤ m`, the column given to each row in a minimum-cost assignment.
fn min_cost_assignment(cost: &[Vec<f64>]) -> Vec<Option<usize>> {
    let n = cost.len();
    let m = cost.first().map_or(0, Vec::len);
    if n == 0 || m < n {
        return vec![None; n];
    }
    let c = |i: usize, j: usize| cost[i - 1][j - 1];
    let (mut u, mut v) = (vec![0.0f64; n + 1], vec![0.0f64; m + 1]);
    // p[j]: row assigned to column j (0 = none); way[j]: previous column on the augmenting path.
    let (mut p, mut way) = (vec![0usize; m + 1], vec![0usize; m + 1]);
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0usize;
        let mut minv = vec![f64::INFINITY; m + 1];
        let mut used = vec![false; m + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = f64::INFINITY;
            let mut j1 = 0usize;
            for j in 1..=m {
                if !used[j] {
                    let cur = c(i0, j) - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            if j1 == 0 {
                break; // no free column reachable: cannot happen with n ≤ m and finite costs
            }
            for j in 0..=m {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        while j0 != 0 {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        }
    }
    let mut out = vec![None; n];
    for j in 1..=m {
        if p[j] != 0 {
            out[p[j] - 1] = Some(j - 1);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Brute force over all injections of rows into columns.
    fn best_cost(cost: &[Vec<f64>]) -> f64 {
        let n = cost.len();
        let mut best = f64::INFINITY;
        let mut used = vec![false; cost[0].len()];
        fn rec(i: usize, n: usize, acc: f64, cost: &[Vec<f64>], used: &mut [bool], best: &mut f64) {
            if i == n {
                *best = best.min(acc);
                return;
            }
            for j in 0..used.len() {
                if !used[j] {
                    used[j] = true;
                    rec(i + 1, n, acc + cost[i][j], cost, used, best);
                    used[j] = false;
                }
            }
        }
        rec(0, n, 0.0, cost, &mut used, &mut best);
        best
    }

    proptest! {
        #[test]
        fn hungarian_matches_brute_force(
            n in 1usize..5,
            extra in 0usize..3,
            seed in prop::collection::vec(-10.0f64..10.0, 40),
        ) {
            let m = n + extra;
            let cost: Vec<Vec<f64>> = (0..n).map(|i| (0..m).map(|j| seed[(i * m + j) % 40]).collect()).collect();
            let assignment = min_cost_assignment(&cost);
            let mut cols: Vec<usize> = assignment.iter().map(|c| c.expect("every row assigned")).collect();
            let total: f64 = cols.iter().enumerate().map(|(i, &j)| cost[i][j]).sum();
            cols.sort_unstable();
            cols.dedup();
            prop_assert_eq!(cols.len(), n, "columns used once");
            prop_assert!((total - best_cost(&cost)).abs() < 1e-9);
        }
    }

    #[test]
    fn injections_count_and_saturate() {
        assert_eq!(injections(0, 5), 1);
        assert_eq!(injections(3, 5), 60);
        assert_eq!(injections(40, 60), u64::MAX);
    }
}
