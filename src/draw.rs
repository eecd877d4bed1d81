//! Placeholder: drawing.
