//! A Lean file as the integrity checks read it: masked, split into commands, and indexed once.
//!
//! Owns [`Parsed`] (theorems by name, the commands that set the scoped context or define
//! something, line starts, the statement trees of chosen declarations) and the lookups on it
//! the checks share (what is in scope at a command, whether a proof uses `sorry`, how a command
//! is shown in a finding). It judges nothing: the checks are the sibling modules'.

use super::scan;
use super::scan::{Command, ScanError};
use crate::trees::lean_syntax::{DEFINITION_KEYWORDS, MEANING_COMMANDS, SCOPED_CONTEXT_COMMANDS};
use crate::trees::parse::Header;
use crate::trees::{parse, Statement};
use std::collections::HashMap;

/// A file cut into commands, with its targets' statements parsed where they are declarations.
///
/// Everything a check looks up per target is indexed here once (one pass each), so checking
/// T targets in a file of C commands costs about T + C, not T × C: the theorems by name, the
/// commands that set the scoped context or define something, the line starts, and (on first
/// use) the engine's declarations of the whole file.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub path: String,
    pub text: String,
    pub masked: String,
    pub commands: Vec<Command>,
    /// Byte offset of each line's start.
    pub(super) line_starts: Vec<usize>,
    /// The first theorem/lemma by full name, and by the name as written.
    pub(super) theorems: HashMap<String, usize>,
    pub(super) theorems_as_written: HashMap<String, usize>,
    /// Every declaring command by full name, in order.
    pub(super) declarations: HashMap<String, Vec<usize>>,
    /// Commands that may be in scope at a later command ([`in_scope`]).
    pub(super) context: Vec<usize>,
    /// Commands that define something or change meaning ([`DEFINITION_KEYWORDS`], [`MEANING_COMMANDS`]).
    pub(super) relevant: Vec<usize>,
    /// `theorem NAME` / `lemma NAME` word pairs that are not a command's own name (inside a
    /// term), by the name's last component: (offset of the name, the name as written).
    pub(super) nested_declarations: HashMap<String, Vec<(usize, String)>>,
    /// The engine's declarations of the whole text, found once when first needed.
    pub(super) declarations_found: std::sync::OnceLock<Vec<parse::Declaration>>,
}

impl Parsed {
    /// Mask and split `text` (the file at `path`).
    pub fn new(path: &str, text: &str) -> Result<Parsed, ScanError> {
        let masked = scan::mask(text)?;
        let commands = scan::split(&masked);
        let mut line_starts = vec![0];
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        let mut theorems = HashMap::new();
        let mut theorems_as_written = HashMap::new();
        let mut declarations: HashMap<String, Vec<usize>> = HashMap::new();
        let mut context = Vec::new();
        let mut relevant = Vec::new();
        for (i, c) in commands.iter().enumerate() {
            if is_theorem(c) {
                if let Some(n) = &c.full_name {
                    theorems.entry(n.clone()).or_insert(i);
                }
                if let Some(n) = &c.name {
                    theorems_as_written.entry(n.clone()).or_insert(i);
                }
            }
            if let (Some(_), Some(full)) = (&c.name, &c.full_name) {
                declarations.entry(full.clone()).or_default().push(i);
            }
            if may_be_context(c) {
                context.push(i);
            }
            if DEFINITION_KEYWORDS.contains(&c.keyword.as_str())
                || MEANING_COMMANDS.contains(&c.keyword.as_str())
            {
                relevant.push(i);
            }
        }
        let nested_declarations = nested_declarations(&masked, &commands);
        Ok(Parsed {
            path: path.to_string(),
            text: text.to_string(),
            masked,
            commands,
            line_starts,
            theorems,
            theorems_as_written,
            declarations,
            context,
            relevant,
            nested_declarations,
            declarations_found: std::sync::OnceLock::new(),
        })
    }

    pub(super) fn command_text(&self, c: &Command) -> &str {
        self.masked.get(c.start..c.end).unwrap_or_default()
    }

