//! Lean 4 statement text → operator tree. (Being written: see the parser work item.)
