//! The **forbidden** criterion: `sorry`, `admit`, `axiom`, `unsafe`, `implemented_by`, `extern`,
//! `native_decide` and the options and attributes that bypass the kernel or change elaboration,
//! in code only (comments and strings are masked).
//!
//! Owns the word list and its scan over a solution; it does not look at statements.

use super::parsed::{shown, Parsed};
use super::scan;
use super::{Criterion, Finding, Options};
use std::collections::HashSet;

/// Options that change how a statement elaborates wherever they are set (auto-bound implicit
/// variables turn an unknown name into a new universally quantified one).
pub(super) const ELABORATION_OPTIONS: &[&str] = &["autoImplicit", "relaxedAutoImplicit"];

/// Words that break the criteria wherever they occur in the solution's code, and why.
pub(super) fn forbidden_word(word: &str, allow_native: bool) -> Option<&'static str> {
    let last = word.rsplit('.').next().unwrap_or(word);
    Some(match last {
        "sorry" | "sorryAx" => "`sorry`: an unproved goal",
        "admit" | "admitGoal" => "`admit`: an unproved goal",
        "axiom" => "`axiom`: a new assumption",
        "unsafe" => "`unsafe`: bypasses the kernel's checks",
        "implemented_by" => "`@[implemented_by]`: swaps in code the kernel never checks",
        "extern" => "`@[extern]`: swaps in code the kernel never checks",
        "skipKernelTC" => "`set_option debug.skipKernelTC`: the kernel does not check the proof",
        "byAsSorry" => "`set_option debug.byAsSorry`: every `by` block becomes `sorry`",
        "native_decide" | "ofReduceBool" | "ofReduceNat" if !allow_native => {
            "`native_decide`: trusts the compiler (allow with --allow-native-decide)"
        }
        _ => return None,
    })
}

/// Forbidden constructs anywhere in the solution's code that the task does not have.
pub(super) fn forbidden(task: &Parsed, sol: &Parsed, options: &Options, out: &mut Vec<Finding>) {
    let task_commands: HashSet<&str> = task.commands.iter().map(|c| c.norm.as_str()).collect();
    let from_task = |offset: usize| {
        sol.command_at(offset).is_some_and(|c| task_commands.contains(c.norm.as_str()))
    };
    let bytes = sol.masked.as_bytes();
    for (offset, word) in scan::words(&sol.masked) {
        let mut why = forbidden_word(word, options.allow_native_decide);
        // `decide +native` / `decide (config := { native := true })`.
        if word == "native" && !options.allow_native_decide {
            let before_plus = offset > 0 && bytes[offset - 1] == b'+';
            let after = sol.masked[offset + word.len()..].trim_start();
            if before_plus || after.starts_with(":= true") {
                why = Some(
                    "`decide +native`: trusts the compiler (allow with --allow-native-decide)",
                );
            }
        }
        let after_hash = offset > 0 && bytes[offset - 1] == b'#';
        why = why.or(match word {
            "exit" if after_hash => Some(
                "`#exit`: Lean stops reading the file here, so nothing after it is checked",
            ),
            "eval" if after_hash => {
                Some("`#eval`: runs code that can change the environment the target is checked in")
            }
            "run_cmd" | "run_elab" | "run_meta" => {
                Some("`run_cmd`: runs code that can change the environment the target is checked in")
            }
            "initialize" | "builtin_initialize" => {
                Some("`initialize`: runs code with effects when the file is loaded")
            }
            w if ELABORATION_OPTIONS.contains(&w) => Some(
                "`autoImplicit`: changes how the statement's unknown names elaborate (into new variables)",
            ),
            _ => None,
        });
        let Some(why) = why else { continue };
        let always =
            matches!(word.rsplit('.').next(), Some("sorry" | "admit" | "sorryAx" | "admitGoal"));
        if !always && from_task(offset) {
            continue;
        }
        out.push(Finding {
            file: sol.path.clone(),
            line: Some(sol.line_of(offset)),
            criterion: Criterion::Forbidden,
            message: why.to_string(),
            span: Some((offset, offset + word.len())),
        });
    }
    // Instance tricks: `local instance`, `scoped instance`, `attribute [instance]`,
    // `attribute [local instance]`, `@[instance]` / `@[local instance]` on a definition.
    for c in &sol.commands {
        if task_commands.contains(c.norm.as_str()) {
            continue;
        }
        let local =
            c.keyword == "instance" && c.modifiers.iter().any(|m| m == "local" || m == "scoped");
        let attribute = c.keyword == "attribute"
            && c.norm.split(']').next().is_some_and(|a| a.contains("instance"));
        let tagged = c.modifiers.iter().any(|m| m.starts_with("@[") && m.contains("instance"));
        if local || attribute || tagged {
            out.push(Finding {
                file: sol.path.clone(),
                line: Some(c.line),
                criterion: Criterion::Forbidden,
                message: format!(
                    "`{}`: a local instance trick (changes which instance the statement's notation uses)",
                    shown(sol, c)
                ),
                span: Some(sol.line_span(c)),
            });
        }
    }
    out.sort_by_key(|f| f.line);
}
