//! Placeholder: filled in by the mrns golden-model work.
