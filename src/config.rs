//! The layered configuration: the project's `lean-assess.toml` (found by walking up from the
//! document to the workspace root) with the user's layers over it (the user config file, then
//! `serve --config` or `LEAN_ASSESS_CONFIG`), each key remembering where it came from
//! ([`Origin`]). Every error names a file and a line ([`FileError`]).
//!
//! Owns parsing and validating the keys, and [`ReadableRoots`]: the folders a config and its
//! document let the tool read. What a key does is the business of its reader (the features, the
//! Lean client, the LLM client); it reads no document and resolves no reference.

use crate::files::{
    lake_root, line_of, normalize, read_regular_file, same_file, FileError, MAX_CONFIG_BYTES,
};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;
use toml::Spanned;

/// The config file's name, looked up from the document's directory upwards.
pub const CONFIG_FILE_NAME: &str = "lean-assess.toml";
/// Environment variable naming the config file (set by the VS Code extension).
pub const CONFIG_ENV: &str = "LEAN_ASSESS_CONFIG";

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
        let file = if path.is_absolute() { path.to_path_buf() } else { base.join(path) };
        Some(Target { file, name })
    }

    /// Whether this target names the theorem `name` in the file `file`.
    pub fn matches(&self, file: &Path, name: Option<&str>) -> bool {
        same_file(&self.file, file) && (self.name.is_none() || self.name.as_deref() == name)
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
    pub fn load(path: &Path) -> Result<Config, FileError> {
        Config::load_layers(&[Layer { path: path.to_path_buf(), user: false }])
    }

    /// Read and validate a file the user chose (`--config`): its keys get [`Origin::User`].
    pub fn load_user(path: &Path) -> Result<Config, FileError> {
        Config::load_layers(&[Layer { path: path.to_path_buf(), user: true }])
    }

    /// Layer config files in order: each key takes the value of the last file that sets it
    /// (`[[reference.pair]]` entries accumulate), and [`Config::origins`] records which file
    /// that was. The first error (file and line) stops the load.
    pub fn load_layers(layers: &[Layer]) -> Result<Config, FileError> {
        let mut cfg = Config::default();
        let mut llm = RawLlmMerged::default();
        for layer in layers {
            let text = read_regular_file(&layer.path, MAX_CONFIG_BYTES)
                .map_err(|e| FileError::new(&layer.path, 1, format!("cannot read config: {e}")))?;
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
    pub fn parse(text: &str, path: &Path) -> Result<Config, FileError> {
        let mut cfg = Config { path: path.to_path_buf(), ..Config::default() };
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
                "reference.dataset" => {
                    self.dataset.as_ref().map(|p| p.display().to_string()).unwrap_or_default()
                }
                "reference.pair" => format!("{} pair(s)", self.pairs.len()),
                "metrics.lens" => self.lens.join(", "),
                "metrics.transted_timeout_ms" => self.transted_timeout.as_millis().to_string(),
                "metrics.beq_timeout_ms" => self.beq_timeout.as_millis().to_string(),
                "metrics.offline_timeout_ms" => self.offline_timeout.as_millis().to_string(),
                "llm.base_url" => self.llm.as_ref().map(|l| l.base_url.clone()).unwrap_or_default(),
                "llm.model" => self.llm.as_ref().map(|l| l.model.clone()).unwrap_or_default(),
                "llm.api_key_env" => {
                    self.llm.as_ref().and_then(|l| l.api_key_env.clone()).unwrap_or_default()
                }
                "llm.samples" => self
                    .llm
                    .as_ref()
                    .and_then(|l| l.samples)
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
                _ => String::new(),
            }
        };
        self.origins.iter().map(|(k, o)| format!("{k} = {}  (from {o})", value(k))).collect()
    }

    /// Apply one file's keys over `self`.
    fn apply(
        &mut self,
        text: &str,
        path: &Path,
        origin: Origin,
        llm: &mut RawLlmMerged,
    ) -> Result<(), FileError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(1);
            // toml's message can span lines ("invalid table header\nexpected ..."): one line
            // for the editor's diagnostic and the command line.
            let message = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
            FileError::new(path, line, message)
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut set = |key: &str| {
            self.origins.insert(key.to_string(), origin.clone());
        };
        if let Some(r) = raw.reference {
            let lean_file = |s: &Spanned<String>, what: &str| {
                let v = s.get_ref().trim();
                if v.is_empty() {
                    return Err(FileError::new(
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
                        FileError::new(
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
                    if crate::metrics::registry::spec(n.get_ref()).is_err() {
                        return Err(FileError::new(
                            path,
                            line_of(text, n.span().start),
                            format!(
                                "[metrics] lens: unknown metric {:?} (known: {})",
                                n.get_ref(),
                                crate::metrics::registry::names().collect::<Vec<_>>().join(", ")
                            ),
                        ));
                    }
                    names.push(n.into_inner());
                }
                self.lens = names;
                set("metrics.lens");
            }
            for (ms, field, key) in [
                (m.transted_timeout_ms, &mut self.transted_timeout, "metrics.transted_timeout_ms"),
                (m.beq_timeout_ms, &mut self.beq_timeout, "metrics.beq_timeout_ms"),
                (m.offline_timeout_ms, &mut self.offline_timeout, "metrics.offline_timeout_ms"),
            ] {
                if let Some(v) = ms {
                    *field = Duration::from_millis(v);
                    set(key);
                }
            }
        }
        if let Some(l) = raw.llm {
            let line = line_of(text, l.span().start);
            let l = l.into_inner();
            llm.table_at = Some((path.to_path_buf(), line));
            for (value, field, key) in [
                (l.base_url, &mut llm.base_url, "llm.base_url"),
                (l.model, &mut llm.model, "llm.model"),
                (l.api_key_env, &mut llm.api_key_env, "llm.api_key_env"),
            ] {
                if value.is_some() {
                    *field = value;
                    set(key);
                }
            }
            if let Some(v) = l.samples {
                if v > MAX_LLM_SAMPLES {
                    return Err(FileError::new(
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
    fn finish(self) -> Result<Option<LlmConfig>, FileError> {
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
            (b, _) => Err(FileError::new(
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
        layers.push(Layer { path: p, user: false });
    }
    if let Some(u) = user_file.filter(|u| u.is_file()) {
        layers.push(Layer { path: u.to_path_buf(), user: true });
    }
    if let Some(p) = explicit.or(env) {
        layers.push(Layer { path: p.to_path_buf(), user: true });
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

/// Where reference files (a directive's `FILE.lean`, a pair's file, `[reference] file`, the
/// dataset) may be read from: the workspace — the folder of the config file, the Lake project
/// the document is in (its `.lake/packages`, Mathlib included, lie inside it), the editor's
/// `rootUri`/`workspaceFolders` and the server's working directory — and nothing else. A
/// workspace file can then not make the proxy read (show in hover, send to an LLM) a file such
/// as `-- @reference ../../etc/passwd::root`. Symbolic links are followed before
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) const GOOD: &str = r#"
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
            Target { file: "/w/Reference.lean".into(), name: Some("mathd_algebra_142".into()) }
        );
        assert_eq!(cfg.lens, ["ted", "transted", "beq"]);
        assert_eq!(cfg.beq_timeout, Duration::from_secs(30));
        assert_eq!(cfg.llm.as_ref().unwrap().samples, Some(8));
        let p =
            cfg.pair_for(Path::new("/w/Autoformalized.lean"), Some("my_favorite_theorem")).unwrap();
        assert_eq!(p.reference.name.as_deref(), Some("mathd_algebra_142"));
    }

    #[test]
    fn bad_configs_name_file_and_line() {
        let cases: &[(&str, usize, &str)] = &[
            ("[metrics]\nlens = [\"ted\",\n  \"tedd\"]\n", 3, "unknown metric \"tedd\""),
            ("\n\n[refrence]\nfile = \"R.lean\"\n", 3, "unknown field `refrence`"),
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
            assert!(e.to_string().starts_with(&format!("/w/lean-assess.toml:{line}: ")));
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
        let project = Layer { path: root.join("A").join(CONFIG_FILE_NAME), user: false };
        assert_eq!(
            config_layers(None, None, None, &doc, Some(&root)),
            std::slice::from_ref(&project)
        );
        // A named file (serve --config, else LEAN_ASSESS_CONFIG) layers over the project file.
        let user = |p: &str| Layer { path: p.into(), user: true };
        let explicit = Path::new("/x.toml");
        assert_eq!(
            config_layers(Some(explicit), Some(Path::new("/y.toml")), None, &doc, Some(&root)),
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
            config_layers(None, Some(Path::new("/y.toml")), Some(&user_file), &doc, Some(&root)),
            [project, user(user_file.to_str().unwrap()), user("/y.toml")]
        );
    }

    /// Editor settings that set only `[metrics]` layer over the project file (its
    /// `[reference]` stays, so the lenses do), and each key says where it came from.
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
        assert_eq!(cfg.origin("reference.file"), Some(&Origin::Project(project.clone())));
        assert_eq!(cfg.origin("metrics.lens"), Some(&Origin::User(settings.clone())));
        assert_eq!(cfg.origin("metrics.transted_timeout_ms"), None);
        let lines = cfg.describe();
        assert!(
            lines.iter().any(|l| l.starts_with("metrics.lens = ted  (from user settings ")),
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
        std::fs::write(&settings, "[llm]\nbase_url = \"https://x/v1\"\napi_key_env = \"K\"\n")
            .unwrap();
        let cfg = Config::load_layers(&layers).unwrap();
        let llm = cfg.llm.as_ref().unwrap();
        assert_eq!((llm.base_url.as_str(), llm.model.as_str()), ("https://x/v1", "m"));
        assert!(cfg.origin("llm.model").is_some_and(|o| !o.is_user()));
        assert!(cfg.origin("llm.api_key_env").is_some_and(Origin::is_user));
        std::fs::write(&settings, "\n[llm]\nsamples = 2\n").unwrap();
        let e = Config::load_layers(&layers).unwrap_err();
        assert_eq!((e.file.as_path(), e.line), (settings.as_path(), 2), "{e}");
        assert!(e.message.contains("base_url"), "{e}");
    }
}
