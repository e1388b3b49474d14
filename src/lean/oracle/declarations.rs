//! The registry of hidden statement declarations in a scratch document, and their universe
//! arity: each statement in its own `section` with its own preamble, the scopes that preamble
//! opens closed before the section's `end` (`crate::lean::scopes`), declared twice (as written,
//! and under `set_option autoImplicit false in` to tell auto-bound implicits apart); an error on
//! the wrapping lines fails the run ([`OracleError::Preamble`]). The arity comes from `#check`
//! probes in the declaring version, read from error diagnostics only.
//!
//! Must not send anything itself: every version goes through [`Oracle::run`].

use super::batch::{Command, CommandResult};
use super::messages::LineDiagnostics;
use super::{line_count, Oracle, OracleError};
use crate::lean::goals::LeanRpc;
use crate::lean::scopes::HeaderScopes;
use std::time::Instant;

/// A statement declared in a scratch document under a hidden name.
#[derive(Clone, Debug, PartialEq)]
pub struct Declared {
    /// `_tt.S<k>._stmt`: a component starting with `_` keeps it out of `exact?`/`rw?`
    /// candidates (design §7.2; `allowCompletion` rejects internal names).
    pub name: String,
    /// The statement's own errors (it does not typecheck) — empty when it does.
    pub errors: Vec<String>,
    /// It typechecks only with auto-bound implicits (fails under `autoImplicit false`).
    pub autobound: bool,
    /// How many universe parameters the hidden axiom has, when asked for.
    pub universes: UniverseArity,
}

/// Most universe parameters [`Oracle::declare_probing`] tells apart; a statement with more is
/// [`UniverseArity::Unknown`].
pub const MAX_UNIVERSE_ARITY: usize = 4;

/// The number of universe parameters of a declared statement, from its probes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UniverseArity {
    /// No probe was asked for.
    NotProbed,
    /// Exactly this many.
    Known(usize),
    /// The probes did not tell (why).
    Unknown(String),
}

/// A statement to declare under a hidden name.
#[derive(Clone, Copy, Debug)]
pub struct Declaration<'a> {
    /// Its header's non-import lines (`open`, `variable`, …).
    pub preamble: &'a str,
    /// Its signature (`binders : type`).
    pub signature: &'a str,
    /// Also probe the number of its universe parameters (in the same version).
    pub probe_universes: bool,
}

/// The message `Lean.Elab.Term.mkConst` (src/Lean/Elab/Term.lean) throws when a constant is
/// given more explicit universe levels than it has: "too many explicit universe levels for
/// '<c>'" (older versions quote with `'…'`, newer ones with backticks; the prefix is stable).
const TOO_MANY_LEVELS: &str = "too many explicit universe levels";

/// The universe probe with `k` levels for the hidden constant `name` (design §7.2 step 3):
/// `universe u in #check @name.{u, …, u}`. `#check` of a term that is not a bare identifier
/// elaborates it with `Term.elabTerm`, whose constant case goes through `mkConst`: more levels
/// than the constant has throw [`TOO_MANY_LEVELS`]; fewer are filled with fresh level
/// metavariables, which `#check` turns into parameters (`Term.levelMVarToParam` in
/// `Lean.Elab.Command.elabCheckCore`, src/Lean/Elab/BuiltinCommand.lean) — no error. `@` keeps
/// implicit and instance arguments out, so this elaborates for any axiom. Hence the arity is
/// the largest `k` whose probe has no error.
fn universe_probe(name: &str, k: usize) -> String {
    format!("universe u in #check @{name}.{{{}}}", vec!["u"; k].join(", "))
}

/// The arity from the errors of the probes `k = 1, 2, …` (in order): probes without errors,
/// then probes failing with [`TOO_MANY_LEVELS`]; anything else is [`UniverseArity::Unknown`].
fn arity_from_probes(errors: &[Option<&String>]) -> UniverseArity {
    let mut arity = 0;
    for (i, e) in errors.iter().enumerate() {
        let k = i + 1;
        match e {
            None if arity == i => arity = k,
            None => {
                return UniverseArity::Unknown(format!(
                    "the probe with {k} universe level(s) elaborated after one with fewer failed"
                ))
            }
            Some(m) if m.contains(TOO_MANY_LEVELS) => {}
            Some(m) => {
                return UniverseArity::Unknown(format!(
                    "the probe with {k} universe level(s) failed: {m}"
                ))
            }
        }
    }
    if arity == errors.len() {
        UniverseArity::Unknown(format!(
            "more than {} universe parameters",
            errors.len().saturating_sub(1)
        ))
    } else {
        UniverseArity::Known(arity)
    }
}

