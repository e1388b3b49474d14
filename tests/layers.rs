//! The crate's layers hold: no module imports from a layer above its own, and no two files
//! import each other, directly or round a longer circle.
//!
//! Layers, lowest first (docs/architecture.md):
//! - base: the engine (trees, distance, search, elab, offline metrics, differences, evaluation,
//!   dataset, integrity's scanner and judge), LSP framing and request tables (wire, pending), the
//!   layered configuration and file reading (config, files);
//! - lean: talking to a Lean server (lean), the metrics that need one, the integrity check that
//!   runs Lean, the LLM client;
//! - proxy: the editor-facing server (router, documents, references, features);
//! - app: the front ends (cli, report).
//!
//! The test reads `src/` as text: every `use` tree and every inline `crate::…`/`super::…` path
//! outside comments, resolved to the file that declares the module it names. A parent module
//! naming its own children (declaring or re-exporting them, the facade pattern) is not counted as
//! an import for the circle check. A file added under a module the table does not place fails the
//! test, so that each new module's layer is a decision.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Layer {
    Base,
    Lean,
    Proxy,
    App,
}

/// Module path prefixes and their layers; the longest matching prefix decides.
const LAYERS: &[(&str, Layer)] = &[
    ("config", Layer::Base),
    ("dataset", Layer::Base),
    ("differences", Layer::Base),
    ("distance", Layer::Base),
    ("elab", Layer::Base),
    ("evaluation", Layer::Base),
    ("files", Layer::Base),
    ("integrity", Layer::Base),
    ("metrics", Layer::Base),
    ("pending", Layer::Base),
    ("predictions", Layer::Base),
    ("search", Layer::Base),
    ("trees", Layer::Base),
    ("wire", Layer::Base),
    ("integrity::lean", Layer::Lean),
    ("lean", Layer::Lean),
    ("llm", Layer::Lean),
    ("metrics::beq", Layer::Lean),
    ("metrics::beq_plus", Layer::Lean),
    ("metrics::defeq", Layer::Lean),
    ("metrics::lean_backed", Layer::Lean),
    ("metrics::transted", Layer::Lean),
    ("documents", Layer::Proxy),
    ("features", Layer::Proxy),
    ("references", Layer::Proxy),
    ("router", Layer::Proxy),
    ("cli", Layer::App),
    ("report", Layer::App),
];

fn layer_of(module: &[String]) -> Option<Layer> {
    LAYERS
        .iter()
        .filter(|(prefix, _)| {
            let prefix: Vec<&str> = prefix.split("::").collect();
            prefix.len() <= module.len() && prefix.iter().zip(module).all(|(p, m)| p == m)
        })
        .max_by_key(|(prefix, _)| prefix.split("::").count())
        .map(|(_, layer)| *layer)
}

/// A source file: its module path (`["metrics", "beq"]`) and its text.
struct SourceFile {
    path: String,
    module: Vec<String>,
    text: String,
}

