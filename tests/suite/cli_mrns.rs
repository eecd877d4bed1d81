//! Runs `kautzgen mrns` as a user would and checks its exact output and exit status.

use std::process::Command;

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

fn kautzgen(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(args)
        .output()
        .expect("the kautzgen binary runs");
    Run {
        status: output.status.code().expect("exited normally"),
        stdout: String::from_utf8(output.stdout).expect("UTF-8 output"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8 errors"),
    }
}

fn paths(args: &[&str]) -> Run {
    let mut all = vec!["mrns", "paths"];
    all.extend_from_slice(args);
    kautzgen(&all)
}

#[test]
fn example_3_as_text() {
    // The eight paths P_0..P_7 of Example 3 of Choi and Chung's MRNS paper, in its order.
    let run = paths(&[
        "--radices",
        "2,3,3,4",
        "--src",
        "0,0,0,0",
        "--dst",
        "0,2,2,3",
    ]);
    assert_eq!((run.status, run.stderr.as_str()), (0, ""));
    assert_eq!(
        run.stdout,
        "\
Z2xZ3xZ3xZ4: 8 node-disjoint paths from 0,0,0,0 to 0,2,2,3 (Hamming distance 3)
P0 shortest len 3: moves d0=3 d1=2 d2=2; nodes 0,0,0,0 -> 0,0,0,3 -> 0,0,2,3 -> 0,2,2,3
P1 shortest len 3: moves d1=2 d2=2 d0=3; nodes 0,0,0,0 -> 0,0,2,0 -> 0,2,2,0 -> 0,2,2,3
P2 shortest len 3: moves d2=2 d0=3 d1=2; nodes 0,0,0,0 -> 0,2,0,0 -> 0,2,0,3 -> 0,2,2,3
P3 detour len 4: moves d0=1 d1=2 d2=2 d0=3; nodes 0,0,0,0 -> 0,0,0,1 -> 0,0,2,1 -> 0,2,2,1 -> 0,2,2,3
P4 detour len 4: moves d0=2 d1=2 d2=2 d0=3; nodes 0,0,0,0 -> 0,0,0,2 -> 0,0,2,2 -> 0,2,2,2 -> 0,2,2,3
P5 detour len 4: moves d1=1 d2=2 d0=3 d1=2; nodes 0,0,0,0 -> 0,0,1,0 -> 0,2,1,0 -> 0,2,1,3 -> 0,2,2,3
P6 detour len 4: moves d2=1 d0=3 d1=2 d2=2; nodes 0,0,0,0 -> 0,1,0,0 -> 0,1,0,3 -> 0,1,2,3 -> 0,2,2,3
P7 excursion len 5: moves d3=1 d0=3 d1=2 d2=2 d3=0; nodes 0,0,0,0 -> 1,0,0,0 -> 1,0,0,3 -> 1,0,2,3 -> 1,2,2,3 -> 0,2,2,3
"
    );
    // The paper's plain digit strings name the same nodes.
    let plain = paths(&["--radices", "2,3,3,4", "--src", "0000", "--dst", "0223"]);
    assert_eq!(plain.stdout, run.stdout);
}

#[test]
fn json_is_one_deterministic_line() {
    let args = [
        "--radices",
        "4",
        "--src",
        "0",
        "--dst",
        "3",
        "--format",
        "json",
    ];
    let run = paths(&args);
    assert_eq!((run.status, run.stderr.as_str()), (0, ""));
    assert_eq!(
        run.stdout,
        concat!(
            r#"{"radices":[4],"src":[0],"dst":[3],"k":1,"l":3,"paths":["#,
            r#"{"kind":"shortest","moves":[{"dimension":0,"value":3}],"nodes":[[0],[3]],"len":1},"#,
            r#"{"kind":"detour","moves":[{"dimension":0,"value":1},{"dimension":0,"value":3}],"nodes":[[0],[1],[3]],"len":2},"#,
            r#"{"kind":"detour","moves":[{"dimension":0,"value":2},{"dimension":0,"value":3}],"nodes":[[0],[2],[3]],"len":2}"#,
            "]}\n"
        )
    );
    assert_eq!(paths(&args).stdout, run.stdout);
}

#[test]
fn json_of_example_3_lists_its_paths_in_order() {
    let run = paths(&[
        "--radices",
        "2,3,3,4",
        "--src",
        "0,0,0,0",
        "--dst",
        "0,2,2,3",
        "--format",
        "json",
    ]);
    assert_eq!(run.status, 0);
    assert!(run.stdout.starts_with(
        r#"{"radices":[2,3,3,4],"src":[0,0,0,0],"dst":[0,2,2,3],"k":3,"l":8,"paths":[{"kind":"shortest","moves":[{"dimension":0,"value":3},"#
    ));
    assert!(run.stdout.ends_with(
        r#"{"kind":"excursion","moves":[{"dimension":3,"value":1},{"dimension":0,"value":3},{"dimension":1,"value":2},{"dimension":2,"value":2},{"dimension":3,"value":0}],"nodes":[[0,0,0,0],[1,0,0,0],[1,0,0,3],[1,0,2,3],[1,2,2,3],[0,2,2,3]],"len":5}]}
"#
    ));
    let kinds: Vec<&str> = run
        .stdout
        .match_indices(r#""kind":""#)
        .map(|(i, _)| {
            let rest = &run.stdout[i + 8..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "shortest",
            "shortest",
            "shortest",
            "detour",
            "detour",
            "detour",
            "detour",
            "excursion"
        ]
    );
}

#[test]
fn bad_input_is_one_line_and_exit_status_2() {
    let cases: [(&[&str], &str); 7] = [
        (
            &["--radices", "2,1,3", "--src", "0,0,0", "--dst", "1,0,0"],
            "error: --radices: radix list '2,1,3': radix 1 at position 2 (dimension 1) is out of range; MRNS radices must be 2 to 256\n",
        ),
        (
            &["--radices", "2,x", "--src", "0,0", "--dst", "1,0"],
            "error: --radices: radix list '2,x': 'x' is not a number (write radices separated by commas, most significant first, e.g. 2,3,3,4)\n",
        ),
        (
            &["--radices", "", "--src", "0", "--dst", "1"],
            "error: --radices: an MRNS network needs at least one radix, e.g. 2,3,3,4 for Z2xZ3xZ3xZ4\n",
        ),
        (
            &[
                "--radices",
                "2,3,3,4",
                "--src",
                "0,0,0,0",
                "--dst",
                "0,2,2,4",
            ],
            "error: --dst: address '0,2,2,4': digit 4 at position 4 (dimension 0) is out of range; that dimension has radix 4, digits 0 to 3\n",
        ),
        (
            &["--radices", "2,3,3,4", "--src", "0,0,0", "--dst", "0,2,2,3"],
            "error: --src: address '0,0,0' has 3 digits, but nodes of Z2xZ3xZ3xZ4 have 4\n",
        ),
        (
            &[
                "--radices",
                "2,3,3,4",
                "--src",
                "0,0,a,0",
                "--dst",
                "0,2,2,3",
            ],
            "error: --src: address '0,0,a,0': 'a' is not a digit (write digits separated by commas, most significant first, e.g. 0,2,2,3)\n",
        ),
        (
            &["--radices", "2,3,3,4", "--src", "0,1,2,3", "--dst", "0123"],
            "error: source and destination are both 0,1,2,3; node-disjoint paths need two different nodes\n",
        ),
    ];
    for (args, stderr) in cases {
        let run = paths(args);
        assert_eq!(
            (run.status, run.stdout.as_str(), run.stderr.as_str()),
            (2, "", stderr),
            "{args:?}"
        );
    }
}

#[test]
fn help_explains_with_an_example() {
    let run = kautzgen(&["mrns", "paths", "--help"]);
    assert_eq!(run.status, 0);
    assert!(
        run.stdout
            .contains("kautzgen mrns paths --radices 2,3,3,4 --src 0,0,0,0 --dst 0,2,2,3\n")
    );
    assert!(run.stdout.contains("--radices 2,3,3,4 is Z2xZ3xZ3xZ4"));
    let usage = kautzgen(&["mrns", "paths", "--radices", "2,3"]);
    assert_eq!(usage.status, 2, "clap's own usage errors");
    assert_eq!(
        usage.stderr,
        "error: the following required arguments were not provided: --src <SRC> --dst <DST> (see --help)\n"
    );
}
