//! `kautzgen export` as a user runs it: the exact edge list and GraphML of K(2,2) and the
//! exact routes of K(2,3) pairs, all written out by hand from the Kautz definition and the
//! route rule of docs/kautz.md; several topologies read back by networkx (the project's
//! .venv, `make venv`) with their node count, degree, diameter and mean distance compared
//! with kautzgen's own figures and with theory; an edge list read back by kautzgen; and
//! one-line refusals with exit status 2.

use crate::common::kautzgen;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

/// The version every export records.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `kautzgen export ARGS`, which must succeed: its standard output.
fn export(args: &[&str]) -> String {
    let (status, stdout, stderr) = kautzgen(&[&["export"], args].concat());
    assert_eq!((status, stderr.as_str()), (0, ""), "{args:?}");
    stdout
}

/// `kautzgen export ARGS`, which must be refused: exit 2, nothing on standard output, one
/// line on standard error, which is returned.
fn refused(args: &[&str]) -> String {
    let (status, stdout, stderr) = kautzgen(&[&["export"], args].concat());
    assert_eq!((status, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    stderr
}

/// K(2,2)'s words in lexicographic order, the simulator's node order: 01 is node 0, 21
/// node 5.
const K22_WORDS: [&str; 6] = ["01", "02", "10", "12", "20", "21"];

/// K(2,2)'s arcs by hand, (source, destination, output port, input port): x1x2 leads to
/// x2a for each letter a != x2, by increasing a. Its output port is a + 1 if a < x2, else a;
/// its input port x1 + 1 if x1 < x2 (the destination's first letter), else x1
/// (docs/topologies.md). 01 -> 10 by a = 0: out 0 + 1, in 0 + 1; 12 -> 20: out 0 + 1, in
/// 1 + 1; 21 -> 12: out 2, in 2.
const K22_ARCS: [(usize, usize, usize, usize); 12] = [
    (0, 2, 1, 1), // 01 -> 10
    (0, 3, 2, 1), // 01 -> 12
    (1, 4, 1, 1), // 02 -> 20
    (1, 5, 2, 1), // 02 -> 21
    (2, 0, 1, 1), // 10 -> 01
    (2, 1, 2, 1), // 10 -> 02
    (3, 4, 1, 2), // 12 -> 20
    (3, 5, 2, 2), // 12 -> 21
    (4, 0, 1, 2), // 20 -> 01
    (4, 1, 2, 2), // 20 -> 02
    (5, 2, 1, 2), // 21 -> 10
    (5, 3, 2, 2), // 21 -> 12
];

#[test]
fn the_edge_list_of_k22_is_its_twelve_kautz_arcs_after_a_commented_header() {
    let mut expected = format!(
        "# K(2,2) as an edge list: one arc SRC DST a line, each node by its index in kautzgen's node order\n\
         # written by kautzgen {VERSION}: kautzgen export --d 2 --k 2 --format edgelist\n\
         # nodes: 6\n\
         # arcs: 12\n\
         # each node's arcs in the order of its switch's output ports (docs/topologies.md)\n\
         # node names, INDEX NAME:\n"
    );
    for (index, word) in K22_WORDS.iter().enumerate() {
        expected += &format!("# {index} {word}\n");
    }
    for (src, dst, _, _) in K22_ARCS {
        expected += &format!("{src} {dst}\n");
    }
    assert_eq!(export(&["--d", "2", "--k", "2", "--out", "-"]), expected);

    // Written to a file, the bytes are the same, and a second run replaces them with the
    // same bytes again.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k22.txt");
    let file_name = file.to_str().unwrap();
    for _ in 0..2 {
        assert_eq!(export(&["--d", "2", "--k", "2", "--out", file_name]), "");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);
    }
}

#[test]
fn the_graphml_of_k22_names_its_nodes_and_gives_its_ports() {
    let mut expected = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns \
         http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n\
         \x20 <key id=\"topology\" for=\"graph\" attr.name=\"topology\" attr.type=\"string\"/>\n\
         \x20 <key id=\"kautzgen\" for=\"graph\" attr.name=\"kautzgen\" attr.type=\"string\"/>\n\
         \x20 <key id=\"command\" for=\"graph\" attr.name=\"command\" attr.type=\"string\"/>\n\
         \x20 <key id=\"name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n\
         \x20 <key id=\"out_port\" for=\"edge\" attr.name=\"out_port\" attr.type=\"int\"/>\n\
         \x20 <key id=\"in_port\" for=\"edge\" attr.name=\"in_port\" attr.type=\"int\"/>\n\
         \x20 <graph id=\"network\" edgedefault=\"directed\">\n\
         \x20   <data key=\"topology\">K(2,2)</data>\n\
         \x20   <data key=\"kautzgen\">{VERSION}</data>\n\
         \x20   <data key=\"command\">kautzgen export --d 2 --k 2 --format graphml</data>\n"
    );
    for (index, word) in K22_WORDS.iter().enumerate() {
        expected += &format!("    <node id=\"{index}\"><data key=\"name\">{word}</data></node>\n");
    }
    for (src, dst, out_port, in_port) in K22_ARCS {
        expected += &format!(
            "    <edge source=\"{src}\" target=\"{dst}\"><data key=\"out_port\">{out_port}</data>\
             <data key=\"in_port\">{in_port}</data></edge>\n"
        );
    }
    expected += "  </graph>\n</graphml>\n";
    // The name chooses the format; --format says it for `-`.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k22.graphml");
    export(&["--d", "2", "--k", "2", "--out", file.to_str().unwrap()]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);
    assert_eq!(
        export(&["--d", "2", "--k", "2", "--format", "graphml", "--out", "-"]),
        expected
    );

    // networkx parses it back into the same directed graph, names and ports.
    let read = networkx(&[&file]).remove(0);
    let ports: Vec<[usize; 4]> = K22_ARCS.iter().map(|&(s, d, o, i)| [s, d, o, i]).collect();
    assert_eq!(read["directed"], true);
    assert_eq!(
        read["graph"],
        json!({"topology": "K(2,2)", "kautzgen": VERSION,
               "command": "kautzgen export --d 2 --k 2 --format graphml"})
    );
    assert_eq!(read["names"], json!(K22_WORDS));
    assert_eq!(read["ports"], json!(ports));
    // From every node 2 nodes are 1 hop away and the 3 others 2: (2 + 6) / 5 = 1.6.
    assert_eq!(
        (&read["nodes"], &read["arcs"], &read["diameter"]),
        (&json!(6), &json!(12), &json!(2))
    );
    assert_eq!(read["mean_distance"], 1.6);
}