/// The module path a file under `src/` declares (`metrics/beq/mod.rs` → `metrics::beq`).
fn module_of(relative: &str) -> Vec<String> {
    let stem = relative.strip_suffix(".rs").unwrap_or(relative);
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The text without `//` comments (line and doc comments) and without string literals, so that
/// a path mentioned in prose or in a message is not read as an import.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => {
                    in_string = false;
                    out.push('"');
                }
                '\n' => out.push('\n'),
                _ => {}
            }
            continue;
        }
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '"' => {
                in_string = true;
                out.push('"');
            }
            // A char literal such as '"' must not open a string.
            '\'' => {
                out.push('\'');
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with("\"'") || rest.starts_with("\\\"") {
                    out.push_str(&rest[..rest.len().min(2)]);
                    chars.next();
                    chars.next();
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// Expand a `use` tree (`crate::a::{b, c::{d, self}}`) into its paths, each as segments.
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    fn split_top(s: &str) -> Vec<&str> {
        let (mut depth, mut start, mut parts) = (0, 0, Vec::new());
        for (i, c) in s.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&s[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&s[start..]);
        parts
    }
    fn go(prefix: &[String], s: &str, out: &mut Vec<Vec<String>>) {
        let s = s.trim();
        if s.is_empty() {
            return;
        }
        if let Some(open) = s.find('{') {
            let head = s[..open].trim().trim_end_matches("::");
            let inner = &s[open + 1..s.rfind('}').unwrap_or(s.len())];
            let mut base = prefix.to_vec();
            base.extend(head.split("::").filter(|p| !p.is_empty()).map(str::to_string));
            for part in split_top(inner) {
                go(&base, part, out);
            }
            return;
        }
        let s = s.split(" as ").next().unwrap_or(s).trim();
        let mut path = prefix.to_vec();
        for seg in s.split("::").map(str::trim) {
            if seg == "self" && !path.is_empty() {
                continue;
            }
            if seg != "*" {
                path.push(seg.to_string());
            }
        }
        out.push(path);
    }
    let mut out = Vec::new();
    go(&[], tree, &mut out);
    out
}

/// Every path a file names that starts at `crate`, `super` or `self`, with the byte offset it
/// stands at.
fn imported_paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < code.len() {
        let at_word = i == 0 || !is_ident(bytes[i - 1]);
        if at_word && code[i..].starts_with("use ") {
            let end = code[i..].find(';').map_or(code.len(), |e| i + e);
            let tree = &code[i + 4..end];
            for path in expand_use(tree) {
                if matches!(path.first().map(String::as_str), Some("crate" | "super" | "self")) {
                    found.push((i, path));
                }
            }
            i = end;
            continue;
        }
        if at_word {
            for root in ["crate::", "super::"] {
                if code[i..].starts_with(root) {
                    let len = code[i..]
                        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                        .unwrap_or(code.len() - i);
                    let path: Vec<String> = code[i..i + len]
                        .split("::")
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .collect();
                    found.push((i, path));
                    i += len;
                    break;
                }
            }
        }
        i += code[i..].chars().next().map_or(1, char::len_utf8);
    }
    found
}

/// Offsets where inline modules (`mod tests { … }`) open: a `super` after one of them means
/// the file's own module.
fn first_inline_module(code: &str) -> Option<usize> {
    let mut offset = 0;
    for line in code.lines() {
        let t = line.trim_start();
        let t = t.strip_prefix("pub ").unwrap_or(t);
        if let Some(rest) = t.strip_prefix("mod ") {
            if rest.trim_end().ends_with('{') {
                return Some(offset);
            }
        }
        offset += line.len() + 1;
    }
    None
}

/// The module a path names: `crate`/`super`/`self` resolved against `here`, then the longest
/// prefix that is a module with a file.
fn resolve(
    here: &[String],
    inside_inline: bool,
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    let mut base: Vec<String> = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        Some("self") => here.to_vec(),
        Some("super") if inside_inline => here.to_vec(),
        Some("super") => here[..here.len().saturating_sub(1)].to_vec(),
        _ => return None,
    };
    let mut rest = &path[1..];
    while rest.first().map(String::as_str) == Some("super") {
        base.pop();
        rest = &rest[1..];
    }
    let mut best = base.clone();
    for seg in rest {
        base.push(seg.clone());
        if modules.contains(&base) {
            best = base.clone();
        } else {
            break;
        }
    }
    Some(best)
}

/// Every violation of the layering and every import circle in a set of files.
fn check(files: &[SourceFile]) -> Vec<String> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let by_module: BTreeMap<&Vec<String>, &SourceFile> =
        files.iter().map(|f| (&f.module, f)).collect();
    let mut problems = Vec::new();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for file in files {
        if file.module.is_empty() {
            continue; // lib.rs only declares the top-level modules.
        }
        let Some(own) = layer_of(&file.module) else {
            problems.push(format!(
                "{}: module `{}` has no layer in tests/layers.rs's LAYERS",
                file.path,
                file.module.join("::")
            ));
            continue;
        };
        let code = code_only(&file.text);
        let inline = first_inline_module(&code);
        for (at, path) in imported_paths(&code) {
            let inside_inline = inline.is_some_and(|start| at > start);
            let Some(target) = resolve(&file.module, inside_inline, &path, &modules) else {
                continue;
            };
            if target == file.module || target.is_empty() {
                continue;
            }
            if let Some(theirs) = layer_of(&target) {
                if theirs > own {
                    problems.push(format!(
                        "{}: `{}` ({own:?} layer) imports `{}` ({theirs:?} layer): a lower layer \
                         may not depend on a higher one",
                        file.path,
                        file.module.join("::"),
                        path.join("::"),
                    ));
                }
            }
            let declares_child = target.starts_with(&file.module);
            if !declares_child {
                edges.entry(file.module.clone()).or_default().insert(target);
            }
        }
    }
    for circle in circles(&edges) {
        let names: Vec<String> = circle
            .iter()
            .map(|m| by_module.get(m).map_or(m.join("::"), |f| f.path.clone()))
            .collect();
        problems.push(format!("import circle: {}", names.join(" ↔ ")));
    }
    problems
}

