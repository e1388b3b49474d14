//! Tree output formats: indented text, contract JSON, Graphviz dot. (Being written.)
