//! The features' one seam onto the engine: finding declarations, parsing statements, edit
//! mappings and metrics. Everything Lean-text-specific the features need passes through here,
//! so the rest of `features` works on `Statement`s, `Mapping`s and `MetricReport`s only.
//!
//! Owns nothing of the engine itself (`trees::parse`, `distance`, `metrics` do the work).

use crate::distance::{self, CostModel, Mapping};
use crate::documents::Unedited;
use crate::metrics::{self, transted_lite, Metric, MetricError, MetricReport, Pair};
use crate::trees::{parse, Statement, Tree};
use std::sync::Arc;

/// A declaration in a file (the parser's `Declaration`: byte ranges into the file text).
pub type Decl = parse::Declaration;

/// Declarations (`theorem`, `lemma`, `example`) in a file.
pub fn declarations(text: &str) -> Vec<Decl> {
    parse::find_declarations(text)
}

/// Bytes either side of an edit that are scanned again with it: a token ending this close to
/// the change may have been extended or cut by it.
const RESCAN_MARGIN: usize = 8;

/// [`declarations`] of `new`, given `old_decls` = `declarations(old)`: only the part of the file
/// an edit changed is lexed again, from the start of the last declaration wholly before the
/// change to the end of the first one wholly after it; the declarations outside are `old`'s,
/// those after shifted by the edit's length. Where that window does not provably give what a
/// whole scan gives (the lexer out of step at its end, e.g. an opened comment; a declaration
/// indented or ending past the next one), the whole file is scanned.
pub fn declarations_after_edit(old: &str, old_decls: &[Decl], new: &str) -> Vec<Decl> {
    let mut decls = old_decls.to_vec();
    rescan(old, &mut decls, new, &Unedited::between(old, new));
    decls
}

/// [`declarations_after_edit`] in place: `decls` (of `old`) become `new`'s, `unedited` being
/// what the edit left alone between the two. The declarations outside the window are kept
/// where they are (those after it moved by the edit's length, in place): an edit costs the
/// window, not a copy of every declaration.
pub fn rescan(old: &str, decls: &mut Vec<Decl>, new: &str, unedited: &Unedited) {
    match rescan_window(old, decls, new, unedited) {
        Some(Rescan { replace, window, delta }) => {
            let after = replace.start + window.len();
            decls.splice(replace, window);
            if delta != 0 {
                for d in &mut decls[after..] {
                    shift(d, delta);
                }
            }
        }
        None => *decls = declarations(new),
    }
}

/// What a window re-scan changes: `replace` (indices into the old declarations) becomes
/// `window`, and the declarations after move by `delta` bytes.
struct Rescan {
    replace: std::ops::Range<usize>,
    window: Vec<Decl>,
    delta: isize,
}

/// Where the lexer's name-or-keyword region of a declaration ends: its name's start, or (no
/// name: `example`) its statement's end. Text before it decides the declaration's start.
fn anchor(d: &Decl) -> usize {
    d.name_range.map_or(d.statement_end, |r| r.0)
}

/// Whether the first token at or after `at` (a line start; a `/- … -/` comment skipped) is
/// at column 0 and opens a command that ends the declaration before it (`find_declarations`'
/// command words that can start a declaration). Such a token resets the bracket depth the scan
/// keeps, so a scan starting at `at` agrees with one from the file's start.
fn opens_command_at_column_0(text: &str, at: usize) -> bool {
    if at > text.len() || (at > 0 && text.as_bytes()[at - 1] != b'\n') {
        return false;
    }
    let mut rest = &text[at..];
    if rest.starts_with("/-") {
        // A (doc) comment above the declaration, nested comments counted.
        let b = rest.as_bytes();
        let (mut i, mut depth) = (2usize, 1usize);
        while depth > 0 {
            if i + 1 >= b.len() {
                return false;
            }
            if &b[i..i + 2] == b"/-" {
                depth += 1;
                i += 2;
            } else if &b[i..i + 2] == b"-/" {
                depth -= 1;
                i += 2;
            } else {
                i += 1;
            }
        }
        rest = &rest[i..];
        let trimmed = rest.trim_start_matches([' ', '\t', '\r']);
        // The token after the comment must begin a line of its own.
        let Some(after_newline) = trimmed.strip_prefix('\n') else {
            return false;
        };
        rest = after_newline;
    }
    const OPENERS: [&str; 8] =
        ["theorem", "lemma", "example", "private", "protected", "noncomputable", "nonrec", "@["];
    OPENERS.iter().any(|w| {
        rest.strip_prefix(w).is_some_and(|after| {
            *w == "@[" || !after.starts_with(|c: char| c.is_alphanumeric() || "_'!?.".contains(c))
        })
    })
}

