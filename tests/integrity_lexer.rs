//! The integrity mask against Lean's lexical rules: texts built from Lean's tokens (identifiers
//! with `«…»` parts holding quotes and comment starts, nested comments, strings with escapes,
//! raw strings, char literals, interpolated strings whose braces hold code, literals and
//! further interpolations), with a marker command between them, each part knowing what it is.
//! The mask must keep every marker and every code word of the text where it is, and blank
//! every comment and literal body: no command can hide in a literal the mask misreads.
//!
//! The rules generated here are read from Lean's source (`src/Lean/Parser/Basic.lean`:
//! `whitespace`, `finishCommentBlock`, `strLitFnAux`, `quotedCharCoreFn`, `charLitFnAux`,
//! `rawStrLitFnAux`, `identFnAux`; `src/Lean/Parser/StrInterpolation.lean`: `interpolatedStrFn`).

use lean_assess::integrity::scan::mask;
use proptest::prelude::*;

/// What a byte range of a generated text is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// Code the mask keeps byte for byte (a marker, an identifier's letters, a brace's term).
    Code,
    /// A comment or literal body the mask blanks.
    Hidden,
    /// Delimiters and separators: not checked.
    Other,
}

struct Gen {
    state: u64,
    text: String,
    spans: Vec<(usize, usize, Kind)>,
}

impl Gen {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
    fn push(&mut self, s: &str, kind: Kind) {
        let start = self.text.len();
        self.text.push_str(s);
        self.spans.push((start, self.text.len(), kind));
    }

    /// An identifier: plain parts and `«…»` parts (whose quotes, dashes and slashes become `_`
    /// in the mask; their letters stay).
    fn identifier(&mut self) {
        let parts = 1 + self.next() % 3;
        for k in 0..parts {
            if k > 0 {
                self.push(".", Kind::Other);
            }
            if self.next().is_multiple_of(3) {
                self.push("«", Kind::Other);
                let n = 1 + self.next() % 4;
                for _ in 0..n {
                    let piece = self.pick(&["a", "\"", "--", "/-", "-/", "{", "'", "\\", " ", "}"]);
                    let kind = if piece == "a" { Kind::Code } else { Kind::Other };
                    self.push(piece, kind);
                }
                self.push("»", Kind::Other);
            } else {
                let name = self.pick(&["x", "h₀", "foo'", "Nat", "α", "a_1"]);
                self.push(name, Kind::Code);
            }
        }
    }

    fn block_comment(&mut self, depth: u32) {
        self.push("/-", Kind::Hidden);
        let n = self.next() % 4;
        for _ in 0..n {
            if depth < 3 && self.next().is_multiple_of(4) {
                self.block_comment(depth + 1);
            } else {
                let piece = self.pick(&["a", " ", "\"", "'", "{", "}", "«", "--x", "\n", "axiom"]);
                self.push(piece, Kind::Hidden);
            }
        }
        self.push("-/", Kind::Hidden);
    }

    fn string_body(&mut self) {
        let n = self.next() % 5;
        for _ in 0..n {
            let piece = self.pick(&[
                "a", "\\\"", "\\\\", "\\n", "'", "--", "/-", "axiom", "\\x41", "»", "\\\n  ",
            ]);
            self.push(piece, Kind::Hidden);
        }
    }

    fn char_literal(&mut self) {
        self.push("'", Kind::Other);
        let c = self.pick(&[
            "a", "\"", "-", "/", "{", "}", "«", "\\'", "\\\\", "\\\"", "\\x41", "\\u03B1", "\\n",
        ]);
        self.push(c, Kind::Hidden);
        self.push("'", Kind::Other);
    }

    fn interpolated(&mut self, depth: u32) {
        self.push("s!\"", Kind::Other);
        let n = self.next() % 4;
        for _ in 0..n {
            if self.next().is_multiple_of(2) {
                self.push("{", Kind::Other);
                self.term(depth + 1);
                self.push("}", Kind::Other);
            } else {
                let piece = self.pick(&["a ", "\\{", "--", "/-", "'", "axiom"]);
                self.push(piece, Kind::Hidden);
            }
        }
        self.push("\"", Kind::Other);
    }

