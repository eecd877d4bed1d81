//! Placeholder: the de Bruijn digraph.