/// Whether the scan's look-back from some `-/` in `w` to its comment's opener (nesting counted,
/// as `find_declarations` does it) runs past the start of `w` without finding it.
fn comment_lookback_leaves(w: &str) -> bool {
    let b = w.as_bytes();
    let mut from = 0;
    while let Some(k) = w[from..].find("-/") {
        let close = from + k;
        from = close + 1;
        // The look-back as the parser does it, from just before this `-/`.
        if parse::block_comment_opener(b, close).is_none() {
            return true;
        }
    }
    false
}

/// `d` moved by `by` bytes, in place.
fn shift(d: &mut Decl, by: isize) {
    let s = |x: &mut usize| *x = x.wrapping_add_signed(by);
    s(&mut d.start);
    s(&mut d.end);
    if let Some((a, b)) = d.name_range.as_mut() {
        s(a);
        s(b);
    }
    s(&mut d.statement_end);
}

/// Whether `moved` is `d` moved by `by` bytes ([`shifted`] without making it).
pub fn is_shifted(d: &Decl, moved: &Decl, by: isize) -> bool {
    let s = |x: usize| x.wrapping_add_signed(by);
    moved.start == s(d.start)
        && moved.end == s(d.end)
        && moved.statement_end == s(d.statement_end)
        && moved.name_range == d.name_range.map(|(a, b)| (s(a), s(b)))
        && moved.keyword == d.keyword
        && match (&moved.name, &d.name) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
            (None, None) => true,
            _ => false,
        }
}

/// `d` moved by `by` bytes (an edit before it).
pub fn shifted(d: &Decl, by: isize) -> Decl {
    let mut moved = d.clone();
    shift(&mut moved, by);
    moved
}

/// The window re-scan of [`rescan`]; `None` where only a whole scan is sure.
fn rescan_window(old: &str, old_decls: &[Decl], new: &str, u: &Unedited) -> Option<Rescan> {
    let (ob, nb) = (old.as_bytes(), new.as_bytes());
    let (cs, suffix) = (u.start, u.suffix);
    if cs == ob.len() && cs == nb.len() {
        return Some(Rescan { replace: 0..0, window: Vec::new(), delta: 0 });
    }
    let ce_old = ob.len() - suffix;
    // A declaration's start looks back from its keyword over a doc comment, from a `-/` to its
    // opener however far (nesting counted), across the window too: only an edit that neither
    // makes nor removes a `/-` or `-/` (nor one straddling its ends) leaves every such look-back
    // outside the window as it was.
    let delimiter_near = |b: &[u8], from: usize, to: usize| {
        b[from.saturating_sub(1)..(to + 1).min(b.len())]
            .windows(2)
            .any(|w| w == b"/-" || w == b"-/")
    };
    if delimiter_near(ob, cs, ce_old) || delimiter_near(nb, cs, nb.len() - suffix) {
        return None;
    }
    let delta = nb.len() as isize - ob.len() as isize;
    // The searches below need declarations in order, each ending before the next begins (an
    // `unsafe theorem` ends its predecessor past its own start: scanned whole).
    if old_decls.windows(2).any(|w| w[0].start >= w[1].start || w[0].end > w[1].start) {
        return None;
    }
    // Declarations decided by text well before the change are kept; the last of them whose
    // name is before the change (its start is then unchanged) begins the window.
    let limit = cs.saturating_sub(RESCAN_MARGIN);
    let before = old_decls.partition_point(|d| anchor(d) < limit);
    let (keep, l) = match before.checked_sub(1) {
        None => (0, 0),
        Some(s) => (s, old_decls[s].start),
    };
    // A kept declaration ends (by its last token) before the window: its end was decided by
    // the first token after it, at or before the window's first.
    if old_decls[..keep].iter().any(|d| d.end > l) {
        return None;
    }
    if l > 0 && !opens_command_at_column_0(old, l) {
        return None;
    }
    // The first declaration wholly after the change: found again in the window at its shifted
    // place (the lexer back in step), it and everything after are `old`'s, shifted.
    let t = old_decls.partition_point(|d| d.start < ce_old + RESCAN_MARGIN);
    let (r, last) = match old_decls.get(t) {
        None => (nb.len(), None),
        Some(dt) => {
            if !opens_command_at_column_0(old, dt.start) {
                return None;
            }
            match old_decls.get(t + 1) {
                Some(next) if dt.end > next.start => return None,
                Some(next) => (next.start.checked_add_signed(delta)?, Some(dt)),
                None => (nb.len(), Some(dt)),
            }
        }
    };
    if l > r || !new.is_char_boundary(l) || !new.is_char_boundary(r) {
        return None;
    }
    // A declaration's start and end look back over a `/-- … -/` comment before a token, by
    // text: a look-back that would leave the window is only right in a whole scan.
    if comment_lookback_leaves(&new[l..r]) {
        return None;
    }
    let mut window = declarations(&new[l..r]);
    // The window's first declaration must start where the kept prefix left off.
    if keep < before && window.first().map(|d| d.start) != Some(0) {
        return None;
    }
    for d in &mut window {
        shift(d, l as isize);
    }
    let replace = match last {
        Some(dt) => {
            // The window ends with the first declaration wholly after the change, moved.
            let last_in_window = window.last().or(old_decls[..keep].last());
            if last_in_window != Some(&shifted(dt, delta)) {
                return None;
            }
            keep..t + 1
        }
        None => keep..old_decls.len(),
    };
    Some(Rescan { replace, window, delta })
}

