//! A header read as Lean leaves the scope at the declaration that follows it.
//!
//! Owns [`Scope::read`] (header text → [`Scope`]) and [`Scope::resolve`] (a written name → the
//! declaration it denotes there). Follows lean4 `src/Lean/Elab/BuiltinCommand.lean` for the scope
//! commands (`namespace`, `section`, `noncomputable section`, `end`: `open`s, `variable`s and
//! options last until the `end` of the scope they were made in), `src/Lean/Elab/Open.lean`
//! (`elabOpenDecl`) for the forms of `open`, and `src/Lean/ResolveName.lean`
//! (`resolveGlobalName`) for resolution. A command starts at column 0 (continuation lines are
//! indented) or at a command keyword after another command on its line; comments are skipped.
//!
//! What it does not model (instances, notations, macros, attributes, `export`, commands with
//! effects, an unknown command) is kept as text in [`Scope::unmodelled`]: a statement under such
//! a header gets no rewrite, and is compared with another only under the same header.

use super::mathlib_names::{NamespaceNames, NAMESPACES, POSSIBLY_HELD};
use std::collections::{BTreeSet, HashSet};

/// One `open` in force (lean4 `src/Lean/Data/OpenDecl.lean`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum OpenDecl {
    /// `open X` or `open X hiding a b`: every non-protected `X.a` but the hidden ones.
    Simple { namespace: String, hiding: Vec<String> },
    /// `open X (a)` (alias `a` → `X.a`) or `open X renaming a → b` (alias `b` → `X.a`).
    Explicit { alias: String, target: String },
}

/// What Lean's scope is at the declaration after a header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scope {
    /// `import` module names, as a set (their order only breaks instance ties, which the rules
    /// never rely on).
    pub imports: BTreeSet<String>,
    /// The current namespace's components (`namespace A.B` gives `["A", "B"]`).
    pub namespace: Vec<String>,
    /// The `open`s in force, in the order they were made.
    pub opens: Vec<OpenDecl>,
    /// Namespaces whose scoped notations are active (`open X`, `open X hiding …`, `open scoped X`),
    /// in the order they were activated (one may appear twice). A list, not a set, so that a
    /// scope's `end` undoes its activations by truncation, as for `opens`.
    pub scoped: Vec<String>,
    /// `variable` commands in force, whitespace collapsed.
    pub variables: Vec<String>,
    /// For each of `variables`, the `open`s, scoped namespaces and namespace depth in force when
    /// it was read: its types mean what the statement's text means only where these are still
    /// the scope's ([`Scope::variables_read_at_declaration`]).
    variable_contexts: Vec<(usize, usize, usize)>,
    /// The `variable`s are written into the statement as the binders Lean makes of them
    /// (`metrics::section_variables`): they no longer stand apart from it.
    pub variables_in_statement: bool,
    /// `set_option`s in force that can change what a statement means (`autoImplicit`, …), whitespace
    /// collapsed; options that change no meaning (heartbeats, linters, printing) are left out.
    pub options: Vec<String>,
    /// Declarations the header makes: full name and text, whitespace collapsed.
    pub declarations: Vec<(String, String)>,
    /// Commands elaboration-lite does not model, whitespace collapsed (`local instance …`).
    pub unmodelled: Vec<String>,
    /// For each of `declarations`, the header's commands before it: what its words mean
    /// depends on them (`def f := n - 1` over a closed section's `variable (n : ℕ)`).
    declared_after: Vec<String>,
    /// The full names of `declarations`, and every namespace one of them lies in, for look-ups
    /// in time independent of the header's length.
    declared: HashSet<String>,
    declared_namespaces: HashSet<String>,
}

/// What a written name denotes under a scope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Meaning {
    /// A declaration of Mathlib or Lean core, by its full name.
    Constant(String),
    /// A declaration the header makes, by its full name.
    Header(String),
    /// The table cannot tell (an ambiguous name, a namespace it does not know, a name no opened
    /// namespace is known to hold).
    Unknown,
}

/// Options that change no statement's meaning.
const HARMLESS_OPTIONS: [&str; 9] = [
    "maxHeartbeats",
    "maxRecDepth",
    "synthInstance.maxHeartbeats",
    "synthInstance.maxSize",
    "linter.",
    "pp.",
    "trace.",
    "profiler",
    "warningAsError",
];

/// Commands that change nothing a statement's names or operators mean (`example` declares
/// nothing).
const HARMLESS_COMMANDS: [&str; 8] =
    ["#align_import", "#align", "#check", "#print", "#reduce", "universe", "universes", "example"];

/// Attributes that tag a declaration for a tactic and change no elaboration (`instance`,
/// `reducible`, `coe` and every other attribute are not here).
const HARMLESS_ATTRIBUTES: [&str; 12] = [
    "simp",
    "-simp",
    "norm_cast",
    "push_cast",
    "ext",
    "aesop",
    "grind",
    "fun_prop",
    "continuity",
    "measurability",
    "gcongr",
    "positivity",
];

/// `attribute [a, b] names` whose attributes are all [`HARMLESS_ATTRIBUTES`].
fn harmless_attributes(command: &str) -> bool {
    let Some(inside) = command
        .split_once('[')
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(inside, _)| inside)
    else {
        return false;
    };
    inside.split(',').all(|a| {
        let a = a.trim();
        HARMLESS_ATTRIBUTES.contains(&a)
            || a.strip_prefix("local ").is_some_and(|l| HARMLESS_ATTRIBUTES.contains(&l))
    })
}

/// Words before a declaration keyword.
const MODIFIERS: [&str; 8] =
    ["noncomputable", "private", "protected", "partial", "unsafe", "nonrec", "local", "scoped"];

/// Keywords that declare a name (an instance is left to `unmodelled`: it changes instances).
const DECLARING: [&str; 10] = [
    "def",
    "abbrev",
    "theorem",
    "lemma",
    "structure",
    "inductive",
    "class",
    "axiom",
    "opaque",
    "irreducible_def",
];

/// A scope command's frame: what to restore at its `end`.
#[derive(Clone, Debug)]
struct Frame {
    /// `Some(components)` for `namespace`, `None` for a section (named or not).
    namespace: Option<Vec<String>>,
    /// The section's name, for `end Name` (a namespace's is its components joined).
    name: String,
    opens: usize,
    scoped: usize,
    variables: usize,
    options: usize,
}

