//! Our commands, run by `workspace/executeCommand` from a lens or a code action: show the
//! differences (as diagnostics), the details and the proof path (read-only markdown views the
//! editor opens), and "use as reference" (a workspace edit writing the reference down, as a
//! directive or a `[[reference.pair]]`). The command names are `views::Commands`'; what the
//! views say is `views`'s.

use super::jobs::{self, DocAnalysis, MetricState, ResultCache, TheoremView};
use super::{views, Features, OwnError, ToEditor};
use crate::config::Config;
use crate::documents::Document;
use crate::files::{path_to_uri, uri_to_path};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// JSON-RPC InvalidParams.
const INVALID_PARAMS: i64 = -32602;
/// LSP ContentModified: the request was computed for an outdated document version.
const CONTENT_MODIFIED: i64 = -32801;

impl Features {
    /// The theorem a command's `[uri, name]` arguments name, in the document's current
    /// analysis: refused when that analysis is of another version.
    fn theorem(&self, args: &Value) -> Result<(Arc<Document>, Arc<DocAnalysis>, usize), OwnError> {
        let bad = |m: &str| OwnError { code: INVALID_PARAMS, message: m.to_string() };
        let uri = args[0].as_str().ok_or_else(|| bad("arguments: [uri, name]"))?;
        let name = args[1].as_str();
        let doc = self.inner.docs.get(uri).ok_or_else(|| bad("document is not open"))?;
        let a = self.analysis(uri).ok_or_else(|| bad("document not analysed yet"))?;
        if a.version != doc.version {
            // Offsets in the analysis belong to another text: refuse rather than misplace edits.
            return Err(OwnError {
                code: CONTENT_MODIFIED,
                message: "the document changed; lean-assess is judging the new version".into(),
            });
        }
        let i = a
            .theorems
            .iter()
            .position(|t| t.name() == name)
            .ok_or_else(|| bad("no such theorem with a reference"))?;
        Ok((doc, a, i))
    }

