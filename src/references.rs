//! Where a theorem's reference statement comes from: `lean-assess.toml` and `-- @reference`.
//!
//! Owns the config: the project's `lean-assess.toml` (found by walking up from the document to
//! the workspace root) with the user's layers over it (the user config file, then `serve
//! --config` or `LEAN_ASSESS_CONFIG`), each key remembering where it came from; the directive written directly above a
//! theorem, the reference dataset (JSONL with `name`, `formal_statement`, optional `header`), and
//! the rule deciding which of these applies to a theorem. Every error names a file and a line
//! ([`ReferenceError`]); none of them stops anything — the features turn them into diagnostics or
//! messages. Reading a reference theorem out of a `.lean` file (parsing) is left to the features.
//!
//! Precedence for one theorem: its directive, then an explicit `[[reference.pair]]`, then a
//! dataset entry with the same name, then a same-named theorem in `[reference] file`.

use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use toml::Spanned;

/// The config file's name, looked up from the document's directory upwards.
pub const CONFIG_FILE_NAME: &str = "lean-assess.toml";
/// Environment variable naming the config file (set by the VS Code extension).
pub const CONFIG_ENV: &str = "LEAN_ASSESS_CONFIG";
/// Metric names the contract knows (architecture.md, "Command line").
pub const KNOWN_METRICS: [&str; 8] = [
    "ted",
    "path",
    "transted-lite",
    "transted",
    "beq",
    "beq+",
    "beq+grind",
    "defeq",
];

/// A problem in a config file, directive or dataset, at `file:line` (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}: {message}", file.display())]
pub struct ReferenceError {
    pub file: PathBuf,
    pub line: usize,
    pub message: String,
}

impl ReferenceError {
    fn new(file: &Path, line: usize, message: impl Into<String>) -> ReferenceError {
        ReferenceError {
            file: file.to_path_buf(),
            line,
            message: message.into(),
        }
    }
}

/// 1-based line of a byte offset in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// A theorem in a file: `Reference.lean::name` (the name may be omitted: same-named theorem).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// Absolute (or as given, when the base was relative) path of the `.lean` file.
    pub file: PathBuf,
    pub name: Option<String>,
}

impl Target {
    /// Parse `FILE.lean::NAME` or `FILE.lean`, resolving a relative `FILE` against `base`.
    pub fn parse(spec: &str, base: &Path) -> Option<Target> {
        let spec = spec.trim();
        let (file, name) = match spec.split_once("::") {
            Some((f, n)) => (f.trim(), Some(n.trim().to_string())),
            None => (spec, None),
        };
        if file.is_empty() || name.as_deref() == Some("") {
            return None;
        }
        let path = Path::new(file);
        let file = if path.is_absolute() {
            path.to_path_buf()
        } else {
            base.join(path)
        };
        Some(Target { file, name })
    }

    /// Whether this target names the theorem `name` in the file `file`.
    pub fn matches(&self, file: &Path, name: Option<&str>) -> bool {
        same_file(&self.file, file) && (self.name.is_none() || self.name.as_deref() == name)
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// One `[[reference.pair]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplicitPair {
    pub candidate: Target,
    pub reference: Target,
    /// Line of the entry in the config file.
    pub line: usize,
}

/// The most LLM answers one BEq direction may ask for (`[llm] samples`): each is paid for.
pub const MAX_LLM_SAMPLES: u32 = 64;

/// `[llm]`: BEq's transformation function, after layering (see [`Config::load_layers`]).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmConfig {
    pub base_url: String,
    pub model: String,
    #[serde(default)]
    pub api_key_env: Option<String>,
    #[serde(default)]
    pub samples: Option<u32>,
}

/// Where one config key's value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A `lean-assess.toml` found in the workspace (walking up from the document): whatever a
    /// cloned repository says. It may *ask* for an LLM but never supplies credentials.
    Project(PathBuf),
    /// A file the user chose: `serve --config`, `LEAN_ASSESS_CONFIG` (the editor settings the
    /// plugins write), `--config` on the command line, or the user config file.
    User(PathBuf),
}

impl Origin {
    pub fn path(&self) -> &Path {
        match self {
            Origin::Project(p) | Origin::User(p) => p,
        }
    }
    pub fn is_user(&self) -> bool {
        matches!(self, Origin::User(_))
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Project(p) => write!(f, "project file {}", p.display()),
            Origin::User(p) => write!(f, "user settings {}", p.display()),
        }
    }
}

