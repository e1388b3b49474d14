//! Rendering a subterm as text: [`render`] for the path shown to the user (Lean text, through
//! [`crate::trees::render::lean_text`]) and [`render_exact`] for comparing subterms as text.
//!
//! `render_exact` is not `lean_text`: it never shortens, and parenthesises every operator operand,
//! so two different terms never read alike (the guards compare its output). Rewrites nothing.

use super::shapes::{binder_kind, infix_op, is_leaf};
use crate::trees::Tree;

// ---------------------------------------------------------------------------------------------
// Rendering a subterm for the path

/// Longest text a path step shows for its place (longer subterms keep both ends around `…`).
const PATH_TEXT_CHARS: usize = 240;

/// A subterm as the path shows it: Lean text ([`crate::trees::render::lean_text`]: `0 < x`,
/// `(0 : ℝ)`), never the internal labels (`" _ < _ "`).
pub fn render(t: &Tree) -> String {
    // The mark on a name the header declares is elaboration-lite's, not the user's text.
    crate::trees::render::lean_text(t, PATH_TEXT_CHARS)
        .replace(crate::elab::resolve::HEADER_MARK, "")
}

/// A subterm as one line of text, whole however long: placeholders filled with the children
/// (parenthesised when they are operator nodes), GTED's labels otherwise shown as
/// `label(children)`. For comparing subterms as text ([`guards`](super::guards)), where
/// [`render`]'s shortening could make two different terms read alike.
pub fn render_exact(t: &Tree) -> String {
    let mut out = String::new();
    render_into(t, &mut out, 0);
    // Labels such as `"Nat.gcd _  _ "` leave double spaces once filled.
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn render_into(t: &Tree, whole: &mut String, depth: usize) {
    let mut own = String::new();
    render_node(t, &mut own, depth);
    whole.push_str(own.trim());
}

fn render_node(t: &Tree, out: &mut String, depth: usize) {
    if is_leaf(t) {
        out.push_str(&t.label);
        return;
    }
    if depth > 64 {
        out.push('…');
        return;
    }
    let holes = t.label.matches('_').count();
    let wrap = |c: &Tree, out: &mut String| {
        // An application (`Nat.gcd _  _ `) binds tighter than any infix operator around it.
        let application_in_infix = infix_op(&t.label).is_some()
            && c.label.chars().next().is_some_and(char::is_alphanumeric);
        let paren = !is_leaf(c)
            && c.label.contains(' ')
            && binder_kind(&c.label).is_none()
            && !application_in_infix;
        if paren {
            out.push('(');
        }
        render_into(c, out, depth + 1);
        if paren {
            out.push(')');
        }
    };
    if holes == t.children.len() && !t.label.contains("_._") {
        let mut children = t.children.iter();
        for ch in t.label.chars() {
            if ch == '_' {
                if let Some(c) = children.next() {
                    wrap(c, out);
                }
            } else {
                out.push(ch);
            }
        }
        return;
    }
    out.push_str(t.label.trim());
    out.push('(');
    for (i, c) in t.children.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        render_into(c, out, depth + 1);
    }
    out.push(')');
}