/// The strongly connected components with more than one module (Tarjan's algorithm).
fn circles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    struct Tarjan<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<Vec<String>, usize>,
        low: BTreeMap<Vec<String>, usize>,
        stack: Vec<Vec<String>>,
        on_stack: BTreeSet<Vec<String>>,
        found: Vec<Vec<Vec<String>>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: &Vec<String>) {
            let i = self.index.len();
            self.index.insert(v.clone(), i);
            self.low.insert(v.clone(), i);
            self.stack.push(v.clone());
            self.on_stack.insert(v.clone());
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v.clone(), low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v.clone(), low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(&w);
                    let done = &w == v;
                    component.push(w);
                    if done {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut t = Tarjan {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.found
}

fn read_tree(dir: &Path, root: &Path, out: &mut Vec<SourceFile>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_tree(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative =
                path.strip_prefix(root).expect("under src").to_string_lossy().replace('\\', "/");
            if relative == "main.rs" {
                continue; // the binary imports the library by name, never `crate::`.
            }
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.push(SourceFile {
                path: format!("src/{relative}"),
                module: module_of(&relative),
                text,
            });
        }
    }
}

#[test]
fn no_module_imports_from_a_higher_layer_and_no_import_circles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    read_tree(&root, &root, &mut files);
    assert!(files.len() > 50, "read only {} files under src/", files.len());
    let problems = check(&files);
    assert!(
        problems.is_empty(),
        "{} layering problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

fn synthetic(files: &[(&str, &str)]) -> Vec<SourceFile> {
    files
        .iter()
        .map(|(path, text)| SourceFile {
            path: format!("src/{path}"),
            module: module_of(path),
            text: text.to_string(),
        })
        .collect()
}

#[test]
fn an_import_from_a_higher_layer_is_reported() {
    let files = synthetic(&[
        ("lib.rs", "pub mod trees; pub mod features;"),
        ("trees/mod.rs", "use crate::features::{Features, jobs::run};\n"),
        ("features/mod.rs", "use crate::trees::Tree;\n"),
    ]);
    let problems = check(&files);
    assert!(
        problems.iter().any(|p| p.starts_with("src/trees/mod.rs: `trees` (Base layer) imports")),
        "{problems:#?}"
    );
    assert_eq!(problems.len(), 3, "two paths and one circle: {problems:#?}");
}

#[test]
fn a_circle_between_siblings_is_reported_and_a_facade_is_not() {
    let files = synthetic(&[
        ("trees/mod.rs", "mod a;\nmod b;\npub use a::A;\npub use self::b::B;\n"),
        ("trees/a.rs", "use super::b::B;\n"),
        ("trees/b.rs", "// use super::a::A; is only a comment\nfn f() { super::a::A::new() }\n"),
        ("trees/c.rs", "use super::A;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n"),
    ]);
    let problems = check(&files);
    assert_eq!(problems, vec!["import circle: src/trees/a.rs ↔ src/trees/b.rs".to_string()],);
}

#[test]
fn comments_and_strings_are_not_imports() {
    let code = code_only("let s = \"crate::cli::x\"; // crate::cli::y\nlet c = '\"'; crate::a::b");
    assert_eq!(
        imported_paths(&code).into_iter().map(|(_, p)| p.join("::")).collect::<Vec<_>>(),
        vec!["crate::a::b"]
    );
}

#[test]
fn a_module_without_a_layer_is_reported() {
    let files = synthetic(&[("gadgets.rs", "fn f() {}\n")]);
    assert_eq!(
        check(&files),
        vec!["src/gadgets.rs: module `gadgets` has no layer in tests/layers.rs's LAYERS"]
    );
}
