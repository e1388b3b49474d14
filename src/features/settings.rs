//! Configuration as the features see it: what `serve` was given ([`FeaturesConfig`]), what the
//! editor said in `initialize` (workspace folders, capabilities), the layered
//! `lean-assess.toml` per document (re-read when a layer changes) and the workspace's Lean
//! toolchain. Owns [`Settings`]; parsing a config is `references`'s, asking for LLM consent
//! `consent`'s.

use super::lock;
use crate::config::Config;
use crate::files::uri_to_path;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// What `serve` hands the features: the config file (`--config`; `LEAN_ASSESS_CONFIG` is read
/// here when absent) and the workspace root the server runs in.
#[derive(Debug, Clone, Default)]
pub struct FeaturesConfig {
    pub config_path: Option<PathBuf>,
    pub workspace_root: Option<PathBuf>,
}

/// What the editor said it supports (from `initialize` params).
#[derive(Debug, Default, Clone)]
struct ClientInfo {
    root: Option<PathBuf>,
    /// `rootUri`/`rootPath` and every `workspaceFolders` entry: where references may be read.
    folders: Vec<PathBuf>,
    lens_refresh: bool,
    show_document: bool,
    apply_edit: bool,
}

/// A layered config as last read: each layer's modification time and size, and what they
/// parsed to.
type ConfigEntry = (Vec<Option<(SystemTime, u64)>>, Result<Arc<Config>, crate::files::FileError>);

/// The server's and the editor's settings, the configs read, and the toolchain.
pub(super) struct Settings {
    cfg: FeaturesConfig,
    env_config: Option<PathBuf>,
    client: Mutex<ClientInfo>,
    /// Layered configs read, by their layers' paths (lowest first).
    configs: Mutex<HashMap<Vec<PathBuf>, ConfigEntry>>,
    toolchain: Mutex<Option<String>>,
}

impl Settings {
    pub(super) fn new(cfg: FeaturesConfig) -> Settings {
        let env_config = std::env::var_os(crate::config::CONFIG_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        Settings {
            cfg,
            env_config,
            client: Mutex::default(),
            configs: Mutex::default(),
            toolchain: Mutex::new(None),
        }
    }

    /// The editor's `initialize` params: workspace root and client capabilities.
    pub(super) fn note_initialize(&self, params: &Value) {
        let caps = &params["capabilities"];
        let root = params
            .get("rootUri")
            .and_then(Value::as_str)
            .or_else(|| params["workspaceFolders"][0]["uri"].as_str())
            .and_then(uri_to_path)
            .or_else(|| params.get("rootPath").and_then(Value::as_str).map(PathBuf::from));
        let mut folders: Vec<PathBuf> = params["workspaceFolders"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f["uri"].as_str().and_then(uri_to_path))
            .collect();
        folders.extend(root.clone());
        let mut c = lock(&self.client);
        c.root = root;
        c.folders = folders;
        c.lens_refresh = caps["workspace"]["codeLens"]["refreshSupport"].as_bool() == Some(true);
        c.show_document = caps["window"]["showDocument"]["support"].as_bool() == Some(true);
        c.apply_edit = caps["workspace"]["applyEdit"].as_bool() == Some(true);
    }

    /// Whether the editor refreshes its lenses when asked (`workspace/codeLens/refresh`).
    pub(super) fn lens_refresh(&self) -> bool {
        lock(&self.client).lens_refresh
    }

    /// Whether the editor opens documents for us (`window/showDocument`).
    pub(super) fn show_document(&self) -> bool {
        lock(&self.client).show_document
    }

    /// Whether the editor applies our edits (`workspace/applyEdit`).
    pub(super) fn apply_edit(&self) -> bool {
        lock(&self.client).apply_edit
    }

    /// Folders references may be read from besides the config's and the Lake project's: the
    /// server's working directory and the editor's workspace folders.
    pub(super) fn extra_roots(&self) -> Vec<PathBuf> {
        self.cfg
            .workspace_root
            .iter()
            .cloned()
            .chain(lock(&self.client).folders.iter().cloned())
            .collect()
    }

    /// The server's workspace root, else the editor's.
    pub(super) fn workspace_root(&self) -> Option<PathBuf> {
        self.cfg.workspace_root.clone().or_else(|| lock(&self.client).root.clone())
    }

    /// The workspace's `lean-toolchain` (empty when none), read once.
    pub(super) fn toolchain(&self) -> String {
        let mut t = lock(&self.toolchain);
        if let Some(t) = &*t {
            return t.clone();
        }
        let v = self
            .workspace_root()
            .and_then(|r| std::fs::read_to_string(r.join("lean-toolchain")).ok())
            .map(|s| s.trim().to_string())
            .unwrap_or_default();
        *t = Some(v.clone());
        v
    }

    /// The config for a document (explicit, env, or found by walking up), re-read when changed.
    pub(super) fn config_for(
        &self,
        doc_path: Option<&Path>,
    ) -> Option<Result<Arc<Config>, crate::files::FileError>> {
        let root = self.workspace_root();
        let user_file = crate::config::user_config_file();
        let layers = crate::config::config_layers(
            self.cfg.config_path.as_deref(),
            self.env_config.as_deref(),
            user_file.as_deref(),
            doc_path.unwrap_or(Path::new("/")),
            root.as_deref(),
        );
        if layers.is_empty() {
            return None;
        }
        // Modification time and size of every layer: coarse-mtime filesystems still see most
        // rewrites.
        let stamp: Vec<_> = layers
            .iter()
            .map(|l| std::fs::metadata(&l.path).and_then(|m| Ok((m.modified()?, m.len()))).ok())
            .collect();
        let key: Vec<PathBuf> = layers.iter().map(|l| l.path.clone()).collect();
        let mut cache = lock(&self.configs);
        if let Some((t, c)) = cache.get(&key) {
            if *t == stamp && stamp.iter().all(Option::is_some) {
                return Some(c.clone());
            }
        }
        let c = Config::load_layers(&layers).map(Arc::new);
        match &c {
            Ok(cfg) => tracing::info!(
                layers = ?key,
                "config for {}: {}",
                doc_path.map_or(String::new(), |p| p.display().to_string()),
                cfg.describe().join("; ")
            ),
            Err(e) => tracing::warn!(%e, "config"),
        }
        cache.insert(key, (stamp, c.clone()));
        Some(c)
    }
}
