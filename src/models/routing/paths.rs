//! Property checks for a set of paths between two nodes of a [`Digraph`].
//!
//! Every routing model that promises node-disjoint paths is checked here: each path must be
//! a walk along arcs from the source to the destination, visit no node twice, and share no
//! node other than the two ends with any other path of the set. A violation names the path
//! and node at fault, so that a failing exhaustive test can say exactly what went wrong.

use crate::topology::digraph::Digraph;
use thiserror::Error;

/// A path as the sequence of nodes it visits, source first and destination last.
pub type NodePath = Vec<usize>;

/// Why a set of paths is not a set of node-disjoint paths from `src` to `dst`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PathViolation {
    #[error("path {path} does not run from {src} to {dst}")]
    WrongEnds { path: usize, src: usize, dst: usize },
    #[error("path {path} steps from {from} to {to}, which is not an arc")]
    NotAnArc { path: usize, from: usize, to: usize },
    #[error("path {path} visits node {node} twice")]
    Loop { path: usize, node: usize },
    #[error("paths {first} and {second} share node {node}")]
    Shared {
        first: usize,
        second: usize,
        node: usize,
    },
}

/// Checks that `paths` are loop-free walks from `src` to `dst` in `graph` that pairwise share
/// no node but the two ends. Paths are numbered from 0 in the violation.
pub fn check_node_disjoint(
    graph: &Digraph,
    src: usize,
    dst: usize,
    paths: &[NodePath],
) -> Result<(), PathViolation> {
    // owner[v] = the first path that visited v as an inner node.
    let mut owner = vec![usize::MAX; graph.node_count()];
    for (p, path) in paths.iter().enumerate() {
        if path.len() < 2 || path[0] != src || path[path.len() - 1] != dst {
            return Err(PathViolation::WrongEnds { path: p, src, dst });
        }
        for step in path.windows(2) {
            if !graph.has_arc(step[0], step[1]) {
                return Err(PathViolation::NotAnArc {
                    path: p,
                    from: step[0],
                    to: step[1],
                });
            }
        }
        let mut seen = path.clone();
        seen.sort_unstable();
        if let Some(w) = seen.windows(2).find(|w| w[0] == w[1]) {
            return Err(PathViolation::Loop {
                path: p,
                node: w[0],
            });
        }
        for &v in &path[1..path.len() - 1] {
            match owner[v] {
                usize::MAX => owner[v] = p,
                first => {
                    return Err(PathViolation::Shared {
                        first,
                        second: p,
                        node: v,
                    });
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0 -> {1, 2, 3}, 1 -> 4, 2 -> 4, 3 -> 1, 1 -> 3, 4 -> 0.
    fn diamond() -> Digraph {
        Digraph::from_fn(5, |v| match v {
            0 => vec![1, 2, 3],
            1 => vec![4, 3],
            2 => vec![4],
            3 => vec![1],
            _ => vec![0],
        })
    }

    #[test]
    fn accepts_disjoint_paths() {
        let g = diamond();
        assert_eq!(
            check_node_disjoint(&g, 0, 4, &[vec![0, 1, 4], vec![0, 2, 4]]),
            Ok(())
        );
    }

    #[test]
    fn reports_each_kind_of_violation() {
        let g = diamond();
        assert_eq!(
            check_node_disjoint(&g, 0, 4, &[vec![0, 1, 4], vec![0, 3, 1, 4]]),
            Err(PathViolation::Shared {
                first: 0,
                second: 1,
                node: 1
            })
        );
        assert_eq!(
            check_node_disjoint(&g, 0, 4, &[vec![0, 2, 1, 4]]),
            Err(PathViolation::NotAnArc {
                path: 0,
                from: 2,
                to: 1
            })
        );
        assert_eq!(
            check_node_disjoint(&g, 0, 4, &[vec![0, 1, 3, 1, 4]]),
            Err(PathViolation::Loop { path: 0, node: 1 })
        );
        assert_eq!(
            check_node_disjoint(&g, 0, 4, &[vec![0, 1]]),
            Err(PathViolation::WrongEnds {
                path: 0,
                src: 0,
                dst: 4
            })
        );
    }
}
