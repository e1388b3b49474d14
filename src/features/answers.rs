//! The editor requests answered from the stored analysis, never waiting for a job: the code
//! lenses (the proxy's own answer; "pending" at the current positions while the analysis is of
//! an older version), and our part of Lean's hover and code actions. What the items say is
//! `views`'s; the integrity lenses are `integrity`'s.

use super::engine;
use super::jobs::{DocAnalysis, MetricState, TheoremView};
use super::{lock, views, Features, JsonText};
use crate::documents::Document;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;

impl Features {
    /// `textDocument/codeLens`: from the analysis when current, else "pending" lenses at the
    /// current positions of the theorems that had a reference.
    pub(super) fn code_lenses(&self, params: &Value) -> JsonText {
        let none = || JsonText::of(&json!([]));
        let Some(uri) = params["textDocument"]["uri"].as_str() else {
            return none();
        };
        let Some(doc) = self.inner.docs.get(uri) else {
            return none();
        };
        let Some(a) = self.analysis(uri) else {
            return none();
        };
        if a.version == doc.version {
            let mut titles = lock(&self.inner.lens_titles);
            let titles = titles.entry(uri.to_string()).or_default();
            let text = views::lenses_with(&a, &self.inner.commands, titles);
            return JsonText::joined(text);
        }
        let mut pending = DocAnalysis {
            uri: a.uri.clone(),
            version: doc.version,
            theorems: Vec::new(),
            problems: Vec::new(),
            candidate_header: a.candidate_header.clone(),
            inputs: a.inputs,
            reference_files: Vec::new(),
            scan: 0,
        };
        // By name, the first in document order, without a scan per declaration.
        let mut by_name: HashMap<&Option<Arc<str>>, &Arc<TheoremView>> = HashMap::new();
        for t in &a.theorems {
            by_name.entry(&t.decl.name).or_insert(t);
        }
        for d in engine::declarations(doc.text()) {
            if let Some(old) = by_name.get(&d.name) {
                let mut t = TheoremView::clone(old);
                t.at = doc.position_of(d.start);
                t.decl = d;
                for (_, s) in t.metrics.iter_mut() {
                    if !matches!(s, MetricState::Unavailable(_)) {
                        *s = MetricState::Pending;
                    }
                }
                pending.theorems.push(Arc::new(t));
            }
        }
        JsonText::of(&views::lenses(&pending, &doc, &self.inner.commands))
    }

    /// Lean's hover `result` with the section of the theorem whose name is at the requested
    /// position, if any (`a` is of `doc`'s version).
    pub(super) fn augment_hover(
        &self,
        request_params: &Value,
        doc: &Document,
        a: &DocAnalysis,
        result: Value,
    ) -> Value {
        let Ok(pos) = serde_json::from_value(request_params["position"].clone()) else {
            return result;
        };
        let off = doc.offset_of(pos);
        let Some(t) = a
            .theorems
            .iter()
            .find(|t| t.decl.name_range.is_some_and(|(s, e)| s <= off && off <= e))
        else {
            return result;
        };
        let (s, e) = t.decl.name_range.unwrap_or((off, off));
        let ours = views::hover_section(t, &a.candidate_header);
        views::augment_hover(result, &ours, json!(doc.range_of(s, e)))
    }

    /// Lean's code actions `result` with ours for the theorems with a reference in the
    /// requested range appended (`a` is of `doc`'s version).
    pub(super) fn augment_code_actions(
        &self,
        request_params: &Value,
        doc: &Document,
        a: &DocAnalysis,
        result: Value,
    ) -> Value {
        if !views::kind_wanted(request_params) {
            return result;
        }
        let Ok(range) = serde_json::from_value::<lsp_types::Range>(request_params["range"].clone())
        else {
            return result;
        };
        let (s, e) = (doc.offset_of(range.start), doc.offset_of(range.end));
        let mut ours = Vec::new();
        for t in &a.theorems {
            if t.reference.is_some() && t.decl.start <= e && s <= t.decl.end {
                ours.extend(views::actions(a, t, &self.inner.commands));
            }
        }
        if ours.is_empty() {
            return result;
        }
        match result {
            Value::Array(mut v) => {
                v.extend(ours);
                Value::Array(v)
            }
            Value::Null => Value::Array(ours),
            other => other,
        }
    }
}
