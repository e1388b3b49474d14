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
//! Four layers, each importing only from itself and the layers listed before it
//! (`tests/layers.rs` holds them; docs/architecture.md says what each module owns):
//! - base, no Lean, no LSP session, no network: the engine (`trees`, `elab`, `distance`,
//!   `search`, the offline metrics in `metrics`, `differences`, `evaluation`, `dataset`,
//!   `predictions`, `integrity`'s checks), LSP framing and request tables (`wire`, `pending`),
//!   the layered configuration and bounded file reading (`config`, `files`);
//! - Lean: `lean` (the server process, the oracle, goals, scratch files, the batch runner), the
//!   metrics that need Lean (`metrics::{transted, beq, beq_plus, defeq, lean_backed}`),
//!   `integrity::lean`, `llm`;
//! - proxy: `router`, `documents`, `references`, `features`;
//! - app: `cli` (with the MCP server), `report`.

// base
pub mod config;
pub mod dataset;
pub mod differences;
pub mod distance;
pub mod elab;
pub mod evaluation;
pub mod files;
pub mod integrity;
pub mod metrics;
pub mod pending;
pub mod predictions;
pub mod search;
pub mod trees;
pub mod wire;

// Lean
pub mod lean;
pub mod llm;

// proxy
pub mod documents;
pub mod features;
pub mod references;
pub mod router;

// app
pub mod cli;
pub mod report;
