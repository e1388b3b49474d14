//! The Lean stand-in applies ranged (incremental) `didChange` edits as Lean does
//! (lean4 `src/Lean/Server/Utils.lean`, `applyDocumentChange` / `replaceLspRange`; positions in
//! UTF-16 code units, `src/Lean/Data/Lsp/Utf16.lean` `lspPosToUtf8Pos`), so the warnings it
//! publishes for each `sorry` follow the edits that Neovim and VS Code send.

mod common;

use common::*;
use serde_json::{json, Value};

const URI: &str = "file:///w/Edits.lean";

/// The `sorry` warnings of the next publish of `version`: (line, start character) of each.
fn sorry_positions(ed: &mut Editor, version: i64) -> Vec<(u64, u64)> {
    let m = ed.recv_matching(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == URI
            && m["params"]["version"] == version
    });
    m["params"]["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            assert_eq!(d["message"], "declaration uses 'sorry'");
            let s = &d["range"]["start"];
            (s["line"].as_u64().unwrap(), s["character"].as_u64().unwrap())
        })
        .collect()
}

fn change(ed: &mut Editor, version: i64, changes: Value) {
    ed.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": changes}),
    );
}

fn range(l0: u32, c0: u32, l1: u32, c1: u32) -> Value {
    json!({"start": {"line": l0, "character": c0}, "end": {"line": l1, "character": c1}})
}

#[test]
fn ranged_did_change_moves_the_sorry_warnings_with_the_text() {
    let mut ed = Editor::direct(&[]);
    ed.open_document(URI, "theorem a : 1 = 1 := by\n  sorry\n");
    assert_eq!(sorry_positions(&mut ed, 1), [(1, 2)]);

    // Two lines inserted above (as Neovim sends `O` + text): the warning moves down two lines.
    change(&mut ed, 2, json!([{"range": range(0, 0, 0, 0), "text": "-- one\n-- two\n"}]));
    assert_eq!(sorry_positions(&mut ed, 2), [(3, 2)]);

    // Several changes in one notification apply in order, each to the text the last one left:
    // `sorry` replaced by `rfl`, then a new `sorry` typed on the first line.
    change(
        &mut ed,
        3,
        json!([{"range": range(3, 2, 3, 7), "text": "rfl"},
               {"range": range(0, 6, 0, 6), "text": " sorry"}]),
    );
    assert_eq!(sorry_positions(&mut ed, 3), [(0, 7)]);

    // Columns are UTF-16 code units: `𝔽` is two of them (a surrogate pair), `ℝ` one.
    change(&mut ed, 4, json!([{"text": "theorem 𝔽ℝ : True := by\n  trivial\n"}]));
    assert_eq!(sorry_positions(&mut ed, 4), []);
    // Character 11 is just after `𝔽ℝ` (8 + 2 + 1).
    change(&mut ed, 5, json!([{"range": range(0, 11, 0, 11), "text": " sorry"}]));
    assert_eq!(sorry_positions(&mut ed, 5), [(0, 12)]);

    // A deletion across lines joins them: `trivial` moves up after `sorry`, and a `sorry`
    // typed after it lands on line 0.
    change(&mut ed, 6, json!([{"range": range(0, 17, 1, 2), "text": " "}]));
    change(&mut ed, 7, json!([{"range": range(0, 25, 0, 25), "text": " sorry"}]));
    assert_eq!(sorry_positions(&mut ed, 7), [(0, 12)]);
}

#[test]
fn positions_past_a_line_or_the_end_clamp_as_leans_do() {
    let mut ed = Editor::direct(&[]);
    ed.open_document(URI, "ab\ncd\n");
    assert_eq!(sorry_positions(&mut ed, 1), []);
    // A line past the end is the end of the text (`lineStartPos` falls back to the last
    // position, the end of the source).
    change(&mut ed, 2, json!([{"range": range(9, 0, 9, 0), "text": "sorry"}]));
    assert_eq!(sorry_positions(&mut ed, 2), [(2, 0)]);
    // A CRLF in the new text is normalized (`crlfToLf`): still one line break.
    change(&mut ed, 3, json!([{"range": range(0, 0, 0, 0), "text": "x\r\n"}]));
    assert_eq!(sorry_positions(&mut ed, 3), [(3, 0)]);
}