/// A parsed config (one file, or several layered), paths resolved against each file's directory.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The file named in errors about this config: the project file when there is one, else
    /// the first layer.
    pub path: PathBuf,
    pub reference_file: Option<PathBuf>,
    pub dataset: Option<PathBuf>,
    pub pairs: Vec<ExplicitPair>,
    /// Metrics shown in the code lens, in order.
    pub lens: Vec<String>,
    pub transted_timeout: Duration,
    pub beq_timeout: Duration,
    /// Time limit of one offline metric job (`offline_timeout_ms`).
    pub offline_timeout: Duration,
    /// The merged `[llm]` table. Whether it may be used is `crate::llm`'s decision, which reads
    /// [`Config::origin`] of each key: a project file alone never sends anything.
    pub llm: Option<LlmConfig>,
    /// Where each key that is not at its default came from (`"reference.file"`,
    /// `"metrics.lens"`, `"llm.base_url"`, …): the last layer that set it.
    pub origins: std::collections::BTreeMap<String, Origin>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            path: PathBuf::new(),
            reference_file: None,
            dataset: None,
            pairs: Vec::new(),
            lens: vec!["ted".into(), "transted-lite".into()],
            transted_timeout: Duration::from_millis(20_000),
            beq_timeout: Duration::from_millis(30_000),
            offline_timeout: Duration::from_millis(2_000),
            llm: None,
            origins: std::collections::BTreeMap::new(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    reference: Option<RawReference>,
    #[serde(default)]
    metrics: Option<RawMetrics>,
    #[serde(default)]
    llm: Option<Spanned<RawLlm>>,
    /// `[integrity] tasks = "DIR"`: validated here, read by `features::integrity`.
    #[serde(default)]
    #[allow(dead_code)]
    integrity: Option<RawIntegrity>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawIntegrity {
    #[allow(dead_code)]
    tasks: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReference {
    #[serde(default)]
    file: Option<Spanned<String>>,
    #[serde(default)]
    dataset: Option<Spanned<String>>,
    #[serde(default)]
    pair: Vec<Spanned<RawPair>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPair {
    candidate: Spanned<String>,
    reference: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMetrics {
    #[serde(default)]
    lens: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    transted_timeout_ms: Option<u64>,
    #[serde(default)]
    beq_timeout_ms: Option<u64>,
    #[serde(default)]
    offline_timeout_ms: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLlm {
    #[serde(default)]
    base_url: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    api_key_env: Option<String>,
    #[serde(default)]
    samples: Option<u32>,
}

/// One file of a layered config and what kind of source it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    pub path: PathBuf,
    pub user: bool,
}

impl Config {
    /// Read and validate one project config file (its keys get [`Origin::Project`]).
    pub fn load(path: &Path) -> Result<Config, ReferenceError> {
        Config::load_layers(&[Layer {
            path: path.to_path_buf(),
            user: false,
        }])
    }

    /// Read and validate a file the user chose (`--config`): its keys get [`Origin::User`].
    pub fn load_user(path: &Path) -> Result<Config, ReferenceError> {
        Config::load_layers(&[Layer {
            path: path.to_path_buf(),
            user: true,
        }])
    }

    /// Layer config files in order: each key takes the value of the last file that sets it
    /// (`[[reference.pair]]` entries accumulate), and [`Config::origins`] records which file
    /// that was. The first error (file and line) stops the load.
    pub fn load_layers(layers: &[Layer]) -> Result<Config, ReferenceError> {
        let mut cfg = Config::default();
        let mut llm = RawLlmMerged::default();
        for layer in layers {
            let text = read_regular_file(&layer.path, MAX_CONFIG_BYTES).map_err(|e| {
                ReferenceError::new(&layer.path, 1, format!("cannot read config: {e}"))
            })?;
            let origin = if layer.user {
                Origin::User(layer.path.clone())
            } else {
                Origin::Project(layer.path.clone())
            };
            cfg.apply(&text, &layer.path, origin, &mut llm)?;
        }
        if let Some(first) = layers.iter().find(|l| !l.user).or(layers.first()) {
            cfg.path = first.path.clone();
        }
        cfg.llm = llm.finish()?;
        Ok(cfg)
    }

    /// Parse the text of one project config file; `path` names it in errors and is the base of
    /// relative paths.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ReferenceError> {
        let mut cfg = Config {
            path: path.to_path_buf(),
            ..Config::default()
        };
        let mut llm = RawLlmMerged::default();
        cfg.apply(text, path, Origin::Project(path.to_path_buf()), &mut llm)?;
        cfg.llm = llm.finish()?;
        Ok(cfg)
    }

    /// The source of `key` (`"metrics.lens"`), or `None` when it has its default value.
    pub fn origin(&self, key: &str) -> Option<&Origin> {
        self.origins.get(key)
    }

    /// One line per key not at its default: `key = value  (from …)`, for the log and the
    /// editors' "show configuration" views. The API key itself is never in a config.
    pub fn describe(&self) -> Vec<String> {
        let value = |key: &str| -> String {
            match key {
                "reference.file" => self
                    .reference_file
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
                "reference.dataset" => self
                    .dataset
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
                "reference.pair" => format!("{} pair(s)", self.pairs.len()),
                "metrics.lens" => self.lens.join(", "),
                "metrics.transted_timeout_ms" => self.transted_timeout.as_millis().to_string(),
                "metrics.beq_timeout_ms" => self.beq_timeout.as_millis().to_string(),
                "metrics.offline_timeout_ms" => self.offline_timeout.as_millis().to_string(),
                "llm.base_url" => self
                    .llm
                    .as_ref()
                    .map(|l| l.base_url.clone())
                    .unwrap_or_default(),
                "llm.model" => self
                    .llm
                    .as_ref()
                    .map(|l| l.model.clone())
                    .unwrap_or_default(),
                "llm.api_key_env" => self
                    .llm
                    .as_ref()
                    .and_then(|l| l.api_key_env.clone())
                    .unwrap_or_default(),
                "llm.samples" => self
                    .llm
                    .as_ref()
                    .and_then(|l| l.samples)
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
                _ => String::new(),
            }
        };
        self.origins
            .iter()
            .map(|(k, o)| format!("{k} = {}  (from {o})", value(k)))
            .collect()
    }

    /// Apply one file's keys over `self`.
    fn apply(
        &mut self,
        text: &str,
        path: &Path,
        origin: Origin,
        llm: &mut RawLlmMerged,
    ) -> Result<(), ReferenceError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(1);
            // toml's message can span lines ("invalid table header\nexpected ..."): one line
            // for the editor's diagnostic and the command line.
            let message = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
            ReferenceError::new(path, line, message)
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut set = |key: &str| {
            self.origins.insert(key.to_string(), origin.clone());
        };
        if let Some(r) = raw.reference {
            let lean_file = |s: &Spanned<String>, what: &str| {
                let v = s.get_ref().trim();
                if v.is_empty() {
                    return Err(ReferenceError::new(
                        path,
                        line_of(text, s.span().start),
                        format!("[reference] {what} is empty"),
                    ));
                }
                Ok(base.join(v))
            };
            if let Some(f) = &r.file {
                self.reference_file = Some(lean_file(f, "file")?);
                set("reference.file");
            }
            if let Some(f) = &r.dataset {
                self.dataset = Some(lean_file(f, "dataset")?);
                set("reference.dataset");
            }
            for p in &r.pair {
                let line = line_of(text, p.span().start);
                let target = |s: &Spanned<String>, what: &str| {
                    Target::parse(s.get_ref(), base).ok_or_else(|| {
                        ReferenceError::new(
                            path,
                            line_of(text, s.span().start),
                            format!(
                                "[[reference.pair]] {what} = {:?}: expected \"FILE.lean::NAME\"",
                                s.get_ref()
                            ),
                        )
                    })
                };
                self.pairs.push(ExplicitPair {
                    candidate: target(&p.get_ref().candidate, "candidate")?,
                    reference: target(&p.get_ref().reference, "reference")?,
                    line,
                });
                set("reference.pair");
            }
        }
        if let Some(m) = raw.metrics {
            if let Some(lens) = m.lens {
                let mut names = Vec::new();
                for n in lens {
                    if !KNOWN_METRICS.contains(&n.get_ref().as_str()) {
                        return Err(ReferenceError::new(
                            path,
                            line_of(text, n.span().start),
                            format!(
                                "[metrics] lens: unknown metric {:?} (known: {})",
                                n.get_ref(),
                                KNOWN_METRICS.join(", ")
                            ),
                        ));
                    }
                    names.push(n.into_inner());
                }
                self.lens = names;
                set("metrics.lens");
            }
            let ms = Duration::from_millis;
            if let Some(v) = m.transted_timeout_ms {
                self.transted_timeout = ms(v);
                set("metrics.transted_timeout_ms");
            }
            if let Some(v) = m.beq_timeout_ms {
                self.beq_timeout = ms(v);
                set("metrics.beq_timeout_ms");
            }
            if let Some(v) = m.offline_timeout_ms {
                self.offline_timeout = ms(v);
                set("metrics.offline_timeout_ms");
            }
        }
        if let Some(l) = raw.llm {
            let line = line_of(text, l.span().start);
            let l = l.into_inner();
            llm.table_at = Some((path.to_path_buf(), line));
            if let Some(v) = l.base_url {
                llm.base_url = Some(v);
                set("llm.base_url");
            }
            if let Some(v) = l.model {
                llm.model = Some(v);
                set("llm.model");
            }
            if let Some(v) = l.api_key_env {
                llm.api_key_env = Some(v);
                set("llm.api_key_env");
            }
            if let Some(v) = l.samples {
                if v > MAX_LLM_SAMPLES {
                    return Err(ReferenceError::new(
                        path,
                        line,
                        format!("[llm] samples = {v} is above the limit of {MAX_LLM_SAMPLES}"),
                    ));
                }
                llm.samples = Some(v);
                set("llm.samples");
            }
        }
        Ok(())
    }

    /// The explicit pair naming this candidate theorem, if any.
    pub fn pair_for(&self, file: &Path, name: Option<&str>) -> Option<&ExplicitPair> {
        self.pairs.iter().find(|p| p.candidate.matches(file, name))
    }
}

/// `[llm]` keys gathered over the layers, checked once all are read.
#[derive(Default)]
struct RawLlmMerged {
    /// The last `[llm]` table seen, for the error when the merged table is incomplete.
    table_at: Option<(PathBuf, usize)>,
    base_url: Option<String>,
    model: Option<String>,
    api_key_env: Option<String>,
    samples: Option<u32>,
}

impl RawLlmMerged {
    fn finish(self) -> Result<Option<LlmConfig>, ReferenceError> {
        let Some((file, line)) = self.table_at else {
            return Ok(None);
        };
        match (self.base_url, self.model) {
            (Some(base_url), Some(model)) => Ok(Some(LlmConfig {
                base_url,
                model,
                api_key_env: self.api_key_env,
                samples: self.samples,
            })),
            (b, _) => Err(ReferenceError::new(
                &file,
                line,
                format!(
                    "[llm] needs `{}` (in this file or a layer below it)",
                    if b.is_none() { "base_url" } else { "model" }
                ),
            )),
        }
    }
}

/// The user-level config file: `$XDG_CONFIG_HOME/lean-assess/config.toml`, else
/// `~/.config/lean-assess/config.toml` (whether or not it exists).
pub fn user_config_file() -> Option<PathBuf> {
    let dir = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(dir.join("lean-assess").join("config.toml"))
}

/// The config layers for a document, lowest first: the project's `lean-assess.toml` (nearest
/// from the document up to `root`), then the user config file (when it exists), then the
/// file the user named (`serve --config`, else `LEAN_ASSESS_CONFIG`, which the editor plugins
/// point at the settings they write). A named file layers over the project file, never
/// replaces it: the project's `[reference]` stays when the editor only sets `[metrics]`.
pub fn config_layers(
    explicit: Option<&Path>,
    env: Option<&Path>,
    user_file: Option<&Path>,
    document: &Path,
    root: Option<&Path>,
) -> Vec<Layer> {
    let mut layers = Vec::new();
    if let Some(p) = find_project_config(document, root) {
        layers.push(Layer {
            path: p,
            user: false,
        });
    }
    if let Some(u) = user_file.filter(|u| u.is_file()) {
        layers.push(Layer {
            path: u.to_path_buf(),
            user: true,
        });
    }
    if let Some(p) = explicit.or(env) {
        layers.push(Layer {
            path: p.to_path_buf(),
            user: true,
        });
    }
    layers
}

/// The nearest `lean-assess.toml` from the document's directory up to `root` (inclusive; up to
/// the filesystem root when the document is elsewhere).
pub fn find_project_config(document: &Path, root: Option<&Path>) -> Option<PathBuf> {
    let mut dir = document.parent();
    while let Some(d) = dir {
        let candidate = d.join(CONFIG_FILE_NAME);
        if candidate.is_file() {
            return Some(candidate);
        }
        if root.is_some_and(|r| d == r) {
            return None;
        }
        dir = d.parent();
    }
    None
}

/// Files that mark a Lake project's root (lake `src/lake/Lake/Load/Config.lean` looks for
/// `lakefile.lean` / `lakefile.toml`; `lake-manifest.json` and `lean-toolchain` sit next to it).
const LAKE_ROOT_MARKERS: [&str; 4] = [
    "lakefile.lean",
    "lakefile.toml",
    "lake-manifest.json",
    "lean-toolchain",
];

/// Where reference files (a directive's `FILE.lean`, a pair's file, `[reference] file`, the
/// dataset) may be read from: the workspace — the folder of the config file, the Lake project
/// the document is in (its `.lake/packages`, Mathlib included, lie inside it), the editor's
/// `rootUri`/`workspaceFolders` and the server's working directory — and nothing else. A
/// workspace file can then not make the proxy read (show in hover, send to an LLM) a file such
/// as `-- @reference ../../etc/passwd::root` (issue 17 §2). Symbolic links are followed before
/// the check, so a link inside pointing outside is outside.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadableRoots {
    /// Absolute, normalized (canonical where the folder exists).
    roots: Vec<PathBuf>,
}

impl ReadableRoots {
    /// The roots for a document at `doc_path` under `config`, plus `extra` (the editor's
    /// workspace folders, the server's working directory). Without any of them (a scratch file
    /// outside every project), the document's own folder.
    pub fn for_document(
        doc_path: Option<&Path>,
        config: Option<&Config>,
        extra: &[PathBuf],
    ) -> ReadableRoots {
        let mut roots = Vec::new();
        if let Some(dir) = config.and_then(|c| c.path.parent()) {
            roots.push(dir.to_path_buf());
        }
        let doc_dir = doc_path.and_then(Path::parent);
        if let Some(lake) = doc_dir.and_then(lake_root) {
            roots.push(lake);
        }
        roots.extend(extra.iter().cloned());
        if roots.is_empty() {
            roots.extend(doc_dir.map(Path::to_path_buf));
        }
        let mut out: Vec<PathBuf> = Vec::new();
        for r in roots.iter().filter(|r| r.is_absolute()) {
            let r = r.canonicalize().unwrap_or_else(|_| normalize(r));
            if !out.contains(&r) {
                out.push(r);
            }
        }
        ReadableRoots { roots: out }
    }

    /// Ok when `path` lies inside one of the roots; else a message saying so (for a diagnostic
    /// and the hover), without reading anything.
    pub fn check(&self, path: &Path) -> Result<(), String> {
        // Lexically first: `..` must not climb out, whether or not the file exists.
        let lexical = normalize(path);
        let inside = |p: &Path| path.is_absolute() && self.roots.iter().any(|r| p.starts_with(r));
        if inside(&lexical) {
            // Then with links resolved (a missing file fails to read later, with its own error).
            match lexical.canonicalize() {
                Ok(real) if !inside(&real) => {}
                _ => return Ok(()),
            }
        }
        let roots: Vec<String> = self.roots.iter().map(|r| r.display().to_string()).collect();
        Err(format!(
            "{} is outside the workspace; references are read only inside {}",
            path.display(),
            if roots.is_empty() {
                "the workspace (none is known)".to_string()
            } else {
                roots.join(", ")
            }
        ))
    }
}

/// The largest Lean source file read from a workspace (a task, a reference file, a solution).
pub const MAX_SOURCE_BYTES: u64 = 8 << 20;
/// The largest config file read.
const MAX_CONFIG_BYTES: u64 = 1 << 20;
/// The largest reference dataset read.
pub const MAX_DATASET_BYTES: u64 = 256 << 20;

/// Read `path` as UTF-8 text when it is a regular file of at most `limit` bytes; a FIFO, a
/// device (`/dev/zero`), a directory or a larger file is refused with a message naming it,
/// without blocking (opened non-blocking, checked on the open handle) and without reading more
/// than `limit` + 1 bytes (a file that grows while read is refused too).
pub fn read_regular_file(path: &Path, limit: u64) -> Result<String, String> {
    let bytes = read_regular_bytes(path, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        format!("{}: line {line}: not valid UTF-8", path.display())
    })
}