/// One route of a routes export: the nodes it visits as (index, name), and its bytes.
fn route(nodes: &[(usize, &str)], bytes: &[u8]) -> Value {
    let nodes: Vec<Value> = nodes
        .iter()
        .map(|&(index, name)| json!({"index": index, "name": name}))
        .collect();
    json!({"hops": bytes.len(), "nodes": nodes, "bytes": bytes})
}

/// The routes JSON `export` gives with `args`, checked to be one line.
fn routes(args: &[&str]) -> Value {
    let text = export(args);
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn the_routes_of_k23_pairs_are_the_route_rule_s_in_the_order_tried() {
    // K(2,3)'s words in lexicographic order: 010 0, 012 1, 020 2, 021 3, 101 4, 102 5,
    // 120 6, 121 7, 201 8, 202 9, 210 10, 212 11. A route byte is the output port of the
    // letter a shifted in: a + 1 if a < the node's last letter, else a.
    //
    // 101 -> 012 (docs/kautz.md's rule): out-letter 1 and in-letter 0 start used. Phase A,
    // overlap 2: 01 = 01, the route "2", out-letter 2, in-letter 1. Overlap 1: 1 != 0.
    // Overlap 0: out-letter 0 is free but in-letter 1 is used. Phase B: no letter is free on
    // both sides (out {0}, in {2}). Phase C: out-letter 0 with in-letter 2: "0 2 0 1 2",
    // through 010, 102, 020, 201. Bytes: 2 after 1 is 2; then 0 after 1: 1, 2 after 0: 2,
    // 0 after 2: 1, 1 after 0: 1, 2 after 1: 2.
    let ab = routes(&[
        "--d", "2", "--k", "3", "--src", "101", "--dst", "012", "--out", "-",
    ]);
    assert_eq!(
        ab,
        json!({
            "kautzgen": VERSION,
            "command": "kautzgen export --d 2 --k 3 --format routes --src 101 --dst 012",
            "topology": "K(2,3)",
            "src": {"index": 4, "name": "101"},
            "dst": {"index": 1, "name": "012"},
            "routes": [
                route(&[(4, "101"), (1, "012")], &[2]),
                route(
                    &[(4, "101"), (0, "010"), (5, "102"), (2, "020"), (8, "201"), (1, "012")],
                    &[1, 2, 1, 1, 2]
                ),
            ],
        })
    );
    // 012 -> 101: out-letter 2 and in-letter 1 start used. Phase A: overlaps 2 (12 != 10)
    // and 1 (2 != 1) fail; overlap 0, "1 0 1", out 1, in 2, through 121 and 210. Phase B:
    // letter 0 is free on both sides: "0 1 0 1" through 120, 201, 010. Bytes from last
    // letter 2: 1 -> 2, 0 -> 1, 1 -> 1; and 0 -> 1, 1 -> 1, 0 -> 1, 1 -> 1. Words with
    // commas name the same nodes, and the command records their names.
    let ba = routes(&[
        "--d", "2", "--k", "3", "--src", "0,1,2", "--dst", "1,0,1", "--format", "routes", "--out",
        "-",
    ]);
    assert_eq!(
        ba["command"],
        "kautzgen export --d 2 --k 3 --format routes --src 012 --dst 101"
    );
    assert_eq!(
        ba["routes"],
        json!([
            route(
                &[(1, "012"), (7, "121"), (10, "210"), (4, "101")],
                &[2, 1, 1]
            ),
            route(
                &[(1, "012"), (6, "120"), (8, "201"), (0, "010"), (4, "101")],
                &[1, 1, 1, 1]
            ),
        ])
    );
}

#[test]
fn a_route_table_s_routes_name_nodes_by_index_and_name() {
    // B(2,3), 000 -> 111: 000's self-loop is idle, so 001 is its only neighbour and the pair
    // has one route, shifting in a 1 by port 1 + 1 at each hop (docs/topologies.md). Binary
    // words are their indices: 000 0, 001 1, 011 3, 111 7.
    let json = routes(&[
        "--topology",
        "debruijn",
        "--d",
        "2",
        "--k",
        "3",
        "--src",
        "000",
        "--dst",
        "111",
        "--out",
        "-",
    ]);
    assert_eq!(json["topology"], "B(2,3)");
    assert_eq!(
        json["routes"],
        json!([route(
            &[(0, "000"), (1, "001"), (3, "011"), (7, "111")],
            &[2, 2, 2]
        )])
    );
}

/// The project's Python with networkx, or a failure that says how to install it.
fn python() -> std::path::PathBuf {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    let found = Command::new(&python)
        .args(["-c", "import networkx"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "networkx is not installed in {}: install it with `make venv` (pip installs the \
         Makefile's networkx into .venv/)",
        python.display()
    );
    python
}

/// What networkx reads in each of `files` (tests/suite/export_networkx.py).
fn networkx(files: &[&Path]) -> Vec<Value> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/suite/export_networkx.py"
    );
    let output = Command::new(python())
        .arg(script)
        .args(files)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// `kautzgen topology ARGS --format json`: kautzgen's own figures.
fn topology_json(args: &[&str]) -> Value {
    let (status, stdout, stderr) = kautzgen(&[&["topology"], args, &["--format", "json"]].concat());
    assert_eq!(status, 0, "{args:?}: {stderr}");
    serde_json::from_str(&stdout).unwrap()
}

/// A network's figures, each worked out by hand from its definition.
struct Theory {
    options: &'static [&'static str],
    nodes: u64,
    arcs: u64,
    max_out_degree: u64,
    diameter: u64,
    /// Total distance over every ordered pair, and the pairs.
    distance: (u64, u64),
}

