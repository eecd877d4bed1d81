//! Golden models of every routing algorithm in the papers, and the checks that prove them.
//!
//! The models are exact software references: hardware generated later is compared with them
//! route by route. [`paths`] checks any set of node-disjoint paths on a [`Digraph`], and
//! [`flow`] computes the independent min-cost-flow optimum they are measured against.
//!
//! [`Digraph`]: crate::topology::digraph::Digraph

pub mod debruijn;
pub mod disjoint;
pub mod flow;
pub mod kautz;
pub mod ldi;
pub mod mrns;
pub mod paths;
pub mod torus;
pub mod torus_cdg;