/// [`read_regular_file`]'s bytes, not checked as UTF-8.
pub fn read_regular_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options
        .open(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!(
            "{}: not a regular file (a directory, device or pipe is never read)",
            path.display()
        ));
    }
    let too_big = || {
        format!(
            "{}: larger than the limit of {} MiB",
            path.display(),
            limit >> 20
        )
    };
    if meta.len() > limit {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if bytes.len() as u64 > limit {
        return Err(too_big());
    }
    Ok(bytes)
}

/// The nearest folder from `dir` up that holds a Lake project marker.
fn lake_root(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| LAKE_ROOT_MARKERS.iter().any(|m| d.join(m).is_file()))
        .map(Path::to_path_buf)
}

/// `a/./b/../c` → `a/c` without touching the file system (`..` at the root stays at the root).
fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// What a `-- @reference` directive points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectiveSpec {
    /// `-- @reference Reference.lean::name`.
    Theorem(Target),
    /// `-- @reference theorem ref (x : ℕ) : ...` (continued on following `--` lines).
    Inline(String),
    /// `-- @reference name`: an entry of the configured dataset or reference file.
    Name(String),
}

/// A directive found above a theorem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    /// 0-based line of the `-- @reference` comment in the document.
    pub line: usize,
    pub spec: DirectiveSpec,
}

