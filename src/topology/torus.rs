//! Placeholder: filled in by the torus golden-model work.
