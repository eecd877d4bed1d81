//! Any digraph, read from an edge list: the `file:PATH` topology (docs/topologies.md).
//!
//! The format: one arc per line, `FROM TO`, the two nodes as decimal numbers separated by
//! spaces or tabs; the nodes are `0..N`, where N is one more than the largest number on any
//! line, and every one of them must have an arc. `#` starts a comment to the end of its line;
//! blank lines are skipped. A node's out-ports are numbered in the order its arcs are listed.
//!
//! What a network of one switch per node can be built on is checked here, each refusal
//! one line naming the line or node at fault: no self-loop (a switch does not send to
//! itself), no arc twice, at most [`MAX_DEGREE`] arcs out of and into any node (the
//! switch's ports), and strongly connected (every node reaches every other).

use crate::topology::digraph::Digraph;
use thiserror::Error;

/// The most arcs a node may have out of it or into it: the ports of the largest switch.
pub const MAX_DEGREE: usize = 15;

/// Why an edge list is not a network's graph.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum EdgeListError {
    #[error("line {line}: expected an arc 'FROM TO' (two node numbers), got '{text}'")]
    Malformed { line: usize, text: String },
    #[error(
        "line {line}: the arc {node} -> {node} is a self-loop; a switch does not send to itself"
    )]
    SelfLoop { line: usize, node: usize },
    #[error("line {line}: the arc {from} -> {to} is listed twice (first on line {first})")]
    Twice {
        line: usize,
        from: usize,
        to: usize,
        first: usize,
    },
    #[error("the edge list has no arc")]
    Empty,
    #[error(
        "node {node} has no arc, but the nodes are 0..{nodes} (one more than the largest number listed)"
    )]
    Isolated { node: usize, nodes: usize },
    #[error(
        "node {node} has {degree} arcs {direction} it; a switch has at most {MAX_DEGREE} network ports"
    )]
    Degree {
        node: usize,
        degree: usize,
        direction: &'static str,
    },
    #[error("the graph is not strongly connected: node {from} cannot reach node {to}")]
    NotStronglyConnected { from: usize, to: usize },
}

/// Reads an edge list into a digraph a network can be built on.
pub fn parse(text: &str) -> Result<Digraph, EdgeListError> {
    let arcs = read_arcs(text)?;
    let nodes = arcs
        .iter()
        .map(|a| a.from.max(a.to))
        .max()
        .ok_or(EdgeListError::Empty)?
        + 1;
    let mut out = vec![Vec::new(); nodes];
    let mut into = vec![0usize; nodes];
    for arc in &arcs {
        out[arc.from].push(arc.to);
        into[arc.to] += 1;
    }
    for node in 0..nodes {
        check_degrees(node, out[node].len(), into[node], nodes)?;
    }
    let graph = Digraph::from_fn(nodes, |v| out[v].clone());
    check_strongly_connected(&graph)?;
    Ok(graph)
}

/// One arc of the list and the line it stands on.
struct Arc {
    from: usize,
    to: usize,
    line: usize,
}

/// Every arc, in the order listed; malformed lines, self-loops and repeated arcs refused.
fn read_arcs(text: &str) -> Result<Vec<Arc>, EdgeListError> {
    let mut arcs: Vec<Arc> = Vec::new();
    let mut first_line = std::collections::HashMap::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let malformed = || EdgeListError::Malformed {
            line,
            text: content.to_string(),
        };
        let fields: Vec<&str> = content.split_whitespace().collect();
        let [from, to] = fields[..] else {
            return Err(malformed());
        };
        let (Ok(from), Ok(to)) = (from.parse::<usize>(), to.parse::<usize>()) else {
            return Err(malformed());
        };
        if from == to {
            return Err(EdgeListError::SelfLoop { line, node: from });
        }
        if let Some(&first) = first_line.get(&(from, to)) {
            return Err(EdgeListError::Twice {
                line,
                from,
                to,
                first,
            });
        }
        first_line.insert((from, to), line);
        arcs.push(Arc { from, to, line });
    }
    arcs.sort_by_key(|a| (a.from, a.line));
    Ok(arcs)
}