impl Scope {
    /// Read `header` (the text before a declaration) command by command.
    pub fn read(header: &str) -> Scope {
        let mut scope = Scope::default();
        let mut frames: Vec<Frame> = Vec::new();
        let commands = commands(header);
        // `open … in` scopes the next command only: the declaration, when nothing follows.
        let mut pending_in: Option<(usize, usize)> = None;
        // A meaning-changing `set_option … in` scopes the next command too: the declaration's
        // elaboration when nothing follows it in the header.
        let mut pending_option: Option<String> = None;
        for (index, command) in commands.iter().enumerate() {
            let restore = pending_in.take();
            let option_in = pending_option.take();
            let words: Vec<&str> = command.split_whitespace().collect();
            let first = words.first().copied().unwrap_or("");
            match first {
                "import" => scope.imports.extend(words[1..].iter().map(|w| w.to_string())),
                "open" => {
                    let scoped_in = words.last() == Some(&"in");
                    // Only an `open … in` is undone later: only it needs what came before.
                    let before = scoped_in.then_some((scope.opens.len(), scope.scoped.len()));
                    let body = if scoped_in { &words[1..words.len() - 1] } else { &words[1..] };
                    // Inside `namespace N`, `open X` opens `N.X` where that namespace exists
                    // (lean4 `src/Lean/ResolveName.lean`, `resolveNamespaceUsingScope?`), which
                    // the table cannot tell.
                    if !scope.open(body) || !scope.namespace.is_empty() {
                        scope.unmodelled.push(command.clone());
                    }
                    if let Some(before) = before {
                        // `open A in open B in cmd`: both end with `cmd`.
                        pending_in = Some(restore.unwrap_or(before));
                        pending_option = option_in;
                        continue;
                    }
                }
                "namespace" => {
                    let parts: Vec<String> = words
                        .get(1)
                        .map(|n| n.split('.').map(str::to_string).collect())
                        .unwrap_or_default();
                    frames.push(scope.frame(Some(parts.clone()), words.get(1).copied()));
                    scope.namespace.extend(parts);
                }
                "section" => frames.push(scope.frame(None, words.get(1).copied())),
                "noncomputable" if words.get(1) == Some(&"section") => {
                    frames.push(scope.frame(None, words.get(2).copied()))
                }
                "end" => {
                    let name = words.get(1).copied().unwrap_or("");
                    match frames.pop() {
                        // `elabEnd`: the name must be the innermost scope's.
                        Some(frame) if frame.name == name => scope.close(frame),
                        _ => scope.unmodelled.push(command.clone()),
                    }
                }
                "variable" | "variables" => {
                    scope.variables.push(command.clone());
                    let context = (scope.opens.len(), scope.scoped.len(), scope.namespace.len());
                    scope.variable_contexts.push(context);
                }
                "set_option" => {
                    let name = words.get(1).copied().unwrap_or("");
                    let harmless = HARMLESS_OPTIONS
                        .iter()
                        .any(|o| name == *o || (o.ends_with('.') && name.starts_with(o)));
                    let scoped_in = words.last() == Some(&"in");
                    if !harmless && !scoped_in {
                        scope.options.push(command.clone());
                    } else if scoped_in {
                        pending_option = if harmless { option_in } else { Some(command.clone()) };
                        if let Some(before) = restore {
                            pending_in = Some(before);
                        }
                        continue;
                    }
                }
                "attribute" if harmless_attributes(command) => {}
                w if HARMLESS_COMMANDS.contains(&w) => {}
                // `@[instance] def i : Add ℕ := …` declares an instance as `instance` does.
                // (Anywhere in the command: an attribute's list may hold a string with `]`.)
                _ if words.first().is_some_and(|w| w.starts_with("@["))
                    && command.contains("instance") =>
                {
                    scope.unmodelled.push(command.clone())
                }
                _ => match declared_name(&words) {
                    Some(name) => {
                        let full = match name.strip_prefix("_root_.") {
                            Some(root) => root.to_string(),
                            None if scope.namespace.is_empty() => name.to_string(),
                            None => format!("{}.{name}", scope.namespace.join(".")),
                        };
                        // What a declaration's words mean depends on every command before it
                        // (`open`s, a closed section's `variable`s).
                        scope.declared_after.push(commands[..index].join("\n"));
                        scope.declarations.push((full, command.clone()));
                    }
                    None => scope.unmodelled.push(command.clone()),
                },
            }
            // An `open … in` before this command ends with it.
            if let Some((opens, scoped)) = restore {
                scope.opens.truncate(opens);
                scope.scoped.truncate(scoped);
            }
        }
        if let Some(command) = pending_option {
            scope.unmodelled.push(command);
        }
        for (full, _) in &scope.declarations {
            scope.declared.insert(full.clone());
            let mut prefix = full.as_str();
            while let Some((namespace, _)) = prefix.rsplit_once('.') {
                scope.declared_namespaces.insert(namespace.to_string());
                prefix = namespace;
            }
        }
        scope
    }

    /// The scope inside the declaration `source` (`theorem Real.t …`): Lean elaborates a
    /// declaration with a dotted name inside that name's namespace (`expandDeclNamespace?`,
    /// lean4 `src/Lean/Elab/Declaration.lean`: `theorem A.B.t` is `namespace A.B theorem t end
    /// A.B`), so its namespace comes before every `open`. A name written with `«»` is not read.
    pub fn enter_declaration(&mut self, source: &str) {
        let mut words = source.split_whitespace();
        let keyword = words.find(|w| DECLARING.contains(w));
        let Some(name) = keyword.and_then(|_| words.next()) else {
            return;
        };
        let name = name.split(['(', '{', '[', ':', '⦃']).next().unwrap_or("");
        if name.contains(['«', '»']) {
            self.unmodelled.push(format!("declaration name `{name}`"));
            return;
        }
        if name.starts_with("_root_.") {
            return;
        }
        if let Some((namespace, _)) = name.rsplit_once('.') {
            let parts: Vec<String> = namespace.split('.').map(str::to_string).collect();
            self.declared_namespaces.insert(namespace.to_string());
            self.namespace.extend(parts);
        }
    }

    fn frame(&self, namespace: Option<Vec<String>>, name: Option<&str>) -> Frame {
        Frame {
            namespace,
            name: name.unwrap_or("").to_string(),
            opens: self.opens.len(),
            scoped: self.scoped.len(),
            variables: self.variables.len(),
            options: self.options.len(),
        }
    }