    /// Run our command `params.command` on the theorem its arguments name.
    pub(super) async fn execute(&self, params: &Value) -> Result<Value, OwnError> {
        let cmd = params["command"].as_str().unwrap_or("");
        let args = &params["arguments"];
        let (doc, mut a, mut i) = self.theorem(args)?;
        // Asked while the first round still runs: wait (bounded) for the differences.
        let deadline = Instant::now() + Duration::from_secs(5);
        while a.theorems[i].distance.is_none()
            && a.theorems[i].problem.is_none()
            && Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
            (_, a, i) = self.theorem(args)?;
        }
        let t = &a.theorems[i];
        let c = &self.inner.commands;
        if cmd == c.show_differences {
            let diags = views::difference_diagnostics(&doc, t);
            if diags.is_empty() {
                self.inner.outbox.show_message(
                    3,
                    format!(
                        "lean-assess: `{}` has no differences to show ({})",
                        t.name().unwrap_or(""),
                        t.problem.clone().unwrap_or_else(|| "same tree as the reference".into())
                    ),
                );
            }
            self.inner.diagnostics.show(&a.uri, diags);
            self.publish(&a.uri);
        } else if cmd == c.show_details {
            let text = details_markdown(t, &a.candidate_header);
            self.show_view(&doc.uri, t, "details", &text);
        } else if cmd == c.show_proof_path {
            let text = self.proof_path(&a, i).await;
            self.show_view(&doc.uri, t, "proof-path", &text);
        } else if cmd == c.use_as_reference {
            self.use_as_reference(&doc, t)?;
        }
        Ok(Value::Null)
    }

    /// The proof path view of theorem `i`: the Lean-backed `transted`'s path and witness when
    /// the lens has them, else `transted-lite`'s (run here when the lens lacks it).
    async fn proof_path(&self, a: &DocAnalysis, i: usize) -> String {
        let t = &a.theorems[i];
        let mut s = format!(
            "# Proof path for `{}`\n\nReference: `{}` ({})\n\n",
            t.name().unwrap_or(""),
            t.reference.as_ref().and_then(|r| r.name.as_deref()).unwrap_or("?"),
            t.reference.as_ref().map_or("", |r| r.origin.as_str()),
        );
        // The Lean-backed `transted` when the lens has it (its path checks in Lean, and its
        // witness is the standalone example), else `transted-lite`.
        let lean_done = t.metrics.iter().find_map(|(m, st)| match st {
            MetricState::Done(r) if m == "transted" => Some(Ok(r.clone())),
            _ => None,
        });
        let witness = match (&lean_done, &t.reference, &t.candidate) {
            (Some(_), Some(rv), Some(c)) => self.inner.lean_lens.witness(ResultCache::key(
                "transted",
                rv,
                &c.source,
                &a.candidate_header,
                &self.inner.settings.toolchain(),
            )),
            _ => None,
        };
        let existing = lean_done.or_else(|| {
            t.metrics.iter().find_map(|(m, st)| match st {
                MetricState::Done(r) if m == "transted-lite" => Some(Ok(r.clone())),
                _ => None,
            })
        });
        let report = match existing {
            Some(r) => r,
            None => match jobs::statements(a, i) {
                None => Err(t.problem.clone().unwrap_or_else(|| "no parsed pair".into())),
                Some((r, c, h, _)) => {
                    let timeout = Config::default().offline_timeout * 5;
                    let ch = a.candidate_header.clone();
                    let deadline = Instant::now() + timeout;
                    let job = tokio::task::spawn_blocking(move || {
                        jobs::run_metric("transted-lite", &r, &c, &h, &ch, deadline)
                    });
                    match tokio::time::timeout(timeout, job).await {
                        Ok(Ok(r)) => r,
                        Ok(Err(e)) => Err(e.to_string()),
                        Err(_) => Err(format!("timed out after {timeout:?}")),
                    }
                }
            },
        };
        // The lens's verdict is its metrics'. When none of them searches rewrites (no
        // `transted`/`transted-lite` in `lens`), the path shown is another metric's, run for this
        // view: say so, and say when that metric shows what the lens's do not, so the view never
        // reads as a contradiction of the lens's "not shown".
        let lens: Vec<&str> = t.metrics.iter().map(|(m, _)| m.as_str()).collect();
        let foreign = !lens.iter().any(|m| *m == "transted" || *m == "transted-lite");
        if foreign {
            s.push_str(&format!(
                "The lens shows {}: {} rewrites, so {} no proof path, and the lens's verdict \
                 is {}. The path below is transted-lite's, which is not in the lens, run for \
                 this view.\n\n",
                and_list(&lens),
                if lens.len() == 1 { "it searches no" } else { "none of them searches" },
                if lens.len() == 1 { "it has" } else { "they have" },
                if lens.len() == 1 { "its" } else { "theirs" },
            ));
        }
        match report {
            Ok(r) => {
                // `transted-lite` at distance 0 is its proof of equivalence
                // (`metrics::equivalence`).
                let shows_equivalence = r.metric == "transted-lite" && r.distance == Some(0);
                let lens_equivalent =
                    views::overall(t, &a.candidate_header).is_some_and(|(v, _)| v.is_equivalent());
                if foreign && shows_equivalence && !lens_equivalent {
                    s.push_str(
                        "transted-lite shows the two statements equivalent; the lens's metrics do \
                         not. For the lens to show it, add \"transted-lite\" to `lens` under \
                         `[metrics]` in lean-assess.toml.\n\n",
                    );
                }
                if r.path.is_empty() {
                    s.push_str("No transformation brought the pair closer: the path is empty.\n");
                }
                for (k, step) in r.path.iter().enumerate() {
                    s.push_str(&format!(
                        "{}. `{}` on the {} at `{}`\n",
                        k + 1,
                        step.rule,
                        step.side,
                        step.at
                    ));
                }
                s.push_str(&format!(
                    "\nFinal: {}, in {}.\n",
                    views::described(r.metric, &r),
                    views::fmt_ms(r.elapsed)
                ));
                for n in &r.notes {
                    s.push_str(&format!("\n- {n}"));
                }
            }
            Err(e) => s.push_str(&format!("No path: {e}\n")),
        }
        if let Some(w) = witness {
            s.push_str(&format!(
                "\n\n## Witness (checks on its own in Lean)\n\n```lean\n{}\n```\n",
                w.trim_end()
            ));
        }
        s
    }

    /// Write a read-only markdown view under the cache dir and open it (window/showDocument),
    /// or show a message when the editor cannot open documents for us.
    fn show_view(&self, uri: &str, t: &TheoremView, kind: &str, text: &str) {
        let supports = self.inner.settings.show_document();
        let file = write_view(uri, t.name().unwrap_or("example"), kind, text);
        match (supports, file) {
            (true, Ok(path)) => self.inner.outbox.send(ToEditor::Request {
                method: "window/showDocument".into(),
                params: json!({"uri": path_to_uri(&path), "takeFocus": true}),
            }),
            (_, Err(e)) => {
                tracing::warn!(%e, "writing a view");
                self.inner.outbox.send(ToEditor::Notification {
                    method: "window/showMessage".into(),
                    params: json!({"type": 3, "message": text}),
                });
            }
            (false, Ok(_)) => self.inner.outbox.send(ToEditor::Notification {
                method: "window/showMessage".into(),
                params: json!({"type": 3, "message": text}),
            }),
        }
    }

    /// Write the reference down: a directive above the theorem when it came from the config,
    /// or a `[[reference.pair]]` in the config when it came from a directive naming a theorem.
    fn use_as_reference(&self, doc: &Document, t: &TheoremView) -> Result<(), OwnError> {
        let Some(r) = &t.reference else {
            return Err(OwnError {
                code: INVALID_PARAMS,
                message: "theorem has no reference".into(),
            });
        };
        let doc_path = uri_to_path(&doc.uri);
        let edit = if r.origin.starts_with("directive") {
            let (Some(file), Some(name), Some(dp), Some(cand)) =
                (&r.file, &r.name, &doc_path, t.name())
            else {
                self.inner.outbox.show_message(
                    3,
                    format!(
                    "lean-assess: the reference of `{}` is written inline in its directive already",
                    t.name().unwrap_or("")
                ),
                );
                return Ok(());
            };
            let root =
                self.inner.settings.workspace_root().or_else(|| dp.parent().map(Path::to_path_buf));
            let cfg_path = match self.inner.settings.config_for(Some(dp)) {
                Some(Ok(c)) => c.path.clone(),
                _ => root.unwrap_or_default().join(crate::config::CONFIG_FILE_NAME),
            };
            let base = cfg_path.parent().unwrap_or(Path::new("/"));
            let rel = |p: &Path| p.strip_prefix(base).unwrap_or(p).display().to_string();
            let entry =
                pair_entry_toml(&format!("{}::{cand}", rel(dp)), &format!("{}::{name}", rel(file)))
                    .map_err(|e| OwnError {
                        code: INVALID_PARAMS,
                        message: format!("cannot write the reference pair as TOML: {e}"),
                    })?;
            let existing = std::fs::read_to_string(&cfg_path).unwrap_or_default();
            let end = Document::new("", 0, existing.as_str()).position_of(existing.len());
            let cfg_uri = path_to_uri(&cfg_path);
            json!({"documentChanges": [
                {"kind": "create", "uri": cfg_uri, "options": {"ignoreIfExists": true}},
                {"textDocument": {"uri": cfg_uri, "version": null},
                 "edits": [{"range": {"start": end, "end": end}, "newText": entry}]}
            ]})
        } else {
            let spec = match (&r.file, &doc_path) {
                (Some(f), Some(dp)) => {
                    let dir = dp.parent().unwrap_or(Path::new("/"));
                    let rel = f.strip_prefix(dir).unwrap_or(f).display().to_string();
                    format!("{rel}::{}", r.name.as_deref().unwrap_or(""))
                }
                _ => r.name.clone().unwrap_or_default(),
            };
            // A line break in the spec would end the comment and put the rest into the
            // document as Lean code.
            if spec.chars().any(char::is_control) {
                return Err(OwnError {
                    code: INVALID_PARAMS,
                    message: format!(
                        "cannot write `-- @reference {}`: the reference has a control character",
                        spec.escape_default()
                    ),
                });
            }
            let line_start = doc.text()[..t.decl.start].rfind('\n').map_or(0, |i| i + 1);
            let p = doc.position_of(line_start);
            json!({"documentChanges": [
                {"textDocument": {"uri": doc.uri, "version": doc.version},
                 "edits": [{"range": {"start": p, "end": p},
                            "newText": format!("-- @reference {spec}\n")}]}
            ]})
        };
        if !self.inner.settings.apply_edit() {
            return Err(OwnError {
                code: INVALID_PARAMS,
                message: "the editor does not support workspace/applyEdit".into(),
            });
        }
        self.inner.outbox.send(ToEditor::Request {
            method: "workspace/applyEdit".into(),
            params: json!({"label": "lean-assess: use as reference", "edit": edit}),
        });
        Ok(())
    }
}

