//! End-to-end tests of `kautzgen torus`: exact standard output, standard error and exit
//! status of the built binary. Expected routes are worked by hand from Demaine and
//! Srinivas's k-ary n-cube paper (docs/papers.md).

use crate::common;

use common::kautzgen;

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

#[test]
fn fig_3_of_the_torus_paper_as_a_table() {
    // 011 -> 012 -> 022 in the torus of dimensions 0, 1; then dimension 2 with dimension 1
    // as Y (x, y = 2, 1), by the west wraparound 0 -> 2, which sets f.
    let (status, out, err) = kautzgen(&[
        "torus",
        "route",
        "--k",
        "3",
        "--n",
        "3",
        "--algo",
        "direction-first",
        "--src",
        "011",
        "--dst",
        "2,2,2",
    ]);
    assert_eq!((status, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "direction-first on the 3-ary 3-cube from 0,1,1 to 2,2,2: delivered in 3 hops\n\
hop  node   header in    masked  port   header out\n\
0    0,1,1  f=0 x=0 y=0  -       +0     f=0 x=0 y=1\n\
1    0,1,2  f=0 x=0 y=1  -       +1     f=0 x=1 y=2\n\
2    0,2,2  f=0 x=1 y=2  -       -2     f=1 x=2 y=1\n\
3    2,2,2  f=1 x=2 y=1  -       eject\n"
    );
}

#[test]
fn direction_first_routes_around_a_faulty_node_through_y() {
    // At 0,1,2 the + hop of X = dimension 1 leads into the faulty 0,2,2; the pair (1, 2) is
    // new there, so Y = dimension 2 may take its wraparound 0 -> 2 instead.
    let (status, out, err) = kautzgen(&[
        "torus",
        "route",
        "--k",
        "3",
        "--n",
        "3",
        "--algo",
        "direction-first",
        "--src",
        "0,1,1",
        "--dst",
        "2,2,2",
        "--faulty-node",
        "0,2,2",
    ]);
    assert_eq!((status, err.as_str()), (0, ""));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1], "faulty nodes: 0,2,2");
    let hops: Vec<Vec<&str>> = lines[3..].iter().map(|l| words(l)).collect();
    assert_eq!(
        hops[1],
        [
            "1", "0,1,2", "f=0", "x=0", "y=1", "+1", "-2", "f=0", "x=1", "y=2"
        ]
    );
    assert_eq!(
        hops[2],
        [
            "2", "2,1,2", "f=0", "x=1", "y=2", "-", "+1", "f=0", "x=1", "y=2"
        ]
    );
    assert_eq!(hops[3], ["3", "2,2,2", "f=0", "x=1", "y=2", "+2", "eject"]);
}

#[test]
fn e_cube_example_as_json() {
    // Dimension 0 first: 0 -> 3 by the wraparound (-0); then dimension 1: 0 -> 2 is a tie,
    // broken the mesh way (+1 twice). E-cube passes f, x, y through untouched.
    let (status, out, err) = kautzgen(&[
        "torus", "route", "--k", "4", "--n", "2", "--algo", "e-cube", "--src", "0,0", "--dst",
        "2,3", "--format", "json",
    ]);
    assert_eq!((status, err.as_str()), (0, ""));
    let header = r#"{"f":0,"x":0,"y":0}"#;
    assert_eq!(
        out,
        format!(
            concat!(
                r#"{{"k":4,"n":2,"algo":"e-cube","src":[0,0],"dst":[2,3],"faulty_links":[],"#,
                r#""faulty_nodes":[],"outcome":"delivered","len":3,"hops":["#,
                r#"{{"node":[0,0],"in":{h},"masked":[],"port":"-0","out":{h}}},"#,
                r#"{{"node":[0,3],"in":{h},"masked":[],"port":"+1","out":{h}}},"#,
                r#"{{"node":[1,3],"in":{h},"masked":[],"port":"+1","out":{h}}},"#,
                r#"{{"node":[2,3],"in":{h},"masked":[],"port":"eject"}}]}}"#,
                "\n"
            ),
            h = header
        )
    );
}