    fn close(&mut self, frame: Frame) {
        if let Some(parts) = frame.namespace {
            let keep = self.namespace.len().saturating_sub(parts.len());
            self.namespace.truncate(keep);
        }
        self.opens.truncate(frame.opens);
        self.scoped.truncate(frame.scoped);
        self.variables.truncate(frame.variables);
        self.variable_contexts.truncate(frame.variables);
        self.options.truncate(frame.options);
    }

    /// Apply one `open` body (the words after `open`, without a trailing `in`); `false` for a
    /// form it does not read.
    fn open(&mut self, body: &[&str]) -> bool {
        match body {
            [] => false,
            ["scoped", namespaces @ ..] if !namespaces.is_empty() => {
                self.scoped.extend(namespaces.iter().map(|n| n.to_string()));
                true
            }
            [namespace, "hiding", hidden @ ..] if !hidden.is_empty() => {
                self.scoped.push(namespace.to_string());
                self.opens.push(OpenDecl::Simple {
                    namespace: namespace.to_string(),
                    hiding: hidden.iter().map(|h| h.to_string()).collect(),
                });
                true
            }
            [namespace, "renaming", rest @ ..] => {
                // `a → b, c → d` (also `->`).
                let text = rest.join(" ").replace("->", "→");
                for pair in text.split(',') {
                    let Some((from, to)) = pair.split_once('→') else {
                        return false;
                    };
                    self.opens.push(OpenDecl::Explicit {
                        alias: to.trim().to_string(),
                        target: format!("{namespace}.{}", from.trim()),
                    });
                }
                true
            }
            [namespace, rest @ ..] if rest.first().is_some_and(|w| w.starts_with('(')) => {
                // `open X (a b)`: aliases only, no scoped notation.
                let names = rest.join(" ");
                let names = names.trim_start_matches('(').trim_end_matches(')');
                for name in names.split_whitespace() {
                    self.opens.push(OpenDecl::Explicit {
                        alias: name.to_string(),
                        target: format!("{namespace}.{name}"),
                    });
                }
                true
            }
            namespaces => {
                if namespaces.iter().any(|n| !is_name(n)) {
                    return false;
                }
                for n in namespaces {
                    self.scoped.push(n.to_string());
                    self.opens
                        .push(OpenDecl::Simple { namespace: n.to_string(), hiding: Vec::new() });
                }
                true
            }
        }
    }

