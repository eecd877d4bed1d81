//! Placeholder: the Kautz route generator.