const DIRECTIVE: &str = "@reference";

/// The directive in the block of `--` comment lines directly above the declaration that starts at
/// byte `decl_start`, if any. `doc_dir` resolves relative files; `doc_path` names errors.
pub fn directive_above(
    text: &str,
    decl_start: usize,
    doc_path: &Path,
    doc_dir: &Path,
) -> Option<Result<Directive, ReferenceError>> {
    let decl_line = line_of(text, decl_start) - 1;
    directive_above_at(text, decl_start, decl_line, doc_path, doc_dir)
}

/// [`directive_above`] for a caller that knows the declaration's 0-based line (from a line
/// index): nothing here scans the text before the comment block, so finding the directives of
/// every declaration of a file is linear, not quadratic, in its size.
pub fn directive_above_at(
    text: &str,
    decl_start: usize,
    decl_line: usize,
    doc_path: &Path,
    doc_dir: &Path,
) -> Option<Result<Directive, ReferenceError>> {
    let decl_start = decl_start.min(text.len());
    let before = text.get(..decl_start)?;
    // Lines strictly above the declaration's line, nearest first.
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    if !before[line_start..].trim().is_empty() {
        return None; // something precedes the declaration on its own line
    }
    let above = &before[..line_start];
    let mut block: Vec<&str> = Vec::new();
    for l in above.lines().rev() {
        let t = l.trim();
        if let Some(c) = t.strip_prefix("--") {
            block.push(c);
        } else {
            break;
        }
    }
    block.reverse();
    let first_line = decl_line.saturating_sub(block.len());
    let at = block
        .iter()
        .position(|c| c.trim_start().starts_with(DIRECTIVE))?;
    let line = first_line + at;
    let head = block[at].trim_start()[DIRECTIVE.len()..].trim();
    let mut body = head.to_string();
    for c in &block[at + 1..] {
        if c.trim_start().starts_with('@') {
            break;
        }
        body.push('\n');
        body.push_str(c.strip_prefix(' ').unwrap_or(c));
    }
    let body = body.trim();
    let err = |m: String| Some(Err(ReferenceError::new(doc_path, line + 1, m)));
    if body.is_empty() {
        return err("`-- @reference` needs FILE.lean::NAME, NAME, or a `theorem ...`".into());
    }
    let first_word = body.split_whitespace().next().unwrap_or("");
    let spec = if matches!(first_word, "theorem" | "lemma" | "example") {
        DirectiveSpec::Inline(body.to_string())
    } else if body.contains("::") || first_word.ends_with(".lean") {
        if body.split_whitespace().count() > 1 {
            return err(format!(
                "`-- @reference {body}`: expected one FILE.lean::NAME"
            ));
        }
        match Target::parse(body, doc_dir) {
            Some(t) => DirectiveSpec::Theorem(t),
            None => return err(format!("`-- @reference {body}`: expected FILE.lean::NAME")),
        }
    } else if body.split_whitespace().count() == 1 {
        DirectiveSpec::Name(body.to_string())
    } else {
        return err(format!(
            "`-- @reference {}`: expected FILE.lean::NAME, NAME, or `theorem ...`",
            body.lines().next().unwrap_or("")
        ));
    };
    Some(Ok(Directive { line, spec }))
}