    /// The part of the scope that decides what a statement's text means, normalised: two
    /// scopes with equal keys read every statement alike.
    pub fn meaning_key(&self) -> impl Eq + '_ {
        // In order: `open List Nat` also opens `List.Nat` where `open Nat List` does not
        // (`resolveNamespace` tries the namespaces opened before).
        let mut opens: Vec<&OpenDecl> = self.opens.iter().collect();
        opens.dedup();
        let mut declarations: Vec<(&(String, String), &String)> =
            self.declarations.iter().zip(&self.declared_after).collect();
        declarations.sort();
        (
            &self.imports,
            &self.namespace,
            opens,
            self.scoped.iter().collect::<BTreeSet<_>>(),
            self.variables_apart(),
            &self.options,
            declarations,
            &self.unmodelled,
        )
    }

    /// The `variable` commands that stand apart from the statement: all of them, unless they
    /// were written into it ([`Scope::variables_in_statement`]).
    pub fn variables_apart(&self) -> &[String] {
        if self.variables_in_statement {
            &[]
        } else {
            &self.variables
        }
    }

    /// Was every `variable` in force read under the `open`s and namespace the declaration is
    /// read under (no `open`, `open … in` or `namespace` between them)?
    pub fn variables_read_at_declaration(&self) -> bool {
        let now = (self.opens.len(), self.scoped.len(), self.namespace.len());
        self.variable_contexts.iter().all(|c| *c == now)
    }

    /// Do the two scopes read every statement alike?
    pub fn same_as(&self, other: &Scope) -> bool {
        self.meaning_key() == other.meaning_key()
    }

    /// Whether the header holds constructs elaboration-lite does not model.
    pub fn is_modelled(&self) -> bool {
        self.unmodelled.is_empty()
    }

    /// The declaration `id` (a name the statement does not bind) denotes here, as Lean's
    /// `resolveGlobalName` finds it: the current namespace and its parents first (if any holds
    /// `id`, nothing else is consulted), then an exact dotted name, then the root and every
    /// `open`; several candidates are overloads only elaboration can choose from (unknown).
    pub fn resolve(&self, id: &str) -> Meaning {
        if let Some(root) = id.strip_prefix("_root_.") {
            return self.meaning_of(root);
        }
        let atomic = !id.contains('.');
        // `resolveUsingNamespace`: `A.B.id`, then `A.id`.
        for depth in (1..=self.namespace.len()).rev() {
            let full = format!("{}.{id}", self.namespace[..depth].join("."));
            match self.exists(&full, atomic) {
                Known::Yes => return self.meaning_of(&full),
                Known::Unknown if atomic => return Meaning::Unknown,
                _ => {}
            }
        }
        if !atomic {
            // `resolveExact`: a dotted name names itself (the rules only read dotted names the
            // table or the header declares; an opened `X.A.b` is not a reading they rely on).
            return self.meaning_of(id);
        }
        let mut candidates: Vec<String> = Vec::new();
        let root = self.exists(id, true);
        if root == Known::Yes {
            candidates.push(id.to_string());
        }
        for open in &self.opens {
            match open {
                OpenDecl::Simple { namespace, hiding } => {
                    if hiding.iter().any(|h| h == id) {
                        continue;
                    }
                    let full = format!("{namespace}.{id}");
                    match self.exists(&full, true) {
                        Known::Yes => candidates.push(full),
                        Known::No => {}
                        Known::Unknown => return Meaning::Unknown,
                    }
                }
                OpenDecl::Explicit { alias, target } if alias == id => {
                    candidates.push(target.clone())
                }
                OpenDecl::Explicit { .. } => {}
            }
        }
        candidates.sort();
        candidates.dedup();
        match candidates.as_slice() {
            // No opened namespace holds it: the root declaration, or a variable Lean auto-binds;
            // the same text reads the same under every scope that gets here.
            [] => self.meaning_of(id),
            [one] if root == Known::Unknown && one != id => Meaning::Unknown,
            [one] => self.meaning_of(one),
            _ => Meaning::Unknown,
        }
    }

    /// May `id` be a declaration of a namespace in scope whose table does not list every name
    /// it has, so that the tables' reading of it may be wrong: an opened namespace for a name
    /// no table lists (`cofinite` under `open Filter`), the current namespace for any short name,
    /// and either for a dotted name the root is not known to hold? Under the same header it reads
    /// the same on both sides; across headers that differ it may not
    /// ([`crate::elab::resolve::same_meaning`]). Of the names shaped like variables only ASCII
    /// ones are left out, outside a namespace (`ZMod.χ₈` counts).
    pub fn may_be_unlisted(&self, id: &str) -> bool {
        if id.contains('.') {
            // A dotted `A.b` no table lists (nor names as a namespace of its own, `Module.End`)
            // may be `X.A.b` for an opened or the current namespace `X` (`Nat.antidiagonal`
            // under `open List`).
            let listed = self.exists(id, false) == Known::Yes || table(id).is_some();
            return !listed && (self.opens_unlisted(id) || self.namespace_unlisted());
        }
        // An ASCII letter, maybe with digits, primes or subscripts (`n`, `x₁`, `h'`), is what
        // Lean auto-binds; the namespaces statements open declare none the tables miss
        // (`Matrix.J`, `Polynomial.X`, `Complex.I` are listed). Other one-letter names are
        // declared unlisted (`ZMod.χ₈`, the scoped `μ`, `Λ`), so they count.
        if variable_shaped(id, Letters::Ascii) && self.namespace.is_empty() {
            return false;
        }
        // The current namespace comes before the root and every `open`, so one whose table is
        // not complete may hold any short name (`Submonoid.closure` before the root's
        // `closure`); an opened one may hold a name no table lists (`cofinite` under `open
        // Filter`), while one the root is known to have would make it ambiguous there.
        let read_as_written = self.resolve(id) == self.meaning_of(id);
        self.namespace_unlisted()
            || (read_as_written && self.exists(id, true) != Known::Yes && self.opens_unlisted(id))
    }

    /// Does the current namespace, or one of its prefixes, have no table or an incomplete one?
    /// It may then hold names no table lists (`namespace Submonoid`, `theorem Nat.t`).
    pub fn namespace_unlisted(&self) -> bool {
        (1..=self.namespace.len()).any(|depth| {
            let namespace = self.namespace[..depth].join(".");
            table(&namespace).is_none_or(|entry| !entry.complete)
        })
    }

    /// May an `open` in force bring `id` from a namespace whose table does not list every name
    /// it has (an incomplete table, or `Topology`/`Classical`, which hold declarations besides
    /// their notations)? Not one that hides `id` or lists it as protected.
    fn opens_unlisted(&self, id: &str) -> bool {
        // `open scoped X` activates `X`'s scoped notations, which its table may not list all of
        // (`μ` under `open scoped ArithmeticFunction`). `BigOperators` declares only `∑` and `∏`
        // (Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean), which the parser reads itself.
        let scoped = self.scoped.iter().any(|namespace| {
            let opened = self
                .opens
                .iter()
                .any(|o| matches!(o, OpenDecl::Simple { namespace: n, .. } if n == namespace));
            table(namespace).is_none_or(|entry| !entry.complete)
                && !opened
                && namespace != "BigOperators"
        });
        scoped
            || self.opens.iter().any(|open| match open {
                OpenDecl::Simple { namespace, hiding } if !hiding.iter().any(|h| h == id) => {
                    match table(namespace) {
                        Some(entry) if entry.protected.contains(&id) => false,
                        Some(entry) => {
                            !entry.complete && !NOTATION_ONLY.contains(&namespace.as_str())
                                || HOLD_DECLARATIONS.contains(&namespace.as_str())
                        }
                        None => HOLD_DECLARATIONS.contains(&namespace.as_str()),
                    }
                }
                _ => false,
            })
    }

    /// The declarations an atomic `id` could be here when [`Scope::resolve`] finds several
    /// (overloads that elaboration chooses between by type); `None` when the table cannot list
    /// them all (a namespace it does not know, a name only possibly held).
    pub fn overloads(&self, id: &str) -> Option<Vec<String>> {
        if id.contains('.') || self.resolve(id) != Meaning::Unknown {
            return None;
        }
        for depth in (1..=self.namespace.len()).rev() {
            let full = format!("{}.{id}", self.namespace[..depth].join("."));
            if self.exists(&full, true) != Known::No {
                return None;
            }
        }
        let mut candidates = Vec::new();
        match self.exists(id, true) {
            Known::Yes => candidates.push(id.to_string()),
            Known::Unknown => return None,
            Known::No => {}
        }
        for open in &self.opens {
            match open {
                OpenDecl::Simple { namespace, hiding } if !hiding.iter().any(|h| h == id) => {
                    let full = format!("{namespace}.{id}");
                    match self.exists(&full, true) {
                        Known::Yes => candidates.push(full),
                        Known::No => {}
                        Known::Unknown => return None,
                    }
                }
                OpenDecl::Explicit { alias, target } if alias == id => {
                    candidates.push(target.clone())
                }
                _ => {}
            }
        }
        candidates.sort();
        candidates.dedup();
        (candidates.len() > 1).then_some(candidates)
    }

    /// The scoped notation `token` stands for here (`π` → `Real.pi` under `open Real`), when
    /// exactly one active namespace declares it.
    pub fn notation(&self, token: &str) -> Option<&'static str> {
        let mut found = NAMESPACES
            .iter()
            .filter(|n| self.scoped.iter().any(|s| s == n.namespace))
            .flat_map(|n| n.scoped_notations.iter())
            .filter(|(t, _)| *t == token)
            .map(|(_, target)| *target);
        let first = found.next()?;
        found.all(|t| t == first).then_some(first)
    }

    /// The names the header's `variable`s bind (`variable (x y : ℝ) [Fact p.Prime]` binds `x`, `y`).
    pub fn variable_names(&self) -> BTreeSet<String> {
        self.variables.iter().flat_map(|v| binder_names(v)).collect()
    }

    fn meaning_of(&self, full: &str) -> Meaning {
        if self.declared.contains(full) {
            Meaning::Header(full.to_string())
        } else {
            Meaning::Constant(full.to_string())
        }
    }

    /// Is `full` a declaration here (reachable by its short name when `by_short_name`)?
    fn exists(&self, full: &str, by_short_name: bool) -> Known {
        if self.declared.contains(full) {
            return Known::Yes;
        }
        let (namespace, short) = full.rsplit_once('.').unwrap_or(("", full));
        // A namespace the header itself opened with `namespace` and Mathlib does not have holds
        // only what the header declares.
        let header_only =
            self.declared_namespaces.contains(namespace) || self.namespace.join(".") == namespace;
        match table(namespace) {
            Some(entry) => {
                if entry.names.binary_search(&short).is_ok() {
                    Known::Yes
                } else if entry.protected.contains(&short) {
                    if by_short_name {
                        Known::No
                    } else {
                        Known::Yes
                    }
                } else if possibly_held(namespace, short) {
                    Known::Unknown
                } else {
                    // The table's lists of a namespace are taken as what it holds of the names
                    // statements write (see `mathlib_names`).
                    Known::No
                }
            }
            None if possibly_held(namespace, short) => Known::Unknown,
            None if namespace.is_empty() => Known::No,
            None if header_only && !MATHLIB_NAMESPACES.contains(&namespace) => Known::No,
            None if NOTATION_ONLY.contains(&namespace) => Known::No,
            None => Known::Unknown,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known {
    Yes,
    No,
    Unknown,
}

/// Namespaces that add no reading of a name a statement about mathematics writes: those that
/// hold (in practice) only notation, and Lean's metaprogramming API (`open Lean Meta Qq` brings
/// `Expr`, `Name`, `MetaM`, … into scope, headers copied from tactic files carry it).
const NOTATION_ONLY: [&str; 14] = [
    "BigOperators",
    "Topology",
    "Classical",
    "Pointwise",
    "ComplexConjugate",
    "Uniformity",
    "Interval",
    "scoped",
    "Lean",
    "Meta",
    "Lean.Meta",
    "Lean.Elab",
    "Elab",
    "Qq",
];

/// Which first letters [`variable_shaped`] accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Letters {
    /// An ASCII letter: what Lean auto-binds (lean4 `src/Lean/Elab/AutoBound.lean`,
    /// `isValidAutoBoundImplicitName` without `relaxedAutoImplicit`).
    Ascii,
    /// An ASCII or Greek letter: the names statements give their variables (`x`, `α`, `K₁`).
    AsciiOrGreek,
}

/// One letter, then only digits, subscript digits, primes or `_` (`n`, `x₁`, `h'`, `K_1`): a
/// variable's name, no Mathlib declaration's or type's (`ℝ`, `NNReal`, `Nat.card`).
pub fn variable_shaped(id: &str, letters: Letters) -> bool {
    let mut chars = id.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let greek = ('α'..='ω').contains(&first) || ('Α'..='Ω').contains(&first);
    (first.is_ascii_alphabetic() || (letters == Letters::AsciiOrGreek && greek))
        && chars.all(|c| c.is_ascii_digit() || ('₀'..='₉').contains(&c) || c == '_' || c == '\'')
}

/// [`NOTATION_ONLY`] namespaces that also declare names statements write (`Topology.IsInducing`,
/// `Classical.choose`, lean4 `src/Init/Classical.lean`).
const HOLD_DECLARATIONS: [&str; 2] = ["Topology", "Classical"];

/// Mathlib namespaces the table does not list: a header's own `namespace Matrix` does not make
/// them hold only what the header declares.
const MATHLIB_NAMESPACES: [&str; 16] = [
    "Subgroup",
    "Ideal",
    "Submodule",
    "Module",
    "LinearMap",
    "Matrix",
    "MeasureTheory",
    "Zsqrtd",
    "EuclideanGeometry",
    "ENNReal",
    "Multiset",
    "List",
    "Equiv",
    "MonoidHom",
    "RingHom",
    "Finsupp",
];

fn possibly_held(namespace: &str, short: &str) -> bool {
    POSSIBLY_HELD.iter().any(|(n, names)| *n == namespace && names.contains(&short))
}

fn table(namespace: &str) -> Option<&'static NamespaceNames> {
    NAMESPACES.iter().find(|n| n.namespace == namespace)
}