/// The chordal ring of docs/graphs, as --topology takes it.
const CHORDAL_RING: &str = concat!(
    "file:",
    env!("CARGO_MANIFEST_DIR"),
    "/docs/graphs/chordal-ring-10.txt"
);

/// Five topologies; their figures are worked out in the comments.
fn theories() -> [Theory; 5] {
    [
        // K(2,3): 2^3 + 2^2 nodes of out-degree 2, diameter k = 3. From a word aba 2 nodes
        // are 1 hop away, 3 are 2 and 6 are 3 (26 hops); from abc 2, 4 and 5 (25); six of
        // each: 306 hops over 12 x 11 pairs.
        Theory {
            options: &["--d", "2", "--k", "3"],
            nodes: 12,
            arcs: 24,
            max_out_degree: 2,
            diameter: 3,
            distance: (306, 132),
        },
        // B(2,3): 8 words, 2 arcs each but the self-loops of 000 and 111: 14. y is s hops
        // from x when x's last 3 - s letters start y. From 000: 001 at 1, 010 and 011 at 2,
        // 4 at 3 (17); 001: 2, 4, 1 (13); 010: 2, 3, 2 (14); 011: 2, 2, 3 (15); the
        // complements the same: 2 x 59 = 118 over 8 x 7.
        Theory {
            options: &["--topology", "debruijn", "--d", "2", "--k", "3"],
            nodes: 8,
            arcs: 14,
            max_out_degree: 2,
            diameter: 3,
            distance: (118, 56),
        },
        // The bidirectional 3-ary 2-cube: 9 nodes, 4 arcs each; a ring of 3 is 0, 1, 1 hops
        // from a node, so from (0,0) the sum over (a,b) is 2 x 3 x 2 = 12, diameter 2.
        Theory {
            options: &["--topology", "torus", "--k", "3", "--n", "2"],
            nodes: 9,
            arcs: 36,
            max_out_degree: 4,
            diameter: 2,
            distance: (9 * 12, 72),
        },
        // The 3x3 mesh: 2 dimensions x 3 lines x 2 links x 2 directions = 24 arcs, 4 at the
        // centre, diameter 4. On a line of 3 the ordered pairs are 8 hops apart in all; a
        // pair of nodes is |a - c| + |b - d|: 2 x 8 x 9 = 144.
        Theory {
            options: &["--topology", "mesh", "--k", "3", "--n", "2"],
            nodes: 9,
            arcs: 24,
            max_out_degree: 4,
            diameter: 4,
            distance: (144, 72),
        },
        // The chordal ring i -> i + 1, i + 3 (mod 10): offset t takes the fewest a + b with
        // a + 3b = t (mod 10): 1, 2, 1, 2, 3, 2, 3, 4, 3 for t = 1..9, 21 in all.
        Theory {
            options: &["--topology", CHORDAL_RING],
            nodes: 10,
            arcs: 20,
            max_out_degree: 2,
            diameter: 4,
            distance: (10 * 21, 90),
        },
    ]
}