/// Where the text [`directive_above_at`] reads for the declaration at byte `decl_start` begins:
/// the first line of the `--` comment block directly above it (the declaration's own line when
/// there is none). The directive found depends only on `text[start..decl_start]` and the
/// declaration's line, so a job may reuse a theorem whose slice and line are unchanged.
pub fn directive_block_start(text: &str, decl_start: usize) -> usize {
    let decl_start = decl_start.min(text.len());
    let Some(before) = text.get(..decl_start) else {
        return decl_start;
    };
    let mut start = before.rfind('\n').map_or(0, |i| i + 1);
    // The same lines as `above.lines().rev()` there: each ends at a '\n' (a '\r' is trimmed).
    while start > 0 {
        let line_end = start - 1;
        let line_start = before[..line_end].rfind('\n').map_or(0, |i| i + 1);
        if !before[line_start..line_end].trim().starts_with("--") {
            break;
        }
        start = line_start;
    }
    start
}

/// One dataset entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetEntry {
    pub name: String,
    pub statement: String,
    pub header: String,
    /// 1-based line in the dataset file.
    pub line: usize,
}

#[derive(Deserialize)]
struct RawEntry {
    name: String,
    formal_statement: String,
    #[serde(default)]
    header: Option<String>,
}

/// A reference dataset: name → entry. Bad lines are reported and skipped, not fatal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dataset {
    pub entries: HashMap<String, DatasetEntry>,
}

impl Dataset {
    pub fn load(path: &Path) -> Result<(Dataset, Vec<ReferenceError>), ReferenceError> {
        let text = read_regular_file(path, MAX_DATASET_BYTES)
            .map_err(|e| ReferenceError::new(path, 1, format!("cannot read dataset: {e}")))?;
        Ok(Dataset::parse(&text, path))
    }

    pub fn parse(text: &str, path: &Path) -> (Dataset, Vec<ReferenceError>) {
        let mut ds = Dataset::default();
        let mut errors = Vec::new();
        for (i, l) in text.lines().enumerate() {
            if l.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<RawEntry>(l) {
                Ok(e) => {
                    ds.entries.insert(
                        e.name.clone(),
                        DatasetEntry {
                            name: e.name,
                            statement: e.formal_statement,
                            header: e.header.unwrap_or_default(),
                            line: i + 1,
                        },
                    );
                }
                Err(e) => errors.push(ReferenceError::new(
                    path,
                    i + 1,
                    format!("not a dataset entry {{name, formal_statement, header?}}: {e}"),
                )),
            }
        }
        (ds, errors)
    }
}

/// Where the reference for one candidate theorem is, before reading any file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReferenceSource {
    /// A theorem in a `.lean` file (the candidate's own name when `name` is `None`).
    Theorem { target: Target, origin: String },
    /// Statement text given inline in a directive.
    Inline { text: String, origin: String },
    /// A theorem by name: the dataset first, then the config's reference file.
    Named { name: String, origin: String },
}

impl ReferenceSource {
    /// Where it came from, for hover text ("directive at C.lean:3", "lean-assess.toml:7").
    pub fn origin(&self) -> &str {
        match self {
            ReferenceSource::Theorem { origin, .. }
            | ReferenceSource::Inline { origin, .. }
            | ReferenceSource::Named { origin, .. } => origin,
        }
    }
}

