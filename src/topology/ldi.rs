//! Placeholder: filled in by the ldi golden-model work.
