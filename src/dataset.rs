//! Dataset files (JSONL pairs). (Being written.)
