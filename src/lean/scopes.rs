//! The scopes a header's non-import lines leave open, and text that keeps them balanced.
//!
//! Owns [`HeaderScopes`]: what a preamble (`noncomputable section`, `namespace X`, `open … in`,
//! …) does to the command scopes of the text that follows it, read the way Lean's command
//! elaborator reads it (src/Lean/Elab/BuiltinCommand.lean: `elabNamespace` and `elabSection`
//! push one scope per name component, an anonymous `section` pushes one scope with the empty
//! header; `elabEnd` pops one scope per component of its name and fails when the names do not
//! match). The oracle and the BEq checker wrap each side as `section / preamble / declaration /
//! end`; a preamble that opens a scope of its own would make that `end` close *its* scope and
//! leak the rest (its `open`s, `variable`s, `universe`s) into every later command. So the
//! wrapper closes exactly what the preamble opened ([`HeaderScopes::closing`]) before its own
//! `end`, and names declared inside a namespace the preamble opened are qualified with it
//! ([`HeaderScopes::qualify`]).
//!
//! A trailing `open X in` (or `set_option … in`) scopes only the next command (`cmd₁ in cmd₂`
//! expands to a scope around the two, `expandInCmd` in src/Lean/Elab/BuiltinCommand.lean);
//! inside the wrapper's own section the plain command has the same effect on the declaration
//! and also reaches the commands after it (the `autoImplicit false` probe), so
//! [`HeaderScopes::text`] turns the trailing ones into plain commands.
//!
//! Leaves the Lean I/O to `super::oracle` and `super::beq_checker`.

/// One scope opened by the preamble.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Scope {
    /// The name component (`""` for an anonymous `section`).
    header: String,
    /// Opened by `namespace` (changes the current namespace), else by `section`.
    namespace: bool,
}

/// A preamble read for its scopes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderScopes {
    text: String,
    open: Vec<Scope>,
}

/// The preamble closes a scope it did not open (its `end` would close the wrapper's own).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the header's `{line}` closes a scope the header did not open")]
pub struct UnbalancedEnd {
    pub line: String,
}

