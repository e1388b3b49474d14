//! Facts of Lean 4's concrete syntax that every reader of Lean text without Lean shares: which
//! words are keywords, which start a command, which may stand before one.
//!
//! Owns word lists only: no lexing, no parsing, no judgement of what a command means for a check
//! (those are the readers' own: `trees::parse`, `integrity`, `metrics::beq`). Each reader uses the
//! named subset it needs; the subsets differ on purpose (each one's doc says why), and the test
//! below pins every subset to the words it holds, so a change to one is made here, deliberately.
//!
//! Sources (leanprover/lean4, read through the reference index):
//! - `src/Lean/Parser/Command.lean`: the `declaration` parser (`abbrev def theorem opaque
//!   instance axiom example inductive`, `class inductive`, `structure`/`class`), `declModifiers`
//!   (`private`/`protected`, `noncomputable`, `unsafe`, `partial`/`nonrec`), and the commands
//!   `deriving`, `section`, `namespace`, `end`, `variable`, `universe`, `set_option`,
//!   `attribute`, `export`, `import`, `open`, `mutual`, `initialize`, `add_decl_doc`, `#check`,
//!   `#eval`, `#print` (the `#` commands); `include`/`omit` in later versions of the same file.
//! - `src/Lean/Parser/Syntax.lean`: `notation`, `infix`, `infixl`, `infixr`, `prefix`,
//!   `postfix`, `macro`, `macro_rules`, `syntax`, `elab`, `elab_rules`, `declare_syntax_cat`.
//! - `src/Lean/Parser/Term.lean`: `fun` (also `λ`), `let`, `have`, `show`, `from`, `by`, `if`
//!   `then` `else`, `match` `with`, `Type`, `Sort`, `Prop`, `calc`, `haveI`/`letI`, the attribute
//!   kinds `local`/`scoped` (`Term.attrKind`) and `@[` (`Term.attributes`); `do` and `in` from
//!   `src/Lean/Parser/Do.lean` and `Command.lean` (`open … in`, `set_option … in`); `at` from the
//!   tactic location syntax (`src/Init/Tactics.lean`).
//! - `run_cmd`, `run_elab`, `run_tac`: core's `syntax … : command` declarations (earlier in Std).
//! - Mathlib: `lemma` (`Mathlib/Tactic/Lemma.lean`), `irreducible_def`
//!   (`Mathlib/Tactic/IrreducibleDef.lean`), `alias` (`Batteries/Tactic/Alias.lean`).

/// The declarations whose statement is a proposition the statement parser reads (`lemma` is
/// Mathlib's `theorem`).
pub const STATEMENT_KEYWORDS: &[&str] = &["theorem", "lemma", "example"];

/// Every keyword that declares a name (Lean's `declaration` parser, and `lemma`); `example`
/// declares none but has the same shape, so readers that need a name exclude it themselves.
pub const DECLARATION_KEYWORDS: &[&str] = &[
    "theorem",
    "lemma",
    "def",
    "abbrev",
    "instance",
    "structure",
    "class",
    "inductive",
    "axiom",
    "opaque",
    "example",
];

/// Declarations whose body a statement can see through: [`DECLARATION_KEYWORDS`] without the
/// theorem-like ones (a proof is irrelevant to what a statement means).
pub const DEFINITION_KEYWORDS: &[&str] =
    &["def", "abbrev", "structure", "class", "inductive", "opaque", "axiom", "instance"];

/// `declModifiers` without the doc comment and the attributes (which are not words).
pub const DECLARATION_MODIFIERS: &[&str] =
    &["private", "protected", "nonrec", "noncomputable", "unsafe", "partial"];

/// Words that may stand before a command's keyword: [`DECLARATION_MODIFIERS`] and the attribute
/// kinds `local`/`scoped` (`local notation`, `scoped instance`).
pub const COMMAND_PREFIXES: &[&str] =
    &["private", "protected", "noncomputable", "unsafe", "partial", "nonrec", "local", "scoped"];

/// Commands that declare a notation, as a header lists them (a `notation:50` precedence may
/// follow the word). `macro_rules`, `syntax` and `elab` are left out: they need more than the
/// header reader records.
pub const NOTATION_COMMANDS: &[&str] =
    &["notation", "infix", "infixl", "infixr", "prefix", "postfix", "macro"];

/// The commands beyond [`NOTATION_COMMANDS`] that extend the syntax or its elaboration.
const SYNTAX_EXTENSION_COMMANDS: &[&str] =
    &["macro_rules", "syntax", "elab", "elab_rules", "declare_syntax_cat"];