/// Decide where the reference of theorem `name` in the document at `doc_path` comes from.
/// `directive` is what [`directive_above`] found (errors were reported separately).
pub fn source_for(
    doc_path: &Path,
    name: Option<&str>,
    directive: Option<&Directive>,
    config: Option<&Config>,
) -> Option<ReferenceSource> {
    let file_name = doc_path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(d) = directive {
        let origin = format!("directive at {file_name}:{}", d.line + 1);
        return Some(match &d.spec {
            DirectiveSpec::Theorem(t) => ReferenceSource::Theorem {
                target: Target {
                    file: t.file.clone(),
                    name: t.name.clone().or(name.map(str::to_string)),
                },
                origin,
            },
            DirectiveSpec::Inline(text) => ReferenceSource::Inline {
                text: text.clone(),
                origin,
            },
            DirectiveSpec::Name(n) => ReferenceSource::Named {
                name: n.clone(),
                origin,
            },
        });
    }
    let config = config?;
    let cfg_name = config
        .path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(p) = config.pair_for(doc_path, name) {
        return Some(ReferenceSource::Theorem {
            target: Target {
                file: p.reference.file.clone(),
                name: p.reference.name.clone().or(name.map(str::to_string)),
            },
            origin: format!("{cfg_name}:{}", p.line),
        });
    }
    let name = name?;
    // A theorem is not its own reference: skip name matching inside the reference file itself.
    if let Some(f) = &config.reference_file {
        if config.dataset.is_none() && same_file(f, doc_path) {
            return None;
        }
    }
    if config.dataset.is_some() || config.reference_file.is_some() {
        return Some(ReferenceSource::Named {
            name: name.to_string(),
            origin: format!("{cfg_name} (by name)"),
        });
    }
    None
}

/// `file:///a/b%20c.lean` → `/a/b c.lean`; `None` for other schemes.
pub fn uri_to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path` is not local; `file:///path` has an empty host.
    let path = if rest.starts_with('/') {
        rest
    } else {
        rest.strip_prefix("localhost")?
    };
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(v) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok().map(PathBuf::from)
}

/// `/a/b c.lean` → `file:///a/b%20c.lean` (RFC 3986: unreserved and `/` kept, rest escaped).
pub fn path_to_uri(path: &Path) -> String {
    let s = path.to_string_lossy();
    let mut out = String::from("file://");
    if !s.starts_with('/') {
        out.push('/');
    }
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn only_bounded_regular_files_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_regular_file(Path::new("/dev/zero"), MAX_SOURCE_BYTES).unwrap_err();
        assert!(e.contains("/dev/zero: not a regular file"), "{e}");
        let e = read_regular_file(dir.path(), MAX_SOURCE_BYTES).unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let big = dir.path().join("big.lean");
        std::fs::write(&big, vec![b'a'; 2 << 20]).unwrap();
        let e = read_regular_file(&big, 1 << 20).unwrap_err();
        assert!(
            e.contains("big.lean: larger than the limit of 1 MiB"),
            "{e}"
        );
        assert_eq!(read_regular_file(&big, 2 << 20).unwrap().len(), 2 << 20);
    }

    #[test]
    fn references_resolve_inside_the_workspace_only() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        let proj = tmp.path().join("proj");
        std::fs::create_dir_all(proj.join("A")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(proj.join("lakefile.toml"), "").unwrap();
        std::fs::write(proj.join("A/Ref.lean"), "theorem r : True := trivial").unwrap();
        std::fs::write(outside.join("secret.lean"), "theorem s : True := trivial").unwrap();
        std::os::unix::fs::symlink(outside.join("secret.lean"), proj.join("A/Link.lean")).unwrap();
        let doc = proj.join("A/Cand.lean");
        // No config, no editor roots: the Lake project is the workspace.
        let roots = ReadableRoots::for_document(Some(&doc), None, &[]);
        let target = |spec: &str| Target::parse(spec, doc.parent().unwrap()).unwrap().file;
        assert_eq!(roots.check(&target("Ref.lean::r")), Ok(()));
        assert_eq!(roots.check(&target("Missing.lean::r")), Ok(()));
        for bad in [
            "../../outside/secret.lean::s",
            "../../../../../../../../etc/passwd::root",
            "/etc/passwd::root",
            "Link.lean::s",
        ] {
            let e = roots.check(&target(bad)).expect_err(bad);
            assert!(e.contains("is outside the workspace"), "{e}");
        }
        // A configured root (the editor's workspace folder) widens it.
        let wider = ReadableRoots::for_document(Some(&doc), None, std::slice::from_ref(&outside));
        assert_eq!(wider.check(&target("../../outside/secret.lean::s")), Ok(()));
        // The directive itself is read as before; its target is what gets checked.
        let text =
            "-- @reference ../../../../../../../../etc/passwd::root\ntheorem c : True := trivial";
        let d = directive_above(
            text,
            text.find("theorem").unwrap(),
            &doc,
            doc.parent().unwrap(),
        )
        .unwrap()
        .unwrap();
        let DirectiveSpec::Theorem(t) = d.spec else {
            panic!("{:?}", d.spec)
        };
        assert!(roots.check(&t.file).is_err());
    }

    const GOOD: &str = r#"
[reference]
file = "Reference.lean"
dataset = "refs.jsonl"

[[reference.pair]]
candidate = "Autoformalized.lean::my_favorite_theorem"
reference = "Reference.lean::mathd_algebra_142"

[metrics]
lens = ["ted", "transted", "beq"]
transted_timeout_ms = 20000
beq_timeout_ms = 30000

