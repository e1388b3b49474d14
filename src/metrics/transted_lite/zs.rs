//! TEMPORARY Zhang–Shasha tree edit distance, used only until `distance::ted` (APTED) lands on
//! main; then this file is deleted and `mod.rs` calls `crate::distance` instead.
//! Same cost model as `distance::CostModel` with free renaming.

use crate::trees::Tree;

struct Flat<'a> {
    nodes: Vec<&'a Tree>,
    lml: Vec<usize>,
    keyroots: Vec<usize>,
}

fn flatten(t: &Tree) -> Flat<'_> {
    let mut nodes = Vec::new();
    let mut lml = Vec::new();
    fn go<'a>(t: &'a Tree, nodes: &mut Vec<&'a Tree>, lml: &mut Vec<usize>) -> usize {
        let mut first = None;
        for c in &t.children {
            let l = go(c, nodes, lml);
            first.get_or_insert(l);
        }
        let me = nodes.len();
        nodes.push(t);
        let l = first.unwrap_or(me);
        lml.push(l);
        l
    }
    go(t, &mut nodes, &mut lml);
    let n = nodes.len();
    let mut keyroots = Vec::new();
    for i in 0..n {
        if !(i + 1..n).any(|j| lml[j] == lml[i]) {
            keyroots.push(i);
        }
    }
    Flat {
        nodes,
        lml,
        keyroots,
    }
}

fn rename(a: &Tree, b: &Tree, free: bool) -> u32 {
    if a.label == b.label
        || (free
            && ((a.variable_freecost && b.variable_freecost)
                || (a.hypothesis_freecost && b.hypothesis_freecost)))
    {
        0
    } else {
        1
    }
}

pub fn ted(a: &Tree, b: &Tree, free: bool) -> u32 {
    let fa = flatten(a);
    let fb = flatten(b);
    let (n, m) = (fa.nodes.len(), fb.nodes.len());
    let mut td = vec![0u32; n * m];
    let mut fd = vec![0u32; (n + 1) * (m + 1)];
    for &i in &fa.keyroots {
        for &j in &fb.keyroots {
            let (li, lj) = (fa.lml[i], fb.lml[j]);
            let w = j - lj + 2;
            let at = |x: usize, y: usize| x * w + y;
            fd[at(0, 0)] = 0;
            for x in 1..=i - li + 1 {
                fd[at(x, 0)] = fd[at(x - 1, 0)] + 1;
            }
            for y in 1..=j - lj + 1 {
                fd[at(0, y)] = fd[at(0, y - 1)] + 1;
            }
            for x in 1..=i - li + 1 {
                let ni = li + x - 1;
                for y in 1..=j - lj + 1 {
                    let nj = lj + y - 1;
                    let del = fd[at(x - 1, y)] + 1;
                    let ins = fd[at(x, y - 1)] + 1;
                    if fa.lml[ni] == li && fb.lml[nj] == lj {
                        let r = fd[at(x - 1, y - 1)] + rename(fa.nodes[ni], fb.nodes[nj], free);
                        let v = del.min(ins).min(r);
                        fd[at(x, y)] = v;
                        td[ni * m + nj] = v;
                    } else {
                        let px = fa.lml[ni] - li;
                        let py = fb.lml[nj] - lj;
                        let r = fd[at(px, py)] + td[ni * m + nj];
                        fd[at(x, y)] = del.min(ins).min(r);
                    }
                }
            }
        }
    }
    td[(n - 1) * m + (m - 1)]
}