/// The probes of `name` with `1 ..= MAX_UNIVERSE_ARITY + 1` levels, in that order.
fn universe_probes(name: &str) -> impl Iterator<Item = Command> + '_ {
    (1..=MAX_UNIVERSE_ARITY + 1).map(move |k| Command::new(universe_probe(name, k)))
}

/// The arity read from the results of one statement's [`universe_probes`].
fn arity_of(probed: &[CommandResult]) -> UniverseArity {
    let errors: Vec<Option<&String>> = probed.iter().map(|r| r.errors.first()).collect();
    arity_from_probes(&errors)
}

/// One statement in the registry: the lines of its declaration and of its strict twin, the
/// entry's whole lines `[start, end)` with its wrapping, and what Lean said once checked.
#[derive(Clone, Debug)]
pub(super) struct RegistryEntry {
    stmt_line: u32,
    strict_line: u32,
    lines: (u32, u32),
    checked: Option<Declared>,
    /// The first error on the entry's lines outside its statement (its preamble, `section`,
    /// `end`s): Lean could not set up the statement's context.
    outside: Option<String>,
    name: String,
}

impl<L: LeanRpc> Oracle<L> {
    /// Declare statements (each `(preamble, signature)`) under hidden names in the scratch
    /// document for `key`, in one version, and report which typecheck and which need
    /// auto-bound implicits (a second probe under `set_option autoImplicit false in`, design
    /// §7.2 step 3).
    pub async fn declare(
        &mut self,
        key: &str,
        statements: &[(&str, &str)],
        deadline: Instant,
    ) -> Result<Vec<Declared>, OracleError> {
        let plain: Vec<Declaration<'_>> = statements
            .iter()
            .map(|(preamble, signature)| Declaration {
                preamble,
                signature,
                probe_universes: false,
            })
            .collect();
        self.declare_probing(key, &plain, deadline).await
    }