#[test]
fn networkx_reads_every_topology_with_kautzgen_s_and_theory_s_figures() {
    let dir = tempfile::tempdir().unwrap();
    let theories = theories();
    let mut files = Vec::new();
    for (i, theory) in theories.iter().enumerate() {
        for extension in ["txt", "graphml"] {
            let file = dir.path().join(format!("{i}.{extension}"));
            export(&[theory.options, &["--out", file.to_str().unwrap()]].concat());
            files.push(file);
        }
    }
    let files: Vec<&Path> = files.iter().map(|f| f.as_path()).collect();
    let read = networkx(&files);
    for (theory, read) in theories.iter().zip(read.chunks(2)) {
        let what = theory.options.join(" ");
        let own = topology_json(theory.options);
        let (total, pairs) = theory.distance;
        let mean = total as f64 / pairs as f64;
        for read in read {
            let figures = [
                (
                    "nodes",
                    read["nodes"].clone(),
                    own["nodes"].clone(),
                    json!(theory.nodes),
                ),
                (
                    "arcs",
                    read["arcs"].clone(),
                    own["links"].clone(),
                    json!(theory.arcs),
                ),
                (
                    "max out-degree",
                    read["max_out_degree"].clone(),
                    own["ports"].clone(),
                    json!(theory.max_out_degree),
                ),
                (
                    "diameter",
                    read["diameter"].clone(),
                    own["diameter"].clone(),
                    json!(theory.diameter),
                ),
                (
                    "mean distance",
                    read["mean_distance"].clone(),
                    own["mean_distance"].clone(),
                    json!(mean),
                ),
            ];
            for (figure, networkx, kautzgen, theory) in figures {
                assert_eq!(networkx, theory, "{what}: networkx's {figure}");
                assert_eq!(kautzgen, theory, "{what}: kautzgen's {figure}");
            }
        }
    }
}