/// Commands that change how text parses or elaborates: notations, macros, syntax, elaborators,
/// attributes and instances.
pub const MEANING_COMMANDS: &[&str] = &concat::<15>(&[
    NOTATION_COMMANDS,
    SYNTAX_EXTENSION_COMMANDS,
    &["attribute", "instance", "deriving"],
]);

/// Commands whose effect is scoped and that decide what names in a statement mean (`include h`
/// adds the variable `h` as a hypothesis of every theorem after it; `omit` removes one).
pub const SCOPED_CONTEXT_COMMANDS: &[&str] =
    &["open", "variable", "universe", "export", "include", "omit"];

/// Words that start a new command when first on a line at the statement parser's column (they end
/// the declaration before them), with `@[` for an attribute list. A command word missing here
/// (`macro_rules`, `elab`) leaves its text inside the declaration before it, which the parser
/// stops reading at that declaration's `:=` anyway.
pub const DECLARATION_ENDING_COMMANDS: &[&str] = &concat::<36>(&[
    DECLARATION_KEYWORDS,
    NOTATION_COMMANDS,
    &[
        "namespace",
        "section",
        "end",
        "open",
        "variable",
        "universe",
        "set_option",
        "import",
        "noncomputable",
        "private",
        "protected",
        "attribute",
        "syntax",
        "local",
        "scoped",
        "mutual",
        "nonrec",
        "@[",
    ],
]);

/// Command keywords that are never a tactic or a term at the start of a line, so they start a
/// command at any indentation (an indented `def` after a proof still is a new command to Lean).
pub const COMMANDS_AT_ANY_INDENT: &[&str] = &concat::<30>(&[
    DECLARATION_KEYWORDS,
    NOTATION_COMMANDS,
    SYNTAX_EXTENSION_COMMANDS,
    &["namespace", "section", "universe", "variable", "attribute", "mutual", "import"],
]);

/// Command keywords that also occur inside proofs (`open … in`, `set_option … in` as tactics;
/// `end` is not a tactic but is safer at column 0 only), with `@[` and `#` (`#eval`, `#print`):
/// commands only at column 0.
pub const COMMANDS_AT_COLUMN_0: &[&str] = &[
    "open",
    "set_option",
    "end",
    "export",
    "noncomputable",
    "private",
    "protected",
    "nonrec",
    "unsafe",
    "partial",
    "local",
    "scoped",
    "omit",
    "include",
    "initialize",
    "run_cmd",
    "deriving",
    "irreducible_def",
    "alias",
    "add_decl_doc",
    "@[",
    "#",
];

/// Words that start a new command (or change options) rather than continue a tactic proof, in
/// a proof script read token by token. Narrower than [`COMMANDS_AT_ANY_INDENT`]: `open` is left
/// out (`open … in` is a tactic too), and the notation commands are not looked for.
pub const COMMANDS_AFTER_A_PROOF: &[&str] = &concat::<32>(&[
    DECLARATION_KEYWORDS,
    &[
        "namespace",
        "section",
        "end",
        "variable",
        "universe",
        "set_option",
        "macro",
        "macro_rules",
        "syntax",
        "elab",
        "elab_rules",
        "attribute",
        "run_tac",
        "run_cmd",
        "run_elab",
        "import",
        "noncomputable",
        "unsafe",
        "partial",
        "private",
        "protected",
    ],
]);

/// One word list made of `parts`, in order (`N` is their total length): lists that share words
/// name the shared part once.
pub const fn concat<const N: usize>(parts: &[&[&'static str]]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut n = 0;
    let mut p = 0;
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            out[n] = parts[p][i];
            n += 1;
            i += 1;
        }
        p += 1;
    }
    assert!(n == N, "the parts' lengths do not add up to N");
    out
}

/// Keywords a term can hold that the statement parser never reads as a name.
pub const TERM_KEYWORDS: &[&str] = &[
    "fun", "if", "then", "else", "let", "have", "show", "from", "by", "at", "in", "with", "do",
    "where", "match", "Type", "Sort", "Prop", "calc", "haveI", "letI",
];