    /// The 1-based line of byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset).max(1)
    }

    /// The theorem/lemma declaring `full_name`, if any (the first one).
    pub fn theorem(&self, full_name: &str) -> Option<usize> {
        self.theorems.get(full_name).copied()
    }

    /// The command containing byte `offset`, if any (commands are in order).
    pub(super) fn command_at(&self, offset: usize) -> Option<&Command> {
        let k = self.commands.partition_point(|c| c.start <= offset);
        let c = self.commands.get(k.checked_sub(1)?)?;
        (offset < c.end.max(c.start + 1)).then_some(c)
    }

    /// The statements of the declarations that commands `indices` are (parsed with the engine's
    /// parser), and their masked text after the name; in the order of `indices`. One pass over
    /// the file's declarations, and its header read once, however many there are.
    pub(super) fn statements(&self, indices: &[usize]) -> Vec<(Option<Statement>, String)> {
        let decls = self.declarations_found.get_or_init(|| parse::find_declarations(&self.text));
        let mut order: Vec<usize> = (0..indices.len()).collect();
        order.sort_by_key(|&k| self.commands[indices[k]].start);
        let mut out: Vec<(Option<Statement>, String)> = vec![(None, String::new()); indices.len()];
        let mut header = Header::default();
        let mut header_to = 0usize;
        let mut d = 0usize;
        for k in order {
            let c = &self.commands[indices[k]];
            while d < decls.len() && decls[d].end <= c.start {
                d += 1;
            }
            let found = decls[d..]
                .iter()
                .take_while(|x| x.start <= c.end)
                .find(|x| x.end > c.start && x.name.is_some());
            let Some(decl) = found else {
                continue;
            };
            let after_name = decl.name_range.map_or(decl.start, |(_, e)| e);
            let text =
                self.masked.get(after_name..decl.statement_end.max(after_name)).unwrap_or_default();
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            // The header of everything before the declaration, read on from where the last
            // one stopped (its lines only add imports, opens and notations).
            if decl.start > header_to {
                let more = Header::parse(self.text.get(header_to..decl.start).unwrap_or_default());
                header.imports.extend(more.imports);
                header.opens.extend(more.opens);
                header.scoped_opens.extend(more.scoped_opens);
                header.notations.extend(more.notations);
                header_to = decl.start;
            }
            let statement = parse::parse_declaration_in(&self.text, decl, &header).ok();
            out[k] = (statement, text);
        }
        out
    }

    pub(super) fn line_span(&self, c: &Command) -> (usize, usize) {
        let first_line_end = self.text[c.start..]
            .find('\n')
            .map_or(self.text.len(), |n| c.start + n)
            .min(c.end.max(c.start));
        (c.start, first_line_end)
    }
}

/// `theorem NAME`/`lemma NAME` pairs of the masked text that are not the name of the command
/// they are in (a command's own name is the first such pair in it), by the name's last
/// component.
pub(super) fn nested_declarations(
    masked: &str,
    commands: &[Command],
) -> HashMap<String, Vec<(usize, String)>> {
    let mut out: HashMap<String, Vec<(usize, String)>> = HashMap::new();
    let mut previous: Option<&str> = None;
    let mut command = 0;
    let mut first_pair_seen: Option<usize> = None;
    for (offset, word) in scan::words(masked) {
        let after_keyword = matches!(previous, Some("theorem" | "lemma"));
        previous = Some(word);
        if !after_keyword {
            continue;
        }
        while command + 1 < commands.len() && commands[command + 1].start <= offset {
            command += 1;
        }
        let c = commands.get(command).filter(|c| c.start <= offset);
        let first_in_command = c.is_some() && first_pair_seen != Some(command);
        if c.is_some() {
            first_pair_seen = Some(command);
        }
        if first_in_command && c.is_some_and(|c| c.name.as_deref() == Some(word)) {
            continue;
        }
        let written = word.strip_prefix("_root_.").unwrap_or(word);
        let last = written.rsplit('.').next().unwrap_or(written).to_string();
        out.entry(last).or_default().push((offset, word.to_string()));
    }
    out
}