/// A Lean name as `open` takes it.
fn is_name(w: &str) -> bool {
    !w.is_empty()
        && w.split('.').all(|part| {
            part.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '«')
        })
}

/// The names bound by the binder groups of a `variable` command: in each `( … )`, `{ … }`,
/// `⦃ … ⦄` or `[ … ]` group at depth one, the words before its first `:`.
fn binder_names(command: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut group = String::new();
    for c in command.chars() {
        match c {
            '(' | '{' | '[' | '⦃' => {
                depth += 1;
                if depth == 1 {
                    group.clear();
                    continue;
                }
            }
            ')' | '}' | ']' | '⦄' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    if let Some((left, _)) = group.split_once(':') {
                        names.extend(left.split_whitespace().map(str::to_string));
                    }
                    continue;
                }
            }
            _ => {}
        }
        if depth >= 1 {
            group.push(c);
        }
    }
    names
}

/// The name a declaring command declares (after attributes and modifiers); `None` for any other
/// command.
fn declared_name<'a>(words: &[&'a str]) -> Option<&'a str> {
    let mut i = 0;
    // `@[simp] def …`, `@[simp, norm_cast]` split over words.
    if words.first().is_some_and(|w| w.starts_with("@[")) {
        while i < words.len() && !words[i].ends_with(']') {
            i += 1;
        }
        i += 1;
    }
    while words.get(i).is_some_and(|w| MODIFIERS.contains(w)) {
        i += 1;
    }
    let keyword = words.get(i)?;
    if !DECLARING.contains(keyword) {
        return None;
    }
    let name = words.get(i + 1)?;
    let name = name.split(['(', '{', '[', ':']).next().unwrap_or("");
    is_name(name).then_some(name)
}

/// The header's commands, comments removed and whitespace collapsed: a command starts at a line
/// whose first character is not whitespace; indented lines continue it.
fn commands(header: &str) -> Vec<String> {
    let text = strip_comments(header);
    if let Some(why) = lexically_unread(&text) {
        // Where the words themselves may not be Lean's tokens, no command is read: the header
        // stays as one construct nothing models.
        return vec![format!("(header not read: {why})")];
    }
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let collapsed = line.split_whitespace().collect::<Vec<_>>().join(" ");
        match out.last_mut() {
            Some(last) if line.starts_with(char::is_whitespace) => {
                last.push(' ');
                last.push_str(&collapsed);
            }
            _ => out.push(collapsed),
        }
    }
    out.iter().flat_map(|c| split_commands(c)).collect()
}