    /// [`Oracle::declare`], and for the statements that ask, their number of universe
    /// parameters: `MAX_UNIVERSE_ARITY + 1` probe commands each ([`universe_probe`]) in the
    /// active region of the same version (one version in all; the registry keeps only the
    /// declarations).
    pub async fn declare_probing(
        &mut self,
        key: &str,
        statements: &[Declaration<'_>],
        deadline: Instant,
    ) -> Result<Vec<Declared>, OracleError> {
        let numbers = self.next_statement..;
        self.next_statement += statements.len() as u64;
        let doc = self.doc(key);
        let mut indices = Vec::new();
        let mut probes = Vec::new();
        // Read every preamble before touching the registry: one that closes a scope it did not
        // open would close the registry's own section.
        let mut scoped = Vec::with_capacity(statements.len());
        for statement in statements {
            let preamble: String = statement
                .preamble
                .lines()
                .filter(|l| {
                    let t = l.trim();
                    !t.starts_with("import ") && !t.contains("maxHeartbeats")
                })
                .map(|l| format!("{l}\n"))
                .collect();
            let scopes = HeaderScopes::read(&preamble)
                .map_err(|e| OracleError::Preamble { message: e.to_string() })?;
            scoped.push(scopes);
        }
        for ((first, statement), scopes) in numbers.zip(statements).zip(&scoped) {
            let start = line_count(&doc.header) + line_count(&doc.registry);
            let preamble = scopes.text();
            let sig = statement.signature.replace('\n', " ");
            // Declared inside the namespace the preamble leaves open, so named with it.
            let name = scopes.qualify(&format!("_tt.S{first}._stmt"));
            let closing = scopes.closing();
            let text = format!(
                "section\n{preamble}axiom _tt.S{first}._stmt {sig}\nset_option autoImplicit false in\naxiom _tt.S{first}._strict {sig}\n{closing}end\n"
            );
            let stmt_line = start + 1 + line_count(preamble);
            doc.registry.push_str(&text);
            indices.push(doc.entries.len());
            if statement.probe_universes {
                probes.extend(universe_probes(&name));
            }
            doc.entries.push(RegistryEntry {
                stmt_line,
                strict_line: stmt_line + 2,
                lines: (start, start + line_count(&text)),
                checked: None,
                outside: None,
                name,
            });
        }
        let (_, probed) = self.run(key, &[], &probes, deadline).await?;
        let mut probed = probed.chunks(MAX_UNIVERSE_ARITY + 1);
        let doc = self.doc(key);
        // An error in a registry entry's own wrapping (its preamble, its scopes) is no verdict
        // on the statement: the run fails.
        if let Some(message) =
            indices.iter().find_map(|&i| doc.entries.get(i).and_then(|e| e.outside.clone()))
        {
            return Err(OracleError::Preamble { message });
        }
        let mut out = Vec::with_capacity(indices.len());
        for (i, statement) in indices.into_iter().zip(statements) {
            // Each probing statement's chunk is taken even when the entry is missing, so the
            // next statement reads its own probes.
            let arity =
                statement.probe_universes.then(|| arity_of(probed.next().unwrap_or_default()));
            let Some(mut declared) = doc.entries.get(i).and_then(|e| e.checked.clone()) else {
                continue;
            };
            if let Some(arity) = arity {
                declared.universes = arity;
            }
            out.push(declared);
        }
        Ok(out)
    }

    /// The universe arity of already declared statements (by their hidden names), from
    /// [`universe_probe`]s in one version: for statements whose universe parameters only show
    /// after declaring them (auto-bound implicit names elaborate to `Sort u_1`).
    pub async fn probe_universes(
        &mut self,
        key: &str,
        names: &[&str],
        deadline: Instant,
    ) -> Result<Vec<UniverseArity>, OracleError> {
        let probes: Vec<Command> = names.iter().flat_map(|n| universe_probes(n)).collect();
        let (_, probed) = self.run(key, &[], &probes, deadline).await?;
        Ok(probed.chunks(MAX_UNIVERSE_ARITY + 1).map(arity_of).collect())
    }

    /// Record what the diagnostics say about the registry entries not yet checked: the
    /// statement's own errors, whether only the auto-bound version typechecks, and the first
    /// error on the entry's wrapping lines.
    pub(super) fn record_entries(&mut self, key: &str, diagnostics: &LineDiagnostics) {
        let entries: Vec<(usize, RegistryEntry)> = self
            .doc(key)
            .entries
            .iter()
            .cloned()
            .enumerate()
            .filter(|(_, e)| e.checked.is_none())
            .collect();
        for (i, e) in entries {
            let errors: Vec<String> = diagnostics
                .errors_in(e.stmt_line, e.stmt_line + 1)
                .map(|(_, m)| m.clone())
                .collect();
            // The statement's two lines and the `set_option … in` between them are its own;
            // every other line of the entry is wrapping.
            let outside = diagnostics
                .errors_in(e.lines.0, e.lines.1)
                .find(|(l, _)| *l < u64::from(e.stmt_line) || *l > u64::from(e.strict_line))
                .map(|(_, m)| m.clone());
            let strict_errors = diagnostics.errors_in(e.strict_line, e.strict_line + 1).count();
            let checked = Declared {
                name: e.name.clone(),
                autobound: errors.is_empty() && strict_errors > 0,
                errors,
                universes: UniverseArity::NotProbed,
            };
            if let Some(slot) = self.doc(key).entries.get_mut(i) {
                slot.checked = Some(checked);
                slot.outside = outside;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn universe_arity_is_the_last_probe_without_error() {
        let too_many = "too many explicit universe levels for '_tt.S1._stmt'".to_string();
        let newer = "too many explicit universe levels for `_tt.S1._stmt`".to_string();
        let other = "unknown universe level 'u'".to_string();
        let arity = |e: &[Option<&String>]| arity_from_probes(e);
        assert_eq!(
            arity(&[Some(&too_many), Some(&too_many), Some(&too_many)]),
            UniverseArity::Known(0)
        );
        assert_eq!(arity(&[None, None, Some(&newer), Some(&newer)]), UniverseArity::Known(2));
        assert!(matches!(
            arity(&[None, Some(&other), Some(&too_many)]),
            UniverseArity::Unknown(m) if m.contains("with 2 universe level(s) failed: unknown universe level")
        ));
        assert!(matches!(arity(&[None, Some(&too_many), None]), UniverseArity::Unknown(_)));
        assert!(matches!(
            arity(&[None, None, None]),
            UniverseArity::Unknown(m) if m == "more than 2 universe parameters"
        ));
        assert_eq!(universe_probe("_tt.S3._stmt", 2), "universe u in #check @_tt.S3._stmt.{u, u}");
    }
}
