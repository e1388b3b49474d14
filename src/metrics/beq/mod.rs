//! BEq (metric `beq`): bidirectional extended definitional equivalence, driven over a narrow
//! [`ProofChecker`] that the Lean side implements.
pub mod prompt;
pub mod tactics;