/// One `[[reference.pair]]` entry, appended to a config: written by the `toml` serializer, so
/// any name (quotes, backslashes, control characters, any Unicode) comes out as valid TOML
/// that reads back as the same string. Rust's `{:?}` is not TOML (`\u{1b}` is not a TOML
/// escape).
fn pair_entry_toml(candidate: &str, reference: &str) -> Result<String, toml::ser::Error> {
    #[derive(serde::Serialize)]
    struct Pair<'a> {
        candidate: &'a str,
        reference: &'a str,
    }
    #[derive(serde::Serialize)]
    struct Reference<'a> {
        pair: [Pair<'a>; 1],
    }
    #[derive(serde::Serialize)]
    struct Entry<'a> {
        reference: Reference<'a>,
    }
    let entry = Entry { reference: Reference { pair: [Pair { candidate, reference }] } };
    Ok(format!("\n{}", toml::to_string(&entry)?))
}

/// The lens click's view: the hover section plus the candidate statement.
fn details_markdown(t: &TheoremView, candidate_header: &str) -> String {
    let mut s = format!("# lean-assess: `{}`\n\n", t.name().unwrap_or("example"));
    s.push_str(&views::hover_section(t, candidate_header));
    if let Some(c) = &t.candidate {
        s.push_str(&format!("\nCandidate statement:\n```lean\n{}\n```\n", c.source.trim()));
    }
    s
}

