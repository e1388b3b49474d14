use lean_assess::trees::parse::{parse_statement, Header};
use lean_assess::trees::render;
use std::io::Write;
fn main() {
    let mut o = std::io::stdout().lock();
    let h = Header::parse("import Mathlib\nopen Real Nat\n");
    for s in std::env::args().skip(1) {
        match parse_statement(&s, &h) {
            Ok(st) => {
                let _ = writeln!(o, "{}", render::to_text(&st.tree));
            }
            Err(e) => {
                let _ = writeln!(o, "ERR {e}");
            }
        }
    }
}
