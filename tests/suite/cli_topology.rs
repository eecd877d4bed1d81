//! `kautzgen topology` as a user runs it: a network's summary and route table, a pair's
//! routes with their route bytes, and one-line refusals with exit status 2. The expected
//! figures are worked out by hand in the comments.

use crate::common::kautzgen;

fn ok(args: &[&str]) -> String {
    let (status, stdout, stderr) = kautzgen(&[&["topology"], args].concat());
    assert_eq!(status, 0, "{args:?}: {stderr}");
    stdout
}

fn refused(args: &[&str]) -> String {
    let (status, stdout, stderr) = kautzgen(&[&["topology"], args].concat());
    assert_eq!((status, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    stderr
}

const DISJOINT: &str =
    "as many node-disjoint routes as the pair has, least total length, shortest first";

#[test]
fn the_unidirectional_torus_and_its_route_table() {
    // From (0,0) to (a,b), a and b > 0: x first, then y, and y first, then x, disjoint,
    // 2(a + b) in all: 4 + 6 + 6 + 8 = 24. To (a,0): the direct a hops and a + 3 round
    // through row 1 (up y, a times x, twice y): 5 + 7 = 12; (0,b) the same. 48 bytes from
    // each of the 9 nodes: 432; the longest route, to (2,0), 5 hops. Distances: (a,b) is
    // a + b hops up from (0,0), (0 + 1 + 2) x 3 x 2 = 18 over the 8 others: 2.25.
    assert_eq!(
        ok(&[
            "--topology",
            "torus",
            "--k",
            "3",
            "--n",
            "2",
            "--rings",
            "uni"
        ]),
        format!(
            "3-ary 2-cube, unidirectional: 9 nodes, a 3x3 switch at each (2 network ports), 18 links, 0 idle output ports\n\
             diameter: 4, mean distance: 2.2500\n\
             routes: {DISJOINT}\n\
             route table: 72 ordered pairs, 2 to 2 routes each, 144 routes, 432 route bytes, the longest 5 hops\n"
        )
    );
}

#[test]
fn a_pair_of_de_bruijn_nodes_whose_self_loop_leaves_one_route() {
    // 000's loop is idle, so 001 is its only neighbour: one route, each hop shifting in a 1
    // by port 1 + 1.
    assert_eq!(
        ok(&[
            "--topology",
            "debruijn",
            "--d",
            "2",
            "--k",
            "3",
            "--src",
            "000",
            "--dst",
            "111"
        ]),
        format!(
            "1 route from 000 to 111 in B(2,3) ({DISJOINT}):\n\
             #  len  ports  walk\n\
             1  3    2 2 2  000 001 011 111\n"
        )
    );
}

#[test]
fn dimension_order_on_the_mesh_goes_down_dimension_0_then_up_dimension_1() {
    // Down digit 0 by port 2, three times; up digit 1 by port 3, twice.
    assert_eq!(
        ok(&[
            "--topology",
            "mesh",
            "--k",
            "4",
            "--n",
            "2",
            "--routes",
            "dimension-order",
            "--src",
            "0,3",
            "--dst",
            "2,0",
        ]),
        "1 route from 0,3 to 2,0 in 4-ary 2-mesh (one dimension-order route, dimension 0 first):\n\
         #  len  ports      walk\n\
         1  5    2 2 2 3 3  0,3 0,2 0,1 0,0 1,0 2,0\n"
    );
}

#[test]
fn an_edge_list_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ring.txt");
    std::fs::write(&path, "# ring\n0 1\n1 2\n2 3\n3 0\n# chord\n0 2\n").unwrap();
    let path = path.to_str().unwrap();
    // Ports: node 0 has two arcs out, node 2 two in. Idle: 4 x 2 - 5 links. Diameter: 1 to 0
    // and 2 to 1 take 3 hops. Routes: 0 -> 2 directly and through 1, every other pair one
    // (1, 2 and 3 have one arc out; only 2 leads into 3). Bytes from 0: 1 + (1 + 2) + 2,
    // from 1: 1 + 2 + 3, from 2: 1 + 2 + 3, from 3: 1 + 2 + 2; 23 in all. Distances, the
    // shortest of those: from 0 1 + 1 + 2, from 1 1 + 2 + 3, from 2 1 + 2 + 3, from 3
    // 1 + 2 + 2 (0 -> 2 cuts 3 -> 2 to two hops): 21 over 12 pairs, 1.75.
    assert_eq!(
        ok(&["--topology", &format!("file:{path}"), "--format", "json"]),
        format!(
            "{{\"topology\":\"{path}\",\"nodes\":4,\"ports\":2,\"links\":5,\"idle_ports\":3,\"diameter\":3,\"mean_distance\":1.75,\
             \"routes\":\"{DISJOINT}\",\"table\":{{\"pairs\":12,\"routes\":13,\"fewest_per_pair\":1,\
             \"most_per_pair\":2,\"route_bytes\":23,\"longest_route\":3}}}}\n"
        )
    );
    std::fs::write(dir.path().join("cut.txt"), "0 1\n1 2\n2 1\n").unwrap();
    let cut = dir.path().join("cut.txt");
    let cut = cut.to_str().unwrap();
    assert_eq!(
        refused(&["--topology", &format!("file:{cut}")]),
        format!("error: {cut}: the graph is not strongly connected: node 1 cannot reach node 0\n")
    );
}

#[test]
fn every_pair_s_route_bytes_a_line_each() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ring.txt");
    std::fs::write(&path, "0 1\n1 2\n2 3\n3 0\n0 2\n").unwrap();
    // Node 0 leaves for 1 by port 1 and for 2 by port 2; every other node has port 1 only.
    // 0 -> 2 has two routes, directly and through 1; every other pair one.
    assert_eq!(
        ok(&["--topology", &format!("file:{}", path.display()), "--all"]),
        "0 -> 1: 1\n0 -> 2: 2 | 1 1\n0 -> 3: 2 1\n\
         1 -> 0: 1 1 1\n1 -> 2: 1\n1 -> 3: 1 1\n\
         2 -> 0: 1 1\n2 -> 1: 1 1 1\n2 -> 3: 1\n\
         3 -> 0: 1\n3 -> 1: 1 1\n3 -> 2: 1 2\n"
    );
    let json = ok(&[
        "--topology",
        "debruijn",
        "--d",
        "2",
        "--k",
        "3",
        "--all",
        "--format",
        "json",
    ]);
    assert_eq!(json.lines().count(), 8 * 7);
    assert_eq!(
        json.lines().next().unwrap(),
        r#"{"topology":"B(2,3)","src":"000","dst":"001","routes":[{"len":1,"ports":[2],"walk":["000","001"]}]}"#
    );
}