/// Why the header's text may not split into words as Lean's tokens do: a character literal
/// (`'('` opens no bracket; a `'` that does not end a name), an escape or a line break inside a
/// string literal, a name in `«»`, or a command glued to the token before it (`(2)namespace`,
/// `"a"namespace`, `Real#check`). `None` when none occurs.
fn lexically_unread(text: &str) -> Option<&'static str> {
    if text.contains(['«', '»']) {
        return Some("a name in «»");
    }
    for line in text.lines() {
        let chars: Vec<char> = line.chars().collect();
        let mut in_string = false;
        let mut depth = 0i64;
        let mut i = 0;
        while i < chars.len() {
            let ch = chars[i];
            let before = i.checked_sub(1).map(|j| chars[j]);
            if in_string {
                match ch {
                    '"' => in_string = false,
                    '\\' => return Some("an escape in a string literal"),
                    _ => {}
                }
                i += 1;
                continue;
            }
            match ch {
                '"' => in_string = true,
                '(' | '[' | '{' | '⦃' | '⟨' => depth += 1,
                ')' | ']' | '}' | '⦄' | '⟩' => depth -= 1,
                // A prime ends a name (`f'`, `h₁'`); any other `'` may open a character
                // literal (`'('`, `'\n'`), or be `''` (`Set.image`): not read either way.
                '\'' if !before.is_some_and(lean_identifier_rest) => {
                    return Some("a character literal")
                }
                // `#check` after anything but a space or the line's start.
                '#' if before.is_some_and(|b| !b.is_whitespace()) => {
                    return Some("a command glued to the token before it")
                }
                _ if lean_identifier_first(ch) => {
                    // One identifier, as Lean's tokenizer reads it (`Set.univ` included).
                    let start = i;
                    while i + 1 < chars.len()
                        && (lean_identifier_rest(chars[i + 1])
                            || (chars[i + 1] == '.'
                                && chars.get(i + 2).is_some_and(|c| lean_identifier_first(*c))))
                    {
                        i += 1;
                    }
                    let word: String = chars[start..=i].iter().collect();
                    let glued = start > 0 && !chars[start - 1].is_whitespace();
                    if glued && depth <= 0 && COMMAND_KEYWORDS.contains(&word.as_str()) {
                        // Lean cuts a token there (`)namespace`, `ᶜnamespace`, `1namespace`);
                        // a reading by words would not.
                        return Some("a command keyword glued to the token before it");
                    }
                }
                _ => {}
            }
            i += 1;
        }
        if in_string {
            return Some("a string literal over several lines");
        }
    }
    None
}

/// Can `c` start an identifier (lean4 `src/Init/Meta/Defs.lean`, `isIdFirst`: an ASCII letter,
/// `_`, or a letter-like symbol)? Newer Lean also counts Latin-1 and Latin Extended-A letters
/// (`é`); they are left out here, so a keyword glued to one leaves the header unread either way.
fn lean_identifier_first(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || letter_like(c)
}

/// Can `c` continue an identifier (`isIdRest`: also digits, `'`, `!`, `?`, subscripts)?
fn lean_identifier_rest(c: char) -> bool {
    lean_identifier_first(c)
        || c.is_ascii_digit()
        || matches!(c, '\'' | '!' | '?')
        || ('₀'..='₉').contains(&c)
        || ('ₐ'..='ₜ').contains(&c)
        || ('ᵢ'..='ᵪ').contains(&c)
        || c == 'ⱼ'
}

/// `isLetterLike` (lean4 `src/Init/Meta/Defs.lean`): Greek (without `λ`, `Π`, `Σ`), Coptic, Greek
/// extended, letter-like symbols (`ℕ`, `ℝ`) and mathematical alphanumerics (`𝓝`).
fn letter_like(c: char) -> bool {
    let u = c as u32;
    (0x3b1..=0x3c9).contains(&u) && u != 0x3bb
        || (0x391..=0x3a9).contains(&u) && u != 0x3a0 && u != 0x3a3
        || (0x3ca..=0x3fb).contains(&u)
        || (0x1f00..=0x1ffe).contains(&u)
        || (0x2100..=0x214f).contains(&u)
        || (0x1d49c..=0x1d59f).contains(&u)
}

/// Keywords that start a command (lean4 `src/Lean/Parser/Command.lean`, Mathlib's and
/// Batteries' command syntax): Lean needs no line break between two commands, so `universe u
/// namespace Real` is two commands, and the second changes what names mean.
const COMMAND_KEYWORDS: [&str; 41] = [
    "import",
    "open",
    "namespace",
    "section",
    "end",
    "variable",
    "variables",
    "universe",
    "universes",
    "set_option",
    "noncomputable",
    "def",
    "abbrev",
    "theorem",
    "lemma",
    "instance",
    "structure",
    "class",
    "inductive",
    "axiom",
    "opaque",
    "irreducible_def",
    "example",
    "export",
    "alias",
    "attribute",
    "notation",
    "infix",
    "infixl",
    "infixr",
    "prefix",
    "postfix",
    "macro",
    "macro_rules",
    "syntax",
    "elab",
    "local",
    "scoped",
    "private",
    "protected",
    "mutual",
];

/// One collapsed command line cut where another command starts: at a [`COMMAND_KEYWORDS`] word
/// outside brackets and string literals, unless the word before is one the keyword continues
/// (`open scoped X`, `noncomputable section`, `local notation`, `@[simp] def`), and after the `in`
/// that ends an `open …` or `set_option …` prefix (`open X in` scopes the next command, which
/// [`Scope::read`] reads as the next entry). A cut inside a term (`def f := open X in …`) only
/// makes a command nothing models, which allows no rewrite.
fn split_commands(command: &str) -> Vec<String> {
    let words: Vec<&str> = command.split(' ').collect();
    let mut out: Vec<String> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut depth = 0i64;
    let mut in_string = false;
    // The word that closes the command's leading `@[…]`, and whether it is still open.
    let mut attribute_end: Option<usize> = None;
    let mut attribute_open = false;
    for (i, w) in words.iter().enumerate() {
        let previous = if i == 0 { None } else { Some(words[i - 1]) };
        // `open scoped X`, `noncomputable section`, `local notation`, `@[simp] def` (right
        // after the attribute's own `]`).
        let continues = previous.is_some_and(|p| p == "open" || MODIFIERS.contains(&p))
            || attribute_end == Some(i.wrapping_sub(1));
        let after_in = previous == Some("in")
            && current.first().is_some_and(|f| *f == "open" || *f == "set_option");
        let starts = depth <= 0
            && !in_string
            && !current.is_empty()
            && (after_in || (COMMAND_KEYWORDS.contains(w) && !continues));
        if starts {
            out.push(current.join(" "));
            current.clear();
        }
        if starts || current.is_empty() {
            attribute_end = None;
            attribute_open = false;
        }
        let opens_attribute = current.is_empty() && w.starts_with("@[");
        current.push(w);
        for ch in w.chars() {
            match ch {
                '"' => in_string = !in_string,
                '(' | '[' | '{' | '⦃' | '⟨' if !in_string => depth += 1,
                ')' | ']' | '}' | '⦄' | '⟩' if !in_string => depth -= 1,
                _ => {}
            }
        }
        if (opens_attribute || attribute_open) && depth <= 0 && attribute_end.is_none() {
            attribute_end = Some(i);
        }
        attribute_open = (opens_attribute || attribute_open) && attribute_end.is_none();
    }
    if !current.is_empty() {
        out.push(current.join(" "));
    }
    out
}