[llm]
base_url = "http://127.0.0.1:8000/v1"
model = "m"
api_key_env = "OPENAI_API_KEY"
samples = 8
"#;

    #[test]
    fn contract_example_parses() {
        let cfg = Config::parse(GOOD, Path::new("/w/lean-assess.toml")).unwrap();
        assert_eq!(cfg.reference_file, Some(PathBuf::from("/w/Reference.lean")));
        assert_eq!(cfg.dataset, Some(PathBuf::from("/w/refs.jsonl")));
        assert_eq!(cfg.pairs.len(), 1);
        assert_eq!(cfg.pairs[0].line, 6);
        assert_eq!(
            cfg.pairs[0].reference,
            Target {
                file: "/w/Reference.lean".into(),
                name: Some("mathd_algebra_142".into())
            }
        );
        assert_eq!(cfg.lens, ["ted", "transted", "beq"]);
        assert_eq!(cfg.beq_timeout, Duration::from_secs(30));
        assert_eq!(cfg.llm.as_ref().unwrap().samples, Some(8));
        let p = cfg
            .pair_for(
                Path::new("/w/Autoformalized.lean"),
                Some("my_favorite_theorem"),
            )
            .unwrap();
        assert_eq!(p.reference.name.as_deref(), Some("mathd_algebra_142"));
    }

    #[test]
    fn bad_configs_name_file_and_line() {
        let cases: &[(&str, usize, &str)] = &[
            (
                "[metrics]\nlens = [\"ted\",\n  \"tedd\"]\n",
                3,
                "unknown metric \"tedd\"",
            ),
            (
                "\n\n[refrence]\nfile = \"R.lean\"\n",
                3,
                "unknown field `refrence`",
            ),
            ("[reference]\nfile = 3\n", 2, "invalid type"),
            (
                "[[reference.pair]]\ncandidate = \"A.lean::x\"\nreference = \"::\"\n",
                3,
                "expected \"FILE.lean::NAME\"",
            ),
            ("[metrics]\nbeq_timeout_ms = -1\n", 2, ""),
            ("[reference\n", 1, ""),
        ];
        for (text, line, needle) in cases {
            let e = Config::parse(text, Path::new("/w/lean-assess.toml")).unwrap_err();
            assert_eq!(e.line, *line, "{text:?} → {e}");
            assert!(e
                .to_string()
                .starts_with(&format!("/w/lean-assess.toml:{line}: ")));
            assert!(e.message.contains(needle), "{e}");
            assert!(!e.to_string().contains('\n'), "one line: {e:?}");
        }
    }

    #[test]
    fn config_is_found_walking_up_but_not_past_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("proj");
        std::fs::create_dir_all(root.join("A/B")).unwrap();
        std::fs::write(dir.path().join(CONFIG_FILE_NAME), "").unwrap();
        let doc = root.join("A/B/C.lean");
        assert_eq!(find_project_config(&doc, Some(&root)), None);
        assert_eq!(config_layers(None, None, None, &doc, Some(&root)), []);
        std::fs::write(root.join("A").join(CONFIG_FILE_NAME), "").unwrap();
        let project = Layer {
            path: root.join("A").join(CONFIG_FILE_NAME),
            user: false,
        };
        assert_eq!(
            config_layers(None, None, None, &doc, Some(&root)),
            std::slice::from_ref(&project)
        );
        // A named file (serve --config, else LEAN_ASSESS_CONFIG) layers over the project file.
        let user = |p: &str| Layer {
            path: p.into(),
            user: true,
        };
        let explicit = Path::new("/x.toml");
        assert_eq!(
            config_layers(
                Some(explicit),
                Some(Path::new("/y.toml")),
                None,
                &doc,
                Some(&root)
            ),
            [project.clone(), user("/x.toml")]
        );
        assert_eq!(
            config_layers(None, Some(Path::new("/y.toml")), None, &doc, Some(&root)),
            [project.clone(), user("/y.toml")]
        );
        // The user config file sits between them, only when it exists.
        let user_file = dir.path().join("user.toml");
        assert_eq!(
            config_layers(None, None, Some(&user_file), &doc, Some(&root)),
            std::slice::from_ref(&project)
        );
        std::fs::write(&user_file, "").unwrap();
        assert_eq!(
            config_layers(
                None,
                Some(Path::new("/y.toml")),
                Some(&user_file),
                &doc,
                Some(&root)
            ),
            [project, user(user_file.to_str().unwrap()), user("/y.toml")]
        );
    }

    /// Issue 12.1: editor settings that set only `[metrics]` used to replace the project file
    /// (its `[reference]` was lost and every lens disappeared). They layer over it now, and
    /// each key says where it came from.
    #[test]
    fn editor_settings_layer_over_the_project_file_and_keys_name_their_origin() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join(CONFIG_FILE_NAME);
        std::fs::write(
            &project,
            "[reference]\nfile = \"Reference.lean\"\n[metrics]\nlens = [\"ted\", \"transted-lite\"]\nbeq_timeout_ms = 5\n",
        )
        .unwrap();
        let settings = dir.path().join("settings/lean-assess.toml");
        std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
        std::fs::write(&settings, "[metrics]\nlens = [\"ted\"]\n").unwrap();
        let layers = config_layers(
            None,
            Some(&settings),
            None,
            &dir.path().join("A.lean"),
            Some(dir.path()),
        );
        let cfg = Config::load_layers(&layers).unwrap();
        assert_eq!(cfg.reference_file, Some(dir.path().join("Reference.lean")));
        assert_eq!(cfg.lens, ["ted"]);
        assert_eq!(cfg.beq_timeout, Duration::from_millis(5));
        assert_eq!(cfg.path, project);
        assert_eq!(
            cfg.origin("reference.file"),
            Some(&Origin::Project(project.clone()))
        );
        assert_eq!(
            cfg.origin("metrics.lens"),
            Some(&Origin::User(settings.clone()))
        );
        assert_eq!(cfg.origin("metrics.transted_timeout_ms"), None);
        let lines = cfg.describe();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("metrics.lens = ted  (from user settings ")),
            "{lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("reference.file = ") && l.contains("(from project file ")),
            "{lines:?}"
        );
        // [llm] keys merge across layers; an incomplete merged table names the file and line.
        std::fs::write(&project, "[llm]\nmodel = \"m\"\n").unwrap();
        std::fs::write(
            &settings,
            "[llm]\nbase_url = \"https://x/v1\"\napi_key_env = \"K\"\n",
        )
        .unwrap();
        let cfg = Config::load_layers(&layers).unwrap();
        let llm = cfg.llm.as_ref().unwrap();
        assert_eq!(
            (llm.base_url.as_str(), llm.model.as_str()),
            ("https://x/v1", "m")
        );
        assert!(cfg.origin("llm.model").is_some_and(|o| !o.is_user()));
        assert!(cfg.origin("llm.api_key_env").is_some_and(Origin::is_user));
        std::fs::write(&settings, "\n[llm]\nsamples = 2\n").unwrap();
        let e = Config::load_layers(&layers).unwrap_err();
        assert_eq!((e.file.as_path(), e.line), (settings.as_path(), 2), "{e}");
        assert!(e.message.contains("base_url"), "{e}");
    }

    fn directive(text: &str) -> Option<Result<Directive, ReferenceError>> {
        let start = text.find("theorem cand").unwrap();
        directive_above(text, start, Path::new("/w/C.lean"), Path::new("/w"))
    }

    #[test]
    fn directives_of_every_form() {
        let t = "import Mathlib\n\n-- @reference Reference.lean::mathd_algebra_142\ntheorem cand : True := trivial\n";
        assert_eq!(
            directive(t).unwrap().unwrap(),
            Directive {
                line: 2,
                spec: DirectiveSpec::Theorem(Target {
                    file: "/w/Reference.lean".into(),
                    name: Some("mathd_algebra_142".into())
                })
            }
        );
        let t = "-- some note\n-- @reference theorem ref (x : ℕ)\n--   (h : 0 < x) : x ≠ 0\ntheorem cand (x : ℕ) : x ≠ 0 := sorry";
        assert_eq!(
            directive(t).unwrap().unwrap(),
            Directive {
                line: 1,
                spec: DirectiveSpec::Inline("theorem ref (x : ℕ)\n  (h : 0 < x) : x ≠ 0".into())
            }
        );
        let t = "-- @reference mathd_algebra_142\ntheorem cand : True := trivial";
        assert_eq!(
            directive(t).unwrap().unwrap().spec,
            DirectiveSpec::Name("mathd_algebra_142".into())
        );
        // Not directly above: a blank line separates it.
        assert_eq!(
            directive("-- @reference R.lean::x\n\ntheorem cand : True := trivial"),
            None
        );
        assert_eq!(directive("theorem cand : True := trivial"), None);
    }

    #[test]
    fn bad_directives_name_file_and_line() {
        for (t, line) in [
            ("\n-- @reference\ntheorem cand : True := trivial", 2),
            (
                "\n\n-- @reference two words\ntheorem cand : True := trivial",
                3,
            ),
            ("-- @reference R.lean:: \ntheorem cand : True := trivial", 1),
        ] {
            let e = directive(t).unwrap().unwrap_err();
            assert_eq!(e.line, line, "{t:?}");
            assert!(
                e.to_string().starts_with(&format!("/w/C.lean:{line}: ")),
                "{e}"
            );
        }
    }

    #[test]
    fn dataset_bad_lines_are_reported_and_skipped() {
        let text = "{\"name\":\"a\",\"formal_statement\":\"theorem a : True := sorry\"}\n\nnot json\n{\"name\":\"b\"}\n";
        let (ds, errs) = Dataset::parse(text, Path::new("refs.jsonl"));
        assert_eq!(ds.entries.len(), 1);
        assert_eq!(ds.entries["a"].line, 1);
        let lines: Vec<usize> = errs.iter().map(|e| e.line).collect();
        assert_eq!(lines, [3, 4]);
        assert!(errs[1].to_string().starts_with("refs.jsonl:4: "));
    }

    #[test]
    fn precedence_directive_then_pair_then_name() {
        let cfg = Config::parse(GOOD, Path::new("/w/lean-assess.toml")).unwrap();
        let doc = Path::new("/w/Autoformalized.lean");
        let d = Directive {
            line: 4,
            spec: DirectiveSpec::Name("n".into()),
        };
        let s = source_for(doc, Some("my_favorite_theorem"), Some(&d), Some(&cfg)).unwrap();
        assert_eq!(s.origin(), "directive at Autoformalized.lean:5");
        let s = source_for(doc, Some("my_favorite_theorem"), None, Some(&cfg)).unwrap();
        assert!(matches!(&s, ReferenceSource::Theorem { target, .. }
            if target.name.as_deref() == Some("mathd_algebra_142")));
        assert_eq!(s.origin(), "lean-assess.toml:6");
        let s = source_for(doc, Some("other"), None, Some(&cfg)).unwrap();
        assert_eq!(
            s,
            ReferenceSource::Named {
                name: "other".into(),
                origin: "lean-assess.toml (by name)".into()
            }
        );
        assert_eq!(source_for(doc, Some("other"), None, None), None);
    }

    #[test]
    fn uris_and_paths_round_trip() {
        let p = Path::new("/home/u/My Proj/Ünïcode ℝ.lean");
        let uri = path_to_uri(p);
        assert_eq!(
            uri,
            "file:///home/u/My%20Proj/%C3%9Cn%C3%AFcode%20%E2%84%9D.lean"
        );
        assert_eq!(uri_to_path(&uri).unwrap(), p);
        assert_eq!(uri_to_path("untitled:Untitled-1"), None);
        assert_eq!(uri_to_path("file:///bad%zz").unwrap(), Path::new("/bad%zz"));
        assert_eq!(
            uri_to_path("file:///trailing%4").unwrap(),
            Path::new("/trailing%4")
        );
    }

    proptest::proptest! {
        /// Arbitrary config text, document text and offsets: an error or a value, never a panic.
        #[test]
        fn arbitrary_input_never_panics(
            cfg in "[\\[\\]a-z_=\"\\n .:0-9-]{0,80}",
            doc in "[-@a-z :ℝ𝔽\\n.]{0,80}",
            at in 0usize..100,
        ) {
            let _ = Config::parse(&cfg, Path::new("/w/lean-assess.toml"));
            let _ = directive_above(&doc, at, Path::new("/w/C.lean"), Path::new("/w"));
            let _ = Dataset::parse(&doc, Path::new("d.jsonl"));
            let _ = line_of(&doc, at);
        }
    }
}
