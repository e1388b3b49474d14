//! Lean's elaborated statement trees for the job's last round: for each theorem whose
//! reference is a theorem of a document open in the editor, both goals asked through the
//! proxy's own RPC sessions at the first tactic. Replaces the source-text trees only; judging
//! them again is `rounds`'s, the RPC `lean::goals`'s.

use super::engine;
use super::jobs::DocAnalysis;
use super::Features;
use crate::documents::Document;
use crate::files::path_to_uri;
use serde_json::json;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

impl Features {
    /// The elaborated statement tree at `pos`, asked on a task of its own: when an edit aborts
    /// the job, the request still ends by Lean's reply (`-32801` on a changed file) or by the
    /// client's timeout, which sends `$/cancelRequest` — never left pending.
    async fn goal_tree(
        &self,
        uri: &str,
        pos: lsp_types::Position,
    ) -> Result<crate::trees::Tree, crate::lean::goals::GoalsError> {
        const ELABORATION_WAIT: Duration = Duration::from_secs(3);
        let inner = self.inner.clone();
        let u = uri.to_string();
        let task = tokio::spawn(async move {
            inner.rpc.sessions().statement_tree(&*inner.rpc, &u, json!(pos), ELABORATION_WAIT).await
        });
        task.await.unwrap_or_else(|_| {
            Err(crate::lean::goals::GoalsError::Lean {
                uri: uri.to_string(),
                source: crate::lean::LeanError::Closed,
            })
        })
    }

    /// Replace both trees of each theorem by Lean's elaborated ones where Lean can give both:
    /// the candidate, and the reference when it is a theorem of a document open in the editor
    /// (a reference elsewhere would need a hidden document and a full import; not done). Lean
    /// busy (timeout) or absent: the source-text trees stay. Returns whether any changed.
    pub(super) async fn elaborate(&self, a: &mut DocAnalysis) -> bool {
        let Some(doc) = self.inner.docs.get(&a.uri) else {
            return false;
        };
        if doc.version != a.version {
            return false;
        }
        // No reference file open: nothing to elaborate, and no theorem is looked at.
        if !a.reference_files.iter().any(|p| self.inner.docs.get(&path_to_uri(p)).is_some()) {
            return false;
        }
        let mut changed = false;
        let mut ref_decls_by_uri: HashMap<String, Vec<engine::Decl>> = HashMap::new();
        let mut ref_docs: HashMap<PathBuf, (String, Option<Arc<Document>>)> = HashMap::new();
        // The reference file of the last theorem, when it is not open in the editor.
        let mut last_closed: Option<PathBuf> = None;
        for t in a.theorems.iter_mut() {
            let (Some(cand), Some(r)) = (t.candidate.clone(), t.reference.as_ref()) else {
                continue;
            };
            let (Some(ref_stmt), Some(ref_file)) = (r.statement.as_ref(), r.file.as_ref()) else {
                continue;
            };
            // Once per reference file and job: most theorems share one, and most references
            // are not open (nothing is copied for those). The last file asked first: theorems
            // of one file mostly follow each other.
            if last_closed.as_deref() == Some(ref_file.as_path()) {
                continue;
            }
            if !ref_docs.contains_key(ref_file) {
                let u = path_to_uri(ref_file);
                let d = self.inner.docs.get(&u);
                ref_docs.insert(ref_file.clone(), (u, d));
            }
            let Some((ref_uri, Some(ref_doc))) = ref_docs.get(ref_file).cloned() else {
                last_closed = Some(ref_file.clone());
                continue;
            };
            let ref_stmt = ref_stmt.clone();
            // Once per reference document and job, not once per theorem.
            let ref_decls = ref_decls_by_uri
                .entry(ref_uri.clone())
                .or_insert_with(|| engine::declarations(ref_doc.text()));
            let Some(ref_decl) = ref_decls.iter().find(|d| d.name.as_deref() == r.name.as_deref())
            else {
                continue;
            };
            let (Some(cp), Some(rp)) = (
                proof_position(&doc, t.decl.statement_end),
                proof_position(&ref_doc, ref_decl.statement_end),
            ) else {
                continue;
            };
            let c_tree = match self.goal_tree(&a.uri, cp).await {
                Ok(tree) => tree,
                Err(e) => {
                    tracing::debug!(%e, "no elaborated candidate tree; source text it is");
                    if matches!(
                        e,
                        crate::lean::goals::GoalsError::Lean {
                            source: crate::lean::LeanError::Closed,
                            ..
                        }
                    ) {
                        return changed; // no Lean at all: stop asking
                    }
                    continue;
                }
            };
            let r_tree = match self.goal_tree(&ref_uri, rp).await {
                Ok(tree) => tree,
                Err(e) => {
                    tracing::debug!(%e, "no elaborated reference tree; source text it is");
                    continue;
                }
            };
            let t = Arc::make_mut(t);
            t.candidate =
                Some(Arc::new(crate::trees::Statement { tree: c_tree, ..(*cand).clone() }));
            if let Some(r) = t.reference.as_mut() {
                r.statement =
                    Some(Arc::new(crate::trees::Statement { tree: r_tree, ..(*ref_stmt).clone() }));
                // Elaborated results are cached apart from the source-text ones.
                r.header.push_str("\n-- lean-assess: elaborated");
            }
            t.elaborated = true;
            changed = true;
        }
        changed
    }
}

/// Where to ask for the goal that is the statement itself: the first tactic after `:= by`
/// (fixtures/lean-protocol/README §11). Term-mode proofs have no tactic goal: `None`.
fn proof_position(doc: &Document, statement_end: usize) -> Option<lsp_types::Position> {
    let text = doc.text();
    let rest = text.get(statement_end..)?.strip_prefix(":=")?;
    let after = rest.trim_start();
    let tactics = after.strip_prefix("by")?;
    if tactics.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None; // an identifier such as `byContra`, not the `by` keyword
    }
    let first = tactics.trim_start();
    Some(doc.position_of(text.len() - first.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proof_position_is_the_first_tactic() {
        let d = Document::new("u", 0, "theorem t : 𝔽 := by\n  simp\n");
        let se = d.text().find(":=").unwrap();
        assert_eq!(proof_position(&d, se), Some(lsp_types::Position { line: 1, character: 2 }));
        let d = Document::new("u", 0, "theorem t : True := trivial");
        assert_eq!(proof_position(&d, d.text().find(":=").unwrap()), None);
    }
}