/// A line's code with `--` comments dropped, and whether a block comment is still open after it.
fn code_of(line: &str, in_block: &mut bool) -> String {
    let mut out = String::new();
    let mut rest = line;
    loop {
        if *in_block {
            match rest.find("-/") {
                Some(i) => {
                    rest = &rest[i + 2..];
                    *in_block = false;
                }
                None => return out,
            }
        }
        let block = rest.find("/-");
        let comment = rest.find("--");
        match (block, comment) {
            (Some(b), c) if c.is_none_or(|c| b < c) => {
                out.push_str(&rest[..b]);
                rest = &rest[b + 2..];
                *in_block = true;
            }
            (_, Some(c)) => {
                out.push_str(&rest[..c]);
                return out;
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// Name components of a scope name (`A.B` → `["A", "B"]`; `«a.b»` stays one component).
fn components(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in name.chars() {
        match c {
            '«' => quoted = true,
            '»' => quoted = false,
            '.' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

impl HeaderScopes {
    /// Read `preamble` (a header without its imports). Fails when it ends a scope it did not
    /// open.
    pub fn read(preamble: &str) -> Result<HeaderScopes, UnbalancedEnd> {
        let mut open: Vec<Scope> = Vec::new();
        // `mutual … end` blocks: their `end` belongs to the block, not to a scope.
        let mut mutual = 0usize;
        let mut in_block = false;
        let lines: Vec<&str> = preamble.lines().collect();
        let mut codes = Vec::with_capacity(lines.len());
        for line in &lines {
            let code = code_of(line, &mut in_block);
            let words: Vec<&str> = code.split_whitespace().collect();
            // Modifiers `elabSection` accepts before `section`.
            let start = words
                .iter()
                .position(|w| !matches!(*w, "noncomputable" | "public" | "meta" | "@[expose]"))
                .unwrap_or(words.len());
            match (words.get(start).copied(), words.get(start + 1).copied()) {
                (Some("namespace"), Some(name)) if start == 0 => {
                    open.extend(
                        components(name)
                            .into_iter()
                            .map(|header| Scope { header, namespace: true }),
                    );
                }
                (Some("section"), name) => match name {
                    Some(name) => open.extend(
                        components(name)
                            .into_iter()
                            .map(|header| Scope { header, namespace: false }),
                    ),
                    None => open.push(Scope { header: String::new(), namespace: false }),
                },
                (Some("mutual"), _) if start == 0 => mutual += 1,
                (Some("end"), None) if start == 0 && mutual > 0 => mutual -= 1,
                (Some("end"), name) if start == 0 => {
                    let n = name.map_or(1, |n| components(n).len());
                    if n > open.len() {
                        return Err(UnbalancedEnd { line: line.trim().to_string() });
                    }
                    open.truncate(open.len() - n);
                }
                _ => {}
            }
            codes.push(code);
        }
        // Trailing `… in` lines (nothing but blank lines and comments after them) scope the
        // next command only: inside the wrapper's section they become plain commands.
        let mut text_lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for i in (0..lines.len()).rev() {
            let code = codes[i].trim_end();
            if code.trim().is_empty() {
                continue;
            }
            match code.strip_suffix(" in") {
                Some(command) if !command.trim().is_empty() => {
                    text_lines[i] = command.to_string();
                }
                _ => break,
            }
        }
        let text = text_lines.iter().map(|l| format!("{l}\n")).collect();
        Ok(HeaderScopes { text, open })
    }

    /// The preamble as it goes inside the wrapper's section (trailing `… in` made plain).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// `end` commands closing what the preamble opened, innermost first (one line each).
    pub fn closing(&self) -> String {
        self.open
            .iter()
            .rev()
            .map(|s| {
                if s.header.is_empty() {
                    "end\n".to_string()
                } else {
                    format!("end {}\n", s.header)
                }
            })
            .collect()
    }

    /// The namespace the preamble leaves current (`A.B`), empty when none.
    pub fn namespace(&self) -> String {
        self.open
            .iter()
            .filter(|s| s.namespace)
            .map(|s| s.header.as_str())
            .collect::<Vec<_>>()
            .join(".")
    }

    /// `name` as declared after the preamble: inside its namespace.
    pub fn qualify(&self, name: &str) -> String {
        let ns = self.namespace();
        if ns.is_empty() {
            name.to_string()
        } else {
            format!("{ns}.{name}")
        }
    }
}

/// `axiom <name> <sig>` under `preamble` in a section of its own, the preamble's own scopes
/// closed before the section's `end`; `name` as [`HeaderScopes::qualify`] gives it (the axiom is
/// declared by its local part inside the preamble's namespace). For standalone proof texts.
pub fn axiom_under(preamble: &str, name: &str, sig: &str) -> String {
    match HeaderScopes::read(preamble) {
        Ok(scopes) => {
            let ns = scopes.namespace();
            let local = if ns.is_empty() {
                name
            } else {
                name.strip_prefix(&format!("{ns}.")).unwrap_or(name)
            };
            format!("section\n{}axiom {local} {sig}\n{}end\n", scopes.text(), scopes.closing())
        }
        // The oracle refuses such a preamble before anything is declared; kept as written.
        Err(_) => format!("section\n{preamble}axiom {name} {sig}\nend\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noncomputable_section_is_closed_and_trailing_in_made_plain() {
        let s = HeaderScopes::read("noncomputable section\nopen Real\nopen Finset in\n").unwrap();
        assert_eq!(s.closing(), "end\n");
        assert_eq!(s.text(), "noncomputable section\nopen Real\nopen Finset\n");
        assert_eq!(s.qualify("x"), "x");
    }

    #[test]
    fn namespaces_qualify_and_close_per_component() {
        let s =
            HeaderScopes::read("namespace A.B\nsection S\n-- end\n/- end\n-/\nopen X in -- c\n")
                .unwrap();
        assert_eq!(s.closing(), "end S\nend B\nend A\n");
        assert_eq!(s.qualify("thm_Q"), "A.B.thm_Q");
        assert_eq!(s.text().lines().last(), Some("open X"));
    }

    #[test]
    fn balanced_and_unbalanced_ends() {
        let s = HeaderScopes::read("namespace A\nend A\nopen Real\n").unwrap();
        assert_eq!(s.closing(), "");
        assert_eq!(s.namespace(), "");
        assert!(HeaderScopes::read("open Real\nend\n").is_err());
        let s = HeaderScopes::read("mutual\ndef f : Nat := 0\nend\nsection\n").unwrap();
        assert_eq!(s.closing(), "end\n");
        // An `open … in` followed by a command is left alone.
        let s = HeaderScopes::read("open Real in\ninstance : Foo := ⟨⟩\n").unwrap();
        assert!(s.text().starts_with("open Real in\n"));
    }

    #[test]
    fn axioms_under_a_namespace_use_their_local_name() {
        assert_eq!(
            axiom_under("namespace A\nopen B in\n", "A._tt.S1._stmt", ": True"),
            "section\nnamespace A\nopen B\naxiom _tt.S1._stmt : True\nend A\nend\n"
        );
    }
}
