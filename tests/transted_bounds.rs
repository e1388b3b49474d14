//! TransTED is never below TED: ASSESS defines it as the best distance over transformation
//! sequences, the empty one included, so on every bundled pair `transted-lite`'s similarity is
//! at least `ted`'s (its default, unit-cost model; `transted-lite` renames bound names for
//! free, which can only lower a distance).

use lean_assess::dataset::read_pairs;
use lean_assess::metrics::{self, Pair, Verdict};
use lean_assess::trees::parse::{parse_statement, Header};
use std::path::Path;

const DATASETS: [&str; 2] =
    ["fixtures/bench/gted-minif2f.jsonl", "fixtures/bench/gted-proofnet.jsonl"];

fn similarity(v: Verdict) -> f64 {
    match v {
        Verdict::Score(s) => s,
        other => panic!("an offline metric gives a score, not {other:?}"),
    }
}

#[test]
fn transted_lite_is_never_below_ted_on_a_bundled_pair() {
    let (ted, lite) = (
        metrics::by_name("ted").expect("ted"),
        metrics::by_name("transted-lite").expect("transted-lite"),
    );
    let mut compared = 0;
    let mut below = Vec::new();
    for dataset in DATASETS {
        let pairs = read_pairs(Path::new(dataset)).expect("bundled dataset loads");
        for p in &pairs {
            let (rh, ch) = (Header::parse(&p.ref_header), Header::parse(&p.cand_header));
            let (Ok(r), Ok(c)) =
                (parse_statement(&p.ref_statement, &rh), parse_statement(&p.cand_statement, &ch))
            else {
                continue;
            };
            let pair = Pair {
                reference: &r,
                candidate: &c,
                reference_header: &p.ref_header,
                candidate_header: &p.cand_header,
            };
            let t = similarity(ted.judge(&pair).expect("ted scores").verdict);
            let l = similarity(lite.judge(&pair).expect("transted-lite scores").verdict);
            compared += 1;
            if l + 1e-12 < t {
                below.push(format!("{}: transted-lite {l:.4} < ted {t:.4}", p.id));
            }
        }
    }
    assert!(compared > 250, "only {compared} pairs compared");
    assert!(below.is_empty(), "{}", below.join("\n"));
}