#[test]
fn an_edge_list_read_back_by_kautzgen_is_the_same_network() {
    // K(2,3)'s edge list as --topology file:PATH: the same arcs; and since every Kautz node
    // lists its arcs by port with none idle, and inputs are numbered in node order as
    // Kautz's are (by in-letter, the lexicographic order of the sources), the same ports.
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("k23.txt");
    export(&["--d", "2", "--k", "3", "--out", list.to_str().unwrap()]);
    let reread = format!("file:{}", list.display());
    let edges = |text: String| -> Vec<String> {
        text.lines()
            .filter(|l| l.trim_start().starts_with("<edge"))
            .map(String::from)
            .collect()
    };
    let original = edges(export(&[
        "--d", "2", "--k", "3", "--format", "graphml", "--out", "-",
    ]));
    assert_eq!(original.len(), 24);
    assert_eq!(
        edges(export(&[
            "--topology",
            &reread,
            "--format",
            "graphml",
            "--out",
            "-"
        ])),
        original
    );
    // An edge list's nodes are named by their indices, which its header says instead of
    // listing them; node 0, once 010, leads to 101 and 102 (nodes 4 and 5).
    let again = export(&["--topology", &reread, "--out", "-"]);
    assert!(
        again.contains("\n# node names: each node is named by its index\n0 4\n0 5\n1 "),
        "{again}"
    );
}

#[test]
fn bad_input_is_refused_in_one_line() {
    let k23 = ["--d", "2", "--k", "3"];
    let cases: [(&[&str], &str); 9] = [
        (
            &["--d", "2", "--k", "0"],
            "K(d,k) needs 1 <= k <= 64, got k = 0",
        ),
        (
            &["--d", "2", "--k", "3", "--n", "2"],
            "--n applies to the torus and mesh topologies only, not to the kautz topology; it takes --d, --k",
        ),
        (
            &["--topology", "torus", "--k", "3"],
            "the torus topology needs --n",
        ),
        (
            &[&k23[..], &["--src", "101", "--dst", "1,0,1"]].concat(),
            "--src and --dst are the same node, 101; a route joins two different nodes",
        ),
        (
            &[&k23[..], &["--src", "011", "--dst", "101"]].concat(),
            "node word '011': letters 2 and 3 are both 1; neighbouring letters of a Kautz word must differ",
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
                "0,0",
                "--dst",
                "3,0",
            ],
            "3-ary 2-cube, bidirectional has no node '3,0': its nodes are 0,0 to 2,2",
        ),
        (
            &[&k23[..], &["--format", "routes"]].concat(),
            "--format routes writes the routes of a pair: give --src and --dst",
        ),
        (
            &[
                &k23[..],
                &["--format", "graphml", "--src", "101", "--dst", "012"],
            ]
            .concat(),
            "--src and --dst choose the pair of --format routes; the graphml format writes the whole network",
        ),
        (
            &[&k23[..], &["--format", "csv"]].concat(),
            "invalid value 'csv' for '--format <FORMAT>' [possible values: edgelist, graphml, routes] (see --help)",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(
            refused(&[args, &["--out", "-"]].concat()),
            format!("error: {message}\n"),
            "{args:?}"
        );
    }
    // A directory is no file to write; nothing is written in it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    assert_eq!(
        refused(&[&k23[..], &["--out", path]].concat()),
        format!("error: '{path}' is a directory; give the name of a file\n")
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