#[test]
fn refusals_name_what_is_wrong() {
    for (args, message) in [
        (
            &["--topology", "torus", "--k", "3"][..],
            "the torus topology needs --n",
        ),
        (
            &["--topology", "mesh"][..],
            "the mesh topology needs --k and --n",
        ),
        (&["--d", "2"][..], "the kautz topology needs --k"),
        (
            &["--d", "2", "--k", "3", "--n", "2"][..],
            "--n applies to the torus and mesh topologies only, not to the kautz topology; it takes --d, --k",
        ),
        (
            &[
                "--topology",
                "mesh",
                "--k",
                "3",
                "--n",
                "2",
                "--rings",
                "uni",
            ][..],
            "--rings applies to the torus topology only, not to the mesh topology; it takes --k, --n, --routes",
        ),
        (
            &["--topology", "torus", "--k", "1", "--n", "2"][..],
            "the k-ary n-cube needs 2 <= k <= 65536, got k = 1",
        ),
        (
            &[
                "--topology",
                "debruijn",
                "--d",
                "2",
                "--k",
                "3",
                "--src",
                "000",
                "--dst",
                "000",
            ][..],
            "--src and --dst are the same node, 000; a route joins two different nodes",
        ),
        (
            &[
                "--topology",
                "torus",
                "--k",
                "3",
                "--n",
                "2",
                "--src",
                "3,0",
                "--dst",
                "0,0",
            ][..],
            "3-ary 2-cube, bidirectional has no node '3,0'; its nodes are named like 0,0 and 2,2",
        ),
        (
            &["--topology", "file:/nonexistent/graph.txt"][..],
            "cannot read the edge list /nonexistent/graph.txt: No such file or directory (os error 2)",
        ),
    ] {
        assert_eq!(refused(args), format!("error: {message}\n"), "{args:?}");
    }
    let unknown = refused(&["--topology", "ring"]);
    assert!(
        unknown.contains("the topologies are kautz, debruijn, torus, mesh, file:PATH"),
        "{unknown}"
    );
}