/// The header (imports, `open`s, options) of a file: everything before its first declaration.
pub fn header_of(text: &str, decls: &[Decl]) -> String {
    let end = decls.first().map_or(text.len(), |d| d.start).min(text.len());
    let mut end = end;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// Parse one statement's text (`theorem name binders : type`, proof optional); spans are byte
/// offsets into `statement`.
///
/// A statement past `metrics::limits::EDITOR` is refused here, once for all its lenses: the
/// features' walks recurse per tree level, and a crash in the proxy ends the editor's session.
pub fn parse(statement: &str, header: &str) -> Result<Statement, String> {
    let parsed = parse::parse_statement(statement, &parse::Header::parse(header))
        .map_err(|e| e.to_string())?;
    metrics::limits::check_tree("statement", &parsed.tree, &metrics::limits::EDITOR)?;
    Ok(parsed)
}

/// The optimal TED edit mapping from `reference` to `candidate` (preorder ids), with GTED's free
/// renaming of flagged variables/hypotheses, so renamed binders are not reported as differences.
/// `None` for a pair past the TED engine's table limit.
pub fn mapping(reference: &Tree, candidate: &Tree) -> Option<Mapping> {
    distance::try_ted_mapping(reference, candidate, CostModel { free_rename: true }).ok()
}

/// Run an offline metric by contract name.
pub fn judge(metric: &str, pair: &Pair<'_>) -> Result<MetricReport, MetricError> {
    metrics::by_name(metric)?.judge(pair)
}

/// [`judge`], with the metrics that watch a clock (transted-lite's search) stopping by
/// `deadline` at the latest: a job's time limit then ends the work itself, not only the wait
/// for it, and the CPU permit held for it is freed by then. TED has no clock; its cost is
/// bounded by the trees' sizes.
pub fn judge_by(
    metric: &str,
    pair: &Pair<'_>,
    deadline: std::time::Instant,
) -> Result<MetricReport, MetricError> {
    if metric == "transted-lite" {
        let mut m = transted_lite::TransTedLite::default();
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        m.config.time_limit = m.config.time_limit.min(left);
        return m.judge(pair);
    }
    judge(metric, pair)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_chains_are_refused_once_at_parsing_not_walked() {
        // The proxy's 2 MiB worker stacks: a 20,000-term sum is one clear problem for its
        // theorem, never a stack overflow that ends the editor's session.
        let worker = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(|| {
                let sum = vec!["x"; 20_000].join(" + ");
                let e = parse(&format!("theorem t (x : ℕ) : {sum} = 0"), "").unwrap_err();
                assert_eq!(e, "too large: the statement has 40006 nodes (limit 10000)".to_string());
                let deep = vec!["x"; 1_000].join(" + ");
                let e = parse(&format!("theorem t (x : ℕ) : {deep} = 0"), "").unwrap_err();
                assert_eq!(e, "too deep: the statement is 1003 levels deep (limit 256)");
                assert!(parse("theorem t (x : ℕ) : x + x = 0", "").is_ok());
                let mut wide = Tree::leaf("x");
                wide.children = (0..5_000).map(|_| Tree::leaf("y")).collect();
                assert!(mapping(&wide, &wide).is_none(), "past the TED table limit");
            })
            .unwrap();
        worker.join().expect("no stack overflow");
    }

    #[test]
    fn finds_declarations_with_names_and_statement_ends() {
        let t = "import Mathlib\n\n-- @reference R.lean::r\ntheorem foo (x : ℝ) : x = x := by\n  rfl\n\n@[simp] lemma bar : True := trivial\n";
        let d = declarations(t);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].name.as_deref(), Some("foo"));
        assert_eq!(&t[d[0].start..d[0].statement_end], "theorem foo (x : ℝ) : x = x ");
        let (a, b) = d[0].name_range.unwrap();
        assert_eq!(&t[a..b], "foo");
        assert_eq!(d[1].name.as_deref(), Some("bar"));
        assert_eq!(header_of(t, &d), "import Mathlib\n\n-- @reference R.lean::r\n");
    }

    /// Pieces of Lean text that move declaration boundaries or the lexer's state.
    const PIECES: [&str; 24] = [
        "theorem a (x : ℕ) : x = x := by\n  rfl\n\n",
        "lemma b : True := trivial\n",
        "/-- doc with theorem inside -/\ntheorem c : 1 = 1 := rfl\n",
        "@[simp] theorem d (h : [1] = [1]) : True := by simp [h]\n",
        "example : (2 : ℕ) = 2 := rfl\n",
        "private lemma e : True := trivial\n",
        "unsafe theorem f : True := trivial\n",
        "namespace N\n  theorem g : True := trivial\nend N\n",
        "-- @reference R.lean::r\n",
        "def h := 1\n",
        "/- open comment ",
        " -/",
        "\"str",
        "\"",
        "(",
        ")",
        "\n",
        "  ",
        "#eval 1\n",
        "theorem",
        " x",
        "⟨",
        "/--",
        "-/\n",
    ];

    fn assemble(parts: &[usize]) -> String {
        parts.iter().map(|&i| PIECES[i % PIECES.len()]).collect()
    }

    fn floor_boundary(s: &str, mut i: usize) -> usize {
        i = i.min(s.len());
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        /// The window re-scan gives exactly what a whole scan gives, for any edit of any text.
        #[test]
        fn rescanning_the_edited_window_equals_a_whole_scan(
            parts in proptest::collection::vec(0usize..64, 0..30),
            at in 0usize..2000,
            len in 0usize..60,
            insert in proptest::collection::vec(0usize..64, 0..3),
        ) {
            let old = assemble(&parts);
            let a = floor_boundary(&old, at % (old.len() + 1));
            let b = floor_boundary(&old, a + len);
            let new = format!("{}{}{}", &old[..a], assemble(&insert), &old[b..]);
            let old_decls = declarations(&old);
            proptest::prop_assert_eq!(
                declarations_after_edit(&old, &old_decls, &new),
                declarations(&new)
            );
        }
    }

    #[test]
    fn an_edit_inside_one_theorem_rescans_a_window_only() {
        let mut old = String::from("import Mathlib\n\n");
        for i in 0..50 {
            old.push_str(&format!(
                "-- @reference R.lean::r{i}\ntheorem t{i} (x : ℕ) : x + {i} = {i} + x := by\n  omega\n\n"
            ));
        }
        let new = old.replacen("theorem t7 (x : ℕ)", "theorem t7_edited (x y : ℕ)", 1);
        let old_decls = declarations(&old);
        assert!(
            rescan_window(&old, &old_decls, &new, &Unedited::between(&old, &new)).is_some(),
            "took the whole-scan fallback"
        );
        assert_eq!(declarations_after_edit(&old, &old_decls, &new), declarations(&new));
        // An opened comment runs to the end of the file: only a whole scan knows.
        let opened = old.replacen("theorem t7 ", "/- theorem t7 ", 1);
        assert_eq!(declarations_after_edit(&old, &old_decls, &opened), declarations(&opened));
    }

    #[test]
    fn transted_lite_stops_by_the_jobs_deadline() {
        // A pair that needs rewriting (commuted operands), judged with no time left: the search
        // ends on the clock (the job's limit), not on its own budget.
        let r = parse("theorem r (a b c : ℕ) : a + b + c = c + b + a := by sorry", "").unwrap();
        let c = parse("theorem c (a b c : ℕ) : c + (b + a) = a + (b + c) := by sorry", "").unwrap();
        let pair =
            Pair { reference: &r, candidate: &c, reference_header: "", candidate_header: "" };
        let past = std::time::Instant::now() - std::time::Duration::from_millis(1);
        // A search the job's clock ends is an "out of time" failure, never a score.
        match judge_by("transted-lite", &pair, past) {
            Err(e) => assert!(e.to_string().contains("out of time"), "{e}"),
            Ok(rep) => panic!("a score past the deadline: {rep:?}"),
        }
        // With time left, the metric's own limits apply.
        let later = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let rep = judge_by("transted-lite", &pair, later).unwrap();
        assert!(!rep.notes.iter().any(|n| n.starts_with("time limit")), "{:?}", rep.notes);
    }
}
