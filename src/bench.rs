//! Placeholder: benchmarks.