/// Where views are written: `$XDG_CACHE_HOME/lean-assess/views`, `~/.cache/...`, else the
/// temp dir.
fn views_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("lean-assess").join("views")
}

/// Write `text` as the read-only `kind` view of theorem `name` of `uri`; the file's path.
fn write_view(uri: &str, name: &str, kind: &str, text: &str) -> std::io::Result<PathBuf> {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let dir = views_dir();
    std::fs::create_dir_all(&dir)?;
    let mut h = DefaultHasher::new();
    (uri, name).hash(&mut h);
    let safe: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '_' || c == '.' { c } else { '_' })
        .collect();
    let path = dir.join(format!("{safe}-{:08x}.{kind}.md", h.finish() as u32));
    // Read-only for the user: remove the old copy (its mode forbids writing), write, chmod.
    let _ = std::fs::remove_file(&path);
    std::fs::write(&path, text)?;
    let mut perm = std::fs::metadata(&path)?.permissions();
    perm.set_readonly(true);
    std::fs::set_permissions(&path, perm)?;
    Ok(path)
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => "no metric".into(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn use_as_reference_writes_valid_toml_for_any_name() {
        let nasty = "Ref \"q\" \\ \u{1b}[31m\u{0}\u{7f}\n\t''' \"\"\" ∀ «x» 🦀";
        let candidate = format!("Cand.lean::{nasty}");
        let reference = format!("R.lean::{nasty}x");
        let existing = "[reference]\nfile = \"R.lean\"\n";
        let text = format!("{existing}{}", pair_entry_toml(&candidate, &reference).unwrap());
        // Read back by the toml parser: the same strings.
        let v: toml::Value = toml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let pair = &v["reference"]["pair"][0];
        assert_eq!(pair["candidate"].as_str(), Some(candidate.as_str()));
        assert_eq!(pair["reference"].as_str(), Some(reference.as_str()));
        assert_eq!(v["reference"]["file"].as_str(), Some("R.lean"));
        // And by the config loader.
        let cfg = Config::parse(&text, Path::new("/w/lean-assess.toml")).expect("config");
        assert_eq!(cfg.pairs.len(), 1);
        let want = format!("{nasty}x");
        assert_eq!(cfg.pairs[0].reference.name.as_deref(), Some(want.trim()));
    }
}
