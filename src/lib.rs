//! lean-assess: judge a Lean 4 autoformalization against a reference formalization.
//!
//! ```text
//!  VS Code / Neovim                lean-assess (one binary)                  Lean
//!  ───────────────   stdio   ┌──────────────────────────────────┐  stdio  ────────────
//!  Lean 4 extension ◀──────▶ │ wire: Content-Length framing      │ ◀─────▶ lake serve
//!  lean.nvim                 │ router: forward both ways, in     │
//!                            │   order; own ids; merge caps      │
//!                            │ documents: mirror of open files   │
//!                            │ references: where a theorem's     │
//!                            │   reference statement comes from  │
//!                            │ lean: own requests, hidden        │
//!                            │   scratch documents, RPC goals    │
//!                            │ engine: trees, distance, metrics  │
//!                            │ features: code lens, hover,       │
//!                            │   code actions, commands          │
//!                            └──────────────────────────────────┘
//!  CLI (score, tree, ted, bench) uses the same engine, with or without a Lean server.
//! ```
//!
//! The engine (`trees`, `distance`, `metrics`, `evaluation`, `dataset`) needs no Lean at all.

pub mod cli;
pub mod config;
pub mod dataset;
pub mod differences;
pub mod distance;
pub mod documents;
pub mod elab;
pub mod evaluation;
pub mod features;
pub mod files;
pub mod integrity;
pub mod lean;
pub mod llm;
pub mod metrics;
pub mod pending;
pub mod predictions;
pub mod references;
pub mod report;
pub mod router;
pub mod search;
pub mod trees;
pub mod wire;
