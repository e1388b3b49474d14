//! `lean-assess tree [--format text|json|dot] FILE.lean[::NAME] | --text "theorem ..."`: print a
//! statement's operator tree. Rendering is `trees::render`'s; this module only picks the input
//! and the format.

use super::statement;
use super::Status;
use crate::trees::render;
use clap::ValueEnum;
use std::io::Write;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The statement's text instead of a file (header lines such as `open Real` may come first).
    #[arg(long, value_name = "STATEMENT", conflicts_with = "input")]
    text: Option<String>,
    /// `FILE.lean` (its one theorem) or `FILE.lean::NAME`.
    #[arg(value_name = "FILE.lean[::NAME]", required_unless_present = "text")]
    input: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Indented text, one node per line.
    Text,
    /// The contract's tree JSON (`{"label", "children", ...}`).
    Json,
    /// Graphviz dot.
    Dot,
}

pub fn run(args: Args, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<Status> {
    let loaded = match (&args.text, &args.input) {
        (Some(text), _) => statement::from_literal("--text", text)?,
        (None, Some(spec)) => statement::from_spec(spec)?,
        (None, None) => anyhow::bail!("give FILE.lean[::NAME] or --text \"theorem ...\""),
    };
    let tree = &loaded.statement.tree;
    let mut rendered = match args.format {
        Format::Text => render::to_text(tree),
        Format::Json => render::to_json(tree),
        Format::Dot => render::to_dot(tree),
    };
    if !rendered.ends_with('\n') {
        rendered.push('\n');
    }
    out.write_all(rendered.as_bytes())?;
    statement::note_unparsed(&loaded, err)?;
    Ok(Status::Success)
}