/// Words of a statement's text that are never a name it uses: the statement keywords and the
/// term keywords a statement's own text commonly holds.
pub const STATEMENT_TEXT_KEYWORDS: &[&str] = &[
    "theorem", "lemma", "fun", "λ", "let", "have", "in", "if", "then", "else", "by", "at", "with",
    "Type", "Sort", "Prop",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(words: &[&str]) -> String {
        let mut v = words.to_vec();
        v.sort_unstable();
        v.join(" ")
    }

    /// Every command subset holds command words only (and `@[`/`#`, which start a command too).
    #[test]
    fn command_subsets_hold_command_words() {
        let commands: Vec<&str> = [
            DECLARATION_KEYWORDS,
            COMMAND_PREFIXES,
            MEANING_COMMANDS,
            SCOPED_CONTEXT_COMMANDS,
            COMMANDS_AT_ANY_INDENT,
            COMMANDS_AT_COLUMN_0,
        ]
        .concat();
        for (name, subset) in [
            ("STATEMENT_KEYWORDS", STATEMENT_KEYWORDS),
            ("DEFINITION_KEYWORDS", DEFINITION_KEYWORDS),
            ("DECLARATION_MODIFIERS", DECLARATION_MODIFIERS),
            ("NOTATION_COMMANDS", NOTATION_COMMANDS),
            ("DECLARATION_ENDING_COMMANDS", DECLARATION_ENDING_COMMANDS),
            ("COMMANDS_AFTER_A_PROOF", COMMANDS_AFTER_A_PROOF),
        ] {
            for w in subset {
                assert!(
                    commands.contains(w) || ["run_tac", "run_elab"].contains(w),
                    "{name}: {w} is no command word"
                );
            }
        }
        for w in STATEMENT_TEXT_KEYWORDS {
            assert!(
                TERM_KEYWORDS.contains(w) || STATEMENT_KEYWORDS.contains(w) || *w == "λ",
                "STATEMENT_TEXT_KEYWORDS: {w}"
            );
        }
    }

    /// The subsets are the words each reader has always used; a change here changes a reader.
    #[test]
    fn subsets_are_pinned() {
        let pinned = [
            (STATEMENT_KEYWORDS, "example lemma theorem"),
            (
                DECLARATION_KEYWORDS,
                "abbrev axiom class def example inductive instance lemma opaque structure theorem",
            ),
            (DEFINITION_KEYWORDS, "abbrev axiom class def inductive instance opaque structure"),
            (DECLARATION_MODIFIERS, "noncomputable nonrec partial private protected unsafe"),
            (
                COMMAND_PREFIXES,
                "local noncomputable nonrec partial private protected scoped unsafe",
            ),
            (NOTATION_COMMANDS, "infix infixl infixr macro notation postfix prefix"),
            (
                MEANING_COMMANDS,
                "attribute declare_syntax_cat deriving elab elab_rules infix infixl infixr \
                 instance macro macro_rules notation postfix prefix syntax",
            ),
            (SCOPED_CONTEXT_COMMANDS, "export include omit open universe variable"),
            (
                DECLARATION_ENDING_COMMANDS,
                "@[ abbrev attribute axiom class def end example import inductive infix infixl \
                 infixr instance lemma local macro mutual namespace noncomputable nonrec \
                 notation opaque open postfix prefix private protected scoped section set_option \
                 structure syntax theorem universe variable",
            ),
            (
                COMMANDS_AT_ANY_INDENT,
                "abbrev attribute axiom class declare_syntax_cat def elab elab_rules example \
                 import inductive infix infixl infixr instance lemma macro macro_rules mutual \
                 namespace notation opaque postfix prefix section structure syntax theorem \
                 universe variable",
            ),
            (
                COMMANDS_AT_COLUMN_0,
                "# @[ add_decl_doc alias deriving end export include initialize irreducible_def \
                 local noncomputable nonrec omit open partial private protected run_cmd scoped \
                 set_option unsafe",
            ),
            (
                COMMANDS_AFTER_A_PROOF,
                "abbrev attribute axiom class def elab elab_rules end example import inductive \
                 instance lemma macro macro_rules namespace noncomputable opaque partial private \
                 protected run_cmd run_elab run_tac section set_option structure syntax theorem \
                 universe unsafe variable",
            ),
            (
                TERM_KEYWORDS,
                "Prop Sort Type at by calc do else from fun have haveI if in let letI match show \
                 then where with",
            ),
            (
                STATEMENT_TEXT_KEYWORDS,
                "Prop Sort Type at by else fun have if in lemma let then theorem with λ",
            ),
        ];
        for (subset, words) in pinned {
            assert_eq!(sorted(subset), words);
        }
    }
}
