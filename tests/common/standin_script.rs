//! Rules for the scripted Lean stand-in (`LEAN_STANDIN_SCRIPT`, one JSON rule a line; the
//! stand-in's module doc says what each key means): goal types as TaggedText, goal answers, and
//! the scripts more than one test runs. It writes rules; what a test expects of them stays in
//! the test.

use serde_json::{json, Value};

/// A `getInteractiveGoals` result with one goal of this type (bracket notation, see [`tagged`];
/// the shape of the recorded examples).
pub fn one_goal(ty: &str) -> Value {
    one_goal_tagged(tagged(ty))
}

/// As [`one_goal`], the type given as TaggedText.
pub fn one_goal_tagged(ty: Value) -> Value {
    json!({"goals": [{"type": ty, "mvarId": "_uniq.1", "hyps": [], "goalPrefix": "⊢ ",
                      "ctx": {"__rpcref": "0"}}]})
}

/// The goal query after `tactics` in a declaration containing `decl` answers one goal of type
/// `ty`.
pub fn goal_after_in(tactics: &[&str], decl: &str, ty: &str) -> Value {
    json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
           "tactics": tactics, "declContains": decl, "result": one_goal(ty)})
}

/// The goal query after `tactics` in a declaration containing `decl` answers no goals.
pub fn closed_after_in(tactics: &[&str], decl: &str) -> Value {
    json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
           "tactics": tactics, "declContains": decl, "result": {"goals": []}})
}

/// `theorem a (n : ℕ) : n + 0 = n` against its renaming `b (m : ℕ)`: transted's goal closes by
/// `rfl` (defeq shares its oracle), its witness uses no `sorry`, and BEq's `exact?` proves both
/// directions (`thm_Q`'s axioms show `thm_P`'s `sorryAx`).
pub fn renamed_pair_proved_rules() -> Vec<Value> {
    vec![
        goal_after_in(
            &["skip"],
            "_tt.S1.",
            "[([∀ ([n] : [ℕ]), [[[n] + [0]] = [n]]]) = ([∀ ([m] : [ℕ]), [[[m] + [0]] = [m]]])]",
        ),
        json!({"method": "$/lean/rpc/call", "rpcMethod": "Lean.Widget.getInteractiveGoals",
               "tactics": ["rfl"], "result": {"goals": []}}),
        json!({"method": "standin/diagnostic", "lineContains": "#print axioms transted_witness",
               "severity": 3, "message": "'transted_witness' depends on axioms: [propext]"}),
        json!({"method": "standin/diagnostic", "lineContains": ".thm_Q", "severity": 3,
               "message": "'q' depends on axioms: [propext, sorryAx]"}),
        json!({"method": "textDocument/codeAction", "tactics": ["exact?"],
               "tryThis": ["exact thm_P"]}),
    ]
}

/// BEq+'s fixed attempts: `exact?` finds nothing (no code actions), `assumption` and `apply
/// thm_P` fail (an error on their line), the closers alone leave the goal unsolved, the `have`
/// attempt closes it and the axioms show `thm_P`'s `sorryAx`.
pub fn beq_plus_rules() -> Vec<Value> {
    vec![
        json!({"method": "textDocument/codeAction", "result": []}),
        json!({"method": "standin/diagnostic", "lineContains": "apply thm_P",
               "messageKind": "exactFailed"}),
        json!({"method": "standin/diagnostic", "lineContains": "assumption",
               "message": "tactic 'assumption' failed"}),
        json!({"method": "standin/diagnostic", "lineContains": "theorem thm_Q",
               "textContains": "symm_saturate\n  all_goals intros", "message": "unsolved goals"}),
        json!({"method": "standin/diagnostic", "lineContains": "#print axioms",
               "messageKind": "axiomsSorry"}),
    ]
}

/// TaggedText from bracket notation: `[` … `]` is one tagged subexpression, other text is text.
/// Used to script goal types for the stand-in (shape of `interactiveGoals-rw-nested.result.json`).
pub fn tagged(s: &str) -> Value {
    fn parse(chars: &[char], i: &mut usize, next_ref: &mut u32) -> Vec<Value> {
        let mut items = Vec::new();
        let mut text = String::new();
        while *i < chars.len() {
            match chars[*i] {
                '[' => {
                    if !text.is_empty() {
                        items.push(json!({"text": std::mem::take(&mut text)}));
                    }
                    *i += 1;
                    let inner = parse(chars, i, next_ref);
                    *next_ref += 1;
                    let body = match inner.as_slice() {
                        [one] => one.clone(),
                        _ => json!({"append": inner}),
                    };
                    items.push(json!({"tag": [
                        {"subexprPos": format!("/{}", next_ref), "info": {"__rpcref": next_ref.to_string()}},
                        body
                    ]}));
                }
                ']' => {
                    *i += 1;
                    break;
                }
                c => {
                    text.push(c);
                    *i += 1;
                }
            }
        }
        if !text.is_empty() {
            items.push(json!({"text": text}));
        }
        items
    }
    let chars: Vec<char> = s.chars().collect();
    let mut items = parse(&chars, &mut 0, &mut 0);
    if items.len() == 1 {
        items.remove(0)
    } else {
        json!({"append": items})
    }
}