fn check_degrees(node: usize, out: usize, into: usize, nodes: usize) -> Result<(), EdgeListError> {
    if out == 0 && into == 0 {
        return Err(EdgeListError::Isolated { node, nodes });
    }
    for (degree, direction) in [(out, "out of"), (into, "into")] {
        if degree > MAX_DEGREE {
            return Err(EdgeListError::Degree {
                node,
                degree,
                direction,
            });
        }
    }
    Ok(())
}

/// Strongly connected when node 0 reaches every node and every node reaches node 0; the
/// refusal names the lowest node that fails, in the direction that fails.
fn check_strongly_connected(graph: &Digraph) -> Result<(), EdgeListError> {
    let forward = graph.distances_from(0);
    if let Some(to) = forward.iter().position(Option::is_none) {
        return Err(EdgeListError::NotStronglyConnected { from: 0, to });
    }
    let reversed = reverse(graph);
    let backward = reversed.distances_from(0);
    if let Some(from) = backward.iter().position(Option::is_none) {
        return Err(EdgeListError::NotStronglyConnected { from, to: 0 });
    }
    Ok(())
}

fn reverse(graph: &Digraph) -> Digraph {
    let mut into = vec![Vec::new(); graph.node_count()];
    for (u, v) in graph.arcs() {
        into[v].push(u);
    }
    Digraph::from_fn(graph.node_count(), |v| into[v].clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn a_ring_with_comments_and_blank_lines() {
        let g = parse("# a ring of three\n0 1\n\n1\t2   # tab\n2 0\n").unwrap();
        assert_eq!(g.node_count(), 3);
        assert_eq!(g.arcs().collect::<Vec<_>>(), [(0, 1), (1, 2), (2, 0)]);
    }

    #[test]
    fn out_ports_follow_the_order_listed() {
        let g = parse("0 2\n1 0\n0 1\n2 0\n").unwrap();
        assert_eq!(g.out(0), &[2, 1]);
    }

    #[test]
    fn malformed_lines_are_refused_with_their_number() {
        assert_eq!(
            refusal("0 1\n1 x\n"),
            "line 2: expected an arc 'FROM TO' (two node numbers), got '1 x'"
        );
        assert_eq!(
            refusal("0 1 2\n"),
            "line 1: expected an arc 'FROM TO' (two node numbers), got '0 1 2'"
        );
        assert_eq!(
            refusal("\n\n-1 0\n"),
            "line 3: expected an arc 'FROM TO' (two node numbers), got '-1 0'"
        );
        assert_eq!(refusal("# nothing\n"), "the edge list has no arc");
    }

    #[test]
    fn self_loops_and_repeated_arcs_are_refused() {
        assert_eq!(
            refusal("0 1\n1 1\n"),
            "line 2: the arc 1 -> 1 is a self-loop; a switch does not send to itself"
        );
        assert_eq!(
            refusal("0 1\n1 0\n0 1\n"),
            "line 3: the arc 0 -> 1 is listed twice (first on line 1)"
        );
    }

    #[test]
    fn a_missing_node_is_refused() {
        assert_eq!(
            refusal("0 2\n2 0\n"),
            "node 1 has no arc, but the nodes are 0..3 (one more than the largest number listed)"
        );
    }

    #[test]
    fn more_than_fifteen_ports_is_refused() {
        let star: String = (1..=16).map(|v| format!("0 {v}\n{v} 0\n")).collect();
        assert_eq!(
            refusal(&star),
            "node 0 has 16 arcs out of it; a switch has at most 15 network ports"
        );
        let fifteen: String = (1..=15).map(|v| format!("0 {v}\n{v} 0\n")).collect();
        assert_eq!(parse(&fifteen).unwrap().out(0).len(), 15);
    }

    #[test]
    fn a_graph_that_is_not_strongly_connected_is_refused() {
        assert_eq!(
            refusal("0 1\n1 0\n1 2\n"),
            "the graph is not strongly connected: node 2 cannot reach node 0"
        );
        assert_eq!(
            refusal("0 1\n1 0\n2 0\n"),
            "the graph is not strongly connected: node 0 cannot reach node 2"
        );
    }
}