pub(super) fn is_theorem(c: &Command) -> bool {
    c.keyword == "theorem" || c.keyword == "lemma"
}

/// Options that bound resources only; a solution may add them.
pub(super) const RESOURCE_OPTIONS: &[&str] = &["maxHeartbeats", "maxRecDepth", "synthInstance.max"];

/// Option prefixes that change only output or diagnostics, never what a statement elaborates
/// to: a solution may set them anywhere.
pub(super) const HARMLESS_OPTIONS: &[&str] = &["linter.", "pp.", "trace.", "profiler"];

/// A command as written (comments dropped, whitespace collapsed, cut at 80 chars), for messages.
pub(super) fn shown(p: &Parsed, c: &Command) -> String {
    // At most 80 characters are shown: read no more than a few hundred bytes of the command.
    let mut end = c.end.min(c.start + 400);
    while !p.text.is_char_boundary(end) {
        end -= 1;
    }
    let original = p.text.get(c.start..end).unwrap_or_default();
    // Keep the source's characters where the mask kept code (string literals stay readable).
    let kept: String = original
        .char_indices()
        .map(|(i, ch)| {
            let masked = p.masked.as_bytes().get(c.start + i).copied();
            if masked == Some(b' ') && !ch.is_whitespace() && !in_string(original, i) {
                ' '
            } else {
                ch
            }
        })
        .collect();
    short(&kept.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Is byte `i` of `text` inside a `"…"` literal (counting unescaped quotes before it on its line)?
pub(super) fn in_string(text: &str, i: usize) -> bool {
    let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
    let mut inside = false;
    let mut escaped = false;
    for ch in text[line_start..i].chars() {
        match ch {
            '\\' if inside && !escaped => escaped = true,
            '"' if !escaped => inside = !inside,
            _ => escaped = false,
        }
    }
    inside
}

/// Does the task's proof of command `i` use `sorry` (after its statement's `:=`)?
pub(super) fn proof_uses_sorry(file: &Parsed, i: usize) -> bool {
    let c = &file.commands[i];
    let text = file.command_text(c);
    // The proof starts at the first top-level `:=`; a `sorry` before it would be in the
    // statement, which no task does, so any `sorry` word in the command counts.
    scan::words(text).any(|(_, w)| w == "sorry" || w == "admit")
}

/// Scoped context commands in scope at command `at`: same scope chain prefix, before it; an
/// `open … in` / `set_option … in` only when it is right before `at`.
pub(super) fn in_scope(file: &Parsed, at: usize) -> Vec<&Command> {
    let here = &file.commands[at].scope_ids;
    let mut out = Vec::new();
    let before = file.context.partition_point(|&i| i < at);
    for &i in &file.context[..before] {
        let c = &file.commands[i];
        if c.norm.ends_with(" in") {
            if i + 1 == at {
                out.push(c);
            }
            continue;
        }
        if c.scope_ids.len() <= here.len() && here.starts_with(&c.scope_ids) {
            out.push(c);
        }
    }
    out
}

/// Whether a command can be in the scoped context of a later one: `open`, `variable`,
/// `universe`, `export`, `include`, `omit`, and a `set_option` that is no resource limit and not
/// only about output (global or `… in`).
pub(super) fn may_be_context(c: &Command) -> bool {
    // Resource limits (`set_option maxHeartbeats N in`) change no statement's meaning.
    let resource = RESOURCE_OPTIONS.iter().any(|o| c.norm.contains(o));
    let option = c.norm.split_whitespace().nth(1).unwrap_or_default();
    let harmless = HARMLESS_OPTIONS.iter().any(|h| option.starts_with(h));
    // A global `set_option` holds to the end of its section as an `open` does.
    SCOPED_CONTEXT_COMMANDS.contains(&c.keyword.as_str())
        || (c.keyword == "set_option" && !resource && !harmless)
}

/// The first 80 chars of a command's text, for messages.
pub(super) fn short(norm: &str) -> String {
    let mut s: String = norm.chars().take(80).collect();
    if s.len() < norm.len() {
        s.push('…');
    }
    s
}