#[test]
fn west_first_takes_the_mesh_way_when_its_wraparound_is_faulty() {
    // 0 -> 3 in X would take the west wraparound on the first hop; with that link faulty
    // the mesh way east remains (three hops), then Y 0 -> 2.
    let (status, out, err) = kautzgen(&[
        "torus",
        "route",
        "--k",
        "4",
        "--n",
        "2",
        "--algo",
        "west-first",
        "--src",
        "0,0",
        "--dst",
        "2,3",
        "--faulty-link",
        "0,0:-0",
        "--format",
        "json",
    ]);
    assert_eq!((status, err.as_str()), (0, ""));
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["outcome"], "delivered");
    assert_eq!(json["len"], 5);
    assert_eq!(json["faulty_links"], serde_json::json!(["0,0:-0"]));
    let ports: Vec<&str> = json["hops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["port"].as_str().unwrap())
        .collect();
    assert_eq!(ports, ["+0", "+0", "+0", "+1", "+1", "eject"]);
    assert_eq!(json["hops"][0]["masked"], serde_json::json!(["-0"]));
}

#[test]
fn a_blocked_route_is_an_answer_not_an_error() {
    let (status, out, err) = kautzgen(&[
        "torus",
        "route",
        "--k",
        "4",
        "--n",
        "2",
        "--algo",
        "e-cube",
        "--src",
        "0,0",
        "--dst",
        "2,3",
        "--faulty-link",
        "0,3:+1",
        "--faulty-node",
        "3,3",
    ]);
    assert_eq!((status, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "e-cube on the 4-ary 2-cube from 0,0 to 2,3: blocked at 0,3 after 1 hop\n\
faulty links: 0,3:+1\n\
faulty nodes: 3,3\n\
hop  node  header in    masked  port     header out\n\
0    0,0   f=0 x=0 y=0  -       -0       f=0 x=0 y=0\n\
1    0,3   f=0 x=0 y=0  +1,-1   blocked\n"
    );
}

#[test]
fn double_e_cube_writes_the_pair_into_the_header() {
    // At 0,0 dimensions 0 and 1 are wrong: (x, y) = (0, 1). At 0,3 only dimension 1 is:
    // x = 1, and y, which was 1, becomes the dimension below it, 0.
    let (status, out, _) = kautzgen(&[
        "torus",
        "route",
        "--k",
        "4",
        "--n",
        "2",
        "--algo",
        "double-e-cube",
        "--src",
        "0,0",
        "--dst",
        "2,3",
    ]);
    assert_eq!(status, 0);
    let outs: Vec<String> = out
        .lines()
        .skip(2)
        .map(|l| words(l)[7..].join(" "))
        .collect();
    assert_eq!(outs, ["f=0 x=0 y=1", "f=0 x=1 y=0", "f=0 x=1 y=0", ""]);
}

#[test]
fn header_layout_in_text_and_json() {
    let (status, out, err) = kautzgen(&["torus", "header", "--k", "3", "--n", "3"]);
    assert_eq!((status, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "header of the 3-ary 3-cube: 11 bits (destination digits, x, y, f)\n\
field   bits  width\n\
dst.x0  0..1  2\n\
dst.x1  2..3  2\n\
dst.x2  4..5  2\n\
x       6..7  2\n\
y       8..9  2\n\
f       10    1\n"
    );
    let (status, out, _) = kautzgen(&[
        "torus", "header", "--k", "5", "--n", "2", "--format", "json",
    ]);
    assert_eq!(status, 0);
    assert_eq!(
        out,
        concat!(
            r#"{"k":5,"n":2,"width":9,"fields":[{"name":"dst.x0","lsb":0,"width":3},"#,
            r#"{"name":"dst.x1","lsb":3,"width":3},{"name":"x","lsb":6,"width":1},"#,
            r#"{"name":"y","lsb":7,"width":1},{"name":"f","lsb":8,"width":1}]}"#,
            "\n"
        )
    );
}

#[test]
fn bad_input_is_one_line_on_stderr_and_exit_status_2() {
    let route = |extra: &[&str]| {
        let mut args = vec!["torus", "route"];
        args.extend_from_slice(extra);
        kautzgen(&args)
    };
    let cases: [(&[&str], &str); 11] = [
        (
            &[
                "--k", "1", "--n", "2", "--algo", "e-cube", "--src", "0,0", "--dst", "1,1",
            ],
            "the k-ary n-cube needs 2 <= k <= 65536, got k = 1",
        ),
        (
            &[
                "--k", "4", "--n", "0", "--algo", "e-cube", "--src", "0", "--dst", "1",
            ],
            "the k-ary n-cube needs 1 <= n <= 32, got n = 0",
        ),
        (
            &[
                "--k", "4", "--n", "2", "--algo", "e-cube", "--src", "0,4", "--dst", "1,1",
            ],
            "node '0,4': digit 4 at position 2 is out of range; the 4-ary 2-cube uses digits 0 to 3",
        ),
        (
            &[
                "--k", "4", "--n", "2", "--algo", "e-cube", "--src", "0,1", "--dst", "0,1,2",
            ],
            "node '0,1,2' has 3 digits, but nodes of the 4-ary 2-cube have 2",
        ),
        (
            &[
                "--k", "4", "--n", "2", "--algo", "e-cube", "--src", "1,1", "--dst", "1,1",
            ],
            "source and destination are both 1,1; a route needs two different nodes",
        ),
        (
            &[
                "--k",
                "4",
                "--n",
                "3",
                "--algo",
                "west-first",
                "--src",
                "0,0,0",
                "--dst",
                "1,1,1",
            ],
            "west-first routes on a 2-D torus: it needs n = 2, got n = 3",
        ),
        (
            &[
                "--k",
                "4",
                "--n",
                "1",
                "--algo",
                "direction-first",
                "--src",
                "1",
                "--dst",
                "2",
            ],
            "direction-first needs n >= 2 (it routes in the torus of two dimensions at a time), got n = 1",
        ),
        (
            &[
                "--k",
                "4",
                "--n",
                "2",
                "--algo",
                "e-cube",
                "--src",
                "1,1",
                "--dst",
                "2,2",
                "--faulty-node",
                "1,1",
            ],
            "source 1,1 is a faulty node",
        ),
        (
            &[
                "--k",
                "4",
                "--n",
                "2",
                "--algo",
                "west-first",
                "--src",
                "1,1",
                "--dst",
                "2,2",
                "--faulty-node",
                "2,2",
            ],
            "destination 2,2 is a faulty node",
        ),
        (
            &[
                "--k",
                "4",
                "--n",
                "2",
                "--algo",
                "e-cube",
                "--src",
                "1,1",
                "--dst",
                "2,2",
                "--faulty-link",
                "1,1+0",
            ],
            "link '1,1+0': expected NODE:PORT, e.g. 1,0:+0",
        ),
        (
            &[
                "--k",
                "2",
                "--n",
                "2",
                "--algo",
                "e-cube",
                "--src",
                "1,1",
                "--dst",
                "0,0",
                "--faulty-link",
                "1,1:+0",
            ],
            "link '1,1:+0' does not exist: in a 2-ary cube node 1,1 leaves dimension 0 only through port -0",
        ),
    ];
    for (args, message) in cases {
        let (status, out, err) = route(args);
        assert_eq!(
            (status, out.as_str(), err),
            (2, "", format!("error: {message}\n")),
            "{args:?}"
        );
    }
    let (status, out, err) = kautzgen(&["torus", "header", "--k", "70000", "--n", "2"]);
    assert_eq!(
        (status, out.as_str(), err.as_str()),
        (
            2,
            "",
            "error: the k-ary n-cube needs 2 <= k <= 65536, got k = 70000\n"
        )
    );
}

#[test]
fn help_explains_with_an_example() {
    let (status, out, _) = kautzgen(&["torus", "route", "--help"]);
    assert_eq!(status, 0);
    assert!(out.contains(
        "kautzgen torus route --k 3 --n 3 --algo direction-first --src 0,1,1 --dst 2,2,2"
    ));
    assert!(out.contains(
        "          - double-e-cube:   E-cube that records the two lowest incorrect dimensions in the header (section 4.2)\n"
    ));
    let (status, out, _) = kautzgen(&["torus", "--help"]);
    assert_eq!(status, 0);
    assert!(out.contains("most significant digit first"));
    assert!(out.contains("kautzgen torus header --k 3 --n 3"));
}
