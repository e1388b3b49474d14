//! Elaboration-lite: what a statement's names mean under its header, without Lean.
//!
//! Owns the reading of a header as Lean's commands would leave the scope at the declaration
//! ([`scope::Scope`]: namespace, `open`s with their filters, `open … in`, sections, variables,
//! options, header declarations, and the constructs it does not model), the resolution of a name
//! under that scope as Lean's `resolveGlobalName` does ([`scope::Scope::resolve`], from the table
//! of Mathlib's names in [`mathlib_names`]), and the per-statement pass that writes each free name
//! as the declaration it denotes ([`resolve::resolve_tree`]).
//!
//! Every offline metric asks it the same questions: a rewrite rule fires on a constant only where
//! the name resolves to that constant; two statements under different headers are compared as
//! statements only where their names resolve alike ([`resolve::same_meaning`]). An unknown answer
//! means no rewrite and no verdict.
//!
//! Reads trees and header text only; rewrites names, nothing else; no I/O.

pub mod mathlib_names;
pub mod resolve;
pub mod scope;