    /// Code inside an interpolation's braces: identifiers, literals, nested interpolations,
    /// and braces of the term itself.
    fn term(&mut self, depth: u32) {
        let n = 1 + self.next() % 3;
        for k in 0..n {
            if k > 0 {
                self.push(" ", Kind::Other);
            }
            match self.next() % 6 {
                0 => self.char_literal(),
                1 => {
                    self.push("\"", Kind::Other);
                    self.string_body();
                    self.push("\"", Kind::Other);
                }
                2 if depth < 3 => self.interpolated(depth),
                3 => {
                    self.push("{", Kind::Other);
                    self.identifier();
                    self.push("}", Kind::Other);
                }
                _ => self.identifier(),
            }
        }
    }

    fn item(&mut self) {
        match self.next() % 8 {
            0 => self.identifier(),
            1 => {
                self.push("--", Kind::Hidden);
                let piece = self.pick(&[" axiom", " \"", " /-", " «"]);
                self.push(piece, Kind::Hidden);
                self.push("\n", Kind::Other);
            }
            2 => self.block_comment(0),
            3 => {
                self.push("\"", Kind::Other);
                self.string_body();
                self.push("\"", Kind::Other);
            }
            4 => {
                self.push("r#\"", Kind::Other);
                let piece = self.pick(&["a\"b", "axiom", "\"", "--"]);
                self.push(piece, Kind::Hidden);
                self.push("\"#", Kind::Other);
            }
            5 => self.char_literal(),
            6 => self.interpolated(0),
            _ => {
                let n = self.next() % 1000;
                self.push(&format!("\naxiom marker_{n} : True\n"), Kind::Code);
            }
        }
        let sep = self.pick(&[" ", "\n", " ( ", " ) "]);
        self.push(sep, Kind::Other);
    }
}

fn generate(seed: u64, items: usize) -> Gen {
    let mut g = Gen { state: seed | 1, text: String::new(), spans: Vec::new() };
    for _ in 0..items {
        g.item();
    }
    g.push("\naxiom last_marker : True\n", Kind::Code);
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn the_mask_keeps_every_command_and_hides_only_comments_and_literals(seed in any::<u64>(), items in 1usize..40) {
        let g = generate(seed, items);
        let masked = mask(&g.text);
        prop_assert!(masked.is_ok(), "{:?} refused {:?}", masked, g.text);
        let masked = masked.unwrap();
        prop_assert_eq!(masked.len(), g.text.len());
        for &(start, end, kind) in &g.spans {
            let got = &masked.as_bytes()[start..end];
            let want = &g.text.as_bytes()[start..end];
            match kind {
                Kind::Code => prop_assert!(got == want, "code {:?} at {} changed to {:?} in {:?}", &g.text[start..end], start, String::from_utf8_lossy(got), g.text),
                Kind::Hidden => prop_assert!(got.iter().all(|&b| b == b' ' || b == b'\n'), "{:?} at {} not hidden in {:?}", &g.text[start..end], start, g.text),
                Kind::Other => {}
            }
        }
    }
}

/// The shapes that hid commands from the old mask, each read as Lean reads it.
#[test]
fn escaped_names_and_interpolations_hide_nothing() {
    for (text, visible) in [
        ("def «a\"» := 1\naxiom x : False\ndef «b\"» := 2\n", "axiom x"),
        ("def «a/-» := 1\naxiom x : False\ndef «b-/» := 2\n", "axiom x"),
        ("def «a--» := 1\naxiom x : False\n", "axiom x"),
        ("def m := s!\"{'\"'}\"\naxiom x : False\ndef n := \"x\" -- \"\n", "axiom x"),
        ("def m := s!\"{\"}\"}\"\naxiom x : False\n", "axiom x"),
        ("def m := 2'\"'\naxiom x : False\ndef n := \"\"\n", "axiom x"),
    ] {
        let m = mask(text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert!(m.contains(visible), "{text:?} masked as {m:?}");
    }
}

/// A literal whose reading depends on syntax the check cannot see is refused, not guessed.
#[test]
fn ambiguous_literals_are_refused_with_their_line() {
    for (text, line) in [
        ("theorem t : True := by\n  trivial\n#eval throwErrorAt x \"{'\"'}\" -- \"\n", 3),
        ("def s := ∑'\"' \n", 1),
        ("def «a\nb» := 1\n", 1),
    ] {
        let e = mask(text).expect_err(text);
        assert_eq!(e.line(), line, "{e}");
    }
}
