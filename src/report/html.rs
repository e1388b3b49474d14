//! Text for the HTML pages: escaping any string from a dataset or a file, and the figures as
//! the pages write them (percentages; precision and recall with "n/a" where 0 of 0 leaves no
//! figure).
//!
//! Owns the escaping and the number formats only; no markup of its own.

use crate::evaluation::Stats;

/// HTML-escape text for element content and quoted attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub(super) fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

/// Precision, or "n/a" when nothing was predicted equivalent (0 of 0 is no figure).
pub(super) fn precision(s: &Stats) -> String {
    if s.true_positive + s.false_positive == 0 {
        "n/a".into()
    } else {
        pct(s.precision)
    }
}

/// Recall, or "n/a" when no pair is labelled equivalent.
pub(super) fn recall(s: &Stats) -> String {
    if s.true_positive + s.false_negative == 0 {
        "n/a".into()
    } else {
        pct(s.recall)
    }
}
