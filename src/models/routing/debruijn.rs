//! Shortest routing in the de Bruijn digraph B(d,k): shift in the destination's letters
//! after the longest overlap of a suffix of the source with a prefix of the destination.
//!
//! In: a [`DeBruijn`] graph and two node numbers. Out: the letters shifted in.

use crate::topology::debruijn::DeBruijn;

/// The letters to shift in to go from `src` to `dst` by a shortest route; empty when equal.
pub fn shortest_route(graph: &DeBruijn, src: usize, dst: usize) -> Vec<usize> {
    let (a, b) = (graph.word(src), graph.word(dst));
    let k = graph.k();
    let overlap = (0..=k).rev().find(|&v| a[k - v..] == b[..v]).unwrap_or(0);
    b[overlap..].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_routes_have_bfs_length_and_arrive() {
        for (d, k) in [(2, 1), (2, 4), (3, 3), (4, 2)] {
            let g = DeBruijn::new(d, k).unwrap();
            let digraph = g.digraph();
            for s in 0..g.node_count() {
                let distance = digraph.distances_from(s);
                for (t, &bfs) in distance.iter().enumerate() {
                    let hops = shortest_route(&g, s, t);
                    let end = hops.iter().fold(s, |v, &z| g.shift(v, z));
                    assert_eq!(end, t, "B({d},{k}) {s} -> {t}");
                    assert_eq!(Some(hops.len()), bfs, "B({d},{k}) {s} -> {t}");
                }
            }
        }
    }

    #[test]
    fn is_the_shortest_routing_of_ldi_s_to_the_k() {
        // B(d,k) is LDI(d^k, d) arc for arc, and its shortest route is unique (it shifts in
        // the destination's last letters), so the LDI golden model, and with it the LDI
        // shortest-route hardware unit, must route B(d,k) letter for letter.
        use crate::routing::ldi;
        use crate::topology::ldi::Ldi;
        for (d, k) in [(2, 2), (2, 4), (3, 3), (4, 2), (5, 2)] {
            let g = DeBruijn::new(d, k).unwrap();
            let net = Ldi::new(d.pow(k as u32), d).unwrap();
            for s in 0..g.node_count() {
                for t in 0..g.node_count() {
                    assert_eq!(
                        ldi::shortest_route(&net, s, t).links,
                        shortest_route(&g, s, t),
                        "B({d},{k}) {s} -> {t}"
                    );
                }
            }
        }
    }
}
