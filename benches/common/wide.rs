//! The "wide" generated statement shared by the benches that size the CLI's limits
//! (`limits`, `transted_lite`): many hypotheses over auto-bound variables, the candidate side
//! with them in reverse order. Text only; each bench measures it its own way.

/// `theorem t (h0 : a0 + b0 = b0 + a0) … : a0 = a0`, with `hyps` hypotheses, reversed when
/// `reversed`.
pub fn wide(hyps: usize, reversed: bool) -> String {
    let mut hs: Vec<String> =
        (0..hyps).map(|i| format!("(h{i} : a{i} + b{i} = b{i} + a{i})")).collect();
    if reversed {
        hs.reverse();
    }
    format!("theorem t {} : a0 = a0 := sorry\n", hs.join(" "))
}