/// `text` with `--` line comments and nested `/- … -/` block comments (doc comments too)
/// replaced by spaces, line breaks kept; string literals are skipped over so that `"--"` stays.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut depth = 0usize;
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if depth > 0 {
            match c {
                '/' if chars.peek() == Some(&'-') => {
                    chars.next();
                    depth += 1;
                }
                '-' if chars.peek() == Some(&'/') => {
                    chars.next();
                    depth -= 1;
                }
                '\n' => out.push('\n'),
                _ => {}
            }
            continue;
        }
        if in_string {
            out.push(c);
            match c {
                '\\' => {
                    if let Some(n) = chars.next() {
                        out.push(n);
                    }
                }
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '/' if chars.peek() == Some(&'-') => {
                chars.next();
                depth = 1;
                out.push(' ');
            }
            '-' if chars.peek() == Some(&'-') => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(header: &str, id: &str) -> Meaning {
        Scope::read(header).resolve(id)
    }

    fn constant(name: &str) -> Meaning {
        Meaning::Constant(name.to_string())
    }

    #[test]
    fn opens_resolve_short_names_as_lean_does() {
        assert_eq!(resolve("open Real", "sqrt"), constant("Real.sqrt"));
        assert_eq!(resolve("open Nat", "sqrt"), constant("Nat.sqrt"));
        // Both hold it: overloads only elaboration can choose from.
        assert_eq!(resolve("open Real Nat", "sqrt"), Meaning::Unknown);
        assert_eq!(resolve("open Real\nopen Nat", "sqrt"), Meaning::Unknown);
        // Only `Real` holds `exp`.
        assert_eq!(resolve("open Real Nat", "exp"), constant("Real.exp"));
        // `hiding`, `( … )` and `renaming`.
        // Not held by any opened namespace: the name as written (root, or auto-bound).
        assert_eq!(resolve("open Real hiding exp", "exp"), constant("exp"));
        assert_eq!(resolve("open Real hiding exp", "log"), constant("Real.log"));
        assert_eq!(resolve("open Real (pi)", "sqrt"), constant("sqrt"));
        assert_eq!(resolve("open Real (sqrt)", "sqrt"), constant("Real.sqrt"));
        assert_eq!(resolve("open Real renaming sqrt → rt", "rt"), constant("Real.sqrt"));
        // A protected declaration is not reached by its short name.
        assert_eq!(resolve("open Real", "pi"), constant("pi"));
        // A namespace the table does not know may hold anything.
        assert_eq!(resolve("open Foo", "sqrt"), Meaning::Unknown);
        // Notation-only namespaces add no reading.
        assert_eq!(resolve("open Real Topology", "sqrt"), constant("Real.sqrt"));
        // A dotted name names itself.
        assert_eq!(resolve("open Nat", "Real.sqrt"), constant("Real.sqrt"));
    }

    #[test]
    fn scopes_end_with_their_end_and_open_in_with_its_command() {
        assert_eq!(resolve("section\nopen Real\nend", "sqrt"), constant("sqrt"));
        assert_eq!(resolve("section\nend\nopen Real", "sqrt"), constant("Real.sqrt"));
        assert_eq!(resolve("noncomputable section\nopen Real", "sqrt"), constant("Real.sqrt"));
        // `open … in` before another command scopes that command only.
        assert_eq!(resolve("open Real in\ndef two := 2", "sqrt"), constant("sqrt"));
        // Before the declaration, it scopes the declaration.
        assert_eq!(resolve("open Real in", "sqrt"), constant("Real.sqrt"));
        // A mismatched `end` is not modelled.
        assert!(!Scope::read("section A\nend B").is_modelled());
    }

    #[test]
    fn commands_on_one_line_are_read_one_by_one() {
        // Lean needs no line break between commands.
        assert_eq!(resolve("open Nat\nuniverse u namespace Real", "sqrt"), constant("Real.sqrt"));
        assert_eq!(
            resolve("open Nat\nnamespace Real\nuniverse u end Real", "sqrt"),
            constant("Nat.sqrt")
        );
        assert_eq!(resolve("open Real in open Nat in", "sqrt"), Meaning::Unknown);
        assert_eq!(Scope::read("universe u variable [Add ℕ]").variables, vec!["variable [Add ℕ]"]);
        // Keywords a command continues stay in it.
        assert_eq!(resolve("open scoped Real", "sqrt"), constant("sqrt"));
        assert!(Scope::read("noncomputable section\nopen scoped BigOperators").is_modelled());
        assert!(!Scope::read("universe u local notation \"sqrt\" => Real.sqrt").is_modelled());
        assert!(Scope::read("@[simp] def two : ℕ := 2").is_modelled());
        // An attribute's `]` is its own, not a list's.
        assert_eq!(
            resolve("open Nat\n@[reducible] def a : List ℕ := [1] namespace Real", "sqrt"),
            constant("Real.sqrt")
        );
    }

    #[test]
    fn text_whose_words_may_not_be_lean_tokens_is_not_read() {
        for header in [
            "#check '(' namespace Real",
            "def s := \"a\\\"b\" namespace Real",
            "def s := \"abc\nnamespace Real\n\"",
            "variable (y : ℕ)namespace Real",
            "namespace «Real»",
        ] {
            assert!(!Scope::read(header).is_modelled(), "{header}");
        }
        // A prime ends a name.
        assert!(Scope::read("variable (f' : ℕ → ℕ)").is_modelled());
        for header in [
            "#check \"a\"namespace Real",
            "namespace Real#check 1",
            "def q : Set ℕ := ∅namespace Real",
            "#check Set.univᶜnamespace Real",
            "#check (2:ℝ)⁻¹namespace Real",
            "#check 1namespace Real",
        ] {
            assert!(!Scope::read(header).is_modelled(), "{header}");
        }
        // An instance declared by attribute is an instance, a string in the list aside.
        assert!(!Scope::read("@[instance high] def i : Add ℕ := ⟨Nat.mul⟩").is_modelled());
        assert!(
            !Scope::read("@[deprecated \"x]\", instance] def i : Add ℕ := ⟨Nat.mul⟩").is_modelled()
        );
    }

    #[test]
    fn opens_are_read_in_order_and_not_inside_a_namespace() {
        // `open List Nat` also opens `List.Nat`; `open Nat List` does not.
        assert!(!Scope::read("open List Nat").same_as(&Scope::read("open Nat List")));
        // Inside `namespace List`, `open Nat` opens `List.Nat`, which the table cannot tell.
        assert!(!Scope::read("namespace List\nopen Nat").is_modelled());
    }

    #[test]
    fn a_dotted_declaration_name_is_elaborated_in_its_namespace() {
        let mut scope = Scope::read("open Nat");
        scope.enter_declaration("theorem Real.t (x : ℕ) : sqrt x = 2");
        assert_eq!(scope.resolve("sqrt"), constant("Real.sqrt"));
        let mut root = Scope::read("open Nat");
        root.enter_declaration("theorem _root_.t (x : ℕ) : sqrt x = 2");
        assert_eq!(root.resolve("sqrt"), constant("Nat.sqrt"));
    }

    #[test]
    fn a_name_no_table_lists_may_be_an_incomplete_opens() {
        // `Filter`'s list is not every name it has: an unlisted name may be its.
        assert!(Scope::read("open Filter").may_be_unlisted("someUnlistedName"));
        assert!(Scope::read("open Classical").may_be_unlisted("choose"));
        // Non-ASCII variable-shaped names too (`ZMod.χ₈`); ASCII ones, listed names and names
        // under no open are what they read as.
        assert!(Scope::read("open Filter").may_be_unlisted("χ₈"));
        assert!(!Scope::read("open Filter").may_be_unlisted("x₁"));
        assert!(!Scope::read("open Filter").may_be_unlisted("atTop"));
        assert!(!Scope::read("").may_be_unlisted("someUnlistedName"));
    }

    #[test]
    fn the_current_namespace_comes_first() {
        assert_eq!(resolve("namespace Nat", "sqrt"), constant("Nat.sqrt"));
        assert_eq!(resolve("namespace Real", "sqrt"), constant("Real.sqrt"));
        // A header declaration inside a namespace shadows the root name.
        let h = "namespace Foo\ndef Even (n : ℕ) : Prop := n = 0";
        assert_eq!(resolve(h, "Even"), Meaning::Header("Foo.Even".into()));
        let h = "namespace Foo\nabbrev Nat := Int";
        assert_eq!(resolve(h, "Nat"), Meaning::Header("Foo.Nat".into()));
        // Outside it, not.
        let h = "namespace Foo\ndef Even (n : ℕ) : Prop := n = 0\nend Foo";
        assert_eq!(resolve(h, "Even"), constant("Even"));
    }

    #[test]
    fn meaning_keys_ignore_what_changes_no_meaning() {
        let a = Scope::read("import Mathlib\nopen Real\n");
        for same in [
            "import Mathlib\nnoncomputable section\nopen Real\n",
            "-- a comment\nimport Mathlib\nset_option maxHeartbeats 400000\nopen Real\n",
            "import Mathlib\n/- block\n -- nested -/\nopen Real\nopen Real\n",
            "import Mathlib\nsection\nopen Real\n",
        ] {
            assert!(a.same_as(&Scope::read(same)), "{same}");
        }
        for other in [
            "import Mathlib\nopen Nat\n",
            "import Mathlib\nsection\nopen Real\nend\n",
            "import Mathlib\nopen Real\nset_option autoImplicit false\n",
            "import Mathlib\nopen Real\nvariable (x : ℝ)\n",
            "import Mathlib\nopen Real\nlocal instance : Mul ℕ := ⟨(· + ·)⟩\n",
            "import Mathlib\nopen Real\nnamespace Foo\n",
        ] {
            assert!(!a.same_as(&Scope::read(other)), "{other}");
        }
    }

    #[test]
    fn constructs_it_does_not_model_are_kept() {
        for h in [
            "local instance : Mul ℕ := ⟨fun a b => a + b⟩",
            "local notation \"π\" => (3 : ℝ)",
            "macro \"√\" x:term : term => `($x + 1)",
            "attribute [local instance] Classical.propDecidable",
            "instance : Foo := ⟨⟩",
            "set_option autoImplicit false in",
            "export Real (sqrt)",
            "attribute [instance] Classical.propDecidable",
            "set_option autoImplicit false in\nopen Real in",
        ] {
            assert!(!Scope::read(h).is_modelled(), "{h}");
        }
        for h in [
            "import Mathlib\nopen Real Nat\nuniverse u\nset_option maxHeartbeats 0",
            "set_option autoImplicit false in\ntheorem before : 1 = 1 := rfl",
            "example : 1 = 1 := rfl\nattribute [simp] Nat.succ_le",
            "def f (n : ℕ) := n + 1",
            "noncomputable section\nnamespace A\nend A\nend",
        ] {
            assert!(Scope::read(h).is_modelled(), "{h}: {:?}", Scope::read(h));
        }
    }

    #[test]
    fn long_headers_are_read_in_one_pass() {
        // 20,000 sections each opening a namespace, all closed again, then `open Real`: each
        // command costs what it changes (no copy of the scope per command).
        let mut header = String::new();
        for i in 0..20_000 {
            header.push_str(&format!("section S{i}\nopen Foo{i} in\nopen Foo{i}\n"));
        }
        for i in (0..20_000).rev() {
            header.push_str(&format!("end S{i}\n"));
        }
        header.push_str("open Real\n");
        let scope = Scope::read(&header);
        assert!(scope.is_modelled());
        assert_eq!(scope.opens.len(), 1);
        assert_eq!(scope.resolve("sqrt"), constant("Real.sqrt"));
    }

    #[test]
    fn scoped_notations_need_their_namespace() {
        assert_eq!(Scope::read("open Real").notation("π"), Some("Real.pi"));
        assert_eq!(Scope::read("open scoped Real").notation("π"), Some("Real.pi"));
        assert_eq!(Scope::read("open Real (sqrt)").notation("π"), None);
        assert_eq!(Scope::read("open Nat").notation("π"), None);
        assert_eq!(Scope::read("").notation("π"), None);
        assert_eq!(Scope::read("open Nat").notation("!"), Some("Nat.factorial"));
    }
}
