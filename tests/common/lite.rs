//! `transted-lite` judged on literal text, for the tests of its examples and non-examples: the
//! text split into header and theorem as `--ref-text` does, parsed, judged with the default
//! configuration, and the two verdicts asserted. Nothing here decides what a pair should be.

use lean_assess::metrics::transted_lite::TransTedLite;
use lean_assess::metrics::{Metric, MetricReport, Pair};
use lean_assess::trees::parse::{parse_statement, Header};

/// Literal text split into header lines and the theorem, as `--ref-text` does: the header is
/// everything before the line that starts the theorem.
fn split(text: &str) -> (&str, &str) {
    match text.find("theorem ") {
        Some(at) => text.split_at(at),
        None => ("", text),
    }
}

/// `transted-lite`'s report on two literal texts (header lines allowed before each theorem).
pub fn judge_lite(reference: &str, candidate: &str) -> MetricReport {
    let (rh, rs) = split(reference);
    let (ch, cs) = split(candidate);
    let r = parse_statement(rs, &Header::parse(rh))
        .unwrap_or_else(|e| panic!("reference does not parse: {e}: {rs}"));
    let c = parse_statement(cs, &Header::parse(ch))
        .unwrap_or_else(|e| panic!("candidate does not parse: {e}: {cs}"));
    let pair = Pair { reference: &r, candidate: &c, reference_header: rh, candidate_header: ch };
    TransTedLite::default().judge(&pair).unwrap_or_else(|e| panic!("judge failed: {e}"))
}

/// The pair is not closed (distance above 0), and no note claims the rewrites made the two
/// statements identical.
pub fn assert_not_equivalent(reference: &str, candidate: &str) {
    let r = judge_lite(reference, candidate);
    assert!(
        r.distance.is_some_and(|d| d > 0),
        "called equivalent:\n  {reference}\n  {candidate}\npath: {:?}\nnotes: {:?}",
        r.path,
        r.notes
    );
    assert!(
        !r.notes.iter().any(|n| n.contains("make the two statements identical")),
        "{:?}",
        r.notes
    );
}

/// The pair closes at distance 0.
pub fn assert_equivalent(reference: &str, candidate: &str) {
    let r = judge_lite(reference, candidate);
    assert_eq!(
        r.distance,
        Some(0),
        "not closed:\n  {reference}\n  {candidate}\npath: {:?}\nnotes: {:?}",
        r.path,
        r.notes
    );
}
